/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * listen.h - the relay's listening addresses: parsing -C/-D/-L URLs,
 * binding, and the port files other programs (and tests) read to find a
 * relay that was given port 0.
 */
#ifndef LTT_RELAYD_LISTEN_H
#define LTT_RELAYD_LISTEN_H

#include <stdbool.h>
#include <stdint.h>

#include "common/model/uri.h"

/* Where a server listens. */
struct ltt_relay_addr {
	bool inet6;
	char host[256];			/* a literal or a name; "0.0.0.0" by default */
	uint16_t port;			/* 0: any free port */
};

/**
 * ltt_relay_addr_parse() - a -C/-D/-L argument: tcp://HOST[:PORT],
 * tcp4://HOST[:PORT] or tcp6://[ADDR][:PORT] (common/model/uri.h), PORT 0
 * allowed; without a port, @default_port
 * @why: an explanation when it fails, @why_len bytes
 *
 * Returns 0, or -EINVAL (with @why) for anything else: another scheme, a
 * path, a bad host or port.
 */
int ltt_relay_addr_parse(const char *text, uint16_t default_port, struct ltt_relay_addr *ret_addr,
			 char *why, unsigned long why_len);

/**
 * ltt_relay_addr_format() - "HOST:PORT" or "[ADDR]:PORT" for messages
 */
void ltt_relay_addr_format(const struct ltt_relay_addr *addr, char *buf, unsigned long len);

/**
 * ltt_relay_listen() - a listening, non-blocking, close-on-exec TCP
 * socket on @addr
 * @ret_port: the port it listens on (the one the kernel chose for port 0)
 *
 * Returns 0 or a negative errno: -EADDRINUSE, -EADDRNOTAVAIL, -EACCES
 * (a privileged port), -ENOENT (the name does not resolve)...
 */
int ltt_relay_listen(const struct ltt_relay_addr *addr, int *ret_fd, uint16_t *ret_port);

/**
 * ltt_relay_port_file_write() - write "PORT\n" to @dir/relayd-@kind.port,
 * replaced at once (ltt_file_replace(): a reader sees the whole file or none)
 *
 * Returns 0 or a negative errno.
 */
int ltt_relay_port_file_write(const char *dir, const char *kind, uint16_t port);

/** ltt_relay_port_file_remove() - remove @dir/relayd-@kind.port */
void ltt_relay_port_file_remove(const char *dir, const char *kind);

#endif /* LTT_RELAYD_LISTEN_H */
