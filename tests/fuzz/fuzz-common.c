// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz-common.c - what the fuzz targets share, with libFuzzer or not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

void ltt_fuzz_fail(const char *file, int line, const char *what)
{
	fprintf(stderr, "%s:%d: fuzz check failed: %s\n", file, line, what);
	abort();
}

bool ltt_fuzz_codec_run(const struct ltt_fuzz_codec *c, const uint8_t *data, size_t size,
			void *ret)
{
	struct ltt_wbuf w1, w2;
	struct ltt_rbuf r;
	void *m1, *m2;
	bool ok;

	m1 = ret ? ret : calloc(1, c->size);
	m2 = calloc(1, c->size);
	FUZZ_CHECK(m1 && m2);
	ltt_rbuf_init(&r, data, size);
	ok = c->get(&r, m1) == 0;
	if (ok) {
		ltt_wbuf_init(&w1);
		ltt_wbuf_init(&w2);
		c->put(&w1, m1);
		FUZZ_CHECK(!w1.err);
		/* what it read (a head may leave a body to the caller) */
		if (c->canonical)
			FUZZ_CHECK(w1.len == r.pos && !memcmp(w1.data, data, r.pos));
		ltt_rbuf_init(&r, w1.data, w1.len);
		FUZZ_CHECK(c->get(&r, m2) == 0);
		c->put(&w2, m2);
		FUZZ_CHECK(!w2.err && w2.len == w1.len && !memcmp(w2.data, w1.data, w1.len));
		ltt_wbuf_fini(&w1);
		ltt_wbuf_fini(&w2);
	}
	if (!ret)
		free(m1);
	free(m2);
	return ok;
}

void ltt_fuzz_codec_pick(const struct ltt_fuzz_codec *const *table, size_t nr,
			 const uint8_t *data, size_t size)
{
	if (size)
		ltt_fuzz_codec_run(table[data[0] % nr], data + 1, size - 1, NULL);
}

void ltt_fuzz_codec_seed(ltt_fuzz_emit_fn emit, const struct ltt_fuzz_codec *c, uint8_t index,
			 unsigned int nr, const void *m)
{
	struct ltt_wbuf w;
	char name[128];

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, index);
	c->put(&w, m);
	FUZZ_CHECK(!w.err);
	/* a seed the decoder refuses would only test the refusal */
	FUZZ_CHECK(ltt_fuzz_codec_run(c, w.data + 1, w.len - 1, NULL));
	snprintf(name, sizeof(name), "%s-%u", c->name, nr);
	emit(name, w.data, w.len);
	ltt_wbuf_fini(&w);
}
