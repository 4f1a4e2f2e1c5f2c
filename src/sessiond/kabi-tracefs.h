/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi-tracefs.h - inside the tracefs backend (kabi-tracefs.c: the
 * tracer, its catalog and event layouts; kabi-tracefs-inst.c: sessions,
 * channels as ftrace instances, streams, events).  Kernel thread only.
 *
 * The tracer's state is shared by every object made from it and freed
 * with the last of them (kabi.c releases objects in no set order).
 */
#ifndef LTT_SESSIOND_KABI_TRACEFS_H
#define LTT_SESSIOND_KABI_TRACEFS_H

#include <limits.h>
#include <stddef.h>

#include "common/ftrace-format.h"
#include "sessiond/kabi-backend.h"

/* Instances are named ltt-PID-N: a daemon's own, found again after it died. */
#define TRACEFS_INSTANCE_PREFIX "ltt-"
#define TRACEFS_INSTANCE_MAX 48

/* One event of the catalog: its LTTng name and where tracefs has it. */
struct tracefs_event {
	char name[LTT_KABI_NAME_MAX];		/* "sched_switch", "syscall_entry_read" */
	char system[LTT_FTRACE_NAME_MAX];	/* "sched", "syscalls" */
	char event[LTT_FTRACE_NAME_MAX];	/* "sched_switch", "sys_enter_read" */
};

struct tracefs {
	unsigned int refs;		/* the tracer object and each object made from it */
	int root_fd;			/* O_PATH, the mount's root */
	char root[PATH_MAX];
	struct ltt_ftrace_page_layout page;	/* events/header_page */
	struct tracefs_event *events;	/* sorted by name */
	size_t nr_events;
	unsigned int next_instance;	/* N of the next ltt-PID-N */
	char (*doomed)[TRACEFS_INSTANCE_MAX];	/* instances to remove once unused */
	size_t nr_doomed;
};

/* A reference to @t for a new object. */
struct tracefs *tracefs_get(struct tracefs *t);

/* Drop a reference; the last removes what instances it can and frees @t. */
void tracefs_put(struct tracefs *t);

/* The catalog's event called @name, or NULL. */
const struct tracefs_event *tracefs_find(const struct tracefs *t, const char *name);

/*
 * The layout of @ev (its format file) into @ret.  Returns 0, the parser's
 * error (-EINVAL, -ENOTSUP, -E2BIG, -ENAMETOOLONG) or the read's; the
 * reason is logged.
 */
int tracefs_layout(const struct tracefs *t, const struct tracefs_event *ev,
		   struct ltt_ftrace_event *ret);

/*
 * Write @text to the file @path under @dir_fd (a control file of
 * tracefs).  Returns 0 or -errno.
 */
int tracefs_write(int dir_fd, const char *path, const char *text);

/* Remove instance @name now, or once it is unused (a reader holds it). */
void tracefs_doom(struct tracefs *t, const char *name);

/* Remove the instances left to remove; those still in use stay listed. */
void tracefs_reap(struct tracefs *t);

/* Remove the instances of daemons that are gone (and this one's, from before). */
void tracefs_reap_stale(struct tracefs *t);

/*
 * The operations on sessions, channels and streams (kabi-tracefs-inst.c),
 * as ltt_kabi_backend.run; -ENOTTY for another.
 */
int tracefs_inst_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		     struct ltt_kabi_obj *ret_new);

/* Release a session, channel or stream. */
void tracefs_inst_release(struct ltt_kabi_obj *obj);

#endif /* LTT_SESSIOND_KABI_TRACEFS_H */
