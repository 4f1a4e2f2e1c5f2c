// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-catalog.c - the tracefs backend's tracer state: where
 * tracefs is mounted, its catalog of events under LTTng's names, and each
 * event's layout.
 *
 * The mount is the one the system has (/proc/self/mounts), else tracefs
 * mounted at its usual place, /sys/kernel/tracing, and left there for the
 * other tools that look for it.  The catalog is available_events, under
 * LTTng's names: an ftrace event SYS:NAME is NAME when NAME starts with
 * SYS (sched:sched_switch is sched_switch), SYS_NAME otherwise
 * (timer:hrtimer_start is timer_hrtimer_start); syscalls:sys_enter_NAME
 * is the system call NAME.  The layouts come from the events' format
 * files, parsed by common/ftrace/ftrace-format.c for the metadata (EVENT_DESC)
 * and for the channel's event map, which the consumer converts records
 * with.  The files of dynamic events (uprobe_events, kprobe_events,
 * dynamic_events) are written here, for the probes placed from outside
 * (kabi-tracefs-probe.c) and the event probes (kabi-tracefs-eprobe.c).
 */
#include <dirent.h>
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
#include <unistd.h>

#include "common/base/log.h"
#include "common/ftrace/ftrace-names.h"
#include "sessiond/kabi/kabi-tracefs.h"

#define TRACEFS_USUAL_PLACE "/sys/kernel/tracing"
#define SYSCALL_ENTER "sys_enter_"
#define SYSCALL_EXIT "sys_exit_"

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


static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct tracefs_event *)a)->name,
		      ((const struct tracefs_event *)b)->name);
}

const struct tracefs_event *tracefs_find(const struct tracefs *t, const char *name)
{
	struct tracefs_event key;

	if (strlen(name) >= sizeof(key.name))
		return NULL;
	strcpy(key.name, name);
	return bsearch(&key, t->events, t->nr_events, sizeof(key), by_name);
}

/*
 * The LTTng name of ftrace event @sys:@name into @buf: syscall_entry_X and
 * syscall_exit_X for syscalls:sys_enter_X and sys_exit_X; NAME when NAME
 * starts with SYS (sched:sched_switch), SYS_NAME otherwise.  -ENOENT for
 * another event of syscalls.
 */
static int lttng_name(const char *sys, const char *name, char *buf, size_t len)
{
	size_t sys_len = strlen(sys);
	int n;

	if (!strcmp(sys, "syscalls")) {
		if (!strncmp(name, SYSCALL_ENTER, strlen(SYSCALL_ENTER)))
			n = snprintf(buf, len, "%s%s", LTT_KABI_SYSCALL_ENTRY_PREFIX,
				     name + strlen(SYSCALL_ENTER));
		else if (!strncmp(name, SYSCALL_EXIT, strlen(SYSCALL_EXIT)))
			n = snprintf(buf, len, "%s%s", LTT_KABI_SYSCALL_EXIT_PREFIX,
				     name + strlen(SYSCALL_EXIT));
		else
			return -ENOENT;
	} else if (!strncmp(name, sys, sys_len) && (name[sys_len] == '_' || !name[sys_len])) {
		n = snprintf(buf, len, "%s", name);
	} else {
		n = snprintf(buf, len, "%s_%s", sys, name);
	}
	return n > 0 && (size_t)n < len ? 0 : -ENAMETOOLONG;
}

/* Room for one more event in the catalog (@cap: its room, grown). */
static int catalog_grow(struct tracefs *t, size_t *cap)
{
	struct tracefs_event *bigger;

	if (t->nr_events < *cap)
		return 0;
	*cap = *cap ? *cap * 2 : 1024;
	bigger = realloc(t->events, *cap * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	t->events = bigger;
	return 0;
}

/* Add ftrace event @sys:@name to the catalog (@cap: its room, grown). */
static int catalog_add(struct tracefs *t, const char *sys, const char *name, size_t *cap)
{
	struct tracefs_event *ev;

	if (strlen(sys) >= LTT_FTRACE_NAME_MAX || strlen(name) >= LTT_FTRACE_NAME_MAX)
		return 0;	/* no format file of ours names it: not offered */
	if (catalog_grow(t, cap))
		return -ENOMEM;
	ev = &t->events[t->nr_events];
	memset(ev, 0, sizeof(*ev));
	if (lttng_name(sys, name, ev->name, sizeof(ev->name)))
		return 0;
	strcpy(ev->system, sys);
	strcpy(ev->event, name);
	t->nr_events++;
	return 0;
}

/* The state dump events, written by the daemon as raw_data records. */
static int catalog_add_statedump(struct tracefs *t, size_t *cap)
{
	struct tracefs_event *ev;
	unsigned int i;

	if (!tracefs_statedump_offered(t))
		return 0;
	for (i = 0; i < TRACEFS_SD_NR; i++) {
		if (catalog_grow(t, cap))
			return -ENOMEM;
		ev = &t->events[t->nr_events++];
		memset(ev, 0, sizeof(*ev));
		snprintf(ev->name, sizeof(ev->name), "%s", tracefs_statedump_name(i));
		strcpy(ev->system, TRACEFS_RAW_SYSTEM);
		strcpy(ev->event, TRACEFS_RAW_EVENT);
	}
	return 0;
}

/* The catalog: available_events and the state dump, sorted by LTTng name. */
static int catalog_read(struct tracefs *t)
{
	int fd = openat(t->root_fd, "available_events", O_RDONLY | O_CLOEXEC);
	FILE *f = fd < 0 ? NULL : fdopen(fd, "re");
	char line[4 * LTT_FTRACE_NAME_MAX], *colon;
	size_t cap = 0;
	int ret = 0;

	if (!f) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		return ret;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		colon = strchr(line, ':');
		if (!colon)
			continue;
		*colon = '\0';
		ret = catalog_add(t, line, colon + 1, &cap);
	}
	fclose(f);
	if (!ret)
		ret = catalog_add_statedump(t, &cap);
	if (!ret)
		qsort(t->events, t->nr_events, sizeof(*t->events), by_name);
	return ret;
}

/* Read at most LTT_FTRACE_MAX_TEXT bytes of @path under @dir_fd into @buf. */
static ssize_t read_text(int dir_fd, const char *path, char *buf)
{
	int fd = openat(dir_fd, path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n = 1;

	if (fd < 0)
		return -errno;
	while (n > 0 && len < LTT_FTRACE_MAX_TEXT) {
		n = read(fd, buf + len, LTT_FTRACE_MAX_TEXT - len);
		if (n > 0)
			len += (size_t)n;
	}
	if (n < 0)
		n = -errno;
	close(fd);
	return n < 0 ? n : (ssize_t)len;
}

ssize_t tracefs_read_text(const struct tracefs *t, const char *path, char *buf)
{
	return read_text(t->root_fd, path, buf);
}

/*
 * Fields lttng-modules names otherwise (its kernel tid is "tid", ftrace's
 * "pid"), so that analyses written for LTTng read them.
 */
static const struct {
	const char *event, *ftrace, *lttng;
} renames[] = {
	{ "sched_switch", "prev_pid", "prev_tid" },
	{ "sched_switch", "next_pid", "next_tid" },
	{ "sched_wakeup", "pid", "tid" },
	{ "sched_wakeup_new", "pid", "tid" },
	{ "sched_waking", "pid", "tid" },
	{ "sched_migrate_task", "pid", "tid" },
	{ "sched_process_exit", "pid", "tid" },
	{ "sched_process_free", "pid", "tid" },
	{ "sched_process_wait", "pid", "tid" },
	{ "sched_process_exec", "pid", "tid" },
	{ "sched_process_exec", "old_pid", "old_tid" },
	{ "sched_process_fork", "parent_pid", "parent_tid" },
	{ "sched_process_fork", "child_pid", "child_tid" },
	{ "sched_stat_runtime", "pid", "tid" },
	{ "sched_pi_setprio", "pid", "tid" },
	{ "sys_enter_epoll_ctl", "op", "op_enum" },	/* an enumeration: enums[] */
};

/* Fields lttng-modules writes as an enumeration (their lttng names). */
static const struct {
	const char *event, *field;
	enum ltt_kabi_enum id;
} enums[] = {
	{ "sys_enter_epoll_ctl", "op_enum", LTT_KABI_ENUM_EPOLL_OP },
	{ "module_load", "taints", LTT_KABI_ENUM_TAINT },
};

/* @ev's integer field @f (its lttng name) written as lttng-modules' enumeration, if it is one. */
static void lttng_enum(const struct tracefs_event *ev, struct ltt_ftrace_field *f)
{
	size_t e;

	for (e = 0; e < sizeof(enums) / sizeof(enums[0]); e++)
		if (f->kind == LTT_FTRACE_INT && !strcmp(ev->event, enums[e].event) &&
		    !strcmp(f->name, enums[e].field))
			f->enum_id = (uint8_t)enums[e].id;
}

/*
 * The fields of probe events (kabi-tracefs-probe.c) as lttng-modules
 * names them, in hex: a kprobe's (and uprobe's) address "ip"; a
 * kretprobe's function "ip" and the address it returns to "parent_ip"
 * (its entry event fetches that one under its own name).
 */
static const struct {
	const char *ftrace, *lttng;
} probe_renames[] = {
	{ "__probe_ip", "ip" },
	{ "__probe_func", "ip" },
	{ "__probe_ret_ip", "parent_ip" },
	{ "parent_ip", "parent_ip" },
};

/* A probe event's field @f named and shown as lttng-modules does. */
static void lttng_probe_field(const struct tracefs_event *ev, struct ltt_ftrace_field *f)
{
	size_t r;

	for (r = 0; ev->probe && r < sizeof(probe_renames) / sizeof(probe_renames[0]); r++) {
		if (strcmp(f->name, probe_renames[r].ftrace) || f->kind != LTT_FTRACE_INT)
			continue;
		strcpy(f->name, probe_renames[r].lttng);
		f->base = 16;
		return;
	}
}

/*
 * The ftrace name of @ev's field @name (lttng_probe_field() undone), in
 * place: a kretprobe's return event is the one named "pN_return".
 */
static void ftrace_probe_field(const struct tracefs_event *ev, char *name)
{
	size_t len = strlen(ev->event);
	bool ret = len > 7 && !strcmp(ev->event + len - 7, "_return");

	if (!ev->probe)
		return;
	if (!strcmp(name, "ip"))
		strcpy(name, ret ? "__probe_func" : "__probe_ip");
	else if (!strcmp(name, "parent_ip") && ret)
		strcpy(name, "__probe_ret_ip");
}

/*
 * The scheduler's priorities as lttng-modules records them: the kernel's
 * prio minus MAX_RT_PRIO (100), so a nice-0 task is 20 and a SCHED_FIFO
 * task of priority 10 is -11.
 */
static bool lttng_prio(const struct tracefs_event *ev, const struct ltt_ftrace_field *f)
{
	static const char *const names[] = { "prio", "prev_prio", "next_prio", "oldprio", "newprio" };
	size_t i;

	if (strcmp(ev->system, "sched") || f->kind != LTT_FTRACE_INT || f->size != 4 || !f->is_signed)
		return false;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(f->name, names[i]))
			return true;
	return false;
}

/*
 * Fields lttng-modules has and ftrace's record lacks, derived by the
 * converter, each after a field of the record: sched_process_fork's
 * thread groups after their tids, the block requests' tid after bytes.
 */
static const struct {
	const char *event, *after, *name;
	enum ltt_ftrace_derived derived;
} added[] = {
	{ "sched_process_fork", "parent_tid", "parent_pid", LTT_FTRACE_DERIVED_TGID },
	{ "sched_process_fork", "child_tid", "child_pid", LTT_FTRACE_DERIVED_TGID },
	{ "block_rq_issue", "bytes", "tid", LTT_FTRACE_DERIVED_TID },
	{ "block_rq_insert", "bytes", "tid", LTT_FTRACE_DERIVED_TID },
};

/* An s32 field named @name, derived from @size bytes at @offset. */
static void derived_field(struct ltt_ftrace_field *f, const char *name, uint32_t offset,
			  uint32_t size, enum ltt_ftrace_derived derived)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->name, sizeof(f->name), "%s", name);
	f->offset = offset;
	f->size = size;
	f->kind = LTT_FTRACE_INT;
	f->elem_size = 4;
	f->is_signed = derived != LTT_FTRACE_DERIVED_RWBS;
	f->base = 10;
	f->derived = (uint8_t)derived;
}

/* The field @ev adds after @f into @out, if it adds one. */
static bool added_field(const struct tracefs_event *ev, const struct ltt_ftrace_event *layout,
			const struct ltt_ftrace_field *f, struct ltt_ftrace_field *out)
{
	size_t t;

	for (t = 0; t < sizeof(added) / sizeof(added[0]); t++) {
		if (strcmp(ev->event, added[t].event) || strcmp(f->name, added[t].after))
			continue;
		if (added[t].derived == LTT_FTRACE_DERIVED_TID)
			derived_field(out, added[t].name, layout->pid_offset, 4, added[t].derived);
		else if (f->kind == LTT_FTRACE_INT && f->size == 4 && f->is_signed)
			derived_field(out, added[t].name, f->offset, 4, added[t].derived);
		else
			return false;
		return true;
	}
	return false;
}

/* A block event's rwbs text becomes lttng-modules' integer of flags. */
static void lttng_rwbs(const struct tracefs_event *ev, struct ltt_ftrace_field *f)
{
	if (strcmp(ev->system, "block") || strcmp(f->name, "rwbs") || f->kind != LTT_FTRACE_CHARS)
		return;
	derived_field(f, "rwbs", f->offset, f->size, LTT_FTRACE_DERIVED_RWBS);
}

/*
 * @layout as lttng-modules lays the event out: its fields renamed, its
 * priorities biased, a system call's number (its event says which call)
 * left out, the fields it lacks derived (added[], rwbs), its
 * enumerations named (enums[]).
 */
static void lttng_fields(const struct tracefs_event *ev, struct ltt_ftrace_event *layout)
{
	struct ltt_ftrace_field in[LTT_FTRACE_MAX_FIELDS];
	uint32_t i, kept = 0, nr = layout->nr_fields;
	size_t r;

	memcpy(in, layout->fields, nr * sizeof(in[0]));
	for (i = 0; i < nr && kept < LTT_FTRACE_MAX_FIELDS; i++) {
		struct ltt_ftrace_field *f = &in[i];

		if (!strcmp(ev->system, "syscalls") && !strcmp(f->name, "__syscall_nr"))
			continue;
		for (r = 0; r < sizeof(renames) / sizeof(renames[0]); r++)
			if (!strcmp(ev->event, renames[r].event) && !strcmp(f->name, renames[r].ftrace))
				strcpy(f->name, renames[r].lttng);
		if (lttng_prio(ev, f))
			f->bias = -100;
		lttng_rwbs(ev, f);
		lttng_probe_field(ev, f);
		lttng_enum(ev, f);
		layout->fields[kept++] = *f;
		if (kept < LTT_FTRACE_MAX_FIELDS && added_field(ev, layout, f, &layout->fields[kept]))
			kept++;
	}
	layout->nr_fields = kept;
}

void tracefs_kernel_names(const struct tracefs_event *ev, struct ltt_ftrace_event *layout)
{
	uint32_t i;
	size_t r;

	for (i = 0; i < layout->nr_fields; i++) {
		for (r = 0; r < sizeof(renames) / sizeof(renames[0]); r++)
			if (!strcmp(ev->event, renames[r].event) &&
			    !strcmp(layout->fields[i].name, renames[r].lttng))
				strcpy(layout->fields[i].name, renames[r].ftrace);
		ftrace_probe_field(ev, layout->fields[i].name);
	}
}

/*
 * Pointer arguments that are not strings (as the module's, kmod/scripts).
 * @name is what follows "const char * " on a format line: an identifier
 * there is a string's; "const * argv" is the rest of execve's "const
 * char *const * argv", a pointer to pointers, never a string.
 */
bool tracefs_string_arg(const char *name)
{
	if (!*name || name[strspn(name, "abcdefghijklmnopqrstuvwxyz"
					"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")])
		return false;
	return strcmp(name, "buf") && strcmp(name, "msg_ptr") && strcmp(name, "u_msg_ptr");
}

bool tracefs_string_field(const char *text, const char *field)
{
	char name[LTT_FTRACE_NAME_MAX];
	const char *line;

	for (line = text; line; line = strchr(line + 1, '\n'))
		if (sscanf(line, " field:const char * %63[^;]", name) == 1 && !strcmp(name, field))
			return tracefs_string_arg(name);
	return false;
}

/* The format of @ev, a system call event whose name starts with @prefix. */
static int call_format(const struct tracefs *t, const struct tracefs_event *ev, const char *prefix,
		       char **ret_text, struct ltt_ftrace_event **ret_orig)
{
	char path[3 * LTT_FTRACE_NAME_MAX], *text;
	struct ltt_ftrace_event *orig;
	const char *why = NULL;
	ssize_t len;

	if (strcmp(ev->system, "syscalls") || strncmp(ev->event, prefix, strlen(prefix)))
		return -ENOENT;
	text = malloc(LTT_FTRACE_MAX_TEXT + 1);
	orig = malloc(sizeof(*orig));
	snprintf(path, sizeof(path), "events/%s/%s/format", ev->system, ev->event);
	len = text && orig ? tracefs_read_text(t, path, text) : -ENOMEM;
	if (len >= 0 && ltt_ftrace_format_parse(ev->system, text, (size_t)len, orig, &why))
		len = -EINVAL;
	if (len < 0) {
		free(text);
		free(orig);
		return (int)len;
	}
	text[len] = '\0';
	*ret_text = text;
	*ret_orig = orig;
	return 0;
}

int tracefs_entry_format(const struct tracefs *t, const struct tracefs_event *ev, char **ret_text,
			 struct ltt_ftrace_event **ret_orig)
{
	return call_format(t, ev, SYSCALL_ENTER, ret_text, ret_orig);
}

int tracefs_exit_format(const struct tracefs *t, const struct tracefs_event *ev, char **ret_text,
			struct ltt_ftrace_event **ret_orig)
{
	return call_format(t, ev, SYSCALL_EXIT, ret_text, ret_orig);
}

/*
 * The format lines of @payload's fields (bpf-abi.h), at @at, the
 * arguments' end, into @out (@size bytes): lttng-modules' names and
 * types.  Returns what snprintf() does.
 */
static int payload_lines(uint8_t payload, unsigned int at, char *out, size_t size)
{
	static const struct {
		uint8_t payload;
		const char *decl;
		unsigned int off, size;
	} fields[] = {
		{ LTT_BPF_PAYLOAD_SOCKADDR, "unsigned short family", 0, 2 },
		{ LTT_BPF_PAYLOAD_SOCKADDR, "unsigned short dport", 2, 2 },
		{ LTT_BPF_PAYLOAD_SOCKADDR, "__data_loc u8[] v4addr", 4, 4 },
		{ LTT_BPF_PAYLOAD_SOCKADDR, "__data_loc u16[] v6addr", 8, 4 },
		{ LTT_BPF_PAYLOAD_POLLFD, "unsigned int fds_length", 0, 4 },
		{ LTT_BPF_PAYLOAD_POLLFD, "u8 overflow", 4, 1 },
		{ LTT_BPF_PAYLOAD_POLL_EXIT, "unsigned int nfds", 0, 4 },
		{ LTT_BPF_PAYLOAD_POLL_EXIT, "unsigned int fds_length", 4, 4 },
		{ LTT_BPF_PAYLOAD_PPOLL_EXIT, "unsigned int nfds", 0, 4 },
		{ LTT_BPF_PAYLOAD_PPOLL_EXIT, "unsigned int fds_length", 4, 4 },
		{ LTT_BPF_PAYLOAD_PPOLL_EXIT, "u8 overflow", 8, 1 },
		{ LTT_BPF_PAYLOAD_EPOLL_WAIT, "unsigned int fds_length", 0, 4 },
		{ LTT_BPF_PAYLOAD_EPOLL_WAIT, "u8 overflow", 4, 1 },
		{ LTT_BPF_PAYLOAD_ACCEPT, "int upeer_addrlen", 0, 4 },
		{ LTT_BPF_PAYLOAD_ACCEPT, "unsigned short family", 4, 2 },
		{ LTT_BPF_PAYLOAD_ACCEPT, "unsigned short sport", 6, 2 },
		{ LTT_BPF_PAYLOAD_ACCEPT, "__data_loc u8[] v4addr", 8, 4 },
		{ LTT_BPF_PAYLOAD_ACCEPT, "__data_loc u16[] v6addr", 12, 4 },
	};
	size_t i, used = 0;
	int n;

	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		if (fields[i].payload != payload)
			continue;
		n = snprintf(out + used, size - used, "\tfield:%s;\toffset:%u;\tsize:%u;\tsigned:%d;\n",
			     fields[i].decl, at + fields[i].off, fields[i].size,
			     !strncmp(fields[i].decl, "int ", 4));
		if (n < 0 || (size_t)n >= size - used)
			return -1;
		used += (size_t)n;
	}
	return (int)used;
}

/*
 * The structures of @ev's payload (bpf-abi.h), after its fields in
 * @layout, as lttng-modules writes them and the program packs them:
 * poll's fds, a sequence of {fd, raw_events, events: the flags' bits};
 * epoll_ctl's event, {data_union: {u64, fd}, raw_events, events};
 * epoll_wait's fds, a sequence of those.
 */
static int payload_structs(const struct tracefs_event *ev, struct ltt_ftrace_event *layout)
{
#define INT(n, sz, sgn, b) { .name = n, .kind = LTT_FTRACE_INT, .size = sz, .elem_size = sz, \
			     .is_signed = sgn, .base = b }
#define BITS(n, bits) { .name = n, .kind = LTT_FTRACE_INT, .length = bits, .base = 10 }
	static const struct ltt_ftrace_field pollfd[] = {
		INT("fd", 4, 1, 10), INT("raw_events", 2, 0, 16),
		{ .name = "events", .kind = LTT_FTRACE_STRUCT, .size = 1, .length = 7 },
		BITS("POLLIN", 1), BITS("POLLPRI", 1), BITS("POLLOUT", 1), BITS("POLLERR", 1),
		BITS("POLLHUP", 1), BITS("POLLNVAL", 1), BITS("padding", 2),
	};
	static const struct ltt_ftrace_field epoll[] = {
		{ .name = "data_union", .kind = LTT_FTRACE_STRUCT, .size = 12, .length = 2 },
		INT("u64", 8, 0, 16), INT("fd", 4, 1, 10), INT("raw_events", 4, 0, 16),
		{ .name = "events", .kind = LTT_FTRACE_STRUCT, .size = 1, .length = 6 },
		BITS("EPOLLIN", 1), BITS("EPOLLPRI", 1), BITS("EPOLLOUT", 1), BITS("EPOLLERR", 1),
		BITS("EPOLLHUP", 1), BITS("padding", 3),
	};
#undef INT
#undef BITS
#define NR(a) (sizeof(a) / sizeof((a)[0]))
	static const struct {
		uint8_t payload, kind;
		const char *name;
		uint32_t offset;	/* from the payload's start */
		const struct ltt_ftrace_field *members;
		uint32_t nr, bytes;
	} structs[] = {
		{ LTT_BPF_PAYLOAD_POLLFD, LTT_FTRACE_STRUCTS, "fds", 8, pollfd, NR(pollfd),
		  LTT_BPF_POLLFD_BYTES },
		{ LTT_BPF_PAYLOAD_POLL_EXIT, LTT_FTRACE_STRUCTS, "fds", 12, pollfd, NR(pollfd),
		  LTT_BPF_POLLFD_BYTES },
		{ LTT_BPF_PAYLOAD_PPOLL_EXIT, LTT_FTRACE_STRUCTS, "fds", 12, pollfd, NR(pollfd),
		  LTT_BPF_POLLFD_BYTES },
		{ LTT_BPF_PAYLOAD_EPOLL, LTT_FTRACE_STRUCT, "event", 0, epoll, NR(epoll),
		  LTT_BPF_EPOLL_BYTES },
		{ LTT_BPF_PAYLOAD_EPOLL_WAIT, LTT_FTRACE_STRUCTS, "fds", 8, epoll, NR(epoll),
		  LTT_BPF_EPOLL_BYTES },
	};
	uint32_t at = LTT_BPF_HDR + 8u * ev->bpf_nargs, n = layout->nr_fields, j;
	struct ltt_ftrace_field *f;
	size_t i;

	for (i = 0; i < NR(structs) && structs[i].payload != ev->bpf_payload; i++)
		;
	if (i == NR(structs))
		return 0;
	/* epoll_ctl's argument event, its address, becomes the structure, as lttng-modules' */
	for (j = 0; j < n; j++)
		if (!strcmp(layout->fields[j].name, structs[i].name)) {
			memmove(&layout->fields[j], &layout->fields[j + 1],
				(n - j - 1) * sizeof(layout->fields[0]));
			n--;
			break;
		}
	f = &layout->fields[n];
	if (n + 1 + structs[i].nr > LTT_FTRACE_MAX_FIELDS || n + 1 + structs[i].nr > LTT_KABI_MAX_FIELDS)
		return -E2BIG;
	*f = (struct ltt_ftrace_field){ .kind = structs[i].kind, .offset = at + structs[i].offset,
					.length = structs[i].nr };
	snprintf(f->name, sizeof(f->name), "%s", structs[i].name);
	if (structs[i].kind == LTT_FTRACE_STRUCTS) {	/* a __data_loc of them */
		f->size = 4;
		f->elem_size = (uint8_t)structs[i].bytes;
	} else {
		f->size = structs[i].bytes;
	}
	memcpy(f + 1, structs[i].members, structs[i].nr * sizeof(*f));
#undef NR
	layout->nr_fields = n + 1 + structs[i].nr;
	if (layout->min_size < at + LTT_BPF_PAYLOAD_BYTES)
		layout->min_size = at + LTT_BPF_PAYLOAD_BYTES;
	return 0;
}

int tracefs_bpf_parse(const struct tracefs_event *ev, const char *text, size_t len,
		      struct ltt_ftrace_event *ret, const char **why)
{
	char name[LTT_FTRACE_NAME_MAX], *out = malloc(LTT_FTRACE_MAX_TEXT + 1);
	const char *line, *end = text + len, *nl;
	unsigned int off;
	size_t used = 0, n;
	int err = out ? 0 : -ENOMEM, w;

	/*
	 * each string argument's slot holds the string's __data_loc; the
	 * structure's fields follow the arguments (bpf-abi.h), said before
	 * the print format
	 */
	for (line = text; line < end && !err; line = nl ? nl + 1 : end) {
		nl = memchr(line, '\n', (size_t)(end - line));
		n = (size_t)((nl ? nl : end) - line);
		w = 0;
		if (ev->bpf_payload && n >= 10 && !memcmp(line, "print fmt:", 10))
			w = payload_lines(ev->bpf_payload, LTT_BPF_HDR + 8u * ev->bpf_nargs,
					  out + used, LTT_FTRACE_MAX_TEXT + 1 - used);
		if (w >= 0)
			used += (size_t)w;
		if (w < 0)
			err = -EINVAL;
		else if (n < sizeof(name) * 2 &&
			 sscanf(line, " field:const char * %63[^;]; offset:%u;", name, &off) == 2 &&
			 tracefs_string_arg(name))
			err = snprintf(out + used, LTT_FTRACE_MAX_TEXT + 1 - used,
				       "\tfield:__data_loc char[] %s;\toffset:%u;\tsize:4;\tsigned:0;\n",
				       name, off) < 0 ? -EINVAL : 0;
		else
			err = snprintf(out + used, LTT_FTRACE_MAX_TEXT + 1 - used, "%.*s\n", (int)n,
				       line) < 0 ? -EINVAL : 0;
		used += strlen(out + used);
		if (used >= LTT_FTRACE_MAX_TEXT)
			err = -E2BIG;
	}
	if (!err)
		err = ltt_ftrace_format_parse(ev->system, out, used, ret, why);
	else
		*why = "the BPF record's layout can't be written";
	free(out);
	return err;
}


int tracefs_layout(const struct tracefs *t, const struct tracefs_event *ev,
		   struct ltt_ftrace_event *ret)
{
	char path[3 * LTT_FTRACE_NAME_MAX], *text = malloc(LTT_FTRACE_MAX_TEXT);
	uint32_t raw_id = tracefs_statedump_raw_id(ev);
	const char *why = NULL;
	ssize_t len;
	int err;

	if (!text)
		return -ENOMEM;
	snprintf(path, sizeof(path), "events/%s/%s/format", ev->system, ev->event);
	len = read_text(t->root_fd, path, text);
	if (len < 0)
		err = (int)len;
	else if (raw_id)	/* a state dump event: raw_data's header, the module's fields */
		err = tracefs_statedump_layout(raw_id, text, (size_t)len, ret, &why);
	else if (ev->bpf)	/* the BPF program's record: the strings in it */
		err = tracefs_bpf_parse(ev, text, (size_t)len, ret, &why);
	else
		err = ltt_ftrace_format_parse(ev->system, text, (size_t)len, ret, &why);
	if (err)
		LTT_WARN("kernel: %s (%s/%s): %s", ev->name, t->root, path,
			 why ? why : strerror(-err));
	else if (!raw_id)
		lttng_fields(ev, ret);
	if (!err && ev->bpf)
		err = payload_structs(ev, ret);
	free(text);
	return err;
}

/* The ring buffer's page header, or the usual one (64-bit kernels). */
static void page_layout(struct tracefs *t)
{
	char *text = malloc(LTT_FTRACE_MAX_TEXT);
	ssize_t len = text ? read_text(t->root_fd, "events/header_page", text) : -ENOMEM;

	if (len < 0 || ltt_ftrace_header_page_parse(text, (size_t)len, &t->page)) {
		LTT_WARN("kernel: %s/events/header_page unreadable: the usual page header assumed",
			 t->root);
		ltt_ftrace_page_layout_default(&t->page);
	}
	free(text);
}


int tracefs_catalog_open(const char *path, struct tracefs **ret_t)
{
	struct tracefs *t = calloc(1, sizeof(*t));
	int ret;

	if (!t)
		return -ENOMEM;
	t->refs = 1;
	t->root_fd = -1;
	ret = locate(path, t->root);
	/* a tracefs has available_events: the directory is what we need */
	if (!ret) {
		t->root_fd = openat(AT_FDCWD, t->root, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (t->root_fd < 0 || faccessat(t->root_fd, "available_events", R_OK, 0))
			ret = -ENOENT;
	}
	if (!ret)
		ret = catalog_read(t);
	if (ret) {
		if (t->root_fd >= 0)
			close(t->root_fd);
		free(t->events);
		free(t);
		return ret;
	}
	page_layout(t);
	*ret_t = t;
	return 0;
}

/* The daemon's pid, in its instances' and probes' names: 0 until the privileged part sets it. */
static pid_t name_pid;
static char name_tag[LTT_FTRACE_TAG_MAX];
static uint64_t name_ns;

void ltt_kabi_tracefs_name_pid(pid_t pid)
{
	name_pid = pid;
	name_tag[0] = '\0';
}

const char *tracefs_name_tag(void)
{
	if (!name_tag[0]) {
		if (!name_pid)
			name_pid = getpid();
		name_ns = ltt_ftrace_pidns();
		/* an unknown namespace judges nothing; its names still differ from the initial one's */
		ltt_ftrace_tag(name_tag, sizeof(name_tag), name_pid,
			       name_ns == LTT_FTRACE_PIDNS_UNKNOWN ? 1 : name_ns);
	}
	return name_tag;
}

bool tracefs_name_stale(const char *s, size_t *ret_len)
{
	pid_t pid;
	uint64_t ns;

	tracefs_name_tag();
	*ret_len = ltt_ftrace_tag_parse(s, &pid, &ns);
	return *ret_len && ltt_ftrace_tag_stale(pid, ns, name_pid, name_ns);
}

/* ---- the dynamic events files: uprobe_events, kprobe_events, dynamic_events ---- */

/* Append one command to @file (never truncate it: other tools' probes live there). */
int tracefs_append(const struct tracefs *t, const char *file, const char *text)
{
	return ltt_append_control(t->root_fd, file, text);
}

/* Disable GROUP/EVENT in every instance, ours or not (it is ours). */
static void disable_everywhere(const struct tracefs *t, const char *group, const char *event)
{
	int fd = openat(t->root_fd, "instances", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	DIR *dir = fd < 0 ? NULL : fdopendir(fd);
	char path[PATH_MAX];
	struct dirent *d;

	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "instances/%s/events/%s/%s/enable", d->d_name, group,
			 event);
		(void)ltt_write_control(t->root_fd, path, "0");
	}
	closedir(dir);
}

/* Remove probe GROUP/EVENT defined in @file.  Returns 0 or -errno. */
int tracefs_dyn_remove(const struct tracefs *t, const char *file, const char *group,
		       const char *event)
{
	char cmd[3 + 2 * LTT_FTRACE_NAME_MAX];

	disable_everywhere(t, group, event);
	snprintf(cmd, sizeof(cmd), "-:%s/%s", group, event);
	return tracefs_append(t, file, cmd);
}
