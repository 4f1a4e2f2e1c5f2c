// SPDX-License-Identifier: LGPL-2.1-only
/*
 * test_tracepoint_plugin.c - a shared object with tracepoints of its own,
 * which the tracepoint tests dlopen() and dlclose().  Its undefined
 * ltt_ust_* symbols resolve to whatever copy of libltt-ust the process
 * holds.
 */
#include <ltt/tracepoint.h>

LTT_TRACEPOINT_EVENT_LOGLEVEL(plugin, hello, LTT_LOGLEVEL_INFO,
	LTT_TP_ARGS(int value, const char *text),
	LTT_TP_FIELDS(
		ltt_field_integer(int, value, value)
		ltt_field_string(text, text)))

/* The same event as the program's, declared again here: one event. */
LTT_TRACEPOINT_EVENT(shared, both,
	LTT_TP_ARGS(int value),
	LTT_TP_FIELDS(
		ltt_field_integer(int, value, value)))

/*
 * An event the tests' programs declare too, with another layout:
 * test_tracepoint_ser's has one field (int v), test_tracepoint_app's these
 * two at the default level.  Each is an event of its own.
 */
LTT_TRACEPOINT_EVENT_LOGLEVEL(shared, other, LTT_LOGLEVEL_DEBUG,
	LTT_TP_ARGS(int v, const char *s),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)
		ltt_field_string(s, s)))

/*
 * Two of the library's own events declared again (the library describes
 * its own only when a daemon first needs them: src/ust/registry.c): the
 * same description joins the library's event, another field makes
 * another layout of the name.
 */
LTT_TRACEPOINT_EVENT(lttng_ust_statedump, start,
	LTT_TP_ARGS(void),
	LTT_TP_FIELDS())

LTT_TRACEPOINT_EVENT(lttng_ust_statedump, end,
	LTT_TP_ARGS(int v),
	LTT_TP_FIELDS(
		ltt_field_integer(int, v, v)))

void plugin_fire(int value);
void plugin_fire_shared(int value);
void plugin_fire_other(int value);
int plugin_enabled(void);

void plugin_fire(int value)
{
	ltt_tracepoint(plugin, hello, value, "plugin");
}

void plugin_fire_shared(int value)
{
	ltt_tracepoint(shared, both, value);
}

void plugin_fire_other(int value)
{
	ltt_tracepoint(shared, other, value, "plugin");
}

int plugin_enabled(void)
{
	return ltt_tracepoint_enabled(plugin, hello);
}
