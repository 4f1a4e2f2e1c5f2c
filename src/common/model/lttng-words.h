/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * lttng-words.h - LTTng's words for the model's enums, as its session
 * files (session.xsd) and its machine interface (mi-lttng-4.1.xsd) both
 * spell them: one table each (lttng-words.c), which lttctl's MI output
 * (src/ctl/objects.c) and libltt-ctl's LTTng session format (its reader
 * config-lttng.c and its writer config-lttng-write.c) share.  Each table
 * is indexed by the enum; a NULL entry has no word.
 */
#ifndef LTT_COMMON_LTTNG_WORDS_H
#define LTT_COMMON_LTTNG_WORDS_H

#include <stdbool.h>

#include <ltt/ltt-ctl.h>

#define LTT_LTTNG_NR_DOMAINS (LTT_DOMAIN_PYTHON + 1)
#define LTT_LTTNG_NR_BUFFER_TYPES (LTT_BUFFER_GLOBAL + 1)
#define LTT_LTTNG_NR_LOGLEVEL_TYPES (LTT_LOGLEVEL_SINGLE + 1)
#define LTT_LTTNG_NR_EVENT_TYPES (LTT_EVENT_UPROBE + 1)

/* KERNEL, UST, JUL, LOG4J, PYTHON (LTT_DOMAIN_NONE: NULL) */
extern const char *const ltt_lttng_domains[LTT_LTTNG_NR_DOMAINS];
/* PER_UID, PER_PID, GLOBAL (LTT_BUFFER_DEFAULT: NULL) */
extern const char *const ltt_lttng_buffer_types[LTT_LTTNG_NR_BUFFER_TYPES];
/* ALL, RANGE, SINGLE */
extern const char *const ltt_lttng_loglevel_types[LTT_LTTNG_NR_LOGLEVEL_TYPES];
/* TRACEPOINT, SYSCALL, PROBE (--probe), FUNCTION (--function, a kretprobe), USERSPACE_PROBE */
extern const char *const ltt_lttng_event_types[LTT_LTTNG_NR_EVENT_TYPES];
/* DISCARD, OVERWRITE: indexed by the channel's bool overwrite */
extern const char *const ltt_lttng_overwrite_modes[2];
/* SPLICE, MMAP: how LTTng's consumer reads a domain's buffers */
extern const char *const ltt_lttng_output_types[2];

/* The word of @domain: "UST" for one the table does not name. */
const char *ltt_lttng_domain(enum ltt_domain domain);

/*
 * The buffering LTTng shows for @buffers in @domain: a default one is the
 * domain's (GLOBAL for the kernel, else PER_UID).
 */
enum ltt_buffer_type ltt_lttng_buffering(enum ltt_domain domain, enum ltt_buffer_type buffers);

/* The word of @buffers in @domain (ltt_lttng_buffering()). */
const char *ltt_lttng_buffer_type(enum ltt_domain domain, enum ltt_buffer_type buffers);

/* The word of @type: "ALL" for one the table does not name. */
const char *ltt_lttng_loglevel_type(enum ltt_loglevel_type type);

/* The word of @type: "TRACEPOINT" for one the table does not name. */
const char *ltt_lttng_event_type(enum ltt_event_type type);

/* The output type LTTng gives a channel of @domain: the kernel's splice, else mmap. */
const char *ltt_lttng_output_type(enum ltt_domain domain);

#endif /* LTT_COMMON_LTTNG_WORDS_H */
