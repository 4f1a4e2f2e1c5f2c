/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * util-session.h - what the commands share about sessions (util-session.c):
 * connecting to the session daemon, the session a command is about (named,
 * current, every one or a glob's), its detail and channels, the current
 * session forgotten.  Included through ctl.h.
 */
#ifndef LTT_CTL_UTIL_SESSION_H
#define LTT_CTL_UTIL_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include <popt.h>

#include <ltt/ltt-ctl.h>

#include "ctl/commands.h"

/**
 * ctl_util_qualify_name() - name another user's session (root's view of
 * the root daemon) "UID/NAME", the way commands name it, in place; the
 * caller's own sessions keep their plain name (sessions are per user).
 */
void ctl_util_qualify_name(struct ltt_session_info *info);

/**
 * ctl_util_session_name() - the session a command is about
 * @given: the NAME argument or -s option, NULL if none
 * @buf: receives the current session's name when @given is NULL
 * @len: size of @buf, at least LTT_NAME_MAX
 * @ret_name: @given, or @buf
 *
 * Checks a given name; reads the current session otherwise.  Returns
 * CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error (an invalid
 * name, NO_SESSION, an unreadable .lttrc).
 */
int ctl_util_session_name(const char *given, char *buf, size_t len, const char **ret_name);

/* What enable-channel and disable-channel act on (ctl_util_channel_target()). */
struct ctl_channel_target {
	enum ltt_domain domain;
	const char *session;		/* given, or current */
	char current[LTT_NAME_MAX];
	char **names;			/* the channels: free() it, also on failure */
	size_t count;
};

/* How enable-channel or disable-channel reads its channels, and its work. */
struct ctl_channel_cmd {
	bool (*valid)(const char *);		/* a channel name */
	bool (*valid_user)(const char *);	/* in user space; NULL: @valid */
	/* NULL, or run once the domain is known, before the names are read:
	 * CTL_GO_ON goes on, anything else is returned */
	int (*between)(const struct ctl_ctx *ctx, void *arg);
	/* once session @d is read: every channel of @t checked before any is
	 * sent; CTL_EXIT_OK, or the exit status after printing the error */
	int (*check)(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
		     const struct ctl_channel_target *t);
	/* channel @i of @t sent, in the list of those done (ctl_util_channel_done()) */
	int (*send)(void *arg, struct ltt_ctl *ctl, const struct ltt_session_detail *d,
		    const struct ctl_channel_target *t, size_t i);
};

/* The head (first member) of enable-channel's and disable-channel's arguments. */
struct ctl_channel_opts {
	const struct ctl_channel_cmd *cmd;
	int kernel, user;		/* -k, -u */
	char **session;			/* where -s's value goes (NULL: the current one) */
};

/* Their -k, -u and -s options, into @opts (a struct ctl_channel_opts) and values[@val]. */
#define CTL_UTIL_CHANNEL_OPTIONS(opts, val) \
	{ "kernel", 'k', POPT_ARG_NONE, &(opts).kernel, 0, "a kernel channel", NULL }, \
	{ "userspace", 'u', POPT_ARG_NONE, &(opts).user, 0, "a user space channel", NULL }, \
	CTL_UTIL_SESSION_OPTION(val)

/**
 * ctl_util_session_or_all() - the line of save and load: "[NAME | -a]"
 * and a path option
 * @all: -a given
 * @path: the path option's value, NULL if not given
 * @path_opt: its name for the message ("-o")
 * @ret_session: NAME, or NULL (every session)
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_session_or_all(const struct ctl_ctx *ctx, poptContext pc, bool all,
			    const char *path, const char *path_opt, const char **ret_session);

/**
 * ctl_util_rotation_schedule() - the rotation schedules of session @given
 * (-s; NULL: the current one, into @buf of @len bytes) set (@set:
 * ltt_ctl_enable_rotation()) or removed (those of @timer_us and @size not
 * 0: ltt_ctl_disable_rotation()), then LTTng's <rotation_schedule_results>
 * object: the schedules set with their values, or those removed
 * @ret_session: @given or @buf
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_rotation_schedule(const struct ctl_ctx *ctx, const char *given, bool set,
			       uint64_t timer_us, uint64_t size, char *buf, size_t len,
			       const char **ret_session);

/**
 * ctl_util_channel_run() - the run of enable-channel and disable-channel
 * (ctl_util_run()'s @run), @arg their arguments, a struct ctl_channel_opts
 * first: its argument, one comma-separated list of channel names, each
 * checked by the cmd's valid (valid_user in user space), in the domain of
 * -k / -u, in the session of -s (else the current one); then, connected
 * to the session daemon with the session's detail, the cmd's check of
 * every channel and its send of each in turn, in one "channels" object
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_channel_run(const struct ctl_ctx *ctx, poptContext pc, void *arg);

/**
 * ctl_util_channel_done() - one channel of enable-channel or
 * disable-channel: @code, the daemon's answer for channel @attr of
 * session @d (named @session by the user) in @domain; prints the error,
 * or the line and the <channel> object that say it is now @enabled
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_channel_done(int code, const char *session, const struct ltt_session_detail *d,
			  enum ltt_domain domain, const struct ltt_channel_attr *attr,
			  bool enabled);

/**
 * ctl_util_connect() - connect to the session daemon, reporting errors
 * @ctx: --rundir and -n; -v prints the run directory
 * @spawn: start a personal daemon when none is running, unless -n
 * @ret_ctl: the connection; close it with ltt_ctl_disconnect()
 *
 * Says so on stdout when it starts a daemon.  Returns CTL_EXIT_OK, or
 * CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_connect(const struct ctl_ctx *ctx, bool spawn, struct ltt_ctl **ret_ctl);

/**
 * ctl_util_session_connect() - the session a command is about
 * (ctl_util_session_name(): @given, else the current one into @buf of
 * @len bytes) and a connection to the session daemon (ctl_util_connect(),
 * none started)
 * @ret_ctl: the connection; close it with ltt_ctl_disconnect()
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_session_connect(const struct ctl_ctx *ctx, const char *given, char *buf, size_t len,
			     const char **ret_session, struct ltt_ctl **ret_ctl);

/**
 * ctl_util_open_session() - the session of a "CMD [NAME]" line, and a connection
 * @pc: the command's context, its options parsed
 * @buf: receives the current session's name when no NAME was given
 * @len: size of @buf, at least LTT_NAME_MAX
 * @ret_session: NAME (borrowed from @pc) or @buf
 * @ret_ctl: the connection; close it with ltt_ctl_disconnect()
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_open_session(const struct ctl_ctx *ctx, poptContext pc, char *buf, size_t len,
			  const char **ret_session, struct ltt_ctl **ret_ctl);

/* A command's work on the session it is about, connected to its daemon. */
typedef int (*ctl_session_run_fn)(const struct ctl_ctx *ctx, struct ltt_ctl *ctl,
				  const char *session, void *arg);

/**
 * ctl_util_session_cmd() - the life of a "CMD [NAME]" command: parse
 * @options (flags only), open the session (ctl_util_open_session()),
 * call @run with it and @arg, then disconnect and free the context
 *
 * Returns what parsing or opening the session returns when it stops
 * there, else what @run returns.
 */
int ctl_util_session_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			 const struct poptOption *options, ctl_session_run_fn run, void *arg);

/* What ctl_util_each_session() runs on a session: CTL_EXIT_* after printing. */
typedef int (*ctl_session_fn)(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
			      void *arg);

/**
 * ctl_util_each_session() - run @fn on a "CMD [NAME | -a | -g PATTERN]"
 * line's sessions
 * @pc: the command's context, its options parsed
 * @all: -a: every session this user can see (root: every user's, their
 *	names qualified as UID/NAME), going on past a failure; otherwise the
 *	one named, or the current one
 * @glob: -g PATTERN (NULL: none): as -a, those whose name matches
 *	PATTERN (fnmatch(3)); none matching is no error, as in LTTng
 * @fn: the command's work on one session, given @arg
 *
 * Connects (without starting a daemon) and disconnects.  Returns
 * CTL_EXIT_OK, or the exit status after printing the error (-a with a
 * name is a usage error; any failure of @fn fails the command).
 */
int ctl_util_each_session(const struct ctl_ctx *ctx, poptContext pc, bool all, const char *glob,
			  ctl_session_fn fn, void *arg);

/**
 * ctl_util_sessions_cmd() - the life of a "CMD [NAME | -a | -g PATTERN]"
 * command: parse @options, whose -a sets *@all and whose
 * CTL_UTIL_GLOB_OPTION(CTL_OPT_VALUE + 0) is the only string option, run
 * @fn with @arg on the sessions (ctl_util_each_session()) inside a
 * "sessions" element (out.h) when @list or -a or -g, then free all
 *
 * Returns the exit status.
 */
int ctl_util_sessions_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			  const struct poptOption *options, const int *all, bool list,
			  ctl_session_fn fn, void *arg);

/**
 * ctl_util_sessions_wait_cmd() - ctl_util_sessions_cmd() of a command
 * that waits for the recorded data (stop, destroy): "CMD [NAME | -a | -g
 * PATTERN] [-n]", @all_help the help of its -a; @fn's arg is an int,
 * non-zero when -n (--no-wait) was given
 *
 * Returns the exit status.
 */
int ctl_util_sessions_wait_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			       const char *all_help, ctl_session_fn fn);

/**
 * ctl_util_rundir() - the run directory lttctl talks to, for messages
 * @buf: used when --rundir was not given
 *
 * Returns --rundir, the library's default in @buf, or "(unknown)".
 */
const char *ctl_util_rundir(const struct ctl_ctx *ctx, char *buf, size_t len);

/**
 * ctl_util_get_session() - ltt_ctl_get_session(), printing its error; another
 * user's session is named UID/NAME in the detail (ctl_util_qualify_name())
 * @ret_detail: one heap block, free() it
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_get_session(struct ltt_ctl *ctl, const char *session,
			 struct ltt_session_detail **ret_detail);

/**
 * ctl_util_open_detail() - a connection (ctl_util_connect(), no daemon
 * started) and ctl_util_get_session() on it
 * @ret_ctl: the connection, also on failure: close it with ltt_ctl_disconnect()
 * @ret_detail: free() it
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_open_detail(const struct ctl_ctx *ctx, const char *session, struct ltt_ctl **ret_ctl,
			 struct ltt_session_detail **ret_detail);

/**
 * ctl_util_local_trace() - the directory of the local trace of session
 * @given (or the current one), for a reader: view, export-trace
 * @dir: receives it (@len bytes)
 * @ret_name: receives the session's name (LTT_NAME_MAX bytes); may be NULL
 * @ret_ctf2: set to whether the session writes CTF 2; may be NULL
 *
 * Returns CTL_EXIT_OK, or the exit status after saying why there is none
 * (no session, a network or no output, nothing recorded yet).
 */
int ctl_util_local_trace(const struct ctl_ctx *ctx, const char *given, char *dir, size_t len,
			 char *ret_name, bool *ret_ctf2);

/**
 * ctl_util_fetch_session() - ctl_util_get_session() on a connection of
 * its own (ctl_util_connect(), no daemon started), closed before it returns
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_fetch_session(const struct ctl_ctx *ctx, const char *session,
			   struct ltt_session_detail **ret_detail);

/**
 * ctl_util_fetch_triggers() - ltt_ctl_list_triggers() on a connection of
 * its own (ctl_util_connect(), no daemon started), closed before it returns
 * @ret_triggers: free() it
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_fetch_triggers(const struct ctl_ctx *ctx, struct ltt_trigger_info **ret_triggers,
			    size_t *ret_count);

/**
 * ctl_util_list_sessions() - ltt_ctl_list_sessions(), printing its error
 * @ret_sessions: free() it
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_list_sessions(struct ltt_ctl *ctl, struct ltt_session_info **ret_sessions,
			   size_t *ret_count);

/**
 * ctl_util_find_channel() - the channel @name of @domain in @detail, or NULL
 *
 * Returns a pointer into @detail (borrowed).
 */
const struct ltt_channel_info *ctl_util_find_channel(const struct ltt_session_detail *detail,
						     enum ltt_domain domain, const char *name);

/**
 * ctl_util_forget_session() - clear the current session if it is @session
 *
 * For destroy.  A failure is printed as a warning: the session is gone
 * whatever happens to .lttrc.
 */
void ctl_util_forget_session(const char *session);

#endif /* LTT_CTL_UTIL_SESSION_H */
