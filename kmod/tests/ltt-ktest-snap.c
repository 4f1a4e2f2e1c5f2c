// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-snap.c - snapshots of a stream without consuming it
 * (LTT_KABI_SNAPSHOT_SPAN, LTT_KABI_SNAPSHOT_PEEK, kernel ABI 1.2):
 *
 *   - two snapshots in a row hold the same events, the second the new
 *     ones too: nothing is consumed;
 *   - after writers lapped the buffer, a snapshot holds the newest
 *     events, contiguous, and the packets before its span are refused;
 *   - a packet the reader holds is copied from where the reader holds it;
 *     once put back it is refused;
 *   - a copy stopped halfway (its destination page faults, served by a
 *     userfaultfd thread that makes the writers lap the buffer first)
 *     ends half old, half new in user memory: PEEK must refuse it;
 *   - while the test probe writes on CPU 0, snapshots taken on CPU 1 get
 *     only whole packets: every event of every packet copied is intact
 *     and in order; packets overwritten before or while copied are
 *     refused (ESTALE) and counted.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ltt-ktest.h"

/* What one snapshot of a stream got. */
struct snap {
	uint64_t packets, events;	/* copied, and the events PEEK said they hold */
	uint64_t stale, again;		/* refused: overwritten, not complete */
	uint64_t begin, end;
};

static int peek(int fd, uint64_t pos, void *buf, size_t len, struct ltt_kabi_snapshot_peek *pk)
{
	memset(pk, 0, sizeof(*pk));
	pk->pos = pos;
	pk->buf = (uintptr_t)buf;
	pk->buf_len = len;
	return ioctl(fd, LTT_KABI_SNAPSHOT_PEEK, pk) ? -errno : 0;
}

/* Copy the span of stream @fd's packets into @out (appended). */
static void snapshot(struct chan *c, int fd, int out, struct snap *s)
{
	struct ltt_kabi_snapshot_span span;
	struct ltt_kabi_snapshot_peek pk;
	size_t len = c->attr.subbuf_size;
	uint8_t *buf = malloc(len);
	uint64_t pos;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!buf || ioctl(fd, LTT_KABI_SNAPSHOT_SPAN, &span))
		die("SNAPSHOT_SPAN");
	s->begin = span.begin;
	s->end = span.end;
	for (pos = span.begin; pos < span.end; pos += span.packet_size) {
		ret = peek(fd, pos, buf, len, &pk);
		if (ret == -ESTALE) {
			s->stale++;
			continue;
		}
		if (ret == -EAGAIN) {
			s->again++;
			continue;
		}
		if (ret)
			die("SNAPSHOT_PEEK");
		if (pk.seq != pos / len || get64(buf + 64) != pk.seq ||
		    get64(buf + 48) != pk.content_size * 8)
			s->stale += 1ULL << 32;	/* shows as a failure below */
		if (write(out, buf, len) != (ssize_t)len)
			die("write");
		s->packets++;
		s->events += pk.events;
	}
	free(buf);
}

static void trace_free(struct trace *t)
{
	int i;

	for (i = 0; i < MAX_CPUS; i++)
		free(t->mem[i]);
	free(t->ev);
	memset(t, 0, sizeof(*t));
}

/*
 * Snapshot stream 0 of @c into a fresh trace @t: the number of test
 * events, each intact, with seqs @lo..@hi exactly once each (else
 * *@ret_ok false).
 */
static uint64_t snap_events(struct chan *c, struct snap *s, struct trace *t, uint64_t lo,
			    uint64_t hi, bool *ret_ok)
{
	int out = open_out(NULL, 0);
	uint64_t i, prev = 0;
	bool ok = true;

	trace_free(t);
	snapshot(c, c->streams[0], out, s);
	decode_file(c, 0, out, t);
	close(out);
	for (i = 0; i < t->nr; i++) {
		uint64_t seq = (uint64_t)t->ev[i].f[F_SEQ].i;

		if (!test_event_ok(&t->ev[i]) || (i && seq != prev + 1) || (!i && seq != lo))
			ok = false;
		prev = seq;
	}
	*ret_ok = ok && t->bad == 0 && t->nr && prev == hi && s->events == t->nr;
	return t->nr;
}

static void snapshot_exact(int sfd)
{
	struct trace t = { 0 };
	struct snap s;
	struct chan c;
	uint64_t n;
	bool ok;

	channel(sfd, 4096, 8, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(100);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	n = snap_events(&c, &s, &t, 0, 99, &ok);
	check(ok && n == 100, "snapshot: the first holds the 100 events (%" PRIu64 " in %" PRIu64
	      " packets, PEEK counted %" PRIu64 ")", n, s.packets, s.events);
	n = snap_events(&c, &s, &t, 0, 99, &ok);
	check(ok && n == 100, "snapshot: a second right after holds the same 100 (%" PRIu64 ")", n);
	emit_test(50);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	n = snap_events(&c, &s, &t, 0, 49, &ok);
	/* the test probe numbers each write's events from 0 */
	check(t.nr == 150 && s.stale == 0 && t.bad == 0 && s.events == 150,
	      "snapshot: after 50 more, the third holds 150 (%" PRIu64 "), nothing consumed", n);
	trace_free(&t);
	emit_test(3000);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	/* flushed: no packet open, all 8 are readable */
	n = snap_events(&c, &s, &t, 0, 2999, &ok);
	check(s.stale == 0 && s.packets == 8 && n > 0 && n < 3000 && t.bad == 0 &&
	      (uint64_t)t.ev[t.nr - 1].f[F_SEQ].i == 2999 &&
	      (uint64_t)t.ev[t.nr - 1].f[F_SEQ].i - (uint64_t)t.ev[0].f[F_SEQ].i + 1 == n,
	      "snapshot: after a lap, the newest %" PRIu64 " events in %" PRIu64
	      " packets, contiguous up to the last", n, s.packets);
	close_chan(&c);
	trace_free(&t);
}

static void snapshot_refusals(int sfd)
{
	struct ltt_kabi_snapshot_span span;
	struct ltt_kabi_snapshot_peek pk;
	uint8_t *buf = malloc(8192), *map;
	struct ltt_kabi_subbuf sb;
	struct chan c;
	int fd;

	channel(sfd, 4096, 2, 1, &c);
	fd = c.streams[0];
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(500);
	ioctl(fd, LTT_KABI_FLUSH, 0);
	if (ioctl(fd, LTT_KABI_SNAPSHOT_SPAN, &span))
		die("SNAPSHOT_SPAN");
	check(span.end - span.begin == 2 * 4096 && span.packet_size == 4096,
	      "snapshot: the span of a lapped 2-packet buffer is its 2 packets");
	check(peek(fd, span.begin - 4096, buf, 4096, &pk) == -ESTALE,
	      "snapshot: the packet before the span is refused, overwritten (ESTALE)");
	check(peek(fd, span.end, buf, 4096, &pk) == -EAGAIN,
	      "snapshot: the end of the span is not complete (EAGAIN)");
	check(peek(fd, span.begin + 1, buf, 4096, &pk) == -EINVAL,
	      "snapshot: a position off a packet boundary (EINVAL)");
	check(peek(fd, span.begin, buf, 4095, &pk) == -EINVAL,
	      "snapshot: a buffer shorter than a packet (EINVAL)");
	check(peek(fd, span.begin, (void *)16, 4096, &pk) == -EFAULT,
	      "snapshot: a bad buffer (EFAULT)");
	memset(&pk, 0, sizeof(pk));
	pk.pos = span.begin;
	pk.buf = (uintptr_t)buf;
	pk.buf_len = 4096;
	pk.reserved[1] = 1;
	check(ioctl(fd, LTT_KABI_SNAPSHOT_PEEK, &pk) && errno == EINVAL,
	      "snapshot: reserved words not zero (EINVAL)");
	check(ioctl(fd, LTT_KABI_SNAPSHOT_SPAN, (void *)16) && errno == EFAULT,
	      "snapshot: SPAN with a bad pointer (EFAULT)");

	/* the packet the reader holds: copied from the reader's slot */
	map = mmap(NULL, 3 * 4096, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || ioctl(fd, LTT_KABI_GET_NEXT_SUBBUF, &sb))
		die("hold a packet");
	emit_test(3000);
	ioctl(fd, LTT_KABI_FLUSH, 0);
	check(peek(fd, sb.seq * 4096, buf, 8192, &pk) == 0 &&
	      !memcmp(buf, map + sb.offset, 4096) && pk.seq == sb.seq && pk.events == sb.events,
	      "snapshot: the held packet (seq %" PRIu64 ") is copied as the reader holds it",
	      (uint64_t)sb.seq);
	ioctl(fd, LTT_KABI_PUT_SUBBUF, 0);
	check(peek(fd, sb.seq * 4096, buf, 8192, &pk) == -ESTALE,
	      "snapshot: once put back it is refused (ESTALE)");
	munmap(map, 3 * 4096);
	close_chan(&c);
	free(buf);
}

/* The userfaultfd side of snapshot_torn(): lap the buffer, then serve the fault. */
struct torn {
	int uffd;
	uint8_t *page;		/* the registered page */
	int laps_done;
};

static void *torn_fn(void *arg)
{
	struct torn *t = arg;
	struct pollfd pfd = { .fd = t->uffd, .events = POLLIN };
	struct uffdio_zeropage zp = { .range = { (uintptr_t)t->page, 4096 } };
	struct uffd_msg msg;

	pin_cpu0();
	if (poll(&pfd, 1, 30000) != 1 || read(t->uffd, &msg, sizeof(msg)) != sizeof(msg) ||
	    msg.event != UFFD_EVENT_PAGEFAULT)
		die("userfaultfd: no fault");
	/* PEEK sleeps in the fault, its packet checked and half copied */
	emit_test(3000);
	t->laps_done = 1;
	if (ioctl(t->uffd, UFFDIO_ZEROPAGE, &zp))
		die("UFFDIO_ZEROPAGE");
	return NULL;
}

/*
 * A copy that writers overtake halfway: the packet's first 100 bytes go
 * to a normal page, the rest to a page registered with userfaultfd; the
 * fault is served only after 3000 more events lapped the buffer, so the
 * copy ends with bytes of a later lap.  PEEK must say ESTALE.
 */
static void snapshot_torn(int sfd)
{
	struct uffdio_api api = { .api = UFFD_API };
	struct uffdio_register reg = { .mode = UFFDIO_REGISTER_MODE_MISSING };
	struct ltt_kabi_snapshot_span span, after;
	struct ltt_kabi_snapshot_peek pk;
	struct torn t = { 0 };
	uint8_t *region;
	pthread_t th;
	struct chan c;
	int ret;

	t.uffd = (int)syscall(SYS_userfaultfd, O_CLOEXEC);
	if (t.uffd < 0 || ioctl(t.uffd, UFFDIO_API, &api)) {
		check(true, "# SKIP snapshot torn: no userfaultfd (%s)", strerror(errno));
		return;
	}
	region = mmap(NULL, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (region == MAP_FAILED)
		die("mmap");
	region[0] = 1;	/* the first page is there */
	t.page = region + 4096;
	reg.range.start = (uintptr_t)t.page;
	reg.range.len = 4096;
	if (ioctl(t.uffd, UFFDIO_REGISTER, &reg))
		die("UFFDIO_REGISTER");
	channel(sfd, 4096, 2, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(500);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	if (ioctl(c.streams[0], LTT_KABI_SNAPSHOT_SPAN, &span) || span.begin == span.end)
		die("SNAPSHOT_SPAN");
	if (pthread_create(&th, NULL, torn_fn, &t))
		die("pthread_create");
	ret = peek(c.streams[0], span.begin, t.page - 100, 4096, &pk);
	pthread_join(th, NULL);
	after = span;
	ioctl(c.streams[0], LTT_KABI_SNAPSHOT_SPAN, &after);
	check(ret == -ESTALE && t.laps_done && after.produced > span.produced + 8192,
	      "snapshot: a packet overwritten while it was copied (the copy stopped halfway by a "
	      "fault while 3000 events lapped the buffer) is refused: %s (packet at %" PRIu64
	      ", write position %" PRIu64 " then %" PRIu64 ")", strerror(-ret),
	      (uint64_t)span.begin, (uint64_t)span.produced, (uint64_t)after.produced);
	close_chan(&c);
	munmap(region, 2 * 4096);
	close(t.uffd);
}

struct emitter {
	uint64_t n;
	volatile int done;
};

static void *emit_fn(void *arg)
{
	struct emitter *e = arg;

	pin_cpu0();
	emit_test(e->n);
	e->done = 1;
	return NULL;
}

/* Snapshots on CPU 1 while CPU 0 writes: whole packets or refusals. */
static void snapshot_race(int sfd, uint64_t n)
{
	struct emitter em = { .n = n };
	uint64_t rounds = 0, packets = 0, stale = 0, torn = 0, i, prev;
	struct trace t = { 0 };
	struct snap s;
	struct chan c;
	pthread_t th;
	cpu_set_t set;
	int out;

	CPU_ZERO(&set);
	CPU_SET(1, &set);
	if (nr_cpus() < 2 || sched_setaffinity(0, sizeof(set), &set)) {
		check(true, "# SKIP snapshot race: needs 2 CPUs");
		return;
	}
	channel(sfd, 4096, 2, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	if (pthread_create(&th, NULL, emit_fn, &em))
		die("pthread_create");
	while (!em.done || !rounds) {
		out = open_out(NULL, 0);
		trace_free(&t);
		snapshot(&c, c.streams[0], out, &s);
		decode_file(&c, 0, out, &t);
		close(out);
		for (i = 0, prev = 0; i < t.nr; i++) {
			uint64_t seq = (uint64_t)t.ev[i].f[F_SEQ].i;

			if (!test_event_ok(&t.ev[i]) || (i && seq <= prev))
				torn++;
			prev = seq;
		}
		torn += t.bad + (s.events != t.nr) + (s.stale >> 32);
		packets += s.packets;
		stale += s.stale;
		rounds++;
	}
	pthread_join(th, NULL);
	check(torn == 0 && packets > 0,
	      "snapshot race: %" PRIu64 " snapshots while %" PRIu64 " events were written: %"
	      PRIu64 " packets copied whole, none torn (%" PRIu64 " bad), %" PRIu64
	      " refused as overwritten", rounds, n, packets, torn, stale);
	close_chan(&c);
	trace_free(&t);
}

int cmd_snapshot(uint64_t n)
{
	int tfd = tracer(), sfd;

	pin_cpu0();
	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	snapshot_exact(sfd);
	close(sfd);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	snapshot_refusals(sfd);
	close(sfd);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	snapshot_torn(sfd);
	close(sfd);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	snapshot_race(sfd, n);
	close(sfd);
	close(tfd);
	return 0;
}
