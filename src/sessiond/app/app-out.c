// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-out.c - commands to programs (see app-out.h): sent without ever
 * blocking the sender, what the socket does not take queued on the
 * program and written by the app thread as the program reads; acks waited
 * for with a deadline.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/thread.h"
#include "common/proto/msg.h"
#include "sessiond/app/app.h"

/* A command the program has not taken yet. */
struct ltt_app_out {
	struct ltt_app_out *next;
	uint8_t *buf;		/* header and payload */
	size_t len;
	size_t off;		/* sent so far */
	int *fds;		/* duplicates, passed with the first byte */
	unsigned int nr_fds;
};

static void out_free(struct ltt_app_out *o)
{
	unsigned int i;

	for (i = 0; i < o->nr_fds; i++)
		close(o->fds[i]);
	free(o->fds);
	free(o->buf);
	free(o);
}

void ltt_app_mark_dead_locked(struct ltt_app *app)
{
	if (!app->dead) {
		app->dead = true;
		shutdown(app->fd, SHUT_RDWR);
		pthread_cond_broadcast(&app->acked_cond);
	}
}

/*
 * Send what the socket takes of @o now.  Returns 0 (maybe partly sent:
 * see o->off) or a negative errno other than -EAGAIN.  app->lock held.
 */
static int out_send(int fd, struct ltt_app_out *o)
{
	struct iovec iov = { .iov_base = o->buf + o->off, .iov_len = o->len - o->off };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	char cbuf[CMSG_SPACE(LTT_MSG_MAX_FDS * sizeof(int))];
	struct cmsghdr *cmsg;
	ssize_t n;

	while (o->off < o->len) {
		iov.iov_base = o->buf + o->off;
		iov.iov_len = o->len - o->off;
		mh.msg_control = NULL;
		mh.msg_controllen = 0;
		if (!o->off && o->nr_fds) {
			/* The fds go with the first byte. */
			memset(cbuf, 0, sizeof(cbuf));
			mh.msg_control = cbuf;
			mh.msg_controllen = CMSG_SPACE(o->nr_fds * sizeof(int));
			cmsg = CMSG_FIRSTHDR(&mh);
			cmsg->cmsg_level = SOL_SOCKET;
			cmsg->cmsg_type = SCM_RIGHTS;
			cmsg->cmsg_len = CMSG_LEN(o->nr_fds * sizeof(int));
			memcpy(CMSG_DATA(cmsg), o->fds, o->nr_fds * sizeof(int));
		}
		n = sendmsg(fd, &mh, MSG_NOSIGNAL | MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno;
		}
		o->off += (size_t)n;
	}
	return 0;
}

void ltt_app_post_flush(struct ltt_app *app)
{
	if (app->flush_posted || !app->loop)
		return;
	app->flush_posted = true;
	ltt_app_get(app);	/* the job's */
	ltt_evloop_post(app->loop, &app->flush_job);
}

/* A command for @app, as it goes on the wire; its fds not yet attached. */
static struct ltt_app_out *out_new(uint16_t type, uint32_t seq, const struct ltt_wbuf *payload)
{
	struct ltt_msg_hdr hdr = { .magic = LTT_APP_MAGIC, .type = type, .seq = seq };
	size_t len = payload ? payload->len : 0;
	struct ltt_app_out *o;

	if (len > LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE)
		return NULL;
	o = calloc(1, sizeof(*o));
	if (o)
		o->buf = malloc(LTT_MSG_HDR_SIZE + len);
	if (!o || !o->buf) {
		free(o);
		return NULL;
	}
	hdr.payload_len = (uint32_t)len;
	ltt_msg_hdr_encode(&hdr, o->buf);
	if (len)
		memcpy(o->buf + LTT_MSG_HDR_SIZE, payload->data, len);
	o->len = LTT_MSG_HDR_SIZE + len;
	return o;
}

/* Keep duplicates of @fds with @o, to pass when its first byte goes. */
static int out_take_fds(struct ltt_app_out *o, const int *fds, unsigned int nr_fds)
{
	o->fds = calloc(nr_fds, sizeof(int));
	if (!o->fds)
		return -ENOMEM;
	for (o->nr_fds = 0; o->nr_fds < nr_fds; o->nr_fds++) {
		o->fds[o->nr_fds] = fcntl(fds[o->nr_fds], F_DUPFD_CLOEXEC, 3);
		if (o->fds[o->nr_fds] < 0)
			return -errno;
	}
	return 0;
}

/* Send @o now if nothing waits before it, else (or for what is left) queue it. */
static int send_or_queue(struct ltt_app *app, struct ltt_app_out *o, const int *fds,
			 unsigned int nr_fds)
{
	int ret;

	if (!app->outq) {
		o->fds = (int *)fds;	/* borrowed for this one try */
		o->nr_fds = nr_fds;
		ret = out_send(app->fd, o);
		o->fds = NULL;
		o->nr_fds = 0;
		if (ret || o->off == o->len)
			return ret;
		if (o->off)
			nr_fds = 0;	/* they went with the first byte */
	}
	if (app->outq_bytes + o->len - o->off > LTT_APP_OUTQ_MAX)
		return -ENOBUFS;
	if (nr_fds) {
		ret = out_take_fds(o, fds, nr_fds);
		if (ret)
			return ret;
	}
	app->outq_bytes += o->len - o->off;
	*app->outq_tail = o;
	app->outq_tail = &o->next;
	ltt_app_post_flush(app);
	return 1;	/* queued: no longer the caller's */
}

int ltt_app_send(struct ltt_app *app, uint16_t type, const struct ltt_wbuf *payload,
		 const int *fds, unsigned int nr_fds, uint32_t *ret_seq)
{
	struct ltt_app_out *o;
	uint32_t seq;
	int ret;

	if (payload && payload->err)
		return payload->err;
	if (nr_fds > LTT_MSG_MAX_FDS)
		return -EINVAL;
	pthread_mutex_lock(&app->lock);
	if (app->dead) {
		pthread_mutex_unlock(&app->lock);
		return -EPIPE;
	}
	seq = ++app->seq_sent;
	o = out_new(type, seq, payload);
	ret = o ? send_or_queue(app, o, fds, nr_fds) : -ENOMEM;
	if (ret < 0) {
		LTT_WARN_RL("%s (pid %ld): can't send %s: %s; dropping it", app->procname,
			    (long)app->pid, ltt_app_msg_name(type),
			    ret == -ENOBUFS ? "it leaves its commands unread" : strerror(-ret));
		ltt_app_mark_dead_locked(app);
	}
	if (ret <= 0 && o)
		out_free(o);
	pthread_mutex_unlock(&app->lock);
	if (ret >= 0 && ret_seq)
		*ret_seq = seq;
	return ret < 0 ? ret : 0;
}

bool ltt_app_ended(struct ltt_app *app, uint32_t *ret_seq)
{
	bool dead;

	pthread_mutex_lock(&app->lock);
	dead = app->dead;
	if (ret_seq)
		*ret_seq = app->seq_sent;
	pthread_mutex_unlock(&app->lock);
	return dead;
}

void ltt_app_drop(struct ltt_app *app, const char *why)
{
	pthread_mutex_lock(&app->lock);
	if (!app->dead)
		LTT_WARN_RL("%s (pid %ld) %s: dropped", app->procname, (long)app->pid, why);
	ltt_app_mark_dead_locked(app);
	pthread_mutex_unlock(&app->lock);
}

int ltt_app_wait_ack(struct ltt_app *app, uint32_t seq, int timeout_ms)
{
	struct timespec deadline;
	int ret = 0;

	ltt_deadline_in(CLOCK_REALTIME, (uint64_t)timeout_ms * 1000000ULL, &deadline);
	pthread_mutex_lock(&app->lock);
	/* seq numbers wrap: compare by difference */
	while (!app->dead && (int32_t)(app->seq_acked - seq) < 0 && ret == 0)
		ret = pthread_cond_timedwait(&app->acked_cond, &app->lock, &deadline);
	if (app->dead && (int32_t)(app->seq_acked - seq) < 0)
		ret = -EPIPE;
	else if (ret)
		ret = -ETIMEDOUT;
	pthread_mutex_unlock(&app->lock);
	return ret;
}

void ltt_app_outq_free(struct ltt_app *app)
{
	while (app->outq) {
		struct ltt_app_out *o = app->outq;

		app->outq = o->next;
		out_free(o);
	}
	app->outq_tail = &app->outq;
	app->outq_bytes = 0;
}

int ltt_app_outq_flush(struct ltt_app *app, bool *ret_progress, bool *ret_left)
{
	struct ltt_app_out *o;
	int ret = 0;

	*ret_progress = false;
	pthread_mutex_lock(&app->lock);
	while ((o = app->outq) && !app->dead) {
		size_t before = o->off;

		ret = out_send(app->fd, o);
		app->outq_bytes -= o->off - before;
		if (ret || o->off < o->len)
			break;
		app->outq = o->next;
		if (!app->outq)
			app->outq_tail = &app->outq;
		out_free(o);
		*ret_progress = true;
	}
	*ret_left = app->outq != NULL;
	if (app->dead)
		ret = -EPIPE;
	pthread_mutex_unlock(&app->lock);
	return ret;
}
