/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * escape.h - strings from users, programs and peers made safe to print and
 * log: no terminal control sequence, no forged log line.
 */
#ifndef LTT_COMMON_ESCAPE_H
#define LTT_COMMON_ESCAPE_H

#include <stdarg.h>
#include <stddef.h>

/* Keep '\n' (and '\t') as they are: multi-line messages of a tool. */
#define LTT_ESCAPE_KEEP_NL 0x1

/*
 * ltt_escape_vasprintf(): a string argument quoted in the format ('%s')
 * is a user's word, echoed in a message: its escaped form is cut to its
 * first LTT_ESCAPE_QUOTE_MAX bytes (at a character boundary) and "...".
 */
#define LTT_ESCAPE_CAP_QUOTED 0x2
#define LTT_ESCAPE_QUOTE_MAX 64

/* Bytes that always hold the escaped form of @n bytes (\xHH per byte). */
#define LTT_ESCAPE_SIZE(n) (4 * (n) + 1)

/**
 * ltt_escape() - @s with every control character (C0, DEL, C1), every
 * bidirectional control and invisible character (ltt_utf8_hidden_char()),
 * every byte that is not part of well-formed UTF-8, and the backslash written
 * as "\xHH" ("\\" for a backslash), so the result is printable and reads
 * back unambiguously
 * @s: the string (borrowed); NULL is written "(null)"
 * @buf: @len bytes; an escaped form that does not fit is cut at a
 *       character boundary and ends with "..."
 * @flags: 0 or LTT_ESCAPE_KEEP_NL
 *
 * Any thread, no allocation.  Returns @buf, for use as a printf argument.
 */
char *ltt_escape(const char *s, char *buf, size_t len, unsigned int flags);

/**
 * ltt_escape_file_name() - @s written as ltt_escape() writes it (flags 0),
 * with also every '/' and a leading '.' as "\xHH": one file name
 * component, printable, neither hidden nor "." or "..", that reads back
 * unambiguously (a program's name in its per-PID trace directory)
 * @s: the string (borrowed); NULL is written "(null)"
 * @buf: @len bytes; LTT_ESCAPE_SIZE(strlen(@s)) always suffice, else the
 *       escaped form is cut at a character boundary and ends with "..."
 *
 * Any thread, no allocation.  Returns @buf.
 */
char *ltt_escape_file_name(const char *s, char *buf, size_t len);

/**
 * ltt_escape_vasprintf() - vasprintf() where each string argument (%s, %c)
 * is escaped with ltt_escape() and @flags, while the format's own text,
 * newlines included, is kept: for a tool's multi-line messages that quote
 * names and paths
 *
 * With LTT_ESCAPE_CAP_QUOTED in @flags, a '%s' between single quotes in
 * @fmt is cut to LTT_ESCAPE_QUOTE_MAX bytes and "...".
 * Handles %s, %c, %d, %i, %u, %x, %X, %o (with h, hh, l, ll, z, j, t),
 * %f, %F, %e, %E, %g, %G, %a, %A (a double), %%, flags, and widths and
 * precisions ('*' for strings only); a
 * conversion it does not handle ends the formatting (the rest is copied
 * as is).  Returns a malloc'd string, or NULL (out of memory).
 */
char *ltt_escape_vasprintf(unsigned int flags, const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

#endif /* LTT_COMMON_ESCAPE_H */
