// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_conv.c - common/ftrace/ftrace-conv: the kernel's ring-buffer
 * pages into CTF packets.
 *
 * Synthetic pages built here, entry by entry as ring_buffer.c writes them
 * (every entry type, time extends, absolute stamps, padding, lost events
 * with and without their count, a commit that lies, records that run past
 * the page or point outside themselves), decoded back from the packets:
 * headers, timestamps, payload bytes, counters.  Then the real thing, as
 * root where tracefs can be reached (test_ftrace_real.c): a private
 * instance, a known load, the packets read by babeltrace2.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/ftrace/ftrace-conv.h"
#include "tests/unit/ftrace-pages.h"
#include "abi/ltt-packet.h"
#include "tests/unit/tap.h"

/* ---- decoding what the converter wrote ---- */

/* The packets one test collected, and a sink that can refuse. */
struct sink {
	uint8_t pkts[8][PKT_SIZE];
	struct ltt_ctf_index_entry idx[8];
	unsigned int n;
	int fail;		/* the error to return, 0: accept */
};

static int sink_emit(void *arg, const void *packet, size_t size,
		     const struct ltt_ctf_index_entry *idx)
{
	struct sink *s = arg;

	if (s->fail)
		return s->fail;
	if (s->n < 8 && size == PKT_SIZE) {
		memcpy(s->pkts[s->n], packet, size);
		s->idx[s->n] = *idx;
	}
	s->n++;
	return 0;
}

static uint64_t get64(const uint8_t *p, size_t off)
{
	uint64_t v;

	memcpy(&v, p + off, 8);
	return v;
}

static uint32_t get32(const uint8_t *p, size_t off)
{
	uint32_t v;

	memcpy(&v, p + off, 4);
	return v;
}

/* Where decode() stopped: the last event's end. */
static size_t last_end;

/* One decoded event of the test layout (struct fp_event). */
struct ev {
	uint32_t id;
	uint64_t ts;
	int32_t tid, cpu;	/* with contexts */
	struct fp_event f;
};

/* Decode the events of @pkt (the test layout, @ctx: tid and cpu_id contexts). */
static unsigned int decode(const uint8_t *pkt, bool ctx, struct ev *out, unsigned int max)
{
	size_t pos = LTT_RB_PACKET_HEADER_SIZE, end = get64(pkt, LTT_RB_PH_CONTENT_SIZE) / 8;
	uint64_t clock = get64(pkt, LTT_RB_PH_TIMESTAMP_BEGIN), low;
	unsigned int n = 0;
	uint32_t w;

	while (pos < end && n < max) {
		struct ev *e = &out[n++];

		w = get32(pkt, pos);
		if ((w & 31) != 31) {
			e->id = w & 31;
			low = w >> 5;
			if (low < (clock & 0x7ffffff))
				clock += 1 << 27;
			clock = (clock & ~(uint64_t)0x7ffffff) | low;
			pos += 4;
		} else {
			e->id = get32(pkt, pos + 1);
			clock = get64(pkt, pos + 5);
			pos += 13;
		}
		e->ts = clock;
		if (ctx) {
			e->tid = (int32_t)get32(pkt, pos);
			e->cpu = (int32_t)get32(pkt, pos + 4);
			pos += 8;
		}
		pos += fp_decode_payload(pkt + pos, end - pos, &e->f);
	}
	last_end = pos;
	return n;
}

/* ---- the checks ---- */

static const uint8_t uuid[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 };

static struct ltt_ftrace_event layout;
static struct sink sink;
static struct page pg;
static struct ev evs[256];

static void conv_setup(struct ltt_ftrace_conv *c, bool ctx)
{
	struct ltt_ctx cx[2];

	ltt_ftrace_conv_init(c, uuid, 7, 3, PKT_SIZE, NULL);
	ltt_ftrace_conv_map(c, FP_ID, 5, &layout);
	if (ctx) {
		ltt_ctx_parse("tid", &cx[0]);
		ltt_ctx_parse("cpu_id", &cx[1]);
		ltt_ftrace_conv_set_contexts(c, cx, 2);
	}
	memset(&sink, 0, sizeof(sink));
}

static void check_entries(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	static char longstr[300];
	const uint8_t *p;
	uint64_t t0 = 1000000;
	unsigned int n;

	memset(longstr, 'x', sizeof(longstr) - 1);
	conv_setup(&c, true);
	fp_page_init(&pg, t0);
	fp_record(&pg, 10, 4242, 1, "one", 0);			/* small: type_len 1..28 */
	fp_record(&pg, 20, 4243, -2, longstr, 3);		/* > 112 bytes: type_len 0 */
	fp_time_extend(&pg, (uint64_t)5 << 27);			/* 0.67 s later */
	fp_record(&pg, 7, 4244, 3, "after-extend", 1);
	fp_padding(&pg, 24);					/* a discarded event */
	fp_time_stamp(&pg, 9000000000ULL);			/* absolute */
	fp_record(&pg, 1, 4245, 4, "", 2);
	fp_page_finish(&pg, 0, 0);
	tap_is_int(ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink), 0, "a page converts");
	tap_is_int(sink.n, 0, "no packet is full yet");
	tap_is_int(ltt_ftrace_conv_flush(&c, sink_emit, &sink), 0, "flush");
	tap_is_int(sink.n, 1, "one packet");
	p = sink.pkts[0];
	tap_ok(get32(p, LTT_RB_PH_MAGIC) == LTT_RB_PACKET_MAGIC &&
	       !memcmp(p + LTT_RB_PH_UUID, uuid, 16) && get32(p, LTT_RB_PH_STREAM_ID) == 7 &&
	       get64(p, LTT_RB_PH_STREAM_INSTANCE_ID) == 3 && get32(p, LTT_RB_PH_CPU_ID) == 3 &&
	       get64(p, LTT_RB_PH_PACKET_SIZE) == PKT_SIZE * 8 &&
	       get64(p, LTT_RB_PH_PACKET_SEQ_NUM) == 0 && get64(p, LTT_RB_PH_EVENTS_DISCARDED) == 0,
	       "packet header: magic, uuid, stream, cpu, size, seq 0, none discarded");
	n = decode(p, true, evs, 16);
	tap_is_int(n, 4, "four events");
	tap_ok(evs[0].ts == t0 + 10 && evs[1].ts == t0 + 30 &&
	       evs[2].ts == t0 + 30 + ((uint64_t)5 << 27) + 7 && evs[3].ts == 9000000001ULL,
	       "timestamps: deltas, a time extend, an absolute stamp");
	tap_ok(evs[0].id == 5 && evs[2].id == 5 && evs[3].id == 5, "the mapped CTF id");
	tap_ok(get64(p, LTT_RB_PH_TIMESTAMP_BEGIN) == evs[0].ts &&
	       get64(p, LTT_RB_PH_TIMESTAMP_END) == evs[3].ts,
	       "timestamp_begin and _end: the first and last events'");
	tap_ok(evs[0].tid == 4242 && evs[3].tid == 4245 && evs[1].cpu == 3,
	       "tid (common_pid) and cpu_id contexts");
	tap_ok(evs[0].f.a == 1 && !strcmp(evs[0].f.s, "one") && evs[1].f.a == (uint32_t)-2 &&
	       !strcmp(evs[1].f.s, longstr) && evs[1].f.nr_arr == 3 && evs[1].f.arr[2] == 1002 &&
	       !strcmp(evs[2].f.s, "after-extend") && !strcmp(evs[3].f.s, "") &&
	       evs[3].f.nr_arr == 2 && !strcmp(evs[0].f.comm, "comm4242") &&
	       evs[2].f.v == -4244000000000LL,
	       "payloads: integers, strings, char arrays, dynamic arrays, byte for byte");
	tap_ok(get64(p, LTT_RB_PH_CONTENT_SIZE) == last_end * 8,
	       "content_size: the events' end, in bits");
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.events == 4 && st.packets == 1 && st.discarded == 0 && st.torn == 0 &&
	       st.torn_pages == 0, "stats: 4 events, 1 packet, nothing lost");
	tap_is_u64(st.page_records, 4,
		   "page_records: the 4 data records, not the time extend, the absolute stamp nor "
		   "the discarded event's padding (as ftrace's \"read events\" counts)");
	tap_is_int(ltt_ftrace_conv_flush(&c, sink_emit, &sink), -ENODATA, "flush again: nothing");
	ltt_ftrace_conv_fini(&c);
}

static void check_missed(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;

	conv_setup(&c, false);
	fp_page_init(&pg, 500);
	fp_record(&pg, 1, 1, 1, "a", 0);
	fp_page_finish(&pg, 1, 7);			/* 7 lost, count stored */
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	tap_is_u64(get64(sink.pkts[0], LTT_RB_PH_EVENTS_DISCARDED), 7,
		   "a stored missed count: events_discarded 7");
	fp_page_init(&pg, 600);
	fp_record(&pg, 1, 1, 1, "b", 0);
	fp_page_finish(&pg, 1, 0);			/* lost, no room for the count */
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_add_discarded(&c, 10);		/* what the stats file says beyond */
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_is_u64(get64(sink.pkts[1], LTT_RB_PH_EVENTS_DISCARDED), 18,
		   "no count stored: 1 more, cumulative, plus what the caller adds");
	tap_ok(st.missed == 8 && st.missed_unknown == 1 && st.discarded == 18 &&
	       get64(sink.pkts[1], LTT_RB_PH_PACKET_SEQ_NUM) == 1,
	       "stats: missed 8 of which 1 unknown; packet_seq_num 1");
	ltt_ftrace_conv_fini(&c);

	/* the caller counts the overwritten events itself (the stats' overrun) */
	conv_setup(&c, false);
	ltt_ftrace_conv_missed_elsewhere(&c);
	fp_page_init(&pg, 500);
	fp_record(&pg, 1, 1, 1, "a", 0);
	fp_page_finish(&pg, 1, 7);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_add_discarded(&c, 19662);	/* the overrun, exact */
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.missed == 7 && st.discarded == 19662 &&
	       get64(sink.pkts[sink.n - 1], LTT_RB_PH_EVENTS_DISCARDED) == 19662,
	       "missed elsewhere: a page's missed count noted, not counted twice");
	ltt_ftrace_conv_fini(&c);
}

/* The side of check_side(): stops the page once, before the record stamped stop_at. */
struct side_seen {
	uint64_t ts[16];
	unsigned int n;
	uint64_t stop_at;
};

static bool side_stop(void *arg, uint64_t ts, ltt_ftrace_emit_fn emit, void *emit_arg)
{
	struct side_seen *s = arg;

	(void)emit, (void)emit_arg;
	if (s->n < 16)
		s->ts[s->n] = ts;
	s->n++;
	if (ts != s->stop_at)
		return false;
	s->stop_at = 0;		/* once */
	return true;
}

/*
 * A side that has no room stops the page before a record (the BPF ring's
 * records wait for the queue there, and the page's): -EAGAIN, the records
 * before it converted; the rest waits for ltt_ftrace_conv_resume(), which
 * asks the side again about that record, its time (after a time extend)
 * as it was, each record converted once, in order.
 */
static void check_side(void)
{
	struct side_seen seen = { .stop_at = 2000030 };
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	unsigned int i, n;
	bool ok;

	conv_setup(&c, true);
	ltt_ftrace_conv_set_side(&c, side_stop, &seen);
	fp_page_init(&pg, 2000000);
	fp_record(&pg, 10, 1, 1, "one", 0);
	fp_time_extend(&pg, 10);
	fp_record(&pg, 10, 2, 2, "two", 0);			/* 2000030 */
	fp_record(&pg, 5, 3, 3, "three", 0);
	fp_page_finish(&pg, 1, 4);				/* 4 lost before the page */
	tap_is_int(ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink), -EAGAIN,
		   "side: a page the side stops says EAGAIN");
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(c.paused && st.events == 1 && seen.n == 2 && st.page_records == 1,
	       "the record before converted (page_records 1), the side asked twice (%u)", seen.n);
	tap_is_int(ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink), -EINVAL,
		   "another page before the stopped one's rest: EINVAL");
	tap_is_int(ltt_ftrace_conv_resume(&c, pg.b, PAGE, sink_emit, &sink), 0, "resumed: the rest");
	tap_is_int(ltt_ftrace_conv_resume(&c, pg.b, PAGE, sink_emit, &sink), -EINVAL,
		   "a resume with nothing stopped: EINVAL");
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	n = decode(sink.pkts[0], true, evs, 16);
	ok = n == 3 && sink.n == 1;
	for (i = 0; ok && i < 3; i++)
		ok = evs[i].tid == (int32_t)i + 1;
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(ok && evs[1].ts == 2000030 && evs[2].ts == 2000035 && st.events == 3 &&
	       st.page_records == 3,
	       "each record once, in order, with its time (%u events), taken once each", n);
	tap_ok(seen.n == 4 && seen.ts[2] == 2000030 && seen.ts[3] == 2000035,
	       "the side asked again about the record it stopped before, then the next");
	tap_is_u64(get64(sink.pkts[0], LTT_RB_PH_EVENTS_DISCARDED), 4,
		   "the page's lost events counted once");
	ltt_ftrace_conv_fini(&c);
}

/*
 * A page whose commit word lies (flags past bit 32: the page's length is
 * still its low bits) is counted torn once, also when the side stops it
 * and it is resumed: a resume goes on with the same page.
 */
static void check_side_torn(void)
{
	struct side_seen seen = { .stop_at = 2000020 };
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;

	conv_setup(&c, true);
	ltt_ftrace_conv_set_side(&c, side_stop, &seen);
	fp_page_init(&pg, 2000000);
	fp_record(&pg, 10, 1, 1, "one", 0);
	fp_record(&pg, 10, 2, 2, "two", 0);			/* 2000020 */
	fp_page_finish(&pg, 0, 0);
	fp_set_commit(&pg, (uint64_t)pg.len | 1ULL << 40);
	tap_is_int(ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink), -EAGAIN,
		   "torn page: the side stops it");
	tap_is_int(ltt_ftrace_conv_resume(&c, pg.b, PAGE, sink_emit, &sink), 0, "torn page: resumed");
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.torn_pages == 1 && st.events == 2,
	       "a torn page stopped and resumed: counted torn once (%llu), its 2 events (%llu)",
	       (unsigned long long)st.torn_pages, (unsigned long long)st.events);
	ltt_ftrace_conv_fini(&c);
}

static void check_torn(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	uint8_t *exact;
	uint64_t tp, pr;

	conv_setup(&c, false);
	fp_page_init(&pg, 100);
	fp_record(&pg, 1, 1, 1, "kept", 0);
	fp_page_finish(&pg, 0, 0);
	fp_set_commit(&pg, 100000);			/* beyond the page */
	exact = malloc(PAGE);
	memcpy(exact, pg.b, PAGE);
	memset(exact + 16 + pg.len, 0xff, PAGE - 16 - pg.len);	/* garbage after */
	ltt_ftrace_conv_page(&c, exact, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.torn_pages >= 1 && st.events == 1,
	       "a commit past the page: its events up to the page's end, counted");
	tp = st.torn_pages;
	fp_page_init(&pg, 200);
	fp_record(&pg, 1, 1, 1, "kept", 0);
	fp_raw_u32(&pg, 0);				/* type 0 ... */
	fp_raw_u32(&pg, 60000);				/* ... of 60000 bytes */
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.torn_pages == tp + 1 && st.events == 2, "a record past the end: stops there, counted");
	pr = st.page_records;
	fp_page_init(&pg, 300);
	fp_record_bad_loc(&pg, 1);			/* a string outside its record */
	fp_record(&pg, 1, 1, 1, "next", 0);
	fp_record_unmapped(&pg, 1);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.torn == 1 && st.discarded == 1 && st.events == 3 && st.unmapped == 1,
	       "a __data_loc outside its record: that event discarded; unmapped: skipped apart");
	tap_is_u64(st.page_records - pr, 3, "page_records: a torn record and an unmapped one taken too");
	fp_page_init(&pg, 50);				/* earlier than the stream's latest */
	fp_record(&pg, 1, 1, 1, "early", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.clamped == 1 && sink.n == 1 &&
	       get64(sink.pkts[0], LTT_RB_PH_TIMESTAMP_END) == 302,
	       "a timestamp going back: raised to the latest, counted");
	tap_is_int(ltt_ftrace_conv_page(&c, pg.b, 15, sink_emit, &sink), -EINVAL,
		   "a page shorter than its header: refused");
	free(exact);
	ltt_ftrace_conv_fini(&c);
}

static void check_packets(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	uint64_t total = 0, prev_end = 0;
	unsigned int i, k;
	bool seq_ok = true, ts_ok = true;

	conv_setup(&c, false);
	for (k = 0; k < 6; k++) {
		fp_page_init(&pg, 10000 + k * 1000);
		for (i = 0; i < 40; i++)
			fp_record(&pg, 3, i, i, "a string of some length", 4);
		fp_page_finish(&pg, 0, 0);
		ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	}
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	for (i = 0; i < sink.n && i < 8; i++) {
		total += decode(sink.pkts[i], false, evs, 256);
		seq_ok = seq_ok && get64(sink.pkts[i], LTT_RB_PH_PACKET_SEQ_NUM) == i &&
			 sink.idx[i].packet_seq_num == i &&
			 sink.idx[i].content_size == get64(sink.pkts[i], LTT_RB_PH_CONTENT_SIZE);
		ts_ok = ts_ok && get64(sink.pkts[i], LTT_RB_PH_TIMESTAMP_BEGIN) >= prev_end;
		prev_end = get64(sink.pkts[i], LTT_RB_PH_TIMESTAMP_END);
	}
	tap_ok(sink.n >= 3 && sink.n <= 8, "240 events fill several packets (%u)", sink.n);
	tap_is_u64(total, 240, "every event in exactly one packet");
	tap_ok(seq_ok && ts_ok, "seq nums 0, 1, ...; index entries match; packets in time order");
	fp_page_init(&pg, 900000);
	fp_record_big(&pg, 1);				/* larger than an empty packet */
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	sink.fail = -EIO;
	fp_page_init(&pg, 900010);
	fp_record(&pg, 1, 1, 1, "refused", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	tap_is_int(ltt_ftrace_conv_flush(&c, sink_emit, &sink), -EIO, "the sink's error returned");
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.too_big == 1 && st.emit_failed == 1 && st.discarded == 2,
	       "an event too big and a refused packet's event: discarded, counted");
	ltt_ftrace_conv_fini(&c);
}

static void check_api(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_event bad = layout;

	tap_is_int(ltt_ftrace_conv_init(&c, uuid, 0, 0, 5000, NULL), -EINVAL,
		   "a packet size not a power of two refused");
	ltt_ftrace_conv_fini(&c);
	conv_setup(&c, false);
	tap_is_int(ltt_ftrace_conv_map(&c, FP_ID + 1, 1, &layout), -EINVAL,
		   "a layout of another id refused");
	bad.fields[0].offset = 60000;
	tap_is_int(ltt_ftrace_conv_map(&c, FP_ID, 1, &bad), -EINVAL,
		   "a layout whose field lies past its size refused");
	ltt_ftrace_conv_fini(&c);
	ltt_ftrace_conv_fini(NULL);
}

/* ---- raw records (ftrace:raw_data told apart by their raw id) ---- */

#define RAW_A 0x4c545301u
#define RAW_B 0x4c545302u

/* The state dump's process_state as the session daemon writes it. */
struct raw_ps {
	uint32_t raw_id;
	int32_t tid, pid, ppid;
	char name[16];
};

/* A raw layout: raw_data's header and id, then @ps's fields or none. */
static void raw_layout(struct ltt_ftrace_event *ev, bool ps)
{
	static const char *const names[] = { "tid", "pid", "ppid", "name" };
	uint32_t i;

	memset(ev, 0, sizeof(*ev));
	ev->id = FP_RAW_ID;
	strcpy(ev->system, "ftrace");
	strcpy(ev->name, ps ? "lttng_statedump_process_state" : "lttng_statedump_start");
	ev->pid_offset = 4;
	ev->min_size = ps ? 8 + sizeof(struct raw_ps) : 12;
	for (i = 0; ps && i < 4; i++) {
		struct ltt_ftrace_field *f = &ev->fields[ev->nr_fields++];

		strcpy(f->name, names[i]);
		f->offset = 12 + 4 * i;
		f->size = i < 3 ? 4 : 16;
		f->length = i < 3 ? 0 : 16;
		f->kind = i < 3 ? LTT_FTRACE_INT : LTT_FTRACE_CHARS;
		f->elem_size = i < 3 ? 4 : 1;
		f->is_signed = i < 3;
		f->base = 10;
	}
}

static void check_raw_page(struct ltt_ftrace_conv *c)
{
	struct raw_ps ps = { RAW_B, 101, 100, 1, "worker" }, cut = ps;
	uint32_t a = RAW_A, other = 0x1234, w;
	struct ltt_ftrace_conv_stats st;
	const uint8_t *p = sink.pkts[0] + LTT_RB_PACKET_HEADER_SIZE;

	fp_page_init(&pg, 1000);
	fp_record_raw(&pg, 1, 55, &a, 4);
	fp_record_raw(&pg, 1, 55, &ps, sizeof(ps));
	fp_record_raw(&pg, 1, 55, &other, 4);		/* a raw id not mapped */
	fp_record_raw(&pg, 1, 55, &cut, 8);		/* process_state cut short */
	fp_record(&pg, 1, 7, 1, "x", 0);		/* an ordinary event between */
	fp_record_raw(&pg, 1, 55, &a, 4);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(c, sink_emit, &sink);
	ltt_ftrace_conv_stats(c, &st);
	tap_ok(st.events == 4 && st.unmapped == 1 && st.torn == 1 && st.discarded == 1,
	       "raw records: 3 mapped by raw id and the ordinary one converted; an unknown raw id skipped as unmapped; one cut short torn (events %llu unmapped %llu torn %llu)",
	       (unsigned long long)st.events, (unsigned long long)st.unmapped,
	       (unsigned long long)st.torn);
	memcpy(&w, p, 4);
	tap_is_int((int)(w & 31), 1, "the first raw record is CTF event 1 (raw id A), no payload");
	memcpy(&w, p + 4, 4);
	tap_is_int((int)(w & 31), 2, "the second is CTF event 2 (raw id B)");
	tap_ok(!memcmp(p + 8, &ps.tid, 28), "... its payload the written bytes after the raw id");
	memcpy(&w, p + 36, 4);
	tap_is_int((int)(w & 31), 5, "then the ordinary event, by its ftrace id");
	memcpy(&w, p + 40 + fp_decode_payload(p + 40, PKT_SIZE, &evs[0].f), 4);
	tap_is_int((int)(w & 31), 1, "then raw id A again");
}

static void check_raw(void)
{
	static struct ltt_ftrace_event start, ps, other;
	struct ltt_ftrace_conv c;
	uint32_t i;

	raw_layout(&start, false);
	raw_layout(&ps, true);
	conv_setup(&c, false);
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_A, 9, &start), 0, "a raw id mapped");
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_A, 1, &start), 0, "... mapped again (replaced)");
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_B, 2, &ps), 0, "a second raw id mapped");
	tap_is_int(ltt_ftrace_conv_map_raw(&c, 0, 3, &start), -EINVAL, "raw id 0 refused");
	other = start;
	other.id = FP_RAW_ID + 1;
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_A + 5, 3, &other), -EINVAL,
		   "a raw layout of another ftrace id than the first's refused");
	other = start;
	other.min_size = 10;
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_A + 5, 3, &other), -EINVAL,
		   "a raw layout without room for the raw id refused");
	check_raw_page(&c);
	for (i = 2; i < LTT_FTRACE_CONV_RAW_MAX; i++)
		ltt_ftrace_conv_map_raw(&c, RAW_A + 10 + i, 3, &start);
	tap_is_int(ltt_ftrace_conv_map_raw(&c, RAW_A + 100, 3, &start), -ENOSPC,
		   "more than LTT_FTRACE_CONV_RAW_MAX raw ids refused");
	ltt_ftrace_conv_fini(&c);
}

/* A quick figure: CPU ns per event on this machine (thread CPU time: a busy
 * machine's waits left out). */
static void bench(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	struct timespec a, b;
	unsigned int i, k;
	double ns;

	conv_setup(&c, true);
	fp_page_init(&pg, 1);
	for (i = 0; i < 60; i++)
		fp_record(&pg, 100, 1234, i, "getppid", 1);
	fp_page_finish(&pg, 0, 0);
	sink.n = 0;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	for (k = 0; k < 20000; k++)
		ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	ltt_ftrace_conv_stats(&c, &st);
	ns = (double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec);
	tap_diag("conversion: %.1f CPU ns/event (%llu events, %llu packets of %d bytes)",
		 ns / (double)st.events, (unsigned long long)st.events,
		 (unsigned long long)st.packets, PKT_SIZE);
	ltt_ftrace_conv_fini(&c);
}

/*
 * A field with a bias (the scheduler's prio: the kernel's less 100) is
 * written with it added, wrapping as a 32-bit integer; the record's
 * other fields as they are.
 */
static void check_bias(void)
{
	struct ltt_ftrace_field saved = layout.fields[0];	/* u32 a */
	struct ltt_ftrace_conv c;

	layout.fields[0].is_signed = 1;
	layout.fields[0].bias = -100;
	conv_setup(&c, false);
	fp_page_init(&pg, 1000);
	fp_record(&pg, 10, 1, 120, "nice 0", 0);
	fp_record(&pg, 10, 2, INT32_MIN + 5, "wraps", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	tap_ok(sink.n == 1 && decode(sink.pkts[0], false, evs, 16) == 2 &&
	       (int32_t)evs[0].f.a == 20 && !strcmp(evs[0].f.s, "nice 0") &&
	       evs[1].f.a == (uint32_t)INT32_MIN + 5 - 100u,
	       "a biased field: 120 written as 20, INT32_MIN + 5 wraps, the rest as it is");
	ltt_ftrace_conv_fini(&c);
	layout.fields[0] = saved;
}

/* A thread that waits until told, so that its tid stays alive. */
static pthread_mutex_t hold = PTHREAD_MUTEX_INITIALIZER;
static volatile int32_t held_tid;

static void *held_thread(void *arg)
{
	(void)arg;
	held_tid = (int32_t)syscall(SYS_gettid);
	pthread_mutex_lock(&hold);
	pthread_mutex_unlock(&hold);
	return NULL;
}

/*
 * A derived thread-group field (sched_process_fork's parent_pid and
 * child_pid) reads a tid in the record and writes its thread group: a
 * live thread of this process gives this process's pid; a tid /proc
 * doesn't know, and the idle task (0), give themselves.
 */
static void check_tgid(void)
{
	struct ltt_ftrace_field saved = layout.fields[0];	/* u32 a */
	struct ltt_ftrace_conv c;
	pthread_t t;
	int32_t gone = INT32_MAX - 1;	/* above any pid_max */

	pthread_mutex_lock(&hold);
	if (pthread_create(&t, NULL, held_thread, NULL)) {
		pthread_mutex_unlock(&hold);
		tap_ok(false, "a thread to look up");
		return;
	}
	while (!__atomic_load_n(&held_tid, __ATOMIC_ACQUIRE))
		sched_yield();
	layout.fields[0].is_signed = 1;
	layout.fields[0].derived = LTT_FTRACE_DERIVED_TGID;
	layout.fields[0].elem_size = 4;
	conv_setup(&c, false);
	fp_page_init(&pg, 1000);
	fp_record(&pg, 10, 1, (uint32_t)held_tid, "thread", 0);
	fp_record(&pg, 10, 2, (uint32_t)gone, "gone", 0);
	fp_record(&pg, 10, 3, 0, "idle", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	pthread_mutex_unlock(&hold);
	pthread_join(t, NULL);
	tap_ok(held_tid != getpid() && sink.n == 1 && decode(sink.pkts[0], false, evs, 16) == 3 &&
	       (int32_t)evs[0].f.a == getpid() && !strcmp(evs[0].f.s, "thread"),
	       "a thread-group field: a thread's tid (%d) written as its process (%d)",
	       (int)held_tid, (int)getpid());
	tap_ok((int32_t)evs[1].f.a == gone && evs[2].f.a == 0,
	       "a tid /proc doesn't know and the idle task: themselves");
	ltt_ftrace_conv_fini(&c);
	layout.fields[0].bias = -100;
	ltt_ftrace_conv_init(&c, uuid, 7, 3, PKT_SIZE, NULL);
	tap_is_int(ltt_ftrace_conv_map(&c, FP_ID, 5, &layout), -EINVAL,
		   "a field both biased and derived: the layout refused");
	ltt_ftrace_conv_fini(&c);
	layout.fields[0] = saved;
}

/*
 * A layout with structures (the BPF source's poll fds and epoll_ctl
 * event, src/abi/ltt-abi.h's STRUCT types) on the raw_data id: n_length, a
 * sequence n of {a: 2 bytes, f: {x: 1 bit, pad: 7 bits}}, a structure e
 * of {v: 2 bytes, base 16}.
 */
static void struct_layout(struct ltt_ftrace_event *ev)
{
	static const struct ltt_ftrace_field fields[] = {
		{ .name = "n_length", .kind = LTT_FTRACE_INT, .offset = 8, .size = 4, .elem_size = 4,
		  .base = 10 },
		{ .name = "n", .kind = LTT_FTRACE_STRUCTS, .offset = 12, .size = 4, .elem_size = 3,
		  .length = 4 },
		{ .name = "a", .kind = LTT_FTRACE_INT, .size = 2, .elem_size = 2, .base = 10 },
		{ .name = "f", .kind = LTT_FTRACE_STRUCT, .size = 1, .length = 2 },
		{ .name = "x", .kind = LTT_FTRACE_INT, .length = 1, .base = 10 },
		{ .name = "pad", .kind = LTT_FTRACE_INT, .length = 7, .base = 10 },
		{ .name = "e", .kind = LTT_FTRACE_STRUCT, .offset = 16, .size = 2, .length = 1 },
		{ .name = "v", .kind = LTT_FTRACE_INT, .size = 2, .elem_size = 2, .base = 16 },
	};

	memset(ev, 0, sizeof(*ev));
	ev->id = FP_RAW_ID;
	snprintf(ev->system, sizeof(ev->system), "ltt");
	snprintf(ev->name, sizeof(ev->name), "structs");
	ev->pid_offset = 4;
	ev->min_size = 18;
	ev->nr_fields = sizeof(fields) / sizeof(fields[0]);
	memcpy(ev->fields, fields, sizeof(fields));
}

static void check_structs(void)
{
	static const uint8_t want[] = { 2, 0, 0, 0, 7, 0, 1, 0xfe, 0xff, 0xfe, 0xef, 0xbe };
	static struct ltt_ftrace_event ev, bad;
	struct ltt_ftrace_conv_stats st;
	struct ltt_ftrace_conv c;
	uint8_t rec[18];	/* the record after its 8-byte common header */
	uint32_t v;

	struct_layout(&ev);
	conv_setup(&c, false);
	tap_is_int(ltt_ftrace_conv_map(&c, FP_RAW_ID, 6, &ev), 0,
		   "structs: a layout with structures mapped");
	bad = ev;
	bad.fields[5].length = 6;
	tap_is_int(ltt_ftrace_conv_map(&c, FP_RAW_ID, 6, &bad), -EINVAL,
		   "structs: a structure whose members' bits don't fill its bytes refused");
	bad = ev;
	snprintf(bad.fields[0].name, sizeof(bad.fields[0].name), "count");
	tap_is_int(ltt_ftrace_conv_map(&c, FP_RAW_ID, 6, &bad), -EINVAL,
		   "structs: a sequence of structures no n_length counts refused");
	bad = ev;
	bad.fields[1].length = 7;
	tap_is_int(ltt_ftrace_conv_map(&c, FP_RAW_ID, 6, &bad), -EINVAL,
		   "structs: members past the layout's fields refused");
	/* after the common header: n_length 2, n's __data_loc, e, 2 bytes, n's 2 elements */
	v = 2;
	memcpy(rec, &v, 4);
	v = 6u << 16 | 20;
	memcpy(rec + 4, &v, 4);
	memcpy(rec + 8, (const uint8_t[]){ 0xef, 0xbe, 0, 0, 7, 0, 1, 0xfe, 0xff, 0xfe }, 10);
	fp_page_init(&pg, 2000);
	fp_record_raw(&pg, 1, 9, rec, sizeof(rec));
	v = 3;					/* a count the __data_loc disagrees with */
	memcpy(rec, &v, 4);
	fp_record_raw(&pg, 1, 9, rec, sizeof(rec));
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	ltt_ftrace_conv_flush(&c, sink_emit, &sink);
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(st.events == 1 && st.torn == 1,
	       "structs: one record converted; one whose n_length disagrees with its elements torn (events %llu torn %llu)",
	       (unsigned long long)st.events, (unsigned long long)st.torn);
	memcpy(&v, sink.pkts[0] + LTT_RB_PACKET_HEADER_SIZE, 4);
	tap_ok((v & 31) == 6 && !memcmp(sink.pkts[0] + LTT_RB_PACKET_HEADER_SIZE + 4, want, sizeof(want)),
	       "structs: n_length, n's elements packed as recorded (no count of their own), then e");
	ltt_ftrace_conv_fini(&c);
}

/* A page at 1000 with two records, "a" at 1010 and "b" at 1020, converted by @c. */
static void convert_page_ab(struct ltt_ftrace_conv *c)
{
	fp_page_init(&pg, 1000);
	fp_record(&pg, 10, 1, 1, "a", 0);
	fp_record(&pg, 10, 1, 2, "b", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(c, pg.b, PAGE, sink_emit, &sink);
}

/*
 * The stream covers its start and stop (lttng-modules'): the first packet
 * begins at ltt_ftrace_conv_set_begin()'s time, a close at a time ends
 * the packet there, or emits an empty one with nothing open; a record
 * stamped before it, converted after, is raised to it, in the next
 * packet, which begins there.
 */
static void check_span(void)
{
	struct ltt_ftrace_conv c;
	struct ltt_ftrace_conv_stats st;
	const uint8_t *p;

	conv_setup(&c, false);
	ltt_ftrace_conv_set_begin(&c, 900);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 950, sink_emit, &sink), 0, "span: a close at 950, nothing recorded");
	p = sink.pkts[0];
	tap_ok(sink.n == 1 && get64(p, LTT_RB_PH_TIMESTAMP_BEGIN) == 900 &&
	       get64(p, LTT_RB_PH_TIMESTAMP_END) == 950 &&
	       get64(p, LTT_RB_PH_CONTENT_SIZE) == LTT_RB_PACKET_HEADER_SIZE * 8 &&
	       get64(p, LTT_RB_PH_PACKET_SEQ_NUM) == 0,
	       "span: an empty packet from the start to the close, seq 0");
	convert_page_ab(&c);
	ltt_ftrace_conv_add_discarded(&c, 2);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 2000, sink_emit, &sink), 0, "span: a close at 2000");
	p = sink.pkts[1];
	tap_ok(sink.n == 2 && decode(p, false, evs, 4) == 2 &&
	       get64(p, LTT_RB_PH_TIMESTAMP_BEGIN) == 950 && evs[0].ts == 1010 &&
	       evs[1].ts == 1020 && get64(p, LTT_RB_PH_TIMESTAMP_END) == 2000 &&
	       get64(p, LTT_RB_PH_PACKET_SEQ_NUM) == 1 &&
	       get64(p, LTT_RB_PH_EVENTS_DISCARDED) == 2,
	       "span: the next packet begins at the last close, ends at this one, seq 1, discarded 2");
	fp_page_init(&pg, 1500);	/* committed before the close, read after */
	fp_record(&pg, 0, 1, 3, "c", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 1800, sink_emit, &sink), 0,
		   "span: a close before the stream's latest time");
	p = sink.pkts[2];
	ltt_ftrace_conv_stats(&c, &st);
	tap_ok(sink.n == 3 && decode(p, false, evs, 4) == 1 && evs[0].ts == 2000 &&
	       get64(p, LTT_RB_PH_TIMESTAMP_BEGIN) == 2000 &&
	       get64(p, LTT_RB_PH_TIMESTAMP_END) == 2000 && st.clamped == 1 &&
	       get64(p, LTT_RB_PH_PACKET_SEQ_NUM) == 2,
	       "span: a record stamped before the close raised to it (clamped 1), within its packet");
	tap_is_int(ltt_ftrace_conv_flush(&c, sink_emit, &sink), -ENODATA,
		   "span: a plain flush after it: nothing open, nothing emitted");
	ltt_ftrace_conv_fini(&c);
}

/*
 * The stream's floor holds where no time is known or a beacon's time was
 * read before a drain: a close at 0 (the pipe not read empty) with nothing
 * open gives an empty packet at the floor, not at 0; a live beacon read
 * before records stamped after it does not let the next packet begin
 * before the last one's end (a review).
 */
static void check_span_floor(void)
{
	struct ltt_ftrace_conv c;
	const uint8_t *p;

	conv_setup(&c, false);
	ltt_ftrace_conv_set_begin(&c, 900);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 0, sink_emit, &sink), 0,
		   "span floor: a close at no time, nothing recorded");
	p = sink.pkts[0];
	tap_ok(sink.n == 1 && get64(p, LTT_RB_PH_TIMESTAMP_BEGIN) == 900 &&
	       get64(p, LTT_RB_PH_TIMESTAMP_END) == 900,
	       "span floor: its empty packet is at the stream's start, not at 0");
	convert_page_ab(&c);
	tap_is_int(ltt_ftrace_conv_flush(&c, sink_emit, &sink), 0, "span floor: the tick's switch");
	ltt_ftrace_conv_idle(&c, 1015);	/* read before the drain that found 1020 */
	fp_page_init(&pg, 1030);
	fp_record(&pg, 0, 1, 3, "c", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 1040, sink_emit, &sink), 0, "span floor: a close at 1040");
	tap_ok(sink.n == 3 && get64(sink.pkts[1], LTT_RB_PH_TIMESTAMP_END) == 1020 &&
	       get64(sink.pkts[2], LTT_RB_PH_TIMESTAMP_BEGIN) == 1020 &&
	       get64(sink.pkts[2], LTT_RB_PH_TIMESTAMP_END) == 1040,
	       "span floor: after a beacon at 1015 the next packet begins at 1020, where the last ended");
	ltt_ftrace_conv_idle(&c, 1100);
	fp_page_init(&pg, 1200);
	fp_record(&pg, 0, 1, 4, "d", 0);
	fp_page_finish(&pg, 0, 0);
	ltt_ftrace_conv_page(&c, pg.b, PAGE, sink_emit, &sink);
	tap_is_int(ltt_ftrace_conv_close_at(&c, 1300, sink_emit, &sink), 0, "span floor: a close at 1300");
	tap_ok(sink.n == 4 && get64(sink.pkts[3], LTT_RB_PH_TIMESTAMP_BEGIN) == 1100,
	       "span floor: a beacon later than the last packet's end is where the next begins");
	ltt_ftrace_conv_fini(&c);
}

int main(void)
{
	if (!fp_layout(&layout)) {
		tap_ok(false, "the test layout parses");
		return tap_done();
	}
	check_entries();
	check_missed();
	check_side();
	check_side_torn();
	check_torn();
	check_packets();
	check_api();
	check_bias();
	check_tgid();
	check_raw();
	check_structs();
	check_span();
	check_span_floor();
	bench();
	ftrace_real_test();
	return tap_done();
}
