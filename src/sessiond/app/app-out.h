/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * app-out.h - commands to programs: ltt_app_send() never blocks its
 * caller; what a program's socket does not take at once waits in the
 * program's queue (struct ltt_app, app.h), which the app thread writes
 * as the program reads (app.c).  Acks are waited for with a deadline.
 */
#ifndef LTT_SESSIOND_APP_OUT_H
#define LTT_SESSIOND_APP_OUT_H

#include <stdbool.h>
#include <stdint.h>

#include "common/codec.h"

#define LTT_APP_OUTQ_MAX (8U << 20)	/* bytes of commands a program has not taken */

struct ltt_app;
struct ltt_app_out;

/**
 * ltt_app_send() - send a command to an application; app->lock not held
 * @fds: @nr_fds descriptors to pass, borrowed (duplicated if the command
 *       must wait in the queue)
 * @ret_seq: the command's seq number, to wait for with ltt_app_wait_ack()
 *
 * Never blocks: what the socket does not take at once is queued, and the
 * app thread writes it as the program reads.  A program that leaves more
 * than LTT_APP_OUTQ_MAX bytes queued, or does not take a queued command in
 * time, is dropped; so is one whose socket fails.  Returns 0 or a negative
 * errno (-EPIPE: dropped already, -ENOBUFS: dropped now).
 */
int ltt_app_send(struct ltt_app *app, uint16_t type, const struct ltt_wbuf *payload,
		 const int *fds, unsigned int nr_fds, uint32_t *ret_seq);

/**
 * ltt_app_wait_ack() - wait until @seq is acknowledged, at most
 * @timeout_ms; no other lock may be held
 *
 * Returns 0, -ETIMEDOUT, or -EPIPE if the application died.
 */
int ltt_app_wait_ack(struct ltt_app *app, uint32_t seq, int timeout_ms);

/**
 * ltt_app_drop() - drop an application that does not answer (the app
 * thread then removes it); app->lock not held; @why is logged
 */
void ltt_app_drop(struct ltt_app *app, const char *why);

/**
 * ltt_app_mark_dead_locked() - mark @app dead: shut its socket down (the
 * app thread then removes it) and wake the threads waiting for its acks;
 * app->lock held
 */
void ltt_app_mark_dead_locked(struct ltt_app *app);

/**
 * ltt_app_outq_flush() - write what @app's socket takes of its queue,
 * without blocking; the app thread's, app->lock not held
 * @ret_progress: set when at least one whole command went
 * @ret_left: set when some of the queue is left
 *
 * Returns 0, -EPIPE if @app is dead, or the socket's error.
 */
int ltt_app_outq_flush(struct ltt_app *app, bool *ret_progress, bool *ret_left);

/**
 * ltt_app_outq_free() - free @app's queued commands and close their fds;
 * for the application's last reference
 */
void ltt_app_outq_free(struct ltt_app *app);

#endif /* LTT_SESSIOND_APP_OUT_H */
