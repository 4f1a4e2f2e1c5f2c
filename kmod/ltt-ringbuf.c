// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ringbuf.c - the per-CPU ring buffer (see ltt-ringbuf.h, doc/kmod.md).
 *
 * Positions are free-running byte counts.  For a position p, with
 * S = subbuf_size and B = num_subbuf * S: sub-buffer index (p / S) mod N,
 * offset in it p mod S, lap p / B, packet_seq_num p / S.  The commit count
 * of an index only grows; lap L of it is complete at (L + 1) * S.  The
 * events count of an index counts the events committed in its current
 * lap: each event's commit adds one before its bytes; the writer that
 * opens the next lap takes the previous lap's out once it has claimed the
 * lap's slot (so a reader that swapped the slot first read the old count).
 */
#include <linux/cpu.h>
#include <linux/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/string.h>
#include <linux/timekeeping.h>
#include <linux/uaccess.h>
#include <linux/vmalloc.h>

#include "ltt-ringbuf.h"
#include "wrapper/ltt-wrapper.h"

#define GET_RETRIES	64	/* reader loop bound when writers keep lapping it */

static inline u64 rb_clock(void)
{
	return ktime_get_mono_fast_ns();
}

static inline unsigned long sb_size(const struct ltt_rb_config *cfg)
{
	return 1UL << cfg->subbuf_order;
}

static inline unsigned long sb_start(const struct ltt_rb_config *cfg, unsigned long pos)
{
	return pos & ~(sb_size(cfg) - 1);
}

static inline unsigned long sb_index(const struct ltt_rb_config *cfg, unsigned long pos)
{
	return (pos >> cfg->subbuf_order) & (cfg->num_subbuf - 1);
}

static inline unsigned long lap_of(const struct ltt_rb_config *cfg, unsigned long pos)
{
	return pos >> cfg->buf_order;
}

/* Commit count of @pos's sub-buffer once its lap is complete. */
static inline unsigned long commit_full(const struct ltt_rb_config *cfg, unsigned long pos)
{
	return (lap_of(cfg, pos) + 1) << cfg->subbuf_order;
}

/*
 * The slot holding @pos's lap of its sub-buffer.  The first writer of a
 * lap claims the table entry for it (cmpxchg, a full barrier, before any
 * of its stores into the slot); from then on the reader's swap, which
 * expects the previous lap, fails.  A reader that swapped first leaves its
 * spare slot in the entry, and the writer takes that one.
 */
static unsigned long claim_slot(struct ltt_rb_buf *buf, unsigned long pos)
{
	atomic_long_t *e = &buf->table[sb_index(buf->cfg, pos)];
	unsigned long lap = lap_of(buf->cfg, pos);
	long v = atomic_long_read(e), old;

	while ((unsigned long)v >> LTT_RB_SLOT_BITS < lap) {
		old = atomic_long_cmpxchg(e, v, (long)(lap << LTT_RB_SLOT_BITS |
						       (v & LTT_RB_SLOT_MASK)));
		if (old == v)
			break;
		v = old;
	}
	return v & LTT_RB_SLOT_MASK;
}

static inline char *addr_of(struct ltt_rb_buf *buf, unsigned long pos)
{
	return buf->data + (claim_slot(buf, pos) << buf->cfg->subbuf_order) +
	       (pos & (sb_size(buf->cfg) - 1));
}

/*
 * May a writer open the sub-buffer starting at @start?  Its previous lap
 * must be completely committed, and in discard mode also consumed.  On
 * "yes", *@ret_events is the previous lap's events, which the opener
 * takes out (nothing changes the count until the opener's cmpxchg on the
 * position: the lap is complete, and only the opener's CPU writes it).
 * "No" is only an answer for the position the caller loaded: a nested
 * writer may have opened the sub-buffer since (its commit count then
 * holds that writer's bytes), so the caller looks at the position again
 * before it drops anything.
 */
static bool subbuf_free(struct ltt_rb_buf *buf, unsigned long start, long *ret_events)
{
	const struct ltt_rb_config *cfg = buf->cfg;

	if (!cfg->overwrite) {
		/* acquire: the reader is done with the old lap before we write it */
		unsigned long consumed = smp_load_acquire(&buf->consumed);

		if (start - consumed >= 1UL << cfg->buf_order)
			return false;
	}
	*ret_events = local_read(&buf->events[sb_index(cfg, start)]);
	return (unsigned long)local_read(&buf->commit[sb_index(cfg, start)]) ==
	       lap_of(cfg, start) << cfg->subbuf_order;
}

/*
 * The opener claimed @start's slot (open_packet()): start the lap's event
 * count from the @seen events of the previous lap.
 */
static inline void events_rebase(struct ltt_rb_buf *buf, unsigned long start, long seen)
{
	local_sub(seen, &buf->events[sb_index(buf->cfg, start)]);
}

/* Our timestamp, never before the buffer's last one (ktime_get_mono_fast_ns()
 * may step back a little for an NMI that hit a timekeeping update).
 */
static inline u64 rb_ts(struct ltt_rb_buf *buf, u64 *ret_prev)
{
	u64 ts = rb_clock();
	u64 prev = (u64)local_read(&buf->last_ts);

	*ret_prev = prev;
	return (s64)(ts - prev) < 0 ? prev : ts;
}

static void open_packet(struct ltt_rb_buf *buf, unsigned long start, u64 ts)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	struct ltt_rb_packet_header *ph = (void *)addr_of(buf, start);

	ph->magic = LTT_RB_PACKET_MAGIC;
	memcpy(ph->uuid, cfg->uuid, sizeof(ph->uuid));
	ph->stream_id = cfg->stream_id;
	ph->stream_instance_id = buf->cpu;
	ph->timestamp_begin = ts;
	ph->packet_size = (u64)sb_size(cfg) * 8;
	ph->packet_seq_num = start >> cfg->subbuf_order;
	ph->cpu_id = buf->cpu;
}

static void close_packet(struct ltt_rb_buf *buf, unsigned long pos, unsigned long content,
			 u64 ts, unsigned long lost)
{
	struct ltt_rb_packet_header *ph = (void *)addr_of(buf, sb_start(buf->cfg, pos));

	ph->timestamp_end = ts;
	ph->content_size = (u64)content * 8;
	ph->events_discarded = lost;
	local_set(&buf->lost_reported, lost);
}

/* Add @len committed bytes at @pos; true when this completed the packet. */
static inline bool commit_bytes(struct ltt_rb_buf *buf, unsigned long pos, unsigned long len)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long count;

	/* the bytes before the count, for the reader on another CPU */
	smp_wmb();
	count = local_add_return(len, &buf->commit[sb_index(cfg, pos)]);
	return !(count & (sb_size(cfg) - 1));
}

static inline void wake_deferred(struct ltt_rb_buf *buf)
{
	if (buf->cfg->wakeup_by_writer)
		irq_work_queue(&buf->wake_work);
}

/*
 * One loop for every case: an event inside the open packet, one that
 * opens a packet (closing the previous one if it is open), one that fills
 * its packet exactly.  The writer whose local_cmpxchg moves the position
 * across a boundary owns the switch.  The clock is read after loading the
 * position and before the cmpxchg, so timestamps never decrease in buffer
 * order: a nested writer that got in between makes our cmpxchg fail, and
 * we read the clock again.
 */
int ltt_rb_reserve(struct ltt_rb_buf *buf, size_t short_len, size_t long_len,
		   struct ltt_rb_slot *slot)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long s = sb_size(cfg), old, cur, in_sb, start = 0, begin, new;
	unsigned long lost = 0;
	long seen = 0;
	bool open, close_old, close_new, done = false;
	u64 ts = 0, prev;
	size_t len;

	if (unlikely(long_len > s - LTT_RB_HEADER_SIZE || short_len > long_len)) {
		local_inc(&buf->events_lost);
		return -EMSGSIZE;
	}
	old = local_read(&buf->offset);
	for (;;) {
		barrier();	/* the clock read below comes after this load */
		in_sb = old & (s - 1);
		len = short_len;
		open = in_sb == 0 || in_sb + len > s;
		if (!open) {
			ts = rb_ts(buf, &prev);
			if ((ts - prev) >> LTT_RB_COMPACT_BITS) {
				len = long_len;
				if (in_sb + len > s) {
					open = true;	/* first of the next packet */
					len = short_len;
				}
			}
		}
		close_old = open && in_sb;
		if (open) {
			start = sb_start(cfg, old) + (close_old ? s : 0);
			if (!subbuf_free(buf, start, &seen)) {
				/* a nested writer may have opened it since our load */
				cur = local_read(&buf->offset);
				if (cur != old) {
					old = cur;
					continue;
				}
				local_inc(&buf->events_lost);
				return -ENOBUFS;
			}
			begin = start + LTT_RB_HEADER_SIZE;
			ts = rb_ts(buf, &prev);
		} else {
			begin = old;
		}
		new = begin + len;
		close_new = !(new & (s - 1));
		if (close_old || close_new)
			lost = local_read(&buf->events_lost);
		cur = local_cmpxchg(&buf->offset, old, new);
		if (cur == old)
			break;
		old = cur;
	}
	local_set(&buf->last_ts, ts);
	if (close_old) {
		close_packet(buf, old, in_sb, ts, lost);
		done |= commit_bytes(buf, old, s - in_sb);
	}
	if (open) {
		open_packet(buf, start, ts);
		events_rebase(buf, start, seen);
		done |= commit_bytes(buf, start, LTT_RB_HEADER_SIZE);
	}
	if (close_new)
		close_packet(buf, begin, s, ts, lost);
	if (done)
		wake_deferred(buf);
	slot->data = addr_of(buf, begin);
	slot->pos = begin;
	slot->ts = ts;
	slot->len = len;
	return 0;
}

void ltt_rb_commit(struct ltt_rb_buf *buf, const struct ltt_rb_slot *slot)
{
	/* before the bytes' add: commit_bytes()'s smp_wmb() orders it too */
	local_inc(&buf->events[sb_index(buf->cfg, slot->pos)]);
	if (commit_bytes(buf, slot->pos, slot->len))
		wake_deferred(buf);
}

bool ltt_rb_flush_local(struct ltt_rb_buf *buf, bool report_loss)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long s = sb_size(cfg), old, cur, in_sb, new, lost;
	long seen = 0;
	u64 ts, prev;

	old = local_read(&buf->offset);
	for (;;) {
		barrier();
		in_sb = old & (s - 1);
		if (!in_sb) {
			if (!report_loss ||
			    local_read(&buf->events_lost) == local_read(&buf->lost_reported))
				return false;
			if (!subbuf_free(buf, old, &seen)) {
				cur = local_read(&buf->offset);
				if (cur == old)
					return false;
				old = cur;	/* a nested writer moved it: look again */
				continue;
			}
		}
		new = sb_start(cfg, old) + s;
		ts = rb_ts(buf, &prev);
		lost = local_read(&buf->events_lost);
		cur = local_cmpxchg(&buf->offset, old, new);
		if (cur == old)
			break;
		old = cur;
	}
	local_set(&buf->last_ts, ts);
	if (!in_sb) {
		/* an empty packet: header only, opened and closed at once */
		open_packet(buf, old, ts);
		events_rebase(buf, old, seen);
		close_packet(buf, old, LTT_RB_HEADER_SIZE, ts, lost);
		return commit_bytes(buf, old, s);
	}
	close_packet(buf, old, in_sb, ts, lost);
	return commit_bytes(buf, old, s - in_sb);
}

struct flush_arg {
	struct ltt_rb_buf *buf;
	bool report_loss;
	bool done;
};

static void flush_fn(void *info)
{
	struct flush_arg *a = info;

	a->done = ltt_rb_flush_local(a->buf, a->report_loss);
}

void ltt_rb_flush(struct ltt_rb_buf *buf, bool report_loss)
{
	struct flush_arg a = { .buf = buf, .report_loss = report_loss };

	/*
	 * The position is only ever changed by its CPU (local operations), so
	 * flush there.  With hotplug held off, an offline CPU runs no writer:
	 * flush from here.
	 */
	cpus_read_lock();
	if (cpu_online(buf->cpu))
		smp_call_function_single(buf->cpu, flush_fn, &a, 1);
	else
		flush_fn(&a);
	cpus_read_unlock();
	if (a.done)
		wake_up_interruptible(&buf->read_wait);
}

/*
 * The switch timer one period from now, on its buffer's CPU (pinned), or
 * anywhere while that CPU is offline: the first arming and each re-arming.
 */
static void timer_arm(struct ltt_rb_buf *buf)
{
	struct timer_list *t = &buf->switch_timer;

	t->expires = jiffies + buf->cfg->switch_timer_jiffies;
	if (cpu_online(buf->cpu))
		add_timer_on(t, buf->cpu);
	else
		add_timer(t);
}

static void switch_timer_fn(struct timer_list *t)
{
	struct ltt_rb_buf *buf = ltt_from_timer(buf, t, switch_timer);
	bool flushed;

	/*
	 * Like a writer, the flush must not be preempted by another writer of
	 * this CPU between moving the position and committing: softirq context
	 * guarantees it, except under PREEMPT_RT, where timer callbacks run in
	 * a preemptible thread (migration disabled only).  Pinned; after a
	 * hotplug migration it may run elsewhere: skip then.
	 */
	preempt_disable();
	flushed = smp_processor_id() == buf->cpu && ltt_rb_flush_local(buf, false);
	preempt_enable();
	if (flushed)
		wake_up_interruptible(&buf->read_wait);
	if (READ_ONCE(buf->timer_stop))
		return;
	timer_arm(buf);
}

void ltt_rb_timer_start(struct ltt_rb_buf *buf)
{
	struct timer_list *t = &buf->switch_timer;

	if (!buf->cfg->switch_timer_jiffies || timer_pending(t))
		return;
	WRITE_ONCE(buf->timer_stop, false);
	/* hotplug held off by the caller (lockdep_assert_cpus_held() is not exported) */
	timer_arm(buf);
}

void ltt_rb_timer_stop(struct ltt_rb_buf *buf)
{
	WRITE_ONCE(buf->timer_stop, true);
	ltt_timer_delete_sync(&buf->switch_timer);
}

void ltt_rb_finalize(struct ltt_rb_buf *buf)
{
	ltt_rb_timer_stop(buf);
	/* under the reader's lock: a FLUSH ioctl is before or after it all */
	mutex_lock(&buf->lock);
	ltt_rb_flush(buf, true);
	/* release: the final flush's packets before the flag */
	smp_store_release(&buf->finalized, true);
	mutex_unlock(&buf->lock);
	wake_up_interruptible_all(&buf->read_wait);
}

static void wake_work_fn(struct irq_work *work)
{
	struct ltt_rb_buf *buf = container_of(work, struct ltt_rb_buf, wake_work);

	wake_up_interruptible(&buf->read_wait);
}

/* Reader side. */

static void skip_to(struct ltt_rb_buf *buf, unsigned long to)
{
	buf->packets_lost += (to - buf->consumed) >> buf->cfg->subbuf_order;
	/* release: pairs with the acquire in subbuf_free() */
	smp_store_release(&buf->consumed, to);
}

int ltt_rb_get_subbuf(struct ltt_rb_buf *buf, u64 *ret_slot_off, u64 *ret_content,
		      u64 *ret_seq, u64 *ret_events)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long s = sb_size(cfg), b = 1UL << cfg->buf_order;
	unsigned long pos, w, lap, idx, count, slot, events;
	const struct ltt_rb_packet_header *ph;
	bool finalized;
	long v;
	int i;

	if (buf->held)
		return -EBUSY;
	for (i = 0; i < GET_RETRIES; i++) {
		/* acquire: pairs with ltt_rb_finalize(): its final packets are seen */
		finalized = smp_load_acquire(&buf->finalized);
		pos = buf->consumed;
		w = local_read(&buf->offset);
		/* the write offset before the table entry and commit count below */
		smp_rmb();
		if (cfg->overwrite && w > pos + b) {
			/* lapped: the oldest packet writers cannot have entered */
			skip_to(buf, round_up(w, s) - b);
			continue;
		}
		if (w < pos + s)
			return finalized ? -ENODATA : -EAGAIN;
		idx = sb_index(cfg, pos);
		lap = lap_of(cfg, pos);
		v = atomic_long_read(&buf->table[idx]);
		if ((unsigned long)v >> LTT_RB_SLOT_BITS > lap)
			continue;	/* writers entered the next lap: reload */
		if ((unsigned long)v >> LTT_RB_SLOT_BITS < lap)
			return -EAGAIN;	/* its opener has not claimed it yet */
		count = local_read(&buf->commit[idx]);
		if (count != commit_full(cfg, pos)) {
			if (cfg->overwrite && count > commit_full(cfg, pos))
				continue;
			return -EAGAIN;	/* a writer is still inside */
		}
		smp_rmb();	/* the packet's bytes after its count */
		/*
		 * Read before the swap (a full barrier): a next-lap opener
		 * rebases the count only after claiming the slot, which makes
		 * the swap below fail.
		 */
		events = (unsigned long)local_read(&buf->events[idx]);
		if (atomic_long_cmpxchg(&buf->table[idx], v,
					(long)(lap << LTT_RB_SLOT_BITS | buf->spare_slot)) != v)
			continue;	/* a writer claimed the next lap first */
		slot = v & LTT_RB_SLOT_MASK;
		buf->held = true;
		buf->held_slot = slot;
		buf->spare_slot = cfg->num_subbuf + 1;	/* none until the put */
		buf->read_off = 0;
		ph = (const void *)(buf->data + (slot << cfg->subbuf_order));
		*ret_slot_off = (u64)slot << cfg->subbuf_order;
		*ret_content = ph->content_size / 8;
		*ret_seq = pos >> cfg->subbuf_order;
		/* each event has a byte at least: bounds a count gone wrong */
		*ret_events = min_t(u64, events, *ret_content - LTT_RB_HEADER_SIZE);
		buf->held_content = *ret_content;
		buf->held_events = *ret_events;
		return 0;
	}
	return -EAGAIN;
}

int ltt_rb_get_held(struct ltt_rb_buf *buf, u64 *ret_slot_off, u64 *ret_content,
		    u64 *ret_seq, u64 *ret_events)
{
	if (!buf->held)
		return -ENOENT;
	buf->read_off = 0;	/* splice starts again at its first byte */
	*ret_slot_off = (u64)buf->held_slot << buf->cfg->subbuf_order;
	*ret_content = buf->held_content;
	*ret_seq = buf->consumed >> buf->cfg->subbuf_order;
	*ret_events = buf->held_events;
	return 0;
}

int ltt_rb_put_subbuf(struct ltt_rb_buf *buf)
{
	if (!buf->held)
		return -EINVAL;
	buf->held = false;
	buf->spare_slot = buf->held_slot;
	/* release: our reads of the packet are over before writers reuse room */
	smp_store_release(&buf->consumed, buf->consumed + sb_size(buf->cfg));
	return 0;
}

bool ltt_rb_ready(struct ltt_rb_buf *buf)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long pos = READ_ONCE(buf->consumed) + (READ_ONCE(buf->held) ? sb_size(cfg) : 0);
	unsigned long w = local_read(&buf->offset);

	if (w < pos + sb_size(cfg))
		return false;
	if (cfg->overwrite && w > pos + (1UL << cfg->buf_order))
		return true;
	return (unsigned long)local_read(&buf->commit[sb_index(cfg, pos)]) ==
	       commit_full(cfg, pos);
}

/*
 * Snapshots: reading without consuming.  Nothing here stores to the buffer
 * or moves @consumed; the reader's lock keeps GET/PUT out meanwhile.
 */

void ltt_rb_snapshot_span(struct ltt_rb_buf *buf, u64 *ret_begin, u64 *ret_end,
			  u64 *ret_produced)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long s = sb_size(cfg), b = 1UL << cfg->buf_order;
	unsigned long w = local_read(&buf->offset), end = sb_start(cfg, w);
	unsigned long begin = buf->consumed, oldest;

	if (cfg->overwrite) {
		/* the oldest packet whose index writers have not entered again */
		oldest = end + (w != end ? s : 0);
		oldest = oldest >= b ? oldest - b : 0;
		if (oldest > begin)
			begin = oldest;
	}
	if (begin > end)
		begin = end;
	*ret_begin = begin;
	*ret_end = end;
	*ret_produced = w;
}

/* The held packet: writers never write it, copy it as it is. */
static int peek_held(struct ltt_rb_buf *buf, void __user *ubuf, u64 *ret_content,
		     u64 *ret_events)
{
	const char *src = buf->data + (buf->held_slot << buf->cfg->subbuf_order);

	if (copy_to_user(ubuf, src, sb_size(buf->cfg)))
		return -EFAULT;
	*ret_content = buf->held_content;
	*ret_events = buf->held_events;
	return 0;
}

int ltt_rb_snapshot_peek(struct ltt_rb_buf *buf, unsigned long pos, void __user *ubuf,
			 u64 *ret_content, u64 *ret_events)
{
	const struct ltt_rb_config *cfg = buf->cfg;
	unsigned long s = sb_size(cfg), b = 1UL << cfg->buf_order;
	unsigned long w, idx = sb_index(cfg, pos), lap = lap_of(cfg, pos), count, events;
	const struct ltt_rb_packet_header *ph;
	u64 content;
	long v;

	if (pos < buf->consumed)
		return -ESTALE;	/* read by the reader: its slot went back as the spare */
	if (buf->held && pos == buf->consumed)
		return peek_held(buf, ubuf, ret_content, ret_events);
	w = local_read(&buf->offset);
	/* the write offset before the table entry and commit count below */
	smp_rmb();
	if (w < pos + s)
		return -EAGAIN;
	if (w > pos + b)
		return -ESTALE;	/* writers reserved in its next lap */
	v = atomic_long_read(&buf->table[idx]);
	if ((unsigned long)v >> LTT_RB_SLOT_BITS > lap)
		return -ESTALE;
	if ((unsigned long)v >> LTT_RB_SLOT_BITS < lap)
		return -EAGAIN;	/* its opener has not claimed it yet */
	count = local_read(&buf->commit[idx]);
	if (count != commit_full(cfg, pos))
		return count > commit_full(cfg, pos) ? -ESTALE : -EAGAIN;
	smp_rmb();	/* the packet's bytes and events after its count */
	events = (unsigned long)local_read(&buf->events[idx]);
	ph = (const void *)(buf->data + ((v & LTT_RB_SLOT_MASK) << cfg->subbuf_order));
	content = READ_ONCE(ph->content_size) / 8;
	if (copy_to_user(ubuf, ph, s))
		return -EFAULT;
	/*
	 * The copy before the entry: pairs with the writer's claim (a full
	 * barrier before its first store into the slot).  Unchanged: no byte
	 * copied, nor the count or content size, is from a later lap.
	 */
	smp_rmb();
	if (atomic_long_read(&buf->table[idx]) != v)
		return -ESTALE;
	if (content < LTT_RB_HEADER_SIZE || content > s)
		return -ESTALE;	/* cannot be: a complete lap's header */
	*ret_content = content;
	*ret_events = min_t(u64, events, content - LTT_RB_HEADER_SIZE);
	return 0;
}

/*
 * The data area: zeroed pages of the CPU's node (no allocation failure
 * warning: a too large request from the daemon is just -ENOMEM), mapped
 * contiguously for the writers with vmap().  Readers map and splice the
 * pages themselves.
 */
static int alloc_data(struct ltt_rb_buf *buf, int node)
{
	unsigned long i, n = ltt_rb_map_size(buf->cfg) >> PAGE_SHIFT;

	buf->pages = kvcalloc(n, sizeof(*buf->pages), GFP_KERNEL | __GFP_NOWARN);
	if (!buf->pages)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		buf->pages[i] = alloc_pages_node(node, GFP_KERNEL | __GFP_ZERO | __GFP_NOWARN |
						 __GFP_RETRY_MAYFAIL, 0);
		if (!buf->pages[i])
			return -ENOMEM;
		buf->nr_pages++;
		if (!(i & 1023)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	buf->data = vmap(buf->pages, n, VM_MAP, PAGE_KERNEL);
	return buf->data ? 0 : -ENOMEM;
}

struct ltt_rb_buf *ltt_rb_buf_create(const struct ltt_rb_config *cfg, int cpu)
{
	int node = cpu_to_node(cpu);
	struct ltt_rb_buf *buf;
	unsigned long i;

	BUILD_BUG_ON(sizeof(struct ltt_rb_packet_header) != LTT_RB_HEADER_SIZE);
	buf = kzalloc_node(sizeof(*buf), GFP_KERNEL, node);
	if (!buf)
		return NULL;
	buf->cfg = cfg;
	buf->cpu = cpu;
	init_irq_work(&buf->wake_work, wake_work_fn);
	buf->commit = kvzalloc_node(cfg->num_subbuf * sizeof(*buf->commit), GFP_KERNEL, node);
	buf->events = kvzalloc_node(cfg->num_subbuf * sizeof(*buf->events), GFP_KERNEL, node);
	buf->table = kvzalloc_node(cfg->num_subbuf * sizeof(*buf->table), GFP_KERNEL, node);
	if (!buf->commit || !buf->events || !buf->table || alloc_data(buf, node)) {
		ltt_rb_buf_destroy(buf);
		return NULL;
	}
	for (i = 0; i < cfg->num_subbuf; i++)
		atomic_long_set(&buf->table[i], (long)i);	/* lap 0, slot i */
	buf->spare_slot = cfg->num_subbuf;
	mutex_init(&buf->lock);
	init_waitqueue_head(&buf->read_wait);
	timer_setup(&buf->switch_timer, switch_timer_fn, TIMER_PINNED);
	buf->timer_stop = true;
	return buf;
}

void ltt_rb_mem(const struct ltt_rb_buf *buf, u64 *ret_bytes, u64 *ret_data)
{
	u64 per_subbuf = sizeof(*buf->commit) + sizeof(*buf->events) + sizeof(*buf->table);

	*ret_data = (u64)buf->nr_pages << PAGE_SHIFT;
	*ret_bytes = *ret_data + buf->nr_pages * sizeof(*buf->pages) +
		     buf->cfg->num_subbuf * per_subbuf + sizeof(*buf);
}

void ltt_rb_buf_destroy(struct ltt_rb_buf *buf)
{
	unsigned long i;

	if (!buf)
		return;
	irq_work_sync(&buf->wake_work);
	if (buf->data)
		vunmap(buf->data);
	/* pages still in a pipe or a mapping live on through their references */
	for (i = 0; i < buf->nr_pages; i++)
		put_page(buf->pages[i]);
	kvfree(buf->pages);
	kvfree(buf->commit);
	kvfree(buf->events);
	kvfree(buf->table);
	kfree(buf);
}
