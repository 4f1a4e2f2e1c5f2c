/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * consumer-proto-relay.h - the relay commands of the protocol between
 * ltt-sessiond and ltt-consumerd (consumer-proto.h, which includes this
 * header and says the commands): ADD_RELAY, its reply, and the replies of
 * RELAY_DATA_PENDING and RELAY_STATUS.  Their codecs are consumer-proto.c's.
 */
#ifndef LTT_COMMON_CONSUMER_PROTO_RELAY_H
#define LTT_COMMON_CONSUMER_PROTO_RELAY_H

#include <stdbool.h>
#include <stdint.h>

#include "common/base/codec.h"

/*
 * Relay commands (1.2).  Their reply decoders read the whole reply, its
 * status included (a failure status stands alone); the encoders write the
 * body that follows a status of 0.
 */

/* ADD_RELAY, decoded; the strings borrow the message. */
/* A relay's host name or address, NUL included (uri.h's host). */
#define LTT_CONSUMER_RELAY_HOST_MAX 256

/* Where a relay daemon listens, as ADD_RELAY carries it. */
struct ltt_consumer_relay_addr {
	uint8_t family;			/* enum ltt_uri_family: 0 (a name), 4, 6 */
	char host[LTT_CONSUMER_RELAY_HOST_MAX];	/* without brackets, not empty */
	uint16_t ctrl_port;		/* not 0 */
	uint16_t data_port;		/* not 0, not ctrl_port */
};

struct ltt_consumer_add_relay {
	uint64_t relay_key;		/* not 0 */
	struct ltt_consumer_relay_addr addr;
	const char *hostname;		/* the traced host, as the relay files it */
	const char *session_name;
	const char *base_path;		/* "": SESSION-DATE from creation_time */
	uint32_t live_timer_us;		/* 0: not live */
	uint64_t session_id;		/* the session daemon's */
	uint64_t creation_time;		/* seconds since the Epoch */
	bool has_uuid;			/* 1.10: uuid is sent (always from 1.15) */
	uint8_t uuid[16];		/* the session's */
	/* 1.15: TLS 1.3 to the relay with these PEM files; all NULL: plain */
	const char *tls_cert, *tls_key, *tls_ca;
	uint8_t trace_format;		/* 1.19: enum ltt_trace_format; 0 (before): CTF 1.8 */
};

/* Maximum sizes of ADD_RELAY's strings, NUL included (the relay's own limits). */
#define LTT_CONSUMER_URL_MAX 4096	/* before 1.13 */
#define LTT_CONSUMER_HOST_NAME_MAX 64
#define LTT_CONSUMER_SESSION_NAME_MAX 255
#define LTT_CONSUMER_BASE_PATH_MAX 4096
#define LTT_CONSUMER_TLS_PATH_MAX 4096

/**
 * ltt_consumer_put_add_relay() - encode ADD_RELAY's payload for a peer of
 * protocol @minor (before 1.13, the address as two URLs)
 * @m: borrowed; NULL strings are sent as ""
 */
void ltt_consumer_put_add_relay(struct ltt_wbuf *w, const struct ltt_consumer_add_relay *m,
				uint32_t minor);

/**
 * ltt_consumer_get_add_relay() - decode ADD_RELAY's payload from a peer
 * of protocol @minor
 * @ret: set only on success; its strings point into @r's buffer
 *
 * Returns 0; -EPROTO for a malformed payload (truncated, trailing bytes,
 * a string over its maximum above); -EINVAL for a relay_key of 0, an
 * empty hostname or session name, or an address that is not a relay's
 * (an unknown family, a host no URL of that family carries, a port 0,
 * the same port twice; before 1.13, URLs that are not the tcp:// URLs of
 * one host's two ports); -ENOMEM.
 */
int ltt_consumer_get_add_relay(struct ltt_rbuf *r, struct ltt_consumer_add_relay *ret,
			       uint32_t minor);

/* ADD_RELAY's reply; output_path borrows the message when decoded. */
struct ltt_consumer_add_relay_reply {
	int32_t status;
	const char *output_path;	/* on success: the relay's output directory */
};

/**
 * ltt_consumer_put_add_relay_reply() - encode the reply's fields after
 * the status (what the consumer's handler appends on success)
 */
void ltt_consumer_put_add_relay_reply(struct ltt_wbuf *w,
				      const struct ltt_consumer_add_relay_reply *m);

/**
 * ltt_consumer_get_add_relay_reply() - decode a whole ADD_RELAY reply,
 * status included
 * @ret: set only on success; on a failure status, output_path is ""
 *
 * Returns 0 (look at ret->status) or -EPROTO.
 */
int ltt_consumer_get_add_relay_reply(struct ltt_rbuf *r,
				     struct ltt_consumer_add_relay_reply *ret);

/**
 * ltt_consumer_put_relay_key() - encode RELAY_DATA_PENDING's,
 * RELAY_STATUS's or DEL_RELAY's payload: {u64 relay_key}
 */
void ltt_consumer_put_relay_key(struct ltt_wbuf *w, uint64_t relay_key);

/**
 * ltt_consumer_get_relay_key() - decode {u64 relay_key}
 *
 * Returns 0 or -EPROTO.
 */
int ltt_consumer_get_relay_key(struct ltt_rbuf *r, uint64_t *ret_key);

/* RELAY_DATA_PENDING's reply. */
struct ltt_consumer_relay_pending_reply {
	int32_t status;
	uint8_t pending;		/* 0 or 1; 0 when status is not 0 */
};

/** ltt_consumer_put_relay_pending_reply() - the fields after the status */
void ltt_consumer_put_relay_pending_reply(struct ltt_wbuf *w,
					  const struct ltt_consumer_relay_pending_reply *m);

/**
 * ltt_consumer_get_relay_pending_reply() - decode a whole reply, status
 * included; a failure status stands alone
 *
 * Returns 0 or -EPROTO (also for pending not 0 or 1).
 */
int ltt_consumer_get_relay_pending_reply(struct ltt_rbuf *r,
					 struct ltt_consumer_relay_pending_reply *ret);

/* RELAY_STATUS's reply. */
struct ltt_consumer_relay_status_reply {
	int32_t status;
	int32_t conn_error;		/* 0 while connected, else -errno */
	uint64_t packets_sent;		/* packets the data connection took whole */
	uint64_t bytes_sent;		/* their bytes (headers excluded) */
	uint64_t packets_lost;		/* read from the buffers, never delivered */
};

/** ltt_consumer_put_relay_status_reply() - the fields after the status */
void ltt_consumer_put_relay_status_reply(struct ltt_wbuf *w,
					 const struct ltt_consumer_relay_status_reply *m);

/**
 * ltt_consumer_get_relay_status_reply() - decode a whole reply, status
 * included; a failure status stands alone (the counters are then 0)
 *
 * Returns 0 or -EPROTO.
 */
int ltt_consumer_get_relay_status_reply(struct ltt_rbuf *r,
					struct ltt_consumer_relay_status_reply *ret);

#endif /* LTT_COMMON_CONSUMER_PROTO_RELAY_H */
