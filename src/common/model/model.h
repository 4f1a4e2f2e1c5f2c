/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * model.h - the internal types of sessions, channels, event rules and relay
 * connections: what the session daemon keeps, what the client protocol
 * encodes (common/proto/client-proto.h) and what the attribute checks
 * (common/model/attr.h) look at.
 *
 * They carry the field names of the public structs of <ltt/ltt-ctl.h> but
 * are not them: the public structs are an ABI (reserved room, frozen
 * layout, doc/libltt-ctl.md) and libltt-ctl converts between the two in
 * one place (src/common/model/convert.c).  A new attribute is added here
 * and to the codec freely; it reaches the public header only through the
 * public struct's reserved room.  Only the enums and the size constants
 * of <ltt/ltt-ctl.h> are shared.
 *
 * This header is also the map of src/common/model, what users ask of ltt
 * as the daemons and libltt-ctl hold it:
 *
 *   model.h          the internal types of sessions, channels, event rules
 *                    and relay connections (this header)
 *   convert.[ch]     the one crossing between <ltt/ltt-ctl.h>'s public
 *                    structs and these
 *   trigger.[ch]     triggers: conditions, actions, captures, their
 *                    notifications and wire forms
 *   attr.[ch]        defaults and validation of session, channel and
 *                    event rule attributes
 *   agent.[ch]       the agent domains (python, JUL, log4j) as user-space
 *                    events
 *   loglevel.c       names and parsing of the log levels (ltt-ctl.h's and
 *                    the agent domains')
 *   context.[ch]     the context fields a channel may add to its events
 *   uri.[ch]         trace output URLs, parsed
 *   lttng-gap.[ch]   what LTTng has and ltt does not, in one sentence each
 *   lttng-words.[ch] LTTng's words for the enums, which its session files
 *                    and its MI share
 *   map.[ch]         map channels: their checks, key templates, values
 *                    and wire forms
 */
#ifndef LTT_COMMON_MODEL_H
#define LTT_COMMON_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-ctl.h>

_Static_assert(LTT_FILTER_MAX == 4096 + 1, "filter-parse.h: LTT_FILTER_MAX_TEXT + NUL");

/* A session to create (public: struct ltt_session_conf). */
struct ltt_session_conf {
	char name[LTT_NAME_MAX];
	enum ltt_output_type output_type;
	char output[LTT_PATH_MAX];	/* LOCAL: absolute directory; NET: URL */
	bool snapshot;
	uint32_t live_timer_us;		/* 0: not live */
	/* tls:// outputs: absolute paths of PEM files, all "" or all set */
	char tls_cert[LTT_PATH_MAX], tls_key[LTT_PATH_MAX], tls_ca[LTT_PATH_MAX];
	char shm_path[LTT_PATH_MAX];	/* "" or an absolute directory (minor 31) */
	/*
	 * GET_SESSION's only (minor 34): the first failure to write a trace's
	 * metadata under shm_path (a positive errno, 0: none) and when it
	 * came, seconds since the Epoch
	 */
	int shm_error;
	int64_t shm_error_since;
	uint8_t trace_format;	/* enum ltt_trace_format (minor 38) */
};

/* A channel's attributes (public: struct ltt_channel_conf). */
struct ltt_channel_conf {
	char name[LTT_NAME_MAX];
	uint64_t subbuf_size;
	uint64_t num_subbuf;
	bool overwrite;
	uint32_t switch_timer_us;
	uint32_t read_timer_us;
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	enum ltt_buffer_type buffer_type;
	bool fsync;		/* minor 16: not in the channel attr's codec */
	uint8_t preallocation;	/* minor 23: nor this (enum ltt_buffer_preallocation) */
	uint8_t allocation;	/* minor 25: nor this (enum ltt_buffer_allocation) */
	uint8_t auto_reclaim;	/* minor 27: nor these (enum ltt_auto_reclaim) */
	uint64_t auto_reclaim_us;	/* OLDER_THAN's age; else 0 */
	uint64_t blocking_timeout_us;	/* minor 30: 0, us, or LTT_BLOCKING_TIMEOUT_INF */
};

/* An event rule's attributes (public: struct ltt_rule_conf). */
struct ltt_rule_conf {
	char pattern[LTT_NAME_MAX];
	enum ltt_loglevel_type loglevel_type;
	int loglevel;
	enum ltt_event_type type;
	char filter[LTT_FILTER_MAX];		/* "" none; else parses (filter-parse.h) */
	char exclusions[LTT_EXCLUSIONS_MAX];	/* "" none; else sorted, unique, comma-separated */
	char location[LTT_LOCATION_MAX];	/* probe types: where (probe-loc.h); else "" */
};

/* A session as the daemon describes it (public: struct ltt_session_desc). */
struct ltt_session_desc {
	char name[LTT_NAME_MAX];
	uint64_t id;
	char uuid[37];
	uid_t uid;
	bool active;
	bool snapshot;
	uint32_t live_timer_us;
	enum ltt_output_type output_type;
	char output[LTT_PATH_MAX];
	int64_t creation_time;
	/* The clock of its user-space events (minor 20; else clock_known false). */
	bool clock_known;
	uint32_t clock_kind;		/* common/trace/tclock.h's LTT_TCLOCK_* */
	char clock_why[256];		/* why the daemon chose it */
	uint8_t trace_format;		/* enum ltt_trace_format (minor 38; else 0) */
};

/* A channel and its counters (public: struct ltt_channel_desc). */
struct ltt_channel_desc {
	enum ltt_domain domain;
	struct ltt_channel_conf attr;
	bool enabled;
	uint64_t discarded_events;
	uint64_t lost_packets;
	int output_error;
	int64_t output_error_since;
	uint64_t error_events;
	uint64_t error_packets;
	uint64_t classes_refused;	/* event descriptions refused (minor 16) */
};

/* An event rule of a channel (public: struct ltt_rule_desc). */
struct ltt_rule_desc {
	enum ltt_domain domain;
	char channel[LTT_NAME_MAX];
	struct ltt_rule_conf attr;
	bool enabled;
};

/* A domain's relay connection (public: struct ltt_relay_desc). */
struct ltt_relay_desc {
	enum ltt_domain domain;
	enum ltt_relay_state state;
	int error;
	char output_path[LTT_PATH_MAX];
	uint64_t packets_sent;
	uint64_t bytes_sent;
	uint64_t packets_lost;
};

/* A domain's consumer that does not answer (public: struct ltt_consumer_stall_info). */
struct ltt_stall_desc {
	enum ltt_domain domain;
	uint32_t traces_waiting;
	int64_t since;
	char command[32];
	bool metadata_waiting;
};

/* A snapshot session's output (public: struct ltt_snapshot_output). */
struct ltt_snapshot_output_conf {
	uint32_t id;
	char name[LTT_NAME_MAX];
	uint64_t max_size;		/* bytes per snapshot, 0: no limit */
	enum ltt_output_type output_type;
	char output[LTT_PATH_MAX];
};

/* What one snapshot wrote (public: struct ltt_snapshot_result). */
struct ltt_snapshot_result_desc {
	char path[LTT_PATH_MAX];
	uint64_t packets;
	uint64_t bytes;
	uint64_t packets_dropped;
};

/* A session's rotation schedule and trace chunks (public: struct ltt_rotation_info). */
struct ltt_rotation_desc {
	uint64_t timer_us;
	uint64_t size;
	uint64_t chunk_id;
	char last_archive[LTT_PATH_MAX];
	int32_t error;			/* client minor 13: the schedule's failure (LTT_ERR_*), 0 none */
	int64_t error_since;
};

#endif /* LTT_COMMON_MODEL_H */
