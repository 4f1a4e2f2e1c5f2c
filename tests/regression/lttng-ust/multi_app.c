/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * multi_app.c - call sites of compat:basic (compat_tp.h, built with
 * LTTng-UST's headers) in a program that holds no provider: it dlopen()s
 * the libraries named on its command line, each with a provider of
 * compat (compat_tp.c built once per library).
 *
 *   multi_app N LIB...        load every LIB, then N calls
 *   multi_app -u N LIB1 LIB2  N calls with LIB1 loaded, N with both,
 *                             dlclose(LIB1), N with LIB2 alone
 *   multi_app -r N LIB1 LIB2  N calls with LIB1 loaded, dlclose(LIB1),
 *                             then LIB2 loaded in its place: N calls
 *   multi_app -w LIB...       load every LIB, say "ready" on stdout, wait
 *                             for a line (or EOF) on stdin
 *
 * Call i records i in field i and a text naming the phase.
 */
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LTTNG_UST_TRACEPOINT_DEFINE
#define LTTNG_UST_TRACEPOINT_PROBE_DYNAMIC_LINKAGE
#include "compat_tp.h"

static void *load(const char *path)
{
	void *h = dlopen(path, RTLD_NOW);

	if (!h)
		fprintf(stderr, "multi_app: %s\n", dlerror());
	return h;
}

static void calls(int n, const char *text)
{
	int i;

	for (i = 0; i < n; i++)
		lttng_ust_tracepoint(compat, basic, i, text);
}

int main(int argc, char **argv)
{
	void *first;
	int i, n;

	if (argc > 2 && !strcmp(argv[1], "-w")) {
		for (i = 2; i < argc; i++)
			if (!load(argv[i]))
				return 1;
		printf("ready\n");
		fflush(stdout);
		(void)getchar();
		return 0;
	}
	if (argc > 4 && (!strcmp(argv[1], "-u") || !strcmp(argv[1], "-r"))) {
		bool replace = argv[1][1] == 'r';

		n = atoi(argv[2]);
		if (!(first = load(argv[3])))
			return 1;
		calls(n, "first");
		/* -u: the second beside the first, then the first closed; -r: in its place */
		if ((replace && dlclose(first)) || !load(argv[4]))
			return 1;
		if (!replace)
			calls(n, "both");
		if (!replace && dlclose(first))
			return 1;
		calls(n, "second");
		return 0;
	}
	if (argc < 3)
		return 2;
	n = atoi(argv[1]);
	for (i = 2; i < argc; i++)
		if (!load(argv[i]))
			return 1;
	calls(n, "all");
	return 0;
}
