// SPDX-License-Identifier: GPL-2.0-only
/*
 * server.c - listening sockets, connections, buffers and deadlines for
 * the control and data servers (server.h).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/base/dlist.h"
#include "common/base/evloop.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/net/xport.h"
#include "relayd/server.h"

/* How long to stop accepting after running out of descriptors. */
#define RESUME_NS (100 * 1000 * 1000ULL)
/* Connections refused past the most are logged at most this often. */
#define REFUSE_LOG_NS (10 * 1000 * 1000 * 1000ULL)

static void peer_name(int fd, char *buf, size_t len)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);
	char addr[INET6_ADDRSTRLEN];

	if (getpeername(fd, (struct sockaddr *)&ss, &sl)) {
		snprintf(buf, len, "fd %d", fd);
		return;
	}
	if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *sin6 = (const struct sockaddr_in6 *)&ss;

		inet_ntop(AF_INET6, &sin6->sin6_addr, addr, sizeof(addr));
		snprintf(buf, len, "[%s]:%u", addr, ntohs(sin6->sin6_port));
	} else if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *sin = (const struct sockaddr_in *)&ss;

		inet_ntop(AF_INET, &sin->sin_addr, addr, sizeof(addr));
		snprintf(buf, len, "%s:%u", addr, ntohs(sin->sin_port));
	} else {
		snprintf(buf, len, "fd %d", fd);
	}
}

static void conn_close(struct ltt_relay_conn *conn)
{
	struct ltt_relay_server *srv = conn->server;

	if (conn->state && srv->ops->closed)
		srv->ops->closed(conn);
	ltt_evloop_unwatch(conn->watch);
	ltt_evloop_timer_destroy(conn->deadline);
	ltt_evloop_timer_destroy(conn->again);
	ltt_xport_destroy(conn->x);
	LTT_DLIST_UNLINK(srv->conns, conn);
	srv->conn_count--;
	if (conn->waiting)
		srv->waiting_count--;
	ltt_wbuf_fini(&conn->out);
	free(conn->state);
	free(conn);
}

static size_t out_left(const struct ltt_relay_conn *conn)
{
	return conn->out.len - conn->out_pos;
}

/* Send what the socket takes; 0, or a negative errno (logged). */
static int flush_out(struct ltt_relay_conn *conn)
{
	while (out_left(conn)) {
		ssize_t n = ltt_xport_write(conn->x, conn->out.data + conn->out_pos, out_left(conn));

		if (n == -EAGAIN)
			return 0;
		if (n < 0) {
			LTT_WARN_RL("%s connection from %s: can't send: %s", conn->server->ops->name,
				 conn->peer, n == -EKEYREJECTED ? ltt_xport_error(conn->x) :
				 strerror((int)-n));
			return (int)n;
		}
		conn->out_pos += (size_t)n;
	}
	ltt_wbuf_reset(&conn->out);
	conn->out_pos = 0;
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
}

void ltt_relay_conn_update(struct ltt_relay_conn *conn)
{
	struct ltt_relay_server *srv = conn->server;
	bool stalled = out_left(conn) > 0;
	uint32_t events = 0;

	if (!conn->shaken) {
		/* the handshake's own wait; the hello deadline bounds it */
		ltt_evloop_watch_set(conn->watch, ltt_xport_events(conn->x));
		return;
	}
	if (!conn->closing && out_left(conn) < LTT_RELAY_MAX_PENDING_OUT &&
	    !(srv->ops->paused && srv->ops->paused(conn)))
		events |= EPOLLIN;
	if (stalled)
		events |= EPOLLOUT;
	ltt_evloop_watch_set(conn->watch, events);
	if ((events & EPOLLIN) && ltt_xport_pending(conn->x))
		ltt_evloop_timer_arm(conn->again, 1, 0);	/* epoll can't see them */
	if (conn->hello && srv->ops->established(conn)) {
		conn->hello = false;
		if (conn->waiting)
			srv->waiting_count--;
		conn->waiting = false;
	}
	if (conn->hello) {
		uint64_t now = now_ns(), left = conn->hello_end > now ? conn->hello_end - now : 0;

		if ((stalled || conn->closing || srv->ops->busy(conn)) && srv->idle_ns < left)
			left = srv->idle_ns;
		ltt_evloop_timer_arm(conn->deadline, left ? left : 1, 0);
	} else if (stalled || conn->closing || srv->ops->busy(conn))
		ltt_evloop_timer_arm(conn->deadline, srv->bound_idle_ns, 0);
	else
		ltt_evloop_timer_disarm(conn->deadline);
}

/*
 * The connection's one timer: a peer that has not sent its first message
 * (conn->hello) gets idle_ns from the accept, whatever it sends meanwhile
 * (then ->may_wait decides); afterwards, bound_idle_ns without progress
 * in the middle of a message or with replies unsent.
 */
static void on_deadline(struct ltt_evloop *loop, void *arg)
{
	struct ltt_relay_conn *conn = arg;
	struct ltt_relay_server *srv = conn->server;

	bool hello_over = conn->hello && now_ns() >= conn->hello_end;

	(void)loop;
	/*
	 * Only a peer that finished its TLS handshake (on a plain relay, any
	 * that sent nothing malformed: none half-sent) may hold a silent
	 * slot: a stranger's connections that never speak TLS took them from
	 * members' idle sessions (issue 61).
	 */
	if (hello_over && conn->shaken && srv->ops->may_wait && !conn->closing &&
	    !srv->ops->busy(conn) && srv->ops->may_wait(conn)) {
		if (!conn->waiting) {
			srv->waiting_count++;
			LTT_DBG("%s connection from %s: silent past %llu ms, kept (%u silent)",
				srv->ops->name, conn->peer,
				(unsigned long long)(srv->hello_ns / 1000000), srv->waiting_count);
		}
		conn->waiting = true;
		conn->hello_end = now_ns() + srv->hello_ns;
		ltt_evloop_timer_arm(conn->deadline, srv->hello_ns, 0);
		return;
	}
	if (hello_over && !conn->closing && !conn->shaken)
		LTT_WARN_RL("%s connection from %s: no TLS handshake within %llu ms of connecting: closed",
			    srv->ops->name, conn->peer,
			    (unsigned long long)(srv->hello_ns / 1000000));
	else if (hello_over && !conn->closing)
		LTT_WARN_RL("%s connection from %s: no %s within %llu ms of connecting: closed",
			 srv->ops->name, conn->peer, srv->ops->first,
			 (unsigned long long)(srv->hello_ns / 1000000));
	else if (!conn->closing)
		LTT_WARN_RL("%s connection from %s: no progress for %llu ms in the middle of a message: closed",
			 srv->ops->name, conn->peer,
			 (unsigned long long)((conn->hello ? srv->idle_ns : srv->bound_idle_ns) / 1000000));
	conn_close(conn);
}

/* The TLS handshake's next step: 0 (done or waiting), or -errno (logged). */
static int handshake(struct ltt_relay_conn *conn)
{
	char subject[256];
	int ret = ltt_xport_handshake(conn->x);

	if (ret == -EAGAIN)
		return 0;
	if (ret) {
		LTT_WARN_RL("%s connection from %s: TLS handshake failed: %s: closed",
			 conn->server->ops->name, conn->peer,
			 ltt_xport_error(conn->x)[0] ? ltt_xport_error(conn->x) : strerror(-ret));
		return ret;
	}
	conn->shaken = true;
	ltt_xport_peer_subject(conn->x, subject, sizeof(subject));
	LTT_INFO_RL("%s connection from %s: TLS 1.3, client %s", conn->server->ops->name,
		    conn->peer, subject);
	return 0;
}

static void on_conn(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_relay_conn *conn = arg;
	int ret = 0;

	(void)loop;
	(void)fd;
	if (!conn->shaken) {
		ret = handshake(conn);
		if (ret || !conn->shaken) {
			if (ret)
				conn_close(conn);
			else
				ltt_relay_conn_update(conn);
			return;
		}
		events = EPOLLIN;
	}
	if (events & EPOLLOUT)
		ret = flush_out(conn);
	/* after EPOLLOUT too: requests already buffered may wait for room */
	if (!ret && !conn->closing) {
		ret = conn->server->ops->readable(conn);
		if (ret == -ECONNRESET)
			LTT_INFO_RL("%s connection from %s closed by the peer",
				 conn->server->ops->name, conn->peer);
	}
	if (!ret && conn->closing && !out_left(conn))
		ret = -ECONNRESET;
	if (!ret && conn->closing && (events & (EPOLLHUP | EPOLLERR)))
		ret = -ECONNRESET;	/* replies nobody will read */
	if (ret) {
		conn_close(conn);
		return;
	}
	ltt_relay_conn_update(conn);
}

void ltt_relay_conn_kick(struct ltt_relay_conn *conn)
{
	if (conn->shaken)
		on_conn(conn->server->loop, ltt_xport_fd(conn->x), 0, conn);
}

/* Decrypted bytes wait in the TLS connection: read them as if epoll said so. */
static void on_again(struct ltt_evloop *loop, void *arg)
{
	struct ltt_relay_conn *conn = arg;

	on_conn(loop, ltt_xport_fd(conn->x), EPOLLIN, conn);
}

/* A connection on accepted socket @fd, which it takes (closed on failure too). */
static int conn_create(struct ltt_relay_server *srv, int fd)
{
	struct ltt_relay_conn *conn = calloc(1, sizeof(*conn));
	int one = 1, ret;

	if (!conn) {
		close(fd);
		return -ENOMEM;
	}
	conn->server = srv;
	ltt_wbuf_init(&conn->out);
	peer_name(fd, conn->peer, sizeof(conn->peer));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	conn->state = calloc(1, srv->ops->state_size ? srv->ops->state_size : 1);
	ret = conn->state ? 0 : -ENOMEM;
	if (!ret)
		ret = ltt_evloop_timer_create(srv->loop, on_deadline, conn, &conn->deadline);
	if (!ret && srv->tls)
		ret = ltt_evloop_timer_create(srv->loop, on_again, conn, &conn->again);
	if (!ret)
		ret = ltt_xport_create(fd, srv->tls, NULL, &conn->x);
	if (!ret)
		ret = ltt_evloop_watch(srv->loop, fd, EPOLLIN, on_conn, conn, &conn->watch);
	if (!ret) {
		conn->hello = true;
		conn->hello_end = now_ns() + srv->hello_ns;
		ltt_evloop_timer_arm(conn->deadline, srv->hello_ns, 0);
	}
	if (ret) {
		ltt_evloop_timer_destroy(conn->deadline);
		ltt_evloop_timer_destroy(conn->again);
		if (conn->x)
			ltt_xport_destroy(conn->x);	/* closes fd */
		else
			close(fd);
		free(conn->state);
		free(conn);
		return ret;
	}
	conn->shaken = !srv->tls;
	LTT_DLIST_PUSH(srv->conns, conn);
	srv->conn_count++;
	LTT_INFO_RL("%s connection from %s", srv->ops->name, conn->peer);
	return 0;
}

static void on_resume(struct ltt_evloop *loop, void *arg)
{
	struct ltt_relay_server *srv = arg;

	(void)loop;
	ltt_evloop_watch_set(srv->listen_watch, EPOLLIN);
}

/* A connection refused: log it, at most once every REFUSE_LOG_NS. */
static void refuse_log(struct ltt_relay_server *srv, const char *peer)
{
	uint64_t now = now_ns();

	srv->refused++;
	if (srv->refused_log_ns && now - srv->refused_log_ns < REFUSE_LOG_NS)
		return;
	LTT_WARN("%s port: %u connections already, the most: refusing %s (%u refused since the "
		 "last such message)", srv->ops->name, srv->conn_count, peer, srv->refused);
	srv->refused = 0;
	srv->refused_log_ns = now;
}

void ltt_relay_server_set_bound_idle(struct ltt_relay_server *srv, unsigned int ms)
{
	uint64_t ns = (uint64_t)ms * 1000000;

	srv->bound_idle_ns = ns > srv->idle_ns ? ns : srv->idle_ns;
}

void ltt_relay_server_set_max_conns(struct ltt_relay_server *srv, unsigned int max)
{
	if (max < 1)
		max = 1;
	srv->max_conns = max < LTT_RELAY_MAX_CONNS ? max : LTT_RELAY_MAX_CONNS;
}

static void on_accept(struct ltt_evloop *loop, int lfd, uint32_t events, void *arg)
{
	struct ltt_relay_server *srv = arg;
	char peer[64];
	int fd, i;

	(void)loop;
	(void)events;
	ltt_fault_point("relay-accept");	/* the thread stuck (LTTng's health socket's tests) */
	for (i = 0; i < 64; i++) {
		fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && errno == EINTR)
			continue;
		if (fd < 0 && (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
			       errno == ENOMEM)) {
			LTT_ERR("%s port: can't accept a connection: %s; pausing 100 ms",
				srv->ops->name, strerror(errno));
			ltt_evloop_watch_set(srv->listen_watch, 0);
			ltt_evloop_timer_arm(srv->resume, RESUME_NS, 0);
			return;
		}
		if (fd < 0)
			return;	/* EAGAIN, or an error of that one connection */
		if (srv->conn_count >= srv->max_conns) {
			peer_name(fd, peer, sizeof(peer));
			refuse_log(srv, peer);
			close(fd);
			continue;
		}
		if (conn_create(srv, fd))	/* fd closed */
			LTT_ERR("%s port: out of memory for a connection", srv->ops->name);
	}
}

int ltt_relay_server_start(struct ltt_evloop *loop, struct ltt_relay_model *model,
			   const struct ltt_relay_proto_ops *ops, int listen_fd, unsigned int idle_ms,
			   unsigned int hello_ms, struct ltt_relay_server **ret_server)
{
	struct ltt_relay_server *srv;
	int ret;

	if (!loop || !model || !ops || listen_fd < 0 || !ret_server)
		return -EINVAL;
	srv = calloc(1, sizeof(*srv));
	if (!srv)
		return -ENOMEM;
	srv->loop = loop;
	srv->model = model;
	srv->ops = ops;
	srv->listen_fd = -1;
	srv->idle_ns = (uint64_t)idle_ms * 1000000;
	srv->bound_idle_ns = srv->idle_ns;
	srv->hello_ns = (uint64_t)hello_ms * 1000000;
	srv->max_conns = LTT_RELAY_MAX_CONNS;
	ret = ltt_evloop_timer_create(loop, on_resume, srv, &srv->resume);
	if (!ret)
		ret = ltt_evloop_watch(loop, listen_fd, EPOLLIN, on_accept, srv, &srv->listen_watch);
	if (ret) {
		ltt_evloop_timer_destroy(srv->resume);
		free(srv);
		return ret;
	}
	srv->listen_fd = listen_fd;
	*ret_server = srv;
	return 0;
}

void ltt_relay_server_stop(struct ltt_relay_server *srv)
{
	if (!srv)
		return;
	while (srv->conns)
		conn_close(srv->conns);
	ltt_evloop_unwatch(srv->listen_watch);
	ltt_evloop_timer_destroy(srv->resume);
	ltt_fd_close(&srv->listen_fd);
	free(srv);
}

int ltt_relay_conn_read(struct ltt_relay_conn *conn, void *buf, size_t len, size_t *ret_len)
{
	ssize_t n = ltt_xport_read(conn->x, buf, len);

	if (n > 0) {
		*ret_len = (size_t)n;
		return 0;
	}
	if (n == 0 || n == -ECONNRESET)
		return -ECONNRESET;
	if (n == -EAGAIN)
		return -EAGAIN;
	LTT_WARN_RL("%s connection from %s: can't read: %s", conn->server->ops->name, conn->peer,
		 n == -EKEYREJECTED ? ltt_xport_error(conn->x) : strerror((int)-n));
	return (int)n;
}

void ltt_relay_server_set_tls(struct ltt_relay_server *srv, struct ltt_xport_ctx *tls)
{
	srv->tls = tls;
}

int ltt_relay_conn_send(struct ltt_relay_conn *conn, struct ltt_wbuf *w)
{
	if (w->err)
		return w->err;
	if (out_left(conn) == 0)
		ltt_wbuf_reset(&conn->out);
	ltt_wbuf_put_bytes(&conn->out, w->data, w->len);
	ltt_wbuf_reset(w);
	if (conn->out.err)
		return conn->out.err;
	return flush_out(conn);
}

void ltt_relay_conn_close_after_send(struct ltt_relay_conn *conn)
{
	conn->closing = true;
}
