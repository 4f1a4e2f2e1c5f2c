// SPDX-License-Identifier: GPL-2.0-only
/*
 * sink.c - the sink and output interface: calls through the operations.
 */
#include <errno.h>
#include <stddef.h>

#include "consumerd/sink/sink.h"

uint64_t ltt_sink_packet_content(const struct ltt_sink_packet *pkt)
{
	uint64_t bytes = pkt->entry.content_size / 8 + (pkt->entry.content_size % 8 != 0);

	return bytes && bytes <= pkt->len ? bytes : pkt->len;
}

int ltt_sink_ready(struct ltt_sink *sink)
{
	return sink->ops->ready ? sink->ops->ready(sink) : 0;
}

int ltt_sink_wait_ready(struct ltt_sink *sink)
{
	return sink->ops->wait_ready ? sink->ops->wait_ready(sink) : ltt_sink_ready(sink);
}

int ltt_sink_write(struct ltt_sink *sink, struct ltt_sink_packet *pkt)
{
	return sink->ops->write(sink, pkt);
}

bool ltt_sink_wants_packet(struct ltt_sink *sink)
{
	return sink->ops->wants_packet && sink->ops->wants_packet(sink);
}

void ltt_sink_idle(struct ltt_sink *sink, uint64_t now_ns, uint64_t stream_id)
{
	if (sink->ops->idle)
		sink->ops->idle(sink, now_ns, stream_id);
}

void ltt_sink_lost(struct ltt_sink *sink, uint64_t *ret_packets, uint64_t *ret_events)
{
	*ret_packets = 0;
	*ret_events = 0;
	if (sink && sink->ops->lost)
		sink->ops->lost(sink, ret_packets, ret_events);
}

bool ltt_sink_given_up(struct ltt_sink *sink, bool give_up)
{
	return sink && sink->ops->given_up && sink->ops->given_up(sink, give_up);
}

bool ltt_sink_resumed(struct ltt_sink *sink, uint64_t *ret_last)
{
	return sink && sink->ops->resumed && sink->ops->resumed(sink, ret_last);
}

int ltt_sink_remove(struct ltt_sink *sink)
{
	return sink->ops->remove ? sink->ops->remove(sink) : -EOPNOTSUPP;
}

void ltt_sink_destroy(struct ltt_sink *sink)
{
	if (sink)
		sink->ops->destroy(sink);
}

int ltt_output_open_sink(const struct ltt_output *out, const char *name,
			 struct ltt_sink **ret_sink)
{
	return out->ops->open_sink(out, name, ret_sink);
}

int ltt_output_metadata(struct ltt_output *out, const void *packets, size_t len)
{
	return out->ops->metadata ? out->ops->metadata(out, packets, len) : -EOPNOTSUPP;
}

int ltt_output_reset_metadata(struct ltt_output *out)
{
	return out->ops->reset_metadata ? out->ops->reset_metadata(out) : -EOPNOTSUPP;
}

void ltt_output_streams_added(struct ltt_output *out)
{
	if (out && out->ops->streams_added)
		out->ops->streams_added(out);
}

void ltt_output_destroy(struct ltt_output *out)
{
	if (out)
		out->ops->destroy(out);
}
