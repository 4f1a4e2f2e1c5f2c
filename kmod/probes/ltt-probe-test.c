// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-test.c - the test probe: writing N to /proc/ltt-test (root)
 * records N ltt_test_event events whose fields depend only on their
 * sequence number, so tests can check every recorded value:
 *
 *   seq	u64	0 .. N-1
 *   value	s32	seq * 3 - 7
 *   neg	s8	-(seq % 100)
 *   flags	u16, hex	seq & 0xffff
 *   name	string	"ltt-test-<seq>"
 *   tag	char[8], text	"t<seq % 1000>", NUL-padded
 *   bytes	u8 sequence	seq % 5 elements: (seq + i) & 0xff
 */
#include <linux/kernel.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "../ltt-event.h"

#define LTT_TEST_MAX_EVENTS	100000000ULL

LTT_EVENT(ltt_test_event,
	LTT_PROTO(u64 seq, const char *name, const char *tag, const u8 *bytes),
	LTT_FIELDS(
		ltt_field_integer(u64, seq, seq)
		ltt_field_integer(s32, value, (s32)seq * 3 - 7)
		ltt_field_integer(s8, neg, -(s8)(seq % 100))
		ltt_field_integer_hex(u16, flags, seq & 0xffff)
		ltt_field_string(name, name)
		ltt_field_array_text(tag, tag, 8)
		ltt_field_sequence(u8, bytes, bytes, seq % 5)));

static void emit_one(u64 seq)
{
	char name[32], tag[8] = { 0 };
	u8 bytes[5];
	unsigned int i;

	snprintf(name, sizeof(name), "ltt-test-%llu", seq);
	snprintf(tag, sizeof(tag), "t%llu", seq % 1000);
	for (i = 0; i < ARRAY_SIZE(bytes); i++)
		bytes[i] = (seq + i) & 0xff;
	ltt_event_call(ltt_test_event, seq, name, tag, bytes);
}

static ssize_t test_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	u64 n, seq;
	int ret;

	ret = kstrtoull_from_user(ubuf, count, 0, &n);
	if (ret)
		return ret;
	if (n > LTT_TEST_MAX_EVENTS)
		return -EINVAL;
	for (seq = 0; seq < n; seq++) {
		emit_one(seq);
		if (!(seq & 1023)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return count;
}

static int test_open(struct inode *inode, struct file *file)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

static const struct proc_ops test_proc_ops = {
	.proc_open = test_open,
	.proc_write = test_write,
};

static struct proc_dir_entry *test_proc;

static int test_init(void)
{
	test_proc = proc_create(LTT_KABI_TEST_PROC_NAME, 0200, NULL, &test_proc_ops);
	return test_proc ? 0 : -ENOMEM;
}

static void test_exit(void)
{
	proc_remove(test_proc);
}

LTT_PROBE(test, test_init, test_exit, LTT_EVENT_DESC(ltt_test_event));
