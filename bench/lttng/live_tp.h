/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * live_tp.h - LTTng-UST's declaration of bench/live_emit.c's event
 * (bench:stamp, the same fields), for its -DLIVE_EMIT_LTTNG build by
 * bench/live_latency.sh TRACERS=lttng only (needs liblttng-ust-dev; never
 * built by make).
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER bench

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./live_tp.h"

#if !defined(BENCH_LIVE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BENCH_LIVE_TP_H

#include <stdint.h>
#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(bench, stamp,
	LTTNG_UST_TP_ARGS(uint64_t, seq, uint64_t, t),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(uint64_t, seq, seq)
		lttng_ust_field_integer(uint64_t, t, t)))

#endif /* BENCH_LIVE_TP_H */

#include <lttng/tracepoint-event.h>
