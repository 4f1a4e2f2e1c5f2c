// SPDX-License-Identifier: LGPL-2.1-only
/*
 * commands.c - the command table of lttctl, and its help command (lttctl
 * help: the command list, or one command's help).
 */
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util.h"

static const struct ctl_cmd commands[] = {
	{ "create", cmd_create, "Create a tracing session and make it the current one",
	  "[NAME] [-o DIR | -U URL | -C URL -D URL | --no-output] [--snapshot] [--live[=US]]" },
	{ "destroy", cmd_destroy, "Stop and destroy tracing sessions",
	  "[NAME | -a | -g PATTERN] [--no-wait]" },
	{ "start", cmd_start, "Start tracing", "[NAME | -a | -g PATTERN]" },
	{ "stop", cmd_stop, "Stop tracing", "[NAME | -a | -g PATTERN] [--no-wait]" },
	{ "list", cmd_list, "List the sessions, or one session's channels and event rules",
	  "[NAME [-c CHANNEL] [-k] [-u] [-p] [-j] [-l] | NAME -d] [-k | -u | -p | -j | -l] [-f]" },
	{ "status", cmd_status, "Show the current session",
	  "[-c CHANNEL] [-k] [-u] [-p] [-j] [-l]" },
	{ "set-session", cmd_set_session, "Make a session the current one", "NAME" },
	{ "enable-channel", cmd_enable_channel, "Create channels, or enable disabled ones",
	  "(-k | -u) NAME[,NAME...] [-s SESSION] [--discard | --overwrite] "
	  "[--subbuf-size SIZE] [--num-subbuf N] [--switch-timer US] [--read-timer US] "
	  "[--tracefile-size SIZE] [--tracefile-count N] "
	  "[--buffers-uid | --buffers-pid | --buffers-global]" },
	{ "disable-channel", cmd_disable_channel, "Disable channels",
	  "(-k | -u) NAME[,NAME...] [-s SESSION]" },
	{ "enable-event", cmd_enable_event, "Add event rules, or enable disabled ones",
	  "(-k | -u) (PATTERN[,PATTERN...] | -a) [-s SESSION] [-c CHANNEL] "
	  "[--tracepoint | --syscall] [--loglevel LEVEL | --loglevel-only LEVEL]" },
	{ "disable-event", cmd_disable_event, "Disable event rules",
	  "(-k | -u) (PATTERN[,PATTERN...] | -a) [-s SESSION] [-c CHANNEL] "
	  "[--tracepoint | --syscall]" },
	{ "add-context", cmd_add_context, "Add context fields to the events of channels",
	  "-u -t TYPE [-t TYPE...] [-s SESSION] [-c CHANNEL] | --list" },
	{ "snapshot", cmd_snapshot, "Take snapshots of a snapshot session, manage its output",
	  "(add-output [-n NAME] [-m SIZE] (URL | -o DIR | -C URL -D URL) | "
	  "del-output (ID | NAME) | list-output | "
	  "record [-n NAME] [-m SIZE] [URL | -o DIR | -C URL -D URL]) [-s SESSION]" },
	{ "rotate", cmd_rotate, "Archive the current trace chunk of a session", "[NAME]" },
	{ "enable-rotation", cmd_enable_rotation, "Rotate a session on a timer or by size",
	  "[-s NAME] (--timer US | --size SIZE)" },
	{ "disable-rotation", cmd_disable_rotation, "Remove a session's rotation schedule",
	  "[-s NAME] [--timer] [--size]" },
	{ "clear", cmd_clear, "Discard what sessions recorded so far", "[NAME | -a]" },
	{ "regenerate", cmd_regenerate, "Write a session's metadata or state dump again",
	  "(metadata | statedump) [-s NAME]" },
	{ "metadata", cmd_metadata, "Regenerate a session's metadata (LTTng's older spelling)",
	  "regenerate [-s NAME]" },
	{ "reclaim-memory", cmd_reclaim_memory,
	  "Give back the memory of what the consumer read of user space channels",
	  "-u [-s SESSION] [--older-than AGE] (-a | CHANNEL...)" },
	{ "add-map-channel", cmd_add_map_channel,
	  "Add a map channel: counters that triggers update, no event recorded",
	  "--type=user [-s SESSION] [--value-type TYPE] [--max-key-count N] CHANNEL" },
	{ "show-maps", cmd_show_maps, "Show the counters of a session's map channels",
	  "[-s SESSION] [--channel CHANNEL]..." },
	{ "export-maps", cmd_export_maps,
	  "Print the counters of a session's map channels as an SQL script for sqlite3",
	  "[-s SESSION] [--format sqlite]" },
	{ "save", cmd_save, "Save sessions' configurations to files",
	  "[NAME | -a] [-o FILE|DIR] [-f] [--no-triggers]" },
	{ "load", cmd_load, "Create sessions from saved configurations",
	  "[NAME | -a] [-i FILE|DIR] [-f] [--no-triggers] [--override-url URL] "
	  "[--override-name NAME]" },
	{ "track", cmd_track, "Let only the given processes record for a session",
	  "-u [-s SESSION] (--vpid VPID[,VPID...] | --vuid VUID[,VUID...] | "
	  "--vgid VGID[,VGID...] | --all (--vpid | --vuid | --vgid))..." },
	{ "untrack", cmd_untrack, "Stop the given processes recording for a session",
	  "-u [-s SESSION] (--vpid VPID[,VPID...] | --vuid VUID[,VUID...] | "
	  "--vgid VGID[,VGID...] | --all (--vpid | --vuid | --vgid))..." },
	{ "add-trigger", cmd_add_trigger,
	  "Add a trigger: a condition and the actions to take when it holds",
	  "[--name NAME] [--owner-uid UID] --condition=TYPE [CONDITION-OPTION...] "
	  "--action=TYPE [ACTION-ARGUMENT...] [--action=TYPE [ACTION-ARGUMENT...]]..." },
	{ "list-triggers", cmd_list_triggers, "List the triggers, their conditions and actions",
	  "[--counters]" },
	{ "remove-trigger", cmd_remove_trigger, "Remove a trigger", "TRIGGER [--owner-uid UID]" },
	{ "wait-trigger", cmd_wait_trigger, "Print a trigger's notifications as they come",
	  "TRIGGER [--timeout SEC] [--count N]" },
	{ "export-trace", cmd_export_trace,
	  "Put traces' events into SQL tables: an SQLite file or a ClickHouse database",
	  "[-s SESSION | TRACE_DIR...] --to=(sqlite:FILE | clickhouse://HOST[:PORT]/DATABASE) "
	  "[--progress | --quiet | --follow SECONDS]" },
	{ "view", cmd_view, "Read a session's trace with babeltrace2 or another reader",
	  "[NAME | -t DIR] [-e CMD]" },
	{ "version", cmd_version, "Show the versions of lttctl and of the session daemon", "" },
	{ "help", cmd_help, "List the commands, or describe one", "[COMMAND]" },
};

#define NR_COMMANDS (sizeof(commands) / sizeof(commands[0]))

const struct ctl_cmd *ctl_cmd_find(const char *name)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++) {
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	}
	return NULL;
}

/* LTTng's commands that ltt lacks: refused with their sentence, not as unknown. */
static const struct {
	const char *name;
	enum ltt_lttng_gap gap;
} lttng_gaps[] = {
	{ NULL, LTT_LTTNG_NR_GAPS },	/* none now: the table stays for the next */
};

bool ctl_cmd_lttng_gap(const char *name, enum ltt_lttng_gap *ret_gap)
{
	size_t i;

	for (i = 0; lttng_gaps[i].name; i++) {
		if (!strcmp(lttng_gaps[i].name, name)) {
			*ret_gap = lttng_gaps[i].gap;
			return true;
		}
	}
	return false;
}

/* One line per command, name and summary, on @fp. */
static void print_list(FILE *fp)
{
	size_t i;

	fputs("Commands:\n", fp);
	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(fp, "  %-18s%s\n", commands[i].name, commands[i].summary);
	fputs("\n'lttctl help COMMAND' or 'lttctl COMMAND --help' describes a command.\n", fp);
}

/* The commands as a <commands> result object. */
static void out_list(void)
{
	size_t i;

	ctl_out_open("commands");
	for (i = 0; i < NR_COMMANDS; i++) {
		ctl_out_open("entry");
		ctl_out_str("name", commands[i].name);
		ctl_out_str("summary", commands[i].summary);
		ctl_out_close();
	}
	ctl_out_close();
}

void ctl_cmd_help(const struct poptOption *options, const char *footer)
{
	static const struct ctl_help_list list = { print_list, out_list };

	ctl_util_help_all(&list, options, footer);
}

void ctl_cmd_print_names(FILE *fp)
{
	size_t i;

	for (i = 0; i < NR_COMMANDS; i++)
		fprintf(fp, "%s\n", commands[i].name);
}

/* One command's help is what "lttctl CMD --help" prints. */
static int help_command(const struct ctl_ctx *ctx, const char *name)
{
	struct ctl_ctx cmd_ctx = *ctx;
	const char *argv[] = { name, "--help", NULL };

	cmd_ctx.cmd = ctl_cmd_find(name);
	if (!cmd_ctx.cmd)
		return ctl_util_usage_error(ctx, "unknown command '%s'", name);
	return cmd_ctx.cmd->run(&cmd_ctx, 2, argv);
}

static int help(const struct ctl_ctx *ctx, const char **args, int nr)
{
	if (nr)
		return help_command(ctx, args[0]);
	ctl_cmd_help(NULL, "'lttctl --help' also lists the global options.\n");
	return CTL_EXIT_OK;
}

int cmd_help(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	return ctl_util_run_args(ctx, argc, argv, 1, help);
}
