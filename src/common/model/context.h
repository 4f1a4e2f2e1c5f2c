/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * context.h - the context fields a channel may add to each of its events
 * (lttctl add-context): their names, their layout in the trace, their
 * metadata and their encoding on the protocols.  One table serves lttctl
 * (--list, parsing), libltt-ctl, the session daemon (validation, the
 * metadata model) and libltt-ust (what to write).
 *
 * In the trace, a channel's context fields follow each event header, in
 * the order they were added, with no padding (doc/ctf.md): the CTF stream
 * event context.  Every field has a fixed size, so the bytes a channel
 * adds to each event (ltt_ctx_len()) are known when the channel is made.
 *
 * Wire form (client and app protocols): {u32 type, u32 perf_type,
 * u64 perf_config, str name}.  A decoded context is checked with
 * ltt_ctx_check(): the name is the one the type and counter have.
 */
#ifndef LTT_COMMON_CONTEXT_H
#define LTT_COMMON_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-ctl.h>

#include "common/base/codec.h"

/* Contexts one channel may have (each type once, perf counters included). */
#define LTT_CTX_MAX 32
/* Bytes of a context's name, NUL included ("perf:thread:raw:r1a2:NAME"). */
#define LTT_CTX_NAME_MAX 128
/* Bytes of the procname field (the kernel's TASK_COMM_LEN + 1, as LTTng). */
#define LTT_CTX_PROCNAME_LEN 17

/* Bytes of the hostname field (the kernel's __NEW_UTS_LEN + 1, as LTTng). */
#define LTT_CTX_HOSTNAME_LEN 65

/* The domains a context type belongs to (ltt_ctx_domains()). */
#define LTT_CTX_DOMAIN_USER	0x1u
#define LTT_CTX_DOMAIN_KERNEL	0x2u

/* A context as the daemon and the tracer keep it (the public one: ltt-ctl.h). */
struct ltt_ctx {
	uint32_t type;			/* enum ltt_context_type */
	uint32_t perf_type;		/* PERF_THREAD: perf_event_attr.type */
	uint64_t perf_config;		/* PERF_THREAD: perf_event_attr.config */
	char name[LTT_CTX_NAME_MAX];	/* "vpid", "perf:thread:instructions" */
};

/**
 * ltt_ctx_parse() - the context called @name ("vtid",
 * "perf:thread:cache-misses", "perf:thread:raw:r0c0:insns")
 * @ret: filled on success only
 *
 * Any thread.  Returns 0 or -EINVAL (no such context, or a malformed raw
 * counter name).
 */
int ltt_ctx_parse(const char *name, struct ltt_ctx *ret);

/**
 * ltt_ctx_check() - is @c (borrowed) a context ltt_ctx_parse() could have
 * given: a known type, its own name, the counter its name says?
 */
bool ltt_ctx_check(const struct ltt_ctx *c);

/**
 * ltt_ctx_list_name() - the @i-th name `add-context --list` shows (0, 1,
 * ...), NULL past the last; the raw counters' entry is the pattern
 * "perf:thread:raw:rN:NAME"
 */
const char *ltt_ctx_list_name(size_t i);

/**
 * ltt_ctx_list_name_domain() - as ltt_ctx_list_name(), only the types of
 * the LTT_CTX_DOMAIN_* in @domains (the perf counters: user space only)
 */
const char *ltt_ctx_list_name_domain(size_t i, unsigned int domains);

/**
 * ltt_ctx_domains() - the LTT_CTX_DOMAIN_* @c (checked) may be added to;
 * 0 for an unknown type
 */
unsigned int ltt_ctx_domains(const struct ltt_ctx *c);

/** ltt_ctx_type_size() - bytes of a context of @type in each event, 0 for no type */
size_t ltt_ctx_type_size(uint32_t type);

/**
 * ltt_ctx_len() - bytes @nr contexts (borrowed) add to each event
 */
size_t ltt_ctx_len(const struct ltt_ctx *ctx, uint32_t nr);

/**
 * ltt_ctx_field_name() - the trace field of @c: its name with every
 * character but letters, digits and '_' made '_' ("perf_thread_cache_misses")
 * @buf: LTT_CTX_NAME_MAX bytes
 */
void ltt_ctx_field_name(const struct ltt_ctx *c, char *buf);

/* What a context's field is, for the trace's metadata (sessiond/ctrace/meta-model.h). */
struct ltt_ctx_shape {
	uint8_t bits;		/* an integer's, or each byte of text's (8) */
	bool is_signed;
	uint8_t base;		/* 10 or 16 */
	bool text;		/* an array of UTF-8 bytes, NUL-padded */
};

/**
 * ltt_ctx_shape() - the shape of @c's field, and in @ret_len the bytes of
 * its text (0 for an integer); false (nothing set) for a context of no type
 */
bool ltt_ctx_shape(const struct ltt_ctx *c, struct ltt_ctx_shape *ret, uint32_t *ret_len);

/** ltt_ctx_same() - do @a and @b name the same context (type and counter)? */
bool ltt_ctx_same(const struct ltt_ctx *a, const struct ltt_ctx *b);

struct perf_event_attr;

/**
 * ltt_ctx_perf_attr() - the perf_event_attr that counts @c (a PERF_THREAD
 * context) in the calling thread, in user space only, as the tracer opens
 * it: perf_event_open(@ret, 0, -1, -1, PERF_FLAG_FD_CLOEXEC)
 */
void ltt_ctx_perf_attr(const struct ltt_ctx *c, struct perf_event_attr *ret);

/**
 * ltt_ctx_perf_probe() - can this machine count @c for a process of user
 * @uid?  Opens and closes the counter in the calling thread.
 *
 * Returns 0, -ENOENT (no such event here: no PMU, or this CPU lacks it),
 * -EACCES (perf_event_paranoid forbids it to @uid), or another -errno.
 */
int ltt_ctx_perf_probe(const struct ltt_ctx *c, uid_t uid);

/*
 * A context's wire form, a field table (codec.h): {u32 type, u32 perf_type,
 * u64 perf_config, str name}, for the lists of contexts that messages carry
 * (ltt_codec_put_array()).
 */
extern const struct ltt_codec *const ltt_ctx_codec;

/** ltt_ctx_put() - append @c's wire form; an error is left in @w */
void ltt_ctx_put(struct ltt_wbuf *w, const struct ltt_ctx *c);

/**
 * ltt_ctx_get() - read one context; a malformed string sets @r's error.
 * The receiver checks the context itself with ltt_ctx_check() (a type
 * it does not know is not a malformed message).
 */
void ltt_ctx_get(struct ltt_rbuf *r, struct ltt_ctx *ret);

#endif /* LTT_COMMON_CONTEXT_H */
