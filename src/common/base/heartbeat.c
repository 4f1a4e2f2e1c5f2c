// SPDX-License-Identifier: LGPL-2.1-only
/*
 * heartbeat.c - threads' heartbeats, for health checks (heartbeat.h).
 */
#include <pthread.h>

#include "common/base/heartbeat.h"

/* The joined heartbeats, for ltt_heartbeat_stalled(). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct ltt_heartbeat *joined;
/* The tags whose work ended in error: reported for good; atomic. */
static uint64_t failed;

void ltt_heartbeat_join(struct ltt_heartbeat *hb, uint64_t now)
{
	if (!hb->tag)
		return;
	pthread_mutex_lock(&lock);
	__atomic_store_n(&hb->beat_ns, now, __ATOMIC_RELAXED);
	__atomic_store_n(&hb->waiting, false, __ATOMIC_RELAXED);
	hb->next = joined;
	joined = hb;
	pthread_mutex_unlock(&lock);
}

void ltt_heartbeat_leave(struct ltt_heartbeat *hb)
{
	struct ltt_heartbeat **p;

	if (!hb->tag)
		return;
	pthread_mutex_lock(&lock);
	for (p = &joined; *p && *p != hb; p = &(*p)->next)
		;
	if (*p)
		*p = hb->next;
	pthread_mutex_unlock(&lock);
}

void ltt_heartbeat_fail(uint64_t tags)
{
	__atomic_fetch_or(&failed, tags, __ATOMIC_RELAXED);
}

uint64_t ltt_heartbeat_stalled(uint64_t delta_ns, uint64_t now)
{
	uint64_t tags = __atomic_load_n(&failed, __ATOMIC_RELAXED), beat, point;
	struct ltt_heartbeat *hb;

	pthread_mutex_lock(&lock);
	for (hb = joined; hb; hb = hb->next) {
		point = __atomic_load_n(&hb->point, __ATOMIC_ACQUIRE);
		if (!point && __atomic_load_n(&hb->waiting, __ATOMIC_ACQUIRE))
			continue;
		beat = __atomic_load_n(&hb->beat_ns, __ATOMIC_RELAXED);
		if (now > beat && now - beat > delta_ns)
			tags |= point ? point : hb->tag;
	}
	pthread_mutex_unlock(&lock);
	return tags;
}
