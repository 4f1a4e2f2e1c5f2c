/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ltt-wrapper.h - every kernel version conditional of ltt-tracer.ko.
 *
 * The module targets Debian 12's 6.1 kernel and builds on newer ones; code
 * outside this directory calls only the ltt_* helpers below.
 */
#ifndef LTT_WRAPPER_H
#define LTT_WRAPPER_H

#include <linux/hrtimer.h>
#include <linux/mm.h>
#include <linux/ns_common.h>
#include <linux/ptrace.h>
#include <linux/sched.h>
#include <linux/timer.h>
#include <linux/version.h>

/* True when building against kernel @a.@b.@c or newer. */
#define LTT_KERNEL_GE(a, b, c)	(LINUX_VERSION_CODE >= KERNEL_VERSION(a, b, c))

/* <asm/unaligned.h> moved to <linux/unaligned.h> in 6.12. */
#if __has_include(<linux/unaligned.h>)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* from_timer() became timer_container_of() in 6.16. */
#if LTT_KERNEL_GE(6, 16, 0)
#define ltt_from_timer(var, t, field)	timer_container_of(var, t, field)
#else
#define ltt_from_timer(var, t, field)	from_timer(var, t, field)
#endif

/* del_timer_sync() was renamed timer_delete_sync() in 6.2 (and removed later). */
static inline void ltt_timer_delete_sync(struct timer_list *t)
{
#if LTT_KERNEL_GE(6, 2, 0)
	timer_delete_sync(t);
#else
	del_timer_sync(t);
#endif
}

/* vma->vm_flags became read-only in 6.3: vm_flags_set()/vm_flags_clear(). */
static inline void ltt_vm_flags_mod(struct vm_area_struct *vma, unsigned long set,
				    unsigned long clear)
{
#if LTT_KERNEL_GE(6, 3, 0)
	vm_flags_mod(vma, set, clear);
#else
	vma->vm_flags = (vma->vm_flags | set) & ~clear;
#endif
}

/* hrtimer_init() + .function became hrtimer_setup() in 6.13. */
static inline void ltt_hrtimer_setup(struct hrtimer *t,
				     enum hrtimer_restart (*fn)(struct hrtimer *),
				     clockid_t clock, enum hrtimer_mode mode)
{
#if LTT_KERNEL_GE(6, 13, 0)
	hrtimer_setup(t, fn, clock, mode);
#else
	hrtimer_init(t, clock, mode);
	t->function = fn;
#endif
}

/*
 * struct mnt_namespace is private to fs/ (fs/mount.h); since 5.11 its
 * struct ns_common is its first member (before, an atomic_t came first).
 */
struct mnt_namespace;
static inline u64 ltt_mnt_ns_inum(struct mnt_namespace *mnt_ns)
{
#if LTT_KERNEL_GE(5, 11, 0)
	return ((struct ns_common *)mnt_ns)->inum;
#else
	return ((struct { atomic_t count; struct ns_common ns; } *)mnt_ns)->ns.inum;
#endif
}

/* task_struct.migration_disabled: SMP kernels since 5.11. */
static inline bool ltt_have_migratable(void)
{
	return IS_ENABLED(CONFIG_SMP) && LTT_KERNEL_GE(5, 11, 0);
}

static inline bool ltt_task_migratable(struct task_struct *t)
{
#if defined(CONFIG_SMP) && LTT_KERNEL_GE(5, 11, 0)
	return !t->migration_disabled;
#else
	return false;
#endif
}

/*
 * The preemption disable count a tracepoint adds around its probes
 * (__DO_TRACE's preempt_disable_notrace()); 6.1 and the kernels this
 * module builds on all disable it for every tracepoint.
 */
#define LTT_TP_PREEMPT_COUNT	1

/*
 * The address a function returns to, read at its first instruction (a
 * kretprobe's entry handler, which runs before the kernel saves it): on
 * x86-64 the word at the stack pointer, for int3 and ftrace kprobes alike.
 */
static inline u64 ltt_kretprobe_entry_retaddr(struct pt_regs *regs)
{
#ifdef CONFIG_X86_64
	return regs_get_kernel_stack_nth(regs, 0);
#else
	return 0;
#endif
}

#endif /* LTT_WRAPPER_H */
