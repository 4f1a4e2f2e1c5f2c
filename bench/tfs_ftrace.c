// SPDX-License-Identifier: GPL-2.0-only
/*
 * tfs_ftrace - ftrace alone, for bench/tracefs.sh: the events ltt's
 * tracefs backend would record, in a tracefs instance set up as the
 * session daemon sets up a default kernel channel's (mono clock,
 * buffer_size_kb 4096 = 4 x 1 MiB, discard, buffer_percent 25), read by
 * a plain reader that only writes pages to files, while a command runs.
 *
 *   tfs_ftrace [-e sched|all|getppid|none] [-o DIR] -- CMD [ARG...]
 *
 * sched: sched_switch; all: every system call (events/syscalls/enable)
 * and ten sched events; getppid: its entry and exit; none: no instance, CMD timed alone (the same
 * timing for every configuration).  One reader thread per CPU: poll() on
 * per_cpu/cpuN/trace_pipe_raw (O_NONBLOCK), read() pages, write() them
 * to DIR/cpuN (default: a temporary directory, removed).  CMD's wall
 * time is taken around fork() and waitpid(); then tracing stops, the
 * readers drain what is left, and the instance is removed (also on
 * SIGINT, SIGTERM and a failure).  Prints "wall_ns W recorded R lost L
 * bytes B": R from the CPUs' stats (read events + entries left), L =
 * overrun + dropped events.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/base/paths.h"
#include "tfs-inst.h"

#define MAX_CPUS 64
#define PAGE_MAX 65536

static char outdir[300];
static int own_outdir;
static volatile int stopping;

struct reader {
	pthread_t th;
	int in, out;
	unsigned long long bytes;
};

static struct reader readers[MAX_CPUS];
static unsigned int nr_readers;

static void remove_outdir(void)
{
	char path[400];
	unsigned int cpu;

	if (!own_outdir)
		return;
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/cpu%u", outdir, cpu);
		unlink(path);
	}
	rmdir(outdir);
}

/* Close the readers' pipes: an instance with open files can't go. */
static void close_readers(void)
{
	unsigned int i;

	for (i = 0; i < nr_readers; i++)
		close(readers[i].in);
}

/* Read pages until told to stop, then until empty. */
static void *reader_main(void *arg)
{
	static __thread uint8_t page[PAGE_MAX];
	struct reader *r = arg;
	struct pollfd pfd = { .fd = r->in, .events = POLLIN };
	ssize_t n;
	int last;

	for (;;) {
		last = stopping;	/* tracing was off before this read */
		n = read(r->in, page, sizeof(page));
		if (n > 0) {
			if (write(r->out, page, (size_t)n) != n)
				break;
			r->bytes += (unsigned long long)n;
			continue;
		}
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			break;
		if (last)
			break;
		if (stopping)
			continue;
		poll(&pfd, 1, 100);
	}
	return NULL;
}

static int start_readers(void)
{
	char path[700];
	unsigned int cpu;
	int in;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/trace_pipe_raw", tfs_inst, cpu);
		in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (in < 0)
			continue;
		snprintf(path, sizeof(path), "%s/cpu%u", outdir, cpu);
		readers[nr_readers].in = in;
		readers[nr_readers].out = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		if (readers[nr_readers].out < 0 ||
		    pthread_create(&readers[nr_readers].th, NULL, reader_main, &readers[nr_readers]))
			return -1;
		nr_readers++;
	}
	return nr_readers ? 0 : -1;
}

/* Sum of "NAME: V" over the CPUs' stats files. */
static unsigned long long stat_sum(const char *name)
{
	char path[700], text[4096], *p;
	unsigned long long sum = 0;
	unsigned int cpu;
	ssize_t n;
	int fd;

	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%u/stats", tfs_inst, cpu);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
		text[n > 0 ? n : 0] = '\0';
		p = strstr(text, name);
		if (p && (p == text || p[-1] == '\n'))
			sum += strtoull(p + strlen(name), NULL, 10);
	}
	return sum;
}

static const char *const sched_ten[] = {
	"sched_switch", "sched_waking", "sched_wakeup", "sched_wakeup_new",
	"sched_migrate_task", "sched_process_fork", "sched_process_exec",
	"sched_process_exit", "sched_process_free", "sched_process_wait", NULL,
};

static int set_up(const char *events)
{
	char rel[200];
	unsigned int i;

	if (tfs_inst_write("tracing_on", "0") || tfs_inst_write("trace_clock", "mono") ||
	    tfs_inst_write("buffer_size_kb", "4096") || tfs_inst_write("options/overwrite", "0") ||
	    tfs_inst_write("buffer_percent", "25"))
		return -1;
	if (!strcmp(events, "all") && tfs_inst_write("events/syscalls/enable", "1"))
		return -1;
	if (!strcmp(events, "getppid"))
		return tfs_inst_write("events/syscalls/sys_enter_getppid/enable", "1") ||
		       tfs_inst_write("events/syscalls/sys_exit_getppid/enable", "1") ? -1 : 0;
	for (i = 0; sched_ten[i] && (i == 0 || !strcmp(events, "all")); i++) {
		snprintf(rel, sizeof(rel), "events/sched/%s/enable", sched_ten[i]);
		if (tfs_inst_write(rel, "1"))
			return -1;
	}
	return 0;
}

static long long run_cmd(char **argv)
{
	struct timespec t0, t1;
	int status;
	pid_t pid;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	pid = fork();
	if (pid == 0) {
		execvp(argv[0], argv);
		fprintf(stderr, "tfs_ftrace: %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid)
		return -1;
	clock_gettime(CLOCK_MONOTONIC, &t1);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "tfs_ftrace: %s failed\n", argv[0]);
		return -1;
	}
	return (t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
}

int main(int argc, char **argv)
{
	const char *events = "sched", *dir = NULL;
	unsigned long long bytes = 0;
	long long wall;
	unsigned int i;
	int opt;

	while ((opt = getopt(argc, argv, "+e:o:")) != -1) {
		if (opt == 'e' && (!strcmp(optarg, "sched") || !strcmp(optarg, "all") ||
				   !strcmp(optarg, "getppid") || !strcmp(optarg, "none")))
			events = optarg;
		else if (opt == 'o')
			dir = optarg;
		else
			goto usage;
	}
	if (optind >= argc)
		goto usage;
	if (!strcmp(events, "none")) {
		wall = run_cmd(argv + optind);
		if (wall < 0)
			return 1;
		printf("wall_ns %lld recorded 0 lost 0 bytes 0\n", wall);
		return 0;
	}
	if (dir) {
		snprintf(outdir, sizeof(outdir), "%s", dir);
	} else {
		snprintf(outdir, sizeof(outdir), "%s/tfs_ftrace.XXXXXX",
			 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
		if (!mkdtemp(outdir)) {
			perror("tfs_ftrace: mkdtemp");
			return 1;
		}
		own_outdir = 1;
	}
	atexit(remove_outdir);
	if (tfs_inst_create("ftrace", close_readers))
		return 1;
	if (set_up(events) || start_readers() || tfs_inst_write("tracing_on", "1"))
		return 1;
	wall = run_cmd(argv + optind);
	tfs_inst_write("tracing_on", "0");
	stopping = 1;
	for (i = 0; i < nr_readers; i++) {
		pthread_join(readers[i].th, NULL);
		close(readers[i].in);
		close(readers[i].out);
		bytes += readers[i].bytes;
	}
	if (wall < 0)
		return 1;
	printf("wall_ns %lld recorded %llu lost %llu bytes %llu\n", wall,
	       stat_sum("read events: ") + stat_sum("entries: "),
	       stat_sum("overrun: ") + stat_sum("dropped events: "), bytes);
	return 0;
usage:
	fprintf(stderr, "usage: tfs_ftrace [-e sched|all|getppid|none] [-o DIR] -- CMD [ARG...]\n");
	return 2;
}
