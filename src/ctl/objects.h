/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * objects.h - the result objects several commands report in LTTng's
 * machine interface (out.h, doc/mi.md): objects.c's, and obj-trigger.c's
 * trigger.  Included through ctl.h.
 */
#ifndef LTT_CTL_OBJECTS_H
#define LTT_CTL_OBJECTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

struct ctl_ctx;

/*
 * objects.c: result objects several commands report, in LTTng's machine
 * interface (out.h, doc/mi.md)
 */

/**
 * ctl_obj_session_open() - open a <session> with the facts of @s (name,
 * path, enabled, snapshot_mode, live_timer_interval, and trace_format
 * CTF_2 for a CTF 2 session); the caller may add children, then closes
 * it with ctl_out_close()
 */
void ctl_obj_session_open(const struct ltt_session_info *s);

/**
 * ctl_obj_sessions_schema() - before a document's first output: declare
 * LTTng 2.15's MI schema 4.2 when one of the @count sessions of @s is
 * CTF 2 (4.1 has no trace_format; CTF 1.8 goes without saying)
 */
void ctl_obj_sessions_schema(const struct ltt_session_info *s, size_t count);

/**
 * ctl_obj_session_name() - a <session> holding only its name
 */
void ctl_obj_session_name(const char *name);

/**
 * ctl_obj_session_state() - a <session> holding its name and whether it
 * traces now (<enabled>), what LTTng's start and stop write
 */
void ctl_obj_session_state(const char *name, bool enabled);

/**
 * ctl_obj_domain_open() - open a <domain>: LTTng's type of @domain
 * (common/model/lttng-words.h) and its @buffers (DEFAULT: the domain's default);
 * the caller adds channels, events or trackers, then ctl_out_close()
 */
void ctl_obj_domain_open(enum ltt_domain domain, enum ltt_buffer_type buffers);

/**
 * ctl_obj_channel_open() - open a <channel>: its name, @enabled, and its
 * <attributes> (@a in @domain of session @s, with its counters; the live
 * timer the session's, the monitor timer the daemon's sampling period,
 * the blocking timeout @a's, -1 for inf); the caller may add <events> or
 * <success>, then ctl_out_close()
 */
void ctl_obj_channel_open(const struct ltt_session_info *s, enum ltt_domain domain,
			  const struct ltt_channel_attr *a, bool enabled, uint64_t discarded_events,
			  uint64_t lost_packets);

/**
 * ctl_obj_rule_open() - open an <event>: the rule @a of @domain (name,
 * type, log level, filter, exclusions) and @enabled; the caller may add
 * <success>, then ctl_out_close()
 */
void ctl_obj_rule_open(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled);

/**
 * ctl_obj_rule() - ctl_obj_rule_open() and ctl_out_close()
 */
void ctl_obj_rule(enum ltt_domain domain, const struct ltt_event_rule_attr *a, bool enabled);

/**
 * ctl_obj_name_list() - an @element holding an @item per name of the
 * comma-separated @list ("a,b": <exclusions><exclusion>a</exclusion>...)
 */
void ctl_obj_name_list(const char *element, const char *item, const char *list);

/**
 * ctl_obj_tracker() - a <TYPE_process_attr_tracker>: the process tracker
 * @type, its @policy (ALL: a value <all>; NONE: no value) and, for a set,
 * its @nr @ids
 */
void ctl_obj_tracker(enum ltt_tracker_type type, enum ltt_tracker_policy policy,
		     const uint32_t *ids, size_t nr);

/**
 * ctl_obj_tracker_edit() - what track or untrack did to one tracker, as
 * LTTng's MI gives it: a <TYPE_process_attr_tracker> whose values are
 * those given (@values[0..@nr): an <id>, or a user's or group's <name>;
 * NULL: --all, <all>true</all>), each with its <success>
 */
void ctl_obj_tracker_edit(enum ltt_tracker_type type, char *const *values, size_t nr,
			  bool success);

/**
 * ctl_obj_snapshot_output() - a <snapshot>: the snapshot output @o (its
 * directory or relay URL as ctrl_url) of @session (NULL: not said)
 */
void ctl_obj_snapshot_output(const struct ltt_snapshot_output *o, const char *session);

/**
 * ctl_obj_rotation_schedule() - the <periodic> (@timer_us) and
 * <size_threshold> (@size) schedules of a rotation, those not 0
 */
void ctl_obj_rotation_schedule(uint64_t timer_us, uint64_t size);

/**
 * ctl_obj_config() - a <save> or (@load) <load> of the @n session
 * configuration files @files: the session (its name; with several, the
 * one @asked or "*"), the file (with several, their directory) and, for
 * load, the <overrides> (@override_name, @override_url: NULL or given)
 */
void ctl_obj_config(bool load, const struct ltt_session_file *files, size_t n, const char *asked,
		    const char *override_name, const char *override_url);

/**
 * ctl_obj_context() - a <context>: the context @name ("vpid", "perf:cpu:
 * cycles", "$app.P:C") as LTTng's MI types it; nothing for a context its
 * MI has no type for
 */
void ctl_obj_context(const char *name);

/*
 * The LTTng release whose interfaces ltt serves (its client protocol, MI
 * 4.1, saved sessions): the version lttctl says it is when run by the
 * name lttng, so that what reads `lttng --version` or `lttng --mi xml
 * version` to know what it may ask finds LTTng 2.13's.
 */
#define CTL_LTTNG_VERSION "2.13.9"

/**
 * ctl_obj_version() - a <version>: lttctl's @version ("0.9.1") as LTTng's
 * MI describes a version; with @as_lttng (lttctl run as lttng),
 * CTL_LTTNG_VERSION's numbers, ltt's version as its name (where LTTng's
 * has its release's name)
 */
void ctl_obj_version(const char *version, bool as_lttng);

/**
 * ctl_obj_version_text() - the first line of `lttctl --version` (@option)
 * or `lttctl version`: "lttctl VERSION"; run as lttng (@ctx->lttng_name),
 * LTTng's: "ARGV0 (LTTng Trace Control) 2.13.9 - ltt VERSION" and
 * "lttng version 2.13.9 - ltt VERSION"
 */
void ctl_obj_version_text(const struct ctl_ctx *ctx, const char *version, bool option);

/* obj-trigger.c: a trigger in LTTng's machine interface (doc/mi.md) */

/* ctl_obj_trigger()'s @flags */
#define CTL_OBJ_TRIGGER_COUNTERS 1u	/* list-triggers: the counters, as LTTng's */
#define CTL_OBJ_TRIGGER_AS_LTTNG 2u	/* run as lttng: no counter of ltt's own at 0 */

/**
 * ctl_obj_trigger() - a <trigger>: @t's name, owner (the caller when
 * @t's owner_uid is -1), condition, actions (an <action_list>) and, with
 * CTL_OBJ_TRIGGER_COUNTERS in @flags (list-triggers, as LTTng's), the
 * counters LTTng's schema has a place for (failures, notifications
 * dropped)
 */
void ctl_obj_trigger(const struct ltt_trigger_info *t, unsigned int flags);

/**
 * ctl_obj_ratio() - @ratio written in @buf (@len bytes) with @digits
 * after the point, as LTTng's list-triggers prints a buffer usage
 * threshold (text 2, MI 6); returns @buf
 */
const char *ctl_obj_ratio(char *buf, size_t len, int digits, double ratio);

#endif /* LTT_CTL_OBJECTS_H */
