// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-tracefs-statedump.c - the state dump of the tracefs backend: the
 * module's lttng_statedump_start, one lttng_statedump_process_state per
 * thread, lttng_statedump_end (kmod/ltt-statedump.c), recorded at START and
 * at STATEDUMP into the channels that enabled them (doc/kernel-tracefs.md).
 *
 * The kernel has no such events: the session daemon writes them itself,
 * each as one write() to the instance's trace_marker_raw, which ftrace
 * records as one ftrace:raw_data record (its common header, the first 4
 * bytes written as `unsigned int id` at offset 8, the rest after it),
 * stamped with the instance's clock, in the buffer of the writer's CPU.
 * The id says which event (TRACEFS_SD_RAW_ID_FIRST + its index); the rest
 * is the module's payload, filled from /proc/PID/task/TID/stat.  The
 * channel's event map gives the converter each event's layout under its
 * raw id (common/ftrace/ftrace-map.h), so the records become the module's events.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-tracefs.h"

#define RAW_ID_OFFSET	8	/* raw_data's id: a u32 after the common header */
#define COMM_LEN	16	/* the kernel's TASK_COMM_LEN */
#define STAT_MAX	1024	/* bytes of /proc/PID/task/TID/stat we read */

enum { SD_START, SD_PROCESS_STATE, SD_END };

static const char *const names[TRACEFS_SD_NR] = {
	[SD_START] = "lttng_statedump_start",
	[SD_PROCESS_STATE] = "lttng_statedump_process_state",
	[SD_END] = "lttng_statedump_end",
};

/* What one write() holds: the raw id, then the event's payload. */
struct sd_process_state {
	uint32_t raw_id;
	int32_t tid;
	int32_t pid;			/* the thread group's */
	int32_t ppid;			/* the tgid of its parent */
	char name[COMM_LEN];		/* its comm, NUL-padded */
};

/* The record offset of payload member M (the write starts at offset 8). */
#define REC_OFFSET(M) (RAW_ID_OFFSET + (uint32_t)offsetof(struct sd_process_state, M))

/*
 * lttng_statedump_process_state's fields, as the module lays them out:
 *   field  type                      record offset
 *   tid    s32                       12
 *   pid    s32                       16
 *   ppid   s32                       20
 *   name   char[16], shown as text   24
 * start and end have none.
 */
static const struct {
	const char *name;
	uint32_t offset, size, length;
	uint8_t kind, is_signed;
} process_state_fields[] = {
	{ "tid", REC_OFFSET(tid), 4, 0, LTT_FTRACE_INT, 1 },
	{ "pid", REC_OFFSET(pid), 4, 0, LTT_FTRACE_INT, 1 },
	{ "ppid", REC_OFFSET(ppid), 4, 0, LTT_FTRACE_INT, 1 },
	{ "name", REC_OFFSET(name), COMM_LEN, COMM_LEN, LTT_FTRACE_CHARS, (char)-1 < 0 },
};

const char *tracefs_statedump_name(unsigned int i)
{
	return i < TRACEFS_SD_NR ? names[i] : NULL;
}

bool tracefs_statedump_offered(const struct tracefs *t)
{
	return !faccessat(t->root_fd, "events/" TRACEFS_RAW_SYSTEM "/" TRACEFS_RAW_EVENT "/format",
			  R_OK, 0) &&
	       !faccessat(t->root_fd, "trace_marker_raw", W_OK, 0);
}

uint32_t tracefs_statedump_raw_id(const struct tracefs_event *ev)
{
	unsigned int i;

	if (strcmp(ev->system, TRACEFS_RAW_SYSTEM) || strcmp(ev->event, TRACEFS_RAW_EVENT))
		return 0;
	for (i = 0; i < TRACEFS_SD_NR; i++)
		if (!strcmp(ev->name, names[i]))
			return TRACEFS_SD_RAW_ID_FIRST + i;
	return 0;
}

/* Drop raw_data's `char buf[]` line (a flexible array: no layout) from @text. */
static size_t drop_buf_line(char *text, size_t len)
{
	static const char buf_line[] = "\tfield:char buf[];";
	char *at = memmem(text, len, buf_line, sizeof(buf_line) - 1);
	char *end;

	if (!at)
		return len;
	end = memchr(at, '\n', len - (size_t)(at - text));
	end = end ? end + 1 : text + len;
	memmove(at, end, len - (size_t)(end - text));
	return len - (size_t)(end - at);
}

int tracefs_statedump_layout(uint32_t raw_id, char *text, size_t len,
			     struct ltt_ftrace_event *ret, const char **why)
{
	const struct ltt_ftrace_field *id = &ret->fields[0];
	unsigned int i, event = raw_id - TRACEFS_SD_RAW_ID_FIRST;
	int err;

	if (event >= TRACEFS_SD_NR)
		return -EINVAL;
	len = drop_buf_line(text, len);
	err = ltt_ftrace_format_parse(TRACEFS_RAW_SYSTEM, text, len, ret, why);
	if (err)
		return err;
	if (ret->nr_fields != 1 || strcmp(id->name, "id") || id->offset != RAW_ID_OFFSET ||
	    id->size != 4 || id->kind != LTT_FTRACE_INT || ret->min_size != RAW_ID_OFFSET + 4) {
		*why = "not the raw_data event expected: its id is not a u32 at offset 8, alone before the data written";
		return -ENOTSUP;
	}
	snprintf(ret->name, sizeof(ret->name), "%s", names[event]);
	ret->nr_fields = 0;
	if (event != SD_PROCESS_STATE)
		return 0;
	for (i = 0; i < sizeof(process_state_fields) / sizeof(process_state_fields[0]); i++) {
		struct ltt_ftrace_field *f = &ret->fields[ret->nr_fields++];

		memset(f, 0, sizeof(*f));
		snprintf(f->name, sizeof(f->name), "%s", process_state_fields[i].name);
		f->offset = process_state_fields[i].offset;
		f->size = process_state_fields[i].size;
		f->length = process_state_fields[i].length;
		f->kind = process_state_fields[i].kind;
		f->elem_size = f->kind == LTT_FTRACE_CHARS ? 1 : (uint8_t)f->size;
		f->is_signed = process_state_fields[i].is_signed;
		f->base = 10;
	}
	ret->min_size = RAW_ID_OFFSET + (uint32_t)sizeof(struct sd_process_state);
	return 0;
}

/* ---- writing the records ---- */

struct sd_run {
	const struct tracefs_sd_target *tg;
	int *fd;			/* each target's trace_marker_raw; -1: given up */
	size_t n;
	uint64_t written, lost;		/* records; lost: no room (the kernel counts them) */
	int err;			/* the first failure */
};

/* One record of state dump event @event into every target that enabled it. */
static void put_all(struct sd_run *r, unsigned int event, const void *rec, size_t len)
{
	ssize_t w;
	size_t i;

	for (i = 0; i < r->n; i++) {
		if (r->fd[i] < 0 || !(r->tg[i].events & (1u << event)))
			continue;
		w = write(r->fd[i], rec, len);
		if (w == (ssize_t)len) {
			r->written++;
		} else if (w < 0 && errno == EBADF) {
			r->lost++;	/* no room in the buffer: dropped, and counted there */
		} else {
			if (!r->err)
				r->err = w < 0 ? -errno : -EIO;
			LTT_WARN("kernel: state dump into ftrace instance %s stopped: trace_marker_raw: %s",
				 r->tg[i].name, w < 0 ? strerror(errno) : "a short write");
			close(r->fd[i]);
			r->fd[i] = -1;
		}
	}
}

/* Thread @tid of @pid from its stat into @rec; false when it is gone. */
static bool thread_state(int pid, int tid, struct sd_process_state *rec)
{
	char path[64], text[STAT_MAX + 1], *open_p, *close_p;
	ssize_t n;
	int fd, ppid;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, text, STAT_MAX);
	close(fd);
	if (n <= 0)
		return false;
	text[n] = '\0';
	/* "TID (COMM) S PPID ...": COMM may hold anything, ')' included */
	open_p = strchr(text, '(');
	close_p = strrchr(text, ')');
	if (!open_p || !close_p || close_p < open_p || sscanf(close_p + 1, " %*c %d", &ppid) != 1)
		return false;
	memset(rec->name, 0, sizeof(rec->name));
	memcpy(rec->name, open_p + 1, (size_t)(close_p - open_p - 1) < COMM_LEN - 1 ?
				       (size_t)(close_p - open_p - 1) : COMM_LEN - 1);
	rec->tid = tid;
	rec->pid = pid;
	rec->ppid = ppid;
	return true;
}

/* A decimal directory name, or -1. */
static int dir_number(const char *name)
{
	char *end;
	long v;

	if (*name < '0' || *name > '9')
		return -1;
	v = strtol(name, &end, 10);
	return *end || v <= 0 || v > INT32_MAX ? -1 : (int)v;
}

/* One process_state per thread of process @pid. */
static void dump_process(struct sd_run *r, int pid)
{
	struct sd_process_state rec = { .raw_id = TRACEFS_SD_RAW_ID_FIRST + SD_PROCESS_STATE };
	char path[32];
	struct dirent *d;
	DIR *task;
	int tid;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	task = opendir(path);
	if (!task)
		return;		/* gone */
	while ((d = readdir(task)))
		if ((tid = dir_number(d->d_name)) > 0 && thread_state(pid, tid, &rec))
			put_all(r, SD_PROCESS_STATE, &rec, sizeof(rec));
	closedir(task);
}

static void dump_threads(struct sd_run *r)
{
	DIR *proc = opendir("/proc");
	struct dirent *d;
	int pid;

	if (!proc) {
		LTT_WARN("kernel: state dump: /proc: %s: no process_state recorded", strerror(errno));
		return;
	}
	while ((d = readdir(proc)))
		if ((pid = dir_number(d->d_name)) > 0)
			dump_process(r, pid);
	closedir(proc);
}

/* Open each target's trace_marker_raw; false when none could be. */
static bool open_markers(struct sd_run *r)
{
	bool any = false;
	size_t i;

	for (i = 0; i < r->n; i++) {
		r->fd[i] = openat(r->tg[i].dir_fd, "trace_marker_raw", O_WRONLY | O_CLOEXEC);
		if (r->fd[i] < 0) {
			if (!r->err)
				r->err = -errno;
			LTT_WARN("kernel: no state dump into ftrace instance %s: trace_marker_raw: %s",
				 r->tg[i].name, strerror(errno));
		}
		any |= r->fd[i] >= 0;
	}
	return any;
}

static uint64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000 + (uint64_t)ts.tv_nsec / 1000;
}

int tracefs_statedump_run(const struct tracefs_sd_target *targets, size_t n)
{
	uint32_t start = TRACEFS_SD_RAW_ID_FIRST + SD_START, end = TRACEFS_SD_RAW_ID_FIRST + SD_END;
	struct sd_run r = { .tg = targets, .n = n };
	uint64_t t0 = now_us();
	size_t i;

	r.fd = malloc(n * sizeof(*r.fd));
	if (!r.fd)
		return -ENOMEM;
	if (open_markers(&r)) {
		put_all(&r, SD_START, &start, sizeof(start));
		dump_threads(&r);
		put_all(&r, SD_END, &end, sizeof(end));
	}
	for (i = 0; i < n; i++)
		if (r.fd[i] >= 0)
			close(r.fd[i]);
	free(r.fd);
	LTT_INFO("kernel: state dump: %" PRIu64 " records into %zu channels in %" PRIu64 " us%s",
		 r.written, n, now_us() - t0, r.lost ? " (some lost: no room in a buffer)" : "");
	if (r.lost)
		LTT_WARN("kernel: state dump: %" PRIu64 " records lost for want of room (counted as discarded)",
			 r.lost);
	return r.err;
}
