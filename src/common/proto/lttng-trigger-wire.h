/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-trigger-wire.h - private to lttng-trigger-proto.c,
 * lttng-eval-proto.c, lttng-probe-proto.c and lttng-map-proto.c: LTTng's byte order (the host's), its type numbers,
 * the sizes of its fixed parts and the string helpers both files write
 * with.  Not a protocol's header: include lttng-trigger-proto.h.
 */
#ifndef LTT_COMMON_PROTO_LTTNG_TRIGGER_WIRE_H
#define LTT_COMMON_PROTO_LTTNG_TRIGGER_WIRE_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/base/codec.h"
#include "common/model/trigger.h"
#include "common/proto/lttng-client-proto.h"

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LTTNG_ORDER LTT_CODEC_BE
#define get32 ltt_rbuf_get_be32
#define get64 ltt_rbuf_get_be64
#define put32 ltt_wbuf_put_be32
#define put64 ltt_wbuf_put_be64
#else
#define LTTNG_ORDER LTT_CODEC_LE
#define get32 ltt_rbuf_get_u32
#define get64 ltt_rbuf_get_u64
#define put32 ltt_wbuf_put_u32
#define put64 ltt_wbuf_put_u64
#endif

/* LTTng's type numbers (condition.h, event-rule.h, action.h, event-expr.h). */
enum {
	COND_CONSUMED = 100, COND_USAGE_HIGH = 101, COND_USAGE_LOW = 102,
	COND_ROT_ONGOING = 103, COND_ROT_COMPLETED = 104, COND_RULE_MATCHES = 105,
};
enum {
	RULE_SYSCALL = 0, RULE_KPROBE = 1, RULE_KERNEL_TP = 2, RULE_UPROBE = 3,
	RULE_USER_TP = 4, RULE_JUL = 5, RULE_LOG4J = 6, RULE_PYTHON = 7,
};
enum { ACT_NOTIFY = 0, ACT_START = 1, ACT_STOP = 2, ACT_ROTATE = 3, ACT_SNAPSHOT = 4, ACT_LIST = 5,
       ACT_INCR_MAP = 6 /* LTTng 2.16's */ };
/* 2.16's map channel types, and its key template's segments */
enum { MAP_KERNEL = 0, MAP_USER = 1 };
enum { KEY_LITERAL = 0, KEY_EVENT_NAME = 1, KEY_PROVIDER_NAME = 2 };
enum { EXPR_PAYLOAD = 0, EXPR_CONTEXT = 1, EXPR_APP_CONTEXT = 2, EXPR_ELEMENT = 3 };
enum { LLR_EXACTLY = 0, LLR_AT_LEAST = 1 };
enum { RATE_EVERY_N = 0, RATE_ONCE_AFTER_N = 1 };
enum { KPROBE_SYMBOL = 0, KPROBE_ADDRESS = 1 };
#define SNAPSHOT_OUTPUT_SIZE 8459	/* packed struct lttng_snapshot_output */
#define LLR_SIZE 8			/* struct lttng_log_level_rule_comm, not packed */

/* @s as LTTng's string of @len bytes (NUL included), its length given apart. */
static inline void put_string(struct ltt_wbuf *w, const char *s)
{
	ltt_wbuf_put_bytes(w, s, strlen(s) + 1);
}

static inline uint32_t slen(const char *s)
{
	return (uint32_t)strlen(s) + 1;
}

static inline uint32_t slen_opt(const char *s)
{
	return s[0] ? slen(s) : 0;
}

static inline void put_lstring(struct ltt_wbuf *w, const char *s)
{
	put32(w, slen(s));
	put_string(w, s);
}

/* The @n bytes at @s as LTTng's string, its length (NUL included) first. */
static inline void put_lstring_n(struct ltt_wbuf *w, const char *s, size_t n)
{
	put32(w, (uint32_t)n + 1);
	ltt_wbuf_put_bytes(w, s, n);
	ltt_wbuf_put_u8(w, 0);
}

struct ltt_rule_conf;

/*
 * ltt_lttng_put_kprobe_rule(), ltt_lttng_put_uprobe_rule() - kernel probe
 * rule @rule as LTTng's kprobe (uprobe) event rule into @w
 * (lttng-probe-proto.c).  0, or -ENOTSUP, nothing put, for a location
 * LTTng's event rule can't carry.  A uprobe's binary's descriptor goes
 * with the message: the caller's.  A kprobe rule of @gen 2.16 carries
 * its instrumentation site (the location: 0).
 */
int ltt_lttng_put_kprobe_rule(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			      const struct ltt_rule_conf *rule);
int ltt_lttng_put_uprobe_rule(struct ltt_wbuf *w, const struct ltt_rule_conf *rule);

/*
 * ltt_lttng_get_incr_map() - LTTng 2.16's incr-map-value action (its type
 * byte read) from @r into @a, of a trigger whose rule is the kernel's
 * (@kernel) or user space's (lttng-map-proto.c).  0, -EPROTO (@r's error
 * set), or -ENOTSUP with *@why, what ltt's maps lack.
 */
int ltt_lttng_get_incr_map(struct ltt_rbuf *r, bool kernel, struct ltt_action_conf *a,
			   const char **why);

/*
 * ltt_lttng_put_incr_map() - incr-map-value action @a, its type byte
 * first, of a trigger whose rule is the kernel's (@kernel) or not, as
 * LTTng 2.16 writes it into @w.  0, or -ENOTSUP for a key template ltt
 * would not have taken, nothing put.
 */
int ltt_lttng_put_incr_map(struct ltt_wbuf *w, bool kernel, const struct ltt_action_conf *a);

/*
 * ltt_lttng_capture_expr_put() - capture @text (ltt_capture_parse()'s) as
 * LTTng's event expression (lttng-eval-proto.c).  Returns 0, or -ENOTSUP
 * for a text ltt_capture_parse() refuses.
 */
int ltt_lttng_capture_expr_put(struct ltt_wbuf *w, const char *text);

#endif /* LTT_COMMON_PROTO_LTTNG_TRIGGER_WIRE_H */
