/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace-conv.h - the kernel's own ring-buffer pages (tracefs
 * per_cpu/cpuN/trace_pipe_raw) into CTF 1.8 packets laid out exactly as
 * ltt's other traces (src/abi/ltt-packet.h, doc/ctf.md): one converter per
 * stream (one CPU of one channel).
 *
 * A page (ring_buffer.c's struct buffer_data_page): a u64 timestamp, a
 * commit word (local_t: the data's length in its low 30 bits; bit 31 set
 * when events were lost before this page, bit 30 when their count, an
 * unsigned long, is stored right after the data), then entries of a
 * 32-bit header, type_len:5 (low bits) and time_delta:27:
 *   1..28  a record of type_len * 4 bytes follows
 *   0      a record of (next u32 - 4) bytes follows the next u32
 *   29     padding: array[0] + 4 bytes; with a delta of 0, the page's end
 *   30     time extend: add (next u32 << 27 | delta) to the time
 *   31     absolute time: (next u32 << 27 | delta), top 5 bits from the page
 * Each record starts with the event's common header (common_type at 0).
 *
 * Each record of a mapped event becomes one CTF event: the compact header
 * (id < 31 and less than 2^27 ns after the packet's previous event) or
 * the extended one, then the stream's context fields (those a record
 * holds: tid, cpu_id; those a task table gives: procname, pid, ppid,
 * vpid, vtid), then the payload as ltt_ftrace_event_to_kabi()
 * describes it to the TSDL generator.  Timestamps are full 64-bit ns,
 * never decreasing within the stream (an earlier one is raised to the
 * latest and counted: CTF readers refuse a stream that goes back).
 *
 * What is lost is counted, and what readers must know goes into the
 * packets' events_discarded (cumulative for the stream, as CTF wants):
 * the page's missed count (1 when the kernel had no room to store it),
 * torn records, events too large for a packet, packets the sink refused.
 * Records of unmapped events are skipped and counted apart, as are those
 * an event's filter rejects (ltt_ftrace_conv_set_filter()).  A page is
 * hostile input: no read outside [page, page + len), whatever it says.
 *
 * No allocation after ltt_ftrace_conv_init() but in ltt_ftrace_conv_map()
 * (and the task table's, common/ftrace/ftrace-tasks.h, for a task first met);
 * no global state.  One thread at a time per converter.
 */
#ifndef LTT_CONSUMERD_FTRACE_CONV_H
#define LTT_CONSUMERD_FTRACE_CONV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/model/context.h"
#include "common/trace/ctf.h"
#include "common/ftrace/ftrace-format.h"
#include "common/ftrace/ftrace-map.h"
#include "common/ftrace/ftrace-tasks.h"

struct ltt_filter_arg;

/*
 * One mapped event: its layout (borrowed), its CTF id, and the programs
 * that decide which of its records are kept (borrowed; NULL or none: all).
 */
struct ltt_ftrace_map {
	const struct ltt_ftrace_event *layout;	/* NULL: not mapped */
	uint32_t ctf_id;
	const struct ltt_ftrace_map_filter *filter;
	struct ltt_ftrace_task_rec task;	/* how its records change the task table */
};

/*
 * The raw records a converter maps: records of one ftrace id (raw_data,
 * what a write to trace_marker_raw records) told apart by their u32 at
 * offset 8, the raw id (common/ftrace/ftrace-map.h).  A handful: a table looked
 * through, beside the map by ftrace id.
 */
#define LTT_FTRACE_CONV_RAW_MAX	8

struct ltt_ftrace_raw_map {
	uint32_t raw_id;			/* never 0 */
	struct ltt_ftrace_map m;
};

/* What a converter has seen and done, for stats and tests. */
struct ltt_ftrace_conv_stats {
	uint64_t events;		/* CTF events written into packets */
	uint64_t packets;		/* packets handed to the sink (emitted) */
	uint64_t discarded;		/* the stream's events_discarded so far */
	uint64_t missed;		/* of which (unless missed_elsewhere): the pages' missed counts */
	uint64_t missed_unknown;	/* pages that lost events without a count (1 each) */
	uint64_t torn;			/* of which: records cut short or out of bounds */
	uint64_t too_big;		/* of which: events larger than an empty packet */
	uint64_t emit_failed;		/* of which: events of packets the sink refused */
	uint64_t unmapped;		/* records of unmapped event (or raw) ids, skipped */
	uint64_t filtered;		/* records their event's filter rejected, skipped */
	uint64_t torn_pages;		/* pages whose header or an entry lied */
	uint64_t clamped;		/* timestamps raised to the stream's latest */
	uint64_t tasks_only;		/* records read for the task table only, not written */
	/*
	 * The pages' records taken (written, filtered, skipped or counted
	 * discarded): as ftrace counts the records read ("read events"),
	 * so a reader can tell what it read and did not convert.  Not the
	 * side's records (ltt_ftrace_conv_record()).
	 */
	uint64_t page_records;
};

/**
 * ltt_ftrace_visit_fn - a record a converter's map and filters kept
 * (ltt_ftrace_conv_visit())
 * @m: its event's mapping: layout and CTF id
 * @ts: its timestamp, as a converted event's
 * @rec: its bytes, at least @m->layout->min_size; valid for the call only
 */
typedef void (*ltt_ftrace_visit_fn)(void *arg, const struct ltt_ftrace_map *m, uint64_t ts,
				    const void *rec, size_t len);

/**
 * ltt_ftrace_emit_fn - the sink of finished packets
 * @arg: the caller's
 * @packet: @size bytes, valid for the call only (the converter reuses it)
 * @idx: the packet's index entry (offset 0: the sink knows where it goes)
 *
 * Returns 0, or a negative errno: the packet's events are then counted
 * as discarded (stats.emit_failed) and the conversion goes on.
 */
typedef int (*ltt_ftrace_emit_fn)(void *arg, const void *packet, size_t size,
				  const struct ltt_ctf_index_entry *idx);

/**
 * ltt_ftrace_side_fn - a second source of the stream's records (the BPF
 * rings' system calls, doc/kernel-bpf.md), asked before each page record
 * stamped @ts to convert its own records stamped up to @ts
 * (ltt_ftrace_conv_record()), so the stream's events stay in time order.
 * Returns true to stop the page before that record (@emit's packets have
 * no room left): ltt_ftrace_conv_page() then says -EAGAIN, and
 * ltt_ftrace_conv_resume() goes on from there, asking again.
 */
typedef bool (*ltt_ftrace_side_fn)(void *arg, uint64_t ts, ltt_ftrace_emit_fn emit,
				   void *emit_arg);

struct ltt_ftrace_conv {
	uint8_t uuid[LTT_CTF_UUID_LEN];
	uint32_t stream_id;
	uint32_t cpu;
	struct ltt_ftrace_page_layout page;
	uint8_t *pkt;			/* the packet being filled, @packet_size bytes */
	size_t packet_size;
	size_t used;			/* bytes of @pkt in use; 0: no packet open */
	uint64_t pkt_events;
	uint64_t pkt_begin, pkt_end;	/* its timestamp_begin, its last event's (or end) */
	uint64_t floor;			/* the next packet begins here (at most), 0: at its first event */
	uint64_t seq;			/* the next packet's packet_seq_num */
	uint64_t last_ts;		/* the stream's latest timestamp */
	uint32_t ctx_types[LTT_CTX_MAX];	/* enum ltt_context_type, in event order */
	uint32_t nr_ctx;
	struct ltt_ftrace_map *map;	/* indexed by ftrace id */
	uint32_t map_len;
	uint32_t raw_ftrace_id;		/* the raw records' ftrace id, when @nr_raw */
	struct ltt_ftrace_raw_map raw[LTT_FTRACE_CONV_RAW_MAX];
	uint32_t nr_raw;
	int emit_err;			/* the sink's first error in this call */
	struct ltt_ftrace_tasks *tasks;	/* the channel's task table (borrowed), or NULL */
	struct ltt_ftrace_task_cur cur;	/* the task this CPU runs, as its records say */
	bool task_ctx;			/* a context of @ctx_types reads @cur */
	bool scan;			/* in ltt_ftrace_conv_scan_tasks() */
	ltt_ftrace_side_fn side;	/* ltt_ftrace_conv_set_side(), or NULL */
	void *side_arg;
	bool paused;			/* the side stopped a page: resume it */
	bool missed_elsewhere;		/* ltt_ftrace_conv_missed_elsewhere() */
	size_t pause_pos;		/* where, in the page's data */
	uint64_t pause_ts;		/* the time before that entry */
	ltt_ftrace_visit_fn visit;	/* during ltt_ftrace_conv_visit() only */
	void *visit_arg;
	struct ltt_ftrace_conv_stats st;
};


/**
 * ltt_ftrace_conv_init() - set up the converter of one stream
 * @conv: the caller's, embedded; released with ltt_ftrace_conv_fini()
 * @uuid: the trace's, LTT_CTF_UUID_LEN bytes (copied)
 * @stream_id: the channel's CTF stream class id
 * @cpu: the stream's CPU: stream_instance_id and cpu_id
 * @packet_size: bytes of each packet: a power of two, 4096 .. 64 MiB
 * @page: the page header (ltt_ftrace_header_page_parse()), or NULL for
 *        ltt_ftrace_page_layout_default(); copied
 *
 * Allocates the packet buffer.  Returns 0, -EINVAL or -ENOMEM (then
 * @conv needs no fini, though fini accepts it).
 */
int ltt_ftrace_conv_init(struct ltt_ftrace_conv *conv, const uint8_t *uuid, uint32_t stream_id,
			 uint32_t cpu, size_t packet_size,
			 const struct ltt_ftrace_page_layout *page);

/**
 * ltt_ftrace_conv_fini() - free what init and map allocated; accepts NULL
 * and a converter whose init failed (zeroed by it).  The current packet, if
 * any, is dropped: flush first.
 */
void ltt_ftrace_conv_fini(struct ltt_ftrace_conv *conv);

/**
 * ltt_ftrace_conv_map() - convert records of ftrace event @ftrace_id as
 * CTF event @ctf_id laid out by @layout
 * @layout: borrowed until fini or a new map of @ftrace_id (one layout can
 *          serve every CPU's converter); its id must be @ftrace_id
 *
 * @ctf_id: LTT_FTRACE_CTF_TASKS_ONLY: its records change the task table
 *          (ltt_ftrace_conv_set_tasks()) and are not written
 *
 * The records of sched_switch, task_rename, sched_process_fork,
 * sched_process_exec and sched_process_free change the task table, when
 * the converter has one (common/ftrace/ftrace-tasks.h), whether they are written
 * or not, filtered or not.  Remapping an id replaces its entry.  Grows
 * the table (an allocation).  Returns 0, -EINVAL (NULL, ids that differ,
 * a layout whose fields lie outside its min_size) or -ENOMEM.
 */
int ltt_ftrace_conv_map(struct ltt_ftrace_conv *conv, uint32_t ftrace_id, uint32_t ctf_id,
			const struct ltt_ftrace_event *layout);

/**
 * ltt_ftrace_conv_map_raw() - convert records of ftrace event @layout->id
 * whose u32 at offset 8 is @raw_id as CTF event @ctf_id laid out by @layout
 * @layout: borrowed as for ltt_ftrace_conv_map(); at least 12 bytes
 *          (common header, raw id), its fields after them
 *
 * Records of that ftrace id are then looked up by raw id only: one whose
 * raw id is not mapped is skipped and counted as unmapped.  Remapping a
 * raw id replaces its entry.  No allocation.  Returns 0, -EINVAL (NULL,
 * @raw_id 0, @ctf_id UINT32_MAX, a layout as ltt_ftrace_conv_map()
 * refuses, or of another ftrace id than the raw entries before) or
 * -ENOSPC (LTT_FTRACE_CONV_RAW_MAX raw ids mapped already).
 */
int ltt_ftrace_conv_map_raw(struct ltt_ftrace_conv *conv, uint32_t raw_id, uint32_t ctf_id,
			    const struct ltt_ftrace_event *layout);

/**
 * ltt_ftrace_conv_set_filter() - keep only the records of the mapped
 * event (@ftrace_id, @raw_id; @raw_id 0: an ordinary event) that one of
 * @f's programs accepts (filter-vm/filter-vm.h)
 * @f: borrowed until fini or the next call for the event; its programs
 *     validated against the fields of the event's layout as
 *     ltt_ftrace_filter_fields() gives them; NULL or no program: keep all.
 *     A record stamped before @f->since_ns is judged by @f->prev (and so
 *     on; none left: kept).
 *
 * A program reads the record's fields in layout order (a __data_loc's
 * data, a char array as text), $ctx.tid (common_pid) and $ctx.cpu_id
 * (the stream's CPU); any other context is absent (the comparison
 * rejects).  A remap of the event keeps its filter.  No allocation.
 * Returns 0, -EINVAL (NULL @conv) or -ENOENT (the event is not mapped).
 */
int ltt_ftrace_conv_set_filter(struct ltt_ftrace_conv *conv, uint32_t ftrace_id, uint32_t raw_id,
			       const struct ltt_ftrace_map_filter *f);

/**
 * ltt_ftrace_conv_set_contexts() - the stream's event context: @nr
 * contexts (borrowed, copied) that each event carries after its header,
 * in this order, as ltt_meta_stream() declares them
 *
 * Call it before the first page.  What a record or the stream knows:
 * tid (the record's common_pid) and cpu_id; with a task table
 * (ltt_ftrace_conv_set_tasks() first) also procname, pid, ppid, vpid and
 * vtid, of the task that wrote the record.  Returns 0, -EINVAL (NULL
 * with @nr, more than LTT_CTX_MAX, a context ltt_ctx_check() refuses, a
 * packet already open) or -ENOTSUP for another context.
 */
int ltt_ftrace_conv_set_contexts(struct ltt_ftrace_conv *conv, const struct ltt_ctx *ctx,
				 uint32_t nr);

/**
 * ltt_ftrace_conv_set_tasks() - the task table @tasks (borrowed until
 * fini; shared by the converters of a channel's CPUs, one thread) that
 * the records change and the process contexts read; NULL: none
 * Returns 0 or -EINVAL (NULL @conv, a packet already open).
 */
int ltt_ftrace_conv_set_tasks(struct ltt_ftrace_conv *conv, struct ltt_ftrace_tasks *tasks);

/**
 * ltt_ftrace_conv_task_context() - is context @type (enum
 * ltt_context_type) one a converter writes from its task table
 * (procname, pid, ppid, vpid, vtid)?
 */
bool ltt_ftrace_conv_task_context(uint32_t type);

/**
 * ltt_ftrace_conv_page() - append a page's events to the stream's packets
 * @page: what one read() of trace_pipe_raw returned: @len bytes, borrowed
 * @len: the page's size (header included), at least the page header's
 * @emit: called with each packet that fills up, in order
 *
 * The whole page is consumed, what cannot be converted counted (see
 * struct ltt_ftrace_conv_stats), unless the side (ltt_ftrace_conv_set_side())
 * stops it: -EAGAIN, the page's rest waits for ltt_ftrace_conv_resume().
 * Returns 0, -EINVAL (NULL, @len shorter than the page header, a page
 * stopped and not resumed; nothing done), -EAGAIN, or the first error
 * @emit returned.
 */
int ltt_ftrace_conv_page(struct ltt_ftrace_conv *conv, const void *page, size_t len,
			 ltt_ftrace_emit_fn emit, void *arg);

/**
 * ltt_ftrace_conv_resume() - go on with the page the side stopped: the
 * same @page and @len as given to ltt_ftrace_conv_page(), from the record
 * it stopped before.  Returns as ltt_ftrace_conv_page() does (-EAGAIN:
 * stopped again); -EINVAL when no page is stopped.
 */
int ltt_ftrace_conv_resume(struct ltt_ftrace_conv *conv, const void *page, size_t len,
			   ltt_ftrace_emit_fn emit, void *arg);

/**
 * ltt_ftrace_conv_scan_tasks() - apply the task table's changes that a
 * page's records make (ltt_ftrace_conv_set_tasks()), and nothing else:
 * no event, no count, the converter's state as it was.  For a page read
 * ahead, converted later with ltt_ftrace_conv_page() (which applies them
 * again: each change is taken by its time, so twice is once).  Returns 0
 * (also without a table) or -EINVAL.
 */
int ltt_ftrace_conv_scan_tasks(struct ltt_ftrace_conv *conv, const void *page, size_t len);

/**
 * ltt_ftrace_conv_visit() - a page's records for a reader of records,
 * not of packets: each record the map and the filters keep goes to
 * @visit (counted in stats.events) and into no packet; the others are
 * counted as ltt_ftrace_conv_page() counts them, the pages' missed
 * events in stats.discarded.  Returns 0 or -EINVAL (NULL, @len shorter
 * than the page header; nothing done).
 */
int ltt_ftrace_conv_visit(struct ltt_ftrace_conv *conv, const void *page, size_t len,
			  ltt_ftrace_visit_fn visit, void *arg);

/**
 * ltt_ftrace_record_args() - what a filter program reads of record @rec
 * (@len bytes, at least @ev's min_size) of event @ev: its fields in layout
 * order into @args (@ev->nr_fields of them; a biased or derived integer's
 * value in @biased, read as an s32), as the converter's filters read them.
 * Returns false when a __data_loc points outside the record.
 */
bool ltt_ftrace_record_args(const struct ltt_ftrace_event *ev, const void *rec, size_t len,
			    struct ltt_filter_arg *args, int32_t *biased);

/**
 * ltt_ftrace_conv_set_side() - @side (NULL: none) is asked before each
 * record of a page converted, never during a scan of the task table
 */
void ltt_ftrace_conv_set_side(struct ltt_ftrace_conv *conv, ltt_ftrace_side_fn side, void *arg);

/**
 * ltt_ftrace_conv_record() - convert one record of the stream that no
 * page holds (a side source's): @rec, @len bytes laid out as ftrace's
 * (common header first), stamped @ts; mapped, filtered, counted and
 * written as a page's record is.  Returns 0, -EINVAL (NULL), or the
 * first error @emit returned.
 */
int ltt_ftrace_conv_record(struct ltt_ftrace_conv *conv, uint64_t ts, const void *rec, size_t len,
			   ltt_ftrace_emit_fn emit, void *arg);

/**
 * ltt_ftrace_conv_flush() - close the current packet (content_size below
 * packet_size, the rest zero) and hand it to @emit
 *
 * Returns 0, -ENODATA when no packet is open (nothing emitted), -EINVAL,
 * or what @emit returned.
 */
int ltt_ftrace_conv_flush(struct ltt_ftrace_conv *conv, ltt_ftrace_emit_fn emit, void *arg);

/**
 * ltt_ftrace_conv_set_begin() - the next packet opened begins at @ts, or
 * at its first event when that is earlier: the stream covers the time
 * from @ts (its start), not only from its first event
 */
void ltt_ftrace_conv_set_begin(struct ltt_ftrace_conv *conv, uint64_t ts);

/**
 * ltt_ftrace_conv_idle() - a live beacon said the stream is quiet up to
 * @ts: with no packet open, the next one begins there (not earlier than
 * it would).  @ts may have been read before a drain that converted
 * records stamped after it: it is raised to the stream's latest time, as
 * the relay sink raises the beacon to the last packet's end, so that the
 * next packet begins no earlier than the last one ended.
 */
void ltt_ftrace_conv_idle(struct ltt_ftrace_conv *conv, uint64_t ts);

/**
 * ltt_ftrace_conv_close_at() - close the current packet as
 * ltt_ftrace_conv_flush() does, its timestamp_end raised to @ts; with no
 * packet open, emit an empty one (no event) from the stream's latest
 * time (ltt_ftrace_conv_set_begin()'s, the last packet's end) to @ts.
 * The stream then covers the time up to @ts, as lttng-modules' streams
 * do after the flush of a stop (flush_empty): the next packet begins at
 * @ts, and a record converted later stamped before it is raised to it
 * (counted clamped), so that no event lies outside its packet.  @ts
 * below the stream's latest time (with no packet open, its floor) is
 * raised to it.  Returns 0, -EINVAL
 * or what @emit returned.
 */
int ltt_ftrace_conv_close_at(struct ltt_ftrace_conv *conv, uint64_t ts, ltt_ftrace_emit_fn emit,
			     void *arg);

/**
 * ltt_ftrace_conv_add_discarded() - count @n events lost elsewhere (the
 * CPU's per_cpu/cpuN/stats beyond stats.missed) into events_discarded of
 * the packets that close from now on
 */
void ltt_ftrace_conv_add_discarded(struct ltt_ftrace_conv *conv, uint64_t n);

/**
 * ltt_ftrace_conv_set_seq() - number the next packet @seq (its
 * packet_seq_num; never lower than the next one already): a stream
 * taken over goes on after the packets of the files it continues
 */
void ltt_ftrace_conv_set_seq(struct ltt_ftrace_conv *conv, uint64_t seq);

/**
 * ltt_ftrace_conv_missed_elsewhere() - the caller counts the events the
 * kernel overwrote itself (ltt_ftrace_conv_add_discarded() of the CPU's
 * stats "overrun", an exact running total): a page's missed events are
 * noted in stats.missed, not counted discarded, which would count them
 * twice (and a page that had no room for the count says 1 for thousands)
 */
void ltt_ftrace_conv_missed_elsewhere(struct ltt_ftrace_conv *conv);

/**
 * ltt_ftrace_conv_stats() - a copy of @conv's counters into @ret
 */
void ltt_ftrace_conv_stats(const struct ltt_ftrace_conv *conv,
			   struct ltt_ftrace_conv_stats *ret);

#endif /* LTT_CONSUMERD_FTRACE_CONV_H */
