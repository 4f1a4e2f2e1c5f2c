// SPDX-License-Identifier: LGPL-2.1-only
/*
 * context.c - libltt-ctl's context calls: parse and list the types, add a
 * context to channels, list a session's contexts (client protocol minor 8).
 */
#include <stdlib.h>
#include <string.h>

#include "common/model/context.h"
#include "common/model/convert.h"
#include "lib/ltt-ctl/ctl-internal.h"

/* Bytes of the smallest context on the wire: two u32, a u64, a one-byte string. */
#define CTX_WIRE_MIN (4 + 4 + 8 + LTT_WIRE_STR_MIN)

int ltt_ctl_context_parse(const char *name, struct ltt_context *ret)
{
	struct ltt_ctx c;

	if (!ret)
		return -LTT_ERR_INVAL;
	if (ltt_ctx_parse(name, &c))
		return -LTT_ERR_CONTEXT_TYPE;
	ltt_conv_ctx_to_context(&c, ret);
	return 0;
}

const char *ltt_ctl_context_list_name(size_t i)
{
	return ltt_ctx_list_name(i);
}

/* The LTT_CTX_DOMAIN_* bit of @domain, 0 for none. */
static unsigned int domain_bit(enum ltt_domain domain)
{
	switch (domain) {
	case LTT_DOMAIN_KERNEL:
		return LTT_CTX_DOMAIN_KERNEL;
	case LTT_DOMAIN_USER:
		return LTT_CTX_DOMAIN_USER;
	default:
		return 0;
	}
}

const char *ltt_ctl_context_domain_list_name(enum ltt_domain domain, size_t i)
{
	unsigned int bit = domain_bit(domain);

	return bit ? ltt_ctx_list_name_domain(i, bit) : NULL;
}

bool ltt_ctl_context_in_domain(const struct ltt_context *context, enum ltt_domain domain)
{
	struct ltt_ctx c;

	if (!context || ltt_conv_context_to_ctx(context, &c) || !ltt_ctx_check(&c))
		return false;
	return (ltt_ctx_domains(&c) & domain_bit(domain)) != 0;
}

int ltt_ctl_add_context(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			const char *channel, const struct ltt_context *context)
{
	struct ltt_wbuf w;
	struct ltt_ctx c;
	int ret;

	if (!ctl || !session || !context || strlen(session) >= LTT_NAME_MAX ||
	    (channel && strlen(channel) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	if (domain != LTT_DOMAIN_KERNEL && domain != LTT_DOMAIN_USER)
		return -LTT_ERR_DOMAIN;
	ret = ctl_err(ltt_conv_context_to_ctx(context, &c));
	if (ret)
		return ret;
	if (!ltt_ctx_check(&c))
		return -LTT_ERR_CONTEXT_TYPE;
	ret = ctl_begin_session_req(&w, ctl, session, LTT_CLIENT_MINOR_CONTEXT);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(&w, (uint32_t)domain);
	ltt_wbuf_put_str(&w, channel ? channel : "");
	ltt_ctx_put(&w, &c);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_ADD_CONTEXT, &w, NULL, NULL);
}

/* One entry of LIST_CONTEXTS' reply into @element; the error goes to @r. */
static void get_context_info(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	struct ltt_context_info *out = element;
	struct ltt_ctx c;

	(void)ctl;
	memset(out, 0, sizeof(*out));
	out->domain = ltt_proto_get_domain(r);
	ltt_rbuf_get_str_copy(r, out->channel, sizeof(out->channel));
	ltt_ctx_get(r, &c);
	if (!r->err && !ltt_ctx_check(&c))
		ltt_rbuf_fail(r);
	ltt_conv_ctx_to_context(&c, &out->context);
}

static const struct ctl_list_call list_contexts = {
	LTT_CLIENT_CMD_LIST_CONTEXTS, LTT_CLIENT_MINOR_CONTEXT,
	4 + LTT_WIRE_STR_MIN + CTX_WIRE_MIN, sizeof(struct ltt_context_info), get_context_info,
	NULL,
};

int ltt_ctl_list_contexts(struct ltt_ctl *ctl, const char *session,
			  struct ltt_context_info **ret_contexts, size_t *ret_count)
{
	return ctl_session_list(ctl, &list_contexts, session, ret_contexts, ret_count);
}
