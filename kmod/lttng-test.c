// SPDX-License-Identifier: GPL-2.0-only
/*
 * lttng-test.c - lttng-test.ko: LTTng's test module's interface on ltt's
 * tracer.  Writing N (decimal) to /proc/lttng-test-filter-event records N
 * lttng_test_filter_event (probes/ltt-probe-lttng-test.c says their
 * values), as lttng-modules' lttng-test.ko does (N at most 100,000,000;
 * a fatal signal ends it early);
 * LTTng's tests load and remove it by that name (`modprobe lttng-test`).
 * It needs ltt-tracer.ko, which modprobe loads first; the event itself is
 * ltt-tracer's, there while this module is loaded.
 */
#include <linux/kernel.h>
#include <linux/module.h>
#include <linux/proc_fs.h>
#include <linux/uaccess.h>

#include "ltt-tracer.h"

#define LTTNG_TEST_PROC_NAME	"lttng-test-filter-event"
/* at most this many a write, as /proc/ltt-test (LTTng's has no bound) */
#define LTTNG_TEST_MAX_EVENTS	100000000U

static ssize_t filter_event_write(struct file *file, const char __user *ubuf, size_t count,
				  loff_t *ppos)
{
	unsigned int n;
	int ret = kstrtouint_from_user(ubuf, count, 10, &n);

	if (!ret && n > LTTNG_TEST_MAX_EVENTS)
		ret = -EINVAL;
	if (!ret)
		ret = ltt_lttng_test_emit(n);
	return ret ? ret : count;
}

static const struct proc_ops filter_event_ops = {
	.proc_write = filter_event_write,
};

static struct proc_dir_entry *filter_event_proc;

static int __init lttng_test_init(void)
{
	/* writable by anyone, as LTTng's: its tracker tests write as other users */
	filter_event_proc = proc_create(LTTNG_TEST_PROC_NAME, 0666, NULL, &filter_event_ops);
	if (!filter_event_proc)
		return -ENOMEM;
	ltt_lttng_test_present(true);
	return 0;
}

static void __exit lttng_test_exit(void)
{
	ltt_lttng_test_present(false);
	proc_remove(filter_event_proc);
}

module_init(lttng_test_init);
module_exit(lttng_test_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("LTTng's test module's /proc/lttng-test-filter-event on ltt's tracer");
