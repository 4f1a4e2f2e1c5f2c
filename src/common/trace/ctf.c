// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ctf.c - metadata packets and index file records (doc/ctf.md).
 */
#include <endian.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "common/trace/ctf.h"

#define INDEX_ENTRY_SIZE_1_0 56

size_t ltt_ctf_metadata_size(size_t len)
{
	size_t packets = len / LTT_CTF_METADATA_ROOM + (len % LTT_CTF_METADATA_ROOM != 0);

	return packets * LTT_CTF_METADATA_PACKET_SIZE;
}

/* A host-order (trace byte order) u32 at @p. */
static void put_host32(uint8_t *p, uint32_t v)
{
	memcpy(p, &v, sizeof(v));
}

int ltt_ctf_metadata_packet(const uint8_t *uuid, const void *text, size_t len, void *buf,
			    size_t size, size_t *ret_len)
{
	const uint8_t *src = text;
	uint8_t *pkt = buf;
	size_t total, done;

	if (!uuid || (len && (!text || !buf)) || !ret_len)
		return -EINVAL;
	/* Below SIZE_MAX / 2, the packets' size (< len * 1.01 + 4096) cannot overflow. */
	if (len > SIZE_MAX / 2)
		return -EINVAL;
	total = ltt_ctf_metadata_size(len);
	if (size < total)
		return -EINVAL;
	for (done = 0; done < len; done += LTT_CTF_METADATA_ROOM) {
		size_t chunk = len - done < LTT_CTF_METADATA_ROOM ? len - done
								   : LTT_CTF_METADATA_ROOM;

		put_host32(pkt, LTT_CTF_METADATA_MAGIC);
		memcpy(pkt + 4, uuid, LTT_CTF_UUID_LEN);
		put_host32(pkt + 20, 0);	/* checksum */
		put_host32(pkt + 24, (uint32_t)((LTT_CTF_METADATA_HEADER_SIZE + chunk) * 8));
		put_host32(pkt + 28, LTT_CTF_METADATA_PACKET_SIZE * 8);
		pkt[32] = 0;	/* compression_scheme */
		pkt[33] = 0;	/* encryption_scheme */
		pkt[34] = 0;	/* checksum_scheme */
		pkt[35] = 1;	/* major */
		pkt[36] = 8;	/* minor */
		memcpy(pkt + LTT_CTF_METADATA_HEADER_SIZE, src + done, chunk);
		memset(pkt + LTT_CTF_METADATA_HEADER_SIZE + chunk, 0,
		       LTT_CTF_METADATA_ROOM - chunk);
		pkt += LTT_CTF_METADATA_PACKET_SIZE;
	}
	*ret_len = total;
	return 0;
}

static void put_be32(uint8_t *p, uint32_t v)
{
	v = htobe32(v);
	memcpy(p, &v, sizeof(v));
}

static void put_be64(uint8_t *p, uint64_t v)
{
	v = htobe64(v);
	memcpy(p, &v, sizeof(v));
}

static uint32_t get_be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static uint64_t get_be64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return be64toh(v);
}

void ltt_ctf_index_header(uint8_t *buf)
{
	put_be32(buf, LTT_CTF_INDEX_MAGIC);
	put_be32(buf + 4, LTT_CTF_INDEX_MAJOR);
	put_be32(buf + 8, LTT_CTF_INDEX_MINOR);
	put_be32(buf + 12, LTT_CTF_INDEX_ENTRY_SIZE);
}

int ltt_ctf_index_header_decode(const uint8_t *buf, uint32_t *ret_entry_size)
{
	uint32_t minor = get_be32(buf + 8), entry_size = get_be32(buf + 12);

	if (get_be32(buf) != LTT_CTF_INDEX_MAGIC || get_be32(buf + 4) != LTT_CTF_INDEX_MAJOR)
		return -EPROTO;
	if (minor == 0 ? entry_size != INDEX_ENTRY_SIZE_1_0 : entry_size < LTT_CTF_INDEX_ENTRY_SIZE)
		return -EPROTO;
	*ret_entry_size = entry_size;
	return 0;
}

void ltt_ctf_index_entry(const struct ltt_ctf_index_entry *e, uint8_t *buf)
{
	put_be64(buf, e->offset);
	put_be64(buf + 8, e->packet_size);
	put_be64(buf + 16, e->content_size);
	put_be64(buf + 24, e->timestamp_begin);
	put_be64(buf + 32, e->timestamp_end);
	put_be64(buf + 40, e->events_discarded);
	put_be64(buf + 48, e->stream_id);
	put_be64(buf + 56, e->stream_instance_id);
	put_be64(buf + 64, e->packet_seq_num);
}

int ltt_ctf_index_entry_decode(const uint8_t *buf, size_t entry_size,
			       struct ltt_ctf_index_entry *ret)
{
	struct ltt_ctf_index_entry e = { 0 };

	if (entry_size != INDEX_ENTRY_SIZE_1_0 && entry_size < LTT_CTF_INDEX_ENTRY_SIZE)
		return -EINVAL;
	e.offset = get_be64(buf);
	e.packet_size = get_be64(buf + 8);
	e.content_size = get_be64(buf + 16);
	e.timestamp_begin = get_be64(buf + 24);
	e.timestamp_end = get_be64(buf + 32);
	e.events_discarded = get_be64(buf + 40);
	e.stream_id = get_be64(buf + 48);
	if (entry_size >= LTT_CTF_INDEX_ENTRY_SIZE) {
		e.stream_instance_id = get_be64(buf + 56);
		e.packet_seq_num = get_be64(buf + 64);
	}
	*ret = e;
	return 0;
}

int ltt_ctf_torn_event(void *buf, uint64_t len, uint64_t ts, uint32_t ctx_len)
{
	uint8_t *b = buf;
	uint64_t n, hdr = len < LTT_CTF_EXTENDED_HEADER + (uint64_t)ctx_len ?
			  LTT_CTF_TORN_MIN : LTT_CTF_EXTENDED_HEADER;
	uint32_t id, word, n32;
	uint8_t *p;

	if (!buf || len < LTT_CTF_TORN_MIN + (uint64_t)ctx_len || len - hdr - ctx_len > UINT32_MAX)
		return -EINVAL;
	n = len - hdr - ctx_len;
	id = !n ? LTT_CTF_TORN_ID_EMPTY : n <= 256 ? LTT_CTF_TORN_ID_SHORT : LTT_CTF_TORN_ID_LONG;
	memset(b, 0, (size_t)len);
	if (hdr == LTT_CTF_TORN_MIN) {
		/* bits 0-4 the id, 5-31 the timestamp's low 27 bits */
		word = id | (uint32_t)ts << 5;
		memcpy(b, &word, 4);
	} else {
		b[0] = 31;
		memcpy(b + 1, &id, 4);
		memcpy(b + 5, &ts, 8);
	}
	p = b + hdr + ctx_len;	/* the context stays zero */
	if (id == LTT_CTF_TORN_ID_SHORT) {
		*p = (uint8_t)(n - 1);
	} else if (id == LTT_CTF_TORN_ID_LONG) {
		n32 = (uint32_t)(n - 4);
		memcpy(p, &n32, 4);
	}
	return 0;
}

void ltt_ctf2_scan_init(struct ltt_ctf2_scan *s)
{
	memset(s, 0, sizeof(*s));
}

void ltt_ctf2_scan_feed(struct ltt_ctf2_scan *s, const void *buf, size_t len)
{
	const uint8_t *p = buf;
	size_t i;

	for (i = 0; i < len && !s->broken; i++, s->pos++) {
		uint8_t c = p[i];

		if (s->in_string) {
			if (s->escape)
				s->escape = false;
			else if (c == '\\')
				s->escape = true;
			else if (c == '"')
				s->in_string = false;
			continue;
		}
		if (!s->depth) {
			/* between fragments: a separator, then an object */
			if (c == LTT_CTF2_RS && !s->opened)
				s->opened = true;
			else if (c == '{' && s->opened)
				s->depth = 1;
			else if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
				s->broken = true;	/* not a fragment's start */
			continue;
		}
		if (c == '"') {
			s->in_string = true;
		} else if (c == '{' || c == '[') {
			if (++s->depth == 0)
				s->broken = true;
		} else if ((c == '}' || c == ']') && !--s->depth) {
			s->opened = false;
			s->whole = s->pos + 1;
		}
	}
}
