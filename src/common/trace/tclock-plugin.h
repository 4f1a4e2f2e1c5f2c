/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock-plugin.h - LTTng-UST's clock plugin (LTTNG_UST_CLOCK_PLUGIN),
 * below the clock of user-space events (tclock.h, which includes this):
 * the callbacks its lttng_ust_clock_plugin_init() sets, the read that
 * LTT_TCLOCK_PLUGIN's buffers call, and ltt's own clock where no plugin
 * is loaded (CLOCK_MONOTONIC in ns).  Which process loads a plugin, and
 * what a session's clock then becomes, is tclock.h's
 * (ltt_tclock_plugin_choose()).
 */
#ifndef LTT_COMMON_TCLOCK_PLUGIN_H
#define LTT_COMMON_TCLOCK_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define LTT_TCLOCK_NS_FREQ 1000000000ULL

/* CLOCK_MONOTONIC in ns: the vDSO, no system call. */
static inline uint64_t ltt_tclock_mono(void)
{
	struct timespec tp;

	clock_gettime(CLOCK_MONOTONIC, &tp);
	return (uint64_t)tp.tv_sec * 1000000000u + (uint64_t)tp.tv_nsec;
}

/*
 * The clock plugin's read64() once its lttng_ust_clock_plugin_init()
 * enabled it (ltt_tclock_plugin_enable()), else NULL.  Hidden: one
 * PC-relative load, read only by LTT_TCLOCK_PLUGIN's buffers.
 */
extern uint64_t (*ltt_tclock_plugin_read64)(void) __attribute__((visibility("hidden")));

/*
 * Now on LTT_TCLOCK_PLUGIN: the plugin's read64(), or CLOCK_MONOTONIC
 * in a process that loaded none.  Out of line, so that the inline clock
 * read every writer has stays as small as without it.
 */
uint64_t ltt_tclock_plugin_now(void) __attribute__((visibility("hidden"), noinline));

/*
 * LTTng-UST's clock plugin (lttng/ust-clock.h's ABI, doc/clock.md): the
 * shared object LTTNG_UST_CLOCK_PLUGIN names is loaded and its
 * lttng_ust_clock_plugin_init() gives its callbacks through
 * lttng_ust_trace_clock_set_*_cb() (LTT_TCLOCK_PLUGIN_ABI below), then
 * lttng_ust_enable_trace_clock_override().
 */
enum ltt_tclock_cb {
	LTT_TCLOCK_CB_READ64,		/* uint64_t (*)(void): the count */
	LTT_TCLOCK_CB_FREQ,		/* uint64_t (*)(void): counts a second */
	LTT_TCLOCK_CB_UUID,		/* int (*)(char *uuid): 36 characters and a NUL */
	LTT_TCLOCK_CB_NAME,		/* const char *(*)(void) */
	LTT_TCLOCK_CB_DESCRIPTION,	/* const char *(*)(void) */
	LTT_TCLOCK_NR_CBS,
};

typedef uint64_t (*ltt_tclock_u64_fn)(void);
typedef int (*ltt_tclock_uuid_fn)(char *uuid);
typedef const char *(*ltt_tclock_text_fn)(void);

/*
 * ltt_tclock_plugin_set() - set callback @which from *@fnp (the address
 * of a function pointer of its type).  Returns 0; -EINVAL for an unknown
 * @which or a NULL callback; -EBUSY once the override is enabled.
 */
int ltt_tclock_plugin_set(unsigned int which, const void *fnp);

/*
 * ltt_tclock_plugin_get() - callback @which into *@fnp: the plugin's once
 * enabled, else ltt's own clock's (CLOCK_MONOTONIC in ns, its name and
 * description, the boot id).  Returns 0, or -EINVAL for an unknown @which.
 */
int ltt_tclock_plugin_get(unsigned int which, void *fnp);

/*
 * ltt_tclock_plugin_enable() - use the callbacks set: read64, freq and
 * name are needed (-EINVAL without), and the name must be a CTF
 * identifier (the trace's metadata maps timestamps by it).  0, or -EBUSY
 * when already enabled.
 */
int ltt_tclock_plugin_enable(void);

/*
 * ltt_tclock_plugin_load() - load the plugin at @path (dlopen) and call
 * its lttng_ust_clock_plugin_init(), which must enable the override.
 * Returns 0, or -1 with a sentence in @err (what is wrong; the caller
 * says what it does instead).
 */
int ltt_tclock_plugin_load(const char *path, char *err, size_t errlen);

/* The enabled plugin's clock, for a trace's metadata. */
struct ltt_tclock_plugin_info {
	char name[128];
	char description[256];
	char uuid[37];		/* "" when the plugin gives none */
	uint64_t freq;
};

/* ltt_tclock_plugin_info() - @ret filled from the callbacks; false when none is enabled */
bool ltt_tclock_plugin_info(struct ltt_tclock_plugin_info *ret);

/*
 * LTTng's names for the functions a plugin calls, each a call of the
 * above, defined with @EXPORT (a visibility attribute) by the objects
 * that load plugins: ltt's liblttng-ust-common.so.1 and the daemons.
 */
#define LTT_TCLOCK_PLUGIN_CB(EXPORT, name, which, type) \
	EXPORT int lttng_ust_trace_clock_set_##name##_cb(type cb); \
	EXPORT int lttng_ust_trace_clock_get_##name##_cb(type *cb); \
	EXPORT int lttng_ust_trace_clock_set_##name##_cb(type cb) \
	{ \
		return ltt_tclock_plugin_set(which, &cb); \
	} \
	EXPORT int lttng_ust_trace_clock_get_##name##_cb(type *cb) \
	{ \
		return ltt_tclock_plugin_get(which, cb); \
	}
#define LTT_TCLOCK_PLUGIN_ABI(EXPORT) \
	LTT_TCLOCK_PLUGIN_CB(EXPORT, read64, LTT_TCLOCK_CB_READ64, ltt_tclock_u64_fn) \
	LTT_TCLOCK_PLUGIN_CB(EXPORT, freq, LTT_TCLOCK_CB_FREQ, ltt_tclock_u64_fn) \
	LTT_TCLOCK_PLUGIN_CB(EXPORT, uuid, LTT_TCLOCK_CB_UUID, ltt_tclock_uuid_fn) \
	LTT_TCLOCK_PLUGIN_CB(EXPORT, name, LTT_TCLOCK_CB_NAME, ltt_tclock_text_fn) \
	LTT_TCLOCK_PLUGIN_CB(EXPORT, description, LTT_TCLOCK_CB_DESCRIPTION, ltt_tclock_text_fn) \
	EXPORT int lttng_ust_enable_trace_clock_override(void); \
	EXPORT int lttng_ust_enable_trace_clock_override(void) \
	{ \
		return ltt_tclock_plugin_enable(); \
	}

#endif /* LTT_COMMON_TCLOCK_PLUGIN_H */
