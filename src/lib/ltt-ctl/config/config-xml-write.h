/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-xml-write.h - saved session configurations written in the XML
 * format of xml/session.xsd (config-xml.h reads it back).  Private to
 * libltt-ctl (config.c drives it).
 */
#ifndef LTT_LIB_CONFIG_XML_WRITE_H
#define LTT_LIB_CONFIG_XML_WRITE_H

#include <stddef.h>

#include "lib/ltt-ctl/config/config-model.h"

/**
 * ltt_cfg_xml_write() - write sessions to the file at @path
 * @details: @n sessions (borrowed), as ltt_ctl_get_session() returns them
 * @extras: @n entries (borrowed): each session's snapshot outputs,
 *          rotation schedule, trackers and contexts
 * @err: receives what failed
 *
 * Writes a temporary file next to @path, then renames it over @path, so
 * a reader sees the old file or the new one.  Returns 0,
 * -LTT_ERR_CONFIG_IO or -LTT_ERR_NOMEM.
 */
int ltt_cfg_xml_write(const char *path, struct ltt_session_detail *const *details,
		      const struct ltt_cfg_extra *extras, size_t n, char *err, size_t errlen);

#endif /* LTT_LIB_CONFIG_XML_WRITE_H */
