// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-map.c - LTTng 2.16's map channels (`lttng add-map-channel`,
 * `list`, `show-maps`, `export-maps`) as ltt's (doc/maps.md): added
 * through ltt's ADD_MAP_CHANNEL, read through its LIST_MAPS, each answered
 * in 2.16's layout.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/map.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/* LTTng 2.16's map channel types (enum lttng_map_channel_type). */
enum { MAP_TYPE_KERNEL = 0, MAP_TYPE_USER = 1 };

/*
 * Each map channel of @call's session, as ltt's LIST_MAPS describes it,
 * handed to @fn(@d, @arg); an ltt code.
 */
static enum ltt_error_code each_map(struct ltt_lttng_call *call,
				    void (*fn)(const struct ltt_map_desc *d, void *arg), void *arg)
{
	struct ltt_map_desc d;
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	enum ltt_error_code err;
	uint32_t n, i;

	ltt_wbuf_init(&reply);
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_LIST_MAPS, 0, 0, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		n = ltt_rbuf_get_u32(&r);
		for (i = 0; i < n && !r.err; i++) {
			memset(&d, 0, sizeof(d));
			ltt_map_desc_get(&r, &d);
			free(d.entries);
			if (!r.err)
				fn(&d, arg);
		}
		if (r.err || ltt_rbuf_end(&r))
			err = LTT_ERR_PROTOCOL;
	}
	ltt_wbuf_fini(&reply);
	return err;
}

/* A name LTTng 2.16 gives a map channel added without one: the first channelN not taken. */
struct free_name {
	unsigned long long taken[LTT_MAP_MAX_PER_SESSION];	/* N of channelN taken */
	unsigned int n;
};

static void take_name(const struct ltt_map_desc *d, void *arg)
{
	struct free_name *f = arg;
	unsigned long long k;
	char end;

	if (f->n < LTT_MAP_MAX_PER_SESSION &&
	    sscanf(d->attr.name, "channel%llu%c", &k, &end) == 1)
		f->taken[f->n++] = k;
}

static enum ltt_error_code free_map_name(struct ltt_lttng_call *call, char *buf, size_t len)
{
	struct free_name f = { .n = 0 };
	enum ltt_error_code err = each_map(call, take_name, &f);
	unsigned long long k;
	unsigned int i;

	for (k = 0; !err; k++) {
		for (i = 0; i < f.n && f.taken[i] != k; i++)
			;
		if (i == f.n)
			break;
	}
	if (!err)
		snprintf(buf, len, "channel%llu", k);
	return err;
}

/*
 * ADD_MAP_CHANNEL (`lttng add-map-channel`): LTTng 2.16's map channel as
 * ltt's (lttctl add-map-channel, doc/maps.md): its string keys, its value
 * type (the native width: 64 bits), its key count, its dead groups'
 * policy, per user or per process, or the kernel's; one without a name
 * named as LTTng names it (channel0, channel1, ...).  What ltt lacks (the
 * per-rule-match update policy, more keys than ltt's 65,536) is refused
 * and named.
 */
static uint32_t add_map_channel(struct ltt_lttng_call *call)
{
	const struct ltt_lttng_map_channel *m = &call->req.map;
	struct ltt_map_attr a = { 0 };
	enum ltt_error_code err;
	struct ltt_wbuf w, reply;
	bool kernel = call->req.domain == LTT_DOMAIN_KERNEL;

	if ((!kernel && call->req.domain != LTT_DOMAIN_USER) || m->key_type != 0 ||
	    m->value_type > 2 || m->dead_policy > 1 || m->update_policy > 1 || !m->max_keys ||
	    strlen(m->name) >= sizeof(a.name))
		return LTT_LTTNG_ERR_INVALID;
	if (m->update_policy == 1)
		return ltt_lttng_refuse(call, "the per-rule-match update policy (each trigger adds 1 to its key)",
					"lttctl add-map-channel, whose map each trigger counts in");
	if (m->max_keys > LTT_MAP_MAX_KEYS)
		return ltt_lttng_refuse(call, "a map channel of more than 65,536 keys",
					"--max-key-count=65536 or fewer");
	if (m->name[0])
		memcpy(a.name, m->name, strlen(m->name) + 1);
	else if ((err = free_map_name(call, a.name, sizeof(a.name))))
		return ltt_lttng_code(call, err);
	a.value_type = m->value_type == 0 ? LTT_MAP_VALUE_S32 : LTT_MAP_VALUE_S64;
	a.max_keys = (uint32_t)m->max_keys;
	a.ownership = kernel ? LTT_MAP_OWNER_KERNEL :
		      m->per_uid ? LTT_MAP_OWNER_USER : LTT_MAP_OWNER_PROCESS;
	/* a per-user or kernel map's groups never die: 2.16's default policy is moot there */
	a.dead_policy = a.ownership == LTT_MAP_OWNER_PROCESS && m->dead_policy == 1 ?
				LTT_MAP_DEAD_SUM : LTT_MAP_DEAD_DROP;
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_map_attr_put(&w, &a);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ADD_MAP_CHANNEL, &w, &reply);
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ltt_lttng_code(call, err);
}

/*
 * LIST_MAP_CHANNELS (`lttng list SESSION`, show-maps): {u64 count, count x
 * map channel} of the type asked, from ltt's LIST_MAPS: a kernel map is
 * the kernel's, the others user space's.
 */
/* LIST_MAP_CHANNELS' reply being written: the maps of one type. */
struct map_list {
	bool kernel;
	uint64_t count;
	struct ltt_wbuf maps;
};

static void list_one(const struct ltt_map_desc *d, void *arg)
{
	struct map_list *l = arg;
	struct ltt_lttng_map_channel m = { 0 };

	if ((d->attr.ownership == LTT_MAP_OWNER_KERNEL) != l->kernel)
		return;
	memcpy(m.name, d->attr.name, strnlen(d->attr.name, sizeof(m.name) - 1));
	m.value_type = d->attr.value_type == LTT_MAP_VALUE_S32 ? 0 : 1;
	m.max_keys = d->attr.max_keys;
	m.dead_policy = d->attr.dead_policy == LTT_MAP_DEAD_SUM ? 1 : 0;
	m.per_uid = d->attr.ownership == LTT_MAP_OWNER_USER;
	ltt_lttng_put_map_channel(&l->maps, &m);
	l->count++;
}

static uint32_t list_map_channels(struct ltt_lttng_call *call)
{
	struct map_list l = { .kernel = call->req.map_type == MAP_TYPE_KERNEL };
	enum ltt_error_code err;

	if (call->req.map_type != MAP_TYPE_KERNEL && call->req.map_type != MAP_TYPE_USER)
		return LTT_LTTNG_ERR_INVALID;
	ltt_wbuf_init(&l.maps);
	err = each_map(call, list_one, &l);
	if (!err) {
		ltt_wbuf_put_u64(&call->data, l.count);
		ltt_wbuf_put_bytes(&call->data, l.maps.data, l.maps.len);
		if (l.maps.err)
			err = LTT_ERR_NOMEM;
	}
	ltt_wbuf_fini(&l.maps);
	return ltt_lttng_code(call, err);
}

uint32_t ltt_lttng_map_216(struct ltt_lttng_call *call)
{
	switch (call->req.wire_cmd) {
	case LTT_LTTNG_CMD216_ADD_MAP_CHANNEL:
		return add_map_channel(call);
	case LTT_LTTNG_CMD216_LIST_MAP_CHANNELS:
		return list_map_channels(call);
	default:
		return LTT_LTTNG_ERR_UND;
	}
}
