// SPDX-License-Identifier: LGPL-2.1-only
/*
 * meta-model.c - the field classes of a trace's events and contexts,
 * described once for both metadata languages (meta-model.h).
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common/trace/ctf.h"
#include "common/trace/kabi-enum.h"
#include "common/trace/kabi-struct.h"
#include "sessiond/ctrace/meta-model.h"

/* A field class from @m's storage, zeroed; NULL when it is full. */
static struct ltt_fc *new_fc(struct ltt_meta_event *m, enum ltt_fc_kind kind)
{
	struct ltt_fc *fc;

	if (m->nr_fcs == LTT_META_MAX_FC)
		return NULL;
	fc = &m->fcs[m->nr_fcs++];
	memset(fc, 0, sizeof(*fc));
	fc->kind = kind;
	return fc;
}

/* Append member @name (borrowed) of class @fc to the structure being built. */
static int add_member(struct ltt_meta_event *m, const char *name, const struct ltt_fc *fc,
		      bool implied_length)
{
	if (!fc || m->nr_top == LTT_META_MAX_MEMBERS)
		return -EINVAL;
	m->top[m->nr_top++] = (struct ltt_fm){ .name = name, .fc = fc,
					       .implied_length = implied_length };
	return 0;
}

/* @prefix @name "_length", in @m's storage; NULL when it is full. */
static const char *length_name(struct ltt_meta_event *m, const char *prefix, const char *name)
{
	size_t room = sizeof(m->names) - m->names_len;
	char *dst = m->names + m->names_len;
	int len = snprintf(dst, room, "%s%s_length", prefix, name);

	if (len < 0 || (size_t)len >= room)
		return NULL;
	m->names_len += (size_t)len + 1;
	return dst;
}

/* An integer as a program's field @f (an element, an enumeration's container) says it. */
static struct ltt_fc *app_integer(struct ltt_meta_event *m, const struct ltt_app_field *f)
{
	struct ltt_fc *fc = new_fc(m, LTT_FC_INTEGER);

	if (!fc)
		return NULL;
	fc->bits = (uint16_t)(f->size * 8U);
	fc->align = 8;
	fc->base = f->base;
	fc->is_signed = f->is_signed;
	fc->utf8 = f->encoding == LTT_UST_ENCODING_UTF8;
	fc->big_endian = f->flags & LTT_UST_FIELD_BIG_ENDIAN;
	return fc;
}

static struct ltt_fc *implied_u32(struct ltt_meta_event *m)
{
	struct ltt_fc *fc = new_fc(m, LTT_FC_INTEGER);

	if (fc)
		*fc = (struct ltt_fc){ .kind = LTT_FC_INTEGER, .bits = 32, .align = 8, .base = 10 };
	return fc;
}

/* Is program field @f a blob (LTT_UST_FIELD_BLOB)?  Then @fc says so, with its media type. */
static void blob_of(struct ltt_fc *fc, const struct ltt_app_field *f)
{
	if (!f || !(f->flags & LTT_UST_FIELD_BLOB))
		return;
	fc->blob = true;
	fc->media_type = f->enum_name && f->enum_name[0] ? f->enum_name : NULL;
}

/*
 * A sequence of @elem counted by @length, or by an implied _NAME_length
 * member added here; a blob when program field @f (or NULL) is one.
 */
static int add_sequence(struct ltt_meta_event *m, const char *name, struct ltt_fc *elem,
			const char *length, const struct ltt_app_field *f)
{
	struct ltt_fc *fc;

	if (!length) {
		length = length_name(m, "_", name);
		if (!length || add_member(m, length, implied_u32(m), true))
			return -EINVAL;
	}
	fc = new_fc(m, LTT_FC_SEQUENCE);
	if (!fc || !elem)
		return -EINVAL;
	fc->elem = elem;
	fc->length_field = length;
	blob_of(fc, f);
	return add_member(m, name, fc, false);
}

/* Field @i of @fields, appended to the structure being built (a NOWRITE one is left out). */
static int app_field(struct ltt_meta_event *m, const struct ltt_app_field *fields, uint32_t i)
{
	const struct ltt_app_field *f = &fields[i];
	struct ltt_fc *fc;

	if (f->flags & LTT_UST_FIELD_NOWRITE)
		return 0;	/* a value for filters only */
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
		return add_member(m, f->name, app_integer(m, f), false);
	case LTT_UST_TYPE_FLOAT:
		fc = new_fc(m, LTT_FC_FLOAT);
		if (fc) {
			fc->bits = (uint16_t)(f->size * 8U);
			fc->align = 8;
			fc->big_endian = f->flags & LTT_UST_FIELD_BIG_ENDIAN;
		}
		return add_member(m, f->name, fc, false);
	case LTT_UST_TYPE_STRING:
		return add_member(m, f->name, new_fc(m, LTT_FC_STRING), false);
	case LTT_UST_TYPE_ARRAY:
		fc = new_fc(m, LTT_FC_ARRAY);
		if (fc) {
			fc->length = f->length;
			fc->elem = app_integer(m, f);
			blob_of(fc, f);
		}
		return add_member(m, f->name, fc && fc->elem ? fc : NULL, false);
	case LTT_UST_TYPE_SEQUENCE:
		/* counted by the field before (ltt_app_tracepoint_valid()), or LTTng's _NAME_length */
		return add_sequence(m, f->name, app_integer(m, f),
				    f->flags & LTT_UST_FIELD_LENGTH_BEFORE ? fields[i - 1].name : NULL, f);
	case LTT_UST_TYPE_ENUM:
		fc = app_integer(m, f);
		if (fc) {
			fc->mappings = f->enum_entries;
			fc->nr_mappings = f->nr_enum_entries;
		}
		return add_member(m, f->name, fc, false);
	default:
		return -EINVAL;	/* ltt_app_tracepoint_valid() let it through? */
	}
}

/* Start @m as event @name: an empty payload being built. */
static void event_begin(struct ltt_meta_event *m, const char *name, uint32_t event_id,
			uint32_t stream_id)
{
	m->name = name;
	m->id = event_id;
	m->stream_id = stream_id;
	m->has_loglevel = false;
	m->loglevel = 0;
	m->nr_fcs = m->nr_top = m->nr_fms = 0;
	m->names_len = 0;
	memset(&m->payload, 0, sizeof(m->payload));
	m->payload.kind = LTT_FC_STRUCT;
	m->payload.members = m->top;
}

/* The payload's members are those added (add_member()). */
static void payload_end(struct ltt_meta_event *m)
{
	m->payload.nr_members = m->nr_top;
}

int ltt_meta_describe_app(struct ltt_meta_event *m, const struct ltt_app_tracepoint *tp,
		       uint32_t event_id, uint32_t stream_id)
{
	uint32_t i;

	if (!m || !ltt_app_tracepoint_valid(tp))
		return -EINVAL;
	event_begin(m, tp->name, event_id, stream_id);
	m->has_loglevel = true;
	m->loglevel = tp->loglevel;
	for (i = 0; i < tp->nr_fields; i++)
		if (app_field(m, tp->fields, i))
			return -EINVAL;
	payload_end(m);
	return 0;
}

int ltt_meta_describe_torn(struct ltt_meta_event *m, unsigned int which, uint32_t stream_id)
{
	struct ltt_fc *len, *byte;

	if (!m || which > LTT_CTF_TORN_ID_LONG - LTT_CTF_TORN_ID_EMPTY)
		return -EINVAL;
	event_begin(m, LTT_CTF_TORN_NAME, LTT_CTF_TORN_ID_EMPTY + which, stream_id);
	if (which) {
		len = new_fc(m, LTT_FC_INTEGER);
		byte = new_fc(m, LTT_FC_INTEGER);
		*len = (struct ltt_fc){ .kind = LTT_FC_INTEGER, .bits = which == 1 ? 8 : 32,
					.align = 8, .base = 10 };
		*byte = (struct ltt_fc){ .kind = LTT_FC_INTEGER, .bits = 8, .align = 8, .base = 16 };
		if (add_member(m, "skip_length", len, false) ||
		    add_sequence(m, "skip", byte, "skip_length", NULL))
			return -EINVAL;
	}
	payload_end(m);
	return 0;
}

/* ---- kernel events ---- */

static bool kernel_name_valid(const char *name, size_t size, bool identifier)
{
	size_t len = strnlen(name, size), i;

	if (len == 0 || len == size || (identifier && isdigit((unsigned char)name[0])))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '_')
			return false;
	return true;
}

/* A kernel field in the user-space vocabulary; false if it is not valid. */
static bool kernel_field(const struct ltt_kabi_field *k, struct ltt_app_field *f)
{
	const struct ltt_ust_enum_desc *en = ltt_kabi_enum(k->enum_id);

	memset(f, 0, sizeof(*f));
	if (!kernel_name_valid(k->name, sizeof(k->name), true) || k->bits ||
	    (k->flags & ~LTT_KABI_FIELD_FLAGS) ||
	    (k->flags && k->type != LTT_KABI_FIELD_INTEGER && k->type != LTT_KABI_FIELD_ARRAY &&
	     k->type != LTT_KABI_FIELD_SEQUENCE) ||
	    (k->enum_id && (!en || k->type != LTT_KABI_FIELD_INTEGER)))
		return false;
	f->name = (char *)k->name;
	f->type = k->type;
	f->size = k->size;
	f->is_signed = k->is_signed;
	f->base = k->base;
	f->encoding = k->encoding;
	f->length = k->length;
	if (k->flags & LTT_KABI_FIELD_BIG_ENDIAN)
		f->flags = LTT_UST_FIELD_BIG_ENDIAN;
	f->enum_name = (char *)"";
	if (en) {	/* an integer written as a kernel enumeration, as lttng-modules does */
		f->type = LTT_UST_TYPE_ENUM;
		f->enum_name = (char *)en->name;
		f->nr_enum_entries = en->nr_entries;
		f->enum_entries = (struct ltt_ust_enum_entry *)en->entries;
		return true;
	}
	return k->type != LTT_UST_TYPE_FLOAT && k->type != LTT_UST_TYPE_ENUM;
}

/*
 * A bit array or sequence (struct ltt_kabi_field's @bits 1): one-bit
 * elements, as lttng-modules declares ctf_array_bitfield's and
 * ctf_sequence_bitfield's (the sequence's count in bits before it).
 */
static bool kernel_bits_ok(const struct ltt_kabi_field *k)
{
	return k->bits == 1 && !k->flags && !k->enum_id && !k->is_signed && !k->encoding &&
	       k->base == 10 && (k->size == 1 || k->size == 2 || k->size == 4 || k->size == 8) &&
	       ((k->type == LTT_KABI_FIELD_ARRAY && k->length && !(k->length % (k->size * 8U))) ||
		(k->type == LTT_KABI_FIELD_SEQUENCE && !k->length)) &&
	       kernel_name_valid(k->name, sizeof(k->name), true);
}

static int kernel_bits(struct ltt_meta_event *m, const struct ltt_kabi_field *k)
{
	struct ltt_fc *bit = new_fc(m, LTT_FC_INTEGER), *fc;

	if (!bit)
		return -EINVAL;
	*bit = (struct ltt_fc){ .kind = LTT_FC_INTEGER, .bits = 1, .align = 1, .base = 10 };
	if (k->type == LTT_KABI_FIELD_SEQUENCE)
		return add_sequence(m, k->name, bit, NULL, NULL);
	fc = new_fc(m, LTT_FC_ARRAY);
	if (!fc)
		return -EINVAL;
	fc->length = k->length;
	fc->elem = bit;
	return add_member(m, k->name, fc, false);
}

/* Does @k stand apart from user space's vocabulary (a structure, a bit array)? */
static bool kernel_own(const struct ltt_kabi_field *k)
{
	return ltt_kabi_is_struct(k) ||
	       ((k->type == LTT_KABI_FIELD_ARRAY || k->type == LTT_KABI_FIELD_SEQUENCE) && k->bits);
}

/*
 * Structure @fields[@i] (ltt_kabi_struct_ok()): whole-byte integers or
 * bit fields packed at bit 1, and structures, aligned on 8 bits as every
 * field.  Its members go to m->fms, after those of the structures in it.
 */
static struct ltt_fc *kernel_struct(struct ltt_meta_event *m, const struct ltt_kabi_field *fields,
				    uint32_t i)
{
	uint32_t j, end = i + 1 + fields[i].length, nr = 0;
	const struct ltt_kabi_field *k;
	struct ltt_fc *fc = new_fc(m, LTT_FC_STRUCT), *mc;
	struct ltt_fm members[LTT_KABI_MAX_FIELDS];

	if (!fc)
		return NULL;
	fc->align = 8;
	/* the members' classes first (a nested structure's members go in m->fms before ours) */
	for (j = i + 1; j < end; j = ltt_kabi_next_field(fields, j)) {
		k = &fields[j];
		if (k->type == LTT_KABI_FIELD_STRUCT) {
			mc = kernel_struct(m, fields, j);
		} else {
			mc = new_fc(m, LTT_FC_INTEGER);
			if (mc)
				*mc = (struct ltt_fc){ .kind = LTT_FC_INTEGER,
						       .bits = k->bits ? k->bits : k->size * 8U,
						       .align = k->bits ? 1 : 8, .base = k->base,
						       .is_signed = k->is_signed };
		}
		if (!mc)
			return NULL;
		members[nr++] = (struct ltt_fm){ .name = k->name, .fc = mc };
	}
	if (m->nr_fms + nr > LTT_KABI_MAX_FIELDS)
		return NULL;
	memcpy(&m->fms[m->nr_fms], members, nr * sizeof(members[0]));
	fc->members = &m->fms[m->nr_fms];
	fc->nr_members = nr;
	m->nr_fms += nr;
	return fc;
}

int ltt_meta_describe_kernel(struct ltt_meta_event *m, const struct ltt_kabi_event_desc *desc,
			  uint32_t event_id, uint32_t stream_id)
{
	struct ltt_app_field fields[LTT_KABI_MAX_FIELDS];
	struct ltt_app_tracepoint tp = { .name = (char *)"k:k", .fields = fields };
	const struct ltt_kabi_field *k;
	struct ltt_fc *fc, *seq;
	const char *len;
	uint32_t i, n = 0;

	if (!m || !desc || !kernel_name_valid(desc->name, sizeof(desc->name), false) ||
	    desc->nr_fields > LTT_KABI_MAX_FIELDS || !ltt_kabi_structs_ok(desc->fields, desc->nr_fields))
		return -EINVAL;
	/*
	 * The event's own fields (a structure's members aside) as user
	 * space's, checked as theirs are; a structure or a bit array stands
	 * there as an integer of its name, for the names' check
	 */
	for (i = 0; i < desc->nr_fields; i = ltt_kabi_next_field(desc->fields, i), n++) {
		k = &desc->fields[i];
		if (!kernel_own(k) ? !kernel_field(k, &fields[n]) :
		    ltt_kabi_is_struct(k) ? !kernel_name_valid(k->name, sizeof(k->name), true) :
		    !kernel_bits_ok(k))
			return -EINVAL;
		if (kernel_own(k))
			fields[n] = (struct ltt_app_field){ .name = (char *)k->name, .enum_name = (char *)"",
							    .type = LTT_UST_TYPE_INTEGER, .size = 1, .base = 10 };
	}
	tp.nr_fields = n;
	if (!ltt_app_tracepoint_valid(&tp))
		return -EINVAL;
	memcpy(m->kernel_name, desc->name, sizeof(m->kernel_name));
	event_begin(m, m->kernel_name, event_id, stream_id);
	for (i = 0, n = 0; i < desc->nr_fields; n++) {
		k = &desc->fields[i];
		if (!kernel_own(k)) {
			if (app_field(m, fields, n))
				return -EINVAL;
		} else if (!ltt_kabi_is_struct(k)) {
			if (kernel_bits(m, k))
				return -EINVAL;
		} else {
			fc = kernel_struct(m, desc->fields, i);
			if (fc && k->type == LTT_KABI_FIELD_STRUCT_SEQUENCE) {
				/* counted by NAME_length, a field before (ltt_kabi_struct_count()) */
				seq = new_fc(m, LTT_FC_SEQUENCE);
				len = length_name(m, "", k->name);
				if (seq && len) {
					seq->elem = fc;
					seq->length_field = len;
				}
				fc = seq && len ? seq : NULL;
			}
			if (add_member(m, k->name, fc, false))
				return -EINVAL;
		}
		i = ltt_kabi_next_field(desc->fields, i);
	}
	payload_end(m);
	return 0;
}

/* ---- contexts ---- */

int ltt_meta_describe_contexts(struct ltt_meta_ctx *m, const struct ltt_ctx *ctx, uint32_t nr_ctx)
{
	struct ltt_ctx_shape shape;
	struct ltt_fc *fc, *elem;
	uint32_t i, len;

	if (!m || (nr_ctx && !ctx) || nr_ctx > LTT_CTX_MAX)
		return -EINVAL;
	memset(&m->fields, 0, sizeof(m->fields));
	m->fields.kind = LTT_FC_STRUCT;
	m->fields.align = 8;	/* after the event header, aligned as it */
	m->fields.members = m->fms;
	for (i = 0; i < nr_ctx; i++) {
		if (!ltt_ctx_check(&ctx[i]) || !ltt_ctx_shape(&ctx[i], &shape, &len))
			return -EINVAL;
		elem = &m->fcs[2 * i];
		fc = &m->fcs[2 * i + 1];
		*elem = (struct ltt_fc){ .kind = LTT_FC_INTEGER, .bits = shape.bits, .align = 8,
					 .base = shape.base, .is_signed = shape.is_signed,
					 .utf8 = shape.text };
		*fc = (struct ltt_fc){ .kind = LTT_FC_ARRAY, .length = len, .elem = elem };
		ltt_ctx_field_name(&ctx[i], m->names[i]);
		m->fms[i] = (struct ltt_fm){ .name = m->names[i], .fc = shape.text ? fc : elem };
	}
	m->fields.nr_members = nr_ctx;
	return 0;
}

/* ---- the trace ---- */

static void env_str(struct ltt_meta_header *h, const char *key, const char *str)
{
	h->env[h->nr_env++] = (struct ltt_meta_env){ .key = key, .str = str };
}

static void env_num(struct ltt_meta_header *h, const char *key, int64_t num)
{
	h->env[h->nr_env++] = (struct ltt_meta_env){ .key = key, .is_num = true, .num = num };
}

/* tracer_name and LTTng's version of it. */
static void env_tracer(struct ltt_meta_header *h, const char *name)
{
	env_str(h, "tracer_name", name);
	env_num(h, "tracer_major", LTT_META_TRACER_MAJOR);
	env_num(h, "tracer_minor", LTT_META_TRACER_MINOR);
	env_num(h, "tracer_patchlevel", LTT_META_TRACER_PATCHLEVEL);
}

void ltt_meta_describe_header(struct ltt_meta_header *h, const struct ltt_meta_trace *t)
{
	h->trace = t;
	h->nr_env = 0;
	env_str(h, "hostname", t->hostname);
	if (t->kernel_release) {
		env_str(h, "domain", "kernel");
		env_str(h, "sysname", t->sysname);
		env_str(h, "kernel_release", t->kernel_release);
		env_str(h, "kernel_version", t->kernel_version);
		env_tracer(h, LTT_META_KERNEL_TRACER_NAME);
		env_str(h, "trace_buffering_scheme", t->buffering);
	} else {
		env_str(h, "domain", "ust");
		env_tracer(h, LTT_META_TRACER_NAME);
		env_str(h, "tracer_buffering_scheme", t->buffering);
		env_num(h, "tracer_buffering_id", t->buffering_id);
	}
	env_num(h, "architecture_bit_width", t->bits_per_long);
	env_str(h, "trace_name", t->trace_name);
	env_str(h, "trace_creation_datetime", t->creation_datetime);
	if (t->procname) {
		env_num(h, "vpid", t->vpid);
		env_str(h, "procname", t->procname);
		if (t->vpid_datetime)
			env_str(h, "vpid_datetime", t->vpid_datetime);
	}
	env_str(h, "ltt_tracer_name", "ltt");
	env_str(h, "ltt_version", PACKAGE_VERSION);
	if (t->kernel_backend)
		env_str(h, "ltt_kernel_backend", t->kernel_backend);
	if (t->syscall_strings)
		env_str(h, "ltt_syscall_strings", t->syscall_strings);
	if (t->clock_name) {
		env_str(h, "ltt_clock", t->clock_name);
		env_str(h, "ltt_clock_reason", t->clock_why);
		env_str(h, "ltt_clock_read", t->clock_read);
	}
	h->clock = (struct ltt_meta_clock){ .name = "monotonic", .uuid = t->clock_uuid,
					    .freq = t->clock_freq, .offset_s = t->clock_offset_s,
					    .offset = t->clock_offset };
	if (t->clock_plugin_name) {
		h->clock.name = t->clock_plugin_name;
		h->clock.description = t->clock_plugin_description ? t->clock_plugin_description : "";
	} else if (t->clock_freq) {
		h->clock.description = "Monotonic Clock, counted by the TSC";
	} else {
		h->clock.description = "Monotonic Clock";
		h->clock.plain_ns = true;
		h->clock.freq = 1000000000;
		h->clock.offset_s = t->clock_offset_ns / 1000000000;
		h->clock.offset = (uint64_t)(t->clock_offset_ns % 1000000000);
	}
}
