/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * net-module.h - the boundary between a program and libnet's TLS: the
 * transport (xport.h) and the relay connection (relay-conn.h) built into
 * a private module, net-tls.so in ltt's library directory ($pkglibdir),
 * with OpenSSL under them, which a program that needs TLS only for a few
 * commands loads on their first use (module.h): lttctl's other commands
 * start without libssl and libcrypto.  The daemons link libnet itself.
 *
 * The table points at libnet's own functions: the module is libnet, not
 * a second transport.  Its structs are this build's, so the module and
 * the program must come from the same build (head.version).
 */
#ifndef LTT_COMMON_NET_MODULE_H
#define LTT_COMMON_NET_MODULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/base/module.h"
#include "common/net/xport.h"

/* The module's file name in $pkglibdir, the variable that names another. */
#define LTT_NET_MODULE_FILE "net-tls.so"
#define LTT_NET_MODULE_ENV "LTT_NET_TLS_PATH"
/* The one symbol the module exports: its struct ltt_net_module. */
#define LTT_NET_MODULE_SYMBOL "ltt_net_tls_module"

/* What the module provides: each member is the libnet call it names. */
struct ltt_net_module {
	struct ltt_module_head head;
	/* ltt_log_init(), log.h: the module's messages carry the program's name */
	void (*log_init)(const char *progname, int level);
	/* ltt_xport_ctx_create(), xport.h */
	int (*ctx_create)(const struct ltt_xport_tls_files *files, bool server, char *err,
			  size_t err_len, struct ltt_xport_ctx **ret_ctx);
	/* ltt_xport_ctx_destroy() */
	void (*ctx_destroy)(struct ltt_xport_ctx *ctx);
	/* ltt_relay_conn_open(), relay-conn.h */
	int (*conn_open)(int family, const char *host, uint16_t port, struct ltt_xport_ctx *tls,
			 uint64_t deadline, const char *label, struct ltt_xport **ret_x);
	/* ltt_xport_destroy(), ltt_xport_fd(), ltt_xport_events() */
	void (*destroy)(struct ltt_xport *x);
	int (*fd)(const struct ltt_xport *x);
	uint32_t (*events)(const struct ltt_xport *x);
	/* ltt_xport_read(), ltt_xport_write() */
	ssize_t (*read)(struct ltt_xport *x, void *buf, size_t len);
	ssize_t (*write)(struct ltt_xport *x, const void *buf, size_t len);
};

/**
 * ltt_net_module_get() - the TLS module, loaded on the first call
 * @ret_module: receives the module (static: never unloaded, OpenSSL
 *              keeps global state); its log_init() already called with
 *              this program's name and verbosity
 * @err: receives, on failure, the file and why it does not load
 * @errlen: size of @err
 *
 * Loads $LTT_NET_TLS_PATH when set (a build tree, a tree installed
 * elsewhere), else $pkglibdir/net-tls.so.  A failure is not kept: a
 * later call tries again.  Any thread.  Returns 0 or -ENOENT.
 */
int ltt_net_module_get(const struct ltt_net_module **ret_module, char *err, size_t errlen);

#endif /* LTT_COMMON_NET_MODULE_H */
