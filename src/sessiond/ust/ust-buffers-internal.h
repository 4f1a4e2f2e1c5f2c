/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-buffers-internal.h - what the files of the user-space buffers share
 * (ust-buffers.c: owners, traces, channel buffers;
 * ust-buffers-stats.c: what they hold and lost;
 * ust-handover.c: handing traces to the consumer and back;
 * ust-trace-ops.c: snapshots, rotations, regeneration, relay queries).
 * Not for the rest of the daemon: it uses ust-buffers.h.  Everything here
 * runs under the session's lock unless said otherwise.
 */
#ifndef LTT_SESSIOND_UST_BUFFERS_INTERNAL_H
#define LTT_SESSIOND_UST_BUFFERS_INTERNAL_H

#include "common/base/size.h"	/* ltt_add_sat() */
#include "sessiond/ctrace/meta-regen.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/ust/ust-buffers.h"

/* What the user-space domain keeps per session: ltt_session_domain.state. */
struct ltt_ust_state {
	struct cds_list_head traces;	/* ltt_ust_trace */
	struct ltt_ust_owner *owner;	/* held: its consumer stays while we are */
	struct ltt_relay_link relay;	/* a net session's, in the consumer */
};

/* A session without state has no traces: iterate this instead. */
extern struct cds_list_head ltt_ust_no_traces;

/*
 * How long a program's new event classes wait for the consumer's reply
 * (sent whole, they are written in order even if it comes late): within
 * the wait of a program's registration (3 s by default).
 */
#define LTT_UST_META_REPLY_MS 1000

/* What the consumer-trace layer knows of a user-space trace (ust-handover.c). */
extern const struct ltt_ctrace_ops ltt_ust_trace_ops;

/* ust-buffers.c: its traces and channel buffers, per session; their owners and consumers */

/*
 * ltt_ust_owner_get() - the consumer of @session's owner, started on
 * first need (NULL when it can't be); ltt_ust_owner_current() - the one
 * running, if any.  *@ret_gen: its generation.
 */
struct ltt_consumer *ltt_ust_owner_get(struct ltt_ust_buffers *b, const struct ltt_session *session,
				      uint64_t *ret_gen);

struct ltt_consumer *ltt_ust_owner_current(struct ltt_ust_buffers *b,
					  const struct ltt_session *session, uint64_t *ret_gen);

/* ust-handover.c: its traces in the consumer-trace layer; closing traces */

/*
 * ltt_ust_trace_end() - @trace's end once @c (NULL: none) wrote what it
 * holds: its losses kept in the session's channels, its channels and
 * itself destroyed in @c, then freed.
 */
void ltt_ust_trace_end(struct ltt_ust_trace *trace, struct ltt_consumer *c);

/* ust-chan.c: what both share of a trace and its channels: keys, paths, counters */

/* ltt_ust_state() - @session's user-space state, or NULL when it has none. */
struct ltt_ust_state *ltt_ust_state(struct ltt_session *session);

/* ltt_ust_new_key() - a trace or channel key, unique in the daemon; any lock context. */
uint64_t ltt_ust_new_key(struct ltt_ust_buffers *b);

/* ltt_ust_chan_bytes() - what @chan's buffers hold in all (saturated). */
uint64_t ltt_ust_chan_bytes(const struct ltt_ust_chan *chan);

/*
 * ltt_ust_chan_unread() - the events @chan's streams hold that their
 * consumer has not read, from shared memory only (ltt_rb_events_unread()).
 */
uint64_t ltt_ust_chan_unread(const struct ltt_ust_chan *chan);

/*
 * ltt_ust_chan_usage() - fold the bytes each of @chan's streams holds
 * (written, not yet consumed; read from shared memory, clamped to a
 * stream's size) into @u's highest and lowest; @u->capacity set
 */
void ltt_ust_chan_usage(const struct ltt_ust_chan *chan, struct ltt_domain_usage *u);

/* ltt_ust_chan_stats() - @chan's counters, from shared memory only (never waits). */
void ltt_ust_chan_stats(const struct ltt_ust_chan *chan, struct ltt_consumer_channel_stats *ret);

/*
 * ltt_ust_chan_unread_lost() - the events @trace's channel @chan holds
 * when no consumer will ever read it (its consumer refused it or the
 * whole trace, or the trace is LOST: its consumer died and none took it
 * over), else 0: lost, for list to count (ltt_ust_chan_unread()).
 */
uint64_t ltt_ust_chan_unread_lost(const struct ltt_ust_trace *trace,
				  const struct ltt_ust_chan *chan);

/* ltt_ust_chan_free() - close @chan's buffers and free it (unlinked first). */
void ltt_ust_chan_free(struct ltt_ust_chan *chan);

/*
 * ltt_ust_trace_path() - the directory @trace is written to in its
 * session's chunk; the @attempt-th retry gets "-N".  Returns 0 or
 * -ENAMETOOLONG / -EINVAL.
 */
int ltt_ust_trace_path(const struct ltt_ust_trace *trace, unsigned int attempt, char *buf,
		       size_t len);

/*
 * ltt_ust_trace_path_in() - as ltt_ust_trace_path(), below directory
 * @base ("": relative) instead of the session's chunk
 */
int ltt_ust_trace_path_in(const struct ltt_ust_trace *trace, const char *base,
			  unsigned int attempt, char *buf, size_t len);

/*
 * ltt_ust_chan_to_consumer() - ADD_CHANNEL and every stream of @chan to
 * @c, which holds @trace.  Returns 0 or -errno.
 */
int ltt_ust_chan_to_consumer(struct ltt_ust_trace *trace, struct ltt_ust_chan *chan,
			     struct ltt_consumer *c);

#endif
