// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-tracker.c - client commands on process trackers (client protocol
 * minor 9): TRACK, UNTRACK, TRACKER_POLICY, LIST_TRACKERS.
 *
 * Values are resolved (user and group names looked up) before the session
 * is locked, then the new tracker replaces the old one and the domain
 * follows (ops->update, then ops->apply); once the command returns, the active session's
 * programs record by the new trackers (doc/trackers.md).  Both domains go
 * through here; where they differ, the domain says (ops->check_tracker:
 * which types it has, whether its tracer can track; ops->update records, ops->apply applies).
 */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"

/* A value's longest text: a user or group name (LOGIN_NAME_MAX is 256). */
#define VALUE_MAX 256

/* What a tracker command names: the session, its domain and the tracker. */
struct target {
	const char *session;
	enum ltt_domain domain;
	enum ltt_tracker_type type;
	struct ltt_domain_impl *d;
};

static void get_target(struct ltt_rbuf *req, struct target *t, bool with_type)
{
	t->session = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	t->domain = ltt_proto_get_domain(req);
	t->type = with_type ? (enum ltt_tracker_type)ltt_rbuf_get_u32(req) : LTT_TRACKER_VPID;
}

/* How many tracker types domain @d has: the first n of enum ltt_tracker_type. */
static uint32_t nr_types(const struct ltt_domain_impl *d)
{
	return d->ops->check_tracker ? LTT_TRACKER_NR : LTT_TRACKER_NR_USER;
}

/*
 * The domain of @t, which must have tracker @t->type (@with_type), and
 * be able to change it now.  After the request is decoded.
 */
static enum ltt_error_code target_domain(const struct ltt_cmd_ctx *ctx, struct target *t,
					 bool with_type)
{
	enum ltt_error_code ret;

	if ((unsigned int)t->type >= LTT_TRACKER_NR)
		return LTT_ERR_INVAL;
	ret = ltt_cmd_domain(ctx, t->domain, &t->d);
	if (ret || !with_type)
		return ret;
	if (t->d->ops->check_tracker)
		return t->d->ops->check_tracker(t->d, t->type);
	return (uint32_t)t->type < nr_types(t->d) ? LTT_ERR_OK : LTT_ERR_TRACKER_DOMAIN;
}

/* Is @type matched against a user id (else a group id, or a pid)? */
static bool is_user(enum ltt_tracker_type type)
{
	return type == LTT_TRACKER_VUID || type == LTT_TRACKER_UID;
}

static bool is_pid(enum ltt_tracker_type type)
{
	return type == LTT_TRACKER_VPID || type == LTT_TRACKER_PID;
}

/* A decimal id of at most @max: digits only. */
static int parse_id(const char *s, uint64_t max, uint32_t *ret)
{
	uint64_t v = 0;

	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return -EINVAL;
		v = v * 10 + (uint64_t)(*s - '0');
		if (v > max)
			return -ERANGE;
	}
	*ret = (uint32_t)v;
	return 0;
}

/* A user or group name to its id; -ENOENT when there is none. */
static int lookup_name(enum ltt_tracker_type type, const char *name, uint32_t *ret)
{
	long size = sysconf(_SC_GETPW_R_SIZE_MAX);
	struct passwd pw, *pwp = NULL;
	struct group gr, *grp = NULL;
	char *buf;
	int err;

	if (sysconf(_SC_GETGR_R_SIZE_MAX) > size)
		size = sysconf(_SC_GETGR_R_SIZE_MAX);
	if (size < 16384)
		size = 16384;
	buf = malloc((size_t)size);
	if (!buf)
		return -ENOMEM;
	if (is_user(type)) {
		err = getpwnam_r(name, &pw, buf, (size_t)size, &pwp);
		if (!err && pwp)
			*ret = (uint32_t)pw.pw_uid;
	} else {
		err = getgrnam_r(name, &gr, buf, (size_t)size, &grp);
		if (!err && grp)
			*ret = (uint32_t)gr.gr_gid;
	}
	free(buf);
	if (err == ENOMEM || err == ERANGE)
		return -ENOMEM;
	return pwp || grp ? 0 : -ENOENT;
}

/* One value to an id: a pid, a uid or gid, or a user or group name. */
static enum ltt_error_code resolve(enum ltt_tracker_type type, const char *value, uint32_t *ret)
{
	/* ids: pid_t's range; uid_t and gid_t but -1, which means "none" */
	uint64_t max = is_pid(type) ? INT32_MAX : UINT32_MAX - 1;
	int err = parse_id(value, max, ret);

	if (err != -EINVAL || is_pid(type) || !*value || *value == '-' ||
	    (*value >= '0' && *value <= '9'))
		return err ? LTT_ERR_TRACKER_VALUE : LTT_ERR_OK;
	err = lookup_name(type, value, ret);
	if (err == -ENOENT)
		LTT_INFO("tracker: no %s named '%s'", is_user(type) ? "user" : "group",
			 value);
	return err == -ENOENT ? LTT_ERR_TRACKER_NAME : ltt_cmd_error(err);
}

/* The values of a TRACK or UNTRACK request as ids; *ret_ids: free() it. */
static enum ltt_error_code get_ids(struct ltt_rbuf *req, enum ltt_tracker_type type,
				   uint32_t **ret_ids, uint32_t *ret_nr)
{
	uint32_t nr = ltt_rbuf_get_u32(req), i;
	enum ltt_error_code ret = LTT_ERR_OK;
	const char **values;
	uint32_t *ids;

	if (nr > LTT_TRACKER_MAX_IDS)
		return LTT_ERR_TRACKER_LIMIT;
	values = calloc(nr ? nr : 1, sizeof(*values));
	ids = calloc(nr ? nr : 1, sizeof(*ids));
	if (!values || !ids) {
		ret = LTT_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < nr; i++)
		values[i] = ltt_rbuf_get_str(req, VALUE_MAX);
	if (ltt_rbuf_end(req)) {
		ret = LTT_ERR_PROTOCOL;
		goto out;
	}
	if (!nr || (unsigned int)type >= LTT_TRACKER_NR)
		ret = nr ? LTT_ERR_INVAL : LTT_ERR_TRACKER_VALUE;
	for (i = 0; i < nr && !ret; i++)
		ret = resolve(type, values[i], &ids[i]);
out:
	free(values);
	if (ret) {
		free(ids);
		return ret;
	}
	*ret_ids = ids;
	*ret_nr = nr;
	return LTT_ERR_OK;
}

/* A tracker replaced, to put back if the domain can't follow. */
struct tracker_undo {
	struct ltt_tracker *slot;
	struct ltt_tracker old;
	struct ltt_tracker new;
};

static void undo_tracker(void *arg)
{
	struct tracker_undo *u = arg;

	u->new = *u->slot;
	*u->slot = u->old;
	u->old = (struct ltt_tracker){ .policy = LTT_TRACKER_ALL };
}

/*
 * Replace @session's tracker @type by @n (taken) and have the domain
 * follow; on failure the tracker is as it was.  Session lock held.
 */
static enum ltt_error_code replace(struct target *t, struct ltt_session *session,
				   struct ltt_tracker *n, struct ltt_domain_settle *settle)
{
	struct ltt_session_domain *dom = ltt_session_domain(session, t->domain);
	struct tracker_undo u = { .slot = &dom->trackers.t[t->type] };
	enum ltt_error_code ret;

	u.old = *u.slot;
	u.new = (struct ltt_tracker){ .policy = LTT_TRACKER_ALL };
	*u.slot = *n;
	ret = ltt_cmd_update(t->d, session, settle, undo_tracker, &u);
	ltt_tracker_fini(&u.old);	/* the one that lost: the old, or the new undone */
	ltt_tracker_fini(&u.new);
	if (!ret)
		LTT_INFO("session '%s': %s %s tracker changed", session->name,
			 ltt_domain_name(t->domain), ltt_tracker_type_name(t->type));
	return ret;
}

/*
 * May @session record the programs of each of the @nr user @ids
 * (ltt_session_reaches())?  A member's session tracking another user
 * would record nothing of theirs: refused, naming the daemon's setting.
 */
static bool reaches(const struct ltt_session *session, const uint32_t *ids, uint32_t nr)
{
	uint32_t i;

	for (i = 0; i < nr; i++)
		if (!ltt_session_reaches(session, (uid_t)ids[i]))
			return false;
	return true;
}

/* TRACK (@add 1) or UNTRACK (@add 0) of ids or names (ltt_cmd_tracker_edit(): cmd.h). */
enum ltt_error_code ltt_cmd_tracker_edit(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					 unsigned int add, struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_session *session;
	struct ltt_tracker n;
	struct target t;
	uint32_t *ids = NULL, nr = 0, i;
	bool *changed = NULL;
	enum ltt_error_code ret;
	int err;

	get_target(req, &t, true);
	ret = get_ids(req, t.type, &ids, &nr);
	if (ret == LTT_ERR_PROTOCOL)
		return ret;
	if (!ret || ret == LTT_ERR_TRACKER_VALUE || ret == LTT_ERR_TRACKER_NAME)
		ret = target_domain(ctx, &t, true) ?: ret;	/* the domain's reason first */
	changed = ret ? NULL : calloc(nr, sizeof(*changed));
	if (!ret && !changed)
		ret = LTT_ERR_NOMEM;
	if (ret)
		goto out_free;
	ret = ltt_cmd_change_begin(ctx, t.session, &ch);
	if (ret)
		goto out_free;
	session = ch.session;
	if (add && t.domain == LTT_DOMAIN_USER && is_user(t.type) && !reaches(session, ids, nr))
		err = -EACCES;
	else
		err = ltt_tracker_edit(&ltt_session_domain(session, t.domain)->trackers.t[t.type],
				       add != 0, ids, nr, &n, changed);
	if (err == -EACCES)
		ret = LTT_ERR_TRACKER_REACH;
	else if (err == -EPERM)
		ret = LTT_ERR_TRACKER_POLICY;
	else if (err == -ENOSPC)
		ret = LTT_ERR_TRACKER_LIMIT;
	else if (err)
		ret = ltt_cmd_error(err);
	else
		ret = replace(&t, session, &n, &ch.settle);
	ltt_cmd_change_end(ctx, &ch, "tracker change");
	if (!ret) {
		ltt_wbuf_put_u32(reply, nr);
		for (i = 0; i < nr; i++)
			ltt_wbuf_put_u8(reply, changed[i]);
	}
out_free:
	free(changed);
	free(ids);
	return ret;
}

enum ltt_error_code ltt_cmd_tracker_policy(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   struct ltt_wbuf *reply)
{
	struct ltt_cmd_change ch;
	struct ltt_session *session;
	struct ltt_tracker n;
	struct target t;
	uint32_t policy;
	enum ltt_error_code ret;

	(void)reply;
	get_target(req, &t, true);
	policy = ltt_rbuf_get_u32(req);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = target_domain(ctx, &t, true);
	if (ret)
		return ret;
	if (policy != LTT_TRACKER_ALL && policy != LTT_TRACKER_NONE)
		return LTT_ERR_INVAL;
	ret = ltt_cmd_change_begin(ctx, t.session, &ch);
	if (ret)
		return ret;
	session = ch.session;
	n = (struct ltt_tracker){ .policy = (enum ltt_tracker_policy)policy };
	ret = replace(&t, session, &n, &ch.settle);
	ltt_cmd_change_end(ctx, &ch, "tracker change");
	return ret;
}

/* @type's trackers in @session, as LIST_TRACKERS answers; session lock held. */
static void put_trackers(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			 enum ltt_domain type, struct ltt_wbuf *reply)
{
	const struct ltt_session_domain *dom = ltt_session_domain(session, type);
	const struct ltt_tracker *tr;
	struct ltt_domain_impl *d;
	uint32_t i, k;

	if (ltt_cmd_domain(ctx, type, &d))
		return;	/* not served: never asked (target_domain()) */
	ltt_wbuf_put_u32(reply, nr_types(d));
	for (i = 0; i < nr_types(d); i++) {
		tr = &dom->trackers.t[i];
		ltt_wbuf_put_u32(reply, i);
		ltt_wbuf_put_u32(reply, (uint32_t)tr->policy);
		ltt_wbuf_put_u32(reply, tr->policy == LTT_TRACKER_SET ? tr->nr : 0);
		for (k = 0; tr->policy == LTT_TRACKER_SET && k < tr->nr; k++)
			ltt_wbuf_put_u32(reply, tr->ids[k]);
	}
}

void ltt_cmd_trackers_put_user(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			       struct ltt_wbuf *reply)
{
	put_trackers(ctx, session, LTT_DOMAIN_USER, reply);
}

void ltt_cmd_trackers_put_kernel(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
				 struct ltt_wbuf *reply)
{
	put_trackers(ctx, session, LTT_DOMAIN_KERNEL, reply);
}

enum ltt_error_code ltt_cmd_trackers_target(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    const char **ret_name, enum ltt_cmd_view *ret_kind)
{
	struct target t;
	enum ltt_error_code ret;

	get_target(req, &t, false);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = target_domain(ctx, &t, false);
	if (ret)
		return ret;
	*ret_name = t.session;
	*ret_kind = t.domain == LTT_DOMAIN_KERNEL ? LTT_CMD_VIEW_KTRACKERS : LTT_CMD_VIEW_UTRACKERS;
	return LTT_ERR_OK;
}
