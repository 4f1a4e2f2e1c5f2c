// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-regen.c - regenerate metadata and statedump for the kernel
 * domain (kernel-internal.h).
 *
 * The metadata: a new header (the clock offset sampled now, after a
 * clock change) and the event classes sent so far, written again whole
 * by the consumer (meta-regen.h); the copy kept for a takeover becomes
 * the new text.  The state dump: the tracer records it again, as at
 * start, into the session's channels that enabled its events (kernel
 * ABI 1.6, LTT_KABI_STATEDUMP).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kernel/kernel-internal.h"

int ltt_kernel_metadata_header(struct ltt_kernel *k, struct ltt_session *session,
			       struct kernel_session *ks, struct ltt_wbuf *text)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_KERNEL);
	char created[LTT_TRACE_DATETIME_MAX];
	struct ltt_meta_trace info = {
		.buffering = "global",
		.bits_per_long = (uint32_t)(sizeof(long) * CHAR_BIT),
		.vpid = -1,
		.sysname = k->uts.sysname,
		.kernel_release = k->uts.release,
		.kernel_version = k->uts.version,
		.kernel_backend = k->backend->name,
		.syscall_strings = k->strings_why[0] ? k->strings_why : NULL,
	};
	struct ltt_channel *channel;
	int ret;

	ltt_trace_host_fill(&k->host, session, &info, created);
	memcpy(info.uuid, ks->trace.uuid, sizeof(info.uuid));
	ret = ltt_meta_trace_header(text, session->trace_format, &info);
	cds_list_for_each_entry(channel, &dom->channels, node)
		if (!ret)
			ret = ltt_meta_stream(text, session->trace_format, channel->stream_id, false,
					      channel->contexts, channel->nr_contexts);
	return ret;
}

int ltt_kernel_regenerate_metadata(struct ltt_domain_impl *d, struct ltt_session *session)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	struct ltt_consumer *c;
	struct ltt_wbuf header;
	int ret;

	if (!ks || ks->trace.state != LTT_CTRACE_HELD)
		return ks && ks->trace.state == LTT_CTRACE_LOST ? -EPIPE : 0;
	c = ltt_ctrace_consumer(&ks->trace);
	if (!c)
		return -EPIPE;
	/*
	 * A stalled consumer gets no RESET_METADATA it might run without the
	 * text after it: the owed text first, or nothing.
	 */
	ret = ltt_consumer_owes(c) ? -ETIMEDOUT : ltt_ctrace_meta_send_owed(&ks->trace, c);
	ltt_wbuf_init(&header);
	if (!ret)
		ret = ltt_kernel_metadata_header(k, session, ks, &header);
	if (!ret)
		ret = ltt_ctrace_meta_regenerate(&ks->trace, c, &header);
	ltt_wbuf_fini(&header);
	if (ret)
		LTT_ERR("session '%s': kernel trace %s: metadata not regenerated: %s",
			session->name, ks->trace.path, strerror(-ret));
	else
		LTT_INFO("session '%s': kernel trace %s: metadata regenerated", session->name,
			 ks->trace.path);
	return ret;
}

int ltt_kernel_regenerate_statedump(struct ltt_domain_impl *d, struct ltt_session *session,
				    struct ltt_domain_settle *settle)
{
	struct ltt_kernel *k = caa_container_of(d, struct ltt_kernel, domain);
	struct kernel_session *ks = ltt_session_domain(session, LTT_DOMAIN_KERNEL)->state;
	char what[LTT_NAME_MAX + 64], why[512];
	int ret;

	(void)settle;	/* the tracer has recorded it when it answers */
	snprintf(what, sizeof(what), "session '%s': regenerate statedump refused", session->name);
	if (ltt_kernel_lacks(k, LTT_KABI_FEAT_STATEDUMP, what, why, sizeof(why))) {
		LTT_WARN("%s", why);
		return -EOPNOTSUPP;
	}
	if (!ks || !session->active)
		return -EBUSY;
	ret = ltt_kabi_session_statedump(k->kabi, ks->handle);
	if (ret == -ENOTTY)
		ret = -EOPNOTSUPP;
	if (ret)
		LTT_ERR("session '%s': the kernel tracer did not record its state dump: %s",
			session->name, strerror(-ret));
	return ret;
}
