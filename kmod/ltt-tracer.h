/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-tracer.h - the private header of ltt-tracer.ko: its objects, and a
 * map of its files.
 *
 *   lttng-test.c      lttng-test.ko, a module of its own on this one:
 *                     /proc/lttng-test-filter-event, ltt_lttng_test_emit()
 *   ltt-core.c        module init/exit, /proc/ltt and the tracer ioctls
 *   ltt-session.c     session and channel file descriptors
 *   ltt-kprobes.c     kprobes and kretprobes placed from outside (PROBE)
 *   ltt-map.c         map fds (MAP): counters the probes increment, no record
 *   ltt-statedump.c   the state dump at START and STATEDUMP
 *   ltt-filter.[ch]   event filters: their ioctls, $ctx, the probes' check
 *   ../src/filter-vm/ the filter validator and interpreter, shared with libltt-ust
 *   ltt-stream.c      stream file descriptors: reader ioctls, poll, mmap, splice
 *   ltt-events.c      event registry, tracepoint attachment, the record path
 *   ltt-event.h       the macros that declare an event (for kmod/probes/)
 *   ltt-context.c     the context fields of channels (CONTEXT_ADD)
 *   ltt-object.c      sessions' and channels' references: get, put, the freeing;
 *                     filters freed after a grace period
 *   ltt-tracker.c     process trackers: TRACKER_SET/_GET, ltt_tracker_pass()
 *   ltt-lock.c        ltt_mutex, taken by most files above
 *   ltt-ringbuf.[ch]  the per-CPU ring buffer
 *   probes/           one file per group of events; probes/ltt-probes.h lists them
 *   wrapper/          every kernel version conditional
 *
 * The ABI with ltt-sessiond and ltt-consumerd is src/abi's, shared with
 * user space and included as "abi/NAME.h": ltt-abi.h (the ioctls),
 * ltt-packet.h (where a packet's header and context fields lie),
 * ltt-fields.h (field values both kernel backends compute alike).
 *
 * From the top down: ltt-core.c holds the table of every probe group
 * (probes/ltt-probes.h) and gives it to ltt-events.c at module init, so
 * the probes, the state dump's among them, record through ltt-events.c
 * without it naming them.
 *
 * Objects and references (doc/kmod.md has the whole picture):
 *
 *   session  <-ref-  channel  <-ref-  stream fd
 *     ^ fd             ^ fd
 *   map (no session: freed when its fd closes)
 *     ^ fd
 *
 * Each file descriptor holds a reference on what it names; a channel holds
 * one on its session.  Every anon-inode file also pins the module (its
 * fops' owner), so the module cannot be unloaded while any of them exists.
 *
 * Locks, in order: ltt_mutex (all control state: sessions' channel lists,
 * event targets, tracepoint registration) -> cpu hotplug lock (flush,
 * timers, a channel's buffers: ltt_channel_buf_add()) -> the kernel's
 * tracepoint mutex.  Hotplug callbacks take no lock of ours.  Each stream's reader mutex (buf->lock)
 * is taken alone.  The record path takes no lock: targets are RCU
 * (preemption disabled), buffers per CPU.  A map's lock (its counters,
 * ltt-map.c) comes before ltt_mutex.
 */
#ifndef LTT_TRACER_H
#define LTT_TRACER_H

#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/timer.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "abi/ltt-abi.h"
#include "ltt-ringbuf.h"

#define LTT_TRACER_VERSION	"0.1.0"

#define LTT_MAX_SESSIONS	64
#define LTT_MAX_CHANNELS	128	/* per session */
#define LTT_MAX_CHANNEL_EVENTS	16384	/* enabled events per channel */
#define LTT_STRING_MAX		4096	/* longest string field, NUL included */
#define LTT_MAX_NESTING		8	/* recursion guard of the record path */

extern struct mutex ltt_mutex;

/*
 * The programs of one event in one channel: immutable once published in
 * the event's targets, freed a grace period after it leaves them.
 */
struct ltt_kfilter {
	struct rcu_head rcu;
	unsigned int nr;
	const u8 *prog[LTT_KABI_FILTER_MAX_PROGRAMS];	/* into code[] */
	u32 len[LTT_KABI_FILTER_MAX_PROGRAMS];
	u8 code[];
};

struct ltt_tracker_set;
struct ltt_kprobe;

struct ltt_session {
	struct kref ref;
	struct list_head channels;	/* ltt_channel.node, fd open; ltt_mutex */
	unsigned int nr_channels;
	bool active;
	bool started_once;
	/* ltt-tracker.c: NULL includes every task; RCU, written under ltt_mutex */
	struct ltt_tracker_set __rcu *trackers[LTT_KABI_TRACKER_NR];
	int tracking;			/* some tracker is not NULL; ltt_mutex */
};

/* A channel's context fields (ltt-context.c), fixed at its session's first start. */
struct ltt_chan_contexts {
	unsigned int nr;
	unsigned int len;		/* bytes after each event header */
	u8 type[LTT_KABI_MAX_CONTEXTS];	/* enum ltt_kabi_context_type, in order */
};

struct ltt_channel {
	struct kref ref;
	struct ltt_session *session;	/* a reference */
	struct list_head node;		/* in session->channels until its fd closes */
	struct ltt_rb_config cfg;
	/*
	 * [nr_cpu_ids]: NULL for a CPU not online since the channel was made
	 * (ltt_channel_buf_add() sets each once; probes READ_ONCE())
	 */
	struct ltt_rb_buf **bufs;
	unsigned long *stream_taken;	/* bitmap, ltt_mutex */
	wait_queue_head_t stream_wait;	/* a buffer was added: channel fd poll */
	struct hlist_node cpuhp_node;	/* an instance of the hotplug state, fd open */
	int active;			/* read by probes (READ_ONCE) */
	int tracking;			/* session->tracking, for probes (READ_ONCE) */
	struct list_head events;	/* struct ltt_enabled, ltt_mutex */
	unsigned int nr_events;
	struct timer_list read_timer;
	unsigned long read_timer_jiffies;
	bool read_timer_stop;
	struct ltt_chan_contexts ctx;	/* ltt_mutex; read by probes once started */
};

/* One event enabled in a channel (ltt_mutex). */
struct ltt_enabled {
	struct list_head node;
	struct ltt_event_desc *desc;
	u32 id;
	struct ltt_kfilter *filter;	/* NULL: none; as in its target */
};

/*
 * A map (ltt-map.c): counters of events, no record written.  @active is
 * read by probes (READ_ONCE); the rest is @lock's (taken before
 * ltt_mutex, which guards the entries' places in their events' targets).
 */
struct ltt_kmap {
	struct mutex lock;		/* this map's ioctls; taken before ltt_mutex */
	struct list_head entries;	/* struct ltt_kmap_entry.node */
	struct xarray ids;		/* counter id -> its newest entry (->same: older) */
	unsigned int nr_entries;
	int active;
};

/* One event counted in a map under counter @id: a target of the event. */
struct ltt_kmap_entry {
	struct list_head node;
	struct ltt_kmap_entry *same;	/* the next entry of counter @id, or NULL */
	struct ltt_kmap *map;
	struct ltt_event_desc *desc;
	u32 id;
	struct ltt_kfilter *filter;	/* NULL: none; as in its target */
	u64 __percpu *count;		/* firings on each CPU, since the map was made */
	u64 base;			/* their sum at the last MAP_CLEAR */
};

/* Where an event goes: one per channel that enabled it, one per map counter. */
struct ltt_target {
	struct ltt_channel *chan;	/* NULL for a map counter's */
	struct ltt_kmap_entry *entry;	/* a map counter's, or NULL */
	u32 id;
	const struct ltt_kfilter *filter;	/* NULL: every event (ltt-filter.h) */
};

/* The record path's count of one firing in map counter @e (preemption disabled). */
static __always_inline void ltt_kmap_count(struct ltt_kmap_entry *e)
{
	if (READ_ONCE(e->map->active))
		this_cpu_inc(*e->count);
}

struct ltt_targets {
	struct rcu_head rcu;
	unsigned int nr;
	unsigned int nr_filtered;	/* targets with a filter: 0 is the fast path */
	struct ltt_target t[];
};

/* desc->flags */
#define LTT_EVENT_STATEDUMP	0x1	/* recorded only for the session being dumped */
#define LTT_EVENT_SYSCALL	0x2	/* listed by LTT_KABI_LIST_SYSCALLS */
#define LTT_EVENT_PROBE		0x4	/* a probe's (ltt_event_add()), not listed */

/*
 * One event, declared by the macros of ltt-event.h (static storage in a
 * probe file).  The tracer owns everything below "tracer's".
 */
struct ltt_event_desc {
	const char *name;
	const char *tp_name;		/* kernel tracepoint, or NULL: called directly */
	void *probe;			/* void (*)(void *desc, proto...) */
	const struct ltt_kabi_field *fields;
	unsigned int nr_fields;
	unsigned int flags;
	/* tracer's, under ltt_mutex */
	struct tracepoint *tp;		/* found by name at load, or NULL */
	bool tp_registered;
	struct ltt_targets __rcu *targets;	/* NULL: enabled nowhere */
	struct ltt_probe *group;	/* the probe file that declared it, or NULL */
	struct list_head node;
	/* LTT_EVENT_PROBE: its kernel probe (ltt-kprobes.c), which @sync arms
	 * or disarms as the event gains or loses targets (ltt_mutex held), and
	 * the only session whose channels may enable it */
	struct ltt_kprobe *kprobe;
	int (*sync)(struct ltt_event_desc *desc);
	const struct ltt_session *session;
};

/*
 * A group of events, one per probe file, listed in probes/ltt-probes.h.
 *
 * @activate runs when the first of the group's events gains a channel (no
 * event of the group was enabled anywhere before), @deactivate when the
 * last one loses its last channel: a group that serves its events from
 * probes of its own (the system call probe on sys_enter/sys_exit) attaches
 * them only meanwhile.  Both run under ltt_mutex in process context and
 * may sleep; @activate returns 0 or -errno (the enable then fails and
 * changes nothing).  After @deactivate, a probe may still be running on
 * another CPU until a grace period (tracepoint_synchronize_unregister()).
 */
struct ltt_probe {
	const char *name;
	struct ltt_event_desc * const *events;
	unsigned int nr_events;
	int (*init)(void);		/* optional: /proc files and such */
	void (*exit)(void);
	int (*activate)(void);		/* optional, see above */
	void (*deactivate)(void);
	/*
	 * A group whose events another module records (lttng_test:
	 * lttng-test.ko): they are listed, described and enabled only while
	 * that module says they are there, ltt_probe_set_present()
	 */
	bool external;
	/* tracer's */
	bool present;			/* external: the other module is loaded, ltt_mutex */
	bool selected;			/* registered at load (probes= parameter) */
	bool inited;			/* init() succeeded */
	unsigned int nr_active;		/* its events enabled somewhere, ltt_mutex */
};

/* What a probe's record code writes through. */
struct ltt_ctx {
	struct ltt_rb_buf *buf;
	struct ltt_rb_slot slot;
	char *p;
};

/* ltt-events.c */
int ltt_events_init(struct ltt_probe * const *table, unsigned int nr, const char *probes);
void ltt_events_exit(void);
int ltt_tracepoint_attach(struct tracepoint *tp, void *probe, void *data);
void ltt_tracepoint_detach(struct tracepoint *tp, void *probe, void *data);
unsigned int ltt_tracepoints_attached(void);
void ltt_probe_set_present(struct ltt_probe *probe, bool present);
u32 ltt_catalog_generation(void);
int ltt_event_enable(struct ltt_channel *chan, const char *name, u32 id);
int ltt_event_disable(struct ltt_channel *chan, const char *name);
struct ltt_event_desc *ltt_event_lookup(const char *name);
int ltt_event_enable_filtered(struct ltt_channel *chan, struct ltt_event_desc *desc, u32 id,
			      struct ltt_kfilter *filter);
int ltt_event_set_filter(struct ltt_channel *chan, struct ltt_event_desc *desc,
			 struct ltt_kfilter *filter);
void ltt_events_detach_channel(struct ltt_channel *chan);
int ltt_event_count(struct ltt_kmap_entry *e);
void ltt_event_uncount(struct ltt_kmap_entry *e);
int ltt_event_add(struct ltt_event_desc *desc);
void ltt_event_remove(struct ltt_event_desc *desc);
bool ltt_event_enabled_in_session(const struct ltt_event_desc *desc,
				  const struct ltt_session *session);
int ltt_events_list(struct ltt_kabi_list *list);
int ltt_events_describe(struct ltt_kabi_event_desc *desc);
int ltt_event_reserve(const struct ltt_event_desc *desc, const struct ltt_target *t,
		      size_t payload, struct ltt_ctx *ctx);
void ltt_event_commit(struct ltt_ctx *ctx);
void ltt_ctx_write_string(struct ltt_ctx *ctx, const char *s, size_t len);

extern struct ltt_session *ltt_statedump_session;

/* ltt-kprobes.c */
unsigned int ltt_kprobes_armed_count(void);

/* probes/ltt-probe-lttng-test.c: for lttng-test.ko */
int ltt_lttng_test_emit(unsigned int n);
void ltt_lttng_test_present(bool present);
int ltt_kprobe_create_fd(struct ltt_session *session, void __user *uarg);
u32 ltt_kprobe_kinds(void);

/* ltt-map.c */
int ltt_map_create_fd(void);

/* ltt-session.c */
int ltt_session_create_fd(void);
int ltt_channels_hotplug_init(void);
void ltt_channels_hotplug_exit(void);

/* ltt-stream.c */
int ltt_stream_fd(struct ltt_channel *chan, unsigned int cpu);

/* ltt-object.c */
extern atomic_t ltt_nr_sessions;
void ltt_session_get(struct ltt_session *s);
void ltt_session_put(struct ltt_session *s);
void ltt_channel_put(struct ltt_channel *chan);
/**
 * ltt_kfilter_free_rcu() - free @f (NULL is fine) once no probe can see it
 *
 * Context: any; @f must already be out of every published target.
 */
void ltt_kfilter_free_rcu(struct ltt_kfilter *f);

/* ltt-context.c */
int ltt_context_add_user(struct ltt_channel *chan, void __user *uarg);
s64 ltt_context_value(u32 type);
char *ltt_context_write(const struct ltt_channel *chan, const struct ltt_event_desc *desc,
			char *p);

/* ltt-statedump.c */
void ltt_statedump_run(struct ltt_session *session);

/* ltt-tracker.c */
bool ltt_tracker_pass(const struct ltt_session *s);
long ltt_tracker_ioctl(struct ltt_session *s, unsigned int cmd, void __user *uarg);
void ltt_trackers_free(struct ltt_session *s);

#endif /* LTT_TRACER_H */
