/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * autoload.h - the sessions a daemon loads at start: --load PATH, else
 * the saved configurations in the autoload directories.
 */
#ifndef LTT_SESSIOND_DAEMON_AUTOLOAD_H
#define LTT_SESSIOND_DAEMON_AUTOLOAD_H

#include <stdbool.h>
#include <sys/types.h>

/* Below SYSCONFDIR/ltt/sessions (the user's: paths.h's LTT_HOME_AUTOLOAD). */
#define LTT_AUTOLOAD_DIR_NAME "auto"

/**
 * ltt_autoload_run() - load the sessions of @path, or of the autoload
 * directories, through our own client socket (libltt-ctl, as any client:
 * the sessions belong to the daemon's user)
 * @rundir: the daemon's run directory; its client thread must serve
 * @path: --load's file or directory (absolute), or NULL for the autoload
 *        directories: the home's .lttng/sessions/auto (ltt_home_find()'s
 *        LTT_HOME_AUTOLOAD: $LTTNG_HOME's as LTTng's) and, for @root,
 *        SYSCONFDIR/ltt/sessions/auto (missing ones are skipped)
 *
 * Called by the main thread before the daemon says it is ready.  A
 * failure is logged with its file and line.  Returns 0, or -EINVAL when
 * @path could not be loaded (an autoload directory's failure is logged
 * only: the daemon serves anyway).
 */
int ltt_autoload_run(const char *rundir, const char *path, bool root);

/* A process that loads for a daemon that dropped root's rights. */
struct ltt_autoload_child {
	pid_t pid;		/* 0: none */
	int go_fd;		/* written once the client thread serves */
};

/**
 * ltt_autoload_fork() - ltt_autoload_run() as root for a root daemon
 * that drops root's rights (priv.h): fork, before any thread, a child
 * that waits for ltt_autoload_finish(), then loads with root's rights
 * (its files read as root's, its sessions root's, as without the drop)
 * and exits.  A daemon that dies first takes it along (it reads the end
 * of @ret's pipe).  Returns 0 or a negative errno.
 */
int ltt_autoload_fork(const char *rundir, const char *path, bool root,
		      struct ltt_autoload_child *ret);

/**
 * ltt_autoload_finish() - let @c load (@go: the client thread serves) or
 * end it unused, and wait for it; accepts one never forked.  Returns
 * what ltt_autoload_run() returned in it (0 when not @go).
 */
int ltt_autoload_finish(struct ltt_autoload_child *c, bool go);

#endif /* LTT_SESSIOND_DAEMON_AUTOLOAD_H */
