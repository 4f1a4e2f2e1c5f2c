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
 *
 * Call i records i in field i and a text naming the phase.
 */
#include <dlfcn.h>
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

	if (argc > 4 && !strcmp(argv[1], "-u")) {
		n = atoi(argv[2]);
		if (!(first = load(argv[3])))
			return 1;
		calls(n, "first");
		if (!load(argv[4]))
			return 1;
		calls(n, "both");
		if (dlclose(first))
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
