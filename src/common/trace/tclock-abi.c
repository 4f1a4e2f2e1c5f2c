/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * tclock-abi.c - in a daemon's executable, exported (the link's
 * --export-dynamic-symbol): the functions a clock plugin calls from its
 * lttng_ust_clock_plugin_init(), which find them there since a plugin
 * links no library of LTTng's (common/trace/tclock.h).
 */
#include "common/trace/tclock.h"

LTT_TCLOCK_PLUGIN_ABI(__attribute__((visibility("default"))))
