/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fake-sessiond.h - a fake session daemon for libltt-ctl's unit tests: a
 * child process on a fresh run directory's client.sock, serving one
 * connection with the test's function, which writes what it got to a
 * pipe the test reads once the child is gone.
 */
#ifndef LTT_TESTS_FAKE_SESSIOND_H
#define LTT_TESTS_FAKE_SESSIOND_H

#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"

struct fake_sessiond {
	char dir[64];		/* the run directory, for ltt_ctl_connect() */
	char path[100];		/* its client.sock (a sun_path) */
	int log_fd;		/* what the fake wrote (read end) */
	pid_t pid;
};

/*
 * Start @serve(@lfd, @log_fd) in a child on a new run directory (@tag in
 * its name); the child exits when @serve returns.  Returns 0, or -1.
 */
int fake_sessiond_start(struct fake_sessiond *f, const char *tag, void (*serve)(int lfd, int log_fd));

/* What the fake wrote, until it exits or @len - 1 bytes, into @buf (NUL-terminated). */
void fake_sessiond_log(struct fake_sessiond *f, char *buf, size_t len);

/* Kill and reap the fake, remove its run directory. */
void fake_sessiond_stop(struct fake_sessiond *f);

/* One reply: @cmd's header, status 0, then @w's bytes.  0, or -1. */
int fake_sessiond_reply(int fd, uint16_t cmd, const struct ltt_wbuf *w);

#endif /* LTT_TESTS_FAKE_SESSIOND_H */
