/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ust.h - libltt-ust, the tracer linked into instrumented programs: its
 * modules, file by file, from the top layer down (a file calls only files
 * listed below it).  doc/ust.md ("The tracer library") has the design.
 *
 *   lib-desc-gen.c  a program run at build time: the library's own
 *               descriptions, encoded, into lib-desc.c (data only, read by
 *               registry.c's ust_lib_desc()).
 *   testing.c   the hooks of ust-internal.h (tests play the daemon).
 *   ust-internal.h  those hooks, for unit tests and benchmarks.
 *   init.c      the library's start-up, configuration from the environment,
 *               ltt_ust_register_module() and its bounded wait, fork().
 *   comm.c      one thread per session daemon: register (the first time
 *               sent by the constructor), serve commands.
 *   comm-cmd.[ch]  the commands a daemon sends (channels, events, filters,
 *               agent rules, notifiers, counters), run for comm.c's thread;
 *               comm-cmd.h: what the thread keeps of its daemon (struct daemon).
 *   lib-tracepoints.c  the library's own tracepoints, registered at start-up.
 *   agent.[ch]  what a language agent is told (its rules) and tells (loggers).
 *   statedump.c the objects the program has loaded, recorded for readers.
 *   tracef.c    ltt_tracef() and ltt_tracelog().
 *   retire.c    what readers may still see (struct ust_retire), freed after
 *               a grace period.
 *   probe.c     the fast path (ltt_ust_probe_reserve/commit).
 *   context.c   the context fields channels add to events (add-context):
 *               per-thread and per-process caches, perf counters.
 *   channel.c   channels: the mapped, validated ring buffers of a session.
 *   notify.[ch] notifiers (a trigger's event-rule-matches condition): the
 *               message a matching event sends on the daemon's socket, and
 *               the count of drops flushed when a notifier goes.
 *   registry.c  modules, events (one per name, however many descriptors
 *               carry it) and their targets, published to the fast path
 *               under RCU.
 *   filter.c    filter program sets: validation, running, context fields.
 *   rcu.[ch]    the fast path's read-side critical sections and their
 *               grace periods (rcu.h: included by the files that use them).
 *   fds.c       the fds the library keeps open, which LTTng's fd helper
 *               leaves open when a program closes every fd.
 *   getcpu.c    the getcpu plugin's function (ltt_ust_getcpu_set(), in
 *               channel.c, which tells the channels: hint_streams), which
 *               ust_current_cpu() asks for each event's CPU when one is set.
 *   base.c      the ust lock, the start-up condition, the debug switch.
 *
 * Objects and references:
 *   ust_event   -> rules {ust_channel *, id}: the authoritative list
 *               -> published ust_targets: an immutable copy that every
 *                  descriptor of the event points to (desc->priv)
 *   ust_channel -> streams, each a struct ltt_rb on its own mapping
 *   ust_notifier -> an embedded ust_channel (UST_CHAN_NOTIFY, no stream)
 *                   that rules name as they name channels, the socket's fd
 * A channel or notifier is owned by the daemon (comm thread) that added
 * it.  Notifiers are in a list of their own (notify.c): what walks the
 * channel list (state dump, events_lost, exit, fork) never meets one;
 * only the rules, found with ust_channel_find_target(), point to them.
 *
 * Locking: one mutex, the "ust lock" (ust_lock()), guards the registry,
 * the channel and notifier lists and the daemons' shared state.  It is never held across
 * I/O nor across an RCU grace period (but at exit, for the notifiers' last
 * counts: bounded, ust_notifiers_flush_all()).  The fast path takes no lock: it
 * reads desc->priv and the channels inside an RCU read-side critical
 * section (rcu.c); whatever it may still see (a replaced target array, a removed
 * channel) is freed only after a grace period (struct ust_retire).
 */
#ifndef LTT_UST_UST_H
#define LTT_UST_UST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sched.h>
#include <time.h>
#if defined(__has_include)
#if __has_include(<sys/rseq.h>)
#include <sys/rseq.h>
#define HAVE_RSEQ_AREA 1
#endif
#endif

#include <ltt/tracepoint-types.h>

#include "common/base/thread.h"
#include "common/model/context.h"
#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "common/trace/ringbuf.h"
#include "filter-vm/filter-vm.h"

/* ---- base.c ---- */

/** ust_lock() / ust_unlock() - the library's one mutex (see above) */
void ust_lock(void);
void ust_unlock(void);

/**
 * ust_state_init() - (re)make the condition of ust_state_wait(): at
 * start-up, and in a fork()ed child, where no waiter of the parent is
 */
void ust_state_init(void);

/**
 * ust_state_changed() - wake the threads waiting in ust_state_wait(), after
 * changing what they wait for under the ust lock; best right after
 * releasing it (a waiter woken while it is held only sleeps again on it)
 */
void ust_state_changed(void);

/**
 * ust_state_wait() - wait for ust_state_changed() until @deadline
 * (CLOCK_MONOTONIC; NULL: no end), the ust lock held (released while
 * waiting).
 * Returns pthread_cond_timedwait()'s: 0, or ETIMEDOUT past @deadline.
 */
int ust_state_wait(const struct timespec *deadline);

/** ust_debug_init() - turn ust_debug() on when LTT_UST_DEBUG is set (not "0") */
void ust_debug_init(void);

/** ust_debug() - a diagnostic on stderr when LTT_UST_DEBUG is set */
void ust_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- getcpu.c ---- */

/*
 * A getcpu plugin's function (ltt_ust_getcpu_set(), channel.c), or NULL;
 * hidden: read PC-relative, no GOT.  The fast path does not read it: a
 * channel's hint_streams is 0 while it is set.
 */
extern int (*ust_getcpu_fn)(void) __attribute__((visibility("hidden")));

/*
 * The CPU we run on: a getcpu plugin's number when one is set, else from
 * the rseq area glibc registers for each thread (three instructions),
 * else sched_getcpu() (the vDSO).
 */
static inline int ust_current_cpu(void)
{
	int (*getcpu)(void) = __atomic_load_n(&ust_getcpu_fn, __ATOMIC_RELAXED);

	if (__builtin_expect(getcpu != NULL, 0))
		return getcpu();
#ifdef HAVE_RSEQ_AREA
	if (__builtin_expect(__rseq_size != 0, 1)) {
		const struct rseq *rs = (const struct rseq *)(void *)
			((char *)__builtin_thread_pointer() + __rseq_offset);
		int32_t cpu = (int32_t)__atomic_load_n(&rs->cpu_id, __ATOMIC_RELAXED);

		if (__builtin_expect(cpu >= 0, 1))
			return cpu;
	}
#endif
	return sched_getcpu();
}

/* ---- fds.c ---- */

/* Fds from this number up are not kept from a program's close. */
#define UST_FDS_MAX 65536

/**
 * ust_fd_close() - take @fd out of the set and close it, under the fd
 * lock; a negative @fd is ignored.  Returns close()'s.
 */
int ust_fd_close(int fd);

/* ---- registry.c ---- */

struct ust_filters;

/*
 * What the fast path reads: immutable once published.  A target "needs
 * the call" when the probe must pass what only it knows: the event's
 * arguments (a channel filters the event, or the target is a notifier,
 * which captures them) or its call site (the channel records the ip
 * context).  An event with such a target has up to three
 * views of its targets, under the same RCU pointer:
 *
 *   - the plain view (desc->priv, what ltt_ust_probe_reserve() walks)
 *     shows each target that needs the call with @chan = &ust_chan_hidden,
 *     a channel that is never enabled: a probe that passes no call (one
 *     that read the state before the target came) never records there
 *     unfiltered or with an unknown call site, at no cost to the plain
 *     fast path;
 *   - the call view (@fview, what ltt_ust_probe_reserve_filter() walks,
 *     @call set) has the real channels and their filter programs;
 *   - the old view (@oview, what the descriptors of ABI 1 point to, whose
 *     probes never pass a call) hides the filtered targets only: their
 *     events go to a channel with the ip context with an ip of 0.
 */
struct ust_target {
	struct ust_channel *chan;
	uint32_t id;			/* event id in the channel */
	const struct ust_filters *filters;	/* fview only: NULL, or run them first */
};

struct ust_targets {
	struct ust_targets *retired_next;	/* in a struct ust_retire */
	uint32_t nr;				/* >= 1: no event, no array (NULL) */
	bool call;				/* the call view: ctx_call() is valid */
	struct ust_targets *fview;		/* the call view, or NULL */
	struct ust_targets *oview;		/* the view of ABI 1 probes, or NULL */
	/* the event's description (ltt_app_put_tracepoint()): the notifiers' */
	const uint8_t *enc;			/* the event's, immutable, never freed */
	size_t enc_len;
	struct ust_target t[];
};

struct ust_notifier;

/* Things to free once no reader can see them: see ust_retire_flush(). */
struct ust_retire {
	struct ust_targets *targets;	/* with their fview and oview */
	struct ust_channel *channels;
	struct ust_filters *filters;
	struct ust_notifier *notifiers;
};

#define UST_RETIRE_INIT { NULL, NULL, NULL, NULL }

struct ust_event;

/**
 * ust_registry_add_module() - record a module's descriptors; ust lock held
 * @start: first of its descriptor pointers; NULL for a module without any
 * @stop: one past the last
 * @checked: the descriptions are the library's own, known valid (its
 *	test checks them with the daemon's decoder), so that the start-up
 *	does not decode them again before their first TRACEPOINTS; a
 *	program's are checked once, before they are first sent
 *
 * Descriptors carrying an already known name join that event (and get its
 * targets) when their description is the same, else they make an event
 * of their own (another layout of the name).  Returns
 * 1 for a module seen for the first time, 0 for another reference to a
 * known one, or -ENOMEM.
 */
int ust_registry_add_module(struct ltt_ust_tracepoint *const *start,
			    struct ltt_ust_tracepoint *const *stop, bool checked);

/**
 * ust_lib_desc() - the description of the library's own tracepoint @name,
 * as ltt_app_put_tracepoint() encodes it, made when the library was built
 * (lib-desc-gen.c), so that no start encodes it again; NULL for another
 * name, and in lib-desc-gen itself (which encodes them)
 * @ret_len: its bytes
 */
const uint8_t *ust_lib_desc(const char *name, size_t *ret_len);

/*
 * What lib-desc-gen writes (lib-desc.c, generated: data only): the
 * descriptions' bytes, one after the other in the order of their names
 * (strcmp()), and where each starts (ust_lib_desc_off[ust_nr_lib_descs] is
 * the end).  Each starts with its name, u32 length and bytes (app-proto.h).
 */
extern const uint8_t ust_lib_desc_bytes[];
extern const uint32_t ust_lib_desc_off[];
extern const uint32_t ust_nr_lib_descs;

/**
 * ust_registry_remove_module() - drop one reference; the last one turns the
 * module's descriptors off and forgets them; ust lock held
 *
 * No grace period is needed: target arrays are not freed here.
 */
void ust_registry_remove_module(struct ltt_ust_tracepoint *const *start);

/** ust_registry_nr_events() - events known (sent to daemons); ust lock held */
uint64_t ust_registry_nr_events(void);

/**
 * ust_registry_encode() - append the descriptions of events @first.. to @w
 * @first: index (0-based, in registration order) of the first to encode
 * @max_bytes: stop before @w's length would exceed this
 * @ret_count: how many were appended (at least one unless none is left or
 *             the first alone exceeds @max_bytes, then 0 and it is skipped).
 *             Descriptions the daemon would refuse are skipped.
 *
 * ust lock held.  Returns the index after the last one consumed.
 */
uint64_t ust_registry_encode(struct ltt_wbuf *w, uint64_t first, size_t max_bytes,
			     uint32_t *ret_count);

/**
 * ust_events_enable(), ust_events_disable(), ust_events_set_filter() -
 * ust_event_enable(), ust_event_disable(), ust_event_set_filter() of each
 * event a daemon's command addresses; ust lock held
 * @layout: the description's layout (ltt_app_layout_of()), or 0
 * @every: with @layout 0, every description of @name; else the first
 *	the daemons were told of (what a daemon before app protocol minor 8,
 *	which sends no layout, knows of the name)
 *
 * Return -ENOENT when no event is addressed (or none had what a disable
 * takes away), else the first other error of one event, or 0.
 */
int ust_events_enable(const char *name, uint64_t layout, bool every, struct ust_channel *chan,
		      uint32_t id, struct ust_retire *retire);
int ust_events_disable(const char *name, uint64_t layout, bool every, struct ust_channel *chan,
		       struct ust_retire *retire);
int ust_events_set_filter(const char *name, uint64_t layout, bool every,
			  struct ust_channel *chan, uint32_t nr,
			  const struct ltt_app_filter_program *progs, struct ust_retire *retire);

/** ust_event_known() - is an event called @name (any layout) known?  ust lock held */
bool ust_event_known(const char *name);

/**
 * ust_event_enable() - record @ev into @chan with @id; ust lock held
 * @chan: a channel, or a notifier's (then @ev is notified, not recorded)
 *
 * Replaces the id if the event already goes to @chan.  The previous target
 * array goes to @retire.  Returns 0, -ENOMEM, -EINVAL (its filter on @chan
 * was refused) or -EOPNOTSUPP (a notifier, and a module declares @ev with
 * a header too old to pass its arguments: it could never notify).
 */
int ust_event_enable(struct ust_event *ev, struct ust_channel *chan, uint32_t id,
		     struct ust_retire *retire);

/**
 * ust_event_disable() - stop recording @ev into @chan; ust lock held
 *
 * Returns 0, -ENOENT when it was not recorded there, or -ENOMEM.
 */
int ust_event_disable(struct ust_event *ev, struct ust_channel *chan, struct ust_retire *retire);

/**
 * ust_events_drop_channel() - remove every target of @chan; ust lock held
 *
 * Returns 0 or -ENOMEM (then some targets remain: the caller must not free
 * the channel).
 */
int ust_events_drop_channel(struct ust_channel *chan, struct ust_retire *retire);

/**
 * ust_event_set_filter() - EVENT_FILTER: make @progs the filter programs
 * of @ev on @chan, replacing any; ust lock held
 * @nr: 0 (no filter: the event is recorded there unconditionally) ..
 *      LTT_APP_FILTER_MAX_PROGRAMS
 * @progs: the programs, borrowed (copied when kept)
 *
 * Each program is validated against the event's own fields.  On -EINVAL
 * (one fails) or -EOPNOTSUPP (a module declares the event with a header
 * too old to filter), the event keeps no filter on @chan and is disabled
 * there, and EVENT_ENABLE for it there is refused until a filter is set
 * that passes.  What the readers may still see goes to @retire.  Returns
 * 0, -EINVAL, -EOPNOTSUPP or -ENOMEM (nothing changed).
 */
int ust_event_set_filter(struct ust_event *ev, struct ust_channel *chan, uint32_t nr,
			 const struct ltt_app_filter_program *progs, struct ust_retire *retire);

/** ust_targets_free() - free a target array and its views; accepts NULL */
void ust_targets_free(struct ust_targets *t);

/** ust_events_refresh() - recompute every descriptor's state; ust lock held */
void ust_events_refresh(void);

/**
 * ust_registry_fork_child() - forget every target and turn everything off,
 * in a child just forked (one thread, no reader); ust lock held
 */
void ust_registry_fork_child(void);

/* ---- filter.c ---- */

/* A channel that is never enabled: the plain view's targets that need the call. */
extern struct ust_channel ust_chan_hidden;

/**
 * ust_filters_create() - validate @nr programs against @fields and copy
 * them into one block; any thread, no lock
 * @ret: the set, freed with ust_filters_free() (after a grace period
 *       once published)
 *
 * Returns 0, -EINVAL (a program fails ltt_filter_validate(), logged with
 * LTT_UST_DEBUG) or -ENOMEM.
 */
int ust_filters_create(uint32_t nr, const struct ltt_app_filter_program *progs,
		       const struct ltt_filter_field_desc *fields, uint32_t nr_fields,
		       struct ust_filters **ret);

/** ust_filters_free() - accepts NULL */
void ust_filters_free(struct ust_filters *f);

/** ust_filters_retire() - queue @f on @retire (NULL: nothing) */
void ust_filters_retire(struct ust_filters *f, struct ust_retire *retire);

/** ust_filters_next_retired() - the set queued after @f on its ust_retire */
struct ust_filters *ust_filters_next_retired(const struct ust_filters *f);

/**
 * ust_filters_accept() - does any program of @f accept the event whose
 * field values are @args[0..@nr_args)?  Fast path: any thread, no lock,
 * no allocation; context fields are read through per-thread caches.
 */
bool ust_filters_accept(const struct ust_filters *f, const struct ltt_filter_arg *args,
			uint32_t nr_args);

/** ust_filter_fork_child() - forget the cached pid and thread ids, in a child */
void ust_filter_fork_child(void);

struct ltt_filter_value;

/**
 * ust_filter_read_ctx() - the value of context field @id (enum
 * ltt_filter_ctx) as filters read it, for the calling thread
 * @out: S64, U64 or STR (a string in per-thread storage, valid until the
 *       thread's next call)
 *
 * Fast path: any thread, no lock, no allocation, async-signal-safe.
 * Returns 0, or -1 when the value is unknown (no such id, or /proc could
 * not tell).
 */
int ust_filter_read_ctx(unsigned int id, struct ltt_filter_value *out);

/* ---- channel.c ---- */

/*
 * Padded to UST_STREAM_SIZE, a power of two, so that the fast path finds
 * a CPU's stream with a shift rather than a multiplication.
 */
#define UST_STREAM_SIZE 512
struct ust_stream {
	union {
		struct {
			struct ltt_rb rb;	/* attached to mem */
			struct ltt_rb_wrec *wrecs;	/* our block's records, or ust_untracked_wrecs */
			void *mem;
			size_t len;
			bool mapped;		/* mem is ours to munmap */
			int wakeup_fd;		/* ours to close, or -1 */
			int lock_fd;		/* holds our writer block's lock, or -1 */
		};
		uint8_t ust_stream_size[UST_STREAM_SIZE];
	};
};
_Static_assert(sizeof(struct ust_stream) == UST_STREAM_SIZE, "a stream is UST_STREAM_SIZE bytes");

/*
 * The records of a stream whose writer block could not be taken (no
 * /proc, or every block in use): never read.  Their pos, like that of
 * each block's scratch record, is UST_WREC_NONE for good: a thread whose
 * record is not 0 reserves untracked (ltt_rb_reserve_untracked()), which
 * also covers a signal handler whose thread's record is in use.
 */
extern struct ltt_rb_wrec ust_untracked_wrecs[LTT_RB_WRECS + 1];
#define UST_WREC_NONE 1u

/*
 * Each thread's record index in the writer blocks (ringbuf.h): 0 ..
 * LTT_RB_WRECS - 1, LTT_RB_WRECS (the scratch record) when all are taken,
 * UST_WREC_UNSET until its first event.
 */
#define UST_WREC_UNSET (LTT_RB_WRECS + 1)
extern __thread uint32_t ust_wrec_idx;

/**
 * ust_wrec_assign() - give the calling thread a record index (returned and
 * stored in ust_wrec_idx); freed when the thread exits.  Any thread, no
 * lock; async-signal-safe but for its first call in the process
 * (pthread_once).
 */
uint32_t ust_wrec_assign(void);

/* ust_wrec_in_use() - how many record indexes threads hold now */
unsigned int ust_wrec_in_use(void);

/* One context field of a channel, as the fast path writes it (context.c). */
struct ust_ctx_field {
	uint32_t type;			/* enum ltt_context_type */
	uint32_t perf_idx;		/* PERF_THREAD: the counter's slot (context.c) */
};

struct ust_channel {
	struct ust_channel *next;		/* channel list, ust lock */
	struct ust_channel *retired_next;	/* in a struct ust_retire */
	const void *owner;			/* the daemon that added it */
	uint64_t key;
	uint64_t session_id;
	uint32_t stream_id;
	int enabled;				/* UST_CHAN_*: read by the fast path */
	uint32_t ctx_len;			/* bytes of context per event: 0 without */
	uint32_t nr_ctx;
	uint32_t ctx_have;			/* what a thread keeps to write them (context.c) */
	bool ctx_ip;				/* a field is ip: events need their call site */
	/*
	 * Its owner's comm thread's (comm-cmd.c, comm.c), one state dump per
	 * start: the dump of the daemon's last start (or regenerate) is not
	 * recorded yet; and the CHANNEL_ENABLE that the daemon sends once the
	 * events of a channel it added enabled are is still to come
	 */
	bool dump_owed;
	bool enable_due;
	struct ust_ctx_field ctx[LTT_CTX_MAX];	/* set before the channel is inserted */
	/*
	 * Slots, indexed by CPU: the streams the daemon gave (nr_owned), and
	 * for a channel of one stream (per-channel) copies of it, one per
	 * CPU (channel.c, channel_share()), which own nothing
	 */
	uint32_t nr_streams;
	uint32_t nr_owned;
	/*
	 * The CPU hints the fast path takes as they are (a slot below this):
	 * nr_streams, or 0 while a getcpu plugin says each event's CPU, so
	 * that every event asks it (ust_current_cpu()) without a test of its
	 * own; ust lock (ust_channel_insert(), ltt_ust_getcpu_set())
	 */
	uint32_t hint_streams;
	struct ust_stream streams[];
};

#define UST_MAX_STREAMS 512		/* LTT_APP_MAX_FDS / 2 */

/*
 * chan->enabled: whether the channel records, and whether its events carry
 * context fields, so that the fast path tests both with one comparison.
 * A notifier's channel (notify.c) is UST_CHAN_NOTIFY from its creation to
 * its end: the slow walk notifies it, never reserves in it; the first
 * target's inline test takes it for "off" and leaves it to the walk.
 */
#define UST_CHAN_OFF 0
#define UST_CHAN_ON 1			/* records, no context field, the TSC by RDTSCP */
#define UST_CHAN_ON_CTX 2		/* records, with context fields */
#define UST_CHAN_NOTIFY 3		/* a notifier's: no stream, never recorded into */
#define UST_CHAN_ON_READ 4		/* records, no context field, another clock read */

/**
 * ust_channel_set_enabled() - turn @chan on or off (chan->enabled); ust
 * lock held, or @chan not in the list yet
 */
void ust_channel_set_enabled(struct ust_channel *chan, bool on);

/**
 * ust_channel_map() - map and validate the streams of a new channel
 * @fds: 2 x @nr_streams descriptors (shared memory, wakeup eventfd) per
 *       stream: all taken, closed on error too
 * @own_fds: each sealed memory fd is an open file description of our
 *           own (the daemon's app minor is 10 or more: app-proto.h,
 *           CHANNEL_ADD), kept for the writer block's lock; else (and for
 *           a file) one is opened
 * @ret_chan: a channel not yet in the list, disabled or enabled as @enabled
 *
 * Any thread, no lock.  Each memory must be a memfd sealed against
 * shrinking; it is mapped at its size and checked by ltt_rb_attach(); a bad
 * one refuses the channel.  Returns 0, -EINVAL (bad count or region, or
 * regions counting different clocks), -EPERM (not sealed), -ENOMEM, or
 * the errno of fstat() or mmap().
 */
int ust_channel_map(const void *owner, uint64_t key, uint64_t session_id, uint32_t stream_id,
		    bool enabled, uint32_t nr_streams, int *fds, bool own_fds,
		    struct ust_channel **ret_chan);

/**
 * ust_channel_wrap() - a channel over regions the caller mapped (tests)
 * @mems: @nr_streams regions (borrowed: they must outlive the channel)
 * @lens: their sizes
 *
 * Returns 0, -EINVAL when a region does not validate or the regions count
 * different clocks, or -ENOMEM.
 */
int ust_channel_wrap(const void *owner, uint64_t key, uint32_t nr_streams, void *const *mems,
		     const size_t *lens, struct ust_channel **ret_chan);

/** ust_channel_destroy() - unmap and close; accepts NULL; no reader may see it */
void ust_channel_destroy(struct ust_channel *chan);

/**
 * ust_channel_insert() - add to the list; ust lock held.  Returns 0,
 * -EEXIST for a known (owner, key), or -EINVAL for a key with
 * LTT_APP_NOTIFIER_KEY_BIT (a notifier's: no channel may shadow one).
 */
int ust_channel_insert(struct ust_channel *chan);

/**
 * ust_channel_add() - ust_channel_insert() under the ust lock (not held);
 * a channel refused is destroyed.  Returns as ust_channel_insert().
 */
int ust_channel_add(struct ust_channel *chan);

/**
 * ust_channel_find() - the channel @key of @owner, or NULL; ust lock held.
 * Never a notifier's: CHANNEL_* commands can't reach one.
 */
struct ust_channel *ust_channel_find(const void *owner, uint64_t key);

/**
 * ust_channel_find_target() - what EVENT_ENABLE, EVENT_DISABLE and
 * EVENT_FILTER name by @key: the channel of @owner, or, for a key with
 * LTT_APP_NOTIFIER_KEY_BIT, the notifier's channel; NULL if none.  ust
 * lock held.
 */
struct ust_channel *ust_channel_find_target(const void *owner, uint64_t key);

/**
 * ust_channels_enabled_of() - the enabled channels of @owner (at most
 * @max of them) into @out; ust lock held.  Returns how many.
 */
unsigned int ust_channels_enabled_of(const void *owner, struct ust_channel **out,
				     unsigned int max);

/**
 * ust_possible_cpus() - get_nprocs_conf(), read once (it opens and reads
 * /sys/devices/system/cpu/possible at each call): REGISTER and every
 * channel's slots ask for it
 */
int ust_possible_cpus(void);

/** ust_channel_count() - channels in the list; ust lock held */
unsigned int ust_channel_count(void);

/**
 * ust_channels_events_lost() - the events_lost totals of every stream of
 * every channel in the list, added up (read from the regions: informative
 * only); ust lock held
 */
uint64_t ust_channels_events_lost(void);

/**
 * ust_channel_remove() - unlink @chan, drop its targets and retire it;
 * ust lock held.  Returns 0 or -ENOMEM (it then stays, disabled).
 */
int ust_channel_remove(struct ust_channel *chan, struct ust_retire *retire);

/**
 * ust_channels_remove_owner() - ust_channel_remove() each channel of
 * @owner; ust lock held.  Returns the number that could not be removed.
 */
unsigned int ust_channels_remove_owner(const void *owner, struct ust_retire *retire);

/**
 * ust_channels_quiesce() - disable every channel for good (exit() is under
 * way); ust lock held.  After a grace period no thread holds a slot: the
 * threads exit() kills then tear none.
 */
void ust_channels_quiesce(void);

/** ust_channels_stopped() - has ust_channels_quiesce() run?  ust lock held */
bool ust_channels_stopped(void);

/**
 * ust_channels_fork_child() - unmap and forget every channel, in a child
 * just forked (the parent's buffers are not ours); ust lock held
 */
void ust_channels_fork_child(void);

/* ---- agent.c: what a language agent is told and tells (agent.h) ---- */

/** ust_agent_set_rules() - AGENT_RULES from @owner; ust lock NOT held: 0 or -errno */
int ust_agent_set_rules(const void *owner, struct ltt_rbuf *r);
/** ust_agent_forget() - channel @key of @owner is gone; ust lock held */
void ust_agent_forget(const void *owner, uint64_t key);
/** ust_agent_forget_owner() - every channel of @owner is gone; ust lock held */
void ust_agent_forget_owner(const void *owner);
/** ust_agent_changed() - what the rules mean changed (a channel on or off); any lock */
void ust_agent_changed(void);
/** ust_agent_nr_loggers() - loggers reported so far; ust lock held */
size_t ust_agent_nr_loggers(void);
/**
 * ust_agent_encode_loggers() - LOGGERS's payload: loggers from index
 * @from while @w stays within @max bytes (one at least); returns the index
 * after the last put, @ret_count how many.  ust lock held.
 */
size_t ust_agent_encode_loggers(struct ltt_wbuf *w, size_t from, size_t max, uint32_t *ret_count);
/**
 * ust_agent_set_kick() - @kick (ust_comm_kick(), set at start-up) is
 * called when an agent reports loggers not yet reported
 */
void ust_agent_set_kick(void (*kick)(void));
void ust_agent_fork_prepare(void);
void ust_agent_fork_parent(void);
void ust_agent_fork_child(void);

/* ---- context.c ---- */

/**
 * ust_channel_set_contexts() - the context fields @chan writes after each
 * event header; before the channel is inserted, ust lock NOT held (takes
 * it for the counters' registry)
 * @ctx: @nr contexts, checked by the protocol decoder (borrowed)
 *
 * Returns 0, -EINVAL when their size is not the streams' event_ctx_len
 * (the daemon's metadata would describe other events), or -ENOSPC (more
 * distinct perf counters in the process than LTT_CTX_MAX).
 */
int ust_channel_set_contexts(struct ust_channel *chan, const struct ltt_ctx *ctx, uint32_t nr);

/**
 * ust_ctx_write() - write @chan's context fields at @p, for the calling
 * thread; returns the end.  The fast path's, any thread, async-signal-safe
 * but for a thread's first perf counter read (which opens the counter).
 * @ip: the tracepoint's call site (0: unknown)
 */
uint8_t *ust_ctx_write(const struct ust_channel *chan, uint8_t *p, uintptr_t ip);

/** ust_ctx_fork_child() - forget the parent's ids and counters in a child just forked */
void ust_ctx_fork_child(void);

/* ---- probe.c ---- */

/**
 * ust_probe_reserve_in() - ltt_ust_probe_reserve() for one channel only
 * @call: the event's arguments, for the channel's filters, and its call site
 *
 * Room for an event of @tp in @chan if @chan records it (enabled, and its
 * filters accept @call), else NULL.  On room, the caller writes
 * @payload_len bytes and calls ltt_ust_probe_commit() once (it returns
 * NULL).  For the events the library records on its own (the state dump),
 * which go to one channel at a time.
 */
struct ltt_ust_ctx;
struct ltt_ust_call;

void *ust_probe_reserve_in(struct ltt_ust_ctx *ctx, const struct ltt_ust_tracepoint *tp,
			   size_t payload_len, const struct ust_channel *chan,
			   const struct ltt_ust_call *call);

/* ---- notify.c: notify.h ---- */

/* ---- retire.c ---- */

/**
 * ust_retire_flush() - wait for a grace period if anything was retired, then
 * free the target arrays and destroy the channels and notifiers (each
 * notifier's last count flushed first: ust_notifiers_flush_retired()); ust
 * lock NOT held
 *
 * Not from a thread inside a read-side critical section (would deadlock):
 * that case leaks instead.
 */
void ust_retire_flush(struct ust_retire *retire);

/* ---- tracef.c ---- */

/* tracef's event, then tracelog's, one per level */
#define UST_TRACEF_EVENTS (1 + LTT_UST_TRACELOG_LEVELS)

/** ust_tracef_tracepoints() - the UST_TRACEF_EVENTS tracepoints into @out */
void ust_tracef_tracepoints(struct ltt_ust_tracepoint **out);

/* ---- statedump.c ---- */

#define UST_STATEDUMP_EVENTS 6
#define UST_LIB_EVENTS 4	/* lttng_ust_lib:*, ltt_ust_objects_update()'s */

/**
 * ust_statedump_tracepoints() - the state dump's tracepoints, then those
 * of ltt_ust_objects_update(), into @out (UST_STATEDUMP_EVENTS +
 * UST_LIB_EVENTS)
 */
void ust_statedump_tracepoints(struct ltt_ust_tracepoint **out);

/**
 * ust_statedump() - record the program's state in each of @chans
 *
 * lttng_ust_statedump:start, then for each object the program has loaded
 * bin_info, build_id and debug_link (when it has them), then procname and
 * end: what babeltrace2's debug-info filter needs to turn an ip context
 * into a function and a source line.  Only into the channels that record
 * these events; nothing at all (no walk) when no channel does.  Any thread
 * but a probe's, without the ust lock (dl_iterate_phdr() takes the
 * loader's lock, which a dlopen() holds while it registers providers); the
 * channels must stay mapped meanwhile (the caller's daemon thread is the
 * only one that removes them).
 */
void ust_statedump(struct ust_channel *const *chans, unsigned int n);

/* ---- lib-tracepoints.c ---- */

/* The library's own tracepoints: tracef and tracelog's, the state dump's. */
#define UST_LIB_TRACEPOINTS (UST_TRACEF_EVENTS + UST_STATEDUMP_EVENTS + UST_LIB_EVENTS)

/** ust_lib_tracepoints() - the UST_LIB_TRACEPOINTS tracepoints into @out */
void ust_lib_tracepoints(struct ltt_ust_tracepoint **out);

/** ust_probe_module_register() - record the library's own tracepoints; ust lock held */
int ust_probe_module_register(void);

/* ---- comm.c ---- */

/**
 * ust_comm_start() - start one thread per session daemon, once; ust lock
 * held.  Connects and sends the registration (what the socket takes
 * without blocking), starts the threads, and serves the daemons' answers
 * from the calling thread until every daemon is settled or gone, or
 * @deadline (NULL: not at all; the lock released meanwhile), while the
 * threads wait; they serve the connections from there.  Returns 0 or
 * -errno (no thread could start; the program runs untraced).
 */
int ust_comm_start(const struct timespec *deadline);

/**
 * ust_comm_preconnect() - connect to the session daemons now, for a
 * registration certain to follow at once (the program's own module,
 * whose constructor comes next): the daemon checks the connection while
 * the library starts.  Nothing blocks; ust lock held.
 */
void ust_comm_preconnect(void);

/** ust_comm_kick() - new events to report: wake the threads; ust lock held */
void ust_comm_kick(void);

/**
 * ust_comm_settled() - true when, for every daemon, either its thread found
 * no daemon, or the daemon was told of the first @nr_events events and
 * answered every TRACEPOINTS message (REGISTER_DONE: what its sessions want
 * of them is in place); ust lock held
 */
bool ust_comm_settled(uint64_t nr_events);

/**
 * ust_comm_fork_child() - in a child just forked: forget the parent's
 * threads and connections (closed, never written); ust lock held.  Call
 * ust_comm_start() again afterwards.
 */
void ust_comm_fork_child(void);

#endif /* LTT_UST_UST_H */
