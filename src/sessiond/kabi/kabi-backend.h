/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi-backend.h - what a kernel tracer backend gives the kernel thread
 * (kabi.c): how to open the tracer, run one operation on one of its
 * objects, and release an object.  Two backends: the module's
 * (kabi-module.c: ioctls on /proc/ltt and the fds it returns) and the
 * kernel's own tracing buffers (kabi-tracefs.c: files of tracefs).
 *
 * The thread (kabi.c) owns the object table, checks every request
 * against the operation table (kabi-ops.c: which kind of object an operation
 * applies to, its argument's size, what it creates) and only then hands
 * it to the backend, always on that one thread: a backend needs no lock
 * of its own.  Arguments are the kernel ABI's structures
 * (src/abi/ltt-abi.h), whatever the backend: a backend reads and fills them
 * as the module would, or refuses an operation it lacks with -ENOTTY
 * (and says why through ltt_kabi_backend.lacks).
 */
#ifndef LTT_SESSIOND_KABI_BACKEND_H
#define LTT_SESSIOND_KABI_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "abi/ltt-abi.h"

/* The kinds of kernel objects. */
enum ltt_kabi_kind {
	LTT_KABI_KIND_NONE = 0,
	LTT_KABI_KIND_TRACER,
	LTT_KABI_KIND_SESSION,
	LTT_KABI_KIND_CHANNEL,
	LTT_KABI_KIND_STREAM,
	LTT_KABI_KIND_PROBE,		/* a probe placed from outside (PROBE): released to remove it */
	LTT_KABI_KIND_MAP,		/* counters the kernel keeps (MAP): released to remove them */
	LTT_KABI_KIND_BPF,		/* a BPF ring or the lost counts a consumer reads (BPF_RING) */
};

/* The operations a backend runs (each as the module's ioctl of that name). */
enum ltt_kabi_op {
	LTT_KABI_OP_VERSION,
	LTT_KABI_OP_LIST,
	LTT_KABI_OP_EVENT_DESC,
	LTT_KABI_OP_SESSION,
	LTT_KABI_OP_CHANNEL,
	LTT_KABI_OP_START,
	LTT_KABI_OP_STOP,
	LTT_KABI_OP_STREAM,
	LTT_KABI_OP_EVENT_ENABLE,
	LTT_KABI_OP_EVENT_DISABLE,
	LTT_KABI_OP_TRACKER_SET,
	LTT_KABI_OP_TRACKER_GET,
	LTT_KABI_OP_EVENT_ENABLE_FILTERED,
	LTT_KABI_OP_EVENT_SET_FILTER,
	LTT_KABI_OP_CONTEXT_ADD,
	LTT_KABI_OP_STATEDUMP,
	LTT_KABI_OP_STREAM_USAGE,	/* the daemon's own: no ioctl of that name */
	LTT_KABI_OP_WAKE_EARLY,		/* the daemon's own, tracefs only: see below */
	LTT_KABI_OP_PROBE,		/* on a session: struct ltt_kabi_probe, creates a PROBE */
	LTT_KABI_OP_MAP,		/* see below */
	LTT_KABI_OP_MAP_EVENT,
	LTT_KABI_OP_MAP_UNEVENT,
	LTT_KABI_OP_MAP_READ,
	LTT_KABI_OP_MAP_CTL,
	LTT_KABI_OP_CHANNEL_MEM,	/* the module only (1.9): tracefs has STREAM_USAGE.allocated */
	LTT_KABI_OP_BPF_RING,		/* the daemon's own, tracefs with BPF only: see below */
	LTT_KABI_OP_NR,
};

/*
 * BPF_RING, on a channel of the tracefs backend where it records system
 * call strings with its BPF program (ltt_kabi_version.bpf): an object
 * (LTT_KABI_KIND_BPF) whose fd a consumer reads beside the CPU's stream:
 * CPU @cpu's ring (@which RING), or the channel's lost counts, a u64
 * per CPU (LOST).  doc/kernel-bpf.md.
 */
#define LTT_KABI_BPF_RING 0
#define LTT_KABI_BPF_LOST 1
struct ltt_kabi_bpf_ring {
	uint32_t cpu;
	uint32_t which;
};

/*
 * STREAM_USAGE's argument: how many bytes a stream holds that its reader
 * has not read yet (written, not consumed), and how many events it could
 * not keep so far (a full buffer in discard mode).  The module's backend
 * asks SNAPSHOT_SPAN (the write position less the oldest packet still to
 * read) and STREAM_STATS; the tracefs backend reads the CPU's buffer's
 * "bytes:" and "dropped events:" statistics.
 */
struct ltt_kabi_stream_usage {
	uint64_t bytes;
	uint64_t dropped;
	/*
	 * The bytes of memory the kernel holds for the stream's buffer, as
	 * it counts them (tracefs: per_cpu/cpuN/buffer_size_kb); 0: the
	 * backend does not say (the module: its buffers are the channel's
	 * size, allocated whole).
	 */
	uint64_t allocated;
};

/*
 * WAKE_EARLY (a channel, no argument): a reader waiting on a stream is
 * woken by its first record, not once a sub-buffer's worth is there
 * (the kernel notifiers of triggers: each record is a firing).  tracefs:
 * the instance's buffer_percent 0; the module: -ENOTTY.
 */

/*
 * Kernel map channels (doc/maps.md), kernel ABI 1.8's operations on the
 * tracefs backend, the module's ioctls of that name from 1.9 on
 * (ltt_kabi_version.maps; their arguments are src/abi/ltt-abi.h's).  MAP
 * (the tracer, no argument) makes a MAP object: counters the kernel keeps
 * by itself, no record read per event (tracefs: an ftrace instance of its
 * own whose events get histogram triggers; the module: per-CPU counters
 * its probes increment), paused.  MAP_EVENT (a map, struct
 * ltt_kabi_event_filter) counts event @name's occurrences that its
 * programs accept under counter @id: -EEXIST when the map counts that
 * event under that counter already; -ENOENT for no such event; -EOPNOTSUPP for programs the
 * kernel's filter can't say exactly; -EINVAL for programs or a trigger
 * it refused.  MAP_UNEVENT (a map, struct ltt_kabi_event) stops counting
 * event @name under counter @id.  MAP_READ (a map, struct
 * ltt_kabi_map_read) reads the count of each counter from @first into
 * @values.  MAP_CTL (a map, struct ltt_kabi_map_ctl) pauses, continues
 * or zeroes every counter.
 */

/*
 * CHANNEL_MEM (a channel, struct ltt_kabi_channel_mem): the memory the
 * module holds for one CPU's buffer of the channel, as it allocated it
 * (kernel ABI 1.9); the tracefs backend: -ENOTTY (STREAM_USAGE's
 * @allocated says it).
 */

/*
 * A user pointer in an operation's argument (the ioctl style of
 * src/abi/ltt-abi.h): a u64 at @ptr_off pointing at @count_off's u32 count
 * of @elem_size-byte elements, at most @max.  @in: the tracer reads
 * them; @out: it fills them.  @elem: a user pointer in each element
 * (read by the tracer only: a filter's programs' code), or NULL.  The
 * privileged part (priv.h) copies what they point at across its
 * socket, so that an operation's description is all it needs.
 */
struct ltt_kabi_ref {
	size_t ptr_off;
	size_t count_off;
	size_t elem_size;
	uint32_t max;
	bool in, out;
	const struct ltt_kabi_ref *elem;
};

/* What the thread knows of every operation, whatever the backend. */
struct ltt_kabi_op_desc {
	const char *name;		/* in messages */
	enum ltt_kabi_kind on;		/* the object it runs on */
	size_t arg_size;		/* 0: no argument */
	enum ltt_kabi_kind creates;	/* NONE, or the kind of object it returns */
	const struct ltt_kabi_ref *ref;	/* the argument's user pointer, or NULL */
};

extern const struct ltt_kabi_op_desc ltt_kabi_ops[LTT_KABI_OP_NR];

/* A kernel object as the backend sees it. */
struct ltt_kabi_obj {
	int fd;				/* owned; a stream's is handed (dup) to consumers */
	void *priv;			/* the backend's, or NULL */
	enum ltt_kabi_kind kind;
};

/* The features a backend may lack, asked before use (ltt_kabi_lacks()). */
enum ltt_kabi_feature {
	LTT_KABI_FEAT_FILTER,		/* EVENT_ENABLE_FILTERED, EVENT_SET_FILTER */
	LTT_KABI_FEAT_CONTEXT,		/* CONTEXT_ADD */
	LTT_KABI_FEAT_TRACKER,		/* TRACKER_SET, TRACKER_GET */
	LTT_KABI_FEAT_STATEDUMP,	/* STATEDUMP */
	LTT_KABI_FEAT_SNAPSHOT,		/* a channel's streams read again (snapshots) */
	LTT_KABI_FEAT_RECORD,		/* channels whose streams a consumer reads */
	LTT_KABI_FEAT_KPROBE,		/* PROBE of KPROBE and KRETPROBE */
	LTT_KABI_FEAT_UPROBE,		/* PROBE of UPROBE */
	LTT_KABI_FEAT_SYSCALL_STRINGS,	/* system call paths and names read as strings */
	LTT_KABI_FEAT_MAP,		/* MAP and its operations (kernel map channels) */
	LTT_KABI_FEAT_HOTPLUG,		/* STREAM_IF_ALLOCATED: no buffer for a CPU never online
					 * (the module from 1.10; tracefs lacks it: the kernel has
					 * every possible CPU's) */
};

struct ltt_kabi_backend {
	const char *name;		/* "module", "tracefs": in messages and list */
	/*
	 * false: a stream gives CTF packets the tracer wrote (the module);
	 * true: a stream gives the kernel's ring-buffer pages, which the
	 * consumer converts, and a channel's fd is its event map
	 * (common/ftrace/ftrace-map.h), which consumers get a dup of (tracefs).
	 */
	bool pages;
	/*
	 * Open the tracer at @path (NULL: the backend's default place): the
	 * tracer object's fd and private state.  Returns 0 or -errno
	 * (-ENOENT: no tracer there).
	 */
	int (*open)(const char *path, struct ltt_kabi_obj *ret_tracer);
	/*
	 * Run @op on @obj (of the kind the operation applies to) with @arg
	 * (its argument, NULL when it takes none); an operation that creates
	 * an object fills @ret_new (kind set by the thread).  Returns 0 or
	 * -errno.
	 */
	int (*run)(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		   struct ltt_kabi_obj *ret_new);
	/* Release @obj: close its fd, free its state (any kind). */
	void (*release)(struct ltt_kabi_obj *obj);
	/*
	 * Optional, for a backend that may lack features (NULL: it has them
	 * all): 0 when the tracer of @version has @feature, else -ENOTTY or
	 * -EOPNOTSUPP with a sentence in @why (what lacks it and what to do)
	 * naming @what (the thing refused: "filter of event 'x'").
	 */
	int (*lacks)(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
		     const char *what, char *why, size_t why_size);
	/*
	 * Optional, for a backend with LTT_KABI_FEAT_CONTEXT that writes some
	 * contexts only: 0 when it writes context @type (enum
	 * ltt_kabi_context_type), else -EOPNOTSUPP with a sentence in @why
	 * naming @what.
	 */
	int (*context_lacks)(uint32_t type, const char *what, char *why, size_t why_size);
	/*
	 * Optional: as context_lacks, for a filter's $ctx.NAME (NULL:
	 * context_lacks answers for filters too).
	 */
	int (*filter_context_lacks)(uint32_t type, const char *what, char *why, size_t why_size);
	/*
	 * Optional, for a backend with LTT_KABI_FEAT_TRACKER that has some
	 * trackers only: 0 when it has tracker @type (enum
	 * ltt_kabi_tracker_type), else -EOPNOTSUPP with a sentence in @why
	 * naming @what.  TRACKER_SET of a type it lacks takes ALL only.
	 */
	int (*tracker_lacks)(uint32_t type, const char *what, char *why, size_t why_size);
};

extern const struct ltt_kabi_backend ltt_kabi_module;
extern const struct ltt_kabi_backend ltt_kabi_tracefs;

#endif /* LTT_SESSIOND_KABI_BACKEND_H */
