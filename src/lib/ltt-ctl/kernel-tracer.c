// SPDX-License-Identifier: LGPL-2.1-only
/*
 * kernel-tracer.c - libltt-ctl: KERNEL_TRACER, from client protocol
 * minor 15 on (LTT_CLIENT_MINOR_KERNEL_TRACER): how the session daemon
 * traces the kernel (its backend, the tracer's version, why that backend).
 */
#include <stdlib.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

static void get_info(struct ltt_rbuf *r, void *element, const struct ltt_ctl *ctl)
{
	struct ltt_kernel_tracer_info *info = element;

	(void)ctl;
	ltt_rbuf_get_str_copy(r, info->backend, sizeof(info->backend));
	ltt_rbuf_get_str_copy(r, info->version, sizeof(info->version));
	ltt_rbuf_get_str_copy(r, info->why, sizeof(info->why));
}

int ltt_ctl_kernel_tracer(struct ltt_ctl *ctl, struct ltt_kernel_tracer_info *ret)
{
	struct ltt_kernel_tracer_info info = { 0 };
	struct ltt_wbuf w;
	int err;

	if (!ctl || !ret)
		return -LTT_ERR_INVAL;
	if (ctl_minor(ctl) < LTT_CLIENT_MINOR_KERNEL_TRACER)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	err = ctl_send_read(ctl, LTT_CLIENT_CMD_KERNEL_TRACER, &w, get_info, &info);
	if (!err)
		*ret = info;
	return err;
}
