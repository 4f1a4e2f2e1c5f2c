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

/*
 * The ledger's value now (struct ltt_consumer_ledger): the events the
 * source counted discarded itself, plus those it holds or read and did
 * not convert, less the tracer's count of records read at its start.
 * One word, so that a death between two stores never splits a change.
 */
static bool ledger_value(const struct ltt_source *src, uint64_t *ret_own, uint64_t *ret)
{
	uint64_t start, net;

	if (!src->ops->ledger || !src->ops->ledger(src, &start, ret_own, &net))
		return false;
	*ret = net - start - src->ledger_out;
	return true;
}

/*
 * Store the ledger's value: the own discards first, the count the slot
 * shows beside it (the value holds them too, for a successor: only its
 * log tells them apart).
 */
static void store_value(struct ltt_source *src, uint64_t own, uint64_t v)
{
	__atomic_store_n(&src->slot->source_own_discarded, own, __ATOMIC_RELAXED);
	__atomic_store_n(&src->slot->ledger.value, v, __ATOMIC_RELEASE);
}

/*
 * What a source starting at the tracer's count @start carries from the
 * dead consumer's ledger @l: its own discards and what it held or had
 * read and not converted, the pending packet's events out of it when the
 * files hold that packet (@resumed, their last @last).  The successor's
 * ledger then has the value the dead one's had, so that one more death
 * in the middle of the take-over counts the same.  False when @l says
 * less than nothing (the tracer's count went back: its buffer reset).
 */
static bool dead_ledger(const struct ltt_source *src, const struct ltt_consumer_ledger *l,
			uint64_t start, bool resumed, uint64_t last, uint64_t *ret)
{
	uint64_t pending = __atomic_load_n(&l->pending_seq, __ATOMIC_ACQUIRE);
	uint64_t v;

	v = pending != NONE_PENDING && resumed && pending <= last ?
		    __atomic_load_n(&l->if_written, __ATOMIC_RELAXED) :
		    __atomic_load_n(&l->value, __ATOMIC_RELAXED);
	if ((int64_t)(start + v) < 0) {
		LTT_ERR("%s: the dead consumer's ledger says %" PRId64
			" events (the tracer's count of records read went back): its own count carried alone",
			src->label, (int64_t)(start + v));
		return false;
	}
	*ret = start + v;
	return true;
}

void ltt_source_take_over(struct ltt_source *src, struct ltt_consumer_stream_stats *slot,
			  bool resumed, uint64_t last)
{
	uint64_t own = __atomic_load_n(&slot->source_own_discarded, __ATOMIC_RELAXED);
	bool kept = __atomic_load_n(&slot->ledger.kept, __ATOMIC_ACQUIRE) == 1;
	uint64_t start = 0, new_own, net, carry = own;
	bool ledger = src->ops->ledger && src->ops->ledger(src, &start, &new_own, &net);

	if (src->slot) {	/* the same stream's page again: nothing to take over */
		src->slot = slot;
		ltt_source_ledger_note(src);
		return;
	}
	if (!ledger)	/* a dead consumer's ledger of it would mislead a later one */
		__atomic_store_n(&slot->ledger.kept, 0, __ATOMIC_RELEASE);
	if (kept && !ledger && src->ops->ledger)
		LTT_ERR("%s: the tracer's count of records read can't be read: the events the dead consumer held are not counted",
			src->label);
	if (kept && ledger && dead_ledger(src, &slot->ledger, start, resumed, last, &carry) &&
	    carry > own)
		LTT_INFO("%s: %" PRIu64
			 " events the dead consumer had read and not written: counted discarded",
			 src->label, carry - own);
	if (src->ops->carry && carry)
		src->ops->carry(src, carry);
	src->slot = slot;
	src->ledger = ledger;
	if (!ledger)
		return;
	/* the dead one's value, resolved: a death before the next store counts the same */
	ltt_source_ledger_note(src);
	__atomic_store_n(&slot->ledger.pending_seq, NONE_PENDING, __ATOMIC_RELEASE);
	__atomic_store_n(&slot->ledger.kept, 1, __ATOMIC_RELEASE);
}

void ltt_source_ledger_note(struct ltt_source *src)
{
	uint64_t own, v;

	if (src->ledger && ledger_value(src, &own, &v))
		store_value(src, own, v);
}

void ltt_source_ledger_pending(struct ltt_source *src, uint64_t seq, uint64_t events)
{
	uint64_t own, v;

	if (!src->ledger || !ledger_value(src, &own, &v))
		return;
	store_value(src, own, v);
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

