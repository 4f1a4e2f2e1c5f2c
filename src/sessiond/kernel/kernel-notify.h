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
 * the converter's record reader (common/ftrace/ftrace-conv.h) and fires the
 * trigger for each record kept, with its captures.  What ftrace could not
 * keep (a full buffer) is counted as the trigger's dropped notifications.
 */
#ifndef LTT_SESSIOND_KERNEL_NOTIFY_H
#define LTT_SESSIOND_KERNEL_NOTIFY_H

#include <ltt/ltt-error.h>

#include "common/model/trigger.h"
#include "sessiond/model/trigger.h"

struct ltt_kernel;
struct ltt_knotify;

/**
 * ltt_knotify_check() - can @k's notifiers evaluate kernel event rule @c
 * at all (a tracefs to do it with, opened the first time; a probe rule's
 * kind of probe in it, TRIGGER_KPROBE_EVENTS or TRIGGER_UPROBE_EVENTS if
 * not, and its kernel symbol)?  LTT_ERR_OK or the code (logged).  No lock
 * held.
 */
enum ltt_error_code ltt_knotify_check(struct ltt_kernel *k, const struct ltt_trigger_conf *c);

/**
 * ltt_knotify_arm() - @t (a kernel event-rule trigger, just added) gets
 * its notifier, recording and read from now on.  LTT_ERR_OK, or the code
 * of what tracefs refused (KERNEL_EVENT_NOT_FOUND: it has none of the
 * rule's events; FILTER_KERNEL_TYPE: the filter fits none of them;
 * FILTER_KERNEL_CONTEXT: a context it can't read; PROBE_NOT_FOUND: no
 * place for its probe; NOMEM, LIMIT), logged: the command then removes
 * the trigger.  A probe rule's probe is placed for it
 * (ltt_kernel_probe_place()), its file read with the rights of @t's
 * owner, or of the client on @client_fd (borrowed) where the daemon gave
 * root's rights up.  No lock held.
 */
enum ltt_error_code ltt_knotify_arm(struct ltt_kernel *k, struct ltt_trigger *t, int client_fd);

/**
 * ltt_knotify_sync() - the notifiers of removed triggers released (@trs,
 * @k's triggers, changed).  No lock held.
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
