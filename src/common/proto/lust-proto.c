// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lust-proto.c - LTTng-UST's registration, decoded by a field table
 * (codec.h) (lust-proto.h).
 */
#include <errno.h>
#include <string.h>

#include "common/base/codec.h"
#include "common/proto/lust-proto.h"

/* The wire's form: the name as 16 bytes, not always NUL-terminated */
struct wire_reg {
	uint32_t magic, major, minor, pid, ppid, uid, gid, bits_per_long;
	uint32_t a8, a16, a32, a64, along, socket_type;
	uint8_t name[16];
	uint8_t padding[64];
};

/* the program's byte order, which is this host's */
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define LUST_ORDER LTT_CODEC_BE
#else
#define LUST_ORDER LTT_CODEC_LE
#endif

#define LTT_MSG struct wire_reg
LTT_CODEC(lust_reg, LUST_ORDER,
	  LTT_ROW_U32(magic), LTT_ROW_U32(major), LTT_ROW_U32(minor), LTT_ROW_U32(pid),
	  LTT_ROW_U32(ppid), LTT_ROW_U32(uid), LTT_ROW_U32(gid), LTT_ROW_U32(bits_per_long),
	  LTT_ROW_U32(a8), LTT_ROW_U32(a16), LTT_ROW_U32(a32), LTT_ROW_U32(a64),
	  LTT_ROW_U32(along), LTT_ROW_U32(socket_type), LTT_ROW_BYTES(name),
	  LTT_ROW_BYTES(padding));
#undef LTT_MSG

int ltt_lust_reg_decode(const uint8_t *buf, struct ltt_lust_reg *ret_reg)
{
	struct wire_reg w;
	struct ltt_rbuf r;

	ltt_rbuf_init(&r, buf, LTT_LUST_REG_SIZE);
	if (ltt_codec_get_msg(&r, &lust_reg, &w) || w.magic != LTT_LUST_MAGIC ||
	    w.socket_type > 1)
		return -EPROTO;
	*ret_reg = (struct ltt_lust_reg){
		.magic = w.magic, .major = w.major, .minor = w.minor, .pid = w.pid,
		.ppid = w.ppid, .uid = w.uid, .gid = w.gid, .bits_per_long = w.bits_per_long,
		.align = { w.a8, w.a16, w.a32, w.a64, w.along }, .socket_type = w.socket_type,
	};
	memcpy(ret_reg->name, w.name, sizeof(w.name));
	ret_reg->name[16] = '\0';
	return 0;
}
