// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay.c - a session's relay daemon, as the session daemon sees it (see
 * relay.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/codec.h"
#include "common/log.h"
#include "common/relay-proto.h"
#include "sessiond/relay.h"

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait for @events on @fd until @deadline (now_ms()); -ETIMEDOUT after. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int n;

	for (;;) {
		left = deadline - now_ms();
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/* Connect a non-blocking socket to @ai before @deadline. */
static int connect_one(const struct addrinfo *ai, int64_t deadline, int *ret_fd)
{
	socklen_t len = sizeof(int);
	int fd, err = 0, ret;

	fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, ai->ai_protocol);
	if (fd < 0)
		return -errno;
	if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
		ret = -errno;
		close(fd);
		return ret;
	}
	ret = wait_fd(fd, POLLOUT, deadline);
	if (!ret && getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len))
		ret = -errno;
	if (!ret && err)
		ret = -err;
	if (ret) {
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

/* Connect to the control port of @uri, trying each address in turn. */
static int connect_ctrl(const struct ltt_uri *uri, int64_t deadline, int *ret_fd)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char port[8];
	int ret;

	if (uri->family == LTT_URI_INET)
		hints.ai_family = AF_INET;
	else if (uri->family == LTT_URI_INET6)
		hints.ai_family = AF_INET6;
	snprintf(port, sizeof(port), "%u", uri->ctrl_port);
	ret = getaddrinfo(uri->host, port, &hints, &res);
	if (ret == EAI_SYSTEM)
		return -errno;
	if (ret == EAI_MEMORY)
		return -ENOMEM;
	if (ret)
		return -ENOENT;
	ret = -ENOENT;
	for (ai = res; ai; ai = ai->ai_next) {
		ret = connect_one(ai, deadline, ret_fd);
		if (!ret || ret == -ETIMEDOUT)
			break;
	}
	freeaddrinfo(res);
	return ret;
}

/* Send all of @buf on a non-blocking @fd before @deadline. */
static int send_all(int fd, const uint8_t *buf, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	while (len) {
		n = send(fd, buf, len, MSG_NOSIGNAL);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET || errno == EPIPE ? -EPROTO : -errno;
		ret = wait_fd(fd, POLLOUT, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/* Read exactly @len bytes before @deadline; a peer that closes is no relay. */
static int recv_all(int fd, uint8_t *buf, size_t len, int64_t deadline)
{
	ssize_t n;
	int ret;

	while (len) {
		n = recv(fd, buf, len, 0);
		if (n > 0) {
			buf += n;
			len -= (size_t)n;
			continue;
		}
		if (n == 0)
			return -EPROTO;
		if (errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET ? -EPROTO : -errno;
		ret = wait_fd(fd, POLLIN, deadline);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * VERSION {major, minor} on the control connection, big-endian after the
 * 24-byte header (relay-proto.h); the answer is the relay's own version.
 * Anything else than a version of major 2 is not a relay we speak to: a
 * small major is a relay of another generation, anything else no relay.
 */
static int handshake(int fd, int64_t deadline)
{
	uint8_t answer[8];
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t major;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_be64(&w, 0);		/* circuit id */
	ltt_wbuf_put_be64(&w, 8);		/* data size */
	ltt_wbuf_put_be32(&w, LTT_RELAY_VERSION);
	ltt_wbuf_put_be32(&w, 0);		/* command version */
	ltt_wbuf_put_be32(&w, LTT_RELAY_MAJOR);
	ltt_wbuf_put_be32(&w, LTT_RELAY_MINOR);
	ret = w.err ? w.err : send_all(fd, w.data, w.len, deadline);
	ltt_wbuf_fini(&w);
	if (!ret)
		ret = recv_all(fd, answer, sizeof(answer), deadline);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, answer, sizeof(answer));
	major = ltt_rbuf_get_be32(&r);
	if (major == LTT_RELAY_MAJOR)
		return 0;
	return major && major < 16 ? -EPROTONOSUPPORT : -EPROTO;
}

int ltt_relay_check(const struct ltt_uri *uri, int timeout_ms)
{
	int64_t deadline = now_ms() + timeout_ms;
	int fd = -1, ret;

	if (!uri || uri->scheme != LTT_URI_NET)
		return -EINVAL;
	ret = connect_ctrl(uri, deadline, &fd);
	if (!ret) {
		ret = handshake(fd, deadline);
		close(fd);
	}
	return ret;
}

enum ltt_error_code ltt_relay_error_code(int err)
{
	switch (err) {
	case 0:
		return LTT_ERR_OK;
	case -ENOENT:
		return LTT_ERR_RELAY_HOST;
	case -ECONNREFUSED:
		return LTT_ERR_RELAY_REFUSED;
	case -ETIMEDOUT:
		return LTT_ERR_RELAY_TIMEOUT;
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -EADDRNOTAVAIL:
		return LTT_ERR_RELAY_UNREACHABLE;
	case -EPROTO:
		return LTT_ERR_RELAY_NOT_RELAY;
	case -EPROTONOSUPPORT:
		return LTT_ERR_RELAY_VERSION;
	case -ECONNRESET:
	case -EPIPE:
		return LTT_ERR_RELAY_LOST;
	case -ENOMEM:
		return LTT_ERR_NOMEM;
	default:
		return LTT_ERR_RELAY_UNREACHABLE;
	}
}

/* The traced host's name as the relay files it (at most 63 bytes). */
static void host_name(char *buf, size_t len)
{
	if (gethostname(buf, len) || !buf[0])
		snprintf(buf, len, "localhost");
	buf[len - 1] = '\0';
}

int ltt_relay_attach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		     uint64_t key, const struct ltt_session *session)
{
	char ctrl[LTT_URI_TEXT_SIZE], data[LTT_URI_TEXT_SIZE], host[LTT_RELAY_HOST_NAME_MAX];
	struct ltt_consumer_add_relay m;
	struct ltt_uri net, port;
	int ret;

	if (session->output_type != LTT_OUTPUT_NET || ltt_uri_parse(session->output, &net))
		return -EINVAL;
	if (ltt_uri_net_port(&net, 0, &port) || ltt_uri_format(&port, ctrl, sizeof(ctrl)) ||
	    ltt_uri_net_port(&net, 1, &port) || ltt_uri_format(&port, data, sizeof(data)))
		return -EINVAL;
	host_name(host, sizeof(host));
	m = (struct ltt_consumer_add_relay){
		.relay_key = key,
		.ctrl_url = ctrl,
		.data_url = data,
		.hostname = host,
		.session_name = session->name,
		.base_path = net.path,
		.live_timer_us = session->live_timer_us,
		.session_id = session->id,
		.creation_time = (uint64_t)session->creation_time,
	};
	ret = ltt_consumer_add_relay(c, &m, link->output_path, sizeof(link->output_path));
	if (ret) {
		LTT_ERR("session '%s': the consumer can't stream to the relay %s: %s",
			session->name, session->output, strerror(-ret));
		link->error = ret;
		return ret;
	}
	LTT_INFO("session '%s': streaming to %s, written there in %s", session->name,
		 session->output, link->output_path);
	link->key = key;
	link->consumer_gen = gen;
	link->error = 0;
	return 0;
}

/* Is @link attached to @c, the consumer of generation @gen, right now? */
static bool attached_to(const struct ltt_relay_link *link, const struct ltt_consumer *c,
			uint64_t gen)
{
	return link->key && c && gen == link->consumer_gen;
}

void ltt_relay_detach(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen)
{
	int ret;

	if (attached_to(link, c, gen)) {
		ret = ltt_consumer_del_relay(c, link->key);
		if (ret)
			LTT_WARN("relay connection %llu not closed cleanly: %s",
				 (unsigned long long)link->key, strerror(-ret));
	}
	link->key = 0;
	link->consumer_gen = 0;
}

int ltt_relay_pending(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      bool *ret_pending)
{
	bool pending = false;
	int ret;

	*ret_pending = false;
	if (!link->key)
		return link->error ? -ECONNRESET : 0;
	if (!attached_to(link, c, gen)) {
		/* The consumer that held the connection died with it. */
		link->error = -ECONNRESET;
		return -ECONNRESET;
	}
	ret = ltt_consumer_relay_data_pending(c, link->key, &pending);
	if (ret) {
		if (!link->error)
			link->error = ret;
		return -ECONNRESET;
	}
	*ret_pending = pending;
	return 0;
}

void ltt_relay_status(struct ltt_relay_link *link, struct ltt_consumer *c, uint64_t gen,
		      struct ltt_relay_info *ret)
{
	struct ltt_consumer_relay_status_reply st = { 0 };
	int err;

	ret->state = LTT_RELAY_STATE_NONE;
	ret->error = 0;
	snprintf(ret->output_path, sizeof(ret->output_path), "%s", link->output_path);
	if (!link->key) {
		if (link->error) {
			ret->state = LTT_RELAY_STATE_LOST;
			ret->error = -link->error;
		}
		return;
	}
	err = attached_to(link, c, gen) ? ltt_consumer_relay_status(c, link->key, &st) : -EPIPE;
	if (err) {
		/* The consumer died, taking the connection with it. */
		ret->state = LTT_RELAY_STATE_LOST;
		ret->error = -err;
		return;
	}
	ret->state = st.conn_error ? LTT_RELAY_STATE_LOST : LTT_RELAY_STATE_CONNECTED;
	ret->error = -st.conn_error;
	ret->packets_sent = st.packets_sent;
	ret->bytes_sent = st.bytes_sent;
	ret->packets_lost = st.packets_lost;
}
