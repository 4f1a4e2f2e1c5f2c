/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * triggers.h - the trigger runner: runs the actions of the triggers whose
 * condition held (model/trigger.h fires them, from any layer), in order,
 * each one as a command of the trigger's owner (ltt_cmd_dispatch() with
 * the owner's credentials: the same checks as if the owner had typed it),
 * and hands notifications to the client thread's subscribers.
 *
 * A firing's actions run on the worker of its owner's commands
 * (ltt_client_thread_run_as()), after the firings and commands of that
 * owner before it: a firing never waits on the thread that noticed the
 * condition (the app thread, the rotation thread), and a user whose
 * consumer stalls holds up only their own triggers' actions and commands.
 * A session action that fails (the session is gone, already started,
 * ...) is counted in the trigger with its code (list-triggers shows it).
 * One that finds the owner's consumer not answering (CONSUMERD_STALLED)
 * has not failed: it waits for the consumer (counted pending, tried
 * again by the runner's retrier thread at growing intervals, off the
 * worker between tries) and fails only after a minute without an answer.
 */
#ifndef LTT_SESSIOND_DAEMON_TRIGGERS_H
#define LTT_SESSIOND_DAEMON_TRIGGERS_H

#include "sessiond/client/client.h"
#include "sessiond/model/domain.h"
#include "sessiond/model/session.h"
#include "sessiond/model/trigger.h"

struct ltt_trigger_runner;

/**
 * ltt_trigger_runner_start() - start the runner and make it @trs's hooks
 * @reg, @domains, @clients: borrowed; they must outlive the runner
 * @lttng_notif: LTTng's notification channel's thread (--lttng-compat),
 *               told each notification too; NULL: none
 *
 * Returns 0 or a negative errno.
 */
int ltt_trigger_runner_start(struct ltt_triggers *trs, struct ltt_session_registry *reg,
			     const struct ltt_domains *domains, struct ltt_client_thread *clients,
			     struct ltt_client_thread *lttng_notif, struct ltt_trigger_runner **ret);

/**
 * ltt_trigger_runner_stop() - no more firings are taken (those that come
 * are dropped); those under way end with the client thread's workers
 * (ltt_client_thread_stop(): the running ones finish, the others are
 * dropped).  Accepts NULL.  Call before the client thread stops.
 */
void ltt_trigger_runner_stop(struct ltt_trigger_runner *r);

/**
 * ltt_trigger_runner_free() - free a stopped runner, once no thread can
 * fire a trigger any more (the app thread and the rotation thread are
 * stopped); accepts NULL
 */
void ltt_trigger_runner_free(struct ltt_trigger_runner *r);

#endif /* LTT_SESSIOND_DAEMON_TRIGGERS_H */
