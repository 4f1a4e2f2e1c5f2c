// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_abi.c - the ABI of <ltt/ltt-ctl.h>, frozen.
 *
 * The size of every public struct and the offset of every field are
 * written below as numbers.  A failure here means a change broke the ABI
 * of libltt-ctl: programs built against an earlier header would read or
 * write the wrong bytes.  Add a field by taking bytes from the front of the
 * struct's reserved room (doc/libltt-ctl.md, "ABI rules"), then add its
 * offset here; never edit a number that is already here.
 *
 * Then the library's side of the rules: the *_attr_init() calls zero the
 * reserved room, a non-zero reserved byte in a struct passed in is refused
 * with -LTT_ERR_NOT_SUPPORTED before anything is sent, and the structs
 * returned have their reserved room zeroed.  A session daemon of its own
 * (one thread answering on a Unix socket in a temporary directory) lets
 * the test see what the library sent.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

#include "common/base/sock.h"
#include "common/model/attr.h"
#include "common/proto/client-proto.h"
#include "common/base/codec.h"
#include "common/trace/tclock.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
/* Every wait of the test is bounded by this (the client's LTT_CTL_TIMEOUT too). */
#define TEST_DEADLINE_S 30

struct frozen {
	const char *name;	/* "struct.field", or "struct" for its size */
	size_t got;
	size_t want;
};

#define SIZE_(s, n) { #s, sizeof(struct s), n }
#define OFF_(s, f, n) { #s "." #f, offsetof(struct s, f), n }
#define RSV_(s, n) { #s ".reserved[]", sizeof(((struct s *)0)->reserved), n }

/*
 * Linux LP64 (x86_64, aarch64, ...): 8-byte pointers, size_t and uint64_t
 * alignment; 4-byte enums, uid_t and pid_t.
 */
static const struct frozen lp64[] = {
	SIZE_(ltt_session_attr, 4496),
	OFF_(ltt_session_attr, name, 0),
	OFF_(ltt_session_attr, output_type, 256),
	OFF_(ltt_session_attr, output, 260),
	OFF_(ltt_session_attr, snapshot, 4356),
	OFF_(ltt_session_attr, live_timer_us, 4360),
	OFF_(ltt_session_attr, tls, 4368),		/* client minor 21 */
	OFF_(ltt_session_attr, shm_path, 4376),		/* client minor 31 */
	OFF_(ltt_session_attr, lttng_traces, 4384),	/* 1.36's library, which resolves it */
	OFF_(ltt_session_attr, trace_format, 4385),	/* client minor 38 */
	OFF_(ltt_session_attr, reserved, 4386),
	RSV_(ltt_session_attr, 110),			/* 111 before 38, 112 before 1.36's, 120 before 31, 128 before 21 */

	SIZE_(ltt_channel_attr, 440),
	OFF_(ltt_channel_attr, name, 0),
	OFF_(ltt_channel_attr, subbuf_size, 256),
	OFF_(ltt_channel_attr, num_subbuf, 264),
	OFF_(ltt_channel_attr, overwrite, 272),
	OFF_(ltt_channel_attr, switch_timer_us, 276),
	OFF_(ltt_channel_attr, read_timer_us, 280),
	OFF_(ltt_channel_attr, tracefile_size, 288),
	OFF_(ltt_channel_attr, tracefile_count, 296),
	OFF_(ltt_channel_attr, buffer_type, 304),
	OFF_(ltt_channel_attr, fsync, 312),
	OFF_(ltt_channel_attr, preallocation, 313),
	OFF_(ltt_channel_attr, allocation, 314),
	OFF_(ltt_channel_attr, auto_reclaim, 315),
	OFF_(ltt_channel_attr, pad1, 316),
	OFF_(ltt_channel_attr, auto_reclaim_us, 320),
	OFF_(ltt_channel_attr, blocking_timeout_us, 328),	/* client minor 30 */
	OFF_(ltt_channel_attr, reserved, 336),
	RSV_(ltt_channel_attr, 104),				/* 112 before minor 30 */

	SIZE_(ltt_event_rule_attr, 400),
	OFF_(ltt_event_rule_attr, pattern, 0),
	OFF_(ltt_event_rule_attr, loglevel_type, 256),
	OFF_(ltt_event_rule_attr, loglevel, 260),
	OFF_(ltt_event_rule_attr, type, 264),
	OFF_(ltt_event_rule_attr, filter, 272),		/* 1.1 */
	OFF_(ltt_event_rule_attr, exclusions, 280),	/* 1.1 */
	OFF_(ltt_event_rule_attr, location, 288),	/* 1.21 */
	OFF_(ltt_event_rule_attr, reserved, 296),	/* 272 in 1.0, 288 in 1.1 */
	RSV_(ltt_event_rule_attr, 104),			/* 128 in 1.0, 112 in 1.1 */

	SIZE_(ltt_session_info, 4552),
	OFF_(ltt_session_info, name, 0),
	OFF_(ltt_session_info, id, 256),
	OFF_(ltt_session_info, uuid, 264),
	OFF_(ltt_session_info, uid, 304),
	OFF_(ltt_session_info, active, 308),
	OFF_(ltt_session_info, snapshot, 309),
	OFF_(ltt_session_info, live_timer_us, 312),
	OFF_(ltt_session_info, output_type, 316),
	OFF_(ltt_session_info, output, 320),
	OFF_(ltt_session_info, creation_time, 4416),
	OFF_(ltt_session_info, clock, 4424),
	OFF_(ltt_session_info, clock_read, 4440),
	OFF_(ltt_session_info, clock_reason, 4456),
	OFF_(ltt_session_info, trace_format, 4464),	/* client minor 38 */
	OFF_(ltt_session_info, reserved, 4465),
	RSV_(ltt_session_info, 87),			/* 88 before 38 */

	SIZE_(ltt_channel_info, 632),
	OFF_(ltt_channel_info, domain, 0),
	OFF_(ltt_channel_info, attr, 8),
	OFF_(ltt_channel_info, enabled, 448),
	OFF_(ltt_channel_info, discarded_events, 456),
	OFF_(ltt_channel_info, lost_packets, 464),
	OFF_(ltt_channel_info, output_error, 472),
	OFF_(ltt_channel_info, output_error_since, 480),
	OFF_(ltt_channel_info, error_events, 488),
	OFF_(ltt_channel_info, error_packets, 496),
	OFF_(ltt_channel_info, classes_refused, 504),
	OFF_(ltt_channel_info, reserved, 512),
	RSV_(ltt_channel_info, 120),

	SIZE_(ltt_event_rule_info, 736),
	OFF_(ltt_event_rule_info, domain, 0),
	OFF_(ltt_event_rule_info, channel, 4),
	OFF_(ltt_event_rule_info, attr, 264),
	OFF_(ltt_event_rule_info, enabled, 664),
	OFF_(ltt_event_rule_info, reserved, 672),
	RSV_(ltt_event_rule_info, 64),

	SIZE_(ltt_relay_info, 4200),
	OFF_(ltt_relay_info, domain, 0),
	OFF_(ltt_relay_info, state, 4),
	OFF_(ltt_relay_info, error, 8),
	OFF_(ltt_relay_info, output_path, 12),
	OFF_(ltt_relay_info, packets_sent, 4112),
	OFF_(ltt_relay_info, bytes_sent, 4120),
	OFF_(ltt_relay_info, packets_lost, 4128),
	OFF_(ltt_relay_info, reserved, 4136),
	RSV_(ltt_relay_info, 64),

	SIZE_(ltt_session_detail, 4712),
	OFF_(ltt_session_detail, info, 0),
	OFF_(ltt_session_detail, nr_channels, 4552),
	OFF_(ltt_session_detail, channels, 4560),
	OFF_(ltt_session_detail, nr_rules, 4568),
	OFF_(ltt_session_detail, rules, 4576),
	OFF_(ltt_session_detail, nr_stalls, 4584),	/* client minor 14 */
	OFF_(ltt_session_detail, stalls, 4592),
	OFF_(ltt_session_detail, tls, 4600),		/* client minor 21 */
	OFF_(ltt_session_detail, shm_path, 4608),	/* client minor 31 */
	OFF_(ltt_session_detail, shm_error, 4616),	/* client minor 34 */
	OFF_(ltt_session_detail, shm_error_since, 4624),
	OFF_(ltt_session_detail, reserved, 4632),
	RSV_(ltt_session_detail, 80),			/* 96 before 34, 104 before 31, 112 before 21, 128 before 14 */

	SIZE_(ltt_consumer_stall_info, 120),
	OFF_(ltt_consumer_stall_info, domain, 0),
	OFF_(ltt_consumer_stall_info, traces_waiting, 4),
	OFF_(ltt_consumer_stall_info, since, 8),
	OFF_(ltt_consumer_stall_info, command, 16),
	OFF_(ltt_consumer_stall_info, metadata_waiting, 48),
	OFF_(ltt_consumer_stall_info, reserved, 56),
	RSV_(ltt_consumer_stall_info, 64),

	SIZE_(ltt_field_info, 352),
	OFF_(ltt_field_info, name, 0),
	OFF_(ltt_field_info, type, 256),
	OFF_(ltt_field_info, reserved, 288),
	RSV_(ltt_field_info, 64),

	SIZE_(ltt_tracepoint_info, 368),
	OFF_(ltt_tracepoint_info, pid, 0),
	OFF_(ltt_tracepoint_info, procname, 4),
	OFF_(ltt_tracepoint_info, name, 21),
	OFF_(ltt_tracepoint_info, loglevel, 280),
	OFF_(ltt_tracepoint_info, nr_fields, 288),
	OFF_(ltt_tracepoint_info, fields, 296),
	OFF_(ltt_tracepoint_info, pid_claimed, 304),
	OFF_(ltt_tracepoint_info, own_lttng_ust, 312),
	OFF_(ltt_tracepoint_info, reserved, 320),
	RSV_(ltt_tracepoint_info, 48),

	SIZE_(ltt_snapshot_output, 4440),
	OFF_(ltt_snapshot_output, id, 0),
	OFF_(ltt_snapshot_output, name, 4),
	OFF_(ltt_snapshot_output, max_size, 264),
	OFF_(ltt_snapshot_output, output_type, 272),
	OFF_(ltt_snapshot_output, output, 276),
	OFF_(ltt_snapshot_output, reserved, 4376),
	RSV_(ltt_snapshot_output, 64),

	SIZE_(ltt_snapshot_result, 4184),
	OFF_(ltt_snapshot_result, path, 0),
	OFF_(ltt_snapshot_result, packets, 4096),
	OFF_(ltt_snapshot_result, bytes, 4104),
	OFF_(ltt_snapshot_result, packets_dropped, 4112),
	OFF_(ltt_snapshot_result, reserved, 4120),
	RSV_(ltt_snapshot_result, 64),

	SIZE_(ltt_rotation_info, 4184),
	OFF_(ltt_rotation_info, timer_us, 0),
	OFF_(ltt_rotation_info, size, 8),
	OFF_(ltt_rotation_info, chunk_id, 16),
	OFF_(ltt_rotation_info, last_archive, 24),
	OFF_(ltt_rotation_info, error_since, 4120),
	OFF_(ltt_rotation_info, error, 4128),
	OFF_(ltt_rotation_info, reserved, 4136),
	RSV_(ltt_rotation_info, 48),

	SIZE_(ltt_session_file, 4416),
	OFF_(ltt_session_file, name, 0),
	OFF_(ltt_session_file, path, 256),
	OFF_(ltt_session_file, not_lttng, 4352),
	OFF_(ltt_session_file, reserved, 4360),
	RSV_(ltt_session_file, 56),

	SIZE_(ltt_save_opts, 88),
	OFF_(ltt_save_opts, session, 0),
	OFF_(ltt_save_opts, path, 8),
	OFF_(ltt_save_opts, force, 16),
	OFF_(ltt_save_opts, no_triggers, 24),
	OFF_(ltt_save_opts, reserved, 32),
	RSV_(ltt_save_opts, 56),

	SIZE_(ltt_load_opts, 104),
	OFF_(ltt_load_opts, session, 0),
	OFF_(ltt_load_opts, path, 8),
	OFF_(ltt_load_opts, override_url, 16),
	OFF_(ltt_load_opts, override_name, 24),
	OFF_(ltt_load_opts, force, 32),
	OFF_(ltt_load_opts, no_triggers, 40),
	OFF_(ltt_load_opts, reserved, 48),
	RSV_(ltt_load_opts, 56),

	SIZE_(ltt_context, 208),
	OFF_(ltt_context, type, 0),
	OFF_(ltt_context, perf_type, 4),
	OFF_(ltt_context, perf_config, 8),
	OFF_(ltt_context, name, 16),
	OFF_(ltt_context, reserved, 144),
	RSV_(ltt_context, 64),

	SIZE_(ltt_context_info, 536),
	OFF_(ltt_context_info, domain, 0),
	OFF_(ltt_context_info, channel, 4),
	OFF_(ltt_context_info, context, 264),
	OFF_(ltt_context_info, reserved, 472),
	RSV_(ltt_context_info, 64),

	/* 1.4: triggers */
	SIZE_(ltt_trigger_condition, 5104),
	OFF_(ltt_trigger_condition, type, 0),
	OFF_(ltt_trigger_condition, domain, 4),
	OFF_(ltt_trigger_condition, rule, 8),
	OFF_(ltt_trigger_condition, nr_captures, 408),
	OFF_(ltt_trigger_condition, captures, 412),
	OFF_(ltt_trigger_condition, session, 4508),
	OFF_(ltt_trigger_condition, channel, 4764),
	OFF_(ltt_trigger_condition, threshold_size, 5024),
	OFF_(ltt_trigger_condition, threshold_ratio, 5032),
	/* client 1.33: captures past the array's, from the front of the room */
	OFF_(ltt_trigger_condition, more_captures, 5040),
	OFF_(ltt_trigger_condition, nr_more_captures, 5048),
	OFF_(ltt_trigger_condition, pad, 5052),
	OFF_(ltt_trigger_condition, reserved, 5056),
	RSV_(ltt_trigger_condition, 48),

	SIZE_(ltt_trigger_action, 4752),
	OFF_(ltt_trigger_action, type, 0),
	OFF_(ltt_trigger_action, rate_policy, 4),
	OFF_(ltt_trigger_action, rate_count, 8),
	OFF_(ltt_trigger_action, session, 16),
	OFF_(ltt_trigger_action, has_output, 272),
	OFF_(ltt_trigger_action, output, 280),
	OFF_(ltt_trigger_action, output_flags, 4720),
	OFF_(ltt_trigger_action, reserved, 4728),
	RSV_(ltt_trigger_action, 24),			/* 32 before minor 35 */

	SIZE_(ltt_trigger_attr, 43456),
	OFF_(ltt_trigger_attr, name, 0),
	OFF_(ltt_trigger_attr, owner_uid, 256),
	OFF_(ltt_trigger_attr, condition, 264),
	OFF_(ltt_trigger_attr, nr_actions, 5368),
	OFF_(ltt_trigger_attr, actions, 5376),
	OFF_(ltt_trigger_attr, reserved, 43392),
	RSV_(ltt_trigger_attr, 64),

	SIZE_(ltt_trigger_info, 43696),
	OFF_(ltt_trigger_info, attr, 0),
	OFF_(ltt_trigger_info, fired, 43456),
	OFF_(ltt_trigger_info, dropped, 43464),
	OFF_(ltt_trigger_info, actions_run, 43472),
	OFF_(ltt_trigger_info, actions_failed, 43536),
	OFF_(ltt_trigger_info, last_error, 43600),
	OFF_(ltt_trigger_info, actions_pending, 43632),
	OFF_(ltt_trigger_info, pending_since, 43648),
	OFF_(ltt_trigger_info, reserved, 43656),
	RSV_(ltt_trigger_info, 40),

	SIZE_(ltt_capture_value, 72),
	OFF_(ltt_capture_value, type, 0),
	OFF_(ltt_capture_value, s, 8),
	OFF_(ltt_capture_value, u, 16),
	OFF_(ltt_capture_value, f, 24),
	OFF_(ltt_capture_value, str, 32),
	OFF_(ltt_capture_value, elements, 40),
	OFF_(ltt_capture_value, nr_elements, 48),
	OFF_(ltt_capture_value, flags, 52),
	OFF_(ltt_capture_value, reserved, 56),
	RSV_(ltt_capture_value, 16),

	SIZE_(ltt_notification, 6136),
	OFF_(ltt_notification, trigger, 0),
	OFF_(ltt_notification, condition, 256),
	OFF_(ltt_notification, seq, 264),
	OFF_(ltt_notification, time_ns, 272),
	OFF_(ltt_notification, dropped, 280),
	OFF_(ltt_notification, session, 288),
	OFF_(ltt_notification, event, 544),
	OFF_(ltt_notification, pid, 800),
	OFF_(ltt_notification, value, 808),
	OFF_(ltt_notification, path, 816),
	OFF_(ltt_notification, nr_captures, 4912),
	OFF_(ltt_notification, captures, 4920),
	/* client 1.33: captures past the array's, from the front of the room */
	OFF_(ltt_notification, more_captures, 6072),
	OFF_(ltt_notification, nr_more_captures, 6080),
	OFF_(ltt_notification, pad, 6084),
	OFF_(ltt_notification, reserved, 6088),
	RSV_(ltt_notification, 48),
};

/* Every struct ends with its reserved room: nothing after it, not even padding. */
#define TAIL_(s) { #s, offsetof(struct s, reserved) + sizeof(((struct s *)0)->reserved), \
		   sizeof(struct s) }
static const struct frozen tails[] = {
	TAIL_(ltt_session_attr), TAIL_(ltt_channel_attr), TAIL_(ltt_event_rule_attr),
	TAIL_(ltt_session_info), TAIL_(ltt_channel_info), TAIL_(ltt_event_rule_info),
	TAIL_(ltt_relay_info), TAIL_(ltt_session_detail), TAIL_(ltt_consumer_stall_info),
	TAIL_(ltt_field_info),
	TAIL_(ltt_tracepoint_info), TAIL_(ltt_snapshot_output), TAIL_(ltt_snapshot_result),
	TAIL_(ltt_rotation_info), TAIL_(ltt_session_file), TAIL_(ltt_save_opts),
	TAIL_(ltt_load_opts), TAIL_(ltt_context), TAIL_(ltt_context_info),
	TAIL_(ltt_trigger_condition), TAIL_(ltt_trigger_action), TAIL_(ltt_trigger_attr),
	TAIL_(ltt_trigger_info), TAIL_(ltt_capture_value), TAIL_(ltt_notification),
};

static void test_layout(void)
{
	bool is_lp64 = sizeof(void *) == 8 && sizeof(size_t) == 8 &&
		       _Alignof(uint64_t) == 8 && sizeof(enum ltt_domain) == 4 &&
		       sizeof(uid_t) == 4 && sizeof(pid_t) == 4;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(tails); i++) {
		tap_is_int((long long)tails[i].got, (long long)tails[i].want,
			   "struct %s ends with its reserved room", tails[i].name);
		tap_is_int((long long)(tails[i].want % 8), 0, "struct %s: size a multiple of 8",
			   tails[i].name);
	}
	if (!is_lp64) {
		/* A new ABI needs its own table, written once from its first build. */
		tap_diag("not a Linux LP64 ABI: sizes and offsets are not frozen for it");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(lp64); i++)
		if (!tap_is_int((long long)lp64[i].got, (long long)lp64[i].want,
				"ABI: %s at %zu", lp64[i].name, lp64[i].want))
			tap_diag("the ABI of <ltt/ltt-ctl.h> changed: see doc/libltt-ctl.md, ABI rules");
}

static bool all_zero(const void *p, size_t len)
{
	const uint8_t *b = p;
	size_t i;

	for (i = 0; i < len; i++)
		if (b[i])
			return false;
	return true;
}

static void test_init(void)
{
	struct ltt_session_attr s;
	struct ltt_channel_attr c;
	struct ltt_event_rule_attr e;

	memset(&s, 0xa5, sizeof(s));
	ltt_ctl_session_attr_init(&s);
	tap_ok(all_zero(s.reserved, sizeof(s.reserved)), "session_attr_init zeroes reserved");
	memset(&c, 0xa5, sizeof(c));
	tap_is_int(ltt_ctl_channel_attr_init(&c, LTT_DOMAIN_USER), 0, "channel_attr_init");
	tap_ok(all_zero(c.reserved, sizeof(c.reserved)), "channel_attr_init zeroes reserved");
	memset(&e, 0xa5, sizeof(e));
	ltt_ctl_event_rule_attr_init(&e);
	tap_ok(all_zero(e.reserved, sizeof(e.reserved)) && !e.pattern[0] &&
	       e.loglevel_type == LTT_LOGLEVEL_ALL && e.type == LTT_EVENT_TRACEPOINT,
	       "event_rule_attr_init zeroes everything");
}

/*
 * The session daemon of this test: answers HELLO, answers LIST_SESSIONS and
 * GET_SESSION with one session (each object with every field set), counts
 * every other request (answered with an empty success) until the client
 * closes.
 */
struct fake {
	int listen_fd;
	pthread_t thread;
	unsigned int others;	/* requests that are not HELLO, LIST or GET */
	unsigned int minor;	/* of the client's HELLO */
	unsigned int answer_minor;	/* HELLO's answer; 0: LTT_CLIENT_MINOR */
};

static void fill_session(struct ltt_session_desc *s)
{
	memset(s, 0, sizeof(*s));
	strcpy(s->name, "abi");
	s->id = 7;
	strcpy(s->uuid, "0a0b0c0d-0000-4000-8000-000000000001");
	s->uid = 1000;
	s->active = true;
	s->live_timer_us = 0;
	s->output_type = LTT_OUTPUT_LOCAL;
	strcpy(s->output, "/tmp/abi-trace");
	s->creation_time = 1700000000;
	s->clock_kind = LTT_TCLOCK_TSC;
	strcpy(s->clock_why, "the kernel keeps time with the TSC");
}

static void put_detail(struct ltt_wbuf *w, uint32_t minor)
{
	struct ltt_session_desc s;
	struct ltt_channel_desc c = { .domain = LTT_DOMAIN_USER, .enabled = true,
				      .discarded_events = 3, .lost_packets = 2,
				      .output_error = ENOSPC, .output_error_since = 1700000001,
				      .error_events = 1, .error_packets = 1,
				      .classes_refused = 5 };
	struct ltt_rule_desc r = { .domain = LTT_DOMAIN_USER, .channel = "channel0",
				   .attr = { .pattern = "app:*",
					     .loglevel_type = LTT_LOGLEVEL_RANGE,
					     .loglevel = LTT_LOGLEVEL_INFO,
					     .filter = "x > 1 && s == \"a*\"",
					     .exclusions = "app:a,app:b*" },
				   .enabled = true };
	struct ltt_stall_desc st = { .domain = LTT_DOMAIN_USER, .traces_waiting = 2,
				     .since = 1700000002, .command = "ADD_TRACE",
				     .metadata_waiting = true };

	fill_session(&s);
	ltt_attr_channel_defaults(&c.attr, LTT_DOMAIN_USER);
	ltt_proto_put_session_info(w, &s, minor);
	ltt_wbuf_put_u32(w, 1);
	ltt_proto_put_channel(w, &c, minor);
	ltt_wbuf_put_u32(w, 1);
	ltt_proto_put_rule_info(w, &r, minor);
	if (minor >= LTT_CLIENT_MINOR_CONSUMER_STALL) {
		ltt_wbuf_put_u32(w, 1);
		ltt_proto_put_stall_waiting(w, &st);
		ltt_wbuf_put_u32(w, 1);
		ltt_proto_put_stall(w, &st);
	}
	if (minor >= LTT_CLIENT_MINOR_TLS) {
		ltt_wbuf_put_str(w, "/c.pem");
		ltt_wbuf_put_str(w, "/c.key");
		ltt_wbuf_put_str(w, "/ca.pem");
	}
	if (minor >= LTT_CLIENT_MINOR_SHM_PATH)
		ltt_wbuf_put_str(w, "/shm");
	if (minor >= LTT_CLIENT_MINOR_SHM_ERROR) {
		ltt_wbuf_put_u32(w, ENOSPC);
		ltt_wbuf_put_u64(w, 1795567658);
	}
}

/* One request read and answered; false at the end of the connection. */
static bool fake_serve_one(struct fake *f, int fd)
{
	uint8_t hdrbuf[LTT_CLIENT_HDR_SIZE], payload[LTT_NAME_MAX * 4];
	struct ltt_client_hdr hdr;
	struct ltt_session_desc s;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	bool ok;

	if (ltt_io_read_all(fd, hdrbuf, sizeof(hdrbuf)) || ltt_client_hdr_decode(hdrbuf, &hdr) ||
	    hdr.payload_len > sizeof(payload) ||
	    ltt_io_read_all(fd, payload, hdr.payload_len))
		return false;
	ltt_wbuf_init(&w);
	switch (hdr.cmd) {
	case LTT_CLIENT_CMD_HELLO:
		ltt_rbuf_init(&r, payload, hdr.payload_len);
		ltt_rbuf_get_u32(&r);
		f->minor = ltt_rbuf_get_u32(&r);
		if (f->answer_minor && f->answer_minor < f->minor)
			f->minor = f->answer_minor;	/* what both speak */
		ltt_wbuf_put_u32(&w, LTT_CLIENT_MAJOR);
		ltt_wbuf_put_u32(&w, f->answer_minor ? f->answer_minor : LTT_CLIENT_MINOR);
		ltt_wbuf_put_str(&w, "test_abi");
		break;
	case LTT_CLIENT_CMD_LIST_SESSIONS:
		fill_session(&s);
		ltt_wbuf_put_u32(&w, 1);
		ltt_proto_put_session_info(&w, &s, f->minor);
		break;
	case LTT_CLIENT_CMD_GET_SESSION:
		put_detail(&w, f->minor);
		break;
	default:
		f->others++;
		break;
	}
	hdr.status = 0;
	hdr.payload_len = (uint32_t)w.len;
	ltt_client_hdr_encode(&hdr, hdrbuf);
	ok = !w.err && !ltt_io_write_all(fd, hdrbuf, sizeof(hdrbuf)) &&
	     !ltt_io_write_all(fd, w.data, w.len);
	ltt_wbuf_fini(&w);
	return ok;
}

static void *fake_main(void *arg)
{
	struct fake *f = arg;
	struct pollfd pfd = { .fd = f->listen_fd, .events = POLLIN };
	int fd = -1;

	/* The listening socket is non-blocking; the client comes within its deadline. */
	if (poll(&pfd, 1, TEST_DEADLINE_S * 1000) == 1)
		fd = accept(f->listen_fd, NULL, NULL);
	if (fd < 0)
		return NULL;
	while (fake_serve_one(f, fd))
		;
	close(fd);
	return NULL;
}

/* Each reserved byte of @buf set alone: is each call refused? */
#define EACH_RESERVED_BYTE_(obj, call, ret_bad)                                    \
	do {                                                                        \
		size_t i_;                                                          \
		*(ret_bad) = 0;                                                     \
		for (i_ = 0; i_ < sizeof((obj).reserved); i_++) {                   \
			(obj).reserved[i_] = (uint8_t)(1u << (i_ % 8));             \
			if ((call) != -LTT_ERR_NOT_SUPPORTED)                       \
				(*(ret_bad))++;                                     \
			(obj).reserved[i_] = 0;                                     \
		}                                                                   \
	} while (0)

static void test_refused(struct ltt_ctl *ctl, struct fake *f)
{
	struct ltt_session_attr s;
	struct ltt_channel_attr c;
	struct ltt_event_rule_attr e;
	struct ltt_session_info info;
	unsigned int bad;

	ltt_ctl_session_attr_init(&s);
	strcpy(s.name, "abi");
	strcpy(s.output, "/tmp/abi-trace");
	EACH_RESERVED_BYTE_(s, ltt_ctl_create_session(ctl, &s, &info), &bad);
	tap_is_int(bad, 0, "create_session: every non-zero reserved byte is refused");

	ltt_ctl_channel_attr_init(&c, LTT_DOMAIN_USER);
	EACH_RESERVED_BYTE_(c, ltt_ctl_enable_channel(ctl, "abi", LTT_DOMAIN_USER, &c), &bad);
	tap_is_int(bad, 0, "enable_channel: every non-zero reserved byte is refused");
	c.pad1[3] = 1;
	tap_is_int(ltt_ctl_enable_channel(ctl, "abi", LTT_DOMAIN_USER, &c), -LTT_ERR_NOT_SUPPORTED,
		   "enable_channel: a non-zero padding byte after fsync is refused");
	c.pad1[3] = 0;

	ltt_ctl_event_rule_attr_init(&e);
	strcpy(e.pattern, "app:*");
	EACH_RESERVED_BYTE_(e, ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), &bad);
	tap_is_int(bad, 0, "enable_event: every non-zero reserved byte is refused");

	tap_is_int(f->others, 0, "nothing was sent for a refused call");

	/* The same structs, reserved room zero: sent. */
	tap_is_int(ltt_ctl_create_session(ctl, &s, &info), -LTT_ERR_PROTOCOL,
		   "create_session with zero reserved is sent (the fake's empty reply is refused)");
	tap_is_int(ltt_ctl_enable_channel(ctl, "abi", LTT_DOMAIN_USER, &c), 0,
		   "enable_channel with zero reserved is sent");
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), 0,
		   "enable_event with zero reserved is sent");
	tap_is_int(f->others, 3, "the daemon got the three requests");
}

static void test_returned(struct ltt_ctl *ctl)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_session_info *list = NULL;
	size_t n = 0;

	if (tap_is_int(ltt_ctl_list_sessions(ctl, &list, &n), 0, "list_sessions") &&
	    tap_is_int((long long)n, 1, "one session listed")) {
		tap_is_str(list[0].name, "abi", "its name");
		tap_ok(!strcmp(list[0].clock, "tsc") && !strcmp(list[0].clock_read, "rdtscp") &&
		       list[0].clock_reason &&
		       !strcmp(list[0].clock_reason, "the kernel keeps time with the TSC") &&
		       list[0].clock_reason >= (const char *)(list + 1),
		       "its clock, how it is read, and why (1.20), in the returned block");
		tap_ok(all_zero(list[0].reserved, sizeof(list[0].reserved)),
		       "session_info returned with zero reserved");
	}
	free(list);
	if (!tap_is_int(ltt_ctl_get_session(ctl, "abi", &d), 0, "get_session"))
		return;
	tap_ok(all_zero(d->reserved, sizeof(d->reserved)) &&
	       all_zero(d->info.reserved, sizeof(d->info.reserved)),
	       "session_detail and its info returned with zero reserved");
	tap_ok(!strcmp(d->info.clock, "tsc") && !strcmp(d->info.clock_read, "rdtscp") &&
	       d->info.clock_reason &&
	       !strcmp(d->info.clock_reason, "the kernel keeps time with the TSC") &&
	       d->info.clock_reason > (const char *)d &&
	       d->info.clock_reason < (const char *)d->channels,
	       "get_session: the clock (1.20), its reason in the block before the channels");
	tap_ok(d->tls && (const char *)d->tls > (const char *)d &&
	       (const char *)d->tls < (const char *)d->channels && !strcmp(d->tls->cert, "/c.pem") &&
	       !strcmp(d->tls->key, "/c.key") && !strcmp(d->tls->ca, "/ca.pem"),
	       "get_session: the TLS files (1.21), in the block before the channels");
	tap_ok(d->shm_path && d->shm_path > (const char *)d && d->shm_path < (const char *)d->channels &&
	       !strcmp(d->shm_path, "/shm"),
	       "get_session: the shm path (1.31), in the block before the channels");
	tap_ok(d->shm_error == ENOSPC && d->shm_error_since == 1795567658,
	       "get_session: the shm path's failure (1.34), its errno and time");
	if (tap_is_int((long long)d->nr_stalls, 1, "one stalled consumer (minor 14)") &&
	    tap_ok(d->stalls && (char *)d->stalls > (char *)d &&
		   (char *)(d->stalls + 1) <= (char *)d->channels, "in the block, before the channels")) {
		tap_ok(d->stalls[0].domain == LTT_DOMAIN_USER && d->stalls[0].traces_waiting == 2 &&
		       d->stalls[0].since == 1700000002 && d->stalls[0].metadata_waiting &&
		       !strcmp(d->stalls[0].command, "ADD_TRACE"),
		       "its domain, waiting traces and metadata, since, command");
		tap_ok(all_zero(d->stalls[0].reserved, sizeof(d->stalls[0].reserved)),
		       "consumer_stall_info returned with zero reserved");
	}
	if (tap_is_int((long long)d->nr_channels, 1, "one channel")) {
		tap_is_int(d->channels[0].output_error, ENOSPC, "its output error");
		tap_is_int((long long)d->channels[0].classes_refused, 5,
			   "its refused event descriptions (1.16)");
		tap_ok(all_zero(d->channels[0].reserved, sizeof(d->channels[0].reserved)) &&
		       all_zero(d->channels[0].attr.reserved, sizeof(d->channels[0].attr.reserved)),
		       "channel_info and its attr returned with zero reserved");
	}
	if (tap_is_int((long long)d->nr_rules, 1, "one rule")) {
		const char *end = (const char *)(d->rules + 1) + 64;

		tap_is_str(d->rules[0].attr.pattern, "app:*", "its pattern");
		tap_ok(d->rules[0].attr.filter && d->rules[0].attr.exclusions &&
		       !strcmp(d->rules[0].attr.filter, "x > 1 && s == \"a*\"") &&
		       !strcmp(d->rules[0].attr.exclusions, "app:a,app:b*"),
		       "its filter and exclusions (1.1)");
		tap_ok(d->rules[0].attr.filter == (const char *)(d->rules + 1) &&
		       d->rules[0].attr.exclusions < end,
		       "they are in the returned block, after the rules");
		tap_ok(all_zero(d->rules[0].reserved, sizeof(d->rules[0].reserved)) &&
		       all_zero(d->rules[0].attr.reserved, sizeof(d->rules[0].attr.reserved)),
		       "event_rule_info and its attr returned with zero reserved");
	}
	free(d);
}

/* A daemon of client protocol minor 6: no filter or exclusion reaches it. */
static void test_old_daemon(struct ltt_ctl *ctl, struct fake *f)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_event_rule_attr e;
	struct ltt_channel_attr c;
	unsigned int before = f->others;

	ltt_ctl_event_rule_attr_init(&e);
	strcpy(e.pattern, "app:*");
	e.filter = "x > 1";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e),
		   -LTT_ERR_NOT_SUPPORTED, "minor 6: a filter is not supported");
	e.filter = NULL;
	e.exclusions = "app:x";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e),
		   -LTT_ERR_NOT_SUPPORTED, "minor 6: exclusions are not supported");
	e.exclusions = NULL;
	tap_is_int(ltt_ctl_disable_event_rule(ctl, "abi", LTT_DOMAIN_USER, NULL, &e),
		   -LTT_ERR_NOT_SUPPORTED, "minor 6: disabling one rule exactly is not supported");
	ltt_ctl_channel_attr_init(&c, LTT_DOMAIN_USER);
	c.fsync = true;
	tap_is_int(ltt_ctl_enable_channel(ctl, "abi", LTT_DOMAIN_USER, &c),
		   -LTT_ERR_NOT_SUPPORTED, "minor 6: --fsync is not supported");
	tap_is_int((long long)f->others, (long long)before, "minor 6: none of them was sent");
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), 0,
		   "minor 6: a rule without them is sent");
	tap_is_int(ltt_ctl_disable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, "app:*"), 0,
		   "minor 6: disable by pattern is sent");
	tap_is_int((long long)f->others, (long long)before + 2, "minor 6: both reached the daemon");
	if (tap_is_int(ltt_ctl_get_session(ctl, "abi", &d), 0, "minor 6: get_session") &&
	    tap_is_int((long long)d->nr_rules, 1, "minor 6: one rule") &&
	    tap_ok(!d->nr_stalls && !d->stalls, "minor 6: no stalled consumer") &&
	    tap_ok(d->nr_channels == 1 && !d->channels[0].classes_refused,
		   "minor 6: no refused event descriptions"))
		tap_ok(!d->rules[0].attr.filter && !d->rules[0].attr.exclusions,
		       "minor 6: the rule has no filter or exclusions");
	if (d)
		tap_ok(!d->info.clock[0] && !d->info.clock_read[0] && !d->info.clock_reason,
		       "minor 6: no clock (an older daemon leaves it empty)");
	free(d);
}

/* Checks of the library before anything is sent. */
static void test_rule_checks(struct ltt_ctl *ctl, struct fake *f)
{
	struct ltt_event_rule_attr e;
	unsigned int before = f->others;
	char msg[256];
	char big[LTT_FILTER_MAX + 1];

	ltt_ctl_event_rule_attr_init(&e);
	strcpy(e.pattern, "app:*");
	e.filter = "x >";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), -LTT_ERR_FILTER,
		   "a filter that does not parse: FILTER");
	e.filter = "x > 1";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_KERNEL, NULL, &e), 0,
		   "a filter in the kernel domain goes to the daemon (it checks what the kernel can run)");
	before = f->others;
	memset(big, 'a', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	e.filter = big;
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), -LTT_ERR_FILTER,
		   "a filter of LTT_FILTER_MAX bytes: FILTER");
	e.filter = NULL;
	e.exclusions = "ap*";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), -LTT_ERR_EXCLUSION,
		   "an exclusion that takes every name the pattern takes: EXCLUSION");
	e.exclusions = "app:a,,app:b";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), -LTT_ERR_EXCLUSION,
		   "an empty exclusion: EXCLUSION");
	strcpy(e.pattern, "app:a");
	e.exclusions = "app:a";
	tap_is_int(ltt_ctl_enable_event(ctl, "abi", LTT_DOMAIN_USER, NULL, &e), -LTT_ERR_EXCLUSION,
		   "exclusions with a pattern without '*': EXCLUSION");
	tap_is_int((long long)f->others, (long long)before, "none of them was sent");
	tap_is_int(ltt_ctl_filter_check("a == 1 && (b >", msg, sizeof(msg)), -LTT_ERR_FILTER,
		   "filter_check: a syntax error");
	tap_ok(strstr(msg, "a == 1 && (b >\n") && strstr(msg, "\n                ^\n"),
	       "filter_check: the expression, and a caret under the end");
	tap_is_int(ltt_ctl_filter_check("$ctx.vpid == 3 || s == \"x*\"", msg, sizeof(msg)), 0,
		   "filter_check: a valid expression");
	tap_is_int(ltt_ctl_filter_check("", NULL, 0), 0, "filter_check: \"\" is no filter");
}

static void test_library(void)
{
	char dir[] = "/tmp/ltt-test-abi.XXXXXX", sock[sizeof(dir) + 32];
	struct fake f = { .listen_fd = -1 };
	struct ltt_ctl *ctl = NULL;

	if (!tap_ok(mkdtemp(dir) != NULL, "a run directory"))
		return;
	snprintf(sock, sizeof(sock), "%s/%s", dir, LTT_CLIENT_SOCKET_NAME);
	if (!tap_is_int(ltt_sock_listen_unix(sock, 0600, &f.listen_fd), 0, "listen") ||
	    !tap_is_int(pthread_create(&f.thread, NULL, fake_main, &f), 0, "its thread")) {
		goto out;
	}
	if (tap_is_int(ltt_ctl_connect(dir, &ctl), 0, "connect")) {
		test_refused(ctl, &f);
		test_returned(ctl);
		test_rule_checks(ctl, &f);
	}
	ltt_ctl_disconnect(ctl);
	/* The thread ends at the end of the connection, or past its deadline. */
	pthread_join(f.thread, NULL);
	ctl = NULL;
	f.answer_minor = 6;
	if (tap_is_int(pthread_create(&f.thread, NULL, fake_main, &f), 0, "a daemon of minor 6") &&
	    tap_is_int(ltt_ctl_connect(dir, &ctl), 0, "connect to it")) {
		test_old_daemon(ctl, &f);
		ltt_ctl_disconnect(ctl);
	}
	pthread_join(f.thread, NULL);
out:
	if (f.listen_fd >= 0)
		close(f.listen_fd);
	unlink(sock);
	rmdir(dir);
}

int main(void)
{
	setenv("LTT_CTL_TIMEOUT", "30", 1);
	test_layout();
	test_init();
	test_library();
	return tap_done();
}
