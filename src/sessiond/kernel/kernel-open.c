// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-open.c - the kernel tracer the domain uses, opened at start: the
 * backend --kernel-backend names (the module, loaded with libkmod; or
 * tracefs, the kernel's own buffers), the CPUs it has streams for, its
 * catalog's answer to which events a rule stands for, the catalog listed
 * (list -k) and the tracer described.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/probe/probe-loc.h"
#include "common/trace/kabi-struct.h"
#include "sessiond/kernel/kernel-internal.h"
#include "sessiond/kernel/kmodule.h"
#include "sessiond/model/rule-filter.h"

#define KERNEL_MAX_CPUS 8192	/* streams per channel at most */

/* The possible CPUs, from "0-3,5" in /sys/devices/system/cpu/possible. */
int ltt_kernel_read_cpus(struct ltt_kernel *k)
{
	char text[4096] = "", *p, *end;
	unsigned long a, b, c;
	FILE *f = fopen("/sys/devices/system/cpu/possible", "re");

	if (f) {
		if (!fgets(text, sizeof(text), f))
			text[0] = '\0';
		fclose(f);
	}
	k->cpus = calloc(KERNEL_MAX_CPUS, sizeof(*k->cpus));
	if (!k->cpus)
		return -ENOMEM;
	for (p = text; *p && *p != '\n'; p = *end == ',' ? end + 1 : end) {
		a = strtoul(p, &end, 10);
		if (end == p)
			return -EINVAL;
		b = a;
		if (*end == '-') {
			p = end + 1;
			b = strtoul(p, &end, 10);
			if (end == p || b < a)
				return -EINVAL;
		}
		for (c = a; c <= b && k->nr_cpus < KERNEL_MAX_CPUS; c++)
			k->cpus[k->nr_cpus++] = (uint32_t)c;
	}
	return k->nr_cpus ? 0 : -EINVAL;
}

/* Load the module (unless loaded already) and open it, or say @why not. */
static int open_module(struct ltt_kernel *kernel, const char *probes, char *why, size_t why_size)
{
	int ret = ltt_kmodule_load(LTT_KMODULE_TRACER, probes, why, why_size,
				   &kernel->module_loaded);

	if (ret)
		return ret;
	kernel->backend = &ltt_kabi_module;
	ret = ltt_kabi_open(kernel->backend, NULL, &kernel->kabi, &kernel->version);
	if (ret == -EPROTO)
		snprintf(why, why_size, "the kernel tracer speaks ABI %u.%u (version %s), this "
			 "daemon %u.%u: install the module and the daemon of one release",
			 kernel->version.major, kernel->version.minor,
			 kernel->version.tracer_version, LTT_KABI_MAJOR, LTT_KABI_MINOR);
	else if (ret == -ENOENT)
		snprintf(why, why_size, "the kernel tracer is not loaded (/proc/%s is missing): "
			 "load the module %s", LTT_KABI_PROC_NAME, LTT_KMODULE_TRACER);
	else if (ret)
		snprintf(why, why_size, "cannot open the kernel tracer /proc/%s: %s",
			 LTT_KABI_PROC_NAME, strerror(-ret));
	if (ret && kernel->module_loaded)
		ltt_kmodule_unload(LTT_KMODULE_TRACER);
	kernel->module_loaded &= !ret;
	return ret;
}

/*
 * Open the kernel's own tracing buffers (tracefs), or say @why not.
 * Returns 0 or -ENODEV (the public code is then KERNEL_UNAVAILABLE: the
 * module's reasons are not this backend's).
 */
static int open_tracefs(struct ltt_kernel *kernel, char *why, size_t why_size)
{
	int ret;

	kernel->backend = &ltt_kabi_tracefs;
	ret = ltt_kabi_open(kernel->backend, NULL, &kernel->kabi, &kernel->version);
	if (!ret)
		return 0;
	kernel->backend = NULL;
	snprintf(why, why_size, "tracefs, the kernel's own tracing buffers, is not available: %s",
		 ret == -ENOSYS ? "the kernel was built without it (CONFIG_FTRACE)" :
		 ret == -ENOENT ? "no events there" : strerror(-ret));
	return -ENODEV;
}

/*
 * The module where it loads, else tracefs; the module's reason is logged,
 * and when neither serves, @why gives both.
 */
static int open_auto(struct ltt_kernel *kernel, const char *probes, char *why, size_t why_size)
{
	char module_why[LTT_KMODULE_WHY_MAX];
	size_t len;

	if (!open_module(kernel, probes, module_why, sizeof(module_why)))
		return 0;
	LTT_INFO("kernel: the module can't serve (%s): tracing through tracefs instead",
		 module_why);
	if (!open_tracefs(kernel, why, why_size)) {
		snprintf(kernel->backend_why, sizeof(kernel->backend_why),
			 "ltt's module can't serve: %s", module_why);
		return 0;
	}
	len = strlen(why);
	snprintf(why + len, why_size - len, "; and ltt's module: %s", module_why);
	return -ENODEV;
}

int ltt_kernel_open(struct ltt_kernel *kernel, enum ltt_kernel_backend choice,
		    const char *probes, char *why, size_t why_size)
{
	if (choice == LTT_KERNEL_BACKEND_TRACEFS)
		return open_tracefs(kernel, why, why_size);
	if (choice == LTT_KERNEL_BACKEND_MODULE)
		return open_module(kernel, probes, why, why_size);
	return open_auto(kernel, probes, why, why_size);
}

/* ---- the catalog: which events a rule stands for ---- */

static bool rule_is_syscall(const struct ltt_event_rule *rule)
{
	return rule->attr.type == LTT_EVENT_SYSCALL;
}

bool ltt_kernel_syscall_event(char name[LTT_KABI_NAME_MAX], const char *syscall, bool entry)
{
	size_t len = strnlen(syscall, LTT_KABI_NAME_MAX);
	const char *prefix = entry ? LTT_KABI_SYSCALL_ENTRY_PREFIX : LTT_KABI_SYSCALL_EXIT_PREFIX;
	size_t plen = strlen(prefix);

	if (plen + len >= LTT_KABI_NAME_MAX)
		return false;
	memcpy(name, prefix, plen);
	memcpy(name + plen, syscall, len + 1);
	return true;
}

/*
 * The tracer's catalog in one call: a new one in *@ret (1), none when it
 * still is @cur's (0; NULL: none held), or -errno.
 */
static int catalog_list(struct ltt_kernel *k, const struct ltt_kernel_catalog *cur,
			struct ltt_kernel_catalog **ret)
{
	struct ltt_kernel_catalog *c = calloc(1, sizeof(*c));
	int err;

	if (!c)
		return -ENOMEM;
	err = ltt_kabi_catalog(k->kabi, cur ? &cur->gen : NULL, &c->gen, &c->entries, &c->nr);
	if (err || (cur && c->gen == cur->gen)) {
		free(c);
		return err;
	}
	*ret = c;
	return 1;
}

int ltt_kernel_catalog_init(struct ltt_kernel *k)
{
	int ret;

	pthread_mutex_init(&k->catalog_lock, NULL);
	ret = catalog_list(k, NULL, &k->catalog);
	k->rules_gen = ret > 0 ? k->catalog->gen : 0;
	return ret < 0 ? ret : 0;
}

void ltt_kernel_catalog_fini(struct ltt_kernel *k)
{
	struct ltt_kernel_catalog *c = k->catalog, *older;

	for (; c; c = older) {
		older = c->older;
		free(c->entries);
		free(c);
	}
	k->catalog = NULL;
}

const struct ltt_kernel_catalog *ltt_kernel_catalog(struct ltt_kernel *k)
{
	struct ltt_kernel_catalog *cur = __atomic_load_n(&k->catalog, __ATOMIC_ACQUIRE), *c = NULL;

	/* only the module changes it, from 1.11 on: tracefs's stays, asking it costs */
	if (k->backend != &ltt_kabi_module || k->version.minor < LTT_KABI_MINOR_CATALOG)
		return cur;
	pthread_mutex_lock(&k->catalog_lock);
	cur = k->catalog;
	if (catalog_list(k, cur, &c) > 0 && c) {
		LTT_INFO("kernel: the tracer's events changed: %zu now, %zu before", c->nr, cur->nr);
		c->older = cur;
		__atomic_store_n(&k->catalog, c, __ATOMIC_RELEASE);
		cur = c;
	}
	pthread_mutex_unlock(&k->catalog_lock);
	return cur;
}

int ltt_kernel_for_each_event(struct ltt_kernel *k, const struct ltt_event_rule *rule,
			      int (*fn)(void *arg, const char *name), void *arg)
{
	const struct ltt_kernel_catalog *c;
	char name[LTT_KABI_NAME_MAX];
	size_t i;
	int ret = 0;

	if (ltt_event_type_is_probe(rule->attr.type))
		return 0;	/* no event of the catalog: its probe's (kernel-probe.h) */
	if (!rule_is_syscall(rule)) {
		c = ltt_kernel_catalog(k);
		for (i = 0; i < c->nr && !ret; i++)
			if (ltt_rule_takes(rule, c->entries[i].name, 0))
				ret = fn(arg, c->entries[i].name);
		return ret;
	}
	for (i = 0; i < k->nr_syscalls && !ret; i++) {
		if (!ltt_rule_takes(rule, k->syscalls[i].name, 0))
			continue;
		if (ltt_kernel_syscall_event(name, k->syscalls[i].name, true))
			ret = fn(arg, name);
		if (!ret && ltt_kernel_syscall_event(name, k->syscalls[i].name, false))
			ret = fn(arg, name);
	}
	return ret;
}

/* "integer", "string", ... for lttctl list -k -f. */
static const char *type_name(const struct ltt_kabi_field *f)
{
	switch (f->type) {
	case LTT_KABI_FIELD_INTEGER:
		if (f->enum_id)
			return "enum";
		return f->base == 16 ? "integer (hex)" : "integer";
	case LTT_KABI_FIELD_STRING:
		return "string";
	case LTT_KABI_FIELD_ARRAY:
		return f->bits ? "bit array" : f->encoding ? "text array" : "array";
	case LTT_KABI_FIELD_SEQUENCE:
		return f->bits ? "bit sequence" : f->encoding ? "text sequence" : "sequence";
	case LTT_KABI_FIELD_STRUCT:
		return "structure";
	case LTT_KABI_FIELD_STRUCT_SEQUENCE:
		return "sequence of structures";
	default:
		return "unknown";
	}
}

/* One entry of the list: @name, with the fields of event @fields_of if not NULL. */
static void put_event(struct ltt_kernel *k, const char *name, const char *fields_of,
		      struct ltt_wbuf *reply)
{
	struct ltt_kabi_event_desc desc;
	uint32_t i, n = 0, top = 0;

	if (fields_of && !ltt_kabi_event_desc(k->kabi, fields_of, &desc))
		n = desc.nr_fields;
	/* the event's fields: a structure's members are in its type */
	for (i = 0; i < n; i = ltt_kabi_next_field(desc.fields, i))
		top++;
	ltt_wbuf_put_u32(reply, 0);
	ltt_wbuf_put_str(reply, "");
	ltt_wbuf_put_str(reply, name);
	ltt_wbuf_put_u32(reply, (uint32_t)-1);	/* no log level */
	ltt_wbuf_put_u32(reply, top);
	for (i = 0; i < n; i = ltt_kabi_next_field(desc.fields, i)) {
		ltt_wbuf_put_str(reply, desc.fields[i].name);
		ltt_wbuf_put_str(reply, type_name(&desc.fields[i]));
	}
}

/* The domain's list_events operation (domain.h): the catalog's events. */
int ltt_kernel_list_events(struct ltt_domain_impl *d, enum ltt_event_type type,
			   bool with_fields, uid_t uid, struct ltt_wbuf *reply)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	const struct ltt_kernel_catalog *c;
	char entry[LTT_KABI_NAME_MAX];
	size_t i;

	if (type == LTT_EVENT_SYSCALL) {
		ltt_wbuf_put_u32(reply, (uint32_t)k->nr_syscalls);
		for (i = 0; i < k->nr_syscalls; i++) {
			/* A system call's fields are its entry's arguments. */
			bool fields = with_fields && ltt_kernel_syscall_event(entry, k->syscalls[i].name, true);

			put_event(k, k->syscalls[i].name, fields ? entry : NULL, reply);
		}
		return reply->err;
	}
	c = ltt_kernel_catalog(k);
	ltt_wbuf_put_u32(reply, (uint32_t)c->nr);
	for (i = 0; i < c->nr; i++)
		put_event(k, c->entries[i].name, with_fields ? c->entries[i].name : NULL, reply);
	return reply->err;
}

/* The domain's describe_tracer operation (domain.h): the backend, its version, why. */
void ltt_kernel_describe_tracer(struct ltt_domain_impl *d, struct ltt_wbuf *reply)
{
	const struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	char why[sizeof(k->backend_why) + sizeof(k->strings_why) + 2];

	/* what it records otherwise than the module: said with the reason */
	snprintf(why, sizeof(why), "%s%s%s", k->backend_why,
		 k->backend_why[0] && k->strings_why[0] ? "; " : "", k->strings_why);
	ltt_wbuf_put_str(reply, k->backend->name);
	ltt_wbuf_put_str(reply, k->version.tracer_version);
	ltt_wbuf_put_str(reply, why);
}

void ltt_kernel_started(struct ltt_kernel *kernel)
{
	ltt_kabi_run_points(kernel->kabi);
}
