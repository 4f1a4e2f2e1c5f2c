/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sink.h - where a stream's packets go, behind one interface.
 *
 * A channel refers to an output (struct ltt_output): where its trace is
 * written.  The output opens one sink per stream (struct ltt_sink), and
 * the stream hands each packet it reads to its sink, with the index entry
 * built from the packet's validated header.  Today's output is the trace
 * directory (sink-file.c: stream files, index files, rotation); a relay
 * connection (sink-relay.c) is another output of the same shape.  A
 * trace's own output also takes its metadata (ltt_output_metadata()).
 *
 * The data thread must never stall on a sink.  So a sink says whether it
 * can take a whole packet now (ltt_sink_ready()) before the stream takes
 * one from its source; a sink that would block answers -EAGAIN and gives
 * an fd to wait on for EPOLLOUT (its own descriptor: one epoll
 * registration per sink), and the stream leaves its packets in the ring
 * buffer until then.  ltt_sink_write() itself takes the packet whole or
 * loses it: it never answers "later" for a packet it was given.
 *
 * A packet's bytes are described twice when the source allows it: in
 * memory (iov, always) and as a descriptor that yields them in order
 * (splice_fd: a kernel stream).  The sink moves them the cheapest way it
 * can and falls back to the memory on its own.
 *
 * An output is created by the command thread, immutable afterwards, and
 * used by the data thread to open sinks; it is destroyed by the command
 * thread once no sink of it is left.  A sink belongs to its stream (data
 * thread).
 */
#ifndef LTT_CONSUMERD_SINK_H
#define LTT_CONSUMERD_SINK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>

#include "common/trace/ctf.h"

/* At most this many memory buffers describe a packet. */
#define LTT_SINK_MAX_IOV 4

struct ltt_sink_packet {
	uint64_t len;			/* bytes of the packet (its packet_size) */
	struct iovec iov[LTT_SINK_MAX_IOV];	/* the packet in memory, len bytes in all */
	int iovcnt;
	int splice_fd;			/* -1, or an fd whose next len bytes are the packet */
	uint64_t events;		/* events committed in it (0 if unknown): what
					 * the channel loses if it is never written */
	struct ltt_ctf_index_entry entry;	/* from the validated header; the
						 * sink sets the offset */
};

/**
 * ltt_sink_packet_content() - how many leading bytes of @pkt hold data:
 * its entry's content_size (bits) rounded up to a byte; pkt->len when
 * that is 0 or beyond the packet.  The rest, up to pkt->len, is padding:
 * a sink writes it as zeros (or a hole) and never copies it.  Any thread.
 */
uint64_t ltt_sink_packet_content(const struct ltt_sink_packet *pkt);

struct ltt_sink;

struct ltt_sink_ops {
	const char *name;
	int (*ready)(struct ltt_sink *sink);
	/* Optional: block until ready (within the sink's own deadline); else ready. */
	int (*wait_ready)(struct ltt_sink *sink);
	int (*write)(struct ltt_sink *sink, struct ltt_sink_packet *pkt);
	/* Optional: the live timer ticked and nothing was written since the last tick. */
	void (*idle)(struct ltt_sink *sink, uint64_t now_ns, uint64_t stream_id);
	/* Optional: the reader needs a packet, even an empty one, before it reads others'. */
	bool (*wants_packet)(struct ltt_sink *sink);
	/* Optional: packets (and events) taken by write but never delivered. */
	void (*lost)(struct ltt_sink *sink, uint64_t *ret_packets, uint64_t *ret_events);
	/*
	 * Optional: a channel's removal waited its whole bound for this sink
	 * (@give_up: it does now, the sink keeps it); true when one did and
	 * the sink's destination took nothing since (a relay that stopped
	 * answering): later removals do not wait for it again.
	 */
	bool (*given_up)(struct ltt_sink *sink, bool give_up);
	/* Optional: delete every file the sink wrote (a clear); -EOPNOTSUPP when absent. */
	int (*remove)(struct ltt_sink *sink);
	/*
	 * Optional: the sink continues files a dead consumer wrote, and
	 * takes no packet numbered up to theirs (written already): true and
	 * the last one's packet_seq_num in *@ret_last.
	 */
	bool (*resumed)(struct ltt_sink *sink, uint64_t *ret_last);
	void (*destroy)(struct ltt_sink *sink);
};

struct ltt_sink {
	const struct ltt_sink_ops *ops;
	int poll_fd;			/* after -EAGAIN from ready: wait for
					 * poll_events on it; -1 for a sink that
					 * never blocks */
	uint32_t poll_events;		/* 0: EPOLLOUT */
	uint64_t splice_fallbacks;	/* packets written from memory because
					 * splice() refused the fd */
	bool retry_failed;		/* a failed write may succeed later (a
					 * file system that fills up): the stream
					 * keeps the packet and tries it again */
};

struct ltt_output;

struct ltt_output_ops {
	const char *name;
	int (*open_sink)(const struct ltt_output *out, const char *name,
			 struct ltt_sink **ret_sink);
	/* Optional: append whole metadata packets; -EOPNOTSUPP when absent. */
	int (*metadata)(struct ltt_output *out, const void *packets, size_t len);
	/* Optional: empty the metadata written so far; -EOPNOTSUPP when absent. */
	int (*reset_metadata)(struct ltt_output *out);
	/* Optional: the sinks opened so far are all the channel's streams. */
	void (*streams_added)(struct ltt_output *out);
	void (*destroy)(struct ltt_output *out);
};

struct ltt_output {
	const struct ltt_output_ops *ops;
	bool retry_open;		/* a sink that can't be opened now may open
					 * later: the stream is kept, failed */
};

/**
 * ltt_sink_ready() - can @sink take a whole packet now?
 *
 * Data thread.  Returns 0, or -EAGAIN: wait for EPOLLOUT on
 * sink->poll_fd, then ask again; the stream's packets stay in its ring
 * buffer meanwhile.
 */
int ltt_sink_ready(struct ltt_sink *sink);

/**
 * ltt_sink_wait_ready() - until @sink can take a whole packet
 *
 * Data thread.  A relay's sink waits for its stream's handle, for its
 * socket and for the answer to metadata sent before, doing the relay's
 * I/O meanwhile, within the relay's stall deadline; any other sink
 * answers as ltt_sink_ready().  Returns 0, or the sink's error.
 */
int ltt_sink_wait_ready(struct ltt_sink *sink);

/**
 * ltt_sink_write() - append one packet and its index entry
 * @pkt: borrowed; pkt->entry.offset is set to where the packet starts
 *
 * Data thread, after ltt_sink_ready() said 0.  Returns 0, or a negative
 * errno: the packet is not in the output (the caller counts it lost).
 * -ENOENT says more: the output's files no longer have a name (the
 * trace's directory, or the stream's files, were removed), so nothing
 * written to this sink can reach a reader again, now or later.
 */
int ltt_sink_write(struct ltt_sink *sink, struct ltt_sink_packet *pkt);

/**
 * ltt_sink_wants_packet() - does the reader need a packet of this stream,
 * even one without events, before it can show those of the others?
 *
 * True for a stream that has sent none to a relay other than ltt-relayd,
 * while the relay's data connection is idle (so that one empty packet,
 * not one a tick, waits for it): LTTng's relay gives a live viewer
 * nothing of a session while one of its streams never had a packet (a
 * beacon does not do).  Data thread.
 */
bool ltt_sink_wants_packet(struct ltt_sink *sink);

/**
 * ltt_sink_idle() - the live timer ticked: a sink that wrote nothing since
 * the previous call tells its reader the stream is quiet up to @now_ns (a
 * relay beacon); other sinks do nothing
 * @now_ns: the source's clock read before the stream was switched (an
 *          event the switch left out is later); the relay sink raises it
 *          to the end of the last packet it sent
 * @stream_id: the stream's CTF stream class id
 *
 * Data thread, after the stream was switched and drained.
 */
void ltt_sink_idle(struct ltt_sink *sink, uint64_t now_ns, uint64_t stream_id);

/**
 * ltt_sink_lost() - packets that ltt_sink_write() accepted (returned 0)
 * but the sink could not deliver after all (a relay connection lost with
 * the packet still queued), and their events
 * @ret_packets, @ret_events: set (0 for sinks that never lose one)
 *
 * Data thread (and the command thread for stats: the sink locks).
 */
void ltt_sink_lost(struct ltt_sink *sink, uint64_t *ret_packets, uint64_t *ret_events);

/**
 * ltt_sink_given_up() - ops->given_up(): did a channel's removal wait its
 * whole bound for @sink's destination, which took nothing since (@give_up:
 * one does now)?  False for a sink without it.
 */
bool ltt_sink_given_up(struct ltt_sink *sink, bool give_up);

/**
 * ltt_sink_resumed() - ops->resumed(): does @sink continue a dead
 * consumer's files, whose last packet was numbered *@ret_last?  False for
 * a sink without it.  Data thread.
 */
bool ltt_sink_resumed(struct ltt_sink *sink, uint64_t *ret_last);

/**
 * ltt_sink_remove() - delete every file @sink wrote so far (what a clear
 * discards); the sink writes nothing more afterwards and is destroyed next
 *
 * Data thread.  Returns 0, -EOPNOTSUPP for a sink without files of its
 * own (a relay's), or the first unlink()'s negative errno (the other
 * files are removed anyway).
 */
int ltt_sink_remove(struct ltt_sink *sink);

/**
 * ltt_sink_destroy() - close the sink; accepts NULL
 */
void ltt_sink_destroy(struct ltt_sink *sink);

/**
 * ltt_output_open_sink() - the sink of one stream of the output
 * @name: the stream's base name, "CHANNEL_CPU" (borrowed, copied)
 * @ret_sink: to release with ltt_sink_destroy()
 *
 * Data thread.  Returns 0 or a negative errno (-ENAMETOOLONG, -ENOMEM,
 * the output's own errors).
 */
int ltt_output_open_sink(const struct ltt_output *out, const char *name,
			 struct ltt_sink **ret_sink);

/**
 * ltt_output_metadata() - append metadata packets (ltt_ctf_metadata_packet())
 * to the trace's metadata: a file, or a relay's metadata stream
 * @packets: @len bytes of whole packets, borrowed
 *
 * Command thread (the trace's owner).  All or nothing.  Returns 0,
 * -EOPNOTSUPP for an output without metadata (a channel's), or the
 * output's negative errno.
 */
int ltt_output_metadata(struct ltt_output *out, const void *packets, size_t len);

/**
 * ltt_output_reset_metadata() - empty the trace's metadata, so that it can
 * be written again whole (a clear, a metadata regeneration)
 *
 * Command thread (the trace's owner).  Returns 0, -EOPNOTSUPP for an
 * output without a metadata file (a channel's, a relay's), or ftruncate()'s
 * negative errno.
 */
int ltt_output_reset_metadata(struct ltt_output *out);

/**
 * ltt_output_streams_added() - every stream of the output's channel has
 * its sink now: a relay announces them to viewers together (until then it
 * holds them back); other outputs do nothing
 *
 * Command thread, after the sinks were opened.
 */
void ltt_output_streams_added(struct ltt_output *out);

/**
 * ltt_output_destroy() - release the output; its sinks must be gone;
 * accepts NULL
 */
void ltt_output_destroy(struct ltt_output *out);

#endif /* LTT_CONSUMERD_SINK_H */
