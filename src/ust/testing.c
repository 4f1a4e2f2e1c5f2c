// SPDX-License-Identifier: LGPL-2.1-only
/*
 * testing.c - the hooks of ust-internal.h: the daemon's commands, played
 * in-process on channels and notifiers owned by the test.
 */
#include <errno.h>

#define _LGPL_SOURCE

#include "ust/ust-internal.h"
#include "ust/rcu.h"
#include "ust/notify.h"
#include "ust/ust.h"

static const char test_owner;	/* the owner of the tests' channels */

int ltt_ust_test_add_channel(uint64_t key, uint32_t nr_streams, void *const *mems,
			     const size_t *lens)
{
	struct ust_channel *chan;
	int ret;

	if (!mems || !lens)
		return -EINVAL;
	ret = ust_channel_wrap(&test_owner, key, nr_streams, mems, lens, &chan);
	if (ret)
		return ret;
	return ust_channel_add(chan);
}

int ltt_ust_test_set_contexts(uint64_t key, const struct ltt_ctx *ctx, uint32_t nr)
{
	struct ust_channel *chan;

	ust_lock();
	chan = ust_channel_find(&test_owner, key);
	ust_unlock();
	/* the test's own channel, no event in it yet: nothing reads it meanwhile */
	return chan ? ust_channel_set_contexts(chan, ctx, nr) : -ENOENT;
}

int ltt_ust_test_remove_channel(uint64_t key)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	struct ust_channel *chan;
	int ret = -ENOENT;

	ust_lock();
	chan = ust_channel_find(&test_owner, key);
	if (chan)
		ret = ust_channel_remove(chan, &retire);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

int ltt_ust_test_set_channel(uint64_t key, bool enabled)
{
	struct ust_channel *chan;

	ust_lock();
	chan = ust_channel_find(&test_owner, key);
	if (chan) {
		ust_channel_set_enabled(chan, enabled);
		ust_events_refresh();
	}
	ust_unlock();
	if (!chan)
		return -ENOENT;
	if (!enabled && !ust_rcu_synchronize())
		return -EAGAIN;
	return 0;
}

static int set_event(uint64_t key, const char *name, bool enable, uint32_t id)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	struct ust_channel *chan;
	int ret = -ENOENT;

	if (!name)
		return -EINVAL;
	ust_lock();
	chan = ust_channel_find_target(&test_owner, key);
	if (chan)
		ret = enable ? ust_events_enable(name, 0, true, chan, id, &retire) :
			       ust_events_disable(name, 0, true, chan, &retire);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

int ltt_ust_test_enable_event(uint64_t key, const char *name, uint32_t id)
{
	return set_event(key, name, true, id);
}

int ltt_ust_test_disable_event(uint64_t key, const char *name)
{
	return set_event(key, name, false, 0);
}

int ltt_ust_test_add_notifier(uint64_t key, int fd, uint32_t nr, const char *const *captures)
{
	struct ust_notifier *n;
	int ret;

	ret = ust_notifier_create(&test_owner, key, nr, captures, true, fd, &n);
	return ret ? ret : ust_notifier_add(n);
}

int ltt_ust_test_add_counter(uint64_t key, uint32_t nr_cpus, uint32_t nr_slots, int fd)
{
	struct ust_notifier *n;
	int ret;

	ret = ust_counter_create(&test_owner, key, nr_cpus, nr_slots, fd, &n);
	return ret ? ret : ust_notifier_add(n);
}

int ltt_ust_test_remove_notifier(uint64_t key)
{
	struct ust_retire retire = UST_RETIRE_INIT;
	int ret;

	ust_lock();
	ret = ust_notifier_remove(&test_owner, key, &retire);
	ust_agent_forget(&test_owner, key);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}

int ltt_ust_test_notifier_dropped(uint64_t key, uint64_t *ret_dropped)
{
	int ret;

	ust_lock();
	ret = ust_notifier_dropped(&test_owner, key, ret_dropped);
	ust_unlock();
	return ret;
}

uint64_t ltt_ust_test_nr_events(void)
{
	uint64_t n;

	ust_lock();
	n = ust_registry_nr_events();
	ust_unlock();
	return n;
}

bool ltt_ust_test_event_known(const char *name)
{
	bool known;

	ust_lock();
	known = name && ust_event_known(name);
	ust_unlock();
	return known;
}

unsigned int ltt_ust_test_nr_channels(void)
{
	unsigned int n;

	ust_lock();
	n = ust_channel_count();
	ust_unlock();
	return n;
}

unsigned int ltt_ust_test_wrecs_in_use(void)
{
	return ust_wrec_in_use();
}

uint64_t ltt_ust_test_events_lost(void)
{
	uint64_t lost;

	ust_lock();
	lost = ust_channels_events_lost();
	ust_unlock();
	return lost;
}

int ltt_ust_test_set_filter(uint64_t key, const char *name, uint32_t nr,
			    const uint8_t *const *progs, const uint32_t *lens)
{
	struct ltt_app_filter_program p[LTT_APP_FILTER_MAX_PROGRAMS];
	struct ust_retire retire = UST_RETIRE_INIT;
	struct ust_channel *chan;
	int ret = -ENOENT;
	uint32_t i;

	if (!name || nr > LTT_APP_FILTER_MAX_PROGRAMS)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		p[i].code = progs[i];
		p[i].len = lens[i];
	}
	ust_lock();
	chan = ust_channel_find_target(&test_owner, key);
	if (chan)
		ret = ust_events_set_filter(name, 0, true, chan, nr, p, &retire);
	ust_unlock();
	ust_retire_flush(&retire);
	return ret;
}
