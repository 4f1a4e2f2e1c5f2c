// SPDX-License-Identifier: LGPL-2.1-only
/*
 * debug.c - the compatible libraries' messages: only under LTTNG_UST_DEBUG,
 * as lttng-ust's own.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "lttng-ust/lttng-ust.h"

bool lu_debug_enabled(void)
{
	const char *v = getenv("LTTNG_UST_DEBUG");

	return v != NULL;
}

void lu_debug(const char *fmt, ...)
{
	va_list ap;

	if (!lu_debug_enabled())
		return;
	fprintf(stderr, "ltt lttng-ust [%ld]: ", (long)getpid());
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
