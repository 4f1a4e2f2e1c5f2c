// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stream.c - a consumer stream between its two seams: the real "ust"
 * source on a memfd ring buffer, and a recording sink that can say it
 * would block.  Checks that a blocked sink leaves the packets in the ring
 * buffer (none lost, none written twice), that they all arrive in order
 * once it takes packets again, with index entries built from the headers,
 * that the budget and the final flush behave, and the counters.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "consumerd/source/source-ust.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/stream.h"
#include "tests/unit/tap.h"

#define SUBBUF 4096u
#define NUM_SUBBUF 8u
#define MAX_SEEN 64

static const uint8_t uuid[16] = "stream-test-uuid";

/* The recording sink and its output. */
struct rec_sink {
	struct ltt_sink base;
	bool blocked;
	int fail;		/* write returns it */
	unsigned int nr;
	uint64_t events;	/* sum of the packets' events written */
	uint64_t seq[MAX_SEEN];
	bool bad;		/* a packet that did not look like one */
};

static struct rec_sink rec;

static int rec_ready(struct ltt_sink *sink)
{
	return ((struct rec_sink *)sink)->blocked ? -EAGAIN : 0;
}

static int rec_write(struct ltt_sink *sink, struct ltt_sink_packet *pkt)
{
	struct rec_sink *r = (struct rec_sink *)sink;
	uint32_t magic;
	size_t total = 0;
	int i;

	for (i = 0; i < pkt->iovcnt; i++)
		total += pkt->iov[i].iov_len;
	memcpy(&magic, pkt->iov[0].iov_base, sizeof(magic));
	if (r->fail)
		return r->fail;
	if (r->blocked || total != pkt->len || pkt->len != SUBBUF || pkt->splice_fd != -1 ||
	    magic != LTT_RB_PACKET_MAGIC || pkt->entry.packet_size != SUBBUF * 8 ||
	    pkt->entry.stream_instance_id != 2 || r->nr == MAX_SEEN)
		r->bad = true;
	else
		r->seq[r->nr++] = pkt->entry.packet_seq_num;
	r->events += pkt->events;
	return 0;
}

static void rec_destroy(struct ltt_sink *sink)
{
	(void)sink;
}

static const struct ltt_sink_ops rec_ops = {
	.name = "test", .ready = rec_ready, .write = rec_write, .destroy = rec_destroy,
};

static int rec_open(const struct ltt_output *out, const char *name, struct ltt_sink **ret)
{
	(void)out;
	if (strcmp(name, "chan_2"))
		return -EINVAL;
	rec.base.ops = &rec_ops;
	rec.base.poll_fd = -1;
	*ret = &rec.base;
	return 0;
}

static const struct ltt_output_ops rec_out_ops = { .name = "test", .open_sink = rec_open };
static struct ltt_output rec_out = { .ops = &rec_out_ops };

/*
 * Fill @n sub-buffers with 100-byte events; the last one stays open.
 * Returns the number of events written.
 */
static unsigned int write_subbufs(struct ltt_rb *rb, unsigned int n)
{
	unsigned int per = (SUBBUF - LTT_RB_PACKET_HEADER_SIZE) / 100, i;
	struct ltt_rb_slot slot;

	for (i = 0; i < n * per + 1; i++) {
		if (ltt_rb_reserve(rb, 100, &slot))
			break;
		memset(slot.data, 0x5a, slot.len);
		ltt_rb_commit(rb, &slot);
	}
	return i;
}

static bool in_order(unsigned int from, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (rec.seq[i] != from + i)
			return false;
	return true;
}

/* A ring buffer's memfd, mapped and initialized as the session daemon does, and its eventfd. */
struct ring {
	int shm, efd;
	void *mem;
	size_t len;
	struct ltt_rb rb;	/* the writers' handle */
};

/* @r made (SUBBUF x NUM_SUBBUF, cpu 2, sealed); -1 when it can't be. */
static int ring_open(struct ring *r)
{
	struct ltt_rb_config rc = { .subbuf_size = SUBBUF, .num_subbuf = NUM_SUBBUF, .cpu = 2 };

	memcpy(rc.uuid, uuid, sizeof(rc.uuid));
	r->len = ltt_rb_region_size(SUBBUF, NUM_SUBBUF);
	r->shm = memfd_create("rb", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	r->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (r->shm < 0 || r->efd < 0 || ftruncate(r->shm, (off_t)r->len))
		return -1;
	r->mem = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED, r->shm, 0);
	if (r->mem == MAP_FAILED || ltt_rb_init_region(r->mem, r->len, &rc) ||
	    ltt_rb_attach(&r->rb, r->mem, r->len))
		return -1;
	fcntl(r->shm, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW);
	return 0;
}

static void ring_close(struct ring *r)
{
	munmap(r->mem, r->len);
	close(r->shm);
	close(r->efd);
}

/*
 * A stream that closes while its program still writes (a per-process
 * buffer whose program outlives its channel's removal): the events
 * committed after the final drain (ltt_stream_discard()) are in no
 * packet read; the source's abandon, which ltt_stream_destroy() calls
 * before its last publish, counts them lost and says how many (before:
 * the UST source had no abandon, and they were in no count).
 */
static void test_closed_while_writing(void)
{
	struct ltt_channel chan = { .name = "chan", .output = &rec_out };
	struct ltt_scratch scratch = { 0 };
	struct ltt_channel_stats st = { 0 };
	struct ltt_source_ust_cfg cfg = {
		.chan_name = "chan", .cpu = 2, .uuid = uuid, .any_stream_id = true,
	};
	unsigned int written, late, nr = rec.nr;
	struct ltt_source *src;
	struct ltt_stream *s;
	struct ring r;
	uint64_t counted;

	if (ring_open(&r))
		exit(1);
	cfg.shm_fd = r.shm;
	cfg.wakeup_fd = r.efd;
	if (ltt_source_ust_create(&cfg, &src) || ltt_stream_create(&chan, 2, src, &s))
		exit(1);
	written = write_subbufs(&r.rb, 2);
	rec.blocked = true;
	ltt_stream_discard(s, &scratch);	/* closing: its output still blocked */
	late = write_subbufs(&r.rb, 1);		/* the program writes on */
	counted = ltt_source_abandon(s->src);	/* as ltt_stream_destroy() does */
	ltt_stream_stats(s, &st);
	tap_ok(counted == late && st.events_lost == written + late && rec.nr == nr,
	       "closed while its program writes: the %u events drained and the %u committed "
	       "after, counted lost when it closes (%llu; the abandon counts %llu)", written, late,
	       (unsigned long long)st.events_lost, (unsigned long long)counted);
	tap_is_u64(ltt_source_abandon(s->src), 0, "... an abandon again counts nothing twice");
	rec.blocked = false;
	ltt_stream_destroy(s);
	ring_close(&r);
}

int main(void)
{
	struct ltt_channel chan = { .name = "chan", .output = &rec_out };
	struct ltt_scratch scratch = { 0 };
	struct ltt_channel_stats st = { 0 };
	struct ltt_source_ust_cfg cfg = {
		.chan_name = "chan", .cpu = 2, .uuid = uuid, .any_stream_id = true,
	};
	struct ltt_source *src;
	struct ltt_stream *s;
	struct ring r;
	struct ltt_rb *rb = &r.rb;
	unsigned int written;

	if (ring_open(&r))
		return 1;
	cfg.shm_fd = r.shm;
	cfg.wakeup_fd = r.efd;
	tap_is_int(ltt_source_ust_create(&cfg, &src), 0, "ust source on the ring buffer");
	tap_is_u64(src->packet_size, SUBBUF, "it knows its packet size");
	tap_is_int(ltt_stream_create(&chan, 2, src, &s), 0, "stream of the source and a test sink");

	written = write_subbufs(rb, 5);
	rec.blocked = true;
	tap_is_int(ltt_stream_drain(s, &scratch, 64), LTT_STREAM_BLOCKED,
		   "a sink that would block: the drain says blocked");
	tap_is_int(rec.nr, 0, "and took no packet");
	rec.blocked = false;
	tap_is_int(ltt_stream_drain(s, &scratch, 3), LTT_STREAM_BUSY, "budget of 3: busy");
	tap_ok(rec.nr == 3 && in_order(0, 3), "packets 0..2, in order");
	tap_is_int(ltt_stream_drain(s, &scratch, 64), LTT_STREAM_IDLE, "then idle");
	tap_ok(rec.nr == 5 && in_order(0, 5), "packets 3 and 4 followed, none twice");
	rec.blocked = true;
	tap_is_int(ltt_stream_flush(s, &scratch, true), LTT_STREAM_BLOCKED,
		   "a final flush into a blocked sink: blocked");
	rec.blocked = false;
	tap_is_int(ltt_stream_flush(s, &scratch, true), LTT_STREAM_IDLE, "then the flush completes");
	tap_ok(rec.nr == 6 && in_order(0, 6), "the open packet was closed and written");
	tap_ok(!rec.bad, "every packet was whole, with its header and index entry");
	tap_is_u64(rec.events, written, "the packets' event counts add up to the %u events written",
		   written);
	ltt_stream_stats(s, &st);
	tap_is_u64(st.bytes_written, 6 * SUBBUF, "bytes written counted");
	tap_is_u64(st.packets_lost, 0, "nothing lost");
	tap_is_u64(st.events_lost, 0, "no event lost");

	/* a sink that fails: each packet counted lost with its events */
	written = write_subbufs(rb, 2);
	rec.fail = -EIO;
	tap_is_int(ltt_stream_flush(s, &scratch, false), LTT_STREAM_IDLE, "flush into a failing sink");
	rec.fail = 0;
	memset(&st, 0, sizeof(st));
	ltt_stream_stats(s, &st);
	tap_is_u64(st.packets_lost, 3, "its 3 packets counted lost");
	tap_is_u64(st.events_lost, written, "with their %u events", written);

	/* closed while the sink blocks: what is left is read and counted lost */
	written += write_subbufs(rb, 2);
	rec.blocked = true;
	tap_is_int(ltt_stream_flush(s, &scratch, true), LTT_STREAM_BLOCKED,
		   "a final flush into a blocked sink: blocked");
	ltt_stream_discard(s, &scratch);
	memset(&st, 0, sizeof(st));
	ltt_stream_stats(s, &st);
	tap_is_u64(st.packets_lost, 6, "closing it counts the 3 packets left lost");
	tap_is_u64(st.events_lost, written, "with their events: every event written is in a "
		   "packet written or counted lost (%u)", written);
	tap_is_int(rec.nr, 6, "nothing more was written");
	ltt_stream_destroy(s);
	ring_close(&r);
	test_closed_while_writing();
	return tap_done();
}
