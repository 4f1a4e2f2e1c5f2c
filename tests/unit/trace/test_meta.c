// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_meta.c - what the session daemon's metadata writers (meta.h)
 * write, checked as text, no reader needed: the kernel's event
 * descriptions as TSDL (enumerations, big-endian bit fields, the taint
 * flags, the refusals), and CTF 2's fragments with the scan that the
 * crash repair cuts a torn one off with (ctf.h).  What babeltrace2 reads
 * of whole traces: test_tsdl.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "common/trace/ctf.h"
#include "sessiond/ctrace/meta.h"
#include "tests/unit/tap.h"
#include "tests/unit/tsdl-trace.h"

/* @d is refused by the TSDL writer (@what says why); then @d is the good one again. */
static void refused(struct ltt_wbuf *w, struct ltt_kabi_event_desc *d, const char *what)
{
	tap_is_int(ltt_meta_kernel_event(w, LTT_TRACE_FORMAT_CTF_1_8, d, 0, 0), -EINVAL, "kernel: %s refused", what);
	tt_kernel_desc(d);
}

/* A kernel integer whose enum_id names lttng-modules' epoll_ctl op: its TSDL an enum. */
static void test_kernel_enum(void)
{
	static const char want[] =
		"\t\tenum : integer { size = 32; align = 8; signed = 1; encoding = none; base = 10; } {\n"
		"\t\t\t\"EPOLL_CTL_ADD\" = 1,\n"
		"\t\t\t\"EPOLL_CTL_DEL\" = 2,\n"
		"\t\t\t\"EPOLL_CTL_MOD\" = 3\n"
		"\t\t} _prev_tid;\n"
		"\t\tinteger { size = 64;";
	struct ltt_kabi_event_desc d;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	tt_kernel_desc(&d);
	d.fields[1].enum_id = LTT_KABI_ENUM_EPOLL_OP;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), 0, "kernel: an integer as an enumeration taken");
	tap_ok(w.data && w.len < 65536 && memmem(w.data, w.len, want, sizeof(want) - 1),
	       "kernel: ... written as an enum of its integer, lttng-modules' labels and values");
	if (!w.data || !memmem(w.data, w.len, want, sizeof(want) - 1))
		tap_diag("%.*s", (int)w.len, w.data ? (const char *)w.data : "");
	ltt_wbuf_fini(&w);
}

/*
 * lttng-modules' network integers and arrays (big endian) and bit arrays
 * and sequences (lttng-test's): their TSDL, and what is refused of them.
 */
static void test_kernel_be_bits(void)
{
	static const char *const want[] = {
		"\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 16; byte_order = be; } _prev_tid;\n",
		"\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 16; byte_order = be; } _args[ __args_length ];\n",
		"\t\tinteger { size = 1; align = 1; signed = 0; encoding = none; base = 10; } _prev_state[192];\n",
		("\t\tuint32_t __next_tid_length;\n"
		 "\t\tinteger { size = 1; align = 1; signed = 0; encoding = none; base = 10; } _next_tid[ __next_tid_length ];\n"),
	};
	struct ltt_kabi_event_desc d;
	struct ltt_wbuf w;
	size_t i;

	ltt_wbuf_init(&w);
	tt_kernel_desc(&d);
	d.fields[1].flags = LTT_KABI_FIELD_BIG_ENDIAN;	/* prev_tid */
	d.fields[1].base = 16;
	d.fields[5].flags = LTT_KABI_FIELD_BIG_ENDIAN;	/* args, a sequence */
	d.fields[2] = (struct ltt_kabi_field){ .name = "prev_state", .type = LTT_KABI_FIELD_ARRAY,
					       .size = 8, .base = 10, .bits = 1, .length = 192 };
	d.fields[4] = (struct ltt_kabi_field){ .name = "next_tid", .type = LTT_KABI_FIELD_SEQUENCE,
					       .size = 8, .base = 10, .bits = 1 };
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), 0,
		   "kernel: big-endian integers and elements, bit arrays and sequences taken");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		bool found = w.data && memmem(w.data, w.len, want[i], strlen(want[i]));

		tap_ok(found, "kernel: ... %.60s", want[i] + 2);
		if (!found)
			tap_diag("%.*s", (int)w.len, w.data ? (const char *)w.data : "");
	}
	ltt_wbuf_fini(&w);
	d.fields[2].length = 100;
	refused(&w, &d, "a bit array of bits not filling its integers");
	d.fields[2] = (struct ltt_kabi_field){ .name = "prev_state", .type = LTT_KABI_FIELD_ARRAY,
					       .size = 8, .base = 10, .bits = 2, .length = 64 };
	refused(&w, &d, "an array of 2-bit elements");
	d.fields[2] = (struct ltt_kabi_field){ .name = "prev_state", .type = LTT_KABI_FIELD_ARRAY,
					       .size = 8, .base = 10, .bits = 1, .length = 64,
					       .flags = LTT_KABI_FIELD_BIG_ENDIAN };
	refused(&w, &d, "a big-endian bit array");
}

/* module_load's taints: lttng-modules' taint, one flag per label, unsigned. */
static void test_kernel_enum_taint(void)
{
	static const char want[] =
		"\t\tenum : integer { size = 32; align = 8; signed = 0; encoding = none; base = 10; } {\n"
		"\t\t\t\"PROPRIETARY_MODULE\" = 1,\n"
		"\t\t\t\"FORCED_MODULE\" = 2,\n";
	static const char tail[] =
		"\t\t\t\"OOT_MODULE\" = 4096,\n"
		"\t\t\t\"UNSIGNED_MODULE\" = 8192,\n"
		"\t\t\t\"SOFTLOCKUP\" = 16384,\n"
		"\t\t\t\"LIVEPATCH\" = 32768,\n"
		"\t\t\t\"AUX\" = 65536,\n"
		"\t\t\t\"RANDSTRUCT\" = 131072\n"
		"\t\t} _prev_tid;\n";
	struct ltt_kabi_event_desc d;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	tt_kernel_desc(&d);
	d.fields[1].enum_id = LTT_KABI_ENUM_TAINT;
	d.fields[1].is_signed = 0;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), 0, "kernel: taints as an enumeration taken");
	tap_ok(w.data && w.len < 65536 && memmem(w.data, w.len, want, sizeof(want) - 1) &&
	       memmem(w.data, w.len, tail, sizeof(tail) - 1),
	       "kernel: ... lttng-modules' taint, 18 flags from PROPRIETARY_MODULE 1 to RANDSTRUCT 1 << 17");
	if (!w.data || !memmem(w.data, w.len, tail, sizeof(tail) - 1))
		tap_diag("%.*s", (int)w.len, w.data ? (const char *)w.data : "");
	ltt_wbuf_fini(&w);
}

static void test_kernel_refusals(void)
{
	struct ltt_kabi_event_desc d;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	tt_kernel_desc(&d);
	d.name[0] = ':';
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: a bad event name refused");
	tt_kernel_desc(&d);
	memset(d.name, 'a', sizeof(d.name));
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: an unterminated name refused");
	tt_kernel_desc(&d);
	memcpy(d.fields[1].name, "prev_comm", 10);
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: a duplicate field refused");
	tt_kernel_desc(&d);
	d.fields[1].size = 3;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: a 3-byte integer refused");
	tt_kernel_desc(&d);
	d.fields[1].type = 2;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: a float refused");
	tt_kernel_desc(&d);
	d.nr_fields = LTT_KABI_MAX_FIELDS + 1;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: too many fields refused");
	tt_kernel_desc(&d);
	d.fields[2].flags = 0x80;
	tap_is_int(ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, 0, 0), -EINVAL, "kernel: an unknown field flag refused");
	tt_kernel_desc(&d);
	d.fields[6].flags = LTT_KABI_FIELD_BIG_ENDIAN;
	refused(&w, &d, "a big-endian string");
	/* enumerations: an integer's, of a number ltt knows */
	tt_kernel_desc(&d);
	d.fields[1].enum_id = 200;
	refused(&w, &d, "an enumeration ltt has no table for");
	d.fields[6].enum_id = LTT_KABI_ENUM_EPOLL_OP;
	refused(&w, &d, "a string as an enumeration");
	d.fields[14].enum_id = LTT_KABI_ENUM_EPOLL_OP;
	refused(&w, &d, "a structure's member as an enumeration");
	/* the structures (fds_length 7, fds 8: fd 9, flags 10: IN 11, padding 12; ev 13: u 14) */
	tt_kernel_desc(&d);
	d.fields[11].bits = 6;
	refused(&w, &d, "a structure whose members' bits don't fill its bytes");
	memcpy(d.fields[7].name, "fdcount", 8);
	refused(&w, &d, "a sequence of structures with no NAME_length field before it");
	d.fields[9].type = LTT_KABI_FIELD_STRING;
	refused(&w, &d, "a structure's string member");
	d.fields[8].length = 9;
	refused(&w, &d, "a structure's members past the event's fields");
	memcpy(d.fields[10].name, "fd", 3);
	refused(&w, &d, "a structure's two members of one name");
	d.fields[11].name[0] = '\n';
	refused(&w, &d, "a member whose name is no C name");
	/*
	 * ev of 4 bytes as {4 bits, u16, 12 bits}: the bits sum to its
	 * bytes, but the u16 (align 8 in the TSDL) would start at bit 8, not
	 * 4: the TSDL's structure, 36 bits, would not be the record's 32
	 */
	d.fields[13].length = 3;
	d.fields[14] = (struct ltt_kabi_field){ .name = "lo", .type = LTT_KABI_FIELD_INTEGER,
						.bits = 4, .base = 10 };
	d.fields[15] = (struct ltt_kabi_field){ .name = "mid", .type = LTT_KABI_FIELD_INTEGER,
						.size = 2, .base = 10 };
	d.fields[16] = (struct ltt_kabi_field){ .name = "hi", .type = LTT_KABI_FIELD_INTEGER,
						.bits = 12, .base = 10 };
	d.nr_fields = 17;
	refused(&w, &d, "a whole-byte member after bits that end mid-byte");
	/* fds' elements of 2 bytes as {lo: 4 bits, flags (1 byte), hi: 4 bits} */
	memmove(&d.fields[14], &d.fields[13], 2 * sizeof(d.fields[0]));
	d.fields[8].size = 2;
	d.fields[8].length = 5;
	d.fields[9] = (struct ltt_kabi_field){ .name = "lo", .type = LTT_KABI_FIELD_INTEGER,
					       .bits = 4, .base = 10 };
	d.fields[13] = (struct ltt_kabi_field){ .name = "hi", .type = LTT_KABI_FIELD_INTEGER,
						.bits = 4, .base = 10 };
	d.nr_fields = 16;
	refused(&w, &d, "a member structure after bits that end mid-byte");
	tap_is_int((long long)w.len, 0, "kernel: nothing appended by any refusal");
	ltt_wbuf_fini(&w);
}

/* @len bytes of @text fed in pieces of @piece bytes; the whole fragments' end. */
static uint64_t scan_whole(const uint8_t *text, size_t len, size_t piece)
{
	struct ltt_ctf2_scan s;
	size_t i;

	ltt_ctf2_scan_init(&s);
	for (i = 0; i < len; i += piece)
		ltt_ctf2_scan_feed(&s, text + i, len - i < piece ? len - i : piece);
	return s.whole;
}

/*
 * CTF 2's metadata as the daemon writes it (meta.h): fragments each
 * begun by the record separator, and the scan the crash repair cuts a
 * torn one off with (ctf.h).
 */
static void test_ctf2(void)
{
	static const struct ltt_ust_enum_entry labels[] = {
		{ .start = 0, .end = 0, .label = "{ \"brace\" }" },
	};
	static const struct ltt_app_field fields[] = {
		{ .name = (char *)"s", .type = LTT_UST_TYPE_STRING, .size = 1, .enum_name = (char *)"" },
		{ .name = (char *)"e", .type = LTT_UST_TYPE_ENUM, .size = 4, .base = 10,
		  .enum_name = (char *)"k", .nr_enum_entries = 1,
		  .enum_entries = (struct ltt_ust_enum_entry *)labels },
	};
	struct ltt_app_tracepoint tp = { .name = (char *)"p:e", .loglevel = 13, .nr_fields = 2,
					 .fields = (struct ltt_app_field *)fields };
	struct ltt_meta_trace t = {
		.clock_offset_ns = 5, .hostname = "h", .trace_name = "t",
		.creation_datetime = "20240501T120000+0200", .buffering = "uid",
		.bits_per_long = 64, .vpid = -1,
	};
	size_t header, before_event;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	tap_ok(!ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_2, &t) && w.len &&
	       w.data[0] == LTT_CTF2_RS, "CTF 2: a trace header, its first byte the record separator");
	header = w.len;
	tap_ok(!ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_2, 0, false, NULL, 0), "a stream");
	before_event = w.len;
	tap_ok(!ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_2, &tp, 3, 0) && w.len > before_event &&
	       memmem(w.data + before_event, w.len - before_event, "\"debug:line\"", 12),
	       "an event, its log level as LTTng's attribute");
	tap_ok(scan_whole(w.data, w.len, w.len) == w.len && scan_whole(w.data, w.len, 1) == w.len,
	       "the scan finds every fragment whole, fed whole or a byte at a time "
	       "(a label holding braces and quotes)");
	tap_ok(scan_whole(w.data, w.len - 1, 7) == before_event &&
	       scan_whole(w.data, before_event + 1, 7) == before_event,
	       "a torn last fragment: the whole ones end before it");
	tap_ok(scan_whole(w.data, header, 3) == header, "the header's three fragments");
	tap_ok(scan_whole((const uint8_t *)"x\x1e{}", 4, 4) == 0, "a file that is not CTF 2: none");
	ltt_wbuf_reset(&w);
	tap_is_int(ltt_meta_trace_header(&w, (enum ltt_trace_format)3, &t), -EINVAL,
		   "a format that is neither: -EINVAL");
	ltt_wbuf_fini(&w);
}

int main(void)
{
	test_kernel_refusals();
	test_kernel_enum();
	test_kernel_enum_taint();
	test_kernel_be_bits();
	test_ctf2();
	return tap_done();
}
