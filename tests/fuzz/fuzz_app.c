// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_app.c - the application protocol (common/proto/app-proto.h): what any
 * traced program, run by any user, sends the session daemon (header,
 * REGISTER, TRACEPOINTS, ACK), and what the tracer library receives
 * from the daemon (CHANNEL_*, EVENT_*, NOTIFIER_ADD, COUNTER_ADD).
 *
 * Input: byte 0 selects the decoder, the rest is its payload (the
 * decoders after TRACEPOINTS's selector came later: the seeds kept their
 * bytes).  For
 * TRACEPOINTS, promises checked: every accepted description passes
 * ltt_app_tracepoint_valid(), encodes back to the exact payload, and
 * duplicates into a description of the same layout; all freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "common/proto/msg.h"
#include "fuzz.h"
#include "seed-tp.h"

static int get_hdr(struct ltt_rbuf *r, struct ltt_msg_hdr *m)
{
	const uint8_t *p = ltt_rbuf_get_bytes(r, LTT_MSG_HDR_SIZE);

	if (!p || ltt_rbuf_end(r) || ltt_msg_hdr_decode(p, LTT_APP_MAGIC, LTT_APP_MSG_MAX, m))
		return -1;
	FUZZ_CHECK(m->payload_len <= LTT_APP_MSG_MAX);
	return 0;
}

static void put_hdr(struct ltt_wbuf *w, const struct ltt_msg_hdr *m)
{
	uint8_t *p = ltt_wbuf_reserve(w, LTT_MSG_HDR_SIZE);

	if (p)
		ltt_msg_hdr_encode(m, p);
}

FUZZ_CODEC(hdr, struct ltt_msg_hdr, get_hdr, put_hdr, true);
FUZZ_CODEC(reg, struct ltt_app_register, ltt_app_get_register, ltt_app_put_register, true);
FUZZ_CODEC(version, struct ltt_app_version, ltt_app_get_version, ltt_app_put_version, true);
FUZZ_CODEC(ack, struct ltt_app_ack, ltt_app_get_ack, ltt_app_put_ack, true);
FUZZ_CODEC(channel_add, struct ltt_app_channel_add, ltt_app_get_channel_add,
	   ltt_app_put_channel_add, true);
FUZZ_CODEC_VAL(channel_key, uint64_t, ltt_app_get_channel_key, ltt_app_put_channel_key, true);
FUZZ_CODEC(event_enable, struct ltt_app_event_msg, ltt_app_get_event_enable,
	   ltt_app_put_event_enable, true);
FUZZ_CODEC(event_disable, struct ltt_app_event_msg, ltt_app_get_event_disable,
	   ltt_app_put_event_disable, true);
FUZZ_CODEC(event_filter, struct ltt_app_event_filter, ltt_app_get_event_filter,
	   ltt_app_put_event_filter, true);
FUZZ_CODEC(notifier_add, struct ltt_app_notifier_add, ltt_app_get_notifier_add,
	   ltt_app_put_notifier_add, true);
FUZZ_CODEC(counter_add, struct ltt_app_counter_add, ltt_app_get_counter_add,
	   ltt_app_put_counter_add, true);

static const struct ltt_fuzz_codec *const codecs[] = {
	&hdr, &reg, &version, &ack, &channel_add, &channel_key, &event_enable, &event_disable,
};

#define SEL_TRACEPOINTS FUZZ_ARRAY_SIZE(codecs)

/* Selected after TRACEPOINTS. */
static const struct ltt_fuzz_codec *const later[] = {
	&event_filter, &notifier_add, &counter_add,
};

#define NR_SEL (SEL_TRACEPOINTS + 1 + FUZZ_ARRAY_SIZE(later))

static void check_tracepoints(const uint8_t *data, size_t size)
{
	struct ltt_app_tracepoint **tps, *dup;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t nr, i;
	size_t start;

	ltt_rbuf_init(&r, data, size);
	if (ltt_app_get_tracepoints(&r, &tps, &nr))
		return;
	FUZZ_CHECK(nr <= LTT_APP_MAX_TRACEPOINTS);
	ltt_wbuf_init(&w);
	start = ltt_app_put_tracepoints_start(&w);
	for (i = 0; i < nr; i++) {
		FUZZ_CHECK(ltt_app_tracepoint_valid(tps[i]));
		ltt_app_put_app_tracepoint(&w, tps[i]);
		FUZZ_CHECK(!ltt_app_tracepoint_dup(tps[i], &dup));
		FUZZ_CHECK(ltt_app_tracepoint_same_layout(dup, tps[i]));
		FUZZ_CHECK(!strcmp(dup->name, tps[i]->name) && dup->loglevel == tps[i]->loglevel);
		if (i)
			ltt_app_tracepoint_same_layout(tps[i - 1], tps[i]);
		free(dup);
	}
	ltt_app_put_tracepoints_finish(&w, start, nr);
	FUZZ_CHECK(!w.err && w.len == size && !memcmp(w.data, data, size));
	ltt_wbuf_fini(&w);
	for (i = 0; i < nr; i++)
		free(tps[i]);
	free(tps);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int sel;

	if (!size)
		return 0;
	sel = data[0] % NR_SEL;
	if (sel == SEL_TRACEPOINTS)
		check_tracepoints(data + 1, size - 1);
	else if (sel > SEL_TRACEPOINTS)
		ltt_fuzz_codec_run(later[sel - SEL_TRACEPOINTS - 1], data + 1, size - 1, NULL);
	else
		ltt_fuzz_codec_pick(codecs, FUZZ_ARRAY_SIZE(codecs), data, size);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	struct ltt_msg_hdr h = { .magic = LTT_APP_MAGIC, .type = LTT_APP_MSG_TRACEPOINTS,
				 .seq = 3, .payload_len = 1200 };
	struct ltt_app_register rg = { .major = LTT_APP_MAJOR, .minor = LTT_APP_MINOR, .pid = 4242,
				       .ppid = 1, .uid = 1000, .gid = 1000, .bits_per_long = 64,
				       .nr_cpus = 8, .procname = "my-app" };
	struct ltt_app_version v = { .major = LTT_APP_MAJOR, .minor = LTT_APP_MINOR };
	struct ltt_app_ack a = { .seq = 9, .status = -12 };
	struct ltt_app_channel_add ca = { .channel_key = 5, .session_id = 2, .stream_id = 1,
					  .enabled = true, .nr_streams = 4 };
	uint64_t key = 77;
	struct ltt_app_event_msg ev = { .channel_key = 5, .name = "app:hello", .event_id = 31 };
	static const uint8_t prog[] = { 'L', 'T', 'T', 'F', 1, 1, 0, 0, 1, 0, 0, 0, 0 };
	struct ltt_app_event_filter ef = {
		.channel_key = 5, .name = "app:hello", .nr_programs = 2,
		.programs = { { prog, sizeof(prog) }, { prog, 4 } },
	};
	struct ltt_app_notifier_add na = {
		.key = LTT_APP_NOTIFIER_KEY_BIT | 3, .nr_captures = 2,
		.captures = { "$ctx.vpid", "msg[2]" },
	};
	struct ltt_app_counter_add cn = {
		.key = LTT_APP_NOTIFIER_KEY_BIT | 4, .nr_cpus = 8, .nr_slots = 5,
	};
	struct ltt_wbuf w;
	unsigned int i;
	char name[32];

	ltt_fuzz_codec_seed(emit, &hdr, 0, 0, &h);
	ltt_fuzz_codec_seed(emit, &reg, 1, 0, &rg);
	ltt_fuzz_codec_seed(emit, &version, 2, 0, &v);
	ltt_fuzz_codec_seed(emit, &ack, 3, 0, &a);
	ltt_fuzz_codec_seed(emit, &channel_add, 4, 0, &ca);
	ltt_fuzz_codec_seed(emit, &channel_key, 5, 0, &key);
	ltt_fuzz_codec_seed(emit, &event_enable, 6, 0, &ev);
	ev.event_id = 0;
	ltt_fuzz_codec_seed(emit, &event_disable, 7, 0, &ev);
	ltt_fuzz_codec_seed(emit, &event_filter, SEL_TRACEPOINTS + 1, 0, &ef);
	ltt_fuzz_codec_seed(emit, &notifier_add, SEL_TRACEPOINTS + 2, 0, &na);
	ltt_fuzz_codec_seed(emit, &counter_add, SEL_TRACEPOINTS + 3, 0, &cn);
	ltt_wbuf_init(&w);
	for (i = 0; i <= LTT_FUZZ_SEED_TP_COUNT; i++) {
		ltt_wbuf_reset(&w);
		ltt_wbuf_put_u8(&w, SEL_TRACEPOINTS);
		ltt_fuzz_put_seed_tracepoints(&w, i < LTT_FUZZ_SEED_TP_COUNT ? i :
					      LTT_FUZZ_SEED_TP_ALL);
		FUZZ_CHECK(!w.err);
		snprintf(name, sizeof(name), "tracepoints-%u", i);
		emit(name, w.data, w.len);
	}
	ltt_wbuf_fini(&w);
}
