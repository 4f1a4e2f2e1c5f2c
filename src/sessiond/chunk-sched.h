/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk-sched.h - the rotation thread: rotates the sessions whose
 * schedule (enable-rotation --timer / --size) says so.
 *
 * One thread with its own event loop and one periodic tick
 * (LTT_CHUNK_SCHED_TICK_MS).  At each tick it takes a reference on every
 * session, and for each active one with a schedule, under the session's
 * lock: rotates it when its timer is due (rotate_next_ns) or when its
 * domains wrote rotate_size bytes since its chunk began (the statistics
 * pages, and the consumer's CHANNEL_STATS for kernel channels).  A
 * rotation that fails is logged and tried again at the next due time.
 */
#ifndef LTT_SESSIOND_CHUNK_SCHED_H
#define LTT_SESSIOND_CHUNK_SCHED_H

#include "sessiond/domain.h"
#include "sessiond/session.h"

#define LTT_CHUNK_SCHED_TICK_MS 50

struct ltt_chunk_sched;

/**
 * ltt_chunk_sched_start() - start the rotation thread
 * @reg, @set: borrowed; must outlive the thread
 *
 * Returns 0, -ENOMEM, or the thread's or event loop's -errno.
 */
int ltt_chunk_sched_start(struct ltt_session_registry *reg, const struct ltt_domains *set,
			  struct ltt_chunk_sched **ret_sched);

/**
 * ltt_chunk_sched_stop() - stop and join the thread, free it; accepts NULL.
 * Call before the sessions are destroyed.
 */
void ltt_chunk_sched_stop(struct ltt_chunk_sched *sched);

#endif /* LTT_SESSIOND_CHUNK_SCHED_H */
