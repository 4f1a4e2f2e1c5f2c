/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-common.h - libltt-ctl, its base: sizes, the domain,
 * buffer, output and log level enums, a connection (struct ltt_ctl) to a
 * session daemon, and the names of the enums.
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_COMMON_H
#define LTT_CTL_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LTT_NAME_MAX 256	/* bytes for a session, channel or event name, NUL included */
/*
 * Bytes of a channel name, NUL excluded: less than LTT_NAME_MAX - 1, as the
 * name starts the names of its stream files (NAME_CPU_N.idx, in 255 bytes).
 */
#define LTT_CHANNEL_NAME_MAX 219
#define LTT_PATH_MAX 4096	/* bytes for a path or URL, NUL included */
#define LTT_DEFAULT_CHANNEL_NAME "channel0"
#define LTT_FILTER_MAX 4097	/* bytes of a filter expression, NUL included (1.1) */
#define LTT_EXCLUSIONS_MAX 4096	/* bytes of an exclusion list, NUL included (1.1) */
/* bytes of a probe's location (--userspace-probe, --probe, --function), NUL included (1.21) */
#define LTT_LOCATION_MAX (LTT_PATH_MAX + 512)

/*
 * The reserved room at the end of each struct starts on an 8-byte boundary,
 * so a field of any type can take its first bytes.
 */
#define LTT_RESERVED_ALIGN __attribute__((aligned(8)))

enum ltt_domain {
	LTT_DOMAIN_NONE = 0,
	LTT_DOMAIN_KERNEL = 1,
	LTT_DOMAIN_USER = 2,
	/*
	 * java.util.logging (LTTng's JUL agent) and log4j 1.x (LTTng's log4j
	 * agent), as LTTng numbers them: like the python domain, with their
	 * own levels (JUL: SEVERE 1000 .. FINEST 300; log4j: FATAL 50000 ..
	 * TRACE 5000; both OFF INT32_MAX and ALL INT32_MIN), their events
	 * lttng_jul:event and lttng_log4j:event in the user-space channels
	 * "lttng_jul_channel" and "lttng_log4j_channel".  Daemons of client
	 * protocol 1.19 or later (older: -LTT_ERR_NOT_SUPPORTED).
	 */
	LTT_DOMAIN_JUL = 3,
	LTT_DOMAIN_LOG4J = 4,
	/*
	 * Python's logging module (doc/python.md: `import ltt.agent`), as
	 * LTTng numbers it.  A rule's pattern names loggers, its log level is
	 * Python's (CRITICAL 50 .. DEBUG 10; RANGE: this level and more
	 * severe); its events are the user-space event lttng_python:event in
	 * the user-space channel "lttng_python_channel".  Daemons of client
	 * protocol 1.17 or later (older: -LTT_ERR_DOMAIN).
	 */
	LTT_DOMAIN_PYTHON = 5,
};

enum ltt_buffer_type {
	LTT_BUFFER_DEFAULT = 0,		/* per-UID for user, global for kernel */
	LTT_BUFFER_PER_UID = 1,
	LTT_BUFFER_PER_PID = 2,
	LTT_BUFFER_GLOBAL = 3,
};

enum ltt_output_type {
	LTT_OUTPUT_NONE = 0,	/* --no-output */
	LTT_OUTPUT_LOCAL = 1,	/* a directory on this host */
	LTT_OUTPUT_NET = 2,	/* a relay daemon */
};

enum ltt_loglevel_type {
	LTT_LOGLEVEL_ALL = 0,	/* no log level condition */
	LTT_LOGLEVEL_RANGE = 1,	/* this level and more severe */
	LTT_LOGLEVEL_SINGLE = 2,	/* exactly this level */
};

/* The 15 syslog-like levels, most severe first, as users know them. */
enum ltt_loglevel {
	LTT_LOGLEVEL_EMERG = 0,
	LTT_LOGLEVEL_ALERT = 1,
	LTT_LOGLEVEL_CRIT = 2,
	LTT_LOGLEVEL_ERR = 3,
	LTT_LOGLEVEL_WARNING = 4,
	LTT_LOGLEVEL_NOTICE = 5,
	LTT_LOGLEVEL_INFO = 6,
	LTT_LOGLEVEL_DEBUG_SYSTEM = 7,
	LTT_LOGLEVEL_DEBUG_PROGRAM = 8,
	LTT_LOGLEVEL_DEBUG_PROCESS = 9,
	LTT_LOGLEVEL_DEBUG_MODULE = 10,
	LTT_LOGLEVEL_DEBUG_UNIT = 11,
	LTT_LOGLEVEL_DEBUG_FUNCTION = 12,
	LTT_LOGLEVEL_DEBUG_LINE = 13,
	LTT_LOGLEVEL_DEBUG = 14,
};

struct ltt_ctl;

/**
 * ltt_ctl_default_rundir() - the run directory lttctl would use
 * @buf: where to write the path
 * @len: size of @buf
 *
 * $LTT_RUNDIR if set; /run/ltt for root, and for members of the tracing
 * group ($LTT_SESSIOND_GROUP, default: tracing) when the root daemon is
 * running; $LTT_HOME/.ltt (LTT_HOME defaults
 * to HOME) otherwise.  Returns 0, -LTT_ERR_INVAL if @buf is too small or
 * no home directory is known.
 */
int ltt_ctl_default_rundir(char *buf, size_t len);

/**
 * ltt_ctl_connect() - connect to a session daemon and agree on a version
 * @rundir: the daemon's run directory, NULL for ltt_ctl_default_rundir()
 * @ret_ctl: the new connection, to close with ltt_ctl_disconnect()
 *
 * Every call on the connection, this one included, has a deadline: the
 * daemon must answer within the connection's timeout (LTT_CTL_TIMEOUT
 * seconds from the environment, LTT_CTL_DEFAULT_TIMEOUT_MS without it;
 * see ltt_ctl_set_timeout()).
 *
 * Returns 0; -LTT_ERR_SESSIOND_NOT_RUNNING when nobody listens;
 * -LTT_ERR_SESSIOND_PERM when the socket or the daemon refuses this user;
 * -LTT_ERR_SESSIOND_TIMEOUT when the daemon does not answer in time;
 * -LTT_ERR_INVAL for an invalid LTT_CTL_TIMEOUT;
 * -LTT_ERR_VERSION_MISMATCH; -LTT_ERR_NOMEM.
 */
int ltt_ctl_connect(const char *rundir, struct ltt_ctl **ret_ctl);

/* A call's deadline when LTT_CTL_TIMEOUT is not set. */
#define LTT_CTL_DEFAULT_TIMEOUT_MS 60000U

/**
 * ltt_ctl_timeout_from_env() - the timeout LTT_CTL_TIMEOUT asks for
 * @ret_ms: milliseconds; 0 means no deadline
 *
 * LTT_CTL_TIMEOUT is a number of seconds, 0 to 86400, with up to three
 * decimals ("2.5"); "0" removes the deadline.  Returns 0 (the default when
 * the variable is unset or empty) or -LTT_ERR_INVAL for any other value.
 */
int ltt_ctl_timeout_from_env(unsigned int *ret_ms);

/**
 * ltt_ctl_set_timeout() - each later call on @ctl must be answered within
 * @ms milliseconds (0: no deadline); a call past it returns
 * -LTT_ERR_SESSIOND_TIMEOUT and leaves the connection unusable (every
 * later call returns the same).  Returns 0 or -LTT_ERR_INVAL.
 */
int ltt_ctl_set_timeout(struct ltt_ctl *ctl, unsigned int ms);

/**
 * ltt_ctl_disconnect() - close a connection; accepts NULL
 */
void ltt_ctl_disconnect(struct ltt_ctl *ctl);

/**
 * ltt_ctl_rundir() - the run directory of a connection (borrowed string)
 */
const char *ltt_ctl_rundir(const struct ltt_ctl *ctl);

/**
 * ltt_ctl_spawn_sessiond() - start a personal session daemon and wait for it
 * @rundir: its run directory, NULL for the default
 *
 * Runs $LTT_SESSIOND_PATH, or the installed ltt-sessiond, with --daemonize
 * (and --group $LTT_SESSIOND_GROUP when it is set; it matters to a root
 * daemon only);
 * returns once the daemon accepts connections.  Concurrent callers for one
 * run directory are serialized (a lock file, spawn.lock, in it): the first
 * starts the daemon, the others find it answering and start none.  Waits
 * at most the LTT_CTL_TIMEOUT deadline for the daemon (which is killed
 * past it).  Returns 0 (started), 1 (none started: one already answers,
 * started meanwhile by another caller or by hand) or
 * -LTT_ERR_SESSIOND_SPAWN.
 */
int ltt_ctl_spawn_sessiond(const char *rundir);

/**
 * ltt_ctl_daemon_version() - the daemon's package version string
 * @buf: where to write it
 * @len: size of @buf
 */
int ltt_ctl_daemon_version(struct ltt_ctl *ctl, char *buf, size_t len);

/**
 * ltt_ctl_error_detail() - what the last failed save or load on @ctl was
 * about ("FILE:LINE: what is wrong", the file, the session): borrowed,
 * valid until the next call on @ctl; "" if nothing to add
 */
const char *ltt_ctl_error_detail(const struct ltt_ctl *ctl);

/**
 * ltt_loglevel_parse() - "WARNING", "warning", "LTT_LOGLEVEL_WARNING",
 * LTTng's "TRACE_WARNING", or "4"
 * @ret_level: the level
 *
 * Returns 0 or -LTT_ERR_LOGLEVEL.
 */
int ltt_loglevel_parse(const char *text, int *ret_level);

/**
 * ltt_loglevel_name() - "WARNING" for 4; "UNKNOWN" out of range
 */
const char *ltt_loglevel_name(int level);

/* The highest log level a python rule may name. */
#define LTT_PYTHON_LOGLEVEL_MAX 1000000

/**
 * ltt_loglevel_parse_domain() - a log level of @domain: for the python
 * domain, Python's names ("CRITICAL", "FATAL", "ERROR", "WARNING", "WARN",
 * "INFO", "DEBUG", "NOTSET", any case, "PYTHON_" before them as LTTng
 * writes them) or a number from 0 to LTT_PYTHON_LOGLEVEL_MAX; for the JUL
 * domain, "OFF", "SEVERE", "WARNING", "INFO", "CONFIG", "FINE", "FINER",
 * "FINEST", "ALL" ("JUL_" before them too) or any 32-bit number; for the
 * log4j domain "OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE",
 * "ALL" ("LOG4J_" too) or any 32-bit number; for the others, as
 * ltt_loglevel_parse()
 *
 * Returns 0 or -LTT_ERR_LOGLEVEL.  (1.3)
 */
int ltt_loglevel_parse_domain(enum ltt_domain domain, const char *text, int *ret_level);

/**
 * ltt_loglevel_name_domain() - @level's name in @domain ("WARNING" for the
 * python domain's 30); "UNKNOWN" when it has none  (1.3)
 */
const char *ltt_loglevel_name_domain(enum ltt_domain domain, int level);

/**
 * ltt_domain_name() - "kernel", "user" or "none"
 */
const char *ltt_domain_name(enum ltt_domain domain);

/**
 * ltt_buffer_type_name() - "per-uid", "per-pid", "global" or "default"
 */
const char *ltt_buffer_type_name(enum ltt_buffer_type type);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_COMMON_H */
