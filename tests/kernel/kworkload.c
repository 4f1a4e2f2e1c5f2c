// SPDX-License-Identifier: GPL-2.0-only
/*
 * kworkload - known workloads for the kernel tracing tests
 * (tests/kernel/scenarios/kernel_workload.sh): each prints what it did as
 * KEY=VALUE lines, so the host can look for exactly those events in the
 * trace.
 *
 *   kworkload forkexec PATH CODE   fork; the child execs PATH with the
 *                                  arguments "exit CODE"; the parent waits
 *   kworkload exit CODE            _exit(CODE) (exit_group)
 *   kworkload pingpong N CPU       two threads ("kw-ping", "kw-pong"), both
 *                                  SCHED_FIFO on CPU, pass a byte back and
 *                                  forth N times over two pipes
 *   kworkload files PATH           openat PATH (write, create, truncate,
 *                                  0640), write 1234 bytes, close
 *   kworkload getppid N            N getppid() system calls
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define FILES_COUNT	1234
#define FILES_FLAGS	(O_WRONLY | O_CREAT | O_TRUNC)
#define FILES_MODE	0640
#define PINGPONG_PRIO	10

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static int die(const char *what)
{
	fprintf(stderr, "kworkload: %s: %s\n", what, strerror(errno));
	return 1;
}

static int forkexec(const char *path, const char *code)
{
	int status;
	pid_t child;

	child = fork();
	if (child < 0)
		return die("fork");
	if (child == 0) {
		execl(path, "kworkload", "exit", code, (char *)NULL);
		_exit(127);
	}
	if (waitpid(child, &status, 0) < 0)
		return die("waitpid");
	printf("parent_pid=%d\nchild_pid=%d\nstatus=%d\n", (int)getpid(), (int)child,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return 0;
}

struct player {
	const char *name;
	int in, out;		/* read from in, write to out */
	long rounds;
	int first;		/* writes first */
	pid_t tid;
	int err;
};

static void *play(void *arg)
{
	struct player *p = arg;
	char c = 'x';
	long i;

	prctl(PR_SET_NAME, p->name);
	p->tid = gettid_();
	for (i = 0; i < p->rounds; i++) {
		if (p->first && write(p->out, &c, 1) != 1)
			break;
		if (read(p->in, &c, 1) != 1)
			break;
		if (!p->first && write(p->out, &c, 1) != 1)
			break;
	}
	p->err = i == p->rounds ? 0 : errno ? errno : EIO;
	return NULL;
}

static int pingpong(long rounds, int cpu)
{
	struct player ping = { .name = "kw-ping", .rounds = rounds, .first = 1 };
	struct player pong = { .name = "kw-pong", .rounds = rounds };
	struct sched_param sp = { .sched_priority = PINGPONG_PRIO };
	pthread_t t1, t2;
	pthread_attr_t attr;
	cpu_set_t set;
	int a[2], b[2];

	if (pipe(a) < 0 || pipe(b) < 0)
		return die("pipe");
	ping.out = a[1];
	pong.in = a[0];
	pong.out = b[1];
	ping.in = b[0];
	/* One CPU and equal real-time priorities: a woken thread never
	 * preempts the writer, so each read of an empty pipe sleeps and
	 * switches straight to the other thread. */
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	if (pthread_attr_setaffinity_np(&attr, sizeof(set), &set) ||
	    pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED) ||
	    pthread_attr_setschedpolicy(&attr, SCHED_FIFO) ||
	    pthread_attr_setschedparam(&attr, &sp))
		return die("thread attributes");
	errno = pthread_create(&t2, &attr, play, &pong);
	if (errno)
		return die("pthread_create");
	errno = pthread_create(&t1, &attr, play, &ping);
	if (errno)
		return die("pthread_create");
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	if (ping.err || pong.err) {
		errno = ping.err ? ping.err : pong.err;
		return die("ping-pong");
	}
	printf("pid=%d\nping_tid=%d\npong_tid=%d\nrounds=%ld\ncpu=%d\n", (int)getpid(),
	       (int)ping.tid, (int)pong.tid, rounds, cpu);
	return 0;
}

static int files(const char *path)
{
	char buf[FILES_COUNT];
	ssize_t written;
	int fd, ret;

	memset(buf, 'k', sizeof(buf));
	fd = openat(AT_FDCWD, path, FILES_FLAGS, FILES_MODE);
	if (fd < 0)
		return die(path);
	written = write(fd, buf, sizeof(buf));
	if (written < 0)
		return die("write");
	ret = close(fd);
	if (ret < 0)
		return die("close");
	printf("pid=%d\nfd=%d\nflags=%d\nmode=%d\ncount=%d\nwritten=%zd\nclose=%d\n",
	       (int)getpid(), fd, FILES_FLAGS, FILES_MODE, FILES_COUNT, written, ret);
	return 0;
}

static int getppids(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("pid=%d\ncalls=%ld\n", (int)getpid(), n);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "forkexec"))
		return forkexec(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "exit"))
		_exit(atoi(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "pingpong"))
		return pingpong(atol(argv[2]), atoi(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "files"))
		return files(argv[2]);
	if (argc == 3 && !strcmp(argv[1], "getppid"))
		return getppids(atol(argv[2]));
	fprintf(stderr, "usage: kworkload forkexec PATH CODE | exit CODE | "
		"pingpong N CPU | files PATH | getppid N\n");
	return 2;
}
