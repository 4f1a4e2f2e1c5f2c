// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-timer.c - timer wheel and hrtimer events, named as LTTng's
 * (the hrtimer ones prefixed timer_hrtimer_).  Timers and functions are
 * kernel addresses in hex; timer expiries in jiffies, hrtimer ones in ns
 * of the timer's clock.
 */
#include <linux/hrtimer.h>
#include <linux/jiffies.h>
#include <linux/timer.h>

#include "../wrapper/ltt-probe-wrapper.h"	/* before the trace header */
#include <trace/events/timer.h>

#include "../ltt-event.h"

#define TIMER_ONLY_EVENT(name, tp) \
	LTT_TRACEPOINT_EVENT(name, tp, \
		LTT_PROTO(struct timer_list *timer), \
		LTT_FIELDS(ltt_field_integer_hex(u64, timer, (unsigned long)timer)))

TIMER_ONLY_EVENT(timer_init, timer_init);
TIMER_ONLY_EVENT(timer_expire_exit, timer_expire_exit);
TIMER_ONLY_EVENT(timer_cancel, timer_cancel);

LTT_IF(LTT_HAVE_TIMER_START,
LTT_TRACEPOINT_EVENT(timer_start, timer_start,
	LTT_PROTO_TIMER_START,
	LTT_FIELDS(
		ltt_field_integer_hex(u64, timer, (unsigned long)timer)
		ltt_field_integer_hex(u64, function, (unsigned long)timer->function)
		ltt_field_integer(u64, expires, LTT_TIMER_START_EXPIRES)
		ltt_field_integer(u64, now, jiffies)
		ltt_field_integer(u32, flags, LTT_TIMER_START_FLAGS)));
)

LTT_TRACEPOINT_EVENT(timer_expire_entry, timer_expire_entry,
	LTT_PROTO(struct timer_list *timer, unsigned long baseclk),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, timer, (unsigned long)timer)
		ltt_field_integer(u64, now, baseclk)
		ltt_field_integer_hex(u64, function, (unsigned long)timer->function)));

#define HRTIMER_ONLY_EVENT(name, tp) \
	LTT_TRACEPOINT_EVENT(name, tp, \
		LTT_PROTO(struct hrtimer *hrtimer), \
		LTT_FIELDS(ltt_field_integer_hex(u64, hrtimer, (unsigned long)hrtimer)))

HRTIMER_ONLY_EVENT(timer_hrtimer_expire_exit, hrtimer_expire_exit);
HRTIMER_ONLY_EVENT(timer_hrtimer_cancel, hrtimer_cancel);

LTT_IF(LTT_HAVE_HRTIMER_INIT,
LTT_TRACEPOINT_EVENT(timer_hrtimer_init, LTT_TP_HRTIMER_INIT,
	LTT_PROTO(struct hrtimer *hrtimer, clockid_t clockid, enum hrtimer_mode mode),
	LTT_FIELDS(
		ltt_field_integer_hex(u64, hrtimer, (unsigned long)hrtimer)
		ltt_field_integer(s32, clockid, clockid)
		ltt_field_integer(s32, mode, mode)));
)

LTT_TRACEPOINT_EVENT(timer_hrtimer_start, hrtimer_start,
	LTT_PROTO_HRTIMER_START,
	LTT_FIELDS(
		ltt_field_integer_hex(u64, hrtimer, (unsigned long)hrtimer)
		ltt_field_integer_hex(u64, function, (unsigned long)hrtimer->function)
		ltt_field_integer(s64, expires, hrtimer_get_expires(hrtimer))
		ltt_field_integer(s64, softexpires, hrtimer_get_softexpires(hrtimer))
		ltt_field_integer(s32, mode, mode)));

LTT_TRACEPOINT_EVENT(timer_hrtimer_expire_entry, hrtimer_expire_entry,
	LTT_PROTO_HRTIMER_EXPIRE_ENTRY,
	LTT_FIELDS(
		ltt_field_integer_hex(u64, hrtimer, (unsigned long)hrtimer)
		ltt_field_integer(s64, now, LTT_HRTIMER_EXPIRE_ENTRY_NOW)
		ltt_field_integer_hex(u64, function, (unsigned long)hrtimer->function)));

LTT_PROBE(timer, NULL, NULL,
	  LTT_EVENT_DESC(timer_init),
	  LTT_IF(LTT_HAVE_TIMER_START, LTT_EVENT_DESC(timer_start),)
	  LTT_EVENT_DESC(timer_expire_entry),
	  LTT_EVENT_DESC(timer_expire_exit),
	  LTT_EVENT_DESC(timer_cancel),
	  LTT_IF(LTT_HAVE_HRTIMER_INIT, LTT_EVENT_DESC(timer_hrtimer_init),)
	  LTT_EVENT_DESC(timer_hrtimer_start),
	  LTT_EVENT_DESC(timer_hrtimer_expire_entry),
	  LTT_EVENT_DESC(timer_hrtimer_expire_exit),
	  LTT_EVENT_DESC(timer_hrtimer_cancel));
