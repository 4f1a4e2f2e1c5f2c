/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-trigger.h - libltt-ctl, triggers and notifications (client
 * protocol minor 18; an older daemon: -LTT_ERR_NOT_SUPPORTED).
 *
 * A trigger is a condition and the actions to take each time it holds:
 * notify the programs that subscribed to it, start, stop, rotate or
 * snapshot a session.  It belongs to a user (its owner) and acts on that
 * user's sessions only; it lives in the session daemon until removed.
 * doc/triggers.md has the whole story.
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_TRIGGER_H
#define LTT_CTL_TRIGGER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>
#include <ltt/ltt-ctl-session.h>
#include <ltt/ltt-ctl-snapshot.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LTT_TRIGGER_MAX_ACTIONS 8	/* actions of one trigger */
#define LTT_TRIGGER_MAX_CAPTURES 16	/* captures in ltt_trigger_condition's and ltt_notification's arrays */
/*
 * Captures of one event-rule-matches condition in all (client protocol
 * minor 33): the arrays' LTT_TRIGGER_MAX_CAPTURES, then more_captures.  So
 * many numbers fit one notification whole, with room left for strings.
 */
#define LTT_TRIGGER_CAPTURES_LIMIT 64
#define LTT_CAPTURE_MAX 256		/* bytes of a capture expression, NUL included */

enum ltt_condition_type {
	/* An event an event rule takes was emitted (evaluated in the tracer). */
	LTT_CONDITION_EVENT_RULE_MATCHES = 1,
	/* A channel's buffers are at least / at most this full. */
	LTT_CONDITION_BUFFER_USAGE_GE = 2,
	LTT_CONDITION_BUFFER_USAGE_LE = 3,
	/* A session's consumers wrote at least this many bytes. */
	LTT_CONDITION_SESSION_CONSUMED_SIZE_GE = 4,
	/* A rotation of the session began / its archive is readable. */
	LTT_CONDITION_SESSION_ROTATION_STARTS = 5,
	LTT_CONDITION_SESSION_ROTATION_FINISHES = 6,
};

enum ltt_action_type {
	LTT_ACTION_NOTIFY = 1,
	LTT_ACTION_START_SESSION = 2,
	LTT_ACTION_STOP_SESSION = 3,
	LTT_ACTION_ROTATE_SESSION = 4,
	LTT_ACTION_SNAPSHOT_SESSION = 5,
	/* Count the event in a map channel's counter (client protocol minor 25). */
	LTT_ACTION_INCR_MAP_VALUE = 6,
};

/* When an action runs, counting the times its trigger's condition held. */
enum ltt_rate_policy {
	LTT_RATE_EVERY = 0,		/* every rate_count-th time (1: each time) */
	LTT_RATE_ONCE_AFTER = 1,	/* once, the rate_count-th time */
};

/*
 * A condition.  Which fields apply depends on @type:
 *   EVENT_RULE_MATCHES: @domain (LTT_DOMAIN_USER), @rule (its pattern,
 *     log level, exclusions and filter, as for ltt_ctl_enable_event()),
 *     @captures: what each notification carries of the event: a payload
 *     field ("size"), an element of an array or sequence field
 *     ("samples[2]"), or a context ("$ctx.vpid", "$ctx.vtid", "$ctx.pid",
 *     "$ctx.tid", "$ctx.procname", "$ctx.cpu_id", ...: the names filters
 *     take).  The captures are @captures' first @nr_captures, then
 *     @more_captures' @nr_more_captures (a daemon older than client
 *     protocol minor 33 takes none, -LTT_ERR_NOT_SUPPORTED), at most
 *     LTT_TRIGGER_CAPTURES_LIMIT in all (-LTT_ERR_TRIGGER_CAPTURES beyond).
 *     Passed in, @more_captures points to the caller's expressions (NULL
 *     when @nr_more_captures is 0); returned, @captures is filled first
 *     and @more_captures points into the returned block.
 *   BUFFER_USAGE_GE, BUFFER_USAGE_LE: @session, @channel, @domain, and
 *     @threshold_size (bytes) or, when it is 0, @threshold_ratio (0 to 1).
 *   SESSION_CONSUMED_SIZE_GE: @session, @threshold_size (bytes, > 0).
 *   SESSION_ROTATION_STARTS, SESSION_ROTATION_FINISHES: @session.
 * reserved is zero when passed in, zeroed when returned.
 */
struct ltt_trigger_condition {
	enum ltt_condition_type type;
	enum ltt_domain domain;
	struct ltt_event_rule_attr rule;
	uint32_t nr_captures;
	char captures[LTT_TRIGGER_MAX_CAPTURES][LTT_CAPTURE_MAX];
	char session[LTT_NAME_MAX];
	char channel[LTT_NAME_MAX];
	uint64_t threshold_size;
	double threshold_ratio;
	const char *const *more_captures LTT_RESERVED_ALIGN;	/* client 1.33 */
	uint32_t nr_more_captures;				/* client 1.33 */
	uint32_t pad;						/* zero */
	uint8_t reserved[48] LTT_RESERVED_ALIGN;
};

/*
 * An action.  @session: the session it acts on (not for NOTIFY), one of
 * the trigger owner's.  SNAPSHOT_SESSION: with @has_output, @output
 * overrides the session's snapshot output for these snapshots (as
 * ltt_ctl_snapshot_record()'s output).  INCR_MAP_VALUE: @map.channel,
 * a map channel of @session (ltt-ctl-map.h), and @map.key, the key
 * template each event counts under ({event_name}, {provider_name}); the
 * trigger's only action, of a user-space event-rule-matches condition,
 * always at rate 1.  @rate_count: the N of the rate policy, at least 1.
 */
struct ltt_trigger_action {
	enum ltt_action_type type;
	enum ltt_rate_policy rate_policy;
	uint64_t rate_count;
	char session[LTT_NAME_MAX];
	bool has_output;
	union {
		struct ltt_snapshot_output output;	/* SNAPSHOT_SESSION */
		struct {
			char channel[LTT_NAME_MAX];
			char key[256];			/* LTT_MAP_KEY_MAX */
		} map;					/* INCR_MAP_VALUE */
	};
	uint64_t output_flags;		/* LTT_TRIGGER_OUTPUT_*; 0 from an older library */
	uint8_t reserved[24] LTT_RESERVED_ALIGN;
};

/*
 * A snapshot action's @output_flags.  PAIR: its output was given as a
 * control URL and a data URL (-C/-D, LTTng's --ctrl-url and --data-url),
 * which @output holds as one net URL with both ports; list-triggers shows
 * the two, as LTTng lists them.  A daemon older than client protocol 1.35
 * keeps no flag.
 */
#define LTT_TRIGGER_OUTPUT_PAIR 0x1u

/*
 * A trigger.  @name: "" lets the daemon name it ("trigger0", "trigger1",
 * ...); else 1 to 255 letters, digits, '_', '-' or '.', not first '-' or
 * '.'.  @owner_uid: -1 for the caller; only root may give another user's.
 */
struct ltt_trigger_attr {
	char name[LTT_NAME_MAX];
	int64_t owner_uid;
	struct ltt_trigger_condition condition;
	uint32_t nr_actions;		/* 1 to LTT_TRIGGER_MAX_ACTIONS */
	struct ltt_trigger_action actions[LTT_TRIGGER_MAX_ACTIONS];
	uint8_t reserved[64] LTT_RESERVED_ALIGN;
};

/* A trigger as ltt_ctl_list_triggers() returns it, with its counters. */
struct ltt_trigger_info {
	struct ltt_trigger_attr attr;	/* name and owner_uid resolved */
	uint64_t fired;			/* times its condition held (as the daemon saw it) */
	/*
	 * Notifications lost: a program could not pass them on fast enough
	 * (its socket to the daemon was full), or a subscriber did not read
	 * them in time.  Every one is counted, here and in the next
	 * notification a subscriber gets.
	 */
	uint64_t dropped;
	uint64_t actions_run[LTT_TRIGGER_MAX_ACTIONS];		/* each action: times it ran */
	uint64_t actions_failed[LTT_TRIGGER_MAX_ACTIONS];	/* of those: times it failed */
	int32_t last_error[LTT_TRIGGER_MAX_ACTIONS];		/* its last failure's code, 0 */
	/*
	 * Runs of each action that wait for the owner's consumer (stopped or
	 * behind: CONSUMERD_STALLED), tried again until it answers, for up
	 * to a minute; and since when the first of them waits (seconds since
	 * the Epoch, 0: none waits).  A daemon older than protocol minor 21
	 * says none.
	 */
	uint16_t actions_pending[LTT_TRIGGER_MAX_ACTIONS];
	int64_t pending_since;
	uint8_t reserved[40] LTT_RESERVED_ALIGN;
};

/**
 * ltt_ctl_trigger_attr_init() - a trigger attribute with nothing set: no
 * name, the caller as owner, no condition, no action, every rate policy
 * "every 1"
 */
void ltt_ctl_trigger_attr_init(struct ltt_trigger_attr *attr);

/**
 * ltt_ctl_add_trigger() - add a trigger to the daemon
 * @attr: checked whole first: an unknown condition or action, a filter
 *        or capture that does not parse, a session that does not exist or
 *        is not the owner's, a threshold out of range is refused with its
 *        code and nothing is added
 * @ret_name: the trigger's name (the daemon's choice when @attr's is ""),
 *            @len bytes (LTT_NAME_MAX is enough); may be NULL
 *
 * Returns 0, -LTT_ERR_TRIGGER_EXISTS, -LTT_ERR_TRIGGER_LIMIT (the owner
 * has as many as the daemon allows), -LTT_ERR_TRIGGER_* for what is wrong
 * in @attr, or another error.
 */
int ltt_ctl_add_trigger(struct ltt_ctl *ctl, const struct ltt_trigger_attr *attr,
			char *ret_name, size_t len);

/*
 * ltt_ctl_add_trigger_flags()'s @flags.  LTTNG: add it as LTTng's lttng
 * adds it where ltt would refuse it: a kernel rule whose filter
 * type-checks against none of the rule's events is added, and never
 * fires (without the flag: -LTT_ERR_FILTER_KERNEL_TYPE).
 */
#define LTT_TRIGGER_ADD_LTTNG 0x1u

/**
 * ltt_ctl_add_trigger_flags() - ltt_ctl_add_trigger() with @flags
 * (LTT_TRIGGER_ADD_*; 0 is ltt_ctl_add_trigger())
 *
 * Returns what ltt_ctl_add_trigger() returns; -LTT_ERR_INVAL for an
 * unknown flag; -LTT_ERR_TRIGGER_LTTNG_DAEMON when the flag would change
 * what is added and the daemon predates it (client protocol 1.35).
 */
int ltt_ctl_add_trigger_flags(struct ltt_ctl *ctl, const struct ltt_trigger_attr *attr,
			      unsigned int flags, char *ret_name, size_t len);

/**
 * ltt_ctl_remove_trigger() - remove the caller's trigger @name (root:
 * anyone's): it fires no more from the moment this returns, and its
 * subscribers get -LTT_ERR_TRIGGER_NOT_FOUND
 */
int ltt_ctl_remove_trigger(struct ltt_ctl *ctl, const char *name);

/**
 * ltt_ctl_list_triggers() - the caller's triggers (root: everyone's), by name
 * @ret_triggers: one heap block (free() it); NULL when there is none
 */
int ltt_ctl_list_triggers(struct ltt_ctl *ctl, struct ltt_trigger_info **ret_triggers,
			  size_t *ret_count);

/* ---- Notifications ---- */

enum ltt_capture_type {
	LTT_CAPTURE_UNAVAILABLE = 0,	/* the event has no such field (or index) */
	LTT_CAPTURE_SIGNED = 1,
	LTT_CAPTURE_UNSIGNED = 2,
	LTT_CAPTURE_FLOAT = 3,
	LTT_CAPTURE_STRING = 4,
	/*
	 * Client 1.34: a whole array or sequence field of integers, enums or
	 * floats (a NAME capture of it), its elements in @elements, each one
	 * SIGNED, UNSIGNED or FLOAT (never an ARRAY).  A text array or
	 * sequence (1-byte UTF-8 elements) is a STRING.  An array the
	 * notification has no room for is UNAVAILABLE whole, as in LTTng.
	 */
	LTT_CAPTURE_ARRAY = 5,
};

/* SIGNED, UNSIGNED: the value of an enum field (LTTng tells enums apart) */
#define LTT_CAPTURE_FLAG_ENUM 0x1

struct ltt_capture_value {
	enum ltt_capture_type type;
	int64_t s;			/* SIGNED (enums too) */
	uint64_t u;			/* UNSIGNED */
	double f;			/* FLOAT */
	const char *str;		/* STRING: inside the notification's block; else NULL */
	/* ARRAY: its @nr_elements values, inside the notification's block; else NULL, 0 */
	const struct ltt_capture_value *elements LTT_RESERVED_ALIGN;
	uint32_t nr_elements;
	uint32_t flags;			/* client 1.34: LTT_CAPTURE_FLAG_* */
	uint8_t reserved[16] LTT_RESERVED_ALIGN;
};

/*
 * One time a trigger's condition held, as a subscriber receives it (a
 * notify action ran).
 */
struct ltt_notification {
	char trigger[LTT_NAME_MAX];
	enum ltt_condition_type condition;
	uint64_t seq;			/* the trigger's count of times it held, from 1 */
	int64_t time_ns;		/* when the daemon took it, CLOCK_REALTIME */
	/* notifications of this trigger lost before this one, for this subscriber */
	uint64_t dropped;
	char session[LTT_NAME_MAX];	/* session conditions: the session */
	/* EVENT_RULE_MATCHES: the event and the program that emitted it */
	char event[LTT_NAME_MAX];
	int64_t pid;
	/*
	 * CONSUMED_SIZE_GE: bytes written; BUFFER_USAGE_*: bytes used;
	 * ROTATION_*: the rotation's id, the number of the trace chunk it
	 * begins (0 from older daemons)
	 */
	uint64_t value;
	char path[LTT_PATH_MAX];	/* ROTATION_*: the trace chunk's archive */
	uint32_t nr_captures;		/* the condition's captures, in order: the first 16 */
	struct ltt_capture_value captures[LTT_TRIGGER_MAX_CAPTURES];
	/*
	 * Client 1.33: those after the first LTT_TRIGGER_MAX_CAPTURES (a condition
	 * takes up to LTT_TRIGGER_CAPTURES_LIMIT), in order, inside the
	 * notification's block; NULL and 0 when there are none.
	 */
	const struct ltt_capture_value *more_captures LTT_RESERVED_ALIGN;
	uint32_t nr_more_captures;
	uint32_t pad;			/* zeroed */
	uint8_t reserved[48] LTT_RESERVED_ALIGN;
};

struct ltt_notification_channel;

/**
 * ltt_ctl_subscribe() - open a notification channel: a connection of its
 * own to the daemon of @rundir (NULL: ltt_ctl_default_rundir()) that
 * receives the notifications of the caller's trigger @trigger (NULL or
 * "": every trigger of the caller's, those added later included)
 *
 * Returns 0, -LTT_ERR_TRIGGER_NOT_FOUND, or a connection error.
 */
int ltt_ctl_subscribe(const char *rundir, const char *trigger,
		      struct ltt_notification_channel **ret_channel);

/**
 * ltt_notification_channel_fd() - a descriptor that polls readable when
 * a notification (or the channel's end) is there, for poll()/epoll
 */
int ltt_notification_channel_fd(const struct ltt_notification_channel *ch);

/**
 * ltt_notification_channel_read() - the next notification
 * @timeout_ms: how long to wait; -1: as long as it takes, 0: not at all
 * @ret_notification: one heap block (free() it)
 *
 * Returns 0, -LTT_ERR_NOTIFICATION_TIMEOUT (none came in time),
 * -LTT_ERR_TRIGGER_NOT_FOUND (the subscribed trigger was removed: no
 * more will come), -LTT_ERR_SESSIOND_IO (the daemon is gone), or another
 * error.
 */
int ltt_notification_channel_read(struct ltt_notification_channel *ch, int timeout_ms,
				  struct ltt_notification **ret_notification);

/** ltt_notification_channel_close() - close it; accepts NULL */
void ltt_notification_channel_close(struct ltt_notification_channel *ch);

/** ltt_condition_type_name() - "event-rule-matches", ...; NULL if unknown */
const char *ltt_condition_type_name(enum ltt_condition_type type);

/** ltt_action_type_name() - "notify", "start-session", ...; NULL if unknown */
const char *ltt_action_type_name(enum ltt_action_type type);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_TRIGGER_H */
