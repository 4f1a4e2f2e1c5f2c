// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-consumerd: options, signals, the two threads.
 *
 * The session daemon spawns us with "--cmd-fd N", its end of a
 * socketpair.  The main thread becomes the command thread (cmd.c); the
 * data thread (data.c) moves packets.  We exit when the socket closes or
 * on SIGTERM, after a final flush of every channel.  SIGINT and SIGHUP
 * are ignored: a Ctrl-C meant for a session daemon in a terminal reaches
 * us too, and the session daemon decides when we go by closing the socket.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <popt.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/log.h"
#include "consumerd/consumerd.h"

struct options {
	int cmd_fd;		/* -1: not given */
	int verbose;
};

enum {
	OPT_VERBOSE = 1,
	OPT_HELP,
	OPT_VERSION,
	OPT_CMD_FD,
};

/* A file descriptor number: decimal, 0..INT_MAX, nothing else. */
static int parse_fd(const char *arg)
{
	char *end;
	long v;

	if (!arg || !*arg)
		return -1;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (errno || *end || v < 0 || v > INT_MAX)
		return -1;
	return (int)v;
}

/* Returns 0 to run, 1 to exit 0 (help, version), -1 to exit 1. */
static int parse_options(int argc, const char **argv, struct options *opts)
{
	char *fd_arg = NULL;
	struct poptOption table[] = {
		{ "cmd-fd", 0, POPT_ARG_STRING, &fd_arg, OPT_CMD_FD,
		  "the session daemon's command socket (inherited)", "N" },
		{ "verbose", 'v', POPT_ARG_NONE, NULL, OPT_VERBOSE,
		  "more messages (-v info, -vv debug, -vvv trace)", NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, OPT_HELP, "show this help", NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, OPT_VERSION, "show the version", NULL },
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("ltt-consumerd", argc, argv, table, 0);
	int rc, ret = 0;

	while ((rc = poptGetNextOpt(ctx)) > 0) {
		switch (rc) {
		case OPT_VERBOSE:
			opts->verbose++;
			break;
		case OPT_CMD_FD:
			opts->cmd_fd = parse_fd(fd_arg);
			if (opts->cmd_fd < 0) {
				fprintf(stderr, "ltt-consumerd: Error: --cmd-fd needs a file descriptor number, not '%s'\n",
					fd_arg);
				ret = -1;
				goto out;
			}
			break;
		case OPT_HELP:
			printf("ltt-consumerd: the consumer daemon of ltt.  ltt-sessiond starts it;\n"
			       "it is not meant to be run by hand.\n\n");
			poptPrintHelp(ctx, stdout, 0);
			ret = 1;
			goto out;
		case OPT_VERSION:
			printf("ltt-consumerd %s\n", PACKAGE_VERSION);
			ret = 1;
			goto out;
		}
	}
	if (rc < -1) {
		fprintf(stderr, "ltt-consumerd: Error: %s: %s\nTry 'ltt-consumerd --help'.\n",
			poptBadOption(ctx, POPT_BADOPTION_NOALIAS), poptStrerror(rc));
		ret = -1;
	} else if (poptPeekArg(ctx)) {
		fprintf(stderr, "ltt-consumerd: Error: unexpected argument '%s'\n", poptPeekArg(ctx));
		ret = -1;
	} else if (opts->cmd_fd < 0) {
		fprintf(stderr, "ltt-consumerd: Error: no --cmd-fd: ltt-consumerd is started by ltt-sessiond, not by hand\n");
		ret = -1;
	}
out:
	free(fd_arg);
	poptFreeContext(ctx);
	return ret;
}

/* SIGTERM through a signalfd (blocked in every thread); others ignored. */
static int setup_signals(int *ret_sfd)
{
	sigset_t set;
	int sfd;

	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	if (pthread_sigmask(SIG_BLOCK, &set, NULL))
		return -EINVAL;
	sfd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	if (sfd < 0)
		return -errno;
	*ret_sfd = sfd;
	return 0;
}

/* The inherited command socket: a socket, not passed on to children. */
static int check_cmd_fd(int fd)
{
	struct stat st;

	if (fstat(fd, &st)) {
		LTT_ERR("--cmd-fd %d: %s", fd, strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		LTT_ERR("--cmd-fd %d is not a socket", fd);
		return -1;
	}
	if (fcntl(fd, F_SETFD, FD_CLOEXEC))
		return -1;
	return 0;
}

int main(int argc, const char **argv)
{
	struct options opts = { .cmd_fd = -1 };
	struct ltt_data_thread *dt = NULL;
	int sfd = -1, ret;

	ret = parse_options(argc, argv, &opts);
	if (ret)
		return ret > 0 ? 0 : 1;
	ltt_log_init("ltt-consumerd", LTT_LOG_WARN + opts.verbose);
	if (check_cmd_fd(opts.cmd_fd))
		return 1;
	/*
	 * A root consumer acts on files with each trace owner's filesystem ids
	 * (fs.c); root's supplementary groups would still count then: drop
	 * them, every thread (glibc applies setgroups() to all).
	 */
	if (geteuid() == 0 && setgroups(0, NULL)) {
		LTT_ERR("can't drop the supplementary groups: %s", strerror(errno));
		return 1;
	}
	ret = setup_signals(&sfd);
	if (ret) {
		LTT_ERR("can't set up signal handling: %s", strerror(-ret));
		return 1;
	}
	ret = ltt_data_thread_start(&dt);
	if (ret) {
		LTT_ERR("can't start the data thread: %s", strerror(-ret));
		close(sfd);
		return 1;
	}
	LTT_INFO("ready, pid %ld", (long)getpid());
	ret = ltt_cmd_run(opts.cmd_fd, sfd, dt);
	ltt_data_thread_stop(dt);
	close(sfd);
	close(opts.cmd_fd);
	LTT_INFO("exiting");
	return ret;
}
