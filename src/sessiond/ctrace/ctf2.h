/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctf2.h - the metadata writer of CTF 2: what meta.h and meta-model.h
 * describe, as the fragments of a JSON text sequence (RFC 7464: each
 * fragment is 0x1E then one JSON object), as LTTng 2.15 and later write
 * them (doc/ctf.md: namespace lttng.org,2009, roles, log levels as
 * attributes).  Keys sorted, two-space indents, no newline after a
 * fragment: the layout of LTTng's own.
 *
 * The metadata stream of a CTF 2 trace is not packetized: the consumer
 * writes these bytes as they are.  Called through meta.h; each function
 * appends whole fragments to @out, or nothing on failure (meta-emit.h).
 */
#ifndef LTT_SESSIOND_CTF2_H
#define LTT_SESSIOND_CTF2_H

#include <stdbool.h>
#include <stdint.h>

#include "sessiond/ctrace/meta-model.h"
#include "sessiond/ctrace/meta.h"

/* The namespace of LTTng's own names in a CTF 2 trace (attributes, the trace class). */
#define LTT_CTF2_NAMESPACE "lttng.org,2009"

/* The preamble, trace class (its environment) and clock class of @h. */
int ltt_ctf2_trace_header(struct ltt_wbuf *out, const struct ltt_meta_header *h);

/*
 * The id of a trace's one clock class, whatever the clock's name (a
 * plugin's): an identifier that links the streams to it, as LTTng's
 * "monotonic".
 */
#define LTT_CTF2_CLOCK_ID "monotonic"

/*
 * The data stream class of channel @stream_id, with event record common
 * context @ctx (a structure; none when it has no members).
 */
int ltt_ctf2_stream(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		    const struct ltt_fc *ctx);

/* The event record class of @m. */
int ltt_ctf2_event(struct ltt_wbuf *out, const struct ltt_meta_event *m);

#endif /* LTT_SESSIOND_CTF2_H */
