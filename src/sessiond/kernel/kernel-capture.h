/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-capture.h - the captures of a trigger's kernel records, for
 * kernel-notify.c's reader.
 */
#ifndef LTT_SESSIOND_KERNEL_CAPTURE_H
#define LTT_SESSIOND_KERNEL_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

#include "common/model/trigger.h"
#include "sessiond/model/trigger.h"

struct ltt_ftrace_event;
struct ltt_filter_arg;

/**
 * ltt_knotify_capture() - @e's value of record @rec (its event's layout
 * @ev, its fields' values @args, read at CPU @cpu) into @f's capture @i,
 * a string or an array's elements after the @used bytes of @f's room
 * (kernel-capture.c; unavailable where it has none whole)
 */
void ltt_knotify_capture(struct ltt_firing *f, uint32_t i, const struct ltt_capture_expr *e,
			 const struct ltt_ftrace_event *ev, const struct ltt_filter_arg *args,
			 const uint8_t *rec, uint32_t cpu, size_t *used);

#endif /* LTT_SESSIOND_KERNEL_CAPTURE_H */
