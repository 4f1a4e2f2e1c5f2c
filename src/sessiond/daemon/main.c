// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-sessiond: run directory, daemonizing, signals (its options:
 * options.c).
 *
 * Start-up order: options; run directory locked (a second daemon stops
 * here); pid file; client socket listening; threads started; only then
 * is the caller of --daemonize/--background told that we are ready.
 * Shutdown (SIGTERM, SIGINT) runs the same steps backwards.
 */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/base/budget.h"
#include "common/base/daemon.h"
#include "common/base/log.h"
#include "common/base/paths.h"
#include "common/base/size.h"
#include "common/base/sock.h"
#include "common/base/testpoint.h"
#include "common/proto/app-proto.h"
#include "common/proto/client-proto.h"
#include "common/proto/lttng-health.h"
#include "common/proto/consumer-proto.h"
#include "sessiond/chunk/chunk-journal.h"
#include "sessiond/kernel/kernel-notify.h"
#include "sessiond/kernel/kernel-map.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/priv/priv.h"
#include "sessiond/daemon/autoload.h"
#include "sessiond/daemon/priv-table.h"
#include "sessiond/daemon/rundir.h"
#include "sessiond/sessiond.h"
#include "sessiond/model/map.h"
#include "sessiond/daemon/options.h"
#include "sessiond/daemon/triggers.h"

static int resolve_rundir(const struct options *opts, char *buf, size_t len)
{
	const char *env = getenv("LTT_RUNDIR");

	if (opts->rundir && *opts->rundir)
		env = opts->rundir;
	/* --daemonize changes to /: keep a relative directory meaning what it meant. */
	if (env && *env)
		return ltt_path_absolute(buf, len, env);
	if (geteuid() == 0) {
		strcpy(buf, LTT_ROOT_RUNDIR);
		return 0;
	}
	return ltt_home_find(LTT_HOME_RUNDIR, buf, len);
}

/*
 * The client socket, owned by root:GROUP 0660 for the root daemon; the
 * application socket, 0666 for the root daemon (every user's programs
 * register; their credentials are checked) and 0600 for a personal one.
 */
static int listen_on(const struct ltt_rundir *rd, const char *name, bool root,
		     const struct group *gr, int *ret_fd)
{
	bool app = !strcmp(name, LTT_APP_SOCKET_NAME);
	mode_t mode = !root ? 0600 : app ? 0666 : gr ? 0660 : 0600;
	char path[PATH_MAX];
	int ret;

	ret = ltt_rundir_file(rd, name, path, sizeof(path));
	if (ret)
		return ret;
	ret = ltt_sock_listen_unix(path, mode, ret_fd);
	if (ret) {
		LTT_ERR("can't listen on %s: %s", path, strerror(-ret));
		return ret;
	}
	if (root && gr && !app && chown(path, 0, gr->gr_gid)) {
		ret = -errno;
		LTT_ERR("can't give %s to group %s: %s", path, gr->gr_name, strerror(errno));
		close(*ret_fd);
		unlink(path);
		return ret;
	}
	return 0;
}

/* Wait for SIGTERM or SIGINT on @sfd; SIGHUP is ignored. */
static void wait_for_stop(int sfd)
{
	struct signalfd_siginfo si;

	for (;;) {
		ssize_t n = read(sfd, &si, sizeof(si));

		if (n < 0 && errno == EINTR)
			continue;
		if (n != sizeof(si))
			return;
		if (si.ssi_signo == SIGHUP) {
			LTT_INFO("SIGHUP ignored");
			continue;
		}
		LTT_INFO("signal %u received: shutting down", si.ssi_signo);
		return;
	}
}

/* Unlink the sockets of a run directory. */
static void unlink_sockets(const struct ltt_rundir *rd)
{
	static const char *const names[] = { LTT_CLIENT_SOCKET_NAME, LTT_APP_SOCKET_NAME };
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!ltt_rundir_file(rd, names[i], path, sizeof(path)))
			unlink(path);
}

/* Everything that lives while the daemon serves. */
struct daemon {
	struct ltt_session_registry registry;
	struct ltt_domains domains;
	struct ltt_ust ust;
	struct ltt_kernel kernel;
	struct ltt_client_thread *clients;
	struct ltt_client_thread *lttng_clients;	/* --lttng-compat, else NULL */
	struct ltt_client_thread *lttng_notif;	/* --lttng-compat's notification channel */
	struct ltt_lttng_health *lttng_health;	/* --lttng-compat's health socket */
	struct ltt_app_thread *apps;
	struct ltt_chunk_sched *sched;	/* scheduled rotations */
	struct ltt_triggers triggers;
	struct ltt_maps maps;
	struct ltt_trigger_runner *runner;
	struct ltt_lagent *lagent;	/* LTTng's agents, NULL: none */
	struct ltt_lust *lust;		/* --lttng-compat: LTTng-UST's own programs, else NULL */
	/*
	 * Bytes per user: one budget for client requests, one for program
	 * messages, so a user's pending requests never refuse its programs'
	 * event descriptions (issue 61).
	 */
	struct ltt_budget client_budget;
	struct ltt_budget app_budget;
	int app_fd, client_fd;		/* listening, until their threads take them */
	int lttng_fd;			/* --lttng-compat's, the same; -1: none */
	int lttng_notif_fd;		/* its notification channel's; -1: none */
	int lttng_health_fd;		/* its health socket's; -1: none */
	int lust_fds[LTT_LUST_SOCKETS];	/* its LTTng-UST application sockets'; -1: none */
	/* how consumers are started: the options', with LTTng's health sockets (--lttng-compat) */
	struct ltt_consumer_config consumer;
	char lttng_dir[PATH_MAX];	/* LTTng's run directory, for them */
	char lttng_path[PATH_MAX];	/* its socket, "" for none */
	bool dropped;			/* root's rights given up (ltt_priv_drop()) */
};

/* The public code for why the kernel domain could not start (kernel.h). */
static const struct ltt_errmap kernel_refusals[] = {
	{ -ENOSYS, LTT_ERR_KERNEL_NO_MODULES },
	{ -ENOENT, LTT_ERR_KERNEL_MODULE_MISSING },
	{ -EKEYREJECTED, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -ENOKEY, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -EKEYREVOKED, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -EKEYEXPIRED, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -EBADMSG, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -ENOEXEC, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -EINVAL, LTT_ERR_KERNEL_MODULE_REFUSED },
	{ -EPROTO, LTT_ERR_KERNEL_VERSION_MISMATCH },
	{ LTT_ERRMAP_ELSE, LTT_ERR_KERNEL_UNAVAILABLE },
};

/*
 * Serve the kernel domain if we can; if not, say why once here, and every
 * kernel command gets the reason's code.  User space is served either way.
 */
static void kernel_domain(struct daemon *d, const struct options *opts, bool root)
{
	char why[LTT_KMODULE_WHY_MAX];
	int ret;

	if (!root) {
		ltt_domains_refuse(&d->domains, LTT_DOMAIN_KERNEL, LTT_ERR_KERNEL_NEEDS_ROOT,
				   "the daemon does not run as root");
		return;
	}
	if (opts->no_kernel) {
		ltt_domains_refuse(&d->domains, LTT_DOMAIN_KERNEL, LTT_ERR_KERNEL_DISABLED,
				   "--no-kernel");
		return;
	}
	ret = ltt_kernel_init(&d->kernel, opts->backend, opts->kmod_probes, &d->registry,
			      &d->consumer, why, sizeof(why));
	if (ret) {
		ltt_domains_refuse(&d->domains, LTT_DOMAIN_KERNEL,
				   LTT_ERRMAP(kernel_refusals, ret, NULL), why);
		return;
	}
	ltt_domains_register(&d->domains, &d->kernel.domain);
}

/*
 * Where this daemon writes its port for LTTng's agents: in LTTng's place
 * (@lttng), where they look for LTTng's root daemon (the daemon of the
 * root run directory) or a personal one; else in its run directory.
 */
static int agent_port_file(const char *rundir, bool lttng, char *buf, size_t len)
{
	return ltt_lagent_port_file(rundir, lttng, !strcmp(rundir, LTT_ROOT_RUNDIR), buf, len);
}

/*
 * LTTng's agents: their port, in that file, before sessions exist, so
 * that no rule is missed.
 */
static int lagent_start(struct daemon *d, const struct ltt_rundir *rd)
{
	bool lttng = d->lttng_path[0] != '\0';
	char port_file[PATH_MAX];
	unsigned int port;
	int ret;

	ret = agent_port_file(rd->path, lttng, port_file, sizeof(port_file));
	if (ret) {
		LTT_WARN("no home directory for LTTng's agents' port file (set LTTNG_HOME or HOME): they won't find this daemon");
		return 0;
	}
	/* LTTng's file, another daemon's while it listens on the port it names */
	if (lttng && ltt_lagent_port_taken(port_file, &port) == 1) {
		LTT_ERR("--lttng-compat: %s names port %u, where another daemon serves LTTng's agents (an LTTng session daemon?): stop it, or run ltt-sessiond without --lttng-compat (LTTng's agents then reach ltt under ltt-run)",
			port_file, port);
		return -EADDRINUSE;
	}
	/* root's rights given up: written by the privileged part (the file it was given) */
	ret = ltt_lagent_start(port_file, d->dropped ? ltt_priv_agent_port : NULL, &d->lagent);
	if (!ret)
		d->ust.lagent = d->lagent;
	return ret;
}

/* struct ltt_triggers' sync: what programs sent, read before triggers are listed */
static void sync_apps(void *arg)
{
	ltt_app_thread_sync(arg);
}

static int serve_start(struct daemon *d, const struct ltt_rundir *rd, bool root,
		       const struct group *gr, const char *group, const struct limits *lim)
{
	struct ltt_client_thread_config ccfg = {
		.registry = &d->registry,
		.domains = &d->domains,
		.root_daemon = root,
		.has_tracing_group = gr != NULL,
		.tracing_gid = gr ? gr->gr_gid : 0,
		.tracing_group = group,
		.max_per_uid = lim->max_clients_per_uid,
		.idle_timeout_ms = lim->idle_timeout_s * 1000,
		.triggers = &d->triggers,
		.budget = &d->client_budget,
		.rundir = rd->path,
		.health_tag = LTT_LTTNG_HEALTH_CMD,	/* LTTng's health socket's slots */
	};
	struct ltt_app_thread_config acfg = {
		.budget = &d->app_budget,
		.max_per_uid = lim->max_apps_per_uid,
		.max_unregistered_per_uid = lim->max_apps_per_uid < LTT_APP_MAX_UNREGISTERED_PER_UID ?
			lim->max_apps_per_uid : LTT_APP_MAX_UNREGISTERED_PER_UID,
		.metadata_max = lim->metadata_max,
		.health_tag = LTT_LTTNG_HEALTH_APPS,
	};
	int ret;

	ltt_ust_app_listener(&d->ust, &acfg.listener);
	acfg.listen_fd = d->app_fd;
	d->app_fd = -1;
	ret = ltt_app_thread_start(&acfg, &d->apps);
	if (ret) {
		LTT_ERR("can't start the application thread: %s", strerror(-ret));
		return ret;
	}
	d->triggers.sync = sync_apps;	/* no client yet */
	d->triggers.sync_arg = d->apps;
	ret = lagent_start(d, rd);
	if (ret)
		return ret;
	if (d->lust_fds[0] >= 0) {
		ret = ltt_lust_start(d->lust_fds, &d->lust);
		if (ret)
			return ret;
		d->ust.lust = d->lust;
	}
	ccfg.listen_fd = d->client_fd;
	d->client_fd = -1;
	ret = ltt_chunk_sched_start(&d->registry, &d->domains, &d->sched);
	if (ret) {
		LTT_ERR("can't start the rotation thread: %s", strerror(-ret));
		return ret;
	}
	ret = ltt_client_thread_start(&ccfg, &d->clients);
	if (ret) {
		LTT_ERR("can't start the client thread: %s", strerror(-ret));
		return ret;
	}
	if (d->lttng_fd >= 0) {
		/* LTTng's clients: the same sessions, limits and workers' commands */
		ccfg.listen_fd = d->lttng_fd;
		ccfg.wire = LTT_CLIENT_WIRE_LTTNG;
		ccfg.triggers = NULL;	/* no SUBSCRIBE on LTTng's wire */
		d->lttng_fd = -1;
		ret = ltt_client_thread_start(&ccfg, &d->lttng_clients);
		if (ret) {
			LTT_ERR("can't start the LTTng client thread: %s", strerror(-ret));
			return ret;
		}
		/* and LTTng's notification channel: subscribers of ltt's triggers */
		ccfg.listen_fd = d->lttng_notif_fd;
		ccfg.wire = LTT_CLIENT_WIRE_LTTNG_NOTIF;
		ccfg.triggers = &d->triggers;
		ccfg.health_tag = LTT_LTTNG_HEALTH_NOTIFICATION;
		d->lttng_notif_fd = -1;
		ret = ltt_client_thread_start(&ccfg, &d->lttng_notif);
		if (ret) {
			LTT_ERR("can't start the LTTng notification channel thread: %s",
				strerror(-ret));
			return ret;
		}
		/* and LTTng's health socket, on every loop's heartbeat */
		ret = ltt_lttng_health_start(d->lttng_health_fd, LTT_LTTNG_HEALTH_SESSIOND_SLOTS,
					     "LTT_SESSIOND_HEALTH_DELTA_MS", &d->lttng_health);
		d->lttng_health_fd = -1;
		if (ret) {
			LTT_ERR("can't start the LTTng health thread: %s", strerror(-ret));
			return ret;
		}
	}
	ret = ltt_trigger_runner_start(&d->triggers, &d->registry, &d->domains, d->clients,
				       d->lttng_notif, &d->runner);
	if (ret)
		LTT_ERR("can't start the trigger runner: %s", strerror(-ret));
	return ret;
}

/*
 * Shutdown: no more clients, then every session stopped and destroyed
 * (what was recorded is written), then no more applications, then the
 * consumer.
 */
static void serve_stop(struct daemon *d, bool root)
{
	struct ltt_cmd_ctx ctx = {
		.registry = &d->registry,
		.domains = &d->domains,
		.cred = { .uid = 0 },
		.client_fd = -1,
	};

	ltt_trigger_runner_stop(d->runner);
	ltt_lttng_health_stop(d->lttng_health);
	ltt_client_thread_stop(d->lttng_notif);
	ltt_client_thread_stop(d->lttng_clients);
	ltt_client_thread_stop(d->clients);
	ltt_chunk_sched_stop(d->sched);
	ltt_cmd_destroy_all(&ctx);
	d->ust.lagent = NULL;
	ltt_lagent_stop(d->lagent);
	d->ust.lust = NULL;
	ltt_lust_stop(d->lust);
	d->triggers.sync = NULL;
	ltt_app_thread_stop(d->apps);
	ltt_knotify_stop(d->kernel.notify);	/* the kernel's firings end too */
	ltt_trigger_runner_free(d->runner);
	ltt_domains_fini(&d->domains);
	ltt_triggers_fini(&d->triggers);
	ltt_maps_fini(&d->maps);
	ltt_session_registry_fini(&d->registry);
	ltt_budget_fini(&d->client_budget);
	ltt_budget_fini(&d->app_budget);
}

/*
 * Raise the soft open file limit to the hard one: every program and
 * client holds a descriptor.  Says so when even that is short of what the
 * connection limits allow.
 */
static void raise_nofile(const struct limits *lim)
{
	uint64_t need = LTT_MAX_CLIENTS + LTT_UST_MAX_APPS + 1024;
	uint64_t n;

	if (ltt_daemon_raise_nofile(&n))
		return;
	if (n < need)
		LTT_WARN("the open file limit is %llu: fewer than the %u clients, %u programs and their traces may need (%llu); raise it (LimitNOFILE=, ulimit -Hn)",
			 (unsigned long long)n, LTT_MAX_CLIENTS, LTT_UST_MAX_APPS,
			 (unsigned long long)need);
	LTT_INFO("open file limit %llu; per user: %u clients, %u programs; %llu bytes of event descriptions and %u events per program",
		 (unsigned long long)n, lim->max_clients_per_uid, lim->max_apps_per_uid,
		 (unsigned long long)lim->metadata_max, lim->max_events);
}

/*
 * Give up root's rights for good (ltt_priv_drop()), the sockets bound and
 * no thread started: first what must stay root's (the chunk journals,
 * written by the privileged part from now on; systemd's socket, connected
 * now; the autoload, forked now, run once the client thread serves).  0,
 * or a negative errno (logged).
 */
static int drop_root(const struct options *opts, const char *rundir, const char *load,
		     struct ltt_autoload_child *autoload)
{
	int ret;

	ltt_chunk_journal_remote();
	ltt_daemon_notify_connect();
	ret = ltt_autoload_fork(rundir, load, true, autoload);
	if (ret) {
		LTT_ERR("can't fork the process that loads the saved sessions: %s", strerror(-ret));
		return ret;
	}
	ret = ltt_priv_drop(opts->drop_uid, opts->drop_gid);
	if (ret) {
		LTT_ERR("can't give up root's rights for user %s (uid %u, gid %u): %s",
			opts->drop_name, (unsigned int)opts->drop_uid, (unsigned int)opts->drop_gid, strerror(-ret));
		return ret;
	}
	LTT_INFO("root's rights given up: uid %u, gid %u, no capability; the privileged part (pid %ld) keeps them",
		 (unsigned int)opts->drop_uid, (unsigned int)opts->drop_gid,
		 (long)ltt_priv_pid(ltt_priv_get()));
	if (ltt_priv_bounding_set())
		LTT_INFO("the capability bounding set keeps %d capabilities (no CAP_SETPCAP to empty it, as under a unit's CapabilityBoundingSet= without it): no_new_privs keeps any from being gained",
			 ltt_priv_bounding_set());
	return 0;
}

static int run(const struct options *opts)
{
	struct ltt_rundir rd = { .lock_fd = -1 };
	const char *group = opts->group ? opts->group : LTT_TRACING_GROUP;
	bool root = geteuid() == 0;
	int ready_fd = -1, sfd = -1, ret;
	struct ltt_autoload_child autoload = { 0 };
	struct group *gr = NULL;
	struct daemon d = { .app_fd = -1, .client_fd = -1, .lttng_fd = -1, .lttng_notif_fd = -1,
			  .lttng_health_fd = -1 };
	char rundir[PATH_MAX], load[PATH_MAX], port_file[PATH_MAX], lttng_sock[PATH_MAX];
	char statedir[PATH_MAX];
	size_t i;

	for (i = 0; i < LTT_LUST_SOCKETS; i++)
		d.lust_fds[i] = -1;

	ltt_testpoints_init();
	ret = resolve_rundir(opts, rundir, sizeof(rundir));
	if (ret) {
		LTT_ERR("no run directory: set LTT_RUNDIR, LTT_HOME or HOME, or pass --rundir");
		return 1;
	}
	/* the state directory's journals are used at start: a bad one said before anything */
	if (ltt_daemon_state_dir("ltt-sessiond", rundir, statedir, sizeof(statedir)) < 0)
		return 1;
	/* --daemonize changes to /: a relative --load means what it meant. */
	if (opts->load && (!*opts->load || ltt_path_absolute(load, sizeof(load), opts->load))) {
		LTT_ERR("--load '%s': not a usable path", opts->load);
		return 1;
	}
	if (root) {
		gr = getgrnam(group);
		/* Only the system-wide daemon is expected to serve the group. */
		if (!gr)
			ltt_log(strcmp(rundir, LTT_ROOT_RUNDIR) ? LTT_LOG_INFO : LTT_LOG_WARN,
				"group '%s' does not exist: only root can use this daemon (create it with 'groupadd -r %s')",
				group, group);
	}
	if (opts->sig_parent && ltt_daemon_sig_parent()) {
		LTT_ERR("--sig-parent: can't fork the process that will signal the starter");
		return 1;
	}
	if ((opts->daemonize || opts->background) && ltt_daemon_detach(&ready_fd))
		return 1;
	raise_nofile(&opts->lim);
	ret = ltt_daemon_block_signals(false, &sfd);
	if (ret) {
		LTT_ERR("can't set up signal handling: %s", strerror(-ret));
		goto out;
	}
	/* --lttng-compat: our consumers answer on LTTng's consumers' health sockets */
	d.consumer = opts->consumer;
	if (opts->lttng_compat && !ltt_lttng_rundir(d.lttng_dir, sizeof(d.lttng_dir))) {
		d.consumer.lttng_dir = d.lttng_dir;
		d.consumer.lttng_gid = root && gr ? gr->gr_gid : (gid_t)-1;
	}
	/* before any thread: the privileged part (priv.h) forks from here */
	if (root && !opts->no_privsep) {
		ltt_privsep_consumers(&d.consumer);
		if (opts->drop)
			ltt_privsep_drops(rundir, agent_port_file(rundir, opts->lttng_compat, port_file,
								  sizeof(port_file)) ? NULL : port_file,
					  opts->lttng_compat && !ltt_lttng_compat_socket(
						  lttng_sock, sizeof(lttng_sock)) ? lttng_sock : NULL);
		/*
		 * Run as lttng-sessiond, root's daemon is looked for by name
		 * among root's processes (lttng-analyses-record's `pgrep -u
		 * root lttng-sessiond`): the part that keeps root's rights is
		 * named so too, as LTTng's root daemon is root.
		 */
		ret = ltt_priv_start(ltt_privsep_serve, opts->daemonize,
				     opts->as_lttng ? LTT_LTTNG_SESSIOND_NAME : "ltt-priv");
		if (ret) {
			LTT_ERR("can't start the privileged part: %s", strerror(-ret));
			goto out;
		}
	}
	ret = ltt_rundir_open(&rd, rundir, root);
	if (ret)
		goto out;
	ret = ltt_rundir_write_pid(&rd);
	if (ret) {
		LTT_ERR("can't write the pid file in %s: %s", rundir, strerror(-ret));
		goto out;
	}
	/* what a dead daemon's sessions left: made whole before anything new */
	ret = ltt_chunk_journal_init(rundir);
	if (ret)
		goto out;
	ltt_chunk_journal_recover(ltt_chunk_recover);
	ret = listen_on(&rd, LTT_APP_SOCKET_NAME, root, gr, &d.app_fd);
	if (!ret)
		ret = listen_on(&rd, LTT_CLIENT_SOCKET_NAME, root, gr, &d.client_fd);
	if (!ret && opts->lttng_compat)
		ret = ltt_lttng_compat_listen(root, gr, d.lttng_path, sizeof(d.lttng_path),
					      &d.lttng_fd, &d.lttng_notif_fd, &d.lttng_health_fd,
					      d.lust_fds);
	/*
	 * LTTng's, before its notification thread's loop (testpoint.h); here
	 * with the rights the daemon was started with (its function makes a
	 * FIFO where the test says)
	 */
	if (!ret && LTT_TESTPOINT(sessiond_thread_notification))
		LTT_WARN("test point sessiond_thread_notification failed: notifications can't be paused");
	/* both sockets bound, no thread yet: root's rights are given up here */
	if (!ret && opts->drop)
		ret = drop_root(opts, rundir, opts->load ? load : NULL, &autoload);
	if (ret) {
		unlink_sockets(&rd);
		ltt_lttng_compat_clean(d.lttng_path, getpid());
		goto out;
	}
	d.dropped = opts->drop;
	ltt_session_registry_init(&d.registry);
	d.registry.max_per_uid = opts->lim.max_sessions_per_uid;
	d.registry.clock = opts->tclock;
	d.registry.trace_format = opts->trace_format;
	d.registry.trace_format_chosen = opts->trace_format_chosen;
	/*
	 * A personal daemon has no members: its owner's sessions record the
	 * programs that may register there (the owner's, and root's that
	 * chose it), as before.
	 */
	d.registry.member_reach_all = opts->member_reach_all || !root;
	LTT_INFO("user-space events are timed with the %s clock (read with %s): %s",
		 ltt_tclock_name(opts->tclock.kind), ltt_tclock_read_name(opts->tclock.kind),
		 opts->tclock.why);
	ltt_domains_init(&d.domains);
	ltt_triggers_init(&d.triggers, opts->lim.max_triggers_per_uid);
	d.triggers.rule_slots[0] = opts->lim.rule_slots_kernel;
	d.triggers.rule_slots[1] = opts->lim.rule_slots_user;
	d.domains.triggers = &d.triggers;
	ltt_maps_init(&d.maps);
	d.domains.maps = &d.maps;
	ltt_ust_init(&d.ust, &d.registry, &d.consumer);
	d.ust.triggers = &d.triggers;
	d.ust.maps = &d.maps;
	ltt_domains_register(&d.domains, &d.ust.domain);
	kernel_domain(&d, opts, root);
	d.kernel.triggers = &d.triggers;	/* after its init, which zeroes it */
	if (d.domains.v[ltt_domain_index(LTT_DOMAIN_KERNEL)] && ltt_kmaps_attach(&d.kernel, &d.maps))
		LTT_WARN("no memory for kernel map channels: they are refused");
	d.ust.max_events = opts->lim.max_events;
	ltt_budget_init(&d.client_budget, opts->lim.max_bytes_per_uid);
	ltt_budget_init(&d.app_budget, opts->lim.max_bytes_per_uid);
	ret = serve_start(&d, &rd, root, gr, group, &opts->lim);
	/* Loaded before "ready": a session the caller waits for exists then. */
	if (!ret)
		ret = d.dropped ? ltt_autoload_finish(&autoload, true) :
		      ltt_autoload_run(rundir, opts->load ? load : NULL, root);
	if (!ret) {
		LTT_INFO("ready: run directory %s, pid %ld", rundir, (long)getpid());
		ltt_daemon_ready(ready_fd, opts->daemonize ?
				 LTT_DAEMON_CLOSE_STDIO | LTT_DAEMON_CHDIR_ROOT : 0);
		ready_fd = -1;
		if (d.domains.v[ltt_domain_index(LTT_DOMAIN_KERNEL)])
			ltt_kernel_started(&d.kernel);
		wait_for_stop(sfd);
		ltt_daemon_stopping();
	}
	serve_stop(&d, root);
	ltt_chunk_journal_fini();
	unlink_sockets(&rd);
	ltt_lttng_compat_clean(d.lttng_path, getpid());
out:
	ltt_autoload_finish(&autoload, false);
	if (d.app_fd >= 0)
		close(d.app_fd);
	if (d.client_fd >= 0)
		close(d.client_fd);
	if (d.lttng_fd >= 0)
		close(d.lttng_fd);
	if (d.lttng_notif_fd >= 0)
		close(d.lttng_notif_fd);
	if (d.lttng_health_fd >= 0)
		close(d.lttng_health_fd);
	for (i = 0; i < LTT_LUST_SOCKETS; i++)
		if (d.lust_fds[i] >= 0)
			close(d.lust_fds[i]);
	ltt_priv_stop();
	ltt_rundir_close(&rd);
	if (sfd >= 0)
		close(sfd);
	if (ready_fd >= 0)
		close(ready_fd);	/* the caller sees the pipe close: failure */
	return ret ? 1 : 0;
}

int main(int argc, const char **argv)
{
	struct options opts = { 0 };
	int level, ret;
	size_t i;

	ret = ltt_options_parse(argc, argv, &opts);
	if (ret) {
		ret = ret > 0 ? 0 : 1;
		goto out;
	}
	/*
	 * Run by another name than lttng-sessiond's (exec -a, systemd's
	 * ExecStart=@): the kernel named the process after the file, and tools
	 * that find LTTng's daemon by its pid file check /proc/PID/comm.
	 */
	if (opts.as_lttng)
		prctl(PR_SET_NAME, LTT_LTTNG_SESSIOND_NAME, 0, 0, 0);
	level = opts.quiet ? LTT_LOG_ERROR : LTT_LOG_WARN + opts.verbose;
	ltt_log_init("ltt-sessiond", level);
	ltt_log_ratelimit_set(opts.lim.log_burst, opts.lim.log_interval_s * 1000);
	ret = run(&opts);
out:
	/* popt's copies of the string options, also after a refused command line */
	free(opts.rundir);
	free(opts.group);
	free(opts.consumerd_path);
	free(opts.consumerd_threads_arg);
	free(opts.kmod_probes);
	free(opts.kernel_backend);
	free(opts.privsep_user);
	free(opts.load);
	free(opts.clock);
	free(opts.trace_format_arg);
	free(opts.member_reach_arg);
	for (i = 0; i < LTT_OPTIONS_BOUNDS; i++)
		free(opts.bound_args[i]);
	free(opts.ratelimit_arg);
	return ret;
}
