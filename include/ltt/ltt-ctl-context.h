/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ltt-ctl-context.h - libltt-ctl, contexts: the fields a channel adds to
 * each event (add-context).
 *
 * Part of <ltt/ltt-ctl.h>, which includes it: include that one.  The
 * conventions and ABI rules of ltt-ctl.h hold for every call and struct here.
 */
#ifndef LTT_CTL_CONTEXT_H
#define LTT_CTL_CONTEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl-common.h>

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif

#endif /* LTT_CTL_CONTEXT_H */
