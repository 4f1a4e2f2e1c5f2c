/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * data-relay.h - the relays whose socket I/O a data thread does
 * (LTT_DATA_RELAY_THREAD, data-0): private to data.c (which starts the
 * threads), data-loop.c (which runs ADD_RELAY and REMOVE_RELAY through
 * these) and data-relay.c.
 */
#ifndef LTT_CONSUMERD_DATA_RELAY_H
#define LTT_CONSUMERD_DATA_RELAY_H

#include "common/base/evloop.h"

struct ltt_data_thread;
struct ltt_relay;

/*
 * A data thread's relays, embedded in it, touched by that thread alone
 * (data-0's; the others have none).
 */
/*
 * A live relay's streams are looked at LTT_DATA_LIVE_PEEKS times per live
 * timer period, when that is at least LTT_DATA_LIVE_PEEK_MIN_US apart:
 * events are sent at the next look (every other one at most), not at the
 * next tick.
 */
#define LTT_DATA_LIVE_PEEKS 8
#define LTT_DATA_LIVE_PEEK_MIN_US 1000

struct relay_reg;
struct ltt_data_relays {
	struct ltt_evloop *loop;	/* the thread's (borrowed) */
	struct ltt_data_thread *dt;	/* the thread, for the live timers */
	struct relay_reg *active;	/* added, not yet removed */
	struct relay_reg *closing;	/* removed, sending their last bytes */
	/*
	 * A live timer's expiry for a relay: every stream of its channels
	 * (their one part each is on @dt) is switched (a partial packet
	 * closed; an empty one for a stream whose reader needs a first
	 * packet) and drained, and one that sent nothing since sends a
	 * beacon.  data-loop.c's, set by data.c with loop and dt; @dt's
	 * thread.
	 */
	void (*live_tick)(struct ltt_data_thread *dt, const struct ltt_relay *relay);
	/*
	 * Between live ticks: does a stream of the relay's channels hold
	 * events no packet closed yet?  data-loop.c's, set with live_tick.
	 */
	bool (*live_pending)(struct ltt_data_thread *dt, const struct ltt_relay *relay);
};

/**
 * ltt_data_relay_add() - LTT_DATA_ADD_RELAY: watch @relay's sockets and
 * kick fd on rs->loop, start its tick and live timer, do its first I/O
 * @relay: borrowed until ltt_data_relay_remove()
 *
 * The thread of @rs.  Returns 0, -ENOMEM or an evloop error (-EEXIST...),
 * then nothing is left registered.
 */
int ltt_data_relay_add(struct ltt_data_relays *rs, struct ltt_relay *relay);

/**
 * ltt_data_relay_remove() - LTT_DATA_REMOVE_RELAY: the data thread owns
 * @relay from now on: it closes its streams, sends its last bytes as the
 * sockets take them and destroys it when done or at its deadline, never
 * blocking
 *
 * The thread of @rs.  Returns 0, or -ENOENT for a relay not added (then
 * still the caller's).
 */
int ltt_data_relay_remove(struct ltt_data_relays *rs, struct ltt_relay *relay);

/**
 * ltt_data_relays_fini() - destroy the relays still closing (each has
 * its LTT_RLINK_FINAL_MS to send what is left); none may be active
 *
 * The thread of @rs, as it stops.
 */
void ltt_data_relays_fini(struct ltt_data_relays *rs);

#endif /* LTT_CONSUMERD_DATA_RELAY_H */
