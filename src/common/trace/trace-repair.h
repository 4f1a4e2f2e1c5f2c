/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trace-repair.h - what a crash leaves at the end of a trace's files,
 * found and cut: a stream file's packet its index does not hold whole,
 * a torn index entry, a torn metadata packet.
 */
#ifndef LTT_COMMON_TRACE_REPAIR_H
#define LTT_COMMON_TRACE_REPAIR_H

#include <stdint.h>

#include "common/trace/ctf.h"

/**
 * ltt_index_last_whole() - the last packet an index file holds whole
 * @idx_fd: the index file, readable
 * @idx_len: its length in bytes
 * @data_len: the length of its stream file
 * @ret_entries: set to the entries that count (0: none)
 * @ret: the last of them (when *@ret_entries)
 *
 * An entry counts when it is whole and its packet lies whole within
 * @data_len bytes; the entries after the last that counts do not.
 * Return: 0, -EIO (short read) or -EPROTO (not an index file of ours).
 */
int ltt_index_last_whole(int idx_fd, uint64_t idx_len, uint64_t data_len,
			 uint64_t *ret_entries, struct ltt_ctf_index_entry *ret);

/**
 * ltt_metadata_whole_len() - the bytes of a metadata file that are whole
 * packets
 * @fd: the metadata file, readable
 * @len: its length
 * @ret_len: set to the length of its whole packets from the start
 *
 * Return: 0 or -EIO.
 */
int ltt_metadata_whole_len(int fd, uint64_t len, uint64_t *ret_len);

/* What ltt_trace_repair() found. */
struct ltt_repair_stats {
	unsigned int dirs;		/* trace directories looked at */
	unsigned int busy;		/* of them, still written by a consumer: left alone */
	unsigned int cut;		/* files cut back */
	uint64_t bytes;			/* bytes cut */
	unsigned int errors;		/* files that could not be read or cut */
};

/**
 * ltt_trace_repair() - cut what a crash left torn in the traces under @path
 * @path: an output directory (a session's, a chunk's, an archive's)
 * @stats: counts added to (zeroed by the caller)
 *
 * Walks @path (10 levels at most, never following a link); in each trace
 * directory (one holding "metadata" or "index/"), unless a consumer still
 * holds it (its shared flock(), ltt_trace_dir_hold()): the metadata file
 * is cut to its whole packets, each stream file to the packets its index
 * holds whole (ltt_index_last_whole()), each index to those entries.  A
 * stream file without an index is left alone.  Each cut is logged.  Call
 * it with the rights of the traces' owner.  Return: 0, or -errno when
 * @path itself can't be opened.
 */
int ltt_trace_repair(const char *path, struct ltt_repair_stats *stats);

/**
 * ltt_trace_dir_hold() - mark the trace directory @dir_fd as written by
 * this process (a shared flock(), released when its last descriptor
 * closes, or at its death), so that ltt_trace_repair() leaves it alone.
 * @dir_fd: opened O_RDONLY, not O_PATH (flock() on an O_PATH descriptor
 *          fails with EBADF)
 * Return: 0 or -errno (-EWOULDBLOCK: a repair holds it now).
 */
int ltt_trace_dir_hold(int dir_fd);

/**
 * ltt_trace_dir_hold_alone() - ltt_trace_dir_hold(), when no descriptor
 * holds the directory already (no writer of ours or of another process,
 * no repair): what trace is there is written by no one now
 * @dir_fd: as ltt_trace_dir_hold()'s
 * Return: 0 (held), -EWOULDBLOCK (another holds it: not held) or -errno.
 */
int ltt_trace_dir_hold_alone(int dir_fd);

#endif /* LTT_COMMON_TRACE_REPAIR_H */
