/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * compat_app.c - a program instrumented for LTTng-UST 2.13 with Debian's
 * headers and lttng-gen-tp (test_lttng_ust_record.sh builds it at test
 * time, never with ltt's headers): N events of compat:basic.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compat_tp.h"

int main(int argc, char **argv)
{
	/* no "": babeltrace2 2.0 prints an empty string as an earlier event's value */
	static const char *const texts[] = { "alpha", "b", "gamma delta", "\xc3\xa9t\xc3\xa9" };
	int n = argc > 1 ? atoi(argv[1]) : 4, i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(compat, basic, i, texts[i % 4]);
	return 0;
}
