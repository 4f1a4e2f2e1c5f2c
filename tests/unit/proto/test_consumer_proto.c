// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_consumer_proto.c - the consumer protocol's payload codecs:
 * ADD_CHANNEL with and without its domain block (a user-space channel
 * encodes exactly as protocol 1.0 did), ADD_KERNEL_STREAM, and what the
 * decoders refuse; every other payload's exact bytes, round trip, each
 * truncated prefix and a trailing byte refused; ADD_TRACE in its 1.1 and
 * 1.2 forms (the relay commands: test_consumer_proto_relay.c); the number
 * of data threads both daemons take on their command lines.
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/codec.h"
#include "common/proto/consumer-proto.h"
#include "tests/unit/tap.h"

static const struct ltt_consumer_add_channel user_chan = {
	.key = 11, .trace_key = 22, .name = "chan0", .tracefile_size = 1 << 20,
	.tracefile_count = 3, .switch_timer_us = 1000, .read_timer_us = 2000,
	.overwrite = true,
};

/* The 1.0 encoding, field by field, as the session daemon sent it. */
static void put_v10(struct ltt_wbuf *w, const struct ltt_consumer_add_channel *m)
{
	ltt_wbuf_put_u64(w, m->key);
	ltt_wbuf_put_u64(w, m->trace_key);
	ltt_wbuf_put_str(w, m->name);
	ltt_wbuf_put_u64(w, m->tracefile_size);
	ltt_wbuf_put_u64(w, m->tracefile_count);
	ltt_wbuf_put_u32(w, m->switch_timer_us);
	ltt_wbuf_put_u32(w, m->read_timer_us);
	ltt_wbuf_put_u8(w, m->overwrite);
}

static int decode_channel(const struct ltt_wbuf *w, struct ltt_consumer_add_channel *ret)
{
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, w->data, w->len);
	return ltt_consumer_get_add_channel(&r, ret);
}

static void test_user_channel(void)
{
	struct ltt_consumer_add_channel got;
	struct ltt_wbuf a, b;

	ltt_wbuf_init(&a);
	ltt_wbuf_init(&b);
	ltt_consumer_put_add_channel(&a, &user_chan);
	put_v10(&b, &user_chan);
	tap_ok(!a.err && a.len == b.len && !memcmp(a.data, b.data, a.len),
	       "a user-space ADD_CHANNEL is byte for byte the 1.0 encoding (%zu bytes)", a.len);
	memset(&got, 0xaa, sizeof(got));
	tap_is_int(decode_channel(&b, &got), 0, "a 1.0 ADD_CHANNEL decodes");
	tap_is_int(got.domain, LTT_CONSUMER_DOMAIN_USER, "as a user-space channel");
	tap_ok(got.key == 11 && got.trace_key == 22 && !strcmp(got.name, "chan0") &&
	       got.tracefile_size == 1 << 20 && got.tracefile_count == 3 &&
	       got.switch_timer_us == 1000 && got.read_timer_us == 2000 && got.overwrite &&
	       !got.subbuf_size && !got.num_subbuf, "with every field as sent");
	/* a user-space channel with a domain block is malformed */
	ltt_wbuf_put_u8(&b, LTT_CONSUMER_DOMAIN_USER);
	ltt_wbuf_put_u64(&b, 4096);
	ltt_wbuf_put_u64(&b, 4);
	tap_is_int(decode_channel(&b, &got), -EPROTO, "a domain block saying user space: EPROTO");
	ltt_wbuf_fini(&a);
	ltt_wbuf_fini(&b);
}

/* 1.12: ADD_CHANNEL's overwrite byte carries flags; fsync is bit 1. */
static void test_fsync_flag(void)
{
	struct ltt_consumer_add_channel m = user_chan, got;
	struct ltt_wbuf w, v;
	size_t flags_at;

	m.fsync = true;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	memset(&got, 0, sizeof(got));
	tap_is_int(decode_channel(&w, &got), 0, "fsync: a synced channel decodes");
	tap_ok(got.fsync && got.overwrite, "fsync: both flags as sent");
	m.overwrite = false;
	ltt_wbuf_init(&v);
	ltt_consumer_put_add_channel(&v, &m);
	tap_ok(!decode_channel(&v, &got) && got.fsync && !got.overwrite,
	       "fsync: without overwrite");
	/* the flags are the message's last byte for user space: another bit fails */
	flags_at = w.len - 1;
	tap_is_int(w.data[flags_at], 3, "fsync: the byte holds overwrite | fsync << 1");
	w.data[flags_at] = 8;
	tap_is_int(decode_channel(&w, &got), -EPROTO, "fsync: an unknown flag bit: EPROTO");
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&v);
}

/* 1.17: bit 2, automatic reclaim, and its ages after the flags. */
static void test_auto_reclaim_flag(void)
{
	struct ltt_consumer_add_channel m = user_chan, got;
	struct ltt_wbuf w;

	m.overwrite = false;
	m.auto_reclaim = true;
	m.auto_reclaim_ns = 200000000;
	m.auto_reclaim_counts = 600000000;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	memset(&got, 0, sizeof(got));
	tap_is_int(decode_channel(&w, &got), 0, "auto reclaim: decodes");
	tap_ok(got.auto_reclaim && got.auto_reclaim_ns == 200000000 &&
	       got.auto_reclaim_counts == 600000000 && !got.overwrite,
	       "auto reclaim: the flag and both ages as sent");
	tap_is_int(w.data[w.len - 17], 4, "auto reclaim: bit 2 of the flags, the ages after them");
	w.len -= 8;
	tap_is_int(decode_channel(&w, &got), -EPROTO, "auto reclaim: an age missing: EPROTO");
	ltt_wbuf_fini(&w);
	m.overwrite = true;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	tap_is_int(decode_channel(&w, &got), -EOPNOTSUPP,
		   "auto reclaim: an overwrite-mode channel's: EOPNOTSUPP");
	ltt_wbuf_fini(&w);
	m.overwrite = false;
	m.domain = LTT_CONSUMER_DOMAIN_KERNEL;
	m.subbuf_size = 1 << 16;
	m.num_subbuf = 4;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	tap_is_int(decode_channel(&w, &got), -EOPNOTSUPP, "auto reclaim: a kernel channel's: EOPNOTSUPP");
	ltt_wbuf_fini(&w);
}

/* ADD_CHANNEL of @domain with the given geometry, decoded. */
static int kernel_case(uint8_t domain, uint64_t subbuf_size, uint64_t num_subbuf,
		       struct ltt_consumer_add_channel *ret)
{
	struct ltt_wbuf w;
	int status;

	ltt_wbuf_init(&w);
	put_v10(&w, &user_chan);
	ltt_wbuf_put_u8(&w, domain);
	ltt_wbuf_put_u64(&w, subbuf_size);
	ltt_wbuf_put_u64(&w, num_subbuf);
	status = decode_channel(&w, ret);
	ltt_wbuf_fini(&w);
	return status;
}

static void test_kernel_channel(void)
{
	struct ltt_consumer_add_channel m = user_chan, got;
	struct ltt_wbuf w;

	m.domain = LTT_CONSUMER_DOMAIN_KERNEL;
	m.subbuf_size = 256 * 1024;
	m.num_subbuf = 8;
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_channel(&w, &m);
	tap_is_int(decode_channel(&w, &got), 0, "a kernel ADD_CHANNEL decodes");
	tap_ok(got.domain == LTT_CONSUMER_DOMAIN_KERNEL && got.subbuf_size == 256 * 1024 &&
	       got.num_subbuf == 8 && !strcmp(got.name, "chan0") && got.overwrite,
	       "with its domain and geometry");
	/* cut inside the block */
	w.len -= 3;
	tap_is_int(decode_channel(&w, &got), -EPROTO, "a truncated domain block: EPROTO");
	w.len += 3;
	ltt_wbuf_put_u8(&w, 0);
	tap_is_int(decode_channel(&w, &got), -EPROTO, "a trailing byte: EPROTO");
	ltt_wbuf_fini(&w);

	tap_is_int(kernel_case(7, 4096, 4, &got), -EOPNOTSUPP, "an unknown domain: EOPNOTSUPP");
	tap_is_int(kernel_case(1, 4096, 2, &got), 0, "the smallest kernel geometry is taken");
	tap_is_int(kernel_case(1, 2048, 4, &got), -EINVAL, "sub-buffers below 4 KiB: EINVAL");
	tap_is_int(kernel_case(1, 12288, 4, &got), -EINVAL,
		   "sub-buffers not a power of two: EINVAL");
	tap_is_int(kernel_case(1, 4096, 3, &got), -EINVAL, "a count not a power of two: EINVAL");
	tap_is_int(kernel_case(1, 4096, 1, &got), -EINVAL, "one sub-buffer: EINVAL");
	tap_is_int(kernel_case(1, 4096, 8192, &got), -EINVAL, "too many sub-buffers: EINVAL");
	tap_is_int(kernel_case(1, 64 << 20, 32, &got), -EINVAL,
		   "more than 1 GiB per CPU: EINVAL");
	tap_is_int(kernel_case(1, 0, 0, &got), -EINVAL, "no geometry: EINVAL");
}

static void test_kernel_stream(void)
{
	struct ltt_consumer_add_kernel_stream m = { .channel_key = 0x1122334455667788ULL, .cpu = 5 };
	struct ltt_consumer_add_kernel_stream got = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_consumer_put_add_kernel_stream(&w, &m);
	tap_is_int((int)w.len, 12, "ADD_KERNEL_STREAM is {u64 channel_key, u32 cpu}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), 0, "and decodes");
	tap_ok(got.channel_key == m.channel_key && got.cpu == 5, "to what was sent");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_put_u8(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_add_kernel_stream(&r, &got), -EPROTO, "trailing byte: EPROTO");
	ltt_wbuf_fini(&w);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_KERNEL_STREAM), "ADD_KERNEL_STREAM",
		   "the message has its name");
	tap_ok(LTT_CONSUMER_MINOR >= 1, "the protocol minor says the additions are there");
	/* 1.14: the same bodies with the channel's statistics page as their last fd */
	tap_ok(LTT_CONSUMER_MSG_ADD_KERNEL_STREAM_STATS == 26 &&
	       LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS == 27 &&
	       !strcmp(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_KERNEL_STREAM_STATS),
		       "ADD_KERNEL_STREAM_STATS") &&
	       !strcmp(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_FTRACE_STREAM_STATS),
		       "ADD_FTRACE_STREAM_STATS"),
	       "ADD_KERNEL_STREAM_STATS (26) and ADD_FTRACE_STREAM_STATS (27) have their names");
	tap_ok(LTT_CONSUMER_MINOR >= LTT_CONSUMER_MINOR_KERNEL_STATS &&
	       LTT_CONSUMER_MINOR_KERNEL_STATS == 14, "they are 1.14's");
	tap_ok(offsetof(struct ltt_consumer_stream_stats, source_events_lost) == 80 &&
	       offsetof(struct ltt_consumer_stream_stats, source_own_discarded) == 88 &&
	       sizeof(struct ltt_consumer_stream_stats) == LTT_CONSUMER_STATS_SLOT,
	       "the slot's source_events_lost follows error_rb_base, source_own_discarded it "
	       "(a consumer before it left 0 there: nothing to carry), in the same 128 bytes");
	tap_ok(offsetof(struct ltt_consumer_stream_stats, ledger) == 96 &&
	       offsetof(struct ltt_consumer_stream_stats, ledger.kept) == 120 &&
	       sizeof(struct ltt_consumer_ledger) == 32,
	       "the slot's ledger follows them, its kept word last (a consumer before it "
	       "left 0 there: no ledger), in the same 128 bytes");
}

/* ---- the other payloads: exact bytes, round trip, truncation ---- */

#define LE32(v) (uint8_t)(v), (uint8_t)((v) >> 8), (uint8_t)((v) >> 16), (uint8_t)((v) >> 24)
#define LE64(v) LE32((uint32_t)(v)), LE32((uint32_t)((uint64_t)(v) >> 32))

struct kind {
	const char *name;
	void (*put)(struct ltt_wbuf *w, const void *m);
	int (*get)(struct ltt_rbuf *r, void *ret);
	const void *sample;
	const uint8_t *wire;
	size_t wire_len;
	bool (*equal)(const void *a, const void *b);
};

union any_msg {
	struct ltt_consumer_version version;
	struct ltt_consumer_add_trace add_trace;
	struct ltt_consumer_metadata metadata;
	struct ltt_consumer_add_stream add_stream;
	struct ltt_consumer_flush_channel flush;
	struct ltt_consumer_channel_stats stats;
	uint64_t key;
	int32_t status;
};

static const struct ltt_consumer_version version = { .major = 1, .minor = 0x01020304 };
static const uint8_t version_wire[] = { LE32(1), LE32(0x01020304) };

static const struct ltt_consumer_add_trace add_trace = {
	.key = 0x1122334455667788ULL, .dir = "/t/ust",
	.uuid = { 0xf0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff },
	.uid = 1000, .gid = 0xfffffffe,
};
static const uint8_t add_trace_wire[] = {
	LE64(0x1122334455667788ULL),
	LE32(7), '/', 't', '/', 'u', 's', 't', 0,
	0xf0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 0xff,
	LE32(1000), LE32(0xfffffffe),
};

static const struct ltt_consumer_metadata metadata = {
	.trace_key = 9, .text = "/* CTF", .len = 6,
};
static const uint8_t metadata_wire[] = {
	LE64(9), LE32(6), '/', '*', ' ', 'C', 'T', 'F',
};

static const struct ltt_consumer_add_stream add_stream = { .channel_key = 77, .cpu = 3 };
static const uint8_t add_stream_wire[] = { LE64(77), LE32(3) };

static const struct ltt_consumer_flush_channel flush = { .channel_key = 5, .final = true };
static const uint8_t flush_wire[] = { LE64(5), 1 };
/* a stop's flush (1.11): the stopped flag, sent only when set */
static const struct ltt_consumer_flush_channel flush_stop = { .channel_key = 6, .stopped = true };
static const uint8_t flush_stop_wire[] = { LE64(6), 0, 1 };

static const uint64_t key = 0x8000000000000001ULL;
static const uint8_t key_wire[] = { LE64(0x8000000000000001ULL) };

static const struct ltt_consumer_channel_stats stats = {
	.events_lost = 1, .packets_lost = 2, .bytes_written = 0x100000000ULL,
};
static const uint8_t stats_wire[] = { LE64(1), LE64(2), LE64(0x100000000ULL) };

#define ADAPT(fn, type) \
	static void put_##fn(struct ltt_wbuf *w, const void *m) \
	{ ltt_consumer_put_##fn(w, (const type *)m); } \
	static int get_##fn(struct ltt_rbuf *r, void *m) \
	{ return ltt_consumer_get_##fn(r, (type *)m); }

ADAPT(version, struct ltt_consumer_version)
ADAPT(add_trace, struct ltt_consumer_add_trace)
ADAPT(metadata, struct ltt_consumer_metadata)
ADAPT(add_stream, struct ltt_consumer_add_stream)
ADAPT(flush_channel, struct ltt_consumer_flush_channel)
ADAPT(channel_stats, struct ltt_consumer_channel_stats)

static void put_key(struct ltt_wbuf *w, const void *m)
{
	ltt_consumer_put_key(w, *(const uint64_t *)m);
}

static int get_key(struct ltt_rbuf *r, void *m)
{
	return ltt_consumer_get_key(r, m);
}

static bool equal_add_trace(const void *a, const void *b)
{
	const struct ltt_consumer_add_trace *x = a, *y = b;

	return x->key == y->key && !strcmp(x->dir, y->dir) &&
	       !memcmp(x->uuid, y->uuid, sizeof(x->uuid)) && x->uid == y->uid && x->gid == y->gid;
}

static bool equal_metadata(const void *a, const void *b)
{
	const struct ltt_consumer_metadata *x = a, *y = b;

	return x->trace_key == y->trace_key && x->len == y->len &&
	       !memcmp(x->text, y->text, x->len);
}

static bool equal_add_stream(const void *a, const void *b)
{
	const struct ltt_consumer_add_stream *x = a, *y = b;

	return x->channel_key == y->channel_key && x->cpu == y->cpu;
}

static bool equal_flush(const void *a, const void *b)
{
	const struct ltt_consumer_flush_channel *x = a, *y = b;

	return x->channel_key == y->channel_key && x->final == y->final &&
	       x->stopped == y->stopped;
}

static bool equal_stats(const void *a, const void *b)
{
	return !memcmp(a, b, sizeof(struct ltt_consumer_channel_stats));
}

static bool equal_version(const void *a, const void *b)
{
	const struct ltt_consumer_version *x = a, *y = b;

	return x->major == y->major && x->minor == y->minor;
}

static bool equal_key(const void *a, const void *b)
{
	return *(const uint64_t *)a == *(const uint64_t *)b;
}

#define KIND(n, fn, eq) { #n, put_##fn, get_##fn, &n, n##_wire, sizeof(n##_wire), eq }

static const struct kind kinds[] = {
	KIND(version, version, equal_version),
	KIND(add_trace, add_trace, equal_add_trace),
	KIND(metadata, metadata, equal_metadata),
	KIND(add_stream, add_stream, equal_add_stream),
	KIND(flush, flush_channel, equal_flush),
	KIND(key, key, equal_key),
	KIND(stats, channel_stats, equal_stats),
};

/* Decode from a heap copy of exactly @len bytes (ASan sees overreads). */
static int decode(const struct kind *k, const uint8_t *p, size_t len, uint8_t *copy,
		  union any_msg *ret)
{
	struct ltt_rbuf r;

	memcpy(copy, p, len);
	ltt_rbuf_init(&r, copy, len);
	return k->get(&r, ret);
}

static void test_payloads(void)
{
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct kind *k = &kinds[i];
		uint8_t *copy = malloc(k->wire_len + 1);
		size_t refused = 0, len;
		union any_msg got;
		struct ltt_wbuf w;

		if (!copy)
			abort();
		ltt_wbuf_init(&w);
		k->put(&w, k->sample);
		tap_ok(!w.err && w.len == k->wire_len && !memcmp(w.data, k->wire, w.len),
		       "%s: encodes to its %zu bytes", k->name, k->wire_len);
		memset(&got, 0, sizeof(got));
		tap_ok(!decode(k, k->wire, k->wire_len, copy, &got) && k->equal(&got, k->sample),
		       "%s: decodes to what was sent", k->name);
		for (len = 0; len < k->wire_len; len++) {
			struct ltt_rbuf r;

			ltt_rbuf_init(&r, copy, len);
			if (k->get(&r, &got) == -EPROTO)
				refused++;
		}
		tap_is_int((int)refused, (int)k->wire_len, "%s: every truncated prefix: EPROTO",
			   k->name);
		ltt_wbuf_put_u8(&w, 0);
		memcpy(copy, w.data, w.len);
		{
			struct ltt_rbuf r;

			ltt_rbuf_init(&r, copy, w.len);
			tap_is_int(k->get(&r, &got), -EPROTO, "%s: a trailing byte: EPROTO", k->name);
		}
		ltt_wbuf_fini(&w);
		free(copy);
	}
}

static uint64_t rng = 0x2545f4914f6cdd1dULL;

/*
 * Each decoder, ADD_CHANNEL's included, against random bytes and its
 * sample with bytes changed or cut: 0 or its documented errors, never a
 * crash or an overread (the copy is exactly sized), strings in bounds.
 */
static void test_random_payloads(void)
{
	unsigned int odd = 0, unbounded = 0, accepted = 0, total = 0;
	uint8_t buf[128], *copy;

	for (size_t i = 0; i <= sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct kind *k = i < sizeof(kinds) / sizeof(kinds[0]) ? &kinds[i] : NULL;

		for (int n = 0; n < 20000; n++) {
			union {
				union any_msg m;
				struct ltt_consumer_add_channel chan;
			} got;
			struct ltt_rbuf r;
			size_t len;
			int err;

			len = tap_fuzz_input(&rng, n, buf, k ? k->wire : NULL, k ? k->wire_len : 0);
			copy = tap_dup(buf, len);
			ltt_rbuf_init(&r, copy, len);
			err = k ? k->get(&r, &got) : ltt_consumer_get_add_channel(&r, &got.chan);
			total++;
			if (err && err != -EPROTO && (k || (err != -EOPNOTSUPP && err != -EINVAL)))
				odd++;
			if (!err) {
				accepted++;
				if ((k == &kinds[1] && strlen(got.m.add_trace.dir) >= LTT_CONSUMER_PATH_MAX) ||
				    (!k && strlen(got.chan.name) > NAME_MAX))
					unbounded++;
			}
			free(copy);
		}
	}
	tap_diag("%u random or mutated payloads, %u accepted", total, accepted);
	tap_is_int((int)odd, 0, "random payloads: every decoder returns 0 or its documented errors");
	tap_is_int((int)unbounded, 0, "random payloads: every accepted string is within its limit");
}

static int decode_bytes(int (*get)(struct ltt_rbuf *, void *), const void *p, size_t len)
{
	union any_msg got;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, p, len);
	return get(&r, &got);
}

static void test_bad_payloads(void)
{
	static uint8_t long_dir[8 + 4 + LTT_CONSUMER_PATH_MAX + 1 + 16 + 8];
	const uint8_t no_nul[] = { LE64(1), LE32(2), 'a', 'b', 0, 0, 0, 0, 0, 0, 0, 0,
				   0, 0, 0, 0, 0, 0, 0, 0, LE32(0), LE32(0) };
	const uint8_t inner_nul[] = { LE64(1), LE32(3), 'a', 0, 0, 0, 0, 0, 0, 0, 0, 0,
				      0, 0, 0, 0, 0, 0, 0, 0, 0, LE32(0), LE32(0) };
	const uint8_t flush_two[] = { LE64(5), 2 };
	const uint8_t flush_stop_zero[] = { LE64(5), 0, 0 };
	const uint8_t flush_stop_more[] = { LE64(5), 0, 1, 1 };
	struct ltt_consumer_flush_channel fl;
	const uint8_t meta_long[] = { LE64(9), LE32(7), 'a', 'b', 'c', 'd', 'e', 'f' };
	const uint8_t meta_huge[] = { LE64(9), LE32(0xffffffff), 'a' };
	struct ltt_consumer_metadata big = { .trace_key = 1, .text = "", .len = 0 };
	struct ltt_wbuf w;
	size_t len = 0;
	int32_t status;
	uint8_t st[4];
	struct ltt_rbuf r;

	tap_is_int(decode_bytes(get_add_trace, no_nul, sizeof(no_nul)), -EPROTO,
		   "ADD_TRACE: a directory without its NUL: EPROTO");
	tap_is_int(decode_bytes(get_add_trace, inner_nul, sizeof(inner_nul)), -EPROTO,
		   "ADD_TRACE: a directory with a NUL inside: EPROTO");
	/* a directory of LTT_CONSUMER_PATH_MAX bytes before its NUL */
	memset(long_dir, 0, sizeof(long_dir));
	long_dir[8] = (uint8_t)((LTT_CONSUMER_PATH_MAX + 1) & 0xff);
	long_dir[9] = (uint8_t)((LTT_CONSUMER_PATH_MAX + 1) >> 8);
	memset(long_dir + 12, 'd', LTT_CONSUMER_PATH_MAX);
	len = sizeof(long_dir);
	tap_is_int(decode_bytes(get_add_trace, long_dir, len), -EPROTO,
		   "ADD_TRACE: a directory over %d bytes: EPROTO", LTT_CONSUMER_PATH_MAX);
	tap_is_int(decode_bytes(get_flush_channel, flush_two, sizeof(flush_two)), -EPROTO,
		   "FLUSH_CHANNEL: final 2: EPROTO");
	/* (not among the kinds: its prefix without the flag is a 1.10 FLUSH) */
	ltt_wbuf_init(&w);
	ltt_consumer_put_flush_channel(&w, &flush_stop);
	tap_ok(!w.err && w.len == sizeof(flush_stop_wire) &&
	       !memcmp(w.data, flush_stop_wire, w.len), "FLUSH_CHANNEL stopped (1.11): its bytes");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_flush_channel(&r, &fl) && equal_flush(&fl, &flush_stop),
	       "... and back");
	ltt_wbuf_fini(&w);
	tap_is_int(decode_bytes(get_flush_channel, flush_stop_zero, sizeof(flush_stop_zero)),
		   -EPROTO, "FLUSH_CHANNEL: a stopped flag of 0 (never sent): EPROTO");
	tap_is_int(decode_bytes(get_flush_channel, flush_stop_more, sizeof(flush_stop_more)),
		   -EPROTO, "FLUSH_CHANNEL: a byte after the stopped flag: EPROTO");
	tap_is_int(decode_bytes(get_metadata, meta_long, sizeof(meta_long)), -EPROTO,
		   "METADATA: a length past the end: EPROTO");
	tap_is_int(decode_bytes(get_metadata, meta_huge, sizeof(meta_huge)), -EPROTO,
		   "METADATA: a length of 2^32-1: EPROTO");

	ltt_wbuf_init(&w);
	big.len = LTT_CONSUMER_METADATA_MAX + 1;
	ltt_consumer_put_metadata(&w, &big);
	tap_ok(w.err == -E2BIG && w.len == 0, "METADATA over the limit: E2BIG, nothing written");

	/* Reply status: 0 or a negative errno, the body left to the caller. */
	ltt_wbuf_reset(&w);
	ltt_consumer_put_status(&w, -ENOENT);
	ltt_consumer_put_key(&w, 3);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_status(&r, &status) && status == -ENOENT && r.pos == 4,
	       "a reply's status is an i32, read alone");
	tap_ok(w.len == 12 && w.data[0] == 0xfe && w.data[3] == 0xff,
	       "-ENOENT travels as little-endian two's complement");
	st[0] = 1;
	st[1] = st[2] = st[3] = 0;
	ltt_rbuf_init(&r, st, 4);
	tap_is_int(ltt_consumer_get_status(&r, &status), -EPROTO, "a positive status: EPROTO");
	ltt_rbuf_init(&r, st, 3);
	tap_is_int(ltt_consumer_get_status(&r, &status), -EPROTO, "a short status: EPROTO");
	ltt_wbuf_fini(&w);
}

/* The 1.1 ADD_TRACE, field by field. */
static void put_trace_v11(struct ltt_wbuf *w, const struct ltt_consumer_add_trace *m)
{
	ltt_wbuf_put_u64(w, m->key);
	ltt_wbuf_put_str(w, m->dir);
	ltt_wbuf_put_bytes(w, m->uuid, 16);
	ltt_wbuf_put_u32(w, m->uid);
	ltt_wbuf_put_u32(w, m->gid);
}

static void test_add_trace(void)
{
	struct ltt_consumer_add_trace m = {
		.key = 7, .dir = "/tmp/t/ust/uid/0/64-bit", .uid = 1000, .gid = 100,
	}, got;
	struct ltt_wbuf a, b;
	struct ltt_rbuf r;

	memset(m.uuid, 0x5a, sizeof(m.uuid));
	m.uuid[15] = 1;
	ltt_wbuf_init(&a);
	ltt_wbuf_init(&b);
	ltt_consumer_put_add_trace(&a, &m);
	put_trace_v11(&b, &m);
	tap_ok(!a.err && a.len == b.len && !memcmp(a.data, b.data, a.len),
	       "a local ADD_TRACE is byte for byte the 1.1 encoding (%zu bytes)", a.len);
	memset(&got, 0xaa, sizeof(got));
	ltt_rbuf_init(&r, b.data, b.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), 0, "a 1.1 ADD_TRACE decodes");
	tap_ok(got.key == 7 && !strcmp(got.dir, m.dir) && !memcmp(got.uuid, m.uuid, 16) &&
	       got.uid == 1000 && got.gid == 100 && got.relay_key == 0,
	       "with every field as sent and relay_key 0");

	ltt_wbuf_reset(&a);
	m.dir = "ust/uid/0/64-bit";
	m.relay_key = 0x0102030405060708ULL;
	ltt_consumer_put_add_trace(&a, &m);
	ltt_wbuf_reset(&b);
	put_trace_v11(&b, &m);
	tap_is_int((int)(a.len - b.len), 8, "a relayed ADD_TRACE adds a trailing u64");
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), 0, "and decodes");
	tap_ok(got.relay_key == m.relay_key && !strcmp(got.dir, "ust/uid/0/64-bit"),
	       "to its relay key and relative directory");
	ltt_rbuf_init(&r, a.data, a.len - 3);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "a cut relay key: EPROTO");
	ltt_wbuf_put_u8(&a, 0);
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "a trailing byte: EPROTO");
	ltt_rbuf_init(&r, b.data, 20);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "truncated: EPROTO");
	ltt_wbuf_fini(&a);
	ltt_wbuf_fini(&b);
}

static void test_takeover(void)
{
	struct ltt_consumer_add_trace m = {
		.key = 9, .dir = "/tmp/t/ust/uid/0/64-bit", .uid = 1000, .gid = 100,
		.resume = true,
	}, got;
	struct ltt_wbuf a, b;
	struct ltt_rbuf r;

	memset(m.uuid, 0x11, sizeof(m.uuid));
	ltt_wbuf_init(&a);
	ltt_wbuf_init(&b);
	ltt_consumer_put_add_trace(&a, &m);
	put_trace_v11(&b, &m);
	tap_is_int((int)(a.len - b.len), 9, "a resumed local ADD_TRACE adds relay_key 0 and u8 1");
	memset(&got, 0, sizeof(got));
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), 0, "and decodes");
	tap_ok(got.resume && got.relay_key == 0 && got.key == 9 && !strcmp(got.dir, m.dir),
	       "to resume, local, every other field as sent");
	a.data[a.len - 1] = 0;
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO,
		   "resume 0 on the wire: EPROTO (0 is sent by leaving it out)");
	a.data[a.len - 1] = 2;
	ltt_rbuf_init(&r, a.data, a.len);
	tap_is_int(ltt_consumer_get_add_trace(&r, &got), -EPROTO, "resume 2: EPROTO");
	ltt_wbuf_reset(&a);
	m.resume = false;
	ltt_consumer_put_add_trace(&a, &m);
	ltt_rbuf_init(&r, a.data, a.len);
	tap_ok(!ltt_consumer_get_add_trace(&r, &got) && !got.resume && a.len == b.len,
	       "without resume, ADD_TRACE is the 1.1 encoding and decodes to resume false");
	ltt_wbuf_fini(&a);
	ltt_wbuf_fini(&b);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ADD_STREAM_STATS), "ADD_STREAM_STATS",
		   "ADD_STREAM_STATS (16) has its name");
	tap_is_int(LTT_CONSUMER_MSG_ADD_STREAM_STATS, 16, "ADD_STREAM_STATS is 16");
	tap_is_int((int)sizeof(struct ltt_consumer_stream_stats), LTT_CONSUMER_STATS_SLOT,
		   "a stream's counters fill one 128-byte slot (1.5)");
	tap_is_int((int)offsetof(struct ltt_consumer_stream_stats, error), 40,
		   "the failure words follow the 1.4 counters");
	tap_ok(LTT_CONSUMER_STATS_SIZE(1) == 4096 && LTT_CONSUMER_STATS_SIZE(32) == 4096 &&
	       LTT_CONSUMER_STATS_SIZE(33) == 8192, "the page is whole pages of 32 slots");
}

/* 1.5: CHANNEL_STATS's output failure, appended; PROBE_OUTPUT. */
static void test_output_failure(void)
{
	struct ltt_consumer_channel_stats st = {
		.events_lost = 7, .packets_lost = 2, .bytes_written = 4096,
		.error = -ENOSPC, .error_since = 1795359618, .error_events = 5,
		.error_packets = 1,
	}, got;
	struct ltt_consumer_probe_output po = { .dir = "/t/out", .uid = 1000, .gid = 100 }, pg;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_consumer_put_channel_stats(&w, &st);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_channel_stats(&r, &got) && got.events_lost == 7 &&
	       got.packets_lost == 2 && got.bytes_written == 4096 && !got.error &&
	       !got.error_since && !got.error_events && !got.error_packets,
	       "CHANNEL_STATS as 1.2 sends it: no failure");
	ltt_consumer_put_channel_error(&w, &st);
	tap_is_int((int)w.len, 24 + 28, "1.5 appends {i32, i64, u64, u64}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_channel_stats(&r, &got) && got.error == -ENOSPC &&
	       got.error_since == 1795359618 && got.error_events == 5 && got.error_packets == 1,
	       "and decodes to the failure sent");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_channel_stats(&r, &got), -EPROTO, "truncated: EPROTO");
	w.data[24] = 28;	/* error 28: positive */
	memset(w.data + 25, 0, 3);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_channel_stats(&r, &got), -EPROTO, "a positive error: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_consumer_put_probe_output(&w, &po);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_probe_output(&r, &pg) && !strcmp(pg.dir, "/t/out") &&
	       pg.uid == 1000 && pg.gid == 100, "PROBE_OUTPUT round trip");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_probe_output(&r, &pg), -EPROTO, "PROBE_OUTPUT truncated: EPROTO");
	ltt_wbuf_fini(&w);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_PROBE_OUTPUT), "PROBE_OUTPUT",
		   "PROBE_OUTPUT has its name");
	tap_is_int(LTT_CONSUMER_MSG_PROBE_OUTPUT, 17, "PROBE_OUTPUT is 17, after ADD_STREAM_STATS");
}

/* 1.6: ADD_SNAPSHOT_TRACE, SNAPSHOT_TRACE and its reply. */
static void test_snapshot(void)
{
	struct ltt_consumer_add_snapshot_trace at = { .key = 42, .uid = 1000, .gid = 100 }, ag;
	struct ltt_consumer_snapshot_trace st = { .trace_key = 42, .dir = "/t/snap-0",
						  .max_packets = 3 }, sg;
	struct ltt_consumer_snapshot_reply rp = { 7, 7 * 4096, 2 }, rg;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	memset(at.uuid, 0xab, sizeof(at.uuid));
	ltt_wbuf_init(&w);
	ltt_consumer_put_add_snapshot_trace(&w, &at);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_add_snapshot_trace(&r, &ag) && ag.key == 42 && ag.uid == 1000 &&
	       ag.gid == 100 && !memcmp(ag.uuid, at.uuid, sizeof(at.uuid)),
	       "ADD_SNAPSHOT_TRACE round trip");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_add_snapshot_trace(&r, &ag), -EPROTO,
		   "ADD_SNAPSHOT_TRACE truncated: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_consumer_put_snapshot_trace(&w, &st);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_snapshot_trace(&r, &sg) && sg.trace_key == 42 &&
	       !strcmp(sg.dir, "/t/snap-0") && sg.max_packets == 3, "SNAPSHOT_TRACE round trip");
	ltt_wbuf_put_u8(&w, 0);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_snapshot_trace(&r, &sg), -EPROTO,
		   "SNAPSHOT_TRACE with a byte left over: EPROTO");
	/* 1.8: SNAPSHOT_TRACE_RELAY, the same with a relay key and a relative path */
	ltt_wbuf_reset(&w);
	st.relay_key = 9;
	st.dir = "ust/uid/0/64-bit";
	ltt_consumer_put_snapshot_trace_relay(&w, &st);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_snapshot_trace_relay(&r, &sg) && sg.trace_key == 42 &&
	       sg.relay_key == 9 && !strcmp(sg.dir, "ust/uid/0/64-bit") && sg.max_packets == 3,
	       "SNAPSHOT_TRACE_RELAY round trip");
	tap_is_int((int)w.len, 8 + 8 + 4 + 17 + 8, "SNAPSHOT_TRACE_RELAY: u64, u64, str (u32 length, bytes, NUL), u64");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_snapshot_trace_relay(&r, &sg), -EPROTO,
		   "SNAPSHOT_TRACE_RELAY truncated: EPROTO");
	tap_is_int(LTT_CONSUMER_MSG_SNAPSHOT_TRACE_RELAY, 22, "SNAPSHOT_TRACE_RELAY is 22");
	ltt_wbuf_reset(&w);
	ltt_consumer_put_snapshot_reply(&w, &rp);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_snapshot_reply(&r, &rg) && rg.packets == 7 &&
	       rg.bytes == 7 * 4096 && rg.packets_dropped == 2, "SNAPSHOT_TRACE's reply round trip");
	ltt_wbuf_fini(&w);
	tap_is_int(LTT_CONSUMER_MSG_ADD_SNAPSHOT_TRACE, 18, "ADD_SNAPSHOT_TRACE is 18");
	tap_is_int(LTT_CONSUMER_MSG_SNAPSHOT_TRACE, 19, "SNAPSHOT_TRACE is 19");
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_SNAPSHOT_TRACE), "SNAPSHOT_TRACE",
		   "SNAPSHOT_TRACE has its name");
}

/* 1.6: ROTATE_TRACE and RESET_METADATA (trace chunks). */
static void test_rotate(void)
{
	struct ltt_consumer_rotate_trace m = { .trace_key = 12, .clear = false,
					       .dir = "/t/out/20261122T173000+0000-1/ust" }, got;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint64_t tkey;

	ltt_wbuf_init(&w);
	ltt_consumer_put_rotate_trace(&w, &m);
	tap_is_int((int)w.len, 8 + 1 + 4 + (int)strlen(m.dir) + 1,
		   "ROTATE_TRACE is {u64 key, u8 clear, str dir}");
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_rotate_trace(&r, &got) && got.trace_key == 12 && !got.clear &&
	       !strcmp(got.dir, m.dir), "ROTATE_TRACE round trip");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	tap_is_int(ltt_consumer_get_rotate_trace(&r, &got), -EPROTO, "truncated: EPROTO");
	w.data[8] = 2;	/* clear 2: not a bool */
	ltt_rbuf_init(&r, w.data, w.len);
	tap_is_int(ltt_consumer_get_rotate_trace(&r, &got), -EPROTO, "clear 2: EPROTO");
	ltt_wbuf_reset(&w);
	m.clear = true;
	m.dir = "";
	ltt_consumer_put_rotate_trace(&w, &m);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_rotate_trace(&r, &got) && got.clear && !got.dir[0],
	       "a clear: round trip with an empty dir");
	ltt_wbuf_reset(&w);
	ltt_consumer_put_key(&w, 12);
	ltt_rbuf_init(&r, w.data, w.len);
	tap_ok(!ltt_consumer_get_key(&r, &tkey) && tkey == 12, "RESET_METADATA is {u64 key}");
	ltt_wbuf_fini(&w);
	tap_is_str(ltt_consumer_msg_name(LTT_CONSUMER_MSG_ROTATE_TRACE), "ROTATE_TRACE",
		   "ROTATE_TRACE has its name");
	tap_is_int(LTT_CONSUMER_MSG_ROTATE_TRACE, 20, "ROTATE_TRACE is 20 (18-19: snapshots)");
	tap_is_int(LTT_CONSUMER_MSG_RESET_METADATA, 21, "RESET_METADATA is 21");
	tap_ok(ltt_consumer_msg_name(18) == NULL || LTT_CONSUMER_MSG_NR_ > 21,
	       "numbers without a message have no name");
	tap_is_int(LTT_CONSUMER_MINOR_ROTATE, 7, "trace chunks came with minor 7");
}

/* --data-threads and --consumerd-data-threads: digits, 1 to 64, nothing else. */
static void test_data_threads(void)
{
	static const char *const bad[] = { "0", "65", "100", "abc", "", " 2", "2 ", "+2", "-1",
					   "0x2", "2x", "99999999999999999999" };
	unsigned int n = 7;
	size_t i;

	tap_ok(!ltt_consumer_data_threads_parse("1", &n) && n == 1, "'1': 1");
	tap_ok(!ltt_consumer_data_threads_parse("64", &n) && n == 64, "'64': 64");
	tap_ok(!ltt_consumer_data_threads_parse("002", &n) && n == 2, "'002': 2 (as strtol read it)");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = 7;
		tap_ok(ltt_consumer_data_threads_parse(bad[i], &n) == -EINVAL && n == 7,
		       "'%s': EINVAL, the number untouched", bad[i]);
	}
	tap_is_int(ltt_consumer_data_threads_parse(NULL, &n), -EINVAL, "NULL: EINVAL");
	tap_is_int(LTT_CONSUMER_DATA_THREADS_MAX, 64, "at most 64 data threads");
}

int main(void)
{
	test_snapshot();
	test_rotate();
	test_user_channel();
	test_fsync_flag();
	test_auto_reclaim_flag();
	test_kernel_channel();
	test_kernel_stream();
	test_payloads();
	test_random_payloads();
	test_bad_payloads();
	test_add_trace();
	test_takeover();
	test_output_failure();
	test_data_threads();
	return tap_done();
}
