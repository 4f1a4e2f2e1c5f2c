// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-context.c - the context fields of kernel channels (see
 * kernel-context.h).  The tracer writes them after each event header in
 * the order they were added; the channel's metadata (kernel-regen.c's stream
 * block, tsdl.c) lists them in the same order, with the sizes of
 * common/model/context.c, which the tracer's answer is checked against.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-context.h"
#include "sessiond/kernel/kernel.h"
#include "sessiond/model/session.h"

/* The tracer's type numbers are the public ones: the daemon passes them through. */
#define SAME_(n) _Static_assert(LTT_KABI_CTX_##n == (int)LTT_CONTEXT_##n, "context " #n)
SAME_(VPID);
SAME_(VTID);
SAME_(PROCNAME);
SAME_(CPU_ID);
SAME_(CGROUP_NS);
SAME_(IPC_NS);
SAME_(MNT_NS);
SAME_(NET_NS);
SAME_(PID_NS);
SAME_(TIME_NS);
SAME_(USER_NS);
SAME_(UTS_NS);
SAME_(VUID);
SAME_(VEUID);
SAME_(VSUID);
SAME_(VGID);
SAME_(VEGID);
SAME_(VSGID);
SAME_(PID);
SAME_(TID);
SAME_(PPID);
SAME_(VPPID);
SAME_(PRIO);
SAME_(NICE);
SAME_(HOSTNAME);
SAME_(INTERRUPTIBLE);
SAME_(PREEMPTIBLE);
SAME_(NEED_RESCHEDULE);
SAME_(MIGRATABLE);
SAME_(UID);
SAME_(EUID);
SAME_(SUID);
SAME_(GID);
SAME_(EGID);
SAME_(SGID);
_Static_assert(LTT_KABI_MAX_CONTEXTS == LTT_CTX_MAX, "contexts per channel");
_Static_assert(sizeof(struct ltt_kabi_context) == 32, "struct ltt_kabi_context");

enum ltt_error_code ltt_kernel_context_check(struct ltt_domain_impl *d, const struct ltt_ctx *c)
{
	const struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	char what[LTT_NAME_MAX + 32], why[512];
	enum ltt_error_code ret;

	if (c->type == LTT_CONTEXT_PERF_THREAD)
		return LTT_ERR_KERNEL_CONTEXT_PERF;
	if (!(ltt_ctx_domains(c) & LTT_CTX_DOMAIN_KERNEL))
		return LTT_ERR_CONTEXT_DOMAIN;
	if (ltt_kernel_records(k, "a kernel context refused"))
		return LTT_ERR_KERNEL_BACKEND;
	snprintf(what, sizeof(what), "kernel context %s refused", c->name);
	ret = ltt_kernel_refuses(k, LTT_KABI_FEAT_CONTEXT, what, LTT_ERR_KERNEL_CONTEXT_MODULE);
	if (ret || !k->backend->context_lacks ||
	    !k->backend->context_lacks(c->type, what, why, sizeof(why)))
		return ret;
	LTT_WARN("%s", why);
	return LTT_ERR_KERNEL_BACKEND;
}

int ltt_kernel_context_apply(struct ltt_kabi *kabi, const struct ltt_channel *channel,
			     ltt_khandle handle)
{
	uint32_t i, size;
	int ret;

	for (i = 0; i < channel->nr_contexts; i++) {
		const struct ltt_ctx *c = &channel->contexts[i];

		ret = ltt_kabi_context_add(kabi, handle, c->type, &size);
		if (ret == -ENOTTY)
			ret = -EOPNOTSUPP;	/* a tracer older than 1.4 */
		if (ret) {
			LTT_WARN("kernel channel %s: the tracer refused context %s: %s",
				 channel->attr.name, c->name, strerror(-ret));
			return ret;
		}
		if (size != ltt_ctx_type_size(c->type)) {
			LTT_ERR("kernel channel %s: the tracer writes %u bytes for context %s, the metadata says %zu",
				channel->attr.name, size, c->name, ltt_ctx_type_size(c->type));
			return -EPROTO;
		}
	}
	return 0;
}
