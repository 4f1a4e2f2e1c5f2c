// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ringbuf_hostile.c - unit tests of common/trace/ringbuf.c against a
 * hostile region (memory shared with traced applications): targeted lies
 * in the headers and commit words, then random scribbling, in discard and
 * overwrite mode, while a reader keeps working.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/rb-harness.h"
#include "tests/unit/tap.h"

/*
 * The region is hostile: targeted lies, then random scribbling, while the
 * reader keeps working.  It must never crash nor hand out a packet outside
 * the mapping or with sizes out of range.
 */
static void test_hostile(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet_header *ph;
	struct ltt_rb_packet pkt;
	struct ltt_rb rb;
	uint64_t i, stuck = 0;
	struct rbh_checker c;
	uint8_t *mem;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, false) == 0, "hostile: create a region"))
		return;
	rbh_must_attach(&rb, &r);
	mem = r.mem;

	/* a complete-looking packet with a content_size of 2^40 bits */
	rbh_ev_write(&rb, 0, 0, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + rbh_doff(4));
	ph->content_size = (uint64_t)1 << 40;
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EIO, "hostile: huge content_size: -EIO");
	tap_ok(rb.stats.packets_corrupt == 1 && rb.consumed == 4096,
	       "hostile: counted corrupt and skipped");
	tap_is_u64(rb.stats.events_corrupt, 1, "hostile: its one event counted");
	/* content smaller than the header */
	rbh_ev_write(&rb, 0, 1, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + rbh_doff(4) + 4096);
	ph->content_size = 8 * 10;
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EIO, "hostile: content under the header: -EIO");
	/* a commit count claiming the next lap in discard mode */
	rbh_ev_write(&rb, 0, 2, 64);
	ltt_rb_flush(&rb, false);
	rb.commit[2].count += 4096 * 7;
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EIO, "hostile: commit count ahead: -EIO");
	/* a wrong sequence number */
	rbh_ev_write(&rb, 0, 3, 64);
	ltt_rb_flush(&rb, false);
	ph = (struct ltt_rb_packet_header *)(void *)(mem + rbh_doff(4) + 3 * 4096);
	ph->packet_seq_num = 12345;
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EIO, "hostile: wrong seq num: -EIO");
	tap_is_u64(rb.stats.packets_corrupt, 4, "hostile: four corrupt packets counted");
	tap_is_u64(rb.stats.events_corrupt, 4, "hostile: and their four events");
	/* a commit count that never completes: the consumer gives up on it */
	rbh_ev_write(&rb, 0, 4, 64);
	ltt_rb_flush(&rb, false);
	rb.commit[0].count -= 1;
	tap_is_int(rbh_get_pkt(&rb, &pkt), -EAGAIN, "hostile: short commit count: -EAGAIN");
	tap_is_int(ltt_rb_abandon_subbuf(&rb), 0, "hostile: then abandon");
	/* the count pushed ahead was repaired when its packet was skipped */
	rbh_checker_init(&c, 4096, 1, false, false);
	for (i = 5; i < 400; i++) {
		if (rbh_ev_write(&rb, 0, i, 64) == -ENOBUFS) {
			rbh_drain(&rb, &c);
			stuck += rbh_ev_write(&rb, 0, i, 64) != 0;
		}
	}
	tap_is_u64(stuck, 0, "hostile: writers go on past the repaired sub-buffer");
	rbh_region_destroy(&r);
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
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct ltt_rb rb;
	uint8_t *buf = malloc(4096);
	uint64_t got = 0, got_spared = 0, bad = 0, n_eio = 0, n_eagain = 0, n_estale = 0, n_other = 0;
	unsigned int i, op;
	int ret;

	if (!tap_ok(buf && rbh_region_create(&r, 4096, 4, overwrite) == 0, "%s: create a region", name))
		return;
	rbh_must_attach(&rb, &r);
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
			rbh_ev_write(&rb, 0, i, 29 + (size_t)rand() % 200);
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
	rbh_region_destroy(&r);
}

int main(void)
{
	test_hostile();
	test_scribble(false);
	test_scribble(true);
	return tap_done();
}
