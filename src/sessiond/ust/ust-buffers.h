/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-buffers.h - the buffers of the user-space domain, per session:
 *
 *   ltt_session_domain.state (user)   a session's traces
 *    └─ ltt_ust_trace *N      one CTF trace: per-UID (session, uid, ABI) or
 *        │                    per-PID (session, program)
 *        └─ ltt_ust_chan *N   a channel's buffers in that trace: per CPU a
 *                             sealed memfd ring buffer and a wakeup eventfd;
 *                             its event classes (ust-meta.h)
 *
 * and the domain's consumer daemons, one per session owner (supervisor.h):
 * the consumer of a session's owner writes every trace of the session: a
 * trace is registered with it when created, each channel with its streams
 * when its buffers are made, metadata as it is written.  A root daemon's
 * consumer for another user runs as that user (uid and primary gid of the
 * session's creator), so that one user's output (a file system that stops
 * answering) blocks only that user's consumer, and no consumer writes into
 * a user's directories with root's rights.  A personal daemon has one.
 *
 * Everything here runs under the session's lock, but ltt_ust_buffers_flush()
 * (no lock) and init/fini.
 */
#ifndef LTT_SESSIOND_UST_BUFFERS_H
#define LTT_SESSIOND_UST_BUFFERS_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <urcu/list.h>
#include <uuid/uuid.h>

#include "common/base/codec.h"
#include "sessiond/app/app.h"
#include "sessiond/ctrace/ctrace.h"
#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ust/ust-meta.h"

struct ltt_relay_snap;

/* The consumer daemon of the sessions of one owner. */
struct ltt_ust_owner {
	struct cds_list_head node;	/* in ltt_ust_buffers.owners */
	uid_t uid;			/* (uid_t)-1: the daemon's own (a personal one) */
	gid_t gid;
	char what[48];			/* "user-space (uid N)", in messages */
	struct ltt_supervisor consumer;
	struct ltt_ust_buffers *buffers;
	/* Under the owners' lock: */
	unsigned int users;		/* sessions with state here, flushes under way */
	uint64_t retire_seq;		/* the last time users fell to 0 */
	uint64_t idle_seq;		/* the retire_seq the idle timer is armed for */
	struct ltt_evloop_timer *idle;	/* the supervisor thread's: retires after the grace */
};

/* What the buffers of every session share. */
struct ltt_ust_buffers {
	pthread_mutex_t owners_lock;	/* the list (a leaf): owners stay until fini */
	struct cds_list_head owners;	/* ltt_ust_owner */
	struct ltt_consumer_config consumer;	/* how each owner's consumer is started */
	/* called on a watch thread when an owner's consumer died */
	void (*takeover)(void *arg, const struct ltt_ust_owner *owner);
	void *takeover_arg;
	struct ltt_trace_host host;
	uint64_t next_key;		/* atomic: trace and channel keys */
	unsigned int nr_cpus;		/* streams per per-CPU channel */
};

/* A channel's buffers in a trace. */
struct ltt_ust_chan {
	struct ltt_cchan cc;		/* in its trace's chans: key, channel, add_owed */
	unsigned int nr_streams;
	int *fds;			/* per stream: shm, then wakeup */
	struct ltt_ust_classes classes;
};

/*
 * One CTF trace of a session: its life in the consumer (hand-over,
 * metadata, takeover, rotation) is the consumer-trace layer's (ctrace.h).
 */
struct ltt_ust_trace {
	struct ltt_ctrace ct;		/* its session is ct.session */
	struct cds_list_head node;	/* in the session's state */
	bool per_pid;
	uid_t uid;
	uint32_t bits_per_long;		/* per-UID traces are per ABI too */
	pid_t pid;			/* per-PID: the application */
	time_t registered_at;		/* per-PID: when its program registered */
	bool lost_said;			/* a stop said so already */
	char procname[17];		/* per-PID: the application's */
};

/* What stop flushes: gathered under the session lock, flushed without. */
struct ltt_ust_flush {
	uint64_t *keys;			/* channel keys, all held by ... */
	uint64_t *bytes;		/* what each channel's buffers hold */
	size_t nr;
	uint64_t gen;			/* ... this consumer generation */
	bool lost;			/* some trace lost its consumer */
	bool owed;			/* some trace waits for a stalled consumer */
	bool refused;			/* the consumer refused some trace or channel */
	struct ltt_ust_owner *owner;	/* held while keys are to flush */
};

/* ust-trace-ops.c: snapshots, rotations, regeneration, relay queries */

/**
 * ltt_ust_buffers_relay_archive() - after a rotation of @session's relay
 * traces, have the relay move the old chunk's directory @from to @to
 * (RELAY_ARCHIVE), and wait (polling the consumer, at most
 * LTT_RELAY_SNAP_DRAIN_MS) until it did
 * @ret_dir: the relay session's directory, as the relay named it
 * Session lock held.  Returns 0 (also when nothing was ever streamed),
 * -ECONNRESET (the consumer holding the relay died), -ETIMEDOUT, or the
 * consumer's or relay's -errno.
 */
int ltt_ust_buffers_relay_archive(struct ltt_ust_buffers *b, struct ltt_session *session,
				  const char *from, const char *to, char *ret_dir, size_t len);

/**
 * ltt_ust_buffers_snapshot() - write what every trace of the snapshot
 * session @session holds now under @dir (each trace in its own
 * subdirectory, as ust/uid/UID/64-bit), without consuming it
 * @max_size: bytes in all, shared by every stream (the newest packets of
 *            each); 0: unlimited
 * @ret: packets and bytes written, packets left out (overwritten while
 *       copied); set also on failure (what was written before)
 *
 * @net: NULL, or a snapshot sent to a relay (sessiond/consumer/relay.h; @dir is
 *       then unused): each trace goes to it as its path; the caller
 *       drains and closes the relay sessions (ltt_relay_snap_end())
 *
 * Session lock held; waits for the consumer.  Returns 0, -ENOSPC when
 * @max_size can't hold one packet of each stream, -ENAMETOOLONG, or the
 * consumer's error (-EEXIST: a trace is in @dir already), or the relay's
 * (@net->relay_err set).
 */
int ltt_ust_buffers_snapshot(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const char *dir, struct ltt_relay_snap *net, uint64_t max_size,
			     struct ltt_consumer_snapshot_reply *ret);

/**
 * ltt_ust_buffers_relay_pending() - is some of @session's data still on
 * its way to its relay?  Session lock held.
 *
 * Returns 0 (@ret_pending false for a local session) or -ECONNRESET when
 * the relay connection is lost.
 */
int ltt_ust_buffers_relay_pending(struct ltt_ust_buffers *b, struct ltt_session *session,
				  bool *ret_pending);

/**
 * ltt_ust_buffers_relay_status() - @session's relay connection
 * @ret: filled but for its domain
 *
 * Session lock held.  Returns 0, or -ENOENT when there is none (a local
 * session, or none of its traces was made yet).
 */
int ltt_ust_buffers_relay_status(struct ltt_ust_buffers *b, struct ltt_session *session,
				 struct ltt_relay_desc *ret);

/**
 * ltt_ust_buffers_rotate() - move every trace of @session from the chunk
 * rooted at @old_root to the same place below @new_root (consumer
 * ROTATE_TRACE); with @clear (roots NULL), drop what they recorded and
 * stay, and remove the per-PID traces of programs that exited (CHUNK/
 * ust/pid/, listed with the owner's rights).  Each trace is tried;
 * returns 0 or the first failure's -errno
 * (-EPIPE: its consumer is gone, -EOPNOTSUPP: an older consumer).
 * Session lock held.
 */
int ltt_ust_buffers_rotate(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const char *old_root, const char *new_root, bool clear);

/**
 * ltt_ust_buffers_regenerate_metadata() - write every trace's metadata
 * again whole: a new header (the clock offset of now), the same event
 * descriptions.  Returns 0 or the first failure's -errno.  Session lock held.
 */
int ltt_ust_buffers_regenerate_metadata(struct ltt_ust_buffers *b, struct ltt_session *session);

/* ust-buffers.c: its traces and channel buffers, per session; their owners and consumers */

/**
 * ltt_ust_buffers_init() - no trace yet; the consumer is spawned on first
 * need
 * @consumer: how to start each owner's consumer (copied; its path is
 *            borrowed for the buffers' life)
 */
void ltt_ust_buffers_init(struct ltt_ust_buffers *b, const struct ltt_consumer_config *consumer);

/**
 * ltt_ust_buffers_fini() - stop the consumers; every session's buffers must
 * be destroyed first
 */
void ltt_ust_buffers_fini(struct ltt_ust_buffers *b);

/**
 * ltt_ust_buffers_set_takeover() - what to call when an owner's consumer
 * dies: @fn runs on a watch thread without lock and hands that owner's
 * sessions to a new consumer (ltt_ust_buffers_takeover() for each session
 * ltt_ust_buffers_owner() says is @owner's; a snapshot session's traces
 * wait for a command, ltt_ctrace_consumer_died())
 */
void ltt_ust_buffers_set_takeover(struct ltt_ust_buffers *b,
				  void (*fn)(void *arg, const struct ltt_ust_owner *owner),
				  void *arg);

/**
 * ltt_ust_buffers_owner() - the owner whose consumer writes @session's
 * traces, made on first need; NULL when out of memory.  Any lock context
 * (takes the owners' lock, a leaf).
 */
struct ltt_ust_owner *ltt_ust_buffers_owner(struct ltt_ust_buffers *b,
					    const struct ltt_session *session);

/**
 * ltt_ust_buffers_writes_in() - does a trace of @session write in @dir
 * (its directory, or one below)?  Session lock held.
 */
bool ltt_ust_buffers_writes_in(struct ltt_session *session, const char *dir);

/**
 * ltt_ust_buffers_owner_hold() / ltt_ust_buffers_owner_release() - one
 * more (one less) user of @o's consumer: a session with user-space state,
 * or a flush under way.  When the last goes, the consumer is told to exit
 * (it holds nothing then) and reaped, on the owner's thread; the next
 * session of that owner starts a new one.  Any lock context.
 */
void ltt_ust_buffers_owner_hold(struct ltt_ust_owner *o);

void ltt_ust_buffers_owner_release(struct ltt_ust_owner *o);

/**
 * ltt_ust_buffers_find_trace() - the trace @app writes to in @session
 * (per-PID or per-UID as @per_pid says), or NULL
 */
struct ltt_ust_trace *ltt_ust_buffers_find_trace(struct ltt_session *session,
						const struct ltt_app *app, bool per_pid);

/**
 * ltt_ust_buffers_trace() - the trace @app writes to in @session, created
 * on first need with its metadata header, but not yet handed to the
 * consumer: the program gets its buffers without waiting for a consumer
 * that may be stalled, and ltt_ust_buffers_settle() (or the next call
 * that needs the consumer) hands the trace over, with what the program
 * wrote meanwhile
 *
 * Returns the trace (owned by the session's state) or NULL when out of
 * memory.  A trace the consumer refuses is kept, without files (logged).
 */
struct ltt_ust_trace *ltt_ust_buffers_trace(struct ltt_ust_buffers *b, struct ltt_session *session,
					    const struct ltt_app *app);

/**
 * ltt_ust_buffers_chan() - the buffers of @channel in @trace, created on
 * first need and handed to the consumer
 *
 * Returns them (owned by @trace) or NULL when they can't be made (logged).
 */
struct ltt_ust_chan *ltt_ust_buffers_chan(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
					  struct ltt_channel *channel);

/**
 * ltt_ust_buffers_find_chan() - the buffers of @channel in @trace, or NULL
 * (never made here)
 */
struct ltt_ust_chan *ltt_ust_buffers_find_chan(const struct ltt_ust_trace *trace,
					       const struct ltt_channel *channel);

/**
 * ltt_ust_buffers_flush_prepare() - what ltt_ust_buffers_flush() will
 * flush of @session; @ret_flush is always set (nothing, when out of memory)
 */
void ltt_ust_buffers_flush_prepare(struct ltt_ust_buffers *b, struct ltt_session *session,
				   struct ltt_ust_flush *ret_flush);

/**
 * ltt_ust_buffers_flush() - have the consumer write what @flush's channels
 * hold, and wait for it; no lock held.  Empties @flush.
 * @session: referenced; named in messages
 *
 * Returns 0, -EOWNERDEAD (a trace lost its consumer and none could take
 * it over: it ends there), -ESTALE (the consumer died since @flush was
 * prepared: prepare again, the new one has taken over), -ETIMEDOUT (the
 * consumer is stalled: it did not answer in time), -EREMOTEIO (it
 * refused some of the traces or channels: their events are not written)
 * or -EIO (it failed to write a channel).
 */
int ltt_ust_buffers_flush(struct ltt_ust_buffers *b, const struct ltt_session *session,
			  struct ltt_ust_flush *flush);

/**
 * ltt_ust_buffers_destroy() - close every trace of @session and free its
 * state (ltt_session_domain.state is NULL after)
 */
void ltt_ust_buffers_destroy(struct ltt_ust_buffers *b, struct ltt_session *session);

/**
 * ltt_ust_buffers_consumer_early() - start @session's owner's consumer now
 * rather than at the session's start (LTTng's test points: testpoint.h)
 */
void ltt_ust_buffers_consumer_early(struct ltt_ust_buffers *b, const struct ltt_session *session);

/**
 * ltt_ust_buffers_prepare() - before @session starts: a streamed session's
 * relay is reached by the consumer (ADD_RELAY, once per session and
 * consumer; blocks up to the consumer's connection deadline); a local
 * session's directory is created and written to by the consumer as the
 * session's owner (PROBE_OUTPUT), and the traces it kept from a former
 * start are written again (what their streams held when the output
 * failed)
 *
 * Session lock held.  Returns 0 (at once for a session without output),
 * -EPIPE (no consumer), -ENOMEM, the consumer's ADD_RELAY error, or the
 * output's -errno (then also in session->output_err).
 */
int ltt_ust_buffers_prepare(struct ltt_ust_buffers *b, struct ltt_session *session);

/**
 * ltt_ust_buffers_written() - bytes the consumers wrote for @session's
 * open traces so far (from the statistics pages: never asks).  Session
 * lock held.
 */
uint64_t ltt_ust_buffers_written(struct ltt_session *session);

/* ust-buffers-stats.c: what the buffers hold and lost, from shared memory */

/**
 * ltt_ust_buffers_stats() - lost events and packets of @channel: of its
 * closed traces, then of its open ones so far, read from shared memory
 * (the ring buffers' counts, the consumer's statistics pages): never
 * waits for the consumer, and what a consumer that died counted stays
 */
void ltt_ust_buffers_stats(struct ltt_ust_buffers *b, struct ltt_session *session,
			   const struct ltt_channel *channel, uint64_t *ret_events_lost,
			   uint64_t *ret_packets_lost);

/**
 * ltt_ust_buffers_failure() - @channel's output failure: the earliest
 * of its open traces' now, and the events and packets it made lose in
 * all its traces, closed ones included
 */
void ltt_ust_buffers_failure(struct ltt_ust_buffers *b, struct ltt_session *session,
			     const struct ltt_channel *channel, struct ltt_domain_failure *ret);

/**
 * ltt_ust_buffers_mem() - the memory each ring buffer of @channel holds
 * now, in every trace of @session: @fn(@arg, m) once per stream, from the
 * blocks of its shared memory (fstat()), which the writer and the consumer
 * fill as they touch its pages.  Session lock held; never waits.
 */
void ltt_ust_buffers_mem(struct ltt_session *session, const struct ltt_channel *channel,
			 void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg);

/**
 * ltt_ust_buffers_reclaim() - ltt_domain_ops.reclaim for every trace of
 * @session that has @channel: each trace's consumer gives back what it
 * consumed; the bytes are the memfds' blocks before less after.
 */
int ltt_ust_buffers_reclaim(struct ltt_session *session, const struct ltt_channel *channel,
			    uint64_t older_than_ns, uint64_t *subbufs, uint64_t *bytes);

/**
 * ltt_ust_buffers_usage() - how full @channel's streams are, in every
 * trace of @session (shared memory only).  Returns 0, or -ENOENT when it
 * has no stream yet.
 */
int ltt_ust_buffers_usage(struct ltt_session *session, const struct ltt_channel *channel,
			  struct ltt_domain_usage *ret);

/* ust-handover.c: its traces in the consumer-trace layer; closing traces */

/**
 * ltt_ust_buffers_metadata() - send metadata @text to @trace's consumer
 * (nothing when @text is empty or failed; a failure is logged)
 */
void ltt_ust_buffers_metadata(struct ltt_ust_buffers *b, struct ltt_ust_trace *trace,
			      const struct ltt_wbuf *text);

/**
 * ltt_ust_buffers_close_trace() - have the consumer write what @trace
 * holds and close it, then free it; its losses are kept in the session's
 * channels, so the count users see does not shrink
 *
 * A consumer that is stalled (it has not taken the trace yet, or does not
 * answer its flush) can't be told: the trace is kept, marked closing,
 * with its buffers, and closed by a later ltt_ust_buffers_settle() or
 * stop (never freed with events the consumer has not read).  Session lock
 * held.  Returns 0 (freed) or -ETIMEDOUT (kept).
 */
int ltt_ust_buffers_close_trace(struct ltt_ust_trace *trace);

/**
 * ltt_ust_buffers_settle() - the consumer's part of what programs were
 * given: hand @session's new traces to the consumer (their metadata and
 * channels too), and finish closing those of programs that left
 *
 * Called after the programs got their buffers, so that a stalled consumer
 * delays no program.  A consumer still stalled leaves them for the next
 * call.  The consumer-trace layer's, for the user-space traces only
 * (ltt_ctrace_owed_settle()).  Session lock held.
 */
void ltt_ust_buffers_settle(struct ltt_ust_buffers *b, struct ltt_session *session);

/**
 * ltt_ust_buffers_takeover() - hand every trace of @session whose
 * consumer died to the current one (spawned if needed): it continues the
 * same files from the ring buffers' read positions, with the same
 * timers; a snapshot session's traces wait for a command
 * (ltt_ctrace_consumer_died()).  Session lock held.  A trace that can't be
 * taken over (a relayed one, or a refusal) ends there, said in the log and
 * by stop.
 */
void ltt_ust_buffers_takeover(struct ltt_ust_buffers *b, struct ltt_session *session);

#endif /* LTT_SESSIOND_UST_BUFFERS_H */
