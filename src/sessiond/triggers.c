// SPDX-License-Identifier: GPL-2.0-only
/*
 * triggers.c - the trigger runner (see triggers.h).
 */
#include <errno.h>
#include <pthread.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/client-proto.h"
#include "common/log.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/triggers.h"
#include "sessiond/worker.h"

struct ltt_trigger_runner {
	struct ltt_triggers *trs;
	struct ltt_session_registry *reg;
	const struct ltt_domains *domains;
	struct ltt_client_thread *clients;
	struct ltt_worker *worker;
	pthread_mutex_t lock;		/* over @stopping and submissions */
	bool stopping;
};

/* One firing being run: the worker's, and the client thread's while it notifies. */
struct run {
	struct ltt_evloop_job job;
	struct ltt_trigger_runner *r;
	struct ltt_triggers *trs;
	struct ltt_firing *f;
	int refs;			/* atomic */
};

static void run_put(void *arg)
{
	struct run *run = arg;

	if (__atomic_sub_fetch(&run->refs, 1, __ATOMIC_ACQ_REL))
		return;
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

/* On the worker: the actions of one firing, in order. */
static void run_job(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct run *run = (struct run *)job;
	struct ltt_firing *f = run->f;
	const struct ltt_trigger_conf *c = &f->trigger->conf;
	uint32_t i;
	int err;

	(void)loop;
	for (i = 0; i < c->nr_actions; i++) {
		if (!(f->run & (1u << i)))
			continue;
		if (c->actions[i].type == LTT_ACTION_NOTIFY) {
			__atomic_add_fetch(&run->refs, 1, __ATOMIC_RELAXED);
			ltt_client_thread_notify(run->r->clients, f, run_put, run);
			continue;
		}
		err = run_action(run->r, f->trigger->owner, &c->actions[i]);
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
	struct run *run = calloc(1, sizeof(*run));

	pthread_mutex_lock(&r->lock);
	if (!run || r->stopping) {
		pthread_mutex_unlock(&r->lock);
		if (!run)
			ltt_triggers_count_dropped(r->trs, f->trigger, 1);
		ltt_firing_free(r->trs, f);
		free(run);
		return;
	}
	run->job.fn = run_job;
	run->r = r;
	run->trs = r->trs;
	run->f = f;
	run->refs = 1;
	ltt_worker_submit(r->worker, &run->job);
	pthread_mutex_unlock(&r->lock);
}

static void on_removed(void *arg, struct ltt_trigger *t)
{
	struct ltt_trigger_runner *r = arg;

	pthread_mutex_lock(&r->lock);
	if (!r->stopping)
		ltt_client_thread_trigger_gone(r->clients, t->owner, t->conf.name);
	pthread_mutex_unlock(&r->lock);
}

int ltt_trigger_runner_start(struct ltt_triggers *trs, struct ltt_session_registry *reg,
			     const struct ltt_domains *domains, struct ltt_client_thread *clients,
			     struct ltt_trigger_runner **ret)
{
	struct ltt_trigger_runner *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->trs = trs;
	r->reg = reg;
	r->domains = domains;
	r->clients = clients;
	pthread_mutex_init(&r->lock, NULL);
	err = ltt_worker_start(&r->worker);
	if (err) {
		pthread_mutex_destroy(&r->lock);
		free(r);
		return err;
	}
	trs->hooks = (struct ltt_trigger_hooks){ .fired = on_fired, .removed = on_removed, .arg = r };
	*ret = r;
	return 0;
}

void ltt_trigger_runner_stop(struct ltt_trigger_runner *r)
{
	struct ltt_evloop_job *j, *next;

	if (!r)
		return;
	pthread_mutex_lock(&r->lock);
	r->stopping = true;
	pthread_mutex_unlock(&r->lock);
	for (j = ltt_worker_stop(r->worker); j; j = next) {
		next = j->next;
		run_put((struct run *)j);
	}
	r->worker = NULL;
}

void ltt_trigger_runner_free(struct ltt_trigger_runner *r)
{
	if (!r)
		return;
	r->trs->hooks = (struct ltt_trigger_hooks){ 0 };
	pthread_mutex_destroy(&r->lock);
	free(r);
}
