// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-ust.c - the "ust" source: mapping a user-space ring buffer and
 * reading its packets.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "consumerd/source/source-ust.h"

_Static_assert(LTT_RB_PACKET_HEADER_SIZE == LTT_CTF_PACKET_HEADER_SIZE, "packet header");

struct ust_source {
	struct ltt_source base;
	void *mem;			/* the mapping */
	size_t len;
	dev_t shm_dev;			/* the memory's identity: one reader each */
	ino_t shm_ino;
	struct ltt_rb rb;		/* the reader's handle */
	struct ltt_rb_packet pkt;	/* the packet held, if any */
	struct ltt_rb_packet snap_pkt;	/* the last snapshot copy */
	uint64_t snap_floor;		/* its timestamp_end: the next may not begin before */
	int lock_fd;			/* our own description: writer block locks */
	struct ltt_rb_file_repair repair;	/* over lock_fd */
	bool warned_corrupt;
	bool warned_torn;
	uint64_t unread_lost;		/* events left unread when the stream closed */
};

/*
 * The packet at the read position is closed but short of commits: if the
 * writers that owe it are dead, finish it for them.  0 when it can be read
 * now; -ENOTRECOVERABLE when it never will be (its writers are gone, and
 * what they owed can't be told apart: give it up); -ENOLCK without our
 * own description of the memory, which tells dead writers from live ones.
 */
static int repair(struct ust_source *s)
{
	int ret;

	if (s->lock_fd < 0)
		return -ENOLCK;
	ret = ltt_rb_repair_subbuf(&s->rb, &s->repair.ops);
	if (!ret && !s->warned_torn) {
		LTT_WARN("%s: a program died while recording an event: its packet is kept, the event counted lost (further ones are not logged)",
			 s->base.label);
		s->warned_torn = true;
	}
	return ret;
}

/* Give up the packet at the read position: its events counted lost. */
static int give_up(struct ust_source *s)
{
	int ret = ltt_rb_abandon_subbuf(&s->rb);

	if (!ret)
		LTT_WARN("%s: a packet left incomplete by a dead writer was given up (counted lost)",
			 s->base.label);
	return ret;
}

/*
 * The memory must not shrink under the mapping (an access past the end
 * would be SIGBUS): the session daemon seals its memfds; seal one that is
 * not, or refuse it.  A file with a name is a session's --shm-path
 * buffer (files can't be sealed: the session's owner keeps its size).
 * Sets the size to map and the memory's identity.
 */
static int check_shm(struct ust_source *s, int fd)
{
	struct stat st;
	int seals;

	if (fstat(fd, &st))
		return -errno;
	seals = fcntl(fd, F_GET_SEALS);
	if ((seals < 0 || !(seals & F_SEAL_SHRINK)) && !(S_ISREG(st.st_mode) && st.st_nlink)) {
		if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW)) {
			LTT_ERR("stream memory is not a memfd sealed against shrinking, and can't be sealed: %s",
				strerror(errno));
			return -EPERM;
		}
	}
	if (!S_ISREG(st.st_mode) || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return -EINVAL;
	s->len = (size_t)st.st_size;
	s->shm_dev = st.st_dev;
	s->shm_ino = st.st_ino;
	return 0;
}

/*
 * Is @fd not an eventfd?  Only for a clear error: we never read the fd,
 * so without /proc anything epoll accepts is good enough.
 */
static bool not_eventfd(int fd)
{
	char path[64], target[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target) - 1);
	if (n < 0)
		return false;
	target[n] = '\0';
	return strcmp(target, "anon_inode:[eventfd]") != 0;
}

/*
 * Does the region agree with the channel and the CPU it was added for?
 * ringbuf.h has no accessors for what ltt_rb_attach() validated, so this
 * reads the handle's private copies: they live in our memory, and nothing
 * in the region can change them.
 */
static int check_identity(struct ust_source *s, const struct ltt_source_ust_cfg *cfg)
{
	if (s->rb.cpu != cfg->cpu || s->rb.overwrite != cfg->overwrite ||
	    memcmp(s->rb.uuid, cfg->uuid, sizeof(s->rb.uuid)) ||
	    (!cfg->any_stream_id && cfg->stream_id != s->rb.stream_id)) {
		LTT_ERR("channel %s cpu %" PRIu32 ": the ring buffer is for cpu %" PRIu32
			", stream id %" PRIu32 ", %s mode, another trace or stream id: refused",
			cfg->chan_name, cfg->cpu, s->rb.cpu, s->rb.stream_id,
			s->rb.overwrite ? "overwrite" : "discard");
		return -EINVAL;
	}
	s->base.packet_size = s->rb.subbuf_size;
	s->base.nr_packets = s->rb.num_subbuf;
	s->base.stream_id = s->rb.stream_id;
	s->base.copies = s->rb.overwrite;
	return 0;
}

/* Map the region and attach the reader's handle to it. */
static int map_region(struct ust_source *s, int shm_fd)
{
	void *mem;
	int ret;

	ret = check_shm(s, shm_fd);
	if (ret)
		return ret;
	mem = mmap(NULL, s->len, PROT_READ | PROT_WRITE, MAP_SHARED, shm_fd, 0);
	if (mem == MAP_FAILED) {
		ret = -errno;
		LTT_ERR("can't map stream memory of %zu bytes: %s", s->len, strerror(errno));
		return ret;
	}
	s->mem = mem;
	ret = ltt_rb_attach(&s->rb, s->mem, s->len);
	if (ret)
		LTT_ERR("stream memory of %zu bytes is not a valid ring buffer: refused", s->len);
	return ret;
}

/* A packet whole, from its validated header then its body. */
static void fill_packet(const struct ltt_rb_packet *pkt, struct ltt_sink_packet *out)
{
	out->len = pkt->packet_size;
	out->iov[0].iov_base = (void *)(uintptr_t)&pkt->header;
	out->iov[0].iov_len = LTT_RB_PACKET_HEADER_SIZE;
	out->iov[1].iov_base = (void *)((uintptr_t)pkt->data + LTT_RB_PACKET_HEADER_SIZE);
	out->iov[1].iov_len = (size_t)(pkt->packet_size - LTT_RB_PACKET_HEADER_SIZE);
	out->iovcnt = 2;
	out->splice_fd = -1;
	out->events = pkt->events;
	ltt_source_entry(&pkt->header, &out->entry);
}

static int ust_get(struct ltt_source *src, struct ltt_scratch *scratch,
		   struct ltt_sink_packet *ret_pkt)
{
	struct ust_source *s = (struct ust_source *)src;
	int ret;

	uint64_t tries;
	int fixed;

	for (tries = 0;; tries++) {
		if (s->rb.overwrite)
			ret = ltt_rb_copy_next_subbuf(&s->rb, scratch->buf, scratch->len, &s->pkt);
		else
			ret = ltt_rb_get_next_subbuf(&s->rb, &s->pkt);
		/*
		 * Nothing ready: maybe dead writers hold the packet back.  Finish
		 * it for them, or give it up (counted) when that can't be done:
		 * no writer will ever complete it, and the packets after it would
		 * wait for good.  At most a lap of packets.
		 */
		if (ret != -EAGAIN || tries > s->base.nr_packets)
			break;
		fixed = repair(s);
		if (fixed == -ENOTRECOVERABLE)
			fixed = give_up(s);
		if (fixed)
			break;
	}
	if (ret == -EIO) {
		/* skipped and counted by the ring buffer */
		if (!s->warned_corrupt)
			LTT_WARN("%s: corrupt packet skipped (counted lost; further ones are not logged)",
				 src->label);
		s->warned_corrupt = true;
	}
	if (!ret)
		fill_packet(&s->pkt, ret_pkt);
	/* -ESTALE: overwritten, the ring buffer moved on */
	return ret;
}

static int ust_put(struct ltt_source *src)
{
	struct ust_source *s = (struct ust_source *)src;

	return ltt_rb_put_subbuf(&s->rb, &s->pkt);
}

static void ust_flush(struct ltt_source *src, bool even_if_empty)
{
	struct ust_source *s = (struct ust_source *)src;
	int ret = ltt_rb_flush(&s->rb, even_if_empty);

	if (ret && ret != -ENODATA)
		LTT_DBG("%s: switch: %s", src->label, strerror(-ret));
}

static void ust_switch(struct ltt_source *src)
{
	ust_flush(src, false);
}

static void ust_switch_empty(struct ltt_source *src)
{
	ust_flush(src, true);
}

static bool ust_open_filled(const struct ltt_source *src)
{
	const struct ust_source *s = (const struct ust_source *)src;

	return ltt_rb_open_filled(&s->rb);
}

static int ust_give_up(struct ltt_source *src)
{
	struct ust_source *s = (struct ust_source *)src;
	int ret = repair(s);

	/* complete now: read it */
	if (!ret)
		return -EBUSY;
	if (ret == -EAGAIN)
		return ret;
	/*
	 * No writer should remain: a live one (-EBUSY), an untracked one, a
	 * slot no record owes (-ENOENT) lose the packet, counted.
	 */
	return give_up(s);
}

static int ust_snap_span(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			 uint64_t *ret_end)
{
	struct ust_source *s = (struct ust_source *)src;
	struct ltt_rb_span span;
	int ret;

	ust_switch(src);
	ret = ltt_rb_snapshot_span(&s->rb, max_packets, &span);
	if (ret)
		return ret;
	s->snap_floor = s->rb.last_ts_end;
	*ret_begin = span.begin;
	*ret_end = span.end;
	return 0;
}

static int ust_snap_peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			 struct ltt_sink_packet *ret_pkt)
{
	struct ust_source *s = (struct ust_source *)src;
	int ret;

	ret = ltt_rb_peek_subbuf(&s->rb, pos, s->snap_floor, scratch->buf, scratch->len,
				 &s->snap_pkt);
	if (ret)
		return ret;
	s->snap_floor = s->snap_pkt.timestamp_end;
	fill_packet(&s->snap_pkt, ret_pkt);
	return 0;
}

static bool ust_reads(const struct ltt_source *src, const struct stat *st)
{
	const struct ust_source *s = (const struct ust_source *)src;

	return s->shm_dev == st->st_dev && s->shm_ino == st->st_ino;
}

static void ust_stats(const struct ltt_source *src, struct ltt_channel_stats *stats)
{
	const struct ust_source *s = (const struct ust_source *)src;
	const struct ltt_rb_reader_stats *rs = &s->rb.stats;

	ltt_add_sat(&stats->events_lost, ltt_rb_events_lost(&s->rb));
	ltt_add_sat(&stats->packets_lost, rs->packets_corrupt);
	ltt_add_sat(&stats->packets_lost, rs->packets_overwritten);
	ltt_add_sat(&stats->packets_lost, rs->packets_abandoned);
	ltt_add_sat(&stats->events_lost, s->unread_lost);
}

/*
 * The stream closes (ltt_source_abandon()): the events committed to the
 * packets it did not read (a packet a live writer still holds, which the
 * final drain could neither read nor give up, and those after it) are
 * counted lost, from the commit words (ltt_rb_events_unread()).  Called
 * again, it counts only what was committed since.
 */
static uint64_t ust_abandon(struct ltt_source *src)
{
	struct ust_source *s = (struct ust_source *)src;
	uint64_t unread = ltt_rb_events_unread(&s->rb), more;

	if (unread <= s->unread_lost)
		return 0;
	more = unread - s->unread_lost;
	s->unread_lost = unread;
	return more;
}

/*
 * Our own open file description of the region, for the writer block locks
 * (those of the fd we were given are shared with every holder of it).
 * Without one, dead writers' packets can only be given up.
 */
static void open_lock_fd(struct ust_source *s, int shm_fd)
{
	s->lock_fd = ltt_rb_own_fd(shm_fd);
	if (s->lock_fd < 0)
		LTT_WARN("%s: can't open the stream's memory again (%s): packets of writers that die mid-event will be given up",
			 s->base.label, strerror(-s->lock_fd));
	ltt_rb_file_repair_init(&s->repair, &s->rb, s->lock_fd, F_WRLCK);
}

/* Committed to packets that are not in the trace. */
static uint64_t ust_events_skipped(const struct ltt_source *src)
{
	return ltt_rb_events_skipped(&((const struct ust_source *)src)->rb);
}

static void ust_destroy(struct ltt_source *src)
{
	struct ust_source *s = (struct ust_source *)src;

	ltt_fd_close(&s->base.poll_fd);
	ltt_fd_close(&s->lock_fd);
	if (s->mem)
		munmap(s->mem, s->len);
	free(s);
}

static uint64_t ust_now(const struct ltt_source *src)
{
	return ltt_rb_clock(&((const struct ust_source *)src)->rb);
}

/* A few tries: a writer that opens a sub-buffer meanwhile makes it give up. */
static int ust_reclaim(struct ltt_source *src, uint64_t older_than, uint64_t *subbufs)
{
	struct ust_source *s = (struct ust_source *)src;
	uint64_t n = 0;
	unsigned int tries;
	int ret = -EAGAIN;

	for (tries = 0; tries < 8 && ret == -EAGAIN; tries++)
		ret = ltt_rb_reclaim(&s->rb, older_than, &n);
	if (!ret)
		*subbufs += n;
	return ret;
}

static const struct ltt_source_ops ust_ops = {
	.name = "ust",
	.get = ust_get,
	.put = ust_put,
	.switch_packet = ust_switch,
	.switch_empty = ust_switch_empty,
	.open_filled = ust_open_filled,
	.give_up = ust_give_up,
	.reads = ust_reads,
	.snap_span = ust_snap_span,
	.snap_peek = ust_snap_peek,
	.stats = ust_stats,
	.reclaim = ust_reclaim,
	.events_skipped = ust_events_skipped,
	.now = ust_now,
	.abandon = ust_abandon,
	.destroy = ust_destroy,
};

int ltt_source_ust_create(const struct ltt_source_ust_cfg *cfg, struct ltt_source **ret_src)
{
	struct ust_source *s;
	int ret;

	if (!cfg || !cfg->chan_name || !cfg->uuid || !ret_src || cfg->shm_fd < 0 ||
	    cfg->wakeup_fd < 0)
		return -EINVAL;
	if (not_eventfd(cfg->wakeup_fd)) {
		LTT_ERR("channel %s cpu %" PRIu32 ": the wakeup fd is not an eventfd",
			cfg->chan_name, cfg->cpu);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->base.ops = &ust_ops;
	s->base.poll_fd = -1;
	s->lock_fd = -1;
	/* edge-triggered: the eventfd is shared with the writers, never read */
	s->base.poll_events = EPOLLIN | EPOLLET;
	snprintf(s->base.label, sizeof(s->base.label), "channel %s cpu %" PRIu32, cfg->chan_name,
		 cfg->cpu);
	ret = map_region(s, cfg->shm_fd);
	if (!ret)
		ret = check_identity(s, cfg);
	if (ret)
		goto fail;
	open_lock_fd(s, cfg->shm_fd);
	s->base.poll_fd = fcntl(cfg->wakeup_fd, F_DUPFD_CLOEXEC, 3);
	if (s->base.poll_fd < 0) {
		ret = -errno;
		goto fail;
	}
	*ret_src = &s->base;
	return 0;
fail:
	ust_destroy(&s->base);
	return ret;
}
