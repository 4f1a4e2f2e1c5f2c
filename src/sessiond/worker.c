// SPDX-License-Identifier: GPL-2.0-only
/*
 * worker.c - a thread running handed-over jobs (see worker.h).
 */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "common/log.h"
#include "sessiond/worker.h"

struct ltt_worker {
	pthread_t tid;
	pthread_mutex_t lock;		/* a leaf: never held while a job runs */
	pthread_cond_t wake;
	struct ltt_worker_job *todo, **todo_tail;
	struct ltt_worker_job *done, **done_tail;
	int done_fd;
	bool stopping;
};

static void *worker_thread(void *arg)
{
	struct ltt_worker *w = arg;
	struct ltt_worker_job *job;
	uint64_t one = 1;

	pthread_mutex_lock(&w->lock);
	for (;;) {
		while (!w->todo && !w->stopping)
			pthread_cond_wait(&w->wake, &w->lock);
		if (w->stopping)
			break;
		job = w->todo;
		w->todo = job->next;
		if (!w->todo)
			w->todo_tail = &w->todo;
		pthread_mutex_unlock(&w->lock);
		job->run(job);
		pthread_mutex_lock(&w->lock);
		job->next = NULL;
		*w->done_tail = job;
		w->done_tail = &job->next;
		if (write(w->done_fd, &one, sizeof(one)) != sizeof(one))
			LTT_ERR("worker: can't announce a done job: %s", strerror(errno));
	}
	pthread_mutex_unlock(&w->lock);
	return NULL;
}

int ltt_worker_start(struct ltt_worker **ret_worker, int *ret_done_fd)
{
	struct ltt_worker *w = calloc(1, sizeof(*w));
	int ret;

	if (!w)
		return -ENOMEM;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->wake, NULL);
	w->todo_tail = &w->todo;
	w->done_tail = &w->done;
	w->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = w->done_fd < 0 ? -errno : -pthread_create(&w->tid, NULL, worker_thread, w);
	if (ret) {
		if (w->done_fd >= 0)
			close(w->done_fd);
		free(w);
		return ret;
	}
	*ret_worker = w;
	*ret_done_fd = w->done_fd;
	return 0;
}

void ltt_worker_submit(struct ltt_worker *w, struct ltt_worker_job *job)
{
	job->next = NULL;
	pthread_mutex_lock(&w->lock);
	*w->todo_tail = job;
	w->todo_tail = &job->next;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
}

struct ltt_worker_job *ltt_worker_take_done(struct ltt_worker *w)
{
	struct ltt_worker_job *done;
	uint64_t count;

	if (read(w->done_fd, &count, sizeof(count)) < 0 && errno != EAGAIN)
		LTT_DBG("worker: reading its eventfd: %s", strerror(errno));
	pthread_mutex_lock(&w->lock);
	done = w->done;
	w->done = NULL;
	w->done_tail = &w->done;
	pthread_mutex_unlock(&w->lock);
	return done;
}

struct ltt_worker_job *ltt_worker_stop(struct ltt_worker *w)
{
	struct ltt_worker_job *left;

	if (!w)
		return NULL;
	pthread_mutex_lock(&w->lock);
	w->stopping = true;
	pthread_cond_signal(&w->wake);
	pthread_mutex_unlock(&w->lock);
	pthread_join(w->tid, NULL);
	/* Done ones first, then those never run. */
	*w->done_tail = w->todo;
	left = w->done;
	close(w->done_fd);
	pthread_cond_destroy(&w->wake);
	pthread_mutex_destroy(&w->lock);
	free(w);
	return left;
}
