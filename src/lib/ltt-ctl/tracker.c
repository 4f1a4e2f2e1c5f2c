// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracker.c - libltt-ctl: process trackers (client protocol minor 9):
 * ltt_ctl_track(), ltt_ctl_untrack(), ltt_ctl_tracker_set_policy(),
 * ltt_ctl_list_tracker().
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "lib/ltt-ctl/ctl-internal.h"

/* A tracker request {str session, u32 domain[, u32 type]} to a daemon that knows them. */
static int start(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		 const enum ltt_tracker_type *type, struct ltt_wbuf *w)
{
	if (!ctl || !session || strlen(session) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	if (domain != LTT_DOMAIN_USER && domain != LTT_DOMAIN_KERNEL)
		return -LTT_ERR_DOMAIN;
	if (type && (unsigned int)*type >= LTT_TRACKER_NR)
		return -LTT_ERR_INVAL;
	if (ctl_minor(ctl) < LTT_CLIENT_MINOR_TRACKER)
		return -LTT_ERR_NOT_SUPPORTED;
	/* an older daemon refuses the kernel domain; it would take type 3+ as invalid */
	if ((domain == LTT_DOMAIN_KERNEL || (type && *type >= LTT_TRACKER_NR_USER)) &&
	    ctl_minor(ctl) < LTT_CLIENT_MINOR_KTRACKER)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(w);
	ltt_wbuf_put_str(w, session);
	ltt_wbuf_put_u32(w, (uint32_t)domain);
	if (type)
		ltt_wbuf_put_u32(w, (uint32_t)*type);
	return 0;
}

static int edit(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const char *session,
		enum ltt_domain domain, enum ltt_tracker_type type, const char *const *values,
		size_t nr, bool *ret_changed)
{
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t i, n = 0;
	int ret;

	if (!nr || nr > LTT_TRACKER_MAX_IDS)
		return nr ? -LTT_ERR_TRACKER_LIMIT : -LTT_ERR_TRACKER_VALUE;
	for (i = 0; values && i < nr; i++)
		if (!values[i])
			return -LTT_ERR_INVAL;
	if (!values)
		return -LTT_ERR_INVAL;
	ret = start(ctl, session, domain, &type, &w);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(&w, (uint32_t)nr);
	for (i = 0; i < nr; i++)
		ltt_wbuf_put_str(&w, values[i]);
	ret = ctl_send_req(ctl, cmd, &w, &reply, &n);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, n);
	if (ltt_rbuf_get_u32(&r) != nr)
		ret = -LTT_ERR_PROTOCOL;
	for (i = 0; i < nr && !ret; i++) {
		uint8_t c = ltt_rbuf_get_u8(&r);

		if (ret_changed)
			ret_changed[i] = c != 0;
	}
	if (!ret && ltt_rbuf_end(&r))
		ret = -LTT_ERR_PROTOCOL;
	free(reply);
	return ret;
}

int ltt_ctl_track(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		  enum ltt_tracker_type type, const char *const *values, size_t nr,
		  bool *ret_changed)
{
	return edit(ctl, LTT_CLIENT_CMD_TRACK, session, domain, type, values, nr, ret_changed);
}

int ltt_ctl_untrack(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		    enum ltt_tracker_type type, const char *const *values, size_t nr,
		    bool *ret_changed)
{
	return edit(ctl, LTT_CLIENT_CMD_UNTRACK, session, domain, type, values, nr, ret_changed);
}

int ltt_ctl_tracker_set_policy(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			       enum ltt_tracker_type type, enum ltt_tracker_policy policy)
{
	struct ltt_wbuf w;
	int ret;

	if (policy != LTT_TRACKER_ALL && policy != LTT_TRACKER_NONE)
		return -LTT_ERR_INVAL;
	ret = start(ctl, session, domain, &type, &w);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(&w, (uint32_t)policy);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_TRACKER_POLICY, &w, NULL, NULL);
}

/* From a LIST_TRACKERS reply, tracker @type's policy and ids. */
static int parse_list(struct ltt_rbuf *r, enum ltt_tracker_type type,
		      enum ltt_tracker_policy *ret_policy, uint32_t **ret_ids, size_t *ret_nr)
{
	uint32_t n = ltt_rbuf_get_u32(r), i, k, t, policy, nr;
	uint32_t *ids = NULL;
	bool found = false;

	for (i = 0; i < n && !r->err; i++) {
		t = ltt_rbuf_get_u32(r);
		policy = ltt_rbuf_get_u32(r);
		nr = ltt_rbuf_get_u32(r);
		if (policy > LTT_TRACKER_SET || nr > LTT_TRACKER_MAX_IDS ||
		    (policy != LTT_TRACKER_SET && nr))
			break;
		if (t != (uint32_t)type || found) {
			for (k = 0; k < nr; k++)
				ltt_rbuf_get_u32(r);
			continue;
		}
		found = true;
		*ret_policy = (enum ltt_tracker_policy)policy;
		*ret_nr = nr;
		ids = nr ? calloc(nr, sizeof(*ids)) : NULL;
		if (nr && !ids)
			return -LTT_ERR_NOMEM;
		for (k = 0; k < nr; k++)
			ids[k] = ltt_rbuf_get_u32(r);
	}
	if (i < n || !found || ltt_rbuf_end(r)) {
		free(ids);
		return -LTT_ERR_PROTOCOL;
	}
	*ret_ids = ids;
	return 0;
}

int ltt_ctl_list_tracker(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			 enum ltt_tracker_type type, enum ltt_tracker_policy *ret_policy,
			 uint32_t **ret_ids, size_t *ret_nr)
{
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t n = 0;
	int ret;

	if (!ret_policy || !ret_ids || !ret_nr || (unsigned int)type >= LTT_TRACKER_NR)
		return -LTT_ERR_INVAL;
	ret = start(ctl, session, domain, NULL, &w);
	if (ret)
		return ret;
	ret = ctl_send_req(ctl, LTT_CLIENT_CMD_LIST_TRACKERS, &w, &reply, &n);
	if (ret)
		return ret;
	ltt_rbuf_init(&r, reply, n);
	ret = parse_list(&r, type, ret_policy, ret_ids, ret_nr);
	free(reply);
	return ret;
}
