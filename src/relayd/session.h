/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * session.h - the relay's model, writing side: relay sessions, their
 * traces and streams, as the control and data servers fill them.
 *
 * Object tree (model.h has the read-only window the live server uses):
 *
 *   ltt_relay_model          output directory, lock, id counters,
 *    ├─ sessions (list)      hash of streams by handle
 *    └─ ltt_relay_session    one per CREATE_SESSION (one per control
 *        │                   connection): names, output dir, refs
 *        ├─ ltt_relay_trace  one per pathname: its directory, index/,
 *        │                   the metadata stream's handle
 *        └─ ltt_relay_stream one per ADD_STREAM: files (stream.h)
 *
 * Ownership.  The model owns the sessions; a session owns its traces and
 * streams and is freed, with them, once it is closed and its last
 * reference is gone.  References: the control connection holds one until
 * it closes, a data connection one per packet it is writing, each viewer
 * one (model.h).
 *
 * Threads and locking.  The control and data servers run in one thread
 * (the server thread); the live server may run in another.  The model's
 * mutex protects the object tree and every field model.h reports; it is
 * a leaf lock (no other lock is taken under it) and never held across
 * network I/O.  Stream data is written outside the lock: only the server
 * thread writes files and changes the writing state (stream.h).
 */
#ifndef LTT_RELAYD_SESSION_H
#define LTT_RELAYD_SESSION_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "common/relay-proto.h"
#include "relayd/model.h"

#define LTT_RELAY_STREAM_BUCKETS 256

/* Defaults of struct ltt_relay_limits. */
#define LTT_RELAY_DEFAULT_MAX_SESSIONS 4096
#define LTT_RELAY_DEFAULT_MAX_STREAMS 65536
#define LTT_RELAY_DEFAULT_MAX_SESSION_STREAMS 4096

/*
 * What the relay accepts, so that no peer can make it use memory or file
 * descriptors without bound.  Sessions and streams count until freed
 * (a closed session a viewer still reads counts).  A stream holds up to
 * two files open (its tracefile and index), and a trace two directories.
 */
struct ltt_relay_limits {
	unsigned int max_sessions;		/* in all (one per control connection) */
	unsigned int max_streams;		/* in all */
	unsigned int max_session_streams;	/* per session */
};

struct ltt_relay_stream;

struct ltt_relay_model {
	pthread_mutex_t lock;
	char output_dir[PATH_MAX];		/* -o, absolute */
	uint64_t next_session_id;		/* ids and handles start at 1 */
	uint64_t next_stream_handle;
	uint64_t next_trace_id;
	struct ltt_relay_session *sessions;	/* newest first */
	struct ltt_relay_stream *by_handle[LTT_RELAY_STREAM_BUCKETS];
	size_t index_window;			/* index entries kept in memory per
						 * stream (LTT_RELAY_INDEX_WINDOW) */
	struct ltt_relay_limits limits;
	unsigned int session_count;		/* sessions in the model */
	unsigned int stream_count;		/* streams in the model */
};

struct ltt_relay_trace {
	struct ltt_relay_trace *next;
	uint64_t id;
	char *pathname;				/* relative to the session's dir */
	int dir_fd, index_fd;			/* O_PATH directories */
	uint64_t metadata_handle;		/* 0: none yet */
};

struct ltt_relay_session {
	struct ltt_relay_model *model;
	struct ltt_relay_session *next;
	uint64_t id;
	char hostname[LTT_RELAY_HOST_NAME_MAX];
	char session_name[LTT_RELAY_NAME_MAX];
	uint32_t live_timer_us;
	uint64_t creation_time;
	char output_path[PATH_MAX];		/* absolute session directory */
	unsigned int refs;			/* control, data packets */
	unsigned int viewers;
	bool closed;
	uint64_t generation;
	struct ltt_relay_trace *traces;
	struct ltt_relay_stream *streams;	/* in handle order */
	struct ltt_relay_stream **streams_tail;
	/* called (server thread) when a packet of the session is written */
	void (*written_fn)(void *arg);
	void *written_arg;
};

/**
 * ltt_relay_model_create() - an empty model writing under @output_dir
 * @output_dir: absolute; created (with parents) if missing
 * @ret_model: to free with ltt_relay_model_destroy()
 *
 * The limits are the defaults (LTT_RELAY_DEFAULT_*); the caller may change
 * @ret_model->limits before serving.
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
 * ltt_relay_session_create() - a new session from a CREATE_SESSION request
 * @req: validated by the codec (NUL-terminated strings); borrowed
 * @ret_session: holds one reference, the caller's (the control connection)
 *
 * Creates OUTDIR/HOSTNAME/(BASE_PATH or SESSION-YYYYmmdd-HHMMSS, local
 * time of creation_time).  An existing directory is used as it is (each
 * domain of one tracing session is a relay session of its own, all in one
 * directory); traces in it are never overwritten (ltt_relay_stream_add()).
 * Server thread.  Returns 0, -EINVAL for a name that is not a plain path
 * component or a base path that is not relative and ".."-free,
 * -EMFILE when the model holds limits.max_sessions sessions already,
 * -ENAMETOOLONG, -ENOMEM, or mkdir's error.
 */
int ltt_relay_session_create(struct ltt_relay_model *m, const struct ltt_relay_create_session *req,
			     struct ltt_relay_session **ret_session);

/**
 * ltt_relay_session_close() - the control connection is gone: close every
 * stream of @s (no more packets than those begun) and mark it closed
 *
 * Server thread.  Does not drop the caller's reference.
 */
void ltt_relay_session_close(struct ltt_relay_session *s);

/**
 * ltt_relay_session_put() - drop a reference; a closed session with no
 * references and no viewers is freed.  Accepts NULL.  Any thread, without
 * the lock.
 */
void ltt_relay_session_put(struct ltt_relay_session *s);

/**
 * ltt_relay_session_streams_sent() - STREAMS_SENT: the streams added so
 * far become visible to viewers
 *
 * Server thread.
 */
void ltt_relay_session_streams_sent(struct ltt_relay_session *s);

/**
 * ltt_relay_session_pending() - END_DATA_PENDING: does any stream of @s
 * still wait for packets (a packet being received, or packets up to the
 * last number CLOSE_STREAM or DATA_PENDING announced)?
 *
 * Server thread.
 */
bool ltt_relay_session_pending(struct ltt_relay_session *s);

/**
 * ltt_relay_session_archive() - ARCHIVE_CHUNK: move @from, a directory of
 * @s's directory holding closed traces (a trace chunk), to @to (its
 * missing parents made), as LTTng's relay archives a closed chunk
 * @from, @to: relative, valid (ltt_relay_relpath_valid()), @to not below @from;
 *             @to "": a clear, @from and everything below it is deleted
 *
 * Every stream of @s whose trace is @from or below it must be closed and
 * have every packet it announced written.  A missing @from (no trace
 * wrote in that chunk) archives as an empty @to, and clears as nothing;
 * cleared streams are no viewer's any more (their next index is a hang
 * up, attaches skip them).  Server thread.  Returns 0,
 * -EINVAL, -ENAMETOOLONG, -EBUSY (a stream is open or pending), -EEXIST
 * (@to exists), or the file system's -errno.
 */
int ltt_relay_session_archive(struct ltt_relay_session *s, const char *from, const char *to);

/**
 * ltt_relay_relpath_valid() - is @path relative, without empty, "." or
 * ".." components, components longer than NAME_MAX, '/' at either end or
 * control characters?  "" is valid
 * when @empty_ok.  Any thread.
 */
bool ltt_relay_relpath_valid(const char *path, bool empty_ok);

/**
 * ltt_relay_name_valid() - is @name one plain path component (not empty,
 * ".", "..", longer than NAME_MAX, without '/' or control characters)?  Any thread.
 */
bool ltt_relay_name_valid(const char *name);

/**
 * ltt_relay_model_open_sessions() - how many sessions are open (their
 * control connection is there)
 *
 * Any thread, without the lock.
 */
unsigned int ltt_relay_model_open_sessions(struct ltt_relay_model *m);

/* Called with the model's lock held (session.c, stream.c, model.c). */
struct ltt_relay_session *ltt_relay_model_find_session_locked(struct ltt_relay_model *m,
							     uint64_t id);
struct ltt_relay_stream *ltt_relay_model_find_stream_locked(struct ltt_relay_model *m,
							   uint64_t handle);
void ltt_relay_model_insert_stream_locked(struct ltt_relay_model *m, struct ltt_relay_stream *st);
/* Frees @s if it is closed, unreferenced and unviewed; true if it did. */
bool ltt_relay_session_reap_locked(struct ltt_relay_session *s);

#endif /* LTT_RELAYD_SESSION_H */
