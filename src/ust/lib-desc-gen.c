// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lib-desc-gen.c - writes lib-desc.c at build time: the descriptions of
 * the library's own tracepoints (ust_lib_tracepoints()) as
 * ltt_app_put_tracepoint() encodes them for the daemons, so that a
 * program's start sends them without encoding them (ust_lib_desc()).
 * Built and run on the build machine for the library beside it: the
 * descriptions hold the sizes of C types.  Linked with everything of the
 * library but lib-desc.c, so ust_lib_desc() finds nothing here.
 *
 *   lib-desc-gen > lib-desc.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/tracepoint.h>

#include "common/proto/app-proto.h"
#include "ust/ust.h"

struct desc {
	const char *name;
	struct ltt_wbuf w;
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct desc *)a)->name, ((const struct desc *)b)->name);
}

int main(void)
{
	struct ltt_ust_tracepoint *tps[UST_LIB_TRACEPOINTS];
	struct desc d[UST_LIB_TRACEPOINTS];
	uint32_t off = 0;
	size_t i, j;

	ust_lib_tracepoints(tps);
	for (i = 0; i < UST_LIB_TRACEPOINTS; i++) {
		size_t n = strlen(tps[i]->name) + 1;

		d[i].name = tps[i]->name;
		ltt_wbuf_init(&d[i].w);
		ltt_app_put_tracepoint(&d[i].w, tps[i]);
		/* ust_lib_desc() finds it by the name it starts with */
		if (d[i].w.err || d[i].w.len < 4 + n || memcmp(d[i].w.data + 4, d[i].name, n)) {
			fprintf(stderr, "lib-desc-gen: %s: not encoded as expected\n", d[i].name);
			return 1;
		}
	}
	qsort(d, UST_LIB_TRACEPOINTS, sizeof(d[0]), by_name);
	for (i = 1; i < UST_LIB_TRACEPOINTS; i++)
		if (!strcmp(d[i - 1].name, d[i].name)) {
			fprintf(stderr, "lib-desc-gen: two tracepoints named %s\n", d[i].name);
			return 1;
		}
	printf("// Written by lib-desc-gen at build time: the library's own descriptions.\n"
	       "#include \"ust/ust.h\"\n\n"
	       "const uint32_t ust_nr_lib_descs = %u;\n\n"
	       "const uint8_t ust_lib_desc_bytes[] = {",
	       (unsigned int)UST_LIB_TRACEPOINTS);
	for (i = 0; i < UST_LIB_TRACEPOINTS; i++) {
		printf("\n\t/* %s */", d[i].name);
		for (j = 0; j < d[i].w.len; j++)
			printf("%s0x%02x,", j % 12 ? " " : "\n\t", d[i].w.data[j]);
	}
	printf("\n};\n\nconst uint32_t ust_lib_desc_off[] = {");
	for (i = 0; i <= UST_LIB_TRACEPOINTS; i++) {
		printf("%s%u,", i % 8 ? " " : "\n\t", off);
		if (i < UST_LIB_TRACEPOINTS) {
			off += (uint32_t)d[i].w.len;
			ltt_wbuf_fini(&d[i].w);
		}
	}
	printf("\n};\n");
	return fflush(stdout) || ferror(stdout) ? 1 : 0;
}
