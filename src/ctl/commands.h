/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * commands.h - what a command of lttctl is (its context, its exit status,
 * its row of the table), the command table (commands.c), each command's
 * entry (commands/SUBJECT/NAME.c), and what list, status, show-maps and
 * track give one another.  Included through ctl.h.
 */
#ifndef LTT_CTL_COMMANDS_H
#define LTT_CTL_COMMANDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <ltt/ltt-ctl.h>

#include "common/model/lttng-gap.h"

struct poptOption;

enum ctl_exit {
	CTL_EXIT_OK = 0,
	CTL_EXIT_FAILURE = 1,
	CTL_EXIT_USAGE = 2,
	/* add-context: a perf counter this machine can't count (LTTng's CMD_WARNING) */
	CTL_EXIT_WARNING = 4,
};

struct ctl_cmd;

/* What the global options asked for; one per run of lttctl. */
struct ctl_ctx {
	int verbose;			/* -v count */
	bool quiet;			/* -q: errors only */
	bool no_sessiond;		/* -n: never start a session daemon */
	const char *rundir;		/* --rundir, NULL for the library's default */
	const struct ctl_cmd *cmd;	/* the command being run */
	/* argv[0] when run by the name lttng (ltt-lttng-compat's link), else NULL */
	const char *lttng_name;
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
 * ctl_cmd_help() - lttctl's help: its options @options (NULL: none), the
 * commands, then @footer (NULL: none); as text and as a result object
 */
void ctl_cmd_help(const struct poptOption *options, const char *footer);

/**
 * ctl_cmd_print_names() - the commands' names on @fp, one per line
 * ("lttctl --list-commands")
 */
void ctl_cmd_print_names(FILE *fp);

/* commands/SUBJECT/NAME.c: each parses its own options from argv[1] on. */
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
int cmd_export_trace(const struct ctl_ctx *ctx, int argc, const char **argv);
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
 * cmd_track_some() - whether a process tracker of @session's @domain
 * leaves some process out (LTTng then has the domain, channels or not)
 */
bool cmd_track_some(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain);

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

/**
 * cmd_list_events() - list -k, -u, -j, -l or -p without NAME: the events
 * of @domain that can be enabled (the kernel's tracepoints, or its system
 * calls with @syscalls; the registered programs' events or loggers),
 * with their fields when @fields (list_events.c)
 *
 * Returns an exit status; errors are printed.
 */
int cmd_list_events(struct ltt_ctl *ctl, enum ltt_domain domain, bool syscalls, bool fields);

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

#endif /* LTT_CTL_COMMANDS_H */
