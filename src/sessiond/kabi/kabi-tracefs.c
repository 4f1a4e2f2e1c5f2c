// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs.c - the tracefs backend of the kernel thread
 * (kabi-backend.h): the kernel's own tracing buffers, for kernels that
 * can't load ltt's module (doc/kernel-tracefs.md).
 *
 * The tracer object is the tracefs mount with its catalog of events
 * (kabi-tracefs-catalog.c); each channel is an ftrace instance
 * (kabi-tracefs-inst.c).  This file is the backend's table: it opens the
 * tracer, answers what the catalog knows (VERSION, LIST, EVENT_DESC) and
 * hands every other operation to the instances.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"


/* ---- the tracer object ---- */

static int tracefs_open(const char *path, struct ltt_kabi_obj *ret_tracer)
{
	struct tracefs *t;
	int ret;

	ret = tracefs_catalog_open(path, &t);
	if (ret)
		return ret;
	tracefs_reap_stale(t);
	tracefs_probe_reap_stale(t);	/* after the instances that enabled them */
	tracefs_eprobe_check(t);
	tracefs_bpf_check(t);	/* where there are none */
	ret = fcntl(t->root_fd, F_DUPFD_CLOEXEC, 3);	/* the object's own fd */
	if (ret < 0) {
		ret = -errno;
		tracefs_put(t);
		return ret;
	}
	*ret_tracer = (struct ltt_kabi_obj){ .fd = ret, .priv = t };
	return 0;
}

static int version(const struct tracefs *t, struct ltt_kabi_version *v)
{
	struct utsname uts;

	if (uname(&uts))
		return -errno;
	v->major = LTT_KABI_MAJOR;
	v->minor = LTT_KABI_MINOR;
	v->probes = tracefs_probe_offered(t);
	v->maps = tracefs_map_offered(t);
	v->bpf = !t->bpf ? 0 : t->bpf_chosen ? LTT_KABI_BPF_CHOSEN : LTT_KABI_BPF_PROBES;
	snprintf(v->tracer_version, sizeof(v->tracer_version), "tracefs %.*s",
		 (int)sizeof(v->tracer_version) - 9, uts.release);
	return 0;
}

/* Add @name to @list's entries (as many as there is room for; all are counted). */
static void list_put(struct ltt_kabi_list *list, const char *name)
{
	struct ltt_kabi_list_entry *e = (struct ltt_kabi_list_entry *)(uintptr_t)list->entries;

	if (list->count < list->capacity) {
		memset(&e[list->count], 0, sizeof(e[list->count]));
		strcpy(e[list->count].name, name);
	}
	list->count++;
}

/*
 * LIST: the catalog's tracepoints, or its system calls (each by the name
 * of its entry event without the prefix).
 */
static int list(const struct tracefs *t, struct ltt_kabi_list *list)
{
	const size_t plen = strlen(LTT_KABI_SYSCALL_ENTRY_PREFIX);
	bool syscalls = list->kind == LTT_KABI_LIST_SYSCALLS;
	size_t i;

	list->count = 0;
	for (i = 0; i < t->nr_events; i++) {
		const struct tracefs_event *ev = &t->events[i];
		bool syscall = !strcmp(ev->system, "syscalls") || ev->eprobe;

		if (ev->probe)
			continue;	/* a session's, not the kernel's */
		if (!syscall && !syscalls)
			list_put(list, ev->name);
		else if (syscall && syscalls && !strncmp(ev->name, LTT_KABI_SYSCALL_ENTRY_PREFIX, plen))
			list_put(list, ev->name + plen);
	}
	return 0;
}

/* EVENT_DESC: the layout of an event of the catalog, as the module describes its own. */
static int event_desc(const struct tracefs *t, struct ltt_kabi_event_desc *desc)
{
	const struct tracefs_event *ev;
	struct ltt_ftrace_event *layout;
	char name[LTT_KABI_NAME_MAX];
	int ret;

	strcpy(name, desc->name);
	ret = tracefs_event_layout(t, name, &ev, &layout);
	if (ret)
		return ret;
	ret = ltt_ftrace_event_to_kabi(layout, name, desc);
	free(layout);
	return ret;
}

static int tracefs_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		       struct ltt_kabi_obj *ret_new)
{
	switch (op) {
	case LTT_KABI_OP_VERSION:
		return version(obj->priv, arg);
	case LTT_KABI_OP_LIST:
		return list(obj->priv, arg);
	case LTT_KABI_OP_EVENT_DESC:
		return event_desc(obj->priv, arg);
	case LTT_KABI_OP_PROBE:
		return tracefs_probe_create(((struct tf_session *)obj->priv)->t, arg, ret_new);
	case LTT_KABI_OP_MAP:
	case LTT_KABI_OP_MAP_EVENT:
	case LTT_KABI_OP_MAP_UNEVENT:
	case LTT_KABI_OP_MAP_READ:
	case LTT_KABI_OP_MAP_CTL:
		return tracefs_map_run(op, obj, arg, ret_new);
	default:
		return tracefs_inst_run(op, obj, arg, ret_new);
	}
}

static void tracefs_release(struct ltt_kabi_obj *obj)
{
	if (obj->kind == LTT_KABI_KIND_PROBE) {
		tracefs_probe_release(obj);
		return;
	}
	if (obj->kind == LTT_KABI_KIND_MAP) {
		tracefs_map_release(obj);
		return;
	}
	if (obj->kind != LTT_KABI_KIND_TRACER) {
		tracefs_inst_release(obj);
		return;
	}
	close(obj->fd);
	tracefs_put(obj->priv);
}

/*
 * .lacks answers for kernel map channels (the kernel's histogram
 * triggers) and probes (the kernel's uprobe_events and
 * kprobe_events): every other kabi feature is served through tracefs
 * (filters in the consumer, the state dump by the daemon, snapshots from
 * the packets the consumer keeps); contexts and trackers in part, the
 * rest refused by tracefs_context_lacks() and tracefs_tracker_lacks().
 */

/*
 * The contexts a record holds, its common_pid (the tid) and its CPU, and
 * those the consumer derives from its task table: procname, pid, ppid,
 * vpid, vtid.
 */
static int tracefs_context_lacks(uint32_t type, const char *what, char *why, size_t why_size)
{
	switch (type) {
	case LTT_KABI_CTX_TID:
	case LTT_KABI_CTX_CPU_ID:
	case LTT_KABI_CTX_PROCNAME:
	case LTT_KABI_CTX_PID:
	case LTT_KABI_CTX_PPID:
	case LTT_KABI_CTX_VPID:
	case LTT_KABI_CTX_VTID:
		return 0;
	default:
		break;
	}
	snprintf(why, why_size, "%s: the kernel tracing backend is tracefs, whose records hold the tid and the CPU only (procname, pid, ppid, vpid and vtid are derived by the consumer): add-context -k -t with one of those, or trace with ltt's module (ltt-sessiond --kernel-backend=module) for the others",
		 what);
	return -EOPNOTSUPP;
}

/* What a filter's $ctx reads of a record: its tid and its CPU only. */
static int tracefs_filter_context_lacks(uint32_t type, const char *what, char *why,
					size_t why_size)
{
	if (type == LTT_KABI_CTX_TID || type == LTT_KABI_CTX_CPU_ID)
		return 0;
	snprintf(why, why_size, "%s: the kernel tracing backend is tracefs, whose filters read $ctx.tid and $ctx.cpu_id only: filter on those, or trace with ltt's module (ltt-sessiond --kernel-backend=module) for the others",
		 what);
	return -EOPNOTSUPP;
}

static int tracefs_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
			 const char *what, char *why, size_t why_size)
{
	if (feature == LTT_KABI_FEAT_HOTPLUG) {
		/* the kernel's ring buffer has every possible CPU's: nothing to wait for */
		snprintf(why, why_size, "%s: the kernel's buffers exist for every possible CPU",
			 what);
		return -EOPNOTSUPP;
	}
	if (feature != LTT_KABI_FEAT_MAP)
		return tracefs_probe_lacks(version, feature, what, why, why_size);
	if (version->maps)
		return 0;
	snprintf(why, why_size, "%s: ltt counts kernel events in a map with ftrace's histogram triggers, which this kernel lacks (no events/*/*/hist in tracefs: CONFIG_HIST_TRIGGERS is off): record the events in a kernel channel and count them in the trace, or run a kernel built with CONFIG_HIST_TRIGGERS=y",
		 what);
	return -EOPNOTSUPP;
}

const struct ltt_kabi_backend ltt_kabi_tracefs = {
	.name = "tracefs",
	.pages = true,
	.open = tracefs_open,
	.run = tracefs_run,
	.release = tracefs_release,
	.lacks = tracefs_lacks,
	.context_lacks = tracefs_context_lacks,
	.filter_context_lacks = tracefs_filter_context_lacks,
	.tracker_lacks = tracefs_tracker_lacks,
};
