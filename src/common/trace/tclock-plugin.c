/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock-plugin.c - LTTng-UST's clock plugin (LTTNG_UST_CLOCK_PLUGIN):
 * the callbacks its lttng_ust_clock_plugin_init() sets, and the read
 * that LTT_TCLOCK_PLUGIN's buffers call (common/trace/tclock-plugin.h).  In
 * every process that loads one: a program (ltt's liblttng-ust), whose
 * events it timestamps, and the daemons, whose metadata names it and
 * whose reads of a buffer's clock follow it.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/module.h"
#include "common/trace/tclock-plugin.h"

uint64_t (*ltt_tclock_plugin_read64)(void);

uint64_t ltt_tclock_plugin_now(void)
{
	uint64_t (*read64)(void) = __atomic_load_n(&ltt_tclock_plugin_read64, __ATOMIC_RELAXED);

	return read64 ? read64() : ltt_tclock_mono();
}

/* The callbacks set, as void (*)(void) (each is cast back to its type). */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static void (*cbs[LTT_TCLOCK_NR_CBS])(void);

/* Enabled: its read64 published (once, under the lock; never undone). */
static bool enabled(void)
{
	return __atomic_load_n(&ltt_tclock_plugin_read64, __ATOMIC_ACQUIRE) != NULL;
}

/* ---- ltt's own clock, which get gives until a plugin is enabled ---- */

static uint64_t own_read64(void)
{
	return ltt_tclock_mono();
}

static uint64_t own_freq(void)
{
	return LTT_TCLOCK_NS_FREQ;
}

/* The host's boot id, the UUID ltt's traces give CLOCK_MONOTONIC. */
static int own_uuid(char *uuid)
{
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	bool ok = f && fgets(uuid, 37, f) && strlen(uuid) == 36;

	if (f)
		fclose(f);
	return ok ? 0 : -1;
}

static const char *own_name(void)
{
	return "monotonic";
}

static const char *own_description(void)
{
	return "Monotonic Clock";
}

int ltt_tclock_plugin_set(unsigned int which, const void *fnp)
{
	void (*fn)(void);
	int ret = 0;

	if (which >= LTT_TCLOCK_NR_CBS)
		return -EINVAL;
	memcpy(&fn, fnp, sizeof(fn));
	if (!fn)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (enabled())
		ret = -EBUSY;
	else
		cbs[which] = fn;
	pthread_mutex_unlock(&lock);
	return ret;
}

/* ltt's own clock's callbacks, as void (*)(void) (the generic function pointer type) */
static void (*const own[LTT_TCLOCK_NR_CBS])(void) = {
	[LTT_TCLOCK_CB_READ64] = (void (*)(void))own_read64,
	[LTT_TCLOCK_CB_FREQ] = (void (*)(void))own_freq,
	[LTT_TCLOCK_CB_UUID] = (void (*)(void))own_uuid,
	[LTT_TCLOCK_CB_NAME] = (void (*)(void))own_name,
	[LTT_TCLOCK_CB_DESCRIPTION] = (void (*)(void))own_description,
};

int ltt_tclock_plugin_get(unsigned int which, void *fnp)
{
	void (*fn)(void) = NULL;

	if (which >= LTT_TCLOCK_NR_CBS)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	if (enabled())
		fn = cbs[which];
	pthread_mutex_unlock(&lock);
	if (!fn)
		fn = own[which];
	memcpy(fnp, &fn, sizeof(fn));
	return 0;
}

/* A CTF identifier: the metadata's "map = clock.NAME.value". */
static bool identifier(const char *s)
{
	size_t i;

	if (!s || !*s || strlen(s) >= sizeof(((struct ltt_tclock_plugin_info *)0)->name) ||
	    (s[0] >= '0' && s[0] <= '9'))
		return false;
	for (i = 0; s[i]; i++)
		if (!(s[i] == '_' || (s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return false;
	return true;
}

int ltt_tclock_plugin_enable(void)
{
	ltt_tclock_text_fn name;
	ltt_tclock_u64_fn read64;
	int ret = 0;

	pthread_mutex_lock(&lock);
	memcpy(&name, &cbs[LTT_TCLOCK_CB_NAME], sizeof(name));
	memcpy(&read64, &cbs[LTT_TCLOCK_CB_READ64], sizeof(read64));
	if (enabled())
		ret = -EBUSY;
	else if (!read64 || !cbs[LTT_TCLOCK_CB_FREQ] || !name || !identifier(name()))
		ret = -EINVAL;
	else {
		__atomic_store_n(&ltt_tclock_plugin_read64, read64, __ATOMIC_RELEASE);
	}
	pthread_mutex_unlock(&lock);
	return ret;
}

int ltt_tclock_plugin_load(const char *path, char *err, size_t errlen)
{
	if (ltt_plugin_init(path, "lttng_ust_clock_plugin_init", err, errlen))
		return -1;
	if (!enabled()) {
		snprintf(err, errlen, "%s's lttng_ust_clock_plugin_init() did not enable its clock "
			 "(lttng_ust_enable_trace_clock_override() after setting read64, freq and a "
			 "name that is a C identifier)", path);
		return -1;
	}
	return 0;
}

bool ltt_tclock_plugin_info(struct ltt_tclock_plugin_info *ret)
{
	ltt_tclock_u64_fn freq;
	ltt_tclock_uuid_fn uuid;
	ltt_tclock_text_fn name, description;
	const char *d;

	pthread_mutex_lock(&lock);
	if (!enabled()) {
		pthread_mutex_unlock(&lock);
		return false;
	}
	memcpy(&freq, &cbs[LTT_TCLOCK_CB_FREQ], sizeof(freq));
	memcpy(&uuid, &cbs[LTT_TCLOCK_CB_UUID], sizeof(uuid));
	memcpy(&name, &cbs[LTT_TCLOCK_CB_NAME], sizeof(name));
	memcpy(&description, &cbs[LTT_TCLOCK_CB_DESCRIPTION], sizeof(description));
	pthread_mutex_unlock(&lock);
	memset(ret, 0, sizeof(*ret));
	ret->freq = freq();
	snprintf(ret->name, sizeof(ret->name), "%s", name());
	d = description ? description() : NULL;
	snprintf(ret->description, sizeof(ret->description), "%s", d ? d : "");
	if (!uuid || uuid(ret->uuid) || strnlen(ret->uuid, sizeof(ret->uuid)) != 36)
		ret->uuid[0] = '\0';
	ret->uuid[36] = '\0';
	return true;
}
