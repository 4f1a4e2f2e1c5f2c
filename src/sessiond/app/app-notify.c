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

#include "common/log.h"
#include "sessiond/app/app.h"

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

/*
 * Hand each whole message in @r's buffer to the listener.  Returns 0, or
 * -EPROTO: the program sends what is not a notification (it lies or is
 * broken).
 */
static int parse(struct ltt_app_notify_reader *r)
{
	struct ltt_app_notify m;
	size_t off = 0, len;
	int ret = 0;

	while (off < r->len) {
		ret = ltt_app_get_notify(r->buf + off, r->len - off, &m, &len);
		if (ret)
			break;
		if (r->listener->notified)
			r->listener->notified(r->listener->arg, r->app, &m);
		off += len;
	}
	memmove(r->buf, r->buf + off, r->len - off);
	r->len -= off;
	return ret == -EAGAIN ? 0 : ret;
}

/* One read of @fd into @r, its messages handed on: bytes read (0: none), or -EPROTO. */
static ssize_t read_some(struct ltt_app_notify_reader *r, int fd)
{
	ssize_t n = read(fd, r->buf + r->len, sizeof(r->buf) - r->len);

	if (n <= 0)
		return 0;	/* EAGAIN; the other end is ours too: never EOF */
	r->len += (size_t)n;
	return parse(r) ? -EPROTO : n;
}

/*
 * The socket is readable: one read a turn, so that a program that
 * notifies flat out can't hold the thread.
 */
static void on_readable(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_app_notify_reader *r = arg;

	(void)loop, (void)events;
	if (read_some(r, fd) >= 0)
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

	if (!r->watch)
		return;
	pthread_mutex_lock(&r->app->lock);
	fd = r->app->notify_rd;
	pthread_mutex_unlock(&r->app->lock);
	while (reads++ < DRAIN_READS && read_some(r, fd) > 0)
		;
	ltt_evloop_unwatch(r->watch);
	r->watch = NULL;
}
