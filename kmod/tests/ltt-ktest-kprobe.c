// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-kprobe.c - kprobes and kretprobes placed from outside (kernel
 * ABI 1.7, LTT_KABI_PROBE), through the raw ABI:
 *
 *   ltt-ktest kprobes [DIR] a kprobe on __x64_sys_getppid by symbol and
 *                           one by address, a kretprobe on it: 100 calls
 *                           give exactly 100 events each, with the
 *                           symbol's address (/proc/kallsyms) and the same
 *                           return address at entry and return; armed
 *                           only while enabled; a probe's fd closed while
 *                           enabled; the refusals errno by errno; the
 *                           trace and its metadata in DIR (babeltrace2)
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

#define KP_SYMBOL	"__x64_sys_getppid"
#define KP_CALLS	100

/* The address of @sym in /proc/kallsyms, or 0. */
static uint64_t kallsyms(const char *sym)
{
	char line[512], name[256], type;
	uint64_t addr = 0, a;
	FILE *f = fopen("/proc/kallsyms", "r");

	if (!f)
		return 0;
	while (!addr && fgets(line, sizeof(line), f))
		if (sscanf(line, "%" SCNx64 " %c %255s", &a, &type, name) == 3 &&
		    !strcmp(name, sym))
			addr = a;
	fclose(f);
	return addr;
}

/*
 * LTT_KABI_PROBE on @sfd: the probe's fd (its event names in @p), or
 * -errno.  @p is filled from the other arguments first.
 */
static int probe(int sfd, struct ltt_kabi_probe *p, uint32_t kind, const char *sym,
		 uint64_t addr)
{
	int fd;

	memset(p, 0, sizeof(*p));
	p->instrumentation = kind;
	p->addr = addr;
	snprintf(p->symbol, sizeof(p->symbol), "%s", sym);
	fd = ioctl(sfd, LTT_KABI_PROBE, p);
	return fd < 0 ? -errno : fd;
}

/* The same, for a request already filled in. */
static int probe_raw(int sfd, struct ltt_kabi_probe *p)
{
	int fd = ioctl(sfd, LTT_KABI_PROBE, p);

	return fd < 0 ? -errno : fd;
}

/* The "kprobes" count /proc/ltt-test reports, or -1. */
static long armed(void)
{
	char buf[160], *p;
	ssize_t len;
	FILE *f = fopen("/proc/" LTT_KABI_TEST_PROC_NAME, "r");

	if (!f)
		return -1;
	len = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[len > 0 ? len : 0] = '\0';
	p = strstr(buf, "kprobes ");
	return p ? strtol(p + 8, NULL, 10) : -1;
}

/* Is @name among the events LIST gives? */
static bool listed(int tfd, const char *name)
{
	uint32_t i, n;
	struct ltt_kabi_list_entry *e = list_events(tfd, LTT_KABI_LIST_TRACEPOINTS, &n);
	bool found = false;

	for (i = 0; i < n; i++)
		found |= !strcmp(e[i].name, name);
	free(e);
	return found;
}

static void refusals(int tfd, int sfd, int cfd2, const char *event)
{
	struct ltt_kabi_probe p;

	check(probe(sfd, &p, LTT_KABI_KPROBE, "ltt_no_such_symbol", 0) == -ENOENT,
	      "PROBE: a symbol the kernel lacks: ENOENT");
	check(probe(sfd, &p, LTT_KABI_UPROBE, "", 0) == -EOPNOTSUPP,
	      "PROBE: a uprobe: EOPNOTSUPP (the module places kernel probes only)");
	check(probe(sfd, &p, LTT_KABI_TRACEPOINT, KP_SYMBOL, 0) == -EINVAL &&
	      probe(sfd, &p, 5, KP_SYMBOL, 0) == -EINVAL,
	      "PROBE: instrumentation TRACEPOINT or 5: EINVAL");
	check(probe(sfd, &p, LTT_KABI_KPROBE, KP_SYMBOL, 0x1000) == -EINVAL,
	      "PROBE: both a symbol and an address: EINVAL");
	check(probe(sfd, &p, LTT_KABI_KPROBE, "", 0) == -EINVAL,
	      "PROBE: neither a symbol nor an address: EINVAL");
	probe(sfd, &p, LTT_KABI_KPROBE, KP_SYMBOL, 0);
	p.reserved[7] = 1;
	check(probe_raw(sfd, &p) == -EINVAL, "PROBE: reserved not zero: EINVAL");
	probe(sfd, &p, LTT_KABI_KRETPROBE, KP_SYMBOL, 0);
	p.nr_args = 1;
	check(probe_raw(sfd, &p) == -EINVAL, "PROBE: a kretprobe with arguments: EINVAL");
	probe(sfd, &p, LTT_KABI_KPROBE, KP_SYMBOL, 0);
	p.path[0] = '/';
	check(probe_raw(sfd, &p) == -EINVAL, "PROBE: a kprobe with a path: EINVAL");
	probe(sfd, &p, LTT_KABI_KPROBE, KP_SYMBOL, 0);
	memset(p.symbol, 'x', sizeof(p.symbol));
	check(probe_raw(sfd, &p) == -EINVAL, "PROBE: a symbol not NUL-terminated: EINVAL");
	check(ioctl(sfd, LTT_KABI_PROBE, (void *)8) < 0 && errno == EFAULT,
	      "PROBE: a bad pointer: EFAULT");
	check(enable(cfd2, event, 0) < 0 && errno == ENOENT,
	      "EVENT_ENABLE of a probe's event in another session's channel: ENOENT");
	check(!listed(tfd, event), "LIST does not list a probe's events");
}

/* Count the events of @t: id 0..3 per the enables below, each checked. */
static void check_events(const struct trace *t, uint64_t addr)
{
	unsigned int n[4] = { 0 }, good[4] = { 0 }, k;
	uint64_t parent = 0;
	bool same_parent = true;

	for (k = 0; k < t->nr; k++) {
		const struct event *e = &t->ev[k];

		if (e->id > 3)
			continue;
		n[e->id]++;
		good[e->id] += (uint64_t)e->f[0].i == addr;
		if (e->id >= 2) {
			if (!parent)
				parent = (uint64_t)e->f[1].i;
			same_parent &= (uint64_t)e->f[1].i == parent;
		}
	}
	printf("# kprobes: %u %u %u %u events, parent_ip 0x%" PRIx64 "\n", n[0], n[1], n[2], n[3],
	       parent);
	check(n[0] == KP_CALLS && good[0] == KP_CALLS,
	      "kprobe by symbol: %u events of %d, %u with ip = " KP_SYMBOL "'s address", n[0], KP_CALLS,
	      good[0]);
	check(n[1] == KP_CALLS && good[1] == KP_CALLS,
	      "kprobe by address: %u events of %d, %u with that ip", n[1], KP_CALLS, good[1]);
	check(n[2] == KP_CALLS && good[2] == KP_CALLS && n[3] == KP_CALLS && good[3] == KP_CALLS,
	      "kretprobe: %u entry and %u return events of %d, with ip = the function's", n[2], n[3],
	      KP_CALLS);
	check(same_parent && parent >= 0xff00000000000000ULL,
	      "kretprobe: parent_ip the same kernel address at entry and return (the caller)");
}

int cmd_kprobes(const char *dir)
{
	struct ltt_kabi_version v = { 0 };
	struct ltt_kabi_probe ps, pa, pr;
	struct ltt_kabi_event_desc d = { 0 };
	uint64_t addr = kallsyms(KP_SYMBOL);
	int tfd = tracer(), sfd, sfd2, fs, fa, fr, i;
	const char *names[4];
	struct trace t = { 0 };
	struct chan c, c2;
	long a;

	check(addr != 0, KP_SYMBOL " at 0x%" PRIx64 " in /proc/kallsyms", addr);
	check(!ioctl(tfd, LTT_KABI_VERSION, &v) && v.minor >= LTT_KABI_MINOR_PROBE &&
	      v.probes == (1U << LTT_KABI_KPROBE | 1U << LTT_KABI_KRETPROBE),
	      "VERSION: ABI 1.%u, probes KPROBE and KRETPROBE (0x%x)", v.minor, v.probes);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	sfd2 = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0 || sfd2 < 0)
		die("LTT_KABI_SESSION");
	channel(sfd, 65536, 4, 0, &c);
	channel(sfd2, 4096, 2, 0, &c2);
	fs = probe(sfd, &ps, LTT_KABI_KPROBE, KP_SYMBOL, 0);
	fa = probe(sfd, &pa, LTT_KABI_KPROBE, "", addr);
	fr = probe(sfd, &pr, LTT_KABI_KRETPROBE, KP_SYMBOL, 0);
	check(fs >= 0 && fa >= 0 && fr >= 0, "PROBE: a kprobe at " KP_SYMBOL
	      ", one at its address, a kretprobe on it: three fds (%d %d %d)", fs, fa, fr);
	if (fs < 0 || fa < 0 || fr < 0)
		die("LTT_KABI_PROBE");
	names[0] = ps.event;
	names[1] = pa.event;
	names[2] = pr.event;
	names[3] = pr.event_return;
	printf("# events: %s %s %s %s\n", names[0], names[1], names[2], names[3]);
	check(strcmp(names[0], names[1]) && !ps.event_return[0] && names[3][0] &&
	      strcmp(names[2], names[3]),
	      "each event has its own name; a kretprobe two, a kprobe one");
	refusals(tfd, sfd, c2.fd, names[0]);
	a = armed();
	check(a == 0, "placed, none enabled: 0 kernel probes armed (%ld)", a);
	for (i = 0; i < 4; i++)
		describe(tfd, names[i], i);
	check(descs[0].nr_fields == 1 && !strcmp(descs[0].fields[0].name, "ip") &&
	      descs[0].fields[0].size == 8 && descs[0].fields[0].base == 16,
	      "EVENT_DESC: a kprobe's event has one field, ip, u64 hex");
	check(descs[3].nr_fields == 2 && !strcmp(descs[3].fields[0].name, "ip") &&
	      !strcmp(descs[3].fields[1].name, "parent_ip") && descs[3].fields[1].base == 16,
	      "EVENT_DESC: a kretprobe's return event has ip and parent_ip, u64 hex");
	for (i = 0; i < 4; i++)
		if (enable(c.fd, names[i], i))
			die(names[i]);
	a = armed();
	check(a == 3, "its events enabled: 3 kernel probes armed (%ld)", a);
	if (ioctl(sfd, LTT_KABI_START, 0))
		die("LTT_KABI_START");
	for (i = 0; i < KP_CALLS; i++)
		syscall(SYS_getppid);
	if (ioctl(sfd, LTT_KABI_STOP, 0))
		die("LTT_KABI_STOP");
	if (drain(&c, dir, &t) || t.bad)
		die("drain");
	if (dir)
		write_metadata(dir);
	check_events(&t, addr);
	for (i = 0; i < 2; i++) {
		struct ltt_kabi_event ev = { 0 };

		snprintf(ev.name, sizeof(ev.name), "%s", names[i]);
		if (ioctl(c.fd, LTT_KABI_EVENT_DISABLE, &ev))
			die("LTT_KABI_EVENT_DISABLE");
	}
	a = armed();
	check(a == 1, "the kprobes' events disabled: the kretprobe alone armed (%ld)", a);
	close(fr);
	a = armed();
	check(a == 0, "the kretprobe's fd closed while its events were enabled: 0 armed (%ld)",
	      a);
	snprintf(d.name, sizeof(d.name), "%s", names[2]);
	check(ioctl(tfd, LTT_KABI_EVENT_DESC, &d) < 0 && errno == ENOENT,
	      "... its events are gone (EVENT_DESC: ENOENT)");
	check(enable(c.fd, names[2], 2) < 0 && errno == ENOENT &&
	      !enable(c.fd, "ltt_test_event", 2),
	      "... gone from the channel too: its id 2 is free again");
	close(fs);
	close(fa);
	close_chan(&c);
	close_chan(&c2);
	close(sfd);
	close(sfd2);
	close(tfd);
	return 0;
}
