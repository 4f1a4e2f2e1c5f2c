// SPDX-License-Identifier: LGPL-2.1-only
/* meta-emit.c - the metadata writers' emitter (meta-emit.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>

#include "sessiond/ctrace/meta-emit.h"

void ltt_emit_begin(struct ltt_emit *e, struct ltt_wbuf *out)
{
	e->out = out;
	e->start = out->len;
	e->err = out->err;
}

int ltt_emit_end(struct ltt_emit *e)
{
	if (!e->err && e->out->err)
		e->err = e->out->err;
	if (e->err)
		e->out->len = e->start;
	return e->err;
}

void ltt_emit_fail(struct ltt_emit *e, int err)
{
	if (!e->err)
		e->err = err;
}

void ltt_emit_fmt(struct ltt_emit *e, const char *fmt, ...)
{
	va_list ap;
	char *dst;
	int len;

	if (e->err)
		return;
	va_start(ap, fmt);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0) {
		e->err = -EINVAL;
		return;
	}
	/* One more byte for vsnprintf's NUL, then given back. */
	dst = ltt_wbuf_reserve(e->out, (size_t)len + 1);
	if (!dst) {
		e->err = -ENOMEM;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(dst, (size_t)len + 1, fmt, ap);
	va_end(ap);
	e->out->len--;
}

void ltt_emit_text(struct ltt_emit *e, const char *s)
{
	ltt_emit_fmt(e, "%s", s);
}
