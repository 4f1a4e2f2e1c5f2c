// SPDX-License-Identifier: LGPL-2.1-only
/*
 * testpoint.c - LTTng's test points in ltt's daemons (see testpoint.h).
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

#include "common/base/log.h"
#include "common/base/testpoint.h"

bool ltt_testpoints_on;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

bool ltt_testpoints_init(void)
{
	const char *v = secure_getenv("LTTNG_TESTPOINT_ENABLE");

	/* LTTng's test: the value begins with "1" */
	ltt_testpoints_on = v && v[0] == '1';
	if (ltt_testpoints_on)
		LTT_INFO("LTTng's test points are on (LTTNG_TESTPOINT_ENABLE): a test drives this daemon");
	return ltt_testpoints_on;
}

int ltt_testpoint_run(struct ltt_testpoint *tp)
{
	int (*fn)(void);
	int ret = 0;

	pthread_mutex_lock(&lock);
	if (!tp->looked_up) {
		/* a function pointer from dlsym(): POSIX makes the conversion valid */
		*(void **)&tp->fn = dlsym(RTLD_DEFAULT, tp->symbol);
		tp->looked_up = true;
	}
	fn = tp->fn;
	if (fn && !tp->parallel)
		ret = fn();
	pthread_mutex_unlock(&lock);
	if (fn && tp->parallel)
		ret = fn();
	return ret;
}
