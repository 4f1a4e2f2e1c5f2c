/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * flood_tp.h - LTTng-UST's version of ust_flood's event, for
 * bench/lttng_compare.sh only (needs liblttng-ust-dev; never built by make).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench_lttng

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./flood_tp.h"

#if !defined(BENCH_FLOOD_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_FLOOD_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(bench_lttng, flood,
	LTTNG_UST_TP_ARGS(int, v, const char *, s),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, v, v)
		lttng_ust_field_string(s, s)))

#endif /* BENCH_FLOOD_TP_H */

#include <lttng/tracepoint-event.h>
