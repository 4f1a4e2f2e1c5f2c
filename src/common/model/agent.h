/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * agent.h - the agent domains (python, JUL, log4j) as user-space events.
 *
 * A logging framework's records reach a trace as one user-space event per
 * domain, as LTTng's agents record them: lttng_python:event (ltt's own
 * agent, src/python/ltt/agent.py, and LTTng's python3-lttngust),
 * lttng_jul:event and lttng_log4j:event (LTTng's Java agents, through
 * ltt's liblttng-ust compatibility libraries).  A rule of such a domain
 * (logger pattern, the domain's log level, filter, excluded loggers) is
 * kept in the domain's user-space channel (lttng_python_channel,
 * lttng_jul_channel, lttng_log4j_channel) of its session and takes that
 * one event, through a filter made of the rule (ltt_agent_filter()): so
 * the programs, the buffers, the consumer and every reader see user-space
 * events, and the one filter machine decides what is recorded.  The
 * agents themselves are told the rules (LTTng's agent protocol; ltt's own
 * python agent, app protocol AGENT_RULES) only to skip the records no
 * session wants before they reach C.
 *
 * struct ltt_agent_domain is the one table of what differs between them.
 */
#ifndef LTT_COMMON_AGENT_H
#define LTT_COMMON_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/model/model.h"

#define LTT_PYTHON_EVENT "lttng_python:event"
#define LTT_PYTHON_CHANNEL "lttng_python_channel"

/* A log level name of an agent domain and its number. */
struct ltt_agent_level {
	const char *name;
	int level;
};

/* What one agent domain is. */
struct ltt_agent_domain {
	enum ltt_domain domain;		/* LTTng's number: also its agents' (lagent-proto.h) */
	const char *name;		/* "python", "jul", "log4j": ltt_domain_name() */
	const char *option;		/* lttctl's: "-p", "-j", "-l" */
	const char *event;		/* the one event its rules take */
	const char *channel;		/* the user-space channel that holds its rules */
	const char *level_prefix;	/* LTTng's prefix of its level names: "JUL_" */
	const struct ltt_agent_level *levels;	/* its names, most severe first */
	size_t nr_levels;
	int level_min, level_max;	/* the levels a rule may name */
	/* the level LTTng tells an agent with a rule of no level (its type ALL) */
	int all_level;
};

/**
 * ltt_agent_domain() - the agent domain @domain; NULL when it is none
 * (kernel, user space).  Any thread; the table is static.
 */
const struct ltt_agent_domain *ltt_agent_domain(enum ltt_domain domain);

/**
 * ltt_agent_domain_of_channel() - the agent domain whose rules a
 * user-space channel named @name holds; NULL when it is an ordinary one.
 */
const struct ltt_agent_domain *ltt_agent_domain_of_channel(const char *name);

/**
 * ltt_agent_filter() - the filter expression that makes agent rule @attr
 * (valid: ltt_attr_check_rule(), ..._domain()) take the records it
 * stands for: its logger pattern, each excluded logger, its level
 * (RANGE: int_loglevel >= level, every domain's levels growing with
 * severity; SINGLE: ==) and its own filter, joined by &&
 * @buf: receives the expression, "" when the rule takes every record
 * @size: bytes of @buf; LTT_AGENT_FILTER_MAX always suffice
 *
 * Any thread.  Returns 0, or -E2BIG when @size is too small.
 */
#define LTT_AGENT_FILTER_MAX (LTT_NAME_MAX + 2 * LTT_EXCLUSIONS_MAX + LTT_FILTER_MAX + 128)
int ltt_agent_filter(const struct ltt_rule_conf *attr, char *buf, size_t size);

#endif /* LTT_COMMON_AGENT_H */
