// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ref-tp.c - the reference tracepoint description of the app protocol's
 * tests (ref-tp.h).
 */
#include <stdint.h>

#include "ref-tp.h"

const struct ltt_ust_enum_entry ref_signed_entries[REF_NR_SIGNED_ENTRIES] = {
	{ .start = -128, .end = -1, .label = "negative" },
	{ .start = 0, .end = 0, .label = "zero" },
	{ .start = 1, .end = 127, .label = "say \"hi\" \\ caf\xc3\xa9" },
};

static const struct ltt_ust_enum_entry unsigned_entries[] = {
	{ .start = 0, .end = 9, .label = "small" },
	{ .start = (int64_t)UINT64_C(0x8000000000000000), .end = -1, .label = "huge" },
	{ .start = 5, .end = 5, .label = "small" },	/* overlaps, repeats a label */
};

const struct ltt_ust_enum_desc ref_signed_enum = {
	.name = "prov_signed", .nr_entries = REF_NR_SIGNED_ENTRIES, .entries = ref_signed_entries,
};

static const struct ltt_ust_enum_desc unsigned_enum = {
	.name = "prov:unsigned", .nr_entries = sizeof(unsigned_entries) / sizeof(unsigned_entries[0]),
	.entries = unsigned_entries,
};

#define INT(n, sz, sg, b) { .name = (n), .type = LTT_UST_TYPE_INTEGER, .size = (sz), \
			    .is_signed = (sg), .base = (b) }

const struct ltt_ust_field ref_fields[REF_NR_FIELDS] = {
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
	  .enum_desc = &ref_signed_enum },
	{ .name = "_E8", .type = LTT_UST_TYPE_ENUM, .size = 8, .base = 16,
	  .enum_desc = &unsigned_enum },
};

const struct ltt_ust_tracepoint ref_tp = {
	.abi = LTT_UST_TRACEPOINT_ABI,
	.loglevel = 13,
	.name = "my_prov-1.x:event_2",
	.nr_fields = REF_NR_FIELDS,
	.fields = ref_fields,
};
