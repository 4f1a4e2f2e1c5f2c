// SPDX-License-Identifier: GPL-2.0-only
/*
 * map.c - the daemon's map channels: key tables and counter areas (map.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/proto/app-proto.h"
#include "common/model/map.h"
#include "sessiond/model/map.h"

/* The counters of one user's programs in a map (of one program, per-process). */
struct area {
	uid_t uid;
	pid_t pid;		/* per-process maps: the program's; 0 */
	int fd;
	uint64_t *mem;		/* the whole area: header, then the counters */
	size_t len;
};

struct ltt_map {
	struct ltt_map *next;
	uid_t owner;
	char session[LTT_NAME_MAX];
	struct ltt_map_attr attr;
	bool active;
	uint32_t nr_keys;
	char **keys;		/* attr.max_keys of them, nr_keys set */
	uint32_t nr_areas;
	struct area *areas;
	uint64_t *shared;	/* sum-into-shared: the programs gone's sums, slot by slot */
	void *km;		/* a kernel map's counters (ltt_maps_kernel) */
};

static bool is_kernel(const struct ltt_map *m)
{
	return m->attr.ownership == LTT_MAP_OWNER_KERNEL;
}

static uint32_t slots_of(const struct ltt_map *m)
{
	return m->attr.max_keys + 1;	/* the last: keys the table had no room for */
}

static void map_free(const struct ltt_maps *maps, struct ltt_map *m)
{
	uint32_t i;

	if (m->km && maps->kernel)	/* else the kernel domain removed it already */
		maps->kernel->destroy(maps->kernel_arg, m->km);
	for (i = 0; i < m->nr_keys; i++)
		free(m->keys[i]);
	for (i = 0; i < m->nr_areas; i++) {
		munmap(m->areas[i].mem, m->areas[i].len);
		close(m->areas[i].fd);
	}
	free(m->keys);
	free(m->areas);
	free(m->shared);
	free(m);
}

void ltt_maps_init(struct ltt_maps *maps)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	pthread_mutex_init(&maps->lock, NULL);
	maps->first = NULL;
	maps->kernel = NULL;
	maps->kernel_arg = NULL;
	maps->nr_cpus = n < 1 ? 1 : n > LTT_APP_COUNTER_MAX_CPUS ? LTT_APP_COUNTER_MAX_CPUS :
								  (uint32_t)n;
}

void ltt_maps_fini(struct ltt_maps *maps)
{
	struct ltt_map *m, *next;

	for (m = maps->first; m; m = next) {
		next = m->next;
		map_free(maps, m);
	}
	maps->first = NULL;
	pthread_mutex_destroy(&maps->lock);
}

void ltt_maps_set_kernel(struct ltt_maps *maps, const struct ltt_maps_kernel *ops, void *arg)
{
	maps->kernel = ops;
	maps->kernel_arg = arg;
}

static bool of_session(const struct ltt_map *m, uid_t owner, const char *session)
{
	return m->owner == owner && !strcmp(m->session, session);
}

/* Map @name of @owner's @session, or NULL; registry lock held. */
static struct ltt_map *find(struct ltt_maps *maps, uid_t owner, const char *session,
			    const char *name)
{
	struct ltt_map *m;

	for (m = maps->first; m; m = m->next)
		if (of_session(m, owner, session) && !strcmp(m->attr.name, name))
			return m;
	return NULL;
}

static unsigned int count_locked(struct ltt_maps *maps, uid_t owner, const char *session)
{
	unsigned int n = 0;
	struct ltt_map *m;

	for (m = maps->first; m; m = m->next)
		n += of_session(m, owner, session);
	return n;
}

int ltt_maps_add(struct ltt_maps *maps, uid_t owner, const char *session,
		 const struct ltt_map_attr *a, bool active)
{
	struct ltt_map *m = NULL;
	int err = 0;

	if ((uint64_t)maps->nr_cpus * ltt_app_counter_stride(a->max_keys + 1) >
	    LTT_APP_COUNTER_MAX_CELLS)
		return -ENOSPC;
	pthread_mutex_lock(&maps->lock);
	if (find(maps, owner, session, a->name))
		err = -EEXIST;
	else if (count_locked(maps, owner, session) >= LTT_MAP_MAX_PER_SESSION)
		err = -ENOSPC;
	else if (a->ownership == LTT_MAP_OWNER_KERNEL && !maps->kernel)
		err = -EOPNOTSUPP;
	else if (!(m = calloc(1, sizeof(*m))) || !(m->keys = calloc(a->max_keys, sizeof(char *))))
		err = -ENOMEM;
	else if (a->ownership == LTT_MAP_OWNER_KERNEL)
		err = maps->kernel->create(maps->kernel_arg, owner, session, a, active, &m->km);
	if (err && m) {
		free(m->keys);
		free(m);
	} else if (!err) {
		m->owner = owner;
		snprintf(m->session, sizeof(m->session), "%s", session);
		m->attr = *a;
		m->active = active;
		m->next = maps->first;
		maps->first = m;
	}
	pthread_mutex_unlock(&maps->lock);
	return err;
}

int ltt_maps_ownership(struct ltt_maps *maps, uid_t owner, const char *session, const char *name)
{
	struct ltt_map *m;
	int ret;

	pthread_mutex_lock(&maps->lock);
	m = find(maps, owner, session, name);
	ret = m ? (int)m->attr.ownership : -ENOENT;
	pthread_mutex_unlock(&maps->lock);
	return ret;
}

bool ltt_maps_exists(struct ltt_maps *maps, uid_t owner, const char *session, const char *name)
{
	bool found;

	pthread_mutex_lock(&maps->lock);
	found = find(maps, owner, session, name) != NULL;
	pthread_mutex_unlock(&maps->lock);
	return found;
}

unsigned int ltt_maps_count(struct ltt_maps *maps, uid_t owner, const char *session)
{
	unsigned int n;

	pthread_mutex_lock(&maps->lock);
	n = count_locked(maps, owner, session);
	pthread_mutex_unlock(&maps->lock);
	return n;
}

void ltt_maps_drop_session(struct ltt_maps *maps, uid_t owner, const char *session)
{
	struct ltt_map **pm, *m;

	pthread_mutex_lock(&maps->lock);
	for (pm = &maps->first; (m = *pm);) {
		if (of_session(m, owner, session)) {
			*pm = m->next;
			map_free(maps, m);
		} else {
			pm = &m->next;
		}
	}
	pthread_mutex_unlock(&maps->lock);
}

static void area_set_active(const struct area *a, bool on)
{
	__atomic_store_n((uint32_t *)a->mem, on ? 1u : 0u, __ATOMIC_RELAXED);
}

void ltt_maps_set_active(struct ltt_maps *maps, uid_t owner, const char *session, bool on)
{
	struct ltt_map *m;
	uint32_t i;

	pthread_mutex_lock(&maps->lock);
	for (m = maps->first; m; m = m->next) {
		if (!of_session(m, owner, session))
			continue;
		m->active = on;
		if (m->km)
			maps->kernel->activate(maps->kernel_arg, m->km, on);
		for (i = 0; i < m->nr_areas; i++)
			area_set_active(&m->areas[i], on);
	}
	pthread_mutex_unlock(&maps->lock);
}

/* The counters of @a (after its header). */
static uint64_t *cells(const struct area *a)
{
	return a->mem + LTT_APP_COUNTER_HDR / sizeof(uint64_t);
}

void ltt_maps_clear(struct ltt_maps *maps, uid_t owner, const char *session)
{
	struct ltt_map *m;
	size_t i, c, n;

	pthread_mutex_lock(&maps->lock);
	for (m = maps->first; m; m = m->next) {
		if (!of_session(m, owner, session))
			continue;
		if (m->km)
			maps->kernel->clear(maps->kernel_arg, m->km);
		n = (size_t)maps->nr_cpus * ltt_app_counter_stride(slots_of(m));
		/* exchanged, not stored: an add racing with the clear is counted after it */
		for (i = 0; i < m->nr_areas; i++)
			for (c = 0; c < n; c++)
				(void)__atomic_exchange_n(&cells(&m->areas[i])[c], 0, __ATOMIC_RELAXED);
		if (m->shared)
			memset(m->shared, 0, slots_of(m) * sizeof(*m->shared));
	}
	pthread_mutex_unlock(&maps->lock);
}

/* A new area of @m for @uid's programs; registry lock held.  0 or a negative errno. */
static int area_new(const struct ltt_maps *maps, struct ltt_map *m, uid_t uid, pid_t pid,
		    struct area **ret)
{
	struct area a = { .uid = uid, .pid = pid, .len = ltt_app_counter_size(maps->nr_cpus, slots_of(m)) };
	struct area *v = realloc(m->areas, (m->nr_areas + 1) * sizeof(*v));
	int err;

	if (!v)
		return -ENOMEM;
	m->areas = v;
	a.fd = memfd_create("ltt-map", MFD_CLOEXEC | MFD_ALLOW_SEALING);
	if (a.fd < 0)
		return -errno;
	if (ftruncate(a.fd, (off_t)a.len) || fcntl(a.fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_SEAL))
		goto fail;
	a.mem = mmap(NULL, a.len, PROT_READ | PROT_WRITE, MAP_SHARED, a.fd, 0);
	if (a.mem == MAP_FAILED)
		goto fail;
	area_set_active(&a, m->active);
	v[m->nr_areas] = a;
	*ret = &v[m->nr_areas++];
	return 0;
fail:
	err = -errno;
	close(a.fd);
	return err;
}

int ltt_maps_area(struct ltt_maps *maps, uid_t owner, const char *session, const char *name,
		  uid_t uid, pid_t pid, int *ret_fd, uint32_t *ret_cpus, uint32_t *ret_slots)
{
	struct area *a = NULL;
	struct ltt_map *m;
	uint32_t i;
	int err = 0, fd;

	pthread_mutex_lock(&maps->lock);
	m = find(maps, owner, session, name);
	if (!m || is_kernel(m)) {
		err = -ENOENT;
		goto out;
	}
	if (m->attr.ownership != LTT_MAP_OWNER_PROCESS)
		pid = 0;
	for (i = 0; i < m->nr_areas && !a; i++)
		if (m->areas[i].uid == uid && m->areas[i].pid == pid)
			a = &m->areas[i];
	if (!a)
		err = area_new(maps, m, uid, pid, &a);
	if (err || !a)
		goto out;
	fd = fcntl(a->fd, F_DUPFD_CLOEXEC, 0);
	if (fd < 0) {
		err = -errno;
		goto out;
	}
	*ret_fd = fd;
	*ret_cpus = maps->nr_cpus;
	*ret_slots = slots_of(m);
out:
	pthread_mutex_unlock(&maps->lock);
	return err;
}

int64_t ltt_maps_take_slot(struct ltt_maps *maps, uid_t owner, const char *session,
			   const char *name, const char *key, bool *ret_new)
{
	struct ltt_map *m;
	int64_t slot = -ENOENT;
	uint32_t i;

	*ret_new = false;
	pthread_mutex_lock(&maps->lock);
	m = find(maps, owner, session, name);
	for (i = 0; m && i < m->nr_keys && slot < 0; i++)
		if (!strcmp(m->keys[i], key))
			slot = i;
	if (m && slot < 0) {
		slot = m->attr.max_keys;
		if (m->nr_keys < m->attr.max_keys) {
			m->keys[m->nr_keys] = strdup(key);
			*ret_new = m->keys[m->nr_keys] != NULL;
			slot = m->keys[m->nr_keys] ? (int64_t)m->nr_keys++ : -ENOMEM;
		}
	}
	pthread_mutex_unlock(&maps->lock);
	return slot;
}

int64_t ltt_maps_slot(struct ltt_maps *maps, uid_t owner, const char *session, const char *name,
		      const char *key)
{
	bool taken;

	return ltt_maps_take_slot(maps, owner, session, name, key, &taken);
}

void ltt_maps_untake_slot(struct ltt_maps *maps, uid_t owner, const char *session,
			  const char *name, const char *key)
{
	struct ltt_map *m;

	pthread_mutex_lock(&maps->lock);
	m = find(maps, owner, session, name);
	if (m && m->nr_keys && !strcmp(m->keys[m->nr_keys - 1], key))
		free(m->keys[--m->nr_keys]);
	pthread_mutex_unlock(&maps->lock);
}

/* The sum over the CPUs of @a's counters of slot @slot. */
static uint64_t sum(const struct ltt_maps *maps, const struct ltt_map *m, const struct area *a,
		    uint32_t slot)
{
	uint64_t s = 0;
	uint32_t c;

	for (c = 0; c < maps->nr_cpus; c++)
		s += __atomic_load_n(&cells(a)[(size_t)c * ltt_app_counter_stride(slots_of(m)) + slot],
				     __ATOMIC_RELAXED);
	return s;
}

/*
 * Program @pid is gone: its area of each per-process map goes, its sums
 * first added to the map's shared set under sum-into-shared.  The
 * registry lock held throughout, so a reader sees the counts in the area
 * or in the shared set, never in neither.
 */
void ltt_maps_process_gone(struct ltt_maps *maps, pid_t pid)
{
	struct ltt_map *m;
	uint32_t i, k;

	pthread_mutex_lock(&maps->lock);
	for (m = maps->first; m; m = m->next) {
		if (m->attr.ownership != LTT_MAP_OWNER_PROCESS)
			continue;
		for (i = 0; i < m->nr_areas && m->areas[i].pid != pid; i++)
			;
		if (i == m->nr_areas)
			continue;
		if (m->attr.dead_policy == LTT_MAP_DEAD_SUM && !m->shared)
			m->shared = calloc(slots_of(m), sizeof(*m->shared));
		for (k = 0; m->attr.dead_policy == LTT_MAP_DEAD_SUM && m->shared &&
			    k < slots_of(m); k++)
			m->shared[k] += sum(maps, m, &m->areas[i], k);
		munmap(m->areas[i].mem, m->areas[i].len);
		close(m->areas[i].fd);
		m->areas[i] = m->areas[--m->nr_areas];
	}
	pthread_mutex_unlock(&maps->lock);
}

/* Entry @k of @m: its key, whose, its value from @s. */
static void entry(const struct ltt_map *m, uint32_t k, int64_t uid, int64_t pid, uint64_t s,
		  struct ltt_map_entry *e)
{
	snprintf(e->key, sizeof(e->key), "%s", m->keys[k]);
	e->uid = uid;
	e->pid = pid;
	e->value = ltt_map_value(s, m->attr.value_type, &e->overflow);
}

/* Kernel map @m's description: one set, the kernel's (uid and pid 0). */
static int describe_kernel(const struct ltt_maps *maps, const struct ltt_map *m,
			   struct ltt_map_desc *d)
{
	uint64_t *v = calloc(slots_of(m), sizeof(*v));
	uint32_t k;
	int err;

	if (!v)
		return -ENOMEM;
	err = maps->kernel->read(maps->kernel_arg, m->km, v, slots_of(m));
	if (err)	/* the keys shown with 0 rather than none: logged by the domain */
		memset(v, 0, slots_of(m) * sizeof(*v));
	d->key_overflow = v[m->attr.max_keys];
	for (k = 0; k < m->nr_keys; k++)
		entry(m, k, 0, 0, v[k], &d->entries[d->nr_entries++]);
	free(v);
	return 0;
}

/* @m's description, its entries allocated (every key of every area); registry lock held. */
static int describe(const struct ltt_maps *maps, const struct ltt_map *m,
		    struct ltt_map_desc *d)
{
	size_t groups = m->km ? 1 : m->nr_areas + (m->shared != NULL);
	uint32_t i, k;

	memset(d, 0, sizeof(*d));
	d->attr = m->attr;
	d->active = m->active;
	d->nr_keys = m->nr_keys;
	if (groups && m->nr_keys &&
	    !(d->entries = calloc(groups * m->nr_keys, sizeof(*d->entries))))
		return -ENOMEM;
	if (m->km)
		return describe_kernel(maps, m, d);
	for (i = 0; i < m->nr_areas; i++) {
		d->key_overflow += sum(maps, m, &m->areas[i], m->attr.max_keys);
		for (k = 0; k < m->nr_keys; k++)
			entry(m, k, m->areas[i].uid, m->areas[i].pid,
			      sum(maps, m, &m->areas[i], k), &d->entries[d->nr_entries++]);
	}
	if (m->shared) {
		d->key_overflow += m->shared[m->attr.max_keys];
		for (k = 0; k < m->nr_keys; k++)
			entry(m, k, -1, -1, m->shared[k], &d->entries[d->nr_entries++]);
	}
	return 0;
}

/*
 * The counts by CPU of @m's entries, in describe()'s order: each
 * program's or user's area CPU by CPU; the shared group's and a kernel
 * map's none (n = 0: their entry's value alone).  Registry lock held.
 */
static void put_cpus(const struct ltt_maps *maps, const struct ltt_map *m,
		     const struct ltt_map_desc *d, struct ltt_wbuf *w)
{
	size_t stride = ltt_app_counter_stride(slots_of(m));
	uint32_t i, k, c, n = 0;

	for (i = 0; !m->km && i < m->nr_areas; i++) {
		for (k = 0; k < m->nr_keys; k++, n++) {
			ltt_wbuf_put_u32(w, maps->nr_cpus);
			for (c = 0; c < maps->nr_cpus; c++)
				ltt_wbuf_put_u64(w, __atomic_load_n(&cells(&m->areas[i])[c * stride + k],
								    __ATOMIC_RELAXED));
		}
	}
	for (; n < d->nr_entries; n++)
		ltt_wbuf_put_u32(w, 0);
}

int ltt_maps_put_session(struct ltt_maps *maps, uid_t owner, const char *session,
			 bool with_kernel, bool by_cpu, struct ltt_wbuf *w)
{
	struct ltt_map_desc d;
	struct ltt_map *m;
	uint32_t n = 0;
	int err = 0;

	pthread_mutex_lock(&maps->lock);
	for (m = maps->first; m; m = m->next)
		n += of_session(m, owner, session) && (with_kernel || !is_kernel(m));
	ltt_wbuf_put_u32(w, n);
	for (m = maps->first; m && !err; m = m->next) {
		if (!of_session(m, owner, session) || (!with_kernel && is_kernel(m)))
			continue;
		err = describe(maps, m, &d);
		if (!err)
			ltt_map_desc_put(w, &d);
		if (!err && by_cpu)
			put_cpus(maps, m, &d, w);
		free(d.entries);
	}
	pthread_mutex_unlock(&maps->lock);
	return err || w->err ? -ENOMEM : 0;
}
