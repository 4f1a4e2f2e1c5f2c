// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-chunk.c - rotate, enable-rotation, disable-rotation, clear,
 * regenerate, rotation-info: the client commands of trace chunks
 * (chunk.h does the work).
 */
#include <stdint.h>
#include <string.h>

#include "common/base/log.h"
#include "common/model/attr.h"
#include "common/proto/client-proto.h"
#include "sessiond/chunk/chunk.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/map.h"

static enum ltt_error_code rotate_locked(const struct ltt_cmd_ctx *ctx,
					 struct ltt_session *session, void *archive)
{
	return ltt_chunk_rotate(ctx->domains, session, archive);
}

enum ltt_error_code ltt_cmd_rotate_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	char archive[LTT_PATH_MAX] = "";
	enum ltt_error_code ret;

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_with_session(ctx, name, rotate_locked, archive);
	if (!ret)
		ltt_wbuf_put_str(reply, archive);
	return ret;
}

/* A rotation schedule: enable-rotation sets the non-zero ones, disable-rotation the true ones. */
struct schedule {
	uint64_t timer_us, size;
};

static enum ltt_error_code enable_locked(const struct ltt_cmd_ctx *ctx,
					 struct ltt_session *session, void *arg)
{
	const struct schedule *s = arg;

	/* a session without output (a snapshot one or not) has no chunk, as LTTng's */
	if (session->snapshot)
		return session->snapshot_mode ? LTT_ERR_ROTATE_SNAPSHOT : LTT_ERR_ROTATE_OUTPUT;
	if (session->live_timer_us)
		return LTT_ERR_ROTATE_LIVE;
	if (s->timer_us) {
		session->rotate_timer_us = s->timer_us;
		ltt_chunk_timer_arm(session);
	}
	if (s->size) {
		session->rotate_size = s->size;
		session->rotate_written = ltt_chunk_written(ctx->domains, session);
	}
	ltt_session_wake(session);	/* the tick finds it due */
	LTT_INFO("session '%s': rotation every %llu us / %llu bytes", session->name,
		 (unsigned long long)session->rotate_timer_us,
		 (unsigned long long)session->rotate_size);
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_enable_rotation(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	struct schedule s;
	enum ltt_error_code ret;

	s.timer_us = ltt_rbuf_get_u64(req);
	s.size = ltt_rbuf_get_u64(req);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_attr_check_rotation(s.timer_us, s.size);
	if (ret)
		return ret;
	return ltt_cmd_with_session(ctx, name, enable_locked, &s);
}

/* All or nothing: a schedule that is not set changes nothing. */
static enum ltt_error_code disable_locked(const struct ltt_cmd_ctx *ctx,
					  struct ltt_session *session, void *arg)
{
	const struct schedule *s = arg;

	(void)ctx;
	if ((s->timer_us && !session->rotate_timer_us) || (s->size && !session->rotate_size))
		return LTT_ERR_ROTATION_NOT_SET;
	if (s->timer_us)
		session->rotate_timer_us = 0;
	if (s->size)
		session->rotate_size = 0;
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_disable_rotation(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					     struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	struct schedule s;

	s.timer_us = ltt_rbuf_get_bool(req);
	s.size = ltt_rbuf_get_bool(req);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!s.timer_us && !s.size)
		return LTT_ERR_INVAL;
	return ltt_cmd_with_session(ctx, name, disable_locked, &s);
}

static enum ltt_error_code clear_locked(const struct ltt_cmd_ctx *ctx,
					struct ltt_session *session, void *arg)
{
	(void)arg;
	if (ctx->domains->maps)
		ltt_maps_clear(ctx->domains->maps, session->uid, session->name);
	return ltt_chunk_clear(ctx->domains, session);
}

enum ltt_error_code ltt_cmd_clear_session(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	return ltt_cmd_with_session(ctx, name, clear_locked, NULL);
}

static enum ltt_error_code regenerate_metadata_locked(const struct ltt_cmd_ctx *ctx,
						      struct ltt_session *session, void *arg)
{
	(void)arg;
	return ltt_chunk_regenerate_metadata(ctx->domains, session);
}

/*
 * Once this returns, every program registered then has recorded its state
 * dump (or was dropped, warned about, for not confirming it in time): one
 * that exits right after still leaves its dump in the trace.
 */
static enum ltt_error_code regenerate_statedump(const struct ltt_cmd_ctx *ctx, const char *name)
{
	struct ltt_cmd_change ch;
	enum ltt_error_code ret;

	ret = ltt_cmd_change_begin(ctx, name, &ch);
	if (ret)
		return ret;
	ret = ltt_chunk_regenerate_statedump(ctx->domains, ch.session, &ch.settle);
	ltt_cmd_change_end(ctx, &ch, "state dump");
	return ret;
}

enum ltt_error_code ltt_cmd_regenerate(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				       struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	uint32_t what = ltt_rbuf_get_u32(req);

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (what == LTT_REGENERATE_STATEDUMP)
		return regenerate_statedump(ctx, name);
	if (what != LTT_REGENERATE_METADATA)
		return LTT_ERR_INVAL;
	return ltt_cmd_with_session(ctx, name, regenerate_metadata_locked, NULL);
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
