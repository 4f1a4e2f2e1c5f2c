/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data.h - the data threads: each runs one event loop (common/base/evloop.h)
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

#include "common/base/evloop.h"
#include "consumerd/data/data-req.h"

struct ltt_channel_cfg;
struct ltt_data_thread;
struct ltt_data_threads;
struct ltt_relay;

/* Without --data-threads: one per CPU the consumer may run on, at most this many. */
#define LTT_DATA_THREADS_DEFAULT_MAX 16

/* The data thread that does every relay's I/O. */
#define LTT_DATA_RELAY_THREAD 0u

/**
 * ltt_data_threads_start() - create @n data threads
 * @n: 1 to LTT_DATA_THREADS_MAX
 * @health_tag: their loops' heartbeat tag (ltt_evloop_set_tag()); 0: none
 * @ret_dts: to stop with ltt_data_threads_stop()
 *
 * Call with the signals the process handles blocked: the threads inherit
 * the mask.  Returns once every thread has asked for its scheduling
 * (prio.h), so that the process may drop its privileges after.  Returns
 * 0, -EINVAL, or a negative errno (then no thread is left).
 */
int ltt_data_threads_start(unsigned int n, uint64_t health_tag, struct ltt_data_threads **ret_dts);

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
 * data-loop.c.
 */
int ltt_data_call(struct ltt_data_threads *dts, struct ltt_data_req *req);

#endif /* LTT_CONSUMERD_DATA_H */
