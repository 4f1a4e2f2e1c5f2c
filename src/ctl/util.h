/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * util.h - what the commands share (util.c): parsing their options and
 * arguments, the options several take, numbers, names, paths, URLs,
 * filters, and printing errors; their usage and help (util-help.c).
 * Included through ctl.h.
 */
#ifndef LTT_CTL_UTIL_H
#define LTT_CTL_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <popt.h>

#include <ltt/ltt-ctl.h>

#include "common/model/lttng-gap.h"
#include "ctl/commands.h"

struct ltt_uri;


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

/* -s: the session of a command that acts on one, into values[@val]. */
#define CTL_UTIL_SESSION_OPTION(val) \
	{ "session", 's', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + (val), \
	  "the session (default: the current one)", "SESSION" }

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
 * ctl_util_object_error() - ctl_out_error() of @err naming the object
 * @what '@name', with @err's own sentence ("session 'x': <sentence>")
 *
 * Returns CTL_EXIT_FAILURE, for "return ctl_util_object_error(...)".
 */
int ctl_util_object_error(int err, const char *what, const char *name);

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
 * (@cmd NULL) lttctl's options, if any, then @footer; as text, and as a
 * <help> result object
 * @options: NULL for none
 * @footer: a last paragraph of text (ends with a newline), NULL for none
 */
void ctl_util_help(const struct ctl_cmd *cmd, const struct poptOption *options,
		   const char *footer);

/* What lttctl's own help lists after its options: its commands, given by the table. */
struct ctl_help_list {
	void (*print)(FILE *fp);	/* as text */
	void (*out)(void);		/* as a result object */
};

/**
 * ctl_util_help_all() - lttctl's help, as ctl_util_help(NULL, ...), with
 * @list after its options (commands.c's ctl_cmd_help() gives the commands)
 */
void ctl_util_help_all(const struct ctl_help_list *list, const struct poptOption *options,
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

/**
 * ctl_util_free_argv() - free what a POPT_ARG_ARGV option gathered: each
 * string, then the array (NULL: none)
 */
void ctl_util_free_argv(const char **argv);

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
 * ctl_util_run_args() - the life of a command whose only option is --help
 * and that takes at most @max arguments: parse, then @run with the
 * arguments (@nr of them, borrowed for the call), then free all
 *
 * Returns @run's exit status, or the one after --help or a usage error
 * (@run not called).
 */
int ctl_util_run_args(const struct ctl_ctx *ctx, int argc, const char **argv, int max,
		      int (*run)(const struct ctl_ctx *ctx, const char **args, int nr));

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
 * ctl_util_check_session_ref() - is @name a valid way to name an existing
 * session (NAME or UID/NAME)?  Prints the error.  Returns CTL_EXIT_OK or
 * CTL_EXIT_FAILURE.
 */
int ctl_util_check_session_ref(const char *name);

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

/**
 * ctl_util_refuse_gap() - print the sentence of what ltt lacks of LTTng's
 * (common/model/lttng-gap.h) as an LTTNG_UNSUPPORTED error
 *
 * Returns CTL_EXIT_FAILURE.
 */
int ctl_util_refuse_gap(enum ltt_lttng_gap gap);

/**
 * ctl_util_check_filter() - does the filter expression @filter parse?  A
 * syntax error is printed with the expression and a caret under the bad
 * token (FILTER); the daemon checks the types against each event.
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error.
 */
int ctl_util_check_filter(const char *filter);

/**
 * ctl_util_warn_idle_exclusion() - warn (EXCLUSION) when an exclusion of
 * @list takes none of the names @pattern takes: it is kept, as LTTng's
 * daemon keeps it, but excludes nothing (a misspelt name, likely).
 */
void ctl_util_warn_idle_exclusion(const char *pattern, const char *list);

/**
 * ctl_util_error_detail() - ctl_out_error() whose @detail lines (a filter
 * expression and its caret) follow the message as they are (NULL: none)
 */
void ctl_util_error_detail(int code, const char *detail, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * ctl_util_output_of() - the output a trace goes to: the local directory
 * @dir (made absolute), else @url: file:// its path (local), net://,
 * net4://, net6:// the URL; tcp://, one port of a relay, refused
 * @ret_type: LTT_OUTPUT_LOCAL or LTT_OUTPUT_NET
 * @buf: receives the directory or the URL (@size bytes)
 *
 * Returns CTL_EXIT_OK, or CTL_EXIT_FAILURE after printing the error
 * (OUTPUT_PATH, URL).
 */
int ctl_util_output_of(const char *dir, const char *url, enum ltt_output_type *ret_type,
		       char *buf, size_t size);

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
 * ctl_util_capture() - capture @i of condition @c (below its
 * nr_captures + nr_more_captures): its array's, then more_captures'
 */
const char *ctl_util_capture(const struct ltt_trigger_condition *c, uint32_t i);

/**
 * ctl_util_capture_value() - captured value @i of notification @n (below
 * its nr_captures + nr_more_captures): its array's, then more_captures'
 */
const struct ltt_capture_value *ctl_util_capture_value(const struct ltt_notification *n,
							uint32_t i);

/**
 * ctl_util_config_err() - print a failed save or load: "Error: @what:
 * DETAIL: <message>", the detail (file, line, session) from
 * ltt_ctl_error_detail()
 */
void ctl_util_config_err(struct ltt_ctl *ctl, const char *what, int ret);

#endif /* LTT_CTL_UTIL_H */
