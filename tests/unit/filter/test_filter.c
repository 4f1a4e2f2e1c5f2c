// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_filter.c - the filter language end to end without a daemon: parse
 * (trees and caret errors), type-check and compile against an event's
 * fields, validate (compiled and handcrafted hostile programs), run on
 * known argument values with exact expected counts.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/tracepoint-types.h>

#include "common/filter/filter-compile.h"
#include "common/filter/filter-parse.h"
#include "filter-vm/filter-vm.h"
#include "tests/unit/tap.h"

enum { F_INT, F_UINT, F_S8, F_DBL, F_FLT, F_STR, F_ARR, F_SEQ, F_TEXT, F_TSEQ, F_ENUM, F_NET, NR_F };

static const struct ltt_filter_field_desc fields[NR_F] = {
	[F_INT] = { "intfield", LTT_UST_TYPE_INTEGER, 4, 1, 0, 0, 0 },
	[F_UINT] = { "uintfield", LTT_UST_TYPE_INTEGER, 8, 0, 0, 0, 0 },
	[F_S8] = { "s8field", LTT_UST_TYPE_INTEGER, 1, 1, 0, 0, 0 },
	[F_DBL] = { "doublefield", LTT_UST_TYPE_FLOAT, 8, 1, 0, 0, 0 },
	[F_FLT] = { "floatfield", LTT_UST_TYPE_FLOAT, 4, 1, 0, 0, 0 },
	[F_STR] = { "stringfield", LTT_UST_TYPE_STRING, 1, 0, 1, 0, 0 },
	[F_ARR] = { "arrfield", LTT_UST_TYPE_ARRAY, 2, 1, 0, 4, 0 },
	[F_SEQ] = { "seqfield", LTT_UST_TYPE_SEQUENCE, 1, 0, 0, 0, 0 },
	[F_TEXT] = { "textfield", LTT_UST_TYPE_ARRAY, 1, 0, 1, 8, 0 },
	[F_TSEQ] = { "textseq", LTT_UST_TYPE_SEQUENCE, 1, 0, 1, 0, 0 },
	[F_ENUM] = { "enumfield", LTT_UST_TYPE_ENUM, 1, 0, 0, 0, 0 },
	/* LTTng's ctf_array_network(int32_t, ...): big-endian elements */
	[F_NET] = { "netarr", LTT_UST_TYPE_ARRAY, 4, 1, 0, 3, 1 },
};

/* The event's values. */
static int32_t v_int;
static uint64_t v_uint;
static int8_t v_s8;
static double v_dbl;
static float v_flt;
static char v_str[64];
static int16_t v_arr[4];
static uint8_t v_seq[3];
static uint32_t v_seq_n;
static char v_text[8];
static char v_tseq[16];
static uint8_t v_enum;
static uint8_t v_net[12];

static int ctx_cb(void *priv, unsigned int id, struct ltt_filter_value *out)
{
	(void)priv;
	if (id == LTT_FILTER_CTX_VPID) {
		out->type = LTT_FTYPE_S64;
		out->v.s = 1234;
		return 0;
	}
	if (id == LTT_FILTER_CTX_PROCNAME) {
		out->type = LTT_FTYPE_STR;
		out->v.str.p = "myprog";
		out->v.str.n = 6;
		return 0;
	}
	return -1;
}

static int app_cb(void *priv, const char *name, size_t len, struct ltt_filter_value *out)
{
	(void)priv;
	if (len == 12 && !memcmp(name, "myprov:count", 12)) {
		out->type = LTT_FTYPE_S64;
		out->v.s = 42;
		return 0;
	}
	if (len == 11 && !memcmp(name, "myprov:name", 11)) {
		out->type = LTT_FTYPE_STR;
		out->v.str.p = "hello";
		out->v.str.n = 5;
		return 0;
	}
	return -1;
}

static void make_env(struct ltt_filter_env *env, struct ltt_filter_arg *args)
{
	args[F_INT] = (struct ltt_filter_arg){ &v_int, 0 };
	args[F_UINT] = (struct ltt_filter_arg){ &v_uint, 0 };
	args[F_S8] = (struct ltt_filter_arg){ &v_s8, 0 };
	args[F_DBL] = (struct ltt_filter_arg){ &v_dbl, 0 };
	args[F_FLT] = (struct ltt_filter_arg){ &v_flt, 0 };
	args[F_STR] = (struct ltt_filter_arg){ v_str, (uint32_t)strlen(v_str) };
	args[F_ARR] = (struct ltt_filter_arg){ v_arr, 4 };
	args[F_SEQ] = (struct ltt_filter_arg){ v_seq, v_seq_n };
	args[F_TEXT] = (struct ltt_filter_arg){ v_text, 8 };
	args[F_TSEQ] = (struct ltt_filter_arg){ v_tseq, (uint32_t)strlen(v_tseq) };
	args[F_ENUM] = (struct ltt_filter_arg){ &v_enum, 0 };
	args[F_NET] = (struct ltt_filter_arg){ v_net, 3 };
	env->args = args;
	env->nr_args = NR_F;
	env->ctx = ctx_cb;
	env->app = app_cb;
	env->priv = NULL;
}

/* Compile @expr (asserting that what compiles validates); or NULL. */
static uint8_t *compile(const char *expr, size_t *len, int *rc, struct ltt_filter_error *err)
{
	struct ltt_filter_node *root;
	uint8_t *prog = NULL;

	*rc = ltt_filter_parse(expr, &root, err);
	if (*rc)
		return NULL;
	*rc = ltt_filter_compile(root, fields, NR_F, &prog, len, err);
	ltt_filter_free(root);
	if (!*rc && ltt_filter_validate(prog, *len, fields, NR_F)) {
		tap_diag("'%s' compiled but does not validate", expr);
		*rc = -EBADMSG;
	}
	return prog;
}

/* Run @expr on the current values: 1, 0, or a negative errno. */
static int eval(const char *expr)
{
	struct ltt_filter_arg args[NR_F];
	struct ltt_filter_env env;
	struct ltt_filter_error err;
	size_t len;
	int rc, r;
	uint8_t *prog = compile(expr, &len, &rc, &err);

	if (rc) {
		free(prog);
		return rc;
	}
	make_env(&env, args);
	r = ltt_filter_run(prog, &env);
	free(prog);
	return r;
}

static void set_defaults(void)
{
	v_int = 42;
	v_uint = 0xffffffffffffff00ull;
	v_s8 = -3;
	v_dbl = 2.5;
	v_flt = 0.25f;
	strcpy(v_str, "hello world");
	v_arr[0] = -1, v_arr[1] = 2, v_arr[2] = 300, v_arr[3] = -32768;
	v_seq[0] = 7, v_seq[1] = 8, v_seq[2] = 255;
	v_seq_n = 3;
	memcpy(v_text, "abc\0defg", 8);
	strcpy(v_tseq, "seqtext");
	v_enum = 2;
	/* 1, 258, -2 as big-endian 32-bit integers */
	memcpy(v_net, "\0\0\0\1\0\0\1\2\xff\xff\xff\xfe", 12);
}

static const struct {
	const char *expr;
	int want;
} cases[] = {
	{ "intfield == 42", 1 }, { "intfield != 42", 0 }, { "intfield < 43", 1 },
	{ "intfield <= 42", 1 }, { "intfield > 42", 0 }, { "intfield >= 42", 1 },
	{ "42 == intfield", 1 }, { "intfield > -1", 1 }, { "s8field == -3", 1 },
	{ "s8field < 0", 1 }, { "s8field < 0xffffffffffffffff", 1 },
	{ "uintfield > 0", 1 }, { "uintfield == 0xffffffffffffff00", 1 },
	{ "uintfield > -1", 1 }, { "uintfield > intfield", 1 },
	{ "doublefield == 2.5", 1 }, { "doublefield > 2", 1 }, { "doublefield < 2.4", 0 },
	{ "floatfield == 0.25", 1 }, { "floatfield < intfield", 1 },
	{ "doublefield > -1e3", 1 }, { "intfield == 42.0", 1 }, { "intfield < 42.5", 1 },
	{ "stringfield == \"hello world\"", 1 }, { "stringfield == \"hello\"", 0 },
	{ "stringfield != \"hello\"", 1 }, { "stringfield == \"hello*\"", 1 },
	{ "stringfield == \"*world\"", 1 }, { "stringfield == \"*lo w*\"", 1 },
	{ "stringfield == \"h*o*d\"", 1 }, { "stringfield == \"h*x*\"", 0 },
	{ "stringfield != \"x*\"", 1 }, { "\"hel*\" == stringfield", 1 },
	{ "stringfield == \"*\"", 1 }, { "stringfield == \"hello\\*\"", 0 },
	{ "stringfield < \"hello x\"", 1 }, { "stringfield > \"hello\"", 1 },
	{ "netarr[0] == 1", 1 }, { "netarr[1] == 258", 1 }, { "netarr[2] == -2", 1 },
	{ "stringfield >= \"hello world\"", 1 },
	{ "arrfield[0] == -1", 1 }, { "arrfield[2] == 300", 1 }, { "arrfield[3] < -32767", 1 },
	{ "seqfield[2] == 255", 1 }, { "seqfield[0] + 0", -EINVAL }, { "seqfield[3] == 0", 0 },
	{ "seqfield[3] != 0", 0 }, { "textfield == \"abc\"", 1 }, { "textfield == \"ab*\"", 1 },
	{ "textseq == \"seq*\"", 1 }, { "textseq == \"seqtext\"", 1 }, { "textfield[1] == 98", 1 },
	{ "enumfield == 2", 1 },
	{ "intfield == 42 && doublefield > 2", 1 }, { "intfield == 41 && doublefield > 2", 0 },
	{ "intfield == 41 || doublefield > 2", 1 }, { "intfield == 41 || doublefield > 3", 0 },
	{ "!(intfield == 41)", 1 }, { "!intfield", 0 }, { "intfield", 1 },
	{ "intfield && s8field", 1 }, { "intfield & 2", 1 }, { "(intfield & 1) == 0", 1 },
	{ "(intfield | 1) == 43", 1 }, { "(intfield ^ 0xff) == 213", 1 },
	{ "(intfield << 2) == 168", 1 }, { "(intfield >> 1) == 21", 1 },
	{ "(s8field >> 1) == 0x7ffffffffffffffe", 1 }, { "~intfield == -43", 1 }, { "(1 << 64) == 0", 0 },
	{ "(1 << -1) == 0", 0 }, { "(uintfield >> 8) == 0xffffffffffffff", 1 },
	{ "$ctx.vpid == 1234", 1 }, { "$ctx.procname == \"my*\"", 1 },
	{ "$ctx.procname == \"myprog\"", 1 }, { "$ctx.vtid == 1", 0 },
	{ "$app.myprov:count == 42", 1 }, { "$app.myprov:count > 41.5", 1 },
	{ "$app.myprov:name == \"hel*\"", 1 }, { "$app.myprov:name == 3", 0 },
	{ "$app.myprov:absent == 3", 0 }, { "$app.myprov:absent != 3", 0 },
	{ "intfield == 42 && (stringfield == \"x*\" || arrfield[1] == 2) && !(s8field > 0)", 1 },
	{ "1 || nosuchfield == 1", -ENOENT },
	/* LTTng's: bitwise operators before comparisons, shifts and == of bits */
	{ "1&3==1", 1 }, { "(3|1==3)==1", 1 }, { "(2^1==3)==1", 1 },
	{ "~0>>4==0x0fffffffffffffff", 1 }, { "(1 << 63) == 9223372036854775808", 1 },
	{ "uintfield == -256", 1 }, { "uintfield > -256", 1 },
	/* negation of any number; floats as truth values */
	{ "-intfield == -42", 1 }, { "--intfield == 42", 1 }, { "-intfield", 1 },
	{ "-doublefield < -2", 1 }, { "doublefield", 1 }, { "!doublefield", 0 },
	{ "doublefield && 1", 1 }, { "1.0 || intfield || 1.0", 1 }, { "0.0 || !intfield", 0 },
	/* two literals: folded as LTTng decides them */
	{ "\"salut*\" == \"salut vous*\"", 1 }, { "\"salut vous*\" == \"salut*\"", 1 },
	{ "\"sa*t\" == \"salut\"", 1 }, { "\"salut\" != \"sa*x\"", 1 },
	{ "\"ab\" == \"ab\"", 1 }, { "\"ab\" == \"abc\"", 0 }, { "\"a\\*\" == \"a*\"", 1 },
};

static void test_semantics(void)
{
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		set_defaults();
		tap_is_int(eval(cases[i].expr), cases[i].want, "%s", cases[i].expr);
	}
}

/* Exact counts over 1000 events with known values. */
static void test_counts(void)
{
	static const struct {
		const char *expr;
		int want;
	} c[] = {
		{ "intfield > 10", 989 }, { "intfield >= 10 && intfield < 20", 10 },
		{ "(intfield & 1) == 0", 500 }, { "intfield % 2", -1 },
		{ "stringfield == \"ev-1*\"", 111 }, { "stringfield == \"*7\"", 100 },
		{ "stringfield == \"ev-99\"", 1 }, { "doublefield <= 49.75", 200 },
		{ "seqfield[1] == 3", 66 }, { "intfield < 10 || intfield > 990", 19 },
	};
	size_t i;
	int n, k;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ltt_filter_arg args[NR_F];
		struct ltt_filter_env env;
		struct ltt_filter_error err;
		size_t len;
		int rc;
		uint8_t *prog = compile(c[i].expr, &len, &rc, &err);

		if (c[i].want < 0) {
			tap_ok(rc == -EINVAL && strstr(err.msg, "'%'"), "%s refused: %s",
			       c[i].expr, err.msg);
			continue;
		}
		set_defaults();
		for (n = k = 0; prog && k < 1000; k++) {
			v_int = k;
			snprintf(v_str, sizeof(v_str), "ev-%d", k);
			v_dbl = k / 4.0;
			v_seq[1] = (uint8_t)(k % 10);
			v_seq_n = (uint32_t)(k % 3 == 0 ? 1 : 3);
			make_env(&env, args);
			n += ltt_filter_run(prog, &env);
		}
		/* seqfield[1] is out of range (reject) when the count is 1. */
		tap_is_int(n, c[i].want, "%s: %d of 1000", c[i].expr, c[i].want);
		free(prog);
	}
}

/* Errors: the exact message and caret. */
static void test_errors(void)
{
	static const struct {
		const char *expr;
		int rc;
		const char *want;
	} c[] = {
		{ "intfield ==", -EINVAL,
		  "a field, a context field or a literal expected at the end\n  intfield ==\n             ^\n" },
		{ "intfield = 3", -EINVAL,
		  "unexpected character '='\n  intfield = 3\n           ^\n" },
		{ "(intfield == 3", -EINVAL,
		  "'(' without its ')'\n  (intfield == 3\n  ^\n" },
		{ "intfield == 3)", -EINVAL,
		  "')' without its '('\n  intfield == 3)\n               ^\n" },
		{ "intfield + 1 == 3", -EINVAL,
		  "arithmetic operator '+' is not supported\n  intfield + 1 == 3\n           ^\n" },
		{ "stringfield == \"abc", -EINVAL,
		  "string without its closing '\"'\n  stringfield == \"abc\n                 ^\n" },
		{ "stringfield == \"a\\qb\"", -EINVAL,
		  "unknown escape (use \\\\ \\\" \\* \\n or \\t)\n  stringfield == \"a\\qb\"\n                   ^\n" },
		{ "$foo == 1", -EINVAL,
		  "'$' starts $ctx.NAME or $app.PROVIDER:NAME\n  $foo == 1\n  ^\n" },
		{ "$app.prov == 1", -EINVAL,
		  "$app. is followed by PROVIDER:NAME\n  $app.prov == 1\n           ^\n" },
		{ "intfield == 0x", -EINVAL, "malformed number\n  intfield == 0x\n              ^\n" },
		{ "intfield == 09", -EINVAL,
		  "digit '9' in an octal number\n  intfield == 09\n               ^\n" },
		{ "intfield == 18446744073709551616", -EINVAL,
		  "integer beyond 18446744073709551615\n  intfield == 18446744073709551616\n              ^\n" },
		{ "intfield 3", -EINVAL, "an operator expected here\n  intfield 3\n           ^\n" },
		{ "", -EINVAL, "empty filter expression\n  \n  ^\n" },
		{ "arrfield[x] == 1", -EINVAL,
		  "an integer index expected here\n  arrfield[x] == 1\n           ^\n" },
		/* Type errors, positions from the tree. */
		{ "nosuch == 1", -ENOENT, "no field 'nosuch' in this event\n  nosuch == 1\n  ^\n" },
		{ "stringfield == 1", -EINVAL,
		  "cannot compare a string with a number\n  stringfield == 1\n              ^\n" },
		{ "stringfield < \"a*\"", -EINVAL,
		  "a '*' pattern compares with == or != only\n  stringfield < \"a*\"\n              ^\n" },
		{ "intfield == \"a*\"", -EINVAL,
		  "a pattern matches a string only\n  intfield == \"a*\"\n  ^\n" },
		{ "arrfield == 1", -EINVAL,
		  "field 'arrfield' is an array or sequence: compare one element (arrfield[N])\n"
		  "  arrfield == 1\n  ^\n" },
		{ "arrfield[4] == 1", -EINVAL,
		  "index 4 beyond the 4 elements of 'arrfield'\n  arrfield[4] == 1\n          ^\n" },
		{ "intfield[0] == 1", -EINVAL,
		  "field 'intfield' is not an array or sequence\n  intfield[0] == 1\n          ^\n" },
		{ "doublefield & 1", -EINVAL,
		  "bitwise operators take integers\n  doublefield & 1\n              ^\n" },
		{ "!stringfield", -EINVAL,
		  "'!' takes a number (or a comparison)\n  !stringfield\n   ^\n" },
		{ "stringfield", -EINVAL,
		  "a filter is a condition: compare this value (==, !=, <...)\n  stringfield\n  ^\n" },
		{ "-stringfield == 1", -EINVAL, "'-' takes a number\n  -stringfield == 1\n  ^\n" },
		/* LTTng's checks of literals, before any field is known */
		{ "\"somestring\"", -EINVAL, "a string is not a condition: compare it with a field "
		  "(== or !=)\n  \"somestring\"\n  ^\n" },
		{ "!\"s\"", -EINVAL, "'!' does not apply to a string\n  !\"s\"\n  ^\n" },
		{ "\"s\" > 42", -EINVAL, "cannot compare a string with a number\n  \"s\" > 42\n      ^\n" },
		{ "1 || \"s\"", -EINVAL, "'||' takes conditions, not a string\n  1 || \"s\"\n    ^\n" },
		{ "\"h*w\" == \"yes*\"", -EINVAL, "cannot compare two '*' patterns (write \\* for "
		  "a star)\n  \"h*w\" == \"yes*\"\n        ^\n" },
		{ "\"h*w\" && x", -EINVAL, "'&&' takes conditions, not a string\n  \"h*w\" && x\n        ^\n" },
		{ "1.5 & 1", -EINVAL, "'&' takes integers, not a float\n  1.5 & 1\n      ^\n" },
		{ "x < \"a*\"", -EINVAL,
		  "a '*' pattern compares with == or != only\n  x < \"a*\"\n    ^\n" },
		{ "$ctx.nosuch == 1", -EINVAL,
		  "unknown context field '$ctx.nosuch'\n  $ctx.nosuch == 1\n  ^\n" },
		{ "$app.p:n == intfield", -EINVAL,
		  "an $app context compares with a literal only\n  $app.p:n == intfield\n           ^\n" },
		{ "\tintfield ==\t\"x", -EINVAL,
		  "string without its closing '\"'\n  \tintfield ==\t\"x\n  \t           \t^\n" },
	};
	char buf[512];
	size_t i, len;
	int rc;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct ltt_filter_error err = { 0, "" };
		uint8_t *prog = compile(c[i].expr, &len, &rc, &err);

		free(prog);
		ltt_filter_caret(c[i].expr, &err, buf, sizeof(buf));
		tap_ok(rc == c[i].rc && !strcmp(buf, c[i].want), "error of '%s'", c[i].expr);
		if (strcmp(buf, c[i].want))
			tap_diag("got:\n%s", buf);
	}
}

/* Trees print back to an expression that parses to the same tree. */
static void test_print(void)
{
	static const char *const c[][2] = {
		{ "a || b && c | d ^ e & f == g < h << i",
		  "(a || (b && ((c | (d ^ (e & f))) == (g < (h << i)))))" },
		{ "a == 1 == 2", "((a == 1) == 2)" },
		{ "!~-5 == x[3][1]", "((!(~(-5))) == x[3][1])" },
		{ "$ctx.vpid >= 0x10 && $app.my.prov:v != \"a\\*b*\\\\\"",
		  "(($ctx.vpid >= 16) && ($app.my.prov:v != \"a\\*b*\\\\\"))" },
		{ "x > 1.5 || y < 2e3 || z == .5 || w == 3.", "((((x > 1.5) || (y < 2000.0)) || (z == 0.5)) || (w == 3.0))" },
	};
	char buf[256], again[256];
	struct ltt_filter_node *n;
	size_t i;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		buf[0] = again[0] = '\0';
		if (!ltt_filter_parse(c[i][0], &n, NULL)) {
			ltt_filter_print(n, buf, sizeof(buf));
			ltt_filter_free(n);
		}
		tap_is_str(buf, c[i][1], "tree of '%s'", c[i][0]);
		if (!ltt_filter_parse(buf, &n, NULL)) {
			ltt_filter_print(n, again, sizeof(again));
			ltt_filter_free(n);
		}
		tap_is_str(again, buf, "re-parsed");
	}
}

/* A program of @code (@n bytes) with max_stack @ms. */
static size_t mk(uint8_t *out, const uint8_t *code, size_t n, uint8_t ms)
{
	memcpy(out, LTT_FILTER_MAGIC, 4);
	out[4] = LTT_FILTER_VERSION;
	out[5] = ms;
	out[6] = out[7] = 0;
	out[8] = (uint8_t)n;
	out[9] = (uint8_t)(n >> 8);
	out[10] = out[11] = 0;
	memcpy(out + LTT_FILTER_HEADER_LEN, code, n);
	return LTT_FILTER_HEADER_LEN + n;
}

#define S64(v) LTT_FOP_PUSH_S64, (v), 0, 0, 0, 0, 0, 0, 0
#define INTF LTT_FOP_LOAD_FIELD, F_INT, 0, LTT_UST_TYPE_INTEGER, 4, LTT_FILTER_F_SIGNED

static void test_hostile(void)
{
	static const struct {
		const char *what;
		uint8_t code[48];
		uint8_t n, ms;
		int rc;
	} c[] = {
		{ "the smallest program", { S64(1), LTT_FOP_RETURN }, 10, 1, 0 },
		{ "no RETURN", { S64(1) }, 9, 1, -EINVAL },
		{ "empty stack at RETURN", { LTT_FOP_RETURN }, 1, 1, -EINVAL },
		{ "two slots at RETURN", { S64(1), S64(2), LTT_FOP_RETURN }, 19, 2, -EINVAL },
		{ "stack beyond max_stack", { S64(1), S64(2), LTT_FOP_EQ, LTT_FOP_RETURN }, 20, 1, -EINVAL },
		{ "max_stack beyond the limit", { S64(1), LTT_FOP_RETURN }, 10, 33, -E2BIG },
		{ "max_stack 0", { S64(1), LTT_FOP_RETURN }, 10, 0, -EINVAL },
		{ "underflow", { LTT_FOP_EQ, S64(1), LTT_FOP_RETURN }, 11, 2, -EINVAL },
		{ "truncated operand", { LTT_FOP_PUSH_S64, 1, 0, 0 }, 4, 1, -EINVAL },
		{ "unknown opcode", { S64(1), 0x7f, LTT_FOP_RETURN }, 11, 1, -EINVAL },
		{ "jump beyond the end", { S64(1), LTT_FOP_JUMP_FALSE, 0xff, 0x00, S64(1),
		  LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1, -EINVAL },
		{ "jump to the end", { S64(1), LTT_FOP_JUMP_FALSE, 11, 0, S64(1),
		  LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1, -EINVAL },
		{ "jump inside an instruction", { S64(1), LTT_FOP_JUMP_FALSE, 1, 0, S64(1),
		  LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1, -EINVAL },
		{ "good jump", { S64(1), LTT_FOP_JUMP_FALSE, 10, 0, S64(1),
		  LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1, 0 },
		{ "jump with different stacks", { S64(1), LTT_FOP_JUMP_FALSE, 9, 0,
		  LTT_FOP_PUSH_DBL, 0, 0, 0, 0, 0, 0, 0, 0, LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1,
		  -EINVAL },
		{ "jump on a string", { LTT_FOP_PUSH_STR, 0, 0, LTT_FOP_JUMP_FALSE, 0, 0, LTT_FOP_RETURN },
		  7, 1, -EINVAL },
		{ "unreachable code", { S64(1), LTT_FOP_RETURN, S64(1), LTT_FOP_RETURN }, 20, 1, -EINVAL },
		{ "field index beyond the event", { LTT_FOP_LOAD_FIELD, NR_F, 0, LTT_UST_TYPE_INTEGER, 4,
		  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1, -EINVAL },
		{ "field of another type", { LTT_FOP_LOAD_FIELD, F_INT, 0, LTT_UST_TYPE_INTEGER, 8,
		  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1, -EINVAL },
		{ "field of another sign", { LTT_FOP_LOAD_FIELD, F_INT, 0, LTT_UST_TYPE_INTEGER, 4, 0,
		  LTT_FOP_RETURN }, 7, 1, -EINVAL },
		{ "string field as text", { LTT_FOP_LOAD_FIELD, F_ARR, 0, LTT_UST_TYPE_ARRAY, 2,
		  LTT_FILTER_F_SIGNED | LTT_FILTER_F_TEXT, LTT_FOP_RETURN }, 7, 1, -EINVAL },
		{ "a field", { INTF, LTT_FOP_RETURN }, 7, 1, 0 },
		{ "array index out of bounds", { LTT_FOP_LOAD_ELEM, F_ARR, 0, LTT_UST_TYPE_ARRAY, 2,
		  LTT_FILTER_F_SIGNED, 4, 0, 0, 0, LTT_FOP_RETURN }, 11, 1, -EINVAL },
		{ "array element", { LTT_FOP_LOAD_ELEM, F_ARR, 0, LTT_UST_TYPE_ARRAY, 2,
		  LTT_FILTER_F_SIGNED, 3, 0, 0, 0, LTT_FOP_RETURN }, 11, 1, 0 },
		{ "element of a string", { LTT_FOP_LOAD_ELEM, F_STR, 0, LTT_UST_TYPE_STRING, 1,
		  0, 0, 0, 0, 0, LTT_FOP_RETURN }, 11, 1, -EINVAL },
		{ "context id beyond the table", { LTT_FOP_LOAD_CTX, LTT_FILTER_NR_CTX, LTT_FOP_RETURN },
		  3, 1, -EINVAL },
		{ "returns a string", { LTT_FOP_LOAD_CTX, LTT_FILTER_CTX_PROCNAME, LTT_FOP_RETURN },
		  3, 1, -EINVAL },
		{ "string beyond the code", { LTT_FOP_PUSH_STR, 9, 0, 'a', LTT_FOP_RETURN }, 5, 1,
		  -EINVAL },
		{ "string against integer", { LTT_FOP_PUSH_STR, 0, 0, S64(1), LTT_FOP_EQ,
		  LTT_FOP_RETURN }, 14, 2, -EINVAL },
		{ "bad pattern escape", { LTT_FOP_PUSH_STR, 0, 0, LTT_FOP_GLOB_EQ, 2, 0, '\\', 'a',
		  LTT_FOP_RETURN }, 9, 1, -EINVAL },
		{ "pattern on an integer", { S64(1), LTT_FOP_GLOB_EQ, 1, 0, '*', LTT_FOP_RETURN }, 14,
		  1, -EINVAL },
		{ "bitwise on a float", { LTT_FOP_PUSH_DBL, 0, 0, 0, 0, 0, 0, 0, 0, LTT_FOP_BIT_NOT,
		  LTT_FOP_RETURN }, 11, 1, -EINVAL },
	};
	uint8_t prog[128];
	size_t i, len;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		len = mk(prog, c[i].code, c[i].n, c[i].ms);
		tap_is_int(ltt_filter_validate(prog, len, fields, NR_F), c[i].rc, "%s", c[i].what);
	}
	len = mk(prog, c[0].code, c[0].n, 1);
	prog[4] = 2;
	tap_is_int(ltt_filter_validate(prog, len, fields, NR_F), -EPROTO, "another version");
	prog[4] = LTT_FILTER_VERSION;
	prog[6] = 1;
	tap_is_int(ltt_filter_validate(prog, len, fields, NR_F), -EINVAL, "reserved byte set");
	prog[6] = 0;
	prog[0] = 'X';
	tap_is_int(ltt_filter_validate(prog, len, fields, NR_F), -EINVAL, "bad magic");
	prog[0] = 'L';
	tap_is_int(ltt_filter_validate(prog, len - 1, fields, NR_F), -EINVAL, "length short of code_len");
	tap_is_int(ltt_filter_validate(prog, 5, fields, NR_F), -EINVAL, "truncated header");
}

/*
 * Every truncation of a real program is refused; every one-byte change is
 * refused or, when still valid, runs (the point: no crash, checked by the
 * sanitizer builds too).
 */
static void test_mutations(void)
{
	const char *expr = "intfield > 10 && (stringfield == \"ev*\" || arrfield[2] != -1) && "
			   "!(seqfield[1] & 4) || $ctx.procname == \"x\" || textfield == \"a\"";
	struct ltt_filter_arg args[NR_F];
	struct ltt_filter_env env;
	struct ltt_filter_error err;
	size_t len, i, cut_ok = 0, valid = 0, total = 0;
	int rc, v;
	uint8_t *prog = compile(expr, &len, &rc, &err), *m;

	tap_ok(!rc, "mutation base compiles");
	if (rc)
		return;
	for (i = 0; i < len; i++)
		cut_ok += ltt_filter_validate(prog, i, fields, NR_F) != 0;
	tap_is_u64(cut_ok, len, "all %zu truncations refused", len);
	m = malloc(len);
	set_defaults();
	make_env(&env, args);
	for (i = 0; m && i < len; i++) {
		for (v = 0; v < 256; v++) {
			memcpy(m, prog, len);
			m[i] = (uint8_t)v;
			total++;
			if (!ltt_filter_validate(m, len, fields, NR_F)) {
				valid++;
				(void)ltt_filter_run(m, &env);
			}
		}
	}
	tap_diag("%zu of %zu one-byte mutants valid, all ran", valid, total);
	tap_ok(m && valid < total, "mutants checked");
	free(m);
	free(prog);
}

/* Nested && up to the format's limit of jumps in the air, not beyond. */
static void test_nesting(void)
{
	char expr[2048];
	size_t len;
	int k, rc;
	uint8_t *prog;

	for (k = LTT_FILTER_MAX_JUMPS; k <= LTT_FILTER_MAX_JUMPS + 1; k++) {
		struct ltt_filter_error err = { 0, "" };
		int i, n = 0;

		for (i = 0; i < k; i++)
			n += snprintf(expr + n, sizeof(expr) - (size_t)n, "intfield > %d && (", i);
		n += snprintf(expr + n, sizeof(expr) - (size_t)n, "intfield > %d", k);
		for (i = 0; i < k; i++)
			expr[n++] = ')';
		expr[n] = '\0';
		prog = compile(expr, &len, &rc, &err);
		if (k == LTT_FILTER_MAX_JUMPS) {
			set_defaults();
			tap_ok(!rc && eval(expr) == 1, "%d nested && compile, validate, run", k);
		} else {
			tap_ok(rc == -E2BIG && !strcmp(err.msg, "more than 32 nested && and ||"),
			       "%d nested && refused: %s", k, err.msg);
		}
		free(prog);
	}
}

int main(void)
{
	test_semantics();
	test_counts();
	test_errors();
	test_print();
	test_hostile();
	test_mutations();
	test_nesting();
	return tap_done();
}
