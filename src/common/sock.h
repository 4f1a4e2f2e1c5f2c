/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sock.h - Unix socket and fd I/O helpers shared by the daemons and clients.
 */
#ifndef LTT_COMMON_SOCK_H
#define LTT_COMMON_SOCK_H

#include <stddef.h>
#include <sys/socket.h>
#include <sys/types.h>

/**
 * ltt_sock_listen_unix() - bind and listen on a stream socket at @path
 * @path: the socket's path; an existing file there is replaced, so call
 *        this only while holding the run directory's lock
 * @mode: the socket file's permissions
 * @ret_fd: the listening socket (close-on-exec, non-blocking)
 *
 * Returns 0 or a negative errno (-ENAMETOOLONG for a path that does not
 * fit sockaddr_un).
 */
int ltt_sock_listen_unix(const char *path, mode_t mode, int *ret_fd);

/**
 * ltt_sock_connect_unix() - connect a blocking stream socket to @path
 * @ret_fd: the connected socket (close-on-exec)
 *
 * Returns 0 or a negative errno: -ENOENT or -ECONNREFUSED when nobody
 * listens, -EACCES when the socket's permissions refuse us.
 */
int ltt_sock_connect_unix(const char *path, int *ret_fd);

/**
 * ltt_sock_peer_cred() - the pid, uid and gid of the peer of @fd
 */
int ltt_sock_peer_cred(int fd, struct ucred *ret_cred);

/**
 * ltt_io_write_all() - write all of @buf, retrying on EINTR and short writes
 *
 * Returns 0 or a negative errno (-EPIPE when the peer is gone).
 */
int ltt_io_write_all(int fd, const void *buf, size_t len);

/**
 * ltt_io_read_all() - read exactly @len bytes
 *
 * Returns 0, -ECONNRESET if the peer closed before @len bytes, or a
 * negative errno.
 */
int ltt_io_read_all(int fd, void *buf, size_t len);

#endif /* LTT_COMMON_SOCK_H */
