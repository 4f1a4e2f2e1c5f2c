/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * snapshot.h - a snapshot of a trace of a snapshot session: what its
 * buffers hold now, written as a complete CTF trace in a directory of its
 * own, without consuming anything.
 *
 * A snapshot trace (ltt_trace_create_snapshot()) has no output: its
 * metadata is kept in memory and its streams are never read by the data
 * thread (stream.c leaves a stream without output alone).  SNAPSHOT_TRACE
 * (consumer-proto.h) opens the snapshot's directory and writes the
 * metadata on the command thread (ltt_snapshot_open()), then has the data
 * thread, which owns the streams, copy each channel's packets
 * (LTT_DATA_SNAPSHOT: ltt_snapshot_part()).  Each stream's open packet
 * is closed first, then the packets between its read and write positions
 * are copied and validated (source.h: snap_span and snap_peek; user
 * space: common/trace/ringbuf.h's ltt_rb_peek_subbuf(), kernel: the tracer's
 * SNAPSHOT_SPAN and SNAPSHOT_PEEK); one the writers overwrote meanwhile
 * is left out and counted.
 */
#ifndef LTT_CONSUMERD_SNAPSHOT_H
#define LTT_CONSUMERD_SNAPSHOT_H

#include <stdint.h>

#include "consumerd/sink/sink.h"
#include "consumerd/source/source.h"
#include "consumerd/trace/trace.h"

/* What a snapshot wrote. */
struct ltt_snapshot_counts {
	uint64_t packets;		/* written */
	uint64_t bytes;
	uint64_t packets_dropped;	/* overwritten while copied, or incomplete */
};

struct ltt_chan_part;
struct ltt_channel;
struct ltt_relay;

/* Where one snapshot of a trace goes. */
struct ltt_snapshot_out {
	int dir_fd, index_fd;		/* the snapshot's directory and its index/ */
	struct ltt_output *meta;	/* holds the metadata file */
	struct ltt_output *streams;	/* opens the stream files */
};

/**
 * ltt_snapshot_open() - create the directory @dir (and its parents) and
 * its index/, owned by @t's owner, and write @t's metadata in it
 * @t: a snapshot trace (borrowed)
 * @dir: absolute (borrowed)
 * @ret: to release with ltt_snapshot_close()
 *
 * Command thread.  Returns 0, -EEXIST when @dir holds a trace (its
 * metadata file), -EINVAL, -ENOMEM, or the file system's negative errno.
 */
int ltt_snapshot_open(const struct ltt_trace *t, const char *dir, struct ltt_snapshot_out *ret);

/**
 * ltt_snapshot_open_relay() - a snapshot of @t sent to @relay as trace
 * @path of its relay session: its metadata stream is added and @t's
 * metadata queued; the streams' sinks add theirs
 * @relay: a relay session (ADD_RELAY) registered with the data thread
 * @path: relative, without . or .. (borrowed, copied)
 * @ret: to release with ltt_snapshot_close()
 * Command thread; never waits on the relay.  Returns 0, -EINVAL, -ENOMEM,
 * or the connection's error.
 */
int ltt_snapshot_open_relay(const struct ltt_trace *t, struct ltt_relay *relay,
			    const char *path, struct ltt_snapshot_out *ret);

/**
 * ltt_snapshot_close() - release what ltt_snapshot_open() made (the files
 * stay); accepts a zeroed or half-made @out
 */
void ltt_snapshot_close(struct ltt_snapshot_out *out);

/**
 * ltt_snapshot_part() - copy the packets of @part's streams (a channel's
 * on one data thread) to @out
 * @max_packets: per stream, the newest; 0: all
 * @scratch: at least the streams' packet size (borrowed)
 * @counts: packets and bytes written, packets left out, added to
 *
 * The part's data thread (it owns the streams).  A stream with nothing to write gets
 * no file.  Returns 0, -EOPNOTSUPP for a source that can't be read
 * without consuming (a kernel tracer before ABI 1.2), or the output's
 * negative errno.
 */
/**
 * ltt_snapshot_clear_part() - a clear of @part's streams (a snapshot
 * trace's): each one's open packet is closed, and the snapshots taken
 * later copy only the packets after what the buffers hold now, as LTTng's
 * clear of a snapshot session empties its buffers
 *
 * Data thread of @part (LTT_DATA_SNAPSHOT with clear).  Returns 0 or the
 * first source's error (-EOPNOTSUPP: one can't be read without consuming).
 */
int ltt_snapshot_clear_part(struct ltt_chan_part *part);

int ltt_snapshot_part(struct ltt_chan_part *part, const struct ltt_output *out,
		      uint64_t max_packets, struct ltt_scratch *scratch,
		      struct ltt_snapshot_counts *counts);

#endif /* LTT_CONSUMERD_SNAPSHOT_H */
