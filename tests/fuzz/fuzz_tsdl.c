// SPDX-License-Identifier: LGPL-2.1-only
/*
 * fuzz_tsdl.c - the session daemon's metadata (TSDL) generator,
 * src/sessiond/ctrace/tsdl.c, fed with what programs and users control: the
 * tracepoint descriptions a program registers (a TRACEPOINTS payload,
 * decoded as the daemon decodes it), the strings of a trace header
 * (session and host names, a program's name), and the event descriptions
 * the kernel tracer returns (raw struct ltt_kabi_event_desc).
 *
 * Input: byte 0 selects what the rest is.  Promises checked: a generator
 * that fails appends nothing; what it appends holds no control character
 * but newline and tab, and its quotes balance on every line (a string
 * cannot escape its literal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/proto/app-proto.h"
#include "fuzz.h"
#include "seed-tp.h"
#include "sessiond/ctrace/meta.h"

enum { SEL_TRACEPOINTS, SEL_HEADER, SEL_KERNEL, SEL_NR };

/* Text appended to @w from @from: printable, quotes balanced per line. */
static void check_text(const struct ltt_wbuf *w, size_t from)
{
	bool in_str = false;
	size_t i;

	for (i = from; i < w->len; i++) {
		uint8_t c = w->data[i];

		FUZZ_CHECK(c >= 0x20 || c == '\n' || c == '\t');
		if (in_str && c == '\\') {
			FUZZ_CHECK(i + 1 < w->len && w->data[i + 1] != '\n');
			i++;
			continue;
		}
		if (c == '"')
			in_str = !in_str;
		if (c == '\n')
			FUZZ_CHECK(!in_str);
	}
	FUZZ_CHECK(!in_str);
}

static void append_checked(struct ltt_wbuf *w, int ret)
{
	FUZZ_CHECK(!w->err);
	if (ret)
		return;
	check_text(w, 0);
}

static void check_tracepoints(const uint8_t *data, size_t size)
{
	struct ltt_app_tracepoint **tps;
	struct ltt_wbuf w;
	struct ltt_rbuf r;
	uint32_t nr, i;
	size_t before;
	int ret;

	ltt_rbuf_init(&r, data, size);
	if (ltt_app_get_tracepoints(&r, &tps, &nr))
		return;
	ltt_wbuf_init(&w);
	FUZZ_CHECK(!ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 1, false, NULL, 0));
	for (i = 0; i < nr; i++) {
		before = w.len;
		ret = ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_1_8, tps[i], i, 1);
		/* a description the decoder accepted is one TSDL can say */
		FUZZ_CHECK(ret == 0);
		FUZZ_CHECK(w.len > before);
		free(tps[i]);
	}
	append_checked(&w, 0);
	ltt_wbuf_fini(&w);
	free(tps);
}

/* Up to @n NUL-separated strings of @data; NULL for the missing ones. */
static void split(const uint8_t *data, size_t size, char *copy, const char **s, size_t n)
{
	size_t i, pos = 0;

	memcpy(copy, data, size);
	copy[size] = '\0';
	for (i = 0; i < n; i++) {
		s[i] = pos <= size ? copy + pos : NULL;
		if (s[i])
			pos += strlen(s[i]) + 1;
	}
}

static void check_header(const uint8_t *data, size_t size)
{
	struct ltt_meta_trace t = { .uuid = { 1, 2, 3 }, .clock_uuid = { 4, 5, 6 },
				    .clock_offset_ns = 1714557600000000000, .bits_per_long = 64,
				    .vpid = -1, .buffering_id = 1000 };
	char *copy = malloc(size + 1);
	const char *s[8];
	struct ltt_wbuf w;
	int ret;

	FUZZ_CHECK(copy);
	split(data, size, copy, s, 8);
	t.hostname = s[0];
	t.trace_name = s[1];
	t.creation_datetime = s[2];
	t.buffering = s[3];
	t.procname = s[4];
	t.sysname = s[5];
	t.kernel_release = s[6];
	t.kernel_version = s[7];
	if (t.procname && !*t.procname)
		t.procname = NULL;
	else if (t.procname)
		t.vpid = 4242;
	if (t.sysname && !*t.sysname)
		t.sysname = t.kernel_release = t.kernel_version = NULL;
	ltt_wbuf_init(&w);
	ret = ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t);
	FUZZ_CHECK(ret || w.len > 0);
	FUZZ_CHECK(!ret || w.len == 0);
	append_checked(&w, ret);
	ltt_wbuf_fini(&w);
	free(copy);
}

static void check_kernel(const uint8_t *data, size_t size)
{
	struct ltt_kabi_event_desc *d = calloc(1, sizeof(*d));
	struct ltt_wbuf w;
	int ret;

	FUZZ_CHECK(d);
	memcpy(d, data, size < sizeof(*d) ? size : sizeof(*d));
	ltt_wbuf_init(&w);
	ret = ltt_meta_kernel_event(&w, LTT_TRACE_FORMAT_CTF_1_8, d, 7, 0);
	FUZZ_CHECK(!ret || w.len == 0);
	append_checked(&w, ret);
	ltt_wbuf_fini(&w);
	free(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!size)
		return 0;
	switch (data[0] % SEL_NR) {
	case SEL_TRACEPOINTS:
		check_tracepoints(data + 1, size - 1);
		break;
	case SEL_HEADER:
		check_header(data + 1, size - 1);
		break;
	default:
		check_kernel(data + 1, size - 1);
		break;
	}
	return 0;
}

static void seed_kernel(ltt_fuzz_emit_fn emit)
{
	struct ltt_kabi_event_desc *d = calloc(1, sizeof(*d));
	uint8_t *seed = malloc(1 + sizeof(*d));
	struct ltt_kabi_field *f;

	FUZZ_CHECK(d && seed);
	strcpy(d->name, "sched_switch");
	d->nr_fields = 4;
	f = d->fields;
	strcpy(f[0].name, "prev_comm");
	f[0].type = LTT_KABI_FIELD_ARRAY;
	f[0].size = 1;
	f[0].base = 10;
	f[0].encoding = 1;
	f[0].length = 16;
	strcpy(f[1].name, "prev_tid");
	f[1].type = LTT_KABI_FIELD_INTEGER;
	f[1].size = 4;
	f[1].is_signed = 1;
	f[1].base = 10;
	strcpy(f[2].name, "filename");
	f[2].type = LTT_KABI_FIELD_STRING;
	f[2].size = 1;
	strcpy(f[3].name, "args");
	f[3].type = LTT_KABI_FIELD_SEQUENCE;
	f[3].size = 8;
	f[3].base = 16;
	seed[0] = SEL_KERNEL;
	memcpy(seed + 1, d, sizeof(*d));
	emit("kernel-0", seed, 1 + sizeof(*d));
	/* structures: fds_length, fds { fd, events { IN: 1 bit, pad: 7 } }[fds_length], ev { u } */
	strcpy(f[4].name, "fds_length");
	f[4].type = LTT_KABI_FIELD_INTEGER;
	f[4].size = 4;
	f[4].base = 10;
	f[5] = (struct ltt_kabi_field){ .name = "fds", .type = LTT_KABI_FIELD_STRUCT_SEQUENCE,
					.size = 5, .length = 4 };
	f[6] = (struct ltt_kabi_field){ .name = "fd", .type = LTT_KABI_FIELD_INTEGER, .size = 4,
					.is_signed = 1, .base = 10 };
	f[7] = (struct ltt_kabi_field){ .name = "events", .type = LTT_KABI_FIELD_STRUCT, .size = 1,
					.length = 2 };
	f[8] = (struct ltt_kabi_field){ .name = "IN", .type = LTT_KABI_FIELD_INTEGER, .bits = 1,
					.base = 10 };
	f[9] = (struct ltt_kabi_field){ .name = "pad", .type = LTT_KABI_FIELD_INTEGER, .bits = 7,
					.base = 10 };
	f[10] = (struct ltt_kabi_field){ .name = "ev", .type = LTT_KABI_FIELD_STRUCT, .size = 5,
					 .length = 4 };
	memmove(&f[11], &f[6], 4 * sizeof(*f));
	d->nr_fields = 15;
	memcpy(seed + 1, d, sizeof(*d));
	emit("kernel-1", seed, 1 + sizeof(*d));
	free(seed);
	free(d);
}

static void emit_strings(ltt_fuzz_emit_fn emit, const char *name, const char *const *s,
			 size_t n)
{
	struct ltt_wbuf w;
	size_t i;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u8(&w, SEL_HEADER);
	for (i = 0; i < n; i++)
		ltt_wbuf_put_bytes(&w, s[i], strlen(s[i]) + 1);
	emit(name, w.data, w.len);
	ltt_wbuf_fini(&w);
}

void ltt_fuzz_seeds(ltt_fuzz_emit_fn emit)
{
	static const char *const uid_trace[] = {
		"host-1", "my \"session\"", "2024-05-01T12:00:00+02:00", "uid", "",
	};
	static const char *const pid_trace[] = {
		"host-1", "s1", "2024-05-01T12:00:00+02:00", "pid", "my-app\\x", "",
	};
	static const char *const kernel_trace[] = {
		"host-1", "k", "2024-05-01T12:00:00+02:00", "global", "", "Linux",
		"6.1.0-26-amd64", "#1 SMP PREEMPT_DYNAMIC Debian 6.1.112-1",
	};
	struct ltt_wbuf w;
	char name[32];
	unsigned int i;

	ltt_wbuf_init(&w);
	for (i = 0; i <= LTT_FUZZ_SEED_TP_COUNT; i++) {
		ltt_wbuf_reset(&w);
		ltt_wbuf_put_u8(&w, SEL_TRACEPOINTS);
		ltt_fuzz_put_seed_tracepoints(&w, i < LTT_FUZZ_SEED_TP_COUNT ? i :
					      LTT_FUZZ_SEED_TP_ALL);
		FUZZ_CHECK(!w.err);
		snprintf(name, sizeof(name), "tracepoints-%u", i);
		emit(name, w.data, w.len);
	}
	ltt_wbuf_fini(&w);
	emit_strings(emit, "header-uid", uid_trace, FUZZ_ARRAY_SIZE(uid_trace));
	emit_strings(emit, "header-pid", pid_trace, FUZZ_ARRAY_SIZE(pid_trace));
	emit_strings(emit, "header-kernel", kernel_trace, FUZZ_ARRAY_SIZE(kernel_trace));
	seed_kernel(emit);
}
