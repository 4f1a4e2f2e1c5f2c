// SPDX-License-Identifier: GPL-2.0-only
/*
 * kbench - kernel tracing overhead, ltt-tracer.ko beside ftrace, run inside
 * the guest that bench/kernel.sh boots (static: the guest has no libc
 * beyond what the initramfs holds).
 *
 *   kbench run CONFIG WORKLOAD N
 *	One timed run: set the tracer up (untimed), start one reader thread
 *	per CPU on the last CPU, start recording, run WORKLOAD on CPU 0 (timed,
 *	CLOCK_MONOTONIC), stop, drain, count.  Prints one line:
 *	  RUN cfg=C wl=W n=N ns=T ev0=E0 ev1=E1 lost=L bytes=B
 *	(ev0, ev1: events recorded on CPU 0 and CPU 1; lost: discarded, both
 *	CPUs; bytes: what the readers wrote).
 *	CONFIG: none (no tracing), ltt-sched (ltt, sched_switch), ftrace-sched
 *	(tracefs, sched:sched_switch), ltt-all (every system call entry and
 *	exit plus the ten sched events below), ftrace-all (syscalls:* plus the
 *	same ten sched events); ftrace-sched-mono and ftrace-all-mono: the
 *	same with trace_clock "mono" (ktime_get_mono_fast_ns(), ltt's clock)
 *	instead of ftrace's default "local" (sched_clock()); ltt-all-8x512:
 *	ltt-all with 8 x 512 KiB sub-buffers.  Otherwise both tracers: 4 x 1 MiB
 *	per CPU (ltt's default kernel channel; ftrace buffer_size_kb 4096), discard mode
 *	(ltt overwrite=0, ftrace options/overwrite 0), readers splicing to
 *	files in /dev/shm (ltt: GET_NEXT_SUBBUF + splice + PUT_SUBBUF woken by
 *	poll; ftrace: per_cpu/cpuN/trace_pipe_raw, poll + splice).
 *	WORKLOAD: pipe (two processes on CPU 0 ping-pong one byte over two
 *	pipes, N round trips: 2 context switches, 4 system calls each) or
 *	getppid (N getppid() calls).
 *
 *   kbench rate N
 *	The test probe: N ltt_test_event written to /proc/ltt-test on CPU 0,
 *	first with no session (not recorded), then recorded into a 4 x 1 MiB
 *	discard channel drained by a reader on CPU 1 (splice to /dev/null):
 *	  RATE n=N off_ns=T0 on_ns=T1 lost=L
 *
 * Figures only, no pass/fail: bench/README.md has the method and results.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
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
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi/ltt-abi.h"

#define MAX_CPUS	8
#define SUBBUF_SIZE	(1ULL << 20)	/* ltt's default kernel channel */
#define NUM_SUBBUF	4ULL
#define MAX_EVENTS	2048
#define PH_SIZE		84
#define OUT_DIR		"/dev/shm/kbench"
#define TRACEFS		"/sys/kernel/tracing"

/* The scheduler events both tracers record in the "all" configurations. */
static const char *const sched_events[] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exec",
	"sched_process_exit", "sched_process_free", "sched_process_wait",
};
#define NR_SCHED	(sizeof(sched_events) / sizeof(sched_events[0]))

static int ncpus;
static volatile int stopping;
static struct ltt_kabi_event_desc descs[MAX_EVENTS];	/* by id */
static unsigned int nr_ids;

struct reader {
	pthread_t th;
	int cpu;
	int fd;		/* ltt stream fd or ftrace trace_pipe_raw */
	int out;	/* file the packets or pages go to */
	bool ltt;
	uint64_t bytes;
};
static struct reader readers[MAX_CPUS];

static void __attribute__((noreturn)) die(const char *what)
{
	fprintf(stderr, "kbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

/* ---- files ---- */

static void write_file(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC);
	size_t len = strlen(val);

	if (fd < 0 || write(fd, val, len) != (ssize_t)len)
		die(path);
	close(fd);
}

static void tracefs_write(const char *rel, const char *val)
{
	char path[256];

	snprintf(path, sizeof(path), TRACEFS "/%s", rel);
	write_file(path, val);
}

/* ftrace's per-CPU counter @key ("entries", "read events", ...). */
static uint64_t ftrace_stat(int cpu, const char *key)
{
	char path[128], line[128];
	size_t klen = strlen(key);
	uint64_t v = 0;
	FILE *f;

	snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/stats", cpu);
	f = fopen(path, "r");
	if (!f)
		die(path);
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, key, klen) && line[klen] == ':')
			v = strtoull(line + klen + 1, NULL, 10);
	fclose(f);
	return v;
}

static int open_out(int cpu)
{
	char path[128];
	int fd;

	snprintf(path, sizeof(path), OUT_DIR "/cpu%d", cpu);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die(path);
	return fd;
}

/* splice @len bytes from @in (a stream or a trace_pipe_raw) to @out */
static ssize_t splice_out(int in, int out, int pfd[2], size_t len, unsigned int flags)
{
	ssize_t n = splice(in, NULL, pfd[1], NULL, len, flags), m, w;

	for (m = n; m > 0; m -= w) {
		w = splice(pfd[0], NULL, out, NULL, m, 0);
		if (w <= 0)
			die("splice to the output file");
	}
	return n;
}

/* ---- readers ---- */

/* Every complete ltt packet of @r now; false once the stream is empty and
 * the session stopped. */
static void ltt_pull(struct reader *r, int pfd[2])
{
	struct ltt_kabi_subbuf sb;

	while (!ioctl(r->fd, LTT_KABI_GET_NEXT_SUBBUF, &sb)) {
		uint64_t done = 0;
		ssize_t n;

		while (done < sb.packet_size) {
			n = splice_out(r->fd, r->out, pfd, sb.packet_size - done, 0);
			if (n <= 0)
				die("splice from the stream");
			done += n;
		}
		r->bytes += done;
		if (ioctl(r->fd, LTT_KABI_PUT_SUBBUF, 0))
			die("LTT_KABI_PUT_SUBBUF");
	}
	if (errno != EAGAIN && errno != ENODATA)
		die("LTT_KABI_GET_NEXT_SUBBUF");
}

/* Every full ftrace page of @r now (trace_pipe_raw hands out whole pages). */
static void ftrace_pull(struct reader *r, int pfd[2])
{
	ssize_t n;

	while ((n = splice_out(r->fd, r->out, pfd, 16 * 4096, SPLICE_F_NONBLOCK)) > 0)
		r->bytes += n;
	if (n < 0 && errno != EAGAIN)
		die("splice from trace_pipe_raw");
}

static void *reader_main(void *arg)
{
	struct reader *r = arg;
	struct pollfd p = { .fd = r->fd, .events = POLLIN };
	int pfd[2];

	pin(ncpus - 1);
	if (pipe(pfd))
		die("pipe");
	fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
	while (!stopping) {
		if (poll(&p, 1, 100) < 0 && errno != EINTR)
			die("poll");
		if (r->ltt)
			ltt_pull(r, pfd);
		else
			ftrace_pull(r, pfd);
	}
	/* Stopped (ltt: STOP flushed every stream): what is left. */
	if (r->ltt) {
		ltt_pull(r, pfd);
	} else {
		static char page[4096];
		ssize_t n;

		ftrace_pull(r, pfd);
		while ((n = read(r->fd, page, sizeof(page))) > 0) {
			if (write(r->out, page, n) != n)
				die("write");
			r->bytes += n;
		}
	}
	close(pfd[0]);
	close(pfd[1]);
	return NULL;
}

static void start_readers(void)
{
	int cpu;

	stopping = 0;
	for (cpu = 0; cpu < ncpus; cpu++)
		if (pthread_create(&readers[cpu].th, NULL, reader_main, &readers[cpu]))
			die("pthread_create");
}

static void join_readers(void)
{
	int cpu;

	stopping = 1;
	for (cpu = 0; cpu < ncpus; cpu++)
		pthread_join(readers[cpu].th, NULL);
}

/* ---- ltt ---- */

struct ltt {
	int tfd, sfd, cfd;
};

static void ltt_enable(struct ltt *l, const char *name)
{
	struct ltt_kabi_event ev = { .id = nr_ids };

	if (nr_ids >= MAX_EVENTS)
		return;
	snprintf(descs[nr_ids].name, LTT_KABI_NAME_MAX, "%s", name);
	if (ioctl(l->tfd, LTT_KABI_EVENT_DESC, &descs[nr_ids]))
		return;		/* not on this kernel */
	snprintf(ev.name, sizeof(ev.name), "%s", name);
	if (ioctl(l->cfd, LTT_KABI_EVENT_ENABLE, &ev))
		die(name);
	nr_ids++;
}

/* Every system call's entry and exit events. */
static void ltt_enable_syscalls(struct ltt *l)
{
	static struct ltt_kabi_list_entry e[MAX_EVENTS / 2];
	struct ltt_kabi_list list = { .kind = LTT_KABI_LIST_SYSCALLS };
	char name[LTT_KABI_NAME_MAX];
	uint32_t i;

	list.entries = (uintptr_t)e;
	list.capacity = MAX_EVENTS / 2 - NR_SCHED;
	if (ioctl(l->tfd, LTT_KABI_LIST, &list))
		die("LTT_KABI_LIST");
	for (i = 0; i < list.count && i < list.capacity; i++) {
		snprintf(name, sizeof(name), "syscall_entry_%s", e[i].name);
		ltt_enable(l, name);
		snprintf(name, sizeof(name), "syscall_exit_%s", e[i].name);
		ltt_enable(l, name);
	}
}

static void ltt_setup(struct ltt *l, bool all, uint64_t subbuf_size, uint64_t num_subbuf)
{
	struct ltt_kabi_channel attr = {
		.subbuf_size = subbuf_size, .num_subbuf = num_subbuf,
	};
	int cpu;
	unsigned int i;

	l->tfd = open("/proc/ltt", O_RDWR);
	if (l->tfd < 0)
		die("/proc/ltt");
	l->sfd = ioctl(l->tfd, LTT_KABI_SESSION, 0);
	if (l->sfd < 0)
		die("LTT_KABI_SESSION");
	l->cfd = ioctl(l->sfd, LTT_KABI_CHANNEL, &attr);
	if (l->cfd < 0)
		die("LTT_KABI_CHANNEL");
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct ltt_kabi_stream st = { .cpu = cpu };

		readers[cpu] = (struct reader){ .cpu = cpu, .ltt = true, .out = open_out(cpu) };
		readers[cpu].fd = ioctl(l->cfd, LTT_KABI_STREAM, &st);
		if (readers[cpu].fd < 0)
			die("LTT_KABI_STREAM");
	}
	/* The scheduler events first: ids below 31 get the compact header. */
	nr_ids = 0;
	for (i = 0; i < (all ? NR_SCHED : 1); i++)
		ltt_enable(l, sched_events[i]);
	if (all)
		ltt_enable_syscalls(l);
}

static uint64_t ltt_lost(void)
{
	uint64_t lost = 0;
	int cpu;

	for (cpu = 0; cpu < ncpus; cpu++) {
		struct ltt_kabi_stream_stats s;

		if (ioctl(readers[cpu].fd, LTT_KABI_STREAM_STATS, &s))
			die("LTT_KABI_STREAM_STATS");
		lost += s.events_discarded;
	}
	return lost;
}

/* The end of an event's payload at @p, or NULL when malformed. */
static const uint8_t *skip_fields(const uint8_t *p, const uint8_t *end, uint32_t id)
{
	const struct ltt_kabi_event_desc *d = &descs[id];
	unsigned int k;

	for (k = 0; k < d->nr_fields; k++) {
		const struct ltt_kabi_field *fl = &d->fields[k];
		uint64_t n;

		switch (fl->type) {
		case LTT_KABI_FIELD_INTEGER:
			p += fl->size;
			break;
		case LTT_KABI_FIELD_STRING:
			while (p < end && *p)
				p++;
			p++;
			break;
		case LTT_KABI_FIELD_ARRAY:
			p += (uint64_t)fl->length * fl->size;
			break;
		case LTT_KABI_FIELD_SEQUENCE:
			if (p + 4 > end)
				return NULL;
			n = get32(p);
			p += 4 + n * fl->size;
			break;
		default:
			return NULL;
		}
		if (p > end)
			return NULL;
	}
	return p;
}

/* Count the events in the packets of the stream file of @cpu. */
static uint64_t ltt_count(int cpu, uint64_t subbuf_size)
{
	uint64_t count = 0, off, size = readers[cpu].bytes;
	uint8_t *buf = malloc(subbuf_size);

	if (!buf)
		die("malloc");
	for (off = 0; off + subbuf_size <= size; off += subbuf_size) {
		const uint8_t *p = buf + PH_SIZE, *end;
		uint32_t id;

		if (pread(readers[cpu].out, buf, subbuf_size, off) != (ssize_t)subbuf_size)
			die("read back a packet");
		end = buf + get64(buf + 48) / 8;
		while (p && p < end) {
			if ((*p & 31) < 31) {
				id = get32(p) & 31;
				p += 4;
			} else {
				id = get32(p + 1);
				p += 13;
			}
			if (id >= nr_ids) {
				fprintf(stderr, "kbench: cpu %d: bad event id %u\n", cpu, id);
				break;
			}
			p = skip_fields(p, end, id);
			count++;
		}
	}
	free(buf);
	return count;
}

/* ---- ftrace ---- */

static void ftrace_reset(void)
{
	tracefs_write("tracing_on", "0");
	tracefs_write("set_event", "");
	tracefs_write("current_tracer", "nop");
	tracefs_write("trace", "");
}

static void ftrace_setup(bool all, const char *clock)
{
	char path[128];
	unsigned int i;
	int cpu;

	ftrace_reset();
	tracefs_write("buffer_size_kb", "4096");	/* per CPU, as ltt's 4 x 1 MiB */
	tracefs_write("options/overwrite", "0");	/* discard when full, as ltt */
	tracefs_write("trace_clock", clock);
	for (i = 0; i < (all ? NR_SCHED : 1); i++) {
		snprintf(path, sizeof(path), "events/sched/%s/enable", sched_events[i]);
		tracefs_write(path, "1");
	}
	if (all)
		tracefs_write("events/syscalls/enable", "1");
	for (cpu = 0; cpu < ncpus; cpu++) {
		snprintf(path, sizeof(path), TRACEFS "/per_cpu/cpu%d/trace_pipe_raw", cpu);
		readers[cpu] = (struct reader){ .cpu = cpu, .out = open_out(cpu) };
		readers[cpu].fd = open(path, O_RDONLY | O_NONBLOCK);
		if (readers[cpu].fd < 0)
			die(path);
	}
}

/* ---- workloads ---- */

/* N one-byte round trips between this process and a child, both on CPU 0. */
static uint64_t pipe_pingpong(uint64_t n, void (*start)(void *), void *arg)
{
	int ab[2], ba[2], status;
	uint64_t i, t0, t1;
	char c = 0;
	pid_t pid;

	if (pipe(ab) || pipe(ba))
		die("pipe");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		for (i = 0; i < n; i++)
			if (read(ab[0], &c, 1) != 1 || write(ba[1], &c, 1) != 1)
				_exit(1);
		_exit(0);
	}
	start(arg);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		if (write(ab[1], &c, 1) != 1 || read(ba[0], &c, 1) != 1)
			die("ping-pong");
	t1 = now_ns();
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("the ping-pong child");
	close(ab[0]);
	close(ab[1]);
	close(ba[0]);
	close(ba[1]);
	return t1 - t0;
}

static uint64_t getppid_loop(uint64_t n, void (*start)(void *), void *arg)
{
	uint64_t i, t0;

	start(arg);
	t0 = now_ns();
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	return now_ns() - t0;
}

/* ---- one run ---- */

enum tracer { NONE, LTT, FTRACE };

static void start_ltt(void *arg)
{
	if (ioctl(((struct ltt *)arg)->sfd, LTT_KABI_START, 0))
		die("LTT_KABI_START");
}

static void start_ftrace(void *arg)
{
	(void)arg;
	tracefs_write("tracing_on", "1");
}

static void start_none(void *arg)
{
	(void)arg;
}

static int cmd_run(const char *cfg, const char *wl, uint64_t n)
{
	enum tracer t = !strncmp(cfg, "ltt-", 4) ? LTT : !strncmp(cfg, "ftrace-", 7) ? FTRACE : NONE;
	bool all = strstr(cfg, "-all") != NULL;
	bool small = t == LTT && strstr(cfg, "-8x512") != NULL;
	uint64_t subbuf_size = small ? 512 << 10 : SUBBUF_SIZE, num_subbuf = small ? 8 : NUM_SUBBUF;
	uint64_t ns, ev[MAX_CPUS] = { 0 }, lost = 0, bytes = 0;
	uint64_t before[MAX_CPUS][3] = { { 0 } };
	void (*start)(void *) = start_none;
	struct ltt l = { 0 };
	int cpu;

	if (t == NONE && strcmp(cfg, "none"))
		return fprintf(stderr, "kbench: unknown configuration %s\n", cfg), 2;
	if (strcmp(wl, "pipe") && strcmp(wl, "getppid"))
		return fprintf(stderr, "kbench: unknown workload %s\n", wl), 2;
	mkdir(OUT_DIR, 0755);
	if (t == LTT) {
		ltt_setup(&l, all, subbuf_size, num_subbuf);
		start = start_ltt;
	} else if (t == FTRACE) {
		ftrace_setup(all, strstr(cfg, "-mono") ? "mono" : "local");
		for (cpu = 0; cpu < ncpus; cpu++) {
			before[cpu][0] = ftrace_stat(cpu, "entries") + ftrace_stat(cpu, "read events");
			before[cpu][1] = ftrace_stat(cpu, "dropped events");
			before[cpu][2] = ftrace_stat(cpu, "overrun");
		}
		start = start_ftrace;
	}
	if (t != NONE)
		start_readers();
	pin(0);
	ns = !strcmp(wl, "pipe") ? pipe_pingpong(n, start, &l) : getppid_loop(n, start, &l);
	if (t == LTT && ioctl(l.sfd, LTT_KABI_STOP, 0))
		die("LTT_KABI_STOP");
	if (t == FTRACE)
		tracefs_write("tracing_on", "0");
	if (t != NONE)
		join_readers();
	if (t == LTT)
		lost = ltt_lost();
	for (cpu = 0; t != NONE && cpu < ncpus; cpu++) {
		bytes += readers[cpu].bytes;
		if (t == LTT) {
			ev[cpu] = ltt_count(cpu, subbuf_size);
		} else {
			ev[cpu] = ftrace_stat(cpu, "entries") + ftrace_stat(cpu, "read events") -
				  before[cpu][0];
			lost += ftrace_stat(cpu, "dropped events") - before[cpu][1] +
				ftrace_stat(cpu, "overrun") - before[cpu][2];
		}
		close(readers[cpu].fd);
		close(readers[cpu].out);
	}
	if (t == LTT) {
		close(l.cfd);
		close(l.sfd);
		close(l.tfd);
	}
	if (t == FTRACE) {
		ftrace_reset();
		tracefs_write("trace_clock", "local");
		tracefs_write("buffer_size_kb", "1");	/* give the memory back */
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		char path[128];

		snprintf(path, sizeof(path), OUT_DIR "/cpu%d", cpu);
		unlink(path);
	}
	printf("RUN cfg=%s wl=%s n=%" PRIu64 " ns=%" PRIu64 " ev0=%" PRIu64 " ev1=%" PRIu64
	       " lost=%" PRIu64 " bytes=%" PRIu64 "\n", cfg, wl, n, ns, ev[0],
	       ncpus > 1 ? ev[1] : 0, lost, bytes);
	return 0;
}

/* ---- the test probe's rate ---- */

static uint64_t emit_test(uint64_t n)
{
	char buf[32];
	int fd = open("/proc/ltt-test", O_WRONLY), len;
	uint64_t t0, t1;

	if (fd < 0)
		die("/proc/ltt-test");
	len = snprintf(buf, sizeof(buf), "%" PRIu64, n);
	t0 = now_ns();
	if (write(fd, buf, len) != len)
		die("write /proc/ltt-test");
	t1 = now_ns();
	close(fd);
	return t1 - t0;
}

static int cmd_rate(uint64_t n)
{
	uint64_t off, on;
	struct ltt l = { 0 };
	int cpu;

	pin(0);
	off = emit_test(n);
	l.tfd = open("/proc/ltt", O_RDWR);
	if (l.tfd < 0)
		die("/proc/ltt");
	{
		struct ltt_kabi_channel attr = {
			.subbuf_size = SUBBUF_SIZE, .num_subbuf = NUM_SUBBUF,
		};

		l.sfd = ioctl(l.tfd, LTT_KABI_SESSION, 0);
		l.cfd = l.sfd < 0 ? -1 : ioctl(l.sfd, LTT_KABI_CHANNEL, &attr);
		if (l.cfd < 0)
			die("session and channel");
	}
	for (cpu = 0; cpu < ncpus; cpu++) {
		struct ltt_kabi_stream st = { .cpu = cpu };

		readers[cpu] = (struct reader){ .cpu = cpu, .ltt = true };
		readers[cpu].out = open("/dev/null", O_WRONLY);
		readers[cpu].fd = ioctl(l.cfd, LTT_KABI_STREAM, &st);
		if (readers[cpu].fd < 0 || readers[cpu].out < 0)
			die("LTT_KABI_STREAM");
	}
	nr_ids = 0;
	ltt_enable(&l, "ltt_test_event");
	start_readers();
	start_ltt(&l);
	on = emit_test(n);
	if (ioctl(l.sfd, LTT_KABI_STOP, 0))
		die("LTT_KABI_STOP");
	join_readers();
	printf("RATE n=%" PRIu64 " off_ns=%" PRIu64 " on_ns=%" PRIu64 " lost=%" PRIu64 "\n",
	       n, off, on, ltt_lost());
	for (cpu = 0; cpu < ncpus; cpu++) {
		close(readers[cpu].fd);
		close(readers[cpu].out);
	}
	close(l.cfd);
	close(l.sfd);
	close(l.tfd);
	return 0;
}

int main(int argc, char **argv)
{
	ncpus = (int)sysconf(_SC_NPROCESSORS_CONF);
	if (ncpus < 2 || ncpus > MAX_CPUS) {
		fprintf(stderr, "kbench: needs 2 to %d CPUs, this system has %d\n", MAX_CPUS,
			ncpus);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc == 5 && !strcmp(argv[1], "run"))
		return cmd_run(argv[2], argv[3], strtoull(argv[4], NULL, 0));
	if (argc == 3 && !strcmp(argv[1], "rate"))
		return cmd_rate(strtoull(argv[2], NULL, 0));
	fprintf(stderr, "usage: kbench run CONFIG WORKLOAD N | kbench rate N\n"
		"  CONFIG: none ltt-sched ftrace-sched ltt-all ltt-all-8x512 ftrace-all\n"
		"  ftrace-sched-mono ftrace-all-mono; WORKLOAD: pipe getppid\n");
	return 2;
}
