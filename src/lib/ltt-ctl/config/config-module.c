// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-module.c - the XML module of saved sessions (config-module.h),
 * dlopen()ed on the first save or load (common/base/module.h).
 */
#include "common/base/module.h"
#include "lib/ltt-ctl/config/config-module.h"

static const struct ltt_module_spec spec = {
	.path = LTT_PKGLIBDIR "/" LTT_CFG_MODULE_FILE,
	.env = LTT_CFG_MODULE_ENV,
	.symbol = LTT_CFG_MODULE_SYMBOL,
	.what = "XML",
};
static const struct ltt_module_head *slot;

int ltt_cfg_module_get(const struct ltt_cfg_module **ret_module, char *err, size_t errlen)
{
	const struct ltt_module_head *head;

	if (ltt_module_get(&spec, &slot, &head, err, errlen))
		return -LTT_ERR_CONFIG_MODULE;
	*ret_module = (const struct ltt_cfg_module *)head;
	return 0;
}
