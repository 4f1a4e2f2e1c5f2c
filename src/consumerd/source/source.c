// SPDX-License-Identifier: GPL-2.0-only
/*
 * source.c - the source interface: calls through the operations, and what
 * the sources share.
 */
#include <inttypes.h>

#include "common/base/log.h"
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

#define NONE_PENDING UINT64_MAX

/* The ledger's value now: the events held or read and not converted, less the tracer's count then. */
static bool ledger_value(const struct ltt_source *src, uint64_t *ret)
{
	uint64_t start, net;

	if (!src->ops->ledger || !src->ops->ledger(src, &start, &net))
		return false;
	*ret = net - start - src->ledger_out;
	return true;
}

/*
 * What the dead consumer that left @l had read and not written: the
 * tracer's count of records read at this source's start (@start, its
 * successor's) plus the ledger's value, of the files' state (the pending
 * packet in them or not).  A value that says less than nothing (the
 * tracer's count went back: its buffer reset) counts nothing.
 */
static uint64_t dead_held(const struct ltt_source *src, const struct ltt_consumer_ledger *l,
			  uint64_t start, bool resumed, uint64_t last)
{
	uint64_t pending = __atomic_load_n(&l->pending_seq, __ATOMIC_ACQUIRE);
	uint64_t v, held;

	if (__atomic_load_n(&l->kept, __ATOMIC_ACQUIRE) != 1)
		return 0;
	v = pending != NONE_PENDING && resumed && pending <= last ?
		    __atomic_load_n(&l->if_written, __ATOMIC_RELAXED) :
		    __atomic_load_n(&l->value, __ATOMIC_RELAXED);
	held = start + v;
	if ((int64_t)held < 0) {
		LTT_ERR("%s: the dead consumer's ledger says %" PRId64
			" events held (the tracer's count went back): none counted",
			src->label, (int64_t)held);
		return 0;
	}
	if (held)
		LTT_INFO("%s: %" PRIu64
			 " events the dead consumer had read and not written: counted discarded",
			 src->label, held);
	return held;
}

void ltt_source_take_over(struct ltt_source *src, struct ltt_consumer_stream_stats *slot,
			  bool resumed, uint64_t last)
{
	uint64_t own = __atomic_load_n(&slot->source_own_discarded, __ATOMIC_RELAXED);
	uint64_t start = 0, net;
	bool ledger = src->ops->ledger && src->ops->ledger(src, &start, &net);

	if (ledger)
		ltt_add_sat(&own, dead_held(src, &slot->ledger, start, resumed, last));
	if (src->ops->carry && own)
		src->ops->carry(src, own);
	src->slot = slot;
	src->ledger = ledger;
	__atomic_store_n(&slot->ledger.pending_seq, NONE_PENDING, __ATOMIC_RELAXED);
	ltt_source_ledger_note(src);
	__atomic_store_n(&slot->ledger.kept, ledger ? 1 : 0, __ATOMIC_RELEASE);
}

void ltt_source_ledger_note(struct ltt_source *src)
{
	uint64_t v;

	if (!src->ledger || !ledger_value(src, &v))
		return;
	__atomic_store_n(&src->slot->source_own_discarded, ltt_source_own_discarded(src),
			 __ATOMIC_RELAXED);
	__atomic_store_n(&src->slot->ledger.value, v, __ATOMIC_RELEASE);
}

void ltt_source_ledger_pending(struct ltt_source *src, uint64_t seq, uint64_t events)
{
	uint64_t v;

	if (!src->ledger || !ledger_value(src, &v))
		return;
	ltt_source_ledger_note(src);
	__atomic_store_n(&src->slot->ledger.if_written, v - events, __ATOMIC_RELAXED);
	__atomic_store_n(&src->slot->ledger.pending_seq, seq, __ATOMIC_RELEASE);
}

void ltt_source_ledger_done(struct ltt_source *src, uint64_t events)
{
	src->ledger_out += events;
	if (!src->ledger)
		return;
	ltt_source_ledger_note(src);
	__atomic_store_n(&src->slot->ledger.pending_seq, NONE_PENDING, __ATOMIC_RELEASE);
}

void ltt_source_ledger_close(struct ltt_source *src)
{
	if (!src->ledger)
		return;
	src->ledger = false;
	__atomic_store_n(&src->slot->ledger.kept, 0, __ATOMIC_RELEASE);
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

