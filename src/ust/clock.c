// SPDX-License-Identifier: LGPL-2.1-only
/*
 * clock.c - the probe's cheap answer to "did this stream record anything
 * in the last 67 ms?", which decides between a compact and an extended
 * event header before the ring buffer reads the real clock (probe.c).
 *
 * On x86-64 with an invariant TSC (constant rate, running in every
 * C-state: CPUID 0x80000007 EDX bit 8) the answer costs one rdtsc: each
 * stream keeps, in this process's memory, the TSC of its last reservation
 * here, and the window is 2^26 ns converted to TSC ticks.  The conversion
 * is measured, not assumed: library start-up records a (TSC, monotonic
 * clock) pair, and the comm threads, which wake from time to time, publish
 * the window once 50 ms have passed.  Until then, and on other machines,
 * the probe reads CLOCK_MONOTONIC_COARSE instead.
 *
 * Every error here is on the safe side or harmless: a stamp from another
 * process is never seen (extended header, a few bytes more), a stale stamp
 * of ours makes the stream look idle (extended), and the precise check the
 * ring buffer makes afterwards catches the rest (probe.c clamps).
 */
#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "ust/ust.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

#define CALIBRATION_NS 50000000ull	/* 50 ms */
#define WINDOW_NS ((uint64_t)1 << 26)

uint64_t ust_tsc_window;	/* TSC ticks per 2^26 ns; 0: not known (yet) */

static uint64_t tsc0, ns0;	/* the first point; tsc0 == 0: no usable TSC */

static uint64_t monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

void ust_clock_init(void)
{
#if defined(__x86_64__)
	unsigned int a, b, c, d;

	if (!__get_cpuid(0x80000007, &a, &b, &c, &d) || !(d & (1u << 8)))
		return;
	ns0 = monotonic_ns();
	tsc0 = ust_tsc();
#endif
}

bool ust_clock_pending(void)
{
	return tsc0 && !__atomic_load_n(&ust_tsc_window, __ATOMIC_RELAXED);
}

void ust_clock_calibrate(void)
{
	uint64_t ns, tsc, window;

	if (!tsc0 || __atomic_load_n(&ust_tsc_window, __ATOMIC_RELAXED))
		return;
	ns = monotonic_ns();
	tsc = ust_tsc();
	if (ns - ns0 < CALIBRATION_NS || tsc <= tsc0)
		return;
	/* ticks per window = ticks elapsed * 2^26 / ns elapsed, without overflow */
	window = (uint64_t)((unsigned __int128)(tsc - tsc0) * WINDOW_NS / (ns - ns0));
	if (window)
		__atomic_store_n(&ust_tsc_window, window, __ATOMIC_RELAXED);
}
