/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-check.h - a saved session of the model of config-model.h checked as
 * a whole: after a file is read, and again after load's overrides.
 * Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_CHECK_H
#define LTT_LIB_CONFIG_CHECK_H

#include <stddef.h>

#include "lib/ltt-ctl/config-model.h"

/**
 * ltt_cfg_check_session() - check one session of the model as a whole
 * (after overrides): its attributes, each channel for its domain, each
 * rule, no channel or rule twice, one buffer type per domain
 * @err: receives "FILE:LINE: what is wrong"
 *
 * Returns 0 or -LTT_ERR_CONFIG_INVALID.
 */
int ltt_cfg_check_session(const struct ltt_cfg_session *s, char *err, size_t errlen);

#endif /* LTT_LIB_CONFIG_CHECK_H */
