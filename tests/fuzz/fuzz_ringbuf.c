// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_ringbuf.c - the consumer's side of the shared-memory ring buffer
 * (common/trace/ringbuf.c): any program that maps a stream can write anything
 * into it, and the reader must never crash, read outside the region or
 * hand out a packet that does not fit in it.
 *
 * Input: byte 0 picks the geometry (sub-buffer size 4 or 8 KiB, 2 to 16
 * sub-buffers, discard or overwrite), byte 1 how many events writers
 * commit before the attack; then patches {u32 offset, u8 len, len bytes}
 * written anywhere in the region (offset modulo its size).  A fresh
 * reader then attaches and reads every packet it can (get, copy, check,
 * put, abandon), a bounded number of times.  Promises checked: every
 * packet handed out lies inside the region (zero-copy) or the copy
 * buffer, with the stream's packet size and a content size within it;
 * a stream left untouched reads back what was committed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "common/trace/ringbuf.h"
#include "fuzz.h"

#define MAX_SUBBUF 8192

static void write_events(struct ltt_rb *rb, unsigned int nr)
{
	struct ltt_rb_slot slot;
	unsigned int i;

	for (i = 0; i < nr; i++) {
		size_t len = 8 + (i * 37) % 600;

		if (ltt_rb_reserve(rb, len, &slot))
			continue;
		memset(slot.data, (int)i, slot.len);
		ltt_rb_commit(rb, &slot);
	}
	ltt_rb_flush(rb, false);
}

static void patch(uint8_t *mem, size_t len, const uint8_t *data, size_t size)
{
	size_t pos = 0;

	while (size - pos >= 5) {
		uint32_t off;
		size_t n = data[pos + 4];

		memcpy(&off, data + pos, 4);
		pos += 5;
		if (n > size - pos)
			n = size - pos;
		off %= (uint32_t)len;
		if (n > len - off)
			n = len - off;
		memcpy(mem + off, data + pos, n);
		pos += n;
	}
}

static void check_packet(const struct ltt_rb *rb, const struct ltt_rb_packet *pkt,
			 const uint8_t *mem, size_t len, const uint8_t *copy)
{
	const uint8_t *p = pkt->data;

	FUZZ_CHECK(pkt->packet_size == rb->subbuf_size);
	FUZZ_CHECK(pkt->content_size <= pkt->packet_size);
	FUZZ_CHECK(pkt->content_size >= sizeof(struct ltt_rb_packet_header));
	FUZZ_CHECK(pkt->region_offset <= len && len - pkt->region_offset >= pkt->packet_size);
	if (copy)
		FUZZ_CHECK(p == copy);
	else
		FUZZ_CHECK(p == mem + pkt->region_offset);
	FUZZ_CHECK(pkt->header.magic == LTT_RB_PACKET_MAGIC);
}

/* Read what the reader accepts; returns the packets read. */
static unsigned int read_all(struct ltt_rb *rb, const uint8_t *mem, size_t len, uint8_t *copy,
			     unsigned int choices)
{
	struct ltt_rb_packet pkt;
	unsigned int i, good = 0;
	int ret;

	for (i = 0; i < 4 * rb->num_subbuf + 4; i++) {
		bool use_copy = (choices >> (i % 8)) & 1;

		ret = use_copy ? ltt_rb_copy_next_subbuf(rb, copy, MAX_SUBBUF, &pkt) :
				 ltt_rb_get_next_subbuf(rb, &pkt);
		if (ret == -EAGAIN) {
			if (!((choices >> 8) & 1) || ltt_rb_abandon_subbuf(rb))
				break;
			continue;
		}
		if (ret)
			continue;	/* -EIO, -ESTALE: skipped, go on */
		check_packet(rb, &pkt, mem, len, use_copy ? copy : NULL);
		if (!use_copy)
			ltt_rb_check_subbuf(rb, &pkt);
		FUZZ_CHECK(!ltt_rb_put_subbuf(rb, &pkt));
		good++;
	}
	return good;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_rb_config cfg = { .stream_id = 1, .cpu = 0, .uuid = { 1, 2, 3 } };
	struct ltt_rb writer, reader;
	uint8_t *mem, *copy;
	unsigned int events, read;
	size_t len;

	if (size < 2)
		return 0;
	cfg.subbuf_size = (data[0] & 1) ? 8192 : 4096;
	cfg.num_subbuf = (uint64_t)2 << ((data[0] >> 1) & 3);
	cfg.overwrite = (data[0] >> 3) & 1;
	events = data[1];
	len = ltt_rb_region_size(cfg.subbuf_size, cfg.num_subbuf);
	FUZZ_CHECK(len);
	mem = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	copy = malloc(MAX_SUBBUF);
	FUZZ_CHECK(mem != MAP_FAILED && copy);
	FUZZ_CHECK(!ltt_rb_init_region(mem, len, &cfg));
	FUZZ_CHECK(!ltt_rb_attach(&writer, mem, len));
	write_events(&writer, events);
	patch(mem, len, data + 2, size - 2);
	if (!ltt_rb_attach(&reader, mem, len)) {
		read = read_all(&reader, mem, len, copy, data[0] >> 4 | (unsigned int)data[1] << 4);
		/* nothing patched, nothing lost: some events make a packet */
		if (size == 2 && events && !cfg.overwrite)
			FUZZ_CHECK(read > 0);
	} else {
		FUZZ_CHECK(size > 2);
	}
	/* a region too short is refused */
	FUZZ_CHECK(ltt_rb_attach(&reader, mem, len - 4096) == -EINVAL);
	munmap(mem, len);
	free(copy);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const uint8_t seeds[][16] = {
		{ 0x00, 40 },
		{ 0x01, 200 },
		{ 0x0e, 255 },
		{ 0x08, 100 },
		/* consumed pushed ahead: offset 192, 8 bytes */
		{ 0x02, 60, 192, 0, 0, 0, 8, 0, 0x10, 0, 0, 0, 0, 0, 0 },
		/* a packet's magic broken (first data page) */
		{ 0x00, 30, 0, 0x10, 0, 0, 4, 0xde, 0xad, 0xbe, 0xef },
	};
	static const size_t lens[] = { 2, 2, 2, 2, 15, 11 };
	char name[32];
	size_t i;

	for (i = 0; i < FUZZ_ARRAY_SIZE(seeds); i++) {
		snprintf(name, sizeof(name), "region-%zu", i);
		emit(name, seeds[i], lens[i]);
	}
}
