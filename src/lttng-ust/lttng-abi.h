/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-abi.h - the objects of LTTng-UST 2.13's application-facing ABI
 * that ltt's compatible libraries read or hand out, declared here from
 * the measured facts (shared/ref/lttng-ust-abi.md: x86-64 sizes and
 * offsets, checked by offsetof against programs built with LTTng's
 * headers).  Names are ours; layouts are LTTng's and must not change.
 */
#ifndef LTT_LTTNG_UST_LTTNG_ABI_H
#define LTT_LTTNG_UST_LTTNG_ABI_H

#include <stddef.h>
#include <stdint.h>

/*
 * The provider ABI majors taken: 3, LTTng-UST 2.13 to 2.15's, and 4,
 * 2.16's, whose only change is the blob field types (a provider of 4
 * may describe fields an older library does not know).
 */
#define LU_PROVIDER_MAJOR 4
#define LU_PROVIDER_MAJOR_OLDEST 3

/* A call site's probe: the probe callback and its first argument. */
struct lu_probe {
	void (*func)(void);
	void *data;
};

/* A call site (56 bytes, in section lttng_ust_tracepoints). */
struct lu_tracepoint {
	uint32_t struct_size;
	const char *provider_name;
	const char *event_name;
	int state;			/* offset 24 */
	struct lu_probe *probes;	/* offset 32: NULL-ended, RCU-published */
	int *provider_ref;
	const char *signature;		/* offset 48 */
};

enum lu_type {
	LU_TYPE_INTEGER,
	LU_TYPE_STRING,
	LU_TYPE_FLOAT,
	LU_TYPE_DYNAMIC,
	LU_TYPE_ENUM,
	LU_TYPE_ARRAY,
	LU_TYPE_SEQUENCE,
	LU_TYPE_STRUCT,
	LU_TYPE_FIXED_LENGTH_BLOB,	/* provider ABI 4 */
	LU_TYPE_VARIABLE_LENGTH_BLOB,	/* provider ABI 4 */
};

enum lu_encoding { LU_ENCODING_NONE, LU_ENCODING_UTF8, LU_ENCODING_ASCII };

struct lu_type_common {
	enum lu_type type;
};

struct lu_type_integer {		/* 20 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	unsigned int size;		/* bits */
	unsigned short alignment;	/* bits */
	unsigned int is_signed:1;
	unsigned int reverse_byte_order:1;
	unsigned int base;
};

struct lu_type_float {			/* 20 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	unsigned int exp_dig;
	unsigned int mant_dig;
	unsigned short alignment;
	unsigned int reverse_byte_order:1;
};

struct lu_type_string {			/* 12 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	enum lu_encoding encoding;
};

struct lu_enum_value {
	unsigned long long value;
	unsigned int is_signed:1;
};

#define LU_ENUM_ENTRY_AUTO 0x1

struct lu_enum_entry {			/* 56 bytes */
	uint32_t struct_size;
	struct lu_enum_value start, end;
	const char *label;
	unsigned int options;		/* LU_ENUM_ENTRY_AUTO */
};

struct lu_enum_desc {
	uint32_t struct_size;
	const char *name;
	const struct lu_enum_entry *const *entries;
	unsigned int nr_entries;
	const void *probe_desc;
};

struct lu_type_enum {			/* 24 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	const struct lu_enum_desc *desc;
	const struct lu_type_common *container_type;
};

struct lu_type_array {			/* 32 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	const struct lu_type_common *elem_type;
	unsigned int length;
	unsigned int alignment;
	enum lu_encoding encoding;
};

struct lu_type_sequence {		/* 32 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	const char *length_name;	/* NULL: the field before is the count */
	const struct lu_type_common *elem_type;
	unsigned int alignment;
	enum lu_encoding encoding;
};

struct lu_type_fixed_length_blob {	/* 24 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	unsigned int length;		/* bytes */
	const char *media_type;		/* NULL: none */
};

struct lu_type_variable_length_blob {	/* 24 bytes */
	struct lu_type_common parent;
	uint32_t struct_size;
	const char *length_name;	/* NULL: the field before is the count */
	const char *media_type;		/* NULL: none */
};

struct lu_event_field {			/* 32 bytes */
	uint32_t struct_size;
	const char *name;
	const struct lu_type_common *type;
	unsigned int nowrite:1,		/* not in the payload */
		nofilter:1;		/* not on the interpreter stack */
};

struct lu_tracepoint_class {		/* 48 bytes */
	uint32_t struct_size;
	const struct lu_event_field *const *fields;
	size_t nr_fields;
	void (*probe_callback)(void);
	const char *signature;
	const void *probe_desc;
};

struct lu_event_desc {			/* 48 bytes */
	uint32_t struct_size;
	const char *event_name;
	const struct lu_probe_desc *probe_desc;
	const struct lu_tracepoint_class *tp_class;
	const int **loglevel;
	const char **model_emf_uri;
};

struct lu_probe_desc {			/* 40 bytes */
	uint32_t struct_size;
	const char *provider_name;
	const struct lu_event_desc *const *event_desc;
	unsigned int nr_events;
	uint32_t major;
	uint32_t minor;
};

struct lu_probe_ctx {
	uint32_t struct_size;
	void *ip;			/* the call site */
};

enum { LU_EVENT_RECORDER = 0, LU_EVENT_NOTIFIER = 1 };
enum { LU_FILTER_ACCEPT = 0, LU_FILTER_REJECT = 1 };

struct lu_event_common {		/* 48 bytes */
	uint32_t struct_size;
	void *priv;
	int type;			/* LU_EVENT_RECORDER */
	void *child;			/* the struct lu_event_recorder */
	int enabled;			/* offset 32 */
	int eval_filter;		/* offset 36 */
	int (*run_filter)(const struct lu_event_common *event, const char *stack_data,
			  struct lu_probe_ctx *probe_ctx, void *filter_ctx);	/* offset 40 */
};

struct lu_ring_ctx;

struct lu_channel_ops {			/* 56 bytes */
	uint32_t struct_size;
	void *priv;
	int (*event_reserve)(struct lu_ring_ctx *ctx);
	void (*event_commit)(struct lu_ring_ctx *ctx);
	void (*event_write)(struct lu_ring_ctx *ctx, const void *src, size_t len,
			    size_t alignment);
	void (*event_strcpy)(struct lu_ring_ctx *ctx, const char *src, size_t len);
	void (*event_pstrcpy_pad)(struct lu_ring_ctx *ctx, const char *src, size_t len);
};

struct lu_session {			/* 24 bytes */
	uint32_t struct_size;
	void *priv;
	int active;			/* offset 16 */
};

struct lu_channel_common {		/* 48 bytes */
	uint32_t struct_size;
	void *priv;
	int type;			/* 0: buffer */
	void *child;			/* the struct lu_channel_buffer */
	int enabled;
	struct lu_session *session;
};

struct lu_channel_buffer {		/* 32 bytes */
	uint32_t struct_size;
	struct lu_channel_common *parent;
	void *priv;
	struct lu_channel_ops *ops;
};

struct lu_event_recorder {		/* 32 bytes */
	uint32_t struct_size;
	struct lu_event_common *parent;
	void *priv;
	struct lu_channel_buffer *chan;
};

struct lu_ring_ctx {			/* 48 bytes */
	uint32_t struct_size;
	void *client_priv;		/* the struct lu_event_recorder */
	size_t data_size;		/* payload bytes */
	int largest_align;
	struct lu_probe_ctx *probe_ctx;
	void *priv;			/* ours, set by event_reserve */
};

_Static_assert(sizeof(struct lu_tracepoint) == 56, "LTTng call site");
_Static_assert(offsetof(struct lu_tracepoint, probes) == 32, "LTTng call site probes");
_Static_assert(sizeof(struct lu_probe_desc) == 40, "LTTng probe_desc");
_Static_assert(sizeof(struct lu_event_desc) == 48, "LTTng event_desc");
_Static_assert(sizeof(struct lu_tracepoint_class) == 48, "LTTng tracepoint_class");
_Static_assert(sizeof(struct lu_event_field) == 32, "LTTng event_field");
_Static_assert(sizeof(struct lu_type_integer) == 20, "LTTng integer type");
_Static_assert(sizeof(struct lu_type_float) == 20, "LTTng float type");
_Static_assert(sizeof(struct lu_type_enum) == 24, "LTTng enum type");
_Static_assert(sizeof(struct lu_type_array) == 32, "LTTng array type");
_Static_assert(sizeof(struct lu_type_sequence) == 32, "LTTng sequence type");
_Static_assert(sizeof(struct lu_enum_entry) == 56, "LTTng enum entry");
_Static_assert(sizeof(struct lu_event_common) == 48, "LTTng event_common");
_Static_assert(offsetof(struct lu_event_common, run_filter) == 40, "LTTng run_filter");
_Static_assert(sizeof(struct lu_event_recorder) == 32, "LTTng event_recorder");
_Static_assert(sizeof(struct lu_channel_common) == 48, "LTTng channel_common");
_Static_assert(sizeof(struct lu_channel_buffer) == 32, "LTTng channel_buffer");
_Static_assert(sizeof(struct lu_session) == 24, "LTTng session");
_Static_assert(sizeof(struct lu_channel_ops) == 56, "LTTng channel ops");
_Static_assert(sizeof(struct lu_ring_ctx) == 48, "LTTng ring buffer ctx");

#endif /* LTT_LTTNG_UST_LTTNG_ABI_H */
