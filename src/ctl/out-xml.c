// SPDX-License-Identifier: LGPL-2.1-only
/*
 * out-xml.c - lttctl --mi xml: one XML document per run (doc/mi.md).
 *
 * A command LTTng has writes LTTng's machine interface, valid against
 * LTTng 2.13's mi-lttng-4.1.xsd, so a tool written for `lttng --mi xml`
 * reads it unchanged:
 *
 *   <command xmlns="https://lttng.org/xml/ns/lttng-mi" ... schemaVersion="4.1">
 *     <name>list</name>              LTTng's name of the command
 *     <output>...</output>           its result objects
 *     <success>true</success>        exit status 0
 *   </command>
 *
 * Messages are not in it (LTTng's schema has no place for them);
 * warnings and errors go to stderr as in text mode.  The commands LTTng
 * lacks (help, wait-trigger) write ltt's own document (xml/mi.xsd, no
 * namespace), with messages, warnings, errors and the exit status.  With
 * no command (an unknown one, a bad global option) or one whose output is
 * no document (view, export-maps), stdout gets nothing, as from LTTng.
 *
 * The document is built in memory and written at the end, so stdout
 * gets a whole document or nothing.
 *
 * The writer is this file's own, not libxml2's (which would bring ICU,
 * liblzma and libstdc++ into every run of lttctl): an element per line,
 * indented two spaces a level, an empty one as <name/>, text with
 * & < > " and CR escaped.  out.c hands it valid UTF-8 without control
 * characters but newline and tab (common/base/escape.h), so nothing else
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
	const struct xml_vocabulary *vocab;	/* NULL: no document */
	const char *command;		/* <name> */
	const char *schema;		/* LTTng's MI version; NULL: LTTNG_MI_VERSION */
} xml;

/* LTTng's namespace, and where its schema is published (a version follows). */
#define LTTNG_MI_NS "https://lttng.org/xml/ns/lttng-mi"
#define LTTNG_MI_ROOT_ATTRS                                                        \
	" xmlns=\"" LTTNG_MI_NS "\""                                               \
	" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""                  \
	" xsi:schemaLocation=\"" LTTNG_MI_NS                                        \
	" https://lttng.org/xml/schemas/lttng-mi/4/lttng-mi-"
#define LTTNG_MI_VERSION "4.1"
/* ltt's own documents: no namespace, the version of xml/mi.xsd. */
#define LTT_MI_ROOT_ATTRS " version=\"2.0\""

/* Whose document a command writes. */
struct xml_vocabulary {
	const char *root_attrs;
	bool ltt;		/* ltt's: messages, warnings, errors, exit status */
	bool no_success;	/* no <success> (LTTng's list-triggers writes none) */
};

static const struct xml_vocabulary lttng_mi = { LTTNG_MI_ROOT_ATTRS, false, false };
static const struct xml_vocabulary lttng_mi_bare = { LTTNG_MI_ROOT_ATTRS, false, true };
static const struct xml_vocabulary ltt_mi = { LTT_MI_ROOT_ATTRS, true, false };

/*
 * Every command with a document: its <name> there and its vocabulary.
 * LTTng names status (its list of the current session) and
 * list-triggers otherwise in its MI.
 */
static const struct {
	const char *command, *name;
	const struct xml_vocabulary *vocab;
} documents[] = {
	{ "add-context", "add-context", &lttng_mi },
	{ "add-trigger", "add-trigger", &lttng_mi },
	{ "clear", "clear", &lttng_mi },
	{ "create", "create", &lttng_mi },
	{ "destroy", "destroy", &lttng_mi },
	{ "disable-channel", "disable-channel", &lttng_mi },
	{ "disable-event", "disable-event", &lttng_mi },
	{ "disable-rotation", "disable-rotation", &lttng_mi },
	{ "enable-channel", "enable-channel", &lttng_mi },
	{ "enable-event", "enable-event", &lttng_mi },
	{ "enable-rotation", "enable-rotation", &lttng_mi },
	{ "list", "list", &lttng_mi },
	{ "list-triggers", "list-trigger", &lttng_mi_bare },
	{ "load", "load", &lttng_mi },
	{ "metadata", "metadata", &lttng_mi },
	{ "regenerate", "regenerate", &lttng_mi },
	{ "remove-trigger", "remove-trigger", &lttng_mi },
	{ "rotate", "rotate", &lttng_mi },
	{ "save", "save", &lttng_mi },
	{ "set-session", "set-session", &lttng_mi },
	{ "snapshot", "snapshot", &lttng_mi },
	{ "start", "start", &lttng_mi },
	{ "status", "list", &lttng_mi },
	{ "stop", "stop", &lttng_mi },
	{ "track", "track", &lttng_mi },
	{ "untrack", "untrack", &lttng_mi },
	{ "version", "version", &lttng_mi },
	{ "help", "help", &ltt_mi },
	{ "wait-trigger", "wait-trigger", &ltt_mi },
	{ "reclaim-memory", "reclaim-memory", &ltt_mi },
	{ "add-map-channel", "add-map-channel", &ltt_mi },
	{ "show-maps", "show-maps", &ltt_mi },
};

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
	put(xml.vocab ? xml.vocab->root_attrs : "");
	if (xml.vocab && !xml.vocab->ltt) {	/* the schema's version, twice */
		put(xml.schema ? xml.schema : LTTNG_MI_VERSION);
		put(".xsd\" schemaVersion=\"");
		put(xml.schema ? xml.schema : LTTNG_MI_VERSION);
		put("\"");
	}
	if (xml.command)
		element("name", xml.command);
	start_element("output");
}

static void xml_schema(const char *version)
{
	xml.schema = version;
}

static void xml_begin(const char *command)
{
	size_t i;

	xml.vocab = NULL;
	xml.command = NULL;
	for (i = 0; command && i < sizeof(documents) / sizeof(documents[0]); i++) {
		if (!strcmp(documents[i].command, command)) {
			xml.vocab = documents[i].vocab;
			xml.command = documents[i].name;
		}
	}
}

static void xml_message(enum ctl_out_msg level, int code, const char *text,
			const char *usage)
{
	struct xml_message *msgs, *m;

	if (level != CTL_OUT_MSG_INFO) {
		fflush(stdout);
		fprintf(stderr, "%s: %s\n", level == CTL_OUT_MSG_ERROR ? "Error" : "Warning", text);
	}
	if (!xml.vocab || !xml.vocab->ltt)
		return;	/* LTTng's documents have no messages */
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
	if (xml.vocab && xml.vocab->ltt) {
		write_messages(CTL_OUT_MSG_INFO, "messages", "message");
		write_messages(CTL_OUT_MSG_WARNING, "warnings", "warning");
		write_messages(CTL_OUT_MSG_ERROR, "errors", "error");
	}
	if (!xml.vocab || !xml.vocab->no_success)
		element("success", status ? "false" : "true");
	if (xml.vocab && xml.vocab->ltt) {
		snprintf(text, sizeof(text), "%d", status);
		element("exitStatus", text);
	}
	end_element(false);	/* command */
	free_messages();
	if (!xml.vocab) {
		/* no document to write: the error is on stderr */
	} else if (xml.failed) {
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
	xml.command = NULL;
	xml.vocab = NULL;
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
	.schema = xml_schema,
};
