/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rundir.h - the daemon's run directory: created with safe permissions,
 * locked for the daemon's lifetime (so a second daemon on the same
 * directory refuses to start), and holding the pid file and sockets.
 */
#ifndef LTT_SESSIOND_DAEMON_RUNDIR_H
#define LTT_SESSIOND_DAEMON_RUNDIR_H

#include <limits.h>
#include <stdbool.h>

#define LTT_SESSIOND_LOCK_NAME "sessiond.lock"
#define LTT_SESSIOND_PID_NAME "sessiond.pid"

struct ltt_rundir {
	char path[PATH_MAX];
	int lock_fd;		/* -1 when not locked */
	bool pid_written;
};

/**
 * ltt_rundir_open() - create (if needed), check and lock a run directory
 * @rd: to fill; ltt_rundir_close() it even on failure
 * @path: the directory
 * @shared: true for the root daemon's world-readable directory (0755),
 *          false for a personal one (0700, must belong to us)
 *
 * Returns 0; -EBUSY when another daemon holds the lock (the message,
 * with its pid, is logged); another negative errno otherwise.
 */
int ltt_rundir_open(struct ltt_rundir *rd, const char *path, bool shared);

/**
 * ltt_rundir_write_pid() - write the calling process's pid file
 */
int ltt_rundir_write_pid(struct ltt_rundir *rd);

/**
 * ltt_rundir_file() - "@rd/@name" into @buf of @len bytes; 0 or -ENAMETOOLONG
 */
int ltt_rundir_file(const struct ltt_rundir *rd, const char *name, char *buf, unsigned long len);

/**
 * ltt_rundir_close() - remove the pid file and release the lock; accepts
 * a half-opened run directory
 */
void ltt_rundir_close(struct ltt_rundir *rd);

#endif /* LTT_SESSIOND_DAEMON_RUNDIR_H */
