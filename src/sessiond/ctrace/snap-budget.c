// SPDX-License-Identifier: GPL-2.0-only
/*
 * snap-budget.c - the packets per stream of a bounded snapshot (snap-budget.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "sessiond/ctrace/snap-budget.h"

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

void ltt_snap_set_add(struct ltt_snap_set *set, uint64_t subbuf_size, uint64_t num_subbuf,
		      uint64_t nr_streams)
{
	size_t cap = set->cap ? set->cap * 2 : 8;
	struct ltt_snap_chan *v;
	uint64_t b;

	if (set->n == set->cap) {
		v = realloc(set->v, cap * sizeof(*v));
		if (!v) {
			set->err = -ENOMEM;
			return;
		}
		set->v = v;
		set->cap = cap;
	}
	set->v[set->n++] = (struct ltt_snap_chan){ subbuf_size, num_subbuf, nr_streams };
	if (__builtin_mul_overflow(subbuf_size, num_subbuf, &b) ||
	    __builtin_mul_overflow(b, nr_streams, &b))
		b = UINT64_MAX;
	add_sat(&set->bytes, b);
}

int64_t ltt_snap_set_packets(struct ltt_snap_set *set, uint64_t max_size)
{
	int64_t ret = set->err ? set->err : ltt_snap_packets_per_stream(set->v, set->n, max_size);

	free(set->v);
	set->v = NULL;
	set->n = set->cap = 0;
	return ret;
}
