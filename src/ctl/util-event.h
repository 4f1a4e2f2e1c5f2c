/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * util-event.h - the domain options a command was given, and the steps
 * enable-event and disable-event share (util-event.c).  Included through
 * ctl.h.
 */
#ifndef LTT_CTL_UTIL_EVENT_H
#define LTT_CTL_UTIL_EVENT_H

#include <stddef.h>

#include <popt.h>

#include <ltt/ltt-ctl.h>

#include "ctl/commands.h"

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
	/* set by the command for ctl_util_event_run() */
	char **opt_session, **opt_channel;	/* where -s's and -c's values go */
	/* the command's work once its line is checked, @arg its arguments (this struct first) */
	int (*work)(const struct ctl_ctx *ctx, void *arg);
};

/**
 * ctl_util_event_run() - the run of enable-event and disable-event
 * (ctl_util_run()'s @run), @arg their arguments, a struct ctl_event_cmd
 * first: checks "(-k|-u|-p|-j|-l) (PATTERN[,...] | -a) [-s S] [-c C]"
 * into it (-s and -c borrowed from the command's values; with an agent
 * domain, another channel than the domain's own is ignored with a
 * warning, AGENT_CHANNEL, as LTTng does), then calls its work(@ctx, @arg)
 *
 * Returns CTL_EXIT_OK, or the exit status after printing the error.
 */
int ctl_util_event_run(const struct ctl_ctx *ctx, poptContext pc, void *arg);

/**
 * ctl_util_event_channel() - the channel of @ev by name, the default one included
 */
const char *ctl_util_event_channel(const struct ctl_event_cmd *ev);

/**
 * ctl_util_probe_loc_why() - is @text a location of probe type @type
 * (ltt_probe_loc_parse())?  0, or -1 with @why (@len bytes) saying what
 * is wrong (out of memory included)
 */
int ctl_util_probe_loc_why(int type, const char *text, char *why, size_t len);

/**
 * ctl_util_uprobe_location() - a user-space probe's location (@option's
 * @text: [elf:]PATH:FUNCTION or sdt:PATH:PROVIDER:NAME) as the daemon
 * takes it, into @buf (@size bytes): PATH made absolute (a name without
 * '/' looked up in $PATH, as a shell does; a relative path from the
 * current directory), the rest as given; enable-event's and
 * add-trigger's.  CTL_EXIT_OK, or the exit status after saying what is
 * wrong.
 */
int ctl_util_uprobe_location(const struct ctl_ctx *ctx, const char *option, const char *text,
			     char *buf, size_t size);

#endif /* LTT_CTL_UTIL_EVENT_H */
