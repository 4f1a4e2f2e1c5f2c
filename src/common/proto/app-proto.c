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
 * - a description's shape (fields, each with enum entries): the walk
 *   below keeps the nesting, the limits and its two passes, the tables
 *   say each part's bytes;
 * - EVENT_FILTER's programs, {u32 len, len bytes} borrowed as a pointer
 *   and a length, which no row type says (this is its one message);
 * - TRACEPOINTS's count, written as 0 then set once it is known;
 * - the notification's head (magic and length: whether a whole message
 *   is there yet) and captures (their type byte says what follows).
 *
 * Minors.  What a minor brought to the protocol is a message or a message
 * part, never a field that an existing layout grows: EVENT_FILTER (1),
 * AGENT_RULES and LOGGERS (3), NOTIFIER_* (4), GAP (6, LTT_APP_MINOR_GAP)
 * and COUNTER_ADD (7, LTT_APP_MINOR_COUNTER) are whole messages, sent only
 * to (or by) a peer of that minor, so their tables need no minor; the
 * contexts after CHANNEL_ADD's nr_streams (2) are a part sent only when
 * the channel has some, and only to a program of minor 2 or more; minor
 * 5's flags ride in the high bits of a field's type byte that was there
 * from the start (a value, not a field: a daemon before 5 refuses them as
 * an unknown type).
 *
 * A description comes from another user's process, so decoding is two
 * passes over the message with one walker: the first validates
 * everything and adds up what the result needs, the second (after one
 * allocation) fills the block.  Nothing is allocated for a message that
 * is refused, and every count is checked against its limit before it
 * drives a loop.
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

/* ---- a description's parts ---- */

/* Its head: the fields follow. */
struct wire_tp {
	const char *name;
	int32_t loglevel;
	uint32_t nr_fields;
};

/* A field's fixed part: its enum entries and its enum name follow. */
struct wire_field {
	const char *name;
	uint8_t type;		/* the type below, the flags above (type_byte()) */
	uint8_t size;
	uint8_t is_signed;
	uint8_t base;
	uint8_t encoding;
	uint32_t length;
	uint32_t nr_enum_entries;
};

/* One string: an enum name, a capture's expression. */
struct wire_str {
	const char *str;
};

#define LTT_MSG struct wire_tp
LTT_CODEC(app_tp, LTT_CODEC_LE,
	  LTT_ROW_STRREF(name, LTT_APP_NAME_MAX), LTT_ROW_U32(loglevel),
	  LTT_ROW_MAX(nr_fields, UINT, 4, 0, LTT_APP_MAX_FIELDS));
#undef LTT_MSG

#define LTT_MSG struct wire_field
LTT_CODEC(app_field, LTT_CODEC_LE,
	  LTT_ROW_STRREF(name, LTT_APP_NAME_MAX), LTT_ROW_U8(type), LTT_ROW_U8(size),
	  LTT_ROW_U8(is_signed), LTT_ROW_U8(base), LTT_ROW_U8(encoding), LTT_ROW_U32(length),
	  LTT_ROW_MAX(nr_enum_entries, UINT, 4, 0, LTT_APP_MAX_ENUM_ENTRIES));
#undef LTT_MSG

/* start and end as two's complement */
#define LTT_MSG struct ltt_ust_enum_entry
LTT_CODEC(app_enum_entry, LTT_CODEC_LE,
	  LTT_ROW_U64(start), LTT_ROW_U64(end), LTT_ROW_STRREF(label, LTT_APP_LABEL_MAX));
#undef LTT_MSG

#define LTT_MSG struct wire_str
LTT_CODEC(app_enum_name, LTT_CODEC_LE, LTT_ROW_STRREF(str, LTT_APP_NAME_MAX));
#undef LTT_MSG

/* The type byte on the wire: the type below, the flags above (app-proto.h). */
static uint8_t type_byte(uint8_t type, uint8_t flags)
{
	return (uint8_t)(type | flags << LTT_APP_FIELD_FLAGS_SHIFT);
}

/* ---- encoding ---- */

/* A field: its fixed part @f, then @f->nr_enum_entries of @entries, then @enum_name. */
static void put_field_parts(struct ltt_wbuf *w, const struct wire_field *f,
			    const struct ltt_ust_enum_entry *entries, const char *enum_name)
{
	const struct wire_str name = { enum_name };

	ltt_codec_put(w, &app_field, f);
	ltt_codec_put_array(w, &app_enum_entry, entries, sizeof(*entries), f->nr_enum_entries);
	ltt_codec_put(w, &app_enum_name, &name);
}

static void put_field(struct ltt_wbuf *w, const struct ltt_ust_field *f)
{
	const struct ltt_ust_enum_desc *desc = f->enum_desc;
	const struct wire_field wf = {
		.name = f->name, .type = type_byte(f->type, f->flags), .size = f->size,
		.is_signed = f->is_signed, .base = f->base, .encoding = f->encoding,
		.length = f->length, .nr_enum_entries = desc && desc->entries ? desc->nr_entries : 0,
	};

	put_field_parts(w, &wf, desc ? desc->entries : NULL, desc ? desc->name : NULL);
}

void ltt_app_put_tracepoint(struct ltt_wbuf *w, const struct ltt_ust_tracepoint *tp)
{
	const struct wire_tp head = {
		tp->name, tp->loglevel, tp->fields ? tp->nr_fields : 0,
	};
	uint32_t i;

	ltt_codec_put(w, &app_tp, &head);
	for (i = 0; i < head.nr_fields && !w->err; i++)
		put_field(w, &tp->fields[i]);
}

/* The same bytes from a decoded description (the daemon copies them so). */
void ltt_app_put_app_tracepoint(struct ltt_wbuf *w, const struct ltt_app_tracepoint *tp)
{
	const struct wire_tp head = { tp->name, tp->loglevel, tp->nr_fields };
	uint32_t i;

	ltt_codec_put(w, &app_tp, &head);
	for (i = 0; i < tp->nr_fields && !w->err; i++) {
		const struct ltt_app_field *f = &tp->fields[i];
		const struct wire_field wf = {
			.name = f->name, .type = type_byte(f->type, f->flags), .size = f->size,
			.is_signed = f->is_signed, .base = f->base, .encoding = f->encoding,
			.length = f->length, .nr_enum_entries = f->nr_enum_entries,
		};

		put_field_parts(w, &wf, f->enum_entries, f->enum_name);
	}
}

void ltt_app_filter_fields(const struct ltt_app_tracepoint *tp,
			   struct ltt_filter_field_desc *fields)
{
	uint32_t i;

	for (i = 0; i < tp->nr_fields; i++) {
		const struct ltt_app_field *f = &tp->fields[i];

		fields[i] = (struct ltt_filter_field_desc){
			.name = f->name, .type = f->type, .size = f->size,
			.is_signed = f->is_signed, .encoding = f->encoding, .length = f->length,
			.big_endian = (f->type == LTT_UST_TYPE_ARRAY ||
				       f->type == LTT_UST_TYPE_SEQUENCE) &&
				      (f->flags & LTT_UST_FIELD_BIG_ENDIAN),
		};
	}
}

/* ---- validation, shared by the decoder and ltt_app_tracepoint_valid() ---- */

static bool is_alpha_(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* [A-Za-z0-9_.-] and exactly one ':', neither first nor last. */
static bool event_name_valid(const char *name)
{
	const char *colon;

	if (!ltt_event_name_valid(name) || strnlen(name, LTT_APP_NAME_MAX) >= LTT_APP_NAME_MAX)
		return false;
	colon = strchr(name, ':');
	return colon && colon != name && colon[1] && !strchr(colon + 1, ':');
}

/* A C identifier of at most LTT_APP_NAME_MAX - 1 bytes. */
static bool field_name_valid(const char *name)
{
	size_t i;

	if (!name || !is_alpha_(name[0]))
		return false;
	for (i = 1; name[i]; i++) {
		if (i >= LTT_APP_NAME_MAX - 1 || (!is_alpha_(name[i]) && !is_digit(name[i])))
			return false;
	}
	return true;
}

/* An enum label: 1..LTT_APP_LABEL_MAX - 1 bytes of printable UTF-8. */
static bool label_valid(const char *label)
{
	const unsigned char *p;
	size_t n;

	if (!label || !label[0] || strnlen(label, LTT_APP_LABEL_MAX) >= LTT_APP_LABEL_MAX)
		return false;
	for (p = (const unsigned char *)label; *p; p += n) {
		n = ltt_utf8_char_len(p);
		if (!n)
			return false;
	}
	return true;
}

static bool int_size_valid(uint8_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

static bool base_valid(uint8_t base)
{
	return base == 10 || base == 16;
}

/*
 * Everything about @f but its names and enum entries: the table in
 * app-proto.h, and the entry count (before any entry is read).
 */
static bool field_kind_valid(const struct ltt_app_field *f)
{
	bool integer_like = int_size_valid(f->size) && f->is_signed <= 1 && base_valid(f->base);
	bool is_enum = f->type == LTT_UST_TYPE_ENUM;

	if (is_enum ? f->nr_enum_entries < 1 || f->nr_enum_entries > LTT_APP_MAX_ENUM_ENTRIES
		    : f->nr_enum_entries != 0)
		return false;
	if ((f->flags & ~LTT_UST_FIELD_FLAGS) ||
	    ((f->flags & LTT_UST_FIELD_BIG_ENDIAN) && f->type == LTT_UST_TYPE_STRING) ||
	    ((f->flags & LTT_UST_FIELD_LENGTH_BEFORE) && f->type != LTT_UST_TYPE_SEQUENCE))
		return false;
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
	case LTT_UST_TYPE_ENUM:
		return integer_like && f->encoding == LTT_UST_ENCODING_NONE && f->length == 0;
	case LTT_UST_TYPE_FLOAT:
		return (f->size == 4 || f->size == 8) && !f->is_signed && !f->base &&
		       f->encoding == LTT_UST_ENCODING_NONE && f->length == 0;
	case LTT_UST_TYPE_STRING:
		return f->size == 1 && !f->is_signed && !f->base &&
		       f->encoding == LTT_UST_ENCODING_NONE && f->length == 0;
	case LTT_UST_TYPE_ARRAY:
	case LTT_UST_TYPE_SEQUENCE:
		if (!integer_like)
			return false;
		if (f->encoding != LTT_UST_ENCODING_NONE &&
		    (f->encoding != LTT_UST_ENCODING_UTF8 || f->size != 1))
			return false;
		if (f->type == LTT_UST_TYPE_SEQUENCE)
			return f->length == 0;
		return f->length >= 1 && f->length <= LTT_APP_MAX_ARRAY_LENGTH;
	default:
		return false;
	}
}

/* "" for a non-enum; 1..255 bytes of [A-Za-z0-9_:.-] for an enum. */
static bool enum_name_valid(const struct ltt_app_field *f, const char *enum_name)
{
	if (f->type != LTT_UST_TYPE_ENUM)
		return enum_name && !enum_name[0];
	return ltt_event_name_valid(enum_name) &&
	       strnlen(enum_name, LTT_APP_NAME_MAX) < LTT_APP_NAME_MAX;
}

/* Does the two's complement @v fit the enum container of @f? */
static bool enum_value_fits(const struct ltt_app_field *f, uint64_t v)
{
	unsigned int bits = f->size * 8U;
	int64_t s = (int64_t)v;

	if (bits == 64)
		return true;
	if (f->is_signed)
		return s >= -((int64_t)1 << (bits - 1)) && s < ((int64_t)1 << (bits - 1));
	return v < (uint64_t)1 << bits;
}

static bool entry_valid(const struct ltt_app_field *f, uint64_t start, uint64_t end,
			const char *label)
{
	if (!enum_value_fits(f, start) || !enum_value_fits(f, end) || !label_valid(label))
		return false;
	return f->is_signed ? (int64_t)start <= (int64_t)end : start <= end;
}

/* Is @name exactly "_", @base, "_length"? */
static bool is_length_name(const char *name, const char *base)
{
	size_t len = strlen(base);

	return name[0] == '_' && !strncmp(name + 1, base, len) && !strcmp(name + 1 + len, "_length");
}

/* Does @f add a second field, _NAME_length, to the trace? */
static bool adds_length(const struct ltt_app_field *f)
{
	return f->type == LTT_UST_TYPE_SEQUENCE && !(f->flags & LTT_UST_FIELD_LENGTH_BEFORE);
}

/*
 * Would fields @a and @b have the same name in the trace?  A sequence
 * with a count of its own adds a second field, _NAME_length (as LTTng
 * names it).
 */
static bool names_clash(const struct ltt_app_field *a, const struct ltt_app_field *b)
{
	if (!strcmp(a->name, b->name))
		return true;
	if (adds_length(a) && is_length_name(b->name, a->name))
		return true;
	return adds_length(b) && is_length_name(a->name, b->name);
}

/*
 * Field @i of @fields among the others: a LENGTH_BEFORE sequence follows an
 * integer, both written or both not.
 */
static bool field_place_valid(const struct ltt_app_field *fields, uint32_t i)
{
	if (!(fields[i].flags & LTT_UST_FIELD_LENGTH_BEFORE))
		return true;
	return i > 0 && fields[i - 1].type == LTT_UST_TYPE_INTEGER &&
	       !((fields[i - 1].flags ^ fields[i].flags) & LTT_UST_FIELD_NOWRITE);
}

static bool loglevel_valid(int32_t loglevel)
{
	return loglevel >= LTT_LOGLEVEL_EMERG && loglevel <= LTT_LOGLEVEL_DEBUG;
}

bool ltt_app_tracepoint_valid(const struct ltt_app_tracepoint *tp)
{
	uint32_t i, j;

	if (!tp || !event_name_valid(tp->name) || !loglevel_valid(tp->loglevel) ||
	    tp->nr_fields > LTT_APP_MAX_FIELDS || (tp->nr_fields && !tp->fields))
		return false;
	for (i = 0; i < tp->nr_fields; i++) {
		const struct ltt_app_field *f = &tp->fields[i];

		if (!field_name_valid(f->name) || !field_kind_valid(f) ||
		    !field_place_valid(tp->fields, i) ||
		    !enum_name_valid(f, f->enum_name) || (f->nr_enum_entries && !f->enum_entries))
			return false;
		for (j = 0; j < f->nr_enum_entries; j++) {
			const struct ltt_ust_enum_entry *e = &f->enum_entries[j];

			if (!entry_valid(f, (uint64_t)e->start, (uint64_t)e->end, e->label))
				return false;
		}
		for (j = 0; j < i; j++) {
			if (names_clash(&tp->fields[j], f))
				return false;
		}
	}
	return true;
}

/* ---- decoding ---- */

/*
 * The walk over one description.  Counting (!fill): the totals grow and
 * strings stay borrowed from the message.  Filling: the block is laid
 * out as [tracepoint][fields][enum entries][strings], each part's
 * cursor advancing as the walk copies into it.
 */
struct block {
	bool fill;
	size_t nr_fields;
	size_t nr_entries;
	size_t str_bytes;
	struct ltt_app_field *fields;
	struct ltt_ust_enum_entry *entries;
	char *strings;
};

/* Keep string @s: its copy in the block when filling, @s itself when counting. */
static char *keep(struct block *b, const char *s)
{
	size_t len = strlen(s) + 1;
	char *p = b->strings;

	if (!b->fill) {
		b->str_bytes += len;
		return (char *)s;
	}
	memcpy(p, s, len);
	b->strings += len;
	return p;
}

/* One field into @f (names kept in @b); returns false when malformed. */
static bool walk_field(struct ltt_rbuf *r, struct block *b, struct ltt_app_field *f)
{
	struct ltt_ust_enum_entry e;
	struct wire_field wf;
	struct wire_str name;
	uint32_t i;

	memset(f, 0, sizeof(*f));
	if (ltt_codec_get(r, &app_field, &wf))
		return false;
	f->type = wf.type & LTT_APP_FIELD_TYPE_MASK;
	f->flags = (uint8_t)(wf.type >> LTT_APP_FIELD_FLAGS_SHIFT);
	f->size = wf.size;
	f->is_signed = wf.is_signed;
	f->base = wf.base;
	f->encoding = wf.encoding;
	f->length = wf.length;
	f->nr_enum_entries = wf.nr_enum_entries;
	if (!field_name_valid(wf.name) || !field_kind_valid(f))
		return false;
	f->name = keep(b, wf.name);
	if (b->fill && f->nr_enum_entries)
		f->enum_entries = b->entries;
	for (i = 0; i < f->nr_enum_entries; i++) {
		if (ltt_codec_get(r, &app_enum_entry, &e) ||
		    !entry_valid(f, (uint64_t)e.start, (uint64_t)e.end, e.label))
			return false;
		if (b->fill) {
			b->entries->start = e.start;
			b->entries->end = e.end;
			b->entries->label = keep(b, e.label);
			b->entries++;
		} else {
			keep(b, e.label);
		}
	}
	b->nr_entries += f->nr_enum_entries;
	if (ltt_codec_get(r, &app_enum_name, &name) || !enum_name_valid(f, name.str))
		return false;
	f->enum_name = keep(b, name.str);
	return true;
}

/*
 * One description.  Counting, @tp is scratch whose pointers are borrowed;
 * filling, it is the block's head.  Returns false when malformed.
 */
static bool walk(struct ltt_rbuf *r, struct block *b, struct ltt_app_tracepoint *tp)
{
	struct ltt_app_field seen[LTT_APP_MAX_FIELDS];
	struct wire_tp head;
	uint32_t i, j;

	if (ltt_codec_get(r, &app_tp, &head) || !event_name_valid(head.name) ||
	    !loglevel_valid(head.loglevel))
		return false;
	tp->loglevel = head.loglevel;
	tp->nr_fields = head.nr_fields;
	tp->name = keep(b, head.name);
	tp->fields = b->fill && tp->nr_fields ? b->fields : NULL;
	for (i = 0; i < tp->nr_fields; i++) {
		if (!walk_field(r, b, &seen[i]) || !field_place_valid(seen, i))
			return false;
		for (j = 0; j < i; j++) {
			if (names_clash(&seen[j], &seen[i]))
				return false;
		}
		if (b->fill)
			*b->fields++ = seen[i];
	}
	b->nr_fields += tp->nr_fields;
	return true;
}

int ltt_app_get_tracepoint(struct ltt_rbuf *r, struct ltt_app_tracepoint **ret_tp)
{
	struct ltt_rbuf again = *r;
	struct ltt_app_tracepoint scratch, *tp;
	struct block b = { .fill = false };
	size_t fields_off, entries_off, strings_off, size;
	uint8_t *base;

	if (!walk(r, &b, &scratch)) {
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	/* Bounded by the limits and the message size: no overflow. */
	fields_off = sizeof(*tp);
	entries_off = fields_off + b.nr_fields * sizeof(struct ltt_app_field);
	strings_off = entries_off + b.nr_entries * sizeof(struct ltt_ust_enum_entry);
	size = strings_off + b.str_bytes;
	base = malloc(size);
	if (!base)
		return -ENOMEM;
	/* Through void *: each part's offset is a multiple of its alignment. */
	tp = (void *)base;
	b = (struct block){
		.fill = true,
		.fields = (void *)(base + fields_off),
		.entries = (void *)(base + entries_off),
		.strings = (char *)base + strings_off,
	};
	/* The same walk over the same bytes: it cannot fail this time. */
	if (!walk(&again, &b, tp) || again.pos != r->pos) {
		assert(0);
		free(base);
		ltt_rbuf_fail(r);
		return -EPROTO;
	}
	assert(b.strings == (char *)base + size);
	*ret_tp = tp;
	return 0;
}

/* ---- comparison ---- */

static bool same_field(const struct ltt_app_field *a, const struct ltt_app_field *b)
{
	uint32_t i;

	if (strcmp(a->name, b->name) || a->type != b->type || a->size != b->size ||
	    a->is_signed != b->is_signed || a->base != b->base || a->encoding != b->encoding ||
	    a->length != b->length || a->flags != b->flags ||
	    a->nr_enum_entries != b->nr_enum_entries)
		return false;
	for (i = 0; i < a->nr_enum_entries; i++) {
		const struct ltt_ust_enum_entry *ea = &a->enum_entries[i], *eb = &b->enum_entries[i];

		if (ea->start != eb->start || ea->end != eb->end || strcmp(ea->label, eb->label))
			return false;
	}
	return true;
}

int ltt_app_tracepoint_same_layout(const struct ltt_app_tracepoint *a,
				   const struct ltt_app_tracepoint *b)
{
	uint32_t i;

	if (a->nr_fields != b->nr_fields)
		return 0;
	for (i = 0; i < a->nr_fields; i++) {
		if (!same_field(&a->fields[i], &b->fields[i]))
			return 0;
	}
	return 1;
}

int ltt_app_tracepoint_dup(const struct ltt_app_tracepoint *tp,
			   struct ltt_app_tracepoint **ret_tp)
{
	struct ltt_app_tracepoint *copy = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int ret;

	ltt_wbuf_init(&w);
	ltt_app_put_app_tracepoint(&w, tp);
	if (w.err) {
		ltt_wbuf_fini(&w);
		return -ENOMEM;
	}
	ltt_rbuf_init(&r, w.data, w.len);
	ret = ltt_app_get_tracepoint(&r, &copy);
	if (!ret && ltt_rbuf_end(&r)) {
		free(copy);
		ret = -EPROTO;
	}
	ltt_wbuf_fini(&w);
	if (!ret)
		*ret_tp = copy;
	return ret;
}

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
	  LTT_ROW_U32(event_id));
/* No event_id: decoded as 0. */
LTT_CODEC(app_event_disable, LTT_CODEC_LE,
	  LTT_ROW_U64(channel_key), LTT_ROW_STRREF(name, LTT_APP_NAME_MAX));
#undef LTT_MSG

LTT_CODEC_PAIR(app, register, struct ltt_app_register)
LTT_CODEC_PAIR(app, gap, struct ltt_app_gap)
LTT_CODEC_PAIR(app, version, struct ltt_app_version)
LTT_CODEC_PAIR(app, ack, struct ltt_app_ack)
LTT_CODEC_PAIR(app, event_enable, struct ltt_app_event_msg)
LTT_CODEC_PAIR(app, event_disable, struct ltt_app_event_msg)

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

_Static_assert(LTT_TRIGGER_MAX_CAPTURES == 16, "ltt_app_notifier_add's and ltt_app_notify's arrays");

/* The capture expressions follow, each a string. */
#define LTT_MSG struct ltt_app_notifier_add
LTT_CODEC(app_notifier_add, LTT_CODEC_LE,
	  LTT_ROW_U64(key), LTT_ROW_MAX(nr_captures, UINT, 4, 0, LTT_TRIGGER_MAX_CAPTURES));
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
	  LTT_ROW_MAX(nr_captures, UINT, 4, 0, LTT_TRIGGER_MAX_CAPTURES));
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
	struct ltt_app_channel_add m;

	m.nr_contexts = 0;
	if (ltt_codec_get(r, &app_channel_add, &m) ||
	    (r->pos < r->len && get_contexts(r, &m)) || ltt_rbuf_end(r))
		return -EPROTO;
	*ret = m;
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
	uint32_t i;

	if (m->nr_programs > LTT_APP_FILTER_MAX_PROGRAMS) {
		w->err = -EINVAL;
		return;
	}
	ltt_codec_put(w, &app_event_filter, m);
	for (i = 0; i < m->nr_programs; i++) {
		const struct ltt_app_filter_program *p = &m->programs[i];

		if (!p->len || p->len > LTT_APP_FILTER_MAX_LEN) {
			w->err = -EINVAL;
			return;
		}
		ltt_wbuf_put_u32(w, p->len);
		ltt_wbuf_put_bytes(w, p->code, p->len);
	}
	if (!w->err && w->len > LTT_APP_MSG_MAX)
		w->err = -EINVAL;
}

int ltt_app_get_event_filter(struct ltt_rbuf *r, struct ltt_app_event_filter *ret)
{
	struct ltt_app_event_filter m;
	uint32_t i;

	if (ltt_codec_get(r, &app_event_filter, &m))
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
			    m->nr_captures < LTT_TRIGGER_MAX_CAPTURES ? m->nr_captures
								      : LTT_TRIGGER_MAX_CAPTURES);
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
