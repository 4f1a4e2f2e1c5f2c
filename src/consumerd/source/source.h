/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source.h - what a stream reads its packets from, behind one interface.
 *
 * Three sources exist:
 *   "ust"     a user-space ring buffer in shared memory (source-ust.c):
 *             hostile memory, read through common/trace/ringbuf.h; the writers
 *             signal an eventfd we never read
 *   "kernel"  a stream fd of ltt-tracer.ko (source-kernel.c): ioctls to
 *             reserve and release packets, splice() or the stream's mmap
 *             to read them, poll() for readiness and the end
 *   "tracefs" an ftrace instance's per_cpu/cpuN/trace_pipe_raw
 *             (source-tracefs.c): pages read and converted into CTF
 *             packets, queued; it never hangs up
 *
 * A source hands out one packet at a time: get fills a sink packet (its
 * bytes in memory, and the descriptor to splice them from when there is
 * one) with the index entry built from the packet's validated header;
 * the stream writes it to its sink, then puts it back.  Everything about
 * reading (mappings, validation, loss counting) stays behind the source.
 *
 * The stream's data thread waits on base.poll_fd (edge-triggered, for
 * base.poll_events); a source whose fd reports EPOLLHUP has ended once
 * get says -ENODATA.
 *
 * Created, used and destroyed by its stream's data thread (the one that
 * runs the stream's part of its channel, data.h).
 */
#ifndef LTT_CONSUMERD_SOURCE_H
#define LTT_CONSUMERD_SOURCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "common/trace/ringbuf.h"
#include "common/base/size.h"	/* ltt_add_sat() */
#include "common/proto/consumer-proto.h"
#include "consumerd/sink/sink.h"

/* Channel names are at most this long in source messages. */
#define LTT_SOURCE_LABEL_MAX 300

/* A buffer for packets that must be copied out, shared by a thread's sources. */
struct ltt_scratch {
	void *buf;
	size_t len;
};

struct ltt_source;

/* A channel's counters, summed over its streams. */
struct ltt_channel_stats {
	uint64_t events_lost;	/* dropped by writers (from the ring buffers) */
	uint64_t packets_lost;	/* corrupt, overwritten, abandoned, or not written */
	uint64_t bytes_written;	/* packet bytes in the stream files */
	/* The output's failure (sink-file.c: disk full, directory removed...). */
	int32_t error;		/* 0, or the -errno that stops writing now */
	int64_t error_since;	/* then: when it began, seconds since the Epoch */
	uint64_t error_events;	/* events writers dropped while the output failed */
	uint64_t error_packets;	/* packets dropped because the output failed */
};

struct ltt_source_ops {
	const char *name;
	/*
	 * The next complete packet, held until put.  0; -EAGAIN none yet
	 * (the source's poll fd signals the next one); -ENODATA the source
	 * has ended and is empty; -EIO or -ESTALE a packet was skipped and
	 * counted lost, call again; another negative errno: stop reading.
	 */
	int (*get)(struct ltt_source *src, struct ltt_scratch *scratch,
		   struct ltt_sink_packet *ret_pkt);
	/* Release the packet of the last successful get. */
	int (*put)(struct ltt_source *src);
	/* Close the open packet if it holds events (switch timer, flush). */
	void (*switch_packet)(struct ltt_source *src);
	/*
	 * Optional: close the open packet even without events (a live
	 * reader that needs one of every stream); else switch_packet.
	 */
	void (*switch_empty)(struct ltt_source *src);
	/*
	 * Optional: the writers stopped, or the chunk ends (a rotation):
	 * close the open packet at the time the buffer is read empty, even
	 * without events, so that the stream covers the session (or the
	 * chunk) as lttng-modules' do (their flush_empty at stop).  The next
	 * packet begins there.  Else switch_packet.
	 */
	void (*span)(struct ltt_source *src);
	/*
	 * Optional: a live reader was told the stream holds nothing before
	 * @ts (a relay beacon, ltt_sink_idle()): no packet of it may begin
	 * earlier (the reader refuses one that does).
	 */
	void (*idle)(struct ltt_source *src, uint64_t ts);
	/*
	 * Optional: does the open packet hold events (switch_packet would
	 * close one)?  Cheap: a live relay's consumer asks it between ticks.
	 */
	bool (*open_filled)(const struct ltt_source *src);
	/*
	 * Optional: no writer remains; give up the packet at the read
	 * position if it will never complete.  0 given up; -ENODATA none;
	 * -EBUSY it is complete, -EAGAIN raced: read again.
	 */
	int (*give_up)(struct ltt_source *src);
	/* Optional: does the source read the object of @st?  (one reader each) */
	bool (*reads)(const struct ltt_source *src, const struct stat *st);
	/*
	 * Optional: a source whose reading empties its buffer (tracefs)
	 * keeps the packets of a snapshot trace itself, since those
	 * streams are never drained: take in what is ready.  0 caught up;
	 * -EBUSY more is ready (call again).
	 */
	int (*keep)(struct ltt_source *src);
	/*
	 * Optional, snapshots (snapshot.h): close the open packet, then
	 * sample the packets a snapshot reads without consuming: [begin, end)
	 * by packet_size, at most @max_packets, the newest (0: all).
	 */
	int (*snap_span)(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			 uint64_t *ret_end);
	/*
	 * The packet at @pos of that span, copied into @scratch and not
	 * consumed, valid until the next call.  0; -EAGAIN not complete;
	 * -ESTALE overwritten; -EIO corrupt (each counted by the source).
	 */
	int (*snap_peek)(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			 struct ltt_sink_packet *ret_pkt);
	/*
	 * Add the source's loss counters, saturating: the writers' drops
	 * (the ring buffer's own count) and the packets lost.
	 */
	void (*stats)(const struct ltt_source *src, struct ltt_channel_stats *stats);
	/*
	 * Optional (reclaim-memory): give back the pages of the sub-buffers
	 * already consumed, closed @older_than ns ago at least (0: all); add
	 * how many to *@subbufs.  0, -EAGAIN (the writers moved: none given
	 * back), -EOPNOTSUPP or -errno.
	 */
	int (*reclaim)(struct ltt_source *src, uint64_t older_than, uint64_t *subbufs);
	/*
	 * Optional: the events the reader counted in packets it skipped or
	 * gave up (corrupt, or left incomplete by a dead writer), which no
	 * ring buffer's count holds.
	 */
	uint64_t (*events_skipped)(const struct ltt_source *src);
	/*
	 * Optional, a source whose loss counts are the tracer's running
	 * totals, read again by any consumer (tracefs): the events it
	 * counted discarded itself beyond them (a page's missed events, a
	 * torn record, what it abandoned), which only its stream's slot
	 * keeps; and carry, which starts a source taking a dead consumer's
	 * stream over from that count, so that it never steps back.
	 */
	uint64_t (*own_discarded)(const struct ltt_source *src);
	void (*carry)(struct ltt_source *src, uint64_t own_discarded);
	/*
	 * Optional, a source whose reads empty the tracer's buffer and
	 * which can tell how much it read (tracefs): the tracer's count of
	 * records read when the source began (*@ret_start), its own
	 * discards (*@ret_own, as own_discarded), and those plus the events
	 * it made less the records it took since (*@ret_net, mod 2^64), for
	 * its ledger (struct ltt_consumer_ledger).  False: no ledger (a
	 * snapshot trace's, or the count can't be read).
	 */
	bool (*ledger)(const struct ltt_source *src, uint64_t *ret_start, uint64_t *ret_own,
		       uint64_t *ret_net);
	/*
	 * Optional, a source that numbers its packets itself, from 0 (a
	 * tracefs converter's; a ring buffer's numbers are the tracer's and
	 * go on): number its next packet @next, after those of a dead
	 * consumer's files its stream continues.
	 */
	void (*continue_seq)(struct ltt_source *src, uint64_t next);
	/*
	 * Optional: now, on the clock of the source's timestamps (a user
	 * stream may count TSC cycles); without it, CLOCK_MONOTONIC ns.
	 */
	uint64_t (*now)(const struct ltt_source *src);
	/*
	 * Optional: the stream closes and reads no more (its removal's
	 * deadline passed, or an error path): count as lost what the source
	 * holds that no get handed out, so that its stats say it before the
	 * stream's last publish (committed = recorded + counted).  Returns
	 * the events it counted lost now (more than once: only those not
	 * counted by an earlier call), for the caller to report.
	 */
	uint64_t (*abandon)(struct ltt_source *src);
	void (*destroy)(struct ltt_source *src);
};

struct ltt_source {
	const struct ltt_source_ops *ops;
	int poll_fd;			/* its data thread waits on it */
	uint32_t poll_events;		/* EPOLLIN | EPOLLET ... */
	uint64_t packet_size;		/* bytes of every packet (the sub-buffer size) */
	uint64_t nr_packets;		/* packets in the buffer: the flush budget */
	uint32_t stream_id;		/* its packets' stream class, once known */
	bool copies;			/* get needs the scratch buffer (packet_size bytes) */
	bool ends;			/* the source hangs up once finalized (kernel) */
	/* a kernel-side stream's slot (ltt_source_take_over()), or NULL */
	struct ltt_consumer_stream_stats *slot;
	bool ledger;			/* ops->ledger keeps one in slot */
	uint64_t ledger_out;		/* events written or cleared (ltt_source_ledger_done()) */
	char label[LTT_SOURCE_LABEL_MAX];	/* "channel NAME cpu N", for messages */
};

/**
 * ltt_source_get() - the next complete packet (see struct ltt_source_ops)
 * @scratch: the thread's copy buffer, at least packet_size bytes when the
 *           source copies (borrowed)
 * @ret_pkt: the packet, borrowing the source's memory until put
 *
 * Data thread.  Returns 0, -EAGAIN, -ENODATA, -EIO, -ESTALE, or another
 * negative errno.
 */
int ltt_source_get(struct ltt_source *src, struct ltt_scratch *scratch,
		   struct ltt_sink_packet *ret_pkt);

/**
 * ltt_source_put() - release the packet of the last successful get
 *
 * Data thread.  Returns 0 or a negative errno (the source's bug or the
 * tracer's: logged by the caller).
 */
int ltt_source_put(struct ltt_source *src);

/**
 * ltt_source_switch() - close the open packet if it holds events
 *
 * Data thread.
 */
void ltt_source_switch(struct ltt_source *src);

/**
 * ltt_source_switch_empty() - close the open packet, even without events,
 * where the source can (user space's ring buffers; the kernel's sources
 * can't yet); else ltt_source_switch()
 *
 * Data thread.
 */
void ltt_source_switch_empty(struct ltt_source *src);

/**
 * ltt_source_span() - the writers stopped or the chunk ends: close the
 * open packet at the end of what the buffer holds, even without events,
 * where the source's streams cover the session (tracefs); else
 * ltt_source_switch()
 *
 * Data thread.
 */
void ltt_source_span(struct ltt_source *src);

/**
 * ltt_source_idle() - the stream's reader was told it holds nothing
 * before @ts (see struct ltt_source_ops); nothing for most sources
 *
 * Data thread.
 */
void ltt_source_idle(struct ltt_source *src, uint64_t ts);

/**
 * ltt_source_open_filled() - does @src's open packet hold events?  False
 * for a source that cannot tell.
 */
bool ltt_source_open_filled(const struct ltt_source *src);

/**
 * ltt_source_give_up() - give up a packet no writer will complete
 *
 * Data thread, once no writer remains.  Returns 0, -ENODATA (also for a
 * source with nothing to give up), -EBUSY or -EAGAIN.
 */
int ltt_source_give_up(struct ltt_source *src);

/**
 * ltt_source_keep() - a snapshot trace's source takes in what is ready,
 * for sources that keep their packets themselves (see struct
 * ltt_source_ops)
 *
 * Data thread, when the source's poll fd or a channel timer fires.
 * Returns 0 (also for a source that keeps nothing) or -EBUSY.
 */
int ltt_source_keep(struct ltt_source *src);

/**
 * ltt_source_snap_span() - close the open packet and sample what a
 * snapshot reads (see struct ltt_source_ops)
 *
 * Data thread.  Returns 0, or -EOPNOTSUPP for a source that can't be
 * read without consuming (a kernel tracer before ABI 1.2).
 */
int ltt_source_snap_span(struct ltt_source *src, uint64_t max_packets, uint64_t *ret_begin,
			 uint64_t *ret_end);

/**
 * ltt_source_snap_peek() - one packet of the span, copied, not consumed
 * @scratch: at least packet_size bytes (borrowed)
 *
 * Data thread.  Returns 0, -EAGAIN, -ESTALE, -EIO or -EOPNOTSUPP.
 */
int ltt_source_snap_peek(struct ltt_source *src, uint64_t pos, struct ltt_scratch *scratch,
			 struct ltt_sink_packet *ret_pkt);

/**
 * ltt_source_reads() - does @src read the object @st describes?
 *
 * Data thread.  False for sources that cannot tell.
 */
bool ltt_source_reads(const struct ltt_source *src, const struct stat *st);

/**
 * ltt_source_stats() - add the source's loss counters to @stats
 *
 * Data thread.
 */
void ltt_source_stats(const struct ltt_source *src, struct ltt_channel_stats *stats);

/**
 * ltt_source_reclaim() - give back the memory of what was consumed, closed
 * @older_than ns ago at least (the
 * source's reclaim; -EOPNOTSUPP for a source without it), adding the
 * sub-buffers given back to *@subbufs.  The source's reader thread.
 */
int ltt_source_reclaim(struct ltt_source *src, uint64_t older_than, uint64_t *subbufs);

/**
 * ltt_source_events_skipped() - the events in packets the reader skipped
 *
 * Corrupt packets, packets given up: their committed events, counted lost
 * here and in no ring buffer's own count.  Data thread.
 */
uint64_t ltt_source_events_skipped(const struct ltt_source *src);

/**
 * ltt_source_own_discarded() - the events the source counted discarded
 * beyond the tracer's running totals (see struct ltt_source_ops; 0
 * without the op).  Data thread.
 */
uint64_t ltt_source_own_discarded(const struct ltt_source *src);

/**
 * ltt_source_continue_seq() - number the next packet @next (nothing for a
 * source without the op: its numbers go on).  Data thread.
 */
void ltt_source_continue_seq(struct ltt_source *src, uint64_t next);

/**
 * ltt_source_take_over() - a kernel-side stream's source takes its slot
 * @slot: the stream's slot of its channel's statistics page (mapped, the
 *        stream's): what a dead consumer of the stream left there
 * @resumed: the stream's sink continues that consumer's files, whose last
 *           packet is numbered @last
 *
 * Before the source's first packet.  The source starts counting its own
 * discards from the dead consumer's (ltt_source_own_discarded(), carry)
 * and, where both keep a ledger (struct ltt_consumer_ledger), the events
 * that consumer had read and not written too (the open packet, the
 * packets queued, the pages read and not converted): nothing holds them
 * any more.  Then the source keeps its own ledger there.  A slot nobody
 * used is all zero: nothing carried.  @resumed is told when the stream
 * opened its sink: a sink that could not open yet (its output failing)
 * says no, and a pending packet the files do hold is counted discarded
 * too.  Data thread.
 */
void ltt_source_take_over(struct ltt_source *src, struct ltt_consumer_stream_stats *slot,
			  bool resumed, uint64_t last);

/**
 * ltt_source_ledger_note() - store the source's ledger in its slot as it
 * is now; nothing without one.  After what changes it: records read and
 * converted, a side's record taken, discards.  Data thread.
 */
void ltt_source_ledger_note(struct ltt_source *src);

/**
 * ltt_source_ledger_pending() - packet @seq of @events events is about to
 * be written: the ledger says what it is once it lies in the files (a
 * consumer dying meanwhile: its successor tells by the files' last
 * packet).  Data thread.
 */
void ltt_source_ledger_pending(struct ltt_source *src, uint64_t seq, uint64_t events);

/**
 * ltt_source_ledger_done() - @events out of the source's hands: the
 * pending packet written, a packet cleared on purpose, packets the source
 * counted discarded itself (0: the pending packet not written, its events
 * stay in the ledger: counted lost by the stream now, by a successor
 * after a death).  Data thread.
 */
void ltt_source_ledger_done(struct ltt_source *src, uint64_t events);

/**
 * ltt_source_now() - now, in the unit of the source's timestamps (for a
 * live beacon's timestamp); any thread
 */
uint64_t ltt_source_now(const struct ltt_source *src);

/**
 * ltt_source_abandon() - the stream reads no more: what the source holds
 * is counted lost (see struct ltt_source_ops); accepts NULL.  Returns the
 * events counted lost by this call (0 for a source without the op).
 */
uint64_t ltt_source_abandon(struct ltt_source *src);

/**
 * ltt_source_destroy() - release everything the source holds; accepts NULL
 */
void ltt_source_destroy(struct ltt_source *src);

/**
 * ltt_source_entry() - the index entry of a packet from its header
 * @h: the validated header (borrowed)
 * @ret: the entry; its offset is left to the sink
 *
 * Any thread.
 */
void ltt_source_entry(const struct ltt_rb_packet_header *h, struct ltt_ctf_index_entry *ret);

#endif /* LTT_CONSUMERD_SOURCE_H */
