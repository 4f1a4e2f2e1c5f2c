// SPDX-License-Identifier: LGPL-2.1-only
/*
 * name-index.c - an index of names to positions (see name-index.h).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/name-index.h"

#define MIN_SLOTS 16

/* FNV-1a, 64 bits, of the name then the tag's bytes (a tag of 0: the name's alone). */
static size_t hash(const char *s, uint64_t tag)
{
	uint64_t h = 1469598103934665603ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	for (; tag; tag >>= 8)
		h = (h ^ (tag & 0xff)) * 1099511628211ULL;
	return (size_t)h;
}

void ltt_name_index_init(struct ltt_name_index *ix, ltt_name_at_fn name_at, const void *ctx)
{
	ltt_name_index_init_tagged(ix, name_at, NULL, ctx);
}

void ltt_name_index_init_tagged(struct ltt_name_index *ix, ltt_name_at_fn name_at,
				ltt_tag_at_fn tag_at, const void *ctx)
{
	*ix = (struct ltt_name_index){ .name_at = name_at, .tag_at = tag_at, .ctx = ctx };
}

void ltt_name_index_fini(struct ltt_name_index *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->cap = ix->nr = 0;
}

static const char *slot_name(const struct ltt_name_index *ix, size_t i)
{
	return ix->name_at(ix->ctx, ix->slots[i] - 1);
}

static uint64_t tag_at(const struct ltt_name_index *ix, size_t pos)
{
	return ix->tag_at ? ix->tag_at(ix->ctx, pos) : 0;
}

static size_t slot_hash(const struct ltt_name_index *ix, size_t i)
{
	return hash(slot_name(ix, i), tag_at(ix, ix->slots[i] - 1));
}

/* The slot of @name and @tag, or the free slot that ends its probe. */
static size_t probe(const struct ltt_name_index *ix, const char *name, uint64_t tag)
{
	size_t i = hash(name, tag) & (ix->cap - 1);

	while (ix->slots[i] &&
	       (strcmp(slot_name(ix, i), name) || tag_at(ix, ix->slots[i] - 1) != tag))
		i = (i + 1) & (ix->cap - 1);
	return i;
}

long ltt_name_index_find(const struct ltt_name_index *ix, const char *name)
{
	return ltt_name_index_find_tagged(ix, name, 0);
}

long ltt_name_index_find_tagged(const struct ltt_name_index *ix, const char *name, uint64_t tag)
{
	size_t i;

	if (!ix->nr)
		return -1;
	i = probe(ix, name, tag);
	return ix->slots[i] ? (long)ix->slots[i] - 1 : -1;
}

/* Twice the slots, every entry placed again. */
static int grow(struct ltt_name_index *ix)
{
	struct ltt_name_index bigger = *ix;
	size_t i;

	bigger.cap = ix->cap ? 2 * ix->cap : MIN_SLOTS;
	bigger.slots = calloc(bigger.cap, sizeof(*bigger.slots));
	if (!bigger.slots)
		return -ENOMEM;
	for (i = 0; i < ix->cap; i++)
		if (ix->slots[i])
			bigger.slots[probe(&bigger, slot_name(ix, i), tag_at(ix, ix->slots[i] - 1))] =
				ix->slots[i];
	free(ix->slots);
	*ix = bigger;
	return 0;
}

int ltt_name_index_add(struct ltt_name_index *ix, size_t pos)
{
	const char *name;
	uint64_t tag;
	size_t i;

	if (pos > LTT_NAME_INDEX_POS_MAX)
		return -ERANGE;
	name = ix->name_at(ix->ctx, pos);
	tag = tag_at(ix, pos);
	if (ltt_name_index_find_tagged(ix, name, tag) >= 0)
		return -EEXIST;
	if (2 * (ix->nr + 1) > ix->cap && grow(ix))
		return -ENOMEM;
	i = probe(ix, name, tag);
	ix->slots[i] = (uint32_t)pos + 1;
	ix->nr++;
	return 0;
}

void ltt_name_index_remove(struct ltt_name_index *ix, const char *name)
{
	ltt_name_index_remove_tagged(ix, name, 0);
}

void ltt_name_index_remove_tagged(struct ltt_name_index *ix, const char *name, uint64_t tag)
{
	size_t hole, i, home, mask = ix->cap - 1;

	if (!ix->nr)
		return;
	hole = probe(ix, name, tag);
	if (!ix->slots[hole])
		return;
	ix->slots[hole] = 0;
	ix->nr--;
	/* Backward shift: an entry after the hole whose home is not
	 * between the hole and it (cyclically) moves into the hole. */
	for (i = (hole + 1) & mask; ix->slots[i]; i = (i + 1) & mask) {
		home = slot_hash(ix, i) & mask;
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			ix->slots[hole] = ix->slots[i];
			ix->slots[i] = 0;
			hole = i;
		}
	}
}

void ltt_name_index_move(struct ltt_name_index *ix, size_t from, size_t to)
{
	size_t i;

	if (!ix->nr || from > LTT_NAME_INDEX_POS_MAX || to > LTT_NAME_INDEX_POS_MAX)
		return;
	i = probe(ix, ix->name_at(ix->ctx, from), tag_at(ix, from));
	if (ix->slots[i] == (uint32_t)from + 1)
		ix->slots[i] = (uint32_t)to + 1;
}
