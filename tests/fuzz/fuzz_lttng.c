// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_lttng.c - LTTng 2.13's client protocol (common/proto/
 * lttng-client-proto.h) as ltt-sessiond --lttng-compat receives it from
 * any local user: the fixed request and the size of its variable part,
 * the objects of the variable parts (a channel, an event, a session
 * descriptor, a URI, a perf counter context, a kernel probe's
 * attributes, a user-space probe's location), LTTng's serialized
 * triggers, conditions and error queries (common/proto/
 * lttng-trigger-proto.h) and notification channel message headers (what a
 * trigger command or the notification channel receives: a trigger the
 * decoders accept encodes back into one they read the same), and an
 * agent rule's filter as LTTng's client composes it, taken apart again.
 *
 * Input: byte 0 below 0x40 selects an object decoder, the rest is its
 * bytes; from 0x40 to 0x5f, the rest is an agent rule (its logger name,
 * NUL, a log level type byte, a 4-byte level, the user's filter); from
 * 0x60 to 0x7f, a user-space probe's location; from 0x80 on, the rest is
 * the start of a fixed request, the remainder of its 13,156 bytes zero.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "fuzz.h"

/*
 * The trigger decoders as codecs, in each generation's layout (2.16's
 * kprobe rule has its site): accepted is 0 and read to the end.
 */
#define TRIGGER_PAIRS(gen, g) \
	static int get_trigger_##g(struct ltt_rbuf *r, struct ltt_trigger_conf *c) \
	{ \
		bool hidden; \
		return ltt_lttng_trigger_get(r, gen, c, &hidden, NULL) || ltt_rbuf_end(r) ? -1 : 0; \
	} \
	static void put_trigger_##g(struct ltt_wbuf *w, const struct ltt_trigger_conf *c) \
	{ \
		FUZZ_CHECK(!ltt_lttng_trigger_put(w, gen, c)); \
	} \
	static int get_condition_##g(struct ltt_rbuf *r, struct ltt_trigger_conf *c) \
	{ \
		return ltt_lttng_condition_get(r, gen, c, NULL) || ltt_rbuf_end(r) ? -1 : 0; \
	} \
	static void put_condition_##g(struct ltt_wbuf *w, const struct ltt_trigger_conf *c) \
	{ \
		FUZZ_CHECK(!ltt_lttng_condition_put(w, gen, c)); \
	}
TRIGGER_PAIRS(LTT_LTTNG_GEN_2_13, 213)
TRIGGER_PAIRS(LTT_LTTNG_GEN_2_16, 216)

static int get_query(struct ltt_rbuf *r, struct ltt_lttng_error_query *q)
{
	return ltt_lttng_error_query_get(r, LTT_LTTNG_GEN_2_13, q, NULL) || ltt_rbuf_end(r) ? -1 : 0;
}

static void put_query(struct ltt_wbuf *w, const struct ltt_lttng_error_query *q)
{
	uint32_t i;

	ltt_wbuf_put_u8(w, q->target);
	FUZZ_CHECK(!ltt_lttng_trigger_put(w, LTT_LTTNG_GEN_2_13, &q->trigger));
	if (q->target != LTT_LTTNG_QUERY_ACTION)
		return;
	ltt_wbuf_put_u32(w, q->nr_path);
	for (i = 0; i < q->nr_path; i++)
		ltt_wbuf_put_u64(w, q->path[i]);
}

FUZZ_CODEC(trigger, struct ltt_trigger_conf, get_trigger_213, put_trigger_213, false);
FUZZ_CODEC(trigger216, struct ltt_trigger_conf, get_trigger_216, put_trigger_216, false);
FUZZ_CODEC(condition, struct ltt_trigger_conf, get_condition_213, put_condition_213, false);
FUZZ_CODEC(condition216, struct ltt_trigger_conf, get_condition_216, put_condition_216, false);
FUZZ_CODEC(query, struct ltt_lttng_error_query, get_query, put_query, false);
FUZZ_CODEC_VOID(notif_hdr, struct ltt_lttng_notif_hdr, ltt_lttng_notif_hdr_get,
		ltt_lttng_notif_hdr_put, true);

/* The objects whose layout a generation changed: each generation's. */
#define GEN_PAIR(name, type, gen, g) \
	static void get_##name##_##g(struct ltt_rbuf *r, type *ret) \
	{ \
		ltt_lttng_get_##name(r, gen, ret); \
	} \
	static void put_##name##_##g(struct ltt_wbuf *w, const type *m) \
	{ \
		ltt_lttng_put_##name(w, gen, m); \
	}
GEN_PAIR(channel, struct ltt_lttng_channel, LTT_LTTNG_GEN_2_13, 213)
GEN_PAIR(channel, struct ltt_lttng_channel, LTT_LTTNG_GEN_2_16, 216)
GEN_PAIR(descriptor, struct ltt_lttng_descriptor, LTT_LTTNG_GEN_2_13, 213)
GEN_PAIR(descriptor, struct ltt_lttng_descriptor, LTT_LTTNG_GEN_2_16, 216)

/* 2.13's channel leaves 2.16's members zero: canonical all the same */
FUZZ_CODEC_VOID(channel, struct ltt_lttng_channel, get_channel_213, put_channel_213, true);
FUZZ_CODEC_VOID(channel216, struct ltt_lttng_channel, get_channel_216, put_channel_216, true);
FUZZ_CODEC_VOID(event, struct ltt_lttng_event, ltt_lttng_get_event, ltt_lttng_put_event, true);
FUZZ_CODEC_VOID(descriptor, struct ltt_lttng_descriptor, get_descriptor_213, put_descriptor_213,
		true);
FUZZ_CODEC_VOID(descriptor216, struct ltt_lttng_descriptor, get_descriptor_216,
		put_descriptor_216, true);
/* a fixed array's bytes after its NUL are not read back: not canonical */
FUZZ_CODEC_VOID(uri, struct ltt_lttng_uri, ltt_lttng_get_uri, ltt_lttng_put_uri, false);
FUZZ_CODEC_VOID(perf_counter, struct ltt_lttng_perf_counter, ltt_lttng_get_perf_counter,
		ltt_lttng_put_perf_counter, true);

FUZZ_CODEC_VOID(probe_attr, struct ltt_lttng_probe_attr, ltt_lttng_get_probe_attr,
		ltt_lttng_put_probe_attr, true);

static const struct ltt_fuzz_codec *const codecs[] = {
	&channel, &channel216, &event, &descriptor, &descriptor216, &uri, &trigger, &trigger216,
	&condition, &condition216, &query, &notif_hdr, &perf_counter, &probe_attr,
};

/* @c's seed number @nr of @m: its first byte @c's place in codecs[], which picks it. */
static void seed(ltt_fuzz_emit_fn emit, const struct ltt_fuzz_codec *c, unsigned int nr,
		 const void *m)
{
	uint8_t i;

	for (i = 0; i < FUZZ_ARRAY_SIZE(codecs) && codecs[i] != c; i++)
		;
	ltt_fuzz_codec_seed(emit, c, i, nr, m);
}

/*
 * An agent rule's filter composed as LTTng's client does, then its
 * user's part taken back: the user's filter again, whenever the logger
 * name is one LTTng's client sends (a symbol, shorter than 256 bytes).
 */
static void check_agent_filter(const uint8_t *data, size_t size)
{
	char *name, *user, *composed;
	const uint8_t *nul = memchr(data, '\0', size);
	size_t nlen, ulen;
	int8_t ll_type;
	int32_t level;

	if (!nul || (size_t)(nul - data) + 6 > size)
		return;
	nlen = (size_t)(nul - data);
	ll_type = (int8_t)(nul[1] % 3);
	memcpy(&level, nul + 2, 4);
	ulen = size - nlen - 6;
	name = strndup((const char *)data, nlen);
	user = strndup((const char *)nul + 6, ulen);
	composed = malloc(4097);
	if (!name || !user || !composed)
		abort();
	if (nlen < LTT_LTTNG_SYMBOL_LEN &&
	    !ltt_lttng_agent_filter(user, name, ll_type, level, composed, 4097)) {
		ltt_lttng_agent_user_filter(composed, name, ll_type, level);
		FUZZ_CHECK(!strcmp(composed, user));
	}
	free(name);
	free(user);
	free(composed);
}

/* What the daemon reads of a fixed request, and how much it then waits for. */
static void check_request(const uint8_t *data, size_t size)
{
	uint8_t *msg = calloc(1, LTT_LTTNG_MSG_SIZE);	/* exactly the request: ASan sees overreads */
	struct ltt_lttng_req req;
	size_t extra;
	int ret;

	if (!msg)
		abort();
	memcpy(msg, data, size < LTT_LTTNG_MSG_SIZE ? size : LTT_LTTNG_MSG_SIZE);
	memset(&req, 0, sizeof(req));
	/* the byte after the request picks the client's generation */
	ret = ltt_lttng_get_req(msg, size > LTT_LTTNG_MSG_SIZE ? data[LTT_LTTNG_MSG_SIZE] % 5 : 0,
				&req);
	if (!ret) {
		FUZZ_CHECK(ltt_lttng_cmd_name(req.cmd));
		FUZZ_CHECK(memchr(req.session, '\0', sizeof(req.session)));
		FUZZ_CHECK(memchr(req.channel, '\0', sizeof(req.channel)));
		if (!ltt_lttng_req_extra(&req, &extra))
			FUZZ_CHECK(extra <= LTT_LTTNG_EXTRA_MAX);
	} else {
		FUZZ_CHECK(ret == -EPROTO || ret == -EPROTONOSUPPORT ||
			   (ret == -ENOSYS && !ltt_lttng_cmd_name(req.cmd)));
	}
	free(msg);
}

/* A user-space probe's location, all of @data: ltt's location text of it, or refused. */
static void check_uprobe(const uint8_t *data, size_t size)
{
	uint8_t *copy = malloc(size ? size : 1);	/* exactly the bytes: ASan sees overreads */
	char buf[LTT_LTTNG_PATH_MAX + 600];
	struct ltt_rbuf r;
	int ret;

	if (!copy)
		abort();
	memcpy(copy, data, size);
	ltt_rbuf_init(&r, copy, size);
	ret = ltt_lttng_get_uprobe(&r, (uint32_t)size, buf, sizeof(buf));
	if (!ret) {
		FUZZ_CHECK(!r.err && r.pos == size);
		FUZZ_CHECK(!strncmp(buf, "elf:", 4) || !strncmp(buf, "sdt:", 4));
	} else {
		FUZZ_CHECK(ret == -EPROTO || ret == -ENAMETOOLONG);
	}
	free(copy);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] < 0x40)
		ltt_fuzz_codec_pick(codecs, FUZZ_ARRAY_SIZE(codecs), data, size);
	else if (data[0] < 0x60)
		check_agent_filter(data + 1, size - 1);
	else if (data[0] < 0x80)
		check_uprobe(data + 1, size - 1);
	else
		check_request(data + 1, size - 1);
	return 0;
}

/* The start of a fixed request: @cmd, session "s", @union_bytes at the union. */
static void seed_request(ltt_fuzz_emit_fn emit, const char *name, uint32_t cmd,
			 const void *union_bytes, size_t len)
{
	size_t size = 1 + LTT_LTTNG_OFF_UNION + len;
	uint8_t *buf = calloc(1, size);

	if (!buf)
		abort();
	buf[0] = 0x80;
	memcpy(buf + 1, &cmd, 4);	/* the host's order, as LTTng's */
	buf[1 + LTT_LTTNG_OFF_SESSION] = 's';
	memcpy(buf + 1 + LTT_LTTNG_OFF_UNION, union_bytes, len);
	emit(name, buf, size);
	free(buf);
}

/* A trigger of each condition LTTng has, and an error query and a message header. */
static void seed_triggers(ltt_fuzz_emit_fn emit)
{
	static struct ltt_trigger_conf c;
	static struct ltt_lttng_error_query q;
	struct ltt_lttng_notif_hdr h = { .type = LTT_LTTNG_NOTIF_SUBSCRIBE, .size = 40 };

	memset(&c, 0, sizeof(c));
	strcpy(c.name, "t1");
	c.cond = LTT_CONDITION_EVENT_RULE_MATCHES;
	c.domain = LTT_DOMAIN_USER;
	strcpy(c.rule.pattern, "prov:ev*");
	strcpy(c.rule.filter, "x > 3");
	strcpy(c.rule.exclusions, "prov:eva,prov:evb");
	c.rule.loglevel_type = LTT_LOGLEVEL_RANGE;
	c.rule.loglevel = 6;
	c.nr_captures = 3;
	strcpy(c.captures[0], "x");
	strcpy(c.captures[1], "arr[2]");
	strcpy(c.captures[2], "$ctx.vpid");
	c.nr_actions = 3;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_NOTIFY, .rate_count = 1 };
	c.actions[1] = (struct ltt_action_conf){ .type = LTT_ACTION_START_SESSION,
						 .rate_policy = LTT_RATE_ONCE_AFTER, .rate_count = 3,
						 .session = "s" };
	c.actions[2] = (struct ltt_action_conf){ .type = LTT_ACTION_SNAPSHOT_SESSION,
						 .rate_count = 1, .session = "s", .has_output = true,
						 .output = { .output_type = LTT_OUTPUT_LOCAL,
							     .output = "/tmp/snap" } };
	seed(emit, &trigger, 0, &c);
	q.target = LTT_LTTNG_QUERY_ACTION;
	q.trigger = c;
	q.nr_path = 1;
	q.path[0] = 2;
	seed(emit, &query, 0, &q);
	c.domain = LTT_DOMAIN_KERNEL;
	c.rule = (struct ltt_rule_conf){ .pattern = "myprobe", .type = LTT_EVENT_KPROBE,
					 .location = "do_sys_open+16" };
	c.nr_captures = 0;
	seed(emit, &trigger, 1, &c);
	seed(emit, &trigger216, 0, &c);
	/* 2.16's incr-map-value, its key template of literals and fields */
	c.domain = LTT_DOMAIN_USER;
	c.rule = (struct ltt_rule_conf){ .pattern = "prov:*", .type = LTT_EVENT_TRACEPOINT };
	c.nr_actions = 1;
	c.actions[0] = (struct ltt_action_conf){ .type = LTT_ACTION_INCR_MAP_VALUE, .rate_count = 1,
						 .session = "s", .map = "m", .key = "k_{event_name}_{provider_name}" };
	seed(emit, &trigger216, 1, &c);
	memset(&c, 0, sizeof(c));
	c.cond = LTT_CONDITION_BUFFER_USAGE_GE;
	c.domain = LTT_DOMAIN_USER;
	strcpy(c.session, "s");
	strcpy(c.channel, "channel0");
	c.threshold_ppm = 750000;
	seed(emit, &condition, 0, &c);
	c.cond = LTT_CONDITION_SESSION_CONSUMED_SIZE_GE;
	c.threshold_size = 1 << 20;
	seed(emit, &condition, 1, &c);
	c.cond = LTT_CONDITION_SESSION_ROTATION_FINISHES;
	seed(emit, &condition, 2, &c);
	seed(emit, &notif_hdr, 0, &h);
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_lttng_channel ch = { .name_len = 5, .enabled = 1, .overwrite = -1,
					.subbuf_size = 524288, .num_subbuf = 4, .output = 1,
					.monitor_timer_us = 1000000 };
	struct ltt_lttng_event ev = { .type = 0, .loglevel_type = 1, .loglevel = 6, .enabled = 1,
				      .name_len = 8, .exclusion_count = 1, .filter_len = 6 };
	struct ltt_lttng_descriptor d = { .type = 1, .output_type = 1, .name_len = 2,
					  .uri_count = 1 };
	static struct ltt_lttng_uri u = { .dtype = 3, .dst = "/tmp/lttng-traces/s" };
	struct ltt_lttng_perf_counter pc = { .type = 1, .config = 1, .name_len = 23 };
	struct ltt_lttng_probe_attr pa = { .offset = 4, .symbol_len = 17 };
	/* logger qa.app, a range (1) from level 30 (LE), the filter msg == "x" */
	/* a function's: type 0, lengths 5 and 9, "main", "/bin/app", lookup ELF (1) */
	static const char uprobe[] = "\x60\0\x05\0\0\0\x09\0\0\0main\0/bin/app\0\x01";
	static const char agent[] = "\x40qa.app\0\x01\x1e\0\0\0msg == \"x\"";
	uint8_t create[10] = { 0 }, enable[260] = { 0 };
	uint64_t dsize = 7 + 2 + LTT_LTTNG_URI_SIZE;
	uint32_t len = 43 + 8;

	seed(emit, &channel, 0, &ch);
	seed(emit, &event, 0, &ev);
	seed(emit, &descriptor, 0, &d);
	seed(emit, &uri, 0, &u);
	seed_triggers(emit);
	seed(emit, &perf_counter, 0, &pc);
	seed(emit, &probe_attr, 0, &pa);
	emit("agent-filter", (const uint8_t *)agent, sizeof(agent) - 1);
	emit("uprobe-elf", (const uint8_t *)uprobe, sizeof(uprobe) - 1);
	memcpy(create + 2, &dsize, 8);
	seed_request(emit, "request-create", 49, create, sizeof(create));
	memcpy(enable, "channel0", 8);
	memcpy(enable + 256, &len, 4);
	seed_request(emit, "request-enable-event", 6, enable, sizeof(enable));
	seed_request(emit, "request-list", 13, NULL, 0);
}
