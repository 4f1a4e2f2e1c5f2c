// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_filter_bc.c - the tracer's filter validator and interpreter
 * (filter-vm/filter-validate.c, filter-vm/filter-interp.c): the bytecode a
 * program receives from the session daemon, which it must not trust.
 *
 * Input: one byte N, then N % 65 bytes of argument values, then the
 * program (header and code).  Promises checked: the validator's verdict
 * is 0 or a negative errno and does not depend on the bytes after the
 * program; an accepted program runs to 0 or 1 on the values and on all
 * zeros.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/filter/filter-compile.h"
#include "common/filter/filter-parse.h"
#include "filter-event.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t zeros[64];
	struct ltt_filter_env env;
	struct fe_values vals;
	size_t nv, plen;
	uint8_t *prog;
	int rc, r;

	if (!size)
		return 0;
	nv = data[0] % 65u;
	if (nv > size - 1)
		nv = size - 1;
	plen = size - 1 - nv;
	/* A copy of its exact size, so that ASan sees any read beyond it. */
	prog = malloc(plen ? plen : 1);
	FUZZ_CHECK(prog);
	memcpy(prog, data + 1 + nv, plen);
	rc = ltt_filter_validate(prog, plen, fe_fields, FE_NR);
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -E2BIG || rc == -EPROTO);
	if (!rc) {
		fe_env(&vals, data + 1, nv, &env);
		r = ltt_filter_run(prog, &env);
		FUZZ_CHECK(r == 0 || r == 1);
		fe_env(&vals, zeros, sizeof(zeros), &env);
		r = ltt_filter_run(prog, &env);
		FUZZ_CHECK(r == 0 || r == 1);
	}
	free(prog);
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
		("(intfield == 1 || (uintfield == 2 && (doublefield > 3 || floatfield < 4))) && "
		 "stringfield != \"*x*\""),
	};
	struct ltt_filter_node *root;
	char name[32];
	uint8_t *prog, *in;
	size_t i, len;

	for (i = 0; i < FUZZ_ARRAY_SIZE(seeds); i++) {
		if (ltt_filter_parse(seeds[i], &root, NULL))
			continue;
		if (!ltt_filter_compile(root, fe_fields, FE_NR, &prog, &len, NULL)) {
			in = malloc(len + 41);
			if (in) {
				in[0] = 40;
				memset(in + 1, (int)(i * 37), 40);
				memcpy(in + 41, prog, len);
				snprintf(name, sizeof(name), "filter-bc-%zu", i);
				emit(name, in, len + 41);
				free(in);
			}
			free(prog);
		}
		ltt_filter_free(root);
	}
}
