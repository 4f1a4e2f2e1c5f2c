// SPDX-License-Identifier: LGPL-2.1-only
/*
 * evloop.c - the one event loop (see evloop.h).
 *
 * Three fds of the loop's own sit in its epoll set beside the watched
 * ones: a timerfd programmed (absolute CLOCK_MONOTONIC) for the earliest
 * deadline of a min-heap of armed timers, and an eventfd written by
 * ltt_evloop_post() and ltt_evloop_stop().  Their epoll data point into
 * the loop; a watched fd's point to its watch.
 *
 * Removal inside callbacks: a watch removed while a batch of events is
 * being dispatched leaves the epoll set at once but is freed only after
 * the batch, marked dead meanwhile, so an event already collected for it
 * is recognised and dropped (even when its fd number was reused by a new
 * watch in between).  Timers are popped off the heap before their
 * callback runs and never referred to after it, so they are freed at
 * once.
 *
 * A paused watch (events 0) is out of the epoll set, not registered with
 * an empty mask: epoll reports EPOLLHUP and EPOLLERR whatever the mask,
 * and a paused peer that hung up would make the loop spin.
 */
#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "common/base/dlist.h"
#include "common/base/evloop.h"
#include "common/base/heartbeat.h"
#include "common/base/sock.h"
#include "common/base/testpoint.h"
#include "common/base/thread.h"
#include "common/base/log.h"

#define EVENTS_MAX 64
#define NOT_IN_HEAP SIZE_MAX

struct ltt_evloop_watch {
	struct ltt_evloop *loop;
	int fd;
	uint32_t events;		/* wanted; 0: paused, out of the epoll set */
	bool dead;			/* unwatched during a batch, freed after it */
	ltt_evloop_fd_fn fn;
	void *arg;
	struct ltt_evloop_watch *next_zombie;
};

struct ltt_evloop_timer {
	struct ltt_evloop *loop;
	ltt_evloop_timer_fn fn;
	void *arg;
	uint64_t deadline;		/* CLOCK_MONOTONIC ns, when armed */
	uint64_t period;		/* 0: once */
	uint64_t seq;			/* arming order: equal deadlines fire FIFO */
	size_t heap_idx;		/* NOT_IN_HEAP when disarmed */
	struct ltt_evloop_timer *prev, *next;	/* every timer of the loop */
};

struct ltt_evloop {
	int epfd;
	int tfd;			/* one timerfd for every timer */
	int efd;			/* posted jobs, stop */

	/* posting side: any thread */
	pthread_mutex_t lock;		/* leaf; protects head and tail */
	struct ltt_evloop_job *head, **tail;
	bool stop;			/* atomic accesses */

	/* the loop's thread */
	struct ltt_evloop_watch **by_fd;	/* indexed by fd */
	size_t nr_by_fd;
	struct ltt_evloop_watch *zombies;	/* dead, freed after the batch */
	bool dispatching;

	struct ltt_evloop_timer **heap;
	size_t heap_len, heap_cap;
	struct ltt_evloop_timer *timers;	/* all of them, armed or not */
	size_t nr_timers;
	uint64_t next_seq;
	uint64_t tfd_deadline;		/* what tfd is set to; 0: disarmed */

	bool busy;
	ltt_evloop_timer_fn busy_fn;
	void *busy_arg;

	const char *thread_name;	/* ltt_evloop_thread_start()'s */
	struct ltt_heartbeat hb;	/* ltt_evloop_set_tag()'s */
	const struct ltt_evloop_point *points;	/* ltt_evloop_set_points()'s */
	size_t nr_points;
};

uint64_t ltt_evloop_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* ---- timers: a binary min-heap on (deadline, seq) ---- */

static bool timer_before(const struct ltt_evloop_timer *a, const struct ltt_evloop_timer *b)
{
	return a->deadline < b->deadline || (a->deadline == b->deadline && a->seq < b->seq);
}

static void heap_place(struct ltt_evloop *loop, size_t i, struct ltt_evloop_timer *t)
{
	loop->heap[i] = t;
	t->heap_idx = i;
}

static void heap_up(struct ltt_evloop *loop, size_t i)
{
	struct ltt_evloop_timer *t = loop->heap[i];

	while (i > 0 && timer_before(t, loop->heap[(i - 1) / 2])) {
		heap_place(loop, i, loop->heap[(i - 1) / 2]);
		i = (i - 1) / 2;
	}
	heap_place(loop, i, t);
}

static void heap_down(struct ltt_evloop *loop, size_t i)
{
	struct ltt_evloop_timer *t = loop->heap[i];
	size_t c;

	for (;;) {
		c = 2 * i + 1;
		if (c >= loop->heap_len)
			break;
		if (c + 1 < loop->heap_len && timer_before(loop->heap[c + 1], loop->heap[c]))
			c++;
		if (!timer_before(loop->heap[c], t))
			break;
		heap_place(loop, i, loop->heap[c]);
		i = c;
	}
	heap_place(loop, i, t);
}

static void heap_remove(struct ltt_evloop *loop, struct ltt_evloop_timer *t)
{
	size_t i = t->heap_idx;
	struct ltt_evloop_timer *last;

	assert(i < loop->heap_len && loop->heap[i] == t);
	t->heap_idx = NOT_IN_HEAP;
	last = loop->heap[--loop->heap_len];
	if (last == t)
		return;
	heap_place(loop, i, last);
	heap_down(loop, i);
	heap_up(loop, last->heap_idx);
}

/* Room was reserved at timer creation, so this cannot fail. */
static void heap_insert(struct ltt_evloop *loop, struct ltt_evloop_timer *t)
{
	assert(loop->heap_len < loop->heap_cap);
	t->seq = loop->next_seq++;
	heap_place(loop, loop->heap_len++, t);
	heap_up(loop, t->heap_idx);
}

/* Program the timerfd for the earliest deadline, if it changed. */
static void sync_timerfd(struct ltt_evloop *loop)
{
	uint64_t want = loop->heap_len ? loop->heap[0]->deadline : 0;
	struct itimerspec its = { 0 };

	if (want == loop->tfd_deadline)
		return;
	if (want) {
		its.it_value.tv_sec = (time_t)(want / 1000000000ULL);
		its.it_value.tv_nsec = (long)(want % 1000000000ULL);
		if (!its.it_value.tv_sec && !its.it_value.tv_nsec)
			its.it_value.tv_nsec = 1;	/* all zero would disarm */
	}
	/* only EINVAL or EBADF, which would be our bug */
	if (timerfd_settime(loop->tfd, TFD_TIMER_ABSTIME, &its, NULL))
		abort();
	loop->tfd_deadline = want;
}

int ltt_evloop_timer_create(struct ltt_evloop *loop, ltt_evloop_timer_fn fn, void *arg,
			    struct ltt_evloop_timer **ret_timer)
{
	struct ltt_evloop_timer *t, **heap;
	size_t cap;

	if (!loop || !fn || !ret_timer)
		return -EINVAL;
	/* every timer may be armed at once: keep a heap slot for each */
	if (loop->nr_timers == loop->heap_cap) {
		cap = loop->heap_cap ? 2 * loop->heap_cap : 16;
		heap = realloc(loop->heap, cap * sizeof(*heap));
		if (!heap)
			return -ENOMEM;
		loop->heap = heap;
		loop->heap_cap = cap;
	}
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->loop = loop;
	t->fn = fn;
	t->arg = arg;
	t->heap_idx = NOT_IN_HEAP;
	LTT_DLIST_PUSH(loop->timers, t);
	loop->nr_timers++;
	*ret_timer = t;
	return 0;
}

void ltt_evloop_timer_arm_at(struct ltt_evloop_timer *t, uint64_t at_ns)
{
	struct ltt_evloop *loop = t->loop;

	if (t->heap_idx != NOT_IN_HEAP)
		heap_remove(loop, t);
	t->deadline = at_ns;
	t->period = 0;
	heap_insert(loop, t);
}

void ltt_evloop_timer_arm(struct ltt_evloop_timer *t, uint64_t delay_ns, uint64_t period_ns)
{
	ltt_evloop_timer_arm_at(t, ltt_evloop_now_ns() + delay_ns);
	t->period = period_ns;
}

void ltt_evloop_timer_disarm(struct ltt_evloop_timer *t)
{
	if (t->heap_idx != NOT_IN_HEAP)
		heap_remove(t->loop, t);
}

bool ltt_evloop_timer_armed(const struct ltt_evloop_timer *t)
{
	return t->heap_idx != NOT_IN_HEAP;
}

void ltt_evloop_timer_destroy(struct ltt_evloop_timer *t)
{
	struct ltt_evloop *loop;

	if (!t)
		return;
	loop = t->loop;
	ltt_evloop_timer_disarm(t);
	LTT_DLIST_UNLINK(loop->timers, t);
	loop->nr_timers--;
	free(t);
}

/*
 * The timerfd fired: run every timer due now, earliest first.  Timers
 * armed during this pass (seq past @limit) wait for the next one, so a
 * callback re-arming itself with no delay cannot hold the loop.
 * Returns false if a callback stopped the loop.
 */
static bool run_timers(struct ltt_evloop *loop)
{
	uint64_t n, now, limit = loop->next_seq, late;
	struct ltt_evloop_timer *t;

	if (read(loop->tfd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		abort();	/* EBADF, EFAULT, EINVAL: our bug */
	loop->tfd_deadline = 0;		/* expired: no longer armed */
	now = ltt_evloop_now_ns();
	while (loop->heap_len) {
		t = loop->heap[0];
		if (t->deadline > now || t->seq >= limit)
			break;
		heap_remove(loop, t);
		if (t->period) {
			/* keep the phase; a timer that fell behind fires once */
			late = now - t->deadline;
			t->deadline += t->period * (late / t->period + 1);
			heap_insert(loop, t);
		}
		t->fn(loop, t->arg);	/* may free t */
		if (__atomic_load_n(&loop->stop, __ATOMIC_ACQUIRE))
			return false;
	}
	return true;
}

/* ---- watches ---- */

static int epoll_op(struct ltt_evloop *loop, int op, int fd, uint32_t events, void *ptr)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(loop->epfd, op, fd, &ev) ? -errno : 0;
}

static int grow_by_fd(struct ltt_evloop *loop, int fd)
{
	struct ltt_evloop_watch **by_fd;
	size_t n = loop->nr_by_fd ? loop->nr_by_fd : 64;

	while (n <= (size_t)fd)
		n *= 2;
	by_fd = realloc(loop->by_fd, n * sizeof(*by_fd));
	if (!by_fd)
		return -ENOMEM;
	memset(by_fd + loop->nr_by_fd, 0, (n - loop->nr_by_fd) * sizeof(*by_fd));
	loop->by_fd = by_fd;
	loop->nr_by_fd = n;
	return 0;
}

int ltt_evloop_watch(struct ltt_evloop *loop, int fd, uint32_t events, ltt_evloop_fd_fn fn,
		     void *arg, struct ltt_evloop_watch **ret_watch)
{
	struct ltt_evloop_watch *w;
	int ret;

	if (!loop || fd < 0 || !fn)
		return -EINVAL;
	if ((size_t)fd >= loop->nr_by_fd) {
		ret = grow_by_fd(loop, fd);
		if (ret)
			return ret;
	}
	if (loop->by_fd[fd])
		return -EEXIST;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->loop = loop;
	w->fd = fd;
	w->events = events;
	w->fn = fn;
	w->arg = arg;
	if (events) {
		ret = epoll_op(loop, EPOLL_CTL_ADD, fd, events, w);
		if (ret) {
			free(w);
			return ret;
		}
	}
	loop->by_fd[fd] = w;
	if (ret_watch)
		*ret_watch = w;
	return 0;
}

int ltt_evloop_watch_set(struct ltt_evloop_watch *w, uint32_t events)
{
	int ret = 0;

	if (!w || w->dead)
		return -EINVAL;
	/* a one-shot watch that fired is disabled: always re-arm it */
	if (events == w->events && !(events & EPOLLONESHOT))
		return 0;
	if (!events)
		ret = epoll_op(w->loop, EPOLL_CTL_DEL, w->fd, 0, NULL);
	else
		ret = epoll_op(w->loop, w->events ? EPOLL_CTL_MOD : EPOLL_CTL_ADD, w->fd, events,
			       w);
	if (!ret)
		w->events = events;
	return ret;
}

void ltt_evloop_unwatch(struct ltt_evloop_watch *w)
{
	struct ltt_evloop *loop;

	if (!w || w->dead)
		return;
	loop = w->loop;
	if (w->events)
		epoll_op(loop, EPOLL_CTL_DEL, w->fd, 0, NULL);
	loop->by_fd[w->fd] = NULL;
	if (!loop->dispatching) {
		free(w);
		return;
	}
	w->dead = true;
	w->next_zombie = loop->zombies;
	loop->zombies = w;
}

int ltt_evloop_unwatch_fd(struct ltt_evloop *loop, int fd)
{
	if (!loop || fd < 0 || (size_t)fd >= loop->nr_by_fd || !loop->by_fd[fd])
		return -ENOENT;
	ltt_evloop_unwatch(loop->by_fd[fd]);
	return 0;
}

static void free_zombies(struct ltt_evloop *loop)
{
	struct ltt_evloop_watch *w;

	while ((w = loop->zombies)) {
		loop->zombies = w->next_zombie;
		free(w);
	}
}

/* ---- posted jobs and stop ---- */

static void kick(struct ltt_evloop *loop)
{
	uint64_t one = 1;
	ssize_t n;

	/* cannot fail below the eventfd's maximum count: the loop reads it */
	n = write(loop->efd, &one, sizeof(one));
	(void)n;
}

void ltt_evloop_post(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	bool was_empty;

	job->next = NULL;
	pthread_mutex_lock(&loop->lock);
	was_empty = !loop->head;
	*loop->tail = job;
	loop->tail = &job->next;
	pthread_mutex_unlock(&loop->lock);
	/* the loop takes the whole queue after reading the eventfd */
	if (was_empty)
		kick(loop);
}

/* ltt_evloop_call()'s job: the caller's reference and the loop's. */
struct call_job {
	struct ltt_evloop_job job;	/* first */
	void (*fn)(void *arg);
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int ret;			/* 1 while pending, then 0 (ran) or -ECANCELED */
	int refs;			/* under lock */
};

/* @c ends with @ret (when still pending) and loses a reference. */
static void call_put(struct call_job *c, int ret)
{
	int refs;

	pthread_mutex_lock(&c->lock);
	if (c->ret == 1 && ret != 1) {
		c->ret = ret;
		pthread_cond_signal(&c->cond);
	}
	refs = --c->refs;
	pthread_mutex_unlock(&c->lock);
	if (refs)
		return;
	pthread_cond_destroy(&c->cond);
	pthread_mutex_destroy(&c->lock);
	free(c);
}

static void on_call_job(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct call_job *c = (struct call_job *)job;

	(void)loop;
	c->fn(c->arg);
	call_put(c, 0);
}

int ltt_evloop_call(struct ltt_evloop *loop, void (*fn)(void *arg), void *arg,
		    unsigned int timeout_ms)
{
	struct call_job *c = calloc(1, sizeof(*c));
	pthread_condattr_t ca;
	struct timespec until;
	int ret;

	if (!c)
		return -ENOMEM;
	c->job.fn = on_call_job;
	c->fn = fn;
	c->arg = arg;
	c->ret = 1;
	c->refs = 2;
	pthread_mutex_init(&c->lock, NULL);
	/* the bound is time passed: a step of the wall clock moves it not */
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&c->cond, &ca);
	pthread_condattr_destroy(&ca);
	ltt_deadline_in(CLOCK_MONOTONIC, (uint64_t)timeout_ms * 1000000ULL, &until);
	ltt_evloop_post(loop, &c->job);
	pthread_mutex_lock(&c->lock);
	while (c->ret == 1 && pthread_cond_timedwait(&c->cond, &c->lock, &until) != ETIMEDOUT)
		;
	ret = c->ret == 1 ? -ETIMEDOUT : c->ret;
	pthread_mutex_unlock(&c->lock);
	call_put(c, 1);		/* the loop's reference may outlive ours: the job runs late */
	return ret;
}

/* ltt_evloop_call()'s jobs of the list @jobs, the loop's own: cancelled and unlinked. */
static struct ltt_evloop_job *cancel_calls(struct ltt_evloop_job *jobs)
{
	struct ltt_evloop_job **pp, *j;

	for (pp = &jobs; (j = *pp);) {
		if (j->fn == on_call_job) {
			*pp = j->next;
			call_put((struct call_job *)j, -ECANCELED);
		} else {
			pp = &j->next;
		}
	}
	return jobs;
}

/* The jobs queued, all of them, oldest first. */
static struct ltt_evloop_job *take_all(struct ltt_evloop *loop)
{
	struct ltt_evloop_job *jobs;

	pthread_mutex_lock(&loop->lock);
	jobs = loop->head;
	loop->head = NULL;
	loop->tail = &loop->head;
	pthread_mutex_unlock(&loop->lock);
	return jobs;
}

struct ltt_evloop_job *ltt_evloop_take_jobs(struct ltt_evloop *loop)
{
	return cancel_calls(take_all(loop));
}

void ltt_evloop_jobs_drop(struct ltt_evloop_job *jobs, void (*drop)(struct ltt_evloop_job *job))
{
	struct ltt_evloop_job *next;

	for (; jobs; jobs = next) {
		next = jobs->next;	/* drop may free it */
		drop(jobs);
	}
}

/* Give jobs back to the front of the queue, for the next run. */
static void requeue_jobs(struct ltt_evloop *loop, struct ltt_evloop_job *jobs)
{
	struct ltt_evloop_job *last = jobs;

	while (last->next)
		last = last->next;
	pthread_mutex_lock(&loop->lock);
	last->next = loop->head;
	if (!loop->head)
		loop->tail = &last->next;
	loop->head = jobs;
	pthread_mutex_unlock(&loop->lock);
	kick(loop);
}

/* The eventfd fired: run the jobs posted so far.  False if stopped. */
static bool run_jobs(struct ltt_evloop *loop)
{
	struct ltt_evloop_job *job, *next;
	uint64_t n;

	if (read(loop->efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		abort();	/* EBADF, EFAULT, EINVAL: our bug */
	for (job = take_all(loop); job; job = next) {
		next = job->next;	/* fn may free job */
		job->fn(loop, job);
		if (__atomic_load_n(&loop->stop, __ATOMIC_ACQUIRE)) {
			if (next)
				requeue_jobs(loop, next);
			return false;
		}
	}
	return true;
}

void ltt_evloop_stop(struct ltt_evloop *loop)
{
	__atomic_store_n(&loop->stop, true, __ATOMIC_RELEASE);
	kick(loop);
}

void ltt_evloop_set_busy(struct ltt_evloop *loop, bool busy, ltt_evloop_timer_fn fn, void *arg)
{
	loop->busy = busy && fn;
	loop->busy_fn = fn;
	loop->busy_arg = arg;
}

/* ---- the loop ---- */

/* Dispatch one batch; false once a callback stopped the loop. */
static bool dispatch(struct ltt_evloop *loop, const struct epoll_event *evs, int n)
{
	struct ltt_evloop_watch *w;
	uint32_t events;
	bool go = true;
	int i;

	loop->dispatching = true;
	for (i = 0; i < n && go; i++) {
		if (evs[i].data.ptr == &loop->tfd) {
			go = run_timers(loop);
			continue;
		}
		if (evs[i].data.ptr == &loop->efd) {
			go = run_jobs(loop);
			continue;
		}
		w = evs[i].data.ptr;
		if (w->dead || !w->events)
			continue;	/* removed or paused earlier in this batch */
		events = evs[i].events & (w->events | EPOLLERR | EPOLLHUP);
		if (!events)
			continue;
		w->fn(loop, w->fd, events, w->arg);
		go = !__atomic_load_n(&loop->stop, __ATOMIC_ACQUIRE);
	}
	loop->dispatching = false;
	free_zombies(loop);
	return go;
}

void ltt_evloop_set_tag(struct ltt_evloop *loop, uint64_t tag)
{
	loop->hb.tag = tag;
}

void ltt_evloop_set_points(struct ltt_evloop *loop, const struct ltt_evloop_point *points,
			   size_t n)
{
	loop->points = points;
	loop->nr_points = n;
}

int ltt_evloop_run_points(struct ltt_evloop *loop, const struct ltt_evloop_point *points,
			  size_t n)
{
	const struct ltt_evloop_point *p;
	int ret;

	if (!__builtin_expect(ltt_testpoints_on, 0))
		return 0;
	for (p = points; p < points + n; p++) {
		ltt_heartbeat_point(&loop->hb, p->slots);
		ret = ltt_testpoint_run(p->tp);
		ltt_heartbeat_point(&loop->hb, 0);
		if (ret) {
			LTT_ERR("test point %s returned %d: this thread's loop ends in error",
				p->tp->symbol + strlen("__testpoint_"), ret);
			ltt_heartbeat_fail(p->slots);
			return -ECANCELED;
		}
	}
	return 0;
}

int ltt_evloop_run(struct ltt_evloop *loop)
{
	struct epoll_event evs[EVENTS_MAX];
	int n, ret = 0;

	ltt_heartbeat_join(&loop->hb, ltt_evloop_now_ns());
	if (__builtin_expect(ltt_testpoints_on, 0) && loop->nr_points)
		ret = ltt_evloop_run_points(loop, loop->points, loop->nr_points);
	while (!ret && !__atomic_load_n(&loop->stop, __ATOMIC_ACQUIRE)) {
		sync_timerfd(loop);
		/* waiting with no end: no progress is due (a timer wakes it) */
		ltt_heartbeat_wait(&loop->hb, !loop->busy);
		n = epoll_wait(loop->epfd, evs, EVENTS_MAX, loop->busy ? 0 : -1);
		if (loop->hb.tag)
			ltt_heartbeat_wake(&loop->hb, ltt_evloop_now_ns());
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (!dispatch(loop, evs, n))
			break;
		if (loop->busy)
			loop->busy_fn(loop, loop->busy_arg);
	}
	ltt_heartbeat_leave(&loop->hb);
	__atomic_store_n(&loop->stop, false, __ATOMIC_RELEASE);
	return ret;
}

/* How long a listener out of file descriptors stops accepting. */
#define ACCEPT_PAUSE_MS 100

/* The pause is over: accept again. */
static void on_accept_pause(struct ltt_evloop *loop, void *arg)
{
	struct ltt_evloop_listener *l = arg;

	(void)loop;
	ltt_evloop_watch_set(l->watch, EPOLLIN);
}

static void on_listen(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_evloop_listener *l = arg;
	int conn;

	(void)events;
	conn = accept4(fd, NULL, NULL, l->flags);
	if (conn >= 0) {
		l->fn(loop, conn, l->arg);
		return;
	}
	if (errno != EMFILE && errno != ENFILE && errno != ENOBUFS && errno != ENOMEM)
		return;
	LTT_WARN_RL("out of file descriptors: not accepting %s for %d ms", l->what,
		    ACCEPT_PAUSE_MS);
	ltt_evloop_watch_set(l->watch, 0);
	ltt_evloop_timer_arm(l->pause, (uint64_t)ACCEPT_PAUSE_MS * 1000000, 0);
}

int ltt_evloop_listen(struct ltt_evloop *loop, struct ltt_evloop_listener *l, int fd, int flags,
		      const char *what, ltt_evloop_accept_fn fn, void *arg)
{
	int ret;

	*l = (struct ltt_evloop_listener){ .flags = flags, .what = what, .fn = fn, .arg = arg };
	ret = ltt_evloop_timer_create(loop, on_accept_pause, l, &l->pause);
	if (!ret)
		ret = ltt_evloop_watch(loop, fd, EPOLLIN, on_listen, l, &l->watch);
	return ret;
}

static void *loop_thread(void *arg)
{
	struct ltt_evloop *loop = arg;
	int ret;

	ret = ltt_evloop_run(loop);
	if (ret && ret != -ECANCELED)	/* a failed test point said so */
		LTT_ERR("%s: epoll_wait: %s", loop->thread_name, strerror(-ret));
	return NULL;
}

int ltt_evloop_thread_start(struct ltt_evloop *loop, const char *name, pthread_t *ret_tid)
{
	loop->thread_name = name;
	return -pthread_create(ret_tid, NULL, loop_thread, loop);
}

int ltt_evloop_server_init(struct ltt_evloop_server *s, int fd, int flags, const char *what,
			   ltt_evloop_accept_fn fn, void *arg)
{
	int ret;

	*s = (struct ltt_evloop_server){ .fd = fd };
	ret = ltt_evloop_create(&s->loop);
	if (!ret)
		ret = ltt_evloop_listen(s->loop, &s->listener, fd, flags, what, fn, arg);
	return ret;
}

int ltt_evloop_server_start(struct ltt_evloop_server *s, const char *name)
{
	int ret = ltt_evloop_thread_start(s->loop, name, &s->tid);

	s->started = !ret;
	return ret;
}

int ltt_evloop_server_open(struct ltt_evloop_server *s, int fd, int flags, const char *what,
			   ltt_evloop_accept_fn fn, void *arg,
			   int (*prepare)(struct ltt_evloop *loop, void *arg), const char *name)
{
	int ret = ltt_evloop_server_init(s, fd, flags, what, fn, arg);

	if (!ret && prepare)
		ret = prepare(s->loop, arg);
	if (!ret)
		ret = ltt_evloop_server_start(s, name);
	if (ret)
		ltt_evloop_server_fini(s);
	return ret;
}

void *ltt_evloop_server_adopt(void *owner, struct ltt_evloop_server *s, int fd, int flags,
			      const char *what, ltt_evloop_accept_fn fn,
			      int (*prepare)(struct ltt_evloop *loop, void *arg), const char *name,
			      int *ret)
{
	if (!owner) {
		close(fd);
		*ret = -ENOMEM;
		return NULL;
	}
	*ret = ltt_evloop_server_open(s, fd, flags, what, fn, owner, prepare, name);
	if (!*ret)
		return owner;
	free(owner);
	return NULL;
}

void ltt_evloop_server_stop(struct ltt_evloop_server *s)
{
	if (!s->started)
		return;
	ltt_evloop_stop(s->loop);
	pthread_join(s->tid, NULL);
	s->started = false;
}

void ltt_evloop_server_fini(struct ltt_evloop_server *s)
{
	assert(!s->started);
	ltt_evloop_destroy(s->loop);
	s->loop = NULL;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
}

int ltt_evloop_create(struct ltt_evloop **ret_loop)
{
	struct ltt_evloop *loop;
	int ret = 0;

	if (!ret_loop)
		return -EINVAL;
	loop = calloc(1, sizeof(*loop));
	if (!loop)
		return -ENOMEM;
	loop->tail = &loop->head;
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	loop->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	loop->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (loop->epfd < 0 || loop->tfd < 0 || loop->efd < 0)
		ret = -errno;
	if (!ret)
		ret = epoll_op(loop, EPOLL_CTL_ADD, loop->tfd, EPOLLIN, &loop->tfd);
	if (!ret)
		ret = epoll_op(loop, EPOLL_CTL_ADD, loop->efd, EPOLLIN, &loop->efd);
	if (!ret)
		ret = -pthread_mutex_init(&loop->lock, NULL);
	if (ret) {
		ltt_fd_close(&loop->epfd);
		ltt_fd_close(&loop->tfd);
		ltt_fd_close(&loop->efd);
		free(loop);
		return ret;
	}
	*ret_loop = loop;
	return 0;
}

void ltt_evloop_destroy(struct ltt_evloop *loop)
{
	size_t i;

	if (!loop)
		return;
	assert(!loop->dispatching);
	(void)cancel_calls(loop->head);	/* the others are their owners' (ltt_evloop_take_jobs()) */
	for (i = 0; i < loop->nr_by_fd; i++)
		free(loop->by_fd[i]);
	free(loop->by_fd);
	free_zombies(loop);
	while (loop->timers)
		ltt_evloop_timer_destroy(loop->timers);
	free(loop->heap);
	pthread_mutex_destroy(&loop->lock);
	close(loop->efd);
	close(loop->tfd);
	close(loop->epfd);
	free(loop);
}
