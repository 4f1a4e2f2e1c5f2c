// SPDX-License-Identifier: GPL-2.0-only
/*
 * options.c - ltt-sessiond's command line: its options (popt), the
 * per-user bounds given by option or environment and their ranges, the
 * consumer's data threads, the kernel backend and its probes, the clock,
 * and the user a root daemon drops to (--privsep-user).
 */
#include <ctype.h>
#include <errno.h>
#include <popt.h>
#include <pwd.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/daemon-popt.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/size.h"
#include "common/proto/app-proto.h"
#include "common/proto/client-proto.h"
#include "common/proto/consumer-proto.h"
#include "common/proto/lttng-client-proto.h"
#include "sessiond/daemon/options.h"
#include "sessiond/daemon/priv-table.h"
#include "sessiond/daemon/rundir.h"
#include "sessiond/sessiond.h"

/*
 * One bound: its option (with --help's words for it), environment
 * variable, where its value goes, its default and range.  bounds[i]'s
 * option as given is opts->bound_args[i].
 */
struct bound {
	const char *option;
	const char *env;
	size_t value;		/* offset in struct limits: unsigned int, or uint64_t for a size */
	bool size;		/* "4M" accepted */
	uint64_t def, min, max;	/* its default, its range */
	const char *help;	/* --help's description, without the default (from @def) */
	const char *what;	/* and its argument's name */
	const char *zero;	/* what 0 means, when @min is 0 */
};

static const struct bound bounds[] = {
	{ "max-clients-per-uid", "LTT_SESSIOND_MAX_CLIENTS_PER_UID",
	  offsetof(struct limits, max_clients_per_uid), false,
	  LTT_MAX_CLIENTS_PER_UID, 1, LTT_MAX_CLIENTS,
	  "client connections one user (not root) may hold", "N", NULL },
	{ "max-sessions-per-uid", "LTT_SESSIOND_MAX_SESSIONS_PER_UID",
	  offsetof(struct limits, max_sessions_per_uid), false,
	  LTT_MAX_SESSIONS_PER_UID, 1, LTT_MAX_SESSIONS,
	  "sessions one user (not root) may hold", "N", NULL },
	{ "max-apps-per-uid", "LTT_SESSIOND_MAX_APPS_PER_UID",
	  offsetof(struct limits, max_apps_per_uid), false,
	  LTT_APP_MAX_PER_UID, 1, LTT_UST_MAX_APPS,
	  "program connections one user (not root) may hold", "N", NULL },
	{ "max-triggers-per-uid", "LTT_SESSIOND_MAX_TRIGGERS_PER_UID",
	  offsetof(struct limits, max_triggers_per_uid), false,
	  LTT_TRIGGERS_MAX_PER_UID, 1, LTT_TRIGGERS_MAX,
	  "triggers one user (not root) may add", "N", NULL },
	{ "event-notifier-error-buffer-size-kernel",
	  "LTT_SESSIOND_EVENT_NOTIFIER_ERROR_BUFFER_SIZE_KERNEL",
	  offsetof(struct limits, rule_slots_kernel), false,
	  LTT_TRIGGER_RULE_SLOTS, 1, LTT_TRIGGER_RULE_SLOTS_MAX,
	  "event-rule-matches triggers of the kernel, all users together, at most: "
	  "LTTng's error counter slots, one a trigger", "SLOTS", NULL },
	{ "event-notifier-error-buffer-size-userspace",
	  "LTT_SESSIOND_EVENT_NOTIFIER_ERROR_BUFFER_SIZE_USERSPACE",
	  offsetof(struct limits, rule_slots_user), false,
	  LTT_TRIGGER_RULE_SLOTS, 1, LTT_TRIGGER_RULE_SLOTS_MAX,
	  "event-rule-matches triggers of user space (its agents' domains too), all "
	  "users together, at most", "SLOTS", NULL },
	{ "max-bytes-per-uid", "LTT_SESSIOND_MAX_BYTES_PER_UID",
	  offsetof(struct limits, max_bytes_per_uid), true,
	  LTT_MAX_BYTES_PER_UID, LTT_CLIENT_MSG_MAX, 1ULL << 34,
	  "bytes of requests, and as many of program messages, one user (not root) may "
	  "have the daemon hold while they arrive", "SIZE", NULL },
	{ "app-metadata-max", "LTT_SESSIOND_APP_METADATA_MAX",
	  offsetof(struct limits, metadata_max), true,
	  LTT_APP_METADATA_MAX, 4096, 1ULL << 30,
	  "bytes of event descriptions kept per program", "SIZE", NULL },
	{ "app-max-events", "LTT_SESSIOND_APP_MAX_EVENTS",
	  offsetof(struct limits, max_events), false,
	  LTT_APP_MAX_TRACEPOINTS, 1, LTT_APP_MAX_TRACEPOINTS,
	  "events kept per program", "N", NULL },
	{ "client-idle-timeout", "LTT_SESSIOND_CLIENT_IDLE_TIMEOUT",
	  offsetof(struct limits, idle_timeout_s), false,
	  LTT_CLIENT_IDLE_TIMEOUT_S, 0, 86400,
	  "close client connections idle so long between requests", "SECONDS", "never" },
	{ "consumerd-idle-ms", "LTT_SESSIOND_CONSUMERD_IDLE_MS",
	  offsetof(struct limits, consumerd_idle_ms), false,
	  LTT_CONSUMER_IDLE_MS, 0, 3600000,
	  "keep a user's consumer daemon so long after its last session, for the next",
	  "MS", "it exits with the last session" },
	{ "consumerd-reply-ms", "LTT_SESSIOND_CONSUMERD_REPLY_MS",
	  offsetof(struct limits, consumerd_reply_ms), false,
	  LTT_CONSUMER_REPLY_MS, 100, 600000,
	  "wait so long for a consumer daemon's answer to a command adding or removing a "
	  "trace, a channel or a stream: past it the command fails, the consumer going on",
	  "MS", NULL },
};
_Static_assert(sizeof(bounds) / sizeof(bounds[0]) == LTT_OPTIONS_BOUNDS,
	       "one bound for each of struct options' bound_args");

#define BOUND_HELP_MAX	256	/* a bound's --help text, its default included */

/* --help's text of @b into @buf (@size): its words, then its default from @b->def. */
static void bound_help(const struct bound *b, char *buf, size_t size)
{
	char def[32];

	if (b->size)
		ltt_size_format(b->def, def, sizeof(def));
	else
		snprintf(def, sizeof(def), "%llu", (unsigned long long)b->def);
	snprintf(buf, size, "%s (default: %s%s%s)", b->help, def, b->zero ? "; 0: " : "",
		 b->zero ? b->zero : "");
}

/* Store @v as @b's value in @lim. */
static void set_bound(const struct bound *b, struct limits *lim, uint64_t v)
{
	void *value = (char *)lim + b->value;

	if (b->size)
		*(uint64_t *)value = v;
	else
		*(unsigned int *)value = (unsigned int)v;
}

/*
 * Digits only, within [@min, @max] (or a size with a unit for @size), into
 * its place in @lim.
 */
static int parse_bound(const struct bound *b, const char *text, struct limits *lim)
{
	uint64_t v = 0;
	const char *p;

	if (b->size) {
		if (ltt_size_parse(text, &v))
			return -EINVAL;
	} else {
		if (!*text || strlen(text) > 10)
			return -EINVAL;
		for (p = text; *p; p++) {
			if (!isdigit((unsigned char)*p))
				return -EINVAL;
			v = v * 10 + (uint64_t)(*p - '0');
		}
	}
	if (v < b->min || v > b->max)
		return -ERANGE;
	set_bound(b, lim, v);
	return 0;
}

/*
 * Parse the per-user bounds from the options, else the environment, else
 * keep the defaults.  Returns 0, or -1 after saying what is wrong.
 */
static int parse_limits(struct options *opts)
{
	struct limits *lim = &opts->lim;
	const char *text, *env = "LTT_SESSIOND_LOG_RATELIMIT";
	size_t i;

	*lim = (struct limits){
		.log_burst = LTT_LOG_RL_BURST,
		.log_interval_s = LTT_LOG_RL_INTERVAL_MS / 1000,
	};
	for (i = 0; i < LTT_OPTIONS_BOUNDS; i++) {
		const struct bound *b = &bounds[i];
		const char *arg = opts->bound_args[i];

		set_bound(b, lim, b->def);
		text = arg ? arg : getenv(b->env);
		if (!text || parse_bound(b, text, lim) == 0)
			continue;
		fprintf(stderr, "ltt-sessiond: Error: %s%s=%s: give %s from %llu to %llu\n",
			arg ? "--" : "", arg ? b->option : b->env, text,
			b->size ? "a size (e.g. 4M)" : "a number",
			(unsigned long long)b->min, (unsigned long long)b->max);
		return -1;
	}
	text = opts->ratelimit_arg ? opts->ratelimit_arg : getenv(env);
	if (text && ltt_log_ratelimit_parse(text, &lim->log_burst, &lim->log_interval_s)) {
		fprintf(stderr, "ltt-sessiond: Error: %s%s=%s: give LINES/SECONDS (e.g. 10/5: at most 10 similar lines per 5 s), or 0 for no limit\n",
			opts->ratelimit_arg ? "--" : "", opts->ratelimit_arg ? "log-ratelimit" : env,
			text);
		return -1;
	}
	return 0;
}

/*
 * --consumerd-data-threads, else LTT_CONSUMERD_DATA_THREADS, checked here
 * as the consumers would (a bad value would stop each of them): the
 * option is passed on, the variable they inherit.
 */
static int parse_data_threads(struct options *opts)
{
	const char *text = opts->consumerd_threads_arg ? opts->consumerd_threads_arg :
			   getenv(LTT_CONSUMER_DATA_THREADS_ENV);
	unsigned int n;

	if (!text)
		return 0;
	if (!ltt_consumer_data_threads_parse(text, &n)) {
		if (opts->consumerd_threads_arg)	/* else the variable reaches them */
			opts->consumer.data_threads = n;
		return 0;
	}
	fprintf(stderr, "ltt-sessiond: Error: %s%s=%s: give a number from 1 to %d\n",
		opts->consumerd_threads_arg ? "--" : "",
		opts->consumerd_threads_arg ? "consumerd-data-threads" : LTT_CONSUMER_DATA_THREADS_ENV, text,
		LTT_CONSUMER_DATA_THREADS_MAX);
	return -1;
}

/*
 * The user the main process drops to: --privsep-user, else
 * $LTT_PRIVSEP_USER, else LTT_PRIVSEP_DEFAULT if it exists, else nobody
 * (a root daemon with its privileged part only: the default is no
 * demand, the option is).  "root" keeps root's rights.  -1 after saying
 * what is wrong.
 */
static int parse_privsep_user(struct options *opts)
{
	const char *name = opts->privsep_user ? opts->privsep_user : getenv("LTT_PRIVSEP_USER");
	const char *what = opts->privsep_user ? "--privsep-user" : "LTT_PRIVSEP_USER";
	struct passwd *pw;

	if (name && !strcmp(name, "root"))
		return 0;	/* kept, as asked: with --no-privsep or not, root or not */
	if (!opts->privsep_user && (geteuid() != 0 || opts->no_privsep))
		return 0;
	if (!name || (!*name && !opts->privsep_user)) {
		what = "the default --privsep-user";
		name = getpwnam(LTT_PRIVSEP_DEFAULT) ? LTT_PRIVSEP_DEFAULT : "nobody";
	}
	if (geteuid() != 0) {
		fprintf(stderr, "ltt-sessiond: Error: --privsep-user=%s: only a root daemon drops root's rights; this one runs as uid %u already: leave the option out\n",
			name, (unsigned int)geteuid());
		return -1;
	}
	if (opts->no_privsep) {
		fprintf(stderr, "ltt-sessiond: Error: --privsep-user=%s with --no-privsep: without its privileged part the daemon needs root's rights; leave one of them out\n",
			name);
		return -1;
	}
	pw = *name ? getpwnam(name) : NULL;
	if (!pw) {
		fprintf(stderr, "ltt-sessiond: Error: %s=%s: no such user; create it (adduser --system --group --no-create-home ltt) or name another, such as nobody (--privsep-user=root keeps root's rights)\n",
			what, name);
		return -1;
	}
	if (pw->pw_uid == 0 || pw->pw_gid == 0) {
		fprintf(stderr, "ltt-sessiond: Error: %s=%s: that user is root's (uid %u, gid %u): name one with no rights, such as ltt or nobody\n",
			what, name, (unsigned int)pw->pw_uid, (unsigned int)pw->pw_gid);
		return -1;
	}
	opts->drop = true;
	snprintf(opts->drop_name, sizeof(opts->drop_name), "%s", name);
	opts->drop_uid = pw->pw_uid;
	opts->drop_gid = pw->pw_gid;
	return 0;
}

/*
 * The consumer daemon program the user named (--consumerd-path, else
 * $LTT_CONSUMERD_PATH), made absolute from the directory the daemon
 * starts in (into consumerd_abs, which every consumer then runs): a file
 * it can run, or refused now rather than at the first session that
 * records.  The default (installed with the daemon) is not looked at: a
 * daemon that records nothing needs none.
 */
static int check_consumerd_path(struct options *opts)
{
	const char *env = getenv("LTT_CONSUMERD_PATH");
	const char *given = opts->consumerd_path && *opts->consumerd_path ? opts->consumerd_path :
			    env && *env ? env : NULL;
	struct stat st;
	int err;

	if (!given)
		return 0;
	err = -ltt_path_absolute(opts->consumerd_abs, sizeof(opts->consumerd_abs), given);
	if (!err && stat(opts->consumerd_abs, &st))
		err = errno;
	else if (!err && !S_ISREG(st.st_mode))
		err = S_ISDIR(st.st_mode) ? EISDIR : EACCES;
	else if (!err && access(opts->consumerd_abs, X_OK))
		err = errno;
	if (!err)
		return 0;
	fprintf(stderr, "ltt-sessiond: Error: %s%s: can't run it as the consumer daemon (%s): give the path of ltt-consumerd (installed in %s), or leave the %s out\n",
		given == env ? "LTT_CONSUMERD_PATH=" : "--consumerd-path=", given, strerror(err),
		LTT_LIBEXECDIR, given == env ? "variable" : "option");
	return -1;
}

/* "sched,syscalls": names of [a-z0-9_], one comma between them, bounded. */
static bool probes_valid(const char *list)
{
	size_t len = strlen(list), i;

	if (len == 0 || len >= LTT_KMODULE_WHY_MAX - 16 || list[0] == ',' || list[len - 1] == ',')
		return false;
	for (i = 0; i < len; i++) {
		if (list[i] == ',' ? list[i + 1] == ',' :
		    !(islower((unsigned char)list[i]) || isdigit((unsigned char)list[i]) ||
		      list[i] == '_'))
			return false;
	}
	return true;
}

/*
 * --kernel-backend: NULL (auto) or "auto", "module", "tracefs"; -EINVAL
 * otherwise.
 */
static int parse_backend(const char *arg, enum ltt_kernel_backend *ret)
{
	static const char *const names[] = {
		[LTT_KERNEL_BACKEND_AUTO] = "auto",
		[LTT_KERNEL_BACKEND_MODULE] = "module",
		[LTT_KERNEL_BACKEND_TRACEFS] = "tracefs",
	};
	size_t i;

	*ret = LTT_KERNEL_BACKEND_AUTO;
	for (i = 0; arg && i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(arg, names[i])) {
			*ret = (enum ltt_kernel_backend)i;
			return 0;
		}
	return arg ? -EINVAL : 0;
}

/* The clock of --clock, else $LTT_CLOCK, else auto; -1 after saying why not. */
static int choose_clock(struct options *opts)
{
	const char *want = opts->clock ? opts->clock : getenv("LTT_CLOCK");
	char err[256];

	if (want && !*want)
		want = NULL;
	if (!ltt_tclock_choose(want, "/sys", "/proc/cpuinfo", NULL, &opts->tclock, err, sizeof(err))) {
		ltt_tclock_plugin_choose(&opts->tclock, "ltt-sessiond");
		return 0;
	}
	fprintf(stderr, "ltt-sessiond: Error: %s%s: %s\n", opts->clock ? "--clock=" : "LTT_CLOCK=",
		want, err);
	return -1;
}

/*
 * The default trace format: --default-trace-format, else LTTng's
 * $LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT, else CTF 1.8, which the
 * babeltrace2 of Debian 12 reads (2.0 reads no CTF 2); -1 after saying
 * what is wrong.
 */
static int parse_trace_format(struct options *opts)
{
	const char *env = getenv("LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT");
	const char *want = opts->trace_format_arg ? opts->trace_format_arg : env;

	opts->trace_format = LTT_TRACE_FORMAT_CTF_1_8;
	opts->trace_format_chosen = want && *want;
	if (!want || !*want || !strcmp(want, "ctf-1.8"))
		return 0;
	if (!strcmp(want, "ctf-2")) {
		opts->trace_format = LTT_TRACE_FORMAT_CTF_2;
		return 0;
	}
	fprintf(stderr, "ltt-sessiond: Error: %s%s: give ctf-1.8 or ctf-2\n",
		opts->trace_format_arg ? "--default-trace-format=" : "LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT=",
		want);
	return -1;
}

/*
 * --member-reach: own (the default: a member's session records its own
 * user's programs) or all (every user's, as LTTng's tracing group does);
 * -1 after saying what is wrong.
 */
static int parse_member_reach(struct options *opts)
{
	const char *want = opts->member_reach_arg;

	opts->member_reach_all = false;
	if (!want || !strcmp(want, "own"))
		return 0;
	if (!strcmp(want, "all")) {
		opts->member_reach_all = true;
		return 0;
	}
	fprintf(stderr, "ltt-sessiond: Error: --member-reach=%s: give own (a member's sessions record its own programs) or all (every user's)\n",
		want);
	return -1;
}

/* ltt_options_parse(): options.h */
/* -h: ltt_daemon_opt()'s help, @ctx the popt context. */
static void print_help(void *ctx)
{
	poptPrintHelp(ctx, stdout, 0);
}

int ltt_options_parse(int argc, const char **argv, struct options *opts)
{
	const struct poptOption head[] = {
		{ "daemonize", 'd', POPT_ARG_NONE, &opts->daemonize, 0,
		  "detach, close standard streams, return once ready", NULL },
		{ "background", 'b', POPT_ARG_NONE, &opts->background, 0,
		  "detach, keep standard streams, return once ready", NULL },
		{ "sig-parent", 'S', POPT_ARG_NONE, &opts->sig_parent, 0,
		  "once ready, send SIGUSR1 to the process that started the daemon", NULL },
		{ "verbose", 'v', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERBOSE,
		  "more messages (-v info, -vv debug, -vvv trace)", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &opts->quiet, 0, "errors only", NULL },
		{ "rundir", 0, POPT_ARG_STRING, &opts->rundir, 0,
		  "run directory (default: $LTT_RUNDIR, /run/ltt for root, $LTT_HOME/.ltt)", "DIR" },
		{ "group", 0, POPT_ARG_STRING, &opts->group, 0,
		  "group allowed to use the root daemon (default: " LTT_TRACING_GROUP ")", "NAME" },
		{ "consumerd-path", 0, POPT_ARG_STRING, &opts->consumerd_path, 0,
		  "the consumer daemon program", "PATH" },
		{ "consumerd-data-threads", 0, POPT_ARG_STRING, &opts->consumerd_threads_arg, 0,
		  "the data threads of each consumer daemon, 1 to 64 (default: "
		  "$LTT_CONSUMERD_DATA_THREADS, else one per CPU it may run on, at most 16)", "N" },
		{ "no-privsep", 0, POPT_ARG_NONE, &opts->no_privsep, 0,
		  "root: no privileged part: the kernel tracer, its module, the consumers and owners' files handled by this process (debugging)",
		  NULL },
		{ "privsep-user", 0, POPT_ARG_STRING, &opts->privsep_user, 0,
		  "root: once its sockets are bound, the process that reads clients' and programs' "
		  "messages becomes USER, with no capability (default: $LTT_PRIVSEP_USER, else "
		  LTT_PRIVSEP_DEFAULT " if it exists, else nobody; root: it keeps root's rights)",
		  "USER" },
		{ "lttng-compat", 0, POPT_ARG_NONE, &opts->lttng_compat, 0,
		  "also serve LTTng 2.13's clients (Debian's lttng, liblttng-ctl, python3-lttng) on "
		  "LTTng's client socket (root: /var/run/lttng; others: $LTTNG_HOME or $HOME/.lttng), "
		  "unless a live lttng-sessiond serves it", NULL },
		{ "no-lttng-compat", 0, POPT_ARG_NONE, &opts->no_lttng_compat, 0,
		  "not --lttng-compat, even when started as lttng-sessiond", NULL },
		{ "no-kernel", 0, POPT_ARG_NONE, &opts->no_kernel, 0,
		  "no kernel tracing: don't load the kernel tracer", NULL },
		{ "kernel-backend", 0, POPT_ARG_STRING, &opts->kernel_backend, 0,
		  "how to trace the kernel: module (ltt's kernel module), tracefs (the "
		  "kernel's own tracing buffers), auto (the module where it loads, else "
		  "tracefs; the default)", "auto|module|tracefs" },
		{ "kmod-probes", 0, POPT_ARG_STRING, &opts->kmod_probes, 0,
		  "the kernel tracer's probes to enable, comma-separated (default: all)",
		  "PROBE[,PROBE...]" },
		{ "clock", 0, POPT_ARG_STRING, &opts->clock, 0,
		  "the clock of user-space events: tsc (the CPU's time-stamp counter, a few ns), "
		  "monotonic (clock_gettime), auto (tsc where the kernel keeps time with it, "
		  "else monotonic; the default, or $LTT_CLOCK)", "auto|tsc|monotonic" },
		{ "default-trace-format", 0, POPT_ARG_STRING, &opts->trace_format_arg, 0,
		  "the format of the traces of sessions created without one: ctf-1.8 (the default, "
		  "which babeltrace2 2.0 and later read) or ctf-2 (babeltrace2 2.1 and later; "
		  "default: $LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT, else ctf-1.8)", "ctf-1.8|ctf-2" },
		{ "member-reach", 0, POPT_ARG_STRING, &opts->member_reach_arg, 0,
		  "whose programs the sessions of the tracing group's members record: own (their "
		  "own user's; the default) or all (every user's, as LTTng's tracing group does); "
		  "root's sessions record every user's", "own|all" },
		{ "load", 'l', POPT_ARG_STRING, &opts->load, 0,
		  "load the saved sessions of FILE, or of the .ltt files of DIR, at start "
		  "(default: the autoload directories, $LTT_HOME/.lttng/sessions/auto and, "
		  "for root, " LTT_SYSCONFDIR "/ltt/sessions/auto)", "PATH" },
	};
	const struct poptOption tail[] = {
		{ "log-ratelimit", 0, POPT_ARG_STRING, &opts->ratelimit_arg, 0,
		  "similar log lines peers can cause, per interval (default: 10/5; 0: no limit)",
		  "LINES/SECONDS" },
		{ "help", 'h', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_HELP, "show this help", NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERSION, "show the version", NULL },
		POPT_TABLEEND
	};
	/* popt's table: head's options, then each bound's (from bounds[]), then tail's */
	struct poptOption table[sizeof(head) / sizeof(head[0]) + LTT_OPTIONS_BOUNDS +
				sizeof(tail) / sizeof(tail[0])];
	char help[LTT_OPTIONS_BOUNDS][BOUND_HELP_MAX];
	size_t n = sizeof(head) / sizeof(head[0]), i;
	poptContext ctx;
	int ret;

	memcpy(table, head, sizeof(head));
	for (i = 0; i < LTT_OPTIONS_BOUNDS; i++) {
		bound_help(&bounds[i], help[i], sizeof(help[i]));
		table[n + i] = (struct poptOption){ bounds[i].option, 0, POPT_ARG_STRING,
						    &opts->bound_args[i], 0, help[i],
						    bounds[i].what };
	}
	memcpy(table + n + LTT_OPTIONS_BOUNDS, tail, sizeof(tail));
	ctx = poptGetContext("ltt-sessiond", argc, argv, table, 0);
	ret = ltt_daemon_popt("ltt-sessiond", ctx, table, &opts->verbose, print_help, NULL, NULL);
	if (ret)
		goto out;
	if (opts->lttng_compat && opts->no_lttng_compat) {
		fprintf(stderr, "ltt-sessiond: Error: choose one of --lttng-compat and --no-lttng-compat\n");
		ret = -1;
	} else if (opts->daemonize && opts->background) {
		fprintf(stderr, "ltt-sessiond: Error: choose one of --daemonize and --background\n");
		ret = -1;
	} else if (parse_backend(opts->kernel_backend, &opts->backend)) {
		fprintf(stderr, "ltt-sessiond: Error: --kernel-backend=%s: give auto, module or tracefs\n",
			opts->kernel_backend);
		ret = -1;
	} else if (opts->kmod_probes && !probes_valid(opts->kmod_probes)) {
		fprintf(stderr, "ltt-sessiond: Error: --kmod-probes=%s: give probe group names "
			"([a-z0-9_]) separated by commas, e.g. sched,syscalls\n", opts->kmod_probes);
		ret = -1;
	} else if (parse_data_threads(opts) || parse_limits(opts) || choose_clock(opts) ||
		   parse_trace_format(opts) || parse_member_reach(opts) ||
		   parse_privsep_user(opts) || check_consumerd_path(opts)) {
		ret = -1;
	} else {
		/*
		 * Started as LTTng's daemon (argv[0] is lttng-sessiond: `lttng
		 * create` spawning LTTNG_SESSIOND_PATH, the ltt-lttng-compat
		 * package's /usr/bin/lttng-sessiond, exec -a): what runs
		 * lttng-sessiond by name expects LTTng's client socket, so
		 * --lttng-compat goes without saying, unless --no-lttng-compat.
		 */
		opts->as_lttng = !opts->no_lttng_compat &&
				 ltt_daemon_started_as(argc, argv, LTT_LTTNG_SESSIOND_NAME);
		if (opts->as_lttng)
			opts->lttng_compat = 1;
		/* and its consumers are lttng-consumerd to LTTng's tools (utils.sh's pgrep) */
		if (ltt_daemon_started_as(argc, argv, LTT_LTTNG_SESSIOND_NAME))
			opts->consumer.argv0 = "lttng-consumerd";
		opts->consumer.path = opts->consumerd_abs;
		opts->consumer.verbose = opts->verbose;
		opts->consumer.idle_ms = opts->lim.consumerd_idle_ms;
		opts->consumer.reply_ms = opts->lim.consumerd_reply_ms;
	}
out:
	poptFreeContext(ctx);
	return ret;
}
