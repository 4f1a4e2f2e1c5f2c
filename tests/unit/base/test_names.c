// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_names.c - unit tests of common/base/names.c and common/model/loglevel.c.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <ltt/ltt-ctl.h>

#include "common/base/names.h"
#include "tests/unit/tap.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A heap string of @len copies of @c, then @tail. */
static char *repeat(char c, size_t len, const char *tail)
{
	char *s = malloc(len + strlen(tail) + 1);

	if (!s)
		abort();
	memset(s, c, len);
	strcpy(s + len, tail);
	return s;
}

static void test_session_names(void)
{
	static const char *const good[] = {
		"a", "my-session", "my_session", "s.1", "a-", "a.", "with space", "UPPER",
		"x:y", "caf\xc3\xa9", "\xe6\x97\xa5\xe6\x9c\xac", "\xf0\x9f\x98\x80",
		"\xef\xbf\xbd", "\xc2\xa0nbsp", "a~!@$%^&*()[]{}<>?\\|'\"`=+,;",
	};
	static const char *const bad[] = {
		"", ".", "..", ".hidden", "-flag", "a/b", "/", "a/", "tab\there", "nl\n",
		"del\x7f", "esc\x1b", "\x01", "c1\xc2\x80", "c1\xc2\x9f", "lone\x80",
		"trunc\xc3", "trunc\xe6\x97", "overlong\xc0\xaf", "overlong\xe0\x80\xaf",
		"overlong\xf0\x80\x80\xaf", "surrogate\xed\xa0\x80", "big\xf4\x90\x80\x80",
		"f5\xf5\x80\x80\x80", "ff\xff", "cont\xc3\x28",
	};
	char *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		tap_ok(ltt_session_name_valid(good[i]), "session name \"%s\" is valid", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		tap_ok(!ltt_session_name_valid(bad[i]), "session name \"%s\" is invalid", bad[i]);
	tap_ok(!ltt_session_name_valid(NULL), "a NULL session name is invalid");

	s = repeat('s', 255, "");
	tap_ok(ltt_session_name_valid(s), "a 255-byte session name is valid");
	free(s);
	s = repeat('s', 256, "");
	tap_ok(!ltt_session_name_valid(s), "a 256-byte session name is invalid");
	free(s);
	s = repeat('s', 100000, "");
	tap_ok(!ltt_session_name_valid(s), "a 100000-byte session name is invalid");
	free(s);
	/* 253 bytes then a 2-byte character: 255; a 3-byte one: 256. */
	s = repeat('s', 253, "\xc3\xa9");
	tap_ok(ltt_session_name_valid(s), "a 255-byte name ending in UTF-8 is valid");
	free(s);
	s = repeat('s', 253, "\xe6\x97\xa5");
	tap_ok(!ltt_session_name_valid(s), "a 256-byte name ending in UTF-8 is invalid");
	free(s);
}

/* @cp (at most U+FFFF) as UTF-8 in @buf, between @pre and @post. */
static char *with_char(char *buf, size_t len, const char *pre, uint32_t cp, const char *post)
{
	char enc[4] = { 0 };

	if (cp < 0x800) {
		enc[0] = (char)(0xc0 | cp >> 6);
		enc[1] = (char)(0x80 | (cp & 0x3f));
	} else {
		enc[0] = (char)(0xe0 | cp >> 12);
		enc[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		enc[2] = (char)(0x80 | (cp & 0x3f));
	}
	snprintf(buf, len, "%s%s%s", pre, enc, post);
	return buf;
}

/* Bidirectional controls and invisible characters: one name posing as another. */
static void test_hidden_chars(void)
{
	static const uint32_t hidden[] = {
		0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c,
		0x202d, 0x202e, 0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff,
	};
	/* Their neighbours, and letters with accents: printable, accepted. */
	static const uint32_t shown[] = {
		0x00e9, 0x00f1, 0x00c5, 0x00fc, 0x0107, 0x061b, 0x061d, 0x200a, 0x2010,
		0x2011, 0x202f, 0x205f, 0x2070, 0xfefc, 0xff01,
	};
	const char *what;
	char buf[64];
	uint32_t cp;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(hidden); i++) {
		with_char(buf, sizeof(buf), "admin", hidden[i], "x");
		tap_ok(!ltt_session_name_valid(buf), "a session name holding U+%04X is invalid",
		       (unsigned int)hidden[i]);
		cp = 0;
		what = ltt_name_hidden_char(buf, &cp);
		tap_ok(what && cp == hidden[i], "U+%04X is found in the name, as %s",
		       (unsigned int)hidden[i], what ? what : "(nothing)");
		with_char(buf, sizeof(buf), "", hidden[i], "");
		tap_ok(!ltt_session_name_valid(buf), "U+%04X alone is no session name",
		       (unsigned int)hidden[i]);
		with_char(buf, sizeof(buf), "1000/s", hidden[i], "");
		tap_ok(!ltt_session_ref_valid(buf), "UID/NAME with U+%04X last is no reference",
		       (unsigned int)hidden[i]);
	}
	for (i = 0; i < ARRAY_SIZE(shown); i++) {
		with_char(buf, sizeof(buf), "s", shown[i], "s");
		tap_ok(ltt_session_name_valid(buf) && !ltt_name_hidden_char(buf, &cp),
		       "a session name holding U+%04X is valid", (unsigned int)shown[i]);
	}
	tap_ok(ltt_session_name_valid("\xc3\x91" "and\xc3\xba \xc3\x86r\xc3\xb8sk\xc3\xb8" "bing"),
	       "a session name of accented letters is valid");
	cp = 7;
	tap_ok(!ltt_name_hidden_char("plain", &cp) && cp == 7,
	       "a plain name holds no hidden character (out-parameter untouched)");
	tap_ok(!ltt_name_hidden_char(NULL, &cp), "NULL holds no hidden character");
	/* Malformed bytes before it do not hide it. */
	what = ltt_name_hidden_char("a\xff\xe2\x80\xae", &cp);
	tap_ok(what && cp == 0x202e && strstr(what, "right-to-left override"),
	       "U+202E after a malformed byte is found: %s", what ? what : "(nothing)");
}

static void test_channel_names(void)
{
	static const char *const good[] = {
		"channel0", "a", "my-chan", "my_chan", "chan.1", "A-Z_0.9", "_x", "0",
		"metadata0", "Metadata", "metadat", "x.metadata",
	};
	static const char *const bad[] = {
		"", ".", ".x", "-x", "a/b", "a b", "a:b", "a*", "caf\xc3\xa9", "tab\t",
		"metadata", "a\\b", "a@b",
	};
	char *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(good); i++)
		tap_ok(ltt_channel_name_valid(good[i]), "channel name \"%s\" is valid", good[i]);
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		tap_ok(!ltt_channel_name_valid(bad[i]), "channel name \"%s\" is invalid", bad[i]);
	tap_ok(!ltt_channel_name_valid(NULL), "a NULL channel name is invalid");

	s = repeat('c', LTT_CHANNEL_NAME_MAX, "");
	tap_ok(ltt_channel_name_valid(s), "a 219-byte channel name is valid");
	free(s);
	s = repeat('c', LTT_CHANNEL_NAME_MAX + 1, "");
	tap_ok(!ltt_channel_name_valid(s), "a 220-byte channel name is invalid");
	free(s);
	s = repeat('c', 255, "");
	tap_ok(!ltt_channel_name_valid(s), "a 255-byte channel name is invalid");
	tap_ok(ltt_snapshot_output_name_valid(s), "a 255-byte snapshot output name is valid");
	free(s);
	s = repeat('c', 256, "");
	tap_ok(!ltt_snapshot_output_name_valid(s), "a 256-byte snapshot output name is invalid");
	free(s);
	/* The longest name, the largest CPU and file numbers, as an index file. */
	tap_ok(LTT_CHANNEL_NAME_MAX + strlen("_4294967295_18446744073709551615.idx") <= NAME_MAX,
	       "the longest channel name's longest index file name fits NAME_MAX");
	tap_ok(strstr(ltt_strerror(LTT_ERR_CHANNEL_NAME), "1 to 219 ") != NULL,
	       "the CHANNEL_NAME message names the limit");
}

static void test_event_names(void)
{
	static const char *const names[] = {
		"sched_switch", "a", "my_provider:my_event", "a.b-c", "-x", ".x", "0", "::",
	};
	static const char *const patterns[] = {
		"*", "sched_*", "*_switch", "a*b*c", "**", "my_provider:*", "*:*",
		/* LTTng's escapes: a literal star, a literal backslash */
		"*\\**", "*\\*", "\\**", "\\*", "a\\\\b", "\\\\*",
	};
	static const char *const bad[] = {
		"", "a b", "a/b", "a?", "a[b]", "caf\xc3\xa9", "tab\t", "a,b",
		/* a backslash escapes a star or a backslash only, and ends no pattern */
		"a\\", "\\", "a\\b", "\\\\\\", "a\\:b",
	};
	char *s;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		tap_ok(ltt_event_name_valid(names[i]), "event name \"%s\" is valid", names[i]);
		tap_ok(ltt_event_pattern_valid(names[i]), "\"%s\" is a valid pattern", names[i]);
	}
	for (i = 0; i < ARRAY_SIZE(patterns); i++) {
		tap_ok(ltt_event_pattern_valid(patterns[i]), "pattern \"%s\" is valid",
		       patterns[i]);
		tap_ok(!ltt_event_name_valid(patterns[i]), "\"%s\" is not an event name",
		       patterns[i]);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		tap_ok(!ltt_event_name_valid(bad[i]), "event name \"%s\" is invalid", bad[i]);
		tap_ok(!ltt_event_pattern_valid(bad[i]), "pattern \"%s\" is invalid", bad[i]);
	}
	tap_ok(!ltt_event_name_valid(NULL), "a NULL event name is invalid");
	tap_ok(!ltt_event_pattern_valid(NULL), "a NULL pattern is invalid");

	tap_ok(ltt_event_pattern_is_glob("a*") && ltt_event_pattern_is_glob("\\**") &&
	       ltt_event_pattern_is_glob("\\\\*"), "\"a*\", \"\\**\" and \"\\\\*\" are globs");
	tap_ok(!ltt_event_pattern_is_glob("a") && !ltt_event_pattern_is_glob("a\\*") &&
	       !ltt_event_pattern_is_glob("\\*\\\\") && !ltt_event_pattern_is_glob(NULL),
	       "\"a\", \"a\\*\", \"\\*\\\\\" and NULL are not");

	s = repeat('e', 254, "*");
	tap_ok(ltt_event_pattern_valid(s), "a 255-byte pattern is valid");
	free(s);
	s = repeat('e', 255, "*");
	tap_ok(!ltt_event_pattern_valid(s), "a 256-byte pattern is invalid");
	free(s);
	s = repeat('e', 255, "");
	tap_ok(ltt_event_name_valid(s), "a 255-byte event name is valid");
	free(s);
	s = repeat('e', 256, "");
	tap_ok(!ltt_event_name_valid(s), "a 256-byte event name is invalid");
	free(s);
}

static void test_glob(void)
{
	static const struct {
		const char *pattern;
		const char *name;
		bool match;
	} cases[] = {
		{ "", "", true },
		{ "", "a", false },
		{ "a", "", false },
		{ "*", "", true },
		{ "*", "anything", true },
		{ "**", "", true },
		{ "***", "abc", true },
		{ "a", "a", true },
		{ "a", "b", false },
		{ "a", "aa", false },
		{ "aa", "a", false },
		{ "abc", "abc", true },
		{ "abc", "abd", false },
		{ "a*", "a", true },
		{ "a*", "abc", true },
		{ "a*", "ba", false },
		{ "*a", "a", true },
		{ "*a", "bca", true },
		{ "*a", "ab", false },
		{ "*a*", "bab", true },
		{ "*a*", "bbb", false },
		{ "a*b*c", "abc", true },
		{ "a*b*c", "aXbYc", true },
		{ "a*b*c", "abbbccc", true },
		{ "a*b*c", "abcb", false },
		{ "a*b*c", "acb", false },
		{ "a*b*c", "ab", false },
		{ "a*b*c*", "abcd", true },
		{ "sched_*", "sched_switch", true },
		{ "sched_*", "sched_", true },
		{ "sched_*", "sched", false },
		{ "sched_*", "xsched_switch", false },
		{ "*_switch", "sched_switch", true },
		{ "*_switch", "sched_switch2", false },
		{ "a*a", "aaa", true },
		{ "a*a", "a", false },
		{ "*ab", "aab", true },
		{ "*aab", "aaab", true },
		{ "*abc*abd", "abcabcabd", true },
		{ "*abc*abd", "abcabdabc", false },
		{ "my_provider:*", "my_provider:ev", true },
		{ "my_provider:*", "my_provider", false },
		{ "A*", "a", false },
		/* LTTng's escapes: backslash-star a literal star, two backslashes one */
		{ "\\*", "*", true },
		{ "\\*", "a", false },
		{ "\\*", "", false },
		{ "*\\**", "a*b", true },
		{ "*\\**", "*", true },
		{ "*\\**", "ab", false },
		{ "*\\*", "ab*", true },
		{ "*\\*", "a*b", false },
		{ "\\**", "*ab", true },
		{ "\\**", "a*", false },
		{ "a\\\\b", "a\\b", true },
		{ "a\\\\b", "ab", false },
		{ "\\\\*", "\\x", true },
		{ "\\\\*", "x", false },
		{ "*\\*\\\\", "a*\\", true },
		{ "a\\", "a\\", true },
		{ "a*\\*", "aXY*", true },
	};
	struct timespec t0, t1;
	char *pattern, *name;
	bool match;
	double ms;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tap_ok(ltt_glob_match(cases[i].pattern, cases[i].name) == cases[i].match,
		       "\"%s\" %s \"%s\"", cases[i].pattern,
		       cases[i].match ? "matches" : "does not match", cases[i].name);
	}
	tap_ok(!ltt_glob_match(NULL, "a"), "a NULL pattern matches nothing");
	tap_ok(!ltt_glob_match("*", NULL), "a NULL name is matched by nothing");

	/*
	 * A naive recursive matcher takes exponential time here; the
	 * backtracking one takes len(pattern) * len(name) steps.
	 */
	pattern = strdup("a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b");
	name = repeat('a', 100000, "");
	if (!pattern)
		abort();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	match = ltt_glob_match(pattern, name);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	tap_ok(!match, "\"%s\" does not match 100000 'a's", pattern);
	tap_ok(ms < 2000, "and finds out in %.1f ms (< 2 s)", ms);
	name[99999] = 'b';
	tap_ok(ltt_glob_match(pattern, name), "but matches 99999 'a's then 'b'");
	free(name);

	name = repeat('a', 255, "");
	clock_gettime(CLOCK_MONOTONIC, &t0);
	match = ltt_glob_match(pattern, name);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ms = (double)(t1.tv_sec - t0.tv_sec) * 1e3 + (double)(t1.tv_nsec - t0.tv_nsec) / 1e6;
	tap_ok(!match && ms < 100, "against 255 'a's it answers in %.3f ms", ms);
	free(name);
	free(pattern);
}

/* ltt_glob_overlap() and ltt_glob_covers(): exclusions against patterns. */
static void test_glob_relations(void)
{
	static const struct {
		const char *a, *b;
		bool overlap, a_covers_b;
	} cases[] = {
		{ "tp:*", "tp:tptest2", true, true },
		{ "tp:tptest2", "tp:*", true, false },
		{ "tp:*", "tp*tptest*", true, false },
		{ "tp*tptest*", "tp:*", true, false },
		{ "tp:*", "*test2", true, false },
		{ "tp:*", "*p***test*", true, false },
		{ "tp:*", "**tp*test3", true, false },
		{ "tp:*", "*3", true, false },
		{ "tp:*", "other:x", false, false },
		{ "tp:*", "*p", true, false },
		{ "allo*", "all*", true, false },
		{ "all*", "allo*", true, true },
		{ "all*", "a*b*", true, false },
		{ "a*", "a*b*", true, true },
		{ "*", "a*b*", true, true },
		{ "a*b*", "*", true, false },
		{ "a*", "*a", true, false },
		{ "*a*", "*ab*", true, true },
		{ "a*z", "b*", false, false },
		{ "a*", "b*", false, false },
		{ "*", "", true, true },
		{ "", "", true, true },
		{ "a", "a", true, true },
		{ "a", "b", false, false },
		{ "\\**", "*", true, false },
		{ "*\\*", "a*", true, false },
		{ "\\*", "*", true, false },
		{ "*", "\\*", true, true },
		{ "\\*", "\\*", true, true },
		{ "\\*", "a", false, false },
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		tap_ok(ltt_glob_overlap(cases[i].a, cases[i].b) == cases[i].overlap &&
		       ltt_glob_overlap(cases[i].b, cases[i].a) == cases[i].overlap,
		       "\"%s\" and \"%s\" %s", cases[i].a, cases[i].b,
		       cases[i].overlap ? "overlap" : "have no name in common");
		tap_ok(ltt_glob_covers(cases[i].a, cases[i].b) == cases[i].a_covers_b,
		       "\"%s\" %s \"%s\"", cases[i].a,
		       cases[i].a_covers_b ? "covers" : "does not cover", cases[i].b);
	}
	tap_ok(!ltt_glob_overlap(NULL, "*") && !ltt_glob_covers("*", NULL),
	       "NULL overlaps nothing and is covered by nothing");
}

static void test_loglevels(void)
{
	static const char *const names[] = {
		"EMERG", "ALERT", "CRIT", "ERR", "WARNING", "NOTICE", "INFO", "DEBUG_SYSTEM",
		"DEBUG_PROGRAM", "DEBUG_PROCESS", "DEBUG_MODULE", "DEBUG_UNIT",
		"DEBUG_FUNCTION", "DEBUG_LINE", "DEBUG",
	};
	static const struct {
		const char *text;
		int level;
	} aliases[] = {
		{ "warning", LTT_LOGLEVEL_WARNING },
		{ "Warning", LTT_LOGLEVEL_WARNING },
		{ "LTT_LOGLEVEL_WARNING", LTT_LOGLEVEL_WARNING },
		{ "ltt_loglevel_warning", LTT_LOGLEVEL_WARNING },
		{ "Ltt_LogLevel_Debug_Line", LTT_LOGLEVEL_DEBUG_LINE },
		{ "debug", LTT_LOGLEVEL_DEBUG },
		{ "emerg", LTT_LOGLEVEL_EMERG },
		{ "TRACE_WARNING", LTT_LOGLEVEL_WARNING },	/* LTTng's names */
		{ "trace_debug_line", LTT_LOGLEVEL_DEBUG_LINE },
		{ "TRACE_EMERG", LTT_LOGLEVEL_EMERG },
		{ "0", 0 },
		{ "4", 4 },
		{ "9", 9 },
		{ "10", 10 },
		{ "14", 14 },
		{ "014", 14 },
		{ "00", 0 },
	};
	static const char *const bad[] = {
		"", "15", "99", "100", "-1", "+4", " 4", "4 ", "4x", "0x4", "1e1",
		"WARN", "WARNINGS", "ERROR", "DEBUG_", "LTT_LOGLEVEL_", "LTT_LOGLEVEL_4",
		"LTT_WARNING", "TRACE_", "TRACE_4", "TRACE_TRACE_INFO", "TRACE_LTT_LOGLEVEL_INFO",
		"LTT_LOGLEVEL_TRACE_INFO", " WARNING", "WARNING ", "LTT_LOGLEVEL__WARNING",
		"99999999999999999999", "LTT_LOGLEVEL_LTT_LOGLEVEL_INFO",
	};
	size_t i;
	int level, ret;
	bool all = true;

	tap_is_int(ARRAY_SIZE(names), 15, "there are 15 levels");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		tap_is_str(ltt_loglevel_name((int)i), names[i], "level %zu is %s", i, names[i]);
		level = -1;
		ret = ltt_loglevel_parse(names[i], &level);
		tap_ok(ret == 0 && level == (int)i, "\"%s\" parses to %zu", names[i], i);
	}
	for (i = 0; i < ARRAY_SIZE(aliases); i++) {
		level = -1;
		ret = ltt_loglevel_parse(aliases[i].text, &level);
		tap_ok(ret == 0 && level == aliases[i].level, "\"%s\" parses to %d",
		       aliases[i].text, aliases[i].level);
	}
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		level = 77;
		ret = ltt_loglevel_parse(bad[i], &level);
		tap_ok(ret == -LTT_ERR_LOGLEVEL && level == 77,
		       "\"%s\" is -LTT_ERR_LOGLEVEL, result untouched", bad[i]);
	}
	tap_is_int(ltt_loglevel_parse(NULL, &level), -LTT_ERR_LOGLEVEL, "NULL text is refused");
	tap_is_int(ltt_loglevel_parse("INFO", NULL), -LTT_ERR_LOGLEVEL,
		   "NULL result is refused");
	tap_is_str(ltt_loglevel_name(-1), "UNKNOWN", "level -1 is UNKNOWN");
	tap_is_str(ltt_loglevel_name(15), "UNKNOWN", "level 15 is UNKNOWN");
	tap_is_str(ltt_loglevel_name(-2147483647 - 1), "UNKNOWN", "level INT_MIN is UNKNOWN");
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		if (ltt_loglevel_parse(ltt_loglevel_name((int)i), &level) || level != (int)i)
			all = false;
	}
	tap_ok(all, "every level's name parses back to it");
}

static void test_enum_names(void)
{
	tap_is_str(ltt_domain_name(LTT_DOMAIN_KERNEL), "kernel", "domain kernel");
	tap_is_str(ltt_domain_name(LTT_DOMAIN_USER), "user", "domain user");
	tap_is_str(ltt_domain_name(LTT_DOMAIN_NONE), "none", "domain none");
	tap_is_str(ltt_domain_name((enum ltt_domain)42), "none", "an unknown domain is none");
	tap_is_str(ltt_buffer_type_name(LTT_BUFFER_PER_UID), "per-uid", "buffers per-uid");
	tap_is_str(ltt_buffer_type_name(LTT_BUFFER_PER_PID), "per-pid", "buffers per-pid");
	tap_is_str(ltt_buffer_type_name(LTT_BUFFER_GLOBAL), "global", "buffers global");
	tap_is_str(ltt_buffer_type_name(LTT_BUFFER_DEFAULT), "default", "buffers default");
	tap_is_str(ltt_buffer_type_name((enum ltt_buffer_type)42), "default",
		   "an unknown buffer type is default");
	tap_is_str(ltt_domain_name(LTT_DOMAIN_JUL), "jul", "domain jul");
	tap_is_str(ltt_domain_name(LTT_DOMAIN_LOG4J), "log4j", "domain log4j");
	tap_is_str(ltt_domain_name(LTT_DOMAIN_PYTHON), "python", "domain python");
	tap_is_str(ltt_domain_name((enum ltt_domain)-1), "none", "a negative domain is none");
	tap_is_str(ltt_tracker_type_name(LTT_TRACKER_VPID), "vpid", "tracker vpid");
	tap_is_str(ltt_tracker_type_name(LTT_TRACKER_GID), "gid", "tracker gid");
	tap_is_str(ltt_tracker_type_name((enum ltt_tracker_type)LTT_TRACKER_NR), "unknown",
		   "a tracker past the last is unknown");
}

int main(void)
{
	test_session_names();
	test_hidden_chars();
	test_channel_names();
	test_event_names();
	test_glob();
	test_glob_relations();
	test_loglevels();
	test_enum_names();
	return tap_done();
}
