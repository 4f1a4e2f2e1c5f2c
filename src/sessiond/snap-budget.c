// SPDX-License-Identifier: GPL-2.0-only
/*
 * snap-budget.c - the packets per stream of a bounded snapshot (snap-budget.h).
 */
#include <errno.h>

#include "sessiond/snap-budget.h"

static void add_sat(uint64_t *sum, uint64_t v)
{
	*sum = v > UINT64_MAX - *sum ? UINT64_MAX : *sum + v;
}

int64_t ltt_snap_packets_per_stream(const struct ltt_snap_chan *chans, size_t n,
				    uint64_t max_size)
{
	uint64_t left = max_size, one_more, count = 0, bytes;
	size_t i;

	if (!max_size)
		return 0;
	for (;;) {
		one_more = 0;
		for (i = 0; i < n; i++) {
			if (count >= chans[i].num_subbuf)
				continue;
			if (__builtin_mul_overflow(chans[i].subbuf_size, chans[i].nr_streams, &bytes))
				bytes = UINT64_MAX;
			add_sat(&one_more, bytes);
		}
		if (!one_more || one_more > left)
			break;
		left -= one_more;
		count++;
	}
	if (!count && one_more)
		return -ENOSPC;
	return (int64_t)count;
}
