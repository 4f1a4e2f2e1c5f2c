/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source-tracefs-int.h - what source-tracefs.c (a tracefs source at work)
 * and source-tracefs-open.c (one made) share: the source's state and the
 * few functions the making hands to others.
 */
#ifndef LTT_CONSUMERD_SOURCE_SOURCE_TRACEFS_INT_H
#define LTT_CONSUMERD_SOURCE_SOURCE_TRACEFS_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/bpf/bpf-ring.h"
#include "common/ftrace/ftrace-conv.h"
#include "consumerd/source/source-tracefs-events.h"
#include "consumerd/source/source-tracefs.h"

/* The largest ring-buffer page read (buffer_subbuf_size_kb); 4096 here. */
#define PAGE_MAX 65536
/* Packets of one page's conversion, at most: a page's records grow about 2x. */
#define QUEUE_MAX 8
/* A snapshot trace's ring, in packets: the kernel's sub-buffer count limits (2^20). */
#define KEEP_MAX (1u << 20)

/* A page read ahead for the task table, converted at its turn. */
struct ahead_page {
	struct ahead_page *next;
	size_t len;
	uint64_t read_ns;		/* when it was read (CLOCK_MONOTONIC) */
	uint8_t data[];
};

/* A finished packet waiting to be written: the content, its index entry. */
struct queued {
	uint8_t *buf;			/* packet_size bytes */
	struct ltt_ctf_index_entry idx;
	uint64_t events;
};

struct tracefs_source {
	struct ltt_source base;
	int fd;				/* trace_pipe_raw (ours) */
	int stats_fd;			/* per_cpu/cpuN/stats, or -1 */
	uint64_t dropped;		/* ftrace's losses (ltt_tfs_read_lost()), last counted */
	uint64_t read_start;		/* ftrace's "read events" at the start (the ledger's) */
	bool has_read_start;		/* it was read: the source keeps a ledger */
	struct ltt_tfs_events *events;	/* the channel's (borrowed) */
	uint32_t mapped;		/* of events->nr, mapped into conv */
	uint64_t gen;			/* events->gen the converter's filters follow */
	struct ltt_ftrace_conv conv;
	uint8_t *page;			/* PAGE_MAX bytes */
	size_t page_len;		/* of the page the side stopped (conv.paused) */
	struct queued *q;		/* q_len slots */
	unsigned int q_len, q_head, q_count;	/* slots, first, waiting */
	bool held;			/* q[q_head] is out (get without put) */
	bool keep;			/* a snapshot trace's: q is a ring of the newest packets */
	uint64_t q_pos;			/* keep: the position of q[q_head], in packets */
	bool flush;			/* switch asked: close the packet once read empty */
	bool span;			/* span asked: close it even empty, at that time */
	uint64_t budget;		/* pages a wakeup or a switch reads at most */
	uint64_t reads;			/* pages read since the last -EAGAIN */
	bool caught_up;			/* a wakeup's reads reached a short page */
	uint64_t read_errors;		/* reads that failed (not EAGAIN) or gave no page */
	struct tracefs_source *sib;	/* the channel's next source */
	struct ahead_page *ahead, **ahead_tail;	/* pages read ahead, oldest first */
	uint64_t nr_ahead;
	/*
	 * The CPU's BPF ring (doc/kernel-bpf.md; ring.prod NULL: none): its
	 * records go into the stream in time order with the pipe's, and
	 * what the program could not put there (lost[cpu]) is discarded.
	 */
	struct ltt_bpf_ring ring;
	const uint64_t *lost;		/* the channel's lost counts, mapped, or NULL */
	size_t lost_len;
	uint64_t lost_seen;		/* of lost[cpu], counted already */
	uint64_t bpf_torn;		/* ring records too short to hold a record */
	int ep;				/* with a ring: an epoll of the pipe and the ring, or -1 */
	/*
	 * The stamp of the ring's oldest record when last peeked (RING_IDLE:
	 * there was none; 0: look): it stays the oldest until taken, so a
	 * page record before it needs no look at the ring.
	 */
	uint64_t ring_next;
	/*
	 * The ring's records stamped up to here are older than any the pipe
	 * has not given yet: the time before the last read that reached the
	 * kernel's page (a short page, or none), CLOCK_MONOTONIC as both
	 * sources' stamps.  A record stamped before it and committed after
	 * that read is one a BPF system call record cannot interleave with.
	 */
	uint64_t drain_upto;
};

#define RING_IDLE UINT64_MAX

/* The ops of a source, and of a snapshot trace's (source-tracefs.c). */
extern const struct ltt_source_ops ltt_tfs_ops;
extern const struct ltt_source_ops ltt_tfs_keep_ops;

/* The converter's side: the BPF ring's records before the page's record at @ts. */
bool ltt_tfs_bpf_side(void *arg, uint64_t ts, ltt_ftrace_emit_fn emit, void *emit_arg);

/* The task table's look ahead (@arg: the channel's events). */
void ltt_tfs_lookahead(void *arg);

/*
 * What ftrace lost of the CPU's events (its stats file's "dropped
 * events", "overrun" and "commit overrun"), a running total, in @ret;
 * negative errno.
 */
int ltt_tfs_read_lost(const struct tracefs_source *t, uint64_t *ret);

/*
 * Count discarded what ftrace and the BPF program lost since the last
 * look (running totals): at each switch, and at the start, so that a
 * stream taken over says in its first packet what was lost before (its
 * packets' events_discarded never step back).
 */
void ltt_tfs_count_lost(struct tracefs_source *t);

/* The stats file's line @key ("read events", "entries"...): 0 or -errno. */
int ltt_tfs_read_stat(const struct tracefs_source *t, const char *key, uint64_t *ret);

#endif /* LTT_CONSUMERD_SOURCE_SOURCE_TRACEFS_INT_H */
