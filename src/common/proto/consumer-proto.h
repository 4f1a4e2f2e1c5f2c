/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * consumer-proto.h - the protocol between ltt-sessiond and the
 * ltt-consumerd it spawns.
 *
 * The session daemon creates a socketpair, spawns the consumer with
 * "--cmd-fd N" (its end, inherited; then "--uid U --gid G" for a user's
 * consumer under the root daemon, "--data-threads N" when the session
 * daemon was given --consumerd-data-threads, its -v's) and sends
 * commands; the consumer answers each in order.  When the socket closes
 * (the session daemon is gone) the consumer flushes every stream, writes
 * what is complete and exits.  The consumer trusts the session daemon
 * but not the shared memory it is handed (see common/trace/ringbuf.h).
 *
 * Framing as in app-proto.h: a 16-byte header {u32 magic, u16 type,
 * u16 reserved, u32 seq, u32 payload_len}, little-endian, codec payload,
 * fds as SCM_RIGHTS on the header's first byte.  A reply has the type of
 * its command and the payload {i32 status (0 or a negative errno), ...}.
 *
 * The first command must be HELLO {u32 major, u32 minor}; the reply is
 * {i32 status, u32 major, u32 minor} with the consumer's version and both
 * sides use min(minor).  Another command first gets -EPROTO; a different
 * major gets -EPROTONOSUPPORT and the consumer exits.  An unknown command
 * gets -EOPNOTSUPP.  A failed command's reply holds the status alone.
 *
 * Commands (payloads after the header):
 *   ADD_TRACE {u64 trace_key, str dir, 16 bytes uuid, u32 uid, u32 gid
 *              [, u64 relay_key]}
 *       One CTF trace.  relay_key (1.2) absent or 0: a local trace; dir is
 *       absolute; creates dir and dir/index (owned by uid:gid); -EEXIST if
 *       dir already holds a trace (its metadata file).  relay_key not 0:
 *       the trace goes to that relay (ADD_RELAY); dir is its path relative
 *       to the relay session ("ust/uid/0/64-bit", "kernel"), without "."
 *       or ".." components (-EINVAL); -ENOENT for an unknown relay.  The
 *       encoder omits a zero relay_key (the 1.1 form).
 *   METADATA {u64 trace_key, u32 len, len bytes of metadata text}
 *       Appends to the trace's metadata.  TSDL text (CTF 1.8) is written
 *       as metadata packets (37-byte header with the trace uuid, 4 KiB
 *       packets); CTF 2's fragments (1.19: the text starts with
 *       LTT_CTF2_RS, ctf.h) as they are.  The trace's first text (again
 *       after RESET_METADATA) says which; a later one of the other format
 *       gets -EINVAL.
 *   ADD_CHANNEL {u64 channel_key, u64 trace_key, str name,
 *                u64 tracefile_size, u64 tracefile_count,
 *                u32 switch_timer_us, u32 read_timer_us, u8 flags
 *                [, u64 auto_reclaim_ns, u64 auto_reclaim_counts]
 *                [, u8 domain, u64 subbuf_size, u64 num_subbuf]}
 *       flags: bit 0 overwrite; bit 1 fsync (1.12: each packet and its
 *       index entry are synced to the disk, fdatasync, after the trace's
 *       metadata, before the packet counts as written); bit 2 automatic
 *       reclaim (1.17: a user-space channel in discard mode; flags are
 *       then followed by {u64 auto_reclaim_ns, u64 auto_reclaim_counts}:
 *       ns 0 gives back each sub-buffer's pages once read; another
 *       value, every auto_reclaim_ns / 2, those read and closed that
 *       long ago, which is auto_reclaim_counts in the units of the
 *       buffers' timestamps (the session's clock); doc/memory.md); another bit
 *       fails the message (-EPROTO), as a consumer before 1.12 fails
 *       bit 1 and one before 1.17 bit 2.
 *       The bracketed block (1.1) is absent for a user-space channel (as
 *       1.0 sends it) and present for any other domain.  domain: 0 user
 *       space (streams by ADD_STREAM), 1 kernel (streams by
 *       ADD_KERNEL_STREAM), 2 tracefs (1.9: streams by ADD_FTRACE_STREAM;
 *       the block goes on with {u32 stream_id, u32 nr_ctx, nr_ctx
 *       contexts (context.h's encoding)}); an unknown domain gets
 *       -EOPNOTSUPP.  A kernel
 *       channel gives its sub-buffer size and count as it asked the tracer
 *       for them (powers of two within src/abi/ltt-abi.h's limits, else
 *       -EINVAL); the user-space domain sends no block (its ring buffers
 *       carry their geometry).  A tracefs channel's sub-buffer size is
 *       the size of the CTF packets its conversion writes (the kernel's
 *       buffer holds num_subbuf of them); stream_id is its CTF stream
 *       class and the contexts its events carry, tid and cpu_id, and
 *       procname, pid, ppid, vpid, vtid from its task table (-EOPNOTSUPP
 *       for another, and from a consumer older than those); the
 *       consumer runs its switch and read
 *       timers (the kernel runs the module's).
 *   ADD_STREAM {u64 channel_key, u32 cpu} + 2 fds: shared memory, wakeup
 *       eventfd; the memory must be sealed against shrinking (see
 *       app-proto.h).  Writes go to dir/NAME_CPU and dir/index/NAME_CPU.idx,
 *       or with a tracefile size to dir/NAME_CPU_N and index/NAME_CPU_N.idx,
 *       N counting up, the newest tracefile_count files kept.
 *   ADD_KERNEL_STREAM {u64 channel_key, u32 cpu} + 1 fd (1.1)
 *       A stream fd of ltt-tracer.ko (LTT_KABI_STREAM) for a kernel
 *       channel; -EINVAL if the fd is not one, -EPROTO for a user-space
 *       channel (and ADD_STREAM to a kernel channel).  The files are named
 *       as for ADD_STREAM.  The session daemon closes its copy.
 *   ADD_FTRACE_STREAM {u64 channel_key, u32 cpu} + 2 fds (1.9)
 *       For a tracefs channel: the CPU's per_cpu/cpuN/trace_pipe_raw of
 *       the channel's ftrace instance (opened O_NONBLOCK), and the
 *       channel's event map (common/ftrace/ftrace-map.h: a sealed memfd, the
 *       same for every CPU).  The consumer converts the pages it reads
 *       into CTF packets (common/ftrace/ftrace-conv.h): a record of ftrace id
 *       N is the map's event of that id.  -EINVAL if the map is not one,
 *       -EPROTO for a channel of another domain (and ADD_STREAM or
 *       ADD_KERNEL_STREAM to a tracefs channel).
 *   ADD_KERNEL_STREAM_STATS, ADD_FTRACE_STREAM_STATS (1.14,
 *       LTT_CONSUMER_MINOR_KERNEL_STATS): as ADD_KERNEL_STREAM and
 *       ADD_FTRACE_STREAM, plus the channel's statistics page as their
 *       last fd, kept up to date as ADD_STREAM_STATS's (below), its
 *       source_events_lost word too: the session daemon reads a kernel
 *       channel's counters and failure there, without asking.
 *   ADD_BPF_RING {u64 channel_key, u32 cpu} + 2 fds (1.18,
 *       LTT_CONSUMER_MINOR_BPF_RING): for a tracefs channel whose system
 *       call strings a BPF program records (doc/kernel-bpf.md), sent right
 *       before the CPU's ADD_FTRACE_STREAM(_STATS): the CPU's BPF ring
 *       buffer and the channel's lost counts (an array of u64 by CPU),
 *       both mapped by the consumer, which puts the ring's records into
 *       the CPU's stream in time order with the pipe's.  Kept until that
 *       stream comes (a later ADD_BPF_RING replaces it); -EPROTO for a
 *       channel of another domain.
 *   FLUSH_CHANNEL {u64 channel_key, u8 final [, u8 stopped (1.11)]}
 *       Closes the current sub-buffer of every stream and writes every
 *       complete one; replies once it is on disk.  final: no writer remains,
 *       so sub-buffers left incomplete by a killed writer are given up
 *       (counted lost) instead of waited for.  stopped (a session's
 *       stop: its writers are stopped; sent as 1 only, and only to 1.11):
 *       the channel's timers then tick at most every
 *       LTT_CONSUMER_STOPPED_TICK_MS until a tick finds data again, and
 *       at their own period from there (a stopped session's 100 us timers
 *       cost no core).  Kernel channel: FLUSH each
 *       stream and write everything readable; the session daemon then
 *       closes the channel fd, the tracer finalizes the streams, and the
 *       consumer writes their last packets as they hang up (DESTROY_CHANNEL
 *       waits a bounded time for that end).
 *   CHANNEL_STATS {u64 channel_key} -> {i32 status, u64 events_lost,
 *       u64 packets_lost, u64 bytes_written [, failure block (1.5)]}
 *   DESTROY_CHANNEL {u64 channel_key}   final flush, then close its files
 *   DESTROY_TRACE {u64 trace_key}       its channels must be destroyed first
 *
 * Taking over from a consumer that died (1.4):
 *   ADD_TRACE ... [, u64 relay_key, u8 resume]
 *       resume 1 (sent only when set, with relay_key then always present):
 *       a local trace a dead consumer was writing.  dir and dir/index may
 *       exist; the metadata file is reopened and emptied (the session
 *       daemon sends the whole text again); each stream file and its
 *       index are reopened (the newest of a rotation) and cut back to the
 *       last packet the index holds whole; packets the ring buffer hands
 *       out again with a sequence number the index already holds are not
 *       written twice.  A relayed trace with resume gets -EOPNOTSUPP.
 *   ADD_STREAM_STATS {u64 channel_key, u32 cpu} + 3 fds: as ADD_STREAM,
 *       plus the channel's statistics page: a memfd of at least
 *       LTT_CONSUMER_STATS_SIZE(cpu + 1) bytes, sealed against shrinking,
 *       where the consumer keeps the stream's struct
 *       ltt_consumer_stream_stats at cpu * LTT_CONSUMER_STATS_SLOT up to
 *       date (the session daemon reads it without asking; a new consumer
 *       continues the counts it finds there).
 *
 * Output failures (1.5):
 *   CHANNEL_STATS's reply appends {i32 error, i64 error_since,
 *       u64 error_events, u64 error_packets} when both sides speak 1.5:
 *       the channel's output failure (what the session daemon keeps at
 *       stop and destroy, and reads for a kernel channel).  error: 0, or
 *       the -errno that stops its files being written now (-ENOSPC, -EDQUOT, -ENOENT for a removed
 *       directory, -EMFILE...); error_since: when that began (seconds
 *       since the Epoch); error_events: events the writers dropped while
 *       the output failed (part of events_lost); error_packets: packets
 *       dropped because it failed (part of packets_lost).  While a local
 *       channel's output fails its streams stop reading: the packet that
 *       failed stays in the ring buffer and the writers drop (and count)
 *       their events; FLUSH_CHANNEL tries the output again (a final one
 *       drops what the buffers hold, counted lost, if it still fails).
 *   PROBE_OUTPUT {str dir, u32 uid, u32 gid}
 *       Before a session starts: can uid:gid write a trace under dir (an
 *       absolute path)?  Creates dir and its missing parents as ADD_TRACE
 *       does, then writes one page to a file there and removes it.  The
 *       status says why not: -EACCES, -EROFS, -ENOSPC, -EDQUOT, -EMFILE,
 *       -ENFILE, -ENOENT, -ENOTDIR, -EINVAL (not absolute, "." or "..").
 *   Statistics page: each stream's struct ltt_consumer_stream_stats
 *       carries the stream's output failure too (error, error_since,
 *       error_events, error_packets as above), so that the session daemon
 *       shows a user-space channel's failure without asking the consumer;
 *       the slot grows from 64 to 128 bytes (LTT_CONSUMER_STATS_SLOT), so
 *       the session daemon sends ADD_STREAM_STATS only to a 1.5 consumer.
 *
 * Relay output (1.2):
 *   ADD_RELAY {u64 relay_key, relay_addr, str hostname,
 *              str session_name, str base_path, u32 live_timer_us,
 *              u64 session_id, u64 creation_time [, 16 bytes uuid]}
 *              -> {i32 status, str output_path}
 *       relay_addr (1.13, LTT_CONSUMER_MINOR_RELAY_ADDR): {u8 family,
 *       str host, u16 ctrl_port, u16 data_port}, the relay's address as
 *       the session daemon parsed it once (family, common/model/uri.h: 0 a host
 *       name, 4 an IPv4 literal or a name of net4://, 6 an IPv6 literal;
 *       host without brackets, as a URL of that family carries it; two
 *       different ports, neither 0).  Before 1.13: {str ctrl_url, str data_url}, canonical
 *       tcp:// or tcp6:// texts of its control and data ports, which a
 *       consumer still reads from an older session daemon.
 *       uuid (1.10): the session's, which the relay session carries
 *       (LTTng's relay refuses a nil one); absent, the consumer makes one up.
 *       From 1.15 (LTT_CONSUMER_MINOR_TLS) the uuid is always there and
 *       {u8 tls [, str cert, str key, str ca]} follows: tls 1, both
 *       connections speak TLS 1.3 with these PEM files (paths the
 *       consumer opens; the relay's certificate checked against the CA
 *       and host), a handshake that fails gives -EKEYREJECTED.
 *       Connects to ltt-relayd, to both ports.  Both are
 *       connected (non-blocking, 5 s deadline), then VERSION and
 *       CREATE_SESSION: one relay session per ADD_RELAY; the reply names
 *       the relay's output directory.  Errors: -EEXIST (key in use),
 *       -EINVAL (an address that is not a relay's, an empty session name),
 *       -ECONNREFUSED, -ETIMEDOUT, -EHOSTUNREACH, -ENOENT (the host name
 *       does not resolve), -EPROTO (the peer is not a relay),
 *       -EPROTONOSUPPORT (the relay's major differs).  live_timer_us > 0:
 *       every live_timer_us, every stream of the relay's traces is flushed
 *       (partial packets), and a stream with nothing new sends a beacon.
 *   RELAY_DATA_PENDING {u64 relay_key} -> {i32 status, u8 pending}
 *       pending 1 while packets already read from the ring buffers have not
 *       all reached the relay (sent and written there).  -ECONNRESET when
 *       the relay connection is gone (the reply holds the status alone:
 *       decoded as pending 0), -ENOENT for an unknown relay.
 *   RELAY_STATUS {u64 relay_key} -> {i32 status, i32 conn_error,
 *       u64 packets_sent, u64 bytes_sent, u64 packets_lost}
 *       conn_error: 0 while connected, else the -errno that ended the
 *       connection; packets_lost: packets read but not delivered (the
 *       relay died, refused them or their index).
 *   DEL_RELAY {u64 relay_key}
 *       After the traces using it are destroyed (-EBUSY otherwise): closes
 *       the streams left (CLOSE_STREAM), both connections, frees it.
 *
 * Streams of a channel (1.3):
 *   STREAMS_SENT {u64 channel_key}
 *       The channel's ADD_STREAMs (or ADD_KERNEL_STREAMs) are all sent,
 *       whether they succeeded or not.  A relayed channel holds its streams
 *       back from viewers until then, so that they are announced (the
 *       relay's STREAMS_SENT) together, never some of them.  -ENOENT for an
 *       unknown channel.  A session daemon sends it only to a consumer of
 *       1.3 or later; a consumer whose session daemon speaks 1.2 or older
 *       treats every ADD_STREAM as the channel's last.
 *
 * Snapshots (1.6):
 *   ADD_SNAPSHOT_TRACE {u64 trace_key, 16 bytes uuid, u32 uid, u32 gid}
 *       A trace of a snapshot session: nothing is written until a
 *       SNAPSHOT_TRACE.  Its metadata is kept in memory (as METADATA
 *       sends it); its channels' streams are not read (ADD_CHANNEL,
 *       ADD_STREAM, STREAMS_SENT as for any trace; a kernel channel gets
 *       -EOPNOTSUPP).  FLUSH_CHANNEL, DESTROY_* as for any trace.
 *       -EEXIST for a key in use.
 *   SNAPSHOT_TRACE {u64 trace_key, str dir, u64 max_packets}
 *       -> {i32 status, u64 packets, u64 bytes, u64 packets_dropped}
 *       Writes what the trace's buffers hold now as a complete CTF trace
 *       in dir (absolute; created with its parents, owned by the trace's
 *       uid:gid): dir/metadata, each stream's dir/CHANNEL_CPU and
 *       dir/index/CHANNEL_CPU.idx.  Each stream's open packet is closed
 *       first; then the packets between its read and write positions are
 *       copied without consuming them (tracing goes on, the buffers keep
 *       them: the next snapshot holds them again).  max_packets: at most
 *       that many packets per stream, the newest (0: all).  A packet
 *       overwritten while it was copied, or incomplete, is left out:
 *       packets_dropped counts them.  -EEXIST if dir holds a trace,
 *       -ENOENT for an unknown trace, -EINVAL for a trace not added by
 *       ADD_SNAPSHOT_TRACE or a dir that is not absolute, or the error
 *       of creating the files.
 *
 *   SNAPSHOT_TRACE_RELAY {u64 trace_key, u64 relay_key, str path,
 *                         u64 max_packets} (1.8, LTT_CONSUMER_MINOR_NET)
 *       -> as SNAPSHOT_TRACE
 *       The same snapshot, sent to the relay session relay_key (ADD_RELAY,
 *       live timer 0) as trace path (relative, no . or ..): its metadata
 *       stream and one relay stream per stream that has packets.  The
 *       reply comes once every packet was handed to the relay's sockets;
 *       the session daemon then waits for RELAY_DATA_PENDING to say the
 *       relay wrote them, checks RELAY_STATUS, and DEL_RELAYs it.
 *       -ENOENT for an unknown trace or relay, -EINVAL for a trace not
 *       added by ADD_SNAPSHOT_TRACE or a bad path, the connection's error
 *       (-ECONNRESET, -ETIMEDOUT: the relay stopped taking bytes for
 *       LTT_RLINK_STALL_MS), -EPROTO when the relay refused a stream.
 *
 *   RELAY_ARCHIVE {u64 relay_key, str from, str to} (1.8)
 *       After a rotation of the relay's traces (ROTATE_TRACE with a
 *       relative dir): have the relay move the old chunk's directory
 *       @from (relative to the relay session's directory: "ust" for the
 *       first chunk's user-space traces, "CHUNK/ust" later) to @to
 *       ("archives/BEGIN-END-N/ust"), once the old streams are closed and
 *       every packet of them written (relay-archive.c).  Answered at once:
 *       0, -EPROTONOSUPPORT (a relay older than protocol 2.12),
 *       -EBUSY (one is under way), -ENOENT (no such relay), the
 *       connection's error.
 *   RELAY_ARCHIVE_RESULT {u64 relay_key} -> status
 *       -EINPROGRESS while the last RELAY_ARCHIVE is under way, then 0 or
 *       why it failed (the relay's refusal: -EEXIST, -ENOENT, -EINVAL,
 *       -EIO; or the connection's error).
 *
 * Trace chunks (1.7, LTT_CONSUMER_MINOR_ROTATE):
 *   ROTATE_TRACE {u64 trace_key, u8 clear, str dir}
 *       clear 0: dir (absolute, holding no trace: -EEXIST) becomes the
 *       trace's directory: it is made with its index/ and a metadata file
 *       holding all the metadata so far; then each stream of each of the
 *       trace's channels is switched at a packet boundary (the open
 *       packet closed, every complete packet written to the old files),
 *       its old files closed and new ones opened in dir.  On success the
 *       old directory's files are complete and closed: a trace of its own.
 *       A packet completed later goes to the new files: none is lost or
 *       written twice.  clear 1: dir must be "" (-EINVAL); what the trace
 *       recorded so far is dropped: the complete packets in the buffers
 *       are read without being written (not counted lost), every stream
 *       file and index is deleted and started again, the metadata file
 *       is written again whole.  -ENOENT for an unknown trace,
 *       -EOPNOTSUPP for a relayed one.  A snapshot trace takes clear 1
 *       only (-EINVAL otherwise): each stream's open packet is closed and
 *       the snapshots taken later copy only packets after what its
 *       buffers hold now (LTTng's clear of a snapshot session).
 *   RESET_METADATA {u64 trace_key}
 *       Empties the trace's metadata file; the session daemon then sends
 *       the whole text again in one METADATA (a regeneration, e.g. after
 *       a clock change).  A snapshot trace: the next snapshots hold the
 *       new text.  A relayed trace: the relay gets RESET_METADATA and
 *       that text (relay-proto.h); -EPROTONOSUPPORT, nothing changed,
 *       from a relay older than 2.13.
 */
#ifndef LTT_COMMON_CONSUMER_PROTO_H
#define LTT_COMMON_CONSUMER_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/context.h"
#include "common/base/codec.h"
#include "common/proto/consumer-proto-relay.h"

#define LTT_CONSUMER_MAGIC 0x4c545443U	/* "LTTC" */
#define LTT_CONSUMER_HDR_SIZE 16
#define LTT_CONSUMER_MSG_MAX (1U << 24)
/* The most TSDL text one METADATA carries, with room for the rest of the message. */
#define LTT_CONSUMER_METADATA_MAX (LTT_CONSUMER_MSG_MAX - 64)
#define LTT_CONSUMER_MAJOR 1
#define LTT_CONSUMER_MINOR 19
/* The minor that brought STREAMS_SENT. */
#define LTT_CONSUMER_MINOR_STREAMS_SENT 3
/* The minor that brought ADD_TRACE's resume flag and ADD_STREAM_STATS. */
#define LTT_CONSUMER_MINOR_TAKEOVER 4
/*
 * The minor that brought PROBE_OUTPUT, CHANNEL_STATS's failure block and
 * the failure words of the statistics page (its 128-byte slot).
 */
#define LTT_CONSUMER_MINOR_OUTPUT_ERRORS 5
/* The minor that brought ADD_SNAPSHOT_TRACE and SNAPSHOT_TRACE. */
#define LTT_CONSUMER_MINOR_SNAPSHOT 6
/* The minor that brought ROTATE_TRACE and RESET_METADATA (trace chunks). */
#define LTT_CONSUMER_MINOR_ROTATE 7
/* The minor that brought SNAPSHOT_TRACE_RELAY (snapshots sent to a relay). */
#define LTT_CONSUMER_MINOR_NET 8
/* The minor that brought tracefs channels (ADD_CHANNEL's domain 2, ADD_FTRACE_STREAM). */
#define LTT_CONSUMER_MINOR_TRACEFS 9
/* The minor that brought ADD_RELAY's session uuid. */
#define LTT_CONSUMER_MINOR_RELAY_UUID 10
/* The minor that brought FLUSH_CHANNEL's stopped flag. */
#define LTT_CONSUMER_MINOR_STOPPED 11
/* The minor that brought ADD_CHANNEL's fsync flag. */
#define LTT_CONSUMER_MINOR_FSYNC 12
/* The minor that brought ADD_RELAY's typed address (no URL text). */
#define LTT_CONSUMER_MINOR_RELAY_ADDR 13
/*
 * The minor that brought ADD_KERNEL_STREAM_STATS, ADD_FTRACE_STREAM_STATS
 * and the page's source_events_lost word.
 */
#define LTT_CONSUMER_MINOR_KERNEL_STATS 14
/* The minor that brought ADD_RELAY's TLS files. */
#define LTT_CONSUMER_MINOR_TLS 15
/*
 * The minor that brought RECLAIM_CHANNEL {u64 channel_key, u64
 * older_than} -> {u64 subbufs}: the data threads read what is ready,
 * then give back the pages of the user-space sub-buffers consumed and
 * closed older_than ago at least, in the units of the buffers'
 * timestamps (ns, or TSC counts; 0: all; ltt_rb_reclaim()); subbufs:
 * how many.  EOPNOTSUPP for an overwrite-mode channel.
 */
#define LTT_CONSUMER_MINOR_RECLAIM 16
/* The minor that brought ADD_CHANNEL's automatic reclaim (flags bit 2). */
#define LTT_CONSUMER_MINOR_AUTO_RECLAIM 17
/* The minor that brought ADD_BPF_RING. */
#define LTT_CONSUMER_MINOR_BPF_RING 18
/*
 * The minor that brought CTF 2: METADATA's text not packetized, and
 * ADD_RELAY's trailing {u8 trace_format} (enum ltt_trace_format), which
 * the relay session is created with (relay protocol 2.15).
 */
#define LTT_CONSUMER_MINOR_CTF2 19
/* How often a stopped channel's timers tick, at most (FLUSH_CHANNEL's stopped). */
#define LTT_CONSUMER_STOPPED_TICK_MS 100

#define LTT_CONSUMER_MSG_TABLE(X) \
	X(ADD_TRACE, 1) \
	X(METADATA, 2) \
	X(ADD_CHANNEL, 3) \
	X(ADD_STREAM, 4) \
	X(FLUSH_CHANNEL, 5) \
	X(CHANNEL_STATS, 6) \
	X(DESTROY_CHANNEL, 7) \
	X(DESTROY_TRACE, 8) \
	X(HELLO, 9) \
	X(ADD_KERNEL_STREAM, 10) \
	X(ADD_RELAY, 11) \
	X(RELAY_DATA_PENDING, 12) \
	X(RELAY_STATUS, 13) \
	X(DEL_RELAY, 14) \
	X(STREAMS_SENT, 15) \
	X(ADD_STREAM_STATS, 16) \
	X(PROBE_OUTPUT, 17) \
	X(ADD_SNAPSHOT_TRACE, 18) \
	X(SNAPSHOT_TRACE, 19) \
	X(ROTATE_TRACE, 20) \
	X(RESET_METADATA, 21) \
	X(SNAPSHOT_TRACE_RELAY, 22) \
	X(RELAY_ARCHIVE, 23) \
	X(RELAY_ARCHIVE_RESULT, 24) \
	X(ADD_FTRACE_STREAM, 25) \
	X(ADD_KERNEL_STREAM_STATS, 26) \
	X(ADD_FTRACE_STREAM_STATS, 27) \
	X(RECLAIM_CHANNEL, 28) \
	X(ADD_BPF_RING, 29)

enum ltt_consumer_msg {
#define LTT_CONSUMER_MSG_ENUM_(name, num) LTT_CONSUMER_MSG_##name = (num),
	LTT_CONSUMER_MSG_TABLE(LTT_CONSUMER_MSG_ENUM_)
#undef LTT_CONSUMER_MSG_ENUM_
	LTT_CONSUMER_MSG_NR_,
};

/**
 * ltt_consumer_msg_name() - "ADD_STREAM", or NULL for an unknown type
 */
const char *ltt_consumer_msg_name(uint32_t type);

/*
 * The most data threads a consumer runs: its --data-threads (or
 * LTT_CONSUMERD_DATA_THREADS), which the session daemon passes on from
 * its own --consumerd-data-threads.
 */
#define LTT_CONSUMER_DATA_THREADS_MAX 64
/* The environment's number of data threads, without --data-threads. */
#define LTT_CONSUMER_DATA_THREADS_ENV "LTT_CONSUMERD_DATA_THREADS"

/**
 * ltt_consumer_data_threads_parse() - a number of data threads as both
 * daemons take it: decimal digits only, from 1 to
 * LTT_CONSUMER_DATA_THREADS_MAX
 * @text: borrowed; NULL is refused
 * @ret_n: the number, set on success only
 *
 * Returns 0, or -EINVAL when @text is not such a number.
 */
int ltt_consumer_data_threads_parse(const char *text, unsigned int *ret_n);

/* Where a channel's streams come from. */
enum ltt_consumer_domain {
	LTT_CONSUMER_DOMAIN_USER = 0,	/* shared memory + eventfd (ADD_STREAM) */
	LTT_CONSUMER_DOMAIN_KERNEL = 1,	/* ltt-tracer.ko stream fds (ADD_KERNEL_STREAM) */
	LTT_CONSUMER_DOMAIN_TRACEFS = 2,	/* trace_pipe_raw fds (ADD_FTRACE_STREAM) */
};

/* ADD_CHANNEL, decoded; name borrows the message. */
struct ltt_consumer_add_channel {
	uint64_t key;
	uint64_t trace_key;
	const char *name;
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	uint32_t switch_timer_us;
	uint32_t read_timer_us;
	bool overwrite;
	bool fsync;			/* 1.12: sync each packet before it counts written */
	bool auto_reclaim;		/* 1.17: give back what was read, by itself */
	uint64_t auto_reclaim_ns;	/* 0: once read; else: closed that long ago */
	uint64_t auto_reclaim_counts;	/* the same age in the buffers' clock units */
	uint8_t domain;			/* enum ltt_consumer_domain */
	uint64_t subbuf_size;		/* kernel: bytes per sub-buffer; user: 0 */
	uint64_t num_subbuf;		/* kernel: sub-buffers per stream; user: 0 */
	uint32_t stream_id;		/* tracefs: its CTF stream class */
	uint32_t nr_ctx;		/* tracefs: the contexts its events carry */
	struct ltt_ctx ctx[LTT_CTX_MAX];
};

/* Bytes of a trace's directory, NUL included. */
#define LTT_CONSUMER_PATH_MAX 4096
#define LTT_CONSUMER_UUID_LEN 16

/* HELLO {u32 major, u32 minor}, and the body of its reply. */
struct ltt_consumer_version {
	uint32_t major;
	uint32_t minor;
};

/* ADD_TRACE, decoded; dir borrows the message. */
struct ltt_consumer_add_trace {
	uint64_t key;
	const char *dir;
	uint8_t uuid[LTT_CONSUMER_UUID_LEN];
	uint32_t uid;
	uint32_t gid;
	uint64_t relay_key;		/* 1.2: 0 local (and absent on the wire) */
	bool resume;			/* 1.4: take over a trace a dead consumer wrote */
};

/* METADATA, decoded; text borrows the message. */
struct ltt_consumer_metadata {
	uint64_t trace_key;
	const void *text;
	uint32_t len;
};

/* ADD_STREAM, decoded (its two fds travel beside). */
struct ltt_consumer_add_stream {
	uint64_t channel_key;
	uint32_t cpu;
};

/* FLUSH_CHANNEL, decoded. */
struct ltt_consumer_flush_channel {
	uint64_t channel_key;
	bool final;
	bool stopped;			/* 1.11, sent only when true */
};

/* The body of CHANNEL_STATS's reply. */
struct ltt_consumer_channel_stats {
	uint64_t events_lost;
	uint64_t packets_lost;
	uint64_t bytes_written;
	/* 1.5, appended: the output's failure (0 and absent before 1.5) */
	int32_t error;			/* 0, or the -errno that stops writing now */
	int64_t error_since;		/* when it began, seconds since the Epoch */
	uint64_t error_events;		/* events dropped while the output failed */
	uint64_t error_packets;		/* packets dropped because it failed */
};

/* ADD_SNAPSHOT_TRACE, decoded. */
struct ltt_consumer_add_snapshot_trace {
	uint64_t key;
	uint8_t uuid[LTT_CONSUMER_UUID_LEN];
	uint32_t uid;
	uint32_t gid;
};

/*
 * SNAPSHOT_TRACE, decoded; dir borrows the message.  SNAPSHOT_TRACE_RELAY
 * too: relay_key then names the relay and dir is the trace's pathname in
 * that relay session (0 and absent in SNAPSHOT_TRACE).
 */
struct ltt_consumer_snapshot_trace {
	uint64_t trace_key;
	uint64_t relay_key;
	const char *dir;
	uint64_t max_packets;		/* per stream, the newest; 0: all */
};

/* The body of SNAPSHOT_TRACE's reply. */
struct ltt_consumer_snapshot_reply {
	uint64_t packets;		/* written */
	uint64_t bytes;			/* their bytes */
	uint64_t packets_dropped;	/* overwritten while copied, or incomplete */
};

/* RELAY_ARCHIVE, decoded; from and to borrow the message. */
struct ltt_consumer_relay_archive {
	uint64_t relay_key;
	const char *from;
	const char *to;
};

/* ROTATE_TRACE, decoded; dir borrows the message. */
struct ltt_consumer_rotate_trace {
	uint64_t trace_key;
	bool clear;
	const char *dir;
};

/* PROBE_OUTPUT, decoded; dir borrows the message. */
struct ltt_consumer_probe_output {
	const char *dir;
	uint32_t uid;
	uint32_t gid;
};

/*
 * The ledger of a source whose reads empty the tracer's buffer (tracefs:
 * what a dead consumer read and had not written is in no buffer and no
 * file), kept in its stream's slot as it changes, so that a consumer
 * taking the stream over counts those events discarded
 * (ltt_source_take_over(), doc/consumerd.md "Taking over").  Words mod
 * 2^64, each stored whole.
 */
struct ltt_consumer_ledger {
	/*
	 * The source's own discards, plus the events made (packets'
	 * events, the open one's too), less the records taken, less the
	 * tracer's count of records read when the source began, less the
	 * events written or cleared: with the tracer's count now, the own
	 * discards and what the source held or had read and not taken.
	 * One word: a death never splits a change.
	 */
	uint64_t value;
	uint64_t if_written;		/* value once packet pending_seq is in the files */
	uint64_t pending_seq;		/* the packet being written, or UINT64_MAX */
	uint64_t kept;			/* 1: value is kept; 0: no ledger here */
};

/*
 * One stream's counters in a channel's statistics page (ADD_STREAM_STATS),
 * host order, each word stored whole by the data thread that runs the
 * stream (one of the consumer's several);
 * readers load each word once.  Totals over every consumer that read the
 * stream for a user-space stream; a kernel-side stream's slot (1.14)
 * starts again with each consumer, whose source reads the tracer's
 * running totals again.  source_events_lost and error_rb_base are the
 * source's counts as they are, never added to a dead consumer's.
 */
struct ltt_consumer_stream_stats {
	uint64_t packets_lost;		/* corrupt, overwritten, abandoned, unwritable */
	uint64_t bytes_written;		/* packet bytes in the output */
	uint64_t events_lost;		/* lost here beyond the ring buffer's own count */
	uint64_t packets_written;
	uint64_t updated_ns;		/* CLOCK_MONOTONIC of the last store */
	/* 1.5: the stream's output failure, as CHANNEL_STATS's block has it */
	int64_t error;			/* 0, or the -errno that stops writing now */
	int64_t error_since;		/* when it began, seconds since the Epoch */
	uint64_t error_events;		/* events dropped while the output failed */
	uint64_t error_packets;		/* packets dropped because it failed */
	/*
	 * While error: the ring buffer's events_lost when it began; what the
	 * writers drop since (its count now - this) is not in error_events,
	 * which a stream stopped by the failure stores no more.
	 */
	uint64_t error_rb_base;
	/*
	 * 1.14: the events the stream's source says its writers dropped (a
	 * kernel stream's ring buffer, a tracefs CPU buffer, a user-space
	 * ring buffer), as the consumer last read it: what the session
	 * daemon reads for the sources whose counters it can't read itself.
	 * Not part of events_lost; while error, error_rb_base is this count
	 * when the failure began.
	 */
	uint64_t source_events_lost;
	/*
	 * The events the source counted discarded itself, beyond the
	 * tracer's running totals (ltt_source_own_discarded(): a tracefs
	 * converter's): the count a consumer taking a kernel-side stream
	 * over starts from, where no ledger is kept (the ledger holds it
	 * too).  The consumer's own: the session daemon reads it not.
	 */
	uint64_t source_own_discarded;
	struct ltt_consumer_ledger ledger;
};

#define LTT_CONSUMER_STATS_SLOT 128
#define LTT_CONSUMER_STATS_SIZE(nr_streams) \
	((((uint64_t)(nr_streams) * LTT_CONSUMER_STATS_SLOT) + 4095) & ~(uint64_t)4095)

/* ADD_KERNEL_STREAM and ADD_FTRACE_STREAM, decoded (their fds travel beside). */
struct ltt_consumer_add_kernel_stream {
	uint64_t channel_key;
	uint32_t cpu;
};

/**
 * ltt_consumer_put_add_channel() - encode ADD_CHANNEL's payload
 * @m: borrowed; a user-space channel is encoded as 1.0 encodes it
 *
 * Errors stay in @w (see codec.h).
 */
void ltt_consumer_put_add_channel(struct ltt_wbuf *w, const struct ltt_consumer_add_channel *m);

/**
 * ltt_consumer_get_add_channel() - decode and check ADD_CHANNEL's payload
 * @r: the whole payload (borrowed); @ret->name points into it
 * @ret: set only on success
 *
 * Checks the encoding and the domain block, not the channel's name or
 * its values against each other (the consumer's registry does).  Returns
 * 0; -EPROTO for a malformed payload (truncated, trailing bytes, a
 * boolean not 0 or 1, a block sent for the user-space domain);
 * -EOPNOTSUPP for an unknown domain, a tracefs context other than tid,
 * cpu_id, procname, pid, ppid, vpid and vtid, or automatic reclaim on a
 * channel other than a user-space one in discard mode; -EINVAL for a kernel or tracefs geometry that is not
 * powers of two within src/abi/ltt-abi.h's limits, or a context that
 * ltt_ctx_check() refuses.
 */
int ltt_consumer_get_add_channel(struct ltt_rbuf *r, struct ltt_consumer_add_channel *ret);

/**
 * ltt_consumer_put_add_kernel_stream() - encode ADD_KERNEL_STREAM's payload
 */
void ltt_consumer_put_add_kernel_stream(struct ltt_wbuf *w,
					const struct ltt_consumer_add_kernel_stream *m);

/**
 * ltt_consumer_get_add_kernel_stream() - decode ADD_KERNEL_STREAM's payload
 * @ret: set only on success
 *
 * Returns 0 or -EPROTO.
 */
int ltt_consumer_get_add_kernel_stream(struct ltt_rbuf *r,
				       struct ltt_consumer_add_kernel_stream *ret);

/*
 * The other payloads.  Encoders append to @w and leave any error in it
 * (codec.h); they borrow what they are given.  Decoders read a whole
 * payload from @r, set *ret only on success and return 0 or -EPROTO
 * (truncated, bytes left over, a string without its NUL or too long, a
 * boolean not 0 or 1); the receiver checks the values.  Any thread.
 */

/**
 * ltt_consumer_put_status() - start a reply: its {i32 status}
 * @status: 0, then the command's reply body follows; or a negative errno,
 *          alone in the reply
 */
void ltt_consumer_put_status(struct ltt_wbuf *w, int32_t status);

/**
 * ltt_consumer_get_status() - read a reply's status, leaving @r on its body
 * @ret_status: 0 or a negative errno; set only on success
 *
 * Returns 0, or -EPROTO when the reply is shorter than a status or the
 * status is positive (not an errno).  Bytes after it are the caller's.
 */
int ltt_consumer_get_status(struct ltt_rbuf *r, int32_t *ret_status);

/** ltt_consumer_put_version() - HELLO, and the body of HELLO's reply */
void ltt_consumer_put_version(struct ltt_wbuf *w, const struct ltt_consumer_version *m);
/** ltt_consumer_get_version() - decode HELLO or its reply's body */
int ltt_consumer_get_version(struct ltt_rbuf *r, struct ltt_consumer_version *ret);

/**
 * ltt_consumer_put_add_trace() - ADD_TRACE; a NULL dir is sent as "";
 * relay_key 0 is encoded as 1.1 encodes ADD_TRACE (no trailing key)
 */
void ltt_consumer_put_add_trace(struct ltt_wbuf *w, const struct ltt_consumer_add_trace *m);
/**
 * ltt_consumer_get_add_trace() - decode ADD_TRACE (1.1, or 1.2 with its
 * relay_key); @ret->dir points into the payload and is at most
 * LTT_CONSUMER_PATH_MAX bytes with its NUL
 */
int ltt_consumer_get_add_trace(struct ltt_rbuf *r, struct ltt_consumer_add_trace *ret);

/**
 * ltt_consumer_put_metadata() - METADATA; text of more than
 * LTT_CONSUMER_METADATA_MAX bytes sets the buffer's error to -E2BIG
 */
void ltt_consumer_put_metadata(struct ltt_wbuf *w, const struct ltt_consumer_metadata *m);
/** ltt_consumer_get_metadata() - decode METADATA; @ret->text points into the payload */
int ltt_consumer_get_metadata(struct ltt_rbuf *r, struct ltt_consumer_metadata *ret);

/** ltt_consumer_put_add_stream() - ADD_STREAM's payload (the fds travel beside) */
void ltt_consumer_put_add_stream(struct ltt_wbuf *w, const struct ltt_consumer_add_stream *m);
int ltt_consumer_get_add_stream(struct ltt_rbuf *r, struct ltt_consumer_add_stream *ret);

void ltt_consumer_put_flush_channel(struct ltt_wbuf *w,
				    const struct ltt_consumer_flush_channel *m);
int ltt_consumer_get_flush_channel(struct ltt_rbuf *r, struct ltt_consumer_flush_channel *ret);

/**
 * ltt_consumer_put_key() - CHANNEL_STATS, DESTROY_CHANNEL, DESTROY_TRACE,
 * STREAMS_SENT, RESET_METADATA: {u64 key}
 */
void ltt_consumer_put_key(struct ltt_wbuf *w, uint64_t key);
int ltt_consumer_get_key(struct ltt_rbuf *r, uint64_t *ret_key);

/**
 * ltt_consumer_put_channel_stats() - the body of CHANNEL_STATS's reply, as
 * 1.2 has it (its first three counters)
 */
void ltt_consumer_put_channel_stats(struct ltt_wbuf *w,
				    const struct ltt_consumer_channel_stats *m);
/**
 * ltt_consumer_put_channel_error() - what 1.5 appends to CHANNEL_STATS's
 * reply: {i32 error, i64 error_since, u64 error_events, u64 error_packets}
 */
void ltt_consumer_put_channel_error(struct ltt_wbuf *w,
				    const struct ltt_consumer_channel_stats *m);
/**
 * ltt_consumer_get_channel_stats() - decode the body (1.2, or 1.5 with
 * the error fields; absent, they are 0).  -EPROTO also for a positive
 * error.
 */
int ltt_consumer_get_channel_stats(struct ltt_rbuf *r, struct ltt_consumer_channel_stats *ret);

/** ltt_consumer_put_add_snapshot_trace() - ADD_SNAPSHOT_TRACE (1.6) */
void ltt_consumer_put_add_snapshot_trace(struct ltt_wbuf *w,
					 const struct ltt_consumer_add_snapshot_trace *m);
/** ltt_consumer_get_add_snapshot_trace() - decode ADD_SNAPSHOT_TRACE */
int ltt_consumer_get_add_snapshot_trace(struct ltt_rbuf *r,
					struct ltt_consumer_add_snapshot_trace *ret);
/** ltt_consumer_put_snapshot_trace() - SNAPSHOT_TRACE (1.6) */
void ltt_consumer_put_snapshot_trace(struct ltt_wbuf *w, const struct ltt_consumer_snapshot_trace *m);
/** ltt_consumer_get_snapshot_trace() - decode SNAPSHOT_TRACE; @ret->dir points into @r */
int ltt_consumer_get_snapshot_trace(struct ltt_rbuf *r, struct ltt_consumer_snapshot_trace *ret);
/** ltt_consumer_put_snapshot_trace_relay() - SNAPSHOT_TRACE_RELAY (1.8) */
void ltt_consumer_put_snapshot_trace_relay(struct ltt_wbuf *w,
					   const struct ltt_consumer_snapshot_trace *m);
/** ltt_consumer_get_snapshot_trace_relay() - decode it; @ret->dir points into @r */
int ltt_consumer_get_snapshot_trace_relay(struct ltt_rbuf *r,
					  struct ltt_consumer_snapshot_trace *ret);
/** ltt_consumer_put_relay_archive() - RELAY_ARCHIVE (1.8) */
void ltt_consumer_put_relay_archive(struct ltt_wbuf *w, const struct ltt_consumer_relay_archive *m);
/** ltt_consumer_get_relay_archive() - decode it; the strings point into @r */
int ltt_consumer_get_relay_archive(struct ltt_rbuf *r, struct ltt_consumer_relay_archive *ret);
/** ltt_consumer_put_snapshot_reply() - the body of SNAPSHOT_TRACE's reply */
void ltt_consumer_put_snapshot_reply(struct ltt_wbuf *w, const struct ltt_consumer_snapshot_reply *m);
/** ltt_consumer_get_snapshot_reply() - decode it (after the status) */
int ltt_consumer_get_snapshot_reply(struct ltt_rbuf *r, struct ltt_consumer_snapshot_reply *ret);

/** ltt_consumer_put_rotate_trace() - ROTATE_TRACE {u64 trace_key, u8 clear, str dir} */
void ltt_consumer_put_rotate_trace(struct ltt_wbuf *w, const struct ltt_consumer_rotate_trace *m);
/**
 * ltt_consumer_get_rotate_trace() - decode ROTATE_TRACE; @ret->dir points
 * into the payload, at most LTT_CONSUMER_PATH_MAX bytes with its NUL
 */
int ltt_consumer_get_rotate_trace(struct ltt_rbuf *r, struct ltt_consumer_rotate_trace *ret);

/** ltt_consumer_put_probe_output() - PROBE_OUTPUT {str dir, u32 uid, u32 gid} */
void ltt_consumer_put_probe_output(struct ltt_wbuf *w, const struct ltt_consumer_probe_output *m);
/**
 * ltt_consumer_get_probe_output() - decode PROBE_OUTPUT; @ret->dir points
 * into the payload, at most LTT_CONSUMER_PATH_MAX bytes with its NUL
 */
int ltt_consumer_get_probe_output(struct ltt_rbuf *r, struct ltt_consumer_probe_output *ret);

#endif /* LTT_COMMON_CONSUMER_PROTO_H */
