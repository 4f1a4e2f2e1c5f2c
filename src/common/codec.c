// SPDX-License-Identifier: LGPL-2.1-only
/*
 * codec.c - bounded encoding and decoding of protocol payloads.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/codec.h"

void ltt_wbuf_init(struct ltt_wbuf *w)
{
	memset(w, 0, sizeof(*w));
}

void ltt_wbuf_fini(struct ltt_wbuf *w)
{
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

void ltt_wbuf_put_bytes(struct ltt_wbuf *w, const void *p, size_t len)
{
	void *dst = ltt_wbuf_reserve(w, len);

	if (dst && len)
		memcpy(dst, p, len);
}

void ltt_wbuf_put_u8(struct ltt_wbuf *w, uint8_t v)
{
	ltt_wbuf_put_bytes(w, &v, 1);
}

void ltt_wbuf_put_u16(struct ltt_wbuf *w, uint16_t v)
{
	v = htole16(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
}

void ltt_wbuf_put_u32(struct ltt_wbuf *w, uint32_t v)
{
	v = htole32(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
}

void ltt_wbuf_put_u64(struct ltt_wbuf *w, uint64_t v)
{
	v = htole64(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
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

void ltt_wbuf_put_be16(struct ltt_wbuf *w, uint16_t v)
{
	v = htobe16(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
}

void ltt_wbuf_put_be32(struct ltt_wbuf *w, uint32_t v)
{
	v = htobe32(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
}

void ltt_wbuf_put_be64(struct ltt_wbuf *w, uint64_t v)
{
	v = htobe64(v);
	ltt_wbuf_put_bytes(w, &v, sizeof(v));
}

void ltt_wbuf_put_fixed_str(struct ltt_wbuf *w, const char *s, size_t size)
{
	size_t len = s ? strnlen(s, size) : 0;
	uint8_t *dst;

	if (len == size) {
		if (!w->err)
			w->err = -EINVAL;
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
	r->data = data;
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

uint16_t ltt_rbuf_get_u16(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 2);
	uint16_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le16toh(v);
}

uint32_t ltt_rbuf_get_u32(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 4);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le32toh(v);
}

uint64_t ltt_rbuf_get_u64(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 8);
	uint64_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return le64toh(v);
}

uint16_t ltt_rbuf_get_be16(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 2);
	uint16_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return be16toh(v);
}

uint32_t ltt_rbuf_get_be32(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 4);
	uint32_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

uint64_t ltt_rbuf_get_be64(struct ltt_rbuf *r)
{
	const uint8_t *p = take(r, 8);
	uint64_t v;

	if (!p)
		return 0;
	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

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

const char *ltt_rbuf_get_str(struct ltt_rbuf *r, size_t size)
{
	uint32_t len = ltt_rbuf_get_u32(r);
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
