// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracepoint.c - liblttng-ust-tracepoint.so.1: the call sites of programs
 * and libraries built with LTTng's headers, and the probes attached to
 * them.
 *
 * Each instrumented module's constructor hands its array of call sites
 * (lttng_ust_tracepoint_module_register()).  liblttng-ust.so.1 attaches an
 * event's probe by name (lttng_ust_tracepoint_provider_register()) when
 * ltt enables the event, and detaches it when ltt disables it.  A call
 * site reads its probes array under the RCU of liblttng-ust-common, so an
 * array replaced is freed after a grace period.  A call site whose
 * signature is not its probe's is left alone, as lttng-ust leaves it.
 *
 * One mutex orders everything here; no reader takes it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "lttng-ust/lttng-abi.h"
#include "lttng-ust/lttng-ust.h"

/* liblttng-ust-common.so.1's */
void lttng_ust_urcu_read_lock(void);
void lttng_ust_urcu_read_unlock(void);
void lttng_ust_urcu_synchronize_rcu(void);

/* A module's call sites. */
struct module {
	struct lu_tracepoint *const *start;
	int count;
	struct module *next;
};

/* The probes attached to provider:event. */
struct attached {
	char *provider, *event, *signature;
	struct lu_probe *probes;	/* NULL-ended; NULL when none */
	unsigned int nr;
	struct attached *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct module *modules;
static struct attached *attached;
static int destructors_enabled = 1;

static bool same_name(const struct lu_tracepoint *tp, const struct attached *a)
{
	return tp->provider_name && tp->event_name && !strcmp(tp->provider_name, a->provider) &&
	       !strcmp(tp->event_name, a->event);
}

/* Point @tp at @a's probes (or at none). */
static void site_update(struct lu_tracepoint *tp, const struct attached *a)
{
	if (a->nr && (!tp->signature || strcmp(tp->signature, a->signature))) {
		lu_debug("%s:%s: the call site's signature \"%s\" is not the probe's \"%s\": "
			 "not enabled (as lttng-ust refuses it)", a->provider, a->event,
			 tp->signature ? tp->signature : "", a->signature);
		return;
	}
	if (a->nr) {
		__atomic_store_n(&tp->probes, a->probes, __ATOMIC_RELEASE);
		__atomic_store_n(&tp->state, 1, __ATOMIC_RELEASE);
	} else {
		__atomic_store_n(&tp->state, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&tp->probes, NULL, __ATOMIC_RELEASE);
	}
}

static void sites_update(const struct attached *a)
{
	const struct module *m;
	int i;

	for (m = modules; m; m = m->next) {
		for (i = 0; i < m->count; i++) {
			if (m->start[i] && same_name(m->start[i], a))
				site_update(m->start[i], a);
		}
	}
}

static struct attached *find(const char *provider, const char *event)
{
	struct attached *a;

	for (a = attached; a; a = a->next) {
		if (!strcmp(a->provider, provider) && !strcmp(a->event, event))
			return a;
	}
	return NULL;
}

/* Give @a @nr probes copied from @from; the old array is freed after a grace period. */
static int republish(struct attached *a, const struct lu_probe *from, unsigned int nr)
{
	struct lu_probe *old = a->probes, *probes = NULL;

	if (nr) {
		probes = calloc(nr + 1, sizeof(*probes));
		if (!probes)
			return -ENOMEM;
		memcpy(probes, from, nr * sizeof(*probes));
	}
	a->probes = probes;
	a->nr = nr;
	sites_update(a);
	if (old) {
		lttng_ust_urcu_synchronize_rcu();
		free(old);
	}
	return 0;
}

LU_EXPORT int lttng_ust_tracepoint_provider_register(const char *provider, const char *event,
						      void (*func)(void), void *data,
						      const char *signature)
{
	struct lu_probe more[64];
	struct attached *a;
	int ret;

	if (!provider || !event || !func || !signature)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	a = find(provider, event);
	if (!a) {
		a = calloc(1, sizeof(*a));
		if (!a || !(a->provider = strdup(provider)) || !(a->event = strdup(event)) ||
		    !(a->signature = strdup(signature))) {
			if (a) {
				free(a->provider);
				free(a->event);
			}
			free(a);
			pthread_mutex_unlock(&lock);
			return -ENOMEM;
		}
		a->next = attached;
		attached = a;
	}
	if (a->nr >= sizeof(more) / sizeof(more[0]) - 1) {
		pthread_mutex_unlock(&lock);
		return -ENOSPC;
	}
	if (a->nr)
		memcpy(more, a->probes, a->nr * sizeof(*more));
	more[a->nr] = (struct lu_probe){ func, data };
	ret = republish(a, more, a->nr + 1);
	pthread_mutex_unlock(&lock);
	return ret;
}

LU_EXPORT int lttng_ust_tracepoint_provider_unregister(const char *provider, const char *event,
							void (*func)(void), void *data)
{
	struct lu_probe less[64];
	struct attached *a;
	unsigned int i, n = 0;
	int ret = -ENOENT;

	if (!provider || !event)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	a = find(provider, event);
	for (i = 0; a && i < a->nr; i++) {
		if (a->probes[i].func == func && a->probes[i].data == data && ret)
			ret = 0;	/* the first match goes */
		else
			less[n++] = a->probes[i];
	}
	if (!ret)
		ret = republish(a, less, n);
	pthread_mutex_unlock(&lock);
	return ret;
}

LU_EXPORT int lttng_ust_tracepoint_module_register(struct lu_tracepoint *const *start, int count)
{
	struct module *m;
	struct attached *a;

	if (!start || count <= 0)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->start = start;
	m->count = count;
	pthread_mutex_lock(&lock);
	m->next = modules;
	modules = m;
	for (a = attached; a; a = a->next)
		sites_update(a);
	pthread_mutex_unlock(&lock);
	return 0;
}

LU_EXPORT int lttng_ust_tracepoint_module_unregister(struct lu_tracepoint *const *start)
{
	struct module **p, *m = NULL;
	int i;

	pthread_mutex_lock(&lock);
	for (p = &modules; *p; p = &(*p)->next) {
		if ((*p)->start == start) {
			m = *p;
			*p = m->next;
			break;
		}
	}
	if (m) {
		for (i = 0; i < m->count; i++) {
			if (m->start[i]) {
				__atomic_store_n(&m->start[i]->state, 0, __ATOMIC_RELEASE);
				__atomic_store_n(&m->start[i]->probes, NULL, __ATOMIC_RELEASE);
			}
		}
		lttng_ust_urcu_synchronize_rcu();
	}
	pthread_mutex_unlock(&lock);
	free(m);
	return m ? 0 : -ENOENT;
}

/* lttng-ust 2.12's name of lttng_ust_tracepoint_module_register(). */
LU_EXPORT int tracepoint_register_lib(struct lu_tracepoint *const *start, int count)
{
	return lttng_ust_tracepoint_module_register(start, count);
}

LU_EXPORT void lttng_ust_tp_rcu_read_lock(void)
{
	lttng_ust_urcu_read_lock();
}

LU_EXPORT void lttng_ust_tp_rcu_read_unlock(void)
{
	lttng_ust_urcu_read_unlock();
}

LU_EXPORT void *lttng_ust_tp_rcu_dereference_sym(void *p)
{
	return __atomic_load_n(&p, __ATOMIC_CONSUME);
}

LU_EXPORT void lttng_ust_tp_disable_destructors(void)
{
	__atomic_store_n(&destructors_enabled, 0, __ATOMIC_RELAXED);
}

LU_EXPORT int lttng_ust_tp_get_destructors_state(void)
{
	return __atomic_load_n(&destructors_enabled, __ATOMIC_RELAXED);
}

LU_EXPORT void lttng_ust_tp_init(void)
{
}

LU_EXPORT void lttng_ust_tp_exit(void)
{
}

/* Probes are released inside provider_unregister() here: nothing is queued. */
LU_EXPORT void lttng_ust_tp_probe_register_queue_release(void)
{
}

LU_EXPORT void lttng_ust_tp_probe_unregister_queue_release(void)
{
}

LU_EXPORT void lttng_ust_tp_probe_prune_release_queue(void)
{
}
