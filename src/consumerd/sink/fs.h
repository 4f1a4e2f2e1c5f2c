/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fs.h - the consumer's privileged part: creating directories and files
 * on behalf of the user who owns a trace.
 *
 * A consumer spawned by the root session daemon writes traces for other
 * users: it creates, opens and unlinks for them with their filesystem
 * ids (setfsuid/setfsgid on the calling thread, which drops root's
 * filesystem capabilities meanwhile), so it can reach only what they
 * could reach and what it creates is theirs.  Components that already
 * exist are left as they are.  Files are never opened in place: a name is
 * unlinked, then created with O_EXCL | O_NOFOLLOW.
 *
 * Any thread; the functions only touch what they are given.
 */
#ifndef LTT_CONSUMERD_FS_H
#define LTT_CONSUMERD_FS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define LTT_FS_DIR_MODE 0770
#define LTT_FS_FILE_MODE 0660

/* Who gets what the consumer creates for a trace. */
struct ltt_owner {
	uid_t uid;
	gid_t gid;
};

/**
 * ltt_fs_mkdir_path() - create the absolute directory @path and its
 * missing parents, each new one owned by @owner
 * @path: absolute, without "." or ".." components (borrowed)
 * @owner: borrowed
 * @ret_fd: the directory, opened O_PATH | O_DIRECTORY | O_CLOEXEC (caller closes)
 *
 * Returns 0, -EINVAL for a relative path or a "."/".." component,
 * -ENAMETOOLONG, or the negative errno of the failing mkdirat, openat or
 * fchown (-EPERM: we may not give files to @owner).
 */
int ltt_fs_mkdir_path(const char *path, const struct ltt_owner *owner, int *ret_fd);

/**
 * ltt_fs_mkdirat() - create directory @name in @dir_fd (or use the one
 * there), owned by @owner if new
 * @ret_fd: the directory, opened O_PATH | O_DIRECTORY | O_CLOEXEC (caller closes)
 *
 * Returns 0 or a negative errno.
 */
int ltt_fs_mkdirat(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd);

/**
 * ltt_fs_remove_trace_files() - remove, as @owner, the files of an old
 * trace: the regular files of directory @dir_fd and of its index
 * directory @index_fd (-1: none)
 * @owner: borrowed
 *
 * Returns 0 or the first negative errno (what could be removed is).
 */
int ltt_fs_remove_trace_files(int dir_fd, int index_fd, const struct ltt_owner *owner);

/**
 * ltt_fs_open_dir() - open the directory @dir_fd (an O_PATH one) for
 * reading, as @owner, for what an O_PATH descriptor can't do (flock())
 * @owner: borrowed
 * @ret_fd: the directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC (caller closes)
 *
 * Returns 0 or the negative errno of openat (-EACCES: @owner may not read it).
 */
int ltt_fs_open_dir(int dir_fd, const struct ltt_owner *owner, int *ret_fd);

/**
 * ltt_fs_create() - create the file @name in @dir_fd, empty, write-only,
 * owned by @owner, replacing whatever had that name
 * @ret_fd: the file, O_WRONLY | O_CLOEXEC (caller closes)
 *
 * Returns 0 or a negative errno (-EEXIST if a file reappeared between the
 * unlink and the creation: someone races us).
 */
int ltt_fs_create(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd);

/**
 * ltt_fs_create_new() - ltt_fs_create(), but never replacing: -EEXIST if
 * @name is there (a trace's metadata: an existing trace is not overwritten)
 */
int ltt_fs_create_new(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd);

/**
 * ltt_fs_reopen() - open an existing file a consumer made for @owner, to
 * continue it (a consumer taking over a dead one's trace)
 * @ret_fd: read-write, close-on-exec
 * @ret_size: its size
 *
 * Opened as @owner, without following a link; it must be a regular file
 * of @owner's with one name (a planted hard link is refused).  Returns 0,
 * -ENOENT (not there), -EPERM (not such a file), or openat()'s error.
 */
int ltt_fs_reopen(int dir_fd, const char *name, const struct ltt_owner *owner, int *ret_fd,
		  uint64_t *ret_size);

/**
 * ltt_fs_probe() - can @owner write a trace under @path?
 * @path: absolute; created with its missing parents (ltt_fs_mkdir_path())
 *
 * Writes one page to a new file in @path, as @owner, and removes it: a
 * file system without room, a directory the owner can't write to, or no
 * descriptor left answer here rather than once the session records.
 * Command thread.  Returns 0 or the negative errno of the step that
 * failed (-EACCES, -EROFS, -ENOSPC, -EDQUOT, -EMFILE, -ENFILE, -ENOENT,
 * -ENOTDIR, -EINVAL, -ENAMETOOLONG).
 */
int ltt_fs_probe(const char *path, const struct ltt_owner *owner);

#endif /* LTT_CONSUMERD_FS_H */
