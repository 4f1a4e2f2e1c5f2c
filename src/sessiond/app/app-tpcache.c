// SPDX-License-Identifier: GPL-2.0-only
/*
 * app-tpcache.c - the app thread's last TRACEPOINTS messages and their
 * decoded descriptions (app.h): a program started again sends the same
 * bytes (libltt-ust's own events, then its own), so the daemon copies
 * what it decoded and validated then instead of decoding them again.
 * Only a message byte for byte the same is taken from it; the app thread
 * alone uses it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "sessiond/app/app.h"

#define TPCACHE_ENTRIES 4
#define TPCACHE_MAX_BYTES (64U << 10)	/* larger messages are decoded each time */

struct tpcache_entry {
	uint8_t *bytes;			/* the message's payload */
	size_t len;
	struct ltt_app_tracepoint **tps;	/* its descriptions, decoded */
	uint32_t nr;
};

struct ltt_app_tpcache {
	struct tpcache_entry e[TPCACHE_ENTRIES];
	unsigned int next;		/* the entry replaced next */
};

static void free_tps(struct ltt_app_tracepoint **tps, uint32_t nr)
{
	while (nr--)
		free(tps[nr]);
	free(tps);
}

/* Copies of @nr descriptions @tps, or -ENOMEM. */
static int copy_tps(struct ltt_app_tracepoint *const *tps, uint32_t nr,
		    struct ltt_app_tracepoint ***ret_tps)
{
	struct ltt_app_tracepoint **copy = NULL;
	uint32_t i;

	if (nr && !(copy = calloc(nr, sizeof(*copy))))
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		copy[i] = ltt_app_tracepoint_copy(tps[i]);
		if (!copy[i]) {
			free_tps(copy, i);
			return -ENOMEM;
		}
	}
	*ret_tps = copy;
	return 0;
}

/* Keep @len bytes @data and copies of their @nr descriptions @tps (best effort). */
static void remember(struct ltt_app_tpcache *cache, const uint8_t *data, size_t len,
		     struct ltt_app_tracepoint *const *tps, uint32_t nr)
{
	struct tpcache_entry *e = &cache->e[cache->next], fresh = { .len = len, .nr = nr };

	if (len > TPCACHE_MAX_BYTES || !(fresh.bytes = malloc(len ? len : 1)))
		return;
	if (copy_tps(tps, nr, &fresh.tps)) {
		free(fresh.bytes);
		return;
	}
	memcpy(fresh.bytes, data, len);
	free(e->bytes);
	free_tps(e->tps, e->nr);
	*e = fresh;
	cache->next = (cache->next + 1) % TPCACHE_ENTRIES;
}

int ltt_app_tpcache_decode(struct ltt_app_tpcache **cache, const uint8_t *data, size_t len,
			   struct ltt_app_tracepoint ***ret_tps, uint32_t *ret_nr)
{
	struct ltt_app_tracepoint **tps;
	struct ltt_rbuf r;
	unsigned int i;
	uint32_t nr;
	int ret;

	for (i = 0; *cache && i < TPCACHE_ENTRIES; i++) {
		const struct tpcache_entry *e = &(*cache)->e[i];

		if (e->bytes && e->len == len && !memcmp(e->bytes, data, len)) {
			ret = copy_tps(e->tps, e->nr, ret_tps);
			if (!ret)
				*ret_nr = e->nr;
			return ret;
		}
	}
	ltt_rbuf_init(&r, data, len);
	ret = ltt_app_get_tracepoints(&r, &tps, &nr);
	if (ret)
		return ret;
	if (!*cache)
		*cache = calloc(1, sizeof(**cache));
	if (*cache)
		remember(*cache, data, len, tps, nr);
	*ret_tps = tps;
	*ret_nr = nr;
	return 0;
}

void ltt_app_tpcache_free(struct ltt_app_tpcache *cache)
{
	unsigned int i;

	if (!cache)
		return;
	for (i = 0; i < TPCACHE_ENTRIES; i++) {
		free(cache->e[i].bytes);
		free_tps(cache->e[i].tps, cache->e[i].nr);
	}
	free(cache);
}
