// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-notify.c - programs' notification sockets (see app.h): a
 * SOCK_SEQPACKET pair per program that has notifiers, made on first need
 * by whichever thread gives it one, read by the app thread, each message
 * checked and handed to the listener.
 */
#include <errno.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/testpoint.h"
#include "sessiond/app/app.h"

int notifier_consumption_paused;

/* How long LTTng's test point stops a socket's reading, as LTTng's notification thread sleeps. */
#define TESTPOINT_PAUSE_NS 1000000000ULL

/* Reads of a gone program's socket at most (one that lives on could write for ever). */
#define DRAIN_READS 1024

int ltt_app_notify_fd(struct ltt_app *app)
{
	int fds[2], ret;

	pthread_mutex_lock(&app->lock);
	if (app->dead) {
		ret = -EPIPE;
	} else if (app->notify_wr >= 0) {
		ret = app->notify_wr;
	} else if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, 0, fds)) {
		ret = -errno;
	} else {
		app->notify_rd = fds[0];
		app->notify_wr = fds[1];
		ret = fds[1];
		ltt_app_post_flush(app);	/* the app thread watches it */
	}
	pthread_mutex_unlock(&app->lock);
	return ret;
}

/* Records read a turn at most: a program that notifies flat out can't hold the thread. */
#define TURN_READS 64

/*
 * One record of @fd, which is one message, checked and handed to the
 * listener: 1, 0 when there is none, or -EPROTO when it is not exactly a
 * notification (longer than any, cut, or more than one: the program lies
 * or is broken).
 */
static int read_one(struct ltt_app_notify_reader *r, int fd)
{
	ssize_t n = recv(fd, r->buf, sizeof(r->buf), MSG_DONTWAIT | MSG_TRUNC);
	struct ltt_app_notify m;
	size_t len;

	if (n <= 0)
		return 0;	/* EAGAIN; the other end is ours too: never EOF */
	if ((size_t)n > sizeof(r->buf) || ltt_app_get_notify(r->buf, (size_t)n, &m, &len) ||
	    len != (size_t)n)
		return -EPROTO;
	if (r->listener->notified)
		r->listener->notified(r->listener->arg, r->app, &m);
	return 1;
}

/* The pause is over: read the socket again (the point is asked again then). */
static void on_pause_end(struct ltt_evloop *loop, void *arg)
{
	struct ltt_app_notify_reader *r = arg;

	(void)loop;
	if (r->watch)
		ltt_evloop_watch_set(r->watch, EPOLLIN);
}

/*
 * LTTng's test point, before a read (testpoint.h): true when @r's socket
 * is not to be read now; it is then left alone for TESTPOINT_PAUSE_NS.
 */
static bool testpoint_paused(struct ltt_evloop *loop, struct ltt_app_notify_reader *r)
{
	if (!LTT_TESTPOINT(sessiond_handle_notifier_event_pipe) &&
	    !__atomic_load_n(&notifier_consumption_paused, __ATOMIC_RELAXED))
		return false;
	if (!r->paused && ltt_evloop_timer_create(loop, on_pause_end, r, &r->paused))
		return false;	/* no timer: not paused rather than never read again */
	ltt_evloop_watch_set(r->watch, 0);
	ltt_evloop_timer_arm(r->paused, TESTPOINT_PAUSE_NS, 0);
	return true;
}

static void on_readable(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_app_notify_reader *r = arg;
	int i, ret = 1;

	(void)events;
	if (__builtin_expect(ltt_testpoints_on, 0) && testpoint_paused(loop, r))
		return;
	for (i = 0; i < TURN_READS && ret > 0; i++)
		ret = read_one(r, fd);
	if (ret >= 0)
		return;
	LTT_WARN_RL("%s (pid %ld) sent a malformed trigger notification: dropped",
		    r->app->procname, (long)r->app->pid);
	ltt_app_drop(r->app, "sent a malformed notification");
	ltt_evloop_unwatch(r->watch);
	r->watch = NULL;
}

void ltt_app_notify_watch(struct ltt_app_notify_reader *r, struct ltt_evloop *loop)
{
	int rd;

	pthread_mutex_lock(&r->app->lock);
	rd = r->app->notify_rd;
	pthread_mutex_unlock(&r->app->lock);
	if (rd < 0 || r->watch)
		return;
	if (ltt_evloop_watch(loop, rd, EPOLLIN, on_readable, r, &r->watch))
		LTT_WARN_RL("%s (pid %ld): can't watch its notification socket: its triggers won't fire",
			    r->app->procname, (long)r->app->pid);
}

void ltt_app_notify_close(struct ltt_app_notify_reader *r)
{
	unsigned int reads = 0;
	int fd;

	pthread_mutex_lock(&r->app->lock);
	fd = r->app->notify_rd;
	pthread_mutex_unlock(&r->app->lock);
	/* watched or not yet: what the program sent counts (its last counts too) */
	while (fd >= 0 && reads++ < DRAIN_READS && read_one(r, fd) > 0)
		;
	if (r->watch)
		ltt_evloop_unwatch(r->watch);
	r->watch = NULL;
	ltt_evloop_timer_destroy(r->paused);
	r->paused = NULL;
}
