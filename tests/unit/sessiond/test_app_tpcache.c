// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_app_tpcache.c - unit tests of src/sessiond/app/app-tpcache.c: a
 * TRACEPOINTS payload sent again is not decoded again (the decoder's calls
 * are counted through the linker's --wrap), and what the cache hands out
 * are whole copies (enum entries and labels included) that encode to the
 * bytes the program sent, the caller's to free.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "sessiond/app/app.h"
#include "tests/unit/ref-tp.h"
#include "tests/unit/tap.h"

static unsigned int decodes;

int __real_ltt_app_get_tracepoints(struct ltt_rbuf *r, struct ltt_app_tracepoint ***ret_tps,
				   uint32_t *ret_nr);
int __wrap_ltt_app_get_tracepoints(struct ltt_rbuf *r, struct ltt_app_tracepoint ***ret_tps,
				   uint32_t *ret_nr);

int __wrap_ltt_app_get_tracepoints(struct ltt_rbuf *r, struct ltt_app_tracepoint ***ret_tps,
				   uint32_t *ret_nr)
{
	decodes++;
	return __real_ltt_app_get_tracepoints(r, ret_tps, ret_nr);
}

/* A TRACEPOINTS payload: ref_tp (two enum fields), then an event named @name. */
static void payload(struct ltt_wbuf *w, const char *name)
{
	const struct ltt_ust_tracepoint other = {
		.abi = LTT_UST_TRACEPOINT_ABI, .loglevel = 2, .name = name,
	};
	size_t start;

	ltt_wbuf_init(w);
	start = ltt_app_put_tracepoints_start(w);
	ltt_app_put_tracepoint(w, &ref_tp);
	ltt_app_put_tracepoint(w, &other);
	ltt_app_put_tracepoints_finish(w, start, 2);
}

/* Do @nr descriptions @tps encode to @w's payload (after its count)? */
static bool encode_to(struct ltt_app_tracepoint **tps, uint32_t nr, const struct ltt_wbuf *w)
{
	struct ltt_wbuf again;
	uint32_t i;
	bool same;

	ltt_wbuf_init(&again);
	for (i = 0; i < nr; i++)
		ltt_app_put_app_tracepoint(&again, tps[i]);
	same = !again.err && again.len + 4 == w->len && !memcmp(again.data, w->data + 4, again.len);
	ltt_wbuf_fini(&again);
	return same;
}

static void free_tps(struct ltt_app_tracepoint **tps, uint32_t nr)
{
	while (nr--)
		free(tps[nr]);
	free(tps);
}

int main(void)
{
	struct ltt_app_tracepoint **first = NULL, **second = NULL, **tps = NULL;
	struct ltt_app_tpcache *cache = NULL;
	uint32_t n1 = 0, n2 = 0, n = 0;
	struct ltt_wbuf w, other[5];
	char name[32];
	int i, ret;

	payload(&w, "p:other");
	tap_is_int(ltt_app_tpcache_decode(&cache, w.data, w.len, &first, &n1), 0,
		   "a TRACEPOINTS payload decodes");
	tap_ok(cache && n1 == 2 && decodes == 1 && encode_to(first, n1, &w),
	       "the first time by the decoder: its two descriptions");
	tap_is_int(ltt_app_tpcache_decode(&cache, w.data, w.len, &second, &n2), 0,
		   "the same bytes again decode");
	tap_ok(decodes == 1 && n2 == 2 && second != first && second[0] != first[0] &&
	       second[1] != first[1], "without the decoder: copies, not the first ones");
	free_tps(first, n1);
	tap_ok(encode_to(second, n2, &w) && second[0]->layout != 0 &&
	       second[0]->layout != second[1]->layout && second[0]->nr_fields == ref_tp.nr_fields &&
	       second[0]->fields[ref_tp.nr_fields - 2].enum_entries[0].label !=
		       ref_signed_entries[0].label &&
	       !strcmp(second[0]->fields[ref_tp.nr_fields - 2].enum_entries[0].label,
		       ref_signed_entries[0].label),
	       "whole copies (fields, enum entries, labels, layout id), alive after the first ones are freed");
	free_tps(second, n2);

	/* four other programs' payloads: the first one's entry goes */
	for (i = 0; i < 5; i++) {
		snprintf(name, sizeof(name), "p:other%d", i);
		payload(&other[i], name);
		ret = ltt_app_tpcache_decode(&cache, other[i].data, other[i].len, &tps, &n);
		if (!ret)
			free_tps(tps, n);
	}
	tap_is_int((int)decodes, 6, "five other payloads: five decodes");
	tap_is_int(ltt_app_tpcache_decode(&cache, other[4].data, other[4].len, &tps, &n), 0,
		   "the last of them again");
	tap_ok(decodes == 6 && encode_to(tps, n, &other[4]), "from the cache");
	free_tps(tps, n);
	tap_is_int(ltt_app_tpcache_decode(&cache, w.data, w.len, &tps, &n), 0,
		   "the first payload, after four others");
	tap_ok(decodes == 7 && encode_to(tps, n, &w), "decoded again: the cache keeps four");
	free_tps(tps, n);

	/* a malformed payload: refused each time, never kept */
	w.len--;
	for (i = 0; i < 2; i++)
		tap_is_int(ltt_app_tpcache_decode(&cache, w.data, w.len, &tps, &n), -EPROTO,
			   i ? "refused again, by the decoder" : "a truncated payload is refused");
	tap_is_int((int)decodes, 9, "both times by the decoder");

	ltt_app_tpcache_free(cache);
	ltt_app_tpcache_free(NULL);
	ltt_wbuf_fini(&w);
	for (i = 0; i < 5; i++)
		ltt_wbuf_fini(&other[i]);
	return tap_done();
}
