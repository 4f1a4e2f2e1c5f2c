// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger-proto.c - triggers', notifications' and captures' wire forms
 * (see trigger-proto.h), on the codec's tables (codec.h).
 *
 * A trigger is its head's table, the rule (client-proto.c's rule_attr
 * part, at LTT_CLIENT_MINOR_TRIGGER), its capture expressions (an array
 * after a count a one-row table bounds), its condition's table and its
 * actions (an array of the action table, whose snapshot output follows
 * has_output and whose map and key follow INCR_MAP_VALUE, each behind an
 * LTT_ROW_WHEN_EQ gate).  A trigger's description adds its counters: an
 * element an action, then from LTT_CLIENT_MINOR_PENDING (an LTT_ROW_SINCE,
 * and the array only for such a peer) the waiting runs.  A notification
 * is a table, then its captures after their count (the one-row table a
 * trigger's count has; a peer older than LTT_CLIENT_MINOR_CAPTURES is sent
 * the first 16).
 *
 * Left by hand: a capture.  It is a tagged union whose three number tags
 * (SIGNED, UNSIGNED, FLOAT) share one u64 and whose unknown tags the
 * encoder still writes with the u64: a gate turns rows on for one value or
 * one bit, and rows it turns off decode as zero, so three ranges of one
 * member would clear each other.  An ARRAY (LTT_CLIENT_MINOR_CAPTURE_ARRAY)
 * is a u32 count then that many captures, none an ARRAY, which the
 * decoder checks and leaves in place (@elems); an enum's SIGNED or
 * UNSIGNED has the type byte's top bit set (from the same minor).  A peer
 * below that minor is sent an array as UNAVAILABLE, an enum as a number.  A few lines say the form as well as a
 * table would.
 */
#include <stdbool.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"

#define LTT_MSG struct ltt_action_conf
/* The snapshot output's rows are client-proto.c's snapshot_output table's. */
LTT_CODEC(trigger_action, LTT_CODEC_LE,
	  LTT_ROW_U32(type), LTT_ROW_U32(rate_policy), LTT_ROW_U64(rate_count),
	  LTT_ROW_STR(session), LTT_ROW_BOOL(has_output),
	  LTT_ROW_WHEN_EQ(has_output, 1),
	  LTT_ROW_U32(output.id), LTT_ROW_STR(output.name), LTT_ROW_U64(output.max_size),
	  LTT_ROW_ENUM(output.output_type, LTT_OUTPUT_NET), LTT_ROW_STR(output.output),
	  LTT_ROW_WHEN_EQ(type, LTT_ACTION_INCR_MAP_VALUE),
	  LTT_ROW_STR(map), LTT_ROW_STR(key));
#undef LTT_MSG

#define LTT_MSG struct ltt_trigger_conf
LTT_CODEC(trigger_head, LTT_CODEC_LE,
	  LTT_ROW_STR(name), LTT_ROW_U64(owner_uid), LTT_ROW_U32(cond), LTT_ROW_U32(domain));
LTT_CODEC(trigger_cond, LTT_CODEC_LE,
	  LTT_ROW_STR(session), LTT_ROW_STR(channel), LTT_ROW_U64(threshold_size),
	  LTT_ROW_U32(threshold_ppm), LTT_ROW_ENUM(nr_actions, LTT_TRIGGER_MAX_ACTIONS));
#undef LTT_MSG

/*
 * A trigger's capture count, on its own: what is sent is the count a peer
 * takes (captures_room()), not always the trigger's.
 */
struct capture_count {
	uint32_t nr;
};

#define LTT_MSG struct capture_count
LTT_CODEC(trigger_nr_captures, LTT_CODEC_LE, LTT_ROW_ENUM(nr, LTT_TRIGGER_CAPTURES_LIMIT));
#undef LTT_MSG

/* One capture expression of a trigger's array (char[LTT_CAPTURE_MAX]). */
struct capture_expr {
	char text[LTT_CAPTURE_MAX];
};

#define LTT_MSG struct capture_expr
LTT_CODEC(trigger_capture_expr, LTT_CODEC_LE, LTT_ROW_STR(text));
#undef LTT_MSG

/* One action's counters in a description (its arrays', i-th of each). */
struct action_counters {
	uint64_t runs;
	uint64_t failures;
	int32_t last_error;
};

#define LTT_MSG struct action_counters
LTT_CODEC(trigger_counters, LTT_CODEC_LE,
	  LTT_ROW_U64(runs), LTT_ROW_U64(failures), LTT_ROW_U32(last_error));
#undef LTT_MSG

/* One action's output flags (its output_flags), from LTT_CLIENT_MINOR_OUTPUT_FLAGS. */
struct action_output_flags {
	uint32_t flags;
};

#define LTT_MSG struct action_output_flags
LTT_CODEC(trigger_output_flags, LTT_CODEC_LE, LTT_ROW_U32(flags));
#undef LTT_MSG

/* One action's waiting runs (an element of uint32_t pending[]). */
struct action_pending {
	uint32_t runs;
};

#define LTT_MSG struct action_pending
LTT_CODEC(trigger_pending, LTT_CODEC_LE, LTT_ROW_U32(runs));
#undef LTT_MSG

#define LTT_MSG struct ltt_trigger_conf
LTT_CODEC(trigger_location, LTT_CODEC_LE,
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_RULE_LOCATION), LTT_ROW_STR(rule.location));
#undef LTT_MSG

/* ADD_TRIGGER's flags, after its trigger. */
struct add_flags {
	uint32_t flags;
};

#define LTT_MSG struct add_flags
LTT_CODEC(trigger_add_flags, LTT_CODEC_LE,
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_ADD_FLAGS), LTT_ROW_U32(flags));
#undef LTT_MSG

#define LTT_MSG struct ltt_trigger_desc
LTT_CODEC(trigger_fired, LTT_CODEC_LE, LTT_ROW_U64(fired), LTT_ROW_U64(dropped));
LTT_CODEC(trigger_pending_since, LTT_CODEC_LE,
	  LTT_ROW_SINCE(LTT_CLIENT_MINOR_PENDING), LTT_ROW_U64(pending_since));
#undef LTT_MSG

#define LTT_MSG struct ltt_notif_desc
LTT_CODEC(trigger_notif, LTT_CODEC_LE,
	  LTT_ROW_STRREF(trigger, LTT_NAME_MAX), LTT_ROW_U32(cond), LTT_ROW_U64(seq),
	  LTT_ROW_U64(time_ns), LTT_ROW_U64(dropped), LTT_ROW_STRREF(session, LTT_NAME_MAX),
	  LTT_ROW_STRREF(event, LTT_NAME_MAX), LTT_ROW_U64(pid), LTT_ROW_U64(value),
	  LTT_ROW_STRREF(path, LTT_PATH_MAX));
#undef LTT_MSG

/* Elements an array sends: its count, no more than its room. */
static size_t sent(uint32_t count, size_t room)
{
	return count < room ? count : room;
}

/* The captures a peer of @minor takes: its decoder's bound (LTT_CLIENT_MINOR_CAPTURES). */
static size_t captures_room(uint32_t minor)
{
	return minor >= LTT_CLIENT_MINOR_CAPTURES ? LTT_TRIGGER_CAPTURES_LIMIT :
						    LTT_TRIGGER_MAX_CAPTURES;
}

void ltt_trigger_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c, uint32_t minor)
{
	struct capture_count k = { (uint32_t)sent(c->nr_captures, captures_room(minor)) };
	struct action_output_flags f[LTT_TRIGGER_MAX_ACTIONS];
	size_t nr = sent(c->nr_actions, LTT_TRIGGER_MAX_ACTIONS);

	ltt_codec_put(w, &trigger_head, c);
	ltt_proto_put_trigger_rule(w, &c->rule);
	ltt_codec_put(w, &trigger_nr_captures, &k);
	ltt_codec_put_array(w, &trigger_capture_expr, c->captures, sizeof(c->captures[0]), k.nr);
	ltt_codec_put(w, &trigger_cond, c);
	ltt_codec_put_array(w, &trigger_action, c->actions, sizeof(c->actions[0]), nr);
	ltt_codec_put_v(w, &trigger_location, c, minor);
	if (minor < LTT_CLIENT_MINOR_OUTPUT_FLAGS)
		return;
	for (size_t i = 0; i < nr; i++)
		f[i].flags = c->actions[i].output_flags;
	ltt_codec_put_array(w, &trigger_output_flags, f, sizeof(f[0]), nr);
}

void ltt_trigger_get(struct ltt_rbuf *r, struct ltt_trigger_conf *ret, uint32_t minor)
{
	struct action_output_flags f[LTT_TRIGGER_MAX_ACTIONS];
	struct capture_count k;

	memset(ret, 0, sizeof(*ret));
	if (ltt_codec_get(r, &trigger_head, ret))
		return;
	ltt_proto_get_trigger_rule(r, &ret->rule, minor);
	if (r->err || ltt_codec_get(r, &trigger_nr_captures, &k))
		return;
	ret->nr_captures = k.nr;
	if (ltt_codec_get_array(r, &trigger_capture_expr, ret->captures,
				sizeof(ret->captures[0]), ret->nr_captures) ||
	    ltt_codec_get(r, &trigger_cond, ret))
		return;
	if (ltt_codec_get_array(r, &trigger_action, ret->actions, sizeof(ret->actions[0]),
				ret->nr_actions))
		return;
	if (ltt_codec_get_v(r, &trigger_location, ret, minor) ||
	    minor < LTT_CLIENT_MINOR_OUTPUT_FLAGS ||
	    ltt_codec_get_array(r, &trigger_output_flags, f, sizeof(f[0]), ret->nr_actions))
		return;
	for (size_t i = 0; i < ret->nr_actions; i++)
		ret->actions[i].output_flags = f[i].flags;
}

void ltt_trigger_add_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c, uint32_t flags,
			 uint32_t minor)
{
	struct add_flags f = { flags };

	ltt_trigger_put(w, c, minor);
	ltt_codec_put_v(w, &trigger_add_flags, &f, minor);
}

void ltt_trigger_add_get(struct ltt_rbuf *r, struct ltt_trigger_conf *ret, uint32_t *ret_flags,
			 uint32_t minor)
{
	struct add_flags f = { 0 };

	ltt_trigger_get(r, ret, minor);
	if (!r->err)
		ltt_codec_get_v(r, &trigger_add_flags, &f, minor);
	*ret_flags = f.flags;
}

void ltt_trigger_desc_put(struct ltt_wbuf *w, const struct ltt_trigger_desc *d, uint32_t minor)
{
	struct action_counters n[LTT_TRIGGER_MAX_ACTIONS];
	size_t nr = sent(d->conf.nr_actions, LTT_TRIGGER_MAX_ACTIONS);

	for (size_t i = 0; i < nr; i++)
		n[i] = (struct action_counters){ d->runs[i], d->failures[i], d->last_error[i] };
	ltt_trigger_put(w, &d->conf, minor);
	ltt_codec_put(w, &trigger_fired, d);
	ltt_codec_put_array(w, &trigger_counters, n, sizeof(n[0]), nr);
	ltt_codec_put_v(w, &trigger_pending_since, d, minor);
	if (minor >= LTT_CLIENT_MINOR_PENDING)
		ltt_codec_put_array(w, &trigger_pending, d->pending, sizeof(d->pending[0]), nr);
}

void ltt_trigger_desc_get(struct ltt_rbuf *r, struct ltt_trigger_desc *ret, uint32_t minor)
{
	struct action_counters n[LTT_TRIGGER_MAX_ACTIONS];
	size_t nr;

	memset(ret, 0, sizeof(*ret));
	ltt_trigger_get(r, &ret->conf, minor);
	nr = ret->conf.nr_actions;
	if (r->err || ltt_codec_get(r, &trigger_fired, ret) ||
	    ltt_codec_get_array(r, &trigger_counters, n, sizeof(n[0]), nr))
		return;
	for (size_t i = 0; i < nr; i++) {
		ret->runs[i] = n[i].runs;
		ret->failures[i] = n[i].failures;
		ret->last_error[i] = n[i].last_error;
	}
	if (ltt_codec_get_v(r, &trigger_pending_since, ret, minor) ||
	    minor < LTT_CLIENT_MINOR_PENDING)
		return;
	ltt_codec_get_array(r, &trigger_pending, ret->pending, sizeof(ret->pending[0]), nr);
}

/* The type byte's bit of an enum's SIGNED or UNSIGNED (is_enum). */
#define CAPTURE_ENUM_BIT 0x80

/* An enum's number: the bit on SIGNED and UNSIGNED only. */
static bool enum_number(uint8_t type)
{
	return type == LTT_CAPTURE_SIGNED || type == LTT_CAPTURE_UNSIGNED;
}

void ltt_capture_put(struct ltt_wbuf *w, const struct ltt_capture_desc *c)
{
	ltt_wbuf_put_u8(w, (uint8_t)(c->type | (c->is_enum && enum_number(c->type) ?
						CAPTURE_ENUM_BIT : 0)));
	if (c->type == LTT_CAPTURE_STRING) {
		ltt_wbuf_put_str(w, c->str ? c->str : "");
	} else if (c->type == LTT_CAPTURE_ARRAY) {
		ltt_wbuf_put_u32(w, c->elems ? c->nr_elems : 0);
		if (c->elems)
			ltt_wbuf_put_bytes(w, c->elems, c->elems_len);
	} else if (c->type != LTT_CAPTURE_UNAVAILABLE) {
		ltt_wbuf_put_u64(w, c->bits);
	}
}

/* One capture at @r; an ARRAY only where @array (not inside another). */
static void capture_get(struct ltt_rbuf *r, struct ltt_capture_desc *ret, bool array)
{
	struct ltt_capture_desc e;
	size_t at;

	memset(ret, 0, sizeof(*ret));
	ret->type = ltt_rbuf_get_u8(r);
	if (ret->type & CAPTURE_ENUM_BIT) {
		ret->type &= (uint8_t)~CAPTURE_ENUM_BIT;
		ret->is_enum = true;
		if (!enum_number(ret->type)) {
			ltt_rbuf_fail(r);
			return;
		}
	}
	switch (ret->type) {
	case LTT_CAPTURE_UNAVAILABLE:
		break;
	case LTT_CAPTURE_SIGNED:
	case LTT_CAPTURE_UNSIGNED:
	case LTT_CAPTURE_FLOAT:
		ret->bits = ltt_rbuf_get_u64(r);
		break;
	case LTT_CAPTURE_STRING:
		ret->str = ltt_rbuf_get_str(r, LTT_CAPTURE_STR_MAX);
		break;
	case LTT_CAPTURE_ARRAY:
		ret->nr_elems = ltt_rbuf_get_u32(r);
		/* each element takes a byte at least: a count beyond the bytes left lies */
		if (!array || r->err || ret->nr_elems > r->len - r->pos) {
			ltt_rbuf_fail(r);
			break;
		}
		at = r->pos;
		for (uint32_t i = 0; i < ret->nr_elems && !r->err; i++)
			capture_get(r, &e, false);
		if (!r->err) {
			ret->elems = r->data + at;
			ret->elems_len = (uint32_t)(r->pos - at);
		}
		break;
	default:
		ltt_rbuf_fail(r);
	}
}

void ltt_capture_get(struct ltt_rbuf *r, struct ltt_capture_desc *ret)
{
	capture_get(r, ret, true);
}

void ltt_notif_put(struct ltt_wbuf *w, const struct ltt_notif_desc *n, uint32_t minor)
{
	struct capture_count k = { (uint32_t)sent(n->nr_captures, captures_room(minor)) };

	static const struct ltt_capture_desc none = { .type = LTT_CAPTURE_UNAVAILABLE };

	ltt_codec_put(w, &trigger_notif, n);
	ltt_codec_put(w, &trigger_nr_captures, &k);
	for (size_t i = 0; i < k.nr; i++) {
		struct ltt_capture_desc c = n->captures[i];

		/* a peer older than arrays and enums can't decode them: as before */
		if (minor < LTT_CLIENT_MINOR_CAPTURE_ARRAY) {
			if (c.type == LTT_CAPTURE_ARRAY)
				c = none;
			c.is_enum = false;
		}
		ltt_capture_put(w, &c);
	}
}

void ltt_notif_get(struct ltt_rbuf *r, struct ltt_notif_desc *ret)
{
	struct capture_count k;

	memset(ret, 0, sizeof(*ret));
	if (ltt_codec_get(r, &trigger_notif, ret) || ltt_codec_get(r, &trigger_nr_captures, &k))
		return;
	ret->nr_captures = k.nr;
	for (uint32_t i = 0; i < ret->nr_captures; i++)
		ltt_capture_get(r, &ret->captures[i]);
}
