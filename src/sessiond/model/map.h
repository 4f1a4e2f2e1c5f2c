/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * map.h - the daemon's map channels (doc/maps.md): for each one, its key
 * table (slot i holds key i; slot max_keys counts the events whose key
 * found the table full) and one counter area per user whose programs
 * count in it (one per program for a per-process map, and the sums of
 * those gone: the shared set), a memfd the programs map (COUNTER_ADD,
 * app-proto.h).
 *
 * One registry per daemon, under its own mutex: a leaf lock, held only
 * inside these calls (never with another lock taken inside it), so any
 * layer may call them, the session lock or the apps lock held.  Maps are
 * named by their session's owner, the session's name and their own.  The
 * daemon only reads and zeroes counters in the areas (its own offsets,
 * never a pointer from the programs).
 */
#ifndef LTT_SESSIOND_MODEL_MAP_H
#define LTT_SESSIOND_MODEL_MAP_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/codec.h"
#include "common/model/map.h"

struct ltt_map;

/*
 * Kernel maps (LTT_MAP_OWNER_KERNEL): their counters are the kernel
 * domain's (kernel-map.c), which the registry calls under its lock (the
 * domain takes only its own leaf lock inside these calls, and asks the
 * kernel thread).  Each returns 0 or a negative errno.
 */
struct ltt_maps_kernel {
	/* the counters of map @a of @owner's @session, counting when @active: *@ret_km */
	int (*create)(void *arg, uid_t owner, const char *session, const struct ltt_map_attr *a,
		      bool active, void **ret_km);
	void (*destroy)(void *arg, void *km);
	void (*activate)(void *arg, void *km, bool on);
	void (*clear)(void *arg, void *km);
	/* the counts of slots 0 to @nr - 1 into @values */
	int (*read)(void *arg, void *km, uint64_t *values, uint32_t nr);
};

struct ltt_maps {
	pthread_mutex_t lock;
	struct ltt_map *first;
	uint32_t nr_cpus;		/* the areas' rows: the possible CPUs */
	const struct ltt_maps_kernel *kernel;	/* NULL: no kernel maps */
	void *kernel_arg;
};

/** ltt_maps_init() / ltt_maps_fini() - an empty registry; fini frees every map */
void ltt_maps_init(struct ltt_maps *maps);
void ltt_maps_fini(struct ltt_maps *maps);

/**
 * ltt_maps_set_kernel() - kernel maps are kept by @ops with @arg (the
 * kernel domain's, borrowed until ltt_maps_fini() or until set to NULL);
 * before any command.  NULL once the kernel domain removed its maps'
 * counters (ltt_kmaps_detach()): a kernel map still listed is then freed
 * without them.
 */
void ltt_maps_set_kernel(struct ltt_maps *maps, const struct ltt_maps_kernel *ops, void *arg);

/**
 * ltt_maps_add() - add map channel @a (ltt_map_attr_valid()) to session
 * @session of @owner, active when @active.  Returns 0, -EEXIST (the
 * session has one of that name), -ENOSPC (LTT_MAP_MAX_PER_SESSION, or
 * more than LTT_APP_COUNTER_MAX_CELLS counters a user), -EOPNOTSUPP (a
 * kernel map, which nothing keeps here: the kernel domain logged why) or
 * -ENOMEM.
 */
int ltt_maps_add(struct ltt_maps *maps, uid_t owner, const char *session,
				 const struct ltt_map_attr *a, bool active);

/** ltt_maps_exists() - has @owner's @session a map channel @name? */
bool ltt_maps_exists(struct ltt_maps *maps, uid_t owner, const char *session, const char *name);

/**
 * ltt_maps_ownership() - the ownership (enum ltt_map_ownership) of map
 * channel @name of @owner's @session, or -ENOENT
 */
int ltt_maps_ownership(struct ltt_maps *maps, uid_t owner, const char *session, const char *name);

/** ltt_maps_count() - how many map channels @owner's @session has */
unsigned int ltt_maps_count(struct ltt_maps *maps, uid_t owner, const char *session);

/**
 * ltt_maps_drop_session() - the session is destroyed: its maps go (the
 * programs keep their mapping of an area until the trigger goes)
 */
void ltt_maps_drop_session(struct ltt_maps *maps, uid_t owner, const char *session);

/** ltt_maps_set_active() - the session started (@on) or stopped: programs count or not */
void ltt_maps_set_active(struct ltt_maps *maps, uid_t owner, const char *session, bool on);

/** ltt_maps_clear() - every counter of the session's maps back to 0 (clear) */
void ltt_maps_clear(struct ltt_maps *maps, uid_t owner, const char *session);

/**
 * ltt_maps_area() - the counter area of map @name for the programs of
 * @uid (of program @pid alone, for a per-process map), made at the first
 * ask: a new descriptor of its memfd into @ret_fd (the caller's to
 * close), its layout into @ret_cpus, @ret_slots
 *
 * Returns 0, -ENOENT (no such map, or a kernel map), -ENOMEM, or a
 * system call's errno.
 */
int ltt_maps_area(struct ltt_maps *maps, uid_t owner, const char *session, const char *name,
		  uid_t uid, pid_t pid, int *ret_fd, uint32_t *ret_cpus, uint32_t *ret_slots);

/**
 * ltt_maps_process_gone() - program @pid is gone: its areas of the
 * per-process maps go, their sums added to each map's shared set first
 * when its dead-process policy is sum-into-shared
 */
void ltt_maps_process_gone(struct ltt_maps *maps, pid_t pid);

/**
 * ltt_maps_slot() - the slot of @key in map @name: its own, taken now if
 * new and the table has room, else the overflow slot (max_keys).
 * Returns the slot, or -ENOENT (no such map) or -ENOMEM.
 */
int64_t ltt_maps_slot(struct ltt_maps *maps, uid_t owner, const char *session, const char *name,
		      const char *key);

/** ltt_maps_take_slot() - ltt_maps_slot(), and whether @key was taken now (*@ret_new) */
int64_t ltt_maps_take_slot(struct ltt_maps *maps, uid_t owner, const char *session,
			   const char *name, const char *key, bool *ret_new);

/**
 * ltt_maps_untake_slot() - give back @key, taken by ltt_maps_take_slot()
 * for what was then refused, if it is still the newest key of map @name
 * (a later one keeps it)
 */
void ltt_maps_untake_slot(struct ltt_maps *maps, uid_t owner, const char *session,
			  const char *name, const char *key);

/**
 * ltt_maps_put_session() - u32 count, then each map's description
 * (common/map.h's map_desc) of the session (its kernel maps only when
 * @with_kernel: a client of minor 28 or later), its counters read now,
 * one by one (no snapshot of one instant); with @by_cpu, each followed by
 * its entries' counts by CPU (LIST_MAP_CPUS).  Returns 0 or -ENOMEM.
 */
int ltt_maps_put_session(struct ltt_maps *maps, uid_t owner, const char *session,
			 bool with_kernel, bool by_cpu, struct ltt_wbuf *w);

#endif /* LTT_SESSIOND_MODEL_MAP_H */
