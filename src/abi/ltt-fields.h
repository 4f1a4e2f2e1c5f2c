/* SPDX-License-Identifier: (GPL-2.0-only OR LGPL-2.1-only) */
/*
 * ltt-fields.h - values of kernel event fields that both kernel backends
 * compute the same way: the module in its probes (kmod/probes) and the
 * consumer when it converts the kernel's own records (tracefs,
 * src/common/ftrace/ftrace-conv.c).  Macros only: included by the kernel
 * module and by user space alike.
 */
#ifndef LTT_FIELDS_H
#define LTT_FIELDS_H

/*
 * A block request's rwbs, as lttng-modules records it: an integer of
 * these bits (lttng-analyses read bit 0 as "a write").  The operation
 * gives WRITE, DISCARD (DISCARD | SECURE for a secure erase), FLUSH or
 * READ, another none; its flags the others.
 */
#define LTT_RWBS_WRITE		(1U << 0)
#define LTT_RWBS_DISCARD	(1U << 1)
#define LTT_RWBS_READ		(1U << 2)
#define LTT_RWBS_RAHEAD		(1U << 3)
#define LTT_RWBS_BARRIER	(1U << 4)
#define LTT_RWBS_SYNC		(1U << 5)
#define LTT_RWBS_META		(1U << 6)
#define LTT_RWBS_SECURE		(1U << 7)
#define LTT_RWBS_FLUSH		(1U << 8)
#define LTT_RWBS_FUA		(1U << 9)
#define LTT_RWBS_PREFLUSH	(1U << 10)

#endif /* LTT_FIELDS_H */
