// SPDX-License-Identifier: GPL-2.0-only
/*
 * chunk-sched.c - the rotation thread (see chunk-sched.h).
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <time.h>
#include <unistd.h>

#include <urcu/compiler.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/base/thread.h"
#include "common/proto/lttng-health.h"
#include "sessiond/chunk/chunk-sched.h"
#include "sessiond/model/trigger.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/ctrace/ctrace.h"
#include "sessiond/consumer/supervisor.h"

struct ltt_chunk_sched {
	struct ltt_session_registry *reg;
	const struct ltt_domains *set;
	struct ltt_evloop *loop;
	struct ltt_evloop_timer *tick;
	struct ltt_evloop_watch *wake;	/* the registry's wake_fd */
	pthread_t thread;
};

static void arm_tick(struct ltt_chunk_sched *cs)
{
	ltt_evloop_timer_arm(cs->tick, LTT_CHUNK_SCHED_TICK_MS * 1000000ULL,
			     LTT_CHUNK_SCHED_TICK_MS * 1000000ULL);
}

/* ltt_session_wake(): a session may need the tick; it runs again if it had stopped. */
static void on_wake(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_chunk_sched *cs = arg;
	uint64_t v;

	(void)loop;
	(void)events;
	while (read(fd, &v, sizeof(v)) > 0)
		;
	if (!ltt_evloop_timer_armed(cs->tick))
		arm_tick(cs);
}

/* Is @session due for a scheduled rotation?  Session lock held. */
static bool due(const struct ltt_domains *set, struct ltt_session *session)
{
	uint64_t written, now = ltt_evloop_now_ns();

	if (session->destroyed || !session->active || !session->chunk_begin ||
	    (!session->rotate_timer_us && !session->rotate_size) || now < session->rotate_retry_ns)
		return false;
	if (session->rotate_timer_us && now >= session->rotate_next_ns)
		return true;
	if (!session->rotate_size)
		return false;
	written = ltt_chunk_written(set, session);
	return written > session->rotate_written &&
	       written - session->rotate_written >= session->rotate_size;
}

/*
 * Rotate @session if it is still due (it may have stopped, or been
 * rotated by hand, since it was found due).  A failure is kept for
 * rotation-info (list) and tried again LTT_CHUNK_SCHED_RETRY_MS later (or
 * the timer's period, when shorter).  Session lock held.
 */
static void rotate_due(const struct ltt_domains *set, struct ltt_session *session)
{
	char archive[LTT_PATH_MAX];
	enum ltt_error_code code;
	uint64_t retry_ns = LTT_CHUNK_SCHED_RETRY_MS * 1000000ULL;

	if (!due(set, session))
		return;
	code = ltt_chunk_rotate(set, session, archive);
	if (!code)
		return;	/* ltt_chunk_rotate() cleared any earlier failure */
	LTT_ERR_RL("session '%s': scheduled rotation failed: %s", session->name,
		   ltt_strerror(code));
	if (!session->rotate_err)
		session->rotate_err_since = (int64_t)time(NULL);
	session->rotate_err = code;
	if (session->rotate_timer_us && session->rotate_timer_us * 1000 < retry_ns)
		retry_ns = session->rotate_timer_us * 1000;
	session->rotate_retry_ns = ltt_evloop_now_ns() + retry_ns;
}

/*
 * Work on one session, run on its owner's thread: a due rotation, or what
 * a consumer that ran again can take (settle).
 */
struct session_job {
	struct ltt_supervisor_job sj;
	struct ltt_session_registry *reg;
	const struct ltt_domains *set;
	struct ltt_session *session;	/* a reference */
	bool settle;			/* else a rotation */
};

static void session_job_run(struct ltt_supervisor_job *sj)
{
	struct session_job *j = caa_container_of(sj, struct session_job, sj);
	struct ltt_session *session = j->session;

	ltt_session_lock(session);
	if (!j->settle) {
		session->rotate_posted = false;
		rotate_due(j->set, session);
	} else {
		session->settle_posted = false;
		if (!session->destroyed)
			ltt_ctrace_owed_settle(session, NULL);
	}
	ltt_session_unlock(session);
	ltt_session_put(j->reg, session);
	free(j);
}

static void session_job_cancel(struct ltt_supervisor_job *sj)
{
	struct session_job *j = caa_container_of(sj, struct session_job, sj);

	ltt_session_put(j->reg, j->session);
	free(j);
}

/*
 * Hand @session's due rotation (or, @settle, its settle) to its owner's
 * thread, which takes the reference @session is given with.  Session lock
 * held.  Returns 0 or -errno (nothing taken: a rotation is then run here
 * by the caller).  The scheduler stops before the domains (main.c), so
 * the job is never cancelled here, under the lock.
 */
static int post_job(struct ltt_chunk_sched *cs, struct ltt_session *session, bool settle)
{
	struct ltt_domain_impl *d = cs->set->v[LTT_DOMAIN_IDX_USER];
	struct ltt_supervisor *owner = d && d->ops->supervisor ? d->ops->supervisor(d, session) : NULL;
	bool *posted = settle ? &session->settle_posted : &session->rotate_posted;
	struct session_job *j;
	int ret;

	if (!owner)
		return d ? -ENOMEM : -EOPNOTSUPP;
	j = calloc(1, sizeof(*j));
	if (!j)
		return -ENOMEM;
	j->sj.run = session_job_run;
	j->sj.cancel = session_job_cancel;
	j->reg = cs->reg;
	j->set = cs->set;
	j->session = session;
	j->settle = settle;
	*posted = true;
	ret = ltt_supervisor_post(owner, &j->sj);
	if (ret) {
		*posted = false;
		free(j);
	}
	return ret;
}

/* @capacity's share of @ppm millionths, rounded down. */
static uint64_t share(uint64_t capacity, uint32_t ppm)
{
	return (uint64_t)((unsigned __int128)capacity * ppm / LTT_TRIGGER_PPM);
}

/* A channel-buffer-usage trigger @t on @session: a look at its channel's streams. */
static void usage(const struct ltt_domains *set, struct ltt_session *session,
		  struct ltt_trigger *t)
{
	bool ge = t->conf.cond == LTT_CONDITION_BUFFER_USAGE_GE;
	int i = ltt_domain_index((enum ltt_domain)t->conf.domain);
	struct ltt_domain_impl *d = i < 0 ? NULL : set->v[i];
	struct ltt_domain_usage u;
	struct ltt_channel *chan;
	uint64_t threshold;

	if (!d || !d->ops->channel_usage)
		return;
	/* a channel made after the trigger is watched from then on */
	chan = ltt_session_find_channel(&session->domains[i], t->conf.channel);
	if (!chan || d->ops->channel_usage(d, session, chan, &u))
		return;
	threshold = t->conf.threshold_size ? t->conf.threshold_size :
					     share(u.capacity, t->conf.threshold_ppm);
	/* both look at the fullest stream, as LTTng's: le holds once every stream is at most */
	ltt_triggers_level(set->triggers, t, session,
			   ge ? u.highest >= threshold : u.highest <= threshold, u.highest, u.capacity);
}

/*
 * The level conditions on @session, looked at each tick:
 * session-consumed-size-ge (the bytes its consumers wrote, as the
 * rotation schedule reads them) while it is active, and
 * channel-buffer-usage-ge/-le while it is active or stopped (a stopped
 * session's buffers still drain, and LTTng's consumer samples them until
 * the channel goes: its low notification comes after the stop).  Session
 * lock held, or its state lock alone (reads only: its gate's holder waits
 * on a consumer).
 */
static void levels(const struct ltt_domains *set, struct ltt_session *session)
{
	static const uint32_t usage_conds[] = {
		LTT_CONDITION_BUFFER_USAGE_GE, LTT_CONDITION_BUFFER_USAGE_LE,
	};
	struct ltt_trigger **v;
	size_t c, i, n;

	if (session->destroyed)
		return;
	if (session->active &&
	    ltt_triggers_watch(set->triggers, session, LTT_CONDITION_SESSION_CONSUMED_SIZE_GE))
		ltt_triggers_consumed(set->triggers, session, ltt_chunk_written(set, session));
	for (c = 0; c < sizeof(usage_conds) / sizeof(usage_conds[0]); c++) {
		if (!ltt_triggers_watch(set->triggers, session, usage_conds[c]))
			continue;
		n = ltt_triggers_select(set->triggers, usage_conds[c], 0, &v);
		for (i = 0; i < n; i++)
			if (ltt_trigger_on_session(v[i], session, usage_conds[c]))
				usage(set, session, v[i]);
		ltt_triggers_put_all(set->triggers, v, n);
	}
}

/*
 * Does @session need the tick: work it owes its consumer or that is
 * posted for it, a rotation schedule while it runs, a trigger watching
 * its buffers or its size?  Its lock held.  Each of these begins with an
 * ltt_session_wake() (made, started, enable-rotation, a trigger added,
 * work owed: ltt_ctrace_owed_sync()).
 */
static bool needs_tick(const struct ltt_domains *set, struct ltt_session *session)
{
	static const uint32_t conds[] = {
		LTT_CONDITION_BUFFER_USAGE_GE, LTT_CONDITION_BUFFER_USAGE_LE,
		LTT_CONDITION_SESSION_CONSUMED_SIZE_GE,
	};
	size_t c;

	if (!cds_list_empty(&session->ctrace_owed) || session->rotate_posted ||
	    session->settle_posted ||
	    (session->active && (session->rotate_timer_us || session->rotate_size)))
		return true;
	for (c = 0; c < sizeof(conds) / sizeof(conds[0]); c++)
		if (ltt_triggers_watch(set->triggers, session, conds[c]))
			return true;
	return false;
}

/*
 * Every tick: each session found due is posted to its owner's thread.  A
 * session whose lock is taken (its owner's thread rotating it, or waiting
 * for its consumer) is looked at again at the next tick, but for its
 * levels, which are looked at whenever its state lock is free: this
 * thread never waits for a session, so no owner's consumer delays the
 * others'.
 */
static void on_tick(struct ltt_evloop *loop, void *arg)
{
	struct ltt_chunk_sched *cs = arg;
	struct ltt_session **sessions;
	bool posted, needed = false;
	size_t i, n;

	(void)loop;
	if (ltt_session_snapshot_list(cs->reg, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		posted = false;
		if (ltt_session_trylock(sessions[i])) {
			levels(cs->set, sessions[i]);
			if (!sessions[i]->rotate_posted && due(cs->set, sessions[i])) {
				posted = !post_job(cs, sessions[i], false);
				if (!posted)
					rotate_due(cs->set, sessions[i]);
			} else if (!sessions[i]->settle_posted && !sessions[i]->destroyed &&
				   ltt_ctrace_owed_due(sessions[i])) {
				posted = !post_job(cs, sessions[i], true);
			}
			needed = needed || posted || needs_tick(cs->set, sessions[i]);
			ltt_session_unlock(sessions[i]);
		} else if (ltt_session_trylock_state(sessions[i])) {
			/*
			 * A change waits on a consumer with the state lock given
			 * back (a program's trace handed to a stalled one): the
			 * buffers its programs fill meanwhile are looked at all
			 * the same, read from shared memory.
			 */
			levels(cs->set, sessions[i]);
			ltt_session_unlock_state(sessions[i]);
			needed = true;	/* looked at again at the next tick */
		} else {
			needed = true;
		}
		if (!posted)
			ltt_session_put(cs->reg, sessions[i]);
	}
	free(sessions);
	/* nothing to rotate, settle or watch until a session needs it: ltt_session_wake() */
	if (!needed && cs->wake)
		ltt_evloop_timer_disarm(cs->tick);
}

static void *run(void *arg)
{
	struct ltt_chunk_sched *cs = arg;

	ltt_evloop_run(cs->loop);
	return NULL;
}

int ltt_chunk_sched_start(struct ltt_session_registry *reg, const struct ltt_domains *set,
			  struct ltt_chunk_sched **ret_sched)
{
	struct ltt_chunk_sched *cs = calloc(1, sizeof(*cs));
	int ret;

	if (!cs)
		return -ENOMEM;
	cs->reg = reg;
	cs->set = set;
	ret = ltt_evloop_create(&cs->loop);
	/* LTTng's rotation and timer threads' health slots (rotation schedules) */
	if (!ret)
		ltt_evloop_set_tag(cs->loop, LTT_LTTNG_HEALTH_ROTATION | LTT_LTTNG_HEALTH_TIMER);
	if (!ret)
		ret = ltt_evloop_timer_create(cs->loop, on_tick, cs, &cs->tick);
	if (ret)
		goto fail;
	/* no wake-up to watch (no eventfd): the tick never stops */
	if (!ret && reg->wake_fd >= 0)
		ret = ltt_evloop_watch(cs->loop, reg->wake_fd, EPOLLIN, on_wake, cs, &cs->wake);
	if (ret)
		goto fail;
	arm_tick(cs);
	/* signals go to the main thread's signalfd */
	ret = ltt_thread_create(&cs->thread, NULL, run, cs);
	if (ret)
		goto fail;
	*ret_sched = cs;
	return 0;
fail:
	ltt_evloop_timer_destroy(cs->tick);
	ltt_evloop_destroy(cs->loop);
	free(cs);
	return ret;
}

void ltt_chunk_sched_stop(struct ltt_chunk_sched *cs)
{
	if (!cs)
		return;
	ltt_evloop_stop(cs->loop);
	pthread_join(cs->thread, NULL);
	ltt_evloop_timer_destroy(cs->tick);
	ltt_evloop_destroy(cs->loop);
	free(cs);
}
