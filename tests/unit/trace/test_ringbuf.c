// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ringbuf.c - unit tests of common/trace/ringbuf.c: geometry and hostile
 * headers, one writer, concurrent threads and processes, loss accounting,
 * flush and abandon (overwrite mode: test_ringbuf_overwrite.c; a hostile
 * region: test_ringbuf_hostile.c).  The test events and the checker of
 * what a reader gets: rb-harness.h.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/rb-harness.h"
#include "tests/unit/tap.h"

/*
 * The tests.
 */

static void test_geometry(void)
{
	tap_is_u64(rbh_doff(2), 36864, "data offset of 2 sub-buffers: 9 pages (writer area 33 KiB)");
	tap_is_u64(ltt_rb_region_size(4096, 2), rbh_doff(2) + 2 * 4096, "region size 2 x 4 KiB");
	tap_is_u64(ltt_rb_region_size(4096, 64), rbh_doff(64) + 64 * 4096,
		   "region size 64 x 4 KiB: commit records spill onto another page");
	tap_is_u64(rbh_doff(64), 40960, "data offset of 64 sub-buffers: 10 pages");
	tap_is_u64(ltt_rb_region_size(1 << 20, 4), rbh_doff(4) + 4 * (1 << 20), "region size 4 x 1 MiB");
	tap_is_u64(ltt_rb_region_size(4096, 1), 0, "one sub-buffer is refused");
	tap_is_u64(ltt_rb_region_size(2048, 2), 0, "sub-buffers under 4 KiB are refused");
	tap_is_u64(ltt_rb_region_size(12288, 2), 0, "sub-buffer size not a power of two");
	tap_is_u64(ltt_rb_region_size(4096, 6), 0, "count not a power of two");
	tap_is_u64(ltt_rb_region_size((uint64_t)1 << 33, 2), 0, "sub-buffer over 4 GiB");
	tap_is_u64(ltt_rb_region_size(4096, (uint64_t)1 << 21), 0, "count over 2^20");
	tap_is_u64(ltt_rb_region_size((uint64_t)1 << 63, (uint64_t)1 << 63), 0, "huge geometry");
	tap_is_u64(ltt_rb_region_size(0, 0), 0, "zero geometry");
	tap_is_int(LTT_RB_PACKET_HEADER_SIZE, 32 + 52, "packet header + context is 84 bytes");
}

/* Mutate one header field of a valid region and expect attach to refuse. */
struct corruption {
	const char *what;
	size_t off;
	size_t size;
	uint64_t value;
};

static const struct corruption corruptions[] = {
	{ "bad magic", offsetof(struct ltt_rb_shm, magic), 4, 0x12345678 },
	{ "bad ABI version", offsetof(struct ltt_rb_shm, abi_version), 4, LTT_RB_ABI_VERSION + 1 },
	{ "version 1 (commit words without events)", offsetof(struct ltt_rb_shm, abi_version), 4, 1 },
	{ "version 2 (no writer area)", offsetof(struct ltt_rb_shm, abi_version), 4, 2 },
	{ "sub-buffer size 0", offsetof(struct ltt_rb_shm, subbuf_size), 8, 0 },
	{ "sub-buffer size not a power of two", offsetof(struct ltt_rb_shm, subbuf_size), 8, 12288 },
	{ "sub-buffer size too small", offsetof(struct ltt_rb_shm, subbuf_size), 8, 2048 },
	{ "sub-buffer size 2^63", offsetof(struct ltt_rb_shm, subbuf_size), 8, (uint64_t)1 << 63 },
	{ "sub-buffer size not matching len", offsetof(struct ltt_rb_shm, subbuf_size), 8, 8192 },
	{ "count 1", offsetof(struct ltt_rb_shm, num_subbuf), 8, 1 },
	{ "count 3", offsetof(struct ltt_rb_shm, num_subbuf), 8, 3 },
	{ "count 2^62", offsetof(struct ltt_rb_shm, num_subbuf), 8, (uint64_t)1 << 62 },
	{ "count all ones", offsetof(struct ltt_rb_shm, num_subbuf), 8, UINT64_MAX },
	{ "count not matching len", offsetof(struct ltt_rb_shm, num_subbuf), 8, 2 },
	{ "data offset", offsetof(struct ltt_rb_shm, data_offset), 8, 0 },
	{ "data offset past the end", offsetof(struct ltt_rb_shm, data_offset), 8, UINT64_MAX - 4095 },
	{ "overwrite flag 2", offsetof(struct ltt_rb_shm, overwrite), 2, 2 },
	{ "clock 4 (no such clock)", offsetof(struct ltt_rb_shm, clock), 2, LTT_TCLOCK_KIND_MAX + 1 },
	{ "a clock base without the TSC", offsetof(struct ltt_rb_shm, clock_base), 8, 1 },
};

static void test_attach(void)
{
	struct rbh_region r = { .fd = -1 };
	uint8_t saved[sizeof(struct ltt_rb_shm)];
	struct ltt_rb rb, rb2;
	unsigned int i, accepted = 0, bad = 0;
	uint64_t v;
	int ret;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, false) == 0, "create a 4 x 4 KiB region"))
		return;
	memcpy(saved, r.mem, sizeof(saved));
	tap_is_int(ltt_rb_attach(&rb, r.mem, r.len), 0, "attach a valid region");
	tap_ok(rb.subbuf_size == 4096 && rb.num_subbuf == 4 && !rb.overwrite &&
	       rb.stream_id == STREAM_ID && rb.cpu == CPU && rb.wakeup_fd == -1,
	       "the handle caches the geometry and identity");
	tap_is_int(ltt_rb_attach(NULL, r.mem, r.len), -EINVAL, "attach: NULL handle");
	tap_is_int(ltt_rb_attach(&rb, NULL, r.len), -EINVAL, "attach: NULL region");
	tap_is_int(ltt_rb_attach(&rb, r.mem, r.len - 1), -EINVAL, "attach: len one short");
	tap_is_int(ltt_rb_attach(&rb, r.mem, r.len - 4096), -EINVAL, "attach: len a page short");
	tap_is_int(ltt_rb_attach(&rb, r.mem, r.len + 4096), -EINVAL, "attach: len a page long");
	tap_is_int(ltt_rb_attach(&rb, r.mem, 16), -EINVAL, "attach: len shorter than the header");
	tap_is_int(ltt_rb_attach(&rb, (uint8_t *)r.mem + 8, r.len - 8), -EINVAL,
		   "attach: misaligned region");
	for (i = 0; i < sizeof(corruptions) / sizeof(corruptions[0]); i++) {
		const struct corruption *c = &corruptions[i];

		memcpy(r.mem, saved, sizeof(saved));
		if (c->size == 4) {
			uint32_t v32 = (uint32_t)c->value;

			memcpy((uint8_t *)r.mem + c->off, &v32, 4);
		} else {
			memcpy((uint8_t *)r.mem + c->off, &c->value, 8);
		}
		memset(&rb2, 0xa5, sizeof(rb2));
		ret = ltt_rb_attach(&rb2, r.mem, r.len);
		tap_is_int(ret, -EINVAL, "attach refuses a header with %s", c->what);
	}

	/* random corruption of a few header bytes: refused or consistent, no crash */
	srand(1);
	for (i = 0; i < 200000; i++) {
		unsigned int k, n = 1 + (unsigned int)rand() % 4;

		memcpy(r.mem, saved, sizeof(saved));
		for (k = 0; k < n; k++)
			((uint8_t *)r.mem)[(unsigned int)rand() % 64] = (uint8_t)rand();
		ret = ltt_rb_attach(&rb2, r.mem, r.len);
		if (ret == 0) {
			accepted++;
			if (ltt_rb_region_size(rb2.subbuf_size, rb2.num_subbuf) != r.len ||
			    rb2.subbuf_size - HDR != rb2.max_len)
				bad++;
		} else if (ret != -EINVAL) {
			bad++;
		}
	}
	tap_is_int(bad, 0, "200000 randomly corrupted headers: refused or consistent (%u accepted)",
		   accepted);

	/* init refuses what attach would refuse */
	memcpy(r.mem, saved, sizeof(saved));
	{
		struct ltt_rb_config cfg = { .subbuf_size = 4096, .num_subbuf = 4 };

		tap_is_int(ltt_rb_init_region(r.mem, r.len - 1, &cfg), -EINVAL, "init: len mismatch");
		cfg.num_subbuf = 5;
		tap_is_int(ltt_rb_init_region(r.mem, r.len, &cfg), -EINVAL, "init: bad count");
		tap_is_int(ltt_rb_init_region(r.mem, r.len, NULL), -EINVAL, "init: NULL config");
	}
	v = ltt_rb_events_lost(&rb);
	tap_is_u64(v, 0, "a new stream has lost nothing");
	rbh_region_destroy(&r);
}

/* Boundary lengths, exact fills and the loss counter, single-threaded. */
static void test_lengths(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb_slot slot;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint64_t i;

	if (!tap_ok(rbh_region_create(&r, 4096, 2, false) == 0, "create a 2 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, true, true);
	tap_is_int(ltt_rb_reserve(&rb, 0, &slot), -EINVAL, "reserve 0 bytes: -EINVAL");
	tap_is_int(ltt_rb_reserve(&rb, 4096 - HDR + 1, &slot), -EMSGSIZE,
		   "reserve more than a sub-buffer holds: -EMSGSIZE");
	tap_is_int(ltt_rb_reserve(&rb, SIZE_MAX, &slot), -EMSGSIZE, "reserve SIZE_MAX: -EMSGSIZE");
	tap_is_u64(ltt_rb_events_lost(&rb), 2, "oversized events are counted as lost");
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EAGAIN, "nothing to read yet");

	/* one event filling a packet exactly completes it at commit */
	tap_is_int(rbh_ev_write(&rb, 0, 0, 4096 - HDR), 0, "an event of exactly subbuf_size - 84 bytes");
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "the exactly full packet is readable");
	tap_is_u64(pkt.content_size, 4096, "its content is the whole sub-buffer");
	tap_is_u64(pkt.events_discarded, 2, "its events_discarded is the running total");
	tap_is_u64(pkt.region_offset, rbh_doff(2), "the packet lies at the data offset");
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(ltt_rb_put_subbuf(&rb, &pkt), -EINVAL, "putting it twice is refused");

	/* exact fill by several events: 4012 = 17 * 236 */
	for (i = 1; i <= 17; i++)
		rbh_ev_write(&rb, 0, i, 236);
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "a packet filled exactly by 17 events");
	tap_is_u64(pkt.content_size, 4096, "content is the whole sub-buffer");
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_u64(c.total, 18, "18 events read");
	tap_is_int(c.errors, 0, "packets and events intact");
	tap_is_int(ltt_rb_flush(&rb, false), -ENODATA, "flush with nothing open: -ENODATA");
	tap_is_int(ltt_rb_flush(&rb, true), 0, "flush even if empty: an empty packet");
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "the empty packet is readable");
	tap_ok(pkt.content_size == HDR && pkt.timestamp_begin == pkt.timestamp_end,
	       "empty packet: header only, begin == end");
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(c.errors, 0, "empty packet well-formed");
	rbh_region_destroy(&r);
}

/* ltt_rb_slot_ts_fits(): first event of a packet, then a large gap. */
static void test_timestamps(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_slot a, b, d;
	struct ltt_rb rb;

	if (!tap_ok(rbh_region_create(&r, 4096, 2, false) == 0, "create a region"))
		return;
	rbh_must_attach(&rb, &r);
	ltt_rb_reserve(&rb, 100, &a);
	ltt_rb_commit(&rb, &a);
	tap_ok(a.ts_delta == 0 && ltt_rb_slot_ts_fits(&a, 1),
	       "the first event of a packet always fits (its ts is timestamp_begin)");
	usleep(2000);
	ltt_rb_reserve(&rb, 100, &b);
	ltt_rb_commit(&rb, &b);
	tap_ok(b.ts >= a.ts + 2000000 && b.ts_delta >= 2000000, "2 ms later, delta >= 2 ms");
	/*
	 * 2 ms fit 27 bits (134 ms), but usleep() may pause far longer on a
	 * loaded machine: the answer must match the delta measured.
	 */
	tap_ok(ltt_rb_slot_ts_fits(&b, 27) == (b.ts_delta < ((uint64_t)1 << 27)) &&
	       !ltt_rb_slot_ts_fits(&b, 20) && ltt_rb_slot_ts_fits(&b, 64),
	       "after 2 ms or more (%" PRIu64 " ns): fits 27 bits when below 2^27 ns, never 20",
	       b.ts_delta);
	/* a hostile last_ts in the future only makes the answer "extended" */
	__atomic_store_n(&rb.shm->last_ts, UINT64_MAX - 5, __ATOMIC_RELAXED);
	ltt_rb_reserve(&rb, 100, &d);
	ltt_rb_commit(&rb, &d);
	tap_ok(!ltt_rb_slot_ts_fits(&d, 32), "a last_ts in the future asks for a full timestamp");
	rbh_region_destroy(&r);
}

/*
 * A time gap of @gap ns since the stream's last event, as a writer sees
 * it: the ring buffer compares its clock with last_ts, so moving last_ts
 * back is what a pause of @gap would leave, without the wait.
 */
static void pretend_gap(struct ltt_rb *rb, uint64_t gap)
{
	__atomic_store_n(&rb->shm->last_ts, ltt_rb_clock(rb) - gap, __ATOMIC_RELAXED);
}

/* Reserve with ltt_rb_reserve_ts(), fill with @fill, commit. */
static int ts_event(struct ltt_rb *rb, size_t short_len, size_t long_len, unsigned int bits,
		    uint8_t fill, struct ltt_rb_slot *slot)
{
	int ret = ltt_rb_reserve_ts(rb, short_len, long_len, bits, slot);

	if (ret == 0) {
		memset(slot->data, fill, slot->len);
		ltt_rb_commit(rb, slot);
	}
	return ret;
}

/*
 * ltt_rb_reserve_ts(), the size picked inside the reservation with CTF's
 * 27 bits: at a packet's start, after a gap of 2^28 ns, with a hostile
 * last_ts, at a packet's end where only the short size fits, and for an
 * exact fill with the long size.
 */
static void test_reserve_ts(void)
{
	const uint64_t gap = (uint64_t)1 << 28, S = 4096;
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_slot e1, e2, e3, e4, e5, e6, e7, f;
	struct ltt_rb_packet pkt;
	struct ltt_rb rb, rd;
	bool consistent = true;

	if (!tap_ok(rbh_region_create(&r, S, 4, false) == 0, "reserve_ts: create a 4 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	rbh_must_attach(&rd, &r);
	tap_is_int(ltt_rb_reserve_ts(&rb, 0, 10, 27, &f), -EINVAL, "reserve_ts: short size 0");
	tap_is_int(ltt_rb_reserve_ts(&rb, 11, 10, 27, &f), -EINVAL,
		   "reserve_ts: short size above the long one");
	tap_is_int(ltt_rb_reserve_ts(&rb, 10, 10, 64, &f), -EINVAL, "reserve_ts: 64 bits");
	tap_is_int(ltt_rb_reserve_ts(&rb, 10, S - HDR + 1, 27, &f), -EMSGSIZE,
		   "reserve_ts: long size larger than a sub-buffer holds");
	tap_is_u64(ltt_rb_events_lost(&rb), 1, "reserve_ts: and counted as lost");

	/* packet 0 */
	pretend_gap(&rb, gap);
	tap_ok(ts_event(&rb, 100, 109, 27, 1, &e1) == 0 && e1.len == 100 && e1.ts_delta == 0 &&
	       e1.pos == HDR, "opening a packet after a gap: short (its ts is timestamp_begin)");
	tap_ok(ts_event(&rb, 100, 109, 27, 2, &e2) == 0 && e2.len == 100 && e2.pos == HDR + 100,
	       "right after: short");
	pretend_gap(&rb, gap);
	tap_ok(ts_event(&rb, 100, 109, 27, 3, &e3) == 0 && e3.len == 109 && e3.ts_delta >= gap,
	       "after a 2^28 ns gap: long");
	__atomic_store_n(&rb.shm->last_ts, UINT64_MAX - 5, __ATOMIC_RELAXED);
	tap_ok(ts_event(&rb, 100, 109, 27, 4, &e4) == 0 && e4.len == 109,
	       "a last_ts in the future (hostile): long");
	consistent &= (e2.len == 100) == !(e2.ts_delta >> 27);
	consistent &= (e3.len == 100) == !(e3.ts_delta >> 27);
	consistent &= (e4.len == 100) == !(e4.ts_delta >> 27);
	tap_ok(consistent, "inside a packet, short exactly when ts_delta < 2^27");
	/* fill to S - 105: 100 more bytes fit, 109 do not */
	tap_is_int(ts_event(&rb, S - 105 - (HDR + 418), S - 105 - (HDR + 418), 0, 0xf, &f), 0,
		   "fill packet 0 up to 105 bytes before its end");
	pretend_gap(&rb, gap);
	tap_ok(ts_event(&rb, 100, 109, 27, 5, &e5) == 0 && e5.len == 100 && e5.pos == S + HDR &&
	       e5.ts_delta == 0,
	       "at a packet's end, after a gap: opens the next packet with the short size");

	/* packet 1 */
	tap_is_int(ts_event(&rb, S - 105 - (HDR + 100), S - 105 - (HDR + 100), 0, 0xf, &f), 0,
		   "fill packet 1 up to 105 bytes before its end");
	tap_ok(ts_event(&rb, 100, 109, 27, 6, &e6) == 0 && e6.len == 100 && e6.pos == 2 * S - 105,
	       "at a packet's end, no gap: short, in the same packet");
	pretend_gap(&rb, gap);
	tap_ok(ts_event(&rb, 1, 5, 27, 7, &e7) == 0 && e7.len == 5 && e7.pos == 2 * S - 5,
	       "an exact fill with the long size");
	tap_is_u64(__atomic_load_n(&rb.shm->offset, __ATOMIC_RELAXED), 2 * S,
		   "the exact fill closed packet 1");

	tap_is_int(rbh_get_pkt(&rd, &pkt), 0, "packet 0 is readable");
	tap_is_u64(pkt.content_size, S - 105, "packet 0 was closed where the long size did not fit");
	tap_is_u64(pkt.timestamp_begin, e1.ts, "packet 0 begins at its first event");
	tap_is_u64(pkt.timestamp_end, e5.ts, "and ends at the event that opened packet 1");
	ltt_rb_put_subbuf(&rd, &pkt);
	tap_is_int(rbh_get_pkt(&rd, &pkt), 0, "packet 1 is readable");
	tap_ok(pkt.content_size == S && pkt.timestamp_begin == e5.ts &&
	       pkt.timestamp_end == e7.ts, "packet 1: full, from e5's timestamp to e7's");
	tap_ok(((const uint8_t *)pkt.data)[HDR] == 5 && ((const uint8_t *)pkt.data)[S - 1] == 7,
	       "packet 1 holds e5 first and e7 last");
	ltt_rb_put_subbuf(&rd, &pkt);
	tap_is_int(ltt_rb_flush(&rd, false), -ENODATA, "nothing else open");
	rbh_region_destroy(&r);
}

/* One writer, a draining reader, no loss allowed (the writer retries). */
/*
 * A writer prefetches LTT_RB_PREFETCH_AHEAD bytes past its slot: inside the
 * data area, which ends the mapping, also for the last sub-buffer's last
 * slots (wrapped to the first).
 */
static void test_prefetch_in_area(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb rb;
	const char *data, *end, *p;
	uint64_t lap = 3 * 4 * 4096, pos;
	bool inside = true;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, false) == 0, "create a 4 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	data = rb.data;
	end = data + rb.buf_size;
	tap_ok((const char *)r.mem + r.len == end, "the data area ends the mapping");
	/* every 8-byte slot start of a whole lap, three laps on */
	for (pos = lap; pos < lap + rb.buf_size; pos += 8) {
		p = ltt_rb_prefetch_at(&rb, pos);
		inside &= p >= data && p < end;
	}
	tap_ok(inside, "every prefetch lies in the data area");
	pos = lap + rb.buf_size - 64;	/* the last line of the last sub-buffer */
	tap_ok(ltt_rb_prefetch_at(&rb, pos) == data + LTT_RB_PREFETCH_AHEAD - 64,
	       "the last line's: the first sub-buffer's, not past the mapping");
	pos = lap + 100;
	tap_ok(ltt_rb_prefetch_at(&rb, pos) == data + 100 + LTT_RB_PREFETCH_AHEAD,
	       "elsewhere, LTT_RB_PREFETCH_AHEAD bytes past the slot");
	rbh_region_destroy(&r);
}

static void test_single_writer(void)
{
	struct rbh_region r = { .fd = -1 };
	struct rbh_writer w = { .id = 0, .n = 200000, .max = 2000, .retry = true, .ts_api = true };
	struct rbh_reader rd;
	struct ltt_rb wrb;

	if (!tap_ok(rbh_region_create(&r, 16 * KIB, 4, false) == 0, "create a 4 x 16 KiB region"))
		return;
	rbh_must_attach(&wrb, &r);
	if (!tap_ok(rbh_reader_start(&rd, &r, 16 * KIB, 1, true, true, false) == 0, "start the reader"))
		return;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	w.rb = &wrb;
	rbh_write_all(&w);
	rbh_reader_finish(&rd, &wrb);
	tap_is_u64(w.ok, w.n, "single writer: all %" PRIu64 " events reserved", w.n);
	tap_is_u64(rd.chk.events[0], w.n, "single writer: every event read once");
	tap_ok(rd.chk.first_seq[0] == 0 && rd.chk.last_seq[0] == w.n - 1,
	       "single writer: from the first to the last");
	tap_is_int(rd.chk.errors, 0, "single writer: in order, intact, packets well-formed");
	tap_is_u64(rd.chk.last_discarded, w.retries,
		   "single writer: events_discarded counts each attempt refused on a full buffer");
	tap_is_u64(rd.chk.packets, rd.chk.next_pkt_seq, "single writer: packet seq nums 0..N-1");
	tap_is_int(rd.timeouts, 0, "single writer: no lost wakeup (%lu sleeps, %lu late)", rd.sleeps,
		   rd.late);
	tap_ok(rd.chk.empty_packets == 1, "single writer: the final empty packet");
	rbh_region_destroy(&r);
}

/* Concurrent writer threads, optionally a flusher, discard mode. */
struct flusher {
	struct ltt_rb rb;
	int stop;
	unsigned long flushes;
	pthread_t thread;
};

static void *flusher_main(void *arg)
{
	struct flusher *f = arg;
	struct timespec ts = { 0, 50000 };

	while (!__atomic_load_n(&f->stop, __ATOMIC_ACQUIRE)) {
		if (ltt_rb_flush(&f->rb, false) == 0)
			f->flushes++;
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void test_threads(unsigned int nwriters, bool with_flusher, bool seek)
{
	const char *name = seek ? "threads at the carry" : with_flusher ? "threads+flush" : "threads";
	struct rbh_region r = { .fd = -1 };
	struct rbh_writer w[MAX_WRITERS];
	struct flusher f;
	struct rbh_reader rd;
	struct ltt_rb wrb;
	uint64_t written = 0, read = 0, lost, failed = 0;
	unsigned int i, mismatch = 0;

	if (!tap_ok(rbh_region_create(&r, 16 * KIB, 8, false) == 0, "%s: create a 8 x 16 KiB region", name))
		return;
	if (seek)
		rbh_region_seek(&r, SEEK_LAP);
	rbh_must_attach(&wrb, &r);
	if (!tap_ok(rbh_reader_start(&rd, &r, 16 * KIB, nwriters, true, false, false) == 0,
		    "%s: start the reader", name))
		return;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	memset(&f, 0, sizeof(f));
	if (with_flusher) {
		/*
		 * A flush whose padding completes the packet the reader sleeps
		 * on must wake it, as a writer's commit would: the flusher is
		 * not the reader, so it signals through the writers' eventfd
		 * (a handle without one leaves the reader asleep:
		 * test_ringbuf_wakeup.c).
		 */
		rbh_must_attach(&f.rb, &r);
		ltt_rb_set_wakeup_fd(&f.rb, rd.efd);
		pthread_create(&f.thread, NULL, flusher_main, &f);
	}
	for (i = 0; i < nwriters; i++) {
		/* half the writers let the ring buffer pick their size */
		w[i] = (struct rbh_writer){ .rb = &wrb, .id = i, .n = 400000, .max = 300,
					.ts_api = i & 1 };
		pthread_create(&w[i].thread, NULL, rbh_writer_main, &w[i]);
	}
	for (i = 0; i < nwriters; i++)
		pthread_join(w[i].thread, NULL);
	if (with_flusher) {
		__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
		pthread_join(f.thread, NULL);
	}
	rbh_reader_finish(&rd, &wrb);

	lost = ltt_rb_events_lost(&wrb);
	for (i = 0; i < nwriters; i++) {
		written += w[i].n;
		failed += w[i].nobufs + w[i].other;
		read += rd.chk.events[i];
		if (rd.chk.events[i] + w[i].nobufs != w[i].n || w[i].other)
			mismatch++;
	}
	tap_is_int(rd.chk.errors, 0, "%s: no torn, duplicate or reordered event; packets well-formed",
		   name);
	tap_is_u64(read + lost, written, "%s: read + lost == written (%" PRIu64 " + %" PRIu64 ")",
		   name, read, lost);
	tap_is_u64(rd.chk.pkt_events, read, "%s: the packets' event counts add up to the events read",
		   name);
	if (seek)
		tap_ok(rd.chk.next_pkt_seq >= rbh_seq_after_carry(8),
		       "%s: every sub-buffer went through the carry of its bytes field", name);
	tap_is_u64(lost, failed, "%s: lost == the writers' -ENOBUFS count", name);
	tap_is_int(mismatch, 0, "%s: per writer, read + dropped == written", name);
	tap_is_u64(rd.chk.last_discarded, lost, "%s: the last packet's events_discarded is the total",
		   name);
	tap_is_int(rd.timeouts, 0, "%s: no lost wakeup (%lu sleeps, %lu late)", name, rd.sleeps,
		   rd.late);
	tap_diag("%s: %" PRIu64 " packets, %" PRIu64 " short, %" PRIu64 " events, %" PRIu64
		 " lost, compact %" PRIu64 "/%" PRIu64 ", %lu flushes", name, rd.chk.packets,
		 rd.chk.short_packets, read, lost, rd.chk.fits_true,
		 rd.chk.fits_true + rd.chk.fits_false, f.flushes);
	/*
	 * Which sizes racing writers get depends on the scheduler (a loaded
	 * machine may give the ltt_rb_reserve_ts() writers no gap at all, or
	 * drop all their events): coverage, not a result, so it is only
	 * reported.  test_reserve_ts() checks both sizes deterministically.
	 */
	tap_diag("%s: %" PRIu64 " events sized by the ring buffer, %" PRIu64 " short, %" PRIu64
		 " long", name, rd.chk.ts_api, rd.chk.fits_true, rd.chk.fits_false);
	/*
	 * The same for the flusher: on a machine so loaded that it hardly
	 * ran (a CI run saw 3 flushes, the reader losing 797,156 of 800,000
	 * events) none may land inside a packet.
	 */
	if (with_flusher && f.flushes >= 20)
		tap_ok(rd.chk.short_packets > 0, "%s: flushes produced partial packets", name);
	else if (with_flusher)
		tap_skip("%s: only %lu flushes ran, too few to be sure one cut a packet short", name,
			 f.flushes);
	rbh_region_destroy(&r);
}

/* Three processes write one memfd mapping while a thread of the parent reads. */
static void test_processes(void)
{
	const unsigned int nproc = 3;
	struct rbh_region r = { .fd = -1 };
	struct rbh_writer *shared;
	struct rbh_reader rd;
	struct ltt_rb mrb;
	uint64_t written = 0, read = 0, lost;
	unsigned int i, mismatch = 0, bad_exit = 0;
	pid_t pids[3];
	int status;

	if (!tap_ok(rbh_region_create(&r, 16 * KIB, 8, false) == 0, "processes: create a region"))
		return;
	shared = mmap(NULL, sizeof(*shared) * nproc, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(shared != MAP_FAILED, "processes: shared results page"))
		return;
	rbh_must_attach(&mrb, &r);
	if (!tap_ok(rbh_reader_start(&rd, &r, 16 * KIB, nproc, true, false, false) == 0,
		    "processes: start the reader"))
		return;
	ltt_rb_set_wakeup_fd(&mrb, rd.efd);
	fflush(stdout);
	for (i = 0; i < nproc; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			struct ltt_rb crb;

			/* a writer process: its own handle on the inherited mapping */
			if (ltt_rb_attach(&crb, r.mem, r.len))
				_exit(2);
			ltt_rb_set_wakeup_fd(&crb, rd.efd);
			shared[i] = (struct rbh_writer){ .rb = &crb, .id = i, .n = 400000, .max = 300,
						     .ts_api = i & 1 };
			rbh_write_all(&shared[i]);
			_exit(0);
		}
	}
	for (i = 0; i < nproc; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad_exit++;
	}
	rbh_reader_finish(&rd, &mrb);
	tap_is_int(bad_exit, 0, "processes: all writers exited cleanly");
	lost = ltt_rb_events_lost(&mrb);
	for (i = 0; i < nproc; i++) {
		written += shared[i].n;
		read += rd.chk.events[i];
		if (rd.chk.events[i] + shared[i].nobufs != shared[i].n || shared[i].other)
			mismatch++;
	}
	tap_is_int(rd.chk.errors, 0, "processes: no torn, duplicate or reordered event");
	tap_is_u64(read + lost, written, "processes: read + lost == written (%" PRIu64 " + %" PRIu64 ")",
		   read, lost);
	tap_is_u64(rd.chk.pkt_events, read, "processes: the packets' event counts add up");
	tap_is_int(mismatch, 0, "processes: per writer, read + dropped == written");
	tap_is_u64(rd.chk.last_discarded, lost, "processes: last events_discarded is the total");
	tap_is_int(rd.timeouts, 0, "processes: no lost wakeup (%lu sleeps, %lu late)", rd.sleeps,
		   rd.late);
	munmap(shared, sizeof(*shared) * nproc);
	rbh_region_destroy(&r);
}

/* 2 x 4 KiB, the reader stopped: exactly two packets' worth survive. */
static void test_tiny_full(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint64_t seq, ok = 0, nobufs = 0, discarded0, discarded1;

	if (!tap_ok(rbh_region_create(&r, 4096, 2, false) == 0, "tiny: create a 2 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, true, false);
	for (seq = 0; seq < 1000; seq++) {
		int ret = rbh_ev_write(&rb, 0, seq, 64);

		ok += ret == 0;
		nobufs += ret == -ENOBUFS;
	}
	/* (4096 - 84) / 64 = 62 events per packet, two packets */
	tap_is_u64(ok, 124, "tiny: 124 events fit in two packets");
	tap_is_u64(nobufs, 1000 - ok, "tiny: every other reserve is refused with -ENOBUFS");
	tap_is_u64(ltt_rb_events_lost(&rb), 1000 - ok, "tiny: lost == written - reserved");
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "tiny: the first packet is complete");
	discarded0 = pkt.events_discarded;
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EAGAIN, "tiny: the second is still open");
	tap_is_int(ltt_rb_flush(&rb, false), 0, "tiny: flush closes it");
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "tiny: then it is readable");
	discarded1 = pkt.events_discarded;
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_u64(discarded0, 0, "tiny: first packet closed before any loss");
	tap_is_u64(discarded1, 1000 - c.total, "tiny: events_discarded == written - read");
	tap_is_u64(c.total, 124, "tiny: 124 events read");
	tap_ok(c.first_seq[0] == 0 && c.last_seq[0] == 123, "tiny: the oldest events survive");

	/* the reader caught up: writing works again */
	for (seq = 1000; seq < 1010; seq++)
		rbh_ev_write(&rb, 0, seq, 64);
	ltt_rb_flush(&rb, false);
	rbh_drain(&rb, &c);
	tap_ok(c.total == 134 && c.last_seq[0] == 1009, "tiny: writes resume after reading");
	tap_is_int(c.errors, 0, "tiny: packets and events intact");
	rbh_region_destroy(&r);
}

/*
 * Events per packet, deterministic, through the carry of the bytes field:
 * a 2 x 4 KiB region one lap before the carry, events of varied sizes,
 * partial packets (flush), empty ones, and a packet abandoned in the very
 * lap whose completion carries.
 */
static void test_events(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_slot dead;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint64_t seq, written = 0, abandoned_at = 0;
	int ret;

	if (!tap_ok(rbh_region_create(&r, 4096, 2, false) == 0, "events: create a 2 x 4 KiB region"))
		return;
	rbh_region_seek(&r, SEEK_LAP);
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, false, false);
	for (seq = 0; seq < 20000; seq++) {
		ret = rbh_ev_write(&rb, 0, seq, rbh_ev_size(0, seq, 300));
		if (ret == -ENOBUFS) {
			rbh_drain(&rb, &c);
			ret = rbh_ev_write(&rb, 0, seq, rbh_ev_size(0, seq, 300));
		}
		written += ret == 0;
		if (seq % 997 == 0)
			ltt_rb_flush(&rb, false);
		if (seq % 2999 == 0) {
			rbh_drain(&rb, &c);
			ltt_rb_flush(&rb, true);	/* an empty packet */
		}
		/* the carry lap of sub-buffer 0: a writer dies in it */
		if (!abandoned_at && rb.shm->offset >= (SEEK_LAP + 1) * rb.buf_size + 8) {
			abandoned_at = c.total;
			ltt_rb_reserve(&rb, 40, &dead);
		}
		if (abandoned_at && abandoned_at != UINT64_MAX && rb.shm->offset >
		    (SEEK_LAP + 1) * rb.buf_size + rb.subbuf_size) {
			rbh_drain(&rb, &c);
			ret = ltt_rb_abandon_subbuf(&rb);
			tap_is_int(ret, 0, "events: the packet of a dead writer is abandoned "
				   "in the carry lap");
			abandoned_at = UINT64_MAX;
		}
	}
	ltt_rb_flush(&rb, false);
	rbh_drain(&rb, &c);
	tap_is_int(c.errors, 0, "events: every packet's event count is exact");
	tap_is_u64(rb.stats.packets_abandoned, 1, "events: one packet abandoned");
	tap_ok(c.total < written && c.total > written - 100,
	       "events: all but the abandoned packet's events read (%" PRIu64 " of %" PRIu64 ")",
	       c.total, written);
	tap_is_u64(c.pkt_events, c.total, "events: the counts add up to the events read");
	tap_ok(c.empty_packets > 0, "events: empty packets count 0");
	tap_ok(c.next_pkt_seq > rbh_seq_after_carry(2) + 100,
	       "events: through the carry and many laps after");
	rbh_region_destroy(&r);
}

/*
 * ltt_rb_events_unread(): what a reader that stops now leaves, through
 * the carry lap (discard mode) and once the writers lapped it (overwrite).
 */
static void test_unread(bool overwrite)
{
	const char *mode = overwrite ? "unread (overwrite)" : "unread";
	struct rbh_region r = { .fd = -1 };
	struct rbh_checker c;
	struct ltt_rb rb;
	uint64_t seq, written = 0, read0;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, overwrite) == 0, "%s: create a 4 x 4 KiB region",
		    mode))
		return;
	rbh_region_seek(&r, SEEK_LAP);
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, false, overwrite);
	tap_is_u64(ltt_rb_events_unread(&rb), 0, "%s: none in an empty region", mode);
	tap_is_u64(ltt_rb_events_unread(NULL), 0, "%s: none for no handle", mode);
	for (seq = 0; seq < 150; seq++)
		written += rbh_ev_write(&rb, 0, seq, 64) == 0;
	/* 62 per packet: two complete packets and one open */
	tap_is_u64(ltt_rb_events_unread(&rb), written, "%s: every event written, open packet too",
		   mode);
	rbh_drain(&rb, &c);
	tap_is_u64(ltt_rb_events_unread(&rb), written - c.total,
		   "%s: less the packets read (%" PRIu64 " read)", mode, c.total);
	read0 = c.total;
	for (; seq < 400; seq++)
		written += rbh_ev_write(&rb, 0, seq, 64) == 0;
	if (overwrite)	/* the writers lapped the reader: the last 4 packets */
		tap_is_u64(ltt_rb_events_unread(&rb), 3 * 62 + (written - read0) % 62,
			   "%s: the region's 4 newest packets", mode);
	else
		tap_is_u64(ltt_rb_events_unread(&rb), written - read0,
			   "%s: what was written since, through the carry lap", mode);
	ltt_rb_flush(&rb, false);
	rbh_drain(&rb, &c);
	tap_is_u64(ltt_rb_events_unread(&rb), 0, "%s: none once the reader caught up", mode);
	/* a program's scribble: positions are not trusted */
	rb.shm->offset = UINT64_MAX;
	tap_ok(ltt_rb_events_unread(&rb) <= 4 * 62,
	       "%s: a write position scribbled to 2^64 - 1: 4 sub-buffers read at most", mode);
	rb.shm->consumed = UINT64_MAX;
	rb.shm->offset = 4096;
	tap_is_u64(ltt_rb_events_unread(&rb), 0, "%s: a read position past the write one: none",
		   mode);
	rbh_region_destroy(&r);
}

/* A writer dies between reserve and commit. */
static void test_abandon(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb_slot dead;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint64_t seq, stuck = 0;
	int ret;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, false) == 0, "abandon: create a 4 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, false, false);
	tap_is_int(ltt_rb_abandon_subbuf(&rb), -ENODATA, "abandon: nothing reserved: -ENODATA");
	ltt_rb_reserve(&rb, 64, &dead);		/* never committed */
	for (seq = 0; seq < 200; seq++)
		rbh_ev_write(&rb, 0, seq, 64);
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EAGAIN, "abandon: packet 0 never completes");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "abandon: give it up");
	tap_is_u64(rb.stats.packets_abandoned, 1, "abandon: counted");
	tap_is_u64(rb.stats.events_abandoned, 61, "abandon: its 61 committed events counted");
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "abandon: packet 1 is next");
	tap_is_u64(pkt.seq_num, 1, "abandon: seq num 1 (the gap reports packet 0)");
	rbh_check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	rbh_drain(&rb, &c);
	tap_is_int(ltt_rb_abandon_subbuf(&rb), -EBUSY,
		   "abandon: an open packet whose writers all committed completes instead");
	rbh_drain(&rb, &c);
	tap_is_u64(c.total, 200 - 61, "abandon: every event outside packet 0 read");

	/* a dead writer in the open packet: closed and abandoned at once */
	ltt_rb_reserve(&rb, 100, &dead);
	rbh_ev_write(&rb, 0, 200, 64);
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EAGAIN, "abandon: open packet, dead writer");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "abandon: closes and skips it");
	tap_is_u64(rb.stats.packets_abandoned, 2, "abandon: counted");
	tap_is_u64(rb.stats.events_abandoned, 62, "abandon: its 1 committed event counted");

	/* later laps reuse the abandoned sub-buffers: nothing stalls */
	for (seq = 201; seq < 3000; seq++) {
		ret = rbh_ev_write(&rb, 0, seq, 64);
		if (ret == -ENOBUFS) {
			rbh_drain(&rb, &c);
			ret = rbh_ev_write(&rb, 0, seq, 64);
		}
		stuck += ret != 0;
	}
	ltt_rb_flush(&rb, false);
	rbh_drain(&rb, &c);
	tap_is_u64(stuck, 0, "abandon: several laps later, writers never stall");
	tap_ok(c.last_seq[0] == 2999, "abandon: the last event is read");
	tap_is_int(c.errors, 0, "abandon: packets and events intact");
	rbh_region_destroy(&r);
}

/* The bytes of memory @fd holds (st_blocks). */
static uint64_t region_bytes(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : (uint64_t)st.st_blocks * 512;
}

/*
 * reclaim: a reader gives back what it read (8 x 16 KiB, 6 sub-buffers
 * written and read), the memfd holds that much less, the consumed
 * position is back, and the writer goes on through the sub-buffers given
 * back: every event read once, in order.
 */
static void test_reclaim(void)
{
	struct rbh_region r = { .fd = -1 }, ow = { .fd = -1 };
	uint64_t seq, before, after, n = 99, consumed;
	struct ltt_rb wrb, rrb, orb;
	struct rbh_checker c;

	if (!tap_ok(rbh_region_create(&r, 16 * KIB, 8, false) == 0, "reclaim: 8 x 16 KiB"))
		return;
	rbh_must_attach(&wrb, &r);
	rbh_must_attach(&rrb, &r);
	rbh_checker_init(&c, 16 * KIB, 1, true, true);
	tap_is_int(ltt_rb_reclaim(&rrb, 0, &n), 0, "reclaim: of a fresh buffer");
	tap_is_u64(n, 0, "reclaim: nothing to give back");
	/* (16384 - 84) / 64 = 254 events a packet: 6 packets and a bit */
	for (seq = 0; seq < 6 * 254 + 10; seq++)
		rbh_ev_write(&wrb, 0, seq, 64);
	rbh_drain(&rrb, &c);
	tap_is_u64(c.packets, 6, "reclaim: 6 packets read");
	before = region_bytes(r.fd);
	consumed = rrb.consumed;
	tap_is_int(ltt_rb_reclaim(&rrb, 0, &n), 0, "reclaim: the writer in sub-buffer 6");
	after = region_bytes(r.fd);
	/* 7 is its next; 0 to 5 were read: they are where the writer goes after 7 */
	tap_is_u64(n, 6, "reclaim: the 6 sub-buffers read, not the writer's nor the next");
	tap_is_u64(before - after, 6 * 16 * KIB, "reclaim: the memfd holds 6 x 16 KiB less");
	tap_is_u64(__atomic_load_n(&rrb.shm->consumed, __ATOMIC_RELAXED), consumed,
		   "reclaim: the consumed position is put back");
	tap_ok(rrb.commit[0].punched && rrb.commit[5].punched && !rrb.commit[6].punched &&
	       !rrb.commit[7].punched, "reclaim: the sub-buffers given back are marked punched");
	tap_is_int(ltt_rb_reclaim(&rrb, 0, &n), 0, "reclaim: again, nothing read since");
	tap_is_u64(n, 0, "reclaim: nothing given back twice");
	/* the writer fills 6 and 7, then opens 0 (a later lap): it takes its pages again */
	for (; seq < 8 * 254 + 10; seq++)
		rbh_ev_write(&wrb, 0, seq, 64);
	tap_ok(!rrb.commit[0].punched && rrb.commit[1].punched,
	       "reclaim: the writer that opened sub-buffer 0 again took its pages, 1 waits");
	tap_is_u64(region_bytes(r.fd) - after, 2 * 16 * KIB,
		   "reclaim: the memfd holds 7's pages (its first lap) and 0's again");
	/* laps through the sub-buffers given back, read as they fill */
	for (; seq < 30 * 254; seq++) {
		rbh_ev_write(&wrb, 0, seq, 64);
		if (seq % 254 == 0) {
			rbh_drain(&rrb, &c);
			if (seq % (5 * 254) == 0)
				ltt_rb_reclaim(&rrb, 0, &n);
		}
	}
	ltt_rb_flush(&wrb, false);
	rbh_drain(&rrb, &c);
	tap_is_u64(c.total, 30 * 254, "reclaim: every event read, through the sub-buffers given back");
	tap_ok(c.first_seq[0] == 0 && c.last_seq[0] == 30 * 254 - 1, "reclaim: in order, once");
	tap_is_int(c.errors, 0, "reclaim: packets and events intact");
	tap_is_u64(ltt_rb_events_lost(&wrb), 0, "reclaim: nothing lost");
	rbh_region_destroy(&r);

	if (!tap_ok(rbh_region_create(&ow, 16 * KIB, 4, true) == 0, "reclaim: overwrite region"))
		return;
	rbh_must_attach(&orb, &ow);
	tap_is_int(ltt_rb_reclaim(&orb, 0, &n), -EOPNOTSUPP, "reclaim: refused in overwrite mode");
	rbh_region_destroy(&ow);
}

int main(void)
{
	test_geometry();
	test_attach();
	test_prefetch_in_area();
	test_lengths();
	test_timestamps();
	test_reserve_ts();
	test_single_writer();
	test_threads(4, false, false);
	test_threads(2, true, false);
	test_threads(3, true, true);
	test_processes();
	test_events();
	test_tiny_full();
	test_abandon();
	test_unread(false);
	test_unread(true);
	test_reclaim();
	return tap_done();
}
