// SPDX-License-Identifier: LGPL-2.1-only
/*
 * view.c - lttctl view: read a session's trace, or the trace directory
 * of -t, with babeltrace2 (or another reader given with -e); or, with
 * --live tls://..., serve the local bridge (ctl/bridge.h) through which
 * babeltrace2 reads a TLS relay's live sessions.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/model/uri.h"
#include "common/net/net-module.h"
#include "ctl/bridge.h"
#include "ctl/ctl.h"
#include "ctl/util-session.h"
#include "ctl/util.h"

#define MAX_READER_ARGS 32

enum {
	VAL_READER, VAL_TRACE_PATH, VAL_LIVE, VAL_BRIDGE_PORT,
	VAL_TLS_CERT, VAL_TLS_KEY, VAL_TLS_CA, NR_VALS
};

/* Run @reader (split on spaces) with @path as its last argument. */
static int run_reader(const char *reader, const char *path)
{
	char *copy = strdup(reader), *save = NULL, *word;
	char *argv[MAX_READER_ARGS + 2];
	int argc = 0;

	if (!copy) {
		ctl_out_error(LTT_ERR_NOMEM, "out of memory");
		return CTL_EXIT_FAILURE;
	}
	for (word = strtok_r(copy, " \t", &save); word && argc < MAX_READER_ARGS;
	     word = strtok_r(NULL, " \t", &save))
		argv[argc++] = word;
	if (!argc) {
		free(copy);
		ctl_out_error(LTT_ERR_USAGE, "the reader command is empty");
		return CTL_EXIT_USAGE;
	}
	argv[argc++] = (char *)path;
	argv[argc] = NULL;
	fflush(stdout);
	execvp(argv[0], argv);
	ctl_out_error(LTT_ERR_UNKNOWN, "can't run the trace reader '%s': %s%s", argv[0],
		      strerror(errno),
		      errno == ENOENT ? " (install babeltrace2, or give another reader with -e)" : "");
	free(copy);
	return CTL_EXIT_FAILURE;
}

/* view -t DIR: the reader on DIR, no session asked (LTTng's --trace-path). */
static int view_path(const struct ctl_ctx *ctx, poptContext pc, const char *reader,
		     const char *dir)
{
	const char **args;

	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "give a session NAME or -t DIR, not both");
	if (access(dir, F_OK)) {
		ctl_out_error(LTT_ERR_UNKNOWN, "trace directory '%s': %s: give the directory of a "
			      "trace (a session's output)", dir, strerror(errno));
		return CTL_EXIT_FAILURE;
	}
	return run_reader(reader, dir);
}

/* The TLS end of --tls-cert, --tls-key, --tls-ca: all three, loaded by the TLS module. */
static int bridge_tls(const struct ctl_ctx *ctx, char **values, const struct ltt_net_module **ret_net,
		      struct ltt_xport_ctx **ret_tls)
{
	char (*paths)[LTT_PATH_MAX];
	int ret;

	if (!values[VAL_TLS_CERT] || !values[VAL_TLS_KEY] || !values[VAL_TLS_CA])
		return ctl_util_usage_error(ctx, "view --live tls://...: give all three of --tls-cert, "
					    "--tls-key and --tls-ca (the CA that signed the relay's "
					    "certificate)");
	paths = malloc(3 * LTT_PATH_MAX);
	if (!paths) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	ret = ctl_util_tls_files(&values[VAL_TLS_CERT], paths, ret_net, ret_tls, "");
	free(paths);
	return ret;
}

/*
 * view --live tls://HOST[:PORT]: the bridge on a loopback port, until
 * interrupted.  A plain relay needs none: babeltrace2 reads it directly.
 */
static int view_live(const struct ctl_ctx *ctx, poptContext pc, char **values)
{
	const struct ltt_net_module *net = NULL;
	struct ltt_xport_ctx *tls = NULL;
	const char *url = values[VAL_LIVE];
	uint64_t lport = 0;
	struct ltt_uri uri;
	const char **args;
	uint16_t port;
	bool is_tls = false;
	int fd, ret;

	if (ctl_util_args(pc, &args))
		return ctl_util_usage_error(ctx, "view --live takes the relay's URL, not a session: "
					    "the bridge serves every live session of the relay");
	if (ctl_util_parse_port_url(url, &uri, &is_tls) || uri.scheme != LTT_URI_TCP || uri.path[0])
		return ctl_util_usage_error(ctx, "view --live '%s': give the relay's live port as "
					    "tls://HOST[:PORT] (5344 by default)", url);
	if (!is_tls)
		return ctl_util_usage_error(ctx, "view --live '%s': a relay that speaks plain TCP needs "
					    "no bridge: babeltrace2 -i lttng-live net://HOST:PORT/host/"
					    "HOSTNAME/SESSION reads it", url);
	if (values[VAL_BRIDGE_PORT] && (ctl_util_parse_u64(values[VAL_BRIDGE_PORT], 65535, &lport) ||
					lport > 65535))
		return ctl_util_usage_error(ctx, "--bridge-port '%s': give a port from 0 (a free one) "
					    "to 65535", values[VAL_BRIDGE_PORT]);
	ret = bridge_tls(ctx, values, &net, &tls);
	if (ret)
		return ret;
	ret = ctl_bridge_listen((uint16_t)lport, &fd, &port);
	if (ret) {
		ctl_out_error(LTT_ERR_UNKNOWN, "live bridge: can't listen on 127.0.0.1:%u: %s",
			      (unsigned int)lport, strerror(-ret));
		net->ctx_destroy(tls);
		return CTL_EXIT_FAILURE;
	}
	if (!uri.ctrl_port)
		uri.ctrl_port = LTT_DEFAULT_RELAYD_LIVE_PORT;
	printf("Live bridge: net://127.0.0.1:%u forwards to %s%s%s:%u in TLS 1.3\n"
	       "Read with: babeltrace2 -i lttng-live net://127.0.0.1:%u/host/HOSTNAME/SESSION\n",
	       (unsigned int)port, uri.family == LTT_URI_INET6 ? "[" : "", uri.host,
	       uri.family == LTT_URI_INET6 ? "]" : "", (unsigned int)uri.ctrl_port,
	       (unsigned int)port);
	fflush(stdout);
	signal(SIGPIPE, SIG_IGN);
	ret = ctl_bridge_run(net, fd, (int)uri.family, uri.host, uri.ctrl_port, tls);
	ctl_out_error(LTT_ERR_UNKNOWN, "live bridge: %s", strerror(-ret));
	close(fd);
	net->ctx_destroy(tls);
	return CTL_EXIT_FAILURE;
}

/*
 * Does the default reader, babeltrace2, read CTF 2 (2.1 and later)?  Its
 * version, as "babeltrace2 --version" prints it ("Babeltrace 2.0.4 ..."),
 * in @version; true when it can't be told (another failure is its own).
 */
static bool reader_reads_ctf2(char *version, size_t size)
{
	FILE *p = popen("babeltrace2 --version 2>/dev/null", "r");
	unsigned int major = 0, minor = 0;
	char line[256] = "";
	bool known;

	if (!p)
		return true;
	known = fgets(line, sizeof(line), p) &&
		sscanf(line, "Babeltrace %u.%u", &major, &minor) == 2;
	pclose(p);
	snprintf(version, size, "%u.%u", major, minor);
	return !known || major > 2 || (major == 2 && minor >= 1);
}

/* view NAME (or the current session): the reader on its local trace. */
static int view_session(const struct ctl_ctx *ctx, poptContext pc, const char *reader)
{
	char dir[LTT_PATH_MAX], name[LTT_NAME_MAX], version[32];
	const char **args;
	bool ctf2 = false;
	int ret, nr;

	nr = ctl_util_args(pc, &args);
	ret = ctl_util_check_nr_args(ctx, args, nr, 1);
	if (!ret)
		ret = ctl_util_local_trace(ctx, args[0], dir, sizeof(dir), name, &ctf2);
	if (ret)
		return ret;
	if (ctf2 && !strcmp(reader, "babeltrace2") && !reader_reads_ctf2(version, sizeof(version))) {
		ctl_out_error(LTT_ERR_UNKNOWN,
			      "session '%s' writes CTF 2, which babeltrace2 reads from 2.1 on, and this "
			      "host's babeltrace2 is %s: read %s with babeltrace2 2.1 "
			      "(Debian 13's or later, -e), or record with --trace-format=ctf-1.8",
			      name, version, dir);
		return CTL_EXIT_FAILURE;
	}
	return run_reader(reader, dir);
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	char **values = arg;
	const char *reader;

	/* The reader writes the terminal's text: nothing a document could hold. */
	if (ctl_out_format() != CTL_OUT_TEXT) {
		ctl_out_error(LTT_ERR_MI_UNSUPPORTED, "view: %s",
			      ltt_strerror(LTT_ERR_MI_UNSUPPORTED));
		return CTL_EXIT_FAILURE;
	}
	reader = values[VAL_READER] ? values[VAL_READER] : "babeltrace2";
	if (values[VAL_LIVE] && (values[VAL_TRACE_PATH] || values[VAL_READER]))
		return ctl_util_usage_error(ctx, "--live serves a bridge for babeltrace2 to read: no -t, "
					    "no -e");
	if (values[VAL_LIVE])
		return view_live(ctx, pc, values);
	if (values[VAL_TLS_CERT] || values[VAL_TLS_KEY] || values[VAL_TLS_CA] ||
	    values[VAL_BRIDGE_PORT])
		return ctl_util_usage_error(ctx, "--tls-cert, --tls-key, --tls-ca and --bridge-port "
					    "go with --live");
	if (values[VAL_TRACE_PATH])
		return view_path(ctx, pc, reader, values[VAL_TRACE_PATH]);
	return view_session(ctx, pc, reader);
}

int cmd_view(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	char *values[NR_VALS] = { NULL };
	struct poptOption options[] = {
		{ "viewer", 'e', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_READER,
		  "the trace reader to run, with its options (default: babeltrace2)", "CMD" },
		{ "trace-path", 't', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TRACE_PATH,
		  "read the trace in DIR instead of a session's", "DIR" },
		{ "live", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_LIVE,
		  "serve a local bridge to the live port of a relay that speaks only TLS, "
		  "URL tls://HOST[:PORT], for babeltrace2 (until interrupted)", "URL" },
		{ "bridge-port", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_BRIDGE_PORT,
		  "--live: the loopback port the bridge listens on (default: a free one, printed)",
		  "PORT" },
		CTL_UTIL_TLS_OPTIONS(VAL_TLS_CERT),
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	return ctl_util_run(ctx, argc, argv, options, values, NR_VALS, run, values);
}
