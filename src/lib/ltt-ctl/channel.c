// SPDX-License-Identifier: LGPL-2.1-only
/*
 * channel.c - libltt-ctl's channel calls: the defaults of a domain's
 * channel, enable (create or re-enable) and disable.
 */
#include <string.h>

#include <ltt/ltt-ctl.h>

#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

int ltt_ctl_channel_attr_init(struct ltt_channel_attr *attr, enum ltt_domain domain)
{
	struct ltt_channel_conf conf;
	int ret;

	if (!attr)
		return -LTT_ERR_INVAL;
	ret = ctl_err(ltt_attr_channel_defaults(&conf, domain));
	if (!ret)
		ltt_conv_channel_conf_to_attr(&conf, attr);
	return ret;
}

int ltt_ctl_enable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			   const struct ltt_channel_attr *attr)
{
	struct ltt_channel_conf checked;
	enum ltt_error_code code;
	struct ltt_wbuf w;
	int ret;

	if (!attr)
		return -LTT_ERR_INVAL;
	code = ltt_conv_channel_attr_to_conf(attr, &checked);
	if (!code)
		code = ltt_attr_check_channel(&checked, domain);
	if (code)
		return ctl_err(code);
	if (checked.fsync && ctl_minor(ctl) < LTT_CLIENT_MINOR_FSYNC)
		return -LTT_ERR_NOT_SUPPORTED;	/* the daemon predates --fsync */
	if (checked.preallocation && ctl_minor(ctl) < LTT_CLIENT_MINOR_PREALLOC)
		return -LTT_ERR_NOT_SUPPORTED;	/* it predates --buffer-preallocation */
	if (checked.allocation && ctl_minor(ctl) < LTT_CLIENT_MINOR_ALLOCATION)
		return -LTT_ERR_NOT_SUPPORTED;	/* it predates --buffer-allocation */
	if (checked.auto_reclaim && ctl_minor(ctl) < LTT_CLIENT_MINOR_AUTO_RECLAIM)
		return -LTT_ERR_NOT_SUPPORTED;	/* it predates --auto-reclaim-memory */
	if (checked.blocking_timeout_us && ctl_minor(ctl) < LTT_CLIENT_MINOR_BLOCKING)
		return -LTT_ERR_BLOCKING_DAEMON;	/* it would drop it: say so */
	ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_proto_put_channel_conf(&w, &checked, ctl_minor(ctl));
	return ctl_send_req(ctl, LTT_CLIENT_CMD_ENABLE_CHANNEL, &w, NULL, NULL);
}

int ltt_ctl_disable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			    const char *channel)
{
	struct ltt_wbuf w;
	int ret;

	if (!channel || strlen(channel) >= LTT_NAME_MAX)
		return -LTT_ERR_INVAL;
	ret = ctl_begin_domain_req(&w, ctl, session, domain);
	if (ret)
		return ret;
	ltt_wbuf_put_str(&w, channel);
	return ctl_send_req(ctl, LTT_CLIENT_CMD_DISABLE_CHANNEL, &w, NULL, NULL);
}
