// SPDX-License-Identifier: GPL-2.0-only
/*
 * tfs_conv - what the consumer's conversion of ftrace pages into CTF
 * packets (ltt_ftrace_conv_page(), src/common/ftrace/ftrace-conv.c) costs an
 * event, on the kernel's own pages:
 *
 *   tfs_conv capture DIR
 *	(root) records three loads in a private tracefs instance (mono
 *	clock, 16 MiB per CPU) and saves each CPU's trace_pipe_raw pages,
 *	with the format files of the events enabled, in DIR/CASE.cap:
 *	  sched    sched_switch, 20 000 round trips of two threads on CPU 0
 *	  syscall  sys_enter/sys_exit_getppid, 50 000 getppid()
 *	  mixed    every system call and ten sched events, 5 000 round trips
 *	  tasks    read and write entries and exits, and the events the
 *	           process contexts' task table reads (sched_switch,
 *	           task_rename, task_newtask, sched_process_exec,
 *	           sched_process_free), 20 000 round trips
 *   tfs_conv run DIR/CASE.cap [-n REPS] [-C CTX,...] [-T] [-x]
 *	converts the pages REPS times (default 20) with one converter per
 *	CPU, as the consumer does (1 MiB packets, the default kernel
 *	channel's; the layouts without __syscall_nr, as the session daemon
 *	gives them), the stream context CTX (tid, cpu_id; procname, pid,
 *	ppid, vpid, vtid with a task table, seeded before each rep) on each
 *	event; -T: the task table's events read, not written (as when the
 *	user did not enable them);
 *	the packets go to a sink that counts their content's bytes.  Prints the events
 *	converted per rep and ns/event (median and best rep); -x: one rep,
 *	for callgrind (--toggle-collect=ltt_ftrace_conv_page).
 *
 * The converters are set up and flushed outside the timed part, anew for
 * each rep (the same pages again would otherwise all be clamped, their
 * timestamps earlier than the stream's latest).
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "tfs-inst.h"
#include "common/ftrace/ftrace-conv.h"

#define MAX_CPUS 64
#define PAGE_MAX 65536
#define MAX_FORMATS 4096
#define PKT_SIZE (1024 * 1024)

static const char *tracefs = "/sys/kernel/tracing";

static void die(const char *what)
{
	fprintf(stderr, "tfs_conv: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* The whole of @path into @buf (malloc'ed, NUL added); its length or -1. */
static long read_all(const char *path, char **buf)
{
	size_t cap = 65536, len = 0;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	*buf = malloc(cap + 1);
	if (fd < 0 || !*buf)
		return -1;
	while ((n = read(fd, *buf + len, cap - len)) > 0) {
		len += (size_t)n;
		if (len == cap && !(*buf = realloc(*buf, (cap *= 2) + 1)))
			die("realloc");
	}
	close(fd);
	(*buf)[len] = '\0';
	return n < 0 ? -1 : (long)len;
}

static void put_u32(FILE *f, uint32_t v)
{
	fwrite(&v, 4, 1, f);
}

/* ---- capture ---- */

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

struct pong {
	int in, out;
	long n;
};

static void *ponger(void *arg)
{
	struct pong *p = arg;
	char c;
	long i;

	pin_cpu0();
	for (i = 0; i < p->n; i++)
		if (read(p->in, &c, 1) != 1 || write(p->out, &c, 1) != 1)
			break;
	return NULL;
}

static void pingpong(long n)
{
	int a[2], b[2];
	struct pong p;
	pthread_t th;
	char c = 'x';
	long i;

	if (pipe(a) || pipe(b))
		die("pipe");
	pin_cpu0();
	p = (struct pong){ .in = a[0], .out = b[1], .n = n };
	if (pthread_create(&th, NULL, ponger, &p))
		die("pthread_create");
	for (i = 0; i < n; i++)
		if (write(a[1], &c, 1) != 1 || read(b[0], &c, 1) != 1)
			die("round trip");
	pthread_join(th, NULL);
	close(a[0]), close(a[1]), close(b[0]), close(b[1]);
}

static const char *const sched_ten[] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exec",
	"sched_process_exit", "sched_process_free", "sched_process_wait", NULL,
};

/* Append the format of events/@sys/@name to @f; @n counts them. */
static void save_format(FILE *f, const char *sys, const char *name, uint32_t *n)
{
	char path[800], *text;
	long len;

	snprintf(path, sizeof(path), "%s/events/%s/%s/format", tfs_inst, sys, name);
	len = read_all(path, &text);
	if (len > 0) {
		put_u32(f, (uint32_t)strlen(sys));
		fwrite(sys, 1, strlen(sys), f);
		put_u32(f, (uint32_t)len);
		fwrite(text, 1, (size_t)len, f);
		(*n)++;
	}
	free(text);
}

/* Every CPU's pages, drained with tracing off, appended to @f. */
static uint32_t save_pages(FILE *f)
{
	static uint8_t page[PAGE_MAX];
	char path[800];
	uint32_t cpu, nr = 0;
	ssize_t n;
	int fd;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", tfs_inst, cpu);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0)
			continue;
		while ((n = read(fd, page, sizeof(page))) > 0) {
			put_u32(f, cpu);
			put_u32(f, (uint32_t)n);
			fwrite(page, 1, (size_t)n, f);
			nr++;
		}
		close(fd);
	}
	return nr;
}

static void capture_case(const char *dir, const char *name)
{
	char path[700], rel[300];
	uint32_t nfmt = 0, npages;
	long pos_fmt, pos_pages, end;
	unsigned int i;
	FILE *f;

	if (tfs_inst_write("tracing_on", "0") || tfs_inst_write("trace", "") ||
	    tfs_inst_write("events/enable", "0"))
		exit(1);
	snprintf(path, sizeof(path), "%s/%s.cap", dir, name);
	f = fopen(path, "wb");
	if (!f)
		die(path);
	fwrite("LTTFCAP1", 1, 8, f);
	pos_fmt = ftell(f);
	put_u32(f, 0);
	if (!strcmp(name, "sched")) {
		tfs_inst_write("events/sched/sched_switch/enable", "1");
		save_format(f, "sched", "sched_switch", &nfmt);
	} else if (!strcmp(name, "tasks")) {
		static const char *const ev[][2] = {
			{ "syscalls", "sys_enter_read" }, { "syscalls", "sys_exit_read" },
			{ "syscalls", "sys_enter_write" }, { "syscalls", "sys_exit_write" },
			{ "sched", "sched_switch" }, { "task", "task_rename" },
			{ "task", "task_newtask" }, { "sched", "sched_process_exec" },
			{ "sched", "sched_process_free" },
		};

		for (i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
			snprintf(rel, sizeof(rel), "events/%s/%s/enable", ev[i][0], ev[i][1]);
			tfs_inst_write(rel, "1");
			save_format(f, ev[i][0], ev[i][1], &nfmt);
		}
	} else if (!strcmp(name, "syscall")) {
		tfs_inst_write("events/syscalls/sys_enter_getppid/enable", "1");
		tfs_inst_write("events/syscalls/sys_exit_getppid/enable", "1");
		save_format(f, "syscalls", "sys_enter_getppid", &nfmt);
		save_format(f, "syscalls", "sys_exit_getppid", &nfmt);
	} else {
		char *list, *line, *save;

		tfs_inst_write("events/syscalls/enable", "1");
		for (i = 0; sched_ten[i]; i++) {
			snprintf(rel, sizeof(rel), "events/sched/%s/enable", sched_ten[i]);
			tfs_inst_write(rel, "1");
			save_format(f, "sched", sched_ten[i], &nfmt);
		}
		snprintf(path, sizeof(path), "%s/available_events", tracefs);
		if (read_all(path, &list) < 0)
			die(path);
		for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			if (!strncmp(line, "syscalls:", 9))
				save_format(f, "syscalls", line + 9, &nfmt);
		free(list);
	}
	tfs_inst_write("tracing_on", "1");
	if (!strcmp(name, "syscall"))
		for (i = 0; i < 50000; i++)
			syscall(SYS_getppid);
	else
		pingpong(!strcmp(name, "mixed") ? 5000 : 20000);
	tfs_inst_write("tracing_on", "0");
	tfs_inst_write("events/enable", "0");
	pos_pages = ftell(f);
	put_u32(f, 0);
	npages = save_pages(f);
	end = ftell(f);
	fseek(f, pos_fmt, SEEK_SET);
	put_u32(f, nfmt);
	fseek(f, pos_pages, SEEK_SET);
	put_u32(f, npages);
	fseek(f, end, SEEK_SET);
	if (fclose(f))
		die("fclose");
	printf("%s: %u formats, %u pages\n", name, nfmt, npages);
}

static int capture(const char *dir)
{
	if (tfs_inst_create("conv", NULL))
		return 1;
	if (tfs_inst_write("trace_clock", "mono") || tfs_inst_write("buffer_size_kb", "16384"))
		return 1;
	capture_case(dir, "sched");
	capture_case(dir, "syscall");
	capture_case(dir, "mixed");
	capture_case(dir, "tasks");
	return 0;
}

/* ---- run ---- */

struct cap_page {
	uint32_t cpu, len;
	const uint8_t *data;
};

static struct ltt_ftrace_event *layouts;
static uint32_t nr_layouts;
static struct cap_page *pages;
static uint32_t nr_pages;
static uint32_t nr_cpus;		/* the highest CPU of a page, + 1 */

static uint32_t get_u32(const uint8_t **p)
{
	uint32_t v;

	memcpy(&v, *p, 4);
	*p += 4;
	return v;
}

/* As the session daemon lays a system call out: no __syscall_nr. */
static void drop_syscall_nr(struct ltt_ftrace_event *ev)
{
	uint32_t i, kept = 0;

	for (i = 0; i < ev->nr_fields; i++)
		if (strcmp(ev->system, "syscalls") || strcmp(ev->fields[i].name, "__syscall_nr"))
			ev->fields[kept++] = ev->fields[i];
	ev->nr_fields = kept;
}

/* Fields the session daemon names as lttng-modules does, of the task table's events. */
static void rename_fields(struct ltt_ftrace_event *ev)
{
	static const char *const renames[][3] = {
		{ "sched_switch", "prev_pid", "prev_tid" },
		{ "sched_switch", "next_pid", "next_tid" },
		{ "sched_process_exec", "pid", "tid" },
		{ "sched_process_exec", "old_pid", "old_tid" },
		{ "sched_process_free", "pid", "tid" },
	};
	uint32_t i, r;

	for (i = 0; i < ev->nr_fields; i++)
		for (r = 0; r < sizeof(renames) / sizeof(renames[0]); r++)
			if (!strcmp(ev->name, renames[r][0]) && !strcmp(ev->fields[i].name, renames[r][1]))
				snprintf(ev->fields[i].name, sizeof(ev->fields[i].name), "%s",
					 renames[r][2]);
}

static void load_capture(const char *path)
{
	const uint8_t *p;
	char *buf, sys[LTT_FTRACE_NAME_MAX];
	uint32_t i, n, len;
	long size = read_all(path, &buf);

	if (size < 16 || memcmp(buf, "LTTFCAP1", 8)) {
		fprintf(stderr, "tfs_conv: %s: not a capture (make one with tfs_conv capture)\n", path);
		exit(2);
	}
	p = (const uint8_t *)buf + 8;
	n = get_u32(&p);
	layouts = calloc(n ? n : 1, sizeof(*layouts));
	for (i = 0; i < n; i++) {
		len = get_u32(&p);
		snprintf(sys, sizeof(sys), "%.*s", (int)len, (const char *)p);
		p += len;
		len = get_u32(&p);
		if (!ltt_ftrace_format_parse(sys, (const char *)p, len, &layouts[nr_layouts], NULL)) {
			rename_fields(&layouts[nr_layouts]);
			drop_syscall_nr(&layouts[nr_layouts++]);
		}
		p += len;
	}
	nr_pages = get_u32(&p);
	pages = calloc(nr_pages ? nr_pages : 1, sizeof(*pages));
	for (i = 0; i < nr_pages; i++) {
		pages[i].cpu = get_u32(&p);
		pages[i].len = get_u32(&p);
		pages[i].data = p;
		if (pages[i].cpu < MAX_CPUS && pages[i].cpu >= nr_cpus)
			nr_cpus = pages[i].cpu + 1;
		p += pages[i].len;
	}
}

static int count_packet(void *arg, const void *packet, size_t size,
			const struct ltt_ctf_index_entry *idx)
{
	(void)packet;
	(void)size;
	*(uint64_t *)arg += idx->content_size / 8;	/* the bytes in use */
	return 0;
}

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000 + (uint64_t)t.tv_nsec;
}

static struct ltt_ftrace_conv convs[MAX_CPUS];
static struct ltt_ctx ctx[LTT_CTX_MAX];
static uint32_t nr_ctx;
static bool task_ctx;			/* a context reads the task table */
static bool tasks_only;			/* -T */
static struct ltt_ftrace_tasks *tasks;

/* Is @ev one the task table reads? */
static bool task_event(const struct ltt_ftrace_event *ev)
{
	struct ltt_ftrace_task_rec r;

	ltt_ftrace_task_rec_init(ev, &r);
	return r.op != LTT_FTRACE_TASK_NONE;
}

static void setup(void)
{
	static const uint8_t uuid[LTT_CTF_UUID_LEN] = { 1 };
	uint32_t cpu, i, id;

	if (task_ctx && ltt_ftrace_tasks_create(&tasks))
		die("the task table");
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		if (ltt_ftrace_conv_init(&convs[cpu], uuid, 0, cpu, PKT_SIZE, NULL) ||
		    ltt_ftrace_conv_set_tasks(&convs[cpu], tasks) ||
		    ltt_ftrace_conv_set_contexts(&convs[cpu], ctx, nr_ctx))
			die("converter set-up");
		for (i = 0; i < nr_layouts; i++) {
			id = tasks_only && task_event(&layouts[i]) ? LTT_FTRACE_CTF_TASKS_ONLY : i;
			if (ltt_ftrace_conv_map(&convs[cpu], layouts[i].id, id, &layouts[i]))
				die("converter map");
		}
	}
}

/* One rep: every page through its CPU's converter; ns spent, events. */
static uint64_t one_rep(uint64_t *events, uint64_t *bytes, struct ltt_ftrace_conv_stats *sum)
{
	struct ltt_ftrace_conv_stats st;
	uint64_t t0, t1;
	uint32_t i, cpu;

	setup();
	t0 = now_ns();
	for (i = 0; i < nr_pages; i++)
		if (pages[i].cpu < nr_cpus)
			ltt_ftrace_conv_page(&convs[pages[i].cpu], pages[i].data, pages[i].len,
					     count_packet, bytes);
	t1 = now_ns();
	*events = 0;
	memset(sum, 0, sizeof(*sum));
	for (cpu = 0; cpu < nr_cpus; cpu++) {
		ltt_ftrace_conv_flush(&convs[cpu], count_packet, bytes);
		ltt_ftrace_conv_stats(&convs[cpu], &st);
		*events += st.events;
		sum->tasks_only += st.tasks_only;
		sum->discarded += st.discarded;
		sum->unmapped += st.unmapped;
		sum->clamped += st.clamped;
		ltt_ftrace_conv_fini(&convs[cpu]);
	}
	ltt_ftrace_tasks_destroy(tasks);
	tasks = NULL;
	return t1 - t0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void parse_ctx(char *list)
{
	char *name, *save;

	for (name = strtok_r(list, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
		if (nr_ctx == LTT_CTX_MAX || ltt_ctx_parse(name, &ctx[nr_ctx])) {
			fprintf(stderr, "tfs_conv: -C %s: give tid, cpu_id, procname, pid, ppid, vpid, vtid\n",
				name);
			exit(2);
		}
		task_ctx |= ltt_ftrace_conv_task_context(ctx[nr_ctx].type);
		nr_ctx++;
	}
}

static int run(int argc, char **argv)
{
	struct ltt_ftrace_conv_stats sum;
	uint64_t *ns, events = 0, bytes = 0;
	long reps = 20, r;
	int opt;

	while ((opt = getopt(argc, argv, "n:C:Tx")) != -1) {
		if (opt == 'n')
			reps = strtol(optarg, NULL, 10);
		else if (opt == 'C')
			parse_ctx(optarg);
		else if (opt == 'T')
			tasks_only = true;
		else if (opt == 'x')
			reps = 1;
		else
			return 2;
	}
	if (optind != argc - 1 || reps < 1) {
		fprintf(stderr, "usage: tfs_conv run FILE.cap [-n REPS] [-C CTX,...] [-T] [-x]\n");
		return 2;
	}
	load_capture(argv[optind]);
	ns = calloc((size_t)reps, sizeof(*ns));
	for (r = 0; r < reps; r++)
		ns[r] = one_rep(&events, &bytes, &sum);
	qsort(ns, (size_t)reps, sizeof(*ns), cmp_u64);
	printf("pages %u events %llu bytes/event %.1f discarded %llu unmapped %llu clamped %llu tasks_only %llu\n",
	       nr_pages, (unsigned long long)events, events ? (double)bytes / reps / events : 0.0,
	       (unsigned long long)sum.discarded, (unsigned long long)sum.unmapped,
	       (unsigned long long)sum.clamped, (unsigned long long)sum.tasks_only);
	if (events)
		printf("ns/event median %.1f best %.1f (%ld reps)\n",
		       (double)ns[reps / 2] / events, (double)ns[0] / events, reps);
	if (events + sum.tasks_only)
		printf("ns/record median %.1f best %.1f\n",
		       (double)ns[reps / 2] / (double)(events + sum.tasks_only),
		       (double)ns[0] / (double)(events + sum.tasks_only));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "capture"))
		return capture(argv[2]);
	if (argc >= 3 && !strcmp(argv[1], "run"))
		return run(argc - 1, argv + 1);
	fprintf(stderr, "usage: tfs_conv capture DIR | tfs_conv run FILE.cap [-n REPS] [-C CTX,...] [-T] [-x]\n");
	return 2;
}
