/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * own_app.c - a program that brings LTTng-UST's own library
 * (test_lttng_ust_own.sh links it with a RUNPATH naming a copy of
 * Debian's liblttng-ust.so.1): says "ready" once its constructors ran
 * (LTTng-UST's registration done or refused), waits for a line on its
 * standard input, then records N compat:basic events.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compat_tp.h"

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4, i;
	char line[16];

	printf("ready\n");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		return 1;
	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(compat, basic, i, "own");
	return 0;
}
