/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * live-cmd.h - what the live viewer server (live.c) and its commands
 * (live-cmd.c) share: a viewer's state, and the handler of each request.
 */
#ifndef LTT_RELAYD_LIVE_CMD_H
#define LTT_RELAYD_LIVE_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "common/proto/live-proto.h"
#include "relayd/live.h"

#define LIVE_MAX_ATTACHED 64			/* sessions per viewer */
#define LIVE_MAX_VSTREAMS 65536			/* streams per viewer */
#define LIVE_PACKET_MAX (1u << 20)		/* bytes per GET_PACKET reply */
#define LIVE_METADATA_MAX (4u << 20)		/* per GET_METADATA reply (4 KiB packets) */
#define LIVE_REQ_MAX (LTT_LIVE_CMD_HDR_SIZE + 20)
#define LIVE_RELEASES 2				/* see ltt_live_next_index() */

struct live_vstream {
	uint64_t handle;
	uint64_t session_id;
	uint64_t trace_id;
	bool metadata;
	bool hup_sent;				/* data: HUP was answered */
	uint64_t pos;				/* data: next index entry */
	uint64_t metadata_sent;			/* metadata: bytes sent */
	uint64_t metadata_version;		/* metadata: the relay's, of those bytes */
	bool beacon_sent;			/* data: INACTIVE was answered ... */
	uint64_t beacon_ts;			/* ... with this timestamp_end */
};

struct live_vsession {
	uint64_t id;
	uint64_t generation;			/* when its streams were last listed */
	uint64_t max_handle;			/* largest stream handle announced */
};

struct live_viewer {
	struct ltt_relay_live *live;
	struct live_viewer *prev, *next;
	uint64_t id;
	struct ltt_xport *x;			/* the socket, plain or TLS */
	bool shaken;				/* TLS handshake done (or plain) */
	struct ltt_evloop_watch *watch;
	uint32_t events;			/* what the watch waits for */
	struct ltt_evloop_timer *timer;
	uint8_t req[LIVE_REQ_MAX];
	size_t req_len;				/* bytes of the request received */
	size_t req_need;			/* header, then header + payload */
	struct ltt_wbuf out;			/* the reply being sent */
	size_t out_pos;
	bool close_after_send;
	bool connected, created;
	uint32_t minor;			/* the protocol's, from CONNECT: min(ours, its) */
	struct live_vsession sessions[LIVE_MAX_ATTACHED];
	size_t nsessions;
	struct live_vstream *streams;
	size_t nstreams, streams_cap;
	/*
	 * A GET_NEXT_INDEX with nothing new to say is held, not answered
	 * RETRY, until its stream has an index or a new beacon, or a new
	 * stream comes, or LIVE_HOLD_NS passed (live.c).
	 */
	bool held;
	unsigned int releases;			/* nothing-new requests to answer at
						 * once (after news: LIVE_RELEASES) */
	uint64_t hold_id;			/* the stream asked for */
	bool hold_streams_pending;		/* new streams were pending already */
};

struct ltt_relay_live {
	struct ltt_relay_model *model;
	struct ltt_evloop *loop;
	int listen_fd;
	struct ltt_xport_ctx *tls;		/* NULL: plain; borrowed */
	struct ltt_evloop_watch *listen_watch;
	struct live_viewer *viewers;
	unsigned int nviewers;
	unsigned int nheld;			/* viewers with a request held */
	struct ltt_evloop_timer *wake;		/* the model changed: look at them */
	uint64_t next_viewer_id;
};

/* A request's handler: its reply appended to v->out; 0 or -errno (drop the viewer). */
typedef int (*ltt_live_cmd_fn)(struct live_viewer *v, struct ltt_rbuf *r);

/*
 * Answer GET_NEXT_INDEX for stream @id in v->out, or, when @may_hold and
 * the answer would tell nothing new (RETRY, or INACTIVE with the beacon
 * the viewer was given already), leave v->out empty and set v->held.
 */
void ltt_live_next_index(struct live_viewer *v, uint64_t id, bool may_hold);

/* The handler of command @cmd (enum ltt_live_cmd), or NULL for an unknown one. */
ltt_live_cmd_fn ltt_live_cmd_handler(uint32_t cmd);

#endif /* LTT_RELAYD_LIVE_CMD_H */
