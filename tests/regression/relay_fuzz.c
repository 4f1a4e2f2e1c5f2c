// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay_fuzz.c - seeded hostile input on ltt-relayd's three ports, over
 * real loopback connections (test_relay_fuzz.sh).
 *
 *   relay_fuzz [-s SEED] [-n CASES] -t TAG -e ESCDIR CPORT DPORT LPORT
 *
 * One case is one connection: the driver writes the case's bytes (random
 * bytes, a valid header with a truncated body, a length field declaring
 * up to 2^64 - 1 bytes, a request whose names hold "../", "/", NUL bytes
 * or 4 KiB of text), closes its sending side and reads until the relay
 * closes (at most TIMEOUT_MS per read).  A connection the relay keeps
 * open after the peer's end is counted as a hang.  Every hostile name
 * aims at ESCDIR/escaped-TAG (absolute, or as many "../" as it takes),
 * so that the test can look for TAG outside the relay's output.
 *
 * It prints one line per port with its case count, then
 *   NAMES sent=N accepted=A refused=R closed=C
 *   PLAIN sent=N accepted=A   (plain names among them: all must be taken)
 *   ESCAPE_ACCEPTED n   (a name with "..", "/" or a NUL the relay took)
 *   HANGS n
 * and exits 0 when both are 0.  The cases depend only on SEED and CASES.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "common/base/codec.h"
#include "common/proto/live-proto.h"
#include "common/proto/relay-proto.h"

#define TIMEOUT_MS 10000
#define NAME_BUF 8192

static uint64_t rng_state;
static const char *tag;
static const char *escdir;
static unsigned long hangs, escapes_accepted, oddities;
static unsigned long names_sent, names_accepted, names_refused, names_closed;
static unsigned long plain_sent, plain_accepted;	/* the control group */

/* splitmix64: the same cases for the same seed on every machine */
static uint64_t rnd(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static void put_random(struct ltt_wbuf *w, size_t len)
{
	uint8_t *p = ltt_wbuf_reserve(w, len);
	size_t i;

	if (!p)
		return;
	for (i = 0; i < len; i++)
		p[i] = (uint8_t)rnd();
}

/* A length field that lies, big: what a hostile peer declares. */
static uint64_t huge_len(void)
{
	static const uint64_t v[] = {
		UINT64_MAX, 1ull << 63, 1ull << 32, (1ull << 32) - 1,
		(1ull << 31), (1ull << 30) + 1, (1ull << 20) + 1, 0xfffffff0ull,
	};

	return v[below(sizeof(v) / sizeof(v[0]))];
}

static int dial(int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = TIMEOUT_MS / 1000 };
	int fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		return -1;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Write all of @len bytes, or stop where the relay stops taking them. */
static void send_some(int fd, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len) {
		ssize_t n = send(fd, b, len, MSG_NOSIGNAL);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			return;
		}
		b += n;
		len -= (size_t)n;
	}
}

/*
 * Read what the relay answers until it closes; keep the first @cap bytes
 * in @out.  Returns the bytes read, or -1 (counted as a hang) when the
 * relay kept the connection open past the deadline.
 */
static long drain(int fd, uint8_t *out, size_t cap)
{
	uint8_t buf[65536];
	long total = 0;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n == 0)
			return total;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK) {
				hangs++;
				return -1;
			}
			return total;	/* reset: closed as well */
		}
		if (out && (size_t)total < cap)
			memcpy(out + total, buf,
			       (size_t)n < cap - (size_t)total ? (size_t)n : cap - (size_t)total);
		total += n;
	}
}

/* One case: connect, send @w, end the sending side, read to the close. */
static long one_case(int port, const struct ltt_wbuf *w, uint8_t *out, size_t cap)
{
	int fd = dial(port);
	long got;

	if (fd < 0) {
		fprintf(stderr, "relay_fuzz: connect to port %d: %s\n", port, strerror(errno));
		hangs++;
		return -1;
	}
	send_some(fd, w->data, w->len);
	shutdown(fd, SHUT_WR);
	got = drain(fd, out, cap);
	close(fd);
	return got;
}

static void ctrl_hdr(struct ltt_wbuf *w, uint32_t cmd, uint64_t size)
{
	struct ltt_relay_ctrl_hdr h = { .data_size = size, .cmd = cmd };

	if (cmd == LTT_RELAY_SEND_METADATA)
		h.cmd_version = LTT_RELAY_METADATA_ANSWERED;	/* as ltt's consumers */

	ltt_relay_put_ctrl_hdr(w, &h);
}

/* The version whose CREATE_SESSION put_create_raw() lays out: 2.11 to 2.14's. */
static void put_version(struct ltt_wbuf *w)
{
	struct ltt_relay_version v = { LTT_RELAY_MAJOR, LTT_RELAY_MINOR_TRACE_FORMAT - 1 };

	ctrl_hdr(w, LTT_RELAY_VERSION, 8);
	ltt_relay_put_version(w, &v);
}

/*
 * Whether the @len bytes of @s (NUL counted) hold what must never make
 * a path: a NUL inside, a leading '/', a ".." component, or (when
 * @slash_ok is false: a single component) any '/'.
 */
static int is_escape(const char *s, uint32_t len, int slash_ok)
{
	uint32_t i;

	if (len == 0)
		return 0;
	if (memchr(s, '\0', len - 1) || s[0] == '/')
		return 1;
	for (i = 0; i + 1 < len; i++) {
		if (s[i] == '/' && !slash_ok)
			return 1;
		if (s[i] == '.' && s[i + 1] == '.' && (i == 0 || s[i - 1] == '/') &&
		    (s[i + 2] == '\0' || s[i + 2] == '/'))
			return 1;
	}
	return 0;
}

/* A hostile name in @buf (NAME_BUF bytes); returns its wire length, NUL counted. */
static uint32_t hostile_name(char *buf)
{
	uint32_t i, k, len;

	switch (below(10)) {
	case 9:		/* a plain name: must be accepted, or the replies are misread */
		snprintf(buf, NAME_BUF, "plain-%016llx", (unsigned long long)rnd());
		break;
	case 0:		/* ../../escaped-TAG, 1 to 16 levels */
		buf[0] = '\0';
		for (k = below(16) + 1; k; k--)
			strcat(buf, "../");
		strcat(buf, "escaped-");
		strcat(buf, tag);
		break;
	case 1:		/* absolute, right where the test looks */
		snprintf(buf, NAME_BUF, "%s/escaped-%s", escdir, tag);
		break;
	case 2:
		snprintf(buf, NAME_BUF, "a/../../escaped-%s", tag);
		break;
	case 3:
		snprintf(buf, NAME_BUF, "escaped-%s/../../../x", tag);
		break;
	case 4: {	/* a NUL inside: "ok" then the escape */
		int n = snprintf(buf, NAME_BUF, "ok?../../escaped-%s", tag);

		buf[2] = '\0';
		return (uint32_t)n + 1;
	}
	case 5: {
		static const char *const tiny[] = { "..", ".", "/", "../", "./..", "//" };

		strcpy(buf, tiny[below(6)]);
		break;
	}
	case 6:		/* 4 KiB of text */
		len = 4095 + below(2);
		memset(buf, below(2) ? 'A' : '/', len);
		buf[len] = '\0';
		return len + 1;
	case 7:		/* 4 KiB of "../" */
		for (i = 0; i + 3 < 4096; i += 3)
			memcpy(buf + i, "../", 3);
		buf[i] = '\0';
		break;
	default:	/* random non-NUL bytes, '.' and '/' likely */
		len = below(300) + 1;
		for (i = 0; i < len; i++) {
			uint32_t c = below(4);

			buf[i] = c == 0 ? '.' : c == 1 ? '/' : (char)(below(255) + 1);
		}
		buf[len] = '\0';
		return len + 1;
	}
	return (uint32_t)strlen(buf) + 1;
}

/* CREATE_SESSION with raw names of the given wire lengths. */
static void put_create_raw(struct ltt_wbuf *w, const char *name, uint32_t nlen,
			   const char *host, uint32_t hlen, const char *base, uint32_t blen)
{
	uint8_t uuid[16] = { 0 };

	ctrl_hdr(w, LTT_RELAY_CREATE_SESSION, 59ull + nlen + hlen + blen);
	ltt_wbuf_put_be32(w, nlen);
	ltt_wbuf_put_be32(w, hlen);
	ltt_wbuf_put_be32(w, blen);
	ltt_wbuf_put_be32(w, 0);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_bytes(w, uuid, sizeof(uuid));
	ltt_wbuf_put_be64(w, 1);
	ltt_wbuf_put_be64(w, 1700000000);
	ltt_wbuf_put_u8(w, 0);
	ltt_wbuf_put_be64(w, 0);
	ltt_wbuf_put_bytes(w, name, nlen);
	ltt_wbuf_put_bytes(w, host, hlen);
	ltt_wbuf_put_bytes(w, base, blen);
}

static void put_add_stream_raw(struct ltt_wbuf *w, const char *chan, uint32_t clen,
			       const char *path, uint32_t plen)
{
	ctrl_hdr(w, LTT_RELAY_ADD_STREAM, 32ull + clen + plen);
	ltt_wbuf_put_be32(w, clen);
	ltt_wbuf_put_be32(w, plen);
	ltt_wbuf_put_be64(w, 0);
	ltt_wbuf_put_be64(w, 0);
	ltt_wbuf_put_be64(w, 0);
	ltt_wbuf_put_bytes(w, chan, clen);
	ltt_wbuf_put_bytes(w, path, plen);
}

static uint32_t be32_at(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* Counts one name case from the relay's answer (its ret_code at @off). */
static void name_outcome(long got, const uint8_t *rep, long off, int escape, int plain)
{
	names_sent++;
	plain_sent += plain;
	if (plain && got >= off + 4 && be32_at(rep + off) == LTT_RELAY_OK)
		plain_accepted++;
	if (got < off + 4) {
		names_closed++;
		return;
	}
	if (be32_at(rep + off) != LTT_RELAY_OK) {
		names_refused++;
		return;
	}
	names_accepted++;
	if (escape) {
		escapes_accepted++;
		fprintf(stderr, "relay_fuzz: name case %lu: a hostile name was accepted\n",
			names_sent);
	}
}

#define REP_CAP 16384

/*
 * A session whose names are hostile, or a good session then a stream
 * whose names are, on a new control connection.  Replies: VERSION (8),
 * CREATE_SESSION {u64 id, u32 ret, u32 path_len, path}, ADD_STREAM
 * {u64 handle, u32 ret}.
 */
static void case_names(int cport, unsigned long i)
{
	static char a[NAME_BUF];
	static uint8_t rep[REP_CAP];
	char ok_name[32];
	struct ltt_wbuf w;
	uint32_t alen, olen;
	int esc, stream = 0;
	long got, off = 16;

	ltt_wbuf_init(&w);
	put_version(&w);
	alen = hostile_name(a);
	olen = (uint32_t)snprintf(ok_name, sizeof(ok_name), "fz%lu", i) + 1;
	switch (below(5)) {
	case 0:		/* hostile session name */
		put_create_raw(&w, a, alen, "fuzzhost", 9, "", 0);
		esc = is_escape(a, alen, 0);
		break;
	case 1:		/* hostile host name */
		put_create_raw(&w, ok_name, olen, a, alen, "", 0);
		esc = is_escape(a, alen, 0);
		break;
	case 2:		/* hostile base path */
		put_create_raw(&w, ok_name, olen, "fuzzhost", 9, a, alen);
		esc = is_escape(a, alen, 1);
		break;
	case 3:		/* a good session, then a hostile channel name */
		put_create_raw(&w, ok_name, olen, "fuzzhost", 9, "", 0);
		put_add_stream_raw(&w, a, alen, "ust/uid/0/64-bit", 17);
		esc = is_escape(a, alen, 0);
		stream = 1;
		break;
	default:	/* a good session, then a hostile stream path */
		put_create_raw(&w, ok_name, olen, "fuzzhost", 9, "", 0);
		put_add_stream_raw(&w, "chan_0", 7, a, alen);
		esc = is_escape(a, alen, 1);
		stream = 1;
		break;
	}
	got = one_case(cport, &w, rep, sizeof(rep));
	if (stream) {
		/* the good session must have been created, its path read whole */
		if (got < 24 || be32_at(rep + 16) != LTT_RELAY_OK ||
		    be32_at(rep + 20) > REP_CAP - 64) {
			fprintf(stderr, "relay_fuzz: name case %lu: the good session was refused\n", i);
			oddities++;
			ltt_wbuf_fini(&w);
			return;
		}
		off = 24 + (long)be32_at(rep + 20) + 8;
	}
	name_outcome(got, rep, off, esc, !strncmp(a, "plain-", 6));
	ltt_wbuf_fini(&w);
}

/* A command of the relay's, or any number. */
static uint32_t some_ctrl_cmd(void)
{
	static const uint32_t cmds[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
					 16, 17, 22, 10000 };

	return below(8) ? cmds[below(sizeof(cmds) / sizeof(cmds[0]))] : (uint32_t)rnd();
}

static uint32_t some_size(void)
{
	static const uint32_t sizes[] = { 0, 8, 12, 16, 24, 32, 80 };

	return below(3) ? sizes[below(sizeof(sizes) / sizeof(sizes[0]))] : below(600);
}

static void put_good_session(struct ltt_wbuf *w, unsigned long i)
{
	char name[32];
	uint32_t len = (uint32_t)snprintf(name, sizeof(name), "fc%lu", i) + 1;

	put_create_raw(w, name, len, "fuzzhost", 9, "", 0);
}

/* A small id: often one the relay has (sessions, streams and viewers count from 0 or 1). */
static uint64_t some_id(void)
{
	return below(4) ? below(12) : rnd();
}

static void put_random_ids(struct ltt_wbuf *w, uint32_t size)
{
	for (; size >= 8; size -= 8)
		ltt_wbuf_put_be64(w, some_id());
	put_random(w, size);
}

static void case_ctrl(int cport, unsigned long i)
{
	struct ltt_wbuf w;
	uint32_t size;

	ltt_wbuf_init(&w);
	switch (below(6)) {
	case 0:		/* random bytes, no VERSION */
		put_random(&w, below(4096) + 1);
		break;
	case 1:		/* any command, its size honest, random payload */
		put_version(&w);
		size = some_size();
		ctrl_hdr(&w, some_ctrl_cmd(), size);
		put_random_ids(&w, size);
		break;
	case 2:		/* a session, then commands about ids it may have */
		put_version(&w);
		put_good_session(&w, i);
		for (int k = (int)below(6) + 1; k; k--) {
			size = some_size();
			ctrl_hdr(&w, some_ctrl_cmd(), size);
			put_random_ids(&w, size);
		}
		break;
	case 3:		/* a length field declaring up to 2^64 - 1 bytes */
		if (below(2))
			put_version(&w);
		ctrl_hdr(&w, some_ctrl_cmd(), huge_len());
		put_random(&w, below(256));
		break;
	case 4:		/* a valid header, its body cut short */
		put_version(&w);
		if (below(2))
			put_good_session(&w, i);
		size = below(4096) + 1;
		ctrl_hdr(&w, some_ctrl_cmd(), size);
		put_random_ids(&w, below(size));
		break;
	default:	/* a header cut short */
		put_version(&w);
		ctrl_hdr(&w, some_ctrl_cmd(), below(64));
		w.len -= below(LTT_RELAY_CTRL_HDR_SIZE) + 1;
		break;
	}
	one_case(cport, &w, NULL, 0);
	ltt_wbuf_fini(&w);
}

static uint64_t data_handle;	/* a real stream's, from setup() */
static uint64_t data_seq;

static void data_hdr(struct ltt_wbuf *w, uint64_t handle, uint64_t seq, uint32_t size,
		     uint32_t pad)
{
	struct ltt_relay_data_hdr h = {
		.stream_handle = handle, .net_seq_num = seq, .data_size = size,
		.padding_size = pad,
	};

	ltt_relay_put_data_hdr(w, &h);
}

static void case_data(int dport)
{
	uint64_t handle = below(3) ? data_handle : some_id();
	struct ltt_wbuf w;
	uint32_t size;

	ltt_wbuf_init(&w);
	switch (below(5)) {
	case 0:		/* random bytes */
		put_random(&w, below(4096) + 1);
		break;
	case 1:		/* a real stream's packet, its body cut short */
		size = below(8192) + 1;
		data_hdr(&w, handle, below(2) ? data_seq : rnd(), size, below(4096));
		put_random(&w, below(size));
		break;
	case 2:		/* sizes up to 4 GiB - 1, data or padding */
		size = (uint32_t)huge_len();
		if (below(2))
			data_hdr(&w, handle, data_seq, size ? size : 1, below(2) ? 0 : size);
		else
			data_hdr(&w, handle, data_seq, below(4096) + 1, size);
		put_random(&w, below(512));
		break;
	case 3:		/* whole packets of random bytes, in order or not */
		for (int k = (int)below(4) + 1; k; k--) {
			size = below(2048) + 1;
			data_hdr(&w, handle, below(4) ? data_seq++ : rnd(), size, below(1024));
			put_random(&w, size);
		}
		break;
	default:	/* a header cut short */
		data_hdr(&w, handle, data_seq, below(4096), 0);
		w.len -= below(LTT_RELAY_DATA_HDR_SIZE) + 1;
		break;
	}
	one_case(dport, &w, NULL, 0);
	ltt_wbuf_fini(&w);
}

static void live_hdr(struct ltt_wbuf *w, uint32_t cmd, uint64_t size)
{
	struct ltt_live_cmd_hdr h = { .data_size = size, .cmd = cmd };

	ltt_live_put_cmd_hdr(w, &h);
}

static void put_connect(struct ltt_wbuf *w)
{
	struct ltt_live_connect c = {
		.viewer_session_id = UINT64_MAX, .major = LTT_LIVE_MAJOR,
		.minor = LTT_LIVE_MINOR_2_4, .type = LTT_LIVE_CLIENT_COMMAND,
	};

	live_hdr(w, LTT_LIVE_CONNECT, LTT_LIVE_CONNECT_SIZE);
	ltt_live_put_connect(w, &c);
}

static uint32_t live_size(uint32_t cmd)
{
	static const uint32_t sizes[] = { 0, 20, 0, 20, 8, 20, 8, 8, 0, 8 };

	if (below(6) && cmd < sizeof(sizes) / sizeof(sizes[0]))
		return sizes[cmd];
	return some_size();
}

static void case_live(int lport)
{
	struct ltt_wbuf w;
	uint32_t cmd, size;

	ltt_wbuf_init(&w);
	switch (below(6)) {
	case 0:		/* random bytes */
		put_random(&w, below(4096) + 1);
		break;
	case 1:		/* CONNECT, then commands about ids the relay may have */
		put_connect(&w);
		for (int k = (int)below(8) + 1; k; k--) {
			cmd = below(10) ? below(10) : (uint32_t)rnd();
			size = live_size(cmd);
			live_hdr(&w, cmd, size);
			put_random_ids(&w, size);
		}
		break;
	case 2:		/* a length field declaring up to 2^64 - 1 bytes */
		if (below(2))
			put_connect(&w);
		live_hdr(&w, below(10), huge_len());
		put_random(&w, below(256));
		break;
	case 3:		/* a valid header, its body cut short */
		put_connect(&w);
		cmd = below(10);
		size = live_size(cmd);
		live_hdr(&w, cmd, size);
		put_random_ids(&w, size ? below(size) : 0);
		if (!size)
			w.len -= below(LTT_LIVE_CMD_HDR_SIZE) + 1;
		break;
	case 4:		/* GET_PACKET asking up to 4 GiB - 1 at any offset */
		put_connect(&w);
		live_hdr(&w, LTT_LIVE_GET_PACKET, 20);
		ltt_wbuf_put_be64(&w, some_id());
		ltt_wbuf_put_be64(&w, below(2) ? below(1 << 20) : rnd());
		ltt_wbuf_put_be32(&w, (uint32_t)huge_len());
		break;
	default:	/* CONNECT with another version or type */
		live_hdr(&w, LTT_LIVE_CONNECT, LTT_LIVE_CONNECT_SIZE);
		ltt_wbuf_put_be64(&w, rnd());
		ltt_wbuf_put_be32(&w, below(2) ? LTT_LIVE_MAJOR : (uint32_t)rnd());
		ltt_wbuf_put_be32(&w, (uint32_t)rnd());
		ltt_wbuf_put_be32(&w, below(4));
		break;
	}
	one_case(lport, &w, NULL, 0);
	ltt_wbuf_fini(&w);
}

/*
 * A good session with one stream, "chan_0", kept open for the run: the
 * data cases write to its handle.  Returns the control fd or -1.
 */
static int setup(int cport)
{
	static uint8_t rep[REP_CAP];
	struct ltt_wbuf w;
	size_t got = 0;
	uint32_t plen;
	int fd = dial(cport);

	if (fd < 0)
		return -1;
	ltt_wbuf_init(&w);
	put_version(&w);
	put_create_raw(&w, "fzdata", 7, "fuzzhost", 9, "", 0);
	put_add_stream_raw(&w, "chan_0", 7, "ust/uid/0/64-bit", 17);
	send_some(fd, w.data, w.len);
	ltt_wbuf_fini(&w);
	/* replies: 8, then 16 + path, then 12 */
	for (;;) {
		ssize_t n = recv(fd, rep + got, sizeof(rep) - got, 0);

		if (n <= 0)
			break;
		got += (size_t)n;
		if (got >= 24 && (plen = be32_at(rep + 20)) < REP_CAP - 64 &&
		    got >= 24 + (size_t)plen + 12)
			break;
	}
	if (got < 24 || be32_at(rep + 16) != LTT_RELAY_OK ||
	    got < 24 + (size_t)be32_at(rep + 20) + 12 ||
	    be32_at(rep + 24 + be32_at(rep + 20) + 8) != LTT_RELAY_OK) {
		close(fd);
		return -1;
	}
	plen = be32_at(rep + 20);
	data_handle = (uint64_t)be32_at(rep + 24 + plen) << 32 | be32_at(rep + 28 + plen);
	return fd;
}

int main(int argc, char **argv)
{
	unsigned long cases = 3000, i, n_ctrl = 0, n_data = 0, n_live = 0;
	int opt, keep, cport, dport, lport;

	rng_state = 1;
	while ((opt = getopt(argc, argv, "s:n:t:e:")) != -1) {
		switch (opt) {
		case 's': rng_state = strtoull(optarg, NULL, 0); break;
		case 'n': cases = strtoul(optarg, NULL, 0); break;
		case 't': tag = optarg; break;
		case 'e': escdir = optarg; break;
		default: goto usage;
		}
	}
	if (argc - optind != 3 || !tag || !escdir || strlen(tag) > 64 || strlen(escdir) > 1024)
		goto usage;
	cport = atoi(argv[optind]);
	dport = atoi(argv[optind + 1]);
	lport = atoi(argv[optind + 2]);
	keep = setup(cport);
	if (keep < 0) {
		fprintf(stderr, "relay_fuzz: the relay refused the setup session\n");
		return 2;
	}
	for (i = 0; i < cases; i++) {
		switch (below(4)) {
		case 0: case_ctrl(cport, i); n_ctrl++; break;
		case 1: case_data(dport); n_data++; break;
		case 2: case_live(lport); n_live++; break;
		default: case_names(cport, i); break;
		}
	}
	close(keep);
	printf("CONTROL %lu\nDATA %lu\nLIVE %lu\n", n_ctrl, n_data, n_live);
	printf("NAMES sent=%lu accepted=%lu refused=%lu closed=%lu\n",
	       names_sent, names_accepted, names_refused, names_closed);
	printf("PLAIN sent=%lu accepted=%lu\n", plain_sent, plain_accepted);
	printf("ESCAPE_ACCEPTED %lu\nHANGS %lu\nODD %lu\n", escapes_accepted, hangs, oddities);
	return escapes_accepted || hangs || oddities;
usage:
	fprintf(stderr, "usage: relay_fuzz [-s SEED] [-n CASES] -t TAG -e ESCDIR CPORT DPORT LPORT\n");
	return 2;
}
