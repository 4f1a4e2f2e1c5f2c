// SPDX-License-Identifier: LGPL-2.1-only
/*
 * map.c - map channels' checks, key templates and wire forms (map.h).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/map.h"
#include "common/base/names.h"

#define ENTRY_MIN (5 + 8 + 8 + 8 + 1)	/* the smallest entry on the wire */

static const char *const fields[] = { "{event_name}", "{provider_name}" };

const char *ltt_map_value_type_name(uint32_t type)
{
	switch (type) {
	case LTT_MAP_VALUE_S32:
		return "signed-int-32";
	case LTT_MAP_VALUE_S64:
		return "signed-int-64";
	default:
		return NULL;
	}
}

bool ltt_map_attr_valid(const struct ltt_map_attr *a)
{
	return ltt_channel_name_valid(a->name) && ltt_map_value_type_name(a->value_type) &&
	       a->max_keys && a->max_keys <= LTT_MAP_MAX_KEYS &&
	       (a->ownership == LTT_MAP_OWNER_USER || a->ownership == LTT_MAP_OWNER_PROCESS ||
		a->ownership == LTT_MAP_OWNER_KERNEL) &&
	       (a->dead_policy == LTT_MAP_DEAD_DROP ||
		(a->dead_policy == LTT_MAP_DEAD_SUM && a->ownership == LTT_MAP_OWNER_PROCESS));
}

/* The field @p starts with (its index in fields[]), or -1. */
static int field_at(const char *p)
{
	size_t i;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (!strncmp(p, fields[i], strlen(fields[i])))
			return (int)i;
	return -1;
}

bool ltt_map_key_valid(const char *tmpl)
{
	const unsigned char *p;
	int f;

	if (!tmpl || !*tmpl || strlen(tmpl) >= LTT_MAP_KEY_MAX)
		return false;
	for (p = (const unsigned char *)tmpl; *p;) {
		if (*p < 0x20 || *p == 0x7f || *p == '}')
			return false;
		if (*p != '{') {
			p++;
			continue;
		}
		f = field_at((const char *)p);
		if (f < 0)
			return false;
		p += strlen(fields[f]);
	}
	return true;
}

char *ltt_map_key_expand(const char *tmpl, const char *event, char *buf, size_t len)
{
	const char *colon = strchr(event, ':');
	int plen = colon ? (int)(colon - event) : (int)strlen(event);
	size_t n = 0;
	int f, w;

	buf[0] = '\0';
	while (*tmpl && n + 1 < len) {
		f = *tmpl == '{' ? field_at(tmpl) : -1;
		if (f < 0) {
			buf[n++] = *tmpl++;
			buf[n] = '\0';
			continue;
		}
		w = f == 0 ? snprintf(buf + n, len - n, "%s", event) :
			     snprintf(buf + n, len - n, "%.*s", plen, event);
		n += w < 0 ? 0 : (size_t)w >= len - n ? len - n - 1 : (size_t)w;
		tmpl += strlen(fields[f]);
	}
	return buf;
}

int64_t ltt_map_value(uint64_t sum, uint32_t value_type, bool *ret_overflow)
{
	if (value_type == LTT_MAP_VALUE_S32) {
		*ret_overflow = sum > INT32_MAX;
		return (int32_t)(uint32_t)sum;
	}
	*ret_overflow = sum > INT64_MAX;
	return (int64_t)sum;
}

void ltt_map_attr_put(struct ltt_wbuf *w, const struct ltt_map_attr *a)
{
	ltt_wbuf_put_str(w, a->name);
	ltt_wbuf_put_u32(w, a->value_type);
	ltt_wbuf_put_u32(w, a->max_keys);
	ltt_wbuf_put_u32(w, a->ownership);
	ltt_wbuf_put_u32(w, a->dead_policy);
}

void ltt_map_attr_get(struct ltt_rbuf *r, struct ltt_map_attr *ret)
{
	ltt_rbuf_get_str_copy(r, ret->name, sizeof(ret->name));
	ret->value_type = ltt_rbuf_get_u32(r);
	ret->max_keys = ltt_rbuf_get_u32(r);
	ret->ownership = ltt_rbuf_get_u32(r);
	ret->dead_policy = ltt_rbuf_get_u32(r);
}

void ltt_map_desc_put(struct ltt_wbuf *w, const struct ltt_map_desc *d)
{
	uint32_t i;

	ltt_map_attr_put(w, &d->attr);
	ltt_wbuf_put_u8(w, d->active);
	ltt_wbuf_put_u32(w, d->nr_keys);
	ltt_wbuf_put_u64(w, d->key_overflow);
	ltt_wbuf_put_u32(w, d->nr_entries);
	for (i = 0; i < d->nr_entries; i++) {
		ltt_wbuf_put_str(w, d->entries[i].key);
		ltt_wbuf_put_u64(w, (uint64_t)d->entries[i].uid);
		ltt_wbuf_put_u64(w, (uint64_t)d->entries[i].pid);
		ltt_wbuf_put_u64(w, (uint64_t)d->entries[i].value);
		ltt_wbuf_put_u8(w, d->entries[i].overflow);
	}
}

void ltt_map_desc_get(struct ltt_rbuf *r, struct ltt_map_desc *ret)
{
	struct ltt_map_desc d = { 0 };
	uint32_t i;

	ltt_map_attr_get(r, &d.attr);
	d.active = ltt_rbuf_get_bool(r);
	d.nr_keys = ltt_rbuf_get_u32(r);
	d.key_overflow = ltt_rbuf_get_u64(r);
	d.nr_entries = ltt_rbuf_get_u32(r);
	if (!r->err && d.nr_entries > (r->len - r->pos) / ENTRY_MIN)
		ltt_rbuf_fail(r);
	if (!r->err && d.nr_entries && !(d.entries = calloc(d.nr_entries, sizeof(*d.entries))))
		ltt_rbuf_fail(r);
	for (i = 0; i < d.nr_entries && !r->err; i++) {
		ltt_rbuf_get_str_copy(r, d.entries[i].key, sizeof(d.entries[i].key));
		d.entries[i].uid = (int64_t)ltt_rbuf_get_u64(r);
		d.entries[i].pid = (int64_t)ltt_rbuf_get_u64(r);
		d.entries[i].value = (int64_t)ltt_rbuf_get_u64(r);
		d.entries[i].overflow = ltt_rbuf_get_bool(r);
	}
	*ret = d;
}
