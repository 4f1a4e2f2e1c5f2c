/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-session.h - libltt-ctl, sessions, their channels and event rules:
 * create, start, stop, destroy, list, get; enable and disable channels and
 * events; the events available (tracepoints, kernel events).
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_SESSION_H
#define LTT_CTL_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

/* What to create: see ltt_ctl_create_session(). */
/*
 * TLS 1.3 to the relay of a tls:// output: absolute paths of PEM files,
 * which the session daemon's consumer opens (strings borrowed).
 */
struct ltt_session_tls {
	const char *cert;	/* the session's certificate, which the relay's CA signed */
	const char *key;	/* its private key */
	const char *ca;		/* the CA that signed the relay's certificate */
};

/*
 * The format a session's traces are written in (LTTng 2.15's
 * --trace-format): the packets are the same bytes, the metadata TSDL
 * (CTF 1.8) or JSON (CTF 2).  DEFAULT: the session daemon's
 * (ltt-sessiond --default-trace-format).
 */
enum ltt_trace_format {
	LTT_TRACE_FORMAT_DEFAULT = 0,
	LTT_TRACE_FORMAT_CTF_1_8 = 1,
	LTT_TRACE_FORMAT_CTF_2 = 2,
};

struct ltt_session_attr {
	char name[LTT_NAME_MAX];	/* "" for an automatic name */
	enum ltt_output_type output_type;
	/* LOCAL: absolute directory, "" for $LTT_HOME/ltt-traces/NAME-DATE.
	 * NET: a net://, net4:// or net6:// URL, or tls://, tls4://, tls6://
	 * (then @tls is needed). */
	char output[LTT_PATH_MAX];
	bool snapshot;
	uint32_t live_timer_us;	/* 0: not live */
	/* NULL, or the files of tls:// outputs (the session's and a snapshot
	 * session's later ones); borrowed for the call */
	const struct ltt_session_tls *tls LTT_RESERVED_ALIGN;
	/* NULL or "": buffers in memory only; else an absolute directory where
	 * the user-space ring buffers and metadata are files, for ltt-crash
	 * (lttng-crash) to read after a crash (added in 1.31); borrowed */
	const char *shm_path LTT_RESERVED_ALIGN;
	/* LOCAL with an empty output: under the home's lttng-traces, where
	 * LTTng's own clients put it (lttctl run as lttng), not ltt-traces
	 * (added with client protocol 1.36's library, which resolves it
	 * whatever the daemon's version) */
	bool lttng_traces;
	/*
	 * enum ltt_trace_format (added in 1.38: a daemon of client protocol
	 * minor 38 or later; older ones write CTF 1.8 only, and a client
	 * refuses CTF_2 toward them with TRACE_FORMAT_DAEMON)
	 */
	uint8_t trace_format;
	uint8_t reserved[110];	/* zero */
};

/*
 * When a channel's buffers take their memory.  DEFAULT: the domain's
 * (user space: ON_DEMAND; the kernel: PREALLOCATE, the only one its
 * backends have).
 */
enum ltt_buffer_preallocation {
	LTT_PREALLOC_DEFAULT = 0,
	LTT_PREALLOC_PREALLOCATE = 1,	/* every page, when the buffers are created */
	LTT_PREALLOC_ON_DEMAND = 2,	/* a CPU's pages as it first writes into them */
};

/*
 * How many ring buffers a channel has per owner (LTTng 2.14's buffer
 * allocation policy): one per CPU, or one written from every CPU.  User
 * space only takes PER_CHANNEL; the kernel refuses it (its backends'
 * buffers are per CPU).
 */
enum ltt_buffer_allocation {
	LTT_ALLOC_PER_CPU = 0,		/* a ring buffer per CPU (the default) */
	LTT_ALLOC_PER_CHANNEL = 1,	/* one ring buffer for the whole channel */
};

/*
 * When a user-space channel's consumer gives back the memory of what it
 * read, by itself (doc/memory.md).  OFF: only when asked
 * (ltt_ctl_reclaim_memory()).
 */
enum ltt_auto_reclaim {
	LTT_AUTO_RECLAIM_OFF = 0,
	LTT_AUTO_RECLAIM_CONSUMED = 1,	/* each sub-buffer as soon as it is read */
	LTT_AUTO_RECLAIM_OLDER_THAN = 2,	/* those closed auto_reclaim_us ago */
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
	/*
	 * The consumer syncs each packet and its index entry to the disk
	 * (fdatasync) before it counts the packet written: a power loss keeps
	 * every packet written.  Local sessions that record to files only
	 * (a daemon of client protocol minor 16 and later).
	 */
	bool fsync LTT_RESERVED_ALIGN;	/* 312, added in 1.16 */
	/*
	 * 313, added in 1.23: when the pages of the channel's buffers are
	 * taken, an enum ltt_buffer_preallocation (--buffer-preallocation)
	 */
	uint8_t preallocation;
	/*
	 * 314, added in 1.25: an enum ltt_buffer_allocation
	 * (--buffer-allocation)
	 */
	uint8_t allocation;
	/*
	 * 315 and 320, added in 1.27: an enum ltt_auto_reclaim
	 * (--auto-reclaim-memory), and for OLDER_THAN the age in
	 * microseconds (not 0; else 0).  User space, discard mode only.
	 */
	uint8_t auto_reclaim;
	uint8_t pad1[4];		/* zero */
	uint64_t auto_reclaim_us LTT_RESERVED_ALIGN;
	/*
	 * 328, added in 1.30 (--blocking-timeout): how long a program that
	 * allows it (LTT_UST_ALLOW_BLOCKING, LTTNG_UST_ALLOW_BLOCKING) waits
	 * for room when the channel is full, before it drops the event, in
	 * microseconds: 0 never waits (the default),
	 * LTT_BLOCKING_TIMEOUT_INF as long as it takes, else at most
	 * LTT_BLOCKING_TIMEOUT_MAX_US.  User space only; in overwrite mode
	 * the channel never runs out of room, so nothing waits.
	 */
	uint64_t blocking_timeout_us LTT_RESERVED_ALIGN;
	uint8_t reserved[104] LTT_RESERVED_ALIGN;	/* zero */
};

/* ltt_channel_attr.blocking_timeout_us: wait as long as it takes ("inf") */
#define LTT_BLOCKING_TIMEOUT_INF UINT64_MAX
/* its largest finite value: LTTng's, 2^31 - 1 ms (its tracer's poll() takes an int) */
#define LTT_BLOCKING_TIMEOUT_MAX_US ((uint64_t)2147483647 * 1000 + 999)

/* What kind of event a rule's pattern names. */
enum ltt_event_type {
	LTT_EVENT_TRACEPOINT = 0,	/* tracepoints (user space, kernel) */
	LTT_EVENT_SYSCALL = 1,		/* kernel system calls: entry and exit */
	/*
	 * Probes placed from outside (client protocol minor 21, kernel domain
	 * only): the rule's pattern is the event's name as the user names it
	 * (no glob), its location says where (lttctl-enable-event(1)).
	 */
	LTT_EVENT_KPROBE = 2,		/* --probe=SYMBOL[+OFFSET]|0xADDR */
	LTT_EVENT_FUNCTION = 3,		/* --function=SYMBOL: entry and return (a kretprobe) */
	LTT_EVENT_UPROBE = 4,		/* --userspace-probe=[elf:]PATH:FUNCTION, sdt:PATH:PROVIDER:NAME */
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
	/*
	 * 288, added in 1.21 (a daemon of client protocol minor 21 or later;
	 * older ones: -LTT_ERR_NOT_SUPPORTED): where a probe rule's probe goes,
	 * as lttctl-enable-event(1) writes it ("elf:/bin/prog:main",
	 * "sdt:/bin/prog:provider:name", "do_sys_open+4", "0xffff..."), at most
	 * LTT_LOCATION_MAX bytes with its NUL.  Probe types only; NULL or ""
	 * with the others, but a trigger's system call rule: "entry" or
	 * "exit" for the calls' entries or exits alone (a daemon of minor 31
	 * or later; older ones: -LTT_ERR_NOT_SUPPORTED), NULL or "" for both.
	 * Passed and returned as filter is.
	 */
	const char *location LTT_RESERVED_ALIGN;
	uint8_t reserved[104] LTT_RESERVED_ALIGN;	/* zero */
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
	/*
	 * The clock that times the session's user-space events, chosen by
	 * the daemon when the session was created (doc/clock.md).  Added in
	 * 1.20: a daemon of client protocol minor 20 and later; older ones
	 * leave clock and clock_read "" and clock_reason NULL.
	 */
	char clock[16] LTT_RESERVED_ALIGN;	/* 4424: "tsc" or "monotonic" */
	char clock_read[16];		/* 4440: "rdtscp", "lfence; rdtsc", "clock_gettime" or "read64()" */
	/*
	 * 4456: why the daemon chose it (a sentence); inside the returned
	 * block (NULL from ltt_ctl_create_session(), which returns none)
	 */
	const char *clock_reason;
	/*
	 * 4464: enum ltt_trace_format, never DEFAULT (added in 1.38; 0 from
	 * an older daemon, whose traces are CTF 1.8)
	 */
	uint8_t trace_format LTT_RESERVED_ALIGN;
	uint8_t reserved[87];	/* zero */
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
	/*
	 * Event descriptions that programs announced and the channel could not
	 * take (a user-space trace's channel describes at most 65,536 events;
	 * a daemon of client protocol minor 16 and later, 0 from older ones):
	 * what those programs record of them is not in the trace.
	 */
	uint64_t classes_refused LTT_RESERVED_ALIGN;	/* 504, added in 1.16 */
	uint8_t reserved[120] LTT_RESERVED_ALIGN;	/* zero */
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

/* Where an ltt_mem_stream's resident figure comes from. */
enum ltt_mem_how {
	/* measured: the pages a user-space buffer's memfd holds (st_blocks) */
	LTT_MEM_RESIDENT = 0,
	/* the kernel's own count of a tracefs buffer's memory (buffer_size_kb) */
	LTT_MEM_KERNEL_COUNT = 1,
	/* the channel's size: a module older than kernel ABI 1.9 says no more */
	LTT_MEM_CONFIGURED = 2,
	/* the module's own count of what it allocated for the buffer (client 1.29) */
	LTT_MEM_MODULE_COUNT = 3,
};

/*
 * The memory one ring buffer (one CPU's stream of a channel, for one
 * owner) holds now (ltt_ctl_mem_usage()).  reserved: zeroed.
 */
/* ltt_mem_stream.cpu of a per-channel buffer, which every CPU writes (client 1.25) */
#define LTT_MEM_CPU_CHANNEL UINT32_MAX

struct ltt_mem_stream {
	enum ltt_domain domain;
	char channel[LTT_NAME_MAX];
	uint32_t uid;			/* its owner */
	int32_t pid;			/* a per-PID buffer's program; 0: a per-UID one */
	uint32_t cpu;			/* its CPU, or LTT_MEM_CPU_CHANNEL */
	uint64_t resident LTT_RESERVED_ALIGN;	/* bytes of memory it holds now, see how */
	uint64_t size;			/* the most it may hold: all its sub-buffers */
	uint8_t how LTT_RESERVED_ALIGN;	/* enum ltt_mem_how (client protocol 1.27) */
	uint8_t pad[7];
	uint8_t reserved[40] LTT_RESERVED_ALIGN;
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
 * A domain's consumer daemon that does not answer (a daemon of client
 * protocol minor 14 and later): it is stopped (SIGSTOP, a debugger) or
 * stuck (a disk that does not answer).  What programs record waits in
 * their buffers and in the session daemon until it runs again.
 */
struct ltt_consumer_stall_info {
	enum ltt_domain domain;
	uint32_t traces_waiting;	/* traces it has not taken yet, or not closed */
	int64_t since;			/* seconds since the Epoch */
	char command[32];		/* the command it has not answered ("ADD_TRACE") */
	bool metadata_waiting;		/* metadata not sent to it yet */
	uint8_t reserved[64] LTT_RESERVED_ALIGN;	/* zero */
};

/* One session in full: free the whole block with free(). */
struct ltt_session_detail {
	struct ltt_session_info info;
	size_t nr_channels;
	struct ltt_channel_info *channels;	/* points inside the block */
	size_t nr_rules;
	struct ltt_event_rule_info *rules;	/* points inside the block */
	/* The domains whose consumer daemon does not answer (minor 14; 0 before). */
	size_t nr_stalls LTT_RESERVED_ALIGN;
	struct ltt_consumer_stall_info *stalls;	/* points inside the block */
	/* The files of its tls:// outputs (minor 21), NULL when none: inside the block */
	const struct ltt_session_tls *tls LTT_RESERVED_ALIGN;
	/* Its --shm-path directory (minor 31), NULL when none: inside the block */
	const char *shm_path LTT_RESERVED_ALIGN;
	/*
	 * Its first failure to write a trace's metadata under the shm path
	 * (minor 34; 0 before, or none): a positive errno, and when it came,
	 * seconds since the Epoch; ltt-crash can't read that trace's copy
	 */
	int32_t shm_error LTT_RESERVED_ALIGN;
	int64_t shm_error_since;
	uint8_t reserved[80];	/* zero */
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
	/*
	 * Agent domains: 1 when pid is the agent's claim, which the daemon
	 * could not check (it can't tell which process holds the agent's
	 * connection: another PID namespace's, or another user's process
	 * to a personal daemon); procname is then "".  0 otherwise.
	 */
	uint32_t pid_claimed;
	/*
	 * User space (a daemon of client protocol minor 39 or later): not 0
	 * for a program that loads LTTng-UST's own liblttng-ust, which
	 * registered on LTTng's application socket of a daemon in LTTng's
	 * place and is not recorded: one entry for the program, name "", no
	 * field, this word 0x80000000 | the library's ABI major << 8 | its
	 * minor.  0 otherwise.
	 */
	uint32_t own_lttng_ust LTT_RESERVED_ALIGN;	/* 8 bytes of the room, as laid out in 32 and 64 bits */
	uint8_t own_pad[4];				/* zero */
	uint8_t reserved[48] LTT_RESERVED_ALIGN;	/* zero */
};

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
 *        caller's $LTT_HOME goes with the request), or, with
 *        @attr->lttng_traces or in a home of LTTng's layout ($LTTNG_HOME
 *        alone), HOME/lttng-traces/NAME-YYYYmmdd-HHMMSS, resolved here
 *        (an automatic name, which holds the date, without a second one)
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
 * -LTT_ERR_PERM, a connection error, or the consumer's failure (the
 * session is stopped all the same): -LTT_ERR_CONSUMERD_STALLED,
 * -LTT_ERR_CONSUMERD_REFUSED (some of its traces are not written),
 * -LTT_ERR_CONSUMERD_LOST (some end where their consumer died),
 * -LTT_ERR_CONSUMERD (it failed to write), -LTT_ERR_RELAY_LOST.
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
 * one per domain that has started, or whose last start found no relay
 * (LOST, with the reason)
 * @ret_relays: array of @ret_count entries, free() it (none for a local
 *              session, or one never started)
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED (a daemon
 * older than client protocol 1.2), or a connection error.
 */
int ltt_ctl_relay_status(struct ltt_ctl *ctl, const char *session,
			 struct ltt_relay_info **ret_relays, size_t *ret_count);

/**
 * ltt_ctl_mem_usage() - the memory each ring buffer of @session's
 * channels holds now, one entry per buffer: a user-space buffer's
 * measured by the daemon (the pages its shared memory holds), a kernel
 * CPU's as the kernel counts it (tracefs) or the channel's size (the
 * module, which allocates it whole), each entry's how saying which (a
 * daemon older than client protocol 1.27 gives no kernel entry)
 * @ret_streams: array of @ret_count entries, free() it
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_NOT_SUPPORTED (a daemon
 * older than client protocol 1.23), or a connection error.
 */
int ltt_ctl_mem_usage(struct ltt_ctl *ctl, const char *session,
		      struct ltt_mem_stream **ret_streams, size_t *ret_count);

/**
 * ltt_ctl_reclaim_memory() - give back the pages of the sub-buffers the
 * consumer has read of @session's user-space channel @channel (NULL:
 * every discard-mode one), closed @older_than_ns ago at least (0: all),
 * while recording goes on
 * @ret_subbufs: the sub-buffers given back
 * @ret_bytes: the memory the buffers hold less now (measured)
 *
 * Returns 0, -LTT_ERR_SESSION_NOT_FOUND, -LTT_ERR_CHANNEL_NOT_FOUND,
 * -LTT_ERR_RECLAIM_OVERWRITE, -LTT_ERR_RECLAIM_CLOCK (a daemon of client
 * protocol 1.24 for @older_than_ns on a TSC-timed session), -LTT_ERR_CONSUMERD,
 * -LTT_ERR_NOT_SUPPORTED (a daemon older than client protocol 1.23), or a
 * connection error.
 */
int ltt_ctl_reclaim_memory(struct ltt_ctl *ctl, const char *session, const char *channel,
			   uint64_t older_than_ns, uint64_t *ret_subbufs, uint64_t *ret_bytes);

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
 * -LTT_ERR_KERNEL_NEEDS_ROOT, -LTT_ERR_CHANNEL_STARTED (the session was started once;
 * an older daemon's -LTT_ERR_CHANNEL_ACTIVE_ADD: it is active), -LTT_ERR_LIMIT,
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
 *           defaults if it does not exist; refused, NEED_CHANNEL_NAME, when
 *           the domain has a channel other than it (as LTTng)
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
 * Returns 0, -LTT_ERR_EVENT_NOT_FOUND, -LTT_ERR_CHANNEL_NOT_FOUND,
 * -LTT_ERR_NEED_CHANNEL_NAME (@channel NULL, as ltt_ctl_enable_event())...
 */
int ltt_ctl_disable_event(struct ltt_ctl *ctl, const char *session, enum ltt_domain domain,
			  const char *channel, const char *pattern);

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
 * ltt_ctl_list_tracepoints() - the events registered applications can emit,
 * a name once per program
 * @with_fields: fill in the fields of each event; a name a program
 *               describes with other fields twice (two libraries: two
 *               layouts) is then an entry per layout, each with its fields
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
 * tracepoints or system calls (kernel; pid 0, procname "", loglevel -1),
 * the loggers of the running Python programs' agents (python, 1.3: name
 * the logger, loglevel 0, no field)
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

/* How the daemon traces the kernel (ltt_ctl_kernel_tracer()). */
struct ltt_kernel_tracer_info {
	char backend[32];	/* "module" (ltt's module), "tracefs" (the kernel's own buffers) */
	char version[64];	/* the tracer's: "0.3.0", "tracefs 6.18.0-..." */
	char why[640];		/* why this backend: "" when it is the one asked for or the
				 * module loaded; else the module's reason */
	uint8_t reserved[64];
};

/**
 * ltt_ctl_kernel_tracer() - how the session daemon traces the kernel
 * @ret: filled on success
 *
 * Since LTT_CTL_1.2 (client protocol minor 15).  Returns 0, the reason
 * the daemon gives when it can't trace the kernel (-LTT_ERR_KERNEL_NEEDS_ROOT,
 * -LTT_ERR_KERNEL_NO_MODULES, ...), -LTT_ERR_NOT_SUPPORTED (an older
 * daemon), -LTT_ERR_INVAL, or a connection error.
 */
int ltt_ctl_kernel_tracer(struct ltt_ctl *ctl, struct ltt_kernel_tracer_info *ret);

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_SESSION_H */
