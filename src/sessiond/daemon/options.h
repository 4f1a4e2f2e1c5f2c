/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * options.h - ltt-sessiond's command line (options.c): what it was given
 * (struct options), each value checked and parsed, and what main.c makes
 * of it.
 */
#ifndef LTT_SESSIOND_DAEMON_OPTIONS_H
#define LTT_SESSIOND_DAEMON_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "common/trace/tclock.h"
#include "sessiond/consumer/consumer.h"
#include "sessiond/kernel/kernel.h"

/* How many per-user bounds options.c's bounds[] describes, each an option and a variable. */
#define LTT_OPTIONS_BOUNDS 12

struct options {
	int daemonize;		/* detach, close stdio */
	int background;		/* detach, keep stdio */
	int sig_parent;		/* -S: SIGUSR1 to the starter once ready */
	int verbose;
	int quiet;
	char *rundir;
	char *group;
	char *consumerd_path;
	/* --consumerd-path, else $LTT_CONSUMERD_PATH, made absolute; "": the installed one */
	char consumerd_abs[LTT_PATH_MAX];
	char *consumerd_threads_arg;	/* --consumerd-data-threads as given, NULL: not given */
	struct ltt_consumer_config consumer;	/* from the options above: every consumer's */
	int no_kernel;		/* no kernel domain */
	int lttng_compat;	/* also serve LTTng's clients on LTTng's socket */
	int no_lttng_compat;	/* not even when started as lttng-sessiond */
	bool as_lttng;		/* started as lttng-sessiond: --lttng-compat, and that name */
	int no_privsep;		/* root: the kernel tracer's requests run in this process */
	char *privsep_user;	/* --privsep-user as given */
	bool drop;		/* root: this process drops to drop_uid, drop_gid */
	uid_t drop_uid;
	gid_t drop_gid;
	char drop_name[64];	/* whose they are */
	char *kmod_probes;	/* the tracer's probes to enable, NULL: all */
	char *kernel_backend;	/* --kernel-backend as given, NULL: auto */
	enum ltt_kernel_backend backend;
	char *load;		/* --load: sessions to load at start, NULL: autoload */
	char *clock;		/* --clock as given, NULL: $LTT_CLOCK, else auto */
	/* --default-trace-format as given, NULL: $LTTNG_SESSIOND_DEFAULT_TRACE_FORMAT */
	char *trace_format_arg;
	enum ltt_trace_format trace_format;	/* what it says: never DEFAULT */
	bool trace_format_chosen;	/* by the option or the variable */
	char *member_reach_arg;	/* --member-reach as given, NULL: own */
	bool member_reach_all;	/* members' sessions record every user's programs */
	struct ltt_tclock tclock;	/* the clock it chose */
	/* Per-user bounds: as given (NULL: not given; in options.c's bounds[] order), then parsed. */
	char *bound_args[LTT_OPTIONS_BOUNDS];
	char *ratelimit_arg;
	struct limits {
		unsigned int max_clients_per_uid;
		unsigned int max_sessions_per_uid;
		unsigned int max_apps_per_uid;
		unsigned int max_triggers_per_uid;
		unsigned int rule_slots_kernel;	/* event-rule-matches triggers, all users */
		unsigned int rule_slots_user;
		uint64_t max_bytes_per_uid;
		uint64_t metadata_max;
		unsigned int max_events;
		unsigned int idle_timeout_s;
		unsigned int consumerd_idle_ms;
		unsigned int consumerd_reply_ms;
		unsigned int log_burst;
		unsigned int log_interval_s;
	} lim;
};

/**
 * ltt_options_parse() - parse ltt-sessiond's @argc, @argv into @opts (the
 * per-user bounds from their options, else their environment variables,
 * else their defaults; the clock, the kernel backend, the user a root
 * daemon drops to)
 * @opts: zeroed by the caller; its strings, as given, are kept for the
 *        process's life
 *
 * Returns 0, 1 when the run is over already (--help, --version: printed),
 * or -1 after printing what is wrong (a usage error or a bad value).
 */
int ltt_options_parse(int argc, const char **argv, struct options *opts);

#endif /* LTT_SESSIOND_DAEMON_OPTIONS_H */
