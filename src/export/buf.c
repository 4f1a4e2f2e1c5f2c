// SPDX-License-Identifier: GPL-2.0-only
/*
 * buf.c - the growing text of ltt-export's JSON values, SQL and HTTP
 * requests.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

static bool reserve(struct exp_buf *b, size_t more)
{
	size_t cap = b->cap ? b->cap : 256;
	char *s;

	if (b->nomem)
		return false;
	if (b->len + more + 1 <= b->cap)
		return true;
	while (cap < b->len + more + 1)
		cap *= 2;
	s = realloc(b->s, cap);
	if (!s) {
		b->nomem = true;
		return false;
	}
	b->s = s;
	b->cap = cap;
	return true;
}

void exp_buf_add(struct exp_buf *b, const char *s, size_t len)
{
	if (!reserve(b, len))
		return;
	memcpy(b->s + b->len, s, len);
	b->len += len;
	b->s[b->len] = '\0';
}

void exp_buf_str(struct exp_buf *b, const char *s)
{
	exp_buf_add(b, s, strlen(s));
}

void exp_buf_printf(struct exp_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || !reserve(b, (size_t)n))
		return;
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void exp_buf_u64(struct exp_buf *b, uint64_t v, bool negative)
{
	char digits[24], *p = digits + sizeof(digits);

	do
		*--p = (char)('0' + v % 10);
	while ((v /= 10));
	if (negative)
		*--p = '-';
	exp_buf_add(b, p, (size_t)(digits + sizeof(digits) - p));
}

void exp_buf_i64(struct exp_buf *b, int64_t v)
{
	exp_buf_u64(b, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void exp_buf_json_str(struct exp_buf *b, const char *s)
{
	const char *run = s;

	exp_buf_add(b, "\"", 1);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		exp_buf_add(b, run, (size_t)(s - run));
		if (c == '"' || c == '\\')
			exp_buf_printf(b, "\\%c", c);
		else if (c == '\n')
			exp_buf_str(b, "\\n");
		else if (c == '\t')
			exp_buf_str(b, "\\t");
		else
			exp_buf_printf(b, "\\u%04x", c);
		run = s + 1;
	}
	exp_buf_add(b, run, (size_t)(s - run));
	exp_buf_add(b, "\"", 1);
}

void exp_buf_reset(struct exp_buf *b)
{
	b->len = 0;
	if (b->s)
		b->s[0] = '\0';
}

void exp_buf_fini(struct exp_buf *b)
{
	free(b->s);
	memset(b, 0, sizeof(*b));
}
