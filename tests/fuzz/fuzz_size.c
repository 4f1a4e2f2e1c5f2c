// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_size.c - ltt_size_parse() (common/base/size.c): every size a user types
 * on lttctl's command line (--subbuf-size, --tracefile-size...).
 *
 * Input: the text (cut at its first NUL).  Promises checked: an accepted
 * size, printed in decimal, parses back to itself, and its formatted form
 * ("4 MiB") does too.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/size.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = malloc(size + 1), buf[64], *space;
	uint64_t v, again;

	FUZZ_CHECK(text);
	memcpy(text, data, size);
	text[size] = '\0';
	if (!ltt_size_parse(text, &v)) {
		snprintf(buf, sizeof(buf), "%" PRIu64, v);
		FUZZ_CHECK(!ltt_size_parse(buf, &again) && again == v);
		ltt_size_format(v, buf, sizeof(buf));
		/* "512 KiB" -> "512KiB", "3000 B" -> "3000" */
		space = strchr(buf, ' ');
		FUZZ_CHECK(space);
		if (!strcmp(space, " B"))
			*space = '\0';
		else
			memmove(space, space + 1, strlen(space));
		FUZZ_CHECK(!ltt_size_parse(buf, &again) && again == v);
		ltt_size_format(v, buf, 3);
		FUZZ_CHECK(strlen(buf) <= 2);
	}
	free(text);
	return 0;
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char *const seeds[] = {
		"4096", "4k", "4KiB", "1MB", "3G", "0x1000", "0x1B", "0x1GiB", "007",
		"18446744073709551615", "0xffffffffffffffff", "17179869183G", "1.5M", "-1",
	};
	char name[32];
	size_t i;

	for (i = 0; i < FUZZ_ARRAY_SIZE(seeds); i++) {
		snprintf(name, sizeof(name), "size-%zu", i);
		emit(name, seeds[i], strlen(seeds[i]));
	}
}
