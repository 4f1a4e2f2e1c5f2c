/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * agent.h - the python domain as user-space events.
 *
 * A program that imports ltt.agent (src/python/ltt/agent.py) records each
 * record of Python's logging module that a session wants as the user-space
 * event lttng_python:event (its fields: LTT_PYTHON_FIELDS), as LTTng's
 * agent does.  A python rule (logger pattern, Python log level, filter,
 * excluded loggers) is kept in the user-space channel
 * LTT_PYTHON_CHANNEL of its session and takes that one event, through a
 * filter made of the rule (ltt_python_filter()): so the programs, the
 * buffers, the consumer and every reader see user-space events, and
 * the one filter machine decides what is recorded.  The agent itself is
 * told the rules of the channels it records in (app protocol AGENT_RULES)
 * only to skip the records no session wants before they reach C.
 */
#ifndef LTT_COMMON_AGENT_H
#define LTT_COMMON_AGENT_H

#include <stdbool.h>
#include <stddef.h>

#include "common/model.h"

#define LTT_PYTHON_EVENT "lttng_python:event"
#define LTT_PYTHON_CHANNEL "lttng_python_channel"

/**
 * ltt_python_filter() - the filter expression that makes python rule
 * @attr (valid: ltt_attr_check_rule(), ..._domain()) take the records it
 * stands for: its logger pattern, each excluded logger, its level
 * (RANGE: int_loglevel >= level, Python's levels growing with severity;
 * SINGLE: ==) and its own filter, joined by &&
 * @buf: receives the expression, "" when the rule takes every record
 * @size: bytes of @buf; LTT_PYTHON_FILTER_MAX always suffice
 *
 * Any thread.  Returns 0, or -E2BIG when @size is too small.
 */
#define LTT_PYTHON_FILTER_MAX (LTT_NAME_MAX + 2 * LTT_EXCLUSIONS_MAX + LTT_FILTER_MAX + 128)
int ltt_python_filter(const struct ltt_rule_conf *attr, char *buf, size_t size);

/**
 * ltt_channel_is_python() - is a user-space channel of this name the one
 * that records the python domain?
 */
bool ltt_channel_is_python(const char *name);

#endif /* LTT_COMMON_AGENT_H */
