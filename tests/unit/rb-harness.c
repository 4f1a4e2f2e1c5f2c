// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rb-harness.c - what the tests of common/trace/ringbuf.c share: regions, self-
 * checking test events (their framing: rb-harness.h), the packet checker,
 * reader and writer threads.
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "rb-harness.h"
#include "tap.h"

#define FIT_BITS	8	/* small, so that racing writers exercise both answers */
#define TS_EXTRA	8	/* ltt_rb_reserve_ts(): the long size is 8 bytes more */
#define EV_FITS		1	/* the fits byte */
#define EV_TS_API	2

static const uint8_t test_uuid[16] = {
	0x6c, 0x74, 0x74, 0x2d, 0x72, 0x62, 0x2d, 0x74,
	0x65, 0x73, 0x74, 0x2d, 0x75, 0x75, 0x69, 0x64,
};

/*
 * Regions.
 */

/* Where sub-buffer 0 starts: header, commit records, writer area, rounded to a page. */
uint64_t rbh_doff(uint64_t num_subbuf)
{
	uint64_t end = 256 + 64 * num_subbuf + LTT_RB_WBLOCKS * sizeof(struct ltt_rb_wblock);

	return (end + 4095) & ~(uint64_t)4095;
}

uint32_t rbh_clock = LTT_TCLOCK_MONO;

int rbh_region_create(struct rbh_region *r, uint64_t subbuf_size, uint64_t num_subbuf,
		      bool overwrite)
{
	struct ltt_rb_config cfg = {
		.subbuf_size = subbuf_size,
		.num_subbuf = num_subbuf,
		.overwrite = overwrite,
		.clock = rbh_clock,
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

void rbh_region_destroy(struct rbh_region *r)
{
	if (r->mem && r->mem != MAP_FAILED)
		munmap(r->mem, r->len);
	if (r->fd >= 0)
		close(r->fd);
}

/* Attach or bail out: every test needs it. */
void rbh_must_attach(struct ltt_rb *rb, const struct rbh_region *r)
{
	if (ltt_rb_attach(rb, r->mem, r->len) != 0) {
		tap_diag("ltt_rb_attach failed on a fresh region");
		exit(1);
	}
}

/*
 * Move a fresh region to the start of lap @lap, as if @lap laps had been
 * written and read: write position, consumed and every commit word's
 * bytes field (the layout of ringbuf.h).  Before anyone else attaches.
 */
void rbh_region_seek(const struct rbh_region *r, uint64_t lap)
{
	struct ltt_rb rb;
	uint64_t i;

	rbh_must_attach(&rb, r);
	rb.shm->offset = lap * rb.buf_size;
	rb.shm->consumed = lap * rb.buf_size;
	for (i = 0; i < rb.num_subbuf; i++)
		rb.commit[i].count = (lap << rb.subbuf_order) & rb.bytes_mask;
}

/* Packet seq num after the last packet of the carry lap, for @num_subbuf. */
uint64_t rbh_seq_after_carry(uint64_t num_subbuf)
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
size_t rbh_ev_size(uint32_t writer, uint64_t seq, size_t max)
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

int rbh_ev_write(struct ltt_rb *rb, uint32_t writer, uint64_t seq, size_t len)
{
	return ev_write_ts(rb, writer, seq, len, false);
}

/*
 * The checker.
 */
void rbh_checker_init(struct rbh_checker *c, uint64_t subbuf_size, unsigned int nwriters,
		      bool contiguous, bool strict)
{
	memset(c, 0, sizeof(*c));
	c->subbuf_size = subbuf_size;
	c->nwriters = nwriters;
	c->contiguous = contiguous;
	c->strict = strict;
}

static void check_fail(struct rbh_checker *c, const char *fmt, ...) TAP_PRINTF(2, 3);

static void check_fail(struct rbh_checker *c, const char *fmt, ...)
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
static size_t check_event(struct rbh_checker *c, const uint8_t *ev, uint64_t room,
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

void rbh_check_packet(struct rbh_checker *c, const struct ltt_rb_packet *pkt)
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
int rbh_get_pkt(struct ltt_rb *rb, struct ltt_rb_packet *pkt)
{
	memset(pkt, 0, sizeof(*pkt));
	return ltt_rb_get_next_subbuf(rb, pkt);
}

/* Read (and check) whatever is ready; returns the number of packets. */
unsigned int rbh_drain(struct ltt_rb *rb, struct rbh_checker *c)
{
	struct ltt_rb_packet pkt;
	unsigned int n = 0;
	int ret;

	while ((ret = ltt_rb_get_next_subbuf(rb, &pkt)) != -EAGAIN) {
		if (ret) {
			check_fail(c, "get_next_subbuf: %s", strerror(-ret));
			continue;
		}
		rbh_check_packet(c, &pkt);
		if (ltt_rb_put_subbuf(rb, &pkt))
			check_fail(c, "put_subbuf failed");
		n++;
	}
	return n;
}

/*
 * The reader thread.
 */

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
static bool wakeup_late(struct rbh_reader *r)
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
	struct rbh_reader *r = arg;
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
			rbh_check_packet(&r->chk, &pkt);
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

int rbh_reader_start(struct rbh_reader *r, const struct rbh_region *reg, uint64_t subbuf_size,
		     unsigned int nwriters, bool contiguous, bool strict, bool copy)
{
	memset(r, 0, sizeof(*r));
	rbh_must_attach(&r->rb, reg);
	rbh_checker_init(&r->chk, subbuf_size, nwriters, contiguous, strict);
	r->efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	r->copy = copy;
	if (copy)
		r->buf = malloc(subbuf_size);
	if (r->efd < 0 || (copy && !r->buf))
		return -1;
	return pthread_create(&r->thread, NULL, reader_main, r) ? -1 : 0;
}

static void reader_kick(struct rbh_reader *r)
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
void rbh_reader_finish(struct rbh_reader *r, struct ltt_rb *rb)
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
void rbh_write_all(struct rbh_writer *w)
{
	uint64_t seq;
	int ret;

	for (seq = 0; seq < w->n; seq++) {
		do {
			ret = ev_write_ts(w->rb, w->id, seq, rbh_ev_size(w->id, seq, w->max),
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

void *rbh_writer_main(void *arg)
{
	rbh_write_all(arg);
	return NULL;
}
