// SPDX-License-Identifier: LGPL-2.1-only
/*
 * agent.c - the python domain as user-space events (agent.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "common/agent.h"

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

int ltt_python_filter(const struct ltt_rule_conf *attr, char *buf, size_t size)
{
	const char *p = attr->exclusions;
	size_t used = 0;
	bool ok = true;

	if (!size)
		return -E2BIG;
	buf[0] = '\0';
	/*
	 * Logger patterns and exclusions have the characters of event names
	 * and '*' (checked): nothing to escape; a '*' stays a glob.
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

bool ltt_channel_is_python(const char *name)
{
	return !strcmp(name, LTT_PYTHON_CHANNEL);
}
