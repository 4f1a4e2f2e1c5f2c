// SPDX-License-Identifier: LGPL-2.1-only
/*
 * out.c - lttctl's output: format the messages, keep objects balanced,
 * and hand everything to the active implementation (out-impl.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "common/base/escape.h"
#include "ctl/ctl.h"
#include "ctl/out-impl.h"

#define MAX_DEPTH 16

static struct {
	enum ctl_out_format format;
	const struct ctl_out_ops *ops;
	bool quiet;
	int depth;		/* objects open */
	int skipped;		/* opened past MAX_DEPTH: ignored, balanced */
} out = { .format = CTL_OUT_TEXT, .ops = &ctl_out_text_ops };

int ctl_out_format_parse(const char *name, enum ctl_out_format *ret_format)
{
	if (strcasecmp(name, "xml"))
		return -EINVAL;
	*ret_format = CTL_OUT_XML;
	return 0;
}

void ctl_out_init(enum ctl_out_format format, bool quiet)
{
	out.format = format;
	out.ops = format == CTL_OUT_XML ? &ctl_out_xml_ops : &ctl_out_text_ops;
	out.quiet = quiet;
}

enum ctl_out_format ctl_out_format(void)
{
	return out.format;
}

void ctl_out_begin(const char *command)
{
	out.ops->begin(command);
}

void ctl_out_schema(const char *version)
{
	if (out.ops->schema)
		out.ops->schema(version);
}

int ctl_out_end(int status)
{
	int ret;

	while (out.depth)
		ctl_out_close();
	ret = out.ops->end(status);
	if (ret) {
		fprintf(stderr, "lttctl: standard output: %s\n", strerror(-ret));
		return status ? status : CTL_EXIT_FAILURE;
	}
	return status;
}

/*
 * @fmt formatted with its string arguments escaped; NULL: out of memory.
 * An error quotes a user's words ('%s') only in part: a 10,000-byte
 * argument is not echoed whole (LTT_ESCAPE_CAP_QUOTED).
 */
__attribute__((format(printf, 2, 0)))
static char *format(unsigned int flags, const char *fmt, va_list ap)
{
	return ltt_escape_vasprintf(flags, fmt, ap);
}

void ctl_out_vmessage(enum ctl_out_msg level, int code, const char *usage,
		      const char *fmt, va_list ap)
{
	char *text;

	if (level == CTL_OUT_MSG_INFO && out.quiet)
		return;
	text = format(level == CTL_OUT_MSG_ERROR ? LTT_ESCAPE_CAP_QUOTED : 0, fmt, ap);
	if (code < 0)
		code = -code;
	out.ops->message(level, code, text ? text : ltt_strerror(LTT_ERR_NOMEM), usage);
	free(text);
}

void ctl_out_vtext(const char *fmt, va_list ap)
{
	char *text = format(0, fmt, ap);

	out.ops->text(text ? text : ltt_strerror(LTT_ERR_NOMEM));
	free(text);
}

void ctl_out_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_INFO, 0, NULL, fmt, ap);
	va_end(ap);
}

void ctl_out_text(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vtext(fmt, ap);
	va_end(ap);
}

void ctl_out_raw(const char *text)
{
	out.ops->text(text);
}

void ctl_out_warn(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_WARNING, code, NULL, fmt, ap);
	va_end(ap);
}

void ctl_out_error(int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_ERROR, code, NULL, fmt, ap);
	va_end(ap);
}

int ctl_out_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_ERROR, LTT_ERR_USAGE, usage, fmt, ap);
	va_end(ap);
	return CTL_EXIT_USAGE;
}

void ctl_out_open(const char *element)
{
	if (out.depth >= MAX_DEPTH) {
		out.skipped++;
		return;
	}
	out.depth++;
	out.ops->open(element);
}

void ctl_out_close(void)
{
	if (out.skipped) {
		out.skipped--;
		return;
	}
	if (!out.depth)
		return;
	out.depth--;
	out.ops->close();
}

void ctl_out_str(const char *name, const char *value)
{
	char *text;

	if (!value || out.skipped)
		return;
	text = malloc(LTT_ESCAPE_SIZE(strlen(value)));
	if (!text)
		return;
	out.ops->field(name, ltt_escape(value, text, LTT_ESCAPE_SIZE(strlen(value)), 0));
	free(text);
}

void ctl_out_u64(const char *name, uint64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRIu64, value);
	if (!out.skipped)
		out.ops->field(name, buf);
}

void ctl_out_i64(const char *name, int64_t value)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%" PRId64, value);
	if (!out.skipped)
		out.ops->field(name, buf);
}

void ctl_out_bool(const char *name, bool value)
{
	if (!out.skipped)
		out.ops->field(name, value ? "true" : "false");
}
