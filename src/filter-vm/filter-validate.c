// SPDX-License-Identifier: LGPL-2.1-only
/*
 * filter-validate.c - the tracer's check of a filter program received
 * from the session daemon (rules in filter-bytecode.h): one forward pass
 * that tracks the type of every stack slot, with the stacks that pending
 * forward jumps carry to their targets.  No allocation.
 */
#include "filter-vm.h"

#define MAX_PENDING LTT_FILTER_MAX_JUMPS

struct vstate {
	uint32_t depth;
	uint8_t type[LTT_FILTER_MAX_STACK];
};

struct pending {
	uint32_t target;
	struct vstate st;
};

struct ctx_info {
	const char *name;
	int type;
};

#define CTX_INFO_(name, id, text, type) [id] = { text, LTT_FTYPE_##type },
static const struct ctx_info ctx_table[] = { LTT_FILTER_CTX_TABLE(CTX_INFO_) };
#undef CTX_INFO_

int ltt_filter_ctx_lookup(const char *name)
{
	int i;

	for (i = 0; i < LTT_FILTER_NR_CTX; i++)
		if (!strcmp(ctx_table[i].name, name))
			return i;
	return -1;
}

int ltt_filter_ctx_type(unsigned int id)
{
	return id < LTT_FILTER_NR_CTX ? ctx_table[id].type : LTT_FTYPE_NONE;
}

static uint32_t get_u16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t get_u32(const uint8_t *p)
{
	return get_u16(p) | get_u16(p + 2) << 16;
}

static int is_int(int t)
{
	return t == LTT_FTYPE_S64 || t == LTT_FTYPE_U64;
}

static int is_num(int t)
{
	return is_int(t) || t == LTT_FTYPE_DBL;
}

static int int_size(uint8_t size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* The type LOAD_FIELD (@elem: LOAD_ELEM) pushes, or -EINVAL. */
static int check_field(const uint8_t *op, int elem, const struct ltt_filter_field_desc *fields,
		       uint32_t nr_fields)
{
	uint32_t idx = get_u16(op + 1);
	uint8_t type = op[3], size = op[4], flags = op[5];
	const struct ltt_filter_field_desc *f;
	int text;

	if (idx >= nr_fields)
		return -EINVAL;
	f = &fields[idx];
	text = (f->type == LTT_UST_TYPE_ARRAY || f->type == LTT_UST_TYPE_SEQUENCE) &&
	       f->size == 1 && f->encoding == LTT_UST_ENCODING_UTF8;
	if (type != f->type || size != f->size || !(flags & LTT_FILTER_F_SIGNED) != !f->is_signed ||
	    (flags & ~(LTT_FILTER_F_SIGNED | LTT_FILTER_F_TEXT | LTT_FILTER_F_BE)) ||
	    !(flags & LTT_FILTER_F_BE) != !(elem && f->big_endian))
		return -EINVAL;
	if (elem) {
		if ((type != LTT_UST_TYPE_ARRAY && type != LTT_UST_TYPE_SEQUENCE) ||
		    !int_size(size) || (flags & LTT_FILTER_F_TEXT))
			return -EINVAL;
		if (type == LTT_UST_TYPE_ARRAY && get_u32(op + 6) >= f->length)
			return -EINVAL;
		return f->is_signed ? LTT_FTYPE_S64 : LTT_FTYPE_U64;
	}
	if (!(flags & LTT_FILTER_F_TEXT) != !text)
		return -EINVAL;
	switch (type) {
	case LTT_UST_TYPE_INTEGER:
	case LTT_UST_TYPE_ENUM:
		return int_size(size) ? (f->is_signed ? LTT_FTYPE_S64 : LTT_FTYPE_U64) : -EINVAL;
	case LTT_UST_TYPE_FLOAT:
#ifdef LTT_FILTER_NO_FLOAT
		return -EINVAL;
#else
		return size == 4 || size == 8 ? LTT_FTYPE_DBL : -EINVAL;
#endif
	case LTT_UST_TYPE_STRING:
		return LTT_FTYPE_STR;
	default:
		return text ? LTT_FTYPE_STR : -EINVAL;
	}
}

/* A pattern's backslashes escape '*' or '\' only. */
static int check_pattern(const uint8_t *p, uint32_t n)
{
	uint32_t i;

	for (i = 0; i < n; i++) {
		if (p[i] == '\\') {
			if (i + 1 == n || (p[i + 1] != '*' && p[i + 1] != '\\'))
				return -EINVAL;
			i++;
		}
	}
	return 0;
}

/* Bytes of the operands of @op (those of PUSH_STR & co. not counted). */
static int operand_len(uint8_t op)
{
	switch (op) {
	case LTT_FOP_PUSH_S64: case LTT_FOP_PUSH_U64: case LTT_FOP_PUSH_DBL:
		return 8;
	case LTT_FOP_PUSH_STR: case LTT_FOP_LOAD_APP: case LTT_FOP_GLOB_EQ:
	case LTT_FOP_GLOB_NE: case LTT_FOP_JUMP_FALSE: case LTT_FOP_JUMP_TRUE:
		return 2;
	case LTT_FOP_LOAD_FIELD:
		return 5;
	case LTT_FOP_LOAD_ELEM:
		return 9;
	case LTT_FOP_LOAD_CTX:
		return 1;
	case LTT_FOP_RETURN: case LTT_FOP_EQ: case LTT_FOP_NE: case LTT_FOP_LT:
	case LTT_FOP_LE: case LTT_FOP_GT: case LTT_FOP_GE: case LTT_FOP_NOT:
	case LTT_FOP_BIT_NOT: case LTT_FOP_BIT_AND: case LTT_FOP_BIT_OR:
	case LTT_FOP_BIT_XOR: case LTT_FOP_LSHIFT: case LTT_FOP_RSHIFT:
	case LTT_FOP_TO_BOOL: case LTT_FOP_NEG:
		return 0;
	default:
		return -1;
	}
}

uint32_t ltt_filter_insn_len(const uint8_t *ins, uint32_t avail)
{
	int n = avail ? operand_len(ins[0]) : -1;
	uint32_t len, slen;

	if (n < 0 || avail - 1 < (uint32_t)n)
		return 0;
	len = 1 + (uint32_t)n;
	if (ins[0] == LTT_FOP_PUSH_STR || ins[0] == LTT_FOP_LOAD_APP ||
	    ins[0] == LTT_FOP_GLOB_EQ || ins[0] == LTT_FOP_GLOB_NE) {
		slen = get_u16(ins + 1);
		if (slen > LTT_FILTER_MAX_STR || avail - len < slen)
			return 0;
		len += slen;
	}
	return len;
}

static int same(const struct vstate *a, const struct vstate *b)
{
	return a->depth == b->depth && !memcmp(a->type, b->type, a->depth);
}

struct vpass {
	struct vstate st;
	int reachable;
	struct pending pend[MAX_PENDING];
	uint32_t nr_pend;
	uint32_t max_stack;
};

/* Land the jumps whose target is @pc. */
static int land(struct vpass *v, uint32_t pc)
{
	uint32_t i = 0;

	while (i < v->nr_pend) {
		struct pending *p = &v->pend[i];

		if (p->target < pc)
			return -EINVAL;	/* inside an instruction */
		if (p->target > pc) {
			i++;
			continue;
		}
		if (v->reachable && !same(&v->st, &p->st))
			return -EINVAL;
		v->st = p->st;
		v->reachable = 1;
		*p = v->pend[--v->nr_pend];
	}
	return v->reachable ? 0 : -EINVAL;
}

static int push(struct vpass *v, int type)
{
	if (type < 0)
		return type;
	if (v->st.depth >= v->max_stack)
		return -EINVAL;
	v->st.type[v->st.depth++] = (uint8_t)type;
	return 0;
}

/* Pop @n slots, leaving their types in @t[0..n) (deepest first). */
static int pop(struct vpass *v, uint32_t n, uint8_t *t)
{
	if (v->st.depth < n)
		return -EINVAL;
	v->st.depth -= n;
	memcpy(t, v->st.type + v->st.depth, n);
	return 0;
}

static int check_compare(struct vpass *v)
{
	uint8_t t[2];

	if (pop(v, 2, t))
		return -EINVAL;
	if (t[0] == LTT_FTYPE_DYN || t[1] == LTT_FTYPE_DYN ||
	    (is_num(t[0]) && is_num(t[1])) || (t[0] == LTT_FTYPE_STR && t[1] == LTT_FTYPE_STR))
		return push(v, LTT_FTYPE_S64);
	return -EINVAL;
}

static int check_jump(struct vpass *v, uint32_t after, uint32_t off, uint32_t code_len)
{
	uint8_t t;

	if (!v->st.depth || !is_int(v->st.type[v->st.depth - 1]))
		return -EINVAL;
	if (after + off >= code_len)
		return -EINVAL;
	if (v->nr_pend == MAX_PENDING)
		return -E2BIG;
	v->pend[v->nr_pend].target = after + off;
	v->pend[v->nr_pend].st = v->st;
	v->nr_pend++;
	return pop(v, 1, &t);
}

static int check_op(struct vpass *v, const uint8_t *ins, uint32_t pc, uint32_t next,
		    uint32_t code_len, const struct ltt_filter_field_desc *fields,
		    uint32_t nr_fields)
{
	uint8_t t[2];

	switch (ins[0]) {
	case LTT_FOP_RETURN:
		if (v->st.depth != 1 || !is_int(v->st.type[0]))
			return -EINVAL;
		v->st.depth = 0;
		v->reachable = 0;
		return 0;
	case LTT_FOP_PUSH_S64: return push(v, LTT_FTYPE_S64);
	case LTT_FOP_PUSH_U64: return push(v, LTT_FTYPE_U64);
#ifndef LTT_FILTER_NO_FLOAT
	case LTT_FOP_PUSH_DBL: return push(v, LTT_FTYPE_DBL);
#endif
	case LTT_FOP_PUSH_STR: return push(v, LTT_FTYPE_STR);
	case LTT_FOP_LOAD_APP: return push(v, LTT_FTYPE_DYN);
	case LTT_FOP_LOAD_FIELD: return push(v, check_field(ins, 0, fields, nr_fields));
	case LTT_FOP_LOAD_ELEM: return push(v, check_field(ins, 1, fields, nr_fields));
	case LTT_FOP_LOAD_CTX:
		return push(v, ins[1] < LTT_FILTER_NR_CTX ? ltt_filter_ctx_type(ins[1]) : -EINVAL);
	case LTT_FOP_EQ: case LTT_FOP_NE: case LTT_FOP_LT:
	case LTT_FOP_LE: case LTT_FOP_GT: case LTT_FOP_GE:
		return check_compare(v);
	case LTT_FOP_GLOB_EQ:
	case LTT_FOP_GLOB_NE:
		if (check_pattern(ins + 3, get_u16(ins + 1)) || pop(v, 1, t) ||
		    (t[0] != LTT_FTYPE_STR && t[0] != LTT_FTYPE_DYN))
			return -EINVAL;
		return push(v, LTT_FTYPE_S64);
	case LTT_FOP_NOT:
		if (pop(v, 1, t) || !is_int(t[0]))
			return -EINVAL;
		return push(v, LTT_FTYPE_S64);
	case LTT_FOP_TO_BOOL:
		if (pop(v, 1, t) || !is_num(t[0]))
			return -EINVAL;
		return push(v, LTT_FTYPE_S64);
	case LTT_FOP_NEG:
		if (pop(v, 1, t) || !is_num(t[0]))
			return -EINVAL;
		return push(v, t[0] == LTT_FTYPE_DBL ? LTT_FTYPE_DBL : LTT_FTYPE_S64);
	case LTT_FOP_BIT_NOT:
		if (pop(v, 1, t) || !is_int(t[0]))
			return -EINVAL;
		return push(v, t[0]);
	case LTT_FOP_BIT_AND: case LTT_FOP_BIT_OR: case LTT_FOP_BIT_XOR:
	case LTT_FOP_LSHIFT: case LTT_FOP_RSHIFT:
		if (pop(v, 2, t) || !is_int(t[0]) || !is_int(t[1]))
			return -EINVAL;
		return push(v, t[0] == LTT_FTYPE_U64 || t[1] == LTT_FTYPE_U64 ?
			    LTT_FTYPE_U64 : LTT_FTYPE_S64);
	case LTT_FOP_JUMP_FALSE:
	case LTT_FOP_JUMP_TRUE:
		return check_jump(v, next, get_u16(ins + 1), code_len);
	}
	(void)pc;
	return -EINVAL;
}

int ltt_filter_validate(const uint8_t *prog, size_t len,
			const struct ltt_filter_field_desc *fields, uint32_t nr_fields)
{
	struct vpass v;
	const uint8_t *code;
	uint32_t code_len, pc = 0;
	int rc;

	if (len < LTT_FILTER_HEADER_LEN || memcmp(prog, LTT_FILTER_MAGIC, 4))
		return -EINVAL;
	if (prog[4] != LTT_FILTER_VERSION)
		return -EPROTO;
	if (len > LTT_FILTER_MAX_LEN || prog[5] > LTT_FILTER_MAX_STACK)
		return -E2BIG;
	code_len = get_u32(prog + 8);
	if (prog[5] == 0 || prog[6] || prog[7] || code_len != len - LTT_FILTER_HEADER_LEN ||
	    !code_len)
		return -EINVAL;
	code = prog + LTT_FILTER_HEADER_LEN;
	v.st.depth = 0;
	v.reachable = 1;
	v.nr_pend = 0;
	v.max_stack = prog[5];
	while (pc < code_len) {
		uint32_t n = ltt_filter_insn_len(code + pc, code_len - pc), next = pc + n;

		rc = land(&v, pc);
		if (rc)
			return rc;
		if (!n)
			return -EINVAL;
		rc = check_op(&v, code + pc, pc, next, code_len, fields, nr_fields);
		if (rc)
			return rc;
		pc = next;
	}
	/* The last instruction returned, and no jump is left in the air. */
	return v.reachable || v.nr_pend ? -EINVAL : 0;
}

int ltt_filter_glob(const char *pat, size_t plen, const char *s, size_t n)
{
	size_t pi = 0, si = 0, star_p = (size_t)-1, star_s = 0;
	const char *nul = memchr(s, '\0', n);

	if (nul)
		n = (size_t)(nul - s);
	while (si < n) {
		if (pi < plen && pat[pi] == '*') {
			star_p = ++pi;
			star_s = si;
			continue;
		}
		if (pi < plen) {
			size_t w = pat[pi] == '\\' && pi + 1 < plen ? 2 : 1;

			if (pat[pi + w - 1] == s[si]) {
				pi += w;
				si++;
				continue;
			}
		}
		if (star_p == (size_t)-1)
			return 0;
		pi = star_p;
		si = ++star_s;
	}
	while (pi < plen && pat[pi] == '*')
		pi++;
	return pi == plen;
}
