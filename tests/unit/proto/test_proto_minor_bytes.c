// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_proto_minor_bytes.c - the client protocol's and the consumer
 * protocol's messages whose form depends on the peer's minor (or on
 * what the message holds: a tail sent only when set), at every minor that
 * changes them, give the bytes and the verdicts the hand-written codecs
 * gave before field tables (codec.h) replaced them, captured from the old
 * code as in test_proto_bytes.c.  The verdicts are those on the malformed
 * forms of each message: every truncation, one byte more, and each byte
 * set in turn to a few values; a form accepted must also decode to what
 * the old code decoded, so what it re-encodes to is folded into the hash.
 * With them, the consumer's other messages that were written by hand, and
 * trigger-proto.c's triggers, their descriptions, captures and
 * notifications.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/uri.h"
#include "common/proto/client-proto.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/trigger-proto.h"
#include "tests/unit/tap.h"

struct sample {
	const char *name;
	void (*put)(struct ltt_wbuf *w, const void *m, uint32_t minor);
	int (*get)(struct ltt_rbuf *r, void *ret, uint32_t minor);	/* NULL: put only */
	const void *m;
	size_t size;		/* of the struct */
	uint32_t minor;
	size_t len;		/* the old encoder's bytes: how many */
	uint64_t hash;		/* and their FNV-1a hash */
	uint64_t verdicts;	/* the FNV-1a hash of the old decoder's verdicts */
};

#define FNV_INIT 0xcbf29ce484222325ULL

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Decode the @len bytes at @p as one whole message at the sample's minor
 * and fold the verdict into @h; an accepted form also folds the bytes
 * it re-encodes to (its decoded fields, since nothing else is compared).
 */
static uint64_t verdict(const struct sample *s, const uint8_t *p, size_t len, void *got,
			uint64_t h)
{
	uint8_t *copy = malloc(len ? len : 1);	/* exactly the form: ASan sees overreads */
	struct ltt_rbuf r;
	struct ltt_wbuf w;
	int32_t err;

	if (!copy)
		abort();
	memcpy(copy, p, len);
	memset(got, 0, s->size);
	ltt_rbuf_init(&r, copy, len);
	err = s->get(&r, got, s->minor);
	if (!err)
		err = ltt_rbuf_end(&r);
	h = fnv1a(h, &err, sizeof(err));
	if (!err) {
		ltt_wbuf_init(&w);
		s->put(&w, got, s->minor);
		h = fnv1a(h, &w.err, sizeof(w.err));
		h = fnv1a(h, &w.len, sizeof(w.len));
		if (!w.err)
			h = fnv1a(h, w.data, w.len);
		ltt_wbuf_fini(&w);
	}
	free(copy);
	return h;
}

static const uint8_t mutations[] = { 0x00, 0x01, 0x02, 0x05, 0x7f, 0x80, 0xff };

static uint64_t verdicts(const struct sample *s, const uint8_t *msg, size_t len)
{
	uint8_t *form = malloc(len + 1);
	void *got = malloc(s->size);
	uint64_t h = FNV_INIT;

	if (!form || !got)
		abort();
	for (size_t cut = 0; cut < len; cut++)
		h = verdict(s, msg, cut, got, h);
	memcpy(form, msg, len);
	form[len] = 0;
	h = verdict(s, form, len + 1, got, h);
	for (size_t i = 0; i < len; i++) {
		for (size_t v = 0; v < sizeof(mutations); v++) {
			form[i] = mutations[v];
			h = verdict(s, form, len, got, h);
		}
		form[i] = msg[i];
	}
	free(got);
	free(form);
	return h;
}

static void check(const struct sample *s)
{
	uint64_t hash, vh = 0;
	bool bytes_ok, verdicts_ok;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	s->put(&w, s->m, s->minor);
	hash = w.err ? (uint64_t)(int64_t)w.err : fnv1a(FNV_INIT, w.data, w.len);
	if (s->get && !w.err)
		vh = verdicts(s, w.data, w.len);
	bytes_ok = tap_ok(w.len == s->len && hash == s->hash, "%s: the old encoder's bytes",
			  s->name);
	verdicts_ok = tap_ok(vh == s->verdicts, "%s: the old decoder's verdicts", s->name);
	if (!bytes_ok || !verdicts_ok)
		tap_diag("%s: %zu, 0x%016" PRIx64 "ULL, 0x%016" PRIx64 "ULL",
			 s->name, w.len, hash, vh);
	ltt_wbuf_fini(&w);
}

/* ---- adapters to one signature ---- */

/* A client object of @minor; its decoder's error is in the cursor. */
#define CLIENT_V(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m, uint32_t minor) \
	{ ltt_proto_put_##fn(w, (const type *)m, minor); } \
	static int get_##fn(struct ltt_rbuf *r, void *m, uint32_t minor) \
	{ ltt_proto_get_##fn(r, (type *)m, minor); return r->err ? -EPROTO : 0; }

/* A client object of any minor. */
#define CLIENT(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m, uint32_t minor) \
	{ (void)minor; ltt_proto_put_##fn(w, (const type *)m); } \
	static int get_##fn(struct ltt_rbuf *r, void *m, uint32_t minor) \
	{ (void)minor; ltt_proto_get_##fn(r, (type *)m); return r->err ? -EPROTO : 0; }

/* A consumer message of any minor. */
#define CONSUMER(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m, uint32_t minor) \
	{ (void)minor; ltt_consumer_put_##fn(w, (const type *)m); } \
	static int get_##fn(struct ltt_rbuf *r, void *m, uint32_t minor) \
	{ (void)minor; return ltt_consumer_get_##fn(r, (type *)m); }

CLIENT_V(session_info, struct ltt_session_desc)
CLIENT_V(channel, struct ltt_channel_desc)
CLIENT(channel_info, struct ltt_channel_desc)
CLIENT(channel_failure, struct ltt_channel_desc)
CLIENT(auto_reclaim, struct ltt_channel_conf)
CLIENT_V(rule_attr, struct ltt_rule_conf)
CLIENT_V(rule_info, struct ltt_rule_desc)
CLIENT_V(rotation_desc, struct ltt_rotation_desc)
CLIENT(relay_info, struct ltt_relay_desc)
CLIENT(stall_waiting, struct ltt_stall_desc)
CLIENT(stall, struct ltt_stall_desc)

/* ENABLE_CHANNEL's channel (pinned when libltt-ctl and the daemon each wrote it by hand). */
CLIENT_V(channel_conf, struct ltt_channel_conf)

/*
 * CREATE_SESSION's request, the TLS files that end GET_SESSION's reply and
 * one buffer of MEM_USAGE's reply (pinned when libltt-ctl and the daemon
 * each wrote them by hand, minor by minor).
 */
CLIENT_V(session_create, struct ltt_session_create_req)
CLIENT_V(session_tls, struct ltt_session_conf)
CLIENT_V(mem_stream, struct ltt_mem_stream)

/* LIST_TRACEPOINTS's request (pinned when libltt-ctl and the daemon each wrote it by hand). */
CLIENT_V(list_tracepoints, struct ltt_list_tracepoints_req)

/* DISABLE_EVENT's request (pinned when libltt-ctl and the daemon each wrote it by hand). */
CLIENT_V(disable_event, struct ltt_disable_event_req)

CONSUMER(add_trace, struct ltt_consumer_add_trace)
CONSUMER(flush_channel, struct ltt_consumer_flush_channel)
CONSUMER(add_channel, struct ltt_consumer_add_channel)
CONSUMER(add_snapshot_trace, struct ltt_consumer_add_snapshot_trace)
CONSUMER(probe_output, struct ltt_consumer_probe_output)

/*
 * A consumer reply whose body follows a status of 0 only: the status as
 * the consumer writes it first (ltt_consumer_put_status()), then the body
 * on success; the decoder takes the whole reply.
 */
#define CONSUMER_REPLY(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m, uint32_t minor) \
	{ \
		(void)minor; \
		ltt_consumer_put_status(w, ((const type *)m)->status); \
		if (!((const type *)m)->status) \
			ltt_consumer_put_##fn(w, (const type *)m); \
	} \
	static int get_##fn(struct ltt_rbuf *r, void *m, uint32_t minor) \
	{ (void)minor; return ltt_consumer_get_##fn(r, (type *)m); }

CONSUMER_REPLY(add_relay_reply, struct ltt_consumer_add_relay_reply)
CONSUMER_REPLY(relay_pending_reply, struct ltt_consumer_relay_pending_reply)
CONSUMER_REPLY(relay_status_reply, struct ltt_consumer_relay_status_reply)

static void put_add_relay(struct ltt_wbuf *w, const void *m, uint32_t minor)
{
	ltt_consumer_put_add_relay(w, m, minor);
}

static int get_add_relay(struct ltt_rbuf *r, void *m, uint32_t minor)
{
	return ltt_consumer_get_add_relay(r, m, minor);
}

/* CHANNEL_STATS's reply: the counters, and from 1.5 the failure. */
static void put_channel_stats(struct ltt_wbuf *w, const void *m, uint32_t minor)
{
	ltt_consumer_put_channel_stats(w, m);
	if (minor >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS)
		ltt_consumer_put_channel_error(w, m);
}

static int get_channel_stats(struct ltt_rbuf *r, void *m, uint32_t minor)
{
	(void)minor;
	return ltt_consumer_get_channel_stats(r, m);
}

/*
 * trigger-proto.c's objects (pinned when it wrote and read each by hand):
 * the trigger and its description, of the connection's minor, a capture
 * and a notification; each decoder leaves its verdict in the cursor.
 */
#define TRIGGER(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m, uint32_t minor) \
	{ (void)minor; ltt_##fn##_put(w, (const type *)m); } \
	static int get_##fn(struct ltt_rbuf *r, void *m, uint32_t minor) \
	{ (void)minor; ltt_##fn##_get(r, (type *)m); return r->err ? -EPROTO : 0; }

TRIGGER(capture, struct ltt_capture_desc)

static void put_notif(struct ltt_wbuf *w, const void *m, uint32_t minor)
{
	ltt_notif_put(w, m, minor);
}

static int get_notif(struct ltt_rbuf *r, void *m, uint32_t minor)
{
	(void)minor;
	ltt_notif_get(r, m);
	return r->err ? -EPROTO : 0;
}

static void put_trigger(struct ltt_wbuf *w, const void *m, uint32_t minor)
{
	ltt_trigger_put(w, m, minor);
}

static int get_trigger(struct ltt_rbuf *r, void *m, uint32_t minor)
{
	ltt_trigger_get(r, m, minor);
	return r->err ? -EPROTO : 0;
}

static void put_trigger_desc(struct ltt_wbuf *w, const void *m, uint32_t minor)
{
	ltt_trigger_desc_put(w, m, minor);
}

static int get_trigger_desc(struct ltt_rbuf *r, void *m, uint32_t minor)
{
	ltt_trigger_desc_get(r, m, minor);
	return r->err ? -EPROTO : 0;
}

/* ---- samples: every field set, each to its own value ---- */

static const struct ltt_session_desc session_info = {
	.name = "s1", .id = 0x0102030405060708ULL, .uuid = "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0",
	.uid = 1000, .active = true, .snapshot = true, .live_timer_us = 100000,
	.output_type = LTT_OUTPUT_NET, .output = "tcp://relay.example/x",
	.creation_time = 1714564800, .clock_known = true, .clock_kind = 2,
	.clock_why = "the TSC is invariant",
};

static const struct ltt_channel_desc channel = {
	.domain = LTT_DOMAIN_USER,
	.attr = {
		.name = "channel0", .subbuf_size = 1 << 20, .num_subbuf = 4, .overwrite = true,
		.switch_timer_us = 1000, .read_timer_us = 2000, .tracefile_size = 1 << 24,
		.tracefile_count = 8, .buffer_type = LTT_BUFFER_GLOBAL, .fsync = true,
		.preallocation = 1, .allocation = 2, .auto_reclaim = 3, .auto_reclaim_us = 5000000,
		.blocking_timeout_us = 7000,
	},
	.enabled = true, .discarded_events = 11, .lost_packets = 12, .output_error = 28,
	.output_error_since = 1714564801, .error_events = 13, .error_packets = 14,
	.classes_refused = 15,
};

static const struct ltt_rule_conf rule_attr = {
	.pattern = "flood:*", .loglevel_type = LTT_LOGLEVEL_SINGLE, .loglevel = -3,
	.type = LTT_EVENT_SYSCALL, .filter = "$ctx.cpu_id == 1", .exclusions = "flood:a,flood:b",
};

static const struct ltt_rule_conf rule_attr_probe = {
	.pattern = "p1", .type = LTT_EVENT_UPROBE, .location = "elf:/bin/true:main",
};

static const struct ltt_rule_desc rule_info = {
	.domain = LTT_DOMAIN_KERNEL, .channel = "channel1",
	.attr = {
		.pattern = "sched_*", .loglevel_type = LTT_LOGLEVEL_SINGLE, .loglevel = 7,
		.type = LTT_EVENT_SYSCALL, .filter = "prio > 3", .exclusions = "sched_a",
		.location = "elf:/bin/ls:main",
	},
	.enabled = true,
};

static const struct ltt_rotation_desc rotation_desc = {
	.timer_us = 60000000, .size = 1 << 26, .chunk_id = 4,
	.last_archive = "/home/u/ltt-traces/s1/archives/20240501T120000-3", .error = 41,
	.error_since = 1714564802,
};

static const struct ltt_relay_desc relay_info = {
	.domain = LTT_DOMAIN_USER, .state = LTT_RELAY_STATE_LOST, .error = -111,
	.output_path = "host-1/s1-20240501-120000", .packets_sent = 21, .bytes_sent = 86016,
	.packets_lost = 2,
};

static const struct ltt_stall_desc stall = {
	.domain = LTT_DOMAIN_KERNEL, .traces_waiting = 3, .since = 1714564803,
	.command = "ADD_STREAM", .metadata_waiting = true,
};

static const struct ltt_session_create_req create_session = {
	.conf = {
		.name = "s1", .output_type = LTT_OUTPUT_NET, .output = "tls://relay.example/x",
		.snapshot = true, .live_timer_us = 100000, .tls_cert = "/etc/c.pem",
		.tls_key = "/etc/k.pem", .tls_ca = "/etc/ca.pem",
	},
	.home = "/home/u",
};

static const struct ltt_session_create_req create_session_defaults = {
	.conf = { .output_type = LTT_OUTPUT_LOCAL }, .home = "",
};

static const struct ltt_mem_stream mem_stream = {
	.domain = LTT_DOMAIN_USER, .channel = "channel0", .uid = 1000, .pid = -7,
	.cpu = LTT_MEM_CPU_CHANNEL, .resident = 1 << 20, .size = 1 << 22, .how = 2,
};

static const struct ltt_list_tracepoints_req list_tp = {
	.with_fields = true, .domain = LTT_DOMAIN_KERNEL, .type = LTT_EVENT_SYSCALL,
};

static const struct ltt_list_tracepoints_req list_tp_python = {
	.domain = LTT_DOMAIN_PYTHON, .type = LTT_EVENT_TRACEPOINT,
};

static const struct ltt_disable_event_req disable_pattern = { .channel = "channel0", .pattern = "flood:*" };

static const struct ltt_disable_event_req disable_all = { .all = true };

static const struct ltt_disable_event_req disable_exact = {
	.channel = "channel1", .pattern = "p1", .exact = true,
	.rule = {
		.pattern = "p1", .loglevel_type = LTT_LOGLEVEL_SINGLE, .loglevel = 4,
		.type = LTT_EVENT_UPROBE, .filter = "a == 1", .exclusions = "p1a",
		.location = "elf:/bin/true:main",
	},
};

static const struct ltt_consumer_add_relay add_relay = {
	.relay_key = 9, .addr = { .family = LTT_URI_INET, .host = "10.1.2.3",
				  .ctrl_port = 5342, .data_port = 5343 },
	.hostname = "host-1", .session_name = "s1", .base_path = "s1-20240501-120000",
	.live_timer_us = 2000000, .session_id = 42, .creation_time = 1714564800,
};

static const struct ltt_consumer_add_relay add_relay_uuid = {
	.relay_key = 9, .addr = { .family = LTT_URI_ANY, .host = "relay.example",
				  .ctrl_port = 6000, .data_port = 6001 },
	.hostname = "host-1", .session_name = "s1", .base_path = "",
	.session_id = 43, .creation_time = 1714564801, .has_uuid = true,
	.uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
};

static const struct ltt_consumer_add_relay add_relay_tls = {
	.relay_key = 10, .addr = { .family = LTT_URI_INET6, .host = "::1",
				   .ctrl_port = 7000, .data_port = 7001 },
	.hostname = "host-2", .session_name = "s2", .base_path = "b/p",
	.live_timer_us = 1, .session_id = 44, .creation_time = 1714564802, .has_uuid = true,
	.uuid = { 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 },
	.tls_cert = "/etc/c.pem", .tls_key = "/etc/k.pem", .tls_ca = "/etc/ca.pem",
};

static const struct ltt_consumer_add_trace add_trace = {
	.key = 5, .dir = "/home/u/ltt-traces/s1/ust",
	.uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
	.uid = 1000, .gid = 100,
};

static const struct ltt_consumer_add_trace add_trace_relay = {
	.key = 6, .dir = "ust", .uuid = { 9 }, .uid = 1001, .gid = 101, .relay_key = 9,
};

static const struct ltt_consumer_add_trace add_trace_resume = {
	.key = 7, .dir = "ust", .uuid = { 8 }, .uid = 1002, .gid = 102, .resume = true,
};

static const struct ltt_consumer_flush_channel flush_channel = {
	.channel_key = 0x700000008ULL, .final = true,
};

static const struct ltt_consumer_flush_channel flush_channel_stopped = {
	.channel_key = 0x700000009ULL, .stopped = true,
};

static const struct ltt_consumer_channel_stats channel_stats = {
	.events_lost = 1, .packets_lost = 2, .bytes_written = 3, .error = -28,
	.error_since = 1714564804, .error_events = 4, .error_packets = 5,
};

static const struct ltt_consumer_add_channel add_channel_user = {
	.key = 11, .trace_key = 5, .name = "channel0_1", .tracefile_size = 1 << 20,
	.tracefile_count = 4, .switch_timer_us = 1000, .read_timer_us = 2000, .fsync = true,
	.auto_reclaim = true, .auto_reclaim_ns = 5000000000ULL, .auto_reclaim_counts = 77,
	.domain = LTT_CONSUMER_DOMAIN_USER,
};

static const struct ltt_consumer_add_channel add_channel_kernel = {
	.key = 12, .trace_key = 6, .name = "channel0", .switch_timer_us = 1, .overwrite = true,
	.domain = LTT_CONSUMER_DOMAIN_KERNEL, .subbuf_size = 1 << 16, .num_subbuf = 4,
};

/* A user-space channel without reclaim; tracefs with contexts; a domain no consumer knows. */
static const struct ltt_consumer_add_channel add_channel_plain = {
	.key = 14, .trace_key = 7, .name = "chan", .tracefile_size = 0, .switch_timer_us = 3,
	.read_timer_us = 4, .overwrite = true, .domain = LTT_CONSUMER_DOMAIN_USER,
};

static const struct ltt_consumer_add_channel add_channel_tracefs = {
	.key = 15, .trace_key = 8, .name = "channel0", .tracefile_count = 2, .fsync = true,
	.domain = LTT_CONSUMER_DOMAIN_TRACEFS, .subbuf_size = 1 << 12, .num_subbuf = 8,
	.stream_id = 3, .nr_ctx = 2,
	.ctx = { { .type = LTT_CONTEXT_TID, .name = "tid" },
		 { .type = LTT_CONTEXT_PROCNAME, .name = "procname" } },
};

static const struct ltt_consumer_add_channel add_channel_tracefs_bare = {
	.key = 16, .trace_key = 9, .name = "c", .domain = LTT_CONSUMER_DOMAIN_TRACEFS,
	.subbuf_size = 1 << 12, .num_subbuf = 2,
};

static const struct ltt_consumer_add_channel add_channel_unknown = {
	.key = 17, .trace_key = 10, .name = "c", .domain = 3, .subbuf_size = 1 << 12,
	.num_subbuf = 2,
};

/* The replies whose body follows a status of 0, and failures that stand alone. */
static const struct ltt_consumer_add_relay_reply add_relay_reply = {
	.output_path = "/srv/t/box/s1-20231114-221320",
};

static const struct ltt_consumer_add_relay_reply add_relay_reply_failed = {
	.status = -ECONNREFUSED, .output_path = "",
};

static const struct ltt_consumer_relay_pending_reply relay_pending = { .pending = 1 };
static const struct ltt_consumer_relay_pending_reply relay_pending_not = { 0 };
static const struct ltt_consumer_relay_pending_reply relay_pending_failed = {
	.status = -ECONNRESET,
};

static const struct ltt_consumer_relay_status_reply relay_status = {
	.conn_error = -EPIPE, .packets_sent = 10, .bytes_sent = 40960, .packets_lost = 1,
};

static const struct ltt_consumer_relay_status_reply relay_status_failed = {
	.status = -ENOENT,
};

static const struct ltt_consumer_add_snapshot_trace add_snapshot_trace = {
	.key = 13, .uuid = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16 },
	.uid = 1003, .gid = 103,
};

static const struct ltt_consumer_probe_output probe_output = {
	.dir = "/home/u/ltt-traces/s1/kernel", .uid = 1004, .gid = 104,
};

/* An event rule's trigger: two captures, one notify action once after 3 times. */
static const struct ltt_trigger_conf trigger_notify = {
	.name = "t1", .owner_uid = 1000, .cond = LTT_CONDITION_EVENT_RULE_MATCHES,
	.domain = LTT_DOMAIN_USER,
	.rule = {
		.pattern = "app:*", .loglevel_type = LTT_LOGLEVEL_RANGE, .loglevel = 6,
		.type = LTT_EVENT_TRACEPOINT, .filter = "size > 3", .exclusions = "app:x",
	},
	.nr_captures = 2, .captures = { "size", "$ctx.vpid" },
	.nr_actions = 1,
	.actions = { { .type = LTT_ACTION_NOTIFY, .rate_policy = LTT_RATE_ONCE_AFTER,
		       .rate_count = 3 } },
};

/* A buffer-usage trigger of every session action, the snapshot's with an output. */
static const struct ltt_trigger_conf trigger_session = {
	.name = "t2", .owner_uid = -1, .cond = LTT_CONDITION_BUFFER_USAGE_GE,
	.domain = LTT_DOMAIN_KERNEL, .session = "s1", .channel = "channel0",
	.threshold_size = 0x0102030405060708ULL, .threshold_ppm = 750000,
	.nr_actions = 5,
	.actions = {
		{ .type = LTT_ACTION_START_SESSION, .rate_count = 1, .session = "s2" },
		{ .type = LTT_ACTION_STOP_SESSION, .rate_policy = LTT_RATE_EVERY,
		  .rate_count = 2, .session = "s3" },
		{ .type = LTT_ACTION_ROTATE_SESSION, .rate_count = 4, .session = "s1" },
		{ .type = LTT_ACTION_SNAPSHOT_SESSION, .rate_count = 1, .session = "s1",
		  .has_output = true,
		  .output = { .id = 7, .name = "o1", .max_size = 1 << 20,
			      .output_type = LTT_OUTPUT_NET, .output = "tcp://relay.example/x" } },
		{ .type = LTT_ACTION_SNAPSHOT_SESSION, .rate_count = 9, .session = "s4" },
	},
};

/* A counting trigger: incr-map-value into a map and a key template. */
static const struct ltt_trigger_conf trigger_map = {
	.name = "t3", .owner_uid = 0, .cond = LTT_CONDITION_EVENT_RULE_MATCHES,
	.domain = LTT_DOMAIN_KERNEL,
	.rule = { .pattern = "sched_switch", .type = LTT_EVENT_TRACEPOINT },
	.nr_actions = 1,
	.actions = { { .type = LTT_ACTION_INCR_MAP_VALUE, .rate_count = 1, .session = "s1",
		       .map = "map0", .key = "${EVENT_NAME}-${prev_comm}" } },
};

static const struct ltt_trigger_desc trigger_desc = {
	.conf = {
		.name = "t4", .owner_uid = 1001, .cond = LTT_CONDITION_SESSION_ROTATION_FINISHES,
		.session = "s1", .nr_actions = 2,
		.actions = {
			{ .type = LTT_ACTION_NOTIFY, .rate_count = 1 },
			{ .type = LTT_ACTION_SNAPSHOT_SESSION, .rate_count = 1, .session = "s1" },
		},
	},
	.fired = 11, .dropped = 12, .runs = { 13, 14 }, .failures = { 15, 16 },
	.last_error = { 0, -17 }, .pending = { 18, 19 }, .pending_since = 0x1112131415161718LL,
};

static const struct ltt_capture_desc capture_unavailable = { .type = LTT_CAPTURE_UNAVAILABLE };
static const struct ltt_capture_desc capture_signed = {
	.type = LTT_CAPTURE_SIGNED, .bits = (uint64_t)-42,
};
static const struct ltt_capture_desc capture_unsigned = {
	.type = LTT_CAPTURE_UNSIGNED, .bits = 0x8070605040302010ULL,
};
static const struct ltt_capture_desc capture_float = {
	.type = LTT_CAPTURE_FLOAT, .bits = 0x400921fb54442d18ULL,
};
static const struct ltt_capture_desc capture_string = { .type = LTT_CAPTURE_STRING, .str = "abc" };
static const struct ltt_capture_desc capture_string_null = { .type = LTT_CAPTURE_STRING };
static const struct ltt_capture_desc capture_unknown = { .type = 9, .bits = 5 };
/* ARRAY (client 1.34): SIGNED -1, UNAVAILABLE, STRING "z", in their wire form */
static const uint8_t array_elems[] = {
	LTT_CAPTURE_SIGNED, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
	LTT_CAPTURE_UNAVAILABLE, LTT_CAPTURE_STRING, 2, 0, 0, 0, 'z', 0,
};
static const struct ltt_capture_desc capture_array = {
	.type = LTT_CAPTURE_ARRAY, .nr_elems = 3, .elems = array_elems,
	.elems_len = sizeof(array_elems),
};

static const struct ltt_notif_desc notif = {
	.trigger = "t1", .cond = LTT_CONDITION_EVENT_RULE_MATCHES, .seq = 21,
	.time_ns = 0x2122232425262728LL, .dropped = 22, .session = "s1", .event = "app:x",
	.pid = 4242, .value = 23, .path = "/home/u/ltt-traces/s1/archives/1",
	.nr_captures = 5,
	.captures = {
		{ .type = LTT_CAPTURE_SIGNED, .bits = 1 },
		{ .type = LTT_CAPTURE_UNAVAILABLE },
		{ .type = LTT_CAPTURE_STRING, .str = "x" },
		{ .type = LTT_CAPTURE_FLOAT, .bits = 0x3ff0000000000000ULL },
		{ .type = LTT_CAPTURE_UNSIGNED, .bits = 2 },
	},
};

/*
 * An ARRAY and an enum's value among its captures: before client 1.34
 * sent UNAVAILABLE and a plain number, from it whole and marked.
 */
static const struct ltt_notif_desc notif_array = {
	.trigger = "t3", .cond = LTT_CONDITION_EVENT_RULE_MATCHES, .seq = 2, .event = "app:y",
	.nr_captures = 3,
	.captures = {
		{ .type = LTT_CAPTURE_ARRAY, .nr_elems = 3, .elems = array_elems,
		  .elems_len = sizeof(array_elems) },
		{ .type = LTT_CAPTURE_UNSIGNED, .bits = 3 },
		{ .type = LTT_CAPTURE_SIGNED, .bits = (uint64_t)-1, .is_enum = true },
	},
};

/* Without captures, its strings NULL (sent as ""). */
static const struct ltt_notif_desc notif_bare = {
	.trigger = "t2", .cond = LTT_CONDITION_BUFFER_USAGE_LE, .seq = 1, .time_ns = -1,
};

#define SAMPLE(fn, var, minor, len, hash, verdicts) \
	{ #fn ":" #var "@" #minor, put_##fn, get_##fn, &var, sizeof(var), minor, len, hash, verdicts }

static const struct sample samples[] = {
	SAMPLE(session_info, session_info, 19, 104, 0x816fa345de6acd84ULL, 0xec552c84b38efbceULL),
	SAMPLE(session_info, session_info, 20, 133, 0x9d11e20eebecd918ULL, 0xf80c56f21688d139ULL),
	SAMPLE(channel, channel, 2, 79, 0x39171ad1ea4b1994ULL, 0xd2c21319fa1b78a7ULL),
	SAMPLE(channel, channel, 3, 107, 0x3f47cef3e9bd7310ULL, 0x8e75485ed244cf6eULL),
	SAMPLE(channel, channel, 15, 107, 0x3f47cef3e9bd7310ULL, 0x8e75485ed244cf6eULL),
	SAMPLE(channel, channel, 16, 116, 0x7df0fd7e9255539aULL, 0x2ce88e2a161c15caULL),
	SAMPLE(channel, channel, 23, 116, 0x7df0fd7e9255539aULL, 0x2ce88e2a161c15caULL),
	SAMPLE(channel, channel, 24, 117, 0x55d25912a6fd1061ULL, 0x5716fce07a2666f0ULL),
	SAMPLE(channel, channel, 25, 118, 0xd17dbdb1c002d839ULL, 0x00ffd53578b7a5d9ULL),
	SAMPLE(channel, channel, 26, 118, 0xd17dbdb1c002d839ULL, 0x00ffd53578b7a5d9ULL),
	SAMPLE(channel, channel, 27, 127, 0x1e42cb1f921a5a07ULL, 0x1d778f1bfab40180ULL),
	SAMPLE(channel, channel, 30, 135, 0x055b1ba368a885f2ULL, 0xb977220cd2eea97eULL),
	SAMPLE(channel_info, channel, 0, 79, 0x39171ad1ea4b1994ULL, 0xd2c21319fa1b78a7ULL),
	SAMPLE(channel_failure, channel, 0, 28, 0x30bb009ce6488c61ULL, 0x12d2fd21aa80a102ULL),
	SAMPLE(auto_reclaim, channel.attr, 0, 9, 0x95839c1e78293ff3ULL, 0xb746dfce4c07c228ULL),
	SAMPLE(channel_conf, channel.attr, 15, 58, 0xacd42f9679c721d6ULL, 0x79d5358063230f8fULL),
	SAMPLE(channel_conf, channel.attr, 16, 59, 0x73aeb3b0ed5e8055ULL, 0xe9e9e36d6d48300aULL),
	SAMPLE(channel_conf, channel.attr, 24, 60, 0xf05ba9a357940ebcULL, 0xfec78f10ba1df510ULL),
	SAMPLE(channel_conf, channel.attr, 25, 61, 0xffcffe8dd0950cdaULL, 0x0b2cebb74b69b553ULL),
	SAMPLE(channel_conf, channel.attr, 27, 70, 0xfaf8deee4a486662ULL, 0x4bfe59f0e66fe466ULL),
	SAMPLE(channel_conf, channel.attr, 30, 78, 0xa3cbda9871d2b577ULL, 0xb71fb153399c653eULL),
	SAMPLE(rule_attr, rule_attr, 0, 20, 0x59f7084054446425ULL, 0xd5c98c154d7d4ba6ULL),
	SAMPLE(rule_attr, rule_attr, 1, 24, 0x6d2ea73ec7bb2864ULL, 0x03d97db538fe9174ULL),
	SAMPLE(rule_attr, rule_attr, 6, 24, 0x6d2ea73ec7bb2864ULL, 0x03d97db538fe9174ULL),
	SAMPLE(rule_attr, rule_attr, 7, 65, 0x5cfe7ee3c806eef4ULL, 0x98f164e8e2a62815ULL),
	SAMPLE(rule_attr, rule_attr, 20, 65, 0x5cfe7ee3c806eef4ULL, 0x98f164e8e2a62815ULL),
	SAMPLE(rule_attr, rule_attr, 21, 70, 0x9577f2ec983adabfULL, 0x65d6fa1a2e43ce8cULL),
	SAMPLE(rule_attr, rule_attr_probe, 20, 29, 0x2dedf7607447e8d1ULL, 0xdd3375e1ba47bf50ULL),
	SAMPLE(rule_attr, rule_attr_probe, 21, 52, 0x6464700a995313f3ULL, 0x8b54bd657bf4cf77ULL),
	SAMPLE(rule_info, rule_info, 0, 38, 0x884fdb10f3809fc1ULL, 0xecc472750d6836c3ULL),
	SAMPLE(rule_info, rule_info, 1, 42, 0xcf3fcfc04a21369eULL, 0x08188875e70ec633ULL),
	SAMPLE(rule_info, rule_info, 7, 67, 0x69cb021838431057ULL, 0x3c0c138ac8a216edULL),
	SAMPLE(rule_info, rule_info, 21, 88, 0xfdb1327c343ea806ULL, 0xca0cdb7e0cb93a67ULL),
	SAMPLE(rotation_desc, rotation_desc, 12, 77, 0x77408d6e35819648ULL, 0x6c500e3c474ad76cULL),
	SAMPLE(rotation_desc, rotation_desc, 13, 89, 0x1edd5a29d00c3339ULL, 0xd2a226178491eb89ULL),
	SAMPLE(relay_info, relay_info, 0, 66, 0xb049064b3a7bbb37ULL, 0x0add55df077b3c1cULL),
	SAMPLE(stall_waiting, stall, 0, 9, 0x78a6d55c07e37122ULL, 0x05fe0740c1e6098aULL),
	SAMPLE(stall, stall, 0, 27, 0x892a17e38e92e2aaULL, 0x1dab80613bd8cd25ULL),
	SAMPLE(session_create, create_session, 5, 42, 0xa7035d0c4eaf5f55ULL, 0x9de746ddf5519522ULL),
	SAMPLE(session_create, create_session, 6, 54, 0x42ba2660080dc43fULL, 0xa7dabc8a0f046508ULL),
	SAMPLE(session_create, create_session, 22, 54, 0x42ba2660080dc43fULL, 0xa7dabc8a0f046508ULL),
	SAMPLE(session_create, create_session, 23, 100, 0x71239b296d3a1db1ULL, 0x7c11f205150213b2ULL),
	SAMPLE(session_create, create_session_defaults, 23, 39,
	       0x021ac94f0473b458ULL, 0x3a9d656ae165e882ULL),
	SAMPLE(session_tls, create_session.conf, 22, 0, 0xcbf29ce484222325ULL, 0xf23d7463d0ab926fULL),
	SAMPLE(session_tls, create_session.conf, 23, 46, 0xb7abd91d8cb8fabbULL, 0x944be8c8cf34f485ULL),
	SAMPLE(session_tls, create_session_defaults.conf, 23, 15,
	       0x18c1a0909a7c4132ULL, 0x5bd2c4466ff0a4c3ULL),
	SAMPLE(mem_stream, mem_stream, 26, 45, 0x7ee4d5f9e38cca06ULL, 0xce1863b5ab2c1d9aULL),
	SAMPLE(mem_stream, mem_stream, 27, 46, 0x2ba19b9da83b44ccULL, 0xc3c2693182d3ee35ULL),
	SAMPLE(list_tracepoints, list_tp, 0, 1,
	       0xaf63bc4c8601b62cULL, 0xe7530b2d8b0d618eULL),
	SAMPLE(list_tracepoints, list_tp, 1, 9,
	       0xd19a47dd44aec13cULL, 0x88d93c678ee2d224ULL),
	SAMPLE(list_tracepoints, list_tp_python, 17, 9,
	       0x4b1e9f0cede3b71aULL, 0xac0de2e2a882b873ULL),
	SAMPLE(disable_event, disable_pattern, 6, 26,
	       0xad9486b7aa806299ULL, 0xfdd5d9279cbf4adaULL),
	SAMPLE(disable_event, disable_pattern, 7, 54,
	       0xe83d5b3e10625924ULL, 0xd081536deea08d3dULL),
	SAMPLE(disable_event, disable_all, 7, 39,
	       0x8a3db7843f81af27ULL, 0x01d283cc0f463145ULL),
	SAMPLE(disable_event, disable_exact, 7, 60,
	       0xc7a1553f70bd958cULL, 0x19f30535f0725bacULL),
	SAMPLE(disable_event, disable_exact, 20, 60,
	       0xc7a1553f70bd958cULL, 0x19f30535f0725bacULL),
	SAMPLE(disable_event, disable_exact, 21, 83,
	       0xfc9188836aff1d38ULL, 0x1cace3f2cb586b64ULL),
	SAMPLE(add_relay, add_relay, 12, 117, 0x32aa86cd2b08936dULL, 0xf1a50dc3ecff1defULL),
	SAMPLE(add_relay, add_relay_uuid, 12, 125, 0x7d049dfb3969ead8ULL, 0x2935ba4917c169feULL),
	SAMPLE(add_relay, add_relay, 13, 87, 0x785d37f5040ecd77ULL, 0x5dacdeca0f99cdffULL),
	SAMPLE(add_relay, add_relay_uuid, 14, 90, 0xcc7a60b56c1af081ULL, 0x18355690e4992af7ULL),
	SAMPLE(add_relay, add_relay_tls, 14, 83, 0xffffffffffffffa3ULL, 0x0000000000000000ULL),
	SAMPLE(add_relay, add_relay, 15, 104, 0xef2dad5f82656675ULL, 0x3e75647fce98f1b8ULL),
	SAMPLE(add_relay, add_relay_uuid, 15, 91, 0x8ee2d546b1c6ab33ULL, 0xeffcd32e1c1cc3e9ULL),
	SAMPLE(add_relay, add_relay_tls, 15, 130, 0xdc90628f58e1112aULL, 0xbfe2ee3a08f93c13ULL),
	SAMPLE(add_trace, add_trace, 0, 62, 0x4bd046ba886438d7ULL, 0x225e34a99926ffbdULL),
	SAMPLE(add_trace, add_trace_relay, 0, 48, 0xad17b4623f942112ULL, 0x7cf3e431a9a1990aULL),
	SAMPLE(add_trace, add_trace_resume, 0, 49, 0x85ea3b1bad0b7e1aULL, 0xc9723a4cbb9e98f3ULL),
	SAMPLE(flush_channel, flush_channel, 0, 9, 0x5b4a84a751799ce1ULL, 0x09b7bd6418490791ULL),
	SAMPLE(flush_channel, flush_channel_stopped, 0, 10,
	       0x39c089b1ca3617a0ULL, 0x877f0d05ce3d5b74ULL),
	SAMPLE(channel_stats, channel_stats, 4, 24, 0xda2bfb225e0d1f05ULL, 0x421ccf58a7b6c5afULL),
	SAMPLE(channel_stats, channel_stats, 5, 52, 0xd89697efa934bda5ULL, 0xc6f79d3a82eb46bdULL),
	SAMPLE(add_channel, add_channel_user, 0, 72, 0x15b7b97e92e7193aULL, 0x90bc988f1c72e934ULL),
	SAMPLE(add_snapshot_trace, add_snapshot_trace, 0, 32,
	       0x1ad96403d3b51a19ULL, 0xb428a84ffc78afc7ULL),
	SAMPLE(probe_output, probe_output, 0, 41, 0x0144d69aacbbe5ceULL, 0xf71fec275719942eULL),
	SAMPLE(add_channel, add_channel_kernel, 0, 71,
	       0x919587fa2e4581e3ULL, 0xa8b656fe3d4a4f7eULL),
	SAMPLE(add_channel, add_channel_plain, 0, 50,
	       0x34a0389b115acefbULL, 0xb58203175436cc09ULL),
	SAMPLE(add_channel, add_channel_tracefs, 0, 132,
	       0x4ebd636b2af1d8c8ULL, 0x63e6ef2392f8e1d9ULL),
	SAMPLE(add_channel, add_channel_tracefs_bare, 0, 72,
	       0xca86660373e4d9f5ULL, 0xcf1f6e0e29baa8a7ULL),
	SAMPLE(add_channel, add_channel_unknown, 0, 64,
	       0x441e7954a394f210ULL, 0x5fd0688821526f51ULL),
	SAMPLE(add_relay_reply, add_relay_reply, 0, 38,
	       0xb23e6e800717a9c5ULL, 0x806fa7bf6a7d6645ULL),
	SAMPLE(add_relay_reply, add_relay_reply_failed, 0, 4,
	       0x67dd75243a503cd7ULL, 0xc9bb138f826baa6dULL),
	SAMPLE(relay_pending_reply, relay_pending, 0, 5,
	       0xe4bc4ed9252be79cULL, 0x3526e93cdbb8adc6ULL),
	SAMPLE(relay_pending_reply, relay_pending_not, 0, 5,
	       0xe4bc4fd9252be94fULL, 0x7a4ff6e866c5118aULL),
	SAMPLE(relay_pending_reply, relay_pending_failed, 0, 4,
	       0x4a55757634ce7bbeULL, 0x0d06ded6e57aa6ccULL),
	SAMPLE(relay_status_reply, relay_status, 0, 32,
	       0x72e1db871de69f6dULL, 0xfb0b72e0b8d06e77ULL),
	SAMPLE(relay_status_reply, relay_status_failed, 0, 4,
	       0x7053767088d9a6c0ULL, 0x7a006ce34bbe5a02ULL),
	SAMPLE(trigger, trigger_notify, 0, 143,
	       0xdc9cba7c7511d50eULL, 0xe376f282832e71dbULL),
	SAMPLE(trigger, trigger_session, 0, 259,
	       0x0ec49f1ce4ad5c87ULL, 0x43d455e9098da610ULL),
	SAMPLE(trigger, trigger_map, 0, 156,
	       0xbc98dbf1ad6350e8ULL, 0xb03d93181e3fdd58ULL),
	SAMPLE(trigger_desc, trigger_desc, 21, 184,
	       0xff3a52c2dd8fd33aULL, 0xb1cf12c9b186917cULL),
	SAMPLE(trigger_desc, trigger_desc, 22, 200,
	       0x08dfcdcdde83e54bULL, 0x6fa6837cfabdefd5ULL),
	SAMPLE(capture, capture_unavailable, 0, 1,
	       0xaf63bd4c8601b7dfULL, 0x2b2c6441f42245ccULL),
	SAMPLE(capture, capture_signed, 0, 9,
	       0xb53646544808c31dULL, 0x563f237b5b38c469ULL),
	SAMPLE(capture, capture_unsigned, 0, 9,
	       0xe47beab1b186ce65ULL, 0xd0c9686df8e919c2ULL),
	SAMPLE(capture, capture_float, 0, 9,
	       0x8a63e1dfd5b7166cULL, 0x6868c4f0ebc6f4ecULL),
	SAMPLE(capture, capture_string, 0, 9,
	       0x4d1a3bff562079ebULL, 0x477fb9f1e8de184aULL),
	/* its verdicts changed with ARRAY (5): the type byte set to 5 reads an array of 1 */
	SAMPLE(capture, capture_string_null, 0, 6,
	       0x58dc8903f486edf6ULL, 0x3568a49b3ec1345aULL),
	SAMPLE(capture, capture_array, 0, 22, 0x3848321bac606002ULL, 0x8e8ecdaf4c0b79d8ULL),
	SAMPLE(capture, capture_unknown, 0, 9,
	       0x90fc82ae13ff05e1ULL, 0xedc7ecade7ee4c44ULL),
	SAMPLE(notif, notif, 0, 144,
	       0xb4cee4068e4f82a3ULL, 0xcfdcc3b590117710ULL),
	SAMPLE(notif, notif_array, 33, 94, 0xb8c1c84ec371ceddULL, 0x9d0aea1cc11b3d4aULL),
	SAMPLE(notif, notif_array, 34, 115, 0x36c4afe7761ae014ULL, 0xf47c9f84170bae02ULL),
	SAMPLE(notif, notif_bare, 0, 70,
	       0x23e04558791dfcbfULL, 0xab75b01684920083ULL),
};

int main(void)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		check(&samples[i]);
	return tap_done();
}
