// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lib-tracepoints.c - the library's own tracepoints (ltt_tracef()'s and
 * ltt_tracelog()'s, the state dump's, ltt_ust_objects_update()'s),
 * registered as one module at start-up.
 */
#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

/* The library's own tracepoints: tracef and tracelog's, the state dump's. */
#define LIB_TRACEPOINTS (UST_TRACEF_EVENTS + UST_STATEDUMP_EVENTS + UST_LIB_EVENTS)
static struct ltt_ust_tracepoint *lib_tracepoints[LIB_TRACEPOINTS];

int ust_probe_module_register(void)
{
	int ret;

	ust_tracef_tracepoints(lib_tracepoints);
	ust_statedump_tracepoints(lib_tracepoints + UST_TRACEF_EVENTS);
	/* known valid: tests/unit/ust/test_tracepoint decodes each as the daemon does */
	ret = ust_registry_add_module(lib_tracepoints, lib_tracepoints + LIB_TRACEPOINTS, true);

	return ret < 0 ? ret : 0;
}
