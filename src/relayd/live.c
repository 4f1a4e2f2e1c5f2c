// SPDX-License-Identifier: GPL-2.0-only
/*
 * live.c - placeholder until the live viewer server lands (the `live`
 * branch replaces this file): the relay serves no viewers.
 */
#include <errno.h>

#include "relayd/live.h"

int ltt_relay_live_start(const struct ltt_relay_live_cfg *cfg, struct ltt_relay_live **ret_live)
{
	(void)cfg;
	(void)ret_live;
	return -ENOSYS;
}

void ltt_relay_live_stop(struct ltt_relay_live *live)
{
	(void)live;
}
