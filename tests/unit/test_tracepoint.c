// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint.c - libltt-ust in a real program (test_tracepoint_app,
 * linked to the shared library) against a fake session daemon that speaks
 * app-proto.h from this process: start-up without a daemon, with a dead or
 * silent one, registration and the commands, a daemon that dies, fork() and
 * dlopen().  Each run gets its own run directory (LTT_RUNDIR).
 */
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/sysinfo.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "common/app-proto.h"
#include "common/msg.h"
#include "common/ringbuf.h"
#include "common/sock.h"
#include "tap.h"

#define MAX_PAYLOAD (LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE)
#define WAIT_MS 5000
#define CHAN_KEY 77

static char app_path[PATH_MAX];
static char plugin_path[PATH_MAX];

static uint64_t now_ms(void)
{
	return ltt_rb_clock() / 1000000u;
}

/* ---- the fake daemon ---- */

struct stream {
	void *mem;
	size_t len;
	int shm_fd;
	int wake_fd;
};

struct fake {
	char dir[64];
	char sock_path[128];
	int lfd;		/* listening */
	int fd;			/* the application's connection */
	uint32_t seq;
	uint32_t nr_streams;
	struct stream *streams;
	/* what the application said */
	uint32_t pid, ppid, nr_cpus;
	char procname[17];
	unsigned int nr_tps;
	char names[64][LTT_APP_NAME_MAX];
	int loglevels[64];
};

static void fake_init(struct fake *f, bool listen)
{
	memset(f, 0, sizeof(*f));
	f->lfd = -1;
	f->fd = -1;
	strcpy(f->dir, "/tmp/ltt-test-app-XXXXXX");
	if (!mkdtemp(f->dir))
		exit(1);
	snprintf(f->sock_path, sizeof(f->sock_path), "%s/%s", f->dir, LTT_APP_SOCKET_NAME);
	if (listen && ltt_sock_listen_unix(f->sock_path, 0600, &f->lfd))
		exit(1);
}

static void fake_fini(struct fake *f)
{
	uint32_t i;

	if (f->fd >= 0)
		close(f->fd);
	if (f->lfd >= 0)
		close(f->lfd);
	for (i = 0; i < f->nr_streams; i++) {
		munmap(f->streams[i].mem, f->streams[i].len);
		close(f->streams[i].shm_fd);
		close(f->streams[i].wake_fd);
	}
	free(f->streams);
	unlink(f->sock_path);
	rmdir(f->dir);
}

static bool wait_readable(int fd, int ms)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	return poll(&p, 1, ms) == 1;
}

static bool fake_accept(struct fake *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (!wait_readable(f->lfd, WAIT_MS))
		return false;
	f->fd = accept4(f->lfd, NULL, NULL, SOCK_CLOEXEC);
	return f->fd >= 0;
}

static void record_tracepoints(struct fake *f, const struct ltt_msg *m)
{
	struct ltt_rbuf r;
	uint32_t n, i;

	ltt_rbuf_init(&r, m->payload, m->hdr.payload_len);
	n = ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		struct ltt_app_tracepoint *tp;

		if (ltt_app_get_tracepoint(&r, &tp))
			break;
		if (f->nr_tps < 64) {
			snprintf(f->names[f->nr_tps], LTT_APP_NAME_MAX, "%s", tp->name);
			f->loglevels[f->nr_tps++] = tp->loglevel;
		}
		free(tp);
	}
	if (ltt_rbuf_end(&r))
		tap_diag("a malformed TRACEPOINTS message");
}

/* The next message of @type; TRACEPOINTS met on the way are recorded. */
static bool fake_recv(struct fake *f, uint16_t type, struct ltt_msg *ret)
{
	for (;;) {
		struct ltt_msg m;

		if (!wait_readable(f->fd, WAIT_MS) ||
		    ltt_msg_recv(f->fd, LTT_APP_MAGIC, MAX_PAYLOAD, LTT_APP_MAX_FDS, &m))
			return false;
		if (m.hdr.type == LTT_APP_MSG_TRACEPOINTS)
			record_tracepoints(f, &m);
		if (m.hdr.type == type) {
			*ret = m;
			return true;
		}
		ltt_msg_fini(&m);
	}
}

static bool fake_send(struct fake *f, uint16_t type, uint32_t seq, const struct ltt_wbuf *w,
		      const int *fds, unsigned int nr_fds)
{
	return !ltt_msg_send(f->fd, LTT_APP_MAGIC, type, seq, w ? w->data : NULL, w ? w->len : 0,
			     fds, nr_fds);
}

/* Accept, read REGISTER, accept it, read TRACEPOINTS. */
static bool fake_register(struct fake *f)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	struct ltt_msg m;
	uint32_t major;

	if (!fake_accept(f) || !fake_recv(f, LTT_APP_MSG_REGISTER, &m))
		return false;
	ltt_rbuf_init(&r, m.payload, m.hdr.payload_len);
	major = ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_u32(&r);
	f->pid = ltt_rbuf_get_u32(&r);
	f->ppid = ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_u32(&r);
	f->nr_cpus = ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_str_copy(&r, f->procname, sizeof(f->procname));
	ltt_msg_fini(&m);
	if (ltt_rbuf_end(&r) || major != LTT_APP_MAJOR)
		return false;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_APP_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_APP_MINOR);
	f->nr_tps = 0;
	if (!fake_send(f, LTT_APP_MSG_REGISTER_OK, 0, &w, NULL, 0) ||
	    !fake_recv(f, LTT_APP_MSG_TRACEPOINTS, &m)) {
		ltt_wbuf_fini(&w);
		return false;
	}
	ltt_msg_fini(&m);
	ltt_wbuf_fini(&w);
	return true;
}

static bool fake_done(struct fake *f)
{
	return fake_send(f, LTT_APP_MSG_REGISTER_DONE, 0, NULL, NULL, 0);
}

/* Send a command, return its ACK status (or INT_MIN when there is none). */
static int fake_command(struct fake *f, uint16_t type, struct ltt_wbuf *w, const int *fds,
			unsigned int nr_fds)
{
	uint32_t seq = ++f->seq, acked;
	struct ltt_rbuf r;
	struct ltt_msg m;
	int32_t status;

	if (!fake_send(f, type, seq, w, fds, nr_fds) || !fake_recv(f, LTT_APP_MSG_ACK, &m))
		return INT_MIN;
	ltt_rbuf_init(&r, m.payload, m.hdr.payload_len);
	acked = ltt_rbuf_get_u32(&r);
	status = (int32_t)ltt_rbuf_get_u32(&r);
	ltt_msg_fini(&m);
	if (ltt_rbuf_end(&r) || acked != seq)
		return INT_MIN;
	return status;
}

static void make_streams(struct fake *f, uint32_t nr)
{
	uint32_t i;

	f->nr_streams = nr;
	f->streams = calloc(nr, sizeof(*f->streams));
	for (i = 0; i < nr; i++) {
		struct ltt_rb_config cfg = { .subbuf_size = 4096, .num_subbuf = 4, .cpu = i };
		struct stream *s = &f->streams[i];

		s->len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
		s->shm_fd = memfd_create("ltt-test", MFD_CLOEXEC | MFD_ALLOW_SEALING);
		if (s->shm_fd < 0 || ftruncate(s->shm_fd, (off_t)s->len) ||
		    fcntl(s->shm_fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL))
			exit(1);
		s->mem = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_SHARED, s->shm_fd, 0);
		if (s->mem == MAP_FAILED || ltt_rb_init_region(s->mem, s->len, &cfg))
			exit(1);
		s->wake_fd = eventfd(0, EFD_CLOEXEC);
	}
}

/* CHANNEL_ADD of @f's streams (made on first use); returns the ACK status. */
static int fake_channel_add(struct fake *f, uint64_t key)
{
	struct ltt_wbuf w;
	int *fds, ret;
	uint32_t i;

	if (!f->nr_streams)
		make_streams(f, (uint32_t)get_nprocs_conf());
	fds = calloc(2 * f->nr_streams, sizeof(int));
	for (i = 0; i < f->nr_streams; i++) {
		fds[2 * i] = f->streams[i].shm_fd;
		fds[2 * i + 1] = f->streams[i].wake_fd;
	}
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u64(&w, 1);	/* session */
	ltt_wbuf_put_u32(&w, 0);	/* stream id */
	ltt_wbuf_put_u8(&w, 1);		/* enabled */
	ltt_wbuf_put_u32(&w, f->nr_streams);
	ret = fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2 * f->nr_streams);
	ltt_wbuf_fini(&w);
	free(fds);
	return ret;
}

static int fake_event_enable(struct fake *f, uint64_t key, const char *name, uint32_t id)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_str(&w, name);
	ltt_wbuf_put_u32(&w, id);
	ret = fake_command(f, LTT_APP_MSG_EVENT_ENABLE, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

static int find_tp(const struct fake *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nr_tps; i++)
		if (!strcmp(f->names[i], name))
			return (int)i;
	return -1;
}

#define TRACEF_ID 2

/*
 * The events recorded in every stream: their ids and v values, in stream
 * order.  All are of layout {int v, string s} (app:first, plugin:hello)
 * but id TRACEF_ID, {string msg}, whose v is the number after its space.
 */
static unsigned int read_events(struct fake *f, uint32_t *ids, int *values, unsigned int max)
{
	unsigned int n = 0;
	uint32_t i;

	for (i = 0; i < f->nr_streams; i++) {
		struct ltt_rb_packet pkt;
		struct ltt_rb rd;
		int ret;

		if (ltt_rb_attach(&rd, f->streams[i].mem, f->streams[i].len))
			continue;
		ltt_rb_flush(&rd, false);
		while ((ret = ltt_rb_get_next_subbuf(&rd, &pkt)) != -EAGAIN) {
			const uint8_t *p = (const uint8_t *)pkt.data + LTT_RB_PACKET_HEADER_SIZE;
			const uint8_t *end = (const uint8_t *)pkt.data + pkt.content_size;
			uint32_t word, id;

			while (!ret && p + 4 <= end && n < max) {
				memcpy(&word, p, 4);
				if ((word & 31) == 31) {
					memcpy(&id, p + 1, 4);
					p += 13;
				} else {
					id = word & 31;
					p += 4;
				}
				ids[n] = id;
				if (id == TRACEF_ID) {
					const char *sp = memchr(p, ' ', (size_t)(end - p));

					values[n++] = sp ? atoi(sp + 1) : -1;
				} else {
					memcpy(&values[n++], p, 4);
					p += 4;
				}
				p += strnlen((const char *)p, (size_t)(end - p)) + 1;
			}
			if (!ret)
				ltt_rb_put_subbuf(&rd, &pkt);
		}
	}
	return n;
}

/* ---- running the application ---- */

/* Run the application in @f's run directory; its stdout into *@out_fd if given. */
static pid_t spawn(const struct fake *f, const char *timeout, const char *const *args,
		   int *out_fd)
{
	int pipefd[2] = { -1, -1 };
	pid_t pid;

	if (out_fd && pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[8] = { app_path };
		int i;

		if (out_fd) {
			dup2(pipefd[1], STDOUT_FILENO);
			close(pipefd[0]);
			close(pipefd[1]);
		} else if (!freopen("/dev/null", "w", stdout)) {
			_exit(126);
		}
		if (f->lfd >= 0)
			close(f->lfd);

		for (i = 0; args[i] && i < 6; i++)
			argv[i + 1] = (char *)args[i];	/* execv() does not write them */
		setenv("LTT_RUNDIR", f->dir, 1);
		setenv("LTT_HOME", f->dir, 1);
		if (timeout)
			setenv("LTT_UST_REGISTER_TIMEOUT", timeout, 1);
		else
			unsetenv("LTT_UST_REGISTER_TIMEOUT");
		execv(app_path, argv);
		_exit(127);
	}
	if (out_fd) {
		close(pipefd[1]);
		*out_fd = pipefd[0];
	}
	return pid;
}

/* Wait for @pid at most @ms; its exit status, or -1 (killed) on timeout. */
static int reap(pid_t pid, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms;
	int status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(2000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* ---- the tests ---- */

/* No daemon at all: runs at once, tracepoints off, start-up cost small. */
static void test_no_daemon(void)
{
	const char *args[] = { "quick", NULL };
	char line[64] = "";
	uint64_t t0, best = UINT64_MAX;
	unsigned long long ns = 0, best_ns = ULLONG_MAX;
	struct fake f;
	int i, ok = 0;

	fake_init(&f, false);
	for (i = 0; i < 5; i++) {
		int out = -1;
		pid_t pid;
		FILE *fp;

		t0 = now_ms();
		pid = spawn(&f, NULL, args, &out);
		fp = fdopen(out, "r");
		if (fp && fgets(line, sizeof(line), fp) && sscanf(line, "startup_ns %llu", &ns) == 1 &&
		    ns < best_ns)
			best_ns = ns;
		if (fp)
			fclose(fp);
		ok += reap(pid, WAIT_MS) == 0;
		if (now_ms() - t0 < best)
			best = now_ms() - t0;
	}
	tap_is_int(ok, 5, "no daemon: the program runs, its disabled tracepoints stay off");
	/* Waiting would take the default 3 s registration timeout. */
	tap_ok(best < 1500, "no daemon, default timeout: no wait (%llu ms per run)",
	       (unsigned long long)best);
	/* A figure, not a pass/fail time: the benches under bench/ measure it. */
	tap_ok(best_ns != ULLONG_MAX, "the program reports its start-up cost (%llu us)",
	       best_ns / 1000);
	fake_fini(&f);
}

/* A socket file nobody listens on: refused at once, no wait either. */
static void test_dead_socket(void)
{
	const char *args[] = { "quick", NULL };
	struct fake f;
	uint64_t t0;
	int status;

	fake_init(&f, true);
	close(f.lfd);	/* the file stays, the listener is gone */
	f.lfd = -1;
	t0 = now_ms();
	status = reap(spawn(&f, "30000", args, NULL), WAIT_MS);
	tap_is_int(status, 0, "dead daemon socket: the program runs");
	/* Waiting would take the 30 s registration timeout. */
	tap_ok(now_ms() - t0 < 15000, "dead daemon socket: no wait");
	fake_fini(&f);
}

/* A daemon that never answers: the wait is LTT_UST_REGISTER_TIMEOUT. */
static void test_silent_daemon(void)
{
	const char *args[] = { "quick", NULL };
	struct fake f;
	uint64_t t0, took;
	int status;

	fake_init(&f, true);
	t0 = now_ms();
	status = reap(spawn(&f, "300", args, NULL), WAIT_MS);
	took = now_ms() - t0;
	tap_is_int(status, 0, "silent daemon: the program runs");
	tap_ok(took >= 300 && took < 2000, "silent daemon: waited LTT_UST_REGISTER_TIMEOUT (%llu ms)",
	       (unsigned long long)took);
	fake_fini(&f);
}

/* A channel whose region is garbage, and commands that are wrong. */
static void check_refusals(struct fake *f)
{
	struct ltt_wbuf w;
	int fds[2], status;

	fds[0] = memfd_create("ltt-bad", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	fds[1] = eventfd(0, EFD_CLOEXEC);
	if (ftruncate(fds[0], 3 * 4096) == 0 && write(fds[0], "garbage", 7) == 7 &&
	    !fcntl(fds[0], F_ADD_SEALS, F_SEAL_SHRINK)) {
		ltt_wbuf_init(&w);
		ltt_wbuf_put_u64(&w, CHAN_KEY + 1);
		ltt_wbuf_put_u64(&w, 1);
		ltt_wbuf_put_u32(&w, 0);
		ltt_wbuf_put_u8(&w, 1);
		ltt_wbuf_put_u32(&w, 1);
		status = fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2);
		tap_ok(status < 0 && status != INT_MIN, "a corrupt region is refused (%d)", status);
		ltt_wbuf_fini(&w);
	}
	close(fds[0]);
	close(fds[1]);
	/* a good region, but not sealed: it could shrink under the program */
	fds[0] = memfd_create("ltt-unsealed", MFD_CLOEXEC);
	fds[1] = eventfd(0, EFD_CLOEXEC);
	if (!ftruncate(fds[0], (off_t)f->streams[0].len)) {
		ltt_wbuf_init(&w);
		ltt_wbuf_put_u64(&w, CHAN_KEY + 2);
		ltt_wbuf_put_u64(&w, 1);
		ltt_wbuf_put_u32(&w, 0);
		ltt_wbuf_put_u8(&w, 1);
		ltt_wbuf_put_u32(&w, 1);
		tap_is_int(fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2), -EPERM,
			   "a region not sealed against shrinking is refused");
		ltt_wbuf_fini(&w);
	}
	close(fds[0]);
	close(fds[1]);
	tap_is_int(fake_command(f, 99, NULL, NULL, 0), -ENOSYS, "an unknown command: ENOSYS");
	tap_is_int(fake_event_enable(f, CHAN_KEY, "app:nosuch", 3), -ENOENT,
		   "an unknown event: ENOENT");
	tap_is_int(fake_event_enable(f, CHAN_KEY + 5, "app:first", 3), -ENOENT,
		   "an unknown channel: ENOENT");
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, 1);	/* too short for CHANNEL_ENABLE */
	tap_is_int(fake_command(f, LTT_APP_MSG_CHANNEL_ENABLE, &w, NULL, 0), -EPROTO,
		   "a malformed command: EPROTO");
	ltt_wbuf_fini(&w);
}

/* Registration, the commands, an event enabled before main(). */
static void test_register(void)
{
	const char *args[] = { "first", NULL };
	uint32_t ids[16];
	int values[16], i, status;
	struct fake f;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	pid = spawn(&f, NULL, args, NULL);
	if (!tap_ok(fake_register(&f), "REGISTER, REGISTER_OK, TRACEPOINTS")) {
		reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	tap_is_int(f.pid, pid, "REGISTER: the pid");
	tap_is_int(f.nr_cpus, get_nprocs_conf(), "REGISTER: the CPUs");
	tap_ok(f.procname[0] != '\0', "REGISTER: the process name (%s)", f.procname);
	i = find_tp(&f, "app:warn");
	tap_ok(find_tp(&f, "app:first") >= 0 && i >= 0 && f.loglevels[i] == 4 &&
	       find_tp(&f, "ltt_ust_tracef:event") >= 0, "TRACEPOINTS: names and levels, in one message");
	tap_is_int(fake_channel_add(&f, CHAN_KEY), 0, "CHANNEL_ADD acknowledged");
	check_refusals(&f);
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "app:first", 0), 0, "EVENT_ENABLE acknowledged");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "ltt_ust_tracef:event", TRACEF_ID), 0,
		   "EVENT_ENABLE of tracef");
	tap_ok(fake_done(&f), "REGISTER_DONE");
	status = reap(pid, WAIT_MS);
	tap_is_int(status, 0, "the program ran and exited");
	n = read_events(&f, ids, values, 16);
	tap_ok(n == 2 && ids[0] == 0 && values[0] == 42,
	       "the first call of main() was recorded, after exit (%u events)", n);
	tap_ok(n == 2 && ids[1] == TRACEF_ID && values[1] == 43, "and ltt_tracef() after it");
	fake_fini(&f);
}

/*
 * Wait (bounded) until the program has reserved more than @bytes in its
 * streams: the test syncs on the shared memory, not on time.
 */
static bool wait_written(struct fake *f, uint64_t bytes, int ms)
{
	uint64_t end = now_ms() + (uint64_t)ms, sum;
	uint32_t i;

	do {
		sum = 0;
		for (i = 0; i < f->nr_streams; i++) {
			const struct ltt_rb_shm *shm = f->streams[i].mem;

			sum += __atomic_load_n(&shm->offset, __ATOMIC_RELAXED);
		}
		if (sum > bytes)
			return true;
		sched_yield();
	} while (now_ms() < end);
	return false;
}

/* The daemon goes away mid-run, then comes back: the program carries on. */
static void test_daemon_dies(void)
{
	const char *args[] = { "loop", "1500", NULL };
	uint32_t ids[4096];
	int values[4096], status;
	struct fake f;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	pid = spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY) ||
	    fake_event_enable(&f, CHAN_KEY, "app:first", 0) || !fake_done(&f)) {
		tap_ok(false, "registration for the dying-daemon test");
		reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	/* Over 20 events in: a packet header per stream, then at most 16 bytes each. */
	tap_ok(wait_written(&f, f.nr_streams * LTT_RB_PACKET_HEADER_SIZE + 20 * 16, WAIT_MS),
	       "the program records events");
	close(f.fd);		/* the daemon "dies" */
	f.fd = -1;
	tap_ok(fake_register(&f) && f.pid == (uint32_t)pid,
	       "after the daemon's death, the program registers again");
	tap_ok(fake_done(&f), "second registration done");
	status = reap(pid, WAIT_MS);
	tap_is_int(status, 0, "the program survived and exited normally");
	n = read_events(&f, ids, values, 4096);
	tap_ok(n > 10 && n < 1500, "events recorded until the daemon died, not after (%u)", n);
	fake_fini(&f);
}

/* fork(): the child registers as itself, with nothing of its parent's. */
static void test_fork(void)
{
	const char *args[] = { "fork", NULL };
	uint32_t ids[16];
	int values[16], status;
	struct fake f;
	unsigned int n;
	pid_t pid;
	int parent_fd;

	fake_init(&f, true);
	pid = spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY) ||
	    fake_event_enable(&f, CHAN_KEY, "app:first", 0) || !fake_done(&f)) {
		tap_ok(false, "registration for the fork test");
		reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	parent_fd = f.fd;
	f.fd = -1;
	tap_ok(fake_register(&f), "the child registers");
	tap_ok(f.ppid == (uint32_t)pid && f.pid != (uint32_t)pid,
	       "as itself (pid %u, parent %u)", f.pid, f.ppid);
	tap_ok(find_tp(&f, "app:first") >= 0, "with its tracepoints");
	fake_done(&f);
	status = reap(pid, WAIT_MS);
	tap_is_int(status, 0, "parent and child ran (the child's tracepoints were off)");
	n = read_events(&f, ids, values, 16);
	tap_ok(n == 2 && values[0] + values[1] == 4,
	       "only the parent's events are in the parent's buffers (%u)", n);
	close(parent_fd);
	fake_fini(&f);
}

/* dlopen(): the module's tracepoints are reported and can be enabled. */
static void test_dlopen(void)
{
	const char *args[] = { "dlopen", plugin_path, NULL };
	uint64_t t0;
	uint32_t ids[16];
	int values[16], status;
	struct fake f;
	struct ltt_msg m;
	unsigned int n;
	pid_t pid;

	fake_init(&f, true);
	pid = spawn(&f, NULL, args, NULL);
	if (!fake_register(&f) || fake_channel_add(&f, CHAN_KEY) || !fake_done(&f)) {
		tap_ok(false, "registration for the dlopen test");
		reap(pid, WAIT_MS);
		fake_fini(&f);
		return;
	}
	tap_ok(find_tp(&f, "plugin:hello") < 0, "the plugin's events are not known before");
	f.nr_tps = 0;
	tap_ok(fake_recv(&f, LTT_APP_MSG_TRACEPOINTS, &m), "dlopen(): a new TRACEPOINTS message");
	ltt_msg_fini(&m);
	tap_ok(find_tp(&f, "plugin:hello") >= 0 && find_tp(&f, "app:first") < 0,
	       "with the plugin's events only");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, "plugin:hello", 1), 0, "enable the plugin's event");
	tap_ok(fake_done(&f), "REGISTER_DONE answers it");
	t0 = now_ms();
	status = reap(pid, WAIT_MS);
	tap_is_int(status, 0, "dlopen() returned with the event enabled (%d)", status);
	tap_ok(now_ms() - t0 < 1000, "as soon as REGISTER_DONE came, not at the timeout");
	n = read_events(&f, ids, values, 16);
	tap_ok(n == 1 && ids[0] == 1 && values[0] == 7, "the plugin's event was recorded");
	fake_fini(&f);
}

static void find_programs(void)
{
	char self[PATH_MAX - 64];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0)
		exit(1);
	self[len] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(app_path, sizeof(app_path), "%s/test_tracepoint_app", self);
	snprintf(plugin_path, sizeof(plugin_path), "%s/.libs/test_tracepoint_plugin.so", self);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	find_programs();
	test_no_daemon();
	test_dead_socket();
	test_silent_daemon();
	test_register();
	test_daemon_dies();
	test_fork();
	test_dlopen();
	return tap_done();
}
