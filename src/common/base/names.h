/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * names.h - validation of the names users give to sessions, channels and
 * event rules, and glob matching of event names.
 */
#ifndef LTT_COMMON_NAMES_H
#define LTT_COMMON_NAMES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * Each validator takes a borrowed string, NULL included (never valid), and
 * returns true when it is acceptable.
 */

/**
 * ltt_session_name_valid() - a session name is 1..255 bytes of printable
 * ASCII or well-formed UTF-8 (no C0, DEL or C1 control characters, no
 * overlong forms or surrogates, no bidirectional control nor invisible
 * character: see ltt_utf8_hidden_char()), without '/', and does not start
 * with '.' or '-'.  It becomes a directory name and a command-line word,
 * and is shown on terminals, where it must not pass for another name.
 */
bool ltt_session_name_valid(const char *name);

/**
 * ltt_session_ref_valid() - a session as commands name it: a session name,
 * or "UID/NAME" (user UID's session NAME; names never hold '/'), in
 * 1..255 bytes
 */
bool ltt_session_ref_valid(const char *ref);

/**
 * ltt_channel_name_valid() - a channel name is 1..LTT_CHANNEL_NAME_MAX (219)
 * bytes of [A-Za-z0-9_.-], not starting with '.' or '-'.  It becomes a
 * stream file name prefix (NAME_CPU_N.idx fits in NAME_MAX bytes).
 * "metadata" is reserved.  The client library, the session daemon and the
 * consumer daemon all check with this, so a name one accepts the others do.
 */
bool ltt_channel_name_valid(const char *name);

/**
 * ltt_snapshot_output_name_valid() - a snapshot output name is 1..255
 * bytes of [A-Za-z0-9_.-], not starting with '.' or '-', not "metadata".
 */
bool ltt_snapshot_output_name_valid(const char *name);

/**
 * ltt_event_pattern_valid() - an event rule pattern is 1..255 bytes of
 * [A-Za-z0-9_:.-], '*' (any run of characters, anywhere), and, as in
 * LTTng, "\*" (a literal star) and "\\" (a literal backslash); a
 * backslash before anything else is invalid.
 */
bool ltt_event_pattern_valid(const char *pattern);

/**
 * ltt_event_name_valid() - like a pattern, without '*' nor '\'
 */
bool ltt_event_name_valid(const char *name);

/**
 * ltt_event_pattern_is_glob() - does @pattern (borrowed, NULL allowed:
 * no) hold a star that is not escaped, so that it may match more than
 * one name?  "a\*" is no glob: it names the one event "a*".
 */
bool ltt_event_pattern_is_glob(const char *pattern);

/**
 * ltt_utf8_char_len() - bytes of the printable UTF-8 character at @s
 *
 * Returns 1 to 4, or 0 for a control character (C0, DEL, C1), a NUL,
 * malformed or overlong UTF-8, or a surrogate.
 */
size_t ltt_utf8_char_len(const unsigned char *s);

/**
 * ltt_utf8_hidden_char() - is the character at @s one that reorders the
 * text around it or shows as nothing?
 * @s: borrowed; read up to its first NUL at most
 * @ret_cp: set to the character's code point when it is one
 *
 * The Unicode bidirectional controls (U+061C, U+200E, U+200F,
 * U+202A..U+202E, U+2066..U+2069) and the invisible format characters
 * U+200B..U+200D, U+2060 and U+FEFF.  Returns a static description of
 * the character for messages ("right-to-left override, a bidirectional
 * control"), or NULL when it is none of them (or is not well-formed).
 */
const char *ltt_utf8_hidden_char(const unsigned char *s, uint32_t *ret_cp);

/**
 * ltt_name_hidden_char() - the first ltt_utf8_hidden_char() in @name
 * @name: borrowed, NULL allowed (holds none)
 * @ret_cp: set to its code point when there is one
 *
 * Returns its description, or NULL when @name holds none.
 */
const char *ltt_name_hidden_char(const char *name, uint32_t *ret_cp);

/**
 * ltt_glob_match() - does @name match @pattern ('*' matches any run,
 * including an empty one; "\c" matches the character c, so "\*" a star
 * and "\\" a backslash; every other character matches itself)?
 * Runs in O(len(pattern) * len(name)) at worst, never exponential.
 * A NULL argument matches nothing.
 */
bool ltt_glob_match(const char *pattern, const char *name);

/**
 * ltt_glob_overlap() - is there a name both patterns match?
 * @a, @b: borrowed patterns, shorter than LTT_NAME_MAX (longer ones, and
 *         NULL, overlap nothing)
 *
 * Any name, not only a valid event name: "a*" and "*\*" overlap ("a*").
 * O(len(a) * len(b)).
 */
bool ltt_glob_overlap(const char *a, const char *b);

/**
 * ltt_glob_covers() - does @outer match every name @inner matches?
 * @outer, @inner: borrowed patterns, as ltt_glob_overlap()'s
 *
 * True when @outer's stars can stand for @inner's (and for runs around
 * them): "all*" covers "allo*" and "a*b*", "*" covers everything, "a*"
 * does not cover "*a".  O(len(outer) * len(inner)).
 */
bool ltt_glob_covers(const char *outer, const char *inner);

#endif /* LTT_COMMON_NAMES_H */
