// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd-memory.c - the memory of a session's buffers (MEM_USAGE, for
 * `lttctl list --mem-usage`): measured by each domain (mem_usage), never
 * computed from the channels' sizes.  doc/memory.md.
 */
#include "common/client-proto.h"
#include "sessiond/cmd/cmd.h"
#include "sessiond/model/domain.h"

/* Where one channel's buffers go in the reply. */
struct mem_put {
	struct ltt_wbuf *reply;
	enum ltt_domain domain;
	const char *channel;
	uint32_t n;
};

static void put_stream(void *arg, const struct ltt_domain_mem *m)
{
	struct mem_put *p = arg;

	ltt_wbuf_put_u32(p->reply, (uint32_t)p->domain);
	ltt_wbuf_put_str(p->reply, p->channel);
	ltt_wbuf_put_u32(p->reply, m->uid);
	ltt_wbuf_put_u32(p->reply, (uint32_t)m->pid);
	ltt_wbuf_put_u32(p->reply, m->cpu);
	ltt_wbuf_put_u64(p->reply, m->resident);
	ltt_wbuf_put_u64(p->reply, m->size);
	p->n++;
}

void ltt_cmd_memory_put(const struct ltt_cmd_ctx *ctx, struct ltt_session *session,
			struct ltt_wbuf *reply)
{
	struct ltt_channel *channel;
	struct ltt_domain_impl *d;
	struct ltt_wbuf streams;
	struct mem_put p = { .reply = &streams };
	size_t i;

	ltt_wbuf_init(&streams);	/* the count first, known at the end */
	for (i = 0; i < LTT_NR_DOMAINS; i++) {
		d = ctx->domains->v[i];
		if (!d || !d->ops->mem_usage)
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

enum ltt_error_code ltt_cmd_mem_usage(const struct ltt_cmd_ctx *ctx, struct ltt_rbuf *req,
				      struct ltt_wbuf *reply)
{
	const char *name = ltt_rbuf_get_str(req, LTT_NAME_MAX);

	return ltt_rbuf_end(req) ? LTT_ERR_PROTOCOL :
				   ltt_cmd_view(ctx, name, LTT_CMD_VIEW_MEMORY, reply);
}
