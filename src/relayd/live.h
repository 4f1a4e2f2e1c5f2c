/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * live.h - the live viewer server of ltt-relayd: serves babeltrace2's
 * lttng-live source (shared/ref/formats.md §3) from the model (model.h).
 *
 * main.c creates the listening socket (so that a port in use is an error
 * at start-up, and port 0 is resolved before the port file is written),
 * then hands it to ltt_relay_live_start().  The server may serve from
 * its own thread or from @loop; it reads the model only through model.h.
 */
#ifndef LTT_RELAYD_LIVE_H
#define LTT_RELAYD_LIVE_H

/* Viewers connected at once; more are accepted and closed. */
#define LTT_RELAY_LIVE_MAX_VIEWERS 256

struct ltt_evloop;
struct ltt_relay_model;
struct ltt_relay_live;
struct ltt_xport_ctx;

struct ltt_relay_live_cfg {
	struct ltt_relay_model *model;	/* borrowed; outlives the server */
	struct ltt_evloop *loop;	/* the control/data servers' loop (borrowed),
					 * not running yet; the live server may
					 * watch its fds there or run its own */
	int listen_fd;			/* listening, non-blocking; the server's */
	struct ltt_xport_ctx *tls;	/* NULL: plain; else TLS 1.3 only, with
					 * client certificates (borrowed) */
};

/**
 * ltt_relay_live_start() - serve viewers on @cfg->listen_fd
 * @ret_live: to stop with ltt_relay_live_stop()
 *
 * Called by the main thread before the loop runs.  Takes the listening
 * socket on success (and only then).  Returns 0 or a negative errno.
 */
int ltt_relay_live_start(const struct ltt_relay_live_cfg *cfg, struct ltt_relay_live **ret_live);

/**
 * ltt_relay_live_stop() - close every viewer connection and the listening
 * socket, release the model references viewers held, free; accepts NULL
 *
 * Called by the main thread after @cfg->loop stopped running.
 */
void ltt_relay_live_stop(struct ltt_relay_live *live);

#endif /* LTT_RELAYD_LIVE_H */
