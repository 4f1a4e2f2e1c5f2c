/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * sock.h - Unix socket and fd I/O helpers shared by the daemons and clients.
 */
#ifndef LTT_COMMON_SOCK_H
#define LTT_COMMON_SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/uio.h>

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
 * ltt_sock_connect_unix_nb() - connect a non-blocking stream socket to @path
 * @ret_fd: the connected socket (close-on-exec, non-blocking)
 *
 * Never waits.  Returns 0 or a negative errno: -ENOENT or -ECONNREFUSED
 * when nobody listens, -EAGAIN when a listener's backlog is full (it is
 * there but not accepting), -EACCES when the permissions refuse us.
 */
int ltt_sock_connect_unix_nb(const char *path, int *ret_fd);

/**
 * ltt_sock_unix_answers() - does something listen on the socket at @path?
 *
 * A connection that the listener's backlog takes or refuses for being
 * full counts: a stopped daemon still holds its socket.  Never waits.
 * Returns true if so.
 */
bool ltt_sock_unix_answers(const char *path);

/**
 * ltt_deadline_ms() - CLOCK_MONOTONIC now plus @ms, in milliseconds
 */
int64_t ltt_deadline_ms(int64_t ms);

/**
 * ltt_io_write_all_until() - ltt_io_write_all() on a non-blocking @fd,
 * waiting at most until @deadline (ltt_deadline_ms()) for room
 *
 * Returns 0, -ETIMEDOUT, or a negative errno.
 */
int ltt_io_write_all_until(int fd, const void *buf, size_t len, int64_t deadline);

/**
 * ltt_io_read_all_until() - ltt_io_read_all() on a non-blocking @fd,
 * waiting at most until @deadline for bytes
 *
 * Returns 0, -ETIMEDOUT, -ECONNRESET (closed early) or a negative errno.
 */
int ltt_io_read_all_until(int fd, void *buf, size_t len, int64_t deadline);

/**
 * ltt_sock_peer_cred() - the pid, uid and gid of the peer of @fd
 */
int ltt_sock_peer_cred(int fd, struct ucred *ret_cred);

/**
 * ltt_fd_keep_only() - in a child just forked: @fd becomes descriptor 3
 * (kept across exec) and every descriptor above 3 is closed, so that the
 * child holds stdio and @fd, nothing else of its parent's (a link, a
 * pidfd, a tracer's object it could keep alive past the parent's close)
 *
 * Returns 0, or -1 (errno set) when @fd could not be made descriptor 3.
 */
int ltt_fd_keep_only(int fd);

/**
 * ltt_fd_close() - close *@fd when it is open (>= 0), and mark it closed
 * (-1), so that a teardown can close whatever a half-done set-up opened
 */
void ltt_fd_close(int *fd);

/**
 * ltt_io_write_all() - write all of @buf, retrying on EINTR and short writes
 *
 * Returns 0 or a negative errno (-EPIPE when the peer is gone).
 */
int ltt_io_write_all(int fd, const void *buf, size_t len);

/**
 * ltt_io_pwritev_all() - write all of @iov at @offset of @fd, retrying
 * short writes and EINTR
 * @iov: @iovcnt buffers, consumed: what went out is taken off them
 *
 * Any thread.  Returns 0 or a negative errno (-ENOSPC, -EIO when nothing
 * goes out, -EINVAL for an @offset past INT64_MAX), in which case part of
 * the data may have been written: the caller cuts the file back with
 * ftruncate().
 */
int ltt_io_pwritev_all(int fd, struct iovec *iov, int iovcnt, uint64_t offset);

/**
 * ltt_io_read_all() - read exactly @len bytes
 *
 * Returns 0, -ECONNRESET if the peer closed before @len bytes, or a
 * negative errno.
 */
int ltt_io_read_all(int fd, void *buf, size_t len);

/**
 * ltt_io_read_file() - the whole of regular file @fd (from offset 0,
 * with pread: its offset stays) into @ret_data (malloc'd: the caller
 * frees it), @ret_len bytes (shorter than its size if it shrank meanwhile)
 * @max: the largest size taken
 *
 * Returns 0, -ENOEXEC (not a regular file), -EFBIG (over @max bytes),
 * -ENOMEM, or another negative errno.
 */
int ltt_io_read_file(int fd, size_t max, void **ret_data, size_t *ret_len);

#endif /* LTT_COMMON_SOCK_H */
