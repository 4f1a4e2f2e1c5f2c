/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * kabi-enum.h - the kernel enumerations a kernel event's integer field
 * may be written as (struct ltt_kabi_field's enum_id, LTT_KABI_ENUM_* in
 * kmod/ltt-abi.h): their names and labels, as lttng-modules declares
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

#include "kmod/ltt-abi.h"

/* Enumeration @id (LTT_KABI_ENUM_*): its name and labels; NULL when ltt knows none of that number. */
static inline const struct ltt_ust_enum_desc *ltt_kabi_enum(uint8_t id)
{
	/* epoll_ctl's op: <linux/eventpoll.h>'s values */
	static const struct ltt_ust_enum_entry epoll_op[] = {
		{ 1, 1, "EPOLL_CTL_ADD" },
		{ 2, 2, "EPOLL_CTL_DEL" },
		{ 3, 3, "EPOLL_CTL_MOD" },
	};
	static const struct ltt_ust_enum_desc enums[] = {
		[LTT_KABI_ENUM_EPOLL_OP] = { "lttng_epoll_op", 3, epoll_op },
	};

	if (id == LTT_KABI_ENUM_NONE || id >= sizeof(enums) / sizeof(enums[0]))
		return NULL;
	return &enums[id];
}

#endif /* LTT_COMMON_TRACE_KABI_ENUM_H */
