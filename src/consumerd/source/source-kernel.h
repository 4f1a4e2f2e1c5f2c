/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-kernel.h - the "kernel" source: one per-CPU stream fd of
 * ltt-tracer.ko (src/abi/ltt-abi.h, the stream fd section).
 *
 * The fd is polled edge-triggered: POLLIN says a packet is ready, POLLHUP
 * that the stream is finalized (its channel fd was closed) and read
 * empty.  LTT_KABI_GET_NEXT_SUBBUF reserves the oldest complete packet;
 * its bytes go to the sink by splice() from the fd (the sink's pipe, no
 * copy through user space), or from the stream's read-only mmap when
 * splice() refuses the fd; LTT_KABI_PUT_SUBBUF releases it.  The index
 * entry comes from the packet header, read through the mmap (the layout
 * of user-space packets, common/trace/ringbuf.h) and checked against what the
 * tracer said of the packet.  LTT_KABI_FLUSH closes the open packet (the
 * switch timer, flushes), LTT_KABI_STREAM_STATS gives the loss counters.
 * The tracer is trusted more than a traced program, but a packet whose
 * header disagrees is still skipped and counted lost, never written.
 *
 * Created, used and destroyed by its stream's data thread (the one that
 * runs the stream's part of its channel, data.h).
 */
#ifndef LTT_CONSUMERD_SOURCE_KERNEL_H
#define LTT_CONSUMERD_SOURCE_KERNEL_H

#include <stdint.h>

#include "consumerd/source/source.h"

struct ltt_source_kernel_cfg {
	const char *chan_name;		/* for messages (borrowed) */
	uint32_t cpu;			/* the packets must say this CPU */
	const uint8_t *uuid;		/* of the channel's trace, 16 bytes (borrowed) */
	uint64_t subbuf_size;		/* the channel's geometry, as the tracer was asked */
	uint64_t num_subbuf;
	int stream_fd;			/* borrowed, dup'ed */
};

/**
 * ltt_source_kernel_create() - start reading a kernel stream fd
 * @cfg: borrowed
 * @ret_src: to release with ltt_source_destroy()
 *
 * Data thread.  The stream is mapped at its first packet, as large as
 * the tracer's mmap_size says (or as far as the packets reach, from a
 * tracer that says 0).  Returns 0, -EINVAL when the fd is not a
 * stream fd of ltt-tracer.ko, -ENOMEM, or dup()'s negative errno.
 */
int ltt_source_kernel_create(const struct ltt_source_kernel_cfg *cfg,
			     struct ltt_source **ret_src);

#endif /* LTT_CONSUMERD_SOURCE_KERNEL_H */
