// SPDX-License-Identifier: GPL-2.0-only
/*
 * ust-chan.c - what the user-space domain's files share of a trace and
 * its channel buffers: keys, the trace's directory, a channel's counters
 * read from shared memory, a channel handed to a consumer, freed.  It
 * calls no other file of ust/ but ust-meta.c: ust-buffers.c makes traces
 * and channels with it, ust-handover.c hands them over with it.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "common/base/escape.h"
#include "common/trace/ringbuf.h"
#include "common/trace/tclock.h"
#include "sessiond/ust/ust-buffers-internal.h"

struct cds_list_head ltt_ust_no_traces = CDS_LIST_HEAD_INIT(ltt_ust_no_traces);

uint64_t ltt_ust_new_key(struct ltt_ust_buffers *b)
{
	return __atomic_fetch_add(&b->next_key, 1, __ATOMIC_RELAXED);
}

/* What @chan's buffers hold in all. */
uint64_t ltt_ust_chan_bytes(const struct ltt_ust_chan *chan)
{
	const struct ltt_channel_conf *a = &chan->cc.channel->attr;
	uint64_t n;

	if (__builtin_mul_overflow(a->subbuf_size, a->num_subbuf, &n) ||
	    __builtin_mul_overflow(n, (uint64_t)chan->nr_streams, &n))
		return UINT64_MAX;
	return n;
}

/*
 * A copy of the header and commit words of the ring buffer in @fd into
 * @mem (@len bytes, the region's size, private): read, not mapped, so
 * that a program that shrinks its buffer's file (an --shm-path one is
 * not sealed) can't make the daemon fault.  False when it can't be read.
 */
static bool copy_head(int fd, void *mem, size_t len)
{
	struct ltt_rb_shm hdr;

	if (pread(fd, &hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr) ||
	    hdr.data_offset < sizeof(hdr) || hdr.data_offset > len)
		return false;
	return pread(fd, mem, (size_t)hdr.data_offset, 0) == (ssize_t)hdr.data_offset;
}

uint64_t ltt_ust_chan_unread(const struct ltt_ust_chan *chan)
{
	const struct ltt_channel_conf *a = &chan->cc.channel->attr;
	size_t len = ltt_rb_region_size(a->subbuf_size, a->num_subbuf);
	struct ltt_rb rb;
	uint64_t sum = 0;
	unsigned int i;
	void *mem;

	if (!len)
		return 0;
	/* pages only where the copy goes: the data area is never touched */
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED)
		return 0;
	for (i = 0; i < chan->nr_streams; i++)
		if (copy_head(chan->fds[2 * i], mem, len) && !ltt_rb_attach(&rb, mem, len))
			ltt_add_sat(&sum, ltt_rb_events_unread(&rb));
	munmap(mem, len);
	return sum;
}

void ltt_ust_chan_usage(const struct ltt_ust_chan *chan, struct ltt_domain_usage *u)
{
	const struct ltt_channel_conf *a = &chan->cc.channel->attr;
	uint64_t write, read, held;
	unsigned int i;

	if (__builtin_mul_overflow(a->subbuf_size, a->num_subbuf, &u->capacity))
		u->capacity = UINT64_MAX;
	for (i = 0; i < chan->nr_streams; i++) {
		if (pread(chan->fds[2 * i], &write, sizeof(write),
			  offsetof(struct ltt_rb_shm, offset)) != (ssize_t)sizeof(write) ||
		    pread(chan->fds[2 * i], &read, sizeof(read),
			  offsetof(struct ltt_rb_shm, consumed)) != (ssize_t)sizeof(read))
			continue;
		/* programs can write anything there: a reader ahead is empty */
		held = write > read ? write - read : 0;
		if (held > u->capacity)
			held = u->capacity;
		if (held > u->highest)
			u->highest = held;
		if (held < u->lowest)
			u->lowest = held;
	}
}

/* Stream @i's ring buffer's own count of the events its writers dropped. */
static uint64_t rb_events_lost(const void *arg, uint32_t i)
{
	const struct ltt_ust_chan *chan = arg;
	uint64_t v = 0;

	if (pread(chan->fds[2 * i], &v, sizeof(v), offsetof(struct ltt_rb_shm, events_lost)) !=
	    (ssize_t)sizeof(v))
		return 0;
	return v;
}

/*
 * What @chan's streams lost so far, from shared memory only: the events
 * writers dropped (each ring buffer's count) and what the consumers
 * counted in the statistics page, with the output's failure there: the
 * error of a stream that has one (the earliest), the sums of what failures
 * made lose.  Never asks the consumer.  Any value is possible (programs
 * can write the ring buffers): informative.
 */
void ltt_ust_chan_stats(const struct ltt_ust_chan *chan, struct ltt_consumer_channel_stats *ret)
{
	ltt_chan_stats_read(&chan->cc.stats, rb_events_lost, chan, ret);
}

uint64_t ltt_ust_chan_unread_lost(const struct ltt_ust_trace *trace,
				  const struct ltt_ust_chan *chan)
{
	bool never = chan->cc.refused || trace->ct.state == LTT_CTRACE_LOST ||
		     (trace->ct.refused && trace->ct.state == LTT_CTRACE_NONE);

	return never ? ltt_ust_chan_unread(chan) : 0;
}

void ltt_ust_chan_free(struct ltt_ust_chan *chan)
{
	unsigned int i;

	ltt_ust_meta_classes_fini(&chan->classes);
	ltt_chan_stats_destroy(&chan->cc.stats);
	for (i = 0; chan->fds && i < 2 * chan->nr_streams; i++)
		if (chan->fds[i] >= 0)
			close(chan->fds[i]);
	free(chan->fds);
	free(chan);
}

/*
 * The directory of the trace @app writes to in @session; the @attempt-th
 * retry (the directory held a trace: the same process after an exec in
 * the same second, or an output directory used again) gets "-N".
 */
int ltt_ust_trace_path(const struct ltt_ust_trace *trace, unsigned int attempt, char *buf,
		      size_t len)
{
	/* A relay's traces are named relative to its session's directory. */
	return ltt_ust_trace_path_in(trace, trace->ct.session->chunk_dir, attempt, buf, len);
}

int ltt_ust_trace_path_in(const struct ltt_ust_trace *trace, const char *base,
			  unsigned int attempt, char *buf, size_t len)
{
	char date[32], suffix[16] = "", name[LTT_ESCAPE_SIZE(sizeof(trace->procname))];
	const char *sep = *base ? "/" : "";
	struct tm tm;
	int n;

	if (attempt)
		snprintf(suffix, sizeof(suffix), "-%u", attempt);
	if (trace->per_pid) {
		if (!localtime_r(&trace->registered_at, &tm) ||
		    !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
			return -EINVAL;
		/* a program names itself: any byte but NUL, '/' included */
		ltt_escape_file_name(trace->procname, name, sizeof(name));
		n = snprintf(buf, len, "%s%sust/pid/%s-%ld-%s%s", base, sep, name,
			     (long)trace->pid, date, suffix);
	} else {
		n = snprintf(buf, len, "%s%sust/uid/%u/%u-bit%s", base, sep,
			     (unsigned int)trace->uid, trace->bits_per_long, suffix);
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* @session's user-space state, or NULL when it has none.  Session lock held. */
struct ltt_ust_state *ltt_ust_state(struct ltt_session *session)
{
	return ltt_session_domain(session, LTT_DOMAIN_USER)->state;
}

int ltt_ust_chan_to_consumer(struct ltt_ust_trace *trace, struct ltt_ust_chan *chan,
			    struct ltt_consumer *c)
{
	const struct ltt_channel_conf *a = &chan->cc.channel->attr;
	struct ltt_consumer_add_channel cc;
	unsigned int i;
	int ret, err;

	ltt_ctrace_chan_msg(&trace->ct, &chan->cc, &cc);
	cc.switch_timer_us = a->switch_timer_us;
	cc.read_timer_us = a->read_timer_us;
	cc.auto_reclaim = a->auto_reclaim != LTT_AUTO_RECLAIM_OFF;
	cc.auto_reclaim_ns = a->auto_reclaim_us * 1000;
	cc.auto_reclaim_counts = ltt_tclock_counts(cc.auto_reclaim_ns,
						   trace->ct.session->clock_freq);
	ret = ltt_consumer_add_channel(c, &cc);
	if (ret)
		return ret;
	for (i = 0; !ret && i < chan->nr_streams; i++) {
		int shm = chan->fds[2 * i], wakeup = chan->fds[2 * i + 1];

		if (chan->cc.stats.fd >= 0 &&
		    ltt_consumer_minor(c) >= LTT_CONSUMER_MINOR_OUTPUT_ERRORS)
			ret = ltt_consumer_add_stream_stats(c, chan->cc.key, i, shm, wakeup,
							    chan->cc.stats.fd);
		else
			ret = ltt_consumer_add_stream(c, chan->cc.key, i, shm, wakeup);
	}
	/* even after a failure: the streams added are announced, not held back */
	err = ltt_consumer_streams_sent(c, chan->cc.key);
	return ret ? ret : err;
}
