// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_codec.c - unit tests of common/base/codec.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/codec.h"
#include "tests/unit/tap.h"

static bool bytes_are(const struct ltt_wbuf *w, const void *want, size_t len)
{
	return !w->err && w->len == len && !memcmp(w->data, want, len);
}

static void test_wbuf_layout(void)
{
	static const uint8_t ints[] = {
		0x01,
		0x02, 0x01,
		0x04, 0x03, 0x02, 0x01,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01,
	};
	static const uint8_t strs[] = {
		4, 0, 0, 0, 'a', 'b', 'c', 0,
		1, 0, 0, 0, 0,
		1, 0, 0, 0, 0,
	};
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	tap_ok(!w.data && !w.len && !w.cap && !w.err, "init gives an empty buffer");
	tap_ok(ltt_wbuf_reserve(&w, 0) != NULL && !w.err && !w.len,
	       "reserving 0 bytes of an empty buffer succeeds");
	ltt_wbuf_fini(&w);
	ltt_wbuf_put_bytes(&w, "", 0);
	tap_ok(!w.err && !w.len, "putting 0 bytes into an empty buffer succeeds");
	ltt_wbuf_put_u8(&w, 0x01);
	ltt_wbuf_put_u16(&w, 0x0102);
	ltt_wbuf_put_u32(&w, 0x01020304);
	ltt_wbuf_put_u64(&w, 0x0102030405060708ULL);
	tap_ok(bytes_are(&w, ints, sizeof(ints)), "integers are little-endian, fixed width");

	ltt_wbuf_reset(&w);
	tap_ok(w.len == 0 && w.cap > 0 && !w.err, "reset empties and keeps the memory");
	ltt_wbuf_put_str(&w, "abc");
	ltt_wbuf_put_str(&w, "");
	ltt_wbuf_put_str(&w, NULL);
	tap_ok(bytes_are(&w, strs, sizeof(strs)),
	       "strings are a u32 length with the NUL, the bytes and the NUL; NULL is \"\"");
	ltt_wbuf_put_bytes(&w, NULL, 0);
	tap_ok(w.len == sizeof(strs) && !w.err, "putting 0 bytes changes nothing");
	ltt_wbuf_fini(&w);
	tap_ok(!w.data && !w.len && !w.cap, "fini frees and zeroes");
	ltt_wbuf_fini(&w);
	tap_ok(true, "fini of a zeroed buffer is fine");
}

static void test_wbuf_growth(void)
{
	struct ltt_wbuf w;
	bool same = true;
	uint8_t *p;
	size_t i;

	ltt_wbuf_init(&w);
	for (i = 0; i < 100000; i++)
		ltt_wbuf_put_u8(&w, (uint8_t)i);
	for (i = 0; i < 100000; i++)
		same = same && w.data[i] == (uint8_t)i;
	tap_ok(!w.err && w.len == 100000 && w.cap >= w.len && same,
	       "100000 puts grow the buffer and keep every byte");
	p = ltt_wbuf_reserve(&w, 1000000);
	tap_ok(p == w.data + 100000 && w.len == 1100000 && w.cap >= w.len,
	       "reserve returns room at the end");
	memset(p, 0x5a, 1000000);

	p = ltt_wbuf_reserve(&w, SIZE_MAX - 10);
	tap_ok(!p && w.err == -ENOMEM, "an impossible reserve is -ENOMEM");
	tap_ok(w.len == 1100000, "and does not change the length");
	ltt_wbuf_put_u32(&w, 1);
	ltt_wbuf_put_str(&w, "x");
	tap_ok(w.len == 1100000 && w.err == -ENOMEM, "the error is sticky: puts do nothing");
	tap_ok(!ltt_wbuf_reserve(&w, 1), "and reserve fails");
	ltt_wbuf_reset(&w);
	tap_ok(!w.err && !w.len, "reset clears the error");
	ltt_wbuf_put_u8(&w, 7);
	tap_ok(!w.err && w.len == 1 && w.data[0] == 7, "and the buffer works again");
	ltt_wbuf_fini(&w);
}

/* A fixed buffer: the caller's bytes, filled exactly, never grown nor freed. */
static void test_wbuf_fixed(void)
{
	static const uint8_t want[] = { 7, 2, 0, 0, 0, 'x', 0 };
	uint8_t buf[8] = { 0 };
	struct ltt_wbuf w;

	buf[7] = 0xee;
	ltt_wbuf_init_fixed(&w, buf, 7);
	ltt_wbuf_put_u8(&w, 7);
	ltt_wbuf_put_str(&w, "x");
	tap_ok(bytes_are(&w, want, sizeof(want)) && w.data == buf,
	       "a fixed buffer takes puts that fit, in the caller's bytes");
	ltt_wbuf_put_u8(&w, 1);
	tap_ok(w.err == -ENOSPC && w.len == 7 && buf[7] == 0xee,
	       "a put past its end: -ENOSPC, nothing written, not grown");
	ltt_wbuf_put_bytes(&w, "", 0);
	tap_ok(w.err == -ENOSPC && w.len == 7, "the error is sticky");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, 1);
	tap_ok(!w.err && w.len == 4 && w.data == buf, "reset: the same bytes again");
	ltt_wbuf_fini(&w);	/* ASan: a stack buffer is not freed */
	tap_ok(!w.data && !w.len, "fini forgets it");
}

static void test_rbuf_ints(void)
{
	static const uint8_t msg[] = {
		0xfe,
		0x02, 0x01,
		0x04, 0x03, 0x02, 0x01,
		0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x81,
		0x00, 0x01,
	};
	uint8_t *data = tap_dup(msg, sizeof(msg));
	struct ltt_rbuf r;
	uint64_t u64;
	uint32_t u32;
	uint16_t u16;
	uint8_t u8;
	int b0, b1;

	ltt_rbuf_init(&r, data, sizeof(msg));
	u8 = ltt_rbuf_get_u8(&r);
	u16 = ltt_rbuf_get_u16(&r);
	u32 = ltt_rbuf_get_u32(&r);
	u64 = ltt_rbuf_get_u64(&r);
	b0 = ltt_rbuf_get_bool(&r);
	b1 = ltt_rbuf_get_bool(&r);
	tap_is_int(ltt_rbuf_end(&r), 0, "integers and bools decode completely");
	tap_ok(u8 == 0xfe && u16 == 0x0102 && u32 == 0x01020304 &&
	       u64 == 0x8102030405060708ULL && b0 == 0 && b1 == 1,
	       "with their little-endian values");

	ltt_rbuf_init(&r, data, sizeof(msg) - 1);
	ltt_rbuf_get_u8(&r);
	ltt_rbuf_get_u16(&r);
	ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_u64(&r);
	ltt_rbuf_get_bool(&r);
	tap_is_int(ltt_rbuf_end(&r), 0, "a prefix read whole is complete");
	tap_is_int(ltt_rbuf_get_bool(&r), 0, "reading past the end gives 0");
	tap_is_int(ltt_rbuf_end(&r), -EPROTO, "and -EPROTO at the end");

	ltt_rbuf_init(&r, data, sizeof(msg));
	ltt_rbuf_get_u8(&r);
	tap_is_int(ltt_rbuf_end(&r), -EPROTO, "unread bytes are -EPROTO");

	ltt_rbuf_init(&r, NULL, 0);
	tap_is_int(ltt_rbuf_end(&r), 0, "an empty message read whole is complete");
	tap_is_int(ltt_rbuf_get_u8(&r), 0, "a u8 from nothing is 0");
	tap_is_int(ltt_rbuf_end(&r), -EPROTO, "and -EPROTO");

	ltt_rbuf_init(&r, data, sizeof(msg));
	ltt_rbuf_fail(&r);
	tap_is_int(ltt_rbuf_get_u8(&r), 0, "after a failure gets give 0");
	tap_ok(r.pos == 0, "and do not move");
	tap_is_int(ltt_rbuf_end(&r), -EPROTO, "ltt_rbuf_fail() makes it -EPROTO");
	free(data);
}

static void test_rbuf_bools(void)
{
	static const uint8_t vals[] = { 2, 3, 0x80, 0xff };
	struct ltt_rbuf r;
	uint8_t *data;
	size_t i;

	for (i = 0; i < sizeof(vals); i++) {
		data = tap_dup(&vals[i], 1);
		ltt_rbuf_init(&r, data, 1);
		tap_is_int(ltt_rbuf_get_bool(&r), 0, "bool %u decodes as 0", vals[i]);
		tap_is_int(ltt_rbuf_end(&r), -EPROTO, "and is -EPROTO");
		free(data);
	}
}

/*
 * Decode one string of at most @size bytes from @msg of @len bytes; copy
 * what get_str returned into @out.
 */
static int decode_str(const void *msg, size_t len, size_t size, char *out, size_t outsize)
{
	uint8_t *data = tap_dup(msg, len);
	struct ltt_rbuf r;
	const char *s;
	int err;

	ltt_rbuf_init(&r, data, len);
	s = ltt_rbuf_get_str(&r, size);
	err = ltt_rbuf_end(&r);
	snprintf(out, outsize, "%s", s);
	free(data);
	return err;
}

static void test_rbuf_strings(void)
{
	static const struct {
		const char *desc;
		uint8_t msg[12];
		size_t len;
		size_t size;
		int want;
		const char *text;	/* what get_str returns */
	} cases[] = {
		{ "a string", { 4, 0, 0, 0, 'a', 'b', 'c', 0 }, 8, 16, 0, "abc" },
		{ "the empty string", { 1, 0, 0, 0, 0 }, 5, 16, 0, "" },
		{ "a string of exactly the limit", { 4, 0, 0, 0, 'a', 'b', 'c', 0 }, 8, 4, 0,
		  "abc" },
		{ "a string one byte over the limit", { 4, 0, 0, 0, 'a', 'b', 'c', 0 }, 8, 3,
		  -EPROTO, "" },
		{ "a string without its NUL", { 3, 0, 0, 0, 'a', 'b', 'c' }, 7, 16, -EPROTO, "" },
		{ "a string with a NUL inside", { 4, 0, 0, 0, 'a', 0, 'c', 0 }, 8, 16, -EPROTO,
		  "" },
		{ "a string of NULs", { 2, 0, 0, 0, 0, 0 }, 6, 16, -EPROTO, "" },
		{ "a string of length 0", { 0, 0, 0, 0 }, 4, 16, -EPROTO, "" },
		{ "a length longer than the message", { 9, 0, 0, 0, 'a', 'b', 'c', 0 }, 8, 16,
		  -EPROTO, "" },
		{ "a length of 2^32-1", { 0xff, 0xff, 0xff, 0xff, 'a', 0 }, 6, SIZE_MAX, -EPROTO,
		  "" },
		{ "a truncated length", { 4, 0, 0 }, 3, 16, -EPROTO, "" },
		{ "a string and a trailing byte", { 2, 0, 0, 0, 'a', 0, 'x' }, 7, 16, -EPROTO,
		  "a" },
	};
	char s[16];
	size_t i;
	int err;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err = decode_str(cases[i].msg, cases[i].len, cases[i].size, s, sizeof(s));
		tap_is_int(err, cases[i].want, "%s is %s", cases[i].desc,
			   cases[i].want ? "-EPROTO" : "accepted");
		tap_is_str(s, cases[i].text, "and decodes as \"%s\"", cases[i].text);
	}
}


static void test_rbuf_borrow_and_copy(void)
{
	static const uint8_t msg[] = { 6, 0, 0, 0, 'h', 'e', 'l', 'l', 'o', 0, 2, 0, 0, 0, 'x', 0 };
	char dst[8], small[4];
	struct ltt_rbuf r;
	const char *s;

	ltt_rbuf_init(&r, msg, sizeof(msg));
	s = ltt_rbuf_get_str(&r, 64);
	tap_ok(s == (const char *)msg + 4, "a string is borrowed from the message");
	ltt_rbuf_get_str_copy(&r, dst, sizeof(dst));
	tap_ok(!ltt_rbuf_end(&r) && !strcmp(dst, "x"), "get_str_copy copies a string");

	ltt_rbuf_init(&r, msg, sizeof(msg));
	memset(small, 'z', sizeof(small));
	ltt_rbuf_get_str_copy(&r, small, 0);
	tap_ok(ltt_rbuf_end(&r) == -EPROTO && small[0] == 'z',
	       "a copy into 0 bytes is -EPROTO and writes nothing");

	ltt_rbuf_init(&r, msg, sizeof(msg));
	ltt_rbuf_get_str_copy(&r, small, sizeof(small));
	tap_ok(ltt_rbuf_end(&r) == -EPROTO && !strcmp(small, ""),
	       "a string too long for the copy is -EPROTO and copies \"\"");
}

/* Every prefix of a valid sequence fails; the whole decodes to the values. */
static void test_truncation(void)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	bool all = true;
	size_t k, bad_at = 0;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, 1);
	ltt_wbuf_put_str(&w, "name");
	ltt_wbuf_put_u16(&w, 2);
	ltt_wbuf_put_u32(&w, 3);
	ltt_wbuf_put_str(&w, "");
	ltt_wbuf_put_u64(&w, UINT64_MAX);
	ltt_wbuf_put_u8(&w, 1);
	for (k = 0; k <= w.len; k++) {
		uint8_t *data = tap_dup(w.data, k);
		char name[8];
		bool ok;

		ltt_rbuf_init(&r, data, k);
		ltt_rbuf_get_u8(&r);
		ltt_rbuf_get_str_copy(&r, name, sizeof(name));
		ltt_rbuf_get_u16(&r);
		ltt_rbuf_get_u32(&r);
		ltt_rbuf_get_str(&r, 1);
		ltt_rbuf_get_u64(&r);
		ltt_rbuf_get_bool(&r);
		ok = k == w.len ? ltt_rbuf_end(&r) == 0 : ltt_rbuf_end(&r) == -EPROTO;
		if (!ok && all) {
			all = false;
			bad_at = k;
		}
		free(data);
	}
	tap_ok(all, "each of the %zu prefixes of a sequence is -EPROTO, the whole is 0", w.len);
	if (!all)
		tap_diag("first wrong at %zu bytes", bad_at);
	ltt_wbuf_fini(&w);
}

/* Big-endian integers and fixed, NUL-padded strings (relay and live protocols). */
static void test_big_endian(void)
{
	static const uint8_t want[] = {
		0x12, 0x34, 0x12, 0x34, 0x56, 0x78,
		0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
		'a', 'b', 0, 0, 0,
	};
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	char s[5], full[4];

	ltt_wbuf_init(&w);
	ltt_wbuf_put_be16(&w, 0x1234);
	ltt_wbuf_put_be32(&w, 0x12345678);
	ltt_wbuf_put_be64(&w, 0x0102030405060708ull);
	ltt_wbuf_put_fixed_str(&w, "ab", 5);
	tap_ok(!w.err && w.len == sizeof(want) && !memcmp(w.data, want, sizeof(want)),
	       "big-endian integers and a padded string have the wire layout");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(ltt_rbuf_get_be16(&r) == 0x1234 && ltt_rbuf_get_be32(&r) == 0x12345678 &&
	       ltt_rbuf_get_be64(&r) == 0x0102030405060708ull, "big-endian integers read back");
	ltt_rbuf_get_fixed_str(&r, s, sizeof(s));
	tap_ok(!strcmp(s, "ab") && ltt_rbuf_end(&r) == 0, "a padded string reads back, all consumed");

	ltt_wbuf_reset(&w);
	ltt_wbuf_put_fixed_str(&w, "abcd", 4);
	tap_ok(w.err == -EINVAL && w.len == 0, "a string without room for its NUL is refused");

	ltt_rbuf_init(&r, "abcd", 4);
	ltt_rbuf_get_fixed_str(&r, full, sizeof(full));
	tap_ok(ltt_rbuf_end(&r) == -EPROTO && full[0] == '\0',
	       "an array without a NUL is malformed and gives \"\"");
	ltt_rbuf_init(&r, "ab", 2);
	tap_ok(ltt_rbuf_get_bytes(&r, 3) == NULL && ltt_rbuf_end(&r) == -EPROTO,
	       "bytes past the end are refused");
	ltt_rbuf_init(&r, "\x01\x02", 2);
	tap_ok(ltt_rbuf_get_be32(&r) == 0 && ltt_rbuf_end(&r) == -EPROTO,
	       "a truncated big-endian integer is malformed");
	ltt_wbuf_fini(&w);
}

/* ---- field tables: what the rows promise beyond the cursors' checks ---- */

struct sample_msg {
	uint8_t small;		/* a u16 on the wire */
	bool on;
	uint32_t when_on;	/* sent as 0 unless on */
	char name[8];
	const char *ref;
	bool has_extra;
	uint64_t extra;
};

#define LTT_MSG struct sample_msg
LTT_CODEC(sample_codec, LTT_CODEC_LE,
	  LTT_ROW(small, UINT, 2, 0), LTT_ROW_BOOL(on), LTT_ROW(when_on, UINT, 4, LTT_ROW_IF_PREV),
	  LTT_ROW_STRLEN(name, LTT_ROW_EMPTY_ZERO), LTT_ROW_STRREF(ref, 4),
	  LTT_ROW_STRBODY(name), LTT_ROW_TAIL(has_extra), LTT_ROW_U64(extra));
#undef LTT_MSG

static int table_decode(const uint8_t *p, size_t len, struct sample_msg *ret)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, p, len);
	return ltt_codec_get_msg(&r, &sample_codec, ret);
}

static void test_field_table(void)
{
	struct sample_msg m = { .small = 200, .on = false, .when_on = 7, .name = "ab",
				.ref = "xyz", .has_extra = true, .extra = 9 };
	static const uint8_t want[] = {
		200, 0,  0,  0, 0, 0, 0,  3, 0, 0, 0,  4, 0, 0, 0, 'x', 'y', 'z', 0,
		'a', 'b', 0,  9, 0, 0, 0, 0, 0, 0, 0,
	};
	struct sample_msg got;
	struct ltt_wbuf w;
	uint8_t *copy;

	ltt_wbuf_init(&w);
	ltt_codec_put(&w, &sample_codec, &m);
	tap_ok(!w.err && w.len == sizeof(want) && !memcmp(w.data, want, sizeof(want)),
	       "table: rows in order, a guarded field sent as 0, the string after its length");
	copy = tap_dup(w.data, w.len);
	tap_ok(!table_decode(copy, w.len, &got) && got.small == 200 && !got.on &&
	       !got.when_on && !strcmp(got.name, "ab") && !strcmp(got.ref, "xyz") &&
	       got.has_extra && got.extra == 9, "table: decodes back");
	tap_ok(table_decode(copy, w.len - 8, &got) == 0 && !got.has_extra && !got.extra,
	       "table: a message may end at its tail, which decodes as absent");
	tap_ok(table_decode(copy, w.len - 1, &got) == -EPROTO,
	       "table: a message ending inside its tail is refused");
	free(copy);
	/*
	 * A message of no payload has no data (ltt_msg_recv()): refused, the
	 * NULL never offset (a program's REGISTER of length 0 took the session
	 * daemon down under UBSan: test_sessiond_app_mutated.sh)
	 */
	tap_ok(table_decode(NULL, 0, &got) == -EPROTO, "table: an empty message of NULL data is refused");

	copy = tap_dup(want, sizeof(want));
	copy[1] = 1;	/* 456 does not fit the u8 member */
	tap_ok(table_decode(copy, sizeof(want), &got) == -EPROTO,
	       "table: an integer wider than its member is refused");
	copy[1] = 0;
	copy[2] = 2;
	tap_ok(table_decode(copy, sizeof(want), &got) == -EPROTO, "table: a bool of 2 is refused");
	copy[2] = 0;
	copy[11] = 5;	/* "xyz\0" + one: longer than the row's 4 */
	tap_ok(table_decode(copy, sizeof(want), &got) == -EPROTO,
	       "table: a borrowed string longer than its row's maximum is refused");
	free(copy);

	ltt_wbuf_reset(&w);
	m.name[0] = '\0';
	ltt_codec_put(&w, &sample_codec, &m);
	copy = tap_dup(w.data, w.len);
	tap_ok(!w.err && w.len == sizeof(want) - 3 && !copy[7] &&
	       !table_decode(copy, w.len, &got) && !got.name[0],
	       "table: an empty string sent as length 0 where the row says so");
	free(copy);

	ltt_wbuf_reset(&w);
	memset(m.name, 'n', sizeof(m.name));
	ltt_codec_put(&w, &sample_codec, &m);
	tap_ok(w.err == -EINVAL && w.len == 0,
	       "table: a string without room for its NUL: nothing written");
	ltt_wbuf_fini(&w);
}

/* Big-endian string rows, an absent string sent as length 0, arrays. */
struct be_msg {
	char name[8];
	const char *ref;	/* "" sent as length 0 */
};

#define LTT_MSG struct be_msg
LTT_CODEC(be_codec, LTT_CODEC_BE,
	  LTT_ROW_STR(name), LTT_ROW_MAX(ref, STRREF, 0, LTT_ROW_EMPTY_ZERO, 8));
#undef LTT_MSG

struct elem {
	uint16_t v;
};

#define LTT_MSG struct elem
LTT_CODEC(elem_codec, LTT_CODEC_LE, LTT_ROW_U16(v));
#undef LTT_MSG

static void test_table_strings_arrays(void)
{
	const struct be_msg m = { .name = "ab", .ref = "cd" }, none = { .name = "ab", .ref = "" };
	static const uint8_t want[] = { 0, 0, 0, 3, 'a', 'b', 0, 0, 0, 0, 3, 'c', 'd', 0 };
	static const uint8_t want_none[] = { 0, 0, 0, 3, 'a', 'b', 0, 0, 0, 0, 0 };
	const struct elem elems[3] = { { 1 }, { 0x203 }, { 0xffff } };
	static const uint8_t want_elems[] = { 1, 0, 3, 2, 0xff, 0xff };
	struct elem got_elems[3];
	struct be_msg got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint8_t *copy;

	ltt_wbuf_init(&w);
	ltt_codec_put(&w, &be_codec, &m);
	tap_ok(bytes_are(&w, want, sizeof(want)), "big-endian table: strings' lengths big-endian");
	copy = tap_dup(want, sizeof(want));
	ltt_rbuf_init(&r, copy, sizeof(want));
	tap_ok(!ltt_codec_get_msg(&r, &be_codec, &got) && !strcmp(got.name, "ab") &&
	       !strcmp(got.ref, "cd"), "big-endian table: strings decode back");
	free(copy);
	ltt_wbuf_reset(&w);
	ltt_codec_put(&w, &be_codec, &none);
	tap_ok(bytes_are(&w, want_none, sizeof(want_none)),
	       "a borrowed \"\" sent as length 0 and no byte where the row says so");
	copy = tap_dup(want_none, sizeof(want_none));
	ltt_rbuf_init(&r, copy, sizeof(want_none));
	tap_ok(!ltt_codec_get_msg(&r, &be_codec, &got) && !strcmp(got.ref, ""),
	       "... and decodes as \"\"");
	free(copy);

	ltt_wbuf_reset(&w);
	ltt_codec_put_array(&w, &elem_codec, elems, sizeof(elems[0]), 3);
	tap_ok(bytes_are(&w, want_elems, sizeof(want_elems)), "array: each element by its table");
	copy = tap_dup(want_elems, sizeof(want_elems));
	ltt_rbuf_init(&r, copy, sizeof(want_elems));
	tap_ok(!ltt_codec_get_array(&r, &elem_codec, got_elems, sizeof(got_elems[0]), 3) &&
	       !ltt_rbuf_end(&r) && got_elems[1].v == 0x203 && got_elems[2].v == 0xffff,
	       "array: decodes back");
	ltt_rbuf_init(&r, copy, sizeof(want_elems) - 1);
	tap_is_int(ltt_codec_get_array(&r, &elem_codec, got_elems, sizeof(got_elems[0]), 3),
		   -EPROTO, "array: an element cut short is refused");
	free(copy);
	ltt_wbuf_fini(&w);
}

/* A message that grew: a u16 from minor 3, a string and a u32 from minor 5, then one of any minor. */
struct grown_msg {
	uint32_t id;
	uint16_t since3;
	char since5[8];
	uint32_t since5b;
	uint8_t last;
};

#define LTT_MSG struct grown_msg
LTT_CODEC(grown_codec, LTT_CODEC_LE,
	  LTT_ROW_U32(id), LTT_ROW_SINCE(3), LTT_ROW_U16(since3),
	  LTT_ROW_SINCE(5), LTT_ROW_STR(since5), LTT_ROW_U32(since5b),
	  LTT_ROW_SINCE(0), LTT_ROW_U8(last));
#undef LTT_MSG

/*
 * Decode @len bytes of @want (a heap copy) as a whole message of @minor
 * laid out by @c into @got (@size bytes, first filled with garbage).
 */
static int minor_decode(const struct ltt_codec *c, const uint8_t *want, size_t len,
			uint32_t minor, void *got, size_t size)
{
	uint8_t *copy = tap_dup(want, len);
	struct ltt_rbuf r;
	int err;

	memset(got, 0xa5, size);
	ltt_rbuf_init(&r, copy, len);
	err = ltt_codec_get_msg_v(&r, c, got, minor);
	free(copy);
	return err;
}

static int grown_decode(const uint8_t *want, size_t len, uint32_t minor, struct grown_msg *got)
{
	return minor_decode(&grown_codec, want, len, minor, got, sizeof(*got));
}

static void test_since_minor(void)
{
	static const struct grown_msg m = {
		.id = 1, .since3 = 0x0302, .since5 = "ab", .since5b = 5, .last = 9,
	};
	static const uint8_t m2[] = { 1, 0, 0, 0, 9 };
	static const uint8_t m3[] = { 1, 0, 0, 0, 2, 3, 9 };
	static const uint8_t m5[] = { 1, 0, 0, 0, 2, 3, 3, 0, 0, 0, 'a', 'b', 0, 5, 0, 0, 0, 9 };
	struct grown_msg got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_codec_put_v(&w, &grown_codec, &m, 2);
	tap_ok(bytes_are(&w, m2, sizeof(m2)), "since: minor 2 is sent neither range");
	ltt_wbuf_reset(&w);
	ltt_codec_put_v(&w, &grown_codec, &m, 4);
	tap_ok(bytes_are(&w, m3, sizeof(m3)), "since: minor 4 is sent minor 3's row, not 5's");
	ltt_wbuf_reset(&w);
	ltt_codec_put_v(&w, &grown_codec, &m, 5);
	tap_ok(bytes_are(&w, m5, sizeof(m5)), "since: minor 5 is sent every row");
	ltt_wbuf_reset(&w);
	ltt_codec_put(&w, &grown_codec, &m);
	tap_ok(bytes_are(&w, m5, sizeof(m5)), "since: the put without a minor sends every row");
	ltt_wbuf_fini(&w);

	tap_ok(!grown_decode(m2, sizeof(m2), 2, &got) && got.id == 1 && !got.since3 &&
	       !got.since5[0] && !got.since5b && got.last == 9,
	       "since: minor 2's form decodes, the later rows as zero");
	tap_ok(!grown_decode(m3, sizeof(m3), 4, &got) && got.since3 == 0x0302 &&
	       !got.since5[0] && !got.since5b && got.last == 9,
	       "since: minor 4's form decodes, minor 5's rows as zero");
	tap_ok(!grown_decode(m5, sizeof(m5), 17, &got) && got.since3 == 0x0302 &&
	       !strcmp(got.since5, "ab") && got.since5b == 5 && got.last == 9,
	       "since: a later minor reads every row");
	tap_ok(grown_decode(m3, sizeof(m3), 2, &got) == -EPROTO,
	       "since: a row the peer's minor lacks is bytes left over, refused");
	tap_ok(grown_decode(m2, sizeof(m2), 3, &got) == -EPROTO,
	       "since: a row the peer's minor has is not optional");
	tap_ok(grown_decode(m5, sizeof(m5) - 1, 5, &got) == -EPROTO,
	       "since: a short message of the minor is refused");

	ltt_rbuf_init(&r, m5, sizeof(m5));
	tap_ok(!ltt_codec_get(&r, &grown_codec, &got) && r.pos == sizeof(m5) &&
	       got.since5b == 5, "since: the get without a minor reads every row");
}

/*
 * Rows an earlier row decides: a body after a status of 0 alone, an age
 * after a flags byte with bit 2 set, of which a row from minor 3 on.
 */
struct gated_msg {
	int32_t status;
	uint16_t body;
	uint8_t flags;
	uint32_t age;
	uint16_t newer;
	uint8_t last;
};

#define LTT_MSG struct gated_msg
LTT_CODEC(gated_codec, LTT_CODEC_LE,
	  LTT_ROW_U32(status), LTT_ROW_WHEN_EQ(status, 0), LTT_ROW_U16(body), LTT_ROW_WHEN_END(),
	  LTT_ROW_MAX(flags, UINT, 1, 0, 7), LTT_ROW_WHEN_BIT(flags, 2), LTT_ROW_U32(age),
	  LTT_ROW_SINCE(3), LTT_ROW_U16(newer), LTT_ROW_WHEN_END(), LTT_ROW_SINCE(0),
	  LTT_ROW_U8(last));
#undef LTT_MSG

static int gated_decode(const uint8_t *want, size_t len, uint32_t minor, struct gated_msg *got)
{
	return minor_decode(&gated_codec, want, len, minor, got, sizeof(*got));
}

/* @m put for @minor is the @len bytes at @want, which decode back to @m. */
static bool gated_round_trip(const struct gated_msg *m, uint32_t minor, const uint8_t *want,
			     size_t len)
{
	struct gated_msg got;
	struct ltt_wbuf w;
	bool same;

	ltt_wbuf_init(&w);
	ltt_codec_put_v(&w, &gated_codec, m, minor);
	same = bytes_are(&w, want, len) && !gated_decode(want, len, minor, &got) &&
	       got.status == m->status && got.flags == m->flags && got.last == m->last &&
	       got.body == (m->status ? 0 : m->body) &&
	       got.age == (m->flags & 4 ? m->age : 0) &&
	       got.newer == (m->flags & 4 && minor >= 3 ? m->newer : 0);
	ltt_wbuf_fini(&w);
	return same;
}

static void test_when_gates(void)
{
	static const struct gated_msg ok = {
		.status = 0, .body = 0x0201, .flags = 6, .age = 9, .newer = 0x0403, .last = 7,
	};
	static const struct gated_msg failed = {
		.status = -5, .body = 0x0201, .flags = 3, .age = 9, .newer = 0x0403, .last = 7,
	};
	static const uint8_t ok5[] = { 0, 0, 0, 0, 1, 2, 6, 9, 0, 0, 0, 3, 4, 7 };
	static const uint8_t ok2[] = { 0, 0, 0, 0, 1, 2, 6, 9, 0, 0, 0, 7 };
	static const uint8_t failed5[] = { 0xfb, 0xff, 0xff, 0xff, 3, 7 };
	uint8_t bad[sizeof(ok5)];
	struct gated_msg got;

	tap_ok(gated_round_trip(&ok, 5, ok5, sizeof(ok5)),
	       "when: status 0 and bit 2 set send the body and the age, both decoded");
	tap_ok(gated_round_trip(&ok, 2, ok2, sizeof(ok2)),
	       "when: a row in a WHEN range and a SINCE range needs both on");
	tap_ok(gated_round_trip(&failed, 5, failed5, sizeof(failed5)),
	       "when: a failure status and bit 2 clear send neither, decoded as zero");

	memcpy(bad, ok5, sizeof(ok5));
	bad[0] = 0xfb;
	tap_is_int(gated_decode(bad, sizeof(bad), 5, &got), -EPROTO,
		   "when: a body after a failure status is bytes left over, refused");
	memcpy(bad, failed5, sizeof(failed5));
	memset(bad, 0, 4);
	tap_is_int(gated_decode(bad, sizeof(failed5), 5, &got), -EPROTO,
		   "when: status 0 without its body is refused");
	memcpy(bad, ok5, sizeof(ok5));
	bad[6] = 3;
	tap_is_int(gated_decode(bad, sizeof(ok5), 5, &got), -EPROTO,
		   "when: bit 2 clear before the age's bytes: left over, refused");
	bad[6] = 4;
	tap_ok(!gated_decode(bad, sizeof(ok5), 5, &got) && got.age == 9 && got.newer == 0x0403,
	       "when: bit 2 alone opens the range, the other bits not needed");
	tap_is_int(gated_decode(ok5, sizeof(ok5) - 1, 5, &got), -EPROTO,
		   "when: a message short of its open range's rows is refused");
}

int main(void)
{
	test_since_minor();
	test_when_gates();
	test_field_table();
	test_table_strings_arrays();
	test_big_endian();
	test_wbuf_layout();
	test_wbuf_growth();
	test_wbuf_fixed();
	test_rbuf_ints();
	test_rbuf_bools();
	test_rbuf_strings();
	test_rbuf_borrow_and_copy();
	test_truncation();
	return tap_done();
}
