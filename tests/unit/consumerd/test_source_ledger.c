// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_source_ledger.c - a source's ledger in its stream's slot
 * (struct ltt_consumer_ledger, ltt_source_take_over()), with a source
 * whose counts the test sets: what a consumer taking a stream over
 * carries from a dead one (its own discards, the events it held, a
 * pending packet in the files or not), that a death in the middle of a
 * take-over counts the same, and the slots it must not trust.
 */
#include <stdint.h>
#include <string.h>

#include "consumerd/source/source.h"
#include "tests/unit/tap.h"

/* A source whose reads empty the tracer: its counts, as the test sets them. */
struct fake {
	struct ltt_source base;
	bool has_ledger;
	uint64_t start;		/* the tracer's count of records read at its start */
	uint64_t made;		/* events made */
	uint64_t taken;		/* records taken */
	uint64_t own;		/* discarded itself, carried ones too */
};

static bool fake_ledger(const struct ltt_source *src, uint64_t *ret_start, uint64_t *ret_own,
			uint64_t *ret_net)
{
	const struct fake *f = (const struct fake *)src;

	if (!f->has_ledger)
		return false;
	*ret_start = f->start;
	*ret_own = f->own;
	*ret_net = f->own + f->made - f->taken;
	return true;
}

static uint64_t fake_own(const struct ltt_source *src)
{
	return ((const struct fake *)src)->own;
}

static void fake_carry(struct ltt_source *src, uint64_t own)
{
	((struct fake *)src)->own += own;
}

static const struct ltt_source_ops fake_ops = {
	.name = "fake",
	.own_discarded = fake_own,
	.carry = fake_carry,
	.ledger = fake_ledger,
};

static void fake_init(struct fake *f, uint64_t start)
{
	memset(f, 0, sizeof(*f));
	f->base.ops = &fake_ops;
	f->has_ledger = true;
	f->start = start;
	strcpy(f->base.label, "fake cpu 0");
}

/* @f, starting at the tracer's count @start, takes a slot nobody used. */
static void first_source(struct ltt_consumer_stream_stats *slot, struct fake *f, uint64_t start)
{
	memset(slot, 0, sizeof(*slot));
	fake_init(f, start);
	ltt_source_take_over(&f->base, slot, false, 0);
}

/*
 * The dead consumer's life on @slot: it starts at the tracer's count 100,
 * takes 50 records, makes 45 events of them (5 filtered), discards 3
 * itself, writes packet 0 (20 events), and dies writing packet 1 (15).
 * It held 45 - 20 = 25 events, 15 of them in packet 1.
 */
static void dead_life(struct ltt_consumer_stream_stats *slot)
{
	struct fake a;

	first_source(slot, &a, 100);
	a.taken = 50;
	a.made = 45;
	a.own = 3;
	ltt_source_ledger_note(&a.base);
	ltt_source_ledger_pending(&a.base, 0, 20);
	ltt_source_ledger_done(&a.base, 20);
	ltt_source_ledger_pending(&a.base, 1, 15);
}

/* What a source starting at the tracer's count @start carries from @slot. */
static uint64_t carried(struct ltt_consumer_stream_stats *slot, uint64_t start, bool resumed,
			uint64_t last)
{
	struct fake b;

	fake_init(&b, start);
	ltt_source_take_over(&b.base, slot, resumed, last);
	return b.own;
}

static void check_fresh(void)
{
	struct ltt_consumer_stream_stats slot;
	struct fake f;

	first_source(&slot, &f, 7);
	tap_ok(f.own == 0 && slot.ledger.kept == 1 && slot.ledger.pending_seq == UINT64_MAX &&
	       slot.ledger.value == (uint64_t)-7,
	       "a slot nobody used: nothing carried; the ledger kept, its value -7 (the start)");
}

static void check_dead(void)
{
	struct ltt_consumer_stream_stats slot, mid;

	memset(&slot, 0, sizeof(slot));
	dead_life(&slot);
	tap_ok(slot.ledger.kept == 1 && slot.ledger.pending_seq == 1 &&
	       slot.source_own_discarded == 3,
	       "the dead consumer's ledger: kept, packet 1 pending, its 3 discards beside");
	mid = slot;
	tap_is_u64(carried(&mid, 150, true, 0), 3 + 25,
		   "packet 1 not in the files: its 3 discards and the 25 events it held");
	mid = slot;
	tap_is_u64(carried(&mid, 150, true, 1), 3 + 10,
		   "packet 1 in the files: its 3 discards and the 10 events it held");
	mid = slot;
	tap_is_u64(carried(&mid, 150, false, 5), 3 + 25,
		   "files not resumed: packet 1 is in none");
	mid = slot;
	tap_is_u64(carried(&mid, 160, true, 0), 3 + 25 + 10,
		   "10 records more read than it took (a page not converted): counted too");
}

/*
 * A successor that dies at each store of its take-over (or after it):
 * the next one carries the same.  The take-over stores the dead ledger's
 * value, resolved, then clears the pending packet, then keeps it.
 */
static void check_death_in_take_over(void)
{
	struct ltt_consumer_stream_stats slot, after, mid;
	bool same = true;
	uint64_t last, want;

	for (last = 0; last < 2; last++) {
		memset(&slot, 0, sizeof(slot));
		dead_life(&slot);
		after = slot;
		want = carried(&after, 150, true, last);
		/* between its stores: the new value with the dead one's pending packet */
		mid = slot;
		mid.ledger.value = after.ledger.value;
		same = same && carried(&mid, 150, true, last) == want;
		/* after them all */
		same = same && carried(&after, 150, true, last) == want &&
		       want == (last ? 13u : 28u);
	}
	tap_ok(same, "a death in the middle of a take-over: the next consumer carries the same");
}

/*
 * A successor that took the stream over (packet 1 in the files), read 5
 * records more, made 5 events of them and died holding them: the next
 * one carries its value, not the first one's pending packet again.
 */
static void check_second_death(void)
{
	struct ltt_consumer_stream_stats slot;
	struct fake b;

	memset(&slot, 0, sizeof(slot));
	dead_life(&slot);
	fake_init(&b, 150);
	ltt_source_take_over(&b.base, &slot, true, 1);
	b.taken = 5;
	b.made = 5;
	ltt_source_ledger_note(&b.base);
	tap_is_u64(carried(&slot, 155, true, 1), 13 + 5,
		   "a second death: the first one's 13, the 5 events the second held");
}

static void check_untrusted(void)
{
	struct ltt_consumer_stream_stats slot;
	struct fake b;

	memset(&slot, 0, sizeof(slot));
	slot.source_own_discarded = 7;
	tap_is_u64(carried(&slot, 150, false, 0), 7,
		   "no ledger kept (a consumer before it): the own count alone");
	memset(&slot, 0, sizeof(slot));
	dead_life(&slot);
	slot.source_own_discarded = 3;
	tap_is_u64(carried(&slot, 50, false, 0), 3,
		   "a ledger that says less than nothing (the tracer's count went back): the own count");
	memset(&slot, 0, sizeof(slot));
	dead_life(&slot);
	slot.source_own_discarded = 3;
	fake_init(&b, 150);
	b.has_ledger = false;
	ltt_source_take_over(&b.base, &slot, false, 0);
	tap_ok(b.own == 3 && slot.ledger.kept == 0,
	       "a successor without a ledger: the own count, and the dead ledger no longer kept");
	first_source(&slot, &b, 150);
	b.made = 10;
	b.taken = 4;
	b.own = 2;
	ltt_source_ledger_pending(&b.base, 0, 4);
	ltt_source_take_over(&b.base, &slot, false, 0);
	tap_ok(b.own == 2 && slot.source_own_discarded == 2,
	       "the same stream's slot again: nothing carried from its own ledger (10 made, 2 "
	       "discarded)");
}

/* A failed write leaves the events in the ledger; a clear takes them out. */
static void check_done(void)
{
	struct ltt_consumer_stream_stats slot;
	struct fake a;

	first_source(&slot, &a, 0);
	a.made = 30;
	a.taken = 30;
	ltt_source_ledger_pending(&a.base, 0, 10);
	ltt_source_ledger_done(&a.base, 0);	/* the write failed */
	ltt_source_ledger_done(&a.base, 10);	/* packet 1 cleared */
	tap_ok(slot.ledger.pending_seq == UINT64_MAX && carried(&slot, 30, true, 0) == 20,
	       "a packet not written stays held (counted), one cleared does not: 20 of 30");
}

int main(void)
{
	check_fresh();
	check_dead();
	check_death_in_take_over();
	check_second_death();
	check_untrusted();
	check_done();
	return tap_done();
}
