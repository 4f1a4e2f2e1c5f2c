// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-rd.c - reading the values of a parsed configuration document
 * into the model (config-rd.h): elements, text, numbers, words.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ltt/ltt-error.h>

#include "common/model/attr.h"
#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/config/config-model.h"
#include "lib/ltt-ctl/config/config-rd.h"

xmlNodePtr ltt_cfg_rd_child(xmlNodePtr parent, const char *name)
{
	xmlNodePtr n;

	for (n = parent ? parent->children : NULL; n; n = n->next)
		if (n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name))
			return n;
	return NULL;
}

xmlNodePtr ltt_cfg_rd_next(xmlNodePtr n)
{
	xmlNodePtr m;

	for (m = n->next; m; m = m->next)
		if (m->type == XML_ELEMENT_NODE &&
		    !strcmp((const char *)m->name, (const char *)n->name))
			return m;
	return NULL;
}

size_t ltt_cfg_rd_count(xmlNodePtr parent, const char *name)
{
	xmlNodePtr n;
	size_t nr = 0;

	for (n = ltt_cfg_rd_child(parent, name); n; n = ltt_cfg_rd_next(n))
		nr++;
	return nr;
}

void *ltt_cfg_rd_calloc(struct ltt_cfg_rd *rd, size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size);

	if (!p && !rd->ret)
		rd->ret = -LTT_ERR_NOMEM;
	return p;
}

/*
 * The first value that does not fit the model (too long in bytes, a
 * number out of its type) is the error, with its line.  A schema counts
 * characters, the model bytes: a name of 255 characters may be 1020 bytes
 * of UTF-8, which only this sees.
 */
static void fail_v(struct ltt_cfg_rd *rd, xmlNodePtr n, int code, bool name, const char *fmt,
		   va_list ap) __attribute__((format(printf, 5, 0)));

static void fail_v(struct ltt_cfg_rd *rd, xmlNodePtr n, int code, bool name, const char *fmt,
		   va_list ap)
{
	char what[512];

	if (rd->ret)
		return;
	vsnprintf(what, sizeof(what), fmt, ap);
	if (name)
		ltt_cfg_err(rd->err, rd->errlen, "%s:%ld: <%s>: %s", rd->file, xmlGetLineNo(n),
			    (const char *)n->name, what);
	else
		ltt_cfg_err(rd->err, rd->errlen, "%s:%ld: %s", rd->file, xmlGetLineNo(n), what);
	rd->ret = code;
}

void ltt_cfg_rd_fail(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(rd, n, -LTT_ERR_CONFIG_INVALID, true, fmt, ap);
	va_end(ap);
}

void ltt_cfg_rd_refuse(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fail_v(rd, n, -LTT_ERR_CONFIG_UNSUPPORTED, false, fmt, ap);
	va_end(ap);
}
/* Whitespace around is kept: names are exact. */
bool ltt_cfg_rd_text(struct ltt_cfg_rd *rd, xmlNodePtr n, char *buf, size_t len)
{
	xmlChar *s;
	size_t l;

	buf[0] = '\0';
	if (rd->ret || !n)
		return false;
	s = xmlNodeGetContent(n);
	if (!s) {
		rd->ret = -LTT_ERR_NOMEM;
		return false;
	}
	l = strlen((const char *)s);
	if (l >= len)
		ltt_cfg_rd_fail(rd, n,
				"%zu bytes long; at most %zu bytes (UTF-8: a character may take up to 4)",
				l, len - 1);
	else
		memcpy(buf, s, l + 1);
	xmlFree(s);
	return !rd->ret;
}

/* For typed values: booleans, numbers, words, URLs. */
bool ltt_cfg_rd_token(struct ltt_cfg_rd *rd, xmlNodePtr n, char *buf, size_t len)
{
	char *p, *q;

	if (!ltt_cfg_rd_text(rd, n, buf, len))
		return false;
	for (p = buf; *p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'; p++)
		;
	memmove(buf, p, strlen(p) + 1);
	q = buf + strlen(buf);
	while (q > buf && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\n' || q[-1] == '\r'))
		*--q = '\0';
	return true;
}

bool ltt_cfg_rd_bool(struct ltt_cfg_rd *rd, xmlNodePtr n)
{
	char buf[16];

	return ltt_cfg_rd_token(rd, n, buf, sizeof(buf)) &&
	       (!strcmp(buf, "true") || !strcmp(buf, "1"));
}

/* The schema checked its form; leading zeros are allowed. */
uint64_t ltt_cfg_rd_number(struct ltt_cfg_rd *rd, xmlNodePtr n, uint64_t max)
{
	unsigned long long v;
	char buf[128];
	char *end;

	if (!ltt_cfg_rd_token(rd, n, buf, sizeof(buf)))
		return 0;
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf || *end || buf[0] == '-' || v > max) {
		ltt_cfg_rd_fail(rd, n, "'%s' is not a number from 0 to %llu", buf,
				(unsigned long long)max);
		return 0;
	}
	return v;
}

int ltt_cfg_rd_lookup(struct ltt_cfg_rd *rd, xmlNodePtr n, const char *const *names, int nr)
{
	char buf[32];
	int i;

	if (!ltt_cfg_rd_token(rd, n, buf, sizeof(buf)))
		return 0;
	for (i = 0; i < nr; i++)
		if (names[i] && !strcmp(names[i], buf))
			return i;
	ltt_cfg_rd_fail(rd, n, "'%s' is not one of the schema's values", buf);
	return 0;
}

void ltt_cfg_rd_filter(struct ltt_cfg_rd *rd, xmlNodePtr ev, struct ltt_rule_conf *a)
{
	char name[LTT_NAME_MAX];
	size_t used = 0, len;
	xmlNodePtr x;

	if (ltt_cfg_rd_child(ev, "filter"))
		ltt_cfg_rd_text(rd, ltt_cfg_rd_child(ev, "filter"), a->filter, sizeof(a->filter));
	for (x = ltt_cfg_rd_child(ltt_cfg_rd_child(ev, "exclusions"), "exclusion"); x && !rd->ret;
	     x = ltt_cfg_rd_next(x)) {
		if (!ltt_cfg_rd_token(rd, x, name, sizeof(name)))
			return;
		if (used + !!used + (len = strlen(name)) >= sizeof(a->exclusions)) {
			strcpy(a->exclusions, ",");	/* refused by the check */
			return;
		}
		if (used)
			a->exclusions[used++] = ',';
		memcpy(a->exclusions + used, name, len + 1);
		used += len;
	}
	if (used && ltt_attr_normalize_exclusions(a->pattern, a->exclusions, sizeof(a->exclusions)))
		strcpy(a->exclusions, ",");
}

/* A kernel probe's <probe_attributes>: an address, or a symbol and its offset. */
static void read_kernel_probe(struct ltt_cfg_rd *rd, xmlNodePtr pa, struct ltt_probe_loc *loc)
{
	xmlNodePtr addr = ltt_cfg_rd_child(pa, "address");

	if (addr) {
		loc->kind = LTT_PROBE_KADDR;
		loc->addr = ltt_cfg_rd_number(rd, addr, UINT64_MAX);
		return;
	}
	loc->kind = LTT_PROBE_KSYM;
	if (!ltt_cfg_rd_token(rd, ltt_cfg_rd_child(pa, "symbol_name"), loc->symbol,
			      sizeof(loc->symbol)) && !rd->ret)
		ltt_cfg_rd_fail(rd, pa, "a kernel probe without an <address> or a <symbol_name>");
	if (ltt_cfg_rd_child(pa, "offset"))
		loc->offset = ltt_cfg_rd_number(rd, ltt_cfg_rd_child(pa, "offset"), UINT64_MAX);
}

/* A user-space probe's attributes: an ELF function (@sdt false) or an SDT probe. */
static void read_user_probe(struct ltt_cfg_rd *rd, xmlNodePtr ua, bool sdt,
			    struct ltt_probe_loc *loc, bool *ret_elf_prefix)
{
	static const char *const methods[] = { "DEFAULT", "ELF", "SDT" };
	xmlNodePtr lm = ltt_cfg_rd_child(ua, "lookup_method");
	int method = LTT_CFG_RD_LOOKUP(rd, lm, methods);

	if (!lm && !rd->ret)
		ltt_cfg_rd_fail(rd, ua, "a user-space probe without its <lookup_method>");
	else if (!rd->ret && (method == 2) != sdt)
		ltt_cfg_rd_fail(rd, lm, "%s is the lookup method of %s", methods[method],
				method == 2 ? "an SDT probe" : "a function");
	loc->kind = sdt ? LTT_PROBE_SDT : LTT_PROBE_ELF;
	*ret_elf_prefix = method == 1;
	if (!ltt_cfg_rd_token(rd, ltt_cfg_rd_child(ua, "binary_path"), loc->path,
			      sizeof(loc->path)) && !rd->ret)
		ltt_cfg_rd_fail(rd, ua, "a user-space probe without its <binary_path>");
	if (!ltt_cfg_rd_token(rd, ltt_cfg_rd_child(ua, sdt ? "probe_name" : "function_name"),
			      loc->symbol, sizeof(loc->symbol)) && !rd->ret)
		ltt_cfg_rd_fail(rd, ua, "a user-space probe without its <%s>",
				sdt ? "probe_name" : "function_name");
	if (sdt && !ltt_cfg_rd_token(rd, ltt_cfg_rd_child(ua, "provider_name"), loc->provider,
				     sizeof(loc->provider)) && !rd->ret)
		ltt_cfg_rd_fail(rd, ua, "an SDT probe without its <provider_name>");
}

void ltt_cfg_rd_probe(struct ltt_cfg_rd *rd, xmlNodePtr ev, struct ltt_rule_conf *a)
{
	xmlNodePtr at = ltt_cfg_rd_child(ev, "attributes"), n;
	struct ltt_probe_loc loc;
	bool elf_prefix = false;

	a->location[0] = '\0';
	if (rd->ret || (!at && !ltt_event_type_is_probe(a->type)))
		return;
	if (!ltt_event_type_is_probe(a->type)) {
		ltt_cfg_rd_fail(rd, at, "only probe events have attributes");
		return;
	}
	memset(&loc, 0, sizeof(loc));
	if (a->type != LTT_EVENT_UPROBE && (n = ltt_cfg_rd_child(at, "probe_attributes")))
		read_kernel_probe(rd, n, &loc);
	else if (a->type == LTT_EVENT_UPROBE &&
		 (n = ltt_cfg_rd_child(at, "userspace_probe_function_attributes")))
		read_user_probe(rd, n, false, &loc, &elf_prefix);
	else if (a->type == LTT_EVENT_UPROBE &&
		 (n = ltt_cfg_rd_child(at, "userspace_probe_tracepoint_attributes")))
		read_user_probe(rd, n, true, &loc, &elf_prefix);
	else
		ltt_cfg_rd_fail(rd, at ? at : ev, "a %s event without its location: give its "
				"<attributes> (<%s>)", a->type == LTT_EVENT_UPROBE ?
				"user-space probe" : "kernel probe", a->type == LTT_EVENT_UPROBE ?
				"userspace_probe_function_attributes or "
				"userspace_probe_tracepoint_attributes" : "probe_attributes");
	if (!rd->ret && ltt_probe_loc_format(&loc, elf_prefix, a->location, sizeof(a->location)))
		ltt_cfg_rd_fail(rd, at, "a location of more than %d bytes", LTT_LOCATION_MAX - 1);
}

void ltt_cfg_rd_reclaim(struct ltt_cfg_rd *rd, xmlNodePtr n, struct ltt_channel_conf *a)
{
	xmlNodePtr consumed = ltt_cfg_rd_child(n, "consumed"), p = ltt_cfg_rd_child(n, "periodic");

	if (consumed && p)
		ltt_cfg_rd_fail(rd, n, "<reclaim_policy> holds <consumed/> or <periodic>, not both");
	else if (consumed)
		a->auto_reclaim = LTT_AUTO_RECLAIM_CONSUMED;
	else if (!p)
		ltt_cfg_rd_fail(rd, n, "<reclaim_policy> holds <consumed/> or <periodic>");
	if (consumed || !p)
		return;
	a->auto_reclaim = LTT_AUTO_RECLAIM_OLDER_THAN;
	n = ltt_cfg_rd_child(p, "age_threshold");
	a->auto_reclaim_us = n ? ltt_cfg_rd_number(rd, n, UINT64_MAX / 1000) : 0;
	if (!a->auto_reclaim_us)
		ltt_cfg_rd_fail(rd, p, "<periodic> needs an <age_threshold> above 0 (microseconds)");
}

void ltt_cfg_rd_blocking(struct ltt_cfg_rd *rd, xmlNodePtr n, struct ltt_channel_conf *a)
{
	char buf[32], *end;
	long long v;

	if (!ltt_cfg_rd_token(rd, n, buf, sizeof(buf)))
		return;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf || *end || v < -1 ||
	    (v > 0 && (unsigned long long)v > LTT_BLOCKING_TIMEOUT_MAX_US)) {
		ltt_cfg_rd_fail(rd, n, "a blocking timeout is -1 (inf) or microseconds from 0 to "
				"%llu, not '%s'", (unsigned long long)LTT_BLOCKING_TIMEOUT_MAX_US, buf);
		return;
	}
	a->blocking_timeout_us = v == -1 ? LTT_BLOCKING_TIMEOUT_INF : (uint64_t)v;
}
