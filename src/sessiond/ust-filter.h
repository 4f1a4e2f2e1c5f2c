/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ust-filter.h - what the rules of a channel want of one program event:
 * whether any rule takes it (pattern, log level, exclusions), and the
 * filter programs to send with it (EVENT_FILTER, app protocol minor 1).
 *
 * The one place where user-space rules are matched against events.  A
 * rule's filter is compiled against the fields the program registered for
 * that event; a field the event lacks (or a type that does not fit) means
 * the rule does not take the event, as in LTTng.  The event is wanted
 * when a rule takes it; it gets no program when one of those rules has no
 * filter (that rule takes every event), else the set of their programs
 * (identical programs once): the program records an event when any of
 * them accepts.
 */
#ifndef LTT_SESSIOND_UST_FILTER_H
#define LTT_SESSIOND_UST_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/app-proto.h"
#include "sessiond/session.h"

struct ltt_ust_filters {
	bool want;		/* a rule takes the event */
	uint32_t nr;		/* programs; 0 when a rule without filter takes it */
	uint8_t *code[LTT_APP_FILTER_MAX_PROGRAMS];	/* owned */
	uint32_t len[LTT_APP_FILTER_MAX_PROGRAMS];
	uint64_t sig;		/* a hash of the set, 0 when it is empty */
};

/**
 * ltt_ust_rule_takes() - does enabled @rule take event @tp by its pattern,
 * log level and exclusions (its filter aside)?  Session lock held.
 */
bool ltt_ust_rule_takes(const struct ltt_event_rule *rule, const struct ltt_app_tracepoint *tp);

/**
 * ltt_ust_filters_get() - what the rules of @channel want of @tp
 * @ret: filled; release with ltt_ust_filters_fini() whatever this returns
 *
 * Session lock held.  More than LTT_APP_FILTER_MAX_PROGRAMS distinct
 * programs, or no memory to compile one, gives no program at all (every
 * event recorded rather than some lost), with a warning.
 */
void ltt_ust_filters_get(const struct ltt_channel *channel, const struct ltt_app_tracepoint *tp,
			 struct ltt_ust_filters *ret);

/** ltt_ust_filters_fini() - free the programs of @f */
void ltt_ust_filters_fini(struct ltt_ust_filters *f);

/**
 * ltt_ust_filters_put() - EVENT_FILTER's payload for @f
 * @w: the payload being built
 */
void ltt_ust_filters_put(struct ltt_wbuf *w, uint64_t channel_key, const char *event,
			 const struct ltt_ust_filters *f);

#endif /* LTT_SESSIOND_UST_FILTER_H */
