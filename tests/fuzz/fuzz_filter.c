// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_filter.c - the filter language's parser and compiler
 * (common/filter/filter-parse.c, common/filter/filter-compile.c): the text a user gives
 * to `enable-event --filter`, read by the session daemon.
 *
 * Input: the expression (cut at its first NUL).  Promises checked: an
 * error has a message and a position inside the text; an accepted tree
 * prints to an expression that parses to the same tree; what compiles
 * passes the tracer's validator and runs to 0 or 1 on values taken from
 * the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/filter/filter-compile.h"
#include "common/filter/filter-parse.h"
#include "filter-event.h"
#include "fuzz.h"

static void check_error(const char *text, const struct ltt_filter_error *err)
{
	char buf[256];

	FUZZ_CHECK(err->msg[0] != '\0');
	FUZZ_CHECK(err->pos <= strlen(text));
	ltt_filter_caret(text, err, buf, sizeof(buf));
	FUZZ_CHECK(strchr(buf, '^') || strlen(buf) == sizeof(buf) - 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_filter_node *root, *again;
	struct ltt_filter_error err = { 0, "" };
	struct ltt_filter_env env;
	struct fe_values vals;
	char *text = malloc(size + 1), *p1, *p2;
	size_t n1, n2, len;
	uint8_t *prog;
	int rc, r;

	FUZZ_CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	rc = ltt_filter_parse(text, &root, &err);
	if (rc) {
		FUZZ_CHECK(!root);
		check_error(text, &err);
		free(text);
		return 0;
	}
	n1 = ltt_filter_print(root, NULL, 0);
	p1 = malloc(n1 + 1);
	FUZZ_CHECK(p1 && ltt_filter_print(root, p1, n1 + 1) == n1);
	if (n1 <= LTT_FILTER_MAX_TEXT && !ltt_filter_parse(p1, &again, NULL)) {
		n2 = ltt_filter_print(again, NULL, 0);
		p2 = malloc(n2 + 1);
		FUZZ_CHECK(p2);
		ltt_filter_print(again, p2, n2 + 1);
		FUZZ_CHECK(!strcmp(p1, p2));
		free(p2);
		ltt_filter_free(again);
	}
	free(p1);
	err.msg[0] = '\0';
	rc = ltt_filter_compile(root, fe_fields, FE_NR, &prog, &len, &err);
	if (rc) {
		FUZZ_CHECK(!prog);
		check_error(text, &err);
	} else {
		FUZZ_CHECK(!ltt_filter_validate(prog, len, fe_fields, FE_NR));
		fe_env(&vals, data, size, &env);
		r = ltt_filter_run(prog, &env);
		FUZZ_CHECK(r == 0 || r == 1);
		fe_env(&vals, data + size / 2, size - size / 2, &env);
		r = ltt_filter_run(prog, &env);
		FUZZ_CHECK(r == 0 || r == 1);
		free(prog);
	}
	ltt_filter_free(root);
	free(text);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char *const seeds[] = {
		"intfield > 10",
		"stringfield == \"ev-1*\"",
		"intfield >= 10 && intfield < 20 || !(uintfield & 0x10)",
		"(intfield << 2) ^ ~enumfield | 3",
		"doublefield <= -49.75e1 && floatfield != .5",
		"arrfield[3] == -1 || seqfield[2] > 0xffffffffffffffff",
		"textfield == \"a\\*b*\" && textseq != \"x\\\\y\"",
		"$ctx.vpid == 12 && $ctx.procname == \"my*\"",
		"$app.my.prov:ctx == \"s\" || $app.p:n >= 2.5",
		"intfield = 3",
		"(intfield == 3",
		"stringfield == 1",
		"intfield + 1",
		"nosuch == 1",
	};
	char name[32];
	size_t i;

	for (i = 0; i < FUZZ_ARRAY_SIZE(seeds); i++) {
		snprintf(name, sizeof(name), "filter-%zu", i);
		emit(name, seeds[i], strlen(seeds[i]));
	}
}
