/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ctrace.h - a trace held by a consumer daemon, for every domain and
 * backend: the one place that hands a trace to its consumer, keeps and
 * sends its metadata in order, moves it to a new chunk, and has a new
 * consumer take it over when the one that held it died.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   ctrace.[ch]    a trace held by a consumer: hand-over, metadata, takeover,
 *                  settle, rotation (its domain's source operations); the
 *                  session's list of traces that owe their consumer work
 *   ctrace-owed.c  what those traces owe stalled consumers: due in O(1),
 *                  settled for every domain; what list says of a stall
 *   chan-stats.[ch] a channel's statistics page: its consumers' counters,
 *                  read without asking them
 *   meta-regen.[ch] a trace's metadata sent again: the rest in order, or whole
 *   snap-budget.[ch] the packets per stream of a bounded snapshot
 *   trace-host.[ch] what every trace's metadata says of the host and session
 *   meta.[ch]      a trace's metadata in its format (CTF 1.8 or CTF 2):
 *                  described once, written by the format's writer
 *   meta-model.[ch] the description: the field classes of events and contexts
 *   meta-emit.[ch] the writers' emitter: all of a block appended, or nothing
 *   tsdl.[ch]      CTF 1.8's writer: TSDL
 *   ctf2.[ch]      CTF 2's writer: JSON fragments
 *
 * A domain embeds a struct ltt_ctrace in its own trace object (the kernel
 * domain's kernel_session, the user-space domain's ltt_ust_trace) and a
 * struct ltt_cchan in each of its channels, and hands the layer streams
 * through a small table of source operations (struct ltt_ctrace_ops).
 * This layer never includes a domain's file.
 *
 * The states of a trace, for its consumer:
 *
 *	NONE ──hand over──► OWED ──ltt_ctrace_consumer()──► HELD ──died, none took it over──► LOST
 *	  ▲                   │  (stalled: stays OWED)        │ ▲
 *	  └── refused ◄───────┘                               └─┘ died: a new consumer takes it over
 *
 *   NONE  no consumer holds it (a session with no output, or a consumer
 *         that refused the trace: said in the log, no files);
 *   OWED  made for its programs before its consumer, which may be
 *         stalled, was told: handed over by the next call that needs the
 *         consumer, with what was recorded meanwhile;
 *   HELD  consumer generation @gen holds its files; when that consumer
 *         died, the next ltt_ctrace_consumer() has a new one continue
 *         them (the same files after their last whole indexed packet,
 *         the metadata again, the same streams);
 *   LOST  the consumer that held it died and none could take it over: it
 *         ends there (its events after that are counted lost).
 *
 * What a trace owes a stalled consumer (ctrace-owed.c) is kept here too,
 * for every domain: not handed over (OWED), metadata not sent, a channel
 * not added (add_owed), a stop's flush not done, its source gone and it
 * not closed.  A trace that owes any is on its session's list
 * (ltt_session.ctrace_owed), and only then, so the rotation thread asks
 * a session in O(1) whether work is due and settles only those traces.
 * A domain adds only which consumer writes a session's traces (the
 * supervisor domain op, domain.h) and, for a source that can leave, how
 * to close its trace (ops->close).
 *
 * Locks: every function here runs under the lock of the trace's session
 * (it may call the consumer, bounded by the consumer's deadlines; the
 * owed list is that lock's), ltt_ctrace_init() and ltt_ctrace_fini()
 * included.
 */
#ifndef LTT_SESSIOND_CTRACE_H
#define LTT_SESSIOND_CTRACE_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <urcu/list.h>
#include <uuid/uuid.h>

#include "common/base/codec.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ctrace/chan-stats.h"

struct ltt_ctrace;

/* A channel of a consumer trace: embedded in the domain's channel object. */
struct ltt_cchan {
	struct cds_list_head node;	/* in ltt_ctrace.chans */
	uint64_t key;			/* the consumer's */
	struct ltt_channel *channel;	/* the session tree's, same lifetime */
	struct ltt_chan_stats stats;	/* its page (fd -1: none); the domain makes it */
	bool add_owed;			/* the trace's consumer does not hold it (it
					 * was stalled): added by ltt_ctrace_settle();
					 * changed in ctrace.c only (counted) */
	bool refused;			/* its consumer refused it: nothing reads it */
};

/* What a trace is to its consumer (see the diagram above). */
enum ltt_ctrace_state {
	LTT_CTRACE_NONE,
	LTT_CTRACE_OWED,
	LTT_CTRACE_HELD,
	LTT_CTRACE_LOST,
};

/* What a domain tells the layer of its trace: its source operations. */
struct ltt_ctrace_ops {
	const char *noun;		/* "trace", "kernel trace": in messages */
	/* How long new metadata waits for the consumer's reply (ms). */
	int meta_reply_ms;
	/*
	 * The supervisor of the consumers that write this trace (its
	 * session's owner's, the kernel's), or NULL when there is none (out
	 * of memory).  Never waits.
	 */
	struct ltt_supervisor *(*supervisor)(struct ltt_ctrace *t);
	/*
	 * The @attempt-th directory to try for a new trace into @buf (a
	 * streamed or snapshot trace's name in its relay session or
	 * snapshot).  Returns 0 or -ENAMETOOLONG / -EINVAL.
	 */
	int (*path)(struct ltt_ctrace *t, unsigned int attempt, char *buf, size_t len);
	/*
	 * Hand channel @ch of @t, whose streams exist, to consumer @c:
	 * ADD_CHANNEL, each stream, STREAMS_SENT (announced even after a
	 * failure).  Returns 0 or the first -errno.
	 */
	int (*chan_add)(struct ltt_ctrace *t, struct ltt_cchan *ch, struct ltt_consumer *c);
	/*
	 * The link of @t's session to its relay (NULL: none), asked only
	 * for a streamed session.  new_key: a key unique in the daemon.
	 */
	struct ltt_relay_link *(*relay)(struct ltt_ctrace *t);
	uint64_t (*new_key)(struct ltt_ctrace *t);
	/*
	 * Optional: what @ch's buffers hold in all, so that a flush's
	 * deadline grows with it; absent: the consumer's usual deadline.
	 */
	uint64_t (*chan_bytes)(struct ltt_ctrace *t, struct ltt_cchan *ch);
	/*
	 * Optional, for a source that can leave (ltt_ctrace_owe_close()):
	 * try again to close @t, closing.  Returns 0 (closed: @t is freed)
	 * or -ETIMEDOUT (its consumer is still stalled: it stays closing).
	 */
	int (*close)(struct ltt_ctrace *t);
};

/* A trace held by a consumer: embedded in the domain's trace object. */
struct ltt_ctrace {
	const struct ltt_ctrace_ops *ops;
	struct ltt_session *session;	/* the session it belongs to (outlives it) */
	enum ltt_ctrace_state state;
	uint64_t key;			/* the consumer's */
	uint64_t gen;			/* HELD: the consumer generation holding it */
	bool relayed;			/* sent to the session's relay */
	bool add_tried;			/* a hand-over began: a stalled consumer may
					 * hold part of it (destroyed before again) */
	bool owed_said;			/* the log said it waits for a stalled consumer */
	bool meta_said;			/* the log said its metadata waits */
	bool refused;			/* its consumer refused it or one of its
					 * channels (logged): what they hold is not
					 * written, and each stop fails, saying so */
	int dir_err;			/* the file system's failure (-errno) at which
					 * the consumer refused its directory at the
					 * last ltt_ctrace_add_to(), else 0 */
	uuid_t uuid;
	char path[PATH_MAX];		/* its directory (or name in its relay session) */
	struct ltt_wbuf meta;		/* every metadata text: a consumer taking the
					 * trace over gets it all again */
	size_t meta_header_len;		/* its first part: the header (regenerate) */
	size_t meta_sent;		/* how much of meta the consumer was sent: the
					 * rest waits for a stalled one */
	struct cds_list_head chans;	/* ltt_cchan */
	/* What it owes its consumer (ctrace-owed.c), changed in this layer only. */
	unsigned int nr_chans_owed;	/* channels with add_owed */
	bool flush_owed;		/* a flush its stalled consumer did not do */
	bool closing;			/* its source left: closed (ops->close) once
					 * its consumer answers */
	struct cds_list_head owed_node;	/* in session->ctrace_owed while it owes
					 * anything; else empty */
};

/* ctrace.c: a trace held by a consumer: hand-over, metadata, takeover, settle, rotation */

/**
 * ltt_ctrace_init() - @t is a new trace of @session, under @key, with a
 * new uuid, no metadata, no channel, in state @state (OWED: its consumer
 * is to be told; NONE: it writes nowhere)
 * @ops: borrowed for @t's life
 */
void ltt_ctrace_init(struct ltt_ctrace *t, const struct ltt_ctrace_ops *ops,
		     struct ltt_session *session, uint64_t key, enum ltt_ctrace_state state);

/**
 * ltt_ctrace_fini() - release what @t holds in the daemon (its metadata);
 * its channels must be unlinked and the consumer told before
 */
void ltt_ctrace_fini(struct ltt_ctrace *t);

/**
 * ltt_cchan_init() - @ch, a new channel of key @key for @channel: on no
 * trace yet, no statistics page yet (its domain makes one)
 */
void ltt_cchan_init(struct ltt_cchan *ch, uint64_t key, struct ltt_channel *channel);

/**
 * ltt_ctrace_chan_add() - @ch (key and channel set) joins @t; a trace its
 * consumer holds hands it over at once (one that does not answer: the
 * channel waits, add_owed, for ltt_ctrace_settle()), one OWED takes it
 * with it.  Returns 0 or the consumer's -errno (@ch joined all the same:
 * its buffers are the program's; said in the log).
 */
int ltt_ctrace_chan_add(struct ltt_ctrace *t, struct ltt_cchan *ch);

/**
 * ltt_ctrace_chan_msg() - the ADD_CHANNEL message for @ch of @t, with
 * what every domain sends: the keys, the channel's name, trace files,
 * overwrite and fsync; the rest zero, for the domain's ops->chan_add to
 * fill.  @ret_msg's name borrows @ch's channel.
 */
void ltt_ctrace_chan_msg(const struct ltt_ctrace *t, const struct ltt_cchan *ch,
			 struct ltt_consumer_add_channel *ret_msg);

/**
 * ltt_ctrace_now() - the consumer that holds @t now, or NULL (not HELD, or
 * its consumer died): none spawned, nothing taken over, never waits
 */
struct ltt_consumer *ltt_ctrace_now(struct ltt_ctrace *t);

/**
 * ltt_ctrace_consumer() - the consumer that holds @t's files, or NULL: an
 * OWED trace is handed over first (NULL while its consumer is stalled: it
 * stays OWED; or when it refused the trace: NONE, logged), a HELD one
 * whose consumer died is taken over by the next (LOST when none can:
 * logged)
 */
struct ltt_consumer *ltt_ctrace_consumer(struct ltt_ctrace *t);

/**
 * ltt_ctrace_consumer_died() - @t's consumer died (a watch thread): a new
 * one takes a trace that writes as it goes (files, a relay) over at once,
 * so that recording goes on; a snapshot trace (a session with no output of
 * its own, written only by snapshots) waits, logged, for the next
 * ltt_ctrace_consumer() of whatever needs its consumer (a snapshot, stop,
 * destroy, new metadata...), as after a consumer stopped on purpose: its
 * buffers and their loss counts are the tracer's, which the new consumer
 * reads then (through tracefs, what the dead one's ring held went with it).
 * Session lock held.
 */
void ltt_ctrace_consumer_died(struct ltt_ctrace *t);

/**
 * ltt_ctrace_add_to() - hand @t, which no consumer has held, to consumer
 * @c (generation @gen) at once: in a directory of its own (never over a
 * trace there: the next name is taken), or on the session's relay, or as
 * a snapshot trace; then its metadata and channels.  HELD on success;
 * unchanged otherwise, and t->dir_err says when the consumer could not
 * make or write its directory (an output's failure: ltt_output_errno()).
 * Returns 0 or -errno (-ETIMEDOUT: stalled).
 */
int ltt_ctrace_add_to(struct ltt_ctrace *t, struct ltt_consumer *c, uint64_t gen);

/**
 * ltt_ctrace_relay_key() - the key of the relay @t's session streams to in
 * consumer @c (generation @gen), attached on first need; a new relay
 * session when the consumer that held the last one died.  Returns the
 * key, 0 for a local session, or -errno (the consumer could not reach the
 * relay: kept, and returned again).
 */
int64_t ltt_ctrace_relay_key(struct ltt_ctrace *t, struct ltt_consumer *c, uint64_t gen);

/**
 * ltt_ctrace_meta_owed() - does @t's consumer lack some of its metadata
 * (a stalled one)?
 */
bool ltt_ctrace_meta_owed(const struct ltt_ctrace *t);

/**
 * ltt_ctrace_meta_add() - keep @text (new metadata of @t) and send the
 * consumer what it lacks, in order
 *
 * The text is kept whatever the consumer does (one taking the trace over
 * gets it again): a consumer that owes a reply (stalled) is not sent it,
 * and it waits in @t until ltt_ctrace_meta_send_owed(); one that does not
 * answer in time writes it once it runs.  An OWED trace takes it with it.
 * Returns 0, or -EPIPE when @t is LOST, or HELD and its consumer died
 * with none to take it over (nothing kept: the caller forgets the ids it
 * describes).
 */
int ltt_ctrace_meta_add(struct ltt_ctrace *t, const struct ltt_wbuf *text);

/**
 * ltt_ctrace_meta_send_owed() - send consumer @c what it lacks of @t's
 * metadata.  Returns 0 (nothing owed any more) or -ETIMEDOUT (the
 * consumer is stalled: some still waits).
 */
int ltt_ctrace_meta_send_owed(struct ltt_ctrace *t, struct ltt_consumer *c);

/**
 * ltt_ctrace_meta_regenerate() - @t's metadata written again whole in
 * consumer @c, with the new @header (ltt_meta_regenerate()'s returns)
 */
int ltt_ctrace_meta_regenerate(struct ltt_ctrace *t, struct ltt_consumer *c,
			       const struct ltt_wbuf *header);

/**
 * ltt_ctrace_chans_owed() - does a channel of @t wait for a stalled
 * consumer?  O(1).
 */
bool ltt_ctrace_chans_owed(const struct ltt_ctrace *t);

/**
 * ltt_ctrace_settle() - send @c, which holds @t, the metadata and the
 * channels it lacks (a stalled consumer's): a channel is destroyed there
 * first, whatever of it a late reply left, then added again, read from
 * where it was released.  Returns 0, or -ETIMEDOUT: still stalled.
 */
int ltt_ctrace_settle(struct ltt_ctrace *t, struct ltt_consumer *c);

/**
 * ltt_ctrace_owed_sync() - @t is on its session's list of traces that owe
 * their consumer work (session->ctrace_owed) exactly while it owes some:
 * OWED, closing, or HELD with metadata, a channel or a flush its consumer
 * lacks.  Called by this layer wherever one of those changes.
 */
void ltt_ctrace_owed_sync(struct ltt_ctrace *t);

/**
 * ltt_ctrace_owe_flush() - @t's consumer, stalled, did not do a stop's
 * flush: done by ltt_ctrace_owed_settle() once it answers (dropped if the
 * session started again meanwhile)
 */
void ltt_ctrace_owe_flush(struct ltt_ctrace *t);

/**
 * ltt_ctrace_owe_close() - @t's source left but its stalled consumer could
 * not close it: ltt_ctrace_owed_settle() closes it (ops->close) once it
 * answers.  Returns true the first time (the caller says so in the log).
 */
bool ltt_ctrace_owe_close(struct ltt_ctrace *t);

/**
 * ltt_ctrace_rotate() - @t moves to the same place below @new_root (its
 * files in the old chunk complete and closed on return), or with @clear
 * drops what it recorded and stays; what its consumer lacks is sent
 * first, and a consumer that does not answer a short probe gets no move
 *
 * Returns 0 (also for a trace that writes nowhere), -EPIPE (its consumer
 * died and none took it over), -ETIMEDOUT (stalled: nothing sent, tried
 * again later), -EINPROGRESS (the move was sent and not answered in time:
 * the trace moves once the consumer runs; counted in rotate_moved as a
 * move), or the consumer's -errno.
 */
int ltt_ctrace_rotate(struct ltt_ctrace *t, const char *new_root, bool clear);

/* ctrace-owed.c: what traces owe stalled consumers: due in O(1), settled; what list says */

/**
 * ltt_ctrace_owed_due() - does a trace of @session owe work to a consumer
 * that can take it now (it owes no reply; or none runs and the trace is
 * not held yet, so its hand-over starts one)?  Never waits: O(1) for a
 * session that owes nothing, else one question per stalled consumer.
 */
bool ltt_ctrace_owed_due(struct ltt_session *session);

/**
 * ltt_ctrace_owed_settle() - do what @session's traces owe their
 * consumers (those of source @only, or all when NULL): hand over, send
 * the metadata and channels they lack, flush one handed over or owed a
 * flush while its session was stopped, close one whose source left.  A
 * consumer still stalled keeps the rest of its traces for the next call.
 */
void ltt_ctrace_owed_settle(struct ltt_session *session, const struct ltt_ctrace_ops *only);

/**
 * ltt_ctrace_owed_to() - what of @session waits for the consumers of
 * supervisor @sup: @ret_traces (may be NULL) traces not handed over (or a
 * channel of theirs), or closing; @ret_metadata (may be NULL) whether some
 * trace's metadata was not sent.  Returns whether anything does.
 */
bool ltt_ctrace_owed_to(struct ltt_session *session, struct ltt_supervisor *sup,
			uint32_t *ret_traces, bool *ret_metadata);

/**
 * ltt_ctrace_domain_owes() - does @d's consumer of @session owe the reply to a
 * command it was sent (it is stalled: a rotation's move, a flush may
 * still come)?  The late replies that came are read first; never waits.
 * Session lock held.  Destroy waits for it rather than tear the session
 * down under the consumer's feet.
 */
bool ltt_ctrace_domain_owes(struct ltt_domain_impl *d, struct ltt_session *session);

/**
 * ltt_ctrace_destroy_waits() - would destroying the stopped @session now
 * lose what @d's stalled consumer has yet to take (a trace not handed
 * over or not closed, metadata its trace can't be read without, a stop's
 * flush)?  Never waits.  Session lock held.  Destroy then refuses
 * (CONSUMERD_STALLED), changing nothing.
 */
bool ltt_ctrace_destroy_waits(struct ltt_domain_impl *d, struct ltt_session *session);

/**
 * ltt_ctrace_stall_info() - for list: is @d's consumer of @session
 * stalled, since when, on which command (ret->stalled and after); any
 * lock context.  With @waiting (session lock held): also what waits for
 * it in the daemon (ret->traces, ret->metadata).  Never waits.
 */
void ltt_ctrace_stall_info(struct ltt_domain_impl *d, struct ltt_session *session, bool waiting,
			   struct ltt_domain_stall *ret);

#endif /* LTT_SESSIOND_CTRACE_H */
