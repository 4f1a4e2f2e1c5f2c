/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - one stream (one CPU of a channel): the mapping of its ring
 * buffer, the reader's handle on it, and its output files.
 *
 * The shared memory is hostile.  The mapping is never resized under us
 * (the memfd must be sealed against shrinking, or we seal it), and the
 * reader addresses it only through the ring buffer API, which validates
 * every packet's header against the geometry checked at attach time.
 * Packets are written whole, with write(): from the mapping in discard
 * mode (writers never enter a sub-buffer we have not put back), from a
 * private copy in overwrite mode (writers may lap us at any time; the
 * ring buffer checks that the copy is intact).
 *
 * Created, used and destroyed by the data thread.
 */
#ifndef LTT_CONSUMERD_STREAM_H
#define LTT_CONSUMERD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/ringbuf.h"
#include "consumerd/data.h"
#include "consumerd/sink.h"

struct ltt_channel;

/* A buffer for overwrite-mode copies, shared by the streams of a thread. */
struct ltt_scratch {
	void *buf;
	size_t len;
};

struct ltt_stream {
	struct ltt_stream *next;	/* in its channel */
	const struct ltt_channel *chan;	/* borrowed: the channel owns us */
	uint32_t cpu;
	void *mem;			/* the mapping */
	size_t len;
	dev_t shm_dev;			/* the memory's identity: one reader each */
	ino_t shm_ino;
	struct ltt_rb rb;		/* the reader's handle */
	uint64_t subbuf_size;		/* validated geometry (from rb) */
	uint64_t num_subbuf;
	int wakeup_fd;			/* our dup of the writers' eventfd */
	struct ltt_poll_tag wake_tag;
	bool busy;			/* stopped on its budget: read again soon */
	struct ltt_sink *sink;		/* owned: where the packets go */
	uint64_t packets_failed;	/* got, but could not be written */
	uint64_t bytes_written;
	bool warned_corrupt;
};

/**
 * ltt_stream_create() - map a stream's shared memory and create its files
 * @chan: the channel (borrowed for the stream's life)
 * @cpu: the stream's CPU, which the region must agree with
 * @shm_fd: the region's memfd (borrowed: the mapping outlives it)
 * @wakeup_fd: the writers' eventfd (borrowed; dup'ed, set non-blocking)
 * @ret_stream: to release with ltt_stream_destroy()
 *
 * Data thread.  The region must be valid for ltt_rb_attach() and agree
 * with the channel (overwrite mode, trace uuid) and @cpu.  Returns 0,
 * -EINVAL for a region, fd or identity that does not fit, -EPERM for
 * memory that can shrink under us, -ENOMEM, or a file creation error.
 */
int ltt_stream_create(const struct ltt_channel *chan, uint32_t cpu, int shm_fd, int wakeup_fd,
		      struct ltt_stream **ret_stream);

/**
 * ltt_stream_destroy() - close the files, unmap, free; no flush; accepts
 * NULL and half-built streams
 */
void ltt_stream_destroy(struct ltt_stream *stream);

/**
 * ltt_stream_drain() - write the stream's complete packets, at most @budget
 * @scratch: the copy buffer for overwrite mode, large enough for the
 *           stream's sub-buffers (borrowed)
 *
 * Data thread.  Corrupt and overwritten packets are skipped and counted.
 * Returns 0 when no complete packet is left (the ring buffer then wakes us
 * on the next one), 1 when the budget ran out first (call again: no
 * wakeup will come).
 */
int ltt_stream_drain(struct ltt_stream *stream, struct ltt_scratch *scratch,
		     unsigned int budget);

/**
 * ltt_stream_switch() - close the stream's open sub-buffer, if it has
 * events, so the next drain can read it (the switch timer)
 *
 * Data thread.
 */
void ltt_stream_switch(struct ltt_stream *stream);

/**
 * ltt_stream_flush() - switch, then write every packet complete now
 * @final: no writer remains: sub-buffers left incomplete by killed
 *         writers are abandoned (counted lost) rather than waited for
 *
 * Data thread.  Returns 0, or 1 if writers kept the stream busy beyond a
 * lap of packets (what was complete at the call has been written).
 */
int ltt_stream_flush(struct ltt_stream *stream, struct ltt_scratch *scratch, bool final);

/**
 * ltt_stream_stats() - add the stream's counters to @stats, saturating
 */
void ltt_stream_stats(const struct ltt_stream *stream, struct ltt_channel_stats *stats);

#endif /* LTT_CONSUMERD_STREAM_H */
