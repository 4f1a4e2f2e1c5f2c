// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-map.c - map fds and CHANNEL_MEM (kernel ABI 1.9), through the
 * raw ABI:
 *
 *   ltt-ktest maps   a map counting ltt_test_event under two counters and
 *                    getppid's entry under a third: nothing while paused,
 *                    exactly N once continued, 0 after CLEAR, one pair
 *                    removed; the system call probes attached only while
 *                    the map counts them; the refusals errno by errno;
 *                    a map of 1000 counters over 1333 pairs read back
 *                    exactly, window by window; an event counted under
 *                    MAP_EVENT_MAX_COUNTERS counters refused in one more;
 *                    CHANNEL_MEM's figure and refusals
 *   ltt-ktest mapread PASSES   ms to read a map of 16384 pairs over its
 *                    65537 counters (1025 MAP_READs), PASSES times
 *                    (bench/kernel_map_read.sh)
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "ltt-ktest.h"

#define GETPPID	"syscall_entry_getppid"

/* MAP_EVENT of @name under counter @id: the ioctl's return. */
static int count(int mfd, const char *name, uint32_t id)
{
	struct ltt_kabi_event_filter f = { 0 };

	snprintf(f.event.name, sizeof(f.event.name), "%s", name);
	f.event.id = id;
	return ioctl(mfd, LTT_KABI_MAP_EVENT, &f);
}

static int ctl(int mfd, uint32_t cmd)
{
	struct ltt_kabi_map_ctl c = { .cmd = cmd };

	return ioctl(mfd, LTT_KABI_MAP_CTL, &c);
}

/* MAP_READ from 0: "nr v0 v1 v2" (dies on error). */
static const char *counters(int mfd)
{
	static char out[128];
	struct ltt_kabi_map_read r = { 0 };

	if (ioctl(mfd, LTT_KABI_MAP_READ, &r))
		die("LTT_KABI_MAP_READ");
	snprintf(out, sizeof(out), "%u %" PRIu64 " %" PRIu64 " %" PRIu64, r.nr,
		 (uint64_t)r.values[0], (uint64_t)r.values[1], (uint64_t)r.values[2]);
	return out;
}

static void calls(int n)
{
	while (n-- > 0)
		syscall(SYS_getppid);
}

static void map_refusals(int tfd, int mfd)
{
	struct ltt_kabi_event_filter f = { 0 };
	struct ltt_kabi_map_read r = { 0 };
	struct ltt_kabi_event ev = { 0 };

	check(ioctl(tfd, LTT_KABI_MAP, 1) < 0 && errno == EINVAL, "MAP with an argument: EINVAL");
	check(count(mfd, "ltt_test_event", 0) < 0 && errno == EEXIST,
	      "MAP_EVENT of an event under its counter again: EEXIST");
	check(count(mfd, "no_such_event", 5) < 0 && errno == ENOENT,
	      "MAP_EVENT of no such event: ENOENT");
	check(count(mfd, "lttng_statedump_start", 5) < 0 && errno == ENOENT,
	      "MAP_EVENT of a state dump's event (a session's own): ENOENT");
	check(count(mfd, "ltt_test_event", LTT_KABI_MAP_MAX_COUNTERS) < 0 && errno == ENOSPC,
	      "MAP_EVENT under counter MAP_MAX_COUNTERS: ENOSPC");
	snprintf(ev.name, sizeof(ev.name), "ltt_test_event");
	ev.id = LTT_KABI_MAP_MAX_COUNTERS - 1;
	check(!count(mfd, "ltt_test_event", LTT_KABI_MAP_MAX_COUNTERS - 1) &&
	      !ioctl(mfd, LTT_KABI_MAP_UNEVENT, &ev),
	      "MAP_EVENT under the last counter, a full map's overflow (65536 keys, then it): taken");
	check(count(mfd, "", 5) < 0 && errno == EINVAL, "MAP_EVENT of an empty name: EINVAL");
	snprintf(f.event.name, sizeof(f.event.name), "ltt_test_event");
	f.event.id = 5;
	f.reserved[0] = 1;
	check(ioctl(mfd, LTT_KABI_MAP_EVENT, &f) < 0 && errno == EINVAL,
	      "MAP_EVENT with reserved words not zero: EINVAL");
	snprintf(ev.name, sizeof(ev.name), "ltt_test_event");
	ev.id = 5;
	check(ioctl(mfd, LTT_KABI_MAP_UNEVENT, &ev) < 0 && errno == ENOENT,
	      "MAP_UNEVENT of a pair the map does not count: ENOENT");
	r.nr = 1;
	check(ioctl(mfd, LTT_KABI_MAP_READ, &r) < 0 && errno == EINVAL,
	      "MAP_READ with nr not zero: EINVAL");
	check(ctl(mfd, 0) < 0 && errno == EINVAL && ctl(mfd, 4) < 0 && errno == EINVAL,
	      "MAP_CTL of an unknown command: EINVAL");
	check(ioctl(mfd, LTT_KABI_EVENT_ENABLE, &ev) < 0 && errno == ENOTTY,
	      "a channel's ioctl on a map fd: ENOTTY");
}

#define MANY		1000	/* counters of map_many() */
#define MANY_STRIDE	65	/* their ids: 0, 65, ... */

/* Counter @id of map_many() after @t test events and @g getppid: -1 none. */
static int64_t many_value(uint32_t id, int64_t t, int64_t g)
{
	uint32_t i = id / MANY_STRIDE;

	if (id % MANY_STRIDE || i >= MANY)
		return -1;
	return i % 3 == 0 ? t : i % 3 == 1 ? g : t + g;
}

/* Every window of @mfd's counters against many_value(): how many differ. */
static unsigned int many_wrong(int mfd, int64_t t, int64_t g, unsigned int *ret_reads)
{
	unsigned int wrong = 0, reads = 0;
	uint32_t first, s, nr;
	int64_t want;

	for (first = 0; first < LTT_KABI_MAP_MAX_COUNTERS; first += LTT_KABI_MAP_READ_MAX) {
		struct ltt_kabi_map_read r = { .first = first };

		if (ioctl(mfd, LTT_KABI_MAP_READ, &r))
			die("LTT_KABI_MAP_READ");
		reads++;
		for (s = 0, nr = 0; s < LTT_KABI_MAP_READ_MAX; s++) {
			want = many_value(first + s, t, g);
			nr = want < 0 ? nr : s + 1;
			wrong += r.values[s] != (uint64_t)(want < 0 ? 0 : want);
		}
		wrong += r.nr != nr;
	}
	*ret_reads = reads;
	return wrong;
}

/* 1000 counters: the test event under every third, getppid, both. */
static void map_many(int tfd)
{
	struct ltt_kabi_map_read r = { .first = UINT32_MAX - LTT_KABI_MAP_READ_MAX + 1 };
	unsigned int i, pairs = 0, reads, wrong;
	int mfd = ioctl(tfd, LTT_KABI_MAP, 0);
	bool ok = mfd >= 0;

	for (i = 0; i < MANY && ok; i++) {
		if (i % 3 != 1)
			ok = !count(mfd, "ltt_test_event", i * MANY_STRIDE) && ++pairs;
		if (ok && i % 3 != 0)
			ok = !count(mfd, GETPPID, i * MANY_STRIDE) && ++pairs;
	}
	check(ok, "MAP_EVENT: %u pairs over %u counters (ids 0, %u, ... %u)", pairs, MANY,
	      MANY_STRIDE, (MANY - 1) * MANY_STRIDE);
	if (!ok || ctl(mfd, LTT_KABI_MAP_CONT))
		die("a map of many counters");
	emit_test(11);
	calls(5);
	if (ctl(mfd, LTT_KABI_MAP_PAUSE))
		die("MAP_CTL PAUSE");
	wrong = many_wrong(mfd, 11, 5, &reads);
	check(!wrong, "MAP_READ of its %u windows: each counter exact (11 test events, 5 getppid, or 16), every other 0, nr right (%u wrong)",
	      reads, wrong);
	check(!ioctl(mfd, LTT_KABI_MAP_READ, &r) && !r.nr,
	      "MAP_READ from counter 2^32 - 64, past the last: nothing (nr %u)", r.nr);
	close(mfd);
}

/* An event counted under MAP_EVENT_MAX_COUNTERS counters: one more refused. */
static void event_max_counters(int tfd)
{
	int fds[LTT_KABI_MAP_EVENT_MAX_COUNTERS / LTT_KABI_MAP_MAX_EVENTS + 1], nfd = 0, i;
	uint64_t t0 = now_ns();
	uint32_t n;
	bool ok = true;

	for (n = 0; n < LTT_KABI_MAP_EVENT_MAX_COUNTERS && ok; n++) {
		if (n % LTT_KABI_MAP_MAX_EVENTS == 0 && (fds[nfd++] = ioctl(tfd, LTT_KABI_MAP, 0)) < 0)
			die("LTT_KABI_MAP");
		ok = !count(fds[nfd - 1], "ltt_test_event", n % LTT_KABI_MAP_MAX_EVENTS);
	}
	check(ok && count(fds[0], GETPPID, 0) < 0 && errno == ENOSPC,
	      "the test event under %u counters (%d maps, %.1f s); a full map's next pair: ENOSPC",
	      n, nfd, (now_ns() - t0) / 1e9);
	if ((fds[nfd] = ioctl(tfd, LTT_KABI_MAP, 0)) < 0)
		die("LTT_KABI_MAP");
	check(count(fds[nfd], "ltt_test_event", 0) < 0 && errno == ENOSPC &&
	      !count(fds[nfd], GETPPID, 0),
	      "a new map: the test event under one more counter: ENOSPC; getppid's entry taken");
	close(fds[0]);
	check(!count(fds[nfd], "ltt_test_event", 0),
	      "the first map closed: the test event counted in the new one");
	for (i = 1; i <= nfd; i++)
		close(fds[i]);
}

static void channel_mem(int tfd)
{
	struct ltt_kabi_channel_mem m = { 0 };
	int sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	uint64_t data = 5 * 65536;
	struct chan c;

	if (sfd < 0)
		die("LTT_KABI_SESSION");
	channel(sfd, 65536, 4, 0, &c);
	check(!ioctl(c.fd, LTT_KABI_CHANNEL_MEM, &m) && m.data_bytes == data &&
	      m.bytes > data && m.bytes < data + 8192,
	      "CHANNEL_MEM of 4 x 64 KiB, CPU 0: %" PRIu64 " bytes, %" PRIu64
	      " of them the 5 sub-buffers' pages", (uint64_t)m.bytes, (uint64_t)m.data_bytes);
	m = (struct ltt_kabi_channel_mem){ .cpu = 1U << 20 };
	check(ioctl(c.fd, LTT_KABI_CHANNEL_MEM, &m) < 0 && errno == ENOENT,
	      "CHANNEL_MEM of no such CPU: ENOENT");
	m = (struct ltt_kabi_channel_mem){ .reserved = { 1 } };
	check(ioctl(c.fd, LTT_KABI_CHANNEL_MEM, &m) < 0 && errno == EINVAL,
	      "CHANNEL_MEM with reserved words not zero: EINVAL");
	close_chan(&c);
	close(sfd);
}

int cmd_maps(void)
{
	struct ltt_kabi_version v = { 0 };
	struct ltt_kabi_event ev = { 0 };
	int tfd = tracer(), mfd;
	long a0 = attached();

	check(!ioctl(tfd, LTT_KABI_VERSION, &v) && v.minor >= LTT_KABI_MINOR_KMAP && v.maps == 1,
	      "VERSION: ABI 1.%u, maps %u", v.minor, v.maps);
	mfd = ioctl(tfd, LTT_KABI_MAP, 0);
	if (mfd < 0)
		die("LTT_KABI_MAP");
	check(!count(mfd, "ltt_test_event", 0) && !count(mfd, "ltt_test_event", 1) &&
	      !count(mfd, GETPPID, 2),
	      "MAP_EVENT: the test event under counters 0 and 1, getppid's entry under 2");
	check(attached() == a0 + 2, "... sys_enter and sys_exit attached for it (%ld, %ld before)",
	      attached(), a0);
	map_refusals(tfd, mfd);
	emit_test(100);
	calls(40);
	check(!strcmp(counters(mfd), "3 0 0 0"), "paused (a new map): nothing counted (%s)",
	      counters(mfd));
	if (ctl(mfd, LTT_KABI_MAP_CONT))
		die("MAP_CTL CONT");
	emit_test(100);
	calls(40);
	check(!strcmp(counters(mfd), "3 100 100 40"),
	      "continued: 100 test events under each counter, 40 getppid (%s)", counters(mfd));
	if (ctl(mfd, LTT_KABI_MAP_CLEAR))
		die("MAP_CTL CLEAR");
	check(!strcmp(counters(mfd), "3 0 0 0"), "CLEAR: every counter 0 (%s)", counters(mfd));
	emit_test(7);
	calls(3);
	snprintf(ev.name, sizeof(ev.name), GETPPID);
	ev.id = 2;
	check(!ioctl(mfd, LTT_KABI_MAP_UNEVENT, &ev) && attached() == a0,
	      "MAP_UNEVENT of getppid: its probes detached (%ld)", attached());
	check(!strcmp(counters(mfd), "2 7 7 0"),
	      "7 more test events counted after CLEAR; counter 2 gone with its pair (%s)",
	      counters(mfd));
	if (ctl(mfd, LTT_KABI_MAP_PAUSE))
		die("MAP_CTL PAUSE");
	emit_test(5);
	check(!strcmp(counters(mfd), "2 7 7 0"), "paused again: nothing more (%s)", counters(mfd));
	close(mfd);
	check(count(mfd, "ltt_test_event", 0) < 0 && errno == EBADF, "the map's fd closed");
	map_many(tfd);
	event_max_counters(tfd);
	channel_mem(tfd);
	close(tfd);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

#define BENCH_PASSES_MAX	100

/*
 * A bench, no check: one map counting 16384 pairs (8 events, each under
 * 2048 counters spread over the 65536 keys), paused; @passes times, every
 * counter read (1025 MAP_READs).  Prints the time to fill it and each
 * pass's median and best, in ms.
 */
int cmd_mapread(unsigned int passes)
{
	static const char *const events[] = {
		"ltt_test_event", GETPPID, "syscall_entry_getpid", "syscall_entry_gettid",
		"syscall_entry_getuid", "syscall_entry_getgid", "syscall_entry_geteuid",
		"syscall_entry_getegid",
	};
	uint64_t ns[BENCH_PASSES_MAX], t0;
	int tfd = tracer(), mfd = ioctl(tfd, LTT_KABI_MAP, 0);
	unsigned int i, p, reads = 0;
	uint32_t first;

	if (mfd < 0)
		die("LTT_KABI_MAP");
	if (!passes || passes > BENCH_PASSES_MAX)
		passes = BENCH_PASSES_MAX;
	t0 = now_ns();
	for (i = 0; i < LTT_KABI_MAP_MAX_EVENTS; i++)
		if (count(mfd, events[i % 8], i * 4))
			die("LTT_KABI_MAP_EVENT");
	printf("mapread: pairs=%u fill_ms=%.1f\n", i, (now_ns() - t0) / 1e6);
	for (p = 0; p < passes; p++) {
		t0 = now_ns();
		for (first = 0; first < LTT_KABI_MAP_MAX_COUNTERS; first += LTT_KABI_MAP_READ_MAX) {
			struct ltt_kabi_map_read r = { .first = first };

			if (ioctl(mfd, LTT_KABI_MAP_READ, &r))
				die("LTT_KABI_MAP_READ");
			reads++;
		}
		ns[p] = now_ns() - t0;
	}
	qsort(ns, passes, sizeof(ns[0]), cmp_u64);
	printf("mapread: reads_per_pass=%u passes=%u median_ms=%.2f best_ms=%.2f\n",
	       reads / passes, passes, ns[passes / 2] / 1e6, ns[0] / 1e6);
	close(mfd);
	close(tfd);
	return 0;
}
