// SPDX-License-Identifier: LGPL-2.1-only
/*
 * track.c - lttctl track and untrack: change a session's process trackers
 * (include/ltt/ltt-ctl.h, doc/trackers.md).
 *
 *   lttctl track -u|-k [-s SESSION] --vpid ID[,ID]... | --vuid U[,U]... | --vgid G[,G]...
 *   lttctl track -k [-s SESSION] --pid ID[,ID]... | --uid U[,U]... | --gid G[,G]...
 *   lttctl track -u [-s SESSION] -p|--pid ID[,ID]...   LTTng's --vpid of user space
 *   lttctl track -u|-k [-s SESSION] --all --vpid | --vuid | --vgid | (-k) --pid | --uid | --gid
 *   lttctl untrack ...     the same, removing
 *
 * Everything is checked before anything is sent (user and group names
 * are looked up here too), so a bad value changes nothing.  Several
 * trackers may be named at once; they change in the order vpid, vuid,
 * vgid, pid, uid, gid.
 */
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,
	VAL_VPID,	/* VAL_VPID + enum ltt_tracker_type */
	VAL_VUID,
	VAL_VGID,
	VAL_PID,	/* the kernel domain's */
	VAL_UID,
	VAL_GID,
	NR_VALS,
};

static const char *const tracker_opts[LTT_TRACKER_NR] = {
	"--vpid", "--vuid", "--vgid", "--pid", "--uid", "--gid",
};

struct track_cmd {
	bool track;			/* track, or untrack */
	enum ltt_domain domain;
	int all;
	const char *session;
	char current[LTT_NAME_MAX];
	bool given[LTT_TRACKER_NR];	/* the option is on the line, with a value or not */
	char **values[LTT_TRACKER_NR];	/* its values (ctl_util_name_list()), or NULL */
	size_t nr[LTT_TRACKER_NR];
};

/* A decimal id of at most @max, digits only. */
static bool id_valid(const char *s, uint64_t max)
{
	uint64_t v;

	return !ctl_util_parse_u64(s, max, &v);
}

static bool vpid_valid(const char *s)
{
	return id_valid(s, INT32_MAX);
}

/* A user or group id (not -1), or a name: no leading '-', at most 255 bytes. */
static bool uid_gid_valid(const char *s)
{
	if (*s >= '0' && *s <= '9')
		return id_valid(s, UINT32_MAX - 1);
	return *s && *s != '-' && strlen(s) < 256;
}

static bool is_user(enum ltt_tracker_type type)
{
	return type == LTT_TRACKER_VUID || type == LTT_TRACKER_UID;
}

static bool is_pid(enum ltt_tracker_type type)
{
	return type == LTT_TRACKER_VPID || type == LTT_TRACKER_PID;
}

/* Is a name among @type's values unknown here?  Prints the first one. */
static int check_names(const struct track_cmd *t, enum ltt_tracker_type type)
{
	size_t i;

	for (i = 0; !is_pid(type) && i < t->nr[type]; i++) {
		const char *v = t->values[type][i];

		if ((*v >= '0' && *v <= '9') ||
		    (is_user(type) ? getpwnam(v) != NULL : getgrnam(v) != NULL))
			continue;
		ctl_out_error(LTT_ERR_TRACKER_NAME, "%s '%s': %s",
			      is_user(type) ? "user" : "group", v,
			      ltt_strerror(LTT_ERR_TRACKER_NAME));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/* Which tracker options the line names: popt can't tell "--vpid" alone from absent. */
static bool is_opt(const char *arg, const char *opt)
{
	size_t n = strlen(opt);

	return !strncmp(arg, opt, n) && (arg[n] == '\0' || arg[n] == '=');
}

static void scan_given(int argc, const char **argv, struct track_cmd *t)
{
	size_t k;
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		for (k = 0; k < LTT_TRACKER_NR; k++)
			t->given[k] |= is_opt(argv[i], tracker_opts[k]);
		/* -p, -pIDS: LTTng's short --pid */
		if (argv[i][0] == '-' && argv[i][1] == 'p')
			t->given[LTT_TRACKER_PID] = true;
	}
}

/*
 * LTTng's -p/--pid with -u: its user space domain has no pid tracker, and
 * LTTng takes --pid there as --vpid (the ids of the process's own pid
 * namespace).  Naming both is refused: one tracker, two lists.
 */
static int pid_as_vpid(const struct ctl_ctx *ctx, struct track_cmd *t, char **values)
{
	if (t->domain != LTT_DOMAIN_USER || !t->given[LTT_TRACKER_PID])
		return CTL_EXIT_OK;
	if (t->given[LTT_TRACKER_VPID])
		return ctl_util_usage_error(ctx, "with -u, -p/--pid is --vpid: give one of them");
	t->given[LTT_TRACKER_PID] = false;
	t->given[LTT_TRACKER_VPID] = true;
	values[VAL_VPID] = values[VAL_PID];
	values[VAL_PID] = NULL;
	return CTL_EXIT_OK;
}

/* The kernel domain's trackers named for user space: refused, with the reason. */
static int refuse_domain(const struct track_cmd *t)
{
	size_t k;

	for (k = LTT_TRACKER_NR_USER; t->domain == LTT_DOMAIN_USER && k < LTT_TRACKER_NR; k++) {
		if (!t->given[k])
			continue;
		ctl_out_error(LTT_ERR_TRACKER_DOMAIN, "%s -u %s: %s", t->track ? "track" : "untrack",
			      tracker_opts[k], ltt_strerror(LTT_ERR_TRACKER_DOMAIN));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

/* The line's trackers and values, all checked. */
static int check_line(const struct ctl_ctx *ctx, char **values, struct track_cmd *t)
{
	static bool (*const valid[LTT_TRACKER_NR])(const char *) = {
		vpid_valid, uid_gid_valid, uid_gid_valid, vpid_valid, uid_gid_valid, uid_gid_valid,
	};
	static const char *const what[LTT_TRACKER_NR] = {
		"process id", "user id or name", "group id or name",
		"process id", "user id or name", "group id or name",
	};
	bool any = false;
	size_t k;
	int ret;

	for (k = 0; k < LTT_TRACKER_NR; k++) {
		const char *v = values[VAL_VPID + k];

		if (!t->given[k])
			continue;
		any = true;
		if (t->all && v)
			return ctl_util_usage_error(ctx, "--all applies to the trackers named without values: '%s %s' names ids too",
						    tracker_opts[k], v);
		if (!t->all && !v)
			return ctl_util_usage_error(ctx, "%s needs a comma-separated list of ids, or --all",
						    tracker_opts[k]);
		if (!v)
			continue;
		ret = ctl_util_name_list(ctx, v, what[k], valid[k], LTT_ERR_TRACKER_VALUE,
					 &t->values[k], &t->nr[k]);
		if (!ret && t->nr[k] > LTT_TRACKER_MAX_IDS) {
			ctl_out_error(LTT_ERR_TRACKER_LIMIT, "%s: %zu ids: %s", tracker_opts[k],
				      t->nr[k], ltt_strerror(LTT_ERR_TRACKER_LIMIT));
			ret = CTL_EXIT_FAILURE;
		}
		if (!ret)
			ret = check_names(t, (enum ltt_tracker_type)k);
		if (ret)
			return ret;
	}
	if (!any)
		return ctl_util_usage_error(ctx, "name a tracker: --vpid, --vuid or --vgid (and with -k: --pid, --uid or --gid)");
	return CTL_EXIT_OK;
}

/* Track or untrack the values of one tracker. */
static int edit_values(struct ltt_ctl *ctl, const struct track_cmd *t, enum ltt_tracker_type type)
{
	const char *name = ltt_tracker_type_name(type), *dom = ltt_domain_name(t->domain);
	bool *changed = calloc(t->nr[type], sizeof(*changed));
	size_t i;
	int ret;

	if (!changed) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	ret = (t->track ? ltt_ctl_track : ltt_ctl_untrack)(ctl, t->session, t->domain, type,
							     (const char *const *)t->values[type],
							     t->nr[type], changed);
	for (i = 0; i < t->nr[type] && !ret; i++) {
		const char *v = t->values[type][i];

		if (!changed[i])
			ctl_out_warn(LTT_ERR_TRACKER_UNCHANGED, "%s %s was %s tracked in session %s (%s)",
				     name, v, t->track ? "already" : "not", t->session, dom);
		else
			ctl_out_info("%s %s %s in session %s (%s).", name, v,
				     t->track ? "tracked" : "untracked", t->session, dom);
	}
	free(changed);
	if (ret) {
		ctl_out_error(ret, "%s tracker of session '%s': %s", name, t->session,
			      ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

static int edit_all(struct ltt_ctl *ctl, const struct track_cmd *t, enum ltt_tracker_type type)
{
	const char *name = ltt_tracker_type_name(type);
	int ret;

	ret = ltt_ctl_tracker_set_policy(ctl, t->session, t->domain, type,
					 t->track ? LTT_TRACKER_ALL : LTT_TRACKER_NONE);
	if (ret) {
		ctl_out_error(ret, "%s tracker of session '%s': %s", name, t->session,
			      ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("%s processes are tracked by %s in session %s (%s).", t->track ? "All" : "No",
		     name, t->session, ltt_domain_name(t->domain));
	return CTL_EXIT_OK;
}

static int run(const struct ctl_ctx *ctx, struct track_cmd *t)
{
	struct ltt_ctl *ctl = NULL;
	int ret = CTL_EXIT_OK;
	size_t k;

	ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	/* as LTTng's: the values given, each with its success */
	ctl_out_open("process_attr_trackers");
	for (k = 0; k < LTT_TRACKER_NR && !ret; k++) {
		if (!t->given[k])
			continue;
		ret = t->values[k] ? edit_values(ctl, t, (enum ltt_tracker_type)k) :
				     edit_all(ctl, t, (enum ltt_tracker_type)k);
		ctl_obj_tracker_edit((enum ltt_tracker_type)k, t->values[k], t->nr[k], !ret);
	}
	ctl_out_close();
	ltt_ctl_disconnect(ctl);
	return ret;
}

/* track's and untrack's arguments. */
struct track_args {
	struct track_cmd t;
	char *values[NR_VALS];
	int kernel, user;		/* -k, -u */
};

/* The line checked into a->t, then the trackers edited. */
static int track_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct track_args *a = arg;
	struct track_cmd *t = &a->t;
	const char **args;
	int nr = ctl_util_args(pc, &args), ret;
	size_t k;

	ret = ctl_util_check_nr_args(ctx, args, nr, 0);
	if (!ret)
		ret = ctl_util_domain(ctx, a->kernel, a->user, &t->domain);
	if (!ret)
		ret = pid_as_vpid(ctx, t, a->values);
	if (!ret)
		ret = refuse_domain(t);
	if (!ret)
		ret = check_line(ctx, a->values, t);
	if (!ret)
		ret = ctl_util_session_name(a->values[VAL_SESSION], t->current, sizeof(t->current),
					    &t->session);
	if (!ret)
		ret = run(ctx, t);
	for (k = 0; k < LTT_TRACKER_NR; k++)
		free(t->values[k]);
	return ret;
}

static int track_untrack(const struct ctl_ctx *ctx, int argc, const char **argv, bool track)
{
	struct track_args a = { .t.track = track };
	struct poptOption options[] = {
		{ "kernel", 'k', POPT_ARG_NONE, &a.kernel, 0, "the kernel domain", NULL },
		{ "userspace", 'u', POPT_ARG_NONE, &a.user, 0, "the user space domain", NULL },
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "vpid", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_VPID,
		  "process ids (none with --all)", "VPID[,VPID]..." },
		{ "vuid", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_VUID,
		  "user ids or names (none with --all)", "VUID[,VUID]..." },
		{ "vgid", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_VGID,
		  "group ids or names (none with --all)", "VGID[,VGID]..." },
		{ "pid", 'p', POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_PID,
		  "kernel: process ids in the initial pid namespace; user space: --vpid, as "
		  "LTTng takes it (none with --all)",
		  "PID[,PID]..." },
		{ "uid", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_UID,
		  "kernel: user ids or names in the initial user namespace (none with --all)",
		  "UID[,UID]..." },
		{ "gid", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_GID,
		  "kernel: group ids or names in the initial user namespace (none with --all)",
		  "GID[,GID]..." },
		{ "all", 'a', POPT_ARG_NONE, &a.t.all, 0,
		  track ? "every process, for the trackers named" :
			  "no process, for the trackers named", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	scan_given(argc, argv, &a.t);
	return ctl_util_run(ctx, argc, argv, options, a.values, NR_VALS, track_run, &a);
}

int cmd_track(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return track_untrack(ctx, argc, argv, true);
}

int cmd_untrack(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return track_untrack(ctx, argc, argv, false);
}

/* "all", "none" or the ids, "123, 456". */
static void print_ids(enum ltt_tracker_policy policy, const uint32_t *ids, size_t nr)
{
	size_t i;

	if (policy != LTT_TRACKER_SET) {
		ctl_out_text("%s\n", policy == LTT_TRACKER_ALL ? "all" : "none");
		return;
	}
	for (i = 0; i < nr; i++)
		ctl_out_text("%s%lu", i ? ", " : "", (unsigned long)ids[i]);
	ctl_out_text("\n");
}

/* The trackers of @domain: text lines, or (@objects) <process_attr_trackers>. */
static void list_domain(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			bool objects)
{
	static const char *const labels[LTT_TRACKER_NR] = {
		"process ids (vpid)", "user ids (vuid)", "group ids (vgid)",
		"process ids (pid)", "user ids (uid)", "group ids (gid)",
	};
	size_t n = domain == LTT_DOMAIN_KERNEL ? LTT_TRACKER_NR : LTT_TRACKER_NR_USER;
	enum ltt_tracker_policy policy[LTT_TRACKER_NR];
	uint32_t *ids[LTT_TRACKER_NR] = { NULL };
	size_t k, nr[LTT_TRACKER_NR];
	bool all = true;

	for (k = 0; k < n; k++) {
		if (ltt_ctl_list_tracker(ctl, session, domain, (enum ltt_tracker_type)k,
					 &policy[k], &ids[k], &nr[k]))
			goto out;	/* an older daemon, or no such domain */
		all = all && policy[k] == LTT_TRACKER_ALL;
	}
	if (objects) {
		ctl_out_open("process_attr_trackers");
		for (k = 0; k < n; k++)
			ctl_obj_tracker((enum ltt_tracker_type)k, policy[k], ids[k], nr[k]);
		ctl_out_close();
		goto out;
	}
	/* Text: only when some process is left out (every process is the default). */
	if (!all)
		ctl_out_text("\nProcess trackers (%s):\n",
			     domain == LTT_DOMAIN_KERNEL ? "kernel" : "user space");
	for (k = 0; k < n; k++) {
		if (!all) {
			ctl_out_text("  %-20s ", labels[k]);
			print_ids(policy[k], ids[k], nr[k]);
		}
	}
out:
	for (k = 0; k < n; k++)
		free(ids[k]);
}

void cmd_track_list(struct ltt_ctl *ctl, const char *session, bool kernel, bool user)
{
	if (kernel)
		list_domain(ctl, session, LTT_DOMAIN_KERNEL, false);
	if (user)
		list_domain(ctl, session, LTT_DOMAIN_USER, false);
}

void cmd_track_list_mi(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain)
{
	list_domain(ctl, session, domain, true);
}

bool cmd_track_some(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain)
{
	size_t k, n = domain == LTT_DOMAIN_KERNEL ? LTT_TRACKER_NR : LTT_TRACKER_NR_USER;
	enum ltt_tracker_policy policy;
	bool some = false;
	uint32_t *ids;
	size_t nr;

	for (k = 0; k < n && !some; k++) {
		ids = NULL;
		if (ltt_ctl_list_tracker(ctl, session, domain, (enum ltt_tracker_type)k, &policy,
					 &ids, &nr))
			break;	/* an older daemon, or no such domain */
		some = policy != LTT_TRACKER_ALL;
		free(ids);
	}
	return some;
}
