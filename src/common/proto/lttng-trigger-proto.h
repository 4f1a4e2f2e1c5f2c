/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-trigger-proto.h - LTTng 2.13's serialized triggers, conditions,
 * actions, evaluations, error queries and notification channel messages,
 * as Debian's `lttng` and liblttng-ctl send and read them, decoded into
 * ltt's triggers (common/model/trigger.h) and encoded from them: the
 * compat layer's one translation (ltt-sessiond --lttng-compat,
 * doc/lttng-compat.md).  Read from lttng-tools 2.13.9's trigger.c,
 * conditions/, actions/, event-rule/, error-query.c, location.c and
 * notification-channel headers; the layouts are packed, in the host's
 * byte order, as lttng-client-proto.h's.
 *
 * Wire forms (LTTng's; lengths count the NUL of their string):
 *   trigger:    {u64 uid, u32 length, u32 name_len, u8 hidden} name
 *               condition action
 *   condition:  {i8 type} then
 *     EVENT_RULE_MATCHES (105): event_rule, u32 nr_captures, captures
 *     SESSION_CONSUMED_SIZE (100): {u64 bytes, u32 session_len} session
 *     BUFFER_USAGE_HIGH/LOW (101/102): {u8 in_bytes, u64 bytes,
 *         f64 ratio, u32 session_len, u32 channel_len, i8 domain}
 *         session channel
 *     SESSION_ROTATION_ONGOING/COMPLETED (103/104): {u32 session_len} session
 *   event_rule: {i8 type} then
 *     KERNEL_SYSCALL (0): {u32 site, u32 pattern_len, u32 filter_len} ...
 *     KERNEL_KPROBE (1): {u32 name_len, u32 location_len} name location
 *         location: {i8 type} SYMBOL_OFFSET: {u32 len, u64 offset} symbol;
 *                   ADDRESS: {u64 address}
 *     KERNEL_TRACEPOINT (2): {u32 pattern_len, u32 filter_len} pattern filter
 *     KERNEL_UPROBE (3): its location passes a descriptor: refused
 *     USER_TRACEPOINT (4): {u32 pattern_len, u32 filter_len, u32 llr_len,
 *         u32 nr_exclusions, u32 exclusions_len} pattern filter llr
 *         nr_exclusions x {u32 len, name}
 *     JUL/LOG4J/PYTHON_LOGGING (5/6/7): {u32 pattern_len, u32
 *         filter_len, u32 llr_len} pattern filter llr
 *     llr (a log level rule, 8 bytes, not packed): {i8 type, 3 pad,
 *         i32 level}; type 0 exactly, 1 at least as severe as
 *   capture:    {u8 type} PAYLOAD_FIELD (0), CHANNEL_CONTEXT_FIELD (1):
 *               {u32 len} name; APP_SPECIFIC_CONTEXT_FIELD (2): two of
 *               them; ARRAY_FIELD_ELEMENT (3): u32 index, capture
 *   action:     {i8 type} then NOTIFY (0): rate_policy;
 *               START/STOP/ROTATE_SESSION (1/2/3): {u32 session_len}
 *               session rate_policy; SNAPSHOT_SESSION (4): {u32
 *               session_len, u32 output_len, u32 policy_len} session
 *               [snapshot output, 8,459 bytes] rate_policy;
 *               LIST (5): {u32 count} count x action
 *   rate_policy: {i8 type (0 every N, 1 once after N), u64 N}
 *   evaluation: {i8 condition type} then BUFFER_USAGE: {u64 use, u64
 *               capacity}; CONSUMED_SIZE: {u64 consumed}; ROTATION:
 *               {u64 id, u8 has_location} [location]; EVENT_RULE_MATCHES:
 *               {u32 size} MessagePack array of the captured values
 *   location:   {i8 type, a 13-byte union: LOCAL {u32 path_len}; RELAY
 *               {u32 host_len, i8 protocol, u16 ctrl, u16 data, u32
 *               relative_len}} path | host relative
 *   error query: {i8 target (0 trigger, 1 condition, 2 action)} trigger
 *               [ACTION: {u32 count, count x u64 index}]
 *   error query results: {u32 count} count x {u8 type (0 counter), u32
 *               name_len, u32 desc_len} name desc {u64 value}
 *   notification channel message: {i8 type, u32 size, u32 fds} payload;
 *               HANDSHAKE (0) {u8 major, u8 minor}; SUBSCRIBE (1),
 *               UNSUBSCRIBE (2): condition; COMMAND_REPLY (3) {i8
 *               status}; NOTIFICATION (4): {u32 length} trigger
 *               evaluation; NOTIFICATION_DROPPED (5): nothing
 */
#ifndef LTT_COMMON_LTTNG_TRIGGER_PROTO_H
#define LTT_COMMON_LTTNG_TRIGGER_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "common/model/trigger.h"
#include "common/proto/lttng-client-proto.h"

/* The notification channel's socket, beside client-lttng-sessiond. */
#define LTT_LTTNG_NOTIF_SOCKET "sessiond-notification"
#define LTT_LTTNG_NOTIF_MAJOR 1
#define LTT_LTTNG_NOTIF_MINOR 1
#define LTT_LTTNG_NOTIF_HDR_SIZE 9	/* {i8 type, u32 size, u32 fds} */
#define LTT_LTTNG_NOTIF_MSG_MAX 65536	/* a client's message payload, as LTTng's daemon takes */

enum {
	LTT_LTTNG_NOTIF_HANDSHAKE = 0,
	LTT_LTTNG_NOTIF_SUBSCRIBE = 1,
	LTT_LTTNG_NOTIF_UNSUBSCRIBE = 2,
	LTT_LTTNG_NOTIF_COMMAND_REPLY = 3,
	LTT_LTTNG_NOTIF_NOTIFICATION = 4,
	LTT_LTTNG_NOTIF_DROPPED = 5,
};

/* enum lttng_notification_channel_status, as a reply says it. */
enum {
	LTT_LTTNG_NOTIF_OK = 0,
	LTT_LTTNG_NOTIF_ERROR = -1,
	LTT_LTTNG_NOTIF_ALREADY_SUBSCRIBED = -3,
	LTT_LTTNG_NOTIF_UNKNOWN_CONDITION = -4,
	LTT_LTTNG_NOTIF_INVALID = -5,
	LTT_LTTNG_NOTIF_UNSUPPORTED_VERSION = -6,
};

/* A notification channel message's header. */
struct ltt_lttng_notif_hdr {
	uint8_t type;
	uint32_t size;
	uint32_t fds;
};

void ltt_lttng_notif_hdr_get(struct ltt_rbuf *r, struct ltt_lttng_notif_hdr *ret);
void ltt_lttng_notif_hdr_put(struct ltt_wbuf *w, const struct ltt_lttng_notif_hdr *h);

/*
 * Decoders: 0, -EPROTO (malformed: LTTng's INVALID_PROTOCOL), or
 * -ENOTSUP with *@why (a phrase: what ltt's triggers lack, for the log);
 * @r's error is set on -EPROTO.  ltt_trigger_check() and the daemon
 * check the rest.  @ret is zeroed first; a trigger without a name gets
 * "" (the daemon names it), owner_uid is the one sent.  @gen: the
 * client's (2.16's kprobe rule carries its instrumentation site).
 */
int ltt_lttng_trigger_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			  struct ltt_trigger_conf *ret, bool *ret_hidden, const char **why);
/* a condition alone (SUBSCRIBE): its fields of @ret set */
int ltt_lttng_condition_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			    struct ltt_trigger_conf *ret, const char **why);

/*
 * Encoders: 0, or -ENOTSUP for what has no LTTng form (a user-space
 * probe rule, whose location LTTng passes with a descriptor; an
 * incr-map-value action), nothing appended then.  The actions are
 * always a list, as `lttng add-trigger` makes them.  @gen: the
 * client's, in whose layout they are written.
 */
int ltt_lttng_trigger_put(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			  const struct ltt_trigger_conf *c);
int ltt_lttng_condition_put(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			    const struct ltt_trigger_conf *c);

/*
 * ltt_lttng_evaluation_put() - the evaluation of notification @n of a
 * trigger of condition @c; @capacity: the channel's bytes (buffer usage)
 */
void ltt_lttng_evaluation_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c,
			      const struct ltt_notif_desc *n, uint64_t capacity);


/* An error query's target (lttng_error_query_target_type). */
enum { LTT_LTTNG_QUERY_TRIGGER = 0, LTT_LTTNG_QUERY_CONDITION = 1, LTT_LTTNG_QUERY_ACTION = 2 };

struct ltt_lttng_error_query {
	uint8_t target;
	struct ltt_trigger_conf trigger;
	uint32_t nr_path;		/* ACTION: the action's path in the list */
	uint64_t path[2];
};

/* ltt_lttng_error_query_get() - as the decoders above */
int ltt_lttng_error_query_get(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			      struct ltt_lttng_error_query *ret,
			      const char **why);

/* One counter of an error query's results. */
void ltt_lttng_error_counter_put(struct ltt_wbuf *w, const char *name, const char *desc,
				 uint64_t value);

/**
 * ltt_lttng_capture_values_put() - @n's captures as LTTng's MessagePack
 * array of @count values, its condition's count (nil for one unavailable
 * or missing)
 */
void ltt_lttng_capture_values_put(struct ltt_wbuf *w, uint32_t count,
				  const struct ltt_notif_desc *n);

#endif /* LTT_COMMON_LTTNG_TRIGGER_PROTO_H */
