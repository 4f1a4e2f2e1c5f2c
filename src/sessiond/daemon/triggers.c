// SPDX-License-Identifier: GPL-2.0-only
/*
 * triggers.c - the trigger runner (see triggers.h).
 */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <urcu/list.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/daemon/triggers.h"

/*
 * A session action the owner's consumer could not take (CONSUMERD_STALLED:
 * stopped, or behind) waits for it: tried again after RETRY_FIRST_MS,
 * then at intervals doubling up to RETRY_MAX_MS, for PENDING_MAX_MS in
 * all; only then is it a failure.  Each try costs the owner's worker at
 * most the rotation's probe (500 ms), between the owner's commands.
 */
#define RETRY_FIRST_MS 100
#define RETRY_MAX_MS 2000
#define PENDING_MAX_MS 60000
/*
 * Firings on their way (to the client threads, to the owner's worker) at
 * most: past it, a firing is not queued, and each action it was to run is
 * counted failed (TRIGGER_BUSY): it was counted fired, so it is not a
 * dropped notification (those are the matches never fired).  A kernel
 * rule matching some 200 000 times a second (sched_switch) against a
 * client thread that fell behind had queued them without bound (14 GB;
 * each is some 8 KiB).
 */
#define RUNS_MAX 4096

struct ltt_trigger_runner {
	struct ltt_triggers *trs;
	struct ltt_session_registry *reg;
	const struct ltt_domains *domains;
	struct ltt_client_thread *clients;
	struct ltt_client_thread *lttng_notif;	/* NULL: none */
	pthread_mutex_t lock;		/* over @stopping, submissions and @waiting */
	pthread_cond_t wake;		/* @waiting has a new first try, or @stopping */
	pthread_t retrier;		/* hands the waiting runs back to their workers */
	bool retrier_started;
	bool stopping;
	unsigned int runs;		/* atomic: runs not freed yet, at most RUNS_MAX */
	struct cds_list_head waiting;	/* struct run: a session action waits for its consumer */
};

/* One firing being run: its owner's worker's, and the client thread's while it notifies. */
struct run {
	struct ltt_trigger_runner *r;
	struct ltt_triggers *trs;
	struct ltt_firing *f;
	uint32_t next;			/* the action to take next */
	int refs;			/* atomic */
	/* While action @next waits for the consumer (pending_ns not 0), in @r->waiting. */
	struct cds_list_head node;
	uint64_t pending_ns;		/* monotonic: when it began to wait, 0: it does not */
	uint64_t due_ns;		/* its next try */
	unsigned int retry_ms;		/* the interval after that one */
};

static void run_put(void *arg)
{
	struct run *run = arg;

	if (__atomic_sub_fetch(&run->refs, 1, __ATOMIC_ACQ_REL))
		return;
	__atomic_sub_fetch(&run->r->runs, 1, __ATOMIC_RELAXED);
	ltt_firing_free(run->trs, run->f);
	free(run);
}

/* The owner's primary group, for the commands' credentials; -1 if unknown. */
static gid_t owner_gid(uid_t uid)
{
	struct passwd pw, *res = NULL;
	char buf[4096];

	if (getpwuid_r(uid, &pw, buf, sizeof(buf), &res) || !res)
		return (gid_t)-1;
	return pw.pw_gid;
}

/* The request of session action @a, as a client would send it. */
static uint16_t action_request(const struct ltt_action_conf *a, struct ltt_wbuf *w)
{
	ltt_wbuf_put_str(w, a->session);
	switch (a->type) {
	case LTT_ACTION_START_SESSION:
		return LTT_CLIENT_CMD_START_SESSION;
	case LTT_ACTION_STOP_SESSION:
		ltt_wbuf_put_u8(w, 0);	/* don't wait for the data: the runner goes on */
		return LTT_CLIENT_CMD_STOP_SESSION;
	case LTT_ACTION_ROTATE_SESSION:
		return LTT_CLIENT_CMD_ROTATE_SESSION;
	case LTT_ACTION_SNAPSHOT_SESSION:
		ltt_wbuf_put_u8(w, a->has_output);
		if (a->has_output)
			ltt_proto_put_snapshot_output(w, &a->output);
		return LTT_CLIENT_CMD_SNAPSHOT_RECORD;
	default:
		return 0;
	}
}

/* Run session action @a as @owner: 0 or the ltt error code it got. */
static int run_action(struct ltt_trigger_runner *r, uid_t owner, const struct ltt_action_conf *a)
{
	struct ltt_cmd_ctx ctx = {
		.registry = r->reg,
		.domains = r->domains,
		.cred = { .pid = getpid(), .uid = owner, .gid = owner_gid(owner) },
		.client_fd = -1,
		.minor = LTT_CLIENT_MINOR,
	};
	struct ltt_wbuf req, reply;
	uint16_t cmd;
	int err;

	ltt_wbuf_init(&req);
	ltt_wbuf_init(&reply);
	cmd = action_request(a, &req);
	err = req.err ? LTT_ERR_NOMEM :
	      (int)ltt_cmd_dispatch(&ctx, cmd, req.data, req.len, &reply);
	ltt_wbuf_fini(&req);
	ltt_wbuf_fini(&reply);
	return err;
}

/*
 * The notify actions of @run from @run->next on, up to its next session
 * action (left in @run->next); never blocks.  Returns whether one is left.
 */
static bool notify_up_to_session(struct run *run)
{
	struct ltt_firing *f = run->f;
	const struct ltt_trigger_conf *c = &f->trigger->conf;

	for (; run->next < c->nr_actions; run->next++) {
		if (!(f->run & (1u << run->next)))
			continue;
		if (c->actions[run->next].type != LTT_ACTION_NOTIFY)
			return true;
		__atomic_add_fetch(&run->refs, 1, __ATOMIC_RELAXED);
		ltt_client_thread_notify(run->r->clients, f, run->next, run_put, run);
		if (run->r->lttng_notif) {
			__atomic_add_fetch(&run->refs, 1, __ATOMIC_RELAXED);
			ltt_client_thread_notify(run->r->lttng_notif, f, run->next, run_put, run);
		}
	}
	return false;
}

/*
 * Action @run->next got CONSUMERD_STALLED: does it wait for the consumer
 * (then it is in @r->waiting, @run's reference with it) rather than fail?
 * No once it waited PENDING_MAX_MS, the daemon stops or the trigger is
 * gone.  On the owner's worker.
 */
static bool wait_for_consumer(struct run *run)
{
	struct ltt_trigger_runner *r = run->r;
	uint64_t now = ltt_evloop_now_ns();
	bool first = !run->pending_ns, wait;

	if (first) {
		if (!ltt_triggers_action_pending(run->trs, run->f->trigger, run->next, true))
			return false;	/* removed: nothing to wait for */
		run->pending_ns = now;
		run->retry_ms = RETRY_FIRST_MS;
	} else if (now - run->pending_ns >= (uint64_t)PENDING_MAX_MS * 1000000) {
		return false;
	}
	run->due_ns = now + (uint64_t)run->retry_ms * 1000000;
	run->retry_ms = run->retry_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : run->retry_ms * 2;
	/* said before @run is handed over: the retrier may run it, and free it, at once */
	if (first)
		LTT_INFO("trigger '%s' (uid %u): %s of session '%s' waits for the consumer (up to %d s)",
			 run->f->trigger->conf.name, (unsigned int)run->f->trigger->owner,
			 ltt_action_type_name((enum ltt_action_type)
					      run->f->trigger->conf.actions[run->next].type),
			 run->f->trigger->conf.actions[run->next].session, PENDING_MAX_MS / 1000);
	pthread_mutex_lock(&r->lock);
	wait = !r->stopping;
	if (wait) {
		cds_list_add_tail(&run->node, &r->waiting);
		pthread_cond_signal(&r->wake);
	}
	pthread_mutex_unlock(&r->lock);
	return wait;
}

/* Action @run->next is done waiting (it ran, or failed for good). */
static void end_wait(struct run *run)
{
	if (!run->pending_ns)
		return;
	ltt_triggers_action_pending(run->trs, run->f->trigger, run->next, false);
	run->pending_ns = 0;
}

/*
 * On the owner's worker: the actions of one firing from its first session
 * action on, in order.  @fail: it could not run there (-ESHUTDOWN: the
 * daemon stops; else its session actions are counted failed, LIMIT when
 * no worker could be had, NOMEM without memory; its
 * notifications still go).
 */
static void run_job(void *arg, int fail)
{
	struct run *run = arg;
	struct ltt_firing *f = run->f;
	const struct ltt_trigger_conf *c = &f->trigger->conf;
	uint32_t i;
	int err;

	/* a removed trigger's action that waited is dropped, not run */
	if (fail == -ESHUTDOWN ||
	    (run->pending_ns && ltt_triggers_removed(run->trs, f->trigger))) {
		end_wait(run);
		run_put(run);
		return;
	}
	while (notify_up_to_session(run)) {
		i = run->next;
		err = fail == -EAGAIN ? LTT_ERR_LIMIT : fail ? LTT_ERR_NOMEM :
		      run_action(run->r, f->trigger->owner, &c->actions[i]);
		if (err == LTT_ERR_CONSUMERD_STALLED && wait_for_consumer(run))
			return;		/* tried again by the retrier */
		end_wait(run);
		run->next++;
		if (err)
			LTT_WARN_RL("trigger '%s' (uid %u): %s of session '%s' failed: %s", c->name,
				    (unsigned int)f->trigger->owner,
				    ltt_action_type_name((enum ltt_action_type)c->actions[i].type),
				    c->actions[i].session, ltt_error_name(err));
		ltt_triggers_action_done(run->trs, f->trigger, i, err);
	}
	run_put(run);
}

static void on_fired(void *arg, struct ltt_firing *f)
{
	struct ltt_trigger_runner *r = arg;
	struct run *run;
	bool more;

	if (__atomic_add_fetch(&r->runs, 1, __ATOMIC_RELAXED) > RUNS_MAX) {
		__atomic_sub_fetch(&r->runs, 1, __ATOMIC_RELAXED);
		ltt_triggers_firing_lost(r->trs, f, LTT_ERR_TRIGGER_BUSY);
		ltt_firing_free(r->trs, f);
		return;
	}
	run = calloc(1, sizeof(*run));
	pthread_mutex_lock(&r->lock);
	if (!run || r->stopping) {
		pthread_mutex_unlock(&r->lock);
		__atomic_sub_fetch(&r->runs, 1, __ATOMIC_RELAXED);
		if (!run)
			ltt_triggers_firing_lost(r->trs, f, LTT_ERR_NOMEM);
		ltt_firing_free(r->trs, f);
		free(run);
		return;
	}
	run->r = r;
	run->trs = r->trs;
	run->f = f;
	run->refs = 1;
	/*
	 * The notifications before any session action go at once; the rest
	 * waits for the owner's commands and firings before it.  Under the
	 * lock: the client thread outlives a runner not stopped.
	 */
	more = notify_up_to_session(run);
	if (more)
		ltt_client_thread_run_as(r->clients, f->trigger->owner, run_job, run);
	pthread_mutex_unlock(&r->lock);
	if (!more)
		run_put(run);
}

static void on_removed(void *arg, struct ltt_trigger *t)
{
	struct ltt_trigger_runner *r = arg;

	pthread_mutex_lock(&r->lock);
	if (!r->stopping)
		ltt_client_thread_trigger_gone(r->clients, t->owner, t->conf.name);
	pthread_mutex_unlock(&r->lock);
}

/*
 * The retrier: each waiting run, when due, goes back to its owner's
 * worker (behind what that worker has by then).  Left at stop, the
 * waiting runs are dropped by ltt_trigger_runner_stop().
 */
static void *retrier(void *arg)
{
	struct ltt_trigger_runner *r = arg;
	struct run *run, *tmp;
	uint64_t now, first;
	struct timespec ts;

	pthread_mutex_lock(&r->lock);
	while (!r->stopping) {
		now = ltt_evloop_now_ns();
		first = UINT64_MAX;
		cds_list_for_each_entry_safe(run, tmp, &r->waiting, node) {
			if (run->due_ns > now) {
				first = run->due_ns < first ? run->due_ns : first;
				continue;
			}
			cds_list_del(&run->node);
			/* under the lock: the client thread outlives a runner not stopped */
			ltt_client_thread_run_as(r->clients, run->f->trigger->owner, run_job, run);
		}
		if (first == UINT64_MAX) {
			pthread_cond_wait(&r->wake, &r->lock);
			continue;
		}
		ts.tv_sec = (time_t)(first / 1000000000);
		ts.tv_nsec = (long)(first % 1000000000);
		pthread_cond_timedwait(&r->wake, &r->lock, &ts);
	}
	pthread_mutex_unlock(&r->lock);
	return NULL;
}

int ltt_trigger_runner_start(struct ltt_triggers *trs, struct ltt_session_registry *reg,
			     const struct ltt_domains *domains, struct ltt_client_thread *clients,
			     struct ltt_client_thread *lttng_notif, struct ltt_trigger_runner **ret)
{
	struct ltt_trigger_runner *r = calloc(1, sizeof(*r));
	pthread_condattr_t ca;
	int err;

	if (!r)
		return -ENOMEM;
	r->trs = trs;
	r->reg = reg;
	r->domains = domains;
	r->clients = clients;
	r->lttng_notif = lttng_notif;
	CDS_INIT_LIST_HEAD(&r->waiting);
	pthread_mutex_init(&r->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&r->wake, &ca);
	pthread_condattr_destroy(&ca);
	err = pthread_create(&r->retrier, NULL, retrier, r);
	if (err) {
		pthread_cond_destroy(&r->wake);
		pthread_mutex_destroy(&r->lock);
		free(r);
		return -err;
	}
	r->retrier_started = true;
	trs->hooks = (struct ltt_trigger_hooks){ .fired = on_fired, .removed = on_removed, .arg = r };
	*ret = r;
	return 0;
}

void ltt_trigger_runner_stop(struct ltt_trigger_runner *r)
{
	struct run *run, *tmp;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stopping = true;
	pthread_cond_signal(&r->wake);
	pthread_mutex_unlock(&r->lock);
	if (r->retrier_started)
		pthread_join(r->retrier, NULL);
	r->retrier_started = false;
	/* no run joins @waiting once stopping: those in it are dropped */
	cds_list_for_each_entry_safe(run, tmp, &r->waiting, node) {
		cds_list_del(&run->node);
		end_wait(run);
		run_put(run);
	}
}

void ltt_trigger_runner_free(struct ltt_trigger_runner *r)
{
	if (!r)
		return;
	r->trs->hooks = (struct ltt_trigger_hooks){ 0 };
	pthread_cond_destroy(&r->wake);
	pthread_mutex_destroy(&r->lock);
	free(r);
}
