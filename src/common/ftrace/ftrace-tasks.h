/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ftrace-tasks.h - what a tracefs channel's conversion knows of the
 * system's tasks, to write the process contexts (procname, pid, ppid,
 * vpid, vtid) that an ftrace record does not hold (doc/kernel-tracefs.md,
 * "Process contexts").
 *
 * A table by tid, seeded from /proc when it is created, then kept by the
 * records the converters of the channel's CPUs read: forks (task_newtask,
 * whose clone flags tell a thread from a process) add tasks,
 * renames (task_rename, which exec fires too) and switches change names,
 * an exec by a thread moves it to its group's tid, frees mark tasks dead.
 * A tid the table does not know is read from /proc when it is first met.
 *
 * The CPUs' streams are converted one after another, each in its own
 * time order, not in one order: a record may change the table after a
 * later record of another CPU was converted, or before an earlier one.
 * So every change carries its record's time and the table keeps what
 * holds latest: a name older than a record naming the task otherwise is
 * not taken, a fork older than the entry that a later record made for
 * the same tid only names the task.  A name holds from the earliest
 * record naming it after the last one naming the name before (a switch
 * converted first names a task later than the rename another CPU holds),
 * never from a later one: the name before is the one of the records
 * before that time (an older record naming it otherwise, later than
 * those known of the name before, is the name before).  The running
 * task's name at each record is the converter's business (it follows its
 * CPU's switches and the task's own renames, exactly); the table gives
 * the rest, which changes only at fork and exec.
 *
 * One thread: a channel's streams are converted on one data thread.
 */
#ifndef LTT_COMMON_FTRACE_TASKS_H
#define LTT_COMMON_FTRACE_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/ftrace/ftrace-format.h"

#define LTT_FTRACE_COMM_LEN	16	/* the kernel's TASK_COMM_LEN */
#define LTT_FTRACE_TASKS_MAX	(1u << 20)	/* entries a table holds */

/* One task as the table knows it. */
struct ltt_ftrace_task {
	int32_t tid, pid, ppid;		/* pid: its thread group; ppid: its real parent's group */
	int32_t vtid, vpid;		/* in the pid namespace /proc shows it in last */
	char comm[LTT_FTRACE_COMM_LEN];	/* NUL-padded, maybe without a NUL */
	uint64_t comm_ts;		/* the record time @comm holds from (the earliest naming it so) */
	uint64_t comm_last_ts;		/* the latest record time naming it @comm */
	char prev_comm[LTT_FTRACE_COMM_LEN];	/* its name before @comm_ts ("": not known) */
	uint64_t prev_last_ts;		/* the latest record time naming it @prev_comm */
	uint64_t born_ts;		/* the time it entered the table (0: the seed) */
	uint64_t dead_ts;		/* its free's time; 0: alive as far as known */
	bool nested;			/* in a pid namespace below /proc's */
	bool guessed;			/* gone from /proc when met: pid, ppid, v* guessed */
};

struct ltt_ftrace_tasks_stats {
	uint64_t tasks;			/* entries now */
	uint64_t proc_reads;		/* tasks read from /proc (the seed's too) */
	uint64_t guessed;		/* tasks gone from /proc when met */
	uint64_t full;			/* tasks not kept: the table was full */
};

struct ltt_ftrace_tasks;

/**
 * ltt_ftrace_tasks_create() - a table seeded with every thread /proc lists
 * @ret: released with ltt_ftrace_tasks_destroy()
 * Returns 0 or -ENOMEM (a /proc that can't be read seeds nothing).
 */
int ltt_ftrace_tasks_create(struct ltt_ftrace_tasks **ret);

/** ltt_ftrace_tasks_destroy() - free the table; accepts NULL */
void ltt_ftrace_tasks_destroy(struct ltt_ftrace_tasks *t);

/**
 * ltt_ftrace_tasks_get() - task @tid (> 0) as a record of time @ts finds
 * it: the table's entry, or one read from /proc now (comm_ts @ts), or
 * the one the lookahead found, or a guess when none does (a process of
 * its own, parent 0).
 * Returns a pointer valid until the next call on @t, or NULL when the
 * table is full or memory is short (the caller guesses).
 */
const struct ltt_ftrace_task *ltt_ftrace_tasks_get(struct ltt_ftrace_tasks *t, int32_t tid,
						   uint64_t ts);

/**
 * ltt_ftrace_tasks_set_lookahead() - what ltt_ftrace_tasks_get() calls
 * for a tid the table lacks and /proc no longer has, before it guesses,
 * and ltt_ftrace_task_current() for a task its CPU's switches did not name:
 * @fn(@arg) reads on in the channel's other CPU buffers and applies the
 * records that change the table (ltt_ftrace_conv_scan_tasks()), where
 * the task's fork may wait.  Not called again from within @fn.
 */
void ltt_ftrace_tasks_set_lookahead(struct ltt_ftrace_tasks *t, void (*fn)(void *arg), void *arg);

/**
 * ltt_ftrace_tasks_rename() - task @tid is named @comm (@len bytes, at
 * most LTT_FTRACE_COMM_LEN used) at @ts: a new name taken unless a later
 * record names the task otherwise; the name it has held from @ts when
 * that is earlier than it was known to (and later than the name before)
 */
void ltt_ftrace_tasks_rename(struct ltt_ftrace_tasks *t, int32_t tid, const char *comm,
			     size_t len, uint64_t ts);

/**
 * ltt_ftrace_tasks_fork() - @parent made @child, named @comm (@len
 * bytes), at @ts with clone @flags: a thread of @parent's group
 * (CLONE_THREAD) or a process, child of @parent's group (of its parent
 * with CLONE_PARENT), pid 1 of a new namespace (CLONE_NEWPID); its ids
 * in a namespace below /proc's from /proc/@child (0 when it is gone).
 * An entry for @child made by a later record (another CPU converted
 * first) keeps its ids unless they were guessed; one from before @ts
 * was another task of that tid: replaced.
 */
void ltt_ftrace_tasks_fork(struct ltt_ftrace_tasks *t, int32_t parent, int32_t child,
			   const char *comm, size_t len, uint64_t flags, uint64_t ts);

/**
 * ltt_ftrace_tasks_exec() - @old_tid, a thread of @tid's group, exec'd
 * at @ts and took the group leader's tid @tid (the old leader is gone)
 */
void ltt_ftrace_tasks_exec(struct ltt_ftrace_tasks *t, int32_t tid, int32_t old_tid, uint64_t ts);

/**
 * ltt_ftrace_tasks_free() - task @tid was freed at @ts: its entry is
 * dropped once the table needs room and records of another CPU from
 * before @ts are unlikely (a second of trace time later)
 */
void ltt_ftrace_tasks_free(struct ltt_ftrace_tasks *t, int32_t tid, uint64_t ts);

/* ---- what a converter reads from its records ---- */

/* The records that change the table, by their layouts (lttng-modules' field names). */
enum ltt_ftrace_task_op {
	LTT_FTRACE_TASK_NONE = 0,
	LTT_FTRACE_TASK_SWITCH,		/* sched:sched_switch: next_tid, next_comm */
	LTT_FTRACE_TASK_RENAME,		/* task:task_rename: pid, newcomm */
	LTT_FTRACE_TASK_FORK,		/* task:task_newtask: pid, comm, clone_flags */
	LTT_FTRACE_TASK_EXEC,		/* sched:sched_process_exec: tid, old_tid */
	LTT_FTRACE_TASK_FREE,		/* sched:sched_process_free: tid */
};

/* How a record of one event changes the table: its fields (borrowed from its layout). */
struct ltt_ftrace_task_rec {
	uint8_t op;			/* enum ltt_ftrace_task_op */
	const struct ltt_ftrace_field *f[3];	/* in the order of the op's comment */
};

/* The task a CPU runs, as its records say: a converter's, one per stream. */
struct ltt_ftrace_task_cur {
	struct ltt_ftrace_task task;	/* task.tid -1: none yet */
	uint64_t gen;			/* the table's gen when @task was checked */
};

/**
 * ltt_ftrace_task_rec_init() - what records of @ev change: @ret->op NONE
 * for an event that changes nothing or whose fields are not the ones
 * expected (a kernel that lays them out otherwise)
 */
void ltt_ftrace_task_rec_init(const struct ltt_ftrace_event *ev, struct ltt_ftrace_task_rec *ret);

/**
 * ltt_ftrace_task_cur_init() - no task known on the CPU yet
 */
void ltt_ftrace_task_cur_init(struct ltt_ftrace_task_cur *cur);

/**
 * ltt_ftrace_task_current() - the task that wrote a record of time @ts
 * on @cur's CPU @cpu with common_pid @tid: @cur's when it is @tid (its
 * name as the CPU's records left it, or a later one the table took from
 * a record of another CPU older than @ts), else the table's after a
 * lookahead (a switch the kernel did not record, or the stream's first
 * record: its exec's rename may wait in another CPU's buffer), which
 * becomes @cur's.  The idle task (0) is swapper/@cpu, ids 0.  Never NULL.
 */
const struct ltt_ftrace_task *ltt_ftrace_task_current(struct ltt_ftrace_tasks *t,
						      struct ltt_ftrace_task_cur *cur,
						      uint32_t cpu, int32_t tid, uint64_t ts);

/**
 * ltt_ftrace_task_apply() - the change record @rec (@len bytes, at least
 * its layout's min_size; common_pid @tid) of time @ts makes, by @r, to
 * the table and to @cur (a switch makes the next task @cur's, named as
 * the record names it; a task's rename of itself renames @cur)
 */
void ltt_ftrace_task_apply(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task_cur *cur,
			   uint32_t cpu, const struct ltt_ftrace_task_rec *r, const void *rec,
			   size_t len, int32_t tid, uint64_t ts);

/** ltt_ftrace_tasks_stats() - a copy of @t's counters into @ret */
void ltt_ftrace_tasks_stats(const struct ltt_ftrace_tasks *t, struct ltt_ftrace_tasks_stats *ret);

#endif /* LTT_COMMON_FTRACE_TASKS_H */
