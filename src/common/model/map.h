/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * map.h - map channels (LTTng 2.16's counters without events, doc/maps.md)
 * as the daemon and libltt-ctl hold them (<ltt/ltt-ctl-map.h>): their
 * checks, their key templates, the values they show, and their wire
 * forms in the client protocol (minor 26):
 *   map_attr: {str name, u32 value_type, u32 max_keys, u32 ownership,
 *       u32 dead_policy}
 *   map_desc: {map_attr, u8 active, u32 nr_keys, u64 key_overflow,
 *       u32 nr_entries, nr_entries x {str key, i64 uid, i64 pid,
 *       i64 value, u8 overflow}}
 */
#ifndef LTT_COMMON_MAP_H
#define LTT_COMMON_MAP_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include <ltt/ltt-ctl-map.h>

#include "common/base/codec.h"

/**
 * ltt_map_attr_valid() - is @a a map channel to add: a channel name
 * (names.h), a value type, 1 to LTT_MAP_MAX_KEYS keys, an ownership, and
 * a dead-process policy (sum-into-shared: per-process maps only)?
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
