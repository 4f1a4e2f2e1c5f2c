// SPDX-License-Identifier: LGPL-2.1-only
/*
 * module.c - ltt's private modules (module.h): dlopen() on first use.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/module.h"

static pthread_mutex_t module_lock = PTHREAD_MUTEX_INITIALIZER;

/* Load @path's table of @spec into @ret; else say why in @err, as "PATH: why". */
static int load(const struct ltt_module_spec *spec, const char *path,
		const struct ltt_module_head **ret, char *err, size_t errlen)
{
	const struct ltt_module_head *m;
	const char *why;
	void *h;

	h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!h) {
		why = dlerror();
		/* dlerror() names the file: "PATH: cannot open shared object file: ..." */
		snprintf(err, errlen, "%s", why ? why : path);
		return -ENOENT;
	}
	m = dlsym(h, spec->symbol);
	if (!m || !m->version) {
		snprintf(err, errlen, "%s: not ltt's %s module (no %s)", path, spec->what,
			 spec->symbol);
		dlclose(h);
		return -ENOENT;
	}
	if (strcmp(m->version, PACKAGE_VERSION)) {
		snprintf(err, errlen, "%s: ltt %s's %s module, and this is ltt %s", path,
			 m->version, spec->what, PACKAGE_VERSION);
		dlclose(h);
		return -ENOENT;
	}
	*ret = m;
	return 0;
}

/*
 * A module named by @spec's variable, in a process running as root (a
 * root shell's lttctl, a daemon it starts): only an absolute path to a
 * file root owns that no one else may write, as for the installed one.
 * A file that is not there is left to dlopen() to say so.
 */
static int env_path_trusted(const struct ltt_module_spec *spec, const char *path, char *err,
			    size_t errlen)
{
	struct stat st;

	if (geteuid() != 0)
		return 0;
	if (path[0] != '/') {
		snprintf(err, errlen, "%s: %s names a relative path, which a process running as root does not load: give the module's absolute path",
			 path, spec->env);
		return -EPERM;
	}
	if (stat(path, &st) == 0 && (st.st_uid != 0 || (st.st_mode & (S_IWGRP | S_IWOTH)))) {
		snprintf(err, errlen, "%s: not root's, or writable by group or others, which a process running as root does not load (named by %s)",
			 path, spec->env);
		return -EPERM;
	}
	return 0;
}

int ltt_module_get(const struct ltt_module_spec *spec, const struct ltt_module_head **slot,
		   const struct ltt_module_head **ret_table, char *err, size_t errlen)
{
	const char *path = secure_getenv(spec->env);
	int ret = 0;

	if (!path || !*path)
		path = spec->path;
	else
		ret = env_path_trusted(spec, path, err, errlen);
	pthread_mutex_lock(&module_lock);
	if (!*slot && !ret)
		ret = load(spec, path, slot, err, errlen);
	if (!ret)
		*ret_table = *slot;
	pthread_mutex_unlock(&module_lock);
	return ret;
}

int ltt_plugin_init(const char *path, const char *symbol, char *err, size_t errlen)
{
	void *plugin = dlopen(path, RTLD_NOW);
	void (*init)(void);

	if (!plugin) {
		snprintf(err, errlen, "%s", dlerror());
		return -1;
	}
	*(void **)&init = dlsym(plugin, symbol);
	if (!init) {
		snprintf(err, errlen, "%s has no %s()", path, symbol);
		return -1;
	}
	init();
	return 0;
}
