// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumerd_tracefs.c - ltt-consumerd's tracefs channels (domain 2,
 * ADD_FTRACE_STREAM) on the kernel's own ftrace buffers.  The test plays
 * the session daemon: it makes a private ftrace instance (mono clock,
 * set_event_pid to itself), an event map of getppid's entry and exit
 * (CTF ids 0 and 1, from their format files), real TSDL from the session
 * daemon's generator, then drives a real consumer.  Checked:
 *   - bad input: a map fd that is not a map (EINVAL, nothing added: the
 *     same CPU is then added), another map than the channel's (EINVAL),
 *     ADD_FTRACE_STREAM to a user-space channel and ADD_KERNEL_STREAM to a
 *     tracefs channel (EPROTO);
 *   - exactly 1000 getppid() calls from this thread, pinned to CPU 0:
 *     the channel's switch timer writes the packet of the last ones
 *     before any flush; babeltrace2 reads exactly 1000 entries and 1000
 *     exits with this thread's tid and cpu_id 0, nothing lost;
 *   - discard: a 4 KB non-overwrite buffer, the consumer stopped
 *     (SIGSTOP) while 5000 calls run; CHANNEL_STATS, then DESTROY_CHANNEL
 *     with no flush before it: recorded + counted lost == 10000 events;
 *   - a BPF ring beside CPU 0's pipe (ADD_BPF_RING), written by this test
 *     (a BPF_PROG_TYPE_SYSCALL program run with BPF_PROG_TEST_RUN puts
 *     the records given): a record stamped ahead of the pipe's next ones
 *     waits for them (a flush between them takes the ring only up to
 *     what the pipe has given: a stream's time never goes back), and
 *     2000 records older than a page's first (the consumer stopped while
 *     they came) wait for room in the packet queue, none lost.  Skipped
 *     where the program can't be loaded.
 *   - a stream closed unread (its removal's deadline passed: a second
 *     consumer stops itself at LTT_FAULT's remove-channel-wait, is
 *     continued past the deadline): 50000 ring records and 10 getppid()
 *     behind a page the packet queue stopped; the stream's statistics
 *     page says the rest lost, recorded + counted == committed;
 *   - a stream taken over from a dead consumer: the discards its source
 *     counted itself, left in the statistics page's slot
 *     (source_own_discarded), are where the new source's count starts:
 *     in its packets' events_discarded, and published again.
 * Skipped, with the reason, without root, tracefs or babeltrace2.  The
 * instances are removed at exit and on a fatal signal.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "common/ftrace/ftrace-map.h"
#include "common/proto/consumer-proto.h"
#include "consumerd-harness.h"
#include "sessiond/ctrace/tsdl.h"
#include "../../unit/tap.h"
#include "../../unit/tracefs-util.h"

#define NR_CALLS 1000
#define NR_DISCARD 5000
#define MAX_CPUS 256
#define NR_INST 6
#define NR_RING 2000
#define NR_ABANDON 50000
#define NR_CARRIED 7
/* What a dead consumer's ledger says it held and had discarded itself. */
#define NR_HELD 5
#define PID_AHEAD 999001
#define PID_FLOOD 999002
#define SWITCH_US 50000

static const char *tfs_root;
static char inst[NR_INST][512];	/* "" once removed */
static struct ltt_ftrace_event layouts[2];
static struct ltt_ftrace_page_layout page;
static const char *const ev_paths[2] = { "syscalls/sys_enter_getppid",
					 "syscalls/sys_exit_getppid" };
static const char *const ev_names[2] = { "syscall_entry_getppid", "syscall_exit_getppid" };

static void remove_instances(void)
{
	int i;

	for (i = 0; i < NR_INST; i++) {
		if (inst[i][0] && rmdir(inst[i]))
			fprintf(stderr, "test_consumerd_tracefs: rmdir %s: %s\n", inst[i],
				strerror(errno));
		inst[i][0] = '\0';
	}
}

/* A fatal signal: remove the instances (rmdir is async-signal-safe), die of it. */
static void on_signal(int sig)
{
	int i;

	for (i = 0; i < NR_INST; i++)
		if (inst[i][0])
			rmdir(inst[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int inst_write(int i, const char *rel, const char *text)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/%s", inst[i], rel);
	return tu_write_text(path, text);
}

/* Instance @i: mono clock, @kb per CPU, overwrite or not, this process only. */
static bool make_instance(int i, const char *kb, const char *overwrite)
{
	char pid[32];

	snprintf(inst[i], sizeof(inst[i]), "%s/instances/ltt-test-%ld-%d", tfs_root,
		 (long)getpid(), i);
	if (mkdir(inst[i], 0755)) {
		tap_diag("mkdir %s: %s", inst[i], strerror(errno));
		inst[i][0] = '\0';
		return false;
	}
	snprintf(pid, sizeof(pid), "%ld", (long)getpid());
	return !inst_write(i, "trace_clock", "mono") && !inst_write(i, "buffer_size_kb", kb) &&
	       !inst_write(i, "options/overwrite", overwrite) &&
	       !inst_write(i, "buffer_percent", "0") && !inst_write(i, "set_event_pid", pid);
}

/* The page header and both events' layouts, from instance 0's files. */
static bool load_layouts(void)
{
	static char text[LTT_FTRACE_MAX_TEXT];
	char path[800];
	unsigned int i;
	long len;

	snprintf(path, sizeof(path), "%s/events/header_page", tfs_root);
	len = tu_read_text(path, text, sizeof(text));
	if (len < 0 || ltt_ftrace_header_page_parse(text, (size_t)len, &page))
		return false;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", inst[0], ev_paths[i]);
		len = tu_read_text(path, text, sizeof(text));
		if (len < 0 || ltt_ftrace_format_parse("syscalls", text, (size_t)len, &layouts[i],
							NULL))
			return false;
	}
	return true;
}

/* A map with both events published (ids 0 and 1): its fd, or -1. */
static int make_map(void)
{
	struct ltt_ftrace_map_shm *map;
	int fd, ret;

	if (ltt_ftrace_map_create(&page, &fd, &map))
		return -1;
	ret = ltt_ftrace_map_publish(map, 0, &layouts[0]);
	if (!ret)
		ret = ltt_ftrace_map_publish(map, 1, &layouts[1]);
	ltt_ftrace_map_unmap(map);
	if (ret) {
		close(fd);
		return -1;
	}
	return fd;
}

static bool set_events(int i, const char *on)
{
	char rel[200];
	unsigned int k;

	for (k = 0; k < 2; k++) {
		snprintf(rel, sizeof(rel), "events/%s/enable", ev_paths[k]);
		if (inst_write(i, rel, on))
			return false;
	}
	return true;
}

/* ---- a BPF ring this test writes ---- */

static int sys_bpf(int cmd, union bpf_attr *a)
{
	return (int)syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* A map: BPF_MAP_TYPE_RINGBUF of @size bytes, or a mappable u64 ARRAY of @size. */
static int make_bpf_map(uint32_t type, uint32_t size)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_type = type;
	a.key_size = type == BPF_MAP_TYPE_ARRAY ? 4 : 0;
	a.value_size = type == BPF_MAP_TYPE_ARRAY ? 8 : 0;
	a.max_entries = size;
	a.map_flags = type == BPF_MAP_TYPE_ARRAY ? BPF_F_MMAPABLE : 0;
	return sys_bpf(BPF_MAP_CREATE, &a);
}

#define RING_REC 24	/* the stamp, then sys_enter_getppid's record (12 bytes, padded) */

/*
 * A program that puts its context (RING_REC bytes) into ring @ring, with
 * bpf_ringbuf_output()'s @flags (BPF_RB_NO_WAKEUP: no reader woken): its
 * fd, or -1.
 */
static int load_ring_writer(int ring, int flags)
{
	struct bpf_insn insn[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 6, .src_reg = 1 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 0, .src_reg = 6, .off = 0 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 10, .src_reg = 0, .off = -24 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 0, .src_reg = 6, .off = 8 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 10, .src_reg = 0, .off = -16 },
		{ .code = BPF_LDX | BPF_MEM | BPF_DW, .dst_reg = 0, .src_reg = 6, .off = 16 },
		{ .code = BPF_STX | BPF_MEM | BPF_DW, .dst_reg = 10, .src_reg = 0, .off = -8 },
		{ .code = BPF_LD | BPF_DW | BPF_IMM, .dst_reg = 1, .src_reg = BPF_PSEUDO_MAP_FD,
		  .imm = ring },
		{ 0 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_X, .dst_reg = 2, .src_reg = 10 },
		{ .code = BPF_ALU64 | BPF_ADD | BPF_K, .dst_reg = 2, .imm = -24 },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 3, .imm = RING_REC },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 4, .imm = flags },
		{ .code = BPF_JMP | BPF_CALL, .imm = BPF_FUNC_ringbuf_output },
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = 0, .imm = 0 },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	static char log[4096];
	union bpf_attr a;
	int fd;

	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SYSCALL;
	a.prog_flags = BPF_F_SLEEPABLE;
	a.insns = (uint64_t)(uintptr_t)insn;
	a.insn_cnt = sizeof(insn) / sizeof(insn[0]);
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	fd = sys_bpf(BPF_PROG_LOAD, &a);
	if (fd < 0)
		tap_diag("the ring's writer can't be loaded: %s; %.300s", strerror(errno), log);
	return fd;
}

/* A sys_enter_getppid record of @pid stamped @ts into the ring (program @prog). */
static bool ring_put(int prog, uint64_t ts, int32_t pid)
{
	uint8_t rec[RING_REC] = { 0 };
	uint16_t type = (uint16_t)layouts[0].id;
	int32_t nr = SYS_getppid;
	union bpf_attr a;

	memcpy(rec, &ts, 8);
	memcpy(rec + 8, &type, 2);
	memcpy(rec + 8 + 4, &pid, 4);
	memcpy(rec + 8 + 8, &nr, 4);
	memset(&a, 0, sizeof(a));
	a.test.prog_fd = (uint32_t)prog;
	a.test.ctx_in = (uint64_t)(uintptr_t)rec;
	a.test.ctx_size_in = sizeof(rec);
	return !sys_bpf(BPF_PROG_TEST_RUN, &a) && !a.test.retval;
}

/* ---- metadata ---- */

static void tsdl_trace(struct ltt_tsdl_trace *t, struct utsname *u)
{
	struct timespec rt, mono;

	uname(u);
	*t = (struct ltt_tsdl_trace){
		.hostname = "test-host", .trace_name = "tracefs", .buffering = "global",
		.creation_datetime = "2026-11-23T00:00:00+00:00", .bits_per_long = 64,
		.vpid = -1, .sysname = u->sysname, .kernel_release = u->release,
		.kernel_version = u->version,
	};
	memcpy(t->uuid, ch_trace_uuid, 16);
	memset(t->clock_uuid, 0x42, 16);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	t->clock_offset_ns = (rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
}

/* The trace's TSDL: stream 0 with tid and cpu_id, both events. */
static bool send_metadata(struct ch_cons *c, uint64_t trace_key, const struct ltt_ctx *ctx)
{
	struct ltt_kabi_event_desc d;
	struct ltt_tsdl_trace t;
	struct ltt_wbuf w;
	struct utsname u;
	unsigned int i;
	bool ok;

	tsdl_trace(&t, &u);
	ltt_wbuf_init(&w);
	ok = !ltt_tsdl_trace_header(&w, &t) && !ltt_tsdl_stream(&w, 0, ctx, 2);
	for (i = 0; i < 2 && ok; i++)
		ok = !ltt_ftrace_event_to_kabi(&layouts[i], ev_names[i], &d) &&
		     !ltt_tsdl_kernel_event(&w, &d, i, 0);
	ok = ok && ch_metadata(c, trace_key, w.data, w.len) == 0;
	ltt_wbuf_fini(&w);
	return ok;
}

/* ---- commands ---- */

static int add_tracefs_channel(struct ch_cons *c, uint64_t key, uint64_t trace_key,
			       const struct ltt_ctx *ctx, uint64_t num_subbuf, uint32_t switch_us)
{
	struct ltt_consumer_add_channel m = {
		.key = key, .trace_key = trace_key, .name = "kchan", .switch_timer_us = switch_us,
		.domain = LTT_CONSUMER_DOMAIN_TRACEFS, .subbuf_size = 4096,
		.num_subbuf = num_subbuf, .stream_id = 0, .nr_ctx = 2,
	};
	struct ltt_wbuf w;

	memcpy(m.ctx, ctx, 2 * sizeof(*ctx));
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	return ch_call(c, LTT_CONSUMER_MSG_ADD_CHANNEL, &w);
}

static int add_ftrace_stream(struct ch_cons *c, uint16_t type, uint64_t key, uint32_t cpu,
			     const int *fds, unsigned int nr_fds)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, cpu);
	return ch_call_fds(c, type, &w, fds, nr_fds, NULL);
}

static int open_pipe(int i, unsigned int cpu)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", inst[i], cpu);
	return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/* Every CPU of instance @i added to channel @key: the number, or -1. */
static int add_all_cpus(struct ch_cons *c, int i, uint64_t key, int map_fd)
{
	unsigned int cpu, nr = 0;
	char path[800];
	int fds[2] = { -1, map_fd }, ret;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", inst[i], cpu);
		if (access(path, F_OK))
			continue;
		fds[0] = open_pipe(i, cpu);
		ret = fds[0] < 0 ? -1 : add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM,
							  key, cpu, fds, 2);
		if (fds[0] >= 0)
			close(fds[0]);
		if (ret) {
			tap_diag("ADD_FTRACE_STREAM cpu %u: %d", cpu, ret);
			return -1;
		}
		nr++;
	}
	return (int)nr;
}

/* ---- babeltrace2 ---- */

struct tally {
	unsigned int entries, exits, on_cpu0, lines;
};

/* Count this thread's events in babeltrace2's text. */
static void tally(const char *out, long tid, struct tally *t)
{
	char want[64];
	const char *p, *nl;

	memset(t, 0, sizeof(*t));
	snprintf(want, sizeof(want), "{ tid = %ld, cpu_id = ", tid);
	for (p = out; *p; p = nl + 1) {
		const char *ctx;

		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		t->lines++;
		ctx = strstr(p, want);
		if (!ctx || ctx > nl)
			continue;
		if (strstr(p, "syscall_entry_getppid:") && strstr(p, "syscall_entry_getppid:") < nl)
			t->entries++;
		else if (strstr(p, "syscall_exit_getppid:") && strstr(p, "syscall_exit_getppid:") < nl)
			t->exits++;
		else
			continue;
		t->on_cpu0 += !strncmp(ctx + strlen(want), "0 }", 3);
	}
}

static char bt_out[1 << 23];

/* babeltrace2 on @dir: this thread's events into @t; false (skip or fail) else. */
static bool read_trace(const char *dir, long tid, struct tally *t, bool *skipped)
{
	int status = tu_babeltrace(dir, NULL, bt_out, sizeof(bt_out));

	*skipped = status == 127;
	if (*skipped) {
		tap_diag("babeltrace2 is not installed: the trace is not read");
		return false;
	}
	if (!tap_is_int(status, 0, "babeltrace2 reads %s", dir)) {
		tap_diag("%.2000s", bt_out);
		return false;
	}
	tally(bt_out, tid, t);
	return true;
}

/* ---- the cases ---- */

/* Bad input on channel 10 (tracefs) and 11 (user space); cpu 0 stays free. */
static void test_bad_input(struct ch_cons *c, int good_map)
{
	int plain = memfd_create("not-a-map", MFD_CLOEXEC), other = make_map();
	int pipe0 = open_pipe(0, 0), fds[2] = { pipe0, plain };
	struct ch_chan_args ua = { .key = 11, .trace_key = 1, .name = "uchan" };

	tap_ok(plain >= 0 && other >= 0 && pipe0 >= 0, "a memfd, a second map, cpu0's pipe");
	if (ftruncate(plain, LTT_FTRACE_MAP_SIZE))
		tap_diag("ftruncate: %s", strerror(errno));
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 2),
		   -EINVAL, "ADD_FTRACE_STREAM with a memfd that is not a map: EINVAL");
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 1),
		   -EPROTO, "ADD_FTRACE_STREAM with one fd: EPROTO");
	tap_is_int(ch_add_channel(c, &ua), 0, "a user-space channel beside it");
	fds[1] = good_map;
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 11, 0, fds, 2),
		   -EPROTO, "ADD_FTRACE_STREAM to a user-space channel: EPROTO");
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_KERNEL_STREAM, 10, 0, fds, 1),
		   -EPROTO, "ADD_KERNEL_STREAM to a tracefs channel: EPROTO");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 11), 0,
		   "the user-space channel destroyed");
	/* cpu 0 was not added by the refusals: the real one takes it below */
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 0, fds, 2), 0,
		   "cpu 0 with the channel's map: added (nothing was left by the refusals)");
	fds[1] = other;
	tap_is_int(add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, 1, fds, 2),
		   -EINVAL, "another map than the channel's: EINVAL");
	close(plain);
	close(other);
	close(pipe0);
}

static uint64_t now_mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/*
 * Pin this thread to CPU 0 and call getppid() @n times, events on in @i;
 * *@ret_last: CLOCK_MONOTONIC before the last call.
 */
static bool load(int i, unsigned int n, uint64_t *ret_last)
{
	cpu_set_t set;
	unsigned int k;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || !set_events(i, "1"))
		return false;
	for (k = 0; k + 1 < n; k++)
		syscall(SYS_getppid);
	*ret_last = now_mono();
	syscall(SYS_getppid);
	return set_events(i, "0");
}

/*
 * The packets of the stream file @path: the latest timestamp_end
 * (*@ret_end) and the last one's events_discarded (*@ret_discarded);
 * either may be NULL, 0 if none.
 */
static void last_packet(const char *path, uint64_t *ret_end, uint64_t *ret_discarded)
{
	struct ltt_rb_packet_header h;
	uint8_t *buf = NULL;
	ssize_t len = ch_slurp(path, &buf);
	uint64_t end = 0, discarded = 0, off = 0;

	while (len > 0 && off + sizeof(h) <= (uint64_t)len) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.magic != LTT_RB_PACKET_MAGIC || h.packet_size < 8 * sizeof(h))
			break;
		end = h.timestamp_end > end ? h.timestamp_end : end;
		discarded = h.events_discarded;
		off += h.packet_size / 8;
	}
	free(buf);
	if (ret_end)
		*ret_end = end;
	if (ret_discarded)
		*ret_discarded = discarded;
}

/*
 * The switch timer closes the partial packet with the load's last events:
 * written within @ms without a flush (the file polled, bounded).
 */
struct end_wait {
	const char *path;
	uint64_t last;
};

static bool end_reached(void *arg)
{
	const struct end_wait *w = arg;
	uint64_t end;

	last_packet(w->path, &end, NULL);
	return end >= w->last;
}

static bool timer_wrote(const char *path, uint64_t last, int ms)
{
	struct end_wait w = { path, last };

	return ch_wait_until(end_reached, &w, ms);
}

/* The rest of instance 0's CPUs (cpu 0 is in), the load, the trace read. */
static void test_record(struct ch_cons *c, const char *dir, int map_fd)
{
	struct ch_stats st = { 0 };
	struct tally t;
	bool skipped;
	long tid = syscall(SYS_gettid);
	unsigned int cpu, nr = 1;
	int fds[2] = { -1, map_fd };
	char path[PATH_MAX];
	uint64_t last;

	for (cpu = 1; cpu < MAX_CPUS && (fds[0] = open_pipe(0, cpu)) >= 0; cpu++, nr++) {
		if (add_ftrace_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM, 10, cpu, fds, 2))
			tap_diag("cpu %u not added", cpu);
		close(fds[0]);
	}
	tap_diag("%u CPUs", nr);
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_STREAMS_SENT, 10), 0, "STREAMS_SENT");
	tap_ok(load(0, NR_CALLS, &last), "events on, %d getppid() on CPU 0, events off",
	       NR_CALLS);
	tap_ok(timer_wrote(ch_path_of(path, dir, "kchan_0"), last, WAIT_MS),
	       "the switch timer wrote the last events' packet before any flush");
	tap_is_int(ch_flush(c, 10, 1), 0, "FLUSH_CHANNEL final");
	tap_is_int(ch_stats(c, 10, &st), 0, "CHANNEL_STATS");
	tap_is_u64(st.events_lost, 0, "no event lost");
	tap_ok(st.bytes_written > 0, "%" PRIu64 " bytes written", st.bytes_written);
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 10), 0, "DESTROY_CHANNEL");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 1), 0, "DESTROY_TRACE");
	if (!read_trace(dir, tid, &t, &skipped))
		return;
	tap_diag("babeltrace2: %u lines; this thread: %u entries, %u exits", t.lines, t.entries,
		 t.exits);
	tap_is_int(t.entries, NR_CALLS, "exactly %d syscall_entry_getppid of this thread", NR_CALLS);
	tap_is_int(t.exits, NR_CALLS, "exactly %d syscall_exit_getppid of this thread", NR_CALLS);
	tap_is_int(t.on_cpu0, 2 * NR_CALLS, "each with cpu_id 0 (the pinned CPU)");
}

/* The kernel's counters of CPU @cpu of instance @i, for the log. */
static void diag_stats(int i, unsigned int cpu)
{
	char path[800], text[1024];
	char *nl;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", inst[i], cpu);
	if (tu_read_text(path, text, sizeof(text)) < 0)
		return;
	while ((nl = strchr(text, '\n')))
		*nl = ' ';
	tap_diag("cpu%u stats: %s", cpu, text);
}

/* SIGSTOP the consumer (our child) and wait until it is stopped. */
static bool stop_consumer(struct ch_cons *c)
{
	int status;

	if (kill(c->pid, SIGSTOP))
		return false;
	while (waitpid(c->pid, &status, WUNTRACED) < 0)
		if (errno != EINTR)
			return false;
	return WIFSTOPPED(status);
}

/* Instance 1: a 4 KB non-overwrite buffer, the consumer stopped during the load. */
static void test_discard(struct ch_cons *c, const char *dir, const struct ltt_ctx *ctx)
{
	struct ch_stats st = { 0 };
	struct tally t;
	bool skipped;
	long tid = syscall(SYS_gettid);
	int map_fd = make_map();
	uint64_t last;

	tap_ok(make_instance(1, "4", "0") && map_fd >= 0, "a 4 KB non-overwrite instance, a map");
	tap_is_int(ch_add_trace(c, 2, dir, getuid(), getgid()), 0, "ADD_TRACE 2");
	tap_ok(send_metadata(c, 2, ctx), "its metadata");
	tap_is_int(add_tracefs_channel(c, 20, 2, ctx, 2, 0), 0, "ADD_CHANNEL tracefs, 2 x 4 KB");
	tap_ok(add_all_cpus(c, 1, 20, map_fd) > 0, "every CPU added");
	close(map_fd);
	tap_ok(stop_consumer(c), "consumer stopped (its stop waited for)");
	tap_ok(load(1, NR_DISCARD, &last), "%d getppid() on CPU 0", NR_DISCARD);
	tap_is_int(kill(c->pid, SIGCONT), 0, "consumer continued");
	diag_stats(1, 0);
	/* no flush: the stats count the drops already, the destroy writes the rest */
	tap_is_int(ch_stats(c, 20, &st), 0, "CHANNEL_STATS");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 20), 0,
		   "DESTROY_CHANNEL without FLUSH_CHANNEL");
	tap_is_int(ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 2), 0, "DESTROY_TRACE");
	if (!read_trace(dir, tid, &t, &skipped))
		return;
	tap_diag("recorded %u entries, %u exits; lost %" PRIu64, t.entries, t.exits,
		 st.events_lost);
	tap_ok(st.events_lost > 0, "events were lost (the buffer was full)");
	tap_is_u64(t.entries + t.exits + st.events_lost, 2 * NR_DISCARD,
		   "recorded + counted lost == %d events", 2 * NR_DISCARD);
}

/* In babeltrace2's text: the getppid entries of @tid before the first event of @pid. */
static int entries_before(const char *out, long tid, long pid)
{
	char want[64], first[64];
	const char *at;
	int n = 0;

	snprintf(want, sizeof(want), "{ tid = %ld, cpu_id = ", tid);
	snprintf(first, sizeof(first), "{ tid = %ld, cpu_id = ", pid);
	at = strstr(out, first);
	if (!at)
		return -1;
	for (out = strstr(out, want); out && out < at; out = strstr(out + 1, want))
		n++;
	return n / 2;	/* entry and exit */
}

/* The lines of babeltrace2's text with the event of @pid. */
static unsigned int count_pid(const char *out, long pid)
{
	char want[64];
	unsigned int n = 0;

	snprintf(want, sizeof(want), "{ tid = %ld, cpu_id = 0 }", pid);
	for (out = strstr(out, want); out; out = strstr(out + 1, want))
		n++;
	return n;
}

/*
 * CPU 0 of instance @i into tracefs channel @key: its BPF ring (@ring,
 * @lost), then its stream (@map_fd; with @stats, a statistics page, by
 * ADD_FTRACE_STREAM_STATS), then STREAMS_SENT.  True when all took.
 */
static bool add_ring_stream(struct ch_cons *c, uint64_t key, int i, int ring, int lost,
			    int map_fd, int stats)
{
	int fds[3] = { ring, lost, stats };
	struct ltt_wbuf w;
	bool ok;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, 0);
	ok = !ch_call_fds(c, LTT_CONSUMER_MSG_ADD_BPF_RING, &w, fds, 2, NULL);
	fds[0] = open_pipe(i, 0);
	fds[1] = map_fd;
	ok = ok && fds[0] >= 0 &&
	     !add_ftrace_stream(c, stats >= 0 ? LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS :
						LTT_CONSUMER_MSG_ADD_FTRACE_STREAM,
				key, 0, fds, stats >= 0 ? 3 : 2) &&
	     !ch_key_cmd(c, LTT_CONSUMER_MSG_STREAMS_SENT, key);
	if (fds[0] >= 0)
		close(fds[0]);
	return ok;
}

/* Close those of @fds that are open. */
static void close_fds(const int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Instance 2, CPU 0 with a BPF ring this test writes: time order, and no loss. */
static void test_bpf(struct ch_cons *c, const char *dir, const struct ltt_ctx *ctx)
{
	int ring = make_bpf_map(BPF_MAP_TYPE_RINGBUF, 1 << 18);
	int lost = make_bpf_map(BPF_MAP_TYPE_ARRAY, MAX_CPUS);
	int prog = ring >= 0 ? load_ring_writer(ring, 0) : -1, map_fd = make_map();
	struct ch_stats st = { 0 };
	struct timespec until;
	long tid = syscall(SYS_gettid);
	uint64_t last, ahead;
	bool skipped, ok = true;
	unsigned int i;

	if (ring < 0 || lost < 0 || prog < 0) {
		tap_skip("BPF ring: a ring, its lost counts and a program that writes it can't be made here (%s)",
			 strerror(errno));
		goto out;
	}
	tap_ok(make_instance(2, "64", "0") && map_fd >= 0, "bpf: an instance, a map, a BPF ring");
	tap_ok(!ch_add_trace(c, 3, dir, getuid(), getgid()) && send_metadata(c, 3, ctx) &&
	       !add_tracefs_channel(c, 30, 3, ctx, 16, 0), "bpf: its trace, a channel of 16 x 4 KB");
	ok = add_ring_stream(c, 30, 2, ring, lost, map_fd, -1);
	tap_ok(ok, "bpf: CPU 0's ring, then its stream");

	/* a record stamped 300 ms ahead; a flush; the pipe's records of now */
	ahead = now_mono() + 300000000;
	tap_ok(ring_put(prog, ahead, PID_AHEAD) && !ch_flush(c, 30, 0) && load(2, 10, &last),
	       "bpf: a ring record stamped 300 ms ahead, a flush, then 10 getppid()");
	until.tv_sec = (time_t)((ahead + 1000000) / 1000000000);
	until.tv_nsec = (long)((ahead + 1000000) % 1000000000);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;	/* its time passed: the pipe can't give older records */

	/* the consumer stopped: 2000 ring records, then the pipe's */
	tap_ok(stop_consumer(c), "bpf: consumer stopped");
	for (i = 0; i < NR_RING && ok; i++)
		ok = ring_put(prog, now_mono(), PID_FLOOD);
	tap_ok(ok && load(2, 10, &last), "bpf: %d ring records, then 10 getppid()", NR_RING);
	tap_is_int(kill(c->pid, SIGCONT), 0, "bpf: consumer continued");
	tap_ok(!ch_flush(c, 30, 1) && !ch_stats(c, 30, &st), "bpf: flushed, its stats");
	tap_is_u64(st.events_lost, 0, "bpf: nothing lost (the ring's records waited for room)");
	tap_ok(!ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 30) &&
	       !ch_key_cmd(c, LTT_CONSUMER_MSG_DESTROY_TRACE, 3), "bpf: destroyed");
	if (!read_trace(dir, tid, &(struct tally){ 0 }, &skipped))
		goto out;
	tap_is_int(entries_before(bt_out, tid, PID_AHEAD), 10,
		   "bpf: the record stamped ahead after the 10 entries older than it");
	tap_is_int((int)count_pid(bt_out, PID_FLOOD), NR_RING, "bpf: the %d ring records, each once",
		   NR_RING);
out:
	close_fds((const int[]){ prog, ring, lost, map_fd }, 4);
}

/* The consumer stopped by its fault, continued once its removal's deadline passed. */
struct resumer {
	pid_t pid;
	bool stopped;
	const int *done;	/* atomic: the DESTROY_CHANNEL was answered */
	pthread_t thread;
};

static void *resume_main(void *arg)
{
	struct resumer *r = arg;
	struct timespec until;
	int status, i;
	pid_t got = 0;

	/* the stop, or the answer without it (then the test fails), 20 s at most */
	for (i = 0; i < 20000 && !got && !__atomic_load_n(r->done, __ATOMIC_ACQUIRE); i++) {
		got = waitpid(r->pid, &status, WUNTRACED | WNOHANG);
		if (!got)
			usleep(1000);
	}
	r->stopped = got == r->pid && WIFSTOPPED(status);
	if (!r->stopped)
		return NULL;
	/* past the removal's 2 s (END_WAIT_MS): time itself is what is waited for */
	clock_gettime(CLOCK_MONOTONIC, &until);
	until.tv_sec += 3;
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	kill(r->pid, SIGCONT);
	return NULL;
}

/* The DESTROY_CHANNEL of test_abandon(), sent while the consumer is stopped. */
struct destroyer {
	struct ch_cons *c;
	int ret;
	int done;		/* atomic */
	pthread_t thread;
};

static void *destroy_main(void *arg)
{
	struct destroyer *d = arg;

	d->ret = ch_key_cmd(d->c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 40);
	__atomic_store_n(&d->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/* Bytes sent on @fd its peer has not read yet (SIOCOUTQ), waited for up to 10 s. */
static bool wait_queued(int fd)
{
	int n = 0, i;

	for (i = 0; i < 10000; i++) {
		if (ioctl(fd, SIOCOUTQ, &n) == 0 && n > 0)
			return true;
		usleep(1000);
	}
	return false;
}

/*
 * Instance 3, a second consumer (LTT_FAULT="stop remove-channel-wait"):
 * CPU 0's stream closed while its packet queue holds a backlog and a
 * page stopped, as a removal whose deadline passed closes it.  What the
 * source held is counted lost in the stream's statistics page.
 */
static void test_abandon(const char *dir, const struct ltt_ctx *ctx)
{
	int ring = make_bpf_map(BPF_MAP_TYPE_RINGBUF, 1 << 22);
	int lost = make_bpf_map(BPF_MAP_TYPE_ARRAY, MAX_CPUS);
	int prog = ring >= 0 ? load_ring_writer(ring, BPF_RB_NO_WAKEUP) : -1, map_fd = make_map();
	int stats = memfd_create("stats", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	struct resumer r = { 0 };
	struct destroyer d = { .ret = -1 };
	const struct ltt_consumer_stream_stats *st = MAP_FAILED;
	struct ch_cons c;
	struct tally t = { 0 };
	long tid = syscall(SYS_gettid);
	uint64_t last, counted, recorded;
	unsigned int i, flood;
	bool skipped, ok;

	if (ring < 0 || lost < 0 || prog < 0) {
		tap_skip("abandon: a BPF ring and its writer can't be made here (%s)", strerror(errno));
		goto out;
	}
	ok = stats >= 0 && !ftruncate(stats, (off_t)LTT_CONSUMER_STATS_SIZE(1)) &&
	     !fcntl(stats, F_ADD_SEALS, F_SEAL_SHRINK);
	st = ok ? mmap(NULL, LTT_CONSUMER_STATS_SIZE(1), PROT_READ, MAP_SHARED, stats, 0) :
		  MAP_FAILED;
	setenv("LTT_FAULT", "stop remove-channel-wait", 1);
	ok = ok && st != MAP_FAILED && !ch_start(&c);
	unsetenv("LTT_FAULT");
	/* no wakeup from the pipe (buffer_percent 100) or the ring: read at the removal only */
	if (!tap_ok(ok && make_instance(3, "64", "0") && !inst_write(3, "buffer_percent", "100") &&
		    map_fd >= 0,
		    "abandon: a consumer that stops at remove-channel-wait, an instance, a ring"))
		goto out;
	ok = !ch_add_trace(&c, 4, dir, getuid(), getgid()) && send_metadata(&c, 4, ctx) &&
	     !add_tracefs_channel(&c, 40, 4, ctx, 2, 0) &&
	     add_ring_stream(&c, 40, 3, ring, lost, map_fd, stats);
	tap_ok(ok, "abandon: a channel of 2 x 4 KB, CPU 0's ring and stream with a statistics page");

	/* stopped: the ring's records, older than the page's, then the pipe's */
	ok = stop_consumer(&c);
	for (i = 0; i < NR_ABANDON && ok; i++)
		ok = ring_put(prog, now_mono(), PID_FLOOD);
	tap_ok(ok && load(3, 10, &last), "abandon: consumer stopped, %d ring records, 10 getppid()",
	       NR_ABANDON);
	/* the removal waits for the backlog, stops there, and is continued past its deadline */
	r.pid = c.pid;
	r.done = &d.done;
	d.c = &c;
	ok = !pthread_create(&d.thread, NULL, destroy_main, &d);
	ok = ok && wait_queued(c.fd) && !pthread_create(&r.thread, NULL, resume_main, &r);
	kill(c.pid, SIGCONT);
	if (ok) {
		pthread_join(r.thread, NULL);
		pthread_join(d.thread, NULL);
	}
	tap_ok(ok && r.stopped && d.ret == 0,
	       "abandon: DESTROY_CHANNEL stopped at remove-channel-wait, answered past its deadline");
	tap_ok(!ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 4) && !kill(c.pid, SIGTERM) &&
	       ch_wait(&c, WAIT_MS) == 0, "abandon: trace destroyed, the consumer exits 0");
	if (!read_trace(dir, tid, &t, &skipped))
		goto out;
	flood = count_pid(bt_out, PID_FLOOD);
	recorded = (uint64_t)t.entries + t.exits + flood;
	counted = st->events_lost + st->source_events_lost;
	tap_diag("abandon: recorded %u entries, %u exits, %u ring records; counted lost %" PRIu64
		 " (%" PRIu64 " of them the source's)", t.entries, t.exits, flood, counted,
		 st->source_events_lost);
	tap_ok(recorded < 2 * 10 + NR_ABANDON, "abandon: the stream closed before its backlog was read");
	tap_is_u64(recorded + counted, 2 * 10 + NR_ABANDON,
		   "abandon: recorded + counted lost == %d committed", 2 * 10 + NR_ABANDON);
out:
	if (st != MAP_FAILED)
		munmap((void *)st, LTT_CONSUMER_STATS_SIZE(1));
	close_fds((const int[]){ stats, prog, ring, lost, map_fd }, 5);
}

/* ftrace's count of the records read from instance @i's CPU 0 ("read events"). */
static bool read_events(int i, uint64_t *ret)
{
	char path[800], text[1024];
	const char *p;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/stats", inst[i]);
	if (tu_read_text(path, text, sizeof(text)) < 0)
		return false;
	p = strstr(text, "read events: ");
	return p && sscanf(p + 13, "%" SCNu64, ret) == 1;
}

/*
 * A stream taken over: its statistics page's slot holds what a dead
 * consumer's source discarded itself (NR_CARRIED); the new one counts on
 * from there.  With @ledger, the slot holds that consumer's ledger too,
 * which says NR_HELD (its own discards and the events it held, on an
 * instance nobody read: ftrace's "read events" 0): the new one counts on
 * from that, not from the published own count.
 */
static void test_carry(const char *dir, const struct ltt_ctx *ctx, int i, bool ledger)
{
	const char *what = ledger ? "ledger" : "carry";
	uint64_t want = ledger ? NR_HELD : NR_CARRIED, nread = 0, discarded;
	int stats = memfd_create("stats", MFD_CLOEXEC | MFD_ALLOW_SEALING), map_fd = make_map();
	struct ltt_consumer_stream_stats *st = MAP_FAILED;
	int fds[3] = { -1, map_fd, stats };
	char path[PATH_MAX];
	struct tally t = { 0 };
	long tid = syscall(SYS_gettid);
	struct ch_cons c;
	uint64_t last;
	bool ok, skipped;

	ok = stats >= 0 && !ftruncate(stats, (off_t)LTT_CONSUMER_STATS_SIZE(1)) &&
	     !fcntl(stats, F_ADD_SEALS, F_SEAL_SHRINK);
	st = ok ? mmap(NULL, LTT_CONSUMER_STATS_SIZE(1), PROT_READ | PROT_WRITE, MAP_SHARED,
		       stats, 0) : MAP_FAILED;
	if (st != MAP_FAILED) {
		st->source_own_discarded = NR_CARRIED;	/* as the dead consumer left it */
		st->ledger.value = ledger ? NR_HELD : 0;
		st->ledger.pending_seq = UINT64_MAX;
		st->ledger.kept = ledger;
	}
	if (!tap_ok(st != MAP_FAILED && map_fd >= 0 && make_instance(i, "64", "0") &&
		    !ch_start(&c), "%s: a statistics page a dead consumer left, an instance", what))
		goto out;
	fds[0] = open_pipe(i, 0);
	ok = !ch_add_trace(&c, 5, dir, getuid(), getgid()) && send_metadata(&c, 5, ctx) &&
	     !add_tracefs_channel(&c, 50, 5, ctx, 2, 0) && fds[0] >= 0 &&
	     !add_ftrace_stream(&c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS, 50, 0, fds, 3) &&
	     !ch_key_cmd(&c, LTT_CONSUMER_MSG_STREAMS_SENT, 50);
	tap_ok(ok, "%s: CPU 0's stream added with that page", what);
	tap_ok(load(i, 10, &last), "%s: 10 getppid() on CPU 0", what);
	tap_ok(!ch_flush(&c, 50, 1) && !ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, 50) &&
	       !ch_key_cmd(&c, LTT_CONSUMER_MSG_DESTROY_TRACE, 5) && !kill(c.pid, SIGTERM) &&
	       ch_wait(&c, WAIT_MS) == 0, "%s: flushed, destroyed, the consumer exits 0", what);
	last_packet(ch_path_of(path, dir, "kchan_0"), NULL, &discarded);
	tap_is_u64(discarded, want,
		   "%s: the packets' events_discarded start from the dead consumer's %" PRIu64,
		   what, want);
	tap_is_u64(st->source_own_discarded, want,
		   "%s: the slot's source_own_discarded published again, %" PRIu64, what, want);
	ok = read_events(i, &nread);
	tap_ok(ok && st->ledger.kept == 1 && st->ledger.value + nread == want,
	       "%s: the new consumer's ledger kept: with ftrace's %" PRIu64
	       " records read, what it carried (%" PRIu64 ")", what, nread,
	       st->ledger.value + nread);
	if (read_trace(dir, tid, &t, &skipped))
		tap_ok(t.entries == 10 && t.exits == 10, "%s: the 10 calls recorded (%u, %u)",
		       what, t.entries, t.exits);
out:
	if (fds[0] >= 0)
		close(fds[0]);
	if (st != MAP_FAILED)
		munmap(st, LTT_CONSUMER_STATS_SIZE(1));
	close_fds((const int[]){ stats, map_fd }, 2);
}

/* Root, tracefs, an instance, layouts: else why not (the test skips). */
static const char *can_run(void)
{
	const char *why = NULL;

	if (geteuid() != 0)
		return "not root";
	tfs_root = tu_tracefs_open(&why);
	if (!tfs_root)
		return why;
	atexit(tu_tracefs_close);
	atexit(remove_instances);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGABRT, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGALRM, on_signal);
	if (!make_instance(0, "64", "1") || !load_layouts())
		return "no private ftrace instance with getppid's events";
	return NULL;
}

int main(void)
{
	char dir[PATH_MAX], dir2[PATH_MAX], dir3[PATH_MAX], dir4[PATH_MAX], dir5[PATH_MAX],
		dir6[PATH_MAX];
	struct ltt_ctx ctx[2];
	const char *why;
	struct ch_cons c;
	int map_fd;

	if (ch_setup())
		return 1;
	why = can_run();
	if (why) {
		/* TAP's skip of the whole test (tap.c escapes '#' in descriptions) */
		printf("1..0 # SKIP tracefs channels: %s\n", why);
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		return 0;
	}
	ltt_ctx_parse("tid", &ctx[0]);
	ltt_ctx_parse("cpu_id", &ctx[1]);
	ch_pathf(dir, "%s/out/kernel", ch_tmpdir);
	ch_pathf(dir2, "%s/out/discard", ch_tmpdir);
	ch_pathf(dir3, "%s/out/bpf", ch_tmpdir);
	ch_pathf(dir4, "%s/out/abandon", ch_tmpdir);
	ch_pathf(dir5, "%s/out/carry", ch_tmpdir);
	ch_pathf(dir6, "%s/out/ledger", ch_tmpdir);
	map_fd = make_map();
	if (!tap_ok(map_fd >= 0, "an event map of getppid's entry and exit") ||
	    !tap_ok(ch_start(&c) == 0, "consumer started (%s)", ch_consumerd_path))
		return tap_done();
	tap_is_int(ch_add_trace(&c, 1, dir, getuid(), getgid()), 0, "ADD_TRACE");
	tap_ok(send_metadata(&c, 1, ctx), "METADATA from the TSDL generator");
	tap_is_int(add_tracefs_channel(&c, 10, 1, ctx, 16, SWITCH_US), 0,
		   "ADD_CHANNEL tracefs, 16 x 4 KB, switch timer %d us", SWITCH_US);
	test_bad_input(&c, map_fd);
	test_record(&c, dir, map_fd);
	close(map_fd);
	test_discard(&c, dir2, ctx);
	test_bpf(&c, dir3, ctx);
	tap_is_int(kill(c.pid, SIGTERM), 0, "SIGTERM");
	tap_is_int(ch_wait(&c, WAIT_MS), 0, "the consumer exits 0");
	test_abandon(dir4, ctx);
	test_carry(dir5, ctx, 4, false);
	test_carry(dir6, ctx, 5, true);
	remove_instances();
	if (!getenv("LTT_TEST_KEEP"))
		nftw(ch_tmpdir, ch_rm_entry, 16, FTW_DEPTH | FTW_PHYS);
	else
		tap_diag("kept %s", ch_tmpdir);
	return tap_done();
}
