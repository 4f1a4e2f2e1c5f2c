// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-tracefs.c - the "tracefs" source: trace_pipe_raw pages into CTF
 * packets.  See source-tracefs.h for what the kernel does and the design.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/bpf/bpf-ring.h"
#include "common/filter/filter-compile.h"
#include "common/ftrace/ftrace-map.h"
#include "common/base/log.h"
#include "common/base/sock.h"
#include "consumerd/trace/channel.h"
#include "common/ftrace/ftrace-conv.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs.h"
#include "filter-vm/filter-vm.h"

#include "consumerd/source/source-tracefs-int.h"

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
bool ltt_tfs_bpf_side(void *arg, uint64_t ts, ltt_ftrace_emit_fn emit, void *emit_arg)
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
void ltt_tfs_lookahead(void *arg)
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

/* The value of the line "@key: N" in the stats file's text @s. */
static int parse_stat(const char *s, const char *key, uint64_t *ret)
{
	size_t len = strlen(key);
	const char *p;

	for (p = s; (p = strstr(p, key)); p += len)
		if ((p == s || p[-1] == '\n') && p[len] == ':')
			return sscanf(p + len + 1, " %" SCNu64, ret) == 1 ? 0 : -EINVAL;
	return -EINVAL;
}

/* The stats file's text, read now into @text (@len bytes, NUL-ended): 0 or -errno. */
static int stats_text(const struct tracefs_source *t, char *text, size_t len)
{
	ssize_t n;

	if (t->stats_fd < 0)
		return -EBADF;
	n = pread(t->stats_fd, text, len - 1, 0);
	if (n < 0)
		return -errno;
	text[n] = '\0';
	return 0;
}

int ltt_tfs_read_stat(const struct tracefs_source *t, const char *key, uint64_t *ret)
{
	char text[1024];
	int err = stats_text(t, text, sizeof(text));

	return err ? err : parse_stat(text, key, ret);
}

/*
 * What ftrace lost of the CPU's events, a running total: the stats
 * file's "dropped events" (a full buffer in discard mode), its "overrun"
 * (overwritten in overwrite mode; a page's missed flag says 1 when it
 * had no room for the count, and the converter does not count it:
 * ltt_ftrace_conv_missed_elsewhere()) and its "commit overrun" (a write
 * dropped in overwrite mode because the page it needed was still being
 * committed), three counts of distinct events.  0 or -errno (int.h).
 */
int ltt_tfs_read_lost(const struct tracefs_source *t, uint64_t *ret)
{
	char text[1024];
	uint64_t dropped, overrun, commit;
	int err = stats_text(t, text, sizeof(text));

	if (!err)
		err = parse_stat(text, "dropped events", &dropped);
	if (!err)
		err = parse_stat(text, "overrun", &overrun);
	if (!err)
		err = parse_stat(text, "commit overrun", &commit);
	if (err)
		return err;
	ltt_add_sat(&dropped, overrun);
	ltt_add_sat(&dropped, commit);
	*ret = dropped;
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

	if (ltt_tfs_read_lost(t, &now) || now == t->dropped)
		return;
	ltt_ftrace_conv_add_discarded(&t->conv, now > t->dropped ? now - t->dropped : now);
	t->dropped = now;
}

void ltt_tfs_count_lost(struct tracefs_source *t)
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
	if (!ltt_tfs_read_lost(t, &dropped) && dropped > t->dropped)
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
	if (t->reads == t->budget && !ltt_tfs_read_stat(t, "entries", &left)) {
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

const struct ltt_source_ops ltt_tfs_ops = {
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
const struct ltt_source_ops ltt_tfs_keep_ops = {
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
