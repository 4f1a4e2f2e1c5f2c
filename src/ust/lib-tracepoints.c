// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lib-tracepoints.c - the library's own tracepoints (ltt_tracef()'s and
 * ltt_tracelog()'s, the state dump's, ltt_ust_objects_update()'s),
 * registered as one module at start-up.
 */
#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

static struct ltt_ust_tracepoint *lib_tracepoints[UST_LIB_TRACEPOINTS];

void ust_lib_tracepoints(struct ltt_ust_tracepoint **out)
{
	ust_tracef_tracepoints(out);
	ust_statedump_tracepoints(out + UST_TRACEF_EVENTS);
}

int ust_probe_module_register(void)
{
	int ret;

	ust_lib_tracepoints(lib_tracepoints);
	/* known valid: tests/unit/ust/test_tracepoint decodes each as the daemon does */
	ret = ust_registry_add_module(lib_tracepoints, lib_tracepoints + UST_LIB_TRACEPOINTS,
				      true);

	return ret < 0 ? ret : 0;
}
