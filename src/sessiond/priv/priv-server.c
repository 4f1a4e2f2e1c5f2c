// SPDX-License-Identifier: GPL-2.0-only
/*
 * priv-server.c - the privileged process's loop (see priv.h): it reads a
 * request, finds it in the table of allowed requests (the daemon's:
 * daemon/priv-table.c), checks its size and whether it passes an fd, runs it and answers.  Nothing else reaches it: a request not in
 * the table gets -ENOSYS, a malformed framing ends the process (the
 * daemon is out of step with it).
 */
#include <errno.h>
#include <string.h>

#include "common/base/log.h"
#include "sessiond/priv/priv.h"

/* Run request @m: its reply, {i32 status} then what it answers. */
static void handle(const struct ltt_priv_handler *requests, size_t nr, void *state,
		   struct ltt_msg *m, struct ltt_wbuf *reply, int *ret_fd)
{
	int in_fd = m->nr_fds ? m->fds[0] : -1;
	struct ltt_wbuf body;
	struct ltt_rbuf r;
	size_t i;
	int status;

	for (i = 0; i < nr && requests[i].type != m->hdr.type; i++)
		;
	ltt_wbuf_init(&body);
	ltt_rbuf_init(&r, m->payload, m->hdr.payload_len);
	if (i == nr)
		status = -ENOSYS;
	else if (m->hdr.payload_len < requests[i].min || (in_fd >= 0) != requests[i].takes_fd)
		status = -EPROTO;
	else
		status = requests[i].fn(&(struct ltt_priv_call){ .state = state, .r = &r,
								   .in_fd = in_fd, .w = &body,
								   .ret_fd = ret_fd });
	if (!status && body.err)
		status = -ENOMEM;
	if (status) {
		*ret_fd = -1;
		if (i < nr && status != -ENOENT)
			LTT_DBG("privileged part: %s: %s", requests[i].name, strerror(-status));
	}
	ltt_wbuf_put_u32(reply, (uint32_t)status);
	if (!status)
		ltt_wbuf_put_bytes(reply, body.data, body.len);
	ltt_wbuf_fini(&body);
}

void ltt_priv_serve(int fd, const struct ltt_priv_handler *requests, size_t nr, void *state)
{
	struct ltt_wbuf reply;
	struct ltt_msg m;
	int ret, pass;

	ltt_wbuf_init(&reply);
	for (;;) {
		m = (struct ltt_msg){ 0 };
		ret = ltt_msg_recv(fd, LTT_PRIV_MAGIC, LTT_PRIV_MAX_PAYLOAD, 1, &m);
		if (ret) {
			if (ret != -ECONNRESET && ret != -EPIPE)
				LTT_ERR("privileged part: %s: the daemon is out of step, ending",
					strerror(-ret));
			break;
		}
		pass = -1;
		ltt_wbuf_reset(&reply);
		handle(requests, nr, state, &m, &reply, &pass);
		ret = reply.err ? -ENOMEM :
		      ltt_msg_send(fd, LTT_PRIV_MAGIC, m.hdr.type, m.hdr.seq, reply.data,
				   reply.len, &pass, pass >= 0 ? 1 : 0);
		ltt_msg_fini(&m);
		if (ret)
			break;
	}
	ltt_wbuf_fini(&reply);
}
