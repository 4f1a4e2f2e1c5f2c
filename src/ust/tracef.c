// SPDX-License-Identifier: LGPL-2.1-only
/*
 * tracef.c - printf-style events, as lttng-ust records them:
 * ltt_tracef() is lttng_ust_tracef:event {msg}, ltt_tracelog() one event
 * per log level, lttng_ust_tracelog:TRACE_EMERG .. TRACE_DEBUG {line,
 * file, func, msg}.  msg is a text sequence (u32 length, then the bytes,
 * no NUL), which readers show as _msg_length and msg.
 *
 * The message is formatted on the caller's stack (LTT_UST_TRACEF_MAX
 * bytes), only while some session records the event; the call site is
 * the caller's, for the ip context.
 */
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#define LTT_UST_BUILDING_LIBRARY
#include <ltt/tracepoint.h>

#include "ust/ust.h"

#define CHAR_SIGNED ((char)-1 < 0)
#define MSG_FIELD \
	{ "msg", LTT_UST_TYPE_SEQUENCE, 1, CHAR_SIGNED, 10, LTT_UST_ENCODING_UTF8, 0, { 0, 0 }, \
	  0, NULL }
#define STRING_FIELD(n) \
	{ n, LTT_UST_TYPE_STRING, 1, 0, 0, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL }

static const struct ltt_ust_field tracef_fields[] = { MSG_FIELD };

static const struct ltt_ust_field tracelog_fields[] = {
	{ "line", LTT_UST_TYPE_INTEGER, 4, 1, 10, LTT_UST_ENCODING_NONE, 0, { 0, 0 }, 0, NULL },
	STRING_FIELD("file"),
	STRING_FIELD("func"),
	MSG_FIELD,
};

#define NR(a) (uint32_t)(sizeof(a) / sizeof((a)[0]))

struct ltt_ust_tracepoint ltt_ust_tracef_event = {
	LTT_UST_TRACEPOINT_ABI, 14 /* DEBUG */, "lttng_ust_tracef:event", NR(tracef_fields),
	tracef_fields, 0, NULL, NULL, { NULL, NULL, NULL },
};

#define TRACELOG(level, name) \
	[level] = { LTT_UST_TRACEPOINT_ABI, level, "lttng_ust_tracelog:" name, \
		    NR(tracelog_fields), tracelog_fields, 0, NULL, NULL, { NULL, NULL, NULL } }

struct ltt_ust_tracepoint ltt_ust_tracelog_events[LTT_UST_TRACELOG_LEVELS] = {
	TRACELOG(0, "TRACE_EMERG"),
	TRACELOG(1, "TRACE_ALERT"),
	TRACELOG(2, "TRACE_CRIT"),
	TRACELOG(3, "TRACE_ERR"),
	TRACELOG(4, "TRACE_WARNING"),
	TRACELOG(5, "TRACE_NOTICE"),
	TRACELOG(6, "TRACE_INFO"),
	TRACELOG(7, "TRACE_DEBUG_SYSTEM"),
	TRACELOG(8, "TRACE_DEBUG_PROGRAM"),
	TRACELOG(9, "TRACE_DEBUG_PROCESS"),
	TRACELOG(10, "TRACE_DEBUG_MODULE"),
	TRACELOG(11, "TRACE_DEBUG_UNIT"),
	TRACELOG(12, "TRACE_DEBUG_FUNCTION"),
	TRACELOG(13, "TRACE_DEBUG_LINE"),
	TRACELOG(14, "TRACE_DEBUG"),
};

void ust_tracef_tracepoints(struct ltt_ust_tracepoint **out)
{
	unsigned int i;

	out[0] = &ltt_ust_tracef_event;
	for (i = 0; i < LTT_UST_TRACELOG_LEVELS; i++)
		out[1 + i] = &ltt_ust_tracelog_events[i];
}

/* Up to four fields: the payload's bytes, and each field's value for filters. */
struct message {
	char text[LTT_UST_TRACEF_MAX];
	uint32_t len;
	struct ltt_ust_arg args[4];
	uint32_t nr;
	size_t payload_len;
};

/* Format @fmt into @m; false when vsnprintf() fails. */
static bool __attribute__((format(printf, 2, 0))) format(struct message *m, const char *fmt,
							  va_list ap)
{
	int n;

	if (!fmt)
		return false;
	n = vsnprintf(m->text, sizeof(m->text), fmt, ap);
	if (n < 0)
		return false;
	/* cut at the buffer's end or at a %c of 0 */
	m->len = (uint32_t)strlen(m->text);
	return true;
}

static void put_bytes(uint8_t **p, const void *v, size_t len)
{
	memcpy(*p, v, len);
	*p += len;
}

/*
 * The payload of @m's fields: with @tracelog, line then file and func
 * (their bytes, then a NUL: a cut string ends there too); msg's length,
 * then its bytes.
 */
static void write_payload(uint8_t *p, const struct message *m, bool tracelog)
{
	uint32_t i;

	if (tracelog) {
		put_bytes(&p, m->args[0].p, sizeof(int32_t));
		for (i = 1; i <= 2; i++) {
			put_bytes(&p, m->args[i].p, m->args[i].n);
			*p++ = '\0';
		}
	}
	put_bytes(&p, &m->len, sizeof(m->len));
	put_bytes(&p, m->text, m->len);
}

/* Record @m as @tp, through filters when a session wants the call. */
static void record(struct ltt_ust_tracepoint *tp, struct message *m, bool tracelog,
		   uint64_t ip)
{
	struct ltt_ust_call call;
	struct ltt_ust_ctx ctx;
	void *p;

	m->args[m->nr++] = (struct ltt_ust_arg){ m->text, m->len };
	m->payload_len += sizeof(m->len) + m->len;
	/* both live until the last commit: the next sessions' filters read them */
	call = (struct ltt_ust_call){ m->args, m->nr, 0, ip };
	if (tp->state & LTT_UST_STATE_CALL)
		p = ltt_ust_probe_reserve_filter(&ctx, tp, m->payload_len, &call);
	else
		p = ltt_ust_probe_reserve(&ctx, tp, m->payload_len);
	for (; p; p = ltt_ust_probe_commit(&ctx))
		write_payload(p, m, tracelog);
}

void ltt_ust_vtracef_as(struct ltt_ust_tracepoint *tp, uint64_t ip, const char *fmt, va_list ap)
{
	struct message m;

	if (!tp || !format(&m, fmt, ap))
		return;
	m.nr = 0;
	m.payload_len = 0;
	record(tp, &m, false, ip);
}

void ltt_ust_tracef(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ltt_ust_vtracef_as(&ltt_ust_tracef_event, (uint64_t)(uintptr_t)__builtin_return_address(0),
			   fmt, ap);
	va_end(ap);
}

/* A string field of @m: its bytes and length for filters, NULL as "(null)". */
static void add_string(struct message *m, const char *s)
{
	size_t n;

	if (!s)
		s = "(null)";
	n = strnlen(s, PATH_MAX - 1);
	m->args[m->nr++] = (struct ltt_ust_arg){ s, (uint32_t)n };
	m->payload_len += n + 1;
}

void ltt_ust_vtracelog_as(struct ltt_ust_tracepoint *tp, uint64_t ip, const char *file,
			  int line, const char *func, const char *fmt, va_list ap)
{
	struct message m;
	int32_t line32 = line;

	if (!tp || !format(&m, fmt, ap))
		return;
	m.args[0] = (struct ltt_ust_arg){ &line32, 0 };
	m.nr = 1;
	m.payload_len = sizeof(line32);
	add_string(&m, file);
	add_string(&m, func);
	record(tp, &m, true, ip);
}

void ltt_ust_tracelog(int level, const char *file, int line, const char *func,
		      const char *fmt, ...)
{
	va_list ap;

	if (level < 0 || level >= LTT_UST_TRACELOG_LEVELS)
		return;
	va_start(ap, fmt);
	ltt_ust_vtracelog_as(&ltt_ust_tracelog_events[level],
			     (uint64_t)(uintptr_t)__builtin_return_address(0), file, line, func, fmt,
			     ap);
	va_end(ap);
}
