// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ftrace-format.c - tracefs format files into struct ltt_ftrace_event.
 *
 * The text is read line by line within its length, never past it, with
 * no NUL needed.  Each failure names its reason in one constant sentence.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-format.h"
#include "common/trace/kabi-enum.h"
#include "common/trace/kabi-struct.h"

#define FIELD_MAX_BYTES 65535u	/* offsets and sizes: a __data_loc offset is 16 bits */

/* A span of the text. */
struct span {
	const char *p;
	size_t len;
};

/* The parse in progress: where it is, and why it failed. */
struct parser {
	struct span rest;
	const char *why;
};

static int fail(struct parser *ps, int err, const char *why)
{
	if (!ps->why)
		ps->why = why;
	return err;
}

/* The next line of @rest, without its newline; false at the end. */
static bool next_line(struct span *rest, struct span *line)
{
	const char *nl;

	if (!rest->len)
		return false;
	nl = memchr(rest->p, '\n', rest->len);
	line->p = rest->p;
	line->len = nl ? (size_t)(nl - rest->p) : rest->len;
	rest->p += nl ? line->len + 1 : line->len;
	rest->len -= nl ? line->len + 1 : line->len;
	return true;
}

static bool is_blank(char c)
{
	return c == ' ' || c == '\t';
}

static bool is_ident_char(char c, bool first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

static void trim(struct span *s)
{
	while (s->len && is_blank(s->p[0])) {
		s->p++;
		s->len--;
	}
	while (s->len && is_blank(s->p[s->len - 1]))
		s->len--;
}

/* Does @s start with @prefix?  If so, step over it. */
static bool eat(struct span *s, const char *prefix)
{
	size_t n = strlen(prefix);

	if (s->len < n || memcmp(s->p, prefix, n))
		return false;
	s->p += n;
	s->len -= n;
	return true;
}

static bool span_is(const struct span *s, const char *word)
{
	return s->len == strlen(word) && !memcmp(s->p, word, s->len);
}

/* A decimal number of at most @max, all of @s. */
static bool parse_uint(const struct span *s, uint32_t max, uint32_t *ret)
{
	uint64_t v = 0;
	size_t i;

	if (!s->len)
		return false;
	for (i = 0; i < s->len; i++) {
		if (s->p[i] < '0' || s->p[i] > '9')
			return false;
		v = v * 10 + (uint64_t)(s->p[i] - '0');
		if (v > max)
			return false;
	}
	*ret = (uint32_t)v;
	return true;
}

/* @s as a NUL-terminated name of @size bytes: a C identifier (or any
 * [A-Za-z0-9_] word when !@ident). */
static int copy_name(struct parser *ps, const struct span *s, char *dst, size_t size,
		     bool ident)
{
	size_t i;

	if (!s->len)
		return fail(ps, -EINVAL, "a name is empty");
	if (s->len >= size)
		return fail(ps, -ENAMETOOLONG, "a name is too long");
	for (i = 0; i < s->len; i++)
		if (!is_ident_char(s->p[i], ident && i == 0))
			return fail(ps, -EINVAL, "a name is not a C identifier");
	memcpy(dst, s->p, s->len);
	dst[s->len] = '\0';
	return 0;
}

/* ---- field declarations ---- */

/* An integer type's size and sign, for arrays whose length is not a number. */
struct int_type {
	const char *name;
	uint8_t size;
	uint8_t is_signed;
};

/* LP64: long and pointers are 8 bytes, as on the kernels this runs on. */
static const struct int_type int_types[] = {
	{ "char", 1, 1 }, { "signed char", 1, 1 }, { "unsigned char", 1, 0 },
	{ "bool", 1, 0 }, { "u8", 1, 0 }, { "__u8", 1, 0 }, { "uint8_t", 1, 0 },
	{ "s8", 1, 1 }, { "__s8", 1, 1 }, { "int8_t", 1, 1 },
	{ "short", 2, 1 }, { "unsigned short", 2, 0 }, { "u16", 2, 0 }, { "__u16", 2, 0 },
	{ "uint16_t", 2, 0 }, { "s16", 2, 1 }, { "__s16", 2, 1 }, { "int16_t", 2, 1 },
	{ "int", 4, 1 }, { "unsigned int", 4, 0 }, { "unsigned", 4, 0 }, { "u32", 4, 0 },
	{ "__u32", 4, 0 }, { "uint32_t", 4, 0 }, { "s32", 4, 1 }, { "__s32", 4, 1 },
	{ "int32_t", 4, 1 }, { "pid_t", 4, 1 },
	/* the kernel's types of system call arguments (include/linux/types.h) */
	{ "umode_t", 2, 0 }, { "uid_t", 4, 0 }, { "gid_t", 4, 0 }, { "qid_t", 4, 0 },
	{ "key_t", 4, 1 }, { "key_serial_t", 4, 1 }, { "mqd_t", 4, 1 }, { "clockid_t", 4, 1 },
	{ "timer_t", 4, 1 }, { "rwf_t", 4, 1 }, { "size_t", 8, 0 }, { "ssize_t", 8, 1 },
	{ "off_t", 8, 1 }, { "loff_t", 8, 1 },
	{ "long", 8, 1 }, { "unsigned long", 8, 0 }, { "long long", 8, 1 },
	{ "unsigned long long", 8, 0 }, { "u64", 8, 0 }, { "__u64", 8, 0 },
	{ "uint64_t", 8, 0 }, { "s64", 8, 1 }, { "__s64", 8, 1 }, { "int64_t", 8, 1 },
	{ "cpumask_t", 8, 0 },	/* a bitmask: unsigned long words */
};

static const struct int_type *find_int_type(struct span type)
{
	size_t i;

	eat(&type, "const ");
	trim(&type);
	for (i = 0; i < sizeof(int_types) / sizeof(int_types[0]); i++)
		if (span_is(&type, int_types[i].name))
			return &int_types[i];
	return NULL;
}

static bool is_char_type(struct span type)
{
	eat(&type, "const ");
	trim(&type);
	return span_is(&type, "char");
}

static bool int_size_ok(uint32_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* A declaration cut in three: "TYPE NAME[DIM]" (@has_dim when brackets). */
struct decl {
	struct span type;
	struct span name;
	struct span dim;
	bool has_dim;
};

static int split_decl(struct parser *ps, struct span d, struct decl *ret)
{
	const char *open;
	size_t n;

	memset(ret, 0, sizeof(*ret));
	trim(&d);
	if (d.len && d.p[d.len - 1] == ']') {
		open = memchr(d.p, '[', d.len);
		if (!open)
			return fail(ps, -EINVAL, "a field's brackets do not match");
		ret->has_dim = true;
		ret->dim.p = open + 1;
		ret->dim.len = d.len - 2 - (size_t)(open - d.p);
		d.len = (size_t)(open - d.p);
		trim(&d);
	}
	for (n = 0; n < d.len && is_ident_char(d.p[d.len - 1 - n], false); n++)
		;
	if (!n || n == d.len)
		return fail(ps, -EINVAL, "a field has no type or no name");
	ret->name.p = d.p + d.len - n;
	ret->name.len = n;
	ret->type.p = d.p;
	ret->type.len = d.len - n;
	trim(&ret->type);
	return 0;
}

/* "__data_loc T[] name" or "__rel_loc T[] name" (or a T without []). */
static int parse_loc(struct parser *ps, struct span d, bool rel, uint32_t size,
		     struct ltt_ftrace_field *f)
{
	const struct int_type *t;
	struct decl dc;
	int ret;

	ret = split_decl(ps, d, &dc);
	if (ret)
		return ret;
	if (dc.has_dim)
		return fail(ps, -EINVAL, "a __data_loc field has brackets after its name");
	if (size != 4)
		return fail(ps, -EINVAL, "a __data_loc field is not 4 bytes");
	f->rel = rel;
	if (dc.type.len >= 2 && !memcmp(dc.type.p + dc.type.len - 2, "[]", 2))
		dc.type.len -= 2;
	trim(&dc.type);
	if (is_char_type(dc.type)) {
		f->kind = LTT_FTRACE_STRING;
		f->elem_size = 1;
		return 0;
	}
	t = find_int_type(dc.type);
	if (!t)
		return fail(ps, -ENOTSUP, "a __data_loc field's element type is unknown");
	f->kind = LTT_FTRACE_DYN_ARRAY;
	f->elem_size = t->size;
	f->is_signed = t->is_signed;
	f->base = span_is(&dc.type, "cpumask_t") ? 16 : 10;
	return 0;
}

/* "T name[N]": CHARS or ARRAY; N may be a macro when T is known. */
static int parse_array(struct parser *ps, const struct decl *dc, uint32_t size,
		       struct ltt_ftrace_field *f)
{
	const struct int_type *t;
	uint32_t n;

	if (!dc->dim.len || !size)
		return fail(ps, -ENOTSUP, "a flexible array has no length in the record");
	if (!parse_uint(&dc->dim, FIELD_MAX_BYTES, &n)) {
		t = find_int_type(dc->type);
		if (!t)
			return fail(ps, -ENOTSUP, "an array's length and element type are unknown");
		n = size / t->size;
	}
	if (!n || size % n || !int_size_ok(size / n))
		return fail(ps, -ENOTSUP, "an array's elements are not 1, 2, 4 or 8 bytes");
	f->length = n;
	f->elem_size = (uint8_t)(size / n);
	f->kind = is_char_type(dc->type) && f->elem_size == 1 ? LTT_FTRACE_CHARS
							     : LTT_FTRACE_ARRAY;
	if (f->kind == LTT_FTRACE_CHARS)
		f->is_signed = 0;
	return 0;
}

/* The DECL of a field line, with its @size and @is_signed, into @f. */
static int parse_decl(struct parser *ps, struct span d, uint32_t size, uint32_t is_signed,
		      struct ltt_ftrace_field *f)
{
	struct decl dc;
	bool rel = false;
	int ret;

	memset(f, 0, sizeof(*f));
	f->size = size;
	f->is_signed = is_signed != 0;
	f->base = 10;
	trim(&d);
	if (eat(&d, "__data_loc ") || (rel = eat(&d, "__rel_loc "))) {
		ret = parse_loc(ps, d, rel, size, f);
		if (!ret)
			ret = split_decl(ps, d, &dc);
	} else {
		ret = split_decl(ps, d, &dc);
		if (!ret && dc.has_dim)
			ret = parse_array(ps, &dc, size, f);
		else if (!ret && !int_size_ok(size))
			ret = fail(ps, -ENOTSUP, "a field is not an integer of 1, 2, 4 or 8 bytes");
		else if (!ret) {
			f->kind = LTT_FTRACE_INT;
			f->elem_size = (uint8_t)size;
		}
		if (!ret && f->kind != LTT_FTRACE_CHARS && memchr(dc.type.p, '*', dc.type.len))
			f->base = 16;
	}
	if (!ret)
		ret = copy_name(ps, &dc.name, f->name, sizeof(f->name), true);
	return ret;
}

/* ---- field lines ---- */

/* One field line: "field:DECL;" then "key:N;" pairs (offset, size, signed). */
struct field_line {
	struct span decl;
	uint32_t offset, size, is_signed;
};

static int parse_field_line(struct parser *ps, struct span line, struct field_line *ret)
{
	bool have_offset = false, have_size = false;
	struct span key, val;
	const char *semi, *colon;
	uint32_t v;

	trim(&line);
	if (!eat(&line, "field:"))
		return fail(ps, -EINVAL, "a line of the field list is not a field");
	semi = memchr(line.p, ';', line.len);
	if (!semi)
		return fail(ps, -EINVAL, "a field line is cut short");
	ret->decl.p = line.p;
	ret->decl.len = (size_t)(semi - line.p);
	ret->is_signed = 0;
	line.len -= ret->decl.len + 1;
	line.p = semi + 1;
	for (trim(&line); line.len; trim(&line)) {
		colon = memchr(line.p, ':', line.len);
		semi = memchr(line.p, ';', line.len);
		if (!colon || !semi || semi < colon)
			return fail(ps, -EINVAL, "a field line is cut short or garbled");
		key = (struct span){ line.p, (size_t)(colon - line.p) };
		val = (struct span){ colon + 1, (size_t)(semi - colon - 1) };
		if (!parse_uint(&val, FIELD_MAX_BYTES, &v))
			return fail(ps, -EINVAL, "a field's offset, size or sign is not a number");
		if (span_is(&key, "offset")) {
			ret->offset = v;
			have_offset = true;
		} else if (span_is(&key, "size")) {
			ret->size = v;
			have_size = true;
		} else if (span_is(&key, "signed")) {
			ret->is_signed = v;
		}	/* another key: a newer kernel's, not needed */
		line.len -= (size_t)(semi + 1 - line.p);
		line.p = semi + 1;
	}
	if (!have_offset || !have_size)
		return fail(ps, -EINVAL, "a field has no offset or no size");
	if (ret->offset + ret->size > FIELD_MAX_BYTES || ret->is_signed > 1)
		return fail(ps, -EINVAL, "a field's offset, size or sign is out of range");
	return 0;
}

/* common_type, common_pid (kept), the other common_* (skipped). */
static int take_common(struct parser *ps, const struct field_line *fl, struct span name,
		       struct ltt_ftrace_event *ev, bool *seen_type, bool *seen_pid)
{
	if (span_is(&name, "common_type")) {
		if (fl->offset != 0 || fl->size != 2)
			return fail(ps, -EINVAL, "common_type is not the u16 at offset 0");
		*seen_type = true;
	} else if (span_is(&name, "common_pid")) {
		if (fl->size != 4)
			return fail(ps, -EINVAL, "common_pid is not 4 bytes");
		ev->pid_offset = fl->offset;
		*seen_pid = true;
	}
	return 0;
}

static bool name_taken(const struct ltt_ftrace_event *ev, const char *name)
{
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return true;
	return false;
}

/*
 * An integer field whose declared type is narrower than its slot: a
 * system call's arguments are all stored as unsigned long ("int dfd" in
 * 8 bytes, signed:0), the value in the slot's low bytes, the others what
 * the register held.  Keep the declared type's bytes and sign, as the C
 * declaration (and lttng-modules) reads it: dfd is -100, not 4294967196.
 */
static void narrow_to_decl(struct ltt_ftrace_field *f, struct span type)
{
	const struct int_type *t;

	if (f->kind != LTT_FTRACE_INT || f->base == 16)
		return;
	t = find_int_type(type);
	if (!t || t->size >= f->size)
		return;
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	f->offset += f->size - t->size;
#endif
	f->slot = (uint8_t)f->size;
	f->size = t->size;
	f->elem_size = t->size;
	f->is_signed = t->is_signed;
}

static int take_field(struct parser *ps, struct span line, struct ltt_ftrace_event *ev,
		      bool *seen_type, bool *seen_pid)
{
	struct ltt_ftrace_field *f;
	struct field_line fl;
	struct decl dc;
	int ret;

	ret = parse_field_line(ps, line, &fl);
	if (ret)
		return ret;
	if (fl.offset + fl.size > ev->min_size)
		ev->min_size = fl.offset + fl.size;
	ret = split_decl(ps, fl.decl, &dc);
	if (ret)
		return ret;
	if (dc.name.len > 7 && !memcmp(dc.name.p, "common_", 7))
		return take_common(ps, &fl, dc.name, ev, seen_type, seen_pid);
	if (ev->nr_fields == LTT_FTRACE_MAX_FIELDS)
		return fail(ps, -E2BIG, "the event has too many fields");
	f = &ev->fields[ev->nr_fields];
	ret = parse_decl(ps, fl.decl, fl.size, fl.is_signed, f);
	if (ret)
		return ret;
	f->offset = fl.offset;
	narrow_to_decl(f, dc.type);
	if (name_taken(ev, f->name))
		return fail(ps, -EINVAL, "two fields have the same name");
	ev->nr_fields++;
	return 0;
}

/* ---- the whole file ---- */

/* "KEY: VALUE" as the next line; @ret gets VALUE, trimmed. */
static int header_line(struct parser *ps, const char *key, struct span *ret)
{
	struct span line;

	if (!next_line(&ps->rest, &line) || !eat(&line, key))
		return fail(ps, -EINVAL, "the name, ID or format line is missing");
	trim(&line);
	*ret = line;
	return 0;
}

static int parse_head(struct parser *ps, struct ltt_ftrace_event *ev)
{
	struct span v;
	int ret;

	ret = header_line(ps, "name:", &v);
	if (!ret)
		ret = copy_name(ps, &v, ev->name, sizeof(ev->name), false);
	if (!ret)
		ret = header_line(ps, "ID:", &v);
	if (!ret && !parse_uint(&v, UINT16_MAX, &ev->id))
		ret = fail(ps, -EINVAL, "the ID is not a number below 65536");
	if (!ret)
		ret = header_line(ps, "format:", &v);
	if (!ret && v.len)
		ret = fail(ps, -EINVAL, "the format line has text after it");
	return ret;
}

static int parse_fields(struct parser *ps, struct ltt_ftrace_event *ev)
{
	bool seen_type = false, seen_pid = false, ended = false;
	struct span line;
	int ret = 0;

	while (!ret && !ended && next_line(&ps->rest, &line)) {
		struct span t = line;

		trim(&t);
		if (!t.len)
			continue;
		if (eat(&t, "print fmt:"))
			ended = true;
		else
			ret = take_field(ps, line, ev, &seen_type, &seen_pid);
	}
	if (ret)
		return ret;
	if (!ended)
		return fail(ps, -EINVAL, "the text ends before its print fmt line (cut short?)");
	if (!seen_type || !seen_pid)
		return fail(ps, -EINVAL, "common_type or common_pid is missing");
	return 0;
}

/* Is @f "__X_val" for a field X of @ev before it? */
static bool kernel_copy_of_arg(const struct ltt_ftrace_event *ev, uint32_t at)
{
	const char *name = ev->fields[at].name;
	size_t len = strlen(name);
	uint32_t i;

	if (len <= strlen("__") + strlen("_val") || strncmp(name, "__", 2) ||
	    strcmp(name + len - strlen("_val"), "_val"))
		return false;
	for (i = 0; i < at; i = ltt_ftrace_next_field(ev, i))
		if (strlen(ev->fields[i].name) == len - strlen("___val") &&
		    !strncmp(ev->fields[i].name, name + 2, len - strlen("___val")))
			return true;
	return false;
}

/*
 * Later kernels (sid's 7.2; not Debian 13's 6.12) add to a system call's
 * entry event the user memory some of its arguments point to, read by the
 * kernel: "__X_val", a __data_loc after the arguments, beside X, the
 * address.  ltt's layout of a system call is lttng-modules' on every
 * kernel (X a string where ltt reads one: event probes, its BPF program),
 * so the kernel's copies are left out of it; the records keep them, read
 * by offset as before.
 */
static void drop_kernel_copies(struct ltt_ftrace_event *ev)
{
	uint32_t i = 0;

	while (i < ev->nr_fields) {
		if (ev->fields[i].kind == LTT_FTRACE_STRING && kernel_copy_of_arg(ev, i)) {
			memmove(&ev->fields[i], &ev->fields[i + 1],
				(ev->nr_fields - i - 1) * sizeof(ev->fields[0]));
			ev->nr_fields--;
		} else {
			i = ltt_ftrace_next_field(ev, i);
		}
	}
}

int ltt_ftrace_format_parse(const char *system, const char *text, size_t len,
			    struct ltt_ftrace_event *ret, const char **reason)
{
	struct ltt_ftrace_event ev;	/* copied out on success only */
	struct parser ps = { { text, len }, NULL };
	struct span sys = { system, system ? strlen(system) : 0 };
	int err;

	if (!system || !text || !ret || len > LTT_FTRACE_MAX_TEXT) {
		if (reason)
			*reason = "no system, no text, or a text too long";
		return -EINVAL;
	}
	memset(&ev, 0, sizeof(ev));
	err = copy_name(&ps, &sys, ev.system, sizeof(ev.system), false);
	if (!err)
		err = parse_head(&ps, &ev);
	if (!err)
		err = parse_fields(&ps, &ev);
	if (err) {
		if (reason)
			*reason = ps.why;
		return err;
	}
	if (!strcmp(ev.system, "syscalls"))
		drop_kernel_copies(&ev);
	*ret = ev;
	return 0;
}

/* ---- events/header_page ---- */

static int take_page_field(struct parser *ps, struct span line,
			   struct ltt_ftrace_page_layout *pl, unsigned int *seen)
{
	struct field_line fl;
	struct decl dc;
	int ret;

	ret = parse_field_line(ps, line, &fl);
	if (!ret)
		ret = split_decl(ps, fl.decl, &dc);
	if (ret)
		return ret;
	if (span_is(&dc.name, "timestamp") && fl.size == 8) {
		pl->ts_offset = fl.offset;
		*seen |= 1;
	} else if (span_is(&dc.name, "commit") && (fl.size == 4 || fl.size == 8)) {
		pl->commit_offset = fl.offset;
		pl->commit_size = fl.size;
		*seen |= 2;
	} else if (span_is(&dc.name, "data")) {
		pl->data_offset = fl.offset;
		*seen |= 4;
	}	/* "overwrite" (a bit of commit) and others: not needed */
	return 0;
}

int ltt_ftrace_header_page_parse(const char *text, size_t len,
				 struct ltt_ftrace_page_layout *ret)
{
	struct parser ps = { { text, len }, NULL };
	struct ltt_ftrace_page_layout pl = { 0, 0, 0, 0 };
	unsigned int seen = 0;
	struct span line;
	int err = 0;

	if (!text || !ret || len > LTT_FTRACE_MAX_TEXT)
		return -EINVAL;
	while (!err && next_line(&ps.rest, &line)) {
		struct span t = line;

		trim(&t);
		if (t.len)
			err = take_page_field(&ps, line, &pl, &seen);
	}
	if (err || seen != 7 || pl.data_offset < pl.ts_offset + 8 ||
	    pl.data_offset < pl.commit_offset + pl.commit_size)
		return -EINVAL;
	*ret = pl;
	return 0;
}

void ltt_ftrace_page_layout_default(struct ltt_ftrace_page_layout *ret)
{
	ret->ts_offset = 0;
	ret->commit_offset = 8;
	ret->commit_size = 8;
	ret->data_offset = 16;
}

/* ---- the TSDL description ---- */

static void kabi_field(const struct ltt_ftrace_field *f, struct ltt_kabi_field *k)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->name, f->name, sizeof(k->name));
	k->size = f->elem_size;
	k->is_signed = f->is_signed;
	k->base = f->base;
	switch (f->kind) {
	case LTT_FTRACE_INT:
		k->type = LTT_KABI_FIELD_INTEGER;
		k->bits = (uint8_t)f->length;	/* a member's bit field */
		k->enum_id = f->enum_id;
		break;
	case LTT_FTRACE_CHARS:
		k->type = LTT_KABI_FIELD_ARRAY;
		k->encoding = 1;
		k->length = f->length;
		break;
	case LTT_FTRACE_ARRAY:
		k->type = LTT_KABI_FIELD_ARRAY;
		k->length = f->length;
		break;
	case LTT_FTRACE_STRING:
		k->type = LTT_KABI_FIELD_STRING;
		k->size = 1;
		k->is_signed = 0;
		k->base = 0;
		break;
	case LTT_FTRACE_STRUCT:
	case LTT_FTRACE_STRUCTS:
		k->type = f->kind == LTT_FTRACE_STRUCT ? LTT_KABI_FIELD_STRUCT
						       : LTT_KABI_FIELD_STRUCT_SEQUENCE;
		k->size = (uint8_t)(f->kind == LTT_FTRACE_STRUCT ? f->size : f->elem_size);
		k->length = f->length;
		k->base = 0;
		break;
	default:
		k->type = LTT_KABI_FIELD_SEQUENCE;
		break;
	}
}

static bool kabi_name_ok(const char *name)
{
	size_t len = strnlen(name, LTT_KABI_NAME_MAX), i;

	if (!len || len == LTT_KABI_NAME_MAX)
		return false;
	for (i = 0; i < len; i++)
		if (!is_ident_char(name[i], false))
			return false;
	return true;
}

int ltt_ftrace_event_to_kabi(const struct ltt_ftrace_event *ev, const char *name,
			     struct ltt_kabi_event_desc *ret)
{
	struct ltt_kabi_event_desc *d = ret;
	uint32_t i;

	_Static_assert(LTT_FTRACE_NAME_MAX == LTT_KABI_FIELD_NAME_MAX, "field names fit");
	if (!ev || !name || !ret || !kabi_name_ok(name) || ev->nr_fields > LTT_FTRACE_MAX_FIELDS)
		return -EINVAL;
	if (ev->nr_fields > LTT_KABI_MAX_FIELDS)
		return -E2BIG;
	for (i = 0; i < ev->nr_fields; i++)
		if (ev->fields[i].kind < LTT_FTRACE_INT || ev->fields[i].kind > LTT_FTRACE_STRUCTS ||
		    strnlen(ev->fields[i].name, LTT_FTRACE_NAME_MAX) == LTT_FTRACE_NAME_MAX ||
		    ev->fields[i].length > (ev->fields[i].kind == LTT_FTRACE_INT ? 64 : UINT16_MAX) ||
		    ((ev->fields[i].kind == LTT_FTRACE_STRUCT || ev->fields[i].kind == LTT_FTRACE_INT) &&
		     ev->fields[i].size > UINT8_MAX) ||
		    (ev->fields[i].enum_id && (ev->fields[i].kind != LTT_FTRACE_INT ||
					       !ltt_kabi_enum(ev->fields[i].enum_id))))
			return -EINVAL;
	memset(d, 0, sizeof(*d));
	memcpy(d->name, name, strlen(name) + 1);
	d->nr_fields = ev->nr_fields;
	for (i = 0; i < ev->nr_fields; i++)
		kabi_field(&ev->fields[i], &d->fields[i]);
	return ltt_kabi_structs_ok(d->fields, d->nr_fields) ? 0 : -EINVAL;
}

int ltt_ftrace_filter_fields(const struct ltt_ftrace_event *ev, struct ltt_kabi_event_desc *desc,
			     struct ltt_filter_field_desc *ret)
{
	int err = ltt_ftrace_event_to_kabi(ev, "event", desc);

	return err ? err : ltt_filter_kabi_fields(desc, ret);
}
