/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracefile.h - the names of a stream's files, shared by the consumer's
 * file sink and the relay daemon so both lay traces out alike.
 *
 * Without a tracefile size limit a stream writes BASE and index/BASE.idx
 * (BASE is CHANNEL_CPU).  With one, it writes BASE_0, BASE_1, ... and
 * index/BASE_N.idx.  The session daemon refuses a channel whose names
 * would clash with another channel's (ltt_tracefile_names_clash()).
 * With a file count too, the oldest files go as new ones come
 * (ltt_tracefile_keep_count()).
 */
#ifndef LTT_COMMON_TRACEFILE_H
#define LTT_COMMON_TRACEFILE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Room for a full BASE_N.idx in NAME_MAX. */
#define LTT_TRACEFILE_BASE_MAX (NAME_MAX - 25)

/**
 * ltt_tracefile_name() - the name of a stream's file number @no
 * @base: BASE, at most LTT_TRACEFILE_BASE_MAX bytes (borrowed)
 * @rotating: a size limit is set (names carry _N)
 * @index: the index file's name (BASE[_N].idx, in index/) instead
 * @buf: @len bytes; NAME_MAX + 1 always suffice
 *
 * Any thread.  Returns 0 or -ENAMETOOLONG.
 */
int ltt_tracefile_name(const char *base, bool rotating, uint64_t no, bool index, char *buf,
		       size_t len);

/**
 * ltt_tracefile_names_clash() - would the streams of channels @a and @b
 * (different names, in the same trace) write a file of the same name?
 * @a_rotating: @a has a tracefile size limit (its names carry _N)
 *
 * Channel bases are CHANNEL_CPU, so a rotating channel "a" writes a_0_1,
 * which is also what a non-rotating channel "a_0" writes for CPU 1.
 * Any thread; the names are borrowed.  Returns true on a clash.
 */
bool ltt_tracefile_names_clash(const char *a, bool a_rotating, const char *b, bool b_rotating);

/**
 * ltt_tracefile_keep_count() - delete a stream's oldest files past its
 * file count
 * @dir_fd: the stream's directory
 * @index_dir_fd: its index directory, or -1 (a stream without index)
 * @base: BASE (borrowed); @rotating: as ltt_tracefile_name()'s
 * @oldest_no: the oldest file on disk, moved past the files deleted
 * @file_no: the current (newest) file
 * @max_count: the file count; 0: no count, nothing deleted
 *
 * Each file and its index go together; a file already gone is fine, one
 * that can't be deleted is logged and counted deleted all the same.
 * Any thread.  Returns how many files were deleted.
 */
uint64_t ltt_tracefile_keep_count(int dir_fd, int index_dir_fd, const char *base, bool rotating,
				  uint64_t *oldest_no, uint64_t file_no, uint64_t max_count);

#endif /* LTT_COMMON_TRACEFILE_H */
