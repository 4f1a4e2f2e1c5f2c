/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * durable.h - files that survive a crash whole: replaced at once
 * (write a temporary file, fsync, rename over, fsync the directory).
 */
#ifndef LTT_COMMON_DURABLE_H
#define LTT_COMMON_DURABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

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
 * take it for the file).  Fault points (fault.h): "replace-written" (the temporary
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
