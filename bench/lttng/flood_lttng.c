// SPDX-License-Identifier: LGPL-2.1-only
/*
 * flood_lttng.c - bench/ust_flood.c's program with an LTTng-UST
 * tracepoint (one int, an 11-character string), for the scripts that run
 * LTTng beside ltt (bench/lttng_compare.sh, bench/lttng_threads.sh).
 *
 *   flood_lttng [-n EVENTS] [-t THREADS] [-p NS]
 *
 * The loop, the options and the line printed are bench/flood-harness.h's,
 * the same as ust_flood's.
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "flood_tp.h"

#define FLOOD_EVENT(i, s) lttng_ust_tracepoint(bench_lttng, flood, (int)(i), s)

#include "../flood-harness.h"
