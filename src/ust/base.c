// SPDX-License-Identifier: LGPL-2.1-only
/*
 * base.c - what every module of libltt-ust leans on: the ust lock, the
 * condition of the threads waiting for the daemons to settle, and the
 * debug switch (LTT_UST_DEBUG).  It calls no other module.
 */
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "ust/ust.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static bool debug;

void ust_lock(void)
{
	pthread_mutex_lock(&lock);
}

void ust_unlock(void)
{
	pthread_mutex_unlock(&lock);
}

void ust_state_init(void)
{
	pthread_condattr_t attr;

	pthread_condattr_init(&attr);
	pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &attr);
	pthread_condattr_destroy(&attr);
}

void ust_state_changed(void)
{
	pthread_cond_broadcast(&cond);
}

int ust_state_wait(const struct timespec *deadline)
{
	if (!deadline)
		return pthread_cond_wait(&cond, &lock);
	return pthread_cond_timedwait(&cond, &lock, deadline);
}

void ust_debug_init(void)
{
	const char *dbg = getenv("LTT_UST_DEBUG");

	debug = dbg && *dbg && *dbg != '0';
}

void ust_debug(const char *fmt, ...)
{
	va_list ap;

	if (!debug)
		return;
	va_start(ap, fmt);
	fprintf(stderr, "libltt-ust[%ld]: ", (long)getpid());
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}
