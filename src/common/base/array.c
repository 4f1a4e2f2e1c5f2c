// SPDX-License-Identifier: LGPL-2.1-only
/*
 * array.c - arrays that grow by doubling (see array.h).
 */
#include <stdint.h>
#include <stdlib.h>

#include "common/base/array.h"

#define ARRAY_FIRST_CAP 16

void *ltt_array_grow(void *array, size_t *cap, size_t size)
{
	size_t n = *cap ? 2 * *cap : ARRAY_FIRST_CAP;
	void *grown;

	if (n < *cap || n > SIZE_MAX / size)
		return NULL;
	grown = realloc(array, n * size);
	if (grown)
		*cap = n;
	return grown;
}
