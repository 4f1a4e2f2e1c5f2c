// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tsdl.c - the metadata text of ltt's traces, user space and kernel
 * (doc/ctf.md).
 *
 * Every public function appends to the caller's buffer through a small
 * emitter that remembers where it started: any failure truncates the
 * buffer back, so a caller never ships half a block.
 */
#include <endian.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/trace/ctf.h"
#include "common/trace/kabi-enum.h"
#include "common/trace/kabi-struct.h"
#include "sessiond/ctrace/tsdl.h"

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define TRACE_BYTE_ORDER "le"
#else
#define TRACE_BYTE_ORDER "be"
#endif

/* An append in progress: @err is the first failure, the buffer is rolled back on it. */
struct emit {
	struct ltt_wbuf *out;
	size_t start;
	int err;
};

static void emit_begin(struct emit *e, struct ltt_wbuf *out)
{
	e->out = out;
	e->start = out->len;
	e->err = out->err;
}

/* Finish: returns 0, or the first error with the buffer back at its start. */
static int emit_end(struct emit *e)
{
	if (!e->err && e->out->err)
		e->err = e->out->err;
	if (e->err)
		e->out->len = e->start;
	return e->err;
}

static void put_fmt(struct emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put_fmt(struct emit *e, const char *fmt, ...)
{
	va_list ap;
	char *dst;
	int len;

	if (e->err)
		return;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0) {
		e->err = -EINVAL;
		return;
	}
	/* One more byte for vsnprintf's NUL, then given back. */
	dst = ltt_wbuf_reserve(e->out, (size_t)len + 1);
	if (!dst) {
		e->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(dst, (size_t)len + 1, fmt, ap);
	va_end(ap);
	e->out->len--;
}

static void put_text(struct emit *e, const char *s)
{
	put_fmt(e, "%s", s);
}

/*
 * @s as a TSDL string literal: in double quotes, with backslash and
 * double quote escaped.  NULL or a control character (C0 or DEL) fails
 * with -EINVAL; other bytes (UTF-8) go through.
 */
static void put_quoted(struct emit *e, const char *s)
{
	const char *p;

	if (!s) {
		e->err = e->err ? e->err : -EINVAL;
		return;
	}
	put_text(e, "\"");
	for (p = s; *p && !e->err; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			e->err = -EINVAL;
		else if (c == '\\' || c == '"')
			put_fmt(e, "\\%c", c);
		else
			ltt_wbuf_put_u8(e->out, c);
	}
	put_text(e, "\"");
}

static void put_uuid(struct emit *e, const uint8_t *u)
{
	put_fmt(e, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
		u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
		u[12], u[13], u[14], u[15]);
}

/* ---- trace header ---- */

static const char typealiases[] =
	"typealias integer { size = 8; align = 8; signed = false; } := uint8_t;\n"
	"typealias integer { size = 16; align = 8; signed = false; } := uint16_t;\n"
	"typealias integer { size = 32; align = 8; signed = false; } := uint32_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := uint64_t;\n"
	"typealias integer { size = 64; align = 8; signed = false; } := unsigned long;\n"
	"typealias integer { size = 5; align = 1; signed = false; } := uint5_t;\n"
	"typealias integer { size = 27; align = 1; signed = false; } := uint27_t;\n"
	"\n";

/*
 * The clock's integer types: mapped to the clock by its name (a clock
 * plugin's, or monotonic), their own names the same whatever the clock.
 */
#define CLOCK_TYPEALIASES_FMT \
	"typealias integer {\n" \
	"\tsize = 27; align = 1; signed = false;\n" \
	"\tmap = clock.%s.value;\n" \
	"} := uint27_clock_monotonic_t;\n" \
	"\n" \
	"typealias integer {\n" \
	"\tsize = 32; align = 8; signed = false;\n" \
	"\tmap = clock.%s.value;\n" \
	"} := uint32_clock_monotonic_t;\n" \
	"\n" \
	"typealias integer {\n" \
	"\tsize = 64; align = 8; signed = false;\n" \
	"\tmap = clock.%s.value;\n" \
	"} := uint64_clock_monotonic_t;\n" \
	"\n"

static const char clock_structs[] =
	"struct packet_context {\n"
	"\tuint64_clock_monotonic_t timestamp_begin;\n"
	"\tuint64_clock_monotonic_t timestamp_end;\n"
	"\tuint64_t content_size;\n"
	"\tuint64_t packet_size;\n"
	"\tuint64_t packet_seq_num;\n"
	"\tunsigned long events_discarded;\n"
	"\tuint32_t cpu_id;\n"
	"} align(8);\n"
	"\n"
	"struct event_header_compact {\n"
	"\tenum : uint5_t { compact = 0 ... 30, extended = 31 } id;\n"
	"\tvariant <id> {\n"
	"\t\tstruct {\n"
	"\t\t\tuint27_clock_monotonic_t timestamp;\n"
	"\t\t} compact;\n"
	"\t\tstruct {\n"
	"\t\t\tuint32_t id;\n"
	"\t\t\tuint64_clock_monotonic_t timestamp;\n"
	"\t\t} extended;\n"
	"\t} v;\n"
	"} align(8);\n"
	"\n";

static bool trace_valid(const struct ltt_tsdl_trace *t)
{
	bool kernel_fields = t->sysname || t->kernel_release || t->kernel_version ||
			     t->kernel_backend;

	if (!t->buffering || (t->bits_per_long != 32 && t->bits_per_long != 64) ||
	    t->clock_offset_ns < 0 || (t->clock_freq && t->clock_offset >= t->clock_freq) ||
	    !t->clock_name != !t->clock_why || !t->clock_name != !t->clock_read)
		return false;
	if (!strcmp(t->buffering, "global"))
		return t->vpid < 0 && !t->procname && t->sysname && t->kernel_release &&
		       t->kernel_version;
	if (kernel_fields)
		return false;
	if (!strcmp(t->buffering, "pid"))
		return t->vpid >= 0 && t->procname;
	if (!strcmp(t->buffering, "uid"))
		return t->vpid < 0 && !t->procname;
	return false;
}

/* One "\tkey = "value";" line of env. */
static void put_env_str(struct emit *e, const char *key, const char *value)
{
	put_fmt(e, "\t%s = ", key);
	put_quoted(e, value);
	put_text(e, ";\n");
}

/* tracer_name and LTTng's version of it. */
static void put_env_tracer(struct emit *e, const char *name)
{
	put_env_str(e, "tracer_name", name);
	put_fmt(e, "\ttracer_major = %d;\n", LTT_TSDL_TRACER_MAJOR);
	put_fmt(e, "\ttracer_minor = %d;\n", LTT_TSDL_TRACER_MINOR);
	put_fmt(e, "\ttracer_patchlevel = %d;\n", LTT_TSDL_TRACER_PATCHLEVEL);
}

static void put_env_ust(struct emit *e, const struct ltt_tsdl_trace *t)
{
	put_env_str(e, "domain", "ust");
	put_env_tracer(e, LTT_TSDL_TRACER_NAME);
	put_env_str(e, "tracer_buffering_scheme", t->buffering);
	put_fmt(e, "\ttracer_buffering_id = %" PRIu32 ";\n", t->buffering_id);
	put_fmt(e, "\tarchitecture_bit_width = %" PRIu32 ";\n", t->bits_per_long);
}

static void put_env_kernel(struct emit *e, const struct ltt_tsdl_trace *t)
{
	put_env_str(e, "domain", "kernel");
	put_env_str(e, "sysname", t->sysname);
	put_env_str(e, "kernel_release", t->kernel_release);
	put_env_str(e, "kernel_version", t->kernel_version);
	put_env_tracer(e, LTT_TSDL_KERNEL_TRACER_NAME);
	put_env_str(e, "trace_buffering_scheme", t->buffering);
	put_fmt(e, "\tarchitecture_bit_width = %" PRIu32 ";\n", t->bits_per_long);
}

static void put_env(struct emit *e, const struct ltt_tsdl_trace *t)
{
	put_text(e, "env {\n");
	put_env_str(e, "hostname", t->hostname);
	if (t->kernel_release)
		put_env_kernel(e, t);
	else
		put_env_ust(e, t);
	put_env_str(e, "trace_name", t->trace_name);
	put_env_str(e, "trace_creation_datetime", t->creation_datetime);
	if (t->procname) {
		put_fmt(e, "\tvpid = %" PRId32 ";\n", t->vpid);
		put_env_str(e, "procname", t->procname);
		if (t->vpid_datetime)
			put_env_str(e, "vpid_datetime", t->vpid_datetime);
	}
	put_env_str(e, "ltt_tracer_name", "ltt");
	put_env_str(e, "ltt_version", PACKAGE_VERSION);
	if (t->kernel_backend)
		put_env_str(e, "ltt_kernel_backend", t->kernel_backend);
	if (t->syscall_strings)
		put_env_str(e, "ltt_syscall_strings", t->syscall_strings);
	if (t->clock_name) {
		put_env_str(e, "ltt_clock", t->clock_name);
		put_env_str(e, "ltt_clock_reason", t->clock_why);
		put_env_str(e, "ltt_clock_read", t->clock_read);
	}
	put_text(e, "};\n\n");
}

int ltt_tsdl_trace_header(struct ltt_wbuf *out, const struct ltt_tsdl_trace *t)
{
	const char *map;
	struct emit e;

	if (!out || !t || !trace_valid(t))
		return -EINVAL;
	emit_begin(&e, out);
	put_text(&e, "/* CTF 1.8 */\n\n");
	put_text(&e, typealiases);
	put_text(&e, "trace {\n"
		     "\tmajor = 1;\n"
		     "\tminor = 8;\n"
		     "\tuuid = ");
	put_uuid(&e, t->uuid);
	put_text(&e, ";\n"
		     "\tbyte_order = " TRACE_BYTE_ORDER ";\n"
		     "\tpacket.header := struct {\n"
		     "\t\tuint32_t magic;\n"
		     "\t\tuint8_t uuid[16];\n"
		     "\t\tuint32_t stream_id;\n"
		     "\t\tuint64_t stream_instance_id;\n"
		     "\t} align(8);\n"
		     "};\n\n");
	put_env(&e, t);
	put_text(&e, "clock {\n"
		     "\tname = ");
	put_quoted(&e, t->clock_plugin_name ? t->clock_plugin_name : "monotonic");
	put_text(&e, ";\n"
		     "\tuuid = ");
	put_uuid(&e, t->clock_uuid);
	if (t->clock_plugin_name) {
		put_text(&e, ";\n"
			     "\tdescription = ");
		put_quoted(&e, t->clock_plugin_description ? t->clock_plugin_description : "");
		put_fmt(&e, ";\n"
			    "\tfreq = %" PRIu64 ";\n"
			    "\toffset_s = %" PRId64 ";\n"
			    "\toffset = %" PRIu64 ";\n"
			    "};\n\n", t->clock_freq, t->clock_offset_s, t->clock_offset);
	} else if (t->clock_freq)
		put_fmt(&e, ";\n"
			    "\tdescription = \"Monotonic Clock, counted by the TSC\";\n"
			    "\tfreq = %" PRIu64 ";\n"
			    "\toffset_s = %" PRId64 ";\n"
			    "\toffset = %" PRIu64 ";\n"
			    "};\n\n", t->clock_freq, t->clock_offset_s, t->clock_offset);
	else
		put_fmt(&e, ";\n"
			    "\tdescription = \"Monotonic Clock\";\n"
			    "\tfreq = 1000000000;\n"
			    "\toffset = %" PRId64 ";\n"
			    "};\n\n", t->clock_offset_ns);
	map = t->clock_plugin_name ? t->clock_plugin_name : "monotonic";
	put_fmt(&e, CLOCK_TYPEALIASES_FMT, map, map, map);
	put_text(&e, clock_structs);
	return emit_end(&e);
}

/*
 * The packet context of a per-channel stream: the same bytes as struct
 * packet_context, but no cpu_id, as LTTng 2.14 writes none in a buffer
 * that every CPU writes (its 4 bytes are there, always 0, under another
 * name, so that no reader takes the stream for CPU 0's).
 */
static const char per_channel_context[] =
	"\tpacket.context := struct {\n"
	"\t\tuint64_clock_monotonic_t timestamp_begin;\n"
	"\t\tuint64_clock_monotonic_t timestamp_end;\n"
	"\t\tuint64_t content_size;\n"
	"\t\tuint64_t packet_size;\n"
	"\t\tuint64_t packet_seq_num;\n"
	"\t\tunsigned long events_discarded;\n"
	"\t\tuint32_t _ltt_padding;\n"
	"\t} align(8);\n";

static int put_stream(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		      const struct ltt_ctx *ctx, uint32_t nr_ctx)
{
	char field[LTT_CTX_NAME_MAX];
	const char *type, *suffix;
	struct emit e;
	uint32_t i;

	if (!out || (nr_ctx && !ctx))
		return -EINVAL;
	for (i = 0; i < nr_ctx; i++)
		if (!ltt_ctx_check(&ctx[i]))
			return -EINVAL;
	emit_begin(&e, out);
	put_fmt(&e, "stream {\n"
		    "\tid = %" PRIu32 ";\n"
		    "\tevent.header := struct event_header_compact;\n", stream_id);
	put_text(&e, per_channel ? per_channel_context :
				   "\tpacket.context := struct packet_context;\n");
	if (nr_ctx) {
		put_text(&e, "\tevent.context := struct {\n");
		for (i = 0; i < nr_ctx; i++) {
			type = ltt_ctx_tsdl_type(&ctx[i], &suffix);
			ltt_ctx_field_name(&ctx[i], field);
			put_fmt(&e, "\t\t%s _%s%s;\n", type, field, suffix);
		}
		put_text(&e, "\t} align(8);\n");
	}
	put_text(&e, "};\n\n");
	return emit_end(&e);
}

int ltt_tsdl_stream(struct ltt_wbuf *out, uint32_t stream_id, const struct ltt_ctx *ctx,
		    uint32_t nr_ctx)
{
	return put_stream(out, stream_id, false, ctx, nr_ctx);
}

int ltt_tsdl_stream_per_channel(struct ltt_wbuf *out, uint32_t stream_id,
				const struct ltt_ctx *ctx, uint32_t nr_ctx)
{
	return put_stream(out, stream_id, true, ctx, nr_ctx);
}

/* ---- events ---- */

/* The byte order of @f's value (each element), in the trace's words. */
static const char *byte_order(const struct ltt_app_field *f)
{
	return f->flags & LTT_UST_FIELD_BIG_ENDIAN ? "be" : "native";
}

/*
 * "integer { ... }" for an integer, an enum container or an element.  The
 * byte order is written only when it is not the trace's: ltt's own
 * fields' text stays as it was.
 */
static void put_integer(struct emit *e, const struct ltt_app_field *f)
{
	put_fmt(e, "integer { size = %u; align = 8; signed = %u; encoding = %s; base = %u;%s }",
		f->size * 8U, f->is_signed, f->encoding == LTT_UST_ENCODING_UTF8 ? "UTF8" : "none",
		f->base, f->flags & LTT_UST_FIELD_BIG_ENDIAN ? " byte_order = be;" : "");
}

static void put_enum_value(struct emit *e, const struct ltt_app_field *f, int64_t v)
{
	if (f->is_signed)
		put_fmt(e, "%" PRId64, v);
	else
		put_fmt(e, "%" PRIu64, (uint64_t)v);
}

static void put_enum(struct emit *e, const struct ltt_app_field *f)
{
	uint32_t i;

	put_text(e, "enum : ");
	put_integer(e, f);
	put_text(e, " {\n");
	for (i = 0; i < f->nr_enum_entries; i++) {
		const struct ltt_ust_enum_entry *entry = &f->enum_entries[i];

		put_text(e, "\t\t\t");
		put_quoted(e, entry->label);
		put_text(e, " = ");
		put_enum_value(e, f, entry->start);
		if (entry->end != entry->start) {
			put_text(e, " ... ");
			put_enum_value(e, f, entry->end);
		}
		put_text(e, i + 1 < f->nr_enum_entries ? ",\n" : "\n");
	}
	put_text(e, "\t\t}");
}

/* Field @i of @fields (a sequence may count with the field before it). */
static void put_field(struct emit *e, const struct ltt_app_field *fields, uint32_t i)
{
	const struct ltt_app_field *f = &fields[i];

	if (f->flags & LTT_UST_FIELD_NOWRITE)
		return;		/* a value for filters only */
	put_text(e, "\t\t");
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
		put_integer(e, f);
		put_fmt(e, " _%s;\n", f->name);
		break;
	case LTT_UST_TYPE_FLOAT:
		put_fmt(e, "floating_point { exp_dig = %u; mant_dig = %u; "
			   "byte_order = %s; align = 8; } _%s;\n",
			f->size == 4 ? 8U : 11U, f->size == 4 ? 24U : 53U, byte_order(f), f->name);
		break;
	case LTT_UST_TYPE_STRING:
		put_fmt(e, "string { encoding = UTF8; } _%s;\n", f->name);
		break;
	case LTT_UST_TYPE_ARRAY:
		put_integer(e, f);
		put_fmt(e, " _%s[%" PRIu32 "];\n", f->name, f->length);
		break;
	case LTT_UST_TYPE_SEQUENCE:
		if (f->flags & LTT_UST_FIELD_LENGTH_BEFORE) {
			/* the count is the field before (ltt_app_tracepoint_valid()) */
			put_integer(e, f);
			put_fmt(e, " _%s[ _%s ];\n", f->name, fields[i - 1].name);
			break;
		}
		/* LTTng's length field: _NAME_length, as readers show it */
		put_fmt(e, "uint32_t __%s_length;\n\t\t", f->name);
		put_integer(e, f);
		put_fmt(e, " _%s[ __%s_length ];\n", f->name, f->name);
		break;
	case LTT_UST_TYPE_ENUM:
		put_enum(e, f);
		put_fmt(e, " _%s;\n", f->name);
		break;
	default:
		e->err = -EINVAL;	/* ltt_app_tracepoint_valid() let it through? */
		break;
	}
}

static void put_event_head(struct emit *e, const char *name, uint32_t event_id,
			   uint32_t stream_id)
{
	put_text(e, "event {\n\tname = ");
	put_quoted(e, name);
	put_fmt(e, ";\n"
		   "\tid = %" PRIu32 ";\n"
		   "\tstream_id = %" PRIu32 ";\n", event_id, stream_id);
}

int ltt_tsdl_event(struct ltt_wbuf *out, const struct ltt_app_tracepoint *tp, uint32_t event_id,
		   uint32_t stream_id)
{
	struct emit e;
	uint32_t i;

	if (!out || !ltt_app_tracepoint_valid(tp))
		return -EINVAL;
	emit_begin(&e, out);
	put_event_head(&e, tp->name, event_id, stream_id);
	put_fmt(&e, "\tloglevel = %" PRId32 ";\n"
		    "\tfields := struct {\n", tp->loglevel);
	for (i = 0; i < tp->nr_fields; i++)
		put_field(&e, tp->fields, i);
	put_text(&e, "\t};\n};\n\n");
	return emit_end(&e);
}

int ltt_tsdl_torn_events(struct ltt_wbuf *out, uint32_t stream_id)
{
	static const char *const payload[] = {
		"",
		"\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _skip_length;\n"
		"\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 16; } _skip[ _skip_length ];\n",
		"\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } _skip_length;\n"
		"\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 16; } _skip[ _skip_length ];\n",
	};
	struct emit e;
	uint32_t i;

	if (!out)
		return -EINVAL;
	emit_begin(&e, out);
	for (i = 0; i < 3; i++) {
		put_event_head(&e, LTT_CTF_TORN_NAME, LTT_CTF_TORN_ID_EMPTY + i, stream_id);
		put_fmt(&e, "\tfields := struct {\n%s\t};\n};\n\n", payload[i]);
	}
	return emit_end(&e);
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

static void put_bits(struct emit *e, const struct ltt_kabi_field *k)
{
	static const char bit[] =
		"integer { size = 1; align = 1; signed = 0; encoding = none; base = 10; }";

	if (k->type == LTT_KABI_FIELD_ARRAY) {
		put_fmt(e, "\t\t%s _%s[%" PRIu32 "];\n", bit, k->name, k->length);
		return;
	}
	put_fmt(e, "\t\tuint32_t __%s_length;\n", k->name);
	put_fmt(e, "\t\t%s _%s[ __%s_length ];\n", bit, k->name, k->name);
}

/* Does @k stand apart from user space's vocabulary (a structure, a bit array)? */
static bool kernel_own(const struct ltt_kabi_field *k)
{
	return ltt_kabi_is_struct(k) ||
	       ((k->type == LTT_KABI_FIELD_ARRAY || k->type == LTT_KABI_FIELD_SEQUENCE) && k->bits);
}

/* A structure's member integer: whole bytes, or a bit field packed at bit 1. */
static void put_member_integer(struct emit *e, const struct ltt_kabi_field *m)
{
	put_fmt(e, "integer { size = %u; align = %u; signed = %u; encoding = none; base = %u; }",
		m->bits ? m->bits : m->size * 8U, m->bits ? 1U : 8U, m->is_signed, m->base);
}

/* Structure @fields[@i] (ltt_kabi_struct_ok()): "struct { ... }"; the field after it. */
static uint32_t put_struct(struct emit *e, const struct ltt_kabi_field *fields, uint32_t i,
			   unsigned int depth)
{
	uint32_t j, end = i + 1 + fields[i].length;
	unsigned int t;

	put_text(e, "struct {\n");
	for (j = i + 1; j < end;) {
		for (t = 0; t < depth + 2; t++)
			put_text(e, "\t");
		if (fields[j].type == LTT_KABI_FIELD_STRUCT) {
			(void)put_struct(e, fields, j, depth + 1);
		} else {
			put_member_integer(e, &fields[j]);
		}
		put_fmt(e, " _%s;\n", fields[j].name);
		j = ltt_kabi_next_field(fields, j);
	}
	for (t = 0; t < depth + 1; t++)
		put_text(e, "\t");
	put_text(e, "} align(8)");
	return end;
}

int ltt_tsdl_kernel_event(struct ltt_wbuf *out, const struct ltt_kabi_event_desc *desc,
			  uint32_t event_id, uint32_t stream_id)
{
	struct ltt_app_field fields[LTT_KABI_MAX_FIELDS];
	struct ltt_app_tracepoint tp = { .name = (char *)"k:k", .fields = fields };
	const struct ltt_kabi_field *k;
	struct emit e;
	uint32_t i, n = 0;

	if (!out || !desc || !kernel_name_valid(desc->name, sizeof(desc->name), false) ||
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
	emit_begin(&e, out);
	put_event_head(&e, desc->name, event_id, stream_id);
	put_text(&e, "\tfields := struct {\n");
	for (i = 0, n = 0; i < desc->nr_fields; n++) {
		k = &desc->fields[i];
		if (!kernel_own(k)) {
			put_field(&e, fields, n);
			i++;
			continue;
		}
		if (!ltt_kabi_is_struct(k)) {
			put_bits(&e, k);
			i++;
			continue;
		}
		put_text(&e, "\t\t");
		i = put_struct(&e, desc->fields, i, 1);
		if (k->type == LTT_KABI_FIELD_STRUCT)
			put_fmt(&e, " _%s;\n", k->name);
		else	/* counted by NAME_length (ltt_kabi_struct_count()) */
			put_fmt(&e, " _%s[ _%s_length ];\n", k->name, k->name);
	}
	put_text(&e, "\t};\n};\n\n");
	return emit_end(&e);
}
