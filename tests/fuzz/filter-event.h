/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * filter-event.h - the event both filter fuzz targets filter: one field
 * of every type, and argument values taken from the input.
 */
#ifndef LTT_FUZZ_FILTER_EVENT_H
#define LTT_FUZZ_FILTER_EVENT_H

#include <string.h>

#include <ltt/tracepoint-types.h>

#include "filter-vm/filter-vm.h"

enum { FE_INT, FE_UINT, FE_DBL, FE_FLT, FE_STR, FE_ARR, FE_SEQ, FE_TEXT, FE_TSEQ, FE_ENUM, FE_NR };

static const struct ltt_filter_field_desc fe_fields[FE_NR] = {
	[FE_INT] = { "intfield", LTT_UST_TYPE_INTEGER, 4, 1, 0, 0, 0 },
	[FE_UINT] = { "uintfield", LTT_UST_TYPE_INTEGER, 8, 0, 0, 0, 0 },
	[FE_DBL] = { "doublefield", LTT_UST_TYPE_FLOAT, 8, 1, 0, 0, 0 },
	[FE_FLT] = { "floatfield", LTT_UST_TYPE_FLOAT, 4, 1, 0, 0, 0 },
	[FE_STR] = { "stringfield", LTT_UST_TYPE_STRING, 1, 0, 1, 0, 0 },
	[FE_ARR] = { "arrfield", LTT_UST_TYPE_ARRAY, 2, 1, 0, 4, 0 },
	[FE_SEQ] = { "seqfield", LTT_UST_TYPE_SEQUENCE, 8, 0, 0, 0, 0 },
	[FE_TEXT] = { "textfield", LTT_UST_TYPE_ARRAY, 1, 0, 1, 8, 0 },
	[FE_TSEQ] = { "textseq", LTT_UST_TYPE_SEQUENCE, 1, 0, 1, 0, 0 },
	[FE_ENUM] = { "enumfield", LTT_UST_TYPE_ENUM, 2, 1, 0, 0, 0 },
};

/* Values: @raw (up to 64 bytes, zero-padded) gives every field's bytes. */
struct fe_values {
	uint8_t raw[64];
	char str[17];
	struct ltt_filter_arg args[FE_NR];
};

static int fe_ctx(void *priv, unsigned int id, struct ltt_filter_value *out)
{
	const struct fe_values *v = priv;

	if (ltt_filter_ctx_type(id) == LTT_FTYPE_STR) {
		out->type = LTT_FTYPE_STR;
		out->v.str.p = v->str;
		out->v.str.n = (uint32_t)strlen(v->str);
		return 0;
	}
	if (v->raw[0] & 1)
		return -1;	/* absent */
	out->type = (uint8_t)ltt_filter_ctx_type(id);
	memcpy(&out->v.u, v->raw + 8, 8);
	return 0;
}

static int fe_app(void *priv, const char *name, size_t len, struct ltt_filter_value *out)
{
	const struct fe_values *v = priv;

	switch ((len + v->raw[1]) % 5) {
	case 0: return -1;
	case 1: out->type = LTT_FTYPE_S64; break;
	case 2: out->type = LTT_FTYPE_U64; break;
	case 3: out->type = LTT_FTYPE_DBL; break;
	default:
		out->type = LTT_FTYPE_STR;
		out->v.str.p = name;
		out->v.str.n = (uint32_t)len;
		return 0;
	}
	memcpy(&out->v.u, v->raw + 16, 8);
	return 0;
}

static void fe_env(struct fe_values *v, const uint8_t *data, size_t size,
		   struct ltt_filter_env *env)
{
	memset(v, 0, sizeof(*v));
	memcpy(v->raw, data, size < sizeof(v->raw) ? size : sizeof(v->raw));
	memcpy(v->str, v->raw + 40, 16);
	v->args[FE_INT] = (struct ltt_filter_arg){ v->raw, 0 };
	v->args[FE_UINT] = (struct ltt_filter_arg){ v->raw + 8, 0 };
	v->args[FE_DBL] = (struct ltt_filter_arg){ v->raw + 16, 0 };
	v->args[FE_FLT] = (struct ltt_filter_arg){ v->raw + 24, 0 };
	v->args[FE_STR] = (struct ltt_filter_arg){ v->str, (uint32_t)strlen(v->str) };
	v->args[FE_ARR] = (struct ltt_filter_arg){ v->raw + 28, 4 };
	v->args[FE_SEQ] = (struct ltt_filter_arg){ v->raw + 8, v->raw[2] % 5 };
	v->args[FE_TEXT] = (struct ltt_filter_arg){ v->raw + 40, 8 };
	v->args[FE_TSEQ] = (struct ltt_filter_arg){ v->raw[3] & 1 ? NULL : v->raw + 40,
						    v->raw[3] % 24 };
	v->args[FE_ENUM] = (struct ltt_filter_arg){ v->raw + 36, 0 };
	env->args = v->args;
	env->nr_args = FE_NR;
	env->ctx = fe_ctx;
	env->app = fe_app;
	env->priv = v;
}

#endif /* LTT_FUZZ_FILTER_EVENT_H */
