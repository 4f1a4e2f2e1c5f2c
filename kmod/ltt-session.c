// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-session.c - session and channel file descriptors.
 *
 * A session fd holds the session's first reference; each channel holds one
 * on its session, each channel fd and stream fd one on its channel.
 * Closing a session fd stops its channels for good; closing a channel fd
 * detaches its events and finalizes its streams.  Everything is freed by
 * the last reference, whatever the order of the closes.
 */
#include <linux/anon_inodes.h>
#include <linux/cpu.h>
#include <linux/cpuhotplug.h>
#include <linux/cpumask.h>
#include <linux/fs.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/nospec.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/tracepoint.h>
#include <linux/uaccess.h>

#include "ltt-filter.h"
#include "ltt-tracer.h"
#include "wrapper/ltt-wrapper.h"

/* ---- CPU hotplug: a buffer for each CPU that comes online ---- */

static enum cpuhp_state ltt_cpuhp_state;

/**
 * ltt_channel_buf_add() - give @chan a buffer for @cpu if it has none
 *
 * Process context, CPU hotplug held off (read or write).  Writes to
 * @chan->bufs are serialised by that and, outside hotplug callbacks (which
 * exclude every reader of the lock), by ltt_mutex.  Starts the buffer's
 * switch timer when the channel records already.  Return: 0 or -ENOMEM.
 */
static int ltt_channel_buf_add(struct ltt_channel *chan, unsigned int cpu)
{
	struct ltt_rb_buf *buf;

	if (chan->bufs[cpu])
		return 0;
	buf = ltt_rb_buf_create(&chan->cfg, cpu);
	if (!buf)
		return -ENOMEM;
	/* release: a probe on @cpu, or poll, sees it initialized */
	smp_store_release(&chan->bufs[cpu], buf);
	if (READ_ONCE(chan->active))
		ltt_rb_timer_start(buf);
	wake_up_interruptible(&chan->stream_wait);
	return 0;
}

/*
 * Before @cpu can run (prepare stage, on the CPU bringing it up): its
 * buffer in channel @node, or the CPU does not come online (-ENOMEM), so
 * that no probe ever runs on a CPU without its buffer.  A CPU going down
 * keeps its buffer: what it recorded is still to be read.  Also called by
 * cpuhp_state_add_instance() for each CPU online when a channel is made.
 */
static int channel_cpu_prepare(unsigned int cpu, struct hlist_node *node)
{
	struct ltt_channel *chan = hlist_entry(node, struct ltt_channel, cpuhp_node);
	int ret = ltt_channel_buf_add(chan, cpu);

	cond_resched();
	return ret;
}

/* Module init: the dynamic hotplug state each channel is an instance of. */
int ltt_channels_hotplug_init(void)
{
	int ret = cpuhp_setup_state_multi(CPUHP_BP_PREPARE_DYN, "ltt:channel_prepare",
					  channel_cpu_prepare, NULL);

	if (ret < 0)
		return ret;
	ltt_cpuhp_state = ret;
	return 0;
}

/* Module exit: no channel is left (each channel fd pins the module). */
void ltt_channels_hotplug_exit(void)
{
	cpuhp_remove_multi_state(ltt_cpuhp_state);
}

/* ---- timers ---- */

static void read_timer_fn(struct timer_list *t)
{
	struct ltt_channel *chan = ltt_from_timer(chan, t, read_timer);
	unsigned int cpu;

	for_each_possible_cpu(cpu) {
		struct ltt_rb_buf *buf = READ_ONCE(chan->bufs[cpu]);

		if (buf && ltt_rb_ready(buf))
			wake_up_interruptible(&buf->read_wait);
	}
	if (!READ_ONCE(chan->read_timer_stop))
		mod_timer(t, jiffies + chan->read_timer_jiffies);
}

/* Hotplug held off: no buffer appears meanwhile (see ltt_channel_buf_add()). */
static void channel_timers_start(struct ltt_channel *chan)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu)
		if (chan->bufs[cpu])
			ltt_rb_timer_start(chan->bufs[cpu]);
	cpus_read_unlock();
	if (chan->read_timer_jiffies && !timer_pending(&chan->read_timer)) {
		WRITE_ONCE(chan->read_timer_stop, false);
		mod_timer(&chan->read_timer, jiffies + chan->read_timer_jiffies);
	}
}

static void channel_timers_stop(struct ltt_channel *chan)
{
	unsigned int cpu;

	cpus_read_lock();
	for_each_possible_cpu(cpu)
		if (chan->bufs[cpu])
			ltt_rb_timer_stop(chan->bufs[cpu]);
	cpus_read_unlock();
	WRITE_ONCE(chan->read_timer_stop, true);
	ltt_timer_delete_sync(&chan->read_timer);
}

/* ---- START and STOP ---- */

static int session_start(struct ltt_session *s)
{
	struct ltt_channel *chan;

	lockdep_assert_held(&ltt_mutex);
	if (s->active)
		return -EBUSY;
	s->active = true;
	s->started_once = true;
	list_for_each_entry(chan, &s->channels, node) {
		WRITE_ONCE(chan->active, 1);
		channel_timers_start(chan);
	}
	ltt_statedump_run(s);
	return 0;
}

/* Stop recording, then close every open packet so it can be read. */
static int session_stop(struct ltt_session *s)
{
	struct ltt_channel *chan;
	unsigned int cpu;

	lockdep_assert_held(&ltt_mutex);
	if (!s->active)
		return -EBUSY;
	s->active = false;
	list_for_each_entry(chan, &s->channels, node)
		WRITE_ONCE(chan->active, 0);
	/* probes test ->active with preemption disabled: none is still inside */
	synchronize_rcu();
	list_for_each_entry(chan, &s->channels, node) {
		channel_timers_stop(chan);
		for_each_possible_cpu(cpu)
			if (READ_ONCE(chan->bufs[cpu]))
				ltt_rb_flush(chan->bufs[cpu], true);
	}
	return 0;
}

/* ---- channel fd ---- */

static int channel_release(struct inode *inode, struct file *file)
{
	struct ltt_channel *chan = file->private_data;
	unsigned int cpu;

	mutex_lock(&ltt_mutex);
	WRITE_ONCE(chan->active, 0);
	ltt_events_detach_channel(chan);
	list_del(&chan->node);
	chan->session->nr_channels--;
	mutex_unlock(&ltt_mutex);
	/* no probe (tracepoint or direct call) is still writing into it */
	tracepoint_synchronize_unregister();
	/* no CPU coming up adds a buffer any more */
	cpuhp_state_remove_instance_nocalls(ltt_cpuhp_state, &chan->cpuhp_node);
	channel_timers_stop(chan);
	for_each_possible_cpu(cpu)
		if (chan->bufs[cpu])
			ltt_rb_finalize(chan->bufs[cpu]);
	ltt_channel_put(chan);
	return 0;
}

/* Copy and validate an event request: NUL-terminated name, reserved zero. */
static int get_event_arg(struct ltt_kabi_event *ev, void __user *uarg, bool enable)
{
	if (copy_from_user(ev, uarg, sizeof(*ev)))
		return -EFAULT;
	if (memchr_inv(ev->reserved, 0, sizeof(ev->reserved)) ||
	    !memchr(ev->name, '\0', sizeof(ev->name)) || !ev->name[0])
		return -EINVAL;
	if (enable ? ev->id == U32_MAX : ev->id != 0)
		return -EINVAL;
	return 0;
}

/* CHANNEL_MEM: what the buffer of one CPU of @chan holds (0: none yet). */
static int channel_mem(struct ltt_channel *chan, void __user *uarg)
{
	struct ltt_kabi_channel_mem m;
	struct ltt_rb_buf *buf;

	if (copy_from_user(&m, uarg, sizeof(m)))
		return -EFAULT;
	if (m.reserved0 || m.bytes || m.data_bytes || memchr_inv(m.reserved, 0, sizeof(m.reserved)))
		return -EINVAL;
	if (m.cpu >= nr_cpu_ids)
		return -ENOENT;
	m.cpu = array_index_nospec(m.cpu, nr_cpu_ids);
	if (!cpu_possible(m.cpu))
		return -ENOENT;
	buf = READ_ONCE(chan->bufs[m.cpu]);
	if (buf)
		ltt_rb_mem(buf, &m.bytes, &m.data_bytes);
	return copy_to_user(uarg, &m, sizeof(m)) ? -EFAULT : 0;
}

/*
 * STREAM: the reader fd of @chan's buffer of @cpu (a possible CPU); with
 * @alloc, the buffer made when the CPU has not been online since the
 * channel was (a daemon older than ABI 1.10 asks for every possible
 * CPU), else -EAGAIN for such a CPU.  Process context; takes ltt_mutex
 * and the CPU hotplug lock.  Return: the fd; -EBUSY when that stream was
 * handed out already; -EAGAIN (above); -ENOMEM, -EMFILE...
 */
static int channel_stream(struct ltt_channel *chan, unsigned int cpu, bool alloc)
{
	int fd;

	mutex_lock(&ltt_mutex);
	if (test_bit(cpu, chan->stream_taken)) {
		fd = -EBUSY;
		goto out;
	}
	cpus_read_lock();
	fd = !chan->bufs[cpu] && !alloc ? -EAGAIN : ltt_channel_buf_add(chan, cpu);
	cpus_read_unlock();
	if (!fd)
		fd = ltt_stream_fd(chan, cpu);
	if (fd >= 0)
		set_bit(cpu, chan->stream_taken);
out:
	mutex_unlock(&ltt_mutex);
	return fd;
}

static long channel_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ltt_channel *chan = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct ltt_kabi_stream st;
	struct ltt_kabi_event ev;
	int ret;

	switch (cmd) {
	case LTT_KABI_CONTEXT_ADD:
		return ltt_context_add_user(chan, uarg);
	case LTT_KABI_STREAM:
		if (copy_from_user(&st, uarg, sizeof(st)))
			return -EFAULT;
		if (memchr_inv(st.reserved, 0, sizeof(st.reserved)) ||
		    st.flags & ~LTT_KABI_STREAM_IF_ALLOCATED)
			return -EINVAL;
		if (st.cpu >= nr_cpu_ids)
			return -ENOENT;
		st.cpu = array_index_nospec(st.cpu, nr_cpu_ids);
		if (!cpu_possible(st.cpu))
			return -ENOENT;
		return channel_stream(chan, st.cpu, !(st.flags & LTT_KABI_STREAM_IF_ALLOCATED));
	case LTT_KABI_EVENT_ENABLE:
	case LTT_KABI_EVENT_DISABLE:
		ret = get_event_arg(&ev, uarg, cmd == LTT_KABI_EVENT_ENABLE);
		if (ret)
			return ret;
		mutex_lock(&ltt_mutex);
		if (cmd == LTT_KABI_EVENT_ENABLE)
			ret = ltt_event_enable(chan, ev.name, ev.id);
		else
			ret = ltt_event_disable(chan, ev.name);
		mutex_unlock(&ltt_mutex);
		return ret;
	case LTT_KABI_EVENT_ENABLE_FILTERED:
	case LTT_KABI_EVENT_SET_FILTER:
		return ltt_filter_ioctl(chan, cmd, uarg);
	case LTT_KABI_CHANNEL_MEM:
		return channel_mem(chan, uarg);
	default:
		return -ENOTTY;
	}
}

/* Readable while some CPU's buffer has no stream fd yet (a CPU came online). */
static __poll_t channel_poll(struct file *file, poll_table *wait)
{
	struct ltt_channel *chan = file->private_data;
	unsigned int cpu;

	poll_wait(file, &chan->stream_wait, wait);
	for_each_possible_cpu(cpu)
		if (READ_ONCE(chan->bufs[cpu]) && !test_bit(cpu, chan->stream_taken))
			return EPOLLIN | EPOLLRDNORM;
	return 0;
}

static const struct file_operations channel_fops = {
	.owner = THIS_MODULE,
	.release = channel_release,
	.poll = channel_poll,
	.unlocked_ioctl = channel_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

static bool pow2_in(u64 v, u64 min, u64 max)
{
	return v >= min && v <= max && is_power_of_2(v);
}

static bool timer_ok(u32 us)
{
	return !us || us >= LTT_KABI_MIN_TIMER_US;
}

static int channel_arg_valid(const struct ltt_kabi_channel *c)
{
	if (memchr_inv(c->reserved, 0, sizeof(c->reserved)) ||
	    !pow2_in(c->subbuf_size, LTT_KABI_MIN_SUBBUF_SIZE, LTT_KABI_MAX_SUBBUF_SIZE) ||
	    !pow2_in(c->num_subbuf, LTT_KABI_MIN_NUM_SUBBUF, LTT_KABI_MAX_NUM_SUBBUF) ||
	    c->subbuf_size * c->num_subbuf > LTT_KABI_MAX_BUFFER_PER_CPU ||
	    c->subbuf_size < PAGE_SIZE || c->overwrite > 1 ||
	    !timer_ok(c->switch_timer_us) || !timer_ok(c->read_timer_us))
		return -EINVAL;
	return 0;
}

static struct ltt_channel *channel_create(struct ltt_session *s, const struct ltt_kabi_channel *c)
{
	struct ltt_channel *chan = kzalloc(sizeof(*chan), GFP_KERNEL);
	struct ltt_rb_config *cfg;

	if (!chan)
		return NULL;
	kref_init(&chan->ref);
	INIT_LIST_HEAD(&chan->events);
	timer_setup(&chan->read_timer, read_timer_fn, 0);
	chan->read_timer_stop = true;
	chan->read_timer_jiffies = c->read_timer_us ?
				   max(1UL, usecs_to_jiffies(c->read_timer_us)) : 0;
	cfg = &chan->cfg;
	cfg->subbuf_size = c->subbuf_size;
	cfg->num_subbuf = c->num_subbuf;
	cfg->subbuf_order = ilog2(c->subbuf_size);
	cfg->buf_order = ilog2(c->subbuf_size * c->num_subbuf);
	cfg->overwrite = c->overwrite;
	cfg->wakeup_by_writer = !c->read_timer_us;
	cfg->stream_id = c->stream_id;
	memcpy(cfg->uuid, c->uuid, sizeof(cfg->uuid));
	cfg->switch_timer_jiffies = c->switch_timer_us ?
				    max(1UL, usecs_to_jiffies(c->switch_timer_us)) : 0;
	init_waitqueue_head(&chan->stream_wait);
	chan->bufs = kcalloc(nr_cpu_ids, sizeof(*chan->bufs), GFP_KERNEL);
	chan->stream_taken = bitmap_zalloc(nr_cpu_ids, GFP_KERNEL);
	if (!chan->bufs || !chan->stream_taken)
		goto fail;
	/* the online CPUs' buffers, hotplug held off; then each CPU's as it comes up */
	if (cpuhp_state_add_instance(ltt_cpuhp_state, &chan->cpuhp_node))
		goto fail;
	return chan;
fail:
	ltt_channel_put(chan);
	return NULL;
}

static int session_add_channel(struct ltt_session *s, void __user *uarg)
{
	struct ltt_kabi_channel c;
	struct ltt_channel *chan;
	int ret, fd;

	if (copy_from_user(&c, uarg, sizeof(c)))
		return -EFAULT;
	ret = channel_arg_valid(&c);
	if (ret)
		return ret;
	mutex_lock(&ltt_mutex);
	if (s->started_once) {
		ret = -EBUSY;
		goto out;
	}
	if (s->nr_channels >= LTT_MAX_CHANNELS) {
		ret = -ENOSPC;
		goto out;
	}
	chan = channel_create(s, &c);
	if (!chan) {
		ret = -ENOMEM;
		goto out;
	}
	fd = anon_inode_getfd("[ltt_channel]", &channel_fops, chan, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		cpuhp_state_remove_instance_nocalls(ltt_cpuhp_state, &chan->cpuhp_node);
		ltt_channel_put(chan);
		ret = fd;
		goto out;
	}
	/* from here the fd owns the channel, and the channel a session ref */
	kref_get(&s->ref);
	chan->session = s;
	chan->tracking = s->tracking;
	list_add_tail(&chan->node, &s->channels);
	s->nr_channels++;
	ret = fd;
out:
	mutex_unlock(&ltt_mutex);
	return ret;
}

/* ---- session fd ---- */

static long session_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ltt_session *s = file->private_data;
	int ret;

	switch (cmd) {
	case LTT_KABI_CHANNEL:
		return session_add_channel(s, (void __user *)arg);
	case LTT_KABI_START:
	case LTT_KABI_STOP:
		if (arg)
			return -EINVAL;
		mutex_lock(&ltt_mutex);
		ret = cmd == LTT_KABI_START ? session_start(s) : session_stop(s);
		mutex_unlock(&ltt_mutex);
		return ret;
	case LTT_KABI_STATEDUMP:
		if (arg)
			return -EINVAL;
		mutex_lock(&ltt_mutex);
		ret = s->active ? 0 : -EBUSY;
		if (!ret)
			ltt_statedump_run(s);
		mutex_unlock(&ltt_mutex);
		return ret;
	case LTT_KABI_PROBE:
		return ltt_kprobe_create_fd(s, (void __user *)arg);
	default:
		return ltt_tracker_ioctl(s, cmd, (void __user *)arg);
	}
}

static int session_release(struct inode *inode, struct file *file)
{
	struct ltt_session *s = file->private_data;

	mutex_lock(&ltt_mutex);
	if (s->active)
		session_stop(s);
	s->started_once = true;	/* no START can come any more; no new channel */
	mutex_unlock(&ltt_mutex);
	ltt_session_put(s);
	return 0;
}

static const struct file_operations session_fops = {
	.owner = THIS_MODULE,
	.release = session_release,
	.unlocked_ioctl = session_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};

/**
 * ltt_session_create_fd() - a new, stopped session with no channel
 *
 * Process context.  Return: the session's fd, or -ENOSPC (too many
 * sessions), -ENOMEM, -EMFILE...
 */
int ltt_session_create_fd(void)
{
	struct ltt_session *s;
	int fd;

	if (atomic_inc_return(&ltt_nr_sessions) > LTT_MAX_SESSIONS) {
		atomic_dec(&ltt_nr_sessions);
		return -ENOSPC;
	}
	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s) {
		atomic_dec(&ltt_nr_sessions);
		return -ENOMEM;
	}
	kref_init(&s->ref);
	INIT_LIST_HEAD(&s->channels);
	fd = anon_inode_getfd("[ltt_session]", &session_fops, s, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		ltt_session_put(s);
	return fd;
}
