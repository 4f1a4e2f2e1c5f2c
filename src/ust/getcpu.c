// SPDX-License-Identifier: LGPL-2.1-only
/*
 * getcpu.c - the getcpu plugin's hook (LTTng-UST's LTTNG_UST_GETCPU_PLUGIN):
 * a function that says the CPU of each event instead of the rseq area.
 * Below every reader of the CPU number (probe.c's stream choice,
 * context.c's cpu_id, filter.c's $ctx.cpu_id), which read the pointer
 * inline (ust_current_cpu(), ust.h).  ltt_ust_getcpu_set(), in channel.c,
 * sets it and tells the channels, whose stream choice then asks it for
 * each event: the fast path has no test of it.
 */
#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

int (*ust_getcpu_fn)(void);
