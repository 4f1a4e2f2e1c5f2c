// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_real.c - the converter on the kernel's own data (part of
 * test_ftrace_conv): as root, in a private tracefs instance with the mono
 * clock, sched_switch and getppid's entry and exit recorded while this
 * thread calls getppid() exactly 1000 times; every CPU's trace_pipe_raw
 * converted into a CTF trace whose metadata comes from the session
 * daemon's TSDL generator; babeltrace2 must find exactly 1000 entries and
 * 1000 exits of this thread, each exit returning getppid()'s value, with
 * timestamps inside the load's CLOCK_MONOTONIC window.  Skipped, with the
 * reason, without root, tracefs or babeltrace2.  The instance is removed
 * at exit and on a fatal signal (not on SIGKILL).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
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

#include "common/ftrace/ftrace-conv.h"
#include "common/base/codec.h"
#include "tests/unit/ftrace-pages.h"
#include "sessiond/ctrace/meta.h"
#include "tests/unit/tap.h"
#include "tests/unit/tracefs-util.h"

#define NR_CALLS 1000
#define MAX_CPUS 256

static char inst[512];		/* the instance's directory, "" once removed */
static char outdir[300];	/* the CTF trace */

/* A fatal signal: remove the instance (rmdir is async-signal-safe), then die of it. */
static void on_signal(int sig)
{
	if (inst[0])
		rmdir(inst);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void remove_instance(void)
{
	if (inst[0] && rmdir(inst))
		fprintf(stderr, "test_ftrace_real: rmdir %s: %s\n", inst, strerror(errno));
	inst[0] = '\0';
	tu_tracefs_close();
}

static int inst_write(const char *rel, const char *text)
{
	char path[800];

	snprintf(path, sizeof(path), "%s/%s", inst, rel);
	return tu_write_text(path, text);
}

/* The three events' layouts, their trace names and CTF ids. */
static const char *const ev_paths[3] = {
	"sched/sched_switch", "syscalls/sys_enter_getppid", "syscalls/sys_exit_getppid",
};
static const char *const ev_names[3] = {
	"sched_switch", "syscall_entry_getppid", "syscall_exit_getppid",
};
static struct ltt_ftrace_event ev_layouts[3];

static bool load_layouts(void)
{
	static char text[LTT_FTRACE_MAX_TEXT];
	char path[800], sys[32];
	unsigned int i;
	long len;

	for (i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/events/%s/format", inst, ev_paths[i]);
		snprintf(sys, sizeof(sys), "%.*s", (int)(strchr(ev_paths[i], '/') - ev_paths[i]),
			 ev_paths[i]);
		len = tu_read_text(path, text, sizeof(text));
		if (len < 0 || ltt_ftrace_format_parse(sys, text, (size_t)len, &ev_layouts[i], NULL))
			return false;
	}
	return true;
}

static bool set_events(const char *on)
{
	char rel[200];
	unsigned int i;

	for (i = 0; i < 3; i++) {
		snprintf(rel, sizeof(rel), "events/%s/enable", ev_paths[i]);
		if (inst_write(rel, on))
			return false;
	}
	return true;
}

static uint64_t now_mono(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

/* The load: exactly NR_CALLS getppid system calls, in the window [t0, t1]. */
struct load {
	uint64_t t0, t1;
	long tid, ppid;
};

static bool record(struct load *ld)
{
	unsigned int i;

	ld->tid = syscall(SYS_gettid);
	ld->ppid = getppid();	/* before the events are on: not one of the 1000 */
	if (inst_write("trace_clock", "mono") || inst_write("buffer_size_kb", "4096") ||
	    !set_events("1"))
		return false;
	ld->t0 = now_mono();
	for (i = 0; i < NR_CALLS; i++)
		syscall(SYS_getppid);
	/*
	 * The load's sched_switch: this thread blocks (2 ms, no fd), so its
	 * CPU switches away from it whatever else runs.  Without it, a slow
	 * run (a sanitizer's) could see no switch in the window at all.
	 */
	poll(NULL, 0, 2);
	ld->t1 = now_mono();
	return set_events("0") && !inst_write("tracing_on", "0");
}

/* ---- conversion ---- */

struct out_file {
	int fd;
	int err;
};

static int write_packet(void *arg, const void *packet, size_t size,
			const struct ltt_ctf_index_entry *idx)
{
	struct out_file *o = arg;

	if (write(o->fd, packet, size) != (ssize_t)size)
		o->err = -EIO;
	return o->fd < 0 || o->err ? -EIO : 0;
}

/* One CPU's trace_pipe_raw into chan_0_N; false on an error. */
static bool convert_cpu(unsigned int cpu, const uint8_t *uuid, struct ltt_ftrace_conv_stats *st)
{
	static uint8_t page[PAGE];
	struct ltt_ftrace_conv c;
	struct out_file o = { -1, 0 };
	struct ltt_ctx tid;
	char path[800];
	unsigned int i;
	ssize_t n;
	int fd, ret;

	ret = ltt_ftrace_conv_init(&c, uuid, 0, cpu, 65536, NULL);
	ltt_ctx_parse("tid", &tid);
	ret = ret ? ret : ltt_ftrace_conv_set_contexts(&c, &tid, 1);
	for (i = 0; i < 3 && !ret; i++)
		ret = ltt_ftrace_conv_map(&c, ev_layouts[i].id, i, &ev_layouts[i]);
	snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", inst, cpu);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	snprintf(path, sizeof(path), "%s/chan_0_%u", outdir, cpu);
	o.fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	while (!ret && fd >= 0 && o.fd >= 0 && (n = read(fd, page, sizeof(page))) > 0)
		ret = ltt_ftrace_conv_page(&c, page, (size_t)n, write_packet, &o);
	if (!ret && fd >= 0 && o.fd >= 0) {
		ret = ltt_ftrace_conv_flush(&c, write_packet, &o);
		ret = ret == -ENODATA ? 0 : ret;
	}
	ltt_ftrace_conv_stats(&c, st);
	ltt_ftrace_conv_fini(&c);
	if (fd >= 0)
		close(fd);
	if (o.fd >= 0)
		close(o.fd);
	return !ret && fd >= 0 && o.fd >= 0;
}

/* ---- metadata ---- */

static bool read_boot_id(uint8_t *ret)
{
	char text[64];
	unsigned int i, k = 0;

	if (tu_read_text("/proc/sys/kernel/random/boot_id", text, sizeof(text)) < 36)
		return false;
	for (i = 0; i < 36 && k < 16; i++)
		if (text[i] != '-')
			sscanf(text + i++, "%2hhx", &ret[k++]);
	return k == 16;
}

static bool write_metadata(const uint8_t *uuid)
{
	struct ltt_kabi_event_desc d;
	struct ltt_meta_trace t = {
		.hostname = "test-host", .trace_name = "ftrace", .buffering = "global",
		.creation_datetime = "2026-11-23T00:00:00+00:00", .bits_per_long = 64, .vpid = -1,
	};
	struct timespec rt, mono;
	struct ltt_wbuf w, framed;
	struct utsname u;
	struct ltt_ctx tid;
	char path[400];
	size_t len = 0;
	unsigned int i;
	bool ok;
	int fd;

	uname(&u);
	t.sysname = u.sysname;
	t.kernel_release = u.release;
	t.kernel_version = u.version;
	memcpy(t.uuid, uuid, 16);
	clock_gettime(CLOCK_REALTIME, &rt);
	clock_gettime(CLOCK_MONOTONIC, &mono);
	t.clock_offset_ns = (rt.tv_sec - mono.tv_sec) * 1000000000LL + (rt.tv_nsec - mono.tv_nsec);
	ltt_ctx_parse("tid", &tid);
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&framed);
	ok = read_boot_id(t.clock_uuid) && !ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t) &&
	     !ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, &tid, 1);
	for (i = 0; i < 3 && ok; i++)
		ok = !ltt_ftrace_event_to_kabi(&ev_layouts[i], ev_names[i], &d) &&
		     !ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &d, i, 0);
	ok = ok && ltt_wbuf_reserve(&framed, ltt_ctf_metadata_size(w.len)) &&
	     !ltt_ctf_metadata_packet(uuid, w.data, w.len, framed.data, framed.len, &len);
	snprintf(path, sizeof(path), "%s/metadata", outdir);
	fd = ok ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644) : -1;
	ok = fd >= 0 && write(fd, framed.data, len) == (ssize_t)len;
	if (fd >= 0)
		close(fd);
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&framed);
	return ok;
}

/* ---- babeltrace2 ---- */

struct tally {
	unsigned int entries, exits, good_ret, in_window, switches, lines;
	bool monotonic;
	uint64_t last[MAX_CPUS];
};

/* One line: "[CYCLES] (+delta) host NAME: { cpu_id = C }, { tid = T }, { ... }". */
static void tally_line(struct tally *t, const char *line, const struct load *ld)
{
	char name[64], tidtext[32];
	unsigned long long ts;
	unsigned int cpu;
	const char *p, *q;
	bool mine;

	if (sscanf(line, "[%llu]", &ts) != 1 || !(p = strstr(line, ") ")) ||
	    sscanf(p + 2, "%*s %63[^:]:", name) != 1 || !(q = strstr(line, "cpu_id = ")) ||
	    sscanf(q, "cpu_id = %u", &cpu) != 1 || cpu >= MAX_CPUS)
		return;
	t->lines++;
	if (ts < t->last[cpu])
		t->monotonic = false;
	t->last[cpu] = ts;
	snprintf(tidtext, sizeof(tidtext), "{ tid = %ld }", ld->tid);
	mine = strstr(line, tidtext) != NULL;
	if (!strcmp(name, "sched_switch"))
		t->switches++;
	if (!mine)
		return;
	if (!strcmp(name, "syscall_entry_getppid"))
		t->entries++;
	else if (!strcmp(name, "syscall_exit_getppid")) {
		char want[64];

		t->exits++;
		snprintf(want, sizeof(want), "ret = %ld }", ld->ppid);
		t->good_ret += strstr(line, want) != NULL;
	} else {
		return;
	}
	t->in_window += ts >= ld->t0 && ts <= ld->t1;
}

static void check_output(const char *out, const struct load *ld)
{
	static struct tally t;
	const char *p = out, *nl;
	char line[1024];

	memset(&t, 0, sizeof(t));
	t.monotonic = true;
	while (*p) {
		nl = strchr(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		tally_line(&t, line, ld);
		if (!nl)
			break;
		p = nl + 1;
	}
	tap_diag("babeltrace2: %u events, %u sched_switch; this thread: %u entries, %u exits",
		 t.lines, t.switches, t.entries, t.exits);
	tap_is_int(t.entries, NR_CALLS, "exactly %d syscall_entry_getppid of this thread", NR_CALLS);
	tap_is_int(t.exits, NR_CALLS, "exactly %d syscall_exit_getppid of this thread", NR_CALLS);
	tap_is_int(t.good_ret, NR_CALLS, "each exit's ret is getppid()'s value (%ld)", ld->ppid);
	tap_is_int(t.in_window, 2 * NR_CALLS,
		   "each within the load's CLOCK_MONOTONIC window (the mono clock)");
	tap_ok(t.monotonic && t.switches > 0, "timestamps never decrease per CPU; sched_switch seen");
}

/* ---- the test ---- */

static bool make_dirs(const char *root)
{
	const char *base = getenv("TMPDIR");

	snprintf(inst, sizeof(inst), "%s/instances/ltt-test-%ld", root, (long)getpid());
	if (mkdir(inst, 0755)) {
		inst[0] = '\0';
		return false;
	}
	atexit(remove_instance);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGABRT, on_signal);
	signal(SIGSEGV, on_signal);
	snprintf(outdir, sizeof(outdir), "%s/ltt-ftrace.XXXXXX", base ? base : "/tmp");
	return mkdtemp(outdir) != NULL;
}

static bool convert_all(const uint8_t *uuid, struct ltt_ftrace_conv_stats *sum)
{
	struct ltt_ftrace_conv_stats st;
	char path[700];
	unsigned int cpu, nr = 0;
	bool ok = true;

	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u", inst, cpu);
		if (access(path, F_OK))
			continue;
		nr++;
		ok = convert_cpu(cpu, uuid, &st) && ok;
		sum->events += st.events;
		sum->discarded += st.discarded;
		sum->torn += st.torn;
		sum->torn_pages += st.torn_pages;
		sum->unmapped += st.unmapped;
		sum->clamped += st.clamped;
	}
	return ok && nr > 0;
}

static void remove_trace(void)
{
	char path[600];
	struct dirent *de;
	DIR *d = opendir(outdir);

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s", outdir, de->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(outdir);
}

void ftrace_real_test(void)
{
	static const uint8_t uuid[16] = { 0x6c, 0x74, 0x74, 0x2d, 0x66, 0x74, 0x72, 0x61,
					  0x63, 0x65, 0x2d, 0x74, 0x65, 0x73, 0x74, 0x21 };
	static char out[1 << 22];
	struct ltt_ftrace_conv_stats sum;
	const char *why = NULL, *root;
	struct load ld = { 0, 0, 0, 0 };
	int status;

	if (geteuid() != 0) {
		tap_skip("real data: not root");
		return;
	}
	root = tu_tracefs_open(&why);
	if (!root) {
		tap_skip("real data: %s", why);
		return;
	}
	if (!tap_ok(make_dirs(root), "a private instance and a trace directory") ||
	    !tap_ok(load_layouts(), "the three events' format files parse") ||
	    !tap_ok(record(&ld), "mono clock, events on, %d getppid() calls, events off", NR_CALLS))
		return;
	tap_ok(convert_all(uuid, &sum) && write_metadata(uuid),
	       "every CPU's trace_pipe_raw converted; metadata from the TSDL generator");
	tap_diag("converted %" PRIu64 " events; discarded %" PRIu64 " (torn %" PRIu64
		 "), torn pages %" PRIu64 ", unmapped %" PRIu64 ", clamped %" PRIu64,
		 sum.events, sum.discarded, sum.torn, sum.torn_pages, sum.unmapped, sum.clamped);
	tap_ok(sum.discarded == 0 && sum.torn_pages == 0 && sum.unmapped == 0,
	       "nothing lost, torn or unmapped");
	remove_instance();
	status = tu_babeltrace(outdir, "--clock-cycles", out, sizeof(out));
	if (status == 127) {
		tap_skip("babeltrace2 not installed");
	} else if (tap_is_int(status, 0, "babeltrace2 reads the trace")) {
		check_output(out, &ld);
	} else {
		tap_diag("%.2000s", out);
	}
	if (!getenv("LTT_TEST_KEEP"))
		remove_trace();
	else
		tap_diag("trace kept in %s", outdir);
}
