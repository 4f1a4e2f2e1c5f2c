/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ust-rings.h - what the tests that play the session daemon in-process
 * for libltt-ust share (test_tracepoint_ser.c, test_tracepoint_cpu.c):
 * ring buffers laid out as the daemon lays them out, read back as the
 * consumer reads them, the events' headers decoded, and a run directory
 * of their own.
 *
 * A failure to set up (map or lay out a region) exits the test.
 */
#ifndef LTT_TESTS_UST_RINGS_H
#define LTT_TESTS_UST_RINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/trace/ringbuf.h"

/* The packet header, stripped by region_collect(). */
#define HDR ((size_t)LTT_RB_PACKET_HEADER_SIZE)

struct region {
	void *mem;
	size_t len;
};

/* A region laid out as @cfg says. */
void region_new_cfg(struct region *r, const struct ltt_rb_config *cfg);
/* @num sub-buffers of @subbuf bytes, counting @clock (LTT_TCLOCK_*). */
void region_new_clock(struct region *r, uint64_t subbuf, uint64_t num, uint32_t clock);
/* region_new_clock() with CLOCK_MONOTONIC. */
void region_new(struct region *r, uint64_t subbuf, uint64_t num);
void region_free(struct region *r);
/*
 * Flush @r and append the events (packet headers stripped) of every
 * packet to @out, as far as @cap allows; returns the bytes appended.
 */
size_t region_collect(struct region *r, uint8_t *out, size_t cap);

/* Events in memory, read from @p up to @end. */
struct cursor {
	const uint8_t *p;
	const uint8_t *end;
};

/*
 * The next event's header (doc/ctf.md: compact, or extended after the
 * tag 31): its id, whether it was compact, its timestamp (the low 27 bits
 * of a compact one).  False at the end or on a header cut short.
 */
bool next_header(struct cursor *c, uint32_t *id, bool *compact, uint64_t *ts);

/*
 * Re-execute the program (@argv) with LTT_RUNDIR set to a new empty
 * directory, and libltt-ust waiting for no daemon: none is ever contacted.
 * Returns in the re-executed program.
 */
void ust_rings_isolate(char **argv);

#endif /* LTT_TESTS_UST_RINGS_H */
