// SPDX-License-Identifier: LGPL-2.1-only
/*
 * sock.c - Unix socket and fd I/O helpers.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/base/sock.h"

/*
 * A stream socket (close-on-exec, @flags added to its type) for the path
 * @path, filled into *@addr: the socket, or a negative errno
 * (-ENAMETOOLONG for a path that does not fit sockaddr_un).
 */
static int unix_socket(const char *path, int flags, struct sockaddr_un *addr)
{
	int fd;

	memset(addr, 0, sizeof(*addr));
	addr->sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(addr->sun_path))
		return -ENAMETOOLONG;
	strcpy(addr->sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
	return fd < 0 ? -errno : fd;
}

int ltt_sock_listen_unix(const char *path, mode_t mode, int *ret_fd)
{
	struct sockaddr_un addr;
	int fd, ret;

	fd = unix_socket(path, SOCK_NONBLOCK, &addr);
	if (fd < 0)
		return fd;
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

/* socket() with @flags added to its type, then connect() to @path. */
static int connect_unix(const char *path, int flags, int *ret_fd)
{
	struct sockaddr_un addr;
	int fd, ret;

	fd = unix_socket(path, flags, &addr);
	if (fd < 0)
		return fd;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

int ltt_sock_connect_unix(const char *path, int *ret_fd)
{
	return connect_unix(path, 0, ret_fd);
}

int ltt_sock_connect_unix_nb(const char *path, int *ret_fd)
{
	/* A Unix stream connect completes at once or fails (EAGAIN: backlog full). */
	return connect_unix(path, SOCK_NONBLOCK, ret_fd);
}

bool ltt_sock_unix_answers(const char *path)
{
	int fd, ret;

	ret = ltt_sock_connect_unix_nb(path, &fd);
	if (!ret)
		close(fd);
	return !ret || ret == -EAGAIN;
}

int64_t ltt_deadline_ms(int64_t ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000 + ms;
}

/* Wait until @fd is ready for @events or @deadline passes. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	struct pollfd pfd = { .fd = fd, .events = events };
	int64_t left;
	int n;

	for (;;) {
		left = deadline - ltt_deadline_ms(0);
		if (left <= 0)
			return -ETIMEDOUT;
		n = poll(&pfd, 1, left > 60000 ? 60000 : (int)left);
		if (n > 0)
			return 0;
		if (n < 0 && errno != EINTR)
			return -errno;
	}
}

/*
 * Send (@events POLLOUT) or receive (POLLIN) all @len bytes at @p on the
 * socket @fd, waiting for it between tries until @deadline.  Only a send
 * reads @p.
 */
static int io_all_until(int fd, char *p, size_t len, int64_t deadline, short events)
{
	ssize_t n;
	int ret;

	while (len) {
		if (events == POLLOUT)
			n = send(fd, p, len, MSG_NOSIGNAL | MSG_DONTWAIT);
		else
			n = recv(fd, p, len, MSG_DONTWAIT);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -errno;
			ret = wait_fd(fd, events, deadline);
			if (ret)
				return ret;
			continue;
		}
		if (n == 0 && events == POLLIN)
			return -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int ltt_io_write_all_until(int fd, const void *buf, size_t len, int64_t deadline)
{
	return io_all_until(fd, (char *)buf, len, deadline, POLLOUT);
}

int ltt_io_read_all_until(int fd, void *buf, size_t len, int64_t deadline)
{
	return io_all_until(fd, buf, len, deadline, POLLIN);
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

int ltt_io_pwritev_all(int fd, struct iovec *iov, int iovcnt, uint64_t offset)
{
	int i = 0;

	if (iovcnt < 0 || offset > INT64_MAX)
		return -EINVAL;
	for (;;) {
		ssize_t n;

		while (i < iovcnt && !iov[i].iov_len)
			i++;
		if (i == iovcnt)
			return 0;
		n = pwritev(fd, iov + i, iovcnt - i, (off_t)offset);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EIO;
		offset += (uint64_t)n;
		/* Consume what went out: whole buffers, then part of one. */
		while (n > 0) {
			size_t take = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;

			if (take) {	/* an empty buffer's base may be NULL */
				iov[i].iov_base = (char *)iov[i].iov_base + take;
				iov[i].iov_len -= take;
			}
			n -= (ssize_t)take;
			if (!iov[i].iov_len)
				i++;
		}
	}
}

int ltt_io_read_file(int fd, size_t max, void **ret_data, size_t *ret_len)
{
	struct stat st;
	size_t done = 0;
	ssize_t n;
	char *buf;

	if (fstat(fd, &st))
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -ENOEXEC;
	if (st.st_size < 0 || (uint64_t)st.st_size > max)
		return -EFBIG;
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf)
		return -ENOMEM;
	while (done < (size_t)st.st_size &&
	       ((n = pread(fd, buf + done, (size_t)st.st_size - done, (off_t)done)) > 0 ||
		(n < 0 && errno == EINTR)))
		done += n > 0 ? (size_t)n : 0;
	*ret_data = buf;
	*ret_len = done;
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


void ltt_fd_close(int *fd)
{
	if (*fd < 0)
		return;
	close(*fd);
	*fd = -1;
}

int ltt_fd_keep_only(int fd)
{
	int i;

	if (fd == 3 ? fcntl(3, F_SETFD, 0) : dup2(fd, 3) < 0)
		return -1;
	if (syscall(SYS_close_range, 4U, ~0U, 0U))	/* before Linux 5.9 */
		for (i = 4; i < 1024; i++)
			close(i);
	return 0;
}
