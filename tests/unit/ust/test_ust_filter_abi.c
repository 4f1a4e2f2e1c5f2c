// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_filter_abi.c - filters and the tracepoint ABI, in-process
 * (src/ust/ust-internal.h plays the daemon):
 *
 *   - the descriptor's state says when a channel filters the event, and
 *     stops saying it when the filter is removed;
 *   - a probe that calls ltt_ust_probe_reserve() without arguments (an ABI
 *     1 probe, or one that read the state before the filter came) never
 *     records the event on a filtered channel;
 *   - ltt_tracef() under a filter on its message;
 *   - a descriptor of ABI 1 (built by hand, as the old header made them)
 *     is still registered and recorded; a filter for its event is refused
 *     with EOPNOTSUPP, the event then stays disabled on that channel until
 *     the filter is cleared;
 *   - the ip context: a channel that records it sets LTT_UST_STATE_CALL,
 *     the generated probe then passes its call site (one ip, in the
 *     function that calls the tracepoint), as probes of earlier headers
 *     do through ltt_ust_probe_reserve_filter(); a reserve without the
 *     call (a probe that read the state before the channel came) gets no
 *     slot there; a descriptor of ABI 1 gets the ip its probe stored with
 *     LTT_UST_CTX_IP_SET, or 0 without it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include <ltt/tracepoint.h>

#include "common/model/context.h"
#include "common/filter/filter-compile.h"
#include "common/trace/ringbuf.h"
#include "ust/ust-internal.h"
#include "tests/unit/tap.h"
#include "tests/unit/ust-filter.h"

LTT_TRACEPOINT_EVENT(abi, now,
	LTT_TP_ARGS(int v),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)))

/* What the header of ABI 1 generated for "abi:old" {int v}. */
static const struct ltt_ust_field old_fields[] = {
	{ "v", LTT_UST_TYPE_INTEGER, 4, 1, 10, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL },
};
static struct ltt_ust_tracepoint old_desc = {
	1, 13, "abi:old", 1, old_fields, 0, NULL, NULL, { NULL, NULL, NULL },
};
static struct ltt_ust_tracepoint *const old_module[] = { &old_desc };
static const char old_anchor;

#define KEY 5
#define SUBBUF 4096
#define NUM_SUBBUF 4
#define HDR 84		/* packet header */
#define EVENT_BYTES 8	/* compact header and an int */

static void *mem;
static size_t mem_len;

/* Bytes of events in the channel's one stream so far. */
static size_t bytes_recorded(void)
{
	return ust_filter_recorded(mem, mem_len, HDR);
}

/* Events so far, all of EVENT_BYTES (abi:now and abi:old). */
static unsigned int events_recorded(void)
{
	return (unsigned int)(bytes_recorded() / EVENT_BYTES);
}

static int set_filter_for(const char *event, const char *expr,
			  const struct ltt_filter_field_desc *field)
{
	return ust_filter_set(KEY, event, expr, field);
}

static int set_filter(const char *event, const char *expr)
{
	return set_filter_for(event, expr, &ust_filter_int_v);
}

/* A plain reserve, as an ABI 1 probe makes it; true when a slot came. */
static bool plain_record(struct ltt_ust_tracepoint *tp, int v)
{
	struct ltt_ust_ctx ctx;
	bool got = false;
	void *p;

	for (p = ltt_ust_probe_reserve(&ctx, tp, sizeof(v)); p; p = ltt_ust_probe_commit(&ctx)) {
		memcpy(p, &v, sizeof(v));
		got = true;
	}
	return got;
}

static void test_new_abi(void)
{
	unsigned int n0;
	int v;

	tap_is_int(set_filter("abi:now", "v > 10"), 0, "a filter on abi:now");
	tap_is_int(ltt_ust_test_enable_event(KEY, "abi:now", 1), 0, "abi:now enabled");
	tap_is_int(LTT_TP_DESC(abi, now).state, 1 | LTT_UST_STATE_FILTER,
		   "the descriptor's state says a channel filters it");
	n0 = events_recorded();
	for (v = 0; v < 20; v++)
		ltt_tracepoint(abi, now, v);
	tap_is_int((int)(events_recorded() - n0), 9, "v > 10: 9 of 0..19 recorded");
	n0 = events_recorded();
	tap_ok(!plain_record(&LTT_TP_DESC(abi, now), 50),
	       "a reserve without arguments gets no slot on the filtered channel");
	tap_is_int((int)(events_recorded() - n0), 0, "and records nothing there");
	tap_is_int(set_filter("abi:now", NULL), 0, "the filter removed");
	tap_is_int(LTT_TP_DESC(abi, now).state, 1, "the state no longer says it");
	n0 = events_recorded();
	for (v = 0; v < 20; v++)
		ltt_tracepoint(abi, now, v);
	tap_is_int((int)(events_recorded() - n0), 20, "every event recorded again");
}

/*
 * ltt_tracef() filtered on its message (a text sequence): "keep N" and
 * "drop N", 4 + 4 + 6 bytes each.
 */
static void test_tracef(void)
{
	static const struct ltt_filter_field_desc msg_field[] = {
		{ "msg", LTT_UST_TYPE_SEQUENCE, 1, (char)-1 < 0, LTT_UST_ENCODING_UTF8, 0, 0 },
	};
	size_t b0;
	int i;

	tap_is_int(set_filter_for("lttng_ust_tracef:event", "msg == \"keep*\"", msg_field), 0,
		   "a filter on ltt_tracef()'s message");
	tap_is_int(ltt_ust_test_enable_event(KEY, "lttng_ust_tracef:event", 3), 0,
		   "ltt_tracef() enabled");
	b0 = bytes_recorded();
	for (i = 0; i < 5; i++) {
		ltt_tracef("keep %d", i);
		ltt_tracef("drop %d", i);
	}
	tap_is_int((int)(bytes_recorded() - b0), 5 * 14, "the 5 \"keep\" messages only");
	ltt_ust_test_disable_event(KEY, "lttng_ust_tracef:event");
}

#define KEY_IP 6

static void *ip_mem;
static size_t ip_mem_len;

/*
 * The ip context of the events written in the ip channel since the last
 * call (reading consumes them), in order (each: a compact or extended
 * header, the 8-byte ip, an int); returns how many.
 */
static unsigned int ips_recorded(uint64_t *ips, unsigned int max)
{
	struct ltt_rb_packet pkt;
	struct ltt_rb rd;
	unsigned int n = 0;
	int ret;

	if (ltt_rb_attach(&rd, ip_mem, ip_mem_len))
		return 0;
	ltt_rb_flush(&rd, false);
	while ((ret = ltt_rb_get_next_subbuf(&rd, &pkt)) != -EAGAIN) {
		const uint8_t *p = (const uint8_t *)pkt.data + HDR;
		const uint8_t *end = (const uint8_t *)pkt.data + pkt.content_size;

		if (ret)
			continue;
		while (p < end && n < max) {
			size_t hl = (p[0] & 31) == 31 ? 13 : 4;

			memcpy(&ips[n++], p + hl, 8);
			p += hl + 8 + sizeof(int);
		}
		ltt_rb_put_subbuf(&rd, &pkt);
	}
	return n;
}

/* A plain reserve as the probes of earlier headers make it: @magic, @ip in the context. */
static bool plain_record_ip(struct ltt_ust_tracepoint *tp, int v, uint32_t magic, uint64_t ip)
{
	struct ltt_ust_ctx ctx;
	bool got = false;
	void *p;

	ctx.ltt_reserved0 = magic;
	ctx.ltt_reserved[1] = ip;
	for (p = ltt_ust_probe_reserve(&ctx, tp, sizeof(v)); p; p = ltt_ust_probe_commit(&ctx)) {
		memcpy(p, &v, sizeof(v));
		got = true;
	}
	return got;
}

/* A call through ltt_ust_probe_reserve_filter() with the call site @ip. */
static bool call_record(struct ltt_ust_tracepoint *tp, int v, uint64_t ip)
{
	const struct ltt_ust_arg arg = { &v, 0 };
	const struct ltt_ust_call call = { &arg, 1, 0, ip };
	struct ltt_ust_ctx ctx;
	bool got = false;
	void *p;

	p = ltt_ust_probe_reserve_filter(&ctx, tp, sizeof(v), &call);
	for (; p; p = ltt_ust_probe_commit(&ctx)) {
		memcpy(p, &v, sizeof(v));
		got = true;
	}
	return got;
}

static volatile unsigned int fired;

/* The tracepoint's call site: in here (no tail call: work follows). */
static __attribute__((noinline)) void fire(int v)
{
	ltt_tracepoint(abi, now, v);
	fired++;
}

static void test_ip_context(void)
{
	struct ltt_rb_config cfg = { .subbuf_size = SUBBUF, .num_subbuf = NUM_SUBBUF };
	struct ltt_ctx ip;
	uint64_t ips[64];
	unsigned int n, i;
	uintptr_t code = (uintptr_t)fire;
	bool same = true;

	if (ltt_ctx_parse("ip", &ip))
		exit(1);
	cfg.event_ctx_len = (uint32_t)ltt_ctx_len(&ip, 1);
	ip_mem_len = ltt_rb_region_size(SUBBUF, NUM_SUBBUF);
	ip_mem = mmap(NULL, ip_mem_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		      -1, 0);
	if (ip_mem == MAP_FAILED || ltt_rb_init_region(ip_mem, ip_mem_len, &cfg) ||
	    ltt_ust_test_add_channel(KEY_IP, 1, &ip_mem, &ip_mem_len) ||
	    ltt_ust_test_set_contexts(KEY_IP, &ip, 1))
		exit(1);
	tap_is_int(LTT_TP_DESC(abi, now).state, 1, "abi:now: no call needed on the plain channel");
	tap_is_int(ltt_ust_test_enable_event(KEY_IP, "abi:now", 4), 0,
		   "abi:now enabled on a channel with the ip context too");
	tap_is_int(LTT_TP_DESC(abi, now).state, 1 | LTT_UST_STATE_CALL,
		   "the state asks the probe for its call (LTT_UST_STATE_CALL)");

	ips_recorded(ips, 64);
	events_recorded();
	for (i = 0; i < 3; i++)
		fire((int)i);
	n = ips_recorded(ips, 64);
	tap_is_int((int)n, 3, "the generated probe: 3 events with an ip");
	tap_is_int((int)events_recorded(), 3, "and 3 on the plain channel too");
	for (i = 1; i < n; i++)
		same &= ips[i] == ips[0];
	tap_ok(n && same && ips[0] > code && ips[0] < code + 4096,
	       "one ip, in the function that calls the tracepoint (fire + %lld)",
	       n ? (long long)(ips[0] - code) : -1LL);

	tap_ok(call_record(&LTT_TP_DESC(abi, now), 1, 0x5a5a5a5a5aull) &&
	       ips_recorded(ips, 64) == 1 && ips[0] == 0x5a5a5a5a5aull,
	       "a call of an earlier header's probe: its call site recorded as the ip");
	events_recorded();
	tap_ok(plain_record_ip(&LTT_TP_DESC(abi, now), 2, LTT_UST_CTX_IP_SET, 0x1111) &&
	       events_recorded() == 1 && ips_recorded(ips, 64) == 0,
	       "a reserve without the call: the plain channel only, no slot on the ip one");

	ltt_ust_register_module(old_module, old_module + 1, &old_anchor);
	tap_is_int(ltt_ust_test_enable_event(KEY_IP, "abi:old", 5), 0,
		   "abi:old (ABI 1) enabled on the channel with the ip context");
	tap_ok(plain_record_ip(&old_desc, 3, LTT_UST_CTX_IP_SET, 0xabcdef0123ull) &&
	       ips_recorded(ips, 64) == 1 && ips[0] == 0xabcdef0123ull,
	       "ABI 1 with LTT_UST_CTX_IP_SET: the ip its probe stored");
	tap_ok(plain_record_ip(&old_desc, 4, 0, 0xabcdef0123ull) &&
	       ips_recorded(ips, 64) == 1 && ips[0] == 0,
	       "ABI 1 without it (a header older than contexts): ip 0");
	ltt_ust_unregister_module(old_module);

	tap_is_int(ltt_ust_test_remove_channel(KEY_IP), 0, "the ip channel removed");
	tap_is_int(LTT_TP_DESC(abi, now).state, 1, "the state no longer asks for the call");
	munmap(ip_mem, ip_mem_len);
}

static void test_old_abi(void)
{
	unsigned int n0;

	ltt_ust_register_module(old_module, old_module + 1, &old_anchor);
	tap_ok(ltt_ust_test_event_known("abi:old"), "a descriptor of ABI 1 is registered");
	tap_is_int(ltt_ust_test_enable_event(KEY, "abi:old", 2), 0, "its event enabled");
	n0 = events_recorded();
	tap_ok(plain_record(&old_desc, 3) && events_recorded() - n0 == 1,
	       "and recorded by its (plain) probe");
	tap_is_int(set_filter("abi:old", "v > 10"), -EOPNOTSUPP,
		   "a filter for an event of ABI 1 is refused: EOPNOTSUPP");
	tap_is_int(old_desc.state, 0, "the event is disabled on that channel");
	tap_is_int(ltt_ust_test_enable_event(KEY, "abi:old", 2), -EINVAL,
		   "and stays so: EVENT_ENABLE refused");
	n0 = events_recorded();
	tap_ok(!plain_record(&old_desc, 30) && events_recorded() == n0, "nothing recorded");
	tap_is_int(set_filter("abi:old", NULL), 0, "the filter cleared (0 programs)");
	tap_is_int(ltt_ust_test_enable_event(KEY, "abi:old", 2), 0, "the event can be enabled");
	tap_ok(plain_record(&old_desc, 4) && events_recorded() - n0 == 1, "and is recorded");
	ltt_ust_unregister_module(old_module);
}

int main(void)
{
	struct ltt_rb_config cfg = { .subbuf_size = SUBBUF, .num_subbuf = NUM_SUBBUF };

	mem_len = ltt_rb_region_size(SUBBUF, NUM_SUBBUF);
	mem = mmap(NULL, mem_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || ltt_rb_init_region(mem, mem_len, &cfg) ||
	    ltt_ust_test_add_channel(KEY, 1, &mem, &mem_len))
		return 1;
	test_new_abi();
	test_tracef();
	test_ip_context();
	test_old_abi();
	ltt_ust_test_remove_channel(KEY);
	munmap(mem, mem_len);
	return tap_done();
}
