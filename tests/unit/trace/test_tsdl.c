// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tsdl.c - the proof of ltt's trace format (doc/ctf.md) before the
 * tracer exists: build a CTF trace by hand in a temporary directory --
 * metadata from the session daemon's TSDL generator (sessiond/ctrace/tsdl.c),
 * packetized by common/trace/ctf.c, one stream file of two packets laid out
 * byte by byte as the ring buffer will write them, and its index -- then
 * let babeltrace2 read it and check every value it prints.
 *
 * The traces are built by tsdl-trace.c; this file runs babeltrace2 on
 * them and checks what it prints.
 *
 * Also unit tests of ctf.c and of the generator's refusals (the kernel
 * descriptions' and CTF 2's writers, read by no reader: test_meta.c).  Without
 * babeltrace2 in PATH the whole test is skipped.  LTT_TEST_KEEP=1 keeps
 * the trace directory (its path is printed) for a look.
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/proto/app-proto.h"
#include "common/base/codec.h"
#include "common/trace/ctf.h"
#include "sessiond/ctrace/meta.h"
#include "tests/unit/tap.h"
#include "tests/unit/tsdl-trace.h"

/* ---- running babeltrace2 ---- */

static char babeltrace[512];

static bool find_babeltrace(void)
{
	const char *path = getenv("PATH");
	char *copy, *dir, *save = NULL;
	bool found = false;

	if (!path)
		return false;
	copy = strdup(path);
	for (dir = copy ? strtok_r(copy, ":", &save) : NULL; dir && !found;
	     dir = strtok_r(NULL, ":", &save)) {
		snprintf(babeltrace, sizeof(babeltrace), "%s/babeltrace2", *dir ? dir : ".");
		found = access(babeltrace, X_OK) == 0;
	}
	free(copy);
	return found;
}

struct run {
	int status;	/* the exit code, or -1 */
	char *out;
	char *err;
};

/* Run babeltrace2 with @args (NULL-terminated) and capture its output. */
static void run_babeltrace(struct run *res, const char *const *args)
{
	char out_path[400], err_path[400];
	const char *argv[16];
	unsigned int n = 0;
	int status;
	pid_t pid;

	argv[n++] = babeltrace;
	while (*args && n < ARRAY_SIZE(argv) - 1)
		argv[n++] = *args++;
	argv[n] = NULL;
	snprintf(out_path, sizeof(out_path), "%s/out.txt", tt_tmpdir);
	snprintf(err_path, sizeof(err_path), "%s/err.txt", tt_tmpdir);
	res->status = -1;
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		int out = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int err = open(err_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		/* Deterministic output whatever the environment says. */
		setenv("TZ", "UTC", 1);
		setenv("LC_ALL", "C", 1);
		unsetenv("LIBBABELTRACE2_INIT_LOG_LEVEL");
		unsetenv("BABELTRACE_CLI_LOG_LEVEL");
		execv(babeltrace, (char *const *)argv);
		_exit(127);
	}
	if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status))
		res->status = WEXITSTATUS(status);
	res->out = tt_read_file(out_path);
	res->err = tt_read_file(err_path);
	if (!res->out)
		res->out = strdup("");
	if (!res->err)
		res->err = strdup("");
}

static void run_fini(struct run *res)
{
	free(res->out);
	free(res->err);
}

/* Print @text as diagnostics, one line each. */
static void diag_text(const char *what, const char *text)
{
	const char *p = text, *nl;

	tap_diag("%s:", what);
	while (*p) {
		nl = strchr(p, '\n');
		tap_diag("  %.*s", (int)(nl ? nl - p : (long)strlen(p)), p);
		if (!nl)
			break;
		p = nl + 1;
	}
}

/* ---- the checks ---- */

#define EV "[%020" PRIu64 "] test-host "

/* The lines babeltrace2 must print, in order (--clock-cycles --no-delta). */
static char *expected_lines(void)
{
	static char buf[8192];
	int n = 0;

#define LINE(...) (n += snprintf(buf + n, sizeof(buf) - (size_t)n, __VA_ARGS__))
	LINE(EV "prov:ints: { cpu_id = 0 }, { s8 = -1, s16 = -300, s32 = -70000, "
	     "s64 = -9223372036854775808, u8 = 255, u16 = 65535, u32 = 4294967295, "
	     "u64 = 18446744073709551615, x8 = 0xAB, x32 = 0xDEADBEEF, "
	     "x64 = 0x123456789ABCDEF }\n", (uint64_t)T_INTS);
	LINE(EV "prov:floats: { cpu_id = 0 }, { f = 1.5, d = -0.25 }\n",
	     (uint64_t)T_FLOATS);
	LINE(EV "prov:text: { cpu_id = 0 }, { str = \"h\xc3\xa9llo w\xc3\xb6rld\", "
	     "name = \"abc\", _msg_length = 5, msg = \"seq!!\" }\n", (uint64_t)T_TEXT);
	LINE(EV "prov:arrays: { cpu_id = 0 }, { arr = [ [0] = 1, [1] = 2, [2] = 65535 ], "
	     "_seq_length = 3, seq = [ [0] = -1, [1] = 0, [2] = 7 ], "
	     "_bytes_length = 2, bytes = [ [0] = 0x1, [1] = 0xFF ] }\n", (uint64_t)T_ARRAYS);
	LINE(EV "prov:enums: { cpu_id = 0 }, { small = ( \"neg\" : container = -5 ), "
	     "big = ( \"huge\" : container = 0xFFFFFFFFFFFFFFFF ), "
	     "unknown = ( <unknown> : container = 10 ) }\n", (uint64_t)T_ENUMS);
	LINE(EV "prov:empty: { cpu_id = 0 }, { }\n", (uint64_t)T_EMPTY);
	LINE(EV "other.prov:far: { cpu_id = 0 }, { v = 4242 }\n", (uint64_t)T_FAR);
	LINE(EV "prov:many: { cpu_id = 0 }, { state = ( \"label_299\" : container = 299 ) }\n",
	     (uint64_t)T_MANY);
	LINE(EV "prov:ints: { cpu_id = 0 }, { s8 = 127, s16 = 32767, s32 = 2147483647, "
	     "s64 = 9223372036854775807, u8 = 0, u16 = 1, u32 = 2, u64 = 3, x8 = 0x0, "
	     "x32 = 0x10, x64 = 0xFFFFFFFFFFFFFFFF }\n", (uint64_t)T_INTS1);
	LINE(EV "other.prov:far: { cpu_id = 0 }, { v = 0 }\n", (uint64_t)T_FAR1);
	LINE(EV "prov:text: { cpu_id = 0 }, { str = \"q\\\"b\\\\s\", name = \"12345678\", "
	     "_msg_length = 1, msg = \"!\" }\n", (uint64_t)T_TEXT1);
	LINE(EV "prov:arrays: { cpu_id = 0 }, { arr = [ [0] = 7, [1] = 8, [2] = 9 ], "
	     "_seq_length = 0, seq = [ ], _bytes_length = 0, bytes = [ ] }\n", (uint64_t)T_ARRAYS1);
	LINE(EV "prov:wire: { cpu_id = 0 }, { port = 8080, addr = 0xC0A80001, delta = -2, "
	     "ratio = 1.5, _words_length = 2, words = [ [0] = 0x1234, [1] = 0xABCD ], n = 3, "
	     "text = \"abc\" }\n", (uint64_t)T_WIRE1);
#undef LINE
	return buf;
}

/* Compare @got with @want line by line; report the first difference. */
static bool same_lines(const char *got, const char *want, const char *what)
{
	unsigned int line = 1;

	while (*got && *want) {
		const char *g = strchr(got, '\n'), *w = strchr(want, '\n');
		size_t gl = g ? (size_t)(g - got) : strlen(got);
		size_t wl = w ? (size_t)(w - want) : strlen(want);

		if (gl != wl || memcmp(got, want, gl)) {
			tap_diag("%s, line %u:", what, line);
			tap_diag("  got:  %.*s", (int)gl, got);
			tap_diag("  want: %.*s", (int)wl, want);
			return false;
		}
		got += gl + (g != NULL);
		want += wl + (w != NULL);
		line++;
	}
	if (*got || *want) {
		tap_diag("%s, line %u: %s", what, line, *got ? "extra output" : "output missing");
		return false;
	}
	return true;
}

static unsigned int count_lines(const char *text)
{
	unsigned int n = 0;

	for (; *text; text++)
		n += *text == '\n';
	return n;
}

static void check_events(void)
{
	const char *args[] = { "--clock-cycles", "--no-delta", tt_tracedir, NULL };
	struct run res;
	char *want = expected_lines();

	run_babeltrace(&res, args);
	tap_is_int(res.status, 0, "babeltrace2 reads the trace (exit status)");
	tap_is_int(count_lines(res.out), 13, "13 events printed");
	if (!same_lines(res.out, want, "events"))
		diag_text("babeltrace2 printed", res.out);
	tap_ok(same_lines(res.out, want, "events"),
	       "every event's name, timestamp and field values as written");
	if (!tap_ok(strstr(res.err, "Tracer discarded 3 events") != NULL,
		    "packet 2's events_discarded makes babeltrace2 report 3 discarded events"))
		diag_text("stderr", res.err);
	run_fini(&res);
}

/* "HH:MM:SS.nnnnnnnnn" (UTC) of clock value @ts, as babeltrace2 prints it. */
static void clock_time(char *buf, size_t size, uint64_t ts)
{
	uint64_t ns = (uint64_t)CLOCK_OFFSET_NS + ts, s = ns / 1000000000 % 86400;

	snprintf(buf, size, "%02" PRIu64 ":%02" PRIu64 ":%02" PRIu64 ".%09" PRIu64, s / 3600,
		 s / 60 % 60, s % 60, ns % 1000000000);
}

/*
 * A packet's events_discarded is the stream's count at the packet's end:
 * the 3 were lost between the end of packet 1 and the end of packet 2.
 */
/*
 * Does @text hold @want, as babeltrace2 2.0 writes it, or as 2.1 does
 * (Debian 13's): "UID" where 2.0 says "UUID", "Offset from origin" where
 * it says "Offset"?
 */
static bool bt_has(const char *text, const char *want)
{
	static const char *const words[][2] = {
		{ "UUID: ", "UID: " }, { "Offset (", "Offset from origin (" },
	};
	char alt[2048];
	const char *p;
	size_t n = 0, i;

	if (strstr(text, want))
		return true;
	for (p = want; *p && n + 32 < sizeof(alt);) {
		for (i = 0; i < sizeof(words) / sizeof(words[0]); i++)
			if (!strncmp(p, words[i][0], strlen(words[i][0])))
				break;
		if (i < sizeof(words) / sizeof(words[0])) {
			n += (size_t)snprintf(alt + n, sizeof(alt) - n, "%s", words[i][1]);
			p += strlen(words[i][0]);
		} else {
			alt[n++] = *p++;
		}
	}
	alt[n] = '\0';
	return !*p && strstr(text, alt);
}

static void check_discarded_message(void)
{
	const char *args[] = { "--clock-cycles", tt_tracedir, NULL };
	char want[1024], from[32], to[32];
	struct run res;
	const char *p;

	clock_time(from, sizeof(from), T_MANY);
	clock_time(to, sizeof(to), T_END1);
	snprintf(want, sizeof(want),
		 "WARNING: Tracer discarded %d events between [%s] and [%s] in trace \"test-host\" "
		 "(UUID: 12345678-9abc-4def-8001-020304050607) within stream \"%s/chan_0\" "
		 "(stream class ID: 0, stream ID: 0).", DISCARDED, from, to, tt_tracedir);
	run_babeltrace(&res, args);
	p = bt_has(res.err, want) ? res.err : NULL;
	if (!tap_ok(p != NULL, "babeltrace2 warns of the discarded events between packet 1's "
		    "end and packet 2's end")) {
		tap_diag("want: %s", want);
		diag_text("stderr", res.err);
	} else {
		tap_diag("babeltrace2 says: %s", want);
	}
	run_fini(&res);
}

/* The timestamps must go up: babeltrace2 decoded the wraps and extended headers right. */
static void check_order(void)
{
	const char *args[] = { "--clock-cycles", "--no-delta", tt_tracedir, NULL };
	uint64_t prev = 0, ts;
	bool ordered = true;
	struct run res;
	const char *p;

	run_babeltrace(&res, args);
	for (p = res.out; *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : p + strlen(p)) {
		if (sscanf(p, "[%" SCNu64 "]", &ts) != 1 || ts < prev)
			ordered = false;
		prev = ts;
	}
	tap_ok(ordered && prev == T_WIRE1, "timestamps increase, the last is %" PRIu64,
	       (uint64_t)T_WIRE1);
	run_fini(&res);
}

/* @v with a comma every three digits. */
static void grouped(char *buf, size_t size, uint64_t v)
{
	char digits[32];
	size_t len, i, n = 0;

	snprintf(digits, sizeof(digits), "%" PRIu64, v);
	len = strlen(digits);
	for (i = 0; i < len && n + 2 < size; i++) {
		if (i && (len - i) % 3 == 0)
			buf[n++] = ',';
		buf[n++] = digits[i];
	}
	buf[n] = '\0';
}

/* "[1,000 cycles, 1,700,000,000,123,457,789 ns from origin]" for clock value @ts. */
static void details_time(char *buf, size_t size, uint64_t ts)
{
	char cycles[32], ns[32];

	grouped(cycles, sizeof(cycles), ts);
	grouped(ns, sizeof(ns), (uint64_t)CLOCK_OFFSET_NS + ts);
	snprintf(buf, size, "[%s cycles, %s ns from origin]", cycles, ns);
}

static void check_clock_and_env(void)
{
	const char *args[] = { "-c", "sink.text.details", tt_tracedir, NULL };
	const char *want[] = {
		"hostname: test-host",
		"domain: ust",
		"tracer_name: lttng-ust",
		"tracer_major: 2",
		"tracer_minor: 13",
		"tracer_patchlevel: 0",
		"tracer_buffering_scheme: uid",
		"tracer_buffering_id: 1000",
		"architecture_bit_width: 64",
		"trace_name: my \"quoted\" \\ session",
		"trace_creation_datetime: 2024-05-01T12:00:00+02:00",
		"ltt_tracer_name: ltt",
		"ltt_version: " PACKAGE_VERSION,
		"Name: monotonic",
		"Frequency (Hz): 1,000,000,000",
		"Offset (s): 1,700,000,000",
		"Offset (cycles): 123,456,789",
		"UUID: b0071d00-0000-4000-8000-000000000001",
		"\n    UUID: 12345678-9abc-4def-8001-020304050607\n",
		"Event class `prov:floats` (ID 1):\n      Log level: Debug (line)\n",
		"Event class `prov:empty` (ID 5):\n      Log level: Emergency\n",
		"Event class `other.prov:far` (ID 40):\n",
		NULL,	/* the discarded events message, below */
	};
	char discarded[512], from[96], to[96];
	unsigned int i, missing = 0;
	struct run res;

	/* Between the end of packet 1 and the end of packet 2. */
	details_time(from, sizeof(from), T_MANY);
	details_time(to, sizeof(to), T_END1);
	snprintf(discarded, sizeof(discarded), "\n%s\n%s\n{Trace 0, Stream class ID 0, "
		 "Stream ID 0}\nDiscarded events (%d events)\n", from, to, DISCARDED);
	want[ARRAY_SIZE(want) - 1] = discarded;
	run_babeltrace(&res, args);
	tap_is_int(res.status, 0, "babeltrace2 -c sink.text.details exits 0");
	for (i = 0; i < ARRAY_SIZE(want); i++) {
		/* babeltrace2 2.1 names the trace's UUID on the trace's line */
		if (!bt_has(res.out, want[i]) &&
		    !(strstr(want[i], "UUID: 12345678-") &&
		      strstr(res.out, "UID `12345678-9abc-4def-8001-020304050607`)"))) {
			tap_diag("not in the details: %s", want[i]);
			missing++;
		}
	}
	tap_is_int(missing, 0, "env, clock, UUID and log level as the generator wrote them");
	if (missing)
		diag_text("details", res.out);
	run_fini(&res);
}

/* A session's output directory: both traces merge on one time line. */
static void check_merge(void)
{
	const char *args[] = { "--clock-cycles", "--no-delta", "--fields=trace:procname",
			       tt_outdir, NULL };
	char want[256];
	struct run res;

	snprintf(want, sizeof(want), "\n[%020" PRIu64 "] my-app app:hello: { cpu_id = 0 }, "
		 "{ msg = \"from pid\" }\n[%020" PRIu64 "] ", (uint64_t)T_PID, (uint64_t)T_TEXT);
	run_babeltrace(&res, args);
	tap_is_int(res.status, 0, "babeltrace2 reads the session's two traces together");
	tap_is_int(count_lines(res.out), 14, "... 14 events");
	if (!tap_ok(strstr(res.out, want) != NULL, "... the per-PID event in time order, with "
		    "its procname"))
		diag_text("babeltrace2 printed", res.out);
	run_fini(&res);
}

static void check_quiet(void)
{
	const char *args[] = { "--output-format=dummy", tt_tracedir, NULL };
	struct run res;

	run_babeltrace(&res, args);
	tap_is_int(res.status, 0, "babeltrace2 --output-format=dummy exits 0");
	if (!tap_ok(!*res.err && !*res.out, "... and prints nothing (no warning)"))
		diag_text("stderr", res.err);
	run_fini(&res);
}

/* Print the warning and error lines of a babeltrace2 log. */
static void diag_problems(const char *log)
{
	const char *p, *nl;

	for (p = log; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p) - 1;
		if (memmem(p, (size_t)(nl - p), " W ", 3) || memmem(p, (size_t)(nl - p), " E ", 3))
			tap_diag("  %.*s", (int)(nl - p), p);
	}
}

/*
 * babeltrace2 trusts the index for packet offsets (a wrong one breaks the
 * read), and warns of one it rejects: it must take ours silently.
 */
static void check_index_used(void)
{
	const char *args[] = { "--log-level=INFO", "--output-format=dummy", tt_tracedir, NULL };
	struct run res;
	bool quiet;

	run_babeltrace(&res, args);
	quiet = !strstr(res.err, " W ") && !strstr(res.err, " E ");
	tap_ok(res.status == 0 && strstr(res.err, "Building index from .idx file of stream file") &&
	       quiet, "babeltrace2 builds its packet index from our index file, silently");
	if (!quiet)
		diag_problems(res.err);
	run_fini(&res);
}

/* ---- ctf.c ---- */

static uint32_t host32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t be32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return be32toh(v);
}

static void test_metadata_packets(void)
{
	static uint8_t buf[3 * LTT_CTF_METADATA_PACKET_SIZE];
	static char text[LTT_CTF_METADATA_ROOM + 10];
	size_t len = 1;
	bool padded = true;
	unsigned int i;

	tap_ok(ltt_ctf_metadata_size(0) == 0 && ltt_ctf_metadata_size(1) == 4096 &&
	       ltt_ctf_metadata_size(LTT_CTF_METADATA_ROOM) == 4096 &&
	       ltt_ctf_metadata_size(LTT_CTF_METADATA_ROOM + 1) == 8192,
	       "metadata packets: one per started %d bytes of text", LTT_CTF_METADATA_ROOM);
	memset(text, 'x', sizeof(text));
	tap_is_int(ltt_ctf_metadata_packet(tt_trace_uuid, text, sizeof(text), buf, 8191, &len),
		   -EINVAL, "a buffer too small is refused");
	tap_ok(len == 1, "... and ret_len is untouched");
	tap_is_int(ltt_ctf_metadata_packet(tt_trace_uuid, text, 0, NULL, 0, &len), 0,
		   "no text, no packet");
	tap_is_int((long long)len, 0, "... zero bytes");
	tap_is_int(ltt_ctf_metadata_packet(tt_trace_uuid, text, sizeof(text), buf, sizeof(buf), &len),
		   0, "text one packet cannot hold");
	tap_is_int((long long)len, 8192, "... takes two packets");
	tap_ok(host32(buf) == LTT_CTF_METADATA_MAGIC && !memcmp(buf + 4, tt_trace_uuid, 16) &&
	       host32(buf + 20) == 0 && host32(buf + 24) == 4096 * 8 &&
	       host32(buf + 28) == 4096 * 8 && buf[32] == 0 && buf[33] == 0 && buf[34] == 0 &&
	       buf[35] == 1 && buf[36] == 8, "first packet's header: full");
	tap_ok(host32(buf + 4096) == LTT_CTF_METADATA_MAGIC &&
	       host32(buf + 4096 + 24) == (37 + 10) * 8 && host32(buf + 4096 + 28) == 4096 * 8,
	       "second packet's header: 10 bytes of text");
	for (i = 4096 + 37 + 10; i < 8192; i++)
		padded = padded && buf[i] == 0;
	tap_ok(padded && buf[4096 + 37 + 9] == 'x', "the last packet is padded with zeros");
}

static void test_index(void)
{
	static const struct ltt_ctf_index_entry e = {
		.offset = 1, .packet_size = 2, .content_size = 3, .timestamp_begin = 4,
		.timestamp_end = 5, .events_discarded = 6, .stream_id = 7,
		.stream_instance_id = 8, .packet_seq_num = UINT64_C(0x0102030405060708),
	};
	uint8_t hdr[LTT_CTF_INDEX_HEADER_SIZE], buf[LTT_CTF_INDEX_ENTRY_SIZE];
	struct ltt_ctf_index_entry d;
	uint32_t entry_size = 0;

	ltt_ctf_index_header(hdr);
	tap_ok(be32(hdr) == 0xC1F1DCC1 && be32(hdr + 4) == 1 && be32(hdr + 8) == 1 &&
	       be32(hdr + 12) == 72, "index header: big-endian magic, 1.1, 72-byte entries");
	tap_ok(!ltt_ctf_index_header_decode(hdr, &entry_size) && entry_size == 72,
	       "index header decodes");
	hdr[0] ^= 1;
	tap_is_int(ltt_ctf_index_header_decode(hdr, &entry_size), -EPROTO, "a bad magic is refused");
	ltt_ctf_index_entry(&e, buf);
	tap_ok(buf[7] == 1 && buf[64] == 1 && buf[71] == 8, "index entry: nine big-endian u64");
	tap_ok(!ltt_ctf_index_entry_decode(buf, 72, &d) && !memcmp(&d, &e, sizeof(d)),
	       "index entry round trip");
	tap_ok(!ltt_ctf_index_entry_decode(buf, 56, &d) && d.stream_id == 7 &&
	       d.stream_instance_id == 0 && d.packet_seq_num == 0, "a 1.0 entry lacks the last two");
	tap_is_int(ltt_ctf_index_entry_decode(buf, 64, &d), -EINVAL, "a 64-byte entry is refused");
}

/* ---- the generator's refusals ---- */

static void test_generator_refusals(void)
{
	struct ltt_meta_trace ok = {
		.hostname = "h", .trace_name = "t", .creation_datetime = "d", .buffering = "uid",
		.bits_per_long = 64, .vpid = -1,
	};
	struct ltt_meta_trace t;
	struct ltt_app_tracepoint *tp = tt_receive(&tt_event_classes[0].tp);
	struct ltt_wbuf w;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_bytes(&w, "previous", 8);
	t = ok;
	t.hostname = "bad\nhost";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "a control character is refused");
	tap_is_int((long long)w.len, 8, "... and nothing is appended");
	t = ok;
	t.trace_name = NULL;
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "a NULL string is refused");
	t = ok;
	t.buffering = "global";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "a kernel trace without uname refused");
	t = ok;
	t.kernel_release = "6.1";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "kernel fields in a user trace refused");
	t = ok;
	t.buffering = "channel";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "unknown buffering refused");
	t = ok;
	t.buffering = "pid";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "per-PID without vpid and procname");
	t.vpid = 42;
	t.procname = "app";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), 0, "per-PID with them");
	tap_ok(strstr((char *)w.data, "\tvpid = 42;\n\tprocname = \"app\";\n") != NULL,
	       "per-PID env has vpid and procname");
	w.len = 8;
	t = ok;
	t.procname = "app";
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "per-UID with a procname refused");
	t = ok;
	t.bits_per_long = 16;
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "16 bits per long refused");
	t = ok;
	t.clock_offset_ns = -1;
	tap_is_int(ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), -EINVAL, "a negative clock offset refused");
	tap_is_int((long long)w.len, 8, "nothing appended by any refusal");
	if (tp) {
		tp->fields[0].size = 3;
		tap_is_int(ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_1_8, tp, 0, 0), -EINVAL, "an invalid description refused");
		tp->fields[0].size = 1;
		tp->name[4] = '"';
		tap_is_int(ltt_meta_event(&w, LTT_TRACE_FORMAT_CTF_1_8, tp, 0, 0), -EINVAL, "an invalid event name refused");
	} else {
		tap_ok(false, "an invalid description refused");
		tap_ok(false, "an invalid event name refused");
	}
	w.err = -ENOMEM;
	tap_is_int(ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 1, false, NULL, 0), -ENOMEM, "a buffer in error: -ENOMEM");
	tap_is_int((long long)w.len, 8, "nothing appended to a buffer in error");
	free(tp);
	ltt_wbuf_fini(&w);
}

static void check_kernel_trace(void)
{
	const char *args[] = { "--clock-cycles", "--no-delta", tt_kerneldir, NULL };
	char want[512];
	struct run res;

	snprintf(want, sizeof(want), EV "sched_switch: { cpu_id = 0 }, { prev_comm = \"swapper/1\", "
		 "prev_tid = 0, prev_state = 0, next_comm = \"kworker/1:0\", next_tid = 42, "
		 "_args_length = 2, args = [ [0] = 0xDEAD, [1] = 0x7 ], path = \"/etc/passwd\", "
		 "fds_length = 2, fds = [ [0] = { fd = 3, flags = { IN = 1, padding = 0 } }, "
		 "[1] = { fd = -1, flags = { IN = 0, padding = 127 } } ], ev = { u = 0xBEEF } }\n",
		 (uint64_t)T_KERNEL);
	run_babeltrace(&res, args);
	tap_is_int(res.status, 0, "babeltrace2 reads the kernel trace");
	if (!tap_ok(same_lines(res.out, want, "kernel event"),
		    "the kernel event's name and fields as written"))
		diag_text("babeltrace2 printed", res.out);
	run_fini(&res);
}

/* ---- main ---- */

/* Remove what the test wrote (the directories under tt_tmpdir are named in main()). */
static void remove_trace(void)
{
	static const char *const paths[] = {
		"out/uid/index/chan_0.idx", "out/uid/index", "out/uid/chan_0", "out/uid/metadata",
		"out/uid", "out/pid/chan_0", "out/pid/metadata", "out/pid", "kernel/chan_0",
		"kernel/metadata", "kernel", "out", "out.txt",
		"err.txt",
	};
	char path[400];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(paths); i++) {
		snprintf(path, sizeof(path), "%s/%s", tt_tmpdir, paths[i]);
		remove(path);
	}
	rmdir(tt_tmpdir);
}

/* A stream block with contexts: each field declared in order (babeltrace2 reads them end to end in test_ust_context.sh). */
static void test_stream_contexts(void)
{
	struct ltt_ctx ctx[3];
	struct ltt_wbuf w;
	char *text;

	ltt_ctx_parse("vtid", &ctx[0]);
	ltt_ctx_parse("procname", &ctx[1]);
	ltt_ctx_parse("perf:thread:cache-misses", &ctx[2]);
	ltt_wbuf_init(&w);
	tap_ok(!ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 2, false, ctx, 3), "a stream with three contexts");
	text = strndup((const char *)w.data, w.len);
	tap_ok(text && strstr(text, "\tevent.context := struct {\n"
			     "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vtid;\n"
			     "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } _procname[17];\n"
			     "\t\tinteger { size = 64; align = 8; signed = 0; encoding = none; base = 10; } _perf_thread_cache_misses;\n"
			     "\t} align(8);\n};\n"),
	       "  its event.context declares them in order");
	free(text);
	w.len = 0;
	ctx[1].type = LTT_CONTEXT_VPID;	/* named procname: refused */
	tap_is_int(ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 2, false, ctx, 3), -EINVAL, "a context that is not its own name: -EINVAL");
	tap_is_int((long long)w.len, 0, "  nothing written");
	ltt_wbuf_fini(&w);
}

/*
 * A per-channel stream: its own packet context, struct packet_context's
 * fields but cpu_id, whose 4 bytes are named _ltt_padding.
 */
static void test_stream_per_channel(void)
{
	struct ltt_ctx vtid;
	struct ltt_wbuf w;
	char *text;

	ltt_ctx_parse("vtid", &vtid);
	ltt_wbuf_init(&w);
	tap_ok(!ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 3, true, &vtid, 1), "a per-channel stream");
	text = strndup((const char *)w.data, w.len);
	tap_ok(text && strstr(text, "stream {\n\tid = 3;\n"
			     "\tevent.header := struct event_header_compact;\n"
			     "\tpacket.context := struct {\n") &&
	       strstr(text, "\t\tunsigned long events_discarded;\n"
			    "\t\tuint32_t _ltt_padding;\n\t} align(8);\n"
			    "\tevent.context := struct {\n") && !strstr(text, "cpu_id"),
	       "  its packet context ends with _ltt_padding, no cpu_id, then its contexts");
	free(text);
	ltt_wbuf_fini(&w);
}

/* The kernel's context types: their TSDL, sizes and domains. */
static void test_kernel_stream_contexts(void)
{
	static const char *const names[] = { "tid", "hostname", "preemptible", "euid", "vppid" };
	struct ltt_ctx ctx[5];
	struct ltt_wbuf w;
	unsigned int i, ok = 0;
	char *text;

	for (i = 0; i < 5; i++)
		ok += !ltt_ctx_parse(names[i], &ctx[i]) &&
		      ltt_ctx_domains(&ctx[i]) == LTT_CTX_DOMAIN_KERNEL;
	tap_is_int(ok, 5, "tid, hostname, preemptible, euid, vppid: kernel-only types");
	tap_is_int((long long)ltt_ctx_len(ctx, 5), 4 + 65 + 1 + 4 + 4, "  4 + 65 + 1 + 4 + 4 bytes an event");
	ltt_ctx_parse("ip", &ctx[0]);
	tap_is_int(ltt_ctx_domains(&ctx[0]), LTT_CTX_DOMAIN_USER, "ip: user space only");
	ltt_ctx_parse("vpid", &ctx[0]);
	tap_is_int(ltt_ctx_domains(&ctx[0]), LTT_CTX_DOMAIN_USER | LTT_CTX_DOMAIN_KERNEL,
		   "vpid: both domains");
	for (i = 0; ltt_ctx_list_name_domain(i, LTT_CTX_DOMAIN_KERNEL); i++)
		;
	tap_is_int(i, 35, "35 kernel types listed");
	ltt_ctx_parse("tid", &ctx[0]);
	ltt_wbuf_init(&w);
	tap_ok(!ltt_meta_stream(&w, LTT_TRACE_FORMAT_CTF_1_8, 1, false, ctx, 5), "a kernel stream with five contexts");
	text = strndup((const char *)w.data, w.len);
	tap_ok(text && strstr(text, "\tevent.context := struct {\n"
			     "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _tid;\n"
			     "\t\tinteger { size = 8; align = 8; signed = 0; encoding = UTF8; base = 10; } _hostname[65];\n"
			     "\t\tinteger { size = 8; align = 8; signed = 0; encoding = none; base = 10; } _preemptible;\n"
			     "\t\tinteger { size = 32; align = 8; signed = 0; encoding = none; base = 10; } _euid;\n"
			     "\t\tinteger { size = 32; align = 8; signed = 1; encoding = none; base = 10; } _vppid;\n"
			     "\t} align(8);\n};\n"),
	       "  its event.context declares them in order, hostname a 65-byte text");
	free(text);
	ltt_wbuf_fini(&w);
}

/* A clock plugin's trace header: its clock block, and the timestamps mapped to it. */
static void test_plugin_clock(void)
{
	struct ltt_meta_trace t = {
		.clock_offset_ns = 5,
		.clock_freq = 1000,
		.clock_offset_s = 1700000000,
		.clock_offset = 123,
		.clock_plugin_name = "my_clock",
		.clock_plugin_description = "a \"quoted\" clock",
		.hostname = "h",
		.trace_name = "t",
		.creation_datetime = "20240501T120000+0200",
		.buffering = "uid",
		.bits_per_long = 64,
		.vpid = -1,
	};
	struct ltt_wbuf w;
	char *text;

	memset(t.clock_uuid, 0xab, sizeof(t.clock_uuid));
	ltt_wbuf_init(&w);
	tap_ok(!ltt_meta_trace_header(&w, LTT_TRACE_FORMAT_CTF_1_8, &t), "a trace header with a clock plugin's clock");
	text = strndup((const char *)w.data, w.len);
	tap_ok(text && strstr(text, "clock {\n"
			     "\tname = \"my_clock\";\n"
			     "\tuuid = \"abababab-abab-abab-abab-abababababab\";\n"
			     "\tdescription = \"a \\\"quoted\\\" clock\";\n"
			     "\tfreq = 1000;\n"
			     "\toffset_s = 1700000000;\n"
			     "\toffset = 123;\n"
			     "};\n"),
	       "  its clock block: the plugin's name, UUID, description, frequency and offset");
	tap_ok(text && strstr(text, "\tmap = clock.my_clock.value;\n} := uint64_clock_monotonic_t;") &&
		       !strstr(text, "clock.monotonic"),
	       "  the timestamps' types map to it, none to monotonic");
	free(text);
	ltt_wbuf_fini(&w);
}

int main(void)
{
	if (!find_babeltrace()) {
		printf("1..0 # SKIP babeltrace2 not installed\n");
		return 0;
	}
	if (!tt_setup())
		return tap_done();

	test_metadata_packets();
	test_stream_contexts();
	test_stream_per_channel();
	test_kernel_stream_contexts();
	test_plugin_clock();
	test_index();
	test_generator_refusals();

	tt_make_metadata();
	tt_make_stream();
	tt_make_pid_trace();
	tt_make_kernel_trace();
	check_events();
	check_discarded_message();
	check_order();
	check_clock_and_env();
	check_merge();
	check_quiet();
	check_index_used();
	check_kernel_trace();

	if (getenv("LTT_TEST_KEEP"))
		tap_diag("traces kept in %s", tt_outdir);
	else
		remove_trace();
	return tap_done();
}
