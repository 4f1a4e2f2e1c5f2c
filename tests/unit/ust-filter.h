/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ust-filter.h - for the tests that hand libltt-ust filters in-process
 * (test_ust_filter_abi.c, test_ust_notify.c): an expression compiled
 * over one field and set as EVENT_FILTER would set it.
 */
#ifndef LTT_TESTS_UST_FILTER_H
#define LTT_TESTS_UST_FILTER_H

#include <stddef.h>
#include <stdint.h>

#include "common/filter/filter-compile.h"

/* The int field "v" (4 bytes, signed) the tests' events carry. */
extern const struct ltt_filter_field_desc ust_filter_int_v;

/*
 * One filter program on @event for @key, compiled from @expr over
 * @field, or none (@expr NULL); a test whose expression does not compile
 * exits.  Returns ltt_ust_test_set_filter()'s.
 */
int ust_filter_set(uint64_t key, const char *event, const char *expr,
		   const struct ltt_filter_field_desc *field);

/*
 * The bytes of events recorded in the channel whose ring buffers are
 * mapped at @mem (@len bytes) since the last call: each sub-buffer read
 * as the consumer reads it, less its packet header of @hdr bytes.
 */
size_t ust_filter_recorded(void *mem, size_t len, size_t hdr);

#endif
