/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * race_tp.h - provider race, written as an LTTng-UST user writes one by
 * hand (LTTng's headers): race:fire's "late" field calls the program's
 * race_probe_check() inside the probe, after the event is reserved, so
 * the program counts the events committed and those whose probe ran
 * after its library's unregistration had returned.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER race

#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./race_tp.h"

#ifndef RACE_TP_DECL_H
#define RACE_TP_DECL_H
/* race_app.c's (outside the part LTTng's headers read several times) */
unsigned long race_probe_check(void);
#endif

#if !defined(RACE_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define RACE_TP_H

#include <lttng/tracepoint.h>

LTTNG_UST_TRACEPOINT_EVENT(race, fire,
	LTTNG_UST_TP_ARGS(int, thread, unsigned long, seq),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, thread, thread)
		lttng_ust_field_integer(unsigned long, seq, seq)
		lttng_ust_field_integer(unsigned long, late, race_probe_check())
	)
)

#endif /* RACE_TP_H */

#include <lttng/tracepoint-event.h>
