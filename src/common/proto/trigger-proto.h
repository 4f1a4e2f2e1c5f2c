/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trigger-proto.h - the wire forms of triggers (common/model/trigger.h)
 * in the client protocol (client-proto.h, minor 18): a trigger, its
 * counters, the notifications its notify actions send and the captures
 * they carry.
 *
 * Wire forms (common/base/codec.h):
 *   trigger: {str name, i64 owner_uid, u32 condition, u32 domain,
 *       rule_attr (client-proto.h, minor 18), u32 nr_captures,
 *       nr_captures x str capture, str session, str channel,
 *       u64 threshold_size, u32 threshold_ppm, u32 nr_actions,
 *       nr_actions x action [, str location (minor 31)]}
 *   action: {u32 type, u32 rate_policy, u64 rate_count, str session,
 *       u8 has_output [, snapshot_output] [INCR_MAP_VALUE (minor 25):
 *       str map, str key]}
 *   trigger_info: {trigger, u64 fired, u64 dropped,
 *       nr_actions x {u64 runs, u64 failures, i32 last_error}}
 *   notification: {str trigger, u32 condition, u64 seq, i64 time_ns,
 *       u64 dropped, str session, str event, i64 pid, u64 value,
 *       str path, u32 nr_captures, nr_captures x capture}
 *   capture: {u8 type (enum ltt_capture_type), then SIGNED, UNSIGNED:
 *       u64 (two's complement); FLOAT: u64 (the double's bits); STRING:
 *       str; UNAVAILABLE: nothing}
 * The same capture form travels from programs to the daemon (app-proto.h,
 * the notification pipe).  nr_captures: at most LTT_TRIGGER_CAPTURES_LIMIT
 * (minor 33; before, LTT_TRIGGER_MAX_CAPTURES: a peer of an older minor
 * is sent the first LTT_TRIGGER_MAX_CAPTURES of a trigger's or a
 * notification's captures).
 */
#ifndef LTT_COMMON_TRIGGER_PROTO_H
#define LTT_COMMON_TRIGGER_PROTO_H

#include <stdint.h>

#include "common/base/codec.h"
#include "common/model/trigger.h"

/*
 * Encoders append to @w (errors left in @w); decoders read one object,
 * check its enums, counts and string lengths (not the rest:
 * ltt_trigger_check() does) and set @r's error on any violation.
 */
/*
 * @minor: the connection's; from LTT_CLIENT_MINOR_RULE_LOCATION on, with
 * the rule's location; before LTT_CLIENT_MINOR_CAPTURES, with at most
 * LTT_TRIGGER_MAX_CAPTURES captures (so ltt_notif_put()).
 */
void ltt_trigger_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c, uint32_t minor);
void ltt_trigger_get(struct ltt_rbuf *r, struct ltt_trigger_conf *ret, uint32_t minor);
/*
 * ADD_TRIGGER's request: the trigger, then from LTT_CLIENT_MINOR_ADD_FLAGS
 * its flags (LTT_TRIGGER_FLAG_*; 0 from an older peer).
 */
void ltt_trigger_add_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c, uint32_t flags,
			 uint32_t minor);
void ltt_trigger_add_get(struct ltt_rbuf *r, struct ltt_trigger_conf *ret, uint32_t *ret_flags,
			 uint32_t minor);
/* @minor: the connection's; from LTT_CLIENT_MINOR_PENDING on, with the waiting runs. */
void ltt_trigger_desc_put(struct ltt_wbuf *w, const struct ltt_trigger_desc *d, uint32_t minor);
void ltt_trigger_desc_get(struct ltt_rbuf *r, struct ltt_trigger_desc *ret, uint32_t minor);
void ltt_capture_put(struct ltt_wbuf *w, const struct ltt_capture_desc *c);
void ltt_capture_get(struct ltt_rbuf *r, struct ltt_capture_desc *ret);
void ltt_notif_put(struct ltt_wbuf *w, const struct ltt_notif_desc *n, uint32_t minor);
void ltt_notif_get(struct ltt_rbuf *r, struct ltt_notif_desc *ret);

#endif /* LTT_COMMON_TRIGGER_PROTO_H */
