/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - the relay's sessions and streams as the live viewer server
 * sees them: a thread-safe, read-only window on what the control and data
 * servers record (session.h and stream.h are the writing side, registry.h
 * the objects).
 *
 * Objects are named by number, never by pointer: a session by its relay
 * session id, a stream by its handle (the number the consumer and the
 * viewers use).  Every function below takes the model's lock for its own
 * duration and copies out what it returns, so the live server may run in
 * any thread, hold nothing between requests, and never sees an object
 * freed under it.  None of these functions blocks on the network; reads
 * of stream files are done outside the lock.
 *
 * Lifetimes.  A session lives while its consumer's control connection is
 * open.  When that connection closes (the session was destroyed, or the
 * consumer died), the session is "closed": its streams are closed too and
 * no new data arrives.  A closed session stays in the model while viewers
 * hold it (ltt_relay_model_viewer_get()), so they can drain what was
 * written, and is freed with its last viewer reference.  A closed session
 * nobody views is freed at once.
 *
 * Offsets.  Each stream's packets have a "viewer offset": the bytes of the
 * stream's packets before this one, across its tracefiles.  Without
 * tracefile rotation it equals the offset in the stream file.  Give
 * viewers the viewer offset (index.offset) and serve GET_PACKET with
 * ltt_relay_model_read_packet(), which maps it back to the file.
 *
 * Returns: 0 or a negative errno, as documented per function; -ENOENT
 * always means "no such session or stream (any more)".
 */
#ifndef LTT_RELAYD_MODEL_H
#define LTT_RELAYD_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"
#include "relayd/registry.h"

struct ltt_relay_model;

/* A session as LIST_SESSIONS and ATTACH_SESSION need it. */
struct ltt_relay_session_info {
	uint64_t id;				/* relay session id */
	char hostname[LTT_RELAY_HOST_NAME_MAX];
	char session_name[LTT_RELAY_NAME_MAX];
	uint32_t live_timer_us;			/* 0: not live */
	uint32_t trace_format;			/* 1 CTF 1.8, 2 CTF 2 */
	uint32_t stream_count;			/* streams viewers may see (sent) */
	uint32_t viewer_count;			/* viewer references held */
	bool closed;				/* the consumer is gone */
	uint64_t creation_time;			/* seconds since the Epoch */
	uint64_t generation;			/* grows when a stream is added or
						 * becomes visible (sent) */
};

/* A stream, for ATTACH_SESSION, GET_NEW_STREAMS and GET_NEXT_INDEX. */
struct ltt_relay_stream_info {
	uint64_t handle;			/* the relay stream id */
	uint64_t session_id;
	uint64_t trace_id;			/* one per (session, pathname): the
						 * viewer protocol's ctf_trace_id */
	uint64_t metadata_handle;		/* the trace's metadata stream, or 0
						 * while it has none */
	bool metadata;				/* this is a metadata stream */
	bool sent;				/* announced by STREAMS_SENT */
	bool closed;				/* CLOSE_STREAM, or the session closed */
	bool hup;				/* closed and every packet it announced
						 * is written: nothing more will come */
	char channel_name[LTT_RELAY_NAME_MAX];	/* "CHANNEL_CPU" or "metadata" */
	char pathname[LTT_RELAY_PATH_MAX];	/* trace dir relative to the session
						 * ("ust/uid/0/64-bit") */
	uint64_t index_count;			/* complete index entries so far */
	uint64_t metadata_size;			/* metadata streams: bytes received */
	uint64_t metadata_version;		/* grows with each RESET_METADATA */
	uint64_t metadata_rewrite;		/* then: the bytes written again */
	uint64_t metadata_old_size;		/* then: the bytes before the reset */
	bool has_beacon;			/* a beacon arrived after the last index */
	uint64_t beacon_ts;			/* its timestamp_end */
	uint64_t ctf_stream_id;			/* stream class id seen in the last
						 * index or beacon (0 before) */
};

/**
 * ltt_relay_model_create() - an empty model writing under @output_dir
 * @output_dir: absolute; created (with parents) if missing
 * @ret_model: to free with ltt_relay_model_destroy()
 *
 * The limits are the defaults (LTT_RELAY_DEFAULT_*), sessions are grouped
 * by host; the caller may change @ret_model->limits and
 * ->group_by_session before serving.
 *
 * Returns 0, -EINVAL (relative or too long), -ENOMEM, or mkdir's error.
 */
int ltt_relay_model_create(const char *output_dir, struct ltt_relay_model **ret_model);

/**
 * ltt_relay_model_destroy() - free every session, closing its files;
 * accepts NULL.  Once no server runs.
 */
void ltt_relay_model_destroy(struct ltt_relay_model *m);

/**
 * ltt_relay_model_open_sessions() - how many sessions are open (their
 * control connection is there)
 *
 * Any thread, without the lock.
 */
unsigned int ltt_relay_model_open_sessions(struct ltt_relay_model *m);

/**
 * ltt_relay_model_list_sessions() - every session, closed ones included
 * @ret_infos: a malloc'ed array the caller frees (NULL when empty)
 * @ret_count: its length
 *
 * Any thread.  Returns 0 or -ENOMEM.
 */
int ltt_relay_model_list_sessions(struct ltt_relay_model *m, struct ltt_relay_session_info **ret_infos,
				  size_t *ret_count);

/**
 * ltt_relay_model_session_info() - one session by id
 *
 * Any thread.  Returns 0 or -ENOENT.
 */
int ltt_relay_model_session_info(struct ltt_relay_model *m, uint64_t session_id,
				 struct ltt_relay_session_info *ret_info);

/**
 * ltt_relay_model_list_streams() - a session's streams, in handle order
 * @after: only streams whose handle is greater (0: all), so a caller that
 *         remembers the largest handle it saw gets only new ones
 * @sent_only: only the streams STREAMS_SENT made visible
 * @ret_infos: a malloc'ed array the caller frees (NULL when empty)
 *
 * Any thread.  Returns 0, -ENOENT, -ENOMEM.
 */
int ltt_relay_model_list_streams(struct ltt_relay_model *m, uint64_t session_id, uint64_t after,
				 bool sent_only, struct ltt_relay_stream_info **ret_infos,
				 size_t *ret_count);

/**
 * ltt_relay_model_stream_info() - one stream by handle
 *
 * Any thread.  Returns 0 or -ENOENT.
 */
int ltt_relay_model_stream_info(struct ltt_relay_model *m, uint64_t handle,
				struct ltt_relay_stream_info *ret_info);

/**
 * ltt_relay_model_get_index() - the @pos-th complete index entry (0 first)
 * of data stream @handle
 *
 * Any thread.  Returns 0; -EAGAIN when entry @pos does not exist yet and
 * may still come; -EPIPE when the stream hung up and has fewer entries;
 * -ESTALE when entry @pos is no longer kept (ltt_relay_model_seek_first()
 * gives the oldest kept); -ENOENT; -EINVAL for a metadata stream.
 */
int ltt_relay_model_get_index(struct ltt_relay_model *m, uint64_t handle, uint64_t pos,
			      struct ltt_relay_entry *ret_entry);

/**
 * ltt_relay_model_seek_first() - the position of the oldest index entry
 * of @handle the relay still keeps (stream.h: entries of deleted
 * tracefiles, and past LTT_RELAY_INDEX_WINDOW the oldest, are dropped)
 *
 * Any thread.  Returns 0, -ENOENT, -EINVAL for a metadata stream.
 */
int ltt_relay_model_seek_first(struct ltt_relay_model *m, uint64_t handle, uint64_t *ret_pos);

/**
 * ltt_relay_model_seek_last() - the position of the newest complete index
 * entry of @handle (0 when it has none), for SEEK_LAST
 *
 * Any thread.  Returns 0, -ENOENT, -EINVAL for a metadata stream.
 */
int ltt_relay_model_seek_last(struct ltt_relay_model *m, uint64_t handle, uint64_t *ret_pos);

/**
 * ltt_relay_model_read_packet() - bytes of a data stream's packets
 * @offset: a viewer offset, anywhere inside a complete packet
 * @buf: @len bytes
 * @ret_len: bytes read: @len, or less when the read reaches the end of the
 *           packet that holds @offset (reads never span two packets)
 *
 * Any thread; the file read happens outside the model's lock.  Returns 0;
 * -ENOENT; -ERANGE when @offset is in no complete packet; -ESTALE when
 * the tracefile holding it was deleted by tracefile count rotation or its
 * index entry is no longer kept in memory; or
 * the read's negative errno.
 */
int ltt_relay_model_read_packet(struct ltt_relay_model *m, uint64_t handle, uint64_t offset,
				void *buf, size_t len, size_t *ret_len);

/**
 * ltt_relay_model_read_metadata() - bytes of a metadata stream
 * @offset: where to start (what this viewer was already sent)
 * @ret_len: bytes read, 0 at the end of what was received
 *
 * Metadata arrives in whole SEND_METADATA payloads; only bytes of
 * complete payloads are returned.  Any thread; the file read happens
 * outside the lock.  Returns 0, -ENOENT, -EINVAL for a data stream, or
 * the read's negative errno.
 */
int ltt_relay_model_read_metadata(struct ltt_relay_model *m, uint64_t handle, uint64_t offset,
				  void *buf, size_t len, size_t *ret_len);

/**
 * ltt_relay_model_viewer_get() - keep session @session_id in the model
 * (closed or not) until the matching ltt_relay_model_viewer_put(); counts
 * in its viewer_count
 *
 * Any thread.  Returns 0 or -ENOENT.
 */
int ltt_relay_model_viewer_get(struct ltt_relay_model *m, uint64_t session_id);

/**
 * ltt_relay_model_viewer_put() - drop a reference ltt_relay_model_viewer_get()
 * took; a closed session goes with its last one
 *
 * Any thread.
 */
void ltt_relay_model_viewer_put(struct ltt_relay_model *m, uint64_t session_id);

#endif /* LTT_RELAYD_MODEL_H */
