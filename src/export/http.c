// SPDX-License-Identifier: GPL-2.0-only
/*
 * http.c - ltt-export's HTTP client for ClickHouse's interface: one
 * POST a connection (HTTP/1.0, the connection closed after the answer),
 * the query in the URL, rows in the body; IO_TIMEOUT_S to send or read.
 */
#include <errno.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "export/export.h"

#define IO_TIMEOUT_S 60
#define MAX_RESPONSE (512u << 20)	/* ltt_packets: 8 bytes a packet, and more */

static void url_encode(struct exp_buf *b, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    c == '-' || c == '_' || c == '.')
			exp_buf_add(b, s, 1);
		else
			exp_buf_printf(b, "%%%02X", c);
	}
}

static int dial(struct exp_engine *e, const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *ai, *a;
	struct timeval tv = { IO_TIMEOUT_S, 0 };
	int fd = -1, rc;

	rc = getaddrinfo(host, port, &hints, &ai);
	if (rc)
		return exp_engine_fail(e, -EHOSTUNREACH, "ClickHouse at %s:%s: %s", host, port,
				       gai_strerror(rc));
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0)
			continue;
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		if (!connect(fd, a->ai_addr, a->ai_addrlen))
			break;
		rc = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		return exp_engine_fail(e, -ECONNREFUSED, "ClickHouse at %s:%s: %s: is "
				       "clickhouse-server running, its HTTP port this one?", host, port,
				       strerror(rc ? rc : ECONNREFUSED));
	return fd;
}

static int send_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int exp_http_post(struct exp_engine *e, const char *host, const char *port, const char *query,
		  const char *body, size_t len, struct exp_buf *resp)
{
	struct exp_buf req = { 0 };
	char chunk[65536], *sep;
	int fd, ret, status = 0;
	ssize_t n;

	fd = dial(e, host, port);
	if (fd < 0)
		return fd;
	exp_buf_str(&req, "POST /?query=");
	url_encode(&req, query);
	exp_buf_printf(&req, " HTTP/1.0\r\nHost: %s\r\nContent-Length: %zu\r\n"
		       "Connection: close\r\n\r\n", host, body ? len : 0);
	ret = req.nomem ? -ENOMEM : send_all(fd, req.s, req.len);
	if (!ret && body && len)
		ret = send_all(fd, body, len);
	exp_buf_fini(&req);
	exp_buf_reset(resp);
	while (!ret && (n = recv(fd, chunk, sizeof(chunk), 0)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 || resp->len > MAX_RESPONSE)
			ret = n < 0 ? -errno : -EFBIG;
		else
			exp_buf_add(resp, chunk, (size_t)n);
	}
	close(fd);
	if (ret)
		return exp_engine_fail(e, ret, "ClickHouse at %s:%s: %s", host, port,
				       strerror(-ret));
	if (resp->nomem)
		return -ENOMEM;
	sep = resp->s ? strstr(resp->s, "\r\n\r\n") : NULL;
	if (!sep || sscanf(resp->s, "HTTP/%*u.%*u %d", &status) != 1)
		return exp_engine_fail(e, -EPROTO, "ClickHouse at %s:%s: not an HTTP answer: "
				       "is the port its HTTP interface's (8123)?", host, port);
	memmove(resp->s, sep + 4, resp->len - (size_t)(sep + 4 - resp->s) + 1);
	resp->len -= (size_t)(sep + 4 - resp->s);
	if (status != 200)
		return exp_engine_fail(e, -EIO, "ClickHouse: %.300s (for: %.200s)",
				       resp->s, query);
	return 0;
}

