/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-tracefs.h - the "tracefs" source: one CPU of an ftrace instance
 * (per_cpu/cpuN/trace_pipe_raw), its pages converted into CTF packets
 * (ftrace-conv.h) with the layouts of the channel's event map
 * (common/ftrace/ftrace-map.h).
 *
 * What trace_pipe_raw does (measured on Linux 6.18, 4096-byte pages):
 *   - read() returns one ring-buffer page, never more, whatever the
 *     count (a read of 8192 bytes returns 4096); a read shorter than a
 *     page gets -EAGAIN.  With O_NONBLOCK, a page the writer is still
 *     filling is returned too: 4096 bytes whose commit word says how much
 *     is data (200 bytes for 10 getppid entries), those events consumed;
 *     then -EAGAIN once the CPU's buffer is empty.  Reading until EAGAIN
 *     therefore takes everything the kernel holds.
 *   - poll()/epoll (edge-triggered) report EPOLLIN when the buffer is
 *     filled to the instance's buffer_percent (default 50): with 0, any
 *     event after a read-empty wakes the reader again; with 1, 1000
 *     getppid entries (20 KB of a 64 KB buffer) did, 10 did not; with
 *     50, not even those.  The channel's read and switch timers read the
 *     rest.  A source that only waits on poll with buffer_percent 50 may
 *     find a non-overwrite buffer half full when woken: the session
 *     daemon should set one packet's worth, max(1, 100 / num_subbuf).
 *   - the page's missed count covers overwritten events (overwrite
 *     mode), not the events a full non-overwrite buffer dropped: those
 *     only appear as "dropped events" in per_cpu/cpuN/stats, which this
 *     source reads next to the pipe (found through /proc/self/fd) at
 *     each switch, adding what grew to the packets' events_discarded
 *     (and at each stats call, to events_lost).
 *
 * The event map is shared by the channel's sources: struct
 * ltt_tfs_events holds one private copy of the published layouts for the
 * channel (the converters borrow them), synced before each page is
 * converted.  Packets the conversion finishes wait in a small queue of
 * preallocated buffers, handed out one at a time by get and put; a page
 * is converted only when the queue is empty, so one page's packets
 * always fit (a packet that does not is counted discarded by the
 * converter, never dropped silently).  No allocation per event or
 * packet; a layout is copied once, when it is first published.
 *
 * The source never hangs up: its stream ends when its channel is flushed
 * final or destroyed, after switch_packet has had every page read and the
 * last, partial packet closed.
 *
 * Reading trace_pipe_raw consumes, and this kernel has no ftrace
 * snapshot file, so a snapshot trace's source (cfg.keep) reads as it
 * fills all the same and keeps its converted packets itself: the queue
 * is then a ring of the kernel buffer's sub-buffer count, the newest
 * packets overwriting the oldest (a flight recorder's, not a loss).
 * snap_span reads what the kernel holds and closes the open packet; the
 * snapshot copies the ring's packets out (snap_peek), consuming nothing.
 *
 * Created, used and destroyed by its stream's data thread (the one that
 * runs the stream's part of its channel, data.h).
 */
#ifndef LTT_CONSUMERD_SOURCE_TRACEFS_H
#define LTT_CONSUMERD_SOURCE_TRACEFS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/context.h"
#include "consumerd/source/source.h"

struct ltt_tfs_events;

struct ltt_source_tracefs_cfg {
	const char *chan_name;		/* for messages (borrowed) */
	uint32_t cpu;
	const uint8_t *uuid;		/* of the channel's trace, 16 bytes (borrowed) */
	uint64_t packet_size;		/* the channel's sub-buffer size */
	uint64_t num_subbuf;		/* packets the kernel's buffer holds */
	uint32_t stream_id;		/* the channel's CTF stream class */
	const struct ltt_ctx *ctx;	/* nr_ctx contexts (borrowed, copied) */
	uint32_t nr_ctx;
	int pipe_fd;			/* trace_pipe_raw: borrowed, dup'ed */
	struct ltt_tfs_events *events;	/* the channel's: borrowed, outlives the source */
	bool keep;			/* a snapshot trace's: keep num_subbuf packets */
	/*
	 * The CPU's BPF ring and the channel's lost counts (doc/kernel-bpf.md),
	 * borrowed, mapped; -1: none.  Its records go into the stream in time
	 * order with the pipe's.
	 */
	int bpf_ring_fd, bpf_lost_fd;
};

/**
 * ltt_source_tracefs_create() - start reading one CPU of a tracefs channel
 * @cfg: borrowed
 * @ret_src: to release with ltt_source_destroy()
 *
 * Data thread.  Returns 0, -EINVAL (a packet size the converter refuses,
 * a context it can't write, a negative fd), -ENOMEM, or dup()'s negative
 * errno.
 */
int ltt_source_tracefs_create(const struct ltt_source_tracefs_cfg *cfg,
			      struct ltt_source **ret_src);

#endif /* LTT_CONSUMERD_SOURCE_TRACEFS_H */
