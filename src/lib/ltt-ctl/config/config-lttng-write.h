/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-lttng-write.h - saved sessions written in LTTng 2.13's session
 * format (its session.xsd), the .lttng files `lttng load` takes, for the
 * sessions that format holds whole (config-check.h's ltt_cfg_lttng_gap()
 * says which; the others are written in ltt's, config-xml-write.h).
 * config-lttng.h reads them back.  Private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_LTTNG_WRITE_H
#define LTT_LIB_CONFIG_LTTNG_WRITE_H

#include <stddef.h>

#include "lib/ltt-ctl/config/config-model.h"

/**
 * ltt_cfg_lttng_write() - write sessions to the file at @path in LTTng's
 * format, as ltt_cfg_xml_write() does in ltt's (same arguments, same
 * temporary file renamed over @path, same returns)
 *
 * What LTTng's format has no place for is the caller's to have refused
 * (ltt_cfg_lttng_gap()); what it needs and ltt has not (a channel's
 * output type, a domain's one buffer type) is written as LTTng's
 * session daemon writes it for such a channel.
 */
int ltt_cfg_lttng_write(const char *path, struct ltt_session_detail *const *details,
			const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen);

#endif /* LTT_LIB_CONFIG_LTTNG_WRITE_H */
