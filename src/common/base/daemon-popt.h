/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * daemon-popt.h - the option loop the daemons share, over popt, which
 * libcommon does not link: included by the daemons' option parsing alone,
 * its one function inline.
 */
#ifndef LTT_COMMON_DAEMON_POPT_H
#define LTT_COMMON_DAEMON_POPT_H

#include <popt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/base/daemon.h"

/* The code ltt_daemon_popt() gives string options that have none of their own. */
#define LTT_DAEMON_OPT_STRINGS 0x7000

/* A string option's variable and popt's copy in it, if any (not the default). */
struct ltt_daemon_str {
	char **var;
	char *seen;		/* *var when last looked at */
	bool copy;		/* @seen is popt's (else the daemon's default) */
};

/*
 * The string options (with a variable) of @table and of the tables it
 * includes, each variable once, appended to *@v; those without a code get
 * LTT_DAEMON_OPT_STRINGS, so that popt returns for them.  A table ends as
 * popt's own lookup ends it: at an entry without names and without arg.
 * Returns -1 without memory.
 */
static inline int ltt_daemon_popt_strings(struct poptOption *table, struct ltt_daemon_str **v,
					  size_t *nr)
{
	struct ltt_daemon_str *grown;
	struct poptOption *o;
	size_t i;

	for (o = table; o->longName || o->shortName || o->arg; o++) {
		if ((o->argInfo & POPT_ARG_MASK) == POPT_ARG_INCLUDE_TABLE) {
			if (o->arg && ltt_daemon_popt_strings(o->arg, v, nr))
				return -1;
			continue;
		}
		if ((o->argInfo & POPT_ARG_MASK) != POPT_ARG_STRING || !o->arg)
			continue;
		if (!o->val)
			o->val = LTT_DAEMON_OPT_STRINGS;
		for (i = 0; i < *nr && (*v)[i].var != o->arg; i++)
			;
		if (i < *nr)
			continue;	/* two options, one variable (an alias) */
		grown = realloc(*v, (*nr + 1) * sizeof(**v));
		if (!grown)
			return -1;
		*v = grown;
		(*v)[(*nr)++] = (struct ltt_daemon_str){ .var = o->arg, .seen = *(char **)o->arg };
	}
	return 0;
}

/* After an option: popt's copy that a repeat replaced is freed. */
static inline void ltt_daemon_popt_repeats(struct ltt_daemon_str *v, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (*v[i].var == v[i].seen)
			continue;
		if (v[i].copy)
			free(v[i].seen);
		v[i].seen = *v[i].var;
		v[i].copy = true;
	}
}

/**
 * ltt_daemon_popt() - read a daemon's command line through @ctx
 * @prog: the daemon's name, for the messages
 * @table: @ctx's table: its string options (and those of the tables it
 *         includes, any number) without a code of their own are given
 *         one here; popt stores a repeated option's copy over the last
 *         one, which is freed then, whatever the option's code
 * @verbose: counts -v (ltt_daemon_opt())
 * @help: prints the help, given @ctx (-h)
 * @own: NULL, or the daemon's own codes: @own(@arg, code) gets each code
 *       first and returns 0, or -1 when the option's value is wrong (said)
 *
 * Every code goes to @own, then to ltt_daemon_opt(); the line's end is
 * ltt_daemon_args_end()'s.  Returns 0 to go on, 1 when the daemon is to
 * exit now (help or version printed), -1 when the line is wrong (said).
 * The last value of each string option is the daemon's to free.
 */
static inline int ltt_daemon_popt(const char *prog, poptContext ctx, struct poptOption *table,
				  int *verbose, void (*help)(void *ctx),
				  int (*own)(void *arg, int code), void *arg)
{
	struct ltt_daemon_str *strs = NULL;
	size_t nr_strs = 0;
	int rc, ret = 0;

	if (ltt_daemon_popt_strings(table, &strs, &nr_strs))
		nr_strs = 0;	/* no memory: a repeat's first copy leaks, nothing worse */
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		ltt_daemon_popt_repeats(strs, nr_strs);
		if (rc == LTT_DAEMON_OPT_STRINGS)
			continue;
		ret = own ? own(arg, rc) : 0;
		if (!ret)
			ret = ltt_daemon_opt(prog, rc, verbose, help, ctx);
		if (ret)
			break;
	}
	free(strs);
	if (ret)
		return ret;
	return ltt_daemon_args_end(prog, rc, poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
				   poptStrerror(rc), poptPeekArg(ctx));
}

#endif /* LTT_COMMON_DAEMON_POPT_H */
