// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-channel.c - the commands of channels and their streams:
 * ADD_CHANNEL, ADD_STREAM (user space), ADD_KERNEL_STREAM,
 * ADD_FTRACE_STREAM (tracefs), STREAMS_SENT,
 * FLUSH_CHANNEL, CHANNEL_STATS, RECLAIM_CHANNEL, DESTROY_CHANNEL.  Each is a request to the
 * data threads, which own the streams.  Handlers of cmd.h's table;
 * command thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/names.h"
#include "common/base/sock.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/cmd/cmd.h"

/*
 * The channel of @key that command @name names, in *@ret_chan (NULL when
 * none): 0 or -ENOENT (logged).
 */
static int channel_of(const struct ltt_cmd_ctx *ctx, uint64_t key, const char *name,
		      struct ltt_channel **ret_chan)
{
	*ret_chan = ltt_registry_channel(&ctx->reg, key);
	if (*ret_chan)
		return 0;
	ltt_registry_no_such(name, "channel", key);
	return -ENOENT;	/* literal: the compiler must see *ret_chan set on 0 */
}

/* The channel a {u64 channel_key} payload names: 0, -EPROTO or -ENOENT. */
static int key_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, const char *name,
		       struct ltt_channel **ret_chan)
{
	uint64_t key;

	if (ltt_consumer_get_key(r, &key))
		return -EPROTO;
	return channel_of(ctx, key, name, ret_chan);
}

/* Checks of ADD_CHANNEL's values against each other and the registry. */
static int check_channel(const struct ltt_cmd_ctx *ctx, const struct ltt_channel_cfg *cfg,
			 const struct ltt_trace *t)
{
	const struct ltt_channel *c;

	if (ltt_registry_channel(&ctx->reg, cfg->key)) {
		LTT_WARN("ADD_CHANNEL: channel key %" PRIu64 " already in use", cfg->key);
		return -EEXIST;
	}
	if (!ltt_channel_name_valid(cfg->name)) {
		LTT_WARN("ADD_CHANNEL: invalid channel name '%s'", cfg->name);
		return -EINVAL;
	}
	if (cfg->tracefile_count && !cfg->tracefile_size) {
		LTT_WARN("ADD_CHANNEL: channel %s: a tracefile count needs a tracefile size",
			 cfg->name);
		return -EINVAL;
	}
	for (c = ctx->reg.channels; c; c = c->next) {
		if (c->trace == t && !strcmp(c->name, cfg->name)) {
			LTT_WARN("ADD_CHANNEL: trace %" PRIu64 " already has a channel %s", t->key,
				 cfg->name);
			return -EEXIST;
		}
	}
	return ctx->reg.nr_channels >= LTT_REGISTRY_MAX_CHANNELS ? -ENOBUFS : 0;
}

/* ADD_CHANNEL: see consumer-proto.h */
int ltt_cmd_add_channel(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_CHANNEL };
	struct ltt_consumer_add_channel m;
	struct ltt_channel *chan = NULL;
	struct ltt_channel_cfg cfg;
	struct ltt_trace *t;
	uint64_t trace_key;
	int ret;

	ret = ltt_consumer_get_add_channel(r, &m);
	/* the decoder fills m only on success */
	if (ret == -EOPNOTSUPP)
		LTT_WARN("ADD_CHANNEL: unknown domain, or a tracefs channel's context other than tid, cpu_id, procname, pid, ppid, vpid and vtid: not supported");
	else if (ret == -EINVAL)
		LTT_WARN("ADD_CHANNEL: a kernel or tracefs channel's sub-buffer count or size is out of range (powers of two within src/abi/ltt-abi.h's limits), or a context is invalid");
	if (ret)
		return ret;
	cfg = (struct ltt_channel_cfg){
		.key = m.key,
		.name = m.name,
		.tracefile_size = m.tracefile_size,
		.tracefile_count = m.tracefile_count,
		.switch_timer_us = m.switch_timer_us,
		.read_timer_us = m.read_timer_us,
		.overwrite = m.overwrite,
		.fsync = m.fsync,
		.auto_reclaim = m.auto_reclaim,
		.auto_reclaim_ns = m.auto_reclaim_ns,
		.auto_reclaim_counts = m.auto_reclaim_counts,
		.domain = m.domain,
		.subbuf_size = m.subbuf_size,
		.num_subbuf = m.num_subbuf,
		.stream_id = m.stream_id,
		.nr_ctx = m.nr_ctx,
		.ctx = m.ctx,
	};
	trace_key = m.trace_key;
	t = ltt_registry_trace(&ctx->reg, trace_key);
	if (!t)
		return ltt_registry_no_such("ADD_CHANNEL", "trace", trace_key);
	ret = check_channel(ctx, &cfg, t);
	if (ret)
		return ret;
	ltt_data_place(ctx->reg.data, &cfg, t->relay != NULL, t->snapshot);
	ret = ltt_channel_create(&cfg, t, &chan);
	if (ret)
		return ret;
	req.chan = chan;
	ret = ltt_data_call(ctx->reg.data, &req);
	if (ret) {
		ltt_channel_destroy(chan);
		return ret;
	}
	ltt_registry_add_channel(&ctx->reg, chan);
	LTT_INFO("channel %" PRIu64 ": %s in trace %" PRIu64, cfg.key, cfg.name, trace_key);
	return 0;
}

/*
 * What ADD_STREAM, ADD_KERNEL_STREAM and ADD_FTRACE_STREAM share: @req (its fds set) adds
 * the stream of @cpu to the channel of @key, which must be of @domain;
 * a session daemon older than 1.3 sends no STREAMS_SENT, so each stream
 * is its channel's last.  Returns 0, -ENOENT, -EPROTO, or the request's
 * status.
 */
static int add_stream(struct ltt_cmd_ctx *ctx, uint64_t key, uint32_t cpu, uint8_t domain,
		      struct ltt_data_req *req)
{
	static const char *const names[] = { "ADD_STREAM", "ADD_KERNEL_STREAM",
					     "ADD_FTRACE_STREAM" };
	static const char *const kinds[] = { "user-space", "kernel", "tracefs" };
	const char *name = names[domain];
	int ret = channel_of(ctx, key, name, &req->chan);
	uint8_t has;

	if (ret)
		return ret;
	req->cpu = cpu;
	has = req->chan->domain;
	if (has != domain) {
		LTT_WARN("%s: channel %s is a %s channel: use %s", name, req->chan->name,
			 has < 3 ? kinds[has] : "?", has < 3 ? names[has] : "?");
		return -EPROTO;
	}
	ret = ltt_data_call(ctx->reg.data, req);
	if (ret == -EEXIST)
		LTT_WARN("%s: channel %s already has cpu %" PRIu32, name, req->chan->name,
			 req->cpu);
	if (ctx->minor < LTT_CONSUMER_MINOR_STREAMS_SENT)
		ltt_output_streams_added(req->chan->output);
	return ret;
}

/*
 * ADD_STREAM {u64 channel_key, u32 cpu} + shm fd, wakeup fd;
 * ADD_STREAM_STATS: the same + the channel's statistics page (1.4)
 */
int ltt_cmd_add_stream(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
		       struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_STREAM };
	struct ltt_consumer_add_stream m;

	if (ltt_consumer_get_add_stream(r, &m))
		return -EPROTO;
	/* borrowed: the data thread dups what it keeps, ltt_msg_fini() closes these */
	req.shm_fd = msg->fds[0];
	req.wakeup_fd = msg->fds[1];
	if (msg->hdr.type == LTT_CONSUMER_MSG_ADD_STREAM_STATS) {
		req.has_stats = true;
		req.stats_fd = msg->fds[2];
	}
	return add_stream(ctx, m.channel_key, m.cpu, LTT_CONSUMER_DOMAIN_USER, &req);
}

/* Forget ADD_BPF_RING's fds. */
static void drop_bpf(struct ltt_cmd_ctx *ctx)
{
	if (!ctx->bpf.has)
		return;
	close(ctx->bpf.ring_fd);
	close(ctx->bpf.lost_fd);
	ctx->bpf.has = false;
}

/*
 * ADD_KERNEL_STREAM {u64 channel_key, u32 cpu} + stream fd;
 * ADD_FTRACE_STREAM: the same + the channel's event map (1.9);
 * ADD_KERNEL_STREAM_STATS, ADD_FTRACE_STREAM_STATS: each + the channel's
 * statistics page (1.14)
 */
int ltt_cmd_add_kernel_stream(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			      struct ltt_wbuf *reply)
{
	uint16_t type = msg->hdr.type;
	bool ftrace = type == LTT_CONSUMER_MSG_ADD_FTRACE_STREAM ||
		      type == LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS;
	struct ltt_data_req req = {
		.type = ftrace ? LTT_DATA_ADD_FTRACE_STREAM : LTT_DATA_ADD_KERNEL_STREAM,
		.has_stats = type == LTT_CONSUMER_MSG_ADD_KERNEL_STREAM_STATS ||
			     type == LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS,
	};
	struct ltt_consumer_add_kernel_stream m;
	int ret;

	if (ltt_consumer_get_add_kernel_stream(r, &m))
		return -EPROTO;
	/* borrowed: the data thread dups or maps what it keeps, ltt_msg_fini() closes them */
	req.stream_fd = msg->fds[0];
	if (ftrace)
		req.map_fd = msg->fds[1];
	if (req.has_stats)
		req.stats_fd = msg->fds[ftrace ? 2 : 1];
	if (ctx->bpf.has && (!ftrace || ctx->bpf.channel_key != m.channel_key ||
			     ctx->bpf.cpu != m.cpu)) {
		/* the ring would be read by no stream, its losses counted by none */
		LTT_ERR("ADD_BPF_RING (channel %" PRIu64 ", cpu %" PRIu32 ") not followed by its CPU's ADD_FTRACE_STREAM: refused",
			ctx->bpf.channel_key, ctx->bpf.cpu);
		drop_bpf(ctx);
		return -EPROTO;
	}
	if (ctx->bpf.has) {
		req.has_bpf = true;
		req.bpf_ring_fd = ctx->bpf.ring_fd;
		req.bpf_lost_fd = ctx->bpf.lost_fd;
	}
	ret = add_stream(ctx, m.channel_key, m.cpu,
			 ftrace ? LTT_CONSUMER_DOMAIN_TRACEFS : LTT_CONSUMER_DOMAIN_KERNEL, &req);
	if (req.has_bpf)
		drop_bpf(ctx);	/* the source mapped what it keeps */
	return ret;
}

/*
 * ADD_BPF_RING {u64 channel_key, u32 cpu} + the CPU's BPF ring, the
 * channel's lost counts: kept for the CPU's ADD_FTRACE_STREAM, next.
 */
int ltt_cmd_add_bpf_ring(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_consumer_add_kernel_stream m;
	struct ltt_channel *chan;
	int ret, ring, lost;

	(void)reply;
	if (ltt_consumer_get_add_kernel_stream(r, &m))
		return -EPROTO;
	ret = channel_of(ctx, m.channel_key, "ADD_BPF_RING", &chan);
	if (ret)
		return ret;
	if (chan->domain != LTT_CONSUMER_DOMAIN_TRACEFS) {
		LTT_WARN("ADD_BPF_RING: channel %s is not a tracefs channel", chan->name);
		return -EPROTO;
	}
	drop_bpf(ctx);
	ring = fcntl(msg->fds[0], F_DUPFD_CLOEXEC, 3);
	ret = ring < 0 ? -errno : 0;
	lost = ret ? -1 : fcntl(msg->fds[1], F_DUPFD_CLOEXEC, 3);
	if (!ret && lost < 0)
		ret = -errno;
	if (ret) {
		ltt_fd_close(&ring);
		return ret;
	}
	ctx->bpf.has = true;
	ctx->bpf.ring_fd = ring;
	ctx->bpf.lost_fd = lost;
	ctx->bpf.channel_key = m.channel_key;
	ctx->bpf.cpu = m.cpu;
	return 0;
}

/*
 * STREAMS_SENT {u64 channel_key}: the channel's streams are all added;
 * their sinks are open (ADD_STREAM replied once the data thread had opened
 * them), so a relayed channel announces them together now.
 */
int ltt_cmd_streams_sent(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_channel *chan;
	int ret = key_channel(ctx, r, "STREAMS_SENT", &chan);

	if (!ret)
		ltt_output_streams_added(chan->output);
	return ret;
}

/* FLUSH_CHANNEL {u64 channel_key, u8 final} */
int ltt_cmd_flush_channel(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			  struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_FLUSH };
	struct ltt_consumer_flush_channel m;
	int ret;

	if (ltt_consumer_get_flush_channel(r, &m))
		return -EPROTO;
	req.final = m.final;
	req.stopped = m.stopped;
	ret = channel_of(ctx, m.channel_key, "FLUSH_CHANNEL", &req.chan);
	if (ret)
		return ret;
	/* a failed output is tried again: pending metadata first, then the streams */
	ltt_trace_retry(req.chan->trace);
	return ltt_data_call(ctx->reg.data, &req);
}

/* CHANNEL_STATS {u64 channel_key} -> {u64 events_lost, u64 packets_lost, u64 bytes_written} */
int ltt_cmd_channel_stats(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			  struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_STATS };
	struct ltt_consumer_channel_stats stats;
	int64_t since = 0;
	int ret, err;

	ret = key_channel(ctx, r, "CHANNEL_STATS", &req.chan);
	if (ret)
		return ret;
	ret = ltt_data_call(ctx->reg.data, &req);
	if (ret)
		return ret;
	/* the trace's own failure (directory removed, metadata pending) first */
	err = ltt_trace_failure(req.chan->trace, &since);
	if (err) {
		req.stats.error = err;
		req.stats.error_since = since;
	}
	stats = (struct ltt_consumer_channel_stats){
		.events_lost = req.stats.events_lost,
		.packets_lost = req.stats.packets_lost,
		.bytes_written = req.stats.bytes_written,
		.error = req.stats.error,
		.error_since = req.stats.error_since,
		.error_events = req.stats.error_events,
		.error_packets = req.stats.error_packets,
	};
	ltt_consumer_put_channel_stats(reply, &stats);
	if (ctx->minor >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS)
		ltt_consumer_put_channel_error(reply, &stats);
	return 0;
}

/* RECLAIM_CHANNEL {u64 channel_key, u64 older_than_ns} -> {u64 subbufs} */
int ltt_cmd_reclaim_channel(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_RECLAIM };
	uint64_t key = ltt_rbuf_get_u64(r);
	int ret;

	req.older_than = ltt_rbuf_get_u64(r);
	if (ltt_rbuf_end(r))
		return -EPROTO;
	ret = channel_of(ctx, key, "RECLAIM_CHANNEL", &req.chan);
	if (!ret)
		ret = ltt_data_call(ctx->reg.data, &req);
	if (!ret)
		ltt_wbuf_put_u64(reply, req.reclaimed);
	return ret;
}

/* DESTROY_CHANNEL {u64 channel_key} */
int ltt_cmd_destroy_channel(struct ltt_cmd_ctx *ctx, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_channel *chan;
	int ret = key_channel(ctx, r, "DESTROY_CHANNEL", &chan);

	if (ret)
		return ret;
	ltt_registry_remove_channel(&ctx->reg, chan);
	return 0;
}

