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

#include "common/codec.h"
#include "sessiond/consumer.h"

/**
 * ltt_meta_regenerate() - replace trace @trace_key's metadata in consumer
 * @c by @header followed by what @meta holds after its first *@header_len
 * bytes (the event classes, unchanged)
 * @header: the trace's new header text (its clock offset sampled now)
 * @meta: every metadata text sent for the trace so far; on success it
 *        holds the new text (what a consumer taking the trace over gets)
 * @header_len: the length of the header at the start of @meta; updated
 *
 * The consumer empties the trace's metadata (RESET_METADATA) and gets the
 * new text in one METADATA, so that a relay receiving it can tell where
 * the rewrite ends (consumer-proto.h).  Session lock held; waits for the
 * consumer.  Returns 0, -ENOMEM (@header or @meta incomplete: nothing
 * sent), -E2BIG (more text than one message carries: nothing sent), or
 * the consumer's -errno (-EOPNOTSUPP: it can't, e.g. an older relay).
 */
int ltt_meta_regenerate(struct ltt_consumer *c, uint64_t trace_key, const struct ltt_wbuf *header,
			struct ltt_wbuf *meta, size_t *header_len);

/* What a sender of metadata keeps of a trace's text (its owner's). */
struct ltt_meta_owed {
	uint64_t trace_key;		/* the consumer's */
	const struct ltt_wbuf *meta;	/* every text of the trace, in order */
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

#endif /* LTT_SESSIOND_META_REGEN_H */
