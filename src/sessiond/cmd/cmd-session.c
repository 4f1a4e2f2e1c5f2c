// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-session.c - client commands on whole sessions.
 */
#include <endian.h>
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/model/uri.h"
#include "common/probe/probe-loc.h"
#include "common/proto/client-proto.h"
#include "common/proto/relay-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/chunk/chunk-owner.h"
#include "sessiond/model/map.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/priv/priv.h"

/*
 * A streamed session's URL, parsed once: it travels typed from here.  The
 * relay is not asked (as LTTng: a script may create the session before the
 * relay runs); the session's start connects to it and fails with the
 * relay's error when it can't.
 */
static enum ltt_error_code check_relay(const struct ltt_session_conf *attr, struct ltt_uri *uri)
{
	if (attr->output_type != LTT_OUTPUT_NET)
		return LTT_ERR_OK;
	return ltt_uri_parse(attr->output, uri) ? LTT_ERR_URL : LTT_ERR_OK;
}

/*
 * The traces directory of a session's default output: HOME/ltt-traces
 * (HOME/lttng-traces for an LTTng client, as LTTng's daemon puts it) for
 * the home the client gave (its ltt_home_find() home; lttctl in a home of
 * LTTng's layout, $LTTNG_HOME, or run as lttng completes the output
 * itself), else ours for an ltt client of our own uid (a personal daemon,
 * or the sessions a root daemon loads itself: ltt_home_find()'s), else
 * the owner's home from the password database.
 */
static int traces_dir(const struct ltt_cmd_ctx *ctx, const char *client_home, char *buf,
		      size_t len)
{
	const char *name = ctx->lttng ? LTT_LTTNG_TRACES_DIR_NAME : LTT_TRACES_DIR_NAME;
	struct passwd pw, *found = NULL;
	char pwbuf[4096];

	if (client_home[0] && client_home[0] != '/')
		return -EINVAL;
	if (client_home[0])
		return ltt_path_join(buf, len, client_home, name);
	if (ctx->cred.uid == ltt_priv_daemon_uid())
		return ltt_home_traces(ctx->lttng, buf, len);
	if (getpwuid_r(ctx->cred.uid, &pw, pwbuf, sizeof(pwbuf), &found) || !found ||
	    pw.pw_dir[0] != '/')
		return -ENOENT;
	return ltt_path_join(buf, len, pw.pw_dir, name);
}

/*
 * Fill what the client left to us: the daemon's trace format for the
 * default one, "auto-DATE" (then "auto-DATE-N" for
 * the @attempt-th retry) for an empty name, HOME/ltt-traces/NAME-DATE
 * (HOME/ltt-traces/NAME for an automatic name, which holds the date) for
 * an empty local output.
 */
static enum ltt_error_code complete_attr(const struct ltt_cmd_ctx *ctx, const char *client_home,
					 struct ltt_session_conf *attr, bool automatic,
					 unsigned int attempt)
{
	char date[LTT_SESSION_DATE_MAX], dir[LTT_PATH_MAX];

	if (!attr->trace_format)
		attr->trace_format = (uint8_t)ctx->registry->trace_format;
	if (ltt_attr_session_auto_name(attr, automatic, attempt, date))
		return LTT_ERR_UNKNOWN;
	if (attr->output_type != LTT_OUTPUT_LOCAL || attr->output[0])
		return LTT_ERR_OK;
	if (traces_dir(ctx, client_home, dir, sizeof(dir))) {
		LTT_WARN("session '%s': no home directory for uid %u's default output",
			 attr->name, (unsigned int)ctx->cred.uid);
		return LTT_ERR_OUTPUT_PATH;
	}
	return ltt_attr_session_auto_output(attr, automatic, dir, date) ? LTT_ERR_OUTPUT_PATH :
									   LTT_ERR_OK;
}

/* Automatic names taken in the same second are tried this many times. */
#define AUTO_NAME_ATTEMPTS 100

/* Is @name taken by a session of the client's (root's plain name may find another user's)? */
static bool name_taken(const struct ltt_cmd_ctx *ctx, const char *name)
{
	struct ltt_session *session;
	bool mine;

	if (ltt_session_find(ctx->registry, name, ctx->cred.uid, &session))
		return false;
	mine = session->uid == ctx->cred.uid;
	ltt_session_put(ctx->registry, session);
	return mine;
}

/* Create the session of a complete, checked @attr; the reply is its info. */
static enum ltt_error_code create_checked(const struct ltt_cmd_ctx *ctx,
					  const struct ltt_session_conf *attr,
					  struct ltt_session_tls_text *tls, struct ltt_wbuf *reply)
{
	struct ltt_session_desc info;
	struct ltt_session *session;
	enum ltt_error_code ret;
	struct ltt_uri *relay;
	int err;

	/* A name in use says so (created below if still free). */
	if (name_taken(ctx, attr->name))
		return LTT_ERR_SESSION_EXISTS;
	relay = calloc(1, sizeof(*relay));
	if (!relay)
		return LTT_ERR_NOMEM;
	ret = check_relay(attr, relay);
	if (ret) {
		free(relay);
		return ret;
	}
	err = ltt_session_create(ctx->registry, attr,
				 attr->output_type == LTT_OUTPUT_NET ? relay : NULL,
				 ctx->cred.uid, ctx->cred.gid, &session);
	free(relay);
	if (err == -EEXIST)
		return LTT_ERR_SESSION_EXISTS;
	if (err)
		return ltt_cmd_error(err);
	ltt_session_lock(session);
	session->tls_text = *tls;	/* the session's now */
	*tls = (struct ltt_session_tls_text){ 0 };
	ltt_session_info(session, &info);
	ltt_session_unlock(session);
	/*
	 * The owner, as the privileged part reads it off this connection, with
	 * a local output ("" for none: its probe files only, PROBE_FILE)
	 */
	err = ltt_chunk_owner_admit(ctx->client_fd, session->id,
				    info.output[0] == '/' ? info.output : "", attr->shm_path,
				    ctx->cred.uid, ctx->cred.gid);
	if (err)
		LTT_WARN("session '%s': the privileged part did not take its owner (%s): its chunks won't be archived, nor its traces repaired",
			 info.name, strerror(-err));
	ltt_session_put(ctx->registry, session);
	LTT_INFO("session '%s' created by uid %u, output '%s'", info.name,
		 (unsigned int)ctx->cred.uid, info.output);
	ltt_proto_put_session_info(reply, &info, ctx->minor);
	return 0;
}

enum ltt_error_code ltt_cmd_create_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			   struct ltt_wbuf *reply)
{
	struct ltt_session_tls_text tls = { 0 };
	struct ltt_session_create_req create;
	struct ltt_session_conf *attr = &create.conf, full;
	unsigned int attempt = 0;
	enum ltt_error_code ret;
	bool automatic;

	/* a home or TLS files an older client lacks: "" */
	ltt_proto_get_session_create(req, &create, ctx->minor);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	/* Before minor 6 the client fills the name and output: both must be there. */
	if (ctx->minor >= LTT_CLIENT_MINOR_DAEMON_DEFAULTS)
		ret = ltt_attr_check_session_request(attr);
	else
		ret = ltt_attr_check_session(attr);
	if (!ret && ltt_relay_tls_check(attr, ctx->cred.uid, ctx->cred.gid, ctx->client_fd, &tls))
		ret = LTT_ERR_TLS_FILES;	/* the consumer could not use them either */
	if (ret)
		return ret;
	automatic = !attr->name[0];
	do {
		full = *attr;
		ret = complete_attr(ctx, create.home, &full, automatic, attempt);
		if (!ret)
			ret = ltt_attr_check_session(&full);
		if (!ret)
			ret = create_checked(ctx, &full, &tls, reply);
	} while (ret == LTT_ERR_SESSION_EXISTS && automatic && ++attempt < AUTO_NAME_ATTEMPTS);
	ltt_session_tls_text_fini(&tls);	/* none, unless not created */
	return ret;
}

/* Decode a request that is one session name, then lock that session. */
static enum ltt_error_code lock_named_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			      struct ltt_session **ret_session)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	return ltt_cmd_lock_session(ctx, name, ret_session);
}

/*
 * The domain that records @session's domain @i: served by this daemon and
 * given channels in @session (channels are never removed, and only a
 * served domain gets any).  NULL otherwise.  Session lock held.
 */
static struct ltt_domain_impl *recording_domain(const struct ltt_cmd_ctx *ctx,
					   struct ltt_session *session, size_t i)
{
	struct ltt_domain_impl *d = ctx->domains->v[i];

	return d && session->domains[i].nr_channels ? d : NULL;
}

/*
 * Stop tracing in a locked, active session and unlock it; the caller keeps
 * its reference.  Each domain waits for its programs and consumer without
 * the lock.  Returns 0 or the first domain's -errno.
 */
static int session_stop_unlock(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			       bool wait)
{
	struct ltt_domain_impl *stop[LTT_NR_DOMAINS];
	int ret = 0, err;
	size_t i;

	__atomic_store_n(&session->active, false, __ATOMIC_RELAXED);
	if (ctx->domains->maps)
		ltt_maps_set_active(ctx->domains->maps, session->uid, session->name, false);
	for (i = 0; i < LTT_NR_DOMAINS; i++)
		stop[i] = recording_domain(ctx, session, i);
	ltt_session_unlock(session);
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		err = stop[i] ? stop[i]->ops->stop(stop[i], session, wait) : 0;
		ret = ret ? ret : err;
	}
	LTT_INFO("session '%s' stopped", session->name);
	return ret;
}

/*
 * Does a recording domain of @session say so: its consumer owes a reply
 * (ltt_ctrace_domain_owes()), or, @waits, it keeps the stopped session for its
 * stalled consumer (ltt_ctrace_destroy_waits())?  Session lock held.
 */
static bool domain_holds(const struct ltt_cmd_ctx *ctx, struct ltt_session *session, bool waits)
{
	struct ltt_domain_impl *d;
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = recording_domain(ctx, session, i);
		if (d && (waits ? ltt_ctrace_destroy_waits(d, session) : ltt_ctrace_domain_owes(d, session)))
			return true;
	}
	return false;
}

/*
 * Stop, unregister and tear down a locked session; unlocks and releases
 * it.  With @keep_stalled, a rotation's move that a stalled consumer
 * still owes (archiving the chunks would pull them from under it) keeps
 * the session as it is: returns -ETIMEDOUT, as does a stopped session a
 * domain keeps for its stalled consumer (ltt_ctrace_destroy_waits()).  With
 * @keep_stalled, a consumer that did not answer the stop in
 * time (stalled, not dead) keeps the session, stopped, its data held
 * until it runs again: returns -ETIMEDOUT.  Else returns 0.
 */
static int destroy_locked(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  bool keep_stalled)
{
	bool move = keep_stalled && ltt_chunk_move_pending(session) &&
		    domain_holds(ctx, session, false);
	size_t i;

	if (move || (keep_stalled && !session->active && domain_holds(ctx, session, true))) {
		LTT_WARN("session '%s': not destroyed: %s its stalled consumer daemon; destroy again once it runs",
			 session->name, move ? "a rotation's move waits for" :
			 "what it recorded is still to be written by");
		ltt_session_unlock(session);
		ltt_session_put(ctx->registry, session);
		return -ETIMEDOUT;
	}
	if (!session->active)
		ltt_session_unlock(session);
	else if (session_stop_unlock(ctx, session, true) == -ETIMEDOUT && keep_stalled) {
		LTT_WARN("session '%s': not destroyed: its consumer daemon did not answer the stop in time (stalled); stopped, its data kept until it runs again",
			 session->name);
		ltt_session_put(ctx->registry, session);
		return -ETIMEDOUT;
	}
	/*
	 * Unregistered first (registry lock before the session's): no command
	 * can start it again while its domains tear it down.
	 */
	ltt_session_remove(ctx->registry, session);
	if (ctx->domains->maps)
		ltt_maps_drop_session(ctx->domains->maps, session->uid, session->name);
	ltt_session_lock(session);
	for (i = 0; i < LTT_NR_DOMAINS; i++)
		if (ctx->domains->v[i])
			ctx->domains->v[i]->ops->destroy(ctx->domains->v[i], session);
	ltt_chunk_destroyed(session);
	ltt_session_unlock(session);
	ltt_chunk_owner_forget(session->id);
	LTT_INFO("session '%s' destroyed", session->name);
	ltt_session_put(ctx->registry, session);
	return 0;
}

enum ltt_error_code ltt_cmd_destroy_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			    struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	enum ltt_error_code ret;
	bool maps;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	maps = ctx->domains->maps &&
	       ltt_maps_count(ctx->domains->maps, session->uid, session->name);
	if (destroy_locked(ctx, session, true))
		return LTT_ERR_CONSUMERD_STALLED;
	/* the programs stop counting in its maps: their counters are removed */
	if (maps)
		(void)ltt_cmd_triggers_changed(ctx);
	return LTT_ERR_OK;
}

void ltt_cmd_destroy_all(const struct ltt_cmd_ctx *ctx)
{
	struct ltt_session **sessions;
	size_t i, n;

	if (ltt_session_snapshot_list(ctx->registry, 0, &sessions, &n))
		return;
	for (i = 0; i < n; i++) {
		ltt_session_lock(sessions[i]);
		if (sessions[i]->destroyed) {
			ltt_session_unlock(sessions[i]);
			ltt_session_put(ctx->registry, sessions[i]);
			continue;
		}
		/* destroy_locked() drops the reference we hold. */
		destroy_locked(ctx, sessions[i], false);
	}
	free(sessions);
}

static bool has_channel(const struct ltt_cmd_ctx *ctx, const struct ltt_session *session)
{
	return session->domains[0].nr_channels || session->domains[1].nr_channels ||
	       (ctx->domains->maps &&
		ltt_maps_count(ctx->domains->maps, session->uid, session->name));
}

/*
 * Have every domain with channels start recording @session, which is
 * locked; on failure, the domains already started are stopped and the
 * session unlocked.  Returns 0 (still locked) or the failing -errno;
 * an output's failure also in *@ret_output_err, and *@ret_create: it
 * was making the output's directory.
 */
static int start_domains(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			 struct ltt_domain_settle *settle, int *ret_output_err, bool *ret_create)
{
	struct ltt_domain_impl *d;
	size_t i, j;
	int ret;

	session->output_err = 0;
	session->output_create = false;
	__atomic_store_n(&session->active, true, __ATOMIC_RELAXED);
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = recording_domain(ctx, session, i);
		ret = d ? d->ops->start(d, session, settle) : 0;
		if (ret)
			break;
	}
	if (i == LTT_NR_DOMAINS)
		return 0;
	LTT_ERR("session '%s': the %s domain can't start: %s", session->name,
		ltt_domain_name(d->type), strerror(-ret));
	*ret_output_err = session->output_err;
	*ret_create = session->output_create;
	__atomic_store_n(&session->active, false, __ATOMIC_RELAXED);
	ltt_session_unlock(session);
	ltt_domain_settle_wait(settle, NULL);
	for (j = 0; j < i; j++) {
		d = ctx->domains->v[j];
		if (d && session->domains[j].nr_channels)
			d->ops->stop(d, session, false);
	}
	return ret;
}

/* A streamed session's start failed: the relay's doing, or a domain's. */
static enum ltt_error_code start_relay_error(int err)
{
	switch (err) {
	case -ENOENT:
	case -ECONNREFUSED:
	case -ETIMEDOUT:
	case -EHOSTUNREACH:
	case -ENETUNREACH:
	case -EPROTO:
	case -EPROTONOSUPPORT:
	case -ECONNRESET:
		return ltt_relay_error_code(err);
	default:
		return ltt_cmd_domain_error(err);
	}
}

/*
 * A streamed session's relay must answer before its start: a relay daemon
 * at the control port of its URL (the check may take
 * LTT_RELAY_CHECK_TIMEOUT_MS), so that a relay that is not there is said
 * in its words whatever the consumers do, and kept for list
 * (ltt_cmd_relay_status()); a CTF 2 session's must speak relay protocol
 * 2.15, which carries the trace format.  Snapshot sessions reach theirs at each
 * record.  Session lock held.
 */
static enum ltt_error_code reach_relay(struct ltt_session *session)
{
	uint32_t minor = 0;
	int err;

	if (session->output_type != LTT_OUTPUT_NET || session->snapshot)
		return LTT_ERR_OK;
	err = ltt_relay_check(&session->relay, session, LTT_RELAY_CHECK_TIMEOUT_MS, &minor,
			      NULL);
	session->relay_err = err;
	if (err)
		LTT_WARN("session '%s' not started: the relay %s does not answer: %s",
			 session->name, session->output, strerror(-err));
	if (!err && session->trace_format == LTT_TRACE_FORMAT_CTF_2 &&
	    minor < LTT_RELAY_MINOR_TRACE_FORMAT) {
		LTT_WARN("session '%s' not started: the relay %s speaks protocol 2.%u, before CTF 2's 2.%u",
			 session->name, session->output, (unsigned int)minor,
			 (unsigned int)LTT_RELAY_MINOR_TRACE_FORMAT);
		return LTT_ERR_CTF2_RELAY;
	}
	return ltt_relay_error_code(err);
}

enum ltt_error_code ltt_cmd_start_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply)
{
	struct ltt_domain_settle settle;
	struct ltt_session *session;
	enum ltt_error_code ret;
	int err, output_err = 0;
	bool net, create = false;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	ltt_domain_settle_init(&settle);
	if (session->active)
		ret = LTT_ERR_SESSION_STARTED;
	else if (!has_channel(ctx, session))
		ret = LTT_ERR_NO_CHANNEL;
	else if ((ret = ltt_cmd_check_memory(ctx, session)))
		;
	else if ((ret = reach_relay(session)))
		;
	else if ((err = start_domains(ctx, session, &settle, &output_err, &create))) {
		/* Unlocked, and the domains that had started are stopped. */
		net = session->output_type == LTT_OUTPUT_NET;
		ltt_session_put(ctx->registry, session);
		if (output_err)
			return create ? LTT_ERR_OUTPUT_CREATE : ltt_cmd_output_error(output_err);
		return net ? start_relay_error(err) : ltt_cmd_domain_error(err);
	}
	if (!ret) {
		if (ctx->domains->maps)
			ltt_maps_set_active(ctx->domains->maps, session->uid, session->name, true);
		ltt_chunk_started(ctx->domains, session);
		LTT_INFO("session '%s' started", session->name);
	}
	ltt_cmd_unlock_session(ctx, session);
	/* Once this returns, what the session traces records. */
	ltt_domain_settle_wait(&settle, "start");
	return ret;
}

/* What a stop's failure is: each the consumer's doing. */
static const struct ltt_errmap stop_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -ETIMEDOUT, LTT_ERR_CONSUMERD_STALLED },	/* alive but stalled */
	{ -EREMOTEIO, LTT_ERR_CONSUMERD_REFUSED },	/* it refused traces */
	{ -EOWNERDEAD, LTT_ERR_CONSUMERD_LOST },	/* it died, none took over */
	{ LTT_ERRMAP_ELSE, LTT_ERR_CONSUMERD },	/* it failed to write, died */
};

enum ltt_error_code ltt_cmd_stop_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			 struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	const char *name;
	enum ltt_error_code ret;
	bool wait;
	int err;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	wait = ltt_rbuf_get_bool(req);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	if (!session->active) {
		ltt_cmd_unlock_session(ctx, session);
		return LTT_ERR_SESSION_NOT_STARTED;
	}
	err = session_stop_unlock(ctx, session, wait);
	ret = LTT_ERRMAP(stop_errors, err, NULL);
	if (ctx->minor < LTT_CLIENT_MINOR_STOP_CODES &&
	    (ret == LTT_ERR_CONSUMERD_REFUSED || ret == LTT_ERR_CONSUMERD_LOST))
		ret = LTT_ERR_CONSUMERD;	/* the codes an older client knows */
	ltt_session_put(ctx->registry, session);
	return ret;
}

enum ltt_error_code ltt_cmd_list_sessions(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			  struct ltt_wbuf *reply)
{
	struct ltt_session **sessions;
	struct ltt_session_desc info;
	size_t i, n;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_error(ltt_session_snapshot_list(ctx->registry, ctx->cred.uid, &sessions, &n));
	if (ret)
		return ret;
	ltt_wbuf_put_u32(reply, (uint32_t)n);
	for (i = 0; i < n; i++) {
		/* No session lock: a slow stop or destroy holding it can't stall list. */
		ltt_session_info(sessions[i], &info);
		ltt_proto_put_session_info(reply, &info, ctx->minor);
		ltt_session_put(ctx->registry, sessions[i]);
	}
	free(sessions);
	return reply->err ? LTT_ERR_NOMEM : 0;
}

/* Does the client know the domain of @channel's rules?  If not, it gets the channel alone. */
static bool knows(const struct ltt_cmd_ctx *ctx, const struct ltt_channel *channel)
{
	return !channel->agent || ltt_proto_domain_known(ctx->minor, channel->agent->domain);
}

/* A client older than probe rules gets none. */
static bool rule_known(const struct ltt_cmd_ctx *ctx, const struct ltt_event_rule *rule)
{
	return ctx->minor >= LTT_CLIENT_MINOR_PROBE || !ltt_event_type_is_probe(rule->attr.type);
}

static struct cds_list_head no_rules = CDS_LIST_HEAD_INIT(no_rules);

/* @channel's output failure into @cinfo, session lock held. */
static void put_failure(struct ltt_domain_impl *d, struct ltt_session *session,
			const struct ltt_channel *channel, struct ltt_channel_desc *cinfo)
{
	struct ltt_domain_failure f;

	d->ops->channel_failure(d, session, channel, &f);
	cinfo->output_error = -f.error;
	cinfo->output_error_since = f.since;
	cinfo->error_events = f.events;
	cinfo->error_packets = f.packets;
	cinfo->classes_refused = f.classes_refused;
}

void ltt_cmd_session_tree(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply)
{
	struct ltt_domain_impl *d;
	struct ltt_rule_desc rinfo;
	struct ltt_channel_desc cinfo;
	struct ltt_event_rule *rule;
	struct ltt_channel *channel;
	uint32_t nr_rules = 0;
	size_t i;

	ltt_wbuf_put_u32(reply, session->domains[0].nr_channels + session->domains[1].nr_channels);
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = ctx->domains->v[i];
		cds_list_for_each_entry(channel, &session->domains[i].channels, node) {
			cinfo = (struct ltt_channel_desc){
				.domain = session->domains[i].type,
				.attr = channel->attr,
				.enabled = channel->enabled,
			};
			if (d)
				d->ops->channel_stats(d, session, channel, &cinfo.discarded_events,
						      &cinfo.lost_packets);
			if (d && d->ops->channel_failure)
				put_failure(d, session, channel, &cinfo);
			ltt_proto_put_channel(reply, &cinfo, ctx->minor);
			cds_list_for_each_entry(rule, knows(ctx, channel) ? &channel->rules :
						&no_rules, node)
				nr_rules += rule_known(ctx, rule);
		}
	}
	ltt_wbuf_put_u32(reply, nr_rules);
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		cds_list_for_each_entry(channel, &session->domains[i].channels, node) {
			if (!knows(ctx, channel))
				continue;	/* a client that knows no such domain */
			cds_list_for_each_entry(rule, &channel->rules, node) {
				if (!rule_known(ctx, rule))
					continue;
				rinfo = (struct ltt_rule_desc){
					.domain = rule->agent ? rule->agent->domain :
								session->domains[i].type,
					.attr = rule->attr,
					.enabled = rule->enabled,
				};
				strcpy(rinfo.channel, channel->attr.name);
				ltt_proto_put_rule_info(reply, &rinfo, ctx->minor);
			}
		}
	}
	if (ctx->minor >= LTT_CLIENT_MINOR_CONSUMER_STALL)
		ltt_cmd_stall_put(ctx, session, true, reply);
}

enum ltt_error_code ltt_cmd_list_tracepoints(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
			     struct ltt_wbuf *reply)
{
	struct ltt_list_tracepoints_req q;
	/* the programs the client's sessions may record */
	uid_t who = ltt_list_reach(ctx->registry, ctx->cred.uid);
	struct ltt_domain_impl *d;
	enum ltt_error_code ret;
	uint32_t n;
	size_t at;
	int err;

	/* Minor 0 names no domain: the user-space domain's tracepoints. */
	ltt_proto_get_list_tracepoints(req, &q, ctx->minor);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_domain(ctx, ltt_agent_domain(q.domain) ? LTT_DOMAIN_USER : q.domain, &d);
	if (ret)
		return ret;
	if (q.type != LTT_EVENT_TRACEPOINT && q.type != LTT_EVENT_SYSCALL)
		return LTT_ERR_EVENT_TYPE;
	if (ltt_agent_domain(q.domain)) {
		if (!d->ops->list_loggers || q.type != LTT_EVENT_TRACEPOINT)
			return LTT_ERR_EVENT_TYPE;
		return ltt_cmd_error(d->ops->list_loggers(d, q.domain, who, reply));
	}
	at = reply->len;
	err = d->ops->list_events(d, (enum ltt_event_type)q.type, q.with_fields, who, reply);
	/* then the programs it does not record, for a client that reads them */
	if (!err && !reply->err && q.type == LTT_EVENT_TRACEPOINT && d->ops->list_unrecorded &&
	    ctx->minor >= LTT_CLIENT_MINOR_OWN_UST) {
		memcpy(&n, reply->data + at, sizeof(n));
		n = le32toh(n);
		d->ops->list_unrecorded(d, who, reply, &n);
		n = htole32(n);
		if (!reply->err)
			memcpy(reply->data + at, &n, sizeof(n));
	}
	if (!err && reply->err)
		err = -ENOMEM;
	return err == -EINVAL ? LTT_ERR_EVENT_TYPE : ltt_cmd_error(err);
}

enum ltt_error_code ltt_cmd_kernel_tracer(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					 struct ltt_wbuf *reply)
{
	struct ltt_domain_impl *d;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_domain(ctx, LTT_DOMAIN_KERNEL, &d);
	if (ret)
		return ret;
	if (!d->ops->describe_tracer)
		return LTT_ERR_NOT_SUPPORTED;
	d->ops->describe_tracer(d, reply);
	return reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}

/*
 * Is data of a stopped @session on its way to the relay?  Asks each
 * domain (their consumers answer at once).  Session lock held.
 */
static enum ltt_error_code data_pending_locked(const struct ltt_cmd_ctx *ctx,
					       struct ltt_session *session, bool *ret_pending)
{
	struct ltt_domain_impl *d;
	bool pending = false, p;
	int err, lost = 0;
	size_t i;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = recording_domain(ctx, session, i);
		if (!d || !d->ops->relay_pending)
			continue;
		err = d->ops->relay_pending(d, session, &p);
		if (err)
			lost = err;
		else
			pending |= p;
	}
	if (lost) {
		LTT_WARN("session '%s': the relay connection is lost: %s", session->name,
			 strerror(-lost));
		return LTT_ERR_RELAY_LOST;
	}
	*ret_pending = pending;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_data_pending(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					 struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	enum ltt_error_code ret;
	bool pending = false;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	if (session->active)
		ret = LTT_ERR_SESSION_ACTIVE;
	else if (session->output_type == LTT_OUTPUT_NET)
		ret = data_pending_locked(ctx, session, &pending);
	ltt_cmd_unlock_session(ctx, session);
	if (!ret)
		ltt_wbuf_put_u8(reply, pending);
	return ret;
}

enum ltt_error_code ltt_cmd_relay_status(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					 struct ltt_wbuf *reply)
{
	struct ltt_relay_desc info[LTT_NR_DOMAINS];
	struct ltt_session *session;
	struct ltt_domain_impl *d;
	enum ltt_error_code ret;
	uint32_t n = 0, i;
	bool known;

	ret = lock_named_session(ctx, req, &session);
	if (ret)
		return ret;
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = recording_domain(ctx, session, i);
		memset(&info[n], 0, sizeof(info[n]));
		if (!d)
			continue;
		known = d->ops->relay_status && !d->ops->relay_status(d, session, &info[n]);
		if (session->relay_err) {
			/* the last start found no relay: its reason, what was sent before kept */
			info[n].state = LTT_RELAY_STATE_LOST;
			info[n].error = -session->relay_err;
		} else if (!known) {
			continue;
		}
		info[n++].domain = session->domains[i].type;
	}
	ltt_cmd_unlock_session(ctx, session);
	ltt_wbuf_put_u32(reply, n);
	for (i = 0; i < n; i++)
		ltt_proto_put_relay_info(reply, &info[i]);
	return reply->err ? LTT_ERR_NOMEM : 0;
}

void ltt_cmd_stall_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session, bool waiting,
		       struct ltt_wbuf *reply)
{
	struct ltt_domain_stall st[LTT_NR_DOMAINS];
	struct ltt_stall_desc desc;
	struct ltt_domain_impl *d;
	uint32_t i, n = 0;
	const char *name;

	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = ctx->domains->v[i];
		st[i] = (struct ltt_domain_stall){ 0 };
		/* a domain without channels has no traces: its owner's consumer is not its */
		if (d && __atomic_load_n(&session->domains[i].nr_channels, __ATOMIC_RELAXED))
			ltt_ctrace_stall_info(d, session, waiting, &st[i]);
		n += waiting || st[i].stalled;
	}
	ltt_wbuf_put_u32(reply, n);
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		if (!waiting && !st[i].stalled)
			continue;
		name = ltt_consumer_msg_name(st[i].command);
		desc = (struct ltt_stall_desc){
			.domain = session->domains[i].type,
			.traces_waiting = st[i].traces,
			.since = st[i].since,
			.metadata_waiting = st[i].metadata,
		};
		snprintf(desc.command, sizeof(desc.command), "%s", name ? name : "");
		if (waiting)
			ltt_proto_put_stall_waiting(reply, &desc);
		else
			ltt_proto_put_stall(reply, &desc);
	}
}
