// SPDX-License-Identifier: LGPL-2.1-only
/*
 * codec.c - bounded encoding and decoding of protocol payloads.
 */
#include <assert.h>
#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/codec.h"

void ltt_wbuf_init(struct ltt_wbuf *w)
{
	memset(w, 0, sizeof(*w));
}

void ltt_wbuf_init_fixed(struct ltt_wbuf *w, void *buf, size_t cap)
{
	memset(w, 0, sizeof(*w));
	w->data = buf;
	w->cap = cap;
	w->fixed = 1;
}

void ltt_wbuf_fini(struct ltt_wbuf *w)
{
	if (!w->fixed)
		free(w->data);
	memset(w, 0, sizeof(*w));
}

void ltt_wbuf_reset(struct ltt_wbuf *w)
{
	w->len = 0;
	w->err = 0;
}

void *ltt_wbuf_reserve(struct ltt_wbuf *w, size_t len)
{
	void *p;

	if (w->err)
		return NULL;
	/* Allocate even for 0 bytes: NULL means failure, and NULL + 0 is undefined. */
	if (!w->data || len > w->cap - w->len) {
		size_t cap = w->cap ? w->cap : 256;
		uint8_t *data;

		if (w->fixed) {
			w->err = -ENOSPC;
			return NULL;
		}

		while (cap - w->len < len) {
			if (cap > SIZE_MAX / 2) {
				w->err = -ENOMEM;
				return NULL;
			}
			cap *= 2;
		}
		data = realloc(w->data, cap);
		if (!data) {
			w->err = -ENOMEM;
			return NULL;
		}
		w->data = data;
		w->cap = cap;
	}
	p = w->data + w->len;
	w->len += len;
	return p;
}

void ltt_wbuf_fail(struct ltt_wbuf *w, int err)
{
	if (!w->err)
		w->err = err;
}

void ltt_wbuf_put_bytes(struct ltt_wbuf *w, const void *p, size_t len)
{
	void *dst = ltt_wbuf_reserve(w, len);

	if (dst && len)
		memcpy(dst, p, len);
}

/* @v in @width bytes at @p, in @order; returns the byte after them. */
static uint8_t *emit_uint(uint8_t *p, enum ltt_codec_order order, uint8_t width, uint64_t v)
{
	uint16_t v16;
	uint32_t v32;

	switch (width) {
	case 1:
		*p = (uint8_t)v;
		break;
	case 2:
		v16 = order == LTT_CODEC_BE ? htobe16((uint16_t)v) : htole16((uint16_t)v);
		memcpy(p, &v16, 2);
		break;
	case 4:
		v32 = order == LTT_CODEC_BE ? htobe32((uint32_t)v) : htole32((uint32_t)v);
		memcpy(p, &v32, 4);
		break;
	default:
		v = order == LTT_CODEC_BE ? htobe64(v) : htole64(v);
		memcpy(p, &v, 8);
		break;
	}
	return p + width;
}

/* @v as an integer of @width bytes in @order, at @w's end. */
static void put_uint(struct ltt_wbuf *w, enum ltt_codec_order order, uint8_t width, uint64_t v)
{
	uint8_t b[8];

	emit_uint(b, order, width, v);
	ltt_wbuf_put_bytes(w, b, width);
}

void ltt_wbuf_put_u8(struct ltt_wbuf *w, uint8_t v)
{
	ltt_wbuf_put_bytes(w, &v, 1);
}

void ltt_wbuf_put_str(struct ltt_wbuf *w, const char *s)
{
	size_t len = s ? strlen(s) + 1 : 1;

	if (len > UINT32_MAX) {
		w->err = -ENOMEM;
		return;
	}
	ltt_wbuf_put_u32(w, (uint32_t)len);
	if (s)
		ltt_wbuf_put_bytes(w, s, len);
	else
		ltt_wbuf_put_u8(w, 0);
}

void ltt_wbuf_put_fixed_str(struct ltt_wbuf *w, const char *s, size_t size)
{
	size_t len = s ? strnlen(s, size) : 0;
	uint8_t *dst;

	if (len == size) {
		ltt_wbuf_fail(w, -EINVAL);
		return;
	}
	dst = ltt_wbuf_reserve(w, size);
	if (!dst)
		return;
	if (len)
		memcpy(dst, s, len);
	memset(dst + len, 0, size - len);
}

void ltt_rbuf_init(struct ltt_rbuf *r, const void *data, size_t len)
{
	static const uint8_t none[1];

	/* an empty message's data may be NULL, which takes no offset: none's */
	r->data = data ? data : none;
	r->len = len;
	r->pos = 0;
	r->err = 0;
}

void ltt_rbuf_fail(struct ltt_rbuf *r)
{
	r->err = -EPROTO;
}

/* The next @len bytes, or NULL (error set) if the message is shorter. */
static const uint8_t *take(struct ltt_rbuf *r, size_t len)
{
	const uint8_t *p;

	if (r->err || len > r->len - r->pos) {
		r->err = -EPROTO;
		return NULL;
	}
	p = r->data + r->pos;
	r->pos += len;
	return p;
}

uint8_t ltt_rbuf_get_u8(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 1);

	return p ? *p : 0;
}

/* The integer of @width bytes at @p, in @order. */
static inline uint64_t load_wire(const uint8_t *p, enum ltt_codec_order order, uint8_t width)
{
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (width) {
	case 1:
		return *p;
	case 2:
		memcpy(&v16, p, 2);
		return order == LTT_CODEC_BE ? be16toh(v16) : le16toh(v16);
	case 4:
		memcpy(&v32, p, 4);
		return order == LTT_CODEC_BE ? be32toh(v32) : le32toh(v32);
	default:
		memcpy(&v64, p, 8);
		return order == LTT_CODEC_BE ? be64toh(v64) : le64toh(v64);
	}
}

static inline uint64_t get_uint(struct ltt_rbuf *r, enum ltt_codec_order order, uint8_t width)
{
	const uint8_t *p = take(r, width);

	return p ? load_wire(p, order, width) : 0;
}

/* ltt_wbuf_put_@name() and ltt_rbuf_get_@name(): an integer of @width bytes in @order. */
#define UINT_PAIR(name, type, order, width) \
	void ltt_wbuf_put_##name(struct ltt_wbuf *w, type v) \
	{ \
		put_uint(w, order, width, v); \
	} \
	type ltt_rbuf_get_##name(struct ltt_rbuf *r) \
	{ \
		return (type)get_uint(r, order, width); \
	}

UINT_PAIR(u16, uint16_t, LTT_CODEC_LE, 2)
UINT_PAIR(u32, uint32_t, LTT_CODEC_LE, 4)
UINT_PAIR(u64, uint64_t, LTT_CODEC_LE, 8)
UINT_PAIR(be16, uint16_t, LTT_CODEC_BE, 2)
UINT_PAIR(be32, uint32_t, LTT_CODEC_BE, 4)
UINT_PAIR(be64, uint64_t, LTT_CODEC_BE, 8)

const void *ltt_rbuf_get_bytes(struct ltt_rbuf *r, size_t len)
{
	return take(r, len);
}

void ltt_rbuf_get_fixed_str(struct ltt_rbuf *r, char *dst, size_t size)
{
	const uint8_t *p = size ? take(r, size) : NULL;

	if (!p || !memchr(p, '\0', size)) {
		ltt_rbuf_fail(r);
		if (size)
			dst[0] = '\0';
		return;
	}
	memcpy(dst, p, size);
}

int ltt_rbuf_get_bool(struct ltt_rbuf *r)
{
	uint8_t v = ltt_rbuf_get_u8(r);

	if (v > 1) {
		ltt_rbuf_fail(r);
		return 0;
	}
	return v;
}

/* The @len bytes of a string whose length was read, at most @size: "" and the error when bad. */
static const char *str_body(struct ltt_rbuf *r, uint32_t len, size_t size)
{
	const uint8_t *p;

	if (r->err)
		return "";
	if (len == 0 || len > size) {
		ltt_rbuf_fail(r);
		return "";
	}
	p = take(r, len);
	if (!p)
		return "";
	/* Exactly one NUL, at the end. */
	if (p[len - 1] != '\0' || memchr(p, '\0', len - 1)) {
		ltt_rbuf_fail(r);
		return "";
	}
	return (const char *)p;
}

const char *ltt_rbuf_get_str(struct ltt_rbuf *r, size_t size)
{
	uint32_t len = ltt_rbuf_get_u32(r);

	return str_body(r, len, size);
}

void ltt_rbuf_get_str_copy(struct ltt_rbuf *r, char *dst, size_t size)
{
	const char *s;

	/* Not even "" fits: fail rather than write the NUL out of bounds. */
	if (!size) {
		ltt_rbuf_fail(r);
		return;
	}
	s = ltt_rbuf_get_str(r, size);

	/* The length was checked against size, NUL included. */
	memcpy(dst, s, strlen(s) + 1);
}

int ltt_rbuf_end(const struct ltt_rbuf *r)
{
	if (r->err)
		return r->err;
	return r->pos == r->len ? 0 : -EPROTO;
}

/* ---- field tables ---- */

/* Strings the STRLEN rows announced, in order, for the STRBODY rows. */
#define MAX_PENDING 8

struct pending {
	uint32_t len[MAX_PENDING];
	unsigned int in, out;
};

static uint64_t load_uint(const uint8_t *p, uint32_t size)
{
	uint8_t v8;
	uint16_t v16;
	uint32_t v32;
	uint64_t v64;

	switch (size) {
	case 1:
		memcpy(&v8, p, 1);
		return v8;
	case 2:
		memcpy(&v16, p, 2);
		return v16;
	case 4:
		memcpy(&v32, p, 4);
		return v32;
	default:
		memcpy(&v64, p, 8);
		return v64;
	}
}

/* Store @v in a member of @size bytes; false when it does not fit. */
static bool store_uint(uint8_t *p, uint32_t size, uint64_t v)
{
	uint8_t v8 = (uint8_t)v;
	uint16_t v16 = (uint16_t)v;
	uint32_t v32 = (uint32_t)v;

	switch (size) {
	case 1:
		memcpy(p, &v8, 1);
		return v == v8;
	case 2:
		memcpy(p, &v16, 2);
		return v == v16;
	case 4:
		memcpy(p, &v32, 4);
		return v == v32;
	default:
		memcpy(p, &v, 8);
		return true;
	}
}

/* The wire length of a STRLEN row's string: its bytes and NUL, or 0 when "" goes as 0. */
static uint32_t strlen_wire(const struct ltt_field *f, const char *s)
{
	if (!s[0] && (f->flags & LTT_ROW_EMPTY_ZERO))
		return 0;
	return (uint32_t)strnlen(s, f->size) + 1;
}

/* The string of a STR or STRREF row ("" for a NULL STRREF). */
static const char *row_str(const struct ltt_field *f, const uint8_t *p)
{
	const char *ref;

	if (f->wire == LTT_WIRE_STR)
		return (const char *)p;
	memcpy(&ref, p, sizeof(ref));
	return ref ? ref : "";
}

/* The bytes after a STRREF row's length: its string and NUL, none for "" sent as 0. */
static uint32_t strref_wire(const struct ltt_field *f, const char *s)
{
	if (!s[0] && (f->flags & LTT_ROW_EMPTY_ZERO))
		return 0;
	return (uint32_t)strlen(s) + 1;
}

/*
 * The rows a message's gates turn off: a SINCE row's range (the peer's
 * minor) and a WHEN row's (an earlier member's value), each up to the
 * next row of its kind, as two bits; a row is off when either is set.
 */
#define GATE_SINCE 1u
#define GATE_WHEN 2u

/* Does the WHEN row @f let the rows after it on the wire, @m's member being what it is? */
static __attribute__((noinline)) bool when_on(const struct ltt_field *f, const uint8_t *m)
{
	uint64_t v;

	if (!f->size)
		return true;	/* LTT_ROW_WHEN_END() */
	v = load_uint(m + f->offset, f->size);
	if (f->flags & LTT_ROW_WHEN_BITS)
		return (v & f->max) == f->max;
	return v == f->max;
}

/* The gates' bits @off after the gate @f (a SINCE or WHEN row). */
static inline unsigned int gate_set(const struct ltt_field *f, const uint8_t *m,
				    uint32_t minor, unsigned int off)
{
	if (f->wire == LTT_WIRE_SINCE)
		return (off & ~GATE_SINCE) | (minor < f->max ? GATE_SINCE : 0);
	return (off & ~GATE_WHEN) | (when_on(f, m) ? 0 : GATE_WHEN);
}

/*
 * Is the row @f of @m off the wire for a peer of @minor: a gate (no
 * bytes; it turns the rows after it on or off in *@off), or a row one
 * turned off?
 */
static inline bool row_off(const struct ltt_field *f, const uint8_t *m, uint32_t minor,
			   unsigned int *off)
{
	if (f->wire < LTT_WIRE_SINCE)
		return *off != 0;	/* most rows: not a gate */
	*off = gate_set(f, m, minor, *off);
	return true;
}

/*
 * The bytes @m takes on the wire for @minor, its STRLEN rows' lengths into
 * @pend and into *@ret_nr the rows sent (up to a tail not sent); SIZE_MAX
 * when a string does not fit its wire form (no NUL within its member).
 */
static size_t wire_size(const struct ltt_codec *c, const uint8_t *m, uint32_t minor,
			struct pending *pend, size_t *ret_nr)
{
	size_t size = 0, i;
	unsigned int off = 0;

	for (i = 0; i < c->nr_rows; i++) {
		const struct ltt_field *f = &c->rows[i];
		const uint8_t *p = m + f->offset;

		if (row_off(f, m, minor, &off))
			continue;
		if (f->wire == LTT_WIRE_UINT || f->wire == LTT_WIRE_BOOL) {
			size += f->width;	/* most rows: first */
			continue;
		}
		switch (f->wire) {
		case LTT_WIRE_UINT:
		case LTT_WIRE_BOOL:
			break;	/* above */
		case LTT_WIRE_FIXSTR:
			if (!memchr(p, '\0', f->size))
				return SIZE_MAX;
			size += f->size;
			break;
		case LTT_WIRE_BYTES:
			size += f->size;
			break;
		case LTT_WIRE_STR:
			if (!memchr(p, '\0', f->size))
				return SIZE_MAX;
			size += 4 + strlen(row_str(f, p)) + 1;
			break;
		case LTT_WIRE_STRREF:
			size += 4 + strref_wire(f, row_str(f, p));
			break;
		case LTT_WIRE_STRLEN:
			if (!memchr(p, '\0', f->size))
				return SIZE_MAX;
			assert(pend->in < MAX_PENDING);
			pend->len[pend->in] = strlen_wire(f, (const char *)p);
			size += 4 + pend->len[pend->in++];
			break;
		case LTT_WIRE_STRBODY:
			break;	/* counted with its length */
		case LTT_WIRE_TAIL:
			if (!load_uint(p, f->size))
				goto out;	/* the tail is not sent */
			break;
		case LTT_WIRE_SINCE:
		case LTT_WIRE_WHEN:
			break;	/* row_off()'s */
		}
	}
out:
	*ret_nr = i;
	return size;
}

void ltt_codec_put_v(struct ltt_wbuf *w, const struct ltt_codec *c, const void *msg,
		     uint32_t minor)
{
	const uint8_t *m = msg;
	struct pending pend = { .in = 0 };
	unsigned int nlen = 0, nbody = 0;
	size_t nr, size = wire_size(c, m, minor, &pend, &nr);
	uint8_t *out, *end;
	uint64_t v = 0, prev, v64;
	unsigned int off = 0;

	if (size == SIZE_MAX) {
		ltt_wbuf_fail(w, -EINVAL);
		return;
	}
	out = ltt_wbuf_reserve(w, size);
	if (!out)
		return;
	end = out + size;
	for (size_t i = 0; i < nr; i++) {
		const struct ltt_field *f = &c->rows[i];
		const uint8_t *p = m + f->offset;
		const char *str;
		uint32_t len;

		if (row_off(f, m, minor, &off))
			continue;
		prev = v;
		v = 0;
		if (f->wire == LTT_WIRE_UINT && f->size == 8 && f->width == 8 && !f->flags) {
			memcpy(&v, p, 8);	/* most rows: a u64 as it is */
			v64 = c->order == LTT_CODEC_BE ? htobe64(v) : htole64(v);
			memcpy(out, &v64, 8);
			out += 8;
			continue;
		}
		switch (f->wire) {
		case LTT_WIRE_UINT:
		case LTT_WIRE_BOOL:
			v = load_uint(p, f->size);
			if ((f->flags & LTT_ROW_IF_PREV) && !prev)
				v = 0;
			out = emit_uint(out, c->order, f->width, f->wire == LTT_WIRE_BOOL ? v != 0 : v);
			break;
		case LTT_WIRE_BYTES:
			memcpy(out, p, f->size);
			out += f->size;
			break;
		case LTT_WIRE_FIXSTR:
			len = (uint32_t)strnlen((const char *)p, f->size);
			memcpy(out, p, len);
			memset(out + len, 0, f->size - len);
			out += f->size;
			break;
		case LTT_WIRE_STR:
		case LTT_WIRE_STRREF:
			str = row_str(f, p);
			len = f->wire == LTT_WIRE_STR ? (uint32_t)strlen(str) + 1 : strref_wire(f, str);
			out = emit_uint(out, c->order, 4, len);
			memcpy(out, str, len);
			out += len;
			break;
		case LTT_WIRE_STRLEN:
			v = pend.len[nlen++];
			out = emit_uint(out, c->order, 4, v);
			break;
		case LTT_WIRE_STRBODY:
			assert(nbody < nlen);
			memcpy(out, p, pend.len[nbody]);
			out += pend.len[nbody++];
			break;
		case LTT_WIRE_TAIL:
		case LTT_WIRE_SINCE:
		case LTT_WIRE_WHEN:
			break;
		}
	}
	assert(out == end);
	(void)end;
}

void ltt_codec_put(struct ltt_wbuf *w, const struct ltt_codec *c, const void *m)
{
	ltt_codec_put_v(w, c, m, LTT_CODEC_ALL_MINORS);
}

/*
 * The UINT or BOOL row @f at @r's cursor (no error yet) into its member
 * at @p: the decoder's fast path, most rows being integers.  False, with
 * @r failed, when @r is short or the value is out of the row's range.
 */
static inline bool get_int_row(struct ltt_rbuf *r, enum ltt_codec_order order,
			       const struct ltt_field *f, uint8_t *p)
{
	const uint8_t *src;
	uint64_t v;

	if (f->width > r->len - r->pos) {
		ltt_rbuf_fail(r);
		return false;
	}
	src = r->data + r->pos;
	r->pos += f->width;
	if (f->width == 8 && f->size == 8 && f->wire == LTT_WIRE_UINT && !f->max) {
		memcpy(&v, src, 8);	/* any value: no check */
		v = order == LTT_CODEC_BE ? be64toh(v) : le64toh(v);
		memcpy(p, &v, 8);
		return true;
	}
	v = load_wire(src, order, f->width);
	if ((f->wire == LTT_WIRE_BOOL && v > 1) || (f->max && v > f->max) ||
	    !store_uint(p, f->size, v)) {
		ltt_rbuf_fail(r);
		return false;
	}
	return true;
}

/* The bytes of a STRBODY row: exactly one NUL, the last; 0 bytes is "". */
static void get_strbody(struct ltt_rbuf *r, uint32_t len, char *dst)
{
	const char *p;

	dst[0] = '\0';
	if (!len)
		return;
	p = ltt_rbuf_get_bytes(r, len);
	if (!p)
		return;
	if (p[len - 1] != '\0' || memchr(p, '\0', len - 1)) {
		ltt_rbuf_fail(r);
		return;
	}
	memcpy(dst, p, len);
}

/* A STRLEN row's length: at most its member, 0 only when the row allows "". */
static uint32_t get_strlen(struct ltt_rbuf *r, const struct ltt_codec *c,
			   const struct ltt_field *f)
{
	uint32_t len = (uint32_t)get_uint(r, c->order, 4);

	if (len > f->size || (!len && !(f->flags & (LTT_ROW_EMPTY_OK | LTT_ROW_EMPTY_ZERO)))) {
		ltt_rbuf_fail(r);
		return 0;
	}
	return len;
}

/*
 * A STRREF row's string, borrowed, its length in the table's byte order:
 * a length of 0 is "" where the row sends "" so.
 */
static const char *get_strref(struct ltt_rbuf *r, const struct ltt_codec *c,
			      const struct ltt_field *f)
{
	uint32_t len = (uint32_t)get_uint(r, c->order, 4);

	if (!len && !r->err && (f->flags & LTT_ROW_EMPTY_ZERO))
		return "";
	return str_body(r, len, f->max);
}

/* The rows from @i on, absent: zero, the tail's presence (row @i) false. */
static void zero_rest(const struct ltt_codec *c, size_t i, uint8_t *m)
{
	for (; i < c->nr_rows; i++)
		memset(m + c->rows[i].offset, 0, c->rows[i].size);
}

int ltt_codec_get_v(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret, uint32_t minor)
{
	const struct ltt_field *f, *end = c->rows + c->nr_rows;
	enum ltt_codec_order order = c->order;
	uint8_t *m = ret;
	struct pending pend = { .in = 0 };
	const char *ref;
	unsigned int off = 0;	/* the gates' bits */

	if (r->err)
		return -EPROTO;
	for (f = c->rows; f < end; f++) {
		uint8_t *p = m + f->offset;
		const void *b;

		if ((f->wire == LTT_WIRE_UINT || f->wire == LTT_WIRE_BOOL) && !off) {
			if (!get_int_row(r, order, f, p))
				return -EPROTO;
			continue;
		}
		if (f->wire >= LTT_WIRE_SINCE) {
			off = gate_set(f, m, minor, off);	/* a WHEN's member: decoded above */
			continue;
		}
		if (off) {
			memset(p, 0, f->size);	/* a later minor's: zero */
			continue;
		}
		switch (f->wire) {
		case LTT_WIRE_UINT:
		case LTT_WIRE_BOOL:
		case LTT_WIRE_SINCE:
		case LTT_WIRE_WHEN:
			break;	/* above */
		case LTT_WIRE_BYTES:
			b = ltt_rbuf_get_bytes(r, f->size);
			if (b)
				memcpy(p, b, f->size);
			break;
		case LTT_WIRE_FIXSTR:
			ltt_rbuf_get_fixed_str(r, (char *)p, f->size);
			break;
		case LTT_WIRE_STR:
			ref = str_body(r, (uint32_t)get_uint(r, c->order, 4), f->size);
			if (!r->err)
				memcpy(p, ref, strlen(ref) + 1);	/* within f->size */
			break;
		case LTT_WIRE_STRREF:
			ref = get_strref(r, c, f);
			memcpy(p, &ref, sizeof(ref));
			break;
		case LTT_WIRE_STRLEN:
			assert(pend.in < MAX_PENDING);
			pend.len[pend.in++] = get_strlen(r, c, f);
			break;
		case LTT_WIRE_STRBODY:
			assert(pend.out < pend.in);
			get_strbody(r, pend.len[pend.out++], (char *)p);
			break;
		case LTT_WIRE_TAIL:
			if (r->pos == r->len) {
				zero_rest(c, (size_t)(f - c->rows), m);
				return 0;
			}
			store_uint(p, f->size, 1);
			break;
		}
		if (r->err)
			return -EPROTO;
	}
	return 0;
}

int ltt_codec_get(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret)
{
	return ltt_codec_get_v(r, c, ret, LTT_CODEC_ALL_MINORS);
}

int ltt_codec_get_msg_v(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret,
			uint32_t minor)
{
	if (ltt_codec_get_v(r, c, ret, minor))
		return -EPROTO;
	return ltt_rbuf_end(r);
}

int ltt_codec_get_msg(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret)
{
	return ltt_codec_get_msg_v(r, c, ret, LTT_CODEC_ALL_MINORS);
}

void ltt_codec_put_array(struct ltt_wbuf *w, const struct ltt_codec *c, const void *elems,
			 size_t esize, size_t count)
{
	for (size_t i = 0; i < count && !w->err; i++)
		ltt_codec_put(w, c, (const uint8_t *)elems + i * esize);
}

int ltt_codec_get_array(struct ltt_rbuf *r, const struct ltt_codec *c, void *elems,
			size_t esize, size_t count)
{
	for (size_t i = 0; i < count && !r->err; i++)
		ltt_codec_get(r, c, (uint8_t *)elems + i * esize);
	return r->err ? -EPROTO : 0;
}
