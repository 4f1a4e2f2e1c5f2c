/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-lttng.h - LTTng's saved sessions (the .lttng files `lttng save`
 * writes, LTTng 2.13's session.xsd) read into the model of config-model.h,
 * so that `lttctl load` takes them as ltt's own (config-xml.c parses the
 * file, recognises the format and calls this; config-check.c checks the
 * result as it does ltt's).  Private to libltt-ctl.
 *
 * What ltt has is mapped (doc/save-load.md has the table); what it lacks
 * (the JUL, log4j and Python domains with channels, ftrace function
 * entry probes, application and call-stack contexts, a
 * shared memory path, a blocking timeout, ...) is refused with a sentence
 * that names the file, the line, what and what to do, and the code
 * -LTT_ERR_CONFIG_UNSUPPORTED.
 */
#ifndef LTT_LIB_CONFIG_LTTNG_H
#define LTT_LIB_CONFIG_LTTNG_H

#include <stdbool.h>

#include <libxml/tree.h>

#include "lib/ltt-ctl/config/config-model.h"
#include "lib/ltt-ctl/config/config-rd.h"

/**
 * ltt_cfg_lttng_is() - is @doc (borrowed) in LTTng's format?
 *
 * LTTng's root is <sessions> as ltt's, without ltt's version attribute,
 * and a file `lttng save` writes has in each session an <output> holding
 * a <consumer_output> or <snapshot_outputs>, and in each domain a
 * <buffer_type>: the first of these found says LTTng.
 */
bool ltt_cfg_lttng_is(xmlDocPtr doc);

/**
 * ltt_cfg_lttng_read_session() - read LTTng's <session> @se into @s
 * (zeroed first; what it allocates is freed by ltt_cfg_session_fini(),
 * also on failure)
 *
 * Every element is checked against LTTng's format (an unknown one, or
 * one twice, is -LTT_ERR_CONFIG_INVALID with its line) and mapped, or
 * refused (-LTT_ERR_CONFIG_UNSUPPORTED).  Values are left for
 * ltt_cfg_check_session() to check.  Returns @rd->ret: 0, one of those
 * or -LTT_ERR_NOMEM.
 */
int ltt_cfg_lttng_read_session(struct ltt_cfg_rd *rd, xmlNodePtr se, struct ltt_cfg_session *s);

#endif /* LTT_LIB_CONFIG_LTTNG_H */
