/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-health.h - LTTng 2.13's health sockets, answered from ltt's
 * threads' heartbeats (common/base/heartbeat.h): the session daemon's
 * (sessiond-health, ltt-sessiond --lttng-compat), its consumers'
 * (ustconsumerd64/health, kconsumerd/health: the ltt-consumerd it spawns
 * with --lttng-health) and the relay daemon's (relayd/health-PID, or
 * $LTTNG_RELAYD_HEALTH: ltt-relayd --lttng-compat).
 *
 * A client (liblttng-ctl's lttng_health_query(), lttng-tools'
 * health_check) sends {u32 cmd}, CHECK, and reads {u64 ret_code}: one bit
 * set per thread slot in bad health.  The slots of each daemon are
 * LTTng's thread kinds, numbered as its health_type_* enums (the names
 * liblttng-ctl gives them in comments); a loop's heartbeat tag
 * (ltt_evloop_set_tag()) is the bits of the slots it stands for.  Which
 * ltt thread stands for which slot: doc/lttng-compat.md.
 */
#ifndef LTT_COMMON_LTTNG_HEALTH_H
#define LTT_COMMON_LTTNG_HEALTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* LTTng's run directory: root's; a user's is $LTTNG_HOME/.lttng (else $HOME's). */
#define LTT_LTTNG_ROOT_RUNDIR "/var/run/lttng"

#define LTT_LTTNG_HEALTH_CMD_CHECK 0

/* The session daemon's health socket, beside its client socket. */
#define LTT_LTTNG_HEALTH_SOCKET "sessiond-health"
#define LTT_LTTNG_HEALTH_CMD (1ULL << 0)		/* "Session daemon command" */
#define LTT_LTTNG_HEALTH_APP_MANAGE (1ULL << 1)
#define LTT_LTTNG_HEALTH_APP_REG (1ULL << 2)
#define LTT_LTTNG_HEALTH_KERNEL (1ULL << 3)
#define LTT_LTTNG_HEALTH_CONSUMER (1ULL << 4)
#define LTT_LTTNG_HEALTH_HT_CLEANUP (1ULL << 5)
#define LTT_LTTNG_HEALTH_APP_MANAGE_NOTIFY (1ULL << 6)
#define LTT_LTTNG_HEALTH_APP_REG_DISPATCH (1ULL << 7)
#define LTT_LTTNG_HEALTH_NOTIFICATION (1ULL << 8)
#define LTT_LTTNG_HEALTH_ROTATION (1ULL << 9)
#define LTT_LTTNG_HEALTH_TIMER (1ULL << 10)
#define LTT_LTTNG_HEALTH_ACTION_EXECUTOR (1ULL << 11)
#define LTT_LTTNG_HEALTH_SESSIOND_SLOTS ((1ULL << 12) - 1)	/* NR_HEALTH_SESSIOND_TYPES */
/* ltt's program thread: LTTng's four threads of programs in one */
#define LTT_LTTNG_HEALTH_APPS (LTT_LTTNG_HEALTH_APP_MANAGE | LTT_LTTNG_HEALTH_APP_REG | \
			       LTT_LTTNG_HEALTH_APP_MANAGE_NOTIFY | LTT_LTTNG_HEALTH_APP_REG_DISPATCH)

/*
 * A consumer daemon's, in LTTng's run directory: the 64-bit user-space
 * one's and the kernel one's (ltt has no 32-bit consumer of its own: one
 * ltt-consumerd reads 32- and 64-bit programs' buffers alike).
 */
#define LTT_LTTNG_UST64_HEALTH_SOCKET "ustconsumerd64/health"
#define LTT_LTTNG_KERNEL_HEALTH_SOCKET "kconsumerd/health"
#define LTT_LTTNG_HEALTH_CONSUMERD_CHANNEL (1ULL << 0)	/* "Consumer daemon channel" */
#define LTT_LTTNG_HEALTH_CONSUMERD_METADATA (1ULL << 1)
#define LTT_LTTNG_HEALTH_CONSUMERD_DATA (1ULL << 2)
#define LTT_LTTNG_HEALTH_CONSUMERD_SESSIOND (1ULL << 3)
#define LTT_LTTNG_HEALTH_CONSUMERD_METADATA_TIMER (1ULL << 4)
#define LTT_LTTNG_HEALTH_CONSUMERD_SLOTS ((1ULL << 5) - 1)	/* NR_HEALTH_CONSUMERD_TYPES */

/* The relay daemon's: relayd/health-PID in LTTng's run directory, else the variable's path. */
#define LTT_LTTNG_RELAYD_HEALTH_DIR "relayd"
#define LTT_LTTNG_RELAYD_HEALTH_ENV "LTTNG_RELAYD_HEALTH"
#define LTT_LTTNG_HEALTH_RELAYD_DISPATCHER (1ULL << 0)	/* "Relay daemon dispatcher" */
#define LTT_LTTNG_HEALTH_RELAYD_WORKER (1ULL << 1)
#define LTT_LTTNG_HEALTH_RELAYD_LISTENER (1ULL << 2)
#define LTT_LTTNG_HEALTH_RELAYD_LIVE_DISPATCHER (1ULL << 3)
#define LTT_LTTNG_HEALTH_RELAYD_LIVE_WORKER (1ULL << 4)
#define LTT_LTTNG_HEALTH_RELAYD_LIVE_LISTENER (1ULL << 5)
#define LTT_LTTNG_HEALTH_RELAYD_SLOTS ((1ULL << 6) - 1)	/* NR_HEALTH_RELAYD_TYPES */

/**
 * ltt_lttng_rundir() - LTTng's run directory for this process:
 * /var/run/lttng for root, else $LTTNG_HOME/.lttng (else $HOME's), as
 * LTTng's daemons and clients find it
 *
 * Returns 0, -ENOENT (no home), or -ENAMETOOLONG.
 */
int ltt_lttng_rundir(char *buf, size_t len);

/**
 * ltt_lttng_listen() - listen on @path as LTTng makes its sockets: root's
 * root:@gid 0660 (0600 with @gid (gid_t)-1), a user's 0600
 * @root: a root daemon's
 *
 * Never replaces a socket a live daemon answers on: -EADDRINUSE then.
 * Returns 0 or a negative errno; not logged.
 */
int ltt_lttng_listen(const char *path, bool root, gid_t gid, int *ret_fd);

/**
 * ltt_lttng_make_dir() - make @dir with @mode (root's: root:@gid, @gid
 * not (gid_t)-1), or take it as it is; either way it must be a directory
 * of this user's or root's that no other user may write (else sticky)
 *
 * Returns 0, -EPERM (not such a directory), or a negative errno; each
 * logged in one sentence.
 */
int ltt_lttng_make_dir(const char *dir, mode_t mode, gid_t gid);

struct ltt_lttng_health;

/**
 * ltt_lttng_health_start() - answer LTTng's health checks on the
 * listening socket @fd (taken) from a thread of its own
 * @slots: the bits of the daemon's slots (LTT_LTTNG_HEALTH_*_SLOTS):
 *         answers say the stuck loops' tags within them
 * @delta_env: the variable that sets the delta in milliseconds (tests),
 *         else LTTng's delta
 * @ret_health: for ltt_lttng_health_stop() (NULL on error)
 *
 * Returns 0 or a negative errno.
 */
int ltt_lttng_health_start(int fd, uint64_t slots, const char *delta_env,
			   struct ltt_lttng_health **ret_health);

/**
 * ltt_lttng_health_serve() - ltt_lttng_health_start() on a socket of
 * its own at @path (a consumer's or the relay's), made by
 * ltt_lttng_listen() with @gid, its directory made first (root's 0750
 * root:@gid, a user's 0700) when missing; removed by
 * ltt_lttng_health_stop() while it is still ours
 *
 * Returns 0, -EADDRINUSE when a live daemon answers there, or a negative
 * errno; each logged in one sentence.
 */
int ltt_lttng_health_serve(const char *path, gid_t gid, uint64_t slots, const char *delta_env,
			   struct ltt_lttng_health **ret_health);

/** ltt_lttng_health_stop() - stop answering, free @h; accepts NULL */
void ltt_lttng_health_stop(struct ltt_lttng_health *h);

#endif /* LTT_COMMON_LTTNG_HEALTH_H */
