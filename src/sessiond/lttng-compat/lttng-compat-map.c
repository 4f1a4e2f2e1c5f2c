// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-map.c - LTTng 2.16's map channels (`lttng add-map-channel`,
 * `list`, `show-maps`, `export-maps`) as ltt's (doc/maps.md): added
 * through ltt's ADD_MAP_CHANNEL, read through its LIST_MAPS, each answered
 * in 2.16's layout.
 */
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/map.h"
#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/* LTTng 2.16's map channel types (enum lttng_map_channel_type). */
enum { MAP_TYPE_KERNEL = 0, MAP_TYPE_USER = 1 };

/*
 * Each map channel of @call's session, as ltt's LIST_MAPS describes it
 * with its counters, handed to @fn(@d, @arg), which may keep @d's entries
 * (setting @d->entries to NULL); an ltt code.
 */
static enum ltt_error_code each_map(struct ltt_lttng_call *call,
				    void (*fn)(struct ltt_map_desc *d, void *arg), void *arg)
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
			if (!r.err)
				fn(&d, arg);
			free(d.entries);
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

static void take_name(struct ltt_map_desc *d, void *arg)
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

/* ltt's map channel @a, in 2.16's layout, into @w */
static void put_channel(struct ltt_wbuf *w, const struct ltt_map_attr *a)
{
	struct ltt_lttng_map_channel m = { 0 };

	memcpy(m.name, a->name, strnlen(a->name, sizeof(m.name) - 1));
	m.value_type = a->value_type == LTT_MAP_VALUE_S32 ? 0 : 1;
	m.max_keys = a->max_keys;
	m.dead_policy = a->dead_policy == LTT_MAP_DEAD_SUM ? 1 : 0;
	m.per_uid = a->ownership == LTT_MAP_OWNER_USER;
	ltt_lttng_put_map_channel(w, &m);
}

static void list_one(struct ltt_map_desc *d, void *arg)
{
	struct map_list *l = arg;

	if ((d->attr.ownership == LTT_MAP_OWNER_KERNEL) != l->kernel)
		return;
	put_channel(&l->maps, &d->attr);
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

/*
 * The readers of show-maps and export-maps, from ltt's LIST_MAP_CPUS: a
 * map's counters as entries, every key (slot order) of each group in
 * turn: the groups of its users (per user) or programs (per process),
 * then the shared group of the programs gone (sum-into-shared); a kernel
 * map has one group, the kernel's.  Key i is the key of slot i, as
 * LTTng's key index; a group's partitions are its CPUs, as LTTng 2.16's.
 * The shared group has none (as LTTng's), and a kernel map's counts are
 * the kernel's sum (ftrace's histograms keep no count by CPU): one
 * partition, CPU 0's.
 */
struct map_find {
	struct ltt_wbuf reply;		/* LIST_MAP_CPUS' */
	bool found;
	struct ltt_map_desc d;		/* the map; its entries allocated */
	uint32_t *nr_cpus;		/* entry i's CPUs (0: its value alone) */
	const uint8_t **counts;		/* entry i's counts (nr_cpus[i] u64), in reply */
};

static void find_fini(struct map_find *f)
{
	ltt_wbuf_fini(&f->reply);
	free(f->d.entries);
	free(f->nr_cpus);
	free(f->counts);
}

/* The counts by CPU of @d's entries at @r, kept in @f when @keep; false on a violation. */
static bool get_cpus(struct ltt_rbuf *r, const struct ltt_map_desc *d, struct map_find *f,
		     bool keep)
{
	const uint8_t *at;
	uint32_t i, n;

	if (keep && d->nr_entries &&
	    (!(f->nr_cpus = calloc(d->nr_entries, sizeof(*f->nr_cpus))) ||
	     !(f->counts = calloc(d->nr_entries, sizeof(*f->counts)))))
		return false;
	for (i = 0; i < d->nr_entries && !r->err; i++) {
		n = ltt_rbuf_get_u32(r);
		at = n ? ltt_rbuf_get_bytes(r, n * (size_t)8) : NULL;

		if (keep) {
			f->nr_cpus[i] = n;
			f->counts[i] = at;
		}
	}
	return !r->err;
}

/*
 * @f: the map of @call's session that its union names, of the type it
 * asks; LTTNG_OK, or LTTng's code (a map of another type is not found, as
 * with LTTng).  find_fini() in any case.
 */
static uint32_t find_map(struct ltt_lttng_call *call, struct map_find *f)
{
	bool kernel = call->req.map_type == MAP_TYPE_KERNEL;
	struct ltt_map_desc d;
	enum ltt_error_code err;
	struct ltt_rbuf r;
	uint32_t n, i;
	bool keep;

	memset(f, 0, sizeof(*f));
	ltt_wbuf_init(&f->reply);
	if (!kernel && call->req.map_type != MAP_TYPE_USER)
		return LTT_LTTNG_ERR_INVALID;
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_LIST_MAP_CPUS, 0, 0, &f->reply);
	if (err)
		return ltt_lttng_code(call, err);
	ltt_rbuf_init(&r, f->reply.data, f->reply.len);
	n = ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		memset(&d, 0, sizeof(d));
		ltt_map_desc_get(&r, &d);
		keep = !r.err && !f->found && !strcmp(d.attr.name, call->req.channel) &&
		       (d.attr.ownership == LTT_MAP_OWNER_KERNEL) == kernel;
		if (!r.err && !get_cpus(&r, &d, f, keep) && !r.err)
			err = LTT_ERR_NOMEM;
		if (keep) {
			f->d = d;
			f->found = true;
		} else {
			free(d.entries);
		}
	}
	if (!err && (r.err || ltt_rbuf_end(&r)))
		err = LTT_ERR_PROTOCOL;
	if (err)
		return ltt_lttng_code(call, err);
	return f->found ? LTT_LTTNG_OK : LTT_LTTNG_ERR_CHAN_NOT_FOUND;
}

static uint32_t nr_groups(const struct ltt_map_desc *d)
{
	if (d->attr.ownership == LTT_MAP_OWNER_KERNEL)
		return 1;
	return d->nr_keys ? d->nr_entries / d->nr_keys : 0;
}

/* The index of key @k of group @i in @d's entries, or -1 (a kernel map read as none). */
static int64_t entry_at(const struct ltt_map_desc *d, uint32_t i, uint32_t k)
{
	uint64_t at = (uint64_t)i * d->nr_keys + k;

	return k < d->nr_keys && at < d->nr_entries ? (int64_t)at : -1;
}

/* A process's name (its comm), or "" once it is gone. */
static void process_name(int64_t pid, char *buf, size_t len)
{
	char path[64];
	FILE *f;

	buf[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%lld/comm", (long long)pid);
	if (!(f = fopen(path, "re")))
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Group @i of map @d, as LTTng 2.16 names a group; with its owner's name if @named. */
static void group_of(const struct ltt_map_desc *d, uint32_t i, bool named,
		     struct ltt_lttng_map_group *g)
{
	int64_t at = entry_at(d, i, 0);
	const struct ltt_map_entry *e = at < 0 ? NULL : &d->entries[at];
	struct passwd pw, *res = NULL;
	char buf[1024];

	memset(g, 0, sizeof(*g));
	g->value_type = d->attr.value_type == LTT_MAP_VALUE_S32 ? 0 : 1;
	if (d->attr.ownership == LTT_MAP_OWNER_KERNEL || !e) {
		g->type = LTT_LTTNG_MAP_GROUP_KERNEL;
	} else if (e->uid < 0) {
		g->type = LTT_LTTNG_MAP_GROUP_SHARED;
	} else if (d->attr.ownership == LTT_MAP_OWNER_USER) {
		g->type = LTT_LTTNG_MAP_GROUP_PER_USER;
		g->owner_id = (uint64_t)e->uid;
		if (named && !getpwuid_r((uid_t)e->uid, &pw, buf, sizeof(buf), &res) && res)
			snprintf(g->owner_name, sizeof(g->owner_name), "%s", pw.pw_name);
	} else {
		g->type = LTT_LTTNG_MAP_GROUP_PER_PROCESS;
		g->owner_id = (uint64_t)e->pid;
		if (named)
			process_name(e->pid, g->owner_name, sizeof(g->owner_name));
	}
}

/* GET_MAP_CHANNEL_BY_NAME (show-maps --channel): the map channel. */
static uint32_t get_map_channel(struct ltt_lttng_call *call)
{
	struct map_find f;
	uint32_t ret = find_map(call, &f);

	if (ret == LTT_LTTNG_OK)
		put_channel(&call->data, &f.d.attr);
	find_fini(&f);
	return ret;
}

/* LIST_MAP_GROUPS: {u64 n, n x map group}. */
static uint32_t list_map_groups(struct ltt_lttng_call *call)
{
	struct ltt_lttng_map_group g;
	struct map_find f;
	uint32_t ret = find_map(call, &f), i;

	if (ret == LTT_LTTNG_OK) {
		ltt_wbuf_put_u64(&call->data, nr_groups(&f.d));
		for (i = 0; i < nr_groups(&f.d); i++) {
			group_of(&f.d, i, true, &g);
			ltt_lttng_put_map_group(&call->data, &g);
		}
	}
	find_fini(&f);
	return ret;
}

/* Partition @c of group @i of @f's map, keys in slot order: {u8 has_id, u32 id, u64 n, values}. */
static void put_partition(struct ltt_wbuf *w, const struct map_find *f, uint32_t i, uint32_t c,
			  bool has_id)
{
	uint64_t count;
	int64_t value;
	bool ovf;
	uint32_t k;
	int64_t at;

	ltt_wbuf_put_u8(w, has_id);
	ltt_wbuf_put_u32(w, c);
	ltt_wbuf_put_u64(w, f->d.nr_keys);
	for (k = 0; k < f->d.nr_keys; k++) {
		at = entry_at(&f->d, i, k);
		value = 0;
		ovf = false;
		if (at >= 0 && f->nr_cpus[at] > c) {
			memcpy(&count, f->counts[at] + (size_t)c * 8, 8);
			value = ltt_map_value(count, f->d.attr.value_type, &ovf);
		} else if (at >= 0 && !f->nr_cpus[at]) {
			value = f->d.entries[at].value;
			ovf = f->d.entries[at].overflow;
		}
		ltt_wbuf_put_u64(w, (uint64_t)value);
		ltt_wbuf_put_u8(w, ovf);
	}
}

/*
 * SAMPLE_MAP_GROUP: the values of the group the union names (its type,
 * owner and value type): {u64 partitions, each a partition}, CPU by CPU.
 */
static uint32_t sample_map_group(struct ltt_lttng_call *call)
{
	const struct ltt_lttng_map_group *want = &call->req.group;
	struct ltt_lttng_map_group g;
	struct map_find f;
	uint32_t ret = find_map(call, &f), i, c, n;
	int64_t at;

	for (i = 0; ret == LTT_LTTNG_OK && i < nr_groups(&f.d); i++) {
		group_of(&f.d, i, false, &g);
		if (g.type == want->type && g.owner_id == want->owner_id &&
		    g.value_type == want->value_type)
			break;
	}
	if (ret == LTT_LTTNG_OK && i == nr_groups(&f.d))
		ret = LTT_LTTNG_ERR_INVALID;	/* LTTng 2.16: no such group */
	if (ret == LTT_LTTNG_OK) {
		at = entry_at(&f.d, i, 0);
		n = at >= 0 ? f.nr_cpus[at] : 0;
		ltt_wbuf_put_u64(&call->data, n ? n : 1);
		for (c = 0; c < (n ? n : 1); c++)
			put_partition(&call->data, &f, i, c, g.type != LTT_LTTNG_MAP_GROUP_SHARED);
	}
	find_fini(&f);
	return ret;
}

/* LIST_MAP_KEYS: {u64 n, n x {u64 index, i32 0, u32 len, the key}}. */
static uint32_t list_map_keys(struct ltt_lttng_call *call)
{
	const struct ltt_map_entry *e;
	struct map_find f;
	uint32_t ret = find_map(call, &f), k, n = 0;

	if (ret == LTT_LTTNG_OK) {
		/* the keys are the first group's entries: none without a group */
		while (entry_at(&f.d, 0, n) >= 0)
			n++;
		ltt_wbuf_put_u64(&call->data, n);
		for (k = 0; k < n; k++) {
			e = &f.d.entries[k];
			ltt_wbuf_put_u64(&call->data, k);
			ltt_wbuf_put_u32(&call->data, 0);
			ltt_wbuf_put_u32(&call->data, (uint32_t)strlen(e->key));
			ltt_wbuf_put_bytes(&call->data, e->key, strlen(e->key));
		}
	}
	find_fini(&f);
	return ret;
}

uint32_t ltt_lttng_map_216(struct ltt_lttng_call *call)
{
	switch (call->req.wire_cmd) {
	case LTT_LTTNG_CMD216_ADD_MAP_CHANNEL:
		return add_map_channel(call);
	case LTT_LTTNG_CMD216_LIST_MAP_CHANNELS:
		return list_map_channels(call);
	case LTT_LTTNG_CMD216_GET_MAP_CHANNEL_BY_NAME:
		return get_map_channel(call);
	case LTT_LTTNG_CMD216_LIST_MAP_GROUPS:
		return list_map_groups(call);
	case LTT_LTTNG_CMD216_SAMPLE_MAP_GROUP:
		return sample_map_group(call);
	case LTT_LTTNG_CMD216_LIST_MAP_KEYS:
		return list_map_keys(call);
	default:
		return LTT_LTTNG_ERR_UND;
	}
}
