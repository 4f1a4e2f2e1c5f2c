// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - one stream: mapping, reading, writing packets whole.
 */
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "consumerd/channel.h"
#include "consumerd/stream.h"

_Static_assert(LTT_RB_PACKET_HEADER_SIZE == LTT_CTF_PACKET_HEADER_SIZE, "packet header");

static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = v > UINT64_MAX - *sum ? UINT64_MAX : *sum + v;
}

/*
 * The memory must not shrink under the mapping (an access past the end
 * would be SIGBUS): the session daemon seals its memfds; seal one that is
 * not, or refuse it.  Sets the size to map and the memory's identity.
 */
static int check_shm(struct ltt_stream *s, int fd)
{
	struct stat st;
	int seals;

	seals = fcntl(fd, F_GET_SEALS);
	if (seals < 0 || !(seals & F_SEAL_SHRINK)) {
		if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW)) {
			LTT_ERR("stream memory is not a memfd sealed against shrinking, and can't be sealed: %s",
				strerror(errno));
			return -EPERM;
		}
	}
	if (fstat(fd, &st))
		return -errno;
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
static int check_identity(struct ltt_stream *s, const struct ltt_channel *chan)
{
	const struct ltt_stream *other = chan->streams;

	if (s->rb.cpu != s->cpu || s->rb.overwrite != chan->overwrite ||
	    memcmp(s->rb.uuid, chan->uuid, sizeof(s->rb.uuid)) ||
	    (other && other->rb.stream_id != s->rb.stream_id)) {
		LTT_ERR("channel %s cpu %" PRIu32 ": the ring buffer is for cpu %" PRIu32
			", stream id %" PRIu32 ", %s mode, another trace or stream id: refused",
			chan->name, s->cpu, s->rb.cpu, s->rb.stream_id,
			s->rb.overwrite ? "overwrite" : "discard");
		return -EINVAL;
	}
	s->subbuf_size = s->rb.subbuf_size;
	s->num_subbuf = s->rb.num_subbuf;
	return 0;
}

/* Map the region and attach the reader's handle to it. */
static int map_region(struct ltt_stream *s, int shm_fd)
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

/* The stream's sink in its channel's output, named CHANNEL_CPU. */
static int open_sink(struct ltt_stream *s, const struct ltt_channel *chan)
{
	char name[LTT_SINK_FILE_BASE_MAX + 1];
	int n;

	n = snprintf(name, sizeof(name), "%s_%" PRIu32, chan->name, s->cpu);
	if (n < 0 || (size_t)n >= sizeof(name))
		return -ENAMETOOLONG;
	return ltt_output_open_sink(chan->output, name, &s->sink);
}

int ltt_stream_create(const struct ltt_channel *chan, uint32_t cpu, int shm_fd, int wakeup_fd,
		      struct ltt_stream **ret_stream)
{
	struct ltt_stream *s;
	int ret;

	if (!chan || !ret_stream || shm_fd < 0 || wakeup_fd < 0)
		return -EINVAL;
	if (not_eventfd(wakeup_fd)) {
		LTT_ERR("channel %s cpu %" PRIu32 ": the wakeup fd is not an eventfd", chan->name,
			cpu);
		return -EINVAL;
	}
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->chan = chan;
	s->cpu = cpu;
	s->wakeup_fd = -1;
	s->wake_tag.kind = LTT_POLL_WAKEUP;
	s->wake_tag.obj = s;
	ret = map_region(s, shm_fd);
	if (!ret)
		ret = check_identity(s, chan);
	if (ret)
		goto fail;
	s->wakeup_fd = fcntl(wakeup_fd, F_DUPFD_CLOEXEC, 3);
	if (s->wakeup_fd < 0) {
		ret = -errno;
		goto fail;
	}
	ret = open_sink(s, chan);
	if (ret)
		goto fail;
	*ret_stream = s;
	return 0;
fail:
	ltt_stream_destroy(s);
	return ret;
}

void ltt_stream_destroy(struct ltt_stream *s)
{
	if (!s)
		return;
	ltt_sink_destroy(s->sink);
	if (s->wakeup_fd >= 0)
		close(s->wakeup_fd);
	if (s->mem)
		munmap(s->mem, s->len);
	free(s);
}

/* Write one packet whole, from its validated header then its body. */
static void write_packet(struct ltt_stream *s, const struct ltt_rb_packet *pkt)
{
	struct ltt_sink_packet out = {
		.len = pkt->packet_size,
		.iov = {
			{ .iov_base = (void *)(uintptr_t)&pkt->header,
			  .iov_len = LTT_RB_PACKET_HEADER_SIZE },
			{ .iov_base = (void *)((uintptr_t)pkt->data + LTT_RB_PACKET_HEADER_SIZE),
			  .iov_len = (size_t)(pkt->packet_size - LTT_RB_PACKET_HEADER_SIZE) },
		},
		.iovcnt = 2,
		.splice_fd = -1,
		.entry = {
			.packet_size = pkt->packet_size * 8,
			.content_size = pkt->content_size * 8,
			.timestamp_begin = pkt->timestamp_begin,
			.timestamp_end = pkt->timestamp_end,
			.events_discarded = pkt->events_discarded,
			.stream_id = pkt->header.stream_id,
			.stream_instance_id = pkt->header.stream_instance_id,
			.packet_seq_num = pkt->seq_num,
		},
	};
	int ret;

	ret = ltt_sink_write(s->sink, &out);
	if (ret) {
		if (!s->packets_failed)
			LTT_ERR("channel %s cpu %" PRIu32 ": can't write packet %" PRIu64
				": %s (counted lost; further failures are not logged)",
				s->chan->name, s->cpu, pkt->seq_num, strerror(-ret));
		s->packets_failed++;
		return;
	}
	s->bytes_written += pkt->packet_size;
}

/* Drain at most @budget packets; *ret_used says how many were tried. */
static int drain_n(struct ltt_stream *s, struct ltt_scratch *scratch, uint64_t budget,
		   uint64_t *ret_used)
{
	struct ltt_rb_packet pkt;
	uint64_t n;
	int ret;

	for (n = 0; n < budget; n++) {
		if (s->chan->overwrite)
			ret = ltt_rb_copy_next_subbuf(&s->rb, scratch->buf, scratch->len, &pkt);
		else
			ret = ltt_rb_get_next_subbuf(&s->rb, &pkt);
		if (ret == -EAGAIN)
			break;
		if (ret == -EIO) {
			/* skipped and counted by the ring buffer */
			if (!s->warned_corrupt)
				LTT_WARN("channel %s cpu %" PRIu32 ": corrupt packet skipped (counted lost; further ones are not logged)",
					 s->chan->name, s->cpu);
			s->warned_corrupt = true;
			continue;
		}
		if (ret == -ESTALE)
			continue;	/* overwritten: the ring buffer moved on */
		if (ret) {
			LTT_ERR("channel %s cpu %" PRIu32 ": can't read: %s", s->chan->name, s->cpu,
				strerror(-ret));
			break;
		}
		write_packet(s, &pkt);
		ret = ltt_rb_put_subbuf(&s->rb, &pkt);
		assert(!ret);
	}
	*ret_used = n;
	return n == budget;
}

int ltt_stream_drain(struct ltt_stream *s, struct ltt_scratch *scratch, unsigned int budget)
{
	uint64_t used;

	return drain_n(s, scratch, budget, &used);
}

void ltt_stream_switch(struct ltt_stream *s)
{
	int ret = ltt_rb_flush(&s->rb, false);

	if (ret && ret != -ENODATA)
		LTT_DBG("channel %s cpu %" PRIu32 ": switch: %s", s->chan->name, s->cpu,
			strerror(-ret));
}

/*
 * No writer remains: give up on the packets they left incomplete, reading
 * whatever completes in between, until nothing is reserved past the read
 * position.  Bounded in total work: legitimately at most a lap of
 * sub-buffers is pending, each read or given up once; a region that lies,
 * or a writer still alive, runs into the bound.
 */
static int give_up_incomplete(struct ltt_stream *s, struct ltt_scratch *scratch)
{
	uint64_t left = 2 * s->num_subbuf + 2, used;
	int ret;

	while (left) {
		ret = ltt_rb_abandon_subbuf(&s->rb);
		if (ret == -ENODATA)
			return 0;
		if (!ret)
			LTT_WARN("channel %s cpu %" PRIu32 ": a packet left incomplete by a dead writer was given up (counted lost)",
				 s->chan->name, s->cpu);
		left--;
		/* abandoned, complete after all (-EBUSY), or raced (-EAGAIN) */
		drain_n(s, scratch, left, &used);
		left -= used;
	}
	return 1;
}

int ltt_stream_flush(struct ltt_stream *s, struct ltt_scratch *scratch, bool final)
{
	/* at most a lap of sub-buffers is complete at any time (2^20 at most) */
	unsigned int budget = (unsigned int)s->num_subbuf + 1;
	int busy;

	ltt_stream_switch(s);
	busy = ltt_stream_drain(s, scratch, budget);
	if (final)
		busy |= give_up_incomplete(s, scratch);
	return busy;
}

void ltt_stream_stats(const struct ltt_stream *s, struct ltt_channel_stats *stats)
{
	const struct ltt_rb_reader_stats *rs = &s->rb.stats;

	add_sat(&stats->events_lost, ltt_rb_events_lost(&s->rb));
	add_sat(&stats->packets_lost, rs->packets_corrupt);
	add_sat(&stats->packets_lost, rs->packets_overwritten);
	add_sat(&stats->packets_lost, rs->packets_abandoned);
	add_sat(&stats->packets_lost, s->packets_failed);
	add_sat(&stats->bytes_written, s->bytes_written);
}
