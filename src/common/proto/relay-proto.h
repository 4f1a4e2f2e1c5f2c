/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * relay-proto.h - the streaming protocol between a consumer daemon and
 * ltt-relayd: a control connection (default port 5342) and a data
 * connection (5343), both TCP.
 *
 * The layouts are LTTng's relay protocol 2.11 to 2.15 (shared/ref/formats.md
 * §2): every integer big-endian, every structure packed, strings either
 * length-prefixed (the lengths count the NUL) or in fixed char arrays.
 * ltt-relayd speaks the subset listed below, as version {2, 15}, to ltt's
 * consumers and to LTTng 2.11-2.16's; ltt's consumers speak it to
 * ltt-relayd and to LTTng's lttng-relayd 2.11 and later.  Served to an
 * LTTng peer: one trace chunk per session (its first: the session's
 * directory); a rotation or a clear (a second chunk, ROTATE_STREAMS into
 * a new chunk, CLOSE_TRACE_CHUNK with an archive or delete command) gets
 * LTT_RELAY_ERR_UNSUPPORTED, as do START_DATA, UPDATE_SYNC_INFO,
 * ADD_INDEX, CLOSE_INDEX and LIST_SESSIONS.  ltt's extensions
 * (ARCHIVE_CHUNK, RESET_METADATA's rewrite_size, answered SEND_METADATA,
 * RECONCILE_STREAM) go to ltt-relayd only: a consumer knows it by
 * GET_CONFIGURATION's LTT_RELAY_CONFIG_LTT (and, for RECONCILE_STREAM,
 * LTT_RELAY_CONFIG_RECONCILE).
 *
 * Control connection: every request is a 24-byte header {u64 circuit_id
 * (0), u64 data_size, u32 cmd, u32 cmd_version} then data_size bytes of
 * payload; cmd_version is 0 but for SEND_METADATA (below).  The relay
 * answers every request but SEND_METADATA without
 * LTT_RELAY_METADATA_ANSWERED, in order, so a sender may pipeline
 * requests and read the replies later.  A request whose header
 * or payload is malformed (a length that does not add up, a string
 * without its NUL, an unknown stream) closes the connection; a
 * well-formed request the relay cannot serve gets an error code.
 *
 *   VERSION {u32 major, u32 minor}           -> {u32 major, u32 minor}
 *       First, always.  Different majors: the relay closes.  Both sides
 *       then use min(minor).
 *   GET_CONFIGURATION (2.12) {u64 query_flags (0)} -> {u32 ret_code, u64 flags}
 *       After VERSION.  ltt-relayd sets LTT_RELAY_CONFIG_LTT.
 *   CREATE_SESSION (2.11) -> {u64 relay_session_id, u32 ret_code,
 *                             u32 output_path_len, output path (NUL-terminated)}
 *       Binds the connection to a new relay session (one per connection).
 *       The payload carries the sender's session uuid (LTTng's relay
 *       refuses a nil one) and its session id; from 2.15 on, a u32
 *       trace_format before the names (1 CTF 1.8, 2 CTF 2: another value
 *       gets ERR_INVAL).  A sender never streams a CTF 2 trace to a relay
 *       before 2.15, which would take its metadata for CTF 1.8's.
 *   CREATE_TRACE_CHUNK (2.11) {u64 chunk_id, u64 creation_time,
 *       u32 name_len, name}                  -> {u32 ret_code}
 *       Before the first ADD_STREAM: the session's chunk (its directory).
 *   CLOSE_TRACE_CHUNK (2.11) {u64 chunk_id, u64 close_time, u8 is_set,
 *       u32 close_command}   -> {u32 ret_code, u32 path_len, path}
 *       When the session ends (LTTng's: after ROTATE_STREAMS without a
 *       new chunk, whose positions ltt-relayd does not need).
 *   TRACE_CHUNK_EXISTS (2.11) {u64 chunk_id} -> {u32 ret_code, u8 exists}
 *   ADD_STREAM (2.11) {u32 channel_name_len, u32 pathname_len,
 *       u64 tracefile_size, u64 tracefile_count, u64 trace_chunk_id (0),
 *       channel name, pathname}      -> {u64 stream_handle, u32 ret_code}
 *       channel name: the stream's file name ("CHANNEL_CPU", or "metadata"
 *       for the trace's metadata stream); pathname: the trace directory
 *       relative to the session's output ("ust/uid/1000/64-bit").  The
 *       streams of one pathname are one CTF trace.
 *   STREAMS_SENT {}                          -> {u32 ret_code}
 *       The streams added so far form complete traces: viewers may see them.
 *   SEND_METADATA {u64 stream_handle, u32 padding_size} + bytes
 *                                             -> {u32 ret_code} or nothing
 *       Appends TSDL metadata packets to a metadata stream (data_size =
 *       12 + bytes), then padding_size zeros that do not travel.  LTTng's
 *       relay never answers it; ltt-relayd answers it, once written, when
 *       cmd_version is LTT_RELAY_METADATA_ANSWERED (ltt's consumers, so
 *       that no packet goes before its metadata is on the relay's disk).
 *   SEND_INDEX (80 bytes, below)             -> {u32 ret_code}
 *       The index of the packet sent on the data connection with the same
 *       (stream_handle, net_seq_num).  packet_size 0 is a live beacon: no
 *       data on the stream up to timestamp_end.
 *   CLOSE_STREAM {u64 stream_handle, u64 last_net_seq_num}
 *                                             -> {u32 ret_code}
 *       No more packets after last_net_seq_num; the stream ends (HUP for
 *       viewers) once they all arrived.
 *   QUIESCENT_CONTROL {u64 stream_handle}    -> {u32 ret_code}
 *       In a data pending query, for an open stream not asked DATA_PENDING
 *       (LTTng's relay counts a stream neither asked nor closed pending).
 *   BEGIN_DATA_PENDING {u64 relay_session_id} -> {u32 ret_code}
 *   RESET_METADATA (2.13) {u64 stream_handle, u64 version[, u64 rewrite_size]}
 *                                             -> {u32 ret_code}
 *       A metadata stream starts again (regenerate metadata): the relay
 *       empties its file; the SEND_METADATA that follow write it from
 *       offset 0.  version grows with each reset of the stream (a reset
 *       whose version does not grow is refused with ERR_INVAL).  LTTng's
 *       layout is the 16-byte form; ltt's consumers add rewrite_size (toward
 *       ltt-relayd only), the
 *       bytes of the metadata written again (the packets right after):
 *       a live viewer that had the old text whole is served from there
 *       on (it keeps its old header, e.g. its clock offset, and gets the
 *       event classes added later), one that attaches afterwards the new
 *       text whole.  Without rewrite_size a live session's stream is not
 *       reset (ERR_UNSUPPORTED), as in LTTng.
 *   DATA_PENDING {u64 stream_handle, u64 last_net_seq_num}
 *                                             -> {u32 ret_code}: 1 while
 *       packets up to last_net_seq_num are still missing, 0 once written
 *   END_DATA_PENDING {u64 relay_session_id}  -> {u32 pending}: 1 while a
 *       stream of the session waits for data, else 0 (LTTng's form)
 *
 * Data connection: no handshake.  Each packet is a 32-byte header
 * {u64 circuit_id (0), u64 stream_handle, u64 net_seq_num, u32 data_size,
 * u32 padding_size} then data_size bytes: the packet's content (its header
 * included, up to content_size rounded up to a byte).  The padding does
 * not travel: the relay writes padding_size zeros after the data, so the
 * packet on disk is data_size + padding_size bytes (its packet_size), as
 * LTTng does; with padding it ends on a 4 KiB boundary (ltt's consumers
 * pad to the sub-buffer, LTTng's to the page).  net_seq_num counts from 0 per stream and increases by one
 * per packet.  A data connection serves the streams of any session; the
 * relay never writes to it.
 */
#ifndef LTT_COMMON_RELAY_PROTO_H
#define LTT_COMMON_RELAY_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/base/codec.h"

#define LTT_RELAY_MAJOR 2
#define LTT_RELAY_MINOR 15
/* The oldest minor a consumer streams to (the layouts of 2.11). */
#define LTT_RELAY_MINOR_MIN 11
/* The minor that brought trace chunks (CREATE_TRACE_CHUNK...) and the session's uuid. */
#define LTT_RELAY_MINOR_CHUNKS 11
/* The minor that brought GET_CONFIGURATION. */
#define LTT_RELAY_MINOR_CONFIG 12
/* The minor that brought ARCHIVE_CHUNK (rotation on the relay's side). */
#define LTT_RELAY_MINOR_ARCHIVE 12
/* The minor that brought RESET_METADATA (regenerate metadata on a relay). */
#define LTT_RELAY_MINOR_RESET_METADATA 13
/* The minor that brought CREATE_SESSION's trace format (CTF 2 streams); 14 changed nothing. */
#define LTT_RELAY_MINOR_TRACE_FORMAT 15
/* CREATE_SESSION's trace_format: LTTng's enum lttng_trace_format (and ltt's enum ltt_trace_format). */
#define LTT_RELAY_TRACE_FORMAT_CTF_1_8 1
#define LTT_RELAY_TRACE_FORMAT_CTF_2 2

/*
 * A control header's cmd_version for SEND_METADATA: LTTng's relay never
 * answers SEND_METADATA (cmd_version 0); ltt's consumers ask ltt-relayd
 * to answer it once written with LTT_RELAY_METADATA_ANSWERED (an LTTng
 * relay ignores cmd_version).
 */
#define LTT_RELAY_METADATA_ANSWERED 1

#define LTT_RELAY_CTRL_HDR_SIZE 24
#define LTT_RELAY_DATA_HDR_SIZE 32
#define LTT_RELAY_INDEX_SIZE 80

/* Limits a relay enforces on what it receives. */
#define LTT_RELAY_NAME_MAX 255		/* session, channel names, NUL included */
#define LTT_RELAY_HOST_NAME_MAX 64	/* host names, NUL included */
#define LTT_RELAY_PATH_MAX 4096		/* paths, NUL included */
#define LTT_RELAY_MAX_CTRL_PAYLOAD (1u << 20)	/* a control request's data_size */
#define LTT_RELAY_MAX_PACKET (1u << 30)		/* a packet's data_size + padding_size */

enum ltt_relay_cmd {
	LTT_RELAY_ADD_STREAM = 1,
	LTT_RELAY_CREATE_SESSION = 2,
	LTT_RELAY_START_DATA = 3,		/* unsupported */
	LTT_RELAY_UPDATE_SYNC_INFO = 4,		/* unsupported */
	LTT_RELAY_VERSION = 5,
	LTT_RELAY_SEND_METADATA = 6,
	LTT_RELAY_CLOSE_STREAM = 7,
	LTT_RELAY_DATA_PENDING = 8,
	LTT_RELAY_QUIESCENT_CONTROL = 9,
	LTT_RELAY_BEGIN_DATA_PENDING = 10,
	LTT_RELAY_END_DATA_PENDING = 11,
	LTT_RELAY_ADD_INDEX = 12,		/* unsupported */
	LTT_RELAY_SEND_INDEX = 13,
	LTT_RELAY_CLOSE_INDEX = 14,		/* unsupported */
	LTT_RELAY_LIST_SESSIONS = 15,		/* unsupported */
	LTT_RELAY_STREAMS_SENT = 16,
	LTT_RELAY_RESET_METADATA = 17,		/* 2.13 here (LTTng's since 2.8) */
	LTT_RELAY_ROTATE_STREAMS = 18,		/* 2.11: served without a new chunk only */
	LTT_RELAY_CREATE_TRACE_CHUNK = 19,	/* 2.11 */
	LTT_RELAY_CLOSE_TRACE_CHUNK = 20,	/* 2.11 */
	LTT_RELAY_TRACE_CHUNK_EXISTS = 21,	/* 2.11 */
	/* 2.12: {u64 query_flags} -> {u32 ret_code, u64 flags} */
	LTT_RELAY_GET_CONFIGURATION = 22,
	/*
	 * ltt's own (2.12), in the range LTTng leaves to other branches so
	 * that no LTTng command number changes meaning: move a closed trace
	 * chunk's directory into the session's archives.
	 */
	LTT_RELAY_ARCHIVE_CHUNK = 10000,
	/*
	 * ltt's own, to a relay that sets LTT_RELAY_CONFIG_RECONCILE: which
	 * of a dead connection's unconfirmed packets the relay's files hold.
	 */
	LTT_RELAY_RECONCILE_STREAM = 10001,
};

/*
 * GET_CONFIGURATION's flags.  CLEAR_ALLOWED is LTTng's (never set by
 * ltt-relayd); LTT is ltt-relayd's, in the bits LTTng leaves unused: the
 * relay serves ltt's extensions (ARCHIVE_CHUNK, RESET_METADATA's
 * rewrite_size), which a consumer sends to no other relay; NO_CLEAR, with
 * LTT, says it refuses clears (ltt-relayd --disallow-clear, as LTTng's).
 */
#define LTT_RELAY_CONFIG_CLEAR_ALLOWED (1ULL << 0)
#define LTT_RELAY_CONFIG_LTT (1ULL << 32)
#define LTT_RELAY_CONFIG_NO_CLEAR (1ULL << 33)
/* With LTT: RECONCILE_STREAM is served (doc/relayd.md, "Exact counts"). */
#define LTT_RELAY_CONFIG_RECONCILE (1ULL << 34)

/* CLOSE_TRACE_CHUNK's close_command values (LTTng's). */
enum ltt_relay_chunk_command {
	LTT_RELAY_CHUNK_MOVE_TO_COMPLETED = 0,
	LTT_RELAY_CHUNK_NO_OPERATION = 1,
	LTT_RELAY_CHUNK_DELETE = 2,
};

/*
 * ret_code values (LTTng's LTTNG_OK is 10, its generic error 11).  12 to
 * 16 are ltt-relayd's own (LTTng gives them other meanings; its senders
 * only compare with LTTNG_OK); an LTTng relay refuses with the LTTng
 * codes below.
 */
enum ltt_relay_ret {
	LTT_RELAY_OK = 10,
	LTT_RELAY_ERR = 11,		/* anything else went wrong */
	LTT_RELAY_ERR_UNSUPPORTED = 12,	/* a command the relay does not serve */
	LTT_RELAY_ERR_NOENT = 13,	/* no such stream or session */
	LTT_RELAY_ERR_INVAL = 14,	/* a value out of range (name, path, size) */
	LTT_RELAY_ERR_IO = 15,		/* the relay could not write */
	LTT_RELAY_ERR_EXIST = 16,	/* the stream or trace exists already */
	LTT_RELAY_ERR_LTTNG_FATAL = 25,		/* LTTng's LTTNG_ERR_FATAL */
	LTT_RELAY_ERR_LTTNG_NOMEM = 26,		/* LTTng's LTTNG_ERR_NOMEM */
	LTT_RELAY_ERR_LTTNG_INVALID = 97,	/* LTTng's LTTNG_ERR_INVALID */
	LTT_RELAY_ERR_LTTNG_PROTOCOL = 152,	/* LTTng's LTTNG_ERR_INVALID_PROTOCOL */
};

struct ltt_relay_ctrl_hdr {
	uint64_t circuit_id;
	uint64_t data_size;
	uint32_t cmd;
	uint32_t cmd_version;
};

struct ltt_relay_data_hdr {
	uint64_t circuit_id;
	uint64_t stream_handle;
	uint64_t net_seq_num;
	uint32_t data_size;
	uint32_t padding_size;
};

struct ltt_relay_version {
	uint32_t major;
	uint32_t minor;
};

struct ltt_relay_create_session {
	char session_name[LTT_RELAY_NAME_MAX];
	char hostname[LTT_RELAY_HOST_NAME_MAX];
	char base_path[LTT_RELAY_PATH_MAX];	/* "" : SESSION-DATE from creation_time */
	uint32_t live_timer_us;			/* 0: not live */
	uint8_t snapshot;
	uint8_t session_name_contains_creation_time;
	uint8_t sessiond_uuid[16];
	uint64_t session_id;			/* the sender's own id */
	uint64_t creation_time;			/* seconds since the Epoch */
	uint8_t has_chunk_id;			/* 0 in this subset */
	uint64_t chunk_id;
	uint32_t trace_format;			/* 2.15: LTT_RELAY_TRACE_FORMAT_*; before: not sent */
};

struct ltt_relay_create_session_reply {
	uint64_t relay_session_id;
	uint32_t ret_code;
	char output_path[LTT_RELAY_PATH_MAX];	/* as the relay names it */
};

struct ltt_relay_add_stream {
	char channel_name[LTT_RELAY_NAME_MAX];
	char pathname[LTT_RELAY_PATH_MAX];
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	uint64_t trace_chunk_id;
};

/*
 * ARCHIVE_CHUNK {u32 from_len, u32 to_len, from, to} (both NUL-terminated,
 * relative to the relay session's directory; to "": discard from, a
 * clear) -> ret_code.
 */
struct ltt_relay_archive_chunk {
	char from[LTT_RELAY_PATH_MAX];
	char to[LTT_RELAY_PATH_MAX];
};

/*
 * RECONCILE_STREAM {u64 first_packet_seq, u8 rotating, u32 session_path_len,
 * u32 pathname_len, u32 channel_name_len, session_path, pathname,
 * channel_name} -> {u32 ret_code, u32 count, count u64 packet_seq_num}.
 * Needs no session: sent on a connection of its own (VERSION,
 * GET_CONFIGURATION, then this) after the consumer's connection died.
 * session_path is CREATE_SESSION's output path, pathname and channel_name
 * ADD_STREAM's, rotating whether ADD_STREAM gave a tracefile size.  The
 * relay cuts the stream's files after their last indexed packet, then
 * answers the packet_seq_num of the indexed packets from first_packet_seq
 * on, oldest first, at most LTT_RELAY_RECONCILE_MAX.  Refused (count 0):
 * ERR_INVAL, a path outside the relay's output or a name that is not
 * one; ERR_NOENT, no such stream files; ERR_EXIST, a session of the relay
 * holds the stream; ERR_IO, its files could not be read or cut.
 */
struct ltt_relay_reconcile_stream {
	uint64_t first_packet_seq;
	bool rotating;
	char session_path[LTT_RELAY_PATH_MAX];
	char pathname[LTT_RELAY_PATH_MAX];
	char channel_name[LTT_RELAY_NAME_MAX];
};

/* The packets RECONCILE_STREAM answers at most (and a consumer asks about). */
#define LTT_RELAY_RECONCILE_MAX 4096

/* RECONCILE_STREAM's reply header; count u64 follow. */
struct ltt_relay_reconcile_reply {
	uint32_t ret_code;
	uint32_t count;
};

struct ltt_relay_add_stream_reply {
	uint64_t stream_handle;
	uint32_t ret_code;
};

struct ltt_relay_metadata_hdr {
	uint64_t stream_handle;
	uint32_t padding_size;
};

struct ltt_relay_index {
	uint64_t stream_handle;
	uint64_t net_seq_num;
	uint64_t packet_size;		/* bits; 0: a live beacon */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;		/* the CTF stream class id */
	uint64_t stream_instance_id;
	uint64_t packet_seq_num;
};

/* RESET_METADATA: rewrite_size 0 in the 16-byte form */
struct ltt_relay_reset_metadata {
	uint64_t stream_handle;
	uint64_t version;
	uint64_t rewrite_size;
	bool has_rewrite_size;
};

/* CLOSE_STREAM, DATA_PENDING */
struct ltt_relay_stream_seq {
	uint64_t stream_handle;
	uint64_t last_net_seq_num;
};

/* CREATE_TRACE_CHUNK {u64 chunk_id, u64 creation_time, u32 name_len, name} */
struct ltt_relay_create_chunk {
	uint64_t chunk_id;
	uint64_t creation_time;			/* seconds since the Epoch */
	char name[LTT_RELAY_NAME_MAX];		/* "": the relay names it */
};

/* CLOSE_TRACE_CHUNK {u64 chunk_id, u64 close_time, u8 is_set, u32 command} */
struct ltt_relay_close_chunk {
	uint64_t chunk_id;
	uint64_t close_time;
	bool has_command;
	uint32_t command;			/* enum ltt_relay_chunk_command */
};

/* CLOSE_TRACE_CHUNK's reply {u32 ret_code, u32 path_len, path} */
struct ltt_relay_close_chunk_reply {
	uint32_t ret_code;
	char path[LTT_RELAY_PATH_MAX];		/* "" with a refusal */
};

/*
 * ROTATE_STREAMS {u32 stream_count, optional u64 new_chunk_id, then
 * stream_count {u64 stream_handle, u64 rotate_at_seq_num}}: the optional
 * is {u8 is_set, u64} packed, or padded to 12 or 16 bytes (LTTng's
 * senders differ; the count tells which).  The decoder reads the header
 * and leaves the cursor on the positions.
 */
struct ltt_relay_rotate_streams {
	uint32_t stream_count;
	bool has_new_chunk;
	uint64_t new_chunk_id;
};

struct ltt_relay_get_configuration_reply {
	uint32_t ret_code;
	uint64_t flags;
};

/* TRACE_CHUNK_EXISTS's reply {u32 ret_code, u8 exists} */
struct ltt_relay_chunk_exists_reply {
	uint32_t ret_code;
	bool exists;
};

/*
 * Encoders append to @w (big-endian); decoders read a whole payload from
 * @r and return 0 or -EPROTO (a length that does not add up, a string
 * without its NUL or too long, bytes left over), leaving *ret
 * unspecified on error.  Headers are fixed-size: their decoders check
 * only the layout; the caller checks the values against its limits.
 */
void ltt_relay_put_ctrl_hdr(struct ltt_wbuf *w, const struct ltt_relay_ctrl_hdr *h);
int ltt_relay_get_ctrl_hdr(struct ltt_rbuf *r, struct ltt_relay_ctrl_hdr *ret);
void ltt_relay_put_data_hdr(struct ltt_wbuf *w, const struct ltt_relay_data_hdr *h);
int ltt_relay_get_data_hdr(struct ltt_rbuf *r, struct ltt_relay_data_hdr *ret);

void ltt_relay_put_version(struct ltt_wbuf *w, const struct ltt_relay_version *m);
int ltt_relay_get_version(struct ltt_rbuf *r, struct ltt_relay_version *ret);
/* CREATE_SESSION as protocol 2.@minor lays it out (the trace format from 2.15 on). */
void ltt_relay_put_create_session(struct ltt_wbuf *w, const struct ltt_relay_create_session *m,
				  uint32_t minor);
int ltt_relay_get_create_session(struct ltt_rbuf *r, struct ltt_relay_create_session *ret,
				 uint32_t minor);
void ltt_relay_put_create_session_reply(struct ltt_wbuf *w,
					const struct ltt_relay_create_session_reply *m);
int ltt_relay_get_create_session_reply(struct ltt_rbuf *r,
				       struct ltt_relay_create_session_reply *ret);
void ltt_relay_put_add_stream(struct ltt_wbuf *w, const struct ltt_relay_add_stream *m);
int ltt_relay_get_add_stream(struct ltt_rbuf *r, struct ltt_relay_add_stream *ret);
void ltt_relay_put_add_stream_reply(struct ltt_wbuf *w, const struct ltt_relay_add_stream_reply *m);
int ltt_relay_get_add_stream_reply(struct ltt_rbuf *r, struct ltt_relay_add_stream_reply *ret);
/* Reads only the 12-byte header; the metadata bytes follow in the payload. */
void ltt_relay_put_metadata_hdr(struct ltt_wbuf *w, const struct ltt_relay_metadata_hdr *m);
int ltt_relay_get_metadata_hdr(struct ltt_rbuf *r, struct ltt_relay_metadata_hdr *ret);
void ltt_relay_put_index(struct ltt_wbuf *w, const struct ltt_relay_index *m);
int ltt_relay_get_index(struct ltt_rbuf *r, struct ltt_relay_index *ret);
/* RESET_METADATA: put writes the 24-byte form with has_rewrite_size, else 16; get takes both. */
void ltt_relay_put_reset_metadata(struct ltt_wbuf *w, const struct ltt_relay_reset_metadata *m);
int ltt_relay_get_reset_metadata(struct ltt_rbuf *r, struct ltt_relay_reset_metadata *ret);
void ltt_relay_put_stream_seq(struct ltt_wbuf *w, const struct ltt_relay_stream_seq *m);
int ltt_relay_get_stream_seq(struct ltt_rbuf *r, struct ltt_relay_stream_seq *ret);
/* QUIESCENT_CONTROL, BEGIN/END_DATA_PENDING, and replies of one u32/u64. */
void ltt_relay_put_u64_msg(struct ltt_wbuf *w, uint64_t v);
int ltt_relay_get_u64_msg(struct ltt_rbuf *r, uint64_t *ret);
/* ARCHIVE_CHUNK's payload (2.12). */
void ltt_relay_put_archive_chunk(struct ltt_wbuf *w, const struct ltt_relay_archive_chunk *m);
int ltt_relay_get_archive_chunk(struct ltt_rbuf *r, struct ltt_relay_archive_chunk *ret);
/* RECONCILE_STREAM (ltt's own): the request, and its reply's 8-byte header. */
void ltt_relay_put_reconcile_stream(struct ltt_wbuf *w,
				    const struct ltt_relay_reconcile_stream *m);
int ltt_relay_get_reconcile_stream(struct ltt_rbuf *r, struct ltt_relay_reconcile_stream *ret);
void ltt_relay_put_reconcile_reply(struct ltt_wbuf *w, const struct ltt_relay_reconcile_reply *m);
int ltt_relay_get_reconcile_reply(struct ltt_rbuf *r, struct ltt_relay_reconcile_reply *ret);
void ltt_relay_put_ret(struct ltt_wbuf *w, uint32_t ret_code);
int ltt_relay_get_ret(struct ltt_rbuf *r, uint32_t *ret_code);
/* Trace chunks (2.11) and GET_CONFIGURATION (2.12). */
void ltt_relay_put_create_chunk(struct ltt_wbuf *w, const struct ltt_relay_create_chunk *m);
int ltt_relay_get_create_chunk(struct ltt_rbuf *r, struct ltt_relay_create_chunk *ret);
void ltt_relay_put_close_chunk(struct ltt_wbuf *w, const struct ltt_relay_close_chunk *m);
int ltt_relay_get_close_chunk(struct ltt_rbuf *r, struct ltt_relay_close_chunk *ret);
void ltt_relay_put_close_chunk_reply(struct ltt_wbuf *w,
				     const struct ltt_relay_close_chunk_reply *m);
int ltt_relay_get_close_chunk_reply(struct ltt_rbuf *r, struct ltt_relay_close_chunk_reply *ret);
/* ROTATE_STREAMS: get reads the header, checking the size the positions need. */
int ltt_relay_get_rotate_streams(struct ltt_rbuf *r, struct ltt_relay_rotate_streams *ret);
void ltt_relay_put_get_configuration_reply(struct ltt_wbuf *w,
					   const struct ltt_relay_get_configuration_reply *m);
int ltt_relay_get_get_configuration_reply(struct ltt_rbuf *r,
					  struct ltt_relay_get_configuration_reply *ret);
void ltt_relay_put_chunk_exists_reply(struct ltt_wbuf *w,
				      const struct ltt_relay_chunk_exists_reply *m);

/** ltt_relay_ret_str() - a sentence for a ret_code, for logs and users */
const char *ltt_relay_ret_str(uint32_t ret_code);

#endif /* LTT_COMMON_RELAY_PROTO_H */
