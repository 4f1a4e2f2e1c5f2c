/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tsdl.h - the metadata writer of CTF 1.8: the TSDL text of what meta.h
 * and meta-model.h describe, exactly as doc/ctf.md shows it.  Called
 * through meta.h, which checks and describes; each function appends to
 * @out, or nothing on failure (meta-emit.h).  Strings reach the text as
 * TSDL string literals (backslash and double quote escaped); control
 * characters are refused.
 */
#ifndef LTT_SESSIOND_TSDL_H
#define LTT_SESSIOND_TSDL_H

#include <stdbool.h>
#include <stdint.h>

#include "sessiond/ctrace/meta-model.h"
#include "sessiond/ctrace/meta.h"

/*
 * The "CTF 1.8" comment, the typealiases, trace, env and clock blocks,
 * struct packet_context and struct event_header_compact of @h.
 * Returns 0, -EINVAL (a string with a control character) or -ENOMEM.
 */
int ltt_tsdl_trace_header(struct ltt_wbuf *out, const struct ltt_meta_header *h);

/* The stream block of channel @stream_id, with event context @ctx (a structure). */
int ltt_tsdl_stream(struct ltt_wbuf *out, uint32_t stream_id, bool per_channel,
		    const struct ltt_fc *ctx);

/*
 * The event block of @m: field names get the leading underscore readers
 * strip (a length ltt implies is "__NAME_length", a uint32_t).
 */
int ltt_tsdl_event(struct ltt_wbuf *out, const struct ltt_meta_event *m);

#endif /* LTT_SESSIOND_TSDL_H */
