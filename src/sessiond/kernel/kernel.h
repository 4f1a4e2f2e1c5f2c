/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel.h - the kernel domain of the session daemon: one implementation
 * of the domain interface (domain.h) over the kernel tracer, ltt-tracer.ko.
 *
 * Its files (each one's functions declared in its own header, or in this
 * one under its name):
 *   kernel.h       its interface: the domain, the tracer's features
 *   kernel-internal.h what the kernel domain's files share: its traces
 *   kernel-domain.c its operations over the kernel tracer; its traces
 *   kernel-events.c the events of its channels, kept to their rules
 *   kernel-context.[ch] the context fields of kernel channels
 *   kernel-filter.[ch] filters of kernel rules
 *   kernel-probe.[ch] probe rules: checked when added, placed per session, removed with it
 *   kernel-notify.[ch] triggers' kernel event rules, evaluated through tracefs
 *   kernel-capture.[ch] the captures of their records
 *   kernel-map.[ch] kernel map channels: counters the kernel keeps (histogram triggers)
 *   kernel-tracker.c process trackers in the tracer
 *   kernel-snapshot.c snapshots of kernel channels
 *   kernel-relay.c chunks of kernel traces streamed to a relay
 *   kernel-regen.c regenerate metadata and statedump; the metadata's header
 *   kernel-open.c  the tracer opened at start: its backend, the CPUs, its
 *                  catalog (which events a rule stands for, what list -k
 *                  lists), the tracer's description
 *   kernel-stall.c a stalled kernel consumer: its supervisor, a stop's flush owed
 *   kernel-trace.c its traces in the consumer-trace layer; a dead consumer's taken over
 *   kernel-hotplug.c the watch on CPUs coming online (module, kernel ABI 1.10)
 *   kmodule.[ch]   loading the tracer module with libkmod, and why it failed
 *
 *   ltt_kernel (one, root daemon only)   the tracer (kabi.h: its own
 *    │                                   thread), its event catalog, the
 *    │                                   kernel consumer (supervisor.h)
 *   ltt_session_domain.state            per session: its kernel session,
 *    └─ kernel_chan *N                  trace, channels and their streams,
 *                                       the events enabled in each and
 *                                       their ids
 *
 * A session's kernel trace is OUTPUT/kernel/, created when the session
 * first starts; kernel channels can't be added after that (the tracer
 * fixes a session's channels at its first start, as LTTng's does).
 * Events are enabled by name: a rule's glob is matched against the
 * tracer's catalog (tracepoints, or system calls for --syscall rules,
 * each two events: syscall_entry_NAME and syscall_exit_NAME).
 *
 * Lock order: registry, session, the supervisor's, the consumer's; the
 * kernel thread (kabi.h) takes no lock of ours.
 */
#ifndef LTT_SESSIOND_KERNEL_H
#define LTT_SESSIOND_KERNEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/utsname.h>

#include "common/base/log.h"
#include "sessiond/model/domain.h"
#include "sessiond/kabi/kabi.h"
#include "sessiond/kernel/kmodule.h"
#include "sessiond/consumer/supervisor.h"
#include "sessiond/ctrace/trace-host.h"

struct ltt_triggers;
struct ltt_knotify;
struct ltt_khotplug;
struct ltt_kmaps;

/* Which kernel tracer backend to use (ltt-sessiond --kernel-backend). */
enum ltt_kernel_backend {
	LTT_KERNEL_BACKEND_AUTO,	/* the module where it loads, else tracefs (the default) */
	LTT_KERNEL_BACKEND_MODULE,	/* ltt's module */
	LTT_KERNEL_BACKEND_TRACEFS,	/* the kernel's own buffers */
};

/*
 * strings_why where the BPF program reads system call strings
 * (doc/kernel-bpf.md): the kernel refuses event probes, or
 * LTT_KERNEL_BPF=on chose the program where event probes would do
 */
#define LTT_KERNEL_BPF_STRINGS "system call paths and names: read as strings by ltt's BPF program: this kernel refuses event probes (doc/kernel-bpf.md)"
#define LTT_KERNEL_BPF_CHOSEN "system call paths and names: read as strings by ltt's BPF program: chosen by LTT_KERNEL_BPF=on, where this kernel's event probes would read them too (doc/kernel-bpf.md)"

/*
 * The tracer's tracepoint events as LIST gave them at catalog generation
 * @gen (ltt_kabi_catalog()).  Replaced whole when the generation changes
 * (lttng-test.ko loaded or removed); the ones replaced are kept, @older,
 * till the domain ends, since a reader may still hold one.
 */
struct ltt_kernel_catalog {
	struct ltt_kabi_list_entry *entries;
	size_t nr;
	uint32_t gen;
	struct ltt_kernel_catalog *older;
};

struct ltt_kernel {
	struct ltt_domain_impl domain;	/* serves LTT_DOMAIN_KERNEL */
	struct ltt_kabi *kabi;
	const struct ltt_kabi_backend *backend;	/* how kabi traces */
	struct ltt_kabi_version version;
	struct ltt_supervisor consumer;	/* replaced at once when it dies */
	struct ltt_session_registry *registry;	/* the sessions a new consumer takes over */
	struct ltt_trace_host host;
	struct utsname uts;
	bool module_loaded;		/* we loaded the tracer: unload it at the end */
	char backend_why[LTT_KMODULE_WHY_MAX + 64];	/* why this backend ("": as asked) */
	/*
	 * "" when system call paths and names are recorded as strings by the
	 * tracer itself (the module, event probes), else why not, or
	 * LTT_KERNEL_BPF_STRINGS or _CHOSEN when ltt's BPF program reads them
	 */
	char strings_why[512];
	uint64_t next_key;		/* atomic: consumer keys */
	uint32_t *cpus;			/* the possible CPUs: one stream each */
	unsigned int nr_cpus;
	/*
	 * The catalog: its tracepoint events (atomic: ltt_kernel_catalog(),
	 * which lists them again when the tracer's changed, under
	 * catalog_lock), and its system calls, read once.
	 */
	struct ltt_kernel_catalog *catalog;
	pthread_mutex_t catalog_lock;
	uint32_t rules_gen;		/* supervisor's: the catalog sessions followed last */
	struct ltt_kabi_list_entry *syscalls;
	size_t nr_syscalls;
	/* Triggers (model/trigger.h): set before the first command. */
	struct ltt_triggers *triggers;
	struct ltt_knotify *notify;	/* kernel-notify.c: NULL until a kernel event rule */
	struct ltt_khotplug *hotplug;	/* kernel-hotplug.c: NULL until a channel */
	struct ltt_kmaps *kmaps;	/* kernel-map.c: NULL until attached */
};

/**
 * ltt_kernel_lacks() - 0 when @k's tracer has @feature; else a sentence
 * in @why that says so of @what (the thing refused, as a user named it:
 * "kernel context prio refused") and what to do, and -ENOTTY (the loaded
 * module is older than the feature) or -EOPNOTSUPP (the backend has no
 * such feature)
 */
static inline int ltt_kernel_lacks(const struct ltt_kernel *k, enum ltt_kabi_feature feature,
				   const char *what, char *why, size_t why_size)
{
	if (!k->backend->lacks)
		return 0;
	return k->backend->lacks(&k->version, feature, what, why, why_size);
}

/**
 * ltt_kernel_refuses() - LTT_ERR_OK when @k's tracer has @feature; else
 * the reason logged as said of @what ("kernel channel c refused") and
 * @old_module (a module older than the feature) or LTT_ERR_KERNEL_BACKEND
 * (a backend without it)
 */
static inline enum ltt_error_code ltt_kernel_refuses(const struct ltt_kernel *k,
						     enum ltt_kabi_feature feature,
						     const char *what,
						     enum ltt_error_code old_module)
{
	char why[LTT_KMODULE_WHY_MAX + 256];
	int ret = ltt_kernel_lacks(k, feature, what, why, sizeof(why));

	if (!ret)
		return LTT_ERR_OK;
	LTT_WARN("%s", why);
	return ret == -EOPNOTSUPP ? LTT_ERR_KERNEL_BACKEND : old_module;
}

/**
 * ltt_kernel_records() - ltt_kernel_refuses() for LTT_KABI_FEAT_RECORD
 */
static inline enum ltt_error_code ltt_kernel_records(const struct ltt_kernel *k,
						      const char *what)
{
	return ltt_kernel_refuses(k, LTT_KABI_FEAT_RECORD, what, LTT_ERR_KERNEL_BACKEND);
}

/* kernel-domain.c: its operations over the kernel tracer; its traces */

/**
 * ltt_kernel_init() - open the kernel tracer of backend @choice and read
 * its catalog: the module (loaded with libkmod, unless it is loaded
 * already), or tracefs (mounted at its usual place if it is nowhere)
 * @probes: the tracer's probes to enable ("sched,irq"), NULL for all:
 *          the module's "probes" parameter when this loads it
 * @registry: the daemon's sessions, whose kernel traces a new consumer
 *            takes over when one dies (borrowed for the domain's life)
 * @consumer: how to start its consumer (copied; its path is borrowed for
 *            the domain's life)
 * @why: on failure, a sentence for the user saying why kernel tracing is
 *       not available and what to do (@why_size bytes)
 *
 * Returns 0 (kernel->domain is ready to register; released by its
 * ops->fini) or a negative errno with @why set and nothing to release.
 */
int ltt_kernel_init(struct ltt_kernel *kernel, enum ltt_kernel_backend choice, const char *probes,
		    struct ltt_session_registry *registry,
		    const struct ltt_consumer_config *consumer, char *why, size_t why_size);

/* kernel-open.c */

/**
 * ltt_kernel_started() - the daemon has started (its own kernel calls are
 * made): the kernel thread runs LTTng's kernel thread's test point now
 * (ltt_kabi_run_points()), when LTTng's test points are on
 */
void ltt_kernel_started(struct ltt_kernel *kernel);

#endif /* LTT_SESSIOND_KERNEL_H */
