/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * codec.h - bounded encoding and decoding of protocol payloads.
 *
 * Integers travel little-endian with fixed widths (the _be variants:
 * big-endian, for the relay and live protocols of relay-proto.h and
 * live-proto.h, which also carry strings in fixed, NUL-padded arrays).
 * A string travels as a u32 length that counts its NUL, then the bytes
 * and the NUL.  Both cursors keep a sticky error, so a sequence of puts or gets is checked
 * once at the end: nothing is read past the end of a received message and
 * no string is accepted without its NUL or with one inside it.
 */
#ifndef LTT_COMMON_CODEC_H
#define LTT_COMMON_CODEC_H

#include <stddef.h>
#include <stdint.h>

struct ltt_wbuf {
	uint8_t *data;
	size_t len;
	size_t cap;
	int err;	/* 0 or -ENOMEM, sticky */
};

struct ltt_rbuf {
	const uint8_t *data;
	size_t len;
	size_t pos;
	int err;	/* 0 or -EPROTO, sticky */
};

/** ltt_wbuf_init() - an empty buffer; no allocation yet */
void ltt_wbuf_init(struct ltt_wbuf *w);
/** ltt_wbuf_fini() - free the buffer's memory; accepts a zeroed buffer */
void ltt_wbuf_fini(struct ltt_wbuf *w);
/** ltt_wbuf_reset() - empty the buffer, keep its memory and clear the error */
void ltt_wbuf_reset(struct ltt_wbuf *w);
/** ltt_wbuf_reserve() - room for @len more bytes; returns a pointer to them or NULL */
void *ltt_wbuf_reserve(struct ltt_wbuf *w, size_t len);
void ltt_wbuf_put_bytes(struct ltt_wbuf *w, const void *p, size_t len);
void ltt_wbuf_put_u8(struct ltt_wbuf *w, uint8_t v);
void ltt_wbuf_put_u16(struct ltt_wbuf *w, uint16_t v);
void ltt_wbuf_put_u32(struct ltt_wbuf *w, uint32_t v);
void ltt_wbuf_put_u64(struct ltt_wbuf *w, uint64_t v);
/** ltt_wbuf_put_str() - a string; NULL is sent as "" */
void ltt_wbuf_put_str(struct ltt_wbuf *w, const char *s);
void ltt_wbuf_put_be16(struct ltt_wbuf *w, uint16_t v);
void ltt_wbuf_put_be32(struct ltt_wbuf *w, uint32_t v);
void ltt_wbuf_put_be64(struct ltt_wbuf *w, uint64_t v);
/**
 * ltt_wbuf_put_fixed_str() - @s in exactly @size bytes, NUL-padded
 *
 * A string of @size bytes or more (no room for its NUL) sets the
 * buffer's error to -EINVAL.  NULL is sent as "".
 */
void ltt_wbuf_put_fixed_str(struct ltt_wbuf *w, const char *s, size_t size);

/** ltt_rbuf_init() - read @len bytes at @data (borrowed for the cursor's life) */
void ltt_rbuf_init(struct ltt_rbuf *r, const void *data, size_t len);
uint8_t ltt_rbuf_get_u8(struct ltt_rbuf *r);
uint16_t ltt_rbuf_get_u16(struct ltt_rbuf *r);
uint32_t ltt_rbuf_get_u32(struct ltt_rbuf *r);
uint64_t ltt_rbuf_get_u64(struct ltt_rbuf *r);
uint16_t ltt_rbuf_get_be16(struct ltt_rbuf *r);
uint32_t ltt_rbuf_get_be32(struct ltt_rbuf *r);
uint64_t ltt_rbuf_get_be64(struct ltt_rbuf *r);
/**
 * ltt_rbuf_get_bytes() - the next @len bytes (borrowed), or NULL with the
 * error set when fewer are left
 */
const void *ltt_rbuf_get_bytes(struct ltt_rbuf *r, size_t len);
/**
 * ltt_rbuf_get_fixed_str() - a NUL-padded array of @size bytes into @dst
 * (@size bytes); the array must hold a NUL, else "" and the error set
 */
void ltt_rbuf_get_fixed_str(struct ltt_rbuf *r, char *dst, size_t size);
/** ltt_rbuf_get_bool() - a u8 that must be 0 or 1 */
int ltt_rbuf_get_bool(struct ltt_rbuf *r);
/**
 * ltt_rbuf_get_str() - a string of at most @size bytes, NUL included
 *
 * Returns a pointer into the message (borrowed), or "" with the error set
 * when the string is truncated, too long, lacks its NUL or holds one early.
 */
const char *ltt_rbuf_get_str(struct ltt_rbuf *r, size_t size);
/** ltt_rbuf_get_str_copy() - ltt_rbuf_get_str() into @dst of @size bytes */
void ltt_rbuf_get_str_copy(struct ltt_rbuf *r, char *dst, size_t size);
/** ltt_rbuf_fail() - mark the message malformed (a bad value) */
void ltt_rbuf_fail(struct ltt_rbuf *r);
/**
 * ltt_rbuf_end() - check that the whole message was read without error
 *
 * Returns 0, or -EPROTO if anything was malformed or bytes are left over.
 */
int ltt_rbuf_end(const struct ltt_rbuf *r);

#endif /* LTT_COMMON_CODEC_H */
