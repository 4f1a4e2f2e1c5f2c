// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-event.c - client commands on event rules.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/as-user.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/probe/probe-loc.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/kernel/kernel-probe.h"
#include "sessiond/priv/priv.h"

/*
 * Would a rule of no channel name be ambiguous?  As LTTng: when the domain
 * has a channel other than channel0, the rule's must be named too, whether
 * channel0 exists or not.  (An agent channel takes its domain's rules only: it
 * leaves no doubt.  LTTng also refuses when channel0 is the only channel
 * and the user made it himself; there it is the only choice.)
 */
static bool need_channel_name(struct ltt_session_domain *domain)
{
	struct ltt_channel *channel;

	cds_list_for_each_entry(channel, &domain->channels, node)
		if (!channel->agent && strcmp(channel->attr.name, LTT_DEFAULT_CHANNEL_NAME))
			return true;
	return false;
}

/*
 * The channel a rule goes to: the named one, or the default channel;
 * NEED_CHANNEL_NAME when need_channel_name().  One that does not exist is
 * created with the domain's defaults as @make allows: an enable-event's,
 * named or not, as LTTng's enable-event creates it (-c NAME of a channel
 * the session lacks makes it); add-context's, only the default channel.
 * An agent rule's (@agent) default is its domain's user-space channel
 * (agent.h), made the same way; event_channel() sees that agent rules go
 * there only.  Session lock held.
 */
static enum ltt_error_code rule_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					const char *name, enum ltt_cmd_channel_make make,
					const struct ltt_agent_domain *agent,
					struct ltt_channel **ret_channel)
{
	struct ltt_session_domain *domain = ltt_session_domain(session, d->type);
	struct ltt_channel_conf attr;
	struct ltt_channel *channel;
	enum ltt_error_code ret;
	bool named = name[0];

	if (!named && !agent && need_channel_name(domain))
		return LTT_ERR_NEED_CHANNEL_NAME;
	if (!named)
		name = agent ? agent->channel : LTT_DEFAULT_CHANNEL_NAME;
	channel = ltt_session_find_channel(domain, name);
	if (channel) {
		*ret_channel = channel;
		return 0;
	}
	if (make == LTT_CMD_CHANNEL_FIND || (named && make != LTT_CMD_CHANNEL_MAKE_ANY))
		return LTT_ERR_CHANNEL_NOT_FOUND;
	ret = ltt_attr_channel_defaults(&attr, d->type);
	if (ret)
		return ret;
	if (strlen(name) >= sizeof(attr.name) || !ltt_channel_name_valid(name))
		return LTT_ERR_CHANNEL_NAME;
	strcpy(attr.name, name);
	if (domain->buffer_type != LTT_BUFFER_DEFAULT)
		attr.buffer_type = domain->buffer_type;
	/* a flight recorder keeps the newest events, as LTTng's snapshot sessions */
	if (session->snapshot_mode)
		attr.overwrite = true;
	return ltt_cmd_add_channel(d, session, &attr, ret_channel);
}

/*
 * The channel an event rule goes to, as rule_channel(): the channel of
 * agent domain @agent for its rules, an ordinary one for any other.
 * Session lock held.
 */
static enum ltt_error_code event_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					 const char *name, enum ltt_cmd_channel_make make,
					 const struct ltt_agent_domain *agent,
					 struct ltt_channel **ret_channel)
{
	struct ltt_channel *channel;
	enum ltt_error_code ret;

	ret = rule_channel(d, session, name, make, agent, &channel);
	if (ret)
		return ret;
	if (channel->agent != agent)
		return LTT_ERR_PYTHON_CHANNEL;
	*ret_channel = channel;
	return LTT_ERR_OK;
}

/* What enable-event changed, to take back if the domain can't follow. */
struct enable_undo {
	struct ltt_session *session;
	struct ltt_channel *channel;
	struct ltt_event_rule *rule;
	bool added;
};

static void undo_enable(void *arg)
{
	struct enable_undo *u = arg;

	if (u->added)
		ltt_channel_remove_rule(u->session, u->channel, u->rule);
	else
		u->rule->enabled = false;
}

/* The rules disable-event disabled, to enable again if the domain can't follow. */
struct disable_undo {
	struct ltt_event_rule **rules;
	unsigned int n;
};

static void undo_disable(void *arg)
{
	struct disable_undo *u = arg;
	unsigned int i;

	for (i = 0; i < u->n; i++)
		u->rules[i]->enabled = true;
}

/* What ltt_channel_add_rule() says, for the client. */
static const struct ltt_errmap add_rule_errors[] = {
	{ -E2BIG, LTT_ERR_FILTER_LIMIT },
	{ -EINVAL, LTT_ERR_FILTER },
};

/* The domain's word on a rule's attributes. */
static enum ltt_error_code check_rule(struct ltt_domain_impl *d, void *attr)
{
	return d->ops->check_rule(d, attr);
}

/* An agent rule's attributes (its domain is served by the user-space one). */
struct agent_check {
	const struct ltt_agent_domain *agent;
	const struct ltt_rule_conf *attr;
};

static enum ltt_error_code check_agent_rule(struct ltt_domain_impl *d, void *arg)
{
	const struct agent_check *c = arg;
	enum ltt_error_code ret = ltt_attr_check_rule(c->attr);

	(void)d;
	if (!ret)
		ret = ltt_attr_check_rule_domain(c->attr, c->agent->domain);
	return ret == LTT_ERR_EVENT_NAME ? LTT_ERR_PYTHON_NAME : ret;
}

/*
 * The domain that serves @domain's rules (an agent domain's: user
 * space's), its agent domain (NULL: none), and the channel name an agent
 * rule may be given (its domain's or "").
 */
static enum ltt_error_code rule_domain(enum ltt_domain domain, const char *chan_name,
				       enum ltt_domain *ret_served,
				       const struct ltt_agent_domain **ret_agent)
{
	const struct ltt_agent_domain *agent = ltt_agent_domain(domain);

	*ret_served = domain;
	*ret_agent = agent;
	if (!agent)
		return LTT_ERR_OK;
	if (chan_name[0] && strcmp(chan_name, agent->channel))
		return LTT_ERR_PYTHON_CHANNEL;
	*ret_served = LTT_DOMAIN_USER;
	return LTT_ERR_OK;
}

/* The check of a rule @attr of @agent's domain (NULL: none), for ltt_cmd_change_domain(). */
static ltt_cmd_check_fn rule_check(const struct ltt_agent_domain *agent,
				   const struct ltt_rule_conf *attr, struct agent_check *c,
				   void **ret_arg)
{
	c->agent = agent;
	c->attr = attr;
	*ret_arg = agent ? (void *)c : (void *)attr;
	return agent ? check_agent_rule : check_rule;
}

/*
 * A daemon that gave root's rights up: the file opened with session
 * @name's owner's rights, by the privileged part for that admitted
 * session, and its function or SDT probe looked for there (the kernel
 * domain's check does not read it then).
 */
static enum ltt_error_code owner_reads_probe_file(const struct ltt_cmd_ctx *ctx, const char *name,
						  const struct ltt_rule_conf *attr)
{
	struct ltt_session *session = NULL;
	enum ltt_error_code ret;

	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (!ret)
		ret = ltt_kernel_probe_check_file(attr, session);
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

/*
 * May the client read the file of user-space probe rule @attr?  Asked by
 * opening it with the client's ids (as-user.h), in this thread, before
 * the domain reads it with the daemon's rights: a root daemon tells a
 * client nothing of a file it could not read itself (whether it exists,
 * its functions and SDT probes), nor places a probe in it.  A location
 * that does not parse, or a file that is not regular, is the domain's to
 * refuse.  PROBE_NOT_FOUND (logged), as for a missing file, or OK.
 */
static enum ltt_error_code client_reads_probe_file(const struct ltt_cmd_ctx *ctx,
						   const char *name,
						   const struct ltt_rule_conf *attr)
{
	struct ltt_probe_loc *loc;
	struct ltt_as_user as;
	char why[256];
	struct stat st;
	int fd = -1, err;

	if (attr->type != LTT_EVENT_UPROBE)
		return LTT_ERR_OK;
	if (ltt_priv_daemon_uid() != geteuid())
		return owner_reads_probe_file(ctx, name, attr);
	if (ctx->cred.uid == geteuid())
		return LTT_ERR_OK;
	loc = malloc(sizeof(*loc));
	if (!loc)
		return LTT_ERR_NOMEM;
	if (ltt_probe_loc_parse(attr->type, attr->location, loc, why, sizeof(why))) {
		free(loc);
		return LTT_ERR_OK;
	}
	err = ltt_as_user_begin(ctx->cred.uid, ctx->cred.gid, &as);
	if (!err && stat(loc->path, &st))
		err = -errno;
	if (!err && S_ISREG(st.st_mode)) {
		fd = open(loc->path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		err = fd < 0 ? -errno : 0;
	}
	ltt_as_user_end(&as);
	if (fd >= 0)
		close(fd);
	if (err)
		LTT_WARN("probe %s refused: uid %u may not read %s (%s); the daemon reads probe files "
			 "only for clients who may read them", attr->pattern,
			 (unsigned int)ctx->cred.uid, loc->path, strerror(-err));
	free(loc);
	return err ? LTT_ERR_PROBE_NOT_FOUND : LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_enable_event(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			 struct ltt_wbuf *reply)
{
	struct enable_undo undo = { 0 };
	struct ltt_cmd_change ch;
	struct ltt_rule_conf attr;
	struct ltt_session *session;
	struct ltt_channel *channel;
	struct ltt_event_rule *rule;
	const char *name, *chan_name;
	const struct ltt_agent_domain *agent;
	enum ltt_domain domain, served;
	struct agent_check check;
	enum ltt_error_code ret;
	ltt_cmd_check_fn fn;
	void *arg;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	chan_name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	ltt_proto_get_rule_attr(req, &attr, ctx->minor);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = rule_domain(domain, chan_name, &served, &agent);
	if (!ret)
		ret = client_reads_probe_file(ctx, name, &attr);
	if (ret)
		return ret;
	fn = rule_check(agent, &attr, &check, &arg);
	ret = ltt_cmd_change_domain(ctx, name, served, fn, arg, &ch);
	if (ret)
		return ret;
	session = ch.session;
	ret = event_channel(ch.d, session, chan_name, LTT_CMD_CHANNEL_MAKE_ANY, agent, &channel);
	if (ret)
		goto out;
	rule = ltt_channel_find_rule(channel, &attr);
	undo.session = session;
	undo.channel = channel;
	if (rule && rule->enabled) {
		ret = LTT_ERR_EVENT_EXISTS;
	} else if (rule) {
		rule->enabled = true;
		undo.rule = rule;
	} else {
		ret = LTT_ERRMAP(add_rule_errors,
					ltt_channel_add_rule(session, channel, &attr),
					ltt_cmd_error);
		undo.rule = ret ? NULL : ltt_channel_find_rule(channel, &attr);
		undo.added = true;
	}
	if (!ret)
		ret = ltt_cmd_update(ch.d, session, &ch.settle, undo_enable, &undo);
	if (!ret)
		LTT_INFO("session '%s': %s rule '%s'%s%s%s%s enabled in channel '%s'", session->name,
			 ltt_domain_name(domain), attr.pattern,
			 attr.filter[0] ? " filter " : "", attr.filter,
			 attr.exclusions[0] ? " excluding " : "", attr.exclusions,
			 channel->attr.name);
out:
	ltt_cmd_change_end(ctx, &ch, "change");
	return ret;
}

enum ltt_error_code ltt_cmd_disable_event(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_session *session;
	struct ltt_channel *channel;
	struct ltt_event_rule *rule;
	struct ltt_disable_event_req *q;
	struct disable_undo undo = { NULL, 0 };
	const struct ltt_agent_domain *agent;
	struct ltt_rule_conf *exact;
	enum ltt_domain domain, served;
	struct agent_check check;
	const char *name;
	enum ltt_error_code ret;
	bool found = false;
	ltt_cmd_check_fn fn;
	void *arg;

	q = malloc(sizeof(*q));		/* a rule's filter and more: off the stack */
	if (!q)
		return LTT_ERR_NOMEM;
	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	ltt_proto_get_disable_event(req, q, ctx->minor);
	if (ltt_rbuf_end(req)) {
		free(q);
		return LTT_ERR_PROTOCOL;
	}
	exact = q->exact ? &q->rule : NULL;
	ret = rule_domain(domain, q->channel, &served, &agent);
	if (!ret) {
		fn = rule_check(agent, exact, &check, &arg);
		ret = ltt_cmd_change_domain(ctx, name, served, exact ? fn : NULL, arg, &ch);
	}
	if (ret) {
		free(q);
		return ret;
	}
	session = ch.session;
	ret = event_channel(ch.d, session, q->channel, LTT_CMD_CHANNEL_FIND, agent, &channel);
	if (ret)
		goto out;
	undo.rules = calloc(channel->nr_rules ? channel->nr_rules : 1, sizeof(*undo.rules));
	if (!undo.rules) {
		ret = LTT_ERR_NOMEM;
		goto out;
	}
	/* a rule disabled already is no error, as with LTTng: nothing to do */
	cds_list_for_each_entry(rule, &channel->rules, node) {
		if (!(exact ? rule == ltt_channel_find_rule(channel, exact) :
			      q->all || !strcmp(rule->attr.pattern, q->pattern)))
			continue;
		found = true;
		if (rule->enabled) {
			rule->enabled = false;
			undo.rules[undo.n++] = rule;
		}
	}
	if (!found)
		ret = LTT_ERR_EVENT_NOT_FOUND;
	else if (undo.n)
		ret = ltt_cmd_update(ch.d, session, &ch.settle, undo_disable, &undo);
out:
	free(undo.rules);
	free(q);
	ltt_cmd_change_end(ctx, &ch, "change");
	return ret;
}

enum ltt_error_code ltt_cmd_rule_channel(struct ltt_domain_impl *d, struct ltt_session *session,
					 const char *name, enum ltt_cmd_channel_make make,
					 struct ltt_channel **ret_channel)
{
	return rule_channel(d, session, name, make, NULL, ret_channel);
}
