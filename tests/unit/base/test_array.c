// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_array.c - unit tests of common/base/array.c: arrays that grow by
 * doubling, their elements kept, and a size that would overflow refused
 * with the array left as it was.
 */
#include <stdint.h>
#include <stdlib.h>

#include "common/base/array.h"
#include "tests/unit/tap.h"

static void test_grow(void)
{
	size_t cap = 0, i;
	int *a = NULL, *g;
	bool kept = true;

	a = ltt_array_grow(a, &cap, sizeof(*a));
	tap_ok(a != NULL, "an empty array grows");
	tap_is_u64(cap, 16, "to 16 elements");
	for (i = 0; a && i < cap; i++)
		a[i] = (int)i * 7;
	g = ltt_array_grow(a, &cap, sizeof(*a));
	tap_ok(g != NULL, "a full one grows again");
	tap_is_u64(cap, 32, "to twice its capacity");
	for (i = 0; g && i < 16; i++)
		kept &= g[i] == (int)i * 7;
	tap_ok(kept, "its first 16 elements kept");
	free(g);
}

static void test_overflow(void)
{
	size_t cap = SIZE_MAX / 8 + 1;
	char mark = 'x';
	void *g;

	g = ltt_array_grow(&mark, &cap, 4);
	tap_ok(g == NULL, "a capacity whose bytes pass SIZE_MAX is refused");
	tap_is_u64(cap, SIZE_MAX / 8 + 1, "the capacity is left as it was");
	cap = SIZE_MAX / 2 + 1;
	g = ltt_array_grow(&mark, &cap, 1);
	tap_ok(g == NULL, "a capacity that would wrap when doubled is refused");
	tap_is_u64(cap, SIZE_MAX / 2 + 1, "and left as it was");
	tap_ok(mark == 'x', "the array is untouched");
}

int main(void)
{
	test_grow();
	test_overflow();
	return tap_done();
}
