// SPDX-License-Identifier: GPL-2.0-only
/*
 * listen.c - listening addresses and port files (listen.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/durable.h"
#include "common/base/paths.h"
#include "relayd/listen.h"

/* A ":0" port, which common/model/uri.h does not take: cut it off @buf. */
static bool cut_port_zero(char *buf)
{
	size_t len = strlen(buf);

	if (len > 2 && !strcmp(buf + len - 2, ":0") && buf[len - 3] != ':' &&
	    buf[len - 3] != '/') {
		buf[len - 2] = '\0';
		return true;
	}
	return false;
}

int ltt_relay_addr_parse(const char *text, uint16_t default_port, struct ltt_relay_addr *ret_addr,
			 char *why, unsigned long why_len)
{
	char buf[LTT_URI_TEXT_SIZE];
	struct ltt_uri uri;
	bool zero;

	if (strlen(text) >= sizeof(buf)) {
		snprintf(why, why_len, "the URL is too long");
		return -EINVAL;
	}
	strcpy(buf, text);
	zero = cut_port_zero(buf);
	if (ltt_uri_parse(buf, &uri)) {
		snprintf(why, why_len, "not a valid URL");
		return -EINVAL;
	}
	if (uri.scheme != LTT_URI_TCP) {
		snprintf(why, why_len, "give tcp://HOST[:PORT] or tcp6://[ADDR][:PORT]");
		return -EINVAL;
	}
	if (uri.path[0]) {
		snprintf(why, why_len, "a listening address takes no path");
		return -EINVAL;
	}
	memset(ret_addr, 0, sizeof(*ret_addr));
	ret_addr->inet6 = uri.family == LTT_URI_INET6;
	strcpy(ret_addr->host, uri.host);
	ret_addr->port = zero ? 0 : uri.ctrl_port ? uri.ctrl_port : default_port;
	return 0;
}

void ltt_relay_addr_format(const struct ltt_relay_addr *addr, char *buf, unsigned long len)
{
	if (addr->inet6)
		snprintf(buf, len, "[%s]:%u", addr->host, addr->port);
	else
		snprintf(buf, len, "%s:%u", addr->host, addr->port);
}

static int bound_port(int fd, uint16_t *ret_port)
{
	struct sockaddr_storage ss;
	socklen_t sl = sizeof(ss);

	if (getsockname(fd, (struct sockaddr *)&ss, &sl))
		return -errno;
	if (ss.ss_family == AF_INET6)
		*ret_port = ntohs(((struct sockaddr_in6 *)&ss)->sin6_port);
	else
		*ret_port = ntohs(((struct sockaddr_in *)&ss)->sin_port);
	return 0;
}

int ltt_relay_listen(const struct ltt_relay_addr *addr, int *ret_fd, uint16_t *ret_port)
{
	struct addrinfo hints = { 0 }, *res = NULL;
	char port[8];
	int fd, one = 1, ret;

	hints.ai_family = addr->inet6 ? AF_INET6 : AF_INET;
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	snprintf(port, sizeof(port), "%u", addr->port);
	ret = getaddrinfo(addr->host, port, &hints, &res);
	if (ret)
		return ret == EAI_SYSTEM ? -errno : -ENOENT;
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (addr->inet6)
		setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) || listen(fd, SOMAXCONN)) {
		ret = -errno;
		close(fd);
		goto out;
	}
	ret = bound_port(fd, ret_port);
	if (ret) {
		close(fd);
		goto out;
	}
	*ret_fd = fd;
out:
	freeaddrinfo(res);
	return ret;
}

int ltt_relay_port_file_write(const char *dir, const char *kind, uint16_t port)
{
	char path[4096], text[16];
	int n;

	n = snprintf(path, sizeof(path), "%s/relayd-%s.port", dir, kind);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	snprintf(text, sizeof(text), "%u\n", port);
	return ltt_file_replace(path, text, strlen(text), 0644);
}

void ltt_relay_port_file_remove(const char *dir, const char *kind)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/relayd-%s.port", dir, kind);

	if (n > 0 && (size_t)n < sizeof(path))
		unlink(path);
}
