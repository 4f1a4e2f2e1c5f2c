// SPDX-License-Identifier: GPL-2.0-only
/*
 * kmodule.c - loading the kernel tracer's modules with libkmod: here, or
 * in the root daemon's privileged part (priv.h: KMOD_LOAD, KMOD_UNLOAD)
 * when it has one.
 */
#include <errno.h>
#include <libkmod.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kernel/kmodule.h"
#include "sessiond/priv/priv.h"

/* One sentence per way loading fails, each saying what to do. */
static void explain(int err, const char *name, const char *release, const char *probes,
		    char *why, size_t size)
{
	if (err == -EINVAL && probes) {
		snprintf(why, size, "the kernel module %s refused probes=%s (--kmod-probes): a name "
			 "is not one of its probe groups (dmesg lists them), or the module does "
			 "not fit kernel %s", name, probes, release);
		return;
	}
	switch (err) {
	case -ENOENT:
		snprintf(why, size, "the kernel module %s is not installed for kernel %s: "
			 "install it (make -C kmod modules_install, then depmod)", name, release);
		break;
	case -EPERM:
	case -EACCES:
		snprintf(why, size, "loading the kernel module %s needs root "
			 "(CAP_SYS_MODULE): use the root session daemon", name);
		break;
	case -EKEYREJECTED:
	case -ENOKEY:
	case -EKEYREVOKED:
	case -EKEYEXPIRED:
	case -EBADMSG:
		snprintf(why, size, "the kernel refused the signature of module %s "
			 "(module signature enforcement or Secure Boot is on): sign it with "
			 "a key the kernel trusts", name);
		break;
	case -ENOEXEC:
	case -EINVAL:
		snprintf(why, size, "the kernel module %s does not fit kernel %s "
			 "(built for another kernel?): rebuild it against this kernel's "
			 "headers; dmesg says more", name, release);
		break;
	default:
		snprintf(why, size, "cannot load the kernel module %s: %s", name, strerror(-err));
		break;
	}
}

/* Load @name in this process (root, or the privileged part). */
static int load_here(const char *name, const char *probes, char *why, size_t why_size,
		     bool *ret_loaded)
{
	bool loaded = false;
	char options[LTT_KMODULE_WHY_MAX];
	struct kmod_list *list = NULL, *it;
	struct kmod_ctx *ctx;
	struct utsname uts;
	int ret;

	if (uname(&uts) < 0)
		snprintf(uts.release, sizeof(uts.release), "(unknown)");
	if (access("/proc/modules", F_OK) < 0) {
		snprintf(why, why_size, "kernel %s cannot load modules (it was built "
			 "without CONFIG_MODULES)", uts.release);
		return -ENOSYS;
	}
	ctx = kmod_new(NULL, NULL);
	if (!ctx) {
		snprintf(why, why_size, "cannot read the module directory of kernel %s "
			 "(/lib/modules/%s)", uts.release, uts.release);
		return -ENOENT;
	}
	kmod_set_log_priority(ctx, 0);
	ret = kmod_module_new_from_lookup(ctx, name, &list);
	if (ret == 0 && !list)
		ret = -ENOENT;
	kmod_list_foreach(it, list) {
		struct kmod_module *mod = kmod_module_get_module(it);
		bool live = kmod_module_get_initstate(mod) == KMOD_MODULE_LIVE;

		if (ret == 0 && probes && live)
			LTT_WARN("kernel module %s is loaded already: --kmod-probes=%s has no "
				 "effect (unload it first)", name, probes);
		if (ret == 0) {
			snprintf(options, sizeof(options), "probes=%s", probes ? probes : "");
			ret = kmod_module_probe_insert_module(mod, 0, probes ? options : NULL,
							      NULL, NULL, NULL);
			/* What was loaded before us stays loaded after us. */
			loaded = ret == 0 && !live;
		}
		kmod_module_unref(mod);
	}
	kmod_module_unref_list(list);
	kmod_unref(ctx);
	if (ret == -EEXIST)
		ret = 0;
	*ret_loaded = loaded;
	if (ret < 0)
		explain(ret, name, uts.release, probes, why, why_size);
	else
		LTT_INFO("kernel module %s %s", name, loaded ? "loaded" : "was loaded already");
	return ret < 0 ? ret : 0;
}

static void unload_here(const char *name)
{
	struct kmod_module *mod = NULL;
	struct kmod_ctx *ctx;
	int ret;

	ctx = kmod_new(NULL, NULL);
	if (!ctx)
		return;
	ret = kmod_module_new_from_name(ctx, name, &mod);
	if (ret == 0)
		ret = kmod_module_remove_module(mod, 0);
	if (ret < 0 && ret != -ENOENT)
		LTT_INFO("kernel module %s left loaded: %s", name, strerror(-ret));
	kmod_module_unref(mod);
	kmod_unref(ctx);
}

/* Ask the privileged part (priv.h: KMOD_LOAD) to load @name. */
static int load_there(struct ltt_priv *p, const char *name, const char *probes, char *why,
		      size_t why_size, bool *ret_loaded)
{
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	int32_t err;
	int loaded, ret;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, name);
	ltt_wbuf_put_u8(&w, probes != NULL);
	ltt_wbuf_put_str(&w, probes ? probes : "");
	ret = ltt_priv_call(p, LTT_PRIV_KMOD_LOAD, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (ret) {
		snprintf(why, why_size, "the daemon's privileged part could not load the kernel "
			 "module %s: %s", name, strerror(-ret));
		return ret;
	}
	err = (int32_t)ltt_rbuf_get_u32(&r);
	loaded = ltt_rbuf_get_bool(&r);
	ltt_rbuf_get_str_copy(&r, why, why_size);
	ret = ltt_rbuf_end(&r);
	ltt_msg_fini(&m);
	if (ret || err > 0) {
		snprintf(why, why_size, "the daemon's privileged part answered a malformed reply "
			 "to loading %s", name);
		return -EPROTO;
	}
	*ret_loaded = err == 0 && loaded;
	return err;
}

int ltt_kmodule_load(const char *name, const char *probes, char *why, size_t why_size,
		     bool *ret_loaded)
{
	struct ltt_priv *p = ltt_priv_get();

	if (p)
		return load_there(p, name, probes, why, why_size, ret_loaded);
	return load_here(name, probes, why, why_size, ret_loaded);
}

void ltt_kmodule_unload(const char *name)
{
	struct ltt_priv *p = ltt_priv_get();
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	if (!p) {
		unload_here(name);
		return;
	}
	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, name);
	if (!ltt_priv_call(p, LTT_PRIV_KMOD_UNLOAD, &w, &m, &r))
		ltt_msg_fini(&m);
	ltt_wbuf_fini(&w);
}
