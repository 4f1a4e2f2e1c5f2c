// SPDX-License-Identifier: LGPL-2.1-only
/*
 * loglevel.c - names and parsing of the 15 log levels of ltt-ctl.h, and
 * of the agent domains' levels (common/model/agent.c has their tables).
 */
#include <stdbool.h>
#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "common/model/agent.h"

#define LEVEL_PREFIX "LTT_LOGLEVEL_"
#define LTTNG_PREFIX "TRACE_"		/* LTTng's names: TRACE_WARNING */

static const char *const level_names[] = {
	[LTT_LOGLEVEL_EMERG] = "EMERG",
	[LTT_LOGLEVEL_ALERT] = "ALERT",
	[LTT_LOGLEVEL_CRIT] = "CRIT",
	[LTT_LOGLEVEL_ERR] = "ERR",
	[LTT_LOGLEVEL_WARNING] = "WARNING",
	[LTT_LOGLEVEL_NOTICE] = "NOTICE",
	[LTT_LOGLEVEL_INFO] = "INFO",
	[LTT_LOGLEVEL_DEBUG_SYSTEM] = "DEBUG_SYSTEM",
	[LTT_LOGLEVEL_DEBUG_PROGRAM] = "DEBUG_PROGRAM",
	[LTT_LOGLEVEL_DEBUG_PROCESS] = "DEBUG_PROCESS",
	[LTT_LOGLEVEL_DEBUG_MODULE] = "DEBUG_MODULE",
	[LTT_LOGLEVEL_DEBUG_UNIT] = "DEBUG_UNIT",
	[LTT_LOGLEVEL_DEBUG_FUNCTION] = "DEBUG_FUNCTION",
	[LTT_LOGLEVEL_DEBUG_LINE] = "DEBUG_LINE",
	[LTT_LOGLEVEL_DEBUG] = "DEBUG",
};

#define NR_LEVELS ((int)(sizeof(level_names) / sizeof(level_names[0])))

static char ascii_upper(char c)
{
	return c >= 'a' && c <= 'z' ? (char)(c - 'a' + 'A') : c;
}

/*
 * Whether @text starts with @upper (upper case) ignoring ASCII case, not
 * the locale's: returns the rest of @text, or NULL.
 */
static const char *skip_prefix_nocase(const char *text, const char *upper)
{
	for (; *upper; text++, upper++) {
		if (ascii_upper(*text) != *upper)
			return NULL;
	}
	return text;
}

static bool equal_nocase(const char *text, const char *upper)
{
	const char *rest = skip_prefix_nocase(text, upper);

	return rest && *rest == '\0';
}

/* "0".."14", leading zeros allowed; -1 for anything else. */
/* A level given as a number from 0 to @max, or -1. */
static int parse_number(const char *text, int max)
{
	int v = 0;

	if (!*text)
		return -1;
	for (; *text; text++) {
		if (*text < '0' || *text > '9')
			return -1;
		v = v * 10 + (*text - '0');
		if (v > max)
			return -1;
	}
	return v;
}

int ltt_loglevel_parse(const char *text, int *ret_level)
{
	const char *name;
	int i;

	if (!text || !ret_level)
		return -LTT_ERR_LOGLEVEL;
	i = parse_number(text, NR_LEVELS - 1);
	if (i >= 0) {
		*ret_level = i;
		return 0;
	}
	name = skip_prefix_nocase(text, LEVEL_PREFIX);
	if (!name)
		name = skip_prefix_nocase(text, LTTNG_PREFIX);
	if (!name)
		name = text;
	for (i = 0; i < NR_LEVELS; i++) {
		if (equal_nocase(name, level_names[i])) {
			*ret_level = i;
			return 0;
		}
	}
	return -LTT_ERR_LOGLEVEL;
}

const char *ltt_loglevel_name(int level)
{
	if (level < 0 || level >= NR_LEVELS)
		return "UNKNOWN";
	return level_names[level];
}

/* "-" and a number from 0 to -@min, or a number from 0 to @max; false for anything else. */
static bool parse_signed(const char *text, long long min, long long max, int *ret_level)
{
	bool neg = *text == '-';
	long long v = 0;

	text += neg;
	if (!*text)
		return false;
	for (; *text; text++) {
		if (*text < '0' || *text > '9')
			return false;
		v = v * 10 + (*text - '0');
		if (v > (neg ? -min : max))
			return false;
	}
	*ret_level = (int)(neg ? -v : v);
	return true;
}

int ltt_loglevel_parse_domain(enum ltt_domain domain, const char *text, int *ret_level)
{
	const struct ltt_agent_domain *a = ltt_agent_domain(domain);
	const char *name;
	size_t i;

	if (!a)
		return ltt_loglevel_parse(text, ret_level);
	if (!text || !ret_level)
		return -LTT_ERR_LOGLEVEL;
	if (parse_signed(text, a->level_min, a->level_max, ret_level))
		return 0;
	name = skip_prefix_nocase(text, a->level_prefix);
	if (!name)
		name = text;
	for (i = 0; i < a->nr_levels; i++) {
		if (equal_nocase(name, a->levels[i].name)) {
			*ret_level = a->levels[i].level;
			return 0;
		}
	}
	return -LTT_ERR_LOGLEVEL;
}

const char *ltt_loglevel_name_domain(enum ltt_domain domain, int level)
{
	const struct ltt_agent_domain *a = ltt_agent_domain(domain);
	size_t i;

	if (!a)
		return ltt_loglevel_name(level);
	for (i = 0; i < a->nr_levels; i++) {
		if (a->levels[i].level == level)
			return a->levels[i].name;
	}
	return "UNKNOWN";
}
