/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracepoint.h - instrument a program for ltt: declare events once, call
 * them anywhere, link with -lltt-ust.  No code generator, no other file.
 *
 * Declaring events (in a header of yours, "provider" and "event" are C
 * identifiers; the event is named "provider:event" in traces):
 *
 *	#include <ltt/tracepoint.h>
 *
 *	LTT_TRACEPOINT_ENUM(myapp, color,
 *		LTT_TP_ENUM_VALUES(
 *			ltt_enum_value("RED", 0)
 *			ltt_enum_range("WARM", 1, 5)))
 *
 *	LTT_TRACEPOINT_EVENT(myapp, hello,
 *		LTT_TP_ARGS(int count, const char *msg, const int32_t *v, size_t n),
 *		LTT_TP_FIELDS(
 *			ltt_field_integer(int, count, count)
 *			ltt_field_integer_hex(uintptr_t, where, (uintptr_t)msg)
 *			ltt_field_float(double, third, count / 3.0)
 *			ltt_field_string(msg, msg)
 *			ltt_field_array(uint8_t, head, msg, 4)
 *			ltt_field_array_text(char, head_text, msg, 4)
 *			ltt_field_sequence(int32_t, values, v, n)
 *			ltt_field_sequence_text(char, text, msg, strlen(msg))
 *			ltt_field_enum(myapp, color, int, color, count % 6)))
 *
 *	LTT_TRACEPOINT_EVENT_LOGLEVEL(myapp, oops, LTT_LOGLEVEL_WARNING,
 *		LTT_TP_ARGS(void), LTT_TP_FIELDS())
 *
 * Recording (the arguments are checked against LTT_TP_ARGS by the
 * compiler, as for any function call):
 *
 *	ltt_tracepoint(myapp, hello, 42, "hi", vals, nvals);
 *	ltt_tracepoint(myapp, oops);
 *	if (ltt_tracepoint_enabled(myapp, hello))	// guard costly arguments
 *		...
 *	ltt_tracef("x=%d", x);	// event "lttng_ust_tracef:event", field "msg"
 *	ltt_tracelog(WARNING, "x=%d", x);	// "lttng_ust_tracelog:TRACE_WARNING",
 *						// fields line, file, func, msg
 *
 * Fields (written in this order, with no padding, as doc/ctf.md says):
 *   ltt_field_integer(type, name, expr)       integer of 1, 2, 4 or 8 bytes
 *   ltt_field_integer_hex(type, name, expr)   same, shown in hexadecimal
 *   ltt_field_float(type, name, expr)         float or double
 *   ltt_field_string(name, expr)              NUL-terminated; NULL is "(null)"
 *   ltt_field_array(type, name, ptr, len)     @len integers at @ptr; @len a
 *   ltt_field_array_hex(...)                  constant 1..65536; NULL ptr: zeros
 *   ltt_field_array_text(type, name, ptr, len)     bytes shown as text
 *   ltt_field_sequence(type, name, ptr, len)  u32 count, then the integers;
 *   ltt_field_sequence_hex(...)               NULL ptr: count 0
 *   ltt_field_sequence_text(type, name, ptr, len)  bytes shown as text
 *   ltt_field_enum(provider, enum, type, name, expr)   an integer labelled
 *                                             by an LTT_TRACEPOINT_ENUM
 * A field's expression may use the event's arguments; each is evaluated
 * once per call, only while the event is enabled.  Text arrays and
 * sequences need a 1-byte element type.  A sequence called N forbids a
 * field called _N_length (the trace has both, as LTTng's have).
 *
 * Log levels: LTT_TRACEPOINT_EVENT_LOGLEVEL takes one of the 15 names of
 * <ltt/ltt-ctl.h> (LTT_LOGLEVEL_EMERG ... LTT_LOGLEVEL_DEBUG), the same
 * name without its prefix (WARNING), or a number 0..14.  It must be one of
 * these tokens, not an expression: a misspelt level does not compile.
 * LTT_TRACEPOINT_EVENT gives LTT_LOGLEVEL_DEBUG_LINE.
 *
 * Cost: a disabled tracepoint is one load and one branch predicted not
 * taken, with no call.  An enabled one calls the event's probe, which
 * reserves room in a per-CPU ring buffer in shared memory, writes and
 * commits, without locks or system calls (see doc/ust.md).
 *
 * How it works.  Every field macro expands to a tuple of eight elements
 * (kind, C type, name, expression, length, base, encoding, enum), and
 * LTT_TP_FIELDS() receives the tuples side by side: (..)(..)(..).  Such a
 * sequence is walked by two macros that call each other: LTT_TP_X_A(tuple)
 * emits something and ends with the name LTT_TP_X_B, which the next tuple's
 * parentheses invoke, and so on; after the last tuple the name left over is
 * pasted with _END, which expands to nothing.  There is no length limit.
 * LTT_TRACEPOINT_EVENT walks the list six times to generate, for each
 * event, in the including file:
 *   - a static field array and a static struct ltt_ust_tracepoint (see
 *     <ltt/tracepoint-types.h>) whose address goes into the ELF section
 *     "__ltt_tp_ptrs"; the linker collects one array of them per module
 *     (program or shared object);
 *   - a static probe function with the event's parameter list: it evaluates
 *     the fields into locals, sums their sizes, then asks libltt-ust for
 *     room (ltt_ust_probe_reserve()) and copies the fields there, once for
 *     each session recording the event (ltt_ust_probe_commit() gives the
 *     next room).  When a session filters the event or records the ip
 *     context (the descriptor's state is not LTT_UST_STATE_ON but has
 *     LTT_UST_STATE_CALL), the probe first gathers the fields' values
 *     into an array of struct ltt_ust_arg and asks through
 *     ltt_ust_probe_reserve_filter(), with its call site, which runs the
 *     filters; otherwise the probe costs one test of the state more than
 *     with neither, and stores nothing for them.
 * ltt_tracepoint() tests the descriptor's state and calls the probe.  This
 * header also gives each file that includes it a constructor that hands the
 * module's section to libltt-ust (ltt_ust_register_module()), which
 * registers the module once with the session daemons, a destructor that
 * withdraws it (dlclose()), and a weak marker, ltt_tp_main_marker, by which
 * libltt-ust learns whether the program itself is instrumented.  A header of events may be included by several
 * files of a module: each file gets its own copies, libltt-ust treats
 * descriptors of the same name as one event.
 */
#ifndef LTT_TRACEPOINT_H
#define LTT_TRACEPOINT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <ltt/tracepoint-types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* The library's side: called by the code this header generates.       */

/*
 * The state of one event being recorded, on the probe's stack.  Private to
 * libltt-ust (its layout is part of LTT_UST_TRACEPOINT_ABI).
 */
struct ltt_ust_ctx {
	const void *ltt_targets;	/* the event's sessions, under RCU */
	void *ltt_stream;		/* where the slot was reserved */
	void *ltt_data;			/* the slot, as the ring buffer gave it */
	uint64_t ltt_pos;
	uint64_t ltt_ts;
	uint64_t ltt_ts_delta;
	uint64_t ltt_len;
	size_t ltt_payload_len;
	uint32_t ltt_next;		/* the next target to try */
	uint32_t ltt_reserved0;		/* LTT_UST_CTX_IP_SET: ltt_reserved[1] is the call site */
	uint64_t ltt_reserved[2];
};

/*
 * Set before ltt_ust_probe_reserve() by the probes of earlier headers (the
 * ip context): the probe's return address, the tracepoint's call site, is
 * in ltt_reserved[1].  libltt-ust still reads it for the descriptors of
 * ABI 1.  This header's probes pass the call site only when the state has
 * LTT_UST_STATE_CALL, in their struct ltt_ust_call, and leave the context
 * alone otherwise: their plain path stores nothing for the ip.
 */
#define LTT_UST_CTX_IP_SET 0x1d9c3e71u

/**
 * ltt_ust_register_module() - hand libltt-ust the tracepoints of a module
 * @start: the module's __start___ltt_tp_ptrs, or NULL when it has none
 * @stop: its __stop___ltt_tp_ptrs
 * @anchor: the address of any object of the calling module (tells the
 *          program from its libraries)
 *
 * Called by the constructor of every file that includes this header.  The
 * first call for a module records its descriptors and, for the first module
 * of the process, registers the process with the session daemons: the call
 * then waits, at most LTT_UST_REGISTER_TIMEOUT milliseconds (default 3000;
 * 0: no wait), and only while a daemon answers, so that events enabled
 * before the program started are recorded from the first call.  Later calls
 * for the same module only count it.  Never fails: without a daemon the
 * program runs untraced.
 */
void ltt_ust_register_module(struct ltt_ust_tracepoint *const *start,
			     struct ltt_ust_tracepoint *const *stop, const void *anchor);

/**
 * ltt_ust_unregister_module() - withdraw a module's tracepoints
 * @start: as given to ltt_ust_register_module()
 *
 * Called by the destructor of every file that includes this header; the
 * last call for a module disables its tracepoints and returns once no
 * thread can still be recording into their descriptors.
 */
void ltt_ust_unregister_module(struct ltt_ust_tracepoint *const *start);

/**
 * ltt_ust_probe_reserve() - room for one event in the first session that
 * records @tp
 * @ctx: the probe's context, on its stack (no initialization needed)
 * @tp: the event's descriptor
 * @payload_len: bytes of the fields
 *
 * For generated probes only.  Returns where to write @payload_len bytes
 * (the event header is written), then call ltt_ust_probe_commit(); or NULL
 * when no session records the event now (nothing to commit).
 * Lock-free, no system call, async-signal-safe.
 */
void *ltt_ust_probe_reserve(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			    size_t payload_len);

/*
 * One field's value as the probe computed it, for filters (ABI 2):
 * integers, enums and floats: @p points to the value; strings: @p the
 * bytes, @n the length without the NUL; arrays and sequences: @p the
 * elements (NULL: zeros), @n their count.
 */
struct ltt_ust_arg {
	const void *p;
	uint32_t n;
};

/*
 * A filtered call, on the probe's stack for the whole probe: the
 * arguments the filters read and the call site the ip context records
 * (the context's ltt_reserved[1] points to it: the context has no room
 * for both).
 */
struct ltt_ust_call {
	const struct ltt_ust_arg *args;
	uint32_t nr_args;
	uint32_t reserved0;	/* 0 */
	uint64_t ip;
};

/**
 * ltt_ust_probe_reserve_filter() - ltt_ust_probe_reserve() for an event
 * whose state has LTT_UST_STATE_CALL: some session filters it or records
 * the ip context
 * @call: the value of each field, in the order of the descriptor's
 *        fields, and the call site; it must outlive the last
 *        ltt_ust_probe_commit() of the event
 *
 * Runs each session's filter programs on @args before reserving: a session
 * that has programs for the event gets it only when one of them accepts.
 * A session with the ip context records @call->ip.
 * Lock-free, no system call but what a context field the filter reads may
 * cost on its thread's first event, async-signal-safe.
 */
void *ltt_ust_probe_reserve_filter(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
				   size_t payload_len, const struct ltt_ust_call *call);

/**
 * ltt_ust_probe_commit() - publish the event written at the last room
 * and get room in the next session that records it
 * @ctx: as set by ltt_ust_probe_reserve()
 *
 * Returns the next room, or NULL when every session has its copy.
 */
void *ltt_ust_probe_commit(struct ltt_ust_ctx *ctx);

/**
 * ltt_ust_probe_commit_copy() - ltt_ust_probe_commit() for a probe that
 * wrote the event once, into the first room: publish it, and copy its
 * payload into the room of each further session recording it
 * @ctx: as set by ltt_ust_probe_reserve()
 * @payload: the first room (borrowed); @len: its payload bytes, as reserved
 *
 * A session's filters that reject the event, or a full buffer, leave that
 * session without a copy.  Lock-free, async-signal-safe.
 */
void ltt_ust_probe_commit_copy(struct ltt_ust_ctx *ctx, const void *payload, size_t len);

/* The tracepoint of ltt_tracef(), defined in libltt-ust. */
extern struct ltt_ust_tracepoint ltt_ust_tracef_event;

/* ltt_tracelog()'s, one per log level: lttng_ust_tracelog:TRACE_EMERG .. */
#define LTT_UST_TRACELOG_LEVELS 15
extern struct ltt_ust_tracepoint ltt_ust_tracelog_events[LTT_UST_TRACELOG_LEVELS];

/**
 * ltt_ust_tracef() - record a printf-style message; use ltt_tracef()
 * @fmt: printf format, then its arguments
 *
 * The event is lttng_ust_tracef:event, its field msg a text sequence.
 * The message is formatted on the stack and cut at LTT_UST_TRACEF_MAX - 1
 * bytes (or at a %c of 0).  Not async-signal-safe (vsnprintf()).
 */
void ltt_ust_tracef(const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 1, 2)))
#endif
	;

/**
 * ltt_ust_tracelog() - record a printf-style message at a log level, with
 * its source location; use ltt_tracelog()
 * @level: 0 (EMERG) .. 14 (DEBUG); others are ignored
 * @file: __FILE__, @line: __LINE__, @func: __func__ (NULL: "(null)")
 * @fmt: printf format, then its arguments
 *
 * The event is lttng_ust_tracelog:TRACE_<LEVEL>, its fields line, file,
 * func and msg.  As ltt_ust_tracef() otherwise.
 */
void ltt_ust_tracelog(int level, const char *file, int line, const char *func,
		      const char *fmt, ...)
#if defined(__GNUC__)
	__attribute__((format(printf, 5, 6)))
#endif
	;

/**
 * ltt_ust_vtracef_as() - ltt_ust_tracef() with a va_list, recorded as @tp
 * @tp: ltt_ust_tracef_event, or a descriptor with its fields (LTTng-UST's
 *      compatibility layer names its own); borrowed
 * @ip: the call site, for the ip context
 */
void ltt_ust_vtracef_as(struct ltt_ust_tracepoint *tp, uint64_t ip, const char *fmt,
			va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 3, 0)))
#endif
	;

/**
 * ltt_ust_vtracelog_as() - ltt_ust_tracelog() with a va_list, recorded as @tp
 * @tp: one of ltt_ust_tracelog_events, or a descriptor with their fields;
 *      borrowed
 * @ip: the call site, for the ip context
 */
void ltt_ust_vtracelog_as(struct ltt_ust_tracepoint *tp, uint64_t ip, const char *file,
			  int line, const char *func, const char *fmt, va_list ap)
#if defined(__GNUC__)
	__attribute__((format(printf, 6, 0)))
#endif
	;

/**
 * ltt_ust_objects_update() - record the objects (libraries) loaded and
 * unloaded since the last call, as lttng-ust records them for its dl
 * helper: lttng_ust_lib:load, then lttng_ust_lib:build_id and
 * lttng_ust_lib:debug_link when the object has them, for each object
 * loaded; lttng_ust_lib:unload for each object gone
 * @ip: the call site (the ip context)
 *
 * The first call records nothing: it learns what is loaded.  Call after
 * dlopen() or dlclose() returned.  Not async-signal-safe (it allocates
 * and reads files); any thread.
 */
void ltt_ust_objects_update(uint64_t ip);

/**
 * ltt_ust_namespaces_changed() - forget the calling thread's namespace
 * ids, so that the *_ns contexts (cgroup_ns ... uts_ns) read them again
 * at its next event
 *
 * libltt-ust calls it itself when unshare() or setns() succeeds in a
 * program that links it (it wraps both), and LTTng's fork helper
 * (liblttng-ust-fork.so) through ltt's liblttng-ust.so.1.  Call it after
 * entering namespaces otherwise (syscall(SYS_setns, ...), a clone()d
 * thread that unshares).  Async-signal-safe; the calling thread only.
 */
void ltt_ust_namespaces_changed(void);

/**
 * ltt_ust_fd_owned() - 1 if libltt-ust keeps @fd open (a socket to
 * a session daemon, an eventfd, a stream's lock), else 0
 *
 * For a program's "close every fd" (LTTng's fd helper asks through
 * liblttng-ust-common's safe-close functions): leave these open.
 * Lock-free, async-signal-safe.  Check and close under ltt_ust_fd_lock(),
 * or libltt-ust could create the fd between the two.
 */
int ltt_ust_fd_owned(int fd);

/**
 * ltt_ust_fd_lock() / ltt_ust_fd_unlock() - the lock libltt-ust holds
 * while it creates an fd and adds it to its set
 *
 * Nests within a thread (a signal handler's close inside a thread that
 * holds it does not wait).  Hold it only for a check and a close.
 */
void ltt_ust_fd_lock(void);
void ltt_ust_fd_unlock(void);

/**
 * ltt_ust_fd_lock_held() - 1 if the calling thread holds ltt_ust_fd_lock()
 * (a close it makes then is the tracer's own, of an fd it may still have
 * in the set), else 0.  Async-signal-safe.
 */
int ltt_ust_fd_lock_held(void);

/**
 * ltt_ust_fd_own() - add @fd to the set of ltt_ust_fd_owned(): an fd the
 * tracer keeps open (libltt-ust's own, or one of LTTng's helper
 * libraries, through lttng_ust_add_fd_to_tracker()); a negative @fd is
 * ignored, one from 65536 up is not kept (said under LTT_UST_DEBUG).
 * Create the fd and add it under ltt_ust_fd_lock().  Lock-free.
 */
void ltt_ust_fd_own(int fd);

/**
 * ltt_ust_fd_disown() - take @fd out of the set, before closing it.
 * Lock-free.
 */
void ltt_ust_fd_disown(int fd);

/**
 * ltt_ust_getcpu_set() - take each event's CPU from @getcpu instead of
 * the processor (LTTng-UST's getcpu plugin: lttng_ust_getcpu_override());
 * NULL: the processor's again.  The number picks the event's per-CPU
 * buffer (modulo their number) and is its cpu_id.  @getcpu is called
 * from any thread, in a signal handler too, once per event and channel.
 */
void ltt_ust_getcpu_set(int (*getcpu)(void));

#define LTT_UST_TRACEF_MAX 512

/* ------------------------------------------------------------------ */
/* Recording.                                                          */

#define ltt_tracepoint_enabled(provider, event) \
	__builtin_expect(!!LTT_TP_DESC(provider, event).state, 0)

/*
 * ltt_tracepoint(provider, event, args...): a call with no arguments is
 * written ltt_tracepoint(provider, event).  At most 30 arguments.
 */
#define ltt_tracepoint(...) \
	LTT_TP_PASTE(LTT_TP_CALL_, LTT_TP_ARGS_KIND(__VA_ARGS__))(__VA_ARGS__)

#define ltt_tracef(...) \
	do { \
		if (__builtin_expect(!!ltt_ust_tracef_event.state, 0)) \
			ltt_ust_tracef(__VA_ARGS__); \
	} while (0)

/*
 * ltt_tracelog(level, fmt, args...): @level as for
 * LTT_TRACEPOINT_EVENT_LOGLEVEL, or LTTng's TRACE_WARNING spelling.
 */
#define ltt_tracelog(level, ...) \
	do { \
		if (__builtin_expect(!!ltt_ust_tracelog_events[LTT_TP_PASTE(LTT_TP_LL_, level)].state, \
				     0)) \
			ltt_ust_tracelog(LTT_TP_PASTE(LTT_TP_LL_, level), __FILE__, __LINE__, \
					 __func__, __VA_ARGS__); \
	} while (0)

/* ------------------------------------------------------------------ */
/* Declaring.                                                          */

#define LTT_TP_ARGS(...) (__VA_ARGS__)
#define LTT_TP_FIELDS(fields) fields
#define LTT_TP_ENUM_VALUES(values) values

#define LTT_TRACEPOINT_EVENT(provider, event, args, fields) \
	LTT_TRACEPOINT_EVENT_LOGLEVEL(provider, event, LTT_LOGLEVEL_DEBUG_LINE, args, fields)

#define LTT_TRACEPOINT_EVENT_LOGLEVEL(provider, event, level, args, fields) \
	LTT_TP_DEFINE_DESC(provider, event, LTT_TP_PASTE(LTT_TP_LL_, level), fields) \
	LTT_TP_DEFINE_PROBE(provider, event, args, fields)

/* ltt_enum_value(label, value), ltt_enum_range(label, first, last): inclusive */
#define LTT_TRACEPOINT_ENUM(provider, name, values) \
	static const struct ltt_ust_enum_entry LTT_TP_ENUM_ENTRIES(provider, name)[] = { \
		LTT_TP_ENUM_A values (LTT_TP_END, 0, 0, 0) \
	}; \
	static const struct ltt_ust_enum_desc LTT_TP_ENUM(provider, name) \
		LTT_TP_UNUSED = { \
		#provider ":" #name, \
		(uint32_t)(sizeof(LTT_TP_ENUM_ENTRIES(provider, name)) / \
			   sizeof(LTT_TP_ENUM_ENTRIES(provider, name)[0])), \
		LTT_TP_ENUM_ENTRIES(provider, name) \
	};

#define ltt_enum_value(label, value) (LTT_TP_VALUE, label, value, value)
#define ltt_enum_range(label, first, last) (LTT_TP_VALUE, label, first, last)

/* The field macros: (kind, type, name, expr, length, base, encoding, enum) */
#define ltt_field_integer(type, name, expr) \
	(LTT_UST_TYPE_INTEGER, type, name, expr, 0, 10, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_integer_hex(type, name, expr) \
	(LTT_UST_TYPE_INTEGER, type, name, expr, 0, 16, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_float(type, name, expr) \
	(LTT_UST_TYPE_FLOAT, type, name, expr, 0, 0, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_string(name, expr) \
	(LTT_UST_TYPE_STRING, char, name, expr, 0, 0, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_array(type, name, ptr, len) \
	(LTT_UST_TYPE_ARRAY, type, name, ptr, len, 10, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_array_hex(type, name, ptr, len) \
	(LTT_UST_TYPE_ARRAY, type, name, ptr, len, 16, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_array_text(type, name, ptr, len) \
	(LTT_UST_TYPE_ARRAY, type, name, ptr, len, 10, LTT_UST_ENCODING_UTF8, NULL)
#define ltt_field_sequence(type, name, ptr, len) \
	(LTT_UST_TYPE_SEQUENCE, type, name, ptr, len, 10, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_sequence_hex(type, name, ptr, len) \
	(LTT_UST_TYPE_SEQUENCE, type, name, ptr, len, 16, LTT_UST_ENCODING_NONE, NULL)
#define ltt_field_sequence_text(type, name, ptr, len) \
	(LTT_UST_TYPE_SEQUENCE, type, name, ptr, len, 10, LTT_UST_ENCODING_UTF8, NULL)
#define ltt_field_enum(provider, enum_name, type, name, expr) \
	(LTT_UST_TYPE_ENUM, type, name, expr, 0, 10, LTT_UST_ENCODING_NONE, \
	 &LTT_TP_ENUM(provider, enum_name))

/* ------------------------------------------------------------------ */
/* Everything below is internal to this header.                        */

#define LTT_TP_PASTE(a, b) LTT_TP_PASTE_(a, b)
#define LTT_TP_PASTE_(a, b) a##b

/*
 * Walking a list: "LTT_TP_X_A (t1)(t2) (LTT_TP_END, ...)".  Each step
 * emits its output, then the name of the other step, LTT_TP_X_B or
 * LTT_TP_X_A, which the next tuple's parentheses invoke.  The step that
 * receives the closing LTT_TP_END tuple emits nothing and names
 * LTT_TP_X_A_END or LTT_TP_X_B_END instead, which are empty.  The closing
 * tuple must be written out (a macro expanding to it would not be seen as
 * the call's parentheses).  The walk runs as the replacement text is
 * rescanned, never inside a macro argument, so its output may hold commas.
 */
#define LTT_TP_NEXT(step, kind) LTT_TP_PASTE(step, LTT_TP_PASTE(LTT_TP_STOP_, kind))
#define LTT_TP_STOP_LTT_UST_TYPE_INTEGER
#define LTT_TP_STOP_LTT_UST_TYPE_FLOAT
#define LTT_TP_STOP_LTT_UST_TYPE_STRING
#define LTT_TP_STOP_LTT_UST_TYPE_ARRAY
#define LTT_TP_STOP_LTT_UST_TYPE_SEQUENCE
#define LTT_TP_STOP_LTT_UST_TYPE_ENUM
#define LTT_TP_STOP_LTT_TP_VALUE
#define LTT_TP_STOP_LTT_TP_END _END

#define LTT_TP_DESC(p, e) ltt_tp_desc__##p##__##e
#define LTT_TP_PROBE(p, e) ltt_tp_probe__##p##__##e
#define LTT_TP_FIELDS_ARRAY(p, e) ltt_tp_fields__##p##__##e
#define LTT_TP_PTR(p, e) ltt_tp_ptr__##p##__##e
#define LTT_TP_ENUM(p, n) ltt_tp_enum__##p##__##n
#define LTT_TP_ENUM_ENTRIES(p, n) ltt_tp_enum_entries__##p##__##n

#if defined(__GNUC__)
#define LTT_TP_UNUSED __attribute__((unused))
#define LTT_TP_NOINLINE __attribute__((noinline, unused))
#define LTT_TP_SECTION __attribute__((section("__ltt_tp_ptrs"), used))
#define LTT_TP_DIAG_PUSH _Pragma("GCC diagnostic push") \
	_Pragma("GCC diagnostic ignored \"-Wunused-parameter\"")
#define LTT_TP_DIAG_POP _Pragma("GCC diagnostic pop")
#else
#error "<ltt/tracepoint.h> needs GCC or Clang (sections, constructors)"
#endif

/* A compile-time check usable in constant expressions: 0 or an error. */
#define LTT_TP_CHECK(cond) (0 * sizeof(char[(cond) ? 1 : -1]))

/* Log levels, by name with or without prefix (LTTng's TRACE_ too), or by number. */
#define LTT_TP_LL_LTT_LOGLEVEL_EMERG 0
#define LTT_TP_LL_LTT_LOGLEVEL_ALERT 1
#define LTT_TP_LL_LTT_LOGLEVEL_CRIT 2
#define LTT_TP_LL_LTT_LOGLEVEL_ERR 3
#define LTT_TP_LL_LTT_LOGLEVEL_WARNING 4
#define LTT_TP_LL_LTT_LOGLEVEL_NOTICE 5
#define LTT_TP_LL_LTT_LOGLEVEL_INFO 6
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_SYSTEM 7
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_PROGRAM 8
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_PROCESS 9
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_MODULE 10
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_UNIT 11
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_FUNCTION 12
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG_LINE 13
#define LTT_TP_LL_LTT_LOGLEVEL_DEBUG 14
#define LTT_TP_LL_EMERG 0
#define LTT_TP_LL_ALERT 1
#define LTT_TP_LL_CRIT 2
#define LTT_TP_LL_ERR 3
#define LTT_TP_LL_WARNING 4
#define LTT_TP_LL_NOTICE 5
#define LTT_TP_LL_INFO 6
#define LTT_TP_LL_DEBUG_SYSTEM 7
#define LTT_TP_LL_DEBUG_PROGRAM 8
#define LTT_TP_LL_DEBUG_PROCESS 9
#define LTT_TP_LL_DEBUG_MODULE 10
#define LTT_TP_LL_DEBUG_UNIT 11
#define LTT_TP_LL_DEBUG_FUNCTION 12
#define LTT_TP_LL_DEBUG_LINE 13
#define LTT_TP_LL_DEBUG 14
#define LTT_TP_LL_TRACE_EMERG 0
#define LTT_TP_LL_TRACE_ALERT 1
#define LTT_TP_LL_TRACE_CRIT 2
#define LTT_TP_LL_TRACE_ERR 3
#define LTT_TP_LL_TRACE_WARNING 4
#define LTT_TP_LL_TRACE_NOTICE 5
#define LTT_TP_LL_TRACE_INFO 6
#define LTT_TP_LL_TRACE_DEBUG_SYSTEM 7
#define LTT_TP_LL_TRACE_DEBUG_PROGRAM 8
#define LTT_TP_LL_TRACE_DEBUG_PROCESS 9
#define LTT_TP_LL_TRACE_DEBUG_MODULE 10
#define LTT_TP_LL_TRACE_DEBUG_UNIT 11
#define LTT_TP_LL_TRACE_DEBUG_FUNCTION 12
#define LTT_TP_LL_TRACE_DEBUG_LINE 13
#define LTT_TP_LL_TRACE_DEBUG 14
#define LTT_TP_LL_0 0
#define LTT_TP_LL_1 1
#define LTT_TP_LL_2 2
#define LTT_TP_LL_3 3
#define LTT_TP_LL_4 4
#define LTT_TP_LL_5 5
#define LTT_TP_LL_6 6
#define LTT_TP_LL_7 7
#define LTT_TP_LL_8 8
#define LTT_TP_LL_9 9
#define LTT_TP_LL_10 10
#define LTT_TP_LL_11 11
#define LTT_TP_LL_12 12
#define LTT_TP_LL_13 13
#define LTT_TP_LL_14 14

/*
 * ltt_tracepoint() dispatch: LTT_TP_CALL_0 for (provider, event) alone,
 * LTT_TP_CALL_N with arguments.  Counting keeps the macro valid ISO C99
 * (a "..." parameter may not be left empty there).
 */
#define LTT_TP_ARGS_KIND(...) LTT_TP_PICK_33RD(__VA_ARGS__, \
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, \
	N, N, N, N, N, N, N, N, N, N, N, N, N, N, N, 0, TOO_FEW, ERROR)
#define LTT_TP_PICK_33RD(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, \
			 a15, a16, a17, a18, a19, a20, a21, a22, a23, a24, a25, a26, \
			 a27, a28, a29, a30, a31, a32, x, ...) x
#define LTT_TP_CALL_0(provider, event) LTT_TP_CALL(provider, event, ())
#define LTT_TP_CALL_N(provider, event, ...) LTT_TP_CALL(provider, event, (__VA_ARGS__))
#define LTT_TP_CALL(provider, event, call_args) \
	do { \
		if (__builtin_expect(!!LTT_TP_DESC(provider, event).state, 0)) \
			LTT_TP_PROBE(provider, event) call_args; \
	} while (0)

/*
 * Descriptor of one field.  The LTT_TP_CHECKs refuse, at compile time,
 * what the daemon would refuse at run time (app-proto.h's table).
 */
#define LTT_TP_SIGNED(type) ((type)-1 < (type)1)
#define LTT_TP_INT_SIZE_OK(type) \
	(sizeof(type) == 1 || sizeof(type) == 2 || sizeof(type) == 4 || sizeof(type) == 8)
#define LTT_TP_FIELD_DESC(kind, type, name, expr, len, base, enc, en) \
	{ #name, (uint8_t)(kind), \
	  (uint8_t)(sizeof(type) + LTT_TP_PASTE(LTT_TP_SIZECHECK_, kind)(type, len, enc)), \
	  (uint8_t)LTT_TP_PASTE(LTT_TP_ISSIGNED_, kind)(type), (uint8_t)(base), (uint8_t)(enc), \
	  0, { 0, 0 }, (uint32_t)LTT_TP_PASTE(LTT_TP_LENGTH_, kind)(len), (en) },
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_INTEGER(type, len, enc) LTT_TP_CHECK(LTT_TP_INT_SIZE_OK(type))
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_ENUM(type, len, enc) LTT_TP_CHECK(LTT_TP_INT_SIZE_OK(type))
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_FLOAT(type, len, enc) \
	LTT_TP_CHECK(sizeof(type) == 4 || sizeof(type) == 8)
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_STRING(type, len, enc) 0
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_ARRAY(type, len, enc) \
	(LTT_TP_CHECK(LTT_TP_INT_SIZE_OK(type) && (len) >= 1 && (len) <= 65536) + \
	 LTT_TP_CHECK((enc) == LTT_UST_ENCODING_NONE || sizeof(type) == 1))
#define LTT_TP_SIZECHECK_LTT_UST_TYPE_SEQUENCE(type, len, enc) \
	(LTT_TP_CHECK(LTT_TP_INT_SIZE_OK(type)) + \
	 LTT_TP_CHECK((enc) == LTT_UST_ENCODING_NONE || sizeof(type) == 1))
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_INTEGER(type) LTT_TP_SIGNED(type)
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_ENUM(type) LTT_TP_SIGNED(type)
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_ARRAY(type) LTT_TP_SIGNED(type)
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_SEQUENCE(type) LTT_TP_SIGNED(type)
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_FLOAT(type) 0
#define LTT_TP_ISSIGNED_LTT_UST_TYPE_STRING(type) 0
#define LTT_TP_LENGTH_LTT_UST_TYPE_ARRAY(len) (len)
#define LTT_TP_LENGTH_LTT_UST_TYPE_INTEGER(len) 0
#define LTT_TP_LENGTH_LTT_UST_TYPE_ENUM(len) 0
#define LTT_TP_LENGTH_LTT_UST_TYPE_FLOAT(len) 0
#define LTT_TP_LENGTH_LTT_UST_TYPE_STRING(len) 0
#define LTT_TP_LENGTH_LTT_UST_TYPE_SEQUENCE(len) 0

/* Walk 1: the field array.  The last, zeroed entry lets it be non-empty. */
#define LTT_TP_FDESC(k, t, n, x, l, b, e, en) \
	LTT_TP_PASTE(LTT_TP_FDESC_, k)(k, t, n, x, l, b, e, en)
#define LTT_TP_FDESC_LTT_UST_TYPE_INTEGER LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_UST_TYPE_FLOAT LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_UST_TYPE_STRING LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_UST_TYPE_ARRAY LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_UST_TYPE_SEQUENCE LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_UST_TYPE_ENUM LTT_TP_FIELD_DESC
#define LTT_TP_FDESC_LTT_TP_END(k, t, n, x, l, b, e, en)
#define LTT_TP_FDESC_A(k, t, n, x, l, b, e, en) \
	LTT_TP_FDESC(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_FDESC_B, k)
#define LTT_TP_FDESC_B(k, t, n, x, l, b, e, en) \
	LTT_TP_FDESC(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_FDESC_A, k)
#define LTT_TP_FDESC_A_END
#define LTT_TP_FDESC_B_END

#define LTT_TP_DEFINE_DESC(p, e, level, fields) \
	static const struct ltt_ust_field LTT_TP_FIELDS_ARRAY(p, e)[] = { \
		LTT_TP_FDESC_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0) \
		{ NULL, 0, 0, 0, 0, 0, 0, { 0, 0 }, 0, NULL } \
	}; \
	static struct ltt_ust_tracepoint LTT_TP_DESC(p, e) LTT_TP_UNUSED = { \
		LTT_UST_TRACEPOINT_ABI, (level), #p ":" #e, \
		(uint32_t)(sizeof(LTT_TP_FIELDS_ARRAY(p, e)) / sizeof(struct ltt_ust_field) - 1), \
		LTT_TP_FIELDS_ARRAY(p, e), 0, NULL, NULL, { NULL, NULL, NULL } \
	}; \
	static struct ltt_ust_tracepoint *LTT_TP_PTR(p, e) LTT_TP_SECTION = &LTT_TP_DESC(p, e);

/* Walk 2: evaluate every field once, into locals ltt_tp_v_NAME (and _n_). */
#define LTT_TP_LOCAL(k, t, n, x, l, b, e, en) LTT_TP_PASTE(LTT_TP_LOCAL_, k)(t, n, x, l)
#define LTT_TP_LOCAL_LTT_TP_END(t, n, x, l)
#define LTT_TP_LOCAL_LTT_UST_TYPE_INTEGER(t, n, x, l) t ltt_tp_v_##n = (x);
#define LTT_TP_LOCAL_LTT_UST_TYPE_ENUM(t, n, x, l) t ltt_tp_v_##n = (x);
#define LTT_TP_LOCAL_LTT_UST_TYPE_FLOAT(t, n, x, l) t ltt_tp_v_##n = (x);
#define LTT_TP_LOCAL_LTT_UST_TYPE_STRING(t, n, x, l) \
	const char *ltt_tp_v_##n = ltt_tp_string_or_null(x); \
	size_t ltt_tp_n_##n = strlen(ltt_tp_v_##n);
#define LTT_TP_LOCAL_LTT_UST_TYPE_ARRAY(t, n, x, l) const void *ltt_tp_v_##n = (x);
#define LTT_TP_LOCAL_LTT_UST_TYPE_SEQUENCE(t, n, x, l) \
	const void *ltt_tp_v_##n = (x); \
	uint32_t ltt_tp_n_##n = ltt_tp_v_##n ? (uint32_t)(l) : 0;
#define LTT_TP_LOCAL_A(k, t, n, x, l, b, e, en) \
	LTT_TP_LOCAL(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_LOCAL_B, k)
#define LTT_TP_LOCAL_B(k, t, n, x, l, b, e, en) \
	LTT_TP_LOCAL(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_LOCAL_A, k)
#define LTT_TP_LOCAL_A_END
#define LTT_TP_LOCAL_B_END

/* Walk 3: "+ bytes" of every field. */
#define LTT_TP_SIZE(k, t, n, x, l, b, e, en) LTT_TP_PASTE(LTT_TP_SIZE_, k)(t, n, l)
#define LTT_TP_SIZE_LTT_TP_END(t, n, l)
#define LTT_TP_SIZE_LTT_UST_TYPE_INTEGER(t, n, l) + sizeof(t)
#define LTT_TP_SIZE_LTT_UST_TYPE_ENUM(t, n, l) + sizeof(t)
#define LTT_TP_SIZE_LTT_UST_TYPE_FLOAT(t, n, l) + sizeof(t)
#define LTT_TP_SIZE_LTT_UST_TYPE_STRING(t, n, l) + ltt_tp_n_##n + 1
#define LTT_TP_SIZE_LTT_UST_TYPE_ARRAY(t, n, l) + (size_t)(l) * sizeof(t)
#define LTT_TP_SIZE_LTT_UST_TYPE_SEQUENCE(t, n, l) + 4 + (size_t)ltt_tp_n_##n * sizeof(t)
#define LTT_TP_SIZE_A(k, t, n, x, l, b, e, en) \
	LTT_TP_SIZE(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_SIZE_B, k)
#define LTT_TP_SIZE_B(k, t, n, x, l, b, e, en) \
	LTT_TP_SIZE(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_SIZE_A, k)
#define LTT_TP_SIZE_A_END
#define LTT_TP_SIZE_B_END

/* Walk 4: copy every field at ltt_tp_p and advance it. */
#define LTT_TP_WRITE(k, t, n, x, l, b, e, en) LTT_TP_PASTE(LTT_TP_WRITE_, k)(t, n, l)
#define LTT_TP_WRITE_LTT_TP_END(t, n, l)
#define LTT_TP_WRITE_LTT_UST_TYPE_INTEGER(t, n, l) \
	memcpy(ltt_tp_p, &ltt_tp_v_##n, sizeof(t)); ltt_tp_p += sizeof(t);
#define LTT_TP_WRITE_LTT_UST_TYPE_ENUM LTT_TP_WRITE_LTT_UST_TYPE_INTEGER
#define LTT_TP_WRITE_LTT_UST_TYPE_FLOAT LTT_TP_WRITE_LTT_UST_TYPE_INTEGER
#define LTT_TP_WRITE_LTT_UST_TYPE_STRING(t, n, l) \
	ltt_tp_p = ltt_tp_put_string(ltt_tp_p, ltt_tp_v_##n, ltt_tp_n_##n + 1);
#define LTT_TP_WRITE_LTT_UST_TYPE_ARRAY(t, n, l) \
	ltt_tp_p = ltt_tp_put_bytes(ltt_tp_p, ltt_tp_v_##n, (size_t)(l) * sizeof(t));
#define LTT_TP_WRITE_LTT_UST_TYPE_SEQUENCE(t, n, l) \
	memcpy(ltt_tp_p, &ltt_tp_n_##n, 4); \
	ltt_tp_p = ltt_tp_put_bytes(ltt_tp_p + 4, ltt_tp_v_##n, (size_t)ltt_tp_n_##n * sizeof(t));
#define LTT_TP_WRITE_A(k, t, n, x, l, b, e, en) \
	LTT_TP_WRITE(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_WRITE_B, k)
#define LTT_TP_WRITE_B(k, t, n, x, l, b, e, en) \
	LTT_TP_WRITE(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_WRITE_A, k)
#define LTT_TP_WRITE_A_END
#define LTT_TP_WRITE_B_END

/*
 * Walks 5 and 6, for an event whose state is not LTT_UST_STATE_ON (some
 * session filters it or records the ip context).  The probe declares, at
 * its top, addressable copies of the scalar fields (walk 5) and the
 * argument array of the filters (as long as the field array: one per
 * field, and one), and fills them (walk 6) only on that path: the values
 * the probe writes stay in registers, and the call outlives the last
 * ltt_ust_probe_commit(), whose next sessions' filters and ip context
 * read it.
 */
#define LTT_TP_COPY(k, t, n, x, l, b, e, en) LTT_TP_PASTE(LTT_TP_COPY_, k)(t, n)
#define LTT_TP_COPY_LTT_TP_END(t, n)
#define LTT_TP_COPY_LTT_UST_TYPE_INTEGER(t, n) t ltt_tp_c_##n;
#define LTT_TP_COPY_LTT_UST_TYPE_ENUM LTT_TP_COPY_LTT_UST_TYPE_INTEGER
#define LTT_TP_COPY_LTT_UST_TYPE_FLOAT LTT_TP_COPY_LTT_UST_TYPE_INTEGER
#define LTT_TP_COPY_LTT_UST_TYPE_STRING(t, n)
#define LTT_TP_COPY_LTT_UST_TYPE_ARRAY(t, n)
#define LTT_TP_COPY_LTT_UST_TYPE_SEQUENCE(t, n)
#define LTT_TP_COPY_A(k, t, n, x, l, b, e, en) \
	LTT_TP_COPY(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_COPY_B, k)
#define LTT_TP_COPY_B(k, t, n, x, l, b, e, en) \
	LTT_TP_COPY(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_COPY_A, k)
#define LTT_TP_COPY_A_END
#define LTT_TP_COPY_B_END

/* Walk 6: one argument, at ltt_tp_a, which it advances (and the copy). */
#define LTT_TP_SETARG(a, len) \
	ltt_tp_a->p = (a); ltt_tp_a->n = (uint32_t)(len); ltt_tp_a++;
#define LTT_TP_ARG(k, t, n, x, l, b, e, en) LTT_TP_PASTE(LTT_TP_ARG_, k)(t, n, l)
#define LTT_TP_ARG_LTT_TP_END(t, n, l)
#define LTT_TP_ARG_LTT_UST_TYPE_INTEGER(t, n, l) \
	ltt_tp_c_##n = ltt_tp_v_##n; LTT_TP_SETARG(&ltt_tp_c_##n, 0)
#define LTT_TP_ARG_LTT_UST_TYPE_ENUM LTT_TP_ARG_LTT_UST_TYPE_INTEGER
#define LTT_TP_ARG_LTT_UST_TYPE_FLOAT LTT_TP_ARG_LTT_UST_TYPE_INTEGER
#define LTT_TP_ARG_LTT_UST_TYPE_STRING(t, n, l) LTT_TP_SETARG(ltt_tp_v_##n, ltt_tp_n_##n)
#define LTT_TP_ARG_LTT_UST_TYPE_ARRAY(t, n, l) LTT_TP_SETARG(ltt_tp_v_##n, l)
#define LTT_TP_ARG_LTT_UST_TYPE_SEQUENCE(t, n, l) LTT_TP_SETARG(ltt_tp_v_##n, ltt_tp_n_##n)
#define LTT_TP_ARG_A(k, t, n, x, l, b, e, en) \
	LTT_TP_ARG(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_ARG_B, k)
#define LTT_TP_ARG_B(k, t, n, x, l, b, e, en) \
	LTT_TP_ARG(k, t, n, x, l, b, e, en) LTT_TP_NEXT(LTT_TP_ARG_A, k)
#define LTT_TP_ARG_A_END
#define LTT_TP_ARG_B_END

/*
 * The probe.  Unused-parameter warnings are off for it: an argument needs
 * not appear in a field.
 */
#define LTT_TP_DEFINE_PROBE(p, e, args, fields) \
	LTT_TP_DIAG_PUSH \
	static LTT_TP_NOINLINE void LTT_TP_PROBE(p, e) args \
	{ \
		LTT_TP_LOCAL_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0) \
		size_t ltt_tp_len = 0 LTT_TP_SIZE_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0); \
		struct ltt_ust_ctx ltt_tp_ctx; \
		char *ltt_tp_p; \
		LTT_TP_COPY_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0) \
		struct ltt_ust_arg ltt_tp_args[sizeof(LTT_TP_FIELDS_ARRAY(p, e)) / \
					      sizeof(LTT_TP_FIELDS_ARRAY(p, e)[0])]; \
		struct ltt_ust_call ltt_tp_call; \
		if (__builtin_expect(LTT_TP_DESC(p, e).state != LTT_UST_STATE_ON, 0)) { \
			struct ltt_ust_arg *ltt_tp_a = ltt_tp_args; \
			LTT_TP_ARG_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0) \
			const struct ltt_ust_call ltt_tp_this_call = { ltt_tp_args, \
				(uint32_t)(ltt_tp_a - ltt_tp_args), 0, \
				(uint64_t)(uintptr_t)__builtin_return_address(0) }; \
			ltt_tp_call = ltt_tp_this_call; \
			ltt_tp_p = (char *)ltt_ust_probe_reserve_filter(&ltt_tp_ctx, \
				&LTT_TP_DESC(p, e), ltt_tp_len, &ltt_tp_call); \
		} else { \
			ltt_tp_p = (char *)ltt_ust_probe_reserve(&ltt_tp_ctx, &LTT_TP_DESC(p, e), \
								 ltt_tp_len); \
		} \
		for (; ltt_tp_p; ltt_tp_p = (char *)ltt_ust_probe_commit(&ltt_tp_ctx)) { \
			LTT_TP_WRITE_A fields (LTT_TP_END, 0, 0, 0, 0, 0, 0, 0) \
			(void)ltt_tp_p; \
		} \
	} \
	LTT_TP_DIAG_POP

/* Enum values: { first, last, label }. */
#define LTT_TP_ENUM_ENTRY(k, label, first, last) LTT_TP_PASTE(LTT_TP_ENUM_ENTRY_, k)(label, first, last)
#define LTT_TP_ENUM_ENTRY_LTT_TP_VALUE(label, first, last) \
	{ (int64_t)(first), (int64_t)(last), label },
#define LTT_TP_ENUM_ENTRY_LTT_TP_END(label, first, last)
#define LTT_TP_ENUM_A(k, label, first, last) \
	LTT_TP_ENUM_ENTRY(k, label, first, last) LTT_TP_NEXT(LTT_TP_ENUM_B, k)
#define LTT_TP_ENUM_B(k, label, first, last) \
	LTT_TP_ENUM_ENTRY(k, label, first, last) LTT_TP_NEXT(LTT_TP_ENUM_A, k)
#define LTT_TP_ENUM_A_END
#define LTT_TP_ENUM_B_END

static inline const char *ltt_tp_string_or_null(const char *s)
{
	return s ? s : "(null)";
}

/* Non-zero when a byte of @v is 0 (exact: no false positive). */
#define LTT_TP_HAS_NUL64(v) (((v) - 0x0101010101010101ull) & ~(v) & 0x8080808080808080ull)
#define LTT_TP_HAS_NUL32(v) (((v) - 0x01010101u) & ~(v) & 0x80808080u)

/* Replace every NUL of @p[0..@n) by '#'. */
static inline void ltt_tp_fix_string(char *p, size_t n)
{
	char *end = p + n, *nul;

	while ((nul = (char *)memchr(p, '\0', (size_t)(end - p))) != NULL) {
		*nul = '#';
		p = nul + 1;
	}
}

/*
 * Copy a string of @len bytes (NUL included) measured just before.  If
 * another thread changed it meanwhile, the field keeps its length: an early
 * NUL is replaced by '#' and the last byte is a NUL, so readers stay in step.
 *
 * One pass: each word is loaded once, stored, and tested for a NUL in the
 * register, so what is tested is what was written (the last, overlapping
 * word rewrites bytes with values it tested itself).  Only the @len - 1
 * bytes that strlen() saw are read.
 */
static inline char *ltt_tp_put_string(char *dst, const char *src, size_t len)
{
	size_t n = len - 1, i;
	uint64_t nul = 0, v;
	uint32_t w;

	if (n >= 8) {
		memcpy(&v, src, 8);
		memcpy(dst, &v, 8);
		nul = LTT_TP_HAS_NUL64(v);
		for (i = 8; i + 8 < n; i += 8) {
			memcpy(&v, src + i, 8);
			memcpy(dst + i, &v, 8);
			nul |= LTT_TP_HAS_NUL64(v);
		}
		memcpy(&v, src + n - 8, 8);
		memcpy(dst + n - 8, &v, 8);
		nul |= LTT_TP_HAS_NUL64(v);
	} else if (n >= 4) {
		memcpy(&w, src, 4);
		memcpy(dst, &w, 4);
		nul = LTT_TP_HAS_NUL32(w);
		memcpy(&w, src + n - 4, 4);
		memcpy(dst + n - 4, &w, 4);
		nul |= LTT_TP_HAS_NUL32(w);
	} else {
		for (i = 0; i < n; i++) {
			char c = src[i];

			dst[i] = c;
			nul |= c == '\0';
		}
	}
	if (__builtin_expect(nul != 0, 0))
		ltt_tp_fix_string(dst, n);
	dst[n] = '\0';
	return dst + len;
}

/* Copy @len bytes of an array or sequence; a NULL array reads as zeros. */
static inline char *ltt_tp_put_bytes(char *dst, const void *src, size_t len)
{
	if (src)
		memcpy(dst, src, len);
	else
		memset(dst, 0, len);
	return dst + len;
}

#ifndef LTT_UST_BUILDING_LIBRARY	/* libltt-ust's own files skip this part */
/*
 * The module's tracepoint section, as the linker delimits it.  Weak: a
 * module without tracepoints has none (both are then NULL).
 */
extern struct ltt_ust_tracepoint *const __start___ltt_tp_ptrs[]
	__attribute__((weak, visibility("hidden")));
extern struct ltt_ust_tracepoint *const __stop___ltt_tp_ptrs[]
	__attribute__((weak, visibility("hidden")));

static const char ltt_tp_module_anchor = 0;

static void __attribute__((constructor, unused)) ltt_tp_register_module(void)
{
	ltt_ust_register_module(__start___ltt_tp_ptrs, __stop___ltt_tp_ptrs,
				&ltt_tp_module_anchor);
}

static void __attribute__((destructor, unused)) ltt_tp_unregister_module(void)
{
	ltt_ust_unregister_module(__start___ltt_tp_ptrs);
}

/*
 * Tells libltt-ust that the program itself (not only its libraries) is
 * instrumented, so that it registers with the daemons once the program's
 * constructors run, after its libraries': one message for all.  Weak: one
 * per module whichever files include this; libltt-ust refers to it, so the
 * program exports it.
 */
extern const char ltt_tp_main_marker __attribute__((weak, visibility("default")));
const char ltt_tp_main_marker = 1;
#endif /* LTT_UST_BUILDING_LIBRARY */

#ifdef __cplusplus
}
#endif

#endif /* LTT_TRACEPOINT_H */
