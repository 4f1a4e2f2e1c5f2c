// SPDX-License-Identifier: GPL-2.0-only
/*
 * supervisor.c - a domain's consumer daemon, spawned, watched and
 * replaced (see supervisor.h).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sys/epoll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include <urcu/compiler.h>

#include "common/base/log.h"
#include "common/base/thread.h"
#include "common/proto/lttng-health.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/model/session.h"

/* Posted to the watch thread: watch the pidfd of a new consumer. */
struct ltt_supervisor_watch {
	struct ltt_supervisor_job job;
	struct ltt_supervisor *sup;
	struct ltt_consumer *consumer;
	struct ltt_supervisor_watch *next;		/* in sup->watches once watched */
};

/* Take @w off the list of live watches.  Supervisor lock held. */
static void unlist(struct ltt_supervisor *sup, struct ltt_supervisor_watch *w)
{
	struct ltt_supervisor_watch **p;

	for (p = &sup->watches; *p; p = &(*p)->next)
		if (*p == w) {
			*p = w->next;
			return;
		}
}

void ltt_supervisor_init(struct ltt_supervisor *sup, const char *what,
			 const struct ltt_consumer_config *cfg)
{
	memset(sup, 0, sizeof(*sup));
	pthread_mutex_init(&sup->lock, NULL);
	sup->what = what;
	sup->cfg = *cfg;
	sup->uid = (uid_t)-1;
	sup->gid = (gid_t)-1;
	sup->nr_groups = -1;
}

void ltt_supervisor_set_user(struct ltt_supervisor *sup, uid_t uid, gid_t gid)
{
	pthread_mutex_lock(&sup->lock);
	sup->uid = uid;
	sup->gid = gid;
	pthread_mutex_unlock(&sup->lock);
}

void ltt_supervisor_set_takeover(struct ltt_supervisor *sup, void (*fn)(void *arg), void *arg)
{
	pthread_mutex_lock(&sup->lock);
	sup->takeover = fn;
	sup->takeover_arg = arg;
	pthread_mutex_unlock(&sup->lock);
}

/*
 * Watch thread: a consumer's process exited.  Reap it, then let the
 * domain hand its traces to a new one (which ltt_supervisor_get() spawns),
 * unless it was stopped on purpose (SIGTERM): then the next command that
 * needs them does.  No lock held: the takeover takes the sessions' locks.
 */
static void on_exit_fd(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_supervisor_watch *w = arg;
	struct ltt_supervisor *sup = w->sup;
	void (*fn)(void *arg);
	void *fn_arg;
	bool stopped;

	(void)events;
	ltt_evloop_unwatch_fd(loop, fd);
	stopped = ltt_consumer_lost(w->consumer);
	pthread_mutex_lock(&sup->lock);
	unlist(sup, w);
	free(w);
	fn = sup->stopping || stopped ? NULL : sup->takeover;
	fn_arg = sup->takeover_arg;
	pthread_mutex_unlock(&sup->lock);
	if (fn)
		fn(fn_arg);
}

static void watch_job_run(struct ltt_supervisor_job *job)
{
	struct ltt_supervisor_watch *w = caa_container_of(job, struct ltt_supervisor_watch, job);
	int fd = ltt_consumer_pidfd(w->consumer);

	if (fd < 0 || ltt_evloop_watch(w->sup->loop, fd, EPOLLIN, on_exit_fd, w, NULL)) {
		LTT_WARN("the %s consumer daemon can't be watched: its death is noticed at the next command",
			 w->sup->what);
		free(w);
		return;
	}
	pthread_mutex_lock(&w->sup->lock);
	w->next = w->sup->watches;
	w->sup->watches = w;
	pthread_mutex_unlock(&w->sup->lock);
}

static void watch_job_cancel(struct ltt_supervisor_job *job)
{
	free(caa_container_of(job, struct ltt_supervisor_watch, job));
}

/* The loop's side of a posted job. */
static void job_run(struct ltt_evloop *loop, struct ltt_evloop_job *ev)
{
	struct ltt_supervisor_job *job = caa_container_of(ev, struct ltt_supervisor_job, ev);

	(void)loop;
	job->run(job);
}

static void *watch_main(void *arg)
{
	struct ltt_supervisor *sup = arg;

	ltt_evloop_run(sup->loop);
	return NULL;
}

/* Start the watch thread on first need.  Supervisor lock held. */
static int watch_start(struct ltt_supervisor *sup)
{
	int ret;

	if (sup->loop)
		return 0;
	ret = ltt_evloop_create(&sup->loop);
	if (ret)
		return ret;
	/* LTTng's consumer management thread's health slot */
	ltt_evloop_set_tag(sup->loop, LTT_LTTNG_HEALTH_CONSUMER);
	/* its signals are the main thread's */
	ret = ltt_thread_create(&sup->thread, NULL, watch_main, sup);
	if (ret) {
		ltt_evloop_destroy(sup->loop);
		sup->loop = NULL;
	}
	return ret;
}

/* Have the watch thread watch @c.  Supervisor lock held. */
static void watch(struct ltt_supervisor *sup, struct ltt_consumer *c)
{
	struct ltt_supervisor_watch *w;

	if (watch_start(sup) || !(w = calloc(1, sizeof(*w)))) {
		LTT_WARN("the %s consumer daemon can't be watched: its death is noticed at the next command",
			 sup->what);
		return;
	}
	w->job.ev.fn = job_run;
	w->job.run = watch_job_run;
	w->job.cancel = watch_job_cancel;
	w->sup = sup;
	w->consumer = c;
	ltt_evloop_post(sup->loop, &w->job.ev);
}

/* A job the stopped loop never ran: cancelled. */
static void job_cancel(struct ltt_evloop_job *ev)
{
	struct ltt_supervisor_job *job = caa_container_of(ev, struct ltt_supervisor_job, ev);

	job->cancel(job);
}

void ltt_supervisor_fini(struct ltt_supervisor *sup)
{
	pthread_mutex_lock(&sup->lock);
	sup->stopping = true;
	pthread_mutex_unlock(&sup->lock);
	if (sup->loop) {
		/* no takeover while the daemon stops: the consumers exit on purpose */
		ltt_evloop_stop(sup->loop);
		pthread_join(sup->thread, NULL);
		ltt_evloop_jobs_drop(ltt_evloop_take_jobs(sup->loop), job_cancel);
		ltt_evloop_destroy(sup->loop);
		sup->loop = NULL;
	}
	while (sup->watches) {
		struct ltt_supervisor_watch *w = sup->watches;

		sup->watches = w->next;
		free(w);
	}
	ltt_consumer_destroy(sup->consumer, 10000);
	sup->consumer = NULL;
	while (sup->nr_dead)
		ltt_consumer_destroy(sup->dead[--sup->nr_dead], 0);
	free(sup->groups);
	pthread_mutex_destroy(&sup->lock);
}

int ltt_supervisor_post(struct ltt_supervisor *sup, struct ltt_supervisor_job *job)
{
	int ret;

	pthread_mutex_lock(&sup->lock);
	if (sup->stopping) {
		pthread_mutex_unlock(&sup->lock);
		job->cancel(job);
		return 0;
	}
	ret = watch_start(sup);
	if (!ret) {
		job->ev.fn = job_run;
		ltt_evloop_post(sup->loop, &job->ev);
	}
	pthread_mutex_unlock(&sup->lock);
	return ret;
}

/* Stop watching @c (taken away: its exit is not a death).  Supervisor lock held. */
static void unwatch(struct ltt_supervisor *sup, struct ltt_consumer *c)
{
	struct ltt_supervisor_watch *w;

	for (w = sup->watches; c && w; w = w->next) {
		if (w->consumer != c)
			continue;
		ltt_evloop_unwatch_fd(sup->loop, ltt_consumer_pidfd(c));
		unlist(sup, w);
		free(w);
		break;
	}
}

struct ltt_consumer *ltt_supervisor_retire(struct ltt_supervisor *sup)
{
	struct ltt_consumer *c;

	pthread_mutex_lock(&sup->lock);
	c = sup->consumer;
	sup->consumer = NULL;
	unwatch(sup, c);
	pthread_mutex_unlock(&sup->lock);
	return c;
}

int ltt_supervisor_timer_create(struct ltt_supervisor *sup, ltt_evloop_timer_fn fn, void *arg,
				struct ltt_evloop_timer **ret_timer)
{
	return ltt_evloop_timer_create(sup->loop, fn, arg, ret_timer);
}

int ltt_supervisor_watch_fd(struct ltt_supervisor *sup, int fd, ltt_evloop_fd_fn fn, void *arg)
{
	return ltt_evloop_watch(sup->loop, fd, EPOLLIN, fn, arg, NULL);
}

/* Posted by ltt_supervisor_renew(): the consumer taken away exits. */
struct renew_job {
	struct ltt_supervisor_job job;
	struct ltt_supervisor *sup;
	struct ltt_consumer *consumer;
};

/* Waiting, within this, for a consumer that holds nothing: it exits at once. */
#define RENEW_WAIT_MS 10000

static void renew_run(struct ltt_supervisor_job *job)
{
	struct renew_job *j = caa_container_of(job, struct renew_job, job);

	pthread_mutex_lock(&j->sup->lock);
	unwatch(j->sup, j->consumer);
	pthread_mutex_unlock(&j->sup->lock);
	LTT_INFO("the %s consumer daemon's user has other groups now: it exits, a new one starts",
		 j->sup->what);
	ltt_consumer_destroy(j->consumer, RENEW_WAIT_MS);
	free(j);
}

static void renew_cancel(struct ltt_supervisor_job *job)
{
	struct renew_job *j = caa_container_of(job, struct renew_job, job);

	ltt_consumer_destroy(j->consumer, RENEW_WAIT_MS);
	free(j);
}

int ltt_supervisor_renew(struct ltt_supervisor *sup, uint64_t gen)
{
	struct renew_job *j = calloc(1, sizeof(*j));
	int ret = -ESTALE;

	if (!j)
		return -ENOMEM;
	pthread_mutex_lock(&sup->lock);
	if (sup->consumer && sup->gen == gen && !sup->stopping) {
		ret = watch_start(sup);
		if (!ret) {
			j->job.ev.fn = job_run;
			j->job.run = renew_run;
			j->job.cancel = renew_cancel;
			j->sup = sup;
			j->consumer = sup->consumer;
			sup->consumer = NULL;
			ltt_evloop_post(sup->loop, &j->job.ev);
			j = NULL;
		}
	}
	pthread_mutex_unlock(&sup->lock);
	free(j);
	return ret;
}

/*
 * Into *@ret_groups (to free), the supplementary groups a consumer of
 * @uid (primary group @gid) gets: the group database's, as ltt-consumerd
 * sets them (none for a uid without a name).  Returns how many, or -1
 * when unknown (no memory).
 */
static int user_groups(uid_t uid, gid_t gid, gid_t **ret_groups)
{
	struct passwd pw, *res = NULL;
	char buf[4096];
	gid_t *groups;
	int n = 64;

	*ret_groups = NULL;
	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res)
		return 0;
	for (;;) {
		groups = malloc((size_t)n * sizeof(*groups));
		if (!groups)
			return -1;
		if (getgrouplist(pw.pw_name, gid, groups, &n) >= 0)
			break;
		free(groups);	/* n is now how many there are */
		if (n > 65536)
			return -1;
	}
	*ret_groups = groups;
	return n;
}

bool ltt_supervisor_groups_changed(struct ltt_supervisor *sup, uint64_t *ret_gen)
{
	bool changed = false;
	gid_t *now;
	uid_t uid;
	gid_t gid;
	uint64_t gen;
	int n;

	pthread_mutex_lock(&sup->lock);
	uid = sup->uid;
	gid = sup->gid;
	gen = sup->consumer ? sup->gen : 0;
	pthread_mutex_unlock(&sup->lock);
	*ret_gen = gen;
	if (uid == (uid_t)-1 || !gen)
		return false;
	n = user_groups(uid, gid, &now);
	pthread_mutex_lock(&sup->lock);
	if (sup->gen == gen)
		changed = n != sup->nr_groups || n < 0 ||
			  (n && memcmp(now, sup->groups, (size_t)n * sizeof(*now)));
	pthread_mutex_unlock(&sup->lock);
	free(now);
	return changed;
}

void ltt_supervisor_stall(struct ltt_supervisor *sup, int after_ms,
			  struct ltt_consumer_stall *ret)
{
	pthread_mutex_lock(&sup->lock);
	if (sup->consumer)
		ltt_consumer_stall(sup->consumer, after_ms, ret);
	else
		*ret = (struct ltt_consumer_stall){ 0 };
	pthread_mutex_unlock(&sup->lock);
}

bool ltt_supervisor_stalled(struct ltt_supervisor *sup, int after_ms)
{
	bool stalled;

	pthread_mutex_lock(&sup->lock);
	stalled = sup->consumer && ltt_consumer_stalled(sup->consumer, after_ms);
	pthread_mutex_unlock(&sup->lock);
	return stalled;
}

struct ltt_consumer *ltt_supervisor_current(struct ltt_supervisor *sup, uint64_t *ret_gen)
{
	struct ltt_consumer *c;

	pthread_mutex_lock(&sup->lock);
	c = sup->consumer && ltt_consumer_alive(sup->consumer) ? sup->consumer : NULL;
	*ret_gen = c ? sup->gen : 0;
	pthread_mutex_unlock(&sup->lock);
	return c;
}

struct ltt_consumer *ltt_supervisor_get(struct ltt_supervisor *sup, uint64_t *ret_gen)
{
	struct ltt_consumer *c;
	int ret;

	pthread_mutex_lock(&sup->lock);
	if (sup->consumer && !ltt_consumer_alive(sup->consumer)) {
		LTT_ERR("the %s consumer daemon died; starting a new one to take over its traces",
			sup->what);
		/* Pointers to it may be in use: keep it until the end. */
		if (sup->nr_dead < LTT_SUPERVISOR_MAX_DEAD) {
			sup->dead[sup->nr_dead++] = sup->consumer;
			sup->consumer = NULL;
		}
	}
	if (!sup->consumer && !sup->stopping) {
		/* its HELLO keeps the caller's session: readers take this lock under it */
		if (sup->uid != (uid_t)-1) {	/* what it gets: see groups_changed */
			free(sup->groups);
			sup->nr_groups = user_groups(sup->uid, sup->gid, &sup->groups);
		}
		ltt_session_pin();
		ret = ltt_consumer_spawn(&sup->cfg, sup->uid, sup->gid, &sup->consumer);
		ltt_session_unpin();
		if (ret) {
			LTT_ERR("can't start the %s consumer daemon %s: %s", sup->what,
				ltt_consumer_path(sup->cfg.path), strerror(-ret));
		} else {
			sup->gen++;
			watch(sup, sup->consumer);
		}
	}
	c = sup->consumer;
	*ret_gen = c ? sup->gen : 0;
	pthread_mutex_unlock(&sup->lock);
	return c;
}

struct ltt_consumer *ltt_supervisor_take_over(struct ltt_supervisor *sup, uint64_t held_gen,
					      ltt_supervisor_resume_fn resume, void *arg,
					      uint64_t *ret_gen, int *ret_err)
{
	struct ltt_consumer *c;
	unsigned int attempt;
	uint64_t gen = 0;
	int ret = -EPIPE;

	for (attempt = 0; attempt < LTT_SUPERVISOR_TAKEOVER_ATTEMPTS && ret == -EPIPE; attempt++) {
		c = ltt_supervisor_get(sup, &gen);
		if (c && gen == held_gen)
			ret = 0;
		else
			ret = c ? resume(arg, c, gen) : -EPIPE;
		if (!ret) {
			*ret_gen = gen;
			return c;
		}
		if (ret == -EPIPE && attempt + 1 < LTT_SUPERVISOR_TAKEOVER_ATTEMPTS)
			LTT_WARN("the new %s consumer daemon died before it took over; trying another",
				 sup->what);
	}
	*ret_gen = 0;
	*ret_err = ret;
	return NULL;
}
