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

#endif /* LTT_SESSIOND_SNAP_BUDGET_H */
