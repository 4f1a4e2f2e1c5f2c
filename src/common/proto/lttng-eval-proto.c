// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-eval-proto.c - what the notification channel and error queries
 * carry beside a trigger (lttng-trigger-proto.h): the channel's message
 * header, error queries' results (the queries: lttng-trigger-proto.c), the evaluations of
 * notifications, the capture descriptors and captured values (as
 * LTTng's MessagePack) and the archives' locations.
 */
#include <errno.h>
#include <string.h>

#include "common/model/uri.h"
#include "common/proto/lttng-trigger-proto.h"
#include "common/proto/lttng-trigger-wire.h"
#include "common/proto/trigger-proto.h"

enum { LOCATION_LOCAL = 1, LOCATION_RELAY = 2 };

#define LOCATION_UNION_SIZE 13		/* the union of lttng_trace_archive_location_comm */

struct location_hdr {
	uint8_t type;
	uint32_t len;		/* LOCAL: the path's; RELAY: the host's */
	uint8_t pad[9];		/* LOCAL: the rest of the union */
	uint8_t protocol;	/* RELAY: */
	uint16_t ctrl_port;
	uint16_t data_port;
	uint32_t relative_len;
};

struct result_hdr {
	uint8_t type;
	uint32_t name_len;
	uint32_t desc_len;
};

#define LTT_MSG struct ltt_lttng_notif_hdr
LTT_CODEC(notif_hdr, LTTNG_ORDER, LTT_ROW_U8(type), LTT_ROW_U32(size), LTT_ROW_U32(fds));
#undef LTT_MSG
#define LTT_MSG struct location_hdr
LTT_CODEC(location_hdr, LTTNG_ORDER, LTT_ROW_U8(type), LTT_ROW_U32(len),
	  LTT_ROW_WHEN_EQ(type, LOCATION_LOCAL), LTT_ROW_BYTES(pad), LTT_ROW_WHEN_END(),
	  LTT_ROW_WHEN_EQ(type, LOCATION_RELAY), LTT_ROW_U8(protocol), LTT_ROW_U16(ctrl_port),
	  LTT_ROW_U16(data_port), LTT_ROW_U32(relative_len));
#undef LTT_MSG
#define LTT_MSG struct result_hdr
LTT_CODEC(result_hdr, LTTNG_ORDER, LTT_ROW_U8(type), LTT_ROW_U32(name_len), LTT_ROW_U32(desc_len));
#undef LTT_MSG

/* ---- the notification channel's messages ---- */

void ltt_lttng_notif_hdr_get(struct ltt_rbuf *r, struct ltt_lttng_notif_hdr *ret)
{
	memset(ret, 0, sizeof(*ret));
	ltt_codec_get(r, &notif_hdr, ret);
}

void ltt_lttng_notif_hdr_put(struct ltt_wbuf *w, const struct ltt_lttng_notif_hdr *h)
{
	ltt_codec_put(w, &notif_hdr, h);
}

/* ---- capture descriptors ---- */

int ltt_lttng_capture_expr_put(struct ltt_wbuf *w, const char *text)
{
	struct ltt_capture_expr e;
	const char *br, *colon;
	size_t n;

	if (ltt_capture_parse(text, &e))
		return -ENOTSUP;
	if (e.index >= 0) {
		ltt_wbuf_put_u8(w, EXPR_ELEMENT);
		put32(w, (uint32_t)e.index);
	}
	if (e.kind == LTT_CAPTURE_KIND_PAYLOAD) {
		ltt_wbuf_put_u8(w, EXPR_PAYLOAD);
		put_lstring(w, e.field);
		return 0;
	}
	/* $ctx.NAME or $app.PROVIDER:TYPE, up to its [INDEX] */
	br = strchr(text, '[');
	n = br ? (size_t)(br - text) : strlen(text);
	colon = memchr(text, ':', n);
	if (!strncmp(text, "$ctx.", 5) || !colon) {
		ltt_wbuf_put_u8(w, EXPR_CONTEXT);
		put_lstring_n(w, text + 5, n - 5);
		return 0;
	}
	ltt_wbuf_put_u8(w, EXPR_APP_CONTEXT);
	put_lstring_n(w, text + 5, (size_t)(colon - text - 5));
	put_lstring_n(w, colon + 1, (size_t)(text + n - colon - 1));
	return 0;
}

/* ---- evaluations ---- */

/*
 * MessagePack: what LTTng's tracers write for the captured values.  A
 * 64-bit one after its @tag: uint 64 (0xcf), int 64 (0xd3), float 64 (0xcb).
 */
static void mp_64(struct ltt_wbuf *w, uint8_t tag, uint64_t v)
{
	ltt_wbuf_put_u8(w, tag);
	ltt_wbuf_put_be64(w, v);
}

/* A MessagePack str 32 of @s's bytes. */
static void mp_str(struct ltt_wbuf *w, const char *s)
{
	size_t len = s ? strlen(s) : 0;

	ltt_wbuf_put_u8(w, 0xdb);
	ltt_wbuf_put_be32(w, (uint32_t)len);
	ltt_wbuf_put_bytes(w, s ? s : "", len);
}

/*
 * One value as MessagePack; an ARRAY's elements after its array header;
 * an enum's value as lttng-ust writes it, a map {type: "enum", value: N},
 * N as a signed integer (a positive one LTTng's client takes for an
 * unsigned enum's).
 */
static void mp_value(struct ltt_wbuf *w, const struct ltt_capture_desc *v)
{
	struct ltt_capture_desc e;
	struct ltt_rbuf r;

	if (v->is_enum) {
		ltt_wbuf_put_u8(w, 0x82);	/* map of 2 */
		mp_str(w, "type");
		mp_str(w, "enum");
		mp_str(w, "value");
		e = (struct ltt_capture_desc){ .type = LTT_CAPTURE_SIGNED, .bits = v->bits };
		mp_value(w, &e);
		return;
	}
	switch (v->type) {
	case LTT_CAPTURE_SIGNED:	/* not negative: as LTTng's writer, a uint */
		mp_64(w, (int64_t)v->bits >= 0 ? 0xcf : 0xd3, v->bits);
		break;
	case LTT_CAPTURE_UNSIGNED:
		mp_64(w, 0xcf, v->bits);
		break;
	case LTT_CAPTURE_FLOAT:
		mp_64(w, 0xcb, v->bits);
		break;
	case LTT_CAPTURE_STRING:
		mp_str(w, v->str);
		break;
	case LTT_CAPTURE_ARRAY:
		/* the elements, checked when decoded (ltt_capture_get()): none an array */
		ltt_wbuf_put_u8(w, 0xdd);	/* array 32 */
		ltt_wbuf_put_be32(w, v->elems ? v->nr_elems : 0);
		ltt_rbuf_init(&r, v->elems, v->elems ? v->elems_len : 0);
		for (uint32_t i = 0; v->elems && i < v->nr_elems; i++) {
			ltt_capture_get(&r, &e);
			if (e.type == LTT_CAPTURE_ARRAY)
				e.type = LTT_CAPTURE_UNAVAILABLE;
			mp_value(w, &e);
		}
		break;
	default:
		ltt_wbuf_put_u8(w, 0xc0);	/* nil: unavailable */
		break;
	}
}

void ltt_lttng_capture_values_put(struct ltt_wbuf *w, uint32_t count,
				  const struct ltt_notif_desc *n)
{
	static const struct ltt_capture_desc none = { .type = LTT_CAPTURE_UNAVAILABLE };

	/* as many as the condition has: LTTng's client reads one a descriptor */
	ltt_wbuf_put_u8(w, 0xdd);	/* array 32 */
	ltt_wbuf_put_be32(w, count);
	for (uint32_t i = 0; i < count; i++)
		mp_value(w, i < n->nr_captures ? &n->captures[i] : &none);
}

/* An archive's location: a local path, or a relay's net:// URL. */
static void put_location(struct ltt_wbuf *w, const char *path)
{
	struct location_hdr h = { .type = LOCATION_LOCAL };
	struct ltt_uri u;

	if (path[0] != '/' && !ltt_uri_parse(path, &u) && u.scheme == LTT_URI_NET) {
		h.type = LOCATION_RELAY;
		h.len = slen(u.host);
		h.ctrl_port = u.ctrl_port;
		h.data_port = u.data_port;
		h.relative_len = slen(u.path);
		ltt_codec_put(w, &location_hdr, &h);
		put_string(w, u.host);
		put_string(w, u.path);
		return;
	}
	h.len = slen(path);
	ltt_codec_put(w, &location_hdr, &h);
	put_string(w, path);
}

void ltt_lttng_evaluation_put(struct ltt_wbuf *w, const struct ltt_trigger_conf *c,
			      const struct ltt_notif_desc *n, uint64_t capacity)
{
	size_t at;

	switch (c->cond) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		ltt_wbuf_put_u8(w, COND_RULE_MATCHES);
		if (!c->nr_captures) {
			put32(w, 0);
			return;
		}
		at = w->len;
		put32(w, 0);
		ltt_lttng_capture_values_put(w, c->nr_captures, n);
		if (!w->err) {
			uint32_t len = (uint32_t)(w->len - at - 4);
			struct ltt_wbuf fix;

			ltt_wbuf_init_fixed(&fix, w->data + at, 4);
			put32(&fix, len);
		}
		return;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ltt_wbuf_put_u8(w, COND_CONSUMED);
		put64(w, n->value);
		return;
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		ltt_wbuf_put_u8(w, c->cond == LTT_CONDITION_BUFFER_USAGE_GE ? COND_USAGE_HIGH :
									     COND_USAGE_LOW);
		put64(w, n->value);
		put64(w, capacity);
		return;
	default:	/* the rotations */
		ltt_wbuf_put_u8(w, c->cond == LTT_CONDITION_SESSION_ROTATION_STARTS ?
					   COND_ROT_ONGOING : COND_ROT_COMPLETED);
		put64(w, n->value);
		ltt_wbuf_put_u8(w, n->path && n->path[0] ? 1 : 0);
		if (n->path && n->path[0])
			put_location(w, n->path);
		return;
	}
}

void ltt_lttng_error_counter_put(struct ltt_wbuf *w, const char *name, const char *desc,
				 uint64_t value)
{
	struct result_hdr h = { .type = 0, .name_len = slen(name), .desc_len = slen(desc) };

	ltt_codec_put(w, &result_hdr, &h);
	put_string(w, name);
	put_string(w, desc);
	put64(w, value);
}
