// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fake-app.c - the fake session daemon of fake-app.h.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <sched.h>
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

#include "common/trace/ringbuf.h"
#include "common/base/sock.h"
#include "fake-app.h"
#include "tap.h"

#define MAX_PAYLOAD (LTT_APP_MSG_MAX - LTT_MSG_HDR_SIZE)
#define WAIT_MS FAKE_WAIT_MS

char fake_app_path[PATH_MAX];

void fake_program_path(const char *name, char *out, size_t size)
{
	char self[PATH_MAX - 64];
	ssize_t len = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (len <= 0)
		exit(1);
	self[len] = '\0';
	slash = strrchr(self, '/');
	*slash = '\0';
	snprintf(out, size, "%s/%s", self, name);
}

uint64_t fake_now_ms(void)
{
	return ltt_tclock_mono() / 1000000u;
}

void fake_init(struct fake *f, bool listen)
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

void fake_fini(struct fake *f)
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
		if (f->streams[i].given_fd >= 0)
			close(f->streams[i].given_fd);
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

bool fake_accept(struct fake *f)
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
	if (ltt_rbuf_end(&r)) {
		tap_diag("a malformed TRACEPOINTS message");
		f->bad_tps++;
	}
}

/* The next message of @type; TRACEPOINTS met on the way are recorded. */
bool fake_recv(struct fake *f, uint16_t type, struct ltt_msg *ret)
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

bool fake_send(struct fake *f, uint16_t type, uint32_t seq, const struct ltt_wbuf *w,
		      const int *fds, unsigned int nr_fds)
{
	return !ltt_msg_send(f->fd, LTT_APP_MAGIC, type, seq, w ? w->data : NULL, w ? w->len : 0,
			     fds, nr_fds);
}

/* Accept, read REGISTER, accept it, read TRACEPOINTS. */
bool fake_register(struct fake *f)
{
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
	f->nr_tps = 0;
	if (!fake_register_ok(f) || !fake_recv(f, LTT_APP_MSG_TRACEPOINTS, &m))
		return false;
	ltt_msg_fini(&m);
	return true;
}

bool fake_register_ok(struct fake *f)
{
	struct ltt_wbuf w;
	bool ok;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_APP_MAJOR);
	ltt_wbuf_put_u32(&w, f->minor ? f->minor : LTT_APP_MINOR);
	ok = fake_send(f, LTT_APP_MSG_REGISTER_OK, 0, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	return ok;
}

bool fake_done(struct fake *f)
{
	return fake_send(f, LTT_APP_MSG_REGISTER_DONE, 0, NULL, NULL, 0);
}

/* Send a command, return its ACK status (or INT_MIN when there is none). */
int fake_command(struct fake *f, uint16_t type, struct ltt_wbuf *w, const int *fds,
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
		s->given_fd = -1;
	}
}

/* CHANNEL_ADD of @f's streams (made on first use); returns the ACK status. */
int fake_channel_add(struct fake *f, uint64_t key)
{
	struct ltt_wbuf w;
	int *fds, ret;
	uint32_t i;
	bool own;

	if (!f->nr_streams)
		make_streams(f, (uint32_t)get_nprocs_conf());
	own = (f->minor ? f->minor : LTT_APP_MINOR) >= LTT_APP_MINOR_OWN_FD;
	fds = calloc(2 * f->nr_streams, sizeof(int));
	for (i = 0; i < f->nr_streams; i++) {
		fds[2 * i] = own ? ltt_rb_own_fd(f->streams[i].shm_fd) : f->streams[i].shm_fd;
		fds[2 * i + 1] = f->streams[i].wake_fd;
		if (fds[2 * i] < 0)
			exit(1);
	}
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, key);
	ltt_wbuf_put_u64(&w, 1);	/* session */
	ltt_wbuf_put_u32(&w, 0);	/* stream id */
	ltt_wbuf_put_u8(&w, 1);		/* enabled */
	ltt_wbuf_put_u32(&w, f->nr_streams);
	ret = fake_command(f, LTT_APP_MSG_CHANNEL_ADD, &w, fds, 2 * f->nr_streams);
	ltt_wbuf_fini(&w);
	for (i = 0; own && i < f->nr_streams; i++) {
		if (f->keep_given)
			f->streams[i].given_fd = fds[2 * i];
		else
			close(fds[2 * i]);
	}
	free(fds);
	return ret;
}

int fake_key_command(struct fake *f, uint16_t type, uint64_t key)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_app_put_channel_key(&w, key);
	ret = fake_command(f, type, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

int fake_event_enable(struct fake *f, uint64_t key, const char *name, uint32_t id)
{
	/* layout 0: every description of the name (minor 8); none before */
	const struct ltt_app_event_msg m = { .channel_key = key, .name = name, .event_id = id };
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_app_put_event_enable_v(&w, &m, f->minor ? f->minor : LTT_APP_MINOR);
	ret = fake_command(f, LTT_APP_MSG_EVENT_ENABLE, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

int fake_find_tp(const struct fake *f, const char *name)
{
	unsigned int i;

	for (i = 0; i < f->nr_tps; i++)
		if (!strcmp(f->names[i], name))
			return (int)i;
	return -1;
}

/*
 * lttng_ust_tracef:event's payload at @p, {u32 length, bytes}: its value is
 * the number after the message's space (-1 without one).  Returns the
 * end of the payload, or @end when it is cut short.
 */
static const uint8_t *tracef_value(const uint8_t *p, const uint8_t *end, int *value)
{
	char text[64] = "";
	uint32_t len;

	*value = -1;
	if (end - p < 4)
		return end;
	memcpy(&len, p, 4);
	p += 4;
	if (len > (size_t)(end - p))
		return end;
	memcpy(text, p, len < sizeof(text) - 1 ? len : sizeof(text) - 1);
	if (strchr(text, ' '))
		*value = atoi(strchr(text, ' ') + 1);
	return p + len;
}

/*
 * The events recorded in every stream: their ids and v values, in stream
 * order.  All are of layout {int v, string s} (app:first, plugin:hello)
 * but id TRACEF_ID, {text sequence msg}, whose v is the number after its
 * space.
 */
unsigned int fake_read_events(struct fake *f, uint32_t *ids, int *values, unsigned int max)
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
					p = tracef_value(p, end, &values[n++]);
				} else if (f->bare_id && id == f->bare_id) {
					values[n++] = 0;
				} else {
					memcpy(&values[n++], p, 4);
					p += 4;
					p += strnlen((const char *)p, (size_t)(end - p)) + 1;
				}
			}
			if (!ret)
				ltt_rb_put_subbuf(&rd, &pkt);
		}
	}
	return n;
}

/* ---- running the application ---- */

/* Run the application in @f's run directory; its stdout into *@out_fd if given. */
pid_t fake_spawn(const struct fake *f, const char *timeout, const char *const *args,
		   int *out_fd)
{
	int pipefd[2] = { -1, -1 };
	pid_t pid;

	if (out_fd && pipe(pipefd))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *argv[8] = { fake_app_path };
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
		execv(fake_app_path, argv);
		_exit(127);
	}
	if (out_fd) {
		close(pipefd[1]);
		*out_fd = pipefd[0];
	}
	return pid;
}

/* Wait for @pid at most @ms; its exit status, or -1 (killed) on timeout. */
int fake_reap(pid_t pid, int ms)
{
	uint64_t end = fake_now_ms() + (uint64_t)ms;
	int status;

	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (fake_now_ms() > end) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			return -1;
		}
		usleep(2000);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}


/*
 * Wait (bounded) until the program has reserved more than @bytes in its
 * streams: the test syncs on the shared memory, not on time.
 */
bool fake_wait_written(struct fake *f, uint64_t bytes, int ms)
{
	uint64_t end = fake_now_ms() + (uint64_t)ms, sum;
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
	} while (fake_now_ms() < end);
	return false;
}
