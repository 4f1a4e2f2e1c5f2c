/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * relay-conn.h - opening a connection to ltt-relayd: resolve and connect
 * a tcp:// URL without blocking past a deadline, and the control
 * connection's handshake (VERSION, CREATE_SESSION) of
 * common/proto/relay-proto.h.  Used by the consumer's relay output
 * (sink-relay.c) and the session daemon's create-time check (relay.c);
 * the sockets are left non-blocking.  A connection is a transport
 * (common/net/xport.h): plain bytes, or TLS 1.3 for tls:// URLs.
 */
#ifndef LTT_COMMON_RELAY_CONN_H
#define LTT_COMMON_RELAY_CONN_H

#include <stddef.h>
#include <stdint.h>

#include "common/model/uri.h"

struct ltt_xport;
struct ltt_xport_ctx;
struct ltt_relay_reconcile_stream;

/* Each connect, and the handshake, within this. */
#define LTT_RELAY_CONN_TIMEOUT_MS 5000

/* What CREATE_SESSION says; strings borrowed. */
struct ltt_relay_conn_session {
	const char *session_name;
	const char *hostname;
	const char *base_path;		/* NULL or "": the relay names it SESSION-DATE */
	uint32_t live_timer_us;
	uint64_t session_id;
	uint64_t creation_time;
	const uint8_t *uuid;		/* the session's, 16 bytes (LTTng's relay refuses nil) */
	uint32_t trace_format;		/* enum ltt_trace_format: CTF 2 needs a relay of 2.15 */
};

/** ltt_relay_conn_now_ms() - CLOCK_MONOTONIC in milliseconds */
uint64_t ltt_relay_conn_now_ms(void);

/** ltt_relay_conn_ms_left() - milliseconds until @deadline, 0 once past */
int ltt_relay_conn_ms_left(uint64_t deadline);

/**
 * ltt_relay_conn_connect() - connect to @port of @host by @deadline
 * @family: enum ltt_uri_family (common/model/uri.h): the addresses tried, a
 *          name's of both families (LTT_URI_ANY), else IPv4's or IPv6's
 * @host: a host name or an address literal, without brackets
 * @deadline: ltt_relay_conn_now_ms() time
 * @ret_fd: a non-blocking, close-on-exec TCP socket with TCP_NODELAY
 *
 * Any thread.  Tries every address the host resolves to.  Returns 0,
 * -ENOENT (the name does not resolve), -ECONNREFUSED, -ETIMEDOUT,
 * -EHOSTUNREACH, -ENETUNREACH, -ENOMEM.
 */
int ltt_relay_conn_connect(int family, const char *host, uint16_t port, uint64_t deadline,
			   int *ret_fd);


/**
 * ltt_relay_conn_open() - ltt_relay_conn_connect(), then the transport:
 * plain, or TLS with @tls and its handshake by @deadline
 * @tls: NULL for plain; else a client context (borrowed, must outlive
 *       the connection), the server's certificate checked against @host
 * @label: names the relay in messages
 * @ret_x: the connection, to free with ltt_xport_destroy()
 *
 * Returns 0, ltt_relay_conn_connect()'s errors, or -EKEYREJECTED: the
 * TLS handshake failed (logged, with OpenSSL's reason: the relay's
 * certificate, or ours refused, or no TLS there).
 */
int ltt_relay_conn_open(int family, const char *host, uint16_t port,
			struct ltt_xport_ctx *tls, uint64_t deadline, const char *label,
			struct ltt_xport **ret_x);

/**
 * ltt_relay_conn_version() - VERSION on a control connection
 * @deadline: ltt_relay_conn_now_ms() time
 * @label: names the relay in messages
 *
 * Returns 0; -EPROTO when the peer closes or answers nonsense (not a
 * relay: a major of 0 or 16 and up); -EPROTONOSUPPORT for another major,
 * or a minor below LTT_RELAY_MINOR_MIN; @ret_minor (may be NULL) gets
 * the minor both speak, the lower of the two;
 * -ETIMEDOUT; a socket error.
 */
int ltt_relay_conn_version(struct ltt_xport *x, uint64_t deadline, const char *label, uint32_t *ret_minor);

/**
 * ltt_relay_conn_create_session() - CREATE_SESSION on a control connection
 * of protocol 2.@minor (ltt_relay_conn_version()'s)
 * @ret_id: the relay's id of the session
 * @ret_path: its output directory, @path_len bytes, NUL-terminated
 *
 * Returns 0; -EPROTO for a malformed reply; -EREMOTEIO for a refusal
 * (logged); -EINVAL for names the protocol cannot carry; -EPROTONOSUPPORT
 * (logged) for a CTF 2 session toward a relay before 2.15, which would
 * take its metadata for CTF 1.8's; -ETIMEDOUT; -ENOMEM; a socket error.
 */
int ltt_relay_conn_create_session(struct ltt_xport *x, const struct ltt_relay_conn_session *cfg,
				  uint32_t minor, uint64_t deadline, const char *label,
				  uint64_t *ret_id, char *ret_path, size_t path_len);

/**
 * ltt_relay_conn_get_configuration() - GET_CONFIGURATION (minor 12 and up)
 * @ret_flags: the relay's LTT_RELAY_CONFIG_* flags; 0 when it refuses
 *
 * Returns 0; -EPROTO for a malformed reply; -ETIMEDOUT; a socket error.
 */
int ltt_relay_conn_get_configuration(struct ltt_xport *x, uint64_t deadline, const char *label,
				     uint64_t *ret_flags);

/**
 * ltt_relay_conn_create_chunk() - CREATE_TRACE_CHUNK @chunk_id (minor 11
 * and up), unnamed, created @creation_time: the session's first chunk is
 * its output directory itself, where the streams added next go
 *
 * Returns 0; -EPROTO for a malformed reply; -EREMOTEIO for a refusal
 * (logged); -ETIMEDOUT; a socket error.
 */
int ltt_relay_conn_create_chunk(struct ltt_xport *x, uint64_t chunk_id, uint64_t creation_time,
				uint64_t deadline, const char *label);

/**
 * ltt_relay_conn_reconcile() - RECONCILE_STREAM @req (ltt-relayd, when
 * GET_CONFIGURATION set LTT_RELAY_CONFIG_RECONCILE)
 * @ret_seqs: LTT_RELAY_RECONCILE_MAX slots: the packet_seq_num of the
 *            stream's indexed packets from req->first_packet_seq on
 * @ret_count: how many; @ret_code: the relay's ret_code (count 0 unless OK)
 *
 * Returns 0 (whatever the relay answered); -EPROTO for a malformed reply;
 * -ETIMEDOUT; a socket error.
 */
int ltt_relay_conn_reconcile(struct ltt_xport *x, const struct ltt_relay_reconcile_stream *req,
			     uint64_t deadline, uint64_t *ret_seqs, uint32_t *ret_count,
			     uint32_t *ret_code);

#endif /* LTT_COMMON_RELAY_CONN_H */
