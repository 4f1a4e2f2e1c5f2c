/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * probe-loc.h - the location of a probe placed from outside a program
 * (enable-event --userspace-probe, --probe, --function), parsed from the
 * text the user gives, in LTTng's syntax:
 *
 *   --userspace-probe  [elf:]PATH:FUNCTION      a function of an ELF file
 *                      sdt:PATH:PROVIDER:NAME   a SystemTap SDT probe
 *   --probe            SYMBOL[+OFFSET] | 0xADDR a kernel instruction
 *   --function         SYMBOL[+OFFSET] | 0xADDR a kernel function, entry and return
 *
 * PATH is absolute (lttctl makes a relative one absolute before it sends
 * it) and may itself hold ':' (the last one or two separate the names).
 * The client parses to refuse a bad text at once; the session daemon
 * parses what it receives again (untrusted) and resolves it (elf-probe.h).
 */
#ifndef LTT_COMMON_PROBE_LOC_H
#define LTT_COMMON_PROBE_LOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ltt/ltt-ctl.h>

#define LTT_PROBE_SYMBOL_MAX 256	/* a symbol, function, provider or SDT name, NUL included */

enum ltt_probe_kind {
	LTT_PROBE_ELF = 0,	/* path, symbol */
	LTT_PROBE_SDT = 1,	/* path, provider, symbol (the probe's name) */
	LTT_PROBE_KSYM = 2,	/* symbol, offset */
	LTT_PROBE_KADDR = 3,	/* addr */
};

struct ltt_probe_loc {
	enum ltt_probe_kind kind;
	char path[LTT_PATH_MAX];
	char provider[LTT_PROBE_SYMBOL_MAX];
	char symbol[LTT_PROBE_SYMBOL_MAX];
	uint64_t offset;
	uint64_t addr;
};

/**
 * ltt_event_type_is_probe() - is @type one of the probe types (KPROBE,
 * FUNCTION, UPROBE), whose rules carry a location?
 */
static inline bool ltt_event_type_is_probe(int type)
{
	return type == LTT_EVENT_KPROBE || type == LTT_EVENT_FUNCTION || type == LTT_EVENT_UPROBE;
}

/**
 * ltt_probe_loc_parse() - parse @text, the location of a rule of probe
 * @type, into @ret
 * @why: on failure, what is wrong with it (a phrase); @why_size its bytes
 *
 * Any thread.  Returns 0, or -EINVAL (@ret then unspecified).
 */
int ltt_probe_loc_parse(int type, const char *text, struct ltt_probe_loc *ret, char *why,
			size_t why_size);

/**
 * ltt_probe_loc_format() - @loc as the text ltt_probe_loc_parse() reads
 * back into it: SYMBOL or SYMBOL+OFFSET (decimal), 0xADDR (hexadecimal),
 * elf:PATH:FUNCTION (PATH:FUNCTION unless @elf_prefix),
 * sdt:PATH:PROVIDER:NAME; into @buf (@size bytes, always terminated)
 *
 * Saved session files hold a location in parts (LTTng's elements) and
 * load makes it text again with this.  Any thread.  Returns 0, or
 * -ENAMETOOLONG when it does not fit (@buf then holds a cut text).
 */
int ltt_probe_loc_format(const struct ltt_probe_loc *loc, bool elf_prefix, char *buf,
			 size_t size);

/**
 * ltt_probe_event_name() - a probe's event name made of its @location
 * when none is given (LTTng names it by its location): each character an
 * event name does not take ('/', '+') made '_', cut to @size bytes (with
 * the NUL; LTT_NAME_MAX for a rule's); @buf may be @location (a valid
 * name is left as it is)
 */
void ltt_probe_event_name(const char *location, char *buf, size_t size);

#endif /* LTT_COMMON_PROBE_LOC_H */
