// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-lazy.c - the tracer attaches kernel tracepoint probes only
 * while some event needs them (lazy), and what a system call costs in each
 * state (syscost); also the event lists, for the probes= parameter's tests.
 *
 *   ltt-ktest lazy            /proc/ltt-test's "attached" count through
 *                             enables, disables and closes; getppid()
 *                             recorded exactly after each re-attachment
 *   ltt-ktest syscost N MODE  ns per getppid() over N calls, best and
 *                             median of 5 runs: MODE plain (no session),
 *                             one (syscall_entry_openat enabled: every
 *                             system call on the traced path), all (every
 *                             system call event recorded, overwrite mode),
 *                             rec (getppid's entry and exit recorded), count
 *                             (the same counted in a map, MAP: what it
 *                             counted printed, 5 N each)
 *   ltt-ktest list [syscalls] the event names the module lists
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "ltt-ktest.h"

#define SYSCOST_RUNS	5

long attached(void)
{
	char buf[128], *p;
	long n = -1;
	ssize_t len;
	int fd;

	fd = open("/proc/" LTT_KABI_TEST_PROC_NAME, O_RDONLY);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	p = strstr(buf, "attached ");
	if (p)
		n = strtol(p + 9, NULL, 10);
	return n;
}

static int disable(int cfd, const char *name)
{
	struct ltt_kabi_event ev = { 0 };

	snprintf(ev.name, sizeof(ev.name), "%s", name);
	return ioctl(cfd, LTT_KABI_EVENT_DISABLE, &ev);
}

/*
 * Record @n getppid() calls in @sfd (channel @c has syscall_entry_getppid
 * and syscall_exit_getppid as ids 0 and 1, maybe other events); true when
 * exactly @n entries and @n exits returning our parent's pid came back
 * (nothing else in the test guest calls getppid()).
 */
static bool record_getppid(int sfd, struct chan *c, unsigned int n)
{
	struct trace t = { 0 };
	unsigned int i, entries = 0, exits = 0;
	long ppid = getppid();
	size_t k;

	if (ioctl(sfd, LTT_KABI_START, 0))
		die("LTT_KABI_START");
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	if (ioctl(sfd, LTT_KABI_STOP, 0))
		die("LTT_KABI_STOP");
	if (drain(c, NULL, &t) || t.bad)
		return false;
	for (k = 0; k < t.nr; k++) {
		entries += t.ev[k].id == 0;
		exits += t.ev[k].id == 1 && t.ev[k].f[0].i == ppid;
	}
	printf("# getppid x %u: %u entries, %u exits returning %ld (%zu events)\n", n, entries,
	       exits, ppid, t.nr);
	return entries == n && exits == n;
}

int cmd_lazy(void)
{
	int tfd = tracer(), sfd, sfd2;
	struct chan c, c2;
	long a;

	check(attached() == 0, "lazy: module loaded, no session: 0 tracepoint probes attached");
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd, 65536, 4, 0, &c);
	describe(tfd, "ltt_test_event", 5);
	describe(tfd, "sched_switch", 6);
	describe(tfd, "sched_wakeup", 7);
	describe(tfd, "syscall_entry_unknown", 8);
	enable(c.fd, "ltt_test_event", 5);
	check(attached() == 0, "lazy: ltt_test_event (no tracepoint) enabled: still 0");
	enable(c.fd, "sched_switch", 6);
	a = attached();
	check(a == 1, "lazy: sched_switch enabled: 1 attached (%ld)", a);
	enable(c.fd, "sched_wakeup", 7);
	check(attached() == 2, "lazy: sched_wakeup too: 2");
	describe(tfd, "syscall_entry_getppid", 0);
	describe(tfd, "syscall_exit_getppid", 1);
	check(!enable(c.fd, "syscall_entry_getppid", 0),
	      "lazy: EVENT_ENABLE syscall_entry_getppid");
	a = attached();
	check(a == 4, "lazy: the first system call event attaches sys_enter and sys_exit: 4 (%ld)",
	      a);
	enable(c.fd, "syscall_exit_getppid", 1);
	enable(c.fd, "syscall_entry_unknown", 8);
	check(attached() == 4, "lazy: more system call events attach nothing more: 4");
	check(record_getppid(sfd, &c, 100), "lazy: 100 getppid() recorded, entry and exit");

	/* a second session holds one system call event */
	sfd2 = ioctl(tfd, LTT_KABI_SESSION, 0);
	channel(sfd2, 4096, 2, 0, &c2);
	enable(c2.fd, "syscall_entry_getppid", 0);
	disable(c.fd, "syscall_entry_getppid");
	disable(c.fd, "syscall_exit_getppid");
	disable(c.fd, "syscall_entry_unknown");
	check(attached() == 4, "lazy: another session's system call event keeps them: 4");
	close_chan(&c2);
	close(sfd2);
	a = attached();
	check(a == 2, "lazy: its close detaches sys_enter and sys_exit: 2 (%ld)", a);
	disable(c.fd, "sched_switch");
	check(attached() == 1, "lazy: sched_switch disabled: 1");

	/* attached again: records again */
	enable(c.fd, "syscall_entry_getppid", 0);
	enable(c.fd, "syscall_exit_getppid", 1);
	check(attached() == 3, "lazy: system call events enabled again: 3");
	check(record_getppid(sfd, &c, 37), "lazy: 37 getppid() recorded after re-attaching");
	close_chan(&c);
	close(sfd);
	a = attached();
	check(a == 0, "lazy: last channel closed: 0 attached (%ld)", a);
	close(tfd);
	return 0;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* Enable syscall_entry_NAME and syscall_exit_NAME of every listed call. */
static unsigned int enable_all_syscalls(int tfd, int cfd)
{
	struct ltt_kabi_list l = { .kind = LTT_KABI_LIST_SYSCALLS };
	struct ltt_kabi_list_entry *e;
	char name[LTT_KABI_NAME_MAX + 16];
	unsigned int i, id = 0;

	if (ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST");
	e = calloc(l.count, sizeof(*e));
	l.entries = (uintptr_t)e;
	l.capacity = l.count;
	if (!e || ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST");
	for (i = 0; i < l.count; i++) {
		snprintf(name, sizeof(name), "syscall_entry_%s", e[i].name);
		if (enable(cfd, name, id++))
			die(name);
		snprintf(name, sizeof(name), "syscall_exit_%s", e[i].name);
		if (enable(cfd, name, id++))
			die(name);
	}
	free(e);
	return id;
}

/*
 * A map counting getppid's entry and exit (counters 0 and 1), continued:
 * its fd (dies on error).
 */
static int map_getppid(int tfd)
{
	struct ltt_kabi_event_filter f = { 0 };
	struct ltt_kabi_map_ctl c = { .cmd = LTT_KABI_MAP_CONT };
	int mfd = ioctl(tfd, LTT_KABI_MAP, 0);

	if (mfd < 0)
		die("LTT_KABI_MAP");
	strcpy(f.event.name, "syscall_entry_getppid");
	if (ioctl(mfd, LTT_KABI_MAP_EVENT, &f))
		die("LTT_KABI_MAP_EVENT");
	strcpy(f.event.name, "syscall_exit_getppid");
	f.event.id = 1;
	if (ioctl(mfd, LTT_KABI_MAP_EVENT, &f) || ioctl(mfd, LTT_KABI_MAP_CTL, &c))
		die("LTT_KABI_MAP_EVENT");
	return mfd;
}

/* The two counters of map_getppid()'s map: "ENTRY/EXIT" (dies on error). */
static void map_counted(int mfd, char *buf, size_t len)
{
	struct ltt_kabi_map_read r = { 0 };

	if (ioctl(mfd, LTT_KABI_MAP_READ, &r))
		die("LTT_KABI_MAP_READ");
	snprintf(buf, len, "%" PRIu64 "/%" PRIu64, (uint64_t)r.values[0], (uint64_t)r.values[1]);
}

int cmd_syscost(uint64_t n, const char *mode)
{
	double ns[SYSCOST_RUNS];
	char counted[64] = "-";
	int tfd = -1, sfd = -1, mfd = -1, r;
	unsigned int events = 0;
	struct chan c;
	uint64_t i, t0;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
	if (strcmp(mode, "plain")) {
		tfd = tracer();
		sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
		channel(sfd, 1 << 18, 4, 1, &c);
		if (!strcmp(mode, "one"))
			events = !enable(c.fd, "syscall_entry_openat", 0);
		else if (!strcmp(mode, "all"))
			events = enable_all_syscalls(tfd, c.fd);
		else if (!strcmp(mode, "rec"))
			events = !enable(c.fd, "syscall_entry_getppid", 0) +
				 !enable(c.fd, "syscall_exit_getppid", 1);
		else if (!strcmp(mode, "count"))
			mfd = map_getppid(tfd);
		else
			die("syscost: MODE is plain, one, all, rec or count");
		if (ioctl(sfd, LTT_KABI_START, 0))
			die("LTT_KABI_START");
	}
	for (r = 0; r < SYSCOST_RUNS; r++) {
		t0 = mono_ns();
		for (i = 0; i < n; i++)
			syscall(SYS_getppid);
		ns[r] = (double)(mono_ns() - t0) / n;
	}
	if (mfd >= 0) {
		map_counted(mfd, counted, sizeof(counted));
		close(mfd);
	}
	if (sfd >= 0) {
		ioctl(sfd, LTT_KABI_STOP, 0);
		close_chan(&c);
		close(sfd);
		close(tfd);
	}
	qsort(ns, SYSCOST_RUNS, sizeof(ns[0]), cmp_double);
	printf("syscost %s events=%u counted=%s n=%" PRIu64 " best=%.1f median=%.1f worst=%.1f\n",
	       mode, events, counted, n, ns[0], ns[SYSCOST_RUNS / 2], ns[SYSCOST_RUNS - 1]);
	return 0;
}

struct ltt_kabi_list_entry *list_events(int tfd, uint32_t kind, uint32_t *ret_count)
{
	struct ltt_kabi_list l = { .kind = kind };
	struct ltt_kabi_list_entry *e;

	if (ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST");
	e = calloc(l.count + 1, sizeof(*e));
	l.entries = (uintptr_t)e;
	l.capacity = l.count;
	if (!e || ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST");
	*ret_count = l.count < l.capacity ? l.count : l.capacity;
	return e;
}

int cmd_list(const char *what)
{
	struct ltt_kabi_list_entry *e;
	int tfd = tracer();
	uint32_t i, n;

	e = list_events(tfd, what && !strcmp(what, "syscalls") ? LTT_KABI_LIST_SYSCALLS :
								 LTT_KABI_LIST_TRACEPOINTS, &n);
	for (i = 0; i < n; i++)
		printf("%s\n", e[i].name);
	free(e);
	close(tfd);
	return 0;
}
