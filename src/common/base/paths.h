/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * paths.h - where ltt keeps its files: home, run directories, traces.
 */
#ifndef LTT_COMMON_PATHS_H
#define LTT_COMMON_PATHS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define LTT_ROOT_RUNDIR "/run/ltt"
#define LTT_PERSONAL_RUNDIR_NAME ".ltt"
#define LTT_RC_NAME ".lttrc"
#define LTT_TRACES_DIR_NAME "ltt-traces"	/* in a home of ltt's layout */
#define LTT_LTTNG_TRACES_DIR_NAME "lttng-traces"	/* in $LTTNG_HOME */
#define LTT_STATEDIR_ENV "LTT_STATEDIR"	/* a daemon's state directory (ltt_state_dir()) */

/*
 * What ltt keeps in a home directory, as ltt_home_find() resolves it.
 * The home is $LTT_HOME, else $LTTNG_HOME, else $HOME, else the passwd
 * entry's home; $LTTNG_HOME's (without $LTT_HOME) has LTTng's layout,
 * where the default traces directory is lttng-traces, as LTTng's.
 */
enum ltt_home_file {
	LTT_HOME_DIR,		/* the home directory itself */
	LTT_HOME_RUNDIR,	/* .ltt: a personal daemon's run directory */
	LTT_HOME_RC,		/* .lttrc: lttctl's current session */
	LTT_HOME_TRACES,	/* ltt-traces; lttng-traces in $LTTNG_HOME */
	LTT_HOME_SESSIONS,	/* .lttng/sessions: saved sessions, as LTTng's */
	LTT_HOME_AUTOLOAD,	/* .lttng/sessions/auto: loaded by a daemon at start */
	/*
	 * .lttng/agent.port, in the home LTTng's agents read: $LTTNG_HOME,
	 * else $HOME, else the passwd entry's ($LTT_HOME is not theirs)
	 */
	LTT_HOME_AGENT_PORT,
	/* .lttng in that same home: an LTTng client's run directory (lttng-compat) */
	LTT_HOME_LTTNG_RUNDIR,
	/*
	 * .ltt/sessions and .ltt/sessions/auto: where ltt kept saved
	 * sessions before it took LTTng's place; still read (after the
	 * above, which win by name), never written
	 */
	LTT_HOME_SESSIONS_OLD,
	LTT_HOME_AUTOLOAD_OLD,
};

/**
 * ltt_home_find() - the path of @what (enum ltt_home_file) for this
 * process, into @buf: the one place every program of ltt resolves its
 * home directory and what it keeps there
 *
 * Reads the environment and, without it, the passwd entry of the real
 * uid: not for a thread that changes either.  Returns 0, -ENOENT if no
 * home is known, -ENAMETOOLONG if @len is too small.
 */
int ltt_home_find(enum ltt_home_file what, char *buf, size_t len);

/**
 * ltt_home_traces() - ltt_home_find()'s LTT_HOME_TRACES, or, @lttng,
 * LTTng's traces directory: the home's lttng-traces (a client that acts
 * as LTTng's: lttctl run as lttng, an LTTng client of the daemon)
 *
 * Returns as ltt_home_find().
 */
int ltt_home_traces(bool lttng, char *buf, size_t len);

/**
 * ltt_home_is_lttng() - does the home of ltt_home_find() have LTTng's
 * layout ($LTTNG_HOME set, $LTT_HOME not)?
 */
bool ltt_home_is_lttng(void);

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
 * ltt_state_dir() - where a daemon keeps what must outlive it and its run
 * directory, the journals from which the next daemon makes whole what a
 * death left (the session daemon's chunks, the relay's session
 * directories): $LTT_STATEDIR when set (a directory on disk, which a
 * reboot does not empty, as /run is: the systemd units give
 * /var/lib/...), else @rundir, into @buf
 *
 * Returns 1 for $LTT_STATEDIR's, 0 for @rundir, -EINVAL when
 * $LTT_STATEDIR is not an absolute path, -ENAMETOOLONG.
 */
int ltt_state_dir(const char *rundir, char *buf, size_t len);

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
