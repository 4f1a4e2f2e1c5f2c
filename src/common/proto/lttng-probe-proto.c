// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-probe-proto.c - LTTng 2.13's probe event rules as its serialized
 * triggers carry them, for lttng-trigger-proto.c's encoder
 * (lttng-trigger-wire.h): a kernel kprobe rule (its location a symbol
 * and offset, or an address) and a kernel uprobe rule (an ELF function's
 * or an SDT probe's location, as lttng-client-proto.c's
 * ltt_lttng_put_uprobe() writes it for a session's event; the caller
 * passes the binary's descriptor, which LTTng's client takes an SDT
 * probe's location only with).  Each: the rule's type byte, {u32 name_len,
 * u32 location_len} (LTTng 2.16's kprobe rule: then u32 instrumentation
 * site), the event's name, the location.
 */
#include <errno.h>

#include "common/model/model.h"
#include "common/probe/probe-loc.h"
#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-wire.h"

struct probe_hdr {
	uint32_t name_len;
	uint32_t location_len;
	uint32_t site;		/* 2.16's kprobe rule's: 0, the location */
};

#define LTT_MSG struct probe_hdr
LTT_CODEC(probe_hdr, LTTNG_ORDER, LTT_ROW_U32(name_len), LTT_ROW_U32(location_len));
LTT_CODEC(probe_hdr216, LTTNG_ORDER, LTT_ROW_U32(name_len), LTT_ROW_U32(location_len),
	  LTT_ROW_U32(site));
#undef LTT_MSG

int ltt_lttng_put_kprobe_rule(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			      const struct ltt_rule_conf *rule)
{
	struct ltt_probe_loc loc;
	struct probe_hdr h = { 0 };
	char why[128];

	if (ltt_probe_loc_parse(LTT_EVENT_KPROBE, rule->location, &loc, why, sizeof(why)))
		return -ENOTSUP;
	h.name_len = slen(rule->pattern);
	h.location_len = loc.kind == LTT_PROBE_KADDR ? 1 + 8 : 1 + 4 + 8 + slen(loc.symbol);
	ltt_wbuf_put_u8(w, RULE_KPROBE);
	ltt_codec_put(w, gen == LTT_LTTNG_GEN_2_16 ? &probe_hdr216 : &probe_hdr, &h);
	put_string(w, rule->pattern);
	if (loc.kind == LTT_PROBE_KADDR) {
		ltt_wbuf_put_u8(w, KPROBE_ADDRESS);
		put64(w, loc.addr);
	} else {
		ltt_wbuf_put_u8(w, KPROBE_SYMBOL);
		put32(w, slen(loc.symbol));
		put64(w, loc.offset);
		put_string(w, loc.symbol);
	}
	return 0;
}

int ltt_lttng_put_uprobe_rule(struct ltt_wbuf *w, const struct ltt_rule_conf *rule)
{
	struct ltt_wbuf loc;
	struct probe_hdr h = { 0 };

	ltt_wbuf_init(&loc);
	if (ltt_lttng_put_uprobe(&loc, rule->location, true) < 0 || loc.err) {
		ltt_wbuf_fini(&loc);
		return -ENOTSUP;
	}
	h.name_len = slen(rule->pattern);
	h.location_len = (uint32_t)loc.len;
	ltt_wbuf_put_u8(w, RULE_UPROBE);
	ltt_codec_put(w, &probe_hdr, &h);
	put_string(w, rule->pattern);
	ltt_wbuf_put_bytes(w, loc.data, loc.len);
	ltt_wbuf_fini(&loc);
	return 0;
}
