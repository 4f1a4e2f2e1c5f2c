// SPDX-License-Identifier: LGPL-2.1-only
/*
 * out-xml.c - lttctl --mi xml: one XML document per run, valid against
 * xml/mi.xsd (doc/mi.md describes it).
 *
 *   <command>
 *     <name>list</name>              the command (absent: none found)
 *     <output>...</output>           its result objects, in order
 *     <messages>...</messages>       informational lines
 *     <warnings>...</warnings>       code, name, message each
 *     <errors>...</errors>           code, name, message (and usage)
 *     <success>true</success>        exit status 0
 *     <exitStatus>0</exitStatus>
 *   </command>
 *
 * The document is built in memory with libxml2's xmlTextWriter and
 * written at the end, so stdout gets a whole document or nothing.
 * Messages are kept aside until then; warnings and errors also go to
 * stderr as in text mode, for a person watching.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/xmlwriter.h>

#include "ltt/ltt-error.h"
#include "ctl/out-impl.h"

struct xml_message {
	enum ctl_out_msg level;
	int code;
	char *text;
	char *usage;
};

static struct {
	xmlBufferPtr buf;
	xmlTextWriterPtr w;
	bool failed;			/* out of memory on the way: report at the end */
	struct xml_message *msgs;
	size_t nr_msgs;
	char *command;			/* <name>, NULL before one is known */
} xml;

/* The schema version a document declares (xml/mi.xsd, doc/mi.md). */
#define CTL_MI_VERSION "1.0"


#define X(s) ((const xmlChar *)(s))

static void check(int ret)
{
	if (ret < 0)
		xml.failed = true;
}

/* The document up to <output>, on first use: the command is known by then. */
static void start(void)
{
	if (xml.w || xml.failed)
		return;
	xml.buf = xmlBufferCreate();
	xml.w = xml.buf ? xmlNewTextWriterMemory(xml.buf, 0) : NULL;
	if (!xml.w) {
		xml.failed = true;
		return;
	}
	check(xmlTextWriterSetIndent(xml.w, 1));
	check(xmlTextWriterSetIndentString(xml.w, X("  ")));
	check(xmlTextWriterStartDocument(xml.w, NULL, "UTF-8", NULL));
	check(xmlTextWriterStartElement(xml.w, X("command")));
	check(xmlTextWriterWriteAttribute(xml.w, X("version"), X(CTL_MI_VERSION)));
	if (xml.command)
		check(xmlTextWriterWriteElement(xml.w, X("name"), X(xml.command)));
	check(xmlTextWriterStartElement(xml.w, X("output")));
}

static void xml_begin(const char *command)
{
	free(xml.command);
	xml.command = command ? strdup(command) : NULL;
	if (command && !xml.command)
		xml.failed = true;
}

static void xml_message(enum ctl_out_msg level, int code, const char *text,
			const char *usage)
{
	struct xml_message *msgs, *m;

	if (level != CTL_OUT_MSG_INFO) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", level == CTL_OUT_MSG_ERROR ? "Error" : "Warning", text);
	}
	msgs = realloc(xml.msgs, (xml.nr_msgs + 1) * sizeof(*msgs));
	if (!msgs) {
		xml.failed = true;
		return;
	}
	xml.msgs = msgs;
	m = &msgs[xml.nr_msgs];
	m->level = level;
	m->code = code;
	m->text = strdup(text);
	m->usage = usage ? strdup(usage) : NULL;
	if (!m->text || (usage && !m->usage)) {
		free(m->text);
		free(m->usage);
		xml.failed = true;
		return;
	}
	xml.nr_msgs++;
}

static void xml_text(const char *text)
{
	(void)text;
}

static void xml_open(const char *element)
{
	start();
	if (xml.w)
		check(xmlTextWriterStartElement(xml.w, X(element)));
}

static void xml_close(void)
{
	if (xml.w)
		check(xmlTextWriterEndElement(xml.w));
}

static void xml_field(const char *name, const char *value)
{
	start();
	if (xml.w)
		check(xmlTextWriterWriteElement(xml.w, X(name), X(value)));
}

/* The messages of @level in their list element @list, items @item. */
static void write_messages(enum ctl_out_msg level, const char *list, const char *item)
{
	char code[16];
	bool any = false;
	size_t i;

	for (i = 0; i < xml.nr_msgs; i++) {
		const struct xml_message *m = &xml.msgs[i];

		if (m->level != level)
			continue;
		if (!any)
			check(xmlTextWriterStartElement(xml.w, X(list)));
		any = true;
		if (level == CTL_OUT_MSG_INFO) {
			check(xmlTextWriterWriteElement(xml.w, X(item), X(m->text)));
			continue;
		}
		snprintf(code, sizeof(code), "%d", m->code);
		check(xmlTextWriterStartElement(xml.w, X(item)));
		check(xmlTextWriterWriteElement(xml.w, X("code"), X(code)));
		check(xmlTextWriterWriteElement(xml.w, X("name"), X(ltt_error_name(m->code))));
		check(xmlTextWriterWriteElement(xml.w, X("message"), X(m->text)));
		if (m->usage)
			check(xmlTextWriterWriteElement(xml.w, X("usage"), X(m->usage)));
		check(xmlTextWriterEndElement(xml.w));
	}
	if (any)
		check(xmlTextWriterEndElement(xml.w));
}

static void free_messages(void)
{
	size_t i;

	for (i = 0; i < xml.nr_msgs; i++) {
		free(xml.msgs[i].text);
		free(xml.msgs[i].usage);
	}
	free(xml.msgs);
	xml.msgs = NULL;
	xml.nr_msgs = 0;
}

static int xml_end(int status)
{
	char text[16];
	int ret = 0;

	start();
	if (xml.w) {
		check(xmlTextWriterEndElement(xml.w));	/* output */
		write_messages(CTL_OUT_MSG_INFO, "messages", "message");
		write_messages(CTL_OUT_MSG_WARNING, "warnings", "warning");
		write_messages(CTL_OUT_MSG_ERROR, "errors", "error");
		check(xmlTextWriterWriteElement(xml.w, X("success"), X(status ? "false" : "true")));
		snprintf(text, sizeof(text), "%d", status);
		check(xmlTextWriterWriteElement(xml.w, X("exitStatus"), X(text)));
		check(xmlTextWriterEndDocument(xml.w));
		xmlFreeTextWriter(xml.w);	/* flushes into the buffer */
		xml.w = NULL;
	}
	free_messages();
	if (xml.failed || !xml.buf) {
		ret = -ENOMEM;	/* out.c says so on stderr */
	} else if (fwrite(xmlBufferContent(xml.buf), 1, (size_t)xmlBufferLength(xml.buf),
			  stdout) != (size_t)xmlBufferLength(xml.buf) || fflush(stdout)) {
		ret = errno ? -errno : -EIO;
	}
	if (xml.buf)
		xmlBufferFree(xml.buf);
	xml.buf = NULL;
	free(xml.command);
	xml.command = NULL;
	return ret;
}

const struct ctl_out_ops ctl_out_xml_ops = {
	.begin = xml_begin,
	.message = xml_message,
	.text = xml_text,
	.open = xml_open,
	.close = xml_close,
	.field = xml_field,
	.end = xml_end,
};
