/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * autoload.h - the sessions a daemon loads at start: --load PATH, else
 * the saved configurations in the autoload directories.
 */
#ifndef LTT_SESSIOND_AUTOLOAD_H
#define LTT_SESSIOND_AUTOLOAD_H

#include <stdbool.h>

/* Below $LTT_HOME/.ltt/sessions and SYSCONFDIR/ltt/sessions. */
#define LTT_AUTOLOAD_DIR_NAME "auto"

/**
 * ltt_autoload_run() - load the sessions of @path, or of the autoload
 * directories, through our own client socket (libltt-ctl, as any client:
 * the sessions belong to the daemon's user)
 * @rundir: the daemon's run directory; its client thread must serve
 * @path: --load's file or directory (absolute), or NULL for the autoload
 *        directories: $LTT_HOME/.ltt/sessions/auto and, for @root,
 *        SYSCONFDIR/ltt/sessions/auto (missing ones are skipped)
 *
 * Called by the main thread before the daemon says it is ready.  A
 * failure is logged with its file and line.  Returns 0, or -EINVAL when
 * @path could not be loaded (an autoload directory's failure is logged
 * only: the daemon serves anyway).
 */
int ltt_autoload_run(const char *rundir, const char *path, bool root);

#endif /* LTT_SESSIOND_AUTOLOAD_H */
