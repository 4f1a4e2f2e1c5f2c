// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-trigger.c - add-trigger, remove-trigger, list-triggers (client
 * protocol minor 18).  The triggers are the model's (model/trigger.h);
 * the user-space domain gives programs the event-rule conditions they
 * evaluate (triggers_changed) before the command answers.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/errmap.h"
#include "common/base/log.h"
#include "common/model/agent.h"
#include "common/model/trigger.h"
#include "common/probe/probe-loc.h"
#include "common/proto/client-proto.h"
#include "common/proto/trigger-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/map.h"
#include "sessiond/model/trigger.h"

/*
 * What this daemon evaluates of @c's condition: LTT_ERR_OK, else the code
 * it is refused with, whole.
 */
static enum ltt_error_code supported(const struct ltt_cmd_ctx *ctx,
				     const struct ltt_trigger_conf *c)
{
	int i = ltt_domain_index((enum ltt_domain)c->domain);
	struct ltt_domain_impl *d = i < 0 ? NULL : ctx->domains->v[i];
	bool can;

	/* a domain this daemon can't trace: why (KERNEL_DISABLED, ...) */
	if (c->cond != LTT_CONDITION_SESSION_CONSUMED_SIZE_GE &&
	    c->cond != LTT_CONDITION_SESSION_ROTATION_STARTS &&
	    c->cond != LTT_CONDITION_SESSION_ROTATION_FINISHES && i >= 0 && !d &&
	    ctx->domains->why_not[i])
		return ctx->domains->why_not[i];
	switch (c->cond) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		/* the programs evaluate these (ust-trigger.c); the kernel says */
		if (c->domain == LTT_DOMAIN_USER || ltt_agent_domain((enum ltt_domain)c->domain))
			return LTT_ERR_OK;
		if (d && d->ops->check_trigger)
			return d->ops->check_trigger(d, c);
		can = false;
		break;
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		/* the domains that can read their buffers' fill */
		can = d && d->ops->channel_usage;
		break;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
	case LTT_CONDITION_SESSION_ROTATION_STARTS:
	case LTT_CONDITION_SESSION_ROTATION_FINISHES:
		can = true;
		break;
	default:
		can = false;
		break;
	}
	return can ? LTT_ERR_OK : LTT_ERR_TRIGGER_UNSUPPORTED;
}

/* The map counting trigger @c counts in: one of @owner's sessions' now, of the rule's domain. */
static enum ltt_error_code check_map(const struct ltt_cmd_ctx *ctx,
				     const struct ltt_trigger_conf *c, uid_t owner)
{
	int own = ctx->domains->maps ?
		  ltt_maps_ownership(ctx->domains->maps, owner, c->actions[0].session,
				     c->actions[0].map) : -ENOENT;

	if (own < 0)
		return LTT_ERR_MAP_NOT_FOUND;
	return (own == LTT_MAP_OWNER_KERNEL) == (c->domain == LTT_DOMAIN_KERNEL) ?
	       LTT_ERR_OK : LTT_ERR_MAP_ACTION;
}

/* Trigger @name of @owner, just added, armed by its domain if it arms its own. */
static enum ltt_error_code arm(const struct ltt_cmd_ctx *ctx, const char *name, uid_t owner)
{
	struct ltt_trigger *t = ltt_triggers_find(ctx->domains->triggers, name, owner);
	struct ltt_domain_impl *d;
	enum ltt_error_code err = LTT_ERR_OK;
	int i;

	if (!t)
		return LTT_ERR_OK;	/* removed meanwhile */
	i = ltt_domain_index((enum ltt_domain)t->conf.domain);
	d = i < 0 ? NULL : ctx->domains->v[i];
	if (t->conf.cond == LTT_CONDITION_EVENT_RULE_MATCHES && d && d->ops->arm_trigger)
		err = d->ops->arm_trigger(d, t, ctx->client_fd);
	ltt_triggers_put(ctx->domains->triggers, t);
	return err;
}

/*
 * Is @err the refusal of a kernel rule whose filter no event of the rule
 * type-checks against, added with LTT_TRIGGER_FLAG_LTTNG (@flags: LTTng's
 * clients through --lttng-compat, lttctl run as lttng)?  LTTng adds such
 * a trigger, whose filter never accepts: so does ltt for LTTng's
 * spelling, arming nothing (it never fires); lttctl's add-trigger is
 * refused.
 */
static bool never_matches(uint32_t flags, const struct ltt_trigger_conf *c,
			  enum ltt_error_code err)
{
	return (flags & LTT_TRIGGER_FLAG_LTTNG) && err == LTT_ERR_FILTER_KERNEL_TYPE &&
	       c->cond == LTT_CONDITION_EVENT_RULE_MATCHES && c->domain == LTT_DOMAIN_KERNEL &&
	       c->rule.filter[0];
}

static const struct ltt_errmap add_errors[] = {
	{ -EEXIST, LTT_ERR_TRIGGER_EXISTS },
	{ -EDQUOT, LTT_ERR_TRIGGER_LIMIT },
	{ -ENOSPC, LTT_ERR_TRIGGER_LIMIT },
	{ -EMLINK, LTT_ERR_TRIGGER_RULE_SLOTS },
	{ -EINVAL, LTT_ERR_FILTER },
};

static enum ltt_error_code add_error(int err)
{
	return LTT_ERRMAP(add_errors, err, ltt_cmd_error);
}

/* Who @c is for: the caller, or (root only) the user it names. */
static enum ltt_error_code owner_of(const struct ltt_cmd_ctx *ctx,
				    const struct ltt_trigger_conf *c, uid_t *ret)
{
	if (c->owner_uid < 0 || (uid_t)c->owner_uid == ctx->cred.uid) {
		*ret = ctx->cred.uid;
		return LTT_ERR_OK;
	}
	if (ctx->cred.uid != 0)
		return LTT_ERR_TRIGGER_OWNER;
	*ret = (uid_t)c->owner_uid;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_add_trigger(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					struct ltt_wbuf *reply)
{
	struct ltt_trigger_conf *c = malloc(sizeof(*c));
	enum ltt_error_code err;
	char name[LTT_NAME_MAX];
	uint32_t flags = 0;
	uid_t owner = 0;
	bool inert;
	int ret;

	if (!c)
		return LTT_ERR_NOMEM;
	ltt_trigger_add_get(req, c, &flags, ctx->minor);
	if (ltt_rbuf_end(req) || (flags & ~LTT_TRIGGER_FLAGS_KNOWN)) {
		err = LTT_ERR_PROTOCOL;
		goto out;
	}
	err = ltt_trigger_check(c);
	if (!err)
		err = owner_of(ctx, c, &owner);
	if (!err)
		err = supported(ctx, c);
	inert = never_matches(flags, c, err);
	if (inert)
		err = LTT_ERR_OK;
	/*
	 * The sessions @c names are not looked up: as LTTng, a condition may
	 * watch a session that does not exist yet (it holds once one of that
	 * name is the owner's), an action may name one (it fails when it runs
	 * if there is still none, counted).  The map it counts in must be.
	 */
	if (!err && ltt_trigger_counts(c))
		err = check_map(ctx, c, owner);
	if (!err && !ctx->domains->triggers)
		err = LTT_ERR_NOT_SUPPORTED;
	if (err)
		goto out;
	ret = ltt_triggers_add(ctx->domains->triggers, c, owner, name);
	if (ret) {
		err = add_error(ret);
		goto out;
	}
	/* a buffer's usage or a session's size, watched at the rotation scheduler's tick */
	ltt_session_registry_wake(ctx->registry);
	err = inert ? LTT_ERR_OK : arm(ctx, name, owner);
	inert = inert || never_matches(flags, c, err);
	if (inert) {
		err = LTT_ERR_OK;
		LTT_INFO("trigger '%s' of uid %u: its kernel filter applies to none of its rule's events: added as LTTng adds it, never firing",
			 name, (unsigned int)owner);
	} else if (err) {
		ltt_triggers_remove(ctx->domains->triggers, name, owner);
		goto out;
	}
	/* what must take its rule refused it (an LTTng agent): not added, as LTTng refuses it */
	if (c->cond == LTT_CONDITION_EVENT_RULE_MATCHES && (err = ltt_cmd_triggers_changed(ctx))) {
		ltt_triggers_remove(ctx->domains->triggers, name, owner);
		(void)ltt_cmd_triggers_changed(ctx);
		LTT_WARN("trigger '%s' of uid %u not added: %s", name, (unsigned int)owner,
			 ltt_strerror(err));
		goto out;
	}
	LTT_INFO("trigger '%s' of uid %u added (%s)", name, (unsigned int)owner,
		 ltt_condition_type_name((enum ltt_condition_type)c->cond));
	ltt_wbuf_put_str(reply, name);
out:
	free(c);
	return err;
}

enum ltt_error_code ltt_cmd_remove_trigger(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	(void)reply;
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!ltt_trigger_name_valid(name))
		return LTT_ERR_TRIGGER_NAME;
	if (!ctx->domains->triggers ||
	    ltt_triggers_remove(ctx->domains->triggers, name, ctx->cred.uid))
		return LTT_ERR_TRIGGER_NOT_FOUND;
	LTT_INFO("trigger '%s' removed by uid %u", name, (unsigned int)ctx->cred.uid);
	(void)ltt_cmd_triggers_changed(ctx);	/* removed: an agent's refusal is logged */
	return LTT_ERR_OK;
}

/* Can the client read trigger @c (its minor has all of it)? */
static bool client_reads(const struct ltt_cmd_ctx *ctx, const struct ltt_trigger_conf *c)
{
	if (ltt_trigger_counts(c) && ctx->minor < LTT_CLIENT_MINOR_MAPS)
		return false;
	return ctx->minor >= LTT_CLIENT_MINOR_PROBE_TRIGGER || !ltt_event_type_is_probe(c->rule.type);
}

enum ltt_error_code ltt_cmd_list_triggers(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	struct ltt_trigger_desc *v = NULL;
	uint32_t listed = 0;
	size_t i, n = 0;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (ctx->domains->triggers &&
	    ltt_triggers_list(ctx->domains->triggers, ctx->cred.uid, &v, &n))
		return LTT_ERR_NOMEM;
	/* a client before minor 25 (36) can't read an incr-map-value action (a probe rule): not listed */
	for (i = 0; i < n; i++)
		listed += client_reads(ctx, &v[i].conf);
	ltt_wbuf_put_u32(reply, listed);
	for (i = 0; i < n; i++)
		if (client_reads(ctx, &v[i].conf))
			ltt_trigger_desc_put(reply, &v[i], ctx->minor);
	free(v);
	return reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}
