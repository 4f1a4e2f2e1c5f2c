// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_name_index.c - unit tests of common/base/name-index.c: lookups after
 * adds, growth and removals (backward shift across wrapped probes), the
 * swap-with-last removal an array makes, refusals; checked against a
 * linear search of the same array after every step of a seeded random
 * walk.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/name-index.h"
#include "tests/unit/tap.h"

#define POOL 4096
#define NAME_MAX_LEN 16

struct arr {
	char (*names)[NAME_MAX_LEN];	/* the items: a name each */
	size_t nr;
};

static const char *arr_name_at(const void *ctx, size_t pos)
{
	return ((const struct arr *)ctx)->names[pos];
}

static long linear(const struct arr *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->nr; i++)
		if (!strcmp(a->names[i], name))
			return (long)i;
	return -1;
}

/* Remove the item at @i as ust-push.c does: the last one fills its place. */
static void arr_remove(struct arr *a, struct ltt_name_index *ix, size_t i)
{
	ltt_name_index_remove(ix, a->names[i]);
	if (i != a->nr - 1) {
		ltt_name_index_move(ix, a->nr - 1, i);
		memcpy(a->names[i], a->names[a->nr - 1], NAME_MAX_LEN);
	}
	a->nr--;
}

static void test_basics(void)
{
	struct arr a = { .names = calloc(4, NAME_MAX_LEN) };
	struct ltt_name_index ix;

	ltt_name_index_init(&ix, arr_name_at, &a);
	tap_is_int(ltt_name_index_find(&ix, "x"), -1, "an empty index finds nothing");
	ltt_name_index_remove(&ix, "x");
	ltt_name_index_move(&ix, 0, 1);
	tap_ok(ix.nr == 0, "removing or moving in an empty index changes nothing");
	strcpy(a.names[0], "alpha");
	strcpy(a.names[1], "beta");
	strcpy(a.names[2], "alpha");
	tap_is_int(ltt_name_index_add(&ix, 0), 0, "add alpha at 0");
	tap_is_int(ltt_name_index_add(&ix, 1), 0, "add beta at 1");
	tap_is_int(ltt_name_index_add(&ix, 2), -EEXIST, "a second alpha is refused (-EEXIST)");
	tap_is_int(ltt_name_index_find(&ix, "alpha"), 0, "alpha is at 0");
	tap_is_int(ltt_name_index_find(&ix, "beta"), 1, "beta is at 1");
	tap_is_int(ltt_name_index_find(&ix, "gamma"), -1, "gamma is not indexed");
	tap_is_int(ltt_name_index_add(&ix, LTT_NAME_INDEX_POS_MAX + 1), -ERANGE,
		   "a position over LTT_NAME_INDEX_POS_MAX is refused (-ERANGE)");
	ltt_name_index_remove(&ix, "gamma");
	tap_is_int((long long)ix.nr, 2, "removing a name not indexed changes nothing");
	ltt_name_index_fini(&ix);
	tap_ok(!ix.slots && !ix.nr && !ix.cap, "fini frees the slots");
	free(a.names);
}

/* A seeded walk of adds and removals, every name checked after each step. */
static void test_walk(void)
{
	struct arr a = { .names = calloc(POOL, NAME_MAX_LEN) };
	struct ltt_name_index ix;
	char name[NAME_MAX_LEN];
	unsigned int seed = 20261124, step, bad = 0, checks = 0, n;
	size_t max_nr = 0;
	long want;

	ltt_name_index_init(&ix, arr_name_at, &a);
	for (step = 0; step < 20000; step++) {
		/* names from a small space: adds meet duplicates, removals hits */
		snprintf(name, sizeof(name), "ev%u", (unsigned int)rand_r(&seed) % 3000);
		want = linear(&a, name);
		if (rand_r(&seed) % 3 && a.nr < POOL) {
			memcpy(a.names[a.nr], name, NAME_MAX_LEN);
			if (ltt_name_index_add(&ix, a.nr) != (want >= 0 ? -EEXIST : 0))
				bad++;
			if (want < 0)
				a.nr++;
		} else if (want >= 0) {
			arr_remove(&a, &ix, (size_t)want);
		}
		if (a.nr > max_nr)
			max_nr = a.nr;
		if (step % 97)
			continue;
		for (n = 0; n < 3000; n++) {
			snprintf(name, sizeof(name), "ev%u", n);
			checks++;
			if (ltt_name_index_find(&ix, name) != linear(&a, name))
				bad++;
		}
	}
	tap_ok(max_nr > 1000, "the walk held up to %zu names (the index grew)", max_nr);
	tap_is_int((long long)ix.nr, (long long)a.nr, "the index counts the array's items");
	tap_is_int(bad, 0, "20,000 adds and removals, %u lookups: each as a linear search finds", checks);
	tap_ok(ix.cap >= 2 * ix.nr, "at most half full (%zu of %zu)", ix.nr, ix.cap);
	while (a.nr)
		arr_remove(&a, &ix, 0);
	tap_is_int((long long)ix.nr, 0, "every name removed, first to last");
	for (n = 0; n < ix.cap && !ix.slots[n]; n++)
		;
	tap_ok(n == ix.cap, "no slot is left taken (no tombstones)");
	ltt_name_index_fini(&ix);
	free(a.names);
}

/* Items keyed by name and tag: a name given with several tags. */
struct tagged {
	const char *names[64];
	uint64_t tags[64];
	size_t nr;
};

static const char *tagged_name_at(const void *ctx, size_t pos)
{
	return ((const struct tagged *)ctx)->names[pos];
}

static uint64_t tagged_tag_at(const void *ctx, size_t pos)
{
	return ((const struct tagged *)ctx)->tags[pos];
}

static void test_tagged(void)
{
	struct tagged t = { .nr = 0 };
	struct ltt_name_index ix;
	unsigned int bad = 0;
	size_t i;

	ltt_name_index_init_tagged(&ix, tagged_name_at, tagged_tag_at, &t);
	for (i = 0; i < 48; i++) {	/* 16 names, 3 tags each (0 among them) */
		t.names[i] = (const char *[]){ "a:a", "b:b", "c:c", "d:d", "e:e", "f:f", "g:g",
					      "h:h", "i:i", "j:j", "k:k", "l:l", "m:m", "n:n",
					      "o:o", "p:p" }[i % 16];
		t.tags[i] = (uint64_t)(i / 16) * 0x9e3779b97f4a7c15ULL;
		if (ltt_name_index_add(&ix, i))
			bad++;
		t.nr++;
	}
	tap_is_int(bad, 0, "one name with 3 tags, 16 names: each added");
	for (i = 0; i < 48; i++)
		if (ltt_name_index_find_tagged(&ix, t.names[i], t.tags[i]) != (long)i)
			bad++;
	tap_is_int(bad, 0, "each found by its name and tag");
	tap_is_int(ltt_name_index_find(&ix, "c:c"), 2, "the name alone finds the tag 0");
	tap_is_int(ltt_name_index_find_tagged(&ix, "c:c", 7), -1, "another tag finds nothing");
	tap_is_int(ltt_name_index_add(&ix, 18), -EEXIST, "a name and tag added twice: -EEXIST");
	ltt_name_index_remove_tagged(&ix, "c:c", t.tags[18]);
	tap_is_int(ltt_name_index_find_tagged(&ix, "c:c", t.tags[18]), -1,
		   "removed by name and tag: gone");
	tap_ok(ltt_name_index_find_tagged(&ix, "c:c", 0) == 2 &&
	       ltt_name_index_find_tagged(&ix, "c:c", t.tags[34]) == 34,
	       "the name's other tags stay");
	ltt_name_index_move(&ix, 47, 18);
	t.names[18] = t.names[47];
	t.tags[18] = t.tags[47];
	tap_is_int(ltt_name_index_find_tagged(&ix, "p:p", t.tags[47]), 18,
		   "an item moved is found at its new place");
	ltt_name_index_fini(&ix);
}

int main(void)
{
	test_basics();
	test_walk();
	test_tagged();
	return tap_done();
}
