// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ringbuf_overwrite.c - unit tests of common/trace/ringbuf.c in overwrite
 * (flight-recorder) mode: the newest data kept, writers lapping a reader
 * that copies, openers racing, and a copy torn by a lapping writer.  The
 * test events and the checker of what a reader gets: rb-harness.h.
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

#include "common/trace/ringbuf.h"
#include "tests/unit/rb-harness.h"
#include "tests/unit/tap.h"

/* Overwrite mode: no reading while writing, then the newest data. */
static void test_overwrite(void)
{
	struct rbh_region r = { .fd = -1 };
	struct ltt_rb_packet pkt;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint8_t *buf = malloc(4096);
	uint64_t seq, ok = 0, seen;
	int ret, n = 0;

	if (!tap_ok(buf && rbh_region_create(&r, 4096, 4, true) == 0,
		    "overwrite: create a 4 x 4 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	rbh_checker_init(&c, 4096, 1, true, true);
	for (seq = 0; seq < 1000; seq++)
		ok += rbh_ev_write(&rb, 0, seq, 64) == 0;
	tap_is_u64(ok, 1000, "overwrite: the writer never fails");
	tap_is_u64(ltt_rb_events_lost(&rb), 0, "overwrite: nothing counted lost");
	tap_is_int(ltt_rb_flush(&rb, false), 0, "overwrite: flush the last packet");
	while ((ret = ltt_rb_copy_next_subbuf(&rb, buf, 4096, &pkt)) == 0) {
		rbh_check_packet(&c, &pkt);
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
		rbh_ev_write(&rb, 0, seq, 64);
	tap_is_int(rbh_get_pkt(&rb, &pkt), 0, "overwrite: get a packet in place");
	tap_is_int(ltt_rb_check_subbuf(&rb, &pkt), 0, "overwrite: not overwritten yet");
	for (seq = 1200; seq < 1600; seq++)
		rbh_ev_write(&rb, 0, seq, 64);
	tap_is_int(ltt_rb_check_subbuf(&rb, &pkt), -ESTALE, "overwrite: lapped after the get: -ESTALE");
	ltt_rb_put_subbuf(&rb, &pkt);
	seen = rb.stats.packets_overwritten;
	rbh_checker_init(&c, 4096, 1, false, false);
	c.last_ts_end = pkt.timestamp_end;
	ret = rbh_get_pkt(&rb, &pkt);
	tap_ok(ret == 0 && rb.stats.packets_overwritten > seen && pkt.seq_num > 18,
	       "overwrite: the next get skips ahead; the seq num gap shows the loss");
	if (ret == 0)
		rbh_check_packet(&c, &pkt);
	tap_is_int(c.errors, 0, "overwrite: the packet after the gap is intact");
	free(buf);
	rbh_region_destroy(&r);
}

/*
 * Writers racing to open sub-buffers, in a ring that never fills: no
 * event may be dropped.  A writer that loaded the position before another
 * opened the next sub-buffer finds that sub-buffer's commit count holding
 * the other's bytes: it must look at the position again, not take the
 * count for a full buffer (it did, and dropped one event in thousands of
 * opens, counted but needless).
 */
#define OPENER_LEN	40
#define ROUNDS		100

struct opener {
	struct ltt_rb *rb;
	uint64_t n, dropped;
	pthread_t thread;
};

static void *opener_main(void *arg)
{
	struct opener *o = arg;
	struct ltt_rb_slot slot;
	uint64_t i;

	for (i = 0; i < o->n; i++) {
		if (ltt_rb_reserve(o->rb, OPENER_LEN, &slot)) {
			o->dropped++;
			continue;
		}
		memset(slot.data, 0x6f, slot.len);
		ltt_rb_commit(o->rb, &slot);
	}
	return NULL;
}

static void test_racing_openers(void)
{
	/* 512 sub-buffers of 4 KiB hold 512 * 101 events of 40 bytes */
	const uint64_t subbuf = 4096, nr = 512, per_round = 2 * 24000;
	uint64_t dropped = 0, lost = 0, opens = 0;
	unsigned int round, i;

	for (round = 0; round < ROUNDS; round++) {
		struct rbh_region r = { .fd = -1 };
		struct opener o[2];
		struct ltt_rb rb;

		if (rbh_region_create(&r, subbuf, nr, false) != 0)
			break;
		rbh_must_attach(&rb, &r);
		for (i = 0; i < 2; i++) {
			o[i] = (struct opener){ .rb = &rb, .n = per_round / 2 };
			pthread_create(&o[i].thread, NULL, opener_main, &o[i]);
		}
		for (i = 0; i < 2; i++) {
			pthread_join(o[i].thread, NULL);
			dropped += o[i].dropped;
		}
		lost += ltt_rb_events_lost(&rb);
		opens += per_round / ((subbuf - LTT_RB_PACKET_HEADER_SIZE) / OPENER_LEN);
		rbh_region_destroy(&r);
	}
	tap_is_int(round, ROUNDS, "racing openers: %d rings of 512 x 4 KiB", ROUNDS);
	tap_is_u64(dropped, 0, "racing openers: no event dropped in a ring with room "
		   "(about %" PRIu64 " sub-buffers opened by racing writers)", opens);
	tap_is_u64(lost, 0, "racing openers: events_lost stays 0");
}

/* Overwrite mode under a writer going flat out: copies are never torn. */
static void test_overwrite_race(void)
{
	struct rbh_region r = { .fd = -1 };
	struct rbh_writer w = { .id = 0, .n = 400000, .max = 200 };
	struct rbh_reader rd;
	struct ltt_rb wrb;

	if (!tap_ok(rbh_region_create(&r, 4096, 4, true) == 0, "overwrite race: create a region"))
		return;
	rbh_must_attach(&wrb, &r);
	if (!tap_ok(rbh_reader_start(&rd, &r, 4096, 1, false, false, true) == 0,
		    "overwrite race: start a copying reader"))
		return;
	ltt_rb_set_wakeup_fd(&wrb, rd.efd);
	w.rb = &wrb;
	pthread_create(&w.thread, NULL, rbh_writer_main, &w);
	pthread_join(w.thread, NULL);
	rbh_reader_finish(&rd, &wrb);
	tap_is_u64(w.ok, w.n, "overwrite race: the writer never fails");
	tap_is_int(rd.chk.errors, 0, "overwrite race: every packet copied is intact and in order");
	tap_ok(rd.chk.last_seq[0] == w.n - 1, "overwrite race: the newest event is read");
	tap_diag("overwrite race: %" PRIu64 " packets read, %" PRIu64 " overwritten, %lu stale copies",
		 rd.chk.packets, rd.rb.stats.packets_overwritten, rd.stale);
	rbh_region_destroy(&r);
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
		rbh_ev_write(torn.rb, 0, torn.seq++, 64);
}

static void test_overwrite_torn_copy(void)
{
	struct rbh_region r = { .fd = -1 };
	struct sigaction sa, old;
	struct ltt_rb_packet pkt;
	struct rbh_checker c;
	struct ltt_rb rb;
	uint8_t *buf = malloc(8192);
	int ret, i;

	if (!tap_ok(buf && rbh_region_create(&r, 8192, 2, true) == 0, "torn copy: create a 2 x 8 KiB region"))
		return;
	rbh_must_attach(&rb, &r);
	torn.rb = &rb;
	for (torn.seq = 0; torn.seq < 200; torn.seq++)
		rbh_ev_write(&rb, 0, torn.seq, 64);
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
	rbh_checker_init(&c, 8192, 1, false, false);
	for (i = 0; i < 8 && (ret = ltt_rb_copy_next_subbuf(&rb, buf, 8192, &pkt)) != -EAGAIN; i++) {
		if (ret == 0) {
			rbh_check_packet(&c, &pkt);
			ltt_rb_put_subbuf(&rb, &pkt);
		}
	}
	tap_ok(c.packets > 0 && c.errors == 0, "torn copy: the packets read after it are intact");
	free(buf);
	rbh_region_destroy(&r);
}

int main(void)
{
	test_overwrite();
	test_overwrite_race();
	test_racing_openers();
	test_overwrite_torn_copy();
	return tap_done();
}
