// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-snapshot.c - client commands of snapshot sessions: their snapshot
 * output (add, delete, list) and recording a snapshot.
 *
 * A snapshot session records into its buffers only (overwrite mode by
 * default: a flight recorder); its consumer writes nothing until a
 * snapshot, which copies what the buffers hold without consuming it, into
 * OUTPUT/NAME-YYYYmmdd-HHMMSS-N (N counts the session's snapshots from 0;
 * NAME: the output's, snapshot-ID by default, snapshot-0 for an output
 * given to the record alone), as LTTng names them, with no index files (as
 * LTTng's); or, for a net:// output, to that relay, which writes it in
 * HOST/BASE/NAME-YYYYmmdd-HHMMSS-N (BASE: the URL's path, else
 * SESSION-YYYYmmdd-HHMMSS, the session's creation: sessiond/consumer/relay.h).
 * One snapshot output per session, as LTTng.  A session created with
 * --no-output takes snapshots as one created with --snapshot does (it has
 * no output at first, and its channels default to discard mode), as
 * LTTng's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/base/log.h"
#include "common/base/names.h"
#include "common/model/attr.h"
#include "common/model/uri.h"
#include "common/proto/client-proto.h"
#include "sessiond/consumer/relay.h"
#include "sessiond/cmd/cmd.h"

/* An output to add or to record to: absolute or a net URL, a valid name (attr.h). */
static enum ltt_error_code check_output(const struct ltt_snapshot_output_conf *o, bool need_path)
{
	return ltt_attr_check_snapshot_output(o, need_path);
}

/*
 * The relay of output @o, parsed once where it came in (NULL for a local
 * output, or on failure with *@ret_code set: URL, NOMEM).  Free it.
 */
static struct ltt_uri *parse_relay(const struct ltt_snapshot_output_conf *o,
				   enum ltt_error_code *ret_code)
{
	struct ltt_uri *relay;

	*ret_code = LTT_ERR_OK;
	if (o->output_type != LTT_OUTPUT_NET)
		return NULL;
	relay = calloc(1, sizeof(*relay));
	if (!relay)
		*ret_code = LTT_ERR_NOMEM;
	else if (ltt_uri_parse(o->output, relay) || relay->scheme != LTT_URI_NET)
		*ret_code = LTT_ERR_URL;
	if (*ret_code) {
		free(relay);
		return NULL;
	}
	return relay;
}

/* Lock the request's session, which must be a snapshot session. */
static enum ltt_error_code lock_snapshot_session(const struct ltt_cmd_ctx *ctx, const char *name,
						 struct ltt_session **ret_session)
{
	enum ltt_error_code ret = ltt_cmd_lock_session(ctx, name, ret_session);

	if (ret)
		return ret;
	if (!(*ret_session)->snapshot) {
		ltt_cmd_unlock_session(ctx, *ret_session);
		return LTT_ERR_SNAPSHOT_NOT_SNAPSHOT;
	}
	return LTT_ERR_OK;
}

/*
 * A request read to its end (else LTT_ERR_PROTOCOL), its session locked
 * as lock_snapshot_session() does.
 */
static enum ltt_error_code lock_request_session(const struct ltt_cmd_ctx *ctx,
						struct ltt_rbuf *req, const char *name,
						struct ltt_session **ret_session)
{
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	return lock_snapshot_session(ctx, name, ret_session);
}

enum ltt_error_code ltt_cmd_snapshot_add_output(const struct ltt_cmd_ctx *ctx,
						struct ltt_rbuf *req, struct ltt_wbuf *reply)
{
	struct ltt_snapshot_output_conf o, pub;
	struct ltt_snapshot_output_conf *so;
	struct ltt_session *session;
	enum ltt_error_code ret;
	struct ltt_uri *relay;
	const char *name;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	ltt_proto_get_snapshot_output(req, &o);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = check_output(&o, true);
	if (ret)
		return ret;
	relay = parse_relay(&o, &ret);
	if (ret)
		return ret;
	ret = lock_snapshot_session(ctx, name, &session);
	if (ret) {
		free(relay);
		return ret;
	}
	if (session->has_snap_output || (relay && relay->tls && !session->tls_cert[0])) {
		ltt_cmd_unlock_session(ctx, session);
		ret = relay && relay->tls && !session->tls_cert[0] ? LTT_ERR_TLS_FILES :
		      LTT_ERR_SNAPSHOT_OUTPUT_EXISTS;
		free(relay);
		return ret;
	}
	so = &session->snap_output;
	memset(so, 0, sizeof(*so));
	so->id = session->next_snap_output_id++;
	if (o.name[0])
		strcpy(so->name, o.name);
	else
		snprintf(so->name, sizeof(so->name), "snapshot-%" PRIu32, so->id);
	so->max_size = o.max_size;
	so->output_type = o.output_type;
	strcpy(so->output, o.output);
	if (relay)
		session->snap_relay = *relay;
	free(relay);
	session->has_snap_output = true;
	pub = *so;
	LTT_INFO("session '%s': snapshot output %s (%" PRIu32 ") is %s", session->name, so->name,
		 so->id, so->output);
	ltt_cmd_unlock_session(ctx, session);
	ltt_proto_put_snapshot_output(reply, &pub);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_snapshot_del_output(const struct ltt_cmd_ctx *ctx,
						struct ltt_rbuf *req, struct ltt_wbuf *reply)
{
	struct ltt_session *session;
	enum ltt_error_code ret;
	const char *name, *out_name;
	uint32_t id;

	(void)reply;
	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	id = ltt_rbuf_get_u32(req);
	out_name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	ret = lock_request_session(ctx, req, name, &session);
	if (ret)
		return ret;
	if (!session->has_snap_output || (id && session->snap_output.id != id) ||
	    (!id && strcmp(session->snap_output.name, out_name))) {
		ltt_cmd_unlock_session(ctx, session);
		return LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND;
	}
	session->has_snap_output = false;
	LTT_INFO("session '%s': snapshot output %s removed", session->name,
		 session->snap_output.name);
	ltt_cmd_unlock_session(ctx, session);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_snapshot_list_output(const struct ltt_cmd_ctx *ctx,
						 struct ltt_rbuf *req, struct ltt_wbuf *reply)
{
	struct ltt_snapshot_output_conf pub;
	struct ltt_session *session;
	enum ltt_error_code ret;
	const char *name;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	ret = lock_request_session(ctx, req, name, &session);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(reply, session->has_snap_output ? 1 : 0);
	if (session->has_snap_output) {
		pub = session->snap_output;
		ltt_proto_put_snapshot_output(reply, &pub);
	}
	ltt_cmd_unlock_session(ctx, session);
	return LTT_ERR_OK;
}

/*
 * The output a record uses: the session's, with the request's non-empty
 * name and size over it; or, when the request gives an output, that one
 * alone, named as the request says or "snapshot-0" (as LTTng's one-off
 * outputs, which have no id).  Session lock held.
 */
static enum ltt_error_code record_output(const struct ltt_session *session, bool has,
					 const struct ltt_snapshot_output_conf *o,
					 struct ltt_snapshot_output_conf *ret)
{
	enum ltt_error_code code;

	memset(ret, 0, sizeof(*ret));
	if (session->has_snap_output)
		*ret = session->snap_output;
	if (has) {
		code = check_output(o, false);
		if (code)
			return code;
		if (o->output_type != LTT_OUTPUT_NONE) {
			memset(ret, 0, sizeof(*ret));
			ret->output_type = o->output_type;
			strcpy(ret->output, o->output);
			strcpy(ret->name, "snapshot-0");
		}
		if (o->name[0])
			strcpy(ret->name, o->name);
		if (o->max_size)
			ret->max_size = o->max_size;
	}
	return ret->output_type == LTT_OUTPUT_NONE ? LTT_ERR_SNAPSHOT_NO_OUTPUT : LTT_ERR_OK;
}

/* The public code of a snapshot's failure; any other is the output's. */
static const struct ltt_errmap record_errors[] = {
	{ -ENOSPC, LTT_ERR_SNAPSHOT_TOO_SMALL },
	{ -EEXIST, LTT_ERR_SNAPSHOT_EXISTS },
	{ -EOPNOTSUPP, LTT_ERR_NOT_SUPPORTED },
	{ -EPIPE, LTT_ERR_CONSUMERD },
	{ -ETIMEDOUT, LTT_ERR_CONSUMERD_STALLED },
	{ -ENAMETOOLONG, LTT_ERR_OUTPUT_PATH },
	{ -EINVAL, LTT_ERR_OUTPUT_PATH },
	{ -ENOMEM, LTT_ERR_NOMEM },
};

/*
 * Each domain with channels writes its part of the snapshot under @dir
 * (DIR/kernel, DIR/ust/...), or sends it to @net's relay as those paths;
 * a -m budget is shared evenly between them.
 */
static int record_domains(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  const char *dir, struct ltt_relay_snap *net, uint64_t max_size,
			  struct ltt_snapshot_result_desc *res)
{
	static const int order[] = { LTT_DOMAIN_IDX_KERNEL, LTT_DOMAIN_IDX_USER };
	struct ltt_domain_snapshot snap;
	struct ltt_domain_impl *d;
	unsigned int i, nr = 0;
	int err;

	for (i = 0; i < 2; i++)
		nr += session->domains[order[i]].nr_channels != 0;
	for (i = 0; i < 2; i++) {
		if (!session->domains[order[i]].nr_channels)
			continue;
		d = ctx->domains->v[order[i]];
		if (!d || !d->ops->snapshot)
			return -EOPNOTSUPP;
		memset(&snap, 0, sizeof(snap));
		err = d->ops->snapshot(d, session, dir, net, max_size / nr, &snap);
		res->packets += snap.packets;
		res->bytes += snap.bytes;
		res->packets_dropped += snap.packets_dropped;
		if (err)
			return err;
	}
	return 0;
}

/*
 * Send the snapshot to @relay (@out's, a net URL), in the directory
 * @dir_name of the session's relay directory: the domains send their
 * traces, then the relay sessions are drained and closed; @res->path gets
 * that directory as the relay names it: one relay session per consumer
 * (the kernel's, each user-space owner's), all in one directory.
 * Session lock held.
 */
static int record_net(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
		      const struct ltt_snapshot_output_conf *out, const struct ltt_uri *relay,
		      const char *dir_name, struct ltt_snapshot_result_desc *res,
		      enum ltt_error_code *ret_code)
{
	struct ltt_relay_snap *net;
	int err, n;

	net = calloc(1, sizeof(*net));
	if (!net)
		return -ENOMEM;
	err = ltt_relay_snap_init(net, session, relay);
	if (!err)
		err = record_domains(ctx, session, dir_name, net, out->max_size, res);
	err = ltt_relay_snap_end(net, err);
	if (err && net->relay_err)
		*ret_code = err == -EIO ? LTT_ERR_RELAY_LOST : ltt_relay_error_code(err);
	/* the relay's directory (the URL's path before it answered) and ours in it */
	n = snprintf(res->path, sizeof(res->path), "%s%s%s",
		     net->output_path[0] ? net->output_path : net->base_path,
		     net->output_path[0] || net->base_path[0] ? "/" : "", dir_name);
	if (n < 0 || (size_t)n >= sizeof(res->path))
		res->path[0] = '\0';	/* too long to show: nothing rather than a part */
	free(net);
	return err;
}

/*
 * Write the snapshot of a locked snapshot session into its output @out
 * (@relay: its relay, a net output's).
 */
static enum ltt_error_code record_locked(const struct ltt_cmd_ctx *ctx,
					 struct ltt_session *session,
					 const struct ltt_snapshot_output_conf *out,
					 const struct ltt_uri *relay,
					 struct ltt_snapshot_result_desc *res)
{
	enum ltt_error_code code = LTT_ERR_OK;
	char date[32], dir_name[LTT_NAME_MAX + 64];
	struct tm tm;
	time_t now = time(NULL);
	int n, err;

	if (!session->domains[LTT_DOMAIN_IDX_KERNEL].nr_channels &&
	    !session->domains[LTT_DOMAIN_IDX_USER].nr_channels)
		return LTT_ERR_NO_CHANNEL;
	if (!localtime_r(&now, &tm) || !strftime(date, sizeof(date), "%Y%m%d-%H%M%S", &tm))
		return LTT_ERR_UNKNOWN;
	snprintf(dir_name, sizeof(dir_name), "%s-%s-%" PRIu64, out->name, date,
		 session->nr_snapshots);
	if (out->output_type == LTT_OUTPUT_NET) {
		err = record_net(ctx, session, out, relay, dir_name, res, &code);
	} else {
		n = snprintf(res->path, sizeof(res->path), "%s/%s", out->output, dir_name);
		if (n < 0 || (size_t)n >= sizeof(res->path))
			return LTT_ERR_OUTPUT_PATH;
		err = record_domains(ctx, session, res->path, NULL, out->max_size, res);
	}
	if (err) {
		LTT_WARN("session '%s': snapshot %s failed: %s", session->name, res->path,
			 strerror(-err));
		return code ? code : LTT_ERRMAP(record_errors, err, ltt_cmd_output_error);
	}
	session->nr_snapshots++;
	LTT_INFO("session '%s': snapshot %s: %" PRIu64 " packets, %" PRIu64 " bytes, %" PRIu64
		 " overwritten while copied", session->name, res->path, res->packets, res->bytes,
		 res->packets_dropped);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_snapshot_record(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    struct ltt_wbuf *reply)
{
	struct ltt_snapshot_result_desc res = { 0 };
	struct ltt_snapshot_output_conf o = { 0 };
	struct ltt_session *session;
	struct ltt_snapshot_output_conf out;
	struct ltt_uri *relay = NULL;
	enum ltt_error_code ret;
	const char *name;
	bool has;

	name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	has = ltt_rbuf_get_bool(req);
	if (has)
		ltt_proto_get_snapshot_output(req, &o);
	ret = lock_request_session(ctx, req, name, &session);
	if (ret)
		return ret;
	ret = record_output(session, has, &o, &out);
	/* an output given here is parsed here; the session's was when added */
	if (!ret && has && o.output_type != LTT_OUTPUT_NONE)
		relay = parse_relay(&o, &ret);
	if (!ret && relay && relay->tls && !session->tls_cert[0])
		ret = LTT_ERR_TLS_FILES;	/* the session was created without --tls-* */
	if (!ret)
		ret = record_locked(ctx, session, &out, relay ? relay : &session->snap_relay, &res);
	ltt_cmd_unlock_session(ctx, session);
	free(relay);
	if (!ret)
		ltt_proto_put_snapshot_result(reply, &res);
	return ret;
}
