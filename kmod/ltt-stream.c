// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-stream.c - stream file descriptors: the reader of one CPU's ring
 * buffer (ioctls, poll, read-only mmap, splice).
 */
#include <linux/anon_inodes.h>
#include <linux/cpu.h>
#include <linux/fs.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/pipe_fs_i.h>
#include <linux/poll.h>
#include <linux/slab.h>
#include <linux/splice.h>
#include <linux/uaccess.h>

#include "ltt-tracer.h"
#include "wrapper/ltt-wrapper.h"

struct ltt_stream {
	struct ltt_channel *chan;	/* a reference */
	struct ltt_rb_buf *buf;
};

static int stream_release(struct inode *inode, struct file *file)
{
	struct ltt_stream *st = file->private_data;

	mutex_lock(&st->buf->lock);
	ltt_rb_put_subbuf(st->buf);	/* a packet still held goes back */
	mutex_unlock(&st->buf->lock);
	ltt_channel_put(st->chan);
	kfree(st);
	return 0;
}

/* GET_NEXT_SUBBUF, or GET_HELD_SUBBUF when @held. */
static int stream_get(struct ltt_rb_buf *buf, void __user *uarg, bool held)
{
	struct ltt_kabi_subbuf sb = { 0 };
	int ret;

	/* fail on bad memory before taking anything */
	if (copy_to_user(uarg, &sb, sizeof(sb)))
		return -EFAULT;
	mutex_lock(&buf->lock);
	if (held)
		ret = ltt_rb_get_held(buf, &sb.offset, &sb.content_size, &sb.seq, &sb.events);
	else
		ret = ltt_rb_get_subbuf(buf, &sb.offset, &sb.content_size, &sb.seq,
					&sb.events);
	mutex_unlock(&buf->lock);
	if (ret)
		return ret;
	sb.packet_size = buf->cfg->subbuf_size;
	sb.mmap_size = ltt_rb_map_size(buf->cfg);
	/* memory unmapped since the check: the packet stays held (PUT it) */
	if (copy_to_user(uarg, &sb, sizeof(sb)))
		return -EFAULT;
	return 0;
}

static int stream_stats(struct ltt_rb_buf *buf, void __user *uarg)
{
	struct ltt_kabi_stream_stats stats = { 0 };

	stats.events_discarded = local_read(&buf->events_lost);
	mutex_lock(&buf->lock);
	stats.packets_lost = buf->packets_lost;
	mutex_unlock(&buf->lock);
	return copy_to_user(uarg, &stats, sizeof(stats)) ? -EFAULT : 0;
}

/* SNAPSHOT_SPAN: what a snapshot may read now. */
static int stream_snapshot_span(struct ltt_rb_buf *buf, void __user *uarg)
{
	struct ltt_kabi_snapshot_span span = { 0 };

	mutex_lock(&buf->lock);
	ltt_rb_snapshot_span(buf, &span.begin, &span.end, &span.produced);
	mutex_unlock(&buf->lock);
	span.packet_size = buf->cfg->subbuf_size;
	return copy_to_user(uarg, &span, sizeof(span)) ? -EFAULT : 0;
}

/* SNAPSHOT_PEEK: one packet copied to the caller, not consumed. */
static int stream_snapshot_peek(struct ltt_rb_buf *buf, void __user *uarg)
{
	struct ltt_kabi_snapshot_peek pk;
	int ret;

	if (copy_from_user(&pk, uarg, sizeof(pk)))
		return -EFAULT;
	if (pk.reserved[0] || pk.reserved[1] || pk.pos & (buf->cfg->subbuf_size - 1) ||
	    pk.buf_len < buf->cfg->subbuf_size || pk.pos > ULONG_MAX)
		return -EINVAL;
	mutex_lock(&buf->lock);
	ret = ltt_rb_snapshot_peek(buf, (unsigned long)pk.pos, u64_to_user_ptr(pk.buf),
				   &pk.content_size, &pk.events);
	mutex_unlock(&buf->lock);
	if (ret)
		return ret;
	pk.seq = pk.pos >> buf->cfg->subbuf_order;
	return copy_to_user(uarg, &pk, sizeof(pk)) ? -EFAULT : 0;
}

static long stream_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ltt_stream *st = file->private_data;
	struct ltt_rb_buf *buf = st->buf;
	int ret;

	switch (cmd) {
	case LTT_KABI_GET_NEXT_SUBBUF:
		return stream_get(buf, (void __user *)arg, false);
	case LTT_KABI_GET_HELD_SUBBUF:
		return stream_get(buf, (void __user *)arg, true);
	case LTT_KABI_PUT_SUBBUF:
		if (arg)
			return -EINVAL;
		mutex_lock(&buf->lock);
		ret = ltt_rb_put_subbuf(buf);
		mutex_unlock(&buf->lock);
		return ret;
	case LTT_KABI_FLUSH:
		if (arg)
			return -EINVAL;
		/*
		 * finalized: flushed once for all, and the reader may have seen
		 * the end.  The lock orders this against ltt_rb_finalize().
		 */
		mutex_lock(&buf->lock);
		if (!smp_load_acquire(&buf->finalized))
			ltt_rb_flush(buf, true);
		mutex_unlock(&buf->lock);
		return 0;
	case LTT_KABI_STREAM_STATS:
		return stream_stats(buf, (void __user *)arg);
	case LTT_KABI_SNAPSHOT_SPAN:
		return stream_snapshot_span(buf, (void __user *)arg);
	case LTT_KABI_SNAPSHOT_PEEK:
		return stream_snapshot_peek(buf, (void __user *)arg);
	default:
		return -ENOTTY;
	}
}

static __poll_t stream_poll(struct file *file, poll_table *wait)
{
	struct ltt_stream *st = file->private_data;
	struct ltt_rb_buf *buf = st->buf;
	bool finalized;

	poll_wait(file, &buf->read_wait, wait);
	/* acquire: pairs with ltt_rb_finalize(): its final packets are seen */
	finalized = smp_load_acquire(&buf->finalized);
	if (ltt_rb_ready(buf))
		return EPOLLIN | EPOLLRDNORM;
	return finalized ? EPOLLHUP : 0;
}

/* mmap: the buffer's pages, read-only, faulted in one at a time. */
static vm_fault_t stream_fault(struct vm_fault *vmf)
{
	struct ltt_stream *st = vmf->vma->vm_file->private_data;
	struct ltt_rb_buf *buf = st->buf;
	struct page *page;

	if (vmf->pgoff >= buf->nr_pages)
		return VM_FAULT_SIGBUS;
	page = buf->pages[vmf->pgoff];
	get_page(page);
	vmf->page = page;
	return 0;
}

static const struct vm_operations_struct stream_vm_ops = {
	.fault = stream_fault,
};

static int stream_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ltt_stream *st = file->private_data;
	unsigned long len = vma->vm_end - vma->vm_start;

	if (vma->vm_flags & VM_WRITE)
		return -EPERM;
	if (vma->vm_pgoff || len > ltt_rb_map_size(st->buf->cfg))
		return -EINVAL;
	ltt_vm_flags_mod(vma, VM_DONTEXPAND | VM_DONTDUMP, VM_MAYWRITE);
	vma->vm_ops = &stream_vm_ops;
	return 0;
}

/*
 * splice: the held packet's pages go into the pipe by reference (the
 * kernel's nosteal ops: the pipe's page references keep them alive, even
 * after the module is gone).  The reader must drain the pipe before
 * PUT_SUBBUF: after it, writers may reuse those pages.
 */
static ssize_t stream_splice_read(struct file *in, loff_t *ppos, struct pipe_inode_info *pipe,
				  size_t len, unsigned int flags)
{
	struct ltt_stream *st = in->private_data;
	struct ltt_rb_buf *buf = st->buf;
	unsigned long s = buf->cfg->subbuf_size;
	ssize_t total = 0, ret = 0;

	mutex_lock(&buf->lock);
	if (!buf->held) {
		ret = -EINVAL;
		goto out;
	}
	while (len && buf->read_off < s) {
		unsigned long at = (buf->held_slot << buf->cfg->subbuf_order) + buf->read_off;
		size_t off = offset_in_page(at);
		size_t n = min3(len, (size_t)(PAGE_SIZE - off), (size_t)(s - buf->read_off));
		struct pipe_buffer pb = {
			.page = buf->pages[at >> PAGE_SHIFT],
			.offset = off,
			.len = n,
			.ops = &nosteal_pipe_buf_ops,
		};

		get_page(pb.page);
		ret = add_to_pipe(pipe, &pb);	/* drops our reference on failure */
		if (ret < 0)
			break;
		buf->read_off += n;
		len -= n;
		total += n;
	}
out:
	mutex_unlock(&buf->lock);
	return total ? total : ret;
}

static const struct file_operations stream_fops = {
	.owner = THIS_MODULE,
	.release = stream_release,
	.unlocked_ioctl = stream_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
	.poll = stream_poll,
	.mmap = stream_mmap,
	.splice_read = stream_splice_read,
};

/**
 * ltt_stream_fd() - a reader fd of @chan's buffer of @cpu, which exists
 * (ltt-session.c's STREAM: which CPU, once, its buffer made)
 *
 * Process context, ltt_mutex held.  Return: the fd; -ENOMEM, -EMFILE...
 */
int ltt_stream_fd(struct ltt_channel *chan, unsigned int cpu)
{
	struct ltt_stream *st = kzalloc(sizeof(*st), GFP_KERNEL);
	int fd;

	if (!st)
		return -ENOMEM;
	kref_get(&chan->ref);
	st->chan = chan;
	st->buf = chan->bufs[cpu];
	fd = anon_inode_getfd("[ltt_stream]", &stream_fops, st, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		/* never the last reference: the channel fd holds one */
		refcount_dec(&chan->ref.refcount);
		kfree(st);
	}
	return fd;
}
