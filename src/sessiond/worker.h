/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * worker.h - a thread that runs the jobs another thread hands it, one at
 * a time, and hands them back done.  The client thread gives it the
 * commands that may wait (for programs' acks, for the consumer), so that
 * it keeps serving the other clients meanwhile.
 *
 * The submitting thread owns a job again once ltt_worker_take_done()
 * returns it; the worker only calls job->run().  Done jobs are announced
 * on an eventfd the submitting thread polls.
 */
#ifndef LTT_SESSIOND_WORKER_H
#define LTT_SESSIOND_WORKER_H

struct ltt_worker_job {
	struct ltt_worker_job *next;	/* the worker's */
	void (*run)(struct ltt_worker_job *job);
};

struct ltt_worker;

/**
 * ltt_worker_start() - start a worker thread
 * @ret_done_fd: an eventfd that becomes readable when jobs are done
 *               (owned by the worker)
 *
 * Returns 0 or a negative errno.
 */
int ltt_worker_start(struct ltt_worker **ret_worker, int *ret_done_fd);

/**
 * ltt_worker_submit() - queue @job; it runs after those queued before it
 */
void ltt_worker_submit(struct ltt_worker *worker, struct ltt_worker_job *job);

/**
 * ltt_worker_take_done() - the jobs done so far, oldest first (linked by
 * ->next), or NULL; clears the eventfd
 */
struct ltt_worker_job *ltt_worker_take_done(struct ltt_worker *worker);

/**
 * ltt_worker_stop() - let the running job finish, stop the thread and
 * free the worker; returns the jobs not handed back (done or never run),
 * linked by ->next, for the caller to release.  Accepts NULL.
 */
struct ltt_worker_job *ltt_worker_stop(struct ltt_worker *worker);

#endif /* LTT_SESSIOND_WORKER_H */
