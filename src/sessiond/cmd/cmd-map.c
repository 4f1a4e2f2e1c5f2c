// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-map.c - map channels (doc/maps.md): add-map-channel, and their
 * counters read for show-maps and export-maps (by CPU too, for LTTng
 * 2.16's show-maps).  The maps themselves are
 * the registry's (model/map.h); a session's follow its start, stop,
 * clear and destroy (cmd-session.c, cmd-chunk.c).
 */
#include <errno.h>

#include "common/base/errmap.h"
#include "common/model/map.h"
#include "common/proto/client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/map.h"

static const struct ltt_errmap add_errors[] = {
	{ 0, LTT_ERR_OK },
	{ -EEXIST, LTT_ERR_MAP_EXISTS },
	{ -ENOSPC, LTT_ERR_MAP_LIMIT },
	{ -EOPNOTSUPP, LTT_ERR_MAP_KERNEL },	/* the kernel domain logged why */
	{ LTT_ERRMAP_ELSE, LTT_ERR_NOMEM },
};

static enum ltt_error_code add_locked(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
				      void *arg)
{
	return LTT_ERRMAP(add_errors, ltt_maps_add(ctx->domains->maps, session->uid, session->name, arg,
						   __atomic_load_n(&session->active, __ATOMIC_RELAXED)),
			  NULL);
}

enum ltt_error_code ltt_cmd_add_map_channel(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					    struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	struct ltt_domain_impl *kernel;
	struct ltt_map_attr a;
	enum ltt_error_code err;

	(void)reply;
	ltt_map_attr_get(req, &a);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!ltt_map_attr_valid(&a))
		return LTT_ERR_INVAL;
	if (!ctx->domains->maps)
		return LTT_ERR_NOT_SUPPORTED;
	/* a kernel map needs the kernel domain: its reason when this daemon has none */
	if (a.ownership == LTT_MAP_OWNER_KERNEL &&
	    (err = ltt_domains_get(ctx->domains, LTT_DOMAIN_KERNEL, &kernel)))
		return err;
	err = ltt_cmd_with_session(ctx, name, add_locked, &a);
	/* a trigger added before the map (then destroyed with its session) counts again */
	if (!err)
		(void)ltt_cmd_triggers_changed(ctx);	/* the map stays: an agent's refusal is logged */
	return err;
}

/* A list's reply being written, with the counters by CPU or not. */
struct map_list {
	struct ltt_wbuf *reply;
	bool by_cpu;
};

static enum ltt_error_code list_locked(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
				       void *arg)
{
	const struct map_list *l = arg;

	/* an older client knows no kernel map: it would show one as a user map */
	return ltt_maps_put_session(ctx->domains->maps, session->uid, session->name,
				    ctx->minor >= LTT_CLIENT_MINOR_KERNEL_MAPS, l->by_cpu, l->reply) ?
		       LTT_ERR_NOMEM : LTT_ERR_OK;
}

static enum ltt_error_code list_maps(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				     struct map_list *l)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	if (!ctx->domains->maps)
		return LTT_ERR_NOT_SUPPORTED;
	return ltt_cmd_with_session(ctx, name, list_locked, l);
}

enum ltt_error_code ltt_cmd_list_maps(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				      struct ltt_wbuf *reply)
{
	return list_maps(ctx, req, &(struct map_list){ .reply = reply });
}

enum ltt_error_code ltt_cmd_list_map_cpus(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					  struct ltt_wbuf *reply)
{
	return list_maps(ctx, req, &(struct map_list){ .reply = reply, .by_cpu = true });
}
