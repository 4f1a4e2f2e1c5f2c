/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tracepoint-types.h - what an instrumented program hands to libltt-ust
 * for each tracepoint it declares: the event's name, log level and typed
 * fields, plus the two words the fast path reads.
 *
 * These structures are produced by the macros of <ltt/tracepoint.h> in the
 * program's own object files, so their layout is an ABI between programs
 * and libltt-ust: LTT_UST_TRACEPOINT_ABI changes when it does.
 */
#ifndef LTT_TRACEPOINT_TYPES_H
#define LTT_TRACEPOINT_TYPES_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * 2: probes pass their call (their arguments, for filters, and their call
 * site, for the ip context) to ltt_ust_probe_reserve_filter() when @state
 * has LTT_UST_STATE_CALL.  libltt-ust still takes descriptors of ABI 1
 * (their probes never pass it: doc/ust.md).
 */
#define LTT_UST_TRACEPOINT_ABI 2

/* Field types. */
enum ltt_ust_type {
	LTT_UST_TYPE_INTEGER = 1,	/* size 1, 2, 4 or 8 bytes */
	LTT_UST_TYPE_FLOAT = 2,		/* size 4 (float) or 8 (double) */
	LTT_UST_TYPE_STRING = 3,	/* NUL-terminated, UTF-8 */
	LTT_UST_TYPE_ARRAY = 4,		/* @length integers of @size bytes */
	LTT_UST_TYPE_SEQUENCE = 5,	/* u32 count, then count integers of @size bytes */
	LTT_UST_TYPE_ENUM = 6,		/* an integer of @size bytes, labelled by @enum_desc */
};

/* How arrays and sequences of bytes are shown. */
enum ltt_ust_encoding {
	LTT_UST_ENCODING_NONE = 0,	/* as integers */
	LTT_UST_ENCODING_UTF8 = 1,	/* as text */
};

struct ltt_ust_enum_entry {
	int64_t start;		/* inclusive */
	int64_t end;		/* inclusive */
	const char *label;
};

struct ltt_ust_enum_desc {
	const char *name;
	uint32_t nr_entries;
	const struct ltt_ust_enum_entry *entries;
};

/*
 * @flags of a field.  Zero for every field of <ltt/tracepoint.h>; the
 * LTTng-UST compatibility layer (doc/lttng-ust.md) describes with them
 * the bytes LTTng's probes write.
 */
/* INTEGER, ENUM, FLOAT, ARRAY, SEQUENCE: the value (each element) is big endian. */
#define LTT_UST_FIELD_BIG_ENDIAN 0x1
/*
 * SEQUENCE: no u32 count of its own; the count is the value of the field
 * just before it, an INTEGER (any size or signedness).
 */
#define LTT_UST_FIELD_LENGTH_BEFORE 0x2
/*
 * Any type: not in the payload nor in the trace's metadata, a value only
 * filters read (LTTng's nowrite fields).  A LENGTH_BEFORE sequence and
 * the integer before it are both written or both not.
 */
#define LTT_UST_FIELD_NOWRITE 0x4
/*
 * ARRAY, SEQUENCE of 1-byte unsigned base-16 integers, no encoding: a
 * blob, opaque bytes (LTTng 2.16's blob fields): CTF 2 says so, with its
 * media type (the enum description's name, "" or NULL: none); CTF 1.8
 * has no blob, and says its bytes.
 */
#define LTT_UST_FIELD_BLOB 0x8
#define LTT_UST_FIELD_FLAGS \
	(LTT_UST_FIELD_BIG_ENDIAN | LTT_UST_FIELD_LENGTH_BEFORE | LTT_UST_FIELD_NOWRITE | \
	 LTT_UST_FIELD_BLOB)

/*
 * One field.  On the wire (in the trace) fields follow each other with no
 * padding: every CTF type ltt declares is byte-aligned.
 */
struct ltt_ust_field {
	const char *name;
	uint8_t type;		/* enum ltt_ust_type */
	uint8_t size;		/* bytes of the integer or float, or of each element */
	uint8_t is_signed;	/* integers, enums, elements */
	uint8_t base;		/* 10 or 16: how readers display integers */
	uint8_t encoding;	/* enum ltt_ust_encoding, for 1-byte elements */
	uint8_t flags;		/* LTT_UST_FIELD_*; 0 from <ltt/tracepoint.h> */
	uint8_t reserved[2];
	uint32_t length;	/* ARRAY: element count */
	const struct ltt_ust_enum_desc *enum_desc;	/* ENUM; a BLOB's media type (its name) */
};

/*
 * Set in @state while a session needs the probe's call: it filters the
 * event, or records the ip context.  (Probes built with headers before the
 * ip context took this bit for filters only, under its old name; they
 * pass the call site too.)
 */
#define LTT_UST_STATE_CALL 0x2
/* @state when sessions record the event and none needs the call. */
#define LTT_UST_STATE_ON 0x1
#define LTT_UST_STATE_FILTER LTT_UST_STATE_CALL

/*
 * One tracepoint.  The program owns it (static storage); libltt-ust
 * writes only @state and @priv, and only between registration and
 * unregistration.
 */
struct ltt_ust_tracepoint {
	uint32_t abi;			/* LTT_UST_TRACEPOINT_ABI */
	int32_t loglevel;		/* 0 (EMERG) .. 14 (DEBUG) */
	const char *name;		/* "provider:event" */
	uint32_t nr_fields;
	const struct ltt_ust_field *fields;
	/*
	 * Fast path: non-zero while at least one session records this event.
	 * Read with one plain load at every call site.  LTT_UST_STATE_CALL
	 * set: a session filters it or records the ip context, the probe
	 * passes its arguments and call site.
	 */
	volatile int state;
	void *priv;			/* libltt-ust's, RCU-protected */
	/*
	 * NULL from <ltt/tracepoint.h>.  Set by the LTTng-UST compatibility
	 * layer, whose call sites are not this descriptor: libltt-ust calls
	 * it each time it has changed @state (and @priv), from the thread
	 * that talks to the session daemon, with its registry lock held.
	 */
	void (*state_changed)(struct ltt_ust_tracepoint *tp);
	/* Zero: room to grow without a new ABI version. */
	void *reserved[3];
};

#ifdef __cplusplus
}
#endif

#endif /* LTT_TRACEPOINT_TYPES_H */
