// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs.c - the tracefs backend of the kernel thread
 * (kabi-backend.h): the kernel's own tracing buffers, for kernels that
 * can't load ltt's module (doc/kernel-tracefs.md).
 *
 * The tracer object is the tracefs mount: the one the system has
 * (/proc/self/mounts), else tracefs mounted at its usual place,
 * /sys/kernel/tracing, and left there for the other tools that look for
 * it.  Its catalog is available_events, under LTTng's names: an ftrace
 * event SYS:NAME is NAME when NAME starts with SYS (sched:sched_switch is
 * sched_switch), SYS_NAME otherwise (timer:hrtimer_start is
 * timer_hrtimer_start); syscalls:sys_enter_NAME is the system call NAME.
 *
 * So far this backend lists; it records nothing: every feature is
 * lacking (tracefs_lacks()), so the kernel domain refuses channels and
 * rules with that sentence before any other operation is asked for.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <mntent.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "common/log.h"
#include "sessiond/kabi-backend.h"

#define TRACEFS_USUAL_PLACE "/sys/kernel/tracing"
#define SYSCALL_ENTER "sys_enter_"

/* The tracer object's state: where tracefs is. */
struct tracefs {
	char root[PATH_MAX];
};

/* @dir (PATH_MAX bytes) is where tracefs is mounted, or -ENOENT. */
static int find_mount(char *dir)
{
	FILE *f = setmntent("/proc/self/mounts", "re");
	struct mntent *m;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (ret && (m = getmntent(f)))
		if (!strcmp(m->mnt_type, "tracefs") && strlen(m->mnt_dir) < PATH_MAX) {
			strcpy(dir, m->mnt_dir);
			ret = 0;
		}
	endmntent(f);
	return ret;
}

/* tracefs at @path, or where the system has it, or mounted at its usual place. */
static int locate(const char *path, char *root)
{
	if (path) {
		if (strlen(path) >= PATH_MAX)
			return -ENAMETOOLONG;
		strcpy(root, path);
		return 0;
	}
	if (!find_mount(root))
		return 0;
	if (mount("nodev", TRACEFS_USUAL_PLACE, "tracefs", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return errno == ENODEV ? -ENOSYS : -errno;
	LTT_INFO("kernel: tracefs mounted at %s (left there for other tools)", TRACEFS_USUAL_PLACE);
	strcpy(root, TRACEFS_USUAL_PLACE);
	return 0;
}

static int tracefs_open(const char *path, struct ltt_kabi_obj *ret_tracer)
{
	struct tracefs *t = calloc(1, sizeof(*t));
	int fd, ret;

	if (!t)
		return -ENOMEM;
	ret = locate(path, t->root);
	/* a tracefs has available_events: the directory is what we need */
	fd = ret ? -1 : openat(AT_FDCWD, t->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (!ret && (fd < 0 || faccessat(fd, "available_events", R_OK, 0)))
		ret = -ENOENT;
	if (ret) {
		if (fd >= 0)
			close(fd);
		free(t);
		return ret;
	}
	*ret_tracer = (struct ltt_kabi_obj){ .fd = fd, .priv = t };
	return 0;
}

static int version(struct ltt_kabi_version *v)
{
	struct utsname uts;

	if (uname(&uts))
		return -errno;
	v->major = LTT_KABI_MAJOR;
	v->minor = LTT_KABI_MINOR;
	snprintf(v->tracer_version, sizeof(v->tracer_version), "tracefs %.*s",
		 (int)sizeof(v->tracer_version) - 9, uts.release);
	return 0;
}

/*
 * The LTTng name of ftrace event @sys:@name of kind @kind into @buf, or
 * -ENOENT when it is not of that kind (a system call is listed by the
 * name of its entry event, the rest are tracepoints).
 */
static int lttng_name(const char *sys, const char *name, enum ltt_kabi_list_kind kind,
		      char *buf, size_t len)
{
	size_t sys_len = strlen(sys);
	bool syscall = !strcmp(sys, "syscalls");
	int n;

	if (syscall != (kind == LTT_KABI_LIST_SYSCALLS))
		return -ENOENT;
	if (syscall && strncmp(name, SYSCALL_ENTER, strlen(SYSCALL_ENTER)))
		return -ENOENT;
	if (syscall)
		n = snprintf(buf, len, "%s", name + strlen(SYSCALL_ENTER));
	else if (!strncmp(name, sys, sys_len) && (name[sys_len] == '_' || !name[sys_len]))
		n = snprintf(buf, len, "%s", name);
	else
		n = snprintf(buf, len, "%s_%s", sys, name);
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
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

/* LIST: the events (or system calls) of available_events, under LTTng's names. */
static int list(struct ltt_kabi_obj *tracer, struct ltt_kabi_list *list)
{
	int fd = openat(tracer->fd, "available_events", O_RDONLY | O_CLOEXEC);
	char line[2 * LTT_KABI_NAME_MAX], name[LTT_KABI_NAME_MAX], *colon;
	FILE *f = fd < 0 ? NULL : fdopen(fd, "re");

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	list->count = 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		if (!lttng_name(line, colon + 1, list->kind, name, sizeof(name)))
			list_put(list, name);
	}
	fclose(f);
	return 0;
}

static int tracefs_run(enum ltt_kabi_op op, struct ltt_kabi_obj *obj, void *arg,
		       struct ltt_kabi_obj *ret_new)
{
	(void)ret_new;
	switch (op) {
	case LTT_KABI_OP_VERSION:
		return version(arg);
	case LTT_KABI_OP_LIST:
		return list(obj, arg);
	default:
		return -ENOTTY;	/* refused before: tracefs_lacks() */
	}
}

static void tracefs_release(struct ltt_kabi_obj *obj)
{
	close(obj->fd);
	free(obj->priv);
}

static int tracefs_lacks(const struct ltt_kabi_version *version, enum ltt_kabi_feature feature,
			 const char *what, char *why, size_t why_size)
{
	(void)feature;
	snprintf(why, why_size, "%s: the kernel tracing backend is tracefs (%s), which lists the kernel's events but does not record them yet; on a kernel that loads ltt's module, start ltt-sessiond without --kernel-backend=tracefs",
		 what, version->tracer_version);
	return -ENOTTY;
}

const struct ltt_kabi_backend ltt_kabi_tracefs = {
	.name = "tracefs",
	.open = tracefs_open,
	.run = tracefs_run,
	.release = tracefs_release,
	.lacks = tracefs_lacks,
};
