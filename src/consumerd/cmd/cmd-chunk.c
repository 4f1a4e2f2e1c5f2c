// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-chunk.c - the commands that take a trace's channels elsewhere, all
 * together: ROTATE_TRACE (a new chunk, local or relayed, or a clear in
 * place) and SNAPSHOT_TRACE, SNAPSHOT_TRACE_RELAY (a copy of a snapshot
 * trace's buffers, to a directory or a relay path).  Handlers of cmd.h's
 * table; command thread.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "common/base/log.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/cmd/cmd.h"
#include "consumerd/trace/snapshot.h"

/* Move every channel of @t to outputs made by ltt_channel_output_create() in @chunk. */
static int move_channels(struct ltt_cmd_ctx *ctx, struct ltt_trace *t,
			 const struct ltt_trace_chunk *chunk, bool clear)
{
	struct ltt_output **outs, *old;
	struct ltt_data_req req;
	struct ltt_channel *c;
	unsigned int n = 0, i;
	int ret = 0;

	outs = calloc(t->nr_channels ? t->nr_channels : 1, sizeof(*outs));
	if (!outs)
		return -ENOMEM;
	/* every output first: once a channel moved, the others must follow */
	for (c = ctx->reg.channels; c && !ret; c = c->next)
		if (c->trace == t && n < t->nr_channels)
			ret = ltt_channel_output_create(t, chunk, c, false, &outs[n++]);
	for (c = ctx->reg.channels, i = 0; c && !ret; c = c->next) {
		if (c->trace != t || i >= n)
			continue;
		/* no data thread reads it between requests (channel.h) */
		old = c->output;
		c->output = outs[i];
		req = (struct ltt_data_req){ .type = LTT_DATA_NEW_CHUNK, .chan = c,
					     .clear = clear };
		/* can't fail: a sink that can't open is retried */
		ltt_data_call(ctx->reg.data, &req);
		ltt_output_streams_added(c->output);	/* a relay announces them together */
		outs[i++] = old;		/* destroyed below */
	}
	for (i = 0; i < n; i++)
		ltt_output_destroy(outs[i]);
	free(outs);
	return ret;
}

/*
 * A clear of snapshot trace @t: nothing is written, its buffers are
 * emptied for the snapshots to come (ltt_snapshot_clear_part()).
 */
static int clear_snapshot(struct ltt_cmd_ctx *ctx, struct ltt_trace *t)
{
	struct ltt_data_req req = { .type = LTT_DATA_SNAPSHOT, .clear = true };
	struct ltt_channel *c;
	int ret = 0;

	for (c = ctx->reg.channels; c && !ret; c = c->next) {
		if (c->trace != t)
			continue;
		req.chan = c;
		ret = ltt_data_call(ctx->reg.data, &req);
	}
	LTT_INFO("trace %" PRIu64 ": snapshot buffers cleared%s", t->key, ret ? " (with errors)" : "");
	return ret;
}

/* ROTATE_TRACE {u64 trace_key, u8 clear, str dir} */
int ltt_cmd_rotate_trace(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_trace_chunk chunk = { .dir_fd = -1, .index_fd = -1 };
	struct ltt_consumer_rotate_trace m;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_rotate_trace(r, &m))
		return -EPROTO;
	t = ltt_registry_trace(&ctx->reg, m.trace_key);
	if (!t)
		return ltt_registry_no_such("ROTATE_TRACE", "trace", m.trace_key);
	if (t->snapshot) {
		/* it writes nothing until a snapshot: a clear only, in place */
		if (!m.clear || m.dir[0])
			return -EINVAL;
		return clear_snapshot(ctx, t);
	}
	if (t->relay && m.clear) {
		LTT_WARN("ROTATE_TRACE: trace %s goes to a relay: clear not supported", t->path);
		return -EOPNOTSUPP;
	}
	if (m.clear != !m.dir[0] ||
	    (!m.clear && (t->relay ? !ltt_trace_relay_path_ok(m.dir) : m.dir[0] != '/'))) {
		LTT_WARN("ROTATE_TRACE: '%s' is not %s", m.dir,
			 m.clear ? "empty (a clear stays in place)" :
			 t->relay ? "a relative path in the relay session" : "an absolute path");
		return -EINVAL;
	}
	if (m.clear) {
		ret = move_channels(ctx, t, NULL, true);
		if (!ret)
			ret = ltt_trace_reset_metadata(t, true);
		LTT_INFO("trace %s: cleared%s", t->path, ret ? " (with errors)" : "");
		return ret;
	}
	if (ltt_registry_trace_at(&ctx->reg, m.dir, t->relay)) {
		LTT_WARN("ROTATE_TRACE: a trace already writes to %s", m.dir);
		return -EEXIST;
	}
	ret = ltt_trace_chunk_create(t, m.dir, &chunk);
	if (ret)
		return ret;
	ret = move_channels(ctx, t, &chunk, false);
	if (ret) {
		ltt_trace_chunk_abort(&chunk);
		return ret;
	}
	LTT_INFO("trace %" PRIu64 ": chunk %s closed, writing to %s", t->key, t->path, m.dir);
	ltt_trace_chunk_commit(t, &chunk);
	return 0;
}

/*
 * The checks of SNAPSHOT_TRACE and SNAPSHOT_TRACE_RELAY: the snapshot trace
 * @m names (its channels of either domain: snapshot_run() copies user-space
 * and kernel streams alike).
 */
static int snapshot_trace_of(struct ltt_cmd_ctx *ctx, const struct ltt_consumer_snapshot_trace *m,
			     struct ltt_trace **ret_t)
{
	struct ltt_trace *t;

	t = ltt_registry_trace(&ctx->reg, m->trace_key);
	if (!t)
		return ltt_registry_no_such("SNAPSHOT_TRACE", "trace", m->trace_key);
	if (!t->snapshot || (!m->relay_key && m->dir[0] != '/')) {
		LTT_WARN("SNAPSHOT_TRACE: trace %" PRIu64 " %s", m->trace_key,
			 t->snapshot ? "needs an absolute directory" : "is not in snapshot mode");
		return -EINVAL;
	}
	*ret_t = t;
	return 0;
}

/* Copy each channel of @t into @out (which this closes), and reply. */
static int snapshot_run(struct ltt_cmd_ctx *ctx, struct ltt_trace *t, struct ltt_snapshot_out *out,
			const struct ltt_consumer_snapshot_trace *m, struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_SNAPSHOT };
	struct ltt_consumer_snapshot_reply rep;
	struct ltt_channel *c;
	int ret = 0;

	req.snap_out = out->streams;
	req.max_packets = m->max_packets;
	for (c = ctx->reg.channels; c && !ret; c = c->next) {
		if (c->trace != t)
			continue;
		req.chan = c;
		ret = ltt_data_call(ctx->reg.data, &req);
	}
	ltt_snapshot_close(out);
	if (ret)
		return ret;
	rep = (struct ltt_consumer_snapshot_reply){
		.packets = req.snap.packets,
		.bytes = req.snap.bytes,
		.packets_dropped = req.snap.packets_dropped,
	};
	ltt_consumer_put_snapshot_reply(reply, &rep);
	LTT_INFO("trace %" PRIu64 ": snapshot in %s%s: %" PRIu64 " packets, %" PRIu64
		 " left out", m->trace_key, m->relay_key ? "the relay's " : "", m->dir,
		 rep.packets, rep.packets_dropped);
	return 0;
}

/* SNAPSHOT_TRACE {u64 trace_key, str dir, u64 max_packets} (1.6) */
int ltt_cmd_snapshot_trace(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			   struct ltt_wbuf *reply)
{
	struct ltt_consumer_snapshot_trace m;
	struct ltt_snapshot_out out;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_snapshot_trace(r, &m))
		return -EPROTO;
	ret = snapshot_trace_of(ctx, &m, &t);
	if (!ret)
		ret = ltt_snapshot_open(t, m.dir, &out);
	return ret ? ret : snapshot_run(ctx, t, &out, &m, reply);
}

/* SNAPSHOT_TRACE_RELAY {u64 trace_key, u64 relay_key, str path, u64 max_packets} (1.8) */
int ltt_cmd_snapshot_trace_relay(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
				 struct ltt_wbuf *reply)
{
	struct ltt_consumer_snapshot_trace m;
	struct ltt_snapshot_out out;
	struct ltt_registry_relay *re;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_snapshot_trace_relay(r, &m) || !m.relay_key)
		return -EPROTO;
	re = ltt_registry_relay(&ctx->reg, m.relay_key);
	if (!re)
		return ltt_registry_no_such("SNAPSHOT_TRACE_RELAY", "relay", m.relay_key);
	ret = snapshot_trace_of(ctx, &m, &t);
	if (!ret)
		ret = ltt_snapshot_open_relay(t, re->relay, m.dir, &out);
	return ret ? ret : snapshot_run(ctx, t, &out, &m, reply);
}

