// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fields.c - LTTng's field descriptions in ltt's field model, and the
 * probe's interpreter stack as ltt's filter arguments.
 *
 * The LTTng probe writes every payload byte itself, packed (x86-64), in
 * its fields' order, skipping nowrite fields.  So each written field
 * becomes one ltt field describing exactly those bytes: network integers
 * are big endian (LTT_UST_FIELD_BIG_ENDIAN); a sequence counted by the
 * field before it (LTTng's _NAME_length of any integer type) has
 * LTT_UST_FIELD_LENGTH_BEFORE; enumeration entries with automatic values
 * get them here (one more than the previous entry's end, from 0).  A
 * nowrite field is an ltt field too, LTT_UST_FIELD_NOWRITE: not in the
 * payload nor the metadata, but its value is on the interpreter stack, so
 * filters read it.  A blob (LTTng 2.16, provider ABI 4) is an array of
 * its bytes, or a sequence counted by the field before, flagged
 * LTT_UST_FIELD_BLOB, its media type in the enumeration description's
 * place.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lttng-ust/event.h"
#include "lttng-ust/lttng-ust.h"

static int refuse(const struct lu_event *ev, const struct lu_event_field *f, const char *why)
{
	lu_debug("%s:%s: field %s: %s; the event is not registered with ltt",
		 ev->desc->probe_desc->provider_name, ev->desc->event_name, f->name, why);
	return -EOPNOTSUPP;
}

/* An integer of @t as an ltt integer (or element, or enum container). */
static int put_integer(const struct lu_type_common *t, struct ltt_ust_field *out)
{
	const struct lu_type_integer *i = (const void *)t;

	if (t->type != LU_TYPE_INTEGER ||
	    (i->size != 8 && i->size != 16 && i->size != 32 && i->size != 64))
		return -EOPNOTSUPP;
	out->size = (uint8_t)(i->size / 8);
	out->is_signed = i->is_signed;
	out->base = i->base == 16 ? 16 : 10;
	if (i->reverse_byte_order && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
		out->flags |= LTT_UST_FIELD_BIG_ENDIAN;
	return 0;
}

static int64_t enum_value(const struct lu_enum_value *v)
{
	return (int64_t)v->value;
}

static int put_enum(struct lu_event *ev, const struct lu_type_common *t,
		    struct ltt_ust_field *out, struct ltt_ust_enum_desc *desc,
		    struct ltt_ust_enum_entry *entries)
{
	const struct lu_type_enum *e = (const void *)t;
	int64_t next = 0;
	unsigned int i;

	(void)ev;
	if (!e->desc || !e->desc->nr_entries || put_integer(e->container_type, out))
		return -EOPNOTSUPP;
	for (i = 0; i < e->desc->nr_entries; i++) {
		const struct lu_enum_entry *in = e->desc->entries[i];

		if (in->options & LU_ENUM_ENTRY_AUTO) {
			entries[i].start = next;
			entries[i].end = next;
		} else {
			entries[i].start = enum_value(&in->start);
			entries[i].end = enum_value(&in->end);
		}
		entries[i].label = in->label;
		next = entries[i].end + 1;
	}
	desc->name = e->desc->name;
	desc->nr_entries = e->desc->nr_entries;
	desc->entries = entries;
	out->enum_desc = desc;
	return 0;
}

/* Bytes, a blob's: its media type (NULL: none) as @desc's name. */
static int put_blob(struct ltt_ust_field *out, const char *media_type,
		    struct ltt_ust_enum_desc *desc)
{
	out->size = 1;
	out->base = 16;
	out->flags |= LTT_UST_FIELD_BLOB;
	if (media_type) {
		desc->name = media_type;
		out->enum_desc = desc;
	}
	return 0;
}

static uint8_t encoding(enum lu_encoding e)
{
	return e == LU_ENCODING_NONE ? LTT_UST_ENCODING_NONE : LTT_UST_ENCODING_UTF8;
}

/* Field @f (index @i among the LTTng fields) into @out. */
static int convert(struct lu_event *ev, const struct lu_event_field *f, struct ltt_ust_field *out,
		   struct ltt_ust_enum_desc *desc, struct ltt_ust_enum_entry *entries)
{
	const struct lu_type_common *t = f->type;

	out->name = f->name;
	switch (t->type) {
	case LU_TYPE_INTEGER:
		out->type = LTT_UST_TYPE_INTEGER;
		return put_integer(t, out) ? refuse(ev, f, "an integer of a size ltt lacks") : 0;
	case LU_TYPE_FLOAT: {
		const struct lu_type_float *fl = (const void *)t;
		unsigned int bits = fl->exp_dig + fl->mant_dig;

		if (bits != 32 && bits != 64)
			return refuse(ev, f, "a floating point number of neither 32 nor 64 bits");
		out->type = LTT_UST_TYPE_FLOAT;
		out->size = (uint8_t)(bits / 8);
		if (fl->reverse_byte_order && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__)
			out->flags |= LTT_UST_FIELD_BIG_ENDIAN;
		return 0;
	}
	case LU_TYPE_STRING:
		out->type = LTT_UST_TYPE_STRING;
		out->size = 1;
		return 0;
	case LU_TYPE_ENUM:
		out->type = LTT_UST_TYPE_ENUM;
		return put_enum(ev, t, out, desc, entries) ?
			refuse(ev, f, "an enumeration ltt cannot describe") : 0;
	case LU_TYPE_ARRAY: {
		const struct lu_type_array *a = (const void *)t;

		out->type = LTT_UST_TYPE_ARRAY;
		out->length = a->length;
		out->encoding = encoding(a->encoding);
		if (put_integer(a->elem_type, out) || !a->length)
			return refuse(ev, f, "an array of other than integers");
		return 0;
	}
	case LU_TYPE_SEQUENCE: {
		const struct lu_type_sequence *s = (const void *)t;

		out->type = LTT_UST_TYPE_SEQUENCE;
		out->encoding = encoding(s->encoding);
		out->flags = LTT_UST_FIELD_LENGTH_BEFORE;
		if (s->length_name)
			return refuse(ev, f, "a sequence counted by a named field");
		if (put_integer(s->elem_type, out))
			return refuse(ev, f, "a sequence of other than integers");
		return 0;
	}
	case LU_TYPE_FIXED_LENGTH_BLOB: {
		const struct lu_type_fixed_length_blob *b = (const void *)t;

		if (!b->length)
			return refuse(ev, f, "a blob of no byte");
		out->type = LTT_UST_TYPE_ARRAY;
		out->length = b->length;
		return put_blob(out, b->media_type, desc);
	}
	case LU_TYPE_VARIABLE_LENGTH_BLOB: {
		const struct lu_type_variable_length_blob *b = (const void *)t;

		if (b->length_name)
			return refuse(ev, f, "a blob counted by a named field");
		out->type = LTT_UST_TYPE_SEQUENCE;
		out->flags = LTT_UST_FIELD_LENGTH_BEFORE;
		return put_blob(out, b->media_type, desc);
	}
	default:
		return refuse(ev, f, "a structure or variant (ltt's field model has none yet)");
	}
}

/* Interpreter-stack bytes of field @f. */
static uint8_t stack_bytes(const struct lu_event_field *f)
{
	if (f->nofilter)
		return 0;
	switch (f->type->type) {
	case LU_TYPE_ARRAY:
	case LU_TYPE_SEQUENCE:
	case LU_TYPE_FIXED_LENGTH_BLOB:
	case LU_TYPE_VARIABLE_LENGTH_BLOB:
		return 16;	/* {unsigned long length, const void *bytes} */
	default:
		return 8;
	}
}

static unsigned int nr_entries(const struct lu_event_field *f)
{
	const struct lu_type_enum *e = (const void *)f->type;

	return f->type->type == LU_TYPE_ENUM && e->desc ? e->desc->nr_entries : 0;
}

int lu_event_fields(struct lu_event *ev)
{
	const struct lu_tracepoint_class *cls = ev->desc->tp_class;
	size_t n = cls->nr_fields, i, total = 0;
	uint32_t nr = 0;
	int ret;

	if (n > 128)	/* LTT_APP_MAX_FIELDS */
		return -EOPNOTSUPP;
	for (i = 0; i < n; i++)
		total += nr_entries(cls->fields[i]);
	ev->fields = calloc(n + 1, sizeof(*ev->fields));
	ev->enums = calloc(n + 1, sizeof(*ev->enums));
	ev->entries = calloc(total + 1, sizeof(*ev->entries));
	ev->stack = calloc(n + 1, sizeof(*ev->stack));
	if (!ev->fields || !ev->enums || !ev->entries || !ev->stack)
		return -ENOMEM;
	total = 0;
	for (i = 0; i < n; i++) {
		const struct lu_event_field *f = cls->fields[i];
		struct lu_stack_field *s = &ev->stack[i];

		s->bytes = stack_bytes(f);
		ev->stack_len += s->bytes;
		ret = convert(ev, f, &ev->fields[nr], &ev->enums[i], &ev->entries[total]);
		if (ret)
			return ret;
		if (f->nowrite)
			ev->fields[nr].flags |= LTT_UST_FIELD_NOWRITE;
		total += nr_entries(f);
		s->kind = ev->fields[nr].type;
		s->size = ev->fields[nr].size;
		s->arg = (int16_t)nr++;
	}
	ev->nr_stack = (uint32_t)n;
	ev->tp.fields = ev->fields;
	ev->tp.nr_fields = nr;
	return 0;
}

void lu_event_fields_fini(struct lu_event *ev)
{
	free(ev->fields);
	free(ev->enums);
	free(ev->entries);
	free(ev->stack);
}

uint32_t lu_event_args(const struct lu_event *ev, const char *stack, struct ltt_ust_arg *args,
		       float *floats)
{
	uint32_t i;

	memset(args, 0, ev->tp.nr_fields * sizeof(*args));
	for (i = 0; i < ev->nr_stack; i++) {
		const struct lu_stack_field *s = &ev->stack[i];
		struct ltt_ust_arg *a = s->arg >= 0 ? &args[s->arg] : NULL;
		const char *p = NULL;
		unsigned long len = 0;
		double d;

		if (!s->bytes)
			continue;
		if (s->bytes == 16) {
			memcpy(&len, stack, sizeof(len));
			memcpy(&p, stack + sizeof(len), sizeof(p));
			/* the count before a sequence is nofilter: give it this length */
			if (s->kind == LTT_UST_TYPE_SEQUENCE && s->arg > 0 && !args[s->arg - 1].p)
				args[s->arg - 1].p = stack;
		}
		if (a) {
			switch (s->kind) {
			case LTT_UST_TYPE_STRING:
				memcpy(&p, stack, sizeof(p));
				a->p = p;
				a->n = p ? (uint32_t)strlen(p) : 0;
				break;
			case LTT_UST_TYPE_FLOAT:
				if (s->size == 4) {
					memcpy(&d, stack, sizeof(d));
					floats[s->arg] = (float)d;
					a->p = &floats[s->arg];
				} else {
					a->p = stack;
				}
				break;
			case LTT_UST_TYPE_ARRAY:
			case LTT_UST_TYPE_SEQUENCE:
				a->p = p;
				a->n = (uint32_t)len;
				break;
			default:	/* integers, enums: 64 bits, low bytes first */
				a->p = stack;
				break;
			}
		}
		stack += s->bytes;
	}
	return ev->tp.nr_fields;
}
