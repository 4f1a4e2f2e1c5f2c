/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * lust.h - programs that bring LTTng-UST's own liblttng-ust: the map of
 * lust/.
 *
 * Its files:
 *   lust.h  the map of lust/: the module's functions
 *   lust.c  the server: LTTng-UST's socket, its connections, the programs seen
 *
 * ltt records a program built for LTTng-UST through ltt's own
 * liblttng-ust.so.1 (ltt-run, or the compat package's diversion).  A
 * program that loads LTTng's library by another path (an RPATH, a
 * container image's copy, a bundled library) registers with LTTng's
 * session daemon instead, on LTTng's application socket, in LTTng-UST's
 * protocol, which ltt does not serve: its events can't reach ltt's
 * buffers.  LTTng-UST says nothing of a daemon that refuses it, so
 * the daemon in LTTng's place (--lttng-compat) listens there, reads each
 * such program's registration, closes the connection (LTTng-UST takes
 * that as a refusal: the program goes on at once, untraced), logs it
 * once, and keeps it for `lttctl list -u`, which shows it as not
 * recorded (doc/lttng-ust.md).
 *
 * Objects: the server (its own thread and loop, listening on both
 * generations' sockets), its connections, each
 * read until its registration is whole (2 s at most), and the table of
 * programs seen, pruned of those gone; the table is read under its lock
 * by the client thread's listing.
 */
#ifndef LTT_SESSIOND_LUST_H
#define LTT_SESSIOND_LUST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/proto/lust-proto.h"

/*
 * In LTTng's run directory, one socket per LTTng-UST ABI generation, each
 * named by its oldest compatible ABI: 2.13 to 2.15's (ABI 8 to 10) and
 * 2.16's (ABI 11).  Both send the same registration (lust-proto.h).
 */
#define LTT_LUST_SOCKETS 2
#define LTT_LUST_SOCKET_NAMES { "lttng-ust-sock-8", "lttng-ust-sock-11" }
#define LTT_LUST_REGISTER_MS 2000		/* to send it whole once connected */
#define LTT_LUST_MAX_CONNS 256			/* connections being read, all users' */
#define LTT_LUST_USER_CONNS 16			/* ... of one user */
#define LTT_LUST_MAX_PROGRAMS 1024		/* programs kept for the listing, */
#define LTT_LUST_USER_PROGRAMS 64		/* ... of one user at most */

struct ltt_lust;

/**
 * ltt_lust_start() - serve the listening sockets @fds (LTT_LUST_SOCKET_NAMES'
 * in order, bound with LTTng's other sockets by ltt_lttng_compat_listen();
 * taken, whatever the result: each set to -1) on one thread of its own
 *
 * Call with the signals the process handles blocked.  Returns 0 or a
 * negative errno.
 */
int ltt_lust_start(int fds[LTT_LUST_SOCKETS], struct ltt_lust **ret_lust);

/** ltt_lust_stop() - stop the thread, free everything; NULL: none. */
void ltt_lust_stop(struct ltt_lust *lust);

/**
 * ltt_lust_list() - the live programs of LTTng-UST's own library seen,
 * of user @uid (every user's with LTT_LIST_EVERY_USER), appended to
 * @reply as list_events' entries (domain.h): {pid, procname, "",
 * LTT_LIST_OWN_LTTNG_UST | major << 8 | minor, 0 fields}, their number
 * added to *@count.  Any thread; NULL @lust: none.
 */
void ltt_lust_list(struct ltt_lust *lust, uid_t uid, struct ltt_wbuf *reply, uint32_t *count);

#endif /* LTT_SESSIOND_LUST_H */
