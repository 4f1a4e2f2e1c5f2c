// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-filter.c - filters of kernel rules (see kernel-filter.h): what
 * the kernel tracer can run, and each event's programs, matched and
 * compiled by ust-filter.c's rule code from the tracer's description of
 * the event's fields.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/context.h"
#include "common/filter/filter-compile.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "filter-vm/filter-vm.h"
#include "sessiond/kabi/kabi.h"
#include "sessiond/kernel/kernel-filter.h"
#include "sessiond/model/rule-filter.h"

/* A kernel event's fields as the compiler reads them. */
struct kfields {
	struct ltt_kabi *kabi;
	const char *event;
	struct ltt_kabi_event_desc desc;
	struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
};

static int kfields_get(void *arg, const struct ltt_filter_field_desc **ret, uint32_t *nr)
{
	struct kfields *kf = arg;
	int err;

	err = ltt_kabi_event_desc(kf->kabi, kf->event, &kf->desc);
	if (!err)
		err = ltt_filter_kabi_fields(&kf->desc, kf->fields);
	if (err)
		return err;
	*ret = kf->fields;
	*nr = kf->desc.nr_fields;
	return 0;
}

/*
 * The name rules match for kernel event @name and their type: a system
 * call's events are matched by the call's name ("openat" for
 * syscall_entry_openat), the others by their own.
 */
static const char *match_name(const struct ltt_kernel *k, const char *name, int *type)
{
	static const char *const prefixes[] = { LTT_KABI_SYSCALL_ENTRY_PREFIX,
						LTT_KABI_SYSCALL_EXIT_PREFIX };
	size_t i, j;

	for (i = 0; i < sizeof(prefixes) / sizeof(prefixes[0]); i++) {
		size_t plen = strlen(prefixes[i]);

		if (strncmp(name, prefixes[i], plen))
			continue;
		for (j = 0; j < k->nr_syscalls; j++) {
			if (!strcmp(k->syscalls[j].name, name + plen)) {
				*type = LTT_EVENT_SYSCALL;
				return name + plen;
			}
		}
	}
	*type = LTT_EVENT_TRACEPOINT;
	return name;
}

/* Does a rule of @channel have a filter? */
static bool channel_filters(const struct ltt_channel *channel)
{
	const struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node)
		if (rule->enabled && rule->filter)
			return true;
	return false;
}

void ltt_kernel_rule_programs(const struct ltt_kernel *k, struct ltt_kabi *kabi,
			      const struct ltt_channel *channel, const char *event,
			      struct ltt_ust_filters *f)
{
	static __thread struct kfields kf;	/* 4 KiB: not on a worker's stack */
	struct ltt_rule_event re = { .fields = kfields_get, .arg = &kf };

	kf.kabi = kabi;
	kf.event = event;
	re.name = match_name(k, event, &re.type);
	ltt_rule_filters_get(channel, &re, f);
}

/* The programs the rules of @kc's channel give @ev, and whether one takes it. */
static void event_filters(struct ltt_kernel *k, struct kernel_chan *kc,
			  const struct kernel_event *ev, struct ltt_ust_filters *f)
{
	static __thread struct kfields kf;
	struct ltt_rule_event re = { .name = ev->match, .type = ev->type, .fields = kfields_get,
				     .arg = &kf };

	if (!ev->match[0]) {
		ltt_kernel_rule_programs(k, k->kabi, kc->cc.channel, ev->name, f);
		return;
	}
	/* a probe's event: taken by the probe rules of its name */
	kf.kabi = k->kabi;
	kf.event = ev->name;
	ltt_rule_filters_get(kc->cc.channel, &re, f);
}

static int set_programs(struct ltt_kernel *k, struct kernel_chan *kc, struct kernel_event *ev,
			bool enable, const struct ltt_ust_filters *f)
{
	int ret;

	if (enable && !f->nr) {
		ret = ltt_kabi_event_enable(k->kabi, kc->handle, ev->name, ev->id);
		return ret == -EEXIST ? 0 : ret;	/* enabled already */
	}
	ret = ltt_kabi_event_filter(k->kabi, kc->handle, ev->name, ev->id, enable,
				    (uint8_t *const *)f->code, f->len, f->nr);
	if (ret == -EEXIST)	/* enabled already: its programs replaced */
		ret = ltt_kabi_event_filter(k->kabi, kc->handle, ev->name, 0, false,
					    (uint8_t *const *)f->code, f->len, f->nr);
	return ret;
}

/* The tracer refused event @name's filter for lack of filters: say so. */
static void say_lacks(const struct ltt_kernel *k, const char *name)
{
	char what[LTT_KABI_NAME_MAX + 16], why[512];

	snprintf(what, sizeof(what), "kernel event %s", name);
	if (ltt_kernel_lacks(k, LTT_KABI_FEAT_FILTER, what, why, sizeof(why)))
		LTT_WARN("%s", why);
	else
		LTT_WARN("%s: the kernel tracer refused its filter as unknown", what);
}

int ltt_kernel_event_apply(struct ltt_kernel *k, struct kernel_chan *kc, struct kernel_event *ev,
			   bool wanted)
{
	struct ltt_ust_filters f = { .want = wanted };
	const char *what = "enable";
	int ret = 0;

	if (wanted && channel_filters(kc->cc.channel))
		event_filters(k, kc, ev, &f);
	if (!f.want && ev->enabled) {
		what = "disable";
		ret = ltt_kabi_event_disable(k->kabi, kc->handle, ev->name);
		ret = ret == -ENOENT ? 0 : ret;		/* disabled already */
		if (!ret)
			ev->enabled = false;
	} else if (f.want && (!ev->enabled || f.sig != ev->filter_sig)) {
		what = ev->enabled ? "change the filter of" : "enable";
		ret = set_programs(k, kc, ev, !ev->enabled, &f);
		if (!ret)
			ev->enabled = true;
	}
	if (!ret)
		ev->filter_sig = ev->enabled ? f.sig : 0;
	else if (ret == -ENOTTY)
		say_lacks(k, ev->name);
	else
		LTT_WARN("kernel event %s: the tracer refused to %s it: %s", ev->name, what,
			 strerror(-ret));
	ltt_ust_filters_fini(&f);
	return ret;
}

/* Does @k's backend record context @name ($ctx.NAME)? Says why not. */
static bool backend_has_ctx(const struct ltt_kernel *k, const char *name)
{
	int (*lacks)(uint32_t type, const char *what, char *why, size_t why_size) =
		k->backend->filter_context_lacks ? k->backend->filter_context_lacks :
						   k->backend->context_lacks;
	char what[LTT_FILTER_MAX_TEXT + 64], why[512];
	struct ltt_ctx c;

	if (!lacks || ltt_ctx_parse(name, &c))
		return true;	/* the VM's table answered for the name */
	snprintf(what, sizeof(what), "a kernel filter reading $ctx.%s refused", name);
	if (!lacks(c.type, what, why, sizeof(why)))
		return true;
	LTT_WARN("%s", why);
	return false;
}

/* What the kernel cannot evaluate in the tree @n. */
static enum ltt_error_code check_node(const struct ltt_kernel *k, const struct ltt_filter_node *n)
{
	enum ltt_error_code ret = LTT_ERR_OK;
	int id;

	if (!n)
		return LTT_ERR_OK;
	switch (n->kind) {
	case LTT_FN_FLOAT:
		return LTT_ERR_FILTER_KERNEL_FLOAT;
	case LTT_FN_APP:
		return LTT_ERR_FILTER_KERNEL_CONTEXT;
	case LTT_FN_CTX:
		id = ltt_filter_ctx_lookup(n->str);
		return id < 0 || id == LTT_FILTER_CTX_PTHREAD_ID || !backend_has_ctx(k, n->str) ?
		       LTT_ERR_FILTER_KERNEL_CONTEXT : LTT_ERR_OK;
	default:
		break;
	}
	ret = check_node(k, n->left);
	return ret ? ret : check_node(k, n->right);
}

/* Type-check @root against the one event @name (a tracepoint rule's exact name). */
static enum ltt_error_code check_types(struct ltt_kernel *k, const struct ltt_rule_conf *attr,
				       const struct ltt_filter_node *root)
{
	static __thread struct kfields kf;
	const struct ltt_filter_field_desc *fields;
	struct ltt_filter_error err = { 0 };
	char msg[LTT_FILTER_MAX_TEXT + 512];
	uint8_t *code = NULL;
	size_t len = 0;
	uint32_t nr;
	int ret;

	kf.kabi = k->kabi;
	kf.event = attr->pattern;
	if (kfields_get(&kf, &fields, &nr))
		return LTT_ERR_OK;	/* the catalog check answers for it */
	ret = ltt_filter_compile(root, fields, nr, &code, &len, &err);
	free(code);
	if (ret == -EINVAL) {
		ltt_filter_caret(attr->filter, &err, msg, sizeof(msg));
		LTT_WARN("kernel event %s: filter refused: %s", attr->pattern, msg);
		return LTT_ERR_FILTER_KERNEL_TYPE;
	}
	return ret == -E2BIG ? LTT_ERR_FILTER : LTT_ERR_OK;
}

enum ltt_error_code ltt_kernel_filter_check_rule(struct ltt_kernel *k,
						 const struct ltt_rule_conf *attr)
{
	struct ltt_filter_node *root = NULL;
	enum ltt_error_code ret;

	if (!attr->filter[0])
		return LTT_ERR_OK;
	ret = ltt_kernel_refuses(k, LTT_KABI_FEAT_FILTER, "a kernel rule with a filter refused",
				 LTT_ERR_FILTER_KERNEL_MODULE);
	if (ret)
		return ret;
	if (ltt_filter_parse(attr->filter, &root, NULL))
		return LTT_ERR_FILTER;	/* ltt_attr_check_rule() parsed it already */
	ret = check_node(k, root);
	if (!ret && attr->type == LTT_EVENT_TRACEPOINT &&
	    !ltt_event_pattern_is_glob(attr->pattern))
		ret = check_types(k, attr, root);
	ltt_filter_free(root);
	return ret;
}
