/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * event.h - one LTTng event as liblttng-ust.so.1 holds it (probe.c,
 * fields.c): the ltt tracepoint descriptor registered with libltt-ust, the
 * objects handed to the LTTng probe, and how the probe's interpreter stack
 * maps onto ltt's filter arguments.
 */
#ifndef LTT_LTTNG_UST_EVENT_H
#define LTT_LTTNG_UST_EVENT_H

#include <stdbool.h>

#include <ltt/tracepoint.h>

#include "lttng-ust/lttng-abi.h"

/* How one LTTng field reads on the interpreter stack, and which ltt field it is. */
struct lu_stack_field {
	uint8_t bytes;		/* 0 (nofilter), 8, or 16 (arrays and sequences) */
	uint8_t kind;		/* enum ltt_ust_type of the ltt field, 0 if none */
	uint8_t size;		/* the ltt field's size */
	int16_t arg;		/* the ltt field's index */
};

struct lu_event {
	struct ltt_ust_tracepoint tp;		/* registered with libltt-ust */
	struct lu_event_common common;		/* handed to the probe as its data */
	struct lu_event_recorder recorder;
	const struct lu_event_desc *desc;
	uint32_t nr_stack;			/* the LTTng fields */
	struct lu_stack_field *stack;
	uint32_t stack_len;			/* their interpreter stack's bytes */
	bool attached;				/* the probe is on the call sites */
	/* owned: */
	char *name;
	struct ltt_ust_field *fields;
	struct ltt_ust_enum_desc *enums;
	struct ltt_ust_enum_entry *entries;
};

/**
 * lu_event_fields() - describe @ev->desc's fields in ltt's field model
 * @ev: its desc set; fills tp.fields, tp.nr_fields, stack, and the owned
 *      arrays (freed by lu_event_fields_fini(), even on failure)
 *
 * Returns 0, -ENOMEM, or -EOPNOTSUPP with a sentence under LTTNG_UST_DEBUG
 * (a type ltt cannot describe yet: struct, dynamic, long double).
 */
int lu_event_fields(struct lu_event *ev);

/** lu_event_fields_fini() - free what lu_event_fields() allocated */
void lu_event_fields_fini(struct lu_event *ev);

/**
 * lu_event_args() - ltt's filter arguments from the probe's interpreter stack
 * @args: room for ev->tp.nr_fields
 * @floats: room for ev->tp.nr_fields (single-precision copies)
 *
 * The arguments point into @stack, which must outlive the probe's commit
 * (the probe's own is overwritten before event_reserve: copy it).
 * Returns the count.  Lock-free, async-signal-safe.
 */
uint32_t lu_event_args(const struct lu_event *ev, const char *stack, struct ltt_ust_arg *args,
		       float *floats);

#endif /* LTT_LTTNG_UST_EVENT_H */
