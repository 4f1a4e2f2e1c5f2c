// SPDX-License-Identifier: GPL-2.0-only
/*
 * pipe.c - an engine's writer thread: blocks of rows, written in the
 * order given, while the main thread reads the traces on (export.h).
 *
 * At most MAX_QUEUED blocks wait: a sender waits for room, so memory is
 * bounded whatever the trace.  The first error stops the writer: blocks
 * queued after it are dropped, and every later send or sync returns it
 * (its sentence in the engine's werr, written by exp_engine_fail() before it
 * says so under the lock, read by the main thread after).
 */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"

#define MAX_QUEUED 8

struct item {
	void *dest;
	struct exp_buf block;
};

struct exp_pipe {
	struct exp_engine *engine;
	exp_pipe_write_fn write;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct item queue[MAX_QUEUED];
	size_t head, nr;
	bool busy;		/* the writer holds an item */
	bool stop;
	int err;
	struct exp_buf spare[MAX_QUEUED + 1];	/* blocks given back, for the next sends */
	size_t nr_spare;
};

/* Is this thread an engine's writer?  Its failures are said in the engine's werr. */
static __thread bool in_writer;

static void *writer(void *arg)
{
	struct exp_pipe *p = arg;
	struct item it;
	bool stopped;
	int err;

	in_writer = true;
	pthread_mutex_lock(&p->lock);
	for (;;) {
		while (!p->nr && !p->stop)
			pthread_cond_wait(&p->changed, &p->lock);
		if (!p->nr)
			break;
		it = p->queue[p->head];
		p->head = (p->head + 1) % MAX_QUEUED;
		p->nr--;
		p->busy = true;
		stopped = p->err != 0;
		pthread_mutex_unlock(&p->lock);
		err = stopped ? 0 : p->write(p->engine, it.dest, it.block.s, it.block.len);
		pthread_mutex_lock(&p->lock);
		p->busy = false;
		if (err && !p->err)
			p->err = err;
		exp_buf_reset(&it.block);
		if (p->nr_spare < MAX_QUEUED + 1)
			p->spare[p->nr_spare++] = it.block;
		else
			exp_buf_fini(&it.block);
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

struct exp_pipe *exp_pipe_create(struct exp_engine *engine, exp_pipe_write_fn write)
{
	struct exp_pipe *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	p->engine = engine;
	p->write = write;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->changed, NULL);
	if (pthread_create(&p->thread, NULL, writer, p)) {
		pthread_cond_destroy(&p->changed);
		pthread_mutex_destroy(&p->lock);
		free(p);
		return NULL;
	}
	return p;
}

/* The writer's first error, its sentence made the engine's (the lock held). */
static int writer_error(struct exp_pipe *p)
{
	if (p->err && !p->engine->err[0])
		memcpy(p->engine->err, p->engine->werr, sizeof(p->engine->err));
	return p->err;
}

int exp_pipe_send(struct exp_pipe *p, void *dest, struct exp_buf *block)
{
	struct exp_buf next = { 0 };
	int err;

	if (block->nomem)
		return -ENOMEM;
	pthread_mutex_lock(&p->lock);
	while (p->nr == MAX_QUEUED && !p->err)
		pthread_cond_wait(&p->changed, &p->lock);
	err = writer_error(p);
	if (!err) {
		p->queue[(p->head + p->nr) % MAX_QUEUED] = (struct item){ dest, *block };
		p->nr++;
		if (p->nr_spare)
			next = p->spare[--p->nr_spare];
		pthread_cond_broadcast(&p->changed);
	}
	pthread_mutex_unlock(&p->lock);
	if (!err)
		*block = next;
	return err;
}

int exp_pipe_sync(struct exp_pipe *p)
{
	int err;

	pthread_mutex_lock(&p->lock);
	while ((p->nr || p->busy) && !p->err)
		pthread_cond_wait(&p->changed, &p->lock);
	err = writer_error(p);
	pthread_mutex_unlock(&p->lock);
	return err;
}

void exp_pipe_destroy(struct exp_pipe *p)
{
	size_t i;

	if (!p)
		return;
	pthread_mutex_lock(&p->lock);
	p->stop = true;
	if (!p->err)
		p->err = -ECANCELED;	/* what is still queued is dropped */
	pthread_cond_broadcast(&p->changed);
	pthread_mutex_unlock(&p->lock);
	pthread_join(p->thread, NULL);
	for (i = 0; i < p->nr_spare; i++)
		exp_buf_fini(&p->spare[i]);
	pthread_cond_destroy(&p->changed);
	pthread_mutex_destroy(&p->lock);
	free(p);
}

int exp_engine_fail(struct exp_engine *e, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	/* the writer's in its own buffer: the main thread may say its own meanwhile */
	if (in_writer)
		vsnprintf(e->werr, sizeof(e->werr), fmt, ap);
	else
		vsnprintf(e->err, sizeof(e->err), fmt, ap);
	va_end(ap);
	return err;
}
