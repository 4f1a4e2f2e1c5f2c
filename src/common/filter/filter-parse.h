/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-parse.h - LTTng 2.13's filter language, parsed to a tree whose
 * every node knows where it stands in the text (for error carets).
 *
 *   expr    := or
 *   or      := and ('||' and)*          and := equal ('&&' equal)*
 *   equal   := rel (('=='|'!=') rel)*
 *   rel     := bitor (('<'|'<='|'>'|'>=') bitor)*
 *   bitor   := bitxor ('|' bitxor)*     bitxor := bitand ('^' bitand)*
 *   bitand  := shift ('&' shift)*
 *   shift   := unary (('<<'|'>>') unary)*
 *   unary   := ('!'|'~'|'-'|'+') unary | postfix
 *   postfix := primary ('[' integer ']')*
 *   primary := integer | float | string | field | '$ctx.' NAME
 *            | '$app.' PROVIDER ':' NAME | '(' expr ')'
 *
 * Integers: decimal, 0x hexadecimal, 0 octal, up to 2^64-1.  Strings in
 * double quotes with \\ \" \* \n \t escapes; an unescaped '*' makes the
 * string a glob pattern.  The arithmetic operators + - * / % between two
 * operands are refused as LTTng refuses them ('-' negates a number).
 *
 * The order of the levels is LTTng's, not C's: the bitwise operators bind
 * tighter than the comparisons.  The parser also makes LTTng's checks of
 * literals, which need no event: a string literal is not a condition nor
 * an operand of a unary, logical or bitwise operator, and compares with ==
 * or != (a '*' pattern) or any comparison (a plain string: ltt's own), with
 * no number; a float is no operand of a bitwise operator; two '*'
 * patterns are not compared, but two that end in their only '*'.
 */
#ifndef LTT_FILTER_PARSE_H
#define LTT_FILTER_PARSE_H

#include <stddef.h>
#include <stdint.h>

#define LTT_FILTER_MAX_TEXT 4096	/* bytes of an expression */
#define LTT_FILTER_MAX_DEPTH 64		/* nesting of the tree */

enum ltt_filter_node_kind {
	LTT_FN_INT,		/* literal: @u, @is_unsigned when > INT64_MAX */
	LTT_FN_FLOAT,		/* literal: @d */
	LTT_FN_STRING,		/* literal: @str (glob form, see below), @len */
	LTT_FN_FIELD,		/* event field @str */
	LTT_FN_CTX,		/* $ctx.@str */
	LTT_FN_APP,		/* $app.@str ("PROVIDER:NAME") */
	LTT_FN_INDEX,		/* @left[@u] */
	LTT_FN_UNARY,		/* @op @left: '!', '~', '-' */
	LTT_FN_BINARY,		/* @left @op @right */
};

/* Binary and unary operators (@op). */
enum ltt_filter_opkind {
	LTT_FO_OR = 1, LTT_FO_AND, LTT_FO_BIT_OR, LTT_FO_BIT_XOR, LTT_FO_BIT_AND,
	LTT_FO_EQ, LTT_FO_NE, LTT_FO_LT, LTT_FO_LE, LTT_FO_GT, LTT_FO_GE,
	LTT_FO_LSHIFT, LTT_FO_RSHIFT, LTT_FO_NOT, LTT_FO_BIT_NOT, LTT_FO_NEG,
};

/*
 * One node.  String literals keep their "glob form": escapes resolved but
 * for "\*" and "\\", which stay as they are, so that an unescaped '*'
 * (@is_glob) is a wildcard.
 */
struct ltt_filter_node {
	enum ltt_filter_node_kind kind;
	int op;				/* enum ltt_filter_opkind */
	size_t pos;			/* byte offset of the node's token */
	uint64_t u;			/* INT value, INDEX index */
	int is_unsigned;		/* INT: does not fit int64_t */
	double d;
	char *str;			/* STRING, FIELD, CTX, APP: owned, NUL-terminated */
	size_t len;
	int is_glob;
	struct ltt_filter_node *left, *right;
};

/* Where an expression is wrong and why. */
struct ltt_filter_error {
	size_t pos;		/* byte offset of the bad token */
	char msg[160];
};

/**
 * ltt_filter_note() - keep the first failure of a parse or a compile
 * @rc: the first failure so far (0: none), set to @code when 0
 * @err: receives @pos and the message made of @fmt with the first failure
 *       (NULL: no message wanted)
 *
 * Returns the first failure's code, *@rc.
 */
int ltt_filter_note(int *rc, struct ltt_filter_error *err, size_t pos, int code,
		    const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/**
 * ltt_filter_parse() - parse a filter expression
 * @text: the expression (NUL-terminated, at most LTT_FILTER_MAX_TEXT bytes)
 * @ret: the tree, the caller's (ltt_filter_free())
 * @err: on -EINVAL, what and where; may be NULL
 *
 * Any thread; no shared state.
 * Return: 0; -EINVAL for a syntax error, -E2BIG for a text or nesting
 * beyond the limits (@err set too); -ENOMEM.
 */
int ltt_filter_parse(const char *text, struct ltt_filter_node **ret,
		     struct ltt_filter_error *err);

/**
 * ltt_filter_free() - free a tree from ltt_filter_parse() (NULL is fine)
 * @n: the root
 */
void ltt_filter_free(struct ltt_filter_node *n);

/**
 * ltt_filter_print() - the tree as a fully parenthesised expression
 * @n: the root
 * @buf: where to write, NUL-terminated, cut to @size
 * @size: bytes of @buf
 *
 * Re-parsing the text gives the same tree.
 * Return: the length the whole text needs (as snprintf()).
 */
size_t ltt_filter_print(const struct ltt_filter_node *n, char *buf, size_t size);

/**
 * ltt_filter_caret() - an error as a user reads it
 * @text: the expression
 * @err: the error
 * @buf: receives "MSG\n  TEXT\n  ^\n" with the caret under @err->pos
 *       (tabs of the text kept in the caret line so that it lines up)
 * @size: bytes of @buf; cut, NUL-terminated
 *
 * Control characters of @text (but tab) are shown as '?'.
 */
void ltt_filter_caret(const char *text, const struct ltt_filter_error *err,
		      char *buf, size_t size);

#endif /* LTT_FILTER_PARSE_H */
