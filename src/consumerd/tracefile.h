/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefile.h - the output of one stream: its data file and its index
 * file, with tracefile size/count rotation.
 *
 * Without a size limit the stream writes DIR/BASE and DIR/index/BASE.idx
 * (BASE is CHANNEL_CPU).  With one, it writes BASE_0, BASE_1, ... and
 * index/BASE_N.idx: a packet that would take the current file past the
 * limit starts the next file (a file always holds at least one packet).
 * With a count too, once there are more than COUNT files the oldest one
 * and its index are deleted, so N keeps growing and the newest files
 * remain.
 *
 * Writes are all or nothing: a packet and its index entry are both in
 * their files, or neither (a failed write is cut back with ftruncate()).
 * Data reaches the files with write(), not fsync(): readers see it at
 * once, durability across a host crash is the file system's.
 *
 * Owned by its stream, used by the data thread only.
 */
#ifndef LTT_CONSUMERD_TRACEFILE_H
#define LTT_CONSUMERD_TRACEFILE_H

#include <limits.h>
#include <stdint.h>
#include <sys/uio.h>

#include "common/ctf.h"
#include "consumerd/fs.h"

/* Room for a full CHANNEL_CPU_N.idx in NAME_MAX. */
#define LTT_TRACEFILE_BASE_MAX (NAME_MAX - 25)

struct ltt_tracefile_cfg {
	int dir_fd;			/* borrowed for the tracefile's life */
	int index_dir_fd;		/* borrowed for the tracefile's life */
	const struct ltt_owner *owner;	/* borrowed for the tracefile's life */
	const char *base;		/* "CHANNEL_CPU", copied */
	uint64_t max_size;		/* bytes per file, 0: one file */
	uint64_t max_count;		/* files kept, 0: all */
};

struct ltt_tracefile {
	int dir_fd, index_dir_fd;
	const struct ltt_owner *owner;
	uint64_t max_size, max_count;
	int fd, idx_fd;			/* the current files */
	uint64_t file_no;		/* N of the current file */
	uint64_t oldest_no;		/* N of the oldest file still on disk */
	uint64_t size;			/* bytes in the current data file */
	uint64_t idx_size;		/* bytes in the current index file */
	char base[LTT_TRACEFILE_BASE_MAX + 1];
};

/**
 * ltt_tracefile_init() - create the first data and index files
 * @tf: embedded in its stream; ltt_tracefile_fini() it even on failure
 * @cfg: borrowed, see struct ltt_tracefile_cfg
 *
 * Returns 0, -ENAMETOOLONG for a long base name, or an error of
 * ltt_fs_create() or of writing the index header.
 */
int ltt_tracefile_init(struct ltt_tracefile *tf, const struct ltt_tracefile_cfg *cfg);

/**
 * ltt_tracefile_fini() - close the files; accepts a tracefile whose init
 * failed, and one never initialized whose fd and idx_fd are -1
 */
void ltt_tracefile_fini(struct ltt_tracefile *tf);

/**
 * ltt_tracefile_write() - append one packet and its index entry
 * @iov: the packet, @iovcnt buffers of @len bytes in all (borrowed)
 * @entry: the index entry; its offset is set here (borrowed, modified)
 *
 * Rotates first when the packet does not fit the size limit.  Returns 0
 * or a negative errno, in which case the packet is in neither file (the
 * caller counts it lost).
 */
int ltt_tracefile_write(struct ltt_tracefile *tf, const struct iovec *iov, int iovcnt,
			uint64_t len, struct ltt_ctf_index_entry *entry);

#endif /* LTT_CONSUMERD_TRACEFILE_H */
