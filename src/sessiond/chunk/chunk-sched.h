/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chunk-sched.h - the rotation scheduler: rotates the sessions whose
 * schedule (enable-rotation --timer / --size) says so.
 *
 * One thread with its own event loop and one periodic tick
 * (LTT_CHUNK_SCHED_TICK_MS), which runs only while a session needs it (a
 * rotation schedule while it runs, a trigger watching its buffers or its
 * size, work owed to its consumer or posted for it): the first tick that
 * finds none stops it, and ltt_session_wake() (the registry's eventfd,
 * which the loop watches) starts it again, so a daemon whose sessions
 * need nothing sleeps.  The tick finds the sessions due: active ones with a
 * schedule whose timer is due (rotate_next_ns) or whose domains wrote
 * rotate_size bytes since their chunk began (the statistics pages, and
 * the consumer's last CHANNEL_STATS for kernel channels).  It never
 * rotates one itself: each due rotation is posted to the thread of the
 * session's owner (the user-space domain's supervisor op: the thread that
 * supervises that owner's consumer), which rotates it under the session's lock.  The
 * scheduler only tries a session's lock (one that is taken is looked at
 * again at the next tick), so an owner whose consumer is stopped or
 * stalled delays their own rotations only.  A rotation that fails is
 * logged, kept for rotation-info (list shows it), and tried again
 * LTT_CHUNK_SCHED_RETRY_MS later (the timer's period when shorter): the
 * rotations of a consumer that stalled happen once it runs again.
 *
 * The same tick finds the sessions whose stalled consumer owes them work
 * it can now take (ltt_ctrace_owed_due(): O(1) for a session that owes
 * nothing), and posts that work (ltt_ctrace_owed_settle()) to the
 * owner's thread in the same way.
 */
#ifndef LTT_SESSIOND_CHUNK_SCHED_H
#define LTT_SESSIOND_CHUNK_SCHED_H

#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"

#define LTT_CHUNK_SCHED_TICK_MS 50
#define LTT_CHUNK_SCHED_RETRY_MS 1000

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
