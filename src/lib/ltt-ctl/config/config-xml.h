/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-xml.h - saved session configurations: the XML format of
 * xml/session.xsd read into the model of config-model.h (config-check.h
 * checks it whole, config-xml-write.h writes a session's detail out).
 * Private to libltt-ctl (config.c drives it through the XML module,
 * config-module.h, which holds this code); nothing here is exported.
 *
 * Reading is all or nothing: a file is parsed, validated against the
 * schema (compiled into the library) and every value checked with the
 * validators the daemon uses (common/model/attr.c) before its sessions join
 * the set; the first problem is described as "FILE:LINE: what".
 */
#ifndef LTT_LIB_CONFIG_XML_H
#define LTT_LIB_CONFIG_XML_H

#include <stdbool.h>
#include <stddef.h>

#include <ltt/ltt-ctl.h>

#include "lib/ltt-ctl/config/config-model.h"
#include "lib/ltt-ctl/config/config-words.h"

/* A saved configuration's file name: NAME LTT_CFG_SUFFIX. */
#define LTT_CFG_SUFFIX ".ltt"
/* LTTng's name of its saved configurations (config-lttng.h): NAME LTT_CFG_LTTNG_SUFFIX. */
#define LTT_CFG_LTTNG_SUFFIX ".lttng"

/**
 * ltt_cfg_xml_read() - add the sessions of the file at @path to @set
 * @err: receives "PATH:LINE: what is wrong" on failure
 * @errlen: size of @err
 *
 * The file must be well-formed, valid against the schema (or, in LTTng's
 * format, config-lttng.h, follow LTTng's and ask for nothing ltt lacks),
 * and hold valid values (names, sizes, timers, URLs, levels), no session
 * twice (in it or already in @set) and no channel or rule twice.  On
 * failure @set is unchanged.  Not thread-safe (libxml2's error handler is
 * set for the call).  Returns 0, -LTT_ERR_CONFIG_IO (unreadable),
 * -LTT_ERR_CONFIG_MALFORMED, -LTT_ERR_CONFIG_INVALID,
 * -LTT_ERR_CONFIG_UNSUPPORTED or -LTT_ERR_NOMEM.
 */
int ltt_cfg_xml_read(struct ltt_cfg_set *set, const char *path, char *err, size_t errlen);

#endif /* LTT_LIB_CONFIG_XML_H */
