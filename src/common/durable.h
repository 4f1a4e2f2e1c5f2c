/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * durable.h - files that survive a crash whole: replaced at once
 * (write a temporary file, fsync, rename over, fsync the directory), and
 * the crash points the tests kill a process at (LTT_CRASH_AT).
 */
#ifndef LTT_COMMON_DURABLE_H
#define LTT_COMMON_DURABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * ltt_crash_due() - is this the time to die at crash point @name?
 * @name: the point, e.g. "replace-renamed"
 *
 * A test's way to kill a process at a chosen phase, without racing it:
 * the environment variable LTT_CRASH_AT is NAME (the first time NAME is
 * reached) or NAME:N (the Nth time).  It is read once per process; unset
 * or empty, nothing is ever due.  Each call with @name counts one time.
 * Any thread; no lock.  The caller may tear what it writes first (as a
 * SIGKILL inside a write() can), then calls ltt_crash_now().
 */
bool ltt_crash_due(const char *name);

/** ltt_crash_now() - SIGKILL to self: never returns. */
void ltt_crash_now(void);

/** ltt_crash_point() - ltt_crash_now() when ltt_crash_due(@name). */
void ltt_crash_point(const char *name);

/**
 * ltt_file_replace() - replace the file at @path with @len bytes of @data
 * @path: the file; its directory must exist and be writable
 * @data: the new content
 * @len: its length
 * @mode: the new file's permission bits (set as they are, no umask)
 *
 * Writes PATH.tmp-XXXXXX in the same directory, fsyncs it, renames it
 * over @path and fsyncs the directory: a reader, or the next run after a
 * crash or a power loss at any instant, finds the old content or the
 * new, whole.  A failure removes the temporary file and leaves @path as
 * it was.  A crash may leave a PATH.tmp-XXXXXX behind (readers never
 * take it for the file).  Crash points: "replace-written" (the temporary
 * file written, not renamed), "replace-renamed" (renamed, the directory
 * not yet synced).
 *
 * Return: 0, or -errno (-ENAMETOOLONG when @path is too long).
 */
int ltt_file_replace(const char *path, const void *data, size_t len, mode_t mode);

/**
 * ltt_fsync_parent() - fsync the directory that holds @path
 * @path: a file's path (relative paths are relative to the working directory)
 *
 * After a rename or a create in that directory: the name itself survives a
 * power loss.  Return: 0 or -errno.
 */
int ltt_fsync_parent(const char *path);

#endif /* LTT_COMMON_DURABLE_H */
