/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trigger-build.h - add-trigger's line cut into parts (by
 * commands/triggers/add_trigger.c's scan()), and the trigger made of them
 * (trigger-build.c).
 */
#ifndef LTT_CTL_TRIGGER_BUILD_H
#define LTT_CTL_TRIGGER_BUILD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#include "common/model/trigger.h"
#include "ctl/ctl.h"

/* The options, as the values of their poptOption (the help's table). */
enum opt {
	O_NAME = 1,
	O_OWNER_UID,
	O_CONDITION,
	O_ACTION,
	O_TYPE,
	O_EXCLUDE,
	O_LOGLEVEL,
	O_FILTER,
	O_CAPTURE,
	O_SESSION,
	O_CHANNEL,
	O_DOMAIN,
	O_USERSPACE,
	O_KERNEL,
	O_RATIO,
	O_SIZE,
	O_MAX_SIZE,
	O_PATH,
	O_URL,
	O_CTRL_URL,
	O_DATA_URL,
	O_RATE,
	O_LOCATION,
	O_EVENT_NAME,
	O_MAP,
	O_KEY,
	O_HELP,
	NR_OPTS,
};

#define B(o) (1u << (o))

enum part_kind { PART_TRIGGER, PART_CONDITION, PART_ACTION };

/* One part of the line: the trigger's options, the condition's, an action's. */
struct ctl_trigger_part {
	enum part_kind kind;
	uint32_t type;			/* the condition's or action's type */
	size_t nr;			/* an action's number, from 1 */
	unsigned int given;		/* B(opt) of each option given */
	const char *val[NR_OPTS];	/* each option's value ("" for a flag) */
	const char *arg;		/* an action's SESSION */
};

/* The line, cut into its parts. */
struct ctl_trigger_line {
	struct ctl_trigger_part trigger;
	struct ctl_trigger_part condition;
	bool has_condition;
	struct ctl_trigger_part actions[LTT_TRIGGER_MAX_ACTIONS];
	size_t nr_actions;
	const char *captures[LTT_TRIGGER_CAPTURES_LIMIT];	/* --capture, in order */
	size_t nr_captures;
	char exclusions[LTT_EXCLUSIONS_MAX];		/* the -x, comma-separated */
};

/**
 * ctl_trigger_part_name() - @p as messages name it ("condition
 * session-consumed-size", "action 2 (notify)", "the trigger"), in @buf
 * (@len bytes); returns @buf
 */
const char *ctl_trigger_part_name(const struct ctl_trigger_part *p, char *buf, size_t len);

/**
 * ctl_trigger_capture_check() - capture expression @text parsed: CTL_GO_ON,
 * or CTL_EXIT_FAILURE with what is wrong said (in LTTng's words where it
 * has some)
 */
int ctl_trigger_capture_check(const char *text);

/**
 * ctl_trigger_build() - the trigger of @l's parts into @attr, each value
 * checked
 *
 * Returns CTL_GO_ON, or the exit status of a refusal already printed
 * (CTL_EXIT_USAGE for a value the line can't take, CTL_EXIT_FAILURE).
 */
int ctl_trigger_build(const struct ctl_ctx *ctx, const struct ctl_trigger_line *l,
		      struct ltt_trigger_attr *attr);

#endif /* LTT_CTL_TRIGGER_BUILD_H */
