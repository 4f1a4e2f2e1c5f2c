// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sink_relay.c - the relay output against a fake relay run by this
 * test on loopback: the handshake and its errors, streams, packets and
 * their indexes as the relay receives them, metadata, a full socket
 * (would block, one packet queued, resumed), refused indexes, data
 * pending, beacons, and the relay dying mid-session.
 *
 * The fake relay is a thread serving one control and one data
 * connection; the test's main thread plays the data thread's sink calls
 * and a pump thread does the relay's I/O as the data thread's loop does.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/model/uri.h"
#include "common/proto/relay-proto.h"
#include "consumerd/sink-relay.h"
#include "tap.h"

#define MAX_STREAMS 16
#define MAX_PACKETS 64

struct fake {
	int lctrl, ldata;		/* listening */
	int ctrl, data;			/* accepted */
	int ctrl_port, data_port;
	uint32_t major;			/* what VERSION answers */
	bool lttng;			/* as LTTng's relay: no LTT flag in GET_CONFIGURATION */
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop_reading_data;		/* leave the data socket alone */
	bool refuse_index;
	bool hold_metadata;		/* leave SEND_METADATA unanswered */
	bool meta_held;			/* one is unanswered: control not read */
	bool die;			/* close both connections */
	uint32_t pending_answer;	/* DATA_PENDING's answer */
	/* what was received */
	unsigned int nr_streams, streams_sent, closes;
	unsigned int streams_at_sent;	/* nr_streams at the last STREAMS_SENT */
	char stream_names[MAX_STREAMS][LTT_RELAY_NAME_MAX];
	char stream_paths[MAX_STREAMS][LTT_RELAY_PATH_MAX];
	unsigned int nr_packets;
	uint64_t pkt_handle[MAX_PACKETS], pkt_seq[MAX_PACKETS], pkt_len[MAX_PACKETS];
	uint64_t pkt_pad[MAX_PACKETS];
	uint8_t pkt_first[MAX_PACKETS], pkt_last[MAX_PACKETS];
	bool pkt_uniform[MAX_PACKETS];
	unsigned int nr_indexes, nr_beacons;
	struct ltt_relay_index last_index, last_beacon;
	/* as ltt-relayd: a packet's SEND_INDEX is answered once it is read */
	bool read_any[MAX_STREAMS];
	uint64_t read_seq[MAX_STREAMS];		/* per handle - 100: last packet read */
	bool held;				/* an index waits: control not read */
	bool held_refused;			/* its answer: refused */
	unsigned int loops;			/* rounds of the fake's loop */
	struct ltt_relay_index held_idx;
	size_t metadata_bytes;
	unsigned int metadata_msgs;
	unsigned int meta_unanswerable;	/* SEND_METADATA without LTT_RELAY_METADATA_ANSWERED */
	uint8_t metadata_first[8];
	pthread_t thread;
};

static int listen_port(int *ret_port)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(a);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof(a)) || listen(fd, 4) ||
	    getsockname(fd, (struct sockaddr *)&a, &len))
		return -1;
	*ret_port = ntohs(a.sin_port);
	return fd;
}

static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	ssize_t n;

	while (len) {
		n = read(fd, p, len);
		if (n <= 0)
			return -1;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Was packet @idx read from the data connection?  Locked. */
static bool fake_packet_read(const struct fake *f, const struct ltt_relay_index *idx)
{
	uint64_t k = idx->stream_handle - 100;

	return k >= MAX_STREAMS || (f->read_any[k] && f->read_seq[k] >= idx->net_seq_num);
}

/* The waiting SEND_INDEX's reply, once its packet is read; -1 on error. */
static int fake_answer_held(struct fake *f)
{
	struct ltt_wbuf w;
	int ret = 0;

	pthread_mutex_lock(&f->lock);
	if (!f->held || !fake_packet_read(f, &f->held_idx)) {
		pthread_mutex_unlock(&f->lock);
		return 0;
	}
	f->held = false;
	ltt_wbuf_init(&w);
	ltt_relay_put_ret(&w, f->held_refused ? LTT_RELAY_ERR_INVAL : LTT_RELAY_OK);
	pthread_mutex_unlock(&f->lock);
	if (write(f->ctrl, w.data, w.len) != (ssize_t)w.len)
		ret = -1;
	ltt_wbuf_fini(&w);
	return ret;
}

/* The held SEND_METADATA's reply, once released; -1 on error. */
static int fake_answer_meta(struct fake *f)
{
	struct ltt_wbuf w;
	int ret = 0;

	pthread_mutex_lock(&f->lock);
	if (!f->meta_held || f->hold_metadata) {
		pthread_mutex_unlock(&f->lock);
		return 0;
	}
	f->meta_held = false;
	pthread_mutex_unlock(&f->lock);
	ltt_wbuf_init(&w);
	ltt_relay_put_ret(&w, LTT_RELAY_OK);
	if (write(f->ctrl, w.data, w.len) != (ssize_t)w.len)
		ret = -1;
	ltt_wbuf_fini(&w);
	return ret;
}

/* One control request; returns -1 when the connection ends. */
static int serve_ctrl(struct fake *f)
{
	struct ltt_relay_ctrl_hdr h;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint8_t hb[LTT_RELAY_CTRL_HDR_SIZE], *pl;
	int ret = 0;

	if (read_full(f->ctrl, hb, sizeof(hb)))
		return -1;
	ltt_rbuf_init(&r, hb, sizeof(hb));
	if (ltt_relay_get_ctrl_hdr(&r, &h) || h.data_size > (1u << 22))
		return -1;
	pl = malloc(h.data_size + 1);
	if (!pl || read_full(f->ctrl, pl, h.data_size)) {
		free(pl);
		return -1;
	}
	ltt_rbuf_init(&r, pl, h.data_size);
	ltt_wbuf_init(&w);
	pthread_mutex_lock(&f->lock);
	switch (h.cmd) {
	case LTT_RELAY_VERSION: {
		struct ltt_relay_version v = { f->major, LTT_RELAY_MINOR };

		ltt_relay_put_version(&w, &v);
		break;
	}
	case LTT_RELAY_CREATE_SESSION: {
		struct ltt_relay_create_session_reply rep = { 77, LTT_RELAY_OK, "/out/box/s1" };

		ltt_relay_put_create_session_reply(&w, &rep);
		break;
	}
	case LTT_RELAY_ADD_STREAM: {
		struct ltt_relay_add_stream *m = calloc(1, sizeof(*m));
		struct ltt_relay_add_stream_reply rep = { 100 + f->nr_streams, LTT_RELAY_OK };

		if (!m || ltt_relay_get_add_stream(&r, m) || f->nr_streams >= MAX_STREAMS) {
			ret = -1;
		} else {
			strcpy(f->stream_names[f->nr_streams], m->channel_name);
			strcpy(f->stream_paths[f->nr_streams], m->pathname);
			f->nr_streams++;
			ltt_relay_put_add_stream_reply(&w, &rep);
		}
		free(m);
		break;
	}
	case LTT_RELAY_STREAMS_SENT:
		f->streams_sent++;
		f->streams_at_sent = f->nr_streams;
		ltt_relay_put_ret(&w, LTT_RELAY_OK);
		break;
	case LTT_RELAY_SEND_METADATA:
		if (h.data_size > 12) {
			if (!f->metadata_bytes)
				memcpy(f->metadata_first, pl + 12, 8);
			f->metadata_bytes += h.data_size - 12;
			f->metadata_msgs++;
		}
		if (h.cmd_version != LTT_RELAY_METADATA_ANSWERED)
			f->meta_unanswerable++;	/* as LTTng's relay: no reply wanted */
		else if (f->hold_metadata)
			f->meta_held = true;	/* answered by fake_answer_meta() */
		else
			ltt_relay_put_ret(&w, LTT_RELAY_OK);
		break;
	case LTT_RELAY_GET_CONFIGURATION: {
		struct ltt_relay_get_configuration_reply rep = {
			LTT_RELAY_OK, f->lttng ? 0 : LTT_RELAY_CONFIG_LTT,
		};

		ltt_relay_put_get_configuration_reply(&w, &rep);
		break;
	}
	case LTT_RELAY_SEND_INDEX: {
		struct ltt_relay_index idx;

		if (ltt_relay_get_index(&r, &idx)) {
			ret = -1;
		} else if (!idx.packet_size) {
			f->nr_beacons++;
			f->last_beacon = idx;
			ltt_relay_put_ret(&w, LTT_RELAY_OK);
		} else {
			f->nr_indexes++;
			f->last_index = idx;
			if (!fake_packet_read(f, &idx)) {
				f->held = true;		/* answered by fake_answer_held() */
				f->held_idx = idx;
				f->held_refused = f->refuse_index;
			} else {
				ltt_relay_put_ret(&w, f->refuse_index ? LTT_RELAY_ERR_INVAL
								      : LTT_RELAY_OK);
			}
		}
		break;
	}
	case LTT_RELAY_CLOSE_STREAM:
		f->closes++;
		ltt_relay_put_ret(&w, LTT_RELAY_OK);
		break;
	case LTT_RELAY_BEGIN_DATA_PENDING:
		ltt_relay_put_ret(&w, LTT_RELAY_OK);
		break;
	case LTT_RELAY_DATA_PENDING:
		ltt_relay_put_ret(&w, f->pending_answer);
		break;
	case LTT_RELAY_END_DATA_PENDING:
		ltt_relay_put_ret(&w, 0);	/* LTTng's form: nothing in flight */
		break;
	case LTT_RELAY_CREATE_TRACE_CHUNK:
	case LTT_RELAY_QUIESCENT_CONTROL:
		ltt_relay_put_ret(&w, LTT_RELAY_OK);
		break;
	case LTT_RELAY_CLOSE_TRACE_CHUNK: {
		struct ltt_relay_close_chunk_reply rep = { LTT_RELAY_OK, "/out/box/s1" };

		ltt_relay_put_close_chunk_reply(&w, &rep);
		break;
	}
	default:
		ret = -1;
	}
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	if (!ret && w.len && write(f->ctrl, w.data, w.len) != (ssize_t)w.len)
		ret = -1;
	ltt_wbuf_fini(&w);
	free(pl);
	return ret;
}

/* One data packet; returns -1 when the connection ends. */
static int serve_data(struct fake *f)
{
	uint8_t hb[LTT_RELAY_DATA_HDR_SIZE], *p;
	struct ltt_relay_data_hdr h;
	struct ltt_rbuf r;
	unsigned int i;
	size_t j;

	if (read_full(f->data, hb, sizeof(hb)))
		return -1;
	ltt_rbuf_init(&r, hb, sizeof(hb));
	if (ltt_relay_get_data_hdr(&r, &h))
		return -1;
	p = malloc(h.data_size ? h.data_size : 1);
	if (!p || read_full(f->data, p, h.data_size)) {
		free(p);
		return -1;
	}
	pthread_mutex_lock(&f->lock);
	if (h.stream_handle - 100 < MAX_STREAMS) {
		f->read_any[h.stream_handle - 100] = true;
		f->read_seq[h.stream_handle - 100] = h.net_seq_num;
	}
	i = f->nr_packets;
	if (i < MAX_PACKETS) {
		f->pkt_handle[i] = h.stream_handle;
		f->pkt_seq[i] = h.net_seq_num;
		f->pkt_len[i] = h.data_size;
		f->pkt_pad[i] = h.padding_size;
		f->pkt_first[i] = p[0];
		f->pkt_last[i] = p[h.data_size - 1];
		f->pkt_uniform[i] = true;
		for (j = 8; j < h.data_size; j++)
			if (p[j] != p[8])
				f->pkt_uniform[i] = false;
		f->nr_packets++;
	}
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	free(p);
	return 0;
}

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	struct pollfd pfd[2];

	f->ctrl = accept(f->lctrl, NULL, NULL);
	f->data = accept(f->ldata, NULL, NULL);
	for (;;) {
		pthread_mutex_lock(&f->lock);
		if (f->die) {
			pthread_mutex_unlock(&f->lock);
			break;
		}
		f->loops++;
		pthread_cond_broadcast(&f->cond);
		pfd[0] = (struct pollfd){ .fd = f->held || f->meta_held ? -1 : f->ctrl,
					  .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = f->stop_reading_data ? -1 : f->data, .events = POLLIN };
		pthread_mutex_unlock(&f->lock);
		if (poll(pfd, 2, 10) < 0)
			break;
		if ((pfd[0].revents & (POLLIN | POLLHUP)) && serve_ctrl(f))
			break;
		if ((pfd[1].revents & (POLLIN | POLLHUP)) && serve_data(f))
			break;
		if (fake_answer_held(f) || fake_answer_meta(f))
			break;
	}
	close(f->ctrl);
	close(f->data);
	pthread_mutex_lock(&f->lock);
	f->die = true;
	pthread_cond_broadcast(&f->cond);
	pthread_mutex_unlock(&f->lock);
	return NULL;
}

static void fake_start(struct fake *f, uint32_t major)
{
	memset(f, 0, sizeof(*f));
	f->major = major;
	f->pending_answer = 0;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->lctrl = listen_port(&f->ctrl_port);
	f->ldata = listen_port(&f->data_port);
	pthread_create(&f->thread, NULL, fake_main, f);
}

static void fake_stop(struct fake *f)
{
	pthread_mutex_lock(&f->lock);
	f->die = true;
	pthread_mutex_unlock(&f->lock);
	pthread_join(f->thread, NULL);
	close(f->lctrl);
	close(f->ldata);
}

/* Wait (5 s at most) until @n <= *counter, under the fake's lock. */
static bool fake_wait(struct fake *f, const unsigned int *counter, unsigned int n)
{
	struct timespec ts;
	bool ok;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += 5;
	pthread_mutex_lock(&f->lock);
	while (*counter < n && !f->die)
		if (pthread_cond_timedwait(&f->cond, &f->lock, &ts))
			break;
	ok = *counter >= n;
	pthread_mutex_unlock(&f->lock);
	return ok;
}

/* The pump thread: the data thread's loop over the relay's fds. */
struct pump {
	struct ltt_relay *relay;
	bool stop;	/* atomic: set by the test, read by the pump */
	pthread_t thread;
};

static void *pump_main(void *arg)
{
	struct pump *p = arg;
	uint32_t ce = POLLIN, de = 0;
	struct pollfd pfd[3];
	int c, d, k;

	ltt_sink_relay_fds(p->relay, &c, &d, &k);
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		pfd[0] = (struct pollfd){ .fd = c, .events = (short)ce };
		pfd[1] = (struct pollfd){ .fd = de ? d : -1, .events = POLLOUT };
		pfd[2] = (struct pollfd){ .fd = k, .events = POLLIN };
		poll(pfd, 3, 10);
		ltt_sink_relay_io(p->relay, &ce, &de);
		ce = ce ? POLLIN | ((ce & 4) ? POLLOUT : 0) : 0;	/* EPOLLOUT is 4 */
	}
	return NULL;
}

/* The fake relay's address, in @a (the caller's, as long as the cfg is used). */
static struct ltt_sink_relay_cfg cfg_for(struct fake *f, struct ltt_consumer_relay_addr *a)
{
	*a = (struct ltt_consumer_relay_addr){
		.family = LTT_URI_INET, .host = "127.0.0.1",
		.ctrl_port = (uint16_t)f->ctrl_port, .data_port = (uint16_t)f->data_port,
	};
	return (struct ltt_sink_relay_cfg){
		.key = 1, .addr = a, .hostname = "box",
		.session_name = "s1", .base_path = "", .live_timer_us = 0,
		.session_id = 5, .creation_time = 1700000000,
	};
}

static void test_connect_errors(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_sink_relay_cfg cfg;
	struct ltt_relay *r = NULL;
	struct fake f;
	int port, fd;

	fd = listen_port(&port);
	close(fd);	/* nobody listens there now */
	addr = (struct ltt_consumer_relay_addr){
		.family = LTT_URI_INET, .host = "127.0.0.1",
		.ctrl_port = (uint16_t)port, .data_port = (uint16_t)port,
	};
	cfg = (struct ltt_sink_relay_cfg){ .key = 1, .addr = &addr,
					   .hostname = "box", .session_name = "s1" };
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -ECONNREFUSED,
		   "no relay listening: ECONNREFUSED");
	addr.host[0] = '\0';
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a host: EINVAL");
	strcpy(addr.host, "127.0.0.1");
	addr.ctrl_port = 0;
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a control port: EINVAL");
	addr.ctrl_port = (uint16_t)port;
	addr.data_port = 0;
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -EINVAL,
		   "an address without a data port: EINVAL");

	fake_start(&f, 3);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -EPROTONOSUPPORT,
		   "a relay of protocol 3.x: EPROTONOSUPPORT");
	fake_stop(&f);

	/* a peer that accepts and closes: not a relay */
	fake_start(&f, 2);
	pthread_mutex_lock(&f.lock);
	f.die = true;
	pthread_mutex_unlock(&f.lock);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), -EPROTO,
		   "a peer that closes at once: EPROTO");
	fake_stop(&f);
}

/*
 * A packet of @len bytes: an 8-byte head of @tag, then @fill; two iovecs;
 * its content_size says the last 8 bytes are padding.
 */
static void make_packet(struct ltt_sink_packet *pkt, uint8_t *buf, size_t len, uint8_t tag,
			uint8_t fill, uint64_t seq)
{
	memset(buf, tag, 8);
	memset(buf + 8, fill, len - 8);
	memset(pkt, 0, sizeof(*pkt));
	pkt->len = len;
	pkt->iov[0] = (struct iovec){ buf, 8 };
	pkt->iov[1] = (struct iovec){ buf + 8, len - 8 };
	pkt->iovcnt = 2;
	pkt->splice_fd = -1;
	pkt->entry = (struct ltt_ctf_index_entry){
		.packet_size = len * 8, .content_size = len * 8 - 64, .timestamp_begin = 1000 + seq,
		.timestamp_end = 2000 + seq, .stream_id = 3, .stream_instance_id = 1,
		.packet_seq_num = seq,
	};
}

static void test_session(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_sink_relay_stats stats;
	struct ltt_sink_relay_cfg cfg;
	struct ltt_output *tout = NULL, *cout = NULL;
	struct ltt_sink *sink = NULL;
	struct ltt_sink_packet pkt;
	struct ltt_relay *r = NULL;
	static uint8_t buf[1 << 20];
	uint8_t meta[8192];
	struct pump pump = { 0 };
	struct pollfd pfd;
	unsigned int i, accepted = 0, blocked = 0, written = 0;
	uint64_t lost_packets = 0, lost_events = 0, base_packets = 0, base_events = 0;
	bool pending = true;
	struct fake f;

	fake_start(&f, 2);
	cfg = cfg_for(&f, &addr);
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), 0, "connected to the relay");
	tap_is_str(path, "/out/box/s1", "with the relay's output path");
	pump.relay = r;
	pthread_create(&pump.thread, NULL, pump_main, &pump);

	tap_is_int(ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, true, &tout), 0,
		   "a trace output: its metadata stream is added");
	tap_ok(fake_wait(&f, &f.nr_streams, 1) && !strcmp(f.stream_names[0], "metadata") &&
	       !strcmp(f.stream_paths[0], "ust/uid/0/64-bit"), "as 'metadata' of the trace's path");
	memset(meta, 'm', sizeof(meta));
	tap_is_int(ltt_output_metadata(tout, meta, sizeof(meta)), 0, "metadata is queued");
	fake_wait(&f, &f.metadata_msgs, 1);
	tap_ok(f.metadata_bytes == 8192 && f.metadata_first[0] == 'm',
	       "and reaches the relay (SEND_METADATA), %zu bytes", f.metadata_bytes);

	tap_is_int(ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, false, &cout), 0,
		   "a channel output");
	tap_is_int(ltt_output_open_sink(cout, "chan_0", &sink), 0, "a sink: ADD_STREAM");
	tap_ok(fake_wait(&f, &f.nr_streams, 2) && !strcmp(f.stream_names[1], "chan_0") &&
	       sink->poll_fd >= 0, "named CHANNEL_CPU, with an fd to wait on");
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(sink) == 0 || poll(&pfd, 1, 5000) == 1) &&
	       ltt_sink_ready(sink) == 0,
	       "the sink (waiting for its stream's handle) wakes, ready once it came");
	tap_ok(f.streams_sent == 0, "no STREAMS_SENT yet: the channel's streams may still come");
	tap_ok(!ltt_sink_wants_packet(sink),
	       "ltt-relayd takes beacons at any time: a stream needs no first packet");
	ltt_output_streams_added(cout);
	tap_ok(fake_wait(&f, &f.streams_sent, 1) && f.streams_at_sent == 2,
	       "the channel's streams all added: STREAMS_SENT");
	for (i = 0; i < 3; i++) {
		make_packet(&pkt, buf, 4096, (uint8_t)i, (uint8_t)(0x10 + i), i);
		if (ltt_sink_ready(sink) == 0 && ltt_sink_write(sink, &pkt) == 0)
			accepted++;
	}
	tap_is_int((int)accepted, 3, "three packets written");
	tap_ok(fake_wait(&f, &f.nr_packets, 3) && fake_wait(&f, &f.nr_indexes, 3),
	       "the relay got three packets and three indexes");
	tap_ok(f.streams_sent == 1, "and no other STREAMS_SENT");
	tap_ok(f.pkt_handle[0] == 101 && f.pkt_seq[0] == 0 && f.pkt_seq[2] == 2 &&
	       f.pkt_len[1] == 4088 && f.pkt_pad[1] == 8 && f.pkt_first[1] == 1 &&
	       f.pkt_last[1] == 0x11 && f.pkt_uniform[2],
	       "in order, on the stream's handle, their content sent, the padding announced");
	tap_ok(f.last_index.stream_handle == 101 && f.last_index.net_seq_num == 2 &&
	       f.last_index.packet_size == 4096 * 8 && f.last_index.timestamp_end == 2002 &&
	       f.last_index.stream_id == 3 && f.last_index.packet_seq_num == 2,
	       "the index names the packet and carries its fields");

	/*
	 * Metadata the relay has not answered (written) holds new packets
	 * back: a relay killed at any instant never has packets whose
	 * metadata it does not have.
	 */
	pthread_mutex_lock(&f.lock);
	f.hold_metadata = true;
	i = f.metadata_msgs;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(ltt_output_metadata(tout, meta, 4096), 0, "more metadata is queued");
	tap_ok(fake_wait(&f, &f.metadata_msgs, i + 1), "it reaches the relay, which does not answer");
	tap_is_int(ltt_sink_ready(sink), -EAGAIN, "the sink holds its next packet back meanwhile");
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_is_int(poll(&pfd, 1, 0), 0, "and its fd does not wake it");
	pthread_mutex_lock(&f.lock);
	f.hold_metadata = false;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(poll(&pfd, 1, 5000), 1, "the relay answers: the fd wakes the sink");
	tap_is_int(ltt_sink_ready(sink), 0, "which is ready again");
	tap_is_int((int)f.meta_unanswerable, 0,
		   "ltt-relayd (GET_CONFIGURATION's LTT flag) is asked to answer every SEND_METADATA");

	/* live: a tick after a write sends nothing, the next one a beacon */
	ltt_sink_idle(sink, 123456789, 3);
	ltt_sink_idle(sink, 223456789, 3);
	tap_ok(fake_wait(&f, &f.nr_beacons, 1) && f.nr_beacons == 1 &&
	       f.last_beacon.timestamp_end == 223456789 && f.last_beacon.stream_id == 3 &&
	       f.last_beacon.stream_handle == 101, "an idle stream sends one beacon with the time");

	/* the relay stops reading data: the sink says it would block */
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = true;
	pthread_mutex_unlock(&f.lock);
	accepted = 0;
	for (i = 0; i < 40; i++) {
		if (ltt_sink_ready(sink) == -EAGAIN) {
			blocked = 1;
			break;
		}
		make_packet(&pkt, buf, sizeof(buf), (uint8_t)(3 + i), (uint8_t)(0x20 + i), 3 + i);
		tap_ok(ltt_sink_write(sink, &pkt) == 0 || 0, "packet %u taken", 3 + i);
		accepted++;
	}
	tap_ok(blocked, "a full socket: ready() says EAGAIN after %u MiB packets", accepted);
	pfd = (struct pollfd){ .fd = sink->poll_fd, .events = POLLIN };
	tap_is_int(poll(&pfd, 1, 0), 0, "and its fd does not wake it");
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = false;
	pthread_mutex_unlock(&f.lock);
	tap_is_int(poll(&pfd, 1, 5000), 1, "the relay reads again: the fd wakes the sink");
	for (i = 0; i < 500 && ltt_sink_ready(sink); i++)
		poll(&pfd, 1, 10);
	tap_is_int(ltt_sink_ready(sink), 0, "and the sink ready once the queued rest is sent");
	fake_wait(&f, &f.nr_packets, 3 + accepted);
	tap_ok(f.nr_packets == 3 + accepted, "every packet arrived (%u)", f.nr_packets);
	tap_ok(f.pkt_len[3 + accepted - 1] == sizeof(buf) - 8 &&
	       f.pkt_first[3 + accepted - 1] == (uint8_t)(3 + accepted - 1) &&
	       f.pkt_uniform[3 + accepted - 1] && f.pkt_seq[3 + accepted - 1] == 3 + accepted - 1,
	       "whole, the last one too (its rest went through the queue)");

	/* refused indexes are counted (the earlier ones all answered first) */
	tap_ok(fake_wait(&f, &f.nr_indexes, 3 + accepted), "every index arrived (%u)",
	       f.nr_indexes);
	pthread_mutex_lock(&f.lock);
	f.refuse_index = true;
	pthread_mutex_unlock(&f.lock);
	make_packet(&pkt, buf, 4096, 9, 9, 99);
	tap_ok(!ltt_sink_ready(sink) && !ltt_sink_write(sink, &pkt), "a packet whose index is refused");
	tap_ok(!ltt_sink_relay_data_pending(r, &pending) && pending,
	       "data pending asks the relay, and says pending until it answers");
	for (i = 0; i < 500 && pending; i++) {
		poll(NULL, 0, 10);
		if (ltt_sink_relay_data_pending(r, &pending))
			break;
	}
	ltt_sink_relay_stats(r, &stats);
	tap_ok(stats.replies_refused == 1, "the refused index is counted (%llu)",
	       (unsigned long long)stats.replies_refused);
	tap_ok(!pending, "nothing pending once the relay says so");
	pthread_mutex_lock(&f.lock);
	f.refuse_index = false;
	f.pending_answer = 1;
	pthread_mutex_unlock(&f.lock);
	make_packet(&pkt, buf, 4096, 10, 10, 100);	/* something new: asked again */
	tap_ok(!ltt_sink_ready(sink) && !ltt_sink_write(sink, &pkt), "another packet");
	for (i = 0; i < 20; i++) {	/* the asking call, the answer, again */
		if (ltt_sink_relay_data_pending(r, &pending) || !pending)
			break;
		poll(NULL, 0, 10);
	}
	tap_ok(i == 20 && pending, "pending while the relay says a stream misses packets");
	tap_ok(stats.packets_sent == 4 + accepted && stats.packets_lost == 1 && !stats.conn_error,
	       "stats: %llu packets sent, the one whose index was refused lost (not confirmed written)",
	       (unsigned long long)stats.packets_sent);
	ltt_sink_lost(sink, &base_packets, &base_events);
	tap_ok(base_packets == 1, "in its stream too (%llu)", (unsigned long long)base_packets);
	tap_ok(stats.bytes_sent == 4 * 4088 + (uint64_t)accepted * (sizeof(buf) - 8),
	       "stats: the bytes sent are the packets' content, no padding (%llu)",
	       (unsigned long long)stats.bytes_sent);

	/*
	 * Packets sent when the relay dies, in the socket or still queued:
	 * the relay never confirmed them written (their SEND_INDEX is not
	 * answered), so each is lost in its stream, with its events, once.
	 */
	pthread_mutex_lock(&f.lock);
	f.stop_reading_data = true;
	i = f.loops;
	pthread_mutex_unlock(&f.lock);
	fake_wait(&f, &f.loops, i + 2);	/* a round that no longer reads data */
	for (i = 0, blocked = 0, written = 0; i < 40; i++) {
		if (ltt_sink_ready(sink) == -EAGAIN) {
			blocked = 1;
			break;
		}
		make_packet(&pkt, buf, sizeof(buf), (uint8_t)(50 + i), (uint8_t)(0x50 + i), 200 + i);
		pkt.events = 7;
		if (!ltt_sink_write(sink, &pkt))
			written++;
	}
	ltt_sink_lost(sink, &lost_packets, &lost_events);
	tap_ok(blocked && written && lost_packets == base_packets && lost_events == base_events,
	       "the relay stops reading again: %u packets sent, nothing lost yet", written);

	/* the relay dies */
	pthread_mutex_lock(&f.lock);
	f.die = true;
	pthread_mutex_unlock(&f.lock);
	pthread_join(f.thread, NULL);
	for (i = 0; i < 500; i++) {
		ltt_sink_relay_stats(r, &stats);
		if (stats.conn_error)
			break;
		poll(NULL, 0, 10);
	}
	tap_ok(stats.conn_error != 0, "the relay's death is recorded: %s",
	       strerror(-stats.conn_error));
	ltt_sink_lost(sink, &lost_packets, &lost_events);
	tap_ok(lost_packets - base_packets == written && lost_events - base_events == 7ull * written,
	       "the %u packets it never confirmed are lost in their stream, 7 events each (%llu, %llu)",
	       written, (unsigned long long)(lost_packets - base_packets),
	       (unsigned long long)(lost_events - base_events));
	tap_is_int(ltt_sink_ready(sink), 0, "a dead relay's sink never blocks");
	make_packet(&pkt, buf, 4096, 1, 1, 101);
	tap_ok(ltt_sink_write(sink, &pkt) < 0, "and drops what it is given");
	ltt_sink_relay_stats(r, &stats);
	tap_ok(stats.packets_lost == 2 + written, "counted lost, after the unconfirmed ones (%llu)",
	       (unsigned long long)stats.packets_lost);
	tap_is_int(ltt_sink_relay_data_pending(r, &pending), -ECONNRESET,
		   "data pending: ECONNRESET");
	tap_ok(!pending, "and nothing pending");
	{
		struct ltt_sink *late = NULL;

		tap_is_int(ltt_output_open_sink(cout, "chan_1", &late), 0,
			   "a sink opened after the death still opens");
		tap_ok(late && !ltt_sink_ready(late) && ltt_sink_write(late, &pkt) < 0,
		       "and drops what it is given");
		ltt_sink_relay_stats(r, &stats);
		tap_ok(stats.packets_lost == 3 + written, "counted lost too (%llu)",
		       (unsigned long long)stats.packets_lost);
		ltt_sink_destroy(late);
	}

	__atomic_store_n(&pump.stop, true, __ATOMIC_RELEASE);
	pthread_join(pump.thread, NULL);
	ltt_sink_destroy(sink);
	ltt_output_destroy(cout);
	ltt_output_destroy(tout);
	ltt_sink_relay_destroy(r);
	tap_ok(1, "closed without hanging");
	close(f.lctrl);
	close(f.ldata);
}

/*
 * The streams of a channel are announced together: a packet or a live
 * tick while they are still being added announces nothing; the channel's
 * STREAMS_SENT does, once; a channel that goes before its streams were
 * all added does not hold the others back.
 */
static void test_announce(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_output *tout = NULL, *cout = NULL, *other = NULL;
	struct ltt_sink *a = NULL, *b = NULL, *c = NULL;
	struct ltt_sink_relay_cfg cfg;
	struct ltt_sink_packet pkt;
	struct ltt_relay *r = NULL;
	static uint8_t buf[4096];
	struct pump pump = { 0 };
	struct pollfd pfd;
	struct fake f;

	fake_start(&f, 2);
	cfg = cfg_for(&f, &addr);
	cfg.live_timer_us = 10000;
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), 0, "announce: connected");
	pump.relay = r;
	pthread_create(&pump.thread, NULL, pump_main, &pump);
	ltt_sink_relay_output_create(r, "kernel", 0, 0, true, &tout);
	ltt_sink_relay_output_create(r, "kernel", 0, 0, false, &cout);
	tap_ok(cout && !ltt_output_open_sink(cout, "chan_0", &a), "the channel's first stream");
	pfd = (struct pollfd){ .fd = a->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(a) == 0 || poll(&pfd, 1, 5000) == 1) && ltt_sink_ready(a) == 0,
	       "has its handle");
	make_packet(&pkt, buf, sizeof(buf), 1, 1, 0);
	tap_ok(!ltt_sink_write(a, &pkt) && fake_wait(&f, &f.nr_indexes, 1),
	       "a packet of it reached the relay, with its index");
	tap_is_int((int)f.streams_sent, 0, "not announced while its channel's streams may come");
	ltt_sink_idle(a, 5000, 3);	/* wrote since the last tick: nothing */
	ltt_sink_idle(a, 6000, 3);	/* a beacon, after what the tick would announce */
	tap_ok(fake_wait(&f, &f.nr_beacons, 1), "two live ticks (a beacon came)");
	tap_is_int((int)f.streams_sent, 0, "and still not announced: a tick does not split a channel");
	tap_ok(!ltt_output_open_sink(cout, "chan_1", &b) && fake_wait(&f, &f.nr_streams, 3),
	       "the channel's second stream is added");
	ltt_output_streams_added(cout);
	tap_ok(fake_wait(&f, &f.streams_sent, 1) && f.streams_at_sent == 3,
	       "STREAMS_SENT once its streams are all added: both announced at once");

	/* another channel whose streams never complete: its end releases them */
	ltt_sink_relay_output_create(r, "kernel", 0, 0, false, &other);
	tap_ok(other && !ltt_output_open_sink(other, "other_0", &c) &&
	       fake_wait(&f, &f.nr_streams, 4), "another channel's stream");
	ltt_sink_idle(a, 7000, 3);
	ltt_sink_idle(a, 8000, 3);
	fake_wait(&f, &f.nr_beacons, 3);
	tap_ok(f.nr_beacons == 3 && f.streams_sent == 1,
	       "ticks while it is incomplete announce nothing");
	ltt_sink_destroy(c);
	ltt_output_destroy(other);
	tap_ok(fake_wait(&f, &f.streams_sent, 2) && f.streams_sent == 2,
	       "a channel gone before its STREAMS_SENT holds nothing back");

	pump.stop = true;
	pthread_join(pump.thread, NULL);
	ltt_sink_destroy(a);
	ltt_sink_destroy(b);
	ltt_output_destroy(cout);
	ltt_output_destroy(tout);
	ltt_sink_relay_destroy(r);
	fake_stop(&f);
}

/*
 * Toward LTTng's relay (no LTT flag in GET_CONFIGURATION) a stream needs
 * a first packet: that relay ignores the beacons of a stream that never
 * had one, and its viewers wait on the stream meanwhile.
 */
static void test_first_packet(void)
{
	struct ltt_consumer_relay_addr addr;
	char path[256];
	struct ltt_output *tout = NULL, *cout = NULL;
	struct ltt_sink_relay_cfg cfg;
	struct ltt_sink_packet pkt;
	struct ltt_sink *a = NULL;
	struct ltt_relay *r = NULL;
	static uint8_t buf[4096];
	struct pump pump = { 0 };
	struct pollfd pfd;
	struct fake f;

	fake_start(&f, 2);
	pthread_mutex_lock(&f.lock);
	f.lttng = true;
	pthread_mutex_unlock(&f.lock);
	cfg = cfg_for(&f, &addr);
	cfg.live_timer_us = 10000;
	tap_is_int(ltt_sink_relay_connect(&cfg, &r, path, sizeof(path)), 0,
		   "first packet: connected to a relay without ltt's extensions");
	pump.relay = r;
	pthread_create(&pump.thread, NULL, pump_main, &pump);
	ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, true, &tout);
	ltt_sink_relay_output_create(r, "ust/uid/0/64-bit", 0, 0, false, &cout);
	tap_ok(cout && !ltt_output_open_sink(cout, "chan_0", &a), "a stream");
	pfd = (struct pollfd){ .fd = a->poll_fd, .events = POLLIN };
	tap_ok((ltt_sink_ready(a) == 0 || poll(&pfd, 1, 5000) == 1) && ltt_sink_ready(a) == 0,
	       "has its handle");
	tap_ok(ltt_sink_wants_packet(a), "without a packet yet, it needs one");
	make_packet(&pkt, buf, sizeof(buf), 1, 1, 0);
	tap_ok(!ltt_sink_write(a, &pkt) && fake_wait(&f, &f.nr_indexes, 1),
	       "a packet of it reached the relay, with its index");
	tap_ok(!ltt_sink_wants_packet(a), "it needs none afterwards: beacons do");

	pump.stop = true;
	pthread_join(pump.thread, NULL);
	ltt_sink_destroy(a);
	ltt_output_destroy(cout);
	ltt_output_destroy(tout);
	ltt_sink_relay_destroy(r);
	fake_stop(&f);
}

int main(void)
{
	test_connect_errors();
	test_session();
	test_announce();
	test_first_packet();
	return tap_done();
}
