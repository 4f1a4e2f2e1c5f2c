// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-map-proto.c - LTTng 2.16's incr-map-value action as its serialized
 * triggers carry it, for lttng-trigger-proto.c's codec
 * (lttng-trigger-wire.h): the action's type byte (read by the caller),
 * {i8 map channel type, u32 session_len, u32 channel_len}, the session's
 * and the map channel's names, then the key template: {u32 segments,
 * each {u8 type, a literal's u32 length and string}}, a literal, the
 * event's name or its provider's.  ltt's template is text whose braces
 * are the two fields alone (common/model/map.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "common/model/map.h"
#include "common/model/trigger.h"
#include "common/proto/lttng-client-proto.h"
#include "common/proto/lttng-trigger-wire.h"

struct incr_hdr {
	uint8_t channel_type;	/* MAP_KERNEL, MAP_USER */
	uint32_t session_len;
	uint32_t channel_len;
};

#define LTT_MSG struct incr_hdr
LTT_CODEC(incr_hdr, LTTNG_ORDER, LTT_ROW_U8(channel_type), LTT_ROW_U32(session_len),
	  LTT_ROW_U32(channel_len));
#undef LTT_MSG

/* The placeholders of a key template, as ltt's template text writes them. */
static const char *const key_fields[] = {
	[KEY_EVENT_NAME] = "{event_name}", [KEY_PROVIDER_NAME] = "{provider_name}",
};

/* A string of @len bytes, its NUL last, into @dst of @size: 0, -EPROTO or -ENOTSUP. */
static int get_string(struct ltt_rbuf *r, uint32_t len, char *dst, size_t size)
{
	const char *s = (const char *)ltt_rbuf_get_bytes(r, len);

	if (!s || !len || s[len - 1] != '\0' || strlen(s) != len - 1)
		return -EPROTO;
	if (len > size)
		return -ENOTSUP;
	memcpy(dst, s, len);
	return 0;
}

/* The key template's segments as ltt's text into @dst (LTT_MAP_KEY_MAX bytes). */
static int get_key_template(struct ltt_rbuf *r, char *dst, const char **why)
{
	uint32_t n = get32(r), i, len;
	char lit[LTT_MAP_KEY_MAX];
	const char *piece;
	size_t used = 0;
	uint8_t type;
	int err;

	dst[0] = '\0';
	*why = "a key template longer than ltt's 255 bytes";
	for (i = 0; i < n; i++) {
		type = ltt_rbuf_get_u8(r);
		if (r->err)
			return -EPROTO;
		if (type == KEY_LITERAL) {
			len = get32(r);
			err = r->err ? -EPROTO : get_string(r, len, lit, sizeof(lit));
			if (err)
				return err;
			if (strpbrk(lit, "{}")) {
				*why = "a key template with a literal brace";
				return -ENOTSUP;
			}
			piece = lit;
		} else if (type == KEY_EVENT_NAME || type == KEY_PROVIDER_NAME) {
			piece = key_fields[type];
		} else {
			return -EPROTO;
		}
		len = (uint32_t)strlen(piece);
		if (used + len >= LTT_MAP_KEY_MAX)
			return -ENOTSUP;
		memcpy(dst + used, piece, len + 1);
		used += len;
	}
	if (!ltt_map_key_valid(dst)) {
		*why = "this key template (an empty one, or one of control characters)";
		return -ENOTSUP;
	}
	return 0;
}

int ltt_lttng_get_incr_map(struct ltt_rbuf *r, bool kernel, struct ltt_action_conf *a,
			   const char **why)
{
	struct incr_hdr h;
	int err;

	if (ltt_codec_get(r, &incr_hdr, &h) ||
	    (h.channel_type != MAP_KERNEL && h.channel_type != MAP_USER))
		return -EPROTO;
	a->type = LTT_ACTION_INCR_MAP_VALUE;
	a->rate_policy = LTT_RATE_EVERY;	/* it counts each time: no rate policy */
	a->rate_count = 1;
	*why = "a session or map channel name longer than ltt's";
	err = get_string(r, h.session_len, a->session, sizeof(a->session));
	if (!err)
		err = get_string(r, h.channel_len, a->map, sizeof(a->map));
	if (!err)
		err = get_key_template(r, a->key, why);
	/* ltt's map is its rule's domain's (a kernel and a user map may share a name) */
	if (!err && (h.channel_type == MAP_KERNEL) != kernel) {
		*why = "an incr-map-value whose map's type is not its rule's domain";
		err = -ENOTSUP;
	}
	if (err == -EPROTO)
		ltt_rbuf_fail(r);
	return err;
}

/* ltt's key template text @tmpl (checked) as 2.16's segments. */
static void put_key_template(struct ltt_wbuf *w, const char *tmpl)
{
	struct ltt_wbuf segs;
	uint32_t n = 0;
	size_t len;
	int f;

	ltt_wbuf_init(&segs);
	while (*tmpl) {
		for (f = KEY_EVENT_NAME; f <= KEY_PROVIDER_NAME; f++)
			if (!strncmp(tmpl, key_fields[f], strlen(key_fields[f])))
				break;
		if (f <= KEY_PROVIDER_NAME) {
			ltt_wbuf_put_u8(&segs, (uint8_t)f);
			tmpl += strlen(key_fields[f]);
		} else {
			len = strcspn(tmpl, "{");
			ltt_wbuf_put_u8(&segs, KEY_LITERAL);
			put32(&segs, (uint32_t)len + 1);
			ltt_wbuf_put_bytes(&segs, tmpl, len);
			ltt_wbuf_put_u8(&segs, 0);
			tmpl += len;
		}
		n++;
	}
	put32(w, n);
	ltt_wbuf_put_bytes(w, segs.data, segs.len);
	if (segs.err)
		w->err = segs.err;
	ltt_wbuf_fini(&segs);
}

int ltt_lttng_put_incr_map(struct ltt_wbuf *w, bool kernel, const struct ltt_action_conf *a)
{
	struct incr_hdr h = {
		.channel_type = kernel ? MAP_KERNEL : MAP_USER,
		.session_len = slen(a->session),
		.channel_len = slen(a->map),
	};

	if (!ltt_map_key_valid(a->key))
		return -ENOTSUP;
	ltt_wbuf_put_u8(w, ACT_INCR_MAP);
	ltt_codec_put(w, &incr_hdr, &h);
	put_string(w, a->session);
	put_string(w, a->map);
	put_key_template(w, a->key);
	return 0;
}
