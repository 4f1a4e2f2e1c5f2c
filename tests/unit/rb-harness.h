/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * rb-harness.h - what the tests of common/trace/ringbuf.c share (test_ringbuf.c,
 * test_ringbuf_hostile.c): regions mapped as the session daemon maps them,
 * test events that check themselves, a checker of the packets a reader
 * gets, and reader and writer threads.
 *
 * Test events use a framing of their own (the tracer's CTF event headers
 * are not the ring buffer's business):
 *
 *   u32 len | u32 writer | u64 seq | u64 ts | u8 fits | payload | u32 sum
 *
 * ts is the slot's timestamp, fits (bit 0) is ltt_rb_slot_ts_fits(slot,
 * FIT_BITS) for events reserved with ltt_rb_reserve(), or, for events
 * reserved with ltt_rb_reserve_ts() (bit 1 set), whether it chose the
 * short size; sum is an FNV-1a of everything before it.  A reader walks
 * each packet from the header to content_size and checks every event and
 * the packet context around them.
 *
 * A failure to set up (attach a fresh region) exits the test; a check
 * that fails counts in the checker's errors, which the tests assert on.
 */
#ifndef LTT_TESTS_RB_HARNESS_H
#define LTT_TESTS_RB_HARNESS_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/trace/ringbuf.h"

#define KIB		((uint64_t)1024)
#define HDR		((uint64_t)LTT_RB_PACKET_HEADER_SIZE)
#define EV_MIN		29u	/* the smallest test event: its framing */
#define EV_MAX		8192u
#define MAX_WRITERS	8
#define STREAM_ID	7u	/* every region's stream id and cpu */
#define CPU		3u

/*
 * A lap just before the carry out of every commit word's bytes field: for
 * sub-buffers up to 256 MiB the bytes field spans 2^LTT_RB_LAP_BITS laps,
 * so lap SEEK_LAP + 1 is the one whose completion wraps it to 0.  High, so
 * positions are far from 0 too.
 */
#define SEEK_LAP	(((uint64_t)1 << 40) - 2)

/* A memfd mapped shared, as the session daemon makes them. */
struct rbh_region {
	void *mem;
	size_t len;
	int fd;
};

/* Everything a reader can verify about the packets it gets. */
struct rbh_checker {
	uint64_t subbuf_size;
	unsigned int nwriters;
	bool contiguous;	/* packet seq nums must follow each other */
	bool strict;		/* writers' seqs must follow each other */
	bool have_pkt;
	uint64_t next_pkt_seq;
	bool seen[MAX_WRITERS];
	uint64_t last_seq[MAX_WRITERS];
	uint64_t first_seq[MAX_WRITERS];
	uint64_t events[MAX_WRITERS];
	uint64_t total;
	uint64_t pkt_events;	/* sum of the packets' events fields */
	uint64_t packets;
	uint64_t empty_packets;
	uint64_t short_packets;	/* closed with room left for a big event */
	uint64_t first_pkt_seq;
	uint64_t last_ts;
	uint64_t last_ts_end;
	uint64_t last_discarded;
	uint64_t fits_true, fits_false;
	uint64_t ts_api;	/* events reserved with ltt_rb_reserve_ts() */
	uint64_t errors;
};

/*
 * The reader thread of the concurrent tests: sleeps on the eventfd when
 * nothing is ready, stops once told that the writers are done and nothing
 * is left.
 */
struct rbh_reader {
	struct ltt_rb rb;
	struct rbh_checker chk;
	int efd;
	int done;
	bool copy;
	uint8_t *buf;
	unsigned long sleeps, timeouts, late, stale;
	pthread_t thread;
};

/* A writer thread (rbh_writer_main()), or rbh_write_all() in place. */
struct rbh_writer {
	struct ltt_rb *rb;
	uint32_t id;
	uint64_t n;		/* events to write */
	size_t max;		/* largest event */
	bool retry;		/* on a full buffer, retry instead of dropping */
	bool ts_api;		/* ltt_rb_reserve_ts() instead of ltt_rb_reserve() */
	uint64_t ok, nobufs, other;
	uint64_t retries;	/* -ENOBUFS answers that were retried */
	pthread_t thread;
};

/**
 * rbh_doff() - where sub-buffer 0 starts in a region of @num_subbuf
 * sub-buffers: header, commit records, writer area, rounded to a page
 */
uint64_t rbh_doff(uint64_t num_subbuf);
/* The clock of the regions rbh_region_create() makes (LTT_TCLOCK_MONO). */
extern uint32_t rbh_clock;

/**
 * rbh_region_create() - map a region and initialize a ring buffer in it
 * (STREAM_ID, CPU, a fixed uuid); undo with rbh_region_destroy(), even
 * on failure.  Returns 0, -1 or ltt_rb_init_region()'s error.
 */
int rbh_region_create(struct rbh_region *r, uint64_t subbuf_size, uint64_t num_subbuf,
		      bool overwrite);
/** rbh_region_destroy() - unmap and close what rbh_region_create() made */
void rbh_region_destroy(struct rbh_region *r);
/** rbh_must_attach() - attach @rb to @r, or exit the test */
void rbh_must_attach(struct ltt_rb *rb, const struct rbh_region *r);
/**
 * rbh_region_seek() - move a fresh region to the start of lap @lap, as if
 * @lap laps had been written and read; before anyone else attaches
 */
void rbh_region_seek(const struct rbh_region *r, uint64_t lap);
/** rbh_seq_after_carry() - packet seq num after the carry lap's last packet */
uint64_t rbh_seq_after_carry(uint64_t num_subbuf);
/** rbh_ev_size() - a length between EV_MIN and @max that depends on (writer, seq) */
size_t rbh_ev_size(uint32_t writer, uint64_t seq, size_t max);
/** rbh_ev_write() - reserve, fill and commit one event; the reserve's code */
int rbh_ev_write(struct ltt_rb *rb, uint32_t writer, uint64_t seq, size_t len);
/** rbh_checker_init() - a checker of @nwriters writers' events */
void rbh_checker_init(struct rbh_checker *c, uint64_t subbuf_size, unsigned int nwriters,
		      bool contiguous, bool strict);
/** rbh_check_packet() - check one packet and each of its events into @c */
void rbh_check_packet(struct rbh_checker *c, const struct ltt_rb_packet *pkt);
/** rbh_get_pkt() - ltt_rb_get_next_subbuf(), leaving an empty packet on failure */
int rbh_get_pkt(struct ltt_rb *rb, struct ltt_rb_packet *pkt);
/** rbh_drain() - read (and check) whatever is ready; the number of packets */
unsigned int rbh_drain(struct ltt_rb *rb, struct rbh_checker *c);
/**
 * rbh_reader_start() - start a reader thread on @reg (copying packets out
 * with @copy); stop it with rbh_reader_finish().  Returns 0 or -1.
 */
int rbh_reader_start(struct rbh_reader *r, const struct rbh_region *reg, uint64_t subbuf_size,
		     unsigned int nwriters, bool contiguous, bool strict, bool copy);
/**
 * rbh_reader_finish() - the writers are done: flush @rb, write the final
 * empty packet once there is room, let the reader drain and join it
 */
void rbh_reader_finish(struct rbh_reader *r, struct ltt_rb *rb);
/** rbh_write_all() - write @w's events, counting each reserve's answer */
void rbh_write_all(struct rbh_writer *w);
/** rbh_writer_main() - a thread running rbh_write_all() on @arg */
void *rbh_writer_main(void *arg);

#endif /* LTT_TESTS_RB_HARNESS_H */
