// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-filter.c - event filters: the two channel ioctls that set them
 * (copy, bounds, validation against the event's own fields), the $ctx
 * values the kernel provides, and the call the probes make before they
 * reserve (ltt-filter.h).
 */
#include <linux/cred.h>
#include <linux/mm.h>
#include <linux/pid.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/smp.h>
#include <linux/uaccess.h>
#include <linux/uidgid.h>

#include "ltt-filter.h"
#include "ltt-tracer.h"

/* The VM reads kernel fields with the numbers of user space's (filter-libc.h). */
static_assert((int)LTT_KABI_FIELD_INTEGER == (int)LTT_UST_TYPE_INTEGER);
static_assert((int)LTT_KABI_FIELD_STRING == (int)LTT_UST_TYPE_STRING);
static_assert((int)LTT_KABI_FIELD_ARRAY == (int)LTT_UST_TYPE_ARRAY);
static_assert((int)LTT_KABI_FIELD_SEQUENCE == (int)LTT_UST_TYPE_SEQUENCE);

/* Which context type of the record path ($ctx.NAME of the filters) reads each $ctx. */
static const u8 ctx_type[LTT_FILTER_NR_CTX] = {
	[LTT_FILTER_CTX_VPID] = LTT_KABI_CTX_VPID,
	[LTT_FILTER_CTX_VTID] = LTT_KABI_CTX_VTID,
	[LTT_FILTER_CTX_PID] = LTT_KABI_CTX_PID,
	[LTT_FILTER_CTX_TID] = LTT_KABI_CTX_TID,
	[LTT_FILTER_CTX_CPU_ID] = LTT_KABI_CTX_CPU_ID,
	[LTT_FILTER_CTX_VUID] = LTT_KABI_CTX_VUID,
	[LTT_FILTER_CTX_VGID] = LTT_KABI_CTX_VGID,
	[LTT_FILTER_CTX_VPPID] = LTT_KABI_CTX_VPPID,
};

/*
 * $ctx values of the current task and CPU, read as the context fields
 * are (ltt_context_value()); -1: absent (pthread_id).
 */
static notrace int kernel_ctx(void *priv, unsigned int id, struct ltt_filter_value *out)
{
	struct task_struct *t = current;

	if (id == LTT_FILTER_CTX_PROCNAME) {
		out->type = LTT_FTYPE_STR;
		out->v.str.p = t->comm;
		out->v.str.n = sizeof(t->comm);
		return 0;
	}
	if (id >= LTT_FILTER_NR_CTX || !ctx_type[id])
		return -1;
	out->type = LTT_FTYPE_S64;
	out->v.s = ltt_context_value(ctx_type[id]);
	return 0;
}

notrace bool ltt_kfilter_accept(const struct ltt_kfilter *f, const struct ltt_filter_arg *args,
				unsigned int nr)
{
	const struct ltt_filter_env env = {
		.args = args,
		.nr_args = nr,
		.ctx = kernel_ctx,
	};
	unsigned int i;

	for (i = 0; i < f->nr; i++)
		if (ltt_filter_run(f->prog[i], &env))
			return true;
	return false;
}

/* The argument, checked as EVENT_ENABLE's (SET_FILTER: id 0). */
static int get_filter_arg(struct ltt_kabi_event_filter *a, const void __user *uarg, bool enable)
{
	if (copy_from_user(a, uarg, sizeof(*a)))
		return -EFAULT;
	if (memchr_inv(a->reserved, 0, sizeof(a->reserved)) ||
	    memchr_inv(a->event.reserved, 0, sizeof(a->event.reserved)) ||
	    !memchr(a->event.name, '\0', sizeof(a->event.name)) || !a->event.name[0] ||
	    a->nr_programs > LTT_KABI_FILTER_MAX_PROGRAMS)
		return -EINVAL;
	if (enable ? a->event.id == U32_MAX : a->event.id != 0)
		return -EINVAL;
	return 0;
}

/*
 * Copy the programs of @a into a new filter (NULL when there are none).
 * Return: 0, -EINVAL (a length or reserved word out of bounds), -EFAULT,
 * -ENOMEM.
 */
static int copy_programs(const struct ltt_kabi_event_filter *a, struct ltt_kfilter **ret)
{
	struct ltt_kabi_filter_prog *progs;
	struct ltt_kfilter *f = NULL;
	size_t total = 0, off = 0;
	unsigned int i;
	int err = -EINVAL;

	*ret = NULL;
	if (!a->nr_programs)
		return 0;
	progs = kmalloc_array(a->nr_programs, sizeof(*progs), GFP_KERNEL);
	if (!progs)
		return -ENOMEM;
	if (copy_from_user(progs, u64_to_user_ptr(a->programs),
			   a->nr_programs * sizeof(*progs))) {
		err = -EFAULT;
		goto out;
	}
	for (i = 0; i < a->nr_programs; i++) {
		if (progs[i].reserved || progs[i].len < LTT_FILTER_HEADER_LEN ||
		    progs[i].len > LTT_KABI_FILTER_MAX_LEN)
			goto out;
		total += progs[i].len;
	}
	if (total > LTT_KABI_FILTER_MAX_TOTAL)
		goto out;
	f = kvzalloc(struct_size(f, code, total), GFP_KERNEL);
	err = -ENOMEM;
	if (!f)
		goto out;
	err = -EFAULT;
	for (i = 0; i < a->nr_programs; i++) {
		if (copy_from_user(f->code + off, u64_to_user_ptr(progs[i].code), progs[i].len))
			goto out;
		f->prog[i] = f->code + off;
		f->len[i] = progs[i].len;
		off += progs[i].len;
	}
	f->nr = a->nr_programs;
	*ret = f;
	f = NULL;
	err = 0;
out:
	kvfree(f);
	kfree(progs);
	return err;
}

int ltt_kfilter_validate(const struct ltt_kfilter *f, const struct ltt_event_desc *desc)
{
	struct ltt_filter_field_desc *fields;
	unsigned int i;
	int ret = 0;

	if (!f)
		return 0;
	fields = kcalloc(LTT_KABI_MAX_FIELDS, sizeof(*fields), GFP_KERNEL);
	if (!fields)
		return -ENOMEM;
	for (i = 0; i < desc->nr_fields; i++) {
		const struct ltt_kabi_field *k = &desc->fields[i];

		/* a bit array is read by no filter; a big-endian integer's
		 * value reaches it converted (ltt-event.h) */
		fields[i] = (struct ltt_filter_field_desc){
			.name = k->bits ? NULL : k->name, .type = k->type, .size = k->size,
			.is_signed = k->is_signed, .encoding = k->encoding,
			.length = k->length,
			.big_endian = k->type != LTT_KABI_FIELD_INTEGER &&
				      (k->flags & LTT_KABI_FIELD_BIG_ENDIAN),
		};
	}
	for (i = 0; i < f->nr && !ret; i++) {
		/* -EPROTO, -E2BIG: invalid all the same for the caller */
		ret = ltt_filter_validate(f->prog[i], f->len[i], fields, desc->nr_fields) ?
		      -EINVAL : 0;
	}
	kfree(fields);
	return ret;
}

int ltt_filter_get(struct ltt_kabi_event_filter *a, const void __user *uarg,
		   struct ltt_kfilter **ret_filter)
{
	int ret = get_filter_arg(a, uarg, true);

	return ret ? ret : copy_programs(a, ret_filter);
}

long ltt_filter_ioctl(struct ltt_channel *chan, unsigned int cmd, void __user *uarg)
{
	bool enable = cmd == LTT_KABI_EVENT_ENABLE_FILTERED;
	struct ltt_kabi_event_filter a;
	struct ltt_event_desc *desc;
	struct ltt_kfilter *f;
	int ret;

	ret = get_filter_arg(&a, uarg, enable);
	if (!ret)
		ret = copy_programs(&a, &f);
	if (ret)
		return ret;
	mutex_lock(&ltt_mutex);
	desc = ltt_event_lookup(a.event.name);
	ret = desc ? ltt_kfilter_validate(f, desc) : -ENOENT;
	if (!ret && enable)
		ret = ltt_event_enable_filtered(chan, desc, a.event.id, f);
	else if (!ret)
		ret = ltt_event_set_filter(chan, desc, f);
	mutex_unlock(&ltt_mutex);
	if (ret)
		kvfree(f);	/* never published */
	return ret;
}
