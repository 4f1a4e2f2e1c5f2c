// SPDX-License-Identifier: GPL-2.0-only
/*
 * channel.c - a channel: configuration and streams.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/size.h"
#include "consumerd/sink/sink-relay.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs.h"
#include "consumerd/trace/channel.h"
#include "consumerd/trace/stream.h"
#include "consumerd/trace/trace.h"

int ltt_channel_create(const struct ltt_channel_cfg *cfg, struct ltt_trace *trace,
		       struct ltt_channel **ret_chan)
{
	struct ltt_channel *c;
	unsigned int i;
	int ret;

	if (!cfg || !cfg->name || !trace || !ret_chan || cfg->nr_ctx > LTT_CTX_MAX ||
	    (cfg->nr_ctx && !cfg->ctx))
		return -EINVAL;
	/* parts on threads first_thread .. first_thread + nr_parts - 1 */
	if (!cfg->nr_parts || cfg->first_thread >= LTT_DATA_THREADS_MAX ||
	    cfg->nr_parts > LTT_DATA_THREADS_MAX - cfg->first_thread)
		return -EINVAL;
	if (strlen(cfg->name) > LTT_CHANNEL_NAME_MAX)
		return -ENAMETOOLONG;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->key = cfg->key;
	c->trace_key = trace->key;
	strcpy(c->name, cfg->name);
	c->tracefile_size = cfg->tracefile_size;
	c->tracefile_count = cfg->tracefile_count;
	c->switch_timer_us = cfg->switch_timer_us;
	c->read_timer_us = cfg->read_timer_us;
	c->auto_reclaim = cfg->auto_reclaim;
	c->auto_reclaim_ns = cfg->auto_reclaim_ns;
	c->auto_reclaim_counts = cfg->auto_reclaim_counts;
	c->overwrite = cfg->overwrite;
	c->fsync = cfg->fsync;
	c->domain = cfg->domain;
	c->subbuf_size = cfg->subbuf_size;
	c->num_subbuf = cfg->num_subbuf;
	c->stream_id = cfg->stream_id;
	c->nr_ctx = cfg->nr_ctx;
	if (cfg->nr_ctx)
		memcpy(c->ctx, cfg->ctx, cfg->nr_ctx * sizeof(*c->ctx));
	memcpy(c->uuid, trace->uuid, sizeof(c->uuid));
	c->trace = trace;
	c->relay = trace->relay;
	c->snapshot = trace->snapshot;
	c->parts = calloc(cfg->nr_parts, sizeof(*c->parts));
	if (!c->parts) {
		ltt_channel_destroy(c);
		return -ENOMEM;
	}
	c->nr_parts = cfg->nr_parts;
	for (i = 0; i < c->nr_parts; i++) {
		c->parts[i].chan = c;
		c->parts[i].thread = cfg->first_thread + i;
	}
	/* a snapshot trace's: no output, read by snapshots only */
	ret = trace->snapshot ? 0 : ltt_channel_output_create(trace, NULL, c, trace->resume,
							      &c->output);
	if (ret) {
		ltt_channel_destroy(c);
		return ret;
	}
	*ret_chan = c;
	return 0;
}

void ltt_channel_destroy(struct ltt_channel *c)
{
	struct ltt_chan_part *part;
	struct ltt_stream *s;
	unsigned int i;

	if (!c)
		return;
	for (i = 0; i < c->nr_parts; i++) {
		part = &c->parts[i];
		while ((s = part->streams)) {
			part->streams = s->next;
			ltt_stream_destroy(s);
		}
		/* the data threads destroyed the timers with REMOVE_CHANNEL */
		assert(!part->switch_timer && !part->read_timer && !part->reclaim_timer);
	}
	free(c->parts);
	ltt_tfs_events_free(c->tfs_events);	/* after its sources */
	ltt_output_destroy(c->output);
	free(c);
}

struct ltt_chan_part *ltt_channel_part_of(const struct ltt_channel *c, uint32_t cpu)
{
	return &c->parts[cpu % c->nr_parts];
}

struct ltt_stream *ltt_chan_part_find_stream(const struct ltt_chan_part *part, uint32_t cpu)
{
	struct ltt_stream *s;

	for (s = part->streams; s; s = s->next)
		if (s->cpu == cpu)
			return s;
	return NULL;
}

void ltt_chan_part_add_stream(struct ltt_chan_part *part, struct ltt_stream *stream)
{
	struct ltt_stream **p = &part->streams;

	/* in CPU order of arrival, appended: the list is short */
	while (*p)
		p = &(*p)->next;
	stream->next = NULL;
	stream->part = part;
	*p = stream;
	part->nr_streams++;
}

void ltt_chan_part_stats(const struct ltt_chan_part *part, struct ltt_channel_stats *stats)
{
	const struct ltt_stream *s;

	for (s = part->streams; s; s = s->next)
		ltt_stream_stats(s, stats);
}

void ltt_channel_stats_add(struct ltt_channel_stats *to, const struct ltt_channel_stats *from)
{
	ltt_add_sat(&to->events_lost, from->events_lost);
	ltt_add_sat(&to->packets_lost, from->packets_lost);
	ltt_add_sat(&to->bytes_written, from->bytes_written);
	ltt_add_sat(&to->error_events, from->error_events);
	ltt_add_sat(&to->error_packets, from->error_packets);
	/* the channel's: the failure that began first */
	if (from->error && (!to->error || from->error_since < to->error_since)) {
		to->error = from->error;
		to->error_since = from->error_since;
	}
}

int ltt_channel_output_create(const struct ltt_trace *t, const struct ltt_trace_chunk *chunk,
			      const struct ltt_channel *c, bool resume, struct ltt_output **ret_out)
{
	struct ltt_sink_file_cfg out = { 0 };

	if (t->relay)
		return ltt_sink_relay_output_create(t->relay, chunk ? chunk->path : t->path,
						    c->tracefile_size, c->tracefile_count, false,
						    ret_out);
	out.dir_fd = chunk ? chunk->dir_fd : t->dir_fd;
	out.index_dir_fd = chunk ? chunk->index_fd : t->index_fd;
	out.owner = t->owner;
	out.max_size = c->tracefile_size;
	out.max_count = c->tracefile_count;
	out.resume = resume;
	out.fsync = c->fsync;
	/* the metadata its packets need reaches the disk first */
	out.sync_after = ltt_sink_file_metadata_fd(chunk ? chunk->output : t->output);
	return ltt_sink_file_output_create(&out, ret_out);
}
