// SPDX-License-Identifier: GPL-2.0-only
/*
 * live_probe.c - a scripted live viewer (common/proto/live-proto.h) for the
 * tests of ltt-relayd's live port: one connection, one request a line on
 * stdin, each reply printed on one line (stream and session entries on
 * lines of their own), so a test can check every status and flag.
 *
 * Usage: live_probe HOST PORT, then lines of:
 *   connect [MAJOR MINOR]   -> "connect major=M minor=N id=I"
 *   create                  -> "create status=S"
 *   list                    -> "list count=N", then N x "session id=.. timer=..
 *                              clients=.. streams=.. host=.. name=.."
 *   attach SID [SEEK]       -> "attach status=S count=N" then N x
 *                              "stream id=.. trace=.. meta=.. path=.. channel=.."
 *   new SID                 -> "new status=S count=N" then the streams
 *   index STREAM            -> "index status=S flags=F offset=.. packet_size=..
 *                              content_size=.. begin=.. end=.. class=.."
 *   packet STREAM OFF LEN   -> "packet status=S flags=F len=L head=HEX8"
 *   metadata STREAM         -> "metadata status=S len=L"
 *   detach SID              -> "detach status=S"
 *   raw CMD SIZE            -> a request of SIZE zero bytes: "raw reply=U32"
 *                              or "raw closed"
 *   eof                     -> "eof closed" once the relay closed the
 *                              connection, "eof data" if it sent bytes
 *   bytes HEX               -> these bytes, as they are: "bytes sent"
 *   flood STREAM OFF LEN N  -> N GET_PACKET requests, no reply read:
 *                              "flood sent"
 *   waitclose               -> without reading: "waitclose closed" once the
 *                              relay closed or reset the connection, or
 *                              "waitclose timeout" after 30 s
 * A connection the relay closes prints "closed" and ends the program.
 */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "common/base/codec.h"
#include "common/proto/live-proto.h"

static int fd = -1;

static int tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int s = -1;

	if (getaddrinfo(host, port, &hints, &res))
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (s < 0)
			continue;
		if (!connect(s, ai->ai_addr, ai->ai_addrlen))
			break;
		close(s);
		s = -1;
	}
	freeaddrinfo(res);
	return s;
}

static void closed(void)
{
	printf("closed\n");
	exit(0);
}

static void send_request(uint32_t cmd, const struct ltt_wbuf *payload)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_request(&w, cmd, payload ? payload->data : NULL, payload ? payload->len : 0);
	if (w.err || ltt_io_write_all(fd, w.data, w.len))
		closed();
	ltt_wbuf_fini(&w);
}

/* Read exactly @len bytes of reply, or say the connection closed. */
static void recv_reply(void *buf, size_t len)
{
	if (ltt_io_read_all(fd, buf, len))
		closed();
}

static void request_u64(uint32_t cmd, uint64_t v)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_u64(&w, v);
	send_request(cmd, &w);
	ltt_wbuf_fini(&w);
}

static uint32_t recv_u32(void)
{
	uint8_t b[4];
	struct ltt_rbuf r;
	uint32_t v;

	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_u32(&r, &v);
	return v;
}

static void print_streams(uint32_t count)
{
	static uint8_t buf[LTT_LIVE_STREAM_SIZE];
	static struct ltt_live_stream s;

	for (uint32_t i = 0; i < count; i++) {
		struct ltt_rbuf r;

		recv_reply(buf, sizeof(buf));
		ltt_rbuf_init(&r, buf, sizeof(buf));
		if (ltt_live_get_stream(&r, &s)) {
			printf("stream malformed\n");
			continue;
		}
		printf("stream id=%" PRIu64 " trace=%" PRIu64 " meta=%u path=%s channel=%s\n", s.id,
		       s.ctf_trace_id, s.metadata_flag, s.path_name, s.channel_name);
	}
}

static void status_count(const char *what)
{
	struct ltt_live_status_count sc;
	uint8_t b[LTT_LIVE_STATUS_COUNT_SIZE];
	struct ltt_rbuf r;

	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_status_count(&r, &sc);
	printf("%s status=%u count=%u\n", what, sc.status, sc.count);
	print_streams(sc.count);
}

static void do_connect(uint32_t major, uint32_t minor)
{
	struct ltt_live_connect c = { UINT64_MAX, major, minor, LTT_LIVE_CLIENT_COMMAND };
	uint8_t b[LTT_LIVE_CONNECT_SIZE];
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_live_put_connect(&w, &c);
	send_request(LTT_LIVE_CONNECT, &w);
	ltt_wbuf_fini(&w);
	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_connect(&r, &c);
	printf("connect major=%u minor=%u id=%" PRIu64 "\n", c.major, c.minor,
	       c.viewer_session_id);
}

static void do_list(void)
{
	uint8_t b[LTT_LIVE_SESSION_SIZE];
	uint32_t count;

	send_request(LTT_LIVE_LIST_SESSIONS, NULL);
	count = recv_u32();
	printf("list count=%u\n", count);
	for (uint32_t i = 0; i < count; i++) {
		struct ltt_live_session s;
		struct ltt_rbuf r;

		recv_reply(b, sizeof(b));
		ltt_rbuf_init(&r, b, sizeof(b));
		ltt_live_get_session(&r, &s);
		printf("session id=%" PRIu64 " timer=%u clients=%u streams=%u host=%s name=%s\n",
		       s.id, s.live_timer_us, s.clients, s.streams, s.hostname, s.session_name);
	}
}

static void do_attach(uint64_t sid, uint32_t seek)
{
	struct ltt_live_attach_req rq = { sid, 0, seek };
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_live_put_attach_req(&w, &rq);
	send_request(LTT_LIVE_ATTACH_SESSION, &w);
	ltt_wbuf_fini(&w);
	status_count("attach");
}

static void do_index(uint64_t id)
{
	uint8_t b[LTT_LIVE_INDEX_SIZE];
	struct ltt_live_index ix;
	struct ltt_rbuf r;

	request_u64(LTT_LIVE_GET_NEXT_INDEX, id);
	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_index(&r, &ix);
	printf("index status=%u flags=%u offset=%" PRIu64 " packet_size=%" PRIu64
	       " content_size=%" PRIu64 " begin=%" PRIu64 " end=%" PRIu64 " class=%" PRIu64 "\n",
	       ix.status, ix.flags, ix.offset, ix.packet_size, ix.content_size, ix.timestamp_begin,
	       ix.timestamp_end, ix.stream_id);
}

static void do_packet(uint64_t id, uint64_t off, uint32_t len)
{
	struct ltt_live_packet_req rq = { id, off, len };
	uint8_t b[LTT_LIVE_PACKET_REPLY_SIZE], *data;
	struct ltt_live_packet_reply rp;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_live_put_packet_req(&w, &rq);
	send_request(LTT_LIVE_GET_PACKET, &w);
	ltt_wbuf_fini(&w);
	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_packet_reply(&r, &rp);
	data = calloc(1, rp.len + 4);
	if (!data)
		exit(1);
	recv_reply(data, rp.len);
	printf("packet status=%u flags=%u len=%u head=%02x%02x%02x%02x\n", rp.status, rp.flags,
	       rp.len, data[0], data[1], data[2], data[3]);
	free(data);
}

static void do_metadata(uint64_t id)
{
	uint8_t b[LTT_LIVE_METADATA_REPLY_SIZE], *data;
	struct ltt_live_metadata_reply rp;
	struct ltt_rbuf r;

	request_u64(LTT_LIVE_GET_METADATA, id);
	recv_reply(b, sizeof(b));
	ltt_rbuf_init(&r, b, sizeof(b));
	ltt_live_get_metadata_reply(&r, &rp);
	if (rp.len > (64u << 20))
		exit(1);
	data = malloc(rp.len + 1);
	if (!data)
		exit(1);
	recv_reply(data, rp.len);
	printf("metadata status=%u len=%" PRIu64 "\n", rp.status, rp.len);
	free(data);
}

static void do_raw(uint32_t cmd, size_t size)
{
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	if (!ltt_wbuf_reserve(&w, size))
		exit(1);
	memset(w.data, 0, size);
	send_request(cmd, &w);
	ltt_wbuf_fini(&w);
	printf("raw reply=%u\n", recv_u32());
}

static void do_eof(void)
{
	char c;
	ssize_t n = recv(fd, &c, 1, 0);

	printf("eof %s\n", n == 0 ? "closed" : n > 0 ? "data" : strerror(errno));
}

static void do_bytes(const char *hex)
{
	uint8_t buf[256];
	size_t n = 0;

	while (hex[0] && hex[1] && n < sizeof(buf)) {
		unsigned int v;

		if (sscanf(hex, "%2x", &v) != 1)
			break;
		buf[n++] = v;
		hex += 2;
	}
	if (ltt_io_write_all(fd, buf, n))
		closed();
	printf("bytes sent\n");
}

static void do_flood(uint64_t id, uint64_t off, uint32_t len, unsigned int count)
{
	struct ltt_live_packet_req rq = { id, off, len };
	struct ltt_wbuf p, w;

	ltt_wbuf_init(&p);
	ltt_wbuf_init(&w);
	ltt_live_put_packet_req(&p, &rq);
	for (unsigned int i = 0; i < count; i++)
		ltt_live_put_request(&w, LTT_LIVE_GET_PACKET, p.data, p.len);
	if (w.err || ltt_io_write_all(fd, w.data, w.len))
		closed();
	ltt_wbuf_fini(&p);
	ltt_wbuf_fini(&w);
	printf("flood sent\n");
}

static void do_waitclose(void)
{
	struct pollfd pfd = { .fd = fd, .events = POLLRDHUP };
	int n = poll(&pfd, 1, 30000);

	printf("waitclose %s\n", n > 0 ? "closed" : "timeout");
}

static void run_line(char *line)
{
	char *a[5] = { 0 };
	int n = 0;

	for (char *t = strtok(line, " \t\n"); t && n < 5; t = strtok(NULL, " \t\n"))
		a[n++] = t;
	if (!n)
		return;
#define NUM(i) strtoull(a[i] ? a[i] : "0", NULL, 0)
	if (!strcmp(a[0], "connect"))
		do_connect(n > 1 ? NUM(1) : LTT_LIVE_MAJOR, n > 2 ? NUM(2) : LTT_LIVE_MINOR_2_4);
	else if (!strcmp(a[0], "create")) {
		send_request(LTT_LIVE_CREATE_SESSION, NULL);
		printf("create status=%u\n", recv_u32());
	} else if (!strcmp(a[0], "list"))
		do_list();
	else if (!strcmp(a[0], "attach"))
		do_attach(NUM(1), n > 2 ? NUM(2) : LTT_LIVE_SEEK_BEGINNING);
	else if (!strcmp(a[0], "new")) {
		request_u64(LTT_LIVE_GET_NEW_STREAMS, NUM(1));
		status_count("new");
	} else if (!strcmp(a[0], "index"))
		do_index(NUM(1));
	else if (!strcmp(a[0], "packet"))
		do_packet(NUM(1), NUM(2), NUM(3));
	else if (!strcmp(a[0], "metadata"))
		do_metadata(NUM(1));
	else if (!strcmp(a[0], "detach")) {
		request_u64(LTT_LIVE_DETACH_SESSION, NUM(1));
		printf("detach status=%u\n", recv_u32());
	} else if (!strcmp(a[0], "raw"))
		do_raw(NUM(1), NUM(2));
	else if (!strcmp(a[0], "eof"))
		do_eof();
	else if (!strcmp(a[0], "bytes"))
		do_bytes(a[1] ? a[1] : "");
	else if (!strcmp(a[0], "flood"))
		do_flood(NUM(1), NUM(2), NUM(3), NUM(4));
	else if (!strcmp(a[0], "waitclose"))
		do_waitclose();
	else
		printf("error: unknown step %s\n", a[0]);
#undef NUM
}

int main(int argc, char **argv)
{
	char line[512];

	if (argc != 3) {
		fprintf(stderr, "usage: live_probe HOST PORT\n");
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	fd = tcp_connect(argv[1], argv[2]);
	if (fd < 0) {
		fprintf(stderr, "live_probe: cannot connect to %s:%s\n", argv[1], argv[2]);
		return 1;
	}
	while (fgets(line, sizeof(line), stdin))
		run_line(line);
	close(fd);
	return 0;
}
