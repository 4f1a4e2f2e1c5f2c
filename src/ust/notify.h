/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * notify.h - libltt-ust's notifiers (notify.c): a trigger's
 * event-rule-matches condition in the program, its messages and counters.
 * The rest of the library's map and declarations: ust.h.
 */
#ifndef LTT_UST_NOTIFY_H
#define LTT_UST_NOTIFY_H

#include "ust/ust.h"

/**
 * ust_notifier_create() - a notifier (NOTIFIER_ADD), not yet in the list
 * @owner: the daemon that adds it
 * @key: with LTT_APP_NOTIFIER_KEY_BIT
 * @nr: 0..LTT_TRIGGER_CAPTURES_LIMIT capture expressions in @captures
 *      (borrowed), each parsed here (common/model/trigger.h)
 * @minor8: the daemon takes ARRAY and enum captures
 *      (LTT_APP_MINOR_CAPTURE_ARRAY): a NAME capture of an array or
 *      sequence of integers is one, else UNAVAILABLE; an enum field's
 *      value is marked an enum's, else a plain number
 * @fd: taken (closed on error too): a connected AF_UNIX SOCK_SEQPACKET
 *      socket (the program's end of the daemon's pair); made non-blocking
 *      and close-on-exec here
 * @ret: set on success; ust_notifier_insert() it, or ust_notifier_destroy()
 *
 * Any thread, no lock.  Returns 0, -EINVAL (a key without the bit, a
 * capture ltt_capture_parse() refuses, an fd that is not such a socket: a
 * pipe, another family or type, an unconnected socket) or -ENOMEM.
 */
int ust_notifier_create(const void *owner, uint64_t key, uint32_t nr, const char *const *captures,
			bool minor8, int fd, struct ust_notifier **ret);

/**
 * ust_counter_create() - a counter (COUNTER_ADD), not yet in the list: a
 * notifier that counts in the area @fd holds instead of sending
 * @key: with LTT_APP_NOTIFIER_KEY_BIT
 * @nr_cpus, @nr_slots: the area's layout (app-proto.h)
 * @fd: taken (closed on error too): a memfd sealed against shrinking, as
 *      large as the layout at least; mapped here, then closed
 * @ret: set on success; ust_notifier_insert() it, or ust_notifier_destroy()
 *
 * Any thread, no lock.  Returns 0, -EINVAL (a key without the bit, a
 * layout out of bounds, an fd that is no such memfd), -ENOMEM or mmap()'s
 * errno.
 */
int ust_counter_create(const void *owner, uint64_t key, uint32_t nr_cpus, uint32_t nr_slots,
		       int fd, struct ust_notifier **ret);

/** ust_notifier_insert() - add to the list; -EEXIST for a known (owner, key); ust lock held */
int ust_notifier_insert(struct ust_notifier *n);

/**
 * ust_notifier_add() - ust_notifier_insert() @n (taken) under the ust
 * lock, destroyed when refused; ust lock NOT held.  Returns 0 or -EEXIST.
 */
int ust_notifier_add(struct ust_notifier *n);

/**
 * ust_notifier_find() - the channel of notifier @key of @owner (what its
 * rules point to), or NULL; ust lock held
 */
struct ust_channel *ust_notifier_find(const void *owner, uint64_t key);

/**
 * ust_notifier_remove() - NOTIFIER_REMOVE: drop notifier @key of @owner
 * from every event, unlink it and queue it on @retire, which flushes its
 * count (ust_notifiers_flush_retired()), closes its fd and frees it after
 * a grace period (ust_retire_flush()); ust lock held.  Returns 0,
 * -ENOENT, or -ENOMEM (some events still notify it: it stays).
 */
int ust_notifier_remove(const void *owner, uint64_t key, struct ust_retire *retire);

/**
 * ust_notifiers_remove_owner() - ust_notifier_remove() each notifier of
 * @owner (its daemon went away); ust lock held.  Returns the number that
 * could not be removed.
 */
unsigned int ust_notifiers_remove_owner(const void *owner, struct ust_retire *retire);

/**
 * ust_notifier_destroy() - close and free, flushing nothing (a count left
 * is lost: ust_notifiers_flush_retired() first); accepts NULL; no reader
 * may see it
 */
void ust_notifier_destroy(struct ust_notifier *n);

/** ust_notifier_next_retired() - the notifier queued after @n on its ust_retire */
struct ust_notifier *ust_notifier_next_retired(const struct ust_notifier *n);

/**
 * ust_notifiers_fork_child() - close and forget every notifier, in a child
 * just forked, after ust_registry_fork_child() (no rule points to one any
 * more); ust lock held.  Their counts are the parent's: not flushed.  The
 * child registers afresh and gets its own.
 */
void ust_notifiers_fork_child(void);

/**
 * ust_notifiers_flush_retired() - send the count of messages each notifier
 * of the chain from @first (ust_notifier_next_retired()) dropped since the
 * last one sent, as a count-only message (an empty event name, no
 * capture: app-proto.h), before ust_notifier_destroy()
 *
 * After the grace period that retired them (no probe can add to a count
 * any more), without the ust lock: it waits for room in the sockets
 * (poll() for POLLOUT), at most 200 ms for the whole chain.  A count not
 * sent (no room in time, the daemon's end closed: an error, never a
 * SIGPIPE) is lost with the notifier.  errno preserved.
 */
void ust_notifiers_flush_retired(struct ust_notifier *first);

/**
 * ust_notifiers_stop() - exit: from now on ust_notify() neither sends nor
 * counts (as the channels stop recording).  Any thread, no lock; wait for a
 * grace period before ust_notifiers_flush_all().
 */
void ust_notifiers_stop(void);

/**
 * ust_notifiers_flush_all() - exit, after ust_notifiers_stop() and a grace
 * period: flush every notifier's count as ust_notifiers_flush_retired()
 * does, at most 200 ms in all.  ust lock held: the one place it is held
 * across I/O, bounded, so that no daemon thread frees a notifier meanwhile.
 *
 * Races left: a notifier a daemon thread had retired but not yet flushed
 * when exit came is flushed by that thread only if the program lives long
 * enough; without the grace period (exit() inside a probe's read-side
 * critical section: a signal handler's) a thread still in ust_notify() may
 * count a message after the flush.
 */
void ust_notifiers_flush_all(void);

/**
 * ust_notifier_dropped() - the count of notifier @key of @owner not yet
 * told (messages dropped since the last one sent) into @ret_dropped: a
 * snapshot, for tests; ust lock held.  Returns 0 or -ENOENT.
 */
int ust_notifier_dropped(const void *owner, uint64_t key, uint64_t *ret_dropped);

/**
 * ust_notify() - the event of @ts matched notifier @chan (its filters, if
 * any, accepted): send one message on its socket
 * @chan: a channel whose enabled is UST_CHAN_NOTIFY
 * @ts: the targets walked (the event's description: its name, its fields)
 * @call: the event's arguments, or NULL (then no field can be captured)
 *
 * Fast path (a probe's slow walk): any thread, signal handlers included,
 * in the read-side critical section; no lock, no allocation, one send()
 * (MSG_DONTWAIT | MSG_NOSIGNAL: no wait, no SIGPIPE), errno preserved.  A
 * full socket (EAGAIN) or any failed send (the daemon's end closed:
 * EPIPE, ECONNRESET...) counts the message as dropped; the next message
 * sent carries the count, or the count-only message of the notifier's
 * end.  Nothing at all once ust_notifiers_stop() was called (exit).
 * A counter's (ust_counter_create()): no send; 1 is added atomically to
 * this CPU's counter of slot @id (the event's id under the counter), when
 * @id is in its layout and its area's active word is set.
 */
void ust_notify(const struct ust_channel *chan, uint32_t id, const struct ust_targets *ts,
		const struct ltt_ust_call *call);

#endif /* LTT_UST_NOTIFY_H */
