/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink-relay.h - the relay output: its outputs and sinks, each sending
 * the packets it is given through a relay link (relay/rlink.h, which
 * says how a relay session works, its threads and its failures).
 */
#ifndef LTT_CONSUMERD_SINK_RELAY_H
#define LTT_CONSUMERD_SINK_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "consumerd/relay/rlink.h"
#include "consumerd/sink/sink.h"

/**
 * ltt_sink_relay_output_create() - an output of @relay for one trace
 * @pathname: the trace's directory in the relay session (borrowed, copied)
 * @metadata: the trace's own output: adds its "metadata" stream now
 *            (waits for the relay's answer) and takes ltt_output_metadata()
 * @ret_out: to release with ltt_output_destroy()
 *
 * Command thread.  Sinks are opened by data-0, each adding its
 * stream to the relay session (ADD_STREAM, then STREAMS_SENT).  Returns 0,
 * -ENOMEM, or the connection's error.  Once the connection is gone, new
 * sinks still open: they drop and count what they are given.
 */
int ltt_sink_relay_output_create(struct ltt_relay *relay, const char *pathname,
				 uint64_t tracefile_size, uint64_t tracefile_count, bool metadata,
				 struct ltt_output **ret_out);

/**
 * ltt_sink_relay_of() - the relay an output sends to, or NULL for
 * another kind of output
 */
struct ltt_relay *ltt_sink_relay_of(const struct ltt_output *out);

#endif /* LTT_CONSUMERD_SINK_RELAY_H */
