// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracefile.c - the names of a stream's files (see tracefile.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "common/tracefile.h"

int ltt_tracefile_name(const char *base, bool rotating, uint64_t no, bool index, char *buf,
		       size_t len)
{
	int n;

	if (rotating)
		n = snprintf(buf, len, "%s_%" PRIu64 "%s", base, no, index ? ".idx" : "");
	else
		n = snprintf(buf, len, "%s%s", base, index ? ".idx" : "");
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
