/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-ust.h - the "ust" source: a user-space ring buffer in shared
 * memory (common/trace/ringbuf.h), written by traced programs.
 *
 * The shared memory is hostile.  The mapping is never resized under us
 * (the memfd must be sealed against shrinking, or we seal it), and the
 * reader addresses it only through the ring buffer API, which validates
 * every packet's header against the geometry checked at attach time.
 * Packets are handed out whole: from the mapping in discard mode (writers
 * never enter a sub-buffer we have not put back), from a private copy in
 * overwrite mode (writers may lap us at any time; the ring buffer checks
 * that the copy is intact).  The writers' eventfd is the poll fd,
 * edge-triggered and never read (see data-loop.c).
 *
 * Created, used and destroyed by its stream's data thread (the one that
 * runs the stream's part of its channel, data.h).
 */
#ifndef LTT_CONSUMERD_SOURCE_UST_H
#define LTT_CONSUMERD_SOURCE_UST_H

#include <stdbool.h>
#include <stdint.h>

#include "consumerd/source/source.h"

struct ltt_source_ust_cfg {
	const char *chan_name;		/* for messages (borrowed) */
	uint32_t cpu;			/* the region must be this CPU's */
	bool overwrite;			/* and in the channel's mode */
	const uint8_t *uuid;		/* of the channel's trace, 16 bytes (borrowed) */
	bool any_stream_id;		/* the channel's first stream */
	uint32_t stream_id;		/* else the channel's other streams' */
	int shm_fd;			/* the region's memfd (borrowed: the mapping outlives it) */
	int wakeup_fd;			/* the writers' eventfd (borrowed, dup'ed) */
};

/**
 * ltt_source_ust_create() - map a user-space stream's memory and attach
 * a reader to it
 * @cfg: borrowed
 * @ret_src: to release with ltt_source_destroy()
 *
 * Data thread.  The region must be valid for ltt_rb_attach() and agree
 * with @cfg (CPU, mode, trace uuid, stream id).  Returns 0, -EINVAL for a
 * region, fd or identity that does not fit, -EPERM for memory that can
 * shrink under us, -ENOMEM, or mmap()'s negative errno.
 */
int ltt_source_ust_create(const struct ltt_source_ust_cfg *cfg, struct ltt_source **ret_src);

#endif /* LTT_CONSUMERD_SOURCE_UST_H */
