// SPDX-License-Identifier: LGPL-2.1-only
/*
 * log.c - leveled diagnostics on stderr, rate-limited per call site where
 * a peer could trigger them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "common/base/escape.h"
#include "common/base/log.h"

static const char *log_progname = "ltt";
static int log_level = LTT_LOG_WARN;
static unsigned int rl_burst = LTT_LOG_RL_BURST;
static uint64_t rl_interval_ns = (uint64_t)LTT_LOG_RL_INTERVAL_MS * 1000000;
static pthread_mutex_t rl_lock = PTHREAD_MUTEX_INITIALIZER;

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

const char *ltt_log_progname(void)
{
	return log_progname;
}

void ltt_log_ratelimit_set(unsigned int burst, unsigned int interval_ms)
{
	rl_burst = burst;
	rl_interval_ns = (uint64_t)(interval_ms ? interval_ms : 1) * 1000000;
}

/* 1..10 digits, within [@min, @max]. */
static int parse_uint(const char *text, size_t len, unsigned int min, unsigned int max,
		      unsigned int *ret)
{
	uint64_t v = 0;
	size_t i;

	if (!len || len > 10)
		return -EINVAL;
	for (i = 0; i < len; i++) {
		if (text[i] < '0' || text[i] > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(text[i] - '0');
	}
	if (v < min || v > max)
		return -ERANGE;
	*ret = (unsigned int)v;
	return 0;
}

int ltt_log_ratelimit_parse(const char *text, unsigned int *ret_burst,
			    unsigned int *ret_interval_s)
{
	unsigned int burst, secs;
	const char *slash;
	int ret;

	if (!text)
		return -EINVAL;
	if (!strcmp(text, "0")) {
		*ret_burst = 0;
		return 0;
	}
	slash = strchr(text, '/');
	if (!slash)
		return -EINVAL;
	ret = parse_uint(text, (size_t)(slash - text), 0, 1000000, &burst);
	if (!ret)
		ret = parse_uint(slash + 1, strlen(slash + 1), 1, 3600, &secs);
	if (ret)
		return ret;
	*ret_burst = burst;
	*ret_interval_s = secs;
	return 0;
}

static void log_line(int level, const char *msg)
{
	struct timespec ts;

	if (level < LTT_LOG_ERROR)
		level = LTT_LOG_ERROR;
	if (level > LTT_LOG_TRACE)
		level = LTT_LOG_TRACE;
	clock_gettime(CLOCK_REALTIME, &ts);
	/* One fprintf so that lines from several threads do not interleave. */
	if (log_level >= LTT_LOG_DEBUG)
		fprintf(stderr, "[%lld.%06ld] %s: %s: %s\n", (long long)ts.tv_sec,
			ts.tv_nsec / 1000, log_progname, level_names[level], msg);
	else
		fprintf(stderr, "%s: %s: %s\n", log_progname, level_names[level], msg);
}

__attribute__((format(printf, 2, 0)))
static void log_va(int level, const char *fmt, va_list ap)
{
	char raw[1024], msg[LTT_ESCAPE_SIZE(sizeof(raw))];

	vsnprintf(raw, sizeof(raw), fmt, ap);
	/* Names, paths and program names may hold anything: one line, printable. */
	ltt_escape(raw, msg, sizeof(msg), 0);
	log_line(level, msg);
}

void ltt_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > log_level)
		return;
	va_start(ap, fmt);
	log_va(level, fmt, ap);
	va_end(ap);
}

void ltt_log_rl(struct ltt_log_rl *rl, const char *site, int level, const char *fmt, ...)
{
	unsigned long dropped = 0;
	struct timespec ts;
	uint64_t now;
	char summary[256];
	bool print;
	va_list ap;

	if (level > log_level)
		return;
	if (rl_burst) {
		clock_gettime(CLOCK_MONOTONIC, &ts);
		now = (uint64_t)ts.tv_sec * 1000000000 + (uint64_t)ts.tv_nsec;
		pthread_mutex_lock(&rl_lock);
		/* A new interval refills the bucket and reports what the last one dropped. */
		if (!rl->window_start_ns || now - rl->window_start_ns >= rl_interval_ns) {
			dropped = rl->suppressed;
			rl->window_start_ns = now ? now : 1;
			rl->printed = 0;
			rl->suppressed = 0;
		}
		print = rl->printed < rl_burst;
		if (print)
			rl->printed++;
		else
			rl->suppressed++;
		pthread_mutex_unlock(&rl_lock);
		if (dropped) {
			const char *base = strrchr(site, '/');

			site = base ? base + 1 : site;
			snprintf(summary, sizeof(summary),
				 "%lu similar messages suppressed (%s, at most %u per %llu ms)",
				 dropped, site, rl_burst,
				 (unsigned long long)(rl_interval_ns / 1000000));
			log_line(level, summary);
		}
		if (!print)
			return;
	}
	va_start(ap, fmt);
	log_va(level, fmt, ap);
	va_end(ap);
}
