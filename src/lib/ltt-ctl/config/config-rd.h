/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * config-rd.h - reading the values of a parsed configuration document
 * (libxml2) into the model, for both formats a load takes: ltt's own
 * (config-xml.c) and LTTng's (config-lttng.c).  Private to libltt-ctl.
 *
 * A read keeps its first error: every function below does nothing once
 * @rd->ret is set, so a reader calls them in a row and looks at @rd->ret
 * once.  Errors read "FILE:LINE: <element>: what".  Not thread-safe
 * beyond libxml2's own rules (one document, one thread).
 */
#ifndef LTT_LIB_CONFIG_RD_H
#define LTT_LIB_CONFIG_RD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <libxml/tree.h>

#include "common/model/model.h"

/* One file's read: its name (borrowed), where errors go, the first error. */
struct ltt_cfg_rd {
	const char *file;
	char *err;
	size_t errlen;
	int ret;		/* 0, or the first -LTT_ERR_* */
};

/** ltt_cfg_rd_child() - the first element child of @parent called @name, or NULL */
xmlNodePtr ltt_cfg_rd_child(xmlNodePtr parent, const char *name);

/** ltt_cfg_rd_next() - the next element sibling of @n called like it, or NULL */
xmlNodePtr ltt_cfg_rd_next(xmlNodePtr n);

/** ltt_cfg_rd_count() - how many element children of @parent (NULL: none) are called @name */
size_t ltt_cfg_rd_count(xmlNodePtr parent, const char *name);

/**
 * ltt_cfg_rd_calloc() - room for @n elements of @size bytes (at least
 * one), zeroed, or NULL with @rd's error set (NOMEM, unless one is set)
 */
void *ltt_cfg_rd_calloc(struct ltt_cfg_rd *rd, size_t n, size_t size);

/**
 * ltt_cfg_rd_fail() - set @rd's error (unless one is set) with @n's line,
 * as "FILE:LINE: <NAME>: what", and the code -LTT_ERR_CONFIG_INVALID
 */
void ltt_cfg_rd_fail(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * ltt_cfg_rd_refuse() - as ltt_cfg_rd_fail() for what ltt does not have:
 * "FILE:LINE: what" (the caller's sentence whole), the code
 * -LTT_ERR_CONFIG_UNSUPPORTED
 */
void ltt_cfg_rd_refuse(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * ltt_cfg_rd_text() - the text of @n copied whole into @buf (@len bytes,
 * NUL included), whitespace kept; an absent @n is "" and false
 *
 * Returns false when nothing was read (@n absent, an error before, or the
 * text too long in bytes: then the error is set).
 */
bool ltt_cfg_rd_text(struct ltt_cfg_rd *rd, xmlNodePtr n, char *buf, size_t len);

/** ltt_cfg_rd_token() - as ltt_cfg_rd_text(), whitespace around removed */
bool ltt_cfg_rd_token(struct ltt_cfg_rd *rd, xmlNodePtr n, char *buf, size_t len);

/** ltt_cfg_rd_bool() - is @n "true" or "1"? (absent: false) */
bool ltt_cfg_rd_bool(struct ltt_cfg_rd *rd, xmlNodePtr n);

/**
 * ltt_cfg_rd_number() - @n as a decimal number of at most @max; anything
 * else is an error with @n's line (and 0)
 */
uint64_t ltt_cfg_rd_number(struct ltt_cfg_rd *rd, xmlNodePtr n, uint64_t max);

/**
 * ltt_cfg_rd_lookup() - the index of @n's token in @names (@nr entries, NULL
 * ones skipped); another word is an error with @n's line (and 0)
 */
int ltt_cfg_rd_lookup(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *const *names, int nr);

/**
 * ltt_cfg_rd_filter() - the <filter> and <exclusions> of the event @ev
 * (the same elements in both formats) into @a; a value too long is an
 * error with its line, one that is not valid is left for
 * ltt_attr_check_rule() to refuse (the check names it)
 */
void ltt_cfg_rd_filter(struct ltt_cfg_rd *rd, xmlNodePtr ev, struct ltt_rule_conf *a);

/**
 * ltt_cfg_rd_probe() - the <attributes> of the event @ev of type
 * @a->type, in LTTng's elements (the same in both formats), into
 * @a->location as lttctl's text: <probe_attributes> (<symbol_name> and
 * <offset>, or <address>) for a kernel probe or function,
 * <userspace_probe_function_attributes> (<lookup_method> DEFAULT or ELF,
 * <binary_path>, <function_name>) or
 * <userspace_probe_tracepoint_attributes> (SDT, <binary_path>,
 * <probe_name>, <provider_name>) for a user-space probe.  A probe without
 * them, or attributes on another type, is an error with their line; a
 * location that is not valid is left for ltt_attr_check_rule().
 */
void ltt_cfg_rd_probe(struct ltt_cfg_rd *rd, xmlNodePtr ev, struct ltt_rule_conf *a);

/**
 * ltt_cfg_rd_reclaim() - a <reclaim_policy> (LTTng 2.15's, which ltt's
 * format has too) into @a's automatic reclaim: <consumed/>, or
 * <periodic> with its <age_threshold> in microseconds (above 0).  Both,
 * neither or no age is an error with the line.
 */
void ltt_cfg_rd_reclaim(struct ltt_cfg_rd *rd, xmlNodePtr n, struct ltt_channel_conf *a);

/**
 * ltt_cfg_rd_blocking() - a <blocking_timeout> (LTTng's, which ltt's
 * format has too) into @a's blocking timeout: -1 for inf, else
 * microseconds up to LTT_BLOCKING_TIMEOUT_MAX_US; anything else is an
 * error with the line.  (Whether the channel may have one is the
 * daemon's check: a kernel channel's must be 0.)
 */
void ltt_cfg_rd_blocking(struct ltt_cfg_rd *rd, xmlNodePtr n, struct ltt_channel_conf *a);

#define LTT_CFG_RD_LOOKUP(rd, n, names) \
	ltt_cfg_rd_lookup((rd), (n), (names), (int)(sizeof(names) / sizeof((names)[0])))

#endif /* LTT_LIB_CONFIG_RD_H */
