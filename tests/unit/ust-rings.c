// SPDX-License-Identifier: LGPL-2.1-only
/*
 * ust-rings.c - ring buffers as the session daemon lays them out and the
 * consumer reads them, for the tests of libltt-ust (ust-rings.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "common/trace/tclock.h"
#include "tap.h"
#include "ust-rings.h"

void region_new_cfg(struct region *r, const struct ltt_rb_config *cfg)
{
	r->len = ltt_rb_region_size(cfg->subbuf_size, cfg->num_subbuf);
	r->mem = mmap(NULL, r->len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r->mem == MAP_FAILED || ltt_rb_init_region(r->mem, r->len, cfg)) {
		tap_diag("cannot make a ring buffer");
		exit(1);
	}
}

void region_new_clock(struct region *r, uint64_t subbuf, uint64_t num, uint32_t clock)
{
	struct ltt_rb_config cfg = { .subbuf_size = subbuf, .num_subbuf = num, .clock = clock };

	region_new_cfg(r, &cfg);
}

void region_new(struct region *r, uint64_t subbuf, uint64_t num)
{
	region_new_clock(r, subbuf, num, LTT_TCLOCK_MONO);
}

void region_free(struct region *r)
{
	munmap(r->mem, r->len);
}

size_t region_collect(struct region *r, uint8_t *out, size_t cap)
{
	struct ltt_rb_packet pkt;
	struct ltt_rb rd;
	size_t n = 0;
	int ret;

	if (ltt_rb_attach(&rd, r->mem, r->len))
		return 0;
	ltt_rb_flush(&rd, false);
	while ((ret = ltt_rb_get_next_subbuf(&rd, &pkt)) != -EAGAIN) {
		size_t len;

		if (ret)
			continue;
		len = (size_t)pkt.content_size - HDR;
		if (n + len <= cap) {
			memcpy(out + n, (const uint8_t *)pkt.data + HDR, len);
			n += len;
		}
		ltt_rb_put_subbuf(&rd, &pkt);
	}
	return n;
}

bool next_header(struct cursor *c, uint32_t *id, bool *compact, uint64_t *ts)
{
	uint32_t word;

	if (c->end - c->p < 4)
		return false;
	memcpy(&word, c->p, 4);
	if ((word & 31) != 31) {
		*id = word & 31;
		*compact = true;
		*ts = word >> 5;
		c->p += 4;
		return true;
	}
	if (c->end - c->p < 13)
		return false;
	memcpy(id, c->p + 1, 4);
	memcpy(ts, c->p + 5, 8);
	*compact = false;
	c->p += 13;
	return true;
}

void ust_rings_isolate(char **argv)
{
	char dir[] = "/tmp/ltt-test-tp-XXXXXX";

	if (getenv("LTT_RUNDIR"))
		return;
	if (!mkdtemp(dir))
		return;
	setenv("LTT_RUNDIR", dir, 1);
	setenv("LTT_UST_REGISTER_TIMEOUT", "0", 1);
	execv("/proc/self/exe", argv);
}
