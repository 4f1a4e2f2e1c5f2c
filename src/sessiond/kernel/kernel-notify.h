/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel-notify.h - the kernel's event-rule-matches conditions of
 * triggers (doc/triggers.md), evaluated by the kernel's own tracer
 * through tracefs whichever backend records the sessions.
 *
 * Each such trigger has a notifier: a channel of its own in a tracefs
 * tracer (the kernel domain's when it records through tracefs, else one
 * opened for the notifiers), the events its rule takes enabled there with
 * the programs of its filter, as a channel's rules get them (the kernel
 * filters what ftrace's filter can say, the programs judge the rest on
 * each record).  Readers are woken by a stream's first record
 * (WAKE_EARLY); one thread reads every notifier's per-CPU buffers with
 * the converter's record reader (common/ftrace-conv.h) and fires the
 * trigger for each record kept, with its captures.  What ftrace could not
 * keep (a full buffer) is counted as the trigger's dropped notifications.
 */
#ifndef LTT_SESSIOND_KERNEL_NOTIFY_H
#define LTT_SESSIOND_KERNEL_NOTIFY_H

#include <ltt/ltt-error.h>

#include "common/trigger.h"
#include "sessiond/model/trigger.h"

struct ltt_kernel;
struct ltt_knotify;

/**
 * ltt_knotify_check() - may @k's notifiers evaluate @c (a kernel
 * event-rule-matches condition)?  Tries it: a channel with the rule's
 * events and programs made in tracefs and released.  LTT_ERR_OK,
 * TRIGGER_UNSUPPORTED (no tracefs to evaluate it with), or the code of
 * what tracefs refused (KERNEL_EVENT_NOT_FOUND: it has none of the
 * events; FILTER_KERNEL_CONTEXT: a context it can't read); logged.
 * No lock held.
 */
enum ltt_error_code ltt_knotify_check(struct ltt_kernel *k, const struct ltt_trigger_conf *c);

/**
 * ltt_knotify_sync() - the notifiers of @k as @trs's kernel event-rule
 * triggers say: one made (and recording) for each new trigger, those of
 * removed triggers released.  A notifier that can't be made is logged
 * and tried again at the next change.  No lock held.
 */
void ltt_knotify_sync(struct ltt_kernel *k, struct ltt_triggers *trs);

/**
 * ltt_knotify_stop() - no trigger fires from the kernel any more: the
 * reader is stopped (the daemon stops it before its trigger runner goes).
 * Accepts NULL.
 */
void ltt_knotify_stop(struct ltt_knotify *kn);

/** ltt_knotify_free() - stop the reader, release every notifier; accepts NULL */
void ltt_knotify_free(struct ltt_knotify *kn);

#endif /* LTT_SESSIOND_KERNEL_NOTIFY_H */
