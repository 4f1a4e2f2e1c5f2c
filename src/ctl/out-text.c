// SPDX-License-Identifier: LGPL-2.1-only
/*
 * out-text.c - lttctl's human output: prose and informational lines on
 * stdout, warnings and errors on stderr; result objects are not printed
 * (the commands' text says the same for a person).
 */
#include <errno.h>
#include <stdio.h>

#include "ctl/out-impl.h"

static void text_begin(const char *command)
{
	(void)command;
}

static void text_message(enum ctl_out_msg level, int code, const char *text,
			 const char *usage)
{
	(void)code;
	if (level == CTL_OUT_MSG_INFO) {
		fputs(text, stdout);
		putchar('\n');
		return;
	}
	/* After what stdout already holds. */
	fflush(stdout);
	fprintf(stderr, "%s: %s\n", level == CTL_OUT_MSG_ERROR ? "Error" : "Warning", text);
	if (usage)
		fprintf(stderr, "%s\n", usage);
}

static void text_text(const char *text)
{
	fputs(text, stdout);
}

static void text_open(const char *element)
{
	(void)element;
}

static void text_close(void)
{
}

static void text_field(const char *name, const char *value)
{
	(void)name;
	(void)value;
}

static int text_end(int status)
{
	(void)status;
	return fflush(stdout) ? -errno : 0;
}

const struct ctl_out_ops ctl_out_text_ops = {
	.begin = text_begin,
	.message = text_message,
	.text = text_text,
	.open = text_open,
	.close = text_close,
	.field = text_field,
	.end = text_end,
};
