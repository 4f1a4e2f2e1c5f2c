// SPDX-License-Identifier: GPL-2.0-only
/*
 * privsep.c - the privileged part's table of allowed requests (see
 * privsep.h, priv/priv.h): nothing else reaches what it keeps.
 */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "sessiond/kabi/kabi-remote.h"
#include "sessiond/kabi/kabi-tracefs.h"
#include "sessiond/kernel/kmodule.h"
#include "sessiond/priv/priv.h"
#include "sessiond/privsep.h"

/* A probes list as ltt-sessiond --kmod-probes takes it: names and commas. */
static bool probes_ok(const char *p)
{
	size_t n = strspn(p, "abcdefghijklmnopqrstuvwxyz0123456789_,");

	return p[n] == '\0' && n < LTT_KMODULE_WHY_MAX / 2;
}

static int kmod_load(void *state, struct ltt_rbuf *r, struct ltt_wbuf *w, int *ret_fd)
{
	const char *name = ltt_rbuf_get_str(r, 64);
	int has_probes = ltt_rbuf_get_bool(r);
	const char *probes = ltt_rbuf_get_str(r, LTT_KMODULE_WHY_MAX);
	char why[LTT_KMODULE_WHY_MAX] = "";
	bool loaded = false;
	int ret;

	(void)state;
	(void)ret_fd;
	/* the tracer's module only, with probe names only */
	if (ltt_rbuf_end(r) || strcmp(name, LTT_KMODULE_TRACER) || !probes_ok(probes))
		return -EINVAL;
	ret = ltt_kmodule_load(name, has_probes ? probes : NULL, why, sizeof(why), &loaded);
	ltt_wbuf_put_u32(w, (uint32_t)ret);
	ltt_wbuf_put_u8(w, loaded);
	ltt_wbuf_put_str(w, why);
	return 0;
}

static int kmod_unload(void *state, struct ltt_rbuf *r, struct ltt_wbuf *w, int *ret_fd)
{
	const char *name = ltt_rbuf_get_str(r, 64);

	(void)state;
	(void)w;
	(void)ret_fd;
	if (ltt_rbuf_end(r) || strcmp(name, LTT_KMODULE_TRACER))
		return -EINVAL;
	ltt_kmodule_unload(name);
	return 0;
}

static const struct ltt_priv_handler requests[] = {
	{ LTT_PRIV_KABI_OPEN, "KABI_OPEN", 6, ltt_kabi_serve_open },
	{ LTT_PRIV_KABI_RUN, "KABI_RUN", 12, ltt_kabi_serve_run },
	{ LTT_PRIV_KABI_RELEASE, "KABI_RELEASE", 4, ltt_kabi_serve_release },
	{ LTT_PRIV_KMOD_LOAD, "KMOD_LOAD", 3, kmod_load },
	{ LTT_PRIV_KMOD_UNLOAD, "KMOD_UNLOAD", 1, kmod_unload },
};

/* The kernel tracer's backends the privileged part runs (KABI_OPEN names one). */
static const struct ltt_kabi_backend *const backends[] = { &ltt_kabi_module, &ltt_kabi_tracefs };

int ltt_privsep_serve(int fd, pid_t daemon)
{
	struct ltt_kabi_server kabi = {
		.backends = backends, .nr_backends = sizeof(backends) / sizeof(backends[0]),
	};

	ltt_kabi_tracefs_name_pid(daemon);
	ltt_priv_serve(fd, requests, sizeof(requests) / sizeof(requests[0]), &kabi);
	ltt_kabi_server_fini(&kabi);
	return 0;
}
