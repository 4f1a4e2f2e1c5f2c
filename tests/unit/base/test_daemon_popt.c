// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_daemon_popt.c - ltt_daemon_popt() (common/base/daemon-popt.h)
 * frees popt's copy of a string option that a repeat replaces, for any
 * table: a string option past 64 entries, one in an included table
 * (after an entry without a name), one with a code of its own.  Each is
 * given 40 times with a 4000-byte value; what the heap holds after the
 * parse, the last values freed, is measured (mallinfo2): 480,000 bytes
 * more when copies leak.
 */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/daemon-popt.h"
#include "tests/unit/tap.h"

#define FILLER 70
#define REPEATS 40
#define VALUE 4000
#define OPT_CODED 1

static char *late, *inner, *coded, *plain;
static int codes;

static int own(void *arg, int code)
{
	(void)arg;
	if (code == OPT_CODED && coded && strlen(coded) == VALUE)
		codes++;
	return 0;
}

static void help(void *ctx)
{
	(void)ctx;
}

int main(void)
{
	static struct poptOption inner_table[] = {
		{ "inner", 0, POPT_ARG_STRING, &inner, 0, "an included table's", "S" },
		POPT_TABLEEND
	};
	struct poptOption table[FILLER + 6];
	static int fill[FILLER];
	static char names[FILLER][16];
	const char *argv[1 + 6 * REPEATS + 1];
	char *value = malloc(VALUE + 9);
	struct mallinfo2 before, after;
	poptContext ctx;
	int i, n = 0, first, verbose = 0, ret;
	long grew;

	if (!value)
		return 1;
	memset(table, 0, sizeof(table));
	for (i = 0; i < FILLER; i++) {
		snprintf(names[i], sizeof(names[i]), "fill%d", i);
		table[i] = (struct poptOption){ names[i], 0, POPT_ARG_INT, &fill[i], 0, "", "N" };
	}
	table[i++] = (struct poptOption){ "late", 0, POPT_ARG_STRING, &late, 0, "past 64", "S" };
	table[i++] = (struct poptOption){ NULL, 0, POPT_ARG_INCLUDE_TABLE, inner_table, 0, "", NULL };
	table[i++] = (struct poptOption){ "coded", 0, POPT_ARG_STRING, &coded, OPT_CODED, "", "S" };
	table[i++] = (struct poptOption){ "plain", 0, POPT_ARG_STRING, &plain, 0, "", "S" };

	/* value + 8: VALUE x's; value: "--coded=" or "--plain=" before them */
	memset(value, 'x', VALUE + 8);
	value[VALUE + 8] = '\0';
	argv[n++] = "test";
	for (i = 0; i < REPEATS; i++) {
		argv[n++] = "--late";
		argv[n++] = value + 8;
		argv[n++] = "--inner";
		argv[n++] = value + 8;
	}
	first = n;
	memcpy(value, "--coded=", 8);
	for (i = 0; i < REPEATS; i++)
		argv[n++] = strdup(value);
	memcpy(value, "--plain=", 8);
	for (i = 0; i < REPEATS; i++)
		argv[n++] = strdup(value);
	argv[n] = NULL;

	before = mallinfo2();
	ctx = poptGetContext("test", n, argv, table, 0);
	ret = ltt_daemon_popt("test", ctx, table, &verbose, help, own, NULL);
	poptFreeContext(ctx);
	tap_is_int(ret, 0, "a line of 4 string options, each given 40 times, read");
	tap_ok(late && inner && coded && plain && strlen(late) == VALUE && strlen(inner) == VALUE &&
	       strlen(coded) == VALUE && strlen(plain) == VALUE,
	       "each option's last value kept (past 64 entries, included, coded, plain)");
	tap_is_int(codes, REPEATS, "the coded option's code reached the daemon's function each time");
	free(late);
	free(inner);
	free(coded);
	free(plain);
	after = mallinfo2();
	grew = (long)after.uordblks - (long)before.uordblks;
	tap_ok(grew < 64 * 1024,
	       "the replaced copies freed: the heap holds %ld bytes more after the parse (leaking, %d)",
	       grew, 4 * (REPEATS - 1) * VALUE);
	for (i = first; i < n; i++)	/* the test's own copies (LeakSanitizer) */
		free((char *)argv[i]);
	free(value);
	return tap_done();
}
