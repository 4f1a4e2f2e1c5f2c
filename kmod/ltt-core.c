// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-core.c - ltt-tracer.ko: module init and exit, /proc/ltt (the tracer
 * fd) and its ioctls.  The ABI is src/abi/ltt-abi.h; doc/kmod.md explains it.
 */
#include <linux/capability.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "ltt-tracer.h"
#include "probes/ltt-probes.h"
#include "wrapper/ltt-probe-wrapper.h"

/* probes=: the probe groups to register, read once at load (doc/kmod.md). */
static char *probes;
module_param(probes, charp, 0444);
#define LTT_PROBE_STR(n)	" " #n
MODULE_PARM_DESC(probes, "comma-separated probe groups to register, among:"
		 LTT_PROBES(LTT_PROBE_STR) "; empty or absent: all");

static struct proc_dir_entry *ltt_proc;

/*
 * /proc/ltt open holds the module (a /proc file does not by itself): a
 * daemon's tracer is never unloaded under it, even with no session, nor
 * by `modprobe --remove lttng-test` taking its now unused dependency.
 */
static int tracer_open(struct inode *inode, struct file *file)
{
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	return try_module_get(THIS_MODULE) ? 0 : -ENODEV;
}

static int tracer_release(struct inode *inode, struct file *file)
{
	module_put(THIS_MODULE);
	return 0;
}

static int tracer_version(void __user *uarg)
{
	struct ltt_kabi_version v = {
		.major = LTT_KABI_MAJOR,
		.minor = LTT_KABI_MINOR,
		.tracer_version = LTT_TRACER_VERSION,
		.probes = ltt_kprobe_kinds(),
		.maps = 1,	/* ltt-map.c */
		.catalog = ltt_catalog_generation(),
	};

	return copy_to_user(uarg, &v, sizeof(v)) ? -EFAULT : 0;
}

static int tracer_list(void __user *uarg)
{
	struct ltt_kabi_list l;
	int ret;

	if (copy_from_user(&l, uarg, sizeof(l)))
		return -EFAULT;
	if (memchr_inv(l.reserved, 0, sizeof(l.reserved)) ||
	    (l.kind != LTT_KABI_LIST_TRACEPOINTS && l.kind != LTT_KABI_LIST_SYSCALLS) ||
	    (l.capacity && !l.entries))
		return -EINVAL;
	ret = ltt_events_list(&l);
	if (ret)
		return ret;
	return put_user(l.count, &((struct ltt_kabi_list __user *)uarg)->count);
}

static int tracer_event_desc(void __user *uarg)
{
	struct ltt_kabi_event_desc *d;
	int ret;

	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	ret = -EFAULT;
	if (copy_from_user(d->name, uarg, sizeof(d->name)) ||
	    copy_from_user(d->reserved, uarg + offsetof(struct ltt_kabi_event_desc, reserved),
			   sizeof(d->reserved)))
		goto out;
	ret = -EINVAL;
	if (memchr_inv(d->reserved, 0, sizeof(d->reserved)) ||
	    !memchr(d->name, '\0', sizeof(d->name)) || !d->name[0])
		goto out;
	ret = ltt_events_describe(d);
	if (!ret && copy_to_user(uarg, d, sizeof(*d)))
		ret = -EFAULT;
out:
	kfree(d);
	return ret;
}

static long tracer_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	void __user *uarg = (void __user *)arg;

	switch (cmd) {
	case LTT_KABI_VERSION:
		return tracer_version(uarg);
	case LTT_KABI_SESSION:
		return arg ? -EINVAL : ltt_session_create_fd();
	case LTT_KABI_LIST:
		return tracer_list(uarg);
	case LTT_KABI_EVENT_DESC:
		return tracer_event_desc(uarg);
	case LTT_KABI_MAP:
		return arg ? -EINVAL : ltt_map_create_fd();
	default:
		return -ENOTTY;
	}
}

static const struct proc_ops tracer_proc_ops = {
	.proc_open = tracer_open,
	.proc_release = tracer_release,
	.proc_ioctl = tracer_ioctl,
	.proc_compat_ioctl = tracer_ioctl,
};

/* Each probe file's group, from probes/ltt-probes.h. */
#define LTT_PROBE_EXTERN(n) extern struct ltt_probe ltt_probe_##n;
LTT_PROBES(LTT_PROBE_EXTERN)
#define LTT_PROBE_PTR(n) &ltt_probe_##n,
static struct ltt_probe * const ltt_probes[] = { LTT_PROBES(LTT_PROBE_PTR) };

static int __init ltt_init(void)
{
	int ret;

	ret = ltt_channels_hotplug_init();
	if (ret)
		return ret;
	ret = ltt_events_init(ltt_probes, ARRAY_SIZE(ltt_probes), probes);
	if (ret) {
		ltt_channels_hotplug_exit();
		return ret;
	}
	ltt_proc = proc_create(LTT_KABI_PROC_NAME, 0600, NULL, &tracer_proc_ops);
	if (!ltt_proc) {
		ltt_events_exit();
		ltt_channels_hotplug_exit();
		return -ENOMEM;
	}
	pr_info("ltt: tracer %s loaded (ABI %u.%u)\n", LTT_TRACER_VERSION,
		LTT_KABI_MAJOR, LTT_KABI_MINOR);
	if (LTT_PROBES_ABSENT[0])
		pr_info("ltt: not instrumented on this kernel (its tracepoints take a form ltt does not know):%s\n",
			LTT_PROBES_ABSENT);
	return 0;
}

static void __exit ltt_exit(void)
{
	proc_remove(ltt_proc);
	ltt_events_exit();
	/* no session is left (each fd pinned the module), so no probe is attached */
	tracepoint_synchronize_unregister();
	ltt_channels_hotplug_exit();
}

module_init(ltt_init);
module_exit(ltt_exit);
MODULE_LICENSE("GPL");
MODULE_AUTHOR("The ltt authors");
MODULE_DESCRIPTION("ltt kernel tracer: per-CPU ring buffers, probes, /proc/ltt");
MODULE_VERSION(LTT_TRACER_VERSION);
