// SPDX-License-Identifier: LGPL-2.1-only
/*
 * errmap.c - from internal failures to public codes, by table (errmap.h).
 */
#include <assert.h>

#include "common/base/errmap.h"

enum ltt_error_code ltt_errmap_code(const struct ltt_errmap *map, size_t n, int err,
				    enum ltt_error_code (*fallback)(int err))
{
	size_t i;

	for (i = 0; i < n; i++)
		if (map[i].err == err || map[i].err == LTT_ERRMAP_ELSE)
			return map[i].code;
	assert(fallback);
	return fallback(err);
}
