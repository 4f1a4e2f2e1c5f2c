/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * paths.h - where ltt keeps its files: home, run directories, traces.
 */
#ifndef LTT_COMMON_PATHS_H
#define LTT_COMMON_PATHS_H

#include <stddef.h>
#include <sys/types.h>

#define LTT_ROOT_RUNDIR "/run/ltt"
#define LTT_PERSONAL_RUNDIR_NAME ".ltt"
#define LTT_RC_NAME ".lttrc"
#define LTT_TRACES_DIR_NAME "ltt-traces"

/**
 * ltt_home_dir() - $LTT_HOME, else $HOME, else the passwd entry's home
 *
 * Returns 0, -ENOENT if none is known, -ENAMETOOLONG if @len is too small.
 */
int ltt_home_dir(char *buf, size_t len);

/**
 * ltt_path_join() - "@dir/@name" into @buf
 *
 * Returns 0 or -ENAMETOOLONG.
 */
int ltt_path_join(char *buf, size_t len, const char *dir, const char *name);

/**
 * ltt_path_absolute() - @path as given if absolute, else joined to the
 * current directory, into @buf
 *
 * Returns 0, -ENAMETOOLONG, or getcwd()'s error.
 */
int ltt_path_absolute(char *buf, size_t len, const char *path);

/**
 * ltt_mkdir_p() - create @path and its missing parents with @mode
 *
 * Returns 0 (also when it exists as a directory) or a negative errno.
 */
int ltt_mkdir_p(const char *path, mode_t mode);

/**
 * ltt_write_control() - write @text, whole, in one write() to the
 * existing file @path under @dir_fd (AT_FDCWD, or a directory's fd),
 * truncating it: a control file of the kernel's (tracefs, /proc, /sys),
 * which takes each write as one command
 *
 * Returns 0, -EIO for a short write, or a negative errno.
 */
int ltt_write_control(int dir_fd, const char *path, const char *text);

/**
 * ltt_append_control() - ltt_write_control() without truncating: for a
 * control file whose truncation is a command of its own (tracefs'
 * uprobe_events, kprobe_events: an O_TRUNC open removes every probe)
 *
 * Returns 0, -EIO for a short write, or a negative errno.
 */
int ltt_append_control(int dir_fd, const char *path, const char *text);

#endif /* LTT_COMMON_PATHS_H */
