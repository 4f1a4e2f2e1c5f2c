// SPDX-License-Identifier: GPL-2.0-only
/*
 * proto_client.c - a scripted client of the sessiond client protocol, for
 * the regression tests: it sends what libltt-ctl never would (malformed
 * headers, truncated payloads, bad enums, requests before HELLO), stalls
 * on purpose, or holds many connections, and prints one line per step so
 * the shell test can assert on what the daemon answered.
 *
 * Usage: proto_client SOCKET STEP...
 *
 * Each STEP is one argument whose words are separated by spaces.  The
 * connection is opened by the first step that needs it.
 *
 *   hello [MAJOR [MINOR]]     HELLO {MAJOR, MINOR} (default 1 0), then its
 *                             reply: "HELLO OK len=N major=1 minor=M
 *                             version=V", or "HELLO STATUS len=0"
 *   req CMD TOKEN...          a request and its reply: "CMD STATUS len=N"
 *                             (LIST_SESSIONS OK adds " count=N
 *                             sessions=a,b,..."); "EOF" if the daemon
 *                             closed the connection instead
 *   send CMD TOKEN...         a request, reply not read
 *   reply                     read one reply and print it as "req" does
 *   hdr MAGIC CMD RES STATUS LEN   a raw header, nothing else
 *   bytes TOKEN...            raw encoded tokens, no header
 *   split N CMD TOKEN...      the first N bytes of a request; "rest" sends
 *                             the others
 *   rest                      see split
 *   expect-eof                "EOF" if the daemon closes the connection
 *                             (no byte before), "DATA N" if bytes came,
 *                             "OPEN" if nothing happened in 10 s
 *   expect-eof S              the same, waiting up to S seconds for the
 *                             daemon's first move
 *   flood N CMD TOKEN...      write N copies of a request without reading
 *                             any reply, until the socket is full:
 *                             "FLOOD full" or "FLOOD all-sent"
 *   conns N                   N more connections, each sends HELLO:
 *                             "CONNS ok=A limit=B perm=C closed=D other=E"
 *                             (limit: refused by a cap, CLIENTS_PER_UID or
 *                             CLIENTS_TOTAL)
 *                             (they stay open until close-conns or exit)
 *   close-conns               close them
 *   bigreqs LEN SENT          on each connection of "conns": a request
 *                             header announcing LEN payload bytes, then
 *                             SENT of them (zeros), the rest never:
 *                             "BIGREQS sent=N failed=F" (a write refused:
 *                             the daemon closed it)
 *   repeat N CMD TOKEN...     N requests, each with "%d" in its tokens
 *                             replaced by 1..N, replies read but not
 *                             printed: "REPEAT ok=A failed=B"
 *   reconnect                 close the connection; the next step opens one
 *   pending                   "PENDING" if the daemon sent nothing on the
 *                             connection yet (not waited for), else "READY"
 *   pause                     print "PAUSED", then wait for a line (or EOF)
 *                             on stdin
 *   dump                      on a connection of its own, the daemon's whole
 *                             state as this user sees it: "LIST HEX" then
 *                             "SESSION NAME HEX" per session (the payloads
 *                             of LIST_SESSIONS and GET_SESSION), to compare
 *                             before and after a command
 *
 * CMD is a command name of LTT_CLIENT_CMD_TABLE or a number.  Payload
 * tokens: u8:N u16:N u32:N u64:N (C syntax numbers), str:TEXT (with its
 * NUL; "str:" is ""), rep:N:C (a string of N times C, NUL added),
 * rawstr:LEN:TEXT (u32 LEN then TEXT without NUL), nul (one 0 byte),
 * zeros:N (N 0 bytes).
 *
 * Exit status: 0 when every step ran (whatever the daemon answered), 1 on
 * a usage error or a local failure.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/proto/client-proto.h"
#include "common/base/codec.h"

#define REPLY_TIMEOUT_MS 10000
#define MAX_WORDS 64
#define MAX_CONNS 4096

static const char *sock_path;
static int conn_fd = -1;
static struct ltt_wbuf pending;	/* what "rest" sends */
static int conns[MAX_CONNS];
static int nr_conns;

static void die(const char *what)
{
	fprintf(stderr, "proto_client: %s\n", what);
	exit(1);
}

static void die_errno(const char *what)
{
	fprintf(stderr, "proto_client: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* A new connection, or -1 with errno set. */
static int open_conn(void)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(sock_path) >= sizeof(addr.sun_path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	strcpy(addr.sun_path, sock_path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr))) {
		int err = errno;

		close(fd);
		errno = err;
		return -1;
	}
	return fd;
}

static int conn(void)
{
	if (conn_fd < 0) {
		conn_fd = open_conn();
		if (conn_fd < 0)
			die_errno(sock_path);
	}
	return conn_fd;
}

static unsigned long long number(const char *text)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(text, &end, 0);
	if (errno || end == text || *end)
		die("bad number in a step");
	return v;
}

static int cmd_number(const char *name)
{
	unsigned int i;

	for (i = 0; i < LTT_CLIENT_CMD_NR_; i++) {
		const char *n = ltt_client_cmd_name(i);

		if (n && !strcmp(n, name))
			return (int)i;
	}
	return (int)number(name);
}

/* Append one payload token to @w. */
static void put_token(struct ltt_wbuf *w, const char *tok)
{
	const char *arg = strchr(tok, ':');
	size_t n, i;

	if (!strcmp(tok, "nul")) {
		ltt_wbuf_put_u8(w, 0);
		return;
	}
	if (!arg)
		die("bad token");
	arg++;
	if (!strncmp(tok, "u8:", 3)) {
		ltt_wbuf_put_u8(w, (uint8_t)number(arg));
	} else if (!strncmp(tok, "u16:", 4)) {
		ltt_wbuf_put_u16(w, (uint16_t)number(arg));
	} else if (!strncmp(tok, "u32:", 4)) {
		ltt_wbuf_put_u32(w, (uint32_t)number(arg));
	} else if (!strncmp(tok, "u64:", 4)) {
		ltt_wbuf_put_u64(w, (uint64_t)number(arg));
	} else if (!strncmp(tok, "str:", 4)) {
		ltt_wbuf_put_str(w, arg);
	} else if (!strncmp(tok, "rep:", 4)) {
		const char *c = strchr(arg, ':');
		char *s;

		if (!c || !c[1])
			die("bad rep: token");
		n = (size_t)strtoull(arg, NULL, 0);
		s = malloc(n + 1);
		if (!s)
			die("out of memory");
		for (i = 0; i < n; i++)
			s[i] = c[1];
		s[n] = '\0';
		ltt_wbuf_put_str(w, s);
		free(s);
	} else if (!strncmp(tok, "rawstr:", 7)) {
		const char *c = strchr(arg, ':');

		if (!c)
			die("bad rawstr: token");
		ltt_wbuf_put_u32(w, (uint32_t)strtoull(arg, NULL, 0));
		ltt_wbuf_put_bytes(w, c + 1, strlen(c + 1));
	} else if (!strncmp(tok, "zeros:", 6)) {
		void *z;

		n = (size_t)number(arg);
		z = ltt_wbuf_reserve(w, n);
		if (z && n)
			memset(z, 0, n);
	} else {
		die("unknown token");
	}
	if (w->err)
		die("out of memory");
}

/* A whole message: header for @cmd, then the tokens as payload. */
static void build_msg(struct ltt_wbuf *w, int cmd, const char **tokens, int nr)
{
	struct ltt_wbuf payload;
	struct ltt_client_hdr hdr = { .magic = LTT_CLIENT_MAGIC, .cmd = (uint16_t)cmd };
	uint8_t *p;
	int i;

	ltt_wbuf_init(&payload);
	for (i = 0; i < nr; i++)
		put_token(&payload, tokens[i]);
	hdr.payload_len = (uint32_t)payload.len;
	p = ltt_wbuf_reserve(w, LTT_CLIENT_HDR_SIZE);
	if (!p)
		die("out of memory");
	ltt_client_hdr_encode(&hdr, p);
	if (payload.len)
		ltt_wbuf_put_bytes(w, payload.data, payload.len);
	ltt_wbuf_fini(&payload);
	if (w->err)
		die("out of memory");
}

/* Write all of @buf; returns 0 or a negative errno (EPIPE when closed). */
static int write_all(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Read exactly @len bytes within the reply timeout.  Returns 0, 1 when the
 * peer closed (or reset) the connection first, -ETIMEDOUT, or -errno.
 */
static int read_all(int fd, void *buf, size_t len, size_t *ret_got)
{
	uint8_t *p = buf;
	size_t got = 0;
	int ret = 0;

	while (got < len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r = poll(&pfd, 1, REPLY_TIMEOUT_MS);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			ret = -errno;
			break;
		}
		if (r == 0) {
			ret = -ETIMEDOUT;
			break;
		}
		n = read(fd, p + got, len - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE))) {
			ret = 1;
			break;
		}
		if (n < 0) {
			ret = -errno;
			break;
		}
		got += (size_t)n;
	}
	if (ret_got)
		*ret_got = got;
	return ret;
}

static const char *cmd_label(unsigned int cmd, char *buf, size_t len)
{
	const char *name = ltt_client_cmd_name(cmd);

	if (name)
		return name;
	snprintf(buf, len, "cmd=%u", cmd);
	return buf;
}

/* The minor the connection agreed on in its last HELLO (0 before one). */
static uint32_t agreed_minor;

/* The names of a LIST_SESSIONS reply, comma-separated. */
static void print_sessions(const uint8_t *payload, size_t len)
{
	struct ltt_session_desc info;
	struct ltt_rbuf r;
	uint32_t i, n;

	ltt_rbuf_init(&r, payload, len);
	n = ltt_rbuf_get_u32(&r);
	printf(" count=%u sessions=", n);
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_session_info(&r, &info, agreed_minor);
		printf("%s%s", i ? "," : "", info.name);
	}
	if (ltt_rbuf_end(&r))
		printf(" MALFORMED");
}

static void print_hello(const uint8_t *payload, size_t len)
{
	char version[64];
	struct ltt_rbuf r;
	uint32_t major, minor;

	ltt_rbuf_init(&r, payload, len);
	major = ltt_rbuf_get_u32(&r);
	minor = ltt_rbuf_get_u32(&r);
	ltt_rbuf_get_str_copy(&r, version, sizeof(version));
	if (ltt_rbuf_end(&r))
		printf(" MALFORMED");
	else
		printf(" major=%u minor=%u version=%s", major, minor, version);
}

/*
 * Read one reply and print "CMD STATUS len=N", "EOF" when the daemon
 * closed first, "TIMEOUT", or "BADHDR".  Returns the status, or -1.
 */
static int read_reply(int fd, bool print)
{
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE], *payload = NULL;
	struct ltt_client_hdr hdr;
	char label[32];
	int ret;

	ret = read_all(fd, hdrbuf, sizeof(hdrbuf), NULL);
	if (ret) {
		if (print)
			puts(ret == 1 ? "EOF" : ret == -ETIMEDOUT ? "TIMEOUT" : "ERROR");
		return -1;
	}
	if (ltt_client_hdr_decode(hdrbuf, &hdr)) {
		if (print)
			puts("BADHDR");
		return -1;
	}
	if (hdr.payload_len) {
		payload = malloc(hdr.payload_len);
		if (!payload)
			die("out of memory");
		if (read_all(fd, payload, hdr.payload_len, NULL)) {
			if (print)
				puts("TRUNCATED");
			free(payload);
			return -1;
		}
	}
	if (print) {
		printf("%s %s len=%u", cmd_label(hdr.cmd, label, sizeof(label)),
		       hdr.status ? ltt_error_name((int)hdr.status) : "OK", hdr.payload_len);
		if (!hdr.status && hdr.cmd == LTT_CLIENT_CMD_LIST_SESSIONS)
			print_sessions(payload, hdr.payload_len);
		if (!hdr.status && hdr.cmd == LTT_CLIENT_CMD_HELLO)
			print_hello(payload, hdr.payload_len);
		putchar('\n');
	}
	free(payload);
	return (int)hdr.status;
}

/* Send @w on the connection; a refused write is reported, not fatal. */
static int send_buf(const struct ltt_wbuf *w, size_t len)
{
	int ret = write_all(conn(), w->data, len);

	if (ret)
		printf("SEND-FAILED %s\n", strerror(-ret));
	return ret;
}

static void step_hello(char **w, int nr)
{
	char u32a[32], u32b[32];
	const char *tokens[2] = { u32a, u32b };
	struct ltt_wbuf msg;

	snprintf(u32a, sizeof(u32a), "u32:%s", nr > 1 ? w[1] : "1");
	snprintf(u32b, sizeof(u32b), "u32:%s", nr > 2 ? w[2] : "0");
	/* what the daemon takes: the lower of its minor and ours */
	agreed_minor = (uint32_t)strtoul(u32b + 4, NULL, 0);
	if (agreed_minor > LTT_CLIENT_MINOR)
		agreed_minor = LTT_CLIENT_MINOR;
	ltt_wbuf_init(&msg);
	build_msg(&msg, LTT_CLIENT_CMD_HELLO, tokens, 2);
	/* Even when the write fails, a reply may be waiting: read it. */
	send_buf(&msg, msg.len);
	read_reply(conn(), true);
	ltt_wbuf_fini(&msg);
}

static void step_req(char **w, int nr, bool want_reply)
{
	struct ltt_wbuf msg;

	if (nr < 2)
		die("req/send needs a command");
	ltt_wbuf_init(&msg);
	build_msg(&msg, cmd_number(w[1]), (const char **)(w + 2), nr - 2);
	send_buf(&msg, msg.len);
	if (want_reply)
		read_reply(conn(), true);
	ltt_wbuf_fini(&msg);
}

static void step_hdr(char **w, int nr)
{
	uint8_t buf[LTT_CLIENT_HDR_SIZE];
	struct ltt_client_hdr hdr;

	if (nr != 6)
		die("hdr needs MAGIC CMD RESERVED STATUS LEN");
	hdr.magic = (uint32_t)number(w[1]);
	hdr.cmd = (uint16_t)number(w[2]);
	hdr.reserved = (uint16_t)number(w[3]);
	hdr.status = (uint32_t)number(w[4]);
	hdr.payload_len = (uint32_t)number(w[5]);
	ltt_client_hdr_encode(&hdr, buf);
	if (write_all(conn(), buf, sizeof(buf)))
		puts("SEND-FAILED");
}

static void step_bytes(char **w, int nr)
{
	struct ltt_wbuf msg;
	int i;

	ltt_wbuf_init(&msg);
	for (i = 1; i < nr; i++)
		put_token(&msg, w[i]);
	send_buf(&msg, msg.len);
	ltt_wbuf_fini(&msg);
}

static void step_split(char **w, int nr)
{
	size_t n;

	if (nr < 3)
		die("split needs N CMD");
	n = (size_t)number(w[1]);
	ltt_wbuf_fini(&pending);
	ltt_wbuf_init(&pending);
	build_msg(&pending, cmd_number(w[2]), (const char **)(w + 3), nr - 3);
	if (n > pending.len)
		die("split: N is past the end of the message");
	if (send_buf(&pending, n))
		return;
	memmove(pending.data, pending.data + n, pending.len - n);
	pending.len -= n;
}

static void step_rest(void)
{
	send_buf(&pending, pending.len);
	ltt_wbuf_reset(&pending);
}

static void step_expect_eof(char **w, int nr)
{
	uint8_t buf[4096];
	size_t got = 0;
	int ret;

	if (nr == 2) {
		/* expect-eof S: wait up to S seconds for the first event */
		struct pollfd pfd = { .fd = conn(), .events = POLLIN };

		do
			ret = poll(&pfd, 1, (int)number(w[1]) * 1000);
		while (ret < 0 && errno == EINTR);
		if (ret == 0) {
			puts("OPEN");
			return;
		}
	}
	ret = read_all(conn(), buf, sizeof(buf), &got);
	if (got)
		printf("DATA %zu\n", got);
	else if (ret == 1)
		puts("EOF");
	else if (ret == -ETIMEDOUT)
		puts("OPEN");
	else
		printf("ERROR %s\n", strerror(-ret));
}

static void step_flood(char **w, int nr)
{
	struct ltt_wbuf one, all;
	size_t off = 0, count, i;
	int fd = conn(), flags;
	bool full = false;

	if (nr < 3)
		die("flood needs N CMD");
	count = (size_t)number(w[1]);
	ltt_wbuf_init(&one);
	ltt_wbuf_init(&all);
	build_msg(&one, cmd_number(w[2]), (const char **)(w + 3), nr - 3);
	for (i = 0; i < count; i++)
		ltt_wbuf_put_bytes(&all, one.data, one.len);
	if (all.err)
		die("out of memory");
	flags = fcntl(fd, F_GETFL);
	fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	while (off < all.len) {
		struct pollfd pfd = { .fd = fd, .events = POLLOUT };
		ssize_t n = send(fd, all.data + off, all.len - off, MSG_NOSIGNAL);

		if (n >= 0) {
			off += (size_t)n;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN)
			die_errno("flood");
		/*
		 * Full.  The daemon may still be draining: only a socket that
		 * stays full for a whole second means it stopped reading.
		 */
		if (poll(&pfd, 1, 1000) == 0) {
			full = true;
			break;
		}
	}
	fcntl(fd, F_SETFL, flags);
	puts(full ? "FLOOD full" : "FLOOD all-sent");
	ltt_wbuf_fini(&one);
	ltt_wbuf_fini(&all);
}

static void step_conns(char **w, int nr)
{
	unsigned int ok = 0, limit = 0, perm = 0, closed = 0, other = 0;
	const char *tokens[2] = { "u32:1", "u32:0" };
	struct ltt_wbuf hello;
	int i, n, first = nr_conns;

	if (nr != 2)
		die("conns needs N");
	n = (int)number(w[1]);
	if (n > MAX_CONNS - nr_conns)
		die("too many connections");
	ltt_wbuf_init(&hello);
	build_msg(&hello, LTT_CLIENT_CMD_HELLO, tokens, 2);
	/* Connect them all first, so they are all open at the same time. */
	for (i = 0; i < n; i++) {
		conns[nr_conns] = open_conn();
		if (conns[nr_conns] < 0)
			die_errno("connect");
		nr_conns++;
	}
	for (i = first; i < nr_conns; i++) {
		int status;

		/* A write refused by a closed peer still leaves its reply to read. */
		write_all(conns[i], hello.data, hello.len);
		status = read_reply(conns[i], false);
		if (status == 0)
			ok++;
		else if (status == LTT_ERR_CLIENTS_PER_UID || status == LTT_ERR_CLIENTS_TOTAL)
			limit++;	/* the caps' refusals */
		else if (status == LTT_ERR_PERM)
			perm++;
		else if (status < 0)
			closed++;
		else
			other++;
	}
	printf("CONNS ok=%u limit=%u perm=%u closed=%u other=%u\n", ok, limit, perm, closed,
	       other);
	ltt_wbuf_fini(&hello);
}

static void step_bigreqs(char **w, int nr)
{
	static uint8_t zeros[65536];
	struct ltt_client_hdr hdr = { .magic = LTT_CLIENT_MAGIC, .cmd = LTT_CLIENT_CMD_LIST_SESSIONS };
	uint8_t hbuf[LTT_CLIENT_HDR_SIZE];
	unsigned long long sent;
	unsigned int ok = 0, failed = 0;
	int i;

	if (nr != 3)
		die("bigreqs needs LEN SENT");
	hdr.payload_len = (uint32_t)number(w[1]);
	sent = number(w[2]);
	if (sent > hdr.payload_len)
		die("bigreqs: SENT is more than LEN");
	ltt_client_hdr_encode(&hdr, hbuf);
	for (i = 0; i < nr_conns; i++) {
		unsigned long long left = sent;
		int ret = write_all(conns[i], hbuf, sizeof(hbuf));

		while (!ret && left) {
			size_t n = left < sizeof(zeros) ? (size_t)left : sizeof(zeros);

			ret = write_all(conns[i], zeros, n);
			left -= n;
		}
		if (ret)
			failed++;
		else
			ok++;
	}
	printf("BIGREQS sent=%u failed=%u\n", ok, failed);
}

/* @tok with every "%d" replaced by @i, into @buf. */
static const char *subst(const char *tok, unsigned long i, char *buf, size_t len)
{
	const char *p;
	size_t n = 0;

	for (p = tok; *p && n + 24 < len; p++) {
		if (p[0] == '%' && p[1] == 'd') {
			n += (size_t)snprintf(buf + n, len - n, "%lu", i);
			p++;
		} else {
			buf[n++] = *p;
		}
	}
	if (*p)
		die("repeat: token too long");
	buf[n] = '\0';
	return buf;
}

static void step_repeat(char **w, int nr)
{
	static char bufs[MAX_WORDS][8192];
	const char *tokens[MAX_WORDS];
	unsigned long i, count, ok = 0, failed = 0;
	struct ltt_wbuf msg;
	int j, fd = conn();

	if (nr < 3)
		die("repeat needs N CMD");
	count = (unsigned long)number(w[1]);
	ltt_wbuf_init(&msg);
	for (i = 1; i <= count; i++) {
		for (j = 3; j < nr; j++)
			tokens[j - 3] = subst(w[j], i, bufs[j], sizeof(bufs[j]));
		ltt_wbuf_reset(&msg);
		build_msg(&msg, cmd_number(w[2]), tokens, nr - 3);
		if (write_all(fd, msg.data, msg.len) || read_reply(fd, false) != 0)
			failed++;
		else
			ok++;
	}
	printf("REPEAT ok=%lu failed=%lu\n", ok, failed);
	ltt_wbuf_fini(&msg);
}

static void step_close_conns(void)
{
	while (nr_conns)
		close(conns[--nr_conns]);
}

/* Send @cmd with @payload on @fd and read the reply.  Returns its status, or -1. */
static int roundtrip(int fd, int cmd, const struct ltt_wbuf *payload, uint8_t **ret_reply,
		     uint32_t *ret_len)
{
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE], *reply = NULL;
	struct ltt_client_hdr hdr = {
		.magic = LTT_CLIENT_MAGIC,
		.cmd = (uint16_t)cmd,
		.payload_len = payload ? (uint32_t)payload->len : 0,
	};

	ltt_client_hdr_encode(&hdr, hdrbuf);
	if (write_all(fd, hdrbuf, sizeof(hdrbuf)) ||
	    (hdr.payload_len && write_all(fd, payload->data, payload->len)))
		return -1;
	if (read_all(fd, hdrbuf, sizeof(hdrbuf), NULL) || ltt_client_hdr_decode(hdrbuf, &hdr))
		return -1;
	if (hdr.payload_len) {
		reply = malloc(hdr.payload_len);
		if (!reply)
			die("out of memory");
		if (read_all(fd, reply, hdr.payload_len, NULL)) {
			free(reply);
			return -1;
		}
	}
	*ret_reply = reply;
	*ret_len = hdr.payload_len;
	return (int)hdr.status;
}

static void print_hex(const uint8_t *p, uint32_t len)
{
	uint32_t i;

	for (i = 0; i < len; i++)
		printf("%02x", p[i]);
	putchar('\n');
}

static void step_dump(void)
{
	struct ltt_session_desc info;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint8_t *list = NULL, *detail = NULL;
	uint32_t len = 0, dlen = 0, i, n;
	int fd = open_conn(), status;

	if (fd < 0)
		die_errno(sock_path);
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MINOR);
	status = roundtrip(fd, LTT_CLIENT_CMD_HELLO, &w, &list, &len);
	free(list);
	list = NULL;
	if (status || roundtrip(fd, LTT_CLIENT_CMD_LIST_SESSIONS, NULL, &list, &len)) {
		puts("DUMP-FAILED");
		goto out;
	}
	printf("LIST ");
	print_hex(list, len);
	ltt_rbuf_init(&r, list, len);
	n = ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_session_info(&r, &info, LTT_CLIENT_MINOR);
		ltt_wbuf_reset(&w);
		ltt_wbuf_put_str(&w, info.name);
		status = roundtrip(fd, LTT_CLIENT_CMD_GET_SESSION, &w, &detail, &dlen);
		printf("SESSION %s ", info.name);
		if (status)
			printf("status=%d\n", status);
		else
			print_hex(detail, dlen);
		free(detail);
		detail = NULL;
	}
out:
	free(list);
	ltt_wbuf_fini(&w);
	close(fd);
}

static void step_pending(void)
{
	struct pollfd p = { .fd = conn(), .events = POLLIN };

	puts(poll(&p, 1, 0) == 1 ? "READY" : "PENDING");
}

static void step_pause(void)
{
	char line[64];

	puts("PAUSED");
	fflush(stdout);
	if (!fgets(line, sizeof(line), stdin))
		clearerr(stdin);
}

/* Split @step into words in place; returns their number. */
static int words(char *step, char **w)
{
	int nr = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(step, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (nr == MAX_WORDS)
			die("too many words in a step");
		w[nr++] = tok;
	}
	return nr;
}

int main(int argc, char **argv)
{
	char *w[MAX_WORDS];
	int i, nr;

	if (argc < 2) {
		fputs("usage: proto_client SOCKET STEP...\n", stderr);
		return 1;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	sock_path = argv[1];
	ltt_wbuf_init(&pending);
	for (i = 2; i < argc; i++) {
		nr = words(argv[i], w);
		if (!nr)
			continue;
		if (!strcmp(w[0], "hello"))
			step_hello(w, nr);
		else if (!strcmp(w[0], "req"))
			step_req(w, nr, true);
		else if (!strcmp(w[0], "send"))
			step_req(w, nr, false);
		else if (!strcmp(w[0], "reply"))
			read_reply(conn(), true);
		else if (!strcmp(w[0], "hdr"))
			step_hdr(w, nr);
		else if (!strcmp(w[0], "bytes"))
			step_bytes(w, nr);
		else if (!strcmp(w[0], "split"))
			step_split(w, nr);
		else if (!strcmp(w[0], "rest"))
			step_rest();
		else if (!strcmp(w[0], "expect-eof"))
			step_expect_eof(w, nr);
		else if (!strcmp(w[0], "flood"))
			step_flood(w, nr);
		else if (!strcmp(w[0], "conns"))
			step_conns(w, nr);
		else if (!strcmp(w[0], "bigreqs"))
			step_bigreqs(w, nr);
		else if (!strcmp(w[0], "repeat"))
			step_repeat(w, nr);
		else if (!strcmp(w[0], "close-conns"))
			step_close_conns();
		else if (!strcmp(w[0], "reconnect")) {
			if (conn_fd >= 0)
				close(conn_fd);
			conn_fd = -1;
		} else if (!strcmp(w[0], "pause"))
			step_pause();
		else if (!strcmp(w[0], "pending"))
			step_pending();
		else if (!strcmp(w[0], "dump"))
			step_dump();
		else
			die("unknown step");
	}
	step_close_conns();
	if (conn_fd >= 0)
		close(conn_fd);
	ltt_wbuf_fini(&pending);
	return 0;
}
