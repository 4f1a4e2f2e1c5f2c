// SPDX-License-Identifier: GPL-2.0-only
/*
 * client-conn.c - the state of a connection of the client thread: its
 * bytes in its user's budget, its deadline, its watch, its end (see
 * client.c for the states and their timeouts).
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <unistd.h>

#include "common/base/budget.h"
#include "common/base/evloop.h"
#include "sessiond/client/client-conn.h"
#include "sessiond/lttng-compat/lttng-compat.h"
#include "sessiond/client/client-workers.h"

/*
 * What @c holds in its user's budget becomes @bytes (ltt_budget_hold());
 * root's connections are not counted.
 */
int ltt_client_conn_budget_set(struct conn *c, uint64_t bytes)
{
	return ltt_budget_hold(c->cred.uid ? c->t->cfg.budget : NULL, c->cred.uid, &c->held,
			       bytes);
}

void ltt_client_conn_destroy(struct ltt_client_thread *t, struct conn *c)
{
	size_t i;

	for (i = 0; i < LTT_MAX_CLIENTS; i++) {
		if (t->conns[i] == c) {
			t->conns[i] = NULL;
			t->nr_conns--;
			break;
		}
	}
	ltt_evloop_unwatch(c->watch);
	ltt_evloop_timer_destroy(c->deadline);
	close(c->fd);
	free(c->payload);
	ltt_lttng_notif_free(c->lsubs);
	ltt_client_conn_budget_set(c, 0);
	ltt_wbuf_fini(&c->out);
	ltt_lttng_fds_close(&c->out_fds);
	free(c);
}

/* Arm the deadline of the state @c is in (none while the worker runs its request). */
void ltt_client_conn_deadline(struct conn *c)
{
	uint64_t by, now = ltt_evloop_now_ns();

	if (c->busy || c->sub)
		by = 0;	/* a subscriber waits as long as it likes; a slow one misses notifications */
	else if (!c->hello_done)
		by = c->hello_by;
	else if (c->out.len)
		by = c->reply_by;
	else if (c->hdr_got)
		by = c->msg_by;
	else if (c->t->cfg.idle_timeout_ms)
		by = c->idle_since + c->t->cfg.idle_timeout_ms * NS_PER_MS;
	else
		by = 0;
	if (by)
		ltt_evloop_timer_arm(c->deadline, by > now ? by - now : 1, 0);
	else
		ltt_evloop_timer_disarm(c->deadline);
}

/*
 * Watch for input while no reply is pending, for output while one is,
 * for nothing while the worker runs its request (a client that hung up
 * meanwhile is found out when its reply can't be sent); arm the deadline
 * that goes with it.
 */
int ltt_client_conn_rearm(struct conn *c)
{
	ltt_client_conn_deadline(c);
	return ltt_evloop_watch_set(c->watch, c->busy ? 0 : c->out.len ? EPOLLOUT : EPOLLIN);
}
