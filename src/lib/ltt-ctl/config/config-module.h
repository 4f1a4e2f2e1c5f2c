/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-module.h - the boundary between libltt-ctl and the XML of saved
 * sessions.  The reader and the writer (config-xml.h, config-xml-write.h)
 * and libxml2 under them live in a private module, config-xml.so in ltt's
 * library directory ($pkglibdir), which config.c loads on the first save
 * or load that needs it: every other command, every program that links
 * libltt-ctl, `import ltt` and the session daemon start without libxml2
 * (and the ICU, liblzma and libstdc++ it brings).  Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_MODULE_H
#define LTT_LIB_CONFIG_MODULE_H

#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "common/base/module.h"
#include "lib/ltt-ctl/config/config-model.h"

/* The module's file name in $pkglibdir, the variable that names another. */
#define LTT_CFG_MODULE_FILE "config-xml.so"
#define LTT_CFG_MODULE_ENV "LTT_CONFIG_XML_PATH"
/* The one symbol the module exports: its struct ltt_cfg_module. */
#define LTT_CFG_MODULE_SYMBOL "ltt_cfg_xml_module"

/*
 * What the module provides.  Its structs are the model's (config-model.h)
 * as this build lays them out, so the module and the library must come
 * from the same build: @head.version is the module's PACKAGE_VERSION, which
 * the loader compares with its own (common/base/module.h).
 */
struct ltt_cfg_module {
	struct ltt_module_head head;
	/* ltt_cfg_xml_read(), config-xml.h */
	int (*read)(struct ltt_cfg_set *set, const char *path, char *err, size_t errlen);
	/* ltt_cfg_xml_write(), config-xml-write.h */
	int (*write)(const char *path, struct ltt_session_detail *const *details,
		     const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen);
	/* ltt_cfg_lttng_write(), config-lttng-write.h: the same in LTTng's format */
	int (*write_lttng)(const char *path, struct ltt_session_detail *const *details,
			   const struct ltt_cfg_extra *extras, size_t n, char *err,
			   size_t errlen);
};

/**
 * ltt_cfg_module_get() - the XML module, loaded on the first call
 * @ret_module: receives the module (static: never unloaded, libxml2
 *              keeps global state)
 * @err: receives, on failure, the file and why it does not load
 * @errlen: size of @err
 *
 * Loads $LTT_CONFIG_XML_PATH when set (a build tree, a tree installed
 * elsewhere), else $pkglibdir/config-xml.so.  A failure is not kept: a
 * later call tries again (a module installed since).  Any thread.
 * Returns 0 or -LTT_ERR_CONFIG_MODULE.
 */
int ltt_cfg_module_get(const struct ltt_cfg_module **ret_module, char *err, size_t errlen);

#endif /* LTT_LIB_CONFIG_MODULE_H */
