// SPDX-License-Identifier: LGPL-2.1-only
/*
 * stall.c - libltt-ctl: the end of GET_SESSION's reply from client
 * protocol minor 14 on (LTT_CLIENT_MINOR_CONSUMER_STALL): the domains
 * whose consumer daemon does not answer, and what waits for it.
 */
#include <stdbool.h>
#include <string.h>

#include <ltt/ltt-ctl.h>
#include <ltt/ltt-error.h>

#include "common/model/convert.h"
#include "common/proto/client-proto.h"
#include "lib/ltt-ctl/ctl-internal.h"

/* A section's count: at most one entry per domain. */
static uint32_t get_domains(struct ltt_rbuf *r)
{
	uint32_t n = ltt_rbuf_get_u32(r);

	if (n > CTL_STALLS_MAX)
		ltt_rbuf_fail(r);
	return r->err ? 0 : n;
}

int ctl_get_stalls(struct ltt_rbuf *r, uint32_t minor, struct ltt_session_detail *d)
{
	struct ltt_stall_desc waiting[CTL_STALLS_MAX], st;
	uint32_t nw, n, i, j;

	d->nr_stalls = 0;
	d->stalls = NULL;
	if (minor < LTT_CLIENT_MINOR_CONSUMER_STALL)
		return 0;
	nw = get_domains(r);
	for (i = 0; i < nw; i++) {
		memset(&waiting[i], 0, sizeof(waiting[i]));
		ltt_proto_get_stall_waiting(r, &waiting[i]);
	}
	n = get_domains(r);
	for (i = 0; i < n && !r->err; i++) {
		memset(&st, 0, sizeof(st));
		ltt_proto_get_stall(r, &st);
		for (j = 0; j < nw; j++) {
			if (waiting[j].domain != st.domain)
				continue;
			st.traces_waiting = waiting[j].traces_waiting;
			st.metadata_waiting = waiting[j].metadata_waiting;
		}
		/* the room for CTL_STALLS_MAX follows the detail in its block */
		ltt_conv_stall_desc_to_info(&st, &((struct ltt_consumer_stall_info *)(d + 1))[i]);
	}
	if (r->err)
		return -LTT_ERR_PROTOCOL;
	d->nr_stalls = n;
	d->stalls = n ? (struct ltt_consumer_stall_info *)(d + 1) : NULL;
	return 0;
}
