/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-ust.h - ltt's LTTng-UST 2.13 compatible libraries (doc/lttng-ust.md):
 * three shared objects named and exporting as LTTng's do, installed in
 * $(pkglibdir)/lttng-ust, which ltt-run puts in front of a command.  No
 * process of its own.  Files, by library, from the top layer down (a file
 * calls only files listed below it; each library links those below it):
 *
 * liblttng-ust.so.1 (ust.sym)
 *   probe.c       lttng_ust_probe_register(): each LTTng event becomes an ltt
 *                 tracepoint descriptor registered with libltt-ust; ltt's
 *                 state changes attach the LTTng probe to its call sites;
 *                 the channel operations the probe writes through
 *   fields.c      LTTng field descriptions to ltt's field model; the
 *                 interpreter stack to ltt's filter arguments
 *   misc.c        tracef/tracelog, fork and id hooks, the rest of the names
 *   event.h       one LTTng event as this library holds it (probe.c, fields.c)
 * liblttng-ust-tracepoint.so.1 (tracepoint.sym)
 *   tracepoint.c  call sites (sections lttng_ust_tracepoints) and the probes
 *                 attached to them by provider:event name, signature-checked
 * liblttng-ust-common.so.1 (common.sym)
 *   common.c      the RCU of inlined readers (lttng_ust_urcu_*: liburcu's
 *                 bulletproof counter scheme), the fd tracker, the clock
 *                 plugin's and getcpu plugin's overrides, cancel state
 * each library
 *   lttng-ust.h   this map, and what the files share (LU_EXPORT, debug.c's)
 *   lttng-abi.h   the LTTng objects' layouts (lttng-ust 2.13's ABI)
 *   debug.c       "not supported" sentences under LTTNG_UST_DEBUG
 */
#ifndef LTT_LTTNG_UST_H
#define LTT_LTTNG_UST_H

#include <stdbool.h>

/* An exported name: one of LTTng's (the .sym list of its library). */
#define LU_EXPORT __attribute__((visibility("default")))

/* ---- debug.c ---- */

/**
 * lu_debug_enabled() - LTTNG_UST_DEBUG is set (as lttng-ust reads it)
 */
bool lu_debug_enabled(void);

/**
 * lu_debug() - a line on stderr, prefixed with the library's name and the
 * pid, only under LTTNG_UST_DEBUG.  Any thread; not async-signal-safe.
 */
void lu_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * LU_UNSUPPORTED(why) - at most once per call site, under LTTNG_UST_DEBUG:
 * "<function>: <why>".  For the names ltt cannot honour yet, which then
 * return what lttng-ust returns on failure.
 */
#define LU_UNSUPPORTED(why) \
	do { \
		static int lu_said; \
		if (!__atomic_exchange_n(&lu_said, 1, __ATOMIC_RELAXED)) \
			lu_debug("%s: %s", __func__, (why)); \
	} while (0)

#endif /* LTT_LTTNG_UST_H */
