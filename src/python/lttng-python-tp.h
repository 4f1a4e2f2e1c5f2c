/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-python-tp.h - the event of the python domain, lttng_python:event,
 * with the fields and types of LTTng's Python agent, so that a reader of
 * LTTng's python events reads ltt's: the record's time as Python formats
 * it (asctime), its formatted message, its logger, the function and line
 * that logged it, its level (Python's number), and the thread.
 */
#ifndef LTT_PYTHON_TP_H
#define LTT_PYTHON_TP_H

#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(lttng_python, event,
	LTT_TP_ARGS(const char *asctime, const char *msg, const char *logger_name,
		    const char *funcName, unsigned int lineno, unsigned int int_loglevel,
		    unsigned int thread, const char *threadName),
	LTT_TP_FIELDS(
		ltt_field_string(asctime, asctime)
		ltt_field_string(msg, msg)
		ltt_field_string(logger_name, logger_name)
		ltt_field_string(funcName, funcName)
		ltt_field_integer(unsigned int, lineno, lineno)
		ltt_field_integer(unsigned int, int_loglevel, int_loglevel)
		ltt_field_integer(unsigned int, thread, thread)
		ltt_field_string(threadName, threadName)))

#endif /* LTT_PYTHON_TP_H */
