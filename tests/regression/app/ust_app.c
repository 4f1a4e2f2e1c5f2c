// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust_app.c - the instrumented program the end-to-end tests trace.
 *
 *   ust_app [-n EVENTS] [-t THREADS] [-C] [-T] [-L] [-G] [-f | -x] [-w FIFO] [-e SECONDS]
 *           [-s FIFO] [-k FIFO] [-S] [-r ROLE] [-p FIFO]
 *   ust_app -B CASE SOCKET
 *
 * Each of THREADS threads emits EVENTS ltt_test:seq events numbered
 * 0..EVENTS-1.  -C pins thread i to the i-th CPU (modulo their count) of
 * the program's affinity (taskset -c 0,1 ust_app -C -t 2: one thread on
 * each) before it emits; a thread that can't be pinned fails the
 * program.  -T also emits ltt_test:types per event, -L the log-level
 * events, -G one getppid system call after each ltt_test:seq event but
 * the last (kernel and user events on one time line).  -f forks once the threads are done: the child (role "child")
 * emits the same again; -x forks and the child execs this program with
 * role "exec"; both print "child PID" on stdout.  -s FIFO: read one line
 * (or EOF) from FIFO before emitting (the test starts tracing meanwhile);
 * -w FIFO: write "ready PID" to FIFO at the start of main(), so once
 * registered, and after opening the -s FIFO, so that the test may then
 * release every waiting program at once by closing it; -e SECONDS: before
 * that and before emitting, wait until ltt_test:seq is enabled, at most
 * SECONDS (the daemon answers the registration before it has pushed a
 * session's channels and events when a consumer call takes long: a test
 * that counts every event needs them there before the first); -k FIFO: after
 * emitting, write "done" to FIFO and wait forever (to be killed).
 * -S: after emitting, overwrite every trace buffer mapped in this
 * process with pseudo-random bytes and print "scribbled N" (N mappings),
 * to test that the consumer survives a hostile writer.
 *
 * -p FIFO (with -k): rounds: for each line read from FIFO, emit EVENTS
 * more events per thread (their seq numbers follow the last round's),
 * then write "done" to the -k FIFO; exit at EOF.
 *
 * SIGTERM (the tests' guard, timeout(1)) while the threads emit stops them
 * between two events, never inside one: a guard that ends a slow program
 * must not tear an event (the consumer would count a torn event lost and
 * the trace would lack it, as if the program had died mid-event).  The
 * program prints "ust_app: stopped by SIGTERM after N events" (per role,
 * the ltt_test:seq events emitted) on stderr and dies of SIGTERM; outside
 * the emitting, SIGTERM ends it at once, as by default.
 *
 * -B CASE SOCKET: no tracing; connect to the session daemon's app socket
 * and speak the app protocol badly (see bad_client()), then print one
 * line per message the daemon sent ("got TYPE") and "EOF" when it closed
 * the connection, or "OPEN" if it did not within 5 s.
 *
 * Nothing here sleeps.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "test_tp.h"

struct opts {
	unsigned long events;
	int threads;
	int pin;		/* -C */
	int types;
	int levels;
	int getppid;		/* -G */
	int fork_mode;		/* 0, 'f' or 'x' */
	int scribble;
	const char *ready_fifo;
	const char *start_fifo;
	const char *kill_fifo;
	const char *role;
	const char *self;
	const char *rounds_fifo;
	unsigned long base;	/* the first seq of this round */
	int enabled_wait_s;	/* -e */
};

struct worker {
	const struct opts *o;
	int thread;
	unsigned long emitted;	/* ltt_test:seq events emitted */
};

/* SIGTERM: seen while the threads emit (they stop between two events). */
static volatile sig_atomic_t term_seen;
static volatile sig_atomic_t emitting;

static void on_term(int sig)
{
	if (!emitting) {
		/* no event under way: die of it at once, as by default */
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	term_seen = 1;
}

/* After the threads: die of a SIGTERM they stopped for, saying how far they got. */
static void term_if_seen(unsigned long emitted)
{
	if (!term_seen)
		return;
	fprintf(stderr, "ust_app: stopped by SIGTERM after %lu events\n", emitted);
	signal(SIGTERM, SIG_DFL);
	raise(SIGTERM);
}

/* -C: pin the calling thread to the @nth CPU of the program's affinity mask. */
static int pin_thread(int nth)
{
	cpu_set_t allowed, one;
	int cpu, n = 0, count;

	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		return -1;
	count = CPU_COUNT(&allowed);
	nth %= count;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &allowed) || n++ != nth)
			continue;
		CPU_ZERO(&one);
		CPU_SET(cpu, &one);
		if (pthread_setaffinity_np(pthread_self(), sizeof(one), &one) ||
		    sched_getcpu() != cpu) {
			fprintf(stderr, "ust_app: can't pin thread %d to CPU %d\n", nth, cpu);
			return -1;
		}
		return 0;
	}
	return -1;
}

static void *emit(void *arg)
{
	struct worker *w = arg;
	/* arrays, not literals: the atext field copies 4 bytes of even "" */
	static const char texts[][16] = { "alpha", "beta-text", "", "gamma" };
	int32_t vals[3];
	unsigned long i;

	if (w->o->pin && pin_thread(w->thread))
		return (void *)1;
	for (i = w->o->base; i < w->o->base + w->o->events && !term_seen; i++) {
		ltt_tracepoint(ltt_test, seq, w->o->role, w->thread, i);
		w->emitted++;
		if (w->o->getppid && i + 1 < w->o->base + w->o->events)
			syscall(SYS_getppid);
		if (w->o->types) {
			const char *text = texts[i % 4];

			vals[0] = (int32_t)i;
			vals[1] = -(int32_t)i;
			vals[2] = 7;
			ltt_tracepoint(ltt_test, types, i, text, vals, (uint32_t)(i % 4));
		}
		if (w->o->levels) {
			ltt_tracepoint(ltt_test, crit, i);
			ltt_tracepoint(ltt_test, debug, i);
		}
	}
	return NULL;
}

static int run_threads(const struct opts *o)
{
	pthread_t tids[64];
	struct worker w[64];
	unsigned long emitted = 0;
	int i, started = 0, ret = 0;

	emitting = 1;
	for (i = 0; i < o->threads; i++) {
		w[i] = (struct worker){ .o = o, .thread = i };
		if (pthread_create(&tids[i], NULL, emit, &w[i])) {
			fprintf(stderr, "ust_app: pthread_create failed\n");
			ret = 1;
			break;
		}
		started++;
	}
	for (i = 0; i < started; i++) {
		void *res;

		pthread_join(tids[i], &res);
		if (res)
			ret = 1;
		emitted += w[i].emitted;
	}
	emitting = 0;
	term_if_seen(emitted);
	return ret;
}

static FILE *open_fifo(const char *path, const char *mode)
{
	FILE *f = fopen(path, mode);

	if (!f) {
		fprintf(stderr, "ust_app: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return f;
}

/* Wait for one line, or EOF: the test closing the FIFO releases everyone. */
static void wait_fifo(FILE *f)
{
	char line[64];

	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
}

/* Write one line to a FIFO the test reads. */
/*
 * -e: spin (yielding) until ltt_test:seq is enabled, at most @seconds:
 * nothing to wait on but the tracer's own state.  0 once enabled.
 */
static int wait_enabled(int seconds)
{
	struct timespec now, end;

	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += seconds;
	while (!ltt_tracepoint_enabled(ltt_test, seq)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec)) {
			fprintf(stderr, "ust_app: ltt_test:seq not enabled within %d s\n", seconds);
			return -1;
		}
		sched_yield();
	}
	return 0;
}

static void tell(const char *path, const char *line)
{
	FILE *f = open_fifo(path, "w");

	fputs(line, f);
	fclose(f);
}

/* -S: overwrite our mappings of the trace buffers with garbage. */
static void scribble(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi, p;
	uint32_t x = 2463534242U;
	char line[512], perms[8];
	int n = 0;

	while (f && fgets(line, sizeof(line), f)) {
		if (!strstr(line, "ltt-ust-stream") ||
		    sscanf(line, "%lx-%lx %7s", &lo, &hi, perms) != 3 || perms[1] != 'w')
			continue;
		for (p = lo; p + 4 <= hi; p += 4) {
			x ^= x << 13;
			x ^= x >> 17;
			x ^= x << 5;
			*(volatile uint32_t *)p = x;
		}
		n++;
	}
	if (f)
		fclose(f);
	printf("scribbled %d\n", n);
	fflush(stdout);
}

static int do_fork(struct opts *o)
{
	char events[32], threads[32];
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		return 1;
	if (pid > 0) {
		printf("child %ld\n", (long)pid);
		fflush(stdout);
	}
	if (pid == 0) {
		if (o->fork_mode == 'x') {
			snprintf(events, sizeof(events), "%lu", o->events);
			snprintf(threads, sizeof(threads), "%d", o->threads);
			execl(o->self, o->self, "-n", events, "-t", threads, "-r", "exec",
			      (char *)NULL);
			_exit(127);
		}
		o->role = "child";
		_exit(run_threads(o));
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return 1;
	return 0;
}

/*
 * -B: a client of the app protocol (src/common/proto/app-proto.h) that sends
 * what libltt-ust never would.  The bytes are written by hand so that
 * nothing here depends on the daemon's own encoder.
 */
#define APP_MAGIC 0x4c545441U
enum { REGISTER = 1, REGISTER_OK = 2, TRACEPOINTS = 3, ACK = 5 };

struct bytes {
	unsigned char b[512];
	size_t n;
};

static void put(struct bytes *o, uint64_t v, int size)
{
	int i;

	for (i = 0; i < size; i++)
		o->b[o->n++] = (unsigned char)(v >> (8 * i));
}

static void put_str(struct bytes *o, const char *s)
{
	put(o, strlen(s) + 1, 4);
	memcpy(o->b + o->n, s, strlen(s) + 1);
	o->n += strlen(s) + 1;
}

/* Send a header and @len bytes of @p (its length field says @hdr_len). */
static int send_msg(int fd, uint32_t magic, uint16_t type, uint32_t hdr_len,
		    const struct bytes *p, size_t len, int pass_fd)
{
	struct bytes m = { .n = 0 };
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov;
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	put(&m, magic, 4);
	put(&m, type, 2);
	put(&m, 0, 2);
	put(&m, 0, 4);		/* seq: 0 for what the application starts */
	put(&m, hdr_len, 4);
	memcpy(m.b + m.n, p->b, len);
	m.n += len;
	iov = (struct iovec){ .iov_base = m.b, .iov_len = m.n };
	if (pass_fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		mh.msg_control = cbuf;
		mh.msg_controllen = sizeof(cbuf);
		cm = CMSG_FIRSTHDR(&mh);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &pass_fd, sizeof(int));
	}
	return sendmsg(fd, &mh, MSG_NOSIGNAL) == (ssize_t)m.n ? 0 : -1;
}

static void register_payload(struct bytes *p, uint32_t major, uint32_t bits)
{
	p->n = 0;
	put(p, major, 4);
	put(p, 0, 4);		/* minor */
	put(p, (uint32_t)getpid(), 4);
	put(p, (uint32_t)getppid(), 4);
	put(p, getuid(), 4);
	put(p, getgid(), 4);
	put(p, bits, 4);
	put(p, 1, 4);		/* nr_cpus */
	put_str(p, "bad_client");
}

/* Print the type of every message the daemon sends, then EOF or OPEN. */
static int read_replies(int fd, int until_one)
{
	unsigned char buf[65536];
	size_t have = 0, len;
	ssize_t n;

	for (;;) {
		while (have >= 16) {
			len = 16 + (buf[12] | buf[13] << 8 | (size_t)buf[14] << 16 |
				    (size_t)buf[15] << 24);
			if (have < len)
				break;
			printf("got %u\n", buf[4] | buf[5] << 8);
			memmove(buf, buf + len, have - len);
			have -= len;
			if (until_one)
				return 0;
		}
		if (have == sizeof(buf)) {
			printf("TOO BIG\n");
			return 1;
		}
		n = recv(fd, buf + have, sizeof(buf) - have, 0);
		if (n == 0 || (n < 0 && errno == ECONNRESET)) {
			printf("EOF\n");
			return 0;
		}
		if (n < 0) {
			printf("OPEN\n");
			return 0;
		}
		have += (size_t)n;
	}
}

/*
 * CASE:
 *   magic    a REGISTER with a wrong magic
 *   early    TRACEPOINTS before REGISTER
 *   major    REGISTER with protocol major 2
 *   short    REGISTER whose payload stops after 10 bytes
 *   bits     REGISTER with 48-bit longs
 *   fd       REGISTER carrying a file descriptor
 *   huge     a header announcing a 2 GiB payload
 *   stall    half a header, then nothing
 *   twice    REGISTER, then REGISTER again
 *   tps      REGISTER, then TRACEPOINTS with an event at log level 99
 *   ack      REGISTER, then an ACK of a command never sent
 *   drip     REGISTER, then a message one byte every 700 ms (it never ends)
 */
static int bad_client(const char *what, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 5 };
	struct bytes p = { .n = 0 };
	int fd, ret = 0;

	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "ust_app: %s: %s\n", path, strerror(errno));
		return 1;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	register_payload(&p, 1, 64);
	if (!strcmp(what, "magic")) {
		ret = send_msg(fd, 0x12345678U, REGISTER, (uint32_t)p.n, &p, p.n, -1);
	} else if (!strcmp(what, "early")) {
		p.n = 0;
		put(&p, 0, 4);
		ret = send_msg(fd, APP_MAGIC, TRACEPOINTS, (uint32_t)p.n, &p, p.n, -1);
	} else if (!strcmp(what, "major")) {
		register_payload(&p, 2, 64);
		ret = send_msg(fd, APP_MAGIC, REGISTER, (uint32_t)p.n, &p, p.n, -1);
	} else if (!strcmp(what, "short")) {
		ret = send_msg(fd, APP_MAGIC, REGISTER, 10, &p, 10, -1);
	} else if (!strcmp(what, "bits")) {
		register_payload(&p, 1, 48);
		ret = send_msg(fd, APP_MAGIC, REGISTER, (uint32_t)p.n, &p, p.n, -1);
	} else if (!strcmp(what, "fd")) {
		ret = send_msg(fd, APP_MAGIC, REGISTER, (uint32_t)p.n, &p, p.n, fd);
	} else if (!strcmp(what, "huge")) {
		ret = send_msg(fd, APP_MAGIC, REGISTER, 0x7fffffffU, &p, p.n, -1);
	} else if (!strcmp(what, "stall")) {
		ret = send(fd, "ATTL\x01\x00", 6, MSG_NOSIGNAL) == 6 ? 0 : -1;
	} else if (!strcmp(what, "drip")) {
		/* The attacker's own pace: the daemon must not wait for it. */
		struct timespec pace = { .tv_nsec = 700 * 1000000L };
		const char *hdr = "ATTL\x05\x00\x00\x00\x00\x00\x00\x00\x08\x00\x00\x00";
		int i;

		ret = send_msg(fd, APP_MAGIC, REGISTER, (uint32_t)p.n, &p, p.n, -1);
		if (!ret)
			ret = read_replies(fd, 1);
		for (i = 0; !ret && i < 16; i++) {
			if (send(fd, hdr + i, 1, MSG_NOSIGNAL) != 1)
				break;	/* dropped: read_replies says EOF */
			nanosleep(&pace, NULL);
		}
		if (!ret)
			printf("%s\n", i < 16 ? "dropped before the end" : "all sent");
	} else if (!strcmp(what, "twice") || !strcmp(what, "tps") || !strcmp(what, "ack")) {
		ret = send_msg(fd, APP_MAGIC, REGISTER, (uint32_t)p.n, &p, p.n, -1);
		if (!ret)
			ret = read_replies(fd, 1);
		if (!ret && !strcmp(what, "tps")) {
			p.n = 0;
			put(&p, 1, 4);		/* one tracepoint */
			put_str(&p, "bad:event");
			put(&p, 99, 4);		/* log level */
			put(&p, 0, 4);		/* no field */
		} else if (!ret && !strcmp(what, "ack")) {
			p.n = 0;
			put(&p, 1000, 4);	/* seq */
			put(&p, 0, 4);		/* status */
		}
		if (!ret)
			ret = send_msg(fd, APP_MAGIC, !strcmp(what, "twice") ? REGISTER :
				       !strcmp(what, "tps") ? TRACEPOINTS : ACK,
				       (uint32_t)p.n, &p, p.n, -1);
	} else {
		fprintf(stderr, "ust_app: unknown bad client case '%s'\n", what);
		return 2;
	}
	if (!ret)
		ret = read_replies(fd, 0);
	else
		printf("SEND FAILED: %s\n", strerror(errno));
	fflush(stdout);
	close(fd);
	return ret;
}

/* -p: a round of events per line of the rounds FIFO, "done" after each. */
static int rounds(struct opts *o)
{
	FILE *f = open_fifo(o->rounds_fifo, "r");
	char line[64];

	while (fgets(line, sizeof(line), f)) {
		if (run_threads(o))
			return 1;
		o->base += o->events;
		tell(o->kill_fifo, "done\n");
	}
	fclose(f);
	return 0;
}

int main(int argc, char **argv)
{
	struct opts o = { .events = 10, .threads = 1, .role = "main", .self = argv[0] };
	FILE *start = NULL;
	char line[64];
	int c;

	while ((c = getopt(argc, argv, "n:t:CTLGfxw:e:s:k:Sr:B:p:")) != -1) {
		switch (c) {
		case 'n':
			o.events = strtoul(optarg, NULL, 10);
			break;
		case 't':
			o.threads = atoi(optarg);
			if (o.threads < 1 || o.threads > 64)
				o.threads = 1;
			break;
		case 'C':
			o.pin = 1;
			break;
		case 'T':
			o.types = 1;
			break;
		case 'L':
			o.levels = 1;
			break;
		case 'G':
			o.getppid = 1;
			break;
		case 'f':
		case 'x':
			o.fork_mode = c;
			break;
		case 'w':
			o.ready_fifo = optarg;
			break;
		case 'e':
			o.enabled_wait_s = atoi(optarg);
			break;
		case 's':
			o.start_fifo = optarg;
			break;
		case 'k':
			o.kill_fifo = optarg;
			break;
		case 'S':
			o.scribble = 1;
			break;
		case 'r':
			o.role = optarg;
			break;
		case 'p':
			o.rounds_fifo = optarg;
			break;
		case 'B':
			if (optind != argc - 1)
				goto usage;
			return bad_client(optarg, argv[optind]);
		default:
			goto usage;
		}
	}
	signal(SIGTERM, on_term);
	/* Open the start FIFO before saying "ready": closing it then releases us. */
	if (o.start_fifo)
		start = open_fifo(o.start_fifo, "r");
	if (o.enabled_wait_s > 0 && wait_enabled(o.enabled_wait_s))
		return 1;
	if (o.ready_fifo) {
		snprintf(line, sizeof(line), "ready %ld\n", (long)getpid());
		tell(o.ready_fifo, line);
	}
	if (start)
		wait_fifo(start);
	if (o.rounds_fifo && o.kill_fifo)
		return rounds(&o);
	if (run_threads(&o))
		return 1;
	if (o.fork_mode && do_fork(&o))
		return 1;
	if (o.scribble)
		scribble();
	if (o.kill_fifo) {
		tell(o.kill_fifo, "done\n");
		for (;;)
			pause();
	}
	return 0;
usage:
	fprintf(stderr, "usage: ust_app [-n N] [-t T] [-C] [-T] [-L] [-f|-x] [-w FIFO] [-e S] [-s FIFO] [-k FIFO] [-S] [-r ROLE] [-p FIFO]\n"
			"       ust_app -B CASE SOCKET\n");
	return 2;
}
