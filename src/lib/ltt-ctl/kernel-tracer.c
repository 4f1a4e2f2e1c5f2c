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

int ltt_ctl_kernel_tracer(struct ltt_ctl *ctl, struct ltt_kernel_tracer_info *ret)
{
	struct ltt_kernel_tracer_info info = { 0 };
	uint8_t *reply = NULL;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	size_t len = 0;
	int err;

	if (!ctl || !ret)
		return -LTT_ERR_INVAL;
	if (ctl_minor(ctl) < LTT_CLIENT_MINOR_KERNEL_TRACER)
		return -LTT_ERR_NOT_SUPPORTED;
	ltt_wbuf_init(&w);
	err = ctl_send_req(ctl, LTT_CLIENT_CMD_KERNEL_TRACER, &w, &reply, &len);
	if (err)
		return err;
	ltt_rbuf_init(&r, reply, len);
	ltt_rbuf_get_str_copy(&r, info.backend, sizeof(info.backend));
	ltt_rbuf_get_str_copy(&r, info.version, sizeof(info.version));
	ltt_rbuf_get_str_copy(&r, info.why, sizeof(info.why));
	err = ltt_rbuf_end(&r) ? -LTT_ERR_PROTOCOL : 0;
	free(reply);
	if (!err)
		*ret = info;
	return err;
}
