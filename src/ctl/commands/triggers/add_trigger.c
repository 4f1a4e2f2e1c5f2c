// SPDX-License-Identifier: LGPL-2.1-only
/*
 * add_trigger.c - lttctl add-trigger: add a trigger, a condition and the
 * actions to take each time it holds, with LTTng 2.13's command line:
 *
 *   lttctl add-trigger [--name NAME] [--owner-uid UID]
 *           --condition=TYPE [CONDITION OPTIONS]
 *           --action=TYPE [SESSION] [ACTION OPTIONS] [--action=TYPE ...]...
 *
 * Options are positional: those before --condition are the trigger's,
 * those after --condition=TYPE the condition's up to the first --action,
 * those after each --action=TYPE that action's ("--name" names the
 * trigger, the event rule's pattern or the snapshot, depending on where
 * it is).  So the line is read in two steps: scan() cuts it into parts
 * and checks that each option belongs to its part; ctl_trigger_build()
 * (trigger-build.c) turns each part's values into a struct
 * ltt_trigger_attr, checking them.  The
 * whole trigger is then checked as the daemon checks it (convert.h,
 * trigger.h) before connecting: a line that can't make a trigger is
 * refused without a daemon, and nothing is sent.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/names.h"
#include "common/base/size.h"
#include "common/model/map.h"
#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/model/trigger.h"
#include "ctl/ctl.h"
#include "ctl/trigger-build.h"
#include "ctl/util-session.h"
#include "ctl/util.h"



/*
 * The one table of the options: parsing reads it (names, whether they
 * take a value, their enum opt), --help and --list-options print it.
 */
static const struct poptOption options[] = {
	{ "name", 'n', POPT_ARG_STRING, NULL, O_NAME,
	  "before --condition: the trigger's name (default: the daemon's choice); "
	  "event-rule-matches: the events' name pattern (default '*'); "
	  "snapshot-session: the snapshots' name", "NAME" },
	{ "owner-uid", 0, POPT_ARG_STRING, NULL, O_OWNER_UID,
	  "before --condition: add the trigger as user UID's (root only)", "UID" },
	{ "condition", 0, POPT_ARG_STRING, NULL, O_CONDITION,
	  "the condition, followed by its options (below)", "TYPE" },
	{ "action", 0, POPT_ARG_STRING, NULL, O_ACTION,
	  "an action, followed by its session and options (below); 1 to 8, run in order",
	  "TYPE" },
	{ "type", 't', POPT_ARG_STRING, NULL, O_TYPE,
	  "event-rule-matches: user (the default), kernel:tracepoint, kernel:syscall, "
	  "python, jul or log4j; incr-map-value: user or kernel, its map channel's (the rule's)",
	  "TYPE" },
	{ "exclude-name", 'x', POPT_ARG_STRING, NULL, O_EXCLUDE,
	  "event-rule-matches: not the events of that name or pattern (repeatable; "
	  "user space, with a '*' pattern)", "NAME" },
	{ "log-level", 'l', POPT_ARG_STRING, NULL, O_LOGLEVEL,
	  "event-rule-matches: LEVEL.. (LEVEL or more severe), LEVEL (exactly), .. (any)",
	  "LEVEL" },
	{ "filter", 'f', POPT_ARG_STRING, NULL, O_FILTER,
	  "event-rule-matches: only the events for which EXPR is true", "EXPR" },
	{ "capture", 0, POPT_ARG_STRING, NULL, O_CAPTURE,
	  "event-rule-matches: a payload field (NAME, NAME[INDEX]) or context ($ctx.NAME) "
	  "each notification carries (repeatable, at most 16)", "EXPR" },
	{ "session", 's', POPT_ARG_STRING, NULL, O_SESSION,
	  "channel-buffer-usage-*, session-*: the session", "SESSION" },
	{ "channel", 'c', POPT_ARG_STRING, NULL, O_CHANNEL,
	  "channel-buffer-usage-*: the channel", "CHANNEL" },
	{ "domain", 0, POPT_ARG_STRING, NULL, O_DOMAIN,
	  "channel-buffer-usage-*: the channel's domain, user or kernel", "DOMAIN" },
	{ "userspace", 'u', POPT_ARG_NONE, NULL, O_USERSPACE,
	  "channel-buffer-usage-*: --domain=user", NULL },
	{ "kernel", 'k', POPT_ARG_NONE, NULL, O_KERNEL,
	  "channel-buffer-usage-*: --domain=kernel", NULL },
	{ "threshold-ratio", 0, POPT_ARG_STRING, NULL, O_RATIO,
	  "channel-buffer-usage-*: a fraction of the buffers, 0 to 1", "RATIO" },
	{ "threshold-size", 0, POPT_ARG_STRING, NULL, O_SIZE,
	  "channel-buffer-usage-*, session-consumed-size-ge: bytes, above 0 (k, M, G "
	  "suffixes)", "SIZE" },
	{ "max-size", 'm', POPT_ARG_STRING, NULL, O_MAX_SIZE,
	  "snapshot-session: at most SIZE bytes per snapshot", "SIZE" },
	{ "path", 0, POPT_ARG_STRING, NULL, O_PATH,
	  "snapshot-session: write the snapshots under the local directory DIR", "DIR" },
	{ "url", 0, POPT_ARG_STRING, NULL, O_URL,
	  "snapshot-session: write the snapshots at URL (file://, net://)", "URL" },
	{ "ctrl-url", 'C', POPT_ARG_STRING, NULL, O_CTRL_URL,
	  "snapshot-session: send the snapshots to the relay of this control URL "
	  "(tcp://HOST:PORT), with --data-url", "URL" },
	{ "data-url", 'D', POPT_ARG_STRING, NULL, O_DATA_URL,
	  "snapshot-session: ... and of this data URL (tcp://HOST:PORT)", "URL" },
	{ "rate-policy", 0, POPT_ARG_STRING, NULL, O_RATE,
	  "each action: every:N (each N-th time the condition holds; default every:1) or "
	  "once-after:N (once, the N-th time)", "POLICY" },
	{ "location", 'L', POPT_ARG_STRING, NULL, O_LOCATION,
	  "event-rule-matches, --type=kernel:kprobe: SYMBOL[+OFFSET] or 0xADDR; "
	  "--type=kernel:uprobe: [elf:]PATH:FUNCTION or sdt:PATH:PROVIDER:NAME", "LOC" },
	{ "event-name", 'E', POPT_ARG_STRING, NULL, O_EVENT_NAME,
	  "event-rule-matches, a probe type: the name of the probe's event (default: its "
	  "location)", "NAME" },
	{ "map", 0, POPT_ARG_STRING, NULL, O_MAP,
	  "incr-map-value: the map channel of the session (or --channel)", "CHANNEL" },
	{ "key", 0, POPT_ARG_STRING, NULL, O_KEY,
	  "incr-map-value: the key each event counts under: text with {event_name} and "
	  "{provider_name}", "TEMPLATE" },
	{ "help", 'h', POPT_ARG_NONE, NULL, O_HELP, "show this help", NULL },
	POPT_TABLEEND
};

static const char help_footer[] =
	"\nConditions (--condition=TYPE) and their options:\n"
	"  event-rule-matches         [-t TYPE] [-n PATTERN] [-x NAME]... [-l LEVEL]\n"
	"                             [-f EXPR] [--capture EXPR]...\n"
	"                             (-t kernel:kprobe|kernel:uprobe: -L LOC [-E NAME])\n"
	"  channel-buffer-usage-ge,   -s SESSION -c CHANNEL (-u | -k)\n"
	"  channel-buffer-usage-le    (--threshold-ratio RATIO | --threshold-size SIZE)\n"
	"  session-consumed-size-ge   -s SESSION --threshold-size SIZE\n"
	"  session-rotation-starts    -s SESSION\n"
	"  session-rotation-finishes  -s SESSION\n"
	"Actions (--action=TYPE), each with [--rate-policy POLICY]:\n"
	"  notify\n"
	"  start-session SESSION\n"
	"  stop-session SESSION\n"
	"  rotate-session SESSION\n"
	"  snapshot-session SESSION   [-n NAME] [-m SIZE] [--path DIR | --url URL]\n"
	"                             (or -C/--ctrl-url URL -D/--data-url URL)\n"
	"  incr-map-value             (-s SESSION | SESSION) (--map | -c) CHANNEL --key TEMPLATE\n"
	"                             [--type user|kernel]\n"
	"                             (alone, after a user-space event-rule-matches; no rate)\n"
	"Options belong to what they follow: the trigger before --condition, the\n"
	"condition up to the first --action, then each action.  The session daemon\n"
	"evaluates every condition: event rules of user space in the programs, of the\n"
	"kernel through ftrace; lttctl-add-trigger(1) has the details.\n";

/* What each part of the line takes, besides --condition and --action. */
#define TRIGGER_OPTS (B(O_NAME) | B(O_OWNER_UID))
#define RULE_OPTS (B(O_TYPE) | B(O_NAME) | B(O_EXCLUDE) | B(O_LOGLEVEL) | B(O_FILTER) | \
		   B(O_CAPTURE) | B(O_LOCATION) | B(O_EVENT_NAME))
#define BUFFER_OPTS (B(O_SESSION) | B(O_CHANNEL) | B(O_DOMAIN) | B(O_USERSPACE) | \
		     B(O_KERNEL) | B(O_RATIO) | B(O_SIZE))
#define REPEATABLE (B(O_EXCLUDE) | B(O_CAPTURE))

static const unsigned int condition_opts[] = {
	[LTT_CONDITION_EVENT_RULE_MATCHES] = RULE_OPTS,
	[LTT_CONDITION_BUFFER_USAGE_GE] = BUFFER_OPTS,
	[LTT_CONDITION_BUFFER_USAGE_LE] = BUFFER_OPTS,
	[LTT_CONDITION_SESSION_CONSUMED_SIZE_GE] = B(O_SESSION) | B(O_SIZE),
	[LTT_CONDITION_SESSION_ROTATION_STARTS] = B(O_SESSION),
	[LTT_CONDITION_SESSION_ROTATION_FINISHES] = B(O_SESSION),
};

static const unsigned int action_opts[] = {
	[LTT_ACTION_NOTIFY] = B(O_RATE),
	[LTT_ACTION_START_SESSION] = B(O_RATE),
	[LTT_ACTION_STOP_SESSION] = B(O_RATE),
	[LTT_ACTION_ROTATE_SESSION] = B(O_RATE),
	[LTT_ACTION_SNAPSHOT_SESSION] = B(O_RATE) | B(O_NAME) | B(O_MAX_SIZE) | B(O_PATH) |
					B(O_URL) | B(O_CTRL_URL) | B(O_DATA_URL),
	[LTT_ACTION_INCR_MAP_VALUE] = B(O_SESSION) | B(O_CHANNEL) | B(O_MAP) | B(O_KEY) |
				      B(O_TYPE),
};

/* Reading the words of the line one by one. */
struct reader {
	int argc;
	const char **argv;
	int i;			/* the next word */
	bool no_opts;		/* after "--": arguments only */
};

/* A word read: an option and its value, or an argument. */
struct word {
	const struct poptOption *opt;	/* NULL: an argument */
	char text[80];			/* the option as typed, for messages: "--name", "-n" */
	const char *value;		/* the option's value ("" for a flag), or the argument */
	const char *raw;		/* the word as typed: "--condition=foo" */
	int argn;			/* its place on the line, the command's word 1 (LTTng's count) */
};

/* "--name"'s entry, "-n"'s; NULL if none. */
static const struct poptOption *find_option(const char *name, size_t len, char c)
{
	const struct poptOption *o;

	for (o = options; o->longName; o++) {
		if (c ? o->shortName == c : strlen(o->longName) == len &&
		    !strncmp(o->longName, name, len))
			return o;
	}
	return NULL;
}

static bool takes_value(const struct poptOption *o)
{
	return (o->argInfo & POPT_ARG_MASK) != POPT_ARG_NONE;
}

/*
 * LTTng's words for a usage error of add-trigger's line, its tests
 * compare them whole: one line, no usage line after it.  Returns
 * CTL_EXIT_USAGE.
 */
static int lttng_usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static int lttng_usage_error(const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	ctl_out_error(LTT_ERR_USAGE, "%s", msg);
	return CTL_EXIT_USAGE;
}

/*
 * LTTng's list after a condition or action type it does not know, with
 * ltt's types: "Valid condition names are:", then a line per name.  Run
 * as lttng (@ctx->lttng_name), LTTng's list whole: its one condition, and
 * of its actions the first (lttng 2.13.9 prints as many actions as it has
 * conditions).
 */
static void list_names(const struct ctl_ctx *ctx, int code, bool actions)
{
	const char *name;
	int i;

	ctl_out_error(code, "Valid %s names are:", actions ? "action" : "condition");
	if (ctx->lttng_name) {
		ctl_out_error(code, "  %s", actions ? "notify" : "event-rule-matches");
		return;
	}
	for (i = 1; i < 32; i++) {
		name = actions ? ltt_action_type_name((enum ltt_action_type)i) :
				 ltt_condition_type_name((enum ltt_condition_type)i);
		if (name)
			ctl_out_error(code, "  %s", name);
	}
}

/*
 * The option of word @t ("--opt", "--opt=V", "-o", "-oV"), word @argn of
 * the line (the command is 1, as LTTng counts), into @w; @ret_inline its =V.
 */
static int find_word_option(const char *t, int argn, struct word *w, const char **ret_inline)
{
	const char *eq = strchr(t, '=');
	size_t len;

	if (t[1] == '-') {
		len = eq ? (size_t)(eq - t) : strlen(t);
		w->opt = find_option(t + 2, len - 2, 0);
		*ret_inline = eq ? eq + 1 : NULL;
	} else {
		len = 2;
		w->opt = find_option(NULL, 0, t[1]);
		*ret_inline = t[2] ? t + 2 : NULL;
		if (w->opt && !takes_value(w->opt) && t[2])
			w->opt = NULL;
	}
	if (!w->opt)
		return lttng_usage_error("While parsing argument #%d (`%s`): Unknown option `%.*s`",
					 argn, t, (int)len, t);
	snprintf(w->text, sizeof(w->text), "%.*s", (int)len, t);
	return CTL_GO_ON;
}

/* The next word of the line into @w.  Returns CTL_GO_ON or an exit status. */
static int read_word(const struct ctl_ctx *ctx, struct reader *r, struct word *w)
{
	const char *t = r->argv[r->i++], *value;
	int ret, argn = r->i;

	memset(w, 0, sizeof(*w));
	w->raw = t;
	w->argn = argn;
	if (r->no_opts || t[0] != '-' || !t[1]) {
		w->value = t;
		return CTL_GO_ON;
	}
	ret = find_word_option(t, argn, w, &value);
	if (ret != CTL_GO_ON)
		return ret;
	if (!takes_value(w->opt)) {
		if (value)
			return ctl_util_usage_error(ctx, "%s takes no value", w->text);
		w->value = "";
		return CTL_GO_ON;
	}
	if (!value) {
		if (r->i >= r->argc) {
			ret = lttng_usage_error("While parsing argument #%d (`%s`): Missing "
						"required argument for option `%s`", argn, t,
						w->text);
			if (w->opt->val == O_CONDITION || w->opt->val == O_ACTION)
				list_names(ctx, LTT_ERR_USAGE, w->opt->val == O_ACTION);
			return ret;
		}
		value = r->argv[r->i++];
	}
	w->value = value;
	return CTL_GO_ON;
}

/* "condition session-rotation-starts", "action 2 (stop-session)". */
static unsigned int part_opts(const struct ctl_trigger_part *p)
{
	if (p->kind == PART_CONDITION)
		return condition_opts[p->type];
	if (p->kind == PART_ACTION)
		return action_opts[p->type];
	return TRIGGER_OPTS;
}

/* "--session, --threshold-size": the options of @mask, in the table's order. */
static const char *opt_list(unsigned int mask, char *buf, size_t len)
{
	const struct poptOption *o;
	size_t n = 0;

	buf[0] = '\0';
	for (o = options; o->longName && n < len; o++) {
		if (mask & B(o->val))
			n += (size_t)snprintf(buf + n, len - n, "%s--%s", n ? ", " : "", o->longName);
	}
	return buf;
}

/* A usage error: option @w is not one of @p's. */
static int not_here(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
		    const struct word *w)
{
	char what[64], opts[256];

	if (p->kind == PART_TRIGGER)
		return ctl_util_usage_error(ctx, "%s before --condition: only --name and --owner-uid "
					    "go there; give the condition's options after "
					    "--condition=TYPE", w->text);
	return ctl_util_usage_error(ctx, "%s is not an option of %s, which takes %s", w->text,
				    ctl_trigger_part_name(p, what, sizeof(what)),
				    part_opts(p) ? opt_list(part_opts(p), opts, sizeof(opts)) :
				    "none");
}

/* -x NAME, added to the comma-separated list. */
static int add_exclusion(const struct ctl_ctx *ctx, struct ctl_trigger_line *l, const char *name)
{
	size_t n = strlen(l->exclusions);

	if (!*name)
		return ctl_util_usage_error(ctx, "--exclude-name: the name is empty");
	if (n + 1 + strlen(name) >= sizeof(l->exclusions)) {
		ctl_out_error(LTT_ERR_EXCLUSION, "--exclude-name '%s': the exclusions take more than "
			      "%d bytes", name, LTT_EXCLUSIONS_MAX - 1);
		return CTL_EXIT_FAILURE;
	}
	snprintf(l->exclusions + n, sizeof(l->exclusions) - n, "%s%s", n ? "," : "", name);
	return CTL_GO_ON;
}

/* An option of part @p (not --condition, --action, --help). */
static int take_option(const struct ctl_ctx *ctx, struct ctl_trigger_line *l,
		       struct ctl_trigger_part *p,
		       const struct word *w)
{
	int o = w->opt->val;
	char what[64];

	if (!(part_opts(p) & B(o)))
		return not_here(ctx, p, w);
	if ((p->given & B(o)) && !(REPEATABLE & B(o)))
		return ctl_util_usage_error(ctx, "%s is given twice for %s", w->text,
					    ctl_trigger_part_name(p, what, sizeof(what)));
	p->given |= B(o);
	p->val[o] = w->value;
	if (o == O_EXCLUDE)
		return add_exclusion(ctx, l, w->value);
	if (o == O_CAPTURE) {
		/* LTTng parses a capture where it reads it, before the words after it */
		if (ctx->lttng_name && ctl_trigger_capture_check(w->value) != CTL_GO_ON)
			return CTL_EXIT_FAILURE;
		if (l->nr_captures == LTT_TRIGGER_CAPTURES_LIMIT) {
			ctl_out_error(LTT_ERR_TRIGGER_CAPTURES, "capture '%s': %s", w->value,
				      ltt_strerror(LTT_ERR_TRIGGER_CAPTURES));
			return CTL_EXIT_FAILURE;
		}
		l->captures[l->nr_captures++] = w->value;
	}
	return CTL_GO_ON;
}

/* --condition=TYPE: the condition's part begins. */
static int start_condition(const struct ctl_ctx *ctx, struct ctl_trigger_line *l,
			   struct ctl_trigger_part **cur, const struct word *w)
{
	const char *type = w->value;

	if (l->has_condition)
		return lttng_usage_error("A --condition was already given.");
	l->condition.type = ltt_condition_type_parse(type);
	if (!l->condition.type) {	/* LTTng's words, with ltt's types */
		ctl_out_error(LTT_ERR_TRIGGER_CONDITION, "While parsing argument #%d (`%s`): "
			      "Unknown condition name '%s'", w->argn, w->raw, type);
		list_names(ctx, LTT_ERR_TRIGGER_CONDITION, false);
		return CTL_EXIT_FAILURE;
	}
	l->condition.kind = PART_CONDITION;
	l->has_condition = true;
	*cur = &l->condition;
	return CTL_GO_ON;
}

/* --action=TYPE: an action's part begins. */
static int start_action(const struct ctl_ctx *ctx, struct ctl_trigger_line *l,
			struct ctl_trigger_part **cur, const struct word *w)
{
	const char *type = w->value;
	struct ctl_trigger_part *a;

	/* LTTng takes the actions and the condition in any order */
	if (!l->has_condition && !ctx->lttng_name)
		return ctl_util_usage_error(ctx, "--action=%s before --condition: give the condition "
					    "first (--condition=TYPE), then the actions", type);
	if (!ltt_action_type_parse(type)) {	/* LTTng's words, with ltt's types */
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "While parsing argument #%d (`%s`): "
			      "Unknown action name '%s'", w->argn, w->raw, type);
		list_names(ctx, LTT_ERR_TRIGGER_ACTION, true);
		return CTL_EXIT_FAILURE;
	}
	if (l->nr_actions == LTT_TRIGGER_MAX_ACTIONS) {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "action %zu (%s): a trigger takes at most %d "
			      "actions", l->nr_actions + 1, type, LTT_TRIGGER_MAX_ACTIONS);
		return CTL_EXIT_FAILURE;
	}
	a = &l->actions[l->nr_actions++];
	a->kind = PART_ACTION;
	a->type = ltt_action_type_parse(type);
	a->nr = l->nr_actions;
	*cur = a;
	return CTL_GO_ON;
}

/* A word that is no option: an action's SESSION. */
static int take_arg(const struct ctl_ctx *ctx, struct ctl_trigger_part *p, const char *arg)
{
	if (p->kind == PART_ACTION && p->type != LTT_ACTION_NOTIFY && !p->arg) {
		p->arg = arg;
		return CTL_GO_ON;
	}
	/* LTTng's two spellings: an action's, and the condition's or the line's */
	if (p->kind == PART_ACTION)
		return lttng_usage_error("Unexpected argument `%s`.", arg);
	return lttng_usage_error("Unexpected argument '%s'", arg);
}

/*
 * LTTng's words for a rule type of --type that takes no --location or
 * --event-name (its lttng_event_rule_type_str()); NULL for a probe type,
 * or one ltt does not know (the later checks say what is wrong with it).
 */
static const char *lttng_rule_words(const char *type)
{
	static const struct {
		const char *type, *words;
	} types[] = {
		{ "user", "user tracepoint" }, { "user:tracepoint", "user tracepoint" },
		{ "kernel", "kernel tracepoint" }, { "kernel:tracepoint", "kernel tracepoint" },
		{ "syscall", "kernel syscall" }, { "kernel:syscall", "kernel syscall" },
		{ "syscall:entry+exit", "kernel syscall" },
		{ "kernel:syscall:entry+exit", "kernel syscall" },
		{ "python", "python logging" }, { "python:logging", "python logging" },
		{ "jul", "jul logging" }, { "jul:logging", "jul logging" },
		{ "log4j", "log4j logging" }, { "log4j:logging", "log4j logging" },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcmp(types[i].type, type))
			return types[i].words;
	return NULL;
}

/*
 * -L/--location, -E/--event-name: a probe rule's (--type=kernel:kprobe,
 * kernel:uprobe); after a --type that is no probe, the misuse is said in
 * LTTng's words, as its add-trigger tests compare them.
 */
static int probe_option(const struct ctl_ctx *ctx, struct ctl_trigger_line *l,
			struct ctl_trigger_part *p, const struct word *w)
{
	const char *type = p->kind == PART_CONDITION ? p->val[O_TYPE] : NULL;
	const char *words = type ? lttng_rule_words(type) : NULL;

	if (!words)	/* a probe type (trigger-build.c checks it), or none yet */
		return take_option(ctx, l, p, w);
	return lttng_usage_error("Can't use --%s with %s event rules.", w->opt->longName, words);
}

/* --list-options: the options, for completion scripts. */
static int list_options(void)
{
	if (ctl_util_names_only("--list-options"))
		return CTL_EXIT_FAILURE;
	ctl_util_list_options(stdout, options);
	return CTL_EXIT_OK;
}

/* The word @w, taken by the part it belongs to. */
static int take_word(const struct ctl_ctx *ctx, struct ctl_trigger_line *l,
		     struct ctl_trigger_part **cur,
		     const struct word *w)
{
	if (!w->opt)
		return take_arg(ctx, *cur, w->value);
	switch (w->opt->val) {
	case O_HELP:
		ctl_util_help(ctx->cmd, options, help_footer);
		return CTL_EXIT_OK;
	case O_CONDITION:
		return start_condition(ctx, l, cur, w);
	case O_ACTION:
		return start_action(ctx, l, cur, w);
	case O_LOCATION:
	case O_EVENT_NAME:
		return probe_option(ctx, l, *cur, w);
	default:
		return take_option(ctx, l, *cur, w);
	}
}

/* Cut the line into its parts.  Returns CTL_GO_ON or an exit status. */
static int scan(const struct ctl_ctx *ctx, int argc, const char **argv, struct ctl_trigger_line *l)
{
	struct reader r = { argc, argv, 1, false };
	struct ctl_trigger_part *cur = &l->trigger;
	struct word w;
	int ret;

	l->trigger.kind = PART_TRIGGER;
	while (r.i < argc) {
		if (!r.no_opts && !strcmp(argv[r.i], "--")) {
			r.no_opts = true;
			r.i++;
			continue;
		}
		if (!r.no_opts && !strcmp(argv[r.i], "--list-options"))
			return list_options();
		ret = read_word(ctx, &r, &w);
		if (ret == CTL_GO_ON)
			ret = take_word(ctx, l, &cur, &w);
		if (ret != CTL_GO_ON)
			return ret;
	}
	if (!l->has_condition)
		return lttng_usage_error("Missing --condition.");
	return CTL_GO_ON;
}

/* The whole trigger, checked as the daemon checks it. */
static int check_whole(const struct ltt_trigger_attr *attr)
{
	struct ltt_trigger_conf *conf = malloc(sizeof(*conf));
	int ret;

	if (!conf) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	ret = ltt_conv_trigger_attr_to_conf(attr, conf);
	if (!ret)
		ret = ltt_trigger_check(conf);
	free(conf);
	if (!ret)
		return CTL_EXIT_OK;
	ctl_util_trigger_error(attr->name, ret);
	return CTL_EXIT_FAILURE;
}

/* The daemon knows no session of that name: say which the trigger names. */
static void session_not_found(const struct ltt_trigger_attr *attr, int code)
{
	const char *names[1 + LTT_TRIGGER_MAX_ACTIONS], *trigger = attr->name;
	char list[(LTT_NAME_MAX + 4) * (1 + LTT_TRIGGER_MAX_ACTIONS)] = "";
	size_t nr = 0, i, j, n = 0;

	if (attr->condition.session[0])
		names[nr++] = attr->condition.session;
	for (i = 0; i < attr->nr_actions; i++) {
		for (j = 0; j < nr && strcmp(names[j], attr->actions[i].session); j++)
			;
		if (j == nr && attr->actions[i].session[0])
			names[nr++] = attr->actions[i].session;
	}
	for (i = 0; i < nr; i++)
		n += (size_t)snprintf(list + n, sizeof(list) - n, "%s'%s'", i ? ", " : "",
				      names[i]);
	ctl_out_error(code, "trigger%s%s%s: %s %s: %s", *trigger ? " '" : "", trigger,
		      *trigger ? "'" : "", nr > 1 ? "one of the sessions" : "session", list,
		      ltt_strerror(code));
}

/* The trigger added, as list-triggers would show it: named @name, nothing counted yet. */
static void put_added(const struct ltt_trigger_attr *attr, const char *name)
{
	struct ltt_trigger_info *t = calloc(1, sizeof(*t));

	if (!t) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return;
	}
	t->attr = *attr;
	snprintf(t->attr.name, sizeof(t->attr.name), "%s", name);
	ctl_obj_trigger(t, 0);
	free(t);
}

static int add(const struct ctl_ctx *ctx, const struct ltt_trigger_attr *attr)
{
	char name[LTT_NAME_MAX];
	struct ltt_ctl *ctl;
	int ret;

	ret = ctl_util_connect(ctx, false, &ctl);
	if (ret)
		return ret;
	/* by LTTng's name, LTTng's behaviour where ltt's differs (doc/lttng-compat.md) */
	ret = ltt_ctl_add_trigger_flags(ctl, attr, ctx->lttng_name ? LTT_TRIGGER_ADD_LTTNG : 0, name,
					sizeof(name));
	ltt_ctl_disconnect(ctl);
	if (ret == -LTT_ERR_SESSION_NOT_FOUND)
		session_not_found(attr, ret);
	else if (ret)
		ctl_util_trigger_error(attr->name, ret);
	if (ret)
		return CTL_EXIT_FAILURE;
	ctl_out_info("Added trigger `%s`.", name);
	put_added(attr, name);
	return CTL_EXIT_OK;
}

int cmd_add_trigger(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct ltt_trigger_attr *attr = malloc(sizeof(*attr));
	struct ctl_trigger_line *l = calloc(1, sizeof(*l));
	int ret = CTL_GO_ON;

	if (!attr || !l) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		ret = CTL_EXIT_FAILURE;
	}
	if (ret == CTL_GO_ON)
		ret = scan(ctx, argc, argv, l);
	if (ret == CTL_GO_ON) {
		ltt_ctl_trigger_attr_init(attr);
		ret = ctl_trigger_build(ctx, l, attr);
	}
	/* After the condition's checks, in LTTng's order (a bad log level first) */
	if (ret == CTL_GO_ON && !l->nr_actions)
		ret = lttng_usage_error("Need at least one --action.");
	if (ret == CTL_GO_ON)
		ret = check_whole(attr) ? CTL_EXIT_FAILURE : add(ctx, attr);
	free(l);
	free(attr);
	return ret;
}
