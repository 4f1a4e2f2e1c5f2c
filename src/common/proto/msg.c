// SPDX-License-Identifier: LGPL-2.1-only
/*
 * msg.c - framing with fd passing for the app and consumer protocols.
 */
#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "common/base/sock.h"
#include "common/proto/msg.h"

void ltt_msg_hdr_encode(const struct ltt_msg_hdr *hdr, uint8_t *buf)
{
	uint32_t magic = htole32(hdr->magic), seq = htole32(hdr->seq);
	uint32_t len = htole32(hdr->payload_len);
	uint16_t type = htole16(hdr->type), reserved = htole16(hdr->reserved);

	memcpy(buf, &magic, 4);
	memcpy(buf + 4, &type, 2);
	memcpy(buf + 6, &reserved, 2);
	memcpy(buf + 8, &seq, 4);
	memcpy(buf + 12, &len, 4);
}

int ltt_msg_hdr_decode(const uint8_t *buf, uint32_t magic, uint32_t max_payload,
		       struct ltt_msg_hdr *ret_hdr)
{
	struct ltt_msg_hdr hdr;

	memcpy(&hdr.magic, buf, 4);
	memcpy(&hdr.type, buf + 4, 2);
	memcpy(&hdr.reserved, buf + 6, 2);
	memcpy(&hdr.seq, buf + 8, 4);
	memcpy(&hdr.payload_len, buf + 12, 4);
	hdr.magic = le32toh(hdr.magic);
	hdr.type = le16toh(hdr.type);
	hdr.reserved = le16toh(hdr.reserved);
	hdr.seq = le32toh(hdr.seq);
	hdr.payload_len = le32toh(hdr.payload_len);
	if (hdr.magic != magic || hdr.reserved || hdr.payload_len > max_payload)
		return -EPROTO;
	*ret_hdr = hdr;
	return 0;
}

int ltt_msg_send(int fd, uint32_t magic, uint16_t type, uint32_t seq, const void *payload,
		 size_t len, const int *fds, unsigned int nr_fds)
{
	struct ltt_msg_hdr hdr = { .magic = magic, .type = type, .seq = seq };
	uint8_t hdrbuf[LTT_MSG_HDR_SIZE];
	struct iovec iov = { .iov_base = hdrbuf, .iov_len = sizeof(hdrbuf) };
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cmsg;
	char *cbuf = NULL;
	size_t clen;
	ssize_t n;
	int ret;

	if (nr_fds > LTT_MSG_MAX_FDS || len > UINT32_MAX)
		return -EINVAL;
	hdr.payload_len = (uint32_t)len;
	ltt_msg_hdr_encode(&hdr, hdrbuf);
	if (nr_fds) {
		clen = CMSG_SPACE(nr_fds * sizeof(int));
		/* zeroed: the padding after an odd number of fds goes to the kernel too */
		cbuf = calloc(1, clen);
		if (!cbuf)
			return -ENOMEM;
		mh.msg_control = cbuf;
		mh.msg_controllen = clen;
		cmsg = CMSG_FIRSTHDR(&mh);
		cmsg->cmsg_level = SOL_SOCKET;
		cmsg->cmsg_type = SCM_RIGHTS;
		cmsg->cmsg_len = CMSG_LEN(nr_fds * sizeof(int));
		memcpy(CMSG_DATA(cmsg), fds, nr_fds * sizeof(int));
	}
	do
		n = sendmsg(fd, &mh, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	free(cbuf);
	if (n < 0)
		return -errno;
	/* The fds went with the first byte; send the rest plainly. */
	ret = ltt_io_write_all(fd, hdrbuf + n, sizeof(hdrbuf) - (size_t)n);
	if (!ret && len)
		ret = ltt_io_write_all(fd, payload, len);
	return ret;
}

/* Collect the fds of a received control message; close them on error. */
static int collect_fds(struct msghdr *mh, unsigned int max_fds, struct ltt_msg *msg)
{
	struct cmsghdr *cmsg;
	unsigned int i, n;
	int ret = 0;

	for (cmsg = CMSG_FIRSTHDR(mh); cmsg; cmsg = CMSG_NXTHDR(mh, cmsg)) {
		int *p;

		if (cmsg->cmsg_level != SOL_SOCKET || cmsg->cmsg_type != SCM_RIGHTS)
			continue;
		n = (unsigned int)((cmsg->cmsg_len - CMSG_LEN(0)) / sizeof(int));
		p = realloc(msg->fds, (msg->nr_fds + n) * sizeof(int));
		if (!p) {
			/* Still close what we were sent. */
			for (i = 0; i < n; i++) {
				int fd;

				memcpy(&fd, CMSG_DATA(cmsg) + i * sizeof(int), sizeof(int));
				close(fd);
			}
			ret = -ENOMEM;
			continue;
		}
		msg->fds = p;
		memcpy(msg->fds + msg->nr_fds, CMSG_DATA(cmsg), n * sizeof(int));
		msg->nr_fds += n;
	}
	if (mh->msg_flags & MSG_CTRUNC)
		ret = -EPROTO;
	if (msg->nr_fds > max_fds)
		ret = -EPROTO;
	return ret;
}

int ltt_msg_recv(int fd, uint32_t magic, uint32_t max_payload, unsigned int max_fds,
		 struct ltt_msg *ret_msg)
{
	uint8_t hdrbuf[LTT_MSG_HDR_SIZE];
	struct iovec iov = { .iov_base = hdrbuf, .iov_len = sizeof(hdrbuf) };
	size_t clen = CMSG_SPACE((max_fds ? max_fds : 1) * sizeof(int));
	struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ltt_msg msg = { 0 };
	char *cbuf;
	ssize_t n;
	int ret;

	/* not zeroed: recvmsg() sets msg_controllen to what it wrote, CMSG_* read no further */
	cbuf = malloc(clen);
	if (!cbuf)
		return -ENOMEM;
	mh.msg_control = cbuf;
	mh.msg_controllen = clen;
	do
		n = recvmsg(fd, &mh, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n <= 0) {
		free(cbuf);
		return n == 0 ? -ECONNRESET : -errno;
	}
	ret = collect_fds(&mh, max_fds, &msg);
	free(cbuf);
	if (!ret && (size_t)n < sizeof(hdrbuf))
		ret = ltt_io_read_all(fd, hdrbuf + n, sizeof(hdrbuf) - (size_t)n);
	if (!ret)
		ret = ltt_msg_hdr_decode(hdrbuf, magic, max_payload, &msg.hdr);
	if (!ret && msg.hdr.payload_len) {
		msg.payload = malloc(msg.hdr.payload_len);
		ret = msg.payload ? ltt_io_read_all(fd, msg.payload, msg.hdr.payload_len) : -ENOMEM;
	}
	if (ret == -ECONNRESET)
		ret = -EPROTO;	/* closed inside a message */
	if (ret) {
		ltt_msg_fini(&msg);
		return ret;
	}
	*ret_msg = msg;
	return 0;
}

int ltt_msg_take_fd(struct ltt_msg *msg, unsigned int i)
{
	int fd;

	if (i >= msg->nr_fds)
		return -1;
	fd = msg->fds[i];
	msg->fds[i] = -1;
	return fd;
}

void ltt_msg_fini(struct ltt_msg *msg)
{
	unsigned int i;

	for (i = 0; i < msg->nr_fds; i++)
		if (msg->fds[i] >= 0)
			close(msg->fds[i]);
	free(msg->fds);
	free(msg->payload);
	memset(msg, 0, sizeof(*msg));
}
