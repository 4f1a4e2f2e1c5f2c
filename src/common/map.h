/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * map.h - map channels (LTTng 2.16's counters without events, doc/maps.md)
 * as the daemon holds them: their attributes and checks, their key
 * templates, the values they show, and the wire forms the client
 * protocol will carry them in:
 *   map_attr: {str name, u32 value_type, u32 max_keys}
 *   map_desc: {map_attr, u8 active, u32 nr_keys, u64 key_overflow,
 *       u32 nr_entries, nr_entries x {str key, i64 uid, i64 value,
 *       u8 overflow}}
 */
#ifndef LTT_COMMON_MAP_H
#define LTT_COMMON_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#include "common/codec.h"

#define LTT_MAP_KEY_MAX 256		/* bytes of a key or key template, NUL included */
#define LTT_MAP_MAX_PER_SESSION 64	/* map channels of one session */
#define LTT_MAP_MAX_KEYS 65536		/* LTTng's --max-key-count, at most */
#define LTT_MAP_DEFAULT_KEYS 4096	/* without --max-key-count */

enum ltt_map_value_type {
	LTT_MAP_VALUE_S32 = 1,		/* signed-int-32 */
	LTT_MAP_VALUE_S64 = 2,		/* signed-int-64 (and signed-int-max) */
};

/* A map channel to add. */
struct ltt_map_attr {
	char name[LTT_NAME_MAX];
	uint32_t value_type;		/* enum ltt_map_value_type */
	uint32_t max_keys;		/* 1 to LTT_MAP_MAX_KEYS */
};

/* One counter: its key, the user whose programs counted it, its value. */
struct ltt_map_entry {
	char key[LTT_MAP_KEY_MAX];
	int64_t uid;
	int64_t value;			/* the CPUs' counts summed, cut to the value type */
	bool overflow;			/* the sum did not fit the value type (it wrapped) */
};

/* A map channel and its counters. */
struct ltt_map_desc {
	struct ltt_map_attr attr;
	bool active;			/* its session is started: the programs count */
	uint32_t nr_keys;		/* keys taken, of attr.max_keys */
	uint64_t key_overflow;		/* events counted under no key: the key table was full */
	uint32_t nr_entries;
	struct ltt_map_entry *entries;
};

/** ltt_map_value_type_name() - "signed-int-32", "signed-int-64", or NULL */
const char *ltt_map_value_type_name(uint32_t type);

/**
 * ltt_map_attr_valid() - is @a a map channel to add: a channel name
 * (names.h), a value type, 1 to LTT_MAP_MAX_KEYS keys?
 */
bool ltt_map_attr_valid(const struct ltt_map_attr *a);

/**
 * ltt_map_key_valid() - is @tmpl a key template: 1 to LTT_MAP_KEY_MAX - 1
 * printable bytes in which braces only write {event_name} and
 * {provider_name}?
 */
bool ltt_map_key_valid(const char *tmpl);

/**
 * ltt_map_key_expand() - the key template @tmpl (checked) for the event
 * @event ("provider:name"; a name without ':' is its own provider), into
 * @buf of @len bytes, cut to fit.  Returns @buf.
 */
char *ltt_map_key_expand(const char *tmpl, const char *event, char *buf, size_t len);

/**
 * ltt_map_value() - the value a sum of per-CPU counts @sum shows in a map
 * of @value_type, and whether it wrapped (@ret_overflow)
 */
int64_t ltt_map_value(uint64_t sum, uint32_t value_type, bool *ret_overflow);

void ltt_map_attr_put(struct ltt_wbuf *w, const struct ltt_map_attr *a);
void ltt_map_attr_get(struct ltt_rbuf *r, struct ltt_map_attr *ret);
/* The description's entries are put from @d->entries (nr_entries of them). */
void ltt_map_desc_put(struct ltt_wbuf *w, const struct ltt_map_desc *d);
/**
 * ltt_map_desc_get() - decode one description; its entries are allocated
 * (bounded by what the payload holds).  Sets @r's error on a violation,
 * or on no memory.  @ret->entries: NULL or to free.
 */
void ltt_map_desc_get(struct ltt_rbuf *r, struct ltt_map_desc *ret);

#endif /* LTT_COMMON_MAP_H */
