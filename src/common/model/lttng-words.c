// SPDX-License-Identifier: LGPL-2.1-only
/*
 * lttng-words.c - LTTng's words for the model's enums (lttng-words.h).
 */
#include "common/model/lttng-words.h"

const char *const ltt_lttng_domains[LTT_LTTNG_NR_DOMAINS] = {
	[LTT_DOMAIN_KERNEL] = "KERNEL",
	[LTT_DOMAIN_USER] = "UST",
	[LTT_DOMAIN_JUL] = "JUL",
	[LTT_DOMAIN_LOG4J] = "LOG4J",
	[LTT_DOMAIN_PYTHON] = "PYTHON",
};
const char *const ltt_lttng_buffer_types[LTT_LTTNG_NR_BUFFER_TYPES] = {
	[LTT_BUFFER_PER_UID] = "PER_UID",
	[LTT_BUFFER_PER_PID] = "PER_PID",
	[LTT_BUFFER_GLOBAL] = "GLOBAL",
};
const char *const ltt_lttng_loglevel_types[LTT_LTTNG_NR_LOGLEVEL_TYPES] = {
	[LTT_LOGLEVEL_ALL] = "ALL",
	[LTT_LOGLEVEL_RANGE] = "RANGE",
	[LTT_LOGLEVEL_SINGLE] = "SINGLE",
};
const char *const ltt_lttng_event_types[LTT_LTTNG_NR_EVENT_TYPES] = {
	[LTT_EVENT_TRACEPOINT] = "TRACEPOINT",
	[LTT_EVENT_SYSCALL] = "SYSCALL",
	[LTT_EVENT_KPROBE] = "PROBE",
	[LTT_EVENT_FUNCTION] = "FUNCTION",
	[LTT_EVENT_UPROBE] = "USERSPACE_PROBE",
};
const char *const ltt_lttng_overwrite_modes[2] = { "DISCARD", "OVERWRITE" };
const char *const ltt_lttng_output_types[2] = { "SPLICE", "MMAP" };

const char *ltt_lttng_domain(enum ltt_domain domain)
{
	if ((unsigned)domain < LTT_LTTNG_NR_DOMAINS && ltt_lttng_domains[domain])
		return ltt_lttng_domains[domain];
	return ltt_lttng_domains[LTT_DOMAIN_USER];
}

enum ltt_buffer_type ltt_lttng_buffering(enum ltt_domain domain, enum ltt_buffer_type buffers)
{
	if ((unsigned)buffers < LTT_LTTNG_NR_BUFFER_TYPES && ltt_lttng_buffer_types[buffers])
		return buffers;
	return domain == LTT_DOMAIN_KERNEL ? LTT_BUFFER_GLOBAL : LTT_BUFFER_PER_UID;
}

const char *ltt_lttng_buffer_type(enum ltt_domain domain, enum ltt_buffer_type buffers)
{
	return ltt_lttng_buffer_types[ltt_lttng_buffering(domain, buffers)];
}

const char *ltt_lttng_loglevel_type(enum ltt_loglevel_type type)
{
	return ltt_lttng_loglevel_types[(unsigned)type < LTT_LTTNG_NR_LOGLEVEL_TYPES ? type :
					LTT_LOGLEVEL_ALL];
}

const char *ltt_lttng_event_type(enum ltt_event_type type)
{
	return ltt_lttng_event_types[(unsigned)type < LTT_LTTNG_NR_EVENT_TYPES ? type :
				     LTT_EVENT_TRACEPOINT];
}

const char *ltt_lttng_output_type(enum ltt_domain domain)
{
	return ltt_lttng_output_types[domain != LTT_DOMAIN_KERNEL];
}
