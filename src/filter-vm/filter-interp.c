// SPDX-License-Identifier: LGPL-2.1-only
/*
 * filter-interp.c - run a validated filter program on a probe's
 * arguments (filter-vm.h).  Runs in the probe, before the event is
 * reserved: no allocation, no lock; the stack is in this frame.  It trusts
 * what ltt_filter_validate() checked (operands in bounds, stack depths,
 * static types) and checks at run time only what depends on the values.
 */
#include "filter-vm.h"

static inline uint32_t rd16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static inline uint64_t rd64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return le64toh(v);
}

/* An integer of @size bytes at @p (NULL: 0), widened to 64 bits in @u. */
static inline void read_int(const void *p, uint8_t size, int is_signed, uint64_t *u)
{
	uint8_t b;
	uint16_t h;
	uint32_t w;

	if (!p) {
		*u = 0;
		return;
	}
	/* Fixed-size copies: the compiler turns each into one load. */
	switch (size) {
	case 1:
		memcpy(&b, p, 1);
		*u = is_signed ? (uint64_t)(int64_t)(int8_t)b : b;
		break;
	case 2:
		memcpy(&h, p, 2);
		*u = is_signed ? (uint64_t)(int64_t)(int16_t)h : h;
		break;
	case 4:
		memcpy(&w, p, 4);
		*u = is_signed ? (uint64_t)(int64_t)(int32_t)w : w;
		break;
	default:
		memcpy(u, p, 8);
		break;
	}
}

static int load_field(const uint8_t *ins, const struct ltt_filter_env *env,
		      struct ltt_filter_value *out)
{
	uint32_t idx = rd16(ins + 1);
	uint8_t type = ins[3], size = ins[4], flags = ins[5];
	const struct ltt_filter_arg *a;

	if (idx >= env->nr_args)
		return -1;
	a = &env->args[idx];
	switch (type) {
	case LTT_UST_TYPE_INTEGER:
	case LTT_UST_TYPE_ENUM:
		read_int(a->p, size, flags & LTT_FILTER_F_SIGNED, &out->v.u);
		out->type = flags & LTT_FILTER_F_SIGNED ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
		return 0;
#ifndef LTT_FILTER_NO_FLOAT
	case LTT_UST_TYPE_FLOAT:
		if (!a->p)
			return -1;
		out->type = LTT_FTYPE_DBL;
		if (size == 4) {
			float f;

			memcpy(&f, a->p, 4);
			out->v.d = f;
		} else {
			memcpy(&out->v.d, a->p, 8);
		}
		return 0;
#endif
	default:	/* a string, or text in an array or sequence */
		out->type = LTT_FTYPE_STR;
		out->v.str.p = a->p ? a->p : "";
		out->v.str.n = a->p ? a->n : 0;
		return 0;
	}
}

/* The big-endian integer of @size bytes at @p, widened to 64 bits. */
static uint64_t read_be(const uint8_t *p, uint8_t size, int is_signed)
{
	uint64_t u = 0;
	uint8_t i;

	for (i = 0; i < size; i++)
		u = u << 8 | p[i];
	if (is_signed && size < 8 && (p[0] & 0x80))
		u |= ~(uint64_t)0 << (8 * size);
	return u;
}

static int load_elem(const uint8_t *ins, const struct ltt_filter_env *env,
		     struct ltt_filter_value *out)
{
	uint32_t idx = rd16(ins + 1), at = rd16(ins + 6) | rd16(ins + 8) << 16;
	uint8_t size = ins[4], is_signed = ins[5] & LTT_FILTER_F_SIGNED;
	const struct ltt_filter_arg *a;
	const uint8_t *p;

	if (idx >= env->nr_args)
		return -1;
	a = &env->args[idx];
	if (at >= a->n)
		return -1;
	p = a->p ? (const uint8_t *)a->p + (size_t)at * size : NULL;
	if (p && (ins[5] & LTT_FILTER_F_BE))
		out->v.u = read_be(p, size, is_signed);
	else
		read_int(p, size, is_signed, &out->v.u);
	out->type = is_signed ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
	return 0;
}

static size_t str_len(const struct ltt_filter_value *v)
{
	const char *nul = memchr(v->v.str.p, '\0', v->v.str.n);

	return nul ? (size_t)(nul - v->v.str.p) : v->v.str.n;
}

/* -1, 0, 1 as a <=> b; 2 when they do not compare. */
static int compare(const struct ltt_filter_value *a, const struct ltt_filter_value *b)
{
	if (a->type == LTT_FTYPE_STR && b->type == LTT_FTYPE_STR) {
		size_t na = str_len(a), nb = str_len(b);
		int c = memcmp(a->v.str.p, b->v.str.p, na < nb ? na : nb);

		if (c)
			return c < 0 ? -1 : 1;
		return na < nb ? -1 : na > nb;
	}
	if (a->type == LTT_FTYPE_STR || b->type == LTT_FTYPE_STR ||
	    a->type == LTT_FTYPE_NONE || b->type == LTT_FTYPE_NONE)
		return 2;
#ifndef LTT_FILTER_NO_FLOAT
	if (a->type == LTT_FTYPE_DBL || b->type == LTT_FTYPE_DBL) {
		double x = a->type == LTT_FTYPE_DBL ? a->v.d :
			   a->type == LTT_FTYPE_S64 ? (double)a->v.s : (double)a->v.u;
		double y = b->type == LTT_FTYPE_DBL ? b->v.d :
			   b->type == LTT_FTYPE_S64 ? (double)b->v.s : (double)b->v.u;

		if (x != x || y != y)
			return 2;	/* NaN: only != holds */
		return x < y ? -1 : x > y;
	}
#endif
	if (a->type == LTT_FTYPE_S64 && b->type == LTT_FTYPE_S64)
		return a->v.s < b->v.s ? -1 : a->v.s > b->v.s;
	if (a->type == LTT_FTYPE_S64 && a->v.s < 0)
		return -1;
	if (b->type == LTT_FTYPE_S64 && b->v.s < 0)
		return 1;
	return a->v.u < b->v.u ? -1 : a->v.u > b->v.u;
}

static int relop(uint8_t op, int c)
{
	if (c == 2)
		return op == LTT_FOP_NE;
	switch (op) {
	case LTT_FOP_EQ: return c == 0;
	case LTT_FOP_NE: return c != 0;
	case LTT_FOP_LT: return c < 0;
	case LTT_FOP_LE: return c <= 0;
	case LTT_FOP_GT: return c > 0;
	default: return c >= 0;
	}
}

static int bitop(uint8_t op, struct ltt_filter_value *a, const struct ltt_filter_value *b)
{
	uint64_t x = a->v.u, y = b->v.u;

	if (b->type == LTT_FTYPE_U64)
		a->type = LTT_FTYPE_U64;
	switch (op) {
	case LTT_FOP_BIT_AND: a->v.u = x & y; return 0;
	case LTT_FOP_BIT_OR: a->v.u = x | y; return 0;
	case LTT_FOP_BIT_XOR: a->v.u = x ^ y; return 0;
	}
	if (y > 63)	/* also a negative S64 count */
		return -1;
	/* Shifts are of the 64 bits, zeros shifted in, whatever the type (LTTng's). */
	a->v.u = op == LTT_FOP_LSHIFT ? x << y : x >> y;
	return 0;
}

static int is_int(const struct ltt_filter_value *v)
{
	return v->type == LTT_FTYPE_S64 || v->type == LTT_FTYPE_U64;
}

static int is_true(const struct ltt_filter_value *v)
{
#ifndef LTT_FILTER_NO_FLOAT
	if (v->type == LTT_FTYPE_DBL)
		return v->v.d != 0;
#endif
	return v->v.u != 0;
}

static void negate(struct ltt_filter_value *v)
{
#ifndef LTT_FILTER_NO_FLOAT
	if (v->type == LTT_FTYPE_DBL) {
		v->v.d = -v->v.d;
		return;
	}
#endif
	v->v.u = 0 - v->v.u;
	v->type = LTT_FTYPE_S64;
}

static int load_dyn(const uint8_t *ins, const struct ltt_filter_env *env,
		    struct ltt_filter_value *out, int ctx)
{
	int t;

	if (ctx) {
		t = ltt_filter_ctx_type(ins[1]);
		if (!env->ctx || env->ctx(env->priv, ins[1], out) || out->type != t)
			return -1;
		return 0;
	}
	if (!env->app || env->app(env->priv, (const char *)ins + 3, rd16(ins + 1), out) ||
	    out->type == LTT_FTYPE_DYN)
		out->type = LTT_FTYPE_NONE;
	return 0;
}

int ltt_filter_run(const uint8_t *prog, const struct ltt_filter_env *env)
{
	/* st[0] stays below the bottom: the first push goes to st[1]. */
	struct ltt_filter_value st[LTT_FILTER_MAX_STACK + 1], *top = st;
	const uint8_t *pc = prog + LTT_FILTER_HEADER_LEN;
	int c;

	for (;;) {
		const uint8_t *ins = pc;

		switch (*pc) {
		case LTT_FOP_RETURN:
			return top->v.u != 0;
		case LTT_FOP_PUSH_S64:
		case LTT_FOP_PUSH_U64:
		case LTT_FOP_PUSH_DBL:
			++top;
			top->type = *pc == LTT_FOP_PUSH_S64 ? LTT_FTYPE_S64 :
				    *pc == LTT_FOP_PUSH_U64 ? LTT_FTYPE_U64 : LTT_FTYPE_DBL;
			top->v.u = rd64(pc + 1);
			pc += 9;
			continue;
		case LTT_FOP_PUSH_STR:
			++top;
			top->type = LTT_FTYPE_STR;
			top->v.str.n = rd16(pc + 1);
			top->v.str.p = (const char *)pc + 3;
			pc += 3 + top->v.str.n;
			continue;
		case LTT_FOP_LOAD_FIELD:
			if (load_field(ins, env, ++top))
				return 0;
			pc += 6;
			continue;
		case LTT_FOP_LOAD_ELEM:
			if (load_elem(ins, env, ++top))
				return 0;
			pc += 10;
			continue;
		case LTT_FOP_LOAD_CTX:
			if (load_dyn(ins, env, ++top, 1))
				return 0;
			pc += 2;
			continue;
		case LTT_FOP_LOAD_APP:
			load_dyn(ins, env, ++top, 0);
			pc += 3 + rd16(pc + 1);
			continue;
		case LTT_FOP_EQ: case LTT_FOP_NE: case LTT_FOP_LT:
		case LTT_FOP_LE: case LTT_FOP_GT: case LTT_FOP_GE:
			if (top[-1].type == LTT_FTYPE_S64 && top->type == LTT_FTYPE_S64)
				c = top[-1].v.s < top->v.s ? -1 : top[-1].v.s > top->v.s;
			else if ((*pc == LTT_FOP_EQ || *pc == LTT_FOP_NE) && is_int(top - 1) &&
				 is_int(top))
				c = top[-1].v.u != top->v.u;	/* the 64 bits, as LTTng */
			else
				c = compare(top - 1, top);
			if (c == 2 && (top[-1].type == LTT_FTYPE_NONE || top->type == LTT_FTYPE_NONE ||
				       (top[-1].type == LTT_FTYPE_STR) != (top->type == LTT_FTYPE_STR)))
				return 0;	/* an $app context absent or of another type */
			--top;
			top->type = LTT_FTYPE_S64;
			top->v.s = relop(*pc, c);
			pc++;
			continue;
		case LTT_FOP_GLOB_EQ:
		case LTT_FOP_GLOB_NE:
			if (top->type != LTT_FTYPE_STR)
				return 0;
			c = ltt_filter_glob((const char *)pc + 3, rd16(pc + 1), top->v.str.p,
					    top->v.str.n);
			top->type = LTT_FTYPE_S64;
			top->v.s = *pc == LTT_FOP_GLOB_EQ ? c : !c;
			pc += 3 + rd16(pc + 1);
			continue;
		case LTT_FOP_NOT:
		case LTT_FOP_TO_BOOL:
			top->v.s = is_true(top) ^ (*pc == LTT_FOP_NOT);
			top->type = LTT_FTYPE_S64;
			pc++;
			continue;
		case LTT_FOP_NEG:
			negate(top);
			pc++;
			continue;
		case LTT_FOP_BIT_NOT:
			top->v.u = ~top->v.u;
			pc++;
			continue;
		case LTT_FOP_BIT_AND: case LTT_FOP_BIT_OR: case LTT_FOP_BIT_XOR:
		case LTT_FOP_LSHIFT: case LTT_FOP_RSHIFT:
			if (bitop(*pc, top - 1, top))
				return 0;
			--top;
			pc++;
			continue;
		case LTT_FOP_JUMP_FALSE:
		case LTT_FOP_JUMP_TRUE:
			if ((top->v.u != 0) == (*pc == LTT_FOP_JUMP_TRUE)) {
				pc += 3 + rd16(pc + 1);
			} else {
				--top;
				pc += 3;
			}
			continue;
		default:
			return 0;	/* not validated */
		}
	}
}
