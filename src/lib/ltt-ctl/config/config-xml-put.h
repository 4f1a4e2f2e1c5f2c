/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-xml-put.h - what the two writers of saved sessions share: ltt's
 * format (config-xml-write.c) and LTTng's (config-lttng-write.c) put
 * their elements with these calls into a document held in memory, which
 * replaces the file whole.  In the XML module; private to libltt-ctl.
 */
#ifndef LTT_LIB_CONFIG_XML_PUT_H
#define LTT_LIB_CONFIG_XML_PUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/xmlwriter.h>

#include <ltt/ltt-ctl.h>

/*
 * A document being written: each call appends one element; the first
 * failure sticks in @ret (negative) and makes the later calls do nothing.
 */
struct ltt_cfg_put {
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
	int ret;
};

/**
 * ltt_cfg_put_begin() - start a document (indented, UTF-8) whose root is
 * <sessions>
 *
 * Returns 0 or -ENOMEM (then @p needs no ltt_cfg_put_end()).
 */
int ltt_cfg_put_begin(struct ltt_cfg_put *p);

/**
 * ltt_cfg_put_end() - close the document and replace the file at @path
 * with it (a temporary file renamed over it, synced: common/base/durable.h);
 * frees what @p holds, also on failure
 *
 * Returns 0, or -LTT_ERR_CONFIG_IO with what failed in @err.
 */
int ltt_cfg_put_end(struct ltt_cfg_put *p, const char *path, char *err, size_t errlen);

struct ltt_cfg_extra;

/**
 * ltt_cfg_put_sessions() - a whole document of both writers: <sessions>
 * (with a version attribute @version; 0: none) holding, for each of the
 * @n sessions, what @write(p, details[i], &extras[i]) puts; the file at
 * @path replaced with it (ltt_cfg_put_end())
 *
 * Returns 0, or -LTT_ERR_CONFIG_IO with what failed in @err.
 */
int ltt_cfg_put_sessions(const char *path, struct ltt_session_detail *const *details,
			 const struct ltt_cfg_extra *extras, size_t n, int version,
			 void (*write)(struct ltt_cfg_put *p, const struct ltt_session_detail *d,
				       const struct ltt_cfg_extra *x),
			 char *err, size_t errlen);

/* <@name>text</@name>, the text as printf() makes it from @fmt. */
void ltt_cfg_put(struct ltt_cfg_put *p, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* <@name>, closed by ltt_cfg_put_close(). */
void ltt_cfg_put_open(struct ltt_cfg_put *p, const char *name);

void ltt_cfg_put_close(struct ltt_cfg_put *p);

/*
 * <@list><@item>...</@item>...</@list>, an item a name of the comma-separated
 * @csv; nothing when it has none.
 */
void ltt_cfg_put_list(struct ltt_cfg_put *p, const char *list, const char *item, const char *csv);

/* "true" or "false", as xs:boolean. */
const char *ltt_cfg_put_bool(bool b);

/* A channel's <blocking_timeout> (both formats: -1 for inf), none for 0, the default. */
void ltt_cfg_put_blocking(struct ltt_cfg_put *p, uint64_t timeout_us);

/**
 * ltt_cfg_put_probe() - the <attributes> of a probe rule of @type at
 * @location (common/probe/probe-loc.h) in LTTng's elements, which ltt's
 * format uses too (config-rd.h's ltt_cfg_rd_probe() reads them back)
 */
void ltt_cfg_put_probe(struct ltt_cfg_put *p, enum ltt_event_type type, const char *location);

#endif /* LTT_LIB_CONFIG_XML_PUT_H */
