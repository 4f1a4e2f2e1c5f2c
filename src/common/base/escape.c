// SPDX-License-Identifier: LGPL-2.1-only
/*
 * escape.c - printable forms of untrusted strings (see escape.h).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/escape.h"
#include "common/base/names.h"

/*
 * ltt_escape_file_name()'s (not in escape.h's flags): '/' escaped too, and
 * '.' as the first character (the loops drop ESCAPE_LEAD_DOT after it).
 */
#define ESCAPE_SLASH 0x100
#define ESCAPE_LEAD_DOT 0x200

/* How the character at @s is written: its length in @s, its text in @out. */
static size_t escape_one(const unsigned char *s, unsigned int flags, char out[5], size_t *ret_n)
{
	uint32_t cp;
	size_t n;

	if (*s == '\\') {
		memcpy(out, "\\\\", 2);
		*ret_n = 2;
		return 1;
	}
	if ((flags & LTT_ESCAPE_KEEP_NL) && (*s == '\n' || *s == '\t')) {
		out[0] = (char)*s;
		*ret_n = 1;
		return 1;
	}
	if ((*s == '/' && (flags & ESCAPE_SLASH)) || (*s == '.' && (flags & ESCAPE_LEAD_DOT)))
		n = 0;
	else
		n = ltt_utf8_char_len(s);
	if (n && ltt_utf8_hidden_char(s, &cp))
		n = 0;	/* shown as nothing, or reorders what follows */
	if (n) {
		memcpy(out, s, n);
		*ret_n = n;
		return n;
	}
	snprintf(out, 5, "\\x%02x", *s);
	*ret_n = 4;
	return 1;
}

/* The escaped length of @p, up to @stop bytes. */
static size_t escaped_len(const unsigned char *p, unsigned int flags, size_t stop)
{
	size_t total = 0, n;
	char one[5];

	while (*p && total < stop) {
		p += escape_one(p, flags, one, &n);
		total += n;
		flags &= ~ESCAPE_LEAD_DOT;
	}
	return total;
}

char *ltt_escape(const char *s, char *buf, size_t len, unsigned int flags)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "(null)");
	size_t used = 0, room, in, n;
	char one[5];

	if (!len)
		return buf;
	/* All of it, or what fits before "..." (when "..." fits at all). */
	room = len - 1;
	if (escaped_len(p, flags, len) > room)
		room = len > 4 ? len - 4 : 0;
	while (*p) {
		in = escape_one(p, flags, one, &n);
		if (used + n > room)
			break;
		memcpy(buf + used, one, n);
		used += n;
		p += in;
		flags &= ~ESCAPE_LEAD_DOT;
	}
	if (*p && len > 4) {
		memcpy(buf + used, "...", 3);
		used += 3;
	}
	buf[used] = '\0';
	return buf;
}

char *ltt_escape_file_name(const char *s, char *buf, size_t len)
{
	return ltt_escape(s, buf, len, ESCAPE_SLASH | ESCAPE_LEAD_DOT);
}

/* A growing output string; on failure, data is NULL. */
struct out {
	char *data;
	size_t len, cap;
};

static void out_put(struct out *o, const char *s, size_t n)
{
	char *p;

	if (!o->data)
		return;
	if (o->len + n + 1 > o->cap) {
		o->cap = (o->len + n + 1) * 2;
		p = realloc(o->data, o->cap);
		if (!p) {
			free(o->data);
			o->data = NULL;
			return;
		}
		o->data = p;
	}
	memcpy(o->data + o->len, s, n);
	o->len += n;
	o->data[o->len] = '\0';
}

/*
 * The conversions below are cut out of the caller's format, which the
 * compiler checked at the call of ltt_escape_vasprintf(); each is passed
 * its argument with the type its length modifier names.
 */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* snprintf() of one conversion @spec with its argument, into @o. */
static void out_vfmt(struct out *o, const char *spec, va_list ap)
{
	va_list aq;
	char small[128], *big;
	int n;

	va_copy(aq, ap);
	n = vsnprintf(small, sizeof(small), spec, aq);
	va_end(aq);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		out_put(o, small, (size_t)n);
		return;
	}
	big = malloc((size_t)n + 1);
	if (big && vsnprintf(big, (size_t)n + 1, spec, ap) == n)
		out_put(o, big, (size_t)n);
	free(big);
}

static void out_fmt(struct out *o, const char *spec, ...)
{
	va_list ap;

	va_start(ap, spec);
	out_vfmt(o, spec, ap);
	va_end(ap);
}

/* A %s argument, escaped, then padded or cut by the spec's flags. */
static void put_string(struct out *o, const char *spec, size_t speclen, int width, int prec,
		       const char *arg, unsigned int flags, bool cap)
{
	size_t len = arg ? strlen(arg) : 6, size = LTT_ESCAPE_SIZE(len);
	char fmt[32], *esc;

	/* cut: at most LTT_ESCAPE_QUOTE_MAX bytes, then "..." */
	if (cap && size > LTT_ESCAPE_QUOTE_MAX + 4)
		size = LTT_ESCAPE_QUOTE_MAX + 4;
	esc = malloc(size);
	if (!esc) {
		free(o->data);
		o->data = NULL;
		return;
	}
	ltt_escape(arg, esc, size, flags & LTT_ESCAPE_KEEP_NL);
	/* The spec with its '*' kept: width and precision come as ints. */
	if (speclen >= sizeof(fmt))
		speclen = sizeof(fmt) - 1;
	memcpy(fmt, spec, speclen);
	fmt[speclen] = '\0';
	if (width >= 0 && prec >= 0)
		out_fmt(o, fmt, width, prec, esc);
	else if (width >= 0 || prec >= 0)
		out_fmt(o, fmt, width >= 0 ? width : prec, esc);
	else
		out_fmt(o, fmt, esc);
	free(esc);
}

/* An integer conversion @spec whose argument has length modifier @lng. */
static void put_integer(struct out *o, const char *spec, int lng, va_list *ap)
{
	switch (lng) {
	case 'L':
		out_fmt(o, spec, va_arg(*ap, long long));
		break;
	case 'l':
		out_fmt(o, spec, va_arg(*ap, long));
		break;
	case 'z':
		out_fmt(o, spec, va_arg(*ap, size_t));
		break;
	case 'j':
		out_fmt(o, spec, va_arg(*ap, intmax_t));
		break;
	case 't':
		out_fmt(o, spec, va_arg(*ap, ptrdiff_t));
		break;
	default:	/* int, and h, hh: promoted to int */
		out_fmt(o, spec, va_arg(*ap, int));
		break;
	}
}

/*
 * One conversion at @fmt (just after its '%'): its argument taken from
 * @ap and written to @o, a string escaped (and cut if @quoted, the '%'
 * follows a quote, and the spec is followed by one, with
 * LTT_ESCAPE_CAP_QUOTED).  Returns the length of the spec after the '%',
 * or 0 for one this does not handle ('*' on a number, a long double,
 * %n): the caller stops there.
 */
static size_t put_conversion(struct out *o, const char *fmt, va_list *ap, unsigned int flags,
			     bool quoted)
{
	int width = -1, prec = -1, lng = 0;
	const char *p = fmt;
	char spec[32], c[2];
	size_t n;

	p += strspn(p, "-+ #0");
	if (*p == '*') {
		width = va_arg(*ap, int);
		p++;
	}
	p += strspn(p, "0123456789");
	if (*p == '.') {
		p++;
		if (*p == '*') {
			prec = va_arg(*ap, int);
			p++;
		}
		p += strspn(p, "0123456789");
	}
	for (; *p && strchr("hlzjt", *p); p++)
		lng = *p == 'h' ? 'h' : (*p == 'l' && lng == 'l') ? 'L' : *p;
	n = (size_t)(p - fmt) + 1;
	if (!*p || n + 2 > sizeof(spec))
		return 0;
	spec[0] = '%';
	memcpy(spec + 1, fmt, n);
	spec[n + 1] = '\0';
	switch (*p) {
	case 's':
		put_string(o, spec, n + 1, width, prec, va_arg(*ap, const char *), flags,
			   quoted && p[1] == '\'' && (flags & LTT_ESCAPE_CAP_QUOTED));
		return n;
	case 'c':
		c[0] = (char)va_arg(*ap, int);
		c[1] = '\0';
		put_string(o, "%s", 2, -1, -1, c, flags, false);
		return n;
	case '%':
		out_put(o, "%", 1);
		return n;
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		if (width >= 0 || prec >= 0)
			return 0;
		put_integer(o, spec, lng, ap);
		return n;
	case 'f': case 'F': case 'e': case 'E': case 'g': case 'G': case 'a': case 'A':
		if (width >= 0 || prec >= 0 || lng)
			return 0;
		out_fmt(o, spec, va_arg(*ap, double));
		return n;
	default:
		return 0;
	}
}

#pragma GCC diagnostic pop

char *ltt_escape_vasprintf(unsigned int flags, const char *fmt, va_list ap)
{
	struct out o = { .data = malloc(64), .cap = 64 };
	const char *pct;
	va_list aq;
	size_t n;

	if (!o.data)
		return NULL;
	o.data[0] = '\0';
	va_copy(aq, ap);
	while (o.data && *fmt) {
		pct = strchr(fmt, '%');
		if (!pct) {
			out_put(&o, fmt, strlen(fmt));
			break;
		}
		out_put(&o, fmt, (size_t)(pct - fmt));
		n = put_conversion(&o, pct + 1, &aq, flags, pct > fmt && pct[-1] == '\'');
		if (!n) {
			out_put(&o, pct, strlen(pct));
			break;
		}
		fmt = pct + 1 + n;
	}
	va_end(aq);
	return o.data;
}
