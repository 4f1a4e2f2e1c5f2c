// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_client_proto.c - unit tests of common/proto/client-proto.c: the command
 * table, header framing, domains, and the snapshot, rotation and stall
 * messages, against valid and malformed input.  The object serializers
 * (sessions, channels, rules, relays): test_client_objects.c.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_domain(void)
{
	static const struct {
		uint32_t v;
		int err;
	} cases[] = {
		{ LTT_DOMAIN_NONE, -EPROTO },
		{ LTT_DOMAIN_KERNEL, 0 },
		{ LTT_DOMAIN_USER, 0 },
		{ LTT_DOMAIN_JUL, 0 },
		{ LTT_DOMAIN_LOG4J, 0 },
		{ LTT_DOMAIN_PYTHON, 0 },
		/* past the last domain */
		{ LTT_DOMAIN_PYTHON + 1, -EPROTO },
		{ 99, -EPROTO },
		{ UINT32_MAX, -EPROTO },
	};
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	enum ltt_domain d;
	size_t i;

	ltt_wbuf_init(&w);
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		ltt_wbuf_reset(&w);
		ltt_wbuf_put_u32(&w, cases[i].v);
		ltt_rbuf_init(&r, w.data, w.len);
		d = ltt_proto_get_domain(&r);
		tap_ok(ltt_rbuf_end(&r) == cases[i].err &&
		       (int)d == (cases[i].err ? LTT_DOMAIN_NONE : (int)cases[i].v),
		       "domain %u is %s", cases[i].v, cases[i].err ? "-EPROTO" : "accepted");
	}
	ltt_rbuf_init(&r, w.data, 3);
	d = ltt_proto_get_domain(&r);
	tap_ok(ltt_rbuf_end(&r) == -EPROTO && d == LTT_DOMAIN_NONE,
	       "a truncated domain is -EPROTO");
	ltt_wbuf_fini(&w);

	/* decoded whatever the minor: the daemon asks whether the client knows them */
	tap_ok(!ltt_proto_domain_known(LTT_CLIENT_MINOR_JAVA - 1, LTT_DOMAIN_JUL) &&
	       !ltt_proto_domain_known(LTT_CLIENT_MINOR_JAVA - 1, LTT_DOMAIN_LOG4J) &&
	       ltt_proto_domain_known(LTT_CLIENT_MINOR_JAVA, LTT_DOMAIN_JUL) &&
	       ltt_proto_domain_known(LTT_CLIENT_MINOR_JAVA, LTT_DOMAIN_LOG4J),
	       "JUL and log4j: known from minor %d", LTT_CLIENT_MINOR_JAVA);
	tap_ok(!ltt_proto_domain_known(LTT_CLIENT_MINOR_PYTHON - 1, LTT_DOMAIN_PYTHON) &&
	       ltt_proto_domain_known(LTT_CLIENT_MINOR_PYTHON, LTT_DOMAIN_PYTHON),
	       "python: known from minor %d", LTT_CLIENT_MINOR_PYTHON);
	tap_ok(ltt_proto_domain_known(0, LTT_DOMAIN_KERNEL) &&
	       ltt_proto_domain_known(0, LTT_DOMAIN_USER), "kernel and user space: from minor 0");
}

static void test_cmd_table(void)
{
	static const uint32_t unknown[] = {
		0, LTT_CLIENT_CMD_NR_, LTT_CLIENT_CMD_NR_ + 1, 255, 256, 65535, 65536, UINT32_MAX,
	};
	struct ltt_session_conf a;
	struct ltt_wbuf w;
	size_t i;

#define CHECK_CMD_(name, num, min)							\
	tap_is_str(ltt_client_cmd_name(num), #name, "command %d is " #name, num);	\
	tap_is_int(ltt_client_cmd_min_payload(num), (min), #name " needs %d bytes", (int)(min));
	LTT_CLIENT_CMD_TABLE(CHECK_CMD_)
#undef CHECK_CMD_

	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		tap_ok(!ltt_client_cmd_name(unknown[i]), "command %u has no name", unknown[i]);
		tap_is_int(ltt_client_cmd_min_payload(unknown[i]), -1,
			   "command %u has no minimum", unknown[i]);
	}

	/* The smallest CREATE_SESSION payload is a session attr with empty strings. */
	memset(&a, 0, sizeof(a));
	ltt_wbuf_init(&w);
	ltt_proto_put_session_attr(&w, &a);
	tap_is_int((long long)w.len, ltt_client_cmd_min_payload(LTT_CLIENT_CMD_CREATE_SESSION),
		   "CREATE_SESSION's minimum is the smallest session attr");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
	ltt_wbuf_put_u32(&w, LTT_CLIENT_MINOR);
	tap_is_int((long long)w.len, ltt_client_cmd_min_payload(LTT_CLIENT_CMD_HELLO),
		   "HELLO's minimum is its two u32");
	ltt_wbuf_fini(&w);
}

static void test_header(void)
{
	static const uint8_t want[LTT_CLIENT_HDR_SIZE] = {
		'L', 'T', 'T', 'L', 0x02, 0x00, 0x00, 0x00,
		0x0b, 0x00, 0x00, 0x00, 0x13, 0x00, 0x00, 0x00,
	};
	struct ltt_client_hdr hdr, back, sentinel;
	uint8_t buf[LTT_CLIENT_HDR_SIZE];

	memset(&hdr, 0, sizeof(hdr));
	hdr.magic = LTT_CLIENT_MAGIC;
	hdr.cmd = LTT_CLIENT_CMD_CREATE_SESSION;
	hdr.status = LTT_ERR_SESSION_NOT_FOUND;
	hdr.payload_len = 19;
	ltt_client_hdr_encode(&hdr, buf);
	tap_ok(!memcmp(buf, want, sizeof(buf)), "a header is 16 little-endian bytes");
	tap_is_int(ltt_client_hdr_decode(buf, &back), 0, "and decodes");
	tap_ok(back.magic == hdr.magic && back.cmd == hdr.cmd && back.reserved == 0 &&
	       back.status == hdr.status && back.payload_len == hdr.payload_len,
	       "to the same fields");

	hdr.cmd = 0xffff;
	hdr.status = UINT32_MAX;
	hdr.payload_len = LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE;
	ltt_client_hdr_encode(&hdr, buf);
	tap_is_int(ltt_client_hdr_decode(buf, &back), 0,
		   "an unknown command and the largest payload are accepted");
	tap_ok(back.cmd == 0xffff && back.status == UINT32_MAX &&
	       back.payload_len == LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE, "with their values");

	memset(&sentinel, 0x5a, sizeof(sentinel));
	hdr.payload_len = LTT_CLIENT_MSG_MAX - LTT_CLIENT_HDR_SIZE + 1;
	ltt_client_hdr_encode(&hdr, buf);
	back = sentinel;
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "one byte too many is -EPROTO");
	tap_ok(!memcmp(&back, &sentinel, sizeof(back)), "and leaves the result untouched");
	hdr.payload_len = UINT32_MAX;
	ltt_client_hdr_encode(&hdr, buf);
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "a 4 GiB payload is -EPROTO");

	hdr.payload_len = 0;
	hdr.magic = LTT_CLIENT_MAGIC ^ 1;
	ltt_client_hdr_encode(&hdr, buf);
	back = sentinel;
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "a bad magic is -EPROTO");
	tap_ok(!memcmp(&back, &sentinel, sizeof(back)), "and leaves the result untouched");
	hdr.magic = 0x4c54544c;
	memcpy(buf, "LTTL", 4);
	tap_is_int(ltt_client_hdr_decode(buf, &back), 0, "the magic is \"LTTL\" on the wire");
	memcpy(buf, "LTTl", 4);
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "and nothing else");

	hdr.magic = LTT_CLIENT_MAGIC;
	hdr.reserved = 1;
	ltt_client_hdr_encode(&hdr, buf);
	back = sentinel;
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "reserved 1 is -EPROTO");
	tap_ok(!memcmp(&back, &sentinel, sizeof(back)), "and leaves the result untouched");
	hdr.reserved = 0x8000;
	ltt_client_hdr_encode(&hdr, buf);
	tap_is_int(ltt_client_hdr_decode(buf, &back), -EPROTO, "reserved 0x8000 is -EPROTO");
}

/* Minor 4: snapshot outputs and results. */
static void test_snapshot(void)
{
	struct ltt_snapshot_output_conf o = { .id = 2, .max_size = 1 << 20,
					      .output_type = LTT_OUTPUT_LOCAL }, og;
	struct ltt_snapshot_result_desc res = { .packets = 5, .bytes = 5 * 4096,
						.packets_dropped = 1 }, rg;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	strcpy(o.name, "mine");
	strcpy(o.output, "/t/snaps");
	strcpy(res.path, "/t/snaps/mine-20260101-000000-0");
	ltt_wbuf_init(&w);
	ltt_proto_put_snapshot_output(&w, &o);
	tap_ok(w.len >= LTT_SNAPSHOT_OUTPUT_MIN, "a snapshot_output is at least its minimum size");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_snapshot_output(&r, &og);
	tap_ok(!ltt_rbuf_end(&r) && og.id == 2 && !strcmp(og.name, "mine") &&
	       og.max_size == 1 << 20 && og.output_type == LTT_OUTPUT_LOCAL &&
	       !strcmp(og.output, "/t/snaps"), "snapshot_output round trip");
	o.output_type = (enum ltt_output_type)7;
	ltt_wbuf_reset(&w);
	ltt_proto_put_snapshot_output(&w, &o);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_snapshot_output(&r, &og);
	tap_ok(ltt_rbuf_end(&r) != 0, "an unknown output type is refused");
	ltt_wbuf_reset(&w);
	ltt_proto_put_snapshot_result(&w, &res);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_snapshot_result(&r, &rg);
	tap_ok(!ltt_rbuf_end(&r) && !strcmp(rg.path, res.path) && rg.packets == 5 &&
	       rg.bytes == 5 * 4096 && rg.packets_dropped == 1, "snapshot_result round trip");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	ltt_proto_get_snapshot_result(&r, &rg);
	tap_ok(ltt_rbuf_end(&r) != 0, "a truncated snapshot_result is refused");
	ltt_wbuf_fini(&w);
	tap_is_int(LTT_CLIENT_CMD_SNAPSHOT_RECORD, 18, "SNAPSHOT_RECORD is 18");
}

/* Minor 4: ROTATION_INFO's reply and the trace chunk commands' numbers. */
static void test_rotation(void)
{
	struct ltt_rotation_desc in = { .timer_us = 200000, .size = 1 << 20, .chunk_id = 3 }, out;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	strcpy(in.last_archive, "/t/out/archives/20261122T173000+0000-20261122T173001+0000-2");
	ltt_wbuf_init(&w);
	ltt_proto_put_rotation_desc(&w, &in, LTT_CLIENT_MINOR_ROTATE);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rotation_desc(&r, &out, LTT_CLIENT_MINOR_ROTATE);
	tap_ok(!ltt_rbuf_end(&r) && out.timer_us == 200000 && out.size == 1 << 20 &&
	       out.chunk_id == 3 && !strcmp(out.last_archive, in.last_archive),
	       "ROTATION_INFO's reply round trip");
	ltt_rbuf_init(&r, w.data, w.len - 1);
	ltt_proto_get_rotation_desc(&r, &out, LTT_CLIENT_MINOR_ROTATE);
	tap_ok(ltt_rbuf_end(&r) != 0, "truncated: refused");
	ltt_wbuf_fini(&w);
	/* minor 13: the schedule's failure follows; not before */
	in.error = LTT_ERR_CONSUMERD_STALLED;
	in.error_since = 1795000000;
	ltt_wbuf_init(&w);
	ltt_proto_put_rotation_desc(&w, &in, LTT_CLIENT_MINOR_ROTATION_ERROR);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rotation_desc(&r, &out, LTT_CLIENT_MINOR_ROTATION_ERROR);
	tap_ok(!ltt_rbuf_end(&r) && out.error == LTT_ERR_CONSUMERD_STALLED &&
	       out.error_since == 1795000000 && !strcmp(out.last_archive, in.last_archive),
	       "minor 13: ROTATION_INFO's reply carries the schedule's failure");
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_rotation_desc(&r, &out, LTT_CLIENT_MINOR_ROTATE);
	tap_ok(ltt_rbuf_end(&r) != 0 && out.error == 0,
	       "a minor 5 reader does not take the minor 13 fields");
	ltt_wbuf_fini(&w);
	ltt_wbuf_init(&w);
	ltt_proto_put_rotation_desc(&w, &in, LTT_CLIENT_MINOR_ROTATE);
	tap_is_int((int)w.len, (int)(3 * 8 + 4 + strlen(in.last_archive) + 1),
		   "a minor 5 reply has no failure");
	ltt_wbuf_fini(&w);
	tap_is_int(LTT_CLIENT_CMD_ROTATE_SESSION, 19, "ROTATE_SESSION is 19 (15-18: snapshots)");
	tap_is_int(LTT_CLIENT_CMD_ROTATION_INFO, 24, "ROTATION_INFO is 24");
	tap_is_str(ltt_client_cmd_name(LTT_CLIENT_CMD_CLEAR_SESSION), "CLEAR_SESSION",
		   "CLEAR_SESSION has its name");
	tap_is_int(LTT_CLIENT_MINOR_ROTATE, 5, "trace chunks came with minor 5");
}

/* Minor 14: GET_SESSION's stalled consumers, their two parts. */
static void test_stall(void)
{
	struct ltt_stall_desc in = { .domain = LTT_DOMAIN_USER, .traces_waiting = 3,
				     .since = 1795000000, .command = "ADD_TRACE",
				     .metadata_waiting = true }, out;
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_proto_put_stall_waiting(&w, &in);
	ltt_proto_put_stall(&w, &in);
	ltt_rbuf_init(&r, w.data, w.len);
	memset(&out, 0, sizeof(out));
	ltt_proto_get_stall_waiting(&r, &out);
	tap_ok(!r.err && out.domain == LTT_DOMAIN_USER && out.traces_waiting == 3 &&
	       out.metadata_waiting && !out.since, "what waits for a consumer: round trip");
	memset(&out, 0, sizeof(out));
	ltt_proto_get_stall(&r, &out);
	tap_ok(!ltt_rbuf_end(&r) && out.domain == LTT_DOMAIN_USER && out.since == 1795000000 &&
	       !strcmp(out.command, "ADD_TRACE") && !out.traces_waiting,
	       "a stalled consumer: round trip");
	ltt_wbuf_fini(&w);
	ltt_wbuf_init(&w);
	in.domain = (enum ltt_domain)7;
	ltt_proto_put_stall(&w, &in);
	ltt_rbuf_init(&r, w.data, w.len);
	ltt_proto_get_stall(&r, &out);
	tap_ok(ltt_rbuf_end(&r) != 0, "a stalled consumer of no domain: refused");
	ltt_wbuf_fini(&w);
}

int main(void)
{
	test_stall();
	test_snapshot();
	test_rotation();
	test_cmd_table();
	test_header();
	test_domain();
	return tap_done();
}
