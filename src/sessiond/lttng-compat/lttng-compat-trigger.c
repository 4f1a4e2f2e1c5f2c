// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-trigger.c - LTTng 2.13's trigger commands on ltt's
 * (lttng-compat.h): REGISTER_TRIGGER, UNREGISTER_TRIGGER, LIST_TRIGGERS
 * and EXECUTE_ERROR_QUERY become ADD_TRIGGER, REMOVE_TRIGGER and
 * LIST_TRIGGERS of ltt's own triggers (cmd-trigger.c), translated by
 * common/proto/lttng-trigger-proto.h: the same triggers for `lttng` and
 * `lttctl`, one engine.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/array.h"
#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "common/proto/trigger-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/* LTTng's trigger codes (lttng/lttng-error.h). */
#define ERR_INVALID_TRIGGER 125
#define ERR_TRIGGER_EXISTS 126
#define ERR_TRIGGER_NOT_FOUND 127
#define ERR_INVALID_CAPTURE_EXPRESSION 165
#define ERR_EVENT_NOTIFIER_ERROR_ACCOUNTING_FULL 168

/* ltt's trigger failures by LTTng's codes. */
static uint32_t trigger_code(struct ltt_lttng_call *call, enum ltt_error_code err)
{
	switch (err) {
	case LTT_ERR_TRIGGER_EXISTS:
		return ERR_TRIGGER_EXISTS;
	case LTT_ERR_TRIGGER_NOT_FOUND:
		return ERR_TRIGGER_NOT_FOUND;
	case LTT_ERR_TRIGGER_OWNER:
		return LTT_LTTNG_ERR_EPERM;
	case LTT_ERR_TRIGGER_CAPTURE:
		return ERR_INVALID_CAPTURE_EXPRESSION;
	case LTT_ERR_TRIGGER_RULE_SLOTS:
		return ERR_EVENT_NOTIFIER_ERROR_ACCOUNTING_FULL;
	case LTT_ERR_TRIGGER_NAME:
	case LTT_ERR_TRIGGER_CONDITION:
	case LTT_ERR_TRIGGER_ACTION:
	case LTT_ERR_TRIGGER_THRESHOLD:
		LTT_WARN_RL("LTTng client pid %d: %s: %s", (int)call->ctx->cred.pid,
			    ltt_lttng_cmd_name(call->req.cmd), ltt_strerror(err));
		return ERR_INVALID_TRIGGER;
	case LTT_ERR_TRIGGER_UNSUPPORTED:
		return ltt_lttng_refuse(call, "a trigger of this condition on this host",
					"a condition ltt-sessiond evaluates here (lttctl-add-trigger(1))");
	default:
		return ltt_lttng_code(call, err);
	}
}

/*
 * The trigger in @call's variable part into @c: LTT_LTTNG_OK, or the
 * reply's code (what ltt lacks refused and logged).
 */
static uint32_t get_trigger(struct ltt_lttng_call *call, struct ltt_trigger_conf *c)
{
	const char *why = NULL;
	bool hidden = false;
	int err = ltt_lttng_trigger_get(&call->extra, call->gen, c, &hidden, &why);

	if (!err && ltt_rbuf_end(&call->extra))
		err = -EPROTO;
	if (err == -ENOTSUP)
		return ltt_lttng_refuse(call, why, "lttctl add-trigger, with what ltt's triggers take");
	/* only a user-space probe's location passes a descriptor (read past: ltt opens the path) */
	if (err || (call->req.fd_count && c->rule.type != LTT_EVENT_UPROBE))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	if (hidden)	/* only LTTng's own daemon makes them */
		return ltt_lttng_refuse(call, "hidden triggers", "a trigger that is not hidden");
	return LTT_LTTNG_OK;
}

/* ltt's triggers the caller sees (LIST_TRIGGERS): a heap array of *@ret_n. */
static uint32_t ltt_triggers(struct ltt_lttng_call *call, struct ltt_trigger_desc **ret,
			     uint32_t *ret_n)
{
	struct ltt_trigger_desc *v = NULL;
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	uint32_t i, n = 0, ret_code;

	ltt_wbuf_init(&reply);
	ret_code = ltt_lttng_code(call, ltt_lttng_ltt(call, LTT_CLIENT_CMD_LIST_TRIGGERS, NULL,
						      &reply));
	if (ret_code == LTT_LTTNG_OK) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		n = ltt_rbuf_get_u32(&r);
		if (!r.err && n <= reply.len)
			v = calloc(n ? n : 1, sizeof(*v));
		for (i = 0; v && i < n && !r.err; i++)
			ltt_trigger_desc_get(&r, &v[i], call->ctx->minor);
		if (!v)
			ret_code = r.err || n > reply.len ? LTT_LTTNG_ERR_FATAL : LTT_LTTNG_ERR_NOMEM;
		else if (ltt_rbuf_end(&r))
			ret_code = LTT_LTTNG_ERR_FATAL;
	}
	ltt_wbuf_fini(&reply);
	if (ret_code != LTT_LTTNG_OK) {
		free(v);
		return ret_code;
	}
	*ret = v;
	*ret_n = n;
	return LTT_LTTNG_OK;
}

/*
 * The triggers LTTng's clients registered without a name
 * (lttng_register_trigger(): REGISTER_TRIGGER's is_trigger_anonymous).
 * ltt names every trigger; these are listed to LTTng's clients unnamed,
 * and found by what they are, as LTTng's daemon does.  A name the daemon
 * no longer has (removed by lttctl) is dropped when the list is next read.
 */
struct anon {
	int64_t uid;
	char name[LTT_NAME_MAX];
};

static pthread_mutex_t anon_lock = PTHREAD_MUTEX_INITIALIZER;
static struct anon *anons;
static size_t nr_anons, cap_anons;

static bool is_anon(int64_t uid, const char *name)
{
	bool found = false;
	size_t i;

	pthread_mutex_lock(&anon_lock);
	for (i = 0; i < nr_anons && !found; i++)
		found = anons[i].uid == uid && !strcmp(anons[i].name, name);
	pthread_mutex_unlock(&anon_lock);
	return found;
}

static int anon_add(int64_t uid, const char *name)
{
	struct anon *grown = anons;

	pthread_mutex_lock(&anon_lock);
	if (nr_anons == cap_anons)
		grown = ltt_array_grow(anons, &cap_anons, sizeof(*anons));
	if (grown) {
		anons = grown;
		anons[nr_anons].uid = uid;
		snprintf(anons[nr_anons++].name, sizeof(anons->name), "%s", name);
	}
	pthread_mutex_unlock(&anon_lock);
	return grown ? 0 : -ENOMEM;
}

/* Trigger @name of @uid is gone: not anonymous any more. */
static void anon_remove(int64_t uid, const char *name)
{
	size_t i;

	pthread_mutex_lock(&anon_lock);
	for (i = 0; i < nr_anons; i++) {
		if (anons[i].uid == uid && !strcmp(anons[i].name, name)) {
			anons[i] = anons[--nr_anons];
			break;
		}
	}
	pthread_mutex_unlock(&anon_lock);
}

/* Keep only the anonymous triggers of uid @uid among the @n of @v (those of others stay). */
static void anon_keep(int64_t uid, const struct ltt_trigger_desc *v, size_t n)
{
	size_t i, k, kept = 0;
	bool there;

	pthread_mutex_lock(&anon_lock);
	for (i = 0; i < nr_anons; i++) {
		there = anons[i].uid != uid;
		for (k = 0; k < n && !there; k++)
			there = v[k].conf.owner_uid == uid && !strcmp(v[k].conf.name, anons[i].name);
		if (there)
			anons[kept++] = anons[i];
	}
	nr_anons = kept;
	pthread_mutex_unlock(&anon_lock);
}

/*
 * @c as LTTng's serialized trigger without its name and owner, into @w:
 * 0 or -errno.  In 2.16's layout whoever asks, which holds every trigger
 * ltt keeps (an incr-map-value action too): a form only compared with
 * another made here.
 */
static int put_unnamed(struct ltt_wbuf *w, const struct ltt_trigger_conf *c)
{
	struct ltt_trigger_conf *copy = malloc(sizeof(*copy));
	int err;

	if (!copy)
		return -ENOMEM;
	*copy = *c;
	copy->name[0] = '\0';
	copy->owner_uid = 0;
	err = ltt_lttng_trigger_put(w, LTT_LTTNG_GEN_2_16, copy);
	free(copy);
	return err;
}

/* The anonymous trigger of @uid among the @n of @v that is @c; NULL if none. */
static const struct ltt_trigger_desc *find_anon(const struct ltt_trigger_desc *v, size_t n,
						const struct ltt_trigger_conf *c, int64_t uid)
{
	const struct ltt_trigger_desc *found = NULL;
	struct ltt_wbuf a, b;
	size_t i;

	ltt_wbuf_init(&a);
	if (put_unnamed(&a, c) || a.err)
		goto out;
	for (i = 0; i < n && !found; i++) {
		if (v[i].conf.owner_uid != uid || !is_anon(uid, v[i].conf.name))
			continue;
		ltt_wbuf_init(&b);
		if (!put_unnamed(&b, &v[i].conf) && !b.err && b.len == a.len &&
		    !memcmp(a.data, b.data, a.len))
			found = &v[i];
		ltt_wbuf_fini(&b);
	}
out:
	ltt_wbuf_fini(&a);
	return found;
}

/* An anonymous REGISTER_TRIGGER: LTTng's TRIGGER_EXISTS if the caller has one that is @c. */
static uint32_t anon_exists(struct ltt_lttng_call *call, const struct ltt_trigger_conf *c,
			    int64_t uid)
{
	struct ltt_trigger_desc *v = NULL;
	uint32_t n = 0, ret = ltt_triggers(call, &v, &n);

	if (ret == LTT_LTTNG_OK && find_anon(v, n, c, uid))
		ret = ERR_TRIGGER_EXISTS;
	free(v);
	return ret;
}

static uint32_t register_trigger(struct ltt_lttng_call *call)
{
	struct ltt_trigger_conf *c = malloc(sizeof(*c));
	struct ltt_wbuf w, reply;
	const char *name;
	struct ltt_rbuf r;
	uint32_t ret;

	if (!c)
		return LTT_LTTNG_ERR_NOMEM;
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ret = get_trigger(call, c);
	if (ret != LTT_LTTNG_OK)
		goto out;
	if (c->owner_uid < 0)
		c->owner_uid = call->ctx->cred.uid;
	if (call->req.trigger_anonymous) {	/* ltt names it: the name is not the client's */
		c->name[0] = '\0';
		ret = anon_exists(call, c, c->owner_uid);
		if (ret != LTT_LTTNG_OK)
			goto out;
	}
	ltt_trigger_add_put(&w, c, LTT_TRIGGER_FLAG_LTTNG, call->ctx->minor);
	ret = trigger_code(call, ltt_lttng_ltt(call, LTT_CLIENT_CMD_ADD_TRIGGER, &w, &reply));
	if (ret != LTT_LTTNG_OK)
		goto out;
	ltt_rbuf_init(&r, reply.data, reply.len);
	name = ltt_rbuf_get_str(&r, LTT_NAME_MAX);
	if (ltt_rbuf_end(&r)) {
		ret = LTT_LTTNG_ERR_FATAL;
		goto out;
	}
	/* the trigger as registered: named (unless anonymous), its owner resolved */
	if (call->req.trigger_anonymous && anon_add(c->owner_uid, name))
		ret = LTT_LTTNG_ERR_NOMEM;	/* it stays, named: lttng remove-trigger NAME */
	if (!call->req.trigger_anonymous)
		memcpy(c->name, name, strlen(name) + 1);
	/* a user-space probe's binary goes with it (LTTng's client reads an SDT one's only so) */
	if (ret == LTT_LTTNG_OK && c->cond == LTT_CONDITION_EVENT_RULE_MATCHES &&
	    c->rule.type == LTT_EVENT_UPROBE)
		(void)ltt_lttng_probe_fd(call, 0, c->rule.location);
	if (ret == LTT_LTTNG_OK && ltt_lttng_trigger_put(&call->data, call->gen, c))
		ret = LTT_LTTNG_ERR_FATAL;
out:
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	free(c);
	return ret;
}

/* The name ltt gave the caller's anonymous trigger that is @c, into @c; else NOT_FOUND. */
static uint32_t anon_name(struct ltt_lttng_call *call, struct ltt_trigger_conf *c)
{
	const struct ltt_trigger_desc *t;
	struct ltt_trigger_desc *v = NULL;
	uint32_t n = 0, ret = ltt_triggers(call, &v, &n);

	if (c->owner_uid < 0)
		c->owner_uid = call->ctx->cred.uid;
	t = ret == LTT_LTTNG_OK ? find_anon(v, n, c, c->owner_uid) : NULL;
	if (ret == LTT_LTTNG_OK && !t)
		ret = ERR_TRIGGER_NOT_FOUND;
	if (t)
		memcpy(c->name, t->conf.name, sizeof(c->name));
	free(v);
	return ret;
}

static uint32_t unregister_trigger(struct ltt_lttng_call *call)
{
	struct ltt_trigger_conf *c = malloc(sizeof(*c));
	struct ltt_wbuf w;
	uint32_t ret;

	if (!c)
		return LTT_LTTNG_ERR_NOMEM;
	ltt_wbuf_init(&w);
	ret = get_trigger(call, c);
	if (ret == LTT_LTTNG_OK && !c->name[0])
		ret = anon_name(call, c);	/* an anonymous one: found by what it is */
	if (ret == LTT_LTTNG_OK) {
		ltt_wbuf_put_str(&w, c->name);
		ret = trigger_code(call, ltt_lttng_ltt(call, LTT_CLIENT_CMD_REMOVE_TRIGGER, &w, NULL));
		if (ret == LTT_LTTNG_OK)
			anon_remove(c->owner_uid, c->name);
	}
	ltt_wbuf_fini(&w);
	free(c);
	return ret;
}

/* LIST_TRIGGERS: {u32 count, u32 length} then the triggers. */
static uint32_t list_triggers(struct ltt_lttng_call *call)
{
	struct ltt_trigger_desc *v = NULL;
	uint32_t i, n = 0, listed = 0;
	struct ltt_wbuf fix;
	size_t at, body;
	bool uprobe, passed;
	uint32_t ret;

	ret = ltt_triggers(call, &v, &n);
	if (ret != LTT_LTTNG_OK)
		return ret;
	at = call->data.len;
	ltt_wbuf_put_u32(&call->data, 0);
	ltt_wbuf_put_u32(&call->data, 0);
	body = call->data.len;
	anon_keep(call->ctx->cred.uid, v, n);
	for (i = 0; i < n; i++) {
		if (is_anon(v[i].conf.owner_uid, v[i].conf.name))
			v[i].conf.name[0] = '\0';	/* listed unnamed, as LTTng lists it */
		/* a user-space probe's binary passed with it: LTTng's client sends it back */
		uprobe = v[i].conf.rule.type == LTT_EVENT_UPROBE &&
			 v[i].conf.cond == LTT_CONDITION_EVENT_RULE_MATCHES;
		passed = uprobe && ltt_lttng_probe_fd(call, 0, v[i].conf.rule.location);
		if (uprobe != passed || ltt_lttng_trigger_put(&call->data, call->gen, &v[i].conf)) {
			if (passed)
				close(call->fds.fd[--call->fds.nr]);	/* not listed after all */
			LTT_WARN_RL("LTTng %s client pid %d: trigger '%s' has what that LTTng can't describe (2.13: an incr-map-value action) or a probe binary the client can't open (or past the 253 a reply passes): not listed to it; lttctl list-triggers shows it",
				    ltt_lttng_gen_name(call->gen), (int)call->ctx->cred.pid,
				    v[i].conf.name);
			continue;
		}
		listed++;
	}
	if (!call->data.err) {
		ltt_wbuf_init_fixed(&fix, call->data.data + at, 8);
		ltt_wbuf_put_u32(&fix, listed);
		ltt_wbuf_put_u32(&fix, (uint32_t)(call->data.len - body));
	}
	free(v);
	return LTT_LTTNG_OK;
}

/*
 * EXECUTE_ERROR_QUERY: the counters ltt keeps of the trigger named (the
 * caller's; root: anyone's): of a condition, its lost notifications
 * (LTTng's "discarded tracer messages", for event-rule-matches
 * conditions as LTTng); of an action, its failed runs ("total execution
 * failures"); of a trigger, none (as LTTng).
 */
static uint32_t execute_error_query(struct ltt_lttng_call *call)
{
	struct ltt_lttng_error_query *q = malloc(sizeof(*q));
	const struct ltt_trigger_desc *t = NULL;
	struct ltt_trigger_desc *v = NULL;
	const char *why = NULL;
	uint32_t i, n = 0, ret = LTT_LTTNG_OK;
	uint64_t action;
	int err;

	if (!q)
		return LTT_LTTNG_ERR_NOMEM;
	err = ltt_lttng_error_query_get(&call->extra, call->gen, q, &why);
	if (!err && ltt_rbuf_end(&call->extra))
		err = -EPROTO;
	if (err) {
		free(q);
		return err == -ENOTSUP ? ltt_lttng_refuse(call, why, "lttctl list-triggers") :
					 LTT_LTTNG_ERR_INVALID_PROTOCOL;
	}
	if (!q->trigger.name[0])	/* an anonymous one: found by what it is */
		ret = anon_name(call, &q->trigger);
	if (ret == LTT_LTTNG_OK)
		ret = ltt_triggers(call, &v, &n);
	for (i = 0; ret == LTT_LTTNG_OK && i < n && !t; i++)
		if (!strcmp(v[i].conf.name, q->trigger.name) &&
		    (q->trigger.owner_uid < 0 || v[i].conf.owner_uid == q->trigger.owner_uid))
			t = &v[i];
	if (ret == LTT_LTTNG_OK && !t)
		ret = ERR_TRIGGER_NOT_FOUND;
	if (ret != LTT_LTTNG_OK)
		goto out;
	switch (q->target) {
	case LTT_LTTNG_QUERY_CONDITION:
		if (t->conf.cond != LTT_CONDITION_EVENT_RULE_MATCHES)
			goto none;
		ltt_wbuf_put_u32(&call->data, 1);
		ltt_lttng_error_counter_put(&call->data, "discarded tracer messages",
					    "Count of messages discarded by the tracer due to a communication error with the session daemon",
					    t->dropped);
		break;
	case LTT_LTTNG_QUERY_ACTION:
		/* the list's element, or the only action */
		action = q->nr_path ? q->path[0] : 0;
		if (q->nr_path > 1 || action >= t->conf.nr_actions) {
			ret = LTT_LTTNG_ERR_INVALID;
			goto out;
		}
		ltt_wbuf_put_u32(&call->data, 1);
		ltt_lttng_error_counter_put(&call->data, "total execution failures",
					    "Aggregated count of errors encountered when executing the action",
					    t->failures[action]);
		break;
	default:
none:
		ltt_wbuf_put_u32(&call->data, 0);
		break;
	}
out:
	free(v);
	free(q);
	return ret;
}

uint32_t ltt_lttng_trigger_cmd(struct ltt_lttng_call *call)
{
	switch (call->req.cmd) {
	case LTT_LTTNG_CMD_REGISTER_TRIGGER:
		return register_trigger(call);
	case LTT_LTTNG_CMD_UNREGISTER_TRIGGER:
		return unregister_trigger(call);
	case LTT_LTTNG_CMD_LIST_TRIGGERS:
		return list_triggers(call);
	default:
		return execute_error_query(call);
	}
}
