// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-tracefs.c - the "tracefs" source: trace_pipe_raw pages into CTF
 * packets.  See source-tracefs.h for what the kernel does and the design.
 * A source at work first, then one made (ltt_source_tracefs_create()):
 * the pipe made non-blocking, its stats file found, the converter given
 * the map's layouts and the channel's contexts, the packet queue, and
 * the CPU's BPF ring attached.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/bpf/bpf-ring.h"
#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-conv.h"
#include "common/ftrace/ftrace-map.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs-stats.h"
#include "consumerd/source/source-tracefs.h"
#include "filter-vm/filter-vm.h"

/* The largest ring-buffer page read (buffer_subbuf_size_kb); 4096 here. */
#define PAGE_MAX 65536
/* Packets of one page's conversion, at most: a page's records grow about 2x. */
#define QUEUE_MAX 8
/* A snapshot trace's ring, in packets: the kernel's sub-buffer count limits (2^20). */
#define KEEP_MAX (1u << 20)

/* A page read ahead for the task table, converted at its turn. */
struct ahead_page {
	struct ahead_page *next;
	size_t len;
	uint64_t read_ns;		/* when it was read (CLOCK_MONOTONIC) */
	uint8_t data[];
};

/* A finished packet waiting to be written: the content, its index entry. */
struct queued {
	uint8_t *buf;			/* packet_size bytes */
	struct ltt_ctf_index_entry idx;
	uint64_t events;
};

struct tracefs_source {
	struct ltt_source base;
	int fd;				/* trace_pipe_raw (ours) */
	int stats_fd;			/* per_cpu/cpuN/stats, or -1 */
	uint64_t dropped;		/* ftrace's losses (ltt_tfs_stats_lost()), last counted */
	uint64_t read_start;		/* ftrace's "read events" at the start (the ledger's) */
	bool has_read_start;		/* it was read: the source keeps a ledger */
	struct ltt_tfs_events *events;	/* the channel's (borrowed) */
	uint32_t mapped;		/* of events->nr, mapped into conv */
	uint64_t gen;			/* events->gen the converter's filters follow */
	struct ltt_ftrace_conv conv;
	uint8_t *page;			/* PAGE_MAX bytes */
	size_t page_len;		/* of the page the side stopped (conv.paused) */
	struct queued *q;		/* q_len slots */
	unsigned int q_len, q_head, q_count;	/* slots, first, waiting */
	bool held;			/* q[q_head] is out (get without put) */
	bool keep;			/* a snapshot trace's: q is a ring of the newest packets */
	uint64_t q_pos;			/* keep: the position of q[q_head], in packets */
	bool flush;			/* switch asked: close the packet once read empty */
	bool span;			/* span asked: close it even empty, at that time */
	uint64_t budget;		/* pages a wakeup or a switch reads at most */
	uint64_t reads;			/* pages read since the last -EAGAIN */
	bool caught_up;			/* a wakeup's reads reached a short page */
	uint64_t read_errors;		/* reads that failed (not EAGAIN) or gave no page */
	struct tracefs_source *sib;	/* the channel's next source */
	struct ahead_page *ahead, **ahead_tail;	/* pages read ahead, oldest first */
	uint64_t nr_ahead;
	/*
	 * The CPU's BPF ring (doc/kernel-bpf.md; ring.prod NULL: none): its
	 * records go into the stream in time order with the pipe's, and
	 * what the program could not put there (lost[cpu]) is discarded.
	 */
	struct ltt_bpf_ring ring;
	const uint64_t *lost;		/* the channel's lost counts, mapped, or NULL */
	size_t lost_len;
	uint64_t lost_seen;		/* of lost[cpu], counted already */
	uint64_t bpf_torn;		/* ring records too short to hold a record */
	int ep;				/* with a ring: an epoll of the pipe and the ring, or -1 */
	/*
	 * The stamp of the ring's oldest record when last peeked (RING_IDLE:
	 * there was none; 0: look): it stays the oldest until taken, so a
	 * page record before it needs no look at the ring.
	 */
	uint64_t ring_next;
	/*
	 * The ring's records stamped up to here are older than any the pipe
	 * has not given yet: the time before the last read that reached the
	 * kernel's page (a short page, or none), CLOCK_MONOTONIC as both
	 * sources' stamps.  A record stamped before it and committed after
	 * that read is one a BPF system call record cannot interleave with.
	 */
	uint64_t drain_upto;
};

#define RING_IDLE UINT64_MAX

/* Give the converter the channel's current filters, of the events it maps. */
static void push_filters(struct tracefs_source *t)
{
	const struct ltt_ftrace_event *layout;
	struct tfs_filter *tf;

	for (tf = t->events->filters; tf; tf = tf->next) {
		layout = ltt_tfs_events_layout(t->events, tf->f.ftrace_id, tf->f.raw_id);
		if (!layout)
			continue;	/* pushed once its entry is published */
		ltt_tfs_events_filter_check(tf, layout, t->base.label);
		ltt_ftrace_conv_set_filter(&t->conv, tf->f.ftrace_id, tf->f.raw_id, &tf->f);
	}
	t->gen = t->events->gen;
}

/* Map what the channel's copy holds and this converter does not yet. */
static void sync_map(struct tracefs_source *t)
{
	struct ltt_tfs_events *ev = t->events;
	int ret;

	ltt_tfs_events_sync(ev, t->base.label);
	for (; t->mapped < ev->nr; t->mapped++) {
		if (ev->raw_id[t->mapped])
			ret = ltt_ftrace_conv_map_raw(&t->conv, ev->raw_id[t->mapped],
						      ev->ctf_id[t->mapped], ev->layout[t->mapped]);
		else
			ret = ltt_ftrace_conv_map(&t->conv, ev->layout[t->mapped]->id,
						  ev->ctf_id[t->mapped], ev->layout[t->mapped]);
		if (ret == -ENOMEM)
			return;		/* tried again at the next page */
		if (ret)
			LTT_ERR("%s: event %s:%s refused by the conversion (%s): its records are skipped",
				t->base.label, ev->layout[t->mapped]->system,
				ev->layout[t->mapped]->name, strerror(-ret));
	}
	if (t->gen != ev->gen)
		push_filters(t);
}

/* The converter's emit: queue a copy of the packet, or refuse it (counted). */
static int enqueue(void *arg, const void *packet, size_t size,
		   const struct ltt_ctf_index_entry *idx)
{
	struct tracefs_source *t = arg;
	size_t content = (size_t)((idx->content_size + 7) / 8);
	struct queued *q;

	if (size != t->base.packet_size || content > size)
		return -ENOBUFS;
	if (t->q_count == t->q_len && t->keep) {
		/* the oldest packet makes room: a flight recorder's, not a loss */
		t->q_head = (t->q_head + 1) % t->q_len;
		t->q_count--;
		t->q_pos++;
	}
	if (t->q_count == t->q_len)
		return -ENOBUFS;
	q = &t->q[(t->q_head + t->q_count) % t->q_len];
	/* the sink writes the padding (ltt_sink_packet_content()) */
	memcpy(q->buf, packet, content);
	q->idx = *idx;
	q->events = t->conv.pkt_events;
	t->q_count++;
	return 0;
}

/* ---- the CPU's BPF ring ---- */

/* What the program lost since the last look: discarded. */
static void bpf_count_lost(struct tracefs_source *t)
{
	uint64_t now;

	if (!t->lost)
		return;
	now = __atomic_load_n(&t->lost[t->conv.cpu], __ATOMIC_RELAXED);
	if (now > t->lost_seen) {
		ltt_ftrace_conv_add_discarded(&t->conv, now - t->lost_seen);
		t->lost_seen = now;
	}
}

/* Has the packet queue room for two more packets?  A snapshot's ring always has. */
static bool has_room(const struct tracefs_source *t)
{
	return t->keep || t->q_count + 2 <= t->q_len;
}

/*
 * The ring's records stamped up to @upto into the stream, while the
 * packet queue has room for two more.  True when records are left that
 * @upto allows (the queue filled: they wait for room).
 */
static bool bpf_take(struct tracefs_source *t, uint64_t upto, ltt_ftrace_emit_fn emit, void *arg)
{
	const uint8_t *p;
	uint32_t len;
	uint64_t ts;
	bool left = false;

	bpf_count_lost(t);
	while ((p = ltt_bpf_ring_peek(&t->ring, &len))) {
		if (len < 8 + 8) {	/* a stamp and a common header at least */
			t->bpf_torn++;
			ltt_ftrace_conv_add_discarded(&t->conv, 1);
			ltt_bpf_ring_next(&t->ring);
			ltt_source_ledger_note(&t->base);
			continue;
		}
		memcpy(&ts, p, sizeof(ts));
		t->ring_next = ts;
		if (ts > upto || !has_room(t)) {
			left = ts <= upto;
			break;
		}
		(void)ltt_ftrace_conv_record(&t->conv, ts, p + 8, len - 8, emit, arg);
		ltt_bpf_ring_next(&t->ring);
		/* in no ring now: in the ledger (source.h) at once */
		ltt_source_ledger_note(&t->base);
	}
	if (!p)
		t->ring_next = RING_IDLE;	/* none committed (or the oldest is not yet) */
	return left;
}

/*
 * The converter's side, before the page's record at @ts: the ring's
 * records of before.  Each waits for room in the queue, and the page's
 * record too (true: the converter stops the page, refill() resumes it
 * once the queue is read).  Per page record, when the ring has nothing
 * older: no look at it (its oldest is known later), or one load (it had
 * nothing).
 */
static bool ltt_tfs_bpf_side(void *arg, uint64_t ts, ltt_ftrace_emit_fn emit, void *emit_arg)
{
	struct tracefs_source *t = arg;

	if (!has_room(t))
		return true;
	if (t->ring_next == RING_IDLE ? ltt_bpf_ring_idle(&t->ring) : ts < t->ring_next)
		return false;
	return bpf_take(t, ts, emit, emit_arg);
}

/*
 * What the ring holds that is older than anything the pipe will give
 * (drain_upto).  True when records are left (the queue filled).
 */
static bool bpf_drain(struct tracefs_source *t)
{
	bool left;

	if (!t->ring.prod)
		return false;
	sync_map(t);
	t->events->converting = t;	/* a record's lookahead reads the others' buffers, not this one's */
	left = bpf_take(t, t->drain_upto, enqueue, t);
	t->events->converting = NULL;
	return left;
}

/*
 * Was the page just read (@n bytes) less than half full?  Then the read
 * reached the page the kernel is writing: what follows is what came
 * since, the reader's own system calls among them when they are traced.
 */
static bool page_short(const struct tracefs_source *t, size_t n)
{
	const struct ltt_ftrace_page_layout *pl = &t->conv.page;
	uint64_t commit = 0;

	if (pl->commit_offset > n || pl->commit_size > sizeof(commit) ||
	    pl->commit_size > n - pl->commit_offset)
		return true;
	memcpy(&commit, t->page + pl->commit_offset, pl->commit_size);	/* little-endian */
	commit &= (1u << 30) - 1;	/* bits 30, 31: the missed-events flags */
	return commit < (n - pl->data_offset) / 2;
}

/*
 * Convert the page read (t->page, @len bytes), or with @resume the rest
 * of the one the side stopped: 0, or -EIO (shorter than its header, not
 * a page).  A page stopped (the queue is full) waits in t->page.
 */
static int convert(struct tracefs_source *t, size_t len, bool resume)
{
	int ret;

	sync_map(t);
	t->events->converting = t;
	ret = resume ? ltt_ftrace_conv_resume(&t->conv, t->page, len, enqueue, t)
		     : ltt_ftrace_conv_page(&t->conv, t->page, len, enqueue, t);
	t->events->converting = NULL;
	ltt_source_ledger_note(&t->base);	/* its records taken (source.h) */
	if (ret == -EAGAIN)
		t->page_len = len;
	/* -EINVAL: shorter than its header, not a page; else the queue's, counted */
	return ret == -EINVAL ? -EIO : 0;
}

/*
 * Read one page and convert it: 0, 1 (it was short: page_short()),
 * -EAGAIN (empty), or read()'s error.
 */
static int read_page(struct tracefs_source *t)
{
	struct ahead_page *a = t->ahead;
	uint64_t read_ns;
	ssize_t n;
	int ret;

	if (a) {	/* read ahead already: its turn */
		n = (ssize_t)a->len;
		read_ns = a->read_ns;
		memcpy(t->page, a->data, a->len);
		t->ahead = a->next;
		if (!t->ahead)
			t->ahead_tail = &t->ahead;
		t->nr_ahead--;
		free(a);
	} else {
		read_ns = ltt_source_now(&t->base);
		n = read(t->fd, t->page, PAGE_MAX);
	}
	if (n < 0 && errno != EAGAIN)
		return -errno;
	if (n <= 0) {
		t->drain_upto = read_ns;	/* what was committed is read */
		return -EAGAIN;
	}
	t->reads++;
	if (convert(t, (size_t)n, false))
		return -EIO;
	ret = page_short(t, (size_t)n);
	if (ret)
		t->drain_upto = read_ns;	/* the read reached the kernel's page */
	return ret;
}

/*
 * Read @t's buffer ahead, as far as its budget, into its list of pages
 * read ahead, and apply what their records change in the task table.
 */
static void read_ahead(struct tracefs_source *t)
{
	struct ahead_page *a;
	ssize_t n;

	sync_map(t);
	while (t->nr_ahead < t->budget) {
		a = malloc(sizeof(*a) + PAGE_MAX);
		if (!a)
			return;
		a->read_ns = ltt_source_now(&t->base);
		n = read(t->fd, a->data, PAGE_MAX);
		if (n <= 0) {
			free(a);
			return;		/* an error: the page's turn reads it again */
		}
		a->len = (size_t)n;
		a->next = NULL;
		*t->ahead_tail = a;
		t->ahead_tail = &a->next;
		t->nr_ahead++;
		(void)ltt_ftrace_conv_scan_tasks(&t->conv, a->data, a->len);
	}
}

/*
 * The task table's lookahead (ltt_ftrace_tasks_set_lookahead()): a task
 * met on one CPU, gone from /proc, whose fork waits in another's buffer.
 * Each source's pages read ahead are converted at its turn.  Not the
 * source converting: a fork is in its buffer before the child's records
 * (already read), and its converter is in use.
 */
static void ltt_tfs_lookahead(void *arg)
{
	struct ltt_tfs_events *ev = arg;
	struct tracefs_source *t;

	for (t = ev->sources; t; t = t->sib)
		if (t != ev->converting)
			read_ahead(t);
}

/*
 * Stop reading until the next wakeup: ask the kernel for one.  ftrace
 * arms its buffer_percent wakeup only when the file is polled, and an
 * edge-triggered epoll polls it only when woken, so without this the
 * first wakeup would be the last.  True when the buffer is already past
 * that level: read on (within the budget).
 */
static bool rearm(struct tracefs_source *t)
{
	struct pollfd p = { .fd = t->fd, .events = POLLIN };

	t->reads = 0;
	return poll(&p, 1, 0) == 1 && (p.revents & POLLIN);
}

/*
 * A switch asked for: close the partial packet.  A span's (a stop's, a
 * chunk's end) closes one even without events, at the time of the read
 * that found the buffer empty (@drained; else the stream's latest): a
 * record the kernel was committing then, read later, is raised to it.
 */
static int flushed(struct tracefs_source *t, bool drained)
{
	t->flush = false;
	t->caught_up = false;
	t->reads = 0;
	/* -ENODATA: no packet open; an emit error is counted by the converter */
	if (t->span)
		ltt_ftrace_conv_close_at(&t->conv, drained ? t->drain_upto : 0, enqueue, t);
	else
		ltt_ftrace_conv_flush(&t->conv, enqueue, t);
	t->span = false;
	return t->q_count ? 0 : -EAGAIN;
}

/* @pkt: the packet @q, its @size bytes at @buf (q's or a copy). */
static void fill_packet(const struct queued *q, void *buf, uint64_t size,
			struct ltt_sink_packet *pkt)
{
	pkt->len = size;
	pkt->iov[0].iov_base = buf;
	pkt->iov[0].iov_len = (size_t)size;
	pkt->iovcnt = 1;
	pkt->splice_fd = -1;
	pkt->events = q->events;
	pkt->entry = q->idx;
}

/* A read that failed, or gave no page: counted, logged once. */
static void read_failed(struct tracefs_source *t, int err)
{
	if (t->read_errors++)
		return;
	if (err == -EIO)
		LTT_ERR("%s: a read gave less than a page header: skipped, counted lost (further ones are not logged)",
			t->base.label);
	else
		LTT_ERR("%s: can't read a page: %s (counted; further ones are not logged)",
			t->base.label, strerror(-err));
}

/*
 * Fill the queue: read pages until one yields a packet.  A wakeup's reads
 * end at a short page (the kernel's current one) or an empty buffer; a
 * switch's, at an empty buffer, then it closes the partial packet.  Both
 * read at most the buffer's pages (budget): the reader's own system
 * calls, when traced, would otherwise keep a page of their own ready
 * for it forever.  A read that fails is counted; the next wakeup or
 * timer tries again.
 */
static int refill(struct tracefs_source *t)
{
	bool spent;
	int ret;

	while (!t->q_count) {
		if (t->conv.paused) {	/* the page the queue stopped: its rest first */
			(void)convert(t, t->page_len, true);
			continue;
		}
		if (t->caught_up && !t->flush) {
			t->caught_up = false;
			if (!rearm(t))
				return bpf_drain(t) || t->q_count ? 0 : -EAGAIN;
		}
		spent = t->reads >= t->budget;
		ret = spent ? -EAGAIN : read_page(t);
		if (ret == 1)
			t->caught_up = !t->flush;
		if (ret >= 0)
			continue;
		/* the pipe is empty: the ring's records come next */
		if (ret == -EAGAIN && !spent && (bpf_drain(t) || t->q_count))
			continue;
		if (ret != -EAGAIN)
			read_failed(t, ret);
		if (ret == -EIO)
			continue;	/* that read consumed it: the next one */
		if (t->flush)
			return flushed(t, ret == -EAGAIN && !spent);
		if (!rearm(t))
			return -EAGAIN;
	}
	return 0;
}

static int tracefs_get(struct ltt_source *src, struct ltt_scratch *scratch,
		       struct ltt_sink_packet *ret_pkt)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	int ret;

	(void)scratch;
	if (t->held)
		return -EBUSY;
	ret = refill(t);
	if (ret)
		return ret;
	/* the head of the queue, lent until put */
	fill_packet(&t->q[t->q_head], t->q[t->q_head].buf, t->base.packet_size, ret_pkt);
	t->held = true;
	return 0;
}

static int tracefs_put(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	if (!t->held)
		return -EINVAL;
	t->held = false;
	t->q_head = (t->q_head + 1) % t->q_len;
	t->q_count--;
	t->q_pos++;		/* keep mode's positions follow the head */
	return 0;
}

/*
 * Events ftrace dropped (a full buffer) or overwrote since the last look:
 * discarded.  A total that went back (the instance's buffer reset by
 * another tool: ltt resets none it uses) counts again from 0.
 */
static void count_dropped(struct tracefs_source *t)
{
	uint64_t now;

	if (ltt_tfs_stats_lost(t->stats_fd, &now) || now == t->dropped)
		return;
	ltt_ftrace_conv_add_discarded(&t->conv, now > t->dropped ? now - t->dropped : now);
	t->dropped = now;
}

/*
 * Count discarded what ftrace and the BPF program lost since the last
 * look (running totals): at each switch, and at the start, so that a
 * stream taken over says in its first packet what was lost before (its
 * packets' events_discarded never step back).
 */
static void ltt_tfs_count_lost(struct tracefs_source *t)
{
	count_dropped(t);
	bpf_count_lost(t);
}

/*
 * Close the open packet: once every page the kernel holds is read (get
 * goes on until EAGAIN), the converter's partial packet is flushed.
 */
static void tracefs_switch(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	ltt_tfs_count_lost(t);	/* in this packet */
	t->flush = true;
}

/* The writers stopped, or the chunk ends: close a packet, even empty, once read empty. */
static void tracefs_span(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	tracefs_switch(src);
	t->span = true;
}

/*
 * A live beacon told the reader the stream is quiet up to @ts: the next
 * packet (the stop's empty one too) begins there, not at the start or at
 * the last packet's end (ltt_ftrace_conv_idle()).
 */
static void tracefs_idle(struct ltt_source *src, uint64_t ts)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	ltt_ftrace_conv_idle(&t->conv, ts);
}

static void tracefs_stats(const struct ltt_source *src, struct ltt_channel_stats *stats)
{
	const struct tracefs_source *t = (const struct tracefs_source *)src;
	struct ltt_ftrace_conv_stats st;
	uint64_t dropped;

	ltt_ftrace_conv_stats(&t->conv, &st);
	ltt_add_sat(&stats->events_lost, st.discarded);
	/* dropped since the last switch: in the next packet's events_discarded */
	if (!ltt_tfs_stats_lost(t->stats_fd, &dropped) && dropped > t->dropped)
		ltt_add_sat(&stats->events_lost, dropped - t->dropped);
	/* and what the BPF program lost since */
	if (t->lost && t->lost[t->conv.cpu] > t->lost_seen)
		ltt_add_sat(&stats->events_lost, t->lost[t->conv.cpu] - t->lost_seen);
	ltt_add_sat(&stats->packets_lost, t->read_errors);
}

/*
 * What the converter discarded itself, of its counts @st: its count less
 * ftrace's dropped events and the BPF ring's losses as this source took
 * them in (running totals, which a consumer taking the stream over reads
 * again).
 */
static uint64_t own_of(const struct tracefs_source *t, const struct ltt_ftrace_conv_stats *st)
{
	uint64_t totals = t->dropped;

	ltt_add_sat(&totals, t->lost_seen);
	return st->discarded > totals ? st->discarded - totals : 0;
}

/* The converter's own discards now. */
static uint64_t tracefs_own_discarded(const struct ltt_source *src)
{
	const struct tracefs_source *t = (const struct tracefs_source *)src;
	struct ltt_ftrace_conv_stats st;

	ltt_ftrace_conv_stats(&t->conv, &st);
	return own_of(t, &st);
}

/* A dead consumer's own discards of this stream: counted from there on. */
static void tracefs_carry(struct ltt_source *src, uint64_t own_discarded)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	ltt_ftrace_conv_add_discarded(&t->conv, own_discarded);
}

/*
 * The ledger's counts: ftrace's "read events" at the start, and the
 * converter's own discards (tracefs_own_discarded()) plus the events made
 * (in packets queued, or in the open one: the converter's count less the
 * events of packets refused, which its discards hold) less the pages'
 * records taken.  A snapshot trace's packets are kept, not written: no
 * ledger.
 */
static bool tracefs_ledger(const struct ltt_source *src, uint64_t *ret_start, uint64_t *ret_own,
			   uint64_t *ret_net)
{
	const struct tracefs_source *t = (const struct tracefs_source *)src;
	struct ltt_ftrace_conv_stats st;

	if (t->keep || !t->has_read_start)
		return false;
	ltt_ftrace_conv_stats(&t->conv, &st);
	*ret_start = t->read_start;
	*ret_own = own_of(t, &st);
	*ret_net = *ret_own + st.events - st.emit_failed - st.page_records;
	return true;
}

/* A dead consumer's files go on: their packets' numbers too. */
static void tracefs_continue_seq(struct ltt_source *src, uint64_t next)
{
	struct tracefs_source *t = (struct tracefs_source *)src;

	ltt_ftrace_conv_set_seq(&t->conv, next);
}

/* The emit of a source given up: every packet refused, its events counted discarded. */
static int refuse(void *arg, const void *packet, size_t size, const struct ltt_ctf_index_entry *idx)
{
	(void)arg, (void)packet, (void)size, (void)idx;
	return -ECANCELED;
}

/*
 * The stream reads no more (ltt_source_abandon()): what the source holds,
 * and what the kernel's buffer and the BPF ring hold within a flush's
 * budget of pages, goes through the converter into refused packets, which
 * it counts discarded: the packets queued (but the one lent), the rest of
 * a page the queue stopped, the pages read ahead, the open packet.  What
 * can't go through it is counted too: a read that fails or gives less
 * than a page header (as any read's, read_failed()), and the events the
 * kernel's buffer still holds once the budget is spent (the stats file's
 * "entries").  A snapshot trace's packets are kept, not lost.  Returns
 * the events counted discarded.
 */
static uint64_t tracefs_abandon(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	unsigned int lent = t->held ? 1 : 0, tries;
	struct ltt_ftrace_conv_stats before, after;
	uint64_t queued = 0, left;
	struct ahead_page *a;
	ssize_t n;

	if (t->keep || !t->events)
		return 0;
	ltt_ftrace_conv_stats(&t->conv, &before);
	for (; t->q_count > lent; t->q_count--)
		ltt_add_sat(&queued, t->q[(t->q_head + t->q_count - 1) % t->q_len].events);
	ltt_ftrace_conv_add_discarded(&t->conv, queued);
	ltt_source_ledger_done(src, queued);	/* counted here: out of the ledger */
	sync_map(t);
	t->events->converting = t;	/* no lookahead into this source meanwhile */
	/* the queue refuses all now: the side never stops the page again */
	for (tries = 0; t->conv.paused && tries < QUEUE_MAX; tries++)
		(void)ltt_ftrace_conv_resume(&t->conv, t->page, t->page_len, refuse, t);
	while ((a = t->ahead)) {
		t->ahead = a->next;
		(void)ltt_ftrace_conv_page(&t->conv, a->data, a->len, refuse, t);
		free(a);
	}
	t->ahead_tail = &t->ahead;
	t->nr_ahead = 0;
	for (t->reads = 0; t->reads < t->budget; t->reads++) {
		n = read(t->fd, t->page, PAGE_MAX);
		if (n < 0 && errno != EAGAIN)
			read_failed(t, -errno);
		if (n <= 0)
			break;
		if (ltt_ftrace_conv_page(&t->conv, t->page, (size_t)n, refuse, t) == -EINVAL)
			read_failed(t, -EIO);	/* less than a page header */
	}
	if (t->reads == t->budget && !ltt_tfs_stats_read(t->stats_fd, "entries", &left)) {
		ltt_ftrace_conv_add_discarded(&t->conv, left);
		/* still in the kernel's buffer: a consumer taking over reads them */
		ltt_source_ledger_done(src, left);
	}
	if (t->ring.prod)
		(void)bpf_take(t, UINT64_MAX, refuse, t);
	(void)ltt_ftrace_conv_flush(&t->conv, refuse, t);
	t->events->converting = NULL;
	ltt_source_ledger_note(src);
	ltt_ftrace_conv_stats(&t->conv, &after);
	return after.discarded - before.discarded;
}

static void tracefs_destroy(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	struct ltt_ftrace_conv_stats st;
	unsigned int i;

	struct tracefs_source **p;
	struct ahead_page *a;

	ltt_ftrace_conv_stats(&t->conv, &st);
	if (t->conv.tasks)
		LTT_DBG("%s: %" PRIu64 " records read for the task table only", t->base.label,
			st.tasks_only);
	if (st.clamped)
		LTT_DBG("%s: %" PRIu64 " records stamped before the stream's latest, raised to it",
			t->base.label, st.clamped);
	for (p = t->events ? &t->events->sources : NULL; p && *p; p = &(*p)->sib)
		if (*p == t) {
			*p = t->sib;
			break;
		}
	while ((a = t->ahead)) {
		t->ahead = a->next;
		free(a);
	}
	if (t->ring.prod || t->bpf_torn)
		LTT_DBG("%s: BPF ring: %" PRIu64 " lost, %" PRIu64 " torn records", t->base.label,
			t->lost_seen, t->bpf_torn);
	ltt_bpf_ring_close(&t->ring);
	ltt_fd_close(&t->ep);
	if (t->lost)
		munmap((void *)t->lost, t->lost_len);
	ltt_ftrace_conv_fini(&t->conv);
	for (i = 0; t->q && i < t->q_len; i++)
		free(t->q[i].buf);
	free(t->q);
	free(t->page);
	ltt_fd_close(&t->stats_fd);
	ltt_fd_close(&t->fd);
	free(t);
}

/*
 * Keep mode: read what is ready into the ring, closing the partial
 * packet when a switch asked for it.  A call reads at most the kernel
 * buffer's pages (the budget: the reader's own system calls, when
 * traced, would otherwise keep a page ready forever).  As refill()
 * does, a wakeup's reads stop at a short page, a switch's go on to an
 * empty buffer: a short page is also the rest of a page an earlier read
 * took part of while the kernel wrote it, with whole pages behind it.
 * 0 caught up (or a read failed: counted, the next wakeup or timer tries
 * again); -EBUSY more is ready.
 */
static int tracefs_keep(struct ltt_source *src)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	int ret;

	for (t->reads = 0; t->reads < t->budget;) {
		ret = read_page(t);
		if (ret == 0 || (ret == 1 && t->flush))
			continue;
		if (ret == -EAGAIN)
			(void)bpf_drain(t);	/* a ring of packets: never full */
		if (ret == 1 || ret == -EAGAIN)
			break;
		read_failed(t, ret);
		if (ret != -EIO) {
			(void)rearm(t);	/* the next wakeup, or a timer, tries again */
			return 0;
		}
	}
	if (t->reads == t->budget)
		return -EBUSY;
	if (t->flush)
		flushed(t, t->reads < t->budget);
	return rearm(t) ? -EBUSY : 0;
}

/*
 * Take in what the kernel holds and close the open packet, then the
 * ring's newest @max_packets: positions in bytes, by packet_size.
 */
static int tracefs_snap_span(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			     uint64_t *ret_end)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	uint64_t n;

	count_dropped(t);
	t->flush = true;
	tracefs_keep(src);
	if (t->flush)
		flushed(t, false);	/* the budget ran out first: what was read is in */
	n = t->q_count;
	if (max_packets && max_packets < n)
		n = max_packets;
	*ret_end = (t->q_pos + t->q_count) * src->packet_size;
	*ret_begin = *ret_end - n * src->packet_size;
	return 0;
}

/* The ring's packet at @pos, copied into @scratch. */
static int tracefs_snap_peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			     struct ltt_sink_packet *ret_pkt)
{
	struct tracefs_source *t = (struct tracefs_source *)src;
	uint64_t n = pos / src->packet_size;
	const struct queued *q;

	if (pos % src->packet_size || n >= t->q_pos + t->q_count)
		return -EINVAL;
	if (n < t->q_pos)
		return -ESTALE;		/* the ring went past it since the span */
	if (scratch->len < src->packet_size)
		return -ENOMEM;
	q = &t->q[(t->q_head + (n - t->q_pos)) % t->q_len];
	memcpy(scratch->buf, q->buf, (size_t)((q->idx.content_size + 7) / 8));
	fill_packet(q, scratch->buf, src->packet_size, ret_pkt);
	return 0;
}

static const struct ltt_source_ops ltt_tfs_ops = {
	.name = "tracefs",
	.get = tracefs_get,
	.put = tracefs_put,
	.switch_packet = tracefs_switch,
	.span = tracefs_span,
	.idle = tracefs_idle,
	.stats = tracefs_stats,
	.own_discarded = tracefs_own_discarded,
	.carry = tracefs_carry,
	.continue_seq = tracefs_continue_seq,
	.ledger = tracefs_ledger,
	.abandon = tracefs_abandon,
	.destroy = tracefs_destroy,
};

/* A snapshot trace's: never drained, its packets kept for the snapshots. */
static const struct ltt_source_ops ltt_tfs_keep_ops = {
	.name = "tracefs",
	.get = tracefs_get,
	.put = tracefs_put,
	.switch_packet = tracefs_switch,
	.keep = tracefs_keep,
	.snap_span = tracefs_snap_span,
	.snap_peek = tracefs_snap_peek,
	.stats = tracefs_stats,
	.own_discarded = tracefs_own_discarded,
	.carry = tracefs_carry,
	.destroy = tracefs_destroy,
};

/* ---- a source made ---- */

/*
 * The packet queue: room for one page's packets, and the converter's
 * flush; a snapshot trace's ring, at least the kernel buffer's count.
 */
static int alloc_queue(struct tracefs_source *t, uint64_t num_subbuf)
{
	uint64_t n = 3 + 4 * 4096 / t->base.packet_size;
	unsigned int i;

	if (n > QUEUE_MAX)
		n = QUEUE_MAX;
	if (t->keep)	/* enqueue() overwrites: no room needed for a page's packets */
		n = num_subbuf > KEEP_MAX ? KEEP_MAX : num_subbuf;
	t->q = calloc((size_t)n, sizeof(*t->q));
	if (!t->q)
		return -ENOMEM;
	t->q_len = (unsigned int)n;
	for (i = 0; i < t->q_len; i++) {
		t->q[i].buf = malloc((size_t)t->base.packet_size);
		if (!t->q[i].buf)
			return -ENOMEM;
	}
	t->page = malloc(PAGE_MAX);
	return t->page ? 0 : -ENOMEM;
}

/* The converter of the stream, with the map's page layout and the contexts. */
static int init_conv(struct tracefs_source *t, const struct ltt_source_tracefs_cfg *cfg)
{
	uint32_t i;
	int ret;

	ret = ltt_ftrace_conv_init(&t->conv, cfg->uuid, cfg->stream_id, cfg->cpu,
				   (size_t)cfg->packet_size, &cfg->events->shm->page);
	if (ret)
		return ret;
	for (i = 0; i < cfg->nr_ctx; i++)
		if (ltt_ftrace_conv_task_context(cfg->ctx[i].type))
			break;
	/* the channel's first stream seeds its table from /proc */
	if (i < cfg->nr_ctx && !cfg->events->tasks) {
		ret = ltt_ftrace_tasks_create(&cfg->events->tasks);
		if (!ret)
			ltt_ftrace_tasks_set_lookahead(cfg->events->tasks, ltt_tfs_lookahead,
						       cfg->events);
	}
	if (!ret)
		ret = ltt_ftrace_conv_set_tasks(&t->conv, cfg->events->tasks);
	if (!ret)
		ret = ltt_ftrace_conv_set_contexts(&t->conv, cfg->ctx, cfg->nr_ctx);
	return ret == -ENOTSUP ? -EINVAL : ret;
}

/*
 * The data thread waits on an epoll of the pipe and the ring: the program
 * wakes the ring's reader once it is half full, whether the pipe fills or
 * not (a channel that records only system call entries with strings).
 * The pipe's wakeups arm as before (rearm() polls the pipe itself).
 */
static int watch_both(struct tracefs_source *t)
{
	struct epoll_event ev = { .events = EPOLLIN };

	t->ep = epoll_create1(EPOLL_CLOEXEC);
	if (t->ep < 0)
		return -errno;
	ev.data.fd = t->fd;
	if (epoll_ctl(t->ep, EPOLL_CTL_ADD, t->fd, &ev))
		return -errno;
	ev.data.fd = t->ring.fd;
	if (epoll_ctl(t->ep, EPOLL_CTL_ADD, t->ring.fd, &ev))
		return -errno;
	return 0;
}

/* The CPU's BPF ring and the lost counts, mapped; the converter asks the ring. */
static int attach_bpf(struct tracefs_source *t, const struct ltt_source_tracefs_cfg *cfg)
{
	int ret = ltt_bpf_ring_open(cfg->bpf_ring_fd, &t->ring);

	if (!ret && cfg->bpf_lost_fd >= 0)
		ret = ltt_bpf_lost_open(cfg->bpf_lost_fd, cfg->cpu, &t->lost, &t->lost_len);
	if (ret) {
		LTT_ERR("%s: the BPF ring or its lost counts can't be mapped (%s): refused",
			t->base.label, strerror(-ret));
		return ret;
	}
	/*
	 * The map's counts are the channel's since it was made, as ftrace's
	 * "dropped events" are (below): none is counted yet, so that a
	 * consumer taking the stream over counts what was lost while none read
	 */
	t->lost_seen = 0;
	ltt_ftrace_conv_set_side(&t->conv, ltt_tfs_bpf_side, t);
	return watch_both(t);
}

/* A blocking read would stall the data thread: the pipe must not block. */
static int nonblock(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || (!(fl & O_NONBLOCK) && fcntl(fd, F_SETFL, fl | O_NONBLOCK)))
		return -errno;
	return 0;
}

int ltt_source_tracefs_create(const struct ltt_source_tracefs_cfg *cfg,
			      struct ltt_source **ret_src)
{
	struct tracefs_source *t;
	uint64_t lost;
	int ret;

	if (!cfg || !cfg->chan_name || !cfg->uuid || !cfg->events || !ret_src ||
	    cfg->pipe_fd < 0 || cfg->packet_size > SIZE_MAX || !cfg->num_subbuf)
		return -EINVAL;
	t = calloc(1, sizeof(*t));
	if (!t)
		return -ENOMEM;
	t->base.ops = cfg->keep ? &ltt_tfs_keep_ops : &ltt_tfs_ops;
	t->base.poll_events = EPOLLIN | EPOLLET;
	t->base.packet_size = cfg->packet_size;
	/* a flush's budget: the kernel's buffer, converted, and what the queue holds */
	t->base.nr_packets = 2 * cfg->num_subbuf + QUEUE_MAX;
	t->budget = cfg->packet_size * cfg->num_subbuf / 4096 + 1;	/* pages of 4 KiB */
	t->base.stream_id = cfg->stream_id;
	t->base.copies = cfg->keep;	/* snap_peek copies out of the ring */
	t->keep = cfg->keep;
	t->events = cfg->events;
	t->stats_fd = -1;
	t->ring.fd = -1;
	t->ep = -1;
	snprintf(t->base.label, sizeof(t->base.label), "tracefs channel %s cpu %" PRIu32,
		 cfg->chan_name, cfg->cpu);
	t->fd = fcntl(cfg->pipe_fd, F_DUPFD_CLOEXEC, 3);
	ret = t->fd < 0 ? -errno : nonblock(t->fd);
	if (!ret)
		ret = init_conv(t, cfg);
	if (!ret)
		ret = alloc_queue(t, cfg->num_subbuf);
	if (!ret && cfg->bpf_ring_fd >= 0)
		ret = attach_bpf(t, cfg);
	if (ret) {
		t->base.ops->destroy(&t->base);
		return ret;
	}
	t->base.poll_fd = t->ep >= 0 ? t->ep : t->fd;
	t->ahead_tail = &t->ahead;
	t->sib = t->events->sources;
	t->events->sources = t;
	t->stats_fd = ltt_tfs_stats_open(t->fd, t->base.label);
	/* the records read before this source: its ledger's start (source.h) */
	t->has_read_start = !ltt_tfs_stats_read(t->stats_fd, "read events", &t->read_start);
	/* what the kernel overwrote: the stats file's "overrun", exact, once it reads */
	if (!ltt_tfs_stats_lost(t->stats_fd, &lost))
		ltt_ftrace_conv_missed_elsewhere(&t->conv);
	/*
	 * ftrace's "dropped events" and "overrun" count the channel's
	 * instance's losses since it was made: all of them are the stream's,
	 * those a consumer that died counted too (a kernel stream's
	 * statistics slot starts again with each consumer) and those while
	 * none read (doc/consumerd.md "Taking over").  The converter's own
	 * discards (torn records, what it abandoned) go on from the dead
	 * consumer's count (ltt_source_take_over(), from its stream's slot).
	 */
	t->dropped = 0;
	ltt_tfs_count_lost(t);	/* what was lost before: in the first packet */
	/* the stream covers the session from here, its first event or not (lttng-modules') */
	ltt_ftrace_conv_set_begin(&t->conv, ltt_source_now(&t->base));
	*ret_src = &t->base;
	return 0;
}
