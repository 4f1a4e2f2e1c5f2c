/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * agent.h - libltt-ust's side of a language agent (the python domain:
 * common/model/agent.h), for ltt's own agent module (src/python/_agent.c), not
 * an interface for programs: exported by libltt-ust under ltt_ust_agent_*,
 * and changed with it.
 *
 * The agent learns which records the sessions want from the rules of the
 * channels it records in (app protocol AGENT_RULES) and reports the
 * loggers it knows (LOGGERS).  Any thread; none of these ever waits for a
 * daemon, and ltt_ust_agent_wait() waits only as long as it is told.
 */
#ifndef LTT_UST_AGENT_H
#define LTT_UST_AGENT_H

#include <stddef.h>
#include <stdint.h>

struct ltt_ust_agent_rule {
	const char *pattern;		/* a logger glob ('*': every logger) */
	int loglevel_type;		/* enum ltt_loglevel_type */
	int loglevel;			/* Python's: RANGE is this level and above */
	const char *exclusions;		/* "" or comma-separated logger globs */
};

/**
 * ltt_ust_agent_wait() - wait until the rules change from generation @gen
 * (0 is never a generation: returns at once), at most @timeout_ms (-1: no
 * limit); returns the generation now
 */
uint64_t ltt_ust_agent_wait(uint64_t gen, int timeout_ms);

/**
 * ltt_ust_agent_rules() - the python rules of every channel that records
 * now, in one heap block (free() it), and their generation
 * @ret_rules: set to the array (NULL when @ret_nr is 0)
 *
 * Returns 0 or -ENOMEM.
 */
int ltt_ust_agent_rules(struct ltt_ust_agent_rule **ret_rules, size_t *ret_nr, uint64_t *ret_gen);

/**
 * ltt_ust_agent_add_loggers() - report @nr loggers (copied) to the daemons
 * (LOGGERS); names that are not valid (app-proto.h) are skipped.  Returns
 * 0 or -ENOMEM.
 */
int ltt_ust_agent_add_loggers(const char *const *names, size_t nr);

#endif /* LTT_UST_AGENT_H */
