// SPDX-License-Identifier: LGPL-2.1-only
/*
 * chunk.c - libltt-ctl's trace chunk calls: rotate, rotation schedule,
 * clear, regenerate (client protocol minor 5).
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "lib/ltt-ctl/ctl-internal.h"

int ltt_ctl_rotate_session(struct ltt_ctl *ctl, const char *session, char *ret_archive,
			   size_t len)
{
	uint8_t *reply = NULL;
	const char *path;
	struct ltt_rbuf r;
	int ret;

	if (!ret_archive || !len)
		return -LTT_ERR_INVAL;
	ret = ctl_session_call(ctl, LTT_CLIENT_CMD_ROTATE_SESSION, session,
			      LTT_CLIENT_MINOR_ROTATE, &reply, &r);
	if (ret)
		return ret;
	path = ltt_rbuf_get_str(&r, LTT_PATH_MAX);
	if (ltt_rbuf_end(&r))
		ret = -LTT_ERR_PROTOCOL;
	else if (strlen(path) >= len)
		ret = -LTT_ERR_INVAL;
	else
		strcpy(ret_archive, path);
	free(reply);
	return ret;
}

int ltt_ctl_enable_rotation(struct ltt_ctl *ctl, const char *session, uint64_t timer_us,
			    uint64_t size)
{
	struct ltt_wbuf w;
	int ret;

	if (!timer_us && !size)
		return -LTT_ERR_ROTATION_VALUE;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_ROTATE);
	if (ret)
		return ret;
	ltt_wbuf_put_u64(&w, timer_us);
	ltt_wbuf_put_u64(&w, size);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_ENABLE_ROTATION, &w, NULL, NULL);
}

int ltt_ctl_disable_rotation(struct ltt_ctl *ctl, const char *session, bool timer, bool size)
{
	struct ltt_wbuf w;
	int ret;

	if (!timer && !size)
		return -LTT_ERR_INVAL;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_ROTATE);
	if (ret)
		return ret;
	ltt_wbuf_put_u8(&w, timer);
	ltt_wbuf_put_u8(&w, size);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_DISABLE_ROTATION, &w, NULL, NULL);
}

int ltt_ctl_clear_session(struct ltt_ctl *ctl, const char *session)
{
	return ctl_session_call(ctl, LTT_CLIENT_CMD_CLEAR_SESSION, session,
			       LTT_CLIENT_MINOR_ROTATE, NULL, NULL);
}

int ltt_ctl_regenerate(struct ltt_ctl *ctl, const char *session, enum ltt_regenerate_what what)
{
	struct ltt_wbuf w;
	int ret;

	if (what != LTT_REGENERATE_METADATA && what != LTT_REGENERATE_STATEDUMP)
		return -LTT_ERR_INVAL;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_ROTATE);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(&w, (uint32_t)what);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_REGENERATE, &w, NULL, NULL);
}

int ltt_ctl_rotation_info(struct ltt_ctl *ctl, const char *session,
			  struct ltt_rotation_info *ret_info)
{
	struct ltt_rotation_desc desc;
	uint8_t *reply = NULL;
	struct ltt_rbuf r;
	int ret;

	if (!ret_info)
		return -LTT_ERR_INVAL;
	ret = ctl_session_call(ctl, LTT_CLIENT_CMD_ROTATION_INFO, session,
			      LTT_CLIENT_MINOR_ROTATE, &reply, &r);
	if (ret)
		return ret;
	ltt_proto_get_rotation_desc(&r, &desc, ctl_minor(ctl));
	ret = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
	if (ret)
		return ret;
	/* the public struct: its reserved room zeroed */
	memset(ret_info, 0, sizeof(*ret_info));
	ret_info->timer_us = desc.timer_us;
	ret_info->size = desc.size;
	ret_info->chunk_id = desc.chunk_id;
	memcpy(ret_info->last_archive, desc.last_archive, sizeof(ret_info->last_archive));
	ret_info->error = desc.error;
	ret_info->error_since = desc.error_since;
	return 0;
}
