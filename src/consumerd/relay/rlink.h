/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * rlink.h - the relay link, relay/'s calls (ltt_rlink_*): a trace streamed
 * to ltt-relayd over a control and a data TCP connection
 * (common/proto/relay-proto.h), for the relay output (sink/sink-relay.h).
 *
 * One struct ltt_relay is one relay session (ADD_RELAY): both
 * connections, the relay's streams, two byte queues and the replies
 * awaited on the control connection.  Its outputs (one per trace for the
 * metadata, one per channel for the data streams) open sinks that send
 * each packet as a data header + the packet on the data connection, with
 * sendmsg() straight from the ring buffer's memory, then its index
 * (SEND_INDEX) on the control connection.  What the socket does not take
 * at once is copied into the data queue, sent as the socket drains; while
 * anything is queued every sink of the relay says "would block" (-EAGAIN,
 * waiting for EPOLLOUT on its own dup of the data socket), so the queue
 * holds at most one packet and no data thread ever waits on TCP.
 * Replies are read as they arrive and matched to the requests in order: a
 * refused index or metadata packet is logged and counted.
 *
 * Threads.  The command thread connects (ltt_rlink_connect(): VERSION
 * and CREATE_SESSION, blocking with a deadline), adds metadata streams
 * and metadata, and asks for status and data pending.  One data thread,
 * data-0 (LTT_DATA_RELAY_THREAD), owns every relay's sockets' I/O from
 * ltt_rlink_io() once the relay is registered with it, runs the
 * relayed channels (their one part each), so opens and writes their
 * sinks, runs the live timer, and closes the relay on DEL_RELAY.  The
 * command thread only queues requests and kicks data-0 (an eventfd); it
 * never waits on the relay: ADD_STREAM is answered later (a stream's metadata is kept and
 * its sink says "would block", waiting on its own eventfd, until the
 * handle comes), data pending says "pending" until the relay's answer is
 * in, so a stalled relay never delays a consumer command (which the
 * session daemon would take for a dead consumer).  The relay's mutex
 * protects everything mutable; it is a leaf (no other lock is taken under
 * it; the I/O done under it is non-blocking).
 *
 * A connection that fails (the relay closed it, a send or receive error,
 * a malformed reply, an unanswered request past the deadline, no byte
 * moved for LTT_RLINK_STALL_MS while some wait to: sent, received,
 * or leaving our sockets, SIOCOUTQ going down, or still crossing a slow
 * link to a relay whose window is open; a relay that says data is
 * pending that long after it acknowledged all we sent) is recorded
 * once (conn_error, logged); from then on the relay's sinks never block
 * and drop every packet they are given, counted in packets_lost, so the
 * ring buffers keep being read and writers never stall (as LTTng's
 * consumer does); other relays and local outputs are not affected.
 */
#ifndef LTT_CONSUMERD_RELAY_RLINK_H
#define LTT_CONSUMERD_RELAY_RLINK_H

#include <stdbool.h>
#include <stdint.h>

#include "common/proto/consumer-proto.h"

/* Connection deadline, and the longest wait for a reply. */
#define LTT_RLINK_TIMEOUT_MS 5000

/* The longest a relay's destruction waits for its last bytes to go. */
#define LTT_RLINK_FINAL_MS 1000

/*
 * A relay that moves nothing this long while we wait on it is given up;
 * $LTT_CONSUMERD_RELAY_STALL_MS changes it (main.c).
 */
#define LTT_RLINK_STALL_MS 10000
#define LTT_RLINK_STALL_ENV "LTT_CONSUMERD_RELAY_STALL_MS"

/**
 * ltt_rlink_set_stall_ms() - the no-progress time after which a
 * relay is given up, for every relay; at start-up, before any relay
 */
void ltt_rlink_set_stall_ms(unsigned int ms);

/*
 * How often data-0 checks each relay's stall and close deadlines when no
 * fd fires: a relay that stalls is given up within STALL_MS + TICK_MS.
 */
#define LTT_RLINK_TICK_MS 500

/* A control queue larger than this means the relay stopped reading. */
#define LTT_RLINK_CTRL_QUEUE_MAX (8u << 20)

struct ltt_relay;

/* What ADD_RELAY says (consumer-proto.h); strings borrowed. */
struct ltt_rlink_cfg {
	uint64_t key;
	const struct ltt_consumer_relay_addr *addr;	/* where the relay listens */
	const char *hostname;
	const char *session_name;
	const char *base_path;
	uint32_t live_timer_us;
	uint64_t session_id;
	uint64_t creation_time;
	const uint8_t *uuid;		/* the session's, 16 bytes; NULL: a random one */
	uint32_t trace_format;		/* enum ltt_trace_format; 0: CTF 1.8 */
	struct {
		const char *cert, *key, *ca;	/* all NULL: plain; else TLS 1.3 */
	} tls;
};

/* RELAY_STATUS's counters. */
struct ltt_rlink_stats {
	int conn_error;			/* 0, or the -errno that ended the connection */
	uint64_t packets_sent;		/* whole packets the data socket took */
	uint64_t bytes_sent;		/* their bytes, headers excluded */
	uint64_t packets_lost;		/* read from a ring buffer, never delivered */
	uint64_t replies_refused;	/* indexes and metadata the relay refused */
};

/**
 * ltt_rlink_connect() - connect to a relay and create its session
 * @cfg: borrowed
 * @ret_relay: to release with ltt_rlink_destroy()
 * @ret_path: the relay's output directory (@path_len bytes, NUL-terminated)
 *
 * Command thread; blocks at most LTT_RLINK_TIMEOUT_MS per step.
 * Returns 0, -EINVAL (a url that is not tcp:// with a port),
 * -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -ENETUNREACH, -ENOENT (the
 * host name does not resolve), -EPROTO (the peer is not a relay or
 * refused the session), -EPROTONOSUPPORT (another major), -ENOMEM.
 */
int ltt_rlink_connect(const struct ltt_rlink_cfg *cfg, struct ltt_relay **ret_relay,
		      char *ret_path, size_t path_len);

/**
 * ltt_rlink_destroy() - close both connections and free; accepts NULL
 *
 * Once no output of the relay is left and data-0 no longer watches it
 * (data-0, after ltt_rlink_closed(), or the
 * command thread when ADD_RELAY fails).  Sends what is still queued, and
 * CLOSE_STREAM for streams not yet closed, within LTT_RLINK_FINAL_MS.
 */
void ltt_rlink_destroy(struct ltt_relay *relay);

/** ltt_rlink_key() - the relay's ADD_RELAY key */
uint64_t ltt_rlink_key(const struct ltt_relay *relay);

/** ltt_rlink_live_timer_us() - 0, or the live timer period */
uint32_t ltt_rlink_live_timer_us(const struct ltt_relay *relay);

/**
 * ltt_rlink_fds() - what data-0 watches: the control and data
 * sockets and the kick eventfd (EPOLLIN: call ltt_rlink_io())
 */
void ltt_rlink_fds(const struct ltt_relay *relay, int *ret_ctrl, int *ret_data,
		   int *ret_kick);

/**
 * ltt_rlink_io() - send what is queued, read the replies that came
 * @ret_ctrl_events: EPOLLIN, plus EPOLLOUT while the control queue is not
 *                   empty; 0 once the connection has failed
 * @ret_data_events: EPOLLOUT while the data queue is not empty, else 0
 *
 * Data-0, whenever one of the three fds fired (and after a batch of
 * work).  Never blocks.
 */
void ltt_rlink_io(struct ltt_relay *relay, uint32_t *ret_ctrl_events,
		  uint32_t *ret_data_events);

/**
 * ltt_rlink_stats() - the relay's counters
 *
 * Any thread.
 */
void ltt_rlink_stats(struct ltt_relay *relay, struct ltt_rlink_stats *ret);

/**
 * ltt_rlink_data_pending() - have all packets read so far reached the
 * relay and been written there?
 * @ret_pending: true while some have not, while that is not known yet, or
 *               while a stream's ADD_STREAM is not answered
 *
 * Command thread; never waits.  Once nothing is queued here it sends a
 * query (BEGIN_DATA_PENDING, DATA_PENDING per stream, END_DATA_PENDING)
 * whose replies data-0 reads, and answers "pending" until they
 * are in; a later call gives that answer if nothing was written since
 * ("pending" once: the next call asks again).
 * Returns 0, or -ECONNRESET when the connection is gone (*ret_pending is
 * then false).
 */
int ltt_rlink_data_pending(struct ltt_relay *relay, bool *ret_pending);

/**
 * ltt_rlink_reconcile() - after @relay's connection died, ask a
 * relay that answers again which of the packets awaited then it holds
 *
 * Those packets were counted lost at the death; the ones the relay's
 * trace holds are counted recorded instead, the others stay lost (the
 * relay cut what no index covered), so that recorded + lost = committed
 * exactly.  Only ltt-relayd is asked (GET_CONFIGURATION's
 * LTT_RELAY_CONFIG_RECONCILE): with another relay, or none answering,
 * every unconfirmed packet stays lost.  Command thread; blocks up to
 * 2 s, only while packets are left to ask about; after a failed ask the
 * next waits (1 s, doubling, 30 s at most; 30 s after a relay that did
 * not answer in time), and after the fifth refusal the packets stay lost
 * (a warning says so) and nothing is asked again.  Returns 1 when counts moved (the stream pages want publishing),
 * 0 when nothing was to ask or none moved, or the -errno of a relay that
 * could not be asked (logged).
 */
int ltt_rlink_reconcile(struct ltt_relay *relay);

/**
 * ltt_rlink_wait() - wait up to @timeout_ms for @relay's sockets to
 * take queued bytes or bring replies, then do that I/O
 * Data-0 only (it owns the relay's I/O): for a request that must
 * write packets in one go (a snapshot) whose sink said "would block".
 * Data-0's loop is kicked afterwards, so that its watches follow
 * the queues again.  Returns 0 (call ltt_sink_ready() again), or the
 * connection's error (a relay that moves nothing for
 * LTT_RLINK_STALL_MS fails with -ETIMEDOUT).
 */
int ltt_rlink_wait(struct ltt_relay *relay, int timeout_ms);

/**
 * ltt_rlink_archive() - have the relay move the closed chunk @from
 * (a directory of the relay session: the traces a rotation left) to @to
 * (ARCHIVE_CHUNK, relay protocol 2.12)
 * The request is sent once every stream of a trace at or below @from is
 * closed and every packet it sent is confirmed written (their SEND_INDEX
 * replies); ltt_rlink_archive_result() then tells how it went.
 * Command thread; never waits.  Returns 0, -EPROTONOSUPPORT (a relay
 * older than 2.12), -EBUSY (one is under way), -EINVAL, or the
 * connection's error.
 */
int ltt_rlink_archive(struct ltt_relay *relay, const char *from, const char *to);

/**
 * ltt_rlink_archive_result() - -EINPROGRESS while the last
 * ltt_rlink_archive() is under way, then 0, or why it failed: the
 * relay's refusal (-EEXIST, -ENOENT, -EINVAL, -EIO) or the connection's
 * error; -ENOENT when none was asked.  Any thread.
 */
int ltt_rlink_archive_result(struct ltt_relay *relay);

/**
 * ltt_rlink_close() - DEL_RELAY: start closing @relay
 *
 * Data-0, once no output of the relay is left.  Queues CLOSE_STREAM
 * for every stream not yet closed; data-0 keeps doing the
 * relay's I/O until ltt_rlink_closed() says it is done.  Never blocks.
 */
void ltt_rlink_close(struct ltt_relay *relay);

/**
 * ltt_rlink_closed() - is a closing relay done: everything sent and
 * answered, the connection gone, or LTT_RLINK_TIMEOUT_MS passed since
 * ltt_rlink_close() (the connection is then given up, -ETIMEDOUT)?
 *
 * Data-0.  Then ltt_rlink_destroy() it.
 */
bool ltt_rlink_closed(struct ltt_relay *relay);

#endif /* LTT_CONSUMERD_RELAY_RLINK_H */
