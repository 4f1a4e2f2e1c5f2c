// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_proto_bytes_app.c - the app protocol's (app-proto.h) and LTTng's
 * agent protocol's (lagent-proto.h) messages pinned to the bytes and the
 * refusals of their hand-written encoders and decoders, captured before
 * field tables (codec.h) described them, as test_proto_bytes.c pins the
 * relay and live protocols.
 *
 * Each sample, encoded, gives the old encoder's bytes (their length and
 * FNV-1a hash).  Where ltt decodes the message, every mutant of those
 * bytes (each byte set to each of a few values, every truncation, one
 * byte more) is decoded and, when accepted, encoded again: the number
 * accepted and a hash of every outcome (the return code, the bytes that
 * the decoded values encode to) were captured from the old decoder too,
 * so a new one that accepts, refuses or reads one mutant differently
 * fails here.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/proto/lagent-proto.h"
#include "common/proto/lust-proto.h"
#include "common/proto/trigger-proto.h"
#include "tests/unit/ref-tp.h"
#include "tests/unit/tap.h"

struct pin {
	const char *name;
	void (*put)(struct ltt_wbuf *w);	/* the sample */
	/*
	 * Decode @len bytes at @p; on success encode what was decoded into
	 * @w.  NULL: ltt only sends the message.
	 */
	int (*reput)(const uint8_t *p, size_t len, struct ltt_wbuf *w);
	size_t len;		/* the old encoder's bytes: how many */
	uint64_t hash;		/* and their hash */
	uint32_t accepted;	/* mutants the old decoder accepted */
	uint64_t outcomes;	/* hash of every mutant's outcome */
};

static uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const uint8_t *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

#define FNV_INIT 0xcbf29ce484222325ULL

/* One mutant's outcome into *@h; returns whether it was accepted. */
static bool outcome(const struct pin *pin, const uint8_t *p, size_t len, uint64_t *h)
{
	uint8_t *copy = malloc(len ? len : 1);	/* exactly the mutant: ASan sees overreads */
	struct ltt_wbuf w;
	int32_t ret;

	if (!copy)
		abort();
	memcpy(copy, p, len);
	ltt_wbuf_init(&w);
	ret = pin->reput(copy, len, &w);
	*h = fnv1a(*h, &ret, sizeof(ret));
	if (!ret)
		*h = fnv1a(*h, w.data, w.len);
	ltt_wbuf_fini(&w);
	free(copy);
	return !ret;
}

static const uint8_t mutant_values[] = { 0x00, 0x01, 0x02, 0x10, 0x7f, 0x80, 0xff };

static void check(const struct pin *pin)
{
	uint64_t h = FNV_INIT;
	uint32_t accepted = 0;
	struct ltt_wbuf w;
	uint8_t *m;

	ltt_wbuf_init(&w);
	pin->put(&w);
	if (!tap_ok(!w.err && w.len == pin->len && fnv1a(FNV_INIT, w.data, w.len) == pin->hash,
		    "%s: the old encoder's bytes", pin->name))
		tap_diag("%s: %zu bytes, hash 0x%016" PRIx64, pin->name, w.len,
			 w.err ? 0 : fnv1a(FNV_INIT, w.data, w.len));
	if (!pin->reput || w.err) {
		ltt_wbuf_fini(&w);
		return;
	}
	m = malloc(w.len + 1);
	if (!m)
		abort();
	for (size_t i = 0; i < w.len; i++) {
		for (size_t v = 0; v < sizeof(mutant_values); v++) {
			memcpy(m, w.data, w.len);
			m[i] = mutant_values[v];
			accepted += outcome(pin, m, w.len, &h);
		}
		memcpy(m, w.data, w.len);
		m[i] ^= 0x01;
		accepted += outcome(pin, m, w.len, &h);
	}
	memcpy(m, w.data, w.len);
	for (size_t len = 0; len < w.len; len++)
		accepted += outcome(pin, m, len, &h);
	m[w.len] = 0;
	accepted += outcome(pin, m, w.len + 1, &h);
	m[w.len] = 0x01;
	accepted += outcome(pin, m, w.len + 1, &h);
	if (!tap_ok(accepted == pin->accepted && h == pin->outcomes,
		    "%s: the old decoder's refusals and values", pin->name))
		tap_diag("%s: %" PRIu32 " accepted, outcomes 0x%016" PRIx64, pin->name,
			 accepted, h);
	free(m);
	ltt_wbuf_fini(&w);
}

/* ---- the app protocol ---- */

/* Decode a whole @fn message; encode what it gave. */
#define REPUT(fn, type) \
	static int reput_##fn(const uint8_t *p, size_t len, struct ltt_wbuf *w) \
	{ \
		static type m; \
		struct ltt_rbuf r; \
		int ret; \
\
		ltt_rbuf_init(&r, p, len); \
		ret = ltt_app_get_##fn(&r, &m); \
		if (!ret) \
			ltt_app_put_##fn(w, &m); \
		return ret; \
	}

static struct ltt_app_channel_add chan_ctx;	/* set up by main() */

static void put_channel_add(struct ltt_wbuf *w)
{
	static const struct ltt_app_channel_add m = {
		.channel_key = 0x0102030405060708ULL, .session_id = 0x1112131415161718ULL,
		.stream_id = 0x21222324, .enabled = true, .nr_streams = 4,
	};

	ltt_app_put_channel_add(w, &m);
}

static void put_channel_add_ctx(struct ltt_wbuf *w)
{
	ltt_app_put_channel_add(w, &chan_ctx);
}

REPUT(channel_add, struct ltt_app_channel_add)

static void put_channel_key(struct ltt_wbuf *w)
{
	ltt_app_put_channel_key(w, 0x8070605040302010ULL);
}

static int reput_channel_key(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	struct ltt_rbuf r;
	uint64_t key;
	int ret;

	ltt_rbuf_init(&r, p, len);
	ret = ltt_app_get_channel_key(&r, &key);
	if (!ret)
		ltt_app_put_channel_key(w, key);
	return ret;
}

static const uint8_t prog_a[] = { 'L', 'T', 'T', 'F', 1, 1, 0, 0, 1, 0, 0, 0, 0 };
static const uint8_t prog_b[] = { 0xaa, 0xbb };

static void put_event_filter(struct ltt_wbuf *w)
{
	static const struct ltt_app_event_filter m = {
		.channel_key = 0x0102030405060708ULL, .name = "prov:ev", .nr_programs = 2,
		.programs = { { prog_a, sizeof(prog_a) }, { prog_b, sizeof(prog_b) } },
	};

	ltt_app_put_event_filter_v(w, &m, LTT_APP_MINOR_LAYOUT - 1);
}

/* The pinned bytes are minor 7's, without the layout (minor 8: test_app_msgs). */
static int reput_event_filter(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	static struct ltt_app_event_filter m;
	struct ltt_rbuf r;
	int ret;

	ltt_rbuf_init(&r, p, len);
	ret = ltt_app_get_event_filter_v(&r, &m, LTT_APP_MINOR_LAYOUT - 1);
	if (!ret)
		ltt_app_put_event_filter_v(w, &m, LTT_APP_MINOR_LAYOUT - 1);
	return ret;
}

static void put_agent_rules(struct ltt_wbuf *w)
{
	static const struct ltt_app_agent_rule rules[] = {
		{ .pattern = "my.logger", .loglevel_type = LTT_LOGLEVEL_RANGE, .loglevel = 30,
		  .exclusions = "" },
		{ .pattern = "app.*", .loglevel_type = LTT_LOGLEVEL_ALL, .loglevel = 0,
		  .exclusions = "app.noisy" },
	};

	ltt_app_put_agent_rules_start(w, 0x0a0b0c0d0e0f1011ULL, 2);
	ltt_app_put_agent_rule(w, &rules[0]);
	ltt_app_put_agent_rule(w, &rules[1]);
}

static int reput_agent_rules(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	static struct ltt_app_agent_rule rules[LTT_APP_AGENT_MAX_RULES];
	struct ltt_rbuf r;
	uint32_t count, i;
	uint64_t key;
	int ret;

	ltt_rbuf_init(&r, p, len);
	ret = ltt_app_get_agent_rules_start(&r, &key, &count);
	for (i = 0; !ret && i < count; i++)
		ret = ltt_app_get_agent_rule(&r, &rules[i]);
	if (!ret)
		ret = ltt_rbuf_end(&r);
	if (ret)
		return ret;
	ltt_app_put_agent_rules_start(w, key, count);
	for (i = 0; i < count; i++)
		ltt_app_put_agent_rule(w, &rules[i]);
	return 0;
}

static void put_notifier_add(struct ltt_wbuf *w)
{
	static const struct ltt_app_notifier_add m = {
		.key = LTT_APP_NOTIFIER_KEY_BIT | 0x123456789aULL, .nr_captures = 2,
		.captures = { "$ctx.vpid", "msg" },
	};

	ltt_app_put_notifier_add(w, &m);
}

REPUT(notifier_add, struct ltt_app_notifier_add)

static void put_counter_add(struct ltt_wbuf *w)
{
	static const struct ltt_app_counter_add m = {
		.key = LTT_APP_NOTIFIER_KEY_BIT | 0x0102030405ULL, .nr_cpus = 4, .nr_slots = 10,
	};

	ltt_app_put_counter_add(w, &m);
}

REPUT(counter_add, struct ltt_app_counter_add)

/* A notification as libltt-ust writes it (src/ust/notify.c): three captures, 3 dropped. */
static void put_notify(struct ltt_wbuf *w)
{
	static const struct ltt_capture_desc caps[] = {
		{ .type = LTT_CAPTURE_UNSIGNED, .bits = 0x1122334455667788ULL },
		{ .type = LTT_CAPTURE_STRING, .str = "hello" },
		{ .type = LTT_CAPTURE_UNAVAILABLE },
	};
	const struct ltt_app_notify m = {
		.key = LTT_APP_NOTIFIER_KEY_BIT | 7, .event = "prov:ev", .nr_captures = 3,
	};
	size_t start = w->len;

	ltt_app_put_notify_head(w, &m);
	for (size_t i = 0; i < 3; i++)
		ltt_capture_put(w, &caps[i]);
	if (!w->err)
		ltt_app_seal_notify(w->data + start, w->len - start, 3);
}

/* What a notification decodes to, and the length it said. */
static int reput_notify(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	struct ltt_app_notify m;
	size_t mlen;
	int ret = ltt_app_get_notify(p, len, &m, &mlen);

	if (ret)
		return ret;
	ltt_wbuf_put_u64(w, mlen);
	ltt_wbuf_put_u64(w, m.key);
	ltt_wbuf_put_u64(w, m.dropped);
	ltt_wbuf_put_str(w, m.event);
	ltt_wbuf_put_u32(w, m.nr_captures);
	for (uint32_t i = 0; i < m.nr_captures; i++)
		ltt_capture_put(w, &m.captures[i]);
	return 0;
}

/* LOGGERS (pinned when libltt-ust wrote it and the session daemon read it, each by hand). */
static const char *const logger_names[] = { "root", "a.b.c", "caf\xc3\xa9.x", "z" };

static void put_loggers(struct ltt_wbuf *w)
{
	ltt_app_put_loggers(w, logger_names, 4, 4096);
}

/* The names that fit in 30 bytes: two of them. */
static void put_loggers_cut(struct ltt_wbuf *w)
{
	ltt_app_put_loggers(w, logger_names, 4, 30);
}

/* A first name longer than the room goes alone. */
static void put_loggers_first(struct ltt_wbuf *w)
{
	ltt_app_put_loggers(w, logger_names + 2, 2, 8);
}

/* Decoded into room for four names; what they were, encoded again. */
static int reput_loggers(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	const char *names[4];
	struct ltt_rbuf r;
	uint32_t n;
	int ret;

	ltt_rbuf_init(&r, p, len);
	ret = ltt_app_get_loggers(&r, names, 4, &n);
	if (!ret && ltt_app_put_loggers(w, names, n, SIZE_MAX) != n)
		abort();
	return ret;
}

static void put_ref_tp(struct ltt_wbuf *w)
{
	ltt_app_put_tracepoint(w, &ref_tp);
}

/* Big-endian integers, a sequence counted by the integer before it (minor 5). */
static const struct ltt_ust_field flagged_fields[] = {
	{ .name = "be", .type = LTT_UST_TYPE_INTEGER, .size = 4, .base = 16,
	  .flags = LTT_UST_FIELD_BIG_ENDIAN },
	{ .name = "n", .type = LTT_UST_TYPE_INTEGER, .size = 2, .base = 10,
	  .flags = LTT_UST_FIELD_NOWRITE },
	{ .name = "vals", .type = LTT_UST_TYPE_SEQUENCE, .size = 8, .is_signed = 1, .base = 10,
	  .flags = LTT_UST_FIELD_LENGTH_BEFORE | LTT_UST_FIELD_NOWRITE |
		   LTT_UST_FIELD_BIG_ENDIAN },
};

static const struct ltt_ust_tracepoint flagged_tp = {
	.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 4, .name = "lttng_compat:flagged",
	.nr_fields = 3, .fields = flagged_fields,
};

static void put_flagged_tp(struct ltt_wbuf *w)
{
	ltt_app_put_tracepoint(w, &flagged_tp);
}

/* TRACEPOINTS of one description: decoded whole, encoded from the copy. */
static int reput_tracepoints(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	struct ltt_app_tracepoint **tps;
	struct ltt_rbuf r;
	size_t start;
	uint32_t n;
	int ret;

	ltt_rbuf_init(&r, p, len);
	ret = ltt_app_get_tracepoints(&r, &tps, &n);
	if (ret)
		return ret;
	start = ltt_app_put_tracepoints_start(w);
	for (uint32_t i = 0; i < n; i++) {
		ltt_app_put_app_tracepoint(w, tps[i]);
		free(tps[i]);
	}
	ltt_app_put_tracepoints_finish(w, start, n);
	free(tps);
	return 0;
}

static void put_tracepoints_ref(struct ltt_wbuf *w)
{
	size_t start = ltt_app_put_tracepoints_start(w);

	put_ref_tp(w);
	ltt_app_put_tracepoints_finish(w, start, 1);
}

static void put_tracepoints_flagged(struct ltt_wbuf *w)
{
	size_t start = ltt_app_put_tracepoints_start(w);

	put_flagged_tp(w);
	ltt_app_put_tracepoints_finish(w, start, 1);
}

/* ---- LTTng's agent protocol ---- */

static void put_lagent_register(struct ltt_wbuf *w)
{
	ltt_wbuf_put_be32(w, LTT_LAGENT_DOMAIN_PYTHON);
	ltt_wbuf_put_be32(w, 4242);
	ltt_wbuf_put_be32(w, LTT_LAGENT_MAJOR);
	ltt_wbuf_put_be32(w, LTT_LAGENT_MINOR);
}

/* REGISTER is read whole from the socket: other lengths are not decoded. */
static int reput_lagent_register(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	struct ltt_lagent_register reg;
	int ret;

	if (len != LTT_LAGENT_REGISTER_SIZE)
		return -EMSGSIZE;
	ret = ltt_lagent_register_decode(p, &reg);
	if (ret && ret != -EPROTONOSUPPORT)
		return ret;
	ltt_wbuf_put_be32(w, reg.domain);
	ltt_wbuf_put_be32(w, reg.pid);
	ltt_wbuf_put_be32(w, reg.major);
	ltt_wbuf_put_be32(w, reg.minor);
	ltt_wbuf_put_be32(w, (uint32_t)-ret);
	return 0;
}

static void put_lagent_list(struct ltt_wbuf *w)
{
	ltt_lagent_put_cmd(w, LTT_LAGENT_LIST);
}

static void put_lagent_done(struct ltt_wbuf *w)
{
	ltt_lagent_put_cmd(w, LTT_LAGENT_REGISTRATION_DONE);
}

static void put_lagent_enable(struct ltt_wbuf *w)
{
	ltt_lagent_put_enable(w, 40, 1, "my.logger", "(x == 1) && (logger_name == \"my.logger\")");
}

static void put_lagent_enable_bare(struct ltt_wbuf *w)
{
	ltt_lagent_put_enable(w, -1, 0, "*", "");
}

static void put_lagent_disable(struct ltt_wbuf *w)
{
	ltt_lagent_put_disable(w, "my.logger");
}

static void put_lagent_list_reply(struct ltt_wbuf *w)
{
	static const char names[] = "root\0my.logger\0a b";

	ltt_wbuf_put_be32(w, LTT_LAGENT_STATUS_SUCCESS);
	ltt_wbuf_put_be32(w, sizeof(names));
	ltt_wbuf_put_be32(w, 3);
	ltt_wbuf_put_bytes(w, names, sizeof(names));
}

static void put_lagent_list_refused(struct ltt_wbuf *w)
{
	ltt_wbuf_put_be32(w, LTT_LAGENT_STATUS_INVALID_CMD);
	ltt_wbuf_put_be32(w, 0);
	ltt_wbuf_put_be32(w, 0);
}

static void add_name(void *arg, const char *name)
{
	ltt_wbuf_put_str(arg, name);
}

/*
 * A LIST reply as the daemon reads it: its size measured on its head
 * (ltt_lagent_reply_size()), then decoded when that much was received.
 */
static int reput_lagent_list_reply(const uint8_t *p, size_t len, struct ltt_wbuf *w)
{
	uint32_t status;
	size_t size;
	int ret;

	ret = ltt_lagent_reply_size(LTT_LAGENT_LIST, p, len, &size);
	if (ret)
		return ret;
	ltt_wbuf_put_u64(w, size);
	if (len < size)
		return 0;
	ltt_wbuf_put_u32(w, ltt_lagent_status_decode(p));
	ret = ltt_lagent_list_decode(p, len, &status, add_name, w);
	if (!ret)
		ltt_wbuf_put_u32(w, status);
	return ret;
}

static const struct pin pins[] = {
	{ "CHANNEL_ADD", put_channel_add, reput_channel_add,
	    25, 0x38cbabc4de633a98ULL, 195, 0x2151cbbaaefb428aULL },
	{ "CHANNEL_ADD with contexts", put_channel_add_ctx, reput_channel_add,
	    133, 0xc00d7993380bf2dbULL, 430, 0x0a38f67ffacf9560ULL },
	{ "CHANNEL_ENABLE", put_channel_key, reput_channel_key,
	    8, 0x763b696d4565b5c5ULL, 64, 0xff082bff52a5d6b5ULL },
	{ "EVENT_FILTER", put_event_filter, reput_event_filter,
	    47, 0x483ec3d44d59e5acULL, 248, 0x6b73f11b10555cd7ULL },
	{ "AGENT_RULES", put_agent_rules, reput_agent_rules,
	    71, 0x1a104ad25569f9e1ULL, 169, 0xab0e4bfe5486d1f3ULL },
	{ "NOTIFIER_ADD", put_notifier_add, reput_notifier_add,
	    34, 0xb4c2c0fb1d7d245aULL, 155, 0xf7cbb0fecf037f1eULL },
	{ "COUNTER_ADD", put_counter_add, reput_counter_add,
	    16, 0xc2bc7c290a05c582ULL, 93, 0xa5593cc28d5c33cfULL },
	{ "notification", put_notify, reput_notify,
	    61, 0x498c24d89514081fULL, 291, 0xc0f2c187c97f865fULL },
	{ "LOGGERS", put_loggers, reput_loggers,
	    41, 0x8550c2b016cf635aULL, 71, 0x8daac7458b37c72cULL },
	{ "LOGGERS, cut", put_loggers_cut, reput_loggers,
	    23, 0x98f8356842441d74ULL, 39, 0x89de79e584dd403aULL },
	{ "LOGGERS, a first name over the room", put_loggers_first, reput_loggers,
	    16, 0xeff9f8101f53ed6cULL, 29, 0x77e162dd0e0efb58ULL },
	{ "TRACEPOINTS (reference)", put_tracepoints_ref, reput_tracepoints,
	    569, 0xa94d34b50f28d77bULL, 812, 0x3215f7f24e961364ULL },
	{ "TRACEPOINTS (flags)", put_tracepoints_flagged, reput_tracepoints,
	    113, 0x4497b41a276c0deeULL, 115, 0x7d5a80ddf8e63587ULL },
	{ "agent REGISTER", put_lagent_register, reput_lagent_register,
	    16, 0x21148bcb80813476ULL, 98, 0xe7c2ff2c6b9201d9ULL },
	{ "agent LIST", put_lagent_list, NULL,
	    16, 0x7b713c8ee3affa02ULL, 0, 0 },
	{ "agent REGISTRATION_DONE", put_lagent_done, NULL,
	    16, 0x5564930f6bc1bad9ULL, 0, 0 },
	{ "agent ENABLE", put_lagent_enable, NULL,
	    325, 0xf8ba52c45c7f78aaULL, 0, 0 },
	{ "agent ENABLE, no filter", put_lagent_enable_bare, NULL,
	    284, 0xc6246112f762c220ULL, 0, 0 },
	{ "agent DISABLE", put_lagent_disable, NULL,
	    272, 0x18f2e2be85d39b4dULL, 0, 0 },
	{ "agent LIST reply", put_lagent_list_reply, reput_lagent_list_reply,
	    31, 0xe9834b41446838fdULL, 105, 0xdfd38d9883b597a6ULL },
	{ "agent LIST reply, refused", put_lagent_list_refused, reput_lagent_list_reply,
	    12, 0x2d93061ef3da786fULL, 108, 0x24b8e693feed47b5ULL },
};

/* What the encoders refuse, and write nothing sensible for. */
static void check_put_refusals(void)
{
	char name[LTT_LAGENT_NAME_SIZE + 1];
	struct ltt_wbuf w;

	memset(name, 'a', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	ltt_wbuf_init(&w);
	ltt_lagent_put_enable(&w, 0, 0, name, "");
	tap_is_int(w.err, -EINVAL, "agent ENABLE: a name of 256 bytes: EINVAL");
	ltt_wbuf_reset(&w);
	ltt_lagent_put_disable(&w, name);
	tap_is_int(w.err, -EINVAL, "agent DISABLE: a name of 256 bytes: EINVAL");
	ltt_wbuf_reset(&w);
	ltt_lagent_put_disable(&w, name + 1);
	tap_ok(!w.err && w.len == LTT_LAGENT_CMD_HDR_SIZE + LTT_LAGENT_NAME_SIZE,
	       "agent DISABLE: a name of 255 bytes fits");
	ltt_wbuf_fini(&w);
}

/*
 * LTTng-UST's registration as its library sends it (little-endian words,
 * a name of 16 bytes, 64 of padding): decoded; another magic or socket
 * type refused; a name of 16 bytes without its NUL ends in ours.
 */
static void check_lust_reg(void)
{
	static const uint32_t words[14] = { LTT_LUST_MAGIC, 9, 0, 4242, 1, 1000, 100, 64,
					    1, 2, 4, 8, 8, 1 };
	uint8_t buf[LTT_LUST_REG_SIZE] = { 0 };
	struct ltt_lust_reg reg;
	size_t i;

	for (i = 0; i < 14; i++) {
		buf[4 * i] = (uint8_t)words[i];
		buf[4 * i + 1] = (uint8_t)(words[i] >> 8);
		buf[4 * i + 2] = (uint8_t)(words[i] >> 16);
		buf[4 * i + 3] = (uint8_t)(words[i] >> 24);
	}
	memcpy(buf + 56, "sixteen-bytes-ab", 16);
	tap_ok(!ltt_lust_reg_decode(buf, &reg) && reg.major == 9 && reg.minor == 0 &&
	       reg.pid == 4242 && reg.uid == 1000 && reg.bits_per_long == 64 &&
	       reg.align[4] == 8 && reg.socket_type == 1 && !strcmp(reg.name, "sixteen-bytes-ab"),
	       "LTTng-UST's registration: its words, its 16-byte name ended by ours");
	buf[52] = 2;
	tap_ok(ltt_lust_reg_decode(buf, &reg) == -EPROTO, "... a socket type LTTng-UST has not: refused");
	buf[52] = 0;
	buf[0] ^= 1;
	tap_ok(ltt_lust_reg_decode(buf, &reg) == -EPROTO, "... another magic: refused");
}

int main(void)
{
	if (ltt_ctx_parse("vpid", &chan_ctx.contexts[0]) ||
	    ltt_ctx_parse("perf:thread:raw:r1a2:my_event", &chan_ctx.contexts[1]) ||
	    ltt_ctx_parse("procname", &chan_ctx.contexts[2]))
		abort();
	chan_ctx.channel_key = 0x3132333435363738ULL;
	chan_ctx.session_id = 9;
	chan_ctx.stream_id = 2;
	chan_ctx.nr_streams = 8;
	chan_ctx.nr_contexts = 3;
	for (size_t i = 0; i < sizeof(pins) / sizeof(pins[0]); i++)
		check(&pins[i]);
	check_put_refusals();
	check_lust_reg();
	return tap_done();
}
