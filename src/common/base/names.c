// SPDX-License-Identifier: LGPL-2.1-only
/*
 * names.c - validation of the names users give to sessions, channels and
 * event rules, glob matching of event names, and the names of the public
 * enums of ltt-ctl.h.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/base/names.h"

#define RESERVED_CHANNEL_NAME "metadata"

/* 1..LTT_NAME_MAX - 1 bytes. */
static bool length_valid(const char *name)
{
	return name[0] && strnlen(name, LTT_NAME_MAX) < LTT_NAME_MAX;
}

static bool is_ascii_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/*
 * Decode the character at @s into @ret_cp: its length (1..4) if it is
 * well-formed UTF-8 (shortest form, no surrogate, at most U+10FFFF), 0
 * otherwise.  Reads nothing past a NUL.
 */
static size_t utf8_decode(const unsigned char *s, uint32_t *ret_cp)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80) {
		*ret_cp = s[0];
		return 1;
	}
	if (s[0] >= 0xc2 && s[0] <= 0xdf) {
		len = 2;
		cp = s[0] & 0x1f;
	} else if (s[0] >= 0xe0 && s[0] <= 0xef) {
		len = 3;
		cp = s[0] & 0x0f;
	} else if (s[0] >= 0xf0 && s[0] <= 0xf4) {
		len = 4;
		cp = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < len; i++) {
		/* A NUL is not a continuation byte: stops here. */
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;	/* overlong or out of range */
	if (cp >= 0xd800 && cp <= 0xdfff)
		return 0;	/* surrogate */
	*ret_cp = cp;
	return len;
}

/*
 * The length (1..4) of the character at @s if it is well-formed UTF-8 and
 * not a control character (C0, DEL or C1); 0 otherwise.
 */
size_t ltt_utf8_char_len(const unsigned char *s)
{
	uint32_t cp;
	size_t len = utf8_decode(s, &cp);

	if (!len || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return 0;	/* malformed, C0, DEL or C1 */
	return len;
}

/*
 * The characters that change how the text around them is shown, or show as
 * nothing: with them, one name can look like another on a terminal.
 */
static const struct hidden_char {
	uint32_t cp;
	const char *name;
} hidden_chars[] = {
	{ 0x061c, "arabic letter mark, a bidirectional control" },
	{ 0x200b, "zero width space, an invisible character" },
	{ 0x200c, "zero width non-joiner, an invisible character" },
	{ 0x200d, "zero width joiner, an invisible character" },
	{ 0x200e, "left-to-right mark, a bidirectional control" },
	{ 0x200f, "right-to-left mark, a bidirectional control" },
	{ 0x202a, "left-to-right embedding, a bidirectional control" },
	{ 0x202b, "right-to-left embedding, a bidirectional control" },
	{ 0x202c, "pop directional formatting, a bidirectional control" },
	{ 0x202d, "left-to-right override, a bidirectional control" },
	{ 0x202e, "right-to-left override, a bidirectional control" },
	{ 0x2060, "word joiner, an invisible character" },
	{ 0x2066, "left-to-right isolate, a bidirectional control" },
	{ 0x2067, "right-to-left isolate, a bidirectional control" },
	{ 0x2068, "first strong isolate, a bidirectional control" },
	{ 0x2069, "pop directional isolate, a bidirectional control" },
	{ 0xfeff, "zero width no-break space, an invisible character" },
};

const char *ltt_utf8_hidden_char(const unsigned char *s, uint32_t *ret_cp)
{
	uint32_t cp;
	size_t i;

	if (!utf8_decode(s, &cp) || cp < 0x61c)
		return NULL;
	for (i = 0; i < sizeof(hidden_chars) / sizeof(hidden_chars[0]); i++) {
		if (hidden_chars[i].cp == cp) {
			*ret_cp = cp;
			return hidden_chars[i].name;
		}
	}
	return NULL;
}

const char *ltt_name_hidden_char(const char *name, uint32_t *ret_cp)
{
	const unsigned char *p;
	const char *what;
	size_t n;

	if (!name)
		return NULL;
	for (p = (const unsigned char *)name; *p; p += n) {
		what = ltt_utf8_hidden_char(p, ret_cp);
		if (what)
			return what;
		n = ltt_utf8_char_len(p);
		if (!n)
			n = 1;
	}
	return NULL;
}

bool ltt_session_name_valid(const char *name)
{
	const unsigned char *p;
	uint32_t cp;
	size_t n;

	if (!name || !length_valid(name) || name[0] == '.' || name[0] == '-')
		return false;
	for (p = (const unsigned char *)name; *p; p += n) {
		if (*p == '/' || ltt_utf8_hidden_char(p, &cp))
			return false;
		n = ltt_utf8_char_len(p);
		if (!n)
			return false;
	}
	return true;
}

bool ltt_session_ref_valid(const char *ref)
{
	const char *p;

	if (!ref || strnlen(ref, LTT_NAME_MAX) >= LTT_NAME_MAX)
		return false;
	for (p = ref; *p >= '0' && *p <= '9'; p++)
		;
	if (p > ref && p - ref <= 10 && *p == '/')
		return ltt_session_name_valid(p + 1);
	return ltt_session_name_valid(ref);
}

/* 1..255 bytes of [A-Za-z0-9_.-], not starting with '.' or '-', not "metadata". */
static bool file_word_valid(const char *name)
{
	const char *p;

	if (!name || !length_valid(name) || name[0] == '.' || name[0] == '-')
		return false;
	for (p = name; *p; p++) {
		if (!is_ascii_alnum(*p) && !strchr("_.-", *p))
			return false;
	}
	return strcmp(name, RESERVED_CHANNEL_NAME) != 0;
}

bool ltt_channel_name_valid(const char *name)
{
	return file_word_valid(name) && strlen(name) <= LTT_CHANNEL_NAME_MAX;
}

bool ltt_snapshot_output_name_valid(const char *name)
{
	return file_word_valid(name);
}

/*
 * 1..255 bytes of [A-Za-z0-9_:.-]; if @glob, also '*' and the escapes
 * "\*" (a literal star) and "\\" (a literal backslash).
 */
static bool event_text_valid(const char *text, bool glob)
{
	const char *p;

	if (!text || !length_valid(text))
		return false;
	for (p = text; *p; p++) {
		if (is_ascii_alnum(*p) || strchr("_:.-", *p))
			continue;
		if (glob && *p == '*')
			continue;
		if (glob && *p == '\\' && (p[1] == '*' || p[1] == '\\')) {
			p++;
			continue;
		}
		return false;
	}
	return true;
}

bool ltt_event_pattern_valid(const char *pattern)
{
	return event_text_valid(pattern, true);
}

bool ltt_event_name_valid(const char *name)
{
	return event_text_valid(name, false);
}

bool ltt_event_pattern_is_glob(const char *pattern)
{
	const char *p;

	if (!pattern)
		return false;
	for (p = pattern; *p; p++) {
		if (*p == '*')
			return true;
		if (*p == '\\' && p[1])
			p++;
	}
	return false;
}

/*
 * The character the literal at @p stands for ("\c" is c; a lone trailing
 * backslash is itself), its length in the pattern in @ret_len.
 */
static char pattern_literal(const char *p, size_t *ret_len)
{
	if (p[0] == '\\' && p[1]) {
		*ret_len = 2;
		return p[1];
	}
	*ret_len = 1;
	return p[0];
}

/*
 * Match left to right.  On a mismatch, only the last star seen matters: let
 * it swallow one more character of @name and retry from just after it.  An
 * earlier star never needs to be revisited, because whatever the earlier
 * pattern part matched, the last star can absorb the difference.  Each
 * position of @name is the restart point at most once per pattern
 * position, hence O(len(pattern) * len(name)).
 */
bool ltt_glob_match(const char *pattern, const char *name)
{
	const char *star = NULL, *retry = NULL;
	const char *p = pattern, *n = name;
	size_t len;

	if (!pattern || !name)
		return false;
	while (*n) {
		if (*p == '*') {
			star = ++p;
			retry = n;
		} else if (*p && pattern_literal(p, &len) == *n) {
			p += len;
			n++;
		} else if (star) {
			p = star;
			n = ++retry;
		} else {
			return false;
		}
	}
	while (*p == '*')
		p++;
	return *p == '\0';
}

/* A pattern as tokens: a star, or one literal character. */
struct glob_tokens {
	size_t n;
	bool star[LTT_NAME_MAX];
	char c[LTT_NAME_MAX];
};

/* Split @pattern (shorter than LTT_NAME_MAX) into @t; false if too long. */
static bool glob_tokenize(const char *pattern, struct glob_tokens *t)
{
	const char *p = pattern;
	size_t len;

	if (strnlen(pattern, LTT_NAME_MAX) >= LTT_NAME_MAX)
		return false;
	for (t->n = 0; *p; t->n++) {
		t->star[t->n] = *p == '*';
		t->c[t->n] = t->star[t->n] ? '*' : pattern_literal(p, &len);
		p += t->star[t->n] ? 1 : len;
	}
	return true;
}

/*
 * g(i, j): can a's tokens from i and b's from j stand for one same text?
 * A star of @a takes any run of b's tokens; a star of @b takes a run of
 * a's only if !@cover (with @cover, a text of @b's stars is any text, so
 * only a star of @a can stand for it).  Row by row from the ends, two
 * rows kept: O(len(a) * len(b)) time, O(len(b)) memory.
 */
static bool glob_relate(const char *a, const char *b, bool cover)
{
	struct glob_tokens ta, tb;
	bool rows[2][LTT_NAME_MAX + 1];
	bool *next = rows[0], *cur = rows[1], *tmp;
	size_t i, j;

	if (!a || !b || !glob_tokenize(a, &ta) || !glob_tokenize(b, &tb))
		return false;
	for (i = ta.n + 1; i-- > 0;) {
		for (j = tb.n + 1; j-- > 0;) {
			bool g = i == ta.n && j == tb.n;

			if (i < ta.n && ta.star[i])
				g = next[j] || (j < tb.n && cur[j + 1]);
			else if (j < tb.n && tb.star[j])
				g = !cover && (cur[j + 1] || (i < ta.n && next[j]));
			else if (i < ta.n && j < tb.n)
				g = ta.c[i] == tb.c[j] && next[j + 1];
			cur[j] = g;
		}
		tmp = next;
		next = cur;
		cur = tmp;
	}
	return next[0];
}

bool ltt_glob_overlap(const char *a, const char *b)
{
	return glob_relate(a, b, false);
}

bool ltt_glob_covers(const char *outer, const char *inner)
{
	return glob_relate(outer, inner, true);
}

static const char *const domain_names[] = {
	[LTT_DOMAIN_NONE] = "none", [LTT_DOMAIN_KERNEL] = "kernel", [LTT_DOMAIN_USER] = "user",
	[LTT_DOMAIN_JUL] = "jul", [LTT_DOMAIN_LOG4J] = "log4j", [LTT_DOMAIN_PYTHON] = "python",
};
static const char *const buffer_type_names[] = {
	[LTT_BUFFER_DEFAULT] = "default", [LTT_BUFFER_PER_UID] = "per-uid",
	[LTT_BUFFER_PER_PID] = "per-pid", [LTT_BUFFER_GLOBAL] = "global",
};
static const char *const tracker_type_names[] = {
	[LTT_TRACKER_VPID] = "vpid", [LTT_TRACKER_VUID] = "vuid", [LTT_TRACKER_VGID] = "vgid",
	[LTT_TRACKER_PID] = "pid", [LTT_TRACKER_UID] = "uid", [LTT_TRACKER_GID] = "gid",
};

/* The name of @i in the table @names, or @other for a value it lacks. */
#define NAME_IN(names, i, other) \
	((unsigned int)(i) < sizeof(names) / sizeof(names[0]) && names[i] ? names[i] : (other))

const char *ltt_domain_name(enum ltt_domain domain)
{
	return NAME_IN(domain_names, domain, "none");
}

const char *ltt_buffer_type_name(enum ltt_buffer_type type)
{
	return NAME_IN(buffer_type_names, type, "default");
}

const char *ltt_tracker_type_name(enum ltt_tracker_type type)
{
	return NAME_IN(tracker_type_names, type, "unknown");
}
