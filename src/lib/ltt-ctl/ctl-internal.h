/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ctl-internal.h - what libltt-ctl's files share and do not export (the
 * export list keeps ltt_ctl_* names only).
 */
#ifndef LTT_LIB_CTL_INTERNAL_H
#define LTT_LIB_CTL_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#include "common/client-proto.h"
#include "common/codec.h"

/**
 * ctl_transact() - send one request and read its reply (ltt-ctl.c)
 * @ret_reply: NULL, or the reply payload (free() it), with @ret_len
 *
 * Returns 0 or -LTT_ERR_* (the daemon's status, or a connection error).
 */
int ctl_transact(struct ltt_ctl *ctl, enum ltt_client_cmd cmd, const struct ltt_wbuf *req,
		 uint8_t **ret_reply, size_t *ret_len);

/** ctl_minor() - the client protocol minor agreed with the daemon */
uint32_t ctl_minor(const struct ltt_ctl *ctl);

#endif /* LTT_LIB_CTL_INTERNAL_H */
