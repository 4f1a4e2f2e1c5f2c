// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ringbuf_blocking.c - blocking writers (src/common/trace/ringbuf.c,
 * wait_for_room(), ltt_rb_wake_writers(), ltt_rb_set_blocking();
 * doc/ust.md, "Blocking writers"): a writer that finds a discard-mode
 * buffer full waits for the reader on the region's futex, up to the
 * region's timeout, instead of dropping its event; the reader's put wakes
 * it; turning blocking off wakes it and it drops.
 *
 * A writer thread blocks; the main thread watches the region's
 * writers_waiting word (bounded) before it acts, so each case is the
 * interleaving it names.  Last, a race no interleaving can be forced
 * into: a writer flat out, each of its events opening a packet, against a
 * reader that puts packets as fast as it can, so that the reader often
 * catches up between the writer's look at the read position and its
 * decision; with an infinite timeout not one event may be dropped.  (The
 * writer once looked twice, took a reader caught up since for a writer
 * still in the lap, and dropped: every run of this case failed then,
 * within 40,000 events; test_ust_blocking's inf case, about once in 40.)
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "tests/unit/tap.h"

#define S	4096u
#define NSUB	2u
#define EV	64u
#define WAIT_NS	(10LL * 1000000000LL)	/* the longest the main thread waits for a state */

struct fixture {
	void *mem;
	size_t len;
	struct ltt_rb writer;
	struct ltt_rb reader;
	int ret;		/* the writer thread's reserve */
	int64_t took_ns;	/* and how long it took */
	bool done;
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int setup(struct fixture *f, uint64_t timeout_us, bool overwrite)
{
	struct ltt_rb_config cfg = { .subbuf_size = S, .num_subbuf = NSUB, .stream_id = 1,
				     .block_timeout_us = timeout_us, .overwrite = overwrite };

	memset(f, 0, sizeof(*f));
	f->len = ltt_rb_region_size(S, NSUB);
	f->mem = mmap(NULL, f->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f->mem == MAP_FAILED || ltt_rb_init_region(f->mem, f->len, &cfg) ||
	    ltt_rb_attach(&f->writer, f->mem, f->len) ||
	    ltt_rb_attach(&f->reader, f->mem, f->len))
		return -1;
	return 0;
}

static void teardown(struct fixture *f)
{
	if (f->mem != MAP_FAILED)
		munmap(f->mem, f->len);
}

static int write_event(struct fixture *f)
{
	struct ltt_rb_slot slot;
	int ret = ltt_rb_reserve(&f->writer, EV, &slot);

	if (ret)
		return ret;
	memset(slot.data, 0xab, EV);
	ltt_rb_commit(&f->writer, &slot);
	return 0;
}

/* Write until the buffer is full (the first drop, not counted here). */
static unsigned int fill(struct fixture *f)
{
	unsigned int n = 0;

	while (n < 2 * S && !write_event(f))
		n++;
	return n;
}

static uint64_t lost(const struct fixture *f)
{
	return ltt_rb_events_lost(&f->reader);
}

static void *writer_thread(void *arg)
{
	struct fixture *f = arg;
	int64_t t0 = now_ns();

	f->ret = write_event(f);
	f->took_ns = now_ns() - t0;
	__atomic_store_n(&f->done, true, __ATOMIC_RELEASE);
	return NULL;
}

/* Wait (bounded) until a writer says it waits for room. */
static bool writer_waits(const struct fixture *f)
{
	int64_t end = now_ns() + WAIT_NS;

	while (!__atomic_load_n(&f->reader.shm->writers_waiting, __ATOMIC_ACQUIRE))
		if (now_ns() > end || __atomic_load_n(&f->done, __ATOMIC_ACQUIRE))
			return false;
		else
			sched_yield();
	return true;
}

#define RACE_EVENTS 100000u
/* More than half a sub-buffer: each event opens a packet, checking the reader. */
#define RACE_EV (S / 2 + 8)

/* The race's writer: RACE_EVENTS events, each a counter, flat out. */
static void *race_writer(void *arg)
{
	struct fixture *f = arg;
	struct ltt_rb_slot slot;
	uint32_t i;

	for (i = 0; i < RACE_EVENTS; i++) {
		f->ret = ltt_rb_reserve(&f->writer, RACE_EV, &slot);
		if (f->ret)
			break;
		memcpy(slot.data, &i, sizeof(i));
		ltt_rb_commit(&f->writer, &slot);
	}
	__atomic_store_n(&f->done, true, __ATOMIC_RELEASE);
	return NULL;
}

static bool joined(struct fixture *f, pthread_t t)
{
	int64_t end = now_ns() + WAIT_NS;

	while (!__atomic_load_n(&f->done, __ATOMIC_ACQUIRE))
		if (now_ns() > end)
			return false;
		else
			sched_yield();
	return !pthread_join(t, NULL);
}

/* The reader takes and puts the next packet: 0 or its -errno. */
static int read_one(struct fixture *f)
{
	struct ltt_rb_packet pkt;
	int ret = ltt_rb_get_next_subbuf(&f->reader, &pkt);

	return ret ? ret : ltt_rb_put_subbuf(&f->reader, &pkt);
}

int main(void)
{
	struct fixture f;
	uint32_t seq;
	pthread_t t;
	unsigned int n;

	/* Not allowed (the default after attach): dropped at once, as always. */
	tap_ok(!setup(&f, LTT_RB_BLOCK_FOREVER, false), "region with an infinite timeout");
	n = fill(&f);
	tap_ok(n > 0, "filled with %u events", n);
	tap_is_int(lost(&f), 1, "blocking not turned on: the event that found it full was dropped");
	tap_is_int(f.reader.shm->writers_waiting, 0, "and no writer said it waits");

	/* Forever: the reader's put wakes it, its event is written. */
	ltt_rb_set_blocking(&f.writer, true);
	seq = f.reader.shm->room_seq;
	tap_ok(!pthread_create(&t, NULL, writer_thread, &f), "a writer thread");
	tap_ok(writer_waits(&f), "it waits for room (writers_waiting)");
	tap_ok(!__atomic_load_n(&f.done, __ATOMIC_ACQUIRE), "and has not returned");
	tap_is_int(read_one(&f), 0, "the reader reads a packet and puts it");
	tap_ok(joined(&f, t), "the writer returns");
	tap_is_int(f.ret, 0, "with its event written");
	tap_is_int(lost(&f), 1, "nothing more lost");
	tap_ok(f.reader.shm->room_seq != seq, "the reader bumped room_seq ...");
	tap_is_int(f.reader.shm->writers_waiting, 0, "... and cleared writers_waiting");

	/* Forever, then blocking turned off: it gives up, the event is dropped. */
	ltt_rb_set_blocking(&f.writer, false);
	fill(&f);
	ltt_rb_set_blocking(&f.writer, true);
	n = (unsigned int)lost(&f);
	__atomic_store_n(&f.done, false, __ATOMIC_RELEASE);
	tap_ok(!pthread_create(&t, NULL, writer_thread, &f), "another writer thread");
	tap_ok(writer_waits(&f), "it waits");
	ltt_rb_set_blocking(&f.writer, false);
	tap_ok(joined(&f, t), "blocking turned off: it returns");
	tap_is_int(f.ret, -ENOBUFS, "with its event dropped");
	tap_is_int(lost(&f), n + 1, "and counted lost");
	teardown(&f);

	/* A timeout: it waits that long, then drops. */
	tap_ok(!setup(&f, 50000, false), "region with a 50 ms timeout");
	fill(&f);
	ltt_rb_set_blocking(&f.writer, true);
	n = (unsigned int)lost(&f);
	tap_ok(!pthread_create(&t, NULL, writer_thread, &f), "a writer thread");
	tap_ok(joined(&f, t), "it returns by itself");
	tap_is_int(f.ret, -ENOBUFS, "its event dropped");
	tap_ok(f.took_ns >= 50000000, "after waiting its 50 ms (%lld us)", (long long)(f.took_ns / 1000));
	tap_is_int(lost(&f), n + 1, "counted lost");
	/* room first: no wait at all */
	tap_is_int(read_one(&f), 0, "the reader puts a packet");
	tap_is_int(write_event(&f), 0, "the next event finds room at once");
	teardown(&f);

	/* Overwrite mode: the region keeps no timeout, nothing waits. */
	tap_ok(!setup(&f, LTT_RB_BLOCK_FOREVER, true), "overwrite region given a timeout");
	tap_is_int(f.reader.shm->block_timeout_us, 0, "its header says 0");
	ltt_rb_set_blocking(&f.writer, true);
	for (n = 0; n < 4 * S / EV; n++)
		if (write_event(&f))
			break;
	tap_is_int(n, 4 * S / EV, "its writers overwrite, never wait");
	teardown(&f);

	/* The reader catching up as the writer looks: the writer waits, never drops. */
	tap_ok(!setup(&f, LTT_RB_BLOCK_FOREVER, false), "race: region with an infinite timeout");
	ltt_rb_set_blocking(&f.writer, true);
	tap_ok(!pthread_create(&t, NULL, race_writer, &f), "race: a writer flat out");
	{
		int64_t end = now_ns() + 6 * WAIT_NS;
		uint64_t packets = 0;
		int r;

		/* read until the writer is done and the buffer drained (bounded) */
		for (;;) {
			bool done = __atomic_load_n(&f.done, __ATOMIC_ACQUIRE);

			r = read_one(&f);
			if (!r)
				packets++;
			else if (done || now_ns() > end)
				break;
		}
		tap_ok(joined(&f, t), "race: the writer returns");
		tap_is_int(f.ret, 0, "race: every reservation succeeded");
		tap_is_int((long long)lost(&f), 0, "race: no event dropped");
		tap_ok(packets + NSUB >= RACE_EVENTS, "race: %llu packets read as the writer wrote",
		       (unsigned long long)packets);
	}
	teardown(&f);
	return tap_done();
}
