// SPDX-License-Identifier: GPL-2.0-only
/*
 * peer_hold.c - many connections to a session daemon's app.sock, each
 * behaving as a program that stalls, lies or floods would, held open for
 * the resource-bound tests (test_sessiond_bounds.sh).
 *
 * Usage: peer_hold SOCKET MODE N [ARG]
 *
 *   silent        connect, send nothing
 *   partial       connect, send 8 bytes of a REGISTER header
 *   register      REGISTER, read REGISTER_OK, then nothing more
 *   idle          register completely (REGISTER, TRACEPOINTS with ARG
 *                 events, default 0), then behave: acknowledge every
 *                 command, send nothing else
 *   deaf          register completely like idle, then never read again
 *   huge          a REGISTER header announcing ARG bytes of payload, then
 *                 as much of it as the socket takes at once, up to 1 MiB
 *   bad           N times in a row: connect, send a header with a wrong
 *                 magic, wait for the daemon to close; prints "BAD closed=C"
 *   mutate        N times in a row: connect, send a real registration
 *                 (REGISTER, TRACEPOINTS of 4 events) with a few bytes
 *                 changed, as a mutational fuzzer does (seeded by ARG),
 *                 acknowledge what the daemon sends until it says
 *                 REGISTER_DONE, closes, or is quiet for 200 ms, then
 *                 close; prints "MUTATED sent=S registered=R closed=C"
 *                 (S: the connections made)
 *
 * Events are named "peer_hold:evI" for I from 0, or from PEER_HOLD_FIRST
 * when the environment sets it (programs announcing new names).  Each
 * registers with protocol minor PEER_HOLD_MINOR when set (an older
 * program), else ours, and as a program of PEER_HOLD_BITS bits (32: a
 * 32-bit program's buffers) when set, else its own; in idle and deaf, PEER_HOLD_LOGGER set, it then
 * reports that logger (LOGGERS, as a python agent does) and waits for
 * the answer to an empty TRACEPOINTS, so the daemon has it when it says
 * HELD.
 *
 * Once its N connections are set up, it prints one line:
 *   "HELD opened=O registered=R closed=C" (registered: REGISTER_DONE or,
 *   for "register", REGISTER_OK came; closed: the daemon closed first),
 * then serves them until its standard input closes, printing
 * "ALL-CLOSED" once the daemon has closed every one of them.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "common/proto/msg.h"

#define MAX_CONNS 4096
#define WAIT_MS 20000

enum mode { SILENT, PARTIAL, REGISTER, IDLE, DEAF, HUGE, BAD, MUTATE };

struct peer {
	int fd;
	bool registered;
	bool closed;
};

/* REGISTER's payload, as this program registers, into @w */
static void put_register(struct ltt_wbuf *w)
{
	const char *minor = getenv("PEER_HOLD_MINOR"), *bits = getenv("PEER_HOLD_BITS");
	struct ltt_app_register m = {
		.major = LTT_APP_MAJOR,
		.minor = minor ? (uint32_t)strtoul(minor, NULL, 10) : LTT_APP_MINOR,
		.pid = (uint32_t)getpid(), .ppid = (uint32_t)getppid(),
		.uid = (uint32_t)getuid(), .gid = (uint32_t)getgid(),
		.bits_per_long = bits ? (uint32_t)strtoul(bits, NULL, 10) : sizeof(long) * 8,
		.nr_cpus = 1, .procname = "peer_hold",
	};

	ltt_app_put_register(w, &m);
}

static int send_register(int fd)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	put_register(&w);
	ret = w.err ? w.err : ltt_msg_send(fd, LTT_APP_MAGIC, LTT_APP_MSG_REGISTER, 0, w.data,
					   w.len, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * TRACEPOINTS with @n events "peer_hold:evI" (I from PEER_HOLD_FIRST, else
 * 0), each with one integer field.
 */
static void put_tracepoints(struct ltt_wbuf *w, unsigned int n)
{
	const char *first_env = getenv("PEER_HOLD_FIRST");
	unsigned long first = first_env ? strtoul(first_env, NULL, 10) : 0;
	static char fname[] = "value", none[] = "";
	struct ltt_app_field field = {
		.name = fname, .type = LTT_UST_TYPE_INTEGER, .size = 4, .is_signed = 1,
		.base = 10, .enum_name = none,
	};
	struct ltt_app_tracepoint tp = { .loglevel = 13, .nr_fields = 1, .fields = &field };
	char name[64];
	size_t start;
	unsigned int i;

	start = ltt_app_put_tracepoints_start(w);
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "peer_hold:ev%lu", first + i);
		tp.name = name;
		ltt_app_put_app_tracepoint(w, &tp);
	}
	ltt_app_put_tracepoints_finish(w, start, n);
}

static int send_tracepoints(int fd, unsigned int n)
{
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	put_tracepoints(&w, n);
	ret = w.err ? w.err : ltt_msg_send(fd, LTT_APP_MAGIC, LTT_APP_MSG_TRACEPOINTS, 0, w.data,
					   w.len, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

/* LOGGERS of PEER_HOLD_LOGGER, if set: 0, or the send's error. */
static int send_logger(int fd)
{
	const char *name = getenv("PEER_HOLD_LOGGER");
	struct ltt_wbuf w;
	int ret;

	if (!name)
		return 0;
	ltt_wbuf_init(&w);
	ltt_app_put_loggers(&w, &name, 1, 4096);
	ret = w.err ? w.err : ltt_msg_send(fd, LTT_APP_MAGIC, LTT_APP_MSG_LOGGERS, 0, w.data,
					   w.len, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

/* Read one message from @p; ack commands.  Returns its type, or -1: closed. */
static int serve_one(struct peer *p)
{
	struct ltt_app_ack ack = { 0 };
	struct ltt_msg msg;
	struct ltt_wbuf w;
	int type;

	if (ltt_msg_recv(p->fd, LTT_APP_MAGIC, LTT_APP_MSG_MAX, LTT_APP_MAX_FDS, &msg)) {
		p->closed = true;
		close(p->fd);
		p->fd = -1;
		return -1;
	}
	type = msg.hdr.type;
	if (type != LTT_APP_MSG_REGISTER_OK && type != LTT_APP_MSG_REGISTER_DONE) {
		ack.seq = msg.hdr.seq;
		ltt_wbuf_init(&w);
		ltt_app_put_ack(&w, &ack);
		ltt_msg_send(p->fd, LTT_APP_MAGIC, LTT_APP_MSG_ACK, 0, w.data, w.len, NULL, 0);
		ltt_wbuf_fini(&w);
	}
	ltt_msg_fini(&msg);
	return type;
}

/* Wait until @p got message @want (true) or was closed (false). */
static bool wait_for(struct peer *p, int want)
{
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	int type;

	for (;;) {
		if (poll(&pfd, 1, WAIT_MS) <= 0)
			return false;
		type = serve_one(p);
		if (type < 0)
			return false;
		if (type == want)
			return true;
	}
}

/* Send up to @len bytes of payload, as much as goes without waiting. */
static void fill(int fd, size_t len)
{
	static uint8_t junk[65536];
	ssize_t n;

	while (len) {
		n = send(fd, junk, len < sizeof(junk) ? len : sizeof(junk),
			 MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n <= 0)
			return;
		len -= (size_t)n;
	}
}

static int open_one(const char *sock, enum mode mode, unsigned long arg, struct peer *p)
{
	uint8_t hdr[LTT_MSG_HDR_SIZE];
	struct ltt_msg_hdr h = { .magic = LTT_APP_MAGIC, .type = LTT_APP_MSG_REGISTER };

	if (ltt_sock_connect_unix(sock, &p->fd))
		return -1;
	switch (mode) {
	case PARTIAL:
		h.payload_len = 40;
		ltt_msg_hdr_encode(&h, hdr);
		return ltt_io_write_all(p->fd, hdr, 8) ? -1 : 0;
	case HUGE:
		h.payload_len = (uint32_t)arg;
		ltt_msg_hdr_encode(&h, hdr);
		if (ltt_io_write_all(p->fd, hdr, sizeof(hdr)))
			return -1;
		fill(p->fd, arg < (1UL << 20) ? arg : 1UL << 20);
		return 0;
	/* a send that fails means the daemon closed first (refused at accept) */
	case REGISTER:
		if (send_register(p->fd))
			p->closed = true;
		else
			p->registered = wait_for(p, LTT_APP_MSG_REGISTER_OK);
		break;
	case IDLE:
	case DEAF:
		if (send_register(p->fd) || send_tracepoints(p->fd, (unsigned int)arg))
			p->closed = true;
		else
			p->registered = wait_for(p, LTT_APP_MSG_REGISTER_DONE);
		/* the logger, then a message the daemon answers after it */
		if (p->registered && getenv("PEER_HOLD_LOGGER"))
			p->registered = !send_logger(p->fd) && !send_tracepoints(p->fd, 0) &&
					wait_for(p, LTT_APP_MSG_REGISTER_DONE);
		break;
	default:
		break;
	}
	return 0;
}

/* Bad headers, one connection after the other. */
static int bad(const char *sock, unsigned int n)
{
	struct ltt_msg_hdr h = { .magic = 0xbadbad, .type = LTT_APP_MSG_REGISTER };
	unsigned int i, closed = 0;
	uint8_t hdr[LTT_MSG_HDR_SIZE];
	struct pollfd pfd;
	char c;
	int fd;

	ltt_msg_hdr_encode(&h, hdr);
	for (i = 0; i < n; i++) {
		if (ltt_sock_connect_unix(sock, &fd))
			continue;
		pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
		if (!ltt_io_write_all(fd, hdr, sizeof(hdr)) && poll(&pfd, 1, WAIT_MS) == 1 &&
		    recv(fd, &c, 1, 0) <= 0)
			closed++;
		close(fd);
	}
	printf("BAD closed=%u\n", closed);
	return 0;
}

/* A message (its header and @payload's bytes) appended to @out */
static void put_msg(struct ltt_wbuf *out, uint16_t type, const struct ltt_wbuf *payload)
{
	struct ltt_msg_hdr h = { .magic = LTT_APP_MAGIC, .type = type,
				 .payload_len = (uint32_t)payload->len };
	uint8_t *p = ltt_wbuf_reserve(out, LTT_MSG_HDR_SIZE + payload->len);

	if (!p)
		return;
	ltt_msg_hdr_encode(&h, p);
	memcpy(p + LTT_MSG_HDR_SIZE, payload->data, payload->len);
}

static uint64_t rnd_state;

static uint32_t rnd(uint32_t below)
{
	rnd_state ^= rnd_state << 13;
	rnd_state ^= rnd_state >> 7;
	rnd_state ^= rnd_state << 17;
	return (uint32_t)(rnd_state % below);
}

/* A few of @len bytes at @b changed: a byte, a bit, or a 32-bit word set to an edge value. */
static size_t mutate_bytes(uint8_t *b, size_t len)
{
	static const uint32_t edges[] = { 0, 1, 32, 64, 0x7fffffff, 0xffffffff, 4096 };
	unsigned int k = 1 + rnd(8), i;
	uint32_t v;
	size_t at;

	for (i = 0; i < k; i++) {
		at = rnd((uint32_t)len);
		switch (rnd(3)) {
		case 0:
			b[at] = (uint8_t)rnd(256);
			break;
		case 1:
			b[at] ^= (uint8_t)(1u << rnd(8));
			break;
		default:
			at &= ~(size_t)3;
			v = edges[rnd(sizeof(edges) / sizeof(edges[0]))];
			if (at + 4 <= len)
				memcpy(b + at, &v, 4);
		}
	}
	return rnd(10) ? len : rnd((uint32_t)len);	/* cut short, one time in ten */
}

/*
 * Mutated registrations, one connection after the other: every one
 * closed before the next, so what the daemon keeps after them is what
 * it kept of them.
 */
static int mutate(const char *sock, unsigned int n, unsigned long seed)
{
	unsigned int i, sent = 0, registered = 0, closed = 0;
	struct ltt_wbuf msgs, pl;
	struct pollfd pfd;
	struct peer p;
	size_t len;
	uint8_t *b;
	int type;

	rnd_state = seed ? seed : 1;
	ltt_wbuf_init(&msgs);
	ltt_wbuf_init(&pl);
	put_register(&pl);
	put_msg(&msgs, LTT_APP_MSG_REGISTER, &pl);
	ltt_wbuf_fini(&pl);
	ltt_wbuf_init(&pl);
	put_tracepoints(&pl, 4);
	put_msg(&msgs, LTT_APP_MSG_TRACEPOINTS, &pl);
	ltt_wbuf_fini(&pl);
	if (msgs.err)
		return 1;
	b = malloc(msgs.len);
	if (!b)
		return 1;
	for (i = 0; i < n; i++) {
		memcpy(b, msgs.data, msgs.len);
		len = mutate_bytes(b, msgs.len);
		p = (struct peer){ .fd = -1 };
		if (ltt_sock_connect_unix(sock, &p.fd))
			continue;
		sent++;
		if (ltt_io_write_all(p.fd, b, len)) {
			close(p.fd);
			closed++;
			continue;
		}
		for (;;) {
			pfd = (struct pollfd){ .fd = p.fd, .events = POLLIN };
			if (poll(&pfd, 1, 200) <= 0)
				break;
			type = serve_one(&p);
			if (type < 0) {
				closed++;
				break;
			}
			if (type == LTT_APP_MSG_REGISTER_DONE) {
				registered++;
				break;
			}
		}
		if (p.fd >= 0)
			close(p.fd);
	}
	free(b);
	ltt_wbuf_fini(&msgs);
	printf("MUTATED sent=%u registered=%u closed=%u\n", sent, registered, closed);
	return 0;
}

/* Serve the connections (deaf: only watch them) until stdin closes. */
static void hold(struct peer *peers, unsigned int n, bool deaf)
{
	static struct pollfd pfds[MAX_CONNS + 1];
	bool said = false;
	unsigned int i, open;
	char buf[64];

	for (;;) {
		open = 0;
		pfds[0] = (struct pollfd){ .fd = 0, .events = POLLIN };
		for (i = 0; i < n; i++) {
			pfds[i + 1] = (struct pollfd){ .fd = peers[i].fd,
						       .events = deaf ? POLLRDHUP : POLLIN };
			open += !peers[i].closed;
		}
		if (!open && !said) {
			printf("ALL-CLOSED\n");
			fflush(stdout);
			said = true;
		}
		if (poll(pfds, n + 1, -1) < 0 && errno != EINTR)
			return;
		if (pfds[0].revents && read(0, buf, sizeof(buf)) <= 0)
			return;
		for (i = 0; i < n; i++) {
			if (!pfds[i + 1].revents || peers[i].closed)
				continue;
			if (!deaf) {
				serve_one(&peers[i]);
			} else if (pfds[i + 1].revents & (POLLRDHUP | POLLHUP | POLLERR)) {
				peers[i].closed = true;
				close(peers[i].fd);
				peers[i].fd = -1;
			}
		}
	}
}

int main(int argc, char **argv)
{
	static const char *const names[] = { "silent", "partial", "register", "idle", "deaf",
					     "huge", "bad", "mutate" };
	static struct peer peers[MAX_CONNS];
	unsigned int n, i, opened = 0, registered = 0, closed = 0;
	unsigned long arg;
	int mode = -1;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: peer_hold SOCKET MODE N [ARG]\n");
		return 2;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(argv[2], names[i]))
			mode = (int)i;
	n = (unsigned int)strtoul(argv[3], NULL, 10);
	arg = argc > 4 ? strtoul(argv[4], NULL, 0) : 0;
	if (mode < 0 || n > MAX_CONNS) {
		fprintf(stderr, "peer_hold: bad mode or count\n");
		return 2;
	}
	if (mode == BAD)
		return bad(argv[1], n);
	if (mode == MUTATE)
		return mutate(argv[1], n, arg);
	for (i = 0; i < n; i++) {
		peers[i].fd = -1;
		if (open_one(argv[1], (enum mode)mode, arg, &peers[i]))
			continue;
		opened++;
		registered += peers[i].registered;
		closed += peers[i].closed;
	}
	printf("HELD opened=%u registered=%u closed=%u\n", opened, registered, closed);
	fflush(stdout);
	for (i = 0; i < n; i++)
		if (peers[i].fd < 0)
			peers[i].closed = true;
	hold(peers, n, mode == DEAF);
	return 0;
}
