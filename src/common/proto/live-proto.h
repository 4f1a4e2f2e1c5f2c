/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * live-proto.h - the live viewer protocol between ltt-relayd's live port
 * (default 5344) and a viewer such as babeltrace2's src.ctf.lttng-live.
 *
 * The layouts are LTTng's live protocol (shared/ref/formats.md §3):
 * every integer big-endian, every structure packed, strings in fixed,
 * NUL-padded char arrays.  ltt-relayd speaks version {2, 15}: both sides
 * use min(minor); babeltrace2 2.0 asks for 2.4, 2.1 for 2.15.  No layout
 * changed from 2.4 to 2.14.  2.15 changes LIST_SESSIONS alone: each
 * session is {u64 id, u32 live_timer_us, u32 clients, u32 streams,
 * u32 hostname_len, u32 session_name_len, u32 trace_format (0 CTF 1.8,
 * 1 CTF 2)} then the two names, their lengths without a NUL, which is
 * not sent.  A viewer of an older minor is shown no CTF 2 session, and
 * ATTACH_SESSION of one gets LTT_LIVE_ATTACH_UNK: it would read its
 * metadata as TSDL.
 *
 * Every request is a 16-byte header {u64 data_size, u32 cmd,
 * u32 cmd_version (0)} then data_size bytes of payload; the payload of
 * each command has one fixed size (ltt_live_cmd_payload_size()).  Every
 * request gets one reply, whose layout depends on the command:
 *
 *   CONNECT {u64 viewer_session_id, u32 major, u32 minor, u32 type}
 *       -> the same 20 bytes with the relay's version and a new id.
 *       First, always; a different major closes the connection.
 *   LIST_SESSIONS {} -> {u32 count} + count x session (339 bytes before 2.15):
 *       {u64 id, u32 live_timer_us, u32 clients, u32 streams,
 *        char hostname[64], char session_name[255]}
 *   CREATE_SESSION {} -> {u32 status}     (the viewer session, before ATTACH)
 *   ATTACH_SESSION {u64 session_id, u64 offset (unused), u32 seek}
 *       -> {u32 status, u32 count} + count x stream (4371 bytes):
 *       {u64 id, u64 ctf_trace_id, u32 metadata_flag,
 *        char path_name[4096], char channel_name[255]}
 *   GET_NEW_STREAMS {u64 session_id} -> as ATTACH_SESSION's reply
 *   GET_METADATA {u64 stream_id} -> {u64 len, u32 status} + len bytes
 *   GET_NEXT_INDEX {u64 stream_id} -> index (64 bytes):
 *       {u64 offset, u64 packet_size, u64 content_size, u64 timestamp_begin,
 *        u64 timestamp_end, u64 events_discarded, u64 stream_id (the CTF
 *        stream class), u32 status, u32 flags}
 *   GET_PACKET {u64 stream_id, u64 offset, u32 len}
 *       -> {u32 status, u32 len, u32 flags} + len bytes
 *   DETACH_SESSION {u64 session_id} -> {u32 status}
 *
 * An unknown command gets a bare u32 LTT_LIVE_ERR_UNK.
 */
#ifndef LTT_COMMON_LIVE_PROTO_H
#define LTT_COMMON_LIVE_PROTO_H

#include <stdint.h>

#include "common/base/codec.h"

#define LTT_LIVE_MAJOR 2
#define LTT_LIVE_MINOR 15
/* The layouts of 2.4 to 2.14, which ltt's own viewers and test clients speak. */
#define LTT_LIVE_MINOR_2_4 4
/* The minor that brought LIST_SESSIONS' trace format (CTF 2 sessions). */
#define LTT_LIVE_MINOR_TRACE_FORMAT 15
/* LIST_SESSIONS 2.15's trace_format (LTTng's enum lttng_live_trace_format). */
#define LTT_LIVE_TRACE_FORMAT_CTF_1_8 0
#define LTT_LIVE_TRACE_FORMAT_CTF_2 1

#define LTT_LIVE_PATH_MAX 4096
#define LTT_LIVE_NAME_MAX 255
#define LTT_LIVE_HOST_NAME_MAX 64

#define LTT_LIVE_CMD_HDR_SIZE 16
#define LTT_LIVE_CONNECT_SIZE 20
#define LTT_LIVE_SESSION_SIZE (20 + LTT_LIVE_HOST_NAME_MAX + LTT_LIVE_NAME_MAX)	/* 339 */
#define LTT_LIVE_STREAM_SIZE (20 + LTT_LIVE_PATH_MAX + LTT_LIVE_NAME_MAX)		/* 4371 */
#define LTT_LIVE_INDEX_SIZE 64
#define LTT_LIVE_METADATA_REPLY_SIZE 12
#define LTT_LIVE_PACKET_REPLY_SIZE 12
#define LTT_LIVE_STATUS_COUNT_SIZE 8

/* LTTng's LTTNG_ERR_UNK: the reply to a command number nobody knows. */
#define LTT_LIVE_ERR_UNK 14

/* Reply flags of GET_NEXT_INDEX and GET_PACKET. */
#define LTT_LIVE_FLAG_NEW_METADATA (1u << 0)
#define LTT_LIVE_FLAG_NEW_STREAM (1u << 1)

/* CONNECT's type. */
#define LTT_LIVE_CLIENT_COMMAND 1
#define LTT_LIVE_CLIENT_NOTIFICATION 2

/* ATTACH_SESSION's seek. */
#define LTT_LIVE_SEEK_BEGINNING 1
#define LTT_LIVE_SEEK_LAST 2

/*
 * X(NAME, number, request payload size): the commands.  Numbers are
 * LTTng's and are never reused.
 */
#define LTT_LIVE_CMDS(X)				\
	X(CONNECT, 1, LTT_LIVE_CONNECT_SIZE)		\
	X(LIST_SESSIONS, 2, 0)				\
	X(ATTACH_SESSION, 3, 20)			\
	X(GET_NEXT_INDEX, 4, 8)				\
	X(GET_PACKET, 5, 20)				\
	X(GET_METADATA, 6, 8)				\
	X(GET_NEW_STREAMS, 7, 8)			\
	X(CREATE_SESSION, 8, 0)				\
	X(DETACH_SESSION, 9, 8)

enum ltt_live_cmd {
#define LTT_LIVE_CMD_ENUM(name, num, size) LTT_LIVE_##name = num,
	LTT_LIVE_CMDS(LTT_LIVE_CMD_ENUM)
#undef LTT_LIVE_CMD_ENUM
};

enum ltt_live_attach_status {
	LTT_LIVE_ATTACH_OK = 1,
	LTT_LIVE_ATTACH_ALREADY = 2,
	LTT_LIVE_ATTACH_UNK = 3,
	LTT_LIVE_ATTACH_NOT_LIVE = 4,
	LTT_LIVE_ATTACH_SEEK_ERR = 5,
	LTT_LIVE_ATTACH_NO_SESSION = 6,
};

enum ltt_live_index_status {
	LTT_LIVE_INDEX_OK = 1,
	LTT_LIVE_INDEX_RETRY = 2,
	LTT_LIVE_INDEX_HUP = 3,
	LTT_LIVE_INDEX_ERR = 4,
	LTT_LIVE_INDEX_INACTIVE = 5,
	LTT_LIVE_INDEX_EOF = 6,
};

enum ltt_live_packet_status {
	LTT_LIVE_PACKET_OK = 1,
	LTT_LIVE_PACKET_RETRY = 2,
	LTT_LIVE_PACKET_ERR = 3,
	LTT_LIVE_PACKET_EOF = 4,
};

enum ltt_live_metadata_status {
	LTT_LIVE_METADATA_OK = 1,
	LTT_LIVE_METADATA_NO_NEW = 2,
	LTT_LIVE_METADATA_ERR = 3,
};

enum ltt_live_new_streams_status {
	LTT_LIVE_NEW_STREAMS_OK = 1,
	LTT_LIVE_NEW_STREAMS_NO_NEW = 2,
	LTT_LIVE_NEW_STREAMS_ERR = 3,
	LTT_LIVE_NEW_STREAMS_HUP = 4,
};

enum ltt_live_create_session_status {
	LTT_LIVE_CREATE_SESSION_OK = 1,
	LTT_LIVE_CREATE_SESSION_ERR = 2,
};

enum ltt_live_detach_status {
	LTT_LIVE_DETACH_OK = 1,
	LTT_LIVE_DETACH_UNK = 2,
	LTT_LIVE_DETACH_ERR = 3,
};

struct ltt_live_cmd_hdr {
	uint64_t data_size;
	uint32_t cmd;
	uint32_t cmd_version;
};

struct ltt_live_connect {
	uint64_t viewer_session_id;	/* the client sends -1 */
	uint32_t major;
	uint32_t minor;
	uint32_t type;			/* LTT_LIVE_CLIENT_* */
};

/* One LIST_SESSIONS entry. */
struct ltt_live_session {
	uint64_t id;
	uint32_t live_timer_us;
	uint32_t clients;
	uint32_t streams;
	char hostname[LTT_LIVE_HOST_NAME_MAX];
	char session_name[LTT_LIVE_NAME_MAX];
	uint32_t trace_format;		/* 2.15: LTT_LIVE_TRACE_FORMAT_* */
};

/* One stream of ATTACH_SESSION's and GET_NEW_STREAMS' replies. */
struct ltt_live_stream {
	uint64_t id;
	uint64_t ctf_trace_id;
	uint32_t metadata_flag;
	char path_name[LTT_LIVE_PATH_MAX];
	char channel_name[LTT_LIVE_NAME_MAX];
};

struct ltt_live_attach_req {
	uint64_t session_id;
	uint64_t offset;
	uint32_t seek;			/* LTT_LIVE_SEEK_* */
};

/* ATTACH_SESSION's and GET_NEW_STREAMS' reply head; the streams follow. */
struct ltt_live_status_count {
	uint32_t status;
	uint32_t count;
};

struct ltt_live_metadata_reply {
	uint64_t len;
	uint32_t status;		/* enum ltt_live_metadata_status */
};

struct ltt_live_index {
	uint64_t offset;		/* bytes in the stream file */
	uint64_t packet_size;		/* bits */
	uint64_t content_size;		/* bits */
	uint64_t timestamp_begin;
	uint64_t timestamp_end;
	uint64_t events_discarded;
	uint64_t stream_id;		/* the CTF stream class id */
	uint32_t status;		/* enum ltt_live_index_status */
	uint32_t flags;			/* LTT_LIVE_FLAG_* */
};

struct ltt_live_packet_req {
	uint64_t stream_id;
	uint64_t offset;
	uint32_t len;
};

struct ltt_live_packet_reply {
	uint32_t status;		/* enum ltt_live_packet_status */
	uint32_t len;
	uint32_t flags;			/* LTT_LIVE_FLAG_* */
};

/*
 * Encoders append one fixed-size structure to @w, big-endian; a string
 * too long for its array sets @w's error (-EINVAL).  Decoders read one
 * structure at @r's cursor and return 0, or -EPROTO when @r is short or
 * an array lacks its NUL (*ret is then unspecified); the caller checks
 * ltt_rbuf_end() when the structure must be the whole payload.
 */
void ltt_live_put_cmd_hdr(struct ltt_wbuf *w, const struct ltt_live_cmd_hdr *m);
int ltt_live_get_cmd_hdr(struct ltt_rbuf *r, struct ltt_live_cmd_hdr *ret);
void ltt_live_put_connect(struct ltt_wbuf *w, const struct ltt_live_connect *m);
int ltt_live_get_connect(struct ltt_rbuf *r, struct ltt_live_connect *ret);
void ltt_live_put_session(struct ltt_wbuf *w, const struct ltt_live_session *m);
int ltt_live_get_session(struct ltt_rbuf *r, struct ltt_live_session *ret);
/* One LIST_SESSIONS entry as protocol 2.@minor lays it out (2.15's, or the 2.4 one above). */
void ltt_live_put_session_v(struct ltt_wbuf *w, const struct ltt_live_session *m, uint32_t minor);
int ltt_live_get_session_v(struct ltt_rbuf *r, struct ltt_live_session *ret, uint32_t minor);
void ltt_live_put_stream(struct ltt_wbuf *w, const struct ltt_live_stream *m);
int ltt_live_get_stream(struct ltt_rbuf *r, struct ltt_live_stream *ret);
void ltt_live_put_attach_req(struct ltt_wbuf *w, const struct ltt_live_attach_req *m);
int ltt_live_get_attach_req(struct ltt_rbuf *r, struct ltt_live_attach_req *ret);
void ltt_live_put_status_count(struct ltt_wbuf *w, const struct ltt_live_status_count *m);
int ltt_live_get_status_count(struct ltt_rbuf *r, struct ltt_live_status_count *ret);
void ltt_live_put_metadata_reply(struct ltt_wbuf *w, const struct ltt_live_metadata_reply *m);
int ltt_live_get_metadata_reply(struct ltt_rbuf *r, struct ltt_live_metadata_reply *ret);
void ltt_live_put_index(struct ltt_wbuf *w, const struct ltt_live_index *m);
int ltt_live_get_index(struct ltt_rbuf *r, struct ltt_live_index *ret);
void ltt_live_put_packet_req(struct ltt_wbuf *w, const struct ltt_live_packet_req *m);
int ltt_live_get_packet_req(struct ltt_rbuf *r, struct ltt_live_packet_req *ret);
void ltt_live_put_packet_reply(struct ltt_wbuf *w, const struct ltt_live_packet_reply *m);
int ltt_live_get_packet_reply(struct ltt_rbuf *r, struct ltt_live_packet_reply *ret);
/*
 * One big-endian u64 (the payload of GET_METADATA, GET_NEXT_INDEX,
 * GET_NEW_STREAMS and DETACH_SESSION) or u32 (LIST_SESSIONS' count and the
 * status replies of CREATE_SESSION, DETACH_SESSION and unknown commands).
 */
void ltt_live_put_u64(struct ltt_wbuf *w, uint64_t v);
int ltt_live_get_u64(struct ltt_rbuf *r, uint64_t *ret);
void ltt_live_put_u32(struct ltt_wbuf *w, uint32_t v);
int ltt_live_get_u32(struct ltt_rbuf *r, uint32_t *ret);

/**
 * ltt_live_put_request() - a whole request: the header then @payload
 * @payload: the encoded payload (may be NULL when @len is 0), copied
 */
void ltt_live_put_request(struct ltt_wbuf *w, uint32_t cmd, const void *payload, size_t len);

/**
 * ltt_live_cmd_payload_size() - the request payload size of @cmd
 *
 * Returns the size in bytes, or -1 for a command number nobody knows.
 */
int ltt_live_cmd_payload_size(uint32_t cmd);

/** ltt_live_cmd_name() - "GET_PACKET"..., or "UNKNOWN" */
const char *ltt_live_cmd_name(uint32_t cmd);

#endif /* LTT_COMMON_LIVE_PROTO_H */
