/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tracefs-harness.h - what test_consumerd_tracefs stands on (tracefs-harness.c).
 */
#ifndef LTT_TEST_TRACEFS_HARNESS_H
#define LTT_TEST_TRACEFS_HARNESS_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/context.h"
#include "consumerd-harness.h"

#define MAX_CPUS 256
#define NR_INST 6

/* This thread's events in babeltrace2's text. */
struct tally {
	unsigned int entries, exits, on_cpu0, lines;
};

/* babeltrace2's text of the last read_trace(). */
extern char bt_out[1 << 23];

/* Instance @i: mono clock, @kb per CPU, overwrite or not, this process only. */
bool make_instance(int i, const char *kb, const char *overwrite);

/* @text written to the file @rel of instance @i: 0 or -1. */
int inst_write(int i, const char *rel, const char *text);

/* getppid's entry and exit turned on ("1") or off ("0") in instance @i. */
bool set_events(int i, const char *on);

/* A map with both events published (ids 0 and 1): its fd, or -1. */
int make_map(void);

/* A map: BPF_MAP_TYPE_RINGBUF of @size bytes, or a mappable u64 ARRAY of @size. */
int make_bpf_map(uint32_t type, uint32_t size);

/*
 * A program that puts its context (RING_REC bytes) into ring @ring, with
 * bpf_ringbuf_output()'s @flags (BPF_RB_NO_WAKEUP: no reader woken): its
 * fd, or -1.
 */
int load_ring_writer(int ring, int flags);

/* A sys_enter_getppid record of @pid stamped @ts into the ring (program @prog). */
bool ring_put(int prog, uint64_t ts, int32_t pid);

/* The trace's TSDL: stream 0 with tid and cpu_id, both events. */
bool send_metadata(struct ch_cons *c, uint64_t trace_key, const struct ltt_ctx *ctx);

/* ADD_CHANNEL "kchan" of tracefs: @num_subbuf x 4 KB, @ctx's two contexts. */
int add_tracefs_channel(struct ch_cons *c, uint64_t key, uint64_t trace_key,
			const struct ltt_ctx *ctx, uint64_t num_subbuf, uint32_t switch_us);

/* A stream request of @type (ADD_FTRACE_STREAM...) for @cpu of channel @key, with @fds. */
int add_ftrace_stream(struct ch_cons *c, uint16_t type, uint64_t key, uint32_t cpu,
		      const int *fds, unsigned int nr_fds);

/* Instance @i's trace_pipe_raw of @cpu, non-blocking: its fd, or -1. */
int open_pipe(int i, unsigned int cpu);

/* Every CPU of instance @i added to channel @key: the number, or -1. */
int add_all_cpus(struct ch_cons *c, int i, uint64_t key, int map_fd);

/* babeltrace2 on @dir: this thread's events into @t; false (skip or fail) else. */
bool read_trace(const char *dir, long tid, struct tally *t, bool *skipped);

/* CLOCK_MONOTONIC in ns. */
uint64_t now_mono(void);

/*
 * Pin this thread to CPU 0 and call getppid() @n times, events on in @i;
 * *@ret_last: CLOCK_MONOTONIC before the last call.
 */
bool load(int i, unsigned int n, uint64_t *ret_last);

/*
 * The packets of the stream file @path: the latest timestamp_end
 * (*@ret_end) and the last one's events_discarded (*@ret_discarded);
 * either may be NULL, 0 if none.
 */
void last_packet(const char *path, uint64_t *ret_end, uint64_t *ret_discarded);

/*
 * The switch timer closes the partial packet with the load's last events:
 * written to @path, up to @last, within @ms without a flush (the file
 * polled, bounded).
 */
bool timer_wrote(const char *path, uint64_t last, int ms);

/* The kernel's counters of CPU @cpu of instance @i, for the log. */
void diag_stats(int i, unsigned int cpu);

/* SIGSTOP the consumer (our child) and wait until it is stopped. */
bool stop_consumer(struct ch_cons *c);

/* In babeltrace2's text: the getppid entries of @tid before the first event of @pid. */
int entries_before(const char *out, long tid, long pid);

/* The lines of babeltrace2's text with the event of @pid. */
unsigned int count_pid(const char *out, long pid);

/*
 * CPU 0 of instance @i into tracefs channel @key: its BPF ring (@ring,
 * @lost), then its stream (@map_fd; with @stats, a statistics page, by
 * ADD_FTRACE_STREAM_STATS), then STREAMS_SENT.  True when all took.
 */
bool add_ring_stream(struct ch_cons *c, uint64_t key, int i, int ring, int lost,
		     int map_fd, int stats);

/* Close those of @fds that are open. */
void close_fds(const int *fds, unsigned int n);

/* ftrace's count of the records read from instance @i's CPU 0 ("read events"). */
bool read_events(int i, uint64_t *ret);

/* Root, tracefs, an instance, layouts: else why not (the test skips). */
const char *can_run(void);

/* The instances made, removed (at exit too). */
void remove_instances(void);

#endif
