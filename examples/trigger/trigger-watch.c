// SPDX-License-Identifier: MIT
/*
 * trigger-watch.c - add a trigger with libltt-ctl and print its
 * notifications as they come.
 *
 *   trigger-watch PATTERN [FILTER [CAPTURE...]]
 *
 * adds the trigger "watch-PID": each user-space event whose name matches
 * PATTERN (and, with FILTER, for which the filter expression is true)
 * notifies this program, with the CAPTUREd fields of the event
 * ("field", "field[2]", "$ctx.vtid", ...: up to LTT_TRIGGER_CAPTURES_LIMIT,
 * those after the structs' first LTT_TRIGGER_MAX_CAPTURES passed and read
 * through more_captures).  It prints one line per notification until
 * interrupted, then removes the trigger.
 *
 * Build it against an installed ltt:
 *   cc -o trigger-watch trigger-watch.c $(pkg-config --cflags --libs ltt-ctl)
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <ltt/ltt-ctl.h>

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void print_capture(const struct ltt_capture_value *v)
{
	switch (v->type) {
	case LTT_CAPTURE_SIGNED:
		printf("%lld", (long long)v->s);
		break;
	case LTT_CAPTURE_UNSIGNED:
		printf("%llu", (unsigned long long)v->u);
		break;
	case LTT_CAPTURE_FLOAT:
		printf("%g", v->f);
		break;
	case LTT_CAPTURE_STRING:
		printf("\"%s\"", v->str);
		break;
	case LTT_CAPTURE_ARRAY:		/* its elements, none an array */
		printf("[");
		for (uint32_t i = 0; i < v->nr_elements; i++) {
			printf("%s", i ? ", " : "");
			print_capture(&v->elements[i]);
		}
		printf("]");
		break;
	default:
		printf("(unavailable)");
	}
}

static void print_notification(const struct ltt_notification *n, char *const *captures)
{
	uint32_t i;

	printf("#%llu %s pid %lld", (unsigned long long)n->seq, n->event, (long long)n->pid);
	for (i = 0; i < n->nr_captures + n->nr_more_captures; i++) {
		printf(" %s=", captures[i]);
		print_capture(i < n->nr_captures ? &n->captures[i] :
			      &n->more_captures[i - n->nr_captures]);
	}
	if (n->dropped)
		printf(" (%llu lost before)", (unsigned long long)n->dropped);
	printf("\n");
	fflush(stdout);
}

int main(int argc, char **argv)
{
	struct ltt_notification_channel *ch = NULL;
	struct ltt_notification *n;
	struct ltt_trigger_attr attr;
	struct ltt_ctl *ctl = NULL;
	char name[LTT_NAME_MAX];
	int i, ret;

	if (argc < 2) {
		fprintf(stderr, "usage: %s PATTERN [FILTER [CAPTURE...]]\n", argv[0]);
		return 2;
	}
	ltt_ctl_trigger_attr_init(&attr);
	snprintf(attr.name, sizeof(attr.name), "watch-%ld", (long)getpid());
	attr.condition.type = LTT_CONDITION_EVENT_RULE_MATCHES;
	attr.condition.domain = LTT_DOMAIN_USER;
	ltt_ctl_event_rule_attr_init(&attr.condition.rule);
	snprintf(attr.condition.rule.pattern, sizeof(attr.condition.rule.pattern), "%s", argv[1]);
	if (argc > 2 && argv[2][0])
		attr.condition.rule.filter = argv[2];
	for (i = 3; i < argc && attr.condition.nr_captures < LTT_TRIGGER_MAX_CAPTURES; i++)
		snprintf(attr.condition.captures[attr.condition.nr_captures++], LTT_CAPTURE_MAX,
			 "%s", argv[i]);
	if (i < argc) {		/* the rest: the library copies them, refusing more than 64 */
		attr.condition.more_captures = (const char *const *)&argv[i];
		attr.condition.nr_more_captures = (uint32_t)(argc - i);
	}
	attr.nr_actions = 1;
	attr.actions[0].type = LTT_ACTION_NOTIFY;

	ret = ltt_ctl_connect(NULL, &ctl);
	if (!ret)
		ret = ltt_ctl_add_trigger(ctl, &attr, name, sizeof(name));
	if (!ret) {
		ret = ltt_ctl_subscribe(NULL, name, &ch);
		if (ret)	/* added, but nobody would hear it: take it back */
			ltt_ctl_remove_trigger(ctl, name);
	}
	if (ret) {
		fprintf(stderr, "trigger-watch: %s\n", ltt_strerror(ret));
		ltt_ctl_disconnect(ctl);
		return 1;
	}
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	printf("trigger %s added; waiting\n", name);
	fflush(stdout);
	while (!stop) {
		ret = ltt_notification_channel_read(ch, 500, &n);
		if (ret == -LTT_ERR_NOTIFICATION_TIMEOUT)
			continue;
		if (ret)
			break;
		print_notification(n, argc > 3 ? &argv[3] : NULL);
		free(n);
	}
	ltt_notification_channel_close(ch);
	ltt_ctl_remove_trigger(ctl, name);
	ltt_ctl_disconnect(ctl);
	if (ret && ret != -LTT_ERR_NOTIFICATION_TIMEOUT) {
		fprintf(stderr, "trigger-watch: %s\n", ltt_strerror(ret));
		return 1;
	}
	return 0;
}
