// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-compat-view.c - what LTTng's `lttng list SESSION` asks besides
 * channels and events: the rotation schedules and the process attribute
 * trackers' policies and values, read from ltt's ROTATION_INFO and
 * LIST_TRACKERS (lttng-compat.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "sessiond/lttng-compat/lttng-compat.h"

/* lttng_session_list_schedules_return: {u8 set, u64 value} periodic (us), size (bytes). */
uint32_t ltt_lttng_list_rotation_schedules(struct ltt_lttng_call *call)
{
	struct ltt_rotation_desc *rot = malloc(sizeof(*rot));
	enum ltt_error_code err = rot ? LTT_ERR_OK : LTT_ERR_NOMEM;

	if (!err)
		err = ltt_lttng_rotation_info(call, rot);
	if (!err) {
		ltt_wbuf_put_u8(&call->data, rot->timer_us != 0);
		ltt_wbuf_put_u64(&call->data, rot->timer_us);
		ltt_wbuf_put_u8(&call->data, rot->size != 0);
		ltt_wbuf_put_u64(&call->data, rot->size);
	}
	free(rot);
	return ltt_lttng_code(call, err);
}

/* ltt's tracker type of LTTng's process attribute (enum lttng_process_attr), -1: none. */
static int tracker_type(int32_t attr)
{
	static const int types[] = {
		LTT_TRACKER_PID, LTT_TRACKER_VPID, LTT_TRACKER_UID,
		LTT_TRACKER_VUID, LTT_TRACKER_GID, LTT_TRACKER_VGID,
	};

	return attr >= 0 && attr < (int32_t)(sizeof(types) / sizeof(types[0])) ? types[attr] : -1;
}

/* LTTng's value types of an id (enum lttng_process_attr_value_type), by ltt's tracker type. */
static int32_t value_type(int type)
{
	switch (type) {
	case LTT_TRACKER_VUID:
	case LTT_TRACKER_UID:
		return 1;	/* UID */
	case LTT_TRACKER_VGID:
	case LTT_TRACKER_GID:
		return 3;	/* GID */
	default:
		return 0;	/* PID */
	}
}

/* get_tracker()'s @want: every tracker of the domain */
#define ANY_TRACKER (-2)

/*
 * The tracker @want (ltt's type, or ANY_TRACKER) of @domain of @call's
 * session, from ltt's LIST_TRACKERS: its policy into *@ret_policy (ltt's
 * and LTTng's policies number alike: all 0, none 1, a set 2; of
 * ANY_TRACKER, the first that is not all, else all) and, @ids not NULL,
 * its values appended to @ids as LTTng serializes them
 * (process_attr_values: {u32 count}, count x {i32 type, u64 value}).
 */
static uint32_t get_tracker(struct ltt_lttng_call *call, uint32_t domain, int want,
			    uint32_t *ret_policy, struct ltt_wbuf *ids)
{
	uint32_t i, j, n, type, policy, nr, id;
	enum ltt_error_code err;
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	bool found = want == ANY_TRACKER;

	if (want < 0 && want != ANY_TRACKER)
		return LTT_LTTNG_ERR_INVALID;
	if (want == ANY_TRACKER)
		*ret_policy = 0;
	ltt_wbuf_init(&w);
	ltt_wbuf_init(&reply);
	ltt_wbuf_put_str(&w, call->req.session);
	ltt_wbuf_put_u32(&w, domain);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_LIST_TRACKERS, &w, &reply);
	ltt_wbuf_fini(&w);
	if (err) {
		ltt_wbuf_fini(&reply);
		return ltt_lttng_code(call, err);
	}
	ltt_rbuf_init(&r, reply.data, reply.len);
	n = ltt_rbuf_get_u32(&r);
	for (i = 0; i < n && !r.err; i++) {
		type = ltt_rbuf_get_u32(&r);
		policy = ltt_rbuf_get_u32(&r);
		nr = ltt_rbuf_get_u32(&r);
		if (nr > reply.len / 4)
			ltt_rbuf_fail(&r);
		if (want == ANY_TRACKER && policy && !*ret_policy)
			*ret_policy = policy;
		if (type == (uint32_t)want) {
			found = true;
			*ret_policy = policy;
			if (ids)
				ltt_wbuf_put_u32(ids, nr);
		}
		for (j = 0; j < nr && !r.err; j++) {
			id = ltt_rbuf_get_u32(&r);
			if (type != (uint32_t)want || !ids)
				continue;
			ltt_wbuf_put_u32(ids, (uint32_t)value_type(want));
			ltt_wbuf_put_u64(ids, id);
		}
	}
	err = ltt_rbuf_end(&r) ? LTT_ERR_PROTOCOL : LTT_ERR_OK;
	ltt_wbuf_fini(&reply);
	if (err)
		return ltt_lttng_code(call, err);
	/* a process attribute the domain does not track: LTTng's answer */
	return found ? LTT_LTTNG_OK : LTT_LTTNG_ERR_TRACKER_POLICY;
}

/* The tracker of @call's process attribute, as get_tracker(). */
static uint32_t attr_tracker(struct ltt_lttng_call *call, uint32_t *ret_policy,
			     struct ltt_wbuf *ids)
{
	return get_tracker(call, call->req.domain, tracker_type(call->req.process_attr),
			   ret_policy, ids);
}

bool ltt_lttng_domain_tracks(struct ltt_lttng_call *call, uint32_t domain)
{
	uint32_t policy = 0;

	return get_tracker(call, domain, ANY_TRACKER, &policy, NULL) == LTT_LTTNG_OK && policy;
}

/* The policy: a u32 payload. */
uint32_t ltt_lttng_tracker_policy(struct ltt_lttng_call *call)
{
	uint32_t policy = 0, ret = attr_tracker(call, &policy, NULL);

	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_u32(&call->data, policy);
	return ret;
}

/* The values, of a tracker whose policy is a set (else LTTng's error). */
uint32_t ltt_lttng_tracker_values(struct ltt_lttng_call *call)
{
	uint32_t policy = 0, ret;
	struct ltt_wbuf ids;

	ltt_wbuf_init(&ids);
	ret = attr_tracker(call, &policy, &ids);
	if (ret == LTT_LTTNG_OK && policy != LTT_TRACKER_SET)
		ret = LTT_LTTNG_ERR_TRACKER_POLICY;
	if (ret == LTT_LTTNG_OK)
		ltt_wbuf_put_bytes(&call->data, ids.data, ids.len);
	if (ids.err)
		ret = LTT_LTTNG_ERR_NOMEM;
	ltt_wbuf_fini(&ids);
	return ret;
}

/* ltt's request {str session, u32 domain, u32 type} of @call's tracker. */
static uint32_t begin_tracker_req(struct ltt_lttng_call *call, struct ltt_wbuf *w)
{
	int type = tracker_type(call->req.process_attr);

	if (type < 0)
		return LTT_LTTNG_ERR_INVALID;
	ltt_wbuf_init(w);
	ltt_wbuf_put_str(w, call->req.session);
	ltt_wbuf_put_u32(w, call->req.domain);
	ltt_wbuf_put_u32(w, (uint32_t)type);
	return LTT_LTTNG_OK;
}

/*
 * SET_POLICY: INCLUDE_ALL is ltt's all, EXCLUDE_ALL its none; INCLUDE_SET
 * starts an empty set (ltt's none, which tracking values makes a set),
 * and changes nothing where the tracker is a set already, as LTTng.
 */
uint32_t ltt_lttng_tracker_set_policy(struct ltt_lttng_call *call)
{
	uint32_t policy = 0, ret;
	enum ltt_error_code err;
	struct ltt_wbuf w;

	if (call->req.policy < 0 || call->req.policy > LTT_TRACKER_SET)
		return LTT_LTTNG_ERR_TRACKER_POLICY;
	if (call->req.policy == LTT_TRACKER_SET) {
		ret = attr_tracker(call, &policy, NULL);
		if (ret != LTT_LTTNG_OK || policy == LTT_TRACKER_SET)
			return ret;
	}
	ret = begin_tracker_req(call, &w);
	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_wbuf_put_u32(&w, call->req.policy == LTT_TRACKER_ALL ? LTT_TRACKER_ALL :
								   LTT_TRACKER_NONE);
	err = ltt_lttng_ltt(call, LTT_CLIENT_CMD_TRACKER_POLICY, &w, NULL);
	ltt_wbuf_fini(&w);
	return ltt_lttng_code(call, err);
}

/* ADD_INCLUDE_VALUE, REMOVE_INCLUDE_VALUE: one id, or a user's or group's name. */
static uint32_t tracker_edit(struct ltt_lttng_call *call, bool add)
{
	const char *name = NULL;
	enum ltt_error_code err;
	char id[24];
	struct ltt_wbuf w, reply;
	struct ltt_rbuf r;
	uint32_t ret;
	uint8_t changed = 0;

	if (call->req.value_type == 2 || call->req.value_type == 4) {	/* USER_NAME, GROUP_NAME */
		name = call->req.name_len ? ltt_rbuf_get_bytes(&call->extra, call->req.name_len) :
					    NULL;
		if (!name || strnlen(name, call->req.name_len) != call->req.name_len - 1u)
			return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	} else if (call->req.value_type < 0 || call->req.value_type > 4 ||
		   call->req.value > UINT32_MAX) {
		return LTT_LTTNG_ERR_INVALID;
	} else {
		snprintf(id, sizeof(id), "%llu", (unsigned long long)call->req.value);
		name = id;
	}
	if (ltt_rbuf_end(&call->extra))
		return LTT_LTTNG_ERR_INVALID_PROTOCOL;
	ret = begin_tracker_req(call, &w);
	if (ret != LTT_LTTNG_OK)
		return ret;
	ltt_wbuf_put_u32(&w, 1);
	ltt_wbuf_put_str(&w, name);
	ltt_wbuf_init(&reply);
	err = ltt_lttng_ltt(call, add ? LTT_CLIENT_CMD_TRACK : LTT_CLIENT_CMD_UNTRACK, &w, &reply);
	ltt_wbuf_fini(&w);
	if (!err) {
		ltt_rbuf_init(&r, reply.data, reply.len);
		if (ltt_rbuf_get_u32(&r) != 1)
			ltt_rbuf_fail(&r);
		changed = ltt_rbuf_get_u8(&r);
		err = ltt_rbuf_end(&r) ? LTT_ERR_PROTOCOL : LTT_ERR_OK;
	}
	ltt_wbuf_fini(&reply);
	if (err == LTT_ERR_TRACKER_NAME)
		return call->req.value_type == 2 ? LTT_LTTNG_ERR_USER_NOT_FOUND :
						   LTT_LTTNG_ERR_GROUP_NOT_FOUND;
	if (err == LTT_ERR_TRACKER_UNCHANGED || (!err && !changed))
		return add ? LTT_LTTNG_ERR_PROCESS_ATTR_EXISTS : LTT_LTTNG_ERR_PROCESS_ATTR_MISSING;
	if (err == LTT_ERR_TRACKER_POLICY)
		return LTT_LTTNG_ERR_TRACKER_POLICY;
	return ltt_lttng_code(call, err);
}

uint32_t ltt_lttng_tracker_add(struct ltt_lttng_call *call)
{
	return tracker_edit(call, true);
}

uint32_t ltt_lttng_tracker_remove(struct ltt_lttng_call *call)
{
	return tracker_edit(call, false);
}
