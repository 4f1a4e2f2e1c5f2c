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
 * The document is built in memory and written at the end, so stdout
 * gets a whole document or nothing.  Messages are kept aside until then;
 * warnings and errors also go to stderr as in text mode, for a person
 * watching.
 *
 * The writer is this file's own, not libxml2's (which would bring ICU,
 * liblzma and libstdc++ into every run of lttctl): an element per line,
 * indented two spaces a level, an empty one as <name/>, text with
 * & < > " and CR escaped.  out.c hands it valid UTF-8 without control
 * characters but newline and tab (common/escape.h), so nothing else
 * needs escaping.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ltt/ltt-error.h"
#include "ctl/out-impl.h"

struct xml_message {
	enum ctl_out_msg level;
	int code;
	char *text;
	char *usage;
};

/* Deepest nesting of elements: out.c's objects go a few levels deep. */
#define XML_DEPTH_MAX 32

static struct {
	char *buf;			/* the document so far */
	size_t len, size;
	bool started;
	bool failed;			/* out of memory on the way: report at the end */
	/* Open elements: name, and whether a child or text followed the start tag. */
	char *open[XML_DEPTH_MAX];
	bool has_content[XML_DEPTH_MAX];
	unsigned int depth;
	struct xml_message *msgs;
	size_t nr_msgs;
	char *command;			/* <name>, NULL before one is known */
} xml;

/* The schema version a document declares (xml/mi.xsd, doc/mi.md). */
#define CTL_MI_VERSION "1.0"

static void put_len(const char *s, size_t n)
{
	char *b;
	size_t size;

	if (xml.failed)
		return;
	if (xml.len + n + 1 > xml.size) {
		size = xml.size ? xml.size : 4096;
		while (size < xml.len + n + 1)
			size *= 2;
		b = realloc(xml.buf, size);
		if (!b) {
			xml.failed = true;
			return;
		}
		xml.buf = b;
		xml.size = size;
	}
	memcpy(xml.buf + xml.len, s, n);
	xml.len += n;
}

static void put(const char *s)
{
	put_len(s, strlen(s));
}

/* @s as element text: & < > " and CR as references, the rest as it is. */
static void put_text(const char *s)
{
	const char *run = s;

	for (; *s; s++) {
		const char *ref;

		switch (*s) {
		case '&': ref = "&amp;"; break;
		case '<': ref = "&lt;"; break;
		case '>': ref = "&gt;"; break;
		case '"': ref = "&quot;"; break;
		case '\r': ref = "&#13;"; break;
		default: continue;
		}
		put_len(run, (size_t)(s - run));
		put(ref);
		run = s + 1;
	}
	put(run);
}

/* Close the start tag of the innermost open element, if still open. */
static void end_start_tag(void)
{
	if (xml.depth && !xml.has_content[xml.depth - 1]) {
		xml.has_content[xml.depth - 1] = true;
		put(">");
	}
}

static void start_element(const char *name)
{
	unsigned int i;

	if (xml.depth) {
		if (!xml.has_content[xml.depth - 1])
			put(">\n");
		xml.has_content[xml.depth - 1] = true;
	}
	if (xml.depth == XML_DEPTH_MAX) {
		xml.failed = true;
		return;
	}
	for (i = 0; i < xml.depth; i++)
		put("  ");
	put("<");
	put(name);
	xml.open[xml.depth] = strdup(name);
	xml.has_content[xml.depth] = false;
	if (!xml.open[xml.depth])
		xml.failed = true;
	xml.depth++;
}

/* Close the innermost element; @inline: its text ends the line, no indent. */
static void end_element(bool inline_text)
{
	unsigned int i;

	if (!xml.depth)
		return;
	xml.depth--;
	if (!xml.has_content[xml.depth]) {
		put("/>\n");
	} else {
		for (i = 0; !inline_text && i < xml.depth; i++)
			put("  ");
		put("</");
		put(xml.open[xml.depth] ? xml.open[xml.depth] : "");
		put(">\n");
	}
	free(xml.open[xml.depth]);
	xml.open[xml.depth] = NULL;
}

/* <name>text</name> on a line of its own. */
static void element(const char *name, const char *text)
{
	start_element(name);
	end_start_tag();
	put_text(text);
	end_element(true);
}

/* The document up to <output>, on first use: the command is known by then. */
static void start(void)
{
	if (xml.started)
		return;
	xml.started = true;
	put("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
	start_element("command");
	put(" version=\"" CTL_MI_VERSION "\"");
	if (xml.command)
		element("name", xml.command);
	start_element("output");
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

static void xml_open(const char *name)
{
	start();
	start_element(name);
}

static void xml_close(void)
{
	end_element(false);
}

static void xml_field(const char *name, const char *value)
{
	start();
	element(name, value);
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
			start_element(list);
		any = true;
		if (level == CTL_OUT_MSG_INFO) {
			element(item, m->text);
			continue;
		}
		snprintf(code, sizeof(code), "%d", m->code);
		start_element(item);
		element("code", code);
		element("name", ltt_error_name(m->code));
		element("message", m->text);
		if (m->usage)
			element("usage", m->usage);
		end_element(false);
	}
	if (any)
		end_element(false);
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
	while (xml.depth > 1)	/* output, and anything left open */
		end_element(false);
	write_messages(CTL_OUT_MSG_INFO, "messages", "message");
	write_messages(CTL_OUT_MSG_WARNING, "warnings", "warning");
	write_messages(CTL_OUT_MSG_ERROR, "errors", "error");
	element("success", status ? "false" : "true");
	snprintf(text, sizeof(text), "%d", status);
	element("exitStatus", text);
	end_element(false);	/* command */
	free_messages();
	if (xml.failed) {
		ret = -ENOMEM;	/* out.c says so on stderr */
	} else if (fwrite(xml.buf, 1, xml.len, stdout) != xml.len || fflush(stdout)) {
		ret = errno ? -errno : -EIO;
	}
	while (xml.depth)	/* after a failure on the way */
		end_element(false);
	free(xml.buf);
	xml.buf = NULL;
	xml.len = xml.size = 0;
	xml.started = false;
	xml.failed = false;
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
