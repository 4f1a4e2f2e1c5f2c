// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-relay.c - the commands of relay sessions: ADD_RELAY (connect and
 * create the session, then hand its I/O to the data thread),
 * RELAY_DATA_PENDING, RELAY_STATUS, RELAY_ARCHIVE, RELAY_ARCHIVE_RESULT,
 * DEL_RELAY.  Handlers of cmd.h's table; command thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/cmd/cmd.h"
#include "consumerd/trace/channel.h"
#include "consumerd/sink/sink-relay.h"

/* ADD_RELAY: see consumer-proto.h */
int ltt_cmd_add_relay(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		      struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_RELAY };
	struct ltt_consumer_add_relay_reply rep = { 0 };
	struct ltt_consumer_add_relay m;
	struct ltt_rlink_cfg cfg;
	struct ltt_registry_relay *e;
	char path[PATH_MAX];
	int ret;

	ret = ltt_consumer_get_add_relay(r, &m, ctx->minor);
	if (ret) {
		if (ret == -EINVAL)
			LTT_WARN("ADD_RELAY: a key of 0, an address that is not a relay's, or an empty host or session name");
		return ret;
	}
	if (ltt_registry_relay(&ctx->reg, m.relay_key)) {
		LTT_WARN("ADD_RELAY: relay key %" PRIu64 " already in use", m.relay_key);
		return -EEXIST;
	}
	if (ctx->reg.nr_relays >= LTT_REGISTRY_MAX_RELAYS)
		return -ENOBUFS;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	cfg = (struct ltt_rlink_cfg){
		.key = m.relay_key, .addr = &m.addr,
		.hostname = m.hostname, .session_name = m.session_name,
		.base_path = m.base_path, .live_timer_us = m.live_timer_us,
		.session_id = m.session_id, .creation_time = m.creation_time,
		.uuid = m.has_uuid ? m.uuid : NULL, .trace_format = m.trace_format,
		.tls = { m.tls_cert, m.tls_key, m.tls_ca },
	};
	ret = ltt_rlink_connect(&cfg, &e->relay, path, sizeof(path));
	if (!ret) {
		req.relay = e->relay;
		ret = ltt_data_call(ctx->reg.data, &req);
		if (ret)
			ltt_rlink_destroy(e->relay);
	}
	if (ret) {
		free(e);
		return ret;
	}
	e->key = m.relay_key;
	ltt_registry_add_relay(&ctx->reg, e);
	rep.output_path = path;
	ltt_consumer_put_add_relay_reply(reply, &rep);
	LTT_INFO("relay %" PRIu64 ": session %s of %s at %s (ports %u, %u%s), output %s",
		 m.relay_key, m.session_name, m.hostname, m.addr.host,
		 (unsigned int)m.addr.ctrl_port, (unsigned int)m.addr.data_port,
		 m.tls_cert ? ", TLS" : "", path);
	return 0;
}

/* The relay of a {u64 relay_key} payload, or NULL with *ret_err set. */
static struct ltt_registry_relay *relay_arg(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r,
					    const char *what, int *ret_err)
{
	struct ltt_registry_relay *e;
	uint64_t key;

	if (ltt_consumer_get_relay_key(r, &key)) {
		*ret_err = -EPROTO;
		return NULL;
	}
	e = ltt_registry_relay(&ctx->reg, key);
	if (!e)
		*ret_err = ltt_registry_no_such(what, "relay", key);
	return e;
}

/*
 * The counts of @relay's streams moved (ltt_rlink_reconcile()):
 * the statistics pages of its channels are written again before the
 * answer, so that the session daemon's next read has them.
 */
static void publish_relay_channels(struct ltt_cmd_ctx *ctx, struct ltt_relay *relay)
{
	struct ltt_channel *c;
	int ret;

	for (c = ctx->reg.channels; c; c = c->next) {
		struct ltt_data_req req = { .type = LTT_DATA_STATS, .chan = c };

		if (ltt_sink_relay_of(c->output) != relay)
			continue;
		ret = ltt_data_call(ctx->reg.data, &req);
		if (ret)
			LTT_WARN("channel %" PRIu64 ": its statistics wait for the next tick: %s",
				 c->key, strerror(-ret));
	}
}

/* RELAY_DATA_PENDING {u64 relay_key} -> {u8 pending} */
int ltt_cmd_relay_data_pending(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			       struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_pending_reply rep = { 0 };
	struct ltt_registry_relay *e;
	bool pending;
	int ret;

	e = relay_arg(ctx, r, "RELAY_DATA_PENDING", &ret);
	if (!e)
		return ret;
	/* a relay that died and answers again says which unconfirmed packets it holds */
	if (ltt_rlink_reconcile(e->relay) > 0)
		publish_relay_channels(ctx, e->relay);
	ret = ltt_rlink_data_pending(e->relay, &pending);
	if (ret)
		return ret;
	rep.pending = pending;
	ltt_consumer_put_relay_pending_reply(reply, &rep);
	return 0;
}

/* RELAY_STATUS {u64 relay_key} -> {i32 conn_error, u64 sent, u64 bytes, u64 lost} */
int ltt_cmd_relay_status(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_status_reply rep = { 0 };
	struct ltt_rlink_stats stats;
	struct ltt_registry_relay *e;
	int ret;

	e = relay_arg(ctx, r, "RELAY_STATUS", &ret);
	if (!e)
		return ret;
	ltt_rlink_stats(e->relay, &stats);
	rep.conn_error = stats.conn_error;
	rep.packets_sent = stats.packets_sent;
	rep.bytes_sent = stats.bytes_sent;
	rep.packets_lost = stats.packets_lost;
	ltt_consumer_put_relay_status_reply(reply, &rep);
	return 0;
}

/* RELAY_ARCHIVE {u64 relay_key, str from, str to} (1.8) */
int ltt_cmd_relay_archive(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			  struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_archive m;
	struct ltt_registry_relay *e;

	if (ltt_consumer_get_relay_archive(r, &m))
		return -EPROTO;
	e = ltt_registry_relay(&ctx->reg, m.relay_key);
	if (!e)
		return ltt_registry_no_such("RELAY_ARCHIVE", "relay", m.relay_key);
	return ltt_rlink_archive(e->relay, m.from, m.to);
}

/* RELAY_ARCHIVE_RESULT {u64 relay_key} (1.8) */
int ltt_cmd_relay_archive_result(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
				 struct ltt_wbuf *reply)
{
	struct ltt_registry_relay *e;
	int ret;

	e = relay_arg(ctx, r, "RELAY_ARCHIVE_RESULT", &ret);
	return e ? ltt_rlink_archive_result(e->relay) : ret;
}

/* DEL_RELAY {u64 relay_key} */
int ltt_cmd_del_relay(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		      struct ltt_wbuf *reply)
{
	struct ltt_registry_relay *e;
	int ret;

	e = relay_arg(ctx, r, "DEL_RELAY", &ret);
	return e ? ltt_registry_remove_relay(&ctx->reg, e) : ret;
}

