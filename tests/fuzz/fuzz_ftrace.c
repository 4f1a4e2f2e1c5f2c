// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_ftrace.c - what the kernel's tracefs hands ltt: the text of an
 * event's format file (common/ftrace/ftrace-format.c) and the ring-buffer pages
 * of trace_pipe_raw (common/ftrace/ftrace-conv.c).
 *
 * Input: one byte that picks the decoder (odd: a page; 2 in its low bits:
 * an event map's filter log; else a format file), then the text, the page
 * or the log.  Promises checked: a format file
 * parses or is refused with a reason and one of the documented codes; a
 * parsed layout has its fields within its size, converts to a kernel
 * description (or is too wide) and is accepted by the converter.  A page
 * converts without reading outside itself (the driver's exact-size copy
 * and the sanitizers see it), and every packet it produces has ltt's
 * header, a content size within the packet, ordered timestamps and the
 * next sequence number.  A filter log (common/ftrace/ftrace-map.h: what the
 * session daemon wrote into a memfd the consumer maps) is read record by
 * record without reading past what it says it published, each record's
 * programs within its copy; programs that validate against the seed
 * event run on its page's record.
 */
#include <errno.h>
#include <string.h>

#include <stdlib.h>
#include <unistd.h>

#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-map.h"
#include "common/ftrace/ftrace-conv.h"
#include "filter-vm/filter-vm.h"
#include "fuzz.h"
#include "abi/ltt-packet.h"

static const char seed_format[] =
	"name: tev\n"
	"ID: 100\n"
	"format:\n"
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n"
	"\tfield:u32 a;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc char[] s;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:char comm[16];\toffset:16;\tsize:16;\tsigned:0;\n"
	"\tfield:__data_loc u16[] arr;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] r;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\tfield:unsigned long args[2];\toffset:40;\tsize:16;\tsigned:0;\n"
	"\n"
	"print fmt: \"a=%u\", REC->a\n";

static void check_layout(const struct ltt_ftrace_event *ev)
{
	static struct ltt_kabi_event_desc d;
	struct ltt_ftrace_conv c;
	static const uint8_t uuid[16];
	uint32_t i;
	int ret;

	FUZZ_CHECK(ev->nr_fields <= LTT_FTRACE_MAX_FIELDS && ev->id <= 65535);
	for (i = 0; i < ev->nr_fields; i++) {
		const struct ltt_ftrace_field *f = &ev->fields[i];

		FUZZ_CHECK(f->offset + f->size <= ev->min_size);
		FUZZ_CHECK(strnlen(f->name, sizeof(f->name)) < sizeof(f->name) && f->name[0]);
	}
	ret = ltt_ftrace_event_to_kabi(ev, "ev", &d);
	FUZZ_CHECK(ret == 0 || ret == -E2BIG);
	FUZZ_CHECK(!ltt_ftrace_conv_init(&c, uuid, 0, 0, 4096, NULL));
	FUZZ_CHECK(!ltt_ftrace_conv_map(&c, ev->id, 1, ev));
	ltt_ftrace_conv_fini(&c);
}

static void fuzz_format(const uint8_t *data, size_t size)
{
	static struct ltt_ftrace_event ev;
	const char *why = NULL;
	int ret;

	ret = ltt_ftrace_format_parse("sys", (const char *)data, size, &ev, &why);
	if (ret) {
		FUZZ_CHECK(why || size > LTT_FTRACE_MAX_TEXT);
		FUZZ_CHECK(ret == -EINVAL || ret == -ENOTSUP || ret == -E2BIG ||
			   ret == -ENAMETOOLONG);
		return;
	}
	check_layout(&ev);
}

struct seen {
	uint64_t seq, last_end;
};

static int check_packet(void *arg, const void *packet, size_t size,
			const struct ltt_ctf_index_entry *idx)
{
	const uint8_t *p = packet;
	struct seen *s = arg;
	uint64_t content, begin, end;
	uint32_t magic;

	memcpy(&magic, p + LTT_RB_PH_MAGIC, 4);
	memcpy(&content, p + LTT_RB_PH_CONTENT_SIZE, 8);
	memcpy(&begin, p + LTT_RB_PH_TIMESTAMP_BEGIN, 8);
	memcpy(&end, p + LTT_RB_PH_TIMESTAMP_END, 8);
	FUZZ_CHECK(size == 4096 && magic == LTT_RB_PACKET_MAGIC);
	FUZZ_CHECK(content > LTT_RB_PACKET_HEADER_SIZE * 8 && content <= size * 8);
	FUZZ_CHECK(begin <= end && begin >= s->last_end && idx->packet_seq_num == s->seq);
	s->seq++;
	s->last_end = end;
	return 0;
}

static void fuzz_page(const uint8_t *data, size_t size)
{
	static struct ltt_ftrace_event ev;
	struct ltt_ftrace_conv c;
	static const uint8_t uuid[16];
	struct ltt_ftrace_conv_stats st;
	struct seen s = { 0, 0 };
	struct ltt_ctx tid;
	int ret;

	FUZZ_CHECK(!ltt_ftrace_format_parse("sys", seed_format, sizeof(seed_format) - 1, &ev,
					    NULL));
	FUZZ_CHECK(!ltt_ftrace_conv_init(&c, uuid, 0, 0, 4096, NULL));
	FUZZ_CHECK(!ltt_ftrace_conv_map(&c, 100, 3, &ev) && !ltt_ctx_parse("tid", &tid) &&
		   !ltt_ftrace_conv_set_contexts(&c, &tid, 1));
	ret = ltt_ftrace_conv_page(&c, data, size, check_packet, &s);
	FUZZ_CHECK(ret == 0 || (ret == -EINVAL && size < 16));
	ret = ltt_ftrace_conv_flush(&c, check_packet, &s);
	FUZZ_CHECK(ret == 0 || ret == -ENODATA);
	ltt_ftrace_conv_stats(&c, &st);
	FUZZ_CHECK(st.packets == s.seq && st.discarded >= st.torn + st.too_big);
	ltt_ftrace_conv_fini(&c);
}

static size_t seed_page(uint8_t *b);

/* @f's programs, when they validate against @ev, run on the seed page's record. */
static void run_filter(const struct ltt_ftrace_event *ev, const struct ltt_ftrace_map_filter *f)
{
	static struct ltt_kabi_event_desc desc;
	static struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	static uint8_t page[1 + 4096];
	static const uint8_t uuid[16];
	struct ltt_ftrace_conv_stats st;
	struct seen s = { 0, 0 };
	struct ltt_ftrace_conv c;
	uint32_t i;

	if (ltt_ftrace_filter_fields(ev, &desc, fields))
		return;
	for (i = 0; i < f->nr; i++)
		if (ltt_filter_validate(f->code[i], f->len[i], fields, desc.nr_fields))
			return;
	seed_page(page);
	FUZZ_CHECK(!ltt_ftrace_conv_init(&c, uuid, 0, 0, 4096, NULL));
	FUZZ_CHECK(!ltt_ftrace_conv_map(&c, 100, 3, ev));
	FUZZ_CHECK(!ltt_ftrace_conv_set_filter(&c, 100, 0, f));
	FUZZ_CHECK(!ltt_ftrace_conv_page(&c, page + 1, 4096, check_packet, &s));
	ltt_ftrace_conv_stats(&c, &st);
	FUZZ_CHECK(st.events + st.filtered + st.torn == 1);
	ltt_ftrace_conv_fini(&c);
}

/* The input as a filter log: a u32 of published bytes, then the log. */
static void fuzz_filter_log(const uint8_t *data, size_t size)
{
	static struct ltt_ftrace_map_shm *map;
	static struct ltt_ftrace_event ev;
	struct ltt_ftrace_page_layout pl;
	struct ltt_ftrace_map_filter f;
	uint32_t used, cursor = 0, before, i;
	int fd, ret;

	if (!map) {
		ltt_ftrace_page_layout_default(&pl);
		FUZZ_CHECK(!ltt_ftrace_map_create(&pl, &fd, &map));
		close(fd);	/* the mapping stays */
		FUZZ_CHECK(!ltt_ftrace_format_parse("sys", seed_format, sizeof(seed_format) - 1,
						    &ev, NULL));
	}
	if (size < 4)
		return;
	memcpy(&used, data, 4);
	size -= 4;
	if (size > LTT_FTRACE_MAP_FILTER_BYTES)
		size = LTT_FTRACE_MAP_FILTER_BYTES;
	memcpy((uint8_t *)map + LTT_FTRACE_MAP_FILTER_OFFSET, data + 4, size);
	map->filter_used = used;
	do {
		before = cursor;
		ret = ltt_ftrace_map_filter_next(map, &cursor, &f);
		FUZZ_CHECK(ret == 0 || ret == -ENODATA || ret == -EINVAL);
		FUZZ_CHECK(ret ? cursor == before && !f.buf : cursor > before && cursor <= used);
		if (ret)
			break;
		FUZZ_CHECK(f.nr <= LTT_FTRACE_MAP_FILTER_PROGRAMS && f.ftrace_id <= 65535);
		for (i = 0; i < f.nr; i++)
			FUZZ_CHECK(f.code[i] >= f.buf && f.len[i] <= cursor - before &&
				   f.code[i] + f.len[i] <= f.buf + (cursor - before));
		run_filter(&ev, &f);
		free(f.buf);
	} while (1);
	memset((uint8_t *)map + LTT_FTRACE_MAP_FILTER_OFFSET, 0, size);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		fuzz_page(data + 1, size - 1);
	else if (data[0] & 2)
		fuzz_filter_log(data + 1, size - 1);
	else
		fuzz_format(data + 1, size - 1);
	return 0;
}

/* A page: one record of the seed event, a time extend, an absolute stamp. */
static size_t seed_page(uint8_t *b)
{
	uint8_t rec[64] = { 100, 0, 0, 0, 42, 0, 0, 0, 7 };
	uint32_t w[4], loc = 56 | 4u << 16, rel = 0 | 0u << 16;
	uint64_t ts = 1000, commit;
	size_t len = 0;

	memset(b, 0, 1 + 16 + 4080);
	b[0] = 1;
	memcpy(b + 1, &ts, 8);
	memcpy(rec + 12, &loc, 4);
	memcpy(rec + 36, &rel, 4);
	memcpy(rec + 56, "abc", 4);
	w[0] = 16 | 5u << 5;		/* 64 bytes, delta 5 */
	memcpy(b + 17 + len, w, 4);
	memcpy(b + 21 + len, rec, 64);
	len += 68;
	w[0] = 30 | 3u << 5;		/* time extend */
	w[1] = 2;
	w[2] = 31 | 9u << 5;		/* absolute stamp */
	w[3] = 100;
	memcpy(b + 17 + len, w, 16);
	len += 16;
	commit = len | 1u << 31;	/* lost events, no count */
	memcpy(b + 9, &commit, 8);
	return 1 + 16 + 4080;
}

/*
 * A filter log of two records for the seed event: a program of
 * "a == 7 || s == \"ab*\"" (which takes the seed page's record), then
 * none.
 */
static size_t seed_filter_log(uint8_t *b)
{
	static struct ltt_kabi_event_desc desc;
	static struct ltt_ftrace_event ev;
	struct ltt_filter_field_desc fields[LTT_KABI_MAX_FIELDS];
	struct ltt_filter_node *root = NULL;
	uint8_t *prog = NULL;
	size_t len = 0, at = 5;
	uint32_t len32, used;
	struct ltt_ftrace_map_filter_hdr h = { 0, 100, 0, 1, 5 };

	FUZZ_CHECK(!ltt_ftrace_format_parse("sys", seed_format, sizeof(seed_format) - 1, &ev,
					    NULL) &&
		   !ltt_ftrace_filter_fields(&ev, &desc, fields) &&
		   !ltt_filter_parse("a == 7 || s == \"ab*\"", &root, NULL) &&
		   !ltt_filter_compile(root, fields, desc.nr_fields, &prog, &len, NULL));
	ltt_filter_free(root);
	len32 = (uint32_t)len;
	h.size = (uint32_t)(sizeof(h) + 4 + ((len + 3) & ~(size_t)3));
	b[0] = 2;
	memset(b + at, 0, h.size);
	memcpy(b + at, &h, sizeof(h));
	memcpy(b + at + sizeof(h), &len32, 4);
	memcpy(b + at + sizeof(h) + 4, prog, len);
	free(prog);
	at += h.size;
	h = (struct ltt_ftrace_map_filter_hdr){ sizeof(h), 100, 0, 0, 9 };
	memcpy(b + at, &h, sizeof(h));
	at += sizeof(h);
	used = (uint32_t)(at - 5);
	memcpy(b + 1, &used, 4);
	return at;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static uint8_t buf[1 + 4096];

	buf[0] = 0;
	memcpy(buf + 1, seed_format, sizeof(seed_format) - 1);
	emit("format-0", buf, sizeof(seed_format));
	emit("page-0", buf, seed_page(buf));
	emit("filter-log-0", buf, seed_filter_log(buf));
}
