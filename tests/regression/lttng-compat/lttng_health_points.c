// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng_health_points.c - LTTng's test point functions, as lttng-tools'
 * health tests define them, for test_lttng_compat_health_points.sh: a
 * library LD_PRELOADed into ltt's daemons run with
 * LTTNG_TESTPOINT_ENABLE=1 (src/common/base/testpoint.h).
 *
 * The point named in LTT_TEST_POINT_STALL never returns (its thread is
 * stuck until the process is killed); the one named in
 * LTT_TEST_POINT_FAIL returns 1; every other returns 0.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int point(const char *name)
{
	const char *stall = getenv("LTT_TEST_POINT_STALL");
	const char *fail = getenv("LTT_TEST_POINT_FAIL");

	if (stall && !strcmp(stall, name))
		for (;;)
			pause();
	return fail && !strcmp(fail, name);
}

#define POINT(name)                          \
	int __testpoint_##name(void);        \
	int __testpoint_##name(void)         \
	{                                    \
		return point(#name);         \
	}

POINT(sessiond_thread_manage_clients)
POINT(sessiond_thread_manage_apps)
POINT(sessiond_thread_registration_apps)
POINT(sessiond_thread_ht_cleanup)
POINT(sessiond_thread_manage_kernel)
POINT(relayd_thread_listener)
POINT(relayd_thread_live_worker)
