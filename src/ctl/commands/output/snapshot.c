// SPDX-License-Identifier: LGPL-2.1-only
/*
 * snapshot.c - lttctl snapshot: the snapshot output of a snapshot session
 * (add-output, del-output, list-output) and taking snapshots (record).
 *
 *   lttctl snapshot add-output [-s SESSION] [-n NAME] [-m SIZE] (URL | -o DIR | -C URL -D URL)
 *   lttctl snapshot del-output [-s SESSION] (ID | NAME)
 *   lttctl snapshot list-output [-s SESSION]
 *   lttctl snapshot record [-s SESSION] [-n NAME] [-m SIZE] [URL | -o DIR | -C URL -D URL]
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/size.h"
#include "ctl/ctl.h"
#include "ctl/out.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_SESSION,	/* -s SESSION */
	VAL_NAME,	/* -n NAME */
	VAL_MAX_SIZE,	/* -m SIZE */
	VAL_OUTPUT,	/* -o DIR */
	VAL_CTRL,	/* -C URL: LTTng's control URL */
	VAL_DATA,	/* -D URL: LTTng's data URL */
	NR_VALS,
};

enum sub { SUB_ADD, SUB_DEL, SUB_LIST, SUB_RECORD, NR_SUBS };

static const char *const sub_names[NR_SUBS] = {
	[SUB_ADD] = "add-output", [SUB_DEL] = "del-output",
	[SUB_LIST] = "list-output", [SUB_RECORD] = "record",
};

struct snap_args {
	enum sub sub;
	char *values[NR_VALS];
	const char **args;
	int nr_args;
	struct ltt_snapshot_output out;	/* what -n, -m, -o or URL said */
	bool has_out;			/* any of them */
};

/*
 * -o DIR, a URL argument or -C/-D (their net URL) into @a->out.  Returns
 * CTL_GO_ON or an exit status.
 */
static int parse_where(const struct ctl_ctx *ctx, struct snap_args *a, const char *url)
{
	const char *dir = a->values[VAL_OUTPUT], *ctrl = a->values[VAL_CTRL];
	const char *data = a->values[VAL_DATA];
	char net[sizeof(a->out.output)];

	if (dir && url)
		return ctl_util_usage_error(ctx, "give a URL or -o DIR, not both");
	if ((ctrl || data) && (!ctrl || !data || dir || url))
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_URL_PAIR));
	if (ctrl) {
		if (ctl_util_url_pair(ctrl, data, net, sizeof(net)))
			return CTL_EXIT_FAILURE;
		url = net;
	}
	if (ctl_util_snapshot_where(dir, url, &a->out))
		return CTL_EXIT_FAILURE;
	return CTL_GO_ON;
}

/* The options and arguments of the sub-command, checked. */
static int check_args(const struct ctl_ctx *ctx, struct snap_args *a)
{
	const char *name = a->values[VAL_NAME], *size = a->values[VAL_MAX_SIZE];
	int max_args = a->sub == SUB_LIST ? 0 : 1;

	/* an empty URL is none to LTTng's record (lttng-tools' tests give one) */
	if (a->sub == SUB_RECORD && a->nr_args == 1 && !a->args[0][0])
		a->nr_args = 0;
	if (a->nr_args > max_args)
		return ctl_util_usage_error(ctx, "%s: unexpected argument '%s'", sub_names[a->sub],
					    a->args[max_args]);
	if ((a->sub == SUB_DEL || a->sub == SUB_LIST) &&
	    (name || size || a->values[VAL_OUTPUT] || a->values[VAL_CTRL] || a->values[VAL_DATA]))
		return ctl_util_usage_error(ctx, "%s takes no -n, -m, -o, -C or -D", sub_names[a->sub]);
	if (a->sub == SUB_DEL && a->nr_args != 1)
		return ctl_util_usage_error(ctx, "del-output: give the output's ID or NAME");
	if (a->sub == SUB_ADD && !a->nr_args && !a->values[VAL_OUTPUT] && !a->values[VAL_CTRL] &&
	    !a->values[VAL_DATA])
		return ctl_util_usage_error(ctx, "add-output: give a URL, -o DIR or -C URL -D URL");
	if (name) {
		if (strlen(name) >= sizeof(a->out.name))
			return ctl_util_usage_error(ctx, "%s",
						    ltt_strerror(LTT_ERR_SNAPSHOT_OUTPUT_NAME));
		strcpy(a->out.name, name);
	}
	if (size && (ltt_size_parse(size, &a->out.max_size) || !a->out.max_size))
		return ctl_util_usage_error(ctx, "invalid maximum size '%s': give a number of bytes above 0, with an optional k, M or G suffix",
					    size);
	/* record's URL "" is none, as LTTng's (its tests pass one) */
	if (a->sub == SUB_RECORD && a->nr_args && !*a->args[0])
		a->nr_args = 0;
	a->has_out = name || size || a->values[VAL_OUTPUT] || a->values[VAL_CTRL] ||
		     a->values[VAL_DATA] || a->nr_args;
	if (a->sub == SUB_ADD || a->sub == SUB_RECORD)
		return parse_where(ctx, a, a->nr_args ? a->args[0] : NULL);
	return CTL_GO_ON;
}

/* LTTng's <snapshot_action>: the sub-command @name, then its <output>. */
static void open_action(const char *name)
{
	ctl_out_open("snapshot_action");
	ctl_out_str("name", name);
	ctl_out_open("output");
}

static void close_action(void)
{
	ctl_out_close();
	ctl_out_close();
}

static void print_output(const struct ltt_snapshot_output *o)
{
	char size[32] = "no limit";

	if (o->max_size)
		ltt_size_format(o->max_size, size, sizeof(size));
	ctl_out_text("    [%" PRIu32 "] %s: %s (max size: %s)\n", o->id, o->name, o->output, size);
}

static int do_add(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		  struct snap_args *a)
{
	struct ltt_snapshot_output got;
	int ret = ltt_ctl_snapshot_add_output(ctl, session, &a->out, &got);

	(void)ctx;
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ctl_out_info("Snapshot output added to session %s:", session);
	print_output(&got);
	open_action("add-output");
	ctl_obj_snapshot_output(&got, session);
	close_action();
	return CTL_EXIT_OK;
}

static int do_del(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		  struct snap_args *a)
{
	const char *what = a->args[0];
	uint64_t id = 0;
	int ret;

	/* a number is an id, as LTTng reads it */
	if (ctl_util_parse_u64(what, UINT32_MAX, &id) || !id)
		id = 0;
	ret = ltt_ctl_snapshot_del_output(ctl, session, (uint32_t)id, what);
	(void)ctx;
	if (ret) {
		ctl_out_error(ret, "session '%s': snapshot output '%s': %s", session, what,
			      ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	ctl_out_info("Snapshot output %s removed from session %s.", what, session);
	open_action("del-output");
	ctl_out_open("snapshot");
	if (id)
		ctl_out_u64("id", id);
	else
		ctl_out_str("name", what);
	ctl_out_str("session_name", session);
	ctl_out_close();
	close_action();
	return CTL_EXIT_OK;
}

static int do_list(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session)
{
	struct ltt_snapshot_output *outs = NULL;
	size_t i, n = 0;
	int ret = ltt_ctl_snapshot_list_outputs(ctl, session, &outs, &n);

	(void)ctx;
	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ctl_out_text("Snapshot output list for session %s\n", session);
	open_action("list-output");
	ctl_out_open("session");
	ctl_out_str("name", session);
	ctl_out_open("snapshots");
	for (i = 0; i < n; i++) {
		print_output(&outs[i]);
		ctl_obj_snapshot_output(&outs[i], NULL);
	}
	ctl_out_close();
	ctl_out_close();
	close_action();
	if (!n)
		ctl_out_text("    None\n");
	free(outs);
	return CTL_EXIT_OK;
}

static int do_record(const struct ctl_ctx *ctx, struct ltt_ctl *ctl, const char *session,
		     struct snap_args *a)
{
	struct ltt_snapshot_result res;
	char bytes[32];
	int ret = ltt_ctl_snapshot_record(ctl, session, a->has_out ? &a->out : NULL, &res);

	if (ret)
		return ctl_util_object_error(ret, "session", session);
	ltt_size_format(res.bytes, bytes, sizeof(bytes));
	ctl_out_info("Snapshot recorded for session %s: %" PRIu64 " packets (%s).", session,
		     res.packets, bytes);
	if (!ctx->quiet)
		ctl_out_text("%s\n", res.path);
	open_action("record-output");
	ctl_out_open("snapshot");
	ctl_out_str("session_name", session);
	ctl_out_str("ctrl_url", res.path);	/* the snapshot's own directory */
	ctl_out_close();
	close_action();
	if (res.packets_dropped)
		ctl_out_warn(LTT_ERR_EVENTS_LOST, "%" PRIu64 " packets were overwritten by the tracer while they were copied: they are not in the snapshot; larger buffers (--num-subbuf) keep more",
			     res.packets_dropped);
	return CTL_EXIT_OK;
}

/* The sub-command, its options and arguments checked, on the session. */
static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct snap_args *a = arg;
	char current[LTT_NAME_MAX];
	struct ltt_ctl *ctl = NULL;
	const char *session;
	int ret;

	if (a->sub == NR_SUBS)
		return ctl_util_usage_error(ctx, "give a sub-command: add-output, del-output, list-output or record");
	a->nr_args = ctl_util_args(pc, &a->args);
	ret = check_args(ctx, a);
	if (ret != CTL_GO_ON)
		return ret;
	ret = ctl_util_session_connect(ctx, a->values[VAL_SESSION], current, sizeof(current),
				       &session, &ctl);
	if (ret)
		return ret;
	switch (a->sub) {
	case SUB_ADD:
		ret = do_add(ctx, ctl, session, a);
		break;
	case SUB_DEL:
		ret = do_del(ctx, ctl, session, a);
		break;
	case SUB_LIST:
		ret = do_list(ctx, ctl, session);
		break;
	default:
		ret = do_record(ctx, ctl, session, a);
		break;
	}
	ltt_ctl_disconnect(ctl);
	return ret;
}

int cmd_snapshot(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct snap_args a;
	int i;
	struct poptOption options[] = {
		CTL_UTIL_SESSION_OPTION(VAL_SESSION),
		{ "name", 'n', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_NAME,
		  "add-output: the output's name; record: the snapshot's name", "NAME" },
		{ "max-size", 'm', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_MAX_SIZE,
		  "at most SIZE bytes per snapshot, the newest packets of each stream kept", "SIZE" },
		{ "output", 'o', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OUTPUT,
		  "write the snapshots under the local directory DIR", "DIR" },
		{ "ctrl-url", 'C', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CTRL,
		  "the relay's control port, tcp://HOST[:PORT] (with -D: net://HOST:C:D)", "URL" },
		{ "data-url", 'D', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_DATA,
		  "the relay's data port, tcp://HOST[:PORT], same host as -C", "URL" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	memset(&a, 0, sizeof(a));
	a.sub = NR_SUBS;
	for (i = 0; argc > 1 && i < NR_SUBS; i++)
		if (!strcmp(argv[1], sub_names[i]))
			a.sub = (enum sub)i;
	if (a.sub == NR_SUBS && argc > 1 && argv[1][0] != '-')
		return ctl_util_usage_error(ctx, "unknown sub-command '%s': use add-output, del-output, list-output or record",
					    argv[1]);
	/* argv[1] is the sub-command: parse from there */
	return ctl_util_run(ctx, a.sub == NR_SUBS ? argc : argc - 1, a.sub == NR_SUBS ? argv : argv + 1,
			    options, a.values, NR_VALS, run, &a);
}
