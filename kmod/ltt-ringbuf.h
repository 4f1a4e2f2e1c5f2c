/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-ringbuf.h - the per-CPU ring buffer of one kernel stream.
 *
 * One buffer per CPU that has been online since the channel was made (a
 * CPU's is added before it comes up, kept after it goes down).  Only code
 * running on that CPU
 * (with preemption disabled) writes it: process context, softirqs, hard
 * interrupts and NMIs nest on top of each other, and every writer's
 * reservation is one local_cmpxchg() on the write position, which is
 * atomic against interrupts of the same CPU and costs no bus lock.  Remote
 * operations (flush from another CPU) run on the buffer's CPU through an
 * IPI, or directly when that CPU is offline (hotplug held off).
 *
 * Memory: (num_subbuf + 1) sub-buffers, one vzalloc_node() area on the
 * CPU's node.  A table maps each sub-buffer index to one of those
 * physical slots; the extra slot belongs to the reader, which swaps it in
 * when it takes a packet, so writers never write the packet the reader
 * holds (overwrite mode included).  doc/kmod.md has the protocol.
 *
 * Each sub-buffer, once complete, is one CTF packet laid out exactly as
 * src/common/trace/ringbuf.h's struct ltt_rb_packet_header says (84 bytes of
 * header and context, then events).
 */
#ifndef LTT_RINGBUF_H
#define LTT_RINGBUF_H

#include <linux/irq_work.h>
#include <linux/mutex.h>
#include <linux/timer.h>
#include <linux/types.h>

#include "abi/ltt-packet.h"
#include <linux/wait.h>
#include <asm/local.h>

#if BITS_PER_LONG != 64
#error "ltt-tracer needs a 64-bit kernel: positions and commit counts are longs"
#endif

#define LTT_RB_HEADER_SIZE	((unsigned long)LTT_RB_PACKET_HEADER_SIZE)
#define LTT_RB_COMPACT_BITS	27	/* timestamp bits of a compact event header */

/* A table entry: the slot in the low bits, the lap it was claimed for above. */
#define LTT_RB_SLOT_BITS	13	/* slots <= LTT_KABI_MAX_NUM_SUBBUF + 1 */
#define LTT_RB_SLOT_MASK	((1UL << LTT_RB_SLOT_BITS) - 1)

/* Geometry and identity shared by the buffers of a channel (constant). */
struct ltt_rb_config {
	unsigned long subbuf_size;	/* S, power of two */
	unsigned long num_subbuf;	/* N, power of two */
	unsigned int subbuf_order;	/* log2(S) */
	unsigned int buf_order;		/* log2(N * S) */
	bool overwrite;
	bool wakeup_by_writer;		/* no read timer: writers queue the wakeup */
	u32 stream_id;
	u8 uuid[16];
	unsigned long switch_timer_jiffies;	/* 0: none */
};

struct ltt_rb_buf {
	/* writers (this CPU) */
	local_t offset;		/* write position, free-running */
	local_t last_ts;	/* a recent event's timestamp (hint) */
	local_t events_lost;	/* running total of dropped events */
	local_t lost_reported;	/* events_lost written by the last closer */
	local_t *commit;	/* per sub-buffer: committed bytes, cumulative */
	local_t *events;	/* per sub-buffer: events committed in its lap */
	atomic_long_t *table;	/* per sub-buffer: lap << SLOT_BITS | slot */
	char *data;		/* (N + 1) * S bytes, vmap() of @pages */
	struct page **pages;	/* the data's pages, on the CPU's node */
	unsigned long nr_pages;
	const struct ltt_rb_config *cfg;
	int cpu;

	/* reader, under @lock (but @consumed, read by discard-mode writers) */
	unsigned long consumed;	/* start of the packet to read next (or held) */
	struct mutex lock;
	bool held;
	unsigned long held_slot;
	unsigned long spare_slot;
	unsigned long read_off;	/* splice: bytes of the held packet handed out */
	u64 held_content;	/* the held packet's content size, bytes */
	u64 held_events;	/* and its event count, as GET_NEXT said */
	u64 packets_lost;	/* overwrite: lapped before read */

	bool finalized;		/* no writer will come back */
	wait_queue_head_t read_wait;
	struct irq_work wake_work;
	struct timer_list switch_timer;
	bool timer_stop;
};

/* The first 84 bytes of every packet (CTF packet header and context). */
struct ltt_rb_packet_header {
	u32 magic;
	u8 uuid[16];
	u32 stream_id;
	u64 stream_instance_id;
	u64 timestamp_begin;
	u64 timestamp_end;
	u64 content_size;	/* bits */
	u64 packet_size;	/* bits */
	u64 packet_seq_num;
	u64 events_discarded;
	u32 cpu_id;
} __packed;

/* A reserved event. */
struct ltt_rb_slot {
	char *data;		/* where its bytes go */
	unsigned long pos;	/* its position (for the commit) */
	u64 ts;			/* its timestamp */
	size_t len;		/* short_len or long_len */
};

/**
 * ltt_rb_buf_create() - allocate and initialize the buffer of one CPU
 * @cfg: the channel's geometry (borrowed; must outlive the buffer)
 * @cpu: the CPU that writes it
 *
 * Process context, may sleep.  Returns the buffer or NULL (no memory).
 */
struct ltt_rb_buf *ltt_rb_buf_create(const struct ltt_rb_config *cfg, int cpu);

/**
 * ltt_rb_buf_destroy() - free a buffer nobody writes or reads any more
 * @buf: the buffer, or NULL
 *
 * The caller has stopped its timer (ltt_rb_timer_stop()) and waited for a
 * grace period after the last writer could see it.  Pages that a reader
 * mapped or spliced stay alive through their own references.
 */
void ltt_rb_buf_destroy(struct ltt_rb_buf *buf);

/**
 * ltt_rb_mem() - the memory @buf holds, as it was allocated
 * @buf: a buffer ltt_rb_buf_create() returned
 * @ret_bytes: every byte: the data pages, their table and the per
 *             sub-buffer counters, the buffer's own structure
 * @ret_data: the data pages alone
 *
 * Any context.  A buffer is allocated whole at creation: the figures do
 * not change with use.
 */
void ltt_rb_mem(const struct ltt_rb_buf *buf, u64 *ret_bytes, u64 *ret_data);

/**
 * ltt_rb_reserve() - reserve room for one event on this CPU's buffer
 * @buf: the buffer of the current CPU (preemption disabled by the caller)
 * @short_len: the event's size with a compact header
 * @long_len: its size with an extended header (>= @short_len)
 * @slot: filled on success
 *
 * Any context, NMI included; lock-free.  Chooses the compact size when
 * the event opens a packet or follows the previous event of the buffer by
 * less than 2^27 ns.  Returns 0, -ENOBUFS (the event is dropped and
 * counted: discard mode and the reader is behind, or a nested writer
 * still holds the sub-buffer to reuse) or -EMSGSIZE (too large, counted).
 */
int ltt_rb_reserve(struct ltt_rb_buf *buf, size_t short_len, size_t long_len,
		   struct ltt_rb_slot *slot);

/**
 * ltt_rb_commit() - publish a reserved event whose bytes are written
 * @buf: the buffer it was reserved on, on the same CPU
 * @slot: the reservation
 *
 * Queues the reader's wakeup (irq_work, never a direct wakeup: probes may
 * run under scheduler locks) when this commit completes a packet.
 */
void ltt_rb_commit(struct ltt_rb_buf *buf, const struct ltt_rb_slot *slot);

/**
 * ltt_rb_flush() - close the open packet of @buf, from any CPU
 * @buf: the buffer
 * @report_loss: with no packet open, write an empty packet when events
 *               were dropped since the last packet closed, so the trace
 *               carries the total
 *
 * Process context (it may send an IPI and wait for it).  Wakes the reader
 * when a packet became readable.
 */
void ltt_rb_flush(struct ltt_rb_buf *buf, bool report_loss);

/* Flush on the buffer's own CPU, in any context but NMI; true if a packet completed. */
bool ltt_rb_flush_local(struct ltt_rb_buf *buf, bool report_loss);

/*
 * Switch timer: start (@cfg->switch_timer_jiffies != 0; the caller holds
 * CPU hotplug off: the timer is pinned to an online CPU) and stop (sync).
 */
void ltt_rb_timer_start(struct ltt_rb_buf *buf);
void ltt_rb_timer_stop(struct ltt_rb_buf *buf);

/**
 * ltt_rb_finalize() - no writer will ever write @buf again
 *
 * Process context.  Flushes, then lets the reader see POLLHUP/ENODATA
 * once it has read everything.
 */
void ltt_rb_finalize(struct ltt_rb_buf *buf);

/* Reader side: the caller holds @buf->lock. */

/**
 * ltt_rb_get_subbuf() - take the oldest complete packet
 * @buf: the buffer
 * @ret_slot_off: its offset in the mmap area
 * @ret_content: bytes of data in it, header included
 * @ret_seq: its packet_seq_num
 * @ret_events: events committed in it (exact: see doc/kmod.md)
 *
 * Returns 0; -EBUSY a packet is already held; -EAGAIN none is complete;
 * -ENODATA the buffer is finalized and everything was read.
 */
int ltt_rb_get_subbuf(struct ltt_rb_buf *buf, u64 *ret_slot_off, u64 *ret_content,
		      u64 *ret_seq, u64 *ret_events);

/**
 * ltt_rb_get_held() - the packet held already, described again as
 * ltt_rb_get_subbuf() described it, its splice position back at its first
 * byte: for a reader taking over from one that died holding it
 *
 * Returns 0, or -ENOENT when no packet is held.
 */
int ltt_rb_get_held(struct ltt_rb_buf *buf, u64 *ret_slot_off, u64 *ret_content,
		    u64 *ret_seq, u64 *ret_events);

/* Release the held packet: 0, or -EINVAL when none is held. */
int ltt_rb_put_subbuf(struct ltt_rb_buf *buf);

/**
 * ltt_rb_snapshot_span() - the packets a snapshot may read, not consuming
 * @buf: the buffer
 * @ret_begin: the oldest packet readable: the reader's position, or in
 *             overwrite mode the oldest packet writers cannot have entered
 *             again if that is later
 * @ret_end: the start of the packet holding the write position (the open
 *           packet is not read: flush it first)
 * @ret_produced: the write position sampled
 *
 * Moves nothing.  Caller holds @buf->lock.
 */
void ltt_rb_snapshot_span(struct ltt_rb_buf *buf, u64 *ret_begin, u64 *ret_end,
			  u64 *ret_produced);

/**
 * ltt_rb_snapshot_peek() - copy the packet at @pos to user memory without
 * consuming it
 * @buf: the buffer
 * @pos: a packet boundary
 * @ubuf: at least subbuf_size bytes of user memory
 * @ret_content: its content size, bytes
 * @ret_events: events committed in it
 *
 * The copy is made from the slot the table names for @pos's lap, then the
 * table entry is read again: a writer claims the entry (a full barrier)
 * before its first store into the slot, so an unchanged entry proves no
 * byte of the copy came from a later lap.  Writers are never held up.
 * Caller holds @buf->lock (the reader's swaps are excluded).  Returns 0;
 * -EAGAIN not complete yet; -ESTALE overwritten before or while copied,
 * or consumed; -EFAULT.
 */
int ltt_rb_snapshot_peek(struct ltt_rb_buf *buf, unsigned long pos, void __user *ubuf,
			 u64 *ret_content, u64 *ret_events);

/* Is a complete packet waiting (racy, for poll and the read timer)? */
bool ltt_rb_ready(struct ltt_rb_buf *buf);

/* Size of the reader's mmap area. */
static inline unsigned long ltt_rb_map_size(const struct ltt_rb_config *cfg)
{
	return (cfg->num_subbuf + 1) << cfg->subbuf_order;
}

#endif /* LTT_RINGBUF_H */
