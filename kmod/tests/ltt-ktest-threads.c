// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-threads.c - the scenarios with threads beside the writer:
 *
 *   - stress: a reader thread polls and reads packets as they complete
 *     and a flusher thread closes them while the writer's events and the
 *     interrupts nested in them fill tiny buffers: recorded + discarded
 *     == emitted, every event intact;
 *   - timers: a reader asleep in poll() is woken by the read timer once
 *     the switch timer closed a packet, or, without a read timer, by the
 *     writer completing one.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "ltt-ktest.h"

/*
 * stress: this process writes N events on CPU 0 while two hrtimers of
 * CPU 0 (hardirq and softirq) nest more into the same buffer; a reader
 * thread on another CPU polls and reads packets as they complete, a
 * flusher thread closes packets through FLUSH (an IPI to CPU 0).  Tiny
 * buffers in discard mode: recorded + events_discarded must equal what was
 * emitted, exactly, and every recorded event must be intact.  With @room
 * the timers stop after STRESS_ROOM_IRQS events and nothing flushes, so
 * buffers sized for N + STRESS_ROOM_IRQS events never fill, however late
 * the reader runs (a flush takes a whole sub-buffer): nothing may be
 * discarded.
 */
#define STRESS_ROOM_IRQS 8192

struct stress {
	struct chan *c;
	int out[MAX_CPUS];
	uint8_t *map[MAX_CPUS];
	volatile int stop;
	int mismatches;
	unsigned long polls, flushes;
};

static void *stress_reader(void *arg)
{
	struct stress *st = arg;
	struct pollfd pfd[MAX_CPUS];
	cpu_set_t set;
	int cpu;

	CPU_ZERO(&set);
	CPU_SET(st->c->nr > 1 ? 1 : 0, &set);
	sched_setaffinity(0, sizeof(set), &set);
	while (!st->stop) {
		for (cpu = 0; cpu < st->c->nr; cpu++)
			pfd[cpu] = (struct pollfd){ .fd = st->c->streams[cpu], .events = POLLIN };
		if (poll(pfd, st->c->nr, 20) > 0)
			st->polls++;
		for (cpu = 0; cpu < st->c->nr; cpu++)
			st->mismatches += pull(st->c, cpu, st->out[cpu], st->map[cpu],
					       map_size(st->c));
	}
	return NULL;
}

static void *stress_flusher(void *arg)
{
	struct stress *st = arg;

	while (!st->stop) {
		if (ioctl(st->c->streams[0], LTT_KABI_FLUSH, 0))
			die("FLUSH");
		st->flushes++;
		usleep(1000);
	}
	return NULL;
}

int cmd_stress(uint64_t n, uint64_t sbsize, uint64_t nsb, bool room)
{
	int tfd = tracer(), sfd, cpu, fd;
	struct trace t = { 0 };
	struct stress st = { 0 };
	uint64_t k = 0, procs = 0, irqs = 0, wrong = 0, irq_max = 0, discarded;
	uint8_t *seen = calloc(n + 1, 1), *iseen;
	pthread_t rd, fl;
	char buf[64], cmd[64];
	struct chan c;
	size_t i;

	pin_cpu0();
	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, sbsize, nsb, 0, &c);
	enable(c.fd, "ltt_test_event", 0);
	st.c = &c;
	for (cpu = 0; cpu < c.nr; cpu++) {
		st.out[cpu] = open_out(NULL, cpu);
		st.map[cpu] = mmap(NULL, map_size(&c), PROT_READ, MAP_SHARED, c.streams[cpu], 0);
		if (st.map[cpu] == MAP_FAILED)
			die("mmap");
	}
	events_counted = events_miscounted = 0;
	ioctl(sfd, LTT_KABI_START, 0);
	if (pthread_create(&rd, NULL, stress_reader, &st) ||
	    (!room && pthread_create(&fl, NULL, stress_flusher, &st)))
		die("pthread_create");
	if (room)
		snprintf(cmd, sizeof(cmd), "%" PRIu64 " irq %d", n, STRESS_ROOM_IRQS);
	else
		snprintf(cmd, sizeof(cmd), "%" PRIu64 " irq", n);
	write_file("/proc/" LTT_KABI_TEST_PROC_NAME, cmd);
	ioctl(sfd, LTT_KABI_STOP, 0);
	st.stop = 1;
	pthread_join(rd, NULL);
	if (!room)
		pthread_join(fl, NULL);
	fd = open("/proc/" LTT_KABI_TEST_PROC_NAME, O_RDONLY);
	if (fd < 0 || read(fd, buf, sizeof(buf) - 1) <= 0 || sscanf(buf, "irq_events %" SCNu64, &k) != 1)
		die("read /proc/ltt-test");
	close(fd);
	discarded = stats_discarded(&c);
	for (cpu = 0; cpu < c.nr; cpu++) {
		st.mismatches += pull(&c, cpu, st.out[cpu], st.map[cpu], map_size(&c));
		decode_file(&c, cpu, st.out[cpu], &t);
	}
	iseen = calloc(k + 1, 1);
	for (i = 0; i < t.nr; i++) {
		uint64_t seq = (uint64_t)t.ev[i].f[F_SEQ].i;

		if (!test_event_ok(&t.ev[i])) {
			wrong++;
		} else if (seq >= (1ULL << 63)) {
			seq -= 1ULL << 63;
			if (seq >= k || iseen[seq])
				wrong++;
			else
				iseen[seq] = 1;
			irqs++;
			irq_max = seq > irq_max ? seq : irq_max;
		} else {
			if (seq >= n || seen[seq])
				wrong++;
			else
				seen[seq] = 1;
			procs++;
		}
	}
	check(st.mismatches == 0 && t.bad == 0, "stress: %" PRIu64 " packets valid, splice == mmap "
	      "(%lu polls woke, %lu flushes)", t.packets, st.polls, st.flushes);
	check(events_miscounted == 0 && events_counted == t.nr,
	      "stress: GET_NEXT_SUBBUF's events exact in every packet, nested writers included "
	      "(%" PRIu64 " counted, %" PRIu64 " read)", events_counted, (uint64_t)t.nr);
	check(wrong == 0, "stress: every event intact and recorded once (%" PRIu64 " wrong)", wrong);
	check(k > 0 && irqs > 0 && (!room || k <= STRESS_ROOM_IRQS),
	      "stress: %" PRIu64 " of %" PRIu64 " interrupt events recorded", irqs, k);
	check(procs + irqs + t.discarded == n + k && discarded == t.discarded,
	      "stress: recorded %" PRIu64 " + discarded %" PRIu64 " == emitted %" PRIu64,
	      procs + irqs, t.discarded, n + k);
	close_chan(&c);
	close(sfd);
	close(tfd);
	free(seen);
	free(iseen);
	return 0;
}

/* Wait for POLLIN on @fd for at most @ms; returns the ms it took, or -1. */
static long wait_pollin(int fd, int ms)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint64_t t0 = now_ns();
	int ret = poll(&pfd, 1, ms);

	return ret == 1 && (pfd.revents & POLLIN) ? (long)((now_ns() - t0) / 1000000) : -1;
}

/* What the emitter thread needs: the thread that polls, and how much to emit. */
struct emitter {
	pid_t poller;
	uint64_t n;
};

/* Is thread @tid of this process asleep (state S), e.g. blocked in poll()? */
static bool asleep(pid_t tid)
{
	char path[64], buf[512], *p;
	FILE *f;
	bool ret = false;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	f = fopen(path, "r");
	if (f && fgets(buf, sizeof(buf), f)) {
		p = strrchr(buf, ')');	/* the state follows the name */
		ret = p && p[1] == ' ' && p[2] == 'S';
	}
	if (f)
		fclose(f);
	return ret;
}

static void *timers_emitter(void *arg)
{
	struct emitter *em = arg;
	int i;

	/* Emit once the main thread sleeps in poll() (bounded: 5 s). */
	for (i = 0; i < 5000 && !asleep(em->poller); i++)
		usleep(1000);
	emit_test(em->n);
	return NULL;
}

/*
 * timers: a partial packet is closed by the switch timer and its reader
 * woken by the read timer, with no FLUSH; without a read timer, a reader
 * asleep in poll() is woken by the writer completing a packet (irq_work).
 */
int cmd_timers(void)
{
	int tfd = tracer(), sfd;
	struct ltt_kabi_stream st = { 0 };
	struct ltt_kabi_subbuf sb;
	struct ltt_kabi_channel a = { .subbuf_size = 4096, .num_subbuf = 4,
				      .switch_timer_us = 10000, .read_timer_us = 20000 };
	struct emitter em;
	pthread_t th;
	long ms;
	int cfd, s0;
	struct chan c;

	pin_cpu0();
	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	memcpy(a.uuid, test_uuid, 16);
	cfd = ioctl(sfd, LTT_KABI_CHANNEL, &a);
	s0 = ioctl(cfd, LTT_KABI_STREAM, &st);
	if (cfd < 0 || s0 < 0 || enable(cfd, "ltt_test_event", 0) || ioctl(sfd, LTT_KABI_START, 0))
		die("timers: set up");
	emit_test(5);
	ms = wait_pollin(s0, 5000);
	check(ms >= 0 && !ioctl(s0, LTT_KABI_GET_NEXT_SUBBUF, &sb) &&
	      sb.content_size > 84 && sb.content_size < 4096,
	      "switch timer closed a 5-event packet, read timer woke poll() after %ld ms", ms);
	ioctl(s0, LTT_KABI_PUT_SUBBUF, 0);
	ioctl(sfd, LTT_KABI_STOP, 0);
	close(s0);
	close(cfd);
	close(sfd);

	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 4096, 4, 0, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	em.poller = (pid_t)syscall(SYS_gettid);
	em.n = 200;
	if (pthread_create(&th, NULL, timers_emitter, &em))
		die("pthread_create");
	ms = wait_pollin(c.streams[0], 5000);
	pthread_join(th, NULL);
	check(ms >= 0, "no read timer: the writer's irq_work woke poll() after %ld ms", ms);
	ioctl(sfd, LTT_KABI_STOP, 0);
	close_chan(&c);
	close(sfd);
	close(tfd);
	return 0;
}
