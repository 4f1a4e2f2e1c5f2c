// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake-relay.c - a fake relay daemon for test_sink_relay (see
 * fake-relay.h): its control requests answered as ltt-relayd answers them
 * (a packet's SEND_INDEX once the packet is read), its data connection
 * read packet by packet, everything counted under its lock for the test
 * to wait on.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "common/proto/relay-proto.h"
#include "fake-relay.h"

int fake_listen_port(int *ret_port)
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
			LTT_RELAY_OK, f->lttng ? 0 : LTT_RELAY_CONFIG_LTT |
			(f->reconcile ? LTT_RELAY_CONFIG_RECONCILE : 0),
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
	case LTT_RELAY_RECONCILE_STREAM: {
		struct ltt_relay_reconcile_stream m;
		struct ltt_relay_reconcile_reply rep = { f->reconcile_code, 0 };

		if (ltt_relay_get_reconcile_stream(&r, &m)) {
			ret = -1;
			break;
		}
		f->reconciles++;
		ltt_relay_put_reconcile_reply(&w, &rep);	/* refused: no packet */
		break;
	}
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

/* After the death: each control connection served in turn, until told to stop. */
static void *reconcile_main(void *arg)
{
	struct fake *f = arg;
	struct pollfd pfd;
	bool stop;

	for (;;) {
		pthread_mutex_lock(&f->lock);
		stop = f->reconcile_stop;
		pthread_mutex_unlock(&f->lock);
		if (stop)
			break;
		pfd = (struct pollfd){ .fd = f->lctrl, .events = POLLIN };
		if (poll(&pfd, 1, 10) <= 0)
			continue;
		f->ctrl = accept(f->lctrl, NULL, NULL);
		if (f->ctrl < 0)
			continue;
		while (!serve_ctrl(f))
			;
		close(f->ctrl);
	}
	return NULL;
}

void fake_reconcile_start(struct fake *f, uint32_t code)
{
	pthread_mutex_lock(&f->lock);
	f->reconcile_code = code;
	f->reconcile_stop = false;
	pthread_mutex_unlock(&f->lock);
	pthread_create(&f->thread, NULL, reconcile_main, f);
}

/* Set *@flag under @f's lock, which tells its thread to end, and join it. */
static void end_thread(struct fake *f, bool *flag)
{
	pthread_mutex_lock(&f->lock);
	*flag = true;
	pthread_mutex_unlock(&f->lock);
	pthread_join(f->thread, NULL);
}

void fake_reconcile_stop(struct fake *f)
{
	end_thread(f, &f->reconcile_stop);
}

void fake_start(struct fake *f, uint32_t major)
{
	memset(f, 0, sizeof(*f));
	f->major = major;
	f->pending_answer = 0;
	pthread_mutex_init(&f->lock, NULL);
	pthread_cond_init(&f->cond, NULL);
	f->lctrl = fake_listen_port(&f->ctrl_port);
	f->ldata = fake_listen_port(&f->data_port);
	pthread_create(&f->thread, NULL, fake_main, f);
}

void fake_stop(struct fake *f)
{
	end_thread(f, &f->die);
	close(f->lctrl);
	close(f->ldata);
}

/* Wait (5 s at most) until @n <= *counter, under the fake's lock. */
bool fake_wait(struct fake *f, const unsigned int *counter, unsigned int n)
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
