// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tsdl-trace.c - the CTF traces test_tsdl.c builds by hand (what they
 * hold: tsdl-trace.h): event classes, metadata, stream packets byte by
 * byte, a per-PID and a kernel trace.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "common/trace/ctf.h"
#include "sessiond/ctrace/meta.h"
#include "tap.h"
#include "tsdl-trace.h"

const uint8_t tt_trace_uuid[16] = {
	0x12, 0x34, 0x56, 0x78, 0x9a, 0xbc, 0x4d, 0xef, 0x80, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07,
};

static const uint8_t pid_trace_uuid[16] = {
	0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x11, 0x42, 0x22, 0x93, 0x33, 0x44, 0x44, 0x55, 0x55, 0x66, 0x66,
};

static const uint8_t boot_id[16] = {
	0xb0, 0x07, 0x1d, 0x00, 0x00, 0x00, 0x40, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01,
};

/* ---- event classes, as a program would declare them ---- */

#define INT(n, sz, sg, b) { .name = (n), .type = LTT_UST_TYPE_INTEGER, .size = (sz), \
			    .is_signed = (sg), .base = (b) }

static const struct ltt_ust_field ints_fields[] = {
	INT("s8", 1, 1, 10), INT("s16", 2, 1, 10), INT("s32", 4, 1, 10), INT("s64", 8, 1, 10),
	INT("u8", 1, 0, 10), INT("u16", 2, 0, 10), INT("u32", 4, 0, 10), INT("u64", 8, 0, 10),
	INT("x8", 1, 0, 16), INT("x32", 4, 0, 16), INT("x64", 8, 0, 16),
};

static const struct ltt_ust_field floats_fields[] = {
	{ .name = "f", .type = LTT_UST_TYPE_FLOAT, .size = 4 },
	{ .name = "d", .type = LTT_UST_TYPE_FLOAT, .size = 8 },
};

static const struct ltt_ust_field text_fields[] = {
	{ .name = "str", .type = LTT_UST_TYPE_STRING, .size = 1 },
	{ .name = "name", .type = LTT_UST_TYPE_ARRAY, .size = 1, .base = 10,
	  .encoding = LTT_UST_ENCODING_UTF8, .length = 8 },
	{ .name = "msg", .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .base = 10,
	  .encoding = LTT_UST_ENCODING_UTF8 },
};

static const struct ltt_ust_field arrays_fields[] = {
	{ .name = "arr", .type = LTT_UST_TYPE_ARRAY, .size = 2, .base = 10, .length = 3 },
	{ .name = "seq", .type = LTT_UST_TYPE_SEQUENCE, .size = 4, .is_signed = 1, .base = 10 },
	{ .name = "bytes", .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .base = 16 },
};

static const struct ltt_ust_enum_entry small_entries[] = {
	{ .start = -128, .end = -1, .label = "neg" },
	{ .start = 0, .end = 0, .label = "zero" },
	{ .start = 1, .end = 127, .label = "say \"hi\" \\ caf\xc3\xa9" },
};

static const struct ltt_ust_enum_entry big_entries[] = {
	{ .start = 0, .end = 9, .label = "small" },
	{ .start = (int64_t)UINT64_C(0x8000000000000000), .end = -1, .label = "huge" },
};

static const struct ltt_ust_enum_desc small_enum = {
	.name = "prov_small", .nr_entries = ARRAY_SIZE(small_entries), .entries = small_entries,
};

static const struct ltt_ust_enum_desc big_enum = {
	.name = "prov_big", .nr_entries = ARRAY_SIZE(big_entries), .entries = big_entries,
};

static const struct ltt_ust_enum_entry gap_entries[] = {
	{ .start = 0, .end = 9, .label = "low" },
	{ .start = 11, .end = 65535, .label = "high" },
};

static const struct ltt_ust_enum_desc gap_enum = {
	.name = "prov_gap", .nr_entries = ARRAY_SIZE(gap_entries), .entries = gap_entries,
};

static const struct ltt_ust_field enums_fields[] = {
	{ .name = "small", .type = LTT_UST_TYPE_ENUM, .size = 1, .is_signed = 1, .base = 10,
	  .enum_desc = &small_enum },
	{ .name = "big", .type = LTT_UST_TYPE_ENUM, .size = 8, .base = 16,
	  .enum_desc = &big_enum },
	{ .name = "unknown", .type = LTT_UST_TYPE_ENUM, .size = 2, .base = 10,
	  .enum_desc = &gap_enum },
};

/* Filled in by tt_setup(): enough labels that the event's text spans metadata packets. */
static struct ltt_ust_enum_entry many_entries[NR_MANY];
static char many_labels[NR_MANY][16];
static struct ltt_ust_enum_desc many_enum = {
	.name = "prov_many", .nr_entries = NR_MANY, .entries = many_entries,
};

static const struct ltt_ust_field many_fields[] = {
	{ .name = "state", .type = LTT_UST_TYPE_ENUM, .size = 4, .base = 10,
	  .enum_desc = &many_enum },
};

static const struct ltt_ust_field far_fields[] = { INT("v", 4, 0, 10) };

/* As the LTTng-UST layer describes ctf_integer_network and a u64-counted sequence. */
#define BE LTT_UST_FIELD_BIG_ENDIAN
static const struct ltt_ust_field wire_fields[] = {
	{ .name = "port", .type = LTT_UST_TYPE_INTEGER, .size = 2, .base = 10, .flags = BE },
	{ .name = "addr", .type = LTT_UST_TYPE_INTEGER, .size = 4, .base = 16, .flags = BE },
	{ .name = "delta", .type = LTT_UST_TYPE_INTEGER, .size = 8, .is_signed = 1, .base = 10,
	  .flags = BE },
	{ .name = "ratio", .type = LTT_UST_TYPE_FLOAT, .size = 8, .flags = BE },
	{ .name = "_words_length", .type = LTT_UST_TYPE_INTEGER, .size = 8, .base = 10 },
	{ .name = "words", .type = LTT_UST_TYPE_SEQUENCE, .size = 2, .base = 16,
	  .flags = BE | LTT_UST_FIELD_LENGTH_BEFORE },
	{ .name = "n", .type = LTT_UST_TYPE_INTEGER, .size = 1, .base = 10 },
	{ .name = "text", .type = LTT_UST_TYPE_SEQUENCE, .size = 1, .base = 10,
	  .encoding = LTT_UST_ENCODING_UTF8, .flags = LTT_UST_FIELD_LENGTH_BEFORE },
};

#define TP(n, ll, f) { .abi = LTT_UST_TRACEPOINT_ABI, .name = (n), .loglevel = (ll), \
		       .nr_fields = ARRAY_SIZE(f), .fields = (f) }

const struct tt_event_class tt_event_classes[TT_NR_EVENT_CLASSES] = {
	{ EV_INTS, TP("prov:ints", 6, ints_fields) },
	{ EV_FLOATS, TP("prov:floats", 13, floats_fields) },
	{ EV_TEXT, TP("prov:text", 14, text_fields) },
	{ EV_ARRAYS, TP("prov:arrays", 6, arrays_fields) },
	{ EV_ENUMS, TP("prov:enums", 4, enums_fields) },
	{ EV_EMPTY, { .abi = LTT_UST_TRACEPOINT_ABI, .name = "prov:empty", .loglevel = 0 } },
	{ EV_MANY, TP("prov:many", 6, many_fields) },
	{ EV_FAR, TP("other.prov:far", 6, far_fields) },
	{ EV_WIRE, TP("prov:wire", 6, wire_fields) },
};

/*
 * What the daemon does with a description: receive it.  Encodes @u and
 * decodes it with ltt_app_get_tracepoint(); the caller frees the result.
 */
struct ltt_app_tracepoint *tt_receive(const struct ltt_ust_tracepoint *u)
{
	struct ltt_app_tracepoint *tp = NULL;
	struct ltt_rbuf r;
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_app_put_tracepoint(&w, u);
	ltt_rbuf_init(&r, w.data, w.len);
	if (w.err || ltt_app_get_tracepoint(&r, &tp) || ltt_rbuf_end(&r)) {
		free(tp);
		tp = NULL;
	}
	ltt_wbuf_fini(&w);
	return tp;
}

/* ---- files ---- */

char tt_tmpdir[256];
char tt_outdir[300];		/* a session's output: two traces */
char tt_tracedir[350];		/* the per-UID trace, the main subject */
char tt_piddir[350];		/* a per-PID trace beside it */

static bool write_file(const char *path, const void *data, size_t len, bool append)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);
	const uint8_t *p = data;
	bool ok = fd >= 0;

	while (ok && len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			ok = false;
		else {
			p += n;
			len -= (size_t)n;
		}
	}
	if (fd >= 0 && close(fd))
		ok = false;
	return ok;
}

/* The whole file at @path (NUL-terminated), or NULL. */
char *tt_read_file(const char *path)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;

	if (!f)
		return NULL;
	do {
		if (cap - len < 4096) {
			char *nbuf = realloc(buf, cap + 65536);

			if (!nbuf) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = nbuf;
			cap += 65536;
		}
		n = fread(buf + len, 1, cap - len - 1, f);
		len += n;
	} while (n);
	fclose(f);
	buf[len] = '\0';
	return buf;
}

/* ---- metadata ---- */

/* Frame @text as metadata packets and append them to @dir's metadata file. */
static bool append_metadata(const char *dir, const uint8_t *uuid, const struct ltt_wbuf *text,
			    unsigned int *nr_packets)
{
	size_t size = ltt_ctf_metadata_size(text->len), len = 0;
	uint8_t *buf = malloc(size ? size : 1);
	char path[400];
	bool ok;

	snprintf(path, sizeof(path), "%s/metadata", dir);
	ok = buf && !ltt_ctf_metadata_packet(uuid, text->data, text->len, buf, size, &len) &&
	     len == size && write_file(path, buf, len, true);
	*nr_packets += (unsigned int)(len / LTT_CTF_METADATA_PACKET_SIZE);
	free(buf);
	return ok;
}

void tt_make_metadata(void)
{
	struct ltt_meta_trace t = {
		.clock_offset_ns = CLOCK_OFFSET_NS,
		.hostname = "test-host",
		.trace_name = "my \"quoted\" \\ session",
		.creation_datetime = "2024-05-01T12:00:00+02:00",
		.buffering = "uid",
		.buffering_id = 1000,
		.bits_per_long = 64,
		.vpid = -1,
	};
	unsigned int i, nr_packets = 0;
	bool ok = true, gen = true;
	struct ltt_wbuf w;

	memcpy(t.uuid, tt_trace_uuid, sizeof(t.uuid));
	memcpy(t.clock_uuid, boot_id, sizeof(t.clock_uuid));
	ltt_wbuf_init(&w);
	/* As the daemon will: the header when the trace is created, ... */
	gen = !ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t);
	ok = append_metadata(tt_tracedir, tt_trace_uuid, &w, &nr_packets);
	/* ... a stream per channel, ... */
	ltt_wbuf_reset(&w);
	gen = gen && !ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, NULL, 0);
	ok = ok && append_metadata(tt_tracedir, tt_trace_uuid, &w, &nr_packets);
	/* ... and an event each time an id is assigned. */
	for (i = 0; i < ARRAY_SIZE(tt_event_classes); i++) {
		struct ltt_app_tracepoint *tp = tt_receive(&tt_event_classes[i].tp);

		ltt_wbuf_reset(&w);
		if (!tp || ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_1_8, tp, tt_event_classes[i].id, 0)) {
			tap_diag("event class %s: not generated", tt_event_classes[i].tp.name);
			gen = false;
		}
		if (tt_event_classes[i].id == EV_MANY)
			tap_ok(w.len > LTT_CTF_METADATA_ROOM, "prov:many's text (%zu bytes) spans "
			       "metadata packets", w.len);
		ok = ok && append_metadata(tt_tracedir, tt_trace_uuid, &w, &nr_packets);
		free(tp);
	}
	tap_ok(gen, "the generator makes the header, the stream and %zu events",
	       ARRAY_SIZE(tt_event_classes));
	tap_ok(ok, "metadata written as %u packets", nr_packets);
	ltt_wbuf_fini(&w);
}

/* ---- stream packets, byte by byte as doc/ctf.md says ---- */

struct packet {
	uint8_t data[SUBBUF_SIZE];
	size_t len;
	bool overflow;
};

static void put(struct packet *p, const void *v, size_t len)
{
	if (len > sizeof(p->data) - p->len) {
		p->overflow = true;
		return;
	}
	memcpy(p->data + p->len, v, len);
	p->len += len;
}

/* Host byte order: the trace's. */
static void put8(struct packet *p, uint8_t v) { put(p, &v, 1); }
static void put16(struct packet *p, uint16_t v) { put(p, &v, 2); }
static void put32(struct packet *p, uint32_t v) { put(p, &v, 4); }
static void put64(struct packet *p, uint64_t v) { put(p, &v, 8); }

static void put_float(struct packet *p, float v)
{
	put(p, &v, sizeof(v));
}

static void put_double(struct packet *p, double v)
{
	put(p, &v, sizeof(v));
}

static void put_string(struct packet *p, const char *s)
{
	put(p, s, strlen(s) + 1);
}

/* Compact: one uint32, bits 0-4 the id, bits 5-31 the timestamp's low 27 bits. */
static void header_compact(struct packet *p, uint32_t id, uint64_t ts)
{
	put32(p, id | (uint32_t)(ts & (WRAP27 - 1)) << 5);
}

/* Extended: one byte 31, uint32 id, uint64 timestamp. */
static void header_extended(struct packet *p, uint32_t id, uint64_t ts)
{
	put8(p, 31);
	put32(p, id);
	put64(p, ts);
}

struct packet_info {
	uint64_t ts_begin, ts_end, seq, discarded;
};

/* The 84-byte header and context at the packet's start, once its events are in. */
static void finish_packet_of(struct packet *p, const uint8_t *uuid,
			     const struct packet_info *info)
{
	struct packet hdr = { .len = 0 };

	put32(&hdr, LTT_CTF_PACKET_MAGIC);
	put(&hdr, uuid, 16);
	put32(&hdr, 0);			/* stream_id */
	put64(&hdr, 0);			/* stream_instance_id: CPU 0 */
	put64(&hdr, info->ts_begin);
	put64(&hdr, info->ts_end);
	put64(&hdr, p->len * 8);	/* content_size */
	put64(&hdr, SUBBUF_SIZE * 8);	/* packet_size */
	put64(&hdr, info->seq);
	put64(&hdr, info->discarded);
	put32(&hdr, 0);			/* cpu_id */
	memcpy(p->data, hdr.data, hdr.len);
}

static void finish_packet(struct packet *p, const struct packet_info *info)
{
	finish_packet_of(p, tt_trace_uuid, info);
}

static void put_ints0(struct packet *p)
{
	put8(p, (uint8_t)-1);
	put16(p, (uint16_t)-300);
	put32(p, (uint32_t)-70000);
	put64(p, (uint64_t)INT64_MIN);
	put8(p, 255);
	put16(p, 65535);
	put32(p, UINT32_MAX);
	put64(p, UINT64_MAX);
	put8(p, 0xab);
	put32(p, 0xdeadbeef);
	put64(p, UINT64_C(0x0123456789abcdef));
}

static void put_ints1(struct packet *p)
{
	put8(p, 127);
	put16(p, 32767);
	put32(p, INT32_MAX);
	put64(p, INT64_MAX);
	put8(p, 0);
	put16(p, 1);
	put32(p, 2);
	put64(p, 3);
	put8(p, 0);
	put32(p, 0x10);
	put64(p, UINT64_MAX);
}

static void make_packet0(struct packet *p)
{
	static const char name[8] = "abc";	/* NUL-padded */
	struct packet_info info = { .ts_begin = T_INTS, .ts_end = T_MANY, .seq = 0 };

	p->len = LTT_CTF_PACKET_HEADER_SIZE;
	header_compact(p, EV_INTS, T_INTS);
	put_ints0(p);
	header_compact(p, EV_FLOATS, T_FLOATS);
	put_float(p, 1.5f);
	put_double(p, -0.25);
	header_extended(p, EV_TEXT, T_TEXT);
	put_string(p, "h\xc3\xa9llo w\xc3\xb6rld");
	put(p, name, sizeof(name));
	put32(p, 5);
	put(p, "seq!!", 5);
	header_compact(p, EV_ARRAYS, T_ARRAYS);
	put16(p, 1);
	put16(p, 2);
	put16(p, 65535);
	put32(p, 3);
	put32(p, (uint32_t)-1);
	put32(p, 0);
	put32(p, 7);
	put32(p, 2);
	put8(p, 0x01);
	put8(p, 0xff);
	header_extended(p, EV_ENUMS, T_ENUMS);
	put8(p, (uint8_t)-5);
	put64(p, UINT64_MAX);
	put16(p, 10);
	header_compact(p, EV_EMPTY, T_EMPTY);
	header_extended(p, EV_FAR, T_FAR);
	put32(p, 4242);
	header_compact(p, EV_MANY, T_MANY);
	put32(p, NR_MANY - 1);
	finish_packet(p, &info);
}

static void make_packet1(struct packet *p)
{
	struct packet_info info = {
		.ts_begin = T_BEGIN1, .ts_end = T_END1, .seq = 1, .discarded = DISCARDED,
	};

	p->len = LTT_CTF_PACKET_HEADER_SIZE;
	header_compact(p, EV_INTS, T_INTS1);
	put_ints1(p);
	header_extended(p, EV_FAR, T_FAR1);
	put32(p, 0);
	/*
	 * Not "": babeltrace2 2.0 prints an empty string as the previous
	 * event's value (fixed upstream, review.lttng.org/c/babeltrace/+/4528).
	 */
	header_compact(p, EV_TEXT, T_TEXT1);
	put_string(p, "q\"b\\s");
	put(p, "12345678", 8);	/* no NUL at all */
	put32(p, 1);
	put8(p, '!');
	header_compact(p, EV_ARRAYS, T_ARRAYS1);
	put16(p, 7);
	put16(p, 8);
	put16(p, 9);
	put32(p, 0);	/* empty sequences */
	put32(p, 0);
	header_compact(p, EV_WIRE, T_WIRE1);
	put16(p, htobe16(8080));
	put32(p, htobe32(0xC0A80001));
	put64(p, htobe64((uint64_t)-2));
	put64(p, htobe64(UINT64_C(0x3FF8000000000000)));	/* 1.5 */
	put64(p, 2);
	put16(p, htobe16(0x1234));
	put16(p, htobe16(0xABCD));
	put8(p, 3);
	put(p, "abc", 3);
	finish_packet(p, &info);
}

void tt_make_stream(void)
{
	static struct packet packets[2];
	struct ltt_ctf_index_entry e;
	uint8_t index[LTT_CTF_INDEX_HEADER_SIZE + 2 * LTT_CTF_INDEX_ENTRY_SIZE];
	char path[400];
	unsigned int i;
	bool ok = true;

	make_packet0(&packets[0]);
	make_packet1(&packets[1]);
	tap_ok(!packets[0].overflow && !packets[1].overflow, "events fit their packets");
	ltt_ctf_index_header(index);
	snprintf(path, sizeof(path), "%s/chan_0", tt_tracedir);
	for (i = 0; i < 2; i++) {
		uint64_t v;

		memcpy(&v, packets[i].data + 32, 8);
		e.timestamp_begin = v;
		memcpy(&v, packets[i].data + 40, 8);
		e.timestamp_end = v;
		memcpy(&v, packets[i].data + 72, 8);
		e.events_discarded = v;
		e.offset = i * SUBBUF_SIZE;
		e.packet_size = SUBBUF_SIZE * 8;
		e.content_size = packets[i].len * 8;
		e.stream_id = 0;
		e.stream_instance_id = 0;
		e.packet_seq_num = i;
		ltt_ctf_index_entry(&e, index + LTT_CTF_INDEX_HEADER_SIZE +
					    i * LTT_CTF_INDEX_ENTRY_SIZE);
		ok = ok && write_file(path, packets[i].data, SUBBUF_SIZE, i > 0);
	}
	snprintf(path, sizeof(path), "%s/index", tt_tracedir);
	ok = ok && !mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/index/chan_0.idx", tt_tracedir);
	ok = ok && write_file(path, index, sizeof(index), false);
	tap_ok(ok, "stream file (2 packets) and index written");
}

/*
 * A per-PID trace of the same session: its own trace UUID, the same
 * clock UUID (the boot id), one event between packet 1's first two.
 */

static const struct ltt_ust_field hello_fields[] = {
	{ .name = "msg", .type = LTT_UST_TYPE_STRING, .size = 1 },
};

static const struct ltt_ust_tracepoint hello_tp = TP("app:hello", 6, hello_fields);

void tt_make_pid_trace(void)
{
	struct ltt_meta_trace t = {
		.clock_offset_ns = CLOCK_OFFSET_NS,
		.hostname = "test-host",
		.trace_name = "session",
		.creation_datetime = "2024-05-01T12:00:00+02:00",
		.buffering = "pid",
		.buffering_id = 4242,
		.bits_per_long = 64,
		.vpid = 4242,
		.procname = "my-app",
	};
	struct packet_info info = { .ts_begin = T_PID, .ts_end = T_PID };
	struct ltt_app_tracepoint *tp = tt_receive(&hello_tp);
	static struct packet packet;
	unsigned int nr_packets = 0;
	struct ltt_wbuf w;
	char path[400];
	bool ok;

	memcpy(t.uuid, pid_trace_uuid, sizeof(t.uuid));
	memcpy(t.clock_uuid, boot_id, sizeof(t.clock_uuid));
	ltt_wbuf_init(&w);
	ok = !mkdir(tt_piddir, 0755) && tp && !ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t) &&
	     !ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, NULL, 0) && !ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_1_8, tp, 0, 0) &&
	     append_metadata(tt_piddir, pid_trace_uuid, &w, &nr_packets);
	packet.len = LTT_CTF_PACKET_HEADER_SIZE;
	header_compact(&packet, 0, T_PID);
	put_string(&packet, "from pid");
	finish_packet_of(&packet, pid_trace_uuid, &info);
	snprintf(path, sizeof(path), "%s/chan_0", tt_piddir);
	ok = ok && write_file(path, packet.data, SUBBUF_SIZE, false);
	tap_ok(ok, "a per-PID trace written beside it (no index: optional)");
	free(tp);
	ltt_wbuf_fini(&w);
}

/* ---- a kernel trace: LTTng's kernel env, an event the tracer describes ---- */

static const uint8_t kernel_trace_uuid[16] = {
	0x4b, 0x45, 0x52, 0x4e, 0x45, 0x4c, 0x40, 0x00, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x4b,
};

char tt_kerneldir[350];		/* a kernel trace, apart from the session */

#define KFIELD(n, t, sz, sg, b, enc, len) { .name = (n), .type = (t), .size = (sz), \
					     .is_signed = (sg), .base = (b), .encoding = (enc), \
					     .length = (len) }

#define KBITS(n, b) { .name = (n), .type = LTT_KABI_FIELD_INTEGER, .bits = (b), .base = 10 }

/*
 * As the tracer's EVENT_DESC answers for sched_switch, plus a sequence, a
 * sequence of structures (each a 2-byte fd and a structure of flags'
 * bits, counted by fds_length) and a structure.
 */
void tt_kernel_desc(struct ltt_kabi_event_desc *d)
{
	static const struct ltt_kabi_field fields[] = {
		KFIELD("prev_comm", LTT_KABI_FIELD_ARRAY, 1, 0, 10, 1, 16),
		KFIELD("prev_tid", LTT_KABI_FIELD_INTEGER, 4, 1, 10, 0, 0),
		KFIELD("prev_state", LTT_KABI_FIELD_INTEGER, 8, 1, 10, 0, 0),
		KFIELD("next_comm", LTT_KABI_FIELD_ARRAY, 1, 0, 10, 1, 16),
		KFIELD("next_tid", LTT_KABI_FIELD_INTEGER, 4, 1, 10, 0, 0),
		KFIELD("args", LTT_KABI_FIELD_SEQUENCE, 8, 0, 16, 0, 0),
		KFIELD("path", LTT_KABI_FIELD_STRING, 1, 0, 0, 0, 0),
		KFIELD("fds_length", LTT_KABI_FIELD_INTEGER, 4, 0, 10, 0, 0),
		KFIELD("fds", LTT_KABI_FIELD_STRUCT_SEQUENCE, 3, 0, 0, 0, 4),
		KFIELD("fd", LTT_KABI_FIELD_INTEGER, 2, 1, 10, 0, 0),
		KFIELD("flags", LTT_KABI_FIELD_STRUCT, 1, 0, 0, 0, 2),
		KBITS("IN", 1),
		KBITS("padding", 7),
		KFIELD("ev", LTT_KABI_FIELD_STRUCT, 4, 0, 0, 0, 1),
		KFIELD("u", LTT_KABI_FIELD_INTEGER, 4, 0, 16, 0, 0),
	};

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "sched_switch");
	d->nr_fields = ARRAY_SIZE(fields);
	memcpy(d->fields, fields, sizeof(fields));
}

static void put_comm(struct packet *p, const char *comm)
{
	char buf[16] = { 0 };

	memcpy(buf, comm, strlen(comm));
	put(p, buf, sizeof(buf));
}

void tt_make_kernel_trace(void)
{
	struct ltt_meta_trace t = {
		.clock_offset_ns = CLOCK_OFFSET_NS,
		.hostname = "test-host",
		.trace_name = "session",
		.creation_datetime = "2024-05-01T12:00:00+02:00",
		.buffering = "global",
		.bits_per_long = 64,
		.vpid = -1,
		.sysname = "Linux",
		.kernel_release = "6.1.0-99-amd64",
		.kernel_version = "#1 SMP PREEMPT_DYNAMIC Debian 6.1.999-1",
	};
	struct packet_info info = { .ts_begin = T_KERNEL, .ts_end = T_KERNEL };
	struct ltt_kabi_event_desc desc;
	static struct packet packet;
	unsigned int nr_packets = 0;
	struct ltt_wbuf w;
	char path[400];
	bool ok;

	tt_kernel_desc(&desc);
	memcpy(t.uuid, kernel_trace_uuid, sizeof(t.uuid));
	memcpy(t.clock_uuid, boot_id, sizeof(t.clock_uuid));
	ltt_wbuf_init(&w);
	ok = !mkdir(tt_kerneldir, 0755) && !ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t) &&
	     !ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, NULL, 0) && !ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &desc, 3, 0) &&
	     append_metadata(tt_kerneldir, kernel_trace_uuid, &w, &nr_packets);
	tap_ok(w.data && strstr((char *)w.data, "\tdomain = \"kernel\";\n") &&
	       strstr((char *)w.data, "\tkernel_release = \"6.1.0-99-amd64\";\n") &&
	       strstr((char *)w.data, "\ttrace_buffering_scheme = \"global\";\n") &&
	       !strstr((char *)w.data, "loglevel"),
	       "kernel metadata: kernel env, no log level");
	packet.len = LTT_CTF_PACKET_HEADER_SIZE;
	header_compact(&packet, 3, T_KERNEL);
	put_comm(&packet, "swapper/1");
	put32(&packet, 0);
	put64(&packet, 0);
	put_comm(&packet, "kworker/1:0");
	put32(&packet, 42);
	put32(&packet, 2);
	put64(&packet, 0xdead);
	put64(&packet, 7);
	put_string(&packet, "/etc/passwd");
	put32(&packet, 2);
	put16(&packet, 3);
	put8(&packet, 1);
	put16(&packet, (uint16_t)-1);
	put8(&packet, 0xfe);		/* IN 0, padding 127 */
	put32(&packet, 0xbeef);
	finish_packet_of(&packet, kernel_trace_uuid, &info);
	snprintf(path, sizeof(path), "%s/chan_0", tt_kerneldir);
	ok = ok && write_file(path, packet.data, SUBBUF_SIZE, false);
	tap_ok(ok, "a kernel trace written");
	ltt_wbuf_fini(&w);
}

/* ---- setup ---- */

bool tt_setup(void)
{
	const char *base = getenv("TMPDIR");
	unsigned int i;

	for (i = 0; i < NR_MANY; i++) {
		snprintf(many_labels[i], sizeof(many_labels[i]), "label_%03u", i);
		many_entries[i] = (struct ltt_ust_enum_entry){
			.start = i, .end = i, .label = many_labels[i],
		};
	}
	snprintf(tt_tmpdir, sizeof(tt_tmpdir), "%s/ltt-test-tsdl-XXXXXX", base && *base ? base : "/tmp");
	if (!mkdtemp(tt_tmpdir)) {
		tap_ok(false, "temporary directory in %s", tt_tmpdir);
		return false;
	}
	snprintf(tt_outdir, sizeof(tt_outdir), "%s/out", tt_tmpdir);
	snprintf(tt_tracedir, sizeof(tt_tracedir), "%s/uid", tt_outdir);
	snprintf(tt_piddir, sizeof(tt_piddir), "%s/pid", tt_outdir);
	snprintf(tt_kerneldir, sizeof(tt_kerneldir), "%s/kernel", tt_tmpdir);
	if (mkdir(tt_outdir, 0755) || mkdir(tt_tracedir, 0755)) {
		tap_ok(false, "trace directory %s", tt_tracedir);
		return false;
	}
	return true;
}
