/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * relay-link.h - inside the relay link (relay/rlink.h): the
 * state of one relay session and the connection calls its sinks use.
 * Private to relay-link.c (the connection), relay-queue.c (its byte
 * queues, its failure), relay-session.c (its life: connect, close,
 * destroy), relay-archive.c (a closed chunk archived), relay-reconcile.c
 * (unconfirmed packets asked about) and sink-relay.c (the sinks and
 * outputs).  "Locked": called
 * with the relay's lock held.
 */
#ifndef LTT_CONSUMERD_RELAY_LINK_H
#define LTT_CONSUMERD_RELAY_LINK_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"
#include "common/proto/relay-proto.h"
#include "consumerd/relay/rlink.h"

struct ltt_xport;
struct ltt_xport_ctx;

/* Refused replies logged before going quiet. */
#define REFUSED_LOG_MAX 5

/* Pending bytes of one socket: buf[off..len). */
struct byteq {
	uint8_t *buf;
	size_t off, len, cap;
};

/* A decoded reply. */
struct reply {
	uint32_t ret_code;
	uint64_t value;			/* ADD_STREAM: handle; END_DATA_PENDING: pending */
};

struct expect {
	struct expect *next;
	uint32_t cmd;
	size_t size;			/* bytes of the reply */
	struct relay_stream *st;	/* ADD_STREAM: the stream; else for messages */
	bool dp;			/* part of the data pending query */
	bool packet;			/* SEND_INDEX of a packet sent: OK means written */
	uint64_t events;		/* that packet's events */
	uint64_t packet_seq;		/* and its packet_seq_num */
};

/* A packet counted lost when the connection died that the relay may hold. */
struct relay_unconfirmed {
	uint64_t packet_seq;
	uint64_t events;
};

struct relay_stream {
	struct relay_stream *next;
	uint64_t handle;
	uint64_t next_seq;		/* net_seq_num of the next packet */
	bool metadata;
	bool closed;			/* CLOSE_STREAM queued */
	bool close_later;		/* once the data queue has sent its last packet */
	bool sink_open;			/* a sink writes it */
	bool wrote;			/* a packet since the last live tick */
	bool queued;			/* the rest of its packet is in data_q */
	uint64_t last_end;		/* timestamp_end of its last packet sent */
	bool ready;			/* the relay gave its handle */
	bool refused;			/* the relay refused it: its packets drop */
	bool waiting;			/* its sink waits on wake_fd */
	bool held;			/* not announced before its channel's streams all are */
	bool woken;			/* wake_fd written, not read yet */
	int wake_fd;			/* its sink's eventfd, or -1 */
	uint64_t lost_packets;		/* taken by its sink, lost in the queue */
	uint64_t lost_events;		/* their events */
	/*
	 * Of those, the packets awaited when the connection died, oldest
	 * first: the relay may have written them (reconcile.c asks it).
	 */
	struct relay_unconfirmed *unconfirmed;
	uint32_t nr_unconfirmed, cap_unconfirmed;
	bool unreconcilable;		/* too many, or out of order: stay lost */
	bool rotating;			/* ADD_STREAM gave a tracefile size */
	const struct relay_group *group;	/* its channel's, or NULL */
	struct byteq meta;		/* metadata given before the handle came */
	bool meta_reset;		/* the next metadata is the text written again */
	uint64_t meta_version;		/* RESET_METADATA's last version */
	char name[LTT_RELAY_NAME_MAX];
	char path[];			/* the trace's pathname */
};

struct ltt_relay;

/*
 * A closed chunk's directory to archive on the relay (relay-archive.c).
 * The link calls the request's two steps, set when an archive is first
 * asked, without knowing what they do: @try at every pump, @answered
 * with ARCHIVE_CHUNK's reply.
 */
struct relay_archive {
	void (*try)(struct ltt_relay *r);			/* locked */
	void (*answered)(struct ltt_relay *r, uint32_t ret_code);	/* locked */
	bool wanted;			/* asked; ARCHIVE_CHUNK not queued yet */
	bool in_flight;			/* queued, its reply awaited */
	int result;			/* -EINPROGRESS while either; then 0 or -errno */
	char from[LTT_RELAY_PATH_MAX];
	char to[LTT_RELAY_PATH_MAX];
};

struct ltt_relay {
	uint64_t key;
	uint32_t minor;			/* the relay protocol minor both speak */
	bool ltt_ext;			/* ltt-relayd: ltt's extensions are served */
	bool chunk;			/* trace chunk 0 created (minor 11 and up) */
	uint32_t live_timer_us;
	uint64_t session_id;		/* the relay's id for our session */
	struct ltt_consumer_relay_addr addr;	/* where the relay listens */
	bool reconcile;			/* it serves RECONCILE_STREAM (relay-reconcile.c) */
	uint64_t reconcile_retry_ms;	/* not asked again before (command thread) */
	unsigned int reconcile_fails;	/* failed asks in a row: the next one's wait */
	unsigned int reconcile_refused;	/* refused asks; at RECONCILE_REFUSALS, no more */
	char out_path[LTT_RELAY_PATH_MAX];	/* CREATE_SESSION's output path */
	struct ltt_xport *ctrl, *data;	/* the two connections, plain or TLS */
	struct ltt_xport_ctx *tls;	/* their TLS context, or NULL */
	int kick_fd;
	char label[LTT_RELAY_NAME_MAX + 64];	/* for messages */

	pthread_mutex_t lock;		/* leaf: everything below */
	struct byteq ctrl_q, data_q;
	uint64_t q_packets, q_bytes;	/* packets (and their bytes) in data_q */
	struct expect *exp_head, **exp_tail;
	uint64_t meta_unanswered;	/* SEND_METADATA not answered: no new packet goes */
	uint8_t reply[16];		/* the reply being received */
	size_t reply_len;
	uint64_t reply_skip;		/* bytes of a reply's tail to drop (a path) */
	struct relay_stream *streams;
	int conn_error;
	bool publish;			/* streams added since the last STREAMS_SENT */
	uint64_t progress_ms;		/* when bytes last moved, or work began */
	uint64_t unacked;		/* our sockets' SIOCOUTQ at the last check */
	uint64_t gen;			/* packets and metadata given so far */
	bool given_up;			/* a channel's removal waited for it in vain, */
	uint64_t given_up_gen;		/* at this gen: none waits again until it moves */
	uint64_t dp_gen;		/* gen when the last data pending query was sent */
	bool dp_in_flight;		/* its replies are not all in */
	bool dp_have;			/* its answer, dp_pending, is known */
	bool dp_pending;
	uint64_t dp_unfed_ms;		/* since when it says pending with nothing
					 * of ours unsent or unacknowledged, or 0 */
	bool marking_dp;		/* queue_ctrl() marks requests e->dp */
	bool closing;			/* DEL_RELAY: the data thread closes it */
	uint64_t close_deadline_ms;
	struct ltt_rlink_stats stats;
	struct relay_archive archive;
};

/* A channel's streams: announced once all are added (or never held back). */
struct relay_group {
	bool complete;			/* ltt_output_streams_added() came: none held */
};

/* rlink_q_empty() - nothing left to send in @q */
bool rlink_q_empty(const struct byteq *q);

/* rlink_q_size() - bytes left to send in @q */
size_t rlink_q_size(const struct byteq *q);

/* rlink_q_append() - copy @len bytes at the end of @q.  Returns 0 or -ENOMEM. */
int rlink_q_append(struct byteq *q, const void *p, size_t len);

/*
 * rlink_packet_may_go() - may a new packet of @st be handed to the data
 * socket: its handle known, the data queue empty, and every metadata
 * request answered (the relay wrote it), so that a relay killed at any
 * instant never has packets whose metadata it does not have.  Locked.
 */
bool rlink_packet_may_go(const struct ltt_relay *r, const struct relay_stream *st);

/* rlink_wake_sinks() - wake the sinks that no longer need to wait.  Locked. */
void rlink_wake_sinks(struct ltt_relay *r);

/*
 * rlink_packet_unconfirmed() - a packet the relay never confirmed written:
 * counted lost with its @events, on @st (may be NULL).  Locked.
 */
void rlink_packet_unconfirmed(struct ltt_relay *r, struct relay_stream *st, uint64_t events);

/*
 * rlink_unconfirmed_add() - packet @packet_seq of @st, with @events, was
 * awaited when the connection died (rlink_packet_unconfirmed() counts
 * it): kept for ltt_rlink_reconcile().  Locked.
 */
void rlink_unconfirmed_add(struct relay_stream *st, uint64_t packet_seq, uint64_t events);

/*
 * rlink_fail() - the connection failed with @err (-errno): the first error
 * is kept, queued and awaited packets are counted lost, waiting sinks
 * woken.  Locked.
 */
void rlink_fail(struct ltt_relay *r, int err);

/* rlink_warn_unsent() - log what the end left unsent and unanswered.  Locked. */
void rlink_warn_unsent(const struct ltt_relay *r);

/* rlink_busy() - bytes queued or replies awaited.  Locked. */
bool rlink_busy(const struct ltt_relay *r);

/*
 * rlink_queue_ctrl_e() - queue control request @cmd with @payload for @st
 * (NULL for none), its reply awaited; @ret_e (may be NULL) gets the
 * awaited reply's record.  Locked.  Returns 0 or the connection's error
 * (nothing queued).
 */
int rlink_queue_ctrl_e(struct ltt_relay *r, uint32_t cmd, const struct ltt_wbuf *payload,
		       struct relay_stream *st, struct expect **ret_e);

/*
 * rlink_queue_reset_metadata() - RESET_METADATA for metadata stream @st
 * (its handle known), the next version, @rewrite_size bytes of packets
 * written again right after.  Locked.  Returns 0 or -ENOMEM.
 */
int rlink_queue_reset_metadata(struct ltt_relay *r, struct relay_stream *st,
			       uint64_t rewrite_size);

/*
 * rlink_queue_metadata() - queue @len bytes of metadata packets for @st,
 * whose handle is known.  Locked.  Returns 0 or the connection's error.
 */
int rlink_queue_metadata(struct ltt_relay *r, struct relay_stream *st, const uint8_t *p,
			 size_t len);

/* rlink_send_queue() - send what @q holds until connection @x is full.  Locked. */
void rlink_send_queue(struct ltt_relay *r, struct ltt_xport *x, struct byteq *q);

/* rlink_kick() - wake the data thread: requests were queued.  Any thread. */
void rlink_kick(struct ltt_relay *r);

/* rlink_nudge() - bytes left queued by a sink: the data thread waits on them.  Locked. */
void rlink_nudge(struct ltt_relay *r);

/* rlink_pump() - send and receive what the sockets take now.  Locked. */
void rlink_pump(struct ltt_relay *r);

/*
 * rlink_add_stream() - add stream @name of trace @path (ADD_STREAM; its
 * handle comes with the reply, nobody waits).  Locked.  Returns 0,
 * -ENOMEM, or the connection's error.
 */
int rlink_add_stream(struct ltt_relay *r, const char *path, const char *name, uint64_t size,
		     uint64_t count, bool metadata, struct relay_stream **ret_st);

/*
 * rlink_dead_stream() - a stream of a relay whose connection is gone: its
 * sink drops and counts what it is given.  Locked.  Returns 0 or -ENOMEM.
 */
int rlink_dead_stream(struct ltt_relay *r, const char *name, struct relay_stream **ret_st);

/* rlink_publish_streams() - STREAMS_SENT for new streams no channel holds back.  Locked. */
void rlink_publish_streams(struct ltt_relay *r);

/* rlink_release_streams() - the streams of @g (NULL: all) are no longer held.  Locked. */
void rlink_release_streams(struct ltt_relay *r, const struct relay_group *g);

/* rlink_close_stream() - CLOSE_STREAM once, after its last packet.  Locked. */
void rlink_close_stream(struct ltt_relay *r, struct relay_stream *st);

#endif /* LTT_CONSUMERD_RELAY_LINK_H */
