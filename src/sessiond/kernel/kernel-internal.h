/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-internal.h - what the kernel domain's files share: a
 * session's kernel state (ltt_session_domain.state) and its channels.
 * Not for other modules: kernel.h is the domain's interface.
 */
#ifndef LTT_SESSIOND_KERNEL_INTERNAL_H
#define LTT_SESSIOND_KERNEL_INTERNAL_H

#include <limits.h>

#include "common/base/codec.h"
#include "sessiond/ctrace/ctrace.h"
#include "sessiond/kernel/kernel.h"
#include "sessiond/consumer/relay.h"

/* An event enabled in a channel, under its id. */
struct kernel_event {
	char name[LTT_KABI_NAME_MAX];
	/* a probe's event (kernel-probe.h): the name rules match, else "" */
	char match[LTT_NAME_MAX];
	int type;			/* a probe's: enum ltt_event_type */
	uint32_t id;
	bool enabled;			/* in the tracer now */
	uint64_t filter_sig;		/* of its programs in the tracer; 0: none */
};

/* A channel of a session, in the tracer and in the consumer. */
struct kernel_chan {
	struct ltt_cchan cc;		/* in its trace's chans: key, channel, page */
	ltt_khandle handle;
	/*
	 * Its consumer keeps the statistics page (1.14): read there.  Else
	 * (an older consumer) list asks, and keeps the last answer.
	 */
	bool paged;
	struct ltt_consumer_channel_stats cached;	/* its last status */
	ltt_khandle *streams;		/* one per possible CPU, 0 if none (yet) */
	struct kernel_event *events;	/* ids in order: events[i].id == i */
	size_t nr_events;
	size_t cap_events;
};

/*
 * A session's kernel part: ltt_session_domain.state.  Its trace (in the
 * consumer: ctrace.h) is made at the session's first start; its
 * channels are kernel_chans.
 */
struct kernel_session {
	struct ltt_ctrace trace;	/* its session is trace.session */
	struct ltt_kernel *k;
	ltt_khandle handle;
	struct ltt_relay_link relay;	/* a streamed session's, in that consumer */
	struct kernel_probe *probes;	/* kernel-probe.c: placed for it, newest first */
	bool rules_owed;		/* rules changed since the tracer last followed */
};

static inline uint64_t ltt_kernel_new_key(struct ltt_kernel *k)
{
	return __atomic_add_fetch(&k->next_key, 1, __ATOMIC_RELAXED);
}

/* What the consumer-trace layer knows of a kernel trace (kernel-trace.c). */
extern const struct ltt_ctrace_ops ltt_kernel_trace_ops;

/* kernel-hotplug.c: the watch on CPUs coming online and modules coming and going */
/*
 * ltt_khotplug_start() sets it up once on the kernel consumer's
 * supervisor loop, which calls @online there on each CPU come online and
 * @modules on each module loaded or removed (0 or -errno, logged: without
 * it a CPU's streams come at start and stop, and a rule takes the events
 * of a module at its channel's next change);
 * ltt_khotplug_free() after the supervisor (NULL accepted).
 */
int ltt_khotplug_start(struct ltt_kernel *k, void (*online)(struct ltt_kernel *k),
		       void (*modules)(struct ltt_kernel *k));
void ltt_khotplug_free(struct ltt_khotplug *h);

/* kernel-events.c: the events of kernel channels, kept to their rules */

/*
 * Every channel of @ks follows its enabled rules: the new events' ids and
 * metadata sent to the consumer first, only then the tracer's
 * EVENT_ENABLE and EVENT_DISABLE, so it never records an event the
 * metadata does not describe.  Returns 0 or -errno (nothing changed when
 * the plan or the metadata failed).
 */
int ltt_kernel_sync_events(struct ltt_kernel *k, struct kernel_session *ks);

/* kernel-tracker.c: process trackers in the tracer */

/**
 * ltt_kernel_check_tracker() - the domain's check_tracker operation: every
 * type, with a tracer of kernel ABI 1.5 or later; LTT_ERR_TRACKER_KERNEL
 * (logged: reload the module) otherwise
 */
enum ltt_error_code ltt_kernel_check_tracker(struct ltt_domain_impl *d,
					     enum ltt_tracker_type type);

/**
 * ltt_kernel_trackers_sync() - give the tracer @ks's session's kernel
 * trackers, each whole (TRACKER_SET), applied before this returns
 *
 * Session lock held.  Returns 0, -EOPNOTSUPP (some tracker is not "all"
 * and the tracer is older than 1.5), or the tracer's -errno.
 */
int ltt_kernel_trackers_sync(struct ltt_kernel *k, struct kernel_session *ks);

/* kernel-snapshot.c: snapshots of kernel channels */

/**
 * ltt_kernel_snapshot_may_add() - may a snapshot session have kernel
 * channels with the loaded tracer?  LTT_ERR_OK, or LTT_ERR_SNAPSHOT_KERNEL
 * when the module is older than kernel ABI 1.2 (logged: reload it)
 */
enum ltt_error_code ltt_kernel_snapshot_may_add(const struct ltt_kernel *k);

/**
 * ltt_kernel_snapshot() - the domain's snapshot operation (domain.h):
 * what the session's kernel buffers hold now, into @dir/kernel, at most
 * @max_size bytes (0: all), the newest packets of each stream
 * @net: not NULL (@dir NULL): the snapshot is sent to that relay instead,
 *       as "kernel" in its relay session (SNAPSHOT_TRACE_RELAY)
 *
 * Session lock held; waits for the consumer.  Returns 0 (nothing for a
 * session never started), -ENOSPC, -EEXIST, -EPIPE (no consumer), or the
 * consumer's -errno (-EOPNOTSUPP: the module lacks kernel ABI 1.2).
 */
int ltt_kernel_snapshot(struct ltt_domain_impl *d, struct ltt_session *session, const char *dir,
			struct ltt_relay_snap *net, uint64_t max_size,
			struct ltt_domain_snapshot *ret);

/* kernel-relay.c: chunks of kernel traces streamed to a relay */

/**
 * ltt_kernel_relay_archive() - the domain's relay_archive operation
 * (domain.h): the relay of @session's kernel trace archives the kernel
 * part of a chunk, @from as @to ("": deletes it)
 *
 * Session lock held; waits for the consumer and the relay.  Returns 0
 * (also when nothing was ever sent), -ECONNRESET (the consumer that held
 * the relay connection died), or ltt_relay_archive()'s -errno.
 */
int ltt_kernel_relay_archive(struct ltt_domain_impl *d, struct ltt_session *session,
			     const char *from, const char *to, char *ret_dir, size_t len);

/* kernel-regen.c: regenerate metadata and statedump; the metadata's header */

/**
 * ltt_kernel_metadata_header() - append @ks's metadata header to @text:
 * the trace (its clock offset sampled now) and one stream class per
 * kernel channel of @session
 *
 * Session lock held.  Returns 0 or -errno (@text's own error aside).
 */
int ltt_kernel_metadata_header(struct ltt_kernel *k, struct ltt_session *session,
			       struct kernel_session *ks, struct ltt_wbuf *text);

/**
 * ltt_kernel_regenerate_metadata() - the domain's regenerate_metadata
 * operation (domain.h): the session's kernel trace gets its metadata
 * again whole, with a new header (meta-regen.h)
 *
 * Session lock held; waits for the consumer.  Returns 0 (nothing for a
 * session never started), -EPIPE (no consumer), or ltt_meta_regenerate()'s
 * -errno.
 */
int ltt_kernel_regenerate_metadata(struct ltt_domain_impl *d, struct ltt_session *session);

/**
 * ltt_kernel_regenerate_statedump() - the domain's regenerate_statedump
 * operation (domain.h): the tracer records its state dump again into the
 * session's channels that enabled its events
 * @settle: unused (the tracer has recorded the dump when it answers)
 *
 * Session lock held; the tracer answers at once.  Returns 0, -EBUSY (the
 * session is not recording), -EOPNOTSUPP (a tracer older than kernel ABI
 * 1.6: reload the module; logged), or the tracer's -errno.
 */
int ltt_kernel_regenerate_statedump(struct ltt_domain_impl *d, struct ltt_session *session,
				    struct ltt_domain_settle *settle);

/* kernel-open.c: the tracer opened at start: its backend, the CPUs, the catalog */

/**
 * ltt_kernel_for_each_event() - call @fn for every event name of @k's
 * catalog that @rule stands for (its exclusions left out; a system call
 * rule: each call's entry and exit events); stops at @fn's first non-zero
 * return, and returns it
 */
int ltt_kernel_for_each_event(struct ltt_kernel *k, const struct ltt_event_rule *rule,
			      int (*fn)(void *arg, const char *name), void *arg);

/**
 * ltt_kernel_catalog() - @k's tracepoint events now: the ones kept, or,
 * when the tracer's catalog generation changed since they were listed, the
 * tracer's list again (a failed listing keeps the ones before).  Any thread.
 */
const struct ltt_kernel_catalog *ltt_kernel_catalog(struct ltt_kernel *k);

/*
 * ltt_kernel_catalog_init() - @k's first catalog (its init), and
 * ltt_kernel_catalog_fini() - every one it had (its release)
 */
int ltt_kernel_catalog_init(struct ltt_kernel *k);
void ltt_kernel_catalog_fini(struct ltt_kernel *k);

/*
 * ltt_kernel_syscall_event() - the name of system call @syscall's entry
 * (or exit) event in @name; false if it would not fit (the tracer lists
 * no such call: its names are short)
 */
bool ltt_kernel_syscall_event(char name[LTT_KABI_NAME_MAX], const char *syscall, bool entry);

/**
 * ltt_kernel_open() - open the tracer of backend @choice in @kernel
 * (kabi, backend, version; module_loaded when this loaded the module):
 * the module or tracefs.  Returns 0, or -errno with @why saying why it
 * can't serve and nothing to release.
 */
int ltt_kernel_open(struct ltt_kernel *kernel, enum ltt_kernel_backend choice, const char *probes,
		    char *why, size_t why_size);

/**
 * ltt_kernel_read_cpus() - @k->cpus and nr_cpus: the possible CPUs, one
 * stream each.  Returns 0, -ENOMEM or -EINVAL (an unreadable list).
 */
int ltt_kernel_read_cpus(struct ltt_kernel *k);

/**
 * ltt_kernel_list_events() - the domain's list_events operation
 * (domain.h): the catalog's tracepoints, or (@type LTT_EVENT_SYSCALL) its
 * system calls, each with its fields when @with_fields, into @reply
 * (whoever asks: @uid, of no program here, is not read).
 * Returns @reply's error.
 */
int ltt_kernel_list_events(struct ltt_domain_impl *d, enum ltt_event_type type,
			   bool with_fields, uid_t uid, struct ltt_wbuf *reply);

/**
 * ltt_kernel_describe_tracer() - the domain's describe_tracer operation
 * (domain.h): the backend's name, the tracer's version, and why it records
 * otherwise than the module (or "")
 */
void ltt_kernel_describe_tracer(struct ltt_domain_impl *d, struct ltt_wbuf *reply);

/* kernel-stall.c: a stalled kernel consumer: its supervisor, a stop's flush owed */

/**
 * ltt_kernel_stop_owed() - after a kernel stop that ended with @ret
 * (-ETIMEDOUT: the consumer is stalled), remember that @session's
 * channels are to be flushed once it runs (ltt_ctrace_owe_flush()).  No
 * lock held; takes the session's.
 */
void ltt_kernel_stop_owed(struct ltt_session *session, int ret);

/**
 * ltt_kernel_supervisor() - the domain's supervisor operation (domain.h):
 * the kernel consumer's, whatever the session
 */
struct ltt_supervisor *ltt_kernel_supervisor(struct ltt_domain_impl *d,
					     const struct ltt_session *session);

/* kernel-trace.c: its traces in the consumer-trace layer; a dead consumer's taken over */
/**
 * ltt_kernel_streams_to_consumer() - hand @kc's streams to consumer @c, a
 * dup of each fd, with the channel's event map when the backend's streams
 * are pages (tracefs): every stream, or those @only (NULL, or one flag
 * per possible CPU) sets.  The caller sends STREAMS_SENT.  Returns 0 or
 * -errno (the streams before the failure handed).
 */
int ltt_kernel_streams_to_consumer(struct ltt_kernel *k, struct kernel_chan *kc,
				   struct ltt_consumer *c, const bool *only);

/*
 * ltt_kernel_mem_usage() - ltt_domain_ops.mem_usage: each CPU buffer of
 * @channel, as the kernel counts its memory: the module's count of what
 * it allocated (CHANNEL_MEM, LTT_MEM_MODULE_COUNT), tracefs'
 * buffer_size_kb (LTT_MEM_KERNEL_COUNT), or else (a module older than
 * kernel ABI 1.9) the channel's size, which the module allocates whole
 * (LTT_MEM_CONFIGURED).  Session lock held; the tracer answers at once.
 */
void ltt_kernel_mem_usage(struct ltt_domain_impl *d, struct ltt_session *session,
			  const struct ltt_channel *channel,
			  void (*fn)(void *arg, const struct ltt_domain_mem *m), void *arg);

/**
 * ltt_kernel_consumer_died() - the supervisor's takeover function: a new
 * consumer takes over every kernel session's trace at once, but for a
 * snapshot trace, which waits for a command (ltt_ctrace_consumer_died())
 * @arg: the struct ltt_kernel
 *
 * Watch thread, no lock held: takes the registry's, then each session's.
 */
void ltt_kernel_consumer_died(void *arg);

#endif /* LTT_SESSIOND_KERNEL_INTERNAL_H */
