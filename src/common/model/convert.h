/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * convert.h - the one crossing between the public structs of
 * <ltt/ltt-ctl.h> and the internal model (common/model/model.h) that the checks
 * and the client protocol work on.  Used by libltt-ctl at its boundary
 * (and by lttctl, which checks what it is about to pass); never by the
 * daemons.
 *
 * What a caller passes in goes through a *_to_conf() call, which refuses
 * what this library cannot honour; what the library returns is built by a
 * *_to_info() call, which zeroes every byte the library does not set.
 * Only these functions copy a public struct field by field.
 */
#ifndef LTT_COMMON_CONVERT_H
#define LTT_COMMON_CONVERT_H

#include <ltt/ltt-ctl.h>

#include "common/model/context.h"
#include "common/model/model.h"

/**
 * ltt_conv_session_attr_to_conf() - a caller's session attributes, internal
 * @in: the caller's (not NULL; borrowed)
 * @out: filled on success
 *
 * No lock: a pure copy.
 * Returns LTT_ERR_OK, or LTT_ERR_NOT_SUPPORTED when @in uses room this library
 * does not know (a non-zero reserved byte: a program built against a newer
 * <ltt/ltt-ctl.h>).
 */
enum ltt_error_code ltt_conv_session_attr_to_conf(const struct ltt_session_attr *in,
						  struct ltt_session_conf *out);

/** ltt_conv_channel_attr_to_conf() - as ltt_conv_session_attr_to_conf() */
enum ltt_error_code ltt_conv_channel_attr_to_conf(const struct ltt_channel_attr *in,
						  struct ltt_channel_conf *out);

/** ltt_conv_rule_attr_to_conf() - as ltt_conv_session_attr_to_conf() */
enum ltt_error_code ltt_conv_rule_attr_to_conf(const struct ltt_event_rule_attr *in,
					       struct ltt_rule_conf *out);

/*
 * The other way.  Each zeroes @out whole (reserved room and padding
 * included), then fills it from @in; neither is kept.  No lock, no failure.
 */

/** ltt_conv_channel_conf_to_attr() - channel attributes for a caller */
void ltt_conv_channel_conf_to_attr(const struct ltt_channel_conf *in,
				   struct ltt_channel_attr *out);
/**
 * ltt_conv_session_conf_to_attr() - a session's attributes for a caller
 * (saved sessions, libltt-ctl's load, are created through the public calls)
 */
void ltt_conv_session_conf_to_attr(const struct ltt_session_conf *in,
				   struct ltt_session_attr *out);
/* filter and exclusions of @out point into @in (NULL when ""): keep @in. */
void ltt_conv_rule_conf_to_attr(const struct ltt_rule_conf *in, struct ltt_event_rule_attr *out);
/*
 * @reason_room: LTT_CONV_REASON_ROOM bytes that keep the clock's reason,
 * which @out's clock_reason then points to; NULL: none
 */
#define LTT_CONV_REASON_ROOM sizeof(((struct ltt_session_desc *)0)->clock_why)
/** ltt_conv_session_desc_to_info() - a session's description for a caller */
void ltt_conv_session_desc_to_info(const struct ltt_session_desc *in,
				   struct ltt_session_info *out, char *reason_room);
/** ltt_conv_channel_desc_to_info() - a channel's description, its attributes included */
void ltt_conv_channel_desc_to_info(const struct ltt_channel_desc *in,
				   struct ltt_channel_info *out);
/**
 * ltt_conv_rule_desc_to_info() - an event rule's description, its
 * attributes included; its filter and exclusions point into @in
 */
void ltt_conv_rule_desc_to_info(const struct ltt_rule_desc *in, struct ltt_event_rule_info *out);
/** ltt_conv_stall_desc_to_info() - a stalled consumer's description */
void ltt_conv_stall_desc_to_info(const struct ltt_stall_desc *in,
				 struct ltt_consumer_stall_info *out);
/** ltt_conv_relay_desc_to_info() - a relay connection's description */
void ltt_conv_relay_desc_to_info(const struct ltt_relay_desc *in, struct ltt_relay_info *out);

/** ltt_conv_snapshot_output_to_conf() - as ltt_conv_session_attr_to_conf() */
enum ltt_error_code ltt_conv_snapshot_output_to_conf(const struct ltt_snapshot_output *in,
						     struct ltt_snapshot_output_conf *out);
void ltt_conv_snapshot_output_conf_to_output(const struct ltt_snapshot_output_conf *in,
					     struct ltt_snapshot_output *out);
void ltt_conv_snapshot_result_desc_to_result(const struct ltt_snapshot_result_desc *in,
					     struct ltt_snapshot_result *out);

/** ltt_conv_context_to_ctx() - a caller's context, internal (as ltt_conv_session_attr_to_conf()) */
enum ltt_error_code ltt_conv_context_to_ctx(const struct ltt_context *in, struct ltt_ctx *out);
/** ltt_conv_ctx_to_context() - a context for a caller (zeroes @out first) */
void ltt_conv_ctx_to_context(const struct ltt_ctx *in, struct ltt_context *out);

/*
 * Triggers (common/model/trigger.h).  ltt_conv_trigger_attr_to_conf() refuses
 * a non-zero reserved byte (LTT_ERR_NOT_SUPPORTED), a string too long
 * for its room (the rule's codes, LTT_ERR_TRIGGER_CAPTURE, ...), more than
 * LTT_TRIGGER_CAPTURES_LIMIT captures (LTT_ERR_TRIGGER_CAPTURES), and
 * maps a ratio outside 0..1 to a threshold ltt_trigger_check() refuses.
 * ltt_conv_trigger_desc_to_info() points the rule's filter and exclusions
 * into @in, which must live as long as @out, and so the captures after
 * the array's: @more, room for LTT_TRIGGER_CAPTURES_LIMIT -
 * LTT_TRIGGER_MAX_CAPTURES pointers, holds them for @out's more_captures.
 * ltt_conv_notif_to_notification() puts the captures after the array's
 * in @more (as much room), gives each ARRAY capture its room in @elems
 * (room for ltt_conv_notif_nr_elems() of them, zeroed: UNAVAILABLE, for
 * the caller to decode them into with ltt_conv_capture_value()) and
 * copies @in's captured strings to @strings (room for the whole payload
 * @in was decoded from: every string fits), pointing @out's at them; it
 * returns the end of the strings it copied.
 */
struct ltt_trigger_conf;
struct ltt_trigger_desc;
struct ltt_notif_desc;
enum ltt_error_code ltt_conv_trigger_attr_to_conf(const struct ltt_trigger_attr *in,
						  struct ltt_trigger_conf *out);
void ltt_conv_trigger_desc_to_info(const struct ltt_trigger_desc *in,
				   struct ltt_trigger_info *out, const char **more);
char *ltt_conv_notif_to_notification(const struct ltt_notif_desc *in,
				     struct ltt_notification *out, struct ltt_capture_value *more,
				     struct ltt_capture_value *elems, char *strings);
struct ltt_capture_desc;
/**
 * ltt_conv_capture_value() - @c as @v, its string copied to @strings (the
 * end of the copy returned), an ARRAY given room at *@elems (moved past
 * it); an ARRAY where @elems is NULL (an array's element) is UNAVAILABLE
 */
char *ltt_conv_capture_value(const struct ltt_capture_desc *c, struct ltt_capture_value *v,
			     struct ltt_capture_value **elems, char *strings);
/** ltt_conv_notif_nr_elems() - the elements of @in's ARRAY captures, in all */
size_t ltt_conv_notif_nr_elems(const struct ltt_notif_desc *in);

#endif /* LTT_COMMON_CONVERT_H */
