/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * evloop.h - the one event loop every serving thread of ltt runs: the
 * session daemon's client, program and worker threads, the consumer's
 * data thread, and the relay daemon's control, data and live servers.
 *
 * A loop belongs to one thread, the one that calls ltt_evloop_run().  It
 * watches file descriptors (a callback per fd, level-triggered epoll),
 * runs timers (one-shot deadlines or periodic, CLOCK_MONOTONIC, with
 * nanosecond resolution through a single timerfd), and runs functions
 * posted from other threads (a cross-thread queue behind an eventfd).
 * Callbacks run in the loop's thread, one at a time; a callback may add,
 * change or remove any watch or timer, its own included, and may stop the
 * loop.
 *
 * Thread safety: only ltt_evloop_post() and ltt_evloop_stop() may be
 * called from another thread.  Everything else is for the loop's thread,
 * or for the creating thread before the loop runs or after it returned.
 *
 * Errors: functions return 0 or a negative errno.
 */
#ifndef LTT_COMMON_EVLOOP_H
#define LTT_COMMON_EVLOOP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

struct ltt_evloop;
struct ltt_evloop_watch;
struct ltt_evloop_timer;

/* @events: the EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP... bits that fired. */
typedef void (*ltt_evloop_fd_fn)(struct ltt_evloop *loop, int fd, uint32_t events, void *arg);
typedef void (*ltt_evloop_timer_fn)(struct ltt_evloop *loop, void *arg);

/*
 * A function posted to a loop from any thread.  The poster owns the
 * structure (usually embedded in its own) until fn runs; fn runs once,
 * in the loop's thread, in the order the jobs were posted.
 */
struct ltt_evloop_job {
	struct ltt_evloop_job *next;	/* the loop's */
	void (*fn)(struct ltt_evloop *loop, struct ltt_evloop_job *job);
};

/**
 * ltt_evloop_create() - an empty loop
 * @ret_loop: to release with ltt_evloop_destroy()
 *
 * Returns 0, or -ENOMEM, -EMFILE...
 */
int ltt_evloop_create(struct ltt_evloop **ret_loop);

/**
 * ltt_evloop_destroy() - free the loop, its watches and timers; accepts NULL
 *
 * Not while it runs.  Watched fds are not closed (they are their owners');
 * posted jobs that never ran are handed back by ltt_evloop_take_jobs()
 * first if the caller needs them, else dropped.
 */
void ltt_evloop_destroy(struct ltt_evloop *loop);

/**
 * ltt_evloop_watch() - call @fn(@loop, @fd, events, @arg) when @fd is ready
 * @events: EPOLLIN and/or EPOLLOUT (EPOLLERR and EPOLLHUP always fire);
 *          0 registers the fd paused (see ltt_evloop_watch_set()).
 *          Other epoll flags go to epoll as they are: EPOLLET for an fd
 *          that must never be read (the consumer's wakeup eventfds, shared
 *          with traced programs), EPOLLONESHOT (re-arm with watch_set)
 * @ret_watch: to change or remove the watch; may be NULL if never needed
 *             (the watch then lives until the fd is unwatched by
 *             ltt_evloop_unwatch_fd() or the loop is destroyed)
 *
 * The fd stays its caller's; unwatch it before closing it.  Returns 0,
 * -EEXIST if @fd is already watched, or -ENOMEM...
 */
int ltt_evloop_watch(struct ltt_evloop *loop, int fd, uint32_t events, ltt_evloop_fd_fn fn,
		     void *arg, struct ltt_evloop_watch **ret_watch);

/**
 * ltt_evloop_watch_set() - change the events @watch waits for (0: paused)
 *
 * A paused fd is out of the epoll set, so not even its EPOLLHUP fires; an
 * event already collected in the current batch is dropped if it is no
 * longer wanted.  Returns 0, -EINVAL for a removed watch, or an epoll_ctl
 * error.
 */
int ltt_evloop_watch_set(struct ltt_evloop_watch *watch, uint32_t events);

/**
 * ltt_evloop_unwatch() - stop watching and free @watch; accepts NULL
 *
 * Safe from any callback, @watch's own included: an event already
 * collected for it in the current batch is dropped.
 */
void ltt_evloop_unwatch(struct ltt_evloop_watch *watch);

/**
 * ltt_evloop_unwatch_fd() - ltt_evloop_unwatch() the watch of @fd
 *
 * For watches registered without @ret_watch.  Returns 0 or -ENOENT if
 * @fd is not watched.
 */
int ltt_evloop_unwatch_fd(struct ltt_evloop *loop, int fd);

/**
 * ltt_evloop_timer_create() - a timer that calls @fn(@loop, @arg), disarmed
 * @ret_timer: to arm, disarm and free
 */
int ltt_evloop_timer_create(struct ltt_evloop *loop, ltt_evloop_timer_fn fn, void *arg,
			    struct ltt_evloop_timer **ret_timer);

/**
 * ltt_evloop_timer_arm() - fire @timer in @delay_ns, then every @period_ns
 * @period_ns: 0 for once
 *
 * Re-arming replaces the previous schedule.  A periodic timer that fell
 * behind fires once, not once per missed period.
 */
void ltt_evloop_timer_arm(struct ltt_evloop_timer *timer, uint64_t delay_ns,
			  uint64_t period_ns);

/**
 * ltt_evloop_timer_arm_at() - fire @timer once at @at_ns (ltt_evloop_now_ns()'s
 * clock; past: at the next pass).  Armed again at the same instant, the
 * loop's timerfd is not set again: a deadline kept as an instant costs
 * no system call per re-arm.
 */
void ltt_evloop_timer_arm_at(struct ltt_evloop_timer *timer, uint64_t at_ns);

/** ltt_evloop_timer_disarm() - stop @timer without freeing it */
void ltt_evloop_timer_disarm(struct ltt_evloop_timer *timer);

/** ltt_evloop_timer_armed() - is @timer scheduled? */
bool ltt_evloop_timer_armed(const struct ltt_evloop_timer *timer);

/**
 * ltt_evloop_timer_destroy() - disarm and free @timer; accepts NULL; safe
 * from any callback, @timer's own included
 */
void ltt_evloop_timer_destroy(struct ltt_evloop_timer *timer);

/**
 * ltt_evloop_post() - run @job->fn in the loop's thread, soon
 *
 * Any thread, never fails, never blocks.  A job posted after the loop
 * stopped runs at the next ltt_evloop_run(), or is handed back by
 * ltt_evloop_take_jobs().
 */
void ltt_evloop_post(struct ltt_evloop *loop, struct ltt_evloop_job *job);

/**
 * ltt_evloop_call() - run @fn(@arg) in the loop's thread and wait for it,
 * at most @timeout_ms: 0 (it ran), -ETIMEDOUT (it may still run: @arg
 * must outlive the loop's next turn), -ECANCELED (the loop stopped: it
 * will not run) or -ENOMEM.  Not from the loop's own thread.
 */
int ltt_evloop_call(struct ltt_evloop *loop, void (*fn)(void *arg), void *arg,
		    unsigned int timeout_ms);

/**
 * ltt_evloop_take_jobs() - the jobs posted and not run, oldest first
 * (linked by ->next), or NULL; the caller owns them again (but
 * ltt_evloop_call()'s, cancelled here)
 */
struct ltt_evloop_job *ltt_evloop_take_jobs(struct ltt_evloop *loop);

/**
 * ltt_evloop_jobs_drop() - hand each job of the list @jobs (linked by
 * ->next, as ltt_evloop_take_jobs() gives them; NULL: none) to @drop,
 * which may free it: the jobs a stopped loop never ran
 */
void ltt_evloop_jobs_drop(struct ltt_evloop_job *jobs, void (*drop)(struct ltt_evloop_job *job));

/**
 * ltt_evloop_set_busy() - while @busy, poll without sleeping and call
 * @fn(@loop, @arg) after every batch of events
 *
 * For a thread that still has work after its callbacks returned (the
 * consumer's data thread with packets left to move): the loop keeps
 * turning, serving fds and timers between calls, until the hook sets
 * busy to false.  A hook of NULL clears busy.
 */
void ltt_evloop_set_busy(struct ltt_evloop *loop, bool busy, ltt_evloop_timer_fn fn, void *arg);

/**
 * ltt_evloop_run() - serve events until ltt_evloop_stop()
 *
 * Returns 0 once stopped, or a negative errno if epoll failed.
 */
int ltt_evloop_run(struct ltt_evloop *loop);

/* An accepted connection: @fd is the callee's to close. */
typedef void (*ltt_evloop_accept_fn)(struct ltt_evloop *loop, int fd, void *arg);

/* A listening socket a loop accepts on: the caller's storage, filled by ltt_evloop_listen(). */
struct ltt_evloop_listener {
	struct ltt_evloop_watch *watch;
	struct ltt_evloop_timer *pause;	/* armed: accepting is paused */
	int flags;
	const char *what;
	ltt_evloop_accept_fn fn;
	void *arg;
};

/**
 * ltt_evloop_listen() - accept connections on the listening socket @fd,
 * each with accept4(@flags), and hand each to @fn(@loop, conn_fd, @arg)
 * @l: must outlive the loop; its watch and timer are the loop's (freed by
 *     ltt_evloop_destroy()); @fd stays the caller's to close
 * @what: names the peers ("clients") in the warning when the process is
 *        out of file descriptors: accepting then pauses for 100 ms
 *        rather than spin on a connection it cannot take
 *
 * Returns 0 or a negative errno.
 */
int ltt_evloop_listen(struct ltt_evloop *loop, struct ltt_evloop_listener *l, int fd, int flags,
		      const char *what, ltt_evloop_accept_fn fn, void *arg);

/**
 * ltt_evloop_thread_start() - run @loop on a new thread until
 * ltt_evloop_stop(), logging why if epoll fails
 * @name: names the thread in that message ("app thread"); borrowed, must
 *        outlive the thread (a literal)
 * @ret_tid: set on success, for pthread_join() after ltt_evloop_stop()
 *
 * Call with the signals the process handles blocked: the thread inherits
 * the mask.  Returns 0 or pthread_create()'s error, negated.
 */
int ltt_evloop_thread_start(struct ltt_evloop *loop, const char *name, pthread_t *ret_tid);

/*
 * A thread serving one listening socket with a loop of its own (the
 * session daemon's client and program threads): the caller's storage.
 * Made by ltt_evloop_server_init(), whose caller may add watches and
 * timers before ltt_evloop_server_start(); ended by
 * ltt_evloop_server_stop() then ltt_evloop_server_fini(), between which
 * the caller releases what the loop still held (its connections, the
 * jobs of ltt_evloop_take_jobs()).
 */
struct ltt_evloop_server {
	struct ltt_evloop *loop;	/* NULL until made */
	struct ltt_evloop_listener listener;	/* on fd */
	int fd;			/* the listening socket, the server's */
	bool started;
	pthread_t tid;		/* while started */
};

/**
 * ltt_evloop_server_init() - a loop accepting on the listening socket
 * @fd as ltt_evloop_listen() does (@flags, @what, @fn, @arg), its thread
 * not started yet
 * @fd: taken whatever the result: closed by ltt_evloop_server_fini()
 *
 * Returns 0 or a negative errno; either way @s is for
 * ltt_evloop_server_fini().
 */
int ltt_evloop_server_init(struct ltt_evloop_server *s, int fd, int flags, const char *what,
			   ltt_evloop_accept_fn fn, void *arg);

/**
 * ltt_evloop_server_start() - run @s's loop on a new thread, as
 * ltt_evloop_thread_start() (@name, the signal mask)
 *
 * Returns 0 or pthread_create()'s error, negated.
 */
int ltt_evloop_server_start(struct ltt_evloop_server *s, const char *name);

/**
 * ltt_evloop_server_open() - a server as every daemon thread starts one:
 * ltt_evloop_server_init() (@fd, @flags, @what, @fn, @arg), then
 * @prepare(@s->loop, @arg) (NULL: none) to add its timers and watches,
 * then ltt_evloop_server_start() (@name)
 * @fd: taken whatever the result
 *
 * Returns 0, or a negative errno with @s finished (ltt_evloop_server_fini()).
 */
int ltt_evloop_server_open(struct ltt_evloop_server *s, int fd, int flags, const char *what,
			   ltt_evloop_accept_fn fn, void *arg,
			   int (*prepare)(struct ltt_evloop *loop, void *arg), const char *name);

/**
 * ltt_evloop_server_adopt() - ltt_evloop_server_open() for a thread's
 * object @owner (malloc()'d, NULL: it could not be), which holds @s and
 * is the accept function's and @prepare's argument
 * @fd: taken whatever the result
 * @ret: 0, or the negative errno (-ENOMEM: @owner NULL)
 *
 * Returns @owner, its thread started, or NULL with @owner freed.
 */
void *ltt_evloop_server_adopt(void *owner, struct ltt_evloop_server *s, int fd, int flags,
			      const char *what, ltt_evloop_accept_fn fn,
			      int (*prepare)(struct ltt_evloop *loop, void *arg), const char *name,
			      int *ret);

/**
 * ltt_evloop_server_stop() - stop @s's thread, if started, and wait for
 * it to return; the loop and the socket stay, for ltt_evloop_server_fini()
 *
 * Not from the server's thread.
 */
void ltt_evloop_server_stop(struct ltt_evloop_server *s);

/**
 * ltt_evloop_server_fini() - destroy @s's loop (ltt_evloop_destroy()) and
 * close its socket; after ltt_evloop_server_stop(), or for an @s
 * ltt_evloop_server_init() left half made
 */
void ltt_evloop_server_fini(struct ltt_evloop_server *s);

/**
 * ltt_evloop_stop() - make ltt_evloop_run() return after the current
 * callback; any thread; a stop before run makes the next run return at once
 *
 * Events of the current batch not dispatched yet are dropped (a
 * level-triggered fd reports them again at the next run); posted jobs
 * not run yet stay queued.
 */
void ltt_evloop_stop(struct ltt_evloop *loop);

/**
 * ltt_evloop_set_tag() - watch @loop's heartbeat under @tag (bits of
 * the caller's choosing; 0, the default: not watched)
 *
 * Before the loop runs.  While a tagged loop runs, it notes when it last
 * woke up and whether it sleeps in epoll_wait() with nothing due
 * (heartbeat.h): the one heartbeat of every ltt thread, which
 * ltt_heartbeat_stalled() reads.
 */
void ltt_evloop_set_tag(struct ltt_evloop *loop, uint64_t tag);

struct ltt_testpoint;

/* One of LTTng's test points that a loop runs, and the slots (tag bits) it stands for. */
struct ltt_evloop_point {
	struct ltt_testpoint *tp;	/* LTT_TESTPOINT_INIT()'s, static */
	uint64_t slots;
};

/**
 * ltt_evloop_set_points() - the test points @loop runs, in order, each
 * time ltt_evloop_run() starts, when LTTng's test points are on
 * (testpoint.h), as LTTng's threads run theirs when they start
 * @points: @n of them, static
 *
 * Before the loop runs.  While one runs, the heartbeat reports only its
 * slots if it is stuck there; one that returns non-zero ends the run:
 * its slots are reported in bad health from then on
 * (ltt_heartbeat_fail()), and ltt_evloop_run() returns -ECANCELED.  Off,
 * it costs the run a load and a branch.
 */
void ltt_evloop_set_points(struct ltt_evloop *loop, const struct ltt_evloop_point *points,
			   size_t n);

/**
 * ltt_evloop_run_points() - run @points (@n of them) now, in order, on
 * @loop's thread (from one of its callbacks or jobs), when LTTng's test
 * points are on
 *
 * For a loop that serves other threads from its start, whose point must
 * wait until they no longer wait on it (the kernel thread's, posted once
 * the daemon has started): as ltt_evloop_set_points()'s, a stall there
 * reports only the point's slots, and one that returns non-zero puts its
 * slots in bad health for good.  Returns 0, or -ECANCELED when one
 * failed (the rest are not run; the loop runs on: the caller says what
 * its thread does then).
 */
int ltt_evloop_run_points(struct ltt_evloop *loop, const struct ltt_evloop_point *points,
			  size_t n);

/** ltt_evloop_now_ns() - CLOCK_MONOTONIC in nanoseconds */
uint64_t ltt_evloop_now_ns(void);

#endif /* LTT_COMMON_EVLOOP_H */
