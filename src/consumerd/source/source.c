// SPDX-License-Identifier: GPL-2.0-only
/*
 * source.c - the source interface: calls through the operations, and what
 * the sources share.
 */
#include "common/trace/tclock.h"
#include "consumerd/source/source.h"

int ltt_source_get(struct ltt_source *src, struct ltt_scratch *scratch,
		   struct ltt_sink_packet *ret_pkt)
{
	return src->ops->get(src, scratch, ret_pkt);
}

int ltt_source_put(struct ltt_source *src)
{
	return src->ops->put(src);
}

void ltt_source_switch(struct ltt_source *src)
{
	src->ops->switch_packet(src);
}

void ltt_source_switch_empty(struct ltt_source *src)
{
	if (src->ops->switch_empty)
		src->ops->switch_empty(src);
	else
		src->ops->switch_packet(src);
}

void ltt_source_span(struct ltt_source *src)
{
	if (src->ops->span)
		src->ops->span(src);
	else
		src->ops->switch_packet(src);
}

void ltt_source_idle(struct ltt_source *src, uint64_t ts)
{
	if (src->ops->idle)
		src->ops->idle(src, ts);
}

bool ltt_source_open_filled(const struct ltt_source *src)
{
	return src->ops->open_filled && src->ops->open_filled(src);
}

int ltt_source_give_up(struct ltt_source *src)
{
	return src->ops->give_up ? src->ops->give_up(src) : -ENODATA;
}

uint64_t ltt_source_abandon(struct ltt_source *src)
{
	return src && src->ops->abandon ? src->ops->abandon(src) : 0;
}

int ltt_source_keep(struct ltt_source *src)
{
	return src->ops->keep ? src->ops->keep(src) : 0;
}

int ltt_source_snap_span(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			 uint64_t *ret_end)
{
	if (!src->ops->snap_span || !src->ops->snap_peek)
		return -EOPNOTSUPP;
	return src->ops->snap_span(src, max_packets, ret_begin, ret_end);
}

int ltt_source_snap_peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			 struct ltt_sink_packet *ret_pkt)
{
	if (!src->ops->snap_peek)
		return -EOPNOTSUPP;
	return src->ops->snap_peek(src, pos, scratch, ret_pkt);
}

bool ltt_source_reads(const struct ltt_source *src, const struct stat *st)
{
	return src->ops->reads && src->ops->reads(src, st);
}

void ltt_source_stats(const struct ltt_source *src, struct ltt_channel_stats *stats)
{
	src->ops->stats(src, stats);
}

int ltt_source_reclaim(struct ltt_source *src, uint64_t older_than, uint64_t *subbufs)
{
	return src->ops->reclaim ? src->ops->reclaim(src, older_than, subbufs) : -EOPNOTSUPP;
}

uint64_t ltt_source_events_skipped(const struct ltt_source *src)
{
	return src->ops->events_skipped ? src->ops->events_skipped(src) : 0;
}

uint64_t ltt_source_own_discarded(const struct ltt_source *src)
{
	return src->ops->own_discarded ? src->ops->own_discarded(src) : 0;
}

void ltt_source_continue_seq(struct ltt_source *src, uint64_t next)
{
	if (src->ops->continue_seq)
		src->ops->continue_seq(src, next);
}

void ltt_source_carry(struct ltt_source *src, uint64_t own_discarded)
{
	if (src->ops->carry && own_discarded)
		src->ops->carry(src, own_discarded);
}

uint64_t ltt_source_now(const struct ltt_source *src)
{
	return src->ops->now ? src->ops->now(src) : ltt_tclock_mono();
}

void ltt_source_destroy(struct ltt_source *src)
{
	if (src)
		src->ops->destroy(src);
}

void ltt_source_entry(const struct ltt_rb_packet_header *h, struct ltt_ctf_index_entry *ret)
{
	ret->offset = 0;
	ret->packet_size = h->packet_size;
	ret->content_size = h->content_size;
	ret->timestamp_begin = h->timestamp_begin;
	ret->timestamp_end = h->timestamp_end;
	ret->events_discarded = h->events_discarded;
	ret->stream_id = h->stream_id;
	ret->stream_instance_id = h->stream_instance_id;
	ret->packet_seq_num = h->packet_seq_num;
}

