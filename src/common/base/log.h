/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * log.h - leveled diagnostics on stderr for the daemons and tools.
 */
#ifndef LTT_COMMON_LOG_H
#define LTT_COMMON_LOG_H

#include <stdint.h>

enum ltt_log_level {
	LTT_LOG_ERROR = 0,
	LTT_LOG_WARN = 1,
	LTT_LOG_INFO = 2,	/* -v */
	LTT_LOG_DEBUG = 3,	/* -vv */
	LTT_LOG_TRACE = 4,	/* -vvv */
};

/**
 * ltt_log_init() - name the program and set the verbosity
 * @progname: borrowed for the life of the process
 * @level: messages above this level are dropped
 */
void ltt_log_init(const char *progname, int level);

/**
 * ltt_log_level() - the current verbosity
 */
int ltt_log_level(void);

/**
 * ltt_log_progname() - the name ltt_log_init() gave ("ltt" before)
 */
const char *ltt_log_progname(void);

/**
 * ltt_log() - print "progname: LEVEL: message" on stderr; thread-safe
 *
 * The message is escaped whole (ltt_escape(), newlines included), so a
 * name or path in it can neither move the cursor nor start a line.
 */
void ltt_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Rate limiting, for lines a peer can make the daemon print as often as it
 * likes (a flood of bad messages): each call site of LTT_*_RL() prints at
 * most `burst` lines per `interval` (a token bucket refilled at the start
 * of each interval); the first line printed after an interval in which
 * lines were dropped is preceded by "N similar messages suppressed".
 */
struct ltt_log_rl {
	uint64_t window_start_ns;	/* CLOCK_MONOTONIC; 0: never used */
	unsigned int printed;		/* in this window */
	unsigned long suppressed;	/* in this window */
};

#define LTT_LOG_RL_BURST 10		/* default lines per interval per call site */
#define LTT_LOG_RL_INTERVAL_MS 5000	/* default interval */

/**
 * ltt_log_ratelimit_set() - lines per interval for every LTT_*_RL() site
 * @burst: lines printed per interval per site; 0 turns rate limiting off
 * @interval_ms: the interval, at least 1
 *
 * For start-up, before threads log; not thread-safe against ltt_log_rl().
 */
void ltt_log_ratelimit_set(unsigned int burst, unsigned int interval_ms);

/**
 * ltt_log_ratelimit_parse() - read a --log-ratelimit value
 * @text: "LINES/SECONDS" (LINES 0..1000000, SECONDS 1..3600), or "0" (no
 *        limit); borrowed
 * @ret_burst: set to LINES (0 for "0") on success
 * @ret_interval_s: set to SECONDS on success (untouched for "0")
 *
 * Shared by the daemons, so that they spell the option alike.  Returns 0,
 * or -EINVAL (not of that form) or -ERANGE (a number out of its range).
 */
int ltt_log_ratelimit_parse(const char *text, unsigned int *ret_burst,
			    unsigned int *ret_interval_s);

/**
 * ltt_log_rl() - ltt_log() through the call site's rate limit @rl
 * @site: "file:line" of the call, named in the suppression summary
 *
 * Thread-safe (one lock for every site's state).  Use the LTT_*_RL() macros.
 */
void ltt_log_rl(struct ltt_log_rl *rl, const char *site, int level, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

#define LTT_LOG_STR2_(x) #x
#define LTT_LOG_STR_(x) LTT_LOG_STR2_(x)
#define LTT_LOG_RL(level, ...)                                                            \
	do {                                                                              \
		static struct ltt_log_rl ltt_log_rl_site_;                                \
		ltt_log_rl(&ltt_log_rl_site_, __FILE__ ":" LTT_LOG_STR_(__LINE__), level, \
			   __VA_ARGS__);                                                  \
	} while (0)

#define LTT_ERR_RL(...) LTT_LOG_RL(LTT_LOG_ERROR, __VA_ARGS__)
#define LTT_WARN_RL(...) LTT_LOG_RL(LTT_LOG_WARN, __VA_ARGS__)
#define LTT_INFO_RL(...) LTT_LOG_RL(LTT_LOG_INFO, __VA_ARGS__)

#define LTT_ERR(...) ltt_log(LTT_LOG_ERROR, __VA_ARGS__)
#define LTT_WARN(...) ltt_log(LTT_LOG_WARN, __VA_ARGS__)
#define LTT_INFO(...) ltt_log(LTT_LOG_INFO, __VA_ARGS__)
#define LTT_DBG(...) ltt_log(LTT_LOG_DEBUG, __VA_ARGS__)

#endif /* LTT_COMMON_LOG_H */
