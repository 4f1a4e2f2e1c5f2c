/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tsdl-trace.h - the CTF traces test_tsdl.c builds by hand for babeltrace2
 * to read (doc/ctf.md): event classes as a program declares them,
 * metadata from the session daemon's TSDL generator (sessiond/ctrace/tsdl.c)
 * packetized by common/trace/ctf.c, a per-UID stream file of two packets laid
 * out byte by byte as the ring buffer writes them with its index, a
 * per-PID trace beside it and a kernel trace apart.  What they hold (the
 * timestamps and ids below) is what test_tsdl.c expects babeltrace2 to
 * print.  Each tt_make_*() reports with tap_ok().
 */
#ifndef LTT_TESTS_TSDL_TRACE_H
#define LTT_TESTS_TSDL_TRACE_H

#include <stdbool.h>
#include <stdint.h>

#include "common/proto/app-proto.h"
#include "sessiond/ctrace/meta.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define SUBBUF_SIZE 4096
#define WRAP27 (UINT64_C(1) << 27)
#define DISCARDED 3		/* events discarded before packet 1 */
#define CLOCK_OFFSET_NS INT64_C(1700000000123456789)	/* 2023-11-14T22:13:20.123456789Z */
#define NR_MANY 300		/* entries of prov:many's enumeration */

/* The event classes' ids. */
enum {
	EV_INTS = 0,
	EV_FLOATS = 1,
	EV_TEXT = 2,
	EV_ARRAYS = 3,
	EV_ENUMS = 4,
	EV_EMPTY = 5,
	EV_MANY = 6,
	EV_WIRE = 7,	/* the field flags: LTTng-UST's network fields and counts */
	EV_FAR = 40,	/* beyond the compact header's ids */
};

/* Timestamps of packet 0's events: see tt_make_stream(). */
#define T_INTS 1000
#define T_FLOATS 1500
#define T_TEXT (T_FLOATS + WRAP27 + 5)			/* > 2^27 later: extended */
#define T_ARRAYS (T_TEXT + 100)				/* compact after extended */
#define T_ENUMS (2 * WRAP27 - 10)			/* extended with a small id */
#define T_EMPTY (2 * WRAP27 + 20)			/* compact, low bits wrapped */
#define T_FAR (T_EMPTY + 30)				/* extended, id 40 */
#define T_MANY (T_FAR + 1)
#define T_BEGIN1 (3 * WRAP27 - 2)			/* packet 2 */
#define T_INTS1 (T_BEGIN1 + 3)				/* compact, wrapped from T_BEGIN1 */
#define T_FAR1 (T_BEGIN1 + 5)
#define T_TEXT1 (T_BEGIN1 + 6)
#define T_ARRAYS1 (T_BEGIN1 + 7)
#define T_WIRE1 (T_ARRAYS1 + 1)
#define T_END1 (T_ARRAYS1 + 10)
#define T_PID (T_FLOATS + 10)	/* the per-PID trace's one event */
#define T_KERNEL (T_PID + 7)	/* the kernel trace's one event */

/* An event class of the per-UID trace. */
struct tt_event_class {
	uint32_t id;
	struct ltt_ust_tracepoint tp;
};

#define TT_NR_EVENT_CLASSES 9
extern const struct tt_event_class tt_event_classes[TT_NR_EVENT_CLASSES];
extern const uint8_t tt_trace_uuid[16];	/* the per-UID trace's */

/* Set by tt_setup(). */
extern char tt_tmpdir[256];
extern char tt_outdir[300];		/* a session's output: two traces */
extern char tt_tracedir[350];		/* the per-UID trace, the main subject */
extern char tt_piddir[350];		/* a per-PID trace beside it */
extern char tt_kerneldir[350];		/* a kernel trace, apart from the session */

/**
 * tt_setup() - fill the event classes' tables, make a temporary directory
 * (in $TMPDIR) and the trace directories; false (reported) on failure
 */
bool tt_setup(void);

/**
 * tt_receive() - what the daemon does with a description: encode @u and
 * decode it with ltt_app_get_tracepoint(); the caller frees the result
 * (NULL on failure)
 */
struct ltt_app_tracepoint *tt_receive(const struct ltt_ust_tracepoint *u);

/** tt_read_file() - the whole file at @path (NUL-terminated; free it), or NULL */
char *tt_read_file(const char *path);

/** tt_make_metadata() - the per-UID trace's metadata: header, stream, each class */
void tt_make_metadata(void);
/** tt_make_stream() - the per-UID trace's stream file (2 packets) and index */
void tt_make_stream(void);
/** tt_make_pid_trace() - a per-PID trace of the same session */
void tt_make_pid_trace(void);
/** tt_make_kernel_trace() - a kernel trace: LTTng's kernel env, one sched_switch */
void tt_make_kernel_trace(void);

/** tt_kernel_desc() - @d as the tracer's EVENT_DESC answers for sched_switch */
void tt_kernel_desc(struct ltt_kabi_event_desc *d);

#endif /* LTT_TESTS_TSDL_TRACE_H */
