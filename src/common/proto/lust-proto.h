/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lust-proto.h - what a program of LTTng-UST's own library sends first on
 * LTTng's application socket: its registration (LTTng-UST 2.13 to 2.16's
 * lttng_ust_ctl_reg_msg, packed, in the program's byte order: this
 * host's), which the daemon in LTTng's place reads
 * to say the program is not recorded (sessiond/lust/lust.h).
 */
#ifndef LTT_COMMON_LUST_PROTO_H
#define LTT_COMMON_LUST_PROTO_H

#include <stdint.h>

#define LTT_LUST_REG_SIZE 136		/* 14 words, the name, 64 bytes of padding */
#define LTT_LUST_MAGIC 0xC57C57C5u	/* LTTng-UST's */

struct ltt_lust_reg {
	uint32_t magic;
	uint32_t major;			/* of LTTng-UST's ABI */
	uint32_t minor;
	uint32_t pid, ppid, uid, gid;	/* the program's word */
	uint32_t bits_per_long;
	uint32_t align[5];		/* of uint8_t, 16, 32, 64 and long */
	uint32_t socket_type;		/* 0: its command socket, 1: its notification one */
	char name[17];			/* its name, NUL-terminated here (16 bytes on the wire) */
};

/**
 * ltt_lust_reg_decode() - the registration of LTT_LUST_REG_SIZE bytes at
 * @buf into *@ret_reg
 *
 * Returns 0, or -EPROTO when it is not one (another magic, a socket
 * type LTTng-UST has not).
 */
int ltt_lust_reg_decode(const uint8_t *buf, struct ltt_lust_reg *ret_reg);

#endif /* LTT_COMMON_LUST_PROTO_H */
