// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-kprobes.c - kernel probes placed from outside (LTT_KABI_PROBE of a
 * KPROBE or KRETPROBE): a kprobe records one event (ip), a kretprobe two,
 * at entry and at return (ip, parent_ip), lttng-modules' fields.  Each
 * probe is a file descriptor of the session that placed it; its events
 * have names of the tracer's ("ltt_kprobe_N", "ltt_kretprobe_N_entry" and
 * "_return"), are enabled, filtered and described by name as any event,
 * in that session's channels only, and are never listed.  The kernel's
 * probe is registered disabled and armed only while one of its events is
 * enabled somewhere (kprobe_sync(), the events' desc->sync).
 *
 * Lifetime: the fd's release disables the events everywhere, then
 * unregisters the probe, which waits until no handler runs (a grace
 * period): no handler sees a freed struct ltt_kprobe.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/kprobes.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ltt-event.h"
#include "ltt-tracer.h"
#include "wrapper/ltt-wrapper.h"

/* The two shapes of events; their descriptors are templates, never listed. */
LTT_EVENT(kprobe_template,
	LTT_PROTO(u64 ip),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, ip, ip)));

LTT_EVENT(kretprobe_template,
	LTT_PROTO(u64 ip, u64 parent_ip),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, ip, ip)
		ltt_field_integer_hex(u64, parent_ip, parent_ip)));

struct ltt_kprobe {
	struct ltt_session *session;	/* a reference */
	bool ret;			/* a kretprobe: desc[0] entry, desc[1] return */
	bool armed;			/* enabled in the kernel, ltt_mutex */
	u64 ip;				/* the address asked for: the events' ip */
	struct kprobe kp;		/* !ret */
	struct kretprobe krp;		/* ret */
	struct ltt_event_desc desc[2];
	char name[2][LTT_KABI_NAME_MAX];
	char symbol[LTT_KABI_SYMBOL_MAX];
};

static unsigned int ltt_kprobes_armed;	/* kernel probes armed now, ltt_mutex */
static u64 ltt_kprobes_seq;		/* the number in the next one's names, ltt_mutex */

static struct kprobe *kernel_probe(struct ltt_kprobe *k)
{
	return k->ret ? &k->krp.kp : &k->kp;
}

static int kprobe_pre(struct kprobe *kp, struct pt_regs *regs)
{
	struct ltt_kprobe *k = container_of(kp, struct ltt_kprobe, kp);

	__ltt_probe_kprobe_template(&k->desc[0], k->ip);
	return 0;
}

static int kretprobe_entry(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ltt_kprobe *k = container_of(get_kretprobe(ri), struct ltt_kprobe, krp);

	__ltt_probe_kretprobe_template(&k->desc[0], k->ip, ltt_kretprobe_entry_retaddr(regs));
	return 0;
}

static int kretprobe_return(struct kretprobe_instance *ri, struct pt_regs *regs)
{
	struct ltt_kprobe *k = container_of(get_kretprobe(ri), struct ltt_kprobe, krp);

	__ltt_probe_kretprobe_template(&k->desc[1], k->ip, (u64)get_kretprobe_retaddr(ri));
	return 0;
}

/**
 * ltt_kprobe_kinds() - the probes this tracer places, as
 * ltt_kabi_version.probes: bit (1 << instrumentation) for each
 */
u32 ltt_kprobe_kinds(void)
{
	return (IS_ENABLED(CONFIG_KPROBES) ? 1U << LTT_KABI_KPROBE : 0) |
	       (IS_ENABLED(CONFIG_KRETPROBES) ? 1U << LTT_KABI_KRETPROBE : 0);
}

static bool has_targets(const struct ltt_event_desc *desc)
{
	return rcu_access_pointer(desc->targets);
}

/*
 * Arm or disarm the kernel probe of @desc (an event of this file) as its
 * events gain or lose targets: its desc->sync, called by ltt-events.c.
 *
 * Context: ltt_mutex held, may sleep.  Return: 0 or enable_kprobe()'s -errno.
 */
static int kprobe_sync(struct ltt_event_desc *desc)
{
	struct ltt_kprobe *k = desc->kprobe;
	bool want = has_targets(&k->desc[0]) || (k->ret && has_targets(&k->desc[1]));
	int ret;

	lockdep_assert_held(&ltt_mutex);
	if (want == k->armed)
		return 0;
	if (want) {
		ret = enable_kprobe(kernel_probe(k));
		if (ret)
			return ret;
		ltt_kprobes_armed++;
	} else {
		disable_kprobe(kernel_probe(k));	/* fails only if not registered */
		ltt_kprobes_armed--;
	}
	k->armed = want;
	return 0;
}

/**
 * ltt_kprobes_armed_count() - how many kernel probes the tracer has armed
 * (reported by /proc/ltt-test beside the tracepoints)
 *
 * Context: takes ltt_mutex.
 */
unsigned int ltt_kprobes_armed_count(void)
{
	unsigned int n;

	mutex_lock(&ltt_mutex);
	n = ltt_kprobes_armed;
	mutex_unlock(&ltt_mutex);
	return n;
}

/* Check a PROBE request of a kprobe or kretprobe (uprobes: EOPNOTSUPP). */
static int kprobe_arg_valid(const struct ltt_kabi_probe *a)
{
	if (a->instrumentation == LTT_KABI_UPROBE)
		return -EOPNOTSUPP;
	if (a->instrumentation != LTT_KABI_KPROBE && a->instrumentation != LTT_KABI_KRETPROBE)
		return -EINVAL;
	if (!(ltt_kprobe_kinds() & 1U << a->instrumentation))
		return -EOPNOTSUPP;
	if (memchr_inv(a->reserved, 0, sizeof(a->reserved)) || a->nr_args ||
	    a->ref_ctr_offset || memchr_inv(a->path, 0, sizeof(a->path)) ||
	    memchr_inv(a->args, 0, sizeof(a->args)) ||
	    !memchr(a->symbol, '\0', sizeof(a->symbol)) ||
	    (a->symbol[0] ? a->addr != 0 : !a->addr || a->offset))
		return -EINVAL;
	return 0;
}

static void desc_init(struct ltt_kprobe *k, unsigned int i, const struct ltt_event_desc *tmpl,
		      const char *kind, u64 seq, const char *suffix)
{
	struct ltt_event_desc *d = &k->desc[i];

	snprintf(k->name[i], sizeof(k->name[i]), "ltt_%s_%llu%s", kind, seq, suffix);
	d->name = k->name[i];
	d->probe = tmpl->probe;
	d->fields = tmpl->fields;
	d->nr_fields = tmpl->nr_fields;
	d->kprobe = k;
	d->sync = kprobe_sync;
	d->session = k->session;
	INIT_LIST_HEAD(&d->node);
}

/* A new probe for @a (valid), its events named with @seq; NULL: -ENOMEM. */
static struct ltt_kprobe *kprobe_alloc(struct ltt_session *s, const struct ltt_kabi_probe *a,
				       u64 seq)
{
	struct ltt_kprobe *k = kzalloc(sizeof(*k), GFP_KERNEL);
	struct kprobe *kp;

	if (!k)
		return NULL;
	k->session = s;
	k->ret = a->instrumentation == LTT_KABI_KRETPROBE;
	if (k->ret) {
		desc_init(k, 0, LTT_EVENT_DESC(kretprobe_template), "kretprobe", seq, "_entry");
		desc_init(k, 1, LTT_EVENT_DESC(kretprobe_template), "kretprobe", seq, "_return");
		k->krp.entry_handler = kretprobe_entry;
		k->krp.handler = kretprobe_return;
	} else {
		desc_init(k, 0, LTT_EVENT_DESC(kprobe_template), "kprobe", seq, "");
		k->kp.pre_handler = kprobe_pre;
	}
	kp = kernel_probe(k);
	strscpy(k->symbol, a->symbol, sizeof(k->symbol));
	if (k->symbol[0]) {
		kp->symbol_name = k->symbol;
		kp->offset = a->offset;
	} else {
		kp->addr = (kprobe_opcode_t *)(unsigned long)a->addr;
		k->ip = a->addr;
	}
	kp->flags = KPROBE_FLAG_DISABLED;
	return k;
}

/* Forget @k's events (disabled everywhere) and remove it from the kernel. */
static void kprobe_destroy(struct ltt_kprobe *k)
{
	unsigned int i;

	mutex_lock(&ltt_mutex);
	for (i = 0; i < 1U + k->ret; i++)
		ltt_event_remove(&k->desc[i]);
	WARN_ON_ONCE(k->armed);
	/* waits until no handler runs */
	if (k->ret)
		unregister_kretprobe(&k->krp);
	else
		unregister_kprobe(&k->kp);
	mutex_unlock(&ltt_mutex);
	ltt_session_put(k->session);
	kfree(k);
}

static int kprobe_release(struct inode *inode, struct file *file)
{
	kprobe_destroy(file->private_data);
	return 0;
}

static const struct file_operations kprobe_fops = {
	.owner = THIS_MODULE,
	.release = kprobe_release,
};

/*
 * The address a probe of a symbol was asked for, from where the kernel
 * placed it: with indirect branch tracking, a probe of a function's first
 * byte goes after its ENDBR64 (arch_adjust_kprobe_addr(), 6.12 in Debian
 * 13), and its events say the function's address, as /proc/kallsyms does
 * and as they do on a kernel without IBT.
 */
static u64 kprobe_asked_ip(const struct kprobe *kp)
{
	unsigned long at = (unsigned long)kp->addr;
	static const u8 endbr64[4] = { 0xf3, 0x0f, 0x1e, 0xfa };
	u8 before[4];

	if (IS_ENABLED(CONFIG_X86_KERNEL_IBT) && kp->offset == 0 &&
	    !copy_from_kernel_nofault(before, (void *)(at - sizeof(before)), sizeof(before)) &&
	    !memcmp(before, endbr64, sizeof(before)))
		at -= sizeof(before);
	return at;
}

/* Register @k disabled and make its events known.  ltt_mutex held. */
static int kprobe_place(struct ltt_kprobe *k)
{
	int ret = k->ret ? register_kretprobe(&k->krp) : register_kprobe(&k->kp);

	if (ret)
		return ret;
	if (k->symbol[0])
		k->ip = kprobe_asked_ip(kernel_probe(k));
	ret = ltt_event_add(&k->desc[0]);
	if (!ret && k->ret) {
		ret = ltt_event_add(&k->desc[1]);
		if (ret)
			ltt_event_remove(&k->desc[0]);
	}
	if (!ret)
		return 0;
	if (k->ret)
		unregister_kretprobe(&k->krp);
	else
		unregister_kprobe(&k->kp);
	return ret;
}

/**
 * ltt_kprobe_create_fd() - LTT_KABI_PROBE of a kprobe or kretprobe
 * @session: the session placing it (its channels only may enable the
 *           events); the probe takes a reference
 * @uarg: a struct ltt_kabi_probe in user memory; its event names are
 *        written back
 *
 * Context: process context, takes ltt_mutex.  Return: the probe's new fd
 * (closing it removes the probe), or the -errno of ltt-abi.h; nothing
 * changes on error.
 */
int ltt_kprobe_create_fd(struct ltt_session *session, void __user *uarg)
{
	struct ltt_kabi_probe *a;
	struct ltt_kprobe *k;
	struct file *file;
	int fd, ret;

	a = memdup_user(uarg, sizeof(*a));
	if (IS_ERR(a))
		return PTR_ERR(a);
	ret = kprobe_arg_valid(a);
	if (ret)
		goto out;
	fd = get_unused_fd_flags(O_CLOEXEC);
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	mutex_lock(&ltt_mutex);
	k = kprobe_alloc(session, a, ltt_kprobes_seq++);
	ret = k ? kprobe_place(k) : -ENOMEM;
	mutex_unlock(&ltt_mutex);
	if (ret) {
		kfree(k);
		goto put_fd;
	}
	ltt_session_get(session);
	strscpy(a->event, k->name[0], sizeof(a->event));
	strscpy(a->event_return, k->ret ? k->name[1] : "", sizeof(a->event_return));
	if (copy_to_user(uarg, a, sizeof(*a))) {
		ret = -EFAULT;
		goto destroy;
	}
	file = anon_inode_getfile("[ltt_probe]", &kprobe_fops, k, O_RDWR);
	if (IS_ERR(file)) {
		ret = PTR_ERR(file);
		goto destroy;
	}
	fd_install(fd, file);
	kfree(a);
	return fd;
destroy:
	kprobe_destroy(k);	/* puts the session */
put_fd:
	put_unused_fd(fd);
out:
	kfree(a);
	return ret;
}
