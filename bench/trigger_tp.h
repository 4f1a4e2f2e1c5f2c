/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trigger_tp.h - the tracepoints of bench/trigger_bench (provider "trig").
 *
 *   trig:stamp   the latency event: its sequence number (-1 while warming
 *                up) and the CLOCK_REALTIME of its emission, in ns, which
 *                the trigger captures
 *   trig:cost    the event whose cost is counted: one int and an
 *                11-character string, as ust_bench's int_string
 *   trig:other   the same fields, for the triggers on another event
 */
#ifndef TRIGGER_TP_H
#define TRIGGER_TP_H

#include <stdint.h>

#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(trig, stamp,
	LTT_TP_ARGS(int64_t seq, uint64_t t),
	LTT_TP_FIELDS(
		ltt_field_integer(int64_t, seq, seq)
		ltt_field_integer(uint64_t, t, t)))

LTT_TRACEPOINT_EVENT(trig, cost,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

LTT_TRACEPOINT_EVENT(trig, other,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

#endif /* TRIGGER_TP_H */
