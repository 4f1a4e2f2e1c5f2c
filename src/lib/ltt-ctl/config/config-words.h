/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-words.h - the words of the XML format of saved sessions
 * (xml/session.xsd) that its reader (config-xml.c, config-lttng.c) and
 * its writer (config-xml-write.c) share in the XML module.  Private to
 * libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_WORDS_H
#define LTT_LIB_CONFIG_WORDS_H

#include <ltt/ltt-ctl.h>

/* LTTng's words, which lttctl's MI shares, are common/model/lttng-words.h's. */
#include "common/model/lttng-words.h"

/* The version attribute of <sessions> this library writes and reads. */
#define LTT_CFG_VERSION 1

/*
 * The words of the format (xml/session.xsd) for the model's enums, indexed
 * by the enum; the reader and the writer (config-xml-write.c) share them.
 * A NULL entry (LTT_BUFFER_DEFAULT) has no word: the element is omitted.
 * The tables LTTng's format shares with them are sized alike (lttng-words.h).
 */
#define LTT_CFG_NR_TRACKER_POLICIES (LTT_TRACKER_SET + 1)
extern const char *const ltt_cfg_xml_buffer_types[LTT_LTTNG_NR_BUFFER_TYPES];
extern const char *const ltt_cfg_xml_loglevel_types[LTT_LTTNG_NR_LOGLEVEL_TYPES];
extern const char *const ltt_cfg_xml_event_types[LTT_LTTNG_NR_EVENT_TYPES];
extern const char *const ltt_cfg_xml_tracker_types[LTT_TRACKER_NR];
extern const char *const ltt_cfg_xml_tracker_policies[LTT_CFG_NR_TRACKER_POLICIES];

#endif /* LTT_LIB_CONFIG_WORDS_H */
