// SPDX-License-Identifier: LGPL-2.1-only
/*
 * net-module.c - loading the TLS module (net-module.h).  Built into the
 * programs that load it; links neither libnet nor OpenSSL.
 */
#include "common/base/log.h"
#include "common/net/net-module.h"

static const struct ltt_module_spec spec = {
	.path = LTT_PKGLIBDIR "/" LTT_NET_MODULE_FILE,
	.env = LTT_NET_MODULE_ENV,
	.symbol = LTT_NET_MODULE_SYMBOL,
	.what = "TLS",
};
static const struct ltt_module_head *slot;

int ltt_net_module_get(const struct ltt_net_module **ret_module, char *err, size_t errlen)
{
	const struct ltt_module_head *head;
	const struct ltt_net_module *m;
	int ret;

	ret = ltt_module_get(&spec, &slot, &head, err, errlen);
	if (ret)
		return ret;
	m = (const struct ltt_net_module *)head;
	m->log_init(ltt_log_progname(), ltt_log_level());
	*ret_module = m;
	return 0;
}
