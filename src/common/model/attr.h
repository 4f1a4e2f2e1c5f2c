/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * attr.h - defaults and validation of session, channel and event rule
 * attributes, shared by the control library and the session daemon so
 * both agree on what is valid.
 */
#ifndef LTT_COMMON_ATTR_H
#define LTT_COMMON_ATTR_H

#include "common/model/model.h"

/*
 * Each check returns LTT_ERR_OK or the public code that says what is
 * wrong, as the session daemon answers it; libltt-ctl's functions return
 * it negated, at their API (ltt-ctl.h's convention).
 */

#define LTT_DEFAULT_UST_SUBBUF_SIZE (512ULL * 1024)	/* LTTng's per-user default */
#define LTT_DEFAULT_UST_NUM_SUBBUF 4ULL
#define LTT_DEFAULT_KERNEL_SUBBUF_SIZE (1024ULL * 1024)
#define LTT_DEFAULT_KERNEL_NUM_SUBBUF 4ULL
#define LTT_DEFAULT_LIVE_TIMER_US 1000000U
#define LTT_MIN_LIVE_TIMER_US 1000U	/* a shorter period only floods the relay */
#define LTT_DEFAULT_LIVE_URL "net://127.0.0.1"	/* a live session's: the local relay daemon */
/*
 * Switch and read timers, when not 0 (off): each expiry flushes and reads
 * every stream of the channel, so a period of a few microseconds keeps
 * the consumer daemon's data thread busy without data (doc/consumerd.md).
 * The kernel tracer has the same minimum.
 */
#define LTT_MIN_TIMER_US 100U
#define LTT_MAX_SUBBUF_SIZE (1ULL << 32)	/* 4 GiB */
#define LTT_MAX_NUM_SUBBUF (1ULL << 20)

/**
 * ltt_attr_channel_defaults() - a domain's default channel attributes
 * @attr: filled, with the name LTT_DEFAULT_CHANNEL_NAME
 *
 * Returns LTT_ERR_OK or LTT_ERR_DOMAIN.
 */
enum ltt_error_code ltt_attr_channel_defaults(struct ltt_channel_conf *attr,
					      enum ltt_domain domain);

/**
 * ltt_attr_check_channel() - is @attr a valid channel of @domain?
 *
 * Resolves LTT_BUFFER_DEFAULT in place to the domain's default.
 * Returns LTT_ERR_OK, LTT_ERR_CHANNEL_NAME, LTT_ERR_SUBBUF_SIZE,
 * LTT_ERR_SUBBUF_COUNT, LTT_ERR_BUFFER_TYPE, LTT_ERR_TRACEFILE_SIZE,
 * LTT_ERR_TIMER_MIN (a switch or read timer under LTT_MIN_TIMER_US),
 * LTT_ERR_BUFFER_PREALLOCATION, LTT_ERR_KERNEL_ON_DEMAND,
 * LTT_ERR_AUTO_RECLAIM (an unknown policy, an age without OLDER_THAN or
 * none with it, a kernel or overwrite-mode channel),
 * LTT_ERR_BLOCKING_TIMEOUT (a blocking timeout on a kernel channel, or
 * past LTT_BLOCKING_TIMEOUT_MAX_US but not LTT_BLOCKING_TIMEOUT_INF) or
 * LTT_ERR_DOMAIN.  A blocking timeout in overwrite mode is taken, as
 * LTTng takes it (a snapshot session's channels are in overwrite mode by
 * default): nothing ever waits there.  lttctl refuses an explicit
 * --overwrite with it, as LTTng's CLI does (BLOCKING_OVERWRITE).
 */
enum ltt_error_code ltt_attr_check_channel(struct ltt_channel_conf *attr, enum ltt_domain domain);

/**
 * ltt_attr_check_rule() - is @attr a valid event rule of some domain?
 * (A log level's upper bound is the domain's: ltt_attr_check_rule_domain().)
 *
 * Returns LTT_ERR_OK, LTT_ERR_EVENT_NAME, LTT_ERR_FILTER, LTT_ERR_EXCLUSION or
 * LTT_ERR_LOGLEVEL.
 */
enum ltt_error_code ltt_attr_check_rule(const struct ltt_rule_conf *attr);

/**
 * ltt_attr_check_filter() - does @text parse as a filter expression?
 * @text: NUL-terminated; "" (no filter) is valid
 * @msg: on LTT_ERR_FILTER, the message with a caret under the bad token
 *       (ltt_filter_caret()); may be NULL
 * @size: bytes of @msg
 *
 * Any thread.  Returns LTT_ERR_OK, LTT_ERR_FILTER or LTT_ERR_NOMEM.
 */
enum ltt_error_code ltt_attr_check_filter(const char *text, char *msg, size_t size);

/**
 * ltt_attr_normalize_exclusions() - check an exclusion list against a
 * rule's pattern and put it in its one form
 * @pattern: the rule's pattern (valid)
 * @list: "a,b,..." (modified in place: sorted, duplicates removed); ""
 *        is no exclusion
 * @size: bytes of @list's buffer
 *
 * LTTng's rules: exclusions need a pattern with an unescaped '*'; each
 * is a valid event name or pattern of at most LTT_NAME_MAX - 1 bytes
 * that does not take all the names @pattern takes (ltt_glob_covers():
 * LTTng refuses "all*" for "allo*").  One that takes none of them is
 * kept, as LTTng's daemon keeps it (its client warns:
 * ltt_attr_idle_exclusion()).
 * Any thread.
 * Returns LTT_ERR_OK or LTT_ERR_EXCLUSION (@list then unspecified).
 */
enum ltt_error_code ltt_attr_normalize_exclusions(const char *pattern, char *list, size_t size);

/**
 * ltt_attr_idle_exclusion() - the first exclusion of @list ("a,b,...")
 * that takes none of the names @pattern takes, copied into @name (@size
 * bytes), for a client's warning; NULL when each excludes something.
 */
const char *ltt_attr_idle_exclusion(const char *pattern, const char *list, char *name,
				    size_t size);

/**
 * ltt_attr_check_rule_domain() - may a rule like @attr (valid by
 * ltt_attr_check_rule()) be in @domain?  System call rules are the
 * kernel's; kernel events have no log level; a user-space level is one of
 * the 15 (0 to LTT_LOGLEVEL_DEBUG), an agent domain's within its bounds
 * (common/model/agent.h: python 0 to LTT_PYTHON_LOGLEVEL_MAX, JUL and log4j any
 * 32-bit number).  An agent rule's pattern names loggers with the
 * characters of event names (names.h).
 *
 * Returns LTT_ERR_OK, LTT_ERR_EVENT_TYPE, LTT_ERR_KERNEL_LOGLEVEL or
 * LTT_ERR_LOGLEVEL.
 */
enum ltt_error_code ltt_attr_check_rule_domain(const struct ltt_rule_conf *attr,
					       enum ltt_domain domain);

/**
 * ltt_attr_check_session() - is @attr a valid session to create?
 *
 * The name must be set (automatic names are chosen by the library) and a
 * LOCAL output must be an absolute path.  Returns LTT_ERR_OK, LTT_ERR_SESSION_NAME,
 * LTT_ERR_OUTPUT_PATH, LTT_ERR_URL, LTT_ERR_LIVE_NEEDS_NET,
 * LTT_ERR_LIVE_TIMER (a live period under LTT_MIN_LIVE_TIMER_US) or
 * LTT_ERR_SNAPSHOT_LIVE.
 */
enum ltt_error_code ltt_attr_check_session(const struct ltt_session_conf *attr);

/**
 * ltt_attr_check_session_request() - is @attr a valid session to ask a
 * daemon for, which resolves defaults (client protocol minor 6)?
 *
 * As ltt_attr_check_session(), but an empty name (automatic) and an
 * empty LOCAL output (the default directory) are valid: the daemon
 * fills them.  Returns the same codes.
 */
enum ltt_error_code ltt_attr_check_session_request(const struct ltt_session_conf *attr);

/* The room of a session's creation date, YYYYmmdd-HHMMSS, and its NUL. */
#define LTT_SESSION_DATE_MAX 32

/**
 * ltt_attr_session_auto_name() - the creation date of a session created
 * now into @date, and, @automatic, @attr's name made of it: "auto-DATE",
 * then "auto-DATE-N" for the @attempt-th retry of a second that has one
 * (the library's and the daemon's, from client protocol minor 6 on).
 * Returns 0, or -1 when the clock can't be read.
 */
int ltt_attr_session_auto_name(struct ltt_session_conf *attr, bool automatic,
			       unsigned int attempt, char date[LTT_SESSION_DATE_MAX]);

/**
 * ltt_attr_session_auto_output() - @attr's empty LOCAL output under the
 * traces directory @dir: @dir/NAME-@date, or @dir/NAME for an @automatic
 * name, which holds the date.  Returns 0, or -1 when it would not fit.
 */
int ltt_attr_session_auto_output(struct ltt_session_conf *attr, bool automatic, const char *dir,
				 const char *date);

/**
 * ltt_attr_check_rotation() - is (@timer_us, @size) a schedule to set?
 * Each is 0 (that schedule unchanged) or above 0, as LTTng takes any
 * (a period in ns fits 64 bits); not both 0.  The schedule is looked at
 * each tick (chunk-sched.h): a period shorter than a tick, or a size
 * written faster, rotates once a tick.
 *
 * Returns LTT_ERR_OK or LTT_ERR_ROTATION_VALUE.
 */
enum ltt_error_code ltt_attr_check_rotation(uint64_t timer_us, uint64_t size);

/**
 * ltt_attr_check_snapshot_output() - is @o a snapshot output to add
 * (@need_path) or to record to (its empty fields: the session's)?
 * A name follows the channel name rules; a net:// URL (a relay), or an
 * absolute directory short enough for the snapshot directories made in it.
 *
 * Returns LTT_ERR_OK, LTT_ERR_SNAPSHOT_OUTPUT_NAME, LTT_ERR_URL or
 * LTT_ERR_OUTPUT_PATH.
 */
enum ltt_error_code ltt_attr_check_snapshot_output(const struct ltt_snapshot_output_conf *o,
						   bool need_path);

#endif /* LTT_COMMON_ATTR_H */
