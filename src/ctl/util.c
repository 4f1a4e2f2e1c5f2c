// SPDX-License-Identifier: LGPL-2.1-only
/*
 * util.c - what lttctl's commands share: parsing their command lines and
 * printing errors (their usage and help: util-help.c; connecting and the
 * session a command is about: util-session.c; the event commands' common
 * steps: util-event.c).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/base/escape.h"
#include "common/base/names.h"
#include "common/base/paths.h"
#include "common/base/size.h"
#include "common/model/attr.h"
#include "common/model/uri.h"
#include "common/net/net-module.h"
#include "ctl/ctl.h"
#include "ctl/util.h"

/*
 * The messages below go through the output abstraction (out.h); these
 * wrappers remain for code written before it: new code calls ctl_out_*()
 * with an error code.
 */
void ctl_util_out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vtext(fmt, ap);
	va_end(ap);
}

void ctl_util_eout(const char *fmt, ...)
{
	char *text;
	va_list ap;

	fflush(stdout);
	va_start(ap, fmt);
	text = ltt_escape_vasprintf(0, fmt, ap);
	va_end(ap);
	fputs(text ? text : ltt_strerror(LTT_ERR_NOMEM), stderr);
	free(text);
}

void ctl_util_err(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_ERROR, LTT_ERR_UNKNOWN, NULL, fmt, ap);
	va_end(ap);
}

int ctl_util_object_error(int err, const char *what, const char *name)
{
	ctl_out_error(err, "%s '%s': %s", what, name, ltt_strerror(err));
	return CTL_EXIT_FAILURE;
}

void ctl_util_info(const struct ctl_ctx *ctx, const char *fmt, ...)
{
	va_list ap;

	(void)ctx;	/* -q is the output's (ctl_out_init()) */
	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_INFO, 0, NULL, fmt, ap);
	va_end(ap);
}

static int parse_opts(const struct ctl_ctx *ctx, poptContext pc,
		      const struct poptOption *options, char **values)
{
	int opt;

	while ((opt = poptGetNextOpt(pc)) > 0) {
		if (opt == CTL_OPT_HELP) {
			ctl_util_print_help(ctx, options);
			return CTL_EXIT_OK;
		}
		if (opt == CTL_OPT_LIST_OPTIONS) {
			if (ctl_util_names_only("--list-options"))
				return CTL_EXIT_FAILURE;
			ctl_util_list_options(stdout, options);
			return CTL_EXIT_OK;
		}
		if (opt >= CTL_OPT_GAP)
			return ctl_util_refuse_gap((enum ltt_lttng_gap)(opt - CTL_OPT_GAP));
		assert(values && opt >= CTL_OPT_VALUE);
		free(values[opt - CTL_OPT_VALUE]);
		values[opt - CTL_OPT_VALUE] = poptGetOptArg(pc);
	}
	if (opt < -1)
		return ctl_util_usage_error(ctx, "%s: %s",
					    poptBadOption(pc, POPT_BADOPTION_NOALIAS),
					    poptStrerror(opt));
	return CTL_GO_ON;
}

int ctl_util_parse(const struct ctl_ctx *ctx, int argc, const char **argv,
		   const struct poptOption *options, char **values, poptContext *ret_pc)
{
	/* The command's table, and what every command takes besides. */
	const struct poptOption table[] = {
		{ NULL, 0, POPT_ARG_INCLUDE_TABLE, (void *)(uintptr_t)options, 0, NULL, NULL },
		{ "list-options", 0, POPT_ARG_NONE, NULL, CTL_OPT_LIST_OPTIONS, NULL, NULL },
		POPT_TABLEEND
	};
	poptContext pc;
	int ret;

	pc = poptGetContext(NULL, argc, argv, table, 0);
	if (!pc) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	ret = parse_opts(ctx, pc, options, values);
	if (ret == CTL_GO_ON)
		*ret_pc = pc;
	else
		poptFreeContext(pc);
	return ret;
}

void ctl_util_free_values(char **values, size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++)
		free(values[i]);
}

void ctl_util_free_argv(const char **argv)
{
	size_t i;

	for (i = 0; argv && argv[i]; i++)
		free((void *)argv[i]);
	free(argv);
}

int ctl_util_run(const struct ctl_ctx *ctx, int argc, const char **argv,
		 const struct poptOption *options, char **values, size_t nr_values,
		 ctl_run_fn run, void *arg)
{
	poptContext pc;
	int ret;

	ret = ctl_util_parse(ctx, argc, argv, options, values, &pc);
	if (ret == CTL_GO_ON) {
		ret = run(ctx, pc, arg);
		poptFreeContext(pc);
	}
	if (values)
		ctl_util_free_values(values, nr_values);
	return ret;
}

int ctl_util_args(poptContext pc, const char ***ret_args)
{
	static const char *none[] = { NULL };
	const char **args = poptGetArgs(pc);
	int nr = 0;

	if (!args)
		args = none;
	while (args[nr])
		nr++;
	*ret_args = args;
	return nr;
}

int ctl_util_check_nr_args(const struct ctl_ctx *ctx, const char **args, int nr, int max)
{
	if (nr <= max)
		return CTL_EXIT_OK;
	return ctl_util_usage_error(ctx, "unexpected argument '%s'", args[max]);
}

int ctl_util_domain(const struct ctl_ctx *ctx, bool kernel, bool user,
		    enum ltt_domain *ret_domain)
{
	if (kernel && user)
		return ctl_util_usage_error(ctx, "choose one domain: -k or -u, not both");
	if (!kernel && !user)
		return ctl_util_usage_error(ctx, "a domain is needed: -k (kernel) or -u (user space)");
	*ret_domain = kernel ? LTT_DOMAIN_KERNEL : LTT_DOMAIN_USER;
	return CTL_EXIT_OK;
}

int ctl_util_parse_u64(const char *text, uint64_t max, uint64_t *ret_value)
{
	uint64_t value = 0;
	const char *p;

	if (!*text)
		return -EINVAL;
	for (p = text; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
	}
	for (p = text; *p; p++) {
		unsigned int digit = (unsigned int)(*p - '0');

		if (digit > max || value > (max - digit) / 10)
			return -ERANGE;
		value = value * 10 + digit;
	}
	*ret_value = value;
	return 0;
}

int ctl_util_parse_us(const char *text, uint64_t max_us, uint64_t *ret_us)
{
	/* LTTng's suffixes (lttng-enable-channel(1)): none is microseconds */
	static const struct {
		const char *suffix;
		uint64_t us;
	} units[] = {
		{ "", 1 }, { "us", 1 }, { "ms", 1000 }, { "s", 1000000 },
		{ "m", 60000000 }, { "h", 3600000000ULL },
	};
	size_t digits = strspn(text, "0123456789"), i;
	char number[32];
	uint64_t value;
	int ret;

	if (!digits || digits >= sizeof(number))
		return digits ? -ERANGE : -EINVAL;
	memcpy(number, text, digits);
	number[digits] = '\0';
	for (i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(text + digits, units[i].suffix))
			continue;
		ret = ctl_util_parse_u64(number, max_us / units[i].us, &value);
		if (!ret)
			*ret_us = value * units[i].us;
		return ret;
	}
	return -EINVAL;
}

/* "a,b,c" as one heap block of item pointers and strings; -EINVAL for an empty item. */
static int split_list(const char *text, char ***ret_items, size_t *ret_count)
{
	size_t count = 1, len = strlen(text), i;
	char **items, *copy, *p;
	const char *c;

	for (c = text; *c; c++)
		count += *c == ',';
	items = malloc((count + 1) * sizeof(*items) + len + 1);
	if (!items)
		return -ENOMEM;
	copy = (char *)(items + count + 1);
	memcpy(copy, text, len + 1);
	for (i = 0, p = copy; i < count; i++) {
		items[i] = p;
		p += strcspn(p, ",");
		*p++ = '\0';
		if (!*items[i]) {
			free(items);
			return -EINVAL;
		}
	}
	items[count] = NULL;
	*ret_items = items;
	*ret_count = count;
	return 0;
}

/* Print and return the exit status of the first bad item of @items. */
static int check_items(const struct ctl_ctx *ctx, char **items, size_t count,
		       const char *what, bool (*valid)(const char *), int code)
{
	size_t i, j;

	for (i = 0; i < count; i++) {
		if (!valid(items[i])) {
			ctl_out_error(code, "%s '%s': %s", what, items[i], ltt_strerror(code));
			return CTL_EXIT_FAILURE;
		}
		for (j = 0; j < i; j++) {
			if (!strcmp(items[i], items[j]))
				return ctl_util_usage_error(ctx, "%s '%s' is twice in the list",
							    what, items[i]);
		}
	}
	return CTL_EXIT_OK;
}

int ctl_util_name_list(const struct ctl_ctx *ctx, const char *text, const char *what,
		       bool (*valid)(const char *), int code, char ***ret_items,
		       size_t *ret_count)
{
	size_t count;
	char **items;
	int ret;

	ret = split_list(text, &items, &count);
	if (ret == -ENOMEM) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	if (ret)
		return ctl_util_usage_error(ctx, "empty %s name in the list '%s'", what, text);
	ret = check_items(ctx, items, count, what, valid, code);
	if (ret) {
		free(items);
		return ret;
	}
	*ret_items = items;
	*ret_count = count;
	return CTL_EXIT_OK;
}

int ctl_util_abs_path(const char *path, char *buf, size_t len)
{
	char cwd[LTT_PATH_MAX];
	size_t n;
	int ret;

	if (!*path)
		return -EINVAL;
	if (*path == '/') {
		ret = snprintf(buf, len, "%s", path) < (int)len ? 0 : -ENAMETOOLONG;
	} else if (!getcwd(cwd, sizeof(cwd))) {
		return errno == ERANGE ? -ENAMETOOLONG : -errno;
	} else {
		while (path[0] == '.' && path[1] == '/')
			path += 2 + strspn(path + 2, "/");
		if (!*path || !strcmp(path, "."))
			ret = snprintf(buf, len, "%s", cwd) < (int)len ? 0 : -ENAMETOOLONG;
		else
			ret = ltt_path_join(buf, len, strcmp(cwd, "/") ? cwd : "", path);
	}
	/* "dir/" is "dir"; "/" stays. */
	for (n = strlen(buf); !ret && n > 1 && buf[n - 1] == '/'; n--)
		buf[n - 1] = '\0';
	return ret;
}

/* Say why @name is no session name; CTL_EXIT_FAILURE. */
static int bad_session_name(const char *name)
{
	const char *what;
	uint32_t cp;

	what = ltt_name_hidden_char(name, &cp);
	if (!what)
		return ctl_util_object_error(LTT_ERR_SESSION_NAME, "session", name);
	ctl_out_error(LTT_ERR_SESSION_NAME,
		      "session '%s': invalid session name: it holds U+%04X (%s), "
		      "so it could pass for another name on screen; remove that character",
		      name, (unsigned int)cp, what);
	return CTL_EXIT_FAILURE;
}

int ctl_util_check_session_name(const char *name)
{
	if (ltt_session_name_valid(name))
		return CTL_EXIT_OK;
	return bad_session_name(name);
}

int ctl_util_check_session_ref(const char *name)
{
	if (ltt_session_ref_valid(name))
		return CTL_EXIT_OK;
	return bad_session_name(name);
}

void ctl_util_rc_err(int err)
{
	char path[LTT_PATH_MAX];

	if (ctl_rc_path(path, sizeof(path)))
		snprintf(path, sizeof(path), "$LTT_HOME/%s", LTT_RC_NAME);
	if (err == -EINVAL)
		ctl_out_error(LTT_ERR_CURRENT_SESSION_FILE,
			      "current session file %s: it holds an invalid session name; "
			      "use 'lttctl set-session NAME'", path);
	else
		ctl_out_error(LTT_ERR_CURRENT_SESSION_FILE, "current session file %s: %s", path,
			      strerror(-err));
}

int ctl_util_refuse_gap(enum ltt_lttng_gap gap)
{
	char why[512];

	ctl_out_error(LTT_ERR_LTTNG_UNSUPPORTED, "%s",
		      ltt_lttng_gap_sentence(gap, LTT_LTTNG_GAP_CLI, why,
					     sizeof(why)));
	return CTL_EXIT_FAILURE;
}

int ctl_util_run_args(const struct ctl_ctx *ctx, int argc, const char **argv, int max,
		      int (*run)(const struct ctl_ctx *ctx, const char **args, int nr))
{
	static const struct poptOption help_only[] = {
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};
	const char **args;
	poptContext pc;
	int ret, nr;

	ret = ctl_util_parse(ctx, argc, argv, help_only, NULL, &pc);
	if (ret != CTL_GO_ON)
		return ret;
	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, max);
	if (!ret)
		ret = run(ctx, args, nr);
	poptFreeContext(pc);
	return ret;
}

/* An error of save or load, with the library's detail (file, line, session). */
void ctl_util_config_err(struct ltt_ctl *ctl, const char *what, int ret)
{
	const char *d = ltt_ctl_error_detail(ctl);

	if (d && *d)
		ctl_out_error(ret, "%s: %s: %s", what, d, ltt_strerror(ret));
	else
		ctl_out_error(ret, "%s: %s", what, ltt_strerror(ret));
}

void ctl_util_warn_idle_exclusion(const char *pattern, const char *list)
{
	char name[LTT_NAME_MAX];

	if (ltt_attr_idle_exclusion(pattern, list, name, sizeof(name)))
		ctl_out_warn(LTT_ERR_EXCLUSION, "the exclusion '%s' excludes no event of the "
			     "pattern '%s': check its spelling", name, pattern);
}

int ctl_util_check_filter(const char *filter)
{
	char msg[LTT_FILTER_MAX + 512];
	char *lines;
	size_t len;
	int ret;

	ret = ltt_ctl_filter_check(filter, msg, sizeof(msg));
	if (ret == -LTT_ERR_FILTER) {
		/* "MESSAGE\n  EXPRESSION\n  ^\n": the message, then the caret lines */
		lines = strchr(msg, '\n');
		if (lines)
			*lines++ = '\0';
		len = lines ? strlen(lines) : 0;
		if (len && lines[len - 1] == '\n')
			lines[len - 1] = '\0';
		ctl_util_error_detail(LTT_ERR_FILTER, lines, "invalid filter: %s", msg);
		return CTL_EXIT_FAILURE;
	}
	if (ret) {
		ctl_out_error(ret, "filter: %s", ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	return CTL_EXIT_OK;
}

void ctl_util_error_detail(int code, const char *detail, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ctl_out_vmessage(CTL_OUT_MSG_ERROR, code, detail, fmt, ap);
	va_end(ap);
}

int ctl_util_output_of(const char *dir, const char *url, enum ltt_output_type *ret_type,
		       char *buf, size_t size)
{
	struct ltt_uri uri;

	if (dir) {
		if (ctl_util_abs_path(dir, buf, size))
			return ctl_util_object_error(LTT_ERR_OUTPUT_PATH, "output directory", dir);
		*ret_type = LTT_OUTPUT_LOCAL;
		return CTL_EXIT_OK;
	}
	/* tcp:// names one port of a relay: not an output of its own. */
	if (strlen(url) >= size || ltt_uri_parse(url, &uri) || uri.scheme == LTT_URI_TCP)
		return ctl_util_object_error(LTT_ERR_URL, "URL", url);
	*ret_type = uri.scheme == LTT_URI_FILE ? LTT_OUTPUT_LOCAL : LTT_OUTPUT_NET;
	snprintf(buf, size, "%s", uri.scheme == LTT_URI_FILE ? uri.path : url);
	return CTL_EXIT_OK;
}

int ctl_util_snapshot_where(const char *dir, const char *url, struct ltt_snapshot_output *out)
{
	/* an absolute path where a URL goes: a local directory, as LTTng takes it */
	if (url && url[0] == '/') {
		dir = url;
		url = NULL;
	}
	if (!dir && !url)
		return CTL_EXIT_OK;
	return ctl_util_output_of(dir, url, &out->output_type, out->output, sizeof(out->output));
}

int ctl_util_parse_port_url(const char *text, struct ltt_uri *ret_uri, bool *tls)
{
	char buf[LTT_URI_TEXT_SIZE];

	if (strncmp(text, "tls", 3) || strlen(text) >= sizeof(buf))
		return ltt_uri_parse(text, ret_uri);
	snprintf(buf, sizeof(buf), "tcp%s", text + 3);
	*tls = true;
	return ltt_uri_parse(buf, ret_uri);
}

int ctl_util_tls_files(char *const *values, char paths[3][LTT_PATH_MAX],
		       const struct ltt_net_module **ret_net, struct ltt_xport_ctx **ret_tls,
		       const char *outcome)
{
	static const char *const opt[3] = { "--tls-cert", "--tls-key", "--tls-ca" };
	struct ltt_xport_tls_files f = { paths[0], paths[1], paths[2] };
	char why[LTT_PATH_MAX + LTT_XPORT_ERR_MAX];
	const struct ltt_net_module *net;
	struct ltt_xport_ctx *tls;
	int i;

	for (i = 0; i < 3; i++) {
		if (ctl_util_abs_path(values[i], paths[i], LTT_PATH_MAX)) {
			ctl_out_error(LTT_ERR_TLS_FILES, "%s '%s': not a usable path%s", opt[i],
				      values[i], outcome);
			return CTL_EXIT_FAILURE;
		}
	}
	if (ltt_net_module_get(&net, why, sizeof(why))) {
		ctl_out_error(LTT_ERR_TLS_MODULE, "%s: %s%s", why, ltt_strerror(LTT_ERR_TLS_MODULE),
			      outcome);
		return CTL_EXIT_FAILURE;
	}
	if (net->ctx_create(&f, false, why, sizeof(why), &tls)) {
		ctl_out_error(LTT_ERR_TLS_FILES, "%s%s", why, outcome);
		return CTL_EXIT_FAILURE;
	}
	if (ret_net)
		*ret_net = net;
	if (ret_tls)
		*ret_tls = tls;
	else
		net->ctx_destroy(tls);
	return CTL_EXIT_OK;
}

int ctl_util_url_pair(const char *ctrl, const char *data, char *buf, size_t len)
{
	struct ltt_uri c, d, net;
	bool ctls = false, dtls = false;

	if (ctl_util_parse_port_url(ctrl, &c, &ctls) || c.scheme != LTT_URI_TCP)
		return ctl_util_object_error(LTT_ERR_URL_PAIR, "control URL", ctrl);
	c.tls = ctls;
	if (ctl_util_parse_port_url(data, &d, &dtls) || d.scheme != LTT_URI_TCP || ctls != dtls ||
	    ltt_uri_net_from_tcp(&c, &d, &net) || ltt_uri_format(&net, buf, len))
		return ctl_util_object_error(LTT_ERR_URL_PAIR, "data URL", data);
	return CTL_EXIT_OK;
}

void ctl_util_trigger_error(const char *trigger, int code)
{
	if (code == -LTT_ERR_NOT_SUPPORTED || code == LTT_ERR_NOT_SUPPORTED)
		ctl_out_error(code, "the session daemon is too old for triggers (they need client "
			      "protocol 1.18): upgrade ltt-sessiond");
	else if (trigger && *trigger)
		ctl_out_error(code, "trigger '%s': %s", trigger, ltt_strerror(code));
	else
		ctl_out_error(code, "trigger: %s", ltt_strerror(code));
}

const char *ctl_util_capture(const struct ltt_trigger_condition *c, uint32_t i)
{
	return i < c->nr_captures ? c->captures[i] : c->more_captures[i - c->nr_captures];
}

const struct ltt_capture_value *ctl_util_capture_value(const struct ltt_notification *n,
							uint32_t i)
{
	return i < n->nr_captures ? &n->captures[i] : &n->more_captures[i - n->nr_captures];
}
