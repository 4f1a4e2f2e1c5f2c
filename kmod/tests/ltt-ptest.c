// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ptest - record the probes' events (sched, irq, timer, block, net,
 * kmem, signal, system calls) through the raw ABI of src/abi/ltt-abi.h while
 * running a known workload, inside a kernel that loaded ltt-tracer.ko
 * (tests/kernel boots one under QEMU):
 *
 *   ltt-ptest DIR [BLOCKDEV]
 *
 * writes DIR/trace (a CTF trace: one stream file per CPU and its TSDL,
 * generated from LTT_KABI_EVENT_DESC) and DIR/facts (KEY=VALUE lines: what
 * the workload did: pids, the file it opened, the signal it sent, ...),
 * then runs the workload again in a session that enables the entry and
 * exit events of every system call LTT_KABI_LIST_SYSCALLS gives, into
 * DIR/trace-syscalls and DIR/facts-syscalls.
 * kmod/tests/ltt-ptest-check.sh reads both on the host with babeltrace2
 * and asserts on the recorded values.  With BLOCKDEV (a scratch disk, e.g.
 * /dev/vda), the workload also writes 64 KiB to it with O_DIRECT.
 *
 * Output: "ok N - ..." lines for what it checks itself (the ABI calls),
 * then "ltt-ptest: PASS" or "ltt-ptest: FAIL"; the exit status says the
 * same.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "abi/ltt-abi.h"
#include "ltt-ktest-meta.h"

#define MAX_CPUS	64
#define SUBBUF_SIZE	(256 << 10)
#define NUM_SUBBUF	16
#define CHILD_EXIT	7
#define UNKNOWN_NR	1000	/* a system call number no kernel has yet */
#define UDP_PAYLOAD	123

/* The events of the first session; an event's index is its id in the channel. */
static const char *const probe_events[] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exec",
	"sched_process_exit", "sched_process_free", "sched_process_wait",
	"irq_handler_entry", "irq_handler_exit", "irq_softirq_entry", "irq_softirq_exit",
	"irq_softirq_raise",
	"timer_init", "timer_start", "timer_expire_entry", "timer_expire_exit", "timer_cancel",
	"timer_hrtimer_init", "timer_hrtimer_start", "timer_hrtimer_expire_entry",
	"timer_hrtimer_expire_exit", "timer_hrtimer_cancel",
	"block_rq_issue", "block_rq_complete",
	"net_dev_xmit", "netif_receive_skb",
	"kmem_mm_page_alloc", "kmem_mm_page_free",
	"signal_generate", "signal_deliver",
	"syscall_entry_openat", "syscall_exit_openat",
	"syscall_entry_execve", "syscall_exit_execve",
	"syscall_entry_kill", "syscall_exit_kill",
	"syscall_entry_unknown", "syscall_exit_unknown",
};
#define NR_PROBE_EVENTS	(sizeof(probe_events) / sizeof(probe_events[0]))
#define MAX_EVENTS	2048

static const uint8_t trace_uuid[16] = {
	0x9b, 0x1e, 0x57, 0x0b, 0x2e, 0x5a, 0x4c, 0x11, 0x8d, 0x0e, 0x71, 0x7a, 0xce, 0x00, 0x00, 0x06
};

static const char *events[MAX_EVENTS];	/* the current session's */
static unsigned int nr_events;
static struct ltt_kabi_event_desc descs[MAX_EVENTS];
static bool have[MAX_EVENTS];
static int test_nr, failed;
static FILE *facts;
static volatile sig_atomic_t got_usr1;

static bool __attribute__((format(printf, 2, 3))) check(bool ok, const char *fmt, ...)
{
	va_list ap;

	printf("%s %d - ", ok ? "ok" : "not ok", ++test_nr);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
	failed += !ok;
	return ok;
}

static void __attribute__((noreturn)) die(const char *what)
{
	printf("not ok %d - %s: %s\nltt-ptest: FAIL\n", ++test_nr, what, strerror(errno));
	exit(1);
}

static void __attribute__((format(printf, 2, 3))) fact(const char *key, const char *fmt, ...)
{
	va_list ap;

	fprintf(facts, "%s=", key);
	va_start(ap, fmt);
	vfprintf(facts, fmt, ap);
	va_end(ap);
	fprintf(facts, "\n");
	fflush(facts);
}

static int nr_cpus(void)
{
	int n = ltt_ktest_possible_cpus(MAX_CPUS);

	if (n < 0)
		die("read the possible CPUs");
	return n;
}

/* ---- the metadata ---- */

static void write_metadata(const char *dir)
{
	if (ltt_ktest_metadata(dir, trace_uuid, "ltt-ptest", descs, have, nr_events))
		die("write the metadata");
}

/* ---- the session ---- */

struct chan {
	int fd, nr;
	int streams[MAX_CPUS];
};

static void open_channel(int sfd, struct chan *c)
{
	struct ltt_kabi_channel attr = {
		.subbuf_size = SUBBUF_SIZE, .num_subbuf = NUM_SUBBUF,
	};
	struct ltt_kabi_stream st = { 0 };
	int cpu;

	memcpy(attr.uuid, trace_uuid, 16);
	c->fd = ioctl(sfd, LTT_KABI_CHANNEL, &attr);
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

static void enable_all(int tfd, struct chan *c)
{
	unsigned int i, missing = 0;

	for (i = 0; i < nr_events; i++) {
		struct ltt_kabi_event ev = { .id = i };

		snprintf(descs[i].name, sizeof(descs[i].name), "%s", events[i]);
		if (ioctl(tfd, LTT_KABI_EVENT_DESC, &descs[i])) {
			printf("# %s: not on this kernel (%s)\n", events[i], strerror(errno));
			missing++;
			continue;
		}
		snprintf(ev.name, sizeof(ev.name), "%s", events[i]);
		if (ioctl(c->fd, LTT_KABI_EVENT_ENABLE, &ev))
			die(events[i]);
		have[i] = true;
	}
	check(missing == 0, "EVENT_DESC and EVENT_ENABLE of %u events (%u missing)",
	      nr_events, missing);
}

/* Copy every complete packet of @c's streams into DIR/chan_CPU. */
static void drain(struct chan *c, const char *dir)
{
	uint64_t packets = 0;
	int cpu;

	for (cpu = 0; cpu < c->nr; cpu++) {
		struct ltt_kabi_subbuf sb;
		uint8_t *map = NULL;
		size_t map_len = 0;
		char path[512];
		int out;

		if (ioctl(c->streams[cpu], LTT_KABI_FLUSH, 0))
			die("LTT_KABI_FLUSH");
		snprintf(path, sizeof(path), "%s/chan_%d", dir, cpu);
		out = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (out < 0)
			die(path);
		while (!ioctl(c->streams[cpu], LTT_KABI_GET_NEXT_SUBBUF, &sb)) {
			if (!map) {
				/* 0 from a tracer that predates mmap_size: its layout */
				map_len = sb.mmap_size ? sb.mmap_size :
					  (size_t)(NUM_SUBBUF + 1) * SUBBUF_SIZE;
				map = mmap(NULL, map_len, PROT_READ, MAP_PRIVATE, c->streams[cpu], 0);
				if (map == MAP_FAILED)
					die("mmap stream");
			}
			if (sb.offset + sb.packet_size > map_len ||
			    write(out, map + sb.offset, sb.packet_size) != (ssize_t)sb.packet_size)
				die("write packet");
			if (ioctl(c->streams[cpu], LTT_KABI_PUT_SUBBUF, 0))
				die("LTT_KABI_PUT_SUBBUF");
			packets++;
		}
		if (errno != EAGAIN && errno != ENODATA)
			die("LTT_KABI_GET_NEXT_SUBBUF");
		if (map)
			munmap(map, map_len);
		close(out);
	}
	check(packets > 0, "read %" PRIu64 " packets", packets);
}

static void check_stats(struct chan *c)
{
	uint64_t discarded = 0;
	int cpu;

	for (cpu = 0; cpu < c->nr; cpu++) {
		struct ltt_kabi_stream_stats s;

		if (ioctl(c->streams[cpu], LTT_KABI_STREAM_STATS, &s))
			die("LTT_KABI_STREAM_STATS");
		discarded += s.events_discarded;
	}
	fact("discarded", "%" PRIu64, discarded);
	check(discarded == 0, "no event discarded (%" PRIu64 ")", discarded);
}

/* ---- the workload ---- */

static void on_usr1(int sig)
{
	got_usr1 = sig;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

/* fork, exec this program as "child", wait: fork/exec/exit/wait/wakeup. */
static void run_child(const char *self)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		execl(self, "ltt-ptest", "child", (char *)NULL);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		die("waitpid");
	fact("child_pid", "%d", (int)pid);
	fact("exec_filename", "%s", self);
	check(WIFEXITED(status) && WEXITSTATUS(status) == CHILD_EXIT,
	      "the child %d ran and exited %d", (int)pid, CHILD_EXIT);
}

static void open_known_file(const char *dir)
{
	char path[512];
	int fd;

	snprintf(path, sizeof(path), "%s/ltt-ptest-opened-%d", dir, (int)getpid());
	fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_CLOEXEC, 0640);
	if (fd < 0)
		die("openat");
	close(fd);
	unlink(path);
	fact("openat_path", "%s", path);
	fact("openat_flags", "%d", O_WRONLY | O_CREAT | O_CLOEXEC);
	fact("openat_mode", "%d", 0640);
	fact("openat_fd", "%d", fd);
}

static void send_usr1(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };

	if (sigaction(SIGUSR1, &sa, NULL))
		die("sigaction");
	if (kill(getpid(), SIGUSR1))
		die("kill");
	fact("signal", "%d", SIGUSR1);
	fact("sa_handler", "0x%lx", (unsigned long)(uintptr_t)on_usr1);
	check(got_usr1 == SIGUSR1, "SIGUSR1 delivered to the handler");
}

static void udp_over_lo(void)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	char buf[UDP_PAYLOAD];
	int rx, tx;

	memset(buf, 'x', sizeof(buf));
	rx = socket(AF_INET, SOCK_DGRAM, 0);
	tx = socket(AF_INET, SOCK_DGRAM, 0);
	if (rx < 0 || tx < 0 || bind(rx, (struct sockaddr *)&a, sizeof(a)) ||
	    getsockname(rx, (struct sockaddr *)&a, &len))
		die("UDP sockets on lo");
	if (sendto(tx, buf, sizeof(buf), 0, (struct sockaddr *)&a, sizeof(a)) != sizeof(buf))
		die("sendto");
	check(recv(rx, buf, sizeof(buf), 0) == sizeof(buf), "a UDP datagram over lo");
	close(rx);
	close(tx);
	/* IPv4 (20) + UDP (8) + Ethernet (14) headers around the payload */
	fact("udp_frame_len", "%d", UDP_PAYLOAD + 20 + 8 + 14);
}

static void write_disk(const char *dev)
{
	size_t len = 64 << 10;
	void *buf;
	int fd;

	if (posix_memalign(&buf, 4096, len))
		die("posix_memalign");
	memset(buf, 0x5a, len);
	fd = open(dev, O_WRONLY | O_DIRECT | O_SYNC);
	if (fd < 0)
		die(dev);
	if (pwrite(fd, buf, len, 1 << 20) != (ssize_t)len)
		die("pwrite");
	close(fd);
	free(buf);
	fact("block_sector", "%d", (1 << 20) / 512);
	fact("block_nr_sector", "%zu", len / 512);
}

/*
 * readlink() with its path on the stack, which is mapped: a probe reads
 * user memory without faulting, so a path in a page not yet touched (a
 * literal in .rodata, the dynamic loader's own) is recorded "(fault)".
 */
static void read_own_link(void)
{
	char exe[] = "/proc/self/exe", buf[64];

	if (readlink(exe, buf, sizeof(buf)) <= 0)
		die("readlink /proc/self/exe");
}

static void workload(const char *dir, const char *self, const char *blockdev)
{
	struct timespec ts = { 0, 2000000 };
	long ret;

	fact("pid", "%d", (int)getpid());
	pin_cpu(0);
	pin_cpu(1);		/* sched_migrate_task to CPU 1 */
	fact("migrated_to", "1");
	nanosleep(&ts, NULL);	/* sched_switch away, hrtimer, wakeup */
	run_child(self);
	open_known_file(dir);
	send_usr1();
	ret = syscall(UNKNOWN_NR, 1L, 2L, 3L, 4L, 5L, 6L);
	fact("unknown_nr", "%d", UNKNOWN_NR);
	fact("unknown_ret", "%ld", ret < 0 ? -(long)errno : ret);
	read_own_link();
	udp_over_lo();
	if (blockdev)
		write_disk(blockdev);
}

/* Every system call the tracer lists, entry and exit: the second session's events. */
static void list_syscalls(int tfd)
{
	struct ltt_kabi_list l = { .kind = LTT_KABI_LIST_SYSCALLS };
	static struct ltt_kabi_list_entry e[MAX_EVENTS / 2];
	static char names[MAX_EVENTS][LTT_KABI_NAME_MAX];
	uint32_t i;

	l.entries = (uintptr_t)e;
	l.capacity = MAX_EVENTS / 2;
	if (ioctl(tfd, LTT_KABI_LIST, &l))
		die("LTT_KABI_LIST syscalls");
	check(l.count > 300 && l.count <= l.capacity, "LIST syscalls: %u", l.count);
	nr_events = 0;
	/* a name's room after the longer prefix (gcc 14 counts the entry's array as its bound) */
	const int room = (int)(LTT_KABI_NAME_MAX - sizeof("syscall_entry_"));

	for (i = 0; i < l.count && i < l.capacity; i++) {
		snprintf(names[nr_events], LTT_KABI_NAME_MAX, "syscall_entry_%.*s", room, e[i].name);
		events[nr_events] = names[nr_events];
		nr_events++;
		snprintf(names[nr_events], LTT_KABI_NAME_MAX, "syscall_exit_%.*s", room, e[i].name);
		events[nr_events] = names[nr_events];
		nr_events++;
	}
	fact("syscalls_listed", "%u", l.count);
}

/* One session recording the current events while the workload runs. */
static void record(int tfd, const char *dir, const char *sub, const char *self,
		   const char *blockdev)
{
	char path[256];
	struct chan c;
	int sfd;

	memset(have, 0, sizeof(have));
	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	if (mkdir(path, 0755) && errno != EEXIST)
		die(path);
	sfd = ioctl(tfd, LTT_KABI_SESSION, 0);
	if (sfd < 0)
		die("LTT_KABI_SESSION");
	open_channel(sfd, &c);
	enable_all(tfd, &c);
	write_metadata(path);
	check(!ioctl(sfd, LTT_KABI_START, 0), "%s: START", sub);
	workload(dir, self, blockdev);
	check(!ioctl(sfd, LTT_KABI_STOP, 0), "%s: STOP", sub);
	drain(&c, path);
	check_stats(&c);
	for (int cpu = 0; cpu < c.nr; cpu++)
		close(c.streams[cpu]);
	close(c.fd);
	close(sfd);
}

int main(int argc, char **argv)
{
	char path[256], self[256];
	unsigned int i;
	ssize_t n;
	int tfd;

	if (argc == 2 && !strcmp(argv[1], "child"))
		return CHILD_EXIT;
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: ltt-ptest DIR [BLOCKDEV]\n");
		return 2;
	}
	if (strlen(argv[1]) > 200) {
		fprintf(stderr, "ltt-ptest: DIR too long\n");
		return 2;
	}
	n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		die("readlink /proc/self/exe");
	self[n] = '\0';
	tfd = open("/proc/" LTT_KABI_PROC_NAME, O_RDWR | O_CLOEXEC);
	if (tfd < 0)
		die("open /proc/ltt");

	snprintf(path, sizeof(path), "%s/facts", argv[1]);
	facts = fopen(path, "w");
	if (!facts)
		die(path);
	for (i = 0; i < NR_PROBE_EVENTS; i++)
		events[i] = probe_events[i];
	nr_events = NR_PROBE_EVENTS;
	record(tfd, argv[1], "trace", self, argc == 3 ? argv[2] : NULL);
	fclose(facts);

	/* again with every system call event: their facts apart */
	snprintf(path, sizeof(path), "%s/facts-syscalls", argv[1]);
	facts = fopen(path, "w");
	if (!facts)
		die(path);
	list_syscalls(tfd);
	record(tfd, argv[1], "trace-syscalls", self, NULL);
	fclose(facts);
	close(tfd);
	printf("ltt-ptest: %s\n", failed ? "FAIL" : "PASS");
	return failed ? 1 : 0;
}
