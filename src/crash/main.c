// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-crash: the command line of LTTng's lttng-crash (crash.h).
 *
 *   ltt-crash [-v] [-x DIR | -e VIEWER] PATH
 *
 * -x DIR writes the trace(s) found under PATH into DIR (made here, it
 * must not exist); without it they go into a temporary directory that
 * VIEWER (babeltrace2) prints, then removed.
 */
#include <errno.h>
#include <stdbool.h>
#include <ftw.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/base/log.h"
#include "crash/crash.h"

#define DEFAULT_VIEWER "babeltrace2"

enum { OPT_LIST_OPTIONS = 256 };

static const struct option long_options[] = {
	{ "version", no_argument, NULL, 'V' },
	{ "help", no_argument, NULL, 'h' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "viewer", required_argument, NULL, 'e' },
	{ "extract", required_argument, NULL, 'x' },
	{ "list-options", no_argument, NULL, OPT_LIST_OPTIONS },
	{ NULL, 0, NULL, 0 },
};

struct crash_args {
	const char *input;
	const char *extract;	/* -x DIR, or NULL: view */
	const char *viewer;
	int verbose;
};

static void usage(FILE *f, const char *prog)
{
	fprintf(f,
		"Usage: %s [OPTIONS] PATH\n"
		"\n"
		"Make the ring buffers a session kept in files (lttctl create --shm-path PATH)\n"
		"into a CTF trace after a crash, and show it or write it out.\n"
		"\n"
		"Options:\n"
		"  -x, --extract DIR   write the trace(s) into DIR (made; it must not exist)\n"
		"                      instead of showing them\n"
		"  -e, --viewer PROG   show them with PROG (default: " DEFAULT_VIEWER ")\n"
		"  -v, --verbose       say what each stream held, recovered and lost\n"
		"  -V, --version       show the version\n"
		"  -h, --help          show this help\n"
		"      --list-options  list the options, one a line\n"
		"\n"
		"See ltt-crash(1).\n", prog);
}

static void list_options(void)
{
	const struct option *o;

	for (o = long_options; o->name; o++) {
		printf("--%s\n", o->name);
		if (o->val < 256)
			printf("-%c\n", o->val);
	}
}

/* 0: go on; 1: done (help, version), exit 0; -1: a usage error (said). */
static int parse_args(int argc, char **argv, struct crash_args *a)
{
	bool viewer = false;
	int opt;

	while ((opt = getopt_long(argc, argv, "+Vhve:x:", long_options, NULL)) != -1) {
		switch (opt) {
		case 'V':
			printf("ltt-crash %s\n", PACKAGE_VERSION);
			return 1;
		case 'h':
			usage(stdout, argv[0]);
			return 1;
		case 'v':
			a->verbose++;
			break;
		case 'e':
			a->viewer = optarg;
			viewer = true;
			break;
		case 'x':
			a->extract = optarg;
			break;
		case OPT_LIST_OPTIONS:
			list_options();
			return 1;
		default:
			fprintf(stderr, "Try '%s --help'.\n", argv[0]);
			return -1;
		}
	}
	if (viewer && a->extract) {
		fprintf(stderr, "%s: -x DIR writes the trace to DIR and -e VIEWER shows it without keeping it: give one of them\n",
			argv[0]);
		return -1;
	}
	if (argc - optind != 1) {
		fprintf(stderr, "%s: give exactly one PATH: the shared memory path (--shm-path) of the session, or a directory below it\n",
			argv[0]);
		return -1;
	}
	a->input = argv[optind];
	return 0;
}

/* Run @viewer on @dir and wait for it; 0 when it exited 0. */
static int view(const char *viewer, const char *dir)
{
	int status;
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (!pid) {
		execlp(viewer, viewer, dir, (char *)NULL);
		LTT_ERR("can't run the viewer '%s': %s (give one with -e, or extract with -x DIR)",
			viewer, strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(status) && !WEXITSTATUS(status) ? 0 : -ECHILD;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

int main(int argc, char **argv)
{
	struct crash_args a = { .viewer = DEFAULT_VIEWER };
	char tmp[4096];
	const char *dir, *tmpdir = getenv("TMPDIR");
	struct crash_counts c = { 0 };
	int ret;

	ltt_log_init("ltt-crash", LTT_LOG_WARN);
	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret > 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	if (a.verbose)
		ltt_log_init("ltt-crash", LTT_LOG_WARN + a.verbose);
	if (a.extract) {
		dir = a.extract;
		if (mkdir(dir, 0750)) {
			LTT_ERR("can't make the output directory '%s': %s (give a new directory: one that does not exist yet, in a directory you can write)",
				dir, strerror(errno));
			return EXIT_FAILURE;
		}
	} else {
		snprintf(tmp, sizeof(tmp), "%s/ltt-crash-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		dir = mkdtemp(tmp);
		if (!dir) {
			LTT_ERR("can't make a temporary directory in %s: %s (set TMPDIR, or extract with -x DIR)",
				tmpdir && *tmpdir ? tmpdir : "/tmp", strerror(errno));
			return EXIT_FAILURE;
		}
	}
	ret = crash_extract(a.input, dir, a.verbose, &c);
	if (ret)
		LTT_ERR("'%s': %s (give the directory of a session's --shm-path)", a.input,
			strerror(-ret));
	else if (!c.traces)
		LTT_ERR("'%s': no trace under it (no directory holds a \"metadata\" file): give the directory of a session's --shm-path",
			a.input);
	if (a.verbose)
		fprintf(stderr, "%" PRIu64 " traces, %" PRIu64 " streams: %" PRIu64 " packets, %" PRIu64
			" events recovered, %" PRIu64 " lost\n", c.traces, c.streams, c.packets,
			c.events, c.lost);
	if (!ret && c.traces && !a.extract && view(a.viewer, dir))
		ret = -ECHILD;
	if (!a.extract)
		nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret || !c.traces || c.warnings ? EXIT_FAILURE : EXIT_SUCCESS;
}
