/* SPDX-License-Identifier: LGPL-2.1-only */
/*
 * out.h - everything lttctl says goes through here: one output
 * abstraction, two implementations.
 *
 *   text (out-text.c)  today's human output: prose on stdout, warnings
 *                      and errors on stderr
 *   xml  (out-xml.c)   --mi xml: one XML document on stdout per run,
 *                      valid against xml/mi.xsd (doc/mi.md)
 *
 * A command describes what it has to say once, without asking which
 * implementation is active:
 *
 *   - result objects: ctl_out_open("session") ... ctl_out_str("name", ...)
 *     ... ctl_out_close().  Objects nest (a list is an object whose
 *     children are objects).  The XML implementation writes them as
 *     elements; the text implementation ignores them.
 *   - human text: ctl_out_text(), the way a result reads for a person
 *     (list's lines).  The text implementation prints it; the XML one
 *     ignores it, since the objects carry the same facts.
 *   - informational messages: ctl_out_info() ("Session a created.").
 *   - warnings and errors with their ltt error code: ctl_out_warn(),
 *     ctl_out_error(), ctl_out_usage_error().
 *
 * main() calls ctl_out_init() once the format is known, ctl_out_begin()
 * with the command's name and ctl_out_end() with the exit status; the
 * XML document is complete (success flag, exit status) only then.
 *
 * Strings given to the text implementation are escaped with ltt_escape()
 * (format arguments only; the format's own text is kept); the XML
 * implementation escapes every string the same way, so a document is
 * always well-formed whatever bytes a name, path or program name holds.
 *
 * Not thread-safe: lttctl is single-threaded.
 */
#ifndef LTT_CTL_OUT_H
#define LTT_CTL_OUT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

enum ctl_out_format {
	CTL_OUT_TEXT = 0,
	CTL_OUT_XML,
};

/**
 * ctl_out_format_parse() - the format of "--mi NAME"
 * @name: "xml" in any case ("XML", as LTTng takes it: the only machine
 *        interface)
 * @ret_format: the format
 *
 * Returns 0, or -EINVAL for any other name.
 */
int ctl_out_format_parse(const char *name, enum ctl_out_format *ret_format);

/**
 * ctl_out_init() - choose the implementation; before any other call
 * @format: text (the default, also without a call) or XML
 * @quiet: -q: no informational message (text and XML alike)
 *
 * May be called again before ctl_out_begin() (-q after --mi).
 */
void ctl_out_init(enum ctl_out_format format, bool quiet);

/**
 * ctl_out_format() - the active format: for what a format can't do at
 * all (view refuses --mi; progress dots only make sense on a terminal)
 */
enum ctl_out_format ctl_out_format(void);

/**
 * ctl_out_begin() - the command this run is about (the document's
 * <name>); NULL or never called when no command was found
 */
void ctl_out_begin(const char *command);

/**
 * ctl_out_end() - finish the run: XML writes its whole document on stdout
 * (with <success> and <exitStatus>); text only flushes stdout
 * @status: the command's exit status
 *
 * Objects left open are closed.  Returns @status, or CTL_EXIT_FAILURE
 * when stdout could not be written (after saying so on stderr).
 */
int ctl_out_end(int status);

/**
 * ctl_out_info() - an informational line: "Session a created."
 *
 * Text: on stdout, with a newline added; XML: a <message>.  Nothing
 * under -q.
 */
void ctl_out_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ctl_out_text() - human text, printed as is by the text implementation
 * (no newline added), ignored by the XML one: describe the same facts
 * with result objects
 */
void ctl_out_text(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/**
 * ctl_out_raw() - ctl_out_text() of a text of lttctl's own (help), taken
 * as it is: nothing is escaped
 */
void ctl_out_raw(const char *text);

/**
 * ctl_out_warn() - a warning: the command goes on
 * @code: its LTT_ERR_* code (negated or not)
 *
 * Text: "Warning: <message>" on stderr, after flushing stdout; XML: a
 * <warning> with code, name and message (and the same line on stderr).
 */
void ctl_out_warn(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * ctl_out_error() - an error: what failed, naming the object, e.g.
 * ctl_out_error(ret, "session '%s': %s", name, ltt_strerror(ret))
 * @code: its LTT_ERR_* code (negated or not); LTT_ERR_UNKNOWN when no
 *        code fits
 *
 * Text: "Error: <message>" on stderr, after flushing stdout; XML: an
 * <error> with code, name and message (and the same line on stderr).
 */
void ctl_out_error(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/**
 * ctl_out_usage_error() - a usage error: ctl_out_error() with the code
 * LTT_ERR_USAGE, then the usage line of @usage ("Usage: lttctl ...")
 *
 * Returns CTL_EXIT_USAGE, for "return ctl_out_usage_error(...)".
 */
int ctl_out_usage_error(const char *usage, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The kinds of message. */
enum ctl_out_msg {
	CTL_OUT_MSG_INFO,
	CTL_OUT_MSG_WARNING,
	CTL_OUT_MSG_ERROR,
};

/**
 * ctl_out_vmessage() - what ctl_out_info(), ctl_out_warn(), ctl_out_error()
 * and ctl_out_usage_error() do, with a va_list (for wrappers)
 * @code: 0 for CTL_OUT_MSG_INFO
 * @usage: NULL, or the usage line of a usage error (no newline)
 */
void ctl_out_vmessage(enum ctl_out_msg level, int code, const char *usage,
		      const char *fmt, va_list ap) __attribute__((format(printf, 4, 0)));

/**
 * ctl_out_vtext() - ctl_out_text() with a va_list
 */
void ctl_out_vtext(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

/**
 * ctl_out_schema() - the version of LTTng's MI schema the document says
 * it follows ("4.1", LTTng 2.13's, unless a command calls this before
 * its first output because it writes a newer schema's elements: "4.2",
 * LTTng 2.15's, for list --mem-usage).  Text: nothing.
 */
void ctl_out_schema(const char *version);

/**
 * ctl_out_open() - open a result object (or list) named @element
 *
 * @element is an element name of xml/mi.xsd ("session", "channels").
 * Close it with ctl_out_close(); at most 16 levels.
 */
void ctl_out_open(const char *element);

/**
 * ctl_out_close() - close the innermost object
 */
void ctl_out_close(void);

/**
 * ctl_out_str() - a string property of the open object
 * @value: NULL writes nothing
 */
void ctl_out_str(const char *name, const char *value);

/**
 * ctl_out_u64() - an unsigned property of the open object
 */
void ctl_out_u64(const char *name, uint64_t value);

/**
 * ctl_out_i64() - a signed property of the open object
 */
void ctl_out_i64(const char *name, int64_t value);

/**
 * ctl_out_bool() - a boolean property ("true"/"false") of the open object
 */
void ctl_out_bool(const char *name, bool value);

#endif /* LTT_CTL_OUT_H */
