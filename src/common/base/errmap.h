/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * errmap.h - from internal failures to public codes, by table.  Inside the
 * daemons a failure is 0 or a negative errno; where it reaches a user it
 * becomes an enum ltt_error_code through a table of rows read in order,
 * the one mapping mechanism every layer uses (its own table, this lookup).
 */
#ifndef LTT_COMMON_ERRMAP_H
#define LTT_COMMON_ERRMAP_H

#include <stddef.h>

#include <ltt/ltt-error.h>

/* One row of a table from internal failures to public codes. */
struct ltt_errmap {
	int err;			/* a negative errno, or LTT_ERRMAP_ELSE */
	enum ltt_error_code code;
};

/* A table's last row may be this: every error the rows before do not name. */
#define LTT_ERRMAP_ELSE 1

/**
 * ltt_errmap_code() - the code of @err in the table @map of @n rows, the
 * first row that names it (or LTT_ERRMAP_ELSE); else @fallback(@err)
 *
 * @fallback may be NULL only for a table that ends with LTT_ERRMAP_ELSE.
 * Any thread.
 */
enum ltt_error_code ltt_errmap_code(const struct ltt_errmap *map, size_t n, int err,
				    enum ltt_error_code (*fallback)(int err));

/* ltt_errmap_code() of a table that is an array. */
#define LTT_ERRMAP(map, err, fallback) \
	ltt_errmap_code(map, sizeof(map) / sizeof((map)[0]), err, fallback)

#endif /* LTT_COMMON_ERRMAP_H */
