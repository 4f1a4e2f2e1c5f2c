/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * log.h - leveled diagnostics on stderr for the daemons and tools.
 */
#ifndef LTT_COMMON_LOG_H
#define LTT_COMMON_LOG_H

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
 * ltt_log() - print "progname: LEVEL: message" on stderr; thread-safe
 *
 * The message is escaped whole (ltt_escape(), newlines included), so a
 * name or path in it can neither move the cursor nor start a line.
 */
void ltt_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define LTT_ERR(...) ltt_log(LTT_LOG_ERROR, __VA_ARGS__)
#define LTT_WARN(...) ltt_log(LTT_LOG_WARN, __VA_ARGS__)
#define LTT_INFO(...) ltt_log(LTT_LOG_INFO, __VA_ARGS__)
#define LTT_DBG(...) ltt_log(LTT_LOG_DEBUG, __VA_ARGS__)

#endif /* LTT_COMMON_LOG_H */
