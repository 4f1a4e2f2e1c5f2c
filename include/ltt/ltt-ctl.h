/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl.h - libltt-ctl, the public control library of ltt.
 *
 * Everything lttctl does goes through these calls, so scripts and other
 * programs can drive a session daemon the same way.
 *
 * Conventions:
 *  - Every call returns 0 on success or a negated enum ltt_error_code
 *    (see ltt-error.h); ltt_strerror() gives a sentence for it.
 *  - Out-parameters are named ret_* and are set only on success.  Arrays
 *    returned through them are one heap block: free them with free().
 *  - A struct ltt_ctl is one connection.  It is not thread-safe: use one
 *    per thread.
 *  - Strings are NUL-terminated UTF-8 / ASCII.
 *
 * ABI (doc/libltt-ctl.md, "ABI rules"):
 *  - Every struct below ends with reserved room, `uint8_t reserved[N]`,
 *    8-byte aligned (LTT_RESERVED_ALIGN).  Its size and the offset of each
 *    field are frozen (tests/unit/test_abi.c): a later version adds a
 *    field by taking whole 8-byte units from the front of the reserved
 *    room, never by moving, resizing or removing a field or growing the
 *    struct.
 *  - Structs you pass in must have their reserved room zeroed: use the
 *    ltt_ctl_*_attr_init() calls, or "= { 0 }" / memset().  A library
 *    that finds a non-zero reserved byte does not know the field a newer
 *    <ltt/ltt-ctl.h> put there, and refuses the call with
 *    -LTT_ERR_NOT_SUPPORTED rather than ignore it.
 *  - Structs the library returns have their reserved room zeroed, so a
 *    field added later reads 0 from an older library: 0 must mean "not
 *    set" or "the old behaviour" for every field added.
 *  - The library exports the functions of this header only, in the
 *    symbol versions LTT_CTL_1 and LTT_CTL_1.1 (soname libltt-ctl.so.1).
 */
#ifndef LTT_CTL_H
#define LTT_CTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include <ltt/ltt-error.h>

#ifdef __cplusplus
extern "C" {
#endif

#define LTT_NAME_MAX 256	/* bytes for a session, channel or event name, NUL included */
#define LTT_PATH_MAX 4096	/* bytes for a path or URL, NUL included */
#define LTT_DEFAULT_CHANNEL_NAME "channel0"
#define LTT_FILTER_MAX 4097	/* bytes of a filter expression, NUL included (1.1) */
#define LTT_EXCLUSIONS_MAX 4096	/* bytes of an exclusion list, NUL included (1.1) */

/*
 * The reserved room at the end of each struct starts on an 8-byte boundary,
 * so a field of any type can take its first bytes.
 */
#define LTT_RESERVED_ALIGN __attribute__((aligned(8)))

enum ltt_domain {
	LTT_DOMAIN_NONE = 0,
	LTT_DOMAIN_KERNEL = 1,
	LTT_DOMAIN_USER = 2,
};

enum ltt_buffer_type {
	LTT_BUFFER_DEFAULT = 0,		/* per-UID for user, global for kernel */
	LTT_BUFFER_PER_UID = 1,
	LTT_BUFFER_PER_PID = 2,
	LTT_BUFFER_GLOBAL = 3,
};

enum ltt_output_type {
	LTT_OUTPUT_NONE = 0,	/* --no-output */
	LTT_OUTPUT_LOCAL = 1,	/* a directory on this host */
	LTT_OUTPUT_NET = 2,	/* a relay daemon */
};

enum ltt_loglevel_type {
	LTT_LOGLEVEL_ALL = 0,	/* no log level condition */
	LTT_LOGLEVEL_RANGE = 1,	/* this level and more severe */
	LTT_LOGLEVEL_SINGLE = 2,	/* exactly this level */
};

/* The 15 syslog-like levels, most severe first, as users know them. */
enum ltt_loglevel {
	LTT_LOGLEVEL_EMERG = 0,
	LTT_LOGLEVEL_ALERT = 1,
	LTT_LOGLEVEL_CRIT = 2,
	LTT_LOGLEVEL_ERR = 3,
	LTT_LOGLEVEL_WARNING = 4,
	LTT_LOGLEVEL_NOTICE = 5,
	LTT_LOGLEVEL_INFO = 6,
	LTT_LOGLEVEL_DEBUG_SYSTEM = 7,
	LTT_LOGLEVEL_DEBUG_PROGRAM = 8,
	LTT_LOGLEVEL_DEBUG_PROCESS = 9,
	LTT_LOGLEVEL_DEBUG_MODULE = 10,
	LTT_LOGLEVEL_DEBUG_UNIT = 11,
	LTT_LOGLEVEL_DEBUG_FUNCTION = 12,
	LTT_LOGLEVEL_DEBUG_LINE = 13,
	LTT_LOGLEVEL_DEBUG = 14,
};

/* What to create: see ltt_ctl_create_session(). */
struct ltt_session_attr {
	char name[LTT_NAME_MAX];	/* "" for an automatic name */
	enum ltt_output_type output_type;
	/* LOCAL: absolute directory, "" for $LTT_HOME/ltt-traces/NAME-DATE.
	 * NET: a net://, net4:// or net6:// URL. */
	char output[LTT_PATH_MAX];
	bool snapshot;
	uint32_t live_timer_us;	/* 0: not live */
	uint8_t reserved[128] LTT_RESERVED_ALIGN;	/* zero */
};

struct ltt_channel_attr {
	char name[LTT_NAME_MAX];
	uint64_t subbuf_size;	/* bytes, power of two >= page size */
	uint64_t num_subbuf;	/* power of two >= 2 */
	bool overwrite;		/* false: discard new events when full */
	uint32_t switch_timer_us;	/* 0: off */
	uint32_t read_timer_us;	/* 0: off */
	uint64_t tracefile_size;	/* bytes, 0: unlimited */
	uint64_t tracefile_count;	/* 0: unlimited */
	enum ltt_buffer_type buffer_type;
	uint8_t reserved[128] LTT_RESERVED_ALIGN;	/* zero */
};

/* What kind of event a rule's pattern names. */
enum ltt_event_type {
	LTT_EVENT_TRACEPOINT = 0,	/* tracepoints (user space, kernel) */
	LTT_EVENT_SYSCALL = 1,		/* kernel system calls: entry and exit */
};

struct ltt_event_rule_attr {
	char pattern[LTT_NAME_MAX];	/* event name or '*' glob */
	enum ltt_loglevel_type loglevel_type;
	int loglevel;			/* enum ltt_loglevel with RANGE/SINGLE; 0 with ALL */
	enum ltt_event_type type;	/* SYSCALL: kernel domain only */
	/*
	 * Added in 1.1 (a daemon of client protocol minor 7 or later; older
	 * ones: -LTT_ERR_NOT_SUPPORTED).  Passed in: the caller's for the
	 * call; returned (ltt_ctl_get_session()): inside the returned block.
	 * NULL or "": none.
	 *
	 * filter: LTTng's filter language (lttctl-enable-event(1)), at most
	 * LTT_FILTER_MAX bytes with its NUL; the rule takes an event only
	 * when the expression is true for it (and not at all an event that
	 * lacks a field the expression names).  User space only.
	 *
	 * exclusions: comma-separated event names or patterns the rule does
	 * not take ("prov:noisy*,prov:other"), at most LTT_EXCLUSIONS_MAX
	 * bytes with its NUL; only with a pattern that has a '*', and each
	 * must be matched by the pattern.  Returned sorted, without
	 * duplicates.  User space only.
	 */
	const char *filter LTT_RESERVED_ALIGN;
	const char *exclusions;
	uint8_t reserved[112] LTT_RESERVED_ALIGN;	/* zero */
};

struct ltt_session_info {
	char name[LTT_NAME_MAX];
	uint64_t id;
	char uuid[37];			/* text form */
	uid_t uid;			/* owner */
	bool active;
	bool snapshot;
	uint32_t live_timer_us;
	enum ltt_output_type output_type;
	char output[LTT_PATH_MAX];	/* directory or URL */
	int64_t creation_time;		/* seconds since the Epoch */
	uint8_t reserved[128] LTT_RESERVED_ALIGN;	/* zero */
};

struct ltt_channel_info {
	enum ltt_domain domain;
	struct ltt_channel_attr attr;
	bool enabled;
	uint64_t discarded_events;
	uint64_t lost_packets;
	/*
	 * The trace output's failure (a daemon of client protocol minor 3 and
	 * later; 0 from older ones): the consumer could not write the
	 * channel's files (disk full, directory removed, no descriptor left).
	 */
	int output_error;		/* 0, or the errno (positive) stopping it now */
	int64_t output_error_since;	/* then: when it began, seconds since the Epoch */
	uint64_t error_events;		/* of discarded_events: while the output failed */
	uint64_t error_packets;		/* of lost_packets: because the output failed */
	uint8_t reserved[128] LTT_RESERVED_ALIGN;	/* zero */
};

struct ltt_event_rule_info {
	enum ltt_domain domain;
	char channel[LTT_NAME_MAX];
	struct ltt_event_rule_attr attr;
	bool enabled;
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* The connection of a session's domain to its relay daemon. */
enum ltt_relay_state {
	LTT_RELAY_STATE_NONE = 0,	/* not connected yet: the domain has not started */
	LTT_RELAY_STATE_CONNECTED = 1,
	LTT_RELAY_STATE_LOST = 2,	/* could not connect, or lost: see error */
};

/* One domain's relay connection (ltt_ctl_relay_status()). */
struct ltt_relay_info {
	enum ltt_domain domain;
	enum ltt_relay_state state;
	int error;			/* LOST: the errno that ended it (positive) */
	char output_path[LTT_PATH_MAX];	/* the relay's directory for it, "" if unknown */
	uint64_t packets_sent;		/* packets the relay took whole */
	uint64_t bytes_sent;
	uint64_t packets_lost;		/* read from the buffers, never delivered */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/*
 * A snapshot output of a snapshot session (ltt_ctl_snapshot_add_output()),
 * or where one snapshot goes (ltt_ctl_snapshot_record()).  reserved is
 * zero when passed in, zeroed when returned.
 */
struct ltt_snapshot_output {
	uint32_t id;			/* set by the daemon; 0 when adding */
	char name[LTT_NAME_MAX];	/* "" when adding: "snapshot-ID" */
	uint64_t max_size;		/* bytes per snapshot, 0: no limit */
	enum ltt_output_type output_type;	/* LOCAL or NET */
	char output[LTT_PATH_MAX];	/* LOCAL: absolute directory; NET: the relay's URL */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* What one snapshot wrote (ltt_ctl_snapshot_record()). */
struct ltt_snapshot_result {
	char path[LTT_PATH_MAX];	/* the snapshot's own directory */
	uint64_t packets;		/* written */
	uint64_t bytes;
	uint64_t packets_dropped;	/* overwritten while copied: left out */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/*
 * A session's rotation schedule and trace chunks (ltt_ctl_rotation_info()).
 * reserved: zeroed when returned.
 */
struct ltt_rotation_info {
	uint64_t timer_us;		/* rotate every timer_us microseconds; 0: no timer */
	uint64_t size;			/* rotate each time this many bytes were written; 0: no */
	uint64_t chunk_id;		/* the current trace chunk's number, from 0 */
	char last_archive[LTT_PATH_MAX];	/* the newest archived chunk, "" if none */
	/*
	 * 4120, 1.1 (daemon client protocol 1.13): the schedule's rotations
	 * fail (LTT_ERR_*, positive; 0: they don't), since error_since
	 * (seconds since the Epoch).  CONSUMERD_STALLED: the owner's consumer
	 * does not answer; they are tried again each second.
	 */
	int64_t error_since LTT_RESERVED_ALIGN;
	int32_t error;				/* 4128 */
	uint8_t reserved[48] LTT_RESERVED_ALIGN;	/* 4136 */
};

/* What ltt_ctl_regenerate() writes again. */
enum ltt_regenerate_what {
	LTT_REGENERATE_METADATA = 0,	/* every trace's metadata, whole */
	LTT_REGENERATE_STATEDUMP = 1,	/* the kernel tracer's state dump (user space has none) */
};

/* One session in full: free the whole block with free(). */
struct ltt_session_detail {
	struct ltt_session_info info;
	size_t nr_channels;
	struct ltt_channel_info *channels;	/* points inside the block */
	size_t nr_rules;
	struct ltt_event_rule_info *rules;	/* points inside the block */
	uint8_t reserved[128] LTT_RESERVED_ALIGN;	/* zero */
};

/* A field of an available event (lttctl list -u -f). */
struct ltt_field_info {
	char name[LTT_NAME_MAX];
	char type[32];			/* "integer", "string", "text sequence", ... */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* An event a registered application can emit (lttctl list -u). */
struct ltt_tracepoint_info {
	pid_t pid;
	char procname[17];
	char name[LTT_NAME_MAX];	/* "provider:event" */
	int loglevel;
	size_t nr_fields;
	struct ltt_field_info *fields;	/* points inside the returned block */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/*
 * Context fields a channel adds to each of its events (ltt_ctl_add_context(),
 * lttctl add-context): LTTng's user-space and kernel contexts.  Each type
 * belongs to the user-space domain, the kernel domain or both
 * (ltt_ctl_context_in_domain()).
 */
enum ltt_context_type {
	LTT_CONTEXT_VPID = 1,		/* the process id, in its pid namespace */
	LTT_CONTEXT_VTID = 2,		/* the thread id, in its pid namespace */
	LTT_CONTEXT_PROCNAME = 3,	/* the thread's name (17 bytes) */
	LTT_CONTEXT_IP = 4,		/* the address of the tracepoint's call */
	LTT_CONTEXT_PTHREAD_ID = 5,	/* pthread_self() */
	LTT_CONTEXT_CPU_ID = 6,		/* the CPU the event was recorded on */
	LTT_CONTEXT_CGROUP_NS = 7,	/* namespace ids: inode numbers of /proc/TID/ns/... */
	LTT_CONTEXT_IPC_NS = 8,
	LTT_CONTEXT_MNT_NS = 9,
	LTT_CONTEXT_NET_NS = 10,
	LTT_CONTEXT_PID_NS = 11,
	LTT_CONTEXT_TIME_NS = 12,
	LTT_CONTEXT_USER_NS = 13,
	LTT_CONTEXT_UTS_NS = 14,
	LTT_CONTEXT_VUID = 15,		/* user and group ids, in the user namespace */
	LTT_CONTEXT_VEUID = 16,
	LTT_CONTEXT_VSUID = 17,
	LTT_CONTEXT_VGID = 18,
	LTT_CONTEXT_VEGID = 19,
	LTT_CONTEXT_VSGID = 20,
	LTT_CONTEXT_PERF_THREAD = 21,	/* a perf counter of the thread: perf_type, perf_config */
	/* The kernel domain's own (vpid ... vsgid above are in both domains, but ip, pthread_id, perf) */
	LTT_CONTEXT_PID = 22,		/* the process id (thread group), root pid namespace */
	LTT_CONTEXT_TID = 23,		/* the thread id, root pid namespace */
	LTT_CONTEXT_PPID = 24,		/* the parent process id, root pid namespace */
	LTT_CONTEXT_VPPID = 25,		/* the parent process id, in the thread's pid namespace */
	LTT_CONTEXT_PRIO = 26,		/* the scheduler priority (prio - MAX_RT_PRIO: 20 at nice 0) */
	LTT_CONTEXT_NICE = 27,		/* the nice value */
	LTT_CONTEXT_HOSTNAME = 28,	/* the UTS namespace's host name (65 bytes) */
	LTT_CONTEXT_INTERRUPTIBLE = 29,	/* 1: interrupts were enabled where the event fired */
	LTT_CONTEXT_PREEMPTIBLE = 30,	/* 1: nothing disabled preemption where it fired */
	LTT_CONTEXT_NEED_RESCHEDULE = 31,	/* 1: the thread's need-resched flag was set */
	LTT_CONTEXT_MIGRATABLE = 32,	/* 1: the thread could migrate (no migrate_disable()) */
	LTT_CONTEXT_UID = 33,		/* user and group ids, in the root user namespace */
	LTT_CONTEXT_EUID = 34,
	LTT_CONTEXT_SUID = 35,
	LTT_CONTEXT_GID = 36,
	LTT_CONTEXT_EGID = 37,
	LTT_CONTEXT_SGID = 38,
};

#define LTT_CONTEXT_NAME_MAX 128	/* bytes of a context's name, NUL included */

/* One context: fill it with ltt_ctl_context_parse(). */
struct ltt_context {
	enum ltt_context_type type;
	uint32_t perf_type;		/* PERF_THREAD: perf_event_attr.type */
	uint64_t perf_config;		/* PERF_THREAD: perf_event_attr.config */
	char name[LTT_CONTEXT_NAME_MAX];	/* "vpid", "perf:thread:instructions" */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* A context of a channel (ltt_ctl_list_contexts()). */
struct ltt_context_info {
	enum ltt_domain domain;
	char channel[LTT_NAME_MAX];
	struct ltt_context context;
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

struct ltt_ctl;

/**
 * ltt_ctl_default_rundir() - the run directory lttctl would use
 * @buf: where to write the path
 * @len: size of @buf
 *
 * $LTT_RUNDIR if set; /run/ltt for root, and for members of the tracing
 * group when the root daemon is running; $LTT_HOME/.ltt (LTT_HOME defaults
 * to HOME) otherwise.  Returns 0, -LTT_ERR_INVAL if @buf is too small or
 * no home directory is known.
 */
int ltt_ctl_default_rundir(char *buf, size_t len);

/**
 * ltt_ctl_connect() - connect to a session daemon and agree on a version
 * @rundir: the daemon's run directory, NULL for ltt_ctl_default_rundir()
 * @ret_ctl: the new connection, to close with ltt_ctl_disconnect()
 *
 * Every call on the connection, this one included, has a deadline: the
 * daemon must answer within the connection's timeout (LTT_CTL_TIMEOUT
 * seconds from the environment, LTT_CTL_DEFAULT_TIMEOUT_MS without it;
 * see ltt_ctl_set_timeout()).
 *
 * Returns 0; -LTT_ERR_SESSIOND_NOT_RUNNING when nobody listens;
 * -LTT_ERR_SESSIOND_PERM when the socket or the daemon refuses this user;
 * -LTT_ERR_SESSIOND_TIMEOUT when the daemon does not answer in time;
 * -LTT_ERR_INVAL for an invalid LTT_CTL_TIMEOUT;
 * -LTT_ERR_VERSION_MISMATCH; -LTT_ERR_NOMEM.
 */
int ltt_ctl_connect(const char *rundir, struct ltt_ctl **ret_ctl);

/* A call's deadline when LTT_CTL_TIMEOUT is not set. */
#define LTT_CTL_DEFAULT_TIMEOUT_MS 60000U

/**
 * ltt_ctl_timeout_from_env() - the timeout LTT_CTL_TIMEOUT asks for
 * @ret_ms: milliseconds; 0 means no deadline
 *
 * LTT_CTL_TIMEOUT is a number of seconds, 0 to 86400, with up to three
 * decimals ("2.5"); "0" removes the deadline.  Returns 0 (the default when
 * the variable is unset or empty) or -LTT_ERR_INVAL for any other value.
 */
int ltt_ctl_timeout_from_env(unsigned int *ret_ms);

/**
 * ltt_ctl_set_timeout() - each later call on @ctl must be answered within
 * @ms milliseconds (0: no deadline); a call past it returns
 * -LTT_ERR_SESSIOND_TIMEOUT and leaves the connection unusable (every
 * later call returns the same).  Returns 0 or -LTT_ERR_INVAL.
 */
int ltt_ctl_set_timeout(struct ltt_ctl *ctl, unsigned int ms);

/**
 * ltt_ctl_disconnect() - close a connection; accepts NULL
 */
void ltt_ctl_disconnect(struct ltt_ctl *ctl);

/**
 * ltt_ctl_rundir() - the run directory of a connection (borrowed string)
 */
const char *ltt_ctl_rundir(const struct ltt_ctl *ctl);

/**
 * ltt_ctl_spawn_sessiond() - start a personal session daemon and wait for it
 * @rundir: its run directory, NULL for the default
 *
 * Runs $LTT_SESSIOND_PATH, or the installed ltt-sessiond, with --daemonize;
 * returns once the daemon accepts connections.  Concurrent callers for one
 * run directory are serialized (a lock file, spawn.lock, in it): the first
 * starts the daemon, the others find it answering and start none.  Waits
 * at most the LTT_CTL_TIMEOUT deadline for the daemon (which is killed
 * past it).  Returns 0 (started), 1 (none started: one already answers,
 * started meanwhile by another caller or by hand) or
 * -LTT_ERR_SESSIOND_SPAWN.
 */
int ltt_ctl_spawn_sessiond(const char *rundir);

/**
 * ltt_ctl_session_attr_init() - defaults: automatic name, local output
 */
void ltt_ctl_session_attr_init(struct ltt_session_attr *attr);

/**
 * ltt_ctl_channel_attr_init() - the defaults of a domain's channels
 * @attr: to fill
 * @domain: LTT_DOMAIN_KERNEL or LTT_DOMAIN_USER
 *
 * Returns 0 or -LTT_ERR_DOMAIN.
 */
int ltt_ctl_channel_attr_init(struct ltt_channel_attr *attr, enum ltt_domain domain);

/**
 * ltt_ctl_event_rule_attr_init() - an empty rule: no pattern, every log
 * level, tracepoints; reserved room zeroed
 */
void ltt_ctl_event_rule_attr_init(struct ltt_event_rule_attr *attr);

/**
 * ltt_ctl_create_session() - create a tracing session
 * @ctl: the connection
 * @attr: what to create; an empty name gets "auto-YYYYmmdd-HHMMSS", an
 *        empty local output gets $LTT_HOME/ltt-traces/NAME-YYYYmmdd-HHMMSS
 *        (resolved by the daemon from client protocol 1.4 on: the
 *        caller's $LTT_HOME goes with the request)
 * @ret_info: if not NULL, the session as created (name, output, uuid)
 *
 * Returns 0, -LTT_ERR_SESSION_EXISTS, -LTT_ERR_SESSION_NAME, -LTT_ERR_URL,
 * -LTT_ERR_OUTPUT_PATH, -LTT_ERR_LIVE_NEEDS_NET, -LTT_ERR_SNAPSHOT_LIVE,
 * -LTT_ERR_LIMIT, -LTT_ERR_NOT_SUPPORTED (a non-zero reserved byte in
 * @attr: see the ABI rules above), or a connection error.
 */
int ltt_ctl_create_session(struct ltt_ctl *ctl, const struct ltt_session_attr *attr,
			   struct ltt_session_info *ret_info);

/**
 * ltt_ctl_destroy_session() - stop (if needed) and destroy a session
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_PERM, or a connection error.
 */
int ltt_ctl_destroy_session(struct ltt_ctl *ctl, const char *session);

/**
 * ltt_ctl_start_session() - start tracing
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SESSION_STARTED,
 * -LTT_ERR_NO_CHANNEL, -LTT_ERR_PERM, or a connection error.
 */
int ltt_ctl_start_session(struct ltt_ctl *ctl, const char *session);

/**
 * ltt_ctl_stop_session() - stop tracing
 * @wait: return only once everything recorded is on disk
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SESSION_NOT_STARTED,
 * -LTT_ERR_PERM, or a connection error.
 */
int ltt_ctl_stop_session(struct ltt_ctl *ctl, const char *session, bool wait);

/**
 * ltt_ctl_data_pending() - is data a session recorded still on its way
 * to its relay daemon?
 * @ret_pending: true while some is; always false for a local session
 *
 * For a stopped session: once it says false, the relay has everything.
 * Answers at once (lttctl polls it after stop and before destroy).
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SESSION_ACTIVE (an
 * active session always has data pending), -LTT_ERR_RELAY_LOST (the
 * connection to the relay was lost: nothing more will arrive),
 * -LTT_ERR_NOT_SUPPORTED (a daemon older than client protocol 1.2), or a
 * connection error.
 */
int ltt_ctl_data_pending(struct ltt_ctl *ctl, const char *session, bool *ret_pending);

/**
 * ltt_ctl_relay_status() - the relay connections of a streaming session,
 * one per domain that has started
 * @ret_relays: array of @ret_count entries, free() it (none for a local
 *              session, or one never started)
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED (a daemon
 * older than client protocol 1.2), or a connection error.
 */
int ltt_ctl_relay_status(struct ltt_ctl *ctl, const char *session,
			 struct ltt_relay_info **ret_relays, size_t *ret_count);

/*
 * Trace chunks (client protocol 1.4; an older daemon: -LTT_ERR_NOT_SUPPORTED).
 * A local session writes into its current trace chunk; a rotation closes
 * it at a packet boundary (nothing lost or written twice) and archives it
 * as OUTPUT/archives/BEGIN-END-N/, a complete trace of its own.
 */

/**
 * ltt_ctl_rotate_session() - archive the current trace chunk, start the next
 * @ret_archive: @len bytes: the archive's path
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_ROTATE_NEVER_STARTED,
 * -LTT_ERR_ROTATE_OUTPUT (not a local session), -LTT_ERR_ROTATE_SNAPSHOT,
 * -LTT_ERR_ROTATE_FAILED (no trace could move: nothing changed),
 * -LTT_ERR_ROTATE_INCOMPLETE (some could not: the old chunk is kept, not
 * archived, until a rotation moves them), -LTT_ERR_OUTPUT_* (the archive directory),
 * -LTT_ERR_INVAL (@len too small), or a connection error.
 */
int ltt_ctl_rotate_session(struct ltt_ctl *ctl, const char *session, char *ret_archive,
			   size_t len);

/**
 * ltt_ctl_enable_rotation() - rotate every @timer_us microseconds and/or
 * each time @size bytes were written (0: that schedule unchanged; not both)
 *
 * Returns 0, -LTT_ERR_ROTATION_VALUE (timer under 100000 us, size under
 * 65536 bytes, both 0), -LTT_ERR_ROTATE_OUTPUT, -LTT_ERR_ROTATE_SNAPSHOT,
 * -LTT_ERR_SESSION_NOT_FOUND, or a connection error.
 */
int ltt_ctl_enable_rotation(struct ltt_ctl *ctl, const char *session, uint64_t timer_us,
			    uint64_t size);

/**
 * ltt_ctl_disable_rotation() - remove the timer and/or size schedule
 *
 * Returns 0, -LTT_ERR_ROTATION_NOT_SET (one asked for is not set: nothing
 * changed), -LTT_ERR_INVAL (neither asked for), or as above.
 */
int ltt_ctl_disable_rotation(struct ltt_ctl *ctl, const char *session, bool timer, bool size);

/**
 * ltt_ctl_clear_session() - discard what the session recorded in its
 * current chunk and its buffers; recording goes on.  Archives stay.
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_ROTATE_OUTPUT,
 * -LTT_ERR_NOT_SUPPORTED (a snapshot session), -LTT_ERR_CONSUMERD, or a
 * connection error.
 */
int ltt_ctl_clear_session(struct ltt_ctl *ctl, const char *session);

/**
 * ltt_ctl_regenerate() - write the session's metadata again whole (after a
 * clock change), or a state dump
 *
 * Returns 0, -LTT_ERR_ROTATE_OUTPUT (metadata of a session without
 * output), -LTT_ERR_REGEN_RELAY (metadata, a relay older than 2.13),
 * -LTT_ERR_STATEDUMP_DOMAIN (a state dump without kernel channels: user
 * space has none), -LTT_ERR_SESSION_NOT_STARTED (a state dump of a
 * stopped session), -LTT_ERR_STATEDUMP_KERNEL (an older module),
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_CONSUMERD, or a connection error.
 */
int ltt_ctl_regenerate(struct ltt_ctl *ctl, const char *session, enum ltt_regenerate_what what);

/**
 * ltt_ctl_rotation_info() - the session's rotation schedule and chunks
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED, or a
 * connection error.
 */
int ltt_ctl_rotation_info(struct ltt_ctl *ctl, const char *session,
			  struct ltt_rotation_info *ret_info);

/**
 * ltt_ctl_snapshot_add_output() - give a snapshot session its snapshot
 * output (one per session, as LTTng)
 * @output: name ("" for "snapshot-ID"), max_size, output_type LOCAL and
 *          an absolute directory; id and reserved 0
 * @ret_output: the output as added (its id), or NULL
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_OUTPUT_EXISTS, -LTT_ERR_SNAPSHOT_OUTPUT_NAME,
 * -LTT_ERR_OUTPUT_PATH, -LTT_ERR_SNAPSHOT_NET, -LTT_ERR_INVAL,
 * -LTT_ERR_NOT_SUPPORTED (a daemon older than client protocol 1.4, or a
 * non-zero reserved byte), or a connection error.
 */
int ltt_ctl_snapshot_add_output(struct ltt_ctl *ctl, const char *session,
				const struct ltt_snapshot_output *output,
				struct ltt_snapshot_output *ret_output);

/**
 * ltt_ctl_snapshot_del_output() - remove a snapshot session's output, by
 * @id (not 0) or else by @name
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_OUTPUT_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED, or a
 * connection error.
 */
int ltt_ctl_snapshot_del_output(struct ltt_ctl *ctl, const char *session, uint32_t id,
				const char *name);

/**
 * ltt_ctl_snapshot_list_outputs() - a snapshot session's outputs
 * @ret_outputs: array of @ret_count entries (0 or 1 today), free() it
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_NOT_SUPPORTED, or a connection error.
 */
int ltt_ctl_snapshot_list_outputs(struct ltt_ctl *ctl, const char *session,
				  struct ltt_snapshot_output **ret_outputs, size_t *ret_count);

/**
 * ltt_ctl_snapshot_record() - write what a snapshot session's buffers hold
 * now as a complete trace in a new directory, OUTPUT/NAME-YYYYmmdd-HHMMSS-N
 * (N counts the session's snapshots), without stopping tracing or
 * consuming the buffers
 * @output: NULL for the session's output; else its non-empty fields
 *          override it: name, max_size (not 0), and output_type LOCAL
 *          with a directory instead of the session's output
 * @ret: the snapshot's directory and what it holds, or NULL
 *
 * Works while the session is active or stopped.  Returns 0,
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_SNAPSHOT_NOT_SNAPSHOT,
 * -LTT_ERR_SNAPSHOT_NO_OUTPUT, -LTT_ERR_SNAPSHOT_TOO_SMALL,
 * -LTT_ERR_SNAPSHOT_KERNEL, -LTT_ERR_SNAPSHOT_NET, -LTT_ERR_SNAPSHOT_EXISTS,
 * -LTT_ERR_OUTPUT_PATH, an -LTT_ERR_OUTPUT_* error of the file system,
 * -LTT_ERR_CONSUMERD, -LTT_ERR_NOT_SUPPORTED, or a connection error.
 */
int ltt_ctl_snapshot_record(struct ltt_ctl *ctl, const char *session,
			    const struct ltt_snapshot_output *output,
			    struct ltt_snapshot_result *ret);

/**
 * ltt_ctl_list_sessions() - the sessions this user can see
 * @ret_sessions: array of @ret_count entries, free() it
 * @ret_count: number of entries
 */
int ltt_ctl_list_sessions(struct ltt_ctl *ctl, struct ltt_session_info **ret_sessions,
			  size_t *ret_count);

/**
 * ltt_ctl_get_session() - one session with its channels and event rules
 * @ret_detail: one heap block, free() it
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_PERM, or a connection error.
 */
int ltt_ctl_get_session(struct ltt_ctl *ctl, const char *session,
			struct ltt_session_detail **ret_detail);

/**
 * ltt_ctl_enable_channel() - create a channel, or enable a disabled one
 * @attr: for an existing channel only the name counts, unless @attr differs
 *        from the channel's attributes, which is -LTT_ERR_CHANNEL_ATTR
 *
 * Returns 0, -LTT_ERR_CHANNEL_ENABLED, -LTT_ERR_CHANNEL_NAME,
 * -LTT_ERR_SUBBUF_SIZE, -LTT_ERR_SUBBUF_COUNT, -LTT_ERR_BUFFER_TYPE,
 * -LTT_ERR_BUFFER_TYPE_MISMATCH, -LTT_ERR_TRACEFILE_SIZE,
 * -LTT_ERR_KERNEL_NEEDS_ROOT, -LTT_ERR_CHANNEL_ACTIVE_ADD, -LTT_ERR_LIMIT,
 * -LTT_ERR_NOT_SUPPORTED (a non-zero reserved byte in @attr)...
 */
int ltt_ctl_enable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			   const struct ltt_channel_attr *attr);

/**
 * ltt_ctl_disable_channel() - stop recording into a channel
 *
 * Returns 0, -LTT_ERR_CHANNEL_NOT_FOUND, -LTT_ERR_CHANNEL_DISABLED...
 */
int ltt_ctl_disable_channel(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			    const char *channel);

/**
 * ltt_ctl_enable_event() - add an event rule, or enable a disabled one
 * @channel: NULL for the default channel, created with the domain's
 *           defaults if it does not exist
 *
 * A rule is its pattern, type, log level, filter and exclusions: the same
 * pattern with another filter is another rule.
 *
 * Returns 0, -LTT_ERR_EVENT_NAME, -LTT_ERR_EVENT_EXISTS, -LTT_ERR_LOGLEVEL,
 * -LTT_ERR_CHANNEL_NOT_FOUND (a named channel must exist), -LTT_ERR_FILTER,
 * -LTT_ERR_EXCLUSION, -LTT_ERR_FILTER_KERNEL (a daemon without kernel filters),
 * -LTT_ERR_FILTER_KERNEL_MODULE, _FLOAT, _CONTEXT, _TYPE (doc/filters.md),
 * -LTT_ERR_FILTER_LIMIT,
 * -LTT_ERR_NOT_SUPPORTED (a non-zero reserved byte in @attr; a filter or
 * exclusions and a daemon older than client protocol minor 7), ...
 */
int ltt_ctl_enable_event(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			 const char *channel, const struct ltt_event_rule_attr *attr);

/**
 * ltt_ctl_disable_event() - disable the rules of a pattern
 * @channel: NULL for the default channel
 * @pattern: the rule's pattern exactly, or NULL for every rule of the channel
 *           (every rule of that pattern, whatever its filter or exclusions)
 *
 * Returns 0, -LTT_ERR_EVENT_NOT_FOUND, -LTT_ERR_CHANNEL_NOT_FOUND...
 */
int ltt_ctl_disable_event(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			  const char *channel, const char *pattern);

/**
 * ltt_ctl_context_parse() - the context called @name: "vpid", "vtid",
 * "procname", "ip", "pthread_id", "cpu_id", "cgroup_ns" ... "uts_ns",
 * "vuid" ... "vsgid", "perf:thread:COUNTER" (ltt_ctl_context_list_name()
 * lists them) or "perf:thread:raw:rN:NAME" (N: the raw event's number in
 * hexadecimal; NAME: letters, digits, '_')
 * @ret: zeroed, then filled; set only on success
 *
 * No connection needed.  Returns 0 or -LTT_ERR_CONTEXT_TYPE.
 */
int ltt_ctl_context_parse(const char *name, struct ltt_context *ret);

/**
 * ltt_ctl_context_list_name() - the @i-th context name (0, 1, ...), NULL
 * past the last; the raw counters appear as "perf:thread:raw:rN:NAME".
 * The string is static.
 */
const char *ltt_ctl_context_list_name(size_t i);

/**
 * ltt_ctl_context_domain_list_name() - as ltt_ctl_context_list_name(),
 * only the context types of @domain (LTT_DOMAIN_KERNEL: pid, tid, ppid,
 * prio, nice, hostname, ...; LTT_DOMAIN_USER: ip, pthread_id, the perf
 * counters, ...); NULL past the last or for another domain
 */
const char *ltt_ctl_context_domain_list_name(enum ltt_domain domain, size_t i);

/**
 * ltt_ctl_context_in_domain() - may @context (from ltt_ctl_context_parse())
 * be added to the channels of @domain?
 */
bool ltt_ctl_context_in_domain(const struct ltt_context *context, enum ltt_domain domain);

/**
 * ltt_ctl_add_context() - add a context field to every event of a channel
 * @channel: the channel's name; NULL or "": every channel of the domain in
 *           the session (the default channel is created when there is
 *           none, as LTTng does)
 * @context: from ltt_ctl_context_parse() (borrowed)
 *
 * Contexts are added before the session's first start (the layout of its
 * traces is fixed then).  Returns 0, -LTT_ERR_CONTEXT_TYPE,
 * -LTT_ERR_CONTEXT_EXISTS, -LTT_ERR_CONTEXT_STARTED,
 * -LTT_ERR_PERF_UNAVAILABLE, -LTT_ERR_PERF_DENIED,
 * -LTT_ERR_CHANNEL_NOT_FOUND, -LTT_ERR_LIMIT, -LTT_ERR_NOT_SUPPORTED (the
 * kernel domain, or a daemon older than contexts), or a connection error.
 */
int ltt_ctl_add_context(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			const char *channel, const struct ltt_context *context);

/**
 * ltt_ctl_list_contexts() - the contexts of every channel of a session, in
 * channel order, each channel's in the order they were added
 * @ret_contexts: array of @ret_count entries, free() it (NULL when 0)
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED (a daemon
 * older than contexts), or a connection error.
 */
int ltt_ctl_list_contexts(struct ltt_ctl *ctl, const char *session,
			  struct ltt_context_info **ret_contexts, size_t *ret_count);

/**
 * ltt_ctl_disable_event_rule() - disable exactly one rule (since 1.1)
 * @channel: NULL for the default channel
 * @attr: the rule: pattern, type, log level, filter and exclusions all
 *        count (a rule's identity), as given to ltt_ctl_enable_event()
 *
 * Returns 0, -LTT_ERR_EVENT_NOT_FOUND (no enabled rule is identical),
 * -LTT_ERR_CHANNEL_NOT_FOUND, -LTT_ERR_FILTER, -LTT_ERR_EXCLUSION,
 * -LTT_ERR_NOT_SUPPORTED (a daemon older than client protocol minor 7)...
 */
int ltt_ctl_disable_event_rule(struct ltt_ctl *ctl, const char *session,
			       enum ltt_domain domain, const char *channel,
			       const struct ltt_event_rule_attr *attr);

/**
 * ltt_ctl_filter_check() - does @filter parse as a filter expression?
 * (since 1.1; no connection needed)
 * @filter: the expression (lttctl-enable-event(1)); "" is no filter
 * @msg: on -LTT_ERR_FILTER, what is wrong: a message, the expression and
 *       a line with a '^' under the bad token; may be NULL
 * @size: bytes of @msg (the text is cut to it)
 *
 * Any thread.  Returns 0, -LTT_ERR_FILTER or -LTT_ERR_NOMEM.
 */
int ltt_ctl_filter_check(const char *filter, char *msg, size_t size);

/**
 * ltt_ctl_list_tracepoints() - the events registered applications can emit
 * @with_fields: fill in the fields of each event
 * @ret_tps: array of @ret_count entries with their fields, one heap block:
 *           free() it
 *
 * Returns 0, -LTT_ERR_NOMEM, or a connection error.
 */
int ltt_ctl_list_tracepoints(struct ltt_ctl *ctl, bool with_fields,
			     struct ltt_tracepoint_info **ret_tps, size_t *ret_count);

/**
 * ltt_ctl_list_events() - the events that can be enabled in @domain: the
 * registered applications' tracepoints (user), the kernel tracer's
 * tracepoints or system calls (kernel; pid 0, procname "", loglevel -1)
 * @type: LTT_EVENT_SYSCALL lists system call names (kernel only)
 * @with_fields: fill in the fields of each event (of a system call: its
 *               entry's arguments)
 * @ret_tps: as for ltt_ctl_list_tracepoints()
 *
 * Returns 0, -LTT_ERR_EVENT_TYPE, -LTT_ERR_NOMEM, the reason the daemon
 * gives when it can't serve @domain (-LTT_ERR_KERNEL_NEEDS_ROOT, ...),
 * -LTT_ERR_NOT_SUPPORTED (a daemon too old for anything but user-space
 * tracepoints), or a connection error.
 */
int ltt_ctl_list_events(struct ltt_ctl *ctl, enum ltt_domain domain, enum ltt_event_type type,
			bool with_fields, struct ltt_tracepoint_info **ret_tps, size_t *ret_count);

/**
 * ltt_ctl_daemon_version() - the daemon's package version string
 * @buf: where to write it
 * @len: size of @buf
 */
int ltt_ctl_daemon_version(struct ltt_ctl *ctl, char *buf, size_t len);

/*
 * Process trackers (client protocol minor 9; lttctl track, untrack): per
 * session and domain, one tracker per process attribute.  A tracker
 * includes every process (ALL, the default), none (NONE), or those whose
 * attribute is in its set of ids (SET, never empty).  A program records
 * for a session when every tracker of the session's domain includes it.
 * The user-space domain has VPID, VUID and VGID; the kernel domain (client
 * protocol minor 12) all six, where a kernel event is recorded when the
 * task that runs the probe passes every tracker.
 */
enum ltt_tracker_type {
	LTT_TRACKER_VPID = 0,		/* the process id (in its pid namespace) */
	LTT_TRACKER_VUID = 1,		/* the user id (in its user namespace) */
	LTT_TRACKER_VGID = 2,		/* the group id (in its user namespace) */
	LTT_TRACKER_PID = 3,		/* kernel: the process id in the initial namespace */
	LTT_TRACKER_UID = 4,		/* kernel: the user id in the initial namespace */
	LTT_TRACKER_GID = 5,		/* kernel: the group id in the initial namespace */
};

/* Tracker types: the user-space domain's are the first LTT_TRACKER_NR_USER. */
#define LTT_TRACKER_NR 6
#define LTT_TRACKER_NR_USER 3

enum ltt_tracker_policy {
	LTT_TRACKER_ALL = 0,
	LTT_TRACKER_NONE = 1,
	LTT_TRACKER_SET = 2,
};

/* The most ids a tracker's set holds. */
#define LTT_TRACKER_MAX_IDS 1024

/**
 * ltt_ctl_track() - add ids to a tracker's set; a tracker that includes
 * all processes or none first becomes an empty set (so tracking one pid
 * on a fresh session includes that pid only)
 * @values: @nr decimal ids, or for VUID and VGID user and group names,
 *          which the session daemon resolves now (a later change of the
 *          name's id does not follow)
 * @ret_changed: NULL, or @nr booleans: false for a value whose id was
 *               already in the set (or given twice)
 *
 * All or nothing: on any error the tracker is unchanged.  An active
 * session's programs follow before this returns (doc/trackers.md).
 * Returns 0, -LTT_ERR_TRACKER_VALUE (not a valid id), -LTT_ERR_TRACKER_NAME
 * (no such user or group), -LTT_ERR_TRACKER_LIMIT (more than
 * LTT_TRACKER_MAX_IDS, or @nr 0), -LTT_ERR_NOT_SUPPORTED (a daemon before
 * protocol minor 9, or 12 for the kernel domain and the kernel trackers),
 * -LTT_ERR_TRACKER_DOMAIN (PID, UID or GID in the user-space domain),
 * -LTT_ERR_TRACKER_KERNEL (a kernel tracer too old to track), -LTT_ERR_SESSION_NOT_FOUND...
 */
int ltt_ctl_track(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		  enum ltt_tracker_type type, const char *const *values, size_t nr,
		  bool *ret_changed);

/**
 * ltt_ctl_untrack() - remove ids from a tracker's set; a set left empty
 * includes no process (NONE)
 * @ret_changed: NULL, or @nr booleans: false for a value whose id was not
 *               in the set
 *
 * Returns as ltt_ctl_track(), and -LTT_ERR_TRACKER_POLICY when the
 * tracker includes all processes or none (it has no set to remove from).
 */
int ltt_ctl_untrack(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
		    enum ltt_tracker_type type, const char *const *values, size_t nr,
		    bool *ret_changed);

/**
 * ltt_ctl_tracker_set_policy() - make a tracker include every process
 * (LTT_TRACKER_ALL: track --all) or none (LTT_TRACKER_NONE: untrack
 * --all); its set is dropped
 *
 * Returns 0, -LTT_ERR_INVAL (LTT_TRACKER_SET or an unknown value), or as
 * ltt_ctl_track().
 */
int ltt_ctl_tracker_set_policy(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			       enum ltt_tracker_type type, enum ltt_tracker_policy policy);

/**
 * ltt_ctl_list_tracker() - a tracker's policy and, for SET, its ids
 * @ret_ids: NULL when the set is empty, else @ret_nr ids in increasing
 *           order: free() it
 *
 * Returns 0, -LTT_ERR_NOT_SUPPORTED (see ltt_ctl_track()),
 * -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOMEM...
 */
int ltt_ctl_list_tracker(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			 enum ltt_tracker_type type, enum ltt_tracker_policy *ret_policy,
			 uint32_t **ret_ids, size_t *ret_nr);

/**
 * ltt_tracker_type_name() - "vpid", "vuid", "vgid", "pid", "uid", "gid",
 * or "unknown"
 */
const char *ltt_tracker_type_name(enum ltt_tracker_type type);

/* A session saved or loaded, and its configuration file. */
struct ltt_session_file {
	char name[LTT_NAME_MAX];	/* loaded: the name it got (--override-name) */
	char path[LTT_PATH_MAX];	/* the configuration file */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zeroed */
};

/* What ltt_ctl_save_sessions() saves where: ltt_ctl_save_opts_init() first. */
struct ltt_save_opts {
	const char *session;	/* NULL: every session of the caller's */
	/*
	 * NULL: $LTT_HOME/.ltt/sessions, one NAME.ltt file per session.  A
	 * directory (existing, or a path not ending in ".ltt": created) gets
	 * the same; a file (existing, or ending in ".ltt") holds them all.
	 */
	const char *path;
	bool force;		/* replace existing files */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* What ltt_ctl_load_sessions() loads from where: ltt_ctl_load_opts_init() first. */
struct ltt_load_opts {
	const char *session;	/* NULL: every session found */
	/*
	 * A file, or a directory whose *.ltt files are read.  NULL: the
	 * user's $LTT_HOME/.ltt/sessions, then the system's
	 * SYSCONFDIR/ltt/sessions (a session in both: the user's).
	 */
	const char *path;
	const char *override_url;	/* NULL, or every loaded session's output: file:///PATH, net://... */
	const char *override_name;	/* NULL, or the name of the one session loaded */
	bool force;		/* destroy an existing session of the same name first */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/**
 * ltt_ctl_save_opts_init() - no session (all), default path, no force
 */
void ltt_ctl_save_opts_init(struct ltt_save_opts *opts);

/**
 * ltt_ctl_load_opts_init() - no session (all), default paths, no override
 */
void ltt_ctl_load_opts_init(struct ltt_load_opts *opts);

/**
 * ltt_ctl_save_sessions() - write sessions' configurations as XML
 * (DATADIR/ltt/xml/session.xsd, doc/save-load.md): outputs, live timer,
 * snapshot flag, whether started, channels with every attribute and
 * state, event rules with type, pattern, log level and state
 * @opts: what and where (borrowed)
 * @ret_files: what was written, @ret_count entries (0 when the caller
 *             has no session): free() it
 *
 * Every target is checked before any is written; each file is replaced
 * atomically.  Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_CONFIG_EXISTS
 * (a file exists and not @opts->force), -LTT_ERR_CONFIG_IO,
 * -LTT_ERR_NOT_SUPPORTED (non-zero reserved bytes), or a connection
 * error; ltt_ctl_error_detail() names the file or session.
 */
int ltt_ctl_save_sessions(struct ltt_ctl *ctl, const struct ltt_save_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count);

/**
 * ltt_ctl_load_sessions() - create sessions from saved configurations
 * @opts: what and from where (borrowed)
 * @ret_files: what was created, @ret_count entries: free() it
 *
 * All or nothing: every file is parsed, validated against the schema and
 * checked, the overrides applied and the names checked against the
 * existing sessions before anything is created; if a creation fails
 * midway, what this call created is destroyed and a session it replaced
 * (@opts->force) is created again from its configuration.  A session
 * saved started is started.  Returns 0, -LTT_ERR_CONFIG_MALFORMED,
 * -LTT_ERR_CONFIG_INVALID, -LTT_ERR_CONFIG_IO, -LTT_ERR_CONFIG_NOT_FOUND,
 * -LTT_ERR_CONFIG_OVERRIDE_NAME, -LTT_ERR_URL (@opts->override_url),
 * -LTT_ERR_SESSION_EXISTS (not @opts->force), the daemon's refusal of a
 * creation, -LTT_ERR_NOT_SUPPORTED, or a connection error;
 * ltt_ctl_error_detail() says where ("FILE:LINE: what").
 */
int ltt_ctl_load_sessions(struct ltt_ctl *ctl, const struct ltt_load_opts *opts,
			  struct ltt_session_file **ret_files, size_t *ret_count);

/**
 * ltt_ctl_error_detail() - what the last failed save or load on @ctl was
 * about ("FILE:LINE: what is wrong", the file, the session): borrowed,
 * valid until the next call on @ctl; "" if nothing to add
 */
const char *ltt_ctl_error_detail(const struct ltt_ctl *ctl);

/**
 * ltt_loglevel_parse() - "WARNING", "warning", "LTT_LOGLEVEL_WARNING" or "4"
 * @ret_level: the level
 *
 * Returns 0 or -LTT_ERR_LOGLEVEL.
 */
int ltt_loglevel_parse(const char *text, int *ret_level);

/**
 * ltt_loglevel_name() - "WARNING" for 4; "UNKNOWN" out of range
 */
const char *ltt_loglevel_name(int level);

/**
 * ltt_domain_name() - "kernel", "user" or "none"
 */
const char *ltt_domain_name(enum ltt_domain domain);

/**
 * ltt_buffer_type_name() - "per-uid", "per-pid", "global" or "default"
 */
const char *ltt_buffer_type_name(enum ltt_buffer_type type);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_H */
