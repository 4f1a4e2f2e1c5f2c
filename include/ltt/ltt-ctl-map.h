/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-map.h - map channels: counters of a session that programs
 * update when a trigger's incr-map-value action takes their events, no
 * event recorded (doc/maps.md).  User space, one group of counters per
 * user whose programs count; or kernel (client protocol 1.28), one group
 * the kernel keeps by itself.
 */
#ifndef LTT_LTT_CTL_MAP_H
#define LTT_LTT_CTL_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LTT_MAP_KEY_MAX 256		/* bytes of a key or key template, NUL included */
#define LTT_MAP_MAX_PER_SESSION 64	/* map channels of one session */
#define LTT_MAP_MAX_KEYS 65536		/* keys of one map, at most */
#define LTT_MAP_DEFAULT_KEYS 4096	/* when none is given */

enum ltt_map_value_type {
	LTT_MAP_VALUE_S32 = 1,		/* signed-int-32 */
	LTT_MAP_VALUE_S64 = 2,		/* signed-int-64 (and signed-int-max) */
};

/* Whose counters: one set per user, or one per process (LTTng's ownerships). */
enum ltt_map_ownership {
	LTT_MAP_OWNER_USER = 0,		/* user: every program of a user adds to one set */
	LTT_MAP_OWNER_PROCESS = 1,	/* process: a set per program */
	LTT_MAP_OWNER_KERNEL = 2,	/* --type=kernel: one set the kernel keeps (kernel-global) */
};

/* What a per-process map does with a program's counters once it is gone. */
enum ltt_map_dead_policy {
	LTT_MAP_DEAD_DROP = 0,		/* drop: they go with it */
	LTT_MAP_DEAD_SUM = 1,		/* sum-into-shared: added to the map's shared set */
};

/* A map channel to add. */
struct ltt_map_attr {
	char name[LTT_NAME_MAX];
	uint32_t value_type;		/* enum ltt_map_value_type */
	uint32_t max_keys;		/* 1 to LTT_MAP_MAX_KEYS */
	uint32_t ownership;		/* enum ltt_map_ownership */
	uint32_t dead_policy;		/* enum ltt_map_dead_policy: PROCESS only, else DROP */
};

/*
 * One counter: its key, whose it is (the user; with a per-process map the
 * process, or the shared set of the processes gone), its value.
 */
struct ltt_map_entry {
	char key[LTT_MAP_KEY_MAX];
	int64_t uid;			/* the user (-1: the shared set) */
	int64_t pid;			/* 0: a per-user set; -1: the shared set; else the process */
	int64_t value;			/* the CPUs' counts summed, cut to the value type */
	bool overflow;			/* the sum did not fit the value type (it wrapped) */
};

/* A map channel and its counters (ltt_ctl_list_maps()). */
struct ltt_map_desc {
	struct ltt_map_attr attr;
	bool active;			/* its session is started: the programs count */
	uint32_t nr_keys;		/* keys taken, of attr.max_keys */
	uint64_t key_overflow;		/* events counted under no key: the key table was full */
	uint32_t nr_entries;
	struct ltt_map_entry *entries;
};

/**
 * ltt_ctl_add_map_channel() - add map channel @attr to @session
 *
 * Returns 0, -LTT_ERR_MAP_EXISTS, -LTT_ERR_MAP_LIMIT, -LTT_ERR_INVAL (a
 * bad name, value type or key count), -LTT_ERR_MAP_KERNEL (a kernel map
 * the daemon's kernel tracer can't keep), -LTT_ERR_NOT_SUPPORTED (an
 * older daemon) or another -LTT_ERR_*.
 */
int ltt_ctl_add_map_channel(struct ltt_ctl *ctl, const char *session,
			    const struct ltt_map_attr *attr);

/**
 * ltt_ctl_list_maps() - the map channels of @session with their counters
 * @ret_maps: set on success to @ret_count descriptions; free them with
 *            ltt_ctl_maps_free()
 *
 * The counters are read one by one while programs may count: not a
 * snapshot of one instant (stop the session first for one).  Returns 0
 * or -LTT_ERR_*.
 */
int ltt_ctl_list_maps(struct ltt_ctl *ctl, const char *session, struct ltt_map_desc **ret_maps,
		      size_t *ret_count);

/** ltt_ctl_maps_free() - free what ltt_ctl_list_maps() returned; accepts NULL */
void ltt_ctl_maps_free(struct ltt_map_desc *maps, size_t count);

/** ltt_map_value_type_name() - "signed-int-32", "signed-int-64", or NULL */
const char *ltt_map_value_type_name(uint32_t type);

#ifdef __cplusplus
}
#endif

#endif /* LTT_LTT_CTL_MAP_H */
