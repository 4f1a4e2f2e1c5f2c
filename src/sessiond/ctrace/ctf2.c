// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ctf2.c - CTF 2's metadata of ltt's traces, user space and kernel
 * (doc/ctf.md), written from the model (meta-model.h) as JSON fragments.
 *
 * A small pretty printer: objects' keys are written by the code in
 * sorted order, each value on its own line at two spaces a level, empty
 * arrays and objects as [] and {}: the text LTTng's own writer makes.
 */
#include <endian.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "common/trace/ctf.h"
#include "sessiond/ctrace/ctf2.h"
#include "sessiond/ctrace/meta-emit.h"

#if __BYTE_ORDER == __LITTLE_ENDIAN
#define HOST_ORDER "little-endian"
#else
#define HOST_ORDER "big-endian"
#endif

#define MAX_DEPTH 24

/* A JSON document being written: where each open container stands. */
struct json {
	struct ltt_emit e;
	unsigned int depth;
	bool has_items[MAX_DEPTH];	/* the open container has a value already */
	bool after_key;			/* the next value completes "key": */
};

static void indent(struct json *j)
{
	unsigned int i;

	ltt_emit_text(&j->e, "\n");
	for (i = 0; i < j->depth; i++)
		ltt_emit_text(&j->e, "  ");
}

/* Before a value: its comma and line, unless it follows its key. */
static void value_start(struct json *j)
{
	if (j->after_key) {
		j->after_key = false;
		return;
	}
	if (!j->depth)
		return;
	if (j->has_items[j->depth - 1])
		ltt_emit_text(&j->e, ",");
	j->has_items[j->depth - 1] = true;
	indent(j);
}

/* @s as a JSON string; a control character fails the document (-EINVAL). */
static void put_string(struct json *j, const char *s)
{
	const char *p;

	if (!s) {
		ltt_emit_fail(&j->e, -EINVAL);
		return;
	}
	ltt_emit_text(&j->e, "\"");
	for (p = s; *p && !j->e.err; p++) {
		unsigned char c = (unsigned char)*p;

		if (c < 0x20 || c == 0x7f)
			ltt_emit_fail(&j->e, -EINVAL);
		else if (c == '\\' || c == '"')
			ltt_emit_fmt(&j->e, "\\%c", c);
		else
			ltt_wbuf_put_u8(j->e.out, c);
	}
	ltt_emit_text(&j->e, "\"");
}

static void open_container(struct json *j, const char *bracket)
{
	value_start(j);
	ltt_emit_text(&j->e, bracket);
	if (j->depth == MAX_DEPTH) {
		ltt_emit_fail(&j->e, -EINVAL);
		return;
	}
	j->has_items[j->depth++] = false;
}

static void close_container(struct json *j, const char *bracket)
{
	bool items;

	if (!j->depth) {
		ltt_emit_fail(&j->e, -EINVAL);
		return;
	}
	items = j->has_items[--j->depth];
	if (items)
		indent(j);
	ltt_emit_text(&j->e, bracket);
}

static void obj_begin(struct json *j)
{
	open_container(j, "{");
}

static void obj_end(struct json *j)
{
	close_container(j, "}");
}

static void arr_begin(struct json *j)
{
	open_container(j, "[");
}

static void arr_end(struct json *j)
{
	close_container(j, "]");
}

static void key(struct json *j, const char *k)
{
	value_start(j);
	put_string(j, k);
	ltt_emit_text(&j->e, ": ");
	j->after_key = true;
}

static void str(struct json *j, const char *s)
{
	value_start(j);
	put_string(j, s);
}

static void num(struct json *j, int64_t v)
{
	value_start(j);
	ltt_emit_fmt(&j->e, "%" PRId64, v);
}

static void unum(struct json *j, uint64_t v)
{
	value_start(j);
	ltt_emit_fmt(&j->e, "%" PRIu64, v);
}

static void key_str(struct json *j, const char *k, const char *s)
{
	key(j, k);
	str(j, s);
}

static void key_num(struct json *j, const char *k, int64_t v)
{
	key(j, k);
	num(j, v);
}

static void key_unum(struct json *j, const char *k, uint64_t v)
{
	key(j, k);
	unum(j, v);
}

/* Start a fragment: its record separator. */
static void fragment_begin(struct json *j)
{
	ltt_emit_fmt(&j->e, "%c", LTT_CTF2_RS);
	j->depth = 0;
	j->after_key = false;
	obj_begin(j);
}

static void put_uuid_string(struct json *j, const uint8_t *u)
{
	char s[37];

	snprintf(s, sizeof(s),
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
		 u[0], u[1], u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11],
		 u[12], u[13], u[14], u[15]);
	str(j, s);
}

/* ---- field classes ---- */

/* Where a sequence's length lies: the structure it is a member of. */
enum scope {
	SCOPE_PAYLOAD,
	SCOPE_CONTEXT,
	SCOPE_FIXED,	/* the packet and event headers: no sequence */
};

static const char *const scope_origin[] = {
	[SCOPE_PAYLOAD] = "event-record-payload",
	[SCOPE_CONTEXT] = "event-record-common-context",
	[SCOPE_FIXED] = NULL,
};

static void put_fc(struct json *j, const struct ltt_fc *fc, enum scope scope);

/* An enumeration's mappings: each label once, with all its ranges, labels sorted. */
static void put_mappings(struct json *j, const struct ltt_fc *fc)
{
	const struct ltt_ust_enum_entry *m = fc->mappings;
	const char *last = NULL, *next;
	uint32_t i, k;

	key(j, "mappings");
	obj_begin(j);
	for (;;) {
		/* the least label above @last */
		next = NULL;
		for (i = 0; i < fc->nr_mappings; i++)
			if ((!last || strcmp(m[i].label, last) > 0) &&
			    (!next || strcmp(m[i].label, next) < 0))
				next = m[i].label;
		if (!next)
			break;
		key(j, next);
		arr_begin(j);
		for (k = 0; k < fc->nr_mappings; k++) {
			if (strcmp(m[k].label, next))
				continue;
			arr_begin(j);
			if (fc->is_signed) {
				num(j, m[k].start);
				num(j, m[k].end);
			} else {
				unum(j, (uint64_t)m[k].start);
				unum(j, (uint64_t)m[k].end);
			}
			arr_end(j);
		}
		arr_end(j);
		last = next;
	}
	obj_end(j);
}

/* An integer's properties after "alignment" and "byte-order", its roles among them. */
static void put_integer(struct json *j, const struct ltt_fc *fc, const char *role)
{
	obj_begin(j);
	key_num(j, "alignment", fc->align);
	key_str(j, "byte-order", fc->big_endian ? "big-endian" : HOST_ORDER);
	key_num(j, "length", fc->bits);
	if (fc->nr_mappings)
		put_mappings(j, fc);
	key_num(j, "preferred-display-base", fc->base);
	if (role) {
		key(j, "roles");
		arr_begin(j);
		str(j, role);
		arr_end(j);
	}
	key_str(j, "type", fc->is_signed ? "fixed-length-signed-integer" :
					   "fixed-length-unsigned-integer");
	obj_end(j);
}

/* Is @fc one byte of UTF-8 text: an array or sequence of them is a string? */
static bool text_byte(const struct ltt_fc *fc)
{
	return fc->kind == LTT_FC_INTEGER && fc->utf8 && fc->bits == 8 && !fc->nr_mappings;
}

static void put_length_location(struct json *j, const struct ltt_fc *fc, enum scope scope)
{
	if (!scope_origin[scope]) {
		ltt_emit_fail(&j->e, -EINVAL);
		return;
	}
	key(j, "length-field-location");
	obj_begin(j);
	key_str(j, "origin", scope_origin[scope]);
	key(j, "path");
	arr_begin(j);
	str(j, fc->length_field);
	arr_end(j);
	obj_end(j);
}

/* A blob's media type, when it has one (readers take application/octet-stream else). */
static void put_media_type(struct json *j, const struct ltt_fc *fc)
{
	if (fc->media_type)
		key_str(j, "media-type", fc->media_type);
}

static void put_members(struct json *j, const struct ltt_fc *fc, enum scope scope)
{
	uint32_t i;

	key(j, "member-classes");
	arr_begin(j);
	for (i = 0; i < fc->nr_members; i++) {
		obj_begin(j);
		key(j, "field-class");
		put_fc(j, fc->members[i].fc, scope);
		key_str(j, "name", fc->members[i].name);
		obj_end(j);
	}
	arr_end(j);
}

/*
 * An array (static length) or a sequence (dynamic): of bytes (a blob),
 * of UTF-8 bytes (a string), or of elements.
 */
static void put_array(struct json *j, const struct ltt_fc *fc, enum scope scope)
{
	bool dynamic = fc->kind == LTT_FC_SEQUENCE;
	bool text = !fc->blob && text_byte(fc->elem);
	char type[32];

	obj_begin(j);
	if (!fc->blob && !text) {
		key(j, "element-field-class");
		put_fc(j, fc->elem, scope);
	}
	if (dynamic)
		put_length_location(j, fc, scope);
	else
		key_unum(j, "length", fc->length);
	if (fc->blob)
		put_media_type(j, fc);
	snprintf(type, sizeof(type), "%s-length-%s", dynamic ? "dynamic" : "static",
		 fc->blob ? "blob" : text ? "string" : "array");
	key_str(j, "type", type);
	obj_end(j);
}

static void put_fc(struct json *j, const struct ltt_fc *fc, enum scope scope)
{
	switch (fc->kind) {
	case LTT_FC_INTEGER:
		put_integer(j, fc, NULL);
		break;
	case LTT_FC_FLOAT:
		obj_begin(j);
		key_num(j, "alignment", fc->align);
		key_str(j, "byte-order", fc->big_endian ? "big-endian" : HOST_ORDER);
		key_num(j, "length", fc->bits);
		key_str(j, "type", "fixed-length-floating-point-number");
		obj_end(j);
		break;
	case LTT_FC_STRING:
		obj_begin(j);
		key_str(j, "type", "null-terminated-string");
		obj_end(j);
		break;
	case LTT_FC_ARRAY:
	case LTT_FC_SEQUENCE:
		put_array(j, fc, scope);
		break;
	case LTT_FC_STRUCT:
		obj_begin(j);
		put_members(j, fc, scope);
		if (fc->align > 1)
			key_num(j, "minimum-alignment", fc->align);
		key_str(j, "type", "structure");
		obj_end(j);
		break;
	default:
		ltt_emit_fail(&j->e, -EINVAL);
		break;
	}
}

/* ---- the fixed structures: packet header and context, event header ---- */

/* A member of a fixed structure: an unsigned integer, with a role or none. */
struct fixed {
	const char *name;
	uint16_t bits;
	uint8_t align;
	uint8_t base;
	const char *role;
};

static void put_fixed_member(struct json *j, const struct fixed *f)
{
	struct ltt_fc fc = { .kind = LTT_FC_INTEGER, .bits = f->bits, .align = f->align,
			     .base = f->base };

	obj_begin(j);
	key(j, "field-class");
	put_integer(j, &fc, f->role);
	key_str(j, "name", f->name);
	obj_end(j);
}

/* A structure of the @n members @f, aligned on @align bits (1: no key). */
static void put_fixed_struct(struct json *j, const struct fixed *f, size_t n, unsigned int align)
{
	size_t i;

	obj_begin(j);
	key(j, "member-classes");
	arr_begin(j);
	for (i = 0; i < n; i++)
		put_fixed_member(j, &f[i]);
	arr_end(j);
	if (align > 1)
		key_num(j, "minimum-alignment", align);
	key_str(j, "type", "structure");
	obj_end(j);
}

#define NR(a) (sizeof(a) / sizeof((a)[0]))

/* The packet header (doc/ctf.md), its uuid a blob. */
static void put_packet_header(struct json *j)
{
	static const struct fixed magic = { "magic", 32, 8, 16, "packet-magic-number" };
	static const struct fixed ids[] = {
		{ "stream_id", 32, 8, 10, "data-stream-class-id" },
		{ "stream_instance_id", 64, 8, 10, "data-stream-id" },
	};

	obj_begin(j);
	key(j, "member-classes");
	arr_begin(j);
	put_fixed_member(j, &magic);
	obj_begin(j);
	key(j, "field-class");
	obj_begin(j);
	key_num(j, "length", 16);
	key(j, "roles");
	arr_begin(j);
	str(j, "metadata-stream-uuid");
	arr_end(j);
	key_str(j, "type", "static-length-blob");
	obj_end(j);
	key_str(j, "name", "uuid");
	obj_end(j);
	put_fixed_member(j, &ids[0]);
	put_fixed_member(j, &ids[1]);
	arr_end(j);
	key_num(j, "minimum-alignment", 8);
	key_str(j, "type", "structure");
	obj_end(j);
}

/*
 * ltt's compact event header (struct event_header_compact): a 5-bit id,
 * 0..30 the event's with a 27-bit timestamp, 31 for an extended header
 * (a 32-bit id and a 64-bit timestamp).
 */
static void put_event_header(struct json *j)
{
	static const struct fixed compact[] = {
		{ "timestamp", 27, 1, 10, "default-clock-timestamp" },
	};
	static const struct fixed extended[] = {
		{ "id", 32, 8, 10, "event-record-class-id" },
		{ "timestamp", 64, 8, 10, "default-clock-timestamp" },
	};
	static const struct ltt_ust_enum_entry kinds[] = {
		{ .label = "compact", .start = 0, .end = 30 },
		{ .label = "extended", .start = 31, .end = 31 },
	};
	struct ltt_fc id = { .kind = LTT_FC_INTEGER, .bits = 5, .align = 1, .base = 10,
			     .mappings = kinds, .nr_mappings = NR(kinds) };
	unsigned int i;

	obj_begin(j);
	key(j, "member-classes");
	arr_begin(j);
	obj_begin(j);
	key(j, "field-class");
	put_integer(j, &id, "event-record-class-id");
	key_str(j, "name", "id");
	obj_end(j);
	obj_begin(j);
	key(j, "field-class");
	obj_begin(j);
	key(j, "options");
	arr_begin(j);
	for (i = 0; i < NR(kinds); i++) {
		obj_begin(j);
		key(j, "field-class");
		if (i == 0)
			put_fixed_struct(j, compact, NR(compact), 1);
		else
			put_fixed_struct(j, extended, NR(extended), 1);
		key_str(j, "name", kinds[i].label);
		key(j, "selector-field-ranges");
		arr_begin(j);
		arr_begin(j);
		num(j, kinds[i].start);
		num(j, kinds[i].end);
		arr_end(j);
		arr_end(j);
		obj_end(j);
	}
	arr_end(j);
	key(j, "selector-field-location");
	obj_begin(j);
	key_str(j, "origin", "event-record-header");
	key(j, "path");
	arr_begin(j);
	str(j, "id");
	arr_end(j);
	obj_end(j);
	key_str(j, "type", "variant");
	obj_end(j);
	key_str(j, "name", "v");
	obj_end(j);
	arr_end(j);
	key_num(j, "minimum-alignment", 8);
	key_str(j, "type", "structure");
	obj_end(j);
}

/*
 * The packet context (struct packet_context): a per-channel stream's
 * last 4 bytes are padding, not a CPU's number.
 */
static void put_packet_context(struct json *j, bool per_channel)
{
	static const struct fixed members[] = {
		{ "timestamp_begin", 64, 8, 10, "default-clock-timestamp" },
		{ "timestamp_end", 64, 8, 10, "packet-end-default-clock-timestamp" },
		{ "content_size", 64, 8, 10, "packet-content-length" },
		{ "packet_size", 64, 8, 10, "packet-total-length" },
		{ "packet_seq_num", 64, 8, 10, "packet-sequence-number" },
		{ "events_discarded", 64, 8, 10, "discarded-event-record-counter-snapshot" },
		{ "cpu_id", 32, 8, 10, NULL },
	};
	struct fixed all[NR(members)];

	memcpy(all, members, sizeof(all));
	if (per_channel)
		all[NR(all) - 1].name = "ltt_padding";	/* TSDL's _ltt_padding, as readers name it */
	put_fixed_struct(j, all, NR(all), 8);
}

/* ---- fragments ---- */

int ltt_ctf2_trace_header(struct ltt_wbuf *out, const struct ltt_meta_header *h)
{
	const struct ltt_meta_trace *t = h->trace;
	const struct ltt_meta_clock *c = &h->clock;
	const struct ltt_meta_env *sorted[LTT_META_ENV_MAX], *tmp;
	struct json j = { 0 };
	uint32_t i, k;

	ltt_emit_begin(&j.e, out);
	fragment_begin(&j);
	key_str(&j, "type", "preamble");
	key(&j, "uuid");
	arr_begin(&j);
	for (i = 0; i < 16; i++)
		num(&j, t->uuid[i]);
	arr_end(&j);
	key_num(&j, "version", 2);
	obj_end(&j);

	fragment_begin(&j);
	key(&j, "environment");
	obj_begin(&j);
	for (i = 0; i < h->nr_env; i++) {	/* keys sorted, as JSON's writers sort them */
		sorted[i] = &h->env[i];
		for (k = i; k > 0 && strcmp(sorted[k - 1]->key, sorted[k]->key) > 0; k--) {
			tmp = sorted[k - 1];
			sorted[k - 1] = sorted[k];
			sorted[k] = tmp;
		}
	}
	for (i = 0; i < h->nr_env; i++) {
		key(&j, sorted[i]->key);
		if (sorted[i]->is_num)
			num(&j, sorted[i]->num);
		else
			str(&j, sorted[i]->str);
	}
	obj_end(&j);
	key_str(&j, "name", "");
	key_str(&j, "namespace", LTT_CTF2_NAMESPACE);
	key(&j, "packet-header-field-class");
	put_packet_header(&j);
	key_str(&j, "type", "trace-class");
	key(&j, "uid");
	put_uuid_string(&j, t->uuid);
	obj_end(&j);

	fragment_begin(&j);
	key_str(&j, "description", c->description);
	key_unum(&j, "frequency", c->freq);
	key_str(&j, "id", LTT_CTF2_CLOCK_ID);
	key_str(&j, "name", c->name);
	key(&j, "offset-from-origin");
	obj_begin(&j);
	key_unum(&j, "cycles", c->offset);
	key_num(&j, "seconds", c->offset_s);
	obj_end(&j);
	key_str(&j, "origin", "unix-epoch");
	key_str(&j, "type", "clock-class");
	key(&j, "uid");
	put_uuid_string(&j, c->uuid);
	obj_end(&j);
	return ltt_emit_end(&j.e);
}

int ltt_ctf2_stream(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		    const struct ltt_fc *ctx)
{
	struct json j = { 0 };

	ltt_emit_begin(&j.e, out);
	fragment_begin(&j);
	key_str(&j, "default-clock-class-id", LTT_CTF2_CLOCK_ID);
	if (ctx->nr_members) {
		key(&j, "event-record-common-context-field-class");
		put_fc(&j, ctx, SCOPE_CONTEXT);
	}
	key(&j, "event-record-header-field-class");
	put_event_header(&j);
	key_unum(&j, "id", stream_id);
	key(&j, "packet-context-field-class");
	put_packet_context(&j, per_channel);
	key_str(&j, "type", "data-stream-class");
	obj_end(&j);
	return ltt_emit_end(&j.e);
}

/* LTTng's log levels (0..14) as CTF 2's attribute names them. */
static const char *const log_levels[] = {
	"emergency", "alert", "critical", "error", "warning", "notice", "info",
	"debug:system", "debug:program", "debug:process", "debug:module", "debug:unit",
	"debug:function", "debug:line", "debug",
};

int ltt_ctf2_event(struct ltt_wbuf *out, const struct ltt_meta_event *m)
{
	struct json j = { 0 };

	if (m->has_loglevel && (m->loglevel < 0 || (size_t)m->loglevel >= NR(log_levels)))
		return -EINVAL;
	ltt_emit_begin(&j.e, out);
	fragment_begin(&j);
	if (m->has_loglevel) {
		key(&j, "attributes");
		obj_begin(&j);
		key(&j, LTT_CTF2_NAMESPACE);
		obj_begin(&j);
		key_str(&j, "log-level", log_levels[m->loglevel]);
		obj_end(&j);
		obj_end(&j);
	}
	key_unum(&j, "data-stream-class-id", m->stream_id);
	key_unum(&j, "id", m->id);
	key_str(&j, "name", m->name);
	key(&j, "payload-field-class");
	put_fc(&j, &m->payload, SCOPE_PAYLOAD);
	key_str(&j, "type", "event-record-class");
	obj_end(&j);
	return ltt_emit_end(&j.e);
}
