// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ftrace-prefilter.c - a kernel filter from filter programs, by running
 * each program over terms instead of values: a field, a constant, a
 * string, FIELD & CONST, or a condition already in ftrace's grammar
 * (with whether it says exactly what the program does, or more).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/ftrace/ftrace-prefilter.h"
#include "filter-vm/filter-vm.h"

#define ARENA_BYTES (4 * LTT_FTRACE_PREFILTER_MAX)

enum term_kind { T_OPAQUE, T_FIELD, T_INT, T_STR, T_BITAND, T_COND };

/* A value as the kernel's filter names and reads it. */
struct kfield {
	const char *name;
	uint8_t size;
	bool is_signed;
	bool number;		/* compared as a number: an integer of its own slot */
	bool band;		/* ftrace takes FIELD & CONST (not its CPU) */
	bool text;		/* a char array or a string */
	uint32_t length;	/* a char array's bytes; 0 for a string */
	int8_t bias;		/* the program sees the kernel's value plus this */
};

struct term {
	enum term_kind kind;
	struct kfield f;	/* T_FIELD, T_BITAND */
	bool is_signed;		/* T_INT: @s, else @u */
	int64_t s;
	uint64_t u;		/* T_INT; T_BITAND: the mask */
	const uint8_t *str;	/* T_STR: @len bytes */
	uint32_t len;
	const char *text;	/* T_COND: NULL accepts all */
	bool exact;		/* T_COND: @text is the program's condition, not more */
};

struct pending {
	uint32_t target;	/* the pc it lands at */
	bool is_and;		/* JUMP_FALSE: &&; JUMP_TRUE: || */
	struct term left;
};

struct xlate {
	const struct ltt_ftrace_event *layout;
	struct term stack[LTT_FILTER_MAX_STACK];
	uint32_t depth;
	struct pending pend[LTT_FILTER_MAX_JUMPS];
	uint32_t nr_pend;
	char arena[ARENA_BYTES];
	size_t used;
};

static const struct term accept_all = { .kind = T_COND };

static uint32_t rd16(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint64_t rd64(const uint8_t *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* A text in the arena; NULL when it is full (the caller accepts all). */
__attribute__((format(printf, 2, 3)))
static const char *textf(struct xlate *x, const char *fmt, ...)
{
	size_t room = sizeof(x->arena) - x->used;
	char *at = x->arena + x->used;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(at, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return NULL;
	x->used += (size_t)n + 1;
	return at;
}

static struct term cond(const char *text, bool exact)
{
	return (struct term){ .kind = T_COND, .text = text, .exact = text && exact };
}

/*
 * A string ftrace's parser takes between quotes and reads as we do: no
 * quote, backslash or byte outside printable ASCII; none of its glob
 * characters but '*' (and that in a glob only); not starting with '!'
 * (its "not") or a digit (its index match, a literal full match).
 */
static bool quotable(const uint8_t *s, uint32_t n, bool glob)
{
	uint32_t i;

	if (n && (s[0] == '!' || (s[0] >= '0' && s[0] <= '9')))
		return false;
	for (i = 0; i < n; i++) {
		if (s[i] < 0x20 || s[i] > 0x7e || s[i] == '"' || s[i] == '\\' ||
		    s[i] == '?' || s[i] == '[' || s[i] == ']' || (!glob && s[i] == '*'))
			return false;
	}
	return true;
}

/* The range of the kernel's field: @f's bytes and sign. */
static void field_range(const struct kfield *f, int64_t *min, uint64_t *max)
{
	unsigned int bits = 8u * f->size;

	if (f->is_signed) {
		*min = bits >= 64 ? INT64_MIN : -((int64_t)1 << (bits - 1));
		*max = bits >= 64 ? (uint64_t)INT64_MAX : ((uint64_t)1 << (bits - 1)) - 1;
	} else {
		*min = 0;
		*max = bits >= 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
	}
}

/*
 * @c as the constant the kernel compares its field with (the program's
 * less @f's bias), in decimal into @out: false when the field's type
 * can't hold it (ftrace would truncate it).
 */
static bool kernel_const(const struct kfield *f, const struct term *c, char *out, size_t size)
{
	int64_t min, v;
	uint64_t max;

	field_range(f, &min, &max);
	if (!c->is_signed && c->u > (uint64_t)INT64_MAX) {
		if (f->bias || c->u > max)
			return false;
		snprintf(out, size, "%" PRIu64, c->u);
		return true;
	}
	v = c->is_signed ? c->s : (int64_t)c->u;
	if (f->bias && (v < INT32_MIN || v > INT32_MAX))
		return false;	/* a biased value is an s32: no kernel value maps to it */
	v -= f->bias;
	if (v < min || (v >= 0 && (uint64_t)v > max))
		return false;
	snprintf(out, size, "%" PRId64, v);
	return true;
}

static const char *const op_text[] = {
	[LTT_FOP_EQ] = "==", [LTT_FOP_NE] = "!=", [LTT_FOP_LT] = "<",
	[LTT_FOP_LE] = "<=", [LTT_FOP_GT] = ">", [LTT_FOP_GE] = ">=",
};

/* @op with its operands swapped: C < F is F > C. */
static uint8_t mirror(uint8_t op)
{
	switch (op) {
	case LTT_FOP_LT: return LTT_FOP_GT;
	case LTT_FOP_LE: return LTT_FOP_GE;
	case LTT_FOP_GT: return LTT_FOP_LT;
	case LTT_FOP_GE: return LTT_FOP_LE;
	default: return op;
	}
}

/*
 * FIELD OP CONST.  A biased field (a signed 4-byte integer whose value
 * the converter wraps at 32 bits) compares exactly with == and !=; for
 * an order, the kernel's values that wrap are let through as well.
 */
static struct term cmp_number(struct xlate *x, uint8_t op, const struct kfield *f,
			      const struct term *c)
{
	char k[32];

	if (!f->number || !kernel_const(f, c, k, sizeof(k)))
		return accept_all;
	if (!f->bias || op == LTT_FOP_EQ || op == LTT_FOP_NE)
		return cond(textf(x, "%s %s %s", f->name, op_text[op], k), true);
	return cond(textf(x, "%s %s %s || %s %s %" PRId32, f->name, op_text[op], k, f->name,
			  f->bias < 0 ? "<" : ">",
			  f->bias < 0 ? INT32_MIN - f->bias : INT32_MAX - f->bias), false);
}

static struct term compare(struct xlate *x, uint8_t op, const struct term *a,
			   const struct term *b)
{
	if (a->kind == T_INT && (b->kind == T_FIELD || b->kind == T_BITAND))
		return compare(x, mirror(op), b, a);
	if (a->kind == T_FIELD && b->kind == T_INT)
		return cmp_number(x, op, &a->f, b);
	if (a->kind == T_BITAND && b->kind == T_INT && (op == LTT_FOP_EQ || op == LTT_FOP_NE) &&
	    (b->is_signed ? b->s == 0 : b->u == 0))
		return cond(textf(x, op == LTT_FOP_EQ ? "!(%s & %" PRIu64 ")" : "%s & %" PRIu64,
				  a->f.name, a->u), true);
	if (b->kind == T_STR && a->kind == T_FIELD)
		return compare(x, op, b, a);
	/* a char array's kernel compare stops at its size: shorter literals only */
	if (a->kind == T_STR && b->kind == T_FIELD && b->f.text &&
	    (op == LTT_FOP_EQ || op == LTT_FOP_NE) && quotable(a->str, a->len, false) &&
	    (!b->f.length || a->len < b->f.length))
		return cond(textf(x, "%s %s \"%.*s\"", b->f.name, op_text[op], (int)a->len,
				  (const char *)a->str), true);
	return accept_all;
}

/* The condition "@t is not 0". */
static struct term as_cond(struct xlate *x, const struct term *t)
{
	static const struct term zero = { .kind = T_INT, .is_signed = true };

	switch (t->kind) {
	case T_COND:
		return *t;
	case T_FIELD:
		return compare(x, LTT_FOP_NE, t, &zero);
	case T_BITAND:
		return cond(textf(x, "%s & %" PRIu64, t->f.name, t->u), true);
	default:
		return accept_all;
	}
}

/* FIELD & CONST, as ftrace tests it on its own. */
static struct term bit_and(const struct term *a, const struct term *b)
{
	struct term t;
	int64_t min;
	uint64_t max;

	if (a->kind == T_INT && b->kind == T_FIELD)
		return bit_and(b, a);
	if (a->kind != T_FIELD || b->kind != T_INT || !a->f.number || !a->f.band ||
	    a->f.bias || (b->is_signed && b->s < 0))
		return (struct term){ .kind = T_OPAQUE };
	field_range(&a->f, &min, &max);
	if (b->u > max)		/* @s >= 0 here: the same bits */
		return (struct term){ .kind = T_OPAQUE };
	t = *a;
	t.kind = T_BITAND;
	t.u = b->u;
	return t;
}

/* @l && @r, or @l || @r, both conditions. */
static struct term logical(struct xlate *x, bool is_and, const struct term *l,
			   const struct term *r)
{
	if (is_and && (!l->text || !r->text))	/* dropping an operand widens an && */
		return cond(l->text ? l->text : r->text, false);
	if (!l->text || !r->text)
		return accept_all;
	return cond(textf(x, "(%s) %s (%s)", l->text, is_and ? "&&" : "||", r->text),
		    l->exact && r->exact);
}

static struct term negate(struct xlate *x, const struct term *t)
{
	return t->exact ? cond(textf(x, "!(%s)", t->text), true) : accept_all;
}

/*
 * A glob.  On a string ftrace matches as we do.  On a char array it
 * matches a "*suffix" at the array's end, not the string's, and reads
 * past the NUL for "*middle*" and full globs: there only a "prefix*" is
 * said exactly, a "*middle*" as more than it is (never negated), the
 * rest not at all.
 */
static struct term glob(struct xlate *x, const uint8_t *ins, const struct term *a)
{
	const char *p = (const char *)ins + 3;
	uint32_t n = rd16(ins + 1);
	const char *star = n ? memchr(p, '*', n) : NULL;
	bool exact = true;
	struct term t;

	if (a->kind != T_FIELD || !a->f.text || !quotable(ins + 3, n, true))
		return accept_all;
	if (a->f.length && star) {
		bool prefix = star == p + n - 1;
		bool middle = n >= 2 && p[0] == '*' && p[n - 1] == '*' &&
			      !memchr(p + 1, '*', n - 2);

		if (!prefix && !middle)
			return accept_all;
		exact = prefix;
	}
	t = cond(textf(x, "%s ~ \"%.*s\"", a->f.name, (int)n, p), exact);
	return ins[0] == LTT_FOP_GLOB_EQ || !t.text ? t : negate(x, &t);
}

static struct term load_field(const struct xlate *x, uint32_t idx)
{
	const struct ltt_ftrace_field *f;

	if (idx >= x->layout->nr_fields || x->layout->fields[idx].derived)
		return (struct term){ .kind = T_OPAQUE };	/* derived: not in the record */
	f = &x->layout->fields[idx];
	return (struct term){ .kind = T_FIELD, .f = {
		.name = f->name, .size = (uint8_t)f->size, .is_signed = f->is_signed,
		.number = f->kind == LTT_FTRACE_INT && f->base == 10 && !f->slot &&
			  f->size >= 1 && f->size <= 8,
		.band = true,
		.text = f->kind == LTT_FTRACE_CHARS || f->kind == LTT_FTRACE_STRING,
		.length = f->kind == LTT_FTRACE_CHARS ? f->length : 0,
		.bias = f->bias,
	} };
}

/* $ctx.tid is the record's common_pid, $ctx.cpu_id ftrace's CPU. */
static struct term load_ctx(uint8_t id)
{
	const char *name = id == LTT_FILTER_CTX_TID ? "common_pid" :
			   id == LTT_FILTER_CTX_CPU_ID ? "CPU" : NULL;

	if (!name)
		return (struct term){ .kind = T_OPAQUE };
	return (struct term){ .kind = T_FIELD, .f = {
		.name = name, .size = 4, .is_signed = true, .number = true,
		.band = id == LTT_FILTER_CTX_TID,	/* ftrace's CPU takes no & */
	} };
}

static bool push(struct xlate *x, struct term t)
{
	if (x->depth == LTT_FILTER_MAX_STACK)
		return false;
	x->stack[x->depth++] = t;
	return true;
}

/* Pop @n terms into @ret (the deepest first). */
static bool pop(struct xlate *x, uint32_t n, struct term *ret)
{
	if (x->depth < n)
		return false;
	x->depth -= n;
	memcpy(ret, &x->stack[x->depth], n * sizeof(*ret));
	return true;
}

/* A binary operator's terms in @t[0] (the left), @t[1]; its result pushed. */
static bool binary(struct xlate *x, const uint8_t *ins)
{
	struct term t[2];

	if (!pop(x, 2, t))
		return false;
	switch (ins[0]) {
	case LTT_FOP_BIT_AND:
		return push(x, bit_and(&t[0], &t[1]));
	case LTT_FOP_BIT_OR: case LTT_FOP_BIT_XOR: case LTT_FOP_LSHIFT: case LTT_FOP_RSHIFT:
		return push(x, (struct term){ .kind = T_OPAQUE });
	default:
		return push(x, compare(x, ins[0], &t[0], &t[1]));
	}
}

/* A jump: its condition waits, popped, for where it lands. */
static bool jump(struct xlate *x, const uint8_t *ins, uint32_t next)
{
	struct term t;

	if (!pop(x, 1, &t) || x->nr_pend == LTT_FILTER_MAX_JUMPS)
		return false;
	x->pend[x->nr_pend++] = (struct pending){
		.target = next + rd16(ins + 1), .is_and = ins[0] == LTT_FOP_JUMP_FALSE,
		.left = as_cond(x, &t),
	};
	return true;
}

/* One instruction, @ins, the next at @next: false when it can't be followed. */
static bool step(struct xlate *x, const uint8_t *ins, uint32_t next)
{
	struct term t;

	switch (ins[0]) {
	case LTT_FOP_PUSH_S64: case LTT_FOP_PUSH_U64:
		return push(x, (struct term){ .kind = T_INT, .is_signed = ins[0] == LTT_FOP_PUSH_S64,
					      .s = (int64_t)rd64(ins + 1), .u = rd64(ins + 1) });
	case LTT_FOP_PUSH_STR:
		return push(x, (struct term){ .kind = T_STR, .str = ins + 3, .len = rd16(ins + 1) });
	case LTT_FOP_LOAD_FIELD:
		return push(x, load_field(x, rd16(ins + 1)));
	case LTT_FOP_LOAD_CTX:
		return push(x, load_ctx(ins[1]));
	case LTT_FOP_PUSH_DBL: case LTT_FOP_LOAD_ELEM: case LTT_FOP_LOAD_APP:
		return push(x, (struct term){ .kind = T_OPAQUE });
	case LTT_FOP_GLOB_EQ: case LTT_FOP_GLOB_NE:
		return pop(x, 1, &t) && push(x, glob(x, ins, &t));
	case LTT_FOP_NOT:
		if (!pop(x, 1, &t))
			return false;
		t = as_cond(x, &t);
		return push(x, negate(x, &t));
	case LTT_FOP_BIT_NOT: case LTT_FOP_NEG:
		return pop(x, 1, &t) && push(x, (struct term){ .kind = T_OPAQUE });
	case LTT_FOP_TO_BOOL:
		return pop(x, 1, &t) && push(x, as_cond(x, &t));
	case LTT_FOP_JUMP_FALSE: case LTT_FOP_JUMP_TRUE:
		return jump(x, ins, next);
	default:
		return binary(x, ins);
	}
}

/* Combine the jumps landing at @pc with the top: false if they don't nest. */
static bool land(struct xlate *x, uint32_t pc)
{
	uint32_t i;

	while (x->nr_pend && x->pend[x->nr_pend - 1].target == pc) {
		struct pending *p = &x->pend[--x->nr_pend];
		struct term r;

		if (!pop(x, 1, &r))
			return false;
		r = as_cond(x, &r);
		if (!push(x, logical(x, p->is_and, &p->left, &r)))
			return false;
	}
	for (i = 0; i < x->nr_pend; i++)
		if (x->pend[i].target <= pc)
			return false;
	return true;
}

/* The condition of one program, accept_all when it can't be followed. */
static struct term program(struct xlate *x, const uint8_t *prog, uint32_t len)
{
	const uint8_t *code = prog + LTT_FILTER_HEADER_LEN;
	uint32_t code_len, pc = 0, n;
	struct term t;

	if (len <= LTT_FILTER_HEADER_LEN)
		return accept_all;
	code_len = len - LTT_FILTER_HEADER_LEN;
	x->depth = 0;
	x->nr_pend = 0;
	while (pc < code_len) {
		n = ltt_filter_insn_len(code + pc, code_len - pc);
		if (!n || !land(x, pc))
			return accept_all;
		if (code[pc] == LTT_FOP_RETURN)	/* the only one, with no jump to land */
			return x->depth == 1 && !x->nr_pend && pop(x, 1, &t) ? as_cond(x, &t) :
			       accept_all;
		if (!step(x, code + pc, pc + n))
			return accept_all;
		pc += n;
	}
	return accept_all;
}

/* ltt_ftrace_prefilter(), and whether its text says exactly what the programs do. */
static int translate(const struct ltt_ftrace_event *layout, const uint8_t *const *code,
		     const uint32_t *len, uint32_t nr, char *buf, size_t size, bool *ret_exact)
{
	struct term all = { .kind = T_COND }, one;
	struct xlate *x;
	uint32_t i;
	int ret = 0;

	if (!nr || !size)
		return 0;
	/*
	 * On the heap (22 KiB), not in thread-local storage: libcommon is
	 * in libltt-ust too, which a program may dlopen() (Python's import
	 * of ltt.agent), where static TLS has room for a few bytes only.
	 */
	x = malloc(sizeof(*x));
	if (!x)
		return 0;	/* no pre-filter: every event reaches the exact one */
	x->layout = layout;
	x->used = 0;
	for (i = 0; i < nr; i++) {
		one = program(x, code[i], len[i]);
		if (!one.text)
			goto out;
		all = i ? logical(x, false, &all, &one) : one;
		if (!all.text)
			goto out;
	}
	if (strlen(all.text) < size) {
		strcpy(buf, all.text);
		*ret_exact = all.exact;
		ret = 1;
	}
out:
	free(x);
	return ret;
}

int ltt_ftrace_prefilter(const struct ltt_ftrace_event *layout, const uint8_t *const *code,
			 const uint32_t *len, uint32_t nr, char *buf, size_t size)
{
	bool exact;

	return translate(layout, code, len, nr, buf, size, &exact);
}

int ltt_ftrace_filter_exact(const struct ltt_ftrace_event *layout, const uint8_t *const *code,
			    const uint32_t *len, uint32_t nr, char *buf, size_t size)
{
	bool exact = false;

	return translate(layout, code, len, nr, buf, size, &exact) == 1 && exact;
}
