/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h - the data threads: each runs one event loop (common/evloop.h)
 * that moves packets from its streams' sources to their sinks.
 *
 * A data thread watches each of its streams' sources (a user-space
 * stream's wakeup eventfd, a kernel stream's fd) and the sinks that said
 * they would block, runs its part of each channel's switch and read
 * timers, and runs the requests the command thread posts to it.  Streams
 * and timers belong to one data thread from the request that adds them
 * to the one that removes them; the command thread reaches them only
 * through requests, each a synchronous call: ltt_data_call() returns once
 * every data thread concerned has carried it out.
 *
 * Placement (ltt_data_place()).  A channel is split in parts, one per
 * data thread that runs some of its streams.  A channel written to files
 * (user space or kernel) has one part per data thread, on threads 0, 1...,
 * but no more parts than configured CPUs (a part with no stream would
 * only run timers), and CPU c's stream goes to part c modulo their
 * number: the per-CPU streams of one busy channel are drained in
 * parallel.  Every other channel has one part:
 * relayed channels and snapshot traces' on thread 0, which does every
 * relay's socket I/O (a relay's live timer walks its channels' streams,
 * and a snapshot sent to a relay waits for its sockets, on the thread
 * that does that I/O; one data connection per relay serializes its
 * packets anyway), a tracefs channel on thread (key modulo their number)
 * (its streams share the channel's copy of the event map, synced without
 * a lock).  With one data thread every channel has one part on it.
 *
 * A request about a channel goes to each of its parts' threads at once
 * and the caller waits for them all, summing what they report; a stream
 * request goes to its CPU's part only; a relay request to thread 0.
 *
 * Lock: each thread's one mutex protects each request posted to it
 * (done/status) and the thread's started flag (set once it has its
 * scheduling, awaited by ltt_data_threads_start()), nothing else.  It is
 * a leaf: neither side calls out or does I/O while holding it (log lines
 * excepted).
 */
#ifndef LTT_CONSUMERD_DATA_H
#define LTT_CONSUMERD_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "common/consumer-proto.h"
#include "common/evloop.h"

struct ltt_chan_part;
struct ltt_channel;
struct ltt_channel_cfg;
struct ltt_data_thread;
struct ltt_data_threads;
struct ltt_relay;
struct ltt_output;

/* The most data threads a consumer runs (--data-threads). */
#define LTT_DATA_THREADS_MAX LTT_CONSUMER_DATA_THREADS_MAX

/* Without --data-threads: one per CPU the consumer may run on, at most this many. */
#define LTT_DATA_THREADS_DEFAULT_MAX 16

/* The data thread that does every relay's I/O. */
#define LTT_DATA_RELAY_THREAD 0u

/* A channel's counters, summed over its streams. */
struct ltt_channel_stats {
	uint64_t events_lost;	/* dropped by writers (from the ring buffers) */
	uint64_t packets_lost;	/* corrupt, overwritten, abandoned, or not written */
	uint64_t bytes_written;	/* packet bytes in the stream files */
	/* The output's failure (sink-file.c: disk full, directory removed...). */
	int32_t error;		/* 0, or the -errno that stops writing now */
	int64_t error_since;	/* then: when it began, seconds since the Epoch */
	uint64_t error_events;	/* events writers dropped while the output failed */
	uint64_t error_packets;	/* packets dropped because the output failed */
};

/* What a snapshot wrote (snapshot.h). */
struct ltt_snapshot_counts {
	uint64_t packets;		/* written */
	uint64_t bytes;
	uint64_t packets_dropped;	/* overwritten while copied, or incomplete */
};

struct ltt_output;

enum ltt_data_req_type {
	LTT_DATA_ADD_CHANNEL,	/* chan: start its timers; the threads now own its parts */
	LTT_DATA_ADD_STREAM,	/* chan, cpu, shm_fd, wakeup_fd: map and start reading */
	LTT_DATA_ADD_KERNEL_STREAM, /* chan, cpu, stream_fd: start reading */
	LTT_DATA_ADD_FTRACE_STREAM, /* chan, cpu, stream_fd (trace_pipe_raw), map_fd */
	LTT_DATA_FLUSH,		/* chan, final: close, write every complete packet */
	LTT_DATA_NEW_CHUNK,	/* chan, clear: its streams move to chan->output, just
				 * replaced (a trace chunk rotation) */
	LTT_DATA_STATS,		/* chan -> stats */
	LTT_DATA_REMOVE_CHANNEL, /* chan: final flush, close its streams and timers */
	LTT_DATA_ADD_RELAY,	/* relay: do its I/O, run its live timer */
	LTT_DATA_REMOVE_RELAY,	/* relay: close it and free it, later (its channels are gone) */
	LTT_DATA_STOP,		/* leave the loop (no channel may remain); internal */
	LTT_DATA_SNAPSHOT,	/* chan, snap_out, max_packets -> snap: copy its packets */
	LTT_DATA_RECLAIM,	/* chan -> reclaimed: give back what was consumed */
};

/*
 * One request, on the caller's stack.  The caller fills the inputs; the
 * data threads set the outputs (summed over a channel's parts), then
 * status (the first error of a part).
 */
struct ltt_data_req {
	enum ltt_data_req_type type;
	struct ltt_channel *chan;	/* borrowed */
	struct ltt_relay *relay;	/* ADD_RELAY, REMOVE_RELAY: borrowed */
	uint32_t cpu;			/* ADD_STREAM */
	int shm_fd, wakeup_fd;		/* ADD_STREAM: borrowed, dup'ed if kept */
	bool has_stats;			/* ADD_STREAM: stats_fd is the statistics page */
	int stats_fd;			/* borrowed (ltt_stream_set_stats_page()) */
	int stream_fd;			/* ADD_KERNEL_STREAM, ADD_FTRACE_STREAM: borrowed,
					 * dup'ed if kept */
	int map_fd;			/* ADD_FTRACE_STREAM: the event map, borrowed */
	bool final;			/* FLUSH */
	bool stopped;			/* FLUSH: the writers are stopped (slow timers) */
	bool clear;			/* NEW_CHUNK: drop what the old chunk holds */
	struct ltt_channel_stats stats;	/* STATS: the result */
	const struct ltt_output *snap_out;	/* SNAPSHOT: where (borrowed) */
	uint64_t max_packets;		/* SNAPSHOT: per stream, 0: all */
	struct ltt_snapshot_counts snap;	/* SNAPSHOT: added to */
	uint64_t older_than;		/* RECLAIM: ns, 0: every consumed sub-buffer */
	uint64_t reclaimed;		/* RECLAIM: sub-buffers given back, added to */
	/* private to data.c: one part's request, posted to its thread */
	struct ltt_chan_part *part;	/* the part it concerns, or NULL */
	unsigned int chan_streams;	/* ADD_*STREAM: the channel's streams, all parts */
	uint32_t stream_id;		/* ADD_*STREAM: theirs (when any); out: the new one's */
	int status;
	bool done;
	struct ltt_evloop_job job;	/* posted to the data thread's loop */
	struct ltt_data_thread *dt;
};

/**
 * ltt_data_threads_start() - create @n data threads
 * @n: 1 to LTT_DATA_THREADS_MAX
 * @ret_dts: to stop with ltt_data_threads_stop()
 *
 * Call with the signals the process handles blocked: the threads inherit
 * the mask.  Returns once every thread has asked for its scheduling
 * (prio.h), so that the process may drop its privileges after.  Returns
 * 0, -EINVAL, or a negative errno (then no thread is left).
 */
int ltt_data_threads_start(unsigned int n, struct ltt_data_threads **ret_dts);

/**
 * ltt_data_threads_stop() - stop and join every thread, free them;
 * accepts NULL
 *
 * Remove every channel and relay first.  Command thread.
 */
void ltt_data_threads_stop(struct ltt_data_threads *dts);

/**
 * ltt_data_place() - set @cfg's parts (nr_parts, first_thread) for a new
 * channel of a trace that goes to a relay (@relayed), is a snapshot trace
 * (@snapshot), or neither; see "Placement" above
 *
 * Command thread, before ltt_channel_create().
 */
void ltt_data_place(const struct ltt_data_threads *dts, struct ltt_channel_cfg *cfg,
		    bool relayed, bool snapshot);

/**
 * ltt_data_call() - have the data threads carry out @req and wait for it
 * @req: borrowed until the call returns
 *
 * Command thread (any thread but a data thread; one caller at a time).  A
 * channel request runs on each thread that holds a part of req->chan, at
 * once; a stream request on its CPU's part's thread; a relay request on
 * LTT_DATA_RELAY_THREAD.  Returns -EINVAL, nothing posted, for a channel
 * with a part on a thread that does not run (or none, or more parts than
 * LTT_DATA_THREADS_MAX); else the request's status: 0 or a negative
 * errno, the first part's that failed, as each request type documents in
 * data.c.
 */
int ltt_data_call(struct ltt_data_threads *dts, struct ltt_data_req *req);

/*
 * Private to data.c and data-relay.c: a data thread's relays, embedded in
 * it, touched by that thread alone (data-0's; the others have none).
 */
struct relay_reg;
struct ltt_data_relays {
	struct ltt_evloop *loop;	/* the thread's (borrowed) */
	struct ltt_data_thread *dt;	/* the thread, for the live timers */
	struct relay_reg *active;	/* added, not yet removed */
	struct relay_reg *closing;	/* removed, sending their last bytes */
};

/**
 * ltt_data_live_tick() - a live timer's expiry for @relay: every stream of
 * its channels (their one part each is on @dt) is switched (a partial
 * packet closed; an empty one for a stream whose reader needs a first
 * packet) and drained, and one that sent nothing since sends a beacon
 *
 * @dt's thread (data-relay.c's live timer).
 */
void ltt_data_live_tick(struct ltt_data_thread *dt, const struct ltt_relay *relay);

/* data-relay.c: the relays whose socket I/O data-0 does (data.c's requests) */

/**
 * ltt_data_relay_add() - LTT_DATA_ADD_RELAY: watch @relay's sockets and
 * kick fd on rs->loop, start its tick and live timer, do its first I/O
 * @relay: borrowed until ltt_data_relay_remove()
 *
 * The thread of @rs.  Returns 0, -ENOMEM or an evloop error (-EEXIST...),
 * then nothing is left registered.
 */
int ltt_data_relay_add(struct ltt_data_relays *rs, struct ltt_relay *relay);

/**
 * ltt_data_relay_remove() - LTT_DATA_REMOVE_RELAY: the data thread owns
 * @relay from now on: it closes its streams, sends its last bytes as the
 * sockets take them and destroys it when done or at its deadline, never
 * blocking
 *
 * The thread of @rs.  Returns 0, or -ENOENT for a relay not added (then
 * still the caller's).
 */
int ltt_data_relay_remove(struct ltt_data_relays *rs, struct ltt_relay *relay);

/**
 * ltt_data_relays_fini() - destroy the relays still closing (each has
 * its LTT_SINK_RELAY_FINAL_MS to send what is left); none may be active
 *
 * The thread of @rs, as it stops.
 */
void ltt_data_relays_fini(struct ltt_data_relays *rs);

#endif /* LTT_CONSUMERD_DATA_H */
