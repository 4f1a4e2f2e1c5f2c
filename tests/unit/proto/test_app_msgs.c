// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_app_msgs.c - unit tests of common/proto/app-proto.c and
 * common/proto/consumer-proto.c beyond the tracepoint description
 * (test_app_proto.c): every other message's exact bytes, round trip and
 * refusals, channel contexts, random bytes, event filters, and
 * TRACEPOINTS as a whole.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/proto/consumer-proto.h"
#include "tests/unit/ref-tp.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ---- the other messages: exact bytes, round trip, truncation ---- */

#define LE32(v) (uint8_t)(v), (uint8_t)((v) >> 8), (uint8_t)((v) >> 16), (uint8_t)((v) >> 24)
#define LE64(v) LE32((uint32_t)(v)), LE32((uint32_t)((uint64_t)(v) >> 32))

union any_msg {
	struct ltt_app_register reg;
	struct ltt_app_version version;
	struct ltt_app_ack ack;
	struct ltt_app_channel_add chan;
	struct ltt_app_event_msg ev;
	uint64_t key;
};

static const struct ltt_app_register reg = {
	.major = 1, .minor = 0, .pid = 4242, .ppid = 1, .uid = 1000, .gid = 100,
	.bits_per_long = 64, .nr_cpus = 2, .procname = "0123456789abcde",
};
static const uint8_t reg_wire[] = {
	LE32(1), LE32(0), LE32(4242), LE32(1), LE32(1000), LE32(100), LE32(64), LE32(2),
	LE32(16), '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd', 'e', 0,
};
static const struct ltt_app_version version = { .major = 1, .minor = 7 };
static const uint8_t version_wire[] = { LE32(1), LE32(7) };
static const struct ltt_app_ack ack = { .seq = 0xfffffff0u, .status = -EINVAL };
static const uint8_t ack_wire[] = { LE32(0xfffffff0u), 0xea, 0xff, 0xff, 0xff };
static const struct ltt_app_channel_add chan = {
	.channel_key = 0x0102030405060708ULL, .session_id = 3, .stream_id = 1,
	.enabled = true, .nr_streams = 4,
};
static const uint8_t chan_wire[] = {
	LE64(0x0102030405060708ULL), LE64(3), LE32(1), 1, LE32(4),
};
static const uint64_t key = 99;
static const uint8_t key_wire[] = { LE64(99) };
/* EVENT_ENABLE and EVENT_DISABLE with every row: the layout (minor 8) after the name */
static const struct ltt_app_event_msg ev = {
	.channel_key = 5, .name = "a:b", .layout = 0x1122334455667788ULL, .event_id = 12,
};
static const uint8_t ev_wire[] = {
	LE64(5), LE32(4), 'a', ':', 'b', 0, LE64(0x1122334455667788ULL), LE32(12),
};
static const struct ltt_app_event_msg evd = {
	.channel_key = 5, .name = "a:b", .layout = 0x1122334455667788ULL,
};
static const uint8_t evd_wire[] = { LE64(5), LE32(4), 'a', ':', 'b', 0, LE64(0x1122334455667788ULL) };

#define ADAPT(n, fn, type) \
	static void put_##n(struct ltt_wbuf *w, const void *m) \
	{ ltt_app_put_##fn(w, (const type *)m); } \
	static int get_##n(struct ltt_rbuf *r, void *m) \
	{ return ltt_app_get_##fn(r, (type *)m); }

ADAPT(reg, register, struct ltt_app_register)
ADAPT(version, version, struct ltt_app_version)
ADAPT(ack, ack, struct ltt_app_ack)
ADAPT(chan, channel_add, struct ltt_app_channel_add)
ADAPT(ev, event_enable, struct ltt_app_event_msg)
ADAPT(evd, event_disable, struct ltt_app_event_msg)

static void put_key(struct ltt_wbuf *w, const void *m)
{
	ltt_app_put_channel_key(w, *(const uint64_t *)m);
}

static int get_key(struct ltt_rbuf *r, void *m)
{
	return ltt_app_get_channel_key(r, m);
}

static bool same_msg(const char *name, const union any_msg *a, const void *b)
{
	if (!strcmp(name, "reg")) {
		const struct ltt_app_register *x = &a->reg, *y = b;

		return x->major == y->major && x->minor == y->minor && x->pid == y->pid &&
		       x->ppid == y->ppid && x->uid == y->uid && x->gid == y->gid &&
		       x->bits_per_long == y->bits_per_long && x->nr_cpus == y->nr_cpus &&
		       !strcmp(x->procname, y->procname);
	}
	if (!strcmp(name, "ev") || !strcmp(name, "evd")) {
		const struct ltt_app_event_msg *x = &a->ev, *y = b;

		return x->channel_key == y->channel_key && !strcmp(x->name, y->name) &&
		       x->layout == y->layout && x->event_id == y->event_id;
	}
	if (!strcmp(name, "chan")) {
		const struct ltt_app_channel_add *x = &a->chan, *y = b;

		return x->channel_key == y->channel_key && x->session_id == y->session_id &&
		       x->stream_id == y->stream_id && x->enabled == y->enabled &&
		       x->nr_streams == y->nr_streams;
	}
	if (!strcmp(name, "key"))
		return a->key == *(const uint64_t *)b;
	if (!strcmp(name, "ack"))
		return a->ack.seq == ack.seq && a->ack.status == ack.status;
	return a->version.major == version.major && a->version.minor == version.minor;
}

static const struct msg_kind {
	const char *name;
	void (*put)(struct ltt_wbuf *w, const void *m);
	int (*get)(struct ltt_rbuf *r, void *ret);
	const void *sample;
	const uint8_t *wire;
	size_t wire_len;
} msg_kinds[] = {
#define KIND(n) { #n, put_##n, get_##n, &n, n##_wire, sizeof(n##_wire) }
	KIND(reg), KIND(version), KIND(ack), KIND(chan), KIND(key), KIND(ev), KIND(evd),
#undef KIND
};

/*
 * Decode from a copy of exactly @len bytes (ASan sees overreads), kept
 * until the next call: decoded strings point into it.
 */
static int get_from(const struct msg_kind *k, const uint8_t *p, size_t len, union any_msg *ret)
{
	static uint8_t *copy;
	struct ltt_rbuf r;

	free(copy);
	copy = malloc(len + 1);
	if (!copy)
		abort();
	memcpy(copy, p, len);
	ltt_rbuf_init(&r, copy, len);
	return k->get(&r, ret);
}

static void test_messages(void)
{
	uint8_t buf[64];

	for (size_t i = 0; i < ARRAY_SIZE(msg_kinds); i++) {
		const struct msg_kind *k = &msg_kinds[i];
		union any_msg got;
		size_t refused = 0;
		struct ltt_wbuf w;

		ltt_wbuf_init(&w);
		k->put(&w, k->sample);
		tap_ok(!w.err && w.len == k->wire_len && !memcmp(w.data, k->wire, w.len),
		       "%s: encodes to its %zu bytes", k->name, k->wire_len);
		ltt_wbuf_fini(&w);
		memset(&got, 0x5a, sizeof(got));
		tap_ok(!get_from(k, k->wire, k->wire_len, &got) && same_msg(k->name, &got, k->sample),
		       "%s: decodes to what was sent", k->name);
		for (size_t len = 0; len < k->wire_len; len++)
			refused += get_from(k, k->wire, len, &got) == -EPROTO;
		tap_is_int((long long)refused, (long long)k->wire_len,
			   "%s: every truncated prefix: EPROTO", k->name);
		memcpy(buf, k->wire, k->wire_len);
		buf[k->wire_len] = 0;
		tap_is_int(get_from(k, buf, k->wire_len + 1, &got), -EPROTO,
			   "%s: a trailing byte: EPROTO", k->name);
	}
	/* the values a decoder refuses */
	{
		static const uint8_t long_name[] = {
			LE32(1), LE32(0), LE32(1), LE32(1), LE32(0), LE32(0), LE32(64), LE32(1),
			LE32(18), '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a', 'b', 'c', 'd',
			'e', 'f', 'g', 0,
		};
		union any_msg got;

		tap_is_int(get_from(&msg_kinds[0], long_name, sizeof(long_name), &got), -EPROTO,
			   "REGISTER: a process name over 16 characters: EPROTO");
		memcpy(buf, chan_wire, sizeof(chan_wire));
		buf[20] = 2;
		tap_is_int(get_from(&msg_kinds[3], buf, sizeof(chan_wire), &got), -EPROTO,
			   "CHANNEL_ADD: enabled 2: EPROTO");
		memcpy(buf, ev_wire, sizeof(ev_wire));
		buf[15] = 'x';
		tap_is_int(get_from(&msg_kinds[5], buf, sizeof(ev_wire), &got), -EPROTO,
			   "EVENT_ENABLE: a name without its NUL: EPROTO");
		buf[15] = 0;
		buf[13] = 0;
		tap_is_int(get_from(&msg_kinds[5], buf, sizeof(ev_wire), &got), -EPROTO,
			   "EVENT_ENABLE: a name with a NUL inside: EPROTO");
		memcpy(buf, evd_wire, sizeof(evd_wire));
		memcpy(&got.ev, &ev, sizeof(ev));
		tap_ok(!get_from(&msg_kinds[6], buf, sizeof(evd_wire), &got) && got.ev.event_id == 0,
		       "EVENT_DISABLE: decodes with event_id 0");
	}
}

/* CHANNEL_ADD with a context list (app minor 2), and what its decoder refuses. */
static int chan_ctx_round(const struct ltt_app_channel_add *m, struct ltt_app_channel_add *ret,
			  size_t cut)
{
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret_get;

	ltt_wbuf_init(&w);
	ltt_app_put_channel_add(&w, m);
	ltt_rbuf_init(&r, w.data, w.len - cut);
	ret_get = w.err ? -ENOMEM : ltt_app_get_channel_add(&r, ret);
	ltt_wbuf_fini(&w);
	return ret_get;
}

static void test_channel_contexts(void)
{
	static struct ltt_app_channel_add m, got;

	m = chan;
	tap_ok(!ltt_ctx_parse("vpid", &m.contexts[0]) &&
	       !ltt_ctx_parse("perf:thread:raw:r1a2:my_event", &m.contexts[1]) &&
	       !ltt_ctx_parse("procname", &m.contexts[2]), "three contexts parse");
	m.nr_contexts = 3;
	memset(&got, 0x5a, sizeof(got));
	tap_ok(!chan_ctx_round(&m, &got, 0) && got.nr_contexts == 3 &&
	       ltt_ctx_same(&got.contexts[1], &m.contexts[1]) &&
	       got.contexts[1].perf_config == 0x1a2 && got.contexts[2].type == LTT_CONTEXT_PROCNAME,
	       "CHANNEL_ADD with contexts: decoded as sent");
	tap_is_int(chan_ctx_round(&m, &got, 1), -EPROTO, "CHANNEL_ADD with contexts, truncated: EPROTO");
	tap_is_int((long long)ltt_ctx_len(m.contexts, 3), 4 + 8 + 17, "their size: 29 bytes");
	m.contexts[2] = m.contexts[0];
	tap_is_int(chan_ctx_round(&m, &got, 0), -EPROTO, "a context twice: EPROTO");
	m.contexts[2].type = LTT_CONTEXT_VTID;	/* named "vpid": not its own name */
	tap_is_int(chan_ctx_round(&m, &got, 0), -EPROTO, "a type with another's name: EPROTO");
	m.contexts[2].type = 99;
	tap_is_int(chan_ctx_round(&m, &got, 0), -EPROTO, "an unknown type: EPROTO");
	m.nr_contexts = LTT_CTX_MAX + 1;
	tap_is_int(chan_ctx_round(&m, &got, 0), -EPROTO, "more than LTT_CTX_MAX: EPROTO");
}

/* TRACEPOINTS as a whole, and the daemon's copy of a description. */
static void test_tracepoints_msg(void)
{
	static const struct ltt_ust_tracepoint other = {
		.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 2, .name = "p:other",
	};
	struct ltt_app_tracepoint **tps = NULL, *copy = NULL;
	struct ltt_wbuf w, again;
	struct ltt_rbuf r;
	uint32_t n = 0;
	size_t start;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&again);
	start = ltt_app_put_tracepoints_start(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	ltt_app_put_tracepoint(&w, &other);
	ltt_app_put_tracepoints_finish(&w, start, 2);
	tap_ok(!w.err && w.len > 4 && !memcmp(w.data, (const uint8_t[]){ LE32(2) }, 4),
	       "TRACEPOINTS starts with its count, written last");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_tracepoints(&r, &tps, &n), 0, "TRACEPOINTS decodes");
	tap_ok(n == 2 && tps && !strcmp(tps[0]->name, ref_tp.name) &&
	       !strcmp(tps[1]->name, "p:other") && tps[1]->loglevel == 2,
	       "into its two descriptions");
	if (n == 2 && tps) {
		ltt_app_put_app_tracepoint(&again, tps[0]);
		tap_ok(!again.err && again.len + 4 < w.len && !memcmp(again.data, w.data + 4, again.len),
		       "a decoded description encodes to the bytes of the original");
		tap_is_int(ltt_app_tracepoint_dup(tps[0], &copy), 0, "and copies");
		tap_ok(copy && copy != tps[0] && !strcmp(copy->name, tps[0]->name) &&
		       copy->loglevel == tps[0]->loglevel &&
		       ltt_app_tracepoint_same_layout(copy, tps[0]) && copy->layout == tps[0]->layout,
		       "to an equal description, of the same layout id");
		tap_ok(tps[0]->layout != tps[1]->layout &&
		       ltt_app_tracepoint_fields_hash(copy) == ltt_app_tracepoint_fields_hash(tps[0]) &&
		       ltt_app_tracepoint_fields_hash(tps[0]) != ltt_app_tracepoint_fields_hash(tps[1]),
		       "two descriptions: two layout ids, two fields hashes; a copy: the same");
		free(copy);
		free(tps[0]);
		free(tps[1]);
	}
	free(tps);

	ltt_app_put_tracepoints_finish(&w, start, 3);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_tracepoints(&r, &tps, &n), -EPROTO, "a count too high: EPROTO");
	ltt_app_put_tracepoints_finish(&w, start, 1);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_tracepoints(&r, &tps, &n), -EPROTO,
		   "a count too low (bytes left over): EPROTO");
	ltt_app_put_tracepoints_finish(&w, start, LTT_APP_MAX_TRACEPOINTS + 1);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_app_get_tracepoints(&r, &tps, &n), -EPROTO,
		   "a count over LTT_APP_MAX_TRACEPOINTS: EPROTO");
	ltt_wbuf_reset(&w);
	start = ltt_app_put_tracepoints_start(&w);
	ltt_app_put_tracepoints_finish(&w, start, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tps = (void *)&w;
	tap_ok(!ltt_app_get_tracepoints(&r, &tps, &n) && n == 0 && !tps,
	       "an empty TRACEPOINTS decodes to nothing");
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&again);
}

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

/*
 * Each message decoder against random bytes and its sample with bytes
 * changed or cut: 0 or -EPROTO, never an overread, strings in bounds.
 */
static void test_random_messages(void)
{
	unsigned int odd = 0, unbounded = 0, accepted = 0, total = 0;
	uint8_t buf[128];

	for (size_t i = 0; i < ARRAY_SIZE(msg_kinds); i++) {
		const struct msg_kind *k = &msg_kinds[i];

		for (int n = 0; n < 20000; n++) {
			union any_msg got;
			size_t len;
			int err;

			len = tap_fuzz_input(&rng, n, buf, k->wire, k->wire_len);
			err = get_from(k, buf, len, &got);
			total++;
			if (err && err != -EPROTO)
				odd++;
			if (err)
				continue;
			accepted++;
			if ((i == 0 && strlen(got.reg.procname) >= LTT_APP_PROCNAME_MAX) ||
			    (i >= 5 && strlen(got.ev.name) >= LTT_APP_NAME_MAX))
				unbounded++;
		}
	}
	tap_diag("%u random or mutated messages, %u accepted", total, accepted);
	tap_is_int(odd, 0, "random messages: every decoder returns 0 or EPROTO");
	tap_is_int(unbounded, 0, "random messages: every accepted string is within its limit");
}

/* The minor before the layout: the bytes of EVENT_FILTER's tests below. */
#define BEFORE_LAYOUT (LTT_APP_MINOR_LAYOUT - 1)

/* EVENT_FILTER (a peer before minor 8): exact bytes, round trip, and every framing refusal. */
static int get_filter(const uint8_t *p, size_t len, struct ltt_app_event_filter *m)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, p, len);
	return ltt_app_get_event_filter_v(&r, m, BEFORE_LAYOUT);
}

static void test_event_filter(void)
{
	static const uint8_t prog_a[] = { 'L', 'T', 'T', 'F', 1, 1, 0, 0, LE32(1), 0 };
	static const uint8_t prog_b[] = { 0xaa, 0xbb };
	static const uint8_t wire[] = {
		LE64(0x0102030405060708ULL), LE32(4), 'p', ':', 'e', 0, LE32(2),
		LE32(13), 'L', 'T', 'T', 'F', 1, 1, 0, 0, LE32(1), 0,
		LE32(2), 0xaa, 0xbb,
	};
	static struct ltt_app_event_filter m, got;
	static uint8_t big[LTT_APP_FILTER_MAX_LEN + 64];
	size_t refused = 0, len;
	struct ltt_wbuf w;
	uint8_t buf[sizeof(wire) + 1];

	tap_is_str(ltt_app_msg_name(LTT_APP_MSG_EVENT_FILTER), "EVENT_FILTER", "app message 12");
	m.channel_key = 0x0102030405060708ULL;
	m.name = "p:e";
	m.nr_programs = 2;
	m.programs[0] = (struct ltt_app_filter_program){ prog_a, sizeof(prog_a) };
	m.programs[1] = (struct ltt_app_filter_program){ prog_b, sizeof(prog_b) };
	ltt_wbuf_init(&w);
	ltt_app_put_event_filter_v(&w, &m, BEFORE_LAYOUT);
	tap_ok(!w.err && w.len == sizeof(wire) && !memcmp(w.data, wire, w.len),
	       "EVENT_FILTER: encodes to its %zu bytes", sizeof(wire));
	memset(&got, 0x5a, sizeof(got));
	tap_ok(!get_filter(wire, sizeof(wire), &got) && got.channel_key == m.channel_key &&
	       !strcmp(got.name, "p:e") && got.nr_programs == 2 &&
	       got.programs[0].len == sizeof(prog_a) &&
	       !memcmp(got.programs[0].code, prog_a, sizeof(prog_a)) &&
	       got.programs[1].len == 2 && !memcmp(got.programs[1].code, prog_b, 2),
	       "EVENT_FILTER: decodes to what was sent, programs pointing into the payload");
	for (len = 0; len < sizeof(wire); len++)
		refused += get_filter(wire, len, &got) == -EPROTO;
	tap_is_int((long long)refused, (long long)sizeof(wire),
		   "EVENT_FILTER: every truncated prefix: EPROTO");
	memcpy(buf, wire, sizeof(wire));
	buf[sizeof(wire)] = 0;
	tap_is_int(get_filter(buf, sizeof(wire) + 1, &got), -EPROTO,
		   "EVENT_FILTER: a trailing byte: EPROTO");
	memcpy(buf, wire, sizeof(wire));
	buf[16] = 3;
	tap_is_int(get_filter(buf, sizeof(wire), &got), -EPROTO,
		   "EVENT_FILTER: a count higher than the programs sent: EPROTO");
	buf[16] = 1;
	tap_is_int(get_filter(buf, sizeof(wire), &got), -EPROTO,
		   "EVENT_FILTER: a count lower (bytes left over): EPROTO");
	memcpy(buf, wire, sizeof(wire));
	buf[37] = 0;
	tap_is_int(get_filter(buf, sizeof(wire) - 2, &got), -EPROTO,
		   "EVENT_FILTER: a program of length 0: EPROTO");
	memcpy(buf, wire, sizeof(wire));
	buf[20] = 0xff;
	buf[21] = 0xff;
	buf[22] = 0xff;
	buf[23] = 0xff;
	tap_is_int(get_filter(buf, sizeof(wire), &got), -EPROTO,
		   "EVENT_FILTER: a program length of 2^32-1: EPROTO");

	/* the limits: 64 programs, 64 KiB each */
	memcpy(big, (const uint8_t[]){ LE64(1), LE32(4), 'p', ':', 'e', 0, LE32(0) }, 20);
	tap_ok(!get_filter(big, 20, &got) && got.nr_programs == 0,
	       "EVENT_FILTER: no program (no filter) decodes");
	memcpy(big + 16, (const uint8_t[]){ LE32(LTT_APP_FILTER_MAX_PROGRAMS + 1) }, 4);
	tap_is_int(get_filter(big, sizeof(big), &got), -EPROTO,
		   "EVENT_FILTER: 65 programs: EPROTO before any is read");
	memcpy(big + 16, (const uint8_t[]){ LE32(1), LE32(LTT_APP_FILTER_MAX_LEN) }, 8);
	tap_ok(!get_filter(big, 24 + LTT_APP_FILTER_MAX_LEN, &got) && got.nr_programs == 1 &&
	       got.programs[0].len == LTT_APP_FILTER_MAX_LEN && got.programs[0].code == big + 24,
	       "EVENT_FILTER: one program of 64 KiB decodes");
	memcpy(big + 20, (const uint8_t[]){ LE32(LTT_APP_FILTER_MAX_LEN + 1) }, 4);
	tap_is_int(get_filter(big, 24 + LTT_APP_FILTER_MAX_LEN + 1, &got), -EPROTO,
		   "EVENT_FILTER: one program of 64 KiB + 1: EPROTO");

	/* the encoder refuses what the decoder would */
	ltt_wbuf_reset(&w);
	m.nr_programs = LTT_APP_FILTER_MAX_PROGRAMS + 1;
	ltt_app_put_event_filter_v(&w, &m, BEFORE_LAYOUT);
	tap_is_int(w.err, -EINVAL, "EVENT_FILTER encoder: 65 programs: EINVAL");
	ltt_wbuf_reset(&w);
	m.nr_programs = 1;
	m.programs[0].len = 0;
	ltt_app_put_event_filter_v(&w, &m, BEFORE_LAYOUT);
	tap_is_int(w.err, -EINVAL, "EVENT_FILTER encoder: a program of length 0: EINVAL");
	ltt_wbuf_reset(&w);
	m.nr_programs = LTT_APP_FILTER_MAX_PROGRAMS;
	for (len = 0; len < LTT_APP_FILTER_MAX_PROGRAMS; len++)
		m.programs[len] = (struct ltt_app_filter_program){ prog_b, sizeof(prog_b) };
	ltt_app_put_event_filter_v(&w, &m, BEFORE_LAYOUT);
	tap_ok(!w.err && !get_filter(w.data, w.len, &got) &&
	       got.nr_programs == LTT_APP_FILTER_MAX_PROGRAMS,
	       "EVENT_FILTER: 64 programs encode and decode");
	ltt_wbuf_fini(&w);

	/* random mutations: 0 or EPROTO, every accepted program within the payload */
	{
		unsigned int odd = 0, outside = 0;

		for (int n = 0; n < 20000; n++) {
			memcpy(buf, wire, sizeof(wire));
			buf[tap_rand(&rng) % sizeof(wire)] = (uint8_t)tap_rand(&rng);
			len = tap_rand(&rng) % 4 ? sizeof(wire) : tap_rand(&rng) % (sizeof(wire) + 1);
			int err = get_filter(buf, len, &got);

			if (err && err != -EPROTO)
				odd++;
			for (uint32_t i = 0; !err && i < got.nr_programs; i++) {
				if (got.programs[i].code < buf ||
				    got.programs[i].code + got.programs[i].len > buf + len)
					outside++;
			}
		}
		tap_is_int(odd, 0, "EVENT_FILTER mutants: 0 or EPROTO");
		tap_is_int(outside, 0, "EVENT_FILTER mutants: every program within the payload");
	}
}

/*
 * The layout of EVENT_ENABLE, EVENT_DISABLE and EVENT_FILTER (minor 8):
 * sent to a peer of minor 8 after the name, not before; each peer refuses
 * the other's form; a description's layout is the hash of its bytes.
 */
static void test_event_layout(void)
{
	static const uint8_t enable7[] = { LE64(5), LE32(4), 'a', ':', 'b', 0, LE32(12) };
	static const uint8_t filter8[] = {
		LE64(7), LE32(4), 'p', ':', 'e', 0, LE64(0x1122334455667788ULL), LE32(1),
		LE32(2), 0xaa, 0xbb,
	};
	static const uint8_t prog_b[] = { 0xaa, 0xbb };
	struct ltt_app_event_filter f = {
		.channel_key = 7, .name = "p:e", .layout = 0x1122334455667788ULL, .nr_programs = 1,
		.programs = { { prog_b, sizeof(prog_b) } },
	}, fgot;
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_app_event_msg got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_app_put_event_enable_v(&w, &ev, BEFORE_LAYOUT);
	tap_ok(!w.err && w.len == sizeof(enable7) && !memcmp(w.data, enable7, w.len),
	       "EVENT_ENABLE to a peer of minor 7: no layout (%zu bytes)", sizeof(enable7));
	ltt_rbuf_init(&r, enable7, sizeof(enable7));
	tap_ok(!ltt_app_get_event_enable_v(&r, &got, BEFORE_LAYOUT) && got.layout == 0 &&
	       got.event_id == 12 && !strcmp(got.name, "a:b"),
	       "... decoded by a program of minor 7: layout 0, the id after the name");
	ltt_rbuf_init(&r, enable7, sizeof(enable7));
	tap_is_int(ltt_app_get_event_enable_v(&r, &got, LTT_APP_MINOR_LAYOUT), -EPROTO,
		   "... refused by a program of minor 8 (it expects the layout)");
	ltt_rbuf_init(&r, ev_wire, sizeof(ev_wire));
	tap_is_int(ltt_app_get_event_enable_v(&r, &got, BEFORE_LAYOUT), -EPROTO,
		   "minor 8's EVENT_ENABLE refused by a program of minor 7 (bytes left over)");
	ltt_wbuf_reset(&w);
	ltt_app_put_event_disable_v(&w, &evd, LTT_APP_MINOR_LAYOUT);
	tap_ok(!w.err && w.len == sizeof(evd_wire) && !memcmp(w.data, evd_wire, w.len),
	       "EVENT_DISABLE to a peer of minor 8: the layout after the name");
	ltt_wbuf_reset(&w);
	ltt_app_put_event_filter_v(&w, &f, LTT_APP_MINOR_LAYOUT);
	tap_ok(!w.err && w.len == sizeof(filter8) && !memcmp(w.data, filter8, w.len),
	       "EVENT_FILTER to a peer of minor 8: the layout between the name and the count");
	ltt_rbuf_init(&r, filter8, sizeof(filter8));
	tap_ok(!ltt_app_get_event_filter_v(&r, &fgot, LTT_APP_MINOR_LAYOUT) &&
	       fgot.layout == f.layout && fgot.nr_programs == 1 && fgot.programs[0].len == 2,
	       "... decoded with its layout and program");
	ltt_rbuf_init(&r, filter8, sizeof(filter8));
	tap_is_int(ltt_app_get_event_filter_v(&r, &fgot, BEFORE_LAYOUT), -EPROTO,
		   "... refused by a program of minor 7");

	/* a description's layout: the hash of the bytes it came in, never 0 */
	ltt_wbuf_reset(&w);
	ltt_app_put_tracepoint(&w, &ref_tp);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_app_get_tracepoint(&r, &tp) && tp->layout == ltt_app_layout_of(w.data, w.len) &&
	       tp->layout != 0, "a decoded description's layout: ltt_app_layout_of() its bytes");
	tap_ok(ltt_app_layout_of(NULL, 0) != 0, "the layout of no bytes is not 0 either");
	free(tp);
	ltt_wbuf_fini(&w);
}

int main(void)
{
	test_messages();
	test_channel_contexts();
	test_tracepoints_msg();
	test_random_messages();
	test_event_filter();
	test_event_layout();
	return tap_done();
}
