// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-module.c - the XML module of saved sessions (config-module.h),
 * dlopen()ed on the first save or load.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lib/ltt-ctl/config-module.h"

static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;
static const struct ltt_cfg_module *module;

/* Load @path's module into @ret; else say why in @err, as "PATH: why". */
static int load(const char *path, const struct ltt_cfg_module **ret, char *err, size_t errlen)
{
	const struct ltt_cfg_module *m;
	const char *why;
	void *h;

	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		why = dlerror();
		/* dlerror() names the file: "PATH: cannot open shared object file: ..." */
		ltt_cfg_err(err, errlen, "%s", why ? why : path);
		return -LTT_ERR_CONFIG_MODULE;
	}
	m = dlsym(h, LTT_CFG_MODULE_SYMBOL);
	if (!m || !m->version || !m->read || !m->write) {
		ltt_cfg_err(err, errlen, "%s: not ltt's XML module (no %s)", path,
			    LTT_CFG_MODULE_SYMBOL);
		dlclose(h);
		return -LTT_ERR_CONFIG_MODULE;
	}
	if (strcmp(m->version, PACKAGE_VERSION)) {
		ltt_cfg_err(err, errlen, "%s: ltt %s's XML module, this library is ltt %s's",
			    path, m->version, PACKAGE_VERSION);
		dlclose(h);
		return -LTT_ERR_CONFIG_MODULE;
	}
	*ret = m;
	return 0;
}

int ltt_cfg_module_get(const struct ltt_cfg_module **ret_module, char *err, size_t errlen)
{
	const char *path = secure_getenv(LTT_CFG_MODULE_ENV);
	int ret = 0;

	if (!path || !*path)
		path = LTT_PKGLIBDIR "/" LTT_CFG_MODULE_FILE;
	pthread_mutex_lock(&module_lock);
	if (!module)
		ret = load(path, &module, err, errlen);
	if (!ret)
		*ret_module = module;
	pthread_mutex_unlock(&module_lock);
	return ret;
}
