// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd.c - the command thread: receive, validate, execute, reply.
 *
 * One handler per command, from a table indexed by the command number
 * with the number of fds the command carries.  A handler decodes its
 * whole payload and checks it with ltt_rbuf_end() before acting; it
 * returns 0 and appends its reply fields, or a negative errno:
 *   -EPROTO      malformed payload or wrong number of fds
 *   -EOPNOTSUPP  unknown command
 *   -ENOENT      unknown trace or channel key
 *   -EEXIST      key, directory, channel name or CPU already in use
 *   -EINVAL      a value out of range (name, path, text, sizes)
 *   -EBUSY       DESTROY_TRACE of a trace that still has channels
 *   -ENOBUFS     a limit on traces, channels or streams reached
 *   or the errno of the failed system call (file creation, mapping).
 * An error reply holds only the status.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include "common/codec.h"
#include "common/consumer-proto.h"
#include "common/evloop.h"
#include "common/fault.h"
#include "common/log.h"
#include "common/msg.h"
#include "common/names.h"
#include "consumerd/channel.h"
#include "consumerd/cmd.h"
#include "consumerd/fs.h"
#include "consumerd/sink-relay.h"
#include "consumerd/snapshot.h"
#include "consumerd/trace.h"

/* A relay session (ADD_RELAY) and the traces that use it. */
struct relay_ent {
	uint64_t key;
	struct ltt_relay *relay;
	unsigned int nr_traces;
	struct relay_ent *next;
};

struct cmd_state {
	int fd;
	bool hello_done;
	uint32_t minor;		/* the protocol minor both sides speak */
	bool bye;		/* incompatible peer: exit after replying */
	int end;		/* why the loop stopped: 1 peer gone, -1 broken */
	struct ltt_data_thread *dt;
	struct ltt_trace *traces;
	struct ltt_channel *channels;
	struct relay_ent *relays;
	unsigned int nr_traces, nr_channels, nr_relays;
};

typedef int (*cmd_fn)(struct cmd_state *st, struct ltt_rbuf *req, struct ltt_msg *msg,
		      struct ltt_wbuf *reply);

struct cmd_handler {
	cmd_fn fn;
	unsigned int nr_fds;
};

static struct ltt_trace *find_trace(const struct cmd_state *st, uint64_t key)
{
	struct ltt_trace *t;

	for (t = st->traces; t && t->key != key; t = t->next)
		;
	return t;
}

static struct ltt_channel *find_channel(const struct cmd_state *st, uint64_t key)
{
	struct ltt_channel *c;

	for (c = st->channels; c && c->key != key; c = c->next)
		;
	return c;
}

/*
 * A {u64 channel_key} message's channel: 0, -EPROTO (malformed) or
 * -ENOENT (unknown, logged with the command's @name).
 */
static int key_channel(const struct cmd_state *st, struct ltt_rbuf *r, const char *name,
		       struct ltt_channel **ret_chan)
{
	uint64_t key;

	if (ltt_consumer_get_key(r, &key))
		return -EPROTO;
	*ret_chan = find_channel(st, key);
	if (!*ret_chan) {
		LTT_WARN("%s: no channel %" PRIu64, name, key);
		return -ENOENT;
	}
	return 0;
}

/*
 * The trace a {u64 trace_key} message names, decoded from @r; @name (the
 * message's) for the warning when there is none.  Returns 0, -EPROTO,
 * -ENOENT.
 */
static int key_trace(const struct cmd_state *st, struct ltt_rbuf *r, const char *name,
		     struct ltt_trace **ret_trace)
{
	uint64_t key;

	if (ltt_consumer_get_key(r, &key))
		return -EPROTO;
	*ret_trace = find_trace(st, key);
	if (!*ret_trace) {
		LTT_WARN("%s: no trace %" PRIu64, name, key);
		return -ENOENT;
	}
	return 0;
}

static struct relay_ent *find_relay(const struct cmd_state *st, uint64_t key)
{
	struct relay_ent *e;

	for (e = st->relays; e && e->key != key; e = e->next)
		;
	return e;
}

static struct relay_ent *relay_entry_of(const struct cmd_state *st, const struct ltt_relay *r)
{
	struct relay_ent *e;

	for (e = st->relays; e && e->relay != r; e = e->next)
		;
	return e;
}

/* Is @dir (of @relay, or local) already a trace's? */
static struct ltt_trace *trace_at(const struct cmd_state *st, const char *dir,
				  const struct ltt_relay *relay)
{
	struct ltt_trace *t;

	for (t = st->traces; t; t = t->next)
		if (t->relay == relay && !strcmp(t->path, dir))
			return t;
	return NULL;
}

/* ADD_TRACE {u64 trace_key, str dir, 16 bytes uuid, u32 uid, u32 gid [, u64 relay_key]} */
static int cmd_add_trace(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_consumer_add_trace m;
	struct relay_ent *re = NULL;
	struct ltt_owner owner;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_add_trace(r, &m))
		return -EPROTO;
	if (find_trace(st, m.key)) {
		LTT_WARN("ADD_TRACE: trace key %" PRIu64 " already in use", m.key);
		return -EEXIST;
	}
	if (m.relay_key) {
		re = find_relay(st, m.relay_key);
		if (!re) {
			LTT_WARN("ADD_TRACE: no relay %" PRIu64, m.relay_key);
			return -ENOENT;
		}
	}
	t = trace_at(st, m.dir, re ? re->relay : NULL);
	if (t) {
		LTT_WARN("ADD_TRACE: trace %" PRIu64 " already writes to %s", t->key, m.dir);
		return -EEXIST;
	}
	if (re && m.resume) {
		LTT_WARN("ADD_TRACE: a relayed trace can't be resumed: not supported");
		return -EOPNOTSUPP;
	}
	if (!re && m.dir[0] != '/') {
		LTT_WARN("ADD_TRACE: trace directory '%s' is not an absolute path", m.dir);
		return -EINVAL;
	}
	if (st->nr_traces >= LTT_CMD_MAX_TRACES)
		return -ENOBUFS;
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	if (re)
		ret = ltt_trace_create_relayed(m.key, m.dir, m.uuid, &owner, re->relay, &t);
	else
		ret = ltt_trace_create(m.key, m.dir, m.uuid, &owner, m.resume, &t);
	if (ret == -EINVAL && re)
		LTT_WARN("ADD_TRACE: '%s' is not a relative path without . or .. components",
			 m.dir);
	if (ret)
		return ret;
	if (re)
		re->nr_traces++;
	t->next = st->traces;
	st->traces = t;
	st->nr_traces++;
	LTT_INFO("trace %" PRIu64 ": %s%s", m.key, m.dir,
		 re ? " (relayed)" : m.resume ? " (taken over from a consumer that died)" : "");
	return 0;
}

/* ADD_SNAPSHOT_TRACE {u64 trace_key, 16 bytes uuid, u32 uid, u32 gid} (1.6) */
static int cmd_add_snapshot_trace(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
				  struct ltt_wbuf *reply)
{
	struct ltt_consumer_add_snapshot_trace m;
	struct ltt_owner owner;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_add_snapshot_trace(r, &m))
		return -EPROTO;
	if (find_trace(st, m.key)) {
		LTT_WARN("ADD_SNAPSHOT_TRACE: trace key %" PRIu64 " already in use", m.key);
		return -EEXIST;
	}
	if (st->nr_traces >= LTT_CMD_MAX_TRACES)
		return -ENOBUFS;
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	ret = ltt_trace_create_snapshot(m.key, m.uuid, &owner, &t);
	if (ret)
		return ret;
	t->next = st->traces;
	st->traces = t;
	st->nr_traces++;
	LTT_INFO("trace %" PRIu64 ": snapshot mode (written by SNAPSHOT_TRACE only)", m.key);
	return 0;
}

/*
 * The checks of SNAPSHOT_TRACE and SNAPSHOT_TRACE_RELAY: the snapshot trace
 * @m names (its channels of either domain: snapshot_run() copies user-space
 * and kernel streams alike).
 */
static int snapshot_trace_of(struct cmd_state *st, const struct ltt_consumer_snapshot_trace *m,
			     struct ltt_trace **ret_t)
{
	struct ltt_trace *t;

	t = find_trace(st, m->trace_key);
	if (!t) {
		LTT_WARN("SNAPSHOT_TRACE: no trace %" PRIu64, m->trace_key);
		return -ENOENT;
	}
	if (!t->snapshot || (!m->relay_key && m->dir[0] != '/')) {
		LTT_WARN("SNAPSHOT_TRACE: trace %" PRIu64 " %s", m->trace_key,
			 t->snapshot ? "needs an absolute directory" : "is not in snapshot mode");
		return -EINVAL;
	}
	*ret_t = t;
	return 0;
}

/* Copy each channel of @t into @out (which this closes), and reply. */
static int snapshot_run(struct cmd_state *st, struct ltt_trace *t, struct ltt_snapshot_out *out,
			const struct ltt_consumer_snapshot_trace *m, struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_SNAPSHOT };
	struct ltt_consumer_snapshot_reply rep;
	struct ltt_channel *c;
	int ret = 0;

	req.snap_out = out->streams;
	req.max_packets = m->max_packets;
	for (c = st->channels; c && !ret; c = c->next) {
		if (c->trace != t)
			continue;
		req.chan = c;
		ret = ltt_data_call(st->dt, &req);
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
static int cmd_snapshot_trace(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			      struct ltt_wbuf *reply)
{
	struct ltt_consumer_snapshot_trace m;
	struct ltt_snapshot_out out;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_snapshot_trace(r, &m))
		return -EPROTO;
	ret = snapshot_trace_of(st, &m, &t);
	if (!ret)
		ret = ltt_snapshot_open(t, m.dir, &out);
	return ret ? ret : snapshot_run(st, t, &out, &m, reply);
}

/* SNAPSHOT_TRACE_RELAY {u64 trace_key, u64 relay_key, str path, u64 max_packets} (1.8) */
static int cmd_snapshot_trace_relay(struct cmd_state *st, struct ltt_rbuf *r,
				    struct ltt_msg *msg, struct ltt_wbuf *reply)
{
	struct ltt_consumer_snapshot_trace m;
	struct ltt_snapshot_out out;
	struct relay_ent *re;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_snapshot_trace_relay(r, &m) || !m.relay_key)
		return -EPROTO;
	re = find_relay(st, m.relay_key);
	if (!re) {
		LTT_WARN("SNAPSHOT_TRACE_RELAY: no relay %" PRIu64, m.relay_key);
		return -ENOENT;
	}
	ret = snapshot_trace_of(st, &m, &t);
	if (!ret)
		ret = ltt_snapshot_open_relay(t, re->relay, m.dir, &out);
	return ret ? ret : snapshot_run(st, t, &out, &m, reply);
}

/* METADATA {u64 trace_key, u32 len, len bytes of TSDL text} */
static int cmd_metadata(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			struct ltt_wbuf *reply)
{
	struct ltt_consumer_metadata m;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_metadata(r, &m))
		return -EPROTO;
	t = find_trace(st, m.trace_key);
	if (!t) {
		LTT_WARN("METADATA: no trace %" PRIu64, m.trace_key);
		return -ENOENT;
	}
	ret = ltt_trace_append_metadata(t, m.text, m.len);
	if (ret == -EINVAL)
		LTT_WARN("METADATA: trace %" PRIu64 ": the text holds a NUL byte", m.trace_key);
	return ret;
}

/* Checks of ADD_CHANNEL's values against each other and the registry. */
static int check_channel(const struct cmd_state *st, const struct ltt_channel_cfg *cfg,
			 const struct ltt_trace *t)
{
	const struct ltt_channel *c;

	if (find_channel(st, cfg->key)) {
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
	for (c = st->channels; c; c = c->next) {
		if (c->trace == t && !strcmp(c->name, cfg->name)) {
			LTT_WARN("ADD_CHANNEL: trace %" PRIu64 " already has a channel %s", t->key,
				 cfg->name);
			return -EEXIST;
		}
	}
	return st->nr_channels >= LTT_CMD_MAX_CHANNELS ? -ENOBUFS : 0;
}

/* ADD_CHANNEL: see consumer-proto.h */
static int cmd_add_channel(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
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
		LTT_WARN("ADD_CHANNEL: unknown domain: not supported");
	else if (ret == -EINVAL)
		LTT_WARN("ADD_CHANNEL: a kernel channel's sub-buffer count or size is out of the tracer's range (powers of two within kmod/ltt-abi.h's limits)");
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
		.domain = m.domain,
		.subbuf_size = m.subbuf_size,
		.num_subbuf = m.num_subbuf,
	};
	trace_key = m.trace_key;
	t = find_trace(st, trace_key);
	if (!t) {
		LTT_WARN("ADD_CHANNEL: no trace %" PRIu64, trace_key);
		return -ENOENT;
	}
	ret = check_channel(st, &cfg, t);
	if (!ret)
		ret = ltt_channel_create(&cfg, t, &chan);
	if (ret)
		return ret;
	req.chan = chan;
	ret = ltt_data_call(st->dt, &req);
	if (ret) {
		ltt_channel_destroy(chan);
		return ret;
	}
	chan->next = st->channels;
	st->channels = chan;
	st->nr_channels++;
	t->nr_channels++;
	LTT_INFO("channel %" PRIu64 ": %s in trace %" PRIu64, cfg.key, cfg.name, trace_key);
	return 0;
}

/*
 * ADD_STREAM {u64 channel_key, u32 cpu} + shm fd, wakeup fd;
 * ADD_STREAM_STATS: the same + the channel's statistics page (1.4)
 */
static int cmd_add_stream(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			  struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_STREAM };
	struct ltt_consumer_add_stream m;
	int ret;

	if (ltt_consumer_get_add_stream(r, &m))
		return -EPROTO;
	req.cpu = m.cpu;
	req.chan = find_channel(st, m.channel_key);
	if (!req.chan) {
		LTT_WARN("ADD_STREAM: no channel %" PRIu64, m.channel_key);
		return -ENOENT;
	}
	if (req.chan->domain != LTT_CONSUMER_DOMAIN_USER) {
		LTT_WARN("ADD_STREAM: channel %s is a kernel channel: use ADD_KERNEL_STREAM",
			 req.chan->name);
		return -EPROTO;
	}
	/* borrowed: the data thread dups what it keeps, ltt_msg_fini() closes these */
	req.shm_fd = msg->fds[0];
	req.wakeup_fd = msg->fds[1];
	if (msg->hdr.type == LTT_CONSUMER_MSG_ADD_STREAM_STATS) {
		req.has_stats = true;
		req.stats_fd = msg->fds[2];
	}
	ret = ltt_data_call(st->dt, &req);
	if (ret == -EEXIST)
		LTT_WARN("ADD_STREAM: channel %s already has cpu %" PRIu32, req.chan->name,
			 req.cpu);
	/* an older session daemon sends no STREAMS_SENT: each stream is the last */
	if (st->minor < LTT_CONSUMER_MINOR_STREAMS_SENT)
		ltt_output_streams_added(req.chan->output);
	return ret;
}

/* ADD_KERNEL_STREAM {u64 channel_key, u32 cpu} + stream fd */
static int cmd_add_kernel_stream(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
				 struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_KERNEL_STREAM };
	struct ltt_consumer_add_kernel_stream m;
	int ret;

	if (ltt_consumer_get_add_kernel_stream(r, &m))
		return -EPROTO;
	req.cpu = m.cpu;
	req.chan = find_channel(st, m.channel_key);
	if (!req.chan) {
		LTT_WARN("ADD_KERNEL_STREAM: no channel %" PRIu64, m.channel_key);
		return -ENOENT;
	}
	if (req.chan->domain != LTT_CONSUMER_DOMAIN_KERNEL) {
		LTT_WARN("ADD_KERNEL_STREAM: channel %s is not a kernel channel", req.chan->name);
		return -EPROTO;
	}
	/* borrowed: the data thread dups what it keeps, ltt_msg_fini() closes it */
	req.stream_fd = msg->fds[0];
	ret = ltt_data_call(st->dt, &req);
	if (ret == -EEXIST)
		LTT_WARN("ADD_KERNEL_STREAM: channel %s already has cpu %" PRIu32, req.chan->name,
			 req.cpu);
	/* an older session daemon sends no STREAMS_SENT: each stream is the last */
	if (st->minor < LTT_CONSUMER_MINOR_STREAMS_SENT)
		ltt_output_streams_added(req.chan->output);
	return ret;
}

/*
 * STREAMS_SENT {u64 channel_key}: the channel's streams are all added;
 * their sinks are open (ADD_STREAM replied once the data thread had opened
 * them), so a relayed channel announces them together now.
 */
static int cmd_streams_sent(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_channel *chan;
	int ret = key_channel(st, r, "STREAMS_SENT", &chan);

	if (ret)
		return ret;
	ltt_output_streams_added(chan->output);
	return 0;
}

/* FLUSH_CHANNEL {u64 channel_key, u8 final} */
static int cmd_flush_channel(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			     struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_FLUSH };
	struct ltt_consumer_flush_channel m;

	if (ltt_consumer_get_flush_channel(r, &m))
		return -EPROTO;
	req.final = m.final;
	req.chan = find_channel(st, m.channel_key);
	if (!req.chan) {
		LTT_WARN("FLUSH_CHANNEL: no channel %" PRIu64, m.channel_key);
		return -ENOENT;
	}
	/* a failed output is tried again: pending metadata first, then the streams */
	ltt_trace_retry(req.chan->trace);
	return ltt_data_call(st->dt, &req);
}

/* CHANNEL_STATS {u64 channel_key} -> {u64 events_lost, u64 packets_lost, u64 bytes_written} */
static int cmd_channel_stats(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			     struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_STATS };
	struct ltt_consumer_channel_stats stats;
	int64_t since = 0;
	int ret, err;

	ret = key_channel(st, r, "CHANNEL_STATS", &req.chan);
	if (ret)
		return ret;
	ret = ltt_data_call(st->dt, &req);
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
	if (st->minor >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS)
		ltt_consumer_put_channel_error(reply, &stats);
	return 0;
}

/* PROBE_OUTPUT {str dir, u32 uid, u32 gid} */
static int cmd_probe_output(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_consumer_probe_output m;
	struct ltt_owner owner;
	int ret;

	(void)st;
	if (ltt_consumer_get_probe_output(r, &m))
		return -EPROTO;
	owner.uid = (uid_t)m.uid;
	owner.gid = (gid_t)m.gid;
	ret = ltt_fs_probe(m.dir, &owner);
	if (ret)
		LTT_WARN("PROBE_OUTPUT: uid %u can't write a trace under %s: %s", m.uid, m.dir,
			 strerror(-ret));
	return ret;
}

/* Final flush, close and free @chan, which is in the registry. */
static void remove_channel(struct cmd_state *st, struct ltt_channel *chan)
{
	struct ltt_data_req req = { .type = LTT_DATA_REMOVE_CHANNEL, .chan = chan };
	struct ltt_channel **p;

	ltt_data_call(st->dt, &req);
	for (p = &st->channels; *p != chan; p = &(*p)->next)
		;
	*p = chan->next;
	st->nr_channels--;
	chan->trace->nr_channels--;
	LTT_INFO("channel %" PRIu64 " (%s) closed", chan->key, chan->name);
	ltt_channel_destroy(chan);
}

/* DESTROY_CHANNEL {u64 channel_key} */
static int cmd_destroy_channel(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			       struct ltt_wbuf *reply)
{
	struct ltt_channel *chan;
	int ret = key_channel(st, r, "DESTROY_CHANNEL", &chan);

	if (ret)
		return ret;
	remove_channel(st, chan);
	return 0;
}

/* Close and free @t, which is in the registry and has no channel. */
static void remove_trace(struct cmd_state *st, struct ltt_trace *t)
{
	struct relay_ent *re;
	struct ltt_trace **p;

	for (p = &st->traces; *p != t; p = &(*p)->next)
		;
	*p = t->next;
	st->nr_traces--;
	re = t->relay ? relay_entry_of(st, t->relay) : NULL;
	if (re)
		re->nr_traces--;
	LTT_INFO("trace %" PRIu64 " (%s) closed", t->key, t->path);
	ltt_trace_remove_if_empty(t);
	ltt_trace_destroy(t);
}

/* DESTROY_TRACE {u64 trace_key} */
static int cmd_destroy_trace(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			     struct ltt_wbuf *reply)
{
	struct ltt_trace *t;
	int ret = key_trace(st, r, "DESTROY_TRACE", &t);

	if (ret)
		return ret;
	if (t->nr_channels) {
		LTT_WARN("DESTROY_TRACE: trace %" PRIu64 " still has %u channel(s)", t->key,
			 t->nr_channels);
		return -EBUSY;
	}
	remove_trace(st, t);
	return 0;
}

/* ADD_RELAY: see consumer-proto.h */
static int cmd_add_relay(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct ltt_data_req req = { .type = LTT_DATA_ADD_RELAY };
	struct ltt_consumer_add_relay_reply rep = { 0 };
	struct ltt_consumer_add_relay m;
	struct ltt_sink_relay_cfg cfg;
	struct relay_ent *e;
	char path[PATH_MAX];
	int ret;

	ret = ltt_consumer_get_add_relay(r, &m);
	if (ret) {
		if (ret == -EINVAL)
			LTT_WARN("ADD_RELAY: a key of 0, or an empty url, host or session name");
		return ret;
	}
	if (find_relay(st, m.relay_key)) {
		LTT_WARN("ADD_RELAY: relay key %" PRIu64 " already in use", m.relay_key);
		return -EEXIST;
	}
	if (st->nr_relays >= LTT_CMD_MAX_RELAYS)
		return -ENOBUFS;
	e = calloc(1, sizeof(*e));
	if (!e)
		return -ENOMEM;
	cfg = (struct ltt_sink_relay_cfg){
		.key = m.relay_key, .ctrl_url = m.ctrl_url, .data_url = m.data_url,
		.hostname = m.hostname, .session_name = m.session_name,
		.base_path = m.base_path, .live_timer_us = m.live_timer_us,
		.session_id = m.session_id, .creation_time = m.creation_time,
	};
	ret = ltt_sink_relay_connect(&cfg, &e->relay, path, sizeof(path));
	if (!ret) {
		req.relay = e->relay;
		ret = ltt_data_call(st->dt, &req);
		if (ret)
			ltt_sink_relay_destroy(e->relay);
	}
	if (ret) {
		free(e);
		return ret;
	}
	e->key = m.relay_key;
	e->next = st->relays;
	st->relays = e;
	st->nr_relays++;
	rep.output_path = path;
	ltt_consumer_put_add_relay_reply(reply, &rep);
	LTT_INFO("relay %" PRIu64 ": session %s of %s at %s, output %s", m.relay_key,
		 m.session_name, m.hostname, m.ctrl_url, path);
	return 0;
}

/* The relay of a {u64 relay_key} payload, or NULL with *ret_err set. */
static struct relay_ent *relay_arg(struct cmd_state *st, struct ltt_rbuf *r, const char *what,
				   int *ret_err)
{
	struct relay_ent *e;
	uint64_t key;

	if (ltt_consumer_get_relay_key(r, &key)) {
		*ret_err = -EPROTO;
		return NULL;
	}
	e = find_relay(st, key);
	if (!e) {
		LTT_WARN("%s: no relay %" PRIu64, what, key);
		*ret_err = -ENOENT;
	}
	return e;
}

/* RELAY_DATA_PENDING {u64 relay_key} -> {u8 pending} */
static int cmd_relay_data_pending(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
				  struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_pending_reply rep = { 0 };
	struct relay_ent *e;
	bool pending;
	int ret;

	e = relay_arg(st, r, "RELAY_DATA_PENDING", &ret);
	if (!e)
		return ret;
	ret = ltt_sink_relay_data_pending(e->relay, &pending);
	if (ret)
		return ret;
	rep.pending = pending;
	ltt_consumer_put_relay_pending_reply(reply, &rep);
	return 0;
}

/* RELAY_STATUS {u64 relay_key} -> {i32 conn_error, u64 sent, u64 bytes, u64 lost} */
static int cmd_relay_status(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_status_reply rep = { 0 };
	struct ltt_sink_relay_stats stats;
	struct relay_ent *e;
	int ret;

	e = relay_arg(st, r, "RELAY_STATUS", &ret);
	if (!e)
		return ret;
	ltt_sink_relay_stats(e->relay, &stats);
	rep.conn_error = stats.conn_error;
	rep.packets_sent = stats.packets_sent;
	rep.bytes_sent = stats.bytes_sent;
	rep.packets_lost = stats.packets_lost;
	ltt_consumer_put_relay_status_reply(reply, &rep);
	return 0;
}

/*
 * Hand @e's relay to the data thread, which closes it (CLOSE_STREAM, its
 * last bytes) with a deadline and frees it; forget it here.  Never waits
 * on the relay.
 */
static void remove_relay(struct cmd_state *st, struct relay_ent *e)
{
	struct ltt_data_req req = { .type = LTT_DATA_REMOVE_RELAY, .relay = e->relay };
	struct relay_ent **p;

	if (ltt_data_call(st->dt, &req))
		ltt_sink_relay_destroy(e->relay);	/* the data thread never had it */
	for (p = &st->relays; *p != e; p = &(*p)->next)
		;
	*p = e->next;
	st->nr_relays--;
	LTT_INFO("relay %" PRIu64 " closing", e->key);
	free(e);
}

/* RELAY_ARCHIVE {u64 relay_key, str from, str to} (1.8) */
static int cmd_relay_archive(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			     struct ltt_wbuf *reply)
{
	struct ltt_consumer_relay_archive m;
	struct relay_ent *e;

	if (ltt_consumer_get_relay_archive(r, &m))
		return -EPROTO;
	e = find_relay(st, m.relay_key);
	if (!e) {
		LTT_WARN("RELAY_ARCHIVE: no relay %" PRIu64, m.relay_key);
		return -ENOENT;
	}
	return ltt_sink_relay_archive(e->relay, m.from, m.to);
}

/* RELAY_ARCHIVE_RESULT {u64 relay_key} (1.8) */
static int cmd_relay_archive_result(struct cmd_state *st, struct ltt_rbuf *r,
				    struct ltt_msg *msg, struct ltt_wbuf *reply)
{
	struct relay_ent *e;
	int ret;

	e = relay_arg(st, r, "RELAY_ARCHIVE_RESULT", &ret);
	return e ? ltt_sink_relay_archive_result(e->relay) : ret;
}

/* DEL_RELAY {u64 relay_key} */
static int cmd_del_relay(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			 struct ltt_wbuf *reply)
{
	struct relay_ent *e;
	int ret;

	e = relay_arg(st, r, "DEL_RELAY", &ret);
	if (!e)
		return ret;
	if (e->nr_traces) {
		LTT_WARN("DEL_RELAY: relay %" PRIu64 " still has %u trace(s)", e->key,
			 e->nr_traces);
		return -EBUSY;
	}
	remove_relay(st, e);
	return 0;
}

/* Move every channel of @t to outputs made by ltt_trace_channel_output() in @chunk. */
static int move_channels(struct cmd_state *st, struct ltt_trace *t,
			 const struct ltt_trace_chunk *chunk, bool clear)
{
	struct ltt_data_req req;
	struct ltt_output **outs;
	struct ltt_channel *c;
	unsigned int n = 0, i;
	int ret = 0;

	outs = calloc(t->nr_channels ? t->nr_channels : 1, sizeof(*outs));
	if (!outs)
		return -ENOMEM;
	/* every output first: once a channel moved, the others must follow */
	for (c = st->channels; c && !ret; c = c->next)
		if (c->trace == t && n < t->nr_channels)
			ret = ltt_trace_channel_output(t, chunk, c->tracefile_size,
						       c->tracefile_count, &outs[n++]);
	for (c = st->channels, i = 0; c && !ret; c = c->next) {
		if (c->trace != t || i >= n)
			continue;
		req = (struct ltt_data_req){ .type = LTT_DATA_NEW_CHUNK, .chan = c,
					     .output = outs[i], .clear = clear };
		ltt_data_call(st->dt, &req);	/* can't fail: a sink that can't open is retried */
		ltt_output_streams_added(outs[i]);	/* a relay announces them together */
		outs[i++] = req.output;		/* the old one, destroyed below */
	}
	for (i = 0; i < n; i++)
		ltt_output_destroy(outs[i]);
	free(outs);
	return ret;
}

/* ROTATE_TRACE {u64 trace_key, u8 clear, str dir} */
static int cmd_rotate_trace(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			    struct ltt_wbuf *reply)
{
	struct ltt_trace_chunk chunk = { .dir_fd = -1, .index_fd = -1 };
	struct ltt_consumer_rotate_trace m;
	struct ltt_trace *t;
	int ret;

	if (ltt_consumer_get_rotate_trace(r, &m))
		return -EPROTO;
	t = find_trace(st, m.trace_key);
	if (!t) {
		LTT_WARN("ROTATE_TRACE: no trace %" PRIu64, m.trace_key);
		return -ENOENT;
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
		ret = move_channels(st, t, NULL, true);
		if (!ret)
			ret = ltt_trace_reset_metadata(t, true);
		LTT_INFO("trace %s: cleared%s", t->path, ret ? " (with errors)" : "");
		return ret;
	}
	if (trace_at(st, m.dir, t->relay)) {
		LTT_WARN("ROTATE_TRACE: a trace already writes to %s", m.dir);
		return -EEXIST;
	}
	ret = ltt_trace_chunk_create(t, m.dir, &chunk);
	if (ret)
		return ret;
	ret = move_channels(st, t, &chunk, false);
	if (ret) {
		ltt_trace_chunk_abort(&chunk);
		return ret;
	}
	LTT_INFO("trace %" PRIu64 ": chunk %s closed, writing to %s", t->key, t->path, m.dir);
	ltt_trace_chunk_commit(t, &chunk);
	return 0;
}

/* RESET_METADATA {u64 trace_key} */
static int cmd_reset_metadata(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
			      struct ltt_wbuf *reply)
{
	struct ltt_trace *t;
	int ret = key_trace(st, r, "RESET_METADATA", &t);

	if (ret)
		return ret;
	return ltt_trace_reset_metadata(t, false);
}

static int cmd_hello(struct cmd_state *st, struct ltt_rbuf *r, struct ltt_msg *msg,
		     struct ltt_wbuf *reply)
{
	static const struct ltt_consumer_version ours = {
		.major = LTT_CONSUMER_MAJOR, .minor = LTT_CONSUMER_MINOR,
	};
	struct ltt_consumer_version theirs;

	/* Their minor: we speak the lowest common one. */
	if (ltt_consumer_get_version(r, &theirs))
		return -EPROTO;
	if (theirs.major != LTT_CONSUMER_MAJOR) {
		LTT_ERR("the session daemon speaks consumer protocol %u.x, this consumer %u.x: exiting",
			theirs.major, LTT_CONSUMER_MAJOR);
		st->bye = true;
		return -EPROTONOSUPPORT;
	}
	st->hello_done = true;
	st->minor = theirs.minor < ours.minor ? theirs.minor : ours.minor;
	ltt_consumer_put_version(reply, &ours);
	return 0;
}

static const struct cmd_handler handlers[LTT_CONSUMER_MSG_NR_] = {
	[LTT_CONSUMER_MSG_HELLO] = { cmd_hello, 0 },
	[LTT_CONSUMER_MSG_ADD_TRACE] = { cmd_add_trace, 0 },
	[LTT_CONSUMER_MSG_METADATA] = { cmd_metadata, 0 },
	[LTT_CONSUMER_MSG_ADD_CHANNEL] = { cmd_add_channel, 0 },
	[LTT_CONSUMER_MSG_ADD_STREAM] = { cmd_add_stream, 2 },
	[LTT_CONSUMER_MSG_ADD_STREAM_STATS] = { cmd_add_stream, 3 },
	[LTT_CONSUMER_MSG_FLUSH_CHANNEL] = { cmd_flush_channel, 0 },
	[LTT_CONSUMER_MSG_CHANNEL_STATS] = { cmd_channel_stats, 0 },
	[LTT_CONSUMER_MSG_DESTROY_CHANNEL] = { cmd_destroy_channel, 0 },
	[LTT_CONSUMER_MSG_DESTROY_TRACE] = { cmd_destroy_trace, 0 },
	[LTT_CONSUMER_MSG_ADD_KERNEL_STREAM] = { cmd_add_kernel_stream, 1 },
	[LTT_CONSUMER_MSG_ADD_RELAY] = { cmd_add_relay, 0 },
	[LTT_CONSUMER_MSG_RELAY_DATA_PENDING] = { cmd_relay_data_pending, 0 },
	[LTT_CONSUMER_MSG_RELAY_STATUS] = { cmd_relay_status, 0 },
	[LTT_CONSUMER_MSG_DEL_RELAY] = { cmd_del_relay, 0 },
	[LTT_CONSUMER_MSG_STREAMS_SENT] = { cmd_streams_sent, 0 },
	[LTT_CONSUMER_MSG_PROBE_OUTPUT] = { cmd_probe_output, 0 },
	[LTT_CONSUMER_MSG_ADD_SNAPSHOT_TRACE] = { cmd_add_snapshot_trace, 0 },
	[LTT_CONSUMER_MSG_SNAPSHOT_TRACE] = { cmd_snapshot_trace, 0 },
	[LTT_CONSUMER_MSG_ROTATE_TRACE] = { cmd_rotate_trace, 0 },
	[LTT_CONSUMER_MSG_RESET_METADATA] = { cmd_reset_metadata, 0 },
	[LTT_CONSUMER_MSG_SNAPSHOT_TRACE_RELAY] = { cmd_snapshot_trace_relay, 0 },
	[LTT_CONSUMER_MSG_RELAY_ARCHIVE] = { cmd_relay_archive, 0 },
	[LTT_CONSUMER_MSG_RELAY_ARCHIVE_RESULT] = { cmd_relay_archive_result, 0 },
};

/* Run one command; @reply gets {i32 status, ...}. */
static void dispatch(struct cmd_state *st, struct ltt_msg *msg, struct ltt_wbuf *reply)
{
	const char *name = ltt_consumer_msg_name(msg->hdr.type);
	const struct cmd_handler *h = NULL;
	struct ltt_rbuf r;
	int status;

	if (msg->hdr.type < LTT_CONSUMER_MSG_NR_)
		h = &handlers[msg->hdr.type];
	ltt_consumer_put_status(reply, 0);	/* 0 unless we fail */
	if (!h || !h->fn) {
		LTT_WARN("unknown command %u: not supported", msg->hdr.type);
		status = -EOPNOTSUPP;
	} else if (!st->hello_done && msg->hdr.type != LTT_CONSUMER_MSG_HELLO) {
		LTT_WARN("%s before HELLO: refused", name);
		status = -EPROTO;
	} else if (msg->nr_fds != h->nr_fds) {
		LTT_WARN("%s with %u fds instead of %u: refused", name, msg->nr_fds, h->nr_fds);
		status = -EPROTO;
	} else {
		ltt_rbuf_init(&r, msg->payload, msg->hdr.payload_len);
		status = h->fn(st, &r, msg, reply);
		if (status == -EPROTO)
			LTT_WARN("%s: malformed payload of %u bytes: refused", name,
				 msg->hdr.payload_len);
	}
	if (!status && reply->err)
		status = reply->err;
	if (status) {
		ltt_wbuf_reset(reply);
		ltt_consumer_put_status(reply, status);
	}
	LTT_DBG("%s seq %u: %s", name ? name : "?", msg->hdr.seq,
		status ? strerror(-status) : "ok");
}

/*
 * Receive one command, run it, reply.  Returns 0 to go on, 1 when the
 * session daemon is gone, -1 when the framing is broken.
 */
static int serve_one(struct cmd_state *st)
{
	struct ltt_msg msg = { 0 };
	struct ltt_wbuf reply;
	int ret;

	ret = ltt_msg_recv(st->fd, LTT_CONSUMER_MAGIC, LTT_CONSUMER_MSG_MAX, LTT_MSG_MAX_FDS, &msg);
	if (ret == -ECONNRESET) {
		LTT_INFO("the session daemon closed the command socket");
		return 1;
	}
	if (ret) {
		LTT_ERR("command socket: %s: can't go on", strerror(-ret));
		return -1;
	}
	ltt_fault_point(ltt_consumer_msg_name(msg.hdr.type));	/* before it runs */
	ltt_wbuf_init(&reply);
	dispatch(st, &msg, &reply);
	ret = ltt_msg_send(st->fd, LTT_CONSUMER_MAGIC, msg.hdr.type, msg.hdr.seq, reply.data,
			   reply.err ? 0 : reply.len, NULL, 0);
	ltt_wbuf_fini(&reply);
	ltt_msg_fini(&msg);
	if (ret) {
		LTT_INFO("can't reply to the session daemon: %s", strerror(-ret));
		return 1;
	}
	return st->bye ? 1 : 0;
}

/* The signalfd is readable: true for SIGTERM, the only signal it reports. */
static bool stop_signal(int sfd)
{
	struct signalfd_siginfo si;

	if (read(sfd, &si, sizeof(si)) != sizeof(si) || si.ssi_signo != SIGTERM)
		return false;
	LTT_INFO("SIGTERM received: flushing and exiting");
	return true;
}

/* Final-flush and close every channel, then every trace. */
static void close_all(struct cmd_state *st)
{
	while (st->channels)
		remove_channel(st, st->channels);
	while (st->traces)
		remove_trace(st, st->traces);
	while (st->relays)
		remove_relay(st, st->relays);
}

/* The command socket is readable or closed: serve one command. */
static void on_command(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct cmd_state *st = arg;

	(void)fd;
	(void)events;
	st->end = serve_one(st);
	if (st->end)
		ltt_evloop_stop(loop);
}

static void on_signal(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	(void)events;
	(void)arg;
	if (stop_signal(fd))
		ltt_evloop_stop(loop);
}

/*
 * An event loop with two watches.  The socket stays blocking: once it is
 * readable, serve_one() reads the whole command, runs it and writes the
 * reply before the loop turns again (see doc/consumerd.md).
 */
int ltt_cmd_run(int cmd_fd, int signal_fd, struct ltt_data_thread *dt)
{
	struct cmd_state st = { .fd = cmd_fd, .dt = dt };
	struct ltt_evloop *loop;
	int ret;

	ret = ltt_evloop_create(&loop);
	if (!ret)
		ret = ltt_evloop_watch(loop, cmd_fd, EPOLLIN, on_command, &st, NULL);
	if (!ret)
		ret = ltt_evloop_watch(loop, signal_fd, EPOLLIN, on_signal, &st, NULL);
	if (!ret)
		ret = ltt_evloop_run(loop);
	if (ret) {
		LTT_ERR("command thread: event loop: %s", strerror(-ret));
		st.end = -1;
	}
	ltt_evloop_destroy(loop);
	close_all(&st);
	return st.end < 0 ? 1 : 0;
}
