// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-session.c - client commands on whole sessions.
 */
#include <stdlib.h>
#include <string.h>

#include "common/attr.h"
#include "common/client-proto.h"
#include "common/log.h"
#include "sessiond/cmd.h"

int ltt_cmd_create_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply)
{
	struct ltt_session_attr attr;
	struct ltt_session_info info;
	struct ltt_session *session;
	int ret;

	ltt_proto_get_session_attr(req, &attr);
	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ret = ltt_attr_check_session(&attr);
	if (ret)
		return ret;
	ret = ltt_session_create(ctx->registry, &attr, ctx->cred.uid, ctx->cred.gid, &session);
	if (ret)
		return ret;
	pthread_mutex_lock(&session->lock);
	ltt_session_info(session, &info);
	pthread_mutex_unlock(&session->lock);
	ltt_session_put(ctx->registry, session);
	LTT_INFO("session '%s' created by uid %u, output '%s'", info.name,
		 (unsigned int)ctx->cred.uid, info.output);
	ltt_proto_put_session_info(reply, &info);
	return 0;
}

/* Decode a request that is one session name, then lock that session. */
static int lock_named_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			      struct ltt_session **ret_session)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	return ltt_cmd_lock_session(ctx, name, ret_session);
}

/*
 * Stop tracing in a locked, active session and unlock it; the caller keeps
 * its reference.  Waiting for applications and the consumer happens
 * without the lock.
 */
static int session_stop_unlock(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			       bool wait)
{
	int ret;

	__atomic_store_n(&session->active, false, __ATOMIC_RELAXED);
	pthread_mutex_unlock(&session->lock);
	ret = ltt_ust_session_stop(ctx->ust, session, wait);
	LTT_INFO("session '%s' stopped", session->name);
	return ret;
}

/* Stop, tear down and unregister a locked session; unlocks and releases it. */
static void destroy_locked(const struct ltt_cmd_ctx *ctx, struct ltt_session *session)
{
	if (session->active) {
		session_stop_unlock(ctx, session, true);
		pthread_mutex_lock(&session->lock);
	}
	ltt_ust_session_destroy(ctx->ust, session);
	/* Removal takes the registry lock, which comes before the session's. */
	pthread_mutex_unlock(&session->lock);
	ltt_session_remove(ctx->registry, session);
	LTT_INFO("session '%s' destroyed", session->name);
	ltt_session_put(ctx->registry, session);
}

int ltt_cmd_destroy_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	int ret;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	destroy_locked(ctx, session);
	return 0;
}

void ltt_cmd_destroy_all(const struct ltt_cmd_ctx *ctx)
{
	struct ltt_session **sessions;
	size_t i, n;

	if (ltt_session_snapshot_list(ctx->registry, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		pthread_mutex_lock(&sessions[i]->lock);
		if (sessions[i]->destroyed) {
			pthread_mutex_unlock(&sessions[i]->lock);
			ltt_session_put(ctx->registry, sessions[i]);
			continue;
		}
		/* destroy_locked() drops the reference we hold. */
		destroy_locked(ctx, sessions[i]);
	}
	free(sessions);
}

static bool has_channel(const struct ltt_session *session)
{
	return session->domains[0].nr_channels || session->domains[1].nr_channels;
}

int ltt_cmd_start_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply)
{
	struct ltt_ust_acks acks = { NULL, 0, 0 };
	struct ltt_session *session;
	int ret;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	if (session->active)
		ret = -LTT_ERR_SESSION_STARTED;
	else if (!has_channel(session))
		ret = -LTT_ERR_NO_CHANNEL;
	else {
		__atomic_store_n(&session->active, true, __ATOMIC_RELAXED);
		ret = ltt_ust_session_start(ctx->ust, session, &acks);
		if (ret)
			__atomic_store_n(&session->active, false, __ATOMIC_RELAXED);
		else
			LTT_INFO("session '%s' started", session->name);
	}
	ltt_cmd_unlock_session(ctx, session);
	/* Once this returns, registered programs record. */
	ltt_ust_acks_wait(&acks, "start");
	return ret;
}

int ltt_cmd_stop_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			 struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	const char *name;
	int ret;

	bool wait;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	wait = ltt_rbuf_get_bool(req);
	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	if (!session->active) {
		ltt_cmd_unlock_session(ctx, session);
		return -LTT_ERR_SESSION_NOT_STARTED;
	}
	ret = session_stop_unlock(ctx, session, wait);
	ltt_session_put(ctx->registry, session);
	return ret;
}

int ltt_cmd_list_sessions(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply)
{
	struct ltt_session **sessions;
	struct ltt_session_info info;
	size_t i, n;
	int ret;

	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ret = ltt_session_snapshot_list(ctx->registry, ctx->cred.uid, &sessions, &n);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(reply, (uint32_t)n);
	for (i = 0; i < n; i++) {
		/* No session lock: a slow stop or destroy holding it can't stall list. */
		ltt_session_info(sessions[i], &info);
		ltt_proto_put_session_info(reply, &info);
		ltt_session_put(ctx->registry, sessions[i]);
	}
	free(sessions);
	return reply->err ? -LTT_ERR_NOMEM : 0;
}

/* Append a session's channels and rules, session lock held. */
static void put_session_tree(struct ltt_ust *ust, struct ltt_session *session,
			     struct ltt_wbuf *reply)
{
	struct ltt_event_rule_info rinfo;
	struct ltt_channel_info cinfo;
	struct ltt_event_rule *rule;
	struct ltt_channel *channel;
	uint32_t nr_rules = 0;
	size_t d;

	ltt_wbuf_put_u32(reply, session->domains[0].nr_channels + session->domains[1].nr_channels);
	for (d = 0; d < 2; d++) {
		cds_list_for_each_entry(channel, &session->domains[d].channels, node) {
			cinfo = (struct ltt_channel_info){
				.domain = session->domains[d].type,
				.attr = channel->attr,
				.enabled = channel->enabled,
			};
			if (cinfo.domain == LTT_DOMAIN_USER)
				ltt_ust_channel_stats(ust, session, channel, &cinfo.discarded_events,
						      &cinfo.lost_packets);
			ltt_proto_put_channel_info(reply, &cinfo);
			nr_rules += channel->nr_rules;
		}
	}
	ltt_wbuf_put_u32(reply, nr_rules);
	for (d = 0; d < 2; d++) {
		cds_list_for_each_entry(channel, &session->domains[d].channels, node) {
			cds_list_for_each_entry(rule, &channel->rules, node) {
				rinfo = (struct ltt_event_rule_info){
					.domain = session->domains[d].type,
					.attr = rule->attr,
					.enabled = rule->enabled,
				};
				strcpy(rinfo.channel, channel->attr.name);
				ltt_proto_put_rule_info(reply, &rinfo);
			}
		}
	}
}

int ltt_cmd_get_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			struct ltt_wbuf *reply)
{
	struct ltt_session_info info;
	struct ltt_session *session;
	int ret;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	ltt_session_info(session, &info);
	ltt_proto_put_session_info(reply, &info);
	put_session_tree(ctx->ust, session, reply);
	ltt_cmd_unlock_session(ctx, session);
	return reply->err ? -LTT_ERR_NOMEM : 0;
}

int ltt_cmd_list_tracepoints(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			     struct ltt_wbuf *reply)
{
	bool with_fields = ltt_rbuf_get_bool(req);

	if (ltt_rbuf_end(req))
		return -LTT_ERR_PROTOCOL;
	ltt_ust_list_tracepoints(ctx->ust, with_fields, reply);
	return reply->err ? -LTT_ERR_NOMEM : 0;
}
