// SPDX-License-Identifier: GPL-2.0-only
/*
 * data-loop.c - what a data thread runs in its event loop
 * (common/base/evloop.h): its streams' sources and sinks, its parts of
 * the channels' timers, and the requests posted to it (data.c posts them
 * and waits).  data.h says which thread runs what.
 *
 * Wakeup eventfds are shared with the traced applications, so they are
 * hostile: one that an application drains or blocks must not block us.
 * We never read them: they are registered edge-triggered, and each write
 * by a writer is a new edge.  Every stream is drained until the ring
 * buffer says it is empty (which re-arms the writers' wakeup) or until
 * its budget runs out, in which case the stream is marked busy and read
 * again before the loop sleeps (the loop's busy mode, while any stream is
 * busy), so one fast stream cannot starve others.
 * Kernel stream fds are registered edge-triggered too: the tracer wakes
 * us for each new packet, and for the end (EPOLLHUP), after which the
 * stream is read empty and leaves the set.  A tracefs stream's
 * trace_pipe_raw is registered the same way (woken at the instance's
 * buffer_percent); it never hangs up, and its channel's timers run as a
 * user-space channel's do.  A stream whose sink would
 * block waits for EPOLLOUT on the sink's fd (one-shot) instead.
 *
 * Requests are jobs posted to the loop.  A request that removes a channel
 * unwatches its streams' fds and destroys its timers, and the loop drops
 * any event of the current batch collected for them.
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/stat.h>

#include "common/base/evloop.h"
#include "common/base/fault.h"
#include "common/base/log.h"
#include "common/base/testpoint.h"
#include "common/proto/consumer-proto.h"
#include "consumerd/data/data-loop.h"
#include "consumerd/data/data-relay.h"
#include "consumerd/data/prio.h"
#include "consumerd/sink/sink.h"
#include "consumerd/source/source-kernel.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs.h"
#include "consumerd/source/source-ust.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/snapshot.h"
#include "consumerd/trace/stream.h"

#define DRAIN_BUDGET 64	/* packets per stream before the others get a turn */
#define END_WAIT_MS 2000	/* for streams to end or write when their channel goes */
#define LTT_DATA_LATER 1	/* run_request(): the request is answered later */
#define PUBLISH_TICK_MS 1000	/* every statistics page is stored again */

static void drain_busy(struct ltt_evloop *loop, void *arg);

int data_consumption_paused;

/* The loop polls without sleeping while any stream is busy. */
static void set_busy(struct ltt_data_thread *dt, struct ltt_stream *s, bool busy)
{
	if (busy == s->busy)
		return;
	s->busy = busy;
	dt->nr_busy += busy ? 1 : (unsigned int)-1;
	if (dt->nr_busy == (busy ? 1 : 0))
		ltt_evloop_set_busy(dt->loop, busy, drain_busy, dt);
}

static bool drain_stream(struct ltt_data_thread *dt, struct ltt_stream *s);

/* A blocked sink became writable (or failed): drain again. */
static void on_sink(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_stream *s = arg;

	(void)loop, (void)fd, (void)events;
	drain_stream(s->part->dt, s);
}

/* Packets, or the end (EPOLLHUP). */
static void on_source(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct ltt_stream *s = arg;

	(void)loop, (void)fd, (void)events;
	drain_stream(s->part->dt, s);
}

/* A stream whose sink would block waits for it to be writable (once). */
static void wait_sink(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	const uint32_t events = (s->sink->poll_events ? s->sink->poll_events : EPOLLOUT) |
				EPOLLONESHOT;
	int ret;

	if (s->sink->poll_fd < 0)
		ret = -EBADF;
	else if (s->sink_watch)		/* re-arm the one-shot */
		ret = ltt_evloop_watch_set(s->sink_watch, events);
	else
		ret = ltt_evloop_watch(dt->loop, s->sink->poll_fd, events, on_sink, s,
				       &s->sink_watch);
	if (ret) {
		/* nothing to wait on: try again as a busy stream */
		LTT_DBG("%s: can't wait for its sink: %s", s->src->label, strerror(-ret));
		set_busy(dt, s, true);
	}
}

/* What a drain or flush left: read again soon, wait for the sink, or sleep. */
static void after_drain(struct ltt_data_thread *dt, struct ltt_stream *s,
			enum ltt_stream_state state)
{
	set_busy(dt, s, state == LTT_STREAM_BUSY);
	s->blocked = state == LTT_STREAM_BLOCKED;
	if (s->blocked)
		wait_sink(dt, s);
}

/* A source that ended (a finalized kernel stream, read empty) leaves the set. */
static void forget_source(struct ltt_stream *s)
{
	ltt_evloop_unwatch(s->src_watch);
	s->src_watch = NULL;
}

static bool check_ended(struct ltt_chan_part *part, bool deadline);

/* The packets @s got: read, and written, failed, dropped or cleared. */
static uint64_t stream_got(const struct ltt_stream *s)
{
	return s->packets_written + s->packets_failed + s->packets_discarded + s->packets_already +
	       s->packets_cleared;
}

/*
 * Give back the pages of what @s read (closed @older_than ns ago at
 * least).  A writer that moved meanwhile (-EAGAIN) leaves them to the
 * next time; another failure is the log's.
 */
static void reclaim_stream(struct ltt_stream *s, uint64_t older_than)
{
	uint64_t n = 0;
	int ret = ltt_source_reclaim(s->src, older_than, &n);

	if (ret && ret != -EAGAIN)
		LTT_WARN("%s: automatic reclaim: %s", s->src->label, strerror(-ret));
}

/* Drain @s; true when that ended its removed channel's part: @s and it are gone. */
static bool drain_stream(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	uint64_t got = stream_got(s);

	if (__builtin_expect(dt->paused, 0)) {
		set_busy(dt, s, false);	/* drained when the pause ends */
		return false;
	}
	after_drain(dt, s, ltt_stream_drain(s, &dt->scratch, DRAIN_BUDGET));
	/* --auto-reclaim-memory=consumed: what it read, now */
	if (s->part->chan->auto_reclaim && !s->part->chan->auto_reclaim_ns && stream_got(s) != got)
		reclaim_stream(s, 0);
	if (s->ended && s->src_watch) {
		LTT_DBG("%s: ended and read empty", s->src->label);
		forget_source(s);
		if (s->part->end_req)
			return check_ended(s->part, false);
	}
	/* a removed channel's stream whose sink took its last packets */
	if (s->part->end_req && !s->blocked && !s->busy)
		return check_ended(s->part, false);
	return false;
}

static void on_switch_timer(struct ltt_evloop *loop, void *arg);
static void on_read_timer(struct ltt_evloop *loop, void *arg);
static void on_reclaim_timer(struct ltt_evloop *loop, void *arg);

/* A periodic timer of @us microseconds. */
static int start_timer(struct ltt_data_thread *dt, uint32_t us, ltt_evloop_timer_fn fn,
		       struct ltt_chan_part *part, struct ltt_evloop_timer **ret_timer)
{
	int ret;

	ret = ltt_evloop_timer_create(dt->loop, fn, part, ret_timer);
	if (ret)
		return ret;
	ltt_evloop_timer_arm(*ret_timer, (uint64_t)us * 1000, (uint64_t)us * 1000);
	return 0;
}

static void stop_timer(struct ltt_evloop_timer **timer)
{
	ltt_evloop_timer_destroy(*timer);
	*timer = NULL;
}

/* Every stream of @part stores its counters in its statistics page. */
static void publish_part(struct ltt_chan_part *part)
{
	struct ltt_stream *s;

	for (s = part->streams; s; s = s->next)
		ltt_stream_publish(s);
}

/*
 * Every stream with a statistics page stores its counters again, so the
 * session daemon reads them as they are within PUBLISH_TICK_MS even when
 * no packet moves: a kernel buffer whose writers drop while its output
 * fails, a snapshot trace's streams (never read here).  A drain, a flush
 * and a failure store them at once besides.
 */
static void on_publish_tick(struct ltt_evloop *loop, void *arg)
{
	struct ltt_data_thread *dt = arg;
	struct ltt_chan_part *part;

	(void)loop;
	for (part = dt->parts; part; part = part->data_next)
		publish_part(part);
}

/* The tick, once a stream has a page; without it (no memory) pages move on drains only. */
static void start_publish_tick(struct ltt_data_thread *dt)
{
	uint64_t ns = (uint64_t)PUBLISH_TICK_MS * 1000000;

	if (dt->publish_tick ||
	    ltt_evloop_timer_create(dt->loop, on_publish_tick, dt, &dt->publish_tick))
		return;
	ltt_evloop_timer_arm(dt->publish_tick, ns, ns);
}

/* --auto-reclaim-memory=older-than:AGE looks every AGE / 2, at most every RECLAIM_TICK_MIN_US. */
#define RECLAIM_TICK_MIN_US 10000
static uint32_t reclaim_tick_us(const struct ltt_channel *chan)
{
	uint64_t us = chan->auto_reclaim_ns / 2000;

	return us < RECLAIM_TICK_MIN_US ? RECLAIM_TICK_MIN_US : us > UINT32_MAX ? UINT32_MAX :
										  (uint32_t)us;
}

/* LTT_DATA_ADD_CHANNEL: the part starts its timers; returns 0 or -ENOMEM. */
static int do_add_channel(struct ltt_data_thread *dt, struct ltt_chan_part *part)
{
	const struct ltt_channel *chan = part->chan;
	int ret = 0;

	assert(!part->streams && !part->switch_timer && !part->read_timer);
	part->dt = dt;
	if (chan->switch_timer_us)
		ret = start_timer(dt, chan->switch_timer_us, on_switch_timer, part,
				  &part->switch_timer);
	if (!ret && chan->read_timer_us)
		ret = start_timer(dt, chan->read_timer_us, on_read_timer, part, &part->read_timer);
	if (!ret && chan->auto_reclaim && chan->auto_reclaim_ns)
		ret = start_timer(dt, reclaim_tick_us(chan), on_reclaim_timer, part,
				  &part->reclaim_timer);
	if (ret) {
		LTT_ERR("channel %s: can't start its timers: %s", chan->name, strerror(-ret));
		stop_timer(&part->switch_timer);
		stop_timer(&part->read_timer);
		return ret;
	}
	ltt_prio_timer(chan->name, chan->switch_timer_us);
	ltt_prio_timer(chan->name, chan->read_timer_us);
	part->data_next = dt->parts;
	dt->parts = part;
	return 0;
}

/* Room in the scratch buffer for a sub-buffer of @size bytes. */
static int grow_scratch(struct ltt_scratch *sc, uint64_t size)
{
	void *buf;

	if (size <= sc->len)
		return 0;
	if (size > SIZE_MAX)
		return -ENOMEM;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	free(sc->buf);
	sc->buf = buf;
	sc->len = (size_t)size;
	return 0;
}

/*
 * Does a stream already read the memory of @shm_fd?  Two readers would
 * clash, whichever data thread runs them.  The other threads' lists of
 * parts and streams, and their sources' identities, are read here: they
 * change in requests only (a user-space stream ends with its channel's
 * REMOVE_CHANNEL), and the command thread, which posts every request,
 * waits for this one, so no other thread is in a request meanwhile.
 */
static int memory_in_use(const struct ltt_data_thread *dt, int shm_fd)
{
	const struct ltt_data_threads *all = dt->all;
	const struct ltt_chan_part *part;
	const struct ltt_stream *o;
	struct stat st;
	unsigned int i;

	if (fstat(shm_fd, &st))
		return -errno;
	for (i = 0; i < all->nr; i++)
		for (part = all->threads[i]->parts; part; part = part->data_next)
			for (o = part->streams; o; o = o->next)
				if (ltt_source_reads(o->src, &st))
					return -EEXIST;
	return 0;
}

/* The user-space source of an ADD_STREAM request: its memory and wakeup fd. */
static int make_ust_source(struct ltt_data_thread *dt, struct ltt_data_req *req,
			   struct ltt_source **ret_src)
{
	const struct ltt_channel *chan = req->chan;
	struct ltt_source_ust_cfg cfg = {
		.chan_name = chan->name,
		.cpu = req->cpu,
		.overwrite = chan->overwrite,
		.uuid = chan->uuid,
		.any_stream_id = !req->chan_streams,
		.stream_id = req->chan_streams ? req->stream_id : 0,
		.shm_fd = req->shm_fd,
		.wakeup_fd = req->wakeup_fd,
	};
	int ret;

	ret = memory_in_use(dt, req->shm_fd);
	if (ret) {
		if (ret == -EEXIST)
			LTT_ERR("channel %s cpu %u: this memory is already read by another stream: refused",
				chan->name, req->cpu);
		return ret;
	}
	return ltt_source_ust_create(&cfg, ret_src);
}

/* The kernel source of an ADD_KERNEL_STREAM request: a stream fd. */
static int make_kernel_source(struct ltt_data_req *req, struct ltt_source **ret_src)
{
	const struct ltt_channel *chan = req->chan;
	struct ltt_source_kernel_cfg cfg = {
		.chan_name = chan->name,
		.cpu = req->cpu,
		.uuid = chan->uuid,
		.subbuf_size = chan->subbuf_size,
		.num_subbuf = chan->num_subbuf,
		.stream_fd = req->stream_fd,
	};

	return ltt_source_kernel_create(&cfg, ret_src);
}

/*
 * LTT_DATA_ADD_FTRACE_STREAM's source: the first stream's event map
 * becomes the channel's shared copy (chan->tfs_events), later streams
 * must send the same map.  Returns 0, -EINVAL (not a map, another map
 * than the channel's, or what ltt_source_tracefs_create() refuses),
 * -ENOMEM, or another negative errno of mmap, fstat or dup.
 */
static int make_tracefs_source(struct ltt_data_req *req, struct ltt_source **ret_src)
{
	struct ltt_channel *chan = req->chan;
	uint32_t cpu = req->cpu;
	struct ltt_source_tracefs_cfg cfg = {
		.chan_name = chan->name,
		.cpu = cpu,
		.uuid = chan->uuid,
		.packet_size = chan->subbuf_size,
		.num_subbuf = chan->num_subbuf,
		.stream_id = chan->stream_id,
		.ctx = chan->ctx,
		.nr_ctx = chan->nr_ctx,
		.pipe_fd = req->stream_fd,
		.keep = chan->snapshot,
		.bpf_ring_fd = req->has_bpf ? req->bpf_ring_fd : -1,
		.bpf_lost_fd = req->has_bpf ? req->bpf_lost_fd : -1,
	};
	bool first = !chan->tfs_events;
	int ret;

	ret = ltt_tfs_events_open(req->map_fd, &chan->tfs_events);
	if (ret == -EINVAL)
		LTT_ERR("tracefs channel %s cpu %" PRIu32 ": %s: refused", chan->name, cpu,
			first ? "the fd is not an event map (common/ftrace/ftrace-map.h)" :
				"the event map is not the one of the channel's other streams");
	if (ret)
		return ret;
	cfg.events = chan->tfs_events;
	return ltt_source_tracefs_create(&cfg, ret_src);
}

/*
 * LTT_DATA_ADD_STREAM, LTT_DATA_ADD_KERNEL_STREAM, LTT_DATA_ADD_FTRACE_STREAM
 * (source-tracefs.h): returns 0, -EEXIST for
 * a CPU the channel has or memory another stream reads, -ENOBUFS past
 * LTT_CHANNEL_MAX_STREAMS, -ENOMEM, or an error of the source,
 * ltt_stream_create() or epoll_ctl().
 */
static int do_add_stream(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	struct ltt_channel *chan = req->chan;
	struct ltt_chan_part *part = req->part;
	struct ltt_source *src;
	struct ltt_stream *s;
	int ret;

	if (ltt_chan_part_find_stream(part, req->cpu))
		return -EEXIST;
	if (req->chan_streams >= LTT_CHANNEL_MAX_STREAMS)
		return -ENOBUFS;
	if (req->type == LTT_DATA_ADD_KERNEL_STREAM)
		ret = make_kernel_source(req, &src);
	else if (req->type == LTT_DATA_ADD_FTRACE_STREAM)
		ret = make_tracefs_source(req, &src);
	else
		ret = make_ust_source(dt, req, &src);
	if (ret)
		return ret;
	ret = ltt_stream_create(chan, req->cpu, src, &s);
	if (ret)
		return ret;
	if (req->has_stats) {
		ret = ltt_stream_set_stats_page(s, req->stats_fd);
		if (ret)
			LTT_ERR("channel %s cpu %u: the statistics page is refused: %s",
				chan->name, req->cpu, strerror(-ret));
		else
			start_publish_tick(dt);
	}
	if (!ret && s->src->copies)
		ret = grow_scratch(&dt->scratch, s->src->packet_size);
	if (!ret)
		ret = ltt_evloop_watch(dt->loop, s->src->poll_fd, s->src->poll_events, on_source, s,
				       &s->src_watch);
	if (ret) {
		ltt_stream_destroy(s);
		return ret;
	}
	ltt_chan_part_add_stream(part, s);
	req->stream_id = s->src->stream_id;
	LTT_DBG("%s: on data thread %u", s->src->label, dt->index);
	/* read what is there already; this also asks the writers for wakeups */
	drain_stream(dt, s);
	return 0;
}

/* The packets @part's streams got from their sources so far, whatever became of them. */
static uint64_t packets_got(const struct ltt_chan_part *part)
{
	const struct ltt_stream *s;
	uint64_t n = 0;

	for (s = part->streams; s; s = s->next)
		n += stream_got(s);
	return n;
}

/* @timer's period: @us, or at least LTT_CONSUMER_STOPPED_TICK_MS when @slow. */
static void timer_period(struct ltt_evloop_timer *timer, uint32_t us, bool slow)
{
	uint64_t ns = (uint64_t)us * 1000, slow_ns = LTT_CONSUMER_STOPPED_TICK_MS * 1000000ULL;

	if (!timer)
		return;
	if (slow && ns < slow_ns)
		ns = slow_ns;
	ltt_evloop_timer_arm(timer, ns, ns);
}

/*
 * @part's writers stopped (@stopped: a stop's flush), or wrote again: its
 * timers tick at most every LTT_CONSUMER_STOPPED_TICK_MS while stopped,
 * at their own period otherwise.
 */
static void set_stopped(struct ltt_chan_part *part, bool stopped)
{
	const struct ltt_channel *chan = part->chan;

	part->stopped = stopped;
	part->stopped_got = packets_got(part);
	timer_period(part->switch_timer, chan->switch_timer_us, stopped);
	timer_period(part->read_timer, chan->read_timer_us, stopped);
}

/* LTT_DATA_FLUSH: returns 0. */
static int do_flush(struct ltt_data_thread *dt, struct ltt_chan_part *part, bool final,
		    bool stopped)
{
	struct ltt_stream *s;

	for (s = part->streams; s; s = s->next)
		after_drain(dt, s, stopped && !final ? ltt_stream_flush_stopped(s, &dt->scratch) :
				   ltt_stream_flush(s, &dt->scratch, final));
	if (stopped)
		set_stopped(part, true);
	return 0;
}

/*
 * LTT_DATA_NEW_CHUNK: @part's streams move to the channel's output, which
 * the command thread has just replaced.  Returns 0.
 */
static int do_new_chunk(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	struct ltt_stream *s;

	for (s = req->part->streams; s; s = s->next) {
		/* the old sink's fd goes with it */
		ltt_evloop_unwatch(s->sink_watch);
		s->sink_watch = NULL;
		after_drain(dt, s, ltt_stream_new_chunk(s, &dt->scratch, req->clear));
	}
	/* a stopped part's rotation closes empty packets (ltt_source_span()): still stopped */
	if (req->part->stopped)
		req->part->stopped_got = packets_got(req->part);
	return 0;
}

/*
 * How many of @part's streams are still to end (kernel streams) or to
 * write their last packets (a sink blocked: a relay yet to answer the
 * stream's ADD_STREAM, a full socket; or more to read than a turn's).
 * A sink whose destination an earlier removal waited for in vain, and
 * that took nothing since, is not waited for again: one bound for all
 * the channels removed while it stays so (a per-PID trace's, a
 * session's traces at destroy), not one per channel.
 */
static unsigned int streams_left(const struct ltt_chan_part *part)
{
	const struct ltt_stream *s;
	unsigned int left = 0;

	for (s = part->streams; s; s = s->next)
		/* a snapshot trace's are never read: nothing to wait for */
		left += !s->chan->snapshot &&
			((s->src->ends && !s->ended) || s->busy ||
			 (s->blocked && !ltt_sink_given_up(s->sink, false)));
	return left;
}

/* The deadline came: the blocked sinks of @part are given up on. */
static void give_up_sinks(const struct ltt_chan_part *part)
{
	const struct ltt_stream *s;

	for (s = part->streams; s; s = s->next)
		if (!s->chan->snapshot && s->blocked)
			ltt_sink_given_up(s->sink, true);
}

/* Stop watching the stream's descriptors. */
static void forget_stream(struct ltt_stream *s)
{
	forget_source(s);
	ltt_evloop_unwatch(s->sink_watch);
	s->sink_watch = NULL;
}

static void complete(struct ltt_data_thread *dt, struct ltt_data_req *req, int status);

/* Close @part's streams. */
static void close_streams(struct ltt_data_thread *dt, struct ltt_chan_part *part)
{
	struct ltt_stream *s;

	while ((s = part->streams)) {
		part->streams = s->next;
		set_busy(dt, s, false);
		forget_stream(s);
		ltt_stream_discard(s, &dt->scratch);
		ltt_stream_destroy(s);
	}
	part->nr_streams = 0;
}

/*
 * A removed channel part's kernel streams all ended (or @deadline came):
 * close its streams and answer the REMOVE_CHANNEL request that waited for
 * them.  True when done: the caller may free the channel from then on
 * (once every part's request is answered).
 */
static bool check_ended(struct ltt_chan_part *part, bool deadline)
{
	struct ltt_data_req *req = part->end_req;
	unsigned int left = streams_left(part);
	struct ltt_chan_part **p;

	if (left && !deadline)
		return false;
	if (left) {
		LTT_WARN("channel %s: %u stream(s) not read to their end within %d ms (a kernel channel fd still open, or an output still blocked): closed anyway",
			 part->chan->name, left, END_WAIT_MS);
		give_up_sinks(part);
	}
	stop_timer(&part->end_timer);
	part->end_req = NULL;
	for (p = &part->dt->ending; *p != part; p = &(*p)->data_next)
		;
	*p = part->data_next;
	close_streams(part->dt, part);
	complete(part->dt, req, 0);
	return true;
}

static void on_end_timer(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	check_ended(arg, true);
}

/*
 * LTT_DATA_REMOVE_CHANNEL: final flush, then close everything; returns 0,
 * or LTT_DATA_LATER: sources that end (kernel streams) do once the
 * session daemon has closed their channel fd and the tracer has finalized
 * them, and a stream whose sink blocked (a per-PID channel whose program
 * exited before the relay took its stream) writes its last packets once
 * the sink takes them; the loop goes on meanwhile, for END_WAIT_MS at
 * most, then check_ended() answers the request (what is left counted
 * lost).
 */
static int do_remove_channel(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	struct ltt_chan_part *part = req->part, **p;
	unsigned int given_up = 0;
	struct ltt_stream *s;

	for (p = &dt->parts; *p && *p != part; p = &(*p)->data_next)
		;
	assert(*p == part);
	*p = part->data_next;
	stop_timer(&part->switch_timer);
	stop_timer(&part->read_timer);
	stop_timer(&part->reclaim_timer);
	do_flush(dt, part, true, false);
	for (s = part->streams; s; s = s->next) {
		if (s->ended && s->src_watch)
			forget_source(s);
		given_up += !s->chan->snapshot && s->blocked && ltt_sink_given_up(s->sink, false);
	}
	if (given_up)
		LTT_WARN("channel %s: %u stream(s) whose output took nothing since a removal waited %d ms for it: closed at once",
			 part->chan->name, given_up, END_WAIT_MS);
	if (streams_left(part) &&
	    !ltt_evloop_timer_create(dt->loop, on_end_timer, part, &part->end_timer)) {
		ltt_evloop_timer_arm(part->end_timer, (uint64_t)END_WAIT_MS * 1000000, 0);
		LTT_DBG("channel %s: its removal waits for %u stream(s) to end or write (%d ms at most)",
			part->chan->name, streams_left(part), END_WAIT_MS);
		part->end_req = req;
		part->data_next = dt->ending;
		dt->ending = part;
		/* a test stops here past the deadline: streams closed unread */
		ltt_fault_point("remove-channel-wait");
		return LTT_DATA_LATER;
	}
	close_streams(dt, part);
	return 0;
}

/*
 * LTT_DATA_SNAPSHOT: returns 0, -ENOMEM, or ltt_snapshot_channel()'s
 * error.  Discard-mode sources do not copy, so the scratch buffer may be
 * short for them yet.
 */
static int do_snapshot(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	const struct ltt_stream *s;
	int ret;

	if (req->clear)
		return ltt_snapshot_clear_part(req->part);
	for (s = req->part->streams; s; s = s->next) {
		ret = grow_scratch(&dt->scratch, s->src->packet_size);
		if (ret)
			return ret;
	}
	return ltt_snapshot_part(req->part, req->snap_out, req->max_packets, &dt->scratch,
				 &req->snap);
}

/*
 * LTT_DATA_RECLAIM: what is ready is read first, so that what the writers
 * completed is given back too; a stream whose writers kept moving keeps
 * its pages (the next reclaim takes them).  Returns 0 or a source's error.
 */
static int do_reclaim(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	struct ltt_stream *s;
	int ret;

	for (s = req->part->streams; s; s = s->next) {
		after_drain(dt, s, ltt_stream_drain(s, &dt->scratch, DRAIN_BUDGET));
		ret = ltt_source_reclaim(s->src, req->older_than, &req->reclaimed);
		if (ret && ret != -EAGAIN)
			return ret;
	}
	return 0;
}

static int run_request(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	switch (req->type) {
	case LTT_DATA_ADD_CHANNEL:
		return do_add_channel(dt, req->part);
	case LTT_DATA_ADD_STREAM:
	case LTT_DATA_ADD_KERNEL_STREAM:
	case LTT_DATA_ADD_FTRACE_STREAM:
		return do_add_stream(dt, req);
	case LTT_DATA_FLUSH:
		return do_flush(dt, req->part, req->final, req->stopped);
	case LTT_DATA_NEW_CHUNK:
		return do_new_chunk(dt, req);
	case LTT_DATA_STATS:
		ltt_chan_part_stats(req->part, &req->stats);
		publish_part(req->part);	/* the page as fresh as the answer */
		return 0;
	case LTT_DATA_REMOVE_CHANNEL:
		return do_remove_channel(dt, req);
	case LTT_DATA_ADD_RELAY:
		return ltt_data_relay_add(&dt->relays, req->relay);
	case LTT_DATA_REMOVE_RELAY:
		return ltt_data_relay_remove(&dt->relays, req->relay);
	case LTT_DATA_SNAPSHOT:
		return do_snapshot(dt, req);
	case LTT_DATA_RECLAIM:
		return do_reclaim(dt, req);
	case LTT_DATA_STOP:
		assert(!dt->parts && !dt->relays.active && !dt->ending);
		ltt_data_relays_fini(&dt->relays);
		ltt_evloop_stop(dt->loop);
		return 0;
	}
	return -EINVAL;
}

/* Tell @req's caller it is done. */
static void complete(struct ltt_data_thread *dt, struct ltt_data_req *req, int status)
{
	pthread_mutex_lock(&dt->lock);
	req->status = status;
	req->done = true;	/* the caller may free req from here on */
	pthread_cond_broadcast(&dt->cond);
	pthread_mutex_unlock(&dt->lock);
}

/* A request posted by ltt_data_call(): carry it out, tell the caller (now or later). */
void ltt_data_loop_request(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct ltt_data_req *req = (struct ltt_data_req *)((char *)job -
							   offsetof(struct ltt_data_req, job));
	struct ltt_data_thread *dt = req->dt;
	int status;

	(void)loop;
	status = run_request(dt, req);
	if (status != LTT_DATA_LATER)
		complete(dt, req, status);
}

/* A stopped part that got a packet since (its session started again) ticks as set. */
static void on_timer(struct ltt_chan_part *part, bool do_switch)
{
	struct ltt_stream *s;

	ltt_fault_point("data-timer");	/* a data thread stuck (LTTng's health tests) */
	for (s = part->streams; s; s = s->next) {
		if (do_switch)
			ltt_stream_switch(s);
		drain_stream(part->dt, s);
	}
	if (part->stopped && packets_got(part) != part->stopped_got)
		set_stopped(part, false);
}

static void on_switch_timer(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	on_timer(arg, true);
}

static void on_read_timer(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	on_timer(arg, false);
}

/*
 * --auto-reclaim-memory=older-than:AGE: give back what was read and
 * closed AGE ago.  A part that got no packet for a whole tick is idle:
 * its open packets are closed and read, and all it read is given back,
 * however young (LTTng's rule for a stream idle longer than AGE).
 */
static void on_reclaim_timer(struct ltt_evloop *loop, void *arg)
{
	struct ltt_chan_part *part = arg;
	bool idle = packets_got(part) == part->reclaim_got;
	struct ltt_stream *s;

	(void)loop;
	on_timer(part, idle);
	for (s = part->streams; s; s = s->next)
		reclaim_stream(s, idle ? 0 : part->chan->auto_reclaim_counts);
	part->reclaim_got = packets_got(part);
}

/* The first part from @part on (in dt->parts) of a channel relayed by @relay. */
static struct ltt_chan_part *relay_part(struct ltt_chan_part *part, const struct ltt_relay *relay)
{
	while (part && part->chan->relay != relay)
		part = part->data_next;
	return part;
}

/* The relays' live timers (data-relay.h's live_tick). */
void ltt_data_loop_live_tick(struct ltt_data_thread *dt, const struct ltt_relay *relay)
{
	struct ltt_chan_part *part;
	struct ltt_stream *s;

	/* a relayed channel has one part, on this thread (data.h) */
	for (part = relay_part(dt->parts, relay); part; part = relay_part(part->data_next, relay)) {
		for (s = part->streams; s; s = s->next) {
			/*
			 * The beacon's time is read before the switch: an event
			 * not in the packet it closes was reserved after it, so
			 * is later (the sink raises the time to the end of the
			 * packet it sent; LTTng's consumer reads it first too).
			 */
			uint64_t now = ltt_source_now(s->src);

			if (s->sink && ltt_sink_wants_packet(s->sink))
				ltt_stream_switch_empty(s);
			else
				ltt_stream_switch(s);
			drain_stream(dt, s);
			/* a beacon, unless the sink finds its packet news enough */
			if (s->sink) {
				ltt_sink_idle(s->sink, now, s->src->stream_id);
				ltt_source_idle(s->src, now);
			}
		}
	}
}

bool ltt_data_loop_live_pending(struct ltt_data_thread *dt, const struct ltt_relay *relay)
{
	struct ltt_chan_part *part;
	struct ltt_stream *s;

	for (part = relay_part(dt->parts, relay); part; part = relay_part(part->data_next, relay))
		for (s = part->streams; s; s = s->next)
			if (ltt_source_open_filled(s->src))
				return true;
	return false;
}

/* The loop's busy hook: give every busy stream another budget. */
static void drain_busy(struct ltt_evloop *loop, void *arg)
{
	struct ltt_data_thread *dt = arg;
	struct ltt_chan_part *part;
	struct ltt_stream *s;

	(void)loop;
	for (part = dt->parts; part && dt->nr_busy; part = part->data_next)
		for (s = part->streams; s; s = s->next)
			if (s->busy)
				drain_stream(dt, s);
	/* removed channels whose kernel streams have not ended: one at a time */
	for (part = dt->ending; part && dt->nr_busy; part = part->data_next)
		for (s = part->streams; s; s = s->next)
			if (s->busy && drain_stream(dt, s))
				return;		/* part is gone: the next turn goes on */
}

/*
 * LTTng's poll point, every LTT_TESTPOINT_POLL_MS: the pause begins, or it
 * ends and every stream is drained (their wakeups came meanwhile).
 */
static void on_testpoint_tick(struct ltt_evloop *loop, void *arg)
{
	struct ltt_data_thread *dt = arg;
	struct ltt_chan_part *lists[2] = { dt->parts, dt->ending }, *part, *next;
	struct ltt_stream *s;
	unsigned int i;
	bool paused;

	(void)loop;
	(void)LTT_TESTPOINT(consumerd_thread_data_poll);	/* LTTng's goes on too */
	paused = __atomic_load_n(&data_consumption_paused, __ATOMIC_RELAXED) != 0;
	if (paused == dt->paused)
		return;
	LTT_DBG("data-%u: data consumption %s (test point)", dt->index, paused ? "paused" : "resumed");
	dt->paused = paused;
	if (paused)
		return;
	for (i = 0; i < 2; i++)
		for (part = lists[i]; part; part = next) {
			next = part->data_next;
			for (s = part->streams; s; s = s->next)
				if (drain_stream(dt, s))
					break;	/* its part is gone */
		}
}

void ltt_data_loop_testpoints(struct ltt_data_thread *dt)
{
	struct ltt_evloop_timer *tick;
	int ret;

	if (!ltt_testpoints_on)
		return;
	if (dt->index == 0 && LTT_TESTPOINT(consumerd_thread_data))
		LTT_WARN("test point consumerd_thread_data failed: data consumption can't be paused");
	ret = ltt_evloop_timer_create(dt->loop, on_testpoint_tick, dt, &tick);
	if (ret) {
		LTT_WARN("data-%u: no timer for LTTng's test points: %s", dt->index, strerror(-ret));
		return;
	}
	ltt_evloop_timer_arm(tick, LTT_TESTPOINT_POLL_MS * 1000000ULL, LTT_TESTPOINT_POLL_MS * 1000000ULL);
	on_testpoint_tick(dt->loop, dt);	/* LTTng's asks before its first poll */
}
