/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * testpoint.h - LTTng's test points, offered by ltt's daemons so that
 * lttng-tools' own tests run against them unchanged.
 *
 * A test point is a named place in a daemon where, when the variable
 * LTTNG_TESTPOINT_ENABLE is "1" in its environment (read once, at start,
 * with secure_getenv()), the daemon calls the function
 * __testpoint_NAME() that some object of the process defines, if one
 * does: lttng-tools' tests LD_PRELOAD a library that defines them
 * (tests/regression/tools/notification/sessiond_testpoints.c and
 * consumer_testpoints.c) into the session daemon, whose consumers inherit
 * it.  Those functions in turn look up, with dlsym(), what ltt's daemons
 * export for them under LTTng's names (their link flags export these
 * few from the executables): ltt-sessiond's notifier_consumption_paused,
 * ltt-consumerd's data_consumption_paused and lttng_consumer_get_type().
 *
 * The points, as LTTng has them:
 *   ltt-sessiond   sessiond_thread_notification (once, before the threads
 *                  that read programs' notifications start), then
 *                  sessiond_handle_notifier_event_pipe (each time a
 *                  program's notification socket is to be read); the
 *                  socket is not read for a second when the point returns
 *                  non-zero or notifier_consumption_paused is set
 *   ltt-consumerd  consumerd_thread_data (once, before the data threads
 *                  run), then consumerd_thread_data_poll (every
 *                  LTT_TESTPOINT_POLL_MS in each data thread); no stream
 *                  is drained while data_consumption_paused is set
 *   health         the loops standing for LTTng's health slots run their
 *                  threads' points when they start (ltt_evloop_set_points():
 *                  sessiond_thread_manage_clients, _manage_apps,
 *                  _registration_apps, _app_manage_notify,
 *                  _app_reg_dispatch, _ht_cleanup;
 *                  consumerd_thread_channel, _metadata, _metadata_timer;
 *                  relayd_thread_dispatcher, _worker, _listener, and their
 *                  live_ ones); stuck in one, only its slot is in bad
 *                  health; one returning non-zero ends its loop in error.
 *                  The kernel thread runs sessiond_thread_manage_kernel
 *                  once the daemon has started (ltt_kabi_run_points():
 *                  the start waits on that thread); failed, it refuses
 *                  every later request
 *
 * Cost: disabled (the variable unset, or the process privileged by
 * set-user-ID or file capabilities: secure_getenv() gives nothing), a
 * point is a load and a branch, and no symbol is ever looked up.  What is
 * called enabled is only code that the process loaded already, which
 * whoever sets its environment (LD_PRELOAD) could run anyway: the
 * variable gives nobody a way in that the environment did not.
 */
#ifndef LTT_COMMON_TESTPOINT_H
#define LTT_COMMON_TESTPOINT_H

#include <stdbool.h>

/* Set once by ltt_testpoints_init(), before any thread; read-only after. */
extern bool ltt_testpoints_on;

/* How often a consumer's data thread calls its poll point (enabled only). */
#define LTT_TESTPOINT_POLL_MS 100

/* One point's lookup, cached: LTT_TESTPOINT() makes one per call site. */
struct ltt_testpoint {
	const char *symbol;		/* "__testpoint_NAME" */
	int (*fn)(void);		/* under the module's lock: found */
	bool looked_up;			/* under the module's lock */
	bool parallel;			/* called outside the lock (stateless ones) */
};

/*
 * LTT_TESTPOINT_INIT(NAME): a point called outside the module's lock, as
 * an event loop's are (ltt_evloop_set_points()): LTTng's health tests'
 * functions keep no state, and one that stalls holds up no other.
 */
#define LTT_TESTPOINT_INIT(name) { .symbol = "__testpoint_" #name, .parallel = true }

/**
 * ltt_testpoints_init() - read LTTNG_TESTPOINT_ENABLE (secure_getenv())
 *
 * Call from main() before any thread starts.  Returns whether the points
 * are on (logged once when they are).
 */
bool ltt_testpoints_init(void);

/**
 * ltt_testpoint_run() - call @tp's function, looking it up the first time
 *
 * Any thread; calls are serialized (the functions LTTng's tests define
 * share their state), but for a @tp->parallel one's.  Returns what it returned, or 0 where no object
 * defines it.
 */
int ltt_testpoint_run(struct ltt_testpoint *tp);

/* LTT_TESTPOINT(NAME): 0 when the points are off, else __testpoint_NAME()'s. */
#define LTT_TESTPOINT(name)                                                          \
	(__builtin_expect(ltt_testpoints_on, 0) ? ({                                 \
		static struct ltt_testpoint ltt_tp_ = { .symbol = "__testpoint_" #name }; \
		ltt_testpoint_run(&ltt_tp_);                                         \
	}) : 0)

#endif /* LTT_COMMON_TESTPOINT_H */
