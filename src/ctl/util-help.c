// SPDX-License-Identifier: LGPL-2.1-only
/*
 * util-help.c - the commands' usage lines, --help and the option lists
 * for completion (--list-options): what lttctl prints about itself.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctl/ctl.h"
#include "ctl/util.h"

#define GLOBAL_USAGE "[OPTION...] COMMAND [ARG...]"
#define HELP_COLUMN 30	/* where option descriptions start */
#define HELP_WIDTH 79

/* "Usage: lttctl CMD ARGS" of @cmd (NULL: lttctl's own), without newline. */
static void format_usage(const struct ctl_cmd *cmd, char *buf, size_t len)
{
	if (!cmd)
		snprintf(buf, len, "Usage: lttctl %s", GLOBAL_USAGE);
	else if (!*cmd->usage)
		snprintf(buf, len, "Usage: lttctl %s", cmd->name);
	else
		snprintf(buf, len, "Usage: lttctl %s %s", cmd->name, cmd->usage);
}

int ctl_util_usage_error(const struct ctl_ctx *ctx, const char *fmt, ...)
{
	char usage[1024];
	va_list ap;

	format_usage(ctx->cmd, usage, sizeof(usage));
	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_ERROR, LTT_ERR_USAGE, usage, fmt, ap);
	va_end(ap);
	return CTL_EXIT_USAGE;
}

void ctl_util_print_usage(FILE *fp, const struct ctl_cmd *cmd)
{
	char usage[1024];

	format_usage(cmd, usage, sizeof(usage));
	fprintf(fp, "%s\n", usage);
}

/* "  -s, --session=NAME", "      --live[=US]" */
static void format_option(const struct poptOption *opt, char *buf, size_t len)
{
	bool has_arg = (opt->argInfo & POPT_ARG_MASK) != POPT_ARG_NONE;
	const char *arg = opt->argDescrip ? opt->argDescrip : "ARG";
	size_t n;

	if (opt->shortName && opt->longName)
		snprintf(buf, len, "  -%c, --%s", opt->shortName, opt->longName);
	else if (opt->shortName)
		snprintf(buf, len, "  -%c", opt->shortName);
	else
		snprintf(buf, len, "      --%s", opt->longName);
	if (!has_arg)
		return;
	n = strlen(buf);
	if (opt->argInfo & POPT_ARGFLAG_OPTIONAL)
		snprintf(buf + n, len - n, "[=%s]", arg);
	else
		snprintf(buf + n, len - n, "%c%s", opt->longName ? '=' : ' ', arg);
}

/* @text from column @indent on, its words wrapped before HELP_WIDTH. */
static void print_wrapped(FILE *fp, const char *text, size_t indent)
{
	size_t col = indent, len;

	for (text += strspn(text, " "); *text; text += strspn(text, " ")) {
		len = strcspn(text, " ");
		if (col > indent && col + 1 + len > HELP_WIDTH) {
			fprintf(fp, "\n%*s", (int)indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', fp);
			col++;
		}
		fwrite(text, 1, len, fp);
		col += len;
		text += len;
	}
	fputc('\n', fp);
}

void ctl_util_print_options(FILE *fp, const struct poptOption *options)
{
	const struct poptOption *opt;
	char left[128];

	for (opt = options; opt->longName || opt->shortName; opt++) {
		format_option(opt, left, sizeof(left));
		if (strlen(left) < HELP_COLUMN)
			fprintf(fp, "%-*s", HELP_COLUMN, left);
		else
			fprintf(fp, "%s\n%-*s", left, HELP_COLUMN, "");
		print_wrapped(fp, opt->descrip, HELP_COLUMN);
	}
}

/* The options of @options as result objects. */
static void out_options(const struct poptOption *options)
{
	const struct poptOption *opt;
	char c[2] = "";

	ctl_out_open("options");
	for (opt = options; opt->longName || opt->shortName; opt++) {
		ctl_out_open("option");
		ctl_out_str("long", opt->longName);
		c[0] = opt->shortName;
		ctl_out_str("short", opt->shortName ? c : NULL);
		if ((opt->argInfo & POPT_ARG_MASK) != POPT_ARG_NONE)
			ctl_out_str("argument", opt->argDescrip ? opt->argDescrip : "ARG");
		ctl_out_bool("argumentOptional", opt->argInfo & POPT_ARGFLAG_OPTIONAL);
		ctl_out_str("description", opt->descrip);
		ctl_out_close();
	}
	ctl_out_close();
}

/* @cmd's help (NULL: lttctl's, then @list if any) as text, in @fp. */
static void print_help(FILE *fp, const struct ctl_cmd *cmd, const struct ctl_help_list *list,
		       const struct poptOption *options, const char *footer)
{
	ctl_util_print_usage(fp, cmd);
	if (cmd)
		fprintf(fp, "\n%s.\n\nOptions:\n", cmd->summary);
	else if (options)
		fputs("\nOptions:\n", fp);
	else
		fputc('\n', fp);
	if (options)
		ctl_util_print_options(fp, options);
	if (list) {
		if (options)
			fputc('\n', fp);
		list->print(fp);
	}
	if (footer)
		fputs(footer, fp);
}

/* ctl_util_help() and ctl_util_help_all(): @cmd's, or lttctl's and @list. */
static void help(const struct ctl_cmd *cmd, const struct ctl_help_list *list,
		 const struct poptOption *options, const char *footer)
{
	char usage[1024], *text = NULL;
	size_t len;
	FILE *fp;

	fp = open_memstream(&text, &len);
	if (fp) {
		print_help(fp, cmd, list, options, footer);
		if (fclose(fp))
			text = NULL;
	}
	ctl_out_raw(text ? text : ltt_strerror(LTT_ERR_NOMEM));
	free(text);
	ctl_out_begin("help");	/* help's document is ltt's (LTTng's MI has none) */
	ctl_out_open("help");
	format_usage(cmd, usage, sizeof(usage));
	ctl_out_str("usage", usage);
	ctl_out_str("summary", cmd ? cmd->summary : NULL);
	if (options)
		out_options(options);
	if (list)
		list->out();
	ctl_out_close();
}

void ctl_util_help(const struct ctl_cmd *cmd, const struct poptOption *options,
		   const char *footer)
{
	help(cmd, NULL, options, footer);
}

void ctl_util_help_all(const struct ctl_help_list *list, const struct poptOption *options,
		       const char *footer)
{
	help(NULL, list, options, footer);
}

void ctl_util_print_help(const struct ctl_ctx *ctx, const struct poptOption *options)
{
	ctl_util_help(ctx->cmd, options, NULL);
}

void ctl_util_list_options(FILE *fp, const struct poptOption *options)
{
	const struct poptOption *opt;

	for (opt = options; opt->longName || opt->shortName; opt++) {
		if (opt->longName)
			fprintf(fp, "--%s\n", opt->longName);
		if (opt->shortName)
			fprintf(fp, "-%c\n", opt->shortName);
	}
}

int ctl_util_names_only(const char *option)
{
	if (ctl_out_format() == CTL_OUT_TEXT)
		return CTL_EXIT_OK;
	ctl_out_error(LTT_ERR_MI_UNSUPPORTED, "%s prints names for scripts, one per line, "
		      "and has no machine interface output: run it without --mi", option);
	return CTL_EXIT_FAILURE;
}
