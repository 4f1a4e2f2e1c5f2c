/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * heartbeat.h - a thread's heartbeat: when it last woke up and whether
 * it sleeps waiting for work, kept by its event loop (evloop.c) around
 * each epoll_wait(), for health checks (LTTng's health socket,
 * ltt-sessiond --lttng-compat): a thread awake in one piece of work for
 * longer than a delta is stuck.
 *
 * A heartbeat with a tag of 0 is not watched: its loop skips it.  Its
 * thread calls ltt_heartbeat_join() before it beats, ltt_heartbeat_leave()
 * after; any thread calls ltt_heartbeat_stalled().
 */
#ifndef LTT_COMMON_HEARTBEAT_H
#define LTT_COMMON_HEARTBEAT_H

#include <stdbool.h>
#include <stdint.h>

struct ltt_heartbeat {
	uint64_t tag;			/* the watcher's bits; 0: not watched */
	uint64_t beat_ns;		/* CLOCK_MONOTONIC, last woken; atomic */
	bool waiting;			/* asleep with nothing due; atomic */
	uint64_t point;			/* the slots of the test point it runs; atomic */
	struct ltt_heartbeat *next;	/* the watched ones' list, while joined */
};

/*
 * Times (@now) are CLOCK_MONOTONIC nanoseconds, the caller's
 * (ltt_evloop_now_ns()).
 */

/** ltt_heartbeat_join() - watch @hb (a tagged one) from @now on; its thread */
void ltt_heartbeat_join(struct ltt_heartbeat *hb, uint64_t now);

/** ltt_heartbeat_leave() - watch @hb no more (its thread ends its work) */
void ltt_heartbeat_leave(struct ltt_heartbeat *hb);

/** ltt_heartbeat_wait() - @hb's thread goes to sleep: @idle, with nothing due */
static inline void ltt_heartbeat_wait(struct ltt_heartbeat *hb, bool idle)
{
	if (hb->tag)
		__atomic_store_n(&hb->waiting, idle, __ATOMIC_RELAXED);
}

/** ltt_heartbeat_wake() - @hb's thread woke up at @now: it beats */
static inline void ltt_heartbeat_wake(struct ltt_heartbeat *hb, uint64_t now)
{
	/* the beat before: a watcher that sees it awake reads a fresh beat */
	__atomic_store_n(&hb->beat_ns, now, __ATOMIC_RELAXED);
	__atomic_store_n(&hb->waiting, false, __ATOMIC_RELEASE);
}

/**
 * ltt_heartbeat_point() - @hb's thread runs (@slots) or is out of (0) a
 * test point of LTTng's standing for @slots of its tag: stuck there, only
 * they are reported
 */
static inline void ltt_heartbeat_point(struct ltt_heartbeat *hb, uint64_t slots)
{
	__atomic_store_n(&hb->point, slots, __ATOMIC_RELEASE);
}

/**
 * ltt_heartbeat_fail() - a thread's work for @tags ended in error (a
 * failed test point): they are reported stalled from now on, for the
 * process's life; any thread
 */
void ltt_heartbeat_fail(uint64_t tags);

/**
 * ltt_heartbeat_stalled() - the tags (ORed) of the joined heartbeats
 * whose thread is awake and has not woken for more than @delta_ns
 * before @now (stuck in one piece of work; in a test point: its slots
 * only), and those ended in error (ltt_heartbeat_fail()); any thread
 */
uint64_t ltt_heartbeat_stalled(uint64_t delta_ns, uint64_t now);

#endif /* LTT_COMMON_HEARTBEAT_H */
