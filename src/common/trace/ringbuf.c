// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ringbuf.c - the lock-free ring buffer of one user-space stream, in shared
 * memory.  The fast paths are inline in ringbuf.h; this file holds the
 * region set-up and the sub-buffer switches (a writer's, and the flush);
 * ringbuf-read.c holds the reader.  doc/ust.md has the protocol, the
 * memory-ordering arguments and the reader's rules.
 *
 * Vocabulary: a position is a free-running byte count.  For a position p,
 * "in_sb" is p's offset inside its sub-buffer, the sub-buffer's "lap" is
 * p / buf_size and its commit count is complete for that lap when its
 * bytes field equals (lap + 1) * subbuf_size modulo 2^count_shift.  in_sb
 * == 0 in the write position means the sub-buffer there is not opened yet
 * and the previous one is closed.  Every comparison of a commit word looks
 * at its bytes field only; the events field above it is read by get and
 * rebased by the writer that opens the next lap.
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <sched.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "common/trace/ringbuf.h"
#include "common/trace/ringbuf-internal.h"
#include "common/base/thread.h"

#define FLUSH_RETRIES	10000	/* CAS attempts before flush gives up */
#define FLUSH_WAIT_US	20000	/* a clock plugin's flush waits for writers this long */

_Static_assert(sizeof(struct ltt_rb_packet_header) == LTT_RB_PACKET_HEADER_SIZE,
	       "packet header size");
_Static_assert(offsetof(struct ltt_rb_packet_header, uuid) == LTT_RB_PH_UUID, "uuid");
_Static_assert(offsetof(struct ltt_rb_packet_header, stream_id) == LTT_RB_PH_STREAM_ID,
	       "stream_id");
_Static_assert(offsetof(struct ltt_rb_packet_header, stream_instance_id) ==
	       LTT_RB_PH_STREAM_INSTANCE_ID, "stream_instance_id");
_Static_assert(offsetof(struct ltt_rb_packet_header, timestamp_begin) ==
	       LTT_RB_PH_TIMESTAMP_BEGIN, "timestamp_begin");
_Static_assert(offsetof(struct ltt_rb_packet_header, timestamp_end) ==
	       LTT_RB_PH_TIMESTAMP_END, "timestamp_end");
_Static_assert(offsetof(struct ltt_rb_packet_header, content_size) ==
	       LTT_RB_PH_CONTENT_SIZE, "content_size");
_Static_assert(offsetof(struct ltt_rb_packet_header, packet_size) ==
	       LTT_RB_PH_PACKET_SIZE, "packet_size");
_Static_assert(offsetof(struct ltt_rb_packet_header, packet_seq_num) ==
	       LTT_RB_PH_PACKET_SEQ_NUM, "packet_seq_num");
_Static_assert(offsetof(struct ltt_rb_packet_header, events_discarded) ==
	       LTT_RB_PH_EVENTS_DISCARDED, "events_discarded");
_Static_assert(offsetof(struct ltt_rb_packet_header, cpu_id) == LTT_RB_PH_CPU_ID, "cpu_id");

_Static_assert(offsetof(struct ltt_rb_shm, offset) == 1 * LTT_RB_CACHELINE, "offset line");
_Static_assert(offsetof(struct ltt_rb_shm, events_lost) == 2 * LTT_RB_CACHELINE, "lost line");
_Static_assert(offsetof(struct ltt_rb_shm, consumed) == 3 * LTT_RB_CACHELINE, "reader line");
_Static_assert(offsetof(struct ltt_rb_shm, block_timeout_us) == 2 * LTT_RB_CACHELINE + 16,
	       "block timeout");
_Static_assert(offsetof(struct ltt_rb_shm, writers_waiting) == 3 * LTT_RB_CACHELINE + 12 &&
	       offsetof(struct ltt_rb_shm, room_seq) == 3 * LTT_RB_CACHELINE + 16, "room words");
_Static_assert(sizeof(struct ltt_rb_shm) == 5 * LTT_RB_CACHELINE, "region header size");
_Static_assert(sizeof(struct ltt_rb_shm_commit) == LTT_RB_CACHELINE, "commit record size");

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static unsigned int order(uint64_t pow2)
{
	return (unsigned int)__builtin_ctzll(pow2);
}

unsigned int ltt_rb_count_shift(unsigned int subbuf_order)
{
	unsigned int shift = subbuf_order + LTT_RB_LAP_BITS;

	if (subbuf_order < 32 && shift > 64 - subbuf_order)
		shift = 64 - subbuf_order;
	if (shift < subbuf_order + 1)
		shift = subbuf_order + 1;
	return shift;
}

static bool geometry_ok(uint64_t subbuf_size, uint64_t num_subbuf)
{
	return is_pow2(subbuf_size) && subbuf_size >= LTT_RB_MIN_SUBBUF_SIZE &&
	       subbuf_size <= LTT_RB_MAX_SUBBUF_SIZE &&
	       is_pow2(num_subbuf) && num_subbuf >= LTT_RB_MIN_NUM_SUBBUF &&
	       num_subbuf <= LTT_RB_MAX_NUM_SUBBUF;
}

_Static_assert(sizeof(struct ltt_rb_wrec) == 32, "writer record size");
_Static_assert(sizeof(struct ltt_rb_wblock) == (LTT_RB_WRECS + 1) * 32, "writer block size");

/* Region offset of the writer area: after the commit records. */
static uint64_t wblocks_offset(uint64_t num_subbuf)
{
	return sizeof(struct ltt_rb_shm) + num_subbuf * sizeof(struct ltt_rb_shm_commit);
}

/* Region offset of sub-buffer 0, for a valid geometry. */
static uint64_t data_offset(uint64_t num_subbuf)
{
	uint64_t end = wblocks_offset(num_subbuf) +
		       (uint64_t)LTT_RB_WBLOCKS * sizeof(struct ltt_rb_wblock);

	return (end + LTT_RB_PAGE_SIZE - 1) & ~(LTT_RB_PAGE_SIZE - 1);
}

size_t ltt_rb_region_size(uint64_t subbuf_size, uint64_t num_subbuf)
{
	uint64_t total;

	if (!geometry_ok(subbuf_size, num_subbuf))
		return 0;
	/* at most 2^20 * 64 + 2^16 + 2^32 * 2^20 + 2^12: no 64-bit overflow */
	total = data_offset(num_subbuf) + subbuf_size * num_subbuf + LTT_RB_GUARD_SIZE;
	if (total > SIZE_MAX)
		return 0;
	return (size_t)total;
}

int ltt_rb_init_region(void *mem, size_t len, const struct ltt_rb_config *cfg)
{
	struct ltt_rb_shm *shm = mem;
	size_t want;

	if (!mem || !cfg || ((uintptr_t)mem & (LTT_RB_CACHELINE - 1)))
		return -EINVAL;
	want = ltt_rb_region_size(cfg->subbuf_size, cfg->num_subbuf);
	if (!want || want != len || cfg->event_ctx_len > LTT_RB_EVENT_CTX_MAX ||
	    cfg->clock > LTT_TCLOCK_KIND_MAX || (!ltt_tclock_is_tsc(cfg->clock) && cfg->clock_base))
		return -EINVAL;
	memset(mem, 0, (size_t)data_offset(cfg->num_subbuf));
	shm->abi_version = LTT_RB_ABI_VERSION;
	shm->subbuf_size = cfg->subbuf_size;
	shm->num_subbuf = cfg->num_subbuf;
	shm->data_offset = data_offset(cfg->num_subbuf);
	shm->overwrite = cfg->overwrite ? 1 : 0;
	shm->clock = (uint16_t)cfg->clock;
	shm->clock_base = cfg->clock_base;
	shm->block_timeout_us = cfg->overwrite ? 0 : cfg->block_timeout_us;
	shm->stream_id = cfg->stream_id;
	shm->cpu = cfg->cpu;
	shm->event_ctx_len = cfg->event_ctx_len;
	memcpy(shm->uuid, cfg->uuid, sizeof(shm->uuid));
	/* last, so that a region with the magic is a complete one */
	__atomic_store_n(&shm->magic, LTT_RB_MAGIC, __ATOMIC_RELEASE);
	return 0;
}

int ltt_rb_attach(struct ltt_rb *rb, void *mem, size_t len)
{
	struct ltt_rb_shm hdr;
	struct ltt_rb h;

	if (!rb || !mem || ((uintptr_t)mem & (LTT_RB_CACHELINE - 1)) || len < sizeof(hdr))
		return -EINVAL;
	/* one read of the region header; only the private copy is checked */
	__atomic_thread_fence(__ATOMIC_ACQUIRE);
	memcpy(&hdr, mem, sizeof(hdr));
	if (hdr.magic != LTT_RB_MAGIC || hdr.abi_version != LTT_RB_ABI_VERSION ||
	    hdr.overwrite > 1 || hdr.clock > LTT_TCLOCK_KIND_MAX ||
	    (ltt_tclock_is_tsc(hdr.clock) && !LTT_TCLOCK_HAVE_TSC) ||
	    (!ltt_tclock_is_tsc(hdr.clock) && hdr.clock_base) || !geometry_ok(hdr.subbuf_size, hdr.num_subbuf) ||
	    hdr.data_offset != data_offset(hdr.num_subbuf) ||
	    hdr.event_ctx_len > LTT_RB_EVENT_CTX_MAX ||
	    ltt_rb_region_size(hdr.subbuf_size, hdr.num_subbuf) != len)
		return -EINVAL;

	memset(&h, 0, sizeof(h));
	h.shm = mem;
	h.commit = at(mem, sizeof(struct ltt_rb_shm));
	h.wblocks = at(mem, wblocks_offset(hdr.num_subbuf));
	h.data = at(mem, hdr.data_offset);
	h.mem = mem;
	h.len = len;
	h.subbuf_size = hdr.subbuf_size;
	h.num_subbuf = hdr.num_subbuf;
	h.buf_size = hdr.subbuf_size * hdr.num_subbuf;
	h.max_len = hdr.subbuf_size - HDR_SIZE;
	h.fast_max_len = hdr.clock == LTT_TCLOCK_PLUGIN ? 0 : h.max_len;
	h.subbuf_order = order(hdr.subbuf_size);
	h.buf_order = order(h.buf_size);
	h.count_shift = ltt_rb_count_shift(h.subbuf_order);
	h.event_one = (uint64_t)1 << h.count_shift;
	h.bytes_mask = h.event_one - 1;
	h.subbuf_mask = h.subbuf_size - 1;
	h.buf_mask = h.buf_size - 1;
	h.index_mask = h.num_subbuf - 1;
	h.overwrite = hdr.overwrite;
	h.clock = hdr.clock;
	h.clock_base = hdr.clock_base;
	h.wakeup_fd = -1;
	/* any value will do: it only bounds this handle's writers' waits */
	h.block_timeout_us = hdr.overwrite ? 0 : hdr.block_timeout_us;
	h.stream_id = hdr.stream_id;
	h.cpu = hdr.cpu;
	h.event_ctx_len = hdr.event_ctx_len;
	memcpy(h.uuid, hdr.uuid, sizeof(h.uuid));
	h.consumed = __atomic_load_n(&h.shm->consumed, __ATOMIC_RELAXED) & ~(h.subbuf_size - 1);
	*rb = h;
	return 0;
}

void ltt_rb_set_wakeup_fd(struct ltt_rb *rb, int fd)
{
	if (rb)
		rb->wakeup_fd = fd < 0 ? -1 : fd;
}

/*
 * Writer side.
 */

void ltt_rb_wakeup(struct ltt_rb *rb)
{
	uint64_t one = 1;
	long ret;
	int saved;

	if (rb->wakeup_fd < 0)
		return;	/* leave the flag for a writer that can signal */
	/*
	 * Pairs with the fence in reader_sleep(): either the reader's re-check
	 * sees our commit, or we see its flag (store-buffering forbidden).
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&rb->shm->reader_waiting, __ATOMIC_RELAXED))
		return;
	if (!__atomic_exchange_n(&rb->shm->reader_waiting, 0, __ATOMIC_RELAXED))
		return;	/* another writer wakes it */
	saved = errno;	/* the traced application's errno is not ours */
	/* the system call itself: glibc's write() is a cancellation point */
	ret = syscall(SYS_write, rb->wakeup_fd, &one, sizeof(one));
	(void)ret;	/* nothing to do: the reader's timer covers a failure */
	errno = saved;
}

/*
 * Blocking writers (doc/ust.md, "Blocking writers").  A writer that finds
 * the buffer full says so in writers_waiting, then sleeps on the futex
 * room_seq as it read it before; the reader, after each store of consumed
 * that gives room back, bumps room_seq and wakes them if one said so.
 * The futex is the region's (shared: no FUTEX_PRIVATE_FLAG), so writers
 * of every process mapping it are woken.
 */
static long futex(uint32_t *word, int op, uint32_t val, const struct timespec *ts)
{
	return syscall(SYS_futex, word, op, val, ts, NULL, FUTEX_BITSET_MATCH_ANY);
}

/* Wake every writer waiting on @rb's region, whatever it waits for. */
static void wake_all_writers(struct ltt_rb *rb)
{
	int saved = errno;

	__atomic_fetch_add(&rb->shm->room_seq, 1, __ATOMIC_SEQ_CST);
	(void)futex(&rb->shm->room_seq, FUTEX_WAKE, INT_MAX, NULL);
	errno = saved;
}

void ltt_rb_wake_writers(struct ltt_rb *rb)
{
	if (rb->overwrite)
		return;
	/*
	 * After our store of consumed; pairs with the fence in
	 * wait_for_room(): either its re-check sees our store, or we see
	 * its flag (store-buffering forbidden).
	 */
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!__atomic_load_n(&rb->shm->writers_waiting, __ATOMIC_RELAXED) ||
	    !__atomic_exchange_n(&rb->shm->writers_waiting, 0, __ATOMIC_RELAXED))
		return;
	wake_all_writers(rb);
}

void ltt_rb_set_blocking(struct ltt_rb *rb, bool on)
{
	if (!rb)
		return;
	if (on) {
		__atomic_store_n(&rb->block_on, 1, __ATOMIC_SEQ_CST);
		return;
	}
	/* before the wake: a writer woken by it sees 0 and gives up */
	if (__atomic_exchange_n(&rb->block_on, 0, __ATOMIC_SEQ_CST) && rb->block_timeout_us)
		wake_all_writers(rb);
}

/* Discard mode: does the reader still hold the previous lap of @start? */
static bool reader_behind(const struct ltt_rb *rb, uint64_t start)
{
	return start - __atomic_load_n(&rb->shm->consumed, __ATOMIC_ACQUIRE) >= rb->buf_size;
}

/* Is CLOCK_MONOTONIC past @t? */
static bool past(const struct timespec *t)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

/*
 * The sub-buffer at @start is not consumed yet and this handle's writers
 * may wait: sleep until the reader gives room back, or until *@deadline
 * (CLOCK_MONOTONIC, set at the event's first wait; none when it waits
 * forever).  Returns true to try the reservation again (woken, room came,
 * or a signal), false to drop the event (timed out, or blocking turned
 * off).  No spinning: one futex wait, on a word only the reader's wake
 * and ltt_rb_set_blocking() change.  Out of line: only full buffers get
 * here.
 */
static __attribute__((noinline, cold)) bool wait_for_room(struct ltt_rb *rb, uint64_t start,
							   struct timespec *deadline, bool *armed)
{
	bool forever = rb->block_timeout_us == LTT_RB_BLOCK_FOREVER;
	uint32_t seq;
	int saved, err = 0;

	if (!__atomic_load_n(&rb->block_on, __ATOMIC_SEQ_CST))
		return false;
	saved = errno;	/* the program's errno is its own */
	if (!*armed && !forever)
		ltt_deadline_in(CLOCK_MONOTONIC, rb->block_timeout_us < UINT64_MAX / 1000 ?
				rb->block_timeout_us * 1000 : UINT64_MAX, deadline);
	*armed = true;
	seq = __atomic_load_n(&rb->shm->room_seq, __ATOMIC_SEQ_CST);
	__atomic_store_n(&rb->shm->writers_waiting, 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_SEQ_CST);	/* pairs with ltt_rb_wake_writers() */
	if (!reader_behind(rb, start)) {
		errno = saved;
		return true;	/* room came meanwhile */
	}
	if (!__atomic_load_n(&rb->block_on, __ATOMIC_SEQ_CST)) {
		errno = saved;
		return false;
	}
	/* the system call itself: no cancellation point inside an event */
	if (futex(&rb->shm->room_seq, FUTEX_WAIT_BITSET, seq, forever ? NULL : deadline))
		err = errno;
	errno = saved;
	/* a last look: the reader may have made room as the time ran out */
	return err != ETIMEDOUT || !reader_behind(rb, start);
}

/*
 * The opener's commit of @bytes bytes to a sub-buffer whose word was @seen
 * (previous lap complete) when it checked it was free: it also takes the
 * previous lap's events out, so the events field counts this lap's only.
 * Nobody else commits to the word between that check and the opener's CAS
 * on the write position (doc/ust.md).
 */
static void commit_opener(struct ltt_rb *rb, uint64_t pos, uint64_t bytes, uint64_t seen)
{
	if (__builtin_expect(ltt_rb_commit_word_add(rb, pos, bytes - (seen & ~rb->bytes_mask)), 0))
		ltt_rb_wakeup(rb);
}

/* Bytes only (padding): no event. */
static void commit_padding(struct ltt_rb *rb, uint64_t pos, uint64_t bytes)
{
	if (__builtin_expect(ltt_rb_commit_word_add(rb, pos, bytes), 0))
		ltt_rb_wakeup(rb);
}

/* subbuf_free()'s answer. */
enum room {
	ROOM_FREE,	/* the writer may open it */
	ROOM_UNREAD,	/* the reader still holds its previous lap */
	ROOM_BUSY,	/* its previous lap is not all committed */
};

/*
 * May a writer open the sub-buffer starting at @start?  Its previous lap
 * must be completely committed (no writer still in it), and in discard
 * mode also consumed.  The answer holds for the position the caller
 * loaded: ROOM_FREE is rechecked by the CAS, which fails if anyone moved
 * the write position meanwhile; another answer is rechecked by the
 * caller, who loads the position again before dropping anything (another
 * thread may have opened the sub-buffer since, and its commit count holds
 * that thread's bytes).  On ROOM_FREE, *@seen is the commit word, for
 * commit_opener().  ROOM_UNREAD is what this very load of the read
 * position found (a second load may find the reader caught up since: the
 * caller must not take that for a writer still in the lap).  An answer,
 * not a flag through a pointer: the drop's path stays in registers.
 */
static enum room subbuf_free(const struct ltt_rb *rb, uint64_t start, uint64_t *seen)
{
	if (!rb->overwrite) {
		/* acquire: the reader's reads of the old data are over */
		uint64_t consumed = __atomic_load_n(&rb->shm->consumed, __ATOMIC_ACQUIRE);

		if (start - consumed >= rb->buf_size)
			return ROOM_UNREAD;
	}
	*seen = commit_count(rb, start);
	return commit_bytes(rb, *seen) == commit_start(rb, start) ? ROOM_FREE : ROOM_BUSY;
}

/* Has the write position left *@old?  Then *@old is where it is now. */
static bool moved(const struct ltt_rb *rb, uint64_t *old)
{
	uint64_t now = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);

	if (now == *old)
		return false;
	*old = now;
	return true;
}

static void drop_event(struct ltt_rb *rb)
{
	__atomic_fetch_add(&rb->shm->events_lost, 1, __ATOMIC_RELAXED);
}

/*
 * Can the sub-buffer at @start be written?  On its first lap, and after
 * the reader gave its pages back (its commit record's punched), its pages
 * are taken now
 * (MADV_POPULATE_WRITE): a buffer created on demand, or whose consumed
 * sub-buffers were given back (reclaim-memory), takes a sub-buffer's
 * memory as it opens it, so that a page the kernel can't give is an
 * error here, counted as a lost event, rather than a SIGBUS or a fault
 * in the middle of an event.  A kernel without it (before 5.14): the
 * pages are taken as they are written, as before.
 */
static bool subbuf_pages(const struct ltt_rb *rb, uint64_t start)
{
	static int unsupported;
	static uintptr_t page;
	uint32_t *punched = &rb->commit[(start >> rb->subbuf_order) & rb->index_mask].punched;
	uintptr_t addr = (uintptr_t)at(rb->data, start & (rb->buf_size - 1)), from;
	uintptr_t pg;
	int saved, err = 0;

	/*
	 * A later lap's, not given back: its pages are there (bench/README.md,
	 * "Taking a sub-buffer's pages": a populate of present pages is
	 * 0.3-2 ns an event).  The reader set punched before it let writers
	 * open it again, which subbuf_free()'s acquire of consumed saw.
	 */
	if (start >= rb->buf_size && !__atomic_load_n(punched, __ATOMIC_RELAXED))
		return true;
	if (__atomic_load_n(&unsupported, __ATOMIC_RELAXED))
		return true;
	pg = __atomic_load_n(&page, __ATOMIC_RELAXED);	/* writers race to set it */
	saved = errno;	/* the program's errno is its own */
	if (!pg) {
		pg = (uintptr_t)sysconf(_SC_PAGESIZE);
		__atomic_store_n(&page, pg, __ATOMIC_RELAXED);
	}
	from = addr & ~(pg - 1);
	if (madvise((void *)from, (size_t)(addr - from + rb->subbuf_size), MADV_POPULATE_WRITE))
		err = errno;
	errno = saved;
	if (err == EINVAL)
		__atomic_store_n(&unsupported, 1, __ATOMIC_RELAXED);
	if (!err && start >= rb->buf_size)
		__atomic_store_n(punched, 0, __ATOMIC_RELAXED);	/* taken again */
	return !err || err == EINVAL;	/* else ENOMEM, EFAULT (SIGBUS), EHWPOISON... */
}

/*
 * A writer whose CAS on the write position lost to another's: many writers
 * of one buffer (a per-channel buffer on a many-core host) that all retry
 * at once make every CAS but one fail, over and over, each failure pulling
 * the position's cache line across.  So the loser waits @backoff pause
 * turns (doubled each loss, up to CAS_BACKOFF_MAX; the first loss none:
 * two writers rarely collide twice), then reads the position again.
 * Returns the next wait.  A per-CPU buffer's writers lose a CAS only to a
 * signal handler or a preempting thread of the same CPU: no wait then.
 */
#define CAS_BACKOFF_MAX 256
static unsigned int cas_backoff(struct ltt_rb *rb, uint64_t *old, unsigned int backoff)
{
	unsigned int i;

	for (i = 0; i < backoff; i++)
		ltt_cpu_relax();
	if (backoff)
		*old = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	return backoff ? (backoff < CAS_BACKOFF_MAX ? backoff * 2 : backoff) : 4;
}

/*
 * A clock plugin's buffer: last_ts is the reader's now (ltt_rb_clock()),
 * so it only rises: @ts goes in where it is greater.  A plain store would
 * let a writer preempted between its CAS and its store put back the
 * timestamp before a later writer's, and a plugin clock that steps back
 * lower it; a flush would then end a packet before its last events.  A
 * bounded loop: each failure saw another value, and the region may be
 * another process's to scribble on.
 */
#define LAST_TS_TRIES 64

/*
 * *@word becomes @ts where that is greater; returns what it holds then
 * (at least @ts), or, after LAST_TS_TRIES failures (another value each:
 * racing writers, or a region scribbled), the greater of @ts and the last
 * value seen.  Release: the stores before it are seen by a reader of the
 * value (ltt_rb_clock()).
 */
static uint64_t ts_max(uint64_t *word, uint64_t ts)
{
	uint64_t cur = __atomic_load_n(word, __ATOMIC_RELAXED);
	unsigned int tries;

	for (tries = 0; cur < ts && tries < LAST_TS_TRIES; tries++)
		if (__atomic_compare_exchange_n(word, &cur, ts, false, __ATOMIC_RELEASE,
						__ATOMIC_RELAXED))
			return ts;
	return cur > ts ? cur : ts;
}

/*
 * The slow path's clock read, after the write position's load (acquire),
 * and the lower bound of the previous event's timestamp its size is
 * chosen by (*@prev, last_ts).  A clock plugin's may step back (a clock
 * of the plugin's own, or another program's plugin on a per-user
 * buffer): its read is raised to the greatest its buffer's writers read
 * before (ts_floor, raised here, before the CAS).  The writer ahead in
 * buffer order raised it before its CAS, which this load of the position
 * follows, so the event is not before it; a writer whose CAS then fails
 * only raised the floor, never last_ts, which only the writers that got
 * their event raise after their CAS: *@prev stays at most the timestamp
 * of the event ahead, as the short header needs.  The other clocks never
 * step back: no test in their fast path, one here.
 */
static inline uint64_t slow_clock(struct ltt_rb *rb, uint32_t *cpu, uint64_t *prev)
{
	uint64_t ts = ltt_rb_clock_cpu(rb, cpu);

	if (__builtin_expect(rb->clock == LTT_TCLOCK_PLUGIN, 0))
		ts = ts_max(&rb->shm->ts_floor, ts);
	*prev = __atomic_load_n(&rb->shm->last_ts, __ATOMIC_RELAXED);
	return ts;
}

/*
 * Everything but the common case: a bad length, or an event that opens a
 * sub-buffer or closes one (it does not fit in the rest of the current
 * sub-buffer, or fills it exactly).  The writer whose CAS moves the write
 * position across a boundary owns the switch: it closes the old packet
 * (end fields, then the padding's commit) and opens the new one (header,
 * then its commit).  A writer whose event ends exactly at the boundary
 * writes the end fields before committing, so in_sb == 0 always means "the
 * previous packet is closed".
 *
 * The size: an event that opens a packet has the short one (its timestamp
 * is timestamp_begin).  Otherwise the clock decides, and an event that
 * fits in the open packet only with the short size but whose timestamp
 * needs the long one opens the next packet, with the short size.  The
 * clock is read before the CAS in every case, but only once the event is
 * known not to be dropped if it can be, so a drop costs no clock read.
 */
int ltt_rb_reserve_slow(struct ltt_rb *rb, struct ltt_rb_wrec *rec, size_t short_len,
			size_t long_len, unsigned int bits, struct ltt_rb_slot *ret_slot)
{
	uint64_t old, in_sb, start = 0, begin, new, ts = 0, prev = 0, lost = 0, len, seen = 0;
	uint32_t cpu = LTT_TCLOCK_NO_CPU;
	unsigned int backoff = 0;
	bool open, close_old, close_new, have_ts, armed = false;
	enum room room;
	struct timespec deadline = { 0, 0 };

	if (!rb || !ret_slot || short_len == 0 || short_len > long_len || bits > 63)
		return -EINVAL;
	if ((uint64_t)long_len > rb->max_len) {
		drop_event(rb);
		return -EMSGSIZE;
	}
	old = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	for (;;) {
		in_sb = old & (rb->subbuf_size - 1);
		len = short_len;
		open = in_sb == 0 || in_sb + len > rb->subbuf_size;
		have_ts = !open;
		if (have_ts) {
			ts = slow_clock(rb, &cpu, &prev);
			if ((ts - prev) >> bits) {
				len = long_len;
				open = in_sb + len > rb->subbuf_size;
				if (open)
					len = short_len;	/* first of the next packet */
			}
		}
		close_old = open && in_sb != 0;
		if (open) {
			start = subbuf_start(rb, old) + (close_old ? rb->subbuf_size : 0);
			room = subbuf_free(rb, start, &seen);
			if (room != ROOM_FREE || !subbuf_pages(rb, start)) {
				if (moved(rb, &old))
					continue;
				if (rec)	/* an earlier attempt's intent */
					__atomic_store_n(&rec->pos, 0, __ATOMIC_RELAXED);
				/*
				 * A blocking writer waits for the reader (one test
				 * when not): the reader subbuf_free() saw behind, not
				 * a second look, which may find it caught up since
				 * and take the full buffer for a writer still in the
				 * lap (wait_for_room() looks again, after arming).
				 */
				if (__builtin_expect(rb->block_timeout_us != 0, 0) && room == ROOM_UNREAD &&
				    wait_for_room(rb, start, &deadline, &armed)) {
					old = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
					continue;
				}
				drop_event(rb);
				return -ENOBUFS;
			}
			begin = start + HDR_SIZE;
		} else {
			begin = old;
		}
		new = begin + len;
		close_new = (new & (rb->subbuf_size - 1)) == 0;
		if (!have_ts)
			ts = slow_clock(rb, &cpu, &prev);
		/*
		 * Read before the CAS (release): the next packet's closer reads
		 * it after its own CAS (acquire), so events_discarded never
		 * decreases from one packet to the next.
		 */
		if (close_old || close_new)
			lost = __atomic_load_n(&rb->shm->events_lost, __ATOMIC_RELAXED);
		if (rec) {
			/* every duty of this attempt, should we die after the CAS */
			__atomic_store_n(&rec->pos, LTT_RB_WREC_BUSY, __ATOMIC_RELAXED);
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			__atomic_store_n(&rec->old, old, __ATOMIC_RELAXED);
			ltt_rb_wrec_set(rec, begin, len | (close_old ? LTT_RB_WREC_CLOSE_OLD : 0) |
					(open ? LTT_RB_WREC_OPEN : 0) |
					(close_new ? LTT_RB_WREC_CLOSE_NEW : 0), ts);
		}
		if (__atomic_compare_exchange_n(&rb->shm->offset, &old, new, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
		backoff = cas_backoff(rb, &old, backoff);
	}
	if (rb->clock == LTT_TCLOCK_PLUGIN)
		(void)ts_max(&rb->shm->last_ts, ts);
	else
		__atomic_store_n(&rb->shm->last_ts, ts, __ATOMIC_RELAXED);
	if (rb->overwrite)
		__atomic_thread_fence(__ATOMIC_RELEASE);	/* as in ltt_rb_reserve_ts() */
	if (close_old) {
		close_packet(rb, old, in_sb, ts, lost);
		commit_padding(rb, old, rb->subbuf_size - in_sb);
	}
	if (close_new)
		close_packet(rb, begin, rb->subbuf_size, ts, lost);
	if (open) {
		open_packet(rb, start, ts);
		commit_opener(rb, start, HDR_SIZE, seen);
	}
	if (rec && (close_old || open)) {
		/* those two are done; the end fields go with the event */
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		__atomic_store_n(&rec->len, len | (close_new ? LTT_RB_WREC_CLOSE_NEW : 0),
				 __ATOMIC_RELAXED);
	}
	ret_slot->data = at(rb->data, begin & (rb->buf_size - 1));
	ret_slot->pos = begin;
	ret_slot->ts = ts;
	/* the first event's timestamp is timestamp_begin: a delta of 0 */
	ret_slot->ts_delta = open ? 0 : ts - prev;
	ret_slot->len = (size_t)len;
	ret_slot->cpu = cpu;
	return 0;
}

bool ltt_rb_open_filled(const struct ltt_rb *rb)
{
	uint64_t off;

	if (!rb)
		return false;
	off = __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED);
	return (off & (rb->subbuf_size - 1)) != 0;
}

/*
 * A clock plugin's buffer: a flush ends the packet at the writers' last
 * timestamp (ltt_rb_clock()), which a writer stores after its CAS, so a
 * writer whose event is in the packet may not have stored it yet.  Wait
 * until the bytes reserved in the packet at @old (@in_sb of them) are all
 * committed (each writer stored its timestamp before it committed), or
 * the write position moved (the flush's CAS then fails and looks again),
 * or *@deadline passed (set at the first wait: a writer that died in its
 * event never commits; the packet then ends at what was stored).
 */
static void wait_writers(struct ltt_rb *rb, uint64_t old, uint64_t in_sb,
			 struct timespec *deadline, bool *armed)
{
	uint64_t done;

	for (;;) {
		/* acquire: their stores of last_ts before their commits are seen */
		done = (commit_bytes(rb, commit_count(rb, old)) - commit_start(rb, old)) &
		       rb->bytes_mask;
		if (done >= in_sb || __atomic_load_n(&rb->shm->offset, __ATOMIC_RELAXED) != old)
			return;
		if (!*armed)
			ltt_deadline_in(CLOCK_MONOTONIC, (uint64_t)FLUSH_WAIT_US * 1000, deadline);
		else if (past(deadline))
			return;
		*armed = true;
		sched_yield();	/* the writer may be on this CPU */
	}
}

int ltt_rb_flush(struct ltt_rb *rb, bool even_if_empty)
{
	uint64_t old, in_sb, new, ts, lost, seen = 0;
	struct timespec deadline;
	unsigned int tries;
	bool armed = false;

	if (!rb)
		return -EINVAL;
	old = __atomic_load_n(&rb->shm->offset, __ATOMIC_ACQUIRE);
	for (tries = 0;; tries++) {
		/* a bound, because the region (and so this loop) is hostile */
		if (tries == FLUSH_RETRIES)
			return -EBUSY;
		in_sb = old & (rb->subbuf_size - 1);
		if (in_sb == 0) {
			if (!even_if_empty)
				return -ENODATA;
			if (subbuf_free(rb, old, &seen) != ROOM_FREE) {
				if (moved(rb, &old))
					continue;
				return -ENOBUFS;
			}
		}
		new = subbuf_start(rb, old) + rb->subbuf_size;
		if (rb->clock == LTT_TCLOCK_PLUGIN && in_sb)
			wait_writers(rb, old, in_sb, &deadline, &armed);
		/* as a writer's: after the load, before the CAS */
		ts = ltt_rb_clock(rb);
		lost = __atomic_load_n(&rb->shm->events_lost, __ATOMIC_RELAXED);
		if (__atomic_compare_exchange_n(&rb->shm->offset, &old, new, false,
						__ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			break;
	}
	if (rb->overwrite)
		__atomic_thread_fence(__ATOMIC_RELEASE);
	if (in_sb == 0) {
		/* an empty packet: header only, opened and closed at once */
		open_packet(rb, old, ts);
		close_packet(rb, old, HDR_SIZE, ts, lost);
		commit_opener(rb, old, rb->subbuf_size, seen);
	} else {
		close_packet(rb, old, in_sb, ts, lost);
		commit_padding(rb, old, rb->subbuf_size - in_sb);
	}
	return 0;
}
