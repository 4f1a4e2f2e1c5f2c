// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-context.c - the context fields of a channel (LTT_KABI_CONTEXT_ADD):
 * which a channel has, and how the record path writes them after each
 * event header (ltt-abi.h, enum ltt_kabi_context_type, has the layout).
 *
 * Every value is read from the thread the event fires in (current) at
 * that moment, in any context the record path runs in (NMI and interrupts
 * included, preemption disabled): nothing here sleeps or takes a lock but
 * RCU's read side.  What a dying thread no longer has (its namespaces,
 * once exit_task_namespaces() ran; its pid, once reaped) is written as 0.
 */
#include <linux/cgroup.h>
#include <linux/cred.h>
#include <linux/ipc_namespace.h>
#include <linux/irqflags.h>
#include <linux/nsproxy.h>
#include <linux/pid_namespace.h>
#include <linux/preempt.h>
#include <linux/sched.h>
#include <linux/sched/prio.h>
#include <linux/string.h>
#include <linux/time_namespace.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>
#include <linux/utsname.h>
#include <net/net_namespace.h>

#include "ltt-tracer.h"
#include "wrapper/ltt-wrapper.h"

#define PROCNAME_LEN	17	/* TASK_COMM_LEN + 1: the user-space table's length */
#define HOSTNAME_LEN	(__NEW_UTS_LEN + 1)

static_assert(TASK_COMM_LEN < PROCNAME_LEN, "comm longer than the procname field");
static_assert(HOSTNAME_LEN == 65, "the hostname field is 65 bytes");

/* Bytes of each type in an event; 0: not a kernel context. */
static const u8 ctx_size[LTT_KABI_CTX_NR_] = {
	[LTT_KABI_CTX_VPID] = 4,
	[LTT_KABI_CTX_VTID] = 4,
	[LTT_KABI_CTX_PROCNAME] = PROCNAME_LEN,
	[LTT_KABI_CTX_CPU_ID] = 4,
	[LTT_KABI_CTX_CGROUP_NS ... LTT_KABI_CTX_UTS_NS] = 8,
	[LTT_KABI_CTX_VUID ... LTT_KABI_CTX_VSGID] = 4,
	[LTT_KABI_CTX_PID ... LTT_KABI_CTX_NICE] = 4,
	[LTT_KABI_CTX_HOSTNAME] = HOSTNAME_LEN,
	[LTT_KABI_CTX_INTERRUPTIBLE ... LTT_KABI_CTX_MIGRATABLE] = 1,
	[LTT_KABI_CTX_UID ... LTT_KABI_CTX_SGID] = 4,
};

/* Can this kernel's configuration give a value of @type? */
static bool ctx_available(u32 type)
{
	switch (type) {
	case LTT_KABI_CTX_CGROUP_NS:
		return IS_ENABLED(CONFIG_CGROUPS);
	case LTT_KABI_CTX_IPC_NS:
		return IS_ENABLED(CONFIG_IPC_NS);
	case LTT_KABI_CTX_NET_NS:
		return IS_ENABLED(CONFIG_NET_NS);
	case LTT_KABI_CTX_TIME_NS:
		return IS_ENABLED(CONFIG_TIME_NS);
	case LTT_KABI_CTX_PREEMPTIBLE:
		return IS_ENABLED(CONFIG_PREEMPT_COUNT);
	case LTT_KABI_CTX_MIGRATABLE:
		return ltt_have_migratable();
	default:
		return true;
	}
}

/* Add @arg->type to @chan, after its others; sets @arg->size.  ltt_mutex held. */
static int context_add(struct ltt_channel *chan, struct ltt_kabi_context *arg)
{
	struct ltt_chan_contexts *c = &chan->ctx;
	unsigned int i;

	lockdep_assert_held(&ltt_mutex);
	if (memchr_inv(arg->reserved, 0, sizeof(arg->reserved)) ||
	    arg->type >= LTT_KABI_CTX_NR_ || !ctx_size[arg->type])
		return -EINVAL;
	if (!ctx_available(arg->type))
		return -EOPNOTSUPP;
	if (chan->session->started_once)
		return -EBUSY;
	for (i = 0; i < c->nr; i++)
		if (c->type[i] == arg->type)
			return -EEXIST;
	if (c->nr >= LTT_KABI_MAX_CONTEXTS)
		return -ENOSPC;
	/* No probe writes in the channel before its session starts. */
	c->type[c->nr] = arg->type;
	c->len += ctx_size[arg->type];
	c->nr++;
	arg->size = ctx_size[arg->type];
	return 0;
}

/**
 * ltt_context_add_user() - LTT_KABI_CONTEXT_ADD on @chan's fd: add the
 * context @uarg (struct ltt_kabi_context) names after the channel's others
 *
 * Process context; takes ltt_mutex.  Return: 0, -EFAULT, -EINVAL (unknown
 * type, reserved words not zero), -EOPNOTSUPP (this kernel lacks it),
 * -EBUSY (the session was started once: its traces' layout is fixed),
 * -EEXIST, -ENOSPC (LTT_KABI_MAX_CONTEXTS).  A refusal changes nothing.
 */
int ltt_context_add_user(struct ltt_channel *chan, void __user *uarg)
{
	struct ltt_kabi_context arg;
	int ret;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	mutex_lock(&ltt_mutex);
	ret = context_add(chan, &arg);
	if (!ret && copy_to_user(uarg, &arg, sizeof(arg))) {
		/* undone: the caller never learnt it was added */
		chan->ctx.nr--;
		chan->ctx.len -= arg.size;
		ret = -EFAULT;
	}
	mutex_unlock(&ltt_mutex);
	return ret;
}

static __always_inline char *put_u32(char *p, u32 v)
{
	put_unaligned(v, (u32 *)p);
	return p + sizeof(v);
}

static __always_inline char *put_u64(char *p, u64 v)
{
	put_unaligned(v, (u64 *)p);
	return p + sizeof(v);
}

/* The inode number of one of current's namespaces (/proc/PID/ns/NAME), 0 when gone. */
static u64 ns_inum(u32 type)
{
	struct nsproxy *nsp = current->nsproxy;	/* only current changes its own */
	struct pid_namespace *pid_ns;

	switch (type) {
	case LTT_KABI_CTX_USER_NS:
		return current_user_ns()->ns.inum;
	case LTT_KABI_CTX_PID_NS:
		pid_ns = task_active_pid_ns(current);
		return pid_ns ? pid_ns->ns.inum : 0;
	}
	if (!nsp)
		return 0;
	switch (type) {
#ifdef CONFIG_CGROUPS
	case LTT_KABI_CTX_CGROUP_NS:
		return nsp->cgroup_ns->ns.inum;
#endif
#ifdef CONFIG_IPC_NS
	case LTT_KABI_CTX_IPC_NS:
		return nsp->ipc_ns->ns.inum;
#endif
	case LTT_KABI_CTX_MNT_NS:
		return ltt_mnt_ns_inum(nsp->mnt_ns);
#ifdef CONFIG_NET_NS
	case LTT_KABI_CTX_NET_NS:
		return nsp->net_ns->ns.inum;
#endif
#ifdef CONFIG_TIME_NS
	case LTT_KABI_CTX_TIME_NS:
		return nsp->time_ns->ns.inum;
#endif
	case LTT_KABI_CTX_UTS_NS:
		return nsp->uts_ns->ns.inum;
	default:
		return 0;
	}
}

/* uid ... sgid of current's credentials, in @ns (munged: overflowuid when unmapped). */
static u32 cred_id(u32 first, u32 type, struct user_namespace *ns)
{
	const struct cred *cred = current_cred();

	switch (type - first) {
	case 0:
		return from_kuid_munged(ns, cred->uid);
	case 1:
		return from_kuid_munged(ns, cred->euid);
	case 2:
		return from_kuid_munged(ns, cred->suid);
	case 3:
		return from_kgid_munged(ns, cred->gid);
	case 4:
		return from_kgid_munged(ns, cred->egid);
	default:
		return from_kgid_munged(ns, cred->sgid);
	}
}

/* The real parent's tgid, in @ns (NULL: the root pid namespace). */
static s32 parent_tgid(bool virt)
{
	struct pid_namespace *ns = NULL;
	struct task_struct *parent;
	s32 v;

	if (virt) {
		ns = task_active_pid_ns(current);
		if (!ns)
			return 0;
	}
	rcu_read_lock();
	parent = rcu_dereference(current->real_parent);
	v = virt ? task_tgid_nr_ns(parent, ns) : task_tgid_nr(parent);
	rcu_read_unlock();
	return v;
}

static char *put_procname(char *p)
{
	memcpy(p, current->comm, TASK_COMM_LEN);
	memset(p + TASK_COMM_LEN, 0, PROCNAME_LEN - TASK_COMM_LEN);
	p[TASK_COMM_LEN - 1] = '\0';	/* comm may be rewritten meanwhile */
	return p + PROCNAME_LEN;
}

static char *put_hostname(char *p)
{
	struct nsproxy *nsp = current->nsproxy;

	if (nsp)
		memcpy(p, nsp->uts_ns->name.nodename, HOSTNAME_LEN);
	else
		memset(p, 0, HOSTNAME_LEN);
	p[HOSTNAME_LEN - 1] = '\0';
	return p + HOSTNAME_LEN;
}

/*
 * Preemption disabled by the tracer itself where @desc's probe runs: its
 * own, and the tracepoint's (the system call events run inside the
 * sys_enter/sys_exit tracepoints' probe).
 */
static unsigned int own_preempt_count(const struct ltt_event_desc *desc)
{
	return 1 + ((desc->tp_name || (desc->flags & LTT_EVENT_SYSCALL)) ?
		    LTT_TP_PREEMPT_COUNT : 0);
}

/*
 * The value of integer context @type (written as s32, u32 or u64) of
 * current, now; 0 for another type.  The record path (put_one()) and the
 * filters' $ctx (ltt_context_value()) both read it here.
 */
static __always_inline s64 task_value(u32 type)
{
	switch (type) {
	case LTT_KABI_CTX_VPID:
		return task_tgid_vnr(current);
	case LTT_KABI_CTX_VTID:
		return task_pid_vnr(current);
	case LTT_KABI_CTX_CPU_ID:
		return smp_processor_id();
	case LTT_KABI_CTX_CGROUP_NS ... LTT_KABI_CTX_UTS_NS:
		return ns_inum(type);
	case LTT_KABI_CTX_VUID ... LTT_KABI_CTX_VSGID:
		return cred_id(LTT_KABI_CTX_VUID, type, current_user_ns());
	case LTT_KABI_CTX_PID:
		return task_tgid_nr(current);
	case LTT_KABI_CTX_TID:
		return task_pid_nr(current);
	case LTT_KABI_CTX_PPID:
	case LTT_KABI_CTX_VPPID:
		return parent_tgid(type == LTT_KABI_CTX_VPPID);
	case LTT_KABI_CTX_PRIO:
		return current->prio - MAX_RT_PRIO;
	case LTT_KABI_CTX_NICE:
		return task_nice(current);
	case LTT_KABI_CTX_UID ... LTT_KABI_CTX_SGID:
		return cred_id(LTT_KABI_CTX_UID, type, &init_user_ns);
	default:
		return 0;
	}
}

/**
 * ltt_context_value() - the value of integer context @type
 * (LTT_KABI_CTX_*: an s32, u32 or u64 one) of current, now, as the
 * record path writes it; 0 for another type
 *
 * Any context, preemption disabled (a probe, a filter's $ctx).
 */
notrace s64 ltt_context_value(u32 type)
{
	return task_value(type);
}

static char *put_one(char *p, u32 type, const struct ltt_event_desc *desc)
{
	switch (type) {
	case LTT_KABI_CTX_PROCNAME:
		return put_procname(p);
	case LTT_KABI_CTX_HOSTNAME:
		return put_hostname(p);
	case LTT_KABI_CTX_INTERRUPTIBLE:
		*p = !irqs_disabled();
		return p + 1;
	case LTT_KABI_CTX_PREEMPTIBLE:
		*p = preempt_count() == own_preempt_count(desc);
		return p + 1;
	case LTT_KABI_CTX_NEED_RESCHEDULE:
		*p = test_tsk_need_resched(current);
		return p + 1;
	case LTT_KABI_CTX_MIGRATABLE:
		*p = ltt_task_migratable(current);
		return p + 1;
	}
	/* An integer (s32 and u32 alike: the same bytes), or nothing. */
	switch (ctx_size[type]) {
	case 4:
		return put_u32(p, (u32)task_value(type));
	case 8:
		return put_u64(p, (u64)task_value(type));
	default:
		/* ltt_context_add() took no other type */
		return p + ctx_size[type];
	}
}

/**
 * ltt_context_write() - write @chan's context fields at @p, right after
 * the header of an event of @desc; @chan->ctx.len bytes reserved there
 *
 * Any context, preemption disabled (the record path).  Return: the byte
 * after them.
 */
char *ltt_context_write(const struct ltt_channel *chan, const struct ltt_event_desc *desc,
			char *p)
{
	unsigned int i, nr = chan->ctx.nr;

	for (i = 0; i < nr; i++)
		p = put_one(p, chan->ctx.type[i], desc);
	return p;
}
