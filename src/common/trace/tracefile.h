/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracefile.h - the names of a stream's files, shared by the consumer's
 * file sink and the relay daemon so both lay traces out alike.
 *
 * Without a tracefile size limit a stream writes BASE and index/BASE.idx
 * (BASE is CHANNEL_CPU).  With one, it writes BASE_0, BASE_1, ... and
 * index/BASE_N.idx.  The session daemon refuses a channel whose names
 * would clash with another channel's (ltt_tracefile_names_clash()).
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

#endif /* LTT_COMMON_TRACEFILE_H */
