// SPDX-License-Identifier: LGPL-2.1-only
/*
 * app-tracepoint.c - a tracepoint's description in the
 * sessiond-application protocol (app-proto.h): its encoder, its checks,
 * its decoder, and the comparison and copy the session daemon makes of
 * what it decoded.
 *
 * Each part of a description (its head, a field, an enum entry, an enum
 * name) is a field table (codec.h); the shape (fields, each with its enum
 * entries) is walked by hand, which keeps the nesting and the limits.
 * A description comes from another user's process, so decoding is two
 * passes over the message with one walker: the first validates
 * everything and adds up what the result needs, the second (after one
 * allocation) fills the block.  Nothing is allocated for a message that
 * is refused, and every count is checked against its limit before it
 * drives a loop.
 */
#include <assert.h>
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/names.h"
#include "common/proto/app-proto.h"

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
	/* a blob: bytes, shown in hexadecimal where the format has no blob */
	if ((f->flags & LTT_UST_FIELD_BLOB) &&
	    ((f->type != LTT_UST_TYPE_ARRAY && f->type != LTT_UST_TYPE_SEQUENCE) ||
	     f->size != 1 || f->is_signed || f->base != 16 ||
	     f->encoding != LTT_UST_ENCODING_NONE || (f->flags & LTT_UST_FIELD_BIG_ENDIAN)))
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

/* A blob's media type: "" (none), or 1..255 bytes of printable ASCII ("text/plain"). */
static bool media_type_valid(const char *media)
{
	size_t i;

	for (i = 0; media[i]; i++)
		if (i >= LTT_APP_NAME_MAX - 1 || media[i] < 0x20 || media[i] > 0x7e)
			return false;
	return true;
}

/*
 * "" for a non-enum (a blob: its media type, or ""); 1..255 bytes of
 * [A-Za-z0-9_:.-] for an enum.
 */
static bool enum_name_valid(const struct ltt_app_field *f, const char *enum_name)
{
	if (enum_name && (f->flags & LTT_UST_FIELD_BLOB))
		return media_type_valid(enum_name);
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
	size_t start = r->pos;
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
	tp->layout = ltt_app_layout_of(r->data + start, r->pos - start);
	*ret_tp = tp;
	return 0;
}

/* ---- comparison ---- */

/* FNV-1a, 64 bits, of @len bytes at @p, continuing @h. */
static uint64_t fnv(uint64_t h, const void *p, size_t len)
{
	const uint8_t *b = p;

	while (len--)
		h = (h ^ *b++) * 1099511628211ULL;
	return h;
}

#define FNV_START 1469598103934665603ULL

uint64_t ltt_app_layout_of(const uint8_t *enc, size_t len)
{
	uint64_t h = fnv(FNV_START, enc, len);

	return h ? h : 1;
}

uint64_t ltt_app_tracepoint_fields_hash(const struct ltt_app_tracepoint *tp)
{
	uint64_t h = fnv(FNV_START, &tp->nr_fields, sizeof(tp->nr_fields));
	uint32_t i, j;

	for (i = 0; i < tp->nr_fields; i++) {
		const struct ltt_app_field *f = &tp->fields[i];
		const uint8_t bytes[] = { f->type, f->size, f->is_signed, f->base, f->encoding,
					  f->flags };

		h = fnv(h, f->name, strlen(f->name) + 1);
		h = fnv(h, bytes, sizeof(bytes));
		h = fnv(h, &f->length, sizeof(f->length));
		h = fnv(h, &f->nr_enum_entries, sizeof(f->nr_enum_entries));
		for (j = 0; j < f->nr_enum_entries; j++) {
			const struct ltt_ust_enum_entry *e = &f->enum_entries[j];

			h = fnv(h, &e->start, sizeof(e->start));
			h = fnv(h, &e->end, sizeof(e->end));
			h = fnv(h, e->label, strlen(e->label) + 1);
		}
	}
	return h;
}

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

/* The bytes of @s with its NUL, counted into *@bytes. */
static void count_str(size_t *bytes, const char *s)
{
	*bytes += strlen(s) + 1;
}

struct ltt_app_tracepoint *ltt_app_tracepoint_copy(const struct ltt_app_tracepoint *tp)
{
	struct ltt_app_tracepoint *copy;
	size_t nr_entries = 0, str_bytes = 0, entries_off, strings_off;
	struct block b = { .fill = true };
	uint32_t i, j;
	uint8_t *base;

	count_str(&str_bytes, tp->name);
	for (i = 0; i < tp->nr_fields; i++) {
		const struct ltt_app_field *f = &tp->fields[i];

		count_str(&str_bytes, f->name);
		count_str(&str_bytes, f->enum_name);
		for (j = 0; j < f->nr_enum_entries; j++)
			count_str(&str_bytes, f->enum_entries[j].label);
		nr_entries += f->nr_enum_entries;
	}
	/* The block ltt_app_get_tracepoint() lays out: [tracepoint][fields][entries][strings] */
	entries_off = sizeof(*copy) + tp->nr_fields * sizeof(struct ltt_app_field);
	strings_off = entries_off + nr_entries * sizeof(struct ltt_ust_enum_entry);
	base = malloc(strings_off + str_bytes);
	if (!base)
		return NULL;
	copy = (void *)base;
	b.fields = (void *)(base + sizeof(*copy));
	b.entries = (void *)(base + entries_off);
	b.strings = (char *)base + strings_off;
	*copy = *tp;
	copy->name = keep(&b, tp->name);
	copy->fields = tp->nr_fields ? b.fields : NULL;
	for (i = 0; i < tp->nr_fields; i++) {
		struct ltt_app_field *f = b.fields++;

		*f = tp->fields[i];
		f->name = keep(&b, f->name);
		f->enum_name = keep(&b, f->enum_name);
		f->enum_entries = f->nr_enum_entries ? b.entries : NULL;
		for (j = 0; j < f->nr_enum_entries; j++) {
			*b.entries = tp->fields[i].enum_entries[j];
			b.entries->label = keep(&b, b.entries->label);
			b.entries++;
		}
	}
	assert(b.strings == (char *)base + strings_off + str_bytes);
	return copy;
}

int ltt_app_tracepoint_dup(const struct ltt_app_tracepoint *tp,
			   struct ltt_app_tracepoint **ret_tp)
{
	struct ltt_app_tracepoint *copy;

	if (!ltt_app_tracepoint_valid(tp))
		return -EPROTO;
	copy = ltt_app_tracepoint_copy(tp);
	if (!copy)
		return -ENOMEM;
	*ret_tp = copy;
	return 0;
}
