/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-libc.h - all that the filter VM takes from its surroundings:
 * fixed-width integers, size_t and NULL, memcpy/memcmp/memchr/strcmp,
 * errno values, le64toh(), and the field types of
 * <ltt/tracepoint-types.h> (enum ltt_ust_type, enum ltt_ust_encoding).
 * Under __KERNEL__ (the module's Kbuild) they come from <linux/...>,
 * otherwise from the C library and include/ltt.  No other header of
 * this directory includes a system header.
 *
 * The kernel has no floating point in probes: there LTT_FILTER_NO_FLOAT
 * is defined, the validator refuses floats (PUSH_DBL, float fields) and
 * the interpreter has no float code.
 */
#ifndef LTT_FILTER_LIBC_H
#define LTT_FILTER_LIBC_H

#ifdef __KERNEL__

#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#ifndef LTT_FILTER_NO_FLOAT
#define LTT_FILTER_NO_FLOAT 1
#endif

#define le64toh(x)	le64_to_cpu((__force __le64)(x))

/*
 * The numbers of <ltt/tracepoint-types.h>, which the module's
 * LTT_KABI_FIELD_* share (kmod/ltt-filter.c asserts it).
 */
enum ltt_ust_type {
	LTT_UST_TYPE_INTEGER = 1,
	LTT_UST_TYPE_FLOAT = 2,		/* never a kernel field */
	LTT_UST_TYPE_STRING = 3,
	LTT_UST_TYPE_ARRAY = 4,
	LTT_UST_TYPE_SEQUENCE = 5,
	LTT_UST_TYPE_ENUM = 6,		/* never a kernel field */
};

enum ltt_ust_encoding {
	LTT_UST_ENCODING_NONE = 0,
	LTT_UST_ENCODING_UTF8 = 1,
};

#else /* !__KERNEL__ */

#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/tracepoint-types.h>

#endif /* __KERNEL__ */

#endif /* LTT_FILTER_LIBC_H */
