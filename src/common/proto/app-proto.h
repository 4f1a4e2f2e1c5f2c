/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * app-proto.h - the protocol between ltt-sessiond and instrumented
 * applications (libltt-ust), on the Unix stream socket RUNDIR/app.sock.
 *
 * Framing: common/proto/msg.h with LTT_APP_MAGIC, payloads encoded with
 * common/base/codec.h.  File descriptors travel as SCM_RIGHTS ancillary data
 * attached to the first byte of the header of the message that announces
 * them; a message says how many fds it carries and the receiver rejects a
 * message whose fd count differs (and closes any fd it got).
 *
 * Both directions are asynchronous on the one socket: the daemon sends
 * commands with increasing seq numbers and the application answers each
 * CHANNEL_* and EVENT_* command (and any type it does not know) with
 * ACK {u32 seq, i32 status}, in order, status 0 or a negative errno;
 * an ACK answers every command up to its seq, and one of status 0 says
 * that those without an ACK of their own succeeded (libltt-ust writes
 * its acks once no command waits to be read, a burst of successes as
 * one ACK of the last seq; a daemon takes an ACK whose seq is past the
 * last one acked and not past the last one sent); REGISTER_OK and
 * REGISTER_DONE are not acked.  The application also
 * sends TRACEPOINTS on its own (seq 0) whenever it learns new tracepoints
 * (at start and after dlopen), and the daemon answers EVERY TRACEPOINTS
 * with REGISTER_DONE once it has pushed what the active sessions want of
 * them, which ends the application's bounded wait.  The daemon validates
 * every message from an application: an application is another user's
 * process and may lie; its credentials come from SO_PEERCRED, and one in
 * another time namespace is refused (its monotonic clock differs).
 *
 * Shared memory given with CHANNEL_ADD is a memfd sealed against
 * shrinking and growing (F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL), so
 * that nobody can make another holder's mapping fault; receivers check
 * the seals and refuse memory without them.
 *
 * Session:
 *   app    -> REGISTER {u32 major, u32 minor, u32 pid, u32 ppid, u32 uid,
 *                       u32 gid, u32 bits_per_long, u32 nr_cpus, str procname}
 *             (nr_cpus: 0 from minor 10; before, the program's possible
 *             CPUs, which no daemon used: a daemon counts its own, and
 *             reading them cost every program's start a sysfs file)
 *   app    -> TRACEPOINTS {u32 count, count x tracepoint}
 *   daemon -> REGISTER_OK {u32 major, u32 minor}   (or closes: wrong major)
 *   app    -> GAP {u64 gone_ns, u32 channels}   (minor 6: only a program
 *             whose previous daemon went away while it was registered, at
 *             gone_ns, CLOCK_REALTIME ns, when it recorded into @channels
 *             channels: what it did since is in no trace, which the new
 *             daemon says)
 *   daemon -> CHANNEL_ADD ... EVENT_ENABLE ... for every active session
 *   The program sends its first TRACEPOINTS right after REGISTER, without
 *   waiting for REGISTER_OK (one round trip, not two): the daemon handles
 *   a connection's messages one after the other, each whole, so REGISTER
 *   is accepted before the descriptions' header is checked, as every ltt
 *   daemon has done.  A program may also send them after REGISTER_OK, as
 *   programs before this did; what the program learns later goes after
 *   REGISTER_OK (it must not send GAP or LOGGERS before it knows the
 *   daemon's minor).
 *   daemon -> REGISTER_DONE {}: the application's constructor may return
 *   ... later CHANNEL_*, EVENT_* as users enable, start, stop, destroy
 *
 * Encoded tracepoint: {str name, i32 loglevel, u32 nr_fields, fields...};
 * field: {str name, u8 type, u8 size, u8 is_signed, u8 base, u8 encoding,
 * u32 length, u32 nr_enum_entries, entries {u64 start, u64 end, str label}
 * (start/end as two's complement), str enum_name ("" if not an enum)}.
 * The type byte holds the type in its low 4 bits and, from minor 5, the
 * field's flags (LTT_UST_FIELD_*, tracepoint-types.h) in its high 4: a
 * daemon before minor 5 refuses a flagged field as an unknown type.
 *
 * What a valid description holds (ltt_app_get_tracepoint() refuses
 * anything else).  A member that does not apply to a type must be 0
 * (enum_name ""), so that two equal layouts encode identically:
 *
 *   type      size        is_signed  base    encoding     length    enum
 *   INTEGER   1,2,4,8     0,1        10,16   NONE         0         none
 *   FLOAT     4,8         0          0       NONE         0         none
 *   STRING    1 (a byte)  0          0       NONE         0         none
 *   ARRAY     1,2,4,8     0,1        10,16   NONE, UTF8*  1..65536  none
 *   SEQUENCE  1,2,4,8     0,1        10,16   NONE, UTF8*  0         none
 *   ENUM      1,2,4,8     0,1        10,16   NONE         0         yes
 *
 *   (*) UTF8 only with size 1: the bytes are shown as text.
 *
 * A blob (flag LTT_UST_FIELD_BLOB, from LTTng 2.16's providers) is an
 * ARRAY or SEQUENCE of size 1, unsigned, base 16, encoding NONE; its
 * enum_name holds its media type ("" none; at most 255 bytes of printable
 * ASCII).  A daemon before this flag refuses the description.
 *
 * - Event name: [A-Za-z0-9_.-] and exactly one ':', not first or last,
 *   at most LTT_APP_NAME_MAX - 1 bytes.
 * - Field names: C identifiers ([A-Za-z_][A-Za-z0-9_]*), at most
 *   LTT_APP_NAME_MAX - 1 bytes, unique in the event.  A SEQUENCE named N
 *   is written in the trace as two fields, N_length then N, so no other
 *   field may be named N_length.
 * - Enums: 1..LTT_APP_MAX_ENUM_ENTRIES entries, each start <= end
 *   (compared as the container's signedness says), both representable in
 *   the container (size bytes, signed or not); labels are 1..255 bytes of
 *   well-formed UTF-8 without control characters; ranges may overlap and
 *   labels repeat.  enum_name: 1..255 bytes of [A-Za-z0-9_:.-].
 * - Flags: BIG_ENDIAN on any type but STRING; LENGTH_BEFORE on a SEQUENCE
 *   that follows an INTEGER field (its count: the sequence then adds no
 *   _N_length field of its own, and no name is reserved for it).
 * - Log level 0..14, at most LTT_APP_MAX_FIELDS fields.
 */
#ifndef LTT_COMMON_APP_PROTO_H
#define LTT_COMMON_APP_PROTO_H

#include <stdbool.h>
#include <stdint.h>

#include <ltt/tracepoint-types.h>

#include "common/model/context.h"
#include "common/model/trigger.h"
#include "common/base/codec.h"
#include "filter-vm/filter-bytecode.h"

#define LTT_APP_MAGIC 0x4c545441U	/* "LTTA" */
#define LTT_APP_MAJOR 1
/*
 * 1: EVENT_FILTER (filters); 2: a channel's contexts in CHANNEL_ADD;
 * 3: the python agent (AGENT_RULES, LOGGERS); 4: triggers (NOTIFIER_ADD,
 * NOTIFIER_REMOVE); 5: field flags in a description's type byte; 6: GAP;
 * 7: map counters (COUNTER_ADD); 8: the layout in EVENT_ENABLE,
 * EVENT_DISABLE and EVENT_FILTER (one name, several descriptions), and
 * ARRAY and enum captures on the notification socket; 9: LOGGERS_SYNC;
 * 10: CHANNEL_ADD's memory, the program's own descriptions, and no CPU
 * count in REGISTER
 */
#define LTT_APP_MINOR 10
/*
 * The minor from which each memory fd of a CHANNEL_ADD is an open file
 * description of the program's own (see CHANNEL_ADD).
 */
#define LTT_APP_MINOR_OWN_FD 10
/* The minor from which a program answers LOGGERS_SYNC. */
#define LTT_APP_MINOR_LOGGERS_SYNC 9
/*
 * The minor from which a program may describe one event name several
 * times, with other fields, and EVENT_ENABLE, EVENT_DISABLE and
 * EVENT_FILTER name the description they address (its layout).
 */
#define LTT_APP_MINOR_LAYOUT 8
/*
 * The minor (the same round's as the layout) from which a program sends a
 * NAME capture of an array or sequence field of numbers as an ARRAY
 * (trigger-proto.c's form), and an enum field's with its enum bit;
 * toward an older daemon, UNAVAILABLE and a plain number.
 */
#define LTT_APP_MINOR_CAPTURE_ARRAY 8
/* The minor from which a program takes COUNTER_ADD (a trigger's incr-map-value). */
#define LTT_APP_MINOR_COUNTER 7
/*
 * A counter area (COUNTER_ADD): LTT_APP_COUNTER_HDR bytes of header, the
 * first u32 of which is non-zero while the map's session is active (the
 * daemon writes it, programs only read it), then one row per CPU of
 * ltt_app_counter_stride(nr_slots) u64 counters (nr_slots rounded up to a
 * 64-byte line, so that no two CPUs add into one cache line), the first
 * nr_slots used, each a count of the events a program of the map added
 * there, in the host's byte order.
 */
#define LTT_APP_COUNTER_HDR 64
#define LTT_APP_COUNTER_MAX_CPUS 4096
#define LTT_APP_COUNTER_MAX_CELLS (1U << 24)	/* nr_cpus x the stride of nr_slots */
/* The minor from which a program says the gap since its previous daemon (GAP). */
#define LTT_APP_MINOR_GAP 6
#define LTT_APP_FIELD_TYPE_MASK 0x0f
#define LTT_APP_FIELD_FLAGS_SHIFT 4
/* The minor from which a program takes notifiers (triggers). */
#define LTT_APP_MINOR_NOTIFIER 4
#define LTT_APP_NOTIFIER_KEY_BIT (1ULL << 63)	/* set in notifier keys only */
#define LTT_APP_NOTIFY_MAGIC 0x4c54544eU	/* "LTTN" */
#define LTT_APP_NOTIFY_MAX 4096		/* bytes of one message on the notification socket */
/* The minor from which a program takes AGENT_RULES and may send LOGGERS. */
#define LTT_APP_MINOR_AGENT 3
#define LTT_APP_AGENT_MAX_RULES 4096	/* per AGENT_RULES */
#define LTT_APP_MAX_LOGGERS 4096	/* the daemon keeps this many per program */
/* The minor from which a program takes EVENT_FILTER. */
#define LTT_APP_MINOR_FILTER 1
/* The minor from which CHANNEL_ADD may carry the channel's contexts. */
#define LTT_APP_MINOR_CONTEXT 2
#define LTT_APP_MSG_MAX (1U << 24)	/* header + payload */
#define LTT_APP_SOCKET_NAME "app.sock"
#define LTT_APP_MAX_FDS 1024		/* per message */
#define LTT_APP_MAX_TRACEPOINTS 65536	/* per application */
#define LTT_APP_MAX_FIELDS 128		/* per tracepoint */
#define LTT_APP_MAX_ENUM_ENTRIES 4096	/* per enum field */
#define LTT_APP_MAX_ARRAY_LENGTH 65536	/* elements of an ARRAY field */
#define LTT_APP_NAME_MAX 256		/* bytes of an event, field or enum name, NUL included */
#define LTT_APP_LABEL_MAX 256		/* bytes of an enum label, NUL included */
#define LTT_APP_PROCNAME_MAX 17		/* bytes of a process name, NUL included */
#define LTT_APP_ACK_SIZE 8		/* an ACK's payload */
#define LTT_APP_FILTER_MAX_PROGRAMS 64	/* per event and channel */
#define LTT_APP_FILTER_MAX_LEN 65536	/* bytes of one program */

/*
 * X(NAME, number, direction)  -- direction: A2D app to daemon, D2A daemon
 * to app.  Payloads (see above and below):
 *
 * CHANNEL_ADD {u64 channel_key, u64 session_id, u32 stream_id,
 *              u8 enabled, u32 nr_streams
 *              [minor 2: u32 nr_contexts, nr_contexts x context]}
 *   + 2 x nr_streams fds: for each stream (one per possible CPU, in CPU
 *   order) its shared-memory fd, then its wakeup eventfd.  The memory's
 *   size is the fd's size; libltt-ust maps it and checks it with
 *   ltt_rb_attach() before use.  To a program of minor 10 or more, each
 *   memfd is an open file description made for that program alone
 *   (ltt_rb_own_fd()), of which the daemon keeps nothing: the program
 *   takes its writer block lock (ringbuf.h) on it as it comes, and the
 *   lock goes when the program does.  A file (--shm-path, unsealed) is
 *   the daemons' shared description, as is any memory to an older
 *   program or from an older daemon: the program opens one itself, at
 *   the cost of a walk of its new /proc entries per stream.  The
 *   contexts (common/model/context.h: 1 to LTT_CTX_MAX, each valid, none
 *   twice) are the fields the program writes after each event header, in
 *   that order; their total size must be the regions' event_ctx_len.  The daemon sends the context list
 *   only to a program of minor 2 or more, and only when the channel has
 *   contexts; an older program does not get such a channel at all (its
 *   events would not match the metadata).
 * CHANNEL_ENABLE {u64 channel_key}      (session started; on a channel
 *                                        enabled already: regenerate
 *                                        statedump, the program records
 *                                        its state dump there again)
 * CHANNEL_DISABLE {u64 channel_key}     (session stopped: ACK only once no
 *                                        thread can still be writing to it)
 * CHANNEL_REMOVE {u64 channel_key}      (session destroyed: unmap, close)
 * EVENT_ENABLE {u64 channel_key, str event_name, [minor 8: u64 layout],
 *               u32 event_id}
 * EVENT_DISABLE {u64 channel_key, str event_name, [minor 8: u64 layout]}
 * EVENT_FILTER {u64 channel_key, str event_name, [minor 8: u64 layout],
 *               u32 nr_programs, nr_programs x {u32 len, len bytes}}   (minor 1)
 *   @layout (minor 8) names which description of the event the command
 *   is for: ltt_app_layout_of() its bytes as the program sent them in
 *   TRACEPOINTS.  A program may describe a name several times with
 *   other fields (two providers of one event, dlopen()ed): each
 *   description is an event of its own, with its own event id, filters
 *   and state; the daemon gives each its own event class, and one rule
 *   enables every description of each name it takes.  A layout of 0
 *   means every description of the name.  Without the field (a peer
 *   before minor 8, which describes a name once and knows one
 *   description of it) the command is for the first description of the
 *   name the program sent: the one such a daemon kept.
 *   sets the filter programs (filter-vm/filter-bytecode.h) of that event on
 *   that channel, replacing any it had; 0 programs: no filter.  Sent
 *   before the event's EVENT_ENABLE and again whenever the set changes,
 *   only to a program that registered with minor >= LTT_APP_MINOR_FILTER.
 *   The program acks 0, or -EINVAL when a program fails
 *   ltt_filter_validate() against the event's fields: then the event
 *   keeps no filter and stays disabled on that channel.  The event is
 *   recorded when any of its programs accepts.
 * AGENT_RULES {u64 channel_key, u32 count, count x {str pattern,
 *              u32 loglevel_type, i32 loglevel, str exclusions}}   (minor 3)
 *   the python rules of that channel (common/model/agent.h), replacing any it
 *   had, sent to a program of minor 3 or more with the channel's
 *   lttng_python:event and again whenever they change (count 0: none).
 *   What is recorded is the event's filters' business; these only tell
 *   the program's agent which records to hand to the event at all.  At
 *   most LTT_APP_AGENT_MAX_RULES; each a valid rule of the python domain
 *   (common/model/attr.h), which the program checks (-EINVAL).
 * LOGGERS {u32 count, count x str name}   (A2D, seq 0, minor 3, not answered)
 *   loggers the program's python agent learnt of since its last LOGGERS
 *   on this connection (all of them first), for `lttctl list -p`: 1 to
 *   255 bytes each, no control character; the daemon keeps
 *   LTT_APP_MAX_LOGGERS of a program and drops the rest, counts the
 *   messages against the program's description bytes (--app-metadata-max:
 *   beyond, dropped), and refuses a message over 4096 bytes as any small
 *   message.
 * LOGGERS_SYNC {}   (D2A, minor 9)
 *   acked once the program sent every logger its agent knew of when the
 *   command came (LOGGERS before the ACK, on this connection): the daemon
 *   sends it to the programs with ltt's python agent before it answers
 *   `lttctl list -p`, so that a logger made before the listing is in it
 *   whatever the program's thread was doing.  Not sent to a program
 *   before minor 9 (it would ack -ENOSYS having sent nothing).
 * NOTIFIER_ADD {u64 key, u32 nr_captures, nr_captures x str capture} + 1 fd
 *   (minor 4) a trigger's event-rule-matches condition in this program:
 *   @key has LTT_APP_NOTIFIER_KEY_BIT set and is never a channel's.  The
 *   fd is the program's end of the daemon's notification socket for this
 *   program (an AF_UNIX SOCK_SEQPACKET pair, O_NONBLOCK): the program
 *   sends with MSG_NOSIGNAL, so a daemon that went costs it an EPIPE,
 *   never a SIGPIPE.  The daemon then uses EVENT_FILTER,
 *   EVENT_ENABLE (event_id 0) and EVENT_DISABLE with the notifier's key
 *   as channel_key for the events the condition's rule takes, as for a
 *   channel: an event enabled in a notifier is not recorded; each time a
 *   thread emits it and a filter program accepts (or there is none), the
 *   program sends one message on the socket, without blocking.  Captures:
 *   common/model/trigger.h's expressions (at most LTT_TRIGGER_CAPTURES_LIMIT,
 *   each one that ltt_capture_parse() takes, else -EINVAL).  More than
 *   LTT_TRIGGER_MAX_CAPTURES (16) came with no minor of its own: a program
 *   whose library predates them refuses such a notifier (-EPROTO, which
 *   the daemon logs) and notifies nothing for it; its other notifiers and
 *   channels go on.  So many captures always fit a message whole, numbers
 *   taking 9 bytes each and strings cut to the room left.
 * NOTIFIER_REMOVE {u64 key}: acked once no thread can still notify for it.
 * COUNTER_ADD {u64 key, u32 nr_cpus, u32 nr_slots} + 1 fd   (minor 7)
 *   a trigger's incr-map-value action in this program: a notifier (same
 *   key space, removed by NOTIFIER_REMOVE) that counts instead of
 *   sending.  The fd is a memfd sealed against shrinking, at least
 *   ltt_app_counter_size(nr_cpus, nr_slots) bytes (the layout above; 1 to LTT_APP_COUNTER_MAX_CPUS CPUs, 1 or more slots, at most
 *   LTT_APP_COUNTER_MAX_CELLS counters).  The daemon then enables the
 *   events the rule takes under @key with EVENT_ENABLE, the event_id
 *   being the slot its key resolved to (below nr_slots).  Each time a
 *   thread emits such an event while the area's active word is set, and
 *   a filter program accepts (or there is none), the program adds 1 to
 *   counter [cpu % nr_cpus][slot] atomically: nothing is recorded, no
 *   message is sent.
 *
 * The notification socket (program -> daemon), one message per record, at
 * most LTT_APP_NOTIFY_MAX bytes:
 *   {u32 magic LTT_APP_NOTIFY_MAGIC, u32 len (the whole message), u64 key,
 *    u64 dropped, str event, u32 nr_captures, nr_captures x capture}
 *   @dropped: the messages of this notifier this thread or another could
 *   not send (the socket was full) since the last one sent; a capture
 *   is common/proto/trigger-proto.h's form, in the notifier's order (a string cut to
 *   fit, an expression the event can't give UNAVAILABLE).  From minor 8 a
 *   NAME capture of an array or sequence of integers, enums or floats is
 *   an ARRAY of its elements (text is a STRING); one that does not fit
 *   whole in the room left for it is UNAVAILABLE, as LTTng makes it nil;
 *   an enum field's value is marked an enum's.  A message
 *   with an empty event name and no capture only carries @dropped: the
 *   program sends it, waiting a little for room, when the notifier goes
 *   (NOTIFIER_REMOVE, the connection's end, the program's exit) so that
 *   no count is left behind.
 */
#define LTT_APP_MSG_TABLE(X) \
	X(REGISTER, 1, A2D) \
	X(REGISTER_OK, 2, D2A) \
	X(TRACEPOINTS, 3, A2D) \
	X(REGISTER_DONE, 4, D2A) \
	X(ACK, 5, A2D) \
	X(CHANNEL_ADD, 6, D2A) \
	X(CHANNEL_ENABLE, 7, D2A) \
	X(CHANNEL_DISABLE, 8, D2A) \
	X(CHANNEL_REMOVE, 9, D2A) \
	X(EVENT_ENABLE, 10, D2A) \
	X(EVENT_DISABLE, 11, D2A) \
	X(EVENT_FILTER, 12, D2A) \
	X(AGENT_RULES, 13, D2A) \
	X(LOGGERS, 14, A2D) \
	X(NOTIFIER_ADD, 15, D2A) \
	X(NOTIFIER_REMOVE, 16, D2A) \
	X(GAP, 17, A2D) \
	X(COUNTER_ADD, 18, D2A) \
	X(LOGGERS_SYNC, 19, D2A)

enum ltt_app_msg {
#define LTT_APP_MSG_ENUM_(name, num, dir) LTT_APP_MSG_##name = (num),
	LTT_APP_MSG_TABLE(LTT_APP_MSG_ENUM_)
#undef LTT_APP_MSG_ENUM_
	LTT_APP_MSG_NR_,
};

/**
 * ltt_app_msg_name() - "CHANNEL_ADD", or NULL for an unknown type
 */
const char *ltt_app_msg_name(uint32_t type);

/*
 * Tracepoint descriptions, as the daemon receives them.  A decoded
 * description owns its strings (one heap block per tracepoint).
 */
struct ltt_app_tracepoint {
	char *name;
	uint64_t layout;	/* ltt_app_layout_of() its encoded bytes: which of
				 * the name's descriptions it is */
	int32_t loglevel;
	uint32_t nr_fields;
	struct ltt_app_field *fields;
};

struct ltt_app_field {
	char *name;
	uint8_t type;
	uint8_t size;
	uint8_t is_signed;
	uint8_t base;
	uint8_t encoding;
	uint8_t flags;		/* LTT_UST_FIELD_* */
	uint32_t length;
	char *enum_name;
	uint32_t nr_enum_entries;
	struct ltt_ust_enum_entry *enum_entries;	/* labels owned too */
};

/* app-tracepoint.c: a tracepoint's description */

/**
 * ltt_app_put_tracepoint() - encode a program's tracepoint description
 * @w: the payload being built; an allocation failure is left in w->err
 * @tp: borrowed, encoded as it is (the receiver validates).  A NULL name
 *      is sent as "", a NULL @fields or enum_desc (or entries) as zero
 *      fields (or entries), so that a broken program produces a message
 *      the daemon refuses instead of crashing here.
 *
 * Any thread; reads @tp only.
 */
void ltt_app_put_tracepoint(struct ltt_wbuf *w, const struct ltt_ust_tracepoint *tp);

/**
 * ltt_app_get_tracepoint() - decode and validate one description
 * @r: the cursor, positioned at the description; left after it on success
 * @ret_tp: one heap block holding the description, its fields, enum
 *          entries and every string; release it with one free().  Set only
 *          on success.
 *
 * Validation: everything in the table above.  Counts are checked against
 * the limits before anything is read or allocated, and nothing is
 * allocated until the whole description has been validated.  Returns 0,
 * -EPROTO (the cursor's error is set) or -ENOMEM.
 */
int ltt_app_get_tracepoint(struct ltt_rbuf *r, struct ltt_app_tracepoint **ret_tp);

/**
 * ltt_app_tracepoint_valid() - the checks of ltt_app_get_tracepoint() on
 * a description held in memory (borrowed)
 *
 * Consumers of descriptions (the TSDL generator) call it at their entry.
 * Returns true when @tp (non-NULL) would have been accepted off the wire.
 */
bool ltt_app_tracepoint_valid(const struct ltt_app_tracepoint *tp);

/**
 * ltt_app_layout_of() - the layout id of a description encoded in @len
 * bytes at @enc (ltt_app_put_tracepoint()): a 64-bit FNV-1a hash of them,
 * never 0.  Program and daemon name a description by it (EVENT_ENABLE,
 * EVENT_DISABLE, EVENT_FILTER from minor 8).
 */
uint64_t ltt_app_layout_of(const uint8_t *enc, size_t len);

/**
 * ltt_app_tracepoint_fields_hash() - a hash of what
 * ltt_app_tracepoint_same_layout() compares: equal for descriptions of
 * the same layout (@tp borrowed)
 */
uint64_t ltt_app_tracepoint_fields_hash(const struct ltt_app_tracepoint *tp);

/**
 * ltt_app_tracepoint_same_layout() - true when two descriptions have the
 * same fields (names, types, sizes, signedness, bases, encodings, flags,
 * lengths, enum entries and labels): events of the two may share an event id in a
 * trace.  The event names, log levels and enum names are not compared.
 * Both borrowed, non-NULL.
 */
int ltt_app_tracepoint_same_layout(const struct ltt_app_tracepoint *a,
				   const struct ltt_app_tracepoint *b);

/**
 * ltt_app_filter_fields() - the fields of @tp as the filter compiler and
 * validator see them (filter-vm/filter-bytecode.h)
 * @fields: room for @tp->nr_fields; names borrowed from @tp
 */
void ltt_app_filter_fields(const struct ltt_app_tracepoint *tp,
			   struct ltt_filter_field_desc *fields);

/**
 * ltt_app_put_app_tracepoint() - encode a decoded description (borrowed)
 * exactly as ltt_app_put_tracepoint() encodes the program's original
 */
void ltt_app_put_app_tracepoint(struct ltt_wbuf *w, const struct ltt_app_tracepoint *tp);

/**
 * ltt_app_tracepoint_copy() - a copy of a description that
 * ltt_app_get_tracepoint() decoded (or this function copied), one heap
 * block as that returns, not validated again (ltt_app_tracepoint_dup()
 * does, for descriptions of other origins)
 *
 * Returns the copy, or NULL when out of memory.
 */
struct ltt_app_tracepoint *ltt_app_tracepoint_copy(const struct ltt_app_tracepoint *tp);

/**
 * ltt_app_tracepoint_dup() - a copy of a decoded description, one heap
 * block as ltt_app_get_tracepoint() returns
 *
 * Returns 0, -EPROTO if @tp (borrowed) is not a valid description, or
 * -ENOMEM.  *@ret_tp set only on success.
 */
int ltt_app_tracepoint_dup(const struct ltt_app_tracepoint *tp,
			   struct ltt_app_tracepoint **ret_tp);

/*
 * The other messages' payloads.  Encoders append to @w, borrow what they
 * are given and leave any error in @w (codec.h).  Decoders read a whole
 * payload from @r, set *ret only on success and return 0 or -EPROTO
 * (truncated, bytes left over, a string without its NUL or too long, a
 * boolean not 0 or 1); strings in a decoded struct point into the
 * payload.  The receiver checks the values.  Any thread.
 */

/* REGISTER */
struct ltt_app_register {
	uint32_t major;
	uint32_t minor;
	uint32_t pid;
	uint32_t ppid;
	uint32_t uid;
	uint32_t gid;
	uint32_t bits_per_long;
	uint32_t nr_cpus;		/* 0 (see REGISTER above) */
	const char *procname;		/* at most LTT_APP_PROCNAME_MAX bytes with its NUL */
};

/* GAP */
struct ltt_app_gap {
	uint64_t gone_ns;		/* CLOCK_REALTIME when the previous daemon went */
	uint32_t channels;		/* it recorded into so many then */
};

/* REGISTER_OK */
struct ltt_app_version {
	uint32_t major;
	uint32_t minor;
};

/* ACK */
struct ltt_app_ack {
	uint32_t seq;			/* of the command acknowledged */
	int32_t status;			/* 0 or a negative errno */
};

/* CHANNEL_ADD (its 2 x nr_streams fds travel beside) */
struct ltt_app_channel_add {
	uint64_t channel_key;
	uint64_t session_id;
	uint32_t stream_id;
	bool enabled;
	uint32_t nr_streams;
	uint32_t nr_contexts;		/* sent when non-zero (minor 2) */
	struct ltt_ctx contexts[LTT_CTX_MAX];
};

/* EVENT_ENABLE, EVENT_DISABLE (which sends no event_id) */
struct ltt_app_event_msg {
	uint64_t channel_key;
	const char *name;		/* at most LTT_APP_NAME_MAX bytes with its NUL */
	uint64_t layout;		/* minor 8; 0: every description of @name */
	uint32_t event_id;
};

/* one program of EVENT_FILTER: points into the payload when decoded */
struct ltt_app_filter_program {
	const uint8_t *code;
	uint32_t len;			/* 1..LTT_APP_FILTER_MAX_LEN */
};

/* EVENT_FILTER */
struct ltt_app_event_filter {
	uint64_t channel_key;
	const char *name;		/* at most LTT_APP_NAME_MAX bytes with its NUL */
	uint64_t layout;		/* minor 8; 0: every description of @name */
	uint32_t nr_programs;		/* 0..LTT_APP_FILTER_MAX_PROGRAMS */
	struct ltt_app_filter_program programs[LTT_APP_FILTER_MAX_PROGRAMS];
};

void ltt_app_put_register(struct ltt_wbuf *w, const struct ltt_app_register *m);
int ltt_app_get_register(struct ltt_rbuf *r, struct ltt_app_register *ret);
/** ltt_app_put_gap() - GAP's payload */
void ltt_app_put_gap(struct ltt_wbuf *w, const struct ltt_app_gap *m);
int ltt_app_get_gap(struct ltt_rbuf *r, struct ltt_app_gap *ret);

/** ltt_app_put_version() - REGISTER_OK's payload */
void ltt_app_put_version(struct ltt_wbuf *w, const struct ltt_app_version *m);
int ltt_app_get_version(struct ltt_rbuf *r, struct ltt_app_version *ret);
/** ltt_app_put_ack() - an ACK's LTT_APP_ACK_SIZE bytes */
void ltt_app_put_ack(struct ltt_wbuf *w, const struct ltt_app_ack *m);
int ltt_app_get_ack(struct ltt_rbuf *r, struct ltt_app_ack *ret);
/**
 * ltt_app_put_channel_add() / ltt_app_get_channel_add() - CHANNEL_ADD; the
 * context list is put when @m->nr_contexts is not 0, and got when bytes
 * follow nr_streams: get refuses (-EPROTO) a count of 0 or over
 * LTT_CTX_MAX, a context ltt_ctx_check() refuses, and one given twice.
 * Get decodes into *@ret as it reads (no second copy of its 4.6 KB on a
 * program's stack at start-up): a refused message leaves it undefined.
 */
void ltt_app_put_channel_add(struct ltt_wbuf *w, const struct ltt_app_channel_add *m);
int ltt_app_get_channel_add(struct ltt_rbuf *r, struct ltt_app_channel_add *ret);
/** ltt_app_put_channel_key() - CHANNEL_ENABLE, CHANNEL_DISABLE, CHANNEL_REMOVE */
void ltt_app_put_channel_key(struct ltt_wbuf *w, uint64_t channel_key);
int ltt_app_get_channel_key(struct ltt_rbuf *r, uint64_t *ret_key);
/*
 * EVENT_ENABLE, EVENT_DISABLE and EVENT_FILTER: the _v functions as a
 * peer of @minor sends and reads them, the layout from minor 8 (before,
 * it is not sent and decodes as 0); the others with every row.
 */
void ltt_app_put_event_enable(struct ltt_wbuf *w, const struct ltt_app_event_msg *m);
int ltt_app_get_event_enable(struct ltt_rbuf *r, struct ltt_app_event_msg *ret);
void ltt_app_put_event_enable_v(struct ltt_wbuf *w, const struct ltt_app_event_msg *m,
				uint32_t minor);
int ltt_app_get_event_enable_v(struct ltt_rbuf *r, struct ltt_app_event_msg *ret, uint32_t minor);
/** ltt_app_put_event_disable() - EVENT_DISABLE: @m->event_id is not sent */
void ltt_app_put_event_disable(struct ltt_wbuf *w, const struct ltt_app_event_msg *m);
/** ltt_app_get_event_disable() - EVENT_DISABLE; @ret->event_id is set to 0 */
int ltt_app_get_event_disable(struct ltt_rbuf *r, struct ltt_app_event_msg *ret);
void ltt_app_put_event_disable_v(struct ltt_wbuf *w, const struct ltt_app_event_msg *m,
				 uint32_t minor);
int ltt_app_get_event_disable_v(struct ltt_rbuf *r, struct ltt_app_event_msg *ret, uint32_t minor);

/**
 * ltt_app_put_event_filter() - EVENT_FILTER
 * @w: the payload being built
 * @m: borrowed; @m->nr_programs over LTT_APP_FILTER_MAX_PROGRAMS, a
 *     program of length 0 or over LTT_APP_FILTER_MAX_LEN, or a message
 *     over LTT_APP_MSG_MAX is an encoding error left in @w (-EINVAL):
 *     the receiver would refuse it.
 */
void ltt_app_put_event_filter(struct ltt_wbuf *w, const struct ltt_app_event_filter *m);
void ltt_app_put_event_filter_v(struct ltt_wbuf *w, const struct ltt_app_event_filter *m,
				uint32_t minor);

/**
 * ltt_app_get_event_filter() - decode EVENT_FILTER
 * @r: the whole payload
 * @ret: set only on success; its name and programs point into the payload
 *
 * Framing only: the count is checked against LTT_APP_FILTER_MAX_PROGRAMS
 * before any program is read, each length against 1..
 * LTT_APP_FILTER_MAX_LEN and the bytes left; the programs themselves are
 * checked by ltt_filter_validate().  Returns 0 or -EPROTO.
 */
int ltt_app_get_event_filter(struct ltt_rbuf *r, struct ltt_app_event_filter *ret);
int ltt_app_get_event_filter_v(struct ltt_rbuf *r, struct ltt_app_event_filter *ret,
			       uint32_t minor);

/* One rule of AGENT_RULES: strings point into the payload when decoded. */
struct ltt_app_agent_rule {
	const char *pattern;
	uint32_t loglevel_type;		/* enum ltt_loglevel_type */
	int32_t loglevel;
	const char *exclusions;
};

/** ltt_app_put_agent_rules_start() - AGENT_RULES's head; @count rules follow */
void ltt_app_put_agent_rules_start(struct ltt_wbuf *w, uint64_t channel_key, uint32_t count);
void ltt_app_put_agent_rule(struct ltt_wbuf *w, const struct ltt_app_agent_rule *m);
/**
 * ltt_app_get_agent_rules_start() - decode AGENT_RULES's head
 *
 * Then each rule with ltt_app_get_agent_rule(), then ltt_rbuf_end().
 * Returns 0 or -EPROTO (a count over LTT_APP_AGENT_MAX_RULES).
 */
int ltt_app_get_agent_rules_start(struct ltt_rbuf *r, uint64_t *ret_key, uint32_t *ret_count);
/**
 * ltt_app_get_agent_rule() - one rule: 0, or -EPROTO when truncated or not
 * a valid python rule (common/model/attr.h: pattern, exclusions, log level)
 */
int ltt_app_get_agent_rule(struct ltt_rbuf *r, struct ltt_app_agent_rule *ret);

/** ltt_app_logger_name_valid() - 1..255 bytes of no control character */
bool ltt_app_logger_name_valid(const char *name);

/**
 * ltt_app_put_loggers() - a LOGGERS payload of the names at @names
 * (@nr, borrowed) that fit in @max bytes of @w, the first always
 *
 * Returns how many it took: the next LOGGERS starts after them.
 */
size_t ltt_app_put_loggers(struct ltt_wbuf *w, const char *const *names, size_t nr, size_t max);

/**
 * ltt_app_get_loggers() - a whole LOGGERS payload into @names (room for
 * @room; each borrows @r's message), their count in *@ret_count
 *
 * Returns 0, or -EPROTO: malformed, more than @room names, or one that
 * is not ltt_app_logger_name_valid().
 */
int ltt_app_get_loggers(struct ltt_rbuf *r, const char **names, size_t room,
			uint32_t *ret_count);

/**
 * ltt_app_put_tracepoints_start() - begin a TRACEPOINTS payload
 *
 * Its count comes first but is known last: this writes a placeholder and
 * returns where it is, for ltt_app_put_tracepoints_finish().  The
 * descriptions follow, each as ltt_app_put_tracepoint() encodes it.
 */
size_t ltt_app_put_tracepoints_start(struct ltt_wbuf *w);

/** ltt_app_put_tracepoints_finish() - write @count at @start; nothing if @w failed */
void ltt_app_put_tracepoints_finish(struct ltt_wbuf *w, size_t start, uint32_t count);

/**
 * ltt_app_get_tracepoints() - decode and validate a whole TRACEPOINTS payload
 * @ret_tps: an array of *@ret_nr descriptions (NULL when 0); the caller
 *           frees each description and the array.  Set only on success.
 *
 * Returns 0, -EPROTO (a count over LTT_APP_MAX_TRACEPOINTS, a malformed
 * description, bytes left over) or -ENOMEM; nothing is kept on error.
 */
int ltt_app_get_tracepoints(struct ltt_rbuf *r, struct ltt_app_tracepoint ***ret_tps,
			    uint32_t *ret_nr);

/* NOTIFIER_ADD; strings point into the payload when decoded */
struct ltt_app_notifier_add {
	uint64_t key;
	uint32_t nr_captures;		/* 0..LTT_TRIGGER_CAPTURES_LIMIT */
	const char *captures[LTT_TRIGGER_CAPTURES_LIMIT];
};

void ltt_app_put_notifier_add(struct ltt_wbuf *w, const struct ltt_app_notifier_add *m);
/**
 * ltt_app_get_notifier_add() - decode NOTIFIER_ADD: framing, the key's
 * bit, the count and each capture's length (below LTT_CAPTURE_MAX); the
 * expressions themselves are the receiver's to parse.  0 or -EPROTO.
 */
int ltt_app_get_notifier_add(struct ltt_rbuf *r, struct ltt_app_notifier_add *ret);

/* COUNTER_ADD */
struct ltt_app_counter_add {
	uint64_t key;			/* with LTT_APP_NOTIFIER_KEY_BIT */
	uint32_t nr_cpus;
	uint32_t nr_slots;
};

void ltt_app_put_counter_add(struct ltt_wbuf *w, const struct ltt_app_counter_add *m);
/**
 * ltt_app_get_counter_add() - decode COUNTER_ADD: framing, the key's bit,
 * the CPU and slot counts within the limits above.  0 or -EPROTO.
 */
int ltt_app_get_counter_add(struct ltt_rbuf *r, struct ltt_app_counter_add *ret);

/**
 * ltt_app_counter_stride() - the u64 counters of one CPU's row in a
 * counter area of @nr_slots slots
 */
size_t ltt_app_counter_stride(uint32_t nr_slots);

/**
 * ltt_app_counter_size() - the bytes of a counter area of @nr_cpus rows
 * of @nr_slots slots (header included)
 */
size_t ltt_app_counter_size(uint32_t nr_cpus, uint32_t nr_slots);

/* One message of the notification socket, decoded: strings point into it. */
struct ltt_app_notify {
	uint64_t key;
	uint64_t dropped;
	const char *event;
	uint32_t nr_captures;
	struct ltt_capture_desc captures[LTT_TRIGGER_CAPTURES_LIMIT];
};

/**
 * ltt_app_put_notify_head() - a notification's head: the magic, a length
 * of 0, then @m's key, dropped count, event name (borrowed) and number
 * of captures; the captures follow (ltt_capture_put()), then
 * ltt_app_seal_notify() sets the length
 */
void ltt_app_put_notify_head(struct ltt_wbuf *w, const struct ltt_app_notify *m);

/**
 * ltt_app_seal_notify() - set the length (@len bytes) and the dropped
 * count of the whole notification at @msg, which a head began: a sender
 * takes the count last, just before the send
 */
void ltt_app_seal_notify(uint8_t *msg, size_t len, uint64_t dropped);

/**
 * ltt_app_get_notify() - the message at the start of @buf (@len bytes
 * read from the socket, perhaps several messages)
 * @ret_len: its length, to step to the next one
 *
 * Returns 0, -EAGAIN (@buf holds only part of a message: read more), or
 * -EPROTO (not a message: the program lies or is broken; the rest of the
 * socket can't be trusted either).
 */
int ltt_app_get_notify(const uint8_t *buf, size_t len, struct ltt_app_notify *ret,
		       size_t *ret_len);

#endif /* LTT_COMMON_APP_PROTO_H */
