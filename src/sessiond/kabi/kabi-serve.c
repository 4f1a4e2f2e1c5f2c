// SPDX-License-Identifier: GPL-2.0-only
/*
 * kabi-serve.c - the kernel tracer's requests (priv.h: KABI_OPEN,
 * KABI_RUN, KABI_RELEASE), the privileged end (the daemon's end:
 * kabi-remote.c).  It checks each request against the operation table as
 * kabi.c does (the object's kind, the argument's size, the counts'
 * bounds), with pointers of its own: it never uses one it was sent.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/kabi/kabi-remote.h"

/* Buffers one request's user pointers take: the top one and each element's. */
#define MAX_BUFS (1 + LTT_KABI_FILTER_MAX_PROGRAMS)

struct sobj {
	struct ltt_kabi_obj o;			/* o.fd -1: a free slot */
	const struct ltt_kabi_backend *b;
};

/* One request's buffers, in place of the pointers it was sent. */
struct bufs {
	void *v[MAX_BUFS];
	unsigned int n;
};

static struct sobj *lookup(struct ltt_kabi_server *s, uint32_t id)
{
	if (id == 0 || id > s->nr || s->objs[id - 1].o.fd < 0)
		return NULL;
	return &s->objs[id - 1];
}

/* Take @o (released on failure): its number in @ret_id. */
static int add(struct ltt_kabi_server *s, struct ltt_kabi_obj o, const struct ltt_kabi_backend *b,
	       uint32_t *ret_id)
{
	struct sobj *objs;
	size_t i;

	for (i = 0; i < s->nr && s->objs[i].o.fd >= 0; i++)
		;
	if (i == s->nr) {
		objs = s->nr < LTT_KABI_SERVER_MAX_OBJECTS ?
		       realloc(s->objs, (s->nr + 1) * sizeof(*objs)) : NULL;
		if (!objs) {
			b->release(&o);
			return s->nr < LTT_KABI_SERVER_MAX_OBJECTS ? -ENOMEM : -ENOSPC;
		}
		s->objs = objs;
		s->nr++;
	}
	s->objs[i] = (struct sobj){ .o = o, .b = b };
	*ret_id = (uint32_t)i + 1;
	return 0;
}

int ltt_kabi_serve_open(const struct ltt_priv_call *req)
{
	struct ltt_kabi_server *s = req->state;
	const char *name = ltt_rbuf_get_str(req->r, 32);
	int has_path = ltt_rbuf_get_bool(req->r);
	const char *path = ltt_rbuf_get_str(req->r, 4096);
	struct ltt_kabi_obj o;
	uint32_t i, id;
	int ret;

	if (ltt_rbuf_end(req->r))
		return -EPROTO;
	for (i = 0; i < s->nr_backends && strcmp(s->backends[i]->name, name); i++)
		;
	if (i == s->nr_backends)
		return -EINVAL;
	ret = s->backends[i]->open(has_path ? path : NULL, &o);
	if (ret)
		return ret;
	o.kind = LTT_KABI_KIND_TRACER;
	ret = add(s, o, s->backends[i], &id);
	if (!ret)
		ltt_wbuf_put_u32(req->w, id);
	return ret;
}

/* In @base, @ref's pointer made ours: what was sent, or room for what comes back. */
static int get_ref(struct ltt_rbuf *r, const struct ltt_kabi_ref *ref, void *base, struct bufs *b)
{
	uint32_t count = ltt_kabi_ref_count(base, ref), i;
	const void *src;
	char *buf;
	int ret;

	ltt_kabi_ref_set_ptr(base, ref, 0);
	if (count > ref->max)
		return -EINVAL;
	if (!count)
		return 0;
	if (b->n == MAX_BUFS)
		return -E2BIG;
	buf = calloc(count, ref->elem_size);
	if (!buf)
		return -ENOMEM;
	b->v[b->n++] = buf;
	if (ref->in) {
		src = ltt_rbuf_get_bytes(r, (size_t)count * ref->elem_size);
		if (!src)
			return -EPROTO;
		memcpy(buf, src, (size_t)count * ref->elem_size);
	}
	ltt_kabi_ref_set_ptr(base, ref, (uint64_t)(uintptr_t)buf);
	for (i = 0; ref->elem && i < count; i++) {
		ret = get_ref(r, ref->elem, buf + (size_t)i * ref->elem_size, b);
		if (ret)
			return ret;
	}
	return 0;
}

/* The reply of a KABI_RUN that succeeded; @made: what it created, then its number. */
static int put_run_reply(struct ltt_kabi_server *s, const struct ltt_kabi_op_desc *d,
			 const struct sobj *obj, void *arg, uint32_t out_count,
			 struct ltt_kabi_obj made, struct ltt_wbuf *w, int *ret_fd)
{
	const struct ltt_kabi_ref *ref = d->ref;
	void *out = ref && arg ? (void *)(uintptr_t)ltt_kabi_ref_ptr(arg, ref) : NULL;
	const struct ltt_kabi_backend *b;
	uint32_t id;
	int ret;

	if (out)
		ltt_kabi_ref_set_ptr(arg, ref, 0);	/* our addresses stay ours */
	ltt_wbuf_put_u32(w, (uint32_t)d->arg_size);
	if (d->arg_size)
		ltt_wbuf_put_bytes(w, arg, d->arg_size);
	if (ref && ref->out && out_count)
		ltt_wbuf_put_bytes(w, out, (size_t)out_count * ref->elem_size);
	if (d->creates == LTT_KABI_KIND_NONE)
		return 0;
	made.kind = d->creates;
	b = obj->b;	/* add() may move the table @obj is in */
	ret = add(s, made, b, &id);
	if (ret)
		return ret;
	ltt_wbuf_put_u32(w, id);
	/* what a consumer reads (kabi.c's KOP_DUP): nothing else leaves this process */
	if (made.kind == LTT_KABI_KIND_STREAM || made.kind == LTT_KABI_KIND_BPF ||
	    (made.kind == LTT_KABI_KIND_CHANNEL && b->pages))
		*ret_fd = made.fd;
	return 0;
}

int ltt_kabi_serve_run(const struct ltt_priv_call *req)
{
	struct ltt_kabi_server *s = req->state;
	uint32_t op = ltt_rbuf_get_u32(req->r), id = ltt_rbuf_get_u32(req->r);
	uint32_t size = ltt_rbuf_get_u32(req->r);
	struct ltt_kabi_obj made = { .fd = -1 };
	const struct ltt_kabi_op_desc *d;
	struct bufs b = { .n = 0 };
	uint32_t out_count = 0;
	struct sobj *obj;
	void *arg = NULL;
	const void *src;
	int ret;

	if (req->r->err || op >= LTT_KABI_OP_NR)
		return -EINVAL;
	d = &ltt_kabi_ops[op];
	obj = lookup(s, id);
	if (!obj || obj->o.kind != d->on || size != d->arg_size) {
		LTT_ERR("privileged part: kernel %s refused: wrong object or argument", d->name);
		return -EINVAL;
	}
	src = ltt_rbuf_get_bytes(req->r, size);
	if (!src)
		return -EPROTO;
	if (size) {
		arg = malloc(size);
		if (!arg)
			return -ENOMEM;
		memcpy(arg, src, size);
	}
	ret = 0;
	if (d->ref && arg) {
		out_count = ltt_kabi_ref_count(arg, d->ref);
		ret = get_ref(req->r, d->ref, arg, &b);
	}
	if (!ret)
		ret = ltt_rbuf_end(req->r);
	if (!ret)
		ret = obj->b->run((enum ltt_kabi_op)op, &obj->o, arg, &made);
	if (!ret)
		ret = put_run_reply(s, d, obj, arg, out_count, made, req->w, req->ret_fd);
	while (b.n)
		free(b.v[--b.n]);
	free(arg);
	return ret;
}

int ltt_kabi_serve_release(const struct ltt_priv_call *req)
{
	struct sobj *obj = lookup(req->state, ltt_rbuf_get_u32(req->r));

	if (ltt_rbuf_end(req->r) || !obj)
		return -EINVAL;
	obj->b->release(&obj->o);
	obj->o = (struct ltt_kabi_obj){ .fd = -1 };
	return 0;
}

void ltt_kabi_server_fini(struct ltt_kabi_server *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		if (s->objs[i].o.fd >= 0)
			s->objs[i].b->release(&s->objs[i].o);
	free(s->objs);
	s->objs = NULL;
	s->nr = 0;
}
