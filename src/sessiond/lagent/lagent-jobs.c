// SPDX-License-Identifier: GPL-2.0-only
/*
 * lagent-jobs.c - the jobs other threads post to the agent thread
 * (lagent.h): a session's or the triggers' rules (ltt_lagent_sync(),
 * ltt_lagent_sync_triggers()) and a listing (ltt_lagent_list()), made
 * on the caller's thread and run on the agent thread.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <urcu/list.h>

#include "common/base/evloop.h"
#include "common/base/log.h"
#include "common/model/agent.h"
#include "common/proto/lagent-proto.h"
#include "sessiond/lagent/lagent-int.h"
#include "sessiond/lagent/lagent.h"
#include "sessiond/model/trigger.h"

/* The owner of the triggers' rules: no session's id (they count up from 1). */
#define TRIGGERS_OWNER UINT64_MAX

struct sync_job {
	struct ltt_evloop_job job;
	struct ltt_lagent *lagent;
	uint64_t session_id;
	bool reaches_all;	/* the owner's reach (struct owner) */
	uid_t uid;
	size_t nr;
	struct key *keys;
	struct sync_wait *wait;	/* the caller's awaiting the answers (a reference), NULL: none */
};

/* --- jobs from other threads */

static void sync_run(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct sync_job *j = caa_container_of(job, struct sync_job, job);
	struct ltt_lagent *a = j->lagent;
	struct owner *o, *found = NULL;

	(void)loop;
	cds_list_for_each_entry(o, &a->owners, node)
		if (o->session_id == j->session_id)
			found = o;
	if (!found && j->nr) {
		found = calloc(1, sizeof(*found));
		if (!found) {
			if (j->session_id == TRIGGERS_OWNER)
				LTT_WARN("out of memory: LTTng's agents don't follow the triggers' rules");
			else
				LTT_WARN("out of memory: LTTng's agents don't follow session %llu's rules",
					 (unsigned long long)j->session_id);
			goto out;
		}
		found->session_id = j->session_id;
		cds_list_add_tail(&found->node, &a->owners);
	}
	if (found) {
		found->reaches_all = j->reaches_all;
		found->uid = j->uid;
		lagent_keys_free(found->keys, found->nr);
		found->keys = j->keys;
		found->nr = j->nr;
		j->keys = NULL;
		j->nr = 0;
		if (!found->nr) {
			cds_list_del(&found->node);
			free(found);
		}
	}
	/* the ENABLEs and DISABLEs this sends are the ones awaited */
	a->wait = j->wait;
	lagent_reconcile_all(a);
	a->wait = NULL;
out:
	if (j->wait)
		lagent_wait_answered(j->wait, found || !j->nr ? 0 : -ENOMEM);
	lagent_keys_free(j->keys, j->nr);
	free(j);
}

static void list_late(struct ltt_evloop *loop, void *arg)
{
	(void)loop;
	lagent_req_finish(arg);
}

static void list_run(struct ltt_evloop *loop, struct ltt_evloop_job *job)
{
	struct list_req *req = caa_container_of(job, struct list_req, job);
	struct ltt_wbuf w;
	struct conn *c, *tmp;

	ltt_wbuf_init(&w);
	ltt_lagent_put_cmd(&w, LTT_LAGENT_LIST);
	/* a pending count of one while sending: no answer ends it early */
	req->pending = 1;
	cds_list_for_each_entry_safe(c, tmp, &req->lagent->conns, node) {
		if (!c->registered || c->reg.domain != req->domain ||
		    (req->uid != LTT_LIST_EVERY_USER && c->uid != req->uid))
			continue;
		req->pending++;
		lagent_conn_send(c, &w, LTT_LAGENT_LIST, req);
	}
	ltt_wbuf_fini(&w);
	if (loop && !--req->pending)
		lagent_req_finish(req);
	else if (!loop || ltt_evloop_timer_create(loop, list_late, req, &req->timer))
		lagent_req_finish(req);
	else
		ltt_evloop_timer_arm(req->timer, LTT_LAGENT_LIST_MS * 1000000ULL, 0);
	lagent_req_put(req);	/* the job's */
}

/* The keys of @channel's enabled rules appended to @v.  0 or -ENOMEM. */
static int channel_keys(const struct ltt_channel *channel, struct key **v, size_t *nr)
{
	const struct ltt_event_rule *rule;

	cds_list_for_each_entry(rule, &channel->rules, node) {
		const struct ltt_rule_conf *attr = &rule->attr;
		size_t flen = strlen(attr->filter) + 2 * LTT_LAGENT_NAME_SIZE + 64;
		struct key *k, *grown;

		if (!rule->enabled)
			continue;
		grown = realloc(*v, (*nr + 1) * sizeof(**v));
		if (!grown)
			return -ENOMEM;
		*v = grown;
		k = &grown[*nr];
		k->filter = malloc(flen);
		if (!k->filter)
			return -ENOMEM;
		(*nr)++;
		/* LTTng numbers its agents' domains as its own (agent.h) */
		k->domain = (uint32_t)channel->agent->domain;
		k->loglevel_type = (uint32_t)attr->loglevel_type;
		k->loglevel = attr->loglevel_type == LTT_LOGLEVEL_ALL ? channel->agent->all_level :
			attr->loglevel;
		snprintf(k->name, sizeof(k->name), "%s", attr->pattern);
		if (ltt_lagent_filter(k->filter, flen, attr->filter, k->name, k->loglevel_type,
				      k->loglevel))
			k->filter[0] = '\0';
	}
	return 0;
}

/*
 * Post the job of @owner's @nr @keys (taken), or drop them when @oom (they
 * could not all be made: the agents keep what they had); the log names
 * @whose rules.  @session: the owner's, whose reach the agents' users
 * meet (NULL: the triggers', every user's agents: each trigger sees its
 * own user's events).  @wait: await the agents' answers to the ENABLEs and
 * DISABLEs it sends, LTT_LAGENT_SYNC_MS at most.  Returns 0, -ENOMEM, or
 * (@wait) an agent's failure (lagent.h: ltt_lagent_sync_wait()).
 */
static int sync_post(struct ltt_lagent *a, uint64_t owner, const struct ltt_session *session,
		     struct key *keys, size_t nr, bool oom, const char *whose, bool wait)
{
	struct sync_job *j = oom ? NULL : calloc(1, sizeof(*j));
	struct sync_wait *w = j && wait ? calloc(1, sizeof(*w)) : NULL;
	struct ltt_session *waiting;
	struct timespec until;
	bool done;
	int err;

	if (!j || (wait && !w)) {
		LTT_WARN("out of memory: LTTng's agents don't follow %s", whose);
		lagent_keys_free(keys, nr);
		free(j);
		return -ENOMEM;
	}
	j->job.fn = sync_run;
	j->lagent = a;
	j->session_id = owner;
	j->reaches_all = !session || session->reaches_all;
	j->uid = session ? session->uid : 0;
	j->keys = keys;
	j->nr = nr;
	j->wait = w;
	if (w) {
		pthread_mutex_init(&w->lock, NULL);
		pthread_cond_init(&w->cond, NULL);
		w->refs = 2;		/* the caller's and the job's */
		w->pending = 1;		/* the job's, while it tells the agents */
	}
	ltt_evloop_post(a->srv.loop, &j->job);
	if (!w)
		return 0;
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += LTT_LAGENT_SYNC_MS / 1000;
	/* a wait on other processes: list reads the session meanwhile (its gate stays held) */
	waiting = ltt_session_wait_begin();
	pthread_mutex_lock(&w->lock);
	while (!w->done)
		if (pthread_cond_timedwait(&w->cond, &w->lock, &until) == ETIMEDOUT)
			break;
	done = w->done;
	err = done ? w->err : -ENOLINK;	/* an agent that has not answered by then */
	pthread_mutex_unlock(&w->lock);
	ltt_session_wait_end(waiting);
	lagent_wait_put(w);
	return err;
}

/*
 * Post @session's rules (none once @gone), whether it is active or not,
 * to the agent thread, @wait awaiting the answers: sync_post()'s.
 */
static int session_post(struct ltt_lagent *a, struct ltt_session *session, bool gone, bool wait)
{
	struct ltt_session_domain *dom;
	const struct ltt_channel *channel;
	struct key *keys = NULL;
	char whose[LTT_NAME_MAX + 16];
	size_t nr = 0;
	bool oom = false;

	dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	if (!gone && dom) {
		cds_list_for_each_entry(channel, &dom->channels, node)
			if (channel->agent && channel->enabled && !oom)
				oom = channel_keys(channel, &keys, &nr) != 0;
	}
	snprintf(whose, sizeof(whose), "session '%s'", session->name);
	return sync_post(a, session->id, session, keys, nr, oom, whose, wait);
}

void ltt_lagent_sync(struct ltt_lagent *a, struct ltt_session *session, bool gone)
{
	if (a)
		(void)session_post(a, session, gone, false);
}

/* Has @session an agent channel in user space (enabled or not)? */
static bool has_agent_channel(struct ltt_session *session)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, LTT_DOMAIN_USER);
	const struct ltt_channel *channel;

	if (dom)
		cds_list_for_each_entry(channel, &dom->channels, node)
			if (channel->agent)
				return true;
	return false;
}

int ltt_lagent_sync_wait(struct ltt_lagent *a, struct ltt_session *session)
{
	if (!a)
		return 0;
	/* a session without agents' rules tells an agent nothing to take */
	return session_post(a, session, false, has_agent_channel(session));
}

int ltt_lagent_sync_triggers(struct ltt_lagent *a, struct ltt_trigger *const *v, size_t n)
{
	struct key *keys = NULL;
	size_t i, nr = 0;
	bool oom = false;

	if (!a)
		return 0;
	/* an agent domain's rule: its channel of one rule has that agent */
	for (i = 0; i < n && !oom; i++)
		if (v[i]->conf.cond == LTT_CONDITION_EVENT_RULE_MATCHES && v[i]->chan.agent)
			oom = channel_keys(&v[i]->chan, &keys, &nr) != 0;
	/* awaited while a rule is to be taken, as LTTng's REGISTER_TRIGGER awaits it */
	return sync_post(a, TRIGGERS_OWNER, NULL, keys, nr, oom, "the triggers' rules", nr > 0);
}

int ltt_lagent_list(struct ltt_lagent *a, uint32_t domain, uid_t uid, struct ltt_wbuf *reply,
		    uint32_t *count)
{
	struct list_req *req;
	struct timespec until;
	bool done;
	int ret = 0;

	if (!a)
		return 0;
	req = calloc(1, sizeof(*req));
	if (!req)
		return -ENOMEM;
	req->job.fn = list_run;
	req->lagent = a;
	req->domain = domain;
	req->uid = uid;
	req->refs = 2;		/* the caller's and the job's */
	pthread_mutex_init(&req->lock, NULL);
	pthread_cond_init(&req->cond, NULL);
	ltt_wbuf_init(&req->names);
	ltt_evloop_post(a->srv.loop, &req->job);
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += LTT_LAGENT_LIST_MS / 1000 + 1;
	pthread_mutex_lock(&req->lock);
	while (!req->done)
		if (pthread_cond_timedwait(&req->cond, &req->lock, &until) == ETIMEDOUT)
			break;
	done = req->done;
	pthread_mutex_unlock(&req->lock);
	if (!done) {
		ret = -ETIMEDOUT;
	} else if (req->names.err) {
		ret = -ENOMEM;
	} else {
		ltt_wbuf_put_bytes(reply, req->names.data, req->names.len);
		*count += req->count;
	}
	lagent_req_put(req);
	return ret;
}
