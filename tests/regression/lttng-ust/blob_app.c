/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * blob_app.c - N rounds of t16:blob and t16:ints (blob_tp.h), a program
 * built with LTTng-UST 2.16's headers (test_lttng_ust_216.sh).
 */
#define LTTNG_UST_TRACEPOINT_CREATE_PROBES
#define LTTNG_UST_TRACEPOINT_DEFINE
#include "blob_tp.h"

#include <stdlib.h>

int main(int argc, char **argv)
{
	static const char bytes[] = "\x01\x02\xfe\xff" "ab" "cdefghi";
	int n = argc > 1 ? atoi(argv[1]) : 10, i;

	for (i = 0; i < n; i++) {
		lttng_ust_tracepoint(t16, blob, i, bytes);
		lttng_ust_tracepoint(t16, ints, i);
	}
	return 0;
}
