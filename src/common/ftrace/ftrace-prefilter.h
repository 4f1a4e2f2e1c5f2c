/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ftrace-prefilter.h - what of a kernel event's filter programs the
 * kernel's own filter can say, for the tracefs backend.
 *
 * Through tracefs the consumer judges every record with the event's
 * programs (ftrace-map.h, its filter log), so a record the programs reject
 * still takes room in the kernel's buffer.  Written into the instance's
 * events/SYS/NAME/filter, the text made here keeps most of those out:
 * ftrace's grammar (FIELD OP CONST, FIELD & CONST, FIELD ~ "glob",
 * common_pid, CPU, &&, ||, !) says what it can of each program, and the
 * text accepts at least every record a program accepts: an operand it
 * can't say is dropped from an && (which widens it), makes an || or a !
 * accept all.  The consumer stays the judge, so the trace is the same
 * with or without it.
 *
 * What it can't say: $ctx other than tid and cpu_id, $app, floats, array
 * elements, arithmetic, a field compared with a field, a string with a
 * quote, a backslash, '?', '[' or a byte outside printable ASCII or
 * starting with '!' or a digit (ftrace's "not" and index match), a glob
 * on a char array other than "prefix*" and "*middle*" (ftrace matches a
 * suffix at the array's end and reads past its NUL), a literal as long as
 * a char array, a constant outside the field's type, `CPU & M`, a
 * pointer, and a system call argument read narrower than its slot
 * (ftrace compares the slot, whose upper bytes are whatever the register
 * held), a field the converter derives (sched_process_fork's thread
 * groups, the block events' rwbs flags and tid).  A biased field (prio) is compared with the constant less its
 * bias.
 */
#ifndef LTT_COMMON_FTRACE_PREFILTER_H
#define LTT_COMMON_FTRACE_PREFILTER_H

#include <stddef.h>
#include <stdint.h>

#include "common/ftrace/ftrace-format.h"

#define LTT_FTRACE_PREFILTER_MAX 4096	/* the kernel takes less than a page */

/**
 * ltt_ftrace_prefilter() - the kernel filter of an event whose records a
 * consumer keeps when one of @nr programs accepts them
 * @layout: the fields the programs read (each LOAD_FIELD's index), with
 *          the kernel's names of them (not lttng-modules' renames);
 *          borrowed
 * @code: @nr programs, each validated against @layout's fields
 *        (ltt_ftrace_filter_fields()), of @len[i] bytes; borrowed
 * @buf: @size bytes: the text, NUL-terminated, on a return of 1
 *
 * Return: 1 with a text in @buf that accepts at least what the programs
 * accept; 0 when none can be said (@nr 0, or a program the kernel's
 * grammar can't narrow): no kernel filter.  Pure; any thread.
 */
int ltt_ftrace_prefilter(const struct ltt_ftrace_event *layout, const uint8_t *const *code,
			 const uint32_t *len, uint32_t nr, char *buf, size_t size);

/**
 * ltt_ftrace_filter_exact() - as ltt_ftrace_prefilter(), but the text
 * only when it accepts exactly what the programs accept (a histogram
 * trigger's "if": no consumer judges its records after the kernel)
 *
 * Return: 1 with the text in @buf, 0 when ftrace's grammar can't say the
 * programs exactly.  Pure; any thread.
 */
int ltt_ftrace_filter_exact(const struct ltt_ftrace_event *layout, const uint8_t *const *code,
			    const uint32_t *len, uint32_t nr, char *buf, size_t size);

#endif /* LTT_COMMON_FTRACE_PREFILTER_H */
