/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracefs-util.h - the unit tests' access to the kernel's tracefs: find
 * where it is mounted, or mount it privately (root), and unmount what
 * was mounted here at the end; and babeltrace2's reading of what they
 * wrote.  Not thread-safe; one mount per process.
 */
#ifndef LTT_TESTS_TRACEFS_UTIL_H
#define LTT_TESTS_TRACEFS_UTIL_H

#include <stddef.h>

/**
 * tu_tracefs_open() - a directory where tracefs is mounted: an existing
 * mount, else one made here in a temporary directory (root only)
 * @reason: set to a sentence when there is none (the test skips)
 *
 * Returns the path (static storage), or NULL.
 */
const char *tu_tracefs_open(const char **reason);

/** tu_tracefs_close() - unmount and remove what tu_tracefs_open() mounted */
void tu_tracefs_close(void);

/**
 * tu_read_text() - the whole of a (tracefs or any) file into @buf, NUL
 * added; returns the length, or -1
 */
long tu_read_text(const char *path, char *buf, size_t size);

/** tu_write_text() - write @text to the file at @path; 0 or -errno */
int tu_write_text(const char *path, const char *text);

/**
 * tu_babeltrace() - babeltrace2's text of the trace in @dir into @buf
 * (through the file @dir.txt, removed after), LC_ALL=C
 * @option: one option given before @dir ("--clock-cycles"), or NULL
 *
 * Its stderr stays the caller's: its warnings (discarded events) would
 * split the text's lines.  Returns its exit status (127: not installed).
 */
int tu_babeltrace(const char *dir, const char *option, char *buf, size_t size);

#endif /* LTT_TESTS_TRACEFS_UTIL_H */
