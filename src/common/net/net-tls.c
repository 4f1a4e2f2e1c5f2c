// SPDX-License-Identifier: LGPL-2.1-only
/*
 * net-tls.c - the table of the TLS module, net-tls.so (net-module.h):
 * libnet's own calls, which the module links with OpenSSL.
 */
#include "common/base/log.h"
#include "common/net/net-module.h"
#include "common/net/relay-conn.h"

/* The module's one export, found by ltt_net_module_get()'s dlsym(). */
extern const struct ltt_net_module ltt_net_tls_module;
const struct ltt_net_module ltt_net_tls_module = {
	.head = { .version = PACKAGE_VERSION },
	.log_init = ltt_log_init,
	.ctx_create = ltt_xport_ctx_create,
	.ctx_destroy = ltt_xport_ctx_destroy,
	.conn_open = ltt_relay_conn_open,
	.destroy = ltt_xport_destroy,
	.fd = ltt_xport_fd,
	.events = ltt_xport_events,
	.read = ltt_xport_read,
	.write = ltt_xport_write,
};
