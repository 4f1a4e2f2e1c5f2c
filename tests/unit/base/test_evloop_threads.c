// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_evloop_threads.c - unit tests of common/base/evloop.c across
 * threads: jobs posted from other threads, in order and not lost, jobs
 * and a stop, a stop from another thread, a loop's own thread, and
 * ltt_evloop_call() (run on the loop's thread and wait, cancelled, by
 * the wall clock).  The one-thread tests are test_evloop.c.
 *
 * Nothing sleeps: threads meet on eventfds and pipes, and every loop has
 * a guard deadline that stops it and fails the test if it runs too long
 * (tests/unit/evloop-harness.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "tests/unit/evloop-harness.h"
#include "tests/unit/tap.h"

/* ---- posted jobs ---- */

#define POSTERS 4
#define JOBS_EACH 20000

struct pjob {
	struct ltt_evloop_job job;
	unsigned int thread, seq;
};

struct post_ctx {
	struct ltt_evloop *loop;
	unsigned int next_seq[POSTERS];
	unsigned int out_of_order;
	unsigned int done;
	struct pjob *jobs;
};

static struct post_ctx pc;

static void on_pjob(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct pjob *j = (struct pjob *)job;

	if (j->seq != pc.next_seq[j->thread])
		pc.out_of_order++;
	pc.next_seq[j->thread] = j->seq + 1;
	if (++pc.done == POSTERS * JOBS_EACH)
		ltt_evloop_stop(loop);
}

static void *poster(void *arg)
{
	unsigned int th = (unsigned int)(uintptr_t)arg, i;

	for (i = 0; i < JOBS_EACH; i++) {
		struct pjob *j = &pc.jobs[th * JOBS_EACH + i];

		j->job.fn = on_pjob;
		j->thread = th;
		j->seq = i;
		ltt_evloop_post(pc.loop, &j->job);
	}
	return NULL;
}

static void test_post_threads(void)
{
	pthread_t th[POSTERS];
	unsigned int i;

	pc.loop = evl_new_loop();
	pc.jobs = calloc(POSTERS * JOBS_EACH, sizeof(*pc.jobs));
	if (!pc.jobs)
		evl_die("calloc");
	for (i = 0; i < POSTERS; i++)
		if (pthread_create(&th[i], NULL, poster, (void *)(uintptr_t)i))
			evl_die("pthread_create");
	evl_guard(pc.loop);
	ltt_evloop_run(pc.loop);
	for (i = 0; i < POSTERS; i++)
		pthread_join(th[i], NULL);
	tap_ok(!evl_guard_fired && pc.done == POSTERS * JOBS_EACH,
	       "%u jobs posted by %u threads all ran (%u)", POSTERS * JOBS_EACH, POSTERS, pc.done);
	tap_is_int(pc.out_of_order, 0, "each thread's jobs ran in the order it posted them");
	tap_ok(ltt_evloop_take_jobs(pc.loop) == NULL, "none left");
	ltt_evloop_destroy(pc.loop);
	free(pc.jobs);
}

/* A job that stops the loop leaves the later ones queued. */
static unsigned int jobs_ran;

static void on_count_job(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	(void)loop, (void)job;
	jobs_ran++;
}

static void on_stop_job(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	(void)job;
	jobs_ran++;
	ltt_evloop_stop(loop);
}

static void test_jobs_and_stop(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct ltt_evloop_job j[4] = {
		{ .fn = on_count_job }, { .fn = on_stop_job },
		{ .fn = on_count_job }, { .fn = on_count_job },
	};
	struct ltt_evloop_job *left;

	ltt_evloop_post(loop, &j[0]);
	ltt_evloop_post(loop, &j[1]);
	ltt_evloop_post(loop, &j[2]);
	evl_guard(loop);
	ltt_evloop_run(loop);
	tap_is_int(jobs_ran, 2, "the jobs up to the one that stopped the loop ran");
	ltt_evloop_post(loop, &j[3]);
	left = ltt_evloop_take_jobs(loop);
	tap_ok(left == &j[2] && left->next == &j[3] && !j[3].next,
	       "the rest are handed back, oldest first, with those posted after the stop");
	ltt_evloop_post(loop, &j[2]);
	ltt_evloop_post(loop, &j[1]);
	ltt_evloop_run(loop);
	tap_is_int(jobs_ran, 4, "jobs posted after a stop run at the next run");

	ltt_evloop_stop(loop);
	tap_is_int(ltt_evloop_run(loop), 0, "a stop before run makes it return at once");
	ltt_evloop_post(loop, &j[0]);	/* left queued: destroy drops it */
	ltt_evloop_destroy(loop);
	ltt_evloop_destroy(NULL);
}

/* ---- stop from another thread ---- */

struct stopper {
	struct ltt_evloop *loop;
	int started_efd;
};

static void *stopper_thread(void *arg)
{
	struct stopper *s = arg;
	uint64_t n;

	/* blocking read: the loop's timer says it runs */
	if (read(s->started_efd, &n, sizeof(n)) != sizeof(n))
		evl_die("read");
	ltt_evloop_stop(s->loop);
	return NULL;
}

static void on_started(struct ltt_evloop *loop, void *arg)
{
	uint64_t one = 1;

	(void)loop;
	if (write(*(int *)arg, &one, sizeof(one)) != sizeof(one))
		evl_die("write");
}

static void test_stop_from_thread(void)
{
	struct stopper s = { .loop = evl_new_loop() };
	struct ltt_evloop_timer *t;
	pthread_t th;
	int ret;

	s.started_efd = eventfd(0, EFD_CLOEXEC);
	if (s.started_efd < 0 || pthread_create(&th, NULL, stopper_thread, &s))
		evl_die("stopper");
	ltt_evloop_timer_create(s.loop, on_started, &s.started_efd, &t);
	ltt_evloop_timer_arm(t, 1 * MS, 0);
	evl_guard(s.loop);
	ret = ltt_evloop_run(s.loop);
	pthread_join(th, NULL);
	tap_ok(ret == 0 && !evl_guard_fired, "a loop waiting for events stops from another thread");
	close(s.started_efd);
	ltt_evloop_destroy(s.loop);
}

/* ---- a loop's own thread ---- */

struct on_thread {
	struct ltt_evloop_job job;
	pthread_t ran_on;
	int efd;
};

static void record_thread(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct on_thread *o = (struct on_thread *)job;

	(void)loop;
	o->ran_on = pthread_self();
	if (write(o->efd, &(uint64_t){ 1 }, 8) != 8)
		evl_die("write");
}

static void test_thread_start(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct on_thread o = { .job.fn = record_thread };
	uint64_t v;
	pthread_t tid;

	o.efd = eventfd(0, EFD_CLOEXEC);
	if (o.efd < 0)
		evl_die("eventfd");
	tap_is_int(ltt_evloop_thread_start(loop, "test thread", &tid), 0, "a loop starts its thread");
	ltt_evloop_post(loop, &o.job);
	if (read(o.efd, &v, sizeof(v)) != sizeof(v))
		evl_die("read");
	tap_ok(pthread_equal(o.ran_on, tid), "a posted job runs on that thread");
	ltt_evloop_stop(loop);
	tap_is_int(pthread_join(tid, NULL), 0, "the thread ends once the loop is stopped");
	ltt_evloop_destroy(loop);
	close(o.efd);
}

/* ---- ltt_evloop_call(): run on the loop's thread and wait ---- */

/*
 * The wall clock as this program reads it: @wall_ahead_s ahead of the
 * kernel's, as if it were stepped back by that much once read (the
 * evloop linked in calls this one).
 */
static long wall_ahead_s;

int clock_gettime(clockid_t id, struct timespec *ts)
{
	int ret = (int)syscall(SYS_clock_gettime, id, ts);

	if (!ret && id == CLOCK_REALTIME)
		ts->tv_sec += __atomic_load_n(&wall_ahead_s, __ATOMIC_RELAXED);
	return ret;
}

struct call_arg {
	pthread_t ran_on;
	int runs;
	int block_efd;		/* >= 0: the call blocks reading it */
};

static void called(void *arg)
{
	struct call_arg *a = arg;
	uint64_t v;

	a->ran_on = pthread_self();
	a->runs++;
	if (a->block_efd >= 0 && read(a->block_efd, &v, sizeof(v)) != sizeof(v))
		evl_die("read");
}

static void test_call(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct call_arg a = { .block_efd = -1 }, b = { .block_efd = -1 };
	pthread_t tid;
	int efd;

	tap_is_int(ltt_evloop_thread_start(loop, "test thread", &tid), 0, "a loop starts its thread");
	tap_is_int(ltt_evloop_call(loop, called, &a, 5000), 0, "a call returns 0 once it ran");
	tap_ok(a.runs == 1 && pthread_equal(a.ran_on, tid), "  once, on the loop's thread");

	/* a call the loop can't take in time: -ETIMEDOUT, then it runs late */
	efd = a.block_efd = eventfd(0, EFD_CLOEXEC);
	if (efd < 0)
		evl_die("eventfd");
	tap_is_int(ltt_evloop_call(loop, called, &a, 100), -ETIMEDOUT,
		   "a call the loop does not run in time: -ETIMEDOUT");
	tap_is_int(ltt_evloop_call(loop, called, &b, 50), -ETIMEDOUT,
		   "  and one queued behind it");
	a.block_efd = -1;	/* the late call reads efd already */
	if (write(efd, &(uint64_t){ 1 }, 8) != 8)
		evl_die("write");
	tap_is_int(ltt_evloop_call(loop, called, &a, 5000), 0, "the loop free again, a call runs");
	tap_ok(b.runs == 1, "  after the late one, which ran anyway");
	ltt_evloop_stop(loop);
	tap_is_int(pthread_join(tid, NULL), 0, "the thread ends once the loop is stopped");
	ltt_evloop_destroy(loop);
	close(efd);
}

/* A call on a loop that does not run, from another thread. */
struct caller {
	struct ltt_evloop *loop;
	struct call_arg a;
	int ret;		/* 1 until the call returned */
	unsigned int timeout_ms;	/* 0: 10 s */
};

static void *call_from_thread(void *arg)
{
	struct caller *c = arg;
	int ret = ltt_evloop_call(c->loop, called, &c->a, c->timeout_ms ? c->timeout_ms : 10000);

	__atomic_store_n(&c->ret, ret, __ATOMIC_RELEASE);
	return NULL;
}

static void test_call_cancelled(void)
{
	struct caller c = { .loop = evl_new_loop(), .a = { .block_efd = -1 }, .ret = 1 };
	struct ltt_evloop_job *left = NULL, j = { .fn = on_count_job };
	struct timespec ts = { 0, 10 * 1000 * 1000 };
	pthread_t th;
	int i;

	ltt_evloop_post(c.loop, &j);
	if (pthread_create(&th, NULL, call_from_thread, &c))
		evl_die("pthread_create");
	/* the jobs taken back until the call returns (bounded: 500 x 10 ms) */
	for (i = 0; i < 500 && __atomic_load_n(&c.ret, __ATOMIC_ACQUIRE) == 1; i++) {
		struct ltt_evloop_job *got = ltt_evloop_take_jobs(c.loop);

		if (got)
			left = got;
		nanosleep(&ts, NULL);
	}
	pthread_join(th, NULL);
	tap_is_int(c.ret, -ECANCELED, "a call on a loop whose jobs are taken back: -ECANCELED");
	tap_ok(c.a.runs == 0 && left == &j && !j.next,
	       "  not run, and not handed out with the loop's other jobs");
	ltt_evloop_post(c.loop, &j);
	tap_is_int(ltt_evloop_call(c.loop, called, &c.a, 1), -ETIMEDOUT,
		   "a call on a loop that does not run: -ETIMEDOUT");
	ltt_evloop_destroy(c.loop);	/* cancels it; the count job is the test's */
}

/*
 * A call's bound is time passed, whatever the wall clock does: stepped
 * back an hour during the wait, a 100 ms call still ends in time.
 */
static void test_call_wall_clock(void)
{
	struct caller c = { .loop = evl_new_loop(), .a = { .block_efd = -1 }, .ret = 1,
			    .timeout_ms = 100 };
	struct timespec until;
	pthread_t th;
	int joined;

	__atomic_store_n(&wall_ahead_s, 3600L, __ATOMIC_RELAXED);
	if (pthread_create(&th, NULL, call_from_thread, &c))
		evl_die("pthread_create");
	syscall(SYS_clock_gettime, CLOCK_REALTIME, &until);	/* the kernel's */
	until.tv_sec += 3;
	joined = pthread_timedjoin_np(th, NULL, &until);
	__atomic_store_n(&wall_ahead_s, 0L, __ATOMIC_RELAXED);
	tap_ok(joined == 0 && c.ret == -ETIMEDOUT && c.a.runs == 0,
	       "a 100 ms call on a loop that does not run, the wall clock stepped back an hour: -ETIMEDOUT within 3 s (joined %d, ret %d)",
	       joined, c.ret);
	if (joined) {	/* still waiting: cancelled, so that it returns */
		(void)ltt_evloop_take_jobs(c.loop);
		pthread_join(th, NULL);
	}
	ltt_evloop_destroy(c.loop);	/* cancels the call left queued */
}
int main(void)
{
	test_post_threads();
	test_jobs_and_stop();
	test_stop_from_thread();
	test_thread_start();
	test_call();
	test_call_cancelled();
	test_call_wall_clock();
	return tap_done();
}
