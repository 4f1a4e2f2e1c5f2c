/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * meta-model.h - what a trace's metadata says, described once: the field
 * classes of event payloads and event contexts, built from what programs
 * (struct ltt_app_tracepoint), the kernel tracer (struct
 * ltt_kabi_event_desc) and the channel (struct ltt_ctx) describe.
 *
 * Each metadata language writes this model: TSDL for CTF 1.8
 * (tsdl.c), JSON fragments for CTF 2 (ctf2.c).  Every decision about
 * what a field is (its size, sign, base, byte order, which member holds
 * a sequence's length, the names of the length members ltt adds, which
 * fields are left out) is taken here, so the two languages can't say
 * different things of the same bytes.  doc/ctf.md describes both.
 *
 * Names are raw, as the provider gave them: TSDL's leading underscore
 * is the TSDL writer's business.
 *
 * A model is built into storage the caller owns (struct ltt_meta_event,
 * struct ltt_meta_ctx) and borrows the strings and enum entries of its
 * input: keep the input alive while the model is used.  No global state.
 */
#ifndef LTT_SESSIOND_META_MODEL_H
#define LTT_SESSIOND_META_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/context.h"
#include "common/proto/app-proto.h"
#include "abi/ltt-abi.h"
#include "sessiond/ctrace/meta.h"

enum ltt_fc_kind {
	LTT_FC_INTEGER,		/* fixed-length; with mappings an enumeration */
	LTT_FC_FLOAT,		/* IEEE 754 binary32 or binary64 */
	LTT_FC_STRING,		/* null-terminated UTF-8 */
	LTT_FC_ARRAY,		/* @length elements of @elem */
	LTT_FC_SEQUENCE,	/* as many @elem as member @length_field says */
	LTT_FC_STRUCT,		/* @members, in order */
};

struct ltt_fm;

/* A field class: what a value's bytes are. */
struct ltt_fc {
	enum ltt_fc_kind kind;
	uint16_t bits;		/* INTEGER, FLOAT */
	uint8_t align;		/* bits; 8, or 1 for a bit field */
	uint8_t base;		/* INTEGER: 2, 8, 10 or 16, how readers show it */
	bool is_signed;
	bool utf8;		/* INTEGER: a byte of UTF-8 text (an array of them is text) */
	bool big_endian;	/* not the host's order, which is the trace's */
	uint32_t length;	/* ARRAY */
	const char *length_field;	/* SEQUENCE: a member before it, of the same structure */
	/*
	 * ARRAY, SEQUENCE of bytes: a blob (CTF 2's static- and
	 * dynamic-length blobs; CTF 1.8 has none: its bytes in hexadecimal),
	 * of @media_type (NULL: none)
	 */
	bool blob;
	const char *media_type;
	const struct ltt_fc *elem;	/* ARRAY, SEQUENCE */
	const struct ltt_ust_enum_entry *mappings;	/* INTEGER: an enumeration's */
	uint32_t nr_mappings;
	const struct ltt_fm *members;	/* STRUCT */
	uint32_t nr_members;
};

/* A member of a structure. */
struct ltt_fm {
	const char *name;
	const struct ltt_fc *fc;
	/*
	 * A sequence's length that ltt adds before it (LTTng's _NAME_length,
	 * a 32-bit unsigned integer), not a field of the provider's.
	 */
	bool implied_length;
};

/* The most field classes and members one event's model holds. */
#define LTT_META_MAX_FC (3 * LTT_APP_MAX_FIELDS)
#define LTT_META_MAX_MEMBERS (2 * LTT_APP_MAX_FIELDS)
/* Room for the names of the length members ltt adds: "_NAME_length". */
#define LTT_META_NAMES (LTT_APP_MAX_FIELDS * (LTT_APP_NAME_MAX + 8))

/* An event record class: its head and its payload. */
struct ltt_meta_event {
	const char *name;
	uint32_t id;
	uint32_t stream_id;
	bool has_loglevel;	/* user space: LTTng's log level; the kernel's events have none */
	int32_t loglevel;
	struct ltt_fc payload;	/* a STRUCT */
	/* the storage the model is built in */
	struct ltt_fc fcs[LTT_META_MAX_FC];
	struct ltt_fm top[LTT_META_MAX_MEMBERS];	/* the payload's members */
	struct ltt_fm fms[LTT_KABI_MAX_FIELDS];		/* a kernel structure's members */
	char names[LTT_META_NAMES];
	uint32_t nr_fcs, nr_top, nr_fms;
	size_t names_len;
	char kernel_name[LTT_KABI_NAME_MAX];
};

/* A channel's event context: one member a context, in the order each event carries them. */
struct ltt_meta_ctx {
	struct ltt_fc fields;	/* a STRUCT; no members when the channel has no context */
	struct ltt_fc fcs[2 * LTT_CTX_MAX];
	struct ltt_fm fms[LTT_CTX_MAX];
	char names[LTT_CTX_MAX][LTT_CTX_NAME_MAX];
};

/* One entry of a trace's environment: a string, or a number. */
struct ltt_meta_env {
	const char *key;
	bool is_num;
	const char *str;	/* NULL fails the writers (-EINVAL) */
	int64_t num;
};

#define LTT_META_ENV_MAX 24

/* A trace's clock: counts of @freq Hz from @offset_s s + @offset counts after the Epoch. */
struct ltt_meta_clock {
	const char *name;		/* a C identifier */
	const uint8_t *uuid;		/* 16 bytes: the host's boot id */
	const char *description;
	uint64_t freq;
	int64_t offset_s;
	uint64_t offset;		/* < @freq */
	bool plain_ns;			/* CLOCK_MONOTONIC itself, in ns */
};

/* What precedes a trace's streams, described. */
struct ltt_meta_header {
	const struct ltt_meta_trace *trace;
	struct ltt_meta_env env[LTT_META_ENV_MAX];	/* in the order TSDL writes them */
	uint32_t nr_env;
	struct ltt_meta_clock clock;
};

/**
 * ltt_meta_describe_header() - the environment and clock of @t (checked
 * by the caller: meta.c), borrowing its strings
 *
 * The environment is LTTng's (LTT_META_TRACER_NAME) with ltt's own fields
 * after; a kernel trace's is LTTng's kernel environment.
 */
void ltt_meta_describe_header(struct ltt_meta_header *h, const struct ltt_meta_trace *t);

/**
 * ltt_meta_describe_app() - the model of a program's event @tp, event
 * @event_id of stream @stream_id
 * @m: filled; borrows @tp's strings and entries
 *
 * A field for filters only (LTT_UST_FIELD_NOWRITE) is left out; a
 * sequence counted by the field before it (LTT_UST_FIELD_LENGTH_BEFORE)
 * names that field, any other gets an implied 32-bit _NAME_length.
 * Returns 0, or -EINVAL when @tp fails ltt_app_tracepoint_valid().
 */
int ltt_meta_describe_app(struct ltt_meta_event *m, const struct ltt_app_tracepoint *tp,
		       uint32_t event_id, uint32_t stream_id);

/**
 * ltt_meta_describe_kernel() - the model of a kernel event, described by the
 * tracer (src/abi/ltt-abi.h), as event @event_id of stream @stream_id
 * @desc: borrowed.  It comes from the kernel and is checked anyway: the
 *        name is 1..255 bytes of [A-Za-z0-9_], field names are unique C
 *        identifiers (a sequence N also takes N_length), types and sizes
 *        as in app-proto.h (integers, strings, arrays, sequences), bit
 *        arrays and structures as kabi-struct.h checks them.
 *
 * An integer with a kernel enumeration (kabi-enum.h) becomes an
 * enumeration, as lttng-modules writes them.  Returns 0, or -EINVAL for a
 * description that fails those checks.
 */
int ltt_meta_describe_kernel(struct ltt_meta_event *m, const struct ltt_kabi_event_desc *desc,
			  uint32_t event_id, uint32_t stream_id);

/**
 * ltt_meta_describe_torn() - the model of torn event class @which (0, 1, 2:
 * LTT_CTF_TORN_ID_EMPTY + @which, common/trace/ctf.h) of user-space
 * stream @stream_id: no payload, or skip_length (8 or 32 bits) and that
 * many bytes of skip.  Returns 0, or -EINVAL for another @which.
 */
int ltt_meta_describe_torn(struct ltt_meta_event *m, unsigned int which, uint32_t stream_id);

/**
 * ltt_meta_describe_contexts() - the model of a channel's @nr_ctx contexts @ctx
 * (borrowed; NULL when 0)
 *
 * Returns 0, or -EINVAL for more than LTT_CTX_MAX or a context
 * ltt_ctx_check() refuses.
 */
int ltt_meta_describe_contexts(struct ltt_meta_ctx *m, const struct ltt_ctx *ctx, uint32_t nr_ctx);

#endif /* LTT_SESSIOND_META_MODEL_H */
