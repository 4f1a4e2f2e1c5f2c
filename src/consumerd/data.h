/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h - the data thread: one event loop (common/evloop.h) that moves
 * packets from every stream's source to its sink.
 *
 * It watches each stream's source (a user-space stream's wakeup eventfd,
 * a kernel stream's fd) and the sinks that said they would block, runs
 * each channel's switch and read timers, and runs the requests the
 * command thread posts to it.  Streams and the per-channel timers belong
 * to this thread from the request that adds them to the one that removes
 * them; the command thread reaches them only through requests, each a
 * synchronous call: ltt_data_call() returns once the data thread has
 * carried it out.
 *
 * Lock: the thread's one mutex protects each posted request's done/status
 * fields, and nothing else.  It is a leaf: neither side calls out or does
 * I/O while holding it (log lines excepted).
 */
#ifndef LTT_CONSUMERD_DATA_H
#define LTT_CONSUMERD_DATA_H

#include <stdbool.h>
#include <stdint.h>

#include "common/evloop.h"

struct ltt_channel;
struct ltt_data_thread;
struct ltt_relay;
struct ltt_output;

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
	LTT_DATA_ADD_CHANNEL,	/* chan: start its timers; the thread now owns its streams */
	LTT_DATA_ADD_STREAM,	/* chan, cpu, shm_fd, wakeup_fd: map and start reading */
	LTT_DATA_ADD_KERNEL_STREAM, /* chan, cpu, stream_fd: start reading */
	LTT_DATA_ADD_FTRACE_STREAM, /* chan, cpu, stream_fd (trace_pipe_raw), map_fd */
	LTT_DATA_FLUSH,		/* chan, final: close, write every complete packet */
	LTT_DATA_NEW_CHUNK,	/* chan, output, clear: its streams move to output (a
				 * trace chunk rotation); the old one comes back */
	LTT_DATA_STATS,		/* chan -> stats */
	LTT_DATA_REMOVE_CHANNEL, /* chan: final flush, close its streams and timers */
	LTT_DATA_ADD_RELAY,	/* relay: do its I/O, run its live timer */
	LTT_DATA_REMOVE_RELAY,	/* relay: close it and free it, later (its channels are gone) */
	LTT_DATA_STOP,		/* leave the loop (no channel may remain) */
	LTT_DATA_SNAPSHOT,	/* chan, snap_out, max_packets -> snap: copy its packets */
};

/*
 * One request, on the caller's stack.  The caller fills the inputs; the
 * data thread sets the outputs, then status and done under the lock.
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
	struct ltt_output *output;	/* NEW_CHUNK: in, taken: the channel's new
					 * output; out: its old one, to destroy */
	bool clear;			/* NEW_CHUNK: drop what the old chunk holds */
	struct ltt_channel_stats stats;	/* STATS: the result */
	const struct ltt_output *snap_out;	/* SNAPSHOT: where (borrowed) */
	uint64_t max_packets;		/* SNAPSHOT: per stream, 0: all */
	struct ltt_snapshot_counts snap;	/* SNAPSHOT: added to */
	/* private to data.c */
	int status;
	bool done;
	struct ltt_evloop_job job;	/* posted to the data thread's loop */
	struct ltt_data_thread *dt;
};

/**
 * ltt_data_thread_start() - create the data thread
 * @ret_dt: to stop with ltt_data_thread_stop()
 *
 * Call with the signals the process handles blocked: the thread inherits
 * the mask.  Returns once the thread has asked for its scheduling
 * (prio.h), so that the process may drop its privileges after.  Returns
 * 0 or a negative errno.
 */
int ltt_data_thread_start(struct ltt_data_thread **ret_dt);

/**
 * ltt_data_thread_stop() - stop and join the thread, free it; accepts NULL
 *
 * Remove every channel first.  Command thread.
 */
void ltt_data_thread_stop(struct ltt_data_thread *dt);

/**
 * ltt_data_call() - have the data thread carry out @req and wait for it
 * @req: borrowed until the call returns
 *
 * Command thread (any thread but the data thread).  Returns the request's
 * status: 0 or a negative errno, as each request type documents in data.c.
 */
int ltt_data_call(struct ltt_data_thread *dt, struct ltt_data_req *req);

#endif /* LTT_CONSUMERD_DATA_H */
