/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * loop.h - the scaffolding every serving thread of the daemon shares: a
 * thread, its epoll set with a listening socket, and an eventfd that
 * asks it to stop.  The thread's own module owns everything else.
 */
#ifndef LTT_SESSIOND_LOOP_H
#define LTT_SESSIOND_LOOP_H

#include <pthread.h>
#include <stdbool.h>

struct ltt_loop {
	pthread_t tid;
	int epfd;
	int stop_fd;
	int listen_fd;
};

/* epoll data of the two fixed fds; other fds carry their owner's pointer. */
extern const char ltt_loop_listen_tag;
extern const char ltt_loop_stop_tag;

/**
 * ltt_loop_start() - set up the epoll set and run @fn(@arg) in a thread
 * @listen_fd: taken: closed by ltt_loop_stop(), or here on error
 *
 * Events on @listen_fd carry &ltt_loop_listen_tag, the stop request
 * &ltt_loop_stop_tag.  Returns 0 or a negative errno.
 */
int ltt_loop_start(struct ltt_loop *loop, int listen_fd, void *(*fn)(void *), void *arg);

/**
 * ltt_loop_add() - watch @fd for @events with @ptr as its epoll data
 */
int ltt_loop_add(struct ltt_loop *loop, int fd, unsigned int events, void *ptr);

/**
 * ltt_loop_stop() - ask the thread to return (it must return when it sees
 * &ltt_loop_stop_tag) and join it; from the starting thread.  The epoll
 * set stays usable until ltt_loop_fini().
 */
void ltt_loop_stop(struct ltt_loop *loop);

/**
 * ltt_loop_fini() - close the listening socket, the eventfd and the epoll set
 */
void ltt_loop_fini(struct ltt_loop *loop);

#endif /* LTT_SESSIOND_LOOP_H */
