// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust_app_alt.c - a program whose ltt_test:seq has other fields than
 * ust_app's, to check that a shared trace holds both layouts of the name,
 * each under its own event class, and never mixes them.  It also emits
 * ltt_test_alt:own, which no one else declares.
 *
 *   ust_app_alt [-n EVENTS]
 */
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT(ltt_test, seq,
	LTT_TP_ARGS(int64_t value, double ratio),
	LTT_TP_FIELDS(
		ltt_field_integer(int64_t, value, value)
		ltt_field_float(double, ratio, ratio)))

LTT_TRACEPOINT_EVENT(ltt_test_alt, own,
	LTT_TP_ARGS(uint32_t i),
	LTT_TP_FIELDS(ltt_field_integer(uint32_t, i, i)))

int main(int argc, char **argv)
{
	unsigned long i, n = 10;
	int c;

	while ((c = getopt(argc, argv, "n:")) != -1)
		if (c == 'n')
			n = strtoul(optarg, NULL, 10);
	for (i = 0; i < n; i++) {
		ltt_tracepoint(ltt_test, seq, -(int64_t)i, 0.5 * (double)i);
		ltt_tracepoint(ltt_test_alt, own, (uint32_t)i);
	}
	return 0;
}
