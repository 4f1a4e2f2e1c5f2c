// SPDX-License-Identifier: GPL-2.0-only
/*
 * ltt-ktest-meta.c - the metadata of the traces the module's test
 * programs write, made by the session daemon's own generator
 * (src/sessiond/ctrace/tsdl.c) from the tracer's EVENT_DESC answers: the tests
 * read back with babeltrace2 what the daemon would describe.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt-ktest-meta.h"
#include "sessiond/ctrace/meta.h"

int ltt_ktest_possible_cpus(int max)
{
	FILE *f = fopen("/sys/devices/system/cpu/possible", "r");
	int a = 0, b = 0, n;

	if (!f)
		return -1;
	n = fscanf(f, "%d-%d", &a, &b);
	fclose(f);
	if (n == 1)
		b = a;
	if (n < 1 || a != 0 || b >= max)
		return -1;
	return b + 1;
}

int ltt_ktest_metadata(const char *dir, const uint8_t uuid[16], const char *tracer,
		       const struct ltt_kabi_event_desc *descs, const bool *have, unsigned int n)
{
	struct ltt_meta_trace t = {
		.hostname = "guest",
		.trace_name = tracer,
		.creation_datetime = "1970-01-01T00:00:00+0000",
		.buffering = "global",
		.bits_per_long = 64,
		.vpid = -1,
		.sysname = "Linux",
		.kernel_release = "test",
		.kernel_version = "test",
	};
	struct ltt_wbuf w;
	char path[512];
	unsigned int i;
	FILE *f;
	int ret;

	memcpy(t.uuid, uuid, sizeof(t.uuid));
	ltt_wbuf_init(&w);
	ret = ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t);
	if (!ret)
		ret = ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 0, false, NULL, 0);
	for (i = 0; i < n && !ret; i++)
		if (have[i])
			ret = ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, &descs[i], i, 0);
	snprintf(path, sizeof(path), "%s/metadata", dir);
	f = ret ? NULL : fopen(path, "w");
	if (f) {
		/* Plain-text metadata (it starts with "/" "* CTF 1.8"): readers take it. */
		if (fwrite(w.data, 1, w.len, f) != w.len)
			ret = -1;
		if (fclose(f))
			ret = -1;
	} else if (!ret) {
		ret = -1;
	}
	ltt_wbuf_fini(&w);
	return ret;
}
