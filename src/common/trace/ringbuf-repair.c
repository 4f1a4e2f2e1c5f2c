// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ringbuf-repair.c - writers that die: the writer area of a region and
 * the reader's repair of a packet a dead writer left short
 * (ltt_rb_repair_subbuf()).  doc/ust.md, "Writers that die", has the
 * design and the proof.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

#include "common/trace/ctf.h"
#include "common/trace/ringbuf.h"
#include "common/trace/ringbuf-internal.h"

/*
 * Writers that die: the writer area and the repair of a packet they left
 * short (doc/ust.md, "Writers that die").
 */

int ltt_rb_own_fd(int fd)
{
	char path[64];
	int ret;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	ret = open(path, O_RDWR | O_CLOEXEC);
	return ret < 0 ? -errno : ret;
}

struct ltt_rb_wrec *ltt_rb_writer_block(struct ltt_rb *rb, unsigned int block)
{
	if (!rb || block >= LTT_RB_WBLOCKS)
		return NULL;
	return rb->wblocks[block].rec;
}

bool ltt_rb_writer_block_clean(struct ltt_rb *rb, unsigned int block)
{
	uint64_t consumed, pos;
	struct ltt_rb_wrec *rec;
	bool clean = true;
	unsigned int i;

	if (!rb || block >= LTT_RB_WBLOCKS)
		return false;
	consumed = __atomic_load_n(&rb->shm->consumed, __ATOMIC_ACQUIRE);
	for (i = 0; i < LTT_RB_WRECS; i++) {
		rec = &rb->wblocks[block].rec[i];
		pos = __atomic_load_n(&rec->pos, __ATOMIC_RELAXED);
		if (!pos)
			continue;
		/* the reader is past its packet: committed, repaired or given up */
		if (subbuf_start(rb, pos) + rb->subbuf_size <= consumed)
			__atomic_store_n(&rec->pos, 0, __ATOMIC_RELAXED);
		else
			clean = false;
	}
	return clean;
}

enum piece_kind { PIECE_EVENT, PIECE_HEADER, PIECE_PADDING };

/* Something a writer may still owe the packet being repaired. */
struct piece {
	enum piece_kind kind;
	unsigned int block, rec;
	uint64_t at;		/* position of the bytes */
	uint64_t bytes;
	uint64_t ts;
	bool close_new;		/* an event that fills the packet: end fields too */
};

/*
 * More dead slots than this in one packet: give up.  solve() tries every
 * subset, 2^MAX_PIECES - 1 of them: a few microseconds.
 */
#define MAX_PIECES 8

/*
 * What the record @r owes the packet at @pos (of this lap), appended to
 * @p (room for 3).  A record whose numbers do not fit the packet owes
 * nothing: the region is hostile.
 */
static unsigned int record_pieces(const struct ltt_rb *rb, uint64_t pos,
				  const struct ltt_rb_wrec *r, unsigned int block,
				  unsigned int idx, struct piece *p)
{
	uint64_t at = __atomic_load_n(&r->pos, __ATOMIC_RELAXED);
	uint64_t len = __atomic_load_n(&r->len, __ATOMIC_RELAXED);
	uint64_t ts = __atomic_load_n(&r->ts, __ATOMIC_RELAXED);
	uint64_t old = __atomic_load_n(&r->old, __ATOMIC_RELAXED);
	uint64_t bytes = len & LTT_RB_WREC_LEN_MASK, in_sb;
	unsigned int n = 0;

	if (!at)
		return 0;
	in_sb = at & (rb->subbuf_size - 1);
	if (subbuf_start(rb, at) == pos && in_sb >= HDR_SIZE && bytes &&
	    bytes <= rb->subbuf_size - in_sb) {
		p[n++] = (struct piece){ PIECE_EVENT, block, idx, at, bytes, ts,
					 (len & LTT_RB_WREC_CLOSE_NEW) &&
					 in_sb + bytes == rb->subbuf_size };
		if ((len & LTT_RB_WREC_OPEN) && in_sb == HDR_SIZE)
			p[n++] = (struct piece){ PIECE_HEADER, block, idx, pos, HDR_SIZE, ts,
						 false };
	}
	in_sb = old & (rb->subbuf_size - 1);
	if ((len & LTT_RB_WREC_CLOSE_OLD) && subbuf_start(rb, old) == pos && in_sb >= HDR_SIZE &&
	    subbuf_start(rb, at) == pos + rb->subbuf_size)
		p[n++] = (struct piece){ PIECE_PADDING, block, idx, old,
					 rb->subbuf_size - in_sb, ts, false };
	return n;
}

/* The pieces owed to the packet at @pos by the blocks in @mask (all if ~0). */
static unsigned int collect(const struct ltt_rb *rb, uint64_t pos, uint64_t mask,
			    struct piece *p, unsigned int max, uint64_t *ret_blocks)
{
	struct piece tmp[3];
	unsigned int b, i, k, n = 0, got;
	uint64_t blocks = 0;

	for (b = 0; b < LTT_RB_WBLOCKS; b++) {
		if (!(mask & ((uint64_t)1 << b)))
			continue;
		for (i = 0; i < LTT_RB_WRECS; i++) {
			got = record_pieces(rb, pos, &rb->wblocks[b].rec[i], b, i, tmp);
			if (got)
				blocks |= (uint64_t)1 << b;
			for (k = 0; k < got; k++, n++)
				if (n < max)
					p[n] = tmp[k];
		}
	}
	*ret_blocks = blocks;
	return n;
}

/*
 * The one set of pieces whose bytes add up to @missing, as a mask; 0 when
 * there is none or more than one (sets with two events that overlap are
 * none).  How many there are in *@ret_nr.
 */
static uint32_t solve(const struct piece *p, unsigned int n, uint64_t missing,
		      uint32_t *ret_nr)
{
	uint32_t mask, found = 0, nr_found = 0;
	unsigned int i, j;
	uint64_t sum;

	for (mask = 1; mask < ((uint32_t)1 << n); mask++) {
		for (sum = 0, i = 0; i < n; i++)
			if (mask & ((uint32_t)1 << i))
				sum += p[i].bytes;
		if (sum != missing)
			continue;
		for (i = 0; i < n; i++)
			for (j = i + 1; j < n; j++)
				if ((mask & ((uint32_t)1 << i)) && (mask & ((uint32_t)1 << j)) &&
				    p[i].at < p[j].at + p[j].bytes && p[j].at < p[i].at + p[i].bytes)
					goto next;
		found = mask;
		nr_found++;
next:
		;
	}
	*ret_nr = nr_found;
	return nr_found == 1 ? found : 0;
}

/* Do what the dead writers of the pieces in @mask would have done. */
static uint64_t apply(struct ltt_rb *rb, const struct ltt_rb_repair_ops *ops,
		      const struct piece *p, unsigned int n, uint32_t mask)
{
	uint64_t torn = 0;
	unsigned int i;

	for (i = 0; i < n; i++) {
		if (!(mask & ((uint32_t)1 << i)))
			continue;
		switch (p[i].kind) {
		case PIECE_EVENT:
			ops->fill(ops->arg, at(rb->data, p[i].at & (rb->buf_size - 1)),
				  p[i].bytes, p[i].ts);
			if (p[i].close_new)
				close_packet(rb, p[i].at, rb->subbuf_size, p[i].ts,
					     rb->last_discarded);
			torn++;
			break;
		case PIECE_HEADER:
			open_packet(rb, p[i].at, p[i].ts);
			break;
		case PIECE_PADDING:
			/* the previous packet's count: never more than the next's */
			close_packet(rb, p[i].at, p[i].at & (rb->subbuf_size - 1), p[i].ts,
				     rb->last_discarded);
			break;
		}
	}
	return torn;
}

/* Forget what the dead writers of @blocks owed the packet at @pos. */
static void forget(struct ltt_rb *rb, const struct piece *p, unsigned int n)
{
	struct ltt_rb_wrec *r;
	unsigned int i;

	for (i = 0; i < n; i++) {
		r = &rb->wblocks[p[i].block].rec[p[i].rec];
		if (p[i].kind == PIECE_PADDING)
			__atomic_and_fetch(&r->len, ~LTT_RB_WREC_CLOSE_OLD, __ATOMIC_RELAXED);
		else
			__atomic_store_n(&r->pos, 0, __ATOMIC_RELAXED);
	}
}

static void unlock_blocks(const struct ltt_rb_repair_ops *ops, uint64_t locked)
{
	unsigned int b;

	for (b = 0; b < LTT_RB_WBLOCKS; b++)
		if (locked & ((uint64_t)1 << b))
			ops->unlock(ops->arg, b);
}

/* Lock every block of @blocks: 0, -EBUSY if one is alive, or -errno. */
static int lock_blocks(const struct ltt_rb_repair_ops *ops, uint64_t blocks,
		       uint64_t *ret_locked)
{
	uint64_t locked = 0;
	unsigned int b;
	int ret = 0;

	for (b = 0; b < LTT_RB_WBLOCKS && !ret; b++) {
		if (!(blocks & ((uint64_t)1 << b)))
			continue;
		ret = ops->lock(ops->arg, b);
		if (ret == 1) {
			locked |= (uint64_t)1 << b;
			ret = 0;
		} else if (ret == 0) {
			ret = -EBUSY;
		}
	}
	if (ret) {
		unlock_blocks(ops, locked);
		locked = 0;
	}
	*ret_locked = locked;
	return ret;
}

/*
 * Remember that the packet at @pos has no repair while @count and @w hold:
 * @ret, -ENOENT (bytes owed that no record explains) or -ENOTRECOVERABLE
 * (its owners are dead and their records fit in several ways).
 */
static int no_answer(struct ltt_rb *rb, uint64_t pos, uint64_t count, uint64_t w, int ret)
{
	rb->repair_memo = true;
	rb->repair_pos = pos;
	rb->repair_count = count;
	rb->repair_w = w;
	rb->repair_ret = ret;
	return ret;
}

int ltt_rb_repair_subbuf(struct ltt_rb *rb, const struct ltt_rb_repair_ops *ops)
{
	struct piece p[MAX_PIECES];
	uint64_t pos, w, count, full, blocks, locked, torn, missing;
	uint32_t mask, fits;
	unsigned int n;
	bool behind;
	int ret;

	if (!rb || !ops || !ops->lock || !ops->unlock || !ops->fill)
		return -EINVAL;
	pos = rb->consumed;
	/*
	 * Acquire: every writer with a slot in the packet stored its record
	 * before its CAS, which precedes the CAS that closed the packet.
	 */
	w = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	count = commit_count(rb, pos);
	full = commit_full(rb, pos);
	if (w < pos || w - pos < rb->subbuf_size || !commit_behind(rb, count, full))
		return -ENODATA;
	/*
	 * Found no answer for this very state before: the records it used
	 * are final (their owners were dead, or none owed anything), so only
	 * a commit or a new reservation can change the answer.
	 */
	if (rb->repair_memo && rb->repair_pos == pos && rb->repair_count == count &&
	    rb->repair_w == w)
		return rb->repair_ret;
	/*
	 * A writer without a record may hold a slot of the packet, which no
	 * record shows: repair nothing until it commits (one that died keeps
	 * the count up: the packet is then given up).  Its count went up
	 * before its CAS, which the offset load above acquired.  Looked at
	 * again below, once the blocks are locked.
	 */
	if (__atomic_load_n(&rb->shm->untracked, __ATOMIC_ACQUIRE))
		return -EBUSY;
	n = collect(rb, pos, ~(uint64_t)0, p, MAX_PIECES, &blocks);
	if (!n)
		return no_answer(rb, pos, count, w, -ENOENT);
	ret = lock_blocks(ops, blocks, &locked);
	if (ret)
		return ret;
	if (__atomic_load_n(&rb->shm->untracked, __ATOMIC_ACQUIRE)) {
		unlock_blocks(ops, locked);
		return -EBUSY;
	}
	/* the owners are gone: read the records again, now for good */
	n = collect(rb, pos, blocks, p, MAX_PIECES, &blocks);
	count = commit_count(rb, pos);
	behind = commit_behind(rb, count, full);
	missing = (full - count) & rb->bytes_mask;
	rb->stats.repair_searches++;
	fits = 2;	/* more pieces than searched: as if several fit */
	mask = n <= MAX_PIECES && behind ? solve(p, n, missing, &fits) : 0;
	if (!mask) {
		unlock_blocks(ops, locked);
		if (!behind)
			return -EAGAIN;
		/*
		 * The torn slots are always among the dead writers' records and
		 * add up to what is missing: several fits are a guess we refuse,
		 * none means bytes owed without a record (a writer outside
		 * this protocol, maybe alive), left to the final flush.
		 */
		return no_answer(rb, pos, count, w, fits ? -ENOTRECOVERABLE : -ENOENT);
	}
	torn = apply(rb, ops, p, n, mask);
	/*
	 * The bytes the dead writers owed, as their adds would have (a carry
	 * out of the bytes field included), and no event: a skip event is not
	 * one of the program's.  (A dead opener's header commit would also
	 * have taken the previous lap's events out of the word: that lap's
	 * count stays in this packet's, an over-count.)  Release: the bytes
	 * written above, for the reader that acquires the word.
	 */
	if (!commit_set(rb, pos, count, count + missing)) {
		unlock_blocks(ops, locked);
		return -EAGAIN;
	}
	forget(rb, p, n);
	unlock_blocks(ops, locked);
	if (torn)
		__atomic_fetch_add(&rb->shm->events_lost, torn, __ATOMIC_RELAXED);
	rb->stats.events_torn += torn;
	rb->stats.packets_repaired++;
	return 0;
}

/* Writer block @block's lock: 1 taken (its writer is gone), 0 held by a live one. */
static int file_block_lock(void *arg, unsigned int block)
{
	struct ltt_rb_file_repair *r = arg;
	struct flock fl = { .l_type = r->lock_type, .l_whence = SEEK_SET, .l_start = block,
			    .l_len = 1 };

	if (!fcntl(r->fd, F_OFD_SETLK, &fl))
		return 1;
	return errno == EAGAIN || errno == EACCES ? 0 : -errno;
}

static void file_block_unlock(void *arg, unsigned int block)
{
	struct ltt_rb_file_repair *r = arg;
	struct flock fl = { .l_type = F_UNLCK, .l_whence = SEEK_SET, .l_start = block, .l_len = 1 };

	fcntl(r->fd, F_OFD_SETLK, &fl);
}

static void file_torn_fill(void *arg, void *dst, uint64_t len, uint64_t ts)
{
	struct ltt_rb_file_repair *r = arg;

	ltt_ctf_torn_event(dst, len, ts, r->rb->event_ctx_len);
}

void ltt_rb_file_repair_init(struct ltt_rb_file_repair *r, const struct ltt_rb *rb, int fd,
			     short lock_type)
{
	*r = (struct ltt_rb_file_repair){
		{ file_block_lock, file_block_unlock, file_torn_fill, r }, rb, fd, lock_type,
	};
}
