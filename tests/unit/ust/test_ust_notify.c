// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_ust_notify.c - notifiers (triggers' event-rule-matches condition)
 * in libltt-ust, in-process (src/ust/ust-internal.h plays the daemon),
 * checked on what arrives on a real AF_UNIX SOCK_SEQPACKET socket pair,
 * one record a message, decoded with ltt_app_get_notify():
 *
 *   - NOTIFIER_ADD's checks: a key without LTT_APP_NOTIFIER_KEY_BIT, a
 *     capture the parser refuses, an fd that is not a connected AF_UNIX
 *     SOCK_SEQPACKET socket (a pipe, /dev/null, a stream or datagram
 *     pair, an unconnected socket), a key taken; O_NONBLOCK and
 *     FD_CLOEXEC set when missing; no channel may take a notifier's key;
 *   - each capture form and type: signed (sign-extended), unsigned, float
 *     and double, string, text array, enum, array and sequence elements,
 *     an index out of range, a missing field, an index on a scalar;
 *     $ctx.vpid and $ctx.procname; NULL arguments; no capture at all;
 *   - whole arrays and sequences: an ARRAY of their elements; one too
 *     large for the message UNAVAILABLE whole; an enum's value marked so;
 *   - the bytes of every capture form but the context's, and of strings
 *     cut, pinned before the encoder's head went on a table;
 *   - strings cut to LTT_CAPTURE_STR_MAX - 1 and to the 4096 bytes of a
 *     message, on a character boundary;
 *   - a filter that rejects sends nothing; an event both recorded in a
 *     channel and notified, in either order of the two: the channel still
 *     gets exactly its events, the notifier its own;
 *   - a full socket (the library's send buffer cut to the kernel's least):
 *     the next message carries exactly the number of sends that failed,
 *     also with 4 threads sending at once;
 *   - from a signal handler; a child after fork() notifies nothing;
 *   - removal: the fd closed (EOF on the reader's end), nothing sent
 *     after, the descriptor's state back; added and removed 100 times
 *     while 4 threads emit, a thread reading each socket until EOF;
 *   - the final count: drops after the last message sent are told on
 *     removal by a count-only message (empty event name, no capture), the
 *     last one, so that received + dropped = emitted exactly, also with 4
 *     threads; with nobody reading until then, the count gets room made
 *     for it past the socket's limit; a child's exit() tells its
 *     notifier's last count the same way;
 *   - the reader's end closed (the daemon crashed or dropped the
 *     program), SIGPIPE at its default action: events cost no wait and no
 *     signal, each is counted dropped, and removal does not wait.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <ltt/tracepoint.h>

#include "common/filter/filter-compile.h"
#include "common/proto/app-proto.h"
#include "common/proto/trigger-proto.h"
#include "common/trace/ringbuf.h"
#include "ust/ust-internal.h"
#include "tests/unit/notify-socket.h"
#include "tests/unit/tap.h"
#include "tests/unit/ust-filter.h"

LTT_TRACEPOINT_ENUM(ntf, color,
	LTT_TP_ENUM_VALUES(
		ltt_enum_value("RED", 0)
		ltt_enum_range("WARM", 1, 5)
		ltt_enum_value("NEG", -3)))

/* The enum first: finding the others walks over its entries. */
LTT_TRACEPOINT_EVENT(ntf, all,
	LTT_TP_ARGS(int s, uint64_t u, double d, float f, const char *str, const int *arr,
		    const uint16_t *seq, unsigned int nseq, const char *text),
	LTT_TP_FIELDS(
		ltt_field_enum(ntf, color, int16_t, c, s)
		ltt_field_integer(int, s, s)
		ltt_field_integer(uint64_t, u, u)
		ltt_field_integer(int8_t, small, s)
		ltt_field_float(double, d, d)
		ltt_field_float(float, f, f)
		ltt_field_string(str, str)
		ltt_field_array(int, arr, arr, 4)
		ltt_field_sequence(uint16_t, seq, seq, nseq)
		ltt_field_array_text(char, text, text, 8)))

LTT_TRACEPOINT_EVENT(ntf, count,
	LTT_TP_ARGS(int v),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)))

#define NKEY (LTT_APP_NOTIFIER_KEY_BIT | 0x1234)
#define NKEY2 (LTT_APP_NOTIFIER_KEY_BIT | 0x77)
#define CHAN_KEY 5
#define SUBBUF 4096
#define NUM_SUBBUF 4
#define HDR 84		/* packet header */
#define EVENT_BYTES 8	/* ntf:count: a compact header and an int */
#define BUF_MAX (1 << 20)

static void *mem;
static size_t mem_len;
static uint8_t rbuf[BUF_MAX];

/* ntf:count's events in the channel since the last call (reading consumes them). */
static unsigned int events_recorded(void)
{
	return (unsigned int)(ust_filter_recorded(mem, mem_len, HDR) / EVENT_BYTES);
}

/*
 * Decode the records waiting on @fd into @out (at most @max), each one
 * message; returns how many, -1 when a record is not exactly one well
 * formed message.  Their strings point into rbuf.
 */
static int read_msgs(int fd, struct ltt_app_notify *out, int max)
{
	size_t off = 0;
	ssize_t len;
	int n = 0;

	while (sizeof(rbuf) - off >= LTT_APP_NOTIFY_MAX) {
		struct ltt_app_notify m;

		len = recv_record(fd, rbuf + off, sizeof(rbuf) - off);
		if (len == 0 || len == -EAGAIN)
			break;
		if (len < 0 || !one_msg(rbuf + off, (size_t)len, &m))
			return -1;
		if (n < max)
			out[n] = m;
		n++;
		off += (size_t)len;
	}
	return n;
}

static int add_notifier(uint64_t key, int fd, uint32_t nr, const char *const *caps)
{
	return ltt_ust_test_add_notifier(key, fd, nr, caps);
}

/* One filter program on @event for @key, or none (@expr NULL). */
static int set_filter(uint64_t key, const char *event, const char *expr)
{
	return ust_filter_set(key, event, expr, &ust_filter_int_v);
}

/* The length of the first message read (its second u32, little-endian). */
static uint32_t msg_len(void)
{
	return (uint32_t)rbuf[4] | (uint32_t)rbuf[5] << 8 | (uint32_t)rbuf[6] << 16 |
	       (uint32_t)rbuf[7] << 24;
}

static uint64_t dbl_bits(double d)
{
	uint64_t b;

	memcpy(&b, &d, 8);
	return b;
}

static bool cap_is(const struct ltt_capture_desc *c, uint8_t type, uint64_t bits)
{
	return c->type == type && c->bits == bits;
}

/* @fd (taken) offered as a notifier's: EINVAL, and closed. */
static void refused(int fd, const char *what)
{
	static const char *const good[] = { "v" };

	tap_is_int(add_notifier(NKEY, fd, 1, good), -EINVAL, "%s: EINVAL", what);
	tap_ok(fcntl(fd, F_GETFD) < 0 && errno == EBADF, "and closed");
}

static void test_add_checks(void)
{
	const char *bad[] = { "1abc" };
	const char *good[] = { "v" };
	int p[2], q[2];

	make_pair(p);
	tap_is_int(add_notifier(0x1234, p[1], 0, NULL), -EINVAL,
		   "a key without LTT_APP_NOTIFIER_KEY_BIT: EINVAL");
	tap_ok(at_eof(p[0]), "and its fd closed: EOF");
	close(p[0]);

	make_pair(p);
	tap_is_int(add_notifier(NKEY, p[1], 1, bad), -EINVAL,
		   "a capture ltt_capture_parse() refuses: EINVAL");
	close(p[0]);
	if (pipe(q))
		exit(1);
	refused(q[1], "a pipe's write end");
	close(q[0]);
	refused(open("/dev/null", O_WRONLY), "not a socket (/dev/null)");
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, q))
		exit(1);
	refused(q[1], "an AF_UNIX SOCK_STREAM pair's end");
	close(q[0]);
	if (socketpair(AF_UNIX, SOCK_DGRAM, 0, q))
		exit(1);
	refused(q[1], "an AF_UNIX SOCK_DGRAM pair's end");
	close(q[0]);
	refused(socket(AF_UNIX, SOCK_SEQPACKET, 0), "an unconnected SOCK_SEQPACKET socket");

	make_pair(p);
	tap_is_int(add_notifier(NKEY, p[1], 1, good), 0, "a SOCK_SEQPACKET pair's end: added");
	tap_ok(fcntl(p[1], F_GETFL) & O_NONBLOCK, "made non-blocking");
	tap_ok(fcntl(p[1], F_GETFD) & FD_CLOEXEC, "and close-on-exec");
	make_pair(q);
	tap_is_int(add_notifier(NKEY, q[1], 0, NULL), -EEXIST, "the same key again: EEXIST");
	close(q[0]);
	tap_is_int(ltt_ust_test_add_channel(NKEY, 1, &mem, &mem_len), -EINVAL,
		   "a channel can't take a notifier's key");
	tap_is_int(ltt_ust_test_enable_event(NKEY2, "ntf:count", 0), -ENOENT,
		   "EVENT_ENABLE for an unknown notifier: ENOENT");
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), 0, "removed");
	tap_ok(at_eof(p[0]), "its fd closed: EOF");
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), -ENOENT, "removed again: ENOENT");
	close(p[0]);
}

static void test_captures(void)
{
	static const char *const caps[] = {
		"s", "u", "small", "d", "f", "str", "arr[2]", "arr[4]", "seq[1]", "seq[3]",
		"nope", "s[0]", "text", "c", "$ctx.vpid", "$ctx.procname",
	};
	const int arr[4] = { 10, -20, 30, -40 };
	const uint16_t seq[3] = { 1, 65535, 3 };
	const char text[8] = "hi";
	char procname[17] = "";
	struct ltt_app_notify m[4];
	const struct ltt_capture_desc *c = m[0].captures;
	int p[2], n;

	make_pair(p);
	prctl(PR_GET_NAME, procname, 0, 0, 0);
	tap_is_int(add_notifier(NKEY, p[1], 16, caps), 0, "a notifier with 16 captures");
	tap_is_int(ltt_ust_test_enable_event(NKEY, "ntf:all", 0), 0, "ntf:all enabled in it");
	tap_is_int(LTT_TP_DESC(ntf, all).state, 1 | LTT_UST_STATE_CALL,
		   "its state asks for the call (the arguments to capture)");
	ltt_tracepoint(ntf, all, -7, UINT64_MAX - 1, 2.5, 0.25f, "hello", arr, seq, 3, text);
	n = read_msgs(p[0], m, 4);
	tap_is_int(n, 1, "one event: one message");
	if (n != 1)
		goto out;
	tap_is_u64(m[0].key, NKEY, "its key");
	tap_is_u64(m[0].dropped, 0, "none dropped");
	tap_is_str(m[0].event, "ntf:all", "the event's name");
	tap_is_int(m[0].nr_captures, 16, "16 captures");
	tap_ok(cap_is(&c[0], LTT_CAPTURE_SIGNED, (uint64_t)-7), "int s = -7: SIGNED -7");
	tap_ok(cap_is(&c[1], LTT_CAPTURE_UNSIGNED, UINT64_MAX - 1), "uint64_t u: UNSIGNED");
	tap_ok(cap_is(&c[2], LTT_CAPTURE_SIGNED, (uint64_t)-7), "int8_t small: sign-extended");
	tap_ok(cap_is(&c[3], LTT_CAPTURE_FLOAT, dbl_bits(2.5)), "double 2.5: FLOAT");
	tap_ok(cap_is(&c[4], LTT_CAPTURE_FLOAT, dbl_bits(0.25)), "float 0.25: FLOAT, as a double");
	tap_ok(c[5].type == LTT_CAPTURE_STRING && !strcmp(c[5].str, "hello"), "string: \"hello\"");
	tap_ok(cap_is(&c[6], LTT_CAPTURE_SIGNED, 30), "arr[2]: 30");
	tap_is_int(c[7].type, LTT_CAPTURE_UNAVAILABLE, "arr[4]: out of range, UNAVAILABLE");
	tap_ok(cap_is(&c[8], LTT_CAPTURE_UNSIGNED, 65535), "seq[1]: 65535, UNSIGNED");
	tap_is_int(c[9].type, LTT_CAPTURE_UNAVAILABLE, "seq[3] of 3: UNAVAILABLE");
	tap_is_int(c[10].type, LTT_CAPTURE_UNAVAILABLE, "a missing field: UNAVAILABLE");
	tap_is_int(c[11].type, LTT_CAPTURE_UNAVAILABLE, "an index on an integer: UNAVAILABLE");
	tap_ok(c[12].type == LTT_CAPTURE_STRING && !strcmp(c[12].str, "hi"),
	       "a text array: the string up to its NUL");
	tap_ok(cap_is(&c[13], LTT_CAPTURE_SIGNED, (uint64_t)-7), "an enum: its value");
	tap_ok(c[13].is_enum && !c[0].is_enum && !c[2].is_enum,
	       "marked an enum's (LTTng's clients tell them), the integers not");
	tap_ok(cap_is(&c[14], LTT_CAPTURE_SIGNED, (uint64_t)getpid()), "$ctx.vpid: getpid()");
	tap_ok(c[15].type == LTT_CAPTURE_STRING && !strcmp(c[15].str, procname),
	       "$ctx.procname: \"%s\"", procname);

	ltt_tracepoint(ntf, all, 3, 4, -1.0, 1.0f, NULL, NULL, NULL, 0, text);
	n = read_msgs(p[0], m, 4);
	tap_ok(n == 1 && cap_is(&c[0], LTT_CAPTURE_SIGNED, 3) && c[5].type == LTT_CAPTURE_STRING &&
	       cap_is(&c[6], LTT_CAPTURE_SIGNED, 0) && c[8].type == LTT_CAPTURE_UNAVAILABLE,
	       "NULL arguments: the probe's string, array elements 0, an empty sequence");
out:
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), 0, "removed");
	tap_is_int(LTT_TP_DESC(ntf, all).state, 0, "ntf:all off again");
	ltt_tracepoint(ntf, all, 1, 1, 1, 1, "x", arr, seq, 3, text);
	tap_ok(at_eof(p[0]), "nothing sent after, the fd closed: EOF");
	close(p[0]);
}

/* Is @c an ARRAY of the @n elements of @type whose bits are @bits? */
static bool array_is(const struct ltt_capture_desc *c, uint8_t type, const uint64_t *bits,
		     uint32_t n)
{
	struct ltt_capture_desc e;
	struct ltt_rbuf r;

	if (c->type != LTT_CAPTURE_ARRAY || c->nr_elems != n)
		return false;
	ltt_rbuf_init(&r, c->elems, c->elems_len);
	for (uint32_t i = 0; i < n; i++) {
		ltt_capture_get(&r, &e);
		if (!cap_is(&e, type, bits[i]))
			return false;
	}
	return !ltt_rbuf_end(&r);
}

/*
 * Whole arrays and sequences (NAME): an ARRAY of their elements, signed
 * or not, as LTTng captures them; text stays a string; NULL elements are
 * zeros; one with no room whole in the message is UNAVAILABLE, and the
 * capture after it still arrives.
 */
static void test_arrays(void)
{
	static const char *const caps[] = { "arr", "seq", "text", "s" };
	static const uint64_t arr_bits[4] = { 10, (uint64_t)-20, 30, (uint64_t)-40 };
	static const uint64_t seq_bits[3] = { 1, 65535, 3 }, zeros[4] = { 0 };
	static uint16_t big[500];
	const int arr[4] = { 10, -20, 30, -40 };
	const uint16_t seq[3] = { 1, 65535, 3 };
	const char text[8] = "hi";
	struct ltt_app_notify m[2];
	const struct ltt_capture_desc *c = m[0].captures;
	int p[2], n;

	make_pair(p);
	if (add_notifier(NKEY, p[1], 4, caps) || ltt_ust_test_enable_event(NKEY, "ntf:all", 0))
		exit(1);
	ltt_tracepoint(ntf, all, 5, 0, 0, 0, "", arr, seq, 3, text);
	n = read_msgs(p[0], m, 2);
	tap_ok(n == 1 && array_is(&c[0], LTT_CAPTURE_SIGNED, arr_bits, 4),
	       "arr: an ARRAY of its 4 ints, SIGNED 10, -20, 30, -40");
	tap_ok(n == 1 && array_is(&c[1], LTT_CAPTURE_UNSIGNED, seq_bits, 3),
	       "seq: an ARRAY of its 3 uint16_t, UNSIGNED 1, 65535, 3");
	tap_ok(n == 1 && c[2].type == LTT_CAPTURE_STRING && !strcmp(c[2].str, "hi") &&
	       cap_is(&c[3], LTT_CAPTURE_SIGNED, 5), "a text array stays a STRING; s after them");
	ltt_tracepoint(ntf, all, 6, 0, 0, 0, "", NULL, seq, 0, text);
	n = read_msgs(p[0], m, 2);
	tap_ok(n == 1 && array_is(&c[0], LTT_CAPTURE_SIGNED, zeros, 4) &&
	       array_is(&c[1], LTT_CAPTURE_UNSIGNED, NULL, 0),
	       "NULL elements: 4 zeros; an empty sequence: an ARRAY of none");
	ltt_tracepoint(ntf, all, 7, 0, 0, 0, "", arr, big, 500, text);
	n = read_msgs(p[0], m, 2);
	tap_ok(n == 1 && array_is(&c[0], LTT_CAPTURE_SIGNED, arr_bits, 4) &&
	       c[1].type == LTT_CAPTURE_UNAVAILABLE && cap_is(&c[3], LTT_CAPTURE_SIGNED, 7),
	       "a sequence of 500 (4500 bytes, past the message's 4096): UNAVAILABLE whole, "
	       "as LTTng's nil; the captures after it still arrive");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

/* The FNV-1a hash of @len bytes at @p. */
static uint64_t fnv1a(const uint8_t *p, size_t len)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * 0x100000001b3ULL;
	return h;
}

/*
 * Is the first message read the bytes the encoder wrote when it was
 * pinned (@len bytes of hash @hash)?
 */
static bool pinned(size_t len, uint64_t hash, const char *what)
{
	size_t got = msg_len();

	if (tap_ok(got == len && fnv1a(rbuf, got) == hash, "%s: the pinned bytes", what))
		return true;
	tap_diag("%s: %zu bytes, 0x%016" PRIx64 "ULL", what, got,
		 fnv1a(rbuf, got < sizeof(rbuf) ? got : sizeof(rbuf)));
	return false;
}

/* Every capture form but the context's (which vary), byte for byte. */
static void test_bytes(void)
{
	static const char *const caps[] = {
		"s", "u", "small", "d", "f", "str", "arr[2]", "arr[4]", "seq[1]", "seq[3]",
		"nope", "s[0]", "text", "c",
	};
	const int arr[4] = { 10, -20, 30, -40 };
	const uint16_t seq[3] = { 1, 65535, 3 };
	const char text[8] = "hi";
	struct ltt_app_notify m[2];
	int p[2];

	make_pair(p);
	if (add_notifier(NKEY, p[1], 14, caps) || ltt_ust_test_enable_event(NKEY, "ntf:all", 0))
		exit(1);
	ltt_tracepoint(ntf, all, -7, UINT64_MAX - 1, 2.5, 0.25f, "hello", arr, seq, 3, text);
	if (read_msgs(p[0], m, 2) == 1)
		pinned(135, 0xda7dcef496b1407dULL, "14 captures");	/* c: its enum bit */
	else
		tap_ok(false, "14 captures: one message");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

/* Strings cut: to LTT_CAPTURE_STR_MAX - 1, on a character, to fit 4096 bytes. */
static void test_cut(void)
{
	static const char *const caps[] = {
		"str", "str", "str", "str", "str", "str", "str", "str",
		"str", "str", "str", "str", "str", "str", "str", "s",
	};
	static char big[2401];
	struct ltt_app_notify m[2];
	const struct ltt_capture_desc *c = m[0].captures;
	bool strings = true;
	int p[2], n, i;

	for (i = 0; i < 2400; i += 2) {	/* "é" x 1200 */
		big[i] = (char)0xc3;
		big[i + 1] = (char)0xa9;
	}
	make_pair(p);
	if (add_notifier(NKEY, p[1], 16, caps) || ltt_ust_test_enable_event(NKEY, "ntf:all", 0))
		exit(1);
	ltt_tracepoint(ntf, all, 42, 0, 0, 0, big, NULL, NULL, 0, "");
	n = read_msgs(p[0], m, 2);
	tap_is_int(n, 1, "15 strings of 2400 bytes: one message, decoded");
	if (n == 1) {
		for (i = 0; i < 15; i++)
			strings &= c[i].type == LTT_CAPTURE_STRING && c[i].str &&
				   !strncmp(c[i].str, big, strlen(c[i].str));
		tap_ok(strings, "each a STRING, a prefix of the argument");
		tap_is_int((int)strlen(c[0].str), 1022,
			   "the first cut to 1023 bytes, then back to a character: 1022");
		tap_ok(strlen(c[14].str) < strlen(c[0].str) && strlen(c[14].str) % 2 == 0,
		       "the last strings cut to fit the message (%zu bytes)", strlen(c[14].str));
		tap_ok(cap_is(&c[15], LTT_CAPTURE_SIGNED, 42), "the capture after them still fits");
		tap_ok(msg_len() <= LTT_APP_NOTIFY_MAX && msg_len() > LTT_APP_NOTIFY_MAX - 16,
		       "the message fills LTT_APP_NOTIFY_MAX (%u bytes)", msg_len());
		pinned(4095, 0x545bd76325c78310ULL, "15 strings cut");
	}
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

/*
 * ntf:count in the channel (id 1) and in the notifier with "v > 10": 0..19
 * emitted, the channel has 20, the notifier 9, in order.  @first: which
 * one is enabled first (the first target of the event's call view).
 */
static void recorded_and_notified(bool channel_first)
{
	static const char *const caps[] = { "v" };
	struct ltt_app_notify m[32];
	const char *order = channel_first ? "channel first" : "notifier first";
	bool values = true;
	int p[2], n, v;

	make_pair(p);
	if (add_notifier(NKEY, p[1], 1, caps))
		exit(1);
	if (channel_first)
		ltt_ust_test_enable_event(CHAN_KEY, "ntf:count", 1);
	tap_is_int(set_filter(NKEY, "ntf:count", "v > 10"), 0, "%s: a filter on the notifier",
		   order);
	tap_is_int(ltt_ust_test_enable_event(NKEY, "ntf:count", 0), 0, "%s: notifier enabled",
		   order);
	if (!channel_first)
		ltt_ust_test_enable_event(CHAN_KEY, "ntf:count", 1);
	events_recorded();
	for (v = 0; v < 20; v++)
		ltt_tracepoint(ntf, count, v);
	tap_is_int((int)events_recorded(), 20, "%s: the channel has its 20 events", order);
	n = read_msgs(p[0], m, 32);
	tap_is_int(n, 9, "%s: 9 notifications (v > 10)", order);
	for (v = 0; v < n && v < 9; v++)
		values &= cap_is(&m[v].captures[0], LTT_CAPTURE_SIGNED, (uint64_t)(11 + v));
	tap_ok(values, "%s: v = 11..19, in order", order);
	ltt_ust_test_disable_event(CHAN_KEY, "ntf:count");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

static void test_filter(void)
{
	static const char *const caps[] = { "v" };
	struct ltt_app_notify m[4];
	int p[2];

	make_pair(p);
	if (add_notifier(NKEY, p[1], 1, caps))
		exit(1);
	tap_is_int(set_filter(NKEY, "ntf:count", "v > 100"), 0, "a filter v > 100");
	tap_is_int(ltt_ust_test_enable_event(NKEY, "ntf:count", 0), 0,
		   "ntf:count enabled in the notifier alone");
	ltt_tracepoint(ntf, count, 5);
	tap_is_int(read_msgs(p[0], m, 4), 0, "v = 5: the filter rejects, nothing sent");
	ltt_tracepoint(ntf, count, 500);
	tap_ok(read_msgs(p[0], m, 4) == 1 && cap_is(&m[0].captures[0], LTT_CAPTURE_SIGNED, 500),
	       "v = 500: notified");
	tap_is_int(set_filter(NKEY, "ntf:count", NULL), 0, "the filter removed");
	ltt_tracepoint(ntf, count, 5);
	tap_is_int(read_msgs(p[0], m, 4), 1, "v = 5 notified (a lone notifier, no filter)");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
	recorded_and_notified(true);
	recorded_and_notified(false);
}

/* A full socket: the next message says how many were dropped, exactly. */
static void test_dropped(void)
{
	struct ltt_app_notify m[256];
	uint64_t untold = UINT64_MAX;
	int p[2], n, v;

	make_small_pair(p);
	if (add_notifier(NKEY, p[1], 0, NULL) || ltt_ust_test_enable_event(NKEY, "ntf:count", 0))
		exit(1);
	for (v = 0; v < 500; v++)
		ltt_tracepoint(ntf, count, v);
	ltt_ust_test_notifier_dropped(NKEY, &untold);
	n = read_msgs(p[0], m, 256);
	tap_ok(n > 0 && n < 500, "500 events into a small send buffer: %d messages", n);
	tap_ok(n > 0 && m[n - 1].dropped == 0, "none of them says it dropped any");
	tap_is_u64(untold, (uint64_t)(500 - n), "the notifier counts the other %d", 500 - n);
	ltt_tracepoint(ntf, count, 1000);
	m[0].dropped = UINT64_MAX;
	tap_is_int(read_msgs(p[0], m, 256), 1, "the socket read: the next event gets through");
	tap_is_u64(m[0].dropped, (uint64_t)(500 - n),
		   "its dropped: %d, the sends that failed", 500 - n);
	ltt_tracepoint(ntf, count, 1001);
	tap_ok(read_msgs(p[0], m, 256) == 1 && m[0].dropped == 0, "and the one after: 0");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

#define THREADS 4
#define PER_THREAD 5000

static int stop_flag;
static int finished;

static void *emitter(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < PER_THREAD; i++)
		ltt_tracepoint(ntf, count, i);
	__atomic_fetch_add(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * Read the records waiting on @fd, each one message: count them and
 * their dropped.  False on one that is not exactly one well formed message.
 */
static bool consume(int fd, uint64_t *got, uint64_t *dropped)
{
	struct ltt_app_notify m;
	ssize_t len;

	while ((len = recv_record(fd, rbuf, sizeof(rbuf))) > 0) {
		if (!one_msg(rbuf, (size_t)len, &m))
			return false;
		(*got)++;
		*dropped += m.dropped;
	}
	return len == -EAGAIN;
}

/* 4 threads into a small socket read meanwhile: received + dropped = emitted. */
static void test_threads(void)
{
	pthread_t t[THREADS];
	uint64_t got = 0, dropped = 0;
	bool ok = true;
	int p[2], i;

	make_small_pair(p);
	if (add_notifier(NKEY, p[1], 0, NULL) || ltt_ust_test_enable_event(NKEY, "ntf:count", 0))
		exit(1);
	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, emitter, NULL);
	while (ok && __atomic_load_n(&finished, __ATOMIC_ACQUIRE) < THREADS)
		ok = consume(p[0], &got, &dropped);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	ok = ok && consume(p[0], &got, &dropped);
	/* the drops after the last message sent: the next one tells */
	ltt_tracepoint(ntf, count, -1);
	ok = ok && consume(p[0], &got, &dropped);
	tap_ok(ok, "4 threads x %d events, read meanwhile: one whole, well formed message a record",
	       PER_THREAD);
	tap_is_u64(got + dropped, THREADS * PER_THREAD + 1,
		   "received (%llu) + dropped (%llu) = emitted", (unsigned long long)got,
		   (unsigned long long)dropped);
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

static volatile int in_handler;

static void on_signal(int sig)
{
	int saved = errno;

	(void)sig;
	in_handler = 1;
	errno = 1234;
	ltt_tracepoint(ntf, count, 77);
	in_handler = errno == 1234;	/* errno preserved */
	errno = saved;
}

static void test_signal_fork(void)
{
	static const char *const caps[] = { "v", "$ctx.vpid" };
	struct ltt_app_notify m[4];
	struct sigaction sa;
	int p[2], status;
	pid_t pid;

	make_pair(p);
	if (add_notifier(NKEY, p[1], 2, caps) || ltt_ust_test_enable_event(NKEY, "ntf:count", 0))
		exit(1);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGUSR1, &sa, NULL);
	raise(SIGUSR1);
	tap_ok(read_msgs(p[0], m, 4) == 1 && cap_is(&m[0].captures[0], LTT_CAPTURE_SIGNED, 77),
	       "from a signal handler: notified");
	tap_ok(in_handler == 1, "errno left as it was");

	pid = fork();
	if (pid == 0) {
		ltt_tracepoint(ntf, count, 88);
		_exit(LTT_TP_DESC(ntf, count).state == 0 ? 0 : 3);
	}
	waitpid(pid, &status, 0);
	tap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a child after fork(): the event off there");
	ltt_tracepoint(ntf, count, 99);
	tap_ok(read_msgs(p[0], m, 4) == 1 && cap_is(&m[0].captures[0], LTT_CAPTURE_SIGNED, 99) &&
	       cap_is(&m[0].captures[1], LTT_CAPTURE_SIGNED, (uint64_t)getpid()),
	       "the parent's event only: the child notified nothing");
	ltt_ust_test_remove_notifier(NKEY);
	close(p[0]);
}

/* A reader gives up after this long without a record: a socket never closed. */
static void *spinner(void *arg)
{
	int i = 0;

	(void)arg;
	while (!__atomic_load_n(&stop_flag, __ATOMIC_RELAXED))
		ltt_tracepoint(ntf, count, i++);
	return NULL;
}

/* Notifiers come and go under threads that emit flat out. */
static void test_churn(void)
{
	static const char *const caps[] = { "v", "$ctx.vtid" };
	pthread_t t[THREADS];
	int i, p[2], fails = 0, msgs = 0;
	struct reader *r;

	for (i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, spinner, NULL);
	for (i = 0; i < 100; i++) {
		make_pair(p);
		r = reader_start(p[0]);
		fails += add_notifier(NKEY2, p[1], 2, caps) != 0;
		fails += ltt_ust_test_enable_event(NKEY2, "ntf:count", 0) != 0;
		usleep(200);
		fails += ltt_ust_test_remove_notifier(NKEY2) != 0;
		reader_join(r);
		msgs += r->ok;
		fails += !r->eof;	/* closed */
		free(r);
	}
	__atomic_store_n(&stop_flag, 1, __ATOMIC_RELAXED);
	for (i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	tap_is_int(fails, 0, "100 notifiers added and removed under 4 threads: no error, "
		   "each fd closed after its removal");
	tap_is_int(msgs, 100, "and every message of each well formed");
}

static long long elapsed_ms(const struct timespec *since)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (long long)(now.tv_sec - since->tv_sec) * 1000 +
	       (now.tv_nsec - since->tv_nsec) / 1000000;
}

/*
 * A notifier with one capture ("v", so that a count-only message, with
 * none, stands out) on ntf:count, on a small socket (make_small_pair());
 * the reader's end into @p[0].
 */
static void small_socket_notifier(int *p)
{
	static const char *const caps[] = { "v" };

	make_small_pair(p);
	if (add_notifier(NKEY, p[1], 1, caps) || ltt_ust_test_enable_event(NKEY, "ntf:count", 0))
		exit(1);
}

#define FINAL_EVENTS 500

/* Drops after the last message sent: told on removal, the last message. */
static void test_final_count(void)
{
	struct reader *r;
	int p[2], v;

	small_socket_notifier(p);
	for (v = 0; v < FINAL_EVENTS; v++)	/* some fit, the others fail */
		ltt_tracepoint(ntf, count, v);
	r = reader_start(p[0]);
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), 0,
		   "%d events into a full socket, a thread reading: removed", FINAL_EVENTS);
	reader_join(r);
	tap_ok(r->ok && r->eof, "read until EOF, each record one well formed message");
	tap_ok(r->got > 1 && r->dropped > 0, "%llu events' messages, %llu dropped",
	       (unsigned long long)r->got, (unsigned long long)r->dropped);
	tap_is_u64(r->got + r->dropped, FINAL_EVENTS,
		   "received + dropped = emitted, with no event after the drops");
	tap_ok(r->last_count_only && r->count_only == 1,
	       "the last message, and only it, has no event name and no capture");
	free(r);

	/* 4 threads and a reader: no event to tell the last drops, removal does */
	small_socket_notifier(p);
	r = reader_start(p[0]);
	{
		pthread_t t[THREADS];
		int i;

		for (i = 0; i < THREADS; i++)
			pthread_create(&t[i], NULL, emitter, NULL);
		for (i = 0; i < THREADS; i++)
			pthread_join(t[i], NULL);
	}
	ltt_ust_test_remove_notifier(NKEY);
	reader_join(r);
	tap_ok(r->ok && r->eof, "4 threads, then removal: read until EOF, well formed");
	tap_is_u64(r->got + r->dropped, THREADS * PER_THREAD,
		   "received (%llu) + dropped (%llu) = emitted",
		   (unsigned long long)r->got, (unsigned long long)r->dropped);
	tap_ok(r->count_only <= 1 && (!r->count_only || r->last_count_only),
	       "a count-only message, if any, only last");
	free(r);

	/*
	 * Nobody reads (a daemon behind, or paused by LTTng's test point):
	 * room is made for the count past the socket's limit, so removal
	 * sends it all the same, the last message, and the count is whole.
	 */
	small_socket_notifier(p);
	for (v = 0; v < FINAL_EVENTS; v++)
		ltt_tracepoint(ntf, count, v);
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), 0, "a full socket nobody reads: removed");
	r = reader_start(p[0]);
	reader_join(r);
	tap_ok(r->ok && r->eof && r->got > 0 && r->last_count_only && r->count_only == 1,
	       "then read: what fitted (%llu), then the count-only message, last",
	       (unsigned long long)r->got);
	tap_is_u64(r->got + r->dropped, FINAL_EVENTS,
		   "received + dropped = emitted, though nobody read until the end");
	free(r);
}

/*
 * The reader's end closed (the daemon crashed, or dropped the program):
 * with SIGPIPE at its default action, a send that raised it would kill
 * this program.  @fill: the socket full when the end closes (the first
 * send then fails with ECONNRESET, the next ones with EPIPE).
 */
static void peer_gone(bool fill)
{
	const char *how = fill ? "a full socket" : "an empty socket";
	uint64_t before = UINT64_MAX, after = UINT64_MAX;
	struct timespec t0;
	int p[2], v, ms;

	small_socket_notifier(p);
	for (v = 0; fill && v < FINAL_EVENTS; v++)
		ltt_tracepoint(ntf, count, v);
	ltt_ust_test_notifier_dropped(NKEY, &before);
	tap_ok(fill ? before > 0 && before < FINAL_EVENTS : before == 0,
	       "%s: %llu dropped so far", how, (unsigned long long)before);
	close(p[0]);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (v = 0; v < FINAL_EVENTS; v++)
		ltt_tracepoint(ntf, count, v);
	ms = (int)elapsed_ms(&t0);
	tap_ok(ms < 1000, "%s, the reader's end closed: %d events, the program alive, no wait "
	       "(%d ms)", how, FINAL_EVENTS, ms);
	ltt_ust_test_notifier_dropped(NKEY, &after);
	tap_is_u64(after, before + FINAL_EVENTS, "%s: each counted dropped (%llu)", how,
		   (unsigned long long)after);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tap_is_int(ltt_ust_test_remove_notifier(NKEY), 0,
		   "%s: removed, its count unsent, still alive", how);
	ms = (int)elapsed_ms(&t0);
	tap_ok(ms < 200, "at once: nobody to wait for (%d ms)", ms);
}

static void test_peer_gone(void)
{
	struct sigaction sa;

	sigaction(SIGPIPE, NULL, &sa);
	tap_ok(sa.sa_handler == SIG_DFL, "SIGPIPE at its default action");
	peer_gone(false);
	peer_gone(true);
}

/*
 * At exit: a child's own notifier (the parent's are closed in it), its
 * socket filled, then exit(): its exit handler sends the count.  The
 * parent starts reading once the child has emitted (a byte on @done), and
 * reads until EOF, the child's end closing as it dies; the child exits
 * once the reader runs (a byte on @go), so the handler's wait is short.
 */
static void test_exit_count(void)
{
	static const char *const caps[] = { "v" };
	struct reader *r;
	int p[2], done[2], go[2], status, v;
	char c = 0;
	pid_t pid;

	make_small_pair(p);
	if (pipe(done) || pipe(go)) {
		tap_diag("pipe: %s", strerror(errno));
		exit(1);
	}
	fflush(stdout);		/* the child's exit() flushes its copy */
	pid = fork();
	if (pid == 0) {
		close(p[0]);
		close(done[0]);
		close(go[1]);
		if (add_notifier(NKEY, p[1], 1, caps) ||
		    ltt_ust_test_enable_event(NKEY, "ntf:count", 0))
			_exit(3);
		for (v = 0; v < FINAL_EVENTS; v++)
			ltt_tracepoint(ntf, count, v);
		if (write(done[1], &c, 1) != 1 || read(go[0], &c, 1) != 1)
			_exit(4);
		exit(0);	/* the notifier still there: the exit handler flushes */
	}
	close(p[1]);
	close(done[1]);
	close(go[0]);
	v = pid > 0 && read(done[0], &c, 1) == 1;
	r = reader_start(p[0]);
	v = v && write(go[1], &c, 1) == 1;
	close(done[0]);
	close(go[1]);
	reader_join(r);
	waitpid(pid, &status, 0);
	tap_ok(v && WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "a child filled its notifier's socket and called exit()");
	tap_ok(r->ok && r->eof, "its socket read until EOF, every message well formed");
	tap_is_u64(r->got + r->dropped, FINAL_EVENTS,
		   "received (%llu) + dropped (%llu) = emitted: the exit handler told the rest",
		   (unsigned long long)r->got, (unsigned long long)r->dropped);
	tap_ok(r->last_count_only && r->count_only == 1,
	       "in one count-only message, the last");
	free(r);
}

int main(void)
{
	struct ltt_rb_config cfg = { .subbuf_size = SUBBUF, .num_subbuf = NUM_SUBBUF };

	/* its default action, whatever the caller left: a SIGPIPE would kill the test */
	signal(SIGPIPE, SIG_DFL);
	mem_len = ltt_rb_region_size(SUBBUF, NUM_SUBBUF);
	mem = mmap(NULL, mem_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (mem == MAP_FAILED || ltt_rb_init_region(mem, mem_len, &cfg) ||
	    ltt_ust_test_add_channel(CHAN_KEY, 1, &mem, &mem_len))
		return 1;
	test_add_checks();
	test_captures();
	test_bytes();
	test_arrays();
	test_cut();
	test_filter();
	test_dropped();
	test_threads();
	test_signal_fork();
	test_churn();
	test_final_count();
	test_peer_gone();
	test_exit_count();
	ltt_ust_test_remove_channel(CHAN_KEY);
	munmap(mem, mem_len);
	return tap_done();
}
