/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * bpf-ring.h - a consumer's side of the BPF system call source
 * (doc/kernel-bpf.md): one CPU's BPF ring buffer read through its fd
 * alone (mapped: no bpf() call, which the unprivileged consumer may not
 * make), and the lost counts (a u64 per CPU, mapped read-only).  The
 * kernel writes the ring; what it says is still checked against the
 * ring's bounds.  No libbpf: built everywhere (the records come from the
 * privileged part where it has BPF).  One thread at a time per ring.
 */
#ifndef LTT_COMMON_BPF_RING_H
#define LTT_COMMON_BPF_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ltt_bpf_ring {
	int fd;			/* ours (a dup), -1 when closed */
	uint64_t *cons;		/* the consumer position's page (written) */
	const uint64_t *prod;	/* the producer position's page */
	const uint8_t *data;	/* the data, mapped twice in a row */
	uint64_t size;		/* the data's bytes: a power of two */
	size_t map_len;		/* of the read-only mapping (prod, data twice) */
	uint64_t peeked;	/* bytes the record peeked takes, 0: none */
	uint64_t pos;		/* the consumer position we stored last (*cons) */
};

/**
 * ltt_bpf_ring_open() - map the BPF ring buffer @fd (borrowed: a dup is
 * kept) into @ret.  Returns 0, -EINVAL (not a BPF ring buffer: its
 * /proc/self/fdinfo says what it is), or mmap's -errno.
 */
int ltt_bpf_ring_open(int fd, struct ltt_bpf_ring *ret);

/** ltt_bpf_ring_close() - unmap, close; accepts a zeroed or closed ring. */
void ltt_bpf_ring_close(struct ltt_bpf_ring *r);

/**
 * ltt_bpf_ring_peek() - the oldest record the kernel committed (records
 * it discarded are passed over): its bytes, contiguous, valid until
 * ltt_bpf_ring_next(), *@ret_len set; NULL when there is none yet.
 */
const void *ltt_bpf_ring_peek(struct ltt_bpf_ring *r, uint32_t *ret_len);

/** ltt_bpf_ring_next() - let the kernel reuse the record peeked. */
void ltt_bpf_ring_next(struct ltt_bpf_ring *r);

/**
 * ltt_bpf_ring_idle() - nothing reserved past what was consumed: one
 * load (the producer position), for a reader that asks per record of
 * another source.  False means ltt_bpf_ring_peek() may find a record.
 */
static inline bool ltt_bpf_ring_idle(const struct ltt_bpf_ring *r)
{
	return __atomic_load_n(r->prod, __ATOMIC_ACQUIRE) == r->pos;
}

/**
 * ltt_bpf_lost_open() - map the lost counts @fd (borrowed; an ARRAY of
 * u64, mappable) read-only into *@ret (of *@ret_len bytes, for munmap),
 * at least @cpu + 1 of them.  Returns 0, -EINVAL (another map, too
 * small) or mmap's -errno.
 */
int ltt_bpf_lost_open(int fd, uint32_t cpu, const uint64_t **ret, size_t *ret_len);

#endif /* LTT_COMMON_BPF_RING_H */
