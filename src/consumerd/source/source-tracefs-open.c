// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-tracefs-open.c - a "tracefs" source made: the pipe made
 * non-blocking, its stats file found, the converter given the map's
 * layouts and the channel's contexts, the packet queue, and the CPU's
 * BPF ring attached.  What it then does is source-tracefs.c's.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "common/base/log.h"
#include "consumerd/trace/channel.h"
#include "consumerd/source/source-tracefs-int.h"

/*
 * per_cpu/cpuN/stats beside the pipe, found through /proc/self/fd (the
 * protocol passes only the pipe): -1 when it can't be, logged.
 */
static int open_stats(struct tracefs_source *t)
{
	static const char pipe_name[] = "/trace_pipe_raw";
	char link[64], path[4096];
	size_t len;
	ssize_t n;
	int fd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", t->fd);
	n = readlink(link, path, sizeof(path) - 1);
	len = n > 0 ? (size_t)n : 0;
	path[len] = '\0';
	if (len < sizeof(pipe_name) || strcmp(path + len - (sizeof(pipe_name) - 1), pipe_name) ||
	    len + 6 >= sizeof(path)) {
		LTT_WARN("%s: the pipe's stats file can't be found (%s): events a full buffer drops are not counted",
			 t->base.label, n < 0 ? strerror(errno) : "not a trace_pipe_raw");
		return -1;
	}
	strcpy(path + len - (sizeof(pipe_name) - 1), "/stats");
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		LTT_WARN("%s: can't open %s (%s): events a full buffer drops are not counted",
			 t->base.label, path, strerror(errno));
	return fd;
}

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
	t->stats_fd = open_stats(t);
	/* the records read before this source: its ledger's start (source.h) */
	t->has_read_start = !ltt_tfs_read_stat(t, "read events", &t->read_start);
	/* what the kernel overwrote: the stats file's "overrun", exact, once it reads */
	if (!ltt_tfs_read_lost(t, &lost))
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

int ltt_source_tracefs_of(struct ltt_channel *chan, uint32_t cpu, int pipe_fd, int map_fd,
			  int bpf_ring_fd, int bpf_lost_fd, struct ltt_source **ret_src)
{
	struct ltt_source_tracefs_cfg cfg = {
		.chan_name = chan->name,
		.cpu = cpu,
		.uuid = chan->uuid,
		.packet_size = chan->subbuf_size,
		.num_subbuf = chan->num_subbuf,
		.stream_id = chan->stream_id,
		.ctx = chan->ctx,
		.nr_ctx = chan->nr_ctx,
		.pipe_fd = pipe_fd,
		.keep = chan->snapshot,
		.bpf_ring_fd = bpf_ring_fd,
		.bpf_lost_fd = bpf_lost_fd,
	};
	bool first = !chan->tfs_events;
	int ret;

	ret = ltt_tfs_events_open(map_fd, &chan->tfs_events);
	if (ret == -EINVAL)
		LTT_ERR("tracefs channel %s cpu %" PRIu32 ": %s: refused", chan->name, cpu,
			first ? "the fd is not an event map (common/ftrace/ftrace-map.h)" :
				"the event map is not the one of the channel's other streams");
	if (ret)
		return ret;
	cfg.events = chan->tfs_events;
	return ltt_source_tracefs_create(&cfg, ret_src);
}
