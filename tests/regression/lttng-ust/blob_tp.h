/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * blob_tp.h - an LTTng-UST 2.16 provider with blob fields (provider ABI
 * 4), which test_lttng_ust_216.sh builds in a Debian sid root with its
 * lttng-ust 2.16 headers, never ltt's.
 */
#undef LTTNG_UST_TRACEPOINT_PROVIDER
#define LTTNG_UST_TRACEPOINT_PROVIDER t16
#undef LTTNG_UST_TRACEPOINT_INCLUDE
#define LTTNG_UST_TRACEPOINT_INCLUDE "./blob_tp.h"

#if !defined(BLOB_TP_H) || defined(LTTNG_UST_TRACEPOINT_HEADER_MULTI_READ)
#define BLOB_TP_H

#include <lttng/tracepoint.h>
#include <stdint.h>

LTTNG_UST_TRACEPOINT_EVENT(t16, blob,
	LTTNG_UST_TP_ARGS(int, i, const char *, bytes),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int, i, i)
		lttng_ust_field_fixed_length_blob(fixed, bytes, 4, "application/octet-stream")
		lttng_ust_field_variable_length_blob(var, bytes, uint16_t, (uint16_t)(i % 9), "text/plain")
		lttng_ust_field_fixed_length_blob(plain, bytes + 4, 2, NULL)
		lttng_ust_field_string(s, bytes + 4)
	)
)

LTTNG_UST_TRACEPOINT_EVENT(t16, ints,
	LTTNG_UST_TP_ARGS(int, i),
	LTTNG_UST_TP_FIELDS(
		lttng_ust_field_integer(int64_t, s64, -i)
		lttng_ust_field_integer_hex(uint32_t, x32, (uint32_t)i * 2654435761u)
		lttng_ust_field_float(double, d, i / 4.0)
	)
)

#endif /* BLOB_TP_H */

#include <lttng/tracepoint-event.h>
