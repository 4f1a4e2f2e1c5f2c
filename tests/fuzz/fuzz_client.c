// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_client.c - the client protocol (common/proto/client-proto.h) as the
 * session daemon receives it from any local user, and lttctl receives
 * the replies: the message header, every object decoder, and what the
 * daemon does next with a decoded request (common/model/attr.c's checks, the
 * name and glob validators of common/base/names.c).
 *
 * Input: byte 0 selects the decoder, the rest is its payload.
 */
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/names.h"
#include "common/model/attr.h"
#include "common/proto/client-proto.h"
#include "fuzz.h"

static void get_rule_attr0(struct ltt_rbuf *r, struct ltt_rule_conf *m)
{
	ltt_proto_get_rule_attr(r, m, 0);
}

static void put_rule_attr0(struct ltt_wbuf *w, const struct ltt_rule_conf *m)
{
	ltt_proto_put_rule_attr(w, m, 0);
}

static void get_rule_attr(struct ltt_rbuf *r, struct ltt_rule_conf *m)
{
	ltt_proto_get_rule_attr(r, m, LTT_CLIENT_MINOR);
}

static void put_rule_attr(struct ltt_wbuf *w, const struct ltt_rule_conf *m)
{
	ltt_proto_put_rule_attr(w, m, LTT_CLIENT_MINOR);
}

static void get_session_info0(struct ltt_rbuf *r, struct ltt_session_desc *m)
{
	ltt_proto_get_session_info(r, m, 0);
}

static void put_session_info0(struct ltt_wbuf *w, const struct ltt_session_desc *m)
{
	ltt_proto_put_session_info(w, m, 0);
}

static void get_session_info(struct ltt_rbuf *r, struct ltt_session_desc *m)
{
	ltt_proto_get_session_info(r, m, LTT_CLIENT_MINOR);
}

static void put_session_info(struct ltt_wbuf *w, const struct ltt_session_desc *m)
{
	ltt_proto_put_session_info(w, m, LTT_CLIENT_MINOR);
}

static void get_rule_info0(struct ltt_rbuf *r, struct ltt_rule_desc *m)
{
	ltt_proto_get_rule_info(r, m, 0);
}

static void put_rule_info0(struct ltt_wbuf *w, const struct ltt_rule_desc *m)
{
	ltt_proto_put_rule_info(w, m, 0);
}

static void get_rule_info(struct ltt_rbuf *r, struct ltt_rule_desc *m)
{
	ltt_proto_get_rule_info(r, m, LTT_CLIENT_MINOR);
}

static void put_rule_info(struct ltt_wbuf *w, const struct ltt_rule_desc *m)
{
	ltt_proto_put_rule_info(w, m, LTT_CLIENT_MINOR);
}

/* The header: 16 bytes, decoded then encoded back unchanged. */
static int get_hdr(struct ltt_rbuf *r, struct ltt_client_hdr *m)
{
	const uint8_t *p = ltt_rbuf_get_bytes(r, LTT_CLIENT_HDR_SIZE);

	if (!p || ltt_rbuf_end(r) || ltt_client_hdr_decode(p, m))
		return -1;
	FUZZ_CHECK(m->payload_len <= LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE);
	/* the name table and the minimum sizes hold every number */
	if (ltt_client_cmd_name(m->cmd))
		FUZZ_CHECK(ltt_client_cmd_min_payload(m->cmd) >= 0);
	return 0;
}

static void put_hdr(struct ltt_wbuf *w, const struct ltt_client_hdr *m)
{
	uint8_t *p = ltt_wbuf_reserve(w, LTT_CLIENT_HDR_SIZE);

	if (p)
		ltt_client_hdr_encode(m, p);
}

FUZZ_CODEC(hdr, struct ltt_client_hdr, get_hdr, put_hdr, true);
FUZZ_CODEC_VOID(session_attr, struct ltt_session_conf, ltt_proto_get_session_attr,
		ltt_proto_put_session_attr, true);
FUZZ_CODEC_VOID(session_info0, struct ltt_session_desc, get_session_info0, put_session_info0,
		true);
FUZZ_CODEC_VOID(session_info, struct ltt_session_desc, get_session_info, put_session_info, true);
FUZZ_CODEC_VOID(channel_attr, struct ltt_channel_conf, ltt_proto_get_channel_attr,
		ltt_proto_put_channel_attr, true);
FUZZ_CODEC_VOID(channel_info, struct ltt_channel_desc, ltt_proto_get_channel_info,
		ltt_proto_put_channel_info, true);
FUZZ_CODEC_VOID(rule_attr0, struct ltt_rule_conf, get_rule_attr0, put_rule_attr0, true);
FUZZ_CODEC_VOID(rule_attr, struct ltt_rule_conf, get_rule_attr, put_rule_attr, true);
FUZZ_CODEC_VOID(rule_info0, struct ltt_rule_desc, get_rule_info0, put_rule_info0, true);
FUZZ_CODEC_VOID(rule_info, struct ltt_rule_desc, get_rule_info, put_rule_info, true);
FUZZ_CODEC_VOID(relay_info, struct ltt_relay_desc, ltt_proto_get_relay_info,
		ltt_proto_put_relay_info, true);

static const struct ltt_fuzz_codec *const codecs[] = {
	&hdr, &session_attr, &session_info, &channel_attr, &channel_info, &rule_attr0,
	&rule_attr, &rule_info0, &rule_info, &relay_info, &session_info0,
};

/* Requests the daemon goes on with: its checks must hold on any value. */
static void check_requests(uint8_t which, const uint8_t *data, size_t size)
{
	union {
		struct ltt_session_conf s;
		struct ltt_channel_conf c;
		struct ltt_rule_conf e;
	} u;
	struct ltt_rbuf r;
	enum ltt_domain d;

	ltt_rbuf_init(&r, data, size);
	switch (which % 3) {
	case 0:
		if (ltt_fuzz_codec_run(&session_attr, data, size, &u.s))
			ltt_attr_check_session(&u.s);
		break;
	case 1:	/* ENABLE_CHANNEL: {domain, channel attr} */
		d = ltt_proto_get_domain(&r);
		ltt_proto_get_channel_attr(&r, &u.c);
		if (!ltt_rbuf_end(&r) && !ltt_attr_check_channel(&u.c, d))
			FUZZ_CHECK(u.c.buffer_type != LTT_BUFFER_DEFAULT &&
				   ltt_channel_name_valid(u.c.name));
		break;
	default:	/* ENABLE_EVENT: {domain, rule attr} */
		d = ltt_proto_get_domain(&r);
		ltt_proto_get_rule_attr(&r, &u.e, LTT_CLIENT_MINOR);
		if (!ltt_rbuf_end(&r) && !ltt_attr_check_rule(&u.e)) {
			ltt_attr_check_rule_domain(&u.e, d);
			FUZZ_CHECK(ltt_event_pattern_valid(u.e.pattern));
		}
		break;
	}
}

/* Names and globs: "PATTERN\0NAME". */
static void check_names(const uint8_t *data, size_t size)
{
	char pattern[LTT_NAME_MAX], name[LTT_NAME_MAX];
	const uint8_t *nul = memchr(data, 0, size);
	size_t plen = nul ? (size_t)(nul - data) : size, nlen = nul ? size - plen - 1 : 0;

	if (plen >= sizeof(pattern) || nlen >= sizeof(name))
		return;
	memcpy(pattern, data, plen);
	pattern[plen] = '\0';
	memcpy(name, nul ? nul + 1 : data, nlen);
	name[nlen] = '\0';
	ltt_session_name_valid(pattern);
	ltt_channel_name_valid(pattern);
	if (ltt_event_pattern_valid(pattern) && ltt_event_name_valid(name))
		ltt_glob_match(pattern, name);
	/* a name matches itself as a pattern */
	if (ltt_event_name_valid(pattern) && ltt_event_pattern_valid(pattern) &&
	    !strchr(pattern, '*'))
		FUZZ_CHECK(ltt_glob_match(pattern, pattern));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t nr = FUZZ_ARRAY_SIZE(codecs);

	if (!size)
		return 0;
	if (data[0] < 0x80)
		ltt_fuzz_codec_pick(codecs, nr, data, size);
	else if (data[0] < 0xc0)
		check_requests(data[0], data + 1, size - 1);
	else
		check_names(data + 1, size - 1);
	return 0;
}

static void seed_requests(ltt_fuzz_emit_fn emit)
{
	struct ltt_rule_conf e = { .pattern = "my_app:*", .loglevel_type = LTT_LOGLEVEL_RANGE,
					 .loglevel = 6 };
	struct ltt_channel_conf c;
	struct ltt_wbuf w;

	ltt_attr_channel_defaults(&c, LTT_DOMAIN_USER);
	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, 0x82);
	ltt_wbuf_put_u32(&w, LTT_DOMAIN_USER);
	ltt_proto_put_channel_attr(&w, &c);
	emit("request-channel", w.data, w.len);
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u8(&w, 0x83);
	ltt_wbuf_put_u32(&w, LTT_DOMAIN_USER);
	ltt_proto_put_rule_attr(&w, &e, LTT_CLIENT_MINOR);
	emit("request-event", w.data, w.len);
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u8(&w, 0xc0);
	ltt_wbuf_put_bytes(&w, "my_*:ev?nt\0my_app:event", 23);
	emit("names-0", w.data, w.len);
	ltt_wbuf_fini(&w);
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_client_hdr h = { .magic = LTT_CLIENT_MAGIC, .cmd = LTT_CLIENT_CMD_CREATE_SESSION,
				    .payload_len = 40 };
	struct ltt_session_conf sa = { .name = "auto-20240501-120000",
				       .output_type = LTT_OUTPUT_NET,
				       .output = "net://localhost:5342:5343/x", .live_timer_us = 1000000 };
	struct ltt_session_desc si = { .name = "s1", .id = 7, .uuid = "0a0b0c0d-0000-4000-8000-000000000001",
				       .uid = 1000, .active = true, .output_type = LTT_OUTPUT_LOCAL,
				       .output = "/tmp/ltt-traces/s1-20240501-120000",
				       .creation_time = 1714557600 };
	struct ltt_channel_desc ci = { .domain = LTT_DOMAIN_KERNEL, .enabled = true,
				       .discarded_events = 3, .lost_packets = 1 };
	struct ltt_rule_desc ri = { .domain = LTT_DOMAIN_KERNEL, .channel = "channel0",
					  .attr = { .pattern = "sched_switch",
						    .type = LTT_EVENT_SYSCALL },
					  .enabled = true };
	struct ltt_rule_desc ri0 = { .domain = LTT_DOMAIN_USER, .channel = "chan",
					   .attr = { .pattern = "a:b", .loglevel_type = LTT_LOGLEVEL_SINGLE,
						     .loglevel = 14 } };
	struct ltt_relay_desc rl = { .domain = LTT_DOMAIN_USER, .state = LTT_RELAY_STATE_LOST,
				     .error = 111, .output_path = "host/s1-20240501-120000",
				     .packets_sent = 10, .bytes_sent = 40960, .packets_lost = 2 };

	ltt_attr_channel_defaults(&ci.attr, LTT_DOMAIN_KERNEL);
	ltt_fuzz_codec_seed(emit, &hdr, 0, 0, &h);
	ltt_fuzz_codec_seed(emit, &session_attr, 1, 0, &sa);
	ltt_fuzz_codec_seed(emit, &session_info, 2, 0, &si);
	ltt_fuzz_codec_seed(emit, &channel_attr, 3, 0, &ci.attr);
	ltt_fuzz_codec_seed(emit, &channel_info, 4, 0, &ci);
	ltt_fuzz_codec_seed(emit, &rule_attr0, 5, 0, &ri0.attr);
	ltt_fuzz_codec_seed(emit, &rule_attr, 6, 0, &ri.attr);
	ltt_fuzz_codec_seed(emit, &rule_info0, 7, 0, &ri0);
	ltt_fuzz_codec_seed(emit, &rule_info, 8, 0, &ri);
	ltt_fuzz_codec_seed(emit, &relay_info, 9, 0, &rl);
	sa.output_type = LTT_OUTPUT_LOCAL;
	strcpy(sa.output, "/var/tmp/out");
	sa.live_timer_us = 0;
	ltt_fuzz_codec_seed(emit, &session_attr, 0x80 | 1, 1, &sa);
	seed_requests(emit);
}
