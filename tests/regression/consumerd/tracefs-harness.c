// SPDX-License-Identifier: GPL-2.0-only
/*
 * tracefs-harness.c - what test_consumerd_tracefs stands on: private
 * ftrace instances of this process (removed at exit and on a fatal
 * signal), getppid's event map, a BPF ring this test writes, the trace's
 * TSDL, the consumer's tracefs commands, a CPU-0 load, the stream files'
 * packets and babeltrace2's text.
 */
#include <errno.h>
#include <linux/bpf.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/ftrace/ftrace-map.h"
#include "common/proto/consumer-proto.h"
#include "consumerd-harness.h"
#include "sessiond/ctrace/meta.h"
#include "tracefs-harness.h"
#include "../../unit/tap.h"
#include "../../unit/tracefs-util.h"

#define RING_REC 24	/* the stamp, then sys_enter_getppid's record (12 bytes, padded) */

static const char *tfs_root;
static char inst[NR_INST][512];	/* "" once removed */
static struct ltt_ftrace_event layouts[2];
static struct ltt_ftrace_page_layout page;
static const char *const ev_paths[2] = { "syscalls/sys_enter_getppid",
					 "syscalls/sys_exit_getppid" };
static const char *const ev_names[2] = { "syscall_entry_getppid", "syscall_exit_getppid" };

void remove_instances(void)
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

int inst_write(int i, const char *rel, const char *text)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/%s", inst[i], rel);
	return tu_write_text(path, text);
}

/* Instance @i: mono clock, @kb per CPU, overwrite or not, this process only. */
bool make_instance(int i, const char *kb, const char *overwrite)
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
int make_map(void)
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

bool set_events(int i, const char *on)
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
int make_bpf_map(uint32_t type, uint32_t size)
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

/*
 * A program that puts its context (RING_REC bytes) into ring @ring, with
 * bpf_ringbuf_output()'s @flags (BPF_RB_NO_WAKEUP: no reader woken): its
 * fd, or -1.
 */
int load_ring_writer(int ring, int flags)
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
bool ring_put(int prog, uint64_t ts, int32_t pid)
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

static void tsdl_trace(struct ltt_meta_trace *t, struct utsname *u)
{
	struct timespec rt, mono;

	uname(u);
	*t = (struct ltt_meta_trace){
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
bool send_metadata(struct ch_cons *c, uint64_t trace_key, const struct ltt_ctx *ctx)
{
	struct ltt_kabi_event_desc d;
	struct ltt_meta_trace t;
	struct ltt_wbuf w;
	struct utsname u;
	unsigned int i;
	bool ok;

	tsdl_trace(&t, &u);
	ltt_wbuf_init(&w);
	ok = !ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t) && !ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, ctx, 2);
	for (i = 0; i < 2 && ok; i++)
		ok = !ltt_ftrace_event_to_kabi(&layouts[i], ev_names[i], &d) &&
		     !ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, i, 0);
	ok = ok && ch_metadata(c, trace_key, w.data, w.len) == 0;
	ltt_wbuf_fini(&w);
	return ok;
}

/* ---- commands ---- */

int add_tracefs_channel(struct ch_cons *c, uint64_t key, uint64_t trace_key,
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

int add_ftrace_stream(struct ch_cons *c, uint16_t type, uint64_t key, uint32_t cpu,
		      const int *fds, unsigned int nr_fds)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u32(&w, cpu);
	return ch_call_fds(c, type, &w, fds, nr_fds, NULL);
}

int open_pipe(int i, unsigned int cpu)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", inst[i], cpu);
	return open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
}

/* Every CPU of instance @i added to channel @key: the number, or -1. */
int add_all_cpus(struct ch_cons *c, int i, uint64_t key, int map_fd)
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

char bt_out[1 << 23];

/* babeltrace2 on @dir: this thread's events into @t; false (skip or fail) else. */
bool read_trace(const char *dir, long tid, struct tally *t, bool *skipped)
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

uint64_t now_mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/*
 * Pin this thread to CPU 0 and call getppid() @n times, events on in @i;
 * *@ret_last: CLOCK_MONOTONIC before the last call.
 */
bool load(int i, unsigned int n, uint64_t *ret_last)
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
void last_packet(const char *path, uint64_t *ret_end, uint64_t *ret_discarded)
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

bool timer_wrote(const char *path, uint64_t last, int ms)
{
	struct end_wait w = { path, last };

	return ch_wait_until(end_reached, &w, ms);
}

/* The kernel's counters of CPU @cpu of instance @i, for the log. */
void diag_stats(int i, unsigned int cpu)
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
bool stop_consumer(struct ch_cons *c)
{
	int status;

	if (kill(c->pid, SIGSTOP))
		return false;
	while (waitpid(c->pid, &status, WUNTRACED) < 0)
		if (errno != EINTR)
			return false;
	return WIFSTOPPED(status);
}

/* In babeltrace2's text: the getppid entries of @tid before the first event of @pid. */
int entries_before(const char *out, long tid, long pid)
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
unsigned int count_pid(const char *out, long pid)
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
bool add_ring_stream(struct ch_cons *c, uint64_t key, int i, int ring, int lost,
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
void close_fds(const int *fds, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* ftrace's count of the records read from instance @i's CPU 0 ("read events"). */
bool read_events(int i, uint64_t *ret)
{
	char path[800], text[1024];
	const char *p;

	snprintf(path, sizeof(path), "%s/per_cpu/cpu0/stats", inst[i]);
	if (tu_read_text(path, text, sizeof(text)) < 0)
		return false;
	p = strstr(text, "read events: ");
	return p && sscanf(p + 13, "%" SCNu64, ret) == 1;
}

/* Root, tracefs, an instance, layouts: else why not (the test skips). */
const char *can_run(void)
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
