/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * size.h - parsing sizes and counts given by users ("4k", "1M", "0x1000").
 */
#ifndef LTT_COMMON_SIZE_H
#define LTT_COMMON_SIZE_H

#include <stdbool.h>
#include <stdint.h>

/**
 * ltt_size_parse() - parse a size with an optional binary suffix
 * @text: decimal, or hexadecimal with 0x; then optionally one of k/K (2^10),
 *        M (2^20), G (2^30), with an optional trailing 'B' or "iB"
 *        ("4k", "4K", "4KiB", "1MB", "0x1000"); no sign, no spaces, and no
 *        'B' without a unit letter (in "0x1B" the 'B' is a hex digit)
 * @ret_size: the value in bytes, set only on success
 *
 * Returns 0, or -EINVAL for a NULL argument, empty text, garbage, a sign,
 * or a value that overflows 64 bits (18446744073709551615 is the largest).
 */
int ltt_size_parse(const char *text, uint64_t *ret_size);

/**
 * ltt_is_pow2() - true when @v is a power of two (0 is not)
 */
bool ltt_is_pow2(uint64_t v);

/** ltt_add_sat() - *@sum += @v, saturating at UINT64_MAX (a counter never wraps) */
static inline void ltt_add_sat(uint64_t *sum, uint64_t v)
{
	*sum = v > UINT64_MAX - *sum ? UINT64_MAX : *sum + v;
}

/**
 * ltt_size_format() - "512 KiB", "4 MiB", "3000 B": the largest exact unit
 * @size: bytes; units go up to GiB, and 0 is "0 B"
 * @buf: where to write; 32 bytes always suffice
 * @len: size of @buf; a shorter buffer gets truncated, NUL-terminated text
 */
void ltt_size_format(uint64_t size, char *buf, unsigned long len);

#endif /* LTT_COMMON_SIZE_H */
