// SPDX-License-Identifier: GPL-2.0-only
/*
 * bpf-ring.c - a CPU's BPF ring buffer and the lost counts, mapped by the
 * consumer: see bpf-ring.h.  The layout (the kernel's kernel/bpf/ringbuf.c,
 * its uapi): a page holding the consumer position, which the reader
 * writes; then, read-only, a page holding the producer position and the
 * data pages mapped twice, so a record that wraps reads in one piece.
 * Each record: {u32 len, with the busy (31) and discard (30) bits; u32
 * page offset}, then len bytes, the whole rounded up to 8.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/bpf/bpf-ring.h"

#define MAP_TYPE_ARRAY		2	/* uapi's BPF_MAP_TYPE_ARRAY */
#define MAP_TYPE_RINGBUF	27	/* BPF_MAP_TYPE_RINGBUF */
#define REC_BUSY		(1u << 31)
#define REC_DISCARD		(1u << 30)
#define REC_HDR			8u

/* What /proc/self/fdinfo says of map @fd. */
struct map_info {
	uint32_t type, value_size;
	uint64_t max_entries;
};

static int map_info(int fd, struct map_info *ret)
{
	char path[64], line[128];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		found += sscanf(line, "map_type: %" SCNu32, &ret->type) == 1;
		found += sscanf(line, "value_size: %" SCNu32, &ret->value_size) == 1;
		found += sscanf(line, "max_entries: %" SCNu64, &ret->max_entries) == 1;
	}
	fclose(f);
	return found == 3 ? 0 : -EINVAL;
}

int ltt_bpf_ring_open(int fd, struct ltt_bpf_ring *ret)
{
	long page = sysconf(_SC_PAGESIZE);
	struct ltt_bpf_ring r = { .fd = -1 };
	struct map_info mi;
	void *p;
	int err;

	if (fd < 0 || !ret || page <= 0)
		return -EINVAL;
	err = map_info(fd, &mi);
	if (err || mi.type != MAP_TYPE_RINGBUF || mi.max_entries < (uint64_t)page ||
	    (mi.max_entries & (mi.max_entries - 1)) || mi.max_entries > (1ull << 32))
		return -EINVAL;
	r.size = mi.max_entries;
	r.fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	if (r.fd < 0)
		return -errno;
	p = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
	if (p == MAP_FAILED)
		goto fail;
	r.cons = p;
	r.map_len = (size_t)page + 2 * (size_t)r.size;
	p = mmap(NULL, r.map_len, PROT_READ, MAP_SHARED, r.fd, page);
	if (p == MAP_FAILED)
		goto fail;
	r.prod = p;
	r.data = (const uint8_t *)p + page;
	r.pos = __atomic_load_n(r.cons, __ATOMIC_RELAXED);
	*ret = r;
	return 0;
fail:
	err = -errno;
	ltt_bpf_ring_close(&r);
	return err;
}

void ltt_bpf_ring_close(struct ltt_bpf_ring *r)
{
	long page = sysconf(_SC_PAGESIZE);

	if (!r)
		return;
	if (r->cons)
		munmap(r->cons, (size_t)page);
	if (r->prod)
		munmap((void *)r->prod, r->map_len);
	if (r->fd >= 0)
		close(r->fd);
	memset(r, 0, sizeof(*r));
	r->fd = -1;
}

const void *ltt_bpf_ring_peek(struct ltt_bpf_ring *r, uint32_t *ret_len)
{
	uint64_t cons, prod, take;
	const uint8_t *at;
	uint32_t len;

	if (!r || !r->prod)
		return NULL;
	cons = r->pos;		/* ours: only we store *cons */
	for (;;) {
		prod = __atomic_load_n(r->prod, __ATOMIC_ACQUIRE);
		if (prod - cons < REC_HDR || prod - cons > r->size)
			return NULL;
		at = r->data + (cons & (r->size - 1));
		len = __atomic_load_n((const uint32_t *)at, __ATOMIC_ACQUIRE);
		if (len & REC_BUSY)
			return NULL;	/* reserved, not committed yet */
		take = ((uint64_t)(len & ~REC_DISCARD) + REC_HDR + 7) & ~7ull;
		if (take > prod - cons)
			return NULL;	/* a lie: wait for more */
		if (!(len & REC_DISCARD))
			break;
		cons += take;
		r->pos = cons;
		__atomic_store_n(r->cons, cons, __ATOMIC_RELEASE);
	}
	r->peeked = take;
	*ret_len = len;
	return at + REC_HDR;
}

void ltt_bpf_ring_next(struct ltt_bpf_ring *r)
{
	uint64_t cons;

	if (!r || !r->peeked)
		return;
	cons = r->pos + r->peeked;
	r->pos = cons;
	__atomic_store_n(r->cons, cons, __ATOMIC_RELEASE);
	r->peeked = 0;
}

int ltt_bpf_lost_open(int fd, uint32_t cpu, const uint64_t **ret, size_t *ret_len)
{
	long page = sysconf(_SC_PAGESIZE);
	struct map_info mi;
	size_t len;
	void *p;
	int err;

	if (fd < 0 || !ret || !ret_len || page <= 0)
		return -EINVAL;
	err = map_info(fd, &mi);
	if (err || mi.type != MAP_TYPE_ARRAY || mi.value_size != 8 || mi.max_entries <= cpu ||
	    mi.max_entries > 65536)
		return -EINVAL;
	len = ((size_t)mi.max_entries * 8 + (size_t)page - 1) & ~((size_t)page - 1);
	p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED)
		return -errno;
	*ret = p;
	*ret_len = len;
	return 0;
}
