// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-tasks.c - the tasks a tracefs channel's records speak of: a hash
 * table by tid, read from /proc when a task is first met.
 */
#include <dirent.h>
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ftrace/ftrace-tasks.h"

#define BUCKETS		16384u		/* a power of two */
#define DEAD_GRACE_NS	1000000000ull	/* a freed task's entry lives on that long */

struct node {
	struct ltt_ftrace_task task;
	struct node *next;
};

struct ltt_ftrace_tasks {
	struct node *bucket[BUCKETS];
	uint64_t gen;
	uint64_t latest_ts;		/* the latest record time seen */
	void (*lookahead)(void *arg);	/* reads on in the other CPUs' buffers */
	void *lookahead_arg;
	bool looking;			/* in @lookahead: no other */
	struct ltt_ftrace_tasks_stats st;
};

static struct node **slot(struct ltt_ftrace_tasks *t, int32_t tid)
{
	struct node **p = &t->bucket[(uint32_t)tid * 2654435761u % BUCKETS];

	while (*p && (*p)->task.tid != tid)
		p = &(*p)->next;
	return p;
}

/* The text of /proc/@tid/@name into @buf (@size), NUL-terminated: its length or -1. */
static ssize_t proc_read(int32_t tid, const char *name, char *buf, size_t size)
{
	char path[64];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)tid, name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, size - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The last number of status line @key ("\nNSpid:") in @s, or @dflt. */
static int32_t status_last(const char *s, const char *key, int32_t dflt)
{
	const char *at = strstr(s, key);
	char *end;
	long v = -1;

	if (!at)
		return dflt;
	at += strlen(key);
	for (;;) {
		long n = strtol(at, &end, 10);

		if (end == at)
			break;
		v = n;
		at = end;
	}
	return v > 0 && v <= INT32_MAX ? (int32_t)v : dflt;
}

/* How many numbers status line @key has (the namespaces a task is seen in). */
static int status_levels(const char *s, const char *key)
{
	const char *at = strstr(s, key);
	const char *end;
	int n = 0;

	if (!at)
		return 0;
	at += strlen(key);
	end = strchr(at, '\n');
	for (; *at && (!end || at < end); at++)
		n += (*at >= '0' && *at <= '9') && (at[1] < '0' || at[1] > '9');
	return n;
}

/*
 * Task @tid as /proc shows it now, into @task (its tid set): its comm and
 * parent from stat (the comm raw between the first '(' and the last ')'),
 * its group and namespace ids from status.  False when it is gone.
 */
static bool proc_task(int32_t tid, struct ltt_ftrace_task *task)
{
	char stat[1024], status[4096];
	const char *open_p, *close_p;
	int ppid;
	size_t len;

	if (proc_read(tid, "stat", stat, sizeof(stat)) < 0 ||
	    proc_read(tid, "status", status, sizeof(status)) < 0)
		return false;
	open_p = strchr(stat, '(');
	close_p = strrchr(stat, ')');
	if (!open_p || !close_p || close_p < open_p || sscanf(close_p + 1, " %*c %d", &ppid) != 1)
		return false;
	len = (size_t)(close_p - open_p - 1);
	memset(task->comm, 0, sizeof(task->comm));
	memcpy(task->comm, open_p + 1, len < sizeof(task->comm) ? len : sizeof(task->comm));
	task->ppid = ppid;
	task->pid = status_last(status, "\nTgid:", tid);
	task->vpid = status_last(status, "\nNStgid:", task->pid);
	task->vtid = status_last(status, "\nNSpid:", tid);
	task->nested = status_levels(status, "\nNSpid:") > 1;
	task->guessed = false;
	return true;
}

/* Room for one more entry: dead ones freed long enough ago go. */
static bool make_room(struct ltt_ftrace_tasks *t)
{
	struct node **p, *n;
	uint32_t b;

	if (t->st.tasks < LTT_FTRACE_TASKS_MAX)
		return true;
	for (b = 0; b < BUCKETS; b++)
		for (p = &t->bucket[b]; (n = *p);) {
			if (n->task.dead_ts && n->task.dead_ts + DEAD_GRACE_NS < t->latest_ts) {
				*p = n->next;
				free(n);
				t->st.tasks--;
			} else {
				p = &n->next;
			}
		}
	return t->st.tasks < LTT_FTRACE_TASKS_MAX;
}

/* The entry of @tid, a new zeroed one if none (NULL: no room). */
static struct ltt_ftrace_task *entry(struct ltt_ftrace_tasks *t, int32_t tid, bool *ret_new)
{
	struct node **p = slot(t, tid);

	*ret_new = !*p;
	if (*p)
		return &(*p)->task;
	if (!make_room(t)) {
		t->st.full++;
		return NULL;
	}
	p = slot(t, tid);	/* the chain may have changed */
	*p = calloc(1, sizeof(**p));
	if (!*p)
		return NULL;
	t->st.tasks++;
	(*p)->task.tid = tid;
	return &(*p)->task;
}

static void seen(struct ltt_ftrace_tasks *t, uint64_t ts)
{
	if (ts > t->latest_ts)
		t->latest_ts = ts;
}

/* Every /proc/PID/task/TID into the table. */
static void seed(struct ltt_ftrace_tasks *t)
{
	DIR *procs = opendir("/proc"), *tasks;
	struct dirent *p, *d;
	char path[64];
	struct ltt_ftrace_task *e, task;
	bool fresh;

	while (procs && (p = readdir(procs))) {
		if (p->d_name[0] < '1' || p->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.16s/task", p->d_name);
		tasks = opendir(path);
		while (tasks && (d = readdir(tasks))) {
			/* its times 0: it holds from the trace's start */
			task = (struct ltt_ftrace_task){ .tid = (int32_t)atoi(d->d_name) };
			if (task.tid <= 0 || !proc_task(task.tid, &task))
				continue;
			t->st.proc_reads++;
			e = entry(t, task.tid, &fresh);
			if (e)
				*e = task;
		}
		if (tasks)
			closedir(tasks);
	}
	if (procs)
		closedir(procs);
}

int ltt_ftrace_tasks_create(struct ltt_ftrace_tasks **ret)
{
	struct ltt_ftrace_tasks *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	seed(t);
	*ret = t;
	return 0;
}

void ltt_ftrace_tasks_destroy(struct ltt_ftrace_tasks *t)
{
	struct node *n, *next;
	uint32_t b;

	if (!t)
		return;
	for (b = 0; b < BUCKETS; b++)
		for (n = t->bucket[b]; n; n = next) {
			next = n->next;
			free(n);
		}
	free(t);
}

/* Read on in the other CPUs' buffers (the lookahead): false when there is none, or now. */
static bool look_ahead(struct ltt_ftrace_tasks *t)
{
	if (!t->lookahead || t->looking)
		return false;
	t->looking = true;
	t->lookahead(t->lookahead_arg);
	t->looking = false;
	return true;
}

/* A new entry for @tid, read from /proc at @ts, else guessed: a process of its own. */
static struct ltt_ftrace_task *read_in(struct ltt_ftrace_tasks *t, int32_t tid, uint64_t ts)
{
	struct ltt_ftrace_task task = { .tid = tid }, *e;
	bool fresh;

	if (proc_task(tid, &task)) {
		t->st.proc_reads++;
	} else {
		/* its fork may wait in another CPU's buffer: read on there */
		if (look_ahead(t) && *slot(t, tid))
			return &(*slot(t, tid))->task;
		task = (struct ltt_ftrace_task){ .tid = tid, .pid = tid, .vtid = tid, .vpid = tid,
						 .guessed = true };
		t->st.guessed++;
	}
	e = entry(t, tid, &fresh);
	if (!e)
		return NULL;
	*e = task;
	e->comm_ts = ts;
	e->comm_last_ts = ts;
	e->born_ts = ts;
	t->gen++;
	return e;
}

const struct ltt_ftrace_task *ltt_ftrace_tasks_get(struct ltt_ftrace_tasks *t, int32_t tid,
						   uint64_t ts)
{
	struct node *n;

	if (tid <= 0)
		return NULL;
	seen(t, ts);
	n = *slot(t, tid);
	return n ? &n->task : read_in(t, tid, ts);
}

void ltt_ftrace_tasks_set_lookahead(struct ltt_ftrace_tasks *t, void (*fn)(void *arg), void *arg)
{
	t->lookahead = fn;
	t->lookahead_arg = arg;
}

static void set_comm(struct ltt_ftrace_task *e, const char *comm, size_t len, uint64_t ts)
{
	memset(e->comm, 0, sizeof(e->comm));
	memcpy(e->comm, comm, len < sizeof(e->comm) ? len : sizeof(e->comm));
	e->comm_ts = ts;
	e->comm_last_ts = ts;
}

/* @comm (@len bytes) is the name of @e's task at @ts (the rules of ltt_ftrace_tasks_rename()). */
static void name_at(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task *e, const char *comm,
		    size_t len, uint64_t ts)
{
	if (len > sizeof(e->comm))
		len = sizeof(e->comm);
	if (!strncmp(e->comm, comm, len) && (len == sizeof(e->comm) || !e->comm[len])) {
		if (ts > e->comm_last_ts)
			e->comm_last_ts = ts;
		/*
		 * Named so earlier than known (the rename's CPU converted
		 * after a later switch's): it holds from then.  Not back
		 * past a record of the name before (a name taken again).
		 */
		if (ts < e->comm_ts && ts > e->prev_last_ts) {
			e->comm_ts = ts;
			t->gen++;
		}
		return;
	}
	if (ts < e->comm_last_ts) {
		/*
		 * A later record names it @e->comm.  Of before its time, and
		 * after every record known of the name before: the name before
		 * (a rename converted after a later one's).
		 */
		if (ts < e->comm_ts && ts > e->prev_last_ts) {
			memset(e->prev_comm, 0, sizeof(e->prev_comm));
			memcpy(e->prev_comm, comm, len);
			e->prev_last_ts = ts;
			t->gen++;
		}
		return;
	}
	/* a CPU whose records of before are converted later names them so */
	memcpy(e->prev_comm, e->comm, sizeof(e->prev_comm));
	e->prev_last_ts = e->comm_last_ts;
	set_comm(e, comm, len, ts);
	t->gen++;
}

void ltt_ftrace_tasks_rename(struct ltt_ftrace_tasks *t, int32_t tid, const char *comm,
			     size_t len, uint64_t ts)
{
	/* the table's own entry: get() lends it const */
	struct ltt_ftrace_task *e =
		(struct ltt_ftrace_task *)(uintptr_t)ltt_ftrace_tasks_get(t, tid, ts);

	if (e)
		name_at(t, e, comm, len, ts);
}

/*
 * @e (@child's) as clone @flags made it from @p, its parent: a thread of
 * @p's group, or a process of its own whose parent is @p's group (@p's
 * parent with CLONE_PARENT).  Its ids in its pid namespace from /proc
 * while it lives (a parent's unshare(CLONE_NEWPID) shows in no flag);
 * once gone, pid 1 of a new namespace with CLONE_NEWPID, its own ids in
 * /proc's namespace as its parent's are, else unknown (0).
 */
static void from_clone(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task *e, int32_t child,
		       const struct ltt_ftrace_task *p, uint64_t flags)
{
	bool thread = flags & CLONE_THREAD;
	struct ltt_ftrace_task now;

	e->tid = child;
	e->pid = thread ? p->pid : child;
	e->ppid = thread || (flags & CLONE_PARENT) ? p->ppid : p->pid;
	e->guessed = false;
	if (proc_task(child, &now)) {
		t->st.proc_reads++;
		e->nested = now.nested;
		e->vtid = now.vtid;
		e->vpid = now.vpid;
		return;
	}
	e->nested = p->nested || (flags & CLONE_NEWPID);
	if (!e->nested) {
		e->vtid = child;
		e->vpid = e->pid;
		return;
	}
	e->vtid = flags & CLONE_NEWPID ? 1 : 0;
	e->vpid = thread ? p->vpid : e->vtid;
	e->guessed = !(flags & CLONE_NEWPID);
	t->st.guessed += e->guessed;
}

void ltt_ftrace_tasks_fork(struct ltt_ftrace_tasks *t, int32_t parent, int32_t child,
			   const char *comm, size_t len, uint64_t flags, uint64_t ts)
{
	const struct ltt_ftrace_task *p;
	struct ltt_ftrace_task *e, pt;
	bool fresh;

	if (child <= 0 || parent <= 0)
		return;
	seen(t, ts);
	p = ltt_ftrace_tasks_get(t, parent, ts);
	pt = p ? *p : (struct ltt_ftrace_task){ .tid = parent, .pid = parent, .guessed = true };
	e = entry(t, child, &fresh);
	if (!e)
		return;
	if (!fresh && e->born_ts >= ts) {	/* met first on a CPU converted before, or again */
		if (e->guessed)
			from_clone(t, e, child, &pt, flags);
		name_at(t, e, comm, len, ts);
		t->gen++;
		return;
	}
	from_clone(t, e, child, &pt, flags);
	set_comm(e, comm, len, ts);
	memset(e->prev_comm, 0, sizeof(e->prev_comm));	/* a new task: none before */
	e->prev_last_ts = 0;
	e->born_ts = ts;
	e->dead_ts = 0;
	t->gen++;
}

void ltt_ftrace_tasks_exec(struct ltt_ftrace_tasks *t, int32_t tid, int32_t old_tid, uint64_t ts)
{
	if (old_tid == tid || old_tid <= 0)
		return;
	ltt_ftrace_tasks_free(t, old_tid, ts);
	if (tid > 0)
		(void)ltt_ftrace_tasks_get(t, tid, ts);
}

void ltt_ftrace_tasks_free(struct ltt_ftrace_tasks *t, int32_t tid, uint64_t ts)
{
	struct node *n;

	seen(t, ts);
	n = tid > 0 ? *slot(t, tid) : NULL;
	if (n && n->task.born_ts <= ts)
		n->task.dead_ts = ts;
}

void ltt_ftrace_tasks_stats(const struct ltt_ftrace_tasks *t, struct ltt_ftrace_tasks_stats *ret)
{
	*ret = t->st;
}

/* ---- what a converter reads from its records ---- */

static const struct {
	const char *system, *event;
	enum ltt_ftrace_task_op op;
	const char *fields[3];
} task_events[] = {
	{ "sched", "sched_switch", LTT_FTRACE_TASK_SWITCH, { "next_tid", "next_comm" } },
	{ "task", "task_rename", LTT_FTRACE_TASK_RENAME, { "pid", "newcomm" } },
	{ "task", "task_newtask", LTT_FTRACE_TASK_FORK, { "pid", "comm", "clone_flags" } },
	{ "sched", "sched_process_exec", LTT_FTRACE_TASK_EXEC, { "tid", "old_tid" } },
	{ "sched", "sched_process_free", LTT_FTRACE_TASK_FREE, { "tid" } },
};

/*
 * A tid field: a record's s32; a name (…comm): its char[16] or
 * __data_loc string; flags: a u64.
 */
static bool field_fits(const struct ltt_ftrace_field *f)
{
	if (strstr(f->name, "comm"))
		return f->kind == LTT_FTRACE_STRING || (f->kind == LTT_FTRACE_CHARS && f->length);
	if (strstr(f->name, "flags"))
		return f->kind == LTT_FTRACE_INT && f->size == 8 && !f->derived;
	return f->kind == LTT_FTRACE_INT && f->size == 4 && f->is_signed && !f->derived;
}

static const struct ltt_ftrace_field *find_field(const struct ltt_ftrace_event *ev,
						 const char *name)
{
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++)
		if (!strcmp(ev->fields[i].name, name))
			return &ev->fields[i];
	return NULL;
}

void ltt_ftrace_task_rec_init(const struct ltt_ftrace_event *ev, struct ltt_ftrace_task_rec *ret)
{
	const char *fname;
	size_t i, j;

	memset(ret, 0, sizeof(*ret));
	for (i = 0; i < sizeof(task_events) / sizeof(task_events[0]); i++) {
		if (strcmp(ev->system, task_events[i].system) || strcmp(ev->name, task_events[i].event))
			continue;
		for (j = 0; j < 3 && (fname = task_events[i].fields[j]); j++) {
			ret->f[j] = find_field(ev, fname);
			if (!ret->f[j] || !field_fits(ret->f[j])) {
				memset(ret, 0, sizeof(*ret));
				return;
			}
		}
		ret->op = (uint8_t)task_events[i].op;
		return;
	}
}

void ltt_ftrace_task_cur_init(struct ltt_ftrace_task_cur *cur)
{
	memset(cur, 0, sizeof(*cur));
	cur->task.tid = -1;
}

static int32_t rec_s32(const struct ltt_ftrace_field *f, const uint8_t *rec)
{
	int32_t v;

	memcpy(&v, rec + f->offset, 4);	/* within min_size: the layout was checked */
	return v;
}

/* A name field's bytes in @rec (@len) into *@ret, its length returned; 0 if it lies. */
static size_t rec_name(const struct ltt_ftrace_field *f, const uint8_t *rec, size_t len,
		       const char **ret)
{
	uint32_t loc, off, n;
	const char *s;

	if (f->kind == LTT_FTRACE_CHARS) {
		s = (const char *)rec + f->offset;
		n = f->length;
	} else {
		memcpy(&loc, rec + f->offset, 4);
		off = (loc & 0xffff) + (f->rel ? f->offset + 4 : 0);
		n = loc >> 16;
		if (off > len || n > len - off)
			return 0;
		s = (const char *)rec + off;
	}
	*ret = s;
	return strnlen(s, n);
}

static void idle_task(struct ltt_ftrace_task *task, uint32_t cpu)
{
	char comm[32];

	*task = (struct ltt_ftrace_task){ .tid = 0 };
	snprintf(comm, sizeof(comm), "swapper/%u", cpu);
	memcpy(task->comm, comm, sizeof(task->comm));
}

/* @tid from the table into @cur (its name kept when @keep_comm: the caller's). */
static void cur_load(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task_cur *cur, uint32_t cpu,
		     int32_t tid, uint64_t ts)
{
	const struct ltt_ftrace_task *e = tid > 0 ? ltt_ftrace_tasks_get(t, tid, ts) : NULL;

	if (e) {
		cur->task = *e;
		if (ts < e->comm_ts && e->prev_comm[0]) {
			/*
			 * A record of before its rename, converted after another
			 * CPU's record of the rename: its name then.  Held as
			 * stale, so that ltt_ftrace_task_current() takes the new
			 * name from comm_ts on.
			 */
			memcpy(cur->task.comm, e->prev_comm, sizeof(cur->task.comm));
			cur->task.comm_ts = 0;
			cur->gen = t->gen - 1;
			return;
		}
	} else if (tid > 0)	/* no room: a process of its own, its name unknown */
		cur->task = (struct ltt_ftrace_task){ .tid = tid, .pid = tid, .vtid = tid,
						      .vpid = tid, .guessed = true };
	else
		idle_task(&cur->task, cpu);
	cur->gen = t->gen;
}

const struct ltt_ftrace_task *ltt_ftrace_task_current(struct ltt_ftrace_tasks *t,
						      struct ltt_ftrace_task_cur *cur,
						      uint32_t cpu, int32_t tid, uint64_t ts)
{
	const struct ltt_ftrace_task *e;

	if (cur->task.tid != tid) {
		/*
		 * A task this CPU's switches did not name: its stream's first
		 * record, or a switch the kernel did not record (one kernel
		 * here leaves out every switch away from one of its threads).
		 * Its exec's rename may wait in another CPU's buffer.
		 */
		if (tid > 0)
			(void)look_ahead(t);
		cur_load(t, cur, cpu, tid, ts);
		return &cur->task;
	}
	if (cur->gen == t->gen || tid <= 0)
		return &cur->task;
	/* the table changed: a rename by another task, or a fork, since */
	e = *slot(t, tid) ? &(*slot(t, tid))->task : NULL;
	if (!e || e->comm_ts > ts)
		return &cur->task;	/* of a later time: asked again at the next record */
	if (e->comm_ts > cur->task.comm_ts)
		memcpy(cur->task.comm, e->comm, sizeof(e->comm));
	cur->task.pid = e->pid;
	cur->task.ppid = e->ppid;
	cur->task.vpid = e->vpid;
	cur->task.vtid = e->vtid;
	cur->task.comm_ts = e->comm_ts > cur->task.comm_ts ? e->comm_ts : cur->task.comm_ts;
	cur->gen = t->gen;
	return &cur->task;
}

void ltt_ftrace_task_apply(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task_cur *cur,
			   uint32_t cpu, const struct ltt_ftrace_task_rec *r, const void *rec,
			   size_t len, int32_t tid, uint64_t ts)
{
	const uint8_t *p = rec;
	const char *name = NULL;
	uint64_t flags;
	size_t n = 0;
	int32_t who;

	switch (r->op) {
	case LTT_FTRACE_TASK_SWITCH:
		who = rec_s32(r->f[0], p);
		n = rec_name(r->f[1], p, len, &name);
		if (n && who > 0)
			ltt_ftrace_tasks_rename(t, who, name, n, ts);
		cur_load(t, cur, cpu, who, ts);
		if (n && who > 0)
			set_comm(&cur->task, name, n, ts);
		break;
	case LTT_FTRACE_TASK_RENAME:
		who = rec_s32(r->f[0], p);
		n = rec_name(r->f[1], p, len, &name);
		if (!n)
			break;
		ltt_ftrace_tasks_rename(t, who, name, n, ts);
		if (who != tid)
			break;		/* another task's: its CPU takes it from the table */
		if (cur->task.tid != who)
			cur_load(t, cur, cpu, who, ts);
		set_comm(&cur->task, name, n, ts);
		cur->gen = t->gen;
		break;
	case LTT_FTRACE_TASK_FORK:
		n = rec_name(r->f[1], p, len, &name);
		memcpy(&flags, p + r->f[2]->offset, 8);
		ltt_ftrace_tasks_fork(t, tid, rec_s32(r->f[0], p), name ? name : "", n, flags, ts);
		break;
	case LTT_FTRACE_TASK_EXEC:
		ltt_ftrace_tasks_exec(t, rec_s32(r->f[0], p), rec_s32(r->f[1], p), ts);
		break;
	case LTT_FTRACE_TASK_FREE:
		ltt_ftrace_tasks_free(t, rec_s32(r->f[0], p), ts);
		break;
	default:
		break;
	}
}
