// SPDX-License-Identifier: LGPL-2.1-only
/*
 * size.c - parsing sizes and counts given by users ("4k", "1M", "0x1000").
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "common/base/size.h"

static int digit_value(char c, unsigned int base)
{
	int v;

	if (c >= '0' && c <= '9')
		v = c - '0';
	else if (c >= 'a' && c <= 'f')
		v = c - 'a' + 10;
	else if (c >= 'A' && c <= 'F')
		v = c - 'A' + 10;
	else
		return -1;
	return (unsigned int)v < base ? v : -1;
}

/*
 * The shift of a unit suffix ("", "k", "K", "M", "G", each letter optionally
 * followed by "B" or "iB"), or -1 when @s is anything else.
 */
static int suffix_shift(const char *s)
{
	int shift;

	switch (*s) {
	case '\0':
		return 0;
	case 'k':
	case 'K':
		shift = 10;
		break;
	case 'M':
		shift = 20;
		break;
	case 'G':
		shift = 30;
		break;
	default:
		return -1;
	}
	s++;
	if (s[0] == 'i' && s[1] == 'B')
		s += 2;
	else if (s[0] == 'B')
		s++;
	return *s == '\0' ? shift : -1;
}

int ltt_size_parse(const char *text, uint64_t *ret_size)
{
	unsigned int base = 10;
	const char *p;
	uint64_t v = 0;
	int shift, d;

	if (!text || !ret_size)
		return -EINVAL;
	p = text;
	if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X')) {
		base = 16;
		p += 2;
	}
	/* At least one digit: rejects "", "0x", "k", "+1", " 1"... */
	if (digit_value(*p, base) < 0)
		return -EINVAL;
	for (; (d = digit_value(*p, base)) >= 0; p++) {
		if (v > (UINT64_MAX - (uint64_t)d) / base)
			return -EINVAL;
		v = v * base + (uint64_t)d;
	}
	shift = suffix_shift(p);
	if (shift < 0)
		return -EINVAL;
	if (shift && v > (UINT64_MAX >> shift))
		return -EINVAL;
	*ret_size = v << shift;
	return 0;
}

bool ltt_is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

void ltt_size_format(uint64_t size, char *buf, unsigned long len)
{
	static const struct {
		unsigned int shift;
		const char *unit;
	} units[] = {
		{ 30, "GiB" },
		{ 20, "MiB" },
		{ 10, "KiB" },
	};
	unsigned int i;

	if (!buf || !len)
		return;
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		uint64_t mask = ((uint64_t)1 << units[i].shift) - 1;

		if (size && !(size & mask)) {
			snprintf(buf, len, "%" PRIu64 " %s", size >> units[i].shift,
				 units[i].unit);
			return;
		}
	}
	snprintf(buf, len, "%" PRIu64 " B", size);
}
