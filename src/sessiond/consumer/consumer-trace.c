// SPDX-License-Identifier: GPL-2.0-only
/*
 * consumer-trace.c - the consumer's trace commands, each one call
 * (consumer-call.h): traces, channels and their streams, metadata,
 * rotations, statistics, snapshots.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/base/log.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "common/trace/ctf.h"
#include "sessiond/consumer/consumer-call.h"

/* The deadline of a command that writes what buffers hold: 5 s, and that at 8 MiB/s. */
static int sized_timeout_ms(uint64_t buffer_bytes)
{
	uint64_t ms = 5000 + buffer_bytes / (8 * 1024 * 1024) * 1000;

	return ms > INT32_MAX ? INT32_MAX : (int)ms;
}

int ltt_consumer_add_trace(struct ltt_consumer *c, uint64_t key, const char *dir,
			   const uuid_t uuid, uid_t uid, gid_t gid, uint64_t relay_key, bool resume)
{
	struct ltt_consumer_add_trace m = {
		.key = key,
		.dir = dir,
		.uid = (uint32_t)uid,
		.gid = (uint32_t)gid,
		.relay_key = relay_key,
		.resume = resume,
	};
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ADD_TRACE,
		.key = key,
		/* relay output: 1.2; resuming: 1.4 (the greater) */
		.minor = resume ? LTT_CONSUMER_MINOR_TAKEOVER : relay_key ? 2 : 0,
	};

	memcpy(m.uuid, uuid, sizeof(m.uuid));
	ltt_consumer_put_add_trace(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

/* METADATA, its reply waited for @timeout_ms (0: the type's deadline). */
static int metadata(struct ltt_consumer *c, uint64_t trace_key, const void *text, size_t len,
		    int timeout_ms)
{
	struct ltt_consumer_metadata m = {
		.trace_key = trace_key, .text = text, .len = (uint32_t)len,
	};
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_METADATA,
		.timeout_ms = timeout_ms,
		.flags = LTT_CALL_UNSENT_AGAIN,
		/* CTF 2's text, which an older consumer would packetize */
		.minor = len && *(const uint8_t *)text == LTT_CTF2_RS ? LTT_CONSUMER_MINOR_CTF2 : 0,
	};

	if (len > LTT_CONSUMER_METADATA_MAX)
		return -E2BIG;
	ltt_consumer_put_metadata(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_metadata(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			  size_t len)
{
	int ret = metadata(c, trace_key, text, len, 0);

	return ret == -EAGAIN ? -ETIMEDOUT : ret;
}

int ltt_consumer_metadata_try(struct ltt_consumer *c, uint64_t trace_key, const void *text,
			      size_t len, int timeout_ms)
{
	return metadata(c, trace_key, text, len, timeout_ms > 0 ? timeout_ms : 1);
}

int ltt_consumer_metadata_all(struct ltt_consumer *c, uint64_t trace_key,
			      const struct ltt_wbuf *text)
{
	size_t off = 0, n;
	int ret = text->err;

	while (!ret && off < text->len) {
		n = text->len - off;
		if (n > LTT_CONSUMER_METADATA_MAX)
			n = LTT_CONSUMER_METADATA_MAX;
		ret = ltt_consumer_metadata(c, trace_key, (const char *)text->data + off, n);
		off += n;
	}
	return ret;
}

int ltt_consumer_rotate_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
			      bool clear)
{
	struct ltt_consumer_rotate_trace m = { .trace_key = trace_key, .clear = clear, .dir = dir };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ROTATE_TRACE,
		.minor = LTT_CONSUMER_MINOR_ROTATE,
		/* a move sent whole, not answered: made when the consumer runs again (in order) */
		.flags = clear ? 0 : LTT_CALL_SENT_INPROGRESS,
	};

	ltt_consumer_put_rotate_trace(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_reset_metadata(struct ltt_consumer *c, uint64_t trace_key)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RESET_METADATA,
		.minor = LTT_CONSUMER_MINOR_ROTATE,
		.flags = LTT_CALL_UNSENT_AGAIN,
	};

	ltt_consumer_put_key(&k.req, trace_key);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_add_channel(struct ltt_consumer *c, const struct ltt_consumer_add_channel *chan)
{
	struct ltt_consumer_call k = { .type = LTT_CONSUMER_MSG_ADD_CHANNEL, .key = chan->key };

	if (chan->fsync && ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_FSYNC) {
		LTT_ERR("channel %s: the consumer daemon (protocol 1.%u) predates --fsync: install the ltt-consumerd of this ltt-sessiond",
			chan->name, (unsigned int)ltt_consumer_minor(c));
		return -EOPNOTSUPP;
	}
	if (chan->auto_reclaim && ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_AUTO_RECLAIM) {
		LTT_ERR("channel %s: the consumer daemon (protocol 1.%u) predates --auto-reclaim-memory: install the ltt-consumerd of this ltt-sessiond",
			chan->name, (unsigned int)ltt_consumer_minor(c));
		return -EOPNOTSUPP;
	}
	ltt_consumer_put_add_channel(&k.req, chan);
	return ltt_consumer_call(c, &k);
}

/*
 * A kernel-side stream, its @nr_fds @fds sent with a message of @type, or
 * of @stats_type with @stats_fd after them when it is not -1.
 */
static int add_kernel_side_stream(struct ltt_consumer *c, uint16_t type, uint16_t stats_type,
				  uint64_t channel_key, uint32_t cpu, const int *fds,
				  unsigned int nr_fds, int stats_fd)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = channel_key, .cpu = cpu };
	int all[3] = { fds[0], nr_fds > 1 ? fds[1] : -1, -1 };
	struct ltt_consumer_call k = { .type = type, .fds = all, .nr_fds = nr_fds };

	if (stats_fd >= 0) {
		all[nr_fds] = stats_fd;
		k.type = stats_type;
		k.nr_fds = nr_fds + 1;
		k.minor = LTT_CONSUMER_MINOR_KERNEL_STATS;
	}
	ltt_consumer_put_add_kernel_stream(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_add_kernel_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				   int stream_fd, int stats_fd)
{
	return add_kernel_side_stream(c, LTT_CONSUMER_MSG_ADD_KERNEL_STREAM,
				      LTT_CONSUMER_MSG_ADD_KERNEL_STREAM_STATS, channel_key, cpu,
				      &stream_fd, 1, stats_fd);
}

int ltt_consumer_add_ftrace_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				   int pipe_fd, int map_fd, int stats_fd)
{
	int fds[2] = { pipe_fd, map_fd };

	return add_kernel_side_stream(c, LTT_CONSUMER_MSG_ADD_FTRACE_STREAM,
				      LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS, channel_key, cpu,
				      fds, 2, stats_fd);
}

int ltt_consumer_add_bpf_ring(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
			      int ring_fd, int lost_fd)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = channel_key, .cpu = cpu };
	int fds[2] = { ring_fd, lost_fd };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ADD_BPF_RING, .fds = fds, .nr_fds = 2,
		.minor = LTT_CONSUMER_MINOR_BPF_RING,
	};

	ltt_consumer_put_add_kernel_stream(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_add_stream(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
			    int shm_fd, int wakeup_fd)
{
	struct ltt_consumer_add_stream m = { .channel_key = channel_key, .cpu = cpu };
	int fds[2] = { shm_fd, wakeup_fd };
	struct ltt_consumer_call k = { .type = LTT_CONSUMER_MSG_ADD_STREAM, .fds = fds, .nr_fds = 2 };

	ltt_consumer_put_add_stream(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_add_stream_stats(struct ltt_consumer *c, uint64_t channel_key, uint32_t cpu,
				  int shm_fd, int wakeup_fd, int stats_fd)
{
	struct ltt_consumer_add_stream m = { .channel_key = channel_key, .cpu = cpu };
	int fds[3] = { shm_fd, wakeup_fd, stats_fd };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ADD_STREAM_STATS, .fds = fds, .nr_fds = 3,
		.minor = LTT_CONSUMER_MINOR_TAKEOVER,
	};

	ltt_consumer_put_add_stream(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

/* FLUSH_CHANNEL, its reply waited for @timeout_ms (0: the type's deadline). */
static int flush_channel(struct ltt_consumer *c, uint64_t channel_key, bool final, bool stopped,
			 int timeout_ms)
{
	struct ltt_consumer_flush_channel m = {
		.channel_key = channel_key, .final = final,
		.stopped = stopped && ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_STOPPED,
	};
	struct ltt_consumer_call k = { .type = LTT_CONSUMER_MSG_FLUSH_CHANNEL, .timeout_ms = timeout_ms };

	ltt_consumer_put_flush_channel(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_flush_channel(struct ltt_consumer *c, uint64_t channel_key, bool final)
{
	return flush_channel(c, channel_key, final, false, 0);
}

int ltt_consumer_flush_channel_sized(struct ltt_consumer *c, uint64_t channel_key, bool final,
				     uint64_t buffer_bytes)
{
	return flush_channel(c, channel_key, final, false, sized_timeout_ms(buffer_bytes));
}

int ltt_consumer_flush_stopped(struct ltt_consumer *c, uint64_t channel_key,
			       uint64_t buffer_bytes)
{
	return flush_channel(c, channel_key, false, true,
			     buffer_bytes ? sized_timeout_ms(buffer_bytes) : 0);
}

static int decode_channel_stats(struct ltt_rbuf *r, void *out)
{
	return ltt_consumer_call_skip_status(r) ? -EPROTO : ltt_consumer_get_channel_stats(r, out);
}

/* CHANNEL_STATS, under @flags (LTT_CALL_TRY: a caller that must not wait). */
static int channel_stats(struct ltt_consumer *c, uint64_t channel_key, unsigned int flags,
			 int timeout_ms, struct ltt_consumer_channel_stats *ret)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_CHANNEL_STATS, .flags = flags, .timeout_ms = timeout_ms,
		.decode = decode_channel_stats, .out = ret,
	};

	ltt_consumer_put_key(&k.req, channel_key);
	return ltt_consumer_call(c, &k);
}

static int decode_reclaim(struct ltt_rbuf *r, void *out)
{
	uint64_t *subbufs = out;

	if (ltt_consumer_call_skip_status(r))
		return -EPROTO;
	*subbufs = ltt_rbuf_get_u64(r);
	return ltt_rbuf_end(r) ? -EPROTO : 0;
}

int ltt_consumer_reclaim_channel(struct ltt_consumer *c, uint64_t channel_key,
				 uint64_t older_than_ns, uint64_t *ret_subbufs)
{
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_RECLAIM_CHANNEL, .decode = decode_reclaim,
		.out = ret_subbufs,
	};

	if (ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_RECLAIM)
		return -EOPNOTSUPP;
	ltt_consumer_put_key(&k.req, channel_key);
	ltt_wbuf_put_u64(&k.req, older_than_ns);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_channel_status(struct ltt_consumer *c, uint64_t channel_key,
				struct ltt_consumer_channel_stats *ret)
{
	return channel_stats(c, channel_key, 0, 0, ret);
}

int ltt_consumer_channel_status_now(struct ltt_consumer *c, uint64_t channel_key,
				    int timeout_ms, struct ltt_consumer_channel_stats *ret)
{
	/* its deadline is @timeout_ms, 1 ms at the least (0 would be the type's) */
	return channel_stats(c, channel_key, LTT_CALL_TRY, timeout_ms > 0 ? timeout_ms : 1, ret);
}

int ltt_consumer_channel_stats(struct ltt_consumer *c, uint64_t channel_key,
			       uint64_t *ret_events_lost, uint64_t *ret_packets_lost)
{
	struct ltt_consumer_channel_stats stats;
	int ret = ltt_consumer_channel_status(c, channel_key, &stats);

	if (!ret) {
		*ret_events_lost = stats.events_lost;
		*ret_packets_lost = stats.packets_lost;
	}
	return ret;
}

int ltt_consumer_probe_output(struct ltt_consumer *c, const char *dir, uid_t uid, gid_t gid)
{
	struct ltt_consumer_probe_output m = { .dir = dir, .uid = uid, .gid = gid };
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_PROBE_OUTPUT, .minor = LTT_CONSUMER_MINOR_OUTPUT_ERRORS,
	};

	ltt_consumer_put_probe_output(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_add_snapshot_trace(struct ltt_consumer *c, uint64_t key, const uuid_t uuid,
				    uid_t uid, gid_t gid)
{
	struct ltt_consumer_add_snapshot_trace m = {
		.key = key, .uid = (uint32_t)uid, .gid = (uint32_t)gid,
	};
	struct ltt_consumer_call k = {
		.type = LTT_CONSUMER_MSG_ADD_SNAPSHOT_TRACE, .key = key,
		.minor = LTT_CONSUMER_MINOR_SNAPSHOT,
	};

	memcpy(m.uuid, uuid, sizeof(m.uuid));
	ltt_consumer_put_add_snapshot_trace(&k.req, &m);
	return ltt_consumer_call(c, &k);
}

static int decode_snapshot(struct ltt_rbuf *r, void *out)
{
	return ltt_consumer_call_skip_status(r) ? -EPROTO : ltt_consumer_get_snapshot_reply(r, out);
}

/* SNAPSHOT_TRACE, or SNAPSHOT_TRACE_RELAY when @m->relay_key is set. */
static int snapshot(struct ltt_consumer *c, const struct ltt_consumer_snapshot_trace *m,
		    uint64_t buffer_bytes, struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_consumer_call k = {
		.type = m->relay_key ? LTT_CONSUMER_MSG_SNAPSHOT_TRACE_RELAY :
				       LTT_CONSUMER_MSG_SNAPSHOT_TRACE,
		.minor = m->relay_key ? LTT_CONSUMER_MINOR_NET : LTT_CONSUMER_MINOR_SNAPSHOT,
		.timeout_ms = sized_timeout_ms(buffer_bytes),	/* as a flush */
		.decode = decode_snapshot,
		.out = ret,
	};

	if (m->relay_key)
		ltt_consumer_put_snapshot_trace_relay(&k.req, m);
	else
		ltt_consumer_put_snapshot_trace(&k.req, m);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_snapshot_trace(struct ltt_consumer *c, uint64_t trace_key, const char *dir,
				uint64_t max_packets, uint64_t buffer_bytes,
				struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_consumer_snapshot_trace m = {
		.trace_key = trace_key, .dir = dir, .max_packets = max_packets,
	};

	return snapshot(c, &m, buffer_bytes, ret);
}

int ltt_consumer_snapshot_trace_relay(struct ltt_consumer *c, uint64_t trace_key,
				      uint64_t relay_key, const char *path, uint64_t max_packets,
				      uint64_t buffer_bytes, struct ltt_consumer_snapshot_reply *ret)
{
	struct ltt_consumer_snapshot_trace m = {
		.trace_key = trace_key, .relay_key = relay_key, .dir = path,
		.max_packets = max_packets,
	};

	if (!relay_key)
		return -EINVAL;
	return snapshot(c, &m, buffer_bytes, ret);
}

/* A command whose payload is the key of what it acts on, its reply a status. */
static int call_on_key(struct ltt_consumer *c, uint16_t type, uint64_t key)
{
	struct ltt_consumer_call k = { .type = type };

	ltt_consumer_put_key(&k.req, key);
	return ltt_consumer_call(c, &k);
}

int ltt_consumer_destroy_channel(struct ltt_consumer *c, uint64_t channel_key)
{
	return call_on_key(c, LTT_CONSUMER_MSG_DESTROY_CHANNEL, channel_key);
}

int ltt_consumer_streams_sent(struct ltt_consumer *c, uint64_t channel_key)
{
	if (ltt_consumer_minor(c) < LTT_CONSUMER_MINOR_STREAMS_SENT)
		return 0;	/* it announces each stream on its own */
	return call_on_key(c, LTT_CONSUMER_MSG_STREAMS_SENT, channel_key);
}

int ltt_consumer_destroy_trace(struct ltt_consumer *c, uint64_t trace_key)
{
	return call_on_key(c, LTT_CONSUMER_MSG_DESTROY_TRACE, trace_key);
}
