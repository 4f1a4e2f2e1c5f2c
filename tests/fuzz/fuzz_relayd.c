// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_relayd.c - ltt-relayd's message handling, in-process: its real
 * control, data and live servers (src/relayd/ctrl.c, data.c, live.c and
 * the model they feed) on loopback sockets, driven by one consumer and
 * one viewer whose bytes are the input.
 *
 * Input: {u16 ctrl_len, u16 data_len} (little-endian), then ctrl_len
 * bytes for the control connection, data_len bytes for the data
 * connection, and the rest for a live viewer connection.  Each input gets
 * a fresh relay (output directory, model, servers), so stream handles
 * and session ids start at 1 as in the seeds.  The phases are ordered:
 * the control bytes are sent and served whole first (the connection stays
 * open, so its session lives), then the data connection's bytes, then
 * the viewer's; each of those two closes and must be closed by the relay
 * in turn; then the control connection closes.  Promises checked: no
 * crash, no leak (LeakSanitizer), and the relay closes every connection
 * whose peer closed (within 10 s: a relay that keeps one is a hang).
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/net/xport.h"
#include "common/proto/live-proto.h"
#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"
#include "fuzz.h"
#include "relayd/ctrl.h"
#include "relayd/data.h"
#include "relayd/live.h"
#include "relayd/model.h"
#include "relayd/server.h"
#include "relayd/session.h"

#define DEADLINE_NS (10ULL * 1000000000)

enum { CTRL, DATA, LIVE, NCONN };

struct peer {
	int fd;
	const uint8_t *out;
	size_t out_len, sent;
	bool shut;	/* our side closed for writing */
	bool eof;	/* the relay closed its side */
};

struct relay {
	char dir[64];
	struct ltt_evloop *loop;
	struct ltt_relay_model *model;
	struct ltt_relay_server *srv[2];
	struct ltt_relay_live *live;
	uint16_t port[NCONN];
	struct peer peer[NCONN];
	int phase;		/* the connection being served, NCONN at the end */
	uint64_t deadline;
	bool hung;
};

static int listen_loopback(uint16_t *ret_port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(!bind(fd, (struct sockaddr *)&a, sizeof(a)) && !listen(fd, 16));
	FUZZ_CHECK(!getsockname(fd, (struct sockaddr *)&a, &len));
	*ret_port = ntohs(a.sin_port);
	return fd;
}

static void peer_connect(struct relay *r, int i)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(r->port[i]),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	FUZZ_CHECK(fd >= 0);
	FUZZ_CHECK(!connect(fd, (struct sockaddr *)&a, sizeof(a)) || errno == EINPROGRESS);
	r->peer[i].fd = fd;
}

/* Send what the socket takes, read (and drop) what the relay answered. */
static void peer_io(struct peer *p)
{
	uint8_t buf[65536];
	ssize_t n;

	while (!p->eof) {
		n = recv(p->fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n > 0)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			p->eof = true;
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	while (!p->eof && p->sent < p->out_len) {
		n = send(p->fd, p->out + p->sent, p->out_len - p->sent, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n <= 0)
			break;
		p->sent += (size_t)n;
	}
}

/* The relay read every byte we sent on its only connection of @srv. */
static bool all_read(const struct ltt_relay_server *srv, const struct peer *p)
{
	int pending;

	if (p->eof)
		return true;
	if (p->sent < p->out_len || !srv->conns)
		return false;
	return !ioctl(ltt_xport_fd(srv->conns->x), FIONREAD, &pending) && pending == 0;
}

/* After every batch of the loop: move the phases on. */
static void step(struct ltt_evloop *loop, void *arg)
{
	struct relay *r = arg;
	struct peer *p;
	int i;

	for (i = 0; i < NCONN; i++)
		if (r->peer[i].fd >= 0)
			peer_io(&r->peer[i]);
	if (ltt_evloop_now_ns() > r->deadline) {
		r->hung = true;
		ltt_evloop_stop(loop);
		return;
	}
	if (r->phase == CTRL) {
		if (!all_read(r->srv[CTRL], &r->peer[CTRL]))
			return;
		r->phase = DATA;
		peer_connect(r, DATA);
		return;
	}
	if (r->phase < NCONN) {
		p = &r->peer[r->phase];
		if (p->sent == p->out_len && !p->shut) {
			shutdown(p->fd, SHUT_WR);
			p->shut = true;
		}
		if (!p->eof)
			return;
		if (++r->phase < NCONN)
			peer_connect(r, r->phase);
		return;
	}
	p = &r->peer[CTRL];
	if (!p->shut) {
		shutdown(p->fd, SHUT_WR);
		p->shut = true;
	}
	if (p->eof)
		ltt_evloop_stop(loop);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)type;
	(void)ftw;
	return remove(path);
}

static void relay_start(struct relay *r)
{
	struct ltt_relay_live_cfg lcfg = { 0 };
	int fd[NCONN], i;

	strcpy(r->dir, "/tmp/ltt-fuzz-relayd.XXXXXX");
	FUZZ_CHECK(mkdtemp(r->dir));
	FUZZ_CHECK(!ltt_relay_model_create(r->dir, &r->model));
	FUZZ_CHECK(!ltt_evloop_create(&r->loop));
	for (i = 0; i < NCONN; i++) {
		fd[i] = listen_loopback(&r->port[i]);
		r->peer[i].fd = -1;
	}
	FUZZ_CHECK(!ltt_relay_server_start(r->loop, r->model, &ltt_relay_ctrl_ops, fd[CTRL],
					   LTT_RELAY_DEFAULT_IDLE_MS, LTT_RELAY_DEFAULT_HELLO_MS,
					   &r->srv[CTRL]));
	FUZZ_CHECK(!ltt_relay_server_start(r->loop, r->model, &ltt_relay_data_ops, fd[DATA],
					   LTT_RELAY_DEFAULT_IDLE_MS, LTT_RELAY_DEFAULT_HELLO_MS,
					   &r->srv[DATA]));
	lcfg.model = r->model;
	lcfg.loop = r->loop;
	lcfg.listen_fd = fd[LIVE];
	FUZZ_CHECK(!ltt_relay_live_start(&lcfg, &r->live));
}

static void relay_stop(struct relay *r)
{
	int i;

	ltt_relay_live_stop(r->live);
	ltt_relay_server_stop(r->srv[DATA]);
	ltt_relay_server_stop(r->srv[CTRL]);
	ltt_evloop_destroy(r->loop);
	ltt_relay_model_destroy(r->model);
	for (i = 0; i < NCONN; i++)
		if (r->peer[i].fd >= 0)
			close(r->peer[i].fd);
	nftw(r->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool logs_quiet;
	struct relay r = { .phase = CTRL };
	size_t ctrl_len, data_len;

	if (!logs_quiet) {
		ltt_log_init("fuzz_relayd", getenv("LTT_FUZZ_VERBOSE") ? LTT_LOG_DEBUG : -1);
		logs_quiet = true;
	}
	if (size < 4)
		return 0;
	ctrl_len = data[0] | (size_t)data[1] << 8;
	data_len = data[2] | (size_t)data[3] << 8;
	data += 4;
	size -= 4;
	if (ctrl_len > size)
		ctrl_len = size;
	if (data_len > size - ctrl_len)
		data_len = size - ctrl_len;
	relay_start(&r);
	r.peer[CTRL].out = data;
	r.peer[CTRL].out_len = ctrl_len;
	r.peer[DATA].out = data + ctrl_len;
	r.peer[DATA].out_len = data_len;
	r.peer[LIVE].out = data + ctrl_len + data_len;
	r.peer[LIVE].out_len = size - ctrl_len - data_len;
	peer_connect(&r, CTRL);
	r.deadline = ltt_evloop_now_ns() + DEADLINE_NS;
	ltt_evloop_set_busy(r.loop, true, step, &r);
	FUZZ_CHECK(!ltt_evloop_run(r.loop));
	if (r.hung)
		fprintf(stderr, "fuzz_relayd: stuck in phase %d (0 control, 1 data, 2 live, 3 end)\n",
			r.phase);
	FUZZ_CHECK(!r.hung);
	relay_stop(&r);
	return 0;
}

/* A control request: header then the payload in @p (reset after). */
static void ctrl_request(struct ltt_wbuf *w, uint32_t cmd, struct ltt_wbuf *p)
{
	struct ltt_relay_ctrl_hdr h = { .data_size = p->len, .cmd = cmd };

	ltt_relay_put_ctrl_hdr(w, &h);
	ltt_wbuf_put_bytes(w, p->data, p->len);
	ltt_wbuf_reset(p);
}

/* A consumer's session: one metadata stream (1), one channel stream (2). */
static void seed_ctrl(struct ltt_wbuf *w, const uint8_t *packet, size_t packet_len)
{
	struct ltt_relay_version v = { .major = LTT_RELAY_MAJOR, .minor = LTT_RELAY_MINOR };
	struct ltt_relay_create_session cs = { .session_name = "s1", .hostname = "host-1",
					       .live_timer_us = 1000000, .session_id = 1,
					       .creation_time = 1714557600 };
	struct ltt_relay_add_stream meta = { .channel_name = "metadata",
					     .pathname = "ust/uid/1000/64-bit" };
	struct ltt_relay_add_stream chan = { .channel_name = "channel0_0",
					     .pathname = "ust/uid/1000/64-bit" };
	struct ltt_relay_metadata_hdr mh = { .stream_handle = 1 };
	struct ltt_relay_index ix = { .stream_handle = 2, .net_seq_num = 0,
				      .packet_size = 4096 * 8, .content_size = 200 * 8,
				      .timestamp_begin = 1000, .timestamp_end = 2000,
				      .stream_id = 0, .stream_instance_id = 0 };
	struct ltt_relay_stream_seq seq = { .stream_handle = 2, .last_net_seq_num = 0 };
	struct ltt_wbuf p;

	ltt_wbuf_init(&p);
	ltt_relay_put_version(&p, &v);
	ctrl_request(w, LTT_RELAY_VERSION, &p);
	ltt_relay_put_create_session(&p, &cs);
	ctrl_request(w, LTT_RELAY_CREATE_SESSION, &p);
	ltt_relay_put_add_stream(&p, &meta);
	ctrl_request(w, LTT_RELAY_ADD_STREAM, &p);
	ltt_relay_put_add_stream(&p, &chan);
	ctrl_request(w, LTT_RELAY_ADD_STREAM, &p);
	ctrl_request(w, LTT_RELAY_STREAMS_SENT, &p);
	ltt_relay_put_metadata_hdr(&p, &mh);
	ltt_wbuf_put_bytes(&p, packet, packet_len);
	ctrl_request(w, LTT_RELAY_SEND_METADATA, &p);
	ltt_relay_put_index(&p, &ix);
	ctrl_request(w, LTT_RELAY_SEND_INDEX, &p);
	ltt_relay_put_stream_seq(&p, &seq);
	ctrl_request(w, LTT_RELAY_DATA_PENDING, &p);
	ltt_relay_put_stream_seq(&p, &seq);
	ctrl_request(w, LTT_RELAY_CLOSE_STREAM, &p);
	ltt_wbuf_fini(&p);
}

static void seed_live(struct ltt_wbuf *w)
{
	struct ltt_live_connect c = { .viewer_session_id = UINT64_MAX, .major = LTT_LIVE_MAJOR,
				      .minor = LTT_LIVE_MINOR, .type = LTT_LIVE_CLIENT_COMMAND };
	struct ltt_live_attach_req a = { .session_id = 1, .seek = LTT_LIVE_SEEK_BEGINNING };
	struct ltt_live_packet_req pq = { .stream_id = 2, .offset = 0, .len = 4096 };
	struct ltt_wbuf p;

	ltt_wbuf_init(&p);
	ltt_live_put_connect(&p, &c);
	ltt_live_put_request(w, LTT_LIVE_CONNECT, p.data, p.len);
	ltt_live_put_request(w, LTT_LIVE_LIST_SESSIONS, NULL, 0);
	ltt_live_put_request(w, LTT_LIVE_CREATE_SESSION, NULL, 0);
	ltt_wbuf_reset(&p);
	ltt_live_put_attach_req(&p, &a);
	ltt_live_put_request(w, LTT_LIVE_ATTACH_SESSION, p.data, p.len);
	ltt_wbuf_reset(&p);
	ltt_live_put_u64(&p, 1);
	ltt_live_put_request(w, LTT_LIVE_GET_METADATA, p.data, p.len);
	ltt_wbuf_reset(&p);
	ltt_live_put_u64(&p, 2);
	ltt_live_put_request(w, LTT_LIVE_GET_NEXT_INDEX, p.data, p.len);
	ltt_wbuf_reset(&p);
	ltt_live_put_packet_req(&p, &pq);
	ltt_live_put_request(w, LTT_LIVE_GET_PACKET, p.data, p.len);
	ltt_wbuf_reset(&p);
	ltt_live_put_u64(&p, 1);
	ltt_live_put_request(w, LTT_LIVE_GET_NEW_STREAMS, p.data, p.len);
	ltt_live_put_request(w, LTT_LIVE_DETACH_SESSION, p.data, p.len);
	ltt_wbuf_fini(&p);
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char tsdl[] = "/* CTF 1.8 */\ntrace { major = 1; minor = 8; };\n";
	static const uint8_t uuid[LTT_CTF_UUID_LEN] = { 1, 2, 3 };
	uint8_t *meta = calloc(1, LTT_CTF_METADATA_PACKET_SIZE);
	uint8_t *pkt = calloc(1, 4096);
	struct ltt_wbuf ctrl, live, in;
	struct ltt_relay_data_hdr dh = { .stream_handle = 2, .net_seq_num = 0, .data_size = 4096 };
	size_t meta_len;
	uint32_t magic = 0xC1FC1FC1u;

	FUZZ_CHECK(meta && pkt);
	FUZZ_CHECK(!ltt_ctf_metadata_packet(uuid, tsdl, sizeof(tsdl) - 1, meta,
					    LTT_CTF_METADATA_PACKET_SIZE, &meta_len));
	memcpy(pkt, &magic, 4);
	ltt_wbuf_init(&ctrl);
	ltt_wbuf_init(&live);
	ltt_wbuf_init(&in);
	seed_ctrl(&ctrl, meta, meta_len);
	seed_live(&live);
	/* data: one packet of stream 2 */
	ltt_wbuf_put_u8(&in, (uint8_t)ctrl.len);
	ltt_wbuf_put_u8(&in, (uint8_t)(ctrl.len >> 8));
	ltt_wbuf_put_u8(&in, (LTT_RELAY_DATA_HDR_SIZE + 4096) & 0xff);
	ltt_wbuf_put_u8(&in, (LTT_RELAY_DATA_HDR_SIZE + 4096) >> 8);
	ltt_wbuf_put_bytes(&in, ctrl.data, ctrl.len);
	ltt_relay_put_data_hdr(&in, &dh);
	ltt_wbuf_put_bytes(&in, pkt, 4096);
	ltt_wbuf_put_bytes(&in, live.data, live.len);
	FUZZ_CHECK(!in.err && !ctrl.err && !live.err);
	emit("session-0", in.data, in.len);
	/* the same without the data connection's packet */
	in.data[2] = in.data[3] = 0;
	memmove(in.data + 4 + ctrl.len, in.data + 4 + ctrl.len + LTT_RELAY_DATA_HDR_SIZE + 4096,
		live.len);
	emit("session-nodata", in.data, 4 + ctrl.len + live.len);
	ltt_wbuf_fini(&ctrl);
	ltt_wbuf_fini(&live);
	ltt_wbuf_fini(&in);
	free(meta);
	free(pkt);
}
