// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_filter.c - kernel filters on the tracefs path: the event
 * map's filter log (common/ftrace/ftrace-map.h) and the converter running an
 * event's programs on its records (common/ftrace/ftrace-conv.h).
 *
 * Programs are compiled here as the session daemon compiles them, from
 * the fields ltt_ftrace_filter_fields() gives the test event (an integer,
 * a __data_loc string, a char array, a __data_loc array, a signed 64-bit
 * integer); synthetic pages of records with known values go through the
 * converter, and the events it wrote and the records it skipped are
 * counted against what each expression selects.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-map.h"
#include "common/ftrace/ftrace-conv.h"
#include "filter-vm/filter-vm.h"
#include "tests/unit/ftrace-pages.h"
#include "abi/ltt-packet.h"
#include "tests/unit/tap.h"

static const uint8_t uuid[16] = { 9 };
static struct ltt_ftrace_event layout;
static struct page pg;

static int sink(void *arg, const void *packet, size_t size, const struct ltt_ctf_index_entry *idx)
{
	(void)arg;
	(void)packet;
	(void)size;
	(void)idx;
	return 0;
}

/* @text compiled for the test event (fp_compile()). */
static int compile(const char *text, uint8_t **code, uint32_t *len)
{
	return fp_compile(&layout, text, code, len);
}

/*
 * 40 records: pid 1..40 (comm "comm<pid>", v = -pid * 10^9), a = pid % 4,
 * s "alpha" for even pids and "beta" for odd ones, arr 1000, 1001 (and
 * 1002 from pid 21 on).
 */
static void page_of_40(void)
{
	int32_t pid;

	fp_page_init(&pg, 1000);
	for (pid = 1; pid <= 40; pid++)
		fp_record(&pg, 10, pid, pid % 4, pid % 2 ? "beta" : "alpha", pid > 20 ? 3 : 2);
	fp_page_finish(&pg, false, 0);
}

/* Events the converter keeps of page_of_40() with @nr programs of @texts. */
static long kept(const char *const *texts, uint32_t nr, uint64_t *filtered)
{
	struct ltt_ftrace_map_filter f = { .ftrace_id = FP_ID, .nr = nr };
	struct ltt_ftrace_conv_stats st;
	struct ltt_ftrace_conv c;
	uint32_t i;
	long ret = -1;

	ltt_ftrace_conv_init(&c, uuid, 1, 3, PKT_SIZE, NULL);
	ltt_ftrace_conv_map(&c, FP_ID, 0, &layout);
	for (i = 0; i < nr; i++)
		if (compile(texts[i], &f.code[i], &f.len[i]))
			goto out;
	if (ltt_ftrace_conv_set_filter(&c, FP_ID, 0, &f))
		goto out;
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink, NULL);
	ltt_ftrace_conv_stats(&c, &st);
	*filtered = st.filtered;
	ret = (long)st.events;
	tap_is_u64(st.discarded, 0, "%s...: nothing counted as discarded", texts[0]);
out:
	for (i = 0; i < nr; i++)
		free(f.code[i]);
	ltt_ftrace_conv_fini(&c);
	return ret;
}

static void check_one(const char *text, long want)
{
	uint64_t filtered = 0;
	long n = kept(&text, 1, &filtered);

	tap_ok(n == want && (long)filtered == 40 - want, "'%s': %ld kept of 40 (want %ld), %llu skipped",
	       text, n, want, (unsigned long long)filtered);
}

/*
 * A filter changed while records wait to be read: each record is judged
 * by the programs of its time (page_of_40(): pid i stamped 1000 + 10 i).
 */
static void check_since(void)
{
	struct ltt_ftrace_map_filter f1 = { .ftrace_id = FP_ID, .since_ns = 0, .nr = 1 };
	struct ltt_ftrace_map_filter f2 = { .ftrace_id = FP_ID, .since_ns = 1205, .prev = &f1 };
	struct ltt_ftrace_map_filter f3 = { .ftrace_id = FP_ID, .since_ns = 1355, .prev = &f2,
					    .nr = 1 };
	struct ltt_ftrace_conv_stats st;
	struct ltt_ftrace_conv c;

	ltt_ftrace_conv_init(&c, uuid, 1, 3, PKT_SIZE, NULL);
	ltt_ftrace_conv_map(&c, FP_ID, 0, &layout);
	if (compile("a == 1", &f1.code[0], &f1.len[0]) ||
	    compile("$ctx.tid == 40", &f3.code[0], &f3.len[0])) {
		tap_ok(false, "the programs compile");
		return;
	}
	ltt_ftrace_conv_set_filter(&c, FP_ID, 0, &f3);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink, NULL);
	ltt_ftrace_conv_stats(&c, &st);
	/* 1..20: a == 1 (1 5 9 13 17); 21..35: no program (15); 36..40: tid 40 */
	tap_is_u64(st.events, 21, "records judged by the programs of their time: 5 + 15 + 1");
	free(f1.code[0]);
	free(f3.code[0]);
	ltt_ftrace_conv_fini(&c);
}

/*
 * A biased field (the scheduler's prio through tracefs): programs see
 * the value with its bias, as the trace does; a bias on anything but a
 * signed 4-byte integer is refused by the map.
 */
static void check_bias(void)
{
	struct ltt_ftrace_field saved = layout.fields[0];	/* u32 a */
	struct ltt_ftrace_conv c;

	ltt_ftrace_conv_init(&c, uuid, 1, 3, PKT_SIZE, NULL);
	layout.fields[0].bias = -100;
	tap_is_int(ltt_ftrace_conv_map(&c, FP_ID, 0, &layout), -EINVAL,
		   "a bias on an unsigned field: the layout is refused");
	ltt_ftrace_conv_fini(&c);
	layout.fields[0].is_signed = 1;
	check_one("a == -99", 10);	/* pid % 4 == 1, less 100 */
	check_one("a < 0 && a >= -100", 40);
	layout.fields[0] = saved;
}

static void check_conversion(void)
{
	static const char *const two[] = { "a == 1", "$ctx.tid > 36" };
	uint64_t filtered = 0;
	long n;

	page_of_40();
	check_one("a == 1", 10);
	check_one("a != 1 && a != 2", 20);
	check_one("s == \"alpha\"", 20);
	check_one("s == \"be*\"", 20);
	check_one("comm == \"comm1*\"", 11);	/* comm1, comm10..comm19 */
	check_one("comm == \"comm7\"", 1);
	check_one("arr[2] == 1002", 20);	/* an index past a record's count rejects */
	check_one("v < -30000000000", 10);	/* pids 31..40 */
	check_one("$ctx.tid == 5 || $ctx.tid == 6", 2);
	check_one("$ctx.cpu_id == 3", 40);	/* the converter's CPU */
	check_one("$ctx.vpid == 1", 0);		/* absent here: rejects */
	check_one("!(a & 1)", 20);
	n = kept(two, 2, &filtered);
	/* a == 1: pids 1 5 9 .. 37 (10); tid > 36: 37..40, 37 counted once */
	tap_is_int((int)n, 13, "two programs: a record one of them accepts is kept (13)");
	check_since();
	check_bias();
}

/* A map's filter log, written and read back. */
static void check_log(void)
{
	static uint8_t p1[20] = "program-one", p2[7] = "second";
	const uint8_t *code[2] = { p1, p2 };
	uint32_t len[2] = { sizeof(p1), sizeof(p2) }, cursor = 0, big = LTT_FILTER_MAX_LEN + 1;
	const struct ltt_ftrace_map_shm *ro;
	struct ltt_ftrace_map_shm *map;
	struct ltt_ftrace_page_layout pl;
	struct ltt_ftrace_map_filter f;
	int fd, err, n = 0;

	ltt_ftrace_page_layout_default(&pl);
	if (ltt_ftrace_map_create(&pl, &fd, &map) || ltt_ftrace_map_open(fd, &ro)) {
		tap_ok(false, "a map created and opened");
		return;
	}
	tap_is_int(ltt_ftrace_map_filter_next(ro, &cursor, &f), -ENODATA, "an empty log: no record");
	tap_ok(!ltt_ftrace_map_filtered(map, 7, 0), "... and no event filtered");
	tap_is_int(ltt_ftrace_map_publish_filter(map, 7, 0, 5, code, len, 2), 0, "two programs of event 7");
	tap_is_int(ltt_ftrace_map_publish_filter(map, 7, 9, 6, code, len, 1), 0, "one of raw event (7, 9)");
	tap_is_int(ltt_ftrace_map_publish_filter(map, 7, 0, 7, NULL, NULL, 0), 0,
		   "event 7 unfiltered again");
	tap_ok(!ltt_ftrace_map_filtered(map, 7, 0) && ltt_ftrace_map_filtered(map, 7, 9),
	       "the latest record of each event says whether it is filtered");
	err = ltt_ftrace_map_filter_next(ro, &cursor, &f);
	tap_ok(!err && f.ftrace_id == 7 && !f.raw_id && f.since_ns == 5 && !f.prev && f.nr == 2 && f.len[0] == sizeof(p1) &&
	       !memcmp(f.code[0], p1, sizeof(p1)) && f.len[1] == sizeof(p2) &&
	       !memcmp(f.code[1], p2, sizeof(p2)), "the reader copies out the first record whole");
	free(f.buf);
	err = ltt_ftrace_map_filter_next(ro, &cursor, &f);
	tap_ok(!err && f.raw_id == 9 && f.nr == 1, "... the second");
	free(f.buf);
	err = ltt_ftrace_map_filter_next(ro, &cursor, &f);
	tap_ok(!err && f.nr == 0, "... the third, with no program");
	free(f.buf);
	tap_is_int(ltt_ftrace_map_filter_next(ro, &cursor, &f), -ENODATA, "... then the end");
	tap_is_int(ltt_ftrace_map_publish_filter(map, 1, 0, 8, code, &big, 1), -EINVAL,
		   "a program over LTT_FILTER_MAX_LEN: refused");
	tap_is_int(ltt_ftrace_map_publish_filter(map, 1, 0, 8, code, len, 65), -EINVAL,
		   "65 programs: refused");
	do
		err = ltt_ftrace_map_publish_filter(map, 1, 0, 8, code, len, 2);
	while (!err && ++n < 1000000);
	tap_is_int(err, -ENOSPC, "a full log: -ENOSPC (after %d records)", n);
	/* a record that lies about its size: the reader stops there */
	memcpy((uint8_t *)map + LTT_FTRACE_MAP_FILTER_OFFSET + cursor, &(uint32_t){ 3 }, 4);
	tap_is_int(ltt_ftrace_map_filter_next(ro, &cursor, &f), -EINVAL,
		   "a record whose size lies: -EINVAL");
	tap_ok(f.buf == NULL, "... nothing to free");
	ltt_ftrace_map_unmap(ro);
	ltt_ftrace_map_unmap(map);
	close(fd);
}

/* What a visitor saw: the records' a fields, their times, none torn. */
struct seen {
	long n;
	uint64_t a_sum, last_ts;
	bool bad;
};

static void visit(void *arg, const struct ltt_ftrace_map *m, uint64_t ts, const void *rec,
		  size_t len)
{
	struct ltt_filter_arg args[LTT_FTRACE_MAX_FIELDS];
	int32_t biased[LTT_FTRACE_MAX_FIELDS];
	struct seen *s = arg;
	uint32_t a;

	if (m->layout != &layout || !ltt_ftrace_record_args(m->layout, rec, len, args, biased)) {
		s->bad = true;
		return;
	}
	memcpy(&a, args[0].p, 4);	/* a, the first field */
	s->n++;
	s->a_sum += a;
	s->last_ts = ts;
}

/*
 * A reader of records (ltt_ftrace_conv_visit()): the records the filter
 * keeps, each whole with its fields and time, none in a packet.
 */
static void check_visit(void)
{
	struct ltt_ftrace_map_filter f = { .ftrace_id = FP_ID, .nr = 1 };
	struct ltt_ftrace_conv_stats st;
	struct ltt_ftrace_conv c;
	struct seen s = { 0 };

	ltt_ftrace_conv_init(&c, uuid, 1, 3, PKT_SIZE, NULL);
	ltt_ftrace_conv_map(&c, FP_ID, 7, &layout);
	if (compile("a == 3", &f.code[0], &f.len[0])) {
		tap_ok(false, "visit: 'a == 3' compiles");
		ltt_ftrace_conv_fini(&c);
		return;
	}
	ltt_ftrace_conv_set_filter(&c, FP_ID, 0, &f);
	tap_is_int(ltt_ftrace_conv_visit(&c, pg.b, PAGE, visit, &s), 0, "visit: the page is read");
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(!s.bad && s.n == 10 && s.a_sum == 30,
	       "visit: the 10 records of a == 3 of 40, each with its fields (%ld, sum %llu)", s.n,
	       (unsigned long long)s.a_sum);
	tap_is_u64(s.last_ts, 1000 + 10 * 39, "visit: the last one (pid 39) at its time");
	tap_ok(st.events == 10 && st.filtered == 30 && st.packets == 0 && c.used == 0,
	       "visit: counted as kept (10) and filtered (30), no packet opened");
	tap_is_int(ltt_ftrace_conv_visit(&c, pg.b, PAGE, NULL, &s), -EINVAL, "visit: NULL visitor: -EINVAL");
	free(f.code[0]);
	ltt_ftrace_conv_fini(&c);
}

static void check_api(void)
{
	struct ltt_ftrace_map_filter f = { 0 };
	struct ltt_ftrace_conv c;

	ltt_ftrace_conv_init(&c, uuid, 1, 0, PKT_SIZE, NULL);
	tap_is_int(ltt_ftrace_conv_set_filter(&c, FP_ID, 0, &f), -ENOENT,
		   "a filter for an event not mapped: -ENOENT");
	ltt_ftrace_conv_map(&c, FP_ID, 0, &layout);
	tap_is_int(ltt_ftrace_conv_set_filter(&c, FP_ID, 4, &f), -ENOENT,
		   "... for a raw id not mapped: -ENOENT");
	tap_is_int(ltt_ftrace_conv_set_filter(&c, FP_ID, 0, &f), 0, "... once mapped: 0");
	tap_is_int(ltt_ftrace_conv_set_filter(NULL, FP_ID, 0, &f), -EINVAL, "NULL: -EINVAL");
	ltt_ftrace_conv_fini(&c);
}

int main(void)
{
	if (!fp_layout(&layout)) {
		tap_ok(false, "the test layout parses");
		return tap_done();
	}
	check_conversion();
	check_log();
	check_visit();
	check_api();
	return tap_done();
}
