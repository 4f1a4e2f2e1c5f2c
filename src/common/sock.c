// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sock.c - Unix socket and fd I/O helpers.
 */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/sock.h"

static int fill_addr(const char *path, struct sockaddr_un *addr)
{
	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr->sun_path))
		return -ENAMETOOLONG;
	strcpy(addr->sun_path, path);
	return 0;
}

int ltt_sock_listen_unix(const char *path, mode_t mode, int *ret_fd)
{
	struct sockaddr_un addr;
	int fd, ret;

	ret = fill_addr(path, &addr);
	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (unlink(path) && errno != ENOENT) {
		ret = -errno;
		goto err;
	}
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		goto err;
	}
	if (chmod(path, mode) || listen(fd, 64)) {
		ret = -errno;
		unlink(path);
		goto err;
	}
	*ret_fd = fd;
	return 0;
err:
	close(fd);
	return ret;
}

int ltt_sock_connect_unix(const char *path, int *ret_fd)
{
	struct sockaddr_un addr;
	int fd, ret;

	ret = fill_addr(path, &addr);
	if (ret)
		return ret;
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

int ltt_sock_peer_cred(int fd, struct ucred *ret_cred)
{
	socklen_t len = sizeof(*ret_cred);

	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, ret_cred, &len))
		return -errno;
	return 0;
}

int ltt_io_write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == ENOTSOCK)
			n = write(fd, p, len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ltt_io_read_all(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			return -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

