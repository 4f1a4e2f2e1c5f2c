// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-context.c - client commands on contexts: ADD_CONTEXT, LIST_CONTEXTS.
 *
 * A channel's contexts are fields of every event it records (the CTF
 * stream event context), so its traces' layout depends on them: as in
 * LTTng, they are added only to a session that was never started, and
 * once started they stay.  Without a channel name the context goes to
 * every channel of the domain, the default channel created when there is
 * none (LTTng does the same).  Both domains go through this code: they
 * differ only in the types they have (common/model/context.c) and in what
 * checks a type (perf counters for user space, the tracer's ABI for the
 * kernel: kernel-context.c).
 */
#include <endian.h>
#include <errno.h>
#include <string.h>

#include "common/base/log.h"
#include "common/model/context.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/kernel/kernel-context.h"

static bool has_context(const struct ltt_channel *channel, const struct ltt_ctx *c)
{
	uint32_t i;

	for (i = 0; i < channel->nr_contexts; i++)
		if (ltt_ctx_same(&channel->contexts[i], c))
			return true;
	return false;
}

/* Can this machine count perf counter @c for @session's owner? */
static enum ltt_error_code check_perf(const struct ltt_session *session, const struct ltt_ctx *c)
{
	int err;

	if (c->type != LTT_CONTEXT_PERF_THREAD)
		return LTT_ERR_OK;
	err = ltt_ctx_perf_probe(c, session->uid);
	switch (err) {
	case 0:
		return LTT_ERR_OK;
	case -ENOENT:
		LTT_INFO("session '%s': perf counter %s refused: the kernel can't count it here",
			 session->name, c->name);
		return LTT_ERR_PERF_UNAVAILABLE;
	case -EACCES:
		LTT_INFO("session '%s': perf counter %s refused: perf_event_paranoid forbids it to uid %u",
			 session->name, c->name, (unsigned int)session->uid);
		return LTT_ERR_PERF_DENIED;
	default:
		return ltt_cmd_error(err);
	}
}

/* Add @c to @channel, or say why not; session lock held, session never started. */
static enum ltt_error_code add_one(struct ltt_channel *channel, const struct ltt_ctx *c)
{
	if (has_context(channel, c))
		return LTT_ERR_CONTEXT_EXISTS;
	if (channel->nr_contexts >= LTT_CTX_MAX)
		return LTT_ERR_LIMIT;
	return LTT_ERR_OK;
}

/*
 * Add @c to @chan_name, or to every channel of @d's domain: all or none
 * (a channel that has it already fails the whole request, as LTTng).
 */
static enum ltt_error_code add_context(struct ltt_domain_impl *d, struct ltt_session *session,
				       const char *chan_name, const struct ltt_ctx *c,
				       struct ltt_channel **ret_channel)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, d->type);
	struct ltt_channel *channel;
	enum ltt_error_code ret;

	if (ltt_session_started_once(session) || dom->state)
		return LTT_ERR_CONTEXT_STARTED;
	if (d->type == LTT_DOMAIN_USER) {
		ret = check_perf(session, c);
		if (ret)
			return ret;
	}
	if (chan_name[0] || !dom->nr_channels) {
		ret = ltt_cmd_rule_channel(d, session, chan_name, LTT_CMD_CHANNEL_MAKE_DEFAULT,
					   &channel);
		if (!ret)
			ret = add_one(channel, c);
		if (!ret) {
			channel->contexts[channel->nr_contexts++] = *c;
			*ret_channel = channel;
		}
		return ret;
	}
	cds_list_for_each_entry(channel, &dom->channels, node) {
		ret = add_one(channel, c);
		if (ret)
			return ret;
	}
	cds_list_for_each_entry(channel, &dom->channels, node)
		channel->contexts[channel->nr_contexts++] = *c;
	*ret_channel = NULL;
	return LTT_ERR_OK;
}

/* What an add changed: the last context of one channel, or of all (NULL). */
struct add_undo {
	struct ltt_session_domain *dom;
	struct ltt_channel *channel;
};

static void undo_add(void *arg)
{
	struct add_undo *u = arg;
	struct ltt_channel *channel;

	if (u->channel) {
		u->channel->nr_contexts--;
		return;
	}
	cds_list_for_each_entry(channel, &u->dom->channels, node)
		channel->nr_contexts--;
}

/* The one difference between the domains: which types, and what checks them. */
static enum ltt_error_code check_context(struct ltt_domain_impl *d, void *c)
{
	if (d->type == LTT_DOMAIN_KERNEL)
		return ltt_kernel_context_check(d, c);
	return ltt_ctx_domains(c) & LTT_CTX_DOMAIN_USER ? LTT_ERR_OK : LTT_ERR_CONTEXT_DOMAIN;
}

enum ltt_error_code ltt_cmd_add_context(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_session *session;
	struct add_undo undo;
	const char *name, *chan_name;
	enum ltt_domain domain;
	enum ltt_error_code ret;
	struct ltt_ctx c;

	(void)reply;
	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	chan_name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	ltt_ctx_get(req, &c);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!ltt_ctx_check(&c))
		return LTT_ERR_CONTEXT_TYPE;
	ret = ltt_cmd_change_domain(ctx, name, domain, check_context, &c, &ch);
	if (ret)
		return ret;
	session = ch.session;
	undo.dom = ltt_session_domain(session, domain);
	ret = add_context(ch.d, session, chan_name, &c, &undo.channel);
	/* A default channel may have been created: the domain prepares it. */
	if (!ret)
		ret = ltt_cmd_update(ch.d, session, &ch.settle, undo_add, &undo);
	if (!ret)
		LTT_INFO("session '%s': context %s added to %s", session->name, c.name,
			 chan_name[0] ? chan_name : domain == LTT_DOMAIN_KERNEL ?
			 "every kernel channel" : "every user-space channel");
	ltt_cmd_change_end(ctx, &ch, "change");
	return ret;
}

void ltt_cmd_contexts_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply)
{
	const struct ltt_channel *channel;
	uint32_t i, count = 0;
	size_t start, d;

	(void)ctx;
	start = reply->len;
	ltt_wbuf_put_u32(reply, 0);
	for (d = 0; d < LTT_NR_DOMAINS; d++) {
		cds_list_for_each_entry(channel, &session->domains[d].channels, node) {
			for (i = 0; i < channel->nr_contexts; i++) {
				ltt_wbuf_put_u32(reply, session->domains[d].type);
				ltt_wbuf_put_str(reply, channel->attr.name);
				ltt_ctx_put(reply, &channel->contexts[i]);
				count++;
			}
		}
	}
	if (!reply->err)
		memcpy(reply->data + start, &(uint32_t){ htole32(count) }, 4);
}
