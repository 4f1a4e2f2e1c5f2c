/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * worker.h - a thread that runs the jobs another thread posts to it, one
 * at a time, in order.  The client thread gives it the commands that may
 * wait (for programs' acks, for the consumer), so that it keeps serving
 * the other clients meanwhile.
 *
 * The worker is an event loop (common/base/evloop.h) with nothing but posted
 * jobs: a job is an ltt_evloop_job whose fn runs on the worker thread and
 * hands the job back itself, usually by posting it to the submitting
 * thread's loop.
 */
#ifndef LTT_SESSIOND_WORKER_H
#define LTT_SESSIOND_WORKER_H

#include "common/base/evloop.h"

struct ltt_worker;

/**
 * ltt_worker_start() - start a worker thread
 *
 * Call with the signals the process handles blocked: the thread inherits
 * the mask.  Returns 0 or a negative errno.
 */
int ltt_worker_start(struct ltt_worker **ret_worker);

/**
 * ltt_worker_submit() - run @job->fn on the worker, after the jobs
 * submitted before it; any thread, never blocks
 * @job: the caller's until @job->fn runs
 */
void ltt_worker_submit(struct ltt_worker *worker, struct ltt_evloop_job *job);

/**
 * ltt_worker_stop() - let the running job finish, stop the thread and
 * free the worker; accepts NULL
 *
 * Returns the jobs that never ran, oldest first (linked by ->next), for
 * the caller to release.
 */
struct ltt_evloop_job *ltt_worker_stop(struct ltt_worker *worker);

#endif /* LTT_SESSIOND_WORKER_H */
