// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-channel.c - client commands on channels.
 */
#include <string.h>

#include "common/attr.h"
#include "common/client-proto.h"
#include "common/log.h"
#include "sessiond/cmd.h"

static bool same_attr(const struct ltt_channel_attr *a, const struct ltt_channel_attr *b)
{
	return a->subbuf_size == b->subbuf_size && a->num_subbuf == b->num_subbuf &&
	       a->overwrite == b->overwrite && a->switch_timer_us == b->switch_timer_us &&
	       a->read_timer_us == b->read_timer_us && a->tracefile_size == b->tracefile_size &&
	       a->tracefile_count == b->tracefile_count && a->buffer_type == b->buffer_type;
}

int ltt_cmd_enable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply)
{
	struct ltt_ust_acks acks = { NULL, 0, 0 };
	struct ltt_channel_attr attr;
	struct ltt_session *session;
	struct ltt_channel *channel;
	enum ltt_domain domain;
	const char *name;
	int ret;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	ltt_proto_get_channel_attr(req, &attr);
	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ret = ltt_cmd_check_domain(ctx, domain);
	if (!ret)
		ret = ltt_attr_check_channel(&attr, domain);
	if (ret)
		return ret;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	channel = ltt_domain_find_channel(ltt_session_domain(session, domain), attr.name);
	if (channel) {
		if (!same_attr(&channel->attr, &attr))
			ret = -LTT_ERR_CHANNEL_ATTR;
		else if (channel->enabled)
			ret = -LTT_ERR_CHANNEL_ENABLED;
		else
			channel->enabled = true;
	} else if (session->active) {
		ret = -LTT_ERR_CHANNEL_ACTIVE_ADD;
	} else {
		ret = ltt_domain_add_channel(ltt_session_domain(session, domain), &attr, &channel);
	}
	if (!ret)
		LTT_INFO("session '%s': %s channel '%s' enabled", session->name,
			 ltt_domain_name(domain), attr.name);
	if (!ret && domain == LTT_DOMAIN_USER)
		ltt_ust_session_update(ctx->ust, session, &acks);
	ltt_cmd_unlock_session(ctx, session);
	/* Once this returns, running programs record by the new rules. */
	ltt_ust_acks_wait(&acks, "change");
	return ret;
}

int ltt_cmd_disable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply)
{
	struct ltt_ust_acks acks = { NULL, 0, 0 };
	struct ltt_session *session;
	struct ltt_channel *channel;
	const char *name, *chan_name;
	enum ltt_domain domain;
	int ret;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	chan_name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ret = ltt_cmd_check_domain(ctx, domain);
	if (ret)
		return ret;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	channel = ltt_domain_find_channel(ltt_session_domain(session, domain), chan_name);
	if (!channel)
		ret = -LTT_ERR_CHANNEL_NOT_FOUND;
	else if (!channel->enabled)
		ret = -LTT_ERR_CHANNEL_DISABLED;
	else
		channel->enabled = false;
	if (!ret && domain == LTT_DOMAIN_USER)
		ltt_ust_session_update(ctx->ust, session, &acks);
	ltt_cmd_unlock_session(ctx, session);
	/* Once this returns, running programs record by the new rules. */
	ltt_ust_acks_wait(&acks, "change");
	return ret;
}
