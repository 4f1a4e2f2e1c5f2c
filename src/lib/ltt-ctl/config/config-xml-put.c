// SPDX-License-Identifier: LGPL-2.1-only
/*
 * config-xml-put.c - the elements of a saved sessions file, put by either
 * writer (config-xml-put.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <string.h>

#include "common/base/durable.h"
#include "common/probe/probe-loc.h"
#include "lib/ltt-ctl/config/config-model.h"
#include "lib/ltt-ctl/config/config-xml-put.h"

int ltt_cfg_put_begin(struct ltt_cfg_put *p)
{
	p->ret = 0;
	p->buf = xmlBufferCreate();
	p->w = p->buf ? xmlNewTextWriterMemory(p->buf, 0) : NULL;
	if (!p->w) {
		xmlBufferFree(p->buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(p->w, 1);
	xmlTextWriterSetIndentString(p->w, BAD_CAST "  ");
	p->ret = xmlTextWriterStartDocument(p->w, NULL, "UTF-8", NULL);
	ltt_cfg_put_open(p, "sessions");
	return 0;
}

int ltt_cfg_put_sessions(const char *path, struct ltt_session_detail *const *details,
			 const struct ltt_cfg_extra *extras, size_t n, int version,
			 void (*write)(struct ltt_cfg_put *p, const struct ltt_session_detail *d,
				       const struct ltt_cfg_extra *x),
			 char *err, size_t errlen)
{
	struct ltt_cfg_put p;
	size_t i;

	if (ltt_cfg_put_begin(&p)) {
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(ENOMEM));
		return -LTT_ERR_CONFIG_IO;
	}
	if (version && p.ret >= 0)
		p.ret = xmlTextWriterWriteFormatAttribute(p.w, BAD_CAST "version", "%d", version);
	for (i = 0; i < n; i++)
		write(&p, details[i], &extras[i]);
	return ltt_cfg_put_end(&p, path, err, errlen);
}

int ltt_cfg_put_end(struct ltt_cfg_put *p, const char *path, char *err, size_t errlen)
{
	int ret;

	ltt_cfg_put_close(p);
	if (p->ret >= 0)
		p->ret = xmlTextWriterEndDocument(p->w);
	xmlFreeTextWriter(p->w);	/* flushes into buf */
	/* whole or not at all, even across a crash or a power loss */
	ret = p->ret < 0 ? -ENOMEM : ltt_file_replace(path, xmlBufferContent(p->buf),
						      (size_t)xmlBufferLength(p->buf), 0600);
	xmlBufferFree(p->buf);
	if (ret) {
		ltt_cfg_err(err, errlen, "%s: %s", path, strerror(-ret));
		return -LTT_ERR_CONFIG_IO;
	}
	return 0;
}

void ltt_cfg_put(struct ltt_cfg_put *p, const char *name, const char *fmt, ...)
{
	va_list ap;

	if (p->ret < 0)
		return;
	va_start(ap, fmt);
	p->ret = xmlTextWriterWriteVFormatElement(p->w, BAD_CAST name, fmt, ap);
	va_end(ap);
}

void ltt_cfg_put_open(struct ltt_cfg_put *p, const char *name)
{
	if (p->ret >= 0)
		p->ret = xmlTextWriterStartElement(p->w, BAD_CAST name);
}

void ltt_cfg_put_close(struct ltt_cfg_put *p)
{
	if (p->ret >= 0)
		p->ret = xmlTextWriterEndElement(p->w);
}

void ltt_cfg_put_list(struct ltt_cfg_put *p, const char *list, const char *item, const char *csv)
{
	int len;

	if (!csv || !csv[0])
		return;
	ltt_cfg_put_open(p, list);
	for (; *csv; csv += len + (csv[len] == ',')) {
		len = (int)strcspn(csv, ",");
		ltt_cfg_put(p, item, "%.*s", len, csv);
	}
	ltt_cfg_put_close(p);
}

const char *ltt_cfg_put_bool(bool b)
{
	return b ? "true" : "false";
}

void ltt_cfg_put_blocking(struct ltt_cfg_put *p, uint64_t timeout_us)
{
	if (timeout_us == LTT_BLOCKING_TIMEOUT_INF)
		ltt_cfg_put(p, "blocking_timeout", "%d", -1);
	else if (timeout_us)
		ltt_cfg_put(p, "blocking_timeout", "%" PRIu64, timeout_us);
}

void ltt_cfg_put_probe(struct ltt_cfg_put *p, enum ltt_event_type type, const char *location)
{
	struct ltt_probe_loc loc;
	char why[128];

	if (p->ret < 0)
		return;
	if (ltt_probe_loc_parse(type, location, &loc, why, sizeof(why))) {
		p->ret = -EINVAL;	/* the daemon checked it: not from a daemon */
		return;
	}
	ltt_cfg_put_open(p, "attributes");
	if (loc.kind == LTT_PROBE_KSYM || loc.kind == LTT_PROBE_KADDR) {
		ltt_cfg_put_open(p, "probe_attributes");
		if (loc.kind == LTT_PROBE_KADDR)
			ltt_cfg_put(p, "address", "%" PRIu64, loc.addr);
		else
			ltt_cfg_put(p, "symbol_name", "%s", loc.symbol);
		if (loc.kind == LTT_PROBE_KSYM && loc.offset)
			ltt_cfg_put(p, "offset", "%" PRIu64, loc.offset);
	} else if (loc.kind == LTT_PROBE_SDT) {
		ltt_cfg_put_open(p, "userspace_probe_tracepoint_attributes");
		ltt_cfg_put(p, "lookup_method", "SDT");
		ltt_cfg_put(p, "binary_path", "%s", loc.path);
		ltt_cfg_put(p, "probe_name", "%s", loc.symbol);
		ltt_cfg_put(p, "provider_name", "%s", loc.provider);
	} else {
		/* LTTng's DEFAULT is a location without elf:, its ELF one with */
		ltt_cfg_put_open(p, "userspace_probe_function_attributes");
		ltt_cfg_put(p, "lookup_method", "%s", strncmp(location, "elf:", 4) ? "DEFAULT" : "ELF");
		ltt_cfg_put(p, "binary_path", "%s", loc.path);
		ltt_cfg_put(p, "function_name", "%s", loc.symbol);
	}
	ltt_cfg_put_close(p);
	ltt_cfg_put_close(p);
}
