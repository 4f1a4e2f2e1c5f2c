// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ust_flood.c - an instrumented program for the benchmarks that go
 * through the real daemons (bench/startup.sh, stop_latency.sh, lost.sh).
 *
 *   ust_flood [-n EVENTS] [-t THREADS] [-p NS]
 *
 * Each thread records EVENTS bench:flood events (the event of ust_bench's
 * int_string case); the options and the line printed are
 * bench/flood-harness.h's.  -n 0 records nothing: the start-up benchmark
 * runs it that way, linked with libltt-ust (startup_flood) and, built with
 * -DFLOOD_PLAIN, without (startup_plain): the difference is libltt-ust's
 * start-up.
 */
#ifndef FLOOD_PLAIN
#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(bench, flood,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

#define FLOOD_EVENT(i, s) ltt_tracepoint(bench, flood, (int)(i), s)
#else
#define FLOOD_EVENT(i, s) ((void)(i), (void)(s))
#endif

#include "flood-harness.h"
