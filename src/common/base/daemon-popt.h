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

#include "common/base/daemon.h"

/**
 * ltt_daemon_popt() - read a daemon's command line through @ctx
 * @prog: the daemon's name, for the messages
 * @verbose: counts -v (ltt_daemon_opt())
 * @help: prints the help, given @ctx (-h)
 * @own: NULL, or the daemon's own codes: @own(@arg, code) gets each code
 *       first and returns 0, or -1 when the option's value is wrong (said)
 *
 * Every code goes to @own, then to ltt_daemon_opt(); the line's end is
 * ltt_daemon_args_end()'s.  Returns 0 to go on, 1 when the daemon is to
 * exit now (help or version printed), -1 when the line is wrong (said).
 */
static inline int ltt_daemon_popt(const char *prog, poptContext ctx, int *verbose,
				  void (*help)(void *ctx), int (*own)(void *arg, int code),
				  void *arg)
{
	int rc, ret;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
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
