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
 *
 * Writing "N irq" records the same N events while two hrtimers of this
 * CPU, one in hard interrupt context and one in softirq context, record
 * more with seq = 2^63 + k (k = 0, 1, 2, ... across both), every
 * LTT_TEST_IRQ_PERIOD_US, nesting inside the process's writes; "N irq K"
 * stops the timers after K such events, so that a test can size a buffer
 * that holds everything however slow the machine is.  Reading
 * /proc/ltt-test then says "irq_events K": how many the timers recorded
 * during the last such run, and "attached A": how many tracepoint probes
 * the tracer has attached in the kernel now (0 while no event that needs
 * one is enabled anywhere), and "kprobes P": how many kernel probes
 * (LTT_KABI_KPROBE) it has armed.
 */
#include <linux/bits.h>
#include <linux/hrtimer.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/proc_fs.h>
#include <linux/sched.h>
#include <linux/uaccess.h>

#include "../ltt-event.h"
#include "../wrapper/ltt-wrapper.h"

#define LTT_TEST_MAX_EVENTS	100000000ULL
#define LTT_TEST_IRQ_SEQ	BIT_ULL(63)
#define LTT_TEST_IRQ_PERIOD_US	50

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

static DEFINE_MUTEX(irq_mutex);		/* one "N irq" run at a time */
static struct hrtimer hard_timer, soft_timer;
static atomic64_t irq_events;
static s64 irq_limit;			/* set under irq_mutex before the timers run */

static enum hrtimer_restart irq_timer_fn(struct hrtimer *t)
{
	s64 k = atomic64_fetch_add_unless(&irq_events, 1, READ_ONCE(irq_limit));

	if (k == READ_ONCE(irq_limit))
		return HRTIMER_NORESTART;
	emit_one(LTT_TEST_IRQ_SEQ + k);
	hrtimer_forward_now(t, ns_to_ktime(LTT_TEST_IRQ_PERIOD_US * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

static int emit(u64 n)
{
	u64 seq;

	for (seq = 0; seq < n; seq++) {
		emit_one(seq);
		if (!(seq & 1023)) {
			if (fatal_signal_pending(current))
				return -EINTR;
			cond_resched();
		}
	}
	return 0;
}

static int emit_with_irqs(u64 n, u64 limit)
{
	int ret;

	if (mutex_lock_interruptible(&irq_mutex))
		return -EINTR;
	atomic64_set(&irq_events, 0);
	WRITE_ONCE(irq_limit, limit ? (s64)limit : S64_MAX);
	hrtimer_start(&hard_timer, ns_to_ktime(LTT_TEST_IRQ_PERIOD_US * NSEC_PER_USEC),
		      HRTIMER_MODE_REL_PINNED_HARD);
	hrtimer_start(&soft_timer, ns_to_ktime(LTT_TEST_IRQ_PERIOD_US * NSEC_PER_USEC / 2),
		      HRTIMER_MODE_REL_PINNED_SOFT);
	ret = emit(n);
	hrtimer_cancel(&hard_timer);
	hrtimer_cancel(&soft_timer);
	mutex_unlock(&irq_mutex);
	return ret;
}

static ssize_t test_write(struct file *file, const char __user *ubuf, size_t count,
			  loff_t *ppos)
{
	char buf[48], *sp, *lim;
	bool irq = false;
	u64 n, limit = 0;
	int ret;

	if (!count || count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	sp = strchr(buf, ' ');
	if (sp) {
		*sp++ = '\0';
		lim = strchr(sp, ' ');
		if (lim) {
			*lim++ = '\0';
			ret = kstrtoull(lim, 0, &limit);
			if (ret || !limit || limit > LTT_TEST_MAX_EVENTS)
				return -EINVAL;
		}
		if (strcmp(sp, "irq") && strcmp(sp, "irq\n"))
			return -EINVAL;
		irq = true;
	}
	ret = kstrtoull(buf, 0, &n);
	if (ret)
		return ret;
	if (n > LTT_TEST_MAX_EVENTS)
		return -EINVAL;
	ret = irq ? emit_with_irqs(n, limit) : emit(n);
	return ret ? ret : count;
}

static ssize_t test_read(struct file *file, char __user *ubuf, size_t count, loff_t *ppos)
{
	char buf[96];
	int len = snprintf(buf, sizeof(buf), "irq_events %lld\nattached %u\nkprobes %u\n",
			   (long long)atomic64_read(&irq_events), ltt_tracepoints_attached(),
			   ltt_kprobes_armed_count());

	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static int test_open(struct inode *inode, struct file *file)
{
	return capable(CAP_SYS_ADMIN) ? 0 : -EPERM;
}

static const struct proc_ops test_proc_ops = {
	.proc_open = test_open,
	.proc_write = test_write,
	.proc_read = test_read,
};

static struct proc_dir_entry *test_proc;

static int test_init(void)
{
	ltt_hrtimer_setup(&hard_timer, irq_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_HARD);
	ltt_hrtimer_setup(&soft_timer, irq_timer_fn, CLOCK_MONOTONIC, HRTIMER_MODE_REL_PINNED_SOFT);
	test_proc = proc_create(LTT_KABI_TEST_PROC_NAME, 0600, NULL, &test_proc_ops);
	return test_proc ? 0 : -ENOMEM;
}

static void test_exit(void)
{
	proc_remove(test_proc);
}

LTT_PROBE(test, test_init, test_exit, LTT_EVENT_DESC(ltt_test_event));
