// SPDX-License-Identifier: GPL-2.0-only
/*
 * data.c - the data thread: sources, sinks, timers and requests in one
 * epoll loop.
 *
 * Wakeup eventfds are shared with the traced applications, so they are
 * hostile: one that an application drains or blocks must not block us.
 * We never read them: they are registered edge-triggered, and each write
 * by a writer is a new edge.  Every stream is drained until the ring
 * buffer says it is empty (which re-arms the writers' wakeup) or until
 * its budget runs out, in which case the stream is marked busy and read
 * again before the loop sleeps, so one fast stream cannot starve others.
 * Kernel stream fds are registered edge-triggered too: the tracer wakes
 * us for each new packet, and for the end (EPOLLHUP), after which the
 * stream is read empty and leaves the set.  A stream whose sink would
 * block waits for EPOLLOUT on the sink's fd (one-shot) instead.
 *
 * Requests are carried out after the other events of an epoll batch, so
 * a request that removes a channel never leaves an event of that batch
 * pointing to a freed stream or timer.
 */
#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "common/log.h"
#include "consumerd/channel.h"
#include "consumerd/data.h"
#include "consumerd/prio.h"
#include "consumerd/source-kernel.h"
#include "consumerd/source-ust.h"
#include "consumerd/stream.h"

#define EVENTS_MAX 64
#define DRAIN_BUDGET 64	/* packets per stream before the others get a turn */
#define END_WAIT_MS 2000	/* for kernel streams to end when their channel goes */

struct ltt_data_thread {
	pthread_t thread;
	int epfd;
	int req_efd;			/* the command thread queued a request */
	struct ltt_poll_tag req_tag;

	pthread_mutex_t lock;		/* leaf; protects the queue and req->done */
	pthread_cond_t cond;		/* a request is done */
	struct ltt_data_req *head;
	struct ltt_data_req **tail;

	/* data thread only */
	bool stopping;
	struct ltt_channel *channels;	/* added, not yet removed */
	unsigned int nr_busy;		/* streams with the busy flag */
	struct ltt_scratch scratch;	/* overwrite-mode copies */
};

static void set_busy(struct ltt_data_thread *dt, struct ltt_stream *s, bool busy)
{
	if (busy != s->busy)
		dt->nr_busy += busy ? 1 : (unsigned int)-1;
	s->busy = busy;
}

/* A stream whose sink would block waits for it to be writable (once). */
static void wait_sink(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	struct epoll_event ev = { .events = EPOLLOUT | EPOLLONESHOT, .data.ptr = &s->sink_tag };
	int op = s->sink_armed ? EPOLL_CTL_MOD : EPOLL_CTL_ADD;

	if (s->sink->poll_fd < 0 || epoll_ctl(dt->epfd, op, s->sink->poll_fd, &ev)) {
		/* nothing to wait on: try again as a busy stream */
		LTT_DBG("%s: can't wait for its sink: %s", s->src->label, strerror(errno));
		set_busy(dt, s, true);
		return;
	}
	s->sink_armed = true;
}

/* What a drain or flush left: read again soon, wait for the sink, or sleep. */
static void after_drain(struct ltt_data_thread *dt, struct ltt_stream *s,
			enum ltt_stream_state state)
{
	set_busy(dt, s, state == LTT_STREAM_BUSY);
	if (state == LTT_STREAM_BLOCKED)
		wait_sink(dt, s);
}

/* A source that ended (a finalized kernel stream, read empty) leaves the set. */
static void forget_source(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	if (!s->src_armed)
		return;
	epoll_ctl(dt->epfd, EPOLL_CTL_DEL, s->src->poll_fd, NULL);
	s->src_armed = false;
}

static void drain_stream(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	after_drain(dt, s, ltt_stream_drain(s, &dt->scratch, DRAIN_BUDGET));
	if (s->ended) {
		LTT_DBG("%s: ended and read empty", s->src->label);
		forget_source(dt, s);
	}
}

/* Read a timerfd's expiration count; it is ours and non-blocking. */
static void ack_timer(int fd)
{
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		LTT_DBG("timer read: %s", strerror(errno));
}

/* A periodic timerfd of @us microseconds, in the epoll set. */
static int arm_timer(struct ltt_data_thread *dt, uint32_t us, struct ltt_poll_tag *tag,
		     int *ret_fd)
{
	struct itimerspec its = { 0 };
	struct epoll_event ev = { .events = EPOLLIN, .data.ptr = tag };
	int fd, ret;

	fd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (fd < 0)
		return -errno;
	its.it_interval.tv_sec = us / 1000000;
	its.it_interval.tv_nsec = (long)(us % 1000000) * 1000;
	its.it_value = its.it_interval;
	if (timerfd_settime(fd, 0, &its, NULL) || epoll_ctl(dt->epfd, EPOLL_CTL_ADD, fd, &ev)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	*ret_fd = fd;
	return 0;
}

static void disarm_timer(struct ltt_data_thread *dt, int *fd)
{
	if (*fd < 0)
		return;
	epoll_ctl(dt->epfd, EPOLL_CTL_DEL, *fd, NULL);
	close(*fd);
	*fd = -1;
}

/* LTT_DATA_ADD_CHANNEL: returns 0 or a timerfd error. */
static int do_add_channel(struct ltt_data_thread *dt, struct ltt_channel *chan)
{
	int ret = 0;

	assert(!chan->streams && chan->switch_tfd < 0 && chan->read_tfd < 0);
	if (chan->switch_timer_us)
		ret = arm_timer(dt, chan->switch_timer_us, &chan->switch_tag, &chan->switch_tfd);
	if (!ret && chan->read_timer_us)
		ret = arm_timer(dt, chan->read_timer_us, &chan->read_tag, &chan->read_tfd);
	if (ret) {
		LTT_ERR("channel %s: can't start its timers: %s", chan->name, strerror(-ret));
		disarm_timer(dt, &chan->switch_tfd);
		return ret;
	}
	chan->data_next = dt->channels;
	dt->channels = chan;
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

/* Does a stream already read the memory of @shm_fd?  Two readers would clash. */
static int memory_in_use(const struct ltt_data_thread *dt, int shm_fd)
{
	const struct ltt_channel *chan;
	const struct ltt_stream *o;
	struct stat st;

	if (fstat(shm_fd, &st))
		return -errno;
	for (chan = dt->channels; chan; chan = chan->data_next)
		for (o = chan->streams; o; o = o->next)
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
		.any_stream_id = !chan->streams,
		.stream_id = chan->streams ? chan->streams->src->stream_id : 0,
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
 * LTT_DATA_ADD_STREAM, LTT_DATA_ADD_KERNEL_STREAM: returns 0, -EEXIST for
 * a CPU the channel has or memory another stream reads, -ENOBUFS past
 * LTT_CHANNEL_MAX_STREAMS, -ENOMEM, or an error of the source,
 * ltt_stream_create() or epoll_ctl().
 */
static int do_add_stream(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	struct ltt_channel *chan = req->chan;
	struct epoll_event ev = { 0 };
	struct ltt_source *src;
	struct ltt_stream *s;
	int ret;

	if (ltt_channel_find_stream(chan, req->cpu))
		return -EEXIST;
	if (chan->nr_streams >= LTT_CHANNEL_MAX_STREAMS)
		return -ENOBUFS;
	if (req->type == LTT_DATA_ADD_KERNEL_STREAM)
		ret = make_kernel_source(req, &src);
	else
		ret = make_ust_source(dt, req, &src);
	if (ret)
		return ret;
	ret = ltt_stream_create(chan, req->cpu, src, &s);
	if (ret)
		return ret;
	if (s->src->copies)
		ret = grow_scratch(&dt->scratch, s->src->packet_size);
	ev.events = s->src->poll_events;
	ev.data.ptr = &s->src_tag;
	if (!ret && epoll_ctl(dt->epfd, EPOLL_CTL_ADD, s->src->poll_fd, &ev))
		ret = -errno;
	if (ret) {
		ltt_stream_destroy(s);
		return ret;
	}
	s->src_armed = true;
	ltt_channel_add_stream(chan, s);
	/* read what is there already; this also asks the writers for wakeups */
	drain_stream(dt, s);
	return 0;
}

/* LTT_DATA_FLUSH: returns 0. */
static int do_flush(struct ltt_data_thread *dt, struct ltt_channel *chan, bool final)
{
	struct ltt_stream *s;

	for (s = chan->streams; s; s = s->next)
		after_drain(dt, s, ltt_stream_flush(s, &dt->scratch, final));
	return 0;
}

/*
 * Sources that end (kernel streams) do once the session daemon has closed
 * their channel fd and the tracer has finalized them: write their last
 * packets as they come, for END_WAIT_MS at most in all.
 */
static void wait_ended(struct ltt_data_thread *dt, struct ltt_channel *chan)
{
	uint64_t deadline = ltt_rb_clock() + (uint64_t)END_WAIT_MS * 1000000, now;
	unsigned int left = 0;
	struct ltt_stream *s;
	struct pollfd pfd;

	for (s = chan->streams; s; s = s->next) {
		while (s->src->ends && !s->ended) {
			now = ltt_rb_clock();
			pfd.fd = s->src->poll_fd;
			pfd.events = POLLIN;
			if (now >= deadline ||
			    poll(&pfd, 1, (int)((deadline - now) / 1000000) + 1) == 0) {
				left++;
				break;
			}
			drain_stream(dt, s);
			if ((pfd.revents & (POLLHUP | POLLERR | POLLNVAL)) && !s->ended &&
			    !s->busy) {
				left++;		/* hung up, yet not read empty */
				break;
			}
		}
	}
	if (left)
		LTT_WARN("channel %s: %u kernel stream(s) not read to their end within %d ms (is the channel fd still open?): closed anyway",
			 chan->name, left, END_WAIT_MS);
}

/* Take the stream's descriptors out of the epoll set. */
static void forget_stream(struct ltt_data_thread *dt, struct ltt_stream *s)
{
	forget_source(dt, s);
	if (s->sink_armed)
		epoll_ctl(dt->epfd, EPOLL_CTL_DEL, s->sink->poll_fd, NULL);
	s->sink_armed = false;
}

/* LTT_DATA_REMOVE_CHANNEL: final flush, then close everything; returns 0. */
static int do_remove_channel(struct ltt_data_thread *dt, struct ltt_channel *chan)
{
	struct ltt_channel **p;
	struct ltt_stream *s;

	for (p = &dt->channels; *p && *p != chan; p = &(*p)->data_next)
		;
	assert(*p == chan);
	*p = chan->data_next;
	disarm_timer(dt, &chan->switch_tfd);
	disarm_timer(dt, &chan->read_tfd);
	do_flush(dt, chan, true);
	wait_ended(dt, chan);
	while ((s = chan->streams)) {
		chan->streams = s->next;
		set_busy(dt, s, false);
		forget_stream(dt, s);
		ltt_stream_destroy(s);
	}
	chan->nr_streams = 0;
	return 0;
}

static int run_request(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	switch (req->type) {
	case LTT_DATA_ADD_CHANNEL:
		return do_add_channel(dt, req->chan);
	case LTT_DATA_ADD_STREAM:
	case LTT_DATA_ADD_KERNEL_STREAM:
		return do_add_stream(dt, req);
	case LTT_DATA_FLUSH:
		return do_flush(dt, req->chan, req->final);
	case LTT_DATA_STATS:
		ltt_channel_stats(req->chan, &req->stats);
		return 0;
	case LTT_DATA_REMOVE_CHANNEL:
		return do_remove_channel(dt, req->chan);
	case LTT_DATA_STOP:
		assert(!dt->channels);
		dt->stopping = true;
		return 0;
	}
	return -EINVAL;
}

/* Carry out every queued request, in order, and tell each caller. */
static void run_requests(struct ltt_data_thread *dt)
{
	struct ltt_data_req *req, *next;
	uint64_t n;
	int status;

	if (read(dt->req_efd, &n, sizeof(n)) < 0 && errno != EAGAIN)
		LTT_DBG("request eventfd read: %s", strerror(errno));
	pthread_mutex_lock(&dt->lock);
	req = dt->head;
	dt->head = NULL;
	dt->tail = &dt->head;
	pthread_mutex_unlock(&dt->lock);
	for (; req; req = next) {
		next = req->next;	/* the caller may free req once done */
		status = run_request(dt, req);
		pthread_mutex_lock(&dt->lock);
		req->status = status;
		req->done = true;
		pthread_cond_broadcast(&dt->cond);
		pthread_mutex_unlock(&dt->lock);
	}
}

static void on_timer(struct ltt_data_thread *dt, struct ltt_channel *chan, bool do_switch)
{
	struct ltt_stream *s;

	ack_timer(do_switch ? chan->switch_tfd : chan->read_tfd);
	for (s = chan->streams; s; s = s->next) {
		if (do_switch)
			ltt_stream_switch(s);
		drain_stream(dt, s);
	}
}

/* Give every busy stream another budget. */
static void drain_busy(struct ltt_data_thread *dt)
{
	struct ltt_channel *chan;
	struct ltt_stream *s;

	for (chan = dt->channels; chan && dt->nr_busy; chan = chan->data_next)
		for (s = chan->streams; s; s = s->next)
			if (s->busy)
				drain_stream(dt, s);
}

/*
 * The data thread must get the CPU soon after a wakeup: writers that fill
 * the buffers meanwhile lose events (prio.h).
 */
static void raise_priority(void)
{
	ltt_prio_raise();
}

static void *data_main(void *arg)
{
	struct ltt_data_thread *dt = arg;
	struct epoll_event evs[EVENTS_MAX];
	bool requests;
	int i, n;

	raise_priority();
	while (!dt->stopping) {
		n = epoll_wait(dt->epfd, evs, EVENTS_MAX, dt->nr_busy ? 0 : -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			LTT_ERR("data thread: epoll_wait: %s", strerror(errno));
			abort();	/* only EBADF, EFAULT, EINVAL: our bug */
		}
		requests = false;
		for (i = 0; i < n; i++) {
			struct ltt_poll_tag *tag = evs[i].data.ptr;

			switch (tag->kind) {
			case LTT_POLL_REQUEST:
				requests = true;
				break;
			case LTT_POLL_SOURCE:	/* packets, or the end (EPOLLHUP) */
			case LTT_POLL_SINK:
				drain_stream(dt, tag->obj);
				break;
			case LTT_POLL_SWITCH_TIMER:
				on_timer(dt, tag->obj, true);
				break;
			case LTT_POLL_READ_TIMER:
				on_timer(dt, tag->obj, false);
				break;
			}
		}
		if (requests)
			run_requests(dt);
		drain_busy(dt);
	}
	return NULL;
}

int ltt_data_thread_start(struct ltt_data_thread **ret_dt)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct ltt_data_thread *dt;
	int ret;

	dt = calloc(1, sizeof(*dt));
	if (!dt)
		return -ENOMEM;
	dt->tail = &dt->head;
	dt->req_tag.kind = LTT_POLL_REQUEST;
	dt->req_tag.obj = dt;
	ev.data.ptr = &dt->req_tag;
	dt->epfd = epoll_create1(EPOLL_CLOEXEC);
	dt->req_efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	if (dt->epfd < 0 || dt->req_efd < 0 ||
	    epoll_ctl(dt->epfd, EPOLL_CTL_ADD, dt->req_efd, &ev)) {
		ret = -errno;
		goto fail;
	}
	pthread_mutex_init(&dt->lock, NULL);
	pthread_cond_init(&dt->cond, NULL);
	ret = -pthread_create(&dt->thread, NULL, data_main, dt);
	if (ret) {
		pthread_cond_destroy(&dt->cond);
		pthread_mutex_destroy(&dt->lock);
		goto fail;
	}
	*ret_dt = dt;
	return 0;
fail:
	if (dt->req_efd >= 0)
		close(dt->req_efd);
	if (dt->epfd >= 0)
		close(dt->epfd);
	free(dt);
	return ret;
}

void ltt_data_thread_stop(struct ltt_data_thread *dt)
{
	struct ltt_data_req req = { .type = LTT_DATA_STOP };

	if (!dt)
		return;
	ltt_data_call(dt, &req);
	pthread_join(dt->thread, NULL);
	pthread_cond_destroy(&dt->cond);
	pthread_mutex_destroy(&dt->lock);
	close(dt->req_efd);
	close(dt->epfd);
	free(dt->scratch.buf);
	free(dt);
}

int ltt_data_call(struct ltt_data_thread *dt, struct ltt_data_req *req)
{
	uint64_t one = 1;

	req->done = false;
	req->status = 0;
	req->next = NULL;
	pthread_mutex_lock(&dt->lock);
	*dt->tail = req;
	dt->tail = &req->next;
	pthread_mutex_unlock(&dt->lock);
	/* never fails for a non-blocking eventfd below its maximum */
	if (write(dt->req_efd, &one, sizeof(one)) < 0)
		LTT_ERR("data thread request eventfd: %s", strerror(errno));
	pthread_mutex_lock(&dt->lock);
	while (!req->done)
		pthread_cond_wait(&dt->cond, &dt->lock);
	pthread_mutex_unlock(&dt->lock);
	return req->status;
}
