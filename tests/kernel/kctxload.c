// SPDX-License-Identifier: GPL-2.0-only
/*
 * kctxload - a process whose every context value the kernel context test
 * knows (tests/kernel/scenarios/kernel_context.sh), and the timing of the
 * test probe for the context cost benchmark.  Root only (/proc/ltt-test).
 *
 *   kctxload ctx N CPU NICE HOST   in a new UTS namespace whose host name
 *                                  is HOST and a new pid namespace, a
 *                                  child (pid 1 there) named "kctx-child",
 *                                  pinned on CPU, at nice NICE, with uids
 *                                  1000/1001/1002 and gids 100/200/300
 *                                  (real/effective/saved), writes N to
 *                                  /proc/ltt-test (N ltt_test_event)
 *   kctxload time N CPU [RUNS]     pinned on CPU, writes N to
 *                                  /proc/ltt-test RUNS times (1); prints
 *                                  each run's ns per event, min, median
 *
 * Each prints what it did as KEY=VALUE lines: the child its own view
 * (vpid, vtid, cpu, nice, the inode of each /proc/self/ns/ entry), the
 * parent what the root namespaces see (child_pid, parent_pid, status).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *const ns_names[] = {
	"cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts",
};

static int die(const char *what)
{
	fprintf(stderr, "kctxload: %s: %s\n", what, strerror(errno));
	return 1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

/* Write @n to the open /proc/ltt-test @fd: @n events. */
static int emit(int fd, const char *n)
{
	ssize_t len = (ssize_t)strlen(n);

	return write(fd, n, (size_t)len) == len ? 0 : -1;
}

static int child(const char *n, int cpu, int nice_value)
{
	char path[64];
	struct stat st;
	size_t i;
	int fd;

	if (prctl(PR_SET_NAME, "kctx-child", 0, 0, 0) || pin(cpu))
		return die("name or affinity");
	if (setpriority(PRIO_PROCESS, 0, nice_value))
		return die("setpriority");
	fd = open("/proc/ltt-test", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return die("open /proc/ltt-test");
	/* /proc is the root pid namespace's: /proc/self is this process there */
	for (i = 0; i < sizeof(ns_names) / sizeof(ns_names[0]); i++) {
		snprintf(path, sizeof(path), "/proc/self/ns/%s", ns_names[i]);
		if (stat(path, &st))
			return die(path);
		printf("%s_ns=%llu\n", ns_names[i], (unsigned long long)st.st_ino);
	}
	/* the ids are changed after the open: only root may open the file */
	if (setresgid(100, 200, 300) || setresuid(1000, 1001, 1002))
		return die("setresgid/setresuid");
	errno = 0;
	printf("vpid=%d\nvtid=%d\ncpu=%d\nnice=%d\n", (int)getpid(), (int)syscall(SYS_gettid),
	       sched_getcpu(), getpriority(PRIO_PROCESS, 0));
	if (emit(fd, n))
		return die("write /proc/ltt-test");
	printf("emitted=%s\n", n);
	return 0;
}

static int ctx(const char *n, int cpu, int nice_value, const char *host)
{
	int status;
	pid_t pid;

	if (unshare(CLONE_NEWUTS | CLONE_NEWPID))
		return die("unshare");
	if (sethostname(host, strlen(host)))
		return die("sethostname");
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return die("fork");
	if (pid == 0) {
		int ret = child(n, cpu, nice_value);

		fflush(stdout);
		_exit(ret);
	}
	if (waitpid(pid, &status, 0) < 0)
		return die("waitpid");
	printf("child_pid=%d\nparent_pid=%d\nstatus=%d\n", (int)pid, (int)getpid(),
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : 1;
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return (x > y) - (x < y);
}

/* @runs writes of @n events each; prints each run's ns/event, the min and median. */
static int timed(const char *n, int cpu, int runs)
{
	long long ns[64], events = atoll(n);
	struct timespec a, b;
	int fd, i;

	if (runs < 1 || runs > 64 || events < 1)
		return 2;
	if (pin(cpu))
		return die("affinity");
	fd = open("/proc/ltt-test", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return die("open /proc/ltt-test");
	for (i = 0; i < runs; i++) {
		clock_gettime(CLOCK_MONOTONIC, &a);
		if (emit(fd, n))
			return die("write /proc/ltt-test");
		clock_gettime(CLOCK_MONOTONIC, &b);
		ns[i] = (b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec);
	}
	close(fd);
	printf("n=%lld runs=%d ns_per_event=", events, runs);
	for (i = 0; i < runs; i++)
		printf("%s%lld", i ? "," : "", ns[i] / events);
	qsort(ns, (size_t)runs, sizeof(ns[0]), cmp_ll);
	printf(" min=%lld median=%lld\n", ns[0] / events, ns[runs / 2] / events);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 6 && !strcmp(argv[1], "ctx"))
		return ctx(argv[2], atoi(argv[3]), atoi(argv[4]), argv[5]);
	if ((argc == 4 || argc == 5) && !strcmp(argv[1], "time"))
		return timed(argv[2], atoi(argv[3]), argc == 5 ? atoi(argv[4]) : 1);
	fprintf(stderr, "usage: kctxload ctx N CPU NICE HOST | time N CPU [RUNS]\n");
	return 2;
}
