// SPDX-License-Identifier: LGPL-2.1-only
/*
 * agent.c - the agent domains as user-space events (agent.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "common/model/agent.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))

/* Python's logging levels, as Python names them (records may carry any level). */
static const struct ltt_agent_level python_levels[] = {
	{ "CRITICAL", 50 }, { "FATAL", 50 }, { "ERROR", 40 }, { "WARNING", 30 },
	{ "WARN", 30 }, { "INFO", 20 }, { "DEBUG", 10 }, { "NOTSET", 0 },
};

/* java.util.logging.Level's, as LTTng numbers them (OFF and ALL included). */
static const struct ltt_agent_level jul_levels[] = {
	{ "OFF", INT32_MAX }, { "SEVERE", 1000 }, { "WARNING", 900 }, { "INFO", 800 },
	{ "CONFIG", 700 }, { "FINE", 500 }, { "FINER", 400 }, { "FINEST", 300 },
	{ "ALL", INT32_MIN },
};

/* log4j 1.x's org.apache.log4j.Level, as LTTng numbers them. */
static const struct ltt_agent_level log4j_levels[] = {
	{ "OFF", INT32_MAX }, { "FATAL", 50000 }, { "ERROR", 40000 }, { "WARN", 30000 },
	{ "INFO", 20000 }, { "DEBUG", 10000 }, { "TRACE", 5000 }, { "ALL", INT32_MIN },
};

static const struct ltt_agent_domain domains[] = {
	{ LTT_DOMAIN_PYTHON, "python", "-p", LTT_PYTHON_EVENT, LTT_PYTHON_CHANNEL, "PYTHON_",
	  python_levels, N(python_levels), 0, LTT_PYTHON_LOGLEVEL_MAX, 10 },
	{ LTT_DOMAIN_JUL, "jul", "-j", "lttng_jul:event", "lttng_jul_channel", "JUL_",
	  jul_levels, N(jul_levels), INT32_MIN, INT32_MAX, INT32_MIN },
	{ LTT_DOMAIN_LOG4J, "log4j", "-l", "lttng_log4j:event", "lttng_log4j_channel", "LOG4J_",
	  log4j_levels, N(log4j_levels), INT32_MIN, INT32_MAX, INT32_MIN },
};

const struct ltt_agent_domain *ltt_agent_domain(enum ltt_domain domain)
{
	size_t i;

	for (i = 0; i < N(domains); i++)
		if (domains[i].domain == domain)
			return &domains[i];
	return NULL;
}

const struct ltt_agent_domain *ltt_agent_domain_of_channel(const char *name)
{
	size_t i;

	for (i = 0; i < N(domains); i++)
		if (!strcmp(domains[i].channel, name))
			return &domains[i];
	return NULL;
}

/* Append " && " (but first) and the formatted term; false when it does not fit. */
static bool term(char *buf, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static bool term(char *buf, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used) {
		n = snprintf(buf + *used, size - *used, " && ");
		if (n < 0 || (size_t)n >= size - *used)
			return false;
		*used += (size_t)n;
	}
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *used)
		return false;
	*used += (size_t)n;
	return true;
}

int ltt_agent_filter(const struct ltt_rule_conf *attr, char *buf, size_t size)
{
	const char *p = attr->exclusions;
	size_t used = 0;
	bool ok = true;

	if (!size)
		return -E2BIG;
	buf[0] = '\0';
	/*
	 * Logger patterns and exclusions have the characters of event names,
	 * '*' and the escapes backslash-star and backslash-backslash
	 * (checked): they mean in a filter's string what they mean in a
	 * pattern, so nothing is escaped; a '*' stays a glob.
	 */
	if (strcmp(attr->pattern, "*"))
		ok = term(buf, size, &used, "logger_name == \"%s\"", attr->pattern);
	while (ok && *p) {
		int len = (int)strcspn(p, ",");

		ok = term(buf, size, &used, "logger_name != \"%.*s\"", len, p);
		p += len;
		if (*p)
			p++;
	}
	if (ok && attr->loglevel_type == LTT_LOGLEVEL_RANGE)
		ok = term(buf, size, &used, "int_loglevel >= %d", attr->loglevel);
	else if (ok && attr->loglevel_type == LTT_LOGLEVEL_SINGLE)
		ok = term(buf, size, &used, "int_loglevel == %d", attr->loglevel);
	if (ok && attr->filter[0])
		ok = term(buf, size, &used, "(%s)", attr->filter);
	if (!ok) {
		buf[0] = '\0';
		return -E2BIG;
	}
	return 0;
}
