/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * ust-internal.h - hooks into libltt-ust for unit tests and benchmarks,
 * which link the library's convenience archive (src/ust/libust.la); the
 * shared library does not export them.
 *
 * They let a test play the session daemon's part in-process: give the
 * library a channel over ring buffers it created itself (ltt_rb_init_region),
 * enable events in it with chosen ids, and read back exactly what the probes
 * wrote; notifiers too, over a socket pair of its own.  Channels and notifiers
 * added here belong to the test, not to any daemon.
 */
#ifndef LTT_UST_UST_INTERNAL_H
#define LTT_UST_UST_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/**
 * ltt_ust_test_add_channel() - a channel over @nr_streams regions
 * @mems: regions laid out by ltt_rb_init_region() (borrowed: keep them
 *        mapped until the channel is removed)
 * @lens: their sizes
 *
 * The channel starts enabled.  Returns 0, -EINVAL (a region does not
 * validate), -EEXIST (@key is taken) or -ENOMEM.
 */
int ltt_ust_test_add_channel(uint64_t key, uint32_t nr_streams, void *const *mems,
			     const size_t *lens);

struct ltt_ctx;

/**
 * ltt_ust_test_set_contexts() - as CHANNEL_ADD's context list, on a
 * channel added by the test before any event is enabled in it
 * @ctx: @nr contexts (common/model/context.h), borrowed
 *
 * Returns 0, -ENOENT, or ust_channel_set_contexts()'s error (-EINVAL when
 * their size is not the regions' event_ctx_len).
 */
int ltt_ust_test_set_contexts(uint64_t key, const struct ltt_ctx *ctx, uint32_t nr);

/**
 * ltt_ust_test_remove_channel() - as CHANNEL_REMOVE: returns once no thread
 * can write to the channel's regions any more.  Returns 0 or -ENOENT.
 */
int ltt_ust_test_remove_channel(uint64_t key);

/** ltt_ust_test_set_channel() - as CHANNEL_ENABLE / CHANNEL_DISABLE */
int ltt_ust_test_set_channel(uint64_t key, bool enabled);

/** ltt_ust_test_enable_event() - as EVENT_ENABLE; -ENOENT for an unknown channel or event */
int ltt_ust_test_enable_event(uint64_t key, const char *name, uint32_t id);

/** ltt_ust_test_disable_event() - as EVENT_DISABLE */
int ltt_ust_test_disable_event(uint64_t key, const char *name);

/**
 * ltt_ust_test_set_filter() - as EVENT_FILTER: @nr programs (@progs[i],
 * @lens[i] bytes, filter-bytecode.h), validated against the event's fields
 *
 * Returns 0, -ENOENT, -EINVAL (a program fails validation), -EOPNOTSUPP
 * or -ENOMEM.
 */
int ltt_ust_test_set_filter(uint64_t key, const char *name, uint32_t nr,
			    const uint8_t *const *progs, const uint32_t *lens);

/**
 * ltt_ust_test_add_notifier() - as NOTIFIER_ADD: a notifier of the test
 * @key: with LTT_APP_NOTIFIER_KEY_BIT; the events it takes are then
 *       enabled (and filtered) with the ltt_ust_test_*_event() and
 *       ltt_ust_test_set_filter() hooks under that key
 * @fd: taken (closed on error too): one end of an AF_UNIX SOCK_SEQPACKET
 *      socketpair (the test reads the other)
 * @captures: @nr capture expressions (common/model/trigger.h), borrowed
 *
 * Returns 0, -EINVAL (a bad key, capture or fd), -EEXIST or -ENOMEM.
 */
int ltt_ust_test_add_notifier(uint64_t key, int fd, uint32_t nr, const char *const *captures);

/**
 * ltt_ust_test_add_counter() - as COUNTER_ADD: a counter of the test,
 * removed with ltt_ust_test_remove_notifier()
 * @key: with LTT_APP_NOTIFIER_KEY_BIT; its events are enabled with
 *       ltt_ust_test_enable_event() under that key, the id being the slot
 * @fd: taken (closed on error too): a memfd sealed against shrinking, of
 *      ltt_app_counter_size(@nr_cpus, @nr_slots) bytes at least
 *
 * Returns 0, -EINVAL (a bad key, layout or fd), -EEXIST or -ENOMEM.
 */
int ltt_ust_test_add_counter(uint64_t key, uint32_t nr_cpus, uint32_t nr_slots, int fd);

/**
 * ltt_ust_test_remove_notifier() - as NOTIFIER_REMOVE: returns once no
 * thread can send for it any more, its count of drops not yet told sent
 * as a count-only message (waiting at most 200 ms for room in the socket:
 * read it meanwhile) and its fd closed.  Returns 0 or -ENOENT.
 */
int ltt_ust_test_remove_notifier(uint64_t key);

/**
 * ltt_ust_test_notifier_dropped() - the messages notifier @key dropped
 * since the last one sent (what the next one, or the count-only message
 * of its removal, will carry) into @ret_dropped.  Returns 0 or -ENOENT.
 */
int ltt_ust_test_notifier_dropped(uint64_t key, uint64_t *ret_dropped);

/** ltt_ust_test_nr_events() - how many distinct events the library knows */
uint64_t ltt_ust_test_nr_events(void);

/** ltt_ust_test_event_known() - whether an event of that name is registered */
bool ltt_ust_test_event_known(const char *name);

/** ltt_ust_test_nr_channels() - channels the library holds (any owner) */
unsigned int ltt_ust_test_nr_channels(void);

/**
 * ltt_ust_test_wrecs_in_use() - the writer record indexes threads hold
 * now (each thread one from its first event to its exit)
 */
unsigned int ltt_ust_test_wrecs_in_use(void);

/**
 * ltt_ust_test_events_lost() - events the ring buffers of the current
 * channels refused (dropped, or too large), as they count them
 */
uint64_t ltt_ust_test_events_lost(void);

#endif /* LTT_UST_UST_INTERNAL_H */
