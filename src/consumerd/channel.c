// SPDX-License-Identifier: GPL-2.0-only
/*
 * channel.c - a channel: configuration and streams.
 */
#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "consumerd/channel.h"
#include "consumerd/sink-relay.h"
#include "consumerd/source-tracefs.h"
#include "consumerd/stream.h"
#include "consumerd/trace.h"

int ltt_channel_create(const struct ltt_channel_cfg *cfg, struct ltt_trace *trace,
		       struct ltt_channel **ret_chan)
{
	struct ltt_channel *c;
	int ret;

	if (!cfg || !cfg->name || !trace || !ret_chan || cfg->nr_ctx > LTT_CTX_MAX ||
	    (cfg->nr_ctx && !cfg->ctx))
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
	/* a snapshot trace's: no output, read by snapshots only */
	ret = trace->snapshot ? 0 : ltt_trace_channel_output(trace, NULL, c, trace->resume,
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
	struct ltt_stream *s;

	if (!c)
		return;
	while ((s = c->streams)) {
		c->streams = s->next;
		ltt_stream_destroy(s);
	}
	/* the data thread destroyed the timers with REMOVE_CHANNEL */
	assert(!c->switch_timer && !c->read_timer);
	ltt_tfs_events_free(c->tfs_events);	/* after its sources */
	ltt_output_destroy(c->output);
	free(c);
}

struct ltt_stream *ltt_channel_find_stream(const struct ltt_channel *c, uint32_t cpu)
{
	struct ltt_stream *s;

	for (s = c->streams; s; s = s->next)
		if (s->cpu == cpu)
			return s;
	return NULL;
}

void ltt_channel_add_stream(struct ltt_channel *c, struct ltt_stream *stream)
{
	struct ltt_stream **p = &c->streams;

	/* in CPU order of arrival, appended: the list is short */
	while (*p)
		p = &(*p)->next;
	stream->next = NULL;
	*p = stream;
	c->nr_streams++;
}

void ltt_channel_stats(const struct ltt_channel *c, struct ltt_channel_stats *ret_stats)
{
	struct ltt_channel_stats st = { 0 };
	const struct ltt_stream *s;

	for (s = c->streams; s; s = s->next)
		ltt_stream_stats(s, &st);
	*ret_stats = st;
}
