// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_lttng_words.c - LTTng's words for the model's enums
 * (common/model/lttng-words.c), which lttctl's MI and libltt-ctl's LTTng
 * session format both print: each word as LTTng spells it, and the word a
 * value outside the tables gets.
 */
#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "common/model/lttng-words.h"
#include "tests/unit/tap.h"

static void domains(void)
{
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_KERNEL), "KERNEL", "kernel: KERNEL");
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_USER), "UST", "user space: UST");
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_JUL), "JUL", "JUL: JUL");
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_LOG4J), "LOG4J", "log4j: LOG4J");
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_PYTHON), "PYTHON", "python: PYTHON");
	tap_is_str(ltt_lttng_domain(LTT_DOMAIN_NONE), "UST", "no domain: UST");
	tap_is_str(ltt_lttng_domain((enum ltt_domain)99), "UST", "a domain past the table: UST");
	tap_ok(ltt_lttng_domains[LTT_DOMAIN_NONE] == NULL,
	       "the table has no word for no domain (a reader refuses it)");
}

static void buffers(void)
{
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_USER, LTT_BUFFER_PER_PID), "PER_PID",
		   "per-pid: PER_PID");
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_USER, LTT_BUFFER_PER_UID), "PER_UID",
		   "per-uid: PER_UID");
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_KERNEL, LTT_BUFFER_GLOBAL), "GLOBAL",
		   "global: GLOBAL");
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_KERNEL, LTT_BUFFER_DEFAULT), "GLOBAL",
		   "the kernel's default: GLOBAL");
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_USER, LTT_BUFFER_DEFAULT), "PER_UID",
		   "user space's default: PER_UID");
	tap_is_str(ltt_lttng_buffer_type(LTT_DOMAIN_JUL, LTT_BUFFER_DEFAULT), "PER_UID",
		   "an agent domain's default: PER_UID");
	tap_is_int(ltt_lttng_buffering(LTT_DOMAIN_KERNEL, (enum ltt_buffer_type)9),
		   LTT_BUFFER_GLOBAL, "a buffer type past the table: the domain's default");
}

static void rules(void)
{
	tap_is_str(ltt_lttng_loglevel_type(LTT_LOGLEVEL_ALL), "ALL", "no level: ALL");
	tap_is_str(ltt_lttng_loglevel_type(LTT_LOGLEVEL_RANGE), "RANGE", "a range: RANGE");
	tap_is_str(ltt_lttng_loglevel_type(LTT_LOGLEVEL_SINGLE), "SINGLE", "one level: SINGLE");
	tap_is_str(ltt_lttng_loglevel_type((enum ltt_loglevel_type)7), "ALL",
		   "a level type past the table: ALL");
	tap_is_str(ltt_lttng_event_type(LTT_EVENT_TRACEPOINT), "TRACEPOINT", "TRACEPOINT");
	tap_is_str(ltt_lttng_event_type(LTT_EVENT_SYSCALL), "SYSCALL", "SYSCALL");
	tap_is_str(ltt_lttng_event_type(LTT_EVENT_KPROBE), "PROBE", "--probe: PROBE");
	tap_is_str(ltt_lttng_event_type(LTT_EVENT_FUNCTION), "FUNCTION",
		   "--function (a kretprobe): FUNCTION");
	tap_is_str(ltt_lttng_event_type(LTT_EVENT_UPROBE), "USERSPACE_PROBE", "USERSPACE_PROBE");
	tap_is_str(ltt_lttng_event_type((enum ltt_event_type)42), "TRACEPOINT",
		   "an event type past the table: TRACEPOINT");
}

static void channels(void)
{
	tap_is_str(ltt_lttng_overwrite_modes[0], "DISCARD", "discard mode: DISCARD");
	tap_is_str(ltt_lttng_overwrite_modes[1], "OVERWRITE", "overwrite mode: OVERWRITE");
	tap_is_str(ltt_lttng_output_type(LTT_DOMAIN_KERNEL), "SPLICE", "the kernel's: SPLICE");
	tap_is_str(ltt_lttng_output_type(LTT_DOMAIN_USER), "MMAP", "user space's: MMAP");
	tap_is_str(ltt_lttng_output_type(LTT_DOMAIN_PYTHON), "MMAP", "an agent domain's: MMAP");
}

int main(void)
{
	domains();
	buffers();
	rules();
	channels();
	return tap_done();
}
