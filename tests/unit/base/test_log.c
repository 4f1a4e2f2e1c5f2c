// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_log.c - the log's rate limit (common/base/log.h): each call site prints
 * at most its burst per interval, and the next line after an interval
 * that dropped some says how many; printed + suppressed = called.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "tests/unit/tap.h"

static char *log_path;

/* Lines of the captured stderr that contain @what. */
static int count_lines(const char *what)
{
	char line[2048];
	FILE *f;
	int n = 0;

	fflush(stderr);
	f = fopen(log_path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		n += strstr(line, what) != NULL;
	fclose(f);
	return n;
}

/* The sum of the "N similar messages suppressed" counts. */
static long suppressed(void)
{
	char line[2048];
	long sum = 0;
	char *p;
	FILE *f;

	fflush(stderr);
	f = fopen(log_path, "r");
	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		p = strstr(line, " similar messages suppressed");
		if (!p)
			continue;
		while (p > line && p[-1] >= '0' && p[-1] <= '9')
			p--;
		sum += strtol(p, NULL, 10);
	}
	fclose(f);
	return sum;
}

/* Let the clock pass @ms (the rate limit's interval is wall time). */
static void pass_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts))
		;
}

static void site_a(int i)
{
	LTT_WARN_RL("site a message %d", i);
}

static void site_b(int i)
{
	LTT_WARN_RL("site b message %d", i);
}

int main(void)
{
	char tmpl[] = "/tmp/ltt-test-log.XXXXXX";
	int fd, i;

	tap_plan(9);
	fd = mkstemp(tmpl);
	if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
		return 1;
	close(fd);
	log_path = tmpl;
	setvbuf(stderr, NULL, _IONBF, 0);
	ltt_log_init("test_log", LTT_LOG_WARN);
	ltt_log_ratelimit_set(3, 200);

	for (i = 0; i < 1000; i++)
		site_a(i);
	tap_is_int(count_lines("site a message"), 3, "1000 calls at once: 3 lines (the burst)");
	tap_is_int(count_lines("suppressed"), 0, "no summary before the interval ends");
	for (i = 0; i < 5; i++)
		site_b(i);
	tap_is_int(count_lines("site b message"), 3, "another call site has its own burst");

	pass_ms(250);
	site_a(1000);
	tap_is_int(suppressed(), 997, "the next call after the interval: 997 suppressed");
	tap_is_int(count_lines("site a message"), 4, "and its own line is printed");
	tap_ok(count_lines("(test_log.c:") == 1, "the summary names the file and line of the site");
	tap_is_int(count_lines("site a message") + suppressed(), 1001,
		   "printed + suppressed = calls");

	for (i = 0; i < 100; i++)
		LTT_LOG_RL(LTT_LOG_DEBUG, "debug line %d", i);
	tap_is_int(count_lines("debug line"), 0, "lines above the log level: not printed");

	ltt_log_ratelimit_set(0, 1);
	for (i = 0; i < 50; i++)
		site_b(i);
	tap_is_int(count_lines("site b message"), 53, "a burst of 0: no limit");
	unlink(tmpl);
	return tap_done();
}
