// SPDX-License-Identifier: LGPL-2.1-only
/*
 * consumer-proto.c - message names of the sessiond-consumerd protocol.
 */
#include <stddef.h>

#include "common/consumer-proto.h"

#define NAME_(name, num) [num] = #name,
static const char *const msg_names[] = { LTT_CONSUMER_MSG_TABLE(NAME_) };
#undef NAME_

const char *ltt_consumer_msg_name(uint32_t type)
{
	if (type >= sizeof(msg_names) / sizeof(msg_names[0]))
		return NULL;
	return msg_names[type];
}
