// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ringbuf.c - unit tests of common/ringbuf.c: geometry and hostile
 * headers, one writer, concurrent threads and processes, loss accounting,
 * overwrite mode, flush and abandon.
 *
 * Test events use a framing of their own (the tracer's CTF event headers
 * are not the ring buffer's business):
 *
 *   u32 len | u32 writer | u64 seq | u64 ts | u8 fits | payload | u32 sum
 *
 * ts is the slot's timestamp, fits (bit 0) is ltt_rb_slot_ts_fits(slot,
 * FIT_BITS) for events reserved with ltt_rb_reserve(), or, for events
 * reserved with ltt_rb_reserve_ts() (bit 1 set), whether it chose the
 * short size; sum is an FNV-1a of everything before it.  A reader walks
 * each packet from the header to content_size and checks every event and
 * the packet context around them.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/ringbuf.h"
#include "tap.h"

#define KIB		((uint64_t)1024)
#define HDR		((uint64_t)LTT_RB_PACKET_HEADER_SIZE)
#define EV_MIN		29u
#define EV_MAX		8192u
#define FIT_BITS	8	/* small, so that racing writers exercise both answers */
#define TS_EXTRA	8	/* ltt_rb_reserve_ts(): the long size is 8 bytes more */
#define EV_FITS		1	/* the fits byte */
#define EV_TS_API	2
#define MAX_WRITERS	8
#define STREAM_ID	7u
#define CPU		3u

static const uint8_t test_uuid[16] = {
	0x6c, 0x74, 0x74, 0x2d, 0x72, 0x62, 0x2d, 0x74,
	0x65, 0x73, 0x74, 0x2d, 0x75, 0x75, 0x69, 0x64,
};

/*
 * Regions: a memfd mapped shared, as the session daemon makes them.
 */
struct region {
	void *mem;
	size_t len;
	int fd;
};

static int region_create(struct region *r, uint64_t subbuf_size, uint64_t num_subbuf,
			 bool overwrite)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = subbuf_size,
		.num_subbuf = num_subbuf,
		.overwrite = overwrite,
		.stream_id = STREAM_ID,
		.cpu = CPU,
	};

	memcpy(cfg.uuid, test_uuid, sizeof(cfg.uuid));
	r->len = ltt_rb_region_size(subbuf_size, num_subbuf);
	r->fd = memfd_create("ltt-rb-test", MFD_CLOEXEC);
	if (r->fd < 0 || !r->len || ftruncate(r->fd, (off_t)r->len) < 0)
		return -1;
	r->mem = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->fd, 0);
	if (r->mem == MAP_FAILED)
		return -1;
	return ltt_rb_init_region(r->mem, r->len, &cfg);
}

static void region_destroy(struct region *r)
{
	if (r->mem && r->mem != MAP_FAILED)
		munmap(r->mem, r->len);
	if (r->fd >= 0)
		close(r->fd);
}

/* Attach or bail out: every test needs it. */
static void must_attach(struct ltt_rb *rb, const struct region *r)
{
	if (ltt_rb_attach(rb, r->mem, r->len) != 0) {
		tap_diag("ltt_rb_attach failed on a fresh region");
		exit(1);
	}
}

/*
 * A lap just before the carry out of every commit word's bytes field: for
 * sub-buffers up to 256 MiB the bytes field spans 2^LTT_RB_LAP_BITS laps,
 * so lap SEEK_LAP + 1 is the one whose completion wraps it to 0.  High, so
 * positions are far from 0 too.
 */
#define SEEK_LAP	(((uint64_t)1 << 40) - 2)

/*
 * Move a fresh region to the start of lap @lap, as if @lap laps had been
 * written and read: write position, consumed and every commit word's
 * bytes field (the layout of ringbuf.h).  Before anyone else attaches.
 */
static void region_seek(const struct region *r, uint64_t lap)
{
	struct ltt_rb rb;
	uint64_t i;

	must_attach(&rb, r);
	rb.shm->offset = lap * rb.buf_size;
	rb.shm->consumed = lap * rb.buf_size;
	for (i = 0; i < rb.num_subbuf; i++)
		rb.commit[i].count = (lap << rb.subbuf_order) & rb.bytes_mask;
}

/* Packet seq num after the last packet of the carry lap, for @num_subbuf. */
static uint64_t seq_after_carry(uint64_t num_subbuf)
{
	return (SEEK_LAP + 2) * num_subbuf;
}

/*
 * Events.
 */
static uint32_t fnv1a(const uint8_t *p, size_t n)
{
	uint32_t h = 2166136261u;

	while (n--)
		h = (h ^ *p++) * 16777619u;
	return h;
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

/* A length between EV_MIN and @max that depends on (writer, seq). */
static size_t ev_size(uint32_t writer, uint64_t seq, size_t max)
{
	return EV_MIN + (size_t)(mix(seq * 131 + writer) % (max - EV_MIN + 1));
}

static void put32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

static void put64(uint8_t *p, uint64_t v)
{
	memcpy(p, &v, sizeof(v));
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * Reserve, fill and commit one event of @len bytes, or with @ts_api, of
 * @len or @len + TS_EXTRA bytes as ltt_rb_reserve_ts() chooses with
 * FIT_BITS; returns the reserve's code.
 */
static int ev_write_ts(struct ltt_rb *rb, uint32_t writer, uint64_t seq, size_t len, bool ts_api)
{
	struct ltt_rb_slot slot;
	uint8_t ev[EV_MAX + TS_EXTRA];
	size_t i;
	int ret;

	if (ts_api)
		ret = ltt_rb_reserve_ts(rb, len, len + TS_EXTRA, FIT_BITS, &slot);
	else
		ret = ltt_rb_reserve(rb, len, &slot);
	if (ret)
		return ret;
	if (ts_api && slot.len != len && slot.len != len + TS_EXTRA)
		abort();	/* the checker would misparse everything after */
	put32(ev, (uint32_t)slot.len);
	put32(ev + 4, writer);
	put64(ev + 8, seq);
	put64(ev + 16, slot.ts);
	if (ts_api)
		ev[24] = EV_TS_API | (slot.len == len ? EV_FITS : 0);
	else
		ev[24] = ltt_rb_slot_ts_fits(&slot, FIT_BITS) ? EV_FITS : 0;
	for (i = 25; i < slot.len - 4; i++)
		ev[i] = (uint8_t)(seq * 31 + writer * 7 + i);
	put32(ev + slot.len - 4, fnv1a(ev, slot.len - 4));
	memcpy(slot.data, ev, slot.len);
	ltt_rb_commit(rb, &slot);
	return 0;
}

static int ev_write(struct ltt_rb *rb, uint32_t writer, uint64_t seq, size_t len)
{
	return ev_write_ts(rb, writer, seq, len, false);
}

/*
 * The checker: everything a reader can verify about the packets it gets.
 */
struct checker {
	uint64_t subbuf_size;
	unsigned int nwriters;
	bool contiguous;	/* packet seq nums must follow each other */
	bool strict;		/* writers' seqs must follow each other */
	bool have_pkt;
	uint64_t next_pkt_seq;
	bool seen[MAX_WRITERS];
	uint64_t last_seq[MAX_WRITERS];
	uint64_t first_seq[MAX_WRITERS];
	uint64_t events[MAX_WRITERS];
	uint64_t total;
	uint64_t pkt_events;	/* sum of the packets' events fields */
	uint64_t packets;
	uint64_t empty_packets;
	uint64_t short_packets;	/* closed with room left for a big event */
	uint64_t first_pkt_seq;
	uint64_t last_ts;
	uint64_t last_ts_end;
	uint64_t last_discarded;
	uint64_t fits_true, fits_false;
	uint64_t ts_api;	/* events reserved with ltt_rb_reserve_ts() */
	uint64_t errors;
};

static void checker_init(struct checker *c, uint64_t subbuf_size, unsigned int nwriters,
			 bool contiguous, bool strict)
{
	memset(c, 0, sizeof(*c));
	c->subbuf_size = subbuf_size;
	c->nwriters = nwriters;
	c->contiguous = contiguous;
	c->strict = strict;
}

static void check_fail(struct checker *c, const char *fmt, ...) TAP_PRINTF(2, 3);

static void check_fail(struct checker *c, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	if (c->errors++ >= 10)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	tap_diag("packet %" PRIu64 ": %s", c->packets, msg);
}

/* Check one event at @ev (@room bytes left in the packet); returns its length or 0. */
static size_t check_event(struct checker *c, const uint8_t *ev, uint64_t room,
			  const struct ltt_rb_packet_header *ph, uint64_t *prev_ts, bool first)
{
	uint32_t len = get32(ev), writer;
	uint64_t seq, ts;

	if (len < EV_MIN || len > room) {
		check_fail(c, "torn event: length %" PRIu32 " with %" PRIu64 " bytes left", len, room);
		return 0;
	}
	if (fnv1a(ev, len - 4) != get32(ev + len - 4)) {
		check_fail(c, "torn event: bad checksum");
		return 0;
	}
	writer = get32(ev + 4);
	seq = get64(ev + 8);
	ts = get64(ev + 16);
	if (writer >= c->nwriters) {
		check_fail(c, "writer %" PRIu32 " out of range", writer);
		return 0;
	}
	if (c->seen[writer] && seq <= c->last_seq[writer])
		check_fail(c, "writer %" PRIu32 ": seq %" PRIu64 " after %" PRIu64 " (duplicate or reordered)",
			   writer, seq, c->last_seq[writer]);
	else if (c->seen[writer] && c->strict && seq != c->last_seq[writer] + 1)
		check_fail(c, "writer %" PRIu32 ": seq %" PRIu64 " after %" PRIu64 " (lost)",
			   writer, seq, c->last_seq[writer]);
	if (!c->seen[writer])
		c->first_seq[writer] = seq;
	c->seen[writer] = true;
	c->last_seq[writer] = seq;
	c->events[writer]++;
	c->total++;
	if (ts < ph->timestamp_begin || ts > ph->timestamp_end)
		check_fail(c, "event ts %" PRIu64 " outside [%" PRIu64 ", %" PRIu64 "]",
			   ts, ph->timestamp_begin, ph->timestamp_end);
	if (ts < c->last_ts)
		check_fail(c, "event ts %" PRIu64 " before the previous event's %" PRIu64,
			   ts, c->last_ts);
	/*
	 * The claim of ltt_rb_slot_ts_fits() and ltt_rb_reserve_ts(): a
	 * truncated field wraps at most once; and the first event of a packet
	 * (whose timestamp is timestamp_begin) always gets the short answer.
	 */
	if (ev[24] & EV_FITS) {
		c->fits_true++;
		if (ts - *prev_ts >= (uint64_t)1 << FIT_BITS)
			check_fail(c, "ts fits %d bits but is %" PRIu64 " ns after the previous event",
				   FIT_BITS, ts - *prev_ts);
	} else {
		c->fits_false++;
		if (first)
			check_fail(c, "the first event of a packet did not get the short size");
	}
	if (ev[24] & EV_TS_API)
		c->ts_api++;
	c->last_ts = ts;
	*prev_ts = ts;
	return len;
}

static void check_packet(struct checker *c, const struct ltt_rb_packet *pkt)
{
	struct ltt_rb_packet_header ph;
	const uint8_t *p = pkt->data;
	uint64_t off, prev_ts, n = 0;
	size_t len;

	if (!p) {
		check_fail(c, "no packet to check");
		return;
	}
	memcpy(&ph, p, sizeof(ph));
	if (memcmp(&ph, &pkt->header, sizeof(ph)) != 0)
		check_fail(c, "header differs from the validated copy");
	if (ph.magic != LTT_RB_PACKET_MAGIC || memcmp(ph.uuid, test_uuid, 16) != 0 ||
	    ph.stream_id != STREAM_ID || ph.stream_instance_id != CPU || ph.cpu_id != CPU)
		check_fail(c, "bad packet header");
	if (ph.packet_size != c->subbuf_size * 8 || pkt->packet_size != c->subbuf_size)
		check_fail(c, "packet_size %" PRIu64, ph.packet_size);
	if (ph.content_size != pkt->content_size * 8 || pkt->content_size < HDR ||
	    pkt->content_size > c->subbuf_size)
		check_fail(c, "content_size %" PRIu64, ph.content_size);
	if (ph.packet_seq_num != pkt->seq_num || pkt->seq_num != pkt->pos / c->subbuf_size)
		check_fail(c, "seq num %" PRIu64 " at position %" PRIu64, ph.packet_seq_num, pkt->pos);
	if (!c->have_pkt)
		c->first_pkt_seq = ph.packet_seq_num;
	else if (ph.packet_seq_num < c->next_pkt_seq ||
		 (c->contiguous && ph.packet_seq_num != c->next_pkt_seq))
		check_fail(c, "seq num %" PRIu64 ", expected %" PRIu64, ph.packet_seq_num,
			   c->next_pkt_seq);
	c->have_pkt = true;
	c->next_pkt_seq = ph.packet_seq_num + 1;
	if (ph.timestamp_begin > ph.timestamp_end || ph.timestamp_begin < c->last_ts_end)
		check_fail(c, "timestamps [%" PRIu64 ", %" PRIu64 "] after end %" PRIu64,
			   ph.timestamp_begin, ph.timestamp_end, c->last_ts_end);
	if (ph.events_discarded < c->last_discarded)
		check_fail(c, "events_discarded went down");

	prev_ts = ph.timestamp_begin;
	for (off = HDR; off < pkt->content_size; off += len) {
		if (pkt->content_size - off < 4) {
			check_fail(c, "torn event at the end of the content");
			break;
		}
		len = check_event(c, p + off, pkt->content_size - off, &ph, &prev_ts, off == HDR);
		if (!len)
			break;
		n++;
		if (off == HDR && get64(p + off + 16) != ph.timestamp_begin)
			check_fail(c, "first event's ts is not timestamp_begin");
	}
	/* the count the commit words kept, against the events walked */
	if (pkt->events != n)
		check_fail(c, "packet %" PRIu64 ": %" PRIu64 " events counted, %" PRIu64 " in it",
			   pkt->seq_num, pkt->events, n);
	c->pkt_events += pkt->events;
	if (pkt->content_size == HDR)
		c->empty_packets++;
	if (pkt->content_size + EV_MAX < c->subbuf_size && pkt->content_size > HDR)
		c->short_packets++;
	c->last_ts_end = ph.timestamp_end;
	c->last_discarded = ph.events_discarded;
	c->packets++;
}

/* ltt_rb_get_next_subbuf(), leaving an empty packet on failure. */
static int get_pkt(struct ltt_rb *rb, struct ltt_rb_packet *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	return ltt_rb_get_next_subbuf(rb, pkt);
}

/* Read (and check) whatever is ready; returns the number of packets. */
static unsigned int drain(struct ltt_rb *rb, struct checker *c)
{
	struct ltt_rb_packet pkt;
	unsigned int n = 0;
	int ret;

	while ((ret = ltt_rb_get_next_subbuf(rb, &pkt)) != -EAGAIN) {
		if (ret) {
			check_fail(c, "get_next_subbuf: %s", strerror(-ret));
			continue;
		}
		check_packet(c, &pkt);
		if (ltt_rb_put_subbuf(rb, &pkt))
			check_fail(c, "put_subbuf failed");
		n++;
	}
	return n;
}

/*
 * The reader thread of the concurrent tests: sleeps on the eventfd when
 * nothing is ready, stops once told that the writers are done and nothing
 * is left.
 */
struct reader {
	struct ltt_rb rb;
	struct checker chk;
	int efd;
	int done;
	bool copy;
	uint8_t *buf;
	unsigned long sleeps, timeouts, late, stale;
	pthread_t thread;
};

/* A sleep's bound; a wakeup still missing after two was lost. */
#define READER_SLEEP_MS 5000
/* What reader_kick() adds to the eventfd: told apart from wakeups (1 each). */
#define READER_KICK ((uint64_t)1 << 32)

/*
 * A sleep timed out and a packet is ready: was its wakeup late or lost?
 * Late when the eventfd holds a wakeup (written between the timeout and
 * our look) or gets one within another bound (its completer was
 * preempted between its commit and its write): every completion while
 * we sleep writes one.  Lost when none comes.
 */
static bool wakeup_late(struct reader *r)
{
	struct pollfd pfd = { .fd = r->efd, .events = POLLIN };
	uint64_t v = 0;

	if (read(r->efd, &v, sizeof(v)) == (ssize_t)sizeof(v) && v % READER_KICK)
		return true;
	return poll(&pfd, 1, READER_SLEEP_MS) > 0 &&
	       read(r->efd, &v, sizeof(v)) == (ssize_t)sizeof(v) && v % READER_KICK;
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->efd, .events = POLLIN };
	struct ltt_rb_packet pkt;
	bool done, timed_out = false;
	uint64_t v;
	int ret;

	for (;;) {
		done = __atomic_load_n(&r->done, __ATOMIC_ACQUIRE);
		if (r->copy)
			ret = ltt_rb_copy_next_subbuf(&r->rb, r->buf, r->rb.subbuf_size, &pkt);
		else
			ret = ltt_rb_get_next_subbuf(&r->rb, &pkt);
		/*
		 * A sleep that timed out with a packet ready lost its wakeup
		 * (whoever completed it wakes us), unless it came late; one
		 * with nothing to read was only idle (a slow machine, writers
		 * done before "done" is set).
		 */
		if (timed_out && ret == 0) {
			if (wakeup_late(r))
				r->late++;
			else
				r->timeouts++;
		}
		timed_out = false;
		if (ret == 0) {
			check_packet(&r->chk, &pkt);
			if (ltt_rb_put_subbuf(&r->rb, &pkt))
				check_fail(&r->chk, "put_subbuf failed");
			continue;
		}
		if (ret == -ESTALE) {
			r->stale++;
			continue;
		}
		if (ret != -EAGAIN) {
			check_fail(&r->chk, "get: %s", strerror(-ret));
			continue;
		}
		if (done)
			break;
		r->sleeps++;
		/* writers completing sub-buffers wake us */
		ret = poll(&pfd, 1, READER_SLEEP_MS);
		timed_out = ret == 0;
		if (ret > 0 && read(r->efd, &v, sizeof(v)) < 0)
			continue;
	}
	return NULL;
}

static int reader_start(struct reader *r, const struct region *reg, uint64_t subbuf_size,
			unsigned int nwriters, bool contiguous, bool strict, bool copy)
{
	memset(r, 0, sizeof(*r));
	must_attach(&r->rb, reg);
	checker_init(&r->chk, subbuf_size, nwriters, contiguous, strict);
	r->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	r->copy = copy;
	if (copy)
		r->buf = malloc(subbuf_size);
	if (r->efd < 0 || (copy && !r->buf))
		return -1;
	return pthread_create(&r->thread, NULL, reader_main, r) ? -1 : 0;
}

static void reader_kick(struct reader *r)
{
	uint64_t kick = READER_KICK;

	if (write(r->efd, &kick, sizeof(kick)) < 0)
		tap_diag("eventfd write: %s", strerror(errno));
}

/*
 * Writers are done: close the open packet, then, once the reader has made
 * room, write an empty packet whose events_discarded is the final total;
 * then let the reader finish.
 */
static void reader_finish(struct reader *r, struct ltt_rb *rb)
{
	int i, ret;

	ltt_rb_flush(rb, false);
	for (i = 0; i < 10000; i++) {
		ret = ltt_rb_flush(rb, true);
		if (ret != -ENOBUFS)
			break;
		usleep(1000);
	}
	if (ret)
		tap_diag("final empty packet: %s", strerror(-ret));
	__atomic_store_n(&r->done, 1, __ATOMIC_RELEASE);
	reader_kick(r);
	pthread_join(r->thread, NULL);
	close(r->efd);
	free(r->buf);
}

/*
 * Writer threads.
 */
struct writer {
	struct ltt_rb *rb;
	uint32_t id;
	uint64_t n;		/* events to write */
	size_t max;		/* largest event */
	bool retry;		/* on a full buffer, retry instead of dropping */
	bool ts_api;		/* ltt_rb_reserve_ts() instead of ltt_rb_reserve() */
	uint64_t ok, nobufs, other;
	uint64_t retries;	/* -ENOBUFS answers that were retried */
	pthread_t thread;
};

static void write_all(struct writer *w)
{
	uint64_t seq;
	int ret;

	for (seq = 0; seq < w->n; seq++) {
		do {
			ret = ev_write_ts(w->rb, w->id, seq, ev_size(w->id, seq, w->max),
					  w->ts_api);
			if (ret == -ENOBUFS && w->retry) {
				w->retries++;
				sched_yield();
			}
		} while (ret == -ENOBUFS && w->retry);
		if (ret == 0)
			w->ok++;
		else if (ret == -ENOBUFS)
			w->nobufs++;
		else
			w->other++;
	}
}

static void *writer_main(void *arg)
{
	write_all(arg);
	return NULL;
}

/*
 * The tests.
 */

/* Where sub-buffer 0 starts: header, commit records, writer area, rounded to a page. */
static uint64_t doff(uint64_t num_subbuf)
{
	uint64_t end = 256 + 64 * num_subbuf + LTT_RB_WBLOCKS * sizeof(struct ltt_rb_wblock);

	return (end + 4095) & ~(uint64_t)4095;
}

static void test_geometry(void)
{
	tap_is_u64(doff(2), 36864, "data offset of 2 sub-buffers: 9 pages (writer area 33 KiB)");
	tap_is_u64(ltt_rb_region_size(4096, 2), doff(2) + 2 * 4096, "region size 2 x 4 KiB");
	tap_is_u64(ltt_rb_region_size(4096, 64), doff(64) + 64 * 4096,
		   "region size 64 x 4 KiB: commit records spill onto another page");
	tap_is_u64(doff(64), 40960, "data offset of 64 sub-buffers: 10 pages");
	tap_is_u64(ltt_rb_region_size(1 << 20, 4), doff(4) + 4 * (1 << 20), "region size 4 x 1 MiB");
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
	{ "overwrite flag 2", offsetof(struct ltt_rb_shm, overwrite), 4, 2 },
};

static void test_attach(void)
{
	struct region r = { .fd = -1 };
	uint8_t saved[sizeof(struct ltt_rb_shm)];
	struct ltt_rb rb, rb2;
	unsigned int i, accepted = 0, bad = 0;
	uint64_t v;
	int ret;

	if (!tap_ok(region_create(&r, 4096, 4, false) == 0, "create a 4 x 4 KiB region"))
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
	region_destroy(&r);
}

/* Boundary lengths, exact fills and the loss counter, single-threaded. */
static void test_lengths(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb_slot slot;
	struct checker c;
	struct ltt_rb rb;
	uint64_t i;

	if (!tap_ok(region_create(&r, 4096, 2, false) == 0, "create a 2 x 4 KiB region"))
		return;
	must_attach(&rb, &r);
	checker_init(&c, 4096, 1, true, true);
	tap_is_int(ltt_rb_reserve(&rb, 0, &slot), -EINVAL, "reserve 0 bytes: -EINVAL");
	tap_is_int(ltt_rb_reserve(&rb, 4096 - HDR + 1, &slot), -EMSGSIZE,
		   "reserve more than a sub-buffer holds: -EMSGSIZE");
	tap_is_int(ltt_rb_reserve(&rb, SIZE_MAX, &slot), -EMSGSIZE, "reserve SIZE_MAX: -EMSGSIZE");
	tap_is_u64(ltt_rb_events_lost(&rb), 2, "oversized events are counted as lost");
	tap_is_int(get_pkt(&rb, &pkt), -EAGAIN, "nothing to read yet");

	/* one event filling a packet exactly completes it at commit */
	tap_is_int(ev_write(&rb, 0, 0, 4096 - HDR), 0, "an event of exactly subbuf_size - 84 bytes");
	tap_is_int(get_pkt(&rb, &pkt), 0, "the exactly full packet is readable");
	tap_is_u64(pkt.content_size, 4096, "its content is the whole sub-buffer");
	tap_is_u64(pkt.events_discarded, 2, "its events_discarded is the running total");
	tap_is_u64(pkt.region_offset, doff(2), "the packet lies at the data offset");
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(ltt_rb_put_subbuf(&rb, &pkt), -EINVAL, "putting it twice is refused");

	/* exact fill by several events: 4012 = 17 * 236 */
	for (i = 1; i <= 17; i++)
		ev_write(&rb, 0, i, 236);
	tap_is_int(get_pkt(&rb, &pkt), 0, "a packet filled exactly by 17 events");
	tap_is_u64(pkt.content_size, 4096, "content is the whole sub-buffer");
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_u64(c.total, 18, "18 events read");
	tap_is_int(c.errors, 0, "packets and events intact");
	tap_is_int(ltt_rb_flush(&rb, false), -ENODATA, "flush with nothing open: -ENODATA");
	tap_is_int(ltt_rb_flush(&rb, true), 0, "flush even if empty: an empty packet");
	tap_is_int(get_pkt(&rb, &pkt), 0, "the empty packet is readable");
	tap_ok(pkt.content_size == HDR && pkt.timestamp_begin == pkt.timestamp_end,
	       "empty packet: header only, begin == end");
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(c.errors, 0, "empty packet well-formed");
	region_destroy(&r);
}

/* ltt_rb_slot_ts_fits(): first event of a packet, then a large gap. */
static void test_timestamps(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_slot a, b, d;
	struct ltt_rb rb;

	if (!tap_ok(region_create(&r, 4096, 2, false) == 0, "create a region"))
		return;
	must_attach(&rb, &r);
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
	region_destroy(&r);
}

/*
 * A time gap of @gap ns since the stream's last event, as a writer sees
 * it: the ring buffer compares its clock with last_ts, so moving last_ts
 * back is what a pause of @gap would leave, without the wait.
 */
static void pretend_gap(struct ltt_rb *rb, uint64_t gap)
{
	__atomic_store_n(&rb->shm->last_ts, ltt_rb_clock() - gap, __ATOMIC_RELAXED);
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
	struct region r = { .fd = -1 };
	struct ltt_rb_slot e1, e2, e3, e4, e5, e6, e7, f;
	struct ltt_rb_packet pkt;
	struct ltt_rb rb, rd;
	bool consistent = true;

	if (!tap_ok(region_create(&r, S, 4, false) == 0, "reserve_ts: create a 4 x 4 KiB region"))
		return;
	must_attach(&rb, &r);
	must_attach(&rd, &r);
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

	tap_is_int(get_pkt(&rd, &pkt), 0, "packet 0 is readable");
	tap_is_u64(pkt.content_size, S - 105, "packet 0 was closed where the long size did not fit");
	tap_is_u64(pkt.timestamp_begin, e1.ts, "packet 0 begins at its first event");
	tap_is_u64(pkt.timestamp_end, e5.ts, "and ends at the event that opened packet 1");
	ltt_rb_put_subbuf(&rd, &pkt);
	tap_is_int(get_pkt(&rd, &pkt), 0, "packet 1 is readable");
	tap_ok(pkt.content_size == S && pkt.timestamp_begin == e5.ts &&
	       pkt.timestamp_end == e7.ts, "packet 1: full, from e5's timestamp to e7's");
	tap_ok(((const uint8_t *)pkt.data)[HDR] == 5 && ((const uint8_t *)pkt.data)[S - 1] == 7,
	       "packet 1 holds e5 first and e7 last");
	ltt_rb_put_subbuf(&rd, &pkt);
	tap_is_int(ltt_rb_flush(&rd, false), -ENODATA, "nothing else open");
	region_destroy(&r);
}

/* One writer, a draining reader, no loss allowed (the writer retries). */
static void test_single_writer(void)
{
	struct region r = { .fd = -1 };
	struct writer w = { .id = 0, .n = 200000, .max = 2000, .retry = true, .ts_api = true };
	struct reader rd;
	struct ltt_rb wrb;

	if (!tap_ok(region_create(&r, 16 * KIB, 4, false) == 0, "create a 4 x 16 KiB region"))
		return;
	must_attach(&wrb, &r);
	if (!tap_ok(reader_start(&rd, &r, 16 * KIB, 1, true, true, false) == 0, "start the reader"))
		return;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	w.rb = &wrb;
	write_all(&w);
	reader_finish(&rd, &wrb);
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
	region_destroy(&r);
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
	struct region r = { .fd = -1 };
	struct writer w[MAX_WRITERS];
	struct flusher f;
	struct reader rd;
	struct ltt_rb wrb;
	uint64_t written = 0, read = 0, lost, failed = 0;
	unsigned int i, mismatch = 0;

	if (!tap_ok(region_create(&r, 16 * KIB, 8, false) == 0, "%s: create a 8 x 16 KiB region", name))
		return;
	if (seek)
		region_seek(&r, SEEK_LAP);
	must_attach(&wrb, &r);
	if (!tap_ok(reader_start(&rd, &r, 16 * KIB, nwriters, true, false, false) == 0,
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
		must_attach(&f.rb, &r);
		ltt_rb_set_wakeup_fd(&f.rb, rd.efd);
		pthread_create(&f.thread, NULL, flusher_main, &f);
	}
	for (i = 0; i < nwriters; i++) {
		/* half the writers let the ring buffer pick their size */
		w[i] = (struct writer){ .rb = &wrb, .id = i, .n = 400000, .max = 300,
					.ts_api = i & 1 };
		pthread_create(&w[i].thread, NULL, writer_main, &w[i]);
	}
	for (i = 0; i < nwriters; i++)
		pthread_join(w[i].thread, NULL);
	if (with_flusher) {
		__atomic_store_n(&f.stop, 1, __ATOMIC_RELEASE);
		pthread_join(f.thread, NULL);
	}
	reader_finish(&rd, &wrb);

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
		tap_ok(rd.chk.next_pkt_seq >= seq_after_carry(8),
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
	if (with_flusher)
		tap_ok(rd.chk.short_packets > 0, "%s: flushes produced partial packets", name);
	region_destroy(&r);
}

/* Three processes write one memfd mapping while a thread of the parent reads. */
static void test_processes(void)
{
	const unsigned int nproc = 3;
	struct region r = { .fd = -1 };
	struct writer *shared;
	struct reader rd;
	struct ltt_rb mrb;
	uint64_t written = 0, read = 0, lost;
	unsigned int i, mismatch = 0, bad_exit = 0;
	pid_t pids[3];
	int status;

	if (!tap_ok(region_create(&r, 16 * KIB, 8, false) == 0, "processes: create a region"))
		return;
	shared = mmap(NULL, sizeof(*shared) * nproc, PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (!tap_ok(shared != MAP_FAILED, "processes: shared results page"))
		return;
	must_attach(&mrb, &r);
	if (!tap_ok(reader_start(&rd, &r, 16 * KIB, nproc, true, false, false) == 0,
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
			shared[i] = (struct writer){ .rb = &crb, .id = i, .n = 400000, .max = 300,
						     .ts_api = i & 1 };
			write_all(&shared[i]);
			_exit(0);
		}
	}
	for (i = 0; i < nproc; i++) {
		if (pids[i] < 0 || waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status))
			bad_exit++;
	}
	reader_finish(&rd, &mrb);
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
	region_destroy(&r);
}

/* 2 x 4 KiB, the reader stopped: exactly two packets' worth survive. */
static void test_tiny_full(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct checker c;
	struct ltt_rb rb;
	uint64_t seq, ok = 0, nobufs = 0, discarded0, discarded1;

	if (!tap_ok(region_create(&r, 4096, 2, false) == 0, "tiny: create a 2 x 4 KiB region"))
		return;
	must_attach(&rb, &r);
	checker_init(&c, 4096, 1, true, false);
	for (seq = 0; seq < 1000; seq++) {
		int ret = ev_write(&rb, 0, seq, 64);

		ok += ret == 0;
		nobufs += ret == -ENOBUFS;
	}
	/* (4096 - 84) / 64 = 62 events per packet, two packets */
	tap_is_u64(ok, 124, "tiny: 124 events fit in two packets");
	tap_is_u64(nobufs, 1000 - ok, "tiny: every other reserve is refused with -ENOBUFS");
	tap_is_u64(ltt_rb_events_lost(&rb), 1000 - ok, "tiny: lost == written - reserved");
	tap_is_int(get_pkt(&rb, &pkt), 0, "tiny: the first packet is complete");
	discarded0 = pkt.events_discarded;
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_int(get_pkt(&rb, &pkt), -EAGAIN, "tiny: the second is still open");
	tap_is_int(ltt_rb_flush(&rb, false), 0, "tiny: flush closes it");
	tap_is_int(get_pkt(&rb, &pkt), 0, "tiny: then it is readable");
	discarded1 = pkt.events_discarded;
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	tap_is_u64(discarded0, 0, "tiny: first packet closed before any loss");
	tap_is_u64(discarded1, 1000 - c.total, "tiny: events_discarded == written - read");
	tap_is_u64(c.total, 124, "tiny: 124 events read");
	tap_ok(c.first_seq[0] == 0 && c.last_seq[0] == 123, "tiny: the oldest events survive");

	/* the reader caught up: writing works again */
	for (seq = 1000; seq < 1010; seq++)
		ev_write(&rb, 0, seq, 64);
	ltt_rb_flush(&rb, false);
	drain(&rb, &c);
	tap_ok(c.total == 134 && c.last_seq[0] == 1009, "tiny: writes resume after reading");
	tap_is_int(c.errors, 0, "tiny: packets and events intact");
	region_destroy(&r);
}

/* Overwrite mode: no reading while writing, then the newest data. */
static void test_overwrite(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct checker c;
	struct ltt_rb rb;
	uint8_t *buf = malloc(4096);
	uint64_t seq, ok = 0, seen;
	int ret, n = 0;

	if (!tap_ok(buf && region_create(&r, 4096, 4, true) == 0,
		    "overwrite: create a 4 x 4 KiB region"))
		return;
	must_attach(&rb, &r);
	checker_init(&c, 4096, 1, true, true);
	for (seq = 0; seq < 1000; seq++)
		ok += ev_write(&rb, 0, seq, 64) == 0;
	tap_is_u64(ok, 1000, "overwrite: the writer never fails");
	tap_is_u64(ltt_rb_events_lost(&rb), 0, "overwrite: nothing counted lost");
	tap_is_int(ltt_rb_flush(&rb, false), 0, "overwrite: flush the last packet");
	while ((ret = ltt_rb_copy_next_subbuf(&rb, buf, 4096, &pkt)) == 0) {
		check_packet(&c, &pkt);
		ltt_rb_put_subbuf(&rb, &pkt);
		n++;
	}
	tap_is_int(ret, -EAGAIN, "overwrite: read until nothing is left");
	/* 1000 events, 62 per packet: packets 0..16, the last 4 remain */
	tap_is_int(n, 4, "overwrite: the last 4 packets are read");
	tap_is_u64(c.first_pkt_seq, 13, "overwrite: starting at seq num 13");
	tap_is_u64(rb.stats.packets_overwritten, 13, "overwrite: 13 packets counted overwritten");
	tap_ok(c.first_seq[0] == 13 * 62 && c.last_seq[0] == 999,
	       "overwrite: exactly the events of the overwritten packets are missing");
	tap_is_int(c.errors, 0, "overwrite: the newest data is intact and in order");

	/* a zero-copy packet overwritten after the get is reported stale */
	for (seq = 1000; seq < 1200; seq++)
		ev_write(&rb, 0, seq, 64);
	tap_is_int(get_pkt(&rb, &pkt), 0, "overwrite: get a packet in place");
	tap_is_int(ltt_rb_check_subbuf(&rb, &pkt), 0, "overwrite: not overwritten yet");
	for (seq = 1200; seq < 1600; seq++)
		ev_write(&rb, 0, seq, 64);
	tap_is_int(ltt_rb_check_subbuf(&rb, &pkt), -ESTALE, "overwrite: lapped after the get: -ESTALE");
	ltt_rb_put_subbuf(&rb, &pkt);
	seen = rb.stats.packets_overwritten;
	checker_init(&c, 4096, 1, false, false);
	c.last_ts_end = pkt.timestamp_end;
	ret = get_pkt(&rb, &pkt);
	tap_ok(ret == 0 && rb.stats.packets_overwritten > seen && pkt.seq_num > 18,
	       "overwrite: the next get skips ahead; the seq num gap shows the loss");
	if (ret == 0)
		check_packet(&c, &pkt);
	tap_is_int(c.errors, 0, "overwrite: the packet after the gap is intact");
	free(buf);
	region_destroy(&r);
}

/* Overwrite mode under a writer going flat out: copies are never torn. */
static void test_overwrite_race(void)
{
	struct region r = { .fd = -1 };
	struct writer w = { .id = 0, .n = 400000, .max = 200 };
	struct reader rd;
	struct ltt_rb wrb;

	if (!tap_ok(region_create(&r, 4096, 4, true) == 0, "overwrite race: create a region"))
		return;
	must_attach(&wrb, &r);
	if (!tap_ok(reader_start(&rd, &r, 4096, 1, false, false, true) == 0,
		    "overwrite race: start a copying reader"))
		return;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	w.rb = &wrb;
	pthread_create(&w.thread, NULL, writer_main, &w);
	pthread_join(w.thread, NULL);
	reader_finish(&rd, &wrb);
	tap_is_u64(w.ok, w.n, "overwrite race: the writer never fails");
	tap_is_int(rd.chk.errors, 0, "overwrite race: every packet copied is intact and in order");
	tap_ok(rd.chk.last_seq[0] == w.n - 1, "overwrite race: the newest event is read");
	tap_diag("overwrite race: %" PRIu64 " packets read, %" PRIu64 " overwritten, %lu stale copies",
		 rd.chk.packets, rd.rb.stats.packets_overwritten, rd.stale);
	region_destroy(&r);
}

/*
 * The copy-out's seqlock check, made deterministic: the second page of the
 * sub-buffer being copied is inaccessible, so the reader's copy faults in
 * its middle; the handler makes the page accessible again and laps the
 * buffer (reserve and commit are async-signal-safe) before the copy goes
 * on.  The copy is torn: it must be reported stale, never handed out.
 */
static struct {
	struct ltt_rb *rb;
	void *page;
	uint64_t seq;
	int faults;
} torn;

static void torn_handler(int sig, siginfo_t *si, void *uc)
{
	uint64_t i;

	if (si->si_addr < torn.page || (uint8_t *)si->si_addr >= (uint8_t *)torn.page + 4096 ||
	    mprotect(torn.page, 4096, PROT_READ | PROT_WRITE) != 0) {
		signal(sig, SIG_DFL);
		return;
	}
	torn.faults++;
	for (i = 0; i < 400; i++)
		ev_write(torn.rb, 0, torn.seq++, 64);
}

static void test_overwrite_torn_copy(void)
{
	struct region r = { .fd = -1 };
	struct sigaction sa, old;
	struct ltt_rb_packet pkt;
	struct checker c;
	struct ltt_rb rb;
	uint8_t *buf = malloc(8192);
	int ret, i;

	if (!tap_ok(buf && region_create(&r, 8192, 2, true) == 0, "torn copy: create a 2 x 8 KiB region"))
		return;
	must_attach(&rb, &r);
	torn.rb = &rb;
	for (torn.seq = 0; torn.seq < 200; torn.seq++)
		ev_write(&rb, 0, torn.seq, 64);
	/* packet 0 is complete, packet 1 open; the copy of packet 0 will fault */
	torn.page = (uint8_t *)rb.data + 4096;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = torn_handler;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, &old);
	mprotect(torn.page, 4096, PROT_NONE);
	ret = ltt_rb_copy_next_subbuf(&rb, buf, 8192, &pkt);
	sigaction(SIGSEGV, &old, NULL);
	tap_is_int(torn.faults, 1, "torn copy: the copy was interrupted once");
	tap_is_int(ret, -ESTALE, "torn copy: a copy overwritten halfway is reported stale");
	/* what is read afterwards is whole */
	checker_init(&c, 8192, 1, false, false);
	for (i = 0; i < 8 && (ret = ltt_rb_copy_next_subbuf(&rb, buf, 8192, &pkt)) != -EAGAIN; i++) {
		if (ret == 0) {
			check_packet(&c, &pkt);
			ltt_rb_put_subbuf(&rb, &pkt);
		}
	}
	tap_ok(c.packets > 0 && c.errors == 0, "torn copy: the packets read after it are intact");
	free(buf);
	region_destroy(&r);
}

/*
 * Events per packet, deterministic, through the carry of the bytes field:
 * a 2 x 4 KiB region one lap before the carry, events of varied sizes,
 * partial packets (flush), empty ones, and a packet abandoned in the very
 * lap whose completion carries.
 */
static void test_events(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_slot dead;
	struct checker c;
	struct ltt_rb rb;
	uint64_t seq, written = 0, abandoned_at = 0;
	int ret;

	if (!tap_ok(region_create(&r, 4096, 2, false) == 0, "events: create a 2 x 4 KiB region"))
		return;
	region_seek(&r, SEEK_LAP);
	must_attach(&rb, &r);
	checker_init(&c, 4096, 1, false, false);
	for (seq = 0; seq < 20000; seq++) {
		ret = ev_write(&rb, 0, seq, ev_size(0, seq, 300));
		if (ret == -ENOBUFS) {
			drain(&rb, &c);
			ret = ev_write(&rb, 0, seq, ev_size(0, seq, 300));
		}
		written += ret == 0;
		if (seq % 997 == 0)
			ltt_rb_flush(&rb, false);
		if (seq % 2999 == 0) {
			drain(&rb, &c);
			ltt_rb_flush(&rb, true);	/* an empty packet */
		}
		/* the carry lap of sub-buffer 0: a writer dies in it */
		if (!abandoned_at && rb.shm->offset >= (SEEK_LAP + 1) * rb.buf_size + 8) {
			abandoned_at = c.total;
			ltt_rb_reserve(&rb, 40, &dead);
		}
		if (abandoned_at && abandoned_at != UINT64_MAX && rb.shm->offset >
		    (SEEK_LAP + 1) * rb.buf_size + rb.subbuf_size) {
			drain(&rb, &c);
			ret = ltt_rb_abandon_subbuf(&rb);
			tap_is_int(ret, 0, "events: the packet of a dead writer is abandoned "
				   "in the carry lap");
			abandoned_at = UINT64_MAX;
		}
	}
	ltt_rb_flush(&rb, false);
	drain(&rb, &c);
	tap_is_int(c.errors, 0, "events: every packet's event count is exact");
	tap_is_u64(rb.stats.packets_abandoned, 1, "events: one packet abandoned");
	tap_ok(c.total < written && c.total > written - 100,
	       "events: all but the abandoned packet's events read (%" PRIu64 " of %" PRIu64 ")",
	       c.total, written);
	tap_is_u64(c.pkt_events, c.total, "events: the counts add up to the events read");
	tap_ok(c.empty_packets > 0, "events: empty packets count 0");
	tap_ok(c.next_pkt_seq > seq_after_carry(2) + 100,
	       "events: through the carry and many laps after");
	region_destroy(&r);
}

/* A writer dies between reserve and commit. */
static void test_abandon(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb_slot dead;
	struct checker c;
	struct ltt_rb rb;
	uint64_t seq, stuck = 0;
	int ret;

	if (!tap_ok(region_create(&r, 4096, 4, false) == 0, "abandon: create a 4 x 4 KiB region"))
		return;
	must_attach(&rb, &r);
	checker_init(&c, 4096, 1, false, false);
	tap_is_int(ltt_rb_abandon_subbuf(&rb), -ENODATA, "abandon: nothing reserved: -ENODATA");
	ltt_rb_reserve(&rb, 64, &dead);		/* never committed */
	for (seq = 0; seq < 200; seq++)
		ev_write(&rb, 0, seq, 64);
	tap_is_int(get_pkt(&rb, &pkt), -EAGAIN, "abandon: packet 0 never completes");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "abandon: give it up");
	tap_is_u64(rb.stats.packets_abandoned, 1, "abandon: counted");
	tap_is_u64(rb.stats.events_abandoned, 61, "abandon: its 61 committed events counted");
	tap_is_int(get_pkt(&rb, &pkt), 0, "abandon: packet 1 is next");
	tap_is_u64(pkt.seq_num, 1, "abandon: seq num 1 (the gap reports packet 0)");
	check_packet(&c, &pkt);
	ltt_rb_put_subbuf(&rb, &pkt);
	drain(&rb, &c);
	tap_is_int(ltt_rb_abandon_subbuf(&rb), -EBUSY,
		   "abandon: an open packet whose writers all committed completes instead");
	drain(&rb, &c);
	tap_is_u64(c.total, 200 - 61, "abandon: every event outside packet 0 read");

	/* a dead writer in the open packet: closed and abandoned at once */
	ltt_rb_reserve(&rb, 100, &dead);
	ev_write(&rb, 0, 200, 64);
	tap_is_int(get_pkt(&rb, &pkt), -EAGAIN, "abandon: open packet, dead writer");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "abandon: closes and skips it");
	tap_is_u64(rb.stats.packets_abandoned, 2, "abandon: counted");
	tap_is_u64(rb.stats.events_abandoned, 62, "abandon: its 1 committed event counted");

	/* later laps reuse the abandoned sub-buffers: nothing stalls */
	for (seq = 201; seq < 3000; seq++) {
		ret = ev_write(&rb, 0, seq, 64);
		if (ret == -ENOBUFS) {
			drain(&rb, &c);
			ret = ev_write(&rb, 0, seq, 64);
		}
		stuck += ret != 0;
	}
	ltt_rb_flush(&rb, false);
	drain(&rb, &c);
	tap_is_u64(stuck, 0, "abandon: several laps later, writers never stall");
	tap_ok(c.last_seq[0] == 2999, "abandon: the last event is read");
	tap_is_int(c.errors, 0, "abandon: packets and events intact");
	region_destroy(&r);
}

/*
 * The region is hostile: targeted lies, then random scribbling, while the
 * reader keeps working.  It must never crash nor hand out a packet outside
 * the mapping or with sizes out of range.
 */
static void test_hostile(void)
{
	struct region r = { .fd = -1 };
	struct ltt_rb_packet_header *ph;
	struct ltt_rb_packet pkt;
	struct ltt_rb rb;
	uint64_t i, stuck = 0;
	struct checker c;
	uint8_t *mem;

	if (!tap_ok(region_create(&r, 4096, 4, false) == 0, "hostile: create a region"))
		return;
	must_attach(&rb, &r);
	mem = r.mem;

	/* a complete-looking packet with a content_size of 2^40 bits */
	ev_write(&rb, 0, 0, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + doff(4));
	ph->content_size = (uint64_t)1 << 40;
	tap_is_int(get_pkt(&rb, &pkt), -EIO, "hostile: huge content_size: -EIO");
	tap_ok(rb.stats.packets_corrupt == 1 && rb.consumed == 4096,
	       "hostile: counted corrupt and skipped");
	tap_is_u64(rb.stats.events_corrupt, 1, "hostile: its one event counted");
	/* content smaller than the header */
	ev_write(&rb, 0, 1, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + doff(4) + 4096);
	ph->content_size = 8 * 10;
	tap_is_int(get_pkt(&rb, &pkt), -EIO, "hostile: content under the header: -EIO");
	/* a commit count claiming the next lap in discard mode */
	ev_write(&rb, 0, 2, 64);
	ltt_rb_flush(&rb, false);
	rb.commit[2].count += 4096 * 7;
	tap_is_int(get_pkt(&rb, &pkt), -EIO, "hostile: commit count ahead: -EIO");
	/* a wrong sequence number */
	ev_write(&rb, 0, 3, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + doff(4) + 3 * 4096);
	ph->packet_seq_num = 12345;
	tap_is_int(get_pkt(&rb, &pkt), -EIO, "hostile: wrong seq num: -EIO");
	tap_is_u64(rb.stats.packets_corrupt, 4, "hostile: four corrupt packets counted");
	tap_is_u64(rb.stats.events_corrupt, 4, "hostile: and their four events");
	/* a commit count that never completes: the consumer gives up on it */
	ev_write(&rb, 0, 4, 64);
	ltt_rb_flush(&rb, false);
	rb.commit[0].count -= 1;
	tap_is_int(get_pkt(&rb, &pkt), -EAGAIN, "hostile: short commit count: -EAGAIN");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "hostile: then abandon");
	/* the count pushed ahead was repaired when its packet was skipped */
	checker_init(&c, 4096, 1, false, false);
	for (i = 5; i < 400; i++) {
		if (ev_write(&rb, 0, i, 64) == -ENOBUFS) {
			drain(&rb, &c);
			stuck += ev_write(&rb, 0, i, 64) != 0;
		}
	}
	tap_is_u64(stuck, 0, "hostile: writers go on past the repaired sub-buffer");
	region_destroy(&r);
}

/* One random lie somewhere in the region. */
static void scribble(uint8_t *mem, size_t len, const struct ltt_rb *rb, bool spare_offset)
{
	uint64_t v = (uint64_t)rand() << 33 ^ (uint64_t)rand();
	size_t off = ((size_t)rand() % (len / 8)) * 8;

	switch (rand() % 4) {
	case 0:	/* a small value anywhere */
		v &= 0xffff;
		break;
	case 1:	/* a commit count complete for the reader's lap */
		off = sizeof(struct ltt_rb_shm) + (size_t)(rand() % 4) * 64;
		v = (rb->consumed / 16384 + 1) * 4096;
		break;
	case 2:	/* a hot word */
		off = 64 + (size_t)(rand() % 24) * 8;
		break;
	default:	/* anything anywhere */
		break;
	}
	/*
	 * A lie about the write position stalls the stream for good (the
	 * application only hurts its own trace): spared while we count
	 * packets, allowed when we only check for crashes.
	 */
	if (spare_offset && off == offsetof(struct ltt_rb_shm, offset))
		return;
	memcpy(mem + off, &v, 8);
}

/*
 * Random scribbling interleaved with every reader call and with writes:
 * never a crash, never a packet outside the mapping or with sizes out of
 * range.
 */
static void test_scribble(bool overwrite)
{
	const char *name = overwrite ? "scribble (overwrite)" : "scribble (discard)";
	const unsigned int rounds = 300000, spared = 200000;
	struct region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb rb;
	uint8_t *buf = malloc(4096);
	uint64_t got = 0, got_spared = 0, bad = 0, n_eio = 0, n_eagain = 0, n_estale = 0, n_other = 0;
	unsigned int i, op;
	int ret;

	if (!tap_ok(buf && region_create(&r, 4096, 4, overwrite) == 0, "%s: create a region", name))
		return;
	must_attach(&rb, &r);
	srand(overwrite ? 3 : 2);
	for (i = 0; i < rounds; i++) {
		if (i == spared)
			got_spared = got;
		/* now and then, so that well-formed packets get through too */
		if (rand() % 16 == 0)
			scribble(r.mem, r.len, &rb, i < spared);
		op = (unsigned int)rand() % 8;
		switch (op) {
		case 0:
		case 1:
			ret = ltt_rb_get_next_subbuf(&rb, &pkt);
			break;
		case 2:
			ret = ltt_rb_copy_next_subbuf(&rb, buf, 4096, &pkt);
			break;
		case 3:
			ltt_rb_flush(&rb, rand() & 1);
			continue;
		case 4:
			ltt_rb_abandon_subbuf(&rb);
			continue;
		default:
			ev_write(&rb, 0, i, 29 + (size_t)rand() % 200);
			continue;
		}
		if (ret) {
			n_eio += ret == -EIO;
			n_eagain += ret == -EAGAIN;
			n_estale += ret == -ESTALE;
			n_other += ret != -EIO && ret != -EAGAIN && ret != -ESTALE;
			continue;
		}
		got++;
		if (pkt.content_size < HDR || pkt.content_size > 4096 || pkt.packet_size != 4096 ||
		    pkt.region_offset < 4096 || pkt.region_offset + 4096 > r.len ||
		    (op != 2 && (const uint8_t *)pkt.data != (uint8_t *)r.mem + pkt.region_offset) ||
		    (op == 2 && pkt.data != buf))
			bad++;
		ltt_rb_put_subbuf(&rb, &pkt);
	}
	tap_is_u64(bad, 0, "%s: every packet handed out is in bounds and in range", name);
	tap_is_u64(n_other, 0, "%s: get and copy return only documented codes", name);
	tap_diag("%s: %u operations, %" PRIu64 " packets accepted, %" PRIu64 " -EIO, %" PRIu64
		 " -EAGAIN, %" PRIu64 " -ESTALE, %" PRIu64 " corrupt, %" PRIu64 " abandoned",
		 name, rounds, got, n_eio, n_eagain, n_estale, rb.stats.packets_corrupt,
		 rb.stats.packets_abandoned);
	tap_ok(got_spared > 1000, "%s: the reader kept reading between scribbles (%" PRIu64 ")",
	       name, got_spared);
	tap_ok(rb.stats.packets_corrupt > 0, "%s: validation rejected scribbled packets", name);
	free(buf);
	region_destroy(&r);
}

int main(void)
{
	test_geometry();
	test_attach();
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
	test_overwrite();
	test_overwrite_race();
	test_overwrite_torn_copy();
	test_abandon();
	test_hostile();
	test_scribble(false);
	test_scribble(true);
	return tap_done();
}
