// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ringbuf-read.c - the ring buffer's reader (ringbuf-read.h): taking,
 * checking and giving back packets, abandoning the one a dead writer left
 * open, giving back the pages of consumed sub-buffers, snapshots and the
 * loss counters.  ringbuf.c has the region and the writers' sub-buffer
 * switches (the flush among them) and says the vocabulary; doc/ust.md
 * has the protocol and the reader's rules.
 *
 * Only rb->consumed (private) says where we are; positions read from the
 * region (offset, commit counts) are compared with it but never used to
 * address memory, and every address is masked into the data area.
 */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "common/trace/ringbuf.h"
#include "common/trace/ringbuf-internal.h"

#define READ_RETRIES	64	/* overwrite-mode laps before get gives up */

uint64_t ltt_rb_events_lost(const struct ltt_rb *rb)
{
	return rb ? __atomic_load_n(&rb->shm->events_lost, __ATOMIC_RELAXED) : 0;
}

uint64_t ltt_rb_events_skipped(const struct ltt_rb *rb)
{
	uint64_t sum;

	if (!rb)
		return 0;
	sum = rb->stats.events_corrupt + rb->stats.events_abandoned;
	return sum < rb->stats.events_corrupt ? UINT64_MAX : sum;	/* saturated */
}

/*
 * Events of a lap whose complete commit word is @count: the events field,
 * less the carry out of the bytes field, which the lap's last commit
 * produces exactly when its complete bytes field is 0 (doc/ust.md).
 */
static uint64_t commit_events(const struct ltt_rb *rb, uint64_t count)
{
	return (count >> rb->count_shift) - (commit_bytes(rb, count) == 0);
}

/*
 * Each sub-buffer from the read position's to the write position's, the
 * last num_subbuf of them at most (overwrite mode may have lapped the
 * reader): the events its commit word counts in its current lap.  The
 * positions are the writers' (a program's, not trusted): the walk counts
 * sub-buffers, it never steps a position that could wrap.
 */
uint64_t ltt_rb_events_unread(const struct ltt_rb *rb)
{
	uint64_t r, w, last, n, i, sum = 0;

	if (!rb)
		return 0;
	r = __atomic_load_n(&rb->shm->consumed, __ATOMIC_ACQUIRE) >> rb->subbuf_order;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	if (!w || (w - 1) >> rb->subbuf_order < r)
		return 0;
	last = (w - 1) >> rb->subbuf_order;	/* the last sub-buffer entered */
	n = last - r + 1;
	if (n > rb->num_subbuf)
		n = rb->num_subbuf;
	for (i = 0; i < n; i++)
		sum += commit_events(rb, __atomic_load_n(&rb->commit[(last - i) & rb->index_mask].count,
							  __ATOMIC_ACQUIRE));
	return sum;
}

/*
 * Mark @pos's lap complete, so that writers of the next lap may open the
 * sub-buffer (they require exactly that bytes field); no events.
 */
static bool commit_repair(struct ltt_rb *rb, uint64_t pos, uint64_t seen)
{
	return commit_set(rb, pos, seen, commit_full(rb, pos));
}

/*
 * The sub-buffer at the read position is not opened (the write position
 * is there): writers need its count to say "previous lap complete", and
 * nothing may commit to it until one of them opens it.  Any other value
 * is a lie that would stall the stream; reset it.  Safe in discard mode
 * (we consumed the previous lap, so it was complete), and in overwrite mode
 * when no writer is left to finish the previous lap.
 */
static void heal_unopened(struct ltt_rb *rb, uint64_t pos)
{
	uint64_t want = commit_start(rb, pos);
	uint64_t count = commit_count(rb, pos);

	if (commit_bytes(rb, count) != want && __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE) == pos)
		commit_set(rb, pos, count, want);
}

static void advance(struct ltt_rb *rb, uint64_t to)
{
	rb->consumed = to;
	/* release: our reads of the packet are done before writers reuse it */
	__atomic_store_n(&rb->shm->consumed, to, __ATOMIC_RELEASE);
	ltt_rb_wake_writers(rb);
}

/* Has a writer entered the next lap of the sub-buffer at @pos? */
static bool lapped(const struct ltt_rb *rb, uint64_t pos, uint64_t w)
{
	return w > pos && w - pos > rb->buf_size;
}

/*
 * Overwrite mode, the writers have lapped the reader: move to the oldest
 * sub-buffer they cannot have entered yet, the one after the write
 * position's (or the write position's own, when it is not opened).
 */
static void skip_to_oldest(struct ltt_rb *rb, uint64_t w)
{
	uint64_t oldest = subbuf_start(rb, w);

	if (w != oldest)
		oldest += rb->subbuf_size;
	oldest -= rb->buf_size;
	if (oldest > rb->consumed && oldest < w) {
		rb->stats.packets_overwritten += (oldest - rb->consumed) >> rb->subbuf_order;
		advance(rb, oldest);
	}
}

enum sb_state { SB_NOT_READY, SB_READY, SB_AHEAD };

static enum sb_state subbuf_state(const struct ltt_rb *rb, uint64_t pos, uint64_t *ret_count)
{
	uint64_t count = commit_count(rb, pos), full = commit_full(rb, pos);
	uint64_t w = __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED);

	/*
	 * Not closed by the writers yet, whatever the count says: a complete
	 * count is published by commits that follow the closing CAS, so once
	 * we acquired it the write position we load is past the sub-buffer.
	 * This keeps a lying count from moving the reader ahead of writers.
	 */
	*ret_count = count;
	if (w < pos || w - pos < rb->subbuf_size)
		return SB_NOT_READY;
	if (commit_bytes(rb, count) == full)
		return SB_READY;
	/*
	 * Not ready, or a writer died holding a slot (ltt_rb_abandon_subbuf()),
	 * or a lie that abandon repairs.  Anything else: writers of the next
	 * lap committed (overwrite mode) or the count is a lie.
	 */
	return commit_behind(rb, count, full) ? SB_NOT_READY : SB_AHEAD;
}

/*
 * Nothing to read: tell the writers we sleep, then look again, so that a
 * completion between our first look and the flag is not missed.
 */
static enum sb_state reader_sleep(struct ltt_rb *rb, uint64_t pos, uint64_t *ret_count)
{
	enum sb_state st;

	/*
	 * The region's copy of our position is only for writers; if someone
	 * scribbled it, discard-mode writers would drop everything while we
	 * wait for them.  Publish ours again.
	 */
	if (__atomic_load_n(&rb->shm->consumed, __ATOMIC_RELAXED) != pos) {
		__atomic_store_n(&rb->shm->consumed, pos, __ATOMIC_RELEASE);
		ltt_rb_wake_writers(rb);
	}
	if (!rb->overwrite)
		heal_unopened(rb, pos);
	__atomic_store_n(&rb->shm->reader_waiting, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* pairs with ltt_rb_wakeup() */
	st = subbuf_state(rb, pos, ret_count);
	if (st != SB_NOT_READY)
		__atomic_store_n(&rb->shm->reader_waiting, 0, __ATOMIC_RELAXED);
	return st;
}

/*
 * Check the private copy of a packet header against what we know.  @now is
 * read after the packet's commit count: the closer read timestamp_end
 * before that, so a later timestamp is a lie, and accepting it would make
 * every following packet fail the "not before the previous end" test.
 */
static bool header_valid(const struct ltt_rb *rb, uint64_t pos,
			 const struct ltt_rb_packet_header *ph, uint64_t floor, uint64_t now)
{
	return ph->magic == LTT_RB_PACKET_MAGIC &&
	       memcmp(ph->uuid, rb->uuid, sizeof(ph->uuid)) == 0 &&
	       ph->stream_id == rb->stream_id &&
	       ph->stream_instance_id == rb->cpu && ph->cpu_id == rb->cpu &&
	       ph->packet_size == rb->subbuf_size * 8 &&
	       ph->packet_seq_num == pos >> rb->subbuf_order &&
	       (ph->content_size & 7) == 0 &&
	       ph->content_size >= HDR_SIZE * 8 &&
	       ph->content_size <= rb->subbuf_size * 8 &&
	       ph->timestamp_begin <= ph->timestamp_end &&
	       ph->timestamp_begin >= floor &&
	       /* a clock plugin's: the reader's now is the writers' last (ltt_rb_clock()) */
	       (ph->timestamp_end <= now || rb->clock == LTT_TCLOCK_PLUGIN);
}

/* Overwrite mode: after reading, did a writer enter the sub-buffer? */
static bool overwritten_since(struct ltt_rb *rb, uint64_t pos)
{
	uint64_t w;

	/*
	 * Pairs with the writers' release fence after their CAS: if we read
	 * any byte a writer stored after its CAS, this load sees that CAS.
	 */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED);
	if (!lapped(rb, pos, w))
		return false;
	skip_to_oldest(rb, w);
	return true;
}

/*
 * The events field of a packet's commit word @count, for a packet whose
 * content size is unknown (corrupt, or abandoned): at most one event per
 * byte after the header, as for packets read.
 */
static uint64_t events_clamped(const struct ltt_rb *rb, uint64_t count)
{
	uint64_t events = commit_events(rb, count);

	return events > rb->subbuf_size - HDR_SIZE ? rb->subbuf_size - HDR_SIZE : events;
}

/* The packet at @pos, validated as @ph, its commit word @count. */
static void fill_packet(struct ltt_rb *rb, uint64_t pos, const void *copy,
			const struct ltt_rb_packet_header *ph, uint64_t count,
			struct ltt_rb_packet *ret_pkt)
{
	struct ltt_rb_packet pkt;

	memset(&pkt, 0, sizeof(pkt));
	pkt.data = copy ? copy : packet_at(rb, pos);
	pkt.pos = pos;
	pkt.region_offset = (uint64_t)((uintptr_t)packet_at(rb, pos) - (uintptr_t)rb->mem);
	pkt.packet_size = rb->subbuf_size;
	pkt.content_size = ph->content_size / 8;
	pkt.seq_num = ph->packet_seq_num;
	pkt.timestamp_begin = ph->timestamp_begin;
	pkt.timestamp_end = ph->timestamp_end;
	pkt.events_discarded = ph->events_discarded;
	/* at least one byte per event: bounds a lying events field */
	pkt.events = commit_events(rb, count);
	if (pkt.events > pkt.content_size - HDR_SIZE)
		pkt.events = pkt.content_size - HDR_SIZE;
	pkt.header = *ph;
	*ret_pkt = pkt;
}

/*
 * Find, (copy,) check and validate the packet at the read position.
 * @copy is NULL for zero-copy reads.
 */
static int next_subbuf(struct ltt_rb *rb, void *copy, struct ltt_rb_packet *ret_pkt)
{
	struct ltt_rb_packet_header ph;
	unsigned int tries;
	enum sb_state st;
	const void *src;
	uint64_t pos, count;

	for (tries = 0; tries < READ_RETRIES; tries++) {
		pos = rb->consumed;
		if (rb->overwrite) {
			uint64_t w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);

			if (lapped(rb, pos, w)) {
				skip_to_oldest(rb, w);
				continue;
			}
		}
		st = subbuf_state(rb, pos, &count);
		if (st == SB_NOT_READY)
			st = reader_sleep(rb, pos, &count);
		if (st == SB_NOT_READY)
			return -EAGAIN;
		if (st == SB_AHEAD) {
			/* writers are in the next lap: overwritten, or lies */
			if (rb->overwrite && overwritten_since(rb, pos))
				continue;
			/*
			 * A lie: no writer can be in the next lap before we
			 * move on (discard mode) or enter it (overwrite mode,
			 * not lapped).  Repair the count, or the stream would
			 * stall there at the next lap.
			 */
			commit_repair(rb, pos, count);
			goto corrupt;
		}
		src = packet_at(rb, pos);
		if (copy) {
			memcpy(copy, src, (size_t)rb->subbuf_size);
			src = copy;
		}
		memcpy(&ph, src, sizeof(ph));
		if (rb->overwrite && overwritten_since(rb, pos)) {
			if (copy)
				return -ESTALE;
			continue;
		}
		if (!header_valid(rb, pos, &ph, rb->last_ts_end, ltt_rb_clock(rb)))
			goto corrupt;
		fill_packet(rb, pos, copy, &ph, count, ret_pkt);
		return 0;
	}
	return -ESTALE;

corrupt:
	rb->stats.packets_corrupt++;
	rb->stats.events_corrupt += events_clamped(rb, count);
	advance(rb, pos + rb->subbuf_size);
	return -EIO;
}

int ltt_rb_get_next_subbuf(struct ltt_rb *rb, struct ltt_rb_packet *ret_pkt)
{
	if (!rb || !ret_pkt)
		return -EINVAL;
	return next_subbuf(rb, NULL, ret_pkt);
}

int ltt_rb_copy_next_subbuf(struct ltt_rb *rb, void *buf, size_t buf_len,
			    struct ltt_rb_packet *ret_pkt)
{
	if (!rb || !buf || !ret_pkt || (uint64_t)buf_len < rb->subbuf_size)
		return -EINVAL;
	return next_subbuf(rb, buf, ret_pkt);
}

int ltt_rb_check_subbuf(struct ltt_rb *rb, const struct ltt_rb_packet *pkt)
{
	uint64_t w;

	if (!rb || !pkt || pkt->pos != rb->consumed)
		return -EINVAL;
	if (!rb->overwrite)
		return 0;	/* writers never enter an unconsumed sub-buffer */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED);
	return lapped(rb, pkt->pos, w) ? -ESTALE : 0;
}

int ltt_rb_put_subbuf(struct ltt_rb *rb, const struct ltt_rb_packet *pkt)
{
	if (!rb || !pkt || pkt->pos != rb->consumed)
		return -EINVAL;
	rb->last_ts_end = pkt->timestamp_end;
	rb->last_discarded = pkt->events_discarded;
	rb->stats.packets_read++;
	advance(rb, pkt->pos + rb->subbuf_size);
	return 0;
}

int ltt_rb_reclaim(struct ltt_rb *rb, uint64_t older_than, uint64_t *ret_subbufs)
{
	uint64_t c, w, s, k, first = 0, q, n = 0, now = older_than ? ltt_rb_clock(rb) : 0;
	int ret = 0;

	if (!rb || !ret_subbufs)
		return -EINVAL;
	if (rb->overwrite)
		return -EOPNOTSUPP;
	c = rb->consumed;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_SEQ_CST);
	s = subbuf_start(rb, w);
	/*
	 * The ring's sub-buffers but the writers' (s) and the next (s + 1):
	 * sub-buffer s + k held q = s + k - buf_size in the last lap, given
	 * back when that one is consumed.  Those of a first lap (q < 0) were
	 * never written, and those below rb->reclaimed were given back and
	 * not opened since: k starts past both.
	 */
	k = rb->reclaimed + rb->buf_size > s ?
		    (rb->reclaimed + rb->buf_size - s) >> rb->subbuf_order : 0;
	for (k = k > 2 ? k : 2; k < rb->num_subbuf; k++) {
		q = s + k * rb->subbuf_size - rb->buf_size;
		if (q + rb->subbuf_size > c)
			break;	/* not consumed: neither are the next ones */
		/* consumed: the reader reads it alone now (a hole reads 0: old) */
		if (older_than && now - packet_at(rb, q)->timestamp_end < older_than)
			break;	/* younger: so are the next ones */
		if (!n++)
			first = q;
	}
	if (!n) {
		*ret_subbufs = 0;
		return 0;
	}
	/* no writer opens first + buf_size from here on */
	__atomic_store_n(&rb->shm->consumed, first, __ATOMIC_SEQ_CST);
	if (subbuf_start(rb, __atomic_load_n(&rb->shm->offset, __ATOMIC_SEQ_CST)) != s) {
		ret = -EAGAIN;	/* a writer may have checked with c: leave them */
		n = 0;
	}
	for (k = 0; k < n && !ret; k++) {
		q = first + k * rb->subbuf_size;
		if (madvise(at(rb->data, q & (rb->buf_size - 1)), (size_t)rb->subbuf_size,
			    MADV_REMOVE))
			ret = -errno;
		/* the writer that opens it takes its pages ahead: seen with consumed */
		__atomic_store_n(&rb->commit[(q >> rb->subbuf_order) & rb->index_mask].punched, 1,
				 __ATOMIC_RELAXED);
	}
	__atomic_store_n(&rb->shm->consumed, c, __ATOMIC_SEQ_CST);
	ltt_rb_wake_writers(rb);	/* those that waited on us meanwhile */
	if (!ret && n)
		rb->reclaimed = first + n * rb->subbuf_size;
	if (!ret)
		*ret_subbufs = n;
	return ret;
}

int ltt_rb_abandon_subbuf(struct ltt_rb *rb)
{
	uint64_t pos, w, count, full, events;
	int ret;

	if (!rb)
		return -EINVAL;
	pos = rb->consumed;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	if (w <= pos) {
		heal_unopened(rb, pos);
		return -ENODATA;
	}
	if (w - pos < rb->subbuf_size) {
		/* still the open sub-buffer: close it first */
		ret = ltt_rb_flush(rb, false);
		if (ret < 0 && ret != -ENODATA)
			return ret;
	}
	count = commit_count(rb, pos);
	full = commit_full(rb, pos);
	if (!commit_behind(rb, count, full))
		return -EBUSY;
	/* the events committed to it: read no more, counted lost */
	events = events_clamped(rb, count);
	/*
	 * Set the count a completed lap would have, so that writers of the
	 * next lap may open it.  A CAS: if a late commit moved the count, the
	 * writer was alive after all and the packet may complete.
	 */
	if (!commit_repair(rb, pos, count))
		return -EAGAIN;
	rb->stats.packets_abandoned++;
	rb->stats.events_abandoned += events;
	advance(rb, pos + rb->subbuf_size);
	return 0;
}

/*
 * Snapshots: reading without consuming.  Nothing here stores to the
 * region or moves rb->consumed; only the private counters change.
 */

int ltt_rb_snapshot_span(struct ltt_rb *rb, uint64_t max_packets, struct ltt_rb_span *ret)
{
	uint64_t w, end, oldest, begin;

	if (!rb || !ret)
		return -EINVAL;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	end = subbuf_start(rb, w);		/* the open sub-buffer is not read */
	begin = rb->consumed;
	if (rb->overwrite) {
		/* the oldest sub-buffer the writers cannot have entered yet */
		oldest = end + (w != end ? rb->subbuf_size : 0);
		oldest = oldest >= rb->buf_size ? oldest - rb->buf_size : 0;
		if (oldest > begin)
			begin = oldest;
	}
	if (begin > end)
		begin = end;	/* a lying region: nothing to read */
	if (max_packets && (end - begin) >> rb->subbuf_order > max_packets)
		begin = end - (max_packets << rb->subbuf_order);
	ret->consumed = rb->consumed;
	ret->produced = w;
	ret->begin = begin;
	ret->end = end;
	return 0;
}

int ltt_rb_rewind_oldest(struct ltt_rb *rb)
{
	uint64_t w, end, oldest;

	if (!rb)
		return -EINVAL;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	end = subbuf_start(rb, w);
	/* the sub-buffer after the open one (when entered) holds the oldest lap */
	oldest = end + (w != end ? rb->subbuf_size : 0);
	oldest = oldest >= rb->buf_size ? oldest - rb->buf_size : 0;
	if (oldest >= rb->consumed)
		return 0;
	rb->consumed = oldest;
	rb->last_ts_end = 0;
	__atomic_store_n(&rb->shm->consumed, oldest, __ATOMIC_RELEASE);
	return 0;
}

int ltt_rb_peek_subbuf(struct ltt_rb *rb, uint64_t pos, uint64_t ts_floor, void *buf,
		       size_t buf_len, struct ltt_rb_packet *ret_pkt)
{
	struct ltt_rb_packet_header ph;
	enum sb_state st;
	uint64_t count, w;

	if (!rb || !buf || !ret_pkt || (uint64_t)buf_len < rb->subbuf_size ||
	    (pos & rb->subbuf_mask))
		return -EINVAL;
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	if (lapped(rb, pos, w))
		goto overwritten;
	st = subbuf_state(rb, pos, &count);
	if (st == SB_NOT_READY)
		return -EAGAIN;
	if (st == SB_AHEAD) {
		if (rb->overwrite)
			goto overwritten;
		goto corrupt;
	}
	memcpy(buf, packet_at(rb, pos), (size_t)rb->subbuf_size);
	/* as overwritten_since(): the writers' release fence after their CAS */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED);
	if (rb->overwrite && lapped(rb, pos, w))
		goto overwritten;
	memcpy(&ph, buf, sizeof(ph));
	if (!header_valid(rb, pos, &ph, ts_floor, ltt_rb_clock(rb)))
		goto corrupt;
	fill_packet(rb, pos, buf, &ph, count, ret_pkt);
	rb->stats.snap_packets++;
	return 0;

overwritten:
	rb->stats.snap_overwritten++;
	return -ESTALE;
corrupt:
	rb->stats.snap_corrupt++;
	return -EIO;
}
