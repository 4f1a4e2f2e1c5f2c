// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-pages.c - see ftrace-pages.h.  The entry encodings are the
 * kernel's (kernel/trace/ring_buffer.c), written here independently.
 */
#include <stdio.h>
#include <string.h>

#include "common/filter/filter-compile.h"
#include "filter-vm/filter-vm.h"
#include "ftrace-pages.h"

#define HDR 16
#define MASK27 ((1u << 27) - 1)

static const char fp_format[] =
	"name: tev\n"
	"ID: 100\n"
	"format:\n"
	FTRACE_TEST_COMMON_FIELDS
	"\n"
	"\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc u16[] arr;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:s64 v;\toffset:40;\tsize:8;\tsigned:1;\n"
	"\n"
	"print fmt: \"a=%u\", REC->a\n";

#define FIXED 48

bool fp_layout(struct ltt_ftrace_event *ret)
{
	return !ltt_ftrace_format_parse("test", fp_format, sizeof(fp_format) - 1, ret, NULL);
}

void fp_page_init(struct page *pg, uint64_t ts)
{
	memset(pg->b, 0, sizeof(pg->b));
	memcpy(pg->b, &ts, 8);
	pg->len = 0;
}

static void put(struct page *pg, const void *p, size_t n)
{
	if (HDR + pg->len + n > PAGE)
		return;
	memcpy(pg->b + HDR + pg->len, p, n);
	pg->len += n;
}

void fp_raw_u32(struct page *pg, uint32_t v)
{
	put(pg, &v, 4);
}

/* One data entry around @rec (@len bytes, padded to 4). */
static void entry(struct page *pg, uint32_t delta, const uint8_t *rec, size_t len)
{
	static const uint8_t zero[4];
	size_t padded = (len + 3) & ~(size_t)3;

	if (padded <= 112) {
		fp_raw_u32(pg, (uint32_t)(padded / 4) | (delta & MASK27) << 5);
	} else {
		fp_raw_u32(pg, (delta & MASK27) << 5);
		fp_raw_u32(pg, (uint32_t)padded + 4);
	}
	put(pg, rec, len);
	put(pg, zero, padded - len);
}

static void common(uint8_t *rec, uint16_t id, int32_t pid)
{
	memset(rec, 0, FIXED);
	memcpy(rec, &id, 2);
	memcpy(rec + 4, &pid, 4);
}

static uint32_t loc(size_t off, size_t len)
{
	return (uint32_t)off | (uint32_t)len << 16;
}

void fp_record(struct page *pg, uint32_t delta, int32_t pid, int32_t a, const char *s,
	       unsigned int nr_arr)
{
	static uint8_t rec[PAGE];
	size_t slen = strlen(s) + 1, off = FIXED;
	int64_t v = -(int64_t)pid * 1000000000;
	uint32_t l;
	unsigned int i;

	common(rec, FP_ID, pid);
	memcpy(rec + 8, &a, 4);
	snprintf((char *)rec + 16, 16, "comm%d", pid);
	memcpy(rec + 40, &v, 8);
	l = loc(off, slen);
	memcpy(rec + 12, &l, 4);
	memcpy(rec + off, s, slen);
	off += slen;
	l = loc(off, nr_arr * 2);
	memcpy(rec + 32, &l, 4);
	for (i = 0; i < nr_arr; i++) {
		uint16_t e = (uint16_t)(1000 + i);

		memcpy(rec + off + i * 2, &e, 2);
	}
	entry(pg, delta, rec, off + nr_arr * 2);
}

void fp_record_bad_loc(struct page *pg, uint32_t delta)
{
	uint8_t rec[FIXED];
	uint32_t l = loc(1000, 4);

	common(rec, FP_ID, 1);
	memcpy(rec + 12, &l, 4);
	entry(pg, delta, rec, FIXED);
}

void fp_record_unmapped(struct page *pg, uint32_t delta)
{
	uint8_t rec[FIXED];

	common(rec, 99, 1);
	entry(pg, delta, rec, FIXED);
}

void fp_record_raw(struct page *pg, uint32_t delta, int32_t pid, const void *data, size_t len)
{
	static uint8_t rec[PAGE];

	if (len > PAGE - 8)
		return;
	common(rec, FP_RAW_ID, pid);
	memcpy(rec + 8, data, len);
	entry(pg, delta, rec, 8 + len);
}

void fp_record_big(struct page *pg, uint32_t delta)
{
	static uint8_t rec[FIXED + 4000];
	uint32_t l = loc(FIXED, 4000);

	common(rec, FP_ID, 1);
	memset(rec + FIXED, 'x', 4000);
	memcpy(rec + 12, &l, 4);
	memcpy(rec + 32, &l, 4);
	entry(pg, delta, rec, sizeof(rec));
}

void fp_time_extend(struct page *pg, uint64_t delta)
{
	fp_raw_u32(pg, 30 | ((uint32_t)delta & MASK27) << 5);
	fp_raw_u32(pg, (uint32_t)(delta >> 27));
}

void fp_time_stamp(struct page *pg, uint64_t ts)
{
	ts &= ~(0xf8ULL << 56);
	fp_raw_u32(pg, 31 | ((uint32_t)ts & MASK27) << 5);
	fp_raw_u32(pg, (uint32_t)(ts >> 27));
}

void fp_padding(struct page *pg, uint32_t total)
{
	static const uint8_t junk[64] = { 0xee, 0xee, 0xee, 0xee };

	fp_raw_u32(pg, 29 | 1u << 5);
	fp_raw_u32(pg, total - 4);
	put(pg, junk, total - 8);
}

void fp_page_finish(struct page *pg, bool missed, uint64_t count)
{
	uint64_t commit = pg->len;

	if (missed && count) {
		memcpy(pg->b + HDR + pg->len, &count, 8);
		commit |= 1u << 30;
	}
	if (missed)
		commit |= 1u << 31;
	fp_set_commit(pg, commit);
}

void fp_set_commit(struct page *pg, uint64_t commit)
{
	memcpy(pg->b + 8, &commit, 8);
}

size_t fp_decode_payload(const uint8_t *p, size_t avail, struct fp_event *ret)
{
	size_t pos = 0, n;

	memset(ret, 0, sizeof(*ret));
	if (avail < 4)
		return avail;
	memcpy(&ret->a, p, 4);
	pos = 4;
	n = strnlen((const char *)p + pos, avail - pos);
	if (n >= sizeof(ret->s) || pos + n + 1 + 16 + 4 > avail)
		return avail;
	memcpy(ret->s, p + pos, n + 1);
	pos += n + 1;
	memcpy(ret->comm, p + pos, 16);
	pos += 16;
	memcpy(&ret->nr_arr, p + pos, 4);
	pos += 4;
	if (ret->nr_arr > 2200 || pos + ret->nr_arr * 2 + 8 > avail)
		return avail;
	memcpy(ret->arr, p + pos, ret->nr_arr * 2);
	pos += ret->nr_arr * 2;
	memcpy(&ret->v, p + pos, 8);
	return pos + 8;
}

int fp_compile(const struct ltt_ftrace_event *ev, const char *text, uint8_t **code,
	       uint32_t *len)
{
	static struct ltt_kabi_event_desc desc;
	struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	struct ltt_filter_node *root = NULL;
	size_t n = 0;
	int err;

	err = ltt_ftrace_filter_fields(ev, &desc, fields);
	if (!err)
		err = ltt_filter_parse(text, &root, NULL);
	if (!err)
		err = ltt_filter_compile(root, fields, desc.nr_fields, code, &n, NULL);
	if (!err)
		err = ltt_filter_validate(*code, n, fields, desc.nr_fields);
	ltt_filter_free(root);
	*len = (uint32_t)n;
	return err;
}
