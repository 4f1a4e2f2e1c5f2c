/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * daemon-popt.h - the option loop the daemons share, over popt, which
 * libcommon does not link: included by the daemons' option parsing alone,
 * its one function inline.
 */
#ifndef LTT_COMMON_DAEMON_POPT_H
#define LTT_COMMON_DAEMON_POPT_H

#include <popt.h>
#include <stddef.h>
#include <stdlib.h>

#include "common/base/daemon.h"

/* A string option's code, from ltt_daemon_popt(): this + its table index. */
#define LTT_DAEMON_OPT_STRINGS 0x7000
/* The string options (by their variable) whose repeats are freed. */
#define LTT_DAEMON_MAX_STRINGS 64

/**
 * ltt_daemon_popt() - read a daemon's command line through @ctx
 * @prog: the daemon's name, for the messages
 * @table: @ctx's table: its string options without a code of their own
 *         are given one here (popt stores a repeated option's copy over
 *         the last one, which is freed then)
 * @verbose: counts -v (ltt_daemon_opt())
 * @help: prints the help, given @ctx (-h)
 * @own: NULL, or the daemon's own codes: @own(@arg, code) gets each code
 *       first and returns 0, or -1 when the option's value is wrong (said)
 *
 * Every code goes to @own, then to ltt_daemon_opt(); the line's end is
 * ltt_daemon_args_end()'s.  Returns 0 to go on, 1 when the daemon is to
 * exit now (help or version printed), -1 when the line is wrong (said).
 */
static inline int ltt_daemon_popt(const char *prog, poptContext ctx, struct poptOption *table,
				  int *verbose, void (*help)(void *ctx),
				  int (*own)(void *arg, int code), void *arg)
{
	struct {
		char **var;
		char *copy;		/* popt's, in *var */
	} kept[LTT_DAEMON_MAX_STRINGS];
	int rc, ret, i, j, nr_kept = 0;

	for (i = 0; i < LTT_DAEMON_MAX_STRINGS && (table[i].longName || table[i].shortName); i++)
		if ((table[i].argInfo & POPT_ARG_MASK) == POPT_ARG_STRING && table[i].arg &&
		    !table[i].val)
			table[i].val = LTT_DAEMON_OPT_STRINGS + i;
	while ((rc = poptGetNextOpt(ctx)) > 0) {
		if (rc >= LTT_DAEMON_OPT_STRINGS && rc < LTT_DAEMON_OPT_STRINGS + LTT_DAEMON_MAX_STRINGS) {
			char **var = table[rc - LTT_DAEMON_OPT_STRINGS].arg;

			for (j = 0; j < nr_kept && kept[j].var != var; j++)
				;
			if (j == nr_kept)
				kept[nr_kept++] = (typeof(kept[0])){ var, NULL };
			if (kept[j].copy != *var)
				free(kept[j].copy);	/* the value an option given again replaced */
			kept[j].copy = *var;
			continue;
		}
		ret = own ? own(arg, rc) : 0;
		if (!ret)
			ret = ltt_daemon_opt(prog, rc, verbose, help, ctx);
		if (ret)
			return ret;
	}
	return ltt_daemon_args_end(prog, rc, poptBadOption(ctx, POPT_BADOPTION_NOALIAS),
				   poptStrerror(rc), poptPeekArg(ctx));
}

#endif /* LTT_COMMON_DAEMON_POPT_H */
