// SPDX-License-Identifier: GPL-2.0-only
/*
 * kload - a known kernel load, for tests of kernel tracing
 * (test_kernel_tracefs.sh):
 *
 *   kload getppid N        N getppid() calls; prints "tid T"
 *   kload args N           N getppid() system calls given six arguments
 *                          (getppid reads none): 1, 22, 333, 4444, 55555
 *                          and -2 (test_kernel_tracefs_capture_arrays.sh);
 *                          prints "tid T nr NR" (NR getppid's number)
 *   kload getcpu N         N getcpu() system calls (programs get the CPU
 *                          from the vDSO: nothing else makes them); "tid T"
 *   kload openat PATH N    N openat(PATH) (each closed); prints "tid T path
 *                          0xADDR", ADDR the path's address (upper case)
 *   kload pingpong N       two threads on CPU 0 hand a byte back and forth
 *                          N times over two pipes; prints "tids A B"
 *   kload threads N NAME   named NAME (its comm), starts N threads, prints
 *                          "pid P tids T0 T1 .. TN" (T0 the main thread)
 *                          once all run, then waits for its stdin's end
 *   kload gated N B A      starts B threads, prints "ready PID" and waits
 *                          until its stdin ends (or gives a byte); then
 *                          starts A threads; the main thread and each
 *                          other make N getppid() calls; prints "tids"
 *                          and the main thread's tid, then the others'
 *                          (B first) (test_kernel_tracefs_track.sh)
 *   kload rename N NAME    prints "ready PID", waits until its stdin gives
 *                          a byte or ends; makes N getppid() calls,
 *                          renames itself NAME (PR_SET_NAME), N more;
 *                          forks a child process that makes N, then
 *                          starts a thread that makes N; prints "tids
 *                          MAIN CHILD THREAD" (test_kernel_tracefs_procname.sh)
 *   kload payloads         system calls with structures in user memory
 *                          (test_kernel_bpf_payloads.sh): a TCP connect to
 *                          a listener of its own on 127.0.0.1, a UDP
 *                          connect to [2001:db8::1:2]:4243 (its result
 *                          aside), a connect whose length (1) holds no
 *                          family; writev of 1, 2 and 3 bytes to a pipe;
 *                          poll on the pipe's read end (POLLIN) and the
 *                          TCP socket (POLLOUT), on 600 pollfds (the
 *                          pipe's read end first, then -1; the 512th's
 *                          events POLLPRI|POLLERR, the 513th's POLLOUT),
 *                          on an unreadable array; ppoll on the two (a
 *                          zero timeout); epoll_ctl adding the pipe's read
 *                          end (EPOLLIN|EPOLLET, data 0xab0000000R: R the
 *                          fd in its low half), epoll_wait and
 *                          epoll_pwait (its 1 event, the pipe readable),
 *                          epoll_ctl modifying the pipe's (the same event)
 *                          and removing it, epoll_wait of 400 (more than a page of events:
 *                          eventfds, each writable, data its index); accept
 *                          of the TCP connection, then accept4 failing
 *                          (EAGAIN, the buffers still hold that peer);
 *                          prints "tid T port P
 *                          pipe R W tcp S epoll E v6 0|1 cport C" (C the
 *                          TCP socket's own port)
 *
 * Exits 0 once done, 1 on a failed call (said on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static long count(const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || n < 0) {
		fprintf(stderr, "kload: bad count '%s'\n", arg);
		exit(2);
	}
	return n;
}

/* @n system calls @nr without arguments, not through libc: one each. */
static int syscall_load(long nr, long n)
{
	unsigned int cpu;
	long i;

	printf("tid %ld\n", (long)syscall(SYS_gettid));
	fflush(stdout);
	for (i = 0; i < n; i++)
		if (nr == SYS_getcpu)
			syscall(nr, &cpu, NULL, NULL);
		else
			syscall(nr);
	return 0;
}

/* @n getppid() calls with six arguments it ignores (raw_syscalls:sys_enter's args[6]). */
static int args_load(long n)
{
	long i;

	printf("tid %ld nr %ld\n", (long)syscall(SYS_gettid), (long)SYS_getppid);
	fflush(stdout);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid, 1L, 22L, 333L, 4444L, 55555L, -2L);
	return 0;
}

static int openat_load(const char *path, long n)
{
	long i;
	int fd;

	printf("tid %ld path 0x%lX\n", (long)syscall(SYS_gettid), (unsigned long)path);
	fflush(stdout);
	for (i = 0; i < n; i++) {
		fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);	/* mode 0, not a stale register */
		if (fd < 0) {
			fprintf(stderr, "kload: openat %s: %s\n", path, strerror(errno));
			return 1;
		}
		close(fd);
	}
	return 0;
}

struct pong {
	int in, out;		/* read a byte from in, write it to out */
	long n;
	long tid;
};

static void pin_cpu0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		fprintf(stderr, "kload: can't pin to CPU 0: %s\n", strerror(errno));
}

static void *ponger(void *arg)
{
	struct pong *p = arg;
	char c;
	long i;

	pin_cpu0();
	p->tid = (long)syscall(SYS_gettid);
	for (i = 0; i < p->n; i++)
		if (read(p->in, &c, 1) != 1 || write(p->out, &c, 1) != 1)
			break;
	return NULL;
}

static int pingpong_load(long n)
{
	int ping[2], pongp[2];
	struct pong p;
	pthread_t th;
	char c = 'x';
	long i;

	if (pipe(ping) || pipe(pongp)) {
		perror("kload: pipe");
		return 1;
	}
	pin_cpu0();
	p = (struct pong){ .in = ping[0], .out = pongp[1], .n = n };
	if (pthread_create(&th, NULL, ponger, &p)) {
		fprintf(stderr, "kload: can't start a thread\n");
		return 1;
	}
	for (i = 0; i < n; i++)
		if (write(ping[1], &c, 1) != 1 || read(pongp[0], &c, 1) != 1) {
			perror("kload: round trip");
			return 1;
		}
	pthread_join(th, NULL);
	printf("tids %ld %ld\n", (long)syscall(SYS_gettid), p.tid);
	return 0;
}

#define GATED_MAX 64

struct gated {
	pthread_barrier_t started, go;	/* B threads and main */
	long n;
	long tids[GATED_MAX + 1];
	long before;			/* threads 1..before wait at the barriers */
};

struct gated_thread {
	struct gated *g;
	int i;
};

static void *gated_thread(void *arg)
{
	struct gated_thread *t = arg;
	long i;

	t->g->tids[t->i] = (long)syscall(SYS_gettid);
	if (t->i <= t->g->before) {
		pthread_barrier_wait(&t->g->started);
		pthread_barrier_wait(&t->g->go);
	}
	for (i = 0; i < t->g->n; i++)
		syscall(SYS_getppid);
	return NULL;
}

static int gated_load(long n, long before, long after)
{
	struct gated_thread t[GATED_MAX + 1];
	pthread_t th[GATED_MAX + 1];
	struct gated g = { .n = n };
	long i, nr = before + after;
	char c;

	if (nr > GATED_MAX) {
		fprintf(stderr, "kload: %d threads at most\n", GATED_MAX);
		return 2;
	}
	g.before = before;
	pthread_barrier_init(&g.started, NULL, (unsigned int)before + 1);
	pthread_barrier_init(&g.go, NULL, (unsigned int)before + 1);
	g.tids[0] = (long)syscall(SYS_gettid);
	for (i = 1; i <= nr; i++) {
		t[i] = (struct gated_thread){ .g = &g, .i = (int)i };
		if (i == before + 1) {	/* the gate: after the B threads started */
			pthread_barrier_wait(&g.started);
			printf("ready %ld\n", (long)getpid());
			fflush(stdout);
			if (read(0, &c, 1) < 0)
				perror("kload: stdin");
		}
		if (pthread_create(&th[i], NULL, gated_thread, &t[i])) {
			fprintf(stderr, "kload: can't start a thread\n");
			return 1;
		}
	}
	if (before == nr) {
		pthread_barrier_wait(&g.started);
		printf("ready %ld\n", (long)getpid());
		fflush(stdout);
		if (read(0, &c, 1) < 0)
			perror("kload: stdin");
	}
	pthread_barrier_wait(&g.go);
	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
	for (i = 1; i <= nr; i++)
		pthread_join(th[i], NULL);
	printf("tids");
	for (i = 0; i <= nr; i++)
		printf(" %ld", g.tids[i]);
	printf("\n");
	return 0;
}

struct waiter {
	pthread_barrier_t *started;
	long tid;
};

static void *waiter(void *arg)
{
	struct waiter *w = arg;

	w->tid = (long)syscall(SYS_gettid);
	pthread_barrier_wait(w->started);
	for (;;)
		pause();	/* until the process exits */
	return NULL;
}

/* @n threads named @name (each inherits the comm), alive until stdin ends. */
static int threads_load(long n, const char *name)
{
	struct waiter *w = calloc((size_t)n + 1, sizeof(*w));
	pthread_barrier_t started;
	pthread_t th;
	char c;
	long i;

	if (!w || prctl(PR_SET_NAME, name, 0, 0, 0) ||
	    pthread_barrier_init(&started, NULL, (unsigned int)n + 1)) {
		perror("kload: threads");
		return 1;
	}
	for (i = 0; i < n; i++) {
		w[i] = (struct waiter){ .started = &started };
		if (pthread_create(&th, NULL, waiter, &w[i])) {
			fprintf(stderr, "kload: can't start a thread\n");
			return 1;
		}
	}
	pthread_barrier_wait(&started);
	printf("pid %ld tids %ld", (long)getpid(), (long)syscall(SYS_gettid));
	for (i = 0; i < n; i++)
		printf(" %ld", w[i].tid);
	printf("\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static void getppid_n(long n)
{
	long i;

	for (i = 0; i < n; i++)
		syscall(SYS_getppid);
}

static long renamed_n;

static void *renamed_thread(void *arg)
{
	*(long *)arg = (long)syscall(SYS_gettid);
	getppid_n(renamed_n);
	return NULL;
}

/* Calls before and after a rename, then a child's and a thread's. */
static int rename_load(long n, const char *name)
{
	long thread_tid = 0;
	pthread_t th;
	int status;
	pid_t child;
	char c;

	printf("ready %ld\n", (long)getpid());
	fflush(stdout);
	if (read(0, &c, 1) < 0)
		perror("kload: stdin");
	getppid_n(n);
	if (prctl(PR_SET_NAME, name, 0, 0, 0)) {
		perror("kload: PR_SET_NAME");
		return 1;
	}
	getppid_n(n);
	child = fork();
	if (child == 0) {
		getppid_n(n);
		_exit(0);
	}
	if (child < 0 || waitpid(child, &status, 0) != child || status) {
		fprintf(stderr, "kload: the child failed\n");
		return 1;
	}
	renamed_n = n;
	if (pthread_create(&th, NULL, renamed_thread, &thread_tid) || pthread_join(th, NULL)) {
		fprintf(stderr, "kload: can't run a thread\n");
		return 1;
	}
	printf("tids %ld %ld %ld\n", (long)getpid(), (long)child, thread_tid);
	return 0;
}

#define MANY_EVENTS 400	/* more epoll_events than a page holds (341) */

/*
 * MANY_EVENTS eventfds, each writable, in an epoll set of their own
 * (data: its index): what one epoll_wait() returns of them.
 */
static long epoll_more(void)
{
	static struct epoll_event got[MANY_EVENTS];
	struct epoll_event ev = { .events = EPOLLOUT };
	int ep = epoll_create1(EPOLL_CLOEXEC), i, fd;

	for (i = 0; i < MANY_EVENTS && ep >= 0; i++) {
		fd = eventfd(0, EFD_CLOEXEC);
		ev.data.u64 = (uint64_t)i;
		if (fd < 0 || epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev))
			return -1;
	}
	return ep < 0 ? -1 : syscall(SYS_epoll_wait, ep, got, MANY_EVENTS, 0);
}

static int payloads_load(void)
{
	struct sockaddr_in sin = { .sin_family = AF_INET }, peer, own;
	struct sockaddr_in6 six = { .sin6_family = AF_INET6, .sin6_port = htons(4243) };
	struct epoll_event ev = { .events = EPOLLIN | EPOLLET }, got[4];
	static struct pollfd many[600];
	struct pollfd two[2];
	socklen_t len = sizeof(sin), plen = sizeof(peer), olen = sizeof(own);
	int lis, tcp, udp6, pipefd[2], ep, v6 = 0;
	char a[] = "a", bc[] = "bc", def[] = "def";
	struct iovec iov[3] = { { a, 1 }, { bc, 2 }, { def, 3 } };
	size_t i;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lis = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	tcp = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (lis < 0 || tcp < 0 || bind(lis, (struct sockaddr *)&sin, sizeof(sin)) ||
	    listen(lis, 1) || getsockname(lis, (struct sockaddr *)&sin, &len) ||
	    syscall(SYS_connect, tcp, &sin, sizeof(sin)) || pipe2(pipefd, O_CLOEXEC)) {
		fprintf(stderr, "kload: payloads: %s\n", strerror(errno));
		return 1;
	}
	udp6 = socket(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (udp6 >= 0 && inet_pton(AF_INET6, "2001:db8::1:2", &six.sin6_addr) == 1) {
		(void)syscall(SYS_connect, udp6, &six, sizeof(six));
		v6 = 1;
	}
	(void)syscall(SYS_connect, tcp, &sin, 1);
	if (syscall(SYS_writev, pipefd[1], iov, 3) != 6) {
		fprintf(stderr, "kload: payloads: writev: %s\n", strerror(errno));
		return 1;
	}
	two[0] = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	two[1] = (struct pollfd){ .fd = tcp, .events = POLLOUT };
	for (i = 0; i < sizeof(many) / sizeof(many[0]); i++)
		many[i] = (struct pollfd){ .fd = -1 };
	/* the first ready (the pipe), the last one recorded (a page's: 512), and the first not */
	many[0] = (struct pollfd){ .fd = pipefd[0], .events = POLLIN };
	many[511].events = POLLPRI | POLLERR;
	many[512].events = POLLOUT;
	(void)syscall(SYS_poll, two, 2, 0);
	(void)syscall(SYS_poll, many, 600, 0);
	(void)syscall(SYS_poll, (void *)8, 2, 0);
	(void)syscall(SYS_ppoll, two, 2, &(struct timespec){ 0 }, NULL, 8);
	/* data: the fd in its low half, 0xab in its high one */
	ev.data.u64 = (uint64_t)0xab << 32 | (uint32_t)pipefd[0];
	ep = epoll_create1(EPOLL_CLOEXEC);
	if (ep < 0 || syscall(SYS_epoll_ctl, ep, EPOLL_CTL_ADD, pipefd[0], &ev)) {
		fprintf(stderr, "kload: payloads: epoll: %s\n", strerror(errno));
		return 1;
	}
	/* edge triggered: a byte more for epoll_pwait's edge */
	if (syscall(SYS_epoll_wait, ep, got, 4, 0) != 1 || write(pipefd[1], "g", 1) != 1 ||
	    syscall(SYS_epoll_pwait, ep, got, 4, 0, NULL, 8) != 1) {
		fprintf(stderr, "kload: payloads: epoll_wait, epoll_pwait should find the pipe readable\n");
		return 1;
	}
	/* op: EPOLL_CTL_MOD, then EPOLL_CTL_DEL (lttng-modules' labels) */
	if (syscall(SYS_epoll_ctl, ep, EPOLL_CTL_MOD, pipefd[0], &ev) ||
	    syscall(SYS_epoll_ctl, ep, EPOLL_CTL_DEL, pipefd[0], &ev)) {
		fprintf(stderr, "kload: payloads: epoll_ctl MOD, DEL: %s\n", strerror(errno));
		return 1;
	}
	if (epoll_more() != MANY_EVENTS) {
		fprintf(stderr, "kload: payloads: epoll_wait should find %d eventfds writable\n",
			MANY_EVENTS);
		return 1;
	}
	if (syscall(SYS_accept, lis, &peer, &plen) < 0 ||
	    getsockname(tcp, (struct sockaddr *)&own, &olen)) {
		fprintf(stderr, "kload: payloads: accept: %s\n", strerror(errno));
		return 1;
	}
	/* a failed accept4 (EAGAIN), the buffers still holding that peer */
	if (fcntl(lis, F_SETFL, O_NONBLOCK) ||
	    syscall(SYS_accept4, lis, &peer, &plen, 0) >= 0 || errno != EAGAIN) {
		fprintf(stderr, "kload: payloads: accept4 should fail with EAGAIN\n");
		return 1;
	}
	printf("tid %ld port %u pipe %d %d tcp %d epoll %d v6 %d cport %u\n",
	       (long)syscall(SYS_gettid), ntohs(sin.sin_port), pipefd[0], pipefd[1], tcp, ep, v6,
	       ntohs(own.sin_port));
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "getppid"))
		return syscall_load(SYS_getppid, count(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "args"))
		return args_load(count(argv[2]));
	if (argc == 3 && !strcmp(argv[1], "getcpu"))
		return syscall_load(SYS_getcpu, count(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "openat"))
		return openat_load(argv[2], count(argv[3]));
	if (argc == 3 && !strcmp(argv[1], "pingpong"))
		return pingpong_load(count(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "threads"))
		return threads_load(count(argv[2]), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "gated"))
		return gated_load(count(argv[2]), count(argv[3]), count(argv[4]));
	if (argc == 4 && !strcmp(argv[1], "rename"))
		return rename_load(count(argv[2]), argv[3]);
	if (argc == 2 && !strcmp(argv[1], "payloads"))
		return payloads_load();
	fprintf(stderr, "usage: kload getppid N | args N | getcpu N | openat PATH N | pingpong N | gated N B A | threads N NAME | rename N NAME | payloads\n");
	return 2;
}
