// SPDX-License-Identifier: LGPL-2.1-only
/*
 * util-session.c - what lttctl's commands share to reach the session
 * daemon (its run directory, started when asked) and the session a command
 * is about: named, the current one, or each of a list; its channels.
 */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/agent.h"
#include "common/base/log.h"
#include "common/base/names.h"
#include "common/base/paths.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

int ctl_util_session_name(const char *given, char *buf, size_t len, const char **ret_name)
{
	int ret;

	if (given) {
		ret = ctl_util_check_session_ref(given);
		if (!ret)
			*ret_name = given;
		return ret;
	}
	ret = ctl_rc_read(buf, len);
	if (!ret) {
		*ret_name = buf;
		return CTL_EXIT_OK;
	}
	if (ret == -ENOENT)
		ctl_out_error(LTT_ERR_NO_SESSION, "%s", ltt_strerror(LTT_ERR_NO_SESSION));
	else
		ctl_util_rc_err(ret);
	return CTL_EXIT_FAILURE;
}

const char *ctl_util_rundir(const struct ctl_ctx *ctx, char *buf, size_t len)
{
	if (ctx->rundir)
		return ctx->rundir;
	if (ltt_ctl_default_rundir(buf, len))
		return "(unknown)";
	return buf;
}

/* Start a personal daemon and connect to it; errors are the caller's to print. */
static int spawn_and_connect(const struct ctl_ctx *ctx, struct ltt_ctl **ret_ctl)
{
	struct ltt_ctl *ctl;
	int ret;

	int spawned;

	spawned = ltt_ctl_spawn_sessiond(ctx->rundir);
	if (spawned < 0)
		return spawned;
	ret = ltt_ctl_connect(ctx->rundir, &ctl);
	if (ret)
		return ret;
	if (spawned == 0)
		ctl_out_info("Spawned a session daemon (run directory %s)",
			      ltt_ctl_rundir(ctl));
	*ret_ctl = ctl;
	return 0;
}

int ctl_util_connect(const struct ctl_ctx *ctx, bool spawn, struct ltt_ctl **ret_ctl)
{
	char buf[LTT_PATH_MAX];
	struct ltt_ctl *ctl;
	int ret;

	ret = ltt_ctl_connect(ctx->rundir, &ctl);
	if (ret == -LTT_ERR_SESSIOND_NOT_RUNNING && spawn) {
		if (ctx->no_sessiond) {
			ctl_out_error(LTT_ERR_SESSIOND_NOT_RUNNING,
				      "session daemon (run directory %s): none is running, and -n "
				      "forbids starting one", ctl_util_rundir(ctx, buf, sizeof(buf)));
			return CTL_EXIT_FAILURE;
		}
		ret = spawn_and_connect(ctx, &ctl);
	}
	if (ret) {
		ctl_out_error(ret, "session daemon (run directory %s): %s",
			     ctl_util_rundir(ctx, buf, sizeof(buf)), ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	LTT_INFO("connected to the session daemon in %s", ltt_ctl_rundir(ctl));
	*ret_ctl = ctl;
	return CTL_EXIT_OK;
}

int ctl_util_session_connect(const struct ctl_ctx *ctx, const char *given, char *buf, size_t len,
			     const char **ret_session, struct ltt_ctl **ret_ctl)
{
	int ret = ctl_util_session_name(given, buf, len, ret_session);

	return ret ? ret : ctl_util_connect(ctx, false, ret_ctl);
}

int ctl_util_open_session(const struct ctl_ctx *ctx, poptContext pc, char *buf, size_t len,
			  const char **ret_session, struct ltt_ctl **ret_ctl)
{
	const char **args;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	return ret ? ret : ctl_util_session_connect(ctx, args[0], buf, len, ret_session, ret_ctl);
}

int ctl_util_session_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			 const struct poptOption *options, ctl_session_run_fn run, void *arg)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session;
	poptContext pc;
	int ret;

	ret = ctl_util_parse(ctx, argc, argv, options, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
	if (!ret)
		ret = run(ctx, ctl, session, arg);
	ltt_ctl_disconnect(ctl);
	poptFreeContext(pc);
	return ret;
}

void ctl_util_qualify_name(struct ltt_session_info *info)
{
	char buf[LTT_NAME_MAX];
	int n;

	if (info->uid == geteuid() || strchr(info->name, '/'))
		return;
	n = snprintf(buf, sizeof(buf), "%u/%s", (unsigned int)info->uid, info->name);
	if (n > 0 && (size_t)n < sizeof(buf))
		strcpy(info->name, buf);
}

/*
 * Run @fn on every session this user can see (with @glob, those whose name
 * matches it); go on past a failure.
 */
static int each_listed(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *glob,
		       ctl_session_fn fn, void *arg)
{
	struct ltt_session_info *sessions;
	int ret, status = CTL_EXIT_OK;
	size_t count, i, nr = 0;

	ret = ctl_util_list_sessions(ctl, &sessions, &count);
	if (ret)
		return ret;
	for (i = 0; i < count; i++) {
		if (glob && fnmatch(glob, sessions[i].name, 0))
			continue;
		nr++;
		/* Root's view holds other users' sessions, maybe of the same name. */
		ctl_util_qualify_name(&sessions[i]);
		if (fn(ctx, ctl, sessions[i].name, arg))
			status = CTL_EXIT_FAILURE;
	}
	if (!nr && glob)
		ctl_out_info("No session's name matches '%s'.", glob);
	else if (!nr)
		ctl_out_info("No sessions.");
	free(sessions);
	return status;
}

int ctl_util_each_session(const struct ctl_ctx *ctx, poptContext pc, bool all, const char *glob,
			  ctl_session_fn fn, void *arg)
{
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session, **args;
	int ret;

	if (!all && !glob) {
		ret = ctl_util_open_session(ctx, pc, current, sizeof(current), &session, &ctl);
		if (!ret)
			ret = fn(ctx, ctl, session, arg);
	} else if (all && glob) {
		ret = ctl_util_usage_error(ctx, "give -a or -g PATTERN, not both");
	} else if (ctl_util_args(pc, &args)) {
		ret = ctl_util_usage_error(ctx, "give a session name or %s, not both",
					   all ? "-a" : "-g PATTERN");
	} else {
		ret = ctl_util_connect(ctx, false, &ctl);
		if (!ret)
			ret = each_listed(ctx, ctl, glob, fn, arg);
	}
	ltt_ctl_disconnect(ctl);
	return ret;
}

int ctl_util_sessions_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			  const struct poptOption *options, const int *all, bool list,
			  ctl_session_fn fn, void *arg)
{
	char *glob[1] = { NULL };
	poptContext pc;
	int ret;

	ret = ctl_util_parse(ctx, argc, argv, options, glob, &pc);
	if (ret != CTL_GO_ON)
		goto end;
	list = list || *all || glob[0];
	if (list)
		ctl_out_open("sessions");
	ret = ctl_util_each_session(ctx, pc, *all, glob[0], fn, arg);
	if (list)
		ctl_out_close();
	poptFreeContext(pc);
end:
	ctl_util_free_values(glob, 1);
	return ret;
}

int ctl_util_sessions_wait_cmd(const struct ctl_ctx *ctx, int argc, const char **argv,
			       const char *all_help, ctl_session_fn fn)
{
	int all = 0, no_wait = 0;
	struct poptOption options[] = {
		{ "all", 'a', POPT_ARG_NONE, &all, 0, all_help, NULL },
		CTL_UTIL_GLOB_OPTION(CTL_OPT_VALUE + 0),
		{ "no-wait", 'n', POPT_ARG_NONE, &no_wait, 0,
		  "do not wait for the recorded data to be on disk (or at the relay)", NULL },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_sessions_cmd(ctx, argc, argv, options, &all, true, fn, &no_wait);
}

int ctl_util_get_session(struct ltt_ctl *ctl, const char *session,
			 struct ltt_session_detail **ret_detail)
{
	int ret = ltt_ctl_get_session(ctl, session, ret_detail);

	if (!ret) {
		ctl_util_qualify_name(&(*ret_detail)->info);
		return CTL_EXIT_OK;
	}
	return ctl_util_object_error(ret, "session", session);
}

int ctl_util_open_detail(const struct ctl_ctx *ctx, const char *session, struct ltt_ctl **ret_ctl,
			 struct ltt_session_detail **ret_detail)
{
	int ret = ctl_util_connect(ctx, false, ret_ctl);

	return ret ? ret : ctl_util_get_session(*ret_ctl, session, ret_detail);
}

int ctl_util_fetch_session(const struct ctl_ctx *ctx, const char *session,
			   struct ltt_session_detail **ret_detail)
{
	struct ltt_ctl *ctl = NULL;
	int ret = ctl_util_open_detail(ctx, session, &ctl, ret_detail);

	ltt_ctl_disconnect(ctl);
	return ret;
}

int ctl_util_local_trace(const struct ctl_ctx *ctx, const char *given, char *dir, size_t len,
			 char *ret_name, bool *ret_ctf2)
{
	char current[LTT_NAME_MAX];
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	const char *session;
	int ret;

	ret = ctl_util_session_connect(ctx, given, current, sizeof(current), &session, &ctl);
	if (!ret)
		ret = ctl_util_get_session(ctl, session, &d);
	ltt_ctl_disconnect(ctl);
	if (ret)
		goto end;
	ret = CTL_EXIT_FAILURE;
	if (d->info.output_type != LTT_OUTPUT_LOCAL)
		ctl_out_error(LTT_ERR_UNKNOWN, "session '%s' has no local trace (its output is %s)",
			      session, d->info.output_type == LTT_OUTPUT_NONE ? "none" : d->info.output);
	else if (access(d->info.output, F_OK))
		ctl_out_error(LTT_ERR_UNKNOWN, "session '%s' has no trace yet in %s: start it and "
			      "run a traced program first", session, d->info.output);
	else if (snprintf(dir, len, "%s", d->info.output) >= (int)len)
		ctl_out_error(LTT_ERR_UNKNOWN, "session '%s': its trace's path is too long", session);
	else
		ret = CTL_EXIT_OK;
	if (!ret && ret_ctf2)
		*ret_ctf2 = d->info.trace_format == LTT_TRACE_FORMAT_CTF_2;
	if (!ret && ret_name)
		snprintf(ret_name, LTT_NAME_MAX, "%s", session);
end:
	free(d);
	return ret;
}

int ctl_util_fetch_triggers(const struct ctl_ctx *ctx, struct ltt_trigger_info **ret_triggers,
			    size_t *ret_count)
{
	struct ltt_ctl *ctl;
	int ret = ctl_util_connect(ctx, false, &ctl);

	if (ret)
		return ret;
	ret = ltt_ctl_list_triggers(ctl, ret_triggers, ret_count);
	ltt_ctl_disconnect(ctl);
	if (ret == -LTT_ERR_NOT_SUPPORTED)
		ctl_util_trigger_error(NULL, ret);
	else if (ret)
		ctl_out_error(ret, "listing the triggers: %s", ltt_strerror(ret));
	return ret ? CTL_EXIT_FAILURE : CTL_EXIT_OK;
}

int ctl_util_list_sessions(struct ltt_ctl *ctl, struct ltt_session_info **ret_sessions,
			   size_t *ret_count)
{
	int ret = ltt_ctl_list_sessions(ctl, ret_sessions, ret_count);

	if (ret) {
		ctl_out_error(ret, "listing the sessions: %s", ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

const struct ltt_channel_info *ctl_util_find_channel(const struct ltt_session_detail *detail,
						     enum ltt_domain domain, const char *name)
{
	size_t i;

	/* an agent domain's channel is a user-space one */
	if (ltt_agent_domain(domain))
		domain = LTT_DOMAIN_USER;
	for (i = 0; i < detail->nr_channels; i++) {
		const struct ltt_channel_info *ch = &detail->channels[i];

		if (ch->domain == domain && !strcmp(ch->attr.name, name))
			return ch;
	}
	return NULL;
}

void ctl_util_forget_session(const char *session)
{
	char current[LTT_NAME_MAX];
	int ret;

	if (ctl_rc_read(current, sizeof(current)) || strcmp(current, session))
		return;
	ret = ctl_rc_clear();
	if (ret) {
		ctl_out_warn(LTT_ERR_CURRENT_SESSION_FILE,
			     "session '%s' is still the current session: %s", session,
			     strerror(-ret));
	}
}

int ctl_util_session_or_all(const struct ctl_ctx *ctx, poptContext pc, bool all,
			    const char *path, const char *path_opt, const char **ret_session)
{
	const char **args;
	int nr = ctl_util_args(pc, &args), ret;

	if (nr && all)
		return ctl_util_usage_error(ctx, "give a session name or -a, not both");
	if (path && !path[0])
		return ctl_util_usage_error(ctx, "%s needs a path", path_opt);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret && nr)
		ret = ctl_util_check_session_name(args[0]);
	*ret_session = nr ? args[0] : NULL;
	return ret;
}

int ctl_util_rotation_schedule(const struct ctl_ctx *ctx, const char *given, bool set,
			       uint64_t timer_us, uint64_t size, char *buf, size_t len,
			       const char **ret_session)
{
	struct ltt_ctl *ctl = NULL;
	int ret;

	ret = ctl_util_session_connect(ctx, given, buf, len, ret_session, &ctl);
	if (ret)
		return ret;
	ret = set ? ltt_ctl_enable_rotation(ctl, *ret_session, timer_us, size) :
	      ltt_ctl_disable_rotation(ctl, *ret_session, timer_us, size);
	ltt_ctl_disconnect(ctl);
	if (ret)
		return ctl_util_object_error(ret, "session", *ret_session);
	ctl_out_open("rotation_schedule_results");
	ctl_out_str("session_name", *ret_session);
	ctl_out_open("rotation_schedule_result");
	ctl_out_open("rotation_schedule");
	if (set) {
		ctl_obj_rotation_schedule(timer_us, size);
	} else {
		if (timer_us) {
			ctl_out_open("periodic");
			ctl_out_close();
		}
		if (size) {
			ctl_out_open("size_threshold");
			ctl_out_close();
		}
	}
	ctl_out_close();
	ctl_out_bool("success", true);
	ctl_out_close();
	ctl_out_close();
	return CTL_EXIT_OK;
}

/* ctl_util_channel_run()'s channels, into @t (t->names: free() it, also on failure). */
static int channel_target(const struct ctl_ctx *ctx, poptContext pc,
			  const struct ctl_channel_opts *o, void *arg, struct ctl_channel_target *t)
{
	const struct ctl_channel_cmd *cmd = o->cmd;
	bool (*valid)(const char *) = cmd->valid;
	const char **args;
	int ret, nr;

	memset(t, 0, sizeof(*t));
	nr = ctl_util_args(pc, &args);
	if (!nr)
		return ctl_util_usage_error(ctx, "a channel name is needed");
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret)
		ret = ctl_util_domain(ctx, o->kernel, o->user, &t->domain);
	if (ret)
		return ret;
	if (cmd->between) {
		ret = cmd->between(ctx, arg);
		if (ret != CTL_GO_ON)
			return ret;
	}
	if (t->domain == LTT_DOMAIN_USER && cmd->valid_user)
		valid = cmd->valid_user;
	ret = ctl_util_name_list(ctx, args[0], "channel", valid, LTT_ERR_CHANNEL_NAME, &t->names,
				 &t->count);
	return ret ? ret : ctl_util_session_name(o->session ? *o->session : NULL, t->current,
						 sizeof(t->current), &t->session);
}

/* The cmd's check of every channel of @t, then its send of each. */
static int channel_work(const struct ctl_ctx *ctx, const struct ctl_channel_cmd *cmd, void *arg,
			const struct ctl_channel_target *t)
{
	struct ltt_session_detail *d = NULL;
	struct ltt_ctl *ctl = NULL;
	size_t i;
	int ret;

	ret = ctl_util_open_detail(ctx, t->session, &ctl, &d);
	if (!ret)
		ret = cmd->check(arg, ctl, d, t);
	ctl_out_open("channels");	/* those done */
	for (i = 0; i < t->count && !ret; i++)
		ret = cmd->send(arg, ctl, d, t, i);
	ctl_out_close();
	free(d);
	ltt_ctl_disconnect(ctl);
	return ret;
}

int ctl_util_channel_run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	const struct ctl_channel_opts *o = arg;
	struct ctl_channel_target t;
	int ret = channel_target(ctx, pc, o, arg, &t);

	if (!ret)
		ret = channel_work(ctx, o->cmd, arg, &t);
	free(t.names);
	return ret;
}

int ctl_util_channel_done(int code, const char *session, const struct ltt_session_detail *d,
			  enum ltt_domain domain, const struct ltt_channel_attr *attr,
			  bool enabled)
{
	if (code) {
		ctl_out_error(code, "channel '%s' of session '%s': %s", attr->name, session,
			      ltt_strerror(code));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Channel %s %s for session %s.", attr->name, enabled ? "enabled" : "disabled",
		     session);
	ctl_obj_channel_open(&d->info, domain, attr, enabled, 0, 0);
	ctl_out_bool("success", true);
	ctl_out_close();
	return CTL_EXIT_OK;
}
