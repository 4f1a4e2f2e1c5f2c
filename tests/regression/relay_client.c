// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay_client.c - a consumer's side of the relay protocol
 * (common/proto/relay-proto.h), for the regression tests of ltt-relayd.
 *
 * Usage: relay_client [OPTION...] COMMAND CTRL_PORT DATA_PORT [TRACE_DIR]
 *
 *   replay TRACE_DIR   stream a trace written by a local session through
 *                      the relay: VERSION, CREATE_SESSION, ADD_STREAM for
 *                      its metadata and each stream file that has an index
 *                      file, STREAMS_SENT, its metadata, then each packet
 *                      (as its index file describes it) on the data
 *                      connection (its content, the padding announced in
 *                      the header, as a consumer sends it; --whole: all of
 *                      it, padding 0) with its SEND_INDEX on the control one,
 *                      streams interleaved, then CLOSE_STREAM, DATA_PENDING
 *                      until nothing is pending, END_DATA_PENDING.
 *                      Prints "OUTPUT PATH", "PACKETS N", "PENDING_POLLS N".
 *   pending            DATA_PENDING while a packet is half sent: prints
 *                      "HALF pending=P end_pending=E", then, once the rest
 *                      is sent, "FULL pending=P end_pending=E"
 *   stall              one stream; a packet header and half its bytes on
 *                      the data connection, then nothing: prints
 *                      "CLOSED_BY_RELAY" when the relay closes the data
 *                      connection (or "STILL_OPEN" after --wait seconds),
 *                      then sends the packet whole on a new connection and
 *                      prints "RESENT pending=P"
 *
 *   hold [N]           a session with N streams (chan_0..., default 1) and
 *                      no packets: prints "OUTPUT PATH", "STREAMS K" (those
 *                      added), "REFUSED NAME RET" for the first the relay
 *                      refused, "WAITING"; closes at EOF on stdin
 *
 * Options: --host H, --session S (default "relaytest"), --base-path P,
 * --pathname P (default "ust/uid/0/64-bit"), --index-first (SEND_INDEX
 * before the packet; default after), --tracefile-size N,
 * --tracefile-count N, --live-timer US, --wait S (default 20),
 * --keep-open (replay: stop before closing the streams, wait for EOF on
 * stdin, then close).
 *
 * Exit status: 0 when the relay answered as a relay should, 1 otherwise
 * (a message on stderr says what).
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/codec.h"
#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"

#define MAX_STREAMS 256

struct opts {
	const char *host, *session, *base_path, *pathname;
	bool index_first, keep_open, whole, name_has_date;
	uint64_t tracefile_size, tracefile_count;
	uint32_t live_timer;
	int wait_s;
};

struct rstream {
	char name[256];
	uint64_t handle;
	int fd, idx_fd;
	uint32_t entry_size;
	uint64_t next_seq;
	bool done;
};

static int ctrl_fd = -1, data_fd = -1;
static struct opts o = {
	.host = "testhost", .session = "relaytest", .base_path = "",
	.pathname = "ust/uid/0/64-bit", .wait_s = 20,
};

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "relay_client: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static int tcp_connect(int port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port) };
	struct timeval tv = { .tv_sec = o.wait_s };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), one = 1;

	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)))
		die("connect to port %d: %s", port, strerror(errno));
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static void send_all(int fd, const void *buf, size_t len)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			die("send: %s", n < 0 ? strerror(errno) : "closed");
		buf = (const char *)buf + n;
		len -= (size_t)n;
	}
}

static void recv_all(int fd, void *buf, size_t len)
{
	while (len) {
		ssize_t n = recv(fd, buf, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0)
			die("the relay closed the connection");
		if (n < 0)
			die("recv: %s", strerror(errno));
		buf = (char *)buf + n;
		len -= (size_t)n;
	}
}

/* A control request: header + @payload. */
static void request(uint32_t cmd, const struct ltt_wbuf *payload)
{
	struct ltt_relay_ctrl_hdr h = { .data_size = payload ? payload->len : 0, .cmd = cmd };

	/* as ltt's consumers: metadata answered once written */
	if (cmd == LTT_RELAY_SEND_METADATA)
		h.cmd_version = LTT_RELAY_METADATA_ANSWERED;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_relay_put_ctrl_hdr(&w, &h);
	if (payload)
		ltt_wbuf_put_bytes(&w, payload->data, payload->len);
	if (w.err)
		die("encoding command %u: %d", cmd, w.err);
	send_all(ctrl_fd, w.data, w.len);
	ltt_wbuf_fini(&w);
}

static uint32_t reply_ret(const char *what)
{
	uint8_t buf[4];
	struct ltt_rbuf r;
	uint32_t ret;

	recv_all(ctrl_fd, buf, sizeof(buf));
	ltt_rbuf_init(&r, buf, sizeof(buf));
	if (ltt_relay_get_ret(&r, &ret))
		die("%s: bad reply", what);
	return ret;
}

static void expect_ok(const char *what)
{
	uint32_t ret = reply_ret(what);

	if (ret != LTT_RELAY_OK)
		die("%s: %s (%u)", what, ltt_relay_ret_str(ret), ret);
}

/* The protocol's minor both sides speak, from VERSION. */
static uint32_t peer_minor;

static void version(void)
{
	struct ltt_relay_version v = { LTT_RELAY_MAJOR, LTT_RELAY_MINOR };
	uint8_t buf[8];
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_relay_put_version(&w, &v);
	request(LTT_RELAY_VERSION, &w);
	ltt_wbuf_fini(&w);
	recv_all(ctrl_fd, buf, sizeof(buf));
	ltt_rbuf_init(&r, buf, sizeof(buf));
	if (ltt_relay_get_version(&r, &v) || v.major != LTT_RELAY_MAJOR)
		die("VERSION: bad reply");
	peer_minor = v.minor < LTT_RELAY_MINOR ? v.minor : LTT_RELAY_MINOR;
}

/* The reply's fixed part then its path; returns the session id. */
static uint64_t create_session(void)
{
	struct ltt_relay_create_session cs = { 0 };
	struct ltt_relay_create_session_reply *rep = malloc(sizeof(*rep));
	uint8_t head[16], *all;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t path_len;
	uint64_t id;

	snprintf(cs.session_name, sizeof(cs.session_name), "%s", o.session);
	snprintf(cs.hostname, sizeof(cs.hostname), "%s", o.host);
	snprintf(cs.base_path, sizeof(cs.base_path), "%s", o.base_path);
	cs.live_timer_us = o.live_timer;
	cs.session_id = 42;
	cs.creation_time = (uint64_t)time(NULL);
	cs.session_name_contains_creation_time = o.name_has_date;
	ltt_wbuf_init(&w);
	cs.trace_format = LTT_TRACE_FORMAT_CTF_1_8;
	ltt_relay_put_create_session(&w, &cs, peer_minor);
	request(LTT_RELAY_CREATE_SESSION, &w);
	ltt_wbuf_fini(&w);
	recv_all(ctrl_fd, head, sizeof(head));
	path_len = (uint32_t)head[12] << 24 | (uint32_t)head[13] << 16 |
		   (uint32_t)head[14] << 8 | head[15];
	if (!rep || path_len > LTT_RELAY_PATH_MAX)
		die("CREATE_SESSION: bad reply");
	all = malloc(sizeof(head) + path_len);
	memcpy(all, head, sizeof(head));
	recv_all(ctrl_fd, all + sizeof(head), path_len);
	ltt_rbuf_init(&r, all, sizeof(head) + path_len);
	if (ltt_relay_get_create_session_reply(&r, rep))
		die("CREATE_SESSION: malformed reply");
	if (rep->ret_code != LTT_RELAY_OK)
		die("CREATE_SESSION: %s", ltt_relay_ret_str(rep->ret_code));
	printf("OUTPUT %s\n", rep->output_path);
	id = rep->relay_session_id;
	free(all);
	free(rep);
	return id;
}

/* ADD_STREAM; returns its ret_code, the handle in @ret_handle. */
static uint32_t try_add_stream(const char *name, uint64_t *ret_handle)
{
	struct ltt_relay_add_stream as = {
		.tracefile_size = o.tracefile_size, .tracefile_count = o.tracefile_count,
	};
	struct ltt_relay_add_stream_reply rep;
	uint8_t buf[12];
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	snprintf(as.channel_name, sizeof(as.channel_name), "%s", name);
	snprintf(as.pathname, sizeof(as.pathname), "%s", o.pathname);
	ltt_wbuf_init(&w);
	ltt_relay_put_add_stream(&w, &as);
	request(LTT_RELAY_ADD_STREAM, &w);
	ltt_wbuf_fini(&w);
	recv_all(ctrl_fd, buf, sizeof(buf));
	ltt_rbuf_init(&r, buf, sizeof(buf));
	if (ltt_relay_get_add_stream_reply(&r, &rep))
		die("ADD_STREAM: malformed reply");
	*ret_handle = rep.stream_handle;
	return rep.ret_code;
}

static uint64_t add_stream(const char *name)
{
	uint64_t h;
	uint32_t ret = try_add_stream(name, &h);

	if (ret != LTT_RELAY_OK)
		die("ADD_STREAM %s: %s", name, ltt_relay_ret_str(ret));
	return h;
}

/*
 * hold N: a session with up to N streams chan_0.., no packets; prints
 * "STREAMS K" (K added) and "REFUSED NAME RET" for the first one refused,
 * then "WAITING", and keeps the session until EOF on stdin.
 */
static int cmd_hold(unsigned long n)
{
	char name[32], c;
	unsigned long i;
	uint64_t h;
	uint32_t ret = LTT_RELAY_OK;

	version();
	create_session();
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "chan_%lu", i);
		ret = try_add_stream(name, &h);
		if (ret != LTT_RELAY_OK)
			break;
	}
	printf("STREAMS %lu\n", i);
	if (ret != LTT_RELAY_OK)
		printf("REFUSED %s %s\n", name, ltt_relay_ret_str(ret));
	printf("WAITING\n");
	while (read(0, &c, 1) > 0)
		;
	return 0;
}

static void u64_request(uint32_t cmd, uint64_t v)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_relay_put_u64_msg(&w, v);
	request(cmd, &w);
	ltt_wbuf_fini(&w);
}

static void seq_request(uint32_t cmd, uint64_t handle, uint64_t seq)
{
	struct ltt_relay_stream_seq m = { handle, seq };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_relay_put_stream_seq(&w, &m);
	request(cmd, &w);
	ltt_wbuf_fini(&w);
}

/* LTTng's reply: {u32} 1 while data is in flight, else 0. */
static uint32_t end_data_pending(uint64_t session_id)
{
	uint32_t pending;

	u64_request(LTT_RELAY_END_DATA_PENDING, session_id);
	pending = reply_ret("END_DATA_PENDING");
	if (pending > 1)
		die("END_DATA_PENDING: bad reply");
	return pending;
}

static uint32_t data_pending(uint64_t handle, uint64_t last_seq)
{
	seq_request(LTT_RELAY_DATA_PENDING, handle, last_seq);
	return reply_ret("DATA_PENDING");
}

/* SEND_METADATA of the whole file, in requests of at most 64 KiB. */
static void send_metadata(uint64_t handle, const char *dir)
{
	char path[4096];
	uint8_t buf[65536];
	struct ltt_relay_metadata_hdr mh = { .stream_handle = handle };
	struct ltt_wbuf w;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die("%s: %s", path, strerror(errno));
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		ltt_wbuf_init(&w);
		ltt_relay_put_metadata_hdr(&w, &mh);
		ltt_wbuf_put_bytes(&w, buf, (size_t)n);
		request(LTT_RELAY_SEND_METADATA, &w);
		ltt_wbuf_fini(&w);
		expect_ok("SEND_METADATA");
	}
	close(fd);
}

/*
 * SEND_INDEX, its reply not read: the relay answers a packet's index once
 * the packet is written, so a client that sends the index first reads its
 * reply after sending the packet.
 */
static void send_index_request(const struct rstream *s, const struct ltt_ctf_index_entry *e,
			       uint64_t seq)
{
	struct ltt_relay_index idx = {
		.stream_handle = s->handle, .net_seq_num = seq,
		.packet_size = e->packet_size, .content_size = e->content_size,
		.timestamp_begin = e->timestamp_begin, .timestamp_end = e->timestamp_end,
		.events_discarded = e->events_discarded, .stream_id = e->stream_id,
		.stream_instance_id = e->stream_instance_id, .packet_seq_num = e->packet_seq_num,
	};
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_relay_put_index(&w, &idx);
	request(LTT_RELAY_SEND_INDEX, &w);
	ltt_wbuf_fini(&w);
}

static void send_index(const struct rstream *s, const struct ltt_ctf_index_entry *e, uint64_t seq)
{
	send_index_request(s, e, seq);
	expect_ok("SEND_INDEX");
}

static void send_data_hdr(uint64_t handle, uint64_t seq, uint32_t size, uint32_t padding)
{
	struct ltt_relay_data_hdr h = { .stream_handle = handle, .net_seq_num = seq,
					.data_size = size, .padding_size = padding };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_relay_put_data_hdr(&w, &h);
	send_all(data_fd, w.data, w.len);
	ltt_wbuf_fini(&w);
}

/* The packet at @off of @len bytes of @fd, on the data connection. */
static void send_packet_bytes(int fd, uint64_t off, uint64_t len)
{
	static uint8_t buf[65536];

	while (len) {
		size_t chunk = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t n = pread(fd, buf, chunk, (off_t)off);

		if (n <= 0)
			die("reading a packet: %s", n < 0 ? strerror(errno) : "short file");
		send_all(data_fd, buf, (size_t)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
}

/* Send @s's next packet and its index; false when it has no more. */
static bool send_next(struct rstream *s)
{
	uint8_t rec[128];
	struct ltt_ctf_index_entry e;
	uint64_t content;
	off_t at = LTT_CTF_INDEX_HEADER_SIZE + (off_t)(s->next_seq * s->entry_size);
	ssize_t n = pread(s->idx_fd, rec, s->entry_size, at);

	if (n == 0)
		return false;
	if (n != (ssize_t)s->entry_size || ltt_ctf_index_entry_decode(rec, s->entry_size, &e))
		die("%s: bad index entry", s->name);
	if (o.index_first)
		send_index_request(s, &e, s->next_seq);	/* its reply after the packet */
	/* as a consumer sends it: the content, the padding announced (--whole: all) */
	content = o.whole ? e.packet_size / 8 : (e.content_size + 7) / 8;
	send_data_hdr(s->handle, s->next_seq, (uint32_t)content,
		      (uint32_t)(e.packet_size / 8 - content));
	send_packet_bytes(s->fd, e.offset, content);
	if (!o.index_first)
		send_index(s, &e, s->next_seq);
	else
		expect_ok("SEND_INDEX");
	s->next_seq++;
	return true;
}

static size_t open_streams(const char *dir, struct rstream *streams)
{
	char path[4096], hdr[LTT_CTF_INDEX_HEADER_SIZE];
	struct dirent *de;
	size_t n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/index", dir);
	d = opendir(path);
	if (!d)
		die("%s: %s", path, strerror(errno));
	while ((de = readdir(d)) && n < MAX_STREAMS) {
		struct rstream *s = &streams[n];
		size_t len = strlen(de->d_name);

		if (len <= 4 || strcmp(de->d_name + len - 4, ".idx"))
			continue;
		memset(s, 0, sizeof(*s));
		snprintf(s->name, sizeof(s->name), "%.*s", (int)(len - 4), de->d_name);
		snprintf(path, sizeof(path), "%s/index/%s", dir, de->d_name);
		s->idx_fd = open(path, O_RDONLY | O_CLOEXEC);
		snprintf(path, sizeof(path), "%s/%s", dir, s->name);
		s->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (s->fd < 0 || s->idx_fd < 0 ||
		    read(s->idx_fd, hdr, sizeof(hdr)) != (ssize_t)sizeof(hdr) ||
		    ltt_ctf_index_header_decode((uint8_t *)hdr, &s->entry_size))
			die("%s: can't read the stream or its index", s->name);
		n++;
	}
	closedir(d);
	return n;
}

static void wait_stdin_eof(void)
{
	char c;

	printf("WAITING\n");
	fflush(stdout);
	while (read(STDIN_FILENO, &c, 1) > 0)
		;
}

static int cmd_replay(const char *dir)
{
	static struct rstream streams[MAX_STREAMS];
	size_t n = open_streams(dir, streams), i, left = n;
	uint64_t sid, packets = 0, polls = 0, meta;

	version();
	sid = create_session();
	meta = add_stream("metadata");
	for (i = 0; i < n; i++)
		streams[i].handle = add_stream(streams[i].name);
	request(LTT_RELAY_STREAMS_SENT, NULL);
	expect_ok("STREAMS_SENT");
	send_metadata(meta, dir);
	while (left) {
		for (i = 0; i < n; i++) {
			if (streams[i].done)
				continue;
			if (send_next(&streams[i])) {
				packets++;
			} else {
				streams[i].done = true;
				left--;
			}
		}
	}
	printf("PACKETS %" PRIu64 "\n", packets);
	if (o.keep_open) {
		fflush(stdout);
		wait_stdin_eof();
	}
	for (i = 0; i < n; i++) {
		uint64_t last = streams[i].next_seq ? streams[i].next_seq - 1 : UINT64_MAX;

		while (data_pending(streams[i].handle, last)) {
			struct timespec ts = { 0, 1000000 };

			if (++polls > (uint64_t)o.wait_s * 1000)
				die("data still pending after %d s", o.wait_s);
			nanosleep(&ts, NULL);
		}
		seq_request(LTT_RELAY_CLOSE_STREAM, streams[i].handle, last);
		expect_ok("CLOSE_STREAM");
	}
	seq_request(LTT_RELAY_CLOSE_STREAM, meta, UINT64_MAX);
	expect_ok("CLOSE_STREAM metadata");
	u64_request(LTT_RELAY_BEGIN_DATA_PENDING, sid);
	expect_ok("BEGIN_DATA_PENDING");
	if (end_data_pending(sid))
		die("END_DATA_PENDING: still pending after every DATA_PENDING said 0");
	printf("PENDING_POLLS %" PRIu64 "\n", polls);
	return 0;
}

/* A 4 KiB packet of a stream, as ltt packets begin (the bytes don't matter). */
static void fake_packet(uint8_t *buf, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		buf[i] = (uint8_t)(i * 7 + 3);
}

static uint64_t setup_one_stream(uint64_t *ret_sid)
{
	uint64_t h;

	version();
	*ret_sid = create_session();
	add_stream("metadata");
	h = add_stream("chan_0");
	request(LTT_RELAY_STREAMS_SENT, NULL);
	expect_ok("STREAMS_SENT");
	return h;
}

static int cmd_pending(int data_port)
{
	struct ltt_ctf_index_entry e = { .packet_size = 4096 * 8, .content_size = 4000 * 8,
					 .timestamp_begin = 100, .timestamp_end = 200,
					 .stream_id = 0, .stream_instance_id = 0 };
	struct rstream s = { .handle = 0 };
	uint8_t pkt[4096];
	uint64_t sid;
	uint32_t p, ep;
	int polls = 0;

	s.handle = setup_one_stream(&sid);
	data_fd = tcp_connect(data_port);
	fake_packet(pkt, sizeof(pkt));
	/* the index after the packet: its reply means "written", and the
	 * control requests after it wait for it */
	send_data_hdr(s.handle, 0, sizeof(pkt), 0);
	send_all(data_fd, pkt, sizeof(pkt) / 2);
	p = data_pending(s.handle, 0);
	u64_request(LTT_RELAY_BEGIN_DATA_PENDING, sid);
	expect_ok("BEGIN_DATA_PENDING");
	ep = end_data_pending(sid);
	printf("HALF pending=%u end_pending=%u\n", p, ep);
	send_all(data_fd, pkt + sizeof(pkt) / 2, sizeof(pkt) / 2);
	send_index(&s, &e, 0);
	p = 1;
	while (p && (p = data_pending(s.handle, 0)) && ++polls < o.wait_s * 1000) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	ep = end_data_pending(sid);
	printf("FULL pending=%u end_pending=%u\n", p, ep);
	return 0;
}

static int cmd_stall(int data_port)
{
	uint8_t pkt[8192], c;
	struct pollfd pfd;
	uint64_t sid, h;
	uint32_t p = 1;
	int polls = 0;

	h = setup_one_stream(&sid);
	data_fd = tcp_connect(data_port);
	fake_packet(pkt, sizeof(pkt));
	send_data_hdr(h, 0, sizeof(pkt), 0);
	send_all(data_fd, pkt, 100);
	pfd = (struct pollfd){ .fd = data_fd, .events = POLLIN };
	if (poll(&pfd, 1, o.wait_s * 1000) == 1 && recv(data_fd, &c, 1, 0) <= 0)
		printf("CLOSED_BY_RELAY\n");
	else
		printf("STILL_OPEN\n");
	fflush(stdout);
	close(data_fd);
	data_fd = tcp_connect(data_port);
	send_data_hdr(h, 0, sizeof(pkt), 0);
	send_all(data_fd, pkt, sizeof(pkt));
	while ((p = data_pending(h, 0)) && ++polls < o.wait_s * 1000) {
		struct timespec ts = { 0, 1000000 };

		nanosleep(&ts, NULL);
	}
	printf("RESENT pending=%u\n", p);
	return 0;
}

static uint64_t num_arg(const char *opt, const char *v)
{
	char *end;
	unsigned long long n;

	errno = 0;
	n = strtoull(v, &end, 0);
	if (errno || *end || !*v)
		die("%s: not a number: %s", opt, v);
	return n;
}

int main(int argc, char **argv)
{
	int i = 1, ctrl_port, data_port;
	const char *cmd;

	for (; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!strcmp(a, "--index-first")) {
			o.index_first = true;
			continue;
		}
		if (!strcmp(a, "--keep-open")) {
			o.keep_open = true;
			continue;
		}
		if (!strcmp(a, "--whole")) {
			o.whole = true;
			continue;
		}
		/* CREATE_SESSION's session_name_contains_creation_time */
		if (!strcmp(a, "--name-has-date")) {
			o.name_has_date = true;
			continue;
		}
		if (!v)
			die("%s needs a value", a);
		i++;
		if (!strcmp(a, "--host"))
			o.host = v;
		else if (!strcmp(a, "--session"))
			o.session = v;
		else if (!strcmp(a, "--base-path"))
			o.base_path = v;
		else if (!strcmp(a, "--pathname"))
			o.pathname = v;
		else if (!strcmp(a, "--tracefile-size"))
			o.tracefile_size = num_arg(a, v);
		else if (!strcmp(a, "--tracefile-count"))
			o.tracefile_count = num_arg(a, v);
		else if (!strcmp(a, "--live-timer"))
			o.live_timer = (uint32_t)num_arg(a, v);
		else if (!strcmp(a, "--wait"))
			o.wait_s = (int)num_arg(a, v);
		else
			die("unknown option %s", a);
	}
	if (argc - i < 3)
		die("usage: relay_client [OPTION...] replay|pending|stall|hold CTRL_PORT DATA_PORT [DIR|N]");
	cmd = argv[i];
	ctrl_port = (int)num_arg("CTRL_PORT", argv[i + 1]);
	data_port = (int)num_arg("DATA_PORT", argv[i + 2]);
	setvbuf(stdout, NULL, _IOLBF, 0);
	ctrl_fd = tcp_connect(ctrl_port);
	if (!strcmp(cmd, "replay")) {
		if (argc - i < 4)
			die("replay needs a trace directory");
		data_fd = tcp_connect(data_port);
		return cmd_replay(argv[i + 3]);
	}
	if (!strcmp(cmd, "pending"))
		return cmd_pending(data_port);
	if (!strcmp(cmd, "stall"))
		return cmd_stall(data_port);
	if (!strcmp(cmd, "hold"))
		return cmd_hold(argc - i < 4 ? 1 : num_arg("N", argv[i + 3]));
	die("unknown command %s", cmd);
}
