/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - a relay stream: its files, the packets arriving on data
 * connections, the indexes arriving on the control connection, and how
 * the two are paired.
 *
 * Files.  A data stream writes TRACE/CHANNEL_CPU and
 * TRACE/index/CHANNEL_CPU.idx exactly as a local session's consumer does,
 * with the same tracefile size/count rotation and names (common/trace/tracefile.h):
 * a packet that would take the current file past the size starts the next
 * one, and past the count the oldest file and its index are deleted.  A
 * metadata stream writes TRACE/metadata, the metadata packets as received.
 *
 * Packets.  A data connection announces a packet (ltt_relay_packet_begin():
 * the stream, its net_seq_num and size), then writes its bytes
 * (ltt_relay_packet_write(): the data connection gathers a packet of up
 * to 8 MiB and writes it whole, padding included, in one system call; a
 * larger one as it arrives), and ends it (ltt_relay_packet_end()) or abandons it
 * (ltt_relay_packet_abort(): the file is cut back).  A stream takes one
 * packet at a time and net_seq_num must grow.
 *
 * Pairing.  SEND_INDEX and its packet arrive on different connections, in
 * either order.  Both arrive in net_seq_num order, so a stream keeps two
 * FIFOs, packets waiting for their index and indexes waiting for their
 * packet, at most one of them non-empty; a pair complete is appended to
 * the index file and to the in-memory entries viewers read.  An index
 * whose packet never came (or a packet whose index never came) is dropped
 * with a warning when a later one proves it will not.
 */
#ifndef LTT_RELAYD_STREAM_H
#define LTT_RELAYD_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/proto/relay-proto.h"
#include "relayd/registry.h"

/* Bound on indexes (or packets) waiting for their other half, per stream. */
#define LTT_RELAY_MAX_UNPAIRED 65536

/*
 * Index entries kept in memory per stream, by default: the newest ones;
 * older ones (and those of tracefiles rotation deleted) are forgotten.
 */
#define LTT_RELAY_INDEX_WINDOW 16384

/**
 * ltt_relay_stream_add() - ADD_STREAM into session @s
 * @req: validated by the codec; borrowed
 * @ret_handle: the new stream's handle
 *
 * Creates the trace directory and index/ on the first stream of a
 * pathname, and the stream's first files.  A metadata stream
 * (channel_name "metadata") is refused with -EEXIST when the trace
 * already has one or the file exists on disk (a trace is never
 * overwritten).  Server thread.  Returns 0, -EINVAL (names), -EEXIST,
 * -ENOSPC (the session has limits.max_session_streams), -EMFILE (the
 * relay has limits.max_streams), -ENOMEM, or the file system's error.
 */
int ltt_relay_stream_add(struct ltt_relay_session *s, const struct ltt_relay_add_stream *req,
			 uint64_t *ret_handle);

/**
 * ltt_relay_stream_metadata() - SEND_METADATA: append @len bytes then
 * @padding zeros to metadata stream @handle of @s
 *
 * Server thread.  Returns 0, -ENOENT (no such stream in @s), -EINVAL (a
 * data stream, or closed), -EFBIG, or the write's error (the file is cut
 * back: a reader never sees half a payload).
 */
int ltt_relay_stream_metadata(struct ltt_relay_session *s, uint64_t handle, const void *data,
			      size_t len, uint32_t padding);

/**
 * ltt_relay_stream_reset_metadata() - RESET_METADATA: metadata stream
 * @m->stream_handle of @s starts again from offset 0 at @m->version
 * (relay-proto.h); viewers find the version and the rewrite's size in
 * the model
 *
 * Server thread.  Returns 0, -ENOENT (no such stream in @s), -EINVAL (a
 * data stream, closed, a version that does not grow), -EOPNOTSUPP (a
 * live session's stream without rewrite_size), or ftruncate()'s -errno.
 */
int ltt_relay_stream_reset_metadata(struct ltt_relay_session *s,
				    const struct ltt_relay_reset_metadata *m);

/**
 * ltt_relay_stream_index() - SEND_INDEX for a data stream of @s
 *
 * A beacon (packet_size 0) only records its time.  Server thread.
 * Returns 0, -ENOENT, -EINVAL (metadata stream, net_seq_num not growing,
 * content larger than the packet), -ENOSPC (too many unpaired), or the
 * index file's write error.
 */
int ltt_relay_stream_index(struct ltt_relay_session *s, const struct ltt_relay_index *idx);

/**
 * ltt_relay_stream_written() - is packet @seq of data stream @handle of @s
 * written to its file?
 *
 * The control connection answers a packet's SEND_INDEX only once this
 * says so, so that its reply means "written" to the sender.  Server
 * thread.  Returns 1 (written), 0 (not yet: it may still come; @s's
 * written_fn is called each time a packet is written), -ENOENT (no such
 * stream) or -EIO (it will not come: its number is past).
 */
int ltt_relay_stream_written(struct ltt_relay_session *s, uint64_t handle, uint64_t seq);

/**
 * ltt_relay_stream_close() - CLOSE_STREAM: no packets after @last_seq
 * (UINT64_MAX: none at all)
 *
 * Server thread.  Returns 0 or -ENOENT.
 */
int ltt_relay_stream_close(struct ltt_relay_session *s, uint64_t handle, uint64_t last_seq);

/**
 * ltt_relay_stream_data_pending() - DATA_PENDING: is any packet up to
 * @last_seq still missing (or being received)?
 *
 * Remembers @last_seq for END_DATA_PENDING.  Server thread.
 * Returns 0 or -ENOENT.
 */
int ltt_relay_stream_data_pending(struct ltt_relay_session *s, uint64_t handle, uint64_t last_seq,
				  bool *ret_pending);

/**
 * ltt_relay_stream_quiescent() - QUIESCENT_CONTROL: nothing to do but
 * check that @s has stream @handle
 *
 * Server thread.  Returns 0 or -ENOENT.
 */
int ltt_relay_stream_quiescent(struct ltt_relay_session *s, uint64_t handle);

/**
 * ltt_relay_stream_keep_files_locked() - a clear is about to delete @st's
 * files: open its last ones for reading first (a metadata stream's file;
 * a data stream's last LTT_RELAY_KEPT_FILES tracefiles that hold entries
 * viewers may still be handed), as LTTng's relay keeps a viewer's files
 * open, so that the packet a viewer got the index of before the clear
 * stays readable after it (ltt_relay_stream_kept_fd_locked()).  The
 * descriptors go with the stream.
 *
 * Lock held, server thread.  Best effort: a file that can't be opened is
 * not kept (logged); its packets then read as gone (EOF).
 */
void ltt_relay_stream_keep_files_locked(struct ltt_relay_stream *st);

/**
 * ltt_relay_stream_kept_fd_locked() - cleared @st's file number @no (0
 * for metadata), kept open by ltt_relay_stream_keep_files_locked()
 *
 * Lock held, any thread.  Returns a new descriptor (the caller closes
 * it), -ESTALE when that file was not kept, or dup()'s -errno.
 */
int ltt_relay_stream_kept_fd_locked(const struct ltt_relay_stream *st, uint64_t no);

/* Does @st wait for packets (see ltt_relay_session_pending())?  Lock held. */
bool ltt_relay_stream_pending_locked(const struct ltt_relay_stream *st);
/* Closed and nothing more to come.  Lock held. */
bool ltt_relay_stream_hup_locked(const struct ltt_relay_stream *st);
/* A packet being received by a data connection. */
struct ltt_relay_packet {
	struct ltt_relay_session *session;	/* a reference */
	struct ltt_relay_stream *stream;
	uint64_t len;				/* data bytes, received */
	uint64_t padding;			/* zeros after them, not received */
	uint64_t done;				/* data bytes written */
};

/**
 * ltt_relay_packet_begin() - a data header arrived: find the stream,
 * check the sequence, rotate the tracefile if needed, reserve the range
 * @m: the model
 * @hdr: the header (values not checked yet)
 * @ret_pkt: the packet; its session reference is held until end or abort
 *
 * The header's data_size bytes follow it on the connection; its
 * padding_size does not travel: the file is extended over it (a hole,
 * read as zeros) once the data is written.
 *
 * Server thread.  Returns 0; -ENOENT (no such stream), -EINVAL (metadata
 * stream, a closed stream, no data, data + padding above
 * LTT_RELAY_MAX_PACKET, a padded packet that is not a sub-buffer: a
 * power of two from 4 KiB, the same for every padded packet of the
 * stream, so that a peer cannot grow files by more than a sub-buffer per
 * packet; net_seq_num not growing), -EBUSY (the stream is
 * receiving another packet), or the file system's error.
 */
int ltt_relay_packet_begin(struct ltt_relay_model *m, const struct ltt_relay_data_hdr *hdr,
			   struct ltt_relay_packet *ret_pkt);

/**
 * ltt_relay_packet_write() - the next @len data bytes of the packet (@len
 * no more than what is left); with the last of them, the padding: zeros
 * written in the same system call (so that no reader ever sees a packet
 * without it), or, past 8 MiB of padding, a hole made after the data
 *
 * Server thread.  Returns 0 or the write's negative errno.
 */
int ltt_relay_packet_write(struct ltt_relay_packet *pkt, const void *buf, size_t len);

/**
 * ltt_relay_packet_end() - all bytes written: the packet counts, and is
 * paired with its index if that came first; drops the reference
 *
 * Server thread.  Returns 0 or the index file's write error.
 */
int ltt_relay_packet_end(struct ltt_relay_packet *pkt);

/**
 * ltt_relay_packet_abort() - the packet will not complete: cut the file
 * back, free the stream for another packet; drops the reference.
 * Accepts a packet that was never begun (zeroed).
 *
 * Server thread.
 */
void ltt_relay_packet_abort(struct ltt_relay_packet *pkt);

#endif /* LTT_RELAYD_STREAM_H */
