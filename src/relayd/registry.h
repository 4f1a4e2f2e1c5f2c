/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * registry.h - the relay's objects: the model, its sessions, their traces
 * and streams, their lookup by id and handle, their references and
 * freeing, and the names they may take.  Below session.c and stream.c,
 * which fill them for the control and data servers, and model.c, the
 * read-only window the live server has on them.
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
 * a leaf lock (no other lock is taken under it but the journal's, a leaf
 * too, when a session freed leaves the journal) and never held across
 * network I/O.  Stream data is written outside the lock: only the server
 * thread writes files and changes the writing state (stream.h).
 */
#ifndef LTT_RELAYD_REGISTRY_H
#define LTT_RELAYD_REGISTRY_H

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/relay-proto.h"
#include "common/trace/ctf.h"
#include "common/trace/tracefile.h"
#include "relayd/journal.h"

/* One packet of a stream, with both its viewer and its file coordinates. */
struct ltt_relay_entry {
	struct ltt_ctf_index_entry entry;	/* as written in the .idx file;
						 * entry.offset is the file offset */
	uint64_t viewer_offset;			/* see "Offsets" in model.h */
	uint64_t file_no;			/* N of the tracefile (0 unrotated) */
};

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
	bool disallow_clear;			/* --disallow-clear: no chunk deleted */
	bool group_by_session;			/* --group-output-by-session: sessions
						 * in SESSION/HOST-DATE, not
						 * HOST/SESSION-DATE */
	struct ltt_relay_journal *journal;	/* the session directories written, for
						 * the next relay after a death (NULL:
						 * none kept) */
	unsigned int session_count;		/* sessions in the model */
	unsigned int stream_count;		/* streams in the model */
	/*
	 * What live viewers may be waiting for changed (an index, a beacon,
	 * metadata, a stream added, sent or closed): called on the loop's
	 * thread, lock not held; the live server's (live.c), or NULL.
	 */
	void (*changed_fn)(void *arg);
	void *changed_arg;
};

/* Tell the live server that what a held request waits for may be there. */
static inline void ltt_relay_model_changed(struct ltt_relay_model *m)
{
	if (m->changed_fn)
		m->changed_fn(m->changed_arg);
}

struct ltt_relay_trace {
	struct ltt_relay_trace *next;
	uint64_t id;
	char *pathname;				/* relative to the session's dir */
	int dir_fd;				/* its directory, readable, held (a
						 * shared flock(): a repair leaves it) */
	int index_fd;				/* index/, O_PATH */
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
	uint32_t trace_format;			/* 1 CTF 1.8, 2 CTF 2 (CREATE_SESSION 2.15) */
	char output_path[PATH_MAX];		/* absolute session directory */
	bool journaled;				/* in the model's journal */
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

/* A packet or an index waiting for its other half. */
struct ltt_relay_half {
	uint64_t seq;
	struct ltt_relay_entry idx;		/* what is known so far */
};

struct ltt_relay_fifo {
	struct ltt_relay_half *items;
	size_t head, len, cap;
};

/* Files of a cleared stream kept open for its viewers (its last two). */
#define LTT_RELAY_KEPT_FILES 2

struct ltt_relay_stream {
	struct ltt_relay_session *session;
	struct ltt_relay_trace *trace;
	struct ltt_relay_stream *next;		/* the session's list */
	struct ltt_relay_stream *hnext;		/* the model's hash */
	uint64_t handle;
	char channel_name[LTT_RELAY_NAME_MAX];
	bool metadata;
	bool sent, closed;
	bool cleared;				/* a clear deleted its files: viewers skip the rest */
	int kept_fds[LTT_RELAY_KEPT_FILES];	/* then: its last files, open, so that
						 * what viewers were handed stays
						 * readable (stream.h) */
	unsigned int kept_n;			/* kept_fds[0..kept_n) are open */
	uint64_t kept_first;			/* the file number of kept_fds[0] */
	uint64_t close_seq;			/* last net_seq_num (UINT64_MAX: none) */
	uint64_t announced_seq;			/* DATA_PENDING's, UINT64_MAX: none */

	/* Files: server thread only, except that the lock covers the sizes. */
	struct ltt_tracefile_files files;	/* current tracefile, its index */
	uint64_t meta_size;			/* metadata streams */
	uint64_t meta_version;			/* RESET_METADATA's, 0 before any */
	uint64_t meta_rewrite;			/* the bytes it announced written again */
	uint64_t meta_old_size;			/* meta_size before the last reset */

	/* Packets. */
	bool in_flight;				/* a packet being received */
	bool any_begun, any_written;
	uint64_t last_begun_seq, last_written_seq;
	uint64_t viewer_size;			/* packets' bytes across files */
	struct ltt_relay_half cur;		/* the packet in flight */
	uint64_t cur_done;			/* its bytes written */
	bool any_index;
	uint64_t last_index_seq;
	struct ltt_relay_fifo packets;		/* written, waiting for their index */
	struct ltt_relay_fifo indexes;		/* waiting for their packet */

	/*
	 * What viewers read (under the lock): entries[0..entry_count -
	 * entry_base) are the entries numbered entry_base..entry_count - 1;
	 * older ones were dropped (rotated away, or past the window).
	 */
	struct ltt_relay_entry *entries;
	uint64_t entry_base, entry_count;
	size_t entry_cap;
	bool window_warned;
	bool has_beacon;
	uint64_t beacon_ts, ctf_stream_id;
};

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

/* Called with the model's lock held. */
struct ltt_relay_session *ltt_relay_model_find_session_locked(struct ltt_relay_model *m,
							     uint64_t id);
struct ltt_relay_stream *ltt_relay_model_find_stream_locked(struct ltt_relay_model *m,
							   uint64_t handle);
void ltt_relay_model_insert_stream_locked(struct ltt_relay_model *m, struct ltt_relay_stream *st);
/* Frees @s if it is closed, unreferenced and unviewed; true if it did. */
bool ltt_relay_session_reap_locked(struct ltt_relay_session *s);

/**
 * ltt_relay_session_put() - drop a reference; a closed session with no
 * references and no viewers is freed.  Accepts NULL.  Any thread, without
 * the lock.
 */
void ltt_relay_session_put(struct ltt_relay_session *s);
/* Close the files and free.  Lock held (or the object unreachable). */
void ltt_relay_stream_free(struct ltt_relay_stream *st);

#endif /* LTT_RELAYD_REGISTRY_H */
