/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * client-proto.h - the protocol between clients (libltt-ctl) and
 * ltt-sessiond, on the Unix stream socket RUNDIR/client.sock.
 *
 * Every message, request or reply, is a 16-byte header then payload_len
 * bytes of payload encoded with common/base/codec.h (little-endian integers,
 * length-prefixed NUL-terminated strings).  A request's header carries the
 * command; a reply's header carries the same command and a status, 0 or a
 * positive enum ltt_error_code.  A reply with a non-zero status has no
 * payload.  Messages are at most LTT_CLIENT_MSG_MAX bytes.
 *
 * The first request on a connection must be HELLO {u32 major, u32 minor};
 * the daemon answers with its own {major, minor, str package_version} and
 * both use min(minor).  Different majors: the daemon replies
 * VERSION_MISMATCH and closes.  An unknown command gets NOT_SUPPORTED.
 * Command numbers are never reused once retired.
 *
 * Streaming (minor 2):
 *   DATA_PENDING {str session} -> {u8 pending}
 *       A stopped session: 1 while data it recorded is on its way to the
 *       relay.  SESSION_ACTIVE for an active session, RELAY_LOST when the
 *       relay connection is gone; 0 at once for a local session.
 *   RELAY_STATUS {str session} -> {u32 count, count x relay_info}
 *       relay_info: {u32 domain, u32 state, i32 error, str output_path,
 *       u64 packets_sent, u64 bytes_sent, u64 packets_lost}, one per
 *       domain connected (or that failed to connect) to the relay.
 *
 * Output failures (minor 3):
 *   GET_SESSION's channel_info is followed by {i32 output_error (0 or a
 *   positive errno), i64 output_error_since, u64 error_events, u64
 *   error_packets}: the failure that stops the consumer writing the
 *   channel's files now, and the events and packets lost because of
 *   output failures so far.
 *
 * Snapshots (minor 4):
 *   snapshot_output: {u32 id, str name, u64 max_size, u32 output_type,
 *       str output}
 *   SNAPSHOT_ADD_OUTPUT {str session, snapshot_output} -> {snapshot_output}
 *   SNAPSHOT_DEL_OUTPUT {str session, u32 id, str name}
 *   SNAPSHOT_LIST_OUTPUT {str session} -> {u32 count, count x snapshot_output}
 *   SNAPSHOT_RECORD {str session, u8 has_output [, snapshot_output]}
 *       -> {str path, u64 packets, u64 bytes, u64 packets_dropped}
 *       has_output 1: the output's non-empty fields override the session's.
 *
 * Defaults chosen by the daemon (minor 6):
 *   CREATE_SESSION's session_attr is followed by {str home}: the client's
 *   home directory ($LTT_HOME, else $HOME), "" if it has none.  The name
 *   may be "" (the daemon picks "auto-DATE", "auto-DATE-N") and a LOCAL
 *   output may be "" (the daemon resolves HOME/ltt-traces/NAME-DATE, HOME
 *   being the client's home, else the owner's: doc/sessiond.md).  Older
 *   clients complete both themselves and send no home.
 *
 * TLS to the relay (minor 23):
 *   CREATE_SESSION's {str home} is followed by {str tls_cert, str tls_key,
 *   str tls_ca}: absolute paths of PEM files the consumer opens for a
 *   tls:// output (or a tls:// snapshot output), all "" for none.
 *   GET_SESSION's reply ends with the same three strings (what save
 *   writes).
 *
 * Process trackers (minor 9; doc/trackers.md):
 *   TRACK {str session, u32 domain, u32 type, u32 nr, nr x str value}
 *       -> {u32 nr, nr x u8 changed}
 *   UNTRACK: the same.  type: enum ltt_tracker_type; a value is a decimal
 *       id, or for VUID/VGID a user/group name the daemon resolves; at
 *       most LTT_TRACKER_MAX_IDS values; changed: 0 for a value that was
 *       already tracked (TRACK) or not tracked (UNTRACK).  All or nothing.
 *   TRACKER_POLICY {str session, u32 domain, u32 type, u32 policy}
 *       policy: LTT_TRACKER_ALL or LTT_TRACKER_NONE.
 *   LIST_TRACKERS {str session, u32 domain}
 *       -> {u32 n, n x {u32 type, u32 policy, u32 nr, nr x u32 id}}
 *   From minor 12 the kernel domain too, and the types PID, UID, GID
 *   (kernel only: the user-space domain answers TRACKER_DOMAIN); the
 *   reply of LIST_TRACKERS has 3 types for user space, 6 for the kernel.
 * Contexts (minor 8; common/model/context.h has the context's wire form):
 *   ADD_CONTEXT {str session, u32 domain, str channel, context}
 *       channel "": every channel of the domain (the default one created
 *       when there is none).
 *   LIST_CONTEXTS {str session} -> {u32 count, count x {u32 domain,
 *       str channel, context}}
 *
 * Stalled consumers (minor 14):
 *   GET_SESSION's rules are followed by {u32 n, n x stall_waiting}, then
 *   {u32 n, n x stall}.  stall_waiting: {u32 domain, u32 traces, u8
 *   metadata}, what of the session waits in the daemon for the domain's
 *   consumer (traces it has not taken or not closed yet, metadata not
 *   sent), as the session is when list reads it; stall:
 *   {u32 domain, i64 since, str command}, a domain whose consumer does
 *   not answer now, since when (seconds since the Epoch) and the
 *   command it has not answered (consumer-proto.h's name).
 *
 * Refused event descriptions, synced channels (minor 16):
 *   GET_SESSION's channel failure is followed by {u64 classes_refused,
 *   u8 fsync}: the event descriptions programs announced that the
 *   channel could not take (a user-space trace's channel holds
 *   LTT_UST_CLASSES_MAX), so those events are not recorded (0 for the
 *   kernel domain); and whether the consumer syncs each packet.
 *   ENABLE_CHANNEL's channel attribute is followed by {u8 fsync}; a
 *   session that writes no trace files as it records (streamed, or
 *   snapshot) refuses 1 with FSYNC_OUTPUT.
 *
 * The kernel tracer (minor 15):
 *   KERNEL_TRACER {} -> {str backend, str version, str why}
 *       How the daemon traces the kernel: its backend ("module",
 *       "tracefs"), the tracer's version, and why that backend (the
 *       module's reason when auto fell back to tracefs; "" when the
 *       backend was the one asked for or the module loaded).  A daemon
 *       that can't trace the kernel answers the reason's code
 *       (KERNEL_NO_MODULES, ...), as every kernel command does.
 */
#ifndef LTT_COMMON_CLIENT_PROTO_H
#define LTT_COMMON_CLIENT_PROTO_H

#include <stdint.h>

#include "common/model/model.h"

#include "common/base/codec.h"

#define LTT_CLIENT_MAGIC 0x4c54544cU	/* "LTTL" */
#define LTT_CLIENT_MAJOR 1
/*
 * 1: event rules carry their type; 2: DATA_PENDING, RELAY_STATUS;
 * 3: a channel_info is followed by its output failure; 4: SNAPSHOT_*;
 * 5: trace chunks (rotation, clear, regenerate); 6: the daemon resolves
 * a session's automatic name and default output; 7: a rule attribute
 * ends with {str filter, str exclusions}, DISABLE_EVENT may name one rule;
 * 8: contexts; 9: process trackers; 12: kernel process trackers; 13:
 * ROTATION_INFO's reply ends with the rotation schedule's failure; 14:
 * GET_SESSION's reply ends with the domains' stalled consumers; 15:
 * KERNEL_TRACER; 16: a channel's output failure is followed by its
 * refused event descriptions and its fsync flag, ENABLE_CHANNEL's
 * attribute by its fsync flag; 17: the python domain; 18: triggers;
 * 19: the JUL and log4j domains; 20: a session_info ends with the
 * clock of its user-space events; 21: probe rules (a rule attribute
 * ends with {str location}); 22: a trigger_info ends with its actions'
 * runs waiting for the consumer; 23: CREATE_SESSION's and GET_SESSION's
 * TLS files; 24: MEM_USAGE, RECLAIM_MEMORY and a channel's preallocation;
 * 25: a channel's buffer allocation (per CPU or per channel); 26: map
 * channels (ADD_MAP_CHANNEL, LIST_MAPS, the incr-map-value action); 27: a
 * channel's automatic reclaim, and how each MEM_USAGE entry was measured;
 * 28: kernel map channels (a map_attr's ownership LTT_MAP_OWNER_KERNEL, an
 * incr-map-value action after a kernel rule); 29: a MEM_USAGE entry's
 * how may be LTT_MEM_MODULE_COUNT; 30: a channel's blocking timeout; 31: a session's shared memory path;
 * 32: a trigger's rule location; 33: conditions of more than 16 captures;
 * 34: a session's crash copy's failure, ARRAY and enum captures in notifications;
 * 35: ADD_TRIGGER's flags (a trigger added as LTTng's lttng adds it), a
 * trigger's actions' output flags; 36: a trigger's probe rules; 37:
 * stop's CONSUMERD_REFUSED and CONSUMERD_LOST; 38: a session's trace
 * format; 39: the user-space listing's programs of LTTng-UST's own library;
 * 40: LIST_MAP_CPUS
 */
#define LTT_CLIENT_MINOR 40
/*
 * LIST_TRACEPOINTS of the user-space domain also lists, after the
 * registered programs' events, the programs that registered with
 * LTTng-UST's own library on LTTng's application socket (sessiond/lust/):
 * one entry each, its name "", no field, its loglevel word
 * LTT_LIST_OWN_LTTNG_UST | ABI major << 8 | ABI minor.
 */
#define LTT_CLIENT_MINOR_OWN_UST 39
/*
 * CREATE_SESSION's request and a session's description (LIST_SESSIONS,
 * CREATE_SESSION's reply) end with {u8 trace_format} (enum
 * ltt_trace_format; a session's is never DEFAULT).  A client refuses CTF_2 toward an older daemon
 * (TRACE_FORMAT_DAEMON).
 */
#define LTT_CLIENT_MINOR_TRACE_FORMAT 38
/*
 * STOP_SESSION's CONSUMERD_REFUSED and CONSUMERD_LOST (a trace the
 * consumer refused, one whose consumer died with none to take it over):
 * an older client, which knows neither (its destroy would stop there),
 * gets CONSUMERD, as before.
 */
#define LTT_CLIENT_MINOR_STOP_CODES 37
/*
 * A trigger's capture count (ADD_TRIGGER, LIST_TRIGGERS) and a
 * notification's may pass LTT_TRIGGER_MAX_CAPTURES, up to
 * LTT_TRIGGER_CAPTURES_LIMIT.  Toward an older peer the daemon sends a
 * trigger's and a notification's first LTT_TRIGGER_MAX_CAPTURES (what
 * its decoder takes), and a client refuses more toward an older daemon
 * (TRIGGER_CAPTURES_DAEMON).
 */
#define LTT_CLIENT_MINOR_CAPTURES 33
/*
 * GET_SESSION's reply ends with {u32 shm_error, u64 shm_error_since}
 * after the shm path: the first failure to write one of its traces'
 * metadata under it (a positive errno, 0 for none) and when, seconds
 * since the Epoch (ltt-crash can't read that trace's copy).
 */
#define LTT_CLIENT_MINOR_SHM_ERROR 34
/*
 * The minor (this same round's) from which a notification may carry an
 * ARRAY capture and enums told from numbers (trigger-proto.c); an older
 * peer is sent an array UNAVAILABLE, an enum as its SIGNED or UNSIGNED.
 */
#define LTT_CLIENT_MINOR_CAPTURE_ARRAY 34
/*
 * ADD_TRIGGER's trigger is followed by {u32 flags}: LTT_TRIGGER_FLAG_LTTNG
 * (common/model/trigger.h), the trigger added as LTTng adds it (lttctl
 * run as lttng, and --lttng-compat's LTTng clients); another bit is a
 * PROTOCOL error.  A client refuses the flag toward an older daemon where
 * it would change what is added (TRIGGER_LTTNG_DAEMON).
 */
#define LTT_CLIENT_MINOR_ADD_FLAGS 35
/*
 * A trigger (ADD_TRIGGER, LIST_TRIGGERS) ends with {nr_actions x u32
 * output_flags} after its location: each action's LTT_TRIGGER_OUTPUT_*
 * (a snapshot output given as a control and a data URL); an older peer
 * is sent none, and lists such an output as its net URL.
 */
#define LTT_CLIENT_MINOR_OUTPUT_FLAGS 35
/*
 * CREATE_SESSION's request ends with {str shm_path}: "" or an absolute
 * directory where the session's user-space ring buffers and metadata are
 * files (lttctl create --shm-path); GET_SESSION's reply ends with the same.  A client refuses one toward an older
 * daemon (SHM_PATH_DAEMON).
 */
#define LTT_CLIENT_MINOR_SHM_PATH 31
/*
 * ADD_TRIGGER's trigger and LIST_TRIGGERS' descriptions end with {str
 * location}: the rule's (a system call rule's site, "entry" or "exit",
 * common/model/trigger.h; "" for the others).  A client refuses a rule
 * with a location toward an older daemon (NOT_SUPPORTED).
 */
#define LTT_CLIENT_MINOR_RULE_LOCATION 32
/*
 * ADD_TRIGGER's and LIST_TRIGGERS' rule may be a probe rule (type KPROBE
 * or UPROBE, its location the trailing {str location} above): a daemon
 * refuses one from an older client (PROTOCOL), and lists it to none; a
 * client refuses one toward an older daemon (TRIGGER_PROBE_DAEMON).
 */
#define LTT_CLIENT_MINOR_PROBE_TRIGGER 36
/*
 * ENABLE_CHANNEL's attribute is followed by {u64 blocking_timeout_us}
 * (after auto_reclaim_us), GET_SESSION's channel by the same: 0, the
 * microseconds a program that allows it waits for room in the full
 * channel, or LTT_BLOCKING_TIMEOUT_INF.  A client refuses a non-zero one
 * toward an older daemon (BLOCKING_DAEMON).
 */
#define LTT_CLIENT_MINOR_BLOCKING 30
/*
 * Map channels (doc/maps.md; wire forms in common/model/map.h):
 *   ADD_MAP_CHANNEL {str session, map_attr} -> {}
 *   LIST_MAPS {str session} -> {u32 n, n x map_desc}: the counters read
 *       now, one by one.
 * The incr-map-value action (common/model/trigger.h) is sent and listed from
 * this minor on: a trigger with one is not listed to an older client.
 */
#define LTT_CLIENT_MINOR_MAPS 26
/*
 * A map's counters CPU by CPU (LTTng 2.16's show-maps --per=cpu, served by
 * lttng-compat-map.c):
 *   LIST_MAP_CPUS {str session} -> LIST_MAPS' reply, each map_desc
 *       followed by nr_entries x {u32 n, n x u64 count}: entry i's counts
 *       on CPUs 0 to n - 1 (their sum is its value before the cut to the
 *       value type); n = 0 where the group keeps none by CPU (the shared
 *       group of a per-process map, a kernel map: its value alone).
 */
#define LTT_CLIENT_MINOR_MAP_CPUS 40
/* Kernel map channels (doc/maps.md): ADD_MAP_CHANNEL of ownership KERNEL. */
#define LTT_CLIENT_MINOR_KERNEL_MAPS 28
/*
 * Memory of the buffers (doc/memory.md):
 *   MEM_USAGE {str session} -> {u32 n, n x mem_stream}
 *       mem_stream: {u32 domain, str channel, u32 uid, i32 pid, u32 cpu,
 *       u64 resident, u64 size}, one per ring buffer (stream) of the
 *       session's channels that the daemon holds now: its owner (pid 0
 *       for a per-UID buffer), its CPU, the bytes of memory its shared
 *       memory holds now (measured: the memfd's blocks) and the most it
 *       may hold.  A domain that can't measure its buffers has none.
 *       From minor 25, cpu is LTT_MEM_CPU_CHANNEL (0xffffffff) for a
 *       per-channel buffer, which every CPU writes (0 before).  From 27
 *       each ends with {u8 how} (enum ltt_mem_how) and the kernel's CPU
 *       buffers are there too (tracefs: the kernel's count; the module:
 *       the channel's size; from 29, the module's own count where its
 *       ABI has CHANNEL_MEM); before, only user space's.
 *   RECLAIM_MEMORY {str session, str channel, u64 older_than_ns}
 *       -> {u64 subbufs, u64 bytes}
 *       The user-space channel's (every discard-mode one's for "")
 *       consumer gives back the pages of the sub-buffers it consumed,
 *       closed older_than_ns ago at least (0: all), while recording goes
 *       on; subbufs: how many; bytes: the memory the buffers hold less
 *       (measured).  RECLAIM_OVERWRITE for a named overwrite-mode
 *       channel.  (A daemon of minor 24 refused older_than_ns on a
 *       TSC-timed session with RECLAIM_CLOCK; from 25 it converts it.)
 */
#define LTT_CLIENT_MINOR_MEM_USAGE 24
#define LTT_CLIENT_MINOR_MEM_HOW 27
/* how LTT_MEM_MODULE_COUNT (the module's count, kernel ABI 1.9); before: RESIDENT */
#define LTT_CLIENT_MINOR_MEM_MODULE 29
/*
 * ENABLE_CHANNEL's attribute is followed by {u8 preallocation} (after
 * fsync), GET_SESSION's channel by the same (after fsync): enum
 * ltt_buffer_preallocation.  A kernel channel refuses ON_DEMAND (its
 * backends allocate their buffers whole).
 */
#define LTT_CLIENT_MINOR_PREALLOC 24
/*
 * ENABLE_CHANNEL's attribute is followed by {u8 allocation} (after
 * preallocation), GET_SESSION's channel by the same: enum
 * ltt_buffer_allocation.  A kernel channel refuses PER_CHANNEL.
 */
#define LTT_CLIENT_MINOR_ALLOCATION 25
/*
 * From 27, then by {u8 auto_reclaim, u64 auto_reclaim_us} (after
 * allocation), in both: enum ltt_auto_reclaim and OLDER_THAN's age
 * (doc/memory.md).
 */
#define LTT_CLIENT_MINOR_AUTO_RECLAIM 27
/*
 * Probe rules: the event types KPROBE (2), FUNCTION (3) and UPROBE (4),
 * and a rule attribute that ends with {str location} ("" for the other
 * types): common/probe/probe-loc.h parses it.  An older client gets no probe
 * rule in GET_SESSION.
 */
#define LTT_CLIENT_MINOR_PROBE 21
/*
 * A trigger_info (LIST_TRIGGERS) ends with {i64 pending_since, then for
 * each action u32 pending}: the runs of each action that wait for the
 * owner's consumer, and since when the first of them waits (seconds
 * since the Epoch, 0: none waits)
 */
#define LTT_CLIENT_MINOR_PENDING 22
/* CREATE_SESSION's TLS files (above) */
#define LTT_CLIENT_MINOR_TLS 23
/*
 * A session_info (LIST_SESSIONS, CREATE_SESSION, GET_SESSION) ends with
 * {u32 clock_kind, str clock_why}: the clock of the session's user-space
 * events (common/trace/tclock.h's kind) and why it was chosen
 */
#define LTT_CLIENT_MINOR_CLOCK 20
/*
 * The JUL (3) and log4j (4) domains where the python domain may be named
 * (below), a rule's log level read as a signed 32-bit number (their ALL
 * is INT32_MIN); an older client gets none of their rules in GET_SESSION
 */
#define LTT_CLIENT_MINOR_JAVA 19

/**
 * ltt_proto_domain_known() - does a peer of protocol minor @minor know
 * @domain?  The agent domains came with minors (python: 17, JUL and
 * log4j: 19); any other domain, true.
 */
bool ltt_proto_domain_known(uint32_t minor, enum ltt_domain domain);
/*
 * Triggers (common/proto/trigger-proto.h has the forms of trigger,
 * trigger_info and notification):
 *   ADD_TRIGGER {trigger} -> {str name}
 *       (from LTT_CLIENT_MINOR_ADD_FLAGS: {trigger, u32 flags})
 *   REMOVE_TRIGGER {str name}
 *   LIST_TRIGGERS {} -> {u32 count, count x trigger_info}
 *   SUBSCRIBE {str trigger} ("": all the caller's) -> {}
 *       The connection then takes no request: the daemon writes a
 *       NOTIFICATION message {notification} each time a notify action
 *       of a subscribed trigger runs, and a last NOTIFICATION with the
 *       status TRIGGER_NOT_FOUND (no payload) when the one subscribed
 *       trigger is removed.  The client closes the connection to end it.
 */
#define LTT_CLIENT_MINOR_TRIGGER 18
/*
 * The python domain (5) in ENABLE_EVENT, DISABLE_EVENT and
 * LIST_TRACEPOINTS, and in GET_SESSION's rules (an older client gets no
 * python rule there: its channel "lttng_python_channel" is listed alone)
 */
#define LTT_CLIENT_MINOR_PYTHON 17
/* GET_SESSION: {u64 classes_refused, u8 fsync} after each channel's output failure */
#define LTT_CLIENT_MINOR_CLASSES_REFUSED 16
/* ENABLE_CHANNEL: {u8 fsync} after the attribute */
#define LTT_CLIENT_MINOR_FSYNC 16
/* The minor that brought KERNEL_TRACER (35). */
#define LTT_CLIENT_MINOR_KERNEL_TRACER 15
/*
 * The minor from which GET_SESSION's reply ends with what waits for each
 * domain's consumer and which consumers are stalled (see above).
 */
#define LTT_CLIENT_MINOR_CONSUMER_STALL 14
/* The minor from which ROTATION_INFO's reply ends with {i32 error, i64 since}. */
#define LTT_CLIENT_MINOR_ROTATION_ERROR 13
/* The minor that brought TRACK, UNTRACK, TRACKER_POLICY, LIST_TRACKERS (31-34). */
#define LTT_CLIENT_MINOR_TRACKER 9
/* The minor from which they take the kernel domain and the types PID, UID, GID. */
#define LTT_CLIENT_MINOR_KTRACKER 12
/* The minor that brought each channel's output failure (list, stop). */
#define LTT_CLIENT_MINOR_OUTPUT_ERRORS 3
/* The minor that brought the SNAPSHOT_* commands. */
#define LTT_CLIENT_MINOR_SNAPSHOT 4
/*
 * The minor that brought trace chunks: ROTATE_SESSION, ENABLE_ROTATION,
 * DISABLE_ROTATION, CLEAR_SESSION, REGENERATE, ROTATION_INFO (19-24).
 */
#define LTT_CLIENT_MINOR_ROTATE 5
/* The minor from which the daemon resolves default names and outputs. */
#define LTT_CLIENT_MINOR_DAEMON_DEFAULTS 6
/* The minor that brought ADD_CONTEXT and LIST_CONTEXTS (28, 29). */
#define LTT_CLIENT_MINOR_CONTEXT 8
/*
 * The minor that brought filters and exclusions: a rule attribute ends
 * with {str filter, str exclusions} ("" for none), and DISABLE_EVENT's
 * request with {u8 exact, rule attribute}: exact 1 disables only the rule
 * identical to that attribute (its pattern replaces the request's).
 */
#define LTT_CLIENT_MINOR_FILTER 7
#define LTT_CLIENT_HDR_SIZE 16
/*
 * Header + payload.  The daemon's limits keep every reply under it: 1024
 * sessions of at most ~4.4 KiB each (LIST_SESSIONS), and a session of at
 * most 256 channels and 4096 rules (GET_SESSION, ~2.3 MiB).
 */
#define LTT_CLIENT_MSG_MAX (1U << 23)
#define LTT_CLIENT_SOCKET_NAME "client.sock"

/* Bytes of an encoded string of at least one byte (its NUL). */
#define LTT_WIRE_STR_MIN 5
/* Bytes of the smallest snapshot_output. */
#define LTT_SNAPSHOT_OUTPUT_MIN (4 + LTT_WIRE_STR_MIN + 8 + 4 + LTT_WIRE_STR_MIN)

/*
 * X(NAME, number, minimum request payload in bytes)
 *
 * The minimum is checked before the handler runs; the handler's decoder
 * checks the rest.
 */
#define LTT_CLIENT_CMD_TABLE(X) \
	X(HELLO, 1, 8) \
	X(CREATE_SESSION, 2, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN + 1 + 4) \
	X(DESTROY_SESSION, 3, LTT_WIRE_STR_MIN) \
	X(START_SESSION, 4, LTT_WIRE_STR_MIN) \
	X(STOP_SESSION, 5, LTT_WIRE_STR_MIN + 1) \
	X(LIST_SESSIONS, 6, 0) \
	X(GET_SESSION, 7, LTT_WIRE_STR_MIN) \
	X(ENABLE_CHANNEL, 8, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN) \
	X(DISABLE_CHANNEL, 9, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN) \
	X(ENABLE_EVENT, 10, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN + LTT_WIRE_STR_MIN) \
	X(DISABLE_EVENT, 11, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN + 1 + LTT_WIRE_STR_MIN) \
	X(LIST_TRACEPOINTS, 12, 1) \
	X(DATA_PENDING, 13, LTT_WIRE_STR_MIN) \
	X(RELAY_STATUS, 14, LTT_WIRE_STR_MIN) \
	X(SNAPSHOT_ADD_OUTPUT, 15, LTT_WIRE_STR_MIN + LTT_SNAPSHOT_OUTPUT_MIN) \
	X(SNAPSHOT_DEL_OUTPUT, 16, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN) \
	X(SNAPSHOT_LIST_OUTPUT, 17, LTT_WIRE_STR_MIN) \
	X(SNAPSHOT_RECORD, 18, LTT_WIRE_STR_MIN + 1) \
	X(ROTATE_SESSION, 19, LTT_WIRE_STR_MIN) \
	X(ENABLE_ROTATION, 20, LTT_WIRE_STR_MIN + 8 + 8) \
	X(DISABLE_ROTATION, 21, LTT_WIRE_STR_MIN + 1 + 1) \
	X(CLEAR_SESSION, 22, LTT_WIRE_STR_MIN) \
	X(REGENERATE, 23, LTT_WIRE_STR_MIN + 4) \
	X(ROTATION_INFO, 24, LTT_WIRE_STR_MIN) \
	X(ADD_CONTEXT, 28, LTT_WIRE_STR_MIN + 4 + LTT_WIRE_STR_MIN + 16 + LTT_WIRE_STR_MIN) \
	X(LIST_CONTEXTS, 29, LTT_WIRE_STR_MIN) \
	X(TRACK, 31, LTT_WIRE_STR_MIN + 4 + 4 + 4) \
	X(UNTRACK, 32, LTT_WIRE_STR_MIN + 4 + 4 + 4) \
	X(TRACKER_POLICY, 33, LTT_WIRE_STR_MIN + 4 + 4 + 4) \
	X(LIST_TRACKERS, 34, LTT_WIRE_STR_MIN + 4) \
	X(KERNEL_TRACER, 35, 0) \
	X(ADD_TRIGGER, 36, LTT_WIRE_STR_MIN + 8 + 4 + 4) \
	X(REMOVE_TRIGGER, 37, LTT_WIRE_STR_MIN) \
	X(LIST_TRIGGERS, 38, 0) \
	X(SUBSCRIBE, 39, LTT_WIRE_STR_MIN) \
	X(NOTIFICATION, 40, 0) \
	X(MEM_USAGE, 41, LTT_WIRE_STR_MIN) \
	X(RECLAIM_MEMORY, 42, LTT_WIRE_STR_MIN + LTT_WIRE_STR_MIN + 8) \
	X(ADD_MAP_CHANNEL, 43, LTT_WIRE_STR_MIN + LTT_WIRE_STR_MIN + 4 * 4) \
	X(LIST_MAPS, 44, LTT_WIRE_STR_MIN) \
	X(LIST_MAP_CPUS, 45, LTT_WIRE_STR_MIN)

enum ltt_client_cmd {
#define LTT_CLIENT_CMD_ENUM_(name, num, min) LTT_CLIENT_CMD_##name = (num),
	LTT_CLIENT_CMD_TABLE(LTT_CLIENT_CMD_ENUM_)
#undef LTT_CLIENT_CMD_ENUM_
	LTT_CLIENT_CMD_NR_,
};

/*
 * The largest status a reply may carry: codes grow (each release may add
 * some), so a client takes any status up to this as the daemon's answer,
 * described by number when it does not know it (ltt_strerror()).
 */
#define LTT_CLIENT_STATUS_MAX 0xffffU

struct ltt_client_hdr {
	uint32_t magic;
	uint16_t cmd;
	uint16_t reserved;	/* 0 */
	uint32_t status;	/* requests: 0; replies: 0 or an ltt error code */
	uint32_t payload_len;
};

/* DISABLE_EVENT's request after its session and domain (ltt_proto_put_disable_event()). */
struct ltt_disable_event_req {
	char channel[LTT_NAME_MAX];	/* "": the domain's default */
	bool all;			/* every rule of the channel, */
	char pattern[LTT_NAME_MAX];	/* else every rule of this pattern, */
	bool exact;			/* or (LTT_CLIENT_MINOR_FILTER) this rule alone */
	struct ltt_rule_conf rule;
};

/*
 * LIST_TRACEPOINTS's reply: its entries are {u32 pid, str procname, str
 * name, u32 loglevel, u32 nr_fields, then each field's str name, str
 * type}.  An agent domain's loggers have no level: their loglevel word
 * holds these flags (0 from a daemon before them).
 */
/* pid is the agent's word: the system could not tell which process holds its connection */
#define LTT_LIST_AGENT_PID_CLAIMED 0x1u
/* user space: a program of LTTng-UST's own library, not recorded (LTT_CLIENT_MINOR_OWN_UST) */
#define LTT_LIST_OWN_LTTNG_UST 0x80000000u

/* LIST_TRACEPOINTS's request (ltt_proto_put_list_tracepoints()). */
struct ltt_list_tracepoints_req {
	bool with_fields;
	enum ltt_domain domain;
	uint32_t type;		/* enum ltt_event_type, the command's to check */
};

/* CREATE_SESSION's request (ltt_proto_put_session_create()). */
struct ltt_session_create_req {
	struct ltt_session_conf conf;
	const char *home;	/* the client's home, "" for none; borrowed */
};

/**
 * ltt_client_cmd_name() - "CREATE_SESSION", or NULL for an unknown number
 */
const char *ltt_client_cmd_name(uint32_t cmd);

/**
 * ltt_client_cmd_min_payload() - a known command's minimum payload, or -1
 */
long ltt_client_cmd_min_payload(uint32_t cmd);

/**
 * ltt_client_hdr_encode() - write a header into @buf (LTT_CLIENT_HDR_SIZE bytes)
 */
void ltt_client_hdr_encode(const struct ltt_client_hdr *hdr, uint8_t *buf);

/**
 * ltt_client_hdr_decode() - read and check a header
 *
 * Returns 0, or -EPROTO for a bad magic, non-zero reserved field, or a
 * payload that would exceed LTT_CLIENT_MSG_MAX.  The command number is not
 * checked here: the daemon answers unknown ones with NOT_SUPPORTED.
 */
int ltt_client_hdr_decode(const uint8_t *buf, struct ltt_client_hdr *ret_hdr);

/*
 * Object serializers.  Each put appends one object; each get reads one,
 * checks every enum, flag and string (the sticky error of @r is set on
 * any violation) and fills @ret.
 */
void ltt_proto_put_session_attr(struct ltt_wbuf *w, const struct ltt_session_conf *a);
void ltt_proto_get_session_attr(struct ltt_rbuf *r, struct ltt_session_conf *ret);
/*
 * The TLS files of @a that end GET_SESSION's reply, for @minor: none
 * before LTT_CLIENT_MINOR_TLS; get fills @ret's three and leaves the rest.
 */
void ltt_proto_put_session_tls(struct ltt_wbuf *w, const struct ltt_session_conf *a,
			       uint32_t minor);
void ltt_proto_get_session_tls(struct ltt_rbuf *r, struct ltt_session_conf *ret,
			       uint32_t minor);
/*
 * CREATE_SESSION's request for @minor: the session's attributes, then
 * the client's home (LTT_CLIENT_MINOR_DAEMON_DEFAULTS), then its TLS
 * files (LTT_CLIENT_MINOR_TLS); get leaves those a peer's minor lacks
 * zero, the home "".
 */
void ltt_proto_put_session_create(struct ltt_wbuf *w, const struct ltt_session_create_req *m,
				  uint32_t minor);
void ltt_proto_get_session_create(struct ltt_rbuf *r, struct ltt_session_create_req *ret,
				  uint32_t minor);
/* @minor: the connection's; from LTT_CLIENT_MINOR_CLOCK on, with the clock. */
void ltt_proto_put_session_info(struct ltt_wbuf *w, const struct ltt_session_desc *s,
				uint32_t minor);
void ltt_proto_get_session_info(struct ltt_rbuf *r, struct ltt_session_desc *ret,
				uint32_t minor);
void ltt_proto_put_channel_attr(struct ltt_wbuf *w, const struct ltt_channel_conf *a);
void ltt_proto_get_channel_attr(struct ltt_rbuf *r, struct ltt_channel_conf *ret);
void ltt_proto_put_channel_info(struct ltt_wbuf *w, const struct ltt_channel_desc *c);
void ltt_proto_get_channel_info(struct ltt_rbuf *r, struct ltt_channel_desc *ret);
/*
 * A channel as GET_SESSION carries it for @minor: its info, then its
 * output failure (minor 3) and refused event descriptions (minor 16).
 */
void ltt_proto_put_channel(struct ltt_wbuf *w, const struct ltt_channel_desc *c, uint32_t minor);
void ltt_proto_get_channel(struct ltt_rbuf *r, struct ltt_channel_desc *ret, uint32_t minor);
/*
 * A channel as ENABLE_CHANNEL carries it for @minor: its attributes,
 * then fsync (LTT_CLIENT_MINOR_FSYNC), preallocation (_PREALLOC),
 * allocation (_ALLOCATION) and automatic reclaim (_AUTO_RECLAIM); get
 * leaves those a peer's minor lacks 0 (the defaults), and checks no more
 * than their wire form (attr.h checks the values).
 */
void ltt_proto_put_channel_conf(struct ltt_wbuf *w, const struct ltt_channel_conf *a,
				uint32_t minor);
void ltt_proto_get_channel_conf(struct ltt_rbuf *r, struct ltt_channel_conf *ret,
				uint32_t minor);
/* A channel's automatic reclaim (LTT_CLIENT_MINOR_AUTO_RECLAIM), in ENABLE_CHANNEL and GET_SESSION. */
void ltt_proto_put_auto_reclaim(struct ltt_wbuf *w, const struct ltt_channel_conf *a);
void ltt_proto_get_auto_reclaim(struct ltt_rbuf *r, struct ltt_channel_conf *ret);
/* Minor 3: what follows a channel_info; get leaves @ret's other fields alone. */
void ltt_proto_put_channel_failure(struct ltt_wbuf *w, const struct ltt_channel_desc *c);
void ltt_proto_get_channel_failure(struct ltt_rbuf *r, struct ltt_channel_desc *ret);
/*
 * Rules depend on the protocol minor both sides agreed on: from minor 1
 * on, a rule attribute ends with {u32 type}; with minor 0 it has none and
 * decodes as a tracepoint rule (and a non-tracepoint rule can't be put:
 * the caller must refuse it before).  From LTT_CLIENT_MINOR_FILTER on it
 * ends with {str filter, str exclusions}; before, they decode as "" (and
 * a rule with either can't be put: the caller refuses it before).
 */
void ltt_proto_put_rule_attr(struct ltt_wbuf *w, const struct ltt_rule_conf *a,
			     uint32_t minor);
void ltt_proto_get_rule_attr(struct ltt_rbuf *r, struct ltt_rule_conf *ret,
			     uint32_t minor);
/*
 * A trigger's rule: rule_attr as at LTT_CLIENT_MINOR_TRIGGER; a peer of
 * @minor from LTT_CLIENT_MINOR_PROBE_TRIGGER on may send the probe types
 * (their location comes after the trigger's actions, trigger-proto.c).
 */
void ltt_proto_put_trigger_rule(struct ltt_wbuf *w, const struct ltt_rule_conf *a);
void ltt_proto_get_trigger_rule(struct ltt_rbuf *r, struct ltt_rule_conf *ret, uint32_t minor);
void ltt_proto_put_rule_info(struct ltt_wbuf *w, const struct ltt_rule_desc *e,
			     uint32_t minor);
void ltt_proto_get_rule_info(struct ltt_rbuf *r, struct ltt_rule_desc *ret,
			     uint32_t minor);
void ltt_proto_put_relay_info(struct ltt_wbuf *w, const struct ltt_relay_desc *i);
void ltt_proto_get_relay_info(struct ltt_rbuf *r, struct ltt_relay_desc *ret);
/* Minor 4; get checks the output type and the strings' lengths. */
void ltt_proto_put_snapshot_output(struct ltt_wbuf *w, const struct ltt_snapshot_output_conf *o);
void ltt_proto_get_snapshot_output(struct ltt_rbuf *r, struct ltt_snapshot_output_conf *ret);
void ltt_proto_put_snapshot_result(struct ltt_wbuf *w, const struct ltt_snapshot_result_desc *res);
void ltt_proto_get_snapshot_result(struct ltt_rbuf *r, struct ltt_snapshot_result_desc *ret);
/* Minor 14: what waits for a domain's consumer, and a stalled consumer. */
void ltt_proto_put_stall_waiting(struct ltt_wbuf *w, const struct ltt_stall_desc *s);
void ltt_proto_get_stall_waiting(struct ltt_rbuf *r, struct ltt_stall_desc *ret);
void ltt_proto_put_stall(struct ltt_wbuf *w, const struct ltt_stall_desc *s);
void ltt_proto_get_stall(struct ltt_rbuf *r, struct ltt_stall_desc *ret);
/** ltt_proto_get_domain() - a u32 that must be KERNEL or USER */
enum ltt_domain ltt_proto_get_domain(struct ltt_rbuf *r);
/* Minor 5: ROTATION_INFO's reply {u64 timer_us, u64 size, u64 chunk_id, str last_archive}. */
/* @minor: the connection's; from LTT_CLIENT_MINOR_ROTATION_ERROR on, with the failure. */
/*
 * One buffer of MEM_USAGE's reply for @minor: its domain, channel, owner,
 * program, CPU, resident and largest sizes, then how it was measured
 * (LTT_CLIENT_MINOR_MEM_HOW; get leaves it 0 before).  The values are
 * the caller's to check.
 */
void ltt_proto_put_mem_stream(struct ltt_wbuf *w, const struct ltt_mem_stream *m, uint32_t minor);
void ltt_proto_get_mem_stream(struct ltt_rbuf *r, struct ltt_mem_stream *ret, uint32_t minor);
/*
 * DISABLE_EVENT's request after its domain, for @minor: the channel,
 * every rule or a pattern's, then from LTT_CLIENT_MINOR_FILTER whether
 * one rule exactly and that rule (of the types @minor knows); get refuses
 * one rule and every rule at once.
 */
void ltt_proto_put_disable_event(struct ltt_wbuf *w, const struct ltt_disable_event_req *m,
				 uint32_t minor);
void ltt_proto_get_disable_event(struct ltt_rbuf *r, struct ltt_disable_event_req *ret,
				 uint32_t minor);
/*
 * LIST_TRACEPOINTS's request for @minor: whether with fields, then from
 * minor 1 the domain (checked) and the event type; get leaves a peer of
 * minor 0 asking for the user-space domain's tracepoints.
 */
void ltt_proto_put_list_tracepoints(struct ltt_wbuf *w, const struct ltt_list_tracepoints_req *m,
				    uint32_t minor);
void ltt_proto_get_list_tracepoints(struct ltt_rbuf *r, struct ltt_list_tracepoints_req *ret,
				    uint32_t minor);
void ltt_proto_put_rotation_desc(struct ltt_wbuf *w, const struct ltt_rotation_desc *i,
				 uint32_t minor);
void ltt_proto_get_rotation_desc(struct ltt_rbuf *r, struct ltt_rotation_desc *ret,
				 uint32_t minor);

#endif /* LTT_COMMON_CLIENT_PROTO_H */
