// SPDX-License-Identifier: LGPL-2.1-only
/*
 * bridge.c - the local plain-to-TLS bridge of lttctl view --live
 * (bridge.h): one poll() loop, a pair of connections per viewer, a
 * bounded buffer each way.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "common/net/net-module.h"
#include "common/net/relay-conn.h"
#include "ctl/bridge.h"

#define BUF_SIZE (64 * 1024)

/* Pending bytes one way: buf[off..len). */
struct half {
	uint8_t buf[BUF_SIZE];
	size_t off, len;
	bool eof;			/* its source closed */
};

struct pair {
	const struct ltt_net_module *net;	/* the TLS module, which serves @x */
	int fd;				/* the viewer's, plain */
	struct ltt_xport *x;		/* the relay's, TLS */
	struct half up;			/* viewer to relay */
	struct half down;		/* relay to viewer */
};

int ctl_bridge_listen(uint16_t port, int *ret_fd, uint16_t *ret_port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons(port) };
	socklen_t len = sizeof(sin);
	int fd, one = 1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) || listen(fd, 16) ||
	    getsockname(fd, (struct sockaddr *)&sin, &len)) {
		int ret = -errno;

		close(fd);
		return ret;
	}
	*ret_fd = fd;
	*ret_port = ntohs(sin.sin_port);
	return 0;
}

static void pair_close(struct pair **slot)
{
	if (!*slot)
		return;
	close((*slot)->fd);
	(*slot)->net->destroy((*slot)->x);
	free(*slot);
	*slot = NULL;
}

/*
 * Move what each side takes now, until nothing moves: TLS may hold
 * decrypted bytes poll() cannot see.  Returns 0, 1 when the pair is done,
 * or a negative errno.
 */
static int pump(struct pair *p)
{
	const struct ltt_net_module *net = p->net;
	bool moved = true;
	ssize_t n;

	while (moved) {
		moved = false;
		if (p->up.len == 0 && !p->up.eof) {
			n = recv(p->fd, p->up.buf, BUF_SIZE, MSG_DONTWAIT);
			if (n == 0)
				p->up.eof = true;
			else if (n < 0 && errno != EAGAIN && errno != EINTR)
				return -errno;
			if (n > 0) {
				p->up.len = (size_t)n;
				moved = true;
			}
		}
		while (p->up.off < p->up.len) {
			n = net->write(p->x, p->up.buf + p->up.off, p->up.len - p->up.off);
			if (n == -EAGAIN)
				break;
			if (n < 0)
				return (int)n;
			p->up.off += (size_t)n;
			moved = true;
		}
		if (p->up.off == p->up.len)
			p->up.off = p->up.len = 0;
		if (p->down.len == 0 && !p->down.eof) {
			n = net->read(p->x, p->down.buf, BUF_SIZE);
			if (n == 0 || n == -ECONNRESET)
				p->down.eof = true;
			else if (n < 0 && n != -EAGAIN)
				return (int)n;
			if (n > 0) {
				p->down.len = (size_t)n;
				moved = true;
			}
		}
		while (p->down.off < p->down.len) {
			n = send(p->fd, p->down.buf + p->down.off, p->down.len - p->down.off,
				 MSG_DONTWAIT | MSG_NOSIGNAL);
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				break;
			if (n < 0)
				return -errno;
			p->down.off += (size_t)n;
			moved = true;
		}
		if (p->down.off == p->down.len)
			p->down.off = p->down.len = 0;
	}
	return (p->up.eof && !p->up.len) || (p->down.eof && !p->down.len) ? 1 : 0;
}

/* What each socket of @p waits for, into @pfd[0] (viewer) and @pfd[1] (relay). */
static void pair_events(const struct pair *p, struct pollfd *pfd)
{
	pfd[0].fd = p->fd;
	pfd[0].events = (short)((!p->up.len && !p->up.eof ? POLLIN : 0) |
				(p->down.len ? POLLOUT : 0));
	pfd[1].fd = p->net->fd(p->x);
	pfd[1].events = (short)((!p->down.len && !p->down.eof ? POLLIN : 0) |
				(p->up.len ? POLLOUT : 0));
	if (p->net->events(p->x) == EPOLLOUT && (p->up.len || !p->down.len))
		pfd[1].events |= POLLOUT;
}

/* A new viewer: its TLS connection to the relay, or closed (said why). */
static struct pair *pair_open(const struct ltt_net_module *net, int fd, int family,
			      const char *host, uint16_t port, struct ltt_xport_ctx *tls)
{
	char label[300];
	struct pair *p = calloc(1, sizeof(*p));
	int ret;

	snprintf(label, sizeof(label), "lttctl: live bridge to %s:%u", host, (unsigned int)port);
	ret = p ? net->conn_open(family, host, port, tls,
				 (uint64_t)ltt_deadline_ms(LTT_RELAY_CONN_TIMEOUT_MS), label, &p->x) :
		  -ENOMEM;
	if (ret) {
		if (ret != -EKEYREJECTED)	/* logged with OpenSSL's reason */
			fprintf(stderr, "%s: %s: the viewer's connection is closed\n", label,
				strerror(-ret));
		free(p);
		close(fd);
		return NULL;
	}
	p->net = net;
	p->fd = fd;
	return p;
}

int ctl_bridge_run(const struct ltt_net_module *net, int listen_fd, int family, const char *host,
		   uint16_t port, struct ltt_xport_ctx *tls)
{
	struct pollfd pfd[1 + 2 * CTL_BRIDGE_MAX_PAIRS];
	struct pair *pairs[CTL_BRIDGE_MAX_PAIRS] = { NULL };
	int i, n, fd, ret;

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = listen_fd, .events = POLLIN };
		for (i = 0, n = 0; i < CTL_BRIDGE_MAX_PAIRS; i++) {
			if (!pairs[i]) {
				pfd[1 + 2 * i].fd = pfd[2 + 2 * i].fd = -1;
				continue;
			}
			pair_events(pairs[i], &pfd[1 + 2 * i]);
			n++;
		}
		if (n == CTL_BRIDGE_MAX_PAIRS)
			pfd[0].events = 0;	/* the next viewer waits in the backlog */
		if (poll(pfd, 1 + 2 * CTL_BRIDGE_MAX_PAIRS, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = -errno;
			break;
		}
		for (i = 0; i < CTL_BRIDGE_MAX_PAIRS; i++) {
			if (pairs[i] && pump(pairs[i]))
				pair_close(&pairs[i]);	/* done, or failed */
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		fd = accept4(listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (fd < 0 && (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED))
			continue;
		if (fd < 0) {
			ret = -errno;
			break;
		}
		for (i = 0; pairs[i]; i++)
			;
		pairs[i] = pair_open(net, fd, family, host, port, tls);
		if (pairs[i] && pump(pairs[i]))
			pair_close(&pairs[i]);
	}
	for (i = 0; i < CTL_BRIDGE_MAX_PAIRS; i++)
		pair_close(&pairs[i]);
	return ret;
}
