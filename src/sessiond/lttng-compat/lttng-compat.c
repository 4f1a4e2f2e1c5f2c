// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat.c - LTTng 2.13's client commands on ltt's (lttng-compat.h):
 * the table of LTTng's commands and the sessions
 * (create, list, start, stop, data pending, destroy).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/log.h"
#include "common/base/sock.h"
#include "common/base/paths.h"
#include "common/model/uri.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-health.h"
#include "common/proto/lttng-trigger-proto.h"
#include "sessiond/lust/lust.h"
#include "sessiond/chunk/chunk-owner.h"
#include "lib/ltt-ctl/ctl-internal.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/priv/priv.h"

/* ---- sessions ---- */

/*
 * ltt's net URL of a relay given by LTTng's two URIs (control, data: an
 * address each, the control one's subdirectory the path).  Returns 0 or
 * -EINVAL.
 */
static int relay_url(const struct ltt_lttng_uri *ctrl, const struct ltt_lttng_uri *data,
		     char *buf, size_t len)
{
	struct ltt_uri u = { .scheme = LTT_URI_NET };

	if ((ctrl->dtype != 1 && ctrl->dtype != 2) || data->dtype != ctrl->dtype ||
	    strcmp(ctrl->dst, data->dst) || strlen(ctrl->dst) >= sizeof(u.host))
		return -EINVAL;
	u.family = ctrl->dtype == 1 ? LTT_URI_INET : LTT_URI_INET6;
	snprintf(u.host, sizeof(u.host), "%s", ctrl->dst);
	snprintf(u.path, sizeof(u.path), "%s", ctrl->subdir);
	u.ctrl_port = ctrl->port;
	u.data_port = data->port;
	return ltt_uri_format(&u, buf, len) ? -EINVAL : 0;
}

/* The descriptor the client sent, and what ltt creates of it. */
struct create {
	struct ltt_lttng_descriptor desc;
	uint64_t live_timer_us;
	struct ltt_lttng_uri *uris;	/* desc.uri_count */
	struct ltt_session_create_req req;
};

/* Read CREATE_SESSION_EXT's variable part: the home, then the descriptor. */
static uint32_t get_create(struct ltt_lttng_call *call, struct create *cr, char *home)
{
	struct ltt_rbuf *r = &call->extra;
	const char *name = "";
	size_t i;

	if (call->req.home_dir_size) {
		ltt_rbuf_get_fixed_str(r, home, call->req.home_dir_size <= LTT_PATH_MAX ?
					      call->req.home_dir_size : 0);
		if (call->req.home_dir_size > LTT_PATH_MAX || home[0] != '/')
			ltt_rbuf_fail(r);
	}
	ltt_lttng_get_descriptor(r, call->gen, &cr->desc);
	if (cr->desc.type == LTT_LTTNG_DESC_LIVE)
		cr->live_timer_us = ltt_rbuf_get_u64(r);
	if (cr->desc.name_len) {
		name = ltt_rbuf_get_bytes(r, cr->desc.name_len);
		if (!name || cr->desc.name_len > LTT_LTTNG_NAME_MAX ||
		    strnlen(name, cr->desc.name_len) != cr->desc.name_len - 1u)
			return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	}
	if (cr->desc.uri_count > 2 || cr->desc.type < LTT_LTTNG_DESC_REGULAR ||
	    cr->desc.type > LTT_LTTNG_DESC_LIVE || cr->desc.output_type > LTT_LTTNG_DESC_OUT_NETWORK)
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	if (cr->desc.trace_format > LTT_TRACE_FORMAT_CTF_2)
		return LTT_LTTNG_ERR_UNSUPPORTED_TRACE_FORMAT;
	/*
	 * LTTng's numbers are ltt's: the default, CTF 1.8, CTF 2.  The default
	 * of LTTng 2.15 and later is CTF 2: theirs is, unless the daemon's
	 * was chosen (--default-trace-format, LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT).
	 */
	cr->req.conf.trace_format = cr->desc.trace_format;
	if (cr->desc.trace_format == LTT_TRACE_FORMAT_DEFAULT && call->gen >= LTT_LTTNG_GEN_2_15 &&
	    !call->ctx->registry->trace_format_chosen)
		cr->req.conf.trace_format = LTT_TRACE_FORMAT_CTF_2;
	cr->uris = calloc(cr->desc.uri_count ? cr->desc.uri_count : 1, sizeof(*cr->uris));
	if (!cr->uris)
		return LTT_LTTNG_ERR_NOMEM;
	for (i = 0; i < cr->desc.uri_count; i++)
		ltt_lttng_get_uri(r, &cr->uris[i]);
	if (ltt_rbuf_end(r))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	snprintf(cr->req.conf.name, sizeof(cr->req.conf.name), "%s", name);
	cr->req.home = home;
	return LTT_LTTNG_OK;
}

/* The output of @cr as ltt's session attributes. */
static uint32_t create_output(struct ltt_lttng_call *call, struct create *cr)
{
	struct ltt_session_conf *conf = &cr->req.conf;
	conf->snapshot = cr->desc.type == LTT_LTTNG_DESC_SNAPSHOT;
	if (cr->live_timer_us > UINT32_MAX)
		return LTT_LTTNG_ERR_INVALID;
	conf->live_timer_us = (uint32_t)cr->live_timer_us;
	switch (cr->desc.output_type) {
	case LTT_LTTNG_DESC_OUT_NONE:
		conf->output_type = LTT_OUTPUT_NONE;
		return cr->desc.uri_count ? LTT_LTTNG_ERR_INVALID_PROTOCOL : LTT_LTTNG_OK;
	case LTT_LTTNG_DESC_OUT_LOCAL:
		conf->output_type = LTT_OUTPUT_LOCAL;
		if (!cr->desc.uri_count)
			return LTT_LTTNG_OK;	/* LTTng's default, the client's home's lttng-traces */
		if (cr->desc.uri_count != 1 || cr->uris[0].dtype != LTT_LTTNG_URI_DST_PATH)
			return LTT_LTTNG_ERR_INVALID_PROTOCOL;
		snprintf(conf->output, sizeof(conf->output), "%s", cr->uris[0].dst);
		return LTT_LTTNG_OK;
	default:
		break;
	}
	conf->output_type = LTT_OUTPUT_NET;
	if (!cr->desc.uri_count) {
		/* the daemon's default relay, as LTTng's: this host's */
		snprintf(conf->output, sizeof(conf->output), "net://127.0.0.1");
		return LTT_LTTNG_OK;
	}
	if (cr->desc.uri_count != 2 ||
	    relay_url(&cr->uris[0], &cr->uris[1], conf->output, sizeof(conf->output)))
		return ltt_lttng_refuse(call, "this network output (a relay's control and data at different hosts)",
					"lttctl create --set-url");
	return LTT_LTTNG_OK;
}

/*
 * LTTng's URIs of the output ltt chose: a local directory, or a relay's
 * control and data ports (IPv4 or IPv6 address, or a host name as LTTng
 * keeps one).  Returns how many (0 for none), into @uris[2].
 */
static uint8_t output_uris(const struct ltt_session_desc *info, struct ltt_lttng_uri *uris)
{
	struct ltt_uri u;
	int i;

	if (info->output_type == LTT_OUTPUT_LOCAL) {
		uris[0].dtype = LTT_LTTNG_URI_DST_PATH;
		snprintf(uris[0].dst, sizeof(uris[0].dst), "%s", info->output);
		return 1;
	}
	if (info->output_type != LTT_OUTPUT_NET || ltt_uri_parse(info->output, &u))
		return 0;
	for (i = 0; i < 2; i++) {
		uris[i].dtype = u.family == LTT_URI_INET6 ? 2 : 1;
		uris[i].stype = (uint32_t)i;	/* control, data */
		uris[i].proto = 1;		/* TCP */
		uris[i].port = i ? u.data_port : u.ctrl_port;
		snprintf(uris[i].dst, sizeof(uris[i].dst), "%s", u.host);
		snprintf(uris[i].subdir, sizeof(uris[i].subdir), "%s", u.path);
	}
	return 2;
}

/* The descriptor of the session created: the client's, named, its output resolved. */
static void put_created(struct ltt_wbuf *w, enum ltt_lttng_gen gen, const struct create *cr,
			const struct ltt_session_desc *info)
{
	struct ltt_lttng_descriptor d = cr->desc;
	struct ltt_lttng_uri *uris = calloc(2, sizeof(*uris));
	uint8_t i;

	if (!uris) {
		w->err = -ENOMEM;
		return;
	}
	d.name_len = (uint32_t)strlen(info->name) + 1;
	d.uri_count = output_uris(info, uris);
	ltt_lttng_put_descriptor(w, gen, &d);
	if (d.type == LTT_LTTNG_DESC_LIVE)
		ltt_wbuf_put_u64(w, cr->live_timer_us);
	ltt_wbuf_put_bytes(w, info->name, d.name_len);
	for (i = 0; i < d.uri_count; i++)
		ltt_lttng_put_uri(w, &uris[i]);
	free(uris);
}

static uint32_t create_session(struct ltt_lttng_call *call)
{
	struct ltt_session_desc *info = NULL;
	struct create *cr = calloc(1, sizeof(*cr));
	char *home = calloc(1, LTT_PATH_MAX);
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	uint32_t ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ret = cr && home ? get_create(call, cr, home) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK)
		ret = create_output(call, cr);
	if (ret != LTT_LTTNG_OK)
		goto out;
	ltt_proto_put_session_create(&w, &cr->req, call->ctx->minor);
	ret = ltt_lttng_code(call, ltt_lttng_ltt(call, LTT_CLIENT_CMD_CREATE_SESSION, &w, &reply));
	if (ret != LTT_LTTNG_OK)
		goto out;
	info = malloc(sizeof(*info));
	if (!info) {
		ret = LTT_LTTNG_ERR_NOMEM;
		goto out;
	}
	ltt_rbuf_init(&r, reply.data, reply.len);
	ltt_proto_get_session_info(&r, info, call->ctx->minor);
	if (ltt_rbuf_end(&r))
		ret = LTT_LTTNG_ERR_FATAL;
	else
		put_created(&call->data, call->gen, cr, info);
out:
	free(info);
	if (cr)
		free(cr->uris);
	free(cr);
	free(home);
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ret;
}

/* What LTTng's list shows as a session's destination. */
static void session_path(const struct ltt_session_desc *s, char *buf, size_t len)
{
	if (s->output_type == LTT_OUTPUT_NONE)
		buf[0] = '\0';
	else
		ltt_uri_lttng_path(s->output, buf, len);
}

/*
 * The directory of session @name's user-space buffer files into @buf
 * ("" without one, or once the session is gone): 2.16's list says it, and
 * its `lttng start` measures that file system against the buffers.
 */
static void shm_dir(struct ltt_lttng_call *call, const struct ltt_session_desc *s, char *buf,
		    size_t len)
{
	char owned[LTT_NAME_MAX + 16];
	struct ltt_session *session;

	buf[0] = '\0';
	/* by its owner's name for it: root lists every user's, whose names may be alike */
	snprintf(owned, sizeof(owned), "%u/%s", (unsigned int)s->uid, s->name);
	if (ltt_session_find(call->ctx->registry, owned, call->ctx->cred.uid, &session))
		return;
	/* list's read (cmd-view.c): the state lock, never behind a slow change's wait */
	ltt_session_lock_state(session);
	if (ltt_session_shm_dir(session, buf, len))
		buf[0] = '\0';
	ltt_session_unlock_state(session);
	ltt_session_put(call->ctx->registry, session);
}

static uint32_t list_sessions(struct ltt_lttng_call *call)
{
	struct ltt_lttng_session *ls = calloc(1, sizeof(*ls));
	struct ltt_session_desc *s = calloc(1, sizeof(*s));
	struct ltt_lttng_session_ext *ext = NULL;
	struct ltt_wbuf reply;
	enum ltt_error_code err;
	struct ltt_rbuf r;
	uint32_t i, k = 0, n = 0;
	uint32_t ret;

	ltt_wbuf_init(&reply);
	err = ls && s ? ltt_lttng_ltt(call, LTT_CLIENT_CMD_LIST_SESSIONS, NULL, &reply) :
			LTT_ERR_NOMEM;
	ret = ltt_lttng_code(call, err);
	if (ret != LTT_LTTNG_OK)
		goto out;
	ltt_rbuf_init(&r, reply.data, reply.len);
	n = ltt_rbuf_get_u32(&r);
	ext = calloc(n && !r.err && n <= reply.len ? n : 1, sizeof(*ext));
	if (!ext || r.err || n > reply.len) {
		ret = ext ? LTT_LTTNG_ERR_FATAL : LTT_LTTNG_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_session_info(&r, s, call->ctx->minor);
		memset(ls, 0, sizeof(*ls));
		if (strlen(s->name) >= sizeof(ls->name)) {
			/* ltt's names have a byte more than LTTng's */
			LTT_WARN_RL("LTTng client pid %d: session '%s' has a name longer than LTTng's %d bytes: not listed to LTTng's clients",
				    (int)call->ctx->cred.pid, s->name, LTT_LTTNG_NAME_MAX - 1);
			continue;
		}
		memcpy(ls->name, s->name, strlen(s->name) + 1);
		session_path(s, ls->path, sizeof(ls->path));
		ls->enabled = s->active;
		ls->snapshot_mode = s->snapshot;
		ls->live_timer_us = s->live_timer_us;
		ltt_lttng_put_session(&call->data, ls);
		ext[k].creation_time = (uint64_t)s->creation_time;
		ext[k].trace_format = s->trace_format == LTT_TRACE_FORMAT_CTF_2 ? 2 : 1;
		if (call->gen == LTT_LTTNG_GEN_2_16)
			shm_dir(call, s, ext[k].shm_path, sizeof(ext[k].shm_path));
		ext[k++].is_set = 1;
	}
	for (i = 0; i < k; i++)
		ltt_lttng_put_session_ext(&call->data, call->gen, &ext[i]);
	if (ltt_rbuf_end(&r))
		ret = LTT_LTTNG_ERR_FATAL;
out:
	free(ls);
	free(s);
	free(ext);
	ltt_wbuf_fini(&reply);
	return ret;
}

static uint32_t start_trace(struct ltt_lttng_call *call)
{
	enum ltt_error_code err =
		ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_START_SESSION, 0, 0, NULL);

	if (err == LTT_ERR_SESSION_ACTIVE)
		return LTT_LTTNG_ERR_TRACE_ALREADY_STARTED;
	return ltt_lttng_code(call, err);
}

/* Stopped with the data written: DATA_PENDING answers 0 at once after it. */
static uint32_t stop_trace(struct ltt_lttng_call *call)
{
	return ltt_lttng_code(call,
			      ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_STOP_SESSION, 1, 1, NULL));
}

static uint32_t data_pending(struct ltt_lttng_call *call)
{
	struct ltt_wbuf reply;
	enum ltt_error_code err;
	struct ltt_rbuf r;
	uint8_t pending;

	ltt_wbuf_init(&reply);
	err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_DATA_PENDING, 0, 0, &reply);
	if (err == LTT_ERR_SESSION_ACTIVE) {
		ltt_wbuf_fini(&reply);
		return LTT_LTTNG_ERR_SESSION_STARTED;	/* as LTTng, for an active session */
	}
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		pending = (uint8_t)ltt_rbuf_get_bool(&r);
		err = ltt_rbuf_end(&r) ? LTT_ERR_PROTOCOL : LTT_ERR_OK;
		if (!err)
			ltt_wbuf_put_u8(&call->data, pending);
	}
	ltt_wbuf_fini(&reply);
	return ltt_lttng_code(call, err);
}

/* Destroyed, no rotation to report: the command header {i32 rotation_state 0}. */
static uint32_t destroy_session(struct ltt_lttng_call *call)
{
	uint32_t ret;

	ret = ltt_lttng_code(call, ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_DESTROY_SESSION, 0, 0,
							 NULL));
	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_u32(&call->hdr, 0);
	return ret;
}

/*
 * SET_SESSION_SHM_PATH, which `lttng create --shm-path DIR` sends right
 * after CREATE_SESSION_EXT with DIR/NAME-DATE (its own naming, kept as
 * it is): the session's user-space buffers become files there
 * (ust/ust-shm.h).  As LTTng, refused once the session has recorded.
 */
static uint32_t set_shm_path(struct ltt_lttng_call *call)
{
	const char *path = call->req.shm_path;
	struct ltt_session *session;
	uint32_t ret = LTT_LTTNG_OK;

	if (path[0] != '/' || strlen(path) >= sizeof(session->shm_path))
		return LTT_LTTNG_ERR_INVALID;
	if (ltt_session_find(call->ctx->registry, call->req.session, call->ctx->cred.uid, &session))
		return LTT_LTTNG_ERR_SESS_NOT_FOUND;
	ltt_session_lock(session);
	if (session->active || ltt_session_domain(session, LTT_DOMAIN_USER)->state ||
	    session->shm_path[0]) {
		ret = LTT_LTTNG_ERR_SESSION_STARTED;
	} else if (ltt_chunk_owner_set_shm(call->ctx->client_fd, session->id, path)) {
		LTT_WARN("session '%s': the privileged part did not take its shared memory path %s: refused",
			 session->name, path);
		ret = LTT_LTTNG_ERR_EPERM;	/* it makes the files: it must know the path */
	} else {
		strcpy(session->shm_path, path);
		session->shm_path_whole = true;
	}
	ltt_session_unlock(session);
	ltt_session_put(call->ctx->registry, session);
	return ret;
}

/* LTTng's codes of SAVE_SESSION (lttng/lttng-error.h). */
#define ERR_SAVE_FILE_EXIST 85
#define ERR_SAVE_IO_FAIL 86
/* How long a root client's save waits for the privileged part's: its end and a second. */
#define SAVE_TIMEOUT_MS (LTT_PRIV_SAVE_MS + 1000)

/*
 * A root client's save in a root daemon that gave root's rights up: its
 * privileged part saves (ltt_priv_save_lttng()); wait for the result.
 * Returns ltt_lib_save_lttng()'s, -EPERM (not for this client), or
 * -LTT_ERR_CONFIG_IO when the privileged part's save did not answer.
 */
static int save_as_root(struct ltt_lttng_call *call, const char *session, const char *dir,
			bool force, size_t *ret_count, char *err, size_t errlen)
{
	struct ltt_priv_save_result res;
	struct pollfd p = { .events = POLLIN };
	ssize_t n = -1;
	int ret;

	ret = ltt_priv_save_lttng(call->ctx->client_fd, session, dir, force, &p.fd);
	if (ret > 0 || ret == -EPERM || ret == -EACCES)
		return ret > 0 ? -EPERM : ret;
	if (ret) {
		snprintf(err, errlen, "the privileged part: %s", strerror(-ret));
		return -LTT_ERR_CONFIG_IO;
	}
	do
		ret = poll(&p, 1, SAVE_TIMEOUT_MS);
	while (ret < 0 && errno == EINTR);
	if (ret > 0)
		n = read(p.fd, &res, sizeof(res));
	close(p.fd);
	if (n != (ssize_t)sizeof(res)) {
		snprintf(err, errlen, "the privileged part's save %s within %d s",
			 ret > 0 ? "ended without a result (killed, or it failed)" :
				   "did not end", LTT_PRIV_SAVE_MS / 1000);
		return -LTT_ERR_CONFIG_IO;
	}
	*ret_count = res.count;
	res.err[sizeof(res.err) - 1] = '\0';
	snprintf(err, errlen, "%s", res.err);
	return res.ret;
}

/*
 * SAVE_SESSION (`lttng save`): the session, or every one of the
 * client's, written in LTTng 2.13's format to DIR/NAME.lttng, DIR the
 * client's path or the default one, as LTTng's daemon writes them.  The
 * saving is libltt-ctl's (lttctl save's) through the daemon's own client
 * socket, as the daemon's user: it serves that user's clients only; a
 * root daemon that gave root's rights up has its privileged part do it
 * for root's clients (ltt_priv_save_lttng(): root's sessions, root's
 * files).
 */
static uint32_t save_session(struct ltt_lttng_call *call)
{
	const struct ltt_lttng_req *q = &call->req;
	char err[LTT_LIB_DETAIL_MAX];
	size_t n = 0;
	int ret;

	if (q->save_omit_name || q->save_omit_output)
		return ltt_lttng_refuse(call, "saving without a name or an output", "lttctl save");
	if (call->ctx->cred.uid == 0 && ltt_priv_daemon_uid() == 0 && geteuid() != 0) {
		ret = save_as_root(call, q->save_name[0] ? q->save_name : NULL,
				   q->save_url[0] ? q->save_url : NULL, q->save_overwrite != 0, &n,
				   err, sizeof(err));
		if (ret == -EPERM)
			return ltt_lttng_refuse(call, "saving another user's sessions",
						"lttctl save, as that user");
		if (ret == -EACCES)
			return ltt_lttng_refuse(call,
						"root's saves to a directory of the client's (-o) once the root daemon gave root's rights up",
						"lttng save without -o (root's .lttng/sessions), or lttctl save -o DIR");
	} else if (call->ctx->cred.uid != geteuid() || !call->ctx->rundir) {
		return ltt_lttng_refuse(call, "saving another user's sessions",
					"lttctl save, as that user");
	} else {
		ret = ltt_lib_save_lttng(call->ctx->rundir, q->save_name[0] ? q->save_name : NULL,
					 q->save_url[0] ? q->save_url : NULL, q->save_overwrite != 0,
					 &n, err, sizeof(err));
	}
	if (ret)
		LTT_WARN_RL("LTTng client pid %d: SAVE_SESSION: %s%s%s (%zu saved)",
			    (int)call->ctx->cred.pid, err, *err ? ": " : "", ltt_strerror(ret), n);
	switch (ret) {
	case 0:
		return LTT_LTTNG_OK;
	case -LTT_ERR_CONFIG_EXISTS:
		return ERR_SAVE_FILE_EXIST;
	case -LTT_ERR_CONFIG_IO:
	case -LTT_ERR_CONFIG_MODULE:
	case -LTT_ERR_CONFIG_LTTNG_FORMAT:
		return ERR_SAVE_IO_FAIL;
	default:
		return ltt_lttng_code(call, (enum ltt_error_code)-ret);
	}
}

/* ---- the table ---- */

/* What serves each command: a handler, or what to use instead. */
struct lttng_entry {
	ltt_lttng_fn fn;
	const char *instead;
};

static const struct lttng_entry entries[LTT_LTTNG_CMD_NR_] = {
	[LTT_LTTNG_CMD_CREATE_SESSION_EXT] = { create_session, NULL },
	[LTT_LTTNG_CMD_LIST_SESSIONS] = { list_sessions, NULL },
	[LTT_LTTNG_CMD_START_TRACE] = { start_trace, NULL },
	[LTT_LTTNG_CMD_STOP_TRACE] = { stop_trace, NULL },
	[LTT_LTTNG_CMD_DATA_PENDING] = { data_pending, NULL },
	[LTT_LTTNG_CMD_DESTROY_SESSION] = { destroy_session, NULL },
	[LTT_LTTNG_CMD_ENABLE_CHANNEL] = { ltt_lttng_enable_channel, NULL },
	[LTT_LTTNG_CMD_ENABLE_EVENT] = { ltt_lttng_enable_event, NULL },
	[LTT_LTTNG_CMD_ADD_CONTEXT] = { ltt_lttng_add_context, NULL },
	[LTT_LTTNG_CMD_LIST_DOMAINS] = { ltt_lttng_list_domains, NULL },
	[LTT_LTTNG_CMD_LIST_CHANNELS] = { ltt_lttng_list_channels, NULL },
	[LTT_LTTNG_CMD_LIST_EVENTS] = { ltt_lttng_list_events, NULL },
	[LTT_LTTNG_CMD_SESSION_LIST_ROTATION_SCHEDULES] = { ltt_lttng_list_rotation_schedules, NULL },
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_POLICY] = { ltt_lttng_tracker_policy, NULL },
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_GET_INCLUSION_SET] = { ltt_lttng_tracker_values, NULL },
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_SET_POLICY] = { ltt_lttng_tracker_set_policy, NULL },
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_ADD_INCLUDE_VALUE] = { ltt_lttng_tracker_add, NULL },
	[LTT_LTTNG_CMD_PROCESS_ATTR_TRACKER_REMOVE_INCLUDE_VALUE] = { ltt_lttng_tracker_remove, NULL },
	[LTT_LTTNG_CMD_DISABLE_CHANNEL] = { ltt_lttng_disable_channel, NULL },
	[LTT_LTTNG_CMD_DISABLE_EVENT] = { ltt_lttng_disable_event, NULL },
	[LTT_LTTNG_CMD_LIST_SYSCALLS] = { ltt_lttng_list_syscalls, NULL },
	[LTT_LTTNG_CMD_LIST_TRACEPOINTS] = { ltt_lttng_list_tracepoints, NULL },
	[LTT_LTTNG_CMD_LIST_TRACEPOINT_FIELDS] = { ltt_lttng_list_tracepoint_fields, NULL },
	[LTT_LTTNG_CMD_SNAPSHOT_ADD_OUTPUT] = { ltt_lttng_snapshot_add_output, NULL },
	[LTT_LTTNG_CMD_SNAPSHOT_DEL_OUTPUT] = { ltt_lttng_snapshot_del_output, NULL },
	[LTT_LTTNG_CMD_SNAPSHOT_LIST_OUTPUT] = { ltt_lttng_snapshot_list_output, NULL },
	[LTT_LTTNG_CMD_SNAPSHOT_RECORD] = { ltt_lttng_snapshot_record, NULL },
	[LTT_LTTNG_CMD_SAVE_SESSION] = { save_session, NULL },
	[LTT_LTTNG_CMD_SET_SESSION_SHM_PATH] = { set_shm_path, NULL },
	[LTT_LTTNG_CMD_ROTATE_SESSION] = { ltt_lttng_rotate_session, NULL },
	[LTT_LTTNG_CMD_ROTATION_GET_INFO] = { ltt_lttng_rotation_get_info, NULL },
	[LTT_LTTNG_CMD_ROTATION_SET_SCHEDULE] = { ltt_lttng_rotation_set_schedule, NULL },
	[LTT_LTTNG_CMD_CLEAR_SESSION] = { ltt_lttng_clear_session, NULL },
	[LTT_LTTNG_CMD_REGENERATE_METADATA] = { ltt_lttng_regenerate_metadata, NULL },
	[LTT_LTTNG_CMD_REGENERATE_STATEDUMP] = { ltt_lttng_regenerate_statedump, NULL },
	[LTT_LTTNG_CMD_REGISTER_TRIGGER] = { ltt_lttng_trigger_cmd, NULL },
	[LTT_LTTNG_CMD_UNREGISTER_TRIGGER] = { ltt_lttng_trigger_cmd, NULL },
	[LTT_LTTNG_CMD_LIST_TRIGGERS] = { ltt_lttng_trigger_cmd, NULL },
	[LTT_LTTNG_CMD_EXECUTE_ERROR_QUERY] = { ltt_lttng_trigger_cmd, NULL },
};

/* The rest: what LTTng's own tools do with them. */
static const char *instead(uint32_t cmd)
{
	if (cmd < LTT_LTTNG_CMD_NR_ && entries[cmd].instead)
		return entries[cmd].instead;
	return "lttctl";
}

/*
 * The byte LTTng's client sends its descriptors on, after the request
 * (one sendmsg for all of them): 1 when @req passes any.  Read before
 * the reply: a client still sending them to a closed connection would
 * die of SIGPIPE.
 */
static size_t fds_byte(const struct ltt_lttng_req *req)
{
	return req->fd_count ? 1 : 0;
}

/* How many descriptors @call's command may pass (a user-space probe's binary's); 0: none. */
static uint32_t fds_allowed(const struct ltt_lttng_call *call)
{
	switch (call->req.cmd) {
	case LTT_LTTNG_CMD_ENABLE_EVENT:
	case LTT_LTTNG_CMD_DISABLE_EVENT:
		return call->gen == LTT_LTTNG_GEN_2_16 ? 2 :
		       call->req.cmd == LTT_LTTNG_CMD_ENABLE_EVENT ? 1 : 0;
	case LTT_LTTNG_CMD_REGISTER_TRIGGER:
	case LTT_LTTNG_CMD_UNREGISTER_TRIGGER:
	case LTT_LTTNG_CMD_EXECUTE_ERROR_QUERY:
		return 1;
	default:
		return 0;
	}
}

/* Serve @call: its LTTng return code, its command header and payload filled. */
static uint32_t serve(struct ltt_lttng_call *call, const uint8_t *msg, size_t len)
{
	size_t extra;
	int err;

	if (len < LTT_LTTNG_MSG_SIZE)
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	err = ltt_lttng_get_req(msg, call->gen, &call->req);
	if (call->gen == LTT_LTTNG_GEN_UNKNOWN) {
		/* 2.16's numbers mean other commands of 2.13's: none is guessed */
		LTT_WARN_RL("LTTng client pid %d: the daemon could not tell which LTTng's liblttng-ctl it runs (its /proc entry unreadable, or no pid: a client through a proxy), so nothing it asks is run: run it on this host, or use lttctl",
			    (int)call->ctx->cred.pid);
		return LTT_LTTNG_ERR_NOT_SUPPORTED;
	}
	if (err == -EPROTONOSUPPORT) {
		LTT_WARN_RL("LTTng client pid %d runs LTTng %s's liblttng-ctl: ltt-sessiond --lttng-compat speaks the client protocols of LTTng 2.13 and 2.16 (2.14 and 2.15 numbered the commands otherwise): use lttng 2.13 or 2.16, or lttctl",
			    (int)call->ctx->cred.pid, ltt_lttng_gen_name(call->gen));
		return LTT_LTTNG_ERR_NOT_SUPPORTED;
	}
	if (err == -ENOSYS && call->gen == LTT_LTTNG_GEN_2_16)
		return ltt_lttng_new_216(call);
	if (err == -ENOSYS) {
		LTT_WARN_RL("LTTng client pid %d sent command %u, which LTTng 2.13 lacks",
			    (int)call->ctx->cred.pid, call->req.wire_cmd);
		return LTT_LTTNG_ERR_UND;
	}
	if (!err && call->gen == LTT_LTTNG_GEN_2_16 && !ltt_lttng_served_216(call->req.cmd)) {
		LTT_WARN_RL("LTTng 2.16 client pid %d: %s is not served yet to LTTng 2.16's clients (its layout is not checked against 2.16's): use lttng 2.13 or lttctl for it",
			    (int)call->ctx->cred.pid, ltt_lttng_cmd_name(call->req.cmd));
		return LTT_LTTNG_ERR_NOT_SUPPORTED;
	}
	if (err || ltt_lttng_req_extra(&call->req, &extra) ||
	    len != LTT_LTTNG_MSG_SIZE + extra + fds_byte(&call->req)) {
		LTT_WARN_RL("LTTng client pid %d: a malformed request (command %u, %zu bytes): refused",
			    (int)call->ctx->cred.pid, call->req.cmd, len);
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	}
	/*
	 * A user-space probe's ENABLE_EVENT passes its binary's descriptor
	 * (SCM_RIGHTS, on the byte after the request): ltt opens the path
	 * itself, with the client's rights (cmd-event.c), so the descriptor is
	 * read past, which closes it.  So do a REGISTER_TRIGGER of a
	 * kernel:uprobe rule (the file opened as the client too: kernel-probe.c),
	 * and the UNREGISTER_TRIGGER and EXECUTE_ERROR_QUERY of one (the trigger
	 * sent back whole, with the descriptor LIST_TRIGGERS passed).  No other
	 * request of 2.13's passes one.  2.16's ENABLE_EVENT and DISABLE_EVENT
	 * pass two, the same binary's (the event's location, then its rule's),
	 * in the same one sendmsg.
	 */
	if (call->req.fd_count && call->req.fd_count != fds_allowed(call))
		return ltt_lttng_refuse(call, "file descriptors", "lttctl");
	ltt_rbuf_init(&call->extra, msg + LTT_LTTNG_MSG_SIZE, extra);
	if (!entries[call->req.cmd].fn)
		return ltt_lttng_refuse(call, "this command", instead(call->req.cmd));
	return entries[call->req.cmd].fn(call);
}

void ltt_lttng_fds_close(struct ltt_lttng_fds *fds)
{
	while (fds->nr)
		close(fds->fd[--fds->nr]);
}

/* Append the reply of @cmd: its header, then @hdr and @data on success, passing @nr_fds. */
static void put_reply(struct ltt_wbuf *w, enum ltt_lttng_gen gen, uint32_t cmd, uint32_t code,
		      const struct ltt_wbuf *hdr, const struct ltt_wbuf *data, unsigned int nr_fds)
{
	struct ltt_lttng_reply r = { .cmd = cmd, .ret_code = code };
	bool body = code == LTT_LTTNG_OK && hdr && data;

	if (body) {
		r.cmd_header_size = (uint32_t)hdr->len;
		r.data_size = (uint32_t)data->len;
		r.fd_count = nr_fds;
	}
	ltt_lttng_put_reply(w, gen, &r);
	if (!body)
		return;
	if (hdr->len)
		ltt_wbuf_put_bytes(w, hdr->data, hdr->len);
	if (data->len)
		ltt_wbuf_put_bytes(w, data->data, data->len);
}

enum ltt_error_code ltt_lttng_compat_run(const struct ltt_cmd_ctx *ctx, const uint8_t *msg,
					 size_t len, struct ltt_wbuf *reply, struct ltt_lttng_fds *fds)
{
	struct ltt_cmd_ctx lctx = *ctx;
	struct ltt_lttng_call call = { .ctx = &lctx, .gen = (enum ltt_lttng_gen)ctx->lttng_gen };
	uint32_t code;

	lctx.lttng = true;
	ltt_wbuf_init(&call.hdr);
	ltt_wbuf_init(&call.data);
	code = serve(&call, msg, len);
	if (code == LTT_LTTNG_OK && (call.hdr.err || call.data.err))
		code = LTT_LTTNG_ERR_NOMEM;
	if (code != LTT_LTTNG_OK)
		ltt_lttng_fds_close(&call.fds);
	LTT_DBG("LTTng %s client pid %d uid %u: %s (%u) -> %u", ltt_lttng_gen_name(call.gen),
		(int)ctx->cred.pid, (unsigned int)ctx->cred.uid,
		ltt_lttng_cmd_name(call.req.cmd) ?: ltt_lttng_cmd216_name(call.req.wire_cmd) ?: "?",
		call.req.wire_cmd, code);
	put_reply(reply, call.gen, call.req.wire_cmd, code, &call.hdr, &call.data, call.fds.nr);
	ltt_wbuf_fini(&call.hdr);
	ltt_wbuf_fini(&call.data);
	if (reply->err)
		ltt_lttng_fds_close(&call.fds);
	*fds = call.fds;
	return reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}

size_t ltt_lttng_compat_extra(const uint8_t *msg, enum ltt_lttng_gen gen)
{
	struct ltt_lttng_req req;
	size_t extra;

	if (ltt_lttng_get_req(msg, gen, &req) || ltt_lttng_req_extra(&req, &extra))
		return 0;
	return extra + fds_byte(&req);
}

void ltt_lttng_compat_error(const uint8_t *msg, enum ltt_lttng_gen gen, enum ltt_error_code err,
			    struct ltt_wbuf *reply)
{
	struct ltt_lttng_req req = { 0 };

	if (msg)
		(void)ltt_lttng_get_req(msg, gen, &req);
	put_reply(reply, gen, msg ? req.wire_cmd : 0,
		  err == LTT_ERR_NOMEM || err == LTT_ERR_CLIENT_BYTES ? LTT_LTTNG_ERR_NOMEM :
								       LTT_LTTNG_ERR_FATAL,
		  NULL, NULL, 0);
}

/* Write our pid into @dir's lttng-sessiond.pid, where LTTng's tools look. */
static void write_pid(const char *dir)
{
	char path[LTT_PATH_MAX], text[32];
	int fd, n;

	if (ltt_path_join(path, sizeof(path), dir, LTT_LTTNG_PID_FILE))
		return;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		LTT_WARN("--lttng-compat: can't write %s: %s", path, strerror(errno));
		return;
	}
	n = snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	if (write(fd, text, (size_t)n) != n)
		LTT_WARN("--lttng-compat: can't write %s: %s", path, strerror(errno));
	close(fd);
}

int ltt_lttng_compat_socket(char *buf, size_t len)
{
	char dir[LTT_PATH_MAX];
	int ret = ltt_lttng_rundir(dir, sizeof(dir));

	if (!ret)
		ret = ltt_path_join(buf, len, dir, LTT_LTTNG_CLIENT_SOCKET) ? -ENAMETOOLONG : 0;
	return ret;
}

/* Listen on @path as LTTng makes its sockets; 0 or a negative errno, logged. */
static int listen_one(const char *path, bool root, const struct group *gr, int *ret_fd)
{
	int ret;

	/* A daemon that answers there keeps it: LTTng's, or another ltt-sessiond's. */
	ret = ltt_lttng_listen(path, root, gr ? gr->gr_gid : (gid_t)-1, ret_fd);
	if (ret == -EADDRINUSE)
		LTT_ERR("--lttng-compat: a live session daemon (lttng-sessiond, or another ltt-sessiond --lttng-compat) serves %s already; ltt-sessiond never takes it over: stop that daemon, or leave --lttng-compat out",
			path);
	else if (ret)
		LTT_ERR("--lttng-compat: can't listen on %s: %s", path, strerror(-ret));
	return ret;
}

int ltt_lttng_compat_listen(bool root, const struct group *gr, char *path, size_t len,
			    int *ret_fd, int *ret_notif_fd, int *ret_health_fd,
			    int ret_lust_fds[LTT_LUST_SOCKETS])
{
	/*
	 * LTTng's sockets, bound in this order, all or none: its client
	 * socket, notification channel, health socket, and LTTng-UST's
	 * application sockets (one per ABI generation), where programs of
	 * LTTng-UST's own library register (lust.h: seen, refused, listed)
	 */
	static const char *const lust[LTT_LUST_SOCKETS] = LTT_LUST_SOCKET_NAMES;
	enum { LUST = 3, ALL = LUST + LTT_LUST_SOCKETS };
	const char *names[ALL] = { NULL, LTT_LTTNG_NOTIF_SOCKET, LTT_LTTNG_HEALTH_SOCKET };
	char dir[LTT_PATH_MAX], paths[ALL][LTT_PATH_MAX];
	int *fds[ALL] = { ret_fd, ret_notif_fd, ret_health_fd };
	size_t i, n;
	int ret;

	for (i = LUST; i < ALL; i++) {
		names[i] = lust[i - LUST];
		fds[i] = &ret_lust_fds[i - LUST];
	}
	ret = ltt_lttng_rundir(dir, sizeof(dir));
	if (!ret)
		ret = ltt_lttng_compat_socket(paths[0], sizeof(paths[0]));
	for (i = 1; !ret && i < ALL; i++)
		ret = ltt_path_join(paths[i], sizeof(paths[i]), dir, names[i]);
	if (!ret && strlen(paths[0]) >= len)
		ret = -ENAMETOOLONG;
	if (ret) {
		LTT_ERR("--lttng-compat: no place for LTTng's client socket (%s): set LTTNG_HOME or HOME",
			strerror(-ret));
		path[0] = '\0';
		return ret;
	}
	/* as LTTng makes it: root's shared (0755), a user's private (0700) */
	ret = ltt_lttng_make_dir(dir, root ? 0755 : 0700, (gid_t)-1);
	for (n = 0; !ret && n < ALL; n++) {
		ret = listen_one(paths[n], root, gr, fds[n]);
		/* every user's programs register with root's daemon, as with LTTng's */
		if (!ret && root && n >= LUST && chmod(paths[n], 0666)) {
			ret = -errno;
			LTT_ERR("--lttng-compat: can't open %s to every user's programs: %s",
				paths[n], strerror(errno));
		}
	}
	if (ret) {
		/* those bound (n: one past the last tried), not one refused: another daemon's, maybe */
		while (n-- > 0) {
			if (*fds[n] < 0)
				continue;
			close(*fds[n]);
			*fds[n] = -1;
			unlink(paths[n]);
		}
		path[0] = '\0';
		return ret;
	}
	strcpy(path, paths[0]);
	write_pid(dir);
	LTT_INFO("--lttng-compat: serving LTTng 2.13's and 2.16's clients on %s, its notification channel on %s, its health checks on %s, LTTng-UST's programs on %s (2.13 to 2.15) and %s (2.16)",
		 paths[0], paths[1], paths[2], paths[LUST], paths[LUST + 1]);
	return 0;
}

/* Whether @path is a socket (not a file or link put there), to remove. */
static void unlink_socket(const char *path)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISSOCK(st.st_mode))
		unlink(path);
}

void ltt_lttng_compat_clean(const char *path, pid_t owner)
{
	static const char *const lust[LTT_LUST_SOCKETS] = LTT_LUST_SOCKET_NAMES;
	char dir[LTT_PATH_MAX], pid[LTT_PATH_MAX], notif[LTT_PATH_MAX], text[32];
	char health[LTT_PATH_MAX];
	const char *slash = path ? strrchr(path, '/') : NULL;
	ssize_t n;
	size_t i;
	int fd;

	if (!slash || snprintf(dir, sizeof(dir), "%.*s", (int)(slash - path), path) >= (int)sizeof(dir) ||
	    ltt_path_join(pid, sizeof(pid), dir, LTT_LTTNG_PID_FILE))
		return;
	fd = open(pid, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	if (n <= 0)
		return;
	text[n] = '\0';
	if (strtol(text, NULL, 10) != (long)owner)
		return;
	unlink_socket(path);
	/* the notification channel's socket beside it */
	if (!ltt_path_join(notif, sizeof(notif), dir, LTT_LTTNG_NOTIF_SOCKET))
		unlink_socket(notif);
	/* and the health socket */
	if (!ltt_path_join(health, sizeof(health), dir, LTT_LTTNG_HEALTH_SOCKET))
		unlink_socket(health);
	/* and LTTng-UST's application sockets (lust.c) */
	for (i = 0; i < LTT_LUST_SOCKETS; i++)
		if (!ltt_path_join(health, sizeof(health), dir, lust[i]))
			unlink_socket(health);
	unlink(pid);
}
