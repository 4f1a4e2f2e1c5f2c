// SPDX-License-Identifier: LGPL-2.1-only
/*
 * evloop-harness.c - what the tests of common/base/evloop.c share (see
 * evloop-harness.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tests/unit/evloop-harness.h"

bool evl_guard_fired;

void evl_die(const char *what)
{
	fprintf(stderr, "%s: %s\n", what, strerror(errno));
	exit(99);
}

struct ltt_evloop *evl_new_loop(void)
{
	struct ltt_evloop *loop;

	if (ltt_evloop_create(&loop))
		evl_die("ltt_evloop_create");
	return loop;
}

static void on_guard(struct ltt_evloop *loop, void *arg)
{
	(void)arg;
	evl_guard_fired = true;
	ltt_evloop_stop(loop);
}

struct ltt_evloop_timer *evl_guard(struct ltt_evloop *loop)
{
	struct ltt_evloop_timer *t;

	if (ltt_evloop_timer_create(loop, on_guard, NULL, &t))
		evl_die("timer");
	ltt_evloop_timer_arm(t, GUARD_NS, 0);
	evl_guard_fired = false;
	return t;
}
