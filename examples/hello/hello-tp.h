/* SPDX-License-Identifier: MIT */
/*
 * hello-tp.h - the tracepoints of the hello example: provider hello_world.
 *
 * A provider is a header like this one: include <ltt/tracepoint.h>, then
 * declare each event once.  Any file of the program may include it and
 * call the events; link with -lltt-ust.
 */
#ifndef HELLO_TP_H
#define HELLO_TP_H

#include <stdint.h>
#include <string.h>

#include <ltt/tracepoint.h>

/* Labels for the integer values of a field. */
LTT_TRACEPOINT_ENUM(hello_world, color,
	LTT_TP_ENUM_VALUES(
		ltt_enum_value("RED", 0)
		ltt_enum_value("GREEN", 1)
		ltt_enum_value("BLUE", 2)
		ltt_enum_range("OTHER", 3, 255)))

/* One event with every kind of field. */
LTT_TRACEPOINT_EVENT(hello_world, my_first_tracepoint,
	LTT_TP_ARGS(int iteration, const char *text, const uint32_t *values, size_t nr_values,
		    double ratio),
	LTT_TP_FIELDS(
		ltt_field_integer(int, iteration, iteration)
		ltt_field_integer(int8_t, small, (int8_t)-iteration)
		ltt_field_integer(uint16_t, medium, (uint16_t)(iteration * 1000))
		ltt_field_integer(uint64_t, big, (uint64_t)iteration << 40)
		ltt_field_integer_hex(uintptr_t, text_addr, (uintptr_t)text)
		ltt_field_float(double, ratio, ratio)
		ltt_field_float(float, ratio_f, (float)ratio)
		ltt_field_string(text, text)
		ltt_field_array(uint8_t, first_bytes, text, 4)
		ltt_field_array_text(char, first_chars, text, 4)
		ltt_field_sequence(uint32_t, values, values, nr_values)
		ltt_field_sequence_hex(uint32_t, values_hex, values, nr_values)
		ltt_field_sequence_text(char, whole_text, text, strlen(text))
		ltt_field_enum(hello_world, color, uint8_t, color, (uint8_t)(iteration % 5))))

/* Events with a log level, which enable-event --loglevel filters on. */
LTT_TRACEPOINT_EVENT_LOGLEVEL(hello_world, starting, LTT_LOGLEVEL_INFO,
	LTT_TP_ARGS(int loops, const char *program),
	LTT_TP_FIELDS(
		ltt_field_integer(int, loops, loops)
		ltt_field_string(program, program)))

LTT_TRACEPOINT_EVENT_LOGLEVEL(hello_world, odd_iteration, LTT_LOGLEVEL_WARNING,
	LTT_TP_ARGS(int iteration),
	LTT_TP_FIELDS(
		ltt_field_integer(int, iteration, iteration)))

LTT_TRACEPOINT_EVENT_LOGLEVEL(hello_world, done, LTT_LOGLEVEL_NOTICE,
	LTT_TP_ARGS(void),
	LTT_TP_FIELDS())

#endif /* HELLO_TP_H */
