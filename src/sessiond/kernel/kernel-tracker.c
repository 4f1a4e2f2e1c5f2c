// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-tracker.c - the process trackers of the kernel domain: the
 * session tree's trackers (tracker.h, changed by cmd-tracker.c as for
 * user space) given to the kernel tracer (LTT_KABI_TRACKER_SET, kernel
 * ABI 1.5), which tests them in its probes (kmod/ltt-tracker.c).
 *
 * A session's kernel part exists from its first start: trackers changed
 * before are given to the tracer then, before it records anything; those
 * changed later are given at once (ops->apply, after ops->update
 * recorded the change), and the tracer applies
 * them before the ioctl returns, so once 'lttctl track' or 'untrack'
 * returned, every event recorded passed the new trackers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"

_Static_assert((int)LTT_KABI_TRACKER_VPID == (int)LTT_TRACKER_VPID &&
	       (int)LTT_KABI_TRACKER_VUID == (int)LTT_TRACKER_VUID &&
	       (int)LTT_KABI_TRACKER_VGID == (int)LTT_TRACKER_VGID &&
	       (int)LTT_KABI_TRACKER_PID == (int)LTT_TRACKER_PID &&
	       (int)LTT_KABI_TRACKER_UID == (int)LTT_TRACKER_UID &&
	       (int)LTT_KABI_TRACKER_GID == (int)LTT_TRACKER_GID &&
	       LTT_KABI_TRACKER_NR == LTT_TRACKER_NR, "tracker types: one numbering");
_Static_assert((int)LTT_KABI_TRACKER_POLICY_ALL == (int)LTT_TRACKER_ALL &&
	       (int)LTT_KABI_TRACKER_POLICY_NONE == (int)LTT_TRACKER_NONE &&
	       (int)LTT_KABI_TRACKER_POLICY_SET == (int)LTT_TRACKER_SET &&
	       LTT_KABI_TRACKER_MAX_IDS == LTT_TRACKER_MAX_IDS, "tracker policies: one numbering");

/* Does @k's tracer have trackers?  If not, @why says so of @what. */
static bool tracker_capable(const struct ltt_kernel *k, const char *what, char *why,
			    size_t why_size)
{
	return !ltt_kernel_lacks(k, LTT_KABI_FEAT_TRACKER, what, why, why_size);
}

/*
 * Does @k's backend have tracker @type (a backend with some only)?  If
 * not, the reason is logged.
 */
static bool tracker_type_capable(const struct ltt_kernel *k, enum ltt_tracker_type type)
{
	char what[64], why[512];

	if (!k->backend->tracker_lacks)
		return true;
	snprintf(what, sizeof(what), "kernel %s tracker change refused",
		 ltt_tracker_type_name(type));
	if (!k->backend->tracker_lacks((uint32_t)type, what, why, sizeof(why)))
		return true;
	LTT_WARN("%s", why);
	return false;
}

enum ltt_error_code ltt_kernel_check_tracker(struct ltt_domain_impl *d,
					     enum ltt_tracker_type type)
{
	const struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	enum ltt_error_code ret;

	/* the kernel domain has every type; a backend may track some only */
	if (ltt_kernel_records(k, "a kernel tracker change refused"))
		return LTT_ERR_KERNEL_BACKEND;
	ret = ltt_kernel_refuses(k, LTT_KABI_FEAT_TRACKER, "a kernel tracker change refused",
				 LTT_ERR_TRACKER_KERNEL);
	if (!ret && !tracker_type_capable(k, type))
		ret = LTT_ERR_KERNEL_BACKEND;
	return ret;
}

int ltt_kernel_trackers_sync(struct ltt_kernel *k, struct kernel_session *ks)
{
	const struct ltt_trackers *trackers =
		&ltt_session_domain(ks->trace.session, LTT_DOMAIN_KERNEL)->trackers;
	const struct ltt_tracker *t;
	bool all = true;
	uint32_t type;
	char why[512];
	int ret;

	for (type = 0; type < LTT_TRACKER_NR; type++)
		all = all && trackers->t[type].policy == LTT_TRACKER_ALL;
	/* A tracer without trackers: every one at ALL is what it does. */
	if (!tracker_capable(k, "trackers", why, sizeof(why)))
		return all ? 0 : -EOPNOTSUPP;
	for (type = 0; type < LTT_TRACKER_NR; type++) {
		t = &trackers->t[type];
		ret = ltt_kabi_tracker_set(k->kabi, ks->handle, type, (uint32_t)t->policy,
					   t->policy == LTT_TRACKER_SET ? t->ids : NULL,
					   t->policy == LTT_TRACKER_SET ? t->nr : 0);
		if (ret) {
			LTT_ERR("session '%s': the kernel tracer refused the %s tracker: %s",
				ks->trace.session->name, ltt_tracker_type_name((enum ltt_tracker_type)type),
				strerror(-ret));
			return ret == -ENOTTY ? -EOPNOTSUPP : ret;
		}
	}
	return 0;
}
