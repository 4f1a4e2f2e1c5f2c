/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kabi-remote.h - the kernel tracer's requests to the privileged part
 * (priv/priv.h), both ends (kabi-remote.c).  The daemon's end is a
 * backend's open, run and release, called by the kernel thread (kabi.c)
 * in place of the backend's own when the daemon has a privileged part;
 * the privileged end runs the backend.  Each returns 0 or a negative
 * errno (the backend's, or the link's: -EPIPE, -EPROTO).
 */
#ifndef LTT_SESSIOND_KABI_REMOTE_H
#define LTT_SESSIOND_KABI_REMOTE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/base/codec.h"
#include "sessiond/kabi/kabi-backend.h"
#include "sessiond/priv/priv.h"

/* A ref's pointer and count in an argument (or element) @base. */
static inline uint64_t ltt_kabi_ref_ptr(const void *base, const struct ltt_kabi_ref *ref)
{
	uint64_t v;

	memcpy(&v, (const char *)base + ref->ptr_off, sizeof(v));
	return v;
}

static inline void ltt_kabi_ref_set_ptr(void *base, const struct ltt_kabi_ref *ref, uint64_t v)
{
	memcpy((char *)base + ref->ptr_off, &v, sizeof(v));
}

static inline uint32_t ltt_kabi_ref_count(const void *base, const struct ltt_kabi_ref *ref)
{
	uint32_t v;

	memcpy(&v, (const char *)base + ref->count_off, sizeof(v));
	return v;
}

/* The daemon's end: as backend @b's open, run and release would. */
int ltt_kabi_remote_open(struct ltt_priv *p, const struct ltt_kabi_backend *b, const char *path,
			 struct ltt_kabi_obj *ret_tracer);
int ltt_kabi_remote_run(struct ltt_priv *p, enum ltt_kabi_op op, struct ltt_kabi_obj *obj,
			void *arg, struct ltt_kabi_obj *ret_new);
/* Releases the object there and closes @obj's fd here. */
void ltt_kabi_remote_release(struct ltt_priv *p, struct ltt_kabi_obj *obj);

/* kabi-serve.c: the privileged end */

#define LTT_KABI_SERVER_MAX_OBJECTS (1U << 20)

/*
 * The privileged end: the backends KABI_OPEN may name (set by its owner),
 * the kernel objects it holds, by number (index + 1).
 */
struct ltt_kabi_server {
	const struct ltt_kabi_backend *const *backends;
	size_t nr_backends;
	struct sobj *objs;
	size_t nr;
};

/*
 * The requests KABI_OPEN, KABI_RUN, KABI_RELEASE (priv.h), as handlers
 * of a struct ltt_priv_handler table: the call's state a struct
 * ltt_kabi_server; KABI_RUN may set the call's ret_fd to a created
 * object's fd, to pass (borrowed).
 */
int ltt_kabi_serve_open(const struct ltt_priv_call *req);
int ltt_kabi_serve_run(const struct ltt_priv_call *req);
int ltt_kabi_serve_release(const struct ltt_priv_call *req);

/** ltt_kabi_server_fini() - release every object it holds (its backends stay) */
void ltt_kabi_server_fini(struct ltt_kabi_server *s);

#endif /* LTT_SESSIOND_KABI_REMOTE_H */
