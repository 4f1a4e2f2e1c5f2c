// SPDX-License-Identifier: LGPL-2.1-only
/*
 * filter-compile.c - type checker and code generator of filter
 * expressions (rules in filter-compile.h, format in filter-bytecode.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/tracepoint-types.h>

#include "common/filter/filter-compile.h"
#include "common/trace/kabi-struct.h"
#include "filter-vm/filter-vm.h"

struct gen {
	uint8_t *buf;
	size_t len, cap;
	int depth, max_depth;
	int open_jumps;		/* jumps not yet landed (the validator's limit) */
	int rc;
	const struct ltt_filter_field_desc *fields;
	uint32_t nr_fields;
	struct ltt_filter_error *err;
};

/*
 * Fail the compile at @pos with @code and a message (the first failure's
 * kept); returns g->rc, negative as the -1 the compile's functions return.
 */
#define fail(g, pos, code, ...) ltt_filter_note(&(g)->rc, (g)->err, pos, code, __VA_ARGS__)

static void emit(struct gen *g, const void *p, size_t n)
{
	if (g->rc)
		return;
	if (g->len + n > LTT_FILTER_MAX_LEN - LTT_FILTER_HEADER_LEN) {
		fail(g, 0, -E2BIG, "filter too long once compiled (more than %d bytes)",
		     LTT_FILTER_MAX_LEN);
		return;
	}
	if (g->len + n > g->cap) {
		size_t cap = g->cap ? g->cap * 2 : 256;
		uint8_t *b;

		while (cap < g->len + n)
			cap *= 2;
		b = realloc(g->buf, cap);
		if (!b) {
			fail(g, 0, -ENOMEM, "out of memory");
			return;
		}
		g->buf = b;
		g->cap = cap;
	}
	memcpy(g->buf + g->len, p, n);
	g->len += n;
}

static void emit_u8(struct gen *g, uint8_t v)
{
	emit(g, &v, 1);
}

static void emit_le(struct gen *g, uint64_t v, int bytes)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < bytes; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	emit(g, b, (size_t)bytes);
}

/* Account for @push slots pushed after @pop popped. */
static void stack(struct gen *g, size_t pos, int pop, int push)
{
	g->depth += push - pop;
	if (g->depth > g->max_depth)
		g->max_depth = g->depth;
	if (g->depth > LTT_FILTER_MAX_STACK)
		fail(g, pos, -E2BIG, "expression too deep to evaluate (stack beyond %d)",
		     LTT_FILTER_MAX_STACK);
}

static void emit_bytes_op(struct gen *g, uint8_t op, const char *s, size_t n, size_t pos)
{
	if (n > LTT_FILTER_MAX_STR) {
		fail(g, pos, -E2BIG, "string longer than %d bytes", LTT_FILTER_MAX_STR);
		return;
	}
	emit_u8(g, op);
	emit_le(g, n, 2);
	emit(g, s, n);
}

static int is_int(int t)
{
	return t == LTT_FTYPE_S64 || t == LTT_FTYPE_U64;
}

static int is_num(int t)
{
	return is_int(t) || t == LTT_FTYPE_DBL;
}

static const struct ltt_filter_field_desc *find_field(struct gen *g,
						      const struct ltt_filter_node *n,
						      uint16_t *idx)
{
	uint32_t i;

	for (i = 0; i < g->nr_fields && i <= UINT16_MAX; i++) {
		if (g->fields[i].name && !strcmp(g->fields[i].name, n->str)) {
			*idx = (uint16_t)i;
			return &g->fields[i];
		}
	}
	fail(g, n->pos, -ENOENT, "no field '%s' in this event", n->str);
	return NULL;
}

static int is_text(const struct ltt_filter_field_desc *f)
{
	return (f->type == LTT_UST_TYPE_ARRAY || f->type == LTT_UST_TYPE_SEQUENCE) &&
	       f->size == 1 && f->encoding == LTT_UST_ENCODING_UTF8;
}

static void emit_field_head(struct gen *g, uint8_t op, uint16_t idx,
			    const struct ltt_filter_field_desc *f, int text)
{
	emit_u8(g, op);
	emit_le(g, idx, 2);
	emit_u8(g, f->type);
	emit_u8(g, f->size);
	emit_u8(g, (uint8_t)((f->is_signed ? LTT_FILTER_F_SIGNED : 0) |
			     (text ? LTT_FILTER_F_TEXT : 0) |
			     (op == LTT_FOP_LOAD_ELEM && f->big_endian ? LTT_FILTER_F_BE : 0)));
}

static int gen_field(struct gen *g, const struct ltt_filter_node *n)
{
	const struct ltt_filter_field_desc *f;
	uint16_t idx;
	int t;

	f = find_field(g, n, &idx);
	if (!f)
		return -1;
	switch (f->type) {
	case LTT_UST_TYPE_INTEGER:
	case LTT_UST_TYPE_ENUM:
		t = f->is_signed ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
		break;
	case LTT_UST_TYPE_FLOAT:
		t = LTT_FTYPE_DBL;
		break;
	case LTT_UST_TYPE_STRING:
		t = LTT_FTYPE_STR;
		break;
	case LTT_KABI_FIELD_STRUCT:
	case LTT_KABI_FIELD_STRUCT_SEQUENCE:
		return fail(g, n->pos, -EINVAL,
			    "field '%s' is a structure: filters compare integers and strings, "
			    "not a structure's members; filter on the event's other fields",
			    n->str);
	default:
		if (is_text(f)) {
			t = LTT_FTYPE_STR;
			break;
		}
		return fail(g, n->pos, -EINVAL,
			    "field '%s' is an array or sequence: compare one element (%s[N])",
			    n->str, n->str);
	}
	emit_field_head(g, LTT_FOP_LOAD_FIELD, idx, f, is_text(f));
	stack(g, n->pos, 0, 1);
	return t;
}

static int gen_index(struct gen *g, const struct ltt_filter_node *n)
{
	const struct ltt_filter_field_desc *f;
	uint16_t idx;

	if (n->left->kind != LTT_FN_FIELD)
		return fail(g, n->pos, -EINVAL, "only an array or sequence field can be indexed");
	f = find_field(g, n->left, &idx);
	if (!f)
		return -1;
	if (f->type != LTT_UST_TYPE_ARRAY && f->type != LTT_UST_TYPE_SEQUENCE)
		return fail(g, n->pos, -EINVAL, "field '%s' is not an array or sequence",
			    n->left->str);
	if (n->u > UINT32_MAX || (f->type == LTT_UST_TYPE_ARRAY && n->u >= f->length))
		return fail(g, n->pos, -EINVAL, "index %llu beyond the %u elements of '%s'",
			    (unsigned long long)n->u, f->length, n->left->str);
	emit_field_head(g, LTT_FOP_LOAD_ELEM, idx, f, 0);
	emit_le(g, n->u, 4);
	stack(g, n->pos, 0, 1);
	return f->is_signed ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
}

/*
 * A string literal's glob form as plain bytes in @out (@n->len bytes at
 * most; backslash-star is a star, two backslashes one), up to its first
 * unescaped '*' (@star set then); returns the bytes written.
 */
static size_t unescape_to_star(const struct ltt_filter_node *n, char *out, int *star)
{
	size_t i, k;

	*star = 0;
	for (i = k = 0; i < n->len; i++) {
		if (n->str[i] == '*') {
			*star = 1;
			break;
		}
		if (n->str[i] == '\\')
			i++;
		out[k++] = n->str[i];
	}
	return k;
}

static size_t unescape(const struct ltt_filter_node *n, char *out)
{
	int star;

	return unescape_to_star(n, out, &star);
}

static int gen_literal(struct gen *g, const struct ltt_filter_node *n, int negate)
{
	char *plain;
	size_t k;
	uint64_t bits;

	if (n->kind == LTT_FN_FLOAT) {
		double d = negate ? -n->d : n->d;

		memcpy(&bits, &d, 8);
		emit_u8(g, LTT_FOP_PUSH_DBL);
		emit_le(g, bits, 8);
		stack(g, n->pos, 0, 1);
		return LTT_FTYPE_DBL;
	}
	if (n->kind == LTT_FN_INT) {
		if (negate && n->u > (uint64_t)INT64_MAX + 1)
			return fail(g, n->pos, -EINVAL, "integer below -9223372036854775808");
		emit_u8(g, negate || !n->is_unsigned ? LTT_FOP_PUSH_S64 : LTT_FOP_PUSH_U64);
		emit_le(g, negate ? 0 - n->u : n->u, 8);
		stack(g, n->pos, 0, 1);
		return negate || !n->is_unsigned ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
	}
	if (n->is_glob)
		return fail(g, n->pos, -EINVAL,
			    "a '*' pattern compares with == or != only (\\* is a star)");
	plain = malloc(n->len + 1);
	if (!plain)
		return fail(g, n->pos, -ENOMEM, "out of memory");
	k = unescape(n, plain);
	emit_bytes_op(g, LTT_FOP_PUSH_STR, plain, k, n->pos);
	free(plain);
	stack(g, n->pos, 0, 1);
	return LTT_FTYPE_STR;
}

static int gen(struct gen *g, const struct ltt_filter_node *n);

/* Emit @n, of a type @ok takes: else "@what takes @wants (or a comparison)". */
static int gen_typed(struct gen *g, const struct ltt_filter_node *n, const char *what,
		     int (*ok)(int t), const char *wants)
{
	int t = gen(g, n);

	if (t < 0)
		return -1;
	if (!ok(t))
		return fail(g, n->pos, -EINVAL, "%s takes %s (or a comparison)", what, wants);
	return t;
}

static int gen_int(struct gen *g, const struct ltt_filter_node *n, const char *what)
{
	return gen_typed(g, n, what, is_int, "an integer");
}

/* Emit @n as a truth value (an integer or a float, LTTng's): S64 0 or 1. */
static int gen_bool(struct gen *g, const struct ltt_filter_node *n, const char *what)
{
	if (gen_typed(g, n, what, is_num, "a number") < 0)
		return -1;
	emit_u8(g, LTT_FOP_TO_BOOL);
	return LTT_FTYPE_S64;
}

static int gen_unary(struct gen *g, const struct ltt_filter_node *n)
{
	int t;

	switch (n->op) {
	case LTT_FO_NEG:
		if (n->left->kind == LTT_FN_INT || n->left->kind == LTT_FN_FLOAT)
			return gen_literal(g, n->left, 1);
		t = gen(g, n->left);
		if (t < 0)
			return -1;
		if (!is_num(t))
			return fail(g, n->pos, -EINVAL, "'-' takes a number");
		emit_u8(g, LTT_FOP_NEG);
		return t == LTT_FTYPE_DBL ? LTT_FTYPE_DBL : LTT_FTYPE_S64;
	case LTT_FO_NOT:
		if (gen_bool(g, n->left, "'!'") < 0)
			return -1;
		emit_u8(g, LTT_FOP_NOT);
		return LTT_FTYPE_S64;
	default:
		t = gen_int(g, n->left, "'~'");
		if (t < 0)
			return -1;
		emit_u8(g, LTT_FOP_BIT_NOT);
		return t;
	}
}

static int gen_logical(struct gen *g, const struct ltt_filter_node *n)
{
	const char *what = n->op == LTT_FO_AND ? "'&&'" : "'||'";
	size_t at;
	uint64_t off;

	if (gen_bool(g, n->left, what) < 0)
		return -1;
	emit_u8(g, n->op == LTT_FO_AND ? LTT_FOP_JUMP_FALSE : LTT_FOP_JUMP_TRUE);
	at = g->len;
	emit_le(g, 0, 2);
	stack(g, n->pos, 1, 0);
	if (++g->open_jumps > LTT_FILTER_MAX_JUMPS)
		return fail(g, n->pos, -E2BIG, "more than %d nested && and ||",
			    LTT_FILTER_MAX_JUMPS);
	if (gen_bool(g, n->right, what) < 0)
		return -1;
	g->open_jumps--;
	if (g->rc)
		return -1;
	off = g->len - (at + 2);
	g->buf[at] = (uint8_t)off;
	g->buf[at + 1] = (uint8_t)(off >> 8);
	return LTT_FTYPE_S64;
}

static const uint8_t cmp_op[] = {
	[LTT_FO_EQ] = LTT_FOP_EQ, [LTT_FO_NE] = LTT_FOP_NE, [LTT_FO_LT] = LTT_FOP_LT,
	[LTT_FO_LE] = LTT_FOP_LE, [LTT_FO_GT] = LTT_FOP_GT, [LTT_FO_GE] = LTT_FOP_GE,
};

static int is_literal(const struct ltt_filter_node *n)
{
	return n->kind == LTT_FN_INT || n->kind == LTT_FN_FLOAT || n->kind == LTT_FN_STRING ||
	       (n->kind == LTT_FN_UNARY && n->op == LTT_FO_NEG);
}

/*
 * Two string literals compared (== or !=; the parser refused the rest):
 * folded here, as LTTng decides them.  A pattern matches the plain other;
 * two patterns ending in their only '*' are equal when the text before
 * one star begins the other (LTTng's older star-at-end comparison).
 */
static int fold_strings(struct gen *g, const struct ltt_filter_node *n)
{
	const struct ltt_filter_node *l = n->left, *r = n->right;
	char *a = malloc(l->len + 1), *b = malloc(r->len + 1);
	size_t na, nb;
	int sa, sb, eq;

	if (!a || !b) {
		free(a);
		free(b);
		return fail(g, n->pos, -ENOMEM, "out of memory");
	}
	na = unescape_to_star(l, a, &sa);
	nb = unescape_to_star(r, b, &sb);
	if (sa && sb)
		eq = !memcmp(a, b, na < nb ? na : nb);
	else if (sa || sb)
		eq = sa ? ltt_filter_glob(l->str, l->len, b, unescape(r, b)) :
			  ltt_filter_glob(r->str, r->len, a, unescape(l, a));
	else
		eq = na == nb && !memcmp(a, b, na);
	free(a);
	free(b);
	emit_u8(g, LTT_FOP_PUSH_S64);
	emit_le(g, (uint64_t)(n->op == LTT_FO_EQ ? eq : !eq), 8);
	stack(g, n->pos, 0, 1);
	return LTT_FTYPE_S64;
}

/* Emit @n's two operands, left then right, their types into *@a and *@b; < 0 (g->rc set) or 0. */
static int gen_operands(struct gen *g, const struct ltt_filter_node *n, int *a, int *b)
{
	*a = gen(g, n->left);
	if (*a < 0)
		return -1;
	*b = gen(g, n->right);
	return *b < 0 ? -1 : 0;
}

static int gen_compare(struct gen *g, const struct ltt_filter_node *n)
{
	const struct ltt_filter_node *pat = NULL, *other = NULL;
	int a, b;

	if (n->left->kind == LTT_FN_STRING && n->right->kind == LTT_FN_STRING &&
	    (n->op == LTT_FO_EQ || n->op == LTT_FO_NE))
		return fold_strings(g, n);

	if (n->left->kind == LTT_FN_STRING && n->left->is_glob)
		pat = n->left, other = n->right;
	else if (n->right->kind == LTT_FN_STRING && n->right->is_glob)
		pat = n->right, other = n->left;
	if (pat) {
		if (n->op != LTT_FO_EQ && n->op != LTT_FO_NE)
			return fail(g, n->pos, -EINVAL,
				    "a '*' pattern compares with == or != only");
		a = gen(g, other);
		if (a < 0)
			return -1;
		if (a != LTT_FTYPE_STR && a != LTT_FTYPE_DYN)
			return fail(g, other->pos, -EINVAL, "a pattern matches a string only");
		emit_bytes_op(g, n->op == LTT_FO_EQ ? LTT_FOP_GLOB_EQ : LTT_FOP_GLOB_NE,
			      pat->str, pat->len, pat->pos);
		stack(g, n->pos, 1, 1);
		return LTT_FTYPE_S64;
	}
	if (gen_operands(g, n, &a, &b))
		return -1;
	if (a == LTT_FTYPE_DYN || b == LTT_FTYPE_DYN) {
		if (!is_literal(a == LTT_FTYPE_DYN ? n->right : n->left))
			return fail(g, n->pos, -EINVAL, "an $app context compares with a literal only");
	} else if (!(is_num(a) && is_num(b)) && !(a == LTT_FTYPE_STR && b == LTT_FTYPE_STR)) {
		return fail(g, n->pos, -EINVAL, "cannot compare a %s with a %s",
			    a == LTT_FTYPE_STR ? "string" : "number",
			    b == LTT_FTYPE_STR ? "string" : "number");
	}
	emit_u8(g, cmp_op[n->op]);
	stack(g, n->pos, 2, 1);
	return LTT_FTYPE_S64;
}

static int gen_bitwise(struct gen *g, const struct ltt_filter_node *n)
{
	static const uint8_t ops[] = {
		[LTT_FO_BIT_AND] = LTT_FOP_BIT_AND, [LTT_FO_BIT_OR] = LTT_FOP_BIT_OR,
		[LTT_FO_BIT_XOR] = LTT_FOP_BIT_XOR, [LTT_FO_LSHIFT] = LTT_FOP_LSHIFT,
		[LTT_FO_RSHIFT] = LTT_FOP_RSHIFT,
	};
	int a, b;

	if (gen_operands(g, n, &a, &b))
		return -1;
	if (!is_int(a) || !is_int(b))
		return fail(g, n->pos, -EINVAL, "bitwise operators take integers");
	emit_u8(g, ops[n->op]);
	stack(g, n->pos, 2, 1);
	return a == LTT_FTYPE_U64 || b == LTT_FTYPE_U64 ? LTT_FTYPE_U64 : LTT_FTYPE_S64;
}

/* Emit @n's code; its static type, or < 0 (g->rc set). */
static int gen(struct gen *g, const struct ltt_filter_node *n)
{
	int id;

	if (g->rc)
		return -1;
	switch (n->kind) {
	case LTT_FN_INT:
	case LTT_FN_FLOAT:
	case LTT_FN_STRING:
		return gen_literal(g, n, 0);
	case LTT_FN_FIELD:
		return gen_field(g, n);
	case LTT_FN_INDEX:
		return gen_index(g, n);
	case LTT_FN_CTX:
		id = ltt_filter_ctx_lookup(n->str);
		if (id < 0)
			return fail(g, n->pos, -EINVAL, "unknown context field '$ctx.%s'", n->str);
		emit_u8(g, LTT_FOP_LOAD_CTX);
		emit_u8(g, (uint8_t)id);
		stack(g, n->pos, 0, 1);
		return ltt_filter_ctx_type((unsigned int)id);
	case LTT_FN_APP:
		emit_bytes_op(g, LTT_FOP_LOAD_APP, n->str, n->len, n->pos);
		stack(g, n->pos, 0, 1);
		return LTT_FTYPE_DYN;
	case LTT_FN_UNARY:
		return gen_unary(g, n);
	case LTT_FN_BINARY:
		break;
	}
	switch (n->op) {
	case LTT_FO_AND:
	case LTT_FO_OR:
		return gen_logical(g, n);
	case LTT_FO_EQ: case LTT_FO_NE: case LTT_FO_LT:
	case LTT_FO_LE: case LTT_FO_GT: case LTT_FO_GE:
		return gen_compare(g, n);
	default:
		return gen_bitwise(g, n);
	}
}

int ltt_filter_compile(const struct ltt_filter_node *root,
		       const struct ltt_filter_field_desc *fields, uint32_t nr_fields,
		       uint8_t **ret, size_t *ret_len, struct ltt_filter_error *err)
{
	struct gen g = { .fields = fields, .nr_fields = nr_fields, .err = err };
	uint8_t *out;
	int t;

	*ret = NULL;
	*ret_len = 0;
	t = gen(&g, root);
	if (t == LTT_FTYPE_DBL)
		emit_u8(&g, LTT_FOP_TO_BOOL);
	else if (t >= 0 && !is_int(t))
		fail(&g, root->pos, -EINVAL,
		     "a filter is a condition: compare this value (==, !=, <...)");
	emit_u8(&g, LTT_FOP_RETURN);
	if (g.rc) {
		free(g.buf);
		return g.rc;
	}
	out = malloc(LTT_FILTER_HEADER_LEN + g.len);
	if (!out) {
		free(g.buf);
		return -ENOMEM;
	}
	memcpy(out, LTT_FILTER_MAGIC, 4);
	out[4] = LTT_FILTER_VERSION;
	out[5] = (uint8_t)g.max_depth;
	out[6] = out[7] = 0;
	out[8] = (uint8_t)g.len;
	out[9] = (uint8_t)(g.len >> 8);
	out[10] = (uint8_t)(g.len >> 16);
	out[11] = (uint8_t)(g.len >> 24);
	memcpy(out + LTT_FILTER_HEADER_LEN, g.buf, g.len);
	free(g.buf);
	*ret = out;
	*ret_len = LTT_FILTER_HEADER_LEN + g.len;
	return 0;
}

int ltt_filter_kabi_fields(struct ltt_kabi_event_desc *desc, struct ltt_filter_field_desc *ret)
{
	uint32_t i, j, next;

	if (desc->nr_fields > LTT_KABI_MAX_FIELDS)
		return -EPROTO;
	for (i = 0; i < desc->nr_fields; i++) {
		struct ltt_kabi_field *f = &desc->fields[i];

		f->name[sizeof(f->name) - 1] = '\0';
		/* as the module sees it (kmod/ltt-filter.c): no filter reads a bit array */
		ret[i] = (struct ltt_filter_field_desc){
			.name = f->bits ? NULL : f->name, .type = f->type, .size = f->size,
			.is_signed = f->is_signed, .encoding = f->encoding, .length = f->length,
			.big_endian = f->type != LTT_KABI_FIELD_INTEGER &&
				      (f->flags & LTT_KABI_FIELD_BIG_ENDIAN),
		};
	}
	/* a structure's members have no name of the event's: no filter finds them */
	for (i = 0; i < desc->nr_fields; i = next) {
		next = ltt_kabi_next_field(desc->fields, i);
		for (j = i + 1; j < next && j < desc->nr_fields; j++)
			ret[j].name = NULL;
	}
	return 0;
}
