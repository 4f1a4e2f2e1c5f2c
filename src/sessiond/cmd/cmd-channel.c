// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-channel.c - client commands on channels.
 */
#include <string.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"

static bool same_attr(const struct ltt_channel_conf *a, const struct ltt_channel_conf *b)
{
	return a->subbuf_size == b->subbuf_size && a->num_subbuf == b->num_subbuf &&
	       a->overwrite == b->overwrite && a->switch_timer_us == b->switch_timer_us &&
	       a->read_timer_us == b->read_timer_us && a->tracefile_size == b->tracefile_size &&
	       a->tracefile_count == b->tracefile_count && a->buffer_type == b->buffer_type &&
	       a->fsync == b->fsync && a->preallocation == b->preallocation &&
	       a->allocation == b->allocation &&
	       a->auto_reclaim == b->auto_reclaim && a->auto_reclaim_us == b->auto_reclaim_us &&
	       a->blocking_timeout_us == b->blocking_timeout_us;
}

/*
 * Undo an enable (or a disable) the domain could not follow.  A channel
 * just added is left disabled: no domain can fail then (the kernel's has
 * nothing of a session before its first start, and channels come before).
 */
static void undo_toggle(void *arg)
{
	struct ltt_channel *channel = arg;

	channel->enabled = !channel->enabled;
}

/* The domain's and the host's word on a new channel's attributes. */
static enum ltt_error_code check_attr(struct ltt_domain_impl *d, void *attr)
{
	enum ltt_error_code ret = d->ops->check_channel(d, attr);

	return ret ? ret : ltt_cmd_check_buffer(attr);
}

enum ltt_error_code ltt_cmd_enable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_channel_conf attr;
	struct ltt_session *session;
	struct ltt_channel *channel;
	enum ltt_domain domain;
	const char *name;
	enum ltt_error_code ret;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	/* a later minor's field an older client lacks: 0, its default */
	ltt_proto_get_channel_conf(req, &attr, ctx->minor);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_change_domain(ctx, name, domain, check_attr, &attr, &ch);
	if (ret)
		return ret;
	session = ch.session;
	channel = ltt_session_find_channel(ltt_session_domain(session, domain), attr.name);
	if (attr.fsync && (session->output_type != LTT_OUTPUT_LOCAL || session->snapshot)) {
		ret = LTT_ERR_FSYNC_OUTPUT;	/* no trace file to sync as it records */
	} else if (attr.auto_reclaim == LTT_AUTO_RECLAIM_CONSUMED && session->snapshot) {
		ret = LTT_ERR_AUTO_RECLAIM_SNAPSHOT;	/* its consumer reads nothing as it records */
	} else if (channel) {
		if (!same_attr(&channel->attr, &attr))
			ret = LTT_ERR_CHANNEL_ATTR;
		else if (channel->enabled)
			ret = LTT_ERR_CHANNEL_ENABLED;
		else
			channel->enabled = true;
	} else {
		ret = ltt_cmd_add_channel(ch.d, session, &attr, &channel);
	}
	if (!ret)
		ret = ltt_cmd_update(ch.d, session, &ch.settle, undo_toggle, channel);
	if (!ret)
		LTT_INFO("session '%s': %s channel '%s' enabled", session->name,
			 ltt_domain_name(domain), attr.name);
	ltt_cmd_change_end(ctx, &ch, "change");
	return ret;
}

enum ltt_error_code ltt_cmd_disable_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_session *session;
	struct ltt_channel *channel;
	const char *name, *chan_name;
	enum ltt_domain domain;
	enum ltt_error_code ret;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	domain = ltt_proto_get_domain(req);
	chan_name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_change_domain(ctx, name, domain, NULL, NULL, &ch);
	if (ret)
		return ret;
	session = ch.session;
	channel = ltt_session_find_channel(ltt_session_domain(session, domain), chan_name);
	if (!channel)
		ret = LTT_ERR_CHANNEL_NOT_FOUND;
	else if (!channel->enabled)
		ret = LTT_ERR_CHANNEL_DISABLED;
	else
		channel->enabled = false;
	if (!ret)
		ret = ltt_cmd_update(ch.d, session, &ch.settle, undo_toggle, channel);
	ltt_cmd_change_end(ctx, &ch, "change");
	return ret;
}
