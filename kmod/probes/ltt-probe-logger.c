// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-logger.c - /proc/ltt-logger: each write() records one
 * ltt_logger event whose msg field is the written text.  Any user may
 * write (0666, as LTTng's logger).  A write longer than
 * LTT_LOGGER_MSG_MAX - 1 bytes is truncated to that (the write still
 * reports every byte consumed); one trailing newline is dropped; the text
 * ends at its first NUL byte.
 */
#include <linux/proc_fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "../ltt-event.h"

#define LTT_LOGGER_MSG_MAX	1024	/* NUL included */

LTT_EVENT(ltt_logger,
	LTT_PROTO(const char *msg),
	LTT_FIELDS(
		ltt_field_string(msg, msg)));

static ssize_t logger_write(struct file *file, const char __user *ubuf, size_t count,
			    loff_t *ppos)
{
	size_t len = min_t(size_t, count, LTT_LOGGER_MSG_MAX - 1);
	char *msg;

	msg = kmalloc(len + 1, GFP_KERNEL);
	if (!msg)
		return -ENOMEM;
	if (copy_from_user(msg, ubuf, len)) {
		kfree(msg);
		return -EFAULT;
	}
	if (len && msg[len - 1] == '\n')
		len--;
	msg[len] = '\0';
	ltt_event_call(ltt_logger, msg);
	kfree(msg);
	return count;
}

static const struct proc_ops logger_proc_ops = {
	.proc_write = logger_write,
};

static struct proc_dir_entry *logger_proc;

static int logger_init(void)
{
	logger_proc = proc_create(LTT_KABI_LOGGER_PROC_NAME, 0666, NULL, &logger_proc_ops);
	return logger_proc ? 0 : -ENOMEM;
}

static void logger_exit(void)
{
	proc_remove(logger_proc);
}

LTT_PROBE(logger, logger_init, logger_exit, LTT_EVENT_DESC(ltt_logger));
