// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_ctf.c - the CTF pieces of common/trace/ctf.c that read input: index
 * files (header, then entries of the size it declares; 1.0's 56 bytes
 * or 1.1's 72 and more), and the metadata packet framing of any TSDL
 * text.
 *
 * Input: byte 0 even: an index file; odd: TSDL text to frame.  Promises
 * checked: a decoded 72-byte entry encodes back to the same bytes; a
 * 56-byte one has no stream_instance_id nor packet_seq_num; the framed
 * metadata is ltt_ctf_metadata_size() bytes of 4096-byte packets whose
 * headers carry the magic and content sizes that add up to the text.
 */
#include <endian.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/trace/ctf.h"
#include "fuzz.h"

static void check_index(const uint8_t *data, size_t size)
{
	uint8_t again[LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_ctf_index_entry e;
	uint32_t entry_size;
	size_t pos;

	if (size < LTT_CTF_INDEX_HEADER_SIZE || ltt_ctf_index_header_decode(data, &entry_size))
		return;
	FUZZ_CHECK(entry_size == 56 || entry_size >= LTT_CTF_INDEX_ENTRY_SIZE);
	for (pos = LTT_CTF_INDEX_HEADER_SIZE; size - pos >= entry_size; pos += entry_size) {
		FUZZ_CHECK(!ltt_ctf_index_entry_decode(data + pos, entry_size, &e));
		if (entry_size == 56) {
			FUZZ_CHECK(!e.stream_instance_id && !e.packet_seq_num);
			continue;
		}
		ltt_ctf_index_entry(&e, again);
		FUZZ_CHECK(!memcmp(again, data + pos, LTT_CTF_INDEX_ENTRY_SIZE));
	}
}

static uint32_t be32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return be32toh(v);
}

static uint32_t host32_at(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void check_metadata(const uint8_t *text, size_t len)
{
	static const uint8_t uuid[LTT_CTF_UUID_LEN] = { 0xab, 0xcd };
	size_t want = ltt_ctf_metadata_size(len), got = 0, pos, text_bytes = 0;
	uint8_t *buf = malloc(want + 1);

	FUZZ_CHECK(buf);
	FUZZ_CHECK(want % LTT_CTF_METADATA_PACKET_SIZE == 0);
	FUZZ_CHECK(!len == !want);
	if (want)
		FUZZ_CHECK(ltt_ctf_metadata_packet(uuid, text, len, buf, want - 1, &got) == -EINVAL);
	FUZZ_CHECK(!ltt_ctf_metadata_packet(uuid, text, len, buf, want, &got));
	FUZZ_CHECK(got == want);
	for (pos = 0; pos < got; pos += LTT_CTF_METADATA_PACKET_SIZE) {
		const uint8_t *p = buf + pos;
		uint32_t magic = host32_at(p), content_bits;

		/* the magic in either byte order: readers detect it */
		FUZZ_CHECK(magic == LTT_CTF_METADATA_MAGIC ||
			   be32_at(p) == LTT_CTF_METADATA_MAGIC);
		FUZZ_CHECK(!memcmp(p + 4, uuid, LTT_CTF_UUID_LEN));
		content_bits = magic == LTT_CTF_METADATA_MAGIC ? host32_at(p + 24) : be32_at(p + 24);
		FUZZ_CHECK(content_bits % 8 == 0 && content_bits / 8 > LTT_CTF_METADATA_HEADER_SIZE &&
			   content_bits / 8 <= LTT_CTF_METADATA_PACKET_SIZE);
		FUZZ_CHECK(!memcmp(p + LTT_CTF_METADATA_HEADER_SIZE, text + text_bytes,
				   content_bits / 8 - LTT_CTF_METADATA_HEADER_SIZE));
		text_bytes += content_bits / 8 - LTT_CTF_METADATA_HEADER_SIZE;
	}
	FUZZ_CHECK(text_bytes == len);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	if (data[0] & 1)
		check_metadata(data + 1, size - 1);
	else
		check_index(data + 1, size - 1);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char tsdl[] = "\x01/* CTF 1.8 */\ntrace {\n\tmajor = 1;\n\tminor = 8;\n};\n";
	uint8_t file[1 + LTT_CTF_INDEX_HEADER_SIZE + 3 * LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_ctf_index_entry e = { .offset = 0, .packet_size = 32768, .content_size = 20000,
					 .timestamp_begin = 100, .timestamp_end = 200,
					 .events_discarded = 0, .stream_id = 1,
					 .stream_instance_id = 2, .packet_seq_num = 0 };
	unsigned int i;

	file[0] = 0;
	ltt_ctf_index_header(file + 1);
	for (i = 0; i < 3; i++) {
		ltt_ctf_index_entry(&e, file + 1 + LTT_CTF_INDEX_HEADER_SIZE +
				    i * LTT_CTF_INDEX_ENTRY_SIZE);
		e.offset += 4096;
		e.packet_seq_num++;
		e.timestamp_begin += 100;
		e.timestamp_end += 100;
	}
	emit("index-0", file, sizeof(file));
	emit("metadata-0", tsdl, sizeof(tsdl) - 1);
}
