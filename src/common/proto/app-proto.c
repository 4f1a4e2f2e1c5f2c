// SPDX-License-Identifier: LGPL-2.1-only
/*
 * app-proto.c - message names, encoders and decoders of the
 * sessiond-application protocol (app-proto.h).
 *
 * Every message's flat parts are field tables (codec.h), one per part, so
 * that the encoders and decoders read the same description; a list is a
 * count row with its limit, then elements of their own table
 * (ltt_codec_put_array()).  What the tables leave decoded, code checks:
 * names, enum ranges, keys' bits, a context's kind.  By hand, and why:
 * - a description's shape (app-tracepoint.c);
 * - EVENT_FILTER's programs, {u32 len, len bytes} borrowed as a pointer
 *   and a length, which no row type says (this is its one message);
 * - TRACEPOINTS's count, written as 0 then set once it is known;
 * - the notification's head (magic and length: whether a whole message
 *   is there yet) and captures (their type byte says what follows).
 *
 * Minors.  What a minor brought to the protocol is a message or a message
 * part, never a field that an existing layout grows: EVENT_FILTER (1),
 * AGENT_RULES and LOGGERS (3), NOTIFIER_* (4), GAP (6, LTT_APP_MINOR_GAP),
 * COUNTER_ADD (7, LTT_APP_MINOR_COUNTER) and LOGGERS_SYNC (9, no payload)
 * are whole messages, sent only to (or by) a peer of that minor, so their
 * tables need no minor; the
 * contexts after CHANNEL_ADD's nr_streams (2) are a part sent only when
 * the channel has some, and only to a program of minor 2 or more; minor
 * 5's flags ride in the high bits of a field's type byte that was there
 * from the start (a value, not a field: a daemon before 5 refuses them as
 * an unknown type).
 *
 * A tracepoint's description (TRACEPOINTS' elements) is
 * app-tracepoint.c's.
 */
#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/names.h"
#include "common/model/attr.h"
#include "common/proto/app-proto.h"
#include "common/proto/trigger-proto.h"

#define NAME_(name, num, dir) [num] = #name,
static const char *const msg_names[] = { LTT_APP_MSG_TABLE(NAME_) };
#undef NAME_

const char *ltt_app_msg_name(uint32_t type)
{
	if (type >= sizeof(msg_names) / sizeof(msg_names[0]))
		return NULL;
	return msg_names[type];
}

/* One string: a capture's expression. */
struct wire_str {
	const char *str;
};

/* ---- the other messages ---- */

#define LTT_MSG struct ltt_app_register
LTT_CODEC(app_register, LTT_CODEC_LE,
	  LTT_ROW_U32(major), LTT_ROW_U32(minor), LTT_ROW_U32(pid), LTT_ROW_U32(ppid),
	  LTT_ROW_U32(uid), LTT_ROW_U32(gid), LTT_ROW_U32(bits_per_long), LTT_ROW_U32(nr_cpus),
	  LTT_ROW_STRREF(procname, LTT_APP_PROCNAME_MAX));
#undef LTT_MSG

#define LTT_MSG struct ltt_app_gap
LTT_CODEC(app_gap, LTT_CODEC_LE, LTT_ROW_U64(gone_ns), LTT_ROW_U32(channels));
#undef LTT_MSG

#define LTT_MSG struct ltt_app_version
LTT_CODEC(app_version, LTT_CODEC_LE, LTT_ROW_U32(major), LTT_ROW_U32(minor));
#undef LTT_MSG

#define LTT_MSG struct ltt_app_ack
LTT_CODEC(app_ack, LTT_CODEC_LE, LTT_ROW_U32(seq), LTT_ROW_U32(status));
#undef LTT_MSG

#define LTT_MSG struct ltt_app_event_msg
LTT_CODEC(app_event_enable, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_STRREF(name, LTT_APP_NAME_MAX),
	  LTT_ROW_SINCE(LTT_APP_MINOR_LAYOUT), LTT_ROW_U64(layout), LTT_ROW_SINCE(0),
	  LTT_ROW_U32(event_id));
/* No event_id: decoded as 0. */
LTT_CODEC(app_event_disable, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_STRREF(name, LTT_APP_NAME_MAX),
	  LTT_ROW_SINCE(LTT_APP_MINOR_LAYOUT), LTT_ROW_U64(layout));
#undef LTT_MSG

LTT_CODEC_PAIR(app, register, struct ltt_app_register)
LTT_CODEC_PAIR(app, gap, struct ltt_app_gap)
LTT_CODEC_PAIR(app, version, struct ltt_app_version)
LTT_CODEC_PAIR(app, ack, struct ltt_app_ack)

/* EVENT_ENABLE or EVENT_DISABLE as a peer of @minor sent it (the layout from minor 8). */
static int get_event_msg(struct ltt_rbuf *r, const struct ltt_codec *c,
			 struct ltt_app_event_msg *ret, uint32_t minor)
{
	struct ltt_app_event_msg m;

	memset(&m, 0, sizeof(m));
	if (ltt_codec_get_msg_v(r, c, &m, minor))
		return -EPROTO;
	*ret = m;
	return 0;
}

/* ltt_app_{put,get}_event_@name{,_v}(): the _v ones as a peer of @minor, the others every row */
#define EVENT_MSG_FUNCS(name) \
	void ltt_app_put_event_##name##_v(struct ltt_wbuf *w, const struct ltt_app_event_msg *m, \
					  uint32_t minor) \
	{ \
		ltt_codec_put_v(w, &app_event_##name, m, minor); \
	} \
	int ltt_app_get_event_##name##_v(struct ltt_rbuf *r, struct ltt_app_event_msg *ret, \
					 uint32_t minor) \
	{ \
		return get_event_msg(r, &app_event_##name, ret, minor); \
	} \
	void ltt_app_put_event_##name(struct ltt_wbuf *w, const struct ltt_app_event_msg *m) \
	{ \
		ltt_codec_put_v(w, &app_event_##name, m, LTT_CODEC_ALL_MINORS); \
	} \
	int ltt_app_get_event_##name(struct ltt_rbuf *r, struct ltt_app_event_msg *ret) \
	{ \
		return get_event_msg(r, &app_event_##name, ret, LTT_CODEC_ALL_MINORS); \
	}

EVENT_MSG_FUNCS(enable)
EVENT_MSG_FUNCS(disable)

#define LTT_MSG struct ltt_app_channel_add
LTT_CODEC(app_channel_add, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_U64(session_id), LTT_ROW_U32(stream_id),
	  LTT_ROW_BOOL(enabled), LTT_ROW_U32(nr_streams));
/* minor 2: after nr_streams when the channel has contexts, then the contexts */
LTT_CODEC(app_channel_contexts, LTT_CODEC_LE, LTT_ROW_MAX(nr_contexts, UINT, 4, 0, LTT_CTX_MAX));
#undef LTT_MSG

/* CHANNEL_ENABLE, CHANNEL_DISABLE, CHANNEL_REMOVE */
struct wire_key {
	uint64_t key;
};

#define LTT_MSG struct wire_key
LTT_CODEC(app_channel_key, LTT_CODEC_LE, LTT_ROW_U64(key));
#undef LTT_MSG

/* The programs follow, by hand (the file's head says why). */
#define LTT_MSG struct ltt_app_event_filter
LTT_CODEC(app_event_filter, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_STRREF(name, LTT_APP_NAME_MAX),
	  LTT_ROW_SINCE(LTT_APP_MINOR_LAYOUT), LTT_ROW_U64(layout), LTT_ROW_SINCE(0),
	  LTT_ROW_MAX(nr_programs, UINT, 4, 0, LTT_APP_FILTER_MAX_PROGRAMS));
#undef LTT_MSG

/* TRACEPOINTS's head */
struct wire_count {
	uint32_t count;
};

#define LTT_MSG struct wire_count
LTT_CODEC(app_tracepoints, LTT_CODEC_LE, LTT_ROW_MAX(count, UINT, 4, 0, LTT_APP_MAX_TRACEPOINTS));
#undef LTT_MSG

/* AGENT_RULES's head: the rules follow, each its own part. */
struct wire_rules {
	uint64_t channel_key;
	uint32_t count;
};

#define LTT_MSG struct wire_rules
LTT_CODEC(app_agent_rules, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_MAX(count, UINT, 4, 0, LTT_APP_AGENT_MAX_RULES));
#undef LTT_MSG

#define LTT_MSG struct ltt_app_agent_rule
LTT_CODEC(app_agent_rule, LTT_CODEC_LE,
	  LTT_ROW_STRREF(pattern, LTT_NAME_MAX), LTT_ROW_U32(loglevel_type), LTT_ROW_U32(loglevel),
	  LTT_ROW_STRREF(exclusions, LTT_EXCLUSIONS_MAX));
#undef LTT_MSG

/* Every capture a number (9 bytes), after the longest head: one message still holds them. */
_Static_assert(4 + 4 + 8 + 8 + 4 + LTT_APP_NAME_MAX + 4 + 9 * LTT_TRIGGER_CAPTURES_LIMIT <=
	       LTT_APP_NOTIFY_MAX, "a notification of LTT_TRIGGER_CAPTURES_LIMIT numbers");

/* The capture expressions follow, each a string. */
#define LTT_MSG struct ltt_app_notifier_add
LTT_CODEC(app_notifier_add, LTT_CODEC_LE,
	  LTT_ROW_U64(key), LTT_ROW_MAX(nr_captures, UINT, 4, 0, LTT_TRIGGER_CAPTURES_LIMIT));
#undef LTT_MSG

/* A capture expression: the captures[] of ltt_app_notifier_add are its elements. */
#define LTT_MSG struct wire_str
LTT_CODEC(app_capture_expr, LTT_CODEC_LE, LTT_ROW_STRREF(str, LTT_CAPTURE_MAX));
#undef LTT_MSG
_Static_assert(sizeof(struct wire_str) == sizeof(((struct ltt_app_notifier_add *)0)->captures[0]),
	       "a capture expression's table reads one captures[] element");

#define LTT_MSG struct ltt_app_counter_add
LTT_CODEC(app_counter_add, LTT_CODEC_LE,
	  LTT_ROW_U64(key), LTT_ROW_U32(nr_cpus), LTT_ROW_U32(nr_slots));
#undef LTT_MSG

/* A notification after its magic and length: the captures follow, by hand. */
#define LTT_MSG struct ltt_app_notify
LTT_CODEC(app_notify, LTT_CODEC_LE,
	  LTT_ROW_U64(key), LTT_ROW_U64(dropped), LTT_ROW_STRREF(event, LTT_APP_NAME_MAX),
	  LTT_ROW_MAX(nr_captures, UINT, 4, 0, LTT_TRIGGER_CAPTURES_LIMIT));
#undef LTT_MSG

void ltt_app_put_channel_add(struct ltt_wbuf *w, const struct ltt_app_channel_add *m)
{
	ltt_codec_put(w, &app_channel_add, m);
	if (!m->nr_contexts)
		return;
	ltt_codec_put(w, &app_channel_contexts, m);
	ltt_codec_put_array(w, ltt_ctx_codec, m->contexts, sizeof(m->contexts[0]),
			    m->nr_contexts < LTT_CTX_MAX ? m->nr_contexts : LTT_CTX_MAX);
}

/*
 * The context list of a CHANNEL_ADD: 0 or -EPROTO.  Sent only when not
 * empty, so a count of 0 would be a second encoding of no list.
 */
static int get_contexts(struct ltt_rbuf *r, struct ltt_app_channel_add *m)
{
	uint32_t i, j;

	if (ltt_codec_get(r, &app_channel_contexts, m) || !m->nr_contexts ||
	    ltt_codec_get_array(r, ltt_ctx_codec, m->contexts, sizeof(m->contexts[0]),
				m->nr_contexts))
		return -EPROTO;
	for (i = 0; i < m->nr_contexts; i++) {
		if (!ltt_ctx_check(&m->contexts[i]) ||
		    !(ltt_ctx_domains(&m->contexts[i]) & LTT_CTX_DOMAIN_USER))
			return -EPROTO;	/* a kernel-only type has no user-space writer */
		for (j = 0; j < i; j++)
			if (ltt_ctx_same(&m->contexts[j], &m->contexts[i]))
				return -EPROTO;
	}
	return 0;
}

int ltt_app_get_channel_add(struct ltt_rbuf *r, struct ltt_app_channel_add *ret)
{
	ret->nr_contexts = 0;
	if (ltt_codec_get(r, &app_channel_add, ret) ||
	    (r->pos < r->len && get_contexts(r, ret)) || ltt_rbuf_end(r))
		return -EPROTO;
	return 0;
}

void ltt_app_put_channel_key(struct ltt_wbuf *w, uint64_t channel_key)
{
	const struct wire_key m = { channel_key };

	ltt_codec_put(w, &app_channel_key, &m);
}

int ltt_app_get_channel_key(struct ltt_rbuf *r, uint64_t *ret_key)
{
	struct wire_key m;

	if (ltt_codec_get_msg(r, &app_channel_key, &m))
		return -EPROTO;
	*ret_key = m.key;
	return 0;
}

void ltt_app_put_event_filter(struct ltt_wbuf *w, const struct ltt_app_event_filter *m)
{
	ltt_app_put_event_filter_v(w, m, LTT_CODEC_ALL_MINORS);
}

int ltt_app_get_event_filter(struct ltt_rbuf *r, struct ltt_app_event_filter *ret)
{
	return ltt_app_get_event_filter_v(r, ret, LTT_CODEC_ALL_MINORS);
}

void ltt_app_put_event_filter_v(struct ltt_wbuf *w, const struct ltt_app_event_filter *m,
				uint32_t minor)
{
	uint32_t i;

	if (m->nr_programs > LTT_APP_FILTER_MAX_PROGRAMS) {
		w->err = -EINVAL;
		return;
	}
	ltt_codec_put_v(w, &app_event_filter, m, minor);
	for (i = 0; i < m->nr_programs; i++) {
		const struct ltt_app_filter_program *p = &m->programs[i];

		if (!p->len || p->len > LTT_APP_FILTER_MAX_LEN) {
			w->err = -EINVAL;
			return;
		}
		ltt_wbuf_put_u32(w, p->len);
		ltt_wbuf_put_bytes(w, p->code, p->len);
	}
	if (w->len > LTT_APP_MSG_MAX)
		ltt_wbuf_fail(w, -EINVAL);
}

int ltt_app_get_event_filter_v(struct ltt_rbuf *r, struct ltt_app_event_filter *ret,
			       uint32_t minor)
{
	struct ltt_app_event_filter m;
	uint32_t i;

	m.layout = 0;
	if (ltt_codec_get_v(r, &app_event_filter, &m, minor))
		return -EPROTO;
	for (i = 0; i < m.nr_programs; i++) {
		uint32_t len = ltt_rbuf_get_u32(r);

		if (r->err || !len || len > LTT_APP_FILTER_MAX_LEN) {
			ltt_rbuf_fail(r);
			return -EPROTO;
		}
		m.programs[i].len = len;
		m.programs[i].code = ltt_rbuf_get_bytes(r, len);
		if (!m.programs[i].code) {
			ltt_rbuf_fail(r);
			return -EPROTO;
		}
	}
	if (ltt_rbuf_end(r))
		return -EPROTO;
	memcpy(ret, &m, offsetof(struct ltt_app_event_filter, programs) +
	       m.nr_programs * sizeof(m.programs[0]));
	return 0;
}

size_t ltt_app_put_tracepoints_start(struct ltt_wbuf *w)
{
	const struct wire_count head = { 0 };
	size_t start = w->len;

	ltt_codec_put(w, &app_tracepoints, &head);
	return start;
}

void ltt_app_put_tracepoints_finish(struct ltt_wbuf *w, size_t start, uint32_t count)
{
	const struct wire_count head = { count };
	size_t end = w->len;

	if (w->err || start + sizeof(head) > end)
		return;
	/* The head again, over its placeholder: the buffer has the room. */
	w->len = start;
	ltt_codec_put(w, &app_tracepoints, &head);
	w->len = end;
}

int ltt_app_get_tracepoints(struct ltt_rbuf *r, struct ltt_app_tracepoint ***ret_tps,
			    uint32_t *ret_nr)
{
	struct ltt_app_tracepoint **tps = NULL;
	struct wire_count head;
	uint32_t i, n;
	int ret = 0;

	if (ltt_codec_get(r, &app_tracepoints, &head))
		return -EPROTO;
	n = head.count;
	if (n) {
		tps = calloc(n, sizeof(*tps));
		if (!tps)
			return -ENOMEM;
	}
	for (i = 0; i < n && !ret; i++)
		ret = ltt_app_get_tracepoint(r, &tps[i]);
	if (ret)
		i--;		/* tps[i] was not set */
	else if (ltt_rbuf_end(r))
		ret = -EPROTO;
	if (ret) {
		while (i--)
			free(tps[i]);
		free(tps);
		return ret;
	}
	*ret_tps = tps;
	*ret_nr = n;
	return 0;
}

void ltt_app_put_agent_rules_start(struct ltt_wbuf *w, uint64_t channel_key, uint32_t count)
{
	const struct wire_rules m = { channel_key, count };

	ltt_codec_put(w, &app_agent_rules, &m);
}

void ltt_app_put_agent_rule(struct ltt_wbuf *w, const struct ltt_app_agent_rule *m)
{
	ltt_codec_put(w, &app_agent_rule, m);
}

int ltt_app_get_agent_rules_start(struct ltt_rbuf *r, uint64_t *ret_key, uint32_t *ret_count)
{
	struct wire_rules m;

	if (ltt_codec_get(r, &app_agent_rules, &m))
		return -EPROTO;
	*ret_key = m.channel_key;
	*ret_count = m.count;
	return 0;
}

int ltt_app_get_agent_rule(struct ltt_rbuf *r, struct ltt_app_agent_rule *ret)
{
	struct ltt_rule_conf conf = { .type = LTT_EVENT_TRACEPOINT };
	struct ltt_app_agent_rule m;

	if (ltt_codec_get(r, &app_agent_rule, &m))
		return -EPROTO;
	strcpy(conf.pattern, m.pattern);
	strcpy(conf.exclusions, m.exclusions);
	conf.loglevel_type = (enum ltt_loglevel_type)m.loglevel_type;
	conf.loglevel = m.loglevel;
	if (m.loglevel_type > LTT_LOGLEVEL_SINGLE || ltt_attr_check_rule(&conf) ||
	    ltt_attr_check_rule_domain(&conf, LTT_DOMAIN_PYTHON)) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	*ret = m;
	return 0;
}

bool ltt_app_logger_name_valid(const char *name)
{
	size_t n = strlen(name);
	const unsigned char *p;

	if (!n || n >= LTT_NAME_MAX)
		return false;
	for (p = (const unsigned char *)name; *p; p++)
		if (*p < 0x20 || *p == 0x7f)
			return false;
	return true;
}

/* A logger's name: the names of LOGGERS are its elements. */
#define LTT_MSG struct wire_str
LTT_CODEC(app_logger, LTT_CODEC_LE, LTT_ROW_STRREF(str, LTT_NAME_MAX));
#undef LTT_MSG
_Static_assert(sizeof(struct wire_str) == sizeof(const char *),
	       "a logger's table reads one element of an array of names");

/* A string's bytes on the wire: its length, then it and its NUL. */
#define WIRE_STR_SIZE(s) (4 + strlen(s) + 1)

size_t ltt_app_put_loggers(struct ltt_wbuf *w, const char *const *names, size_t nr, size_t max)
{
	size_t len = w->len + 4, count = 0;

	while (count < nr && (!count || len + WIRE_STR_SIZE(names[count]) <= max))
		len += WIRE_STR_SIZE(names[count++]);
	ltt_wbuf_put_u32(w, (uint32_t)count);
	ltt_codec_put_array(w, &app_logger, names, sizeof(names[0]), count);
	return count;
}

int ltt_app_get_loggers(struct ltt_rbuf *r, const char **names, size_t room,
			uint32_t *ret_count)
{
	uint32_t n = ltt_rbuf_get_u32(r), i;

	if (r->err || n > room || ltt_codec_get_array(r, &app_logger, names, sizeof(names[0]), n))
		return -EPROTO;
	for (i = 0; i < n; i++)
		if (!ltt_app_logger_name_valid(names[i]))
			return -EPROTO;
	if (ltt_rbuf_end(r))
		return -EPROTO;
	*ret_count = n;
	return 0;
}

void ltt_app_put_notifier_add(struct ltt_wbuf *w, const struct ltt_app_notifier_add *m)
{
	ltt_codec_put(w, &app_notifier_add, m);
	ltt_codec_put_array(w, &app_capture_expr, m->captures, sizeof(m->captures[0]),
			    m->nr_captures < LTT_TRIGGER_CAPTURES_LIMIT ? m->nr_captures
									: LTT_TRIGGER_CAPTURES_LIMIT);
}

int ltt_app_get_notifier_add(struct ltt_rbuf *r, struct ltt_app_notifier_add *ret)
{
	struct ltt_app_notifier_add m = { 0 };

	if (ltt_codec_get(r, &app_notifier_add, &m) ||
	    ltt_codec_get_array(r, &app_capture_expr, m.captures, sizeof(m.captures[0]),
				m.nr_captures) ||
	    ltt_rbuf_end(r) || !(m.key & LTT_APP_NOTIFIER_KEY_BIT))
		return -EPROTO;
	*ret = m;
	return 0;
}

void ltt_app_put_counter_add(struct ltt_wbuf *w, const struct ltt_app_counter_add *m)
{
	ltt_codec_put(w, &app_counter_add, m);
}

int ltt_app_get_counter_add(struct ltt_rbuf *r, struct ltt_app_counter_add *ret)
{
	struct ltt_app_counter_add m;

	if (ltt_codec_get_msg(r, &app_counter_add, &m) || !(m.key & LTT_APP_NOTIFIER_KEY_BIT) ||
	    !m.nr_cpus || m.nr_cpus > LTT_APP_COUNTER_MAX_CPUS || !m.nr_slots ||
	    (uint64_t)m.nr_cpus * ltt_app_counter_stride(m.nr_slots) > LTT_APP_COUNTER_MAX_CELLS)
		return -EPROTO;
	*ret = m;
	return 0;
}

size_t ltt_app_counter_stride(uint32_t nr_slots)
{
	return ((size_t)nr_slots + 7) & ~(size_t)7;	/* 8 counters: 64 bytes */
}

size_t ltt_app_counter_size(uint32_t nr_cpus, uint32_t nr_slots)
{
	return LTT_APP_COUNTER_HDR + (size_t)nr_cpus * ltt_app_counter_stride(nr_slots) *
					     sizeof(uint64_t);
}

void ltt_app_put_notify_head(struct ltt_wbuf *w, const struct ltt_app_notify *m)
{
	ltt_wbuf_put_u32(w, LTT_APP_NOTIFY_MAGIC);
	ltt_wbuf_put_u32(w, 0);		/* the length, once known */
	ltt_codec_put(w, &app_notify, m);
}

/* Where the head puts the length and the dropped count: after the magic, after the key. */
#define NOTIFY_LEN_AT 4
#define NOTIFY_DROPPED_AT (4 + 4 + 8)

void ltt_app_seal_notify(uint8_t *msg, size_t len, uint64_t dropped)
{
	uint32_t len32 = htole32((uint32_t)len);

	memcpy(msg + NOTIFY_LEN_AT, &len32, sizeof(len32));
	dropped = htole64(dropped);
	memcpy(msg + NOTIFY_DROPPED_AT, &dropped, sizeof(dropped));
}

int ltt_app_get_notify(const uint8_t *buf, size_t len, struct ltt_app_notify *ret,
		       size_t *ret_len)
{
	struct ltt_app_notify m = { 0 };
	struct ltt_rbuf r;
	uint32_t magic, mlen, i;

	if (len < 8)
		return -EAGAIN;
	ltt_rbuf_init(&r, buf, 8);
	magic = ltt_rbuf_get_u32(&r);
	mlen = ltt_rbuf_get_u32(&r);
	if (magic != LTT_APP_NOTIFY_MAGIC || mlen < 8 + 8 + 8 + 5 + 4 ||	/* header, key, dropped, "", count */
	    mlen > LTT_APP_NOTIFY_MAX)
		return -EPROTO;
	if (len < mlen)
		return -EAGAIN;
	ltt_rbuf_init(&r, buf + 8, mlen - 8);
	if (ltt_codec_get(&r, &app_notify, &m))
		return -EPROTO;
	for (i = 0; i < m.nr_captures; i++)
		ltt_capture_get(&r, &m.captures[i]);
	if (ltt_rbuf_end(&r) || !(m.key & LTT_APP_NOTIFIER_KEY_BIT))
		return -EPROTO;
	*ret = m;
	*ret_len = mlen;
	return 0;
}
