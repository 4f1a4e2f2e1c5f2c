/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * kabi-enum.h - the kernel enumerations a kernel event's integer field
 * may be written as (struct ltt_kabi_field's enum_id, LTT_KABI_ENUM_* in
 * src/abi/ltt-abi.h): their names and labels, as lttng-modules declares
 * them, so that a trace of ltt's shows the label where LTTng's does.
 * The TSDL writer (sessiond/ctrace/tsdl.c) reads them; the layouts name
 * them by number.  Header only: tsdl.c is linked alone into test
 * programs.
 */
#ifndef LTT_COMMON_TRACE_KABI_ENUM_H
#define LTT_COMMON_TRACE_KABI_ENUM_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/tracepoint-types.h>

#include "abi/ltt-abi.h"

/* Enumeration @id (LTT_KABI_ENUM_*): its name and labels; NULL when ltt knows none of that number. */
static inline const struct ltt_ust_enum_desc *ltt_kabi_enum(uint8_t id)
{
	/* epoll_ctl's op: <linux/eventpoll.h>'s values */
	static const struct ltt_ust_enum_entry epoll_op[] = {
		{ 1, 1, "EPOLL_CTL_ADD" },
		{ 2, 2, "EPOLL_CTL_DEL" },
		{ 3, 3, "EPOLL_CTL_MOD" },
	};
	/*
	 * module_load's taints: one flag per label (1 << TAINT_X of
	 * <linux/panic.h>, the same numbers since 4.17), the ones
	 * lttng-modules 2.13 names; a value of several flags matches none
	 */
	static const struct ltt_ust_enum_entry taint[] = {
		{ 1 << 0, 1 << 0, "PROPRIETARY_MODULE" },
		{ 1 << 1, 1 << 1, "FORCED_MODULE" },
		{ 1 << 2, 1 << 2, "CPU_OUT_OF_SPEC" },
		{ 1 << 3, 1 << 3, "FORCED_RMMOD" },
		{ 1 << 4, 1 << 4, "MACHINE_CHECK" },
		{ 1 << 5, 1 << 5, "BAD_PAGE" },
		{ 1 << 6, 1 << 6, "USER" },
		{ 1 << 7, 1 << 7, "DIE" },
		{ 1 << 8, 1 << 8, "OVERRIDDEN_ACPI_TABLE" },
		{ 1 << 9, 1 << 9, "WARN" },
		{ 1 << 10, 1 << 10, "CRAP" },
		{ 1 << 11, 1 << 11, "FIRMWARE_WORKAROUND" },
		{ 1 << 12, 1 << 12, "OOT_MODULE" },
		{ 1 << 13, 1 << 13, "UNSIGNED_MODULE" },
		{ 1 << 14, 1 << 14, "SOFTLOCKUP" },
		{ 1 << 15, 1 << 15, "LIVEPATCH" },
		{ 1 << 16, 1 << 16, "AUX" },
		{ 1 << 17, 1 << 17, "RANDSTRUCT" },
	};
	/*
	 * lttng-modules' lttng-test: its automatic values (each one more than
	 * the entry before) written out
	 */
	static const struct ltt_ust_enum_entry lttng_test[] = {
		{ 0, 0, "AUTO: EXPECT 0" },
		{ 23, 23, "VALUE: 23" },
		{ 27, 27, "VALUE: 27" },
		{ 28, 28, "AUTO: EXPECT 28" },
		{ 101, 303, "RANGE: 101 TO 303" },
		{ 304, 304, "AUTO: EXPECT 304" },
		{ -1, -1, "VALUE: -1" },
	};
	static const struct ltt_ust_enum_desc enums[] = {
		[LTT_KABI_ENUM_EPOLL_OP] = { "lttng_epoll_op", 3, epoll_op },
		[LTT_KABI_ENUM_TAINT] = { "taint", sizeof(taint) / sizeof(taint[0]), taint },
		[LTT_KABI_ENUM_LTTNG_TEST] = { "lttng_test_filter_event_enum",
					       sizeof(lttng_test) / sizeof(lttng_test[0]), lttng_test },
	};

	if (id == LTT_KABI_ENUM_NONE || id >= sizeof(enums) / sizeof(enums[0]))
		return NULL;
	return &enums[id];
}

#endif /* LTT_COMMON_TRACE_KABI_ENUM_H */
