/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-save.h - what load (config.c) takes of save (config-save.c):
 * a session's state read back from the daemon as a save reads it (to
 * compare, or to undo a load), where the user's saved sessions are, and
 * the detail of a failure.
 */
#ifndef LTT_LIB_LTT_CTL_CONFIG_SAVE_H
#define LTT_LIB_LTT_CTL_CONFIG_SAVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#include "lib/ltt-ctl/config/config-model.h"

#define SESSIONS_DIR_NAME "sessions"	/* in SYSCONFDIR/ltt */

/* The detail of the failure the call returns (ltt_ctl_error_detail()). */
void ltt_cfg_detail(struct ltt_ctl *ctl, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Are the @n bytes at @p all zero (a public struct's reserved room)? */
bool ltt_cfg_reserved_zero(const uint8_t *p, size_t n);

/*
 * The user's saved sessions directory (ltt_home_find()'s
 * LTT_HOME_SESSIONS) into @buf.  Returns 0 or -LTT_ERR_CONFIG_IO.
 */
int ltt_cfg_user_dir(char *buf, size_t len);

/*
 * A session daemon's own saving or loading (ltt_lib_save_lttng(),
 * ltt_lib_load_path()): ltt_cfg_daemon_open() empties @err and connects
 * to the daemon of @rundir (0 or -LTT_ERR_*); ltt_cfg_daemon_close()
 * copies the connection's error detail into @err when @ret is an error,
 * disconnects, and returns @ret.
 */
int ltt_cfg_daemon_open(const char *rundir, char *err, size_t errlen, struct ltt_ctl **ret);
int ltt_cfg_daemon_close(struct ltt_ctl *ctl, int ret, char *err, size_t errlen);

/* Does @s end with @suffix, and have more before it? */
bool ltt_cfg_ends_with(const char *s, const char *suffix);

/*
 * What a session's detail lacks of @info's session: its snapshot
 * outputs or its rotation schedule, into @x; its snapshot outputs are
 * the caller's to free.  Returns 0 or -LTT_ERR_*.
 */
int ltt_cfg_get_extra(struct ltt_ctl *ctl, const struct ltt_session_info *info,
		      struct ltt_cfg_extra *x);

/*
 * @session's process trackers, into @ret (zeroed: every process).  A
 * daemon without trackers has none to save, one without the kernel
 * domain (it refuses it) no kernel trackers.  Returns 0 or -LTT_ERR_*.
 */
int ltt_cfg_get_trackers(struct ltt_ctl *ctl, const char *session, struct ltt_cfg_trackers *ret);

/* @session's contexts into @ret; none from a daemon older than contexts. */
int ltt_cfg_get_contexts(struct ltt_ctl *ctl, const char *session, struct ltt_cfg_contexts *ret);

#endif /* LTT_LIB_LTT_CTL_CONFIG_SAVE_H */
