/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * array.h - arrays that grow by doubling, as the daemons' lists of
 * events, classes and pending acknowledgements do.
 */
#ifndef LTT_COMMON_ARRAY_H
#define LTT_COMMON_ARRAY_H

#include <stddef.h>

/**
 * ltt_array_grow() - room for more elements in @array: its capacity
 * doubled, or 16 elements for an empty one
 * @array: taken: what realloc() does with it (NULL when @cap is 0)
 * @cap: in and out, in elements; set only on success
 * @size: bytes of an element
 *
 * Returns the grown array, its first @cap elements kept, or NULL with
 * @array and @cap as they were (no memory, or a size past SIZE_MAX).
 */
void *ltt_array_grow(void *array, size_t *cap, size_t size);

#endif /* LTT_COMMON_ARRAY_H */
