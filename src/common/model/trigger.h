/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * trigger.h - triggers as the daemons and libltt-ctl hold them: the
 * internal form of <ltt/ltt-ctl-trigger.h>'s structs, their checks and
 * names, and the captures a notification carries.  Their wire forms in
 * the client protocol are common/proto/trigger-proto.h's.
 */
#ifndef LTT_COMMON_TRIGGER_H
#define LTT_COMMON_TRIGGER_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/ltt-ctl-map.h>
#include <ltt/ltt-ctl-trigger.h>

#include "common/model/model.h"

#define LTT_TRIGGER_PPM 1000000u	/* a ratio of 1 in threshold_ppm */
#define LTT_CAPTURE_STR_MAX 1024	/* bytes a captured string keeps, NUL included */

struct ltt_action_conf {
	uint32_t type;			/* enum ltt_action_type */
	uint32_t rate_policy;		/* enum ltt_rate_policy */
	uint64_t rate_count;		/* >= 1 */
	char session[LTT_NAME_MAX];	/* "" for NOTIFY */
	bool has_output;		/* SNAPSHOT_SESSION: @output overrides the session's */
	struct ltt_snapshot_output_conf output;
	uint32_t output_flags;		/* with @output: LTT_TRIGGER_OUTPUT_* */
	char map[LTT_NAME_MAX];		/* INCR_MAP_VALUE: the map channel of @session */
	char key[LTT_MAP_KEY_MAX];	/* INCR_MAP_VALUE: the key template (common/model/map.h) */
};

/*
 * ADD_TRIGGER's flags (client protocol minor 35).  LTTNG: added as LTTng's
 * lttng adds it where ltt refuses by its own spelling: a kernel rule whose
 * filter type-checks against none of its events is added, never firing
 * (lttctl's own add-trigger is refused, FILTER_KERNEL_TYPE).
 */
#define LTT_TRIGGER_FLAG_LTTNG 0x1u
#define LTT_TRIGGER_FLAGS_KNOWN LTT_TRIGGER_FLAG_LTTNG

/*
 * A snapshot action's output_flags (client protocol minor 35).  PAIR: the
 * output, a net URL, was given as a control and a data URL (LTTng's
 * --ctrl-url, --data-url), as LTTng lists it (ltt_uri_net_pair()).
 */
#define LTT_TRIGGER_OUTPUT_PAIR 0x1u
#define LTT_TRIGGER_OUTPUTS_KNOWN LTT_TRIGGER_OUTPUT_PAIR

struct ltt_trigger_conf {
	char name[LTT_NAME_MAX];	/* "": the daemon names it (requests) */
	int64_t owner_uid;		/* -1: the caller (requests) */
	uint32_t cond;			/* enum ltt_condition_type */
	uint32_t domain;		/* enum ltt_domain: the rule's, the channel's */
	struct ltt_rule_conf rule;	/* EVENT_RULE_MATCHES */
	uint32_t nr_captures;
	char captures[LTT_TRIGGER_CAPTURES_LIMIT][LTT_CAPTURE_MAX];
	char session[LTT_NAME_MAX];	/* the session conditions */
	char channel[LTT_NAME_MAX];	/* BUFFER_USAGE_* */
	uint64_t threshold_size;	/* bytes; 0: threshold_ppm */
	uint32_t threshold_ppm;		/* BUFFER_USAGE_*: millionths of the buffers */
	uint32_t nr_actions;
	struct ltt_action_conf actions[LTT_TRIGGER_MAX_ACTIONS];
};

/* A trigger with its counters (LIST_TRIGGERS). */
struct ltt_trigger_desc {
	struct ltt_trigger_conf conf;
	uint64_t fired;
	uint64_t dropped;
	uint64_t runs[LTT_TRIGGER_MAX_ACTIONS];
	uint64_t failures[LTT_TRIGGER_MAX_ACTIONS];
	int32_t last_error[LTT_TRIGGER_MAX_ACTIONS];	/* an ltt error code, 0 */
	uint32_t pending[LTT_TRIGGER_MAX_ACTIONS];	/* runs waiting for the consumer */
	int64_t pending_since;				/* the first of them's start, 0 */
};

/*
 * One captured value; @str and @elems point into a payload or a caller's
 * buffer.  An ARRAY's elements stay in their wire form (ltt_capture_put()'s,
 * one after the other, none an ARRAY): ltt_capture_get() them from an
 * ltt_rbuf over @elems.
 */
struct ltt_capture_desc {
	uint8_t type;			/* enum ltt_capture_type */
	bool is_enum;			/* SIGNED, UNSIGNED: an enum field's (LTT_CAPTURE_FLAG_ENUM) */
	uint64_t bits;			/* SIGNED, UNSIGNED: the value; FLOAT: the double's bits */
	const char *str;		/* STRING */
	uint32_t nr_elems;		/* ARRAY: its elements */
	uint32_t elems_len;		/* ARRAY: the bytes of their wire form at @elems */
	const uint8_t *elems;
};

/* A notification; its strings point into a payload or the caller's. */
struct ltt_notif_desc {
	const char *trigger;
	uint32_t cond;
	uint64_t seq;
	int64_t time_ns;
	uint64_t dropped;
	const char *session;
	const char *event;
	int64_t pid;
	uint64_t value;
	const char *path;
	uint32_t nr_captures;
	struct ltt_capture_desc captures[LTT_TRIGGER_CAPTURES_LIMIT];
};

/* A capture expression, parsed (ltt_capture_parse()). */
enum ltt_capture_kind {
	LTT_CAPTURE_KIND_PAYLOAD = 1,	/* field (an array or sequence whole), or field[index] */
	LTT_CAPTURE_KIND_CONTEXT = 2,	/* $ctx.NAME */
	/* $ctx.NAME[INDEX] or of a context ltt lacks, $app.PROVIDER:TYPE[[INDEX]]:
	 * taken as LTTng takes them, each value unavailable */
	LTT_CAPTURE_KIND_UNAVAILABLE = 3,
};

struct ltt_capture_expr {
	enum ltt_capture_kind kind;
	char field[LTT_CAPTURE_MAX];	/* PAYLOAD: the field's name */
	int64_t index;			/* PAYLOAD: the element, -1 for the whole field */
	uint32_t ctx;			/* CONTEXT: enum ltt_filter_ctx */
};

/**
 * ltt_capture_parse() - parse one capture expression (ltt-ctl-trigger.h):
 * NAME (a C identifier), NAME[INDEX] (INDEX a decimal below 2^31) or
 * $ctx.NAME (a context filters take); LTTng's other context captures
 * ($ctx.NAME of another context or indexed, $app.PROVIDER:TYPE, with or
 * without [INDEX]) are LTT_CAPTURE_KIND_UNAVAILABLE.  Any thread.
 *
 * Returns LTT_ERR_OK or LTT_ERR_TRIGGER_CAPTURE.
 */
enum ltt_error_code ltt_capture_parse(const char *text, struct ltt_capture_expr *ret);

/** ltt_trigger_name_valid() - 1 to 255 bytes, none a control character (LTTng's names: spaces too) */
bool ltt_trigger_name_valid(const char *name);

/**
 * ltt_trigger_check() - is @c a trigger to add?  Its exclusions are put
 * in their one form (attr.h).  Checks what can be checked without a
 * daemon's state: names, condition and action types and their
 * arguments, the rule (a filter that parses, the domain's log levels),
 * the captures, thresholds, rate policies, snapshot outputs.  Whether
 * the sessions exist is the daemon's to say.  Any thread.
 *
 * Returns LTT_ERR_OK or LTT_ERR_TRIGGER_*, or the rule's or snapshot output's
 * code (LTT_ERR_FILTER, LTT_ERR_EVENT_NAME, LTT_ERR_URL, ...).
 */
enum ltt_error_code ltt_trigger_check(struct ltt_trigger_conf *c);

/** ltt_trigger_counts() - is @c's action incr-map-value (then its only one)? */
bool ltt_trigger_counts(const struct ltt_trigger_conf *c);

/*
 * A trigger's system call rule takes the entry and the exit of each call,
 * or one of them (LTTng's emission site, its numbers): its rule's location
 * says which, "" (both), "entry" or "exit".  Session rules take both.
 */
enum ltt_syscall_site {
	LTT_SYSCALL_SITE_BOTH = 0,
	LTT_SYSCALL_SITE_ENTRY = 1,
	LTT_SYSCALL_SITE_EXIT = 2,
};

/** ltt_syscall_site_parse() - @location's site, or -1 if it names none */
int ltt_syscall_site_parse(const char *location);

/** ltt_syscall_site_name() - "" (both), "entry", "exit"; NULL for another @site */
const char *ltt_syscall_site_name(int site);

/**
 * ltt_trigger_needs_session() - does condition type @cond name a session?
 */
bool ltt_trigger_needs_session(uint32_t cond);

/**
 * ltt_condition_type_parse() / ltt_action_type_parse() - the type named
 * @name as lttctl writes it ("event-rule-matches", "notify"), 0 if none
 */
uint32_t ltt_condition_type_parse(const char *name);
uint32_t ltt_action_type_parse(const char *name);

#endif /* LTT_COMMON_TRIGGER_H */
