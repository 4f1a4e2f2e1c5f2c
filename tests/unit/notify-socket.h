/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * notify-socket.h - the daemon's end of a notifier's socket for
 * test_ust_notify.c (notify-socket.c): socket pairs as the daemon makes
 * them, one record read without waiting, a record checked to be one
 * whole message, and a thread that reads a socket until EOF and tallies
 * what came.
 */
#ifndef LTT_TESTS_NOTIFY_SOCKET_H
#define LTT_TESTS_NOTIFY_SOCKET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/proto/app-proto.h"

/*
 * A thread that reads a socket until EOF (the library's end closed: the
 * notifier removed) and tallies the messages.
 */
struct reader {
	pthread_t tid;
	int fd;			/* the reader's end */
	uint64_t got;		/* messages of an event */
	uint64_t dropped;	/* the sum of their counts */
	uint64_t count_only;	/* messages with no event and no capture */
	bool last_count_only;	/* the last one was such */
	bool eof;		/* read to the end */
	bool ok;		/* each record one whole, well formed message */
	uint8_t buf[2 * LTT_APP_NOTIFY_MAX];
};

void make_pair(int *p);
void make_small_pair(int *p);
ssize_t recv_record(int fd, uint8_t *buf, size_t max);
bool one_msg(const uint8_t *buf, size_t len, struct ltt_app_notify *ret);
bool at_eof(int fd);
struct reader *reader_start(int fd);
struct reader *reader_join(struct reader *r);

#endif /* LTT_TESTS_NOTIFY_SOCKET_H */
