// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay_feed.c - a scripted consumer for ltt-relayd: speaks the relay
 * protocol (common/proto/relay-proto.h) on a control and a data connection and
 * sends a synthetic CTF 1.8 trace whose events the tests know exactly.
 *
 * Commands on stdin, one a line; each is answered on stdout by a line
 * starting with "ok" (once the relay acknowledged it) or "error: ...":
 *
 *   connect HOST CTRL_PORT DATA_PORT       both connections, VERSION
 *   session NAME HOSTNAME LIVE_TIMER_US    CREATE_SESSION -> "ok ID PATH"
 *   stream CHANNEL PATHNAME                ADD_STREAM -> "ok N HANDLE";
 *                                          CHANNEL "metadata" makes the
 *                                          trace's metadata stream
 *   sent                                   STREAMS_SENT
 *   metadata N                             the TSDL, packetized, to stream N
 *   metadata-late N                        more TSDL to stream N: event
 *                                          class feed:late, id 1
 *   packet N FIRST COUNT TS STEP [ID]      one packet on stream N: COUNT
 *                                          events feed:seq (or feed:late
 *                                          with ID 1) {seq, val = seq * 3},
 *                                          seq from FIRST, time TS + i *
 *                                          STEP, then its index
 *   packet-part N FIRST COUNT TS STEP BYTES  the same packet's header and
 *                                          only its first BYTES bytes (no
 *                                          index): a sender cut off
 *   beacon N TS                            a live beacon: nothing until TS
 *   close N                                CLOSE_STREAM after its last packet
 *   end                                    close both connections
 *
 * Streams are numbered from 0 in the order they were added.  The data
 * stream N records cpu_id N.  Every event class is in stream class 0.
 */
#include <errno.h>
#include <inttypes.h>
#include <netdb.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/sock.h"
#include "common/base/codec.h"
#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"

#define MAX_STREAMS 64
#define MAX_EVENTS 4096

struct feed_stream {
	uint64_t handle;
	uint64_t next_seq;	/* net_seq_num of the next packet */
	uint64_t packet_seq;
};

static int ctrl_fd = -1, data_fd = -1;
static struct feed_stream streams[MAX_STREAMS];
static unsigned int nstreams;
static char hostname[LTT_RELAY_HOST_NAME_MAX] = "feedhost";

static const uint8_t trace_uuid[16] = {
	0x6c, 0x74, 0x74, 0x2d, 0x6c, 0x69, 0x76, 0x65,
	0x2d, 0x66, 0x65, 0x65, 0x64, 0x00, 0x00, 0x01,
};

static int tcp_connect(const char *host, const char *port)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	int fd = -1;

	if (getaddrinfo(host, port, &hints, &res))
		return -1;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
		if (fd < 0)
			continue;
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	return fd;
}

/* Send a control request and read @reply_len bytes of reply into @reply. */
static int ctrl_request(uint32_t cmd, const struct ltt_wbuf *payload, void *reply,
			size_t reply_len)
{
	struct ltt_relay_ctrl_hdr h = { 0, payload ? payload->len : 0, cmd,
					cmd == LTT_RELAY_SEND_METADATA ? LTT_RELAY_METADATA_ANSWERED : 0 };
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_relay_put_ctrl_hdr(&w, &h);
	if (payload)
		ltt_wbuf_put_bytes(&w, payload->data, payload->len);
	ret = w.err ? w.err : ltt_io_write_all(ctrl_fd, w.data, w.len);
	ltt_wbuf_fini(&w);
	if (!ret && reply_len)
		ret = ltt_io_read_all(ctrl_fd, reply, reply_len);
	return ret;
}

/* A request whose reply is a bare ret_code. */
static int ctrl_simple(uint32_t cmd, const struct ltt_wbuf *payload)
{
	uint8_t rep[4];
	uint32_t code;
	struct ltt_rbuf r;
	int ret = ctrl_request(cmd, payload, rep, sizeof(rep));

	if (ret)
		return ret;
	ltt_rbuf_init(&r, rep, sizeof(rep));
	if (ltt_relay_get_ret(&r, &code))
		return -EPROTO;
	if (code != LTT_RELAY_OK) {
		fprintf(stderr, "relay_feed: command %u: %s\n", cmd, ltt_relay_ret_str(code));
		return -EIO;
	}
	return 0;
}

/* The protocol's minor both sides speak, from VERSION. */
static uint32_t peer_minor;

static int do_connect(const char *host, const char *cport, const char *dport)
{
	struct ltt_relay_version v = { LTT_RELAY_MAJOR, LTT_RELAY_MINOR };
	uint8_t rep[8];
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	ctrl_fd = tcp_connect(host, cport);
	data_fd = tcp_connect(host, dport);
	if (ctrl_fd < 0 || data_fd < 0)
		return -ECONNREFUSED;
	ltt_wbuf_init(&w);
	ltt_relay_put_version(&w, &v);
	ret = ctrl_request(LTT_RELAY_VERSION, &w, rep, sizeof(rep));
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, rep, sizeof(rep));
	if (ltt_relay_get_version(&r, &v) || v.major != LTT_RELAY_MAJOR)
		return -EPROTO;
	peer_minor = v.minor < LTT_RELAY_MINOR ? v.minor : LTT_RELAY_MINOR;
	return 0;
}

static int do_session(const char *name, const char *host, unsigned long live_us)
{
	struct ltt_relay_create_session cs = { .live_timer_us = live_us, .creation_time = 1767225600,
					       .trace_format = LTT_TRACE_FORMAT_CTF_1_8 };
	struct ltt_relay_create_session_reply rep;
	uint8_t head[16], *buf;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t path_len;
	int ret;

	snprintf(cs.session_name, sizeof(cs.session_name), "%s", name);
	snprintf(cs.hostname, sizeof(cs.hostname), "%s", host);
	snprintf(hostname, sizeof(hostname), "%s", host);
	ltt_wbuf_init(&w);
	ltt_relay_put_create_session(&w, &cs, peer_minor);
	ret = ctrl_request(LTT_RELAY_CREATE_SESSION, &w, head, sizeof(head));
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	path_len = (uint32_t)head[12] << 24 | head[13] << 16 | head[14] << 8 | head[15];
	if (path_len > LTT_RELAY_PATH_MAX)
		return -EPROTO;
	buf = malloc(sizeof(head) + path_len);
	if (!buf)
		return -ENOMEM;
	memcpy(buf, head, sizeof(head));
	ret = ltt_io_read_all(ctrl_fd, buf + sizeof(head), path_len);
	ltt_rbuf_init(&r, buf, sizeof(head) + path_len);
	if (!ret && ltt_relay_get_create_session_reply(&r, &rep))
		ret = -EPROTO;
	free(buf);
	if (ret)
		return ret;
	if (rep.ret_code != LTT_RELAY_OK)
		return -EIO;
	printf("ok %" PRIu64 " %s\n", rep.relay_session_id, rep.output_path);
	return 0;
}

static int do_stream(const char *channel, const char *pathname)
{
	static struct ltt_relay_add_stream as;
	struct ltt_relay_add_stream_reply rep;
	uint8_t buf[12];
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	if (nstreams == MAX_STREAMS)
		return -ENOSPC;
	memset(&as, 0, sizeof(as));
	snprintf(as.channel_name, sizeof(as.channel_name), "%s", channel);
	snprintf(as.pathname, sizeof(as.pathname), "%s", pathname);
	ltt_wbuf_init(&w);
	ltt_relay_put_add_stream(&w, &as);
	ret = ctrl_request(LTT_RELAY_ADD_STREAM, &w, buf, sizeof(buf));
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, buf, sizeof(buf));
	if (ltt_relay_get_add_stream_reply(&r, &rep))
		return -EPROTO;
	if (rep.ret_code != LTT_RELAY_OK)
		return -EIO;
	streams[nstreams].handle = rep.stream_handle;
	printf("ok %u %" PRIu64 "\n", nstreams, rep.stream_handle);
	nstreams++;
	return 0;
}

static const char tsdl_fmt[] =
	"/* CTF 1.8 */\n"
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = true; } := int64_t;\n"
	"trace {\n"
	"\tmajor = 1;\n\tminor = 8;\n"
	"\tuuid = \"6c74742d-6c69-7665-2d66-656564000001\";\n"
	"\tbyte_order = le;\n"
	"\tpacket.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id;"
	" uint64_t stream_instance_id; };\n"
	"};\n"
	"env { hostname = \"%s\"; };\n"
	"clock { name = \"monotonic\"; freq = 1000000000; offset = 0; };\n"
	"typealias integer { size = 64; align = 8; signed = false;"
	" map = clock.monotonic.value; } := uint64_clock_monotonic_t;\n"
	"stream {\n"
	"\tid = 0;\n"
	"\tevent.header := struct { uint32_t id; uint64_clock_monotonic_t timestamp; };\n"
	"\tpacket.context := struct { uint64_clock_monotonic_t timestamp_begin;"
	" uint64_clock_monotonic_t timestamp_end; uint64_t content_size; uint64_t packet_size;"
	" uint64_t packet_seq_num; uint64_t events_discarded; uint32_t cpu_id; };\n"
	"};\n"
	"event { name = \"feed:seq\"; id = 0; stream_id = 0;"
	" fields := struct { uint64_t _seq; int64_t _val; }; };\n";

static const char tsdl_late[] =
	"event { name = \"feed:late\"; id = 1; stream_id = 0;"
	" fields := struct { uint64_t _seq; int64_t _val; }; };\n";

static int do_metadata(unsigned int n, bool late)
{
	char text[4096];
	struct ltt_relay_metadata_hdr mh = { .stream_handle = streams[n].handle };
	size_t tlen, plen, mlen;
	struct ltt_wbuf w;
	uint8_t *buf;
	int ret;

	if (late)
		tlen = snprintf(text, sizeof(text), "%s", tsdl_late);
	else
		tlen = snprintf(text, sizeof(text), tsdl_fmt, hostname);
	plen = ltt_ctf_metadata_size(tlen);
	buf = malloc(plen);
	if (!buf)
		return -ENOMEM;
	ret = ltt_ctf_metadata_packet(trace_uuid, text, tlen, buf, plen, &mlen);
	ltt_wbuf_init(&w);
	ltt_relay_put_metadata_hdr(&w, &mh);
	ltt_wbuf_put_bytes(&w, buf, mlen);
	if (!ret)
		ret = ctrl_simple(LTT_RELAY_SEND_METADATA, &w);
	ltt_wbuf_fini(&w);
	free(buf);
	return ret;
}

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = v >> (8 * i);
}

static int send_index(unsigned int n, const struct ltt_relay_index *ix)
{
	struct ltt_wbuf w;
	int ret;

	(void)n;
	ltt_wbuf_init(&w);
	ltt_relay_put_index(&w, ix);
	ret = ctrl_simple(LTT_RELAY_SEND_INDEX, &w);
	ltt_wbuf_fini(&w);
	return ret;
}

/*
 * The packet, packed (every field is byte-aligned in the TSDL): header
 * (32 bytes), context (52), then 28-byte events {u32 id, u64 timestamp,
 * u64 seq, i64 val}.
 */
static int do_packet(unsigned int n, uint64_t first, unsigned int count, uint64_t ts,
		     uint64_t step, uint32_t id, size_t part)
{
	struct feed_stream *st = &streams[n];
	size_t content = 84 + 28 * (size_t)count;
	size_t size = (content + 255) / 256 * 256;
	uint64_t ts_end = count ? ts + (count - 1) * step : ts;
	struct ltt_relay_data_hdr dh = { 0, st->handle, st->next_seq, size, 0 };
	struct ltt_relay_index ix = {
		.stream_handle = st->handle, .net_seq_num = st->next_seq,
		.packet_size = size * 8, .content_size = content * 8, .timestamp_begin = ts,
		.timestamp_end = ts_end, .stream_id = 0, .stream_instance_id = n,
		.packet_seq_num = st->packet_seq,
	};
	struct ltt_wbuf w;
	uint8_t *p;
	int ret;

	if (count > MAX_EVENTS)
		return -EINVAL;
	p = calloc(1, size);
	if (!p)
		return -ENOMEM;
	put_le(p, LTT_CTF_PACKET_MAGIC, 4);
	memcpy(p + 4, trace_uuid, 16);
	put_le(p + 20, 0, 4);
	put_le(p + 24, n, 8);
	put_le(p + 32, ts, 8);
	put_le(p + 40, ts_end, 8);
	put_le(p + 48, content * 8, 8);
	put_le(p + 56, size * 8, 8);
	put_le(p + 64, st->packet_seq, 8);
	put_le(p + 72, 0, 8);
	put_le(p + 80, n, 4);
	for (unsigned int i = 0; i < count; i++) {
		uint8_t *e = p + 84 + 28 * i;

		put_le(e, id, 4);
		put_le(e + 4, ts + i * step, 8);
		put_le(e + 12, first + i, 8);
		put_le(e + 20, (first + i) * 3, 8);
	}
	ltt_wbuf_init(&w);
	ltt_relay_put_data_hdr(&w, &dh);
	ltt_wbuf_put_bytes(&w, p, part && part < size ? part : size);
	ret = w.err ? w.err : ltt_io_write_all(data_fd, w.data, w.len);
	ltt_wbuf_fini(&w);
	free(p);
	if (part)
		return ret;	/* the rest never comes */
	if (!ret)
		ret = send_index(n, &ix);
	if (!ret) {
		st->next_seq++;
		st->packet_seq++;
	}
	return ret;
}

static int do_beacon(unsigned int n, uint64_t ts)
{
	struct ltt_relay_index ix = {
		.stream_handle = streams[n].handle,
		.net_seq_num = streams[n].next_seq ? streams[n].next_seq - 1 : 0,
		.timestamp_end = ts, .stream_instance_id = n,
	};

	return send_index(n, &ix);
}

static int do_close(unsigned int n)
{
	struct ltt_relay_stream_seq ss = {
		streams[n].handle, streams[n].next_seq ? streams[n].next_seq - 1 : UINT64_MAX,
	};
	struct ltt_wbuf w;
	int ret;

	ltt_wbuf_init(&w);
	ltt_relay_put_stream_seq(&w, &ss);
	ret = ctrl_simple(LTT_RELAY_CLOSE_STREAM, &w);
	ltt_wbuf_fini(&w);
	return ret;
}

static int stream_arg(const char *s, unsigned int *ret_n)
{
	char *end;
	unsigned long n = strtoul(s, &end, 10);

	if (*end || n >= nstreams)
		return -EINVAL;
	*ret_n = n;
	return 0;
}

static int run_line(char *line)
{
	char *argv[8] = { 0 };
	int argc = 0;
	unsigned int n;

	for (char *t = strtok(line, " \t\n"); t && argc < 8; t = strtok(NULL, " \t\n"))
		argv[argc++] = t;
	if (!argc)
		return 0;
	if (!strcmp(argv[0], "connect") && argc == 4)
		return do_connect(argv[1], argv[2], argv[3]);
	if (!strcmp(argv[0], "session") && argc == 4)
		return do_session(argv[1], argv[2], strtoul(argv[3], NULL, 10));
	if (!strcmp(argv[0], "stream") && argc == 3)
		return do_stream(argv[1], argv[2]);
	if (!strcmp(argv[0], "sent") && argc == 1)
		return ctrl_simple(LTT_RELAY_STREAMS_SENT, NULL);
	if (!strcmp(argv[0], "end") && argc == 1) {
		close(ctrl_fd);
		close(data_fd);
		ctrl_fd = data_fd = -1;
		return 0;
	}
	if (argc < 2 || stream_arg(argv[1], &n))
		return -EINVAL;
	if (!strcmp(argv[0], "metadata") && argc == 2)
		return do_metadata(n, false);
	if (!strcmp(argv[0], "metadata-late") && argc == 2)
		return do_metadata(n, true);
	if (!strcmp(argv[0], "packet") && (argc == 6 || argc == 7))
		return do_packet(n, strtoull(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
				 strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10),
				 argc == 7 ? strtoul(argv[6], NULL, 10) : 0, 0);
	if (!strcmp(argv[0], "packet-part") && argc == 7 && strtoul(argv[6], NULL, 10))
		return do_packet(n, strtoull(argv[2], NULL, 10), strtoul(argv[3], NULL, 10),
				 strtoull(argv[4], NULL, 10), strtoull(argv[5], NULL, 10), 0,
				 strtoul(argv[6], NULL, 10));
	if (!strcmp(argv[0], "beacon") && argc == 3)
		return do_beacon(n, strtoull(argv[2], NULL, 10));
	if (!strcmp(argv[0], "close") && argc == 2)
		return do_close(n);
	return -EINVAL;
}

int main(void)
{
	char line[1024];

	setvbuf(stdout, NULL, _IOLBF, 0);
	while (fgets(line, sizeof(line), stdin)) {
		char cmd[32] = "";
		int ret;

		sscanf(line, "%31s", cmd);
		ret = run_line(line);
		if (ret) {
			printf("error: %s: %s\n", cmd, strerror(-ret));
		} else if (strcmp(cmd, "session") && strcmp(cmd, "stream")) {
			printf("ok\n");
		}
	}
	return 0;
}
