// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint_ser.c - what <ltt/tracepoint.h> and libltt-ust write, to
 * the byte: every field type, both event headers, several sessions, enable
 * and disable, fork() and a dlopen()ed module (test_tracepoint_cpu.c has
 * threads and the stream each event goes to).
 *
 * The test plays the session daemon in-process (src/ust/ust-internal.h):
 * it lays out ring buffers in memory (ust-rings.h), gives them to the
 * library as channels, enables events with chosen ids, then reads the
 * packets back as the consumer would.  It links the library's convenience
 * archive, so it re-executes itself first with LTT_RUNDIR set to an empty
 * directory: no real daemon is ever contacted.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "common/proto/app-proto.h"
#include "common/trace/ringbuf.h"
#include "common/trace/tclock.h"
#include "tests/unit/tap.h"
#include "tests/unit/ust-rings.h"
#include "ust/ust-internal.h"
#include "ust/ust.h"

/*
 * The library's own: lttng_ust_tracef:event, lttng_ust_tracelog's 15
 * levels, lttng_ust_statedump:start, bin_info, build_id, debug_link,
 * procname, end, and lttng_ust_lib:load, build_id, debug_link, unload
 * (what LTTng's dl helper has it record: ltt_ust_objects_update()).
 */
#define LIBRARY_EVENTS (1 + 15 + 6 + 4)

static int evals;

static int count_eval(int x)
{
	evals++;
	return x;
}

LTT_TRACEPOINT_ENUM(ser, color,
	LTT_TP_ENUM_VALUES(
		ltt_enum_value("RED", 0)
		ltt_enum_range("WARM", 1, 5)
		ltt_enum_value("NEG", -3)))

LTT_TRACEPOINT_EVENT(ser, ints,
	LTT_TP_ARGS(int8_t a, uint16_t b, int32_t c, uint64_t d, long e),
	LTT_TP_FIELDS(
		ltt_field_integer(int8_t, a, a)
		ltt_field_integer_hex(uint16_t, b, b)
		ltt_field_integer(int32_t, c, c)
		ltt_field_integer_hex(uint64_t, d, d)
		ltt_field_integer(long, e, e)))

LTT_TRACEPOINT_EVENT(ser, floats,
	LTT_TP_ARGS(float f, double d),
	LTT_TP_FIELDS(
		ltt_field_float(float, f, f)
		ltt_field_float(double, d, d)
		ltt_field_float(double, half, d / 2)))

LTT_TRACEPOINT_EVENT(ser, strings,
	LTT_TP_ARGS(const char *s, const char *t),
	LTT_TP_FIELDS(
		ltt_field_string(s, s)
		ltt_field_string(t, t)
		ltt_field_integer(int, after, 7)))

LTT_TRACEPOINT_EVENT(ser, arrays,
	LTT_TP_ARGS(const uint8_t *b, const int16_t *w, const char *t),
	LTT_TP_FIELDS(
		ltt_field_array(uint8_t, b, b, 4)
		ltt_field_array_hex(int16_t, w, w, 3)
		ltt_field_array_text(char, t, t, 5)))

LTT_TRACEPOINT_EVENT(ser, seqs,
	LTT_TP_ARGS(const int32_t *v, size_t n, const char *t),
	LTT_TP_FIELDS(
		ltt_field_sequence(int32_t, v, v, n)
		ltt_field_sequence_text(char, t, t, t ? strlen(t) : 0)
		ltt_field_integer(uint8_t, end, 0xee)))

LTT_TRACEPOINT_EVENT(ser, enums,
	LTT_TP_ARGS(int c),
	LTT_TP_FIELDS(
		ltt_field_enum(ser, color, int8_t, c8, c)
		ltt_field_enum(ser, color, int32_t, c32, -c)))

LTT_TRACEPOINT_EVENT_LOGLEVEL(ser, empty, LTT_LOGLEVEL_ERR, LTT_TP_ARGS(void), LTT_TP_FIELDS())

LTT_TRACEPOINT_EVENT(ser, counted,
	LTT_TP_ARGS(int x),
	LTT_TP_FIELDS(
		ltt_field_integer(int, x, count_eval(x))))

LTT_TRACEPOINT_EVENT(shared, both,
	LTT_TP_ARGS(int value),
	LTT_TP_FIELDS(
		ltt_field_integer(int, value, value)))

/* The plugin's shared:other has other fields (int v, string s): another layout. */
LTT_TRACEPOINT_EVENT(shared, other,
	LTT_TP_ARGS(int v),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)))

#define SUBBUF 4096
#define NUM_SUBBUF 8

/* One stream, one channel @key holding it. */
static void channel_new(struct region *r, uint64_t key)
{
	region_new(r, SUBBUF, NUM_SUBBUF);
	if (ltt_ust_test_add_channel(key, 1, &r->mem, &r->len)) {
		tap_diag("cannot add channel %llu", (unsigned long long)key);
		exit(1);
	}
}

static void channel_free(struct region *r, uint64_t key)
{
	ltt_ust_test_remove_channel(key);
	region_free(r);
}

/* ---- reading events back ---- */

#define ANY_HEADER (-1)

/*
 * Check the next event: its id, its header kind (1 compact, 0 extended, or
 * ANY_HEADER where timing decides), its payload to the byte.
 */
static void expect_event(struct cursor *c, uint32_t id, int compact, const void *payload,
			 size_t len, const char *what)
{
	uint32_t got_id = 0;
	bool got_compact = false;
	uint64_t ts;

	if (!tap_ok(next_header(c, &got_id, &got_compact, &ts), "%s: an event is there", what))
		return;
	tap_is_int(got_id, id, "%s: event id", what);
	if (compact != ANY_HEADER)
		tap_ok(got_compact == compact, "%s: %s header", what,
		       compact ? "compact" : "extended");
	if (!tap_ok((size_t)(c->end - c->p) >= len && (!len || !memcmp(c->p, payload, len)),
		    "%s: payload bytes (%zu)", what, len)) {
		size_t i;

		for (i = 0; i < len && c->p + i < c->end; i++)
			if (c->p[i] != ((const uint8_t *)payload)[i])
				tap_diag("byte %zu: got 0x%02x want 0x%02x", i, c->p[i],
					 ((const uint8_t *)payload)[i]);
	}
	c->p += len;
}

struct bytes {
	uint8_t b[1024];
	size_t n;
};

static void put(struct bytes *b, const void *p, size_t len)
{
	memcpy(b->b + b->n, p, len);
	b->n += len;
}

#define PUT(b, type, v) do { type v_ = (v); put((b), &v_, sizeof(v_)); } while (0)

static uint8_t events[1 << 20];

/* ---- the tests ---- */

/*
 * The library's own descriptions, encoded at build time (lib-desc-gen):
 * each byte for byte what the encoder makes of its descriptor now, found
 * by its name; none for another name.
 */
static void test_lib_descs(void)
{
	struct ltt_ust_tracepoint *tps[UST_LIB_TRACEPOINTS];
	unsigned int i, same = 0;
	size_t len = 0;

	ust_lib_tracepoints(tps);
	tap_is_int(ust_nr_lib_descs, LIBRARY_EVENTS, "the build encoded the library's %d events",
		   LIBRARY_EVENTS);
	for (i = 0; i < UST_LIB_TRACEPOINTS; i++) {
		const uint8_t *enc = ust_lib_desc(tps[i]->name, &len);
		struct ltt_wbuf w;

		ltt_wbuf_init(&w);
		ltt_app_put_tracepoint(&w, tps[i]);
		if (enc && !w.err && len == w.len && !memcmp(enc, w.data, len))
			same++;
		else
			tap_diag("%s: the build's description differs from the encoder's",
				 tps[i]->name);
		ltt_wbuf_fini(&w);
	}
	tap_is_int(same, UST_LIB_TRACEPOINTS, "each is what the encoder makes of its descriptor");
	tap_ok(!ust_lib_desc("lttng_ust_tracef:nope", &len) && !ust_lib_desc("", &len) &&
	       !ust_lib_desc("zzz:last", &len), "another name has none");
}

static void test_descriptors(void)
{
	struct ltt_ust_tracepoint *const *p;
	const struct ltt_ust_field *f = ltt_tp_fields__ser__ints;
	unsigned int n = 0, valid = 0;

	tap_is_int(ltt_tp_desc__ser__ints.nr_fields, 5, "ints: 5 fields");
	tap_ok(f[0].type == LTT_UST_TYPE_INTEGER && f[0].size == 1 && f[0].is_signed &&
	       f[0].base == 10, "int8_t: 1 byte, signed, decimal");
	tap_ok(f[1].size == 2 && !f[1].is_signed && f[1].base == 16, "uint16_t hex");
	tap_ok(f[4].size == sizeof(long) && f[4].is_signed, "long");
	f = ltt_tp_fields__ser__floats;
	tap_ok(f[0].type == LTT_UST_TYPE_FLOAT && f[0].size == 4 && f[1].size == 8 && !f[1].base,
	       "float and double");
	f = ltt_tp_fields__ser__arrays;
	tap_ok(f[0].type == LTT_UST_TYPE_ARRAY && f[0].length == 4 && f[1].base == 16 &&
	       f[1].is_signed && f[2].encoding == LTT_UST_ENCODING_UTF8, "arrays");
	f = ltt_tp_fields__ser__seqs;
	tap_ok(f[0].type == LTT_UST_TYPE_SEQUENCE && f[0].size == 4 && !f[0].length &&
	       f[1].encoding == LTT_UST_ENCODING_UTF8, "sequences");
	f = ltt_tp_fields__ser__enums;
	tap_ok(f[0].type == LTT_UST_TYPE_ENUM && f[0].enum_desc &&
	       f[0].enum_desc->nr_entries == 3 && !strcmp(f[0].enum_desc->name, "ser:color") &&
	       f[0].enum_desc->entries[1].start == 1 && f[0].enum_desc->entries[1].end == 5 &&
	       f[0].enum_desc->entries[2].start == -3, "enum and its labels");
	tap_is_int(ltt_tp_desc__ser__empty.loglevel, 3, "LTT_LOGLEVEL_ERR is 3");
	tap_is_int(ltt_tp_desc__ser__ints.loglevel, 13, "default level DEBUG_LINE");
	tap_is_int(ltt_tp_desc__ser__empty.nr_fields, 0, "an event without fields");
	tap_is_str(ltt_tp_desc__ser__ints.name, "ser:ints", "provider:event");
	/* every descriptor of this program passes the daemon's validation */
	for (p = __start___ltt_tp_ptrs; p < __stop___ltt_tp_ptrs; p++) {
		struct ltt_app_tracepoint *tp = NULL;
		struct ltt_wbuf w;
		struct ltt_rbuf r;

		n++;
		ltt_wbuf_init(&w);
		ltt_app_put_tracepoint(&w, *p);
		ltt_rbuf_init(&r, w.data, w.len);
		if (!ltt_app_get_tracepoint(&r, &tp) && !ltt_rbuf_end(&r))
			valid++;
		else
			tap_diag("%s refused by ltt_app_get_tracepoint()", (*p)->name);
		free(tp);
		ltt_wbuf_fini(&w);
	}
	tap_is_int(n, 10, "10 descriptors in the section");
	tap_is_int(valid, n, "all valid for the daemon");
}

static void test_registry(void)
{
	tap_ok(ltt_ust_test_event_known("ser:ints") && ltt_ust_test_event_known("ser:empty") &&
	       ltt_ust_test_event_known("lttng_ust_tracef:event"), "events registered at start-up");
	tap_is_int((long long)ltt_ust_test_nr_events(), 10 + LIBRARY_EVENTS,
		   "10 of ours, the library's %d (tracef, tracelog, state dump, objects)", LIBRARY_EVENTS);
	tap_ok(!ltt_ust_test_event_known("plugin:hello"), "the plugin's events not yet");
}

static void test_disabled(void)
{
	evals = 0;
	ltt_tracepoint(ser, counted, 1);
	tap_is_int(evals, 0, "a disabled tracepoint does not run its probe");
	tap_ok(!ltt_tracepoint_enabled(ser, counted), "ltt_tracepoint_enabled() false");
}

static void test_ints_floats(struct cursor *c)
{
	struct bytes b = { .n = 0 };

	PUT(&b, int8_t, -5);
	PUT(&b, uint16_t, 0xbeef);
	PUT(&b, int32_t, -100000);
	PUT(&b, uint64_t, 0x0123456789abcdefULL);
	PUT(&b, long, LONG_MIN);
	expect_event(c, 1, ANY_HEADER, b.b, b.n, "integers");
	b.n = 0;
	PUT(&b, float, 1.5f);
	PUT(&b, double, -2.25);
	PUT(&b, double, -1.125);
	expect_event(c, 2, ANY_HEADER, b.b, b.n, "floats");
}

static void test_strings_arrays(struct cursor *c)
{
	struct bytes b = { .n = 0 };
	static const uint8_t ab[4] = { 1, 2, 3, 250 };
	static const int16_t aw[3] = { -1, 2, 0x1234 };

	put(&b, "hello", 6);
	put(&b, "", 1);
	PUT(&b, int, 7);
	expect_event(c, 3, ANY_HEADER, b.b, b.n, "strings");
	b.n = 0;
	put(&b, "(null)", 7);
	put(&b, "x", 2);
	PUT(&b, int, 7);
	expect_event(c, 3, ANY_HEADER, b.b, b.n, "NULL string");
	b.n = 0;
	put(&b, ab, 4);
	put(&b, aw, 6);
	put(&b, "abcde", 5);
	expect_event(c, 4, ANY_HEADER, b.b, b.n, "arrays");
	b.n = 0;
	put(&b, "\0\0\0\0", 4);
	put(&b, aw, 6);
	put(&b, "\0\0\0\0\0", 5);
	expect_event(c, 4, ANY_HEADER, b.b, b.n, "NULL arrays read as zeros");
}

static void test_seqs_enums(struct cursor *c)
{
	struct bytes b = { .n = 0 };
	static const int32_t v[3] = { 10, -20, 30 };

	PUT(&b, uint32_t, 3);
	put(&b, v, 12);
	PUT(&b, uint32_t, 2);
	put(&b, "ok", 2);
	PUT(&b, uint8_t, 0xee);
	expect_event(c, 5, ANY_HEADER, b.b, b.n, "sequences");
	b.n = 0;
	PUT(&b, uint32_t, 0);
	PUT(&b, uint32_t, 0);
	PUT(&b, uint8_t, 0xee);
	expect_event(c, 5, ANY_HEADER, b.b, b.n, "empty and NULL sequences");
	b.n = 0;
	PUT(&b, int8_t, 4);
	PUT(&b, int32_t, -4);
	expect_event(c, 6, ANY_HEADER, b.b, b.n, "enums");
	expect_event(c, 7, ANY_HEADER, NULL, 0, "no fields");
}

/* Every field type, into a channel of its own, checked byte by byte. */
static void test_bytes(void)
{
	static const uint8_t ab[4] = { 1, 2, 3, 250 };
	static const int16_t aw[3] = { -1, 2, 0x1234 };
	static const int32_t v[3] = { 10, -20, 30 };
	static const char *const names[] = { "ser:ints", "ser:floats", "ser:strings",
					     "ser:arrays", "ser:seqs", "ser:enums", "ser:empty" };
	struct region r;
	struct cursor c;
	unsigned int i, ok = 0;

	channel_new(&r, 1);
	for (i = 0; i < 7; i++)
		ok += !ltt_ust_test_enable_event(1, names[i], i + 1);
	tap_is_int(ok, 7, "7 events enabled");
	tap_ok(ltt_tracepoint_enabled(ser, ints), "ltt_tracepoint_enabled() true");
	ltt_tracepoint(ser, ints, -5, 0xbeef, -100000, 0x0123456789abcdefULL, LONG_MIN);
	ltt_tracepoint(ser, floats, 1.5f, -2.25);
	ltt_tracepoint(ser, strings, "hello", "");
	ltt_tracepoint(ser, strings, NULL, "x");
	ltt_tracepoint(ser, arrays, ab, aw, "abcdefgh");
	ltt_tracepoint(ser, arrays, NULL, aw, NULL);
	ltt_tracepoint(ser, seqs, v, 3, "ok");
	ltt_tracepoint(ser, seqs, v, 0, NULL);
	ltt_tracepoint(ser, enums, 4);
	ltt_tracepoint(ser, empty);
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	test_ints_floats(&c);
	test_strings_arrays(&c);
	test_seqs_enums(&c);
	tap_ok(c.p == c.end, "nothing else recorded");
	channel_free(&r, 1);
	tap_ok(!ltt_tracepoint_enabled(ser, ints), "off once the channel is removed");
}

/*
 * Ids of 31 and more, and a stream idle for over 2^27 ns (134 ms):
 * extended headers.
 */
static void test_headers(void)
{
	struct region r;
	struct cursor c;
	struct timespec nap = { 0, 150 * 1000 * 1000 };
	uint64_t before, after, ts = 0;
	uint32_t id = 0;
	bool compact = true;
	int32_t x = 12;

	channel_new(&r, 2);
	ltt_ust_test_enable_event(2, "ser:counted", 40);
	before = ltt_tclock_mono();
	ltt_tracepoint(ser, counted, 12);
	after = ltt_tclock_mono();
	ltt_ust_test_enable_event(2, "ser:counted", 3);
	ltt_tracepoint(ser, counted, 12);	/* right after: compact */
	nanosleep(&nap, NULL);
	ltt_tracepoint(ser, counted, 12);	/* idle stream: extended */
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	tap_ok(next_header(&c, &id, &compact, &ts) && id == 40 && !compact,
	       "id 40: extended header (byte 31, u32 id, u64 ts)");
	tap_ok(ts >= before && ts <= after, "extended: the full timestamp");
	tap_ok(c.p[-13] == 31, "extended: first byte is 31");
	c.p += 4;
	expect_event(&c, 3, 1, &x, 4, "id 3 just after: compact");
	expect_event(&c, 3, 0, &x, 4, "id 3 after 150 ms idle: extended");
	channel_free(&r, 2);
}

#define NR_TIMED 20

/*
 * What a CTF reader makes of the timestamps: a compact header's 27 bits
 * are rebuilt from the previous event's timestamp (timestamp_begin for a
 * packet's first event) assuming at most one wrap, an extended header's
 * 64 bits are read as they are.  Every event's timestamp must then lie
 * within the call that recorded it, and the header be the expected one:
 * compact but after a real 150 ms pause in mid-packet (extended) and for
 * id 31 (extended); compact for the event that opens a packet after a
 * 150 ms pause, and for id 30.
 */
static void test_timestamps_decoded(void)
{
	struct timespec nap = { 0, 150 * 1000 * 1000 };
	uint64_t before[NR_TIMED], after[NR_TIMED];
	bool want_compact[NR_TIMED];
	unsigned int i, seen = 0, in_call = 0, right_header = 0, packets = 0;
	struct ltt_rb_packet pkt;
	struct region r;
	struct ltt_rb rd;

	channel_new(&r, 10);
	ltt_ust_test_enable_event(10, "ser:counted", 30);
	if (ltt_rb_attach(&rd, r.mem, r.len)) {
		tap_ok(false, "attach the reader");
		channel_free(&r, 10);
		return;
	}
	for (i = 0; i < NR_TIMED; i++) {
		want_compact[i] = true;
		if (i == 5) {
			nanosleep(&nap, NULL);	/* mid-packet pause */
			want_compact[i] = false;
		} else if (i == 10) {
			ltt_rb_flush(&rd, false);	/* the next event opens a packet */
			nanosleep(&nap, NULL);
		} else if (i == 15) {
			ltt_ust_test_enable_event(10, "ser:counted", 31);
		} else if (i == 18) {
			ltt_ust_test_enable_event(10, "ser:counted", 30);
		}
		if (i >= 15 && i < 18)
			want_compact[i] = false;
		before[i] = ltt_tclock_mono();
		ltt_tracepoint(ser, counted, (int)i);
		after[i] = ltt_tclock_mono();
	}
	ltt_rb_flush(&rd, false);
	while (ltt_rb_get_next_subbuf(&rd, &pkt) == 0) {
		struct cursor c = { (const uint8_t *)pkt.data + HDR,
				    (const uint8_t *)pkt.data + pkt.content_size };
		uint64_t cur = pkt.timestamp_begin, ts;
		uint32_t id;
		bool compact;
		int32_t x;

		packets++;
		while (next_header(&c, &id, &compact, &ts) && c.end - c.p >= 4) {
			memcpy(&x, c.p, 4);
			c.p += 4;
			if (compact) {
				uint64_t mask = ((uint64_t)1 << 27) - 1;

				ts = (cur & ~mask) | ts;
				if (ts < cur)
					ts += mask + 1;
			}
			cur = ts;
			if (x < 0 || x >= NR_TIMED || (unsigned int)x != seen) {
				tap_diag("event %d where %u was expected", x, seen);
				continue;
			}
			seen++;
			if (ts >= before[x] && ts <= after[x])
				in_call++;
			else
				tap_diag("event %d: decoded %llu outside [%llu, %llu]", x,
					 (unsigned long long)ts, (unsigned long long)before[x],
					 (unsigned long long)after[x]);
			if (compact == want_compact[x] && id == (x >= 15 && x < 18 ? 31u : 30u))
				right_header++;
			else
				tap_diag("event %d: %s header, id %u", x,
					 compact ? "compact" : "extended", id);
		}
		ltt_rb_put_subbuf(&rd, &pkt);
	}
	tap_is_int(seen, NR_TIMED, "timed events: all read back in order");
	tap_is_int(packets, 2, "timed events: in two packets (one flush)");
	tap_is_int(in_call, NR_TIMED, "each decoded timestamp lies within its call");
	tap_is_int(right_header, NR_TIMED,
		   "headers: extended after a 150 ms pause and for id 31, else compact");
	channel_free(&r, 10);
}

/* One event, two sessions: one copy in each, each with its own id. */
static void test_two_channels(void)
{
	struct region r1, r2;
	struct cursor c;
	int32_t x = 99;

	channel_new(&r1, 3);
	channel_new(&r2, 4);
	ltt_ust_test_enable_event(3, "ser:counted", 5);
	ltt_ust_test_enable_event(4, "ser:counted", 9);
	evals = 0;
	ltt_tracepoint(ser, counted, 99);
	tap_is_int(evals, 1, "fields evaluated once for two sessions");
	c.p = events;
	c.end = events + region_collect(&r1, events, sizeof(events));
	expect_event(&c, 5, ANY_HEADER, &x, 4, "first session");
	c.p = events;
	c.end = events + region_collect(&r2, events, sizeof(events));
	expect_event(&c, 9, ANY_HEADER, &x, 4, "second session");
	/* a stopped session records nothing, a started one again */
	ltt_ust_test_set_channel(3, false);
	ltt_ust_test_disable_event(4, "ser:counted");
	evals = 0;
	ltt_tracepoint(ser, counted, 1);
	tap_is_int(evals, 0, "stopped session and disabled event: probe not called");
	ltt_ust_test_set_channel(3, true);
	ltt_tracepoint(ser, counted, 99);
	tap_is_int(evals, 1, "started again: recorded");
	c.p = events;
	c.end = events + region_collect(&r1, events, sizeof(events));
	expect_event(&c, 5, ANY_HEADER, &x, 4, "after restart");
	tap_ok(c.p == c.end, "nothing while stopped");
	c.p = events;
	tap_is_int((long long)region_collect(&r2, events, sizeof(events)), 0,
		   "disabled event: nothing");
	channel_free(&r1, 3);
	channel_free(&r2, 4);
}

/* A text sequence's payload: its u32 length, then the bytes (no NUL). */
static void put_text_seq(struct bytes *b, const char *text)
{
	PUT(b, uint32_t, (uint32_t)strlen(text));
	put(b, text, strlen(text));
}

static void test_tracef(void)
{
	char longer[1000];
	struct bytes b1 = { .n = 0 }, b2 = { .n = 0 };
	struct region r;
	struct cursor c;

	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	channel_new(&r, 5);
	ltt_ust_test_enable_event(5, "lttng_ust_tracef:event", 0);
	ltt_tracef("x=%d %s", 5, "y");
	ltt_tracef("%s", longer);
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	put_text_seq(&b1, "x=5 y");
	expect_event(&c, 0, ANY_HEADER, b1.b, b1.n, "tracef: msg's length, then its bytes");
	longer[LTT_UST_TRACEF_MAX - 1] = '\0';
	put_text_seq(&b2, longer);
	expect_event(&c, 0, ANY_HEADER, b2.b, b2.n, "tracef cut at 511 bytes");
	channel_free(&r, 5);
}

/* ltt_tracelog(): the level's own event, with line, file, func and msg. */
static void test_tracelog(void)
{
	struct bytes b = { .n = 0 };
	struct region r;
	struct cursor c;
	int line;

	channel_new(&r, 6);
	ltt_ust_test_enable_event(6, "lttng_ust_tracelog:TRACE_WARNING", 0);
	ltt_tracelog(LTT_LOGLEVEL_ERR, "not enabled %d", 1);
	line = __LINE__ + 1;
	ltt_tracelog(TRACE_WARNING, "w=%d", 7);
	ltt_tracelog(WARNING, "%s", "");
	tap_ok(ltt_ust_tracelog_events[4].loglevel == 4 &&
	       !strcmp(ltt_ust_tracelog_events[4].name, "lttng_ust_tracelog:TRACE_WARNING") &&
	       !strcmp(ltt_ust_tracelog_events[14].name, "lttng_ust_tracelog:TRACE_DEBUG"),
	       "tracelog: one event per level, named as lttng-ust names them");
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	PUT(&b, int32_t, line);
	put(&b, __FILE__, sizeof(__FILE__));
	put(&b, "test_tracelog", sizeof("test_tracelog"));
	put_text_seq(&b, "w=7");
	expect_event(&c, 0, ANY_HEADER, b.b, b.n, "tracelog: line, file, func, msg");
	b.n = 0;
	PUT(&b, int32_t, line + 1);
	put(&b, __FILE__, sizeof(__FILE__));
	put(&b, "test_tracelog", sizeof("test_tracelog"));
	put_text_seq(&b, "");
	expect_event(&c, 0, ANY_HEADER, b.b, b.n, "tracelog: an empty message");
	tap_ok(c.p == c.end, "tracelog: nothing of the level not enabled");
	channel_free(&r, 6);
}

/* Too large for a sub-buffer: dropped and counted, nothing else happens. */
static void test_too_large(void)
{
	static int32_t big[2000];
	uint64_t failed0, failed1;
	struct region r;

	channel_new(&r, 6);
	ltt_ust_test_enable_event(6, "ser:seqs", 1);
	failed0 = ltt_ust_test_events_lost();
	ltt_tracepoint(ser, seqs, big, 2000, "t");
	ltt_tracepoint(ser, seqs, big, 3, "t");
	failed1 = ltt_ust_test_events_lost();
	tap_is_int((long long)(failed1 - failed0), 1, "an event larger than a sub-buffer is dropped");
	{
		struct ltt_rb rd;

		tap_ok(!ltt_rb_attach(&rd, r.mem, r.len) && ltt_rb_events_lost(&rd) == 1,
		       "and counted as lost by the ring buffer");
		/*
		 * 2^32 - 1 elements: a payload of 16 GiB, more than a header
		 * can be added to in 32 bits.  Refused and counted, nothing
		 * read from the (short) array nor written.
		 */
		ltt_tracepoint(ser, seqs, big, UINT32_MAX, "t");
		tap_ok(ltt_rb_events_lost(&rd) == 2 &&
		       ltt_ust_test_events_lost() - failed1 == 1,
		       "a 16 GiB payload is refused and counted too");
	}
	channel_free(&r, 6);
}

/* The child of fork() starts with nothing: no channel, every event off. */
static void test_fork(void)
{
	struct region r;
	int status = -1;
	pid_t pid;

	channel_new(&r, 8);
	ltt_ust_test_enable_event(8, "ser:counted", 1);
	ltt_tracepoint(ser, counted, 1);
	pid = fork();
	if (pid == 0) {
		int bad = 0;

		evals = 0;
		bad |= ltt_ust_test_nr_channels() != 0;
		bad |= ltt_tracepoint_enabled(ser, counted) ? 2 : 0;
		ltt_tracepoint(ser, counted, 2);
		bad |= evals ? 4 : 0;
		bad |= ltt_ust_test_event_known("ser:counted") ? 0 : 8;
		_exit(bad);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status), "the child of fork() runs and exits");
	tap_is_int(WEXITSTATUS(status), 0, "child: no channel, events off, tracepoints known");
	tap_ok(ltt_tracepoint_enabled(ser, counted), "the parent still records");
	ltt_tracepoint(ser, counted, 3);
	{
		struct cursor c = { events, events + region_collect(&r, events, sizeof(events)) };
		int32_t x;
		bool compact;
		uint64_t ts;
		uint32_t id;
		int n = 0, sum = 0;

		while (next_header(&c, &id, &compact, &ts) && c.end - c.p >= 4) {
			memcpy(&x, c.p, 4);
			c.p += 4;
			n++;
			sum += x;
		}
		tap_ok(n == 2 && sum == 4, "the parent's two events, none of the child's");
	}
	channel_free(&r, 8);
}

typedef void (*fire_fn)(int);

static void *plugin_open(fire_fn *fire, fire_fn *fire_shared, fire_fn *fire_other)
{
	const char *top = getenv("LTT_TOP_BUILDDIR");
	char path[PATH_MAX];
	void *h;

	snprintf(path, sizeof(path), "%s/tests/unit/ust/.libs/test_tracepoint_plugin.so",
		 top ? top : ".");
	h = dlopen(path, RTLD_NOW);
	if (!h) {
		tap_diag("dlopen: %s", dlerror());
		return NULL;
	}
	*(void **)fire = dlsym(h, "plugin_fire");
	*(void **)fire_shared = dlsym(h, "plugin_fire_shared");
	*(void **)fire_other = dlsym(h, "plugin_fire_other");
	return h;
}

/* A module with tracepoints loaded and unloaded while tracing. */
static void test_dlopen(void)
{
	fire_fn fire = NULL, fire_shared = NULL, fire_other = NULL;
	struct region r;
	struct cursor c;
	int32_t v = 5, six = 6;
	void *h;

	channel_new(&r, 9);
	ltt_ust_test_enable_event(9, "shared:both", 2);
	h = plugin_open(&fire, &fire_shared, &fire_other);
	if (!tap_ok(h && fire && fire_shared && fire_other, "dlopen() the plugin")) {
		channel_free(&r, 9);
		return;
	}
	tap_ok(ltt_ust_test_event_known("plugin:hello"), "its events are registered");
	/*
	 * The library's lttng_ust_statedump:* are not described yet (no
	 * daemon was told of them): the plugin's same start must find it
	 * the same all the same, its other end another layout.
	 */
	tap_is_int((long long)ltt_ust_test_nr_events(), 13 + LIBRARY_EVENTS,
		   "three new events: plugin:hello, shared:other's and lttng_ust_statedump:end's "
		   "other layouts; shared:both and the library's lttng_ust_statedump:start are one");
	tap_is_int(ltt_ust_test_enable_event(9, "plugin:hello", 1), 0, "enable it");
	tap_is_int(ltt_ust_test_enable_event(9, "shared:other", 3), 0,
		   "enable shared:other: every layout of the name");
	fire(7);
	fire_shared(5);
	fire_other(6);
	ltt_tracepoint(shared, other, 6);
	dlclose(h);
	ltt_tracepoint(shared, both, 5);
	h = plugin_open(&fire, &fire_shared, &fire_other);
	if (h) {
		fire(7);
		dlclose(h);
	}
	c.p = events;
	c.end = events + region_collect(&r, events, sizeof(events));
	expect_event(&c, 1, ANY_HEADER, "\7\0\0\0plugin", 11, "the plugin's event");
	expect_event(&c, 2, ANY_HEADER, &v, 4, "an event declared in both modules, from the plugin");
	expect_event(&c, 3, ANY_HEADER, "\6\0\0\0plugin", 11,
		     "one name, two layouts: the plugin's in its own (v, s)");
	expect_event(&c, 3, ANY_HEADER, &six, 4, "and the program's in its own (v)");
	expect_event(&c, 2, ANY_HEADER, &v, 4, "the same from the program after dlclose()");
	expect_event(&c, 1, ANY_HEADER, "\7\0\0\0plugin", 11, "loaded again: still enabled");
	channel_free(&r, 9);
}

int main(int argc, char **argv)
{
	(void)argc;
	ust_rings_isolate(argv);
	test_descriptors();
	test_lib_descs();
	test_registry();
	test_disabled();
	test_bytes();
	test_headers();
	test_timestamps_decoded();
	test_two_channels();
	test_tracef();
	test_tracelog();
	test_too_large();
	test_fork();
	test_dlopen();
	rmdir(getenv("LTT_RUNDIR"));
	return tap_done();
}
