// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-probe.c - the tracefs backend's registry of dynamic
 * events: the probes placed from outside (PROBE, doc/kernel-tracefs.md
 * "Probes").
 *
 * A probe is one definition written to uprobe_events (kprobe_events for
 * kernel probes), appended (a truncating open would remove every probe of
 * every tool), under the group ltt_TAG (the daemon's pid and namespace, tracefs_name_tag()) and the event
 * pN: events/ltt_PID/pN exists in the top level and in every instance,
 * where EVENT_ENABLE enables it.  The catalog knows it as "__ltt_PID_pN"
 * (tracefs names no system "_"), which the PROBE call returns as the
 * event's name; list leaves it out.  Releasing the probe disables it in
 * every instance (one kept for its reader would hold it: the kernel
 * refuses to remove an enabled probe) and removes its definition.  The
 * probes of a daemon that died are removed by the next one at start
 * (tracefs_probe_reap_stale()), after the instances they were enabled in.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"

#define UPROBE_EVENTS "uprobe_events"
#define KPROBE_EVENTS "kprobe_events"

/*
 * A placed probe: the PROBE object's priv.  A KRETPROBE is two
 * definitions, a kprobe at the function's entry (pN_entry) and a
 * kretprobe (pN_return): tracefs has no event for both.
 */
struct tf_probe {
	struct tracefs *t;
	const char *file;	/* UPROBE_EVENTS or KPROBE_EVENTS */
	char group[LTT_FTRACE_NAME_MAX];
	unsigned int nr;	/* events: 1, or 2 for a KRETPROBE */
	char event[2][LTT_FTRACE_NAME_MAX];
	char name[2][LTT_KABI_NAME_MAX];	/* in the catalog */
};

uint32_t tracefs_probe_offered(const struct tracefs *t)
{
	uint32_t bits = 0;

	if (!faccessat(t->root_fd, UPROBE_EVENTS, W_OK, 0))
		bits |= 1U << LTT_KABI_UPROBE;
	if (!faccessat(t->root_fd, KPROBE_EVENTS, W_OK, 0))
		bits |= 1U << LTT_KABI_KPROBE | 1U << LTT_KABI_KRETPROBE;
	if (t->eprobes || t->bpf)
		bits |= 1U << LTT_KABI_SYSCALL;	/* system call strings */
	return bits;
}

/* ---- the catalog's entries of probes ---- */

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct tracefs_event *)a)->name,
		      ((const struct tracefs_event *)b)->name);
}

static int catalog_insert(struct tracefs *t, const struct tf_probe *p, unsigned int i)
{
	struct tracefs_event *bigger = realloc(t->events, (t->nr_events + 1) * sizeof(*bigger));
	struct tracefs_event *ev;

	if (!bigger)
		return -ENOMEM;
	t->events = bigger;
	ev = &t->events[t->nr_events++];
	memset(ev, 0, sizeof(*ev));
	strcpy(ev->name, p->name[i]);
	strcpy(ev->system, p->group);
	strcpy(ev->event, p->event[i]);
	ev->probe = true;
	qsort(t->events, t->nr_events, sizeof(*t->events), by_name);
	return 0;
}

static void catalog_remove(struct tracefs *t, const char *name)
{
	struct tracefs_event *ev = (struct tracefs_event *)tracefs_find(t, name);

	if (!ev)
		return;
	memmove(ev, ev + 1, (size_t)(t->events + t->nr_events - (ev + 1)) * sizeof(*ev));
	t->nr_events--;
}

/* ---- definitions ---- */

static const char *type_of(const struct ltt_kabi_probe_arg *a)
{
	static const char *const types[2][4] = { { "u8", "u16", "u32", "u64" },
						 { "s8", "s16", "s32", "s64" } };
	unsigned int i = a->size == 1 ? 0 : a->size == 2 ? 1 : a->size == 4 ? 2 : 3;

	return types[!!a->is_signed][i];
}

static bool reg_valid(const char *reg)
{
	size_t i, len = strnlen(reg, LTT_KABI_REG_MAX);

	if (len == 0 || len == LTT_KABI_REG_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!((reg[i] >= 'a' && reg[i] <= 'z') || (reg[i] >= '0' && reg[i] <= '9')))
			return false;
	return true;
}

/* " argN=FETCH:TYPE" of @a into @buf (@size bytes). */
static int arg_text(const struct ltt_kabi_probe_arg *a, unsigned int n, char *buf, size_t size)
{
	int len;

	if ((a->size != 1 && a->size != 2 && a->size != 4 && a->size != 8) || a->is_signed > 1)
		return -EINVAL;
	if (a->kind <= LTT_KABI_ARG_MEM && !reg_valid(a->reg))
		return -EINVAL;
	switch (a->kind) {
	case LTT_KABI_ARG_REG:
		len = snprintf(buf, size, " arg%u=%%%s:%s", n, a->reg, type_of(a));
		break;
	case LTT_KABI_ARG_MEM:
		len = snprintf(buf, size, " arg%u=%c%" PRIu64 "(%%%s):%s", n,
			       a->value < 0 ? '-' : '+',
			       a->value < 0 ? -(uint64_t)a->value : (uint64_t)a->value, a->reg,
			       type_of(a));
		break;
	case LTT_KABI_ARG_CONST:
		len = snprintf(buf, size, " arg%u=\\%" PRId64 ":%s", n, (int64_t)a->value,
			       type_of(a));
		break;
	case LTT_KABI_ARG_FOFFS:
		len = snprintf(buf, size, " arg%u=@+0x%" PRIx64 ":%s", n, (uint64_t)a->value,
			       type_of(a));
		break;
	default:
		return -EINVAL;
	}
	return len > 0 && (size_t)len < size ? 0 : -E2BIG;
}

/* No space nor control character, where the kernel would split the definition (isspace). */
static bool path_ok(const char *path)
{
	for (; *path; path++)
		if ((unsigned char)*path <= ' ' || *path == 0x7f)
			return false;
	return true;
}

/* A uprobe's definition: "p:GROUP/EVENT PATH:0xOFF[(0xREF)] argN=...". */
static int uprobe_definition(const struct tf_probe *p, const struct ltt_kabi_probe *arg,
			     char *buf, size_t size)
{
	size_t len;
	uint32_t i;
	int n, err;

	if (arg->path[0] != '/' || !memchr(arg->path, '\0', sizeof(arg->path)) ||
	    !path_ok(arg->path) || arg->nr_args > LTT_KABI_PROBE_MAX_ARGS ||
	    arg->symbol[0] || arg->addr)
		return -EINVAL;
	n = snprintf(buf, size, "p:%s/%s %s:0x%" PRIx64, p->group, p->event[0], arg->path,
		     (uint64_t)arg->offset);
	if (n > 0 && arg->ref_ctr_offset)
		n += snprintf(buf + n, size - (size_t)n, "(0x%" PRIx64 ")",
			      (uint64_t)arg->ref_ctr_offset);
	if (n <= 0 || (size_t)n >= size)
		return -E2BIG;
	for (i = 0; i < arg->nr_args; i++) {
		len = strlen(buf);
		err = arg_text(&arg->args[i], i + 1, buf + len, size - len);
		if (err)
			return err;
	}
	return 0;
}

/*
 * Kernel probe definition @i of @p: "p:GROUP/pN SYMBOL+OFF" (or 0xADDR);
 * a KRETPROBE's entry "p:GROUP/pN_entry ... parent_ip=$stack0:u64" (the
 * return address, at the function's first instruction on x86-64) and its
 * return "r:GROUP/pN_return ...".  The catalog names the fields as
 * lttng-modules does (tracefs_layout()).
 */
static int kprobe_definition(const struct tf_probe *p, unsigned int i,
			     const struct ltt_kabi_probe *arg, char *buf, size_t size)
{
	bool ret = arg->instrumentation == LTT_KABI_KRETPROBE;
	char place[LTT_KABI_SYMBOL_MAX + 32];
	int n;

	if (arg->nr_args || arg->ref_ctr_offset || arg->path[0] ||
	    !memchr(arg->symbol, '\0', sizeof(arg->symbol)) ||
	    (arg->symbol[0] ? arg->addr != 0 : !arg->addr || arg->offset) ||
	    strpbrk(arg->symbol, " \t\n:/"))
		return -EINVAL;
	if (arg->symbol[0])
		snprintf(place, sizeof(place), "%s+%" PRIu64, arg->symbol, (uint64_t)arg->offset);
	else
		snprintf(place, sizeof(place), "0x%" PRIx64, (uint64_t)arg->addr);
	n = snprintf(buf, size, "%c:%s/%s %s%s", ret && i ? 'r' : 'p', p->group, p->event[i],
		     place, ret && !i ? " parent_ip=$stack0:u64" : "");
	return n > 0 && (size_t)n < size ? 0 : -E2BIG;
}

/* Remove @p's definitions [@from, @to) and their catalog entries. */
static void probe_undo(const struct tf_probe *p, unsigned int from, unsigned int to, char *buf,
		       size_t size)
{
	for (; from < to; from++) {
		catalog_remove(p->t, p->name[from]);
		snprintf(buf, size, "-:%s/%s", p->group, p->event[from]);
		tracefs_append(p->t, p->file, buf);
	}
}

/* Write @p's definitions and catalog them (all, or none: -errno). */
static int probe_place(struct tf_probe *p, const struct ltt_kabi_probe *arg, char *def,
		       size_t size)
{
	bool user = arg->instrumentation == LTT_KABI_UPROBE;
	unsigned int i = 0, k;
	int ret = 0;

	/*
	 * A KRETPROBE's return probe first: the kernel runs the probes of one
	 * address newest first, so its entry probe reads the return address
	 * before the kretprobe replaces it with its trampoline.
	 */
	for (k = 0; !ret && k < p->nr; k++) {
		i = p->nr - 1 - k;
		ret = user ? uprobe_definition(p, arg, def, size) :
		      kprobe_definition(p, i, arg, def, size);
		if (!ret)
			ret = tracefs_append(p->t, p->file, def);
		if (ret) {
			/* the kernel's reason: a path, symbol, offset or register it refused */
			LTT_WARN("kernel: probe %s refused by tracefs: %s", def, strerror(-ret));
			ret = ret == -E2BIG || ret == -ENOENT ? ret : -EINVAL;
			break;
		}
		LTT_INFO("kernel: probe %s placed: %s", p->name[i], def);
		ret = catalog_insert(p->t, p, i);
		if (ret) {
			snprintf(def, size, "-:%s/%s", p->group, p->event[i]);
			tracefs_append(p->t, p->file, def);
		}
	}
	if (ret)
		probe_undo(p, i + 1, p->nr, def, size);
	return ret;
}

/* ---- PROBE and release ---- */

int tracefs_probe_create(struct tracefs *t, struct ltt_kabi_probe *arg,
			 struct ltt_kabi_obj *ret_new)
{
	bool user = arg->instrumentation == LTT_KABI_UPROBE;
	struct tf_probe *p;
	char *def = NULL;
	unsigned int n, i;
	int ret, fd;

	if (arg->instrumentation < LTT_KABI_KPROBE || arg->instrumentation > LTT_KABI_UPROBE)
		return -EINVAL;
	if (!(tracefs_probe_offered(t) & 1U << arg->instrumentation))
		return -EOPNOTSUPP;
	p = calloc(1, sizeof(*p));
	def = malloc(TRACEFS_PROBE_DEF_MAX);
	if (!p || !def) {
		ret = -ENOMEM;
		goto err;
	}
	p->t = t;
	p->file = user ? UPROBE_EVENTS : KPROBE_EVENTS;
	p->nr = arg->instrumentation == LTT_KABI_KRETPROBE ? 2 : 1;
	snprintf(p->group, sizeof(p->group), TRACEFS_PROBE_GROUP "%s", tracefs_name_tag());
	n = t->next_probe++;
	for (i = 0; i < p->nr; i++) {
		const char *suffix = p->nr == 1 ? "" : i ? "_return" : "_entry";

		snprintf(p->event[i], sizeof(p->event[i]), "p%u%s", n, suffix);
		snprintf(p->name[i], sizeof(p->name[i]), "__" TRACEFS_PROBE_GROUP "%s_p%u%s",
			 tracefs_name_tag(), n, suffix);
	}
	ret = probe_place(p, arg, def, TRACEFS_PROBE_DEF_MAX);
	if (ret)
		goto err;
	fd = fcntl(t->root_fd, F_DUPFD_CLOEXEC, 3);	/* the object's own fd */
	if (fd < 0) {
		ret = -errno;
		probe_undo(p, 0, p->nr, def, TRACEFS_PROBE_DEF_MAX);
		goto err;
	}
	free(def);
	p->t = tracefs_get(t);
	snprintf(arg->event, sizeof(arg->event), "%s", p->name[0]);
	snprintf(arg->event_return, sizeof(arg->event_return), "%s", p->nr > 1 ? p->name[1] : "");
	*ret_new = (struct ltt_kabi_obj){ .fd = fd, .priv = p };
	return 0;
err:
	free(def);
	free(p);
	return ret;
}

void tracefs_probe_release(struct ltt_kabi_obj *obj)
{
	struct tf_probe *p = obj->priv;
	unsigned int i;
	int ret;

	for (i = 0; i < p->nr; i++) {
		ret = tracefs_dyn_remove(p->t, p->file, p->group, p->event[i]);
		if (ret && ret != -ENOENT)
			LTT_WARN("kernel: probe %s not removed: %s (the next daemon removes it)",
				 p->name[i], strerror(-ret));
		catalog_remove(p->t, p->name[i]);
	}
	close(obj->fd);
	tracefs_put(p->t);
	free(p);
}

/* Is group @group a daemon's that is gone (or this process's, from before)? */
static bool stale_group(const char *group)
{
	size_t len;

	if (strncmp(group, TRACEFS_PROBE_GROUP, strlen(TRACEFS_PROBE_GROUP)))
		return false;
	group += strlen(TRACEFS_PROBE_GROUP);
	return tracefs_name_stale(group, &len) && !group[len];
}

/* The stale probes defined in @file: "p:GROUP/EVENT ...", "r:...", one a line. */
static void reap_file(const struct tracefs *t, const char *file)
{
	int fd = openat(t->root_fd, file, O_RDONLY | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "re");
	char line[TRACEFS_PROBE_DEF_MAX], group[LTT_FTRACE_NAME_MAX], event[LTT_FTRACE_NAME_MAX];
	int ret;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*[^:]:%63[^/]/%63s", group, event) != 2 || !stale_group(group))
			continue;
		ret = tracefs_dyn_remove(t, file, group, event);
		if (ret)
			LTT_WARN("kernel: probe %s/%s of a daemon that is gone: not removed: %s",
				 group, event, strerror(-ret));
		else
			LTT_INFO("kernel: removed probe %s/%s, left by a daemon that is gone", group,
				 event);
	}
	fclose(f);
}

void tracefs_probe_reap_stale(const struct tracefs *t)
{
	reap_file(t, UPROBE_EVENTS);
	reap_file(t, KPROBE_EVENTS);
	reap_file(t, TRACEFS_DYNAMIC_EVENTS);	/* what is left there: event probes */
}

int tracefs_probe_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
			const char *what, char *why, size_t why_size)
{
	bool user = feature == LTT_KABI_FEAT_UPROBE;
	uint32_t bit = 1U << (user ? LTT_KABI_UPROBE : LTT_KABI_KPROBE);

	if (feature == LTT_KABI_FEAT_SYSCALL_STRINGS) {
		if (version->probes & 1U << LTT_KABI_SYSCALL)
			return 0;
		snprintf(why, why_size, "%s: recorded as their addresses: this kernel refuses event probes (e: in dynamic_events, a kernel built without CONFIG_PROBE_EVENTS' eprobes), which would read them as strings, and ltt's BPF program does not read them here (the daemon's log says why: no BTF, BPF refused, LTT_KERNEL_BPF=off, or ltt built without it); ltt's module records them where it loads",
			 what);
		return -EOPNOTSUPP;
	}
	if (feature != LTT_KABI_FEAT_UPROBE && feature != LTT_KABI_FEAT_KPROBE)
		return 0;
	if (version->probes & bit)
		return 0;
	snprintf(why, why_size, "%s: this kernel's tracefs has no %s (a kernel built without %s): trace with ltt's module where it loads, or on a kernel that has it",
		 what, user ? UPROBE_EVENTS : KPROBE_EVENTS,
		 user ? "CONFIG_UPROBE_EVENTS" : "CONFIG_KPROBE_EVENTS");
	return -EOPNOTSUPP;
}
