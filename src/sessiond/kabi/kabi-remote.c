// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-remote.c - the kernel tracer's requests to the privileged part
 * (priv.h: KABI_OPEN, KABI_RUN, KABI_RELEASE), the daemon's end (the
 * privileged end: kabi-serve.c), generic over
 * the operation table: an operation's argument travels as its arg_size
 * bytes, what its user pointers point at as the table's refs describe it
 * (kabi-backend.h), and the fd of an object it creates comes back as
 * SCM_RIGHTS when a consumer reads it.  A new operation needs its table
 * row only.
 *
 * The daemon's end (the kernel thread, kabi.c) keeps a remote object as
 * {fd: the object's when a consumer reads it, else a placeholder on
 * /dev/null; priv: its number in the privileged process}.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-remote.h"

/* ---- the daemon's end ---- */

/* A stand-in fd for an object that stays in the privileged process. */
static int placeholder(void)
{
	int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}

int ltt_kabi_remote_open(struct ltt_priv *p, const struct ltt_kabi_backend *b, const char *path,
			 struct ltt_kabi_obj *ret_tracer)
{
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t id;
	int ret, fd;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_str(&w, b->name);
	ltt_wbuf_put_u8(&w, path != NULL);
	ltt_wbuf_put_str(&w, path ? path : "");
	ret = ltt_priv_call(p, LTT_PRIV_KABI_OPEN, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	id = ltt_rbuf_get_u32(&r);
	ret = ltt_rbuf_end(&r);
	ltt_msg_fini(&m);
	fd = ret ? ret : placeholder();
	if (fd < 0)
		return fd;
	*ret_tracer = (struct ltt_kabi_obj){ .fd = fd, .priv = (void *)(uintptr_t)id };
	return 0;
}

/* What @ref of @base points at, for the privileged end (in order, each element's after it). */
static int put_ref(struct ltt_wbuf *w, const struct ltt_kabi_ref *ref, const void *base)
{
	uint32_t count = ltt_kabi_ref_count(base, ref), i;
	const char *ptr = (const char *)(uintptr_t)ltt_kabi_ref_ptr(base, ref);
	int ret;

	if (count > ref->max)
		return -EINVAL;
	if (!count)
		return 0;
	if (!ptr)
		return -EFAULT;
	if (ref->in)
		ltt_wbuf_put_bytes(w, ptr, (size_t)count * ref->elem_size);
	for (i = 0; ref->elem && i < count; i++) {
		ret = put_ref(w, ref->elem, ptr + (size_t)i * ref->elem_size);
		if (ret)
			return ret;
	}
	return 0;
}

/* The reply to KABI_RUN into @arg (its pointer kept) and what its out pointer points at. */
static int get_reply(struct ltt_rbuf *r, const struct ltt_kabi_op_desc *d, void *arg,
		     uint32_t out_count)
{
	const struct ltt_kabi_ref *ref = d->ref;
	uint64_t ptr = ref ? ltt_kabi_ref_ptr(arg, ref) : 0;
	const void *src;
	size_t n;

	if (ltt_rbuf_get_u32(r) != d->arg_size)
		return -EPROTO;
	src = ltt_rbuf_get_bytes(r, d->arg_size);
	if (!src)
		return -EPROTO;
	if (d->arg_size)
		memcpy(arg, src, d->arg_size);
	if (!ref)
		return 0;
	ltt_kabi_ref_set_ptr(arg, ref, ptr);
	if (!ref->out || !out_count)
		return 0;
	n = (size_t)out_count * ref->elem_size;
	src = ltt_rbuf_get_bytes(r, n);
	if (!src)
		return -EPROTO;
	memcpy((void *)(uintptr_t)ptr, src, n);
	return 0;
}

int ltt_kabi_remote_run(struct ltt_priv *p, enum ltt_kabi_op op, struct ltt_kabi_obj *obj,
			void *arg, struct ltt_kabi_obj *ret_new)
{
	const struct ltt_kabi_op_desc *d = &ltt_kabi_ops[op];
	uint32_t out_count = d->ref && arg ? ltt_kabi_ref_count(arg, d->ref) : 0;
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t id = 0;
	int ret, fd;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, (uint32_t)op);
	ltt_wbuf_put_u32(&w, (uint32_t)(uintptr_t)obj->priv);
	ltt_wbuf_put_u32(&w, (uint32_t)d->arg_size);
	if (d->arg_size)
		ltt_wbuf_put_bytes(&w, arg, d->arg_size);
	ret = d->ref && arg ? put_ref(&w, d->ref, arg) : 0;
	if (!ret)
		ret = ltt_priv_call(p, LTT_PRIV_KABI_RUN, &w, &m, &r);
	ltt_wbuf_fini(&w);
	if (ret)
		return ret;
	ret = get_reply(&r, d, arg, out_count);
	if (!ret && d->creates != LTT_KABI_KIND_NONE)
		id = ltt_rbuf_get_u32(&r);
	if (!ret)
		ret = ltt_rbuf_end(&r);
	fd = ltt_msg_take_fd(&m, 0);
	ltt_msg_fini(&m);
	if (ret || d->creates == LTT_KABI_KIND_NONE) {
		if (fd >= 0)
			close(fd);
		return ret;
	}
	fd = fd >= 0 ? fd : placeholder();
	if (fd < 0)
		return fd;
	*ret_new = (struct ltt_kabi_obj){ .fd = fd, .priv = (void *)(uintptr_t)id };
	return 0;
}

void ltt_kabi_remote_release(struct ltt_priv *p, struct ltt_kabi_obj *obj)
{
	struct ltt_msg m = { 0 };
	struct ltt_wbuf w;
	struct ltt_rbuf r;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u32(&w, (uint32_t)(uintptr_t)obj->priv);
	if (!ltt_priv_call(p, LTT_PRIV_KABI_RELEASE, &w, &m, &r))
		ltt_msg_fini(&m);
	ltt_wbuf_fini(&w);
	close(obj->fd);
}
