/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * compat_app.c - a program instrumented for LTTng-UST 2.13 with Debian's
 * headers and lttng-gen-tp (test_lttng_ust_record.sh builds it at test
 * time, never with ltt's headers): N rounds of one event of each
 * compat_tp.tp event, every field type of LTTng's tracepoint-event.h, then
 * a tracef and two tracelogs.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include <lttng/tracef.h>
#include <lttng/tracelog.h>

#include "compat_tp.h"

int main(int argc, char **argv)
{
	static const char *const texts[] = { "alpha", "b", "gamma delta", "\xc3\xa9t\xc3\xa9" };
	/* the empty string and NULL (recorded as "(null)") among the others */
	static const char *const seconds[] = { "", NULL, "second", "" , "zz", NULL };
	int n = argc > 1 ? atoi(argv[1]) : 4, i;

	for (i = 0; i < n; i++) {
		int32_t v[4] = { i, -i * 1000003, 0x7fffffff - i, (int32_t)0x80000000 + i };
		const char *text = texts[i % 4];
		char tbuf[8] = { 0 };

		snprintf(tbuf, sizeof(tbuf), "%s", text);	/* arrays read 6, sequences 4 bytes */

		lttng_ust_tracepoint(compat, basic, i, text);
		lttng_ust_tracepoint(compat, ints, i);
		lttng_ust_tracepoint(compat, floats, i);
		lttng_ust_tracepoint(compat, strings, i, i % 3 ? text : "", seconds[i % 6]);
		lttng_ust_tracepoint(compat, arrays, i, v, tbuf);
		lttng_ust_tracepoint(compat, seqs, i, v, tbuf, (unsigned int)(i % 5));
		lttng_ust_tracepoint(compat, enums, i % 12, i % 7 - 3);
		lttng_ust_tracepoint(compat, nowrite, i, v, tbuf);
		lttng_ust_tracef("tracef %d of %s", i, text);
		lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_WARNING, "warning %d", -i);
		lttng_ust_tracelog(LTTNG_UST_TRACEPOINT_LOGLEVEL_DEBUG_LINE, "%s", i % 2 ? "" : text);
	}
	return 0;
}
