// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-consumerd: options, signals, the threads.
 *
 * The session daemon spawns us with "--cmd-fd N", its end of a
 * socketpair.  The main thread becomes the command thread (cmd.c); the
 * data threads (data.c, --data-threads) move packets.  We exit when the
 * socket closes or on SIGTERM, after a final flush of every channel.
 * SIGINT and SIGHUP are ignored: a Ctrl-C meant for a session daemon in a
 * terminal reaches us too, and the session daemon decides when we go by
 * closing the socket.  With --lttng-health (a session daemon run with
 * --lttng-compat), a thread of its own answers LTTng's health checks on
 * the threads' heartbeats (common/proto/lttng-health.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <popt.h>
#include <pthread.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/daemon-popt.h"
#include "common/base/log.h"
#include "common/base/testpoint.h"
#include "common/proto/lttng-health.h"
#include "consumerd/consumerd.h"

struct options {
	int cmd_fd;		/* -1: not given */
	int verbose;
	long long uid, gid;	/* -1: not given */
	long data_threads;	/* 0: not given */
	char *lttng_health;	/* LTTng's health socket to answer on; NULL: none */
	long long lttng_gid;	/* its group; -1: not given */
};

enum {
	OPT_CMD_FD = LTT_DAEMON_OPT_OWN,
	OPT_UID,
	OPT_GID,
	OPT_DATA_THREADS,
	OPT_LTTNG_HEALTH_GROUP,
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

/* A user or group id: decimal, 0..2^32-2 (-1 is no id), nothing else. */
static long long parse_id(const char *arg)
{
	unsigned long long v;
	char *end;

	if (!arg || *arg < '0' || *arg > '9')
		return -1;
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno || *end || v >= UINT32_MAX)
		return -1;
	return (long long)v;
}

/* A number of data threads (ltt_consumer_data_threads_parse()); 0 if not one. */
static long parse_threads(const char *arg)
{
	unsigned int n;

	return ltt_consumer_data_threads_parse(arg, &n) ? 0 : (long)n;
}

/*
 * The CPUs this process may run on (its affinity, as taskset or a
 * cpuset leaves it), else the online ones: more threads than that would
 * only take turns.  At least 1.
 */
static long allowed_cpus(void)
{
	size_t nr, size;
	cpu_set_t *set;
	long n = -1;

	/* the kernel's mask may be larger than a cpu_set_t: EINVAL, try twice as large */
	for (nr = CPU_SETSIZE; n < 0 && nr <= 1u << 20; nr *= 2) {
		set = CPU_ALLOC(nr);
		if (!set)
			break;
		size = CPU_ALLOC_SIZE(nr);
		if (!sched_getaffinity(0, size, set))
			n = CPU_COUNT_S(size, set);
		CPU_FREE(set);
		if (n < 0 && errno != EINVAL)
			break;
	}
	if (n < 1)
		n = sysconf(_SC_NPROCESSORS_ONLN);
	return n < 1 ? 1 : n;
}

/*
 * The data threads without --data-threads: LTT_CONSUMERD_DATA_THREADS,
 * else one per CPU the process may run on, at most
 * LTT_DATA_THREADS_DEFAULT_MAX.  Returns the number, or 0 (said) for an
 * environment value that is not one.
 */
static long default_threads(void)
{
	const char *env = getenv(LTT_CONSUMER_DATA_THREADS_ENV);
	long n;

	if (env) {
		n = parse_threads(env);
		if (!n)
			fprintf(stderr, "ltt-consumerd: Error: %s must be a number of data threads from 1 to %d, not '%s'\n",
				LTT_CONSUMER_DATA_THREADS_ENV, LTT_DATA_THREADS_MAX, env);
		return n;
	}
	n = allowed_cpus();
	return n > LTT_DATA_THREADS_DEFAULT_MAX ? LTT_DATA_THREADS_DEFAULT_MAX : n;
}

/*
 * $LTT_CONSUMERD_RELAY_STALL_MS: how long a relay may move nothing while
 * we wait on it (ltt_rlink_set_stall_ms()).  0, or -1 (said) for a
 * value that is not 100 to 3600000.
 */
static int relay_stall(void)
{
	const char *env = getenv(LTT_RLINK_STALL_ENV);
	unsigned long ms;
	char *end;

	if (!env || !*env)
		return 0;
	errno = 0;
	ms = strtoul(env, &end, 10);
	if (errno || *end || env[0] == '-' || ms < 100 || ms > 3600000) {
		fprintf(stderr, "ltt-consumerd: Error: %s must be milliseconds from 100 to 3600000, not '%s'\n",
			LTT_RLINK_STALL_ENV, env);
		return -1;
	}
	ltt_rlink_set_stall_ms((unsigned int)ms);
	return 0;
}

/* Returns 0 to run, 1 to exit 0 (help, version), -1 to exit 1. */
/* -h: ltt_daemon_opt()'s help, @ctx the popt context. */
static void print_help(void *ctx)
{
	printf("ltt-consumerd: the consumer daemon of ltt.  ltt-sessiond starts it;\n"
	       "it is not meant to be run by hand.\n\n");
	poptPrintHelp(ctx, stdout, 0);
}

/* parse_options()'s: where the options' values go. */
struct option_args {
	struct options *opts;
	char *fd, *uid, *gid, *threads, *lttng_gid;
};

/* ltt_daemon_popt()'s own: the consumer's options with a value; 0, or -1 (said). */
static int own_option(void *arg, int code)
{
	struct option_args *a = arg;
	struct options *opts = a->opts;

	switch (code) {
	case OPT_CMD_FD:
		opts->cmd_fd = parse_fd(a->fd);
		if (opts->cmd_fd < 0) {
			fprintf(stderr, "ltt-consumerd: Error: --cmd-fd needs a file descriptor number, not '%s'\n",
				a->fd);
			return -1;
		}
		return 0;
	case OPT_UID:
	case OPT_GID:
	case OPT_LTTNG_HEALTH_GROUP: {
		const char *v = code == OPT_UID ? a->uid : code == OPT_GID ? a->gid : a->lttng_gid;
		long long *id = code == OPT_UID ? &opts->uid :
				code == OPT_GID ? &opts->gid : &opts->lttng_gid;

		*id = parse_id(v);
		if (*id < 0) {
			fprintf(stderr, "ltt-consumerd: Error: --%s needs a numeric id, not '%s'\n",
				code == OPT_UID ? "uid" : code == OPT_GID ? "gid" : "lttng-health-group",
				v ? v : "");
			return -1;
		}
		return 0;
	}
	case OPT_DATA_THREADS:
		opts->data_threads = parse_threads(a->threads);
		if (!opts->data_threads) {
			fprintf(stderr, "ltt-consumerd: Error: --data-threads needs a number from 1 to %d, not '%s'\n",
				LTT_DATA_THREADS_MAX, a->threads ? a->threads : "");
			return -1;
		}
		return 0;
	default:
		return 0;
	}
}

static int parse_options(int argc, const char **argv, struct options *opts)
{
	struct option_args a = { .opts = opts };
	struct poptOption table[] = {
		{ "cmd-fd", 0, POPT_ARG_STRING, &a.fd, OPT_CMD_FD,
		  "the session daemon's command socket (inherited)", "N" },
		{ "uid", 0, POPT_ARG_STRING, &a.uid, OPT_UID,
		  "run as this user once started (with --gid; a root consumer serving one user)",
		  "UID" },
		{ "gid", 0, POPT_ARG_STRING, &a.gid, OPT_GID, "run with this group", "GID" },
		{ "data-threads", 0, POPT_ARG_STRING, &a.threads, OPT_DATA_THREADS,
		  "threads that move packets (default: one per CPU it may run on, at most 16)", "N" },
		{ "lttng-health", 0, POPT_ARG_STRING, &opts->lttng_health, 0,
		  "answer LTTng's health checks on this socket (a session daemon run with --lttng-compat)",
		  "PATH" },
		{ "lttng-health-group", 0, POPT_ARG_STRING, &a.lttng_gid, OPT_LTTNG_HEALTH_GROUP,
		  "the group of that socket, made as root", "GID" },
		{ "verbose", 'v', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERBOSE,
		  "more messages (-v info, -vv debug, -vvv trace)", NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_HELP, "show this help", NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERSION, "show the version", NULL },
		POPT_TABLEEND
	};
	poptContext ctx = poptGetContext("ltt-consumerd", argc, argv, table, 0);
	int ret;

	ret = ltt_daemon_popt("ltt-consumerd", ctx, table, &opts->verbose, print_help, own_option, &a);
	if (ret)
		goto out;
	if (opts->cmd_fd < 0) {
		fprintf(stderr, "ltt-consumerd: Error: no --cmd-fd: ltt-consumerd is started by ltt-sessiond, not by hand\n");
		ret = -1;
	} else if ((opts->uid < 0) != (opts->gid < 0)) {
		fprintf(stderr, "ltt-consumerd: Error: --uid and --gid go together\n");
		ret = -1;
	} else if (opts->lttng_health && (!*opts->lttng_health || opts->uid >= 0)) {
		fprintf(stderr, "ltt-consumerd: Error: --lttng-health needs a socket path, and goes with the session daemon's own consumer, not with --uid\n");
		ret = -1;
	} else if (opts->lttng_gid >= 0 && !opts->lttng_health) {
		fprintf(stderr, "ltt-consumerd: Error: --lttng-health-group goes with --lttng-health\n");
		ret = -1;
	} else if (relay_stall()) {
		ret = -1;
	} else if (!opts->data_threads) {
		opts->data_threads = default_threads();
		if (!opts->data_threads)
			ret = -1;
	}
out:
	free(a.threads);
	free(a.fd);
	free(a.uid);
	free(a.gid);
	free(a.lttng_gid);
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

/*
 * Become @uid:@gid for good, every thread (glibc applies the set*id calls
 * to all): a root consumer serving one user's sessions then creates,
 * writes and opens everything as that user, and cannot be made to act
 * on a path the user could not.  The data threads keep the scheduling they
 * were granted as root (prio.h); the credential change makes the process
 * non-dumpable, so the user can signal it but neither trace nor inspect
 * it.  Returns 0 or -1 (logged).
 */
static int become(uid_t uid, gid_t gid)
{
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (geteuid() != 0) {
		if (uid == geteuid() && gid == getegid())
			return 0;
		LTT_ERR("--uid %u --gid %u: only root can take another user's ids", uid, gid);
		return -1;
	}
	if (setresgid(gid, gid, gid) || setresuid(uid, uid, uid)) {
		LTT_ERR("can't become uid %u gid %u: %s", uid, gid, strerror(errno));
		return -1;
	}
	/* never trust a partial drop */
	if (getresuid(&ru, &eu, &su) || getresgid(&rg, &eg, &sg) || ru != uid || eu != uid ||
	    su != uid || rg != gid || eg != gid || sg != gid ||
	    (uid != 0 && setresuid(0, 0, 0) == 0)) {
		LTT_ERR("uid %u gid %u: the ids did not change as asked", uid, gid);
		return -1;
	}
	prctl(PR_SET_DUMPABLE, 0);
	return 0;
}

#define MAX_GROUPS 1024

/*
 * The supplementary groups of user @uid (primary group @gid), as a login
 * of that user gets them: the group database's (getgrouplist() on the
 * user's name).  The session daemon's model is the same: it admits a
 * client by the tracing group it has there, primary or supplementary.
 * Root's own consumer (@uid < 0 or 0) gets none, as does a uid without a
 * name (said once).  Returns 0 or -1 (logged).
 */
static int set_groups(long long uid, long long gid)
{
	char buf[4096];
	struct passwd pw, *pwp = NULL;
	gid_t groups[MAX_GROUPS];
	int n = MAX_GROUPS;

	if (uid > 0 && !getpwuid_r((uid_t)uid, &pw, buf, sizeof(buf), &pwp) && pwp) {
		if (getgrouplist(pw.pw_name, (gid_t)gid, groups, &n) < 0) {
			LTT_WARN("user %lld is in more than %d groups: only the first are kept", uid,
				 MAX_GROUPS);
			n = MAX_GROUPS;
		}
	} else {
		if (uid > 0)
			LTT_WARN("uid %lld has no name in the user database: no supplementary group",
				 uid);
		n = 0;
	}
	if (setgroups((size_t)n, n ? groups : NULL)) {
		LTT_ERR("can't set the supplementary groups: %s", strerror(errno));
		return -1;
	}
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

int lttng_consumer_get_type(void)
{
	/* LTTng's enum lttng_consumer_type: 64- or 32-bit user space */
	return sizeof(void *) == 8 ? 2 : 3;
}

int main(int argc, const char **argv)
{
	struct options opts = { .cmd_fd = -1, .uid = -1, .gid = -1, .lttng_gid = -1 };
	struct ltt_lttng_health *health = NULL;
	struct ltt_data_threads *data = NULL;
	int sfd = -1, ret;

	ret = parse_options(argc, argv, &opts);
	if (ret)
		return ret > 0 ? 0 : 1;
	ltt_log_init("ltt-consumerd", LTT_LOG_WARN + opts.verbose);
	ltt_testpoints_init();
	if (check_cmd_fd(opts.cmd_fd))
		return 1;
	/*
	 * A root consumer serving one user becomes that user (--uid, become())
	 * with that user's supplementary groups; one serving root's sessions
	 * acts on files with each trace owner's filesystem ids (fs.c) and no
	 * supplementary group.  Set before any thread starts (glibc applies
	 * setgroups() to all anyway).
	 */
	if (geteuid() == 0 && set_groups(opts.uid, opts.gid))
		return 1;
	ret = setup_signals(&sfd);
	if (ret) {
		LTT_ERR("can't set up signal handling: %s", strerror(-ret));
		return 1;
	}
	/*
	 * LTTng's consumer threads (lttng-health.h): the command thread takes
	 * channels, streams and metadata, the data threads move packets on
	 * their timers
	 */
	ret = ltt_data_threads_start((unsigned int)opts.data_threads,
				     opts.lttng_health ? LTT_LTTNG_HEALTH_CONSUMERD_DATA |
				     LTT_LTTNG_HEALTH_CONSUMERD_METADATA_TIMER : 0, &data);
	if (ret) {
		LTT_ERR("can't start %ld data thread(s): %s", opts.data_threads, strerror(-ret));
		close(sfd);
		return 1;
	}
	if (opts.uid >= 0 && become((uid_t)opts.uid, (gid_t)opts.gid)) {
		ltt_data_threads_stop(data);
		close(sfd);
		return 1;
	}
	/* a consumer that can't answer there records all the same */
	if (opts.lttng_health &&
	    ltt_lttng_health_serve(opts.lttng_health,
				   opts.lttng_gid < 0 ? (gid_t)-1 : (gid_t)opts.lttng_gid,
				   LTT_LTTNG_HEALTH_CONSUMERD_SLOTS, "LTT_SESSIOND_HEALTH_DELTA_MS",
				   &health))
		LTT_WARN("this consumer answers no LTTng health check; it records all the same");
	LTT_INFO("ready, pid %ld, %ld data thread(s)", (long)getpid(), opts.data_threads);
	ret = ltt_cmd_run(opts.cmd_fd, sfd, data,
			  opts.lttng_health ? LTT_LTTNG_HEALTH_CONSUMERD_CHANNEL |
			  LTT_LTTNG_HEALTH_CONSUMERD_METADATA | LTT_LTTNG_HEALTH_CONSUMERD_SESSIOND : 0);
	ltt_lttng_health_stop(health);
	ltt_data_threads_stop(data);
	close(sfd);
	close(opts.cmd_fd);
	LTT_INFO("exiting");
	return ret;
}
