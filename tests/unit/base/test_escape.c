// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_escape.c - unit tests of common/base/escape.c (printable forms of
 * untrusted strings), common/trace/tracefile.c's clash rule and the session
 * references of common/base/names.c.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/escape.h"
#include "common/base/names.h"
#include "common/trace/tracefile.h"
#include "tests/unit/tap.h"

static void test_escape(void)
{
	char buf[64];

	tap_is_str(ltt_escape("plain/path_1.txt", buf, sizeof(buf), 0), "plain/path_1.txt",
		   "printable ASCII is kept");
	tap_is_str(ltt_escape("\x1b[31mred\a", buf, sizeof(buf), 0), "\\x1b[31mred\\x07",
		   "ESC and BEL are escaped");
	tap_is_str(ltt_escape("a\nb\tc\rd", buf, sizeof(buf), 0), "a\\x0ab\\x09c\\x0dd",
		   "newline, tab, carriage return are escaped");
	tap_is_str(ltt_escape("a\nb\tc", buf, sizeof(buf), LTT_ESCAPE_KEEP_NL), "a\nb\tc",
		   "KEEP_NL keeps newline and tab");
	tap_is_str(ltt_escape("del\x7f c1\xc2\x9b", buf, sizeof(buf), 0), "del\\x7f c1\\xc2\\x9b",
		   "DEL and a C1 control (CSI, U+009B) are escaped byte by byte");
	tap_is_str(ltt_escape("caf\xc3\xa9 \xe2\x82\xac", buf, sizeof(buf), 0), "caf\xc3\xa9 \xe2\x82\xac",
		   "well-formed UTF-8 is kept");
	tap_is_str(ltt_escape("adm\xe2\x80\xaeni", buf, sizeof(buf), 0), "adm\\xe2\\x80\\xaeni",
		   "a right-to-left override (U+202E) is escaped byte by byte");
	tap_is_str(ltt_escape("a\xe2\x80\x8b" "b\xef\xbb\xbf", buf, sizeof(buf), 0),
		   "a\\xe2\\x80\\x8bb\\xef\\xbb\\xbf",
		   "a zero width space and a BOM (U+200B, U+FEFF) are escaped");
	tap_is_str(ltt_escape("\xe2\x80\x90", buf, sizeof(buf), 0), "\xe2\x80\x90",
		   "a hyphen (U+2010) is kept");
	tap_is_str(ltt_escape("\xff\xfe\xc3", buf, sizeof(buf), 0), "\\xff\\xfe\\xc3",
		   "bytes that are not UTF-8 (and a cut sequence) are escaped");
	tap_is_str(ltt_escape("back\\slash", buf, sizeof(buf), 0), "back\\\\slash",
		   "a backslash is doubled, so the form reads back unambiguously");
	tap_is_str(ltt_escape(NULL, buf, sizeof(buf), 0), "(null)", "NULL is (null)");
	tap_is_str(ltt_escape("0123456789", buf, 11, 0), "0123456789", "an exact fit is whole");
	tap_is_str(ltt_escape("0123456789a", buf, 11, 0), "0123456...", "too long: cut, with ..., within the buffer");
	tap_is_str(ltt_escape("\x1b\x1b\x1b\x1b", buf, 11, 0), "\\x1b...",
		   "cut at a character boundary, never inside \\xHH");
	tap_is_str(ltt_escape("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", buf, 8, 0), "\xc3\xa9\xc3\xa9...",
		   "never inside a UTF-8 character");
}

static char *fmt(unsigned int flags, const char *f, ...) __attribute__((format(printf, 2, 3)));
static char *fmt(unsigned int flags, const char *f, ...)
{
	va_list ap;
	char *s;

	va_start(ap, f);
	s = ltt_escape_vasprintf(flags, f, ap);
	va_end(ap);
	return s;
}

/* LTT_ESCAPE_CAP_QUOTED: a quoted argument cut, the rest whole. */
static void test_cap_quoted(void)
{
	char big[10001], want[200], *s;

	memset(big, 'y', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	s = fmt(LTT_ESCAPE_CAP_QUOTED, "session '%s': %s", big, big);
	snprintf(want, sizeof(want), "session '%.64s...': ", big);
	tap_ok(s && !strncmp(s, want, strlen(want)) && strlen(s) == strlen(want) + 10000,
	       "CAP_QUOTED: '%%s' cut to 64 bytes and \"...\", an unquoted %%s whole");
	free(s);
	s = fmt(LTT_ESCAPE_CAP_QUOTED, "'%s' %s'", big + 10000 - 67, big + 10000 - 68);
	snprintf(want, sizeof(want), "'%s' %s'", big + 10000 - 67, big + 10000 - 68);
	tap_is_str(s, want, "CAP_QUOTED: 67 bytes whole; a %%s quoted on one side only, whole");
	free(s);
	s = fmt(LTT_ESCAPE_CAP_QUOTED, "'%s'", big + 10000 - 68);
	snprintf(want, sizeof(want), "'%.64s...'", big);
	tap_is_str(s, want, "CAP_QUOTED: 68 bytes cut");
	free(s);
	s = fmt(LTT_ESCAPE_CAP_QUOTED, "'%s'",
		"\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b\x1b");
	tap_is_str(s, "'\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b\\x1b...'",
		   "CAP_QUOTED: counts escaped bytes, cuts between escapes");
	free(s);
	s = fmt(0, "'%s'", big);
	tap_ok(s && strlen(s) == 10002, "without CAP_QUOTED, whole");
	free(s);
}

static void test_vasprintf(void)
{
	char *s;

	s = fmt(0, "Session %s created.\nTraces in %s (%d, %u, %zu, %lu, %lld, %x, %c%%)", "a\x1b",
		"/p\n", -3, 7u, (size_t)9, 10ul, -11ll, 255, '\a');
	tap_is_str(s, "Session a\\x1b created.\nTraces in /p\\x0a (-3, 7, 9, 10, -11, ff, \\x07%)",
		   "arguments escaped, the format's newline kept, integers as printf");
	free(s);
	s = fmt(0, "[%-6s|%*s|%.2s]", "ab", 4, "c", "xyz");
	tap_is_str(s, "[ab    |   c|xy]", "widths and precisions apply to strings");
	free(s);
	s = fmt(0, "ratio %.2f, %f, %g, %8.3e|%-6.1f|", 0.25, 0.25, 1e-5, 12345.678, 2.5);
	tap_is_str(s, "ratio 0.25, 0.250000, 1e-05, 1.235e+04|2.5   |",
		   "floating point as printf (was copied as is: 'ratio %%.2f, ...')");
	free(s);
	s = fmt(LTT_ESCAPE_KEEP_NL, "%s", "l1\nl2\x1b");
	tap_is_str(s, "l1\nl2\\x1b", "KEEP_NL applies to the arguments");
	free(s);
	s = fmt(0, "%s", "");
	tap_is_str(s, "", "an empty result");
	free(s);
	test_cap_quoted();
}

static void test_clash(void)
{
	tap_ok(ltt_tracefile_names_clash("a", true, "a_0", false), "rotating a, plain a_0: clash");
	tap_ok(ltt_tracefile_names_clash("a_17", false, "a", true), "plain a_17, rotating a: clash");
	tap_ok(!ltt_tracefile_names_clash("a", true, "a_0", true), "both rotating: no clash");
	tap_ok(!ltt_tracefile_names_clash("a", false, "a_0", false), "neither rotating: no clash");
	tap_ok(!ltt_tracefile_names_clash("a", true, "a_01", false),
	       "a_01: CPU numbers have no leading zero: no clash");
	tap_ok(!ltt_tracefile_names_clash("a", true, "a_", false), "a_: no number: no clash");
	tap_ok(!ltt_tracefile_names_clash("a", true, "a_1x", false), "a_1x: no clash");
	tap_ok(!ltt_tracefile_names_clash("a", true, "ab_1", false), "ab_1: no clash");
	tap_ok(!ltt_tracefile_names_clash("a_1", true, "a", false),
	       "rotating a_1 and plain a: a_1_N vs a_N: no clash");
}

static void test_refs(void)
{
	tap_ok(ltt_session_ref_valid("web"), "NAME is a reference");
	tap_ok(ltt_session_ref_valid("1001/web"), "UID/NAME is a reference");
	tap_ok(!ltt_session_ref_valid("x/web"), "X/NAME with X not a number is not");
	tap_ok(!ltt_session_ref_valid("1001/"), "UID/ alone is not");
	tap_ok(!ltt_session_ref_valid("1/2/web"), "UID/A/B is not");
	tap_ok(!ltt_session_ref_valid("12345678901/web"), "a UID of 11 digits is not");
	tap_ok(!ltt_session_name_valid("1001/web"), "UID/NAME is no session name to create");
}

/* A program's name as its per-PID trace directory holds it. */
static void test_file_name(void)
{
	char buf[LTT_ESCAPE_SIZE(16)], small[8];

	tap_is_str(ltt_escape_file_name("ust_app", buf, sizeof(buf)), "ust_app",
		   "file name: a plain name as it is");
	tap_is_str(ltt_escape_file_name("sq\nx", buf, sizeof(buf)), "sq\\x0ax",
		   "file name: a line feed as \\x0a");
	tap_is_str(ltt_escape_file_name("sq\x1b[1m", buf, sizeof(buf)), "sq\\x1b[1m",
		   "file name: ESC as \\x1b");
	tap_is_str(ltt_escape_file_name("../../etc/x", buf, sizeof(buf)),
		   "\\x2e.\\x2f..\\x2fetc\\x2fx", "file name: '/' and a leading '.' escaped");
	tap_is_str(ltt_escape_file_name("..", buf, sizeof(buf)), "\\x2e.", "file name: never \"..\"");
	tap_is_str(ltt_escape_file_name("a\\b", buf, sizeof(buf)), "a\\\\b",
		   "file name: a backslash doubled");
	tap_is_str(ltt_escape_file_name("\xff\xfe", buf, sizeof(buf)), "\\xff\\xfe",
		   "file name: bytes that are not UTF-8 escaped");
	tap_is_str(ltt_escape_file_name("\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n", buf, sizeof(buf)),
		   "\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a\\x0a",
		   "file name: LTT_ESCAPE_SIZE(16) holds 15 escaped bytes");
	tap_is_str(ltt_escape_file_name(".abcdefgh", small, sizeof(small)), "\\x2e...",
		   "file name: cut, with \"...\"");
	tap_is_str(ltt_escape_file_name(NULL, buf, sizeof(buf)), "(null)", "file name: NULL");
}

int main(void)
{
	test_escape();
	test_file_name();
	test_vasprintf();
	test_clash();
	test_refs();
	return tap_done();
}
