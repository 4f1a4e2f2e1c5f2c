// SPDX-License-Identifier: GPL-2.0-only
/*
 * source-kernel.c - the "kernel" source: a stream fd of ltt-tracer.ko.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "consumerd/source/source-kernel.h"
#include "abi/ltt-abi.h"

struct kernel_source {
	struct ltt_source base;
	int fd;				/* the stream fd (ours) */
	uint32_t cpu;
	uint8_t uuid[16];
	void *map;			/* read-only, from the first packet on */
	size_t map_len;
	bool map_failed;
	bool stream_id_known;
	struct ltt_kabi_subbuf sb;	/* the packet held */
	struct ltt_kabi_stream_stats last;	/* the tracer's counters, last read */
	uint64_t packets_skipped;	/* header disagreed, or no mapping */
	bool warned;
	bool got_once;			/* a packet was taken: EBUSY is not a dead reader's */
};

/*
 * The stream's mmap area, mapped at the first packet, as large as the
 * tracer says.  A tracer that does not say (mmap_size 0) gets the buffer
 * itself, num_subbuf * subbuf_size, grown to reach a packet beyond it
 * (the tracer refuses a mapping larger than its area).
 */
static int map_stream(struct kernel_source *k)
{
	uint64_t len = k->sb.mmap_size, need = k->sb.offset + k->sb.packet_size;
	void *map;

	if (k->sb.offset > UINT64_MAX - k->sb.packet_size)
		return -EIO;
	if (k->map && (need <= k->map_len || k->sb.mmap_size))
		return 0;	/* the checks that follow refuse what lies outside */
	if (k->map_failed)
		return -EIO;
	if (!len)
		len = k->base.packet_size * k->base.nr_packets;
	if (!k->sb.mmap_size && need > len)
		len = need;
	if (len > SIZE_MAX || len < k->base.packet_size) {
		k->map_failed = true;
		return -EIO;
	}
	map = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, k->fd, 0);
	if (map == MAP_FAILED) {
		LTT_ERR("%s: can't map the stream's %" PRIu64 " bytes: %s (its packets are lost)",
			k->base.label, len, strerror(errno));
		k->map_failed = true;
		return -EIO;
	}
	if (k->map)
		munmap(k->map, k->map_len);
	k->map = map;
	k->map_len = (size_t)len;
	return 0;
}

/*
 * Does the packet at @data (@content bytes of data, sequence number @seq,
 * as the tracer said) agree with what the tracer said and with the
 * stream?  NULL if so, else what is wrong.
 */
static const char *header_invalid(struct kernel_source *k, const void *data, uint64_t content,
				  uint64_t seq, struct ltt_rb_packet_header *ret_hdr)
{
	struct ltt_rb_packet_header h;

	if (content < LTT_RB_PACKET_HEADER_SIZE || content > k->base.packet_size)
		return "its content size is out of range";
	memcpy(&h, data, sizeof(h));
	if (h.magic != LTT_RB_PACKET_MAGIC || memcmp(h.uuid, k->uuid, sizeof(h.uuid)))
		return "its header has another magic number or trace uuid";
	if (h.packet_size != k->base.packet_size * 8 || h.content_size != content * 8 ||
	    h.packet_seq_num != seq)
		return "its header's sizes or sequence number differ from the tracer's";
	if (h.stream_instance_id != k->cpu || h.cpu_id != k->cpu ||
	    (k->stream_id_known && h.stream_id != k->base.stream_id))
		return "its header names another CPU or stream";
	if (h.timestamp_begin > h.timestamp_end)
		return "its header's timestamps are out of order";
	if (!k->stream_id_known) {
		k->base.stream_id = h.stream_id;
		k->stream_id_known = true;
	}
	*ret_hdr = h;
	return NULL;
}

/* The held packet: header_invalid(), and inside the mapping. */
static const char *packet_invalid(struct kernel_source *k, struct ltt_rb_packet_header *ret_hdr)
{
	const struct ltt_kabi_subbuf *sb = &k->sb;

	if (sb->packet_size != k->base.packet_size)
		return "its size is not the channel's sub-buffer size";
	if (sb->offset > k->map_len || sb->packet_size > k->map_len - sb->offset)
		return "it lies outside the mapping";
	return header_invalid(k, (const char *)k->map + sb->offset, sb->content_size, sb->seq,
			      ret_hdr);
}

static int kernel_put(struct ltt_source *src)
{
	struct kernel_source *k = (struct kernel_source *)src;

	return ioctl(k->fd, LTT_KABI_PUT_SUBBUF, 0) ? -errno : 0;
}

/* Skip the held packet: release it, count it lost (logged once). */
static int skip_packet(struct kernel_source *k, const char *why)
{
	int ret;

	if (!k->warned)
		LTT_WARN("%s: packet %" PRIu64 " skipped: %s (counted lost; further ones are not logged)",
			 k->base.label, (uint64_t)k->sb.seq, why);
	k->warned = true;
	k->packets_skipped++;
	ret = kernel_put(&k->base);
	return ret ? ret : -EIO;	/* a packet we cannot release stops the stream */
}

/*
 * The first GET found a packet held: the stream fd is shared with the
 * session daemon, and a consumer that died holding a packet left it held.
 * Take it as ours (the file sink refuses it if the dead consumer wrote it
 * whole).  A tracer before ABI 1.1 cannot describe it again: release it,
 * counted lost (its events are not known).  0 (a packet held), -EAGAIN
 * or -ENODATA (none left after the one released), -EIO when the packet
 * could not be taken back nor released.
 */
static int take_held(struct kernel_source *k)
{
	if (!ioctl(k->fd, LTT_KABI_GET_HELD_SUBBUF, &k->sb)) {
		LTT_INFO("%s: packet %" PRIu64 " was held by a consumer that died: read again",
			 k->base.label, (uint64_t)k->sb.seq);
		return 0;
	}
	LTT_WARN("%s: a packet held by a consumer that died can't be read again (%s): released, counted lost",
		 k->base.label, strerror(errno));
	k->packets_skipped++;
	if (ioctl(k->fd, LTT_KABI_PUT_SUBBUF, 0))
		return -EIO;
	if (!ioctl(k->fd, LTT_KABI_GET_NEXT_SUBBUF, &k->sb))
		return 0;
	return errno == EAGAIN || errno == ENODATA ? -errno : -EIO;
}

static int kernel_get(struct ltt_source *src, struct ltt_scratch *scratch,
		      struct ltt_sink_packet *ret_pkt)
{
	struct kernel_source *k = (struct kernel_source *)src;
	struct ltt_rb_packet_header h;
	const char *why;
	int ret;

	(void)scratch;
	if (ioctl(k->fd, LTT_KABI_GET_NEXT_SUBBUF, &k->sb)) {
		if (errno != EBUSY || k->got_once)
			return -errno;	/* -EAGAIN none yet, -ENODATA finalized and empty */
		ret = take_held(k);
		if (ret)
			return ret;
	}
	k->got_once = true;
	if (map_stream(k))
		return skip_packet(k, "the stream is not mapped");
	why = packet_invalid(k, &h);
	if (why)
		return skip_packet(k, why);
	ret_pkt->len = k->sb.packet_size;
	ret_pkt->iov[0].iov_base = (char *)k->map + k->sb.offset;
	ret_pkt->iov[0].iov_len = (size_t)k->sb.packet_size;
	ret_pkt->iovcnt = 1;
	ret_pkt->splice_fd = k->fd;
	ret_pkt->events = k->sb.events;
	ltt_source_entry(&h, &ret_pkt->entry);
	return 0;
}

static void kernel_switch(struct ltt_source *src)
{
	struct kernel_source *k = (struct kernel_source *)src;

	if (ioctl(k->fd, LTT_KABI_FLUSH, 0))
		LTT_DBG("%s: flush: %s", src->label, strerror(errno));
}

/*
 * Snapshots (kernel ABI 1.2): the tracer copies a packet without
 * consuming it and refuses one overwritten before or while it copied it.
 */
static int kernel_snap_span(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			    uint64_t *ret_end)
{
	struct kernel_source *k = (struct kernel_source *)src;
	struct ltt_kabi_snapshot_span span;
	uint64_t n;

	kernel_switch(src);
	if (ioctl(k->fd, LTT_KABI_SNAPSHOT_SPAN, &span)) {
		if (errno != ENOTTY)
			return -errno;
		LTT_ERR("%s: the loaded module is too old for kernel snapshots (ABI 1.2 needed): reload it",
			src->label);
		return -EOPNOTSUPP;
	}
	if (span.packet_size != src->packet_size || span.begin > span.end ||
	    (span.begin | span.end) % src->packet_size)
		return -EPROTO;
	n = (span.end - span.begin) / src->packet_size;
	if (max_packets && n > max_packets)
		span.begin = span.end - max_packets * src->packet_size;
	*ret_begin = span.begin;
	*ret_end = span.end;
	return 0;
}

static int kernel_snap_peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			    struct ltt_sink_packet *ret_pkt)
{
	struct kernel_source *k = (struct kernel_source *)src;
	struct ltt_kabi_snapshot_peek pk = {
		.pos = pos, .buf = (uintptr_t)scratch->buf, .buf_len = scratch->len,
	};
	struct ltt_rb_packet_header h;
	const char *why;

	if (scratch->len < src->packet_size)
		return -EINVAL;
	if (ioctl(k->fd, LTT_KABI_SNAPSHOT_PEEK, &pk))
		return -errno;	/* -EAGAIN not complete, -ESTALE overwritten */
	why = header_invalid(k, scratch->buf, pk.content_size, pk.seq, &h);
	if (why) {
		LTT_WARN("%s: snapshot: packet %" PRIu64 " left out: %s", src->label,
			 (uint64_t)pk.seq, why);
		return -EIO;
	}
	ret_pkt->len = src->packet_size;
	ret_pkt->iov[0].iov_base = scratch->buf;
	ret_pkt->iov[0].iov_len = (size_t)src->packet_size;
	ret_pkt->iovcnt = 1;
	ret_pkt->splice_fd = -1;
	ret_pkt->events = pk.events;
	ltt_source_entry(&h, &ret_pkt->entry);
	return 0;
}

static void kernel_stats(const struct ltt_source *src, struct ltt_channel_stats *stats)
{
	struct kernel_source *k = (struct kernel_source *)src;
	struct ltt_kabi_stream_stats now = { 0 };

	/* a failure keeps the last counters: they only grow */
	if (!ioctl(k->fd, LTT_KABI_STREAM_STATS, &now))
		k->last = now;
	ltt_add_sat(&stats->events_lost, k->last.events_discarded);
	ltt_add_sat(&stats->packets_lost, k->last.packets_lost);
	ltt_add_sat(&stats->packets_lost, k->packets_skipped);
}

static void kernel_destroy(struct ltt_source *src)
{
	struct kernel_source *k = (struct kernel_source *)src;

	if (k->map)
		munmap(k->map, k->map_len);
	ltt_fd_close(&k->fd);
	free(k);
}

static const struct ltt_source_ops kernel_ops = {
	.name = "kernel",
	.get = kernel_get,
	.put = kernel_put,
	.switch_packet = kernel_switch,
	.snap_span = kernel_snap_span,
	.snap_peek = kernel_snap_peek,
	.stats = kernel_stats,
	.destroy = kernel_destroy,
};

int ltt_source_kernel_create(const struct ltt_source_kernel_cfg *cfg,
			     struct ltt_source **ret_src)
{
	struct kernel_source *k;
	int ret;

	if (!cfg || !cfg->chan_name || !cfg->uuid || !ret_src || cfg->stream_fd < 0 ||
	    !cfg->subbuf_size || !cfg->num_subbuf)
		return -EINVAL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->base.ops = &kernel_ops;
	k->base.poll_fd = -1;
	k->base.poll_events = EPOLLIN | EPOLLET;	/* EPOLLHUP comes anyway */
	k->base.packet_size = cfg->subbuf_size;
	k->base.nr_packets = cfg->num_subbuf;
	k->base.ends = true;
	k->cpu = cfg->cpu;
	memcpy(k->uuid, cfg->uuid, sizeof(k->uuid));
	snprintf(k->base.label, sizeof(k->base.label), "kernel channel %s cpu %" PRIu32,
		 cfg->chan_name, cfg->cpu);
	k->fd = fcntl(cfg->stream_fd, F_DUPFD_CLOEXEC, 3);
	if (k->fd < 0) {
		ret = -errno;
		goto fail;
	}
	/* only a stream fd of the tracer answers this */
	if (ioctl(k->fd, LTT_KABI_STREAM_STATS, &k->last)) {
		LTT_ERR("%s: the fd is not a stream of ltt-tracer.ko (%s): refused",
			k->base.label, strerror(errno));
		ret = -EINVAL;
		goto fail;
	}
	k->base.poll_fd = k->fd;
	*ret_src = &k->base;
	return 0;
fail:
	kernel_destroy(&k->base);
	return ret;
}
