// SPDX-License-Identifier: LGPL-2.1-only
/*
 * chunk.c - libltt-ctl's trace chunk calls: rotate, rotation schedule,
 * clear, regenerate (client protocol minor 5).
 */
#include <stdbool.h>
#include <string.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "lib/ltt-ctl/ctl-internal.h"

/* ROTATE_SESSION's reply: the archive's path (LTT_PATH_MAX bytes). */
static void get_archive(struct ltt_rbuf *r, void *path, const struct ltt_ctl *ctl)
{
	(void)ctl;
	ltt_rbuf_get_str_copy(r, path, LTT_PATH_MAX);
}

int ltt_ctl_rotate_session(struct ltt_ctl *ctl, const char *session, char *ret_archive,
			   size_t len)
{
	char path[LTT_PATH_MAX];
	int ret;

	if (!ret_archive || !len)
		return -LTT_ERR_INVAL;
	ret = ctl_session_read(ctl, LTT_CLIENT_CMD_ROTATE_SESSION, session,
			       LTT_CLIENT_MINOR_ROTATE, get_archive, path);
	if (ret)
		return ret;
	if (strlen(path) >= len)
		return -LTT_ERR_INVAL;
	strcpy(ret_archive, path);
	return 0;
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

/* ROTATION_INFO's reply: the schedule and the last rotation. */
static void get_rotation(struct ltt_rbuf *r, void *desc, const struct ltt_ctl *ctl)
{
	ltt_proto_get_rotation_desc(r, desc, ctl_minor(ctl));
}

int ltt_ctl_rotation_info(struct ltt_ctl *ctl, const char *session,
			  struct ltt_rotation_info *ret_info)
{
	struct ltt_rotation_desc desc;
	int ret;

	if (!ret_info)
		return -LTT_ERR_INVAL;
	ret = ctl_session_read(ctl, LTT_CLIENT_CMD_ROTATION_INFO, session,
			       LTT_CLIENT_MINOR_ROTATE, get_rotation, &desc);
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
