/* SPDX-License-Identifier: (GPL-2.0-only OR LGPL-2.1-only) */
/*
 * ltt-abi.h - the ABI between ltt-tracer.ko and the user-space programs
 * that drive it (ltt-sessiond, ltt-consumerd).  Included by both; only
 * <linux/types.h> and <linux/ioctl.h> types, fixed-width fields, explicit
 * reserved room (must be zero on input, is zero on output).
 *
 * Objects, each a file descriptor:
 *
 *   /proc/ltt              the tracer (open: root, CAP_SYS_ADMIN)
 *    └─ session            LTT_KABI_SESSION
 *        └─ channel        LTT_KABI_CHANNEL  (before the first start only)
 *            └─ stream     LTT_KABI_STREAM   (one per CPU with a buffer)
 *
 * Closing a descriptor releases what it names once nothing else uses it:
 * a stream stays readable until its channel and the stream fd itself are
 * closed.  A session's channels stop recording when the session fd is
 * closed; a channel's streams are finalized (flushed; POLLHUP once read
 * empty) when the channel fd is closed.
 *
 * Events: the tracer knows each event by name ("sched_switch",
 * "syscall_entry_openat", "ltt_test_event", ...) and describes its fields
 * with the vocabulary of <ltt/tracepoint-types.h> (LTT_KABI_FIELD_* below
 * have the same numbers), so the session daemon writes the metadata of
 * kernel traces with the same generator as for user-space traces.  The
 * daemon chooses each event's id in a channel (LTT_KABI_EVENT_ENABLE), as
 * it does for user space.
 *
 * Trace data: every sub-buffer is one CTF 1.8 packet, byte for byte the
 * layout of user-space packets (doc/ctf.md: 84-byte packet header and
 * context, compact or extended event headers, fields unaligned, host byte
 * order, timestamps from CLOCK_MONOTONIC in ns).
 *
 * Errors: every ioctl returns 0 (or a new fd) or -1 with errno; a refused
 * request changes nothing.  EINVAL: a bad argument (reserved bytes not
 * zero, a size out of range, a name not NUL-terminated); ENOTTY: an ioctl
 * this object does not have; EFAULT: bad user memory; ENOENT: no such
 * event or CPU; EEXIST: already enabled; EBUSY: not in this state (e.g. a
 * channel after the first start); ENOSPC: a limit reached; ENOMEM.
 */
#ifndef LTT_ABI_H
#define LTT_ABI_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define LTT_KABI_MAJOR		1	/* incompatible changes */
/*
 * additions: 1 GET_HELD_SUBBUF; 2 SNAPSHOT_SPAN, SNAPSHOT_PEEK;
 * 3 EVENT_ENABLE_FILTERED, EVENT_SET_FILTER; 4 CONTEXT_ADD;
 * 5 TRACKER_SET, TRACKER_GET; 6 STATEDUMP; 7 PROBE, ltt_kabi_version.probes;
 * 8 ltt_kabi_version.maps (the session daemon's tracefs backend's MAP
 * operations, kernel map channels: the module had none);
 * 9 CHANNEL_MEM; MAP, MAP_EVENT, MAP_UNEVENT, MAP_READ, MAP_CTL in the
 * module (ltt_kabi_version.maps 1);
 * 10 buffers for the CPUs online only: ltt_kabi_stream.flags
 * (STREAM_IF_ALLOCATED), channel fd poll, CHANNEL_MEM 0 for a CPU never online;
 * 11 ltt_kabi_field.flags (BIG_ENDIAN), bit arrays and sequences (@bits 1),
 * the enumeration LTTNG_TEST, the event lttng_test_filter_event (only while
 * lttng-test.ko is loaded), ltt_kabi_version.catalog
 */
#define LTT_KABI_MINOR		11
#define LTT_KABI_MINOR_SNAPSHOT	2	/* the first minor whose streams are read
					 * without consuming (SNAPSHOT_PEEK) */
#define LTT_KABI_MINOR_FILTER	3	/* the first minor with event filters */
#define LTT_KABI_MINOR_CONTEXT	4	/* the first minor with CONTEXT_ADD */
#define LTT_KABI_MINOR_TRACKER	5	/* the first minor with process trackers */
#define LTT_KABI_MINOR_STATEDUMP 6	/* the first minor with STATEDUMP */
#define LTT_KABI_MINOR_PROBE	7	/* the first minor with PROBE */
#define LTT_KABI_MINOR_MAP	8	/* the first minor with ltt_kabi_version.maps */
#define LTT_KABI_MINOR_MEM	9	/* the first minor with CHANNEL_MEM */
#define LTT_KABI_MINOR_KMAP	9	/* the first module with MAP objects */
#define LTT_KABI_MINOR_HOTPLUG	10	/* the first with STREAM_IF_ALLOCATED */
#define LTT_KABI_MINOR_FIELD_FLAGS 11	/* the first with field flags and bit arrays */
#define LTT_KABI_MINOR_CATALOG	11	/* the first with ltt_kabi_version.catalog */
#define LTT_KABI_PROC_NAME	"ltt"		/* /proc/ltt */
#define LTT_KABI_TEST_PROC_NAME	"ltt-test"	/* write N: emit N ltt_test_event */
#define LTT_KABI_LOGGER_PROC_NAME "ltt-logger"	/* write text: one ltt_logger event */

#define LTT_KABI_NAME_MAX	256	/* event names, NUL included */
#define LTT_KABI_FIELD_NAME_MAX	64	/* field names, NUL included */
#define LTT_KABI_MAX_FIELDS	32	/* per event */
#define LTT_KABI_VERSION_MAX	32

#define LTT_KABI_MIN_SUBBUF_SIZE	4096ULL		/* and a power of two */
#define LTT_KABI_MAX_SUBBUF_SIZE	(64ULL << 20)
#define LTT_KABI_MIN_NUM_SUBBUF		2ULL		/* and a power of two */
#define LTT_KABI_MAX_NUM_SUBBUF		4096ULL
#define LTT_KABI_MAX_BUFFER_PER_CPU	(1ULL << 30)	/* subbuf_size * num_subbuf */
#define LTT_KABI_MIN_TIMER_US		100U		/* switch and read timers, when not 0 */

/* The ioctl "type" byte of every command below. */
#define LTT_KABI_IOC		0xF7

/* LTT_KABI_VERSION (tracer fd) */
struct ltt_kabi_version {
	__u32 major;
	__u32 minor;
	char tracer_version[LTT_KABI_VERSION_MAX];	/* "0.1.0", NUL-terminated */
	/*
	 * (1.7) The probes the tracer can place: bit (1 << instrumentation)
	 * for each of KPROBE, KRETPROBE, UPROBE (below); SYSCALL: the
	 * session daemon's tracefs backend reads system call strings (event
	 * probes), which the module always does.  Was reserved[0]: a
	 * tracer older than 1.7 leaves 0 there.
	 */
	__u32 probes;
	/*
	 * (1.8) Non-zero when the tracer counts events in kernel map
	 * channels by itself (MAP objects): the session daemon's tracefs
	 * backend, on a kernel with ftrace's histogram triggers; the module
	 * from 1.9 on (before: 0).  Was reserved[0].
	 */
	__u32 maps;
	/*
	 * Non-zero when the session daemon's tracefs backend reads system
	 * call strings with its BPF program (doc/kernel-bpf.md): each
	 * channel's CPUs then have a BPF ring beside their stream: one of
	 * LTT_KABI_BPF_* (below).  The module leaves 0.  Was reserved[0].
	 */
	__u32 bpf;
	/*
	 * (1.11) Changes each time LIST's events change while the tracer is
	 * loaded (lttng-test.ko loaded or removed: its event comes and
	 * goes): a daemon that keeps LIST's answer lists again when it sees
	 * another value.  Was reserved[0]; the tracefs backend leaves 0.
	 */
	__u32 catalog;
	__u32 reserved[4];
};

/*
 * ltt_kabi_version.bpf: why the BPF program reads system call strings:
 * the kernel refuses event probes (PROBES), or LTT_KERNEL_BPF=on chose
 * it where event probes would read them (CHOSEN).
 */
#define LTT_KABI_BPF_PROBES 1
#define LTT_KABI_BPF_CHOSEN 2

/*
 * How an event is instrumented (1.7).  TRACEPOINT and SYSCALL events are
 * the tracer's own (LIST); a probe event exists once a PROBE object
 * places it, and is named as the PROBE call says.
 */
enum ltt_kabi_instrumentation {
	LTT_KABI_TRACEPOINT = 0,
	LTT_KABI_SYSCALL = 1,
	LTT_KABI_KPROBE = 2,	/* an instruction of the kernel: symbol + offset, or addr */
	LTT_KABI_KRETPROBE = 3,	/* a kernel function's entry and return: two events */
	LTT_KABI_UPROBE = 4,	/* an instruction of an ELF file: path + offset */
};

enum ltt_kabi_list_kind {
	LTT_KABI_LIST_TRACEPOINTS = 0,	/* events of kernel tracepoint probes, test probe, logger */
	/* system call names ("openat"), each two events: syscall_entry_NAME, syscall_exit_NAME */
	LTT_KABI_LIST_SYSCALLS = 1,
};

struct ltt_kabi_list_entry {
	char name[LTT_KABI_NAME_MAX];
	__u32 nr_fields;		/* tracepoints: the event's; syscalls: entry's arguments */
	__u32 reserved[3];
};

/* The two events a system call NAME of LTT_KABI_LIST_SYSCALLS stands for. */
#define LTT_KABI_SYSCALL_ENTRY_PREFIX	"syscall_entry_"	/* + NAME */
#define LTT_KABI_SYSCALL_EXIT_PREFIX	"syscall_exit_"		/* + NAME */

/* LTT_KABI_LIST (tracer fd): fills at most @capacity entries, sets @count */
struct ltt_kabi_list {
	__u64 entries;		/* user pointer: struct ltt_kabi_list_entry[capacity] */
	__u32 capacity;
	__u32 kind;		/* enum ltt_kabi_list_kind */
	__u32 count;		/* out: how many the tracer has; > capacity: call again */
	__u32 reserved[3];
};

/* Field types: the numbers of enum ltt_ust_type in <ltt/tracepoint-types.h>. */
enum ltt_kabi_field_type {
	LTT_KABI_FIELD_INTEGER = 1,
	LTT_KABI_FIELD_STRING = 3,
	LTT_KABI_FIELD_ARRAY = 4,	/* @length integers of @size bytes */
	LTT_KABI_FIELD_SEQUENCE = 5,	/* u32 count, then count integers of @size bytes */
	/*
	 * Structures (numbers ltt_ust_type lacks: the kernel's only).  Their
	 * members are the @length fields after them (a member structure's own
	 * members counted in), integers and member structures only, each
	 * integer of @size bytes or a bit field of @bits bits; the members'
	 * bits sum to @size bytes, and those of whole bytes start on one.  A STRUCT is @size bytes in the record; a
	 * STRUCT_SEQUENCE is as many as the unsigned integer field named
	 * NAME_length before it says (lttng-modules' poll fds: fds_length),
	 * @size bytes each, packed.  Filters don't read them.
	 */
	LTT_KABI_FIELD_STRUCT = 7,
	LTT_KABI_FIELD_STRUCT_SEQUENCE = 8,
};

/*
 * The kernel enumerations an INTEGER field may be written as (@enum_id),
 * named and labelled as lttng-modules writes them.
 */
enum ltt_kabi_enum {
	LTT_KABI_ENUM_NONE = 0,
	LTT_KABI_ENUM_EPOLL_OP = 1,	/* lttng_epoll_op: epoll_ctl's op */
	LTT_KABI_ENUM_TAINT = 2,	/* taint: module_load's taints, bit flags */
	/* (1.11) lttng_test_filter_event_enum: lttng-test's values, ranges and -1 */
	LTT_KABI_ENUM_LTTNG_TEST = 3,
};

/*
 * ltt_kabi_field.flags (1.11; before, a reserved byte the module left 0).
 * BIG_ENDIAN: the INTEGER, or each element of the ARRAY or SEQUENCE, is
 * written big endian, its bytes as the probe had them (lttng-modules'
 * network fields: ctf_integer_network, ctf_array_network...); filters
 * read the value it stands for.
 */
#define LTT_KABI_FIELD_BIG_ENDIAN	0x01
#define LTT_KABI_FIELD_FLAGS		LTT_KABI_FIELD_BIG_ENDIAN

struct ltt_kabi_field {
	char name[LTT_KABI_FIELD_NAME_MAX];	/* a C identifier */
	__u8 type;		/* enum ltt_kabi_field_type */
	__u8 size;		/* integers and elements: 1, 2, 4 or 8; strings: 1 */
	__u8 is_signed;
	__u8 base;		/* 10 or 16; strings: 0 */
	__u8 encoding;		/* 0 none, 1 UTF-8 text (1-byte elements only) */
	__u8 bits;		/* a structure's member integer: a bit field of
				 * @bits bits (@size 0); (1.11) an ARRAY or
				 * SEQUENCE of one-bit elements: 1, its
				 * elements packed in @size-byte units (bit i is
				 * bit i % 8 of byte i / 8: a little-endian
				 * host's order), @length (ARRAY) or the count
				 * (SEQUENCE) a multiple of @size * 8 bits;
				 * lttng-modules' ctf_array_bitfield,
				 * ctf_sequence_bitfield; otherwise 0 */
	__u8 enum_id;		/* an event's INTEGER written as the kernel
				 * enumeration LTT_KABI_ENUM_* (its labels:
				 * ltt's table, common/trace/kabi-enum.h);
				 * 0: a plain integer.  Was reserved[0]: the
				 * module leaves 0 */
	__u8 flags;		/* LTT_KABI_FIELD_* (1.11; was reserved) */
	__u32 length;		/* ARRAY: elements; STRUCT*: members; otherwise 0 */
};

/* LTT_KABI_EVENT_DESC (tracer fd): the fields of the event named @name */
struct ltt_kabi_event_desc {
	char name[LTT_KABI_NAME_MAX];	/* in: "sched_switch", "syscall_exit_read" */
	__u32 nr_fields;		/* out */
	__u32 reserved[3];
	struct ltt_kabi_field fields[LTT_KABI_MAX_FIELDS];	/* out, in record order */
};

/* LTT_KABI_CHANNEL (session fd): a channel, returned as a new fd */
struct ltt_kabi_channel {
	__u64 subbuf_size;	/* bytes, power of two, MIN..MAX_SUBBUF_SIZE */
	__u64 num_subbuf;	/* power of two, MIN..MAX_NUM_SUBBUF */
	__u32 overwrite;	/* 0: discard new events when full, 1: overwrite old ones */
	__u32 switch_timer_us;	/* 0 or >= MIN_TIMER_US: close partial sub-buffers */
	__u32 read_timer_us;	/* 0 or >= MIN_TIMER_US: wake readers (see below) */
	__u32 stream_id;	/* CTF stream class id written in its packets */
	__u8 uuid[16];		/* the trace's UUID written in its packets */
	__u32 reserved[8];
};

/*
 * LTT_KABI_STREAM (channel fd): the stream of @cpu, returned as a new fd.
 *
 * A channel holds a buffer for each CPU online when it is made, and gains
 * one for each CPU that comes online later, before that CPU runs; a CPU
 * going offline keeps its buffer (1.10; before, every possible CPU's
 * buffer was made with the channel).  For a possible CPU without a buffer
 * yet, STREAM makes its buffer then, unless @flags has
 * STREAM_IF_ALLOCATED: EAGAIN then, and the channel fd polls readable
 * (POLLIN) while some CPU's buffer exists whose stream was not asked for:
 * ask for it then.  ENOENT: @cpu is not a possible CPU.
 */
struct ltt_kabi_stream {
	__u32 cpu;		/* a possible CPU; each may be asked once (EBUSY after) */
	__u32 flags;		/* 1.10: LTT_KABI_STREAM_*; before, reserved (0) */
	__u32 reserved[2];
};

#define LTT_KABI_STREAM_IF_ALLOCATED	0x1	/* EAGAIN rather than a new buffer */

/* LTT_KABI_EVENT_ENABLE and _DISABLE (channel fd) */
struct ltt_kabi_event {
	char name[LTT_KABI_NAME_MAX];	/* a name the tracer lists (no glob) */
	__u32 id;		/* ENABLE: its event id in this channel (< 2^32 - 1) */
	__u32 reserved[3];
};

/*
 * Event filters (1.3): programs of src/filter-vm/filter-bytecode.h, compiled
 * by the daemon against the event's own fields (LTT_KABI_EVENT_DESC).
 * The tracer validates each against those fields before use; the event is
 * recorded in the channel when any of its programs accepts.  No float
 * (a program pushing or loading one is refused); $ctx values are the
 * current task's (pid, tid, vpid, vtid, vppid, vuid, vgid, procname) and
 * the CPU's (cpu_id); pthread_id and $app values are absent in the kernel
 * and make the comparison reading them reject the event.
 */
#define LTT_KABI_FILTER_MAX_PROGRAMS	64
#define LTT_KABI_FILTER_MAX_LEN		65535		/* one program, header included */
#define LTT_KABI_FILTER_MAX_TOTAL	(1U << 20)	/* all programs of one call */

struct ltt_kabi_filter_prog {
	__u64 code;		/* user pointer: @len bytes */
	__u32 len;		/* 12 (the header) .. LTT_KABI_FILTER_MAX_LEN */
	__u32 reserved;
};

/* LTT_KABI_EVENT_ENABLE_FILTERED and _SET_FILTER (channel fd) */
struct ltt_kabi_event_filter {
	struct ltt_kabi_event event;	/* as EVENT_ENABLE (SET_FILTER: id 0) */
	__u64 programs;		/* user pointer: struct ltt_kabi_filter_prog[nr_programs] */
	__u32 nr_programs;	/* 0..LTT_KABI_FILTER_MAX_PROGRAMS; 0: no filter */
	__u32 reserved[5];
};

/*
 * Context types: the numbers of enum ltt_context_type in <ltt/ltt-ctl.h>
 * (those of the kernel domain).  Each adds a fixed number of bytes after
 * every event header of the channel, in the order they were added, no
 * padding, host byte order: the CTF stream event context.  Values are
 * those of the thread the event fires in (current), read when it fires.
 */
enum ltt_kabi_context_type {
	LTT_KABI_CTX_VPID = 1,		/* s32: tgid in current's pid namespace */
	LTT_KABI_CTX_VTID = 2,		/* s32 */
	LTT_KABI_CTX_PROCNAME = 3,	/* char[17]: comm, NUL-padded */
	LTT_KABI_CTX_CPU_ID = 6,	/* s32: the CPU whose buffer holds it */
	LTT_KABI_CTX_CGROUP_NS = 7,	/* u64 each: the namespace's inode number */
	LTT_KABI_CTX_IPC_NS = 8,
	LTT_KABI_CTX_MNT_NS = 9,
	LTT_KABI_CTX_NET_NS = 10,
	LTT_KABI_CTX_PID_NS = 11,
	LTT_KABI_CTX_TIME_NS = 12,
	LTT_KABI_CTX_USER_NS = 13,
	LTT_KABI_CTX_UTS_NS = 14,
	LTT_KABI_CTX_VUID = 15,		/* u32 each: in current's user namespace */
	LTT_KABI_CTX_VEUID = 16,
	LTT_KABI_CTX_VSUID = 17,
	LTT_KABI_CTX_VGID = 18,
	LTT_KABI_CTX_VEGID = 19,
	LTT_KABI_CTX_VSGID = 20,
	LTT_KABI_CTX_PID = 22,		/* s32: tgid, root pid namespace */
	LTT_KABI_CTX_TID = 23,		/* s32 */
	LTT_KABI_CTX_PPID = 24,		/* s32: real parent's tgid */
	LTT_KABI_CTX_VPPID = 25,	/* s32: the same in current's pid namespace */
	LTT_KABI_CTX_PRIO = 26,		/* s32: prio - MAX_RT_PRIO */
	LTT_KABI_CTX_NICE = 27,		/* s32 */
	LTT_KABI_CTX_HOSTNAME = 28,	/* char[65]: the UTS namespace's nodename */
	LTT_KABI_CTX_INTERRUPTIBLE = 29,	/* u8 each: 0 or 1 */
	LTT_KABI_CTX_PREEMPTIBLE = 30,
	LTT_KABI_CTX_NEED_RESCHEDULE = 31,
	LTT_KABI_CTX_MIGRATABLE = 32,
	LTT_KABI_CTX_UID = 33,		/* u32 each: in the initial user namespace */
	LTT_KABI_CTX_EUID = 34,
	LTT_KABI_CTX_SUID = 35,
	LTT_KABI_CTX_GID = 36,
	LTT_KABI_CTX_EGID = 37,
	LTT_KABI_CTX_SGID = 38,
	LTT_KABI_CTX_NR_ = 39,		/* one past the last number */
};

#define LTT_KABI_MAX_CONTEXTS	32	/* per channel */

/*
 * LTT_KABI_CONTEXT_ADD (channel fd, 1.4): add a context field to every
 * event of the channel, after those added before.  Only before the
 * session's first start (EBUSY after).  EINVAL: unknown type, reserved
 * not zero; EEXIST: the channel has it; ENOSPC: MAX_CONTEXTS reached;
 * EOPNOTSUPP: this kernel's configuration cannot provide it.
 */
struct ltt_kabi_context {
	__u32 type;		/* in: enum ltt_kabi_context_type */
	__u32 size;		/* out: the bytes it adds to each event */
	__u32 reserved[6];
};

/*
 * LTT_KABI_CHANNEL_MEM (channel fd, 1.9): the memory the tracer holds now
 * for the ring buffer of CPU @cpu, counted by the tracer as it allocated
 * it (not computed from the channel's sizes).  The module allocates a
 * CPU's buffer whole when the channel is made or the CPU comes online
 * (1.10; see STREAM): the figure does not grow with use; 0 for a CPU
 * without a buffer yet (1.10).  ENOENT: @cpu is not a possible CPU.
 */
struct ltt_kabi_channel_mem {
	__u32 cpu;		/* in */
	__u32 reserved0;
	__u64 bytes;		/* out: @data_bytes and the buffer's bookkeeping */
	__u64 data_bytes;	/* out: the pages holding packets (PAGE_SIZE each) */
	__u64 reserved[5];
};

/*
 * Kernel map channels (1.9 in the module; 1.8 in the daemon's tracefs
 * backend): a MAP object (LTT_KABI_MAP on the tracer fd, a new fd) holds
 * counters that probes increment, no record written: an event counted
 * under counter @id adds 1 to it each time it fires and its programs (if
 * any) accept it.  A counter is the sum of every event counted under it;
 * it counts only while the map is continued (MAP_CTL CONT; a new map is
 * paused).  Closing the fd removes the map and its counters.  Per CPU
 * in the module: an increment takes no lock and is exact.
 *
 * MAP_EVENT (struct ltt_kabi_event_filter: @event.id the counter):
 * EEXIST the map counts that event under that counter already; ENOENT no
 * such event (or a session's own probe, or a state dump's event: a map
 * belongs to no session);
 * ENOSPC LTT_KABI_MAP_MAX_EVENTS reached, a counter id at or past
 * LTT_KABI_MAP_MAX_COUNTERS, or the event counted under
 * LTT_KABI_MAP_EVENT_MAX_COUNTERS counters already, all maps together
 * (every firing walks them; modules of 1.9 before this limit had none
 * but failed with ENOMEM somewhere past 131,000); EINVAL as
 * EVENT_ENABLE_FILTERED.
 * MAP_UNEVENT (struct ltt_kabi_event): stop counting @name under @id
 * (ENOENT if it is not); what it counted leaves the counter with it (as
 * a histogram trigger's hits on tracefs).  MAP_READ: the counters
 * [@first, @first + READ_MAX) (@nr, @values and reserved zero on input),
 * in time proportional to the pairs it sums, whatever the map's size.
 * MAP_CTL: pause, continue, or zero every counter (CLEAR: an event
 * counted on another CPU at that moment lands before or after).
 */
#define LTT_KABI_MAP_READ_MAX		64	/* counters a MAP_READ returns */
#define LTT_KABI_MAP_MAX_EVENTS		16384	/* (event, counter) pairs per map */
#define LTT_KABI_MAP_MAX_COUNTERS	65537	/* counter ids: 0 .. MAX - 1: 65536 keys and the overflow */
#define LTT_KABI_MAP_EVENT_MAX_COUNTERS	16384	/* (map, counter) pairs per event */

struct ltt_kabi_map_read {
	__u32 first;		/* in: the first counter */
	__u32 nr;		/* out: the counters known from @first, up to READ_MAX */
	__u64 values[LTT_KABI_MAP_READ_MAX];	/* out */
	__u64 reserved[2];
};

enum ltt_kabi_map_cmd {
	LTT_KABI_MAP_PAUSE = 1,
	LTT_KABI_MAP_CONT = 2,
	LTT_KABI_MAP_CLEAR = 3,
};

struct ltt_kabi_map_ctl {
	__u32 cmd;		/* enum ltt_kabi_map_cmd */
	__u32 reserved[3];
};

/* LTT_KABI_GET_NEXT_SUBBUF (stream fd): the oldest complete packet */
struct ltt_kabi_subbuf {
	__u64 offset;		/* out: its first byte in the stream's mmap area */
	__u64 packet_size;	/* out: bytes to write (the sub-buffer size) */
	__u64 content_size;	/* out: bytes holding data, header included */
	__u64 seq;		/* out: its packet_seq_num */
	/*
	 * out: bytes of the stream's mmap area (the same for the stream's
	 * life): map this much at offset 0
	 */
	__u64 mmap_size;
	/*
	 * out: events committed in the packet (exact in discard mode; in
	 * overwrite mode those of the lap read).  Was reserved[0]: a
	 * tracer that predates it leaves 0 there.
	 */
	__u64 events;
	__u64 reserved[2];
};

/* LTT_KABI_STREAM_STATS (stream fd) */
struct ltt_kabi_stream_stats {
	__u64 events_discarded;	/* running total, as written in packet contexts */
	__u64 packets_lost;	/* overwrite mode: packets overwritten before read */
	__u64 reserved[6];
};

/*
 * LTT_KABI_SNAPSHOT_SPAN (stream fd, 1.2): the packets a snapshot may
 * read now, without consuming anything.  Positions are byte counts of
 * the stream (packet_seq_num = position / packet_size).
 */
struct ltt_kabi_snapshot_span {
	__u64 begin;		/* out: the oldest packet still readable */
	__u64 end;		/* out: after the newest complete one: [begin, end) */
	__u64 produced;		/* out: the write position when sampled */
	__u64 packet_size;	/* out: the step from one packet to the next */
	__u64 reserved[4];
};

/* LTT_KABI_SNAPSHOT_PEEK (stream fd, 1.2): copy one packet, not consuming it */
struct ltt_kabi_snapshot_peek {
	__u64 pos;		/* in: a packet's position in a SNAPSHOT_SPAN span */
	__u64 buf;		/* in: user pointer to buf_len bytes */
	__u64 buf_len;		/* in: at least packet_size */
	__u64 content_size;	/* out: bytes holding data, header included */
	__u64 seq;		/* out: its packet_seq_num */
	__u64 events;		/* out: events committed in it */
	__u64 reserved[2];
};

/*
 * Process trackers (session fd, 1.5): a session records an event only when
 * the task running the probe passes every tracker of the session.  Each
 * tracker includes every task (ALL, the default), none (NONE) or those
 * whose id is in its set (SET, 1 to LTT_KABI_TRACKER_MAX_IDS ids, each
 * once, in any order).  Ids are the task's:
 *   PID   thread group id in the initial pid namespace (all threads of a
 *         process; a child has its own pid and is not followed)
 *   VPID  thread group id in the task's own pid namespace
 *   UID, GID    real user and group id in the initial user namespace
 *   VUID, VGID  the same in the task's user namespace
 * State dump events are recorded whatever the trackers (they describe
 * every task, from the daemon's).  A change applies while recording: once
 * TRACKER_SET returns, no probe uses the former set.
 */
enum ltt_kabi_tracker_type {
	LTT_KABI_TRACKER_VPID = 0,
	LTT_KABI_TRACKER_VUID = 1,
	LTT_KABI_TRACKER_VGID = 2,
	LTT_KABI_TRACKER_PID = 3,
	LTT_KABI_TRACKER_UID = 4,
	LTT_KABI_TRACKER_GID = 5,
};
#define LTT_KABI_TRACKER_NR		6
#define LTT_KABI_TRACKER_MAX_IDS	1024

enum ltt_kabi_tracker_policy {
	LTT_KABI_TRACKER_POLICY_ALL = 0,
	LTT_KABI_TRACKER_POLICY_NONE = 1,
	LTT_KABI_TRACKER_POLICY_SET = 2,
};

/*
 * LTT_KABI_TRACKER_SET (session fd): replace tracker @type by @policy and,
 * for SET, the @nr ids at @ids (nr 0 and ids 0 otherwise).  EINVAL: a
 * type or policy out of range, flags or reserved not zero, nr out of
 * range, an id twice, a pid above 2^31 - 1 or a uid/gid of -1.
 * LTT_KABI_TRACKER_GET (session fd): in: @type, @nr (room at @ids, may be
 * 0); out: @policy, @nr (ids in the set; more than the room given: call
 * again), the ids in increasing order.
 */
struct ltt_kabi_tracker {
	__u32 type;		/* enum ltt_kabi_tracker_type */
	__u32 policy;		/* enum ltt_kabi_tracker_policy */
	__u32 nr;
	__u32 flags;		/* 0 */
	__u64 ids;		/* user pointer: __u32[nr] */
	__u64 reserved[2];
};

/*
 * Probes placed from outside (1.7).  LTT_KABI_PROBE (session fd) places
 * one probe and returns it as a new fd: closing it removes the probe (its
 * events stop being recorded).  Its event is then known to EVENT_DESC and
 * enabled in the session's channels by EVENT_ENABLE (or _FILTERED) under
 * the name the tracer returns in @event: a name of the tracer's own,
 * unique among its events while the probe lives, not the user's (which
 * two sessions may both give).  A KRETPROBE has two events: @event
 * (entry) and @event_return (return).
 *
 * A uprobe's arguments (SDT's "-8@%rdx", "4@-4(%rbp)", "8@$5") are fetched
 * when it fires and recorded as the event's fields arg1..argN, integers
 * of their size and sign.
 *
 * Errors: EINVAL (a field out of range, reserved not zero, a name not
 * NUL-terminated, a register the tracer does not know); EOPNOTSUPP (the
 * tracer can't place this instrumentation: see ltt_kabi_version.probes);
 * ENOENT (no such symbol, path or address); ENOSPC (a limit reached).
 */
#define LTT_KABI_SYMBOL_MAX	256	/* a kernel symbol, NUL included */
#define LTT_KABI_PATH_MAX	4096	/* a uprobe's file, NUL included */
#define LTT_KABI_PROBE_MAX_ARGS	12	/* SDT allows 12 */
#define LTT_KABI_REG_MAX	16

enum ltt_kabi_probe_arg_kind {
	LTT_KABI_ARG_REG = 0,	/* the register's value */
	LTT_KABI_ARG_MEM = 1,	/* the bytes at the register's value + @value */
	LTT_KABI_ARG_CONST = 2,	/* @value */
	LTT_KABI_ARG_FOFFS = 3,	/* UPROBE: the bytes at file offset @value of @path, where
				 * the probed process maps it (a global variable) */
};

struct ltt_kabi_probe_arg {
	char reg[LTT_KABI_REG_MAX];	/* REG, MEM: pt_regs' name on this machine ("dx", "bp", "ip") */
	__s64 value;		/* MEM: the offset; CONST: the value; FOFFS: the file offset */
	__u8 kind;		/* enum ltt_kabi_probe_arg_kind */
	__u8 size;		/* 1, 2, 4 or 8 bytes */
	__u8 is_signed;
	__u8 reserved[5];
};

struct ltt_kabi_probe {
	__u32 instrumentation;	/* in: KPROBE, KRETPROBE or UPROBE */
	__u32 nr_args;		/* in: UPROBE: 0..PROBE_MAX_ARGS; else 0 */
	char symbol[LTT_KABI_SYMBOL_MAX];	/* in: K*PROBE: the symbol, or "" with @addr */
	__u64 offset;		/* in: K*PROBE: from @symbol; UPROBE: the file offset in @path */
	__u64 addr;		/* in: K*PROBE with no symbol: the address */
	__u64 ref_ctr_offset;	/* in: UPROBE: the file offset of a 16-bit semaphore the
				 * tracer increments while the probe is placed; 0: none */
	char path[LTT_KABI_PATH_MAX];	/* in: UPROBE: the ELF file, an absolute path */
	struct ltt_kabi_probe_arg args[LTT_KABI_PROBE_MAX_ARGS];	/* in: UPROBE */
	char event[LTT_KABI_NAME_MAX];		/* out: its event's name */
	char event_return[LTT_KABI_NAME_MAX];	/* out: KRETPROBE: its return event's */
	__u32 reserved[8];
};

/* tracer fd (/proc/ltt) */
#define LTT_KABI_VERSION	_IOR(LTT_KABI_IOC, 0x00, struct ltt_kabi_version)
#define LTT_KABI_SESSION	_IO(LTT_KABI_IOC, 0x01)		/* -> session fd */
#define LTT_KABI_LIST		_IOWR(LTT_KABI_IOC, 0x02, struct ltt_kabi_list)
#define LTT_KABI_EVENT_DESC	_IOWR(LTT_KABI_IOC, 0x03, struct ltt_kabi_event_desc)
#define LTT_KABI_MAP		_IO(LTT_KABI_IOC, 0x04)		/* 1.9, -> map fd */

/* session fd */
#define LTT_KABI_CHANNEL	_IOW(LTT_KABI_IOC, 0x10, struct ltt_kabi_channel)	/* -> fd */
#define LTT_KABI_START		_IO(LTT_KABI_IOC, 0x11)	/* record; a state dump if enabled */
#define LTT_KABI_STOP		_IO(LTT_KABI_IOC, 0x12)	/* no new event once it returns */
#define LTT_KABI_TRACKER_SET	_IOW(LTT_KABI_IOC, 0x13, struct ltt_kabi_tracker)	/* 1.5 */
#define LTT_KABI_TRACKER_GET	_IOWR(LTT_KABI_IOC, 0x14, struct ltt_kabi_tracker)	/* 1.5 */
/* record the state dump again now, as START does; -EBUSY when stopped (1.6) */
#define LTT_KABI_STATEDUMP	_IO(LTT_KABI_IOC, 0x15)
#define LTT_KABI_PROBE		_IOWR(LTT_KABI_IOC, 0x16, struct ltt_kabi_probe)	/* 1.7, -> fd */

/* channel fd */
#define LTT_KABI_STREAM		_IOW(LTT_KABI_IOC, 0x20, struct ltt_kabi_stream)	/* -> fd */
#define LTT_KABI_EVENT_ENABLE	_IOW(LTT_KABI_IOC, 0x21, struct ltt_kabi_event)
#define LTT_KABI_EVENT_DISABLE	_IOW(LTT_KABI_IOC, 0x22, struct ltt_kabi_event)
/*
 * (1.3) EVENT_ENABLE with the programs set at once: the event is never
 * recorded unfiltered.  EINVAL: a program fails the tracer's validation
 * against the event's fields, or the limits above; otherwise as
 * EVENT_ENABLE.
 */
#define LTT_KABI_EVENT_ENABLE_FILTERED _IOW(LTT_KABI_IOC, 0x23, struct ltt_kabi_event_filter)
/*
 * (1.3) Replace the programs of an event enabled in the channel (ENOENT if
 * it is not), safely while it fires: a probe runs the old set or the new.
 */
#define LTT_KABI_EVENT_SET_FILTER _IOW(LTT_KABI_IOC, 0x24, struct ltt_kabi_event_filter)
#define LTT_KABI_CONTEXT_ADD	_IOWR(LTT_KABI_IOC, 0x25, struct ltt_kabi_context)	/* 1.4 */
#define LTT_KABI_CHANNEL_MEM	_IOWR(LTT_KABI_IOC, 0x26, struct ltt_kabi_channel_mem)	/* 1.9 */

/* map fd (1.9) */
#define LTT_KABI_MAP_EVENT	_IOW(LTT_KABI_IOC, 0x40, struct ltt_kabi_event_filter)
#define LTT_KABI_MAP_UNEVENT	_IOW(LTT_KABI_IOC, 0x41, struct ltt_kabi_event)
#define LTT_KABI_MAP_READ	_IOWR(LTT_KABI_IOC, 0x42, struct ltt_kabi_map_read)
#define LTT_KABI_MAP_CTL	_IOW(LTT_KABI_IOC, 0x43, struct ltt_kabi_map_ctl)

/*
 * stream fd.  The reader (one per stream):
 *   poll()                 POLLIN: a complete packet is ready; POLLHUP: the
 *                          stream is finalized and everything was read
 *   GET_NEXT_SUBBUF        reserve the oldest complete packet: EAGAIN none
 *                          yet, ENODATA finalized and empty, EBUSY one is
 *                          already held.  The one exception to "a refused
 *                          request changes nothing": EFAULT after the
 *                          packet was taken (the argument unmapped in the
 *                          meantime) leaves it held; PUT_SUBBUF it
 *   splice(fd -> pipe)     reads the held packet from its first byte, in
 *                          order, up to packet_size bytes in total
 *   mmap(PROT_READ)        the whole buffer (num_subbuf * subbuf_size, and
 *                          what the tracer needs beyond it: subbuf.mmap_size
 *                          bytes in all), at offset 0: the held packet is at
 *                          subbuf.offset
 *   GET_HELD_SUBBUF        (1.1) the packet held already, described again
 *                          as GET_NEXT_SUBBUF described it, its splice
 *                          position back at its first byte: a stream fd
 *                          is shared, so a reader that died holding a
 *                          packet leaves it held for the one that takes
 *                          over; ENOENT if none is held
 *   PUT_SUBBUF             release it (EINVAL if none is held)
 *   FLUSH                  close the current packet if it holds events,
 *                          so that it becomes readable; nothing once the
 *                          stream is finalized
 *   STREAM_STATS           the loss counters
 *   SNAPSHOT_SPAN          (1.2) the packets [begin, end) complete and not
 *                          yet overwritten (nor read by the reader); FLUSH
 *                          first to include the open packet
 *   SNAPSHOT_PEEK          (1.2) copy the packet at pos into buf, without
 *                          consuming it or holding up writers: EAGAIN it
 *                          is not complete yet (a writer is inside, or pos
 *                          is at or past the span's end); ESTALE it was
 *                          overwritten (overwrite mode), before or while it
 *                          was copied, or read by the reader: the copy is
 *                          never a mix of two laps; EINVAL pos not on a
 *                          packet boundary, buf_len too small, reserved
 *                          words not zero
 * Writers never block and never wait for the reader: in discard mode an
 * event that does not fit is counted in events_discarded; in overwrite
 * mode the oldest packet not held by the reader is overwritten.
 * The tracer wakes readers from a context where it is safe (never from
 * inside a probe: irq_work or the read timer).
 */
#define LTT_KABI_GET_NEXT_SUBBUF _IOR(LTT_KABI_IOC, 0x30, struct ltt_kabi_subbuf)
#define LTT_KABI_PUT_SUBBUF	_IO(LTT_KABI_IOC, 0x31)
#define LTT_KABI_FLUSH		_IO(LTT_KABI_IOC, 0x32)
#define LTT_KABI_STREAM_STATS	_IOR(LTT_KABI_IOC, 0x33, struct ltt_kabi_stream_stats)
#define LTT_KABI_GET_HELD_SUBBUF _IOR(LTT_KABI_IOC, 0x34, struct ltt_kabi_subbuf)
#define LTT_KABI_SNAPSHOT_SPAN	_IOR(LTT_KABI_IOC, 0x35, struct ltt_kabi_snapshot_span)
#define LTT_KABI_SNAPSHOT_PEEK	_IOWR(LTT_KABI_IOC, 0x36, struct ltt_kabi_snapshot_peek)

#endif /* LTT_ABI_H */
