/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-config.h - libltt-ctl, saved sessions: save to and load from
 * configuration files (doc/save-load.md).
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_CONFIG_H
#define LTT_CTL_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* A session saved or loaded, and its configuration file. */
struct ltt_session_file {
	char name[LTT_NAME_MAX];	/* loaded: the name it got (--override-name) */
	char path[LTT_PATH_MAX];	/* the configuration file */
	/*
	 * Saved (taken from the reserved bytes; NULL from an older library):
	 * why the session went to a file of ltt's format (NAME.ltt) and not
	 * of LTTng's (NAME.lttng), a sentence naming what of it only ltt has,
	 * valid while the library is loaded; NULL in LTTng's format, and for
	 * a load.
	 */
	const char *not_lttng LTT_RESERVED_ALIGN;
	uint8_t reserved[56] LTT_RESERVED_ALIGN;	/* zeroed */
};

/* What ltt_ctl_save_sessions() saves where: ltt_ctl_save_opts_init() first. */
struct ltt_save_opts {
	const char *session;	/* NULL: every session of the caller's */
	/*
	 * NULL: $LTT_HOME/.lttng/sessions (LTTng's), one file per session:
	 * NAME.lttng in LTTng 2.13's format, or NAME.ltt in ltt's for a
	 * session LTTng's format can't hold (ltt_session_file's not_lttng
	 * says why).  A directory (existing, or a path not ending in ".ltt"
	 * or ".lttng": created) gets the same; a file (existing, or ending
	 * in ".ltt" or ".lttng") holds them all: in ltt's format for a name
	 * ending in ".ltt", else in LTTng's (-LTT_ERR_CONFIG_LTTNG_FORMAT
	 * when it can't hold one of them).
	 */
	const char *path;
	bool force;		/* replace existing files */
	/*
	 * Taken from the reserved bytes (0 from an older caller): write no
	 * trigger with the sessions (lttctl save --no-triggers, LTTng 2.16's).
	 */
	bool no_triggers LTT_RESERVED_ALIGN;
	uint8_t reserved[56] LTT_RESERVED_ALIGN;	/* zero */
};

/* What ltt_ctl_load_sessions() loads from where: ltt_ctl_load_opts_init() first. */
struct ltt_load_opts {
	const char *session;	/* NULL: every session found */
	/*
	 * A file, or a directory whose *.ltt and *.lttng files are read.
	 * NULL: the user's $LTT_HOME/.lttng/sessions, then the system's
	 * SYSCONFDIR/ltt/sessions (a session in both: the user's).
	 */
	const char *path;
	const char *override_url;	/* NULL, or every loaded session's output: file:///PATH, net://... */
	const char *override_name;	/* NULL, or the name of the one session loaded */
	bool force;		/* destroy an existing session of the same name first */
	/*
	 * Taken from the reserved bytes (0 from an older caller): add none of
	 * the files' triggers (lttctl load --no-triggers, LTTng 2.16's).
	 */
	bool no_triggers LTT_RESERVED_ALIGN;
	uint8_t reserved[56] LTT_RESERVED_ALIGN;	/* zero */
};

/**
 * ltt_ctl_save_opts_init() - no session (all), default path, no force
 */
void ltt_ctl_save_opts_init(struct ltt_save_opts *opts);

/**
 * ltt_ctl_load_opts_init() - no session (all), default paths, no override
 */
void ltt_ctl_load_opts_init(struct ltt_load_opts *opts);

/**
 * ltt_ctl_save_sessions() - write sessions' configurations as XML, in
 * LTTng 2.13's session format where it holds the session, else in ltt's
 * (DATADIR/ltt/xml/session.xsd, doc/save-load.md): outputs, live timer,
 * snapshot flag, whether started, channels with every attribute and
 * state, event rules with type, pattern, log level and state
 * @opts: what and where (borrowed)
 * @ret_files: what was written, @ret_count entries (0 when the caller
 *             has no session): free() it
 *
 * Every target is checked before any is written; each file is replaced
 * atomically.  Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_CONFIG_EXISTS
 * (a file exists and not @opts->force; in a directory, a session's file
 * of either format), -LTT_ERR_CONFIG_LTTNG_FORMAT (a file not named .ltt
 * and a session LTTng's format can't hold), -LTT_ERR_CONFIG_IO,
 * -LTT_ERR_NOT_SUPPORTED (non-zero reserved bytes), or a connection
 * error; ltt_ctl_error_detail() names the file or session.
 */
int ltt_ctl_save_sessions(struct ltt_ctl *ctl, const struct ltt_save_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count);

/**
 * ltt_ctl_load_sessions() - create sessions from saved configurations
 * @opts: what and from where (borrowed)
 * @ret_files: what was created, @ret_count entries: free() it
 *
 * All or nothing: every file is parsed, validated against the schema and
 * checked, the overrides applied and the names checked against the
 * existing sessions before anything is created; if a creation fails
 * midway, what this call created is destroyed and a session it replaced
 * (@opts->force) is created again from its configuration.  A session
 * saved started is started.  LTTng's saved sessions (.lttng, as LTTng
 * 2.13's lttng save writes them) are read too, for what ltt has
 * (doc/save-load.md).  Returns 0, -LTT_ERR_CONFIG_MALFORMED,
 * -LTT_ERR_CONFIG_INVALID, -LTT_ERR_CONFIG_UNSUPPORTED (an LTTng file asks
 * for what ltt lacks), -LTT_ERR_CONFIG_IO, -LTT_ERR_CONFIG_NOT_FOUND,
 * -LTT_ERR_CONFIG_OVERRIDE_NAME, -LTT_ERR_URL (@opts->override_url),
 * -LTT_ERR_SESSION_EXISTS (not @opts->force), the daemon's refusal of a
 * creation, -LTT_ERR_NOT_SUPPORTED, or a connection error;
 * ltt_ctl_error_detail() says where ("FILE:LINE: what").
 */
int ltt_ctl_load_sessions(struct ltt_ctl *ctl, const struct ltt_load_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_CONFIG_H */
