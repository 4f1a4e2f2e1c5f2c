/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctl.h - lttctl, the command line of ltt: a map of its modules.
 *
 *   main.c         global options, then dispatch to one command
 *   commands.[ch]  the command table: name, function, summary, usage, and
 *                  the help command, which lists it; commands.h: what a
 *                  command is (context, exit status) and each command's entry
 *   commands/      one file per command, in a folder by subject:
 *                  commands/SUBJECT/NAME.c exports cmd_NAME() (but help's,
 *                  in commands.c); below the table, never calling it
 *     sessions/    create, destroy, start, stop, set-session, list (a
 *                  session in full, for status too), status, view, version
 *     events/      what a session records: enable-/disable-channel,
 *                  enable-/disable-event, add-context, track and untrack,
 *                  list's events that can be enabled (list_events.c)
 *     triggers/    add-, list-, remove- and wait-trigger
 *     maps/        add-map-channel, show-maps (a map channel's counters,
 *                  for list and export-maps too), export-maps
 *     output/      what a session wrote: snapshot, rotate, enable- and
 *                  disable-rotation, clear, regenerate (and metadata),
 *                  reclaim-memory
 *     saveload/    save, load
 *                  sessions/ calls into events/ and maps/, nothing else
 *                  crosses a subject
 *   complete.c     names for completion scripts: sessions, channels,
 *                  triggers
 *   rc.c           the current session, kept in $LTT_HOME/.lttrc
 *   relayd.c       a local ltt-relayd for "create --live" when none listens
 *   bridge.c       view --live's plain-to-TLS bridge to a relay (bridge.h)
 *   util.[ch]      what the commands share: option parsing, errors, lists
 *   util-help.c    their usage lines, --help, --list-options (util.h)
 *   util-session.[ch]  connecting, the session a command is about, its
 *                  channels
 *   util-event.[ch]  the domain options, the steps enable-event and
 *                  disable-event share
 *   trigger-build.[ch] add-trigger's line, cut into parts, made a trigger
 *   report.c       what a session lost or failed to write, and waiting
 *                  for a streamed session's data (report.h)
 *   objects.[ch]   result objects in LTTng's machine interface;
 *                  obj-trigger.c: a trigger's (objects.h)
 *   out.[ch]       the output: text or MI (out-text.c, out-xml.c,
 *                  out-impl.h)
 *
 * A file of lttctl includes ctl.h, which includes commands.h, objects.h
 * and out.h and declares the calls of complete.c, rc.c and relayd.c; a
 * file includes the other headers above it uses itself (util.h,
 * util-session.h, util-event.h, report.h...), no umbrella.
 *
 * lttctl is a thin layer over libltt-ctl: it checks what the user typed,
 * sends it, and prints what came back.  A command returns its exit status:
 * 0 for success, 1 for a failure, 2 for a usage error.
 */
#ifndef LTT_CTL_CTL_H
#define LTT_CTL_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <popt.h>

#include <ltt/ltt-ctl.h>

#include "common/model/lttng-gap.h"
#include "ctl/commands.h"
#include "ctl/objects.h"
#include "ctl/out.h"

/* complete.c */

/**
 * ctl_complete_sessions() - the names of the sessions lttctl can name, one
 * per line on stdout, escaped as lttctl prints names (another user's as
 * UID/NAME); never starts a session daemon
 *
 * Returns an exit status; errors are printed.
 */
int ctl_complete_sessions(const struct ctl_ctx *ctx);

/**
 * ctl_complete_channels() - the names of the channels of @session (NULL:
 * the current session), both domains, each name once, one per line on
 * stdout; never starts a session daemon
 *
 * Returns an exit status; errors are printed.
 */
int ctl_complete_channels(const struct ctl_ctx *ctx, const char *session);

/**
 * ctl_complete_triggers() - the names of the triggers lttctl can name (root:
 * every user's), each once, one per line on stdout; never starts a
 * session daemon
 *
 * Returns an exit status; errors are printed.
 */
int ctl_complete_triggers(const struct ctl_ctx *ctx);

/* rc.c */

/**
 * ctl_rc_path() - the path of the current-session file, $LTT_HOME/.lttrc
 *
 * Returns 0, -ENOENT when no home directory is known, -ENAMETOOLONG.
 */
int ctl_rc_path(char *buf, size_t len);

/**
 * ctl_rc_read() - the current session
 * @buf: receives the name, at least LTT_NAME_MAX bytes to hold any
 * @len: size of @buf
 *
 * Returns 0; -ENOENT when there is no current session; -EINVAL when the
 * file holds an invalid name; -ENAMETOOLONG; another negative errno when
 * the file can't be read.
 */
int ctl_rc_read(char *buf, size_t len);

/**
 * ctl_rc_write() - make @session the current session
 *
 * Replaces the file atomically (temporary file, then rename) and keeps its
 * other lines.  Returns 0 or a negative errno.
 */
int ctl_rc_write(const char *session);

/**
 * ctl_rc_clear() - forget the current session
 *
 * Returns 0 (also when there was none) or a negative errno.
 */
int ctl_rc_clear(void);

/* relayd.c */

/**
 * ctl_relayd_ensure_local() - a relay daemon on 127.0.0.1's default
 * control port, started if nothing listens there
 * @rundir: the run directory of the session daemon: the relay's pid file
 *          (relayd.pid) and port files go there
 *
 * Starts $LTT_RELAYD_PATH, ltt-relayd next to lttctl, or the installed
 * one, with -d (it returns once listening; 10 s at most), and says so.
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_relayd_ensure_local(const struct ctl_ctx *ctx, const char *rundir);

#endif /* LTT_CTL_CTL_H */
