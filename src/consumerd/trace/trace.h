/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * trace.h - one CTF trace: on disk (its directory, its index directory
 * and its metadata file) or on a relay (its path in the relay session and
 * its metadata stream).  Either way the trace's output takes its metadata
 * (ltt_output_metadata()).  Created by ADD_TRACE, destroyed by
 * DESTROY_TRACE or at exit, on the command thread only (no lock: nothing
 * else sees it).  Channels borrow the trace's identity (uuid, owner) and
 * dup its directory descriptors (or share its relay), so a trace may go
 * once nr_channels is 0.
 */
#ifndef LTT_CONSUMERD_TRACE_H
#define LTT_CONSUMERD_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "consumerd/sink/fs.h"

#define LTT_TRACE_UUID_LEN 16
#define LTT_TRACE_METADATA_NAME "metadata"
#define LTT_TRACE_INDEX_DIR_NAME "index"

struct ltt_channel;
struct ltt_relay;
struct ltt_output;

struct ltt_trace {
	uint64_t key;
	uint8_t uuid[LTT_TRACE_UUID_LEN];
	struct ltt_owner owner;
	int dir_fd;		/* the trace directory; -1 for a relayed trace */
	int index_fd;		/* its index/ directory; -1 for a relayed trace */
	struct ltt_relay *relay;	/* borrowed (counted in its traces), or NULL */
	struct ltt_output *output;	/* owned: where the metadata goes */
	uint64_t meta_text;	/* bytes of metadata text received */
	/*
	 * the text is CTF 2's (its first byte LTT_CTF2_RS), written as it
	 * is; else TSDL, framed as metadata packets (common/trace/ctf.h)
	 */
	bool ctf2;
	/*
	 * every metadata packet so far (local and snapshot traces): each new
	 * chunk, and each snapshot, gets it whole
	 */
	uint8_t *meta_all;
	size_t meta_all_len;
	/* metadata packets a full file system refused, written at the next try */
	uint8_t *meta_pending;
	size_t meta_pending_len;
	int meta_error;		/* 0, or why they are pending (-errno) */
	int64_t meta_error_since;
	int64_t removed_since;	/* when its directory was found removed, or 0 */
	unsigned int nr_channels;	/* channels that use this trace */
	bool resume;		/* a dead consumer's: its channels continue their files */
	/* a snapshot session's (ADD_SNAPSHOT_TRACE): no files until a snapshot */
	bool snapshot;
	struct ltt_trace *next;	/* in the command thread's registry */
	char *path;
};

/**
 * ltt_trace_create() - create (or reuse) the trace directory @dir and its
 * index/ directory, and start an empty metadata file
 * @dir: absolute path (borrowed, copied)
 * @uuid: LTT_TRACE_UUID_LEN bytes (borrowed, copied)
 * @owner: who gets the new directories and files (borrowed, copied)
 * @resume: the trace of a consumer that died: its metadata file is
 *          reopened and emptied, its channels continue their files
 * @ret_trace: to release with ltt_trace_destroy()
 *
 * Command thread.  Returns 0, -ENOMEM, or an error of ltt_fs_mkdir_path(),
 * ltt_fs_create() or ltt_fs_reopen().
 */
int ltt_trace_create(uint64_t key, const char *dir, const uint8_t *uuid,
		     const struct ltt_owner *owner, bool resume, struct ltt_trace **ret_trace);

/**
 * ltt_trace_relay_path_ok() - is @p a trace's path in a relay session:
 * relative, without "", "." or ".." components nor a trailing slash,
 * shorter than LTT_RELAY_PATH_MAX?  Any thread.
 */
bool ltt_trace_relay_path_ok(const char *p);

/**
 * ltt_trace_create_relayed() - a trace sent to @relay: its metadata
 * stream is added to the relay session at once
 * @pathname: the trace's directory relative to the relay session, without
 *            "." or ".." components (borrowed, copied)
 * @relay: borrowed; the caller counts the trace in the relay's traces
 *
 * Command thread.  Returns 0, -EINVAL for a bad path, -ENOMEM, or the
 * relay's error (ltt_sink_relay_output_create()).
 */
int ltt_trace_create_relayed(uint64_t key, const char *pathname, const uint8_t *uuid,
			     const struct ltt_owner *owner, struct ltt_relay *relay,
			     struct ltt_trace **ret_trace);

/**
 * ltt_trace_create_snapshot() - a trace of a snapshot session: no
 * directory, no output; its metadata packets are kept in memory
 * (ltt_trace_append_metadata()) for each snapshot (snapshot.h)
 * @uuid: LTT_TRACE_UUID_LEN bytes (borrowed, copied)
 * @owner: who gets each snapshot's files (borrowed, copied)
 * @ret_trace: to release with ltt_trace_destroy()
 *
 * Command thread.  Returns 0, -EINVAL or -ENOMEM.
 */
int ltt_trace_create_snapshot(uint64_t key, const uint8_t *uuid, const struct ltt_owner *owner,
			      struct ltt_trace **ret_trace);

/**
 * ltt_trace_remove_if_empty() - remove @t's directory when nothing was
 * ever written in it (no metadata, no stream; not a resumed trace): what
 * a trace added and destroyed at once (a late ADD_TRACE undone) leaves
 * @t: a local trace about to be destroyed (borrowed)
 *
 * Command thread.  Best effort: a directory with anything in it stays.
 */
void ltt_trace_remove_if_empty(struct ltt_trace *t);

/**
 * ltt_trace_destroy() - close the trace's files and free it; accepts NULL
 * and half-built traces.  The caller has destroyed its channels.
 */
void ltt_trace_destroy(struct ltt_trace *trace);

/**
 * ltt_trace_append_metadata() - append @len bytes of TSDL text to the
 * trace's metadata (file or relay stream), as whole 4 KiB metadata
 * packets (the last one padded)
 * @text: borrowed; must not contain NUL bytes
 *
 * Command thread.  All or nothing: on failure a file is cut back to its
 * previous size.  Returns 0, -EINVAL for a NUL byte in @text, -EFBIG for
 * too much text, -ENOMEM, or the write's negative errno.
 */
int ltt_trace_append_metadata(struct ltt_trace *trace, const void *text, size_t len);

/**
 * ltt_trace_retry() - write the metadata a failed output left pending
 *
 * Command thread.  Returns 0 (nothing pending any more) or the output's
 * negative errno (still pending).
 */
int ltt_trace_retry(struct ltt_trace *t);

/**
 * ltt_trace_failure() - why the trace's own files can't be written now:
 * its directory was removed (-ENOENT), or metadata is pending (its
 * error); 0 otherwise
 * @ret_since: set when not 0: when it began (seconds since the Epoch)
 *
 * Command thread.
 */
int ltt_trace_failure(struct ltt_trace *t, int64_t *ret_since);

/*
 * A trace's next chunk: the directory it writes into from a rotation on,
 * made (with its index/ and its whole metadata) before any channel moves
 * to it.
 */
struct ltt_trace_chunk {
	int dir_fd, index_fd;
	char *path;
	struct ltt_output *output;	/* its metadata file */
};

/**
 * ltt_trace_chunk_create() - make @dir the next chunk of local trace @t:
 * the directory (and its missing parents) and its index/ as ADD_TRACE
 * makes them, and the metadata file holding every metadata packet the
 * trace received so far
 * @dir: absolute path (borrowed, copied); -EEXIST when a trace is there
 * @ret: filled; release with ltt_trace_chunk_commit() or _abort()
 *
 * Command thread.  Returns 0, -EINVAL (a relayed trace), -ENOMEM, or the
 * file system's negative errno (nothing is left behind).
 */
int ltt_trace_chunk_create(struct ltt_trace *t, const char *dir, struct ltt_trace_chunk *ret);

/**
 * ltt_trace_chunk_commit() - @chunk becomes @t's directory (its channels
 * moved to it already); the old one's metadata file is closed, the old
 * directory left as it is.  @chunk is emptied.  Command thread.
 */
void ltt_trace_chunk_commit(struct ltt_trace *t, struct ltt_trace_chunk *chunk);

/**
 * ltt_trace_chunk_abort() - undo ltt_trace_chunk_create(): the metadata
 * file, index/ and the directory are removed (best effort), @chunk emptied.
 * Accepts an emptied chunk.  Command thread.
 */
void ltt_trace_chunk_abort(struct ltt_trace_chunk *chunk);

/**
 * ltt_trace_reset_metadata() - empty @t's metadata file
 * @rewrite: write every packet received so far again (a clear: the same
 *           text, in a file that lost its streams); otherwise forget them
 *           too (a regeneration: the session daemon sends the new text)
 *
 * A snapshot trace (regeneration only) forgets its packets: the next
 * snapshot holds the new text; a relayed one (regeneration only) has its
 * output send the next text as the whole new one.  Command thread.
 * Returns 0, -EOPNOTSUPP (a relayed trace's clear), -EPROTONOSUPPORT (a
 * relay older than 2.13), or the
 * file system's negative errno (then the packets stay pending, written
 * at the next flush, as a failed METADATA's are).
 */
int ltt_trace_reset_metadata(struct ltt_trace *t, bool rewrite);

#endif /* LTT_CONSUMERD_TRACE_H */
