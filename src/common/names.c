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

#include "common/names.h"

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
 * The length (1..4) of the character at @s if it is well-formed UTF-8
 * (shortest form, no surrogate, at most U+10FFFF) and not a control
 * character (C0, DEL or C1); 0 otherwise.  Reads nothing past a NUL.
 */
size_t ltt_utf8_char_len(const unsigned char *s)
{
	uint32_t cp;
	size_t len, i;

	if (s[0] < 0x80)
		return s[0] >= 0x20 && s[0] != 0x7f ? 1 : 0;
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
	if (cp <= 0x9f)
		return 0;	/* C1 control */
	return len;
}

bool ltt_session_name_valid(const char *name)
{
	const unsigned char *p;
	size_t n;

	if (!name || !length_valid(name) || name[0] == '.' || name[0] == '-')
		return false;
	for (p = (const unsigned char *)name; *p; p += n) {
		if (*p == '/')
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

/* 1..255 bytes of [A-Za-z0-9_:.-], and '*' if @glob. */
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

	if (!pattern || !name)
		return false;
	while (*n) {
		if (*p == '*') {
			star = ++p;
			retry = n;
		} else if (*p == *n) {
			p++;
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

const char *ltt_domain_name(enum ltt_domain domain)
{
	switch (domain) {
	case LTT_DOMAIN_KERNEL:
		return "kernel";
	case LTT_DOMAIN_USER:
		return "user";
	case LTT_DOMAIN_NONE:
	default:
		return "none";
	}
}

const char *ltt_buffer_type_name(enum ltt_buffer_type type)
{
	switch (type) {
	case LTT_BUFFER_PER_UID:
		return "per-uid";
	case LTT_BUFFER_PER_PID:
		return "per-pid";
	case LTT_BUFFER_GLOBAL:
		return "global";
	case LTT_BUFFER_DEFAULT:
	default:
		return "default";
	}
}

const char *ltt_tracker_type_name(enum ltt_tracker_type type)
{
	switch (type) {
	case LTT_TRACKER_VPID:
		return "vpid";
	case LTT_TRACKER_VUID:
		return "vuid";
	case LTT_TRACKER_VGID:
		return "vgid";
	case LTT_TRACKER_PID:
		return "pid";
	case LTT_TRACKER_UID:
		return "uid";
	case LTT_TRACKER_GID:
		return "gid";
	default:
		return "unknown";
	}
}
