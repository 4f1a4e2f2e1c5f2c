/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-filter-compat.h - what src/common/filter-validate.c and
 * filter-interp.c (the validator and interpreter libltt-ust uses) take
 * from the C library, from the kernel instead, so that the module runs
 * the same source (kmod/ltt-filter-vm.c).  The other files of compat/
 * stand for <errno.h>, <string.h>, <stdint.h>, <stddef.h>, <endian.h> and
 * <ltt/tracepoint-types.h> and only include this one; Kbuild puts
 * compat/ on the include path (no kernel header includes those names).
 * The kernel has no floating point in probes: LTT_FILTER_NO_FLOAT makes
 * the validator refuse floats and leaves them out of the interpreter.
 */
#ifndef LTT_FILTER_COMPAT_H
#define LTT_FILTER_COMPAT_H

#include <linux/errno.h>
#include <linux/stddef.h>
#include <linux/string.h>
#include <linux/types.h>
#include <asm/byteorder.h>

#include "ltt-abi.h"

#ifndef LTT_FILTER_NO_FLOAT
#define LTT_FILTER_NO_FLOAT 1
#endif

#define le64toh(x)	le64_to_cpu((__force __le64)(x))

/* The field types of <ltt/tracepoint-types.h>: those of ltt-abi.h. */
enum ltt_ust_type {
	LTT_UST_TYPE_INTEGER = LTT_KABI_FIELD_INTEGER,
	LTT_UST_TYPE_FLOAT = 2,		/* never a kernel field */
	LTT_UST_TYPE_STRING = LTT_KABI_FIELD_STRING,
	LTT_UST_TYPE_ARRAY = LTT_KABI_FIELD_ARRAY,
	LTT_UST_TYPE_SEQUENCE = LTT_KABI_FIELD_SEQUENCE,
	LTT_UST_TYPE_ENUM = 6,		/* never a kernel field */
};

enum ltt_ust_encoding {
	LTT_UST_ENCODING_NONE = 0,
	LTT_UST_ENCODING_UTF8 = 1,
};

#endif /* LTT_FILTER_COMPAT_H */
