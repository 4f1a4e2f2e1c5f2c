/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * msg.h - the framing shared by the app and consumer protocols
 * (app-proto.h, consumer-proto.h): a 16-byte header {u32 magic, u16 type,
 * u16 reserved (0), u32 seq, u32 payload_len}, little-endian, then the
 * payload; file descriptors as SCM_RIGHTS on the header's first byte.
 */
#ifndef LTT_COMMON_MSG_H
#define LTT_COMMON_MSG_H

#include <stddef.h>
#include <stdint.h>

#define LTT_MSG_HDR_SIZE 16
#define LTT_MSG_MAX_FDS 1024

struct ltt_msg_hdr {
	uint32_t magic;
	uint16_t type;
	uint16_t reserved;
	uint32_t seq;
	uint32_t payload_len;
};

/* One received message: owns its payload and the fds not yet taken. */
struct ltt_msg {
	struct ltt_msg_hdr hdr;
	uint8_t *payload;	/* hdr.payload_len bytes, NULL if empty */
	int *fds;		/* nr_fds fds; a taker sets an entry to -1 */
	unsigned int nr_fds;
};

/**
 * ltt_msg_hdr_encode() - write @hdr into @buf (LTT_MSG_HDR_SIZE bytes)
 */
void ltt_msg_hdr_encode(const struct ltt_msg_hdr *hdr, uint8_t *buf);

/**
 * ltt_msg_hdr_decode() - read a header and check magic, reserved, length
 * @max_payload: the largest payload the protocol allows
 *
 * Returns 0 or -EPROTO.
 */
int ltt_msg_hdr_decode(const uint8_t *buf, uint32_t magic, uint32_t max_payload,
		       struct ltt_msg_hdr *ret_hdr);

/**
 * ltt_msg_send() - send one whole message on a blocking stream socket
 * @payload: @len bytes, may be NULL when @len is 0
 * @fds: @nr_fds descriptors to pass (borrowed; the receiver gets copies)
 *
 * Returns 0, -EINVAL for too many fds, or a negative errno (-EPIPE when
 * the peer is gone, -EAGAIN on a send timeout).
 */
int ltt_msg_send(int fd, uint32_t magic, uint16_t type, uint32_t seq, const void *payload,
		 size_t len, const int *fds, unsigned int nr_fds);

/**
 * ltt_msg_recv() - receive one whole message on a blocking stream socket
 * @max_payload: larger payloads are refused (-EPROTO)
 * @max_fds: more fds are refused (-EPROTO), and closed
 * @ret_msg: filled on success; release with ltt_msg_fini()
 *
 * Received fds are close-on-exec.  Returns 0, -ECONNRESET when the peer
 * closed (cleanly, before a header), -EPROTO for a malformed message, or
 * a negative errno (-EAGAIN on a receive timeout).
 */
int ltt_msg_recv(int fd, uint32_t magic, uint32_t max_payload, unsigned int max_fds,
		 struct ltt_msg *ret_msg);

/**
 * ltt_msg_take_fd() - take ownership of the message's fd @i, or -1
 */
int ltt_msg_take_fd(struct ltt_msg *msg, unsigned int i);

/**
 * ltt_msg_fini() - free the payload and close the fds not taken; accepts
 * a zeroed message
 */
void ltt_msg_fini(struct ltt_msg *msg);

#endif /* LTT_COMMON_MSG_H */
