/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracefile.h - a stream's files: their names, the current ones and the
 * file count, shared by the consumer's file sink and the relay daemon so
 * both lay traces out alike.
 *
 * Without a tracefile size limit a stream writes BASE and index/BASE.idx
 * (BASE is CHANNEL_CPU).  With one, it writes BASE_0, BASE_1, ... and
 * index/BASE_N.idx.  The session daemon refuses a channel whose names
 * would clash with another channel's (ltt_tracefile_names_clash()).
 * With a file count too, the oldest files go as new ones come
 * (ltt_tracefile_rotate()).
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

/*
 * A stream's files as their writer (the consumer's file sink, the relay)
 * keeps them: the current data file and its index, and the numbers of
 * the files on disk, file oldest_no to file file_no.
 */
struct ltt_tracefile_files {
	uint64_t max_size, max_count;	/* the tracefile size and count; 0: none */
	int fd, idx_fd;			/* the current files; -1: none */
	uint64_t file_no;		/* N of the current file */
	uint64_t oldest_no;		/* N of the oldest file still on disk */
	uint64_t size, idx_size;	/* bytes in the current files */
};

/* @f's current files closed (-1).  Their writer's thread. */
void ltt_tracefile_close(struct ltt_tracefile_files *f);

/**
 * ltt_tracefile_rotate() - go on in the next file, and keep the file count
 * @f: the stream's files, file_no's closed for file_no + 1's
 * @fd, @idx_fd: file file_no + 1 and its index (with the index header; -1:
 *               a stream without index), created by the caller
 * @dir_fd: the stream's directory
 * @index_dir_fd: its index directory, or -1 (a stream without index)
 * @base: BASE, as ltt_tracefile_name()'s (borrowed)
 *
 * Past @f's file count, the oldest files are deleted, each with its
 * index; a file already gone is fine, one that can't be deleted is logged
 * and counted deleted all the same.  Their writer's thread.  Returns how
 * many files were deleted.
 */
uint64_t ltt_tracefile_rotate(struct ltt_tracefile_files *f, int fd, int idx_fd, int dir_fd,
			      int index_dir_fd, const char *base);

#endif /* LTT_COMMON_TRACEFILE_H */
