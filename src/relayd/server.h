/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * server.h - what the control and data servers share: a listening
 * socket on the event loop, its accepted connections, their bounded
 * input and output buffers, and the deadline that closes a connection
 * whose peer stopped in the middle of a message.
 *
 * A protocol (ctrl.c, data.c) gives a table of operations; the server
 * calls ->readable when the connection's socket has input and the
 * protocol reads what it needs itself (ltt_relay_conn_read()).  A protocol
 * returns 0 to go on, or a negative errno to have the connection closed:
 * it has already logged why (one line naming the peer), except for
 * -ECONNRESET, the peer closing, which the server logs at info level.
 *
 * Every connection has a deadline: while it holds part of a message
 * (->busy says so) or replies it could not send yet, it must make
 * progress within the idle time, or it is closed.  A connection between
 * messages may stay silent forever.  A connection whose replies pile up
 * (its peer does not read) is not read any more until they drain.
 *
 * With a TLS context (ltt_relay_server_set_tls()) every connection
 * completes a TLS 1.3 handshake, its client's certificate verified,
 * before the protocol sees a byte; a failed one is closed with a line
 * saying why, and nothing of it reaches the protocol.
 *
 * Server thread only (the loop's).
 */
#ifndef LTT_RELAYD_SERVER_H
#define LTT_RELAYD_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"

struct ltt_evloop;
struct ltt_evloop_watch;
struct ltt_evloop_timer;
struct ltt_relay_model;
struct ltt_relay_conn;
struct ltt_xport;
struct ltt_xport_ctx;

#define LTT_RELAY_MAX_CONNS 4096		/* per server */
#define LTT_RELAY_MAX_PENDING_OUT (1u << 20)	/* replies before we stop reading */
#define LTT_RELAY_DEFAULT_IDLE_MS 30000
#define LTT_RELAY_DEFAULT_HELLO_MS 30000

struct ltt_relay_proto_ops {
	const char *name;			/* "control", "data": for logs */
	size_t state_size;			/* bytes of conn->state, zeroed */
	int (*readable)(struct ltt_relay_conn *conn);
	bool (*busy)(const struct ltt_relay_conn *conn);	/* inside a message */
	/* past the first message (a bound session, a packet): may idle */
	bool (*established)(const struct ltt_relay_conn *conn);
	const char *first;			/* what it must send first, for logs */
	/* a peer that sent nothing yet may wait longer (NULL: never) */
	bool (*may_wait)(struct ltt_relay_conn *conn);
	void (*closed)(struct ltt_relay_conn *conn);	/* release the state */
	/* reads nothing for now (NULL: never): it waits for another connection */
	bool (*paused)(const struct ltt_relay_conn *conn);
};

struct ltt_relay_conn {
	struct ltt_relay_server *server;
	struct ltt_relay_conn *next, *prev;
	struct ltt_xport *x;			/* the socket, plain or TLS */
	bool shaken;				/* TLS handshake done (or plain) */
	struct ltt_evloop_watch *watch;
	struct ltt_evloop_timer *deadline;
	struct ltt_evloop_timer *again;		/* TLS: bytes decrypted, unread */
	char peer[64];				/* "ADDR:PORT" of the peer */
	struct ltt_wbuf out;			/* replies not sent yet */
	size_t out_pos;				/* bytes of out already sent */
	bool closing;				/* close once out is sent */
	bool hello;				/* not established yet */
	bool waiting;				/* hello past its deadline, allowed */
	uint64_t hello_end;			/* CLOCK_MONOTONIC ns: hello's deadline */
	void *state;				/* the protocol's */
};

struct ltt_relay_server {
	struct ltt_evloop *loop;
	struct ltt_relay_model *model;
	const struct ltt_relay_proto_ops *ops;
	int listen_fd;
	struct ltt_evloop_watch *listen_watch;
	struct ltt_evloop_timer *resume;	/* accept again after EMFILE */
	struct ltt_relay_conn *conns;
	unsigned int conn_count;
	unsigned int waiting_count;		/* conns with ->waiting */
	unsigned int max_conns;			/* LTT_RELAY_MAX_CONNS or fewer */
	unsigned int refused;			/* since the last log line */
	uint64_t refused_log_ns;		/* when it was logged */
	uint64_t idle_ns;
	uint64_t bound_idle_ns;			/* idle_ns once established */
	uint64_t hello_ns;			/* to send the first message */
	struct ltt_xport_ctx *tls;		/* NULL: plain; borrowed */
};

/**
 * ltt_relay_server_start() - accept connections on @listen_fd
 * @listen_fd: listening and non-blocking; the server takes it on success
 * @idle_ms: the deadline of a half-sent message or unsent replies
 * @hello_ms: the deadline of the first message (ops->established) after
 *            the accept
 * @ret_server: to stop with ltt_relay_server_stop()
 *
 * Returns 0 or a negative errno.
 */
int ltt_relay_server_start(struct ltt_evloop *loop, struct ltt_relay_model *model,
			   const struct ltt_relay_proto_ops *ops, int listen_fd, unsigned int idle_ms,
			   unsigned int hello_ms, struct ltt_relay_server **ret_server);

/**
 * ltt_relay_server_set_bound_idle() - the deadline of a half-sent message
 * or unsent replies on an established connection (ops->established: a
 * session bound, a packet begun), @ms, at least the idle time: over a
 * slow shaped link a peer's next segment may take minutes to come
 * (default: the idle time)
 */
void ltt_relay_server_set_bound_idle(struct ltt_relay_server *srv, unsigned int ms);

/**
 * ltt_relay_server_set_max_conns() - accept at most @max connections
 * (1 .. LTT_RELAY_MAX_CONNS) at once; more are accepted and closed, with
 * a warning at most every 10 s
 */
void ltt_relay_server_set_max_conns(struct ltt_relay_server *srv, unsigned int max);

/**
 * ltt_relay_server_set_tls() - speak only TLS 1.3 with clients that show
 * a certificate @tls's CA signed, from the next accepted connection on
 * @tls: a server context (common/net/xport.h), borrowed: it must outlive @srv
 */
void ltt_relay_server_set_tls(struct ltt_relay_server *srv, struct ltt_xport_ctx *tls);

/**
 * ltt_relay_server_stop() - close every connection (each protocol's
 * ->closed runs) and the listening socket, free; accepts NULL
 */
void ltt_relay_server_stop(struct ltt_relay_server *srv);

/**
 * ltt_relay_conn_read() - read at most @len bytes from the connection
 * @ret_len: bytes read, > 0 on success
 *
 * Returns 0; -EAGAIN when nothing is there now; -ECONNRESET when the peer
 * closed; another negative errno (logged).
 */
int ltt_relay_conn_read(struct ltt_relay_conn *conn, void *buf, size_t len, size_t *ret_len);

/**
 * ltt_relay_conn_send() - queue the bytes of @w (then reset it) as a reply
 * and send what the socket takes now; the rest goes when it is writable
 *
 * Returns 0, or -ENOMEM (the connection should be closed).
 */
int ltt_relay_conn_send(struct ltt_relay_conn *conn, struct ltt_wbuf *w);

/**
 * ltt_relay_conn_close_after_send() - close the connection once its
 * queued replies are sent (or the deadline passes)
 */
void ltt_relay_conn_close_after_send(struct ltt_relay_conn *conn);

/**
 * ltt_relay_conn_update() - re-evaluate the connection's deadline and
 * whether to read (after ->readable changed its state outside a
 * ->readable call); the server does it after each ->readable itself
 */
void ltt_relay_conn_update(struct ltt_relay_conn *conn);

/**
 * ltt_relay_conn_kick() - serve @conn as if it were readable
 *
 * For a connection that waited on another one: its ->readable runs, then
 * it is closed on error or its watch updated.  @conn may be freed on
 * return.  Server thread, outside @conn's own callbacks.
 */
void ltt_relay_conn_kick(struct ltt_relay_conn *conn);

#endif /* LTT_RELAYD_SERVER_H */
