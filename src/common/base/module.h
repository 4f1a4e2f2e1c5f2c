/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * module.h - ltt's private modules: a shared object in ltt's library
 * directory ($pkglibdir) that carries a heavy library (libxml2, OpenSSL)
 * for the few commands that need it, dlopen()ed on their first use so
 * that every other run starts without it.  Each module exports one
 * symbol, a table of operations whose first member is the version of
 * ltt that built it.
 */
#ifndef LTT_COMMON_MODULE_H
#define LTT_COMMON_MODULE_H

#include <stddef.h>

/* What names one module (strings static). */
struct ltt_module_spec {
	const char *path;	/* where it is installed: $pkglibdir/FILE */
	const char *env;	/* the variable that names another (a build tree) */
	const char *symbol;	/* its one export, the table */
	const char *what;	/* in "not ltt's WHAT module": "XML", "TLS" */
};

/*
 * The head of every module's table: the module's PACKAGE_VERSION, which
 * the loader compares with its own (the table's structs are this build's).
 */
struct ltt_module_head {
	const char *version;
};

/**
 * ltt_module_get() - @spec's module, loaded on the first call
 * @spec: which module
 * @slot: the caller's static cache of it (NULL until loaded)
 * @ret_table: receives the table (static: the module is never unloaded)
 * @err: receives, on failure, "PATH: why" (dlerror()'s words, or what
 *       the file lacks)
 * @errlen: size of @err
 *
 * Loads $@spec->env when set and not empty, else @spec->path.  A failure
 * is not kept: a later call tries again (a module installed since).  Any
 * thread.  Returns 0, or -ENOENT when the module is missing, does not
 * load, or is not ltt's of this version.
 */
int ltt_module_get(const struct ltt_module_spec *spec, const struct ltt_module_head **slot,
		   const struct ltt_module_head **ret_table, char *err, size_t errlen);

/**
 * ltt_plugin_init() - load a user's plugin (LTTng-UST's clock and getcpu
 * plugins) and call its initialisation
 * @path: the shared object, as its variable names it
 * @symbol: its function void @symbol(void) to call
 * @err: receives, on failure, dlerror()'s words or "PATH has no SYMBOL()"
 * @errlen: size of @err
 *
 * The object stays loaded (the plugin's functions are used from then on).
 * Returns 0, or -1 with the sentence in @err.
 */
int ltt_plugin_init(const char *path, const char *symbol, char *err, size_t errlen);

#endif /* LTT_COMMON_MODULE_H */
