/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * codec.h - bounded encoding and decoding of protocol payloads.
 *
 * Integers travel little-endian with fixed widths (the _be variants:
 * big-endian, for the relay and live protocols of relay-proto.h and
 * live-proto.h, which also carry strings in fixed, NUL-padded arrays).
 * A string travels as a u32 length that counts its NUL, then the bytes
 * and the NUL (in a table, the length in the table's byte order).  Both cursors keep a sticky error, so a sequence of puts or gets is checked
 * once at the end: nothing is read past the end of a received message and
 * no string is accepted without its NUL or with one inside it.
 *
 * Field tables.  A message's layout is a table of rows, one per field in
 * wire order: its wire type and width, where it lives in the C struct
 * (offsetof) and the member's size.  One encoder, ltt_codec_put(), and
 * one decoder, ltt_codec_get(), walk any table, so a message's sender and
 * receiver cannot drift: a protocol file describes each message once and
 * its put/get pair calls these.  A table is written with LTT_CODEC() and
 * the LTT_ROW_*() macros, which read the struct's type from LTT_MSG:
 *
 *	#define LTT_MSG struct ltt_live_packet_req
 *	LTT_CODEC(packet_req, LTT_CODEC_BE,
 *		  LTT_ROW_U64(stream_id), LTT_ROW_U64(offset), LTT_ROW_U32(len));
 *	#undef LTT_MSG
 *
 * Trailing bytes: one rule for every protocol.  A message is never longer
 * than its rows: bytes left after the last row make it malformed
 * (-EPROTO).  It may be shorter only where its table says so, at an
 * LTT_ROW_TAIL(): the rows after it are optional (a later minor appended
 * them, or LTTng defined a longer form), and absent they decode as zero;
 * rows a gate turns off (a later minor's, or ones an earlier field says
 * are absent: below) are not on the wire at all, so their bytes are
 * bytes left over.
 * Why refuse rather than skip: every protocol's handshake (the relay's
 * VERSION, the live CONNECT, the client's and consumer's HELLO, the app's
 * REGISTER) settles on min(minor) of both peers, so a sender never writes fields
 * its peer's minor lacks; a field a newer minor brings is either sent
 * only to a peer of that minor or described as a tail.  Extra bytes can
 * then only be a bug or an attack, and a decoder that skipped them would
 * accept two encodings of one value.  ltt_codec_get_msg() decodes a whole
 * message and applies the rule; ltt_codec_get() decodes one part of a
 * message at the cursor (a header, one entry of an array) and leaves the
 * rule to whoever holds the whole message, with ltt_rbuf_end().
 *
 * Fields of a later minor.  Where the peer's minor decides a field's
 * presence (the client's and consumer's messages, whose HELLO settles
 * the minor before anything else), the table says from which minor on
 * with an LTT_ROW_SINCE(minor) row: the rows after it, up to the next
 * LTT_ROW_SINCE(), are on the wire only when the peer's minor is at
 * least @minor; LTT_ROW_SINCE(0) ends such a range.  ltt_codec_put_v(),
 * ltt_codec_get_v() and ltt_codec_get_msg_v() take the connection's
 * minor: a row of a later minor is neither written nor read, and decodes
 * as zero; the functions without _v send and expect every row.  The
 * trailing-bytes rule applies to the rows of the minor: a message of a
 * peer of minor 3 that carries minor 4's rows is as malformed as any
 * other with bytes left over.  A TAIL is for a field whose presence the
 * message itself says (its length); a SINCE range for one whose presence
 * the minor says.  A STRBODY row is in its STRLEN row's range.
 *
 * Fields an earlier field decides.  Where a value already on the wire
 * says whether fields follow (a flag bit: ADD_CHANNEL's reclaim ages; an
 * enum: its domain's block; a status: a reply's body after 0 alone), the
 * table says so with a gate: LTT_ROW_WHEN_EQ(member, v) or
 * LTT_ROW_WHEN_BIT(member, bit) turns the rows after it, up to the next
 * LTT_ROW_WHEN_*(), on only when the member (that of an earlier row,
 * which the decoder has read by then) equals @v or has @bit set;
 * LTT_ROW_WHEN_END() ends the range.  ltt_codec_put() and ltt_codec_get()
 * both evaluate the gate, the encoder on the member it is given, the
 * decoder on the member it decoded, so the two agree as long as the
 * member's row sends its value as it is: a UINT of the member's width
 * (or a BOOL), outside any range that is off, without LTT_ROW_IF_PREV.
 * Rows turned off are neither written nor read, and decode as zero.  The
 * trailing-bytes rule applies to the rows turned on: a reply of a
 * failure status followed by a body is as malformed as any other with
 * bytes left over.  A WHEN range and a SINCE range are independent (a
 * row is on the wire when both are on); a TAIL is for the last fields,
 * whose presence the length alone says, and stands outside WHEN ranges.
 */
#ifndef LTT_COMMON_CODEC_H
#define LTT_COMMON_CODEC_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct ltt_wbuf {
	uint8_t *data;
	size_t len;
	size_t cap;
	int err;	/* 0, -ENOMEM or (a fixed buffer full) -ENOSPC, sticky */
	int fixed;	/* the caller's memory (ltt_wbuf_init_fixed()): never grown nor freed */
};

struct ltt_rbuf {
	const uint8_t *data;
	size_t len;
	size_t pos;
	int err;	/* 0 or -EPROTO, sticky */
};

/** ltt_wbuf_init() - an empty buffer; no allocation yet */
void ltt_wbuf_init(struct ltt_wbuf *w);
/**
 * ltt_wbuf_init_fixed() - an empty buffer over the @cap bytes at @buf
 * (borrowed), for a writer that may not allocate (a traced program's
 * tracepoint, a signal handler): it never grows, and a put that does
 * not fit sets the error to -ENOSPC and writes nothing
 */
void ltt_wbuf_init_fixed(struct ltt_wbuf *w, void *buf, size_t cap);
/** ltt_wbuf_fini() - free the buffer's memory (not a fixed one's); accepts a zeroed buffer */
void ltt_wbuf_fini(struct ltt_wbuf *w);
/** ltt_wbuf_reset() - empty the buffer, keep its memory and clear the error */
void ltt_wbuf_reset(struct ltt_wbuf *w);
/** ltt_wbuf_reserve() - room for @len more bytes; returns a pointer to them or NULL */
void *ltt_wbuf_reserve(struct ltt_wbuf *w, size_t len);
void ltt_wbuf_put_bytes(struct ltt_wbuf *w, const void *p, size_t len);
/** ltt_wbuf_fail() - make @err (negative) @w's error, unless it has one: the first stays */
void ltt_wbuf_fail(struct ltt_wbuf *w, int err);
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

/* ---- field tables ---- */

enum ltt_wire {
	LTT_WIRE_UINT,		/* an unsigned integer, width bytes */
	LTT_WIRE_BOOL,		/* a u8, 0 or 1 */
	LTT_WIRE_BYTES,		/* the member's bytes as they are (a uuid) */
	LTT_WIRE_FIXSTR,	/* a char array, NUL-padded to its size */
	LTT_WIRE_STR,		/* a u32 length (NUL counted), then the string, into a char array */
	LTT_WIRE_STRREF,	/* the same into a const char * that borrows the message */
	LTT_WIRE_STRLEN,	/* a u32 length (NUL counted) of a STRBODY row further on */
	LTT_WIRE_STRBODY,	/* the bytes an earlier STRLEN row announced */
	LTT_WIRE_TAIL,		/* no bytes: the message may end here */
	/* the gates, last (the codec tests wire >= LTT_WIRE_SINCE) */
	LTT_WIRE_SINCE,		/* no bytes: the rows after it need the minor in max */
	LTT_WIRE_WHEN,		/* no bytes: the rows after it need the member to be max */
};

/* Row flags. */
#define LTT_ROW_IF_PREV (1u << 0)	/* sent as 0 when the previous row's value is 0 */
#define LTT_ROW_EMPTY_OK (1u << 1)	/* STRLEN: length 0 is decoded as "" */
#define LTT_ROW_EMPTY_ZERO (1u << 2)	/* STRLEN, STRREF: "" is sent as length 0 (and decoded) */
#define LTT_ROW_WHEN_BITS (1u << 3)	/* WHEN: the member needs max's bits set, not to equal it */

/*
 * One field: members are integers (sent as unsigned), bool, char or
 * uint8_t arrays, or const char * (STRREF).
 */
struct ltt_field {
	const char *name;
	uint8_t wire;		/* enum ltt_wire */
	uint8_t width;		/* UINT: 1, 2, 4 or 8 bytes on the wire */
	uint16_t flags;		/* LTT_ROW_* */
	uint32_t offset;	/* of the member */
	uint32_t size;		/* of the member */
	uint32_t max;		/* STRREF: the longest string decoded, NUL counted;
				 * UINT: the largest value decoded (an enum's), 0: any;
				 * SINCE: the peer's minor the rows after it need;
				 * WHEN: the member's value (or bits) they need */
};

enum ltt_codec_order { LTT_CODEC_LE, LTT_CODEC_BE };

/* A message's layout: its rows in wire order and its integers' byte order. */
struct ltt_codec {
	const char *name;
	enum ltt_codec_order order;
	const struct ltt_field *rows;
	size_t nr_rows;
};

#define LTT_MEMBER_SIZE(type, m) sizeof(((type *)0)->m)
#define LTT_ROW_MAX(m, wire, width, flags, max) \
	{ #m, LTT_WIRE_##wire, width, flags, (uint32_t)offsetof(LTT_MSG, m), \
	  (uint32_t)LTT_MEMBER_SIZE(LTT_MSG, m), max }
#define LTT_ROW(m, wire, width, flags) LTT_ROW_MAX(m, wire, width, flags, 0)
#define LTT_ROW_U8(m) LTT_ROW(m, UINT, 1, 0)
#define LTT_ROW_U16(m) LTT_ROW(m, UINT, 2, 0)
#define LTT_ROW_U32(m) LTT_ROW(m, UINT, 4, 0)
#define LTT_ROW_U64(m) LTT_ROW(m, UINT, 8, 0)
#define LTT_ROW_ENUM(m, max) LTT_ROW_MAX(m, UINT, 4, 0, max)
#define LTT_ROW_BOOL(m) LTT_ROW(m, BOOL, 1, 0)
#define LTT_ROW_BYTES(m) LTT_ROW(m, BYTES, 0, 0)
#define LTT_ROW_FIXSTR(m) LTT_ROW(m, FIXSTR, 0, 0)
#define LTT_ROW_STR(m) LTT_ROW(m, STR, 0, 0)
#define LTT_ROW_STRREF(m, max) LTT_ROW_MAX(m, STRREF, 0, 0, max)
#define LTT_ROW_STRLEN(m, flags) LTT_ROW(m, STRLEN, 4, flags)
#define LTT_ROW_STRBODY(m) LTT_ROW(m, STRBODY, 0, 0)
/* The rows after are optional; @present (a bool member) says whether they were sent. */
#define LTT_ROW_TAIL(present) LTT_ROW(present, TAIL, 0, 0)
/* The rows after, up to the next LTT_ROW_SINCE(), need a peer of @minor or later. */
#define LTT_ROW_SINCE(minor) { "since", LTT_WIRE_SINCE, 0, 0, 0, 0, minor }

/*
 * The rows after, up to the next LTT_ROW_WHEN_*(), are on the wire only
 * when @m (an integer or bool member of an earlier row) equals @v, in the
 * member's unsigned bits (@v within 32 bits) / has bit @bit set.
 * LTT_ROW_WHEN_END(): from here on, always.
 */
#define LTT_ROW_WHEN_EQ(m, v) LTT_ROW_MAX(m, WHEN, 0, 0, (uint32_t)(v))
#define LTT_ROW_WHEN_BIT(m, bit) LTT_ROW_MAX(m, WHEN, 0, LTT_ROW_WHEN_BITS, 1u << (bit))
#define LTT_ROW_WHEN_END() { "when", LTT_WIRE_WHEN, 0, 0, 0, 0, 0 }

/*
 * LTT_CODEC() - a static const struct ltt_codec @id (and its rows) for
 * the struct LTT_MSG names; the rows are LTT_ROW_*() of its members.
 */
#define LTT_CODEC(id, order, ...) \
	static const struct ltt_field id##_rows[] = { __VA_ARGS__ }; \
	static const struct ltt_codec id = { \
		#id, order, id##_rows, sizeof(id##_rows) / sizeof(id##_rows[0]) \
	}

/*
 * LTT_CODEC_PAIR_OF() - define ltt_@proto_put_@name(), which puts @type
 * through the table @put, and ltt_@proto_get_@name(), which decodes the
 * whole message through the table @get (ltt_codec_get_msg()), then has
 * @check(r, &m) look at it: 0 accepts it (@check may mend @m first, as
 * a default for a string the peer left out), anything else refuses it.
 * The decoder returns 0 or -EPROTO and sets *ret only when it accepts.
 * A reply whose body follows its status puts the body alone (the
 * handler put the status) and gets the whole.
 */
#define LTT_CODEC_PAIR_OF(proto, name, type, put, get, check) \
	void ltt_##proto##_put_##name(struct ltt_wbuf *w, const type *m) \
	{ \
		ltt_codec_put(w, &put, m); \
	} \
	int ltt_##proto##_get_##name(struct ltt_rbuf *r, type *ret) \
	{ \
		type m; \
\
		memset(&m, 0, sizeof(m)); \
		if (ltt_codec_get_msg(r, &get, &m) || check(r, &m)) \
			return -EPROTO; \
		*ret = m; \
		return 0; \
	}

/* The check of a LTT_CODEC_PAIR_OF() that the table's own checks suffice. */
#define LTT_CODEC_ACCEPT(r, m) 0

/* LTT_CODEC_PAIR() - LTT_CODEC_PAIR_OF() through the one table @proto_@name */
#define LTT_CODEC_PAIR(proto, name, type) \
	LTT_CODEC_PAIR_OF(proto, name, type, proto##_##name, proto##_##name, LTT_CODEC_ACCEPT)

/* The minor of the _v functions that puts and gets every row: the functions without _v. */
#define LTT_CODEC_ALL_MINORS UINT32_MAX

/**
 * ltt_codec_put_v() - append the message @m (borrowed) laid out by @c, as
 * a peer of @minor takes it: without the rows of a later minor
 *
 * A string too long for its wire form (no room for its NUL in a FIXSTR
 * array, or in the member of a STR or STRLEN row) sets @w's error to
 * -EINVAL and writes nothing.
 */
void ltt_codec_put_v(struct ltt_wbuf *w, const struct ltt_codec *c, const void *m,
		     uint32_t minor);

/** ltt_codec_put() - ltt_codec_put_v() of every row */
void ltt_codec_put(struct ltt_wbuf *w, const struct ltt_codec *c, const void *m);

/**
 * ltt_codec_get_v() - decode one part of a message at @r's cursor into
 * @ret, as a peer of @minor sent it: the rows of a later minor are not
 * read, and set to zero
 *
 * Returns 0, or -EPROTO (and @r's error set) when @r is short, a string
 * lacks its NUL or has one early, a length exceeds its member, a bool is
 * not 0 or 1, or an integer does not fit its member or exceeds its row's
 * maximum; *@ret is then unspecified.  Bytes after the part are left to
 * the caller.
 */
int ltt_codec_get_v(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret, uint32_t minor);

/** ltt_codec_get() - ltt_codec_get_v() of every row */
int ltt_codec_get(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret);

/**
 * ltt_codec_get_msg_v() - ltt_codec_get_v() of the rest of @r, which must
 * be exactly the message: bytes left over are refused (-EPROTO)
 */
int ltt_codec_get_msg_v(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret,
			uint32_t minor);

/** ltt_codec_get_msg() - ltt_codec_get_msg_v() of every row */
int ltt_codec_get_msg(struct ltt_rbuf *r, const struct ltt_codec *c, void *ret);

/*
 * Arrays.  A count that a table decoded (a row with its maximum, so that
 * it is bounded before it drives a loop) followed by that many elements,
 * each laid out by its own table: a context list, enum entries, capture
 * strings.  The element's table has no tail.
 */

/** ltt_codec_put_array() - append @count elements of @esize bytes at @elems (borrowed) */
void ltt_codec_put_array(struct ltt_wbuf *w, const struct ltt_codec *c, const void *elems,
			 size_t esize, size_t count);

/**
 * ltt_codec_get_array() - decode @count elements at @r's cursor into
 * @elems (room for @count of @esize bytes)
 *
 * Returns 0, or -EPROTO (@r's error set) as ltt_codec_get() on the first
 * element refused; the elements are then unspecified.
 */
int ltt_codec_get_array(struct ltt_rbuf *r, const struct ltt_codec *c, void *elems,
			size_t esize, size_t count);

#endif /* LTT_COMMON_CODEC_H */
