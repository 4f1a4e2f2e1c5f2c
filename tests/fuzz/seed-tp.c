// SPDX-License-Identifier: LGPL-2.1-only
/*
 * seed-tp.c - tracepoint descriptions for the seeds of fuzz_app and
 * fuzz_tsdl: every field type, signed and unsigned enums, the limits
 * (tests/unit/ref-tp.c's reference description first).
 */
#include "common/proto/app-proto.h"
#include "seed-tp.h"
#include "../unit/ref-tp.h"

static const struct ltt_ust_field one_string[] = {
	{ .name = "msg", .type = LTT_UST_TYPE_STRING, .size = 1 },
};

static const struct ltt_ust_tracepoint hello_tp = {
	.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 6, .name = "app:hello",
	.nr_fields = 1, .fields = one_string,
};

static const struct ltt_ust_tracepoint empty_tp = {
	.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 0, .name = "a:b",
};

static const struct ltt_ust_tracepoint *const seed_tps[] = { &ref_tp, &hello_tp, &empty_tp };

void ltt_fuzz_put_seed_tracepoints(struct ltt_wbuf *w, unsigned int which)
{
	size_t start = ltt_app_put_tracepoints_start(w);
	unsigned int i, n = 0;

	for (i = 0; i < sizeof(seed_tps) / sizeof(seed_tps[0]); i++) {
		if (which == LTT_FUZZ_SEED_TP_ALL || which == i) {
			ltt_app_put_tracepoint(w, seed_tps[i]);
			n++;
		}
	}
	ltt_app_put_tracepoints_finish(w, start, n);
}
