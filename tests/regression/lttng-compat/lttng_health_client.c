// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng_health_client.c - asks a daemon's health socket, with Debian's
 * liblttng-ctl (lttng/health.h), what LTTng's health_check asks, for
 * test_lttng_compat_health.sh and test_lttng_compat_health_daemons.sh.
 *
 *   lttng_health_client [WHO] once
 *       one query; prints "query Q state S threads N bad LIST": Q
 *       lttng_health_query()'s result, S lttng_health_state()'s, N the
 *       thread slots, LIST the slots in bad health ("none", or
 *       "INDEX:NAME" comma-separated)
 *   lttng_health_client [WHO] until-bad MS
 *       queries again (every 20 ms) until a slot is bad or MS passed;
 *       prints the last answer, as once
 *
 * WHO: sessiond (the default), consumerd-ust64, consumerd-ust32,
 * consumerd-kernel (lttng_health_create_consumerd()), or relayd=PATH
 * (lttng_health_create_relayd(PATH)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <lttng/health.h>

static const char *who = "sessiond";

/* The health object of @who; NULL for a name that is none. */
static struct lttng_health *create(void)
{
	if (!strcmp(who, "sessiond"))
		return lttng_health_create_sessiond();
	if (!strcmp(who, "consumerd-ust64"))
		return lttng_health_create_consumerd(LTTNG_HEALTH_CONSUMERD_UST_64);
	if (!strcmp(who, "consumerd-ust32"))
		return lttng_health_create_consumerd(LTTNG_HEALTH_CONSUMERD_UST_32);
	if (!strcmp(who, "consumerd-kernel"))
		return lttng_health_create_consumerd(LTTNG_HEALTH_CONSUMERD_KERNEL);
	if (!strncmp(who, "relayd=", 7))
		return lttng_health_create_relayd(who + 7);
	return NULL;
}

/* One query, its answer printed into @line; 1 when a slot is bad. */
static int query(char *line, size_t len)
{
	struct lttng_health *h = create();
	int q, n, i, bad = 0;
	size_t at;

	if (!h) {
		snprintf(line, len, "no health object");
		return 0;
	}
	q = lttng_health_query(h);
	n = lttng_health_get_nr_threads(h);
	at = (size_t)snprintf(line, len, "query %d state %d threads %d bad ", q,
			      lttng_health_state(h), n);
	for (i = 0; i < n && at < len; i++) {
		const struct lttng_health_thread *t = lttng_health_get_thread(h, i);

		if (!lttng_health_thread_state(t))
			continue;
		at += (size_t)snprintf(line + at, len - at, "%s%d:%s", bad ? "," : "", i,
				       lttng_health_thread_name(t));
		bad = 1;
	}
	if (!bad && at < len)
		snprintf(line + at, len - at, "none");
	lttng_health_destroy(h);
	return q == 0 && bad;
}

int main(int argc, char **argv)
{
	struct timespec pause = { 0, 20 * 1000000L };
	char line[4096];
	long left;

	if (argc > 1 && strcmp(argv[1], "once") && strcmp(argv[1], "until-bad")) {
		who = argv[1];
		argc--;
		argv++;
	}
	if (argc == 2 && !strcmp(argv[1], "once")) {
		query(line, sizeof(line));
		puts(line);
		return 0;
	}
	if (argc != 3 || strcmp(argv[1], "until-bad")) {
		fprintf(stderr, "usage: %s [WHO] once | until-bad MS\n", argv[0]);
		return 2;
	}
	for (left = atol(argv[2]); !query(line, sizeof(line)) && left > 0; left -= 20)
		nanosleep(&pause, NULL);
	puts(line);
	return 0;
}
