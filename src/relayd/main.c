// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-relayd: options, listening sockets, daemonizing, signals,
 * and the server thread's loop.
 *
 * Start-up order: options checked; detach (-b, -d); signals; the three
 * ports listening (an address in use ends it here, with its name); the
 * output directory; the servers on the loop; then the pid file, the port
 * files, READY=1 to systemd, and the waiting caller of -b/-d released.
 * SIGTERM or SIGINT stops the loop: every connection is closed (a packet
 * cut short is removed from its file, so every file ends on a whole
 * packet), the files are closed, the pid and port files removed.
 * --lttng-compat (implied when run as lttng-relayd) adds LTTng's health
 * socket, answered by a thread of its own from the loop's heartbeat.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <popt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/evloop.h"
#include "common/base/sock.h"
#include "common/base/testpoint.h"
#include "common/base/daemon-popt.h"
#include "common/base/durable.h"
#include "common/base/log.h"
#include "common/base/daemon.h"
#include "common/base/paths.h"
#include "common/net/xport.h"
#include "common/proto/lttng-health.h"
#include "relayd/relayd.h"

struct options {
	char *ctrl_url, *data_url, *live_url;
	char *output;
	char *pidfile;
	char *ratelimit;	/* --log-ratelimit as given */
	char *tls_cert, *tls_key, *tls_ca;	/* all three, or none: plain */
	char *workdir;		/* -w, else $LTT_RELAYD_WORKING_DIRECTORY */
	int daemonize, background;
	int sig_parent;		/* -S: SIGUSR1 to the starter once listening */
	int verbose, quiet;
	int group_by_session, group_by_host;
	int disallow_clear;	/* --disallow-clear, else $LTTNG_RELAYD_DISALLOW_CLEAR */
	int lttng_compat;	/* LTTng's health socket too; run as lttng-relayd: implied */
	bool as_lttng;		/* run as lttng-relayd: LTTng's default output, lttng-traces */
};


/* The working directory's variables: ltt's, then LTTng's name. */
static const char *const workdir_envs[] = {
	"LTT_RELAYD_WORKING_DIRECTORY", "LTTNG_RELAYD_WORKING_DIRECTORY",
};

enum { CTRL, DATA, LIVE, NPORTS };

static const char *const port_kinds[NPORTS] = { "control", "data", "live" };
static const char *const port_opts[NPORTS] = { "-C", "-D", "-L" };
static const uint16_t default_ports[NPORTS] = {
	LTT_DEFAULT_RELAYD_CTRL_PORT, LTT_DEFAULT_RELAYD_DATA_PORT, LTT_DEFAULT_RELAYD_LIVE_PORT,
};

struct relayd {
	struct ltt_relay_addr addr[NPORTS];
	int fd[NPORTS];
	uint16_t port[NPORTS];
	char rundir[PATH_MAX];
	char statedir[PATH_MAX];	/* the journal's: $LTT_STATEDIR, else @rundir */
	bool statedir_given;
	char output[PATH_MAX];
	bool port_files, pid_file;
	struct ltt_evloop *loop;
	struct ltt_relay_model *model;
	struct ltt_relay_server *ctrl, *data;
	struct ltt_relay_live *live;
	struct ltt_xport_ctx *tls;	/* NULL: plain */
	int sfd;
	struct ltt_evloop_watch *sig_watch;
	struct ltt_lttng_health *health;	/* --lttng-compat's */
};

static int usage_error(const char *what)
{
	fprintf(stderr, "ltt-relayd: Error: %s\nTry 'ltt-relayd --help'.\n", what);
	return -1;
}

/*
 * Started as lttng-relayd (the ltt-lttng-compat package's
 * /usr/bin/lttng-relayd): the tools that run it by that name give LTTng's
 * options, whose short -p and -s group the output (by host, by session);
 * ltt-relayd's own -p, its pid file, is then --pidfile alone.
 */
static void lttng_short_options(struct poptOption *table)
{
	for (; table->longName || table->shortName; table++) {
		if (!table->longName)
			continue;
		if (!strcmp(table->longName, "pidfile"))
			table->shortName = '\0';
		else if (!strcmp(table->longName, "group-output-by-host"))
			table->shortName = 'p';
		else if (!strcmp(table->longName, "group-output-by-session"))
			table->shortName = 's';
	}
}

/* -h: ltt_daemon_opt()'s help, @ctx the popt context. */
static void print_help(void *ctx)
{
	poptPrintHelp(ctx, stdout, 0);
}

static int parse_options(int argc, const char **argv, struct options *o)
{
	struct poptOption table[] = {
		{ "control-port", 'C', POPT_ARG_STRING, &o->ctrl_url, 0,
		  "control port URL (default: tcp://0.0.0.0:5342)", "URL" },
		{ "data-port", 'D', POPT_ARG_STRING, &o->data_url, 0,
		  "data port URL (default: tcp://0.0.0.0:5343)", "URL" },
		{ "live-port", 'L', POPT_ARG_STRING, &o->live_url, 0,
		  "live viewer port URL (default: tcp://0.0.0.0:5344)", "URL" },
		{ "output", 'o', POPT_ARG_STRING, &o->output, 0,
		  "trace output directory (default: $LTT_HOME/ltt-traces; run as lttng-relayd, "
		  "$HOME/lttng-traces)", "DIR" },
		{ "daemonize", 'd', POPT_ARG_NONE, &o->daemonize, 0,
		  "detach, close standard streams, return once listening", NULL },
		{ "background", 'b', POPT_ARG_NONE, &o->background, 0,
		  "detach, keep standard streams, return once listening", NULL },
		{ "pidfile", 'p', POPT_ARG_STRING, &o->pidfile, 0, "write the pid to FILE",
		  "FILE" },
		/* LTTng's spelling */
		{ "pid-file", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &o->pidfile, 0, NULL,
		  NULL },
		{ "sig-parent", 'S', POPT_ARG_NONE, &o->sig_parent, 0,
		  "once listening, send SIGUSR1 to the process that started the daemon", NULL },
		{ "working-directory", 'w', POPT_ARG_STRING, &o->workdir, 0,
		  "run in DIR (default: where started; / with -d or -b)", "DIR" },
		/* LTTng's tests spell it so (getopt_long takes any unique prefix) */
		{ "working-dir", 0, POPT_ARG_STRING | POPT_ARGFLAG_DOC_HIDDEN, &o->workdir, 0,
		  NULL, NULL },
		{ "group-output-by-host", 0, POPT_ARG_NONE, &o->group_by_host, 0,
		  "write sessions in OUTPUT/HOST/SESSION-DATE (the default)", NULL },
		{ "group-output-by-session", 0, POPT_ARG_NONE, &o->group_by_session, 0,
		  "write sessions in OUTPUT/SESSION/HOST-DATE", NULL },
		{ "disallow-clear", 'x', POPT_ARG_NONE, &o->disallow_clear, 0,
		  "refuse to clear the sessions streamed here (LTTng's option)", NULL },
		{ "tls-cert", 0, POPT_ARG_STRING, &o->tls_cert, 0,
		  "speak only TLS 1.3 on every port, with this certificate (PEM)", "FILE" },
		{ "tls-key", 0, POPT_ARG_STRING, &o->tls_key, 0,
		  "the private key of --tls-cert (PEM)", "FILE" },
		{ "tls-ca", 0, POPT_ARG_STRING, &o->tls_ca, 0,
		  "accept only clients whose certificate this CA signed (PEM)", "FILE" },
		{ "lttng-compat", 0, POPT_ARG_NONE, &o->lttng_compat, 0,
		  "answer LTTng's health checks too, on relayd/health-PID in LTTng's run directory "
		  "or $LTTNG_RELAYD_HEALTH (implied when run as lttng-relayd)", NULL },
		{ "log-ratelimit", 0, POPT_ARG_STRING, &o->ratelimit, 0,
		  "at most LINES similar lines a peer causes per SECONDS, 0: no limit (default: 10/5)",
		  "LINES/SECONDS" },
		{ "verbose", 'v', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERBOSE,
		  "more messages (-v info, -vv debug)", NULL },
		{ "quiet", 'q', POPT_ARG_NONE, &o->quiet, 0, "errors only", NULL },
		{ "help", 'h', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_HELP, "show this help", NULL },
		{ "version", 'V', POPT_ARG_NONE, NULL, LTT_DAEMON_OPT_VERSION, "show the version", NULL },
		POPT_TABLEEND
	};
	poptContext ctx;
	int ret;

	if (ltt_daemon_started_as(argc, argv, "lttng-relayd")) {
		lttng_short_options(table);
		o->lttng_compat = 1;	/* what runs it so asks LTTng's health socket */
		o->as_lttng = true;
	}
	ctx = poptGetContext("ltt-relayd", argc, argv, table, 0);

	ret = ltt_daemon_popt("ltt-relayd", ctx, table, &o->verbose, print_help, NULL, NULL);
	if (ret)
		goto out;
	if (o->daemonize && o->background) {
		ret = usage_error("choose one of --daemonize and --background");
	} else if (o->output && !*o->output) {
		ret = usage_error("--output: give a directory");
	} else if (o->pidfile && !*o->pidfile) {
		ret = usage_error("--pidfile: give a file");
	} else if (o->workdir && !*o->workdir) {
		ret = usage_error("--working-directory: give a directory");
	} else if (o->group_by_host && o->group_by_session) {
		ret = usage_error("choose one of --group-output-by-host and --group-output-by-session");
	} else if ((o->tls_cert || o->tls_key || o->tls_ca) &&
		   !(o->tls_cert && o->tls_key && o->tls_ca)) {
		ret = usage_error("TLS needs all three of --tls-cert, --tls-key and --tls-ca (the CA that signs the clients' certificates)");
	}
out:
	poptFreeContext(ctx);
	return ret;
}

/* Check the -C/-D/-L URLs; 0 or -1 (said why). */
static int parse_addrs(const struct options *o, struct relayd *r)
{
	const char *urls[NPORTS] = { o->ctrl_url, o->data_url, o->live_url };
	char why[128], a[300], b[300];
	int i, j;

	for (i = 0; i < NPORTS; i++) {
		if (!urls[i]) {
			strcpy(r->addr[i].host, "0.0.0.0");
			r->addr[i].port = default_ports[i];
			continue;
		}
		if (ltt_relay_addr_parse(urls[i], default_ports[i], &r->addr[i], why, sizeof(why))) {
			fprintf(stderr, "ltt-relayd: Error: %s %s: %s\nTry 'ltt-relayd --help'.\n",
				port_opts[i], urls[i], why);
			return -1;
		}
	}
	for (i = 0; i < NPORTS; i++) {
		for (j = i + 1; j < NPORTS; j++) {
			if (!r->addr[i].port || r->addr[i].port != r->addr[j].port)
				continue;
			ltt_relay_addr_format(&r->addr[i], a, sizeof(a));
			ltt_relay_addr_format(&r->addr[j], b, sizeof(b));
			if (strcmp(r->addr[i].host, r->addr[j].host) &&
			    strcmp(r->addr[i].host, "0.0.0.0") && strcmp(r->addr[j].host, "0.0.0.0"))
				continue;
			fprintf(stderr, "ltt-relayd: Error: the %s port (%s) and the %s port (%s) "
				"must differ\n", port_kinds[i], a, port_kinds[j], b);
			return -1;
		}
	}
	return 0;
}

static int resolve_dirs(const struct options *o, struct relayd *r)
{
	const char *env = getenv("LTT_RUNDIR");
	int ret;

	if (env && *env)
		ret = ltt_path_absolute(r->rundir, sizeof(r->rundir), env);
	else if (geteuid() == 0)
		ret = snprintf(r->rundir, sizeof(r->rundir), "%s", LTT_ROOT_RUNDIR) < 0;
	else
		ret = ltt_home_find(LTT_HOME_RUNDIR, r->rundir, sizeof(r->rundir));
	if (ret) {
		fprintf(stderr, "ltt-relayd: Error: no run directory: set LTT_RUNDIR, LTT_HOME or HOME\n");
		return -1;
	}
	ret = ltt_daemon_state_dir("ltt-relayd", r->rundir, r->statedir, sizeof(r->statedir));
	if (ret < 0)
		return -1;
	r->statedir_given = ret;
	if (o->output)
		ret = ltt_path_absolute(r->output, sizeof(r->output), o->output);
	else
		ret = ltt_home_traces(o->as_lttng, r->output, sizeof(r->output));
	if (ret) {
		fprintf(stderr, "ltt-relayd: Error: no output directory: pass -o DIR, or set LTT_HOME or HOME\n");
		return -1;
	}
	return 0;
}

/* "PID\n" in @path, replaced at once (as the session daemon's). */
static int write_pidfile(const char *path)
{
	char text[32];

	snprintf(text, sizeof(text), "%ld\n", (long)getpid());
	return ltt_file_replace(path, text, strlen(text), 0644);
}

static void on_signal(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct signalfd_siginfo si;

	(void)events;
	(void)arg;
	while (read(fd, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
		if (si.ssi_signo == SIGHUP) {
			LTT_INFO("SIGHUP ignored");
			continue;
		}
		LTT_INFO("signal %u received: shutting down", si.ssi_signo);
		ltt_evloop_stop(loop);
	}
}

static int listen_all(struct relayd *r)
{
	char a[300];
	int i, ret;

	for (i = 0; i < NPORTS; i++) {
		ret = ltt_relay_listen(&r->addr[i], &r->fd[i], &r->port[i]);
		if (ret) {
			ltt_relay_addr_format(&r->addr[i], a, sizeof(a));
			LTT_ERR("can't listen on %s (the %s port, %s): %s%s", a, port_kinds[i],
				port_opts[i], ret == -ENOENT ? "the name does not resolve" :
				strerror(-ret), ret == -EADDRINUSE ?
				" (another relay daemon? choose another port)" : "");
			return ret;
		}
	}
	return 0;
}

/* @name's value, else @def; a value outside @min..@max is refused. */
static int env_uint(const char *name, unsigned int def, unsigned int min, unsigned int max,
		    const char *what, unsigned int *ret)
{
	const char *env = getenv(name);
	char *end;
	unsigned long v;

	*ret = def;
	if (!env || !*env)
		return 0;
	errno = 0;
	v = strtoul(env, &end, 10);
	if (errno || *end || v < min || v > max || env[0] == '-') {
		LTT_ERR("%s=%s: give %s, %u to %u", name, env, what, min, max);
		return -EINVAL;
	}
	*ret = (unsigned int)v;
	return 0;
}

/*
 * LTTNG_RELAYD_DISALLOW_CLEAR (LTTng's variable, read as LTTng reads it):
 * a number (0: clears allowed), or yes, true, on / no, false, off in any
 * case; unset or empty: allowed.  0 or -EINVAL (said why).
 */
static int env_disallow_clear(bool *ret)
{
	static const char *const yes[] = { "yes", "true", "on" }, *const no[] = { "no", "false", "off" };
	const char *env = getenv("LTTNG_RELAYD_DISALLOW_CLEAR");
	unsigned long v;
	char *end;
	size_t i;

	*ret = false;
	if (!env || !*env)
		return 0;
	v = strtoul(env, &end, 10);
	if (end != env && !*end) {
		*ret = v != 0;
		return 0;
	}
	for (i = 0; i < 3; i++) {
		if (!strcasecmp(env, yes[i]) || !strcasecmp(env, no[i])) {
			*ret = !strcasecmp(env, yes[i]);
			return 0;
		}
	}
	LTT_ERR("LTTNG_RELAYD_DISALLOW_CLEAR=%s: give yes, true, on or a number other than 0 to refuse clears; no, false, off or 0 to allow them",
		env);
	return -EINVAL;
}

/* The idle times and the model's limits, from the environment. */
static int env_settings(unsigned int *ret_idle, unsigned int *ret_bound_idle,
			unsigned int *ret_hello, struct ltt_relay_limits *ret_limits)
{
	int ret;

	ret = env_uint(LTT_RELAYD_IDLE_ENV, LTT_RELAY_DEFAULT_IDLE_MS, 1, 3600000,
		       "milliseconds", ret_idle);
	if (!ret)
		ret = env_uint(LTT_RELAYD_BOUND_IDLE_ENV, LTT_RELAYD_DEFAULT_BOUND_IDLE_MS, 1,
			       3600000, "milliseconds", ret_bound_idle);
	if (!ret)
		ret = env_uint(LTT_RELAYD_HELLO_ENV, LTT_RELAY_DEFAULT_HELLO_MS, 1, 3600000,
			       "milliseconds", ret_hello);
	if (!ret)
		ret = env_uint(LTT_RELAYD_MAX_SESSIONS_ENV, LTT_RELAY_DEFAULT_MAX_SESSIONS, 1,
			       1u << 20, "a number of sessions", &ret_limits->max_sessions);
	if (!ret)
		ret = env_uint(LTT_RELAYD_MAX_STREAMS_ENV, LTT_RELAY_DEFAULT_MAX_STREAMS, 1,
			       1u << 24, "a number of streams", &ret_limits->max_streams);
	if (!ret)
		ret = env_uint(LTT_RELAYD_MAX_SESSION_STREAMS_ENV,
			       LTT_RELAY_DEFAULT_MAX_SESSION_STREAMS, 1, 1u << 20,
			       "a number of streams", &ret_limits->max_session_streams);
	return ret;
}

/* File descriptors for the listening sockets, the loop, logs, passing opens. */
#define FD_RESERVE 64
/* A stream's tracefile and index, and at worst a trace's two directories. */
#define FDS_PER_STREAM 4

/* Raise the soft open file limit to the hard one; the soft limit then. */
static uint64_t raise_nofile(void)
{
	uint64_t n;

	if (ltt_daemon_raise_nofile(&n))
		return 1024;
	return n > (1u << 30) ? 1u << 30 : n;
}

/*
 * Fit connections and streams in the open file limit: the live viewers
 * and a reserve first, then up to a quarter of the rest for each of the
 * control and data ports, the rest for streams.  Lowers @l->max_streams,
 * returns the most connections per port; logs when the limit is low.
 */
static unsigned int fit_nofile(struct ltt_relay_limits *l)
{
	uint64_t nofile = raise_nofile(), fixed = FD_RESERVE + LTT_RELAY_LIVE_MAX_VIEWERS;
	uint64_t avail = nofile > fixed ? nofile - fixed : 0, conns = avail / 4, streams;
	uint64_t need = fixed + 2ULL * LTT_RELAY_MAX_CONNS + (uint64_t)FDS_PER_STREAM *
		l->max_streams;

	if (conns > LTT_RELAY_MAX_CONNS)
		conns = LTT_RELAY_MAX_CONNS;
	if (conns < 1)
		conns = 1;
	streams = avail > 2 * conns ? (avail - 2 * conns) / FDS_PER_STREAM : 0;
	if (streams < 1)
		streams = 1;
	if (streams < l->max_streams)
		l->max_streams = (unsigned int)streams;
	if (nofile < need)
		LTT_WARN("the open file limit is %llu: at most %llu control and %llu data "
			 "connections and %u streams (%llu files would allow %u connections a port "
			 "and the streams asked for; raise LimitNOFILE= or ulimit -n)",
			 (unsigned long long)nofile, (unsigned long long)conns,
			 (unsigned long long)conns, l->max_streams, (unsigned long long)need,
			 LTT_RELAY_MAX_CONNS);
	else
		LTT_DBG("open file limit %llu: %llu connections a port, %u streams",
			(unsigned long long)nofile, (unsigned long long)conns, l->max_streams);
	return (unsigned int)conns;
}

/* What the control and data ports share: their connections' bounds. */
struct port_bounds {
	unsigned int idle, bound_idle, hello, max_conns;
};

/* Serve port @i (CTRL or DATA, its fd taken on success) by @ops, into *@ret. */
static int port_start(struct relayd *r, int i, const struct ltt_relay_proto_ops *ops,
		      const struct port_bounds *b, struct ltt_relay_server **ret)
{
	int err = ltt_relay_server_start(r->loop, r->model, ops, r->fd[i], b->idle, b->hello, ret);

	if (err)
		return err;
	r->fd[i] = -1;
	ltt_relay_server_set_max_conns(*ret, b->max_conns);
	ltt_relay_server_set_bound_idle(*ret, b->bound_idle);
	ltt_relay_server_set_tls(*ret, r->tls);
	return 0;
}

/*
 * Before serving: what dead relays of this state directory (the run
 * directory, or $LTT_STATEDIR) left torn in their sessions' directories
 * cut back (journal.h), then this relay's own journal kept there.  0, or
 * -errno after saying why.
 */
static int keep_journal(struct relayd *r)
{
	struct ltt_relay_recovered rec;
	int ret = ltt_mkdir_p(r->rundir, geteuid() == 0 ? 0755 : 0700);

	if (!ret && r->statedir_given)
		ret = ltt_mkdir_p(r->statedir, 0700);
	if (!ret)
		ret = ltt_relay_journal_recover(r->statedir, &rec);
	if (!ret && rec.journals)	/* a relay died: said as loudly as a cut */
		LTT_WARN("%u dead relays' journals in %s: %u session directories looked at, %u files cut (%" PRIu64
			 " bytes torn), %u trace directories still written, %u errors", rec.journals,
			 r->statedir, rec.sessions, rec.cut, rec.bytes, rec.busy, rec.errors);
	if (!ret)
		ret = ltt_relay_journal_open(r->statedir, &r->model->journal);
	if (ret && r->statedir_given)
		LTT_ERR("%s=%s: can't keep the journal of the sessions written there (%s): give a directory the relay can write, or unset %s to keep it in the run directory",
			LTT_STATEDIR_ENV, r->statedir, strerror(-ret), LTT_STATEDIR_ENV);
	else if (ret)
		LTT_ERR("can't keep the journal of the sessions written in the run directory %s: %s",
			r->statedir, strerror(-ret));
	return ret;
}

static int serve_start(struct relayd *r, const struct options *o)
{
	struct ltt_relay_live_cfg lcfg = { 0 };
	struct ltt_relay_limits limits;
	struct port_bounds b;
	bool disallow_clear = false;
	int ret;

	ret = env_settings(&b.idle, &b.bound_idle, &b.hello, &limits);
	if (!ret && !o->disallow_clear)
		ret = env_disallow_clear(&disallow_clear);
	if (ret)
		return ret;
	ret = ltt_relay_model_create(r->output, &r->model);
	if (ret) {
		LTT_ERR("can't use the output directory %s: %s", r->output, strerror(-ret));
		return ret;
	}
	ret = keep_journal(r);
	if (ret)
		return ret;
	r->model->group_by_session = o->group_by_session;
	r->model->disallow_clear = o->disallow_clear || disallow_clear;
	b.max_conns = fit_nofile(&limits);
	r->model->limits = limits;
	ret = ltt_evloop_create(&r->loop);
	/* the one thread: LTTng's listeners, dispatchers and workers, live ones too */
	if (!ret && o->lttng_compat) {	/* and their test points */
		static struct ltt_testpoint tps[] = {
			LTT_TESTPOINT_INIT(relayd_thread_dispatcher), LTT_TESTPOINT_INIT(relayd_thread_worker),
			LTT_TESTPOINT_INIT(relayd_thread_listener),
			LTT_TESTPOINT_INIT(relayd_thread_live_dispatcher),
			LTT_TESTPOINT_INIT(relayd_thread_live_worker),
			LTT_TESTPOINT_INIT(relayd_thread_live_listener),
		};
		static const struct ltt_evloop_point points[] = {
			{ &tps[0], LTT_LTTNG_HEALTH_RELAYD_DISPATCHER },
			{ &tps[1], LTT_LTTNG_HEALTH_RELAYD_WORKER },
			{ &tps[2], LTT_LTTNG_HEALTH_RELAYD_LISTENER },
			{ &tps[3], LTT_LTTNG_HEALTH_RELAYD_LIVE_DISPATCHER },
			{ &tps[4], LTT_LTTNG_HEALTH_RELAYD_LIVE_WORKER },
			{ &tps[5], LTT_LTTNG_HEALTH_RELAYD_LIVE_LISTENER },
		};

		ltt_evloop_set_tag(r->loop, LTT_LTTNG_HEALTH_RELAYD_SLOTS);
		ltt_evloop_set_points(r->loop, points, 6);
	}
	if (!ret)
		ret = ltt_evloop_watch(r->loop, r->sfd, EPOLLIN, on_signal, r, &r->sig_watch);
	if (!ret)
		ret = port_start(r, CTRL, &ltt_relay_ctrl_ops, &b, &r->ctrl);
	if (!ret)
		ret = port_start(r, DATA, &ltt_relay_data_ops, &b, &r->data);
	if (!ret) {
		lcfg.model = r->model;
		lcfg.loop = r->loop;
		lcfg.listen_fd = r->fd[LIVE];
		lcfg.tls = r->tls;
		ret = ltt_relay_live_start(&lcfg, &r->live);
		if (!ret)
			r->fd[LIVE] = -1;
	}
	if (ret)
		LTT_ERR("can't start serving: %s", strerror(-ret));
	return ret;
}

static void serve_stop(struct relayd *r)
{
	struct ltt_relay_journal *journal;

	/* connections first: sessions close, packets cut short are removed */
	ltt_relay_live_stop(r->live);
	ltt_relay_server_stop(r->data);
	ltt_relay_server_stop(r->ctrl);
	ltt_evloop_unwatch(r->sig_watch);
	ltt_evloop_destroy(r->loop);
	journal = r->model ? r->model->journal : NULL;
	ltt_relay_model_destroy(r->model);
	ltt_relay_journal_close(journal);	/* the sessions' files are whole */
}

/* Pid file, port files: what others wait for, written once we serve. */
static int publish(struct relayd *r, const struct options *o)
{
	int i, ret;

	if (o->pidfile) {
		ret = write_pidfile(o->pidfile);
		if (ret) {
			LTT_ERR("can't write the pid file %s: %s", o->pidfile, strerror(-ret));
			return ret;
		}
		r->pid_file = true;
	}
	/* the run directory: made before serving, where the journal is kept */
	for (i = 0, ret = 0; !ret && i < NPORTS; i++)
		ret = ltt_relay_port_file_write(r->rundir, port_kinds[i], r->port[i]);
	if (ret) {
		LTT_ERR("can't write the port files in %s: %s", r->rundir, strerror(-ret));
		return ret;
	}
	r->port_files = true;
	return 0;
}

static void unpublish(struct relayd *r, const struct options *o)
{
	int i;

	if (r->port_files)
		for (i = 0; i < NPORTS; i++)
			ltt_relay_port_file_remove(r->rundir, port_kinds[i]);
	if (r->pid_file)
		unlink(o->pidfile);
}

/* systemd's credentials (LoadCredential=): the TLS files' names there. */
static const char *const cred_names[3] = { "tls-cert", "tls-key", "tls-ca" };

/*
 * Without --tls-*: the files of $CREDENTIALS_DIRECTORY/tls-cert, tls-key
 * and tls-ca, when the unit gives them, into @paths (@f pointing there).
 * 0 (none there: plain), 1 (all three), -1 after saying what is missing.
 */
static int credential_files(char paths[3][PATH_MAX], struct ltt_xport_tls_files *f)
{
	const char *dir = getenv("CREDENTIALS_DIRECTORY");
	int i, found = 0;

	if (!dir || !*dir)
		return 0;
	for (i = 0; i < 3; i++) {
		snprintf(paths[i], PATH_MAX, "%s/%s", dir, cred_names[i]);
		found += access(paths[i], F_OK) == 0;
	}
	if (found == 0)
		return 0;
	if (found != 3) {
		fprintf(stderr, "ltt-relayd: Error: the credentials in %s hold some of tls-cert, tls-key and tls-ca, not all three: give the unit all three LoadCredential= lines, or none for plain TCP\n",
			dir);
		return -1;
	}
	*f = (struct ltt_xport_tls_files){ paths[0], paths[1], paths[2] };
	return 1;
}

/* The TLS files, read before detaching; 0, or -1 after saying why. */
static int load_tls(const struct options *o, struct relayd *r)
{
	struct ltt_xport_tls_files f = { o->tls_cert, o->tls_key, o->tls_ca };
	char why[LTT_XPORT_ERR_MAX], paths[3][PATH_MAX];
	int ret = 0;

	if (!o->tls_cert)
		ret = credential_files(paths, &f);
	if (ret < 0)
		return -1;
	if (!o->tls_cert && !ret)
		return 0;
	if (ltt_xport_ctx_create(&f, true, why, sizeof(why), &r->tls)) {
		fprintf(stderr, "ltt-relayd: Error: %s\n", why);
		return -1;
	}
	return 0;
}

/*
 * -w, else the first variable of workdir_envs set: the directory to run in,
 * entered before anything else (a relative -o, -p or LTT_RUNDIR is then
 * taken from it).  @ret_set: whether there is one.  0, or -1 after saying
 * why.
 */
static int enter_workdir(const struct options *o, bool *ret_set)
{
	const char *dir = o->workdir, *from = "--working-directory";
	size_t i;

	for (i = 0; !dir && i < sizeof(workdir_envs) / sizeof(workdir_envs[0]); i++) {
		dir = getenv(workdir_envs[i]);
		if (dir && !*dir)
			dir = NULL;
		from = workdir_envs[i];
	}
	*ret_set = dir != NULL;
	if (!dir)
		return 0;
	if (chdir(dir)) {
		fprintf(stderr, "ltt-relayd: Error: Failed to change working directory to \"%s\" (%s): %s: give an existing directory\n",
			dir, from, strerror(errno));
		return -1;
	}
	/* as LTTng's relay: worth saying, not fatal (permissions may change) */
	if (access(".", W_OK))
		LTT_WARN("Working directory \"%s\" is not writable: %s", dir, strerror(errno));
	else
		LTT_DBG("working directory %s (%s)", dir, from);
	return 0;
}

/*
 * --lttng-compat: LTTng's health socket, $LTTNG_RELAYD_HEALTH, else
 * relayd/health-PID in LTTng's run directory; root's with the tracing
 * group, as LTTng's.  0, or a negative errno (said).
 */
static int lttng_health(struct relayd *r)
{
	const char *env = getenv(LTT_LTTNG_RELAYD_HEALTH_ENV);
	char dir[PATH_MAX], path[PATH_MAX], name[64];
	const struct group *gr = geteuid() == 0 ? getgrnam(LTT_TRACING_GROUP) : NULL;
	int ret;

	if (env && *env) {
		ret = snprintf(path, sizeof(path), "%s", env) >= (int)sizeof(path) ? -ENAMETOOLONG : 0;
	} else {
		snprintf(name, sizeof(name), "%s/health-%ld", LTT_LTTNG_RELAYD_HEALTH_DIR,
			 (long)getpid());
		ret = ltt_lttng_rundir(dir, sizeof(dir));
		if (!ret && ltt_path_join(path, sizeof(path), dir, name))
			ret = -ENAMETOOLONG;
	}
	if (ret) {
		LTT_ERR("--lttng-compat: no place for LTTng's health socket (%s): set %s, LTTNG_HOME or HOME",
			strerror(-ret), LTT_LTTNG_RELAYD_HEALTH_ENV);
		return ret;
	}
	ret = ltt_lttng_health_serve(path, gr ? gr->gr_gid : (gid_t)-1,
				     LTT_LTTNG_HEALTH_RELAYD_SLOTS, "LTT_RELAYD_HEALTH_DELTA_MS",
				     &r->health);
	if (ret)
		LTT_ERR("--lttng-compat: the relay stops, as LTTng's does without its health socket: stop the daemon that answers there, set %s to another path, or run ltt-relayd without --lttng-compat",
			LTT_LTTNG_RELAYD_HEALTH_ENV);
	return ret;
}

static int run(const struct options *o)
{
	struct relayd r = { .fd = { -1, -1, -1 }, .sfd = -1 };
	int ready_fd = -1, i, ret;
	unsigned int ready_flags = 0;
	bool workdir;

	if (enter_workdir(o, &workdir))
		return 1;
	if (o->daemonize)
		ready_flags |= LTT_DAEMON_CLOSE_STDIO;
	/* detached, the relay holds no directory but its own (LTTng's -d and -b) */
	if ((o->daemonize || o->background) && !workdir)
		ready_flags |= LTT_DAEMON_CHDIR_ROOT;
	if (parse_addrs(o, &r) || resolve_dirs(o, &r) || load_tls(o, &r)) {
		ltt_xport_ctx_destroy(r.tls);
		return 1;
	}
	if (o->sig_parent && ltt_daemon_sig_parent()) {
		LTT_ERR("--sig-parent: can't fork the process that will signal the starter");
		ltt_xport_ctx_destroy(r.tls);
		return 1;
	}
	if ((o->daemonize || o->background) && ltt_daemon_detach(&ready_fd))
		return 1;
	ret = ltt_daemon_block_signals(true, &r.sfd);
	if (ret)
		LTT_ERR("can't set up signal handling: %s", strerror(-ret));
	if (!ret)
		ret = listen_all(&r);
	if (!ret)
		ret = serve_start(&r, o);
	if (!ret && o->lttng_compat)
		ret = lttng_health(&r);
	if (!ret)
		ret = publish(&r, o);
	if (!ret) {
		LTT_INFO("ready: control port %u, data port %u, live port %u%s, output %s "
			 "(grouped by %s), pid %ld", r.port[CTRL], r.port[DATA], r.port[LIVE],
			 r.tls ? " (TLS 1.3 only)" : "", r.output,
			 o->group_by_session ? "session" : "host", (long)getpid());
		ltt_daemon_ready(ready_fd, ready_flags);
		ready_fd = -1;
		ret = ltt_evloop_run(r.loop);
		if (ret)
			LTT_ERR("the event loop failed: %s", strerror(-ret));
		ltt_daemon_stopping();
	}
	ltt_lttng_health_stop(r.health);
	serve_stop(&r);
	unpublish(&r, o);
	for (i = 0; i < NPORTS; i++)
		ltt_fd_close(&r.fd[i]);
	ltt_fd_close(&r.sfd);
	ltt_fd_close(&ready_fd);	/* the caller sees the pipe close: failure */
	ltt_xport_ctx_destroy(r.tls);
	return ret ? 1 : 0;
}

/*
 * The rate limit of the lines peers cause (--log-ratelimit, else
 * $LTT_RELAYD_LOG_RATELIMIT, else 10/5); 0, or -1 after saying why.
 */
static int set_ratelimit(const struct options *o)
{
	const char *env = "LTT_RELAYD_LOG_RATELIMIT";
	const char *text = o->ratelimit ? o->ratelimit : getenv(env);
	unsigned int burst = LTT_LOG_RL_BURST, secs = LTT_LOG_RL_INTERVAL_MS / 1000;

	if (text && ltt_log_ratelimit_parse(text, &burst, &secs)) {
		fprintf(stderr, "ltt-relayd: Error: %s=%s: give LINES/SECONDS (e.g. 10/5: at most 10 similar lines per 5 s), or 0 for no limit\nTry 'ltt-relayd --help'.\n",
			o->ratelimit ? "--log-ratelimit" : env, text);
		return -1;
	}
	ltt_log_ratelimit_set(burst, secs * 1000);
	return 0;
}

int main(int argc, const char **argv)
{
	struct options o = { 0 };
	int ret;

	ret = parse_options(argc, argv, &o);
	if (ret) {
		ret = ret > 0 ? 0 : 1;
		goto out;
	}
	ltt_log_init("ltt-relayd", o.quiet ? LTT_LOG_ERROR : LTT_LOG_WARN + o.verbose);
	ltt_testpoints_init();	/* LTTng's health tests' */
	ret = set_ratelimit(&o) ? 1 : run(&o);
out:
	/* popt's copies of the string options, also after a refused command line */
	free(o.ctrl_url);
	free(o.data_url);
	free(o.live_url);
	free(o.output);
	free(o.pidfile);
	free(o.ratelimit);
	free(o.tls_cert);
	free(o.tls_key);
	free(o.tls_ca);
	free(o.workdir);
	return ret;
}
