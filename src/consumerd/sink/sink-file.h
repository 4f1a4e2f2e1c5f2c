/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink-file.h - the "file" output: a trace directory on a local file
 * system.  Each stream's sink writes its data file and its index file
 * (none for an output without index/: a snapshot's), with tracefile
 * size/count rotation.
 *
 * Without a size limit a stream writes DIR/BASE and DIR/index/BASE.idx
 * (BASE is CHANNEL_CPU).  With one, it writes BASE_0, BASE_1, ... and
 * index/BASE_N.idx: a packet that would take the current file past the
 * limit starts the next file (a file always holds at least one packet).
 * With a count too, once there are more than COUNT files the oldest one
 * and its index are deleted, so N keeps growing and the newest files
 * remain.
 *
 * Writes are all or nothing: a packet and its index entry are both in
 * their files, or neither (a failed write is cut back with ftruncate()).
 * Packets in memory are written with pwritev(); packets a descriptor
 * yields (kernel streams) go through a pipe with splice(), without a
 * copy through user space, unless splice() refuses the descriptor
 * (EINVAL, ENOSYS): then this sink writes every later packet from memory.
 * Data reaches the files with write(): readers see it at once.  Without
 * fsync, durability across a host crash is the file system's; with it
 * (--fsync), each packet and its index entry are synced (fdatasync), after
 * the metadata file given (sync_after) and with the directory entries of
 * new files, before the packet counts as written: a packet that can't be
 * synced is cut back, as a failed write.
 *
 * The file sink never blocks the data thread beyond the file system's own
 * writes: ltt_sink_ready() always says yes.
 */
#ifndef LTT_CONSUMERD_SINK_FILE_H
#define LTT_CONSUMERD_SINK_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/trace/tracefile.h"
#include "consumerd/sink/fs.h"
#include "consumerd/sink/sink.h"

/* Room for a full BASE_N.idx in NAME_MAX. */
#define LTT_SINK_FILE_BASE_MAX LTT_TRACEFILE_BASE_MAX

struct ltt_sink_file_cfg {
	int dir_fd;			/* the trace directory (borrowed, dup'ed) */
	int index_dir_fd;		/* its index/ (borrowed, dup'ed); -1: no
					 * index files (a snapshot's, as LTTng's) */
	struct ltt_owner owner;		/* who gets the files */
	uint64_t max_size;		/* bytes per file, 0: one file */
	uint64_t max_count;		/* files kept, 0: all */
	bool metadata;			/* the trace's own output: creates DIR/metadata
					 * (-EEXIST if there) for ltt_output_metadata() */
	bool fsync;			/* sync each packet, as above */
	int sync_after;			/* with fsync: synced first (borrowed, dup'ed);
					 * -1: none */
	bool resume;			/* continue what a dead consumer wrote: the
					 * metadata file is reopened and emptied,
					 * each stream continues its newest file
					 * after its last whole packet */
};

/**
 * ltt_sink_file_output_create() - an output writing into a trace directory
 * @cfg: borrowed; the directory descriptors are dup'ed, so the output does
 *       not depend on the trace that owns them
 * @ret_out: to release with ltt_output_destroy()
 *
 * Any thread.  Returns 0, -EINVAL (also: resume without an index),
 * -ENOMEM, dup()'s negative errno, or
 * with cfg->metadata, ltt_fs_create_new()'s (-EEXIST: a trace is there).
 */
int ltt_sink_file_output_create(const struct ltt_sink_file_cfg *cfg, struct ltt_output **ret_out);

/**
 * ltt_sink_file_metadata_fd() - the metadata file of a trace's own file
 * output (borrowed), or -1 (NULL, another kind of output, none)
 */
int ltt_sink_file_metadata_fd(const struct ltt_output *out);

#endif /* LTT_CONSUMERD_SINK_FILE_H */
