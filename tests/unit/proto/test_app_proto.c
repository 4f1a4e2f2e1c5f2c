// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_app_proto.c - unit tests of common/proto/app-proto.c: message names,
 * the tracepoint description round trip with every field type, and the
 * decoder against truncated, malformed and oversized descriptions (every
 * other message: test_app_msgs.c).
 *
 * The test links with -Wl,--wrap=malloc, so the decoder's allocations
 * (libcommon is a static convenience library) go through
 * __wrap_malloc(): it counts them, and fails on request.  A refused
 * description must cost no allocation at all, which is the strongest
 * form of "leaks nothing".
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/proto/consumer-proto.h"
#include "tests/unit/ref-tp.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- malloc accounting ---- */

void *__real_malloc(size_t size);
void *__wrap_malloc(size_t size);

static unsigned long nr_mallocs;
static size_t largest_malloc;
static bool fail_mallocs;

void *__wrap_malloc(size_t size)
{
	nr_mallocs++;
	if (size > largest_malloc)
		largest_malloc = size;
	if (fail_mallocs)
		return NULL;
	return __real_malloc(size);
}

#define INT(n, sz, sg, b) { .name = (n), .type = LTT_UST_TYPE_INTEGER, .size = (sz), \
			    .is_signed = (sg), .base = (b) }

/* A writable copy of the reference, to break one thing at a time. */
struct mutable_tp {
	struct ltt_ust_tracepoint tp;
	struct ltt_ust_field fields[LTT_APP_MAX_FIELDS + 2];
	char names[LTT_APP_MAX_FIELDS + 2][16];
	struct ltt_ust_enum_entry entries[4];
	struct ltt_ust_enum_desc desc;
};

static void mutable_init(struct mutable_tp *m)
{
	memset(m, 0, sizeof(*m));
	m->tp = ref_tp;
	memcpy(m->fields, ref_fields, sizeof(ref_fields));
	m->tp.fields = m->fields;
	memcpy(m->entries, ref_signed_entries, sizeof(ref_signed_entries));
	m->desc = ref_signed_enum;
	m->desc.entries = m->entries;
	m->fields[11].enum_desc = &m->desc;	/* "e1" */
}

/* ---- helpers ---- */

static bool same_ust_field(const struct ltt_app_field *a, const struct ltt_ust_field *u)
{
	const struct ltt_ust_enum_desc *d = u->enum_desc;
	uint32_t i;

	if (strcmp(a->name, u->name) || a->type != u->type || a->size != u->size ||
	    a->is_signed != u->is_signed || a->base != u->base || a->encoding != u->encoding ||
	    a->length != u->length || a->flags != u->flags)
		return false;
	if (!d)
		return a->nr_enum_entries == 0 && a->enum_entries == NULL && !strcmp(a->enum_name, "");
	if (strcmp(a->enum_name, d->name) || a->nr_enum_entries != d->nr_entries)
		return false;
	for (i = 0; i < d->nr_entries; i++) {
		if (a->enum_entries[i].start != d->entries[i].start ||
		    a->enum_entries[i].end != d->entries[i].end ||
		    strcmp(a->enum_entries[i].label, d->entries[i].label))
			return false;
	}
	return true;
}

/* Does @r hold a description that decodes to exactly @u? */
static bool decodes_to(struct ltt_rbuf *r, const struct ltt_ust_tracepoint *u,
		       struct ltt_app_tracepoint **ret_tp)
{
	struct ltt_app_tracepoint *tp = NULL;
	uint32_t i;

	if (ltt_app_get_tracepoint(r, &tp) != 0)
		return false;
	*ret_tp = tp;
	if (strcmp(tp->name, u->name) || tp->loglevel != u->loglevel ||
	    tp->nr_fields != u->nr_fields)
		return false;
	for (i = 0; i < u->nr_fields; i++) {
		if (!same_ust_field(&tp->fields[i], &u->fields[i]))
			return false;
	}
	return true;
}

/*
 * Decoding @data must fail with -EPROTO, set the cursor's error, leave
 * ret_tp alone and allocate nothing.
 */
static bool refused(const void *data, size_t len)
{
	struct ltt_app_tracepoint sentinel, *tp = &sentinel;
	unsigned long before = nr_mallocs;
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, data, len);
	ret = ltt_app_get_tracepoint(&r, &tp);
	if (ret != -EPROTO || r.err != -EPROTO || tp != &sentinel || nr_mallocs != before) {
		tap_diag("ret %d, err %d, ret_tp %s, %lu allocations", ret, r.err,
			 tp == &sentinel ? "untouched" : "set", nr_mallocs - before);
		if (tp != &sentinel)
			free(tp);
		return false;
	}
	return true;
}

/* Encode @m and check that decoding refuses it. */
static bool tp_refused(const struct ltt_ust_tracepoint *u)
{
	struct ltt_wbuf w;
	bool ok;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, u);
	ok = !w.err && refused(w.data, w.len);
	ltt_wbuf_fini(&w);
	return ok;
}

/* Encode @u and check that it decodes (and is valid). */
static bool tp_accepted(const struct ltt_ust_tracepoint *u)
{
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	bool ok;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, u);
	ltt_rbuf_init(&r, w.data, w.len);
	ok = !w.err && decodes_to(&r, u, &tp) && ltt_rbuf_end(&r) == 0 &&
	     ltt_app_tracepoint_valid(tp);
	free(tp);
	ltt_wbuf_fini(&w);
	return ok;
}

/* ---- tests ---- */

static void test_names(void)
{
	tap_is_str(ltt_app_msg_name(LTT_APP_MSG_REGISTER), "REGISTER", "app message 1");
	tap_is_str(ltt_app_msg_name(LTT_APP_MSG_CHANNEL_ADD), "CHANNEL_ADD", "app message 6");
	tap_is_str(ltt_app_msg_name(LTT_APP_MSG_EVENT_DISABLE), "EVENT_DISABLE", "app message 11");
	tap_ok(!ltt_app_msg_name(0) && !ltt_app_msg_name(LTT_APP_MSG_NR_) &&
	       !ltt_app_msg_name(UINT32_MAX), "unknown app messages have no name");
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_TRACE), "ADD_TRACE",
		   "consumer message 1");
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_DESTROY_TRACE), "DESTROY_TRACE",
		   "consumer message 8");
	tap_ok(!ltt_consumer_msg_name(0) && !ltt_consumer_msg_name(LTT_CONSUMER_MSG_NR_) &&
	       !ltt_consumer_msg_name(UINT32_MAX), "unknown consumer messages have no name");
}

static void test_round_trip(void)
{
	static const struct ltt_ust_tracepoint empty = {
		.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 0, .name = "a:b",
	};
	struct ltt_app_tracepoint *a = NULL, *b = NULL;
	unsigned long before;
	struct ltt_rbuf r;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	ltt_app_put_tracepoint(&w, &empty);
	tap_is_int(w.err, 0, "two descriptions encode");
	ltt_rbuf_init(&r, w.data, w.len);
	before = nr_mallocs;
	tap_ok(decodes_to(&r, &ref_tp, &a), "every field type survives the round trip");
	tap_is_int((long long)(nr_mallocs - before), 1, "one allocation per description");
	tap_ok(a && ltt_app_tracepoint_valid(a), "the decoded description is valid");
	tap_ok(decodes_to(&r, &empty, &b), "a description without fields follows");
	tap_ok(b && b->fields == NULL, "no fields: NULL array");
	tap_is_int(ltt_rbuf_end(&r), 0, "the cursor ends after the second one");
	if (a && b) {
		tap_ok(ltt_app_tracepoint_same_layout(a, a), "same layout as itself");
		tap_ok(!ltt_app_tracepoint_same_layout(a, b), "not the layout of an empty event");
	} else {
		tap_ok(false, "same layout as itself");
		tap_ok(false, "not the layout of an empty event");
	}
	free(a);
	free(b);
	ltt_wbuf_fini(&w);
}

/* Encode @u, decode it and compare its layout with the reference's. */
static int layout_vs_ref(const struct ltt_ust_tracepoint *u)
{
	struct ltt_app_tracepoint *ref = NULL, *tp = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	int same = -1;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	ltt_app_put_tracepoint(&w, u);
	ltt_rbuf_init(&r, w.data, w.len);
	if (!ltt_app_get_tracepoint(&r, &ref) && !ltt_app_get_tracepoint(&r, &tp))
		same = ltt_app_tracepoint_same_layout(ref, tp);
	free(ref);
	free(tp);
	ltt_wbuf_fini(&w);
	return same;
}

static void test_same_layout(void)
{
	struct mutable_tp m;

	mutable_init(&m);
	m.tp.name = "other:name";
	m.tp.loglevel = 2;
	m.desc.name = "other_enum";
	tap_is_int(layout_vs_ref(&m.tp), 1, "name, log level and enum name are not the layout");
	mutable_init(&m);
	m.entries[2].label = "other";
	tap_is_int(layout_vs_ref(&m.tp), 0, "an enum label is");
	mutable_init(&m);
	m.entries[0].start = -100;
	tap_is_int(layout_vs_ref(&m.tp), 0, "an enum range is");
	mutable_init(&m);
	m.fields[1].base = 10;
	tap_is_int(layout_vs_ref(&m.tp), 0, "a base is");
	mutable_init(&m);
	m.fields[2].is_signed = 0;
	tap_is_int(layout_vs_ref(&m.tp), 0, "signedness is");
	mutable_init(&m);
	m.fields[8].length = 3;
	tap_is_int(layout_vs_ref(&m.tp), 0, "an array length is");
	mutable_init(&m);
	m.fields[0].name = "s8b";
	tap_is_int(layout_vs_ref(&m.tp), 0, "a field name is");
	mutable_init(&m);
	m.tp.nr_fields--;
	tap_is_int(layout_vs_ref(&m.tp), 0, "the field count is");
}

static void test_truncation(void)
{
	unsigned int bad = 0;
	struct ltt_wbuf w;
	size_t len;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	for (len = 0; len < w.len; len++) {
		/* A fresh copy of exactly @len bytes, so valgrind sees any overread. */
		void *copy = tap_dup(w.data, len);

		if (!refused(copy, len)) {
			if (!bad)
				tap_diag("truncation at %zu bytes not refused", len);
			bad++;
		}
		free(copy);
	}
	tap_is_int(bad, 0, "truncated at each of %zu offsets: refused, nothing allocated", w.len);
	ltt_wbuf_fini(&w);
}

/* A program's NULL fields array travels as no fields: no crash, no lie. */
static void test_null_fields(void)
{
	struct ltt_ust_tracepoint u = ref_tp;
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;

	u.fields = NULL;
	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &u);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(ltt_app_get_tracepoint(&r, &tp) == 0 && tp->nr_fields == 0 &&
	       ltt_rbuf_end(&r) == 0, "NULL fields with a count are sent as none");
	free(tp);
	ltt_wbuf_fini(&w);
}

static void test_bad_tracepoint(void)
{
	static const char *const bad_names[] = {
		"", "nocolon", ":ev", "prov:", "a:b:c", "a b:c", "a:b*", "a:\t", "a:b\"",
		"caf\xc3\xa9:x",
	};
	char long_name[LTT_APP_NAME_MAX + 1];
	struct mutable_tp m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad_names); i++) {
		mutable_init(&m);
		m.tp.name = bad_names[i];
		tap_ok(tp_refused(&m.tp), "event name \"%s\" refused", bad_names[i]);
	}
	mutable_init(&m);
	m.tp.name = NULL;
	tap_ok(tp_refused(&m.tp), "a NULL event name is sent as \"\" and refused");
	memset(long_name, 'a', sizeof(long_name));
	long_name[1] = ':';
	long_name[LTT_APP_NAME_MAX - 1] = '\0';
	mutable_init(&m);
	m.tp.name = long_name;
	tap_ok(tp_accepted(&m.tp), "a 255-byte event name is accepted");
	long_name[LTT_APP_NAME_MAX - 1] = 'a';
	long_name[LTT_APP_NAME_MAX] = '\0';
	tap_ok(tp_refused(&m.tp), "a 256-byte event name is refused");

	mutable_init(&m);
	m.tp.loglevel = -1;
	tap_ok(tp_refused(&m.tp), "log level -1 refused");
	m.tp.loglevel = 15;
	tap_ok(tp_refused(&m.tp), "log level 15 refused");
	m.tp.loglevel = 14;
	tap_ok(tp_accepted(&m.tp), "log level 14 accepted");

	test_null_fields();
}

static void test_field_count(void)
{
	struct mutable_tp m;
	unsigned int i;

	mutable_init(&m);
	for (i = 0; i < LTT_APP_MAX_FIELDS + 1; i++) {
		snprintf(m.names[i], sizeof(m.names[i]), "f%u", i);
		m.fields[i] = (struct ltt_ust_field)INT(m.names[i], 4, 0, 10);
	}
	m.tp.nr_fields = LTT_APP_MAX_FIELDS;
	tap_ok(tp_accepted(&m.tp), "%d fields accepted", LTT_APP_MAX_FIELDS);
	m.tp.nr_fields = LTT_APP_MAX_FIELDS + 1;
	tap_ok(tp_refused(&m.tp), "%d fields refused", LTT_APP_MAX_FIELDS + 1);
}

static void test_field_names(void)
{
	static const char *const bad[] = { "", "1a", "a-b", "a b", "a:b", "caf\xc3\xa9", "a\n" };
	char long_name[LTT_APP_NAME_MAX + 1];
	struct mutable_tp m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		mutable_init(&m);
		m.fields[3].name = bad[i];
		tap_ok(tp_refused(&m.tp), "field name \"%s\" refused", bad[i]);
	}
	mutable_init(&m);
	m.fields[3].name = NULL;
	tap_ok(tp_refused(&m.tp), "a NULL field name refused");
	memset(long_name, 'x', sizeof(long_name));
	long_name[LTT_APP_NAME_MAX - 1] = '\0';
	mutable_init(&m);
	m.fields[3].name = long_name;
	tap_ok(tp_accepted(&m.tp), "a 255-byte field name accepted");
	long_name[LTT_APP_NAME_MAX - 1] = 'x';
	long_name[LTT_APP_NAME_MAX] = '\0';
	tap_ok(tp_refused(&m.tp), "a 256-byte field name refused");

	mutable_init(&m);
	m.fields[5].name = "s8";
	tap_ok(tp_refused(&m.tp), "a duplicate field name refused");
	mutable_init(&m);
	m.fields[0].name = "_seq_length";
	tap_ok(tp_refused(&m.tp), "a field named like a later sequence's length refused");
	mutable_init(&m);
	m.fields[12].name = "_seqtext_length";
	tap_ok(tp_refused(&m.tp), "a field named like an earlier sequence's length refused");
	mutable_init(&m);
	m.fields[0].name = "_seq_lengt";
	m.fields[1].name = "seq_length";
	m.fields[2].name = "_seq_length_";
	tap_ok(tp_accepted(&m.tp), "near misses of _NAME_length accepted");
}

/* One field of the reference replaced; expect @ok. */
struct field_case {
	const char *what;
	unsigned int index;		/* into ref_fields */
	struct ltt_ust_field field;
	bool ok;
};

#define F(t, sz, sg, b, enc, len) { .name = "x", .type = (t), .size = (sz), .is_signed = (sg), \
				    .base = (b), .encoding = (enc), .length = (len) }
#define U8 LTT_UST_ENCODING_UTF8

static const struct field_case field_cases[] = {
	{ "integer size 8", 0, F(1, 8, 1, 16, 0, 0), true },
	{ "integer size 0", 0, F(1, 0, 1, 10, 0, 0), false },
	{ "integer size 3", 0, F(1, 3, 1, 10, 0, 0), false },
	{ "integer size 16", 0, F(1, 16, 1, 10, 0, 0), false },
	{ "integer base 8", 0, F(1, 4, 1, 8, 0, 0), false },
	{ "integer base 0", 0, F(1, 4, 1, 0, 0, 0), false },
	{ "integer is_signed 2", 0, F(1, 4, 2, 10, 0, 0), false },
	{ "integer with UTF8", 0, F(1, 1, 0, 10, U8, 0), false },
	{ "integer with a length", 0, F(1, 4, 0, 10, 0, 1), false },
	{ "type 0", 0, F(0, 4, 0, 10, 0, 0), false },
	{ "type 7", 0, F(7, 4, 0, 10, 0, 0), false },
	{ "type 255", 0, F(255, 4, 0, 10, 0, 0), false },
	{ "float size 2", 4, F(2, 2, 0, 0, 0, 0), false },
	{ "float size 16", 4, F(2, 16, 0, 0, 0, 0), false },
	{ "float signed", 4, F(2, 4, 1, 0, 0, 0), false },
	{ "float base 10", 4, F(2, 8, 0, 10, 0, 0), false },
	{ "float with a length", 4, F(2, 8, 0, 0, 0, 2), false },
	{ "string size 0", 6, F(3, 0, 0, 0, 0, 0), false },
	{ "string size 2", 6, F(3, 2, 0, 0, 0, 0), false },
	{ "string with UTF8", 6, F(3, 1, 0, 0, U8, 0), false },
	{ "string base 10", 6, F(3, 1, 0, 10, 0, 0), false },
	{ "array length 1", 8, F(4, 8, 0, 10, 0, 1), true },
	{ "array length 0", 8, F(4, 8, 0, 10, 0, 0), false },
	{ "array length 65537", 8, F(4, 8, 0, 10, 0, 65537), false },
	{ "array UTF8 size 2", 8, F(4, 2, 0, 10, U8, 4), false },
	{ "array encoding 2", 8, F(4, 1, 0, 10, 2, 4), false },
	{ "array element size 3", 8, F(4, 3, 0, 10, 0, 4), false },
	{ "array base 2", 8, F(4, 1, 0, 2, 0, 4), false },
	{ "sequence with a length", 9, F(5, 4, 0, 10, 0, 5), false },
	{ "sequence UTF8 size 4", 9, F(5, 4, 0, 10, U8, 0), false },
	{ "sequence of 8-byte hex", 9, F(5, 8, 1, 16, 0, 0), true },
	{ "sequence base 0", 9, F(5, 4, 0, 0, 0, 0), false },
};

static void test_field_kinds(void)
{
	struct mutable_tp m;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(field_cases); i++) {
		const struct field_case *c = &field_cases[i];

		mutable_init(&m);
		m.fields[c->index] = c->field;
		m.fields[c->index].name = ref_fields[c->index].name;
		if (c->ok)
			tap_ok(tp_accepted(&m.tp), "%s accepted", c->what);
		else
			tap_ok(tp_refused(&m.tp), "%s refused", c->what);
	}
	/* Entries on a non-enum field. */
	mutable_init(&m);
	m.fields[0].enum_desc = &ref_signed_enum;
	tap_ok(tp_refused(&m.tp), "an integer with enum entries refused");
}

static void test_enums(void)
{
	char long_label[LTT_APP_LABEL_MAX + 1];
	struct mutable_tp m;

	mutable_init(&m);
	m.desc.nr_entries = 0;
	tap_ok(tp_refused(&m.tp), "an enum without entries refused");
	mutable_init(&m);
	m.fields[11].enum_desc = NULL;
	tap_ok(tp_refused(&m.tp), "an enum without a description refused");
	mutable_init(&m);
	m.entries[0].start = -1;
	m.entries[0].end = -2;
	tap_ok(tp_refused(&m.tp), "signed start > end refused");
	mutable_init(&m);
	m.entries[0].start = -129;
	tap_ok(tp_refused(&m.tp), "-129 in a signed byte refused");
	mutable_init(&m);
	m.entries[2].end = 128;
	tap_ok(tp_refused(&m.tp), "128 in a signed byte refused");
	mutable_init(&m);
	m.fields[11].is_signed = 0;
	m.entries[0].start = 0;
	m.entries[0].end = 255;
	m.desc.nr_entries = 1;
	tap_ok(tp_accepted(&m.tp), "0 ... 255 in an unsigned byte accepted");
	m.entries[0].end = 256;
	tap_ok(tp_refused(&m.tp), "256 in an unsigned byte refused");
	m.entries[0].start = 200;
	m.entries[0].end = 100;
	tap_ok(tp_refused(&m.tp), "unsigned start > end refused");
	mutable_init(&m);
	m.fields[11].size = 8;
	m.fields[11].is_signed = 0;
	m.entries[0].start = -1;	/* UINT64_MAX */
	m.entries[0].end = 0;
	m.desc.nr_entries = 1;
	tap_ok(tp_refused(&m.tp), "unsigned 64-bit start > end refused");
	m.fields[11].is_signed = 1;
	tap_ok(tp_accepted(&m.tp), "the same signed (-1 ... 0) accepted");

	mutable_init(&m);
	m.entries[1].label = "";
	tap_ok(tp_refused(&m.tp), "an empty label refused");
	m.entries[1].label = NULL;
	tap_ok(tp_refused(&m.tp), "a NULL label refused");
	m.entries[1].label = "tab\there";
	tap_ok(tp_refused(&m.tp), "a label with a control character refused");
	m.entries[1].label = "del\x7f";
	tap_ok(tp_refused(&m.tp), "a label with DEL refused");
	m.entries[1].label = "bad\xc3";
	tap_ok(tp_refused(&m.tp), "a label with truncated UTF-8 refused");
	m.entries[1].label = "overlong\xc0\xaf";
	tap_ok(tp_refused(&m.tp), "a label with overlong UTF-8 refused");
	m.entries[1].label = "surrogate\xed\xa0\x80";
	tap_ok(tp_refused(&m.tp), "a label with a surrogate refused");
	m.entries[1].label = "c1\xc2\x85";
	tap_ok(tp_refused(&m.tp), "a label with a C1 control refused");
	m.entries[1].label = "emoji \xf0\x9f\x98\x80 ok";
	tap_ok(tp_accepted(&m.tp), "a label with a 4-byte character accepted");
	memset(long_label, 'l', sizeof(long_label));
	long_label[LTT_APP_LABEL_MAX - 1] = '\0';
	m.entries[1].label = long_label;
	tap_ok(tp_accepted(&m.tp), "a 255-byte label accepted");
	long_label[LTT_APP_LABEL_MAX - 1] = 'l';
	long_label[LTT_APP_LABEL_MAX] = '\0';
	tap_ok(tp_refused(&m.tp), "a 256-byte label refused");

	mutable_init(&m);
	m.desc.name = "";
	tap_ok(tp_refused(&m.tp), "an enum with an empty enum name refused");
	m.desc.name = "a b";
	tap_ok(tp_refused(&m.tp), "an enum name with a space refused");
}

/* A description whose first field claims @nr enum entries, then stops. */
static void put_claim(struct ltt_wbuf *w, uint32_t nr_fields, uint8_t type, uint32_t nr)
{
	ltt_wbuf_put_str(w, "a:b");
	ltt_wbuf_put_u32(w, 1);
	ltt_wbuf_put_u32(w, nr_fields);
	ltt_wbuf_put_str(w, "f");
	ltt_wbuf_put_u8(w, type);
	ltt_wbuf_put_u8(w, 4);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_u8(w, 10);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_u32(w, nr);
}

static void test_oversize(void)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	put_claim(&w, UINT32_C(1) << 31, LTT_UST_TYPE_INTEGER, 0);
	tap_ok(refused(w.data, w.len), "2^31 fields refused, nothing allocated");
	ltt_wbuf_reset(&w);
	put_claim(&w, 1, LTT_UST_TYPE_ENUM, UINT32_C(1) << 31);
	tap_ok(refused(w.data, w.len), "2^31 enum entries refused, nothing allocated");
	ltt_wbuf_reset(&w);
	put_claim(&w, 1, LTT_UST_TYPE_ENUM, LTT_APP_MAX_ENUM_ENTRIES + 1);
	tap_ok(refused(w.data, w.len), "%d enum entries refused", LTT_APP_MAX_ENUM_ENTRIES + 1);
	ltt_wbuf_reset(&w);
	put_claim(&w, 1, LTT_UST_TYPE_ENUM, LTT_APP_MAX_ENUM_ENTRIES);
	tap_ok(refused(w.data, w.len), "%d enum entries, then nothing: refused",
	       LTT_APP_MAX_ENUM_ENTRIES);
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, UINT32_MAX);	/* the name's length */
	ltt_wbuf_put_bytes(&w, "a:b", 4);
	tap_ok(refused(w.data, w.len), "a name claiming 4 GiB refused");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, 4);
	ltt_wbuf_put_bytes(&w, "a\0b", 4);
	tap_ok(refused(w.data, w.len), "a name with an inner NUL refused");
	ltt_wbuf_fini(&w);
	tap_ok(largest_malloc < (1U << 20), "no allocation above 1 MiB so far (largest %zu)",
	       largest_malloc);
}

static void test_max_enum(void)
{
	static struct ltt_ust_enum_entry entries[LTT_APP_MAX_ENUM_ENTRIES];
	static char labels[LTT_APP_MAX_ENUM_ENTRIES][8];
	struct ltt_ust_enum_desc desc = { .name = "big", .entries = entries };
	struct ltt_ust_field field = { .name = "e", .type = LTT_UST_TYPE_ENUM, .size = 2,
				       .base = 10, .enum_desc = &desc };
	struct ltt_ust_tracepoint tp = { .name = "a:b", .nr_fields = 1, .fields = &field };
	unsigned int i;

	for (i = 0; i < LTT_APP_MAX_ENUM_ENTRIES; i++) {
		snprintf(labels[i], sizeof(labels[i]), "v%u", i);
		entries[i] = (struct ltt_ust_enum_entry){ .start = i, .end = i, .label = labels[i] };
	}
	desc.nr_entries = LTT_APP_MAX_ENUM_ENTRIES;
	tap_ok(tp_accepted(&tp), "%d enum entries accepted", LTT_APP_MAX_ENUM_ENTRIES);
}

static void test_enomem(void)
{
	struct ltt_app_tracepoint sentinel, *tp = &sentinel;
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	ltt_rbuf_init(&r, w.data, w.len);
	fail_mallocs = true;
	ret = ltt_app_get_tracepoint(&r, &tp);
	fail_mallocs = false;
	tap_is_int(ret, -ENOMEM, "allocation failure: -ENOMEM");
	tap_ok(tp == &sentinel, "allocation failure: ret_tp untouched");
	ltt_wbuf_fini(&w);
}

static void test_valid(void)
{
	char a[] = "a", b[] = "b", a_length[] = "_a_length", empty[] = "", name[] = "p:e";
	struct ltt_app_field fields[2] = {
		{ .name = a, .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .base = 10,
		  .enum_name = empty },
		{ .name = b, .type = LTT_UST_TYPE_STRING, .size = 1, .enum_name = empty },
	};
	struct ltt_app_tracepoint tp = { .name = name, .nr_fields = 2, .fields = fields };

	tap_ok(!ltt_app_tracepoint_valid(NULL), "NULL is not valid");
	tap_ok(ltt_app_tracepoint_valid(&tp), "a description built in memory is valid");
	fields[1].name = a_length;
	tap_ok(!ltt_app_tracepoint_valid(&tp), "its fields must not clash");
	fields[1].name = b;
	fields[1].enum_name = NULL;
	tap_ok(!ltt_app_tracepoint_valid(&tp), "a NULL enum name is not valid");
	fields[1].enum_name = empty;
	tp.fields = NULL;
	tap_ok(!ltt_app_tracepoint_valid(&tp), "fields counted but missing are not valid");
}

/* The field flags (LTTng-UST's network fields and counts, minor 5). */
static void test_field_flags(void)
{
	struct ltt_ust_field f[3] = {
		{ .name = "len", .type = LTT_UST_TYPE_INTEGER, .size = 2, .base = 10 },
		{ .name = "seq", .type = LTT_UST_TYPE_SEQUENCE, .size = 4, .base = 16,
		  .flags = LTT_UST_FIELD_BIG_ENDIAN | LTT_UST_FIELD_LENGTH_BEFORE },
		{ .name = "_seq_length", .type = LTT_UST_TYPE_FLOAT, .size = 8,
		  .flags = LTT_UST_FIELD_BIG_ENDIAN },
	};
	struct ltt_ust_tracepoint u = { .abi = LTT_UST_TRACEPOINT_ABI, .name = "p:flags",
					.nr_fields = 3, .fields = f };

	tap_ok(tp_accepted(&u), "big-endian fields and a sequence counted by the integer "
	       "before it round-trip (and its _NAME_length is free)");
	f[2].type = LTT_UST_TYPE_STRING;
	f[2].size = 1;
	tap_ok(tp_refused(&u), "a big-endian string is refused");
	f[2].flags = LTT_UST_FIELD_LENGTH_BEFORE;
	tap_ok(tp_refused(&u), "LENGTH_BEFORE on a string is refused");
	f[2].flags = LTT_UST_FIELD_BLOB;
	tap_ok(tp_refused(&u), "BLOB on a string is refused");
	f[2].flags = LTT_UST_FIELD_NOWRITE;
	tap_ok(tp_accepted(&u), "a nowrite field (a value for filters only) round-trips");
	f[0].flags = LTT_UST_FIELD_NOWRITE;
	tap_ok(tp_refused(&u), "a written sequence counted by a nowrite integer is refused");
	f[1].flags |= LTT_UST_FIELD_NOWRITE;
	tap_ok(tp_accepted(&u), "a nowrite sequence counted by a nowrite integer round-trips");
	f[0].flags = 0;
	f[1].flags &= ~LTT_UST_FIELD_NOWRITE;
	f[2].flags = 0;
	f[0].type = LTT_UST_TYPE_STRING;
	f[0].size = 1;
	f[0].base = 0;
	tap_ok(tp_refused(&u), "LENGTH_BEFORE after a string is refused");
	u.fields = &f[1];
	u.nr_fields = 1;
	tap_ok(tp_refused(&u), "LENGTH_BEFORE on the first field is refused");
}

/* Blobs (LTTng 2.16's blob fields): bytes in hexadecimal, a media type in the enum name's place. */
static void test_blobs(void)
{
	static const struct ltt_ust_enum_desc media = { .name = "text/plain; charset=utf-8" };
	static const struct ltt_ust_enum_desc bad_media = { .name = "text/\nplain" };
	struct ltt_ust_field f[3] = {
		{ .name = "fixed", .type = LTT_UST_TYPE_ARRAY, .size = 1, .base = 16, .length = 4,
		  .flags = LTT_UST_FIELD_BLOB, .enum_desc = &media },
		{ .name = "_var_length", .type = LTT_UST_TYPE_INTEGER, .size = 2, .base = 10 },
		{ .name = "var", .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .base = 16,
		  .flags = LTT_UST_FIELD_BLOB | LTT_UST_FIELD_LENGTH_BEFORE },
	};
	struct ltt_ust_tracepoint u = { .abi = LTT_UST_TRACEPOINT_ABI, .name = "p:blob",
					.nr_fields = 3, .fields = f };
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;

	tap_ok(tp_accepted(&u), "a blob array with a media type and a blob sequence counted by "
	       "the integer before it round-trip");
	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, &u);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_app_get_tracepoint(&r, &tp) && !strcmp(tp->fields[0].enum_name, media.name) &&
	       !strcmp(tp->fields[2].enum_name, "") && (tp->fields[0].flags & LTT_UST_FIELD_BLOB),
	       "the media type travels in the enum name's place (\"\" for none)");
	free(tp);
	ltt_wbuf_fini(&w);
	f[0].enum_desc = &bad_media;
	tap_ok(tp_refused(&u), "a media type with a control character is refused");
	f[0].enum_desc = &media;
	f[0].base = 10;
	tap_ok(tp_refused(&u), "a blob shown in decimal is refused");
	f[0].base = 16;
	f[0].is_signed = 1;
	tap_ok(tp_refused(&u), "a blob of signed bytes is refused");
	f[0].is_signed = 0;
	f[0].size = 2;
	tap_ok(tp_refused(&u), "a blob of 2-byte elements is refused");
	f[0].size = 1;
	f[0].encoding = LTT_UST_ENCODING_UTF8;
	tap_ok(tp_refused(&u), "a blob that is text is refused");
	f[0].encoding = LTT_UST_ENCODING_NONE;
	f[0].type = LTT_UST_TYPE_INTEGER;
	f[0].length = 0;
	tap_ok(tp_refused(&u), "BLOB on an integer is refused");
}

int main(void)
{
	test_names();
	test_round_trip();
	test_same_layout();
	test_truncation();
	test_bad_tracepoint();
	test_field_count();
	test_field_names();
	test_field_kinds();
	test_enums();
	test_oversize();
	test_max_enum();
	test_enomem();
	test_valid();
	test_field_flags();
	test_blobs();
	return tap_done();
}
