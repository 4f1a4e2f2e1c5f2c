// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_client_objects.c - unit tests of common/proto/client-proto.c's object
 * serializers (session, channel, rule and relay attributes and infos):
 * each round trip, every truncation, trailing bytes, and values out of
 * range refused.  The command table and framing: test_client_proto.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/trigger.h"
#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"
#include "common/trace/tclock.h"
#include "tests/unit/tap.h"

/* The serializers, with one signature so that one loop tests them all. */
struct object_ops {
	const char *name;
	size_t size;
	void (*put)(struct ltt_wbuf *w, const void *obj);
	void (*get)(struct ltt_rbuf *r, void *ret);
	bool (*equal)(const void *a, const void *b);
};

/*
 * ops_NAME: the object_ops of ltt_proto_put_NAME() and _get_NAME(), with
 * equal_NAME(), @label and the object's type; the serializers' further
 * arguments, if any (the protocol minor), follow.
 */
#define OBJECT_OPS(name, label, type, ...)				\
	static void put_##name(struct ltt_wbuf *w, const void *o)	\
	{								\
		ltt_proto_put_##name(w, o, ##__VA_ARGS__);		\
	}								\
	static void get_##name(struct ltt_rbuf *r, void *o)		\
	{								\
		ltt_proto_get_##name(r, o, ##__VA_ARGS__);		\
	}								\
	static const struct object_ops ops_##name = {			\
		label, sizeof(type), put_##name, get_##name, equal_##name, \
	};

/* Fill a string field with @len copies of @c. */
static void fill(char *dst, size_t len, char c)
{
	memset(dst, c, len);
	dst[len] = '\0';
}

/* ---- session attr ---- */

static bool equal_session_attr(const void *pa, const void *pb)
{
	const struct ltt_session_conf *a = pa, *b = pb;

	return !strcmp(a->name, b->name) && a->output_type == b->output_type &&
	       !strcmp(a->output, b->output) && a->snapshot == b->snapshot &&
	       a->live_timer_us == b->live_timer_us;
}

OBJECT_OPS(session_attr, "session attr", struct ltt_session_conf)

/* ---- session info ---- */

static bool equal_session_info(const void *pa, const void *pb)
{
	const struct ltt_session_desc *a = pa, *b = pb;

	return !strcmp(a->name, b->name) && a->id == b->id && !strcmp(a->uuid, b->uuid) &&
	       a->uid == b->uid && a->active == b->active && a->snapshot == b->snapshot &&
	       a->live_timer_us == b->live_timer_us && a->output_type == b->output_type &&
	       !strcmp(a->output, b->output) && a->creation_time == b->creation_time &&
	       a->clock_kind == b->clock_kind && !strcmp(a->clock_why, b->clock_why);
}

OBJECT_OPS(session_info, "session info", struct ltt_session_desc, LTT_CLIENT_MINOR)

/* ---- channel attr ---- */

static bool equal_channel_attr(const void *pa, const void *pb)
{
	const struct ltt_channel_conf *a = pa, *b = pb;

	return !strcmp(a->name, b->name) && a->subbuf_size == b->subbuf_size &&
	       a->num_subbuf == b->num_subbuf && a->overwrite == b->overwrite &&
	       a->switch_timer_us == b->switch_timer_us &&
	       a->read_timer_us == b->read_timer_us && a->tracefile_size == b->tracefile_size &&
	       a->tracefile_count == b->tracefile_count && a->buffer_type == b->buffer_type;
}

OBJECT_OPS(channel_attr, "channel attr", struct ltt_channel_conf)

/* ---- channel info ---- */

static bool equal_channel_info(const void *pa, const void *pb)
{
	const struct ltt_channel_desc *a = pa, *b = pb;

	return a->domain == b->domain && equal_channel_attr(&a->attr, &b->attr) &&
	       a->enabled == b->enabled && a->discarded_events == b->discarded_events &&
	       a->lost_packets == b->lost_packets;
}

OBJECT_OPS(channel_info, "channel info", struct ltt_channel_desc)

/* ---- rule attr ---- */

static bool equal_rule_attr(const void *pa, const void *pb)
{
	const struct ltt_rule_conf *a = pa, *b = pb;

	return !strcmp(a->pattern, b->pattern) && a->loglevel_type == b->loglevel_type &&
	       a->loglevel == b->loglevel && a->type == b->type &&
	       !strcmp(a->filter, b->filter) && !strcmp(a->exclusions, b->exclusions);
}

OBJECT_OPS(rule_attr, "rule attr", struct ltt_rule_conf, LTT_CLIENT_MINOR)

/* ---- rule info ---- */

static bool equal_rule_info(const void *pa, const void *pb)
{
	const struct ltt_rule_desc *a = pa, *b = pb;

	return a->domain == b->domain && !strcmp(a->channel, b->channel) &&
	       equal_rule_attr(&a->attr, &b->attr) && a->enabled == b->enabled;
}

OBJECT_OPS(rule_info, "rule info", struct ltt_rule_desc, LTT_CLIENT_MINOR)


/* ---- relay info ---- */

static bool equal_relay_info(const void *pa, const void *pb)
{
	const struct ltt_relay_desc *a = pa, *b = pb;

	return a->domain == b->domain && a->state == b->state && a->error == b->error &&
	       !strcmp(a->output_path, b->output_path) && a->packets_sent == b->packets_sent &&
	       a->bytes_sent == b->bytes_sent && a->packets_lost == b->packets_lost;
}

OBJECT_OPS(relay_info, "relay info", struct ltt_relay_desc)


/*
 * Decode one object from exactly @len bytes at @msg (copied to the heap so
 * that overreads are caught by ASan).  Returns ltt_rbuf_end().
 */
static int decode(const struct object_ops *ops, const void *msg, size_t len, void *ret)
{
	uint8_t *data = malloc(len ? len : 1);
	struct ltt_rbuf r;
	int err;

	if (!data)
		abort();
	if (len)
		memcpy(data, msg, len);
	ltt_rbuf_init(&r, data, len);
	ops->get(&r, ret);
	err = ltt_rbuf_end(&r);
	free(data);
	return err;
}

/*
 * @obj survives a round trip; every strict prefix of its encoding and the
 * encoding plus a trailing byte are -EPROTO.
 */
static void check_object(const struct object_ops *ops, const void *obj, const char *what)
{
	void *back = calloc(1, ops->size);
	size_t k, bad_at = 0;
	struct ltt_wbuf w;
	bool all = true;
	int err;

	if (!back)
		abort();
	ltt_wbuf_init(&w);
	ops->put(&w, obj);
	tap_ok(!w.err, "%s (%s) encodes in %zu bytes", ops->name, what, w.len);
	err = decode(ops, w.data, w.len, back);
	tap_is_int(err, 0, "%s (%s) decodes", ops->name, what);
	tap_ok(ops->equal(obj, back), "%s (%s) survives the round trip", ops->name, what);
	for (k = 0; k < w.len; k++) {
		if (decode(ops, w.data, k, back) != -EPROTO && all) {
			all = false;
			bad_at = k;
		}
	}
	tap_ok(all, "%s (%s): each of the %zu truncations is -EPROTO", ops->name, what, w.len);
	if (!all)
		tap_diag("truncation at %zu bytes was accepted", bad_at);
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(decode(ops, w.data, w.len, back), -EPROTO,
		   "%s (%s) with a trailing byte is -EPROTO", ops->name, what);
	ltt_wbuf_fini(&w);
	free(back);
}

/* Decode @w as one object: expected to be malformed. */
static void check_malformed(const struct object_ops *ops, struct ltt_wbuf *w, const char *what)
{
	void *back = calloc(1, ops->size);

	if (!back)
		abort();
	tap_ok(!w->err, "%s with %s encodes", ops->name, what);
	tap_is_int(decode(ops, w->data, w->len, back), -EPROTO, "%s with %s is -EPROTO",
		   ops->name, what);
	ltt_wbuf_reset(w);
	free(back);
}

/* A session attr on the wire after its name: output type, output, snapshot flag, live timer 0. */
static void put_raw_session_attr_tail(struct ltt_wbuf *w, uint32_t output_type, const char *output,
				      uint8_t snapshot)
{
	ltt_wbuf_put_u32(w, output_type);
	ltt_wbuf_put_str(w, output);
	ltt_wbuf_put_u8(w, snapshot);
	ltt_wbuf_put_u32(w, 0);
}

static void test_session_attr(void)
{
	const struct object_ops *ops = &ops_session_attr;
	struct ltt_session_conf a;
	struct ltt_wbuf w;
	char big[LTT_PATH_MAX + 1];
	static const char *const output_names[] = { "output none", "output local", "output net" };
	int t;

	memset(&a, 0, sizeof(a));
	check_object(ops, &a, "all zero");
	fill(a.name, LTT_NAME_MAX - 1, 'n');
	fill(a.output, LTT_PATH_MAX - 1, 'o');
	a.output_type = LTT_OUTPUT_NET;
	a.snapshot = true;
	a.live_timer_us = UINT32_MAX;
	check_object(ops, &a, "longest strings");
	for (t = LTT_OUTPUT_NONE; t <= LTT_OUTPUT_NET; t++) {
		memset(&a, 0, sizeof(a));
		strcpy(a.name, "s");
		a.output_type = t;
		strcpy(a.output, "/tmp/x");
		check_object(ops, &a, output_names[t]);
	}

	ltt_wbuf_init(&w);
	fill(big, LTT_NAME_MAX, 'n');
	ltt_wbuf_put_str(&w, big);
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, "/tmp", 0);
	check_malformed(ops, &w, "a 256-byte name");

	fill(big, LTT_PATH_MAX, 'o');
	ltt_wbuf_put_str(&w, "s");
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, big, 0);
	check_malformed(ops, &w, "a 4096-byte output");

	ltt_wbuf_put_str(&w, "s");
	put_raw_session_attr_tail(&w, LTT_OUTPUT_NET + 1, "/tmp", 0);
	check_malformed(ops, &w, "output type 3");

	ltt_wbuf_put_str(&w, "s");
	put_raw_session_attr_tail(&w, UINT32_MAX, "/tmp", 0);
	check_malformed(ops, &w, "output type 2^32-1");

	ltt_wbuf_put_str(&w, "s");
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, "/tmp", 2);
	check_malformed(ops, &w, "snapshot 2");

	ltt_wbuf_put_u32(&w, 3);
	ltt_wbuf_put_bytes(&w, "a\0", 3);
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, "/tmp", 0);
	check_malformed(ops, &w, "a NUL inside the name");

	ltt_wbuf_put_u32(&w, 2);
	ltt_wbuf_put_bytes(&w, "ab", 2);
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, "/tmp", 0);
	check_malformed(ops, &w, "a name without NUL");

	ltt_wbuf_put_u32(&w, 0);
	put_raw_session_attr_tail(&w, LTT_OUTPUT_LOCAL, "/tmp", 0);
	check_malformed(ops, &w, "a name of length 0");
	ltt_wbuf_fini(&w);
}

/*
 * A session info on the wire: session "s", id 1, @uuid, uid 0, @active,
 * @snapshot, live timer 0, @output_type, output "/tmp", creation time 0,
 * clock @clock_kind, its reason "r".
 */
static void put_raw_session_info_clock(struct ltt_wbuf *w, const char *uuid, uint8_t active,
				       uint8_t snapshot, uint32_t output_type, uint32_t clock_kind)
{
	ltt_wbuf_put_str(w, "s");
	ltt_wbuf_put_u64(w, 1);
	ltt_wbuf_put_str(w, uuid);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_u8(w, active);
	ltt_wbuf_put_u8(w, snapshot);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_u32(w, output_type);
	ltt_wbuf_put_str(w, "/tmp");
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u32(w, clock_kind);
	ltt_wbuf_put_str(w, "r");
}

static void put_raw_session_info(struct ltt_wbuf *w, const char *uuid, uint8_t active,
				 uint8_t snapshot, uint32_t output_type)
{
	put_raw_session_info_clock(w, uuid, active, snapshot, output_type, LTT_TCLOCK_MONO);
}

/*
 * The clock ends a session info from minor 20 on; a minor-19 peer's bytes
 * are as before, and its sessions have no clock.
 */
static void test_session_info_clock(void)
{
	struct ltt_session_desc a, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t old_len;

	memset(&a, 0, sizeof(a));
	strcpy(a.name, "s");
	a.clock_kind = LTT_TCLOCK_TSC_LFENCE;
	strcpy(a.clock_why, "the kernel keeps time with the TSC");
	ltt_wbuf_init(&w);
	ltt_proto_put_session_info(&w, &a, LTT_CLIENT_MINOR_CLOCK - 1);
	old_len = w.len;
	tap_is_int((long long)old_len, 6 + 8 + 5 + 4 + 1 + 1 + 4 + 4 + 5 + 8,
		   "minor 19: a session info ends with its creation time");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_session_info(&r, &b, LTT_CLIENT_MINOR_CLOCK - 1);
	tap_ok(!ltt_rbuf_end(&r) && !b.clock_known && !b.clock_why[0],
	       "minor 19: decoded without a clock");
	ltt_wbuf_reset(&w);
	ltt_proto_put_session_info(&w, &a, LTT_CLIENT_MINOR_CLOCK);
	tap_is_int((long long)(w.len - old_len), 4 + 4 + (long long)strlen(a.clock_why) + 1,
		   "minor 20: then {u32 clock_kind, str clock_why}");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_session_info(&r, &b, LTT_CLIENT_MINOR_CLOCK);
	tap_ok(!ltt_rbuf_end(&r) && b.clock_known && b.clock_kind == LTT_TCLOCK_TSC_LFENCE &&
	       !strcmp(b.clock_why, a.clock_why),
	       "minor 20: decoded with the clock, how it is read and why");
	ltt_wbuf_fini(&w);
}

/*
 * A trigger info ends with its actions' waiting runs from minor 21 on; a
 * minor-20 peer's bytes are as before, and it reads none waiting.
 */
static void test_trigger_info_pending(void)
{
	struct ltt_trigger_desc a, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t old_len;

	memset(&a, 0, sizeof(a));
	strcpy(a.conf.name, "half");
	a.conf.cond = LTT_CONDITION_SESSION_ROTATION_STARTS;
	strcpy(a.conf.session, "s");
	a.conf.nr_actions = 2;
	a.conf.actions[0].type = LTT_ACTION_NOTIFY;
	a.conf.actions[1].type = LTT_ACTION_ROTATE_SESSION;
	strcpy(a.conf.actions[1].session, "s");
	a.conf.actions[0].rate_count = a.conf.actions[1].rate_count = 1;
	a.runs[1] = 3;
	a.pending[1] = 2;
	a.pending_since = 1764125000;
	ltt_wbuf_init(&w);
	ltt_trigger_desc_put(&w, &a, LTT_CLIENT_MINOR_PENDING - 1);
	old_len = w.len;
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_desc_get(&r, &b, LTT_CLIENT_MINOR_PENDING - 1);
	tap_ok(!ltt_rbuf_end(&r) && b.runs[1] == 3 && !b.pending[1] && !b.pending_since,
	       "minor 20: a trigger info decoded without waiting runs");
	ltt_wbuf_reset(&w);
	ltt_trigger_desc_put(&w, &a, LTT_CLIENT_MINOR_PENDING);
	tap_is_int((long long)(w.len - old_len), 8 + 2 * 4,
		   "minor 21: then {i64 pending_since, u32 pending per action}");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_desc_get(&r, &b, LTT_CLIENT_MINOR_PENDING);
	tap_ok(!ltt_rbuf_end(&r) && b.pending[0] == 0 && b.pending[1] == 2 &&
	       b.pending_since == a.pending_since,
	       "minor 21: decoded with each action's waiting runs and since when");
	ltt_wbuf_fini(&w);
}

static void test_session_info(void)
{
	const struct object_ops *ops = &ops_session_info;
	struct ltt_session_desc s;
	struct ltt_wbuf w;

	memset(&s, 0, sizeof(s));
	check_object(ops, &s, "all zero");
	fill(s.name, LTT_NAME_MAX - 1, 'n');
	s.id = UINT64_MAX;
	strcpy(s.uuid, "0123abcd-4567-89ef-0123-456789abcdef");
	s.uid = (uid_t)UINT32_MAX;
	s.active = true;
	s.snapshot = true;
	s.live_timer_us = 1000000;
	s.output_type = LTT_OUTPUT_NET;
	fill(s.output, LTT_PATH_MAX - 1, 'o');
	s.creation_time = INT64_MIN;
	check_object(ops, &s, "extreme values");
	s.creation_time = 1700000000;
	s.uid = 1000;
	s.active = false;
	check_object(ops, &s, "ordinary values");

	ltt_wbuf_init(&w);
	put_raw_session_info(&w, "0123abcd-4567-89ef-0123-456789abcdef0", 0, 0, LTT_OUTPUT_LOCAL);
	check_malformed(ops, &w, "a 37-character uuid");

	put_raw_session_info(&w, "u", 2, 0, LTT_OUTPUT_LOCAL);
	check_malformed(ops, &w, "active 2");

	put_raw_session_info(&w, "u", 0, 0xff, LTT_OUTPUT_LOCAL);
	check_malformed(ops, &w, "snapshot 255");

	put_raw_session_info(&w, "u", 0, 0, 3);
	check_malformed(ops, &w, "output type 3");

	put_raw_session_info_clock(&w, "u", 0, 0, LTT_OUTPUT_LOCAL, LTT_TCLOCK_KIND_MAX + 1);
	check_malformed(ops, &w, "clock kind 3");
	ltt_wbuf_fini(&w);
}

/* One channel attr on the wire, with the given name, overwrite flag and buffer type. */
static void put_raw_channel_attr(struct ltt_wbuf *w, const char *name, uint8_t overwrite,
				 uint32_t buffer_type)
{
	ltt_wbuf_put_str(w, name);
	ltt_wbuf_put_u64(w, 4096);
	ltt_wbuf_put_u64(w, 4);
	ltt_wbuf_put_u8(w, overwrite);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u32(w, buffer_type);
}

/* One channel info on the wire: @domain, channel "c" of @buffer_type, @enabled, no losses. */
static void put_raw_channel_info(struct ltt_wbuf *w, uint32_t domain, uint32_t buffer_type,
				 uint8_t enabled)
{
	ltt_wbuf_put_u32(w, domain);
	put_raw_channel_attr(w, "c", 0, buffer_type);
	ltt_wbuf_put_u8(w, enabled);
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u64(w, 0);
}

static void test_channels(void)
{
	struct ltt_channel_desc c;
	struct ltt_wbuf w;
	char big[LTT_NAME_MAX + 1];
	int t;

	memset(&c, 0, sizeof(c));
	check_object(&ops_channel_attr, &c.attr, "all zero");
	fill(c.attr.name, LTT_NAME_MAX - 1, 'c');
	c.attr.subbuf_size = UINT64_MAX;
	c.attr.num_subbuf = (uint64_t)1 << 63;
	c.attr.overwrite = true;
	c.attr.switch_timer_us = UINT32_MAX;
	c.attr.read_timer_us = 1;
	c.attr.tracefile_size = 123456789;
	c.attr.tracefile_count = 42;
	for (t = LTT_BUFFER_DEFAULT; t <= LTT_BUFFER_GLOBAL; t++) {
		c.attr.buffer_type = t;
		check_object(&ops_channel_attr, &c.attr, ltt_buffer_type_name(t));
	}
	c.domain = LTT_DOMAIN_KERNEL;
	c.enabled = true;
	c.discarded_events = UINT64_MAX;
	c.lost_packets = 7;
	check_object(&ops_channel_info, &c, "kernel");
	c.domain = LTT_DOMAIN_USER;
	c.enabled = false;
	check_object(&ops_channel_info, &c, "user");
	c.domain = LTT_DOMAIN_JUL;
	check_object(&ops_channel_info, &c, "JUL");
	c.domain = LTT_DOMAIN_LOG4J;
	check_object(&ops_channel_info, &c, "log4j");
	c.domain = LTT_DOMAIN_PYTHON;
	check_object(&ops_channel_info, &c, "python");

	ltt_wbuf_init(&w);
	put_raw_channel_attr(&w, "c", 2, LTT_BUFFER_PER_UID);
	check_malformed(&ops_channel_attr, &w, "overwrite 2");
	put_raw_channel_attr(&w, "c", 0, LTT_BUFFER_GLOBAL + 1);
	check_malformed(&ops_channel_attr, &w, "buffer type 4");
	fill(big, LTT_NAME_MAX, 'c');
	put_raw_channel_attr(&w, big, 0, LTT_BUFFER_PER_UID);
	check_malformed(&ops_channel_attr, &w, "a 256-byte name");

	put_raw_channel_info(&w, LTT_DOMAIN_NONE, LTT_BUFFER_PER_UID, 1);
	check_malformed(&ops_channel_info, &w, "domain 0");
	put_raw_channel_info(&w, LTT_DOMAIN_PYTHON + 1, LTT_BUFFER_PER_UID, 1);
	check_malformed(&ops_channel_info, &w, "domain 6 (past the last)");
	put_raw_channel_info(&w, 99, LTT_BUFFER_PER_UID, 1);
	check_malformed(&ops_channel_info, &w, "domain 99");
	put_raw_channel_info(&w, LTT_DOMAIN_USER, LTT_BUFFER_PER_UID, 2);
	check_malformed(&ops_channel_info, &w, "enabled 2");
	put_raw_channel_info(&w, LTT_DOMAIN_USER, 9, 1);
	check_malformed(&ops_channel_info, &w, "a bad buffer type inside");
	ltt_wbuf_fini(&w);
}

/* A raw relay_info with @domain and @state, the rest zero. */
static void put_raw_relay_info(struct ltt_wbuf *w, uint32_t domain, uint32_t state)
{
	ltt_wbuf_put_u32(w, domain);
	ltt_wbuf_put_u32(w, state);
	ltt_wbuf_put_u32(w, 0);
	ltt_wbuf_put_str(w, "");
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u64(w, 0);
	ltt_wbuf_put_u64(w, 0);
}

static void test_relay_info(void)
{
	struct ltt_relay_desc ri;
	struct ltt_wbuf w;

	memset(&ri, 0, sizeof(ri));
	ri.domain = LTT_DOMAIN_USER;
	check_object(&ops_relay_info, &ri, "not connected yet");
	ri.state = LTT_RELAY_STATE_CONNECTED;
	fill(ri.output_path, LTT_PATH_MAX - 1, 'p');
	ri.packets_sent = UINT64_MAX;
	ri.bytes_sent = 1ULL << 40;
	ri.packets_lost = 3;
	check_object(&ops_relay_info, &ri, "connected, a 4095-byte path");
	ri.domain = LTT_DOMAIN_KERNEL;
	ri.state = LTT_RELAY_STATE_LOST;
	ri.error = ECONNRESET;
	check_object(&ops_relay_info, &ri, "kernel, lost");

	ltt_wbuf_init(&w);
	put_raw_relay_info(&w, LTT_DOMAIN_NONE, LTT_RELAY_STATE_NONE);
	check_malformed(&ops_relay_info, &w, "domain 0");
	put_raw_relay_info(&w, LTT_DOMAIN_USER, LTT_RELAY_STATE_LOST + 1);
	check_malformed(&ops_relay_info, &w, "state 3");
	ltt_wbuf_fini(&w);
}

/* The two strings that end a rule attribute from minor 7 on: none. */
static void put_no_filter(struct ltt_wbuf *w)
{
	ltt_wbuf_put_str(w, "");
	ltt_wbuf_put_str(w, "");
}

/* A rule attribute on the wire up to its filter: a tracepoint rule. */
static void put_raw_rule_head(struct ltt_wbuf *w, const char *pattern, uint32_t loglevel_type,
			      uint32_t loglevel)
{
	ltt_wbuf_put_str(w, pattern);
	ltt_wbuf_put_u32(w, loglevel_type);
	ltt_wbuf_put_u32(w, loglevel);
	ltt_wbuf_put_u32(w, LTT_EVENT_TRACEPOINT);
}

/* A rule info on the wire: rule "p" of every log level, no filter, in @channel. */
static void put_raw_rule_info(struct ltt_wbuf *w, uint32_t domain, const char *channel,
			      uint8_t enabled)
{
	ltt_wbuf_put_u32(w, domain);
	ltt_wbuf_put_str(w, channel);
	put_raw_rule_head(w, "p", LTT_LOGLEVEL_ALL, 0);
	put_no_filter(w);
	ltt_wbuf_put_u8(w, enabled);
}

/* A minor-6 peer's rules have no filter or exclusions: the same bytes as before. */
static void test_rules_minor6(void)
{
	struct ltt_rule_conf a = { .pattern = "p:*", .filter = "x > 1", .exclusions = "p:a" }, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_proto_put_rule_attr(&w, &a, 6);
	tap_is_int((long long)w.len, 4 + 4 + 4 + 4 + 4, "minor 6: a rule attr ends with its type");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rule_attr(&r, &b, 6);
	tap_ok(!ltt_rbuf_end(&r) && !b.filter[0] && !b.exclusions[0] && !strcmp(b.pattern, "p:*"),
	       "minor 6: decoded without filter or exclusions");
	w.len = 0;
	ltt_proto_put_rule_attr(&w, &a, LTT_CLIENT_MINOR_FILTER);
	tap_is_int((long long)w.len, 4 + 4 + 4 + 4 + 4 + 4 + 6 + 4 + 4,
		   "minor 7: then {str filter, str exclusions}");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rule_attr(&r, &b, LTT_CLIENT_MINOR_FILTER);
	tap_ok(!ltt_rbuf_end(&r) && !strcmp(b.filter, "x > 1") && !strcmp(b.exclusions, "p:a"),
	       "minor 7: decoded with them");
	ltt_wbuf_fini(&w);
}

/* A minor-0 peer's rules have no type: tracepoint rules, the same bytes. */
static void test_rules_minor0(void)
{
	struct ltt_rule_conf a = { .pattern = "sched_*", .type = LTT_EVENT_SYSCALL }, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_proto_put_rule_attr(&w, &a, 0);
	tap_is_int((long long)w.len, 4 + 8 + 4 + 4, "minor 0: a rule attr has no type");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rule_attr(&r, &b, 0);
	tap_ok(!ltt_rbuf_end(&r) && b.type == LTT_EVENT_TRACEPOINT && !strcmp(b.pattern, "sched_*"),
	       "minor 0: decoded as a tracepoint rule");
	w.len = 0;
	ltt_proto_put_rule_attr(&w, &a, 1);
	w.len -= 4;
	ltt_wbuf_put_u32(&w, 2);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rule_attr(&r, &b, 1);
	tap_ok(ltt_rbuf_end(&r) != 0, "minor 1: an unknown event type is malformed");
	ltt_wbuf_fini(&w);
}

static void test_rules(void)
{
	struct ltt_rule_desc e;
	struct ltt_wbuf w;
	char big[LTT_NAME_MAX + 1];
	int t, level;

	memset(&e, 0, sizeof(e));
	check_object(&ops_rule_attr, &e.attr, "all zero");
	fill(e.attr.pattern, LTT_NAME_MAX - 1, 'p');
	for (t = LTT_LOGLEVEL_ALL; t <= LTT_LOGLEVEL_SINGLE; t++) {
		for (level = LTT_LOGLEVEL_EMERG; level <= LTT_LOGLEVEL_DEBUG; level += 7) {
			char what[48];

			e.attr.loglevel_type = t;
			e.attr.loglevel = level;
			snprintf(what, sizeof(what), "type %d level %d", t, level);
			check_object(&ops_rule_attr, &e.attr, what);
		}
	}
	e.attr.type = LTT_EVENT_SYSCALL;
	check_object(&ops_rule_attr, &e.attr, "a system call rule");
	e.attr.type = LTT_EVENT_TRACEPOINT;
	fill(e.attr.filter, LTT_FILTER_MAX - 1, 'f');
	fill(e.attr.exclusions, LTT_EXCLUSIONS_MAX - 1, 'x');
	check_object(&ops_rule_attr, &e.attr, "a filter and exclusions of the largest sizes");
	strcpy(e.attr.filter, "a == \"b*\"");
	strcpy(e.attr.exclusions, "p:a,p:b");
	e.domain = LTT_DOMAIN_USER;
	fill(e.channel, LTT_NAME_MAX - 1, 'c');
	e.enabled = true;
	check_object(&ops_rule_info, &e, "user");
	e.domain = LTT_DOMAIN_KERNEL;
	e.enabled = false;
	check_object(&ops_rule_info, &e, "kernel");
	/* any 32-bit level: the rule's domain bounds it (test_attr) */
	e.attr.loglevel_type = LTT_LOGLEVEL_RANGE;
	e.attr.loglevel = INT32_MIN;
	e.domain = LTT_DOMAIN_JUL;
	check_object(&ops_rule_info, &e, "JUL, level ALL (INT32_MIN)");
	e.attr.loglevel = INT32_MAX;
	e.domain = LTT_DOMAIN_LOG4J;
	check_object(&ops_rule_info, &e, "log4j, level OFF (INT32_MAX)");
	e.attr.loglevel = LTT_PYTHON_LOGLEVEL_MAX + 1;
	e.domain = LTT_DOMAIN_PYTHON;
	check_object(&ops_rule_info, &e, "python, a level over LTT_PYTHON_LOGLEVEL_MAX");
	e.attr.loglevel = -1;
	e.domain = LTT_DOMAIN_USER;
	check_object(&ops_rule_info, &e, "user, level -1");

	ltt_wbuf_init(&w);
	put_raw_rule_head(&w, "p", LTT_LOGLEVEL_SINGLE + 1, 0);
	put_no_filter(&w);
	check_malformed(&ops_rule_attr, &w, "log level type 3");
	fill(big, LTT_NAME_MAX, 'p');
	put_raw_rule_head(&w, big, LTT_LOGLEVEL_ALL, 0);
	put_no_filter(&w);
	check_malformed(&ops_rule_attr, &w, "a 256-byte pattern");

	put_raw_rule_info(&w, 0, "c", 1);
	check_malformed(&ops_rule_info, &w, "domain 0");
	put_raw_rule_info(&w, LTT_DOMAIN_PYTHON + 1, "c", 1);
	check_malformed(&ops_rule_info, &w, "domain 6 (past the last)");
	put_raw_rule_info(&w, LTT_DOMAIN_USER, big, 1);
	check_malformed(&ops_rule_info, &w, "a 256-byte channel name");
	put_raw_rule_info(&w, LTT_DOMAIN_USER, "c", 2);
	check_malformed(&ops_rule_info, &w, "enabled 2");
	ltt_wbuf_fini(&w);
	put_raw_rule_head(&w, "p", LTT_LOGLEVEL_ALL, 0);
	{
		static char long_filter[LTT_FILTER_MAX + 1];

		fill(long_filter, LTT_FILTER_MAX, 'f');
		ltt_wbuf_put_str(&w, long_filter);
	}
	ltt_wbuf_put_str(&w, "");
	check_malformed(&ops_rule_attr, &w, "a filter of LTT_FILTER_MAX bytes");
	put_raw_rule_head(&w, "p", LTT_LOGLEVEL_ALL, 0);
	ltt_wbuf_put_str(&w, "");
	check_malformed(&ops_rule_attr, &w, "minor 7: no exclusions string");
	ltt_wbuf_fini(&w);
}

/*
 * More than 16 captures from minor 33 on: a trigger's and a
 * notification's whole; an older peer (whose decoder takes 16) is sent
 * the first 16.
 */
static void test_captures_minor(void)
{
	static struct ltt_trigger_conf a, b;
	struct ltt_notif_desc n = { .trigger = "t", .cond = LTT_CONDITION_EVENT_RULE_MATCHES,
				    .session = "", .event = "e", .path = "" }, m;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t i;

	strcpy(a.name, "caps");
	a.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	a.domain = LTT_DOMAIN_USER;
	strcpy(a.rule.pattern, "p:e");
	a.nr_captures = 40;
	for (i = 0; i < 40; i++) {
		snprintf(a.captures[i], sizeof(a.captures[i]), "c%u", i);
		n.captures[i] = (struct ltt_capture_desc){ .type = LTT_CAPTURE_UNSIGNED, .bits = i };
	}
	n.nr_captures = 40;
	ltt_wbuf_init(&w);
	ltt_trigger_put(&w, &a, LTT_CLIENT_MINOR_CAPTURES);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_CAPTURES);
	tap_ok(!ltt_rbuf_end(&r) && b.nr_captures == 40 && !strcmp(b.captures[39], "c39"),
	       "minor 33: a trigger of 40 captures, whole");
	ltt_wbuf_reset(&w);
	ltt_trigger_put(&w, &a, LTT_CLIENT_MINOR_CAPTURES - 1);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_CAPTURES - 1);
	tap_ok(!ltt_rbuf_end(&r) && b.nr_captures == 16 && !strcmp(b.captures[15], "c15"),
	       "minor 32: its first 16, what an older decoder takes");
	ltt_wbuf_reset(&w);
	ltt_notif_put(&w, &n, LTT_CLIENT_MINOR_CAPTURES);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_notif_get(&r, &m);
	tap_ok(!ltt_rbuf_end(&r) && m.nr_captures == 40 && m.captures[39].bits == 39,
	       "minor 33: a notification of 40 captures, whole");
	ltt_wbuf_reset(&w);
	ltt_notif_put(&w, &n, LTT_CLIENT_MINOR_CAPTURES - 1);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_notif_get(&r, &m);
	tap_ok(!ltt_rbuf_end(&r) && m.nr_captures == 16 && m.captures[15].bits == 15,
	       "minor 32: its first 16");
	a.nr_captures = LTT_TRIGGER_CAPTURES_LIMIT + 1;
	ltt_wbuf_reset(&w);
	ltt_trigger_put(&w, &a, LTT_CLIENT_MINOR_CAPTURES);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_CAPTURES);
	tap_ok(!ltt_rbuf_end(&r) && b.nr_captures == LTT_TRIGGER_CAPTURES_LIMIT,
	       "an encoder sends no more than LTT_TRIGGER_CAPTURES_LIMIT");
	ltt_wbuf_fini(&w);
}

/* A trigger's probe rule: from client minor 36 on; refused by an older decoder. */
static void test_probe_trigger_minor(void)
{
	struct ltt_trigger_conf a = { .owner_uid = -1 }, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	strcpy(a.name, "up");
	a.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	a.domain = LTT_DOMAIN_KERNEL;
	a.rule.type = LTT_EVENT_UPROBE;
	strcpy(a.rule.pattern, "target");
	strcpy(a.rule.location, "elf:/bin/true:main");
	ltt_wbuf_init(&w);
	ltt_trigger_put(&w, &a, LTT_CLIENT_MINOR_PROBE_TRIGGER);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_PROBE_TRIGGER);
	tap_ok(!ltt_rbuf_end(&r) && b.rule.type == LTT_EVENT_UPROBE &&
	       !strcmp(b.rule.pattern, "target") && !strcmp(b.rule.location, "elf:/bin/true:main"),
	       "minor 36: a uprobe trigger's rule, its type and location");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_PROBE_TRIGGER - 1);
	tap_ok(ltt_rbuf_end(&r), "minor 35: a probe rule does not decode (PROTOCOL)");
	a.rule.type = LTT_EVENT_SYSCALL;
	strcpy(a.rule.location, "exit");
	ltt_wbuf_reset(&w);
	ltt_trigger_put(&w, &a, LTT_CLIENT_MINOR_PROBE_TRIGGER - 1);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_get(&r, &b, LTT_CLIENT_MINOR_PROBE_TRIGGER - 1);
	tap_ok(!ltt_rbuf_end(&r) && b.rule.type == LTT_EVENT_SYSCALL && !strcmp(b.rule.location, "exit"),
	       "minor 35: a system call rule's site still decodes");
	ltt_wbuf_fini(&w);
}

/*
 * Minor 35: ADD_TRIGGER's flags after its trigger, and a trigger's actions'
 * output flags after its location; a minor-34 peer's bytes are as before
 * and it reads neither.
 */
static void test_trigger_flags_minor(void)
{
	static struct ltt_trigger_conf a, b;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t flags = 7;
	size_t old_len;

	strcpy(a.name, "pair");
	a.cond = LTT_CONDITION_SESSION_ROTATION_STARTS;
	strcpy(a.session, "s");
	a.nr_actions = 2;
	a.actions[0].type = LTT_ACTION_NOTIFY;
	a.actions[1].type = LTT_ACTION_SNAPSHOT_SESSION;
	strcpy(a.actions[1].session, "s");
	a.actions[0].rate_count = a.actions[1].rate_count = 1;
	a.actions[1].has_output = true;
	a.actions[1].output.output_type = LTT_OUTPUT_NET;
	strcpy(a.actions[1].output.output, "net://127.0.0.1:1111:1112");
	a.actions[1].output_flags = LTT_TRIGGER_OUTPUT_PAIR;
	ltt_wbuf_init(&w);
	ltt_trigger_add_put(&w, &a, LTT_TRIGGER_FLAG_LTTNG, LTT_CLIENT_MINOR_ADD_FLAGS - 1);
	old_len = w.len;
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_add_get(&r, &b, &flags, LTT_CLIENT_MINOR_ADD_FLAGS - 1);
	tap_ok(!ltt_rbuf_end(&r) && !flags && !b.actions[1].output_flags &&
	       !strcmp(b.actions[1].output.output, a.actions[1].output.output),
	       "minor 34: an ADD_TRIGGER without flags, its output a net URL");
	ltt_wbuf_reset(&w);
	ltt_trigger_add_put(&w, &a, LTT_TRIGGER_FLAG_LTTNG, LTT_CLIENT_MINOR_ADD_FLAGS);
	tap_is_int((long long)(w.len - old_len), 2 * 4 + 4,
		   "minor 35: then {u32 output_flags per action}, {u32 flags}");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_trigger_add_get(&r, &b, &flags, LTT_CLIENT_MINOR_ADD_FLAGS);
	tap_ok(!ltt_rbuf_end(&r) && flags == LTT_TRIGGER_FLAG_LTTNG && !b.actions[0].output_flags &&
	       b.actions[1].output_flags == LTT_TRIGGER_OUTPUT_PAIR && !ltt_trigger_check(&b),
	       "minor 35: decoded with the flag and the pair's output flag");
	b.actions[1].output_flags = 0x2;
	tap_is_int(ltt_trigger_check(&b), LTT_ERR_TRIGGER_ACTION, "an unknown output flag is refused");
	b.actions[1].output_flags = LTT_TRIGGER_OUTPUT_PAIR;
	b.actions[1].output.output_type = LTT_OUTPUT_LOCAL;
	strcpy(b.actions[1].output.output, "/tmp");
	tap_is_int(ltt_trigger_check(&b), LTT_ERR_TRIGGER_ACTION, "... and a pair's local output");
	ltt_wbuf_fini(&w);
}

int main(void)
{
	test_probe_trigger_minor();
	test_captures_minor();
	test_trigger_flags_minor();
	test_session_attr();
	test_session_info();
	test_session_info_clock();
	test_trigger_info_pending();
	test_channels();
	test_rules();
	test_rules_minor0();
	test_rules_minor6();
	test_relay_info();
	return tap_done();
}
