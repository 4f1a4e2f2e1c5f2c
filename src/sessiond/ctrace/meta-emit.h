/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * meta-emit.h - the text emitter both metadata writers append with
 * (tsdl.c, ctf2.c): an append in progress remembers where it started, and
 * any failure truncates the buffer back, so a caller never ships half a
 * block.
 */
#ifndef LTT_SESSIOND_META_EMIT_H
#define LTT_SESSIOND_META_EMIT_H

#include <stddef.h>

#include "common/base/codec.h"

/* An append in progress: @err is the first failure, the buffer is rolled back on it. */
struct ltt_emit {
	struct ltt_wbuf *out;
	size_t start;
	int err;
};

void ltt_emit_begin(struct ltt_emit *e, struct ltt_wbuf *out);

/* Finish: returns 0, or the first error with the buffer back at its start. */
int ltt_emit_end(struct ltt_emit *e);

/* Append printf's text (no NUL); on failure e->err is set and nothing more is appended. */
void ltt_emit_fmt(struct ltt_emit *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void ltt_emit_text(struct ltt_emit *e, const char *s);

/* Fail the append with @err (the first error stays). */
void ltt_emit_fail(struct ltt_emit *e, int err);

#endif /* LTT_SESSIOND_META_EMIT_H */
