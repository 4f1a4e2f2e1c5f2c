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
 *
 * Built with FUZZ_RELAYD_TLS (fuzz_relayd_tls), the control and data
 * servers speak TLS (ltt_relay_server_set_tls(), the certificates of
 * tls-certs.h) and the input has one more byte first: bit 0 clear, the
 * consumer's bytes go to them as they are (what a stranger's handshake
 * bytes do); set, the consumer's connections complete a real handshake
 * with a certificate the CA signed first, and their bytes travel inside
 * TLS (what a member's bytes after the handshake do).  The viewer's
 * connection is plain in both.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <signal.h>
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
#ifdef FUZZ_RELAYD_TLS
#include "tls-certs.h"
#endif

#define DEADLINE_NS (10ULL * 1000000000)

enum { CTRL, DATA, LIVE, NCONN };

struct peer {
	int fd;
	struct ltt_xport *x;	/* TLS after a real handshake, else NULL (owns fd) */
	bool handshaken;
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
	struct ltt_xport_ctx *tls[2];	/* the servers' and the consumer's (TLS only) */
	bool inside;		/* the consumer's bytes go inside TLS */
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
	if (r->inside && i != LIVE)
		FUZZ_CHECK(!ltt_xport_create(fd, r->tls[1], "127.0.0.1", &r->peer[i].x));
}

/* One step of @p's handshake: false while it is not done (eof: failed). */
static bool peer_handshake(struct peer *p)
{
	int ret;

	if (!p->x || p->handshaken)
		return true;
	ret = ltt_xport_handshake(p->x);
	if (ret == -EAGAIN)
		return false;
	FUZZ_CHECK(!ret);	/* our certificate is the CA's: never refused */
	p->handshaken = true;
	return true;
}

static ssize_t peer_recv(struct peer *p, void *buf, size_t len)
{
	ssize_t n;

	if (!p->x)
		return recv(p->fd, buf, len, MSG_DONTWAIT);
	n = ltt_xport_read(p->x, buf, len);
	if (n < 0) {
		errno = (int)-n;
		return -1;
	}
	return n;
}

static ssize_t peer_send(struct peer *p, const void *buf, size_t len)
{
	if (!p->x)
		return send(p->fd, buf, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	return ltt_xport_write(p->x, buf, len);
}

/* Send what the socket takes, read (and drop) what the relay answered. */
static void peer_io(struct peer *p)
{
	uint8_t buf[65536];
	ssize_t n;

	if (!peer_handshake(p))
		return;
	while (!p->eof) {
		n = peer_recv(p, buf, sizeof(buf));
		if (n > 0)
			continue;
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			p->eof = true;
		if (n < 0 && errno == EINTR)
			continue;
		break;
	}
	while (!p->eof && p->sent < p->out_len) {
		n = peer_send(p, p->out + p->sent, p->out_len - p->sent);
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
	return !ioctl(ltt_xport_fd(srv->conns->x), FIONREAD, &pending) && pending == 0 &&
	       !ltt_xport_pending(srv->conns->x);
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
		if (p->sent == p->out_len && !p->shut && (!p->x || p->handshaken)) {
			shutdown(p->fd, SHUT_WR);	/* under TLS too: no close_notify */
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

#ifdef FUZZ_RELAYD_TLS
/* @text into the file @name of the relay's directory; its path in @path. */
static void put_file(const struct relay *r, const char *name, const char *text, char *path,
		     size_t len)
{
	FILE *f;

	snprintf(path, len, "%s/%s", r->dir, name);
	f = fopen(path, "we");
	FUZZ_CHECK(f && fputs(text, f) >= 0 && !fclose(f));
}

/* The servers speak TLS; the consumer's end has the CA's client certificate. */
static void tls_start(struct relay *r)
{
	char ca[128], cert[128], key[128], err[LTT_XPORT_ERR_MAX];
	struct ltt_xport_tls_files files = { cert, key, ca };

	put_file(r, ".ca.pem", FUZZ_TLS_CA_PEM, ca, sizeof(ca));
	put_file(r, ".relay.pem", FUZZ_TLS_RELAY_PEM, cert, sizeof(cert));
	put_file(r, ".relay.key", FUZZ_TLS_RELAY_KEY, key, sizeof(key));
	FUZZ_CHECK(!ltt_xport_ctx_create(&files, true, err, sizeof(err), &r->tls[0]));
	put_file(r, ".client.pem", FUZZ_TLS_CLIENT_PEM, cert, sizeof(cert));
	put_file(r, ".client.key", FUZZ_TLS_CLIENT_KEY, key, sizeof(key));
	FUZZ_CHECK(!ltt_xport_ctx_create(&files, false, err, sizeof(err), &r->tls[1]));
	ltt_relay_server_set_tls(r->srv[CTRL], r->tls[0]);
	ltt_relay_server_set_tls(r->srv[DATA], r->tls[0]);
}
#endif

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
#ifdef FUZZ_RELAYD_TLS
	tls_start(r);
#endif
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
		if (r->peer[i].x)
			ltt_xport_destroy(r->peer[i].x);	/* closes its fd */
		else if (r->peer[i].fd >= 0)
			close(r->peer[i].fd);
	ltt_xport_ctx_destroy(r->tls[0]);
	ltt_xport_ctx_destroy(r->tls[1]);
	nftw(r->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool logs_quiet;
	struct relay r = { .phase = CTRL };
	size_t ctrl_len, data_len;

	if (!logs_quiet) {
		ltt_log_init("fuzz_relayd", getenv("LTT_FUZZ_VERBOSE") ? LTT_LOG_DEBUG : -1);
		/* as in the daemons: a TLS end writing to a closed socket gets EPIPE */
		signal(SIGPIPE, SIG_IGN);
		logs_quiet = true;
	}
#ifdef FUZZ_RELAYD_TLS
	if (size < 1)
		return 0;
	r.inside = data[0] & 1;
	data++;
	size--;
#endif
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
					       .creation_time = 1714557600, .trace_format = 1 };
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
	struct ltt_relay_reconcile_stream rec = { .session_path = "/tmp/out/host-1/s1",
						  .pathname = "ust/uid/1000/64-bit",
						  .channel_name = "channel0_0" };
	struct ltt_wbuf p;

	ltt_wbuf_init(&p);
	ltt_relay_put_version(&p, &v);
	ctrl_request(w, LTT_RELAY_VERSION, &p);
	ltt_relay_put_create_session(&p, &cs, LTT_RELAY_MINOR);
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
	/* a stream a session holds: refused (EXIST or INVAL), nothing cut */
	ltt_relay_put_reconcile_stream(&p, &rec);
	ctrl_request(w, LTT_RELAY_RECONCILE_STREAM, &p);
	ltt_wbuf_fini(&p);
}

static void seed_live(struct ltt_wbuf *w)
{
	struct ltt_live_connect c = { .viewer_session_id = UINT64_MAX, .major = LTT_LIVE_MAJOR,
				      .minor = LTT_LIVE_MINOR_2_4, .type = LTT_LIVE_CLIENT_COMMAND };
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

/* A seed; with TLS, twice: bytes inside TLS, and as they are. */
static void seed(ltt_fuzz_emit_fn emit, const char *name, const uint8_t *data, size_t len)
{
#ifdef FUZZ_RELAYD_TLS
	uint8_t *in = malloc(len + 1);
	char n[64];

	FUZZ_CHECK(in);
	memcpy(in + 1, data, len);
	in[0] = 1;
	snprintf(n, sizeof(n), "inside-%s", name);
	emit(n, in, len + 1);
	in[0] = 0;
	snprintf(n, sizeof(n), "outside-%s", name);
	emit(n, in, len + 1);
	free(in);
#else
	emit(name, data, len);
#endif
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
	seed(emit, "session-0", in.data, in.len);
	/* the same without the data connection's packet */
	in.data[2] = in.data[3] = 0;
	memmove(in.data + 4 + ctrl.len, in.data + 4 + ctrl.len + LTT_RELAY_DATA_HDR_SIZE + 4096,
		live.len);
	seed(emit, "session-nodata", in.data, 4 + ctrl.len + live.len);
	ltt_wbuf_fini(&ctrl);
	ltt_wbuf_fini(&live);
	ltt_wbuf_fini(&in);
	free(meta);
	free(pkt);
}
