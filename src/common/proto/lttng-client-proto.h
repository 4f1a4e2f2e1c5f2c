/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-client-proto.h - LTTng 2.13's client protocol, the one Debian's
 * `lttng` and liblttng-ctl (python3-lttng too) speak to lttng-sessiond on
 * its client socket, as ltt-sessiond --lttng-compat serves it
 * (doc/lttng-compat.md).  Read from lttng-tools 2.13.9's
 * sessiond-comm.h, lttng-ctl.c and the public headers; the layouts are
 * x86-64's (LTTng's structures are packed, in the host's byte order:
 * LTTNG_ORDER below).
 *
 * One connection per command.  The client writes a fixed 13,156-byte
 * request (lttcomm_session_msg: the command, a struct lttng_session whose
 * name alone is read, a struct lttng_domain, a union of per-command fixed
 * parts, an fd count), then the command's variable part, whose length
 * the fixed part says (ltt_lttng_req_extra()), then any descriptors.  The
 * daemon answers with a 24-byte reply header {u32 cmd, u32 ret_code
 * (LTTng's error code, 10: OK), u32 pid, u32 cmd_header_size, u32
 * data_size, u32 fd_count}, the command header, the payload; then it
 * closes the connection.  A reply with an error carries nothing more.
 *
 * The objects below are ltt's C structs of LTTng's wire forms; each is a
 * field table in lttng-client-proto.c with its put/get pair.  What
 * LTTng's structures hold that ltt never reads (a session's path in a
 * request, a domain's attributes) is not described: those bytes are
 * skipped by offset.
 */
#ifndef LTT_COMMON_LTTNG_CLIENT_PROTO_H
#define LTT_COMMON_LTTNG_CLIENT_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/base/codec.h"

/* The socket's name, in /var/run/lttng (root) or $LTTNG_HOME/.lttng (others). */
#define LTT_LTTNG_CLIENT_SOCKET "client-lttng-sessiond"
/* What LTTng's tools read to find the daemon's pid. */
#define LTT_LTTNG_PID_FILE "lttng-sessiond.pid"
/*
 * LTTng's daemon's name: ltt-sessiond run by it serves LTTng's clients and
 * keeps it as its process name (/proc/PID/comm), which tools check.
 */
#define LTT_LTTNG_SESSIOND_NAME "lttng-sessiond"

/* LTTng's sizes (lttng/constant.h, x86-64). */
#define LTT_LTTNG_NAME_MAX 255		/* lttng_session.name */
#define LTT_LTTNG_SYMBOL_LEN 256	/* channel and event names */
#define LTT_LTTNG_PATH_MAX 4096
#define LTT_LTTNG_MSG_SIZE 13156	/* sizeof(struct lttcomm_session_msg) */
#define LTT_LTTNG_REPLY_SIZE 24		/* sizeof(struct lttcomm_lttng_msg) */
#define LTT_LTTNG_SESSION_SIZE 4376	/* sizeof(struct lttng_session) */
#define LTT_LTTNG_SESSION_EXT_SIZE 9	/* its extended part: {u64 creation_time, u8 is_set} */
#define LTT_LTTNG_SESSION_EXT_SIZE_216 4106	/* 2.16's: then {char shm_path[4096], u8 trace_format} */
#define LTT_LTTNG_DOMAIN_SIZE 308	/* sizeof(struct lttng_domain) */
#define LTT_LTTNG_URI_SIZE 8210		/* sizeof(struct lttng_uri) */
/* The largest variable part taken (a filter's bytecode is at most 64 KiB, its text too). */
#define LTT_LTTNG_EXTRA_MAX (1U << 20)

/* Where lttcomm_session_msg's parts are. */
#define LTT_LTTNG_OFF_SESSION 4
#define LTT_LTTNG_OFF_DOMAIN 4380
#define LTT_LTTNG_OFF_UNION 4688
#define LTT_LTTNG_OFF_FD_COUNT 13152

/* LTTng's error codes ltt answers with (lttng/lttng-error.h). */
#define LTT_LTTNG_OK 10
#define LTT_LTTNG_ERR_UNK 11
#define LTT_LTTNG_ERR_UND 12
#define LTT_LTTNG_ERR_SESSION_STARTED 13
#define LTT_LTTNG_ERR_UNKNOWN_DOMAIN 14
#define LTT_LTTNG_ERR_NOT_SUPPORTED 15
#define LTT_LTTNG_ERR_SESS_NOT_FOUND 23
#define LTT_LTTNG_ERR_FATAL 25
#define LTT_LTTNG_ERR_NOMEM 26
#define LTT_LTTNG_ERR_EXIST_SESS 28
#define LTT_LTTNG_ERR_EPERM 32
#define LTT_LTTNG_ERR_KERN_NA 33
#define LTT_LTTNG_ERR_KERN_ENABLE_FAIL 43
#define LTT_LTTNG_ERR_UST_CHAN_NOT_FOUND 59
#define LTT_LTTNG_ERR_CHAN_EXIST 62
#define LTT_LTTNG_ERR_UST_EVENT_EXIST 75
#define LTT_LTTNG_ERR_UST_EVENT_NOT_FOUND 76
#define LTT_LTTNG_ERR_UST_CONTEXT_EXIST 77
#define LTT_LTTNG_ERR_UST_CONTEXT_INVAL 78
#define LTT_LTTNG_ERR_NEED_ROOT_SESSIOND 79
#define LTT_LTTNG_ERR_TRACE_ALREADY_STARTED 80
#define LTT_LTTNG_ERR_TRACE_ALREADY_STOPPED 81
#define LTT_LTTNG_ERR_NEED_CHANNEL_NAME 83
#define LTT_LTTNG_ERR_INVALID 97
#define LTT_LTTNG_ERR_FILTER_INVAL 106
#define LTT_LTTNG_ERR_EXCLUSION_INVAL 110
#define LTT_LTTNG_ERR_INVALID_EVENT_NAME 112
#define LTT_LTTNG_ERR_INVALID_CHANNEL_NAME 113
#define LTT_LTTNG_ERR_CHAN_NOT_FOUND 146	/* 2.16: a map channel */
#define LTT_LTTNG_ERR_INVALID_PROTOCOL 152
#define LTT_LTTNG_ERR_UNSUPPORTED_TRACE_FORMAT 172	/* 2.16's */
#define LTT_LTTNG_ERR_TRACKER_POLICY 163
#define LTT_LTTNG_ERR_PROCESS_ATTR_EXISTS 114
#define LTT_LTTNG_ERR_PROCESS_ATTR_MISSING 115
#define LTT_LTTNG_ERR_USER_NOT_FOUND 160
#define LTT_LTTNG_ERR_GROUP_NOT_FOUND 161	/* PROCESS_ATTR_TRACKER_INVALID_TRACKING_POLICY */
#define LTT_LTTNG_ERR_NR 171

/*
 * X(NAME, number, variable part): LTTng 2.13's commands (numbers 0-52,
 * with gaps), and what says the length of the variable part that follows
 * the fixed request: NONE, LEN (a u32 after the union's channel name:
 * enable, disable, context), ULEN (a u32 at the union's start: channel,
 * trigger, error query), CREATE (u16 home size + u64 descriptor size),
 * URIS (a u32 count of struct lttng_uri), TRACKER (a name's length when
 * the value is a user or group name).
 */
#define LTT_LTTNG_CMD_TABLE(X) \
	X(ADD_CONTEXT, 0, LEN) \
	X(DISABLE_CHANNEL, 2, NONE) \
	X(DISABLE_EVENT, 3, LEN) \
	X(LIST_SYSCALLS, 4, NONE) \
	X(ENABLE_CHANNEL, 5, ULEN) \
	X(ENABLE_EVENT, 6, LEN) \
	X(DESTROY_SESSION, 9, NONE) \
	X(LIST_CHANNELS, 10, NONE) \
	X(LIST_DOMAINS, 11, NONE) \
	X(LIST_EVENTS, 12, NONE) \
	X(LIST_SESSIONS, 13, NONE) \
	X(LIST_TRACEPOINTS, 14, NONE) \
	X(REGISTER_CONSUMER, 15, NONE) \
	X(START_TRACE, 16, NONE) \
	X(STOP_TRACE, 17, NONE) \
	X(LIST_TRACEPOINT_FIELDS, 18, NONE) \
	X(DISABLE_CONSUMER, 19, NONE) \
	X(ENABLE_CONSUMER, 20, NONE) \
	X(SET_CONSUMER_URI, 21, URIS) \
	X(DATA_PENDING, 24, NONE) \
	X(SNAPSHOT_ADD_OUTPUT, 25, NONE) \
	X(SNAPSHOT_DEL_OUTPUT, 26, NONE) \
	X(SNAPSHOT_LIST_OUTPUT, 27, NONE) \
	X(SNAPSHOT_RECORD, 28, NONE) \
	X(SAVE_SESSION, 31, NONE) \
	X(PROCESS_ATTR_TRACKER_ADD_INCLUDE_VALUE, 32, TRACKER) \
	X(PROCESS_ATTR_TRACKER_REMOVE_INCLUDE_VALUE, 33, TRACKER) \
	X(PROCESS_ATTR_TRACKER_GET_POLICY, 34, NONE) \
	X(PROCESS_ATTR_TRACKER_SET_POLICY, 35, NONE) \
	X(PROCESS_ATTR_TRACKER_GET_INCLUSION_SET, 36, NONE) \
	X(SET_SESSION_SHM_PATH, 40, NONE) \
	X(REGENERATE_METADATA, 41, NONE) \
	X(REGENERATE_STATEDUMP, 42, NONE) \
	X(REGISTER_TRIGGER, 43, ULEN) \
	X(UNREGISTER_TRIGGER, 44, ULEN) \
	X(ROTATE_SESSION, 45, NONE) \
	X(ROTATION_GET_INFO, 46, NONE) \
	X(ROTATION_SET_SCHEDULE, 47, NONE) \
	X(SESSION_LIST_ROTATION_SCHEDULES, 48, NONE) \
	X(CREATE_SESSION_EXT, 49, CREATE) \
	X(CLEAR_SESSION, 50, NONE) \
	X(LIST_TRIGGERS, 51, NONE) \
	X(EXECUTE_ERROR_QUERY, 52, ULEN)

enum ltt_lttng_cmd {
#define LTT_LTTNG_CMD_ENUM_(name, num, extra) LTT_LTTNG_CMD_##name = (num),
	LTT_LTTNG_CMD_TABLE(LTT_LTTNG_CMD_ENUM_)
#undef LTT_LTTNG_CMD_ENUM_
	LTT_LTTNG_CMD_NR_,
};

/*
 * The generations of LTTng's client protocol.  lttng-tools 2.14 numbered
 * the commands anew from 1, without 2.13's gaps, over a fixed request of
 * the same layout; 2.15 dropped the reply header's pid (20 bytes), 2.16
 * REGISTER_CONSUMER (all later numbers one lower).  Nothing in a request says
 * which a client speaks: its liblttng-ctl does
 * (sessiond/lttng-compat-peer.c).  ltt serves 2.13's and 2.16's.
 */
enum ltt_lttng_gen {
	LTT_LTTNG_GEN_2_13,
	LTT_LTTNG_GEN_2_14,
	LTT_LTTNG_GEN_2_15,
	LTT_LTTNG_GEN_2_16,
	LTT_LTTNG_GEN_UNKNOWN,	/* could not be told: nothing it asks is run */
};

#define LTT_LTTNG_REPLY_SIZE_216 20	/* 2.15's and 2.16's reply header: no pid */

/*
 * X(NAME, number): LTTng 2.16's commands (1-51) that 2.13 has too, by
 * 2.13's name; the ones 2.13 lacks: LTTNG_CMD216_NEW.
 */
#define LTT_LTTNG_CMD216_TABLE(X) \
	X(ADD_CONTEXT, 1) X(DISABLE_CHANNEL, 2) X(DISABLE_EVENT, 3) X(LIST_SYSCALLS, 4) \
	X(ENABLE_CHANNEL, 5) X(ENABLE_EVENT, 6) X(DESTROY_SESSION, 7) X(LIST_CHANNELS, 8) \
	X(LIST_DOMAINS, 9) X(LIST_EVENTS, 10) X(LIST_SESSIONS, 11) X(LIST_TRACEPOINTS, 12) \
	X(START_TRACE, 13) X(STOP_TRACE, 14) X(LIST_TRACEPOINT_FIELDS, 15) \
	X(DISABLE_CONSUMER, 16) X(ENABLE_CONSUMER, 17) X(SET_CONSUMER_URI, 18) \
	X(DATA_PENDING, 19) X(SNAPSHOT_ADD_OUTPUT, 20) X(SNAPSHOT_DEL_OUTPUT, 21) \
	X(SNAPSHOT_LIST_OUTPUT, 22) X(SNAPSHOT_RECORD, 23) X(SAVE_SESSION, 24) \
	X(PROCESS_ATTR_TRACKER_ADD_INCLUDE_VALUE, 25) \
	X(PROCESS_ATTR_TRACKER_REMOVE_INCLUDE_VALUE, 26) \
	X(PROCESS_ATTR_TRACKER_GET_POLICY, 27) X(PROCESS_ATTR_TRACKER_SET_POLICY, 28) \
	X(PROCESS_ATTR_TRACKER_GET_INCLUSION_SET, 29) X(SET_SESSION_SHM_PATH, 30) \
	X(REGENERATE_METADATA, 31) X(REGENERATE_STATEDUMP, 32) X(REGISTER_TRIGGER, 33) \
	X(UNREGISTER_TRIGGER, 34) X(ROTATE_SESSION, 35) X(ROTATION_GET_INFO, 36) \
	X(ROTATION_SET_SCHEDULE, 37) X(SESSION_LIST_ROTATION_SCHEDULES, 38) \
	X(CREATE_SESSION_EXT, 39) X(CLEAR_SESSION, 40) X(LIST_TRIGGERS, 41) \
	X(EXECUTE_ERROR_QUERY, 42)
/* 2.16's commands after those: KERNEL_TRACER_STATUS, RECLAIM_CHANNEL_MEMORY, ..., the maps' */
#define LTT_LTTNG_CMD216_NEW_FIRST 43
#define LTT_LTTNG_CMD216_KERNEL_TRACER_STATUS 43
#define LTT_LTTNG_CMD216_RECLAIM_CHANNEL_MEMORY 44	/* union: {channel, u64 older_than_us} */
#define LTT_LTTNG_CMD216_STREAM_INFO_SETS 45	/* GET_CHANNEL_DATA_STREAM_INFO_SETS: union: list's */
#define LTT_LTTNG_CMD216_ADD_MAP_CHANNEL 46	/* union: a map channel (struct ltt_lttng_map_channel) */
#define LTT_LTTNG_CMD216_LIST_MAP_CHANNELS 47	/* union: {i32 type}; reply {u64 n, n map channels} */
/*
 * The map channel readers' union: {i32 type, char channel[256]}, and
 * SAMPLE_MAP_GROUP's group after it (struct ltt_lttng_map_group).
 *   GET_MAP_CHANNEL_BY_NAME -> a map channel
 *   LIST_MAP_GROUPS -> {u64 n, n x map group}
 *   SAMPLE_MAP_GROUP -> {u64 partitions, each {u8 has_id, u32 id,
 *       u64 n, n x {i64 value, u8 overflow}}}: value i is key index i's
 *   LIST_MAP_KEYS -> {u64 n, n x {u64 index, i32 type (0: string),
 *       u32 len, len bytes of the key, no NUL}}
 */
#define LTT_LTTNG_CMD216_GET_MAP_CHANNEL_BY_NAME 48
#define LTT_LTTNG_CMD216_LIST_MAP_GROUPS 49
#define LTT_LTTNG_CMD216_SAMPLE_MAP_GROUP 50
#define LTT_LTTNG_CMD216_LIST_MAP_KEYS 51
#define LTT_LTTNG_CMD216_NR 52

/**
 * ltt_lttng_gen_name() - "2.13", "2.14", "2.15" or "2.16"
 */
const char *ltt_lttng_gen_name(enum ltt_lttng_gen gen);

/**
 * ltt_lttng_cmd216_name() - the name of LTTng 2.16's command @cmd (its own
 * number), or NULL
 */
const char *ltt_lttng_cmd216_name(uint32_t cmd);

/* LTTng's domain buffer types (enum lttng_buffer_type). */
enum { LTT_LTTNG_BUFFER_PER_PID = 0, LTT_LTTNG_BUFFER_PER_UID = 1, LTT_LTTNG_BUFFER_GLOBAL = 2 };
/* LTTng's event types (enum lttng_event_type) ltt maps. */
enum {
	LTT_LTTNG_EVENT_ALL = -1, LTT_LTTNG_EVENT_TRACEPOINT = 0, LTT_LTTNG_EVENT_PROBE = 1,
	LTT_LTTNG_EVENT_FUNCTION = 2, LTT_LTTNG_EVENT_SYSCALL = 5,
	LTT_LTTNG_EVENT_USERSPACE_PROBE = 6,
};
/* LTTng's log level types (enum lttng_loglevel_type). */
enum { LTT_LTTNG_LOGLEVEL_ALL = 0, LTT_LTTNG_LOGLEVEL_RANGE = 1, LTT_LTTNG_LOGLEVEL_SINGLE = 2 };
/* LTTng's context types (enum lttng_event_context_type) that carry more than their number. */
enum {
	LTT_LTTNG_CTX_PERF_COUNTER = 1, LTT_LTTNG_CTX_PERF_CPU_COUNTER = 13,
	LTT_LTTNG_CTX_PERF_THREAD_COUNTER = 14, LTT_LTTNG_CTX_APP = 15,
};
/* A session descriptor's types and outputs (session-descriptor-internal.h). */
enum { LTT_LTTNG_DESC_REGULAR = 1, LTT_LTTNG_DESC_SNAPSHOT = 2, LTT_LTTNG_DESC_LIVE = 3 };
enum { LTT_LTTNG_DESC_OUT_NONE = 0, LTT_LTTNG_DESC_OUT_LOCAL = 1, LTT_LTTNG_DESC_OUT_NETWORK = 2 };
#define LTT_LTTNG_URI_DST_PATH 3	/* enum lttng_dst_type */

/* struct lttng_snapshot_output (packed: 8,459 bytes). */
struct ltt_lttng_snapshot_output {
	uint32_t id;
	uint64_t max_size;
	char name[LTT_LTTNG_NAME_MAX];
	char ctrl_url[LTT_LTTNG_PATH_MAX];
	char data_url[LTT_LTTNG_PATH_MAX];
};

/*
 * LTTng 2.16's struct lttcomm_map_channel_comm (packed: 281 bytes), in
 * ADD_MAP_CHANNEL's union and LIST_MAP_CHANNELS' reply.
 */
#define LTT_LTTNG_MAP_CHANNEL_SIZE 281
struct ltt_lttng_map_channel {
	char name[LTT_LTTNG_SYMBOL_LEN];
	uint32_t key_type;	/* 0: string keys, the only kind */
	uint32_t value_type;	/* 0 signed int 32, 1 signed int 64, 2 the native width */
	uint64_t max_keys;
	uint32_t update_policy;	/* 0 per event, 1 per rule match */
	uint32_t dead_policy;	/* 0 drop, 1 sum into the shared group */
	uint8_t per_uid;	/* 1 per user, 0 per process; the kernel's: ignored */
};

/*
 * LTTng 2.16's struct lttcomm_map_group_comm (packed: 272 bytes): a map
 * channel's group of counters, in LIST_MAP_GROUPS' reply and
 * SAMPLE_MAP_GROUP's union.
 */
#define LTT_LTTNG_MAP_GROUP_SIZE 272
enum {
	LTT_LTTNG_MAP_GROUP_KERNEL = 0, LTT_LTTNG_MAP_GROUP_PER_USER = 1,
	LTT_LTTNG_MAP_GROUP_PER_PROCESS = 2, LTT_LTTNG_MAP_GROUP_SHARED = 3,
};
struct ltt_lttng_map_group {
	uint32_t type;		/* LTT_LTTNG_MAP_GROUP_* */
	uint32_t value_type;	/* 0 signed int 32, 1 signed int 64 (never the native width) */
	uint64_t owner_id;	/* the uid or the pid; 0 for the kernel's and the shared group */
	char owner_name[LTT_LTTNG_SYMBOL_LEN];	/* the user's or the process's name, or "" */
};

/* The parts of the fixed request ltt reads. */
struct ltt_lttng_req {
	uint32_t cmd;		/* in 2.13's numbers (enum ltt_lttng_cmd) */
	uint32_t wire_cmd;	/* as the client numbered it, for the reply */
	char session[LTT_LTTNG_NAME_MAX];
	uint32_t domain;	/* enum lttng_domain_type */
	uint32_t buf_type;	/* enum lttng_buffer_type */
	uint32_t fd_count;
	/* the union, as the command uses it */
	char channel[LTT_LTTNG_SYMBOL_LEN];	/* enable, disable, context, list */
	uint32_t length;	/* enable, disable, context, channel, trigger, error query */
	uint8_t trigger_anonymous;	/* register trigger: lttng_register_trigger(), no name */
	uint16_t home_dir_size;	/* create */
	uint64_t descriptor_size;
	uint32_t uri_count;	/* set consumer URI */
	int32_t process_attr;	/* trackers: enum lttng_process_attr */
	int32_t value_type;	/* tracker add/remove: enum lttng_process_attr_value_type */
	uint64_t value;		/* its pid, uid or gid */
	uint32_t name_len;	/* or its user or group name's length (NUL included) */
	int32_t policy;		/* set policy: enum lttng_tracking_policy */
	uint32_t wait;		/* snapshot record */
	uint64_t rotation_id;	/* rotation get info */
	uint8_t sched_type;	/* rotation set schedule: 0 size, 1 periodic */
	uint8_t sched_set;	/* 1: set it to sched_value, 0: unset it */
	uint64_t sched_value;	/* bytes, or microseconds */
	struct ltt_lttng_snapshot_output output;	/* snapshot commands */
	char shm_path[LTT_LTTNG_PATH_MAX];	/* set session shm path */
	/* save session (struct lttng_save_session_attr) */
	char save_name[LTT_LTTNG_NAME_MAX];	/* "": every session */
	char save_url[LTT_LTTNG_PATH_MAX];	/* "": the daemon's default */
	uint8_t save_overwrite;
	uint8_t save_omit_name;
	uint8_t save_omit_output;
	uint64_t older_than_us;	/* 2.16's reclaim channel memory (0: every sub-buffer read) */
	uint32_t map_type;	/* 2.16's map channel readers: 0 kernel, 1 user; their map in channel */
	struct ltt_lttng_map_channel map;	/* 2.16's add map channel */
	struct ltt_lttng_map_group group;	/* 2.16's sample map group */
};

void ltt_lttng_put_map_channel(struct ltt_wbuf *w, const struct ltt_lttng_map_channel *m);
void ltt_lttng_put_map_group(struct ltt_wbuf *w, const struct ltt_lttng_map_group *g);

/* struct lttng_channel_comm and the name that follows it. */
struct ltt_lttng_channel {
	uint32_t name_len;	/* NUL included */
	uint8_t enabled;
	int8_t overwrite;	/* -1: the domain's default (discard) */
	uint64_t subbuf_size;
	uint64_t num_subbuf;
	uint32_t switch_timer_us;
	uint32_t read_timer_us;
	uint8_t output;		/* 0: splice, 1: mmap */
	uint64_t tracefile_size;
	uint64_t tracefile_count;
	uint32_t live_timer_us;
	uint64_t discarded_events;
	uint64_t lost_packets;
	uint64_t monitor_timer_us;
	int64_t blocking_timeout_us;
	/* 2.16's (110 bytes): an optional watchdog (not packed) before the blocking timeout, then */
	uint8_t watchdog_set;
	uint8_t watchdog_pad[7];
	uint64_t watchdog_us;
	uint8_t allocation;	/* 0 per CPU, 1 per channel */
	uint8_t preallocation;	/* 0 preallocate, 1 on demand */
	uint8_t reclaim_set;	/* automatic memory reclamation (packed optional) */
	uint64_t reclaim_us;
};
#define LTT_LTTNG_CHANNEL_SIZE 83	/* lttng_channel_comm */
#define LTT_LTTNG_CHANNEL_SIZE_216 110

/* struct lttng_event_comm; its name, exclusions, filter and bytecode follow. */
struct ltt_lttng_event {
	int8_t type;
	int8_t loglevel_type;
	int32_t loglevel;
	int8_t enabled;
	int32_t pid;
	uint32_t flags;
	uint32_t name_len;	/* NUL included */
	uint32_t exclusion_count;	/* each: {u32 len (NUL included), name} */
	uint32_t filter_len;	/* NUL included, 0: none */
	uint32_t bytecode_len;
	uint32_t uprobe_len;
	uint32_t probe_attr_len;
	uint32_t function_attr_len;
};

/* The reply header (struct lttcomm_lttng_msg). */
struct ltt_lttng_reply {
	uint32_t cmd;
	uint32_t ret_code;
	uint32_t pid;
	uint32_t cmd_header_size;
	uint32_t data_size;
	uint32_t fd_count;
};

/* A session as LIST_SESSIONS returns it (struct lttng_session; extended: after all). */
struct ltt_lttng_session {
	char name[LTT_LTTNG_NAME_MAX];
	char path[LTT_LTTNG_PATH_MAX];
	uint8_t pad[1];
	uint32_t enabled;
	uint32_t snapshot_mode;
	uint32_t live_timer_us;
	uint8_t padding[4];
	uint64_t extended;	/* a pointer: 0 on the wire */
};

/* Its extended part, after the array. */
struct ltt_lttng_session_ext {
	uint64_t creation_time;
	uint8_t is_set;
	/* 2.16's (4,106 bytes): then */
	char shm_path[LTT_LTTNG_PATH_MAX];
	uint8_t trace_format;	/* enum lttng_trace_format: 1 CTF 1.8, 2 CTF 2 */
};

/* A domain as LIST_DOMAINS returns it (struct lttng_domain; its attr zero). */
struct ltt_lttng_domain {
	uint32_t type;
	uint32_t buf_type;
	uint8_t rest[LTT_LTTNG_DOMAIN_SIZE - 8];
};

/* A session descriptor's header (lttng_session_descriptor_comm; LIVE: + u64 timer). */
struct ltt_lttng_descriptor {
	uint8_t type;
	uint8_t output_type;
	uint8_t trace_format;	/* 2.16's only: enum lttng_trace_format (0 default, 1 CTF 1.8, 2 CTF 2) */
	uint32_t name_len;	/* NUL included, 0: the daemon names it */
	uint8_t uri_count;
};

/* A struct lttng_uri. */
struct ltt_lttng_uri {
	uint32_t dtype;		/* 1 IPv4, 2 IPv6, 3 path */
	uint32_t utype;
	uint32_t stype;
	uint32_t proto;
	uint16_t port;
	char subdir[LTT_LTTNG_PATH_MAX];
	char dst[LTT_LTTNG_PATH_MAX];	/* a path, or an address */
};

/* The reply of ROTATION_GET_INFO (lttng_rotation_get_info_return, 4,362 bytes). */
struct ltt_lttng_rotation_info {
	int32_t status;		/* enum lttng_rotation_state */
	int8_t location_type;	/* 0 none, 1 local, 2 relay */
	char path[LTT_LTTNG_PATH_MAX];	/* local: absolute */
	uint8_t pad[261];	/* 0: the rest of the union after a local path */
	char host[256];		/* relay: */
	int8_t protocol;	/* 0: TCP */
	uint16_t ctrl_port;
	uint16_t data_port;
	char relative_path[LTT_LTTNG_PATH_MAX];
};

/*
 * ADD_CONTEXT's variable part after its u32 type, for a perf counter
 * (lttng_event_context_perf_counter_comm; its name follows: LTTng's
 * client makes it of the user's, ':' and '-' as '_', "perf_thread_NAME").
 */
struct ltt_lttng_perf_counter {
	uint32_t type;		/* perf_event_attr.type */
	uint64_t config;	/* perf_event_attr.config */
	uint32_t name_len;	/* NUL included */
};

/*
 * A kernel probe's or function's attributes in ENABLE_EVENT and
 * LIST_EVENTS (lttng_event_probe_attr_comm; the symbol's name follows,
 * "" with an address).
 */
struct ltt_lttng_probe_attr {
	uint64_t addr;
	uint64_t offset;
	uint32_t symbol_len;	/* NUL included */
};
#define LTT_LTTNG_PROBE_ATTR_SIZE 20

/*
 * A user-space probe's location in ENABLE_EVENT (lttng_userspace_probe_
 * location_comm): {i8 type}, then a function's {u32 name_len, u32
 * path_len, name, path} or an SDT probe's {u32 probe_len, u32
 * provider_len, u32 path_len, probe, provider, path}, then {i8 lookup
 * method}; lengths with their NUL.  The binary's descriptor comes apart,
 * SCM_RIGHTS.
 */
struct ltt_lttng_uprobe_lens {
	uint32_t name_len;	/* the function's, or the SDT probe's */
	uint32_t provider_len;	/* SDT only */
	uint32_t path_len;
};
enum { LTT_LTTNG_UPROBE_FUNCTION = 0, LTT_LTTNG_UPROBE_SDT = 1 };
enum { LTT_LTTNG_UPROBE_LOOKUP_DEFAULT = 0, LTT_LTTNG_UPROBE_LOOKUP_ELF = 1,
       LTT_LTTNG_UPROBE_LOOKUP_SDT = 2 };

/**
 * ltt_lttng_cmd_name() - "CREATE_SESSION_EXT", or NULL for a number 2.13 lacks
 */
const char *ltt_lttng_cmd_name(uint32_t cmd);

/**
 * ltt_lttng_get_req() - read the fixed request (LTT_LTTNG_MSG_SIZE bytes
 * at @msg, borrowed) into @ret: the command, session name, domain and
 * the union as the command uses it
 *
 * Read as a client of generation @gen numbers its commands: 2.16's are
 * given in 2.13's numbers (@ret's cmd; wire_cmd keeps the client's), the
 * union's layout being the same for the commands both have.
 *
 * Returns 0, -EPROTO for a name without its NUL, -ENOSYS for a command
 * number @gen lacks or one 2.13 lacks (@ret has the number in wire_cmd,
 * and cmd UINT32_MAX; the union read for the 2.16 commands ltt serves), or
 * -EPROTONOSUPPORT for a generation ltt does not speak (2.14, 2.15).
 */
int ltt_lttng_get_req(const uint8_t *msg, enum ltt_lttng_gen gen, struct ltt_lttng_req *ret);

/**
 * ltt_lttng_req_extra() - the bytes of @req's variable part
 *
 * Returns 0 and sets *@ret_len, or -EPROTO when it would pass
 * LTT_LTTNG_EXTRA_MAX.
 */
int ltt_lttng_req_extra(const struct ltt_lttng_req *req, size_t *ret_len);

/* Object serializers: each get reads one object at the cursor (sticky error). */
/* The reply header as @gen's client reads it (2.16: no pid). */
void ltt_lttng_put_reply(struct ltt_wbuf *w, enum ltt_lttng_gen gen, const struct ltt_lttng_reply *m);
void ltt_lttng_get_channel(struct ltt_rbuf *r, enum ltt_lttng_gen gen, struct ltt_lttng_channel *ret);
void ltt_lttng_put_channel(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			   const struct ltt_lttng_channel *m);
void ltt_lttng_get_event(struct ltt_rbuf *r, struct ltt_lttng_event *ret);
void ltt_lttng_put_event(struct ltt_wbuf *w, const struct ltt_lttng_event *m);
void ltt_lttng_put_session(struct ltt_wbuf *w, const struct ltt_lttng_session *m);
void ltt_lttng_put_session_ext(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			       const struct ltt_lttng_session_ext *m);
void ltt_lttng_put_domain(struct ltt_wbuf *w, const struct ltt_lttng_domain *m);
void ltt_lttng_get_descriptor(struct ltt_rbuf *r, enum ltt_lttng_gen gen,
			      struct ltt_lttng_descriptor *ret);
void ltt_lttng_put_descriptor(struct ltt_wbuf *w, enum ltt_lttng_gen gen,
			      const struct ltt_lttng_descriptor *m);
void ltt_lttng_get_uri(struct ltt_rbuf *r, struct ltt_lttng_uri *ret);
void ltt_lttng_put_rotation_info(struct ltt_wbuf *w, const struct ltt_lttng_rotation_info *m);
void ltt_lttng_put_snapshot_output(struct ltt_wbuf *w, const struct ltt_lttng_snapshot_output *m);
void ltt_lttng_get_snapshot_output(struct ltt_rbuf *r, struct ltt_lttng_snapshot_output *ret);
void ltt_lttng_put_uri(struct ltt_wbuf *w, const struct ltt_lttng_uri *m);

/**
 * ltt_lttng_exclusions_size() - the names of the comma-separated @list as
 * LTTng writes them after an event and in a user-space event rule (each
 * {u32 len (NUL included), name}): returns their count, their bytes in
 * *@ret_bytes (NULL: not wanted)
 */
uint32_t ltt_lttng_exclusions_size(const char *list, uint32_t *ret_bytes);

/** ltt_lttng_put_exclusions() - those names of @list into @w */
void ltt_lttng_put_exclusions(struct ltt_wbuf *w, const char *list);

struct ltt_snapshot_output_conf;

/**
 * ltt_lttng_snapshot_output_to_ltt() - the destination of LTTng's
 * snapshot output @o (a path or file:// URL, a net:// URL, or tcp://
 * control and data URLs) into @c's output_type and output; -1 for one
 * ltt does not take
 */
int ltt_lttng_snapshot_output_to_ltt(const struct ltt_lttng_snapshot_output *o,
				     struct ltt_snapshot_output_conf *c);
void ltt_lttng_get_probe_attr(struct ltt_rbuf *r, struct ltt_lttng_probe_attr *ret);
void ltt_lttng_put_probe_attr(struct ltt_wbuf *w, const struct ltt_lttng_probe_attr *m);
void ltt_lttng_get_perf_counter(struct ltt_rbuf *r, struct ltt_lttng_perf_counter *ret);
void ltt_lttng_put_perf_counter(struct ltt_wbuf *w, const struct ltt_lttng_perf_counter *m);

/**
 * ltt_lttng_get_uprobe() - the user-space probe location of @len bytes
 * at @r's cursor as ltt's location text into @buf (@size bytes):
 * "elf:PATH:FUNCTION" or "sdt:PATH:PROVIDER:NAME"
 *
 * Returns 0; -EPROTO (and @r failed) for a location that does not read
 * or add up to @len; -ENAMETOOLONG when it does not fit @buf.
 */
int ltt_lttng_get_uprobe(struct ltt_rbuf *r, uint32_t len, char *buf, size_t size);

/**
 * ltt_lttng_put_uprobe() - the user-space probe location of ltt's text
 * @location as LTTng lists it (ltt_lttng_get_uprobe()'s layout):
 * "[elf:]PATH:FUNCTION", a function's, looked up in the ELF symbols, which
 * LTTng's client takes without the binary's descriptor; with @sdt,
 * "sdt:PATH:PROVIDER:NAME" too, an SDT probe's, which it takes only with
 * the descriptor (the caller passes it with the reply)
 *
 * Returns 0 for a function's, 1 for an SDT probe's, or -EINVAL for
 * another text (an SDT probe's without @sdt); nothing is put then.
 */
int ltt_lttng_put_uprobe(struct ltt_wbuf *w, const char *location, bool sdt);

/**
 * ltt_lttng_agent_filter() - an agent rule's filter as LTTng's client
 * sends it, and LTTng's daemon lists it: the user's filter @user ("":
 * none) and-ed with the logger's name @name (unless "*") and the log
 * level (unless @ll_type is LTT_LTTNG_LOGLEVEL_ALL), with LTTng's
 * parentheses: "(F) && (logger_name == \"N\")", then
 * "(...) && (int_loglevel >= L)" (== for one level); into @buf (@len bytes)
 *
 * Returns 0, -ENOMEM, or -ENAMETOOLONG when it does not fit.
 */
int ltt_lttng_agent_filter(const char *user, const char *name, int8_t ll_type, int32_t level,
			   char *buf, size_t len);

/**
 * ltt_lttng_agent_user_filter() - the user's part of @text, a filter of
 * ltt_lttng_agent_filter()'s form for @name, @ll_type and @level, in
 * place ("" when there is none); a text of another form is left whole
 */
void ltt_lttng_agent_user_filter(char *text, const char *name, int8_t ll_type, int32_t level);

#endif /* LTT_COMMON_LTTNG_CLIENT_PROTO_H */
