// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_ftrace_tasks.c - common/ftrace/ftrace-tasks: the task table of a tracefs
 * channel's process contexts, fed synthetic records of sched_switch,
 * task_rename, task_newtask and sched_process_exec as two CPUs'
 * converters meet them, the second CPU's stream converted before the
 * first's (as a consumer may).  Tids above PID_MAX_LIMIT stand for tasks
 * gone from /proc; this process stands for one that lives.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/ftrace/ftrace-tasks.h"
#include "tests/unit/tap.h"

#define GONE	5000000		/* above PID_MAX_LIMIT: no /proc entry */

static struct ltt_ftrace_event ev_switch, ev_rename, ev_newtask, ev_exec;
static struct ltt_ftrace_task_rec r_switch, r_rename, r_newtask, r_exec;

/* A field of @ev at @off: an s32 tid, a char[16] name or a u64 of flags. */
static void field(struct ltt_ftrace_event *ev, const char *name, uint32_t off, char kind)
{
	struct ltt_ftrace_field *f = &ev->fields[ev->nr_fields++];

	snprintf(f->name, sizeof(f->name), "%s", name);
	f->offset = off;
	f->kind = kind == 'n' ? LTT_FTRACE_CHARS : LTT_FTRACE_INT;
	f->size = kind == 'n' ? 16 : kind == 'f' ? 8 : 4;
	f->length = kind == 'n' ? 16 : 0;
	f->elem_size = kind == 'n' ? 1 : (uint8_t)f->size;
	f->is_signed = kind == 'i';
	f->base = 10;
	if (off + f->size > ev->min_size)
		ev->min_size = off + f->size;
}

static void layout(struct ltt_ftrace_event *ev, uint32_t id, const char *sys, const char *name)
{
	memset(ev, 0, sizeof(*ev));
	ev->id = id;
	snprintf(ev->system, sizeof(ev->system), "%s", sys);
	snprintf(ev->name, sizeof(ev->name), "%s", name);
	ev->pid_offset = 4;
	ev->min_size = 8;
}

static void layouts(void)
{
	layout(&ev_switch, 1, "sched", "sched_switch");
	field(&ev_switch, "next_comm", 8, 'n');
	field(&ev_switch, "next_tid", 24, 'i');
	layout(&ev_rename, 2, "task", "task_rename");
	field(&ev_rename, "pid", 8, 'i');
	field(&ev_rename, "oldcomm", 12, 'n');
	field(&ev_rename, "newcomm", 28, 'n');
	layout(&ev_newtask, 3, "task", "task_newtask");
	field(&ev_newtask, "pid", 8, 'i');
	field(&ev_newtask, "comm", 12, 'n');
	field(&ev_newtask, "clone_flags", 32, 'f');
	layout(&ev_exec, 4, "sched", "sched_process_exec");
	field(&ev_exec, "tid", 8, 'i');
	field(&ev_exec, "old_tid", 12, 'i');
	ltt_ftrace_task_rec_init(&ev_switch, &r_switch);
	ltt_ftrace_task_rec_init(&ev_rename, &r_rename);
	ltt_ftrace_task_rec_init(&ev_newtask, &r_newtask);
	ltt_ftrace_task_rec_init(&ev_exec, &r_exec);
}

/* A record of @ev by @tid: @a at the first field's offset, @name at the name's, @b after. */
static void apply(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task_cur *cur, uint32_t cpu,
		  const struct ltt_ftrace_task_rec *r, int32_t tid, int32_t a, const char *name,
		  uint64_t b, uint64_t ts)
{
	uint8_t rec[64] = { 0 };

	memcpy(rec + 4, &tid, 4);
	if (r == &r_switch) {
		strncpy((char *)rec + 8, name, 16);
		memcpy(rec + 24, &a, 4);
	} else if (r == &r_rename) {
		memcpy(rec + 8, &a, 4);
		strncpy((char *)rec + 28, name, 16);
	} else if (r == &r_newtask) {
		memcpy(rec + 8, &a, 4);
		strncpy((char *)rec + 12, name, 16);
		memcpy(rec + 32, &b, 8);
	} else {
		memcpy(rec + 8, &a, 4);
		memcpy(rec + 12, &b, 4);
	}
	ltt_ftrace_task_apply(t, cur, cpu, r, rec, sizeof(rec), tid, ts);
}

/* "comm pid ppid vpid vtid" of the task that wrote a record of @tid at @ts on @cur's CPU. */
static const char *who(struct ltt_ftrace_tasks *t, struct ltt_ftrace_task_cur *cur,
		       uint32_t cpu, int32_t tid, uint64_t ts)
{
	static char buf[128];
	const struct ltt_ftrace_task *k = ltt_ftrace_task_current(t, cur, cpu, tid, ts);

	snprintf(buf, sizeof(buf), "%.16s %d %d %d %d", k->comm, k->pid, k->ppid, k->vpid,
		 k->vtid);
	return buf;
}

struct ahead {
	struct ltt_ftrace_tasks *t;
	struct ltt_ftrace_task_cur cur0;
	int calls;
};

/* The lookahead: CPU 0's record of the fork of GONE + 1 by this process. */
static void read_cpu0(void *arg)
{
	struct ahead *a = arg;

	a->calls++;
	apply(a->t, &a->cur0, 0, &r_newtask, getpid(), GONE + 1, "parent", CLONE_THREAD, 10);
}

/* The lookahead: CPU 0's record of this process renaming itself "renamed" at 105. */
static void rename_cpu0(void *arg)
{
	struct ahead *a = arg;

	a->calls++;
	apply(a->t, &a->cur0, 0, &r_rename, getpid(), getpid(), "renamed", 0, 105);
}

static bool is(const char *got, const char *want, const char *what)
{
	bool ok = tap_ok(!strcmp(got, want), "%s", what);

	if (!ok)
		tap_diag("got '%s', want '%s'", got, want);
	return ok;
}

/* A record of task @tid at @ts, the first of @cpu's (no switch to it): named @name. */
static void first_named(struct ltt_ftrace_tasks *t, uint32_t cpu, int32_t tid, uint64_t ts,
			const char *name, const char *what)
{
	struct ltt_ftrace_task_cur cur;
	char got[LTT_FTRACE_COMM_LEN + 1] = "";

	ltt_ftrace_task_cur_init(&cur);
	memcpy(got, ltt_ftrace_task_current(t, &cur, cpu, tid, ts)->comm, LTT_FTRACE_COMM_LEN);
	is(got, name, what);
}

/* Task @tid named @name at @ts by a switch to it on a CPU of its own (converted now). */
static void named_at(struct ltt_ftrace_tasks *t, int32_t tid, const char *name, uint64_t ts)
{
	struct ltt_ftrace_task_cur cur;

	ltt_ftrace_task_cur_init(&cur);
	apply(t, &cur, 9, &r_switch, 0, tid, name, 0, ts);
}

/*
 * A task's names as four records converted in this order give it (the
 * first at 5, then the others, each a switch to it on a CPU of its own),
 * then a record of it at ts[i], with no switch to it, is named want[i].
 */
struct order {
	const char *names[4];
	uint64_t at[4];
	uint64_t ts[2];
	const char *want[2], *what[2];
};

static const struct order orders[] = {
	/* A, B from 10, A again from 20, B from 30: at 27 A, not B from 15 on */
	{ { "A", "B", "A", "B" }, { 5, 35, 25, 15 }, { 27, 40 }, { "A", "B" },
	  { "renamed back and forth: an older record of the name before is the name before",
	    "... and the name after it" } },
	/* A, B from 10, C from 20: at 15 B */
	{ { "A", "C", "B", "C" }, { 5, 50, 10, 20 }, { 15, 25 }, { "B", "C" },
	  { "renamed twice, the first rename converted after a later record: the name between",
	    "... and the last name after it" } },
};

int main(void)
{
	struct ltt_ftrace_task_cur cur0, cur1, cur2;
	struct ltt_ftrace_tasks *t;
	struct ahead a = { 0 };
	char want[128], comm[32];
	int me = getpid(), parent = getppid();
	size_t i, j;
	FILE *f;

	tap_plan(33);
	layouts();
	tap_ok(r_switch.op == LTT_FTRACE_TASK_SWITCH && r_rename.op == LTT_FTRACE_TASK_RENAME &&
	       r_newtask.op == LTT_FTRACE_TASK_FORK && r_exec.op == LTT_FTRACE_TASK_EXEC,
	       "the four events' fields found");
	tap_ok(ltt_ftrace_tasks_create(&t) == 0, "a table seeded from /proc");
	ltt_ftrace_task_cur_init(&cur0);
	ltt_ftrace_task_cur_init(&cur1);

	f = fopen("/proc/self/comm", "r");
	if (!f || !fgets(comm, sizeof(comm), f))
		return 1;
	fclose(f);
	comm[strcspn(comm, "\n")] = '\0';
	snprintf(want, sizeof(want), "%s %d %d %d %d", comm, me, parent, me, me);
	is(who(t, &cur0, 0, me, 5), want, "a task of the seed: its name, pid, parent");
	is(who(t, &cur0, 0, 0, 5), "swapper/0 0 0 0 0", "the idle task: swapper/CPU, ids 0");

	/* CPU 1 converted first: a switch into a thread gone, forked on CPU 0 */
	a.t = t;
	ltt_ftrace_task_cur_init(&a.cur0);
	ltt_ftrace_tasks_set_lookahead(t, read_cpu0, &a);
	apply(t, &cur1, 1, &r_switch, 0, GONE + 1, "kid", 0, 20);
	snprintf(want, sizeof(want), "kid %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur1, 1, GONE + 1, 21), want,
	   "a thread met first on CPU 1: its fork read ahead on CPU 0 (pid, ppid its parent's)");
	tap_is_int(a.calls, 1, "... one lookahead");

	/* its rename of itself on CPU 0 at 30, converted before CPU 1's 25 and 35 */
	apply(t, &cur0, 0, &r_switch, 0, GONE + 1, "kid", 0, 29);
	snprintf(want, sizeof(want), "kid %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur0, 0, GONE + 1, 29), want, "before its rename: kid");
	apply(t, &cur0, 0, &r_rename, GONE + 1, GONE + 1, "knew", 0, 30);
	snprintf(want, sizeof(want), "knew %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur0, 0, GONE + 1, 31), want, "after it, on its CPU: knew");
	snprintf(want, sizeof(want), "kid %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur1, 1, GONE + 1, 25), want, "CPU 1's record of before, converted after: kid");
	snprintf(want, sizeof(want), "knew %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur1, 1, GONE + 1, 35), want, "CPU 1's record of after, with no switch: knew");
	/* a CPU that meets the thread first after the rename was applied */
	ltt_ftrace_task_cur_init(&cur2);
	snprintf(want, sizeof(want), "kid %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur2, 2, GONE + 1, 27), want,
	   "CPU 2's first record of it, of before the rename converted after it: kid");
	is(who(t, &cur2, 2, GONE + 1, 28), want, "... and its next of before: kid");
	snprintf(want, sizeof(want), "knew %d %d %d %d", me, parent, me, GONE + 1);
	is(who(t, &cur2, 2, GONE + 1, 36), want, "... then its first of after, with no switch: knew");

	/* a child process of the thread, gone; then one in a new namespace */
	apply(t, &cur0, 0, &r_newtask, GONE + 1, GONE + 2, "knew", 0, 40);
	apply(t, &cur0, 0, &r_switch, 0, GONE + 2, "knew", 0, 41);
	snprintf(want, sizeof(want), "knew %d %d %d %d", GONE + 2, me, GONE + 2, GONE + 2);
	is(who(t, &cur0, 0, GONE + 2, 42), want, "a child process: its own pid, ppid the thread's process");
	apply(t, &cur0, 0, &r_newtask, GONE + 2, GONE + 3, "knew", CLONE_NEWPID, 50);
	apply(t, &cur0, 0, &r_switch, 0, GONE + 3, "knew", 0, 51);
	snprintf(want, sizeof(want), "knew %d %d 1 1", GONE + 3, GONE + 2);
	is(who(t, &cur0, 0, GONE + 3, 52), want, "CLONE_NEWPID: vpid and vtid 1");

	/* a thread of it execs: it takes the leader's tid, renamed by the exec */
	apply(t, &cur0, 0, &r_newtask, GONE + 3, GONE + 4, "knew", CLONE_THREAD, 60);
	apply(t, &cur1, 1, &r_switch, 0, GONE + 4, "knew", 0, 61);
	snprintf(want, sizeof(want), "knew %d %d 1 0", GONE + 3, GONE + 2);
	is(who(t, &cur1, 1, GONE + 4, 62), want,
	   "its thread: its pid, vpid 1, vtid unknown once gone (0)");
	apply(t, &cur1, 1, &r_rename, GONE + 3, GONE + 3, "true", 0, 70);
	apply(t, &cur1, 1, &r_exec, GONE + 3, GONE + 3, NULL, GONE + 4, 70);
	snprintf(want, sizeof(want), "true %d %d 1 1", GONE + 3, GONE + 2);
	is(who(t, &cur1, 1, GONE + 3, 71), want, "after its exec: the leader's tid, the new name");

	/* no lookahead, a task nobody forked: a guess */
	ltt_ftrace_tasks_set_lookahead(t, NULL, NULL);
	apply(t, &cur1, 1, &r_switch, 0, GONE + 9, "lost", 0, 80);
	snprintf(want, sizeof(want), "lost %d 0 %d %d", GONE + 9, GONE + 9, GONE + 9);
	is(who(t, &cur1, 1, GONE + 9, 81), want, "a task met gone, no fork known: a process of its own, ppid 0");
	{
		struct ltt_ftrace_tasks_stats st;

		ltt_ftrace_tasks_stats(t, &st);
		tap_ok(st.guessed >= 2 && st.proc_reads > 0 && st.full == 0,
		       "stats: %llu read from /proc, %llu guessed", (unsigned long long)st.proc_reads,
		       (unsigned long long)st.guessed);
	}
	/* the same fork applied twice (a page read ahead, converted later) changes nothing */
	apply(t, &cur0, 0, &r_newtask, GONE + 1, GONE + 2, "knew", 0, 40);
	snprintf(want, sizeof(want), "knew %d %d %d %d", GONE + 2, me, GONE + 2, GONE + 2);
	is(who(t, &cur1, 1, GONE + 2, 90), want, "a fork applied again: the same task");

	/*
	 * A switch the kernel did not record (this development machine's
	 * kernel leaves out every switch away from one of its threads): CPU 1
	 * switched to another task, then a record of this process at 110 with
	 * no switch to it; its rename at 105 waits in CPU 0's buffer.
	 */
	a.calls = 0;
	ltt_ftrace_task_cur_init(&a.cur0);
	ltt_ftrace_tasks_set_lookahead(t, rename_cpu0, &a);
	apply(t, &cur1, 1, &r_switch, 0, parent, "other", 0, 100);
	snprintf(want, sizeof(want), "renamed %d %d %d %d", me, parent, me, me);
	is(who(t, &cur1, 1, me, 110), want,
	   "a record with no switch to its task: the rename another CPU holds, read ahead");
	tap_is_int(a.calls, 1, "... one lookahead");
	is(who(t, &cur1, 1, me, 111), want, "... its next record: no lookahead");
	tap_is_int(a.calls, 1, "... still one");

	/*
	 * A name known to hold from its rename, not from the latest record
	 * naming it so (CI: a program's last 509 of 1000 calls after its
	 * rename named as before it).  CPU 0 converted first: this process
	 * renames itself "later" at 200, is switched out at 210 and back in,
	 * named so, at 300; CPU 1's record of it at 250, with no switch to
	 * it, is of after the rename.
	 */
	ltt_ftrace_tasks_set_lookahead(t, NULL, NULL);
	apply(t, &cur0, 0, &r_switch, 0, me, "renamed", 0, 190);
	apply(t, &cur0, 0, &r_rename, me, me, "later", 0, 200);
	apply(t, &cur0, 0, &r_switch, me, parent, "other", 0, 210);
	apply(t, &cur0, 0, &r_switch, parent, me, "later", 0, 300);
	first_named(t, 1, me, 250, "later",
		    "a record after a rename, another CPU's later switch naming it so converted first: the new name");
	first_named(t, 2, me, 195, "renamed", "... one before the rename: the name before");
	/*
	 * CPU 2's switch to it at 400 names it "third", converted before
	 * CPU 1's record of its rename at 350: from then on it is "third".
	 */
	apply(t, &cur2, 2, &r_switch, 0, me, "third", 0, 400);
	apply(t, &cur1, 1, &r_rename, me, me, "third", 0, 350);
	first_named(t, 3, me, 360, "third",
		    "a rename converted after a later switch naming it so: the name holds from the rename");
	first_named(t, 3, me, 340, "later", "... and the name before, before it");
	/* a record naming it "third" before one naming it "later": a name taken again */
	apply(t, &cur1, 1, &r_switch, 0, me, "third", 0, 280);
	first_named(t, 3, me, 320, "later",
		    "an older record of the new name, before one of the name before: the rename's time kept");

	for (i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		const struct order *o = &orders[i];

		for (j = 0; j < 4; j++)
			named_at(t, GONE + 20 + (int32_t)i, o->names[j], o->at[j]);
		for (j = 0; j < 2; j++)
			first_named(t, 4, GONE + 20 + (int32_t)i, o->ts[j], o->want[j], o->what[j]);
	}
	ltt_ftrace_tasks_destroy(t);
	return tap_done();
}
