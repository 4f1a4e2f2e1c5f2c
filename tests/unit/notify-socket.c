// SPDX-License-Identifier: LGPL-2.1-only
/*
 * notify-socket.c - the daemon's end of a notifier's socket, as
 * test_ust_notify.c reads it (notify-socket.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "notify-socket.h"
#include "tap.h"

/*
 * A socket pair as the daemon makes one: [0] the reader's end (the
 * daemon's), non-blocking; [1] the library's, blocking (the library makes
 * it non-blocking).
 */
void make_pair(int *p)
{
	if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, p) || fcntl(p[0], F_SETFL, O_NONBLOCK)) {
		tap_diag("socketpair: %s", strerror(errno));
		exit(1);
	}
}

/*
 * make_pair() with the library's end's send buffer cut to the kernel's
 * least (SO_SNDBUF 4096: some 8 KiB, what a few small messages fill, a
 * message of LTT_APP_NOTIFY_MAX bytes still fits).
 */
void make_small_pair(int *p)
{
	int v = 4096;

	make_pair(p);
	if (setsockopt(p[1], SOL_SOCKET, SO_SNDBUF, &v, sizeof(v))) {
		tap_diag("SO_SNDBUF: %s", strerror(errno));
		exit(1);
	}
}

/*
 * One record of @fd into @buf (@max bytes, at least LTT_APP_NOTIFY_MAX),
 * without waiting: its length, 0 at EOF, -EAGAIN when none is there, or
 * -EMSGSIZE (cut: longer than any message).
 */
ssize_t recv_record(int fd, uint8_t *buf, size_t max)
{
	struct iovec iov = { .iov_base = buf, .iov_len = max };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t r;

	do {
		r = recvmsg(fd, &mh, MSG_DONTWAIT);
	} while (r < 0 && errno == EINTR);
	if (r < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return mh.msg_flags & MSG_TRUNC ? -EMSGSIZE : r;
}

/* Is @len bytes at @buf one message, whole, and only one?  Decoded into @ret. */
bool one_msg(const uint8_t *buf, size_t len, struct ltt_app_notify *ret)
{
	size_t mlen;

	return !ltt_app_get_notify(buf, len, ret, &mlen) && mlen == len;
}

/* Nothing waits on @fd and its other end is closed. */
bool at_eof(int fd)
{
	uint8_t buf[LTT_APP_NOTIFY_MAX];

	return recv_record(fd, buf, sizeof(buf)) == 0;
}

#define READER_TIMEOUT_MS 10000


static void reader_take(struct reader *r, size_t len)
{
	struct ltt_app_notify m;

	if (!one_msg(r->buf, len, &m)) {
		r->ok = false;
		return;
	}
	r->dropped += m.dropped;
	r->last_count_only = !*m.event && !m.nr_captures;
	r->count_only += r->last_count_only;
	r->got += !r->last_count_only;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
	ssize_t len;
	int ret;

	while (r->ok) {
		ret = poll(&pfd, 1, READER_TIMEOUT_MS);
		if (ret < 0 && errno == EINTR)
			continue;
		if (ret <= 0)
			break;
		len = recv_record(r->fd, r->buf, sizeof(r->buf));
		if (len == -EAGAIN)
			continue;
		if (len <= 0) {
			r->eof = len == 0;
			r->ok = r->ok && len == 0;
			break;
		}
		reader_take(r, (size_t)len);
	}
	return NULL;
}

/* Start reading @fd (the reader's end: the reader closes it at the end). */
struct reader *reader_start(int fd)
{
	struct reader *r = calloc(1, sizeof(*r));

	if (!r)
		exit(1);
	r->fd = fd;
	r->ok = true;
	if (pthread_create(&r->tid, NULL, reader_main, r))
		exit(1);
	return r;
}

/* Wait for the end of the reader's socket; the caller frees it. */
struct reader *reader_join(struct reader *r)
{
	pthread_join(r->tid, NULL);
	close(r->fd);
	return r;
}
