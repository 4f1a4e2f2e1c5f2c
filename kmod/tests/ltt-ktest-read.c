// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-read.c - reading streams (GET_NEXT_SUBBUF, splice, mmap,
 * PUT_SUBBUF), decoding and checking their packets and events with the
 * fields EVENT_DESC describes, and writing the TSDL of a test trace.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ltt-ktest.h"
#include "ltt-ktest-meta.h"

const uint8_t test_uuid[16] = {
	0x1c, 0x7e, 0x57, 0x00, 0xab, 0xcd, 0x4e, 0xf0, 0x81, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef
};


/* ---- event descriptions and the metadata ---- */

struct ltt_kabi_event_desc descs[MAX_IDS];
static bool have_desc[MAX_IDS];

void describe(int tfd, const char *name, uint32_t id)
{
	struct ltt_kabi_event_desc *d = &descs[id];

	memset(d, 0, sizeof(*d));
	snprintf(d->name, sizeof(d->name), "%s", name);
	if (ioctl(tfd, LTT_KABI_EVENT_DESC, d))
		die("LTT_KABI_EVENT_DESC");
	have_desc[id] = true;
}

void write_metadata(const char *dir)
{
	if (ltt_ktest_metadata(dir, test_uuid, "ltt-ktest", descs, have_desc, MAX_IDS))
		die("write the metadata");
}

/* ---- reading and decoding streams ---- */

static const uint8_t *decode_fields(const uint8_t *p, const uint8_t *end, uint32_t id,
				    struct event *e)
{
	const struct ltt_kabi_event_desc *d = &descs[id];
	unsigned int k;

	for (k = 0; k < d->nr_fields; k++) {
		const struct ltt_kabi_field *fl = &d->fields[k];
		struct val *v = &e->f[k];
		uint64_t u = 0;

		switch (fl->type) {
		case LTT_KABI_FIELD_INTEGER:
			if (p + fl->size > end)
				return NULL;
			memcpy(&u, p, fl->size);
			if (fl->is_signed && fl->size < 8 && (u >> (fl->size * 8 - 1)))
				u |= ~0ULL << (fl->size * 8);
			v->i = (int64_t)u;
			p += fl->size;
			break;
		case LTT_KABI_FIELD_STRING:
			v->p = p;
			while (p < end && *p)
				p++;
			if (p == end)
				return NULL;
			v->n = p - v->p;
			p++;
			break;
		case LTT_KABI_FIELD_ARRAY:
		case LTT_KABI_FIELD_SEQUENCE:
			if (fl->type == LTT_KABI_FIELD_SEQUENCE) {
				if (p + 4 > end)
					return NULL;
				v->n = get32(p);
				p += 4;
			} else {
				v->n = fl->length;
			}
			if ((uint64_t)v->n * fl->size > (uint64_t)(end - p))
				return NULL;
			v->p = p;
			p += (size_t)v->n * fl->size;
			break;
		default:
			return NULL;
		}
	}
	return p;
}

/* Check one packet's header and decode its events into @t. */
static void decode_packet(struct trace *t, const uint8_t *pk, uint64_t size, int cpu,
			  uint64_t *prev_seq, uint64_t *prev_end)
{
	uint64_t begin = get64(pk + 32), end_ts = get64(pk + 40), content = get64(pk + 48) / 8;
	uint64_t seq = get64(pk + 64), ts = begin;
	const uint8_t *p = pk + PH_SIZE, *end = pk + content;
	bool ok;

	ok = get32(pk) == 0xC1FC1FC1 && !memcmp(pk + 4, test_uuid, 16) && get32(pk + 20) == 0 &&
	     get64(pk + 24) == (uint64_t)cpu && get32(pk + 80) == (uint32_t)cpu &&
	     get64(pk + 56) == size * 8 && content >= PH_SIZE && content <= size &&
	     begin <= end_ts && (*prev_seq == UINT64_MAX || seq > *prev_seq) &&
	     begin >= *prev_end;
	if (!ok) {
		t->bad++;
		return;
	}
	*prev_seq = seq;
	*prev_end = end_ts;
	t->packets++;
	t->discarded = get64(pk + 72);	/* running total: the last one counts */
	while (p < end) {
		struct event e = { .cpu = cpu };

		if ((*p & 31) < 31) {
			uint32_t h = get32(p);
			uint64_t low = h >> 5, nts = (ts & ~((1ULL << 27) - 1)) | low;

			if (nts < ts)
				nts += 1ULL << 27;
			e.id = h & 31;
			e.ts = nts;
			p += 4;
		} else {
			e.id = get32(p + 1);
			e.ts = get64(p + 5);
			p += 13;
		}
		if (e.id >= MAX_IDS || !have_desc[e.id] || e.ts < ts || e.ts > end_ts) {
			t->bad++;
			return;
		}
		ts = e.ts;
		p = decode_fields(p, end, e.id, &e);
		if (!p) {
			t->bad++;
			return;
		}
		if (t->nr == t->cap) {
			t->cap = t->cap ? t->cap * 2 : 1024;
			t->ev = realloc(t->ev, t->cap * sizeof(*t->ev));
			if (!t->ev)
				die("realloc");
		}
		t->ev[t->nr++] = e;
	}
}

uint64_t events_counted, events_miscounted;

/* Does @pk (a packet of @cpu) hold @events events?  Malformed: no verdict. */
static void count_packet(const uint8_t *pk, uint64_t size, int cpu, uint64_t events)
{
	uint64_t prev_seq = UINT64_MAX, prev_end = 0;
	struct trace one = { 0 };

	decode_packet(&one, pk, size, cpu, &prev_seq, &prev_end);
	if (!one.bad && one.nr != events)
		events_miscounted++;
	events_counted += events;
	free(one.ev);
}

/* splice @len bytes of the held packet of @sfd into @out (a file). */
static int splice_packet(int sfd, int out, uint64_t len)
{
	int pfd[2];
	uint64_t done = 0;
	ssize_t n, m;

	if (pipe(pfd))
		return -1;
	fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
	while (done < len) {
		n = splice(sfd, NULL, pfd[1], NULL, len - done, 0);
		if (n <= 0)
			break;
		for (m = n; m > 0;) {
			ssize_t w = splice(pfd[0], NULL, out, NULL, m, 0);

			if (w <= 0)
				goto out;
			m -= w;
		}
		done += n;
	}
out:
	close(pfd[0]);
	close(pfd[1]);
	return done == len ? 0 : -1;
}

/*
 * Read every complete packet of stream @cpu of @c that is there now:
 * splice each to the end of @out and compare it with the mmap view @map.
 * Returns the number of packets whose two views differ.
 */
int pull(struct chan *c, int cpu, int out, const uint8_t *map, size_t map_len)
{
	struct ltt_kabi_subbuf sb;
	int mismatches = 0;
	uint8_t *copy = malloc(c->attr.subbuf_size);
	off_t off;

	if (!copy)
		die("malloc");
	while (!ioctl(c->streams[cpu], LTT_KABI_GET_NEXT_SUBBUF, &sb)) {
		off = lseek(out, 0, SEEK_END);
		if (sb.packet_size != c->attr.subbuf_size || sb.content_size > sb.packet_size ||
		    sb.mmap_size != map_len || sb.offset + sb.packet_size > map_len ||
		    sb.reserved[0] || sb.reserved[1] ||
		    splice_packet(c->streams[cpu], out, sb.packet_size))
			die("read packet");
		if (pread(out, copy, sb.packet_size, off) != (ssize_t)sb.packet_size)
			die("read back");
		if (memcmp(copy, map + sb.offset, sb.packet_size) || get64(copy + 64) != sb.seq)
			mismatches++;
		count_packet(copy, sb.packet_size, cpu, sb.events);
		if (ioctl(c->streams[cpu], LTT_KABI_PUT_SUBBUF, 0))
			die("LTT_KABI_PUT_SUBBUF");
	}
	if (errno != EAGAIN && errno != ENODATA)
		die("LTT_KABI_GET_NEXT_SUBBUF");
	free(copy);
	return mismatches;
}

/* Decode the packets of stream file @out of @cpu into @t. */
void decode_file(struct chan *c, int cpu, int out, struct trace *t)
{
	uint64_t prev_seq = UINT64_MAX, prev_end = 0, off;
	struct stat stt;

	if (fstat(out, &stt))
		die("fstat");
	t->mem[cpu] = malloc(stt.st_size + 1);
	if (!t->mem[cpu] || pread(out, t->mem[cpu], stt.st_size, 0) != stt.st_size)
		die("read stream file");
	for (off = 0; off + c->attr.subbuf_size <= (uint64_t)stt.st_size; off += c->attr.subbuf_size)
		decode_packet(t, t->mem[cpu] + off, c->attr.subbuf_size, cpu, &prev_seq, &prev_end);
}

size_t map_size(const struct chan *c)
{
	return (c->attr.num_subbuf + 1) * c->attr.subbuf_size;
}

int open_out(const char *dir, int cpu)
{
	char path[512];
	int out;

	if (dir)
		snprintf(path, sizeof(path), "%s/chan_%d", dir, cpu);
	else
		snprintf(path, sizeof(path), "/tmp/ltt-ktest-%d-%d", getpid(), cpu);
	out = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	if (out < 0)
		die(path);
	if (!dir)
		unlink(path);
	return out;
}

/*
 * Read every complete packet of every stream of @c into DIR/chan_CPU (or
 * a temporary file), then decode them.  Returns the number of packets
 * whose splice and mmap views differ.
 */
int drain(struct chan *c, const char *dir, struct trace *t)
{
	int cpu, mismatches = 0;

	for (cpu = 0; cpu < c->nr; cpu++) {
		int out;
		uint8_t *map;

		if (c->streams[cpu] < 0)
			continue;	/* no buffer asked for (ltt-ktest-hotplug.c) */
		out = open_out(dir, cpu);
		map = mmap(NULL, map_size(c), PROT_READ, MAP_PRIVATE, c->streams[cpu], 0);

		if (map == MAP_FAILED)
			die("mmap stream");
		mismatches += pull(c, cpu, out, map, map_size(c));
		munmap(map, map_size(c));
		decode_file(c, cpu, out, t);
		close(out);
	}
	return mismatches;
}

uint64_t stats_discarded(struct chan *c)
{
	struct ltt_kabi_stream_stats s;
	uint64_t total = 0;
	int cpu;

	for (cpu = 0; cpu < c->nr; cpu++) {
		if (c->streams[cpu] < 0)
			continue;
		if (ioctl(c->streams[cpu], LTT_KABI_STREAM_STATS, &s))
			die("LTT_KABI_STREAM_STATS");
		total += s.events_discarded;
	}
	return total;
}
