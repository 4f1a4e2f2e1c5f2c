/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rule-filter.h - what the rules of a channel want of one event: whether
 * any rule takes it (pattern, log level, exclusions), and the filter
 * programs to send with it (user space: EVENT_FILTER, app protocol minor
 * 1; the kernel: EVENT_ENABLE_FILTERED, kernel-filter.c).
 *
 * The one place where rules are matched against events, for both
 * domains (ltt_rule_takes(), ltt_rule_filters_get()), and where a python
 * channel's rules are told to the programs' agents (ltt_agent_rules_put()).  A
 * rule's filter is compiled against the fields the program registered for
 * that event; a field the event lacks (or a type that does not fit) means
 * the rule does not take the event, as in LTTng.  The event is wanted
 * when a rule takes it; it gets no program when one of those rules has no
 * filter (that rule takes every event), else the set of their programs
 * (identical programs once): the program records an event when any of
 * them accepts.
 */
#ifndef LTT_SESSIOND_RULE_FILTER_H
#define LTT_SESSIOND_RULE_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/app-proto.h"
#include "filter-vm/filter-bytecode.h"
#include "sessiond/model/session.h"

struct ltt_ust_filters {
	bool want;		/* a rule takes the event */
	uint32_t nr;		/* programs; 0 when a rule without filter takes it */
	uint8_t *code[LTT_APP_FILTER_MAX_PROGRAMS];	/* owned */
	uint32_t len[LTT_APP_FILTER_MAX_PROGRAMS];
	uint64_t sig;		/* a hash of the set, 0 when it is empty */
};

/*
 * One event as the rules see it: the name their patterns and exclusions
 * match (a kernel system call's name for its two events), its log level
 * and rule type, and its fields, asked for only when a rule with a filter
 * takes it.
 */
struct ltt_rule_event {
	const char *name;
	int loglevel;
	int type;		/* enum ltt_event_type a rule must have */
	/* @ret: the fields (valid until the next call), @nr: how many; 0 or -errno */
	int (*fields)(void *arg, const struct ltt_filter_field_desc **ret, uint32_t *nr);
	void *arg;
};

/**
 * ltt_rule_takes() - does enabled @rule take an event named @name of log
 * level @loglevel by its pattern, log level and exclusions (its filter
 * aside)?  Session lock held.
 */
bool ltt_rule_takes(const struct ltt_event_rule *rule, const char *name, int loglevel);

/**
 * ltt_ust_rule_takes() - ltt_rule_takes() for program event @tp
 */
bool ltt_ust_rule_takes(const struct ltt_event_rule *rule, const struct ltt_app_tracepoint *tp);

/**
 * ltt_rule_filters_get() - what the rules of @channel want of event @ev
 * @ret: filled; release with ltt_ust_filters_fini() whatever this returns
 *
 * Session lock held.  More than LTT_APP_FILTER_MAX_PROGRAMS distinct
 * programs, or no memory to compile one, gives no program at all (every
 * event recorded rather than some lost), with a warning; so does an event
 * whose fields cannot be had.
 */
void ltt_rule_filters_get(const struct ltt_channel *channel, const struct ltt_rule_event *ev,
			  struct ltt_ust_filters *ret);

/**
 * ltt_ust_filters_get() - ltt_rule_filters_get() for program event @tp
 */
void ltt_ust_filters_get(const struct ltt_channel *channel, const struct ltt_app_tracepoint *tp,
			 struct ltt_ust_filters *ret);

/** ltt_ust_filters_fini() - free the programs of @f */
void ltt_ust_filters_fini(struct ltt_ust_filters *f);

/**
 * ltt_ust_filters_put() - EVENT_FILTER's payload for @f on event @tp
 * (its name and layout), as a program of app protocol @minor reads it
 * @w: the payload being built
 */
void ltt_ust_filters_put(struct ltt_wbuf *w, uint64_t channel_key,
			 const struct ltt_app_tracepoint *tp, const struct ltt_ust_filters *f,
			 uint32_t minor);

/**
 * ltt_agent_rules_put() - AGENT_RULES's payload for python channel
 * @channel (its enabled python rules: app-proto.h) under @channel_key
 *
 * Returns a signature of the rules sent, 0 for none (a change of the
 * signature is a change of what the program's agent must hand on).
 * Session lock held.
 */
uint64_t ltt_agent_rules_put(struct ltt_wbuf *w, const struct ltt_channel *channel,
			     uint64_t channel_key);

#endif /* LTT_SESSIOND_RULE_FILTER_H */
