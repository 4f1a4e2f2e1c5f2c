/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * name-index.h - an index of names to positions in the caller's array,
 * for the sets a peer can make large: a program may announce tens of
 * thousands of events, and a list searched once a name costs O(n^2)
 * (4 programs of 20,000 events held the session daemon 12 s).
 *
 * Open addressing with linear probing, at most half full, removal by
 * backward shift (no tombstones).  The index holds positions only: the
 * caller's name_at(ctx, pos) says the name at a position, so the array
 * may move (realloc) without telling the index, and a name is stored
 * once.  An index made by ltt_name_index_init_tagged() keys each item by
 * its name and a tag (tag_at(ctx, pos)): items may share a name, never
 * both.  Not locked: the caller serializes calls on one index.
 */
#ifndef LTT_COMMON_NAME_INDEX_H
#define LTT_COMMON_NAME_INDEX_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

/* The name of the item at @pos of the array @ctx stands for. */
typedef const char *(*ltt_name_at_fn)(const void *ctx, size_t pos);
/* The tag of the item at @pos (a tagged index's second key). */
typedef uint64_t (*ltt_tag_at_fn)(const void *ctx, size_t pos);

struct ltt_name_index {
	uint32_t *slots;	/* a position + 1, or 0: free */
	size_t cap;		/* slots: a power of two, or 0 before the first add */
	size_t nr;
	ltt_name_at_fn name_at;
	ltt_tag_at_fn tag_at;	/* NULL: every tag is 0 */
	const void *ctx;
};

/* The largest position an index holds (find() returns it as a long). */
#define LTT_NAME_INDEX_POS_MAX \
	((size_t)UINT32_MAX - 1 < (size_t)LONG_MAX ? (size_t)UINT32_MAX - 1 : (size_t)LONG_MAX)

/**
 * ltt_name_index_init() - an empty index over the array of @ctx
 * @name_at: the name at a position; called during every operation below
 *           for the positions indexed, which must stay valid
 * @ctx: passed to @name_at; the object it points to must stay where it
 *       is while the index lives (the array it holds may move)
 *
 * Allocates nothing; ltt_name_index_fini() frees what adds allocated.
 */
void ltt_name_index_init(struct ltt_name_index *ix, ltt_name_at_fn name_at, const void *ctx);
void ltt_name_index_fini(struct ltt_name_index *ix);

/**
 * ltt_name_index_init_tagged() - an empty index keyed by name and tag
 * (@tag_at, called as @name_at is): ltt_name_index_find_tagged() and
 * ltt_name_index_remove_tagged() take both keys; the others, the name
 * alone, take the tag 0.
 */
void ltt_name_index_init_tagged(struct ltt_name_index *ix, ltt_name_at_fn name_at,
				ltt_tag_at_fn tag_at, const void *ctx);

/**
 * ltt_name_index_find() - the position of @name, or -1
 */
long ltt_name_index_find(const struct ltt_name_index *ix, const char *name);
/** ltt_name_index_find_tagged() - the position of @name with @tag, or -1 */
long ltt_name_index_find_tagged(const struct ltt_name_index *ix, const char *name, uint64_t tag);

/**
 * ltt_name_index_add() - index the item at @pos under its name
 * (name_at(ctx, @pos), which no indexed item may have with its tag)
 *
 * Returns 0, -EEXIST (the name and tag are indexed: nothing changed), -ERANGE
 * (@pos over LTT_NAME_INDEX_POS_MAX) or -ENOMEM (nothing changed).
 */
int ltt_name_index_add(struct ltt_name_index *ix, size_t pos);

/**
 * ltt_name_index_remove() - forget @name (nothing if it is not indexed)
 *
 * The names at the indexed positions are read, the removed one's too:
 * call before the caller overwrites or frees it.
 */
void ltt_name_index_remove(struct ltt_name_index *ix, const char *name);
/** ltt_name_index_remove_tagged() - forget @name with @tag, as above */
void ltt_name_index_remove_tagged(struct ltt_name_index *ix, const char *name, uint64_t tag);

/**
 * ltt_name_index_move() - the item at @from moves to @to: call before the
 * caller moves it (the names at the indexed positions, @from's among
 * them, are read).  Nothing if the item at @from is not indexed.
 *
 * An array that fills the hole of a removed item with its last one:
 * remove(name of i), move(last, i), then copy.
 */
void ltt_name_index_move(struct ltt_name_index *ix, size_t from, size_t to);

#endif /* LTT_COMMON_NAME_INDEX_H */
