/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-context.h - the context fields of kernel channels (lttctl
 * add-context -k): what the kernel domain accepts, and handing a
 * channel's contexts to the tracer (LTT_KABI_CONTEXT_ADD, kernel ABI 1.4).
 * The daemon keeps them in struct ltt_channel as for user space
 * (cmd-context.c); the metadata describes them with the same generator.
 */
#ifndef LTT_SESSIOND_KERNEL_CONTEXT_H
#define LTT_SESSIOND_KERNEL_CONTEXT_H

#include "common/model/context.h"
#include "sessiond/model/domain.h"
#include "sessiond/kabi/kabi.h"

struct ltt_channel;

/**
 * ltt_kernel_context_check() - may context @c (checked with
 * ltt_ctx_check()) be added to a kernel channel, with the tracer @d
 * loaded?
 *
 * Session lock held.  Returns LTT_ERR_OK, LTT_ERR_KERNEL_CONTEXT_PERF (a
 * perf counter), LTT_ERR_CONTEXT_DOMAIN (a user-space type: ip,
 * pthread_id), or LTT_ERR_KERNEL_CONTEXT_MODULE (the loaded tracer is
 * older than kernel ABI 1.4; logged: reload it).
 */
enum ltt_error_code ltt_kernel_context_check(struct ltt_domain_impl *d, const struct ltt_ctx *c);

/**
 * ltt_kernel_context_apply() - add @channel's contexts, in order, to its
 * tracer channel @handle, before its streams are made and its session
 * started
 *
 * Session lock held.  Returns 0, -EPROTO (the tracer's size of a context
 * is not the metadata's), or the tracer's -errno (logged with the
 * context's name).
 */
int ltt_kernel_context_apply(struct ltt_kabi *kabi, const struct ltt_channel *channel,
			     ltt_khandle handle);

#endif /* LTT_SESSIOND_KERNEL_CONTEXT_H */
