// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-memory.c - the memory of a session's buffers (MEM_USAGE, for
 * `lttctl list --mem-usage`): measured by each domain (mem_usage), never
 * computed from the channels' sizes; and RECLAIM_MEMORY (`lttctl
 * reclaim-memory`), which has the consumer give back what it consumed
 * (the domain's reclaim).  doc/memory.md.
 */
#include <errno.h>
#include <string.h>

#include "common/proto/client-proto.h"
#include "common/trace/tclock.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"

/* Where one channel's buffers go in the reply. */
struct mem_put {
	struct ltt_wbuf *reply;
	enum ltt_domain domain;
	const char *channel;
	uint32_t minor;			/* the client's */
	uint32_t n;
};

static void put_stream(void *arg, const struct ltt_domain_mem *m)
{
	struct mem_put *p = arg;
	struct ltt_mem_stream s = {
		.domain = p->domain, .uid = m->uid, .pid = m->pid, .cpu = m->cpu,
		.resident = m->resident, .size = m->size, .how = m->how,
	};

	/* a client before per-channel buffers knows CPUs only */
	if (s.cpu == LTT_MEM_CPU_CHANNEL && p->minor < LTT_CLIENT_MINOR_ALLOCATION)
		s.cpu = 0;
	/* a client before the module's count takes it as measured */
	if (s.how == LTT_MEM_MODULE_COUNT && p->minor < LTT_CLIENT_MINOR_MEM_MODULE)
		s.how = LTT_MEM_RESIDENT;
	strcpy(s.channel, p->channel);
	ltt_proto_put_mem_stream(p->reply, &s, p->minor);
	p->n++;
}

void ltt_cmd_memory_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			struct ltt_wbuf *reply)
{
	struct ltt_channel *channel;
	struct ltt_domain_impl *d;
	struct ltt_wbuf streams;
	struct mem_put p = { .reply = &streams, .minor = ctx->minor };
	size_t i;

	ltt_wbuf_init(&streams);	/* the count first, known at the end */
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = ctx->domains->v[i];
		if (!d || !d->ops->mem_usage)
			continue;
		/* an older client takes measured figures only */
		if (ctx->minor < LTT_CLIENT_MINOR_MEM_HOW &&
		    session->domains[i].type == LTT_DOMAIN_KERNEL)
			continue;
		p.domain = session->domains[i].type;
		cds_list_for_each_entry(channel, &session->domains[i].channels, node) {
			p.channel = channel->attr.name;
			d->ops->mem_usage(d, session, channel, put_stream, &p);
		}
	}
	ltt_wbuf_put_u32(reply, p.n);
	if (streams.err)
		reply->err = streams.err;
	else
		ltt_wbuf_put_bytes(reply, streams.data, streams.len);
	ltt_wbuf_fini(&streams);
}

/* What RECLAIM_MEMORY asks and answers. */
struct reclaim {
	const char *channel;		/* "": every discard-mode user-space channel */
	uint64_t older_than_ns;
	uint64_t subbufs, bytes;
};

static enum ltt_error_code reclaim_locked(const struct ltt_cmd_ctx *ctx,
					  struct ltt_session *session, void *arg)
{
	struct ltt_session_domain *sd = ltt_session_domain(session, LTT_DOMAIN_USER);
	struct reclaim *r = arg;
	struct ltt_channel *channel;
	struct ltt_domain_impl *d;
	int ret;

	ret = ltt_domains_get(ctx->domains, LTT_DOMAIN_USER, &d);
	if (ret)
		return ret;
	if (r->channel[0] && !ltt_session_find_channel(sd, r->channel))
		return LTT_ERR_CHANNEL_NOT_FOUND;
	if (!d->ops->reclaim)
		return LTT_ERR_NOT_SUPPORTED;
	cds_list_for_each_entry(channel, &sd->channels, node) {
		if (r->channel[0] ? strcmp(channel->attr.name, r->channel) : channel->attr.overwrite)
			continue;
		ret = d->ops->reclaim(d, session, channel, r->older_than_ns, &r->subbufs,
				      &r->bytes);
		if (ret == -EOPNOTSUPP)
			return LTT_ERR_RECLAIM_OVERWRITE;
		if (ret == -ETIMEDOUT)
			return LTT_ERR_CONSUMERD_STALLED;
		if (ret)
			return LTT_ERR_CONSUMERD;
	}
	return LTT_ERR_OK;
}

enum ltt_error_code ltt_cmd_reclaim_memory(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
					   struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);
	struct reclaim r = { .channel = ltt_rbuf_get_str(req, LTT_NAME_MAX) };
	enum ltt_error_code ret;

	r.older_than_ns = ltt_rbuf_get_u64(req);
	if (ltt_rbuf_end(req))
		return LTT_ERR_PROTOCOL;
	ret = ltt_cmd_with_session(ctx, name, reclaim_locked, &r);
	if (ret)
		return ret;
	ltt_wbuf_put_u64(reply, r.subbufs);
	ltt_wbuf_put_u64(reply, r.bytes);
	return reply->err ? LTT_ERR_NOMEM : LTT_ERR_OK;
}
