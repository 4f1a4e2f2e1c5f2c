// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng_notif_client.c - a client of LTTng's control library (Debian's
 * liblttng-ctl, linked as any LTTng program links it) for
 * test_lttng_compat_triggers.sh: it registers a trigger whose action is
 * notify, subscribes to its condition on LTTng's notification channel,
 * writes "ready" to READY_FILE, then prints the notification it receives:
 *
 *   lttng_notif_client event READY_FILE NAME PATTERN CAPTURE...
 *       event-rule-matches of user-space events PATTERN with a filter
 *       "i == 3" and the payload fields CAPTURE captured; prints
 *       "trigger NAME captures V1 V2 ..." (a missing one "unavailable")
 *   lttng_notif_client kernel READY_FILE NAME EVENT FILTER CAPTURE...
 *       event-rule-matches of kernel tracepoint EVENT filtered by FILTER,
 *       CAPTURE a payload field, or NAME[INDEX] one of its elements; an
 *       array's value prints as "[E1, E2, ...]"; prints as event
 *   lttng_notif_client python READY_FILE NAME LOGGER CAPTURE...
 *       event-rule-matches of the python logger LOGGER's records of
 *       level WARNING or more severe, the payload fields CAPTURE
 *       captured; prints as event
 *   lttng_notif_client jul|log4j READY_FILE NAME LOGGER CAPTURE...
 *       the same of the JUL (log4j) logger LOGGER's records, of any level
 *   lttng_notif_client rotation READY_FILE NAME SESSION
 *       session rotation completed of SESSION; prints
 *       "trigger NAME rotation ID archive PATH"
 *   lttng_notif_client usage READY_FILE NAME SESSION CHANNEL
 *       buffer usage high of user-space channel CHANNEL of SESSION, at
 *       1 byte (its first event not consumed yet); prints "trigger NAME
 *       usage BYTES of CAPACITY"
 *
 * Exits 0 once it printed one, 1 on any failure (said on stderr).
 *
 *   lttng_notif_client anon PATTERN
 *       registers an unnamed trigger (lttng_register_trigger()) of
 *       user-space events PATTERN with a notify action, registers it
 *       again, lists the triggers and unregisters the unnamed one listed;
 *       prints "register R again A unnamed U unregister X left L" (R, A,
 *       X: LTTng's error codes, 0 for OK; U, L: the unnamed triggers
 *       listed before and after)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <lttng/lttng.h>

static int fail(const char *what)
{
	fprintf(stderr, "lttng_notif_client: %s\n", what);
	return 1;
}

static void print_value(const struct lttng_event_field_value *v)
{
	const struct lttng_event_field_value *e;
	unsigned int i, n = 0;
	const char *s;
	uint64_t u;
	int64_t j;

	switch (lttng_event_field_value_get_type(v)) {
	case LTTNG_EVENT_FIELD_VALUE_TYPE_UNSIGNED_INT:
		lttng_event_field_value_unsigned_int_get_value(v, &u);
		printf(" %" PRIu64, u);
		break;
	case LTTNG_EVENT_FIELD_VALUE_TYPE_SIGNED_INT:
		lttng_event_field_value_signed_int_get_value(v, &j);
		printf(" %" PRId64, j);
		break;
	case LTTNG_EVENT_FIELD_VALUE_TYPE_STRING:
		lttng_event_field_value_string_get_value(v, &s);
		printf(" '%s'", s);
		break;
	case LTTNG_EVENT_FIELD_VALUE_TYPE_ARRAY:
		lttng_event_field_value_array_get_length(v, &n);
		printf(" [");
		for (i = 0; i < n; i++) {
			printf(i ? "," : "");
			if (lttng_event_field_value_array_get_element_at_index(v, i, &e) ==
			    LTTNG_EVENT_FIELD_VALUE_STATUS_UNAVAILABLE)
				printf(" unavailable");
			else
				print_value(e);
		}
		printf(" ]");
		break;
	default:
		printf(" type%d", (int)lttng_event_field_value_get_type(v));
		break;
	}
}

static int print_event(const struct lttng_evaluation *e)
{
	const struct lttng_event_field_value *values, *v;
	unsigned int i, n;

	if (lttng_evaluation_event_rule_matches_get_captured_values(e, &values) !=
	    LTTNG_EVALUATION_EVENT_RULE_MATCHES_STATUS_OK ||
	    lttng_event_field_value_array_get_length(values, &n) != LTTNG_EVENT_FIELD_VALUE_STATUS_OK)
		return fail("no captured values in the evaluation");
	printf(" captures");
	for (i = 0; i < n; i++) {
		if (lttng_event_field_value_array_get_element_at_index(values, i, &v) ==
		    LTTNG_EVENT_FIELD_VALUE_STATUS_UNAVAILABLE)
			printf(" unavailable");
		else
			print_value(v);
	}
	return 0;
}

static int print_usage(const struct lttng_evaluation *e)
{
	uint64_t use;
	double ratio;

	if (lttng_evaluation_buffer_usage_get_usage(e, &use) != LTTNG_EVALUATION_STATUS_OK ||
	    lttng_evaluation_buffer_usage_get_usage_ratio(e, &ratio) != LTTNG_EVALUATION_STATUS_OK)
		return fail("no usage in the evaluation");
	/* the capacity, as LTTng's evaluation has it: the use over its ratio */
	printf(" usage %" PRIu64 " of %.0f", use, ratio > 0 ? (double)use / ratio : 0.0);
	return 0;
}

static int print_rotation(const struct lttng_evaluation *e)
{
	const struct lttng_trace_archive_location *loc;
	const char *path = "?";
	uint64_t id;

	if (lttng_evaluation_session_rotation_get_id(e, &id) != LTTNG_EVALUATION_STATUS_OK ||
	    lttng_evaluation_session_rotation_completed_get_location(e, &loc) !=
	    LTTNG_EVALUATION_STATUS_OK || !loc)
		return fail("no rotation id or location in the evaluation");
	lttng_trace_archive_location_local_get_absolute_path(loc, &path);
	printf(" rotation %" PRIu64 " archive %s", id, path);
	return 0;
}

/* The unnamed triggers listed, the last into *@ret_last; -1 if the list fails. */
static int count_unnamed(struct lttng_triggers **ret_list, const struct lttng_trigger **ret_last)
{
	unsigned int i, n = 0;
	const char *name;
	int unnamed = 0;

	if (lttng_list_triggers(ret_list) != LTTNG_OK ||
	    lttng_triggers_get_count(*ret_list, &n) != LTTNG_TRIGGER_STATUS_OK)
		return -1;
	for (i = 0; i < n; i++) {
		const struct lttng_trigger *t = lttng_triggers_get_at_index(*ret_list, i);

		if (lttng_trigger_get_name(t, &name) == LTTNG_TRIGGER_STATUS_UNSET) {
			unnamed++;
			*ret_last = t;
		}
	}
	return unnamed;
}

static int anon(const char *pattern)
{
	struct lttng_event_rule *rule = lttng_event_rule_user_tracepoint_create();
	const struct lttng_trigger *listed = NULL;
	struct lttng_triggers *list = NULL;
	struct lttng_trigger *trigger;
	int reg, again, unreg = -1, before, after;

	if (!rule || lttng_event_rule_user_tracepoint_set_name_pattern(rule, pattern) !=
		     LTTNG_EVENT_RULE_STATUS_OK)
		return fail("can't make the rule");
	trigger = lttng_trigger_create(lttng_condition_event_rule_matches_create(rule),
				       lttng_action_notify_create());
	if (!trigger)
		return fail("can't make the trigger");
	reg = lttng_register_trigger(trigger);
	again = lttng_register_trigger(trigger);
	before = count_unnamed(&list, &listed);
	if (before < 0)
		return fail("can't list the triggers");
	if (listed)
		unreg = lttng_unregister_trigger(listed);
	lttng_triggers_destroy(list);
	list = NULL;
	after = count_unnamed(&list, &listed);
	if (after < 0)
		return fail("can't list the triggers again");
	lttng_triggers_destroy(list);
	printf("register %d again %d unnamed %d unregister %d left %d\n", -reg, -again, before,
	       -unreg, after);
	return 0;
}

/* Capture @text: a payload field NAME, or NAME[INDEX] (@text cut there). */
static struct lttng_event_expr *capture_of(char *text)
{
	char *open = strchr(text, '[');
	unsigned int index;

	if (!open)
		return lttng_event_expr_event_payload_field_create(text);
	index = (unsigned int)strtoul(open + 1, NULL, 10);
	*open = '\0';
	return lttng_event_expr_array_field_element_create(
		lttng_event_expr_event_payload_field_create(text), index);
}

/* The condition of the mode @argv[1]. */
static struct lttng_condition *condition_of(int argc, char **argv)
{
	struct lttng_condition *c = NULL;
	struct lttng_event_rule *rule;
	int i, first = 5;

	if (!strcmp(argv[1], "usage")) {
		c = lttng_condition_buffer_usage_high_create();
		if (argc < 6 || !c ||
		    lttng_condition_buffer_usage_set_session_name(c, argv[4]) ||
		    lttng_condition_buffer_usage_set_channel_name(c, argv[5]) ||
		    lttng_condition_buffer_usage_set_domain_type(c, LTTNG_DOMAIN_UST) ||
		    lttng_condition_buffer_usage_set_threshold(c, 1))
			return NULL;
		return c;
	}
	if (!strcmp(argv[1], "rotation")) {
		c = lttng_condition_session_rotation_completed_create();
		if (c && lttng_condition_session_rotation_set_session_name(c, argv[4]) !=
		    LTTNG_CONDITION_STATUS_OK)
			return NULL;
		return c;
	}
	if (!strcmp(argv[1], "python")) {
		/* Python's logging.WARNING */
		struct lttng_log_level_rule *level =
			lttng_log_level_rule_at_least_as_severe_as_create(30);

		rule = lttng_event_rule_python_logging_create();
		if (!rule || !level ||
		    lttng_event_rule_python_logging_set_name_pattern(rule, argv[4]) ||
		    lttng_event_rule_python_logging_set_log_level_rule(rule, level))
			return NULL;
		lttng_log_level_rule_destroy(level);
	} else if (!strcmp(argv[1], "jul")) {
		rule = lttng_event_rule_jul_logging_create();
		if (!rule || lttng_event_rule_jul_logging_set_name_pattern(rule, argv[4]))
			return NULL;
	} else if (!strcmp(argv[1], "log4j")) {
		rule = lttng_event_rule_log4j_logging_create();
		if (!rule || lttng_event_rule_log4j_logging_set_name_pattern(rule, argv[4]))
			return NULL;
	} else if (!strcmp(argv[1], "kernel")) {
		rule = lttng_event_rule_kernel_tracepoint_create();
		if (argc < 6 || !rule ||
		    lttng_event_rule_kernel_tracepoint_set_name_pattern(rule, argv[4]) ||
		    lttng_event_rule_kernel_tracepoint_set_filter(rule, argv[5]))
			return NULL;
		first = 6;
	} else {
		rule = lttng_event_rule_user_tracepoint_create();
		if (!rule || lttng_event_rule_user_tracepoint_set_name_pattern(rule, argv[4]) ||
		    lttng_event_rule_user_tracepoint_set_filter(rule, "i == 3"))
			return NULL;
	}
	c = lttng_condition_event_rule_matches_create(rule);
	for (i = first; c && i < argc; i++)
		if (lttng_condition_event_rule_matches_append_capture_descriptor(
			    c, capture_of(argv[i])) != LTTNG_CONDITION_STATUS_OK)
			return NULL;
	return c;
}

int main(int argc, char **argv)
{
	struct lttng_notification_channel *channel;
	struct lttng_notification *notification;
	const struct lttng_evaluation *e;
	struct lttng_condition *cond;
	struct lttng_trigger *trigger;
	const char *name = NULL;
	FILE *ready;
	int ret;

	if (argc == 3 && !strcmp(argv[1], "anon"))
		return anon(argv[2]);
	if (argc < 5 || (strcmp(argv[1], "event") && strcmp(argv[1], "kernel") &&
			 strcmp(argv[1], "python") &&
			 strcmp(argv[1], "jul") && strcmp(argv[1], "log4j") &&
			 strcmp(argv[1], "rotation") && strcmp(argv[1], "usage")))
		return fail("usage: lttng_notif_client event|kernel|python|jul|log4j|rotation|usage READY_FILE NAME PATTERN|LOGGER|SESSION [CAPTURE...|CHANNEL]");
	cond = condition_of(argc, argv);
	if (!cond)
		return fail("can't make the condition");
	trigger = lttng_trigger_create(cond, lttng_action_notify_create());
	if (!trigger)
		return fail("can't make the trigger");
	ret = lttng_register_trigger_with_name(trigger, argv[3]);
	if (ret != LTTNG_OK) {
		fprintf(stderr, "lttng_notif_client: register: %s\n", lttng_strerror(-ret));
		return 1;
	}
	channel = lttng_notification_channel_create(lttng_session_daemon_notification_endpoint);
	if (!channel)
		return fail("can't open the notification channel");
	if (lttng_notification_channel_subscribe(channel, cond) !=
	    LTTNG_NOTIFICATION_CHANNEL_STATUS_OK)
		return fail("can't subscribe");
	/* subscribing twice is LTTng's ALREADY_SUBSCRIBED */
	if (lttng_notification_channel_subscribe(channel, cond) !=
	    LTTNG_NOTIFICATION_CHANNEL_STATUS_ALREADY_SUBSCRIBED)
		return fail("a second subscription to the condition was not ALREADY_SUBSCRIBED");
	ready = fopen(argv[2], "w");
	if (!ready || fputs("ready\n", ready) == EOF || fclose(ready))
		return fail("can't write the ready file");
	if (lttng_notification_channel_get_next_notification(channel, &notification) !=
	    LTTNG_NOTIFICATION_CHANNEL_STATUS_OK)
		return fail("no notification");
	lttng_trigger_get_name(lttng_notification_get_trigger(notification), &name);
	printf("trigger %s", name ? name : "?");
	e = lttng_notification_get_evaluation(notification);
	switch (lttng_evaluation_get_type(e)) {
	case LTTNG_CONDITION_TYPE_SESSION_ROTATION_COMPLETED:
		ret = print_rotation(e);
		break;
	case LTTNG_CONDITION_TYPE_BUFFER_USAGE_HIGH:
		ret = print_usage(e);
		break;
	default:
		ret = print_event(e);
		break;
	}
	printf("\n");
	fflush(stdout);
	if (lttng_notification_channel_unsubscribe(channel, cond) !=
	    LTTNG_NOTIFICATION_CHANNEL_STATUS_OK)
		return fail("can't unsubscribe");
	lttng_notification_destroy(notification);
	lttng_notification_channel_destroy(channel);
	lttng_unregister_trigger(trigger);
	lttng_trigger_destroy(trigger);
	lttng_condition_destroy(cond);
	return ret;
}
