/* SPDX-License-Identifier: GPL-2.0-only */
/* ltt-ktest.h - what the parts of ltt-ktest share (see ltt-ktest.c). */
#ifndef LTT_KTEST_H
#define LTT_KTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "abi/ltt-abi.h"

#define MAX_CPUS	64
#define MAX_IDS		64
#define PH_SIZE		84

struct chan {
	int fd;
	int nr;
	int streams[MAX_CPUS];
	struct ltt_kabi_channel attr;
};

extern int test_failed;
/* pull(): the events GET_NEXT_SUBBUF said its packets hold, and how many
 * well-formed packets held another number of events */
extern uint64_t events_counted, events_miscounted;
extern const uint8_t test_uuid[16];
extern struct ltt_kabi_event_desc descs[MAX_IDS];	/* by event id */

struct val {
	int64_t i;
	const uint8_t *p;	/* strings, arrays, sequences */
	uint32_t n;		/* elements */
};

struct event {
	uint32_t id;
	uint32_t cpu;
	uint64_t ts;
	struct val f[LTT_KABI_MAX_FIELDS];
};

struct trace {
	struct event *ev;
	size_t nr, cap;
	uint64_t discarded;	/* sum over streams of the last packet's events_discarded */
	uint64_t packets;
	uint64_t bad;		/* malformed packets or events */
	uint8_t *mem[MAX_CPUS];	/* stream file contents (kept: values point into them) */
};

static inline uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static inline uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}


/* Print "ok N - ..." or "not ok N - ..."; returns @ok. */
bool check(bool ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "not ok" with errno's message and exit 1. */
void die(const char *what) __attribute__((noreturn));
int tracer(void);
int nr_cpus(void);
/* A channel of @sfd with its streams, one per possible CPU (dies on error). */
void channel(int sfd, uint64_t sbsize, uint64_t nsb, int overwrite, struct chan *c);
int enable(int cfd, const char *name, uint32_t id);
void close_chan(struct chan *c);

/* The test probe's fields, in order. */
enum { F_SEQ, F_VALUE, F_NEG, F_FLAGS, F_NAME, F_TAG, F_BYTES };
/* Write N to /proc/ltt-test: N test events, seq 0..N-1 (dies on error). */
void emit_test(unsigned long n);
/* Does @e hold exactly what the test probe records for its seq? */
bool test_event_ok(const struct event *e);
/* Count test events of @t: each seq < @n at most once (@seen, n + 1
 * bytes, marks them), fields right; the others in *@ret_wrong. */
uint64_t count_test(const struct trace *t, uint64_t n, uint64_t *ret_wrong, uint8_t *seen);
void pin_cpu0(void);
/* Write @text to the file @path (dies on error). */
void write_file(const char *path, const char *text);
/* CLOCK_MONOTONIC in ns. */
uint64_t now_ns(void);

/* ltt-ktest-read.c */
/* Fetch the description of @name as the events of id @id (dies on error). */
void describe(int tfd, const char *name, uint32_t id);
/* DIR/metadata: TSDL for stream 0 and every described event. */
void write_metadata(const char *dir);
/* Read every complete packet of @cpu now, appended to @out; returns the
 * number whose splice and mmap (@map) views differ. */
int pull(struct chan *c, int cpu, int out, const uint8_t *map, size_t map_len);
void decode_file(struct chan *c, int cpu, int out, struct trace *t);
size_t map_size(const struct chan *c);
int open_out(const char *dir, int cpu);
/* pull() then decode_file() for every stream of @c (files in @dir or
 * temporary); a stream < 0 (none asked for) is skipped. */
int drain(struct chan *c, const char *dir, struct trace *t);
uint64_t stats_discarded(struct chan *c);

/* ltt-ktest-errors.c */
int cmd_errors(void);
int cmd_fuzz(unsigned long iters);

/* ltt-ktest-lazy.c */
int cmd_lazy(void);
/* The "attached" count /proc/ltt-test reports, or -1. */
long attached(void);
int cmd_syscost(uint64_t n, const char *mode);
int cmd_list(const char *what);
/* The events LIST gives of @kind (dies on error): @ret_count of them, free() it. */
struct ltt_kabi_list_entry *list_events(int tfd, uint32_t kind, uint32_t *ret_count);

/* ltt-ktest-threads.c: a reader, a flusher and timers beside the writer */
int cmd_stress(uint64_t n, uint64_t sbsize, uint64_t nsb, bool room);
int cmd_timers(void);

/* ltt-ktest-snap.c */
int cmd_snapshot(uint64_t n);
/* ltt-ktest-ctx.c: CONTEXT_ADD (1.4) */
int cmd_contexts(void);
/* ltt-ktest-kprobe.c: KPROBE (1.7) */
int cmd_kprobes(const char *dir);
/* ltt-ktest-map.c: MAP and CHANNEL_MEM (1.9) */
int cmd_maps(void);
int cmd_mapread(unsigned int passes);
/* ltt-ktest-hotplug.c: buffers of the CPUs online only (1.10) */
int cmd_hotplug(unsigned int cpu, unsigned int other, uint64_t n);
int cmd_chanmem(uint64_t sbsize, uint64_t nsb);

#endif
