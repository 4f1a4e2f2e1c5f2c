// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_filter.c - filters in libltt-ust, through a real app.sock
 * connection to a real instrumented program (test_tracepoint_app, linked
 * to the shared library), with a fake session daemon (fake-app.h) playing
 * the daemon's side of EVENT_FILTER:
 *
 *   - hostile programs, handcrafted, and programs validated against other
 *     field types are refused with ACK -EINVAL, the event stays disabled
 *     there (EVENT_ENABLE refused), nothing is recorded, the program runs
 *     on; malformed EVENT_FILTER messages are refused with -EPROTO;
 *   - compiled programs select exactly the events they should: integer
 *     comparison, string glob, two programs (any accepts), context fields
 *     ($ctx.vpid, vtid, procname, ...), a filter removed;
 *   - the program set swapped 200 times while 4 threads record flat out:
 *     no crash, and only events one of the sets accepts are recorded.
 *
 * The event everywhere is app:first {int v, string s}.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/filter/filter-compile.h"
#include "common/filter/filter-parse.h"
#include "common/trace/ringbuf.h"
#include "tests/unit/fake-app.h"
#include "tests/unit/tap.h"

#define CHAN_KEY 91
#define EVENT "app:first"
#define N_EVENTS 100
#define MAX_PROGS 4

static const struct ltt_filter_field_desc first_fields[] = {
	{ "v", LTT_UST_TYPE_INTEGER, 4, 1, LTT_UST_ENCODING_NONE, 0, 0 },
	{ "s", LTT_UST_TYPE_STRING, 1, 0, LTT_UST_ENCODING_NONE, 0, 0 },
};

/* The same event as a daemon that got its types wrong would see it. */
static const struct ltt_filter_field_desc wrong_fields[] = {
	{ "v", LTT_UST_TYPE_STRING, 1, 0, LTT_UST_ENCODING_NONE, 0, 0 },
	{ "s", LTT_UST_TYPE_INTEGER, 8, 0, LTT_UST_ENCODING_NONE, 0, 0 },
};

struct prog {
	uint8_t *code;
	size_t len;
};

/* @expr compiled for @fields; exits on failure (a bug of the test). */
static struct prog compile(const char *expr, const struct ltt_filter_field_desc *fields)
{
	struct ltt_filter_node *root = NULL;
	struct ltt_filter_error err = { 0, "" };
	struct prog p = { NULL, 0 };

	if (ltt_filter_parse(expr, &root, &err) ||
	    ltt_filter_compile(root, fields, 2, &p.code, &p.len, &err)) {
		tap_diag("cannot compile %s: %s", expr, err.msg);
		exit(1);
	}
	ltt_filter_free(root);
	return p;
}

/* EVENT_FILTER of @nr programs; the ACK status. */
static int send_filter(struct fake *f, uint64_t key, const char *event, const struct prog *p,
		       uint32_t nr)
{
	struct ltt_app_event_filter m = { .channel_key = key, .name = event, .nr_programs = nr };
	struct ltt_wbuf w;
	uint32_t i;
	int ret;

	for (i = 0; i < nr; i++) {
		m.programs[i].code = p[i].code;
		m.programs[i].len = (uint32_t)p[i].len;
	}
	ltt_wbuf_init(&w);
	ltt_app_put_event_filter(&w, &m);
	ret = fake_command(f, LTT_APP_MSG_EVENT_FILTER, &w, NULL, 0);
	ltt_wbuf_fini(&w);
	return ret;
}

/* A raw EVENT_FILTER payload built by hand; the ACK status. */
static int send_raw(struct fake *f, const struct ltt_wbuf *w)
{
	return fake_command(f, LTT_APP_MSG_EVENT_FILTER, (struct ltt_wbuf *)w, NULL, 0);
}

/* Start "count N" (or @args) and register it with one channel. */
static pid_t start(struct fake *f, const char *const *args)
{
	pid_t pid;

	fake_init(f, true);
	pid = fake_spawn(f, NULL, args, NULL);
	if (!fake_register(f) || fake_channel_add(f, CHAN_KEY)) {
		tap_diag("registration failed");
		fake_reap(pid, FAKE_WAIT_MS);
		exit(1);
	}
	return pid;
}

/* REGISTER_DONE, wait for the program, count what it recorded. */
static unsigned int finish(struct fake *f, pid_t pid, int *values, unsigned int max,
			   int *status)
{
	uint32_t ids[4096];
	unsigned int n;

	fake_done(f);
	*status = fake_reap(pid, 3 * FAKE_WAIT_MS);
	n = fake_read_events(f, ids, values, max < 4096 ? max : 4096);
	return n;
}

/* @expr with @PID, @UID and @PID1 (the pid + 1) replaced by their values. */
static void expand(char *out, size_t size, const char *expr, uint32_t pid)
{
	static const char *const keys[] = { "@PID1", "@PID", "@UID" };
	size_t o = 0, k;

	while (*expr && o + 16 < size) {
		for (k = 0; k < 3; k++)
			if (!strncmp(expr, keys[k], strlen(keys[k])))
				break;
		if (k == 3) {
			out[o++] = *expr++;
			continue;
		}
		o += (size_t)snprintf(out + o, size - o, "%ld",
				      k == 0 ? (long)pid + 1 : k == 1 ? (long)pid : (long)getuid());
		expr += strlen(keys[k]);
	}
	out[o] = '\0';
}

/*
 * The programs of @exprs on app:first (expand()ed with the program's pid),
 * then count what "count 100" records.
 */
static unsigned int run_filtered(const char *const *exprs, unsigned int nr, int *values,
				 int *ack)
{
	const char *args[] = { "count", "100", NULL };
	struct prog p[MAX_PROGS];
	char text[512];
	unsigned int i, n;
	struct fake f;
	int status;
	pid_t pid = start(&f, args);

	for (i = 0; i < nr; i++) {
		expand(text, sizeof(text), exprs[i], f.pid);
		p[i] = compile(text, first_fields);
	}
	*ack = send_filter(&f, CHAN_KEY, EVENT, p, nr);
	if (fake_event_enable(&f, CHAN_KEY, EVENT, 0))
		tap_diag("EVENT_ENABLE refused");
	n = finish(&f, pid, values, N_EVENTS, &status);
	if (status)
		tap_diag("the program exited with %d", status);
	for (i = 0; i < nr; i++)
		free(p[i].code);
	fake_fini(&f);
	return n;
}

/* ---- hostile programs ---- */

static size_t mk(uint8_t *out, const uint8_t *code, size_t n, uint8_t ms)
{
	memcpy(out, LTT_FILTER_MAGIC, 4);
	out[4] = LTT_FILTER_VERSION;
	out[5] = ms;
	out[6] = out[7] = 0;
	out[8] = (uint8_t)n;
	out[9] = (uint8_t)(n >> 8);
	out[10] = out[11] = 0;
	memcpy(out + LTT_FILTER_HEADER_LEN, code, n);
	return LTT_FILTER_HEADER_LEN + n;
}

#define S64(v) LTT_FOP_PUSH_S64, (v), 0, 0, 0, 0, 0, 0, 0
#define V_FIELD LTT_FOP_LOAD_FIELD, 0, 0, LTT_UST_TYPE_INTEGER, 4, LTT_FILTER_F_SIGNED

static const struct {
	const char *what;
	uint8_t code[32];
	uint8_t n, ms;
} hostile[] = {
	{ "no RETURN", { S64(1) }, 9, 1 },
	{ "stack beyond max_stack", { S64(1), S64(2), LTT_FOP_EQ, LTT_FOP_RETURN }, 20, 1 },
	{ "stack underflow", { LTT_FOP_EQ, S64(1), LTT_FOP_RETURN }, 11, 2 },
	{ "max_stack beyond the limit", { S64(1), LTT_FOP_RETURN }, 10, 200 },
	{ "unknown opcode", { S64(1), 0x7f, LTT_FOP_RETURN }, 11, 1 },
	{ "truncated operand", { LTT_FOP_PUSH_S64, 1, 0, 0 }, 4, 1 },
	{ "jump beyond the end", { S64(1), LTT_FOP_JUMP_FALSE, 0xff, 0x7f, S64(1), LTT_FOP_TO_BOOL,
	  LTT_FOP_RETURN }, 23, 1 },
	{ "jump inside an instruction", { S64(1), LTT_FOP_JUMP_FALSE, 1, 0, S64(1),
	  LTT_FOP_TO_BOOL, LTT_FOP_RETURN }, 23, 1 },
	{ "field index beyond the event", { LTT_FOP_LOAD_FIELD, 2, 0, LTT_UST_TYPE_INTEGER, 4,
	  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1 },
	{ "field index 65535", { LTT_FOP_LOAD_FIELD, 0xff, 0xff, LTT_UST_TYPE_INTEGER, 4,
	  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1 },
	{ "integer field read as 8 bytes", { LTT_FOP_LOAD_FIELD, 0, 0, LTT_UST_TYPE_INTEGER, 8,
	  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1 },
	{ "string field read as an integer", { LTT_FOP_LOAD_FIELD, 1, 0, LTT_UST_TYPE_INTEGER, 4,
	  LTT_FILTER_F_SIGNED, LTT_FOP_RETURN }, 7, 1 },
	{ "element of a string", { LTT_FOP_LOAD_ELEM, 1, 0, LTT_UST_TYPE_STRING, 1, 0, 0, 0, 0,
	  0, LTT_FOP_RETURN }, 11, 1 },
	{ "string literal beyond the code", { LTT_FOP_PUSH_STR, 0xff, 0x0f, 'a', LTT_FOP_RETURN },
	  5, 1 },
	{ "context id beyond the table", { LTT_FOP_LOAD_CTX, 200, LTT_FOP_RETURN }, 3, 1 },
	{ "returns a string", { LTT_FOP_LOAD_FIELD, 1, 0, LTT_UST_TYPE_STRING, 1, 0,
	  LTT_FOP_RETURN }, 7, 1 },
};

/* Every hostile program refused, alone and beside a good one. */
static void send_hostile(struct fake *f)
{
	struct prog good = compile("v > 10", first_fields), p[2];
	uint8_t buf[64];
	size_t i;

	for (i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		p[0].code = buf;
		p[0].len = mk(buf, hostile[i].code, hostile[i].n, hostile[i].ms);
		tap_is_int(send_filter(f, CHAN_KEY, EVENT, p, 1), -EINVAL, "hostile: %s: EINVAL",
			   hostile[i].what);
	}
	p[0] = good;
	p[1].code = buf;
	p[1].len = mk(buf, hostile[0].code, hostile[0].n, hostile[0].ms);
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p, 2), -EINVAL,
		   "a good program beside a hostile one: the set is refused");
	p[1] = good;
	memcpy(buf, good.code, good.len);
	buf[0] = 'X';
	p[1].code = buf;
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p + 1, 1), -EINVAL, "hostile: bad magic");
	buf[0] = 'L';
	buf[4] = LTT_FILTER_VERSION + 1;
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p + 1, 1), -EINVAL, "hostile: another version");
	buf[4] = LTT_FILTER_VERSION;
	p[1].len = good.len - 1;
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p + 1, 1), -EINVAL,
		   "hostile: shorter than its code_len");
	p[1].len = 5;
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p + 1, 1), -EINVAL, "hostile: truncated header");
	free(good.code);
}

/* Programs that are valid, but for an event whose fields have other types. */
static void send_wrong_types(struct fake *f)
{
	struct prog p[2] = { compile("v == \"x*\"", wrong_fields), compile("s > 3", wrong_fields) };

	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p, 1), -EINVAL,
		   "a program for a string field v refused (v is an int)");
	tap_is_int(send_filter(f, CHAN_KEY, EVENT, p + 1, 1), -EINVAL,
		   "a program for an integer field s refused (s is a string)");
	free(p[0].code);
	free(p[1].code);
}

/* Malformed EVENT_FILTER messages: EPROTO, and unknown names: ENOENT. */
static void send_malformed(struct fake *f)
{
	struct prog good = compile("v > 10", first_fields);
	struct ltt_wbuf w;
	uint32_t i;

	ltt_wbuf_init(&w);
	ltt_wbuf_put_u64(&w, CHAN_KEY);
	ltt_wbuf_put_str(&w, EVENT);
	ltt_wbuf_put_u32(&w, LTT_APP_FILTER_MAX_PROGRAMS + 1);
	for (i = 0; i <= LTT_APP_FILTER_MAX_PROGRAMS; i++) {
		ltt_wbuf_put_u32(&w, (uint32_t)good.len);
		ltt_wbuf_put_bytes(&w, good.code, good.len);
	}
	tap_is_int(send_raw(f, &w), -EPROTO, "65 programs: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u64(&w, CHAN_KEY);
	ltt_wbuf_put_str(&w, EVENT);
	ltt_wbuf_put_u32(&w, 1);
	ltt_wbuf_put_u32(&w, 0);
	tap_is_int(send_raw(f, &w), -EPROTO, "an empty program: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u64(&w, CHAN_KEY);
	ltt_wbuf_put_str(&w, EVENT);
	ltt_wbuf_put_u32(&w, 1);
	ltt_wbuf_put_u32(&w, 0xffffffffu);
	ltt_wbuf_put_bytes(&w, good.code, good.len);
	tap_is_int(send_raw(f, &w), -EPROTO, "a length of 4 GiB: EPROTO");
	ltt_wbuf_reset(&w);
	ltt_wbuf_put_u64(&w, CHAN_KEY);
	ltt_wbuf_put_str(&w, EVENT);
	ltt_wbuf_put_u32(&w, 2);
	ltt_wbuf_put_u32(&w, (uint32_t)good.len);
	ltt_wbuf_put_bytes(&w, good.code, good.len);
	tap_is_int(send_raw(f, &w), -EPROTO, "a program missing: EPROTO");
	ltt_wbuf_fini(&w);
	tap_is_int(send_filter(f, CHAN_KEY, "app:nosuch", &good, 1), -ENOENT,
		   "an unknown event: ENOENT");
	tap_is_int(send_filter(f, CHAN_KEY + 1, EVENT, &good, 1), -ENOENT,
		   "an unknown channel: ENOENT");
	free(good.code);
}

/*
 * Hostile, wrong and malformed programs over one connection: refused, the
 * event stays disabled, the program runs on and records nothing; a good
 * program afterwards is taken and filters exactly.
 */
static void test_refusals(void)
{
	const char *args[] = { "count", "100", NULL };
	int values[N_EVENTS], status;
	struct prog good;
	unsigned int n, i, ok = 0;
	struct fake f;
	pid_t pid = start(&f, args);

	tap_is_int(fake_event_enable(&f, CHAN_KEY, EVENT, 0), 0, "the event is enabled");
	send_hostile(&f);
	send_wrong_types(&f);
	send_malformed(&f);
	tap_is_int(fake_event_enable(&f, CHAN_KEY, EVENT, 0), -EINVAL,
		   "after a refused filter the event stays disabled: EVENT_ENABLE refused");
	n = finish(&f, pid, values, N_EVENTS, &status);
	tap_is_int(status, 0, "the program survived every refusal and exited normally");
	tap_is_int(n, 0, "and recorded nothing (the refused event stayed disabled)");
	fake_fini(&f);

	/* the same refusals, then a good program: taken */
	pid = start(&f, args);
	send_hostile(&f);
	good = compile("v > 10", first_fields);
	tap_is_int(send_filter(&f, CHAN_KEY, EVENT, &good, 1), 0, "then a good program: ACK 0");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, EVENT, 0), 0, "and the event can be enabled");
	n = finish(&f, pid, values, N_EVENTS, &status);
	for (i = 0; i < n; i++)
		ok += values[i] > 10;
	tap_ok(status == 0 && n == 89 && ok == n, "v > 10: 89 of 100 events, each > 10 (%u)", n);
	free(good.code);
	fake_fini(&f);
}

/* Filtered recording: exact counts. */
static void test_counts(void)
{
	static const struct {
		const char *what;
		const char *exprs[MAX_PROGS];
		unsigned int nr, expected;
	} c[] = {
		{ "integer comparison v > 10", { "v > 10" }, 1, 89 },
		{ "string glob s == \"ev-1*\"", { "s == \"ev-1*\"" }, 1, 11 },
		{ "string equality and negated glob", { "s == \"ev-42\" || (v < 5 && s != \"*3\")" },
		  1, 5 },
		{ "two programs, any accepts: v < 3, v >= 97", { "v < 3", "v >= 97" }, 2, 6 },
		{ "bitwise and: (v & 7) == 0", { "(v & 7) == 0" }, 1, 13 },
		{ "context fields of the recording thread",
		  { "$ctx.vpid == @PID && $ctx.vtid == @PID && $ctx.procname == \"test_trace*\" && "
		    "$ctx.vuid == @UID && $ctx.cpu_id >= 0 && $ctx.pthread_id != 0 && "
		    "$ctx.pid > 0 && $ctx.tid > 0 && $ctx.vppid > 0" }, 1, 100 },
		{ "context fields that do not match", { "$ctx.vpid == @PID1 || v == 7",
		  "$ctx.procname == \"other\"" }, 2, 1 },
		{ "no program: unconditional", { NULL }, 0, 100 },
	};
	int values[N_EVENTS], ack;
	unsigned int i, n;

	for (i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		n = run_filtered(c[i].exprs, c[i].nr, values, &ack);
		tap_ok(ack == 0 && n == c[i].expected, "%s: %u of 100 recorded (expected %u, ack %d)",
		       c[i].what, n, c[i].expected, ack);
	}
}

/* A filter set, then removed (0 programs): every event is recorded again. */
static void test_remove(void)
{
	const char *args[] = { "count", "100", NULL };
	struct prog p = compile("v > 10", first_fields);
	int values[N_EVENTS], status;
	struct fake f;
	unsigned int n;
	pid_t pid = start(&f, args);

	tap_is_int(send_filter(&f, CHAN_KEY, EVENT, &p, 1), 0, "a filter set");
	tap_is_int(fake_event_enable(&f, CHAN_KEY, EVENT, 0), 0, "the event enabled");
	tap_is_int(send_filter(&f, CHAN_KEY, EVENT, &p, 0), 0, "the filter removed (0 programs)");
	n = finish(&f, pid, values, N_EVENTS, &status);
	tap_ok(status == 0 && n == 100, "every event recorded (%u)", n);
	free(p.code);
	fake_fini(&f);
}

static struct ltt_wbuf *disable(struct ltt_wbuf *w)
{
	struct ltt_app_event_msg m = { .channel_key = CHAN_KEY, .name = EVENT };

	ltt_wbuf_init(w);
	ltt_app_put_event_disable(w, &m);
	return w;
}

/*
 * The set swapped while 4 threads record: the old sets are freed after a
 * grace period only (the sanitizer builds would see a use after free), and
 * every event recorded passed one of the two sets: v even.
 */
static void test_swap(void)
{
	const char *args[] = { "flood", "4", NULL };
	struct prog p[2] = { compile("(v & 1) == 0", first_fields),
			     compile("(v & 3) == 0", first_fields) };
	static int values[4096];
	static uint32_t ids[4096];
	unsigned int i, n, odd = 0, acked = 0;
	struct ltt_wbuf w;
	int status;
	struct fake f;
	pid_t pid = start(&f, args);

	send_filter(&f, CHAN_KEY, EVENT, &p[0], 1);
	fake_event_enable(&f, CHAN_KEY, EVENT, 0);
	fake_done(&f);
	for (i = 0; i < 200; i++)
		acked += send_filter(&f, CHAN_KEY, EVENT, &p[i & 1], 1) == 0;
	/*
	 * Some events recorded before the disable: on a loaded machine the
	 * swaps can all be done before the threads ran (bounded).
	 */
	tap_ok(fake_wait_written(&f, f.nr_streams * LTT_RB_PACKET_HEADER_SIZE + 16 * 16,
				 FAKE_WAIT_MS), "the threads record while the set is swapped");
	/* the threads stop when the event is disabled */
	tap_is_int(fake_command(&f, LTT_APP_MSG_EVENT_DISABLE, disable(&w), NULL, 0), 0,
		   "the event disabled");
	ltt_wbuf_fini(&w);
	status = fake_reap(pid, 6 * FAKE_WAIT_MS);
	n = fake_read_events(&f, ids, values, 4096);
	for (i = 0; i < n; i++)
		odd += values[i] & 1;
	tap_is_int((int)acked, 200, "200 swaps of the set while 4 threads record, each acked");
	tap_is_int(status, 0, "the program ran to its end");
	tap_ok(n > 0 && odd == 0, "%u events recorded, every one accepted by a set (%u odd)", n,
	       odd);
	free(p[0].code);
	free(p[1].code);
	fake_fini(&f);
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	fake_program_path("test_tracepoint_app", fake_app_path, sizeof(fake_app_path));
	test_refusals();
	test_counts();
	test_remove();
	test_swap();
	return tap_done();
}
