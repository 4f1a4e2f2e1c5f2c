/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meta-regen.h - a trace's metadata sent again, for the user-space and
 * the kernel domains alike: written again whole (regenerate metadata: a
 * new header, the same event classes, in one consumer message), or the
 * part a stalled consumer was not sent yet, in order.
 */
#ifndef LTT_SESSIOND_META_REGEN_H
#define LTT_SESSIOND_META_REGEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "sessiond/consumer/consumer.h"

/* What a sender of metadata keeps of a trace's text (its owner's). */
struct ltt_meta_owed {
	uint64_t trace_key;		/* the consumer's */
	struct ltt_wbuf *meta;		/* every text of the trace, in order */
	size_t *sent;			/* how much of it the consumer was sent */
	bool *said;			/* that the rest waits is logged */
	const char *path;		/* the trace's, for the log */
};

/**
 * ltt_meta_send_rest() - send consumer @c the part of @o->meta after
 * *@o->sent, in messages the protocol takes, each waited for @timeout_ms
 *
 * A text the consumer could not be sent at all (it still owes a reply:
 * stalled) stops the sending: logged once, sent by a later call, before
 * any text after it.  One sent and not answered in time is written once
 * the consumer runs; one it refuses is logged and skipped.  Session lock
 * held.  Returns 0 (all sent) or -EAGAIN (some waits).
 */
int ltt_meta_send_rest(struct ltt_consumer *c, const struct ltt_meta_owed *o, int timeout_ms);

/**
 * ltt_meta_regenerate() - replace @o's trace's metadata in consumer @c by
 * @header followed by what @o->meta holds after its first *@header_len
 * bytes (the event classes, unchanged)
 * @header: the trace's new header text (its clock offset sampled now)
 * @o: the trace's metadata kept whole (every text sent so far, and how
 *     much of it the consumer has); once the reset is sent it holds the
 *     new text (what a consumer taking the trace over gets)
 * @header_len: the length of the header at the start of @o->meta; updated
 * @timeout_ms: the wait for the reply to the new text
 *
 * The consumer empties the trace's metadata (RESET_METADATA) and gets the
 * new text in one METADATA, so that a relay receiving it can tell where
 * the rewrite ends (consumer-proto.h).  A consumer that stalls after the
 * reset went still gets the text after it, in order, once it runs
 * (ltt_meta_send_rest(), by the domain's settle).  Session lock held;
 * waits for the consumer.  Returns 0, -ENOMEM (@header or @o->meta
 * incomplete: nothing sent), -E2BIG (more text than one message carries:
 * nothing sent), -ETIMEDOUT (a stalled consumer: nothing sent, or the
 * new text waits for it), or the consumer's -errno (-EOPNOTSUPP: it
 * can't, e.g. an older relay).
 */
int ltt_meta_regenerate(struct ltt_consumer *c, const struct ltt_wbuf *header,
			const struct ltt_meta_owed *o, size_t *header_len, int timeout_ms);

#endif /* LTT_SESSIOND_META_REGEN_H */
