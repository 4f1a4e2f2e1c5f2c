/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-check.h - a saved session of the model of config-model.h checked as
 * a whole: after a file is read, and again after load's overrides.
 * Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_CHECK_H
#define LTT_LIB_CONFIG_CHECK_H

#include <stddef.h>

#include "lib/ltt-ctl/config/config-model.h"

/**
 * ltt_cfg_check_session() - check one session of the model as a whole
 * (after overrides): its attributes, each channel for its domain, each
 * rule, no channel or rule twice, one buffer type per domain
 * @err: receives "FILE:LINE: what is wrong"
 *
 * Returns 0 or -LTT_ERR_CONFIG_INVALID.
 */
int ltt_cfg_check_session(const struct ltt_cfg_session *s, char *err, size_t errlen);

/**
 * ltt_cfg_buffer_type() - @c's buffer type as saved: its own, or its
 * domain's default (global for the kernel, per-uid for user space) when
 * the daemon left it unsaid
 */
enum ltt_buffer_type ltt_cfg_buffer_type(const struct ltt_channel_info *c);

/**
 * ltt_cfg_lttng_context() - the <type> word of LTTng 2.13's session
 * format (session.xsd's event_context_type_type) for ltt's context
 * @name, "VPID" for "vpid"; NULL when it has none (a perf counter goes
 * in <perf>, ltt_cfg_lttng_gap() says which).  Static.
 */
const char *ltt_cfg_lttng_context(const char *name);

/**
 * ltt_cfg_lttng_gap() - why LTTng 2.13's session format can't hold the
 * session of @d (borrowed) with @x (borrowed): a sentence (static) on
 * the first of its ltt-only features, or NULL when the format holds it
 * whole (config-lttng-write.c then writes it)
 */
const char *ltt_cfg_lttng_gap(const struct ltt_session_detail *d, const struct ltt_cfg_extra *x);

#endif /* LTT_LIB_CONFIG_CHECK_H */
