/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-model.h - saved session configurations: the model a file is read
 * into (config-xml.h), checked in (config-check.h) and loaded from
 * (config.c), and what a session has beyond its detail to save it.
 * Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_MODEL_H
#define LTT_LIB_CONFIG_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "common/model/agent.h"
#include "common/model/context.h"
#include "common/model/model.h"
#include "common/model/trigger.h"

struct ltt_cfg_rule {
	struct ltt_rule_conf attr;
	bool enabled;
	long line;
};

/*
 * The domain of a channel's rules: its own, but an agent domain's for its
 * user-space channel (lttng_python_channel, lttng_jul_channel,
 * lttng_log4j_channel: common/model/agent.h), which holds that domain's rules
 * only, in files as in the daemon.
 */
#define LTT_CFG_RULE_DOMAIN(c) \
	((c)->domain == LTT_DOMAIN_USER && ltt_agent_domain_of_channel((c)->attr.name) ? \
	 ltt_agent_domain_of_channel((c)->attr.name)->domain : (c)->domain)

struct ltt_cfg_channel {
	enum ltt_domain domain;
	struct ltt_channel_conf attr;
	bool enabled;
	long line;
	size_t nr_rules;
	struct ltt_cfg_rule *rules;
	/* Its contexts; one that names no type has type 0 (refused by the check). */
	uint32_t nr_contexts;		/* as many as the file has: above LTT_CTX_MAX is refused */
	struct ltt_ctx contexts[LTT_CTX_MAX];
	long context_line;
};

/* A saved session's contexts (ltt_ctl_list_contexts()), beside its detail. */
struct ltt_cfg_contexts {
	const struct ltt_context_info *v;
	size_t n;
};

struct ltt_cfg_snap_output {
	struct ltt_snapshot_output_conf attr;	/* id 0: the daemon numbers them */
	long line;
};

/* A process tracker as saved: ALL (absent), NONE, or a set of ids. */
struct ltt_cfg_tracker {
	enum ltt_tracker_policy policy;
	uint32_t nr;
	uint32_t ids[LTT_TRACKER_MAX_IDS];
	long line;
};

/* A session's trackers: [0] kernel, [1] user space; zeroed: all ALL. */
struct ltt_cfg_trackers {
	struct ltt_cfg_tracker t[2][LTT_TRACKER_NR];
};

struct ltt_cfg_session {
	struct ltt_cfg_trackers trackers;
	struct ltt_session_conf attr;	/* "" LOCAL output: the daemon's default */
	bool started;
	const char *file;		/* borrowed from the set */
	long line;
	size_t nr_channels;
	struct ltt_cfg_channel *channels;
	size_t nr_snap_outputs;		/* a snapshot session's, added after create */
	struct ltt_cfg_snap_output *snap_outputs;
	uint64_t rotate_timer_us;	/* rotation schedule, 0: none */
	uint64_t rotate_size;
	long rotation_line;
	size_t nr_maps;			/* map channels, added after the channels */
	struct ltt_map_attr *maps;
	long maps_line;
	size_t nr_triggers;		/* added after every session is made */
	struct ltt_trigger_conf *triggers;
	long *trigger_lines;
};

/*
 * What a session has beyond ltt_ctl_get_session()'s detail, to save it:
 * its snapshot outputs and its rotation schedule.
 */
struct ltt_cfg_extra {
	size_t nr_snap_outputs;
	struct ltt_snapshot_output *snap_outputs;	/* borrowed */
	uint64_t rotate_timer_us;
	uint64_t rotate_size;
	const struct ltt_cfg_trackers *trackers;	/* borrowed; NULL: every process */
	struct ltt_cfg_contexts contexts;	/* every channel's; .v owned with it */
	size_t nr_triggers;		/* the caller's, first naming this session */
	struct ltt_trigger_conf *triggers;	/* owned with it */
	size_t nr_maps;			/* its map channels */
	struct ltt_map_attr *maps;	/* owned with it */
};

/* Sessions read from files, in file order. */
struct ltt_cfg_set {
	size_t nr;
	struct ltt_cfg_session *v;
	size_t nr_files;
	char **files;
};

/**
 * ltt_cfg_set_fini() - free what a set holds; accepts a zeroed set
 */
void ltt_cfg_set_fini(struct ltt_cfg_set *set);

/**
 * ltt_cfg_session_fini() - free what one session of the model holds
 * (its channels, rules, snapshot outputs); accepts a zeroed session
 */
void ltt_cfg_session_fini(struct ltt_cfg_session *s);

/**
 * ltt_cfg_err() - describe a failure in @err, as snprintf() (a NULL or
 * empty @err takes nothing); any thread, @err is the caller's
 */
void ltt_cfg_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* LTT_LIB_CONFIG_MODEL_H */
