// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-chunk.c - rotate, enable-rotation, disable-rotation, clear,
 * regenerate, rotation-info: the client commands of trace chunks
 * (chunk.h does the work).
 */
#include <stdint.h>
#include <string.h>

#include "common/attr.h"
#include "common/client-proto.h"
#include "common/evloop.h"
#include "common/log.h"
#include "sessiond/chunk.h"
#include "sessiond/cmd.h"

enum ltt_error_code ltt_cmd_rotate_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	char archive[LTT_PATH_MAX] = "";
	struct ltt_session *session;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	ret = ltt_chunk_rotate(ctx->domains, session, archive);
	ltt_cmd_unlock_session(ctx, session);
	if (!ret)
		ltt_wbuf_put_str(reply, archive);
	return ret;
}

enum ltt_error_code ltt_cmd_enable_rotation(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	uint64_t timer_us = ltt_rbuf_get_u64(req), size = ltt_rbuf_get_u64(req);
	struct ltt_session *session;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_code(ltt_attr_check_rotation(timer_us, size));
	if (ret)
		return ret;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	if (session->snapshot)
		ret = LTT_ERR_ROTATE_SNAPSHOT;
	else if (session->output_type == LTT_OUTPUT_NONE)
		ret = LTT_ERR_ROTATE_OUTPUT;
	if (!ret && timer_us) {
		session->rotate_timer_us = timer_us;
		session->rotate_next_ns = ltt_evloop_now_ns() + timer_us * 1000;
	}
	if (!ret && size) {
		session->rotate_size = size;
		session->rotate_written = ltt_chunk_written(ctx->domains, session);
	}
	if (!ret)
		LTT_INFO("session '%s': rotation every %llu us / %llu bytes", session->name,
			 (unsigned long long)session->rotate_timer_us,
			 (unsigned long long)session->rotate_size);
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

enum ltt_error_code ltt_cmd_disable_rotation(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					     struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	bool timer = ltt_rbuf_get_bool(req), size = ltt_rbuf_get_bool(req);
	struct ltt_session *session;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!timer && !size)
		return LTT_ERR_INVAL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	/* all or nothing: a schedule that is not set changes nothing */
	if ((timer && !session->rotate_timer_us) || (size && !session->rotate_size)) {
		ret = LTT_ERR_ROTATION_NOT_SET;
	} else {
		if (timer)
			session->rotate_timer_us = 0;
		if (size)
			session->rotate_size = 0;
	}
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

enum ltt_error_code ltt_cmd_clear_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	struct ltt_session *session;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	ret = ltt_chunk_clear(ctx->domains, session);
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

enum ltt_error_code ltt_cmd_regenerate(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				       struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	uint32_t what = ltt_rbuf_get_u32(req);
	struct ltt_session *session;
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (what != LTT_REGENERATE_METADATA && what != LTT_REGENERATE_STATEDUMP)
		return LTT_ERR_INVAL;
	ret = ltt_cmd_lock_session(ctx, name, &session);
	if (ret)
		return ret;
	if (what == LTT_REGENERATE_STATEDUMP)
		ret = ltt_chunk_regenerate_statedump(ctx->domains, session);
	else
		ret = ltt_chunk_regenerate_metadata(ctx->domains, session);
	ltt_cmd_unlock_session(ctx, session);
	return ret;
}

void ltt_cmd_rotation_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			  struct ltt_wbuf *reply)
{
	struct ltt_rotation_desc info = { 0 };

	info.timer_us = session->rotate_timer_us;
	info.size = session->rotate_size;
	info.chunk_id = session->chunk_id;
	strcpy(info.last_archive, session->last_archive);
	if (session->rotate_timer_us || session->rotate_size) {
		info.error = session->rotate_err;
		info.error_since = session->rotate_err ? session->rotate_err_since : 0;
	}
	ltt_proto_put_rotation_desc(reply, &info, ctx->minor);
}
