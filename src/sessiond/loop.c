// SPDX-License-Identifier: GPL-2.0-only
/*
 * loop.c - a serving thread's epoll set and stop eventfd (see loop.h).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/log.h"
#include "sessiond/loop.h"

const char ltt_loop_listen_tag;
const char ltt_loop_stop_tag;

int ltt_loop_add(struct ltt_loop *loop, int fd, unsigned int events, void *ptr)
{
	struct epoll_event ev = { .events = events, .data.ptr = ptr };

	return epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &ev) ? -errno : 0;
}

int ltt_loop_start(struct ltt_loop *loop, int listen_fd, void *(*fn)(void *), void *arg)
{
	int ret = 0;

	loop->listen_fd = listen_fd;
	loop->epfd = epoll_create1(EPOLL_CLOEXEC);
	loop->stop_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (loop->epfd < 0 || loop->stop_fd < 0)
		ret = -errno;
	if (!ret)
		ret = ltt_loop_add(loop, listen_fd, EPOLLIN, (void *)&ltt_loop_listen_tag);
	if (!ret)
		ret = ltt_loop_add(loop, loop->stop_fd, EPOLLIN, (void *)&ltt_loop_stop_tag);
	if (!ret)
		ret = -pthread_create(&loop->tid, NULL, fn, arg);
	if (ret) {
		if (loop->epfd >= 0)
			close(loop->epfd);
		if (loop->stop_fd >= 0)
			close(loop->stop_fd);
		close(listen_fd);
	}
	return ret;
}

void ltt_loop_stop(struct ltt_loop *loop)
{
	uint64_t one = 1;

	if (write(loop->stop_fd, &one, sizeof(one)) != sizeof(one))
		LTT_ERR("can't ask a thread to stop: %s", strerror(errno));
	pthread_join(loop->tid, NULL);
}

void ltt_loop_fini(struct ltt_loop *loop)
{
	close(loop->listen_fd);
	close(loop->stop_fd);
	close(loop->epfd);
}
