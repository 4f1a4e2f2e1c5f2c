/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * net.h - map of src/common/net, the network transport: the one wing of
 * src/common not in libcommon.la but in libnet.la, which only the
 * programs that reach a relay link (and OpenSSL with them).
 *
 *   net.h           this map
 *   xport.[ch]      the transport seam of the relay's network paths: plain
 *                   TCP or TLS behind one set of calls
 *   relay-conn.[ch] opening a connection to ltt-relayd: resolve, connect,
 *                   the relay protocol's handshake
 *   net-tls.c       the table of the two above as a module, net-tls.so
 *   net-module.[ch] loading it on first use (libnet-module.la: neither
 *                   libnet nor OpenSSL), for lttctl's TLS commands
 */
#ifndef LTT_COMMON_NET_NET_H
#define LTT_COMMON_NET_NET_H
#endif /* LTT_COMMON_NET_NET_H */
