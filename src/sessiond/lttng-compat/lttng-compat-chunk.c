// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-chunk.c - LTTng 2.13's snapshot commands on ltt's
 * (lttng-compat.h): outputs added, deleted and listed, records.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/uri.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-trigger-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/*
 * LTTng's error codes of a snapshot not written and of a state dump of a
 * stopped session (lttng/lttng-error.h); the others, ltt_lttng_code()'s.
 */
#define ERR_SNAPSHOT_FAIL 51
#define ERR_SESSION_NOT_STARTED 118
/*
 * An output's max_size that LTTng's client did not set (liblttng-ctl's
 * lttng_snapshot_output_create() makes it -1): no size, so a record
 * without -m keeps the size of the session's output.
 */
#define UNSET_MAX_SIZE UINT64_MAX

/* @call's output as ltt's, named; LTT_LTTNG_OK or an error. */
static uint32_t get_output(struct ltt_lttng_call *call, struct ltt_snapshot_output_conf *c)
{
	const struct ltt_lttng_snapshot_output *o = &call->req.output;

	memset(c, 0, sizeof(*c));
	c->id = o->id;
	c->max_size = o->max_size == UNSET_MAX_SIZE ? 0 : o->max_size;
	snprintf(c->name, sizeof(c->name), "%s", o->name);
	if (o->ctrl_url[0] && ltt_lttng_snapshot_output_to_ltt(o, c))
		return ltt_lttng_refuse(call, "this snapshot output URL",
					"a directory, a net:// URL, or tcp:// control and data URLs");
	return LTT_LTTNG_OK;
}

/* ADD_OUTPUT: the reply is the output's id (lttcomm_lttng_output_id). */
uint32_t ltt_lttng_snapshot_add_output(struct ltt_lttng_call *call)
{
	struct ltt_snapshot_output_conf *c = malloc(sizeof(*c));
	enum ltt_error_code err;
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	uint32_t ret;

	ret = c ? get_output(call, c) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK && !c->output[0])
		ret = LTT_LTTNG_ERR_INVALID;
	if (ret != LTT_LTTNG_OK) {
		free(c);
		return ret;
	}
	c->id = 0;	/* the daemon's to choose */
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_proto_put_snapshot_output(&w, c);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_SNAPSHOT_ADD_OUTPUT, &w, &reply);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		ltt_proto_get_snapshot_output(&r, c);
		err = ltt_rbuf_end(&r) ? LTT_ERR_PROTOCOL : LTT_ERR_OK;
	}
	if (!err)
		ltt_wbuf_put_u32(&call->data, c->id);
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	free(c);
	return ltt_lttng_code(call, err);
}

/* DEL_OUTPUT: by id, else by name. */
uint32_t ltt_lttng_snapshot_del_output(struct ltt_lttng_call *call)
{
	enum ltt_error_code err;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_wbuf_put_u32(&w, call->req.output.id);
	ltt_wbuf_put_str(&w, call->req.output.id ? "" : call->req.output.name);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_SNAPSHOT_DEL_OUTPUT, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
}

/*
 * @o's URLs of snapshot output @output, as LTTng's daemon lists them: a
 * relay's two ports ("tcp4://HOST:CTRL/PATH", "tcp4://HOST:DATA/"), a
 * directory as its path (in the control URL); fits (output <= ctrl_url).
 */
static void put_output_urls(struct ltt_lttng_snapshot_output *o, const char *output)
{
	struct ltt_uri *u = malloc(sizeof(*u));

	if (u && !ltt_uri_parse(output, u) && u->scheme == LTT_URI_NET && !u->tls &&
	    !ltt_uri_format_lttng(u, 0, o->ctrl_url, sizeof(o->ctrl_url)) &&
	    !ltt_uri_format_lttng(u, 1, o->data_url, sizeof(o->data_url))) {
		free(u);
		return;
	}
	free(u);
	o->data_url[0] = '\0';
	memcpy(o->ctrl_url, output, strlen(output) + 1);
}

/* LIST_OUTPUT: an array of struct lttng_snapshot_output, its URLs as LTTng's. */
uint32_t ltt_lttng_snapshot_list_output(struct ltt_lttng_call *call)
{
	struct ltt_lttng_snapshot_output *o = malloc(sizeof(*o));
	struct ltt_snapshot_output_conf *c = malloc(sizeof(*c));
	enum ltt_error_code err = o && c ? LTT_ERR_OK : LTT_ERR_NOMEM;
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	uint32_t i, n;

	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	if (!err)
		err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_SNAPSHOT_LIST_OUTPUT, &w, &reply);
	ltt_rbuf_init(&r, reply.data, reply.len);
	n = err ? 0 : ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		ltt_proto_get_snapshot_output(&r, c);
		memset(o, 0, sizeof(*o));
		o->id = c->id;
		o->max_size = c->max_size;
		if (strlen(c->name) >= sizeof(o->name) || strlen(c->output) >= sizeof(o->ctrl_url))
			continue;	/* a name LTTng's struct can't hold */
		memcpy(o->name, c->name, strlen(c->name) + 1);
		put_output_urls(o, c->output);
		ltt_lttng_put_snapshot_output(&call->data, o);
	}
	if (!err && ltt_rbuf_end(&r))
		err = LTT_ERR_PROTOCOL;
	free(o);
	free(c);
	ltt_wbuf_fini(&w);
	ltt_wbuf_fini(&reply);
	return ltt_lttng_code(call, err);
}

/*
 * RECORD: into the session's output, or the one given (its fields
 * override the session's); ltt's record returns once it is written,
 * whether or not LTTng's client asked to wait.
 */
uint32_t ltt_lttng_snapshot_record(struct ltt_lttng_call *call)
{
	const struct ltt_lttng_snapshot_output *o = &call->req.output;
	struct ltt_snapshot_output_conf *c = malloc(sizeof(*c));
	bool given = o->ctrl_url[0] || o->name[0] || (o->max_size && o->max_size != UNSET_MAX_SIZE);
	enum ltt_error_code err;
	struct ltt_wbuf w;
	uint32_t ret;

	ret = c ? get_output(call, c) : LTT_LTTNG_ERR_NOMEM;
	if (ret != LTT_LTTNG_OK) {
		free(c);
		return ret;
	}
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_wbuf_put_u8(&w, given);
	if (given)
		ltt_proto_put_snapshot_output(&w, c);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_SNAPSHOT_RECORD, &w, NULL);
	ltt_wbuf_fini(&w);
	free(c);
	return err == LTT_ERR_OUTPUT_NO_SPACE || err == LTT_ERR_OUTPUT_IO ? ERR_SNAPSHOT_FAIL :
									    ltt_lttng_code(call, err);
}

/*
 * ROTATE_SESSION: ltt rotates before it answers; the rotation's id is the
 * chunk the session writes now, which ROTATION_GET_INFO then knows.
 */
uint32_t ltt_lttng_rotate_session(struct ltt_lttng_call *call)
{
	struct ltt_rotation_desc *rot = malloc(sizeof(*rot));
	enum ltt_error_code err = rot ? LTT_ERR_OK : LTT_ERR_NOMEM;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	if (!err)
		err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_ROTATE_SESSION, &w, NULL);
	if (!err)
		err = ltt_lttng_rotation_info(call, rot);
	if (!err)
		ltt_wbuf_put_u64(&call->data, rot->chunk_id);
	ltt_wbuf_fini(&w);
	free(rot);
	return ltt_lttng_code(call, err);
}

/*
 * Where the last archive is: its path, on this host or (a relay's
 * session) the relay's, as LTTng says it.
 */
static uint32_t archive_location(struct ltt_lttng_call *call, const char *archive,
				 struct ltt_lttng_rotation_info *info)
{
	struct ltt_session_desc *s = malloc(sizeof(*s));
	struct ltt_wbuf reply;
	struct ltt_rbuf r;
	struct ltt_uri u;
	uint32_t ret;

	ltt_wbuf_init(&reply);
	ret = s ? ltt_lttng_session_tree(call, &reply, &r, s) : LTT_LTTNG_ERR_NOMEM;
	if (ret == LTT_LTTNG_OK && s->output_type == LTT_OUTPUT_NET && !ltt_uri_parse(s->output, &u)) {
		info->location_type = 2;
		snprintf(info->host, sizeof(info->host), "%s", u.host);
		info->ctrl_port = u.ctrl_port;
		info->data_port = u.data_port;
		snprintf(info->relative_path, sizeof(info->relative_path), "%s", archive);
	} else if (ret == LTT_LTTNG_OK) {
		info->location_type = 1;
		snprintf(info->path, sizeof(info->path), "%s", archive);
	}
	free(s);
	ltt_wbuf_fini(&reply);
	return ret;
}

/* ROTATION_GET_INFO: the rotation of the current chunk is done; an older one expired. */
uint32_t ltt_lttng_rotation_get_info(struct ltt_lttng_call *call)
{
	struct ltt_lttng_rotation_info *info = calloc(1, sizeof(*info));
	struct ltt_rotation_desc *rot = malloc(sizeof(*rot));
	enum ltt_error_code err = info && rot ? LTT_ERR_OK : LTT_ERR_NOMEM;
	uint32_t ret;

	if (!err)
		err = ltt_lttng_rotation_info(call, rot);
	ret = ltt_lttng_code(call, err);
	if (ret == LTT_LTTNG_OK && rot->chunk_id == call->req.rotation_id && rot->last_archive[0]) {
		info->status = 2;	/* COMPLETED */
		ret = archive_location(call, rot->last_archive, info);
	} else if (ret == LTT_LTTNG_OK) {
		info->status = 3;	/* EXPIRED */
	}
	if (ret == LTT_LTTNG_OK)
		ltt_lttng_put_rotation_info(&call->data, info);
	free(info);
	free(rot);
	return ret;
}

/* ROTATION_SET_SCHEDULE: one schedule set or unset. */
uint32_t ltt_lttng_rotation_set_schedule(struct ltt_lttng_call *call)
{
	bool periodic = call->req.sched_type == 1;
	enum ltt_error_code err;
	struct ltt_wbuf w;

	if (call->req.sched_type > 1 || call->req.sched_set > 1 ||
	    (call->req.sched_set && !call->req.sched_value))
		return LTT_LTTNG_ERR_INVALID;
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, call->req.session);
	if (call->req.sched_set) {
		ltt_wbuf_put_u64(&w, periodic ? call->req.sched_value : 0);
		ltt_wbuf_put_u64(&w, periodic ? 0 : call->req.sched_value);
	} else {
		ltt_wbuf_put_u8(&w, periodic);
		ltt_wbuf_put_u8(&w, !periodic);
	}
	err = ltt_lttng_ltt(call, call->req.sched_set ? LTT_CLIENT_CMD_ENABLE_ROTATION :
							LTT_CLIENT_CMD_DISABLE_ROTATION, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
}

/* CLEAR_SESSION: a session's name. */
uint32_t ltt_lttng_clear_session(struct ltt_lttng_call *call)
{
	return ltt_lttng_code(call, ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_CLEAR_SESSION, 0, 0,
							 NULL));
}

/*
 * REGENERATE_METADATA, REGENERATE_STATEDUMP of a session that is not
 * recording: LTTng's daemon says SESSION_NOT_STARTED there, where a stop
 * says TRACE_ALREADY_STOPPED.
 */
static uint32_t regenerate(struct ltt_lttng_call *call, int what)
{
	enum ltt_error_code err = ltt_lttng_session_cmd(call, LTT_CLIENT_CMD_REGENERATE,
							(uint32_t)what, 4, NULL);

	return err == LTT_ERR_SESSION_NOT_STARTED ? ERR_SESSION_NOT_STARTED : ltt_lttng_code(call, err);
}

uint32_t ltt_lttng_regenerate_metadata(struct ltt_lttng_call *call)
{
	return regenerate(call, LTT_REGENERATE_METADATA);
}

uint32_t ltt_lttng_regenerate_statedump(struct ltt_lttng_call *call)
{
	return regenerate(call, LTT_REGENERATE_STATEDUMP);
}
