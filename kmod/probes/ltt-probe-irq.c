// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-probe-irq.c - hard and soft interrupt events, as LTTng's: the
 * handler's entry and exit with the IRQ number (and the handler's name,
 * its return value), softirq raise/entry/exit with the vector number.
 */
#include <linux/interrupt.h>
#include <trace/events/irq.h>

#include "../ltt-event.h"

LTT_TRACEPOINT_EVENT(irq_handler_entry, irq_handler_entry,
	LTT_PROTO(int irq, struct irqaction *action),
	LTT_FIELDS(
		ltt_field_integer(s32, irq, irq)
		ltt_field_string(name, action->name)));

LTT_TRACEPOINT_EVENT(irq_handler_exit, irq_handler_exit,
	LTT_PROTO(int irq, struct irqaction *action, int ret),
	LTT_FIELDS(
		ltt_field_integer(s32, irq, irq)
		ltt_field_integer(s32, ret, ret)));

#define IRQ_SOFTIRQ_EVENT(name, tp) \
	LTT_TRACEPOINT_EVENT(name, tp, \
		LTT_PROTO(unsigned int vec_nr), \
		LTT_FIELDS(ltt_field_integer(u32, vec, vec_nr)))

IRQ_SOFTIRQ_EVENT(irq_softirq_entry, softirq_entry);
IRQ_SOFTIRQ_EVENT(irq_softirq_exit, softirq_exit);
IRQ_SOFTIRQ_EVENT(irq_softirq_raise, softirq_raise);

LTT_PROBE(irq, NULL, NULL,
	  LTT_EVENT_DESC(irq_handler_entry),
	  LTT_EVENT_DESC(irq_handler_exit),
	  LTT_EVENT_DESC(irq_softirq_entry),
	  LTT_EVENT_DESC(irq_softirq_exit),
	  LTT_EVENT_DESC(irq_softirq_raise));
