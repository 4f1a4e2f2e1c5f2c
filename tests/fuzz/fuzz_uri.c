// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_uri.c - the trace output URLs of common/model/uri.c, as users give them
 * (lttctl create -o/-U/-C/-D) and as the session daemon receives them.
 *
 * Input: the URL text, cut at its first NUL; when a second URL follows
 * the NUL, the two are also given to ltt_uri_net_from_tcp() as the -C
 * and -D pair.  Promises checked (uri.h): an accepted URL has a canonical
 * text that fits LTT_URI_TEXT_SIZE and parses back to the same URL; a
 * net URL's two ports are tcp URLs that rebuild it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/model/uri.h"
#include "fuzz.h"

static bool same_uri(const struct ltt_uri *a, const struct ltt_uri *b)
{
	return a->scheme == b->scheme && a->family == b->family && !strcmp(a->host, b->host) &&
	       a->ctrl_port == b->ctrl_port && a->data_port == b->data_port &&
	       !strcmp(a->path, b->path);
}

static void check_uri(const struct ltt_uri *u)
{
	struct ltt_uri *again = calloc(3, sizeof(*again)), *c = again + 1, *d = again + 2;
	char *text = malloc(LTT_URI_TEXT_SIZE);

	FUZZ_CHECK(again && text);
	FUZZ_CHECK(!ltt_uri_format(u, text, LTT_URI_TEXT_SIZE));
	FUZZ_CHECK(strlen(text) < LTT_URI_TEXT_SIZE);
	FUZZ_CHECK(!ltt_uri_parse(text, again));
	FUZZ_CHECK(same_uri(u, again));
	if (u->scheme == LTT_URI_NET) {
		FUZZ_CHECK(u->ctrl_port && u->data_port && u->ctrl_port != u->data_port);
		FUZZ_CHECK(!ltt_uri_net_port(u, 0, c) && !ltt_uri_net_port(u, 1, d));
		strcpy(c->path, u->path);
		FUZZ_CHECK(!ltt_uri_net_from_tcp(c, d, again));
		FUZZ_CHECK(same_uri(u, again));
	}
	/* a short buffer gets truncated, terminated text */
	if (ltt_uri_format(u, text, 8) == -ENOSPC)
		FUZZ_CHECK(strlen(text) < 8);
	free(again);
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ltt_uri *u = calloc(3, sizeof(*u));
	char *text = malloc(size + 2), *second;

	FUZZ_CHECK(u && text);
	memcpy(text, data, size);
	text[size] = text[size + 1] = '\0';
	second = text + strlen(text) + 1;
	if (!ltt_uri_parse(text, &u[0]))
		check_uri(&u[0]);
	if (second <= text + size && !ltt_uri_parse(text, &u[0]) && !ltt_uri_parse(second, &u[1]) &&
	    !ltt_uri_net_from_tcp(&u[0], &u[1], &u[2]))
		check_uri(&u[2]);
	free(text);
	free(u);
	return 0;
}

#define SEED(text) { text, sizeof(text) - 1 }

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const struct {
		const char *text;
		size_t len;
	} seeds[] = {
		SEED("file:///var/tmp/traces"),
		SEED("net://localhost"),
		SEED("net://relay.example.com:5342:5343/host/session"),
		SEED("net4://10.0.0.1:1234"),
		SEED("net6://[::1]:5342:5343/a/b"),
		SEED("net6://[fe80::1%25eth0]"),
		SEED("tcp://127.0.0.1:5342/path"),
		SEED("tcp6://[2001:db8::2]:9000"),
		SEED("tcp://host:5342/a\0tcp://host:5343"),
		SEED("tcp6://[::1]\0tcp6://[::1]:7000"),
		SEED("net://a..b"),
		SEED("file:///a/../b"),
	};
	char name[32];
	size_t i;

	for (i = 0; i < FUZZ_ARRAY_SIZE(seeds); i++) {
		snprintf(name, sizeof(name), "uri-%zu", i);
		emit(name, seeds[i].text, seeds[i].len);
	}
}
