/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * bridge.h - lttctl view --live's local bridge to a relay that speaks only
 * TLS: live viewers that do not speak TLS (babeltrace2) connect in plain
 * to a loopback port, and each connection is forwarded, byte for byte,
 * over its own TLS 1.3 connection to the relay's live port (common/net/xport.h,
 * our certificate shown, the relay's checked against the CA and host),
 * through the TLS module (common/net/net-module.h) the caller loaded.
 */
#ifndef LTT_CTL_BRIDGE_H
#define LTT_CTL_BRIDGE_H

#include <stdint.h>

struct ltt_net_module;
struct ltt_xport_ctx;

/* Viewers served at once; more wait in the listen backlog. */
#define CTL_BRIDGE_MAX_PAIRS 16

/**
 * ctl_bridge_listen() - listen on 127.0.0.1:@port (0: a free port)
 * @ret_fd: the listening socket (non-blocking, close-on-exec)
 * @ret_port: the port it listens on
 *
 * Returns 0 or a negative errno.
 */
int ctl_bridge_listen(uint16_t port, int *ret_fd, uint16_t *ret_port);

/**
 * ctl_bridge_run() - forward every connection on @listen_fd to @port of
 * @host in TLS with @tls; returns only on an error of the listening
 * socket or of poll() (a connection's own failure closes that one, said
 * on stderr)
 * @net: the TLS module that loaded @tls
 * @family: enum ltt_uri_family of @host
 *
 * Returns a negative errno.
 */
int ctl_bridge_run(const struct ltt_net_module *net, int listen_fd, int family, const char *host,
		   uint16_t port, struct ltt_xport_ctx *tls);

#endif /* LTT_CTL_BRIDGE_H */
