// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-syscalls.c - system call entry and exit, one event pair per
 * system call as LTTng names them: syscall_entry_NAME with the call's
 * arguments, named and typed as include/linux/syscalls.h declares them
 * (integers by their type, pointers as hex u64, path and name strings
 * copied from user memory), and syscall_exit_NAME with ret.  The table
 * (generated/ltt-syscalls-table.h) is generated at build time from the
 * headers of the kernel built against (scripts/ltt-gen-syscalls.sh).
 *
 * Numbers not in the table: syscall_entry_unknown (id, args[6]) and
 * syscall_exit_unknown (id, ret, args[6]).  32-bit (compat) system calls:
 * compat_syscall_entry_unknown and compat_syscall_exit_unknown, the same
 * fields with the 32-bit call's number.
 *
 * One probe on each of the kernel's sys_enter and sys_exit tracepoints
 * serves every system call: it looks the number up and returns at once
 * unless that call's event is enabled in some channel; only then are the
 * arguments read and recorded.  The two probes are attached only while
 * some system call event is enabled somewhere (the group's activate and
 * deactivate hooks): a loaded module with no such event costs system
 * calls nothing, while one such event puts every system call on the
 * kernel's traced path plus one table lookup.
 */
#include <linux/compat.h>
#include <linux/nospec.h>
#include <linux/tracepoint.h>
#include <asm/syscall.h>
#include <trace/events/syscalls.h>

#include "../ltt-event.h"
#include "ltt-syscalls-table.h"
#include "ltt-user.h"

static_assert(LTT_SYSCALLS_STR_SLOTS <= LTT_USER_STR_SLOTS, "too many strings in one call");

#define SC_NR_ARGS	6

/* The fields of an entry event, from the generated table. */
#define LTT_SC_INT(type, name, i)	ltt_field_integer(type, name, args[i])
#define LTT_SC_ENUM(type, name, i, id)	ltt_field_enum(type, name, args[i], id)
#define LTT_SC_PTR(name, i)		ltt_field_integer_hex(u64, name, args[i])
#define LTT_SC_STR(name, i, slot)	ltt_field_string(name, ltt_user_string(args[i], slot))
#define LTT_SC_ARGS6			ltt_field_array_hex(u64, args, (const u64 *)args, \
							    SC_NR_ARGS)

/* Each system call: its two events and a record function for each. */
#define SC_DECLARE(nr, name, fields) \
	LTT_EVENT_FLAGS(syscall_entry_##name, LTT_EVENT_SYSCALL, \
		LTT_PROTO(const unsigned long *args), \
		LTT_FIELDS(fields)); \
	LTT_EVENT_FLAGS(syscall_exit_##name, LTT_EVENT_SYSCALL, \
		LTT_PROTO(long ret), \
		LTT_FIELDS(ltt_field_integer(s64, ret, ret))); \
	static void sc_enter_##name(const unsigned long *args) \
	{ \
		ltt_event_call(syscall_entry_##name, args); \
	} \
	static void sc_exit_##name(long ret) \
	{ \
		ltt_event_call(syscall_exit_##name, ret); \
	}
LTT_SYSCALL_TABLE(SC_DECLARE)

#define SC_UNKNOWN_EVENTS(prefix) \
	LTT_EVENT_FLAGS(prefix##_entry_unknown, LTT_EVENT_SYSCALL, \
		LTT_PROTO(long id, const unsigned long *args), \
		LTT_FIELDS( \
			ltt_field_integer(s32, id, id) \
			ltt_field_array_hex(u64, args, (const u64 *)args, SC_NR_ARGS))); \
	LTT_EVENT_FLAGS(prefix##_exit_unknown, LTT_EVENT_SYSCALL, \
		LTT_PROTO(long id, long ret, const unsigned long *args), \
		LTT_FIELDS( \
			ltt_field_integer(s32, id, id) \
			ltt_field_integer(s64, ret, ret) \
			ltt_field_array_hex(u64, args, (const u64 *)args, SC_NR_ARGS)))

SC_UNKNOWN_EVENTS(syscall);
SC_UNKNOWN_EVENTS(compat_syscall);

struct sc_entry {
	struct ltt_event_desc *entry, *exit;
	void (*enter)(const unsigned long *args);
	void (*leave)(long ret);
};

#define SC_TABLE_ENTRY(nr, name, fields) \
	[nr] = { LTT_EVENT_DESC(syscall_entry_##name), LTT_EVENT_DESC(syscall_exit_##name), \
		 sc_enter_##name, sc_exit_##name },
static const struct sc_entry sc_table[LTT_SYSCALLS_NR] = {
	LTT_SYSCALL_TABLE(SC_TABLE_ENTRY)
};

/* Is @desc enabled in some channel?  Preemption disabled (RCU-sched). */
static inline bool sc_enabled(const struct ltt_event_desc *desc)
{
	return rcu_access_pointer(desc->targets);
}

/* The table's entry for native system call @id, or NULL. */
static inline const struct sc_entry *sc_lookup(long id)
{
	const struct sc_entry *e;

	if ((unsigned long)id >= LTT_SYSCALLS_NR)
		return NULL;
	e = &sc_table[array_index_nospec((unsigned long)id, LTT_SYSCALLS_NR)];
	return e->entry ? e : NULL;
}

static notrace void sc_probe_enter(void *data, struct pt_regs *regs, long id)
{
	unsigned long args[SC_NR_ARGS];
	const struct sc_entry *e;

	if (unlikely(in_compat_syscall())) {
		if (!sc_enabled(LTT_EVENT_DESC(compat_syscall_entry_unknown)))
			return;
		syscall_get_arguments(current, regs, args);
		ltt_event_call(compat_syscall_entry_unknown, id, args);
		return;
	}
	e = sc_lookup(id);
	if (likely(e)) {
		if (!sc_enabled(e->entry))
			return;
		syscall_get_arguments(current, regs, args);
		e->enter(args);
		return;
	}
	if (!sc_enabled(LTT_EVENT_DESC(syscall_entry_unknown)))
		return;
	syscall_get_arguments(current, regs, args);
	ltt_event_call(syscall_entry_unknown, id, args);
}

static notrace void sc_probe_exit(void *data, struct pt_regs *regs, long ret)
{
	long id = syscall_get_nr(current, regs);
	unsigned long args[SC_NR_ARGS];
	const struct sc_entry *e;

	if (unlikely(in_compat_syscall())) {
		if (!sc_enabled(LTT_EVENT_DESC(compat_syscall_exit_unknown)))
			return;
		syscall_get_arguments(current, regs, args);
		ltt_event_call(compat_syscall_exit_unknown, id, ret, args);
		return;
	}
	e = sc_lookup(id);
	if (likely(e)) {
		if (sc_enabled(e->exit))
			e->leave(ret);
		return;
	}
	if (!sc_enabled(LTT_EVENT_DESC(syscall_exit_unknown)))
		return;
	syscall_get_arguments(current, regs, args);
	ltt_event_call(syscall_exit_unknown, id, ret, args);
}

/* The kernel's sys_enter and sys_exit tracepoints, found by name. */
static struct tracepoint *tp_enter, *tp_exit;

static void sc_find_tracepoint(struct tracepoint *tp, void *priv)
{
	if (!strcmp(tp->name, "sys_enter"))
		tp_enter = tp;
	else if (!strcmp(tp->name, "sys_exit"))
		tp_exit = tp;
}

static int sc_init(void)
{
	int ret;

	ret = ltt_user_init();
	if (ret)
		return ret;
	for_each_kernel_tracepoint(sc_find_tracepoint, NULL);
	if (!tp_enter || !tp_exit) {
		pr_warn("ltt: no sys_enter/sys_exit tracepoints: system call events record nothing\n");
		tp_enter = NULL;
		tp_exit = NULL;
	}
	return 0;
}

static void sc_exit(void)
{
	/* every channel is closed, but be sure no probe still uses ltt_user */
	tracepoint_synchronize_unregister();
	ltt_user_exit();
}

/* The first system call event gained a channel: attach both probes. */
static int sc_activate(void)
{
	int ret;

	if (!tp_enter)
		return 0;
	ret = ltt_tracepoint_attach(tp_enter, sc_probe_enter, NULL);
	if (ret)
		return ret;
	ret = ltt_tracepoint_attach(tp_exit, sc_probe_exit, NULL);
	if (ret)
		ltt_tracepoint_detach(tp_enter, sc_probe_enter, NULL);
	return ret;
}

/*
 * The last one lost its last channel: detach.  A probe still running on
 * another CPU finds no target; the module's exit (and every channel's
 * close) waits for a grace period before code or buffers go away.
 */
static void sc_deactivate(void)
{
	if (!tp_enter)
		return;
	ltt_tracepoint_detach(tp_exit, sc_probe_exit, NULL);
	ltt_tracepoint_detach(tp_enter, sc_probe_enter, NULL);
}

#define SC_DESCS(nr, name, fields) \
	LTT_EVENT_DESC(syscall_entry_##name), LTT_EVENT_DESC(syscall_exit_##name),
LTT_PROBE_HOOKS(syscalls, sc_init, sc_exit, sc_activate, sc_deactivate,
		LTT_EVENT_DESC(syscall_entry_unknown),
		LTT_EVENT_DESC(syscall_exit_unknown),
		LTT_EVENT_DESC(compat_syscall_entry_unknown),
		LTT_EVENT_DESC(compat_syscall_exit_unknown),
		LTT_SYSCALL_TABLE(SC_DESCS));
