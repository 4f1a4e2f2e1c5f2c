// SPDX-License-Identifier: LGPL-2.1-only
/*
 * relay-conn.c - connecting to ltt-relayd and its control handshake.
 */
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/epoll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/log.h"
#include "common/model/uri.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"

uint64_t ltt_relay_conn_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

int ltt_relay_conn_ms_left(uint64_t deadline)
{
	uint64_t now = ltt_relay_conn_now_ms();

	return now >= deadline ? 0 : (int)(deadline - now);
}

/* Wait for @fd to be ready for @events, until @deadline.  0 or -ETIMEDOUT. */
static int wait_fd(int fd, short events, uint64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int n;

	for (;;) {
		n = poll(&pfd, 1, ltt_relay_conn_ms_left(deadline));
		if (n > 0)
			return 0;
		if (n == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

/* One address: a non-blocking connect within the deadline. */
static int connect_addr(const struct addrinfo *ai, uint64_t deadline, int *ret_fd)
{
	socklen_t len = sizeof(int);
	int fd, err = 0, one = 1;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		err = -errno;
	} else {
		err = wait_fd(fd, POLLOUT, deadline);
		if (!err && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
			err = errno;
		err = err > 0 ? -err : err;
	}
	if (err) {
		close(fd);
		return err;
	}
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	*ret_fd = fd;
	return 0;
}

int ltt_relay_conn_connect(int family, const char *host, uint16_t port_nr, uint64_t deadline,
			   int *ret_fd)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *p;
	char port[8];
	int ret;

	hints.ai_family = family == LTT_URI_INET ? AF_INET :
			  family == LTT_URI_INET6 ? AF_INET6 : AF_UNSPEC;
	snprintf(port, sizeof(port), "%u", port_nr);
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret == EAI_NONAME || ret == EAI_FAIL || ret == EAI_NODATA)
		return -ENOENT;
	if (ret == EAI_MEMORY)
		return -ENOMEM;
	if (ret)
		return ret == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	ret = -EHOSTUNREACH;
	for (p = ai; p; p = p->ai_next) {
		ret = connect_addr(p, deadline, ret_fd);
		if (!ret || ret == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(ai);
	return ret;
}

int ltt_relay_conn_open(int family, const char *host, uint16_t port,
			struct ltt_xport_ctx *tls, uint64_t deadline, const char *label,
			struct ltt_xport **ret_x)
{
	struct ltt_xport *x;
	int fd, ret;

	ret = ltt_relay_conn_connect(family, host, port, deadline, &fd);
	if (ret)
		return ret;
	ret = ltt_xport_create(fd, tls, host, &x);
	if (ret) {
		close(fd);
		return ret;
	}
	ret = ltt_xport_handshake_until(x, deadline);
	if (ret) {
		LTT_ERR("%s: the TLS handshake with port %u failed: %s", label, (unsigned int)port,
			ltt_xport_error(x)[0] ? ltt_xport_error(x) : strerror(-ret));
		ltt_xport_destroy(x);
		return ret == -ETIMEDOUT ? ret : -EKEYREJECTED;	/* no TLS there counts too */
	}
	*ret_x = x;
	return 0;
}

/* Wait for @x to be ready for what its last -EAGAIN wants, until @deadline. */
static int wait_x(struct ltt_xport *x, uint64_t deadline)
{
	return wait_fd(ltt_xport_fd(x), ltt_xport_events(x) == EPOLLOUT ? POLLOUT : POLLIN,
		       deadline);
}

/*
 * Move all of @len bytes, or fail, within the deadline: sent from @out,
 * or (@out NULL) received into @in, where a close is -EPROTO.
 */
static int move_all(struct ltt_xport *x, const void *out, void *in, size_t len,
		    uint64_t deadline)
{
	size_t done = 0;
	ssize_t n;
	int ret;

	while (done < len) {
		if (out)
			n = ltt_xport_write(x, (const uint8_t *)out + done, len - done);
		else
			n = ltt_xport_read(x, (uint8_t *)in + done, len - done);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (!out && (n == 0 || n == -ECONNRESET))
			return -EPROTO;		/* closed: not the relay we expect */
		if (n != -EAGAIN)
			return (int)n;
		ret = wait_x(x, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/* One request of the handshake: header + @pl. */
static int send_request(struct ltt_xport *x, uint32_t cmd, const struct ltt_wbuf *pl, uint64_t deadline)
{
	struct ltt_relay_ctrl_hdr h = { .data_size = pl->len, .cmd = cmd };
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_relay_put_ctrl_hdr(&w, &h);
	ltt_wbuf_put_bytes(&w, pl->data, pl->len);
	ret = w.err ? w.err : pl->err;
	if (!ret)
		ret = move_all(x, w.data, NULL, w.len, deadline);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * Send request @cmd with @pl (finalized here), receive its fixed-size
 * reply of @len bytes into @buf, and set @rb to read it.
 */
static int call(struct ltt_xport *x, uint32_t cmd, struct ltt_wbuf *pl, uint8_t *buf, size_t len,
		uint64_t deadline, struct ltt_rbuf *rb)
{
	int ret = send_request(x, cmd, pl, deadline);

	ltt_wbuf_fini(pl);
	if (!ret)
		ret = move_all(x, NULL, buf, len, deadline);
	if (!ret)
		ltt_rbuf_init(rb, buf, len);
	return ret;
}

/* VERSION: the same major, and a minor we can speak. */
int ltt_relay_conn_version(struct ltt_xport *x, uint64_t deadline, const char *label, uint32_t *ret_minor)
{
	struct ltt_relay_version v = { LTT_RELAY_MAJOR, LTT_RELAY_MINOR }, got;
	uint8_t buf[8];
	struct ltt_wbuf pl;
	struct ltt_rbuf rb;
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_version(&pl, &v);
	ret = call(x, LTT_RELAY_VERSION, &pl, buf, sizeof(buf), deadline, &rb);
	if (ret == -EKEYREJECTED)	/* TLS 1.3: a refused certificate shows here */
		LTT_ERR("%s: the relay refused the TLS connection: %s", label, ltt_xport_error(x));
	if (ret)
		return ret;
	if (ltt_relay_get_version(&rb, &got))
		return -EPROTO;
	/* A small major is a relay of another generation; anything else, no relay. */
	if (got.major == 0 || got.major >= 16)
		return -EPROTO;
	if (got.major != LTT_RELAY_MAJOR) {
		LTT_ERR("%s: the relay speaks protocol %u.%u, we %u.%u", label, got.major,
			got.minor, LTT_RELAY_MAJOR, LTT_RELAY_MINOR);
		return -EPROTONOSUPPORT;
	}
	if (got.minor < LTT_RELAY_MINOR_MIN) {
		LTT_ERR("%s: the relay speaks protocol %u.%u, we need %u.%u at least", label,
			got.major, got.minor, LTT_RELAY_MAJOR, LTT_RELAY_MINOR_MIN);
		return -EPROTONOSUPPORT;
	}
	if (ret_minor)
		*ret_minor = got.minor < LTT_RELAY_MINOR ? got.minor : LTT_RELAY_MINOR;
	return 0;
}

/* CREATE_SESSION: our one session on this connection. */
int ltt_relay_conn_create_session(struct ltt_xport *x, const struct ltt_relay_conn_session *cfg,
				  uint32_t minor, uint64_t deadline, const char *label,
				  uint64_t *ret_id, char *ret_path, size_t path_len)
{
	struct ltt_relay_create_session_reply *rep = NULL;
	struct ltt_relay_create_session *m;
	uint8_t head[16], *buf = NULL;
	struct ltt_wbuf pl;
	struct ltt_rbuf rb;
	uint32_t len;
	int ret;

	if (cfg->trace_format == LTT_TRACE_FORMAT_CTF_2 && minor < LTT_RELAY_MINOR_TRACE_FORMAT) {
		LTT_ERR("%s: the relay speaks protocol 2.%u, and CTF 2 traces need 2.%u (LTTng 2.15's relay, or ltt-relayd of this version): the session's traces would be taken for CTF 1.8's",
			label, (unsigned int)minor, (unsigned int)LTT_RELAY_MINOR_TRACE_FORMAT);
		return -EPROTONOSUPPORT;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->trace_format = cfg->trace_format == LTT_TRACE_FORMAT_CTF_2 ? LTT_RELAY_TRACE_FORMAT_CTF_2 :
								     LTT_RELAY_TRACE_FORMAT_CTF_1_8;
	snprintf(m->session_name, sizeof(m->session_name), "%s", cfg->session_name);
	snprintf(m->hostname, sizeof(m->hostname), "%s", cfg->hostname);
	snprintf(m->base_path, sizeof(m->base_path), "%s", cfg->base_path ? cfg->base_path : "");
	m->live_timer_us = cfg->live_timer_us;
	m->session_id = cfg->session_id;
	m->creation_time = cfg->creation_time;
	if (cfg->uuid)
		memcpy(m->sessiond_uuid, cfg->uuid, sizeof(m->sessiond_uuid));
	ltt_wbuf_init(&pl);
	ltt_relay_put_create_session(&pl, m, minor);
	free(m);
	ret = send_request(x, LTT_RELAY_CREATE_SESSION, &pl, deadline);
	ltt_wbuf_fini(&pl);
	if (!ret)
		ret = move_all(x, NULL, head, sizeof(head), deadline);
	if (ret)
		return ret;
	len = (uint32_t)head[12] << 24 | (uint32_t)head[13] << 16 | (uint32_t)head[14] << 8 |
	      head[15];
	if (len > LTT_RELAY_PATH_MAX)
		return -EPROTO;
	buf = malloc(sizeof(head) + len);
	rep = malloc(sizeof(*rep));
	ret = !buf || !rep ? -ENOMEM : 0;
	if (!ret) {
		memcpy(buf, head, sizeof(head));
		ret = move_all(x, NULL, buf + sizeof(head), len, deadline);
	}
	if (!ret) {
		ltt_rbuf_init(&rb, buf, sizeof(head) + len);
		ret = ltt_relay_get_create_session_reply(&rb, rep) ? -EPROTO : 0;
	}
	if (!ret && rep->ret_code != LTT_RELAY_OK) {
		LTT_ERR("%s: the relay refused the session: %s", label,
			ltt_relay_ret_str(rep->ret_code));
		ret = -EREMOTEIO;
	}
	if (!ret) {
		*ret_id = rep->relay_session_id;
		snprintf(ret_path, path_len, "%s", rep->output_path);
	}
	free(buf);
	free(rep);
	return ret;
}


int ltt_relay_conn_get_configuration(struct ltt_xport *x, uint64_t deadline, const char *label,
				     uint64_t *ret_flags)
{
	struct ltt_relay_get_configuration_reply rep;
	struct ltt_wbuf pl;
	struct ltt_rbuf rb;
	uint8_t buf[12];
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_u64_msg(&pl, 0);
	ret = call(x, LTT_RELAY_GET_CONFIGURATION, &pl, buf, sizeof(buf), deadline, &rb);
	if (ret)
		return ret;
	if (ltt_relay_get_get_configuration_reply(&rb, &rep))
		return -EPROTO;
	if (rep.ret_code != LTT_RELAY_OK)
		LTT_WARN("%s: the relay did not give its configuration: %s", label,
			 ltt_relay_ret_str(rep.ret_code));
	*ret_flags = rep.ret_code == LTT_RELAY_OK ? rep.flags : 0;
	return 0;
}

int ltt_relay_conn_create_chunk(struct ltt_xport *x, uint64_t chunk_id, uint64_t creation_time,
				uint64_t deadline, const char *label)
{
	struct ltt_relay_create_chunk m = { .chunk_id = chunk_id, .creation_time = creation_time };
	struct ltt_wbuf pl;
	struct ltt_rbuf rb;
	uint32_t code;
	uint8_t buf[4];
	int ret;

	ltt_wbuf_init(&pl);
	ltt_relay_put_create_chunk(&pl, &m);
	ret = call(x, LTT_RELAY_CREATE_TRACE_CHUNK, &pl, buf, sizeof(buf), deadline, &rb);
	if (ret)
		return ret;
	if (ltt_relay_get_ret(&rb, &code))
		return -EPROTO;
	if (code != LTT_RELAY_OK) {
		LTT_ERR("%s: the relay refused the session's trace chunk: %s", label,
			ltt_relay_ret_str(code));
		return -EREMOTEIO;
	}
	return 0;
}

int ltt_relay_conn_reconcile(struct ltt_xport *x, const struct ltt_relay_reconcile_stream *req,
			     uint64_t deadline, uint64_t *ret_seqs, uint32_t *ret_count,
			     uint32_t *ret_code)
{
	struct ltt_relay_reconcile_reply rep;
	uint8_t head[8], *body = NULL;
	struct ltt_wbuf pl;
	struct ltt_rbuf rb;
	uint32_t i;
	int ret;

	*ret_count = 0;
	ltt_wbuf_init(&pl);
	ltt_relay_put_reconcile_stream(&pl, req);
	ret = call(x, LTT_RELAY_RECONCILE_STREAM, &pl, head, sizeof(head), deadline, &rb);
	if (ret)
		return ret;
	if (ltt_relay_get_reconcile_reply(&rb, &rep) || rep.count > LTT_RELAY_RECONCILE_MAX ||
	    (rep.count && rep.ret_code != LTT_RELAY_OK))
		return -EPROTO;
	if (rep.count) {
		body = malloc((size_t)rep.count * 8);
		if (!body)
			return -ENOMEM;
		ret = move_all(x, NULL, body, (size_t)rep.count * 8, deadline);
	}
	if (!ret) {
		ltt_rbuf_init(&rb, body, (size_t)rep.count * 8);
		for (i = 0; i < rep.count; i++)
			ret_seqs[i] = ltt_rbuf_get_be64(&rb);
		ret = ltt_rbuf_end(&rb) ? -EPROTO : 0;
	}
	free(body);
	if (ret)
		return ret;
	*ret_count = rep.count;
	*ret_code = rep.ret_code;
	return 0;
}
