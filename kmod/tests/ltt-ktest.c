// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest - exercise ltt-tracer.ko through the raw ABI of src/abi/ltt-abi.h,
 * inside a kernel that loaded it (tests/kernel boots one under QEMU).
 *
 *   ltt-ktest basic N DIR     N test events: counts, every field, packet
 *                             headers, splice == mmap; a CTF trace in DIR
 *   ltt-ktest stress N S M [room]
 *                             N events + hardirq/softirq events nested in
 *                             them, a concurrent reader and flusher, M
 *                             sub-buffers of S bytes: recorded + discarded
 *                             == emitted; "room": at most 8192 interrupt
 *                             events and no flusher, so M x S holds all
 *                             and nothing may be discarded
 *   ltt-ktest bench N         ns to record one test event (rough)
 *   ltt-ktest timers          switch and read timers; the writer's wakeup
 *                             (stress and timers: ltt-ktest-threads.c)
 *   ltt-ktest discard N       2 x 4 KiB, no reader: recorded + discarded == N
 *   ltt-ktest overwrite N     4 x 4 KiB overwrite: the newest events survive,
 *                             a held packet is never overwritten
 *   ltt-ktest logger DIR      /proc/ltt-logger (short, long, extended header)
 *   ltt-ktest statedump DIR   one process_state per thread at START
 *   ltt-ktest errors          every ioctl's refusals, with their errno
 *   ltt-ktest fuzz ITER       random ioctls on every fd kind
 *   ltt-ktest unpriv          as nobody: /proc/ltt and /proc/ltt-test refused
 *   ltt-ktest hold CMD...     run CMD while a session is open
 *   ltt-ktest lazy            tracepoint probes attached only while needed
 *   ltt-ktest syscost N MODE  ns per getppid(): plain, one, all, rec, count (-lazy.c)
 *   ltt-ktest contexts        CONTEXT_ADD: sizes, refusals (ltt-ktest-ctx.c)
 *   ltt-ktest kprobes [DIR]   KPROBE: kprobes, kretprobes (ltt-ktest-kprobe.c)
 *   ltt-ktest maps            MAP: counters, refusals; CHANNEL_MEM (ltt-ktest-map.c)
 *   ltt-ktest mapread PASSES  ms to read a map of 16384 pairs (-map.c; a bench)
 *   ltt-ktest hotplug CPU OTHER N  buffers of the CPUs online only: CPU and OTHER
 *                             offline at the start; N test events on CPU
 *                             once onlined (ltt-ktest-hotplug.c)
 *   ltt-ktest chanmem SB N    a figure: CHANNEL_MEM's total with streams asked
 *                             for the online CPUs, then every possible one
 *   ltt-ktest list [syscalls] the event names the module lists
 *   ltt-ktest snapshot N      SNAPSHOT_SPAN/PEEK: twice in a row, nothing
 *                             consumed; N events written while snapshots
 *                             are copied: no packet torn, overwritten ones
 *                             refused (see ltt-ktest-snap.c)
 *
 * Output is TAP-like ("ok N - what" / "not ok N - what"), then
 * "ltt-ktest: PASS" or "ltt-ktest: FAIL"; the exit status says the same.
 * The CTF trace written by basic, logger and statedump carries its own
 * TSDL, generated from LTT_KABI_EVENT_DESC, for babeltrace2 on the host.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ltt-ktest.h"
#include "ltt-ktest-meta.h"


static int test_nr;
int test_failed;

bool check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	if (!ok)
		test_failed++;
	return ok;
}

void die(const char *what)
{
	printf("not ok %d - %s: %s\nltt-ktest: FAIL\n", ++test_nr, what, strerror(errno));
	exit(1);
}

/* ---- tracer objects ---- */

int nr_cpus(void)
{
	int n = ltt_ktest_possible_cpus(MAX_CPUS);

	if (n < 0)
		die("read the possible CPUs");
	return n;
}

int tracer(void)
{
	int fd = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR | O_CLOEXEC);

	if (fd < 0)
		die("open /proc/ltt");
	return fd;
}


void channel(int sfd, uint64_t sbsize, uint64_t nsb, int overwrite, struct chan *c)
{
	struct ltt_kabi_stream st = { 0 };
	int cpu;

	memset(c, 0, sizeof(*c));
	c->attr.subbuf_size = sbsize;
	c->attr.num_subbuf = nsb;
	c->attr.overwrite = overwrite;
	c->attr.stream_id = 0;
	memcpy(c->attr.uuid, test_uuid, 16);
	c->fd = ioctl(sfd, LTT_KABI_CHANNEL, &c->attr);
	if (c->fd < 0)
		die("LTT_KABI_CHANNEL");
	c->nr = nr_cpus();
	for (cpu = 0; cpu < c->nr; cpu++) {
		st.cpu = cpu;
		c->streams[cpu] = ioctl(c->fd, LTT_KABI_STREAM, &st);
		if (c->streams[cpu] < 0)
			die("LTT_KABI_STREAM");
	}
}

int enable(int cfd, const char *name, uint32_t id)
{
	struct ltt_kabi_event ev = { 0 };

	snprintf(ev.name, sizeof(ev.name), "%s", name);
	ev.id = id;
	return ioctl(cfd, LTT_KABI_EVENT_ENABLE, &ev);
}

void write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY);
	ssize_t n;

	if (fd < 0)
		die(path);
	n = write(fd, text, strlen(text));
	if (n != (ssize_t)strlen(text))
		die(path);
	close(fd);
}

void emit_test(unsigned long n)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu\n", n);
	write_file("/proc/" LTT_KABI_TEST_PROC_NAME, buf);
}

void close_chan(struct chan *c)
{
	int cpu;

	for (cpu = 0; cpu < c->nr; cpu++)
		close(c->streams[cpu]);
	close(c->fd);
}

/* ---- the test event's fields ---- */

/* Does @e hold exactly what the test probe records for its seq? */
bool test_event_ok(const struct event *e)
{
	uint64_t seq = (uint64_t)e->f[F_SEQ].i;
	char name[32], tag[8] = { 0 };
	uint32_t i;

	snprintf(name, sizeof(name), "ltt-test-%" PRIu64, seq);
	snprintf(tag, sizeof(tag), "t%" PRIu64, seq % 1000);
	if (e->f[F_VALUE].i != (int32_t)((int32_t)seq * 3 - 7) ||
	    e->f[F_NEG].i != -(int64_t)(seq % 100) || e->f[F_FLAGS].i != (int64_t)(seq & 0xffff) ||
	    e->f[F_NAME].n != strlen(name) || memcmp(e->f[F_NAME].p, name, e->f[F_NAME].n) ||
	    e->f[F_TAG].n != 8 || memcmp(e->f[F_TAG].p, tag, 8) || e->f[F_BYTES].n != seq % 5)
		return false;
	for (i = 0; i < e->f[F_BYTES].n; i++)
		if (e->f[F_BYTES].p[i] != ((seq + i) & 0xff))
			return false;
	return true;
}

uint64_t count_test(const struct trace *t, uint64_t n, uint64_t *ret_wrong,
			   uint8_t *seen)
{
	uint64_t count = 0, wrong = 0;
	size_t i;

	for (i = 0; i < t->nr; i++) {
		const struct event *e = &t->ev[i];
		uint64_t seq = (uint64_t)e->f[F_SEQ].i;

		if (e->id != 0)
			continue;
		if (seq >= n || seen[seq] || !test_event_ok(e))
			wrong++;
		else
			seen[seq] = 1;
		count++;
	}
	*ret_wrong = wrong;
	return count;
}

/* ---- scenarios ---- */

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void check_version_and_list(int tfd)
{
	struct ltt_kabi_version v;
	struct ltt_kabi_list l = { .kind = LTT_KABI_LIST_TRACEPOINTS };
	struct ltt_kabi_list_entry *e;
	bool test = false, logger = false;
	uint32_t i;

	int ret;

	memset(&v, 0xa5, sizeof(v));
	ret = ioctl(tfd, LTT_KABI_VERSION, &v);
	check(!ret && v.major == LTT_KABI_MAJOR &&
	      v.minor == LTT_KABI_MINOR && !strcmp(v.tracer_version, "0.1.0") &&
	      v.maps == 1 && !v.bpf && !v.catalog && !v.reserved[0] && !v.reserved[3],
	      "VERSION: %u.%u %.32s", v.major, v.minor,
	      v.tracer_version);
	ret = ioctl(tfd, LTT_KABI_LIST, &l);
	check(!ret && l.count >= 5, "LIST with no room: count %u", l.count);
	e = calloc(l.count, sizeof(*e));
	l.entries = (uintptr_t)e;
	l.capacity = l.count;
	if (!e || ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST");
	for (i = 0; i < l.count && i < l.capacity; i++) {
		test |= !strcmp(e[i].name, "ltt_test_event") && e[i].nr_fields == 7;
		logger |= !strcmp(e[i].name, "ltt_logger") && e[i].nr_fields == 1;
	}
	check(test && logger, "LIST: ltt_test_event (7 fields) and ltt_logger (1)");
	free(e);
	l = (struct ltt_kabi_list){ .kind = LTT_KABI_LIST_SYSCALLS };
	ret = ioctl(tfd, LTT_KABI_LIST, &l);
	check(!ret, "LIST syscalls: %u", l.count);
}

static void check_test_desc(void)
{
	static const struct {
		const char *name;
		uint8_t type, size, is_signed, base, encoding;
		uint32_t length;
	} want[] = {
		{ "seq", LTT_KABI_FIELD_INTEGER, 8, 0, 10, 0, 0 },
		{ "value", LTT_KABI_FIELD_INTEGER, 4, 1, 10, 0, 0 },
		{ "neg", LTT_KABI_FIELD_INTEGER, 1, 1, 10, 0, 0 },
		{ "flags", LTT_KABI_FIELD_INTEGER, 2, 0, 16, 0, 0 },
		{ "name", LTT_KABI_FIELD_STRING, 1, 0, 0, 0, 0 },
		{ "tag", LTT_KABI_FIELD_ARRAY, 1, 1, 10, 1, 8 },
		{ "bytes", LTT_KABI_FIELD_SEQUENCE, 1, 0, 10, 0, 0 },
	};
	const struct ltt_kabi_event_desc *d = &descs[0];
	bool ok = d->nr_fields == 7;
	unsigned int i;

	for (i = 0; ok && i < 7; i++) {
		const struct ltt_kabi_field *f = &d->fields[i];

		/* text (char) is signed or not as the kernel's char: unsigned from 6.2 */
		ok = !strcmp(f->name, want[i].name) && f->type == want[i].type &&
		     f->size == want[i].size &&
		     (f->is_signed == want[i].is_signed || want[i].encoding) &&
		     f->base == want[i].base && f->encoding == want[i].encoding &&
		     f->length == want[i].length && !f->flags;
	}
	check(ok, "EVENT_DESC ltt_test_event: 7 fields as declared");
}

static int cmd_basic(uint64_t n, const char *dir)
{
	int tfd = tracer(), sfd;
	struct trace t = { 0 };
	uint64_t before, after, count, wrong, i, missing = 0;
	uint8_t *seen = calloc(n + 1, 1);
	struct chan c;
	bool in_range = true;

	check_version_and_list(tfd);
	describe(tfd, "ltt_test_event", 0);
	check_test_desc();
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0)
		die("LTT_KABI_SESSION");
	channel(sfd, 64 << 10, 64, 0, &c);
	check(!enable(c.fd, "ltt_test_event", 0), "EVENT_ENABLE ltt_test_event");
	before = now_ns();
	check(!ioctl(sfd, LTT_KABI_START, 0), "START");
	emit_test(n);
	check(!ioctl(sfd, LTT_KABI_STOP, 0), "STOP");
	after = now_ns();
	events_counted = events_miscounted = 0;
	check(drain(&c, dir, &t) == 0, "every packet: splice == mmap, seq as GET said");
	check(events_miscounted == 0 && events_counted == t.nr,
	      "GET_NEXT_SUBBUF's events: exact in every packet, %" PRIu64 " in all (%" PRIu64
	      " events read)", events_counted, (uint64_t)t.nr);
	check(t.bad == 0, "packet headers and event headers well-formed (%" PRIu64 " bad)",
	      t.bad);
	count = count_test(&t, n, &wrong, seen);
	for (i = 0; i < n; i++)
		missing += !seen[i];
	check(count == n && wrong == 0 && missing == 0,
	      "%" PRIu64 " events recorded of %" PRIu64 ", %" PRIu64 " wrong, %" PRIu64 " missing",
	      count, n, wrong, missing);
	for (i = 0; i < t.nr; i++)
		in_range &= t.ev[i].ts >= before && t.ev[i].ts <= after;
	check(in_range, "timestamps between START and STOP (CLOCK_MONOTONIC)");
	check(t.discarded == 0 && stats_discarded(&c) == 0, "nothing discarded");
	write_metadata(dir);
	/* close in the "wrong" order: session, channel, then read the streams */
	close(sfd);
	close(c.fd);
	{
		struct ltt_kabi_subbuf sb;
		int ret = ioctl(c.streams[0], LTT_KABI_GET_NEXT_SUBBUF, &sb);

		check(ret < 0 && errno == ENODATA, "finalized stream: GET gives ENODATA");
	}
	for (i = 0; i < (uint64_t)c.nr; i++)
		close(c.streams[i]);
	close(tfd);
	free(seen);
	return 0;
}

static int cmd_discard(uint64_t n)
{
	int tfd = tracer(), sfd, ret;
	struct trace t = { 0 };
	uint64_t count, wrong;
	uint8_t *seen = calloc(n + 1, 1);
	struct chan c;

	pin_cpu0();
	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 4096, 2, 0, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(n);
	ioctl(sfd, LTT_KABI_STOP, 0);
	ret = drain(&c, NULL, &t);
	check(!ret && t.bad == 0, "discard: %" PRIu64 " packets read, all valid", t.packets);
	count = count_test(&t, n, &wrong, seen);
	check(wrong == 0 && count > 0 && t.discarded > 0 && count + t.discarded == n,
	      "discard: recorded %" PRIu64 " + events_discarded %" PRIu64 " == emitted %" PRIu64,
	      count, t.discarded, n);
	check(stats_discarded(&c) == t.discarded, "STREAM_STATS agrees: %" PRIu64,
	      stats_discarded(&c));
	close_chan(&c);
	close(sfd);
	close(tfd);
	free(seen);
	return 0;
}

static int cmd_overwrite(uint64_t n)
{
	int tfd = tracer(), sfd, ret;
	struct trace t = { 0 }, t2 = { 0 };
	uint64_t count, wrong, lo = UINT64_MAX, hi = 0, i;
	uint8_t *seen = calloc(n + 1, 1);
	struct ltt_kabi_stream_stats st;
	struct ltt_kabi_subbuf sb;
	struct chan c;
	uint8_t *map, *before;
	size_t map_len;

	pin_cpu0();
	describe(tfd, "ltt_test_event", 0);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 4096, 4, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(n);
	ioctl(sfd, LTT_KABI_STOP, 0);
	ret = drain(&c, NULL, &t);
	check(!ret && t.bad == 0, "overwrite: %" PRIu64 " packets, all valid", t.packets);
	count = count_test(&t, n, &wrong, seen);
	for (i = 0; i < t.nr; i++) {
		uint64_t s = (uint64_t)t.ev[i].f[F_SEQ].i;

		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	check(wrong == 0 && count > 0 && hi == n - 1 && hi - lo + 1 == count,
	      "overwrite: the newest %" PRIu64 " events survive, contiguous %" PRIu64 "..%" PRIu64,
	      count, lo, hi);
	ret = ioctl(c.streams[0], LTT_KABI_STREAM_STATS, &st);
	check(!ret && st.packets_lost > 0 &&
	      st.events_discarded == 0, "overwrite: packets_lost %" PRIu64, (uint64_t)st.packets_lost);
	close_chan(&c);
	close(sfd);

	/* a held packet survives writers lapping the buffer many times */
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 4096, 2, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	emit_test(20);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	map_len = 3 * 4096;
	map = mmap(NULL, map_len, PROT_READ, MAP_SHARED, c.streams[0], 0);
	if (map == MAP_FAILED || ioctl(c.streams[0], LTT_KABI_GET_NEXT_SUBBUF, &sb))
		die("hold a packet");
	before = malloc(4096);
	memcpy(before, map + sb.offset, 4096);
	emit_test(3000);
	ioctl(c.streams[0], LTT_KABI_FLUSH, 0);
	check(!memcmp(before, map + sb.offset, 4096) && get64(before + 64) == sb.seq &&
	      sb.seq == 0, "overwrite: the held packet (seq %" PRIu64 ") is intact after 3000 "
	      "more events", (uint64_t)sb.seq);
	ioctl(c.streams[0], LTT_KABI_PUT_SUBBUF, 0);
	ioctl(sfd, LTT_KABI_STOP, 0);
	munmap(map, map_len);
	memset(seen, 0, n + 1);
	ret = drain(&c, NULL, &t2);
	check(!ret && t2.bad == 0 && t2.packets > 0,
	      "overwrite: read on after the held packet (%" PRIu64 " packets)", t2.packets);
	close_chan(&c);
	close(sfd);
	close(tfd);
	free(before);
	free(seen);
	return 0;
}

static int cmd_logger(const char *dir)
{
	int tfd = tracer(), sfd, found = 0;
	struct trace t = { 0 };
	char big[3000];
	struct chan c;
	size_t i;

	describe(tfd, "ltt_test_event", 0);
	describe(tfd, "ltt_logger", 40);	/* id >= 31: extended headers */
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 8192, 4, 0, &c);
	check(!enable(c.fd, "ltt_logger", 40), "EVENT_ENABLE ltt_logger id 40");
	ioctl(sfd, LTT_KABI_START, 0);
	write_file("/proc/" LTT_KABI_LOGGER_PROC_NAME, "hello kernel\n");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	write_file("/proc/" LTT_KABI_LOGGER_PROC_NAME, big);
	ioctl(sfd, LTT_KABI_STOP, 0);
	check(!drain(&c, dir, &t) && t.bad == 0, "logger: packets valid");
	for (i = 0; i < t.nr; i++) {
		const struct val *m = &t.ev[i].f[0];

		if (t.ev[i].id != 40)
			continue;
		if (found == 0)
			found += m->n == 12 && !memcmp(m->p, "hello kernel", 12);
		else if (found == 1)
			found += m->n == 1023 && m->p[0] == 'x' && m->p[1022] == 'x';
		else
			found = 100;
	}
	check(found == 2, "logger: \"hello kernel\" then 1023 x (truncated from 2999)");
	write_metadata(dir);
	close_chan(&c);
	close(sfd);
	close(tfd);
	return 0;
}

/* Threads now, from /proc/PID/task/ (no helper process: it would count). */
static unsigned int count_threads(void)
{
	DIR *proc = opendir("/proc"), *task;
	struct dirent *d, *t;
	unsigned int n = 0;
	char path[300];

	if (!proc)
		die("opendir /proc");
	while ((d = readdir(proc))) {
		if (d->d_name[0] < '1' || d->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%s/task", d->d_name);
		task = opendir(path);
		while (task && (t = readdir(task)))
			n += t->d_name[0] != '.';
		if (task)
			closedir(task);
	}
	closedir(proc);
	return n;
}

static unsigned int count_id(const struct trace *t, uint32_t id)
{
	unsigned int n = 0;
	size_t i;

	for (i = 0; i < t->nr; i++)
		n += t->ev[i].id == id;
	return n;
}

static int cmd_statedump(const char *dir)
{
	int tfd = tracer(), sa, sb_;
	struct trace ta = { 0 }, tb = { 0 };
	unsigned int threads, pa, pb, self = 0;
	struct chan a, b;
	size_t i;

	describe(tfd, "lttng_statedump_start", 1);
	describe(tfd, "lttng_statedump_end", 2);
	describe(tfd, "lttng_statedump_process_state", 3);
	sb_ = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sb_, 65536, 8, 0, &b);
	enable(b.fd, "lttng_statedump_process_state", 3);
	sa = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sa, 65536, 8, 0, &a);
	check(!enable(a.fd, "lttng_statedump_start", 1) && !enable(a.fd, "lttng_statedump_end", 2) &&
	      !enable(a.fd, "lttng_statedump_process_state", 3), "enable the state dump events");
	threads = count_threads();
	ioctl(sb_, LTT_KABI_START, 0);	/* B's own dump */
	ioctl(sa, LTT_KABI_START, 0);	/* A's dump: not into B */
	ioctl(sa, LTT_KABI_STOP, 0);
	ioctl(sb_, LTT_KABI_STOP, 0);
	check(!drain(&a, dir, &ta) && ta.bad == 0 && !drain(&b, NULL, &tb) && tb.bad == 0,
	      "statedump: packets valid");
	pa = count_id(&ta, 3);
	pb = count_id(&tb, 3);
	for (i = 0; i < ta.nr; i++)
		self += ta.ev[i].id == 3 && ta.ev[i].f[0].i == getpid() &&
			ta.ev[i].f[1].i == getpid() && ta.ev[i].f[2].i == getppid() &&
			!memcmp(ta.ev[i].f[3].p, "ltt-ktest", 9);
	check(count_id(&ta, 1) == 1 && count_id(&ta, 2) == 1 && ta.ev[0].id == 1 &&
	      ta.ev[ta.nr - 1].id == 2, "statedump: start first, end last, once each");
	check(pa + 2 >= threads && pa <= threads + 2 && self == 1,
	      "statedump: %u process_state for %u threads, ours once with tid/pid/ppid/name",
	      pa, threads);
	check(pb == pa, "statedump: the other session got only its own dump (%u)", pb);
	write_metadata(dir);
	close_chan(&a);
	close_chan(&b);
	close(sa);
	close(sb_);
	close(tfd);
	return 0;
}

/*
 * bench: ns per test event written to /proc/ltt-test, recorded (overwrite
 * mode, nobody reading) and not recorded (no session enables it); the
 * difference is the cost of recording one 7-field event.
 */
static int cmd_bench(uint64_t n)
{
	int tfd = tracer(), sfd;
	uint64_t t0, on, off;
	struct chan c;

	pin_cpu0();
	t0 = now_ns();
	emit_test(n);
	off = now_ns() - t0;
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 1 << 20, 4, 1, &c);
	enable(c.fd, "ltt_test_event", 0);
	ioctl(sfd, LTT_KABI_START, 0);
	t0 = now_ns();
	emit_test(n);
	on = now_ns() - t0;
	ioctl(sfd, LTT_KABI_STOP, 0);
	check(on > off, "bench: %" PRIu64 " events: %.0f ns/event recorded, %.0f ns/event not "
	      "recorded: %.0f ns to record one", n, (double)on / n, (double)off / n,
	      (double)(on - off) / n);
	close_chan(&c);
	close(sfd);
	close(tfd);
	return 0;
}

/* Run @argv while a session is open; print its exit status. */
static int cmd_hold(char **argv)
{
	int tfd = tracer(), sfd = ioctl(tfd, LTT_KABI_SESSION, 0), status;
	pid_t pid;

	if (sfd < 0)
		die("LTT_KABI_SESSION");
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		die("run command");
	printf("cmd_status=%d\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128);
	close(sfd);
	close(tfd);
	return 0;
}

static int cmd_unpriv(void)
{
	int fd;

	if (setresgid(65534, 65534, 65534) || setresuid(65534, 65534, 65534))
		die("become nobody");
	fd = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR);
	check(fd < 0 && errno == EACCES, "nobody: open /proc/ltt refused (%s)", strerror(errno));
	fd = open("/proc/" LTT_KABI_TEST_PROC_NAME, O_WRONLY);
	check(fd < 0 && errno == EACCES, "nobody: open /proc/ltt-test refused (%s)",
	      strerror(errno));
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && !strcmp(argv[1], "basic"))
		cmd_basic(strtoull(argv[2], NULL, 0), argv[3]);
	else if (argc >= 5 && !strcmp(argv[1], "stress"))
		cmd_stress(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0),
			   strtoull(argv[4], NULL, 0), argc >= 6 && !strcmp(argv[5], "room"));
	else if (argc >= 3 && !strcmp(argv[1], "bench"))
		cmd_bench(strtoull(argv[2], NULL, 0));
	else if (argc >= 2 && !strcmp(argv[1], "timers"))
		cmd_timers();
	else if (argc >= 3 && !strcmp(argv[1], "discard"))
		cmd_discard(strtoull(argv[2], NULL, 0));
	else if (argc >= 3 && !strcmp(argv[1], "overwrite"))
		cmd_overwrite(strtoull(argv[2], NULL, 0));
	else if (argc >= 3 && !strcmp(argv[1], "logger"))
		cmd_logger(argv[2]);
	else if (argc >= 3 && !strcmp(argv[1], "statedump"))
		cmd_statedump(argv[2]);
	else if (argc >= 2 && !strcmp(argv[1], "errors"))
		cmd_errors();
	else if (argc >= 3 && !strcmp(argv[1], "fuzz"))
		cmd_fuzz(strtoul(argv[2], NULL, 0));
	else if (argc >= 2 && !strcmp(argv[1], "unpriv"))
		cmd_unpriv();
	else if (argc >= 3 && !strcmp(argv[1], "hold"))
		return cmd_hold(argv + 2);
	else if (argc >= 2 && !strcmp(argv[1], "lazy"))
		cmd_lazy();
	else if (argc >= 4 && !strcmp(argv[1], "syscost"))
		return cmd_syscost(strtoull(argv[2], NULL, 0), argv[3]);
	else if (argc >= 3 && !strcmp(argv[1], "snapshot"))
		cmd_snapshot(strtoull(argv[2], NULL, 0));
	else if (argc >= 2 && !strcmp(argv[1], "contexts"))
		cmd_contexts();
	else if (argc >= 2 && !strcmp(argv[1], "kprobes"))
		cmd_kprobes(argc >= 3 ? argv[2] : NULL);
	else if (argc >= 2 && !strcmp(argv[1], "maps"))
		cmd_maps();
	else if (argc >= 3 && !strcmp(argv[1], "mapread"))
		return cmd_mapread(strtoul(argv[2], NULL, 0));
	else if (argc >= 5 && !strcmp(argv[1], "hotplug"))
		cmd_hotplug(strtoul(argv[2], NULL, 0), strtoul(argv[3], NULL, 0),
			    strtoull(argv[4], NULL, 0));
	else if (argc >= 4 && !strcmp(argv[1], "chanmem"))
		return cmd_chanmem(strtoull(argv[2], NULL, 0), strtoull(argv[3], NULL, 0));
	else if (argc >= 2 && !strcmp(argv[1], "list"))
		return cmd_list(argc >= 3 ? argv[2] : NULL);
	else {
		fprintf(stderr, "usage: see the top of kmod/tests/ltt-ktest.c\n");
		return 2;
	}
	printf("ltt-ktest: %s\n", test_failed ? "FAIL" : "PASS");
	return test_failed ? 1 : 0;
}
