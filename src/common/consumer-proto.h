/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * consumer-proto.h - the protocol between ltt-sessiond and the
 * ltt-consumerd it spawns.
 *
 * The session daemon creates a socketpair, spawns the consumer with
 * "--cmd-fd N" (its end, inherited) and sends commands; the consumer
 * answers each in order.  When the socket closes (the session daemon is
 * gone) the consumer flushes every stream, writes what is complete and
 * exits.  The consumer trusts the session daemon but not the shared
 * memory it is handed (see common/ringbuf.h).
 *
 * Framing as in app-proto.h: a 16-byte header {u32 magic, u16 type,
 * u16 reserved, u32 seq, u32 payload_len}, little-endian, codec payload,
 * fds as SCM_RIGHTS on the header's first byte.  A reply has the type of
 * its command and the payload {i32 status (0 or a negative errno), ...}.
 *
 * The first command must be HELLO {u32 major, u32 minor}; the reply is
 * {i32 status, u32 major, u32 minor} with the consumer's version and both
 * sides use min(minor).  Another command first gets -EPROTO; a different
 * major gets -EPROTONOSUPPORT and the consumer exits.  An unknown command
 * gets -EOPNOTSUPP.  A failed command's reply holds the status alone.
 *
 * Commands (payloads after the header):
 *   ADD_TRACE {u64 trace_key, str dir, 16 bytes uuid, u32 uid, u32 gid}
 *       One CTF trace: creates dir and dir/index (owned by uid:gid);
 *       -EEXIST if dir already holds a trace (its metadata file).
 *   METADATA {u64 trace_key, u32 len, len bytes of TSDL text}
 *       Appends to the trace's metadata; the consumer writes it as metadata
 *       packets (37-byte header with the trace uuid, 4 KiB packets).
 *   ADD_CHANNEL {u64 channel_key, u64 trace_key, str name,
 *                u64 tracefile_size, u64 tracefile_count,
 *                u32 switch_timer_us, u32 read_timer_us, u8 overwrite
 *                [, u8 domain, u64 subbuf_size, u64 num_subbuf]}
 *       The bracketed block (1.1) is absent for a user-space channel (as
 *       1.0 sends it) and present for any other domain.  domain: 0 user
 *       space (streams by ADD_STREAM), 1 kernel (streams by
 *       ADD_KERNEL_STREAM); an unknown domain gets -EOPNOTSUPP.  A kernel
 *       channel gives its sub-buffer size and count as it asked the tracer
 *       for them (powers of two within kmod/ltt-abi.h's limits, else
 *       -EINVAL); the user-space domain sends no block (its ring buffers
 *       carry their geometry).
 *   ADD_STREAM {u64 channel_key, u32 cpu} + 2 fds: shared memory, wakeup
 *       eventfd; the memory must be sealed against shrinking (see
 *       app-proto.h).  Writes go to dir/NAME_CPU and dir/index/NAME_CPU.idx,
 *       or with a tracefile size to dir/NAME_CPU_N and index/NAME_CPU_N.idx,
 *       N counting up, the newest tracefile_count files kept.
 *   ADD_KERNEL_STREAM {u64 channel_key, u32 cpu} + 1 fd (1.1)
 *       A stream fd of ltt-tracer.ko (LTT_KABI_STREAM) for a kernel
 *       channel; -EINVAL if the fd is not one, -EPROTO for a user-space
 *       channel (and ADD_STREAM to a kernel channel).  The files are named
 *       as for ADD_STREAM.  The session daemon closes its copy.
 *   FLUSH_CHANNEL {u64 channel_key, u8 final}
 *       Closes the current sub-buffer of every stream and writes every
 *       complete one; replies once it is on disk.  final: no writer remains,
 *       so sub-buffers left incomplete by a killed writer are given up
 *       (counted lost) instead of waited for.  Kernel channel: FLUSH each
 *       stream and write everything readable; the session daemon then
 *       closes the channel fd, the tracer finalizes the streams, and the
 *       consumer writes their last packets as they hang up (DESTROY_CHANNEL
 *       waits a bounded time for that end).
 *   CHANNEL_STATS {u64 channel_key} -> {i32 status, u64 events_lost,
 *       u64 packets_lost, u64 bytes_written}
 *   DESTROY_CHANNEL {u64 channel_key}   final flush, then close its files
 *   DESTROY_TRACE {u64 trace_key}       its channels must be destroyed first
 */
#ifndef LTT_COMMON_CONSUMER_PROTO_H
#define LTT_COMMON_CONSUMER_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/codec.h"

#define LTT_CONSUMER_MAGIC 0x4c545443U	/* "LTTC" */
#define LTT_CONSUMER_HDR_SIZE 16
#define LTT_CONSUMER_MSG_MAX (1U << 24)
/* The most TSDL text one METADATA carries, with room for the rest of the message. */
#define LTT_CONSUMER_METADATA_MAX (LTT_CONSUMER_MSG_MAX - 64)
#define LTT_CONSUMER_MAJOR 1
#define LTT_CONSUMER_MINOR 1

#define LTT_CONSUMER_MSG_TABLE(X) \
	X(ADD_TRACE, 1) \
	X(METADATA, 2) \
	X(ADD_CHANNEL, 3) \
	X(ADD_STREAM, 4) \
	X(FLUSH_CHANNEL, 5) \
	X(CHANNEL_STATS, 6) \
	X(DESTROY_CHANNEL, 7) \
	X(DESTROY_TRACE, 8) \
	X(HELLO, 9) \
	X(ADD_KERNEL_STREAM, 10)

enum ltt_consumer_msg {
#define LTT_CONSUMER_MSG_ENUM_(name, num) LTT_CONSUMER_MSG_##name = (num),
	LTT_CONSUMER_MSG_TABLE(LTT_CONSUMER_MSG_ENUM_)
#undef LTT_CONSUMER_MSG_ENUM_
	LTT_CONSUMER_MSG_NR_,
};

/**
 * ltt_consumer_msg_name() - "ADD_STREAM", or NULL for an unknown type
 */
const char *ltt_consumer_msg_name(uint32_t type);

/* Where a channel's streams come from. */
enum ltt_consumer_domain {
	LTT_CONSUMER_DOMAIN_USER = 0,	/* shared memory + eventfd (ADD_STREAM) */
	LTT_CONSUMER_DOMAIN_KERNEL = 1,	/* ltt-tracer.ko stream fds (ADD_KERNEL_STREAM) */
};

/* ADD_CHANNEL, decoded; name borrows the message. */
struct ltt_consumer_add_channel {
	uint64_t key;
	uint64_t trace_key;
	const char *name;
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	uint32_t switch_timer_us;
	uint32_t read_timer_us;
	bool overwrite;
	uint8_t domain;			/* enum ltt_consumer_domain */
	uint64_t subbuf_size;		/* kernel: bytes per sub-buffer; user: 0 */
	uint64_t num_subbuf;		/* kernel: sub-buffers per stream; user: 0 */
};

/* Bytes of a trace's directory, NUL included. */
#define LTT_CONSUMER_PATH_MAX 4096
#define LTT_CONSUMER_UUID_LEN 16

/* HELLO {u32 major, u32 minor}, and the body of its reply. */
struct ltt_consumer_version {
	uint32_t major;
	uint32_t minor;
};

/* ADD_TRACE, decoded; dir borrows the message. */
struct ltt_consumer_add_trace {
	uint64_t key;
	const char *dir;
	uint8_t uuid[LTT_CONSUMER_UUID_LEN];
	uint32_t uid;
	uint32_t gid;
};

/* METADATA, decoded; text borrows the message. */
struct ltt_consumer_metadata {
	uint64_t trace_key;
	const void *text;
	uint32_t len;
};

/* ADD_STREAM, decoded (its two fds travel beside). */
struct ltt_consumer_add_stream {
	uint64_t channel_key;
	uint32_t cpu;
};

/* FLUSH_CHANNEL, decoded. */
struct ltt_consumer_flush_channel {
	uint64_t channel_key;
	bool final;
};

/* The body of CHANNEL_STATS's reply. */
struct ltt_consumer_channel_stats {
	uint64_t events_lost;
	uint64_t packets_lost;
	uint64_t bytes_written;
};

/* ADD_KERNEL_STREAM, decoded (its one fd travels beside). */
struct ltt_consumer_add_kernel_stream {
	uint64_t channel_key;
	uint32_t cpu;
};

/**
 * ltt_consumer_put_add_channel() - encode ADD_CHANNEL's payload
 * @m: borrowed; a user-space channel is encoded as 1.0 encodes it
 *
 * Errors stay in @w (see codec.h).
 */
void ltt_consumer_put_add_channel(struct ltt_wbuf *w, const struct ltt_consumer_add_channel *m);

/**
 * ltt_consumer_get_add_channel() - decode and check ADD_CHANNEL's payload
 * @r: the whole payload (borrowed); @ret->name points into it
 * @ret: set only on success
 *
 * Checks the encoding and the domain block, not the channel's name or
 * its values against each other (the consumer's registry does).  Returns
 * 0; -EPROTO for a malformed payload (truncated, trailing bytes, a
 * boolean not 0 or 1, a block sent for the user-space domain);
 * -EOPNOTSUPP for an unknown domain; -EINVAL for a kernel geometry that
 * is not powers of two within kmod/ltt-abi.h's limits.
 */
int ltt_consumer_get_add_channel(struct ltt_rbuf *r, struct ltt_consumer_add_channel *ret);

/**
 * ltt_consumer_put_add_kernel_stream() - encode ADD_KERNEL_STREAM's payload
 */
void ltt_consumer_put_add_kernel_stream(struct ltt_wbuf *w,
					const struct ltt_consumer_add_kernel_stream *m);

/**
 * ltt_consumer_get_add_kernel_stream() - decode ADD_KERNEL_STREAM's payload
 * @ret: set only on success
 *
 * Returns 0 or -EPROTO.
 */
int ltt_consumer_get_add_kernel_stream(struct ltt_rbuf *r,
				       struct ltt_consumer_add_kernel_stream *ret);

/*
 * The other payloads.  Encoders append to @w and leave any error in it
 * (codec.h); they borrow what they are given.  Decoders read a whole
 * payload from @r, set *ret only on success and return 0 or -EPROTO
 * (truncated, bytes left over, a string without its NUL or too long, a
 * boolean not 0 or 1); the receiver checks the values.  Any thread.
 */

/**
 * ltt_consumer_put_status() - start a reply: its {i32 status}
 * @status: 0, then the command's reply body follows; or a negative errno,
 *          alone in the reply
 */
void ltt_consumer_put_status(struct ltt_wbuf *w, int32_t status);

/**
 * ltt_consumer_get_status() - read a reply's status, leaving @r on its body
 * @ret_status: 0 or a negative errno; set only on success
 *
 * Returns 0, or -EPROTO when the reply is shorter than a status or the
 * status is positive (not an errno).  Bytes after it are the caller's.
 */
int ltt_consumer_get_status(struct ltt_rbuf *r, int32_t *ret_status);

/** ltt_consumer_put_version() - HELLO, and the body of HELLO's reply */
void ltt_consumer_put_version(struct ltt_wbuf *w, const struct ltt_consumer_version *m);
/** ltt_consumer_get_version() - decode HELLO or its reply's body */
int ltt_consumer_get_version(struct ltt_rbuf *r, struct ltt_consumer_version *ret);

/** ltt_consumer_put_add_trace() - ADD_TRACE; a NULL dir is sent as "" */
void ltt_consumer_put_add_trace(struct ltt_wbuf *w, const struct ltt_consumer_add_trace *m);
/**
 * ltt_consumer_get_add_trace() - decode ADD_TRACE; @ret->dir points into
 * the payload and is at most LTT_CONSUMER_PATH_MAX bytes with its NUL
 */
int ltt_consumer_get_add_trace(struct ltt_rbuf *r, struct ltt_consumer_add_trace *ret);

/**
 * ltt_consumer_put_metadata() - METADATA; text of more than
 * LTT_CONSUMER_METADATA_MAX bytes sets the buffer's error to -E2BIG
 */
void ltt_consumer_put_metadata(struct ltt_wbuf *w, const struct ltt_consumer_metadata *m);
/** ltt_consumer_get_metadata() - decode METADATA; @ret->text points into the payload */
int ltt_consumer_get_metadata(struct ltt_rbuf *r, struct ltt_consumer_metadata *ret);

/** ltt_consumer_put_add_stream() - ADD_STREAM's payload (the fds travel beside) */
void ltt_consumer_put_add_stream(struct ltt_wbuf *w, const struct ltt_consumer_add_stream *m);
int ltt_consumer_get_add_stream(struct ltt_rbuf *r, struct ltt_consumer_add_stream *ret);

void ltt_consumer_put_flush_channel(struct ltt_wbuf *w,
				    const struct ltt_consumer_flush_channel *m);
int ltt_consumer_get_flush_channel(struct ltt_rbuf *r, struct ltt_consumer_flush_channel *ret);

/** ltt_consumer_put_key() - CHANNEL_STATS, DESTROY_CHANNEL, DESTROY_TRACE: {u64 key} */
void ltt_consumer_put_key(struct ltt_wbuf *w, uint64_t key);
int ltt_consumer_get_key(struct ltt_rbuf *r, uint64_t *ret_key);

/** ltt_consumer_put_channel_stats() - the body of CHANNEL_STATS's reply */
void ltt_consumer_put_channel_stats(struct ltt_wbuf *w,
				    const struct ltt_consumer_channel_stats *m);
int ltt_consumer_get_channel_stats(struct ltt_rbuf *r, struct ltt_consumer_channel_stats *ret);

#endif /* LTT_COMMON_CONSUMER_PROTO_H */
