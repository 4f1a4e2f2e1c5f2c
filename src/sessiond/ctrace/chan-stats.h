/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * chan-stats.h - a channel's statistics page (consumer-proto.h), for
 * every domain: a sealed memfd of one slot per stream, which the
 * consumers that read the channel keep up to date and the session daemon
 * reads without asking them.  So list, stop's warnings, triggers and the
 * rotation schedule read a channel's counters and its output's failure
 * as they are now, whether its consumer answers or not.
 */
#ifndef LTT_SESSIOND_CTRACE_CHAN_STATS_H
#define LTT_SESSIOND_CTRACE_CHAN_STATS_H

#include <stdint.h>

#include "common/proto/consumer-proto.h"

/* The page of a channel whose streams have slots 0 .. nr_slots - 1. */
struct ltt_chan_stats {
	int fd;			/* the memfd, -1 when none */
	uint32_t nr_slots;
};

/**
 * ltt_chan_stats_create() - a page of @nr_slots zeroed slots, sealed
 * against shrinking and growing (a consumer maps it whole)
 *
 * Returns 0 or a negative errno (@ret's fd then -1).
 */
int ltt_chan_stats_create(uint32_t nr_slots, struct ltt_chan_stats *ret);

/** ltt_chan_stats_destroy() - close the page; accepts one never made (fd -1) */
void ltt_chan_stats_destroy(struct ltt_chan_stats *cs);

/*
 * What the writers of stream @slot dropped, as a domain reads it (the
 * user-space domain: the ring buffer's own count); NULL for
 * ltt_chan_stats_read(): the slot's source_events_lost, as the consumer
 * last read it (a kernel or tracefs stream's).
 */
typedef uint64_t (*ltt_chan_stats_source_fn)(const void *arg, uint32_t slot);

/**
 * ltt_chan_stats_read() - the channel's counters, summed over its slots
 * @source: each stream's writers' drops (above), or NULL
 * @arg: for @source
 * @ret: events lost (the source's and the consumers'), packets lost,
 *       bytes written, and the output's failure that began first with
 *       the events and packets it cost
 *
 * Any thread; never waits.  A slot a consumer never wrote reads zeros.
 * The counts are informative: a program can write its own ring buffer.
 */
void ltt_chan_stats_read(const struct ltt_chan_stats *cs, ltt_chan_stats_source_fn source,
			 const void *arg, struct ltt_consumer_channel_stats *ret);

#endif /* LTT_SESSIOND_CTRACE_CHAN_STATS_H */
