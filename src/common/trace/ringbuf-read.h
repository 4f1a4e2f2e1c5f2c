/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ringbuf-read.h - the ring buffer's reading half (ringbuf.h has the
 * layout and the writers' fast path): flushing, reclaiming consumed
 * sub-buffers, taking, checking and giving back packets, repairing what a
 * dead writer left, snapshots and the loss counters.  Included by
 * ringbuf.h, so every user of the buffer sees both halves.  Defined in
 * ringbuf-read.c, but for ltt_rb_flush() (a sub-buffer switch, ringbuf.c's)
 * and the writers' blocks and repair (ringbuf-repair.c).
 */
#ifndef LTT_COMMON_RINGBUF_READ_H
#define LTT_COMMON_RINGBUF_READ_H

#ifndef LTT_COMMON_RINGBUF_H
#error "include common/trace/ringbuf.h"
#endif

/**
 * ltt_rb_flush() - close the current sub-buffer so it can be read
 * @rb: the reader's (or any) handle; when the flush completes the
 *      sub-buffer (its padding is the last commit), it wakes a sleeping
 *      reader through @rb's wakeup fd, as ltt_rb_commit() does: a handle
 *      without one (the reader's own) leaves that to its caller, which
 *      reads next
 * @even_if_empty: when no sub-buffer is open, produce an empty packet
 *                 (header only) so the reader has a fresh timestamp_end
 *
 * For the switch timer and for stop.  Lock-free, correct against
 * concurrent writers: writers that reserved before the flush complete the
 * packet with their commits.  Returns 0 when a packet was closed;
 * -ENODATA when nothing was open and !@even_if_empty; -ENOBUFS when
 * @even_if_empty but the next sub-buffer is not free; -EBUSY when the
 * write position kept changing (retry later).
 */
int ltt_rb_flush(struct ltt_rb *rb, bool even_if_empty);

/**
 * ltt_rb_open_filled() - does the open sub-buffer hold events?
 * @rb: any handle
 *
 * True when a writer reserved in the current sub-buffer since it was
 * opened (ltt_rb_flush(@rb, false) would close a packet): one load of the
 * write position, for a live reader that looks between its ticks.
 */
bool ltt_rb_open_filled(const struct ltt_rb *rb);

/**
 * ltt_rb_reclaim() - give back the pages of the sub-buffers already
 * consumed (doc/memory.md), while the writers go on
 * @rb: the reader's handle, mapped writable (MADV_REMOVE punches its
 *      shared memory); the reader's thread, between two reads
 * @older_than: only sub-buffers closed at least this long ago (ns of the
 *              stream's clock; 0: all)
 * @ret_subbufs: the sub-buffers given back by this call (those it gave
 *               back before and no writer opened since are not counted
 *               again, nor punched: a call after each read costs nothing
 *               when nothing new was read)
 *
 * A consumed sub-buffer is where the writers go next, so the reader first
 * holds them back: it lowers the consumed position to just below the first
 * sub-buffer it gives back, which no writer may then open (one that checked
 * before may open the next sub-buffer only, never given back), checks that
 * the write position stayed in its sub-buffer, punches, and puts the
 * consumed position back.  A writer that fills a sub-buffer meanwhile
 * drops events and counts them lost.  The next writer to open a
 * sub-buffer given back takes its pages again (ltt_rb_reserve()).
 *
 * Returns 0, -EOPNOTSUPP (overwrite mode: the writers take any sub-buffer),
 * -EAGAIN (the writers moved meanwhile: nothing given back, try again) or
 * madvise()'s -errno.
 */
int ltt_rb_reclaim(struct ltt_rb *rb, uint64_t older_than, uint64_t *ret_subbufs);

/**
 * ltt_rb_get_next_subbuf() - the next complete packet, zero-copy
 * @rb: the reader's handle (one reader per stream; not thread-safe)
 * @ret_pkt: the packet, data pointing into the mapping; set only on success
 *
 * The packet's header is copied and validated (magic, identity, sizes,
 * sequence number, timestamps ordered, not before the previous packet's
 * end and not after the reader's clock: writers must share the reader's
 * CLOCK_MONOTONIC, i.e. its time namespace); the caller writes packet_size
 * bytes from @ret_pkt->data (or @ret_pkt->header then the rest), then calls
 * ltt_rb_put_subbuf().  In overwrite mode writers may overwrite the packet
 * meanwhile: check with ltt_rb_check_subbuf() after using it, or use
 * ltt_rb_copy_next_subbuf().
 * Returns 0; -EAGAIN when no complete packet is there (the reader is then
 * marked as sleeping: the next completion writes to the writers' wakeup
 * fd); -EIO when the packet failed validation: it has been skipped and
 * counted in stats.packets_corrupt (its commit word's events, at most
 * one per byte after the header, in stats.events_corrupt), call again;
 * -ESTALE (overwrite mode)
 * when writers kept lapping the reader: call again.
 */
int ltt_rb_get_next_subbuf(struct ltt_rb *rb, struct ltt_rb_packet *ret_pkt);

/**
 * ltt_rb_copy_next_subbuf() - the next complete packet, copied out
 * @rb: the reader's handle
 * @buf: caller's buffer of at least subbuf_size bytes
 * @buf_len: its size
 * @ret_pkt: the packet, data pointing to @buf; set only on success
 *
 * For overwrite mode (works in both): copies the sub-buffer, then checks
 * that no writer entered it during the copy (seqlock-style, on the write
 * position) before validating the copy.  Then ltt_rb_put_subbuf().
 * Returns as ltt_rb_get_next_subbuf(), plus -ESTALE when the packet was
 * overwritten during the copy: the reader has moved to the oldest valid
 * sub-buffer (the packet_seq_num gap reports the loss), call again;
 * -EINVAL when @buf_len is too small.
 */
int ltt_rb_copy_next_subbuf(struct ltt_rb *rb, void *buf, size_t buf_len,
			    struct ltt_rb_packet *ret_pkt);

/**
 * ltt_rb_check_subbuf() - was a zero-copy packet overwritten?
 * @rb: the reader's handle
 * @pkt: from ltt_rb_get_next_subbuf(), not yet put
 *
 * Call after reading the packet from the mapping in overwrite mode.
 * Returns 0 if what was read is intact; -ESTALE if a writer may have
 * overwritten it (drop what was written; still put the packet).
 */
int ltt_rb_check_subbuf(struct ltt_rb *rb, const struct ltt_rb_packet *pkt);

/**
 * ltt_rb_put_subbuf() - done with a packet; writers may reuse its space
 * @rb: the reader's handle
 * @pkt: the packet last returned by a get or copy on @rb
 *
 * Returns 0, or -EINVAL when @pkt is not the packet at the read position.
 */
int ltt_rb_put_subbuf(struct ltt_rb *rb, const struct ltt_rb_packet *pkt);

/**
 * ltt_rb_abandon_subbuf() - give up on a packet that will never complete
 * @rb: the reader's handle
 *
 * A writer killed between reserve and commit leaves its sub-buffer short
 * of commits forever, and the stream stalls.  Once the consumer knows that
 * no writer of the stream remains (every process that mapped it has
 * exited), it calls this when ltt_rb_get_next_subbuf() keeps returning
 * -EAGAIN: the packet at the read position is closed if still open,
 * marked complete for the writers of later laps, skipped (the sequence-
 * number gap tells CTF readers) and counted in stats.packets_abandoned,
 * its committed events (from its commit word, at most one per byte after
 * the header) in stats.events_abandoned.
 * Calling it while a writer is live loses that writer's packet.
 * Returns 0 when a packet was abandoned; -ENODATA when nothing was
 * reserved at the read position; -EBUSY when the packet is complete (read
 * it); -EAGAIN when a commit raced with the call (call get again).
 */
int ltt_rb_abandon_subbuf(struct ltt_rb *rb);

/**
 * ltt_rb_own_fd() - an open file description of @fd's region of one's own
 * @fd: the region's file, as received (its description is shared with
 *      every holder of the fd)
 *
 * The writer block locks (byte k of the region's file, F_OFD_SETLK) belong
 * to an open file description: a writer or a reader takes them on one of
 * its own, which this opens anew through /proc/self/fd (read-write,
 * close-on-exec).  Returns the new fd or -errno.
 */
int ltt_rb_own_fd(int fd);

/**
 * ltt_rb_writer_block() - the records of writer block @block
 * @rb: any handle on the stream
 * @block: below LTT_RB_WBLOCKS
 *
 * For a writer process once it holds the block's lock (byte @block of the
 * region's file, F_OFD_SETLK, from its own open file description): its
 * threads use records 0..LTT_RB_WRECS-1, one each, and the scratch record
 * LTT_RB_WRECS when they have none.  NULL for a bad argument.
 */
struct ltt_rb_wrec *ltt_rb_writer_block(struct ltt_rb *rb, unsigned int block);

/**
 * ltt_rb_writer_block_clean() - may a new owner take block @block?
 * @rb: the new owner's handle, holding the block's lock
 *
 * Clears the records of slots the reader has already passed (they were
 * committed or repaired), then says whether none is left in flight: a
 * record a dead owner left for the reader to repair must stay.  Returns
 * true when the block is free for use.
 */
bool ltt_rb_writer_block_clean(struct ltt_rb *rb, unsigned int block);

/* What ltt_rb_repair_subbuf() needs from the reader's process. */
struct ltt_rb_repair_ops {
	/*
	 * Take block @block's lock (non-blocking): 1 when taken (its owner,
	 * if any, is gone), 0 when a live process holds it, -errno on error.
	 */
	int (*lock)(void *arg, unsigned int block);
	void (*unlock)(void *arg, unsigned int block);
	/*
	 * Write, at @dst, @len bytes that CTF readers skip as one event of
	 * timestamp @ts: with the compact header when @len is below 13 (a
	 * slot that short had a compact-sized timestamp), else the extended
	 * one (src/common/trace/ctf.h: ltt_ctf_torn_event()).
	 */
	void (*fill)(void *arg, void *dst, uint64_t len, uint64_t ts);
	void *arg;
};

/*
 * The repair's operations for a reader holding an open file description of
 * the region's file of its own (the writers' block locks are OFD locks
 * on it): ltt_rb_file_repair_init(), then ltt_rb_repair_subbuf(rb, &.ops).
 */
struct ltt_rb_file_repair {
	struct ltt_rb_repair_ops ops;
	const struct ltt_rb *rb;	/* the reader's handle: its events' context length */
	int fd;				/* the description (borrowed) */
	short lock_type;		/* F_WRLCK; F_RDLCK for a read-only descriptor */
};

/**
 * ltt_rb_file_repair_init() - @r's operations: a block's lock is
 * @lock_type on byte @block of @fd (F_OFD_SETLK; a live writer's lock
 * refuses either type), the filler ltt_ctf_torn_event() with @rb's
 * context length
 */
void ltt_rb_file_repair_init(struct ltt_rb_file_repair *r, const struct ltt_rb *rb, int fd,
			     short lock_type);

/**
 * ltt_rb_repair_subbuf() - finish the packet a dead writer left incomplete
 * @rb: the reader's handle
 * @ops: locks and filler
 *
 * The packet at the read position is closed but short of commits.  If
 * the slots still owed to it belong to writers whose blocks nobody holds
 * any more (dead processes), and they account exactly for what is
 * missing (bytes), they are completed as their writers would have: a torn
 * event becomes a skip event of the same size and timestamp (counted in
 * events_lost and stats.events_torn), a packet header or end fields the
 * writer owed are written, and the commit count is set complete.  The
 * committed events of the packet are untouched.  Records of a live block
 * are never used: a writer that is slow or stopped keeps its slot, and
 * the call returns -EBUSY.
 * Returns 0 when the packet is now complete (read it); -ENODATA when the
 * packet at the read position is not closed and short; -EBUSY when a live
 * writer may still commit to it; -ENOTRECOVERABLE when no writer will
 * ever complete it: the writers whose records owe it are dead, and their
 * records fit what is missing in several ways (or are more than 8
 * pieces: every subset is searched, microseconds): only
 * ltt_rb_abandon_subbuf() remains, and the reader may call it at once;
 * -ENOENT when bytes are owed that no record explains (none fits, or no
 * record owes the packet: a writer outside this protocol, maybe alive:
 * give it up once no writer is left); -EAGAIN when a commit raced with the repair
 * (call get again); -errno from @ops->lock.  -EBUSY also while a writer
 * without a record has a slot in flight (ltt_rb_reserve_untracked()),
 * live or dead.  -ENOENT and -ENOTRECOVERABLE are remembered: until the
 * packet's commit word or the write position moves, the call answers the
 * same at once, without locking or searching (stats.repair_searches
 * counts the searches).
 */
int ltt_rb_repair_subbuf(struct ltt_rb *rb, const struct ltt_rb_repair_ops *ops);

/**
 * ltt_rb_snapshot_span() - sample the positions a snapshot reads between
 * @rb: the reader's handle
 * @max_packets: at most this many sub-buffers, the newest; 0: no limit
 * @ret: the consumed and produced positions, and the sub-buffers to read:
 *       [begin, end) by steps of subbuf_size
 *
 * Non-consuming: neither the reader's position nor the region changes.
 * end is the start of the sub-buffer holding the write position (an open
 * packet is not read: ltt_rb_flush() it first).  begin is the read
 * position, or in overwrite mode the oldest sub-buffer the writers have
 * not entered again if that is later.  Returns 0 or -EINVAL.
 */
int ltt_rb_snapshot_span(struct ltt_rb *rb, uint64_t max_packets, struct ltt_rb_span *ret);

/**
 * ltt_rb_rewind_oldest() - move the reader back to the oldest sub-buffer
 * the writers have not entered again since it was written
 * @rb: the reader's handle on a region no writer and no other reader
 *      uses any more (ltt-crash's private copy of a file)
 *
 * The sub-buffers already consumed stay in the region until the writers
 * come round to them: after this call the reader takes them again, from
 * the oldest.  One a reader gave back (ltt_rb_reclaim()) reads as zeros
 * and fails validation (-EIO, counted in stats.packets_corrupt).
 * Returns 0 or -EINVAL.
 */
int ltt_rb_rewind_oldest(struct ltt_rb *rb);

/**
 * ltt_rb_peek_subbuf() - copy and validate the sub-buffer at @pos without
 * consuming it
 * @rb: the reader's handle (the thread that reads the stream)
 * @pos: a sub-buffer position from an ltt_rb_snapshot_span() span
 * @ts_floor: timestamp_end of the previous packet copied (0 for the first):
 *            the packet may not begin before it
 * @buf: at least subbuf_size bytes; @buf_len its size
 * @ret_pkt: the packet, data pointing to @buf; set only on success
 *
 * The copy is checked against the write position after it is made: in
 * overwrite mode a sub-buffer the writers entered again before or while
 * it was copied is dropped.  Nothing is put back: the reader's position
 * and the region are untouched.  Returns 0; -EAGAIN when the packet is
 * not complete (a writer is still committing to it); -ESTALE when it was
 * overwritten (counted in stats.snap_overwritten); -EIO when it failed
 * validation (stats.snap_corrupt); -EINVAL for a bad argument.
 */
int ltt_rb_peek_subbuf(struct ltt_rb *rb, uint64_t pos, uint64_t ts_floor, void *buf,
		       size_t buf_len, struct ltt_rb_packet *ret_pkt);

/**
 * ltt_rb_events_lost() - the stream's running total of dropped events
 * @rb: any handle on the stream (NULL gives 0)
 *
 * Read from the region: informative only, any value is possible.
 */
uint64_t ltt_rb_events_lost(const struct ltt_rb *rb);

/**
 * ltt_rb_events_skipped() - the events committed to packets this reader
 * skipped: corrupt ones (at most one per byte past the header) and those
 * given up (ltt_rb_abandon_subbuf()); from the reader's private counters
 * @rb: the reader's handle (NULL gives 0)
 */
uint64_t ltt_rb_events_skipped(const struct ltt_rb *rb);

/**
 * ltt_rb_events_unread() - events committed that the reader has not put
 * @rb: any handle on the stream (NULL gives 0)
 *
 * The events of the sub-buffers from the region's read position to its
 * write position, from their commit words: what a reader that stops now
 * leaves unwritten.  Read from the region, without a lock: exact while
 * neither writers nor the reader move, informative otherwise.
 */
uint64_t ltt_rb_events_unread(const struct ltt_rb *rb);

#endif /* LTT_COMMON_RINGBUF_READ_H */
