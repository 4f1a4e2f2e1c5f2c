// SPDX-License-Identifier: LGPL-2.1-only
/*
 * filter-parse.c - lexer and recursive-descent parser of filter
 * expressions (grammar in filter-parse.h).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/filter/filter-parse.h"

enum tok {
	T_END, T_INT, T_FLOAT, T_STRING, T_IDENT, T_CTX, T_APP,
	T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET,
	T_OROR, T_ANDAND, T_OR, T_XOR, T_AND, T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE,
	T_SHL, T_SHR, T_NOT, T_TILDE, T_MINUS, T_PLUS, T_STAR, T_SLASH, T_PERCENT,
};

struct parser {
	const char *text;
	size_t at;		/* next byte to lex */
	/* The current token. */
	enum tok tok;
	size_t pos, end;
	uint64_t u;
	int is_unsigned;
	double d;
	char *str;		/* T_STRING, T_IDENT, T_CTX, T_APP: owned until taken */
	size_t len;
	int is_glob;
	int depth;
	int rc;
	struct ltt_filter_error *err;
};

int ltt_filter_note(int *rc, struct ltt_filter_error *err, size_t pos, int code,
		    const char *fmt, ...)
{
	va_list ap;

	if (*rc)
		return *rc;
	*rc = code;
	if (err) {
		err->pos = pos;
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	return code;
}

/* Fail the parse at @pos with @code and a message; the first failure's code. */
#define fail(p, pos, code, ...) ltt_filter_note(&(p)->rc, (p)->err, pos, code, __VA_ARGS__)

static int is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static int is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static int lex_number(struct parser *p)
{
	const char *s = p->text + p->at, *q = s;
	int base = 10, digits = 0, v;
	uint64_t u = 0;

	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		q += 2;
	} else if (s[0] == '0' && is_digit(s[1])) {
		base = 8;
		q++;
	}
	if (base == 10) {
		/* A float has a '.' or an exponent. */
		const char *r = q;

		while (is_digit(*r))
			r++;
		if (*r == '.' || *r == 'e' || *r == 'E') {
			char *end;

			errno = 0;
			p->d = strtod(s, &end);
			if (errno == ERANGE)
				return fail(p, p->at, -EINVAL, "float out of range");
			if (end == s || is_ident(*end) || *end == '.')
				return fail(p, p->at, -EINVAL, "malformed number");
			p->tok = T_FLOAT;
			p->at += (size_t)(end - s);
			return 0;
		}
	}
	for (;; q++, digits++) {
		if (is_digit(*q))
			v = *q - '0';
		else if (base == 16 && *q >= 'a' && *q <= 'f')
			v = *q - 'a' + 10;
		else if (base == 16 && *q >= 'A' && *q <= 'F')
			v = *q - 'A' + 10;
		else
			break;
		if (v >= base)
			return fail(p, p->at + (size_t)(q - s), -EINVAL,
				    "digit '%c' in an octal number", *q);
		if (u > (UINT64_MAX - (uint64_t)v) / (uint64_t)base)
			return fail(p, p->at, -EINVAL,
				    "integer beyond 18446744073709551615");
		u = u * (uint64_t)base + (uint64_t)v;
	}
	if ((base == 16 && !digits) || is_ident(*q) || *q == '.')
		return fail(p, p->at, -EINVAL, "malformed number");
	p->tok = T_INT;
	p->u = u;
	p->is_unsigned = u > (uint64_t)INT64_MAX;
	p->at += (size_t)(q - s);
	return 0;
}

static int lex_string(struct parser *p)
{
	const char *s = p->text + p->at + 1;
	size_t n = 0, i;
	char *out = malloc(strlen(s) + 1);

	if (!out)
		return fail(p, p->at, -ENOMEM, "out of memory");
	p->is_glob = 0;
	for (i = 0; s[i] != '"'; i++) {
		char c = s[i];

		if (c == '\0') {
			free(out);
			return fail(p, p->at, -EINVAL, "string without its closing '\"'");
		}
		if (c == '*')
			p->is_glob = 1;
		if (c == '\\') {
			c = s[++i];
			if (c == '*' || c == '\\') {
				out[n++] = '\\';
			} else if (c == 'n') {
				c = '\n';
			} else if (c == 't') {
				c = '\t';
			} else if (c != '"') {
				free(out);
				return fail(p, p->at + 1 + i - 1, -EINVAL,
					    "unknown escape (use \\\\ \\\" \\* \\n or \\t)");
			}
		}
		out[n++] = c;
	}
	out[n] = '\0';
	p->tok = T_STRING;
	p->str = out;
	p->len = n;
	p->at += i + 2;
	return 0;
}

/* An identifier, or $ctx.NAME / $app.PROVIDER:NAME, at p->at. */
static int lex_name(struct parser *p)
{
	const char *s = p->text + p->at, *q;
	size_t skip = 0;

	p->tok = T_IDENT;
	if (*s == '$') {
		if (!strncmp(s, "$ctx.", 5)) {
			p->tok = T_CTX;
			skip = 5;
		} else if (!strncmp(s, "$app.", 5)) {
			p->tok = T_APP;
			skip = 5;
		} else {
			return fail(p, p->at, -EINVAL,
				    "'$' starts $ctx.NAME or $app.PROVIDER:NAME");
		}
	}
	q = s + skip;
	if (!is_ident_start(*q))
		return fail(p, p->at + skip, -EINVAL, "a name is expected here");
	while (is_ident(*q) || (p->tok == T_APP && *q == '.'))
		q++;
	if (p->tok == T_APP) {
		if (*q != ':' || !is_ident_start(q[1]))
			return fail(p, p->at + (size_t)(q - s), -EINVAL,
				    "$app. is followed by PROVIDER:NAME");
		for (q++; is_ident(*q); q++)
			;
	}
	p->len = (size_t)(q - s) - skip;
	p->str = strndup(s + skip, p->len);
	if (!p->str)
		return fail(p, p->at, -ENOMEM, "out of memory");
	p->at += (size_t)(q - s);
	return 0;
}

static const struct {
	const char *text;
	enum tok tok;
} punct[] = {
	{ "||", T_OROR }, { "&&", T_ANDAND }, { "==", T_EQ }, { "!=", T_NE },
	{ "<=", T_LE }, { ">=", T_GE }, { "<<", T_SHL }, { ">>", T_SHR },
	{ "(", T_LPAREN }, { ")", T_RPAREN }, { "[", T_LBRACKET }, { "]", T_RBRACKET },
	{ "|", T_OR }, { "^", T_XOR }, { "&", T_AND }, { "<", T_LT }, { ">", T_GT },
	{ "!", T_NOT }, { "~", T_TILDE }, { "-", T_MINUS }, { "+", T_PLUS },
	{ "*", T_STAR }, { "/", T_SLASH }, { "%", T_PERCENT },
};

static int next(struct parser *p)
{
	const char *s;
	size_t i;

	free(p->str);
	p->str = NULL;
	while (p->text[p->at] == ' ' || p->text[p->at] == '\t' ||
	       p->text[p->at] == '\n' || p->text[p->at] == '\r')
		p->at++;
	p->pos = p->at;
	s = p->text + p->at;
	if (!*s) {
		p->tok = T_END;
		return 0;
	}
	if (is_digit(*s) || (*s == '.' && is_digit(s[1])))
		return lex_number(p);
	if (*s == '"')
		return lex_string(p);
	if (is_ident_start(*s) || *s == '$')
		return lex_name(p);
	for (i = 0; i < sizeof(punct) / sizeof(punct[0]); i++) {
		size_t n = strlen(punct[i].text);

		if (!strncmp(s, punct[i].text, n)) {
			p->tok = punct[i].tok;
			p->at += n;
			return 0;
		}
	}
	if ((unsigned char)*s < 0x20 || (unsigned char)*s >= 0x7f)
		return fail(p, p->at, -EINVAL, "unexpected byte 0x%02x",
			    (unsigned int)(unsigned char)*s);
	return fail(p, p->at, -EINVAL, "unexpected character '%c'", *s);
}

static struct ltt_filter_node *node(struct parser *p, enum ltt_filter_node_kind kind,
				    size_t pos)
{
	struct ltt_filter_node *n = calloc(1, sizeof(*n));

	if (!n) {
		fail(p, pos, -ENOMEM, "out of memory");
		return NULL;
	}
	n->kind = kind;
	n->pos = pos;
	return n;
}

/* An operator node @op at @pos over @left and @right (NULL: unary); frees both when out of memory. */
static struct ltt_filter_node *op_node(struct parser *p, enum ltt_filter_node_kind kind,
				       size_t pos, int op, struct ltt_filter_node *left,
				       struct ltt_filter_node *right)
{
	struct ltt_filter_node *n = node(p, kind, pos);

	if (!n) {
		ltt_filter_free(left);
		ltt_filter_free(right);
		return NULL;
	}
	n->op = op;
	n->left = left;
	n->right = right;
	return n;
}

/* One level deeper in the expression: -E2BIG, failing the parse at @pos, past the limit. */
static int descend(struct parser *p, size_t pos)
{
	if (++p->depth > LTT_FILTER_MAX_DEPTH)
		return fail(p, pos, -E2BIG, "expression nested deeper than %d", LTT_FILTER_MAX_DEPTH);
	return 0;
}

static struct ltt_filter_node *parse_expr(struct parser *p);

static const char *tok_text(enum tok t)
{
	size_t i;

	for (i = 0; i < sizeof(punct) / sizeof(punct[0]); i++)
		if (punct[i].tok == t)
			return punct[i].text;
	return "?";
}

static int expected(struct parser *p, const char *what)
{
	if (p->tok == T_END)
		return fail(p, p->pos, -EINVAL, "%s expected at the end", what);
	return fail(p, p->pos, -EINVAL, "%s expected here", what);
}

static struct ltt_filter_node *parse_primary(struct parser *p)
{
	static const enum ltt_filter_node_kind kinds[] = {
		[T_IDENT] = LTT_FN_FIELD, [T_CTX] = LTT_FN_CTX, [T_APP] = LTT_FN_APP,
		[T_STRING] = LTT_FN_STRING,
	};
	struct ltt_filter_node *n;
	size_t pos = p->pos;

	switch (p->tok) {
	case T_INT:
	case T_FLOAT:
		n = node(p, p->tok == T_INT ? LTT_FN_INT : LTT_FN_FLOAT, pos);
		if (!n)
			return NULL;
		n->u = p->u;
		n->is_unsigned = p->is_unsigned;
		n->d = p->d;
		break;
	case T_STRING:
	case T_IDENT:
	case T_CTX:
	case T_APP:
		n = node(p, kinds[p->tok], pos);
		if (!n)
			return NULL;
		n->str = p->str;
		n->len = p->len;
		n->is_glob = p->tok == T_STRING && p->is_glob;
		p->str = NULL;
		break;
	case T_LPAREN:
		if (next(p))
			return NULL;
		n = parse_expr(p);
		if (!n)
			return NULL;
		if (p->tok != T_RPAREN) {
			fail(p, p->tok == T_END ? pos : p->pos, -EINVAL,
			     p->tok == T_END ? "'(' without its ')'" : "')' expected here");
			ltt_filter_free(n);
			return NULL;
		}
		break;
	default:
		expected(p, "a field, a context field or a literal");
		return NULL;
	}
	if (next(p)) {
		ltt_filter_free(n);
		return NULL;
	}
	return n;
}

static struct ltt_filter_node *parse_postfix(struct parser *p)
{
	struct ltt_filter_node *n = parse_primary(p), *idx;

	while (n && p->tok == T_LBRACKET) {
		size_t pos = p->pos;

		if (next(p))
			goto err;
		if (p->tok != T_INT) {
			expected(p, "an integer index");
			goto err;
		}
		idx = node(p, LTT_FN_INDEX, pos);
		if (!idx)
			goto err;
		idx->u = p->u;
		idx->left = n;
		n = idx;
		if (next(p))
			goto err;
		if (p->tok != T_RBRACKET) {
			expected(p, "']'");
			goto err;
		}
		if (next(p))
			goto err;
	}
	return n;
err:
	ltt_filter_free(n);
	return NULL;
}

static struct ltt_filter_node *parse_unary(struct parser *p)
{
	struct ltt_filter_node *sub;
	size_t pos = p->pos;
	int op;

	switch (p->tok) {
	case T_NOT: op = LTT_FO_NOT; break;
	case T_TILDE: op = LTT_FO_BIT_NOT; break;
	case T_MINUS: op = LTT_FO_NEG; break;
	case T_PLUS: op = 0; break;
	default:
		return parse_postfix(p);
	}
	if (descend(p, pos) || next(p))
		return NULL;
	sub = parse_unary(p);
	p->depth--;
	if (!sub || !op)
		return sub;
	return op_node(p, LTT_FN_UNARY, pos, op, sub, NULL);
}

/*
 * Binary levels, loosest first: tokens and operators of each.  LTTng's
 * order, not C's: the bitwise operators bind tighter than the
 * comparisons ("1 & 3 == 1" is "(1 & 3) == 1").
 */
static const struct level {
	enum tok tok[4];
	int op[4];
} levels[] = {
	{ { T_OROR }, { LTT_FO_OR } },
	{ { T_ANDAND }, { LTT_FO_AND } },
	{ { T_EQ, T_NE }, { LTT_FO_EQ, LTT_FO_NE } },
	{ { T_LT, T_LE, T_GT, T_GE }, { LTT_FO_LT, LTT_FO_LE, LTT_FO_GT, LTT_FO_GE } },
	{ { T_OR }, { LTT_FO_BIT_OR } },
	{ { T_XOR }, { LTT_FO_BIT_XOR } },
	{ { T_AND }, { LTT_FO_BIT_AND } },
	{ { T_SHL, T_SHR }, { LTT_FO_LSHIFT, LTT_FO_RSHIFT } },
};
#define NR_LEVELS (sizeof(levels) / sizeof(levels[0]))

static int level_op(const struct level *l, enum tok t)
{
	int i;

	for (i = 0; i < 4 && l->op[i]; i++)
		if (l->tok[i] == t)
			return l->op[i];
	return 0;
}

static struct ltt_filter_node *parse_level(struct parser *p, size_t lv)
{
	struct ltt_filter_node *n, *right;
	int op;

	if (lv == NR_LEVELS)
		return parse_unary(p);
	n = parse_level(p, lv + 1);
	while (n && (op = level_op(&levels[lv], p->tok))) {
		size_t pos = p->pos;

		if (next(p))
			goto err;
		right = parse_level(p, lv + 1);
		if (!right)
			goto err;
		n = op_node(p, LTT_FN_BINARY, pos, op, n, right);
	}
	if (n && lv == NR_LEVELS - 1 &&
	    (p->tok == T_PLUS || p->tok == T_MINUS || p->tok == T_STAR ||
	     p->tok == T_SLASH || p->tok == T_PERCENT)) {
		fail(p, p->pos, -EINVAL, "arithmetic operator '%s' is not supported",
		     tok_text(p->tok));
		goto err;
	}
	return n;
err:
	ltt_filter_free(n);
	return NULL;
}

static struct ltt_filter_node *parse_expr(struct parser *p)
{
	struct ltt_filter_node *n;

	if (descend(p, p->pos))
		return NULL;
	n = parse_level(p, 0);
	p->depth--;
	return n;
}

/* The operators as written (messages, ltt_filter_print()). */
static const char *const op_text[] = {
	[LTT_FO_OR] = "||", [LTT_FO_AND] = "&&", [LTT_FO_BIT_OR] = "|",
	[LTT_FO_BIT_XOR] = "^", [LTT_FO_BIT_AND] = "&", [LTT_FO_EQ] = "==",
	[LTT_FO_NE] = "!=", [LTT_FO_LT] = "<", [LTT_FO_LE] = "<=", [LTT_FO_GT] = ">",
	[LTT_FO_GE] = ">=", [LTT_FO_LSHIFT] = "<<", [LTT_FO_RSHIFT] = ">>",
	[LTT_FO_NOT] = "!", [LTT_FO_BIT_NOT] = "~", [LTT_FO_NEG] = "-",
};

/*
 * What a node is before any event's fields are known: a string literal, a
 * float, another number (literals, and what operators give), or unknown
 * (fields and contexts).
 */
enum lit_kind { K_UNKNOWN, K_NUM, K_FLOAT, K_STR };

/* A string literal's '*': 0 none, 1 only as its last byte, 2 elsewhere. */
static int star_kind(const struct ltt_filter_node *n)
{
	size_t i;

	for (i = 0; i < n->len; i++) {
		if (n->str[i] == '\\')
			i++;
		else if (n->str[i] == '*')
			return i + 1 == n->len ? 1 : 2;
	}
	return 0;
}

static int is_compare(int op)
{
	return op >= LTT_FO_EQ && op <= LTT_FO_GE;
}

static int check_binary(struct parser *p, const struct ltt_filter_node *n, enum lit_kind a,
			enum lit_kind b)
{
	const char *op = op_text[n->op];
	int sa, sb;

	if (n->op == LTT_FO_OR || n->op == LTT_FO_AND) {
		if (a == K_STR || b == K_STR)
			return fail(p, n->pos, -EINVAL, "'%s' takes conditions, not a string", op);
		return 0;
	}
	if (!is_compare(n->op)) {
		if (a == K_STR || b == K_STR || a == K_FLOAT || b == K_FLOAT)
			return fail(p, n->pos, -EINVAL, "'%s' takes integers, not a %s", op,
				    a == K_STR || b == K_STR ? "string" : "float");
		return 0;
	}
	if ((a == K_STR && (b == K_NUM || b == K_FLOAT)) ||
	    (b == K_STR && (a == K_NUM || a == K_FLOAT)))
		return fail(p, n->pos, -EINVAL, "cannot compare a string with a number");
	if (((a == K_STR && star_kind(n->left)) || (b == K_STR && star_kind(n->right))) &&
	    n->op != LTT_FO_EQ && n->op != LTT_FO_NE)
		return fail(p, n->pos, -EINVAL, "a '*' pattern compares with == or != only");
	if (a == K_STR && b == K_STR) {
		sa = star_kind(n->left);
		sb = star_kind(n->right);
		if ((sa == 2 && sb) || (sb == 2 && sa))
			return fail(p, n->pos, -EINVAL,
				    "cannot compare two '*' patterns (write \\* for a star)");
	}
	return 0;
}

/*
 * LTTng's checks of literals, made before any event is known: a string is
 * not a condition, nor an operand of '!', '~', '-', '&&', '||' or the
 * bitwise operators, and compares with == or != only, with no number;
 * bitwise operators take no float; two '*' patterns are not compared
 * (but two ending in their only '*', as LTTng's older form).
 */
static enum lit_kind check_literals(struct parser *p, const struct ltt_filter_node *n)
{
	enum lit_kind a, b;

	switch (n->kind) {
	case LTT_FN_INT:
		return K_NUM;
	case LTT_FN_FLOAT:
		return K_FLOAT;
	case LTT_FN_STRING:
		return K_STR;
	case LTT_FN_UNARY:
		a = check_literals(p, n->left);
		if (a == K_STR)
			fail(p, n->pos, -EINVAL, "'%s' does not apply to a string", op_text[n->op]);
		if (a == K_FLOAT && n->op == LTT_FO_BIT_NOT)
			fail(p, n->pos, -EINVAL, "'~' takes an integer, not a float");
		return n->op == LTT_FO_NEG ? a : a == K_UNKNOWN ? K_UNKNOWN : K_NUM;
	case LTT_FN_BINARY:
		a = check_literals(p, n->left);
		b = check_literals(p, n->right);
		check_binary(p, n, a, b);
		return K_NUM;
	default:
		return K_UNKNOWN;
	}
}

int ltt_filter_parse(const char *text, struct ltt_filter_node **ret,
		     struct ltt_filter_error *err)
{
	struct parser p = { .text = text, .err = err };
	struct ltt_filter_node *n;

	*ret = NULL;
	if (strlen(text) > LTT_FILTER_MAX_TEXT)
		return fail(&p, LTT_FILTER_MAX_TEXT, -E2BIG,
			    "expression longer than %d bytes", LTT_FILTER_MAX_TEXT);
	if (next(&p))
		return p.rc;
	if (p.tok == T_END)
		return fail(&p, 0, -EINVAL, "empty filter expression");
	n = parse_expr(&p);
	if (n && p.tok != T_END) {
		if (p.tok == T_RPAREN)
			fail(&p, p.pos, -EINVAL, "')' without its '('");
		else
			fail(&p, p.pos, -EINVAL, "an operator expected here");
		ltt_filter_free(n);
		n = NULL;
	}
	free(p.str);
	if (n && check_literals(&p, n) == K_STR)
		fail(&p, n->pos, -EINVAL,
		     "a string is not a condition: compare it with a field (== or !=)");
	if (n && p.rc) {
		ltt_filter_free(n);
		n = NULL;
	}
	if (!n)
		return p.rc ? p.rc : -EINVAL;
	*ret = n;
	return 0;
}

void ltt_filter_free(struct ltt_filter_node *n)
{
	if (!n)
		return;
	ltt_filter_free(n->left);
	ltt_filter_free(n->right);
	free(n->str);
	free(n);
}


struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(o->len < o->size ? o->buf + o->len : NULL,
		      o->len < o->size ? o->size - o->len : 0, fmt, ap);
	va_end(ap);
	if (n > 0)
		o->len += (size_t)n;
}

static void print_node(struct out *o, const struct ltt_filter_node *n)
{
	char num[40];
	size_t i;

	switch (n->kind) {
	case LTT_FN_INT: put(o, "%llu", (unsigned long long)n->u); break;
	case LTT_FN_FLOAT:
		snprintf(num, sizeof(num), "%.17g", n->d);
		/* Keep it a float when re-parsed: "3" is "3.0". */
		put(o, "%s%s", num, strpbrk(num, ".e") ? "" : ".0");
		break;
	case LTT_FN_STRING:
		put(o, "\"");
		for (i = 0; i < n->len; i++) {
			char c = n->str[i];

			if (c == '\\')
				put(o, "\\%c", n->str[++i]);
			else if (c == '"')
				put(o, "\\\"");
			else if (c == '\n')
				put(o, "\\n");
			else if (c == '\t')
				put(o, "\\t");
			else
				put(o, "%c", c);
		}
		put(o, "\"");
		break;
	case LTT_FN_FIELD: put(o, "%s", n->str); break;
	case LTT_FN_CTX: put(o, "$ctx.%s", n->str); break;
	case LTT_FN_APP: put(o, "$app.%s", n->str); break;
	case LTT_FN_INDEX:
		print_node(o, n->left);
		put(o, "[%llu]", (unsigned long long)n->u);
		break;
	case LTT_FN_UNARY:
		put(o, "(%s", op_text[n->op]);
		print_node(o, n->left);
		put(o, ")");
		break;
	case LTT_FN_BINARY:
		put(o, "(");
		print_node(o, n->left);
		put(o, " %s ", op_text[n->op]);
		print_node(o, n->right);
		put(o, ")");
		break;
	}
}

size_t ltt_filter_print(const struct ltt_filter_node *n, char *buf, size_t size)
{
	struct out o = { buf, size, 0 };

	if (size)
		buf[0] = '\0';
	print_node(&o, n);
	return o.len;
}

void ltt_filter_caret(const char *text, const struct ltt_filter_error *err,
		      char *buf, size_t size)
{
	struct out o = { buf, size, 0 };
	size_t i, n = strlen(text);

	if (size)
		buf[0] = '\0';
	put(&o, "%s\n  ", err->msg);
	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)text[i];

		put(&o, "%c", c == '\t' || (c >= 0x20 && c != 0x7f) ? c : '?');
	}
	put(&o, "\n  ");
	for (i = 0; i < err->pos && i < n; i++)
		put(&o, "%c", text[i] == '\t' ? '\t' : ' ');
	put(&o, "^\n");
}
