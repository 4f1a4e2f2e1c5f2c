/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * client-notify.h - what client.c needs of the notification jobs
 * (client-notify.c), for the jobs still posted when the thread stops: a
 * job's function, to know one, and its free.  ltt_client_thread_notify()
 * and ltt_client_thread_trigger_gone() are in client.h.
 */
#ifndef LTT_SESSIOND_CLIENT_NOTIFY_H
#define LTT_SESSIOND_CLIENT_NOTIFY_H

#include "common/base/evloop.h"

struct notify_job;

/**
 * ltt_client_notify_job_run() - a notification job's function: write its
 * notification (or its trigger's end) to each subscriber of its trigger,
 * then free the job.  Client thread.
 */
void ltt_client_notify_job_run(struct ltt_evloop *loop, struct ltt_evloop_job *job);

/**
 * ltt_client_notify_job_free() - free @j, a job that never ran, telling
 * its caller's done() first
 */
void ltt_client_notify_job_free(struct notify_job *j);

#endif /* LTT_SESSIOND_CLIENT_NOTIFY_H */
