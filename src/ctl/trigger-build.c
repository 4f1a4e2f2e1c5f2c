// SPDX-License-Identifier: LGPL-2.1-only
/*
 * trigger-build.c - add-trigger's line, cut into parts by
 * commands/triggers/add_trigger.c, turned into a struct ltt_trigger_attr: the
 * trigger's name and owner, its condition (a session's, a buffer's
 * usage, an event rule's with its exclusions and captures) and each
 * action, every value checked with a sentence naming its option
 * (trigger-build.h).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/attr.h"
#include "common/model/convert.h"
#include "common/model/map.h"
#include "common/base/names.h"
#include "common/base/size.h"
#include "common/model/trigger.h"
#include "common/filter/filter-parse.h"
#include "common/probe/probe-loc.h"
#include "ctl/ctl.h"
#include "ctl/trigger-build.h"
#include "ctl/util-event.h"
#include "ctl/util.h"

const char *ctl_trigger_part_name(const struct ctl_trigger_part *p, char *buf, size_t len)
{
	if (p->kind == PART_CONDITION)
		snprintf(buf, len, "condition %s",
			 ltt_condition_type_name((enum ltt_condition_type)p->type));
	else if (p->kind == PART_ACTION)
		snprintf(buf, len, "action %zu (%s)", p->nr,
			 ltt_action_type_name((enum ltt_action_type)p->type));
	else
		snprintf(buf, len, "the trigger");
	return buf;
}

/* The trigger's --name and --owner-uid. */
static int build_trigger(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
			 struct ltt_trigger_attr *attr)
{
	const char *name = p->val[O_NAME], *uid = p->val[O_OWNER_UID];
	uint64_t v;

	if (name && !ltt_trigger_name_valid(name)) {
		ctl_util_trigger_error(name, -LTT_ERR_TRIGGER_NAME);
		return CTL_EXIT_FAILURE;
	}
	if (name)
		strcpy(attr->name, name);
	if (uid && ctl_util_parse_u64(uid, UINT32_MAX - 1, &v))
		return ctl_util_usage_error(ctx, "--owner-uid '%s': give a user id, a number "
					    "from 0 to %u", uid, UINT32_MAX - 1);
	if (uid)
		attr->owner_uid = (int64_t)v;
	return CTL_GO_ON;
}

/* --session of a session condition, into @dst. */
static int take_session(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p, char *dst)
{
	const char *s = p->val[O_SESSION];
	char what[64];

	if (!s)
		return ctl_util_usage_error(ctx, "%s needs the session: --session=SESSION",
					    ctl_trigger_part_name(p, what, sizeof(what)));
	if (ctl_util_check_session_name(s))
		return CTL_EXIT_FAILURE;
	strcpy(dst, s);
	return CTL_GO_ON;
}

/* A threshold's error: CTL_EXIT_FAILURE. */
static int bad_threshold(const char *opt, const char *text)
{
	ctl_out_error(LTT_ERR_TRIGGER_THRESHOLD, "%s '%s': %s", opt, text,
		      ltt_strerror(LTT_ERR_TRIGGER_THRESHOLD));
	return CTL_EXIT_FAILURE;
}

/* --threshold-size: bytes, above 0. */
static int take_size(const struct ctl_trigger_part *p, uint64_t *ret)
{
	const char *text = p->val[O_SIZE];

	if (ltt_size_parse(text, ret) || !*ret)
		return bad_threshold("--threshold-size", text);
	return CTL_GO_ON;
}

/* --threshold-ratio: a number from 0 to 1. */
static int take_ratio(const struct ctl_trigger_part *p, double *ret)
{
	const char *text = p->val[O_RATIO];
	char *end;
	double r;

	errno = 0;
	r = strtod(text, &end);
	if (!*text || *end || errno || !isfinite(r) || r < 0.0 || r > 1.0)
		return bad_threshold("--threshold-ratio", text);
	*ret = r;
	return CTL_GO_ON;
}

/* The domain of --domain, -u, -k. */
static int take_domain(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
		       enum ltt_domain *ret)
{
	const char *d = p->val[O_DOMAIN];
	char what[64];
	int n = !!d + !!p->val[O_USERSPACE] + !!p->val[O_KERNEL];

	if (n > 1)
		return ctl_util_usage_error(ctx, "%s: give one domain (--domain, -u or -k)",
					    ctl_trigger_part_name(p, what, sizeof(what)));
	if (!n)
		return ctl_util_usage_error(ctx, "%s needs the channel's domain: -u (user space) "
					    "or -k (kernel)", ctl_trigger_part_name(p, what, sizeof(what)));
	if (d && !strcmp(d, "log4j2"))
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_LOG4J2);	/* LTTng 2.14's */
	if (d && strcmp(d, "user") && strcmp(d, "kernel"))
		return ctl_util_usage_error(ctx, "--domain '%s': give user or kernel", d);
	*ret = p->val[O_KERNEL] || (d && !strcmp(d, "kernel")) ? LTT_DOMAIN_KERNEL :
	       LTT_DOMAIN_USER;
	return CTL_GO_ON;
}

/* channel-buffer-usage-ge, channel-buffer-usage-le. */
static int build_buffer(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
			struct ltt_trigger_condition *c)
{
	const char *channel = p->val[O_CHANNEL];
	char what[64];
	int ret;

	ret = take_session(ctx, p, c->session);
	if (ret == CTL_GO_ON && !channel)
		ret = ctl_util_usage_error(ctx, "%s needs the channel: --channel=CHANNEL",
					   ctl_trigger_part_name(p, what, sizeof(what)));
	if (ret == CTL_GO_ON)
		ret = take_domain(ctx, p, &c->domain);
	if (ret != CTL_GO_ON)
		return ret;
	if (!ltt_channel_name_valid(channel))
		return ctl_util_object_error(LTT_ERR_CHANNEL_NAME, "channel", channel);
	strcpy(c->channel, channel);
	if (!!p->val[O_RATIO] == !!p->val[O_SIZE])
		return ctl_util_usage_error(ctx, "%s needs one threshold: --threshold-ratio=RATIO "
					    "or --threshold-size=SIZE",
					    ctl_trigger_part_name(p, what, sizeof(what)));
	return p->val[O_SIZE] ? take_size(p, &c->threshold_size) :
	       take_ratio(p, &c->threshold_ratio);
}

/* The event rule types of --type, each with its spellings (LTTng's). */
static const struct rule_type {
	const char *names[4];		/* NULL after the last */
	enum ltt_domain domain;
	enum ltt_event_type type;
	enum ltt_syscall_site site;	/* a system call's entry or exit alone */
} rule_types[] = {
	{ { "user", "user:tracepoint" }, LTT_DOMAIN_USER, LTT_EVENT_TRACEPOINT, 0 },
	{ { "kernel", "kernel:tracepoint" }, LTT_DOMAIN_KERNEL, LTT_EVENT_TRACEPOINT, 0 },
	{ { "kernel:syscall", "kernel:syscall:entry+exit", "syscall", "syscall:entry+exit" },
	  LTT_DOMAIN_KERNEL, LTT_EVENT_SYSCALL, 0 },
	{ { "kernel:syscall:entry", "syscall:entry" }, LTT_DOMAIN_KERNEL, LTT_EVENT_SYSCALL,
	  LTT_SYSCALL_SITE_ENTRY },
	{ { "kernel:syscall:exit", "syscall:exit" }, LTT_DOMAIN_KERNEL, LTT_EVENT_SYSCALL,
	  LTT_SYSCALL_SITE_EXIT },
	{ { "python", "python:logging" }, LTT_DOMAIN_PYTHON, LTT_EVENT_TRACEPOINT, 0 },
	{ { "jul", "jul:logging" }, LTT_DOMAIN_JUL, LTT_EVENT_TRACEPOINT, 0 },
	{ { "log4j", "log4j:logging" }, LTT_DOMAIN_LOG4J, LTT_EVENT_TRACEPOINT, 0 },
	{ { "kernel:kprobe", "kprobe" }, LTT_DOMAIN_KERNEL, LTT_EVENT_KPROBE, 0 },
	{ { "kernel:uprobe" }, LTT_DOMAIN_KERNEL, LTT_EVENT_UPROBE, 0 },
};

/*
 * Probe types of other spellings (enable-event's, later LTTng's):
 * refused, naming LTTng 2.13's (LTT_LTTNG_GAP_TRIGGER_PROBE).
 */
static const char *const probe_types[] = {
	"probe", "function", "uprobe", "userspace-probe", "kernel:function",
};

/* Is @text one of @t's spellings? */
static bool rule_type_named(const struct rule_type *t, const char *text)
{
	size_t i;

	for (i = 0; i < sizeof(t->names) / sizeof(t->names[0]) && t->names[i]; i++) {
		if (!strcmp(t->names[i], text))
			return true;
	}
	return false;
}

/* --type into the condition's domain and the rule's type. */
static int rule_type(const struct ctl_ctx *ctx, const char *text, struct ltt_trigger_condition *c)
{
	size_t i;

	for (i = 0; i < sizeof(probe_types) / sizeof(probe_types[0]); i++)
		if (!strcmp(probe_types[i], text))
			return ctl_util_refuse_gap(LTT_LTTNG_GAP_TRIGGER_PROBE);

	if (!strcmp(text, "log4j2:logging"))
		return ctl_util_refuse_gap(LTT_LTTNG_GAP_LOG4J2);	/* LTTng 2.14's */

	for (i = 0; i < sizeof(rule_types) / sizeof(rule_types[0]); i++) {
		const struct rule_type *t = &rule_types[i];

		if (!rule_type_named(t, text))
			continue;
		c->domain = t->domain;
		c->rule.type = t->type;
		if (t->site)	/* the entries or the exits alone: its location says */
			c->rule.location = ltt_syscall_site_name(t->site);
		return CTL_GO_ON;
	}
	/* LTTng's words for a site it does not know, alone on their line as its tests want */
	if (!strncmp(text, "syscall:", 8) || !strncmp(text, "kernel:syscall:", 15)) {
		ctl_out_error(LTT_ERR_USAGE, "Failed to parse syscall type '%s'.", text);
		return CTL_EXIT_USAGE;
	}
	return ctl_util_usage_error(ctx, "--type '%s': give user (user:tracepoint), "
				    "kernel:tracepoint, kernel:syscall, kernel:kprobe, kernel:uprobe, python "
				    "(python:logging), jul (jul:logging) or log4j (log4j:logging)",
				    text);
}

/* --log-level: LTTng's "LEVEL.." (or more severe), "LEVEL" (exactly), ".." (any). */
static int rule_loglevel(const char *text, struct ltt_trigger_condition *c)
{
	size_t len = strlen(text);
	bool ranged = len >= 2 && !strcmp(text + len - 2, "..");
	char level[64];

	if (!strcmp(text, "..")) {
		c->rule.loglevel_type = LTT_LOGLEVEL_ALL;
		return CTL_GO_ON;
	}
	if (c->domain == LTT_DOMAIN_KERNEL) {
		ctl_out_error(LTT_ERR_KERNEL_LOGLEVEL, "--log-level '%s': kernel events have no "
			      "log level: drop --log-level with --type=kernel:*", text);
		return CTL_EXIT_FAILURE;
	}
	snprintf(level, sizeof(level), "%.*s", (int)(ranged ? len - 2 : len), text);
	if (len >= sizeof(level) ||
	    ltt_loglevel_parse_domain(c->domain, level, &c->rule.loglevel)) {
		/* LTTng's words (its add-trigger tests compare them) */
		ctl_out_error(LTT_ERR_LOGLEVEL, "Failed to parse log level string `%s`.", level);
		return CTL_EXIT_FAILURE;
	}
	c->rule.loglevel_type = ranged ? LTT_LOGLEVEL_RANGE : LTT_LOGLEVEL_SINGLE;
	return CTL_GO_ON;
}

/* The -x list, checked against the pattern (user space only). */
static int rule_exclusions(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
			   struct ltt_trigger_condition *c)
{
	char list[LTT_EXCLUSIONS_MAX];

	if (!l->exclusions[0])
		return CTL_GO_ON;
	if (c->domain != LTT_DOMAIN_USER)
		return ctl_util_usage_error(ctx, "--exclude-name: only user-space rules take "
					    "exclusions (--type=user)");
	if (!ltt_event_pattern_is_glob(c->rule.pattern)) {	/* LTTng's words */
		ctl_out_error(LTT_ERR_EXCLUSION, "Event %s: Exclusions can only be used with a "
			      "globbing pattern", c->rule.pattern);
		return CTL_EXIT_FAILURE;
	}
	strcpy(list, l->exclusions);
	if (ltt_attr_normalize_exclusions(c->rule.pattern, list, sizeof(list))) {
		ctl_out_error(LTT_ERR_EXCLUSION, "--exclude-name '%s' for the pattern '%s': %s",
			      l->exclusions, c->rule.pattern, !ltt_event_pattern_is_glob(c->rule.pattern) ?
			      "exclusions need a pattern with an unescaped '*' (e.g. --name='prov:*')" :
			      "each exclusion must be an event name or pattern that does not "
			      "take all the names the rule's pattern takes");
		return CTL_EXIT_FAILURE;
	}
	ctl_util_warn_idle_exclusion(c->rule.pattern, list);
	c->rule.exclusions = l->exclusions;
	return CTL_GO_ON;
}
/*
 * What is wrong with capture @text (ltt_capture_parse() refused it), in
 * LTTng's words where it has some (an operator, a subfield, an app
 * context without its type), else ltt's.
 */
static void capture_error(const char *text)
{
	struct ltt_filter_node *n = NULL;
	const char *why = NULL, *colon;

	if (!strncmp(text, "$app.", 5)) {
		colon = strchr(text + 5, ':');
		if (!colon || !colon[1]) {
			ctl_out_error(LTT_ERR_TRIGGER_CAPTURE, "Invalid app-specific context field "
				      "name: missing %s in `%s`.", colon ? "type name after colon" :
				      "colon", text + 5);
			return;
		}
	}
	if (!ltt_filter_parse(text, &n, NULL)) {
		if (n->kind == LTT_FN_BINARY)
			why = n->op == LTT_FO_OR || n->op == LTT_FO_AND ? "Logical operators are not "
			      "allowed in capture expressions." : "Binary operators are not allowed "
			      "in capture expressions.";
		else if (n->kind == LTT_FN_UNARY)
			why = "Unary operators are not allowed in capture expressions.";
	}
	ltt_filter_free(n);
	if (!why && text[0] != '$' && strchr(text, '.'))
		why = "Capturing subfields is not supported.";
	if (why)
		ctl_out_error(LTT_ERR_TRIGGER_CAPTURE, "While parsing expression `%s`: %s", text, why);
	else
		ctl_out_error(LTT_ERR_TRIGGER_CAPTURE, "capture '%s': %s", text,
			      ltt_strerror(LTT_ERR_TRIGGER_CAPTURE));
}

int ctl_trigger_capture_check(const char *text)
{
	struct ltt_capture_expr e;

	if (!ltt_capture_parse(text, &e))
		return CTL_GO_ON;
	capture_error(text);
	return CTL_EXIT_FAILURE;
}


/*
 * The captures, each parsed: the first LTT_TRIGGER_MAX_CAPTURES in the
 * condition's array, the others pointed to in @l (more_captures).
 */
static int rule_captures(const struct ctl_trigger_line *l, struct ltt_trigger_condition *c)
{
	size_t i;

	for (i = 0; i < l->nr_captures; i++) {
		if (ctl_trigger_capture_check(l->captures[i]) != CTL_GO_ON)
			return CTL_EXIT_FAILURE;
		if (i < LTT_TRIGGER_MAX_CAPTURES)
			strcpy(c->captures[i], l->captures[i]);
	}
	c->nr_captures = (uint32_t)(i < LTT_TRIGGER_MAX_CAPTURES ? i : LTT_TRIGGER_MAX_CAPTURES);
	c->nr_more_captures = (uint32_t)i - c->nr_captures;
	c->more_captures = c->nr_more_captures ? &l->captures[LTT_TRIGGER_MAX_CAPTURES] : NULL;
	return CTL_GO_ON;
}

/* LTTng's words for the type of rule @c that is no probe (lttng_event_rule_type_str()). */
static const char *lttng_rule_words(const struct ltt_trigger_condition *c)
{
	switch (c->domain) {
	case LTT_DOMAIN_KERNEL:
		return c->rule.type == LTT_EVENT_SYSCALL ? "kernel syscall" : "kernel tracepoint";
	case LTT_DOMAIN_PYTHON:
		return "python logging";
	case LTT_DOMAIN_JUL:
		return "jul logging";
	case LTT_DOMAIN_LOG4J:
		return "log4j logging";
	default:
		return "user tracepoint";
	}
}

/* LTTng's misuse of a probe rule: "Error: " and its sentence (its tests compare them). */
static int probe_misuse(const struct ltt_trigger_condition *c, const char *before,
			const char *after)
{
	ctl_out_error(LTT_ERR_USAGE, "%s %s %s", before,
		      c->rule.type == LTT_EVENT_KPROBE ? "kernel kprobe" : "kernel uprobe", after);
	return CTL_EXIT_FAILURE;
}

/*
 * A probe rule (--type=kernel:kprobe, kernel:uprobe): --location, its
 * event named by --event-name (the location if not given); no pattern,
 * exclusion, filter nor log level, refused in LTTng's order and words.
 */
static int build_probe_rule(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
			    struct ltt_trigger_condition *c)
{
	const struct ctl_trigger_part *p = &l->condition;
	const char *event = p->val[O_EVENT_NAME];
	static char location[LTT_LOCATION_MAX];	/* the command's one rule: until it is sent */
	char why[256];
	int err;

	if (p->val[O_NAME])
		return probe_misuse(c, "Can't use --name with", "event rules.");
	if (l->exclusions[0])
		return probe_misuse(c, "Can't use --exclude-name/-x with", "event rules.");
	if (!p->val[O_LOCATION])
		return probe_misuse(c, "Event rule of type", "requires a --location.");
	if (p->val[O_FILTER])
		return probe_misuse(c, "Filter expressions are not supported for", "event rules.");
	if (p->val[O_LOGLEVEL])
		return probe_misuse(c, "Log levels are not supported for", "event rules.");
	if (!event) {	/* named by its location, as LTTng names it (names.h's characters) */
		ltt_probe_event_name(p->val[O_LOCATION], c->rule.pattern, sizeof(c->rule.pattern));
		event = c->rule.pattern;
	}
	if (strlen(event) >= sizeof(c->rule.pattern) || !ltt_event_pattern_valid(event) ||
	    ltt_event_pattern_is_glob(event)) {
		ctl_out_error(LTT_ERR_EVENT_NAME, "--event-name '%s': %s", event,
			      ltt_strerror(LTT_ERR_PROBE_LOCATION));
		return CTL_EXIT_FAILURE;
	}
	memmove(c->rule.pattern, event, strlen(event) + 1);
	if (c->rule.type == LTT_EVENT_UPROBE) {	/* its path made absolute, as enable-event's */
		err = ctl_util_uprobe_location(ctx, "--location", p->val[O_LOCATION], location,
					       sizeof(location));
		if (err != CTL_EXIT_OK)
			return err;
		c->rule.location = location;
		return rule_captures(l, c);
	}
	if (ctl_util_probe_loc_why(c->rule.type, p->val[O_LOCATION], why, sizeof(why))) {
		ctl_out_error(LTT_ERR_PROBE_LOCATION, "--location '%s': %s", p->val[O_LOCATION], why);
		return CTL_EXIT_FAILURE;
	}
	c->rule.location = p->val[O_LOCATION];
	return rule_captures(l, c);
}

/* event-rule-matches. */
static int build_rule(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
		      struct ltt_trigger_condition *c)
{
	const struct ctl_trigger_part *p = &l->condition;
	const char *pattern = p->val[O_NAME] ? p->val[O_NAME] : "*";
	int ret;

	ret = rule_type(ctx, p->val[O_TYPE] ? p->val[O_TYPE] : "user", c);
	if (ret != CTL_GO_ON)
		return ret;
	if (ltt_event_type_is_probe(c->rule.type))
		return build_probe_rule(ctx, l, c);
	if (p->val[O_LOCATION] || p->val[O_EVENT_NAME]) {	/* given before --type, or with none */
		ctl_out_error(LTT_ERR_USAGE, "Can't use --%s with %s event rules.",
			      p->val[O_LOCATION] ? "location" : "event-name", lttng_rule_words(c));
		return CTL_EXIT_USAGE;
	}
	if (!ltt_event_pattern_valid(pattern))
		return ctl_util_object_error(LTT_ERR_EVENT_NAME, "event name pattern", pattern);
	strcpy(c->rule.pattern, pattern);
	ret = rule_exclusions(ctx, l, c);
	if (ret == CTL_GO_ON && p->val[O_LOGLEVEL])
		ret = rule_loglevel(p->val[O_LOGLEVEL], c);
	if (ret == CTL_GO_ON && p->val[O_FILTER]) {
		if (ctl_util_check_filter(p->val[O_FILTER]))
			return CTL_EXIT_FAILURE;
		c->rule.filter = p->val[O_FILTER];
	}
	return ret == CTL_GO_ON ? rule_captures(l, c) : ret;
}

static int build_condition(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
			   struct ltt_trigger_condition *c)
{
	const struct ctl_trigger_part *p = &l->condition;
	int ret;

	c->type = (enum ltt_condition_type)p->type;
	switch (c->type) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		return build_rule(ctx, l, c);
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		return build_buffer(ctx, p, c);
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ret = take_session(ctx, p, c->session);
		if (ret == CTL_GO_ON && !p->val[O_SIZE])
			ret = ctl_util_usage_error(ctx, "condition %s needs the size: "
						   "--threshold-size=SIZE",
						   ltt_condition_type_name(c->type));
		return ret == CTL_GO_ON ? take_size(p, &c->threshold_size) : ret;
	default:
		return take_session(ctx, p, c->session);
	}
}

/*
 * --rate-policy: every:N or once-after:N, N at least 1; a bad one is said
 * in LTTng's words (its add-trigger tests compare them).
 */
static int action_rate(const struct ctl_trigger_part *p, struct ltt_trigger_action *a)
{
	const char *text = p->val[O_RATE], *colon = text ? strchr(text, ':') : NULL;
	uint64_t n = 0;

	if (!text)
		return CTL_GO_ON;
	if (!colon) {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "Rate policy format is invalid.");
		return CTL_EXIT_FAILURE;
	}
	if (colon - text == 5 && !strncmp(text, "every", 5)) {
		a->rate_policy = LTT_RATE_EVERY;
	} else if (colon - text == 10 && !strncmp(text, "once-after", 10)) {
		a->rate_policy = LTT_RATE_ONCE_AFTER;
	} else {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "Rate policy type `%.*s` unknown.",
			      (int)(colon - text), text);
		return CTL_EXIT_FAILURE;
	}
	if (ctl_util_parse_u64(colon + 1, UINT64_MAX, &n)) {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "Failed to parse rate policy value `%s` as "
			      "an integer.", colon + 1);
		return CTL_EXIT_FAILURE;
	}
	if (!n) {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "Rate policy value `%s` must be > 0.",
			      colon + 1);
		return CTL_EXIT_FAILURE;
	}
	a->rate_count = n;
	return CTL_GO_ON;
}

/*
 * snapshot-session's -C/--ctrl-url and -D/--data-url: their net URL into
 * @buf, or none (@buf empty).  LTTng's words for a misuse.
 */
static int action_url_pair(const struct ctl_trigger_part *p, char *buf, size_t len)
{
	const char *ctrl = p->val[O_CTRL_URL], *data = p->val[O_DATA_URL];

	buf[0] = '\0';
	if (!ctrl && !data)
		return CTL_GO_ON;
	if (!data || !ctrl) {
		ctl_out_error(LTT_ERR_URL_PAIR, "--%s is specified, but --%s is missing.",
			      ctrl ? "ctrl-url" : "data-url", ctrl ? "data-url" : "ctrl-url");
		return CTL_EXIT_FAILURE;
	}
	if (p->val[O_PATH] || p->val[O_URL]) {
		ctl_out_error(LTT_ERR_URL_PAIR, "The --ctrl-url/--data-url, --url, and --path "
			      "options can't be used together.");
		return CTL_EXIT_FAILURE;
	}
	return ctl_util_url_pair(ctrl, data, buf, len) ? CTL_EXIT_FAILURE : CTL_GO_ON;
}

/* snapshot-session's -n, -m, --path, --url, -C/-D: the output of its snapshots. */
static int action_output(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
			 struct ltt_trigger_action *a)
{
	const char *name = p->val[O_NAME], *size = p->val[O_MAX_SIZE], *url = p->val[O_URL];
	char what[64], net[sizeof(a->output.output)];

	if (action_url_pair(p, net, sizeof(net)) != CTL_GO_ON)
		return CTL_EXIT_FAILURE;
	if (net[0])
		url = net;
	if (!name && !size && !p->val[O_PATH] && !url)
		return CTL_GO_ON;
	if (p->val[O_PATH] && url)
		return ctl_util_usage_error(ctx, "%s: give --path or --url, not both",
					    ctl_trigger_part_name(p, what, sizeof(what)));
	if (url && url == p->val[O_URL] && !strstr(url, "://")) {
		ctl_out_error(LTT_ERR_URL, "Failed to parse '%s' as an URL.", url);
		return CTL_EXIT_FAILURE;
	}
	if (p->val[O_PATH] && strstr(p->val[O_PATH], "://")) {
		ctl_out_error(LTT_ERR_OUTPUT_PATH, "Failed to parse '%s' as a local path.",
			      p->val[O_PATH]);
		return CTL_EXIT_FAILURE;
	}
	if (name && !ltt_snapshot_output_name_valid(name))
		return ctl_util_object_error(LTT_ERR_SNAPSHOT_OUTPUT_NAME, "snapshot name", name);
	if (size && (ltt_size_parse(size, &a->output.max_size) || !a->output.max_size))
		return ctl_util_usage_error(ctx, "invalid maximum size '%s': give a number of "
					    "bytes above 0, with an optional k, M or G suffix", size);
	/* LTTng's words: -n and -m name no output of their own */
	if (!p->val[O_PATH] && !url) {
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "Can't provide a snapshot output %s without "
			      "a snapshot output destination.", name ? "name" : "max size");
		return CTL_EXIT_FAILURE;
	}
	if (name)
		strcpy(a->output.name, name);
	a->has_output = true;
	a->output_flags = net[0] ? LTT_TRIGGER_OUTPUT_PAIR : 0;	/* listed as the two */
	return ctl_util_snapshot_where(p->val[O_PATH], url, &a->output) ?
	       CTL_EXIT_FAILURE : CTL_GO_ON;
}

/* incr-map-value's session, map channel and key template. */
static int action_map(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
		      struct ltt_trigger_action *a)
{
	const char *session = p->val[O_SESSION] ? p->val[O_SESSION] : p->arg;
	const char *map = p->val[O_MAP] ? p->val[O_MAP] : p->val[O_CHANNEL];
	const char *key = p->val[O_KEY];
	char what[64];

	ctl_trigger_part_name(p, what, sizeof(what));
	if (p->val[O_SESSION] && p->arg)
		return ctl_util_usage_error(ctx, "%s: give its session once (-s SESSION or "
					    "SESSION)", what);
	if (p->val[O_MAP] && p->val[O_CHANNEL])
		return ctl_util_usage_error(ctx, "%s: give its map channel once (--map or -c)",
					    what);
	if (!session || !map || !key)
		return ctl_util_usage_error(ctx, "%s needs its session, map channel and key: "
					    "-s SESSION --map CHANNEL --key TEMPLATE", what);
	if (ctl_util_check_session_name(session))
		return CTL_EXIT_FAILURE;
	if (!ltt_channel_name_valid(map))
		return ctl_util_usage_error(ctx, "%s: invalid map channel name '%s': %s", what, map,
					    ltt_strerror(LTT_ERR_CHANNEL_NAME));
	if (!ltt_map_key_valid(key))
		return ctl_util_object_error(LTT_ERR_MAP_KEY, "key", key);
	snprintf(a->session, sizeof(a->session), "%s", session);
	snprintf(a->map.channel, sizeof(a->map.channel), "%s", map);
	snprintf(a->map.key, sizeof(a->map.key), "%s", key);
	return CTL_GO_ON;
}

static int build_action(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
			struct ltt_trigger_action *a)
{
	int ret;

	a->type = (enum ltt_action_type)p->type;
	ret = action_rate(p, a);
	if (ret != CTL_GO_ON || a->type == LTT_ACTION_NOTIFY)
		return ret;
	if (a->type == LTT_ACTION_INCR_MAP_VALUE)
		return action_map(ctx, p, a);
	if (!p->arg) {	/* LTTng's words */
		ctl_out_error(LTT_ERR_USAGE, "Missing session name.");
		return CTL_EXIT_USAGE;
	}
	if (ctl_util_check_session_name(p->arg))
		return CTL_EXIT_FAILURE;
	strcpy(a->session, p->arg);
	return action_output(ctx, p, a);
}

/*
 * incr-map-value's --type=user|kernel (LTTng 2.16's): the domain of its
 * map channel.  ltt's map is the one of the condition rule's domain:
 * the type, when given, says the same.
 */
static int action_map_type(const struct ctl_ctx *ctx, const struct ctl_trigger_part *p,
			   const struct ltt_trigger_condition *c)
{
	const char *type = p->val[O_TYPE];
	enum ltt_domain domain;
	char what[64];

	if (!type)
		return CTL_GO_ON;
	ctl_trigger_part_name(p, what, sizeof(what));
	if (!strcmp(type, "user"))
		domain = LTT_DOMAIN_USER;
	else if (!strcmp(type, "kernel"))
		domain = LTT_DOMAIN_KERNEL;
	else
		return ctl_util_usage_error(ctx, "%s: invalid --type '%s': give user or kernel "
					    "(the map channel's)", what, type);
	if (c->type == LTT_CONDITION_EVENT_RULE_MATCHES && c->domain != domain)
		return ctl_util_usage_error(ctx, "%s --type=%s: the condition's rule is %s's; a "
					    "map counts the events of rules of its own type: give "
					    "--type=%s", what, type,
					    c->domain == LTT_DOMAIN_KERNEL ? "the kernel" : "user space",
					    c->domain == LTT_DOMAIN_KERNEL ? "kernel" : "user");
	return CTL_GO_ON;
}

int ctl_trigger_build(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
		      struct ltt_trigger_attr *attr)
{
	size_t i;
	int ret;

	ret = build_trigger(ctx, &l->trigger, attr);
	if (ret == CTL_GO_ON)
		ret = build_condition(ctx, l, &attr->condition);
	for (i = 0; i < l->nr_actions && ret == CTL_GO_ON; i++) {
		ret = build_action(ctx, &l->actions[i], &attr->actions[i]);
		if (ret == CTL_GO_ON && attr->actions[i].type == LTT_ACTION_INCR_MAP_VALUE)
			ret = action_map_type(ctx, &l->actions[i], &attr->condition);
	}
	attr->nr_actions = (uint32_t)l->nr_actions;
	return ret;
}
