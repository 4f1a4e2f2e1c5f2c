// SPDX-License-Identifier: GPL-2.0-only
/*
 * relay-session.c - the life of the relay output's session: connect
 * (VERSION, GET_CONFIGURATION, CREATE_SESSION and trace chunk 0, blocking
 * with a deadline, on the command thread: common/net/relay-conn.c), close
 * (every stream's CLOSE_STREAM, the chunk's CLOSE_TRACE_CHUNK, sent by
 * the data thread) and destroy (what is still queued sent within a short
 * deadline).  The connection it sets up is relay-link.c's.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/net/relay-conn.h"
#include "common/net/xport.h"
#include "common/proto/relay-proto.h"
#include "consumerd/relay/relay-link.h"

/* A random (version 4) uuid, for a session daemon that gave none. */
static void random_uuid(uint8_t *uuid)
{
	size_t i;

	if (getrandom(uuid, 16, 0) != 16)
		for (i = 0; i < 16; i++)
			uuid[i] = (uint8_t)(rand() ^ (int)ltt_relay_conn_now_ms());
	uuid[6] = (uint8_t)((uuid[6] & 0x0f) | 0x40);
	uuid[8] = (uint8_t)((uuid[8] & 0x3f) | 0x80);
}

/*
 * The handshake after VERSION: GET_CONFIGURATION (is it ltt-relayd?),
 * CREATE_SESSION, and the session's trace chunk 0, as LTTng 2.11 and
 * later expect it before any stream.  Blocking, by @deadline.
 */
static int handshake(struct ltt_relay *r, const struct ltt_rlink_cfg *cfg,
		     uint64_t deadline, char *ret_path, size_t path_len)
{
	struct ltt_relay_conn_session sess = {
		.session_name = cfg->session_name, .hostname = cfg->hostname,
		.base_path = cfg->base_path, .live_timer_us = cfg->live_timer_us,
		.session_id = cfg->session_id, .creation_time = cfg->creation_time,
		.uuid = cfg->uuid, .trace_format = cfg->trace_format,
	};
	uint8_t uuid[16];
	uint64_t flags = 0;
	int ret = 0;

	if (!sess.uuid) {
		random_uuid(uuid);
		sess.uuid = uuid;
	}
	if (r->minor >= LTT_RELAY_MINOR_CONFIG)
		ret = ltt_relay_conn_get_configuration(r->ctrl, deadline, r->label, &flags);
	r->ltt_ext = flags & LTT_RELAY_CONFIG_LTT;
	r->reconcile = r->ltt_ext && (flags & LTT_RELAY_CONFIG_RECONCILE);
	if (!ret)
		ret = ltt_relay_conn_create_session(r->ctrl, &sess, r->minor, deadline, r->label,
						    &r->session_id, ret_path, path_len);
	if (!ret && r->minor >= LTT_RELAY_MINOR_CHUNKS) {
		ret = ltt_relay_conn_create_chunk(r->ctrl, 0, (uint64_t)time(NULL), deadline,
						  r->label);
		r->chunk = !ret;
	}
	return ret;
}

/* The TLS context of @cfg's files.  0, or -EKEYREJECTED (logged). */
static int tls_context(struct ltt_relay *r, const struct ltt_rlink_cfg *cfg)
{
	struct ltt_xport_tls_files f = { cfg->tls.cert, cfg->tls.key, cfg->tls.ca };
	char why[LTT_XPORT_ERR_MAX];
	int ret = ltt_xport_ctx_create(&f, false, why, sizeof(why), &r->tls);

	if (ret == -EINVAL) {
		LTT_ERR("%s: %s", r->label, why);
		return -EKEYREJECTED;
	}
	return ret;
}

int ltt_rlink_connect(const struct ltt_rlink_cfg *cfg, struct ltt_relay **ret_relay,
		      char *ret_path, size_t path_len)
{
	struct ltt_relay *r;
	uint64_t deadline;
	int ret;

	if (!cfg || !cfg->addr || !cfg->addr->host[0] || !cfg->addr->ctrl_port ||
	    !cfg->addr->data_port || !cfg->session_name || !cfg->hostname || !ret_relay ||
	    !ret_path || !path_len)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->key = cfg->key;
	r->live_timer_us = cfg->live_timer_us;
	r->addr = *cfg->addr;
	r->exp_tail = &r->exp_head;
	snprintf(r->label, sizeof(r->label), "relay session %s at %s%s%s:%u", cfg->session_name,
		 cfg->addr->family == LTT_URI_INET6 ? "[" : "", cfg->addr->host,
		 cfg->addr->family == LTT_URI_INET6 ? "]" : "", (unsigned int)cfg->addr->ctrl_port);
	pthread_mutex_init(&r->lock, NULL);
	r->kick_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	ret = r->kick_fd < 0 ? -errno : 0;
	if (!ret && cfg->tls.cert)
		ret = tls_context(r, cfg);
	deadline = ltt_relay_conn_now_ms() + LTT_RELAY_CONN_TIMEOUT_MS;
	if (!ret)
		ret = ltt_relay_conn_open(cfg->addr->family, cfg->addr->host, cfg->addr->ctrl_port,
					  r->tls, deadline, r->label, &r->ctrl);
	deadline = ltt_relay_conn_now_ms() + LTT_RELAY_CONN_TIMEOUT_MS;
	if (!ret)
		ret = ltt_relay_conn_open(cfg->addr->family, cfg->addr->host, cfg->addr->data_port,
					  r->tls, deadline, r->label, &r->data);
	deadline = ltt_relay_conn_now_ms() + LTT_RLINK_TIMEOUT_MS;
	if (!ret)
		ret = ltt_relay_conn_version(r->ctrl, deadline, r->label, &r->minor);
	if (!ret)
		ret = handshake(r, cfg, deadline, ret_path, path_len);
	if (ret) {
		LTT_ERR("%s: %s", r->label, strerror(-ret));
		ltt_rlink_destroy(r);
		return ret;
	}
	snprintf(r->out_path, sizeof(r->out_path), "%s", ret_path);
	LTT_INFO("%s: connected (protocol 2.%u, %s%s), output %s", r->label, r->minor,
		 r->ltt_ext ? "ltt-relayd" : "another relay daemon, ltt's extensions off",
		 r->tls ? ", TLS 1.3" : "", ret_path);
	*ret_relay = r;
	return 0;
}

/* CLOSE_TRACE_CHUNK of chunk 0, once, after the streams' CLOSE_STREAM.  Locked. */
static void close_chunk(struct ltt_relay *r)
{
	struct ltt_relay_close_chunk m = { .chunk_id = 0, .close_time = (uint64_t)time(NULL) };
	struct ltt_wbuf pl;

	if (!r->chunk || r->conn_error)
		return;
	r->chunk = false;
	ltt_wbuf_init(&pl);
	ltt_relay_put_close_chunk(&pl, &m);
	rlink_queue_ctrl_e(r, LTT_RELAY_CLOSE_TRACE_CHUNK, &pl, NULL, NULL);
	ltt_wbuf_fini(&pl);
}

void ltt_rlink_close(struct ltt_relay *r)
{
	struct relay_stream *st;

	pthread_mutex_lock(&r->lock);
	rlink_release_streams(r, NULL);
	for (st = r->streams; st; st = st->next)
		rlink_close_stream(r, st);
	close_chunk(r);
	r->closing = true;
	r->close_deadline_ms = ltt_relay_conn_now_ms() + LTT_RLINK_TIMEOUT_MS;
	rlink_pump(r);
	pthread_mutex_unlock(&r->lock);
}

bool ltt_rlink_closed(struct ltt_relay *r)
{
	struct relay_stream *st;
	bool done;

	pthread_mutex_lock(&r->lock);
	done = r->closing && (r->conn_error || !rlink_busy(r));
	for (st = r->streams; done && !r->conn_error && st; st = st->next)
		done = !st->close_later;
	if (r->closing && !done && !ltt_relay_conn_ms_left(r->close_deadline_ms)) {
		rlink_warn_unsent(r);
		rlink_fail(r, -ETIMEDOUT);
		done = true;
	}
	pthread_mutex_unlock(&r->lock);
	return done;
}

/* Send what is queued within a short deadline, on the caller's thread. */
static void final_send(struct ltt_relay *r)
{
	uint64_t deadline = ltt_relay_conn_now_ms() + LTT_RLINK_FINAL_MS;
	struct pollfd pfd[2] = { { .fd = ltt_xport_fd(r->ctrl) }, { .fd = ltt_xport_fd(r->data) } };
	struct relay_stream *st;

	pthread_mutex_lock(&r->lock);
	rlink_release_streams(r, NULL);
	for (st = r->streams; st; st = st->next)
		rlink_close_stream(r, st);
	while (!r->conn_error && (!rlink_q_empty(&r->ctrl_q) || !rlink_q_empty(&r->data_q) || r->exp_head)) {
		rlink_pump(r);
		if (!ltt_relay_conn_ms_left(deadline)) {
			rlink_warn_unsent(r);
			break;
		}
		pfd[0].events = POLLIN | (rlink_q_empty(&r->ctrl_q) ? 0 : POLLOUT);
		pfd[1].events = rlink_q_empty(&r->data_q) ? 0 : POLLOUT;
		pthread_mutex_unlock(&r->lock);
		poll(pfd, 2, ltt_relay_conn_ms_left(deadline));
		pthread_mutex_lock(&r->lock);
	}
	pthread_mutex_unlock(&r->lock);
}

void ltt_rlink_destroy(struct ltt_relay *r)
{
	struct relay_stream *st;
	struct expect *e;

	if (!r)
		return;
	if (r->ctrl && r->data)
		final_send(r);
	while ((e = r->exp_head)) {
		r->exp_head = e->next;
		free(e);
	}
	while ((st = r->streams)) {
		r->streams = st->next;
		free(st->meta.buf);
		free(st->unconfirmed);
		free(st);
	}
	ltt_xport_destroy(r->ctrl);
	ltt_xport_destroy(r->data);
	ltt_xport_ctx_destroy(r->tls);
	ltt_fd_close(&r->kick_fd);
	free(r->ctrl_q.buf);
	free(r->data_q.buf);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
