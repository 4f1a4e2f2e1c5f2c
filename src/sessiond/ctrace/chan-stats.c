// SPDX-License-Identifier: GPL-2.0-only
/*
 * chan-stats.c - a channel's statistics page, made here and read here for
 * every domain; the consumers write it (consumerd/trace/stream.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/base/size.h"
#include "sessiond/ctrace/chan-stats.h"

int ltt_chan_stats_create(uint32_t nr_slots, struct ltt_chan_stats *ret)
{
	int fd = memfd_create("ltt-chan-stats", MFD_CLOEXEC | MFD_ALLOW_SEALING), err;

	ret->fd = -1;
	ret->nr_slots = 0;
	if (fd < 0)
		return -errno;
	if (ftruncate(fd, (off_t)LTT_CONSUMER_STATS_SIZE(nr_slots)) ||
	    fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL)) {
		err = -errno;
		close(fd);
		return err;
	}
	ret->fd = fd;
	ret->nr_slots = nr_slots;
	return 0;
}

void ltt_chan_stats_destroy(struct ltt_chan_stats *cs)
{
	if (cs->fd >= 0)
		close(cs->fd);
	cs->fd = -1;
	cs->nr_slots = 0;
}

/* Slot @st (its writers' drops @lost) into @sum. */
static void add_slot(struct ltt_consumer_channel_stats *sum,
		     const struct ltt_consumer_stream_stats *st, uint64_t lost)
{
	ltt_add_sat(&sum->events_lost, st->events_lost);
	ltt_add_sat(&sum->packets_lost, st->packets_lost);
	ltt_add_sat(&sum->bytes_written, st->bytes_written);
	ltt_add_sat(&sum->error_events, st->error_events);
	ltt_add_sat(&sum->error_packets, st->error_packets);
	/* an -errno, or a program's scribble: not shown as an error */
	if (st->error >= 0 || st->error < -4095)
		return;
	/* what the writers dropped since it failed, the consumer stopped */
	if (lost > st->error_rb_base)
		ltt_add_sat(&sum->error_events, lost - st->error_rb_base);
	if (!sum->error || st->error_since < sum->error_since) {
		sum->error = (int32_t)st->error;
		sum->error_since = st->error_since;
	}
}

void ltt_chan_stats_read(const struct ltt_chan_stats *cs, ltt_chan_stats_source_fn source,
			 const void *arg, struct ltt_consumer_channel_stats *ret)
{
	struct ltt_consumer_channel_stats sum = { 0 };
	struct ltt_consumer_stream_stats st;
	bool have;
	uint64_t lost;
	uint32_t i;

	for (i = 0; i < cs->nr_slots; i++) {
		have = cs->fd >= 0 && pread(cs->fd, &st, sizeof(st),
					    (off_t)i * LTT_CONSUMER_STATS_SLOT) == (ssize_t)sizeof(st);
		lost = source ? source(arg, i) : have ? st.source_events_lost : 0;
		ltt_add_sat(&sum.events_lost, lost);
		if (have)
			add_slot(&sum, &st, lost);
	}
	*ret = sum;
}
