// SPDX-License-Identifier: GPL-2.0-only
/*
 * data-relay.c - the relays whose socket I/O a data thread does
 * (LTT_DATA_RELAY_THREAD, data-0): each relay's watches on its control
 * and data sockets and kick eventfd, its tick (stall and close
 * deadlines), its live timer, and its closing after DEL_RELAY, sending
 * its last bytes as the sockets take them, never blocking.  data-loop.c runs
 * ADD_RELAY and REMOVE_RELAY through these; the live timer's walk over
 * the relay's channels is data-loop.c's (the live_tick hook, data-relay.h).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>

#include "common/base/evloop.h"
#include "consumerd/data/data-relay.h"
#include "consumerd/sink/sink-relay.h"

/* A relay whose I/O data-0 does, and its live timer. */
struct relay_reg {
	struct ltt_relay *relay;
	struct ltt_data_relays *rs;		/* its thread's */
	struct relay_reg *next;
	struct ltt_evloop_watch *ctrl_w, *data_w, *kick_w;
	uint32_t ctrl_events, data_events;	/* what the watches wait for */
	struct ltt_evloop_timer *live_timer;	/* NULL when not live */
	struct ltt_evloop_timer *peek_timer;	/* live, between ticks; or NULL */
	bool peek_ticked;			/* the last look ticked early */
	struct ltt_evloop_timer *tick;		/* LTT_RLINK_TICK_MS */
	bool closing;				/* DEL_RELAY: on rs->closing */
};

static void free_relay_reg(struct relay_reg *rg)
{
	ltt_evloop_timer_destroy(rg->live_timer);
	ltt_evloop_timer_destroy(rg->peek_timer);
	ltt_evloop_timer_destroy(rg->tick);
	ltt_evloop_unwatch(rg->kick_w);
	ltt_evloop_unwatch(rg->ctrl_w);
	ltt_evloop_unwatch(rg->data_w);
	free(rg);
}

/* A closing relay is done: forget it, close its connections, free it. */
static void finish_close(struct relay_reg *rg)
{
	struct relay_reg **p;

	for (p = &rg->rs->closing; *p != rg; p = &(*p)->next)
		;
	*p = rg->next;
	ltt_rlink_destroy(rg->relay);
	free_relay_reg(rg);
}

/*
 * A relay's socket or kick fd fired, or its tick: do its I/O, wait for
 * what it needs next; a closing relay that is done goes.
 */
static void on_relay(struct ltt_evloop *loop, int fd, uint32_t events, void *arg)
{
	struct relay_reg *rg = arg;
	uint32_t ctrl, data;

	(void)loop, (void)fd, (void)events;
	ltt_rlink_io(rg->relay, &ctrl, &data);
	if (rg->closing && ltt_rlink_closed(rg->relay)) {
		finish_close(rg);
		return;
	}
	if (ctrl != rg->ctrl_events && !ltt_evloop_watch_set(rg->ctrl_w, ctrl))
		rg->ctrl_events = ctrl;
	if (data != rg->data_events && !ltt_evloop_watch_set(rg->data_w, data))
		rg->data_events = data;
}

/* The live timer of a relay: its channels' streams are switched and drained. */
static void on_live_timer(struct ltt_evloop *loop, void *arg)
{
	struct relay_reg *rg = arg;

	(void)loop;
	rg->rs->live_tick(rg->rs->dt, rg->relay);
}

/*
 * Between live ticks: events written since the last tick are sent at the
 * next look, with a tick of the whole relay (a viewer needs every
 * stream's news, beacons included, to print them), not at the next
 * tick.  At most every other look ticks early, so a stream that keeps
 * writing makes at most LTT_DATA_LIVE_PEEKS / 2 packets more per live
 * period than the timer alone.
 */
static void on_peek_timer(struct ltt_evloop *loop, void *arg)
{
	struct relay_reg *rg = arg;

	(void)loop;
	if (rg->peek_ticked) {
		rg->peek_ticked = false;
		return;
	}
	if (!rg->rs->live_pending(rg->rs->dt, rg->relay))
		return;
	rg->rs->live_tick(rg->rs->dt, rg->relay);
	rg->peek_ticked = true;
}

/* A relay that waits for nothing it watches still meets its deadlines. */
static void on_relay_tick(struct ltt_evloop *loop, void *arg)
{
	on_relay(loop, -1, 0, arg);
}

int ltt_data_relay_add(struct ltt_data_relays *rs, struct ltt_relay *relay)
{
	struct relay_reg *rg;
	int ctrl, data, kick, ret;
	uint32_t live_us;

	rg = calloc(1, sizeof(*rg));
	if (!rg)
		return -ENOMEM;
	rg->relay = relay;
	rg->rs = rs;
	ltt_rlink_fds(relay, &ctrl, &data, &kick);
	rg->ctrl_events = EPOLLIN;
	ret = ltt_evloop_watch(rs->loop, kick, EPOLLIN, on_relay, rg, &rg->kick_w);
	if (!ret)
		ret = ltt_evloop_watch(rs->loop, ctrl, EPOLLIN, on_relay, rg, &rg->ctrl_w);
	if (!ret)
		ret = ltt_evloop_watch(rs->loop, data, 0, on_relay, rg, &rg->data_w);
	if (!ret)
		ret = ltt_evloop_timer_create(rs->loop, on_relay_tick, rg, &rg->tick);
	if (!ret)
		ltt_evloop_timer_arm(rg->tick, LTT_RLINK_TICK_MS * 1000000ull,
				     LTT_RLINK_TICK_MS * 1000000ull);
	live_us = ltt_rlink_live_timer_us(relay);
	if (!ret && live_us) {
		ret = ltt_evloop_timer_create(rs->loop, on_live_timer, rg, &rg->live_timer);
		if (!ret)
			ltt_evloop_timer_arm(rg->live_timer, (uint64_t)live_us * 1000,
					     (uint64_t)live_us * 1000);
	}
	if (!ret && live_us / LTT_DATA_LIVE_PEEKS >= LTT_DATA_LIVE_PEEK_MIN_US) {
		uint64_t ns = (uint64_t)(live_us / LTT_DATA_LIVE_PEEKS) * 1000;

		ret = ltt_evloop_timer_create(rs->loop, on_peek_timer, rg, &rg->peek_timer);
		if (!ret)
			ltt_evloop_timer_arm(rg->peek_timer, ns, ns);
	}
	if (ret) {
		free_relay_reg(rg);
		return ret;
	}
	rg->next = rs->active;
	rs->active = rg;
	on_relay(rs->loop, ctrl, 0, rg);
	return 0;
}

int ltt_data_relay_remove(struct ltt_data_relays *rs, struct ltt_relay *relay)
{
	struct relay_reg **p, *rg;

	for (p = &rs->active; *p && (*p)->relay != relay; p = &(*p)->next)
		;
	rg = *p;
	if (!rg)
		return -ENOENT;
	*p = rg->next;
	ltt_evloop_timer_destroy(rg->live_timer);
	rg->live_timer = NULL;
	ltt_evloop_timer_destroy(rg->peek_timer);
	rg->peek_timer = NULL;
	rg->closing = true;
	rg->next = rs->closing;
	rs->closing = rg;
	ltt_rlink_close(relay);
	on_relay(rs->loop, -1, 0, rg);
	return 0;
}

void ltt_data_relays_fini(struct ltt_data_relays *rs)
{
	while (rs->closing)	/* what is left goes within LTT_RLINK_FINAL_MS */
		finish_close(rs->closing);
}
