// SPDX-License-Identifier: LGPL-2.1-only
/*
 * log.c - leveled diagnostics on stderr.
 */
#include <stdarg.h>
#include <stdio.h>
#include <time.h>

#include "common/escape.h"
#include "common/log.h"

static const char *log_progname = "ltt";
static int log_level = LTT_LOG_WARN;

static const char *const level_names[] = {
	[LTT_LOG_ERROR] = "Error",
	[LTT_LOG_WARN] = "Warning",
	[LTT_LOG_INFO] = "Info",
	[LTT_LOG_DEBUG] = "Debug",
	[LTT_LOG_TRACE] = "Trace",
};

void ltt_log_init(const char *progname, int level)
{
	log_progname = progname;
	log_level = level;
}

int ltt_log_level(void)
{
	return log_level;
}

void ltt_log(int level, const char *fmt, ...)
{
	char raw[1024], msg[LTT_ESCAPE_SIZE(sizeof(raw))];
	struct timespec ts;
	va_list ap;

	if (level > log_level)
		return;
	if (level < LTT_LOG_ERROR)
		level = LTT_LOG_ERROR;
	if (level > LTT_LOG_TRACE)
		level = LTT_LOG_TRACE;
	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	/* Names, paths and program names may hold anything: one line, printable. */
	ltt_escape(raw, msg, sizeof(msg), 0);
	clock_gettime(CLOCK_REALTIME, &ts);
	/* One fprintf so that lines from several threads do not interleave. */
	if (log_level >= LTT_LOG_DEBUG)
		fprintf(stderr, "[%lld.%06ld] %s: %s: %s\n", (long long)ts.tv_sec,
			ts.tv_nsec / 1000, log_progname, level_names[level], msg);
	else
		fprintf(stderr, "%s: %s: %s\n", log_progname, level_names[level], msg);
}
