/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * dup_app.c - a program linked with two libraries that each hold the
 * probes of provider compat (compat_tp.c built twice): N compat:basic
 * events, which LTTng records once each.
 */
#include <stdlib.h>

#include "compat_tp.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(compat, basic, i, "twice?");
	return 0;
}
