// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tsdl.c - CTF 1.8's metadata text of ltt's traces, user space and
 * kernel (doc/ctf.md), written from the model (meta-model.h).
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "sessiond/ctrace/meta-emit.h"
#include "sessiond/ctrace/tsdl.h"

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define TRACE_BYTE_ORDER "le"
#else
#define TRACE_BYTE_ORDER "be"
#endif

/*
 * @s as a TSDL string literal: in double quotes, with backslash and
 * double quote escaped.  NULL or a control character (C0 or DEL) fails
 * with -EINVAL; other bytes (UTF-8) go through.
 */
static void put_quoted(struct ltt_emit *e, const char *s)
{
	const char *p;

	if (!s) {
		ltt_emit_fail(e, -EINVAL);
		return;
	}
	ltt_emit_text(e, "\"");
	for (p = s; *p && !e->err; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			ltt_emit_fail(e, -EINVAL);
		else if (c == '\\' || c == '"')
			ltt_emit_fmt(e, "\\%c", c);
		else
			ltt_wbuf_put_u8(e->out, c);
	}
	ltt_emit_text(e, "\"");
}

static void put_uuid(struct ltt_emit *e, const uint8_t *u)
{
	ltt_emit_fmt(e, "\"%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x\"",
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

static void put_env(struct ltt_emit *e, const struct ltt_meta_header *h)
{
	const struct ltt_meta_env *env;
	uint32_t i;

	ltt_emit_text(e, "env {\n");
	for (i = 0; i < h->nr_env; i++) {
		env = &h->env[i];
		ltt_emit_fmt(e, "\t%s = ", env->key);
		if (env->is_num)
			ltt_emit_fmt(e, "%" PRId64, env->num);
		else
			put_quoted(e, env->str);
		ltt_emit_text(e, ";\n");
	}
	ltt_emit_text(e, "};\n\n");
}

int ltt_tsdl_trace_header(struct ltt_wbuf *out, const struct ltt_meta_header *h)
{
	const struct ltt_meta_clock *c = &h->clock;
	struct ltt_emit e;

	ltt_emit_begin(&e, out);
	ltt_emit_text(&e, "/* CTF 1.8 */\n\n");
	ltt_emit_text(&e, typealiases);
	ltt_emit_text(&e, "trace {\n"
			  "\tmajor = 1;\n"
			  "\tminor = 8;\n"
			  "\tuuid = ");
	put_uuid(&e, h->trace->uuid);
	ltt_emit_text(&e, ";\n"
			  "\tbyte_order = " TRACE_BYTE_ORDER ";\n"
			  "\tpacket.header := struct {\n"
			  "\t\tuint32_t magic;\n"
			  "\t\tuint8_t uuid[16];\n"
			  "\t\tuint32_t stream_id;\n"
			  "\t\tuint64_t stream_instance_id;\n"
			  "\t} align(8);\n"
			  "};\n\n");
	put_env(&e, h);
	ltt_emit_text(&e, "clock {\n"
			  "\tname = ");
	put_quoted(&e, c->name);
	ltt_emit_text(&e, ";\n"
			  "\tuuid = ");
	put_uuid(&e, c->uuid);
	ltt_emit_text(&e, ";\n"
			  "\tdescription = ");
	put_quoted(&e, c->description);
	if (c->plain_ns)	/* one offset, in ns */
		ltt_emit_fmt(&e, ";\n"
				 "\tfreq = 1000000000;\n"
				 "\toffset = %" PRId64 ";\n"
				 "};\n\n", h->trace->clock_offset_ns);
	else
		ltt_emit_fmt(&e, ";\n"
				 "\tfreq = %" PRIu64 ";\n"
				 "\toffset_s = %" PRId64 ";\n"
				 "\toffset = %" PRIu64 ";\n"
				 "};\n\n", c->freq, c->offset_s, c->offset);
	ltt_emit_fmt(&e, CLOCK_TYPEALIASES_FMT, c->name, c->name, c->name);
	ltt_emit_text(&e, clock_structs);
	return ltt_emit_end(&e);
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

static void put_members(struct ltt_emit *e, const struct ltt_fc *fc, unsigned int level);

int ltt_tsdl_stream(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		    const struct ltt_fc *ctx)
{
	struct ltt_emit e;

	ltt_emit_begin(&e, out);
	ltt_emit_fmt(&e, "stream {\n"
			 "\tid = %" PRIu32 ";\n"
			 "\tevent.header := struct event_header_compact;\n", stream_id);
	ltt_emit_text(&e, per_channel ? per_channel_context :
					"\tpacket.context := struct packet_context;\n");
	if (ctx->nr_members) {
		ltt_emit_text(&e, "\tevent.context := struct {\n");
		put_members(&e, ctx, 0);
		ltt_emit_text(&e, "\t} align(8);\n");
	}
	ltt_emit_text(&e, "};\n\n");
	return ltt_emit_end(&e);
}

/* ---- field classes ---- */

/*
 * "integer { ... }".  The byte order is written only when it is not the
 * trace's: ltt's own fields' text stays as it was.
 */
static void put_integer(struct ltt_emit *e, const struct ltt_fc *fc)
{
	ltt_emit_fmt(e, "integer { size = %u; align = %u; signed = %u; encoding = %s; base = %u;%s }",
		     fc->bits, fc->align, fc->is_signed, fc->utf8 ? "UTF8" : "none", fc->base,
		     fc->big_endian ? " byte_order = be;" : "");
}

static void put_enum_value(struct ltt_emit *e, const struct ltt_fc *fc, int64_t v)
{
	if (fc->is_signed)
		ltt_emit_fmt(e, "%" PRId64, v);
	else
		ltt_emit_fmt(e, "%" PRIu64, (uint64_t)v);
}

static void put_enum(struct ltt_emit *e, const struct ltt_fc *fc)
{
	uint32_t i;

	ltt_emit_text(e, "enum : ");
	put_integer(e, fc);
	ltt_emit_text(e, " {\n");
	for (i = 0; i < fc->nr_mappings; i++) {
		const struct ltt_ust_enum_entry *entry = &fc->mappings[i];

		ltt_emit_text(e, "\t\t\t");
		put_quoted(e, entry->label);
		ltt_emit_text(e, " = ");
		put_enum_value(e, fc, entry->start);
		if (entry->end != entry->start) {
			ltt_emit_text(e, " ... ");
			put_enum_value(e, fc, entry->end);
		}
		ltt_emit_text(e, i + 1 < fc->nr_mappings ? ",\n" : "\n");
	}
	ltt_emit_text(e, "\t\t}");
}

static void put_tabs(struct ltt_emit *e, unsigned int n)
{
	while (n--)
		ltt_emit_text(e, "\t");
}

/* The type of a member at @level (0: an event's fields), before its name. */
static void put_type(struct ltt_emit *e, const struct ltt_fc *fc, unsigned int level)
{
	switch (fc->kind) {
	case LTT_FC_INTEGER:
		if (fc->nr_mappings)
			put_enum(e, fc);
		else
			put_integer(e, fc);
		break;
	case LTT_FC_FLOAT:
		ltt_emit_fmt(e, "floating_point { exp_dig = %u; mant_dig = %u; "
				"byte_order = %s; align = 8; }",
			     fc->bits == 32 ? 8U : 11U, fc->bits == 32 ? 24U : 53U,
			     fc->big_endian ? "be" : "native");
		break;
	case LTT_FC_STRING:
		ltt_emit_text(e, "string { encoding = UTF8; }");
		break;
	case LTT_FC_ARRAY:
	case LTT_FC_SEQUENCE:
		put_type(e, fc->elem, level);
		break;
	case LTT_FC_STRUCT:
		ltt_emit_text(e, "struct {\n");
		put_members(e, fc, level + 1);
		put_tabs(e, level + 2);
		ltt_emit_text(e, "} align(8)");
		break;
	default:
		ltt_emit_fail(e, -EINVAL);
		break;
	}
}

/* The members of structure @fc, each on a line of its own at @level. */
static void put_members(struct ltt_emit *e, const struct ltt_fc *fc, unsigned int level)
{
	const struct ltt_fm *m;
	uint32_t i;

	for (i = 0; i < fc->nr_members; i++) {
		m = &fc->members[i];
		put_tabs(e, level + 2);
		if (m->implied_length) {
			ltt_emit_fmt(e, "uint32_t _%s;\n", m->name);
			continue;
		}
		put_type(e, m->fc, level);
		ltt_emit_fmt(e, " _%s", m->name);
		if (m->fc->kind == LTT_FC_ARRAY)
			ltt_emit_fmt(e, "[%" PRIu32 "]", m->fc->length);
		else if (m->fc->kind == LTT_FC_SEQUENCE)
			ltt_emit_fmt(e, "[ _%s ]", m->fc->length_field);
		ltt_emit_text(e, ";\n");
	}
}

int ltt_tsdl_event(struct ltt_wbuf *out, const struct ltt_meta_event *m)
{
	struct ltt_emit e;

	ltt_emit_begin(&e, out);
	ltt_emit_text(&e, "event {\n\tname = ");
	put_quoted(&e, m->name);
	ltt_emit_fmt(&e, ";\n"
			 "\tid = %" PRIu32 ";\n"
			 "\tstream_id = %" PRIu32 ";\n", m->id, m->stream_id);
	if (m->has_loglevel)
		ltt_emit_fmt(&e, "\tloglevel = %" PRId32 ";\n", m->loglevel);
	ltt_emit_text(&e, "\tfields := struct {\n");
	put_members(&e, &m->payload, 0);
	ltt_emit_text(&e, "\t};\n};\n\n");
	return ltt_emit_end(&e);
}
