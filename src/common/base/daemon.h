/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * daemon.h - what the daemons (ltt-sessiond, ltt-relayd) share to start:
 * the end of their option parsing (ltt-consumerd's too), detaching from
 * the caller until ready, telling the caller and systemd they are ready,
 * and taking their stop signals through a signalfd; and the bounded wait
 * for a child that their starters (lttctl, libltt-ctl) share.
 */
#ifndef LTT_COMMON_DAEMON_H
#define LTT_COMMON_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/**
 * ltt_daemon_detach() - detach from the caller (-b, -d)
 * @ret_ready_fd: the pipe end to hand to ltt_daemon_ready()
 *
 * The caller's process waits on a pipe and exits 0 once the daemon says it
 * is ready, 1 if the pipe closes first (the daemon failed).  Returns 0 in
 * the daemon (a new session, grandchild of the caller), never in the
 * caller, or a negative errno when it could not fork.
 */
int ltt_daemon_detach(int *ret_ready_fd);

/**
 * ltt_fork_split() - fork() with a link to the child: a pipe, or with
 * @sockets a stream socket pair (close-on-exec both); the child keeps
 * pair[@child_end], the parent the other end
 *
 * Returns the child's pid in the parent, 0 in the child, each with the
 * other's end closed; or a negative errno (nothing left open).
 */
int ltt_fork_split(int pair[2], bool sockets, int child_end);

/**
 * ltt_child_wait_until() - wait until @deadline (ltt_deadline_ms()) for
 * the child @pid to exit; kill it past that.  Returns its wait status,
 * or -1.
 */
int ltt_child_wait_until(pid_t pid, int64_t deadline);

/* ltt_daemon_ready()'s @flags */
#define LTT_DAEMON_CLOSE_STDIO 0x1	/* standard streams to /dev/null (-d) */
#define LTT_DAEMON_CHDIR_ROOT 0x2	/* chdir / (-d; the relay's -b too) */

/**
 * ltt_daemon_ready() - tell the waiting caller, and systemd, that we serve
 * @ready_fd: from ltt_daemon_detach(), or -1; closed here
 * @flags: LTT_DAEMON_CLOSE_STDIO, LTT_DAEMON_CHDIR_ROOT, done before the
 *         caller is told
 *
 * Sends READY=1 to $NOTIFY_SOCKET when systemd set it (Type=notify),
 * without libsystemd; SIGUSR1 to the starter with ltt_daemon_sig_parent().
 */
void ltt_daemon_ready(int ready_fd, unsigned int flags);

/**
 * ltt_daemon_sig_parent() - --sig-parent (-S), LTTng's daemons' option:
 * the process that started this one, its parent now (call it before
 * ltt_daemon_detach(), while the process has one thread and its first
 * rights), is sent SIGUSR1 by ltt_daemon_ready(), before the detached
 * caller is told (whose exit the starter may be waiting on)
 *
 * Returns 0, or a negative errno when the helper that will send it (a
 * process of its own, keeping the rights the daemon may give up) could
 * not be forked.
 */
int ltt_daemon_sig_parent(void);

/**
 * ltt_daemon_notify_connect() - connect to $NOTIFY_SOCKET now, for the
 * notifications to come: before the daemon gives root's rights up (the
 * socket's path may be one only root reaches).  Nothing when systemd did
 * not set it; a failure is logged (later notifications try the path).
 */
void ltt_daemon_notify_connect(void);

/**
 * ltt_daemon_stopping() - tell systemd that shutdown has begun
 *
 * Sends STOPPING=1 to $NOTIFY_SOCKET when systemd set it, as the first
 * step of a shutdown (before sessions are flushed), so that systemd
 * shows the unit as deactivating while the data is written.
 */
void ltt_daemon_stopping(void);

/**
 * ltt_daemon_block_signals() - SIGTERM, SIGINT, SIGHUP to a signalfd
 * @nonblock: the signalfd is non-blocking (for an event loop)
 * @ret_sfd: the signalfd
 *
 * Blocks them in the calling thread (threads started later inherit the
 * mask, so only the signalfd sees them) and ignores SIGPIPE.  Returns 0 or
 * a negative errno.
 */
int ltt_daemon_block_signals(bool nonblock, int *ret_sfd);

/**
 * ltt_daemon_started_as() - was the program run by the name @name?
 * @argc: main()'s
 * @argv: main()'s; argv[0]'s last path component is compared
 * @name: e.g. "lttng-sessiond"
 *
 * The ltt-lttng-compat package installs ltt's daemons under LTTng's names;
 * run so, they take LTTng's options and serve LTTng's tools.
 */
bool ltt_daemon_started_as(int argc, const char **argv, const char *name);

/**
 * ltt_daemon_raise_nofile() - raise the soft open file limit to the hard
 * one (a failure logged at debug level)
 * @ret_limit: the soft limit then; UINT64_MAX: none
 *
 * Returns 0, or -errno when the limit can't be read.
 */
int ltt_daemon_raise_nofile(uint64_t *ret_limit);

/* The codes of the options every daemon's popt table has; its own follow. */
enum {
	LTT_DAEMON_OPT_VERBOSE = 1,	/* -v */
	LTT_DAEMON_OPT_HELP,		/* -h */
	LTT_DAEMON_OPT_VERSION,		/* -V */
	LTT_DAEMON_OPT_OWN,		/* the daemon's first own code */
};

/**
 * ltt_daemon_opt() - popt's code @rc, if one every daemon has: -v counted
 * in *@verbose, -h: @help(@arg) prints the help, -V: @prog's version
 * printed; any other code: nothing done
 *
 * Returns 1 when the daemon is to exit now (help or version printed),
 * else 0.
 */
int ltt_daemon_opt(const char *prog, int rc, int *verbose, void (*help)(void *arg), void *arg);

/**
 * ltt_daemon_args_end() - the end of a daemon's option parsing, the same
 * for the three daemons
 * @prog: the daemon's name, for the message
 * @rc: popt's last code: below -1, an error in option @bad that @why says
 * @rest: the first argument popt left (NULL: none): no daemon takes one
 *
 * Says on stderr what is wrong, and to try @prog --help.  Returns 0, or
 * -1 when the command line is wrong (said).
 */
int ltt_daemon_args_end(const char *prog, int rc, const char *bad, const char *why,
			const char *rest);

/**
 * ltt_daemon_state_dir() - @prog's state directory for @rundir
 * (ltt_state_dir(): $LTT_STATEDIR, else @rundir) into @buf, checked
 * with the options: one not absolute is said on stderr
 *
 * Returns 1 for $LTT_STATEDIR's, 0 for @rundir, or -1 (said).
 */
int ltt_daemon_state_dir(const char *prog, const char *rundir, char *buf, size_t len);

#endif /* LTT_COMMON_DAEMON_H */
