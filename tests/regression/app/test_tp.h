/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * test_tp.h - the events of the end-to-end test program: each carries who
 * wrote it and its sequence number, so tests can check that every event
 * is in the trace exactly once, with the right values.
 */
#ifndef LTT_TEST_TP_H
#define LTT_TEST_TP_H

#include <stdint.h>
#include <string.h>

#include <ltt/tracepoint.h>

LTT_TRACEPOINT_ENUM(ltt_test, parity,
	LTT_TP_ENUM_VALUES(
		ltt_enum_value("EVEN", 0)
		ltt_enum_value("ODD", 1)))

/* One event per iteration: who (process role, thread) and which. */
LTT_TRACEPOINT_EVENT(ltt_test, seq,
	LTT_TP_ARGS(const char *role, int thread, uint64_t seq),
	LTT_TP_FIELDS(
		ltt_field_string(role, role)
		ltt_field_integer(int32_t, thread, thread)
		ltt_field_integer(uint64_t, seq, seq)))

/* Every field type, with values derived from @i. */
LTT_TRACEPOINT_EVENT_LOGLEVEL(ltt_test, types, WARNING,
	LTT_TP_ARGS(uint64_t i, const char *text, const int32_t *vals, uint32_t nvals),
	LTT_TP_FIELDS(
		ltt_field_integer(int8_t, s8, -(int8_t)(i % 100))
		ltt_field_integer(uint8_t, u8, (uint8_t)(200 + i % 50))
		ltt_field_integer(int16_t, s16, -(int16_t)(1000 + i))
		ltt_field_integer(uint16_t, u16, (uint16_t)(60000 + i % 1000))
		ltt_field_integer(int32_t, s32, -(int32_t)(100000 + i))
		ltt_field_integer(uint32_t, u32, (uint32_t)(4000000000U + i))
		ltt_field_integer(int64_t, s64, -(int64_t)(5000000000LL + (int64_t)i))
		ltt_field_integer(uint64_t, u64, 18000000000000000000ULL + i)
		ltt_field_integer_hex(uint32_t, hex, 0xdead0000U + (uint32_t)i)
		ltt_field_float(float, f32, 0.5f + (float)i)
		ltt_field_float(double, f64, 0.25 + (double)i)
		ltt_field_string(str, text)
		ltt_field_array(int32_t, arr, vals, 3)
		ltt_field_array_text(char, atext, text, 4)
		ltt_field_sequence(int32_t, seq, vals, nvals)
		ltt_field_sequence_text(char, stext, text, strlen(text))
		ltt_field_enum(ltt_test, parity, int32_t, par, (int32_t)(i % 2))))

/* Events of several log levels, to test --loglevel filters. */
LTT_TRACEPOINT_EVENT_LOGLEVEL(ltt_test, crit, CRIT,
	LTT_TP_ARGS(uint64_t i), LTT_TP_FIELDS(ltt_field_integer(uint64_t, i, i)))
LTT_TRACEPOINT_EVENT_LOGLEVEL(ltt_test, debug, DEBUG,
	LTT_TP_ARGS(uint64_t i), LTT_TP_FIELDS(ltt_field_integer(uint64_t, i, i)))

#endif /* LTT_TEST_TP_H */
