/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * proc-status.h - a task's small files in /proc, read whole, and a
 * number of its status file (/proc/PID/status, /proc/self/status,
 * /proc/thread-self/status).
 */
#ifndef LTT_COMMON_PROC_STATUS_H
#define LTT_COMMON_PROC_STATUS_H

#include <stddef.h>

/**
 * ltt_proc_read() - the first @size - 1 bytes of the /proc file @path
 * into @buf, NUL-terminated, with open(), read() and close() only (no
 * allocation: safe in a signal handler).  One read() takes what a /proc
 * file of a task holds, up to @size - 1 bytes.  Returns their count, or
 * -errno of open() or read().
 */
int ltt_proc_read(const char *path, char *buf, size_t size);

/**
 * ltt_proc_status_number() - the first number of the line "@key:" of the
 * status file @path
 * @path: the file, as "/proc/%d/status" or "/proc/self/status" names it
 * @key: the line's name without its colon ("Tgid", "NSpid"); not the
 *       file's first line (Name:)
 * @ret: the number, set only on success
 *
 * Reads the first 2047 bytes of @path with open(), read() and close()
 * only: no allocation, safe in a tracing program's signal handler.
 * Returns 0, -errno of open() or read(), or -ENOENT when the file is
 * empty, has no such line in those bytes, or no number after the colon.
 */
int ltt_proc_status_number(const char *path, const char *key, long *ret);

#endif /* LTT_COMMON_PROC_STATUS_H */
