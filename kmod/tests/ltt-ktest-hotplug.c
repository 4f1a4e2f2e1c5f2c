// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-hotplug.c - buffers for the CPUs online only (1.10): a
 * channel made while CPUs CPU and OTHER are offline holds no buffer for
 * them (CHANNEL_MEM 0, STREAM_IF_ALLOCATED: EAGAIN); CPU coming online
 * gets its buffer before it runs, the channel fd polls readable, its
 * stream records exactly the N test events written there, kept and read
 * after the CPU went offline again; a STREAM without the flag (a daemon
 * older than 1.10) makes OTHER's buffer as before.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "ltt-ktest.h"

static void set_online(unsigned int cpu, int on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%u/online", cpu);
	write_file(path, on ? "1\n" : "0\n");
}

static void pin(unsigned int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* CHANNEL_MEM's bytes for @cpu, or -1 on error. */
static int64_t mem_of(int cfd, unsigned int cpu)
{
	struct ltt_kabi_channel_mem m = { .cpu = cpu };

	return ioctl(cfd, LTT_KABI_CHANNEL_MEM, &m) ? -1 : (int64_t)m.bytes;
}

static int stream_of(int cfd, unsigned int cpu, uint32_t flags)
{
	struct ltt_kabi_stream st = { .cpu = cpu, .flags = flags };

	return ioctl(cfd, LTT_KABI_STREAM, &st);
}

/* Is the channel fd readable within @ms? */
static bool readable(int cfd, int ms)
{
	struct pollfd p = { .fd = cfd, .events = POLLIN };

	return poll(&p, 1, ms) == 1 && (p.revents & POLLIN);
}

int cmd_hotplug(unsigned int cpu, unsigned int other, uint64_t n)
{
	int tfd = tracer(), sfd, eagain = 0, i;
	struct trace t = { 0 };
	uint64_t on_cpu = 0, elsewhere = 0, wrong = 0;
	uint8_t *seen = calloc(n + 1, 1);
	int64_t mem0;
	struct chan c;
	size_t k;

	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0 || !seen)
		die("LTT_KABI_SESSION");
	memset(&c, 0, sizeof(c));
	c.attr.subbuf_size = 64 << 10;
	c.attr.num_subbuf = 8;
	memcpy(c.attr.uuid, test_uuid, 16);
	c.fd = ioctl(sfd, LTT_KABI_CHANNEL, &c.attr);
	if (c.fd < 0)
		die("LTT_KABI_CHANNEL");
	c.nr = nr_cpus();
	for (i = 0; i < c.nr; i++) {
		c.streams[i] = stream_of(c.fd, i, LTT_KABI_STREAM_IF_ALLOCATED);
		eagain += c.streams[i] < 0 && errno == EAGAIN;
	}
	check(c.streams[cpu] < 0 && c.streams[other] < 0 && c.streams[0] >= 0 && eagain >= 2,
	      "STREAM_IF_ALLOCATED: EAGAIN for the %d CPUs offline (%u and %u among them)",
	      eagain, cpu, other);
	mem0 = mem_of(c.fd, 0);
	check(mem0 > 8 * (64 << 10) && mem_of(c.fd, cpu) == 0 && mem_of(c.fd, other) == 0,
	      "CHANNEL_MEM: %" PRId64 " bytes for CPU 0, 0 for CPUs %u and %u", mem0, cpu, other);
	check(!readable(c.fd, 0), "channel fd: not readable, every buffer's stream taken");
	check(!enable(c.fd, "ltt_test_event", 0), "EVENT_ENABLE ltt_test_event");
	check(!ioctl(sfd, LTT_KABI_START, 0), "START");

	set_online(cpu, 1);
	check(readable(c.fd, 10000), "CPU %u online: the channel fd polls readable", cpu);
	check(mem_of(c.fd, cpu) == mem0, "CHANNEL_MEM of CPU %u: %" PRId64 " bytes, as CPU 0's",
	      cpu, mem_of(c.fd, cpu));
	c.streams[cpu] = stream_of(c.fd, cpu, LTT_KABI_STREAM_IF_ALLOCATED);
	check(c.streams[cpu] >= 0 && !readable(c.fd, 0),
	      "STREAM of CPU %u taken; the channel fd no longer readable", cpu);
	pin(cpu);
	emit_test(n);
	pin(0);
	/* offline again: its buffer and what it holds stay */
	set_online(cpu, 0);
	check(mem_of(c.fd, cpu) == mem0, "CPU %u offline again: its buffer kept", cpu);
	check(mem_of(c.fd, other) == 0, "CPU %u never online: still no buffer", other);
	c.streams[other] = stream_of(c.fd, other, 0);
	check(c.streams[other] >= 0 && mem_of(c.fd, other) == mem0,
	      "STREAM without the flag (a daemon before 1.10): CPU %u's buffer made, %" PRId64
	      " bytes", other, mem_of(c.fd, other));
	check(!ioctl(sfd, LTT_KABI_STOP, 0), "STOP");
	i = drain(&c, NULL, &t);
	check(i == 0 && t.bad == 0,
	      "every packet well-formed, splice == mmap (%" PRIu64 " packets, %" PRIu64
	      " malformed, %d differ)", t.packets, t.bad, i);
	for (k = 0; k < t.nr; k++)
		elsewhere += t.ev[k].id == 0 && t.ev[k].cpu != cpu;
	on_cpu = count_test(&t, n, &wrong, seen) - elsewhere;
	check(on_cpu == n && !wrong && !elsewhere,
	      "%" PRIu64 " test events from CPU %u of %" PRIu64 " written there, %" PRIu64
	      " wrong, %" PRIu64 " from other CPUs", on_cpu, cpu, n, wrong, elsewhere);
	check(t.discarded == 0 && stats_discarded(&c) == 0, "nothing discarded");
	close(sfd);
	close_chan(&c);
	close(tfd);
	free(seen);
	return 0;
}

/*
 * chanmem: a figure, not a check: the bytes CHANNEL_MEM counts over every
 * possible CPU for a channel of @nsb x @sbsize whose streams are asked
 * for as a daemon of 1.10 asks (STREAM_IF_ALLOCATED: the CPUs online
 * since), then for one asked as before (every possible CPU).
 */
int cmd_chanmem(uint64_t sbsize, uint64_t nsb)
{
	int tfd = tracer(), sfd, pass, i, fd;

	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0)
		die("LTT_KABI_SESSION");
	for (pass = 0; pass < 2; pass++) {
		struct ltt_kabi_channel a = { .subbuf_size = sbsize, .num_subbuf = nsb };
		int cfd = ioctl(sfd, LTT_KABI_CHANNEL, &a), bufs = 0;
		uint64_t total = 0;

		if (cfd < 0)
			die("LTT_KABI_CHANNEL");
		for (i = 0; i < nr_cpus(); i++) {
			fd = stream_of(cfd, i, pass ? 0 : LTT_KABI_STREAM_IF_ALLOCATED);
			if (fd >= 0)
				close(fd);
			bufs += mem_of(cfd, i) > 0;
			total += mem_of(cfd, i) > 0 ? (uint64_t)mem_of(cfd, i) : 0;
		}
		printf("%s: %d of %d possible CPUs' buffers, %" PRIu64 " bytes\n",
		       pass ? "every-possible" : "online-only", bufs, nr_cpus(), total);
		close(cfd);
	}
	close(sfd);
	close(tfd);
	return 0;
}
