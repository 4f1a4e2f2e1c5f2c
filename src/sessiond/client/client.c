// SPDX-License-Identifier: GPL-2.0-only
/*
 * client.c - the client thread (see client.h); a connection's state is
 * client-conn.c's, the notifications to subscribers client-notify.c's.
 *
 * One event loop (common/base/evloop.h) over the listening socket and every
 * connection; the worker of each client user posts the commands it ran
 * (and the jobs run as that user: ltt_client_thread_run_as()) back to it.
 * Connections are non-blocking: a request is gathered piece by piece as
 * bytes arrive and a reply is written as the peer drains it, so a slow or
 * stuck client only ever delays itself.  A connection has at most one
 * request in progress, and one deadline timer for the state it is in:
 * HELLO within LTT_CLIENT_HELLO_TIMEOUT_MS of connecting, a request begun
 * whole within LTT_CLIENT_RECV_TIMEOUT_MS, a reply taken within
 * LTT_CLIENT_SEND_TIMEOUT_MS, and the next request within the idle
 * timeout (cfg.idle_timeout_ms: LTT_CLIENT_IDLE_TIMEOUT_S by default, 0
 * never); past it, the connection is closed.  A user (root
 * excepted) holds at most cfg.max_per_uid connections; before HELLO a
 * request is at most LTT_CLIENT_PRE_HELLO_MAX bytes, and a request's
 * buffer grows as its bytes arrive, within the bytes its user may hold
 * at once in all their client connections (cfg.budget; their programs
 * have a budget of their own): one that
 * would pass it is read to its end without being kept and answered
 * CLIENT_BYTES.  Logs a client can trigger are rate-limited.
 */
#include <errno.h>
#include <grp.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "common/base/budget.h"
#include "common/base/evloop.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "common/proto/trigger-proto.h"
#include "sessiond/client/client-conn.h"
#include "sessiond/client/client-notify.h"
#include "sessiond/client/client-workers.h"
#include "sessiond/client/client.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/model/trigger.h"
#include "sessiond/client/worker.h"

/* Does the peer process on @fd have @gid among its supplementary groups? */
static bool peer_in_group(int fd, gid_t gid)
{
	gid_t groups[1024];
	socklen_t len = sizeof(groups);
	size_t i;

	if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, groups, &len))
		return false;
	for (i = 0; i < len / sizeof(gid_t); i++)
		if (groups[i] == gid)
			return true;
	return false;
}

/*
 * May the peer on @fd use this daemon?  Root always; for a personal daemon
 * its owner; for the root daemon the members of the tracing group, by the
 * process's own groups (primary or supplementary) or the user's.
 */
static bool peer_allowed(const struct ltt_client_thread *t, int fd, const struct ucred *cred)
{
	gid_t groups[256];
	int i, n = (int)(sizeof(groups) / sizeof(groups[0]));
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (cred->uid == 0)
		return true;
	if (!t->cfg.root_daemon)
		return cred->uid == geteuid();
	if (!t->cfg.has_tracing_group)
		return false;
	if (cred->gid == t->cfg.tracing_gid || peer_in_group(fd, t->cfg.tracing_gid))
		return true;
	if (getpwuid_r(cred->uid, &pw, buf, sizeof(buf), &res) || !res)
		return false;
	if (getgrouplist(pw.pw_name, pw.pw_gid, groups, &n) < 0)
		return false;
	for (i = 0; i < n; i++)
		if (groups[i] == t->cfg.tracing_gid)
			return true;
	return false;
}

/*
 * LTTng's wire: @body is the whole reply (ltt_lttng_compat_run()), else
 * an LTTng error for @status; the connection ends with it, as LTTng's.
 */
static void queue_lttng_reply(struct conn *c, enum ltt_error_code status,
			      const struct ltt_wbuf *body)
{
	const uint8_t *msg = c->payload && c->payload_got >= LTT_LTTNG_MSG_SIZE ? c->payload : NULL;

	ltt_wbuf_reset(&c->out);
	c->out_off = 0;
	c->reply_by = ltt_evloop_now_ns() + LTT_CLIENT_SEND_TIMEOUT_MS * NS_PER_MS;
	c->closing = true;
	if (!status && body)
		ltt_wbuf_put_bytes(&c->out, body->data, body->len);
	else
		ltt_lttng_compat_error(msg, c->lttng_gen, status, &c->out);
	if (c->out.err)
		ltt_wbuf_reset(&c->out);	/* no memory for the reply: close */
}

/*
 * LTTng's wire: the reply just queued passes @fds (taken): on one more
 * byte, which conn_write() sends with them, as LTTng's client receives
 * them after the reply (one recvmsg of a byte).
 */
static void queue_fds(struct conn *c, struct ltt_lttng_fds *fds)
{
	if (!fds->nr)
		return;
	ltt_wbuf_put_u8(&c->out, 0);
	if (c->out.err) {	/* no memory for the byte: no reply (closed) */
		ltt_wbuf_reset(&c->out);
		ltt_lttng_fds_close(fds);
		return;
	}
	c->out_fds = *fds;
	fds->nr = 0;
}

/* Queue a reply header with @status and, on success, the payload in @body. */
static void queue_reply(struct conn *c, uint16_t cmd, enum ltt_error_code status,
			const struct ltt_wbuf *body)
{
	struct ltt_client_hdr hdr = {
		.magic = LTT_CLIENT_MAGIC,
		.cmd = cmd,
		.status = (uint32_t)status,
	};
	uint8_t *p;

	if (c->t->cfg.wire == LTT_CLIENT_WIRE_LTTNG) {
		queue_lttng_reply(c, status, body);
		return;
	}
	if (!status && body && body->len > LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE)
		hdr.status = LTT_ERR_LIMIT;
	if (!hdr.status && body)
		hdr.payload_len = (uint32_t)body->len;
	ltt_wbuf_reset(&c->out);
	c->out_off = 0;
	c->reply_by = ltt_evloop_now_ns() + LTT_CLIENT_SEND_TIMEOUT_MS * NS_PER_MS;
	p = ltt_wbuf_reserve(&c->out, LTT_CLIENT_HDR_SIZE);
	if (!p) {
		c->closing = true;
		return;
	}
	ltt_client_hdr_encode(&hdr, p);
	if (hdr.payload_len)
		ltt_wbuf_put_bytes(&c->out, body->data, body->len);
	if (c->out.err) {
		/* No memory for the reply: drop the client rather than lie. */
		ltt_wbuf_reset(&c->out);
		c->closing = true;
	}
}

static void handle_hello(struct conn *c, const struct ltt_client_hdr *hdr)
{
	struct ltt_wbuf body;
	struct ltt_rbuf r;
	uint32_t major, minor;

	ltt_rbuf_init(&r, c->payload, hdr->payload_len);
	major = ltt_rbuf_get_u32(&r);
	minor = ltt_rbuf_get_u32(&r);
	if (ltt_rbuf_end(&r)) {
		queue_reply(c, hdr->cmd, LTT_ERR_PROTOCOL, NULL);
		c->closing = true;
		return;
	}
	if (major != LTT_CLIENT_MAJOR) {
		LTT_WARN_RL("client pid %d speaks protocol %u.x, this daemon %u.x: refused",
			    (int)c->cred.pid, major, LTT_CLIENT_MAJOR);
		queue_reply(c, hdr->cmd, LTT_ERR_VERSION_MISMATCH, NULL);
		c->closing = true;
		return;
	}
	ltt_wbuf_init(&body);
	ltt_wbuf_put_u32(&body, LTT_CLIENT_MAJOR);
	ltt_wbuf_put_u32(&body, LTT_CLIENT_MINOR);
	ltt_wbuf_put_str(&body, PACKAGE_VERSION);
	queue_reply(c, hdr->cmd, body.err ? LTT_ERR_NOMEM : LTT_ERR_OK, &body);
	ltt_wbuf_fini(&body);
	c->hello_done = true;
	c->minor = minor < LTT_CLIENT_MINOR ? minor : LTT_CLIENT_MINOR;
}

/*
 * SUBSCRIBE {str trigger}: the connection becomes a notification channel
 * for the caller's trigger (root: also the only one of that name), or for
 * every trigger of the caller's when the name is "".
 */
static void handle_subscribe(struct ltt_client_thread *t, struct conn *c)
{
	enum ltt_error_code err = LTT_ERR_OK;
	struct ltt_trigger *trig = NULL;
	const char *name;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, c->payload, c->hdr.payload_len);
	name = ltt_rbuf_get_str(&r, LTT_NAME_MAX);
	if (ltt_rbuf_end(&r))
		err = LTT_ERR_PROTOCOL;
	else if (c->minor < LTT_CLIENT_MINOR_TRIGGER || !t->cfg.triggers)
		err = LTT_ERR_NOT_SUPPORTED;
	else if (name[0] && !(trig = ltt_triggers_find(t->cfg.triggers, name, c->cred.uid)))
		err = LTT_ERR_TRIGGER_NOT_FOUND;
	if (!err) {
		c->sub = true;
		c->sub_owner = trig ? trig->owner : c->cred.uid;
		snprintf(c->sub_name, sizeof(c->sub_name), "%s", name);
	}
	ltt_triggers_put(t->cfg.triggers, trig);
	queue_reply(c, c->hdr.cmd, err, NULL);
}

/* A command running on the worker. */
struct cmd_job {
	struct ltt_evloop_job job;	/* posted to the worker, then back */
	struct conn *c;
	uid_t uid;			/* whose worker runs it */
	struct ltt_cmd_ctx ctx;
	uint16_t cmd;
	bool lttng;			/* LTTng's wire: payload is its request */
	uint8_t *payload;
	uint32_t len;
	struct ltt_wbuf reply;
	struct ltt_lttng_fds fds;	/* LTTng's wire: what the reply passes */
	enum ltt_error_code status;
};

static void cmd_job_free(struct cmd_job *job)
{
	ltt_wbuf_fini(&job->reply);
	ltt_lttng_fds_close(&job->fds);
	free(job->payload);
	free(job);
}

/* Back on the client thread: reply. */
static void cmd_job_done(struct ltt_evloop *loop, struct ltt_evloop_job *j)
{
	struct cmd_job *job = (struct cmd_job *)j;
	struct conn *c = job->c;

	(void)loop;
	ltt_client_worker_put(c->t, job->uid);
	c->busy = false;
	ltt_client_conn_budget_set(c, 0);	/* the worker's copy of the request is freed below */
	queue_reply(c, job->cmd, job->status, &job->reply);
	if (!job->status && c->t->cfg.wire == LTT_CLIENT_WIRE_LTTNG)
		queue_fds(c, &job->fds);
	if (ltt_client_conn_rearm(c))
		ltt_client_conn_destroy(c->t, c);
	cmd_job_free(job);
}

/* On the worker: run the command, hand the job back to the client thread. */
static void cmd_job_run(struct ltt_evloop *loop, struct ltt_evloop_job *j)
{
	struct cmd_job *job = (struct cmd_job *)j;

	(void)loop;
	if (job->lttng)
		job->status = ltt_lttng_compat_run(&job->ctx, job->payload, job->len, &job->reply,
						   &job->fds);
	else
		job->status = ltt_cmd_dispatch(&job->ctx, job->cmd, job->payload, job->len,
					       &job->reply);
	job->job.fn = cmd_job_done;
	ltt_evloop_post(job->c->t->srv.loop, &job->job);
}

/* Hand @c's request to its user's worker.  Returns 0, or -ENOMEM (run it here). */
static int submit(struct ltt_client_thread *t, struct conn *c, const struct ltt_cmd_ctx *ctx)
{
	struct uid_worker *w = ltt_client_worker_get(t, c->cred.uid, LTT_MAX_CLIENTS + RUN_AS_WORKERS);
	struct cmd_job *job = w ? calloc(1, sizeof(*job)) : NULL;

	if (!job) {
		if (w && !w->jobs)
			ltt_client_worker_put_idle(t, w);
		return -ENOMEM;
	}
	w->jobs++;
	job->uid = c->cred.uid;
	job->job.fn = cmd_job_run;
	job->c = c;
	job->ctx = *ctx;
	job->cmd = c->hdr.cmd;
	job->lttng = t->cfg.wire == LTT_CLIENT_WIRE_LTTNG;
	job->payload = c->payload;	/* taken */
	job->len = c->hdr.payload_len;
	ltt_wbuf_init(&job->reply);
	c->payload = NULL;
	c->payload_cap = 0;
	c->busy = true;
	ltt_worker_submit(w->worker, &job->job);
	return 0;
}

/* A whole request is in: run it (or have the worker run it) and queue the reply. */
static void handle_request(struct ltt_client_thread *t, struct conn *c)
{
	struct ltt_cmd_ctx ctx = {
		.registry = t->cfg.registry,
		.domains = t->cfg.domains,
		.cred = c->cred,
		.client_fd = c->fd,
		.minor = c->minor,
		.rundir = t->cfg.rundir,
		.lttng_gen = c->lttng_gen,
	};
	struct ltt_wbuf body;
	enum ltt_error_code ret;

	if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG) {
		/* every LTTng command on the worker; here only without memory for the job */
		if (submit(t, c, &ctx)) {
			struct ltt_lttng_fds fds = { .nr = 0 };

			ltt_wbuf_init(&body);
			ret = ltt_lttng_compat_run(&ctx, c->payload, c->hdr.payload_len, &body, &fds);
			queue_reply(c, c->hdr.cmd, ret, &body);
			if (!ret)
				queue_fds(c, &fds);
			ltt_lttng_fds_close(&fds);
			ltt_wbuf_fini(&body);
		}
	} else if (c->hello_done && ltt_cmd_may_wait(c->hdr.cmd) && !submit(t, c, &ctx)) {
		/* The reply comes with the job; meanwhile the connection rests. */
	} else if (c->hdr.cmd == LTT_CLIENT_CMD_HELLO) {
		handle_hello(c, &c->hdr);
	} else if (c->hello_done && c->hdr.cmd == LTT_CLIENT_CMD_SUBSCRIBE) {
		handle_subscribe(t, c);
	} else if (!c->hello_done) {
		/* The protocol starts with HELLO; anything else ends the connection. */
		queue_reply(c, c->hdr.cmd, LTT_ERR_PROTOCOL, NULL);
		c->closing = true;
	} else {
		ltt_wbuf_init(&body);
		ret = ltt_cmd_dispatch(&ctx, c->hdr.cmd, c->payload, c->hdr.payload_len, &body);
		queue_reply(c, c->hdr.cmd, ret, &body);
		ltt_wbuf_fini(&body);
	}
	free(c->payload);
	c->payload = NULL;
	c->payload_cap = 0;
	if (!c->busy)
		ltt_client_conn_budget_set(c, 0);	/* else the worker's copy, until cmd_job_done() */
	c->hdr_got = 0;
	c->payload_got = 0;
}

/*
 * LTTng's wires have no header of ltt's: a connection starts where ltt's
 * would have read one announcing @len bytes (the client socket's fixed
 * request, the notification channel's 9-byte message header), which are
 * the payload; then lttng_sized() or conn_read() extends it by the
 * variable part they say.
 */
static void lttng_expect(struct conn *c, uint32_t len)
{
	c->hdr = (struct ltt_client_hdr){ .magic = LTT_CLIENT_MAGIC, .payload_len = len };
	c->hdr_got = LTT_CLIENT_HDR_SIZE;
	c->payload_got = 0;
	c->lttng_sized = false;
	c->msg_by = ltt_evloop_now_ns() + LTT_CLIENT_RECV_TIMEOUT_MS * NS_PER_MS;
}

/* LTTng's client socket: every connection one request, no HELLO. */
static void lttng_expect_request(struct conn *c)
{
	c->hello_done = true;
	c->minor = LTT_CLIENT_MINOR;
	lttng_expect(c, LTT_LTTNG_MSG_SIZE);
}

/* A whole notification channel message is in: answer it.  0, or -1 to drop @c. */
static int notif_request(struct conn *c)
{
	bool handshaken = c->hello_done;
	int ret;

	ret = ltt_lttng_notif_request(&c->lsubs, &c->cred, (enum ltt_lttng_gen)c->lttng_gen,
				      &handshaken, c->payload, c->hdr.payload_len, &c->out);
	free(c->payload);
	c->payload = NULL;
	c->payload_cap = 0;
	ltt_client_conn_budget_set(c, 0);
	if (ret < 0 || c->out.err)
		return -1;
	if (handshaken && !c->hello_done) {
		/* a subscriber from now on: no deadline, ltt's notifications of its own triggers */
		c->hello_done = true;
		c->sub = true;
		c->sub_owner = c->cred.uid;
		c->sub_name[0] = '\0';
	}
	c->closing = ret > 0;
	c->reply_by = ltt_evloop_now_ns() + LTT_CLIENT_SEND_TIMEOUT_MS * NS_PER_MS;
	lttng_expect(c, LTT_LTTNG_NOTIF_HDR_SIZE);
	return ltt_client_conn_rearm(c) ? -1 : 0;
}

/* The fixed request is in: true when a variable part follows (the request grew). */
static bool lttng_sized(struct conn *c)
{
	size_t extra;

	if (c->lttng_sized)
		return false;
	c->lttng_sized = true;
	extra = ltt_lttng_compat_extra(c->payload, c->lttng_gen);
	c->hdr.payload_len += (uint32_t)extra;
	return extra > 0;
}

/* A request header is whole: check it.  Returns 0, or -1 to drop the client. */
static int header_done(struct conn *c)
{
	/* A request carries no status. */
	if (ltt_client_hdr_decode(c->hdrbuf, &c->hdr) || c->hdr.status) {
		LTT_WARN_RL("client pid %d uid %u sent a malformed header: disconnected",
			    (int)c->cred.pid, (unsigned int)c->cred.uid);
		return -1;
	}
	if (!c->hello_done && c->hdr.payload_len > LTT_CLIENT_PRE_HELLO_MAX) {
		LTT_WARN_RL("client pid %d uid %u sent %u bytes before HELLO (at most %u): disconnected",
			    (int)c->cred.pid, (unsigned int)c->cred.uid, c->hdr.payload_len,
			    LTT_CLIENT_PRE_HELLO_MAX);
		return -1;
	}
	c->payload_cap = 0;
	c->skipping = false;
	return 0;
}

/*
 * The request would take more than its user's budget: read the rest of
 * it without keeping it, then answer CLIENT_BYTES (skip_done()).
 */
static void start_skipping(struct conn *c)
{
	LTT_WARN_RL("client pid %d uid %u: a request of %u bytes would pass the %llu bytes its user may hold at once (ltt-sessiond --max-bytes-per-uid): refused",
		    (int)c->cred.pid, (unsigned int)c->cred.uid, c->hdr.payload_len,
		    (unsigned long long)c->t->cfg.budget->limit);
	free(c->payload);
	c->payload = NULL;
	c->payload_cap = 0;
	ltt_client_conn_budget_set(c, 0);
	c->skipping = true;
}

/* Room for the next payload bytes: the buffer grows as they arrive. */
static int payload_room(struct conn *c)
{
	size_t want = c->hdr.payload_len - c->payload_got, cap;
	uint8_t *p;

	if (c->skipping || c->payload_got < c->payload_cap)
		return 0;
	/*
	 * Doubling, up to the whole payload: growing by 64 KiB past half of
	 * it would copy the buffer ~64 times for an 8 MiB request (quadratic:
	 * seconds under ASan, where a request must arrive within 5 s).  Never
	 * more than twice what arrived.
	 */
	cap = c->payload_cap + (want < 65536 ? want : 65536);
	if (cap < 2 * c->payload_cap)
		cap = 2 * c->payload_cap <= c->hdr.payload_len ? 2 * c->payload_cap :
								  c->hdr.payload_len;
	if (ltt_client_conn_budget_set(c, cap)) {
		start_skipping(c);
		return 0;
	}
	p = realloc(c->payload, cap ? cap : 1);
	if (!p) {
		ltt_client_conn_budget_set(c, c->payload_cap);
		return -1;
	}
	c->payload = p;
	c->payload_cap = cap;
	return 0;
}

/* Read what is there.  Returns 0 to keep the connection, -1 to drop it. */
static int conn_read(struct ltt_client_thread *t, struct conn *c)
{
	ssize_t n;

	/* ltt's notification channel takes no request: bytes or EOF end it; LTTng's does */
	if (c->sub && t->cfg.wire != LTT_CLIENT_WIRE_LTTNG_NOTIF)
		return -1;
	for (;;) {
		if (c->hdr_got < LTT_CLIENT_HDR_SIZE) {
			n = read(c->fd, c->hdrbuf + c->hdr_got, LTT_CLIENT_HDR_SIZE - c->hdr_got);
		} else {
			if (c->payload_got == c->hdr.payload_len)
				goto complete;
			if (payload_room(c))
				return -1;
			if (c->skipping)
				n = read(c->fd, t->skip_buf,
					 c->hdr.payload_len - c->payload_got < sizeof(t->skip_buf) ?
					 c->hdr.payload_len - c->payload_got : sizeof(t->skip_buf));
			else
				n = read(c->fd, c->payload + c->payload_got,
					 c->payload_cap - c->payload_got);
		}
		if (n == 0)
			return -1;	/* peer closed */
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		if (c->hdr_got < LTT_CLIENT_HDR_SIZE) {
			if (!c->hdr_got) {	/* a request begins */
				c->msg_by = ltt_evloop_now_ns() +
					    LTT_CLIENT_RECV_TIMEOUT_MS * NS_PER_MS;
				c->hdr_got = (size_t)n;
				ltt_client_conn_deadline(c);
			} else {
				c->hdr_got += (size_t)n;
			}
			if (c->hdr_got < LTT_CLIENT_HDR_SIZE)
				continue;
			if (header_done(c))
				return -1;
			continue;
		}
		c->payload_got += (size_t)n;
		if (c->payload_got < c->hdr.payload_len)
			continue;
complete:
		if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG_NOTIF) {
			if (c->skipping)
				return -1;	/* past its user's budget: LTTng's channel has no error to say it */
			if (!c->lttng_sized) {
				size_t extra = ltt_lttng_notif_extra(c->payload);

				c->lttng_sized = true;
				if (!extra) {
					LTT_WARN_RL("LTTng notification client pid %d uid %u sent a malformed message: disconnected",
						    (int)c->cred.pid, (unsigned int)c->cred.uid);
					return -1;
				}
				c->hdr.payload_len += (uint32_t)extra;
				continue;	/* its payload, at the top of the loop */
			}
			return notif_request(c);
		}
		if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG && !c->skipping && lttng_sized(c))
			continue;	/* the variable part, at the top of the loop */
		if (c->skipping) {
			queue_reply(c, c->hdr.cmd, LTT_ERR_CLIENT_BYTES, NULL);
			c->skipping = false;
			c->hdr_got = 0;
			c->payload_got = 0;
		} else {
			handle_request(t, c);
		}
		return ltt_client_conn_rearm(c) ? -1 : 0;
	}
}

/* The reply's last byte with its descriptors (then closed): 1, or -1 (errno). */
static ssize_t send_fds(struct conn *c)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int) * LTT_LTTNG_REPLY_FDS)];
	} u;
	struct iovec iov = { .iov_base = c->out.data + c->out.len - 1, .iov_len = 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = u.buf };
	size_t bytes = sizeof(int) * c->out_fds.nr;
	ssize_t n;

	memset(&u, 0, sizeof(u));
	m.msg_controllen = CMSG_SPACE(bytes);
	u.h.cmsg_level = SOL_SOCKET;
	u.h.cmsg_type = SCM_RIGHTS;
	u.h.cmsg_len = CMSG_LEN(bytes);
	memcpy(CMSG_DATA(&u.h), c->out_fds.fd, bytes);
	n = sendmsg(c->fd, &m, MSG_NOSIGNAL | MSG_DONTWAIT);
	if (n > 0)
		ltt_lttng_fds_close(&c->out_fds);
	return n;
}

/* Write what the peer takes.  Returns 0 to keep the connection, -1 to drop it. */
static int conn_write(struct conn *c)
{
	while (c->out_off < c->out.len) {
		/* the last byte carries the descriptors, if any (queue_fds()) */
		size_t end = c->out.len - (c->out_fds.nr ? 1 : 0);
		ssize_t n = c->out_off < end ?
			send(c->fd, c->out.data + c->out_off, end - c->out_off,
			     MSG_NOSIGNAL | MSG_DONTWAIT) :
			send_fds(c);

		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -1;
		c->out_off += (size_t)n;
	}
	ltt_wbuf_reset(&c->out);
	c->out_off = 0;
	if (c->closing)
		return -1;
	c->idle_since = ltt_evloop_now_ns();
	return ltt_client_conn_rearm(c) ? -1 : 0;
}

/* Connections of @uid now served. */
static unsigned int conns_of(const struct ltt_client_thread *t, uid_t uid)
{
	unsigned int i, n = 0;

	for (i = 0; i < LTT_MAX_CLIENTS; i++)
		if (t->conns[i] && t->conns[i]->cred.uid == uid)
			n++;
	return n;
}

/* Tell a client why it is refused, then close: one small write, no wait. */
static void refuse(int fd, enum ltt_error_code status)
{
	struct ltt_client_hdr hdr = { .magic = LTT_CLIENT_MAGIC, .status = status };
	uint8_t buf[LTT_CLIENT_HDR_SIZE];

	ltt_client_hdr_encode(&hdr, buf);
	if (send(fd, buf, sizeof(buf), MSG_NOSIGNAL | MSG_DONTWAIT) < 0)
		LTT_DBG("refusing a client: %s", strerror(errno));
	close(fd);
}

static void on_conn(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct conn *c = arg;
	int ret;

	(void)loop, (void)fd;
	if (events & EPOLLOUT)
		ret = conn_write(c);
	else if (events & EPOLLIN)
		ret = conn_read(c->t, c);
	else
		ret = -1;	/* hang-up or error with nothing to read */
	if (ret)
		ltt_client_conn_destroy(c->t, c);
}

/* Close a connection past its deadline: silent or slow clients can't hold the slots. */
static void on_deadline(struct ltt_evloop *loop, void *arg)
{
	struct conn *c = arg;

	(void)loop;
	if (!c->hello_done)
		LTT_WARN_RL("client pid %d uid %u said nothing in %d ms: disconnected",
			    (int)c->cred.pid, (unsigned int)c->cred.uid, LTT_CLIENT_HELLO_TIMEOUT_MS);
	else
		LTT_WARN_RL("client pid %d uid %u: %s: disconnected", (int)c->cred.pid,
			    (unsigned int)c->cred.uid,
			    c->out.len ? "did not take its reply in time" :
			    c->hdr_got ? "a request did not arrive whole in time" : "idle too long");
	ltt_client_conn_destroy(c->t, c);
}

static void accept_one(struct ltt_evloop *loop, int fd, void *arg)
{
	struct ltt_client_thread *t = arg;
	struct ucred cred;
	struct conn *c;
	unsigned int n;
	size_t i;

	/* LTTng's client thread stuck (tests of its health socket, common/proto/lttng-health.c) */
	if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG)
		ltt_fault_point("lttng-client-accept");
	if (ltt_sock_peer_cred(fd, &cred)) {
		close(fd);
		return;
	}
	if (!peer_allowed(t, fd, &cred)) {
		LTT_WARN_RL("client pid %d uid %u is not root nor in group '%s': refused",
			    (int)cred.pid, (unsigned int)cred.uid, t->cfg.tracing_group);
		refuse(fd, LTT_ERR_PERM);
		return;
	}
	/* One user may not take every slot from the others (root may). */
	if (t->nr_conns >= LTT_MAX_CLIENTS) {
		LTT_WARN_RL("too many clients (%u): pid %d uid %u refused", t->nr_conns,
			    (int)cred.pid, (unsigned int)cred.uid);
		refuse(fd, LTT_ERR_CLIENTS_TOTAL);
		return;
	}
	if (cred.uid != 0 && (n = conns_of(t, cred.uid)) >= t->cfg.max_per_uid) {
		LTT_WARN_RL("uid %u has %u client connections (at most %u, ltt-sessiond --max-clients-per-uid): pid %d refused",
			    (unsigned int)cred.uid, n, t->cfg.max_per_uid, (int)cred.pid);
		refuse(fd, LTT_ERR_CLIENTS_PER_UID);
		return;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		refuse(fd, LTT_ERR_NOMEM);
		return;
	}
	c->t = t;
	c->fd = fd;
	c->cred = cred;
	ltt_wbuf_init(&c->out);
	for (i = 0; i < LTT_MAX_CLIENTS && t->conns[i]; i++)
		;
	t->conns[i] = c;
	t->nr_conns++;
	if (ltt_evloop_timer_create(loop, on_deadline, c, &c->deadline) ||
	    ltt_evloop_watch(loop, fd, EPOLLIN, on_conn, c, &c->watch)) {
		ltt_client_conn_destroy(t, c);
		return;
	}
	c->hello_by = ltt_evloop_now_ns() + LTT_CLIENT_HELLO_TIMEOUT_MS * NS_PER_MS;
	/* LTTng 2.16's or 2.13's: its requests do not say, its library does */
	if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG || t->cfg.wire == LTT_CLIENT_WIRE_LTTNG_NOTIF)
		c->lttng_gen = (uint8_t)ltt_lttng_peer_gen(fd, cred.pid);
	if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG)
		lttng_expect_request(c);
	else if (t->cfg.wire == LTT_CLIENT_WIRE_LTTNG_NOTIF)
		lttng_expect(c, LTT_LTTNG_NOTIF_HDR_SIZE);	/* its handshake first */
	ltt_client_conn_deadline(c);
}

/* A job of ltt_client_thread_run_as(): to a worker and back, as a command's. */
struct run_as_job {
	struct ltt_evloop_job job;
	struct ltt_client_thread *t;
	uid_t uid;
	void (*fn)(void *arg, int err);
	void *arg;
};

/* Back on the client thread, @fn run: its worker may stop. */
static void run_as_done(struct ltt_evloop *loop, struct ltt_evloop_job *j)
{
	struct run_as_job *job = (struct run_as_job *)j;

	(void)loop;
	ltt_client_worker_put(job->t, job->uid);
	free(job);
}

/* On @uid's worker. */
static void run_as_run(struct ltt_evloop *loop, struct ltt_evloop_job *j)
{
	struct run_as_job *job = (struct run_as_job *)j;

	(void)loop;
	job->fn(job->arg, 0);
	job->job.fn = run_as_done;
	ltt_evloop_post(job->t->srv.loop, &job->job);
}

/* On the client thread: to @uid's worker, which this thread alone starts and stops. */
static void run_as_submit(struct ltt_evloop *loop, struct ltt_evloop_job *j)
{
	struct run_as_job *job = (struct run_as_job *)j;
	/*
	 * A new worker only while fewer than RUN_AS_WORKERS run: the clients,
	 * at most LTT_MAX_CLIENTS more, always find a slot.
	 */
	struct uid_worker *w = ltt_client_worker_get(job->t, job->uid, RUN_AS_WORKERS);

	(void)loop;
	if (!w) {
		job->fn(job->arg, -EAGAIN);
		free(job);
		return;
	}
	w->jobs++;
	job->job.fn = run_as_run;
	ltt_worker_submit(w->worker, &job->job);
}

void ltt_client_thread_run_as(struct ltt_client_thread *t, uid_t uid,
			      void (*fn)(void *arg, int err), void *arg)
{
	struct run_as_job *job = calloc(1, sizeof(*job));

	if (!job) {
		fn(arg, -ENOMEM);
		return;
	}
	job->job.fn = run_as_submit;
	job->t = t;
	job->uid = uid;
	job->fn = fn;
	job->arg = arg;
	ltt_evloop_post(t->srv.loop, &job->job);
}

/*
 * A job the client thread or a worker did not run, the threads stopping:
 * a command's, a notification's or one of ltt_client_thread_run_as()
 * (told -ESHUTDOWN if its function never ran).
 */
static void job_free(struct ltt_evloop_job *j)
{
	struct run_as_job *r = (struct run_as_job *)j;

	if (j->fn == ltt_client_notify_job_run) {
		ltt_client_notify_job_free((struct notify_job *)j);
	} else if (j->fn == run_as_submit || j->fn == run_as_run || j->fn == run_as_done) {
		if (j->fn != run_as_done)
			r->fn(r->arg, -ESHUTDOWN);
		free(r);
	} else {
		cmd_job_free((struct cmd_job *)j);
	}
}

/*
 * The client thread's timer of idle workers, made before it starts;
 * without it (no memory), a worker stops with its user's last command.
 */
static int add_idle_timer(struct ltt_evloop *loop, void *arg)
{
	static struct ltt_testpoint tp = LTT_TESTPOINT_INIT(sessiond_thread_manage_clients);
	static const struct ltt_evloop_point points[] = { { &tp, LTT_LTTNG_HEALTH_CMD } };
	struct ltt_client_thread *t = arg;

	ltt_evloop_set_tag(loop, t->cfg.health_tag);
	if (t->cfg.health_tag)	/* LTTng's client thread's test point */
		ltt_evloop_set_points(loop, points, 1);
	if (ltt_evloop_timer_create(loop, ltt_client_workers_idle, t, &t->idle))
		t->idle = NULL;
	return 0;
}

int ltt_client_thread_start(const struct ltt_client_thread_config *cfg,
			    struct ltt_client_thread **ret_thread)
{
	struct ltt_client_thread *t = calloc(1, sizeof(*t));
	int ret;

	if (t)
		t->cfg = *cfg;
	*ret_thread = ltt_evloop_server_adopt(t, t ? &t->srv : NULL, cfg->listen_fd,
					      SOCK_CLOEXEC | SOCK_NONBLOCK, "clients", accept_one,
					      add_idle_timer, "client thread", &ret);
	return ret;
}

void ltt_client_thread_stop(struct ltt_client_thread *t)
{
	size_t i;

	if (!t)
		return;
	ltt_evloop_server_stop(&t->srv);
	/*
	 * Let the running command finish; those not replied to are dropped:
	 * the ones never run, then the ones run and posted back to us.
	 */
	while (t->nr_workers)
		ltt_evloop_jobs_drop(ltt_worker_stop(t->workers[--t->nr_workers].worker), job_free);
	ltt_evloop_jobs_drop(ltt_evloop_take_jobs(t->srv.loop), job_free);
	for (i = 0; i < LTT_MAX_CLIENTS; i++)
		if (t->conns[i])
			ltt_client_conn_destroy(t, t->conns[i]);
	ltt_evloop_server_fini(&t->srv);
	free(t);
}
