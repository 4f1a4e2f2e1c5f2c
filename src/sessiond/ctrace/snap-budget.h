/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snap-budget.h - how many packets of each stream a snapshot of at most
 * N bytes holds (lttctl snapshot record -m), for every domain.
 */
#ifndef LTT_SESSIOND_SNAP_BUDGET_H
#define LTT_SESSIOND_SNAP_BUDGET_H

#include <stddef.h>
#include <stdint.h>

/* One channel of a snapshot: its streams, each num_subbuf packets of subbuf_size. */
struct ltt_snap_chan {
	uint64_t subbuf_size;
	uint64_t num_subbuf;
	uint64_t nr_streams;
};

/**
 * ltt_snap_packets_per_stream() - packets per stream that @max_size
 * bytes hold, the same for every stream (as LTTng shares the budget): one
 * more packet of every stream that has one more, while the sum fits
 * @chans: @n channels (borrowed)
 *
 * Any thread.  Returns the count; 0: unlimited (@max_size 0, or nothing
 * to write); -ENOSPC: not even one packet of each stream fits.
 */
int64_t ltt_snap_packets_per_stream(const struct ltt_snap_chan *chans, size_t n,
				    uint64_t max_size);

/* The channels of a snapshot, gathered one by one (zeroed: none yet). */
struct ltt_snap_set {
	struct ltt_snap_chan *v;
	size_t n, cap;
	uint64_t bytes;		/* what their buffers hold in all (saturated) */
	int err;		/* -ENOMEM: a channel was left out */
};

/**
 * ltt_snap_set_add() - a channel of @nr_streams streams, each @num_subbuf
 * packets of @subbuf_size, joins @set (set->err on failure)
 */
void ltt_snap_set_add(struct ltt_snap_set *set, uint64_t subbuf_size, uint64_t num_subbuf,
		      uint64_t nr_streams);

/**
 * ltt_snap_set_packets() - ltt_snap_packets_per_stream() of @set's
 * channels, or its -ENOMEM; @set's memory released (set->bytes kept)
 */
int64_t ltt_snap_set_packets(struct ltt_snap_set *set, uint64_t max_size);

#endif /* LTT_SESSIOND_SNAP_BUDGET_H */
