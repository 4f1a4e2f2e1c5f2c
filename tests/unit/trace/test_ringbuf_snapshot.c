// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ringbuf_snapshot.c - unit tests of the ring buffer's non-consuming
 * read (ltt_rb_snapshot_span(), ltt_rb_peek_subbuf()): what a snapshot
 * holds, that it moves nothing, the newest-packets limit, and sub-buffers
 * overwritten before or while they are copied.
 *
 * Test events are EV bytes: u64 seq, then the seq's bytes repeated, so a
 * reader can tell an intact event and a packet of consecutive ones.
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/tap.h"

#define KIB	((uint64_t)1024)
#define HDR	((uint64_t)LTT_RB_PACKET_HEADER_SIZE)
#define EV	64u

static const uint8_t test_uuid[16] = { 's', 'n', 'a', 'p', 's', 'h', 'o', 't',
				       '-', 'u', 'n', 'i', 't', '-', 'r', 'b' };

struct region {
	void *mem;
	size_t len;
};

static void region_create(struct region *r, uint64_t subbuf_size, uint64_t num_subbuf,
			  bool overwrite)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = subbuf_size, .num_subbuf = num_subbuf,
		.overwrite = overwrite, .stream_id = 1, .cpu = 0,
	};

	memcpy(cfg.uuid, test_uuid, sizeof(cfg.uuid));
	r->len = ltt_rb_region_size(subbuf_size, num_subbuf);
	r->mem = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->mem == MAP_FAILED || ltt_rb_init_region(r->mem, r->len, &cfg)) {
		tap_diag("can't make a region");
		exit(1);
	}
}

static void attach(struct ltt_rb *rb, const struct region *r)
{
	if (ltt_rb_attach(rb, r->mem, r->len)) {
		tap_diag("can't attach");
		exit(1);
	}
}

static int ev_write(struct ltt_rb *rb, uint64_t seq)
{
	struct ltt_rb_slot slot;
	uint8_t ev[EV];
	unsigned int i;
	int ret;

	ret = ltt_rb_reserve(rb, EV, &slot);
	if (ret)
		return ret;
	memcpy(ev, &seq, 8);
	for (i = 8; i < EV; i++)
		ev[i] = (uint8_t)(seq >> (8 * (i % 8)));
	memcpy(slot.data, ev, EV);
	ltt_rb_commit(rb, &slot);
	return 0;
}

/* What a snapshot read. */
struct snap {
	uint64_t packets, events, first, last;
	uint64_t estale, eio, eagain, broken;	/* broken: torn or out of order */
	bool any;
};

/*
 * Check one packet's events: intact, consecutive, after the previous
 * packet's.  Returns false when something is wrong.
 */
static bool check_packet(struct snap *s, const struct ltt_rb_packet *pkt)
{
	const uint8_t *p = pkt->data;
	uint64_t off, seq, prev = 0;
	unsigned int i;
	bool first = true;

	for (off = HDR; off + EV <= pkt->content_size; off += EV) {
		memcpy(&seq, p + off, 8);
		for (i = 8; i < EV; i++)
			if (p[off + i] != (uint8_t)(seq >> (8 * (i % 8))))
				return false;
		if (!first && seq != prev + 1)
			return false;
		if (first && s->any && seq <= s->last)
			return false;
		if (!s->any)
			s->first = seq;
		s->any = true;
		s->last = seq;
		s->events++;
		prev = seq;
		first = false;
	}
	return true;
}

/* One snapshot of @rb: every packet of its span, at most @max newest. */
static void take(struct ltt_rb *rb, uint64_t max, struct snap *s)
{
	struct ltt_rb_packet pkt;
	struct ltt_rb_span span;
	uint64_t pos, floor = 0;
	static uint8_t buf[64 * 1024];
	int ret;

	memset(s, 0, sizeof(*s));
	if (ltt_rb_snapshot_span(rb, max, &span))
		return;
	for (pos = span.begin; pos < span.end; pos += rb->subbuf_size) {
		ret = ltt_rb_peek_subbuf(rb, pos, floor, buf, sizeof(buf), &pkt);
		if (ret == -ESTALE)
			s->estale++;
		else if (ret == -EIO)
			s->eio++;
		else if (ret == -EAGAIN)
			s->eagain++;
		if (ret)
			continue;
		floor = pkt.timestamp_end;
		s->packets++;
		if (!check_packet(s, &pkt))
			s->broken++;
	}
}

/* Events that fit in one packet. */
static uint64_t per_packet(uint64_t subbuf_size)
{
	return (subbuf_size - HDR) / EV;
}

static void test_overwrite_content(void)
{
	struct region r;
	struct ltt_rb w, rd;
	struct snap s1, s2;
	uint64_t seq, n, off_before, consumed_before;

	region_create(&r, 4 * KIB, 4, true);
	attach(&w, &r);
	attach(&rd, &r);
	/* two laps and a bit: the oldest are overwritten */
	n = per_packet(4 * KIB) * 9 + 5;
	for (seq = 0; seq < n; seq++)
		ev_write(&w, seq);
	tap_is_int(ltt_rb_flush(&rd, false), 0, "flush closes the open packet");
	off_before = rd.shm->offset;
	consumed_before = rd.shm->consumed;
	take(&rd, 0, &s1);
	tap_is_u64(s1.packets, 4, "overwrite: the snapshot holds a whole lap (4 packets)");
	tap_is_u64(s1.broken + s1.estale + s1.eio + s1.eagain, 0,
		   "overwrite: every packet intact, none dropped");
	tap_is_u64(s1.last, n - 1, "overwrite: the newest event is the last written");
	tap_is_u64(s1.events, s1.last - s1.first + 1, "overwrite: no hole between its events");
	tap_ok(rd.shm->offset == off_before && rd.shm->consumed == consumed_before &&
	       rd.consumed == 0 && rd.stats.packets_read == 0,
	       "overwrite: nothing consumed, nothing moved");
	take(&rd, 0, &s2);
	tap_ok(s2.first == s1.first && s2.last == s1.last && s2.events == s1.events,
	       "overwrite: a second snapshot holds the same events");
	for (seq = n; seq < n + 3; seq++)
		ev_write(&w, seq);
	ltt_rb_flush(&rd, false);
	take(&rd, 0, &s2);
	tap_is_u64(s2.last, n + 2, "overwrite: after 3 more events, the snapshot ends with them");
	tap_is_u64(s2.broken, 0, "overwrite: still intact");
	take(&rd, 1, &s2);
	tap_ok(s2.packets == 1 && s2.last == n + 2 && s2.events == 3,
	       "max 1 packet: only the newest packet (%" PRIu64 " events)", s2.events);
	take(&rd, 2, &s2);
	tap_ok(s2.packets == 2 && s2.last == n + 2, "max 2 packets: the two newest");
	tap_is_u64(rd.stats.snap_packets, 4 + 4 + 4 + 1 + 2, "snap_packets counts every copy");
	munmap(r.mem, r.len);
}

static void test_discard_content(void)
{
	struct region r;
	struct ltt_rb w, rd;
	struct snap s;
	uint64_t seq, n = per_packet(4 * KIB) * 2 + 7, lost;

	region_create(&r, 4 * KIB, 4, false);
	attach(&w, &r);
	attach(&rd, &r);
	for (seq = 0; seq < n; seq++)
		ev_write(&w, seq);
	ltt_rb_flush(&rd, false);
	take(&rd, 0, &s);
	tap_ok(s.packets == 3 && s.first == 0 && s.last == n - 1 && s.events == n,
	       "discard: all %" PRIu64 " events, from the first", n);
	/* never consumed: the buffer fills and the writers drop, counted */
	for (seq = n; seq < n + per_packet(4 * KIB) * 4; seq++)
		ev_write(&w, seq);
	lost = ltt_rb_events_lost(&rd);
	ltt_rb_flush(&rd, false);
	take(&rd, 0, &s);
	tap_ok(s.packets == 4 && s.first == 0 && s.events + lost == per_packet(4 * KIB) * 4 + n,
	       "discard: a full buffer keeps the oldest; recorded + lost = written");
	munmap(r.mem, r.len);
}

static void test_overwritten(void)
{
	struct region r;
	struct ltt_rb w, rd;
	struct ltt_rb_packet pkt;
	struct ltt_rb_span span;
	static uint8_t buf[4096];
	uint64_t seq;

	region_create(&r, 4 * KIB, 4, true);
	attach(&w, &r);
	attach(&rd, &r);
	for (seq = 0; seq < per_packet(4 * KIB) * 4; seq++)
		ev_write(&w, seq);
	ltt_rb_flush(&rd, false);
	ltt_rb_snapshot_span(&rd, 0, &span);
	tap_is_u64((span.end - span.begin) / (4 * KIB), 4, "span: 4 closed packets");
	/* the writers lap the oldest one after the span was sampled */
	ev_write(&w, seq);
	tap_is_int(ltt_rb_peek_subbuf(&rd, span.begin, 0, buf, sizeof(buf), &pkt), -ESTALE,
		   "a sub-buffer overwritten since the span is dropped");
	tap_is_u64(rd.stats.snap_overwritten, 1, "and counted");
	tap_is_int(ltt_rb_peek_subbuf(&rd, span.begin + 4 * KIB, 0, buf, sizeof(buf), &pkt), 0,
		   "the next one is still there");
	tap_is_int(ltt_rb_peek_subbuf(&rd, span.end, 0, buf, sizeof(buf), &pkt),
		   -EAGAIN, "the open packet is not complete");
	tap_is_int(ltt_rb_peek_subbuf(&rd, span.begin + 1, 0, buf, sizeof(buf), &pkt), -EINVAL,
		   "an unaligned position is refused");
	tap_is_int(ltt_rb_peek_subbuf(&rd, span.begin, 0, buf, 100, &pkt), -EINVAL,
		   "a short buffer is refused");
	munmap(r.mem, r.len);
}

/*
 * Writers lap the snapshot while it copies: what it keeps is intact.  Every
 * HOLD_EVERY rounds the writer writes a packet's worth, then is held still
 * for one snapshot, which then keeps packets however the threads are
 * scheduled (on a loaded machine the writer can lap every racing copy, or
 * hardly run between the holds).
 */
#define HOLD_EVERY 1000

struct race {
	struct ltt_rb rb;
	int stop;
	int hold;		/* the reader asks the writer to stand still */
	int held;		/* the writer does */
	uint64_t written;
};

static void *race_writer(void *arg)
{
	struct race *rc = arg;
	uint64_t seq = 0, i;

	while (!__atomic_load_n(&rc->stop, __ATOMIC_ACQUIRE)) {
		if (__atomic_load_n(&rc->hold, __ATOMIC_ACQUIRE)) {
			/*
			 * A packet's worth first: a writer that only ever ran
			 * while the reader waited for it (a loaded machine)
			 * would otherwise stand still with nothing written.
			 */
			for (i = 0; i <= per_packet(rc->rb.subbuf_size); i++)
				if (!ev_write(&rc->rb, seq))
					seq++;
			__atomic_store_n(&rc->held, 1, __ATOMIC_RELEASE);
			while (__atomic_load_n(&rc->hold, __ATOMIC_ACQUIRE))
				;
			__atomic_store_n(&rc->held, 0, __ATOMIC_RELEASE);
		}
		if (!ev_write(&rc->rb, seq))
			seq++;
	}
	rc->written = seq;
	return NULL;
}

static void test_race(void)
{
	struct region r;
	struct race rc = { .stop = 0 };
	struct ltt_rb rd;
	pthread_t th;
	struct snap s;
	uint64_t kept = 0, dropped = 0, broken = 0, rounds;

	region_create(&r, 4 * KIB, 2, true);
	attach(&rc.rb, &r);
	attach(&rd, &r);
	if (pthread_create(&th, NULL, race_writer, &rc)) {
		tap_ok(false, "race: start a writer thread");
		return;
	}
	/* on a loaded machine the writer may run late, or lap every copy for a while */
	for (rounds = 0; rounds < 20000 || (!dropped && rounds < 2000000); rounds++) {
		bool hold = rounds % HOLD_EVERY == HOLD_EVERY - 1;

		if (hold) {
			__atomic_store_n(&rc.hold, 1, __ATOMIC_RELEASE);
			while (!__atomic_load_n(&rc.held, __ATOMIC_ACQUIRE))
				;
		}
		ltt_rb_flush(&rd, false);
		take(&rd, 0, &s);
		if (hold) {
			/*
			 * Until the writer has seen the release: on one CPU it
			 * could miss it, see the next hold, and stand still for
			 * good with the old "held" taken for the new one.
			 */
			__atomic_store_n(&rc.hold, 0, __ATOMIC_RELEASE);
			while (__atomic_load_n(&rc.held, __ATOMIC_ACQUIRE))
				;
		}
		kept += s.packets;
		dropped += s.estale;
		broken += s.broken;
	}
	__atomic_store_n(&rc.stop, 1, __ATOMIC_RELEASE);
	pthread_join(th, NULL);
	tap_is_u64(broken, 0, "race: no packet kept is torn or out of order (%" PRIu64
		   " kept, %" PRIu64 " dropped in %" PRIu64 " snapshots)", kept, dropped, rounds);
	tap_ok(kept > 0, "race: snapshots kept packets");
	tap_is_u64(rd.stats.snap_overwritten, dropped, "race: every drop counted");
	munmap(r.mem, r.len);
}

int main(void)
{
	test_overwrite_content();
	test_discard_content();
	test_overwritten();
	test_race();
	return tap_done();
}
