/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctl.h - lttctl, the command line of ltt: a map of its modules.
 *
 *   main.c         global options, then dispatch to one command
 *   commands.c     the command table: name, function, summary, usage
 *   commands/      one file per command: commands/NAME.c exports cmd_NAME()
 *   complete.c     names for completion scripts: sessions, channels,
 *                  triggers
 *   rc.c           the current session, kept in $LTT_HOME/.lttrc
 *   relayd.c       a local ltt-relayd for "create --live" when none listens
 *   bridge.c       view --live's plain-to-TLS bridge to a relay (bridge.h)
 *   util.c         what the commands share: option parsing, errors, lists
 *   util-help.c    their usage lines, --help, --list-options
 *   util-session.c connecting, the session a command is about, its channels
 *   util-event.c   the steps enable-event and disable-event share
 *   trigger-build.[ch] add-trigger's line, cut into parts, made a trigger
 *   report.c       what a session lost or failed to write, and waiting
 *                  for a streamed session's data (report.h)
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
#include "ctl/out.h"

enum ctl_exit {
	CTL_EXIT_OK = 0,
	CTL_EXIT_FAILURE = 1,
	CTL_EXIT_USAGE = 2,
};

struct ctl_cmd;
struct ltt_uri;

/* What the global options asked for; one per run of lttctl. */
struct ctl_ctx {
	int verbose;			/* -v count */
	bool quiet;			/* -q: errors only */
	bool no_sessiond;		/* -n: never start a session daemon */
	const char *rundir;		/* --rundir, NULL for the library's default */
	const struct ctl_cmd *cmd;	/* the command being run */
};

typedef int (*ctl_cmd_fn)(const struct ctl_ctx *ctx, int argc, const char **argv);

struct ctl_cmd {
	const char *name;	/* as typed: "enable-channel" */
	ctl_cmd_fn run;		/* argv[0] is the command's name */
	const char *summary;	/* one line for 'lttctl help' */
	const char *usage;	/* the arguments, after "lttctl NAME " */
};

/* commands.c */

/**
 * ctl_cmd_find() - the command called @name, or NULL
 */
const struct ctl_cmd *ctl_cmd_find(const char *name);

/**
 * ctl_cmd_lttng_gap() - whether @name is a command of LTTng's that ltt
 * lacks (2.16's maps), and which (*@ret_gap, set only then)
 */
bool ctl_cmd_lttng_gap(const char *name, enum ltt_lttng_gap *ret_gap);

/**
 * ctl_cmd_print_list() - one line per command, name and summary, on @fp
 */
void ctl_cmd_print_list(FILE *fp);

/**
 * ctl_cmd_out_list() - the commands as a <commands> result object
 */
void ctl_cmd_out_list(void);

/**
 * ctl_cmd_print_names() - the commands' names on @fp, one per line
 * ("lttctl --list-commands")
 */
void ctl_cmd_print_names(FILE *fp);

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

/* commands/NAME.c: each parses its own options from argv[1] on. */
int cmd_create(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_destroy(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_start(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_stop(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_list(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_status(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_set_session(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_enable_channel(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_disable_channel(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_add_context(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_enable_event(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_disable_event(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_version(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_view(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_snapshot(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_help(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_rotate(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_enable_rotation(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_disable_rotation(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_clear(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_regenerate(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_reclaim_memory(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_add_map_channel(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_show_maps(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_export_maps(const struct ctl_ctx *ctx, int argc, const char **argv);

/**
 * ctl_maps_list_one() - list NAME --map-channel: map channel @map of
 * @session, its settings and how many keys it took, said (show_maps.c)
 *
 * Returns CTL_EXIT_OK, or the exit status of the error it said.
 */
int ctl_maps_list_one(struct ltt_ctl *ctl, const char *session, const char *map);

/**
 * ctl_maps_fetch() - the map channels of the session @given (NULL: the
 * current one, named into @session_buf of @len bytes) with their
 * counters (show_maps.c)
 * @ret_session: the session's name
 * @ret_maps, @ret_count: free with ltt_ctl_maps_free()
 *
 * Returns CTL_EXIT_OK, or the exit status of the error it said.
 */
int ctl_maps_fetch(const struct ctl_ctx *ctx, const char *given, char *session_buf,
		   size_t len, const char **ret_session, struct ltt_map_desc **ret_maps,
		   size_t *ret_count);
int cmd_metadata(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_save(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_load(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_track(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_untrack(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_add_trigger(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_list_triggers(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_remove_trigger(const struct ctl_ctx *ctx, int argc, const char **argv);
int cmd_wait_trigger(const struct ctl_ctx *ctx, int argc, const char **argv);

/**
 * cmd_track_list() - list's lines on @session's process trackers of the
 * kernel domain (@kernel) and the user-space domain (@user), each only
 * when one of its trackers leaves a process out (every process is the
 * default); none from a daemon
 * without trackers (before client protocol minor 9) or without the domain
 */
void cmd_track_list(struct ltt_ctl *ctl, const char *session, bool kernel, bool user);

/**
 * cmd_track_list_mi() - the <process_attr_trackers> of @session's @domain
 * (list's objects; nothing from a daemon without trackers)
 */
void cmd_track_list_mi(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain);

/**
 * ctl_util_config_err() - print a failed save or load: "Error: @what:
 * DETAIL: <message>", the detail (file, line, session) from
 * ltt_ctl_error_detail()
 */
void ctl_util_config_err(struct ltt_ctl *ctl, const char *what, int ret);

/**
 * cmd_list_show_session() - print one session in full (list NAME, status)
 * @ctl: the connection (borrowed)
 * @session: its name
 * @domains: the domains to show, a set of CMD_LIST_DOMAIN(domain); 0 for
 *	      every one (as LTTng, list NAME -k -u shows both)
 * @channel: the only channel to show (NULL: every one); one the domains
 *	     shown lack is CHANNEL_NOT_FOUND, and nothing is printed
 * @mem: in each user-space channel's object, the memory its buffers hold
 *	 now (LTTng 2.15's <data_stream_info_sets>; list --mem-usage --mi xml)
 *
 * Returns an exit status; errors are printed.
 */
#define CMD_LIST_DOMAIN(d) (1u << (d))
int cmd_list_show_session(struct ltt_ctl *ctl, const char *session, unsigned int domains,
			  const char *channel, bool mem);

struct ctl_domain_opts;

/* The CMD_LIST_DOMAIN() set of @d's -k, -u, -p, -j and -l (0: none given). */
unsigned int cmd_list_domains(const struct ctl_domain_opts *d);

/*
 * What list NAME and status take of LTTng 2.15's and 2.16's: the -c,
 * domain, --no-truncate (ltt truncates no name: taken) and --map-channel
 * options, --style refused.
 */
#define CMD_LIST_SESSION_OPTIONS(d, channel_val, no_truncate, map_val) \
	{ "kernel", 'k', POPT_ARG_NONE, &(d)->kernel, 0, \
	  "the kernel domain (without NAME: the available kernel events)", NULL }, \
	{ "userspace", 'u', POPT_ARG_NONE, &(d)->user, 0, \
	  "the user space domain (without NAME: the available user space events)", NULL }, \
	CTL_UTIL_AGENT_OPTIONS(&(d)->python, &(d)->jul, &(d)->log4j), \
	{ "channel", 'c', POPT_ARG_STRING, NULL, (channel_val), \
	  "with NAME: only the channel CHANNEL and its rules", "CHANNEL" }, \
	{ "no-truncate", 0, POPT_ARG_NONE, (no_truncate), 0, \
	  "LTTng's: taken, ltt truncating no names", NULL }, \
	CTL_UTIL_GAP_OPTION("style", 0, POPT_ARG_STRING, LTT_LTTNG_GAP_LIST_STYLE, \
			    "LTTng's text layouts (refused: ltt has one; --mi xml for programs)", \
			    "STYLE"), \
	{ "map-channel", 0, POPT_ARG_STRING, NULL, (map_val), \
	  "only the map channel CHANNEL: its settings (show-maps: its counters)", "CHANNEL" }

/*
 * objects.c: result objects several commands report, in LTTng's machine
 * interface (out.h, doc/mi.md)
 */

/**
 * ctl_obj_session_open() - open a <session> with the facts of @s (name,
 * path, enabled, snapshot_mode, live_timer_interval); the caller may add
 * children, then closes it with ctl_out_close()
 */
void ctl_obj_session_open(const struct ltt_session_info *s);

/**
 * ctl_obj_session_name() - a <session> holding only its name
 */
void ctl_obj_session_name(const char *name);

/**
 * ctl_obj_domain_type() - LTTng's name of @domain in its MI ("KERNEL",
 * "UST", "JUL", "LOG4J", "PYTHON"); a static string
 */
const char *ctl_obj_domain_type(enum ltt_domain domain);

/**
 * ctl_obj_domain_open() - open a <domain>: LTTng's type of @domain (one
 * table in objects.c) and its @buffers (DEFAULT: the domain's default);
 * the caller adds channels, events or trackers, then ctl_out_close()
 */
void ctl_obj_domain_open(enum ltt_domain domain, enum ltt_buffer_type buffers);

/**
 * ctl_obj_channel_open() - open a <channel>: its name, @enabled, and its
 * <attributes> (@a in @domain of session @s, with its counters; the live
 * timer the session's, the monitor timer the daemon's sampling period,
 * blocking timeout 0); the caller may add <events> or <success>, then
 * ctl_out_close()
 */
void ctl_obj_channel_open(const struct ltt_session_info *s, enum ltt_domain domain,
			  const struct ltt_channel_attr *a, bool enabled, uint64_t discarded_events,
			  uint64_t lost_packets);

/**
 * ctl_obj_rule_open() - open an <event>: the rule @a of @domain (name,
 * type, log level, filter, exclusions) and @enabled; the caller may add
 * <success>, then ctl_out_close()
 */
void ctl_obj_rule_open(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled);

/**
 * ctl_obj_rule() - ctl_obj_rule_open() and ctl_out_close()
 */
void ctl_obj_rule(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled);

/**
 * ctl_obj_name_list() - an @element holding an @item per name of the
 * comma-separated @list ("a,b": <exclusions><exclusion>a</exclusion>...)
 */
void ctl_obj_name_list(const char *element, const char *item, const char *list);

/**
 * ctl_obj_tracker() - a <TYPE_process_attr_tracker>: the process tracker
 * @type, its @policy (ALL: a value <all>; NONE: no value) and, for a set,
 * its @nr @ids
 */
void ctl_obj_tracker(enum ltt_tracker_type type, enum ltt_tracker_policy policy,
		     const uint32_t *ids, size_t nr);

/**
 * ctl_obj_snapshot_output() - a <snapshot>: the snapshot output @o (its
 * directory or relay URL as ctrl_url) of @session (NULL: not said)
 */
void ctl_obj_snapshot_output(const struct ltt_snapshot_output *o, const char *session);

/**
 * ctl_obj_rotation_schedule() - the <periodic> (@timer_us) and
 * <size_threshold> (@size) schedules of a rotation, those not 0
 */
void ctl_obj_rotation_schedule(uint64_t timer_us, uint64_t size);

/**
 * ctl_obj_config() - a <save> or (@load) <load> of the @n session
 * configuration files @files: the session (its name; with several, the
 * one @asked or "*"), the file (with several, their directory) and, for
 * load, the <overrides> (@override_name, @override_url: NULL or given)
 */
void ctl_obj_config(bool load, const struct ltt_session_file *files, size_t n, const char *asked,
		    const char *override_name, const char *override_url);

/**
 * ctl_obj_context() - a <context>: the context @name ("vpid", "perf:cpu:
 * cycles", "$app.P:C") as LTTng's MI types it; nothing for a context its
 * MI has no type for
 */
void ctl_obj_context(const char *name);

/**
 * ctl_obj_version() - a <version>: lttctl's @version ("0.9.1") as LTTng's
 * MI describes a version
 */
void ctl_obj_version(const char *version);

/* obj-trigger.c: a trigger in LTTng's machine interface (doc/mi.md) */

/**
 * ctl_obj_trigger() - a <trigger>: @t's name, owner (the caller when
 * @t's owner_uid is -1), condition, actions (an <action_list>) and the
 * counters LTTng's schema has a place for (failures, notifications
 * dropped)
 */
void ctl_obj_trigger(const struct ltt_trigger_info *t);

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

/* util.c */

/*
 * Commands parse their line in two steps: ctl_util_parse() for the options,
 * then a look at the arguments left.  Parsing returns CTL_GO_ON, or the
 * exit status when the command is already over (--help, a usage error).
 */
#define CTL_GO_ON (-1)

/*
 * Option values: --help, and the options whose string argument goes to
 * values[val - CTL_OPT_VALUE] (see ctl_util_parse()).  Flags need no
 * value: popt stores them through their arg pointer.
 */
enum ctl_opt {
	CTL_OPT_HELP = 1,
	CTL_OPT_LIST_OPTIONS,	/* every command's, added by ctl_util_parse() */
	CTL_OPT_VALUE = 16,
	CTL_OPT_GAP = 4096,	/* + enum ltt_lttng_gap: refused by ctl_util_parse() */
};

/*
 * An option of LTTng's that ltt lacks: ctl_util_parse() refuses it with
 * the sentence of @gap (ctl_util_refuse_gap()) before anything is done.
 */
#define CTL_UTIL_GAP_OPTION(name, short_name, arg_info, gap, help, arg_descrip) \
	{ (name), (short_name), (arg_info), NULL, CTL_OPT_GAP + (gap), (help), (arg_descrip) }

/*
 * LTTng 2.14's -g/--glob PATTERN of start, stop and destroy: the sessions
 * whose name matches (ctl_util_each_session()), into values[@val -
 * CTL_OPT_VALUE].
 */
#define CTL_UTIL_GLOB_OPTION(val) \
	{ "glob", 'g', POPT_ARG_STRING, NULL, (val), \
	  "the sessions whose name matches PATTERN (shell wildcards: quote them)", "PATTERN" }

/* The --help entry of every command's option table. */
#define CTL_UTIL_HELP_OPTION \
	{ "help", 'h', POPT_ARG_NONE, NULL, CTL_OPT_HELP, "show this help", NULL }

/*
 * --tls-cert, --tls-key, --tls-ca into values[@val], values[@val + 1],
 * values[@val + 2]: the files of TLS to a relay (ctl_util_tls_files())
 */
#define CTL_UTIL_TLS_OPTIONS(val) \
	{ "tls-cert", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + (val), \
	  "TLS to the relay: our certificate (PEM), which the relay's CA signed", "FILE" }, \
	{ "tls-key", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + (val) + 1, \
	  "TLS to the relay: the private key of --tls-cert (PEM)", "FILE" }, \
	{ "tls-ca", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + (val) + 2, \
	  "TLS to the relay: the CA that signed the relay's certificate (PEM)", "FILE" }

struct ltt_net_module;
struct ltt_xport_ctx;

/**
 * ctl_util_tls_files() - the three files of CTL_UTIL_TLS_OPTIONS (@values,
 * all three set), made absolute into @paths and loaded as a client's TLS
 * end, as the consumer or the bridge will, by the TLS module (loaded
 * here, on the first TLS command: common/net/net-module.h)
 * @ret_net: the module, to use and free @ret_tls with (NULL: not wanted)
 * @ret_tls: the loaded end (NULL: freed here)
 * @outcome: ends the error's sentence ("; nothing was created", or "")
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error
 * (TLS_MODULE: the module's file and why it does not load; TLS_FILES:
 * which file, what is wrong with it).
 */
int ctl_util_tls_files(char *const *values, char paths[3][LTT_PATH_MAX],
		       const struct ltt_net_module **ret_net, struct ltt_xport_ctx **ret_tls,
		       const char *outcome);

/**
 * ctl_util_out() - ctl_out_text(): kept for code written before out.h
 */
void ctl_util_out(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ctl_util_eout() - printf() on stderr with control characters escaped,
 * after flushing stdout; not part of a --mi document: use ctl_out_warn()
 */
void ctl_util_eout(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ctl_util_err() - ctl_out_error() without a code (LTT_ERR_UNKNOWN):
 * kept for code written before out.h; new code calls ctl_out_error()
 */
void ctl_util_err(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ctl_util_usage_error() - ctl_out_usage_error() with the usage line of
 * the current command (lttctl's own before one is known)
 *
 * Returns CTL_EXIT_USAGE, for "return ctl_util_usage_error(...)".
 */
int ctl_util_usage_error(const struct ctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * ctl_util_info() - ctl_out_info(): kept for code written before out.h
 */
void ctl_util_info(const struct ctl_ctx *ctx, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * ctl_util_print_usage() - "Usage: lttctl CMD ARGS" on @fp; @cmd NULL: lttctl's own
 */
void ctl_util_print_usage(FILE *fp, const struct ctl_cmd *cmd);

/**
 * ctl_util_print_options() - the options of @options, one per line, on @fp
 */
void ctl_util_print_options(FILE *fp, const struct poptOption *options);

/**
 * ctl_util_help() - a help: usage, then summary and options of @cmd, or
 * (@cmd NULL) lttctl's options, if any, and its commands, then @footer;
 * as text, and as a <help> result object
 * @options: NULL for none
 * @footer: a last paragraph of text (ends with a newline), NULL for none
 */
void ctl_util_help(const struct ctl_cmd *cmd, const struct poptOption *options,
		   const char *footer);

/**
 * ctl_util_list_options() - the options of @options on @fp, one per line:
 * "--long", then "-s" when it has a short form (what "lttctl --list-options"
 * and "lttctl CMD --list-options" print for completion scripts)
 */
void ctl_util_list_options(FILE *fp, const struct poptOption *options);

/**
 * ctl_util_names_only() - may @option ("--list-commands", ...), which prints
 * plain names for scripts, run?  Not under --mi: it then prints the error
 * (MI_UNSUPPORTED).  Returns CTL_EXIT_OK or CTL_EXIT_FAILURE.
 */
int ctl_util_names_only(const char *option);

/**
 * ctl_util_print_help() - usage, summary and options of the current command
 */
void ctl_util_print_help(const struct ctl_ctx *ctx, const struct poptOption *options);

/**
 * ctl_util_parse() - parse a command's options
 * @argv: argv[0] is the command's name; borrowed for the context's life
 * @options: the command's table (borrowed for the context's life): flags
 *           with an arg pointer, string options with the val
 *           CTL_OPT_VALUE + N and no arg pointer
 * @values: receives the argument of the option of val CTL_OPT_VALUE + N in
 *          @values[N] (the last of a repeated option wins; NULL if not
 *          given); the caller frees them, whatever the result.  NULL when
 *          the table has no string option.
 * @ret_pc: the context, for ctl_util_args(); free it with poptFreeContext()
 *
 * Options and arguments may be mixed; "--" ends the options.  --help
 * prints the command's help, --list-options (taken by every command, not
 * in @options) its options one per line; a bad option prints a usage error.
 * Returns CTL_GO_ON (and sets @ret_pc), CTL_EXIT_OK after --help,
 * CTL_EXIT_USAGE, or CTL_EXIT_FAILURE (out of memory, printed).
 */
int ctl_util_parse(const struct ctl_ctx *ctx, int argc, const char **argv,
		   const struct poptOption *options, char **values, poptContext *ret_pc);

/**
 * ctl_util_free_values() - free the @nr strings of ctl_util_parse()
 */
void ctl_util_free_values(char **values, size_t nr);

/* A command's work once its options are parsed; @arg is the command's. */
typedef int (*ctl_run_fn)(const struct ctl_ctx *ctx, poptContext pc, void *arg);

/**
 * ctl_util_run() - the life of a command: parse its options
 * (ctl_util_parse(), with @values), call @run with the context and @arg,
 * then free the context and the @nr_values strings of @values (NULL: none)
 * whatever happened
 *
 * Returns what ctl_util_parse() returns when it stops there (--help, a
 * usage error), else what @run returns.
 */
int ctl_util_run(const struct ctl_ctx *ctx, int argc, const char **argv,
		 const struct poptOption *options, char **values, size_t nr_values,
		 ctl_run_fn run, void *arg);

/**
 * ctl_util_args() - the arguments left after the options
 * @ret_args: borrowed from @pc, NULL-terminated
 *
 * Returns their number.
 */
int ctl_util_args(poptContext pc, const char ***ret_args);

/**
 * ctl_util_parse_args() - parse a command whose only option is --help and
 * that takes at most @max arguments
 * @ret_pc: the context; free it with poptFreeContext()
 * @ret_args: the arguments, borrowed from the context
 * @ret_nr: their number
 *
 * Returns CTL_GO_ON (and sets the three), or the exit status after --help
 * or a usage error (nothing to free then).
 */
int ctl_util_parse_args(const struct ctl_ctx *ctx, int argc, const char **argv, int max,
			poptContext *ret_pc, const char ***ret_args, int *ret_nr);

/**
 * ctl_util_check_nr_args() - a usage error if there are more than @max arguments
 * @args: the arguments, for the message
 * @nr: their number
 *
 * Returns CTL_EXIT_OK or, after printing the error, CTL_EXIT_USAGE.
 */
int ctl_util_check_nr_args(const struct ctl_ctx *ctx, const char **args, int nr, int max);

/**
 * ctl_util_domain() - the domain of -k / -u
 * @kernel: -k given
 * @user: -u given
 * @ret_domain: LTT_DOMAIN_KERNEL or LTT_DOMAIN_USER
 *
 * Exactly one is needed.  Returns CTL_EXIT_OK, or CTL_EXIT_USAGE after
 * printing the error.
 */
int ctl_util_domain(const struct ctl_ctx *ctx, bool kernel, bool user,
		    enum ltt_domain *ret_domain);

/**
 * ctl_util_parse_us() - a time value in microseconds, as LTTng's commands
 * take it: a decimal number with no suffix or "us" (microseconds), "ms",
 * "s", "m" (minutes) or "h" ("1s", "250ms", "100")
 * @max_us: the largest value accepted, in microseconds
 * @ret_us: the value in microseconds, set only on success
 *
 * Returns 0, -EINVAL (no number, another suffix) or -ERANGE (over @max_us).
 */
int ctl_util_parse_us(const char *text, uint64_t max_us, uint64_t *ret_us);

/**
 * ctl_util_parse_u64() - a decimal number, nothing else
 * @text: digits only: no sign, no spaces, no suffix
 * @max: the largest value accepted
 * @ret_value: the number
 *
 * Returns 0, -EINVAL for anything but digits, -ERANGE above @max.
 */
int ctl_util_parse_u64(const char *text, uint64_t max, uint64_t *ret_value);

/**
 * ctl_util_name_list() - split and check a comma-separated list of names
 * @text: "a,b,c"
 * @what: what an item is, for messages: "channel", "event rule"
 * @valid: the check of one item
 * @code: the error code of an item that fails @valid
 * @ret_items: NULL-terminated array of @ret_count items, one heap block
 *             (the strings live inside it): free() it
 * @ret_count: the number of items
 *
 * Every item is checked before any is used, so one bad item changes
 * nothing.  An empty or repeated item is a usage error.  Returns
 * CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_name_list(const struct ctl_ctx *ctx, const char *text, const char *what,
		       bool (*valid)(const char *), int code, char ***ret_items,
		       size_t *ret_count);

/**
 * ctl_util_abs_path() - @path made absolute from the current directory
 * @buf: receives the path ("./" prefixes and trailing '/' dropped; "." is
 *       the directory itself)
 *
 * Returns 0, -EINVAL for an empty path, -ENAMETOOLONG, or getcwd()'s error.
 */
int ctl_util_abs_path(const char *path, char *buf, size_t len);

/**
 * ctl_util_check_session_name() - is @name a valid session name?
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_check_session_name(const char *name);

/**
 * ctl_util_rc_err() - print an error of ctl_rc_read() or ctl_rc_write()
 * @err: the negative errno they returned
 */
void ctl_util_rc_err(int err);

/**
 * ctl_util_qualify_name() - name another user's session (root's view of
 * the root daemon) "UID/NAME", the way commands name it, in place; the
 * caller's own sessions keep their plain name (sessions are per user).
 */
void ctl_util_qualify_name(struct ltt_session_info *info);

/**
 * ctl_util_check_session_ref() - is @name a valid way to name an existing
 * session (NAME or UID/NAME)?  Prints the error.  Returns CTL_EXIT_OK or
 * CTL_EXIT_FAILURE.
 */
int ctl_util_check_session_ref(const char *name);

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
 * ctl_util_find_channel() - the channel @name of @domain in @detail, or NULL
 *
 * Returns a pointer into @detail (borrowed).
 */
const struct ltt_channel_info *ctl_util_find_channel(const struct ltt_session_detail *detail,
						     enum ltt_domain domain, const char *name);

/*
 * LTTng's --log4j2 (2.14), refused: ltt has no Log4j 2 domain.
 */
#define CTL_UTIL_LOG4J2_OPTION \
	CTL_UTIL_GAP_OPTION("log4j2", 0, POPT_ARG_NONE, LTT_LTTNG_GAP_LOG4J2, \
			    "LTTng's Apache Log4j 2 domain (refused: use -l, log4j 1.x, or -j)", NULL)

/*
 * The agent domains' options, -p/--python, -j/--jul and -l/--log4j, in an
 * option table (common/model/agent.h: their rules name loggers), and LTTng's
 * --log4j2, refused.
 */
#define CTL_UTIL_AGENT_OPTIONS(python, jul, log4j) \
	CTL_UTIL_LOG4J2_OPTION, \
	{ "python", 'p', POPT_ARG_NONE, (python), 0, \
	  "Python's logging module (ltt.agent, LTTng's lttngust): names are loggers", NULL }, \
	{ "jul", 'j', POPT_ARG_NONE, (jul), 0, \
	  "java.util.logging (LTTng's JUL agent): names are loggers", NULL }, \
	{ "log4j", 'l', POPT_ARG_NONE, (log4j), 0, \
	  "log4j 1.x (LTTng's log4j agent): names are loggers", NULL }

/* The domain options a command was given: set by its option table. */
struct ctl_domain_opts {
	int kernel, user, python, jul, log4j;	/* -k, -u, -p, -j, -l */
};

/**
 * ctl_util_any_domain() - the one domain of @o (kernel, user space or an
 * agent domain)
 * @ret_domain: LTT_DOMAIN_NONE when @o has none
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_USAGE after printing the error when
 * two are given.
 */
int ctl_util_any_domain(const struct ctl_ctx *ctx, const struct ctl_domain_opts *o,
			enum ltt_domain *ret_domain);

/**
 * ctl_util_refuse_gap() - print the sentence of what ltt lacks of LTTng's
 * (common/model/lttng-gap.h) as an LTTNG_UNSUPPORTED error
 *
 * Returns CTL_EXIT_FAILURE.
 */
int ctl_util_refuse_gap(enum ltt_lttng_gap gap);

/**
 * ctl_util_need_channel() - would a rule of @ev, which names no channel,
 * be ambiguous in @detail (its domain has a channel other than channel0,
 * as the session daemon checks)?  Then prints NEED_CHANNEL_NAME.
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
struct ctl_event_cmd;
int ctl_util_need_channel(const struct ltt_session_detail *detail,
			  const struct ctl_event_cmd *ev);

/* What enable-event and disable-event share. */
struct ctl_event_cmd {
	struct ctl_domain_opts d;	/* -k, -u, -p, -j, -l: set by the option table */
	int all;			/* -a */
	enum ltt_domain domain;
	const char *session;		/* -s, or the current session in current[] */
	char current[LTT_NAME_MAX];
	const char *channel;		/* -c, NULL for the default channel (an agent domain: its one) */
	char **patterns;		/* NULL with -a: see ctl_util_name_list() */
	size_t count;
};

/**
 * ctl_util_event_cmd_init() - check "(-k|-u) (PATTERN[,...] | -a) [-s S] [-c C]"
 * @pc: the command's context, its options parsed
 * @session: the -s argument or NULL (borrowed for @ev's life)
 * @channel: the -c argument or NULL (borrowed for @ev's life)
 * @ev: kernel, user and all set by the options; the rest is filled here
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 * Call ctl_util_event_cmd_fini() in both cases.
 */
int ctl_util_event_cmd_init(const struct ctl_ctx *ctx, poptContext pc, const char *session,
			    const char *channel, struct ctl_event_cmd *ev);

/**
 * ctl_util_event_cmd_fini() - free what ctl_util_event_cmd_init() allocated
 */
void ctl_util_event_cmd_fini(struct ctl_event_cmd *ev);

/**
 * ctl_util_event_channel() - the channel of @ev by name, the default one included
 */
const char *ctl_util_event_channel(const struct ctl_event_cmd *ev);

/**
 * ctl_util_check_filter() - does the filter expression @filter parse?  A
 * syntax error is printed with the expression and a caret under the bad
 * token (FILTER); the daemon checks the types against each event.
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_check_filter(const char *filter);

/**
 * ctl_util_error_detail() - ctl_out_error() whose @detail lines (a filter
 * expression and its caret) follow the message as they are (NULL: none)
 */
void ctl_util_error_detail(int code, const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * ctl_util_snapshot_where() - where snapshots go, into @out: the local
 * directory @dir (made absolute), or @url (file://, net://, net4://,
 * net6://, or an absolute path: file://, as LTTng takes it); @out is left
 * alone when both are NULL.  The caller refuses both at once.
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error
 * (OUTPUT_PATH, URL).
 */
int ctl_util_snapshot_where(const char *dir, const char *url, struct ltt_snapshot_output *out);

/**
 * ctl_util_parse_port_url() - a URL of one relay port: tcp://HOST[:PORT]
 * (tcp4, tcp6), or the same spelled tls:// (then *@tls is set)
 *
 * Returns 0 or -EINVAL (ltt_uri_parse()'s).
 */
int ctl_util_parse_port_url(const char *text, struct ltt_uri *ret_uri, bool *tls);

/**
 * ctl_util_url_pair() - the net URL (net://HOST:C:D/PATH) of LTTng's
 * -C/--ctrl-url @ctrl and -D/--data-url @data, two tcp URLs of one host,
 * into @buf (@len bytes); both spelled tls://HOST[:PORT] give the tls://
 * URL
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error
 * (URL_PAIR, naming the URL at fault).
 */
int ctl_util_url_pair(const char *ctrl, const char *data, char *buf, size_t len);

/**
 * ctl_util_trigger_error() - print the error @code (either sign) of a
 * call about the trigger @trigger (NULL or "": one not named yet), or,
 * for NOT_SUPPORTED, that the daemon predates triggers
 */
void ctl_util_trigger_error(const char *trigger, int code);

/**
 * ctl_util_forget_session() - clear the current session if it is @session
 *
 * For destroy.  A failure is printed as a warning: the session is gone
 * whatever happens to .lttrc.
 */
void ctl_util_forget_session(const char *session);

#endif /* LTT_CTL_CTL_H */
