// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-lttng-test.c - lttng-modules' test event, lttng_test_filter_event,
 * with its fields as lttng-modules 2.13 declares them (names, types, byte
 * orders, bit arrays, enumeration), so that LTTng's own tests of kernel
 * filters, wildcards and trackers find the event they enable.  The
 * separate module lttng-test.ko (kmod/lttng-test.c) gives it LTTng's
 * /proc/lttng-test-filter-event and calls ltt_lttng_test_emit(); the
 * event is ltt-tracer's, listed (LIST), described and enabled only while
 * lttng-test.ko is loaded (ltt_lttng_test_present()), as LTTng's.
 *
 * Event i of a write of N (i = 0 .. N-1), as LTTng's module records it:
 *   intfield, intfield2 (hex), longfield	i
 *   signedfield				-1
 *   netintfield, netintfieldhex (hex)	htonl(i), declared big endian: i
 *   arrfield1, seqfield4		{ 1, 2, 3 } (long)
 *   arrfield2 (text, 10 bytes)		"test", NUL-padded
 *   arrfield3, seqfield3		{ 1, 2, 3 } (u32, big endian)
 *   seqfield1 (integers), seqfield2 (text)	"test" (4 bytes)
 *   stringfield				"test"
 *   stringfield2			"\*"
 *   bitfield_seq, bitfield_array	the 192 bits of { 1, 2, 3 }
 *   enum0 .. enumnegative		0, 23, 27, 28, 202, 304, -1 written as
 *					lttng_test_filter_event_enum
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/string.h>
#include <asm/byteorder.h>

#include "../ltt-event.h"

LTT_EVENT(lttng_test_filter_event,
	LTT_PROTO(int anint, int netint, const long *values, const char *text, size_t textlen,
		  const char *etext, const u32 *net_values),
	LTT_FIELDS(
		ltt_field_integer(int, intfield, anint)
		ltt_field_integer_hex(int, intfield2, anint)
		ltt_field_integer(long, longfield, anint)
		ltt_field_integer(int, signedfield, -1)
		ltt_field_integer_network(int, netintfield, netint)
		ltt_field_integer_network_hex(int, netintfieldhex, netint)
		ltt_field_array(long, arrfield1, values, 3)
		ltt_field_array_text(arrfield2, text, 10)
		ltt_field_array_network(u32, arrfield3, net_values, 3)
		ltt_field_sequence(char, seqfield1, text, textlen)
		ltt_field_sequence_text(seqfield2, text, textlen)
		ltt_field_sequence_network(u32, seqfield3, net_values, 3)
		ltt_field_sequence(long, seqfield4, values, 3)
		ltt_field_string(stringfield, text)
		ltt_field_string(stringfield2, etext)
		ltt_field_sequence_bitfield(long, bitfield_seq, values, 3)
		ltt_field_array_bitfield(long, bitfield_array, values, 3)
		ltt_field_enum(int, enum0, 0, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enum23, 23, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enum27, 27, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enum28, 28, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enum202, 202, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enum304, 304, LTT_KABI_ENUM_LTTNG_TEST)
		ltt_field_enum(int, enumnegative, -1, LTT_KABI_ENUM_LTTNG_TEST)));

/*
 * ltt_lttng_test_emit() - record @n lttng_test_filter_event, i = 0 .. @n - 1
 *
 * Process context.  Returns 0, or -EINTR when a fatal signal came first
 * (the events recorded until then stay; a signal the writer handles does
 * not cut the write short, as it does not LTTng's).
 */
int ltt_lttng_test_emit(unsigned int n)
{
	static const long values[3] = { 1, 2, 3 };
	const u32 net_values[3] = { htonl(1), htonl(2), htonl(3) };
	const char text[10] = "test";
	const char etext[10] = "\\*";
	unsigned int i;

	for (i = 0; i < n; i++) {
		ltt_event_call(lttng_test_filter_event, (int)i, (int)htonl(i), values, text,
			       strlen(text), etext, net_values);
		if (!(i & 1023)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}
EXPORT_SYMBOL_GPL(ltt_lttng_test_emit);

LTT_PROBE_EXTERNAL(lttng_test, LTT_EVENT_DESC(lttng_test_filter_event));

/* lttng-test.ko loaded (@present) or removed: the event listed, or not, as LTTng's. */
void ltt_lttng_test_present(bool present)
{
	ltt_probe_set_present(&ltt_probe_lttng_test, present);
}
EXPORT_SYMBOL_GPL(ltt_lttng_test_present);
