// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_evloop.c - unit tests of common/base/evloop.c on one thread: fd
 * callbacks, pausing, removal inside callbacks, timers, timers armed at
 * an instant, deadlines' order, busy mode, a listening socket and a
 * server's thread serving one.  What crosses threads (posted jobs, stop,
 * a loop's own thread, ltt_evloop_call()) is test_evloop_threads.c.
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

static void new_pipe(int p[2])
{
	if (pipe2(p, O_NONBLOCK | O_CLOEXEC))
		evl_die("pipe2");
}

static void put_byte(int fd)
{
	if (write(fd, "x", 1) != 1)
		evl_die("write");
}

static void stop_cb(struct ltt_evloop *loop, void *arg)
{
	(void)arg;
	ltt_evloop_stop(loop);
}

/* ---- fd callbacks ---- */

struct reader {
	int fd;
	unsigned int calls;
	unsigned int bytes;
	unsigned int stop_at;		/* bytes; 0: never */
	uint32_t last_events;
};

static void on_read(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct reader *r = arg;
	char buf[64];
	ssize_t n;

	r->calls++;
	r->last_events = events;
	n = read(fd, buf, sizeof(buf));
	if (n > 0)
		r->bytes += (unsigned int)n;
	if (r->stop_at && r->bytes >= r->stop_at)
		ltt_evloop_stop(loop);
}

static void test_fd_callbacks(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct reader r = { .stop_at = 3 };
	struct ltt_evloop_watch *w;
	int p[2];

	new_pipe(p);
	r.fd = p[0];
	tap_is_int(ltt_evloop_watch(loop, p[0], EPOLLIN, on_read, &r, &w), 0, "watch a pipe");
	tap_is_int(ltt_evloop_watch(loop, p[0], EPOLLIN, on_read, &r, NULL), -EEXIST,
		   "watching the same fd twice is -EEXIST");
	tap_is_int(ltt_evloop_watch(loop, -1, EPOLLIN, on_read, &r, NULL), -EINVAL,
		   "a negative fd is -EINVAL");
	put_byte(p[1]);
	put_byte(p[1]);
	put_byte(p[1]);
	evl_guard(loop);
	tap_is_int(ltt_evloop_run(loop), 0, "run returns 0 once stopped");
	tap_ok(!evl_guard_fired && r.bytes == 3 && r.last_events == EPOLLIN,
	       "the callback read the 3 bytes with EPOLLIN (%u bytes, %u calls)", r.bytes, r.calls);

	/* the hang-up reaches a watch for EPOLLIN */
	r.stop_at = 0;
	r.calls = 0;
	close(p[1]);
	ltt_evloop_set_busy(loop, false, NULL, NULL);
	{
		struct ltt_evloop_timer *t;

		ltt_evloop_timer_create(loop, stop_cb, NULL, &t);
		ltt_evloop_timer_arm(t, 1 * MS, 0);
		ltt_evloop_run(loop);
		ltt_evloop_timer_destroy(t);
	}
	tap_ok(r.calls > 0 && (r.last_events & EPOLLHUP), "EPOLLHUP fires unasked (%#x)",
	       r.last_events);
	tap_is_int(ltt_evloop_unwatch_fd(loop, p[0]), 0, "unwatch_fd of a watched fd");
	tap_is_int(ltt_evloop_unwatch_fd(loop, p[0]), -ENOENT, "unwatch_fd again is -ENOENT");
	close(p[0]);
	ltt_evloop_destroy(loop);
}

/* ---- pause and resume ---- */

struct pause_ctx {
	struct reader r;
	struct ltt_evloop_watch *w;
	unsigned int calls_while_paused;
	int resumed;
};

static void on_resume(struct ltt_evloop *loop, void *arg)
{
	struct pause_ctx *c = arg;

	(void)loop;
	c->calls_while_paused = c->r.calls;
	c->resumed = ltt_evloop_watch_set(c->w, EPOLLIN);
}

static void test_pause_resume(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct pause_ctx c = { .r.stop_at = 1, .resumed = 1 };
	struct ltt_evloop_timer *t;
	int p[2];

	new_pipe(p);
	put_byte(p[1]);
	tap_is_int(ltt_evloop_watch(loop, p[0], 0, on_read, &c.r, &c.w), 0,
		   "watch an fd paused");
	ltt_evloop_timer_create(loop, on_resume, &c, &t);
	ltt_evloop_timer_arm(t, 20 * MS, 0);
	evl_guard(loop);
	ltt_evloop_run(loop);
	tap_ok(!evl_guard_fired && c.calls_while_paused == 0 && c.resumed == 0 && c.r.bytes == 1,
	       "a readable fd registered paused is quiet until resumed, then read");

	/* pause it with a hang-up pending: no callback, no spinning */
	tap_is_int(ltt_evloop_watch_set(c.w, 0), 0, "pause it");
	close(p[1]);
	c.r.calls = 0;
	c.r.stop_at = 0;
	ltt_evloop_timer_destroy(t);
	ltt_evloop_timer_create(loop, stop_cb, NULL, &t);
	ltt_evloop_timer_arm(t, 10 * MS, 0);
	ltt_evloop_run(loop);
	tap_is_int(c.r.calls, 0, "a paused fd's hang-up does not fire");
	ltt_evloop_unwatch(c.w);
	close(p[0]);
	ltt_evloop_destroy(loop);
}

/* ---- removal inside callbacks ---- */

struct remover {
	struct ltt_evloop_watch *self, *other;
	int *other_fd;			/* closed and reused when set */
	unsigned int calls;
	struct remover *peer;
};

static unsigned int reuse_calls;
static int reuse_wfd = -1;	/* the new fd's pipe: open, so it stays quiet */

static void on_reuse(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	(void)loop, (void)fd, (void)events, (void)arg;
	reuse_calls++;
}

/* Remove the peer's watch, close its fd and watch a new fd of that number. */
static void on_remove_other(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct remover *r = arg;
	char c;
	int p[2];

	(void)events;
	r->calls++;
	if (read(fd, &c, 1) != 1)
		evl_die("read");
	if (!r->peer->self)
		return;
	ltt_evloop_unwatch(r->peer->self);
	r->peer->self = NULL;
	close(*r->peer->other_fd);
	new_pipe(p);
	if (p[0] != *r->peer->other_fd) {	/* lowest free number: the same */
		dup2(p[0], *r->peer->other_fd);
		close(p[0]);
	}
	reuse_wfd = p[1];
	if (ltt_evloop_watch(loop, *r->peer->other_fd, EPOLLIN, on_reuse, NULL, NULL))
		evl_die("watch reused fd");
}

static void on_remove_self(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct remover *r = arg;

	(void)loop, (void)fd, (void)events;
	r->calls++;
	ltt_evloop_unwatch(r->self);	/* never read: would fire again */
}

static void test_unwatch_in_callbacks(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct remover a = { 0 }, b = { 0 }, s = { 0 };
	struct ltt_evloop_timer *t;
	int pa[2], pb[2], ps[2];

	new_pipe(pa);
	new_pipe(pb);
	new_pipe(ps);
	put_byte(pa[1]);
	put_byte(pb[1]);
	put_byte(ps[1]);
	a.peer = &b;
	b.peer = &a;
	a.other_fd = &pa[0];
	b.other_fd = &pb[0];
	ltt_evloop_watch(loop, pa[0], EPOLLIN, on_remove_other, &a, &a.self);
	ltt_evloop_watch(loop, pb[0], EPOLLIN, on_remove_other, &b, &b.self);
	ltt_evloop_watch(loop, ps[0], EPOLLIN, on_remove_self, &s, &s.self);
	ltt_evloop_timer_create(loop, stop_cb, NULL, &t);
	ltt_evloop_timer_arm(t, 20 * MS, 0);
	ltt_evloop_run(loop);
	tap_is_int(s.calls, 1, "a watch that removed itself in its callback never fires again");
	tap_is_int(a.calls + b.calls, 1,
		   "of two fds ready in one batch, the one removed by the other's callback does not fire");
	tap_is_int(reuse_calls, 0,
		   "an event collected for a removed fd does not reach the new watch of that fd number");
	/* the reused fd is watched: it fires once its pipe hangs up */
	close(reuse_wfd);
	ltt_evloop_timer_arm(t, 20 * MS, 0);
	ltt_evloop_run(loop);
	tap_ok(reuse_calls > 0, "the new watch of the reused fd number works");
	ltt_evloop_destroy(loop);	/* frees the watches left */
	close(pa[0]), close(pa[1]), close(pb[0]), close(pb[1]), close(ps[0]), close(ps[1]);
}

/* ---- timers ---- */

struct tick {
	struct ltt_evloop_timer *t, *victim;
	unsigned int calls;
	unsigned int limit;
	int action;
	uint64_t first_ns, last_ns;
};

enum { T_COUNT, T_STOP_AT, T_REARM, T_DISARM, T_DESTROY, T_DESTROY_VICTIM };

static void on_tick(struct ltt_evloop *loop, void *arg)
{
	struct tick *k = arg;

	k->calls++;
	k->last_ns = ltt_evloop_now_ns();
	if (k->calls == 1)
		k->first_ns = k->last_ns;
	switch (k->action) {
	case T_STOP_AT:
		if (k->calls == k->limit)
			ltt_evloop_stop(loop);
		break;
	case T_REARM:
		if (k->calls < k->limit)
			ltt_evloop_timer_arm(k->t, 1 * MS, 0);
		break;
	case T_DISARM:
		if (k->calls == k->limit)
			ltt_evloop_timer_disarm(k->t);
		break;
	case T_DESTROY:
		if (k->calls == k->limit) {
			ltt_evloop_timer_destroy(k->t);
			k->t = NULL;
		}
		break;
	case T_DESTROY_VICTIM:
		ltt_evloop_timer_destroy(k->victim);
		break;
	}
}

static struct tick *new_tick(struct ltt_evloop *loop, int action, unsigned int limit)
{
	struct tick *k = calloc(1, sizeof(*k));

	if (!k || ltt_evloop_timer_create(loop, on_tick, k, &k->t))
		evl_die("timer");
	k->action = action;
	k->limit = limit;
	return k;
}

static void test_timers(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct tick *once = new_tick(loop, T_COUNT, 0);
	struct tick *periodic = new_tick(loop, T_STOP_AT, 5);
	struct tick *rearm = new_tick(loop, T_REARM, 3);
	struct tick *disarm = new_tick(loop, T_DISARM, 3);
	struct tick *destroy = new_tick(loop, T_DESTROY, 2);
	struct tick *killer = new_tick(loop, T_DESTROY_VICTIM, 0);
	struct tick *victim = new_tick(loop, T_COUNT, 0);
	struct tick *never = new_tick(loop, T_COUNT, 0);
	uint64_t start = ltt_evloop_now_ns();

	tap_ok(!ltt_evloop_timer_armed(once->t), "a new timer is disarmed");
	ltt_evloop_timer_arm(once->t, 1 * MS, 0);
	tap_ok(ltt_evloop_timer_armed(once->t), "armed once armed");
	ltt_evloop_timer_arm(periodic->t, 10 * MS, 10 * MS);
	ltt_evloop_timer_arm(rearm->t, 1 * MS, 0);
	ltt_evloop_timer_arm(disarm->t, 1 * MS, 1 * MS);
	ltt_evloop_timer_arm(destroy->t, 1 * MS, 1 * MS);
	ltt_evloop_timer_arm(killer->t, 2 * MS, 0);
	killer->victim = victim->t;
	ltt_evloop_timer_arm(victim->t, 2 * MS, 0);	/* same pass, after the killer */
	ltt_evloop_timer_arm(never->t, 5 * MS, 0);
	ltt_evloop_timer_disarm(never->t);
	evl_guard(loop);
	ltt_evloop_run(loop);
	tap_ok(!evl_guard_fired, "the periodic timer stopped the loop");
	tap_is_int(periodic->calls, 5, "a 10 ms periodic timer fired 5 times");
	tap_ok(periodic->first_ns - start >= 10 * MS && periodic->last_ns - start >= 50 * MS,
	       "not early: first at %llu ms, fifth at %llu ms",
	       (unsigned long long)((periodic->first_ns - start) / MS),
	       (unsigned long long)((periodic->last_ns - start) / MS));
	tap_is_int(once->calls, 1, "a one-shot timer fired once");
	tap_ok(!ltt_evloop_timer_armed(once->t), "and is disarmed after");
	tap_is_int(rearm->calls, 3, "a timer re-armed twice in its callback fired 3 times");
	tap_is_int(disarm->calls, 3, "a periodic timer disarmed in its 3rd call fired 3 times");
	tap_ok(!ltt_evloop_timer_armed(disarm->t), "and is disarmed");
	tap_is_int(destroy->calls, 2, "a periodic timer destroyed in its 2nd call fired twice");
	tap_is_int(killer->calls, 1, "the killer fired");
	tap_is_int(victim->calls, 0, "a timer due in the same pass, destroyed by another, did not");
	tap_is_int(never->calls, 0, "a disarmed timer did not fire");

	/* re-arming replaces the schedule */
	once->calls = 0;
	ltt_evloop_timer_arm(once->t, 1 * MS, 1 * MS);
	ltt_evloop_timer_arm(once->t, 30 * MS, 0);
	periodic->calls = 0;
	periodic->limit = 1;
	ltt_evloop_timer_arm(periodic->t, 60 * MS, 0);
	ltt_evloop_run(loop);
	tap_is_int(once->calls, 1, "a periodic timer re-armed as one-shot fired once");

	ltt_evloop_timer_destroy(once->t);
	ltt_evloop_timer_destroy(periodic->t);
	ltt_evloop_timer_destroy(NULL);
	ltt_evloop_destroy(loop);	/* frees the timers left */
	free(once), free(periodic), free(rearm), free(disarm), free(destroy);
	free(killer), free(victim), free(never);
}

/* Deadlines fire in their order, whatever the arming order. */
static unsigned int order_seen[8], nr_order;

static void on_order(struct ltt_evloop *loop, void *arg)
{
	order_seen[nr_order++] = (unsigned int)(uintptr_t)arg;
	if (nr_order == 6)
		ltt_evloop_stop(loop);
}

static void test_deadline_order(void)
{
	static const unsigned int delay_ms[6] = { 25, 5, 20, 0, 15, 10 };
	static const unsigned int want[6] = { 3, 1, 5, 4, 2, 0 };
	struct ltt_evloop *loop = evl_new_loop();
	struct ltt_evloop_timer *t[6];
	bool same = true;
	unsigned int i;

	for (i = 0; i < 6; i++) {
		ltt_evloop_timer_create(loop, on_order, (void *)(uintptr_t)i, &t[i]);
		ltt_evloop_timer_arm(t[i], delay_ms[i] * MS, 0);
	}
	evl_guard(loop);
	ltt_evloop_run(loop);
	for (i = 0; i < 6; i++)
		same = same && order_seen[i] == want[i];
	tap_ok(!evl_guard_fired && nr_order == 6 && same,
	       "6 timers fired in deadline order (%u %u %u %u %u %u)", order_seen[0],
	       order_seen[1], order_seen[2], order_seen[3], order_seen[4], order_seen[5]);
	ltt_evloop_destroy(loop);
}

/* ---- timers armed at an instant ---- */

struct at_ctx {
	unsigned int fired;
	uint64_t when;			/* ltt_evloop_now_ns() at the first firing */
};

static struct at_ctx *at_order[3];	/* who fired, in order */
static unsigned int nr_at;

static void on_at(struct ltt_evloop *loop, void *arg)
{
	struct at_ctx *c = arg;

	(void)loop;
	if (!c->fired++)
		c->when = ltt_evloop_now_ns();
	if (nr_at < 3)
		at_order[nr_at] = c;
	nr_at++;
}

static void test_timer_at(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct ltt_evloop_timer *ta, *tb, *tp, *stop;
	struct at_ctx a = { 0 }, b = { 0 }, pc = { 0 };
	uint64_t now = ltt_evloop_now_ns(), at = now + 20 * MS;
	unsigned int i;

	ltt_evloop_timer_create(loop, on_at, &a, &ta);
	ltt_evloop_timer_create(loop, on_at, &b, &tb);
	ltt_evloop_timer_create(loop, on_at, &pc, &tp);
	ltt_evloop_timer_create(loop, stop_cb, NULL, &stop);
	for (i = 0; i < 5; i++)		/* the same instant again and again */
		ltt_evloop_timer_arm_at(ta, at);
	ltt_evloop_timer_arm_at(tb, now - 1 * MS);	/* past: the next pass */
	ltt_evloop_timer_arm(tp, 1 * MS, 1 * MS);	/* periodic ... */
	ltt_evloop_timer_arm_at(tp, now + 10 * MS);	/* ... made a single one */
	ltt_evloop_timer_arm(stop, 60 * MS, 0);
	evl_guard(loop);
	ltt_evloop_run(loop);
	tap_ok(!evl_guard_fired, "a loop with timers armed at instants runs to its stop");
	tap_is_int((int)a.fired, 1, "a timer armed five times at one instant fires once");
	tap_ok(a.when >= at, "not before its instant");
	tap_is_int((int)b.fired, 1, "a timer armed at a past instant fires");
	tap_is_int((int)pc.fired, 1, "arming at an instant ends a period");
	tap_ok(nr_at == 3 && at_order[0] == &b && at_order[1] == &pc && at_order[2] == &a,
	       "they fire in the order of their instants");
	ltt_evloop_destroy(loop);
}

/* ---- busy mode ---- */

struct busy_ctx {
	unsigned int hooks;
	unsigned int hooks_at_fd;	/* when the fd callback ran */
	int p[2];
};

static void on_busy_fd(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct busy_ctx *b = arg;
	char c;

	(void)loop, (void)events;
	if (read(fd, &c, 1) == 1)
		b->hooks_at_fd = b->hooks;
}

static void on_busy_hook(struct ltt_evloop *loop, void *arg)
{
	struct busy_ctx *b = arg;

	b->hooks++;
	if (b->hooks == 10)
		put_byte(b->p[1]);	/* served between two hooks */
	if (b->hooks == 100)
		ltt_evloop_set_busy(loop, false, on_busy_hook, b);
}

static void test_busy(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct busy_ctx b = { 0 };
	struct ltt_evloop_timer *t;
	uint64_t start, took;

	new_pipe(b.p);
	ltt_evloop_watch(loop, b.p[0], EPOLLIN, on_busy_fd, &b, NULL);
	ltt_evloop_timer_create(loop, stop_cb, NULL, &t);
	start = ltt_evloop_now_ns();
	ltt_evloop_timer_arm(t, 30 * MS, 0);
	ltt_evloop_set_busy(loop, true, on_busy_hook, &b);
	evl_guard(loop);
	ltt_evloop_run(loop);
	took = ltt_evloop_now_ns() - start;
	tap_is_int(b.hooks, 100, "the busy hook ran after each batch until it cleared busy");
	tap_is_int(b.hooks_at_fd, 10, "an fd that became ready was served before the next hook");
	tap_ok(!evl_guard_fired && took >= 30 * MS, "then the loop slept until its timer (%llu ms)",
	       (unsigned long long)(took / MS));
	ltt_evloop_set_busy(loop, true, NULL, NULL);
	ltt_evloop_timer_arm(t, 1 * MS, 0);
	ltt_evloop_run(loop);
	tap_is_int(b.hooks, 100, "a NULL hook clears busy");
	ltt_evloop_destroy(loop);
	close(b.p[0]), close(b.p[1]);
}

/* ---- a listening socket ---- */

struct accepted {
	unsigned int n;
	unsigned int stop_at;
	uint64_t at;			/* when the last one came */
};

static void on_accepted(struct ltt_evloop *loop, int fd, void *arg)
{
	struct accepted *a = arg;

	close(fd);
	a->at = ltt_evloop_now_ns();
	if (++a->n == a->stop_at)
		ltt_evloop_stop(loop);
}

/* A listening unix socket in the abstract namespace, and a client connected to it. */
static int listening(int *ret_client)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	socklen_t len;

	snprintf(sa.sun_path + 1, sizeof(sa.sun_path) - 1, "ltt-test-evloop-%d", (int)getpid());
	len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(sa.sun_path + 1));
	if (l < 0 || bind(l, (struct sockaddr *)&sa, len) || listen(l, 8))
		evl_die("listen");
	*ret_client = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (*ret_client < 0 || connect(*ret_client, (struct sockaddr *)&sa, len))
		evl_die("connect");
	return l;
}

static struct rlimit saved_nofile;

static void restore_nofile(struct ltt_evloop *loop, void *arg)
{
	(void)loop, (void)arg;
	setrlimit(RLIMIT_NOFILE, &saved_nofile);
}

static void test_listen(void)
{
	struct ltt_evloop *loop = evl_new_loop();
	struct accepted a = { .stop_at = 1 };
	struct ltt_evloop_listener lst;
	struct ltt_evloop_timer *t;
	struct rlimit low;
	uint64_t start;
	int l, c, next;

	l = listening(&c);
	tap_is_int(ltt_evloop_listen(loop, &lst, l, SOCK_CLOEXEC, "peers", on_accepted, &a), 0,
		   "a listener is set up");
	evl_guard(loop);
	ltt_evloop_run(loop);
	tap_ok(a.n == 1 && !evl_guard_fired, "a connection is accepted and handed to the callback");
	ltt_evloop_destroy(loop);
	close(l), close(c);

	/* out of descriptors: accepting pauses 100 ms rather than spin */
	loop = evl_new_loop();
	l = listening(&c);
	ltt_evloop_listen(loop, &lst, l, SOCK_CLOEXEC, "peers", on_accepted, &a);
	ltt_evloop_timer_create(loop, restore_nofile, NULL, &t);
	ltt_evloop_timer_arm(t, 20 * MS, 0);
	evl_guard(loop);
	next = dup(0);
	close(next);
	getrlimit(RLIMIT_NOFILE, &saved_nofile);
	low = saved_nofile;
	low.rlim_cur = (rlim_t)next;
	start = ltt_evloop_now_ns();
	if (setrlimit(RLIMIT_NOFILE, &low))
		evl_die("setrlimit");
	a.stop_at = 2;
	ltt_evloop_run(loop);
	tap_ok(a.n == 2 && !evl_guard_fired, "the connection refused for lack of fds is accepted later");
	tap_ok(a.at - start >= 100 * MS, "after the pause, not when fds came back (%llu ms)",
	       (unsigned long long)((a.at - start) / MS));
	ltt_evloop_destroy(loop);
	close(l), close(c);
}

/* ---- a thread serving a listening socket ---- */

/* An accepted connection, told to the test through the eventfd @arg. */
static void on_served(struct ltt_evloop *loop, int fd, void *arg)
{
	(void)loop;
	close(fd);
	if (write(*(int *)arg, &(uint64_t){ 1 }, 8) != 8)
		evl_die("write");
}

static void test_server(void)
{
	struct ltt_evloop_server s;
	int l, c, efd;
	uint64_t v;

	efd = eventfd(0, EFD_CLOEXEC);
	if (efd < 0)
		evl_die("eventfd");
	l = listening(&c);
	tap_is_int(ltt_evloop_server_init(&s, l, SOCK_CLOEXEC, "peers", on_served, &efd), 0,
		   "a server listens");
	tap_is_int(ltt_evloop_server_start(&s, "test server"), 0, "a server starts its thread");
	tap_ok(read(efd, &v, sizeof(v)) == sizeof(v), "the server's thread accepts the connection");
	ltt_evloop_server_stop(&s);
	ltt_evloop_server_fini(&s);
	tap_ok(fcntl(l, F_GETFD) < 0 && errno == EBADF, "the server closes its socket");
	close(c);

	tap_ok(ltt_evloop_server_init(&s, -1, SOCK_CLOEXEC, "peers", on_served, &efd) < 0,
	       "a server on no socket is refused");
	ltt_evloop_server_fini(&s);	/* half made, never started */
	tap_ok(!s.loop, "a half-made server is released");
	close(efd);
}
int main(void)
{
	test_fd_callbacks();
	test_pause_resume();
	test_unwatch_in_callbacks();
	test_timers();
	test_timer_at();
	test_deadline_order();
	test_busy();
	test_listen();
	test_server();
	return tap_done();
}
