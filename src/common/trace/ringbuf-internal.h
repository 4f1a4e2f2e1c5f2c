/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ringbuf-internal.h - what ringbuf.c, ringbuf-read.c and
 * ringbuf-repair.c share: the region's addresses, commit words and packet
 * header fields, as the writers see them.  Private to those three files.
 */
#ifndef LTT_COMMON_RINGBUF_INTERNAL_H
#define LTT_COMMON_RINGBUF_INTERNAL_H

#include <string.h>

#include "common/trace/ringbuf.h"

#define HDR_SIZE	((uint64_t)LTT_RB_PACKET_HEADER_SIZE)

/* The region: uintptr arithmetic, so no cast ever widens an alignment. */
static inline void *at(void *base, uint64_t off)
{
	return (void *)((uintptr_t)base + (uintptr_t)off);
}

static inline uint64_t subbuf_start(const struct ltt_rb *rb, uint64_t pos)
{
	return pos & ~(rb->subbuf_size - 1);
}

static inline struct ltt_rb_packet_header *packet_at(const struct ltt_rb *rb, uint64_t pos)
{
	return at(rb->data, subbuf_start(rb, pos) & (rb->buf_size - 1));
}

static inline uint64_t commit_count(const struct ltt_rb *rb, uint64_t pos)
{
	uint64_t idx = (pos >> rb->subbuf_order) & (rb->num_subbuf - 1);

	return __atomic_load_n(&rb->commit[idx].count, __ATOMIC_ACQUIRE);
}

/* Bytes field of @pos's sub-buffer before its lap's first commit. */
static inline uint64_t commit_start(const struct ltt_rb *rb, uint64_t pos)
{
	return ((pos >> rb->buf_order) << rb->subbuf_order) & rb->bytes_mask;
}

/* Bytes field of @pos's sub-buffer once its lap is complete. */
static inline uint64_t commit_full(const struct ltt_rb *rb, uint64_t pos)
{
	return (((pos >> rb->buf_order) + 1) << rb->subbuf_order) & rb->bytes_mask;
}

static inline uint64_t commit_bytes(const struct ltt_rb *rb, uint64_t count)
{
	return count & rb->bytes_mask;
}

/*
 * Is the bytes field of @count short of @full by 1..S, i.e. a lap in
 * progress?  Modulo 2^count_shift, which spans at least two laps.
 */
static inline bool commit_behind(const struct ltt_rb *rb, uint64_t count, uint64_t full)
{
	uint64_t short_by = (full - count) & rb->bytes_mask;

	return short_by != 0 && short_by <= rb->subbuf_size;
}

/*
 * Reader only: set the commit count of @pos's sub-buffer to @value if it
 * still is @seen.  False if the count moved meanwhile.
 */
static inline bool commit_set(struct ltt_rb *rb, uint64_t pos, uint64_t seen,
			      uint64_t value)
{
	uint64_t idx = (pos >> rb->subbuf_order) & (rb->num_subbuf - 1);

	return __atomic_compare_exchange_n(&rb->commit[idx].count, &seen, value,
					   false, __ATOMIC_RELEASE, __ATOMIC_RELAXED);
}

/*
 * Reader: after a store of consumed that gives writers room back, wake
 * the writers that wait for it (discard mode; ringbuf.c, "Blocking
 * writers").  One fence and one load when none waits.
 */
void ltt_rb_wake_writers(struct ltt_rb *rb);

/* Write the opener's fields of the packet starting at @start. */
static inline void open_packet(struct ltt_rb *rb, uint64_t start, uint64_t ts)
{
	struct ltt_rb_packet_header *ph = packet_at(rb, start);

	ph->magic = LTT_RB_PACKET_MAGIC;
	memcpy(ph->uuid, rb->uuid, sizeof(ph->uuid));
	ph->stream_id = rb->stream_id;
	ph->stream_instance_id = rb->cpu;
	ph->timestamp_begin = ts;
	ph->packet_size = rb->subbuf_size * 8;
	ph->packet_seq_num = start >> rb->subbuf_order;
	ph->cpu_id = rb->cpu;
}

/* Write the closer's fields of the packet holding @pos. */
static inline void close_packet(struct ltt_rb *rb, uint64_t pos, uint64_t content,
				uint64_t ts, uint64_t lost)
{
	struct ltt_rb_packet_header *ph = packet_at(rb, pos);

	ph->timestamp_end = ts;
	ph->content_size = content * 8;
	ph->events_discarded = lost;
}

#endif /* LTT_COMMON_RINGBUF_INTERNAL_H */
