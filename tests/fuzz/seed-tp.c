// SPDX-License-Identifier: LGPL-2.1-only
/*
 * seed-tp.c - tracepoint descriptions for the seeds of fuzz_app and
 * fuzz_tsdl: every field type, signed and unsigned enums, the limits
 * (after tests/unit/test_app_proto.c's reference description).
 */
#include "common/app-proto.h"
#include "seed-tp.h"

static const struct ltt_ust_enum_entry signed_entries[] = {
	{ .start = -128, .end = -1, .label = "negative" },
	{ .start = 0, .end = 0, .label = "zero" },
	{ .start = 1, .end = 127, .label = "say \"hi\" \\ caf\xc3\xa9" },
};

static const struct ltt_ust_enum_entry unsigned_entries[] = {
	{ .start = 0, .end = 9, .label = "small" },
	{ .start = (int64_t)UINT64_C(0x8000000000000000), .end = -1, .label = "huge" },
	{ .start = 5, .end = 5, .label = "small" },
};

static const struct ltt_ust_enum_desc signed_enum = {
	.name = "prov_signed", .nr_entries = 3, .entries = signed_entries,
};

static const struct ltt_ust_enum_desc unsigned_enum = {
	.name = "prov:unsigned", .nr_entries = 3, .entries = unsigned_entries,
};

#define INT(n, sz, sg, b) { .name = (n), .type = LTT_UST_TYPE_INTEGER, .size = (sz), \
			    .is_signed = (sg), .base = (b) }

static const struct ltt_ust_field all_fields[] = {
	INT("s8", 1, 1, 10),
	INT("u16_hex", 2, 0, 16),
	INT("s32", 4, 1, 10),
	INT("u64", 8, 0, 10),
	{ .name = "f", .type = LTT_UST_TYPE_FLOAT, .size = 4 },
	{ .name = "d", .type = LTT_UST_TYPE_FLOAT, .size = 8 },
	{ .name = "str", .type = LTT_UST_TYPE_STRING, .size = 1 },
	{ .name = "text", .type = LTT_UST_TYPE_ARRAY, .size = 1, .base = 10,
	  .encoding = LTT_UST_ENCODING_UTF8, .length = 16 },
	{ .name = "arr", .type = LTT_UST_TYPE_ARRAY, .size = 2, .is_signed = 1, .base = 16,
	  .length = 65536 },
	{ .name = "seq", .type = LTT_UST_TYPE_SEQUENCE, .size = 4, .base = 10 },
	{ .name = "seqtext", .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .is_signed = 1,
	  .base = 10, .encoding = LTT_UST_ENCODING_UTF8 },
	{ .name = "e1", .type = LTT_UST_TYPE_ENUM, .size = 1, .is_signed = 1, .base = 10,
	  .enum_desc = &signed_enum },
	{ .name = "_E8", .type = LTT_UST_TYPE_ENUM, .size = 8, .base = 16,
	  .enum_desc = &unsigned_enum },
};

static const struct ltt_ust_field one_string[] = {
	{ .name = "msg", .type = LTT_UST_TYPE_STRING, .size = 1 },
};

static const struct ltt_ust_tracepoint seed_tps[] = {
	{ .abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 13, .name = "my_prov-1.x:event_2",
	  .nr_fields = sizeof(all_fields) / sizeof(all_fields[0]), .fields = all_fields },
	{ .abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 6, .name = "app:hello",
	  .nr_fields = 1, .fields = one_string },
	{ .abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 0, .name = "a:b" },
};

void ltt_fuzz_put_seed_tracepoints(struct ltt_wbuf *w, unsigned int which)
{
	size_t start = ltt_app_put_tracepoints_start(w);
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(seed_tps) / sizeof(seed_tps[0]); i++) {
		if (which == LTT_FUZZ_SEED_TP_ALL || which == i) {
			ltt_app_put_tracepoint(w, &seed_tps[i]);
			n++;
		}
	}
	ltt_app_put_tracepoints_finish(w, start, n);
}
