// SPDX-License-Identifier: LGPL-2.1-only
/*
 * create.c - lttctl create: a new session, which becomes the current one.
 *
 * Everything the user typed is checked here first; the default output
 * directory and the automatic name are the library's to choose.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/model/attr.h"
#include "common/model/uri.h"
#include "ctl/ctl.h"
#include "ctl/report.h"
#include "ctl/util-session.h"
#include "ctl/util.h"


/* The string options, in values[]. */
enum {
	VAL_OUTPUT,		/* -o DIR */
	VAL_URL,		/* -U URL */
	VAL_LIVE,		/* --live[=US]: "" for the default period */
	VAL_CTRL,		/* -C URL */
	VAL_DATA,		/* -D URL */
	VAL_SHM_PATH,		/* --shm-path DIR: ring buffers in files there */
	VAL_TLS_CERT,		/* --tls-cert FILE */
	VAL_TLS_KEY,		/* --tls-key FILE */
	VAL_TLS_CA,		/* --tls-ca FILE */
	VAL_TRACE_FORMAT,	/* -F FORMAT: LTTng 2.15's; default, ctf-1.8 or ctf-2 */
	NR_VALS,
};

struct create_args {
	const char *name;	/* NULL: automatic */
	char *values[NR_VALS];
	int no_output;
	int snapshot;
	uint8_t trace_format;	/* -F: enum ltt_trace_format */
	char tls_path[3][LTT_PATH_MAX];	/* the TLS files, absolute */
	struct ltt_session_tls tls;
};

/*
 * popt would take the word after a bare --live as its optional period, so
 * "create --live NAME" would read NAME as a number.  LTTng takes the next
 * word as the period whatever it is ("create --live 2000000 -U URL" is its
 * tests' spelling, and it refuses "create --live NAME"): ltt takes it only
 * when it reads as a period (ctl_util_parse_us()), and leaves any other
 * word to be the NAME.  A bare --live is spelled "--live=" for popt, and a
 * period word is attached to it ("--live=2000000", in *@ret_joined, to
 * free() after the copy).  Returns a copy of @argv to free(), its
 * @ret_argc words (one fewer when a period is attached), or NULL.
 */
static const char **attach_live_period(int argc, const char **argv, int *ret_argc,
				       char **ret_joined)
{
	const char **copy = malloc(((size_t)argc + 1) * sizeof(*copy));
	uint64_t period;
	int i, n = 0;

	*ret_joined = NULL;
	if (!copy)
		return NULL;
	for (i = 0; i < argc; i++) {
		copy[n++] = argv[i];
		if (!strcmp(argv[i], "--"))
			break;
		if (!i || strcmp(argv[i], "--live"))
			continue;
		copy[n - 1] = "--live=";
		if (*ret_joined || i + 1 == argc ||
		    ctl_util_parse_us(argv[i + 1], UINT64_MAX, &period) == -EINVAL)
			continue;
		/* The first --live only: a period given twice is an extra word. */
		if (asprintf(ret_joined, "--live=%s", argv[i + 1]) < 0) {
			*ret_joined = NULL;
			free(copy);
			return NULL;
		}
		copy[n - 1] = *ret_joined;
		i++;
	}
	for (i++; i < argc; i++)
		copy[n++] = argv[i];
	copy[n] = NULL;
	*ret_argc = n;
	return copy;
}

/*
 * LTTng 2.15's -F/--trace-format into @ret: default (the session
 * daemon's), ctf-1.8 or ctf-2.  Returns 0 or the exit status after
 * printing.
 */
static int check_trace_format(const struct ctl_ctx *ctx, const char *format, uint8_t *ret)
{
	static const char *const names[] = {
		[LTT_TRACE_FORMAT_DEFAULT] = "default",
		[LTT_TRACE_FORMAT_CTF_1_8] = "ctf-1.8",
		[LTT_TRACE_FORMAT_CTF_2] = "ctf-2",
	};
	uint8_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(format, names[i])) {
			*ret = i;
			return 0;
		}
	return ctl_util_usage_error(ctx, "invalid --trace-format '%s': %s", format,
				    ltt_strerror(LTT_ERR_TRACE_FORMAT));
}

/* The NAME argument, and the checks between options. */
static int check_args(const struct ctl_ctx *ctx, poptContext pc, struct create_args *a)
{
	const char **args;
	int nr;

	nr = ctl_util_args(pc, &args);
	if (ctl_util_check_nr_args(ctx, args, nr, 1))
		return CTL_EXIT_USAGE;
	if (a->values[VAL_TRACE_FORMAT]) {
		nr = check_trace_format(ctx, a->values[VAL_TRACE_FORMAT], &a->trace_format);
		if (nr)
			return nr;
	}
	a->name = args[0];
	nr = !!a->values[VAL_OUTPUT] + !!a->values[VAL_URL] + !!a->no_output;
	if (nr > 1)
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_OUTPUT_CONFLICT));
	/* -C and -D: both, and no other output. */
	if ((a->values[VAL_CTRL] || a->values[VAL_DATA]) &&
	    (!a->values[VAL_CTRL] || !a->values[VAL_DATA] || nr))
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_URL_PAIR));
	if (a->snapshot && a->values[VAL_LIVE])
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_SNAPSHOT_LIVE));
	return CTL_GO_ON;
}

/* The net URL of -C and -D into @attr. */
static int set_url_pair(const struct create_args *a, struct ltt_session_attr *attr)
{
	if (ctl_util_url_pair(a->values[VAL_CTRL], a->values[VAL_DATA], attr->output,
			      sizeof(attr->output)))
		return CTL_EXIT_FAILURE;
	attr->output_type = LTT_OUTPUT_NET;
	return CTL_EXIT_OK;
}

/*
 * Can output directory @path (absolute) be made?  The deepest part of it
 * that exists must be a directory in which a directory can be made (one
 * is, and removed at once: /proc, say, takes none).  An existing @path is
 * left to start, which checks that the owner can write there.  Returns 0
 * or -errno (-ENOENT, -ENOTDIR: it can't; others, as -EACCES, are start's
 * to tell, as the owner's consumer meets them).
 */
static int output_creatable(const char *path)
{
	char dir[LTT_PATH_MAX], probe[LTT_PATH_MAX + 32];
	struct stat st;
	char *slash;

	if ((size_t)snprintf(dir, sizeof(dir), "%s", path) >= sizeof(dir))
		return -ENAMETOOLONG;
	while (stat(dir, &st)) {
		if (errno != ENOENT)
			return -errno;
		slash = strrchr(dir, '/');
		if (!slash)
			return -ENOENT;
		slash[slash == dir] = '\0';	/* "/x" -> "/" */
	}
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	if (!strcmp(dir, path))
		return 0;
	snprintf(probe, sizeof(probe), "%s/.ltt-probe-XXXXXX", strcmp(dir, "/") ? dir : "");
	if (!mkdtemp(probe))
		return -errno;
	rmdir(probe);
	return 0;
}

/* The output of -o, -U, -C/-D or --no-output into @attr. */
static int set_output(const struct create_args *a, struct ltt_session_attr *attr)
{
	const char *output = a->values[VAL_OUTPUT], *url = a->values[VAL_URL];

	if (a->values[VAL_CTRL]) {
		return set_url_pair(a, attr);
	} else if (a->no_output) {
		attr->output_type = LTT_OUTPUT_NONE;
	} else if (output || url) {
		int ret = ctl_util_output_of(output, url, &attr->output_type, attr->output,
					     sizeof(attr->output));

		if (ret)
			return ret;
	} else if (a->values[VAL_LIVE]) {
		attr->output_type = LTT_OUTPUT_NET;
		strcpy(attr->output, LTT_DEFAULT_LIVE_URL);
	} else {
		attr->output_type = LTT_OUTPUT_LOCAL;
		attr->output[0] = '\0';
	}
	if (attr->output_type == LTT_OUTPUT_LOCAL && attr->output[0]) {
		int err = output_creatable(attr->output);

		if (err == -ENOENT || err == -ENOTDIR) {
			ctl_out_error(LTT_ERR_OUTPUT_CREATE, "output directory '%s': %s (%s); nothing was created",
				      attr->output, ltt_strerror(LTT_ERR_OUTPUT_CREATE),
				      strerror(-err));
			return CTL_EXIT_FAILURE;
		}
	}
	return CTL_EXIT_OK;
}

/*
 * --shm-path DIR, made absolute, into @attr->shm_path (pointing to a
 * static copy): a directory that exists or can be made, as -o's.
 */
static int set_shm_path(const struct create_args *a, struct ltt_session_attr *attr)
{
	static char shm_room[LTT_PATH_MAX];
	const char *dir = a->values[VAL_SHM_PATH];
	int err;

	if (!dir)
		return CTL_EXIT_OK;
	if (!*dir || ctl_util_abs_path(dir, shm_room, sizeof(shm_room)))
		return ctl_util_object_error(LTT_ERR_SHM_PATH, "shared memory path", dir);
	err = output_creatable(shm_room);
	if (err == -ENOENT || err == -ENOTDIR) {
		ctl_out_error(LTT_ERR_SHM_PATH, "shared memory path '%s': %s (%s); nothing was created",
			      shm_room, ltt_strerror(LTT_ERR_SHM_PATH), strerror(-err));
		return CTL_EXIT_FAILURE;
	}
	attr->shm_path = shm_room;
	return CTL_EXIT_OK;
}

/* What to create, from the checked arguments. */
static int make_attr(const struct ctl_ctx *ctx, const struct create_args *a,
		     struct ltt_session_attr *attr)
{
	const char *live = a->values[VAL_LIVE];
	uint64_t period = LTT_DEFAULT_LIVE_TIMER_US;
	int ret;

	ltt_ctl_session_attr_init(attr);
	if (a->name) {
		if (ctl_util_check_session_name(a->name))
			return CTL_EXIT_FAILURE;
		strcpy(attr->name, a->name);
	}
	if (live && *live && (ctl_util_parse_us(live, UINT32_MAX, &period) ||
			      period < LTT_MIN_LIVE_TIMER_US))
		return ctl_util_usage_error(ctx, "invalid live timer period '%s': use "
					    "microseconds from %u to %u, or a value with a unit: "
					    "us, ms, s, m, h (\"1s\")", live,
					    LTT_MIN_LIVE_TIMER_US, UINT32_MAX);
	ret = set_output(a, attr);
	if (ret)
		return ret;
	if (live && attr->output_type != LTT_OUTPUT_NET)
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_LIVE_NEEDS_NET));
	attr->snapshot = a->snapshot;
	attr->trace_format = a->trace_format;
	attr->live_timer_us = live ? (uint32_t)period : 0;
	attr->lttng_traces = ctx->lttng_name != NULL;	/* run as lttng: LTTng's default output */
	return set_shm_path(a, attr);
}

/*
 * --tls-cert, --tls-key, --tls-ca: all three, made absolute, and usable
 * (loaded here as the consumer will), into @attr.  A tls:// output needs
 * them; they go with no other (but a snapshot session's later outputs).
 */
static int set_tls(const struct ctl_ctx *ctx, struct create_args *a,
		   struct ltt_session_attr *attr)
{
	struct ltt_uri uri;
	int i, given = 0;
	bool tls_url;

	for (i = 0; i < 3; i++)
		given += a->values[VAL_TLS_CERT + i] != NULL;
	tls_url = attr->output_type == LTT_OUTPUT_NET && !ltt_uri_parse(attr->output, &uri) &&
		  uri.tls;
	if (given == 0 && !tls_url)
		return CTL_EXIT_OK;
	if (given != 3 || (!tls_url && !attr->snapshot))
		return ctl_util_usage_error(ctx, "%s", ltt_strerror(LTT_ERR_TLS_FILES));
	if (ctl_util_tls_files(&a->values[VAL_TLS_CERT], a->tls_path, NULL, NULL,
			       "; nothing was created"))
		return CTL_EXIT_FAILURE;
	a->tls = (struct ltt_session_tls){ a->tls_path[0], a->tls_path[1], a->tls_path[2] };
	attr->tls = &a->tls;
	return CTL_EXIT_OK;
}

/* @shm_path: NULL, or the session's --shm-path directory */
static void print_created(const struct ctl_ctx *ctx, const struct ltt_session_info *info,
			  const char *shm_path)
{
	ctl_out_info("Session %s created.", info->name);
	/* LTTng's line; the files go in a NAME-DATE directory below it */
	if (shm_path && *shm_path)
		ctl_out_info("Shared memory path set to %s", shm_path);
	if (info->snapshot) {
		ctl_out_info("Snapshot mode: events stay in the buffers until 'lttctl snapshot record' writes them ('lttctl snapshot list-output' shows where).");
		return;
	}
	switch (info->output_type) {
	case LTT_OUTPUT_LOCAL:
		ctl_out_info("Traces will be written in %s", info->output);
		break;
	case LTT_OUTPUT_NET:
		ctl_out_info("Traces will be sent to %s", info->output);
		break;
	case LTT_OUTPUT_NONE:
		ctl_out_info("No output: the traces stay in the tracing buffers.");
		break;
	}
	if (info->live_timer_us)
		ctl_out_info("Live timer interval set to %u us", info->live_timer_us);
}

/*
 * Create the session described by @attr and make it the current one;
 * @local_relay: it streams to the default local relay, started if needed.
 */
static int create(const struct ctl_ctx *ctx, const struct ltt_session_attr *attr,
		  bool local_relay)
{
	struct ltt_session_info info;
	struct ltt_ctl *ctl;
	int ret;

	ret = ctl_util_connect(ctx, true, &ctl);
	if (ret)
		return ret;
	if (local_relay) {
		ret = ctl_relayd_ensure_local(ctx, ltt_ctl_rundir(ctl));
		if (ret) {
			ltt_ctl_disconnect(ctl);
			return ret;
		}
	}
	ret = ltt_ctl_create_session(ctl, attr, &info);
	ltt_ctl_disconnect(ctl);
	if (ret) {
		if (ctl_report_relay_code(ret))
			ctl_out_error(ret, "session '%s': relay %s: %s",
				      *attr->name ? attr->name : "(new)", attr->output,
				      ltt_strerror(ret));
		else if (*attr->name)
			ctl_out_error(ret, "session '%s': %s", attr->name, ltt_strerror(ret));
		else
			ctl_out_error(ret, "new session: %s", ltt_strerror(ret));
		return CTL_EXIT_FAILURE;
	}
	print_created(ctx, &info, attr->shm_path);
	ctl_obj_sessions_schema(&info, 1);
	ctl_obj_session_open(&info);
	ctl_out_close();
	ret = ctl_rc_write(info.name);
	if (ret) {
		ctl_out_warn(LTT_ERR_CURRENT_SESSION_FILE,
			     "session '%s' is not the current session: %s", info.name,
			     strerror(-ret));
	}
	return CTL_EXIT_OK;
}

static int run(const struct ctl_ctx *ctx, poptContext pc, void *arg)
{
	struct create_args *a = arg;
	struct ltt_session_attr attr;
	int ret;

	ret = check_args(ctx, pc, a);
	if (ret != CTL_GO_ON)
		return ret;
	ret = make_attr(ctx, a, &attr);
	if (!ret)
		ret = set_tls(ctx, a, &attr);
	if (!ret)
		ret = create(ctx, &attr, a->values[VAL_LIVE] && !a->values[VAL_URL] &&
				  !a->values[VAL_CTRL]);
	return ret;
}

int cmd_create(const struct ctl_ctx *ctx, int argc, const char **argv)
{
	struct create_args a = { 0 };
	char *joined;
	const char **args;
	int ret;
	struct poptOption options[] = {
		{ "output", 'o', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_OUTPUT,
		  "write the traces in directory DIR", "DIR" },
		{ "set-url", 'U', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_URL,
		  "write or send the traces to URL: file://, net://, net4://, net6://, "
		  "tls://, tls4://, tls6:// (TLS 1.3: with --tls-cert, --tls-key, --tls-ca)", "URL" },
		{ "ctrl-url", 'C', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_CTRL,
		  "send to the relay whose control port is URL: tcp://HOST[:PORT][/PATH] "
		  "(with -D)", "URL" },
		{ "data-url", 'D', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_DATA,
		  "the relay's data port: tcp://HOST[:PORT], the host of -C (with -C)", "URL" },
		{ "no-output", 0, POPT_ARG_NONE, &a.no_output, 0, "record no trace files", NULL },
		{ "shm-path", 0, POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_SHM_PATH,
		  "the user-space ring buffers and metadata as files under DIR, which "
		  "ltt-crash (lttng-crash) reads after a crash", "DIR" },
		{ "trace-format", 'F', POPT_ARG_STRING, NULL, CTL_OPT_VALUE + VAL_TRACE_FORMAT,
		  "the traces' format: ctf-1.8 (read by babeltrace2 2.0 and later), ctf-2 "
		  "(babeltrace2 2.1 and later; local outputs only), default (the session "
		  "daemon's: ltt-sessiond --default-trace-format)", "FORMAT" },
		{ "snapshot", 0, POPT_ARG_NONE, &a.snapshot, 0, "a snapshot session", NULL },
		CTL_UTIL_TLS_OPTIONS(VAL_TLS_CERT),
		{ "live", 0, POPT_ARG_STRING | POPT_ARGFLAG_OPTIONAL, NULL, CTL_OPT_VALUE + VAL_LIVE,
		  "a live session, sent to " LTT_DEFAULT_LIVE_URL " unless -U says otherwise; "
		  "US: the live timer period, 1000000 by default (at least 1000)", "US" },
		CTL_UTIL_HELP_OPTION,
		POPT_TABLEEND
	};

	args = attach_live_period(argc, argv, &argc, &joined);
	if (!args) {
		ctl_out_error(LTT_ERR_NOMEM, "%s", ltt_strerror(LTT_ERR_NOMEM));
		return CTL_EXIT_FAILURE;
	}
	/* the options as attach_live_period() rewrote them, freed after the parse */
	ret = ctl_util_run(ctx, argc, args, options, a.values, NR_VALS, run, &a);
	free(args);
	free(joined);
	return ret;
}
