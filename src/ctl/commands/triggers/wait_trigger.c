// SPDX-License-Identifier: LGPL-2.1-only
/*
 * wait_trigger.c - lttctl wait-trigger: print the notifications of one
 * of the caller's triggers as they come, until there were N of them, a
 * timeout, or the trigger's removal (ltt's own: LTTng has no such
 * command).  Each notification is one line, flushed at once, so a script
 * can read them live; with --mi xml, one <notification> each in the
 * document written at the end.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/model/trigger.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

enum {
	VAL_TIMEOUT,
	VAL_COUNT,
	NR_VALS,
};

#define MAX_TIMEOUT_MS INT_MAX

/* The trigger waited for, and the names of its captures. */
struct waiter {
	const char *trigger;
	int timeout_ms;			/* -1: none */
	uint64_t count;			/* notifications to wait for */
	uint32_t nr_names;		/* capture names known (0: the list failed) */
	char names[LTT_TRIGGER_CAPTURES_LIMIT][LTT_CAPTURE_MAX];
	bool silent;			/* listed, and no notify action: nothing comes */
};

/* --timeout SEC: seconds with up to three decimals ("2.5"), into ms. */
static int parse_timeout(const char *text, int *ret_ms)
{
	size_t digits = strspn(text, "0123456789"), decimals = 0;
	uint64_t sec, frac = 0;
	char whole[16];

	if (!digits || digits >= sizeof(whole))
		return -1;
	memcpy(whole, text, digits);
	whole[digits] = '\0';
	if (text[digits] == '.') {
		decimals = strspn(text + digits + 1, "0123456789");
		if (!decimals || decimals > 3 || text[digits + 1 + decimals] ||
		    ctl_util_parse_u64(text + digits + 1, 999, &frac))
			return -1;
		while (decimals++ < 3)
			frac *= 10;
	} else if (text[digits]) {
		return -1;
	}
	if (ctl_util_parse_u64(whole, MAX_TIMEOUT_MS / 1000 - 1, &sec))
		return -1;
	*ret_ms = (int)(sec * 1000 + frac);
	return 0;
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/*
 * The names of the trigger's captures, for the lines, and whether it can
 * notify at all; neither known if it can't be listed.
 */
static void find_capture_names(const struct ctl_ctx *ctx, struct waiter *w)
{
	struct ltt_trigger_info *triggers = NULL, *t = NULL;
	struct ltt_ctl *ctl;
	size_t count = 0, i;
	uint32_t a;

	if (ltt_ctl_connect(ctx->rundir, &ctl))
		return;
	if (!ltt_ctl_list_triggers(ctl, &triggers, &count)) {
		/* root lists everyone's: its own first */
		for (i = 0; i < count; i++) {
			if (strcmp(triggers[i].attr.name, w->trigger))
				continue;
			if (!t || triggers[i].attr.owner_uid == (int64_t)geteuid())
				t = &triggers[i];
		}
	}
	if (t) {
		w->nr_names = t->attr.condition.nr_captures + t->attr.condition.nr_more_captures;
		for (a = 0; a < w->nr_names && a < LTT_TRIGGER_CAPTURES_LIMIT; a++)
			snprintf(w->names[a], sizeof(w->names[a]), "%s",
				 ctl_util_capture(&t->attr.condition, a));
		w->silent = true;
		for (a = 0; a < t->attr.nr_actions && a < LTT_TRIGGER_MAX_ACTIONS; a++)
			if (t->attr.actions[a].type == LTT_ACTION_NOTIFY)
				w->silent = false;
	}
	free(triggers);
	ltt_ctl_disconnect(ctl);
}

static bool is_enum(const struct ltt_capture_value *v)
{
	return (v->type == LTT_CAPTURE_SIGNED || v->type == LTT_CAPTURE_UNSIGNED) &&
	       (v->flags & LTT_CAPTURE_FLAG_ENUM);
}

/* @v's type in MI; an enum's as LTTng's client tells it (signed enum, unsigned enum). */
static const char *capture_type_name(const struct ltt_capture_value *v)
{
	switch (v->type) {
	case LTT_CAPTURE_SIGNED:
		return is_enum(v) ? "signed enum" : "signed";
	case LTT_CAPTURE_UNSIGNED:
		return is_enum(v) ? "unsigned enum" : "unsigned";
	case LTT_CAPTURE_FLOAT:
		return "float";
	case LTT_CAPTURE_STRING:
		return "string";
	case LTT_CAPTURE_ARRAY:
		return "array";
	default:
		return "unavailable";
	}
}

/* A number's text; a string's is its own. */
static const char *capture_number(const struct ltt_capture_value *v, char *buf, size_t len)
{
	if (v->type == LTT_CAPTURE_SIGNED)
		snprintf(buf, len, "%" PRId64, v->s);
	else if (v->type == LTT_CAPTURE_UNSIGNED)
		snprintf(buf, len, "%" PRIu64, v->u);
	else
		snprintf(buf, len, "%.17g", v->f);
	return buf;
}

/* @v's text ("hello" quoted, [1, 2] for an array) and its type and value in MI. */
static void show_value(const struct ltt_capture_value *v)
{
	char num[64];

	if (v->type == LTT_CAPTURE_STRING)
		ctl_out_text("\"%s\"", v->str ? v->str : "");
	else if (v->type == LTT_CAPTURE_UNAVAILABLE)
		ctl_out_text("unavailable");
	else if (is_enum(v))	/* marked as LTTng's client marks it */
		ctl_out_text("[%s enum] %s", v->type == LTT_CAPTURE_SIGNED ? "Signed" : "Unsigned",
			     capture_number(v, num, sizeof(num)));
	else if (v->type != LTT_CAPTURE_ARRAY)
		ctl_out_text("%s", capture_number(v, num, sizeof(num)));
	ctl_out_str("type", capture_type_name(v));
	if (v->type == LTT_CAPTURE_STRING) {
		ctl_out_str("value", v->str ? v->str : "");
	} else if (v->type == LTT_CAPTURE_ARRAY) {
		ctl_out_text("[");
		ctl_out_open("elements");
		for (uint32_t j = 0; j < v->nr_elements; j++) {
			ctl_out_text("%s", j ? ", " : "");
			ctl_out_open("element");
			show_value(&v->elements[j]);
			ctl_out_close();
		}
		ctl_out_close();
		ctl_out_text("]");
	} else if (v->type != LTT_CAPTURE_UNAVAILABLE) {
		ctl_out_str("value", capture_number(v, num, sizeof(num)));
	}
}

/* "; captures: n=5000, msg=\"hello\", a=[1, 2]" and the <captures>. */
static void show_captures(const struct waiter *w, const struct ltt_notification *n)
{
	char name[32];
	uint32_t i;

	ctl_out_open("captures");
	for (i = 0; i < n->nr_captures + n->nr_more_captures; i++) {
		const struct ltt_capture_value *v = ctl_util_capture_value(n, i);
		const char *expr = i < w->nr_names ? w->names[i] : NULL;

		snprintf(name, sizeof(name), "capture%u", i);
		ctl_out_text("%s%s=", i ? ", " : "; captures: ", expr ? expr : name);
		ctl_out_open("capture");
		ctl_out_str("expression", expr);
		show_value(v);
		ctl_out_close();
	}
	ctl_out_close();
}

/* What held: the event and its program, or the session's value or path. */
static void show_what(const struct ltt_notification *n)
{
	switch (n->condition) {
	case LTT_CONDITION_EVENT_RULE_MATCHES:
		ctl_out_text("event %s, pid %" PRId64, n->event, n->pid);
		ctl_out_str("event", n->event);
		ctl_out_i64("pid", n->pid);
		return;
	case LTT_CONDITION_SESSION_CONSUMED_SIZE_GE:
		ctl_out_text("session %s, %" PRIu64 " bytes consumed", n->session, n->value);
		ctl_out_u64("value", n->value);
		break;
	case LTT_CONDITION_BUFFER_USAGE_GE:
	case LTT_CONDITION_BUFFER_USAGE_LE:
		ctl_out_text("session %s, %" PRIu64 " bytes in the channel's fullest buffer",
			     n->session, n->value);
		ctl_out_u64("value", n->value);
		break;
	case LTT_CONDITION_SESSION_ROTATION_STARTS:
		ctl_out_text("session %s, rotation started", n->session);
		break;
	default:
		ctl_out_text("session %s, archive %s", n->session, n->path);
		break;
	}
	ctl_out_str("session", n->session);
	if (n->path[0])
		ctl_out_str("path", n->path);
	if (n->path[0] && n->condition == LTT_CONDITION_SESSION_ROTATION_STARTS)
		ctl_out_text(", chunk %s", n->path);
}

static void show_notification(const struct waiter *w, const struct ltt_notification *n)
{
	const char *cond = ltt_condition_type_name(n->condition);

	ctl_out_text("Trigger %s fired (#%" PRIu64 "): ", n->trigger, n->seq);
	ctl_out_open("notification");
	ctl_out_str("trigger", n->trigger);
	ctl_out_u64("seq", n->seq);
	ctl_out_i64("timeNs", n->time_ns);
	ctl_out_str("condition", cond ? cond : "unknown");
	ctl_out_u64("dropped", n->dropped);
	show_what(n);
	if (n->nr_captures + n->nr_more_captures)
		show_captures(w, n);
	if (n->dropped)
		ctl_out_text(" (%" PRIu64 " notification%s dropped before this one)", n->dropped,
			     n->dropped == 1 ? "" : "s");
	ctl_out_text("\n");
	ctl_out_close();
	/* a script reads them as they come */
	if (ctl_out_format() == CTL_OUT_TEXT)
		fflush(stdout);
}

/* Why the wait ended early: the error @ret after @got notifications. */
static int wait_error(const struct ctl_ctx *ctx, const struct waiter *w, int ret, uint64_t got)
{
	char buf[LTT_PATH_MAX];

	if (ret == -LTT_ERR_NOTIFICATION_TIMEOUT)
		ctl_out_error(ret, "trigger '%s': %s (%" PRIu64 " of %" PRIu64 " within %d.%03d s)",
			      w->trigger, ltt_strerror(ret), got, w->count, w->timeout_ms / 1000,
			      w->timeout_ms % 1000);
	else if (ret == -LTT_ERR_TRIGGER_NOT_FOUND)
		ctl_out_error(ret, "trigger '%s' was removed: no more notifications will come",
			      w->trigger);
	else if (ret == -LTT_ERR_SESSIOND_IO)
		ctl_out_error(ret, "session daemon (run directory %s): %s",
			      ctl_util_rundir(ctx, buf, sizeof(buf)), ltt_strerror(ret));
	else
		ctl_util_trigger_error(w->trigger, ret);
	return CTL_EXIT_FAILURE;
}

/* Read and print until @w->count came, the timeout, or an end. */
static int wait_for(const struct ctl_ctx *ctx, const struct waiter *w,
		    struct ltt_notification_channel *ch)
{
	int64_t deadline = w->timeout_ms >= 0 ? now_ms() + w->timeout_ms : 0, left;
	struct ltt_notification *n;
	uint64_t got;
	int ret;

	for (got = 0; got < w->count; got++) {
		left = w->timeout_ms >= 0 ? deadline - now_ms() : -1;
		ret = ltt_notification_channel_read(ch, left < 0 && w->timeout_ms >= 0 ? 0 :
						    (int)left, &n);
		if (ret)
			return wait_error(ctx, w, ret, got);
		show_notification(w, n);
		free(n);
	}
	return CTL_EXIT_OK;
}

static int subscribe_and_wait(const struct ctl_ctx *ctx, struct waiter *w)
{
	struct ltt_notification_channel *ch = NULL;
	char buf[LTT_PATH_MAX];
	int ret;

	ret = ltt_ctl_subscribe(ctx->rundir, w->trigger, &ch);
	if (ret == -LTT_ERR_TRIGGER_NOT_FOUND || ret == -LTT_ERR_TRIGGER_NAME ||
	    ret == -LTT_ERR_NOT_SUPPORTED) {
		ctl_util_trigger_error(w->trigger, ret);
		return CTL_EXIT_FAILURE;
	}
	if (ret) {
		ctl_out_error(ret, "session daemon (run directory %s): %s",
			      ctl_util_rundir(ctx, buf, sizeof(buf)), ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	/* subscribed first: nothing is missed while the names are looked up */
	find_capture_names(ctx, w);
	if (w->silent) {
		ltt_notification_channel_close(ch);
		ctl_out_error(LTT_ERR_TRIGGER_ACTION, "trigger %s has no notify action: no "
			      "notification would ever come (add the trigger again with "
			      "--action=notify)", w->trigger);
		return CTL_EXIT_FAILURE;
	}
	/*
	 * On stderr, not in the notifications' stream (nor the document):
	 * a script that fires the trigger itself waits for this line.
	 */
	if (!ctx->quiet)
		ctl_util_eout("Waiting for trigger %s...\n", w->trigger);
	ret = wait_for(ctx, w, ch);
	ltt_notification_channel_close(ch);
	return ret;
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **values = arg;
	struct waiter *w;
	const char **args;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	if (!nr)
		return ctl_util_usage_error(ctx, "the trigger's name is needed "
					    "('lttctl list-triggers' shows yours)");
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (ret)
		return ret;
	if (!ltt_trigger_name_valid(args[0])) {
		ctl_util_trigger_error(args[0], -LTT_ERR_TRIGGER_NAME);
		return CTL_EXIT_FAILURE;
	}
	w = calloc(1, sizeof(*w));
	if (!w) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	w->trigger = args[0];
	w->timeout_ms = -1;
	w->count = 1;
	if (values[VAL_TIMEOUT] && parse_timeout(values[VAL_TIMEOUT], &w->timeout_ms))
		ret = ctl_util_usage_error(ctx, "invalid timeout '%s': give seconds, with up to "
					   "three decimals (2.5), below %d", values[VAL_TIMEOUT],
					   MAX_TIMEOUT_MS / 1000);
	else if (values[VAL_COUNT] &&
		 (ctl_util_parse_u64(values[VAL_COUNT], UINT64_MAX, &w->count) || !w->count))
		ret = ctl_util_usage_error(ctx, "invalid count '%s': give a number of "
					   "notifications, at least 1", values[VAL_COUNT]);
	else
		ret = subscribe_and_wait(ctx, w);
	free(w);
	return ret;
}

int cmd_wait_trigger(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALS] = { NULL };
	struct poptOption options[] = {
		{ "timeout", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TIMEOUT,
		  "give up after SEC seconds (up to three decimals; default: wait as long as "
		  "it takes)", "SEC" },
		{ "count", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_COUNT,
		  "end after N notifications (default 1)", "N" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALS, run, values);
}
