/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ringbuf.h - the lock-free ring buffer of one user-space stream, in shared
 * memory: libltt-ust writes events into it, ltt-consumerd reads packets.
 *
 * One stream is one shared-memory region (a memfd the session daemon
 * creates and passes around), mapped by every writer and by the consumer:
 *
 *   [ header page(s): struct ltt_rb_shm, then one commit record per
 *     sub-buffer, each on its own cache line ]
 *   [ data: num_subbuf sub-buffers of subbuf_size bytes, page aligned ]
 *
 * Each sub-buffer, once complete, is one CTF 1.8 data packet: it starts
 * with struct ltt_rb_packet_header and is written to disk as it is.
 * Positions are free-running 64-bit byte counts (never reset, never wrap in
 * practice); a position maps to the data area with a mask.
 *
 * Writers: ltt_rb_reserve() (or ltt_rb_reserve_ts(), which picks the
 * event's size from its timestamp), fill slot.data, ltt_rb_commit().  Lock-free
 * (one CAS on the write position), no system call except one eventfd write
 * per completed sub-buffer while the reader sleeps.  Threads and processes
 * may write the same stream concurrently.
 *
 * Reader (one per stream, the consumer): ltt_rb_get_next_subbuf() or
 * ltt_rb_copy_next_subbuf(), then ltt_rb_put_subbuf(); ltt_rb_flush() and
 * ltt_rb_abandon_subbuf() on timers and at stop.  The reader never trusts
 * the region: everything it uses is computed from the geometry validated at
 * attach time, and what it reads from the region is range-checked.
 *
 * doc/ust.md explains the protocol and its memory ordering.
 */
#ifndef LTT_COMMON_RINGBUF_H
#define LTT_COMMON_RINGBUF_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "common/trace/tclock.h"
#include "abi/ltt-packet.h"

#define LTT_RB_MAGIC		0x4c545242u	/* "LTRB" */
#define LTT_RB_ABI_VERSION	6u	/* 2: commit words count events; 3: the writer area;
					   4: the untracked writers' count; 5: the clock;
					   6: the guard page after the data area */

#define LTT_RB_MIN_SUBBUF_SIZE	((uint64_t)4096)
#define LTT_RB_MAX_SUBBUF_SIZE	((uint64_t)1 << 32)	/* as LTT_MAX_SUBBUF_SIZE */
#define LTT_RB_MIN_NUM_SUBBUF	((uint64_t)2)
#define LTT_RB_MAX_NUM_SUBBUF	((uint64_t)1 << 20)	/* as LTT_MAX_NUM_SUBBUF */
#define LTT_RB_PAGE_SIZE	((uint64_t)4096)	/* data area alignment */
#define LTT_RB_CACHELINE	64
#define LTT_RB_LAP_BITS		8u	/* laps a commit word's bytes field spans */
#define LTT_RB_PREFETCH_AHEAD	256	/* bytes after a slot its writer prefetches */
/*
 * The region's last page, after the data area: nobody writes nor reads it,
 * so its memory is never taken (but by a preallocated channel's
 * fallocate()); it is there so that a writer's prefetch past its slot
 * (ltt_rb_prefetch_at()) stays inside the region from the last sub-buffer
 * too, with no wrap to compute.
 */
#define LTT_RB_GUARD_SIZE	LTT_RB_PAGE_SIZE
_Static_assert(LTT_RB_PREFETCH_AHEAD <= LTT_RB_GUARD_SIZE, "the prefetch stays in the region");

/*
 * The CTF packet header and packet context at the start of every
 * sub-buffer.  All fields are little-endian (the host's order: writers and
 * consumer run on the same host) and byte-aligned, with no padding; the
 * metadata declares every integer with align = 8, so this exact layout is
 * what readers decode:
 *
 *   offset size  field                 written by
 *        0    4  magic 0xC1FC1FC1      the writer that opens the packet
 *        4   16  uuid (trace)          opener
 *       20    4  stream_id             opener
 *       24    8  stream_instance_id    opener (the cpu)
 *       32    8  timestamp_begin       opener (its event's timestamp)
 *       40    8  timestamp_end         the writer (or flush) that closes it
 *       48    8  content_size (bits)   closer
 *       56    8  packet_size (bits)    opener (subbuf_size * 8)
 *       64    8  packet_seq_num        opener (position / subbuf_size)
 *       72    8  events_discarded      closer (stream total at closing)
 *       80    4  cpu_id                opener
 *       84       first event
 */
struct ltt_rb_packet_header {
	/* packet.header */
	uint32_t magic;
	uint8_t uuid[16];
	uint32_t stream_id;
	uint64_t stream_instance_id;
	/* packet.context */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t content_size;
	uint64_t packet_size;
	uint64_t packet_seq_num;
	uint64_t events_discarded;
	uint32_t cpu_id;
} __attribute__((packed));


/*
 * The region header: the first bytes of the region.  Fixed-width fields in
 * host order; the constant part is written once by ltt_rb_init_region(), the
 * hot words each live on their own cache line.  Anyone mapping the region
 * can write any of it: ltt_rb_attach() validates the constant part once and
 * nothing re-reads it afterwards.
 */
struct ltt_rb_shm {
	/* cache line 0: constant after init */
	uint32_t magic;			/* LTT_RB_MAGIC, stored last by init */
	uint32_t abi_version;		/* LTT_RB_ABI_VERSION */
	uint64_t subbuf_size;		/* bytes, power of two */
	uint64_t num_subbuf;		/* power of two */
	uint64_t data_offset;		/* region offset of sub-buffer 0 */
	uint16_t overwrite;		/* 0: discard mode, 1: overwrite mode */
	uint16_t clock;			/* enum ltt_tclock_kind: the timestamps' unit */
	uint32_t stream_id;		/* CTF stream class id (the channel id) */
	uint32_t cpu;			/* stream_instance_id and cpu_id */
	uint32_t event_ctx_len;		/* bytes of context after each event header */
	uint8_t uuid[16];		/* trace uuid, copied into packet headers */
	/* cache line 1: the writers' word */
	uint64_t offset;		/* write position; CAS by writers and flush */
	uint64_t last_ts;		/* a recent event's timestamp (hint); plugin: the top */
	/*
	 * A clock plugin's buffer: the greatest clock read of its writers,
	 * raised before their CAS (ltt_rb_reserve_slow()), so that a
	 * plugin whose clock steps back cannot put an event before the
	 * one ahead of it.  Unused (0) by the other clocks; it was pad, so
	 * the layout and LTT_RB_ABI_VERSION stay.
	 */
	uint64_t ts_floor;
	uint8_t pad1[LTT_RB_CACHELINE - 24];
	/* cache line 2: only touched when events are lost */
	uint64_t events_lost;		/* running total of dropped events */
	uint64_t clock_base;		/* constant: subtracted from the TSC (tclock.h) */
	/*
	 * constant: how long a writer allowed to block waits for room in a
	 * full discard-mode buffer, in microseconds: 0 never (and in regions
	 * before it, where these bytes were padding), UINT64_MAX forever
	 * (ltt_rb_set_blocking())
	 */
	uint64_t block_timeout_us;
	uint8_t pad2[LTT_RB_CACHELINE - 24];
	/* cache line 3: the reader's words */
	uint64_t consumed;		/* read position, stored by the reader */
	uint32_t reader_waiting;	/* 1: the reader sleeps, wake it */
	uint32_t writers_waiting;	/* 1: writers wait for room, wake them (reader clears) */
	uint32_t room_seq;		/* futex word: bumped each time writers are woken */
	uint8_t pad3[LTT_RB_CACHELINE - 20];
	/* cache line 4: writers without a record (doc/ust.md, "Writers that die") */
	uint64_t untracked;		/* their slots in flight; the repair waits for 0 */
	uint8_t pad4[LTT_RB_CACHELINE - 8];
};

/*
 * One per sub-buffer, after struct ltt_rb_shm, each on its own line.  The
 * commit word holds two fields: its low count_shift bits (see
 * ltt_rb_count_shift()) count the bytes committed, cumulative over laps and
 * modulo 2^count_shift; the bits above count the events committed in the
 * current lap (each event's commit adds one; the writer that opens the
 * next lap subtracts the previous lap's).  doc/ust.md has the details.
 */
struct ltt_rb_shm_commit {
	uint64_t count;
	/*
	 * 1 from when the reader gave the sub-buffer's pages back
	 * (ltt_rb_reclaim(), before it lets writers open it again) until a
	 * writer opening it took them again: the writers take a sub-buffer's
	 * pages ahead (MADV_POPULATE_WRITE) on its first lap and while this
	 * is set only.  0 in regions of readers before it: their writers then
	 * take the pages of a sub-buffer given back as they write them.
	 */
	uint32_t punched;
	uint8_t pad[LTT_RB_CACHELINE - 12];
};

/*
 * The writer area, after the commit records: what each writer has in
 * flight, so that the reader can finish the slots of a writer that died
 * between reserve and commit (doc/ust.md, "Writers that die").
 *
 * LTT_RB_WBLOCKS blocks, one per writer process: a process owns block k
 * while it holds an OFD write lock (F_OFD_SETLK) on byte k of the region's
 * file, from an open file description of its own.  The kernel drops the
 * lock when the last descriptor of that description closes, which for a
 * process that dies is after its last thread left the address space: a
 * reader that takes the lock itself knows exactly that no writer of the
 * block will ever store again.  Each block has one record per thread
 * (LTT_RB_WRECS) and a scratch record for threads beyond them.
 */
#define LTT_RB_WBLOCKS		32u
#define LTT_RB_WRECS		32u	/* record LTT_RB_WRECS is the scratch one */

/*
 * ltt_rb_wrec.pos while its owner writes the other fields: never a slot's
 * position (a slot follows a packet header), so the repair finds nothing
 * owed there; libltt-ust keeps records it never uses at this value too.
 */
#define LTT_RB_WREC_BUSY	((uint64_t)1)

/* Flags in ltt_rb_wrec.len, above the slot's length (at most 2^32). */
#define LTT_RB_WREC_LEN_MASK	((uint64_t)0xffffffffu)
#define LTT_RB_WREC_CLOSE_OLD	((uint64_t)1 << 40)	/* closes the packet at old */
#define LTT_RB_WREC_OPEN	((uint64_t)1 << 41)	/* opens the slot's packet */
#define LTT_RB_WREC_CLOSE_NEW	((uint64_t)1 << 42)	/* the slot fills its packet */

/*
 * One thread's slot in flight, written with plain stores by that thread
 * only: before its reserve CAS, pos = LTT_RB_WREC_BUSY, len, ts (and
 * old), then pos; after its commit, pos = 0.  Read by the reader only
 * once the owner is dead.
 */
struct ltt_rb_wrec {
	uint64_t pos;	/* the slot's position; 0: nothing in flight */
	uint64_t len;	/* its length, and LTT_RB_WREC_* flags (slow path) */
	uint64_t ts;	/* its timestamp */
	uint64_t old;	/* slow path: the write position its CAS moved from */
};

struct ltt_rb_wblock {
	struct ltt_rb_wrec rec[LTT_RB_WRECS + 1];
};

/* What the session daemon puts in a new region. */
/* The most context bytes an event may carry (ltt_rb_config.event_ctx_len). */
#define LTT_RB_EVENT_CTX_MAX 4096

struct ltt_rb_config {
	uint64_t subbuf_size;	/* power of two, 4 KiB .. 4 GiB */
	uint64_t num_subbuf;	/* power of two, 2 .. 2^20 */
	bool overwrite;		/* flight-recorder mode */
	uint32_t clock;		/* enum ltt_tclock_kind: what writers and reader read */
	uint64_t clock_base;	/* TSC: subtracted from each read (ltt_tclock_base()); else 0 */
	/*
	 * Discard mode: how long a writer that may block (ltt_rb_set_blocking())
	 * waits for the reader to make room, in microseconds; 0: never,
	 * LTT_RB_BLOCK_FOREVER: as long as it takes.  Ignored in overwrite mode.
	 */
	uint64_t block_timeout_us;
	uint32_t stream_id;
	uint32_t cpu;
	uint8_t uuid[16];
	/*
	 * Bytes of the channel's context fields after each event header (0
	 * without contexts, at most LTT_RB_EVENT_CTX_MAX): the consumer keeps
	 * them in the events it writes over a dead writer's slot.
	 */
	uint32_t event_ctx_len;
};

/* Counters of the reader's decisions, kept in the reader's private memory. */
struct ltt_rb_reader_stats {
	uint64_t packets_read;		/* put back after a successful get */
	uint64_t packets_corrupt;	/* rejected by validation, skipped */
	uint64_t packets_overwritten;	/* overwrite mode: lapped before read */
	uint64_t packets_abandoned;	/* given up by ltt_rb_abandon_subbuf() */
	uint64_t packets_repaired;	/* completed by ltt_rb_repair_subbuf() */
	uint64_t events_torn;		/* slots of dead writers filled (in events_lost) */
	uint64_t repair_searches;	/* repairs that looked for the torn slots */
	uint64_t events_corrupt;	/* events counted in corrupt packets (at most */
	uint64_t events_abandoned;	/*   one per byte past the header), abandoned ones */
	/* snapshots (ltt_rb_peek_subbuf()): read, or left out of the snapshot */
	uint64_t snap_packets;		/* copied and valid */
	uint64_t snap_overwritten;	/* overwrite mode: lapped before or while copied */
	uint64_t snap_corrupt;		/* failed validation */
};

/* What a snapshot of a stream reads: see ltt_rb_snapshot_span(). */
struct ltt_rb_span {
	uint64_t consumed;	/* the reader's position when sampled */
	uint64_t produced;	/* the write position when sampled */
	uint64_t begin;		/* first sub-buffer to read */
	uint64_t end;		/* after the last closed one: read [begin, end) */
};

/*
 * A handle on one region, in private memory.  It caches the geometry
 * validated by ltt_rb_attach(); the fast paths use only these copies and
 * never a size read back from the region.  One handle per thread that
 * reads; writers may share one handle (nothing in it changes on the write
 * side).  Fields are private to the ringbuf*.c files and the inline
 * functions.
 */
struct ltt_rb {
	struct ltt_rb_shm *shm;
	struct ltt_rb_shm_commit *commit;	/* num_subbuf records */
	struct ltt_rb_wblock *wblocks;		/* LTT_RB_WBLOCKS */
	void *data;				/* sub-buffer 0 */
	void *mem;				/* the mapping */
	size_t len;
	uint64_t subbuf_size;
	uint64_t buf_size;			/* subbuf_size * num_subbuf */
	uint64_t num_subbuf;
	uint64_t max_len;			/* subbuf_size - packet header */
	/*
	 * The fast path's bound: max_len, or 0 for a clock plugin's buffer,
	 * whose every event takes the slow path (its timestamp raised to
	 * ts_floor and its last_ts an atomic max there): one load either way, so the
	 * other clocks' fast path runs the instructions it always did.
	 */
	uint64_t fast_max_len;
	unsigned int subbuf_order;		/* log2(subbuf_size) */
	unsigned int buf_order;			/* log2(buf_size) */
	unsigned int count_shift;		/* bytes bits of a commit word */
	uint64_t bytes_mask;			/* (1 << count_shift) - 1 */
	uint64_t event_one;			/* 1 << count_shift: one event */
	uint64_t subbuf_mask;			/* subbuf_size - 1 */
	uint64_t buf_mask;			/* buf_size - 1: a position's offset in data */
	uint64_t index_mask;			/* num_subbuf - 1 */
	bool overwrite;
	uint32_t clock;				/* enum ltt_tclock_kind */
	uint64_t clock_base;			/* 0 unless the TSC */
	int wakeup_fd;				/* eventfd to wake the reader, or -1 */
	/*
	 * A writer's wait for room (discard mode): the region's timeout as
	 * attach read it (0: never), and whether this handle's writers may
	 * wait now (ltt_rb_set_blocking(); atomic: another thread turns it
	 * off while writers wait)
	 */
	uint64_t block_timeout_us;
	uint32_t block_on;
	uint32_t stream_id;
	uint32_t cpu;
	uint32_t event_ctx_len;			/* as the region said (checked) */
	uint8_t uuid[16];
	/* reader side */
	uint64_t consumed;			/* the reader's own read position */
	uint64_t reclaimed;			/* below: given back, not opened since */
	uint64_t last_ts_end;			/* timestamp_end of the last packet put */
	uint64_t last_discarded;		/* events_discarded of the last packet put */
	/* the last repair without an answer: not tried again until one moves */
	uint64_t repair_pos, repair_count, repair_w;
	int repair_ret;			/* -ENOENT or -ENOTRECOVERABLE */
	bool repair_memo;
	struct ltt_rb_reader_stats stats;
};

/*
 * A reserved slot: write exactly @len bytes at @data, then commit it.
 * @ts_delta is @ts minus a lower bound of the previous event's timestamp
 * in buffer order (0 for the first event of a packet, whose timestamp is
 * the packet's timestamp_begin); see ltt_rb_slot_ts_fits().  With
 * ltt_rb_reserve_ts(), @len is the size it chose.
 */
struct ltt_rb_slot {
	void *data;
	uint64_t pos;		/* free-running position of data */
	uint64_t ts;		/* the stream's clock (ltt_rb_clock()) */
	uint64_t ts_delta;
	size_t len;
	/*
	 * the CPU the timestamp was read on, with the TSC (RDTSCP's
	 * TSC_AUX: a hint, the thread may have moved since); else
	 * LTT_TCLOCK_NO_CPU
	 */
	uint32_t cpu;
};

/*
 * A packet handed to the reader.  Every field is validated or computed by
 * the reader, none is a pointer or a size read from the region.
 */
struct ltt_rb_packet {
	const void *data;	/* packet start: in the mapping, or the copy */
	uint64_t pos;		/* free-running position of the sub-buffer */
	uint64_t region_offset;	/* byte offset of the packet in the region */
	uint64_t packet_size;	/* bytes (subbuf_size) */
	uint64_t content_size;	/* bytes, header included */
	uint64_t seq_num;
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	/*
	 * events committed in the packet, from its commit word: exact in both
	 * modes for packets of fewer than 2^(64 - count_shift) - 1 events
	 * (always, for sub-buffers up to 2 GiB); at most content_size - 84
	 */
	uint64_t events;
	/* the header as validated: write it instead of data's first bytes to
	 * be sure the file matches what was checked */
	struct ltt_rb_packet_header header;
};

/**
 * ltt_rb_region_size() - bytes of a region of the given geometry
 * @subbuf_size: power of two, LTT_RB_MIN_SUBBUF_SIZE..LTT_RB_MAX_SUBBUF_SIZE
 * @num_subbuf: power of two, LTT_RB_MIN_NUM_SUBBUF..LTT_RB_MAX_NUM_SUBBUF
 *
 * Any context.  Returns the size to give ftruncate() and mmap(), or 0 when
 * the geometry is invalid or does not fit in a size_t.
 */
size_t ltt_rb_region_size(uint64_t subbuf_size, uint64_t num_subbuf);

/**
 * ltt_rb_count_shift() - width of the bytes field of a commit word
 * @subbuf_order: log2(subbuf_size), 12..32
 *
 * Any context.  subbuf_order + LTT_RB_LAP_BITS, lowered so that the events
 * field above it keeps subbuf_order bits (sub-buffers from 512 MiB up) but
 * never below subbuf_order + 1: the bytes field must tell a complete lap
 * from the start of the same one.  Writers and reader compute it from the
 * validated geometry, so it is not stored in the region.
 */
unsigned int ltt_rb_count_shift(unsigned int subbuf_order);

/**
 * ltt_rb_init_region() - lay out a new, empty stream in @mem
 * @mem: the mapping (borrowed), 64-byte aligned, of @len bytes
 * @len: must equal ltt_rb_region_size() of @cfg's geometry
 * @cfg: geometry, mode and identity of the stream (borrowed)
 *
 * For the session daemon, before anyone else maps the region: overwrites
 * the header and the commit records (the data area is left as it is).
 * Returns 0, or -EINVAL for a NULL argument, a bad geometry, a @len that
 * does not match it, or a misaligned @mem.
 */
int ltt_rb_init_region(void *mem, size_t len, const struct ltt_rb_config *cfg);

/**
 * ltt_rb_attach() - validate a mapped region and fill a handle for it
 * @rb: the handle to fill (caller-owned, e.g. embedded); written only on
 *      success; it borrows @mem, which must stay mapped while @rb is used
 * @mem: the mapping, 64-byte aligned (mmap's are)
 * @len: the mapping's size
 *
 * For writers and the reader.  The region is not trusted: magic, ABI
 * version and geometry are read once, checked, and @len must be exactly
 * ltt_rb_region_size() of that geometry.  The reader position starts at
 * the region's consumed word (rounded down to a sub-buffer); the wakeup fd
 * starts at -1.  Nothing to undo: drop the handle when unmapping.
 * Returns 0, or -EINVAL for a NULL argument, a misaligned or short @mem, or
 * any header field out of range (never a crash).
 */
int ltt_rb_attach(struct ltt_rb *rb, void *mem, size_t len);

/**
 * ltt_rb_set_wakeup_fd() - where a writer signals that the reader may read
 * @rb: a writer's handle
 * @fd: an eventfd (borrowed, the caller closes it), or -1 for none
 *
 * A writer that completes a sub-buffer while the reader sleeps writes 1 to
 * @fd.  A handle with no fd leaves the reader to its timer.
 */
void ltt_rb_set_wakeup_fd(struct ltt_rb *rb, int fd);

/* ltt_rb_config.block_timeout_us: a writer waits as long as it takes */
#define LTT_RB_BLOCK_FOREVER UINT64_MAX

/**
 * ltt_rb_set_blocking() - may this handle's writers wait for room?
 * @rb: a writer's handle
 * @on: true: an event that finds a discard-mode buffer full waits up to
 *      the region's block_timeout_us for the reader to make room before it
 *      is dropped; false: it is dropped at once (the default after attach)
 *
 * Any thread, while writers of @rb write: turning it off wakes the
 * region's waiting writers, and those of @rb give up their wait (their
 * events are dropped and counted, as without blocking).  Nothing changes
 * for a region whose timeout is 0 or in overwrite mode.  The wait is a
 * futex on the region's room_seq, which the reader bumps and wakes as it
 * gives sub-buffers back (only when a writer said it waits): no spinning,
 * and the fast path is untouched (doc/ust.md, "Blocking writers").
 */
void ltt_rb_set_blocking(struct ltt_rb *rb, bool on);

/**
 * ltt_rb_reserve_slow() - the complete reserve path; use ltt_rb_reserve_ts()
 *
 * Handles sub-buffer switches, full buffers and bad lengths.  Same
 * arguments, context and return codes as ltt_rb_reserve_ts().
 */
int ltt_rb_reserve_slow(struct ltt_rb *rb, struct ltt_rb_wrec *rec, size_t short_len,
			size_t long_len, unsigned int bits, struct ltt_rb_slot *ret_slot);

/*
 * A writer's record: what it is about to reserve, stored before the CAS
 * (len and ts first, then pos: a record whose pos is set describes the
 * slot at pos completely).  Relaxed atomics are plain stores; the signal
 * fence keeps the compiler from moving pos first.  The CAS that follows
 * (release) orders them before the reservation.
 */
static inline void ltt_rb_wrec_set(struct ltt_rb_wrec *rec, uint64_t pos, uint64_t len,
				   uint64_t ts)
{
	/*
	 * Busy first: a signal handler of this thread that records between
	 * the stores below finds pos != 0 and reserves untracked, instead of
	 * writing its own len and ts here for us to publish with our pos.
	 */
	__atomic_store_n(&rec->pos, LTT_RB_WREC_BUSY, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rec->len, len, __ATOMIC_RELAXED);
	__atomic_store_n(&rec->ts, ts, __ATOMIC_RELAXED);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rec->pos, pos, __ATOMIC_RELAXED);
}

/**
 * ltt_rb_wakeup() - a writer completed a sub-buffer; wake the reader
 *
 * Internal to ltt_rb_commit(): if the reader sleeps and @rb has a wakeup
 * fd, clear the reader's flag and write to the fd (errno is preserved).
 */
void ltt_rb_wakeup(struct ltt_rb *rb);

/*
 * Now, for the reader of @rb (its flushes, the packets it checks, the
 * ages it reclaims by): CLOCK_MONOTONIC ns, or TSC cycles less the
 * session's base, which count from CLOCK_MONOTONIC's zero
 * (common/trace/tclock.h).  A clock plugin's buffer: the writers' last
 * timestamp, for the writers' clock is theirs (a program loads the
 * plugin or not, as with LTTng-UST) and need not be the reader's.
 */
static inline uint64_t ltt_rb_clock(const struct ltt_rb *rb)
{
	/* acquire: pairs with the writers' release, after they raised ts_floor */
	if (rb->clock == LTT_TCLOCK_PLUGIN)
		return __atomic_load_n(&rb->shm->last_ts, __ATOMIC_ACQUIRE);
	return ltt_tclock_read(rb->clock) - rb->clock_base;
}

/* ltt_rb_clock(), and the CPU it was read on (ltt_tclock_read_cpu()). */
static inline uint64_t ltt_rb_clock_cpu(const struct ltt_rb *rb, uint32_t *cpu)
{
	return ltt_tclock_read_cpu(rb->clock, cpu) - rb->clock_base;
}

/*
 * ltt_rb_prefetch_at() - the address a writer whose slot starts at @data
 * prefetches for writing: LTT_RB_PREFETCH_AHEAD bytes on, inside the
 * region (from the last sub-buffer's last bytes, in its guard page,
 * LTT_RB_GUARD_SIZE).  Past the region another mapping may follow (often
 * another buffer's shared header, which its writers and reader keep hot),
 * whose lines a prefetch for writing would take from them: a prefetch
 * never faults, but it does fetch.  The guard page is never touched, so
 * its prefetch finds no page and is dropped.
 */
static inline const void *ltt_rb_prefetch_at(const void *data)
{
	return (const char *)data + LTT_RB_PREFETCH_AHEAD;
}

/**
 * ltt_rb_reserve_ts() - reserve one event whose size depends on its timestamp
 * (ltt_rb_reserve_in() is its body, shared with ltt_rb_reserve_rec();
 * ltt_rb_try_reserve_in() is its fast path, which answers -EAGAIN,
 * having changed nothing, where the slow path has to run)
 * @rb: a handle attached to the stream (not checked: this is the fast path)
 * @short_len: the event's size with a short header, whose timestamp field
 *             keeps only the low @bits bits; 1..@long_len
 * @long_len: its size with a long header (the full timestamp);
 *            at most subbuf_size - LTT_RB_PACKET_HEADER_SIZE
 * @bits: width of the short header's timestamp field, 0..63
 * @ret_slot: where to write the event, its timestamp and its size (which
 *            of the two was chosen); set only on success
 *
 * The choice is made inside the reservation, after reading the clock, so
 * it is exact: @ret_slot->len is @short_len when the event opens a packet
 * (its timestamp is the packet's timestamp_begin) or when its timestamp is
 * less than 2^@bits ns after a lower bound of the previous event's in
 * buffer order (a CTF reader that assumes at most one wrap then decodes
 * the truncated field); else @long_len.  Racing writers can only turn a
 * possible short answer into a long one, never the reverse (doc/ust.md has
 * the proof).  Pass equal lengths for an event that always has a long
 * header.
 *
 * Any thread of any process, including signal handlers: lock-free, no
 * system call (but a blocking writer's wait for room: ltt_rb_set_blocking()).
 * The caller must ltt_rb_commit() the slot after writing
 * exactly @ret_slot->len bytes; until then the sub-buffer cannot be read.
 * Timestamps are non-decreasing in buffer order.
 * Returns 0; -ENOBUFS when the event is dropped because the buffer is full
 * (discard mode: the reader is behind; both modes: a writer still holds an
 * uncommitted slot in the sub-buffer to reuse); -EMSGSIZE when @long_len
 * is larger than a sub-buffer can hold.  Both count in events_lost.
 * -EINVAL for a @short_len of 0 or above @long_len, or @bits over 63.
 */
static inline __attribute__((always_inline)) int
ltt_rb_try_reserve_in(struct ltt_rb *rb, struct ltt_rb_wrec *rec, bool track, bool tsc,
		      size_t short_len, size_t long_len, unsigned int bits,
		      struct ltt_rb_slot *ret_slot)
{
	/* loaded once: each atomic below would have GCC load them again */
	struct ltt_rb_shm *shm = rb->shm;
	uint64_t subbuf_mask = rb->subbuf_mask;
	uint64_t old, in_sb, ts, prev, len;
	uint32_t cpu;

	/*
	 * Wrapping on purpose: a 0 length becomes the maximum, so both bad
	 * lengths and a short length above the long one take the slow path,
	 * as does every event of a clock plugin's buffer (fast_max_len 0).
	 * (A caller of the TSC's variant promises 1 <= short_len <= long_len.)
	 */
	if (__builtin_expect((uint64_t)long_len - 1 >= rb->fast_max_len ||
			     (!tsc && (uint64_t)short_len - 1 >= (uint64_t)long_len), 0))
		return -EAGAIN;
	/*
	 * Acquire: the clock read below happens after this load, so it is
	 * later than the clock read of the writer whose CAS we read.
	 */
	old = __atomic_load_n(&shm->offset, __ATOMIC_ACQUIRE);
	in_sb = old & subbuf_mask;
	/*
	 * The fast path: the event fits strictly inside the open sub-buffer
	 * even with the long header (in_sb != 0 and in_sb + long_len <
	 * subbuf_size, one unsigned comparison).  Otherwise there is a
	 * sub-buffer to open or to close: the slow path.
	 */
	if (__builtin_expect(in_sb - 1 >= subbuf_mask - long_len, 0))
		return -EAGAIN;
	/* @tsc, a constant, leaves the other clock's call out */
	ts = ltt_tclock_read_cpu(tsc ? LTT_TCLOCK_TSC : rb->clock, &cpu) - rb->clock_base;
	prev = __atomic_load_n(&shm->last_ts, __ATOMIC_RELAXED);
	/* the size, from the very values this CAS publishes */
	len = (ts - prev) >> bits ? long_len : short_len;
	if (track)	/* a constant: no test at run time */
		ltt_rb_wrec_set(rec, old, len, ts);
	/*
	 * Release: this clock read and last_ts load are ordered before the
	 * next writer's.  A failed CAS (another writer got in first) goes to
	 * the slow path, which loads the new position (acquire) and reads the
	 * clock again after it: one attempt here keeps the fast path short.
	 * The record says again that nothing is in flight, as before.
	 */
	if (__builtin_expect(!__atomic_compare_exchange_n(&shm->offset, &old, old + len,
							  false, __ATOMIC_ACQ_REL,
							  __ATOMIC_RELAXED), 0)) {
		if (track)
			__atomic_store_n(&rec->pos, 0, __ATOMIC_RELAXED);
		return -EAGAIN;
	}
	__atomic_store_n(&shm->last_ts, ts, __ATOMIC_RELAXED);
	/*
	 * Overwrite mode: the reader copies sub-buffers while writers may
	 * start the next lap; this fence orders our position change before
	 * our data stores, so a reader that sees them sees the new position
	 * (see ltt_rb_copy_next_subbuf()).  On x86 the locked CAS already
	 * does, and the fence costs nothing: no test needed.
	 */
#if defined(__x86_64__) || defined(__i386__)
	__atomic_thread_fence(__ATOMIC_RELEASE);
#else
	if (rb->overwrite)
		__atomic_thread_fence(__ATOMIC_RELEASE);
#endif
	/* in_sb + len < subbuf_size: the slot lies inside the mapping */
	ret_slot->data = (void *)((uintptr_t)rb->data + (uintptr_t)(old & rb->buf_mask));
	/*
	 * The line a dozen small events on, taken for writing now, so that
	 * the locked instructions of the events before it do not wait for
	 * its fetch (bench/README.md, "Where the cycles go").
	 */
	__builtin_prefetch(ltt_rb_prefetch_at(ret_slot->data), 1, 3);
	ret_slot->pos = old;
	ret_slot->ts = ts;
	ret_slot->ts_delta = ts - prev;
	ret_slot->len = (size_t)len;
	ret_slot->cpu = cpu;
	return 0;
}

/*
 * ltt_rb_try_reserve_in() and, where it answers -EAGAIN, the slow path:
 * the complete reservation.
 */
static inline __attribute__((always_inline)) int
ltt_rb_reserve_in(struct ltt_rb *rb, struct ltt_rb_wrec *rec, bool track, size_t short_len,
		  size_t long_len, unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	int ret = ltt_rb_try_reserve_in(rb, rec, track, false, short_len, long_len, bits,
					ret_slot);

	if (__builtin_expect(ret != 0, 0))
		return ltt_rb_reserve_slow(rb, rec, short_len, long_len, bits, ret_slot);
	return 0;
}

static inline int ltt_rb_reserve_ts(struct ltt_rb *rb, size_t short_len, size_t long_len,
				    unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	return ltt_rb_reserve_in(rb, NULL, false, short_len, long_len, bits, ret_slot);
}

/**
 * ltt_rb_reserve_rec() - ltt_rb_reserve_ts() for a writer that keeps a record
 * @rec: the calling thread's record in a block its process owns (see
 *       struct ltt_rb_wblock), or any record nobody reads (the scratch one)
 *
 * Same arguments, context and return codes as ltt_rb_reserve_ts().  The
 * slot must then be committed with ltt_rb_commit_add_rec() and the same
 * @rec, with no other reservation on @rec in between (a signal handler
 * that records meanwhile must use another record, or it hides this slot
 * from the reader's repair: the packet is then given up if the program
 * dies before this slot commits).
 */
static inline __attribute__((always_inline)) int
ltt_rb_reserve_rec(struct ltt_rb *rb, struct ltt_rb_wrec *rec, size_t short_len, size_t long_len,
		   unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	return ltt_rb_reserve_in(rb, rec, true, short_len, long_len, bits, ret_slot);
}

/*
 * ltt_rb_reserve_rec()'s fast path alone, for a stream whose clock the
 * caller knows is the TSC (no call to another clock is left in it), and
 * lengths it knows are right: 1 <= @short_len <= @long_len (not checked):
 * -EAGAIN, with nothing changed and @rec's pos 0 again, where
 * ltt_rb_reserve_rec() would take its slow path; the caller then calls it
 * (or a path of its own that does).  So a tracer's fast path can stay a
 * leaf: every rare case is a tail call.
 */
static inline __attribute__((always_inline)) int
ltt_rb_try_reserve_rec_tsc(struct ltt_rb *rb, struct ltt_rb_wrec *rec, size_t short_len,
			   size_t long_len, unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	return ltt_rb_try_reserve_in(rb, rec, true, true, short_len, long_len, bits, ret_slot);
}

/**
 * ltt_rb_reserve() - reserve @len bytes for one event
 * @rb: a handle attached to the stream (not checked: this is the fast path)
 * @len: event size in bytes, 1..subbuf_size - LTT_RB_PACKET_HEADER_SIZE
 * @ret_slot: where to write the event, its timestamp; set only on success
 *
 * ltt_rb_reserve_ts() for an event of one size: same context and return
 * codes (-EINVAL for @len 0).  ltt_rb_slot_ts_fits() tells afterwards
 * whether a truncated timestamp would have done.
 */
static inline int ltt_rb_reserve(struct ltt_rb *rb, size_t len, struct ltt_rb_slot *ret_slot)
{
	return ltt_rb_reserve_ts(rb, len, len, 0, ret_slot);
}

/*
 * Add @delta to the commit word of the sub-buffer holding position @pos.
 * Returns true when this add completed the sub-buffer's lap: the caller
 * then calls ltt_rb_wakeup().
 * Release: the bytes written before are visible to a reader that sees the
 * count (every add extends the release sequence the reader acquires).
 *
 * Writers never enter a lap before the previous one is complete, so after
 * our add the bytes field is in (lap * S, (lap + 1) * S] modulo
 * 2^count_shift, a multiple of S: its low subbuf_order bits are 0 exactly
 * when it completes the lap, whatever the events field above holds.  A
 * lying count can at worst cause a spurious wakeup, which the reader's
 * re-check absorbs.
 */
static inline bool ltt_rb_commit_word_add(struct ltt_rb *rb, uint64_t pos, uint64_t delta)
{
	uint64_t idx = (pos >> rb->subbuf_order) & rb->index_mask;
	uint64_t count = __atomic_fetch_add(&rb->commit[idx].count, delta, __ATOMIC_RELEASE) + delta;

	return !(count & rb->subbuf_mask);
}

/*
 * Commit one event of @len bytes at position @pos: its bytes and one event
 * in one atomic add.  Returns true when this commit completed the
 * sub-buffer: the caller then calls ltt_rb_wakeup(), as ltt_rb_commit()
 * does (the tracer keeps the wakeup out of line).
 */
static inline bool ltt_rb_commit_add(struct ltt_rb *rb, uint64_t pos, uint64_t len)
{
	return ltt_rb_commit_word_add(rb, pos, len + rb->event_one);
}

/*
 * ltt_rb_commit_add() of a slot reserved with ltt_rb_reserve_rec(), then
 * the record says nothing is in flight.  A writer that dies between the two
 * leaves a record of a committed slot: the reader's repair tells it from a
 * torn one by the commit count (doc/ust.md).
 */
static inline bool ltt_rb_commit_add_rec(struct ltt_rb *rb, struct ltt_rb_wrec *rec,
					 uint64_t pos, uint64_t len)
{
	bool completed = ltt_rb_commit_add(rb, pos, len);

	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	__atomic_store_n(&rec->pos, 0, __ATOMIC_RELAXED);
	return completed;
}

/**
 * ltt_rb_commit() - publish a slot whose bytes have all been written
 * @rb: the handle the slot was reserved with (or one on the same stream)
 * @slot: from ltt_rb_reserve() or ltt_rb_reserve_ts(), committed exactly once
 *        (not checked)
 *
 * Any thread; lock-free.  At most one system call per sub-buffer (the
 * eventfd write when this commit completes it and the reader sleeps).
 */
static inline void ltt_rb_commit(struct ltt_rb *rb, const struct ltt_rb_slot *slot)
{
	if (__builtin_expect(ltt_rb_commit_add(rb, slot->pos, slot->len), 0))
		ltt_rb_wakeup(rb);
}

/**
 * ltt_rb_reserve_untracked() - ltt_rb_reserve_ts() for a writer without a record
 *
 * For a thread of a writer process that has no record of its own in a
 * writer block (threads beyond LTT_RB_WRECS, a process that got no block,
 * a signal handler whose thread's record is in use).  Same arguments,
 * context and return codes as ltt_rb_reserve_ts().  The region's count of
 * untracked slots in flight goes up before the reserve CAS (release: a
 * reader that sees the CAS sees the count) and down after
 * ltt_rb_commit_untracked(), which the slot must be committed with; while
 * it is not 0, ltt_rb_repair_subbuf() repairs nothing, since it cannot
 * know which slots such writers hold.  One atomic add on a line of its own
 * each way; the tracked path does not touch it.
 */
static inline int ltt_rb_reserve_untracked(struct ltt_rb *rb, size_t short_len, size_t long_len,
					   unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	int ret;

	__atomic_fetch_add(&rb->shm->untracked, 1, __ATOMIC_SEQ_CST);
	ret = ltt_rb_reserve_in(rb, NULL, false, short_len, long_len, bits, ret_slot);
	if (__builtin_expect(ret != 0, 0))
		__atomic_fetch_sub(&rb->shm->untracked, 1, __ATOMIC_RELEASE);
	return ret;
}

/*
 * Commit a slot of ltt_rb_reserve_untracked(), then count it out of the
 * untracked slots in flight (release: after the commit's add).  Returns
 * true when the commit completed the sub-buffer, as ltt_rb_commit_add().
 */
static inline bool ltt_rb_commit_untracked(struct ltt_rb *rb, uint64_t pos, uint64_t len)
{
	bool completed = ltt_rb_commit_add(rb, pos, len);

	__atomic_fetch_sub(&rb->shm->untracked, 1, __ATOMIC_RELEASE);
	return completed;
}

/**
 * ltt_rb_slot_ts_fits() - can the event header carry a truncated timestamp?
 * @slot: a reserved slot
 * @bits: width of the truncated field (27 for compact headers, 32 for large)
 *
 * True when the slot's timestamp is less than 2^@bits after the previous
 * event's in the packet (or it is the first event: its timestamp is the
 * packet's timestamp_begin), so a CTF reader that assumes at most one wrap
 * decodes it.  False means: write the extended header with 64 bits.
 * Racing writers can make this answer false when true was possible, never
 * the reverse (doc/ust.md has the proof).
 */
static inline bool ltt_rb_slot_ts_fits(const struct ltt_rb_slot *slot, unsigned int bits)
{
	return bits >= 64 || slot->ts_delta < ((uint64_t)1 << bits);
}

/* The reading half: flush, reclaim, packets, repair, snapshots, counters. */
#include "common/trace/ringbuf-read.h"

#endif /* LTT_COMMON_RINGBUF_H */
