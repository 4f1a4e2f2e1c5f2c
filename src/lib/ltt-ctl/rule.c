// SPDX-License-Identifier: LGPL-2.1-only
/*
 * rule.c - libltt-ctl's event rule calls: enable, disable (by pattern or
 * one rule exactly), the filter syntax check, and the rules of
 * GET_SESSION's reply with their filters and exclusions (client protocol
 * minor 7, LTT_CLIENT_MINOR_FILTER).
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/model/agent.h"
#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/ctl-internal.h"

/*
 * @attr as the daemon takes it: converted, exclusions in their one form,
 * checked for @domain, and refused when the daemon is too old for it.
 */
static int rule_conf(const struct ltt_ctl *ctl, enum ltt_domain domain,
		     const struct ltt_event_rule_attr *attr, struct ltt_rule_conf *conf)
{
	enum ltt_error_code code = ltt_conv_rule_attr_to_conf(attr, conf);

	if (!code)
		code = ltt_attr_normalize_exclusions(conf->pattern, conf->exclusions,
						     sizeof(conf->exclusions));
	if (!code)
		code = ltt_attr_check_rule(conf);
	if (!code)
		code = ltt_attr_check_rule_domain(conf, domain);
	if (code == LTT_ERR_EVENT_NAME && ltt_agent_domain(domain))
		code = LTT_ERR_PYTHON_NAME;
	if (code)
		return ctl_err(code);
	/* A daemon of minor 0 knows tracepoint rules only. */
	if (conf->type != LTT_EVENT_TRACEPOINT && ctl_minor(ctl) < 1)
		return -LTT_ERR_NOT_SUPPORTED;
	if ((conf->filter[0] || conf->exclusions[0]) && ctl_minor(ctl) < LTT_CLIENT_MINOR_FILTER)
		return -LTT_ERR_NOT_SUPPORTED;
	if (ltt_event_type_is_probe(conf->type) && ctl_minor(ctl) < LTT_CLIENT_MINOR_PROBE)
		return -LTT_ERR_NOT_SUPPORTED;
	return 0;
}

int ltt_ctl_enable_event(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			 const char *channel, const struct ltt_event_rule_attr *attr)
{
	struct ltt_rule_conf conf;
	struct ltt_wbuf w;
	int ret;

	if (!ctl || !attr || (channel && strlen(channel) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	ret = rule_conf(ctl, domain, attr, &conf);
	if (!ret)
		ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_wbuf_put_str(&w, channel ? channel : "");
	ltt_proto_put_rule_attr(&w, &conf, ctl_minor(ctl));
	return ctl_send_req(ctl, LTT_CLIENT_CMD_ENABLE_EVENT, &w, NULL, NULL);
}

/* DISABLE_EVENT: every rule of @pattern (NULL: of the channel), or @exact only. */
static int disable(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		   const char *channel, const char *pattern, const struct ltt_rule_conf *exact)
{
	struct ltt_disable_event_req req = { .all = !pattern, .exact = exact != NULL };
	struct ltt_wbuf w;
	int ret;

	if (!ctl || (channel && strlen(channel) >= LTT_NAME_MAX) ||
	    (pattern && strlen(pattern) >= LTT_NAME_MAX))
		return -LTT_ERR_INVAL;
	if (exact && ctl_minor(ctl) < LTT_CLIENT_MINOR_FILTER)
		return -LTT_ERR_NOT_SUPPORTED;
	strcpy(req.channel, channel ? channel : "");
	strcpy(req.pattern, pattern ? pattern : "");
	if (exact)
		req.rule = *exact;
	ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_proto_put_disable_event(&w, &req, ctl_minor(ctl));
	return ctl_send_req(ctl, LTT_CLIENT_CMD_DISABLE_EVENT, &w, NULL, NULL);
}

int ltt_ctl_disable_event(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			  const char *channel, const char *pattern)
{
	return disable(ctl, session, domain, channel, pattern, NULL);
}

int ltt_ctl_disable_event_rule(struct ltt_ctl *ctl, const char *session,
			       enum ltt_domain domain, const char *channel,
			       const struct ltt_event_rule_attr *attr)
{
	struct ltt_rule_conf conf;
	int ret;

	if (!ctl || !attr)
		return -LTT_ERR_INVAL;
	ret = rule_conf(ctl, domain, attr, &conf);
	if (ret)
		return ret;
	/* An older daemon can disable by pattern only: right when nothing else names the rule. */
	if (ctl_minor(ctl) < LTT_CLIENT_MINOR_FILTER)
		return -LTT_ERR_NOT_SUPPORTED;
	return disable(ctl, session, domain, channel, conf.pattern, &conf);
}

int ltt_ctl_filter_check(const char *filter, char *msg, size_t size)
{
	if (!filter || strlen(filter) >= LTT_FILTER_MAX) {
		if (msg && size)
			snprintf(msg, size, "a filter expression is at most %d bytes",
				 LTT_FILTER_MAX - 1);
		return -LTT_ERR_FILTER;
	}
	return ctl_err(ltt_attr_check_filter(filter, msg, size));
}

/* Bytes a rule's strings take in the block. */
static size_t strings_len(const struct ltt_rule_conf *c)
{
	return (c->filter[0] ? strlen(c->filter) + 1 : 0) +
	       (c->exclusions[0] ? strlen(c->exclusions) + 1 : 0) +
	       (c->location[0] ? strlen(c->location) + 1 : 0);
}

/* Copy @s into the block at *@p; the copy, or NULL for "". */
static const char *keep(char **p, const char *s)
{
	size_t len = strlen(s) + 1;
	char *copy = *p;

	if (len == 1)
		return NULL;
	memcpy(copy, s, len);
	*p += len;
	return copy;
}

int ctl_get_rules(struct ltt_rbuf *r, uint32_t minor, size_t nr,
		  struct ltt_session_detail **detail)
{
	struct ltt_session_detail *d = *detail, *grown;
	struct ltt_rbuf again = *r;
	struct ltt_rule_desc *desc;
	size_t i, base, chans, strings = 0;
	char *p;

	desc = malloc(sizeof(*desc));
	if (!desc)
		return -LTT_ERR_NOMEM;
	/* First the sizes, so that one block holds the rules and their strings. */
	for (i = 0; i < nr && !again.err; i++) {
		ltt_proto_get_rule_info(&again, desc, minor);
		strings += strings_len(&desc->attr);
	}
	/* the channels end what the block holds so far */
	chans = (size_t)((char *)d->channels - (char *)d);
	base = chans + d->nr_channels * sizeof(d->channels[0]);
	grown = realloc(d, base + nr * sizeof(d->rules[0]) + strings);
	if (!grown) {
		free(desc);
		return -LTT_ERR_NOMEM;
	}
	d = *detail = grown;
	d->channels = (struct ltt_channel_info *)((char *)d + chans);
	d->rules = nr ? (struct ltt_event_rule_info *)(d->channels + d->nr_channels) : NULL;
	d->nr_rules = nr;
	p = (char *)d + base + nr * sizeof(d->rules[0]);
	for (i = 0; i < nr; i++) {
		ltt_proto_get_rule_info(r, desc, minor);
		if (r->err || strings < strings_len(&desc->attr))
			break;
		strings -= strings_len(&desc->attr);
		ltt_conv_rule_desc_to_info(desc, &d->rules[i]);
		d->rules[i].attr.filter = keep(&p, desc->attr.filter);
		d->rules[i].attr.exclusions = keep(&p, desc->attr.exclusions);
		d->rules[i].attr.location = keep(&p, desc->attr.location);
	}
	free(desc);
	if (i < nr) {
		ltt_rbuf_fail(r);
		return -LTT_ERR_PROTOCOL;
	}
	return 0;
}

void ltt_ctl_event_rule_attr_init(struct ltt_event_rule_attr *attr)
{
	if (attr)
		memset(attr, 0, sizeof(*attr));
}
