// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-export: the command line (export.h).
 *
 *   ltt-export --to=URL [--progress | --quiet] [--follow[=SECONDS]] TRACE_DIR...
 *
 * Once (read.c), or round after round until SIGINT or SIGTERM
 * (--follow, follow.c).
 */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "export/export.h"

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ltt-export --to=URL [--progress | --quiet] [--follow[=SECONDS]] TRACE_DIR...\n"
		"\n"
		"Put the events of CTF traces (every directory under TRACE_DIR that holds a\n"
		"\"metadata\" file) into SQL tables: one per event class, events, discarded\n"
		"(doc/sql.md).  A packet exported before is not exported again.\n"
		"\n"
		"  --to=sqlite:FILE                        an SQLite database file (made if new)\n"
		"  --to=clickhouse://HOST[:PORT]/DATABASE  a ClickHouse server's HTTP interface\n"
		"                                          (port 8123 by default)\n"
		"  --progress   show the progress line even when stderr is not a terminal\n"
		"  --quiet      show neither the progress line nor the summary\n"
		"  --follow[=SECONDS]  export the traces as they grow (a relay's output, a\n"
		"               session's), every SECONDS (default 1), until SIGINT or SIGTERM\n"
		"  -h, --help   show this help\n");
}

static const struct exp_engine_ops *engine_of(const char *url, const char **ret_where)
{
	static const struct { const char *prefix; const struct exp_engine_ops *ops; } schemes[] = {
		{ "sqlite:", &exp_sqlite_ops },
		{ "clickhouse://", &exp_clickhouse_ops },
	};
	size_t i;

	for (i = 0; i < sizeof(schemes) / sizeof(schemes[0]); i++) {
		size_t len = strlen(schemes[i].prefix);

		if (!strncmp(url, schemes[i].prefix, len) && url[len]) {
			*ret_where = url + len;
			return schemes[i].ops;
		}
	}
	return NULL;
}

/* The inputs, made absolute (@ret_roots, NULL-ended), and the traces under them. */
static int gather(int argc, char **argv, struct exp_traces *t, char ***ret_roots)
{
	char **roots = calloc((size_t)argc + 1, sizeof(*roots));
	int i, ret;

	if (!roots)
		return -ENOMEM;
	*ret_roots = roots;
	for (i = 0; i < argc; i++) {
		struct stat st;

		roots[i] = realpath(argv[i], NULL);
		if (!roots[i] || stat(roots[i], &st) || !S_ISDIR(st.st_mode)) {
			fprintf(stderr, "ltt-export: '%s': %s: give a trace's directory\n", argv[i],
				roots[i] ? "not a directory" : strerror(errno));
			return -EINVAL;
		}
	}
	ret = exp_find_traces(t, (const char *const *)roots, (size_t)argc);
	if (ret) {
		fprintf(stderr, "ltt-export: %s: %s\n", argv[0], strerror(-ret));
		return ret;
	}
	return 0;
}

/* --follow's SECONDS: a number of seconds from 0.01 to 3600, in ms; 0 if bad. */
static unsigned int interval_ms(const char *text)
{
	char *end;
	double s = text ? strtod(text, &end) : 1;

	if (text && (end == text || *end || !(s >= 0.01 && s <= 3600)))
		return 0;
	return (unsigned int)(s * 1000 + 0.5);
}

/* Export the traces once; the summary. */
static int export_once(const struct exp_engine_ops *ops, const char *where, const char *to,
		       char **roots, size_t nr_roots, const struct exp_traces *traces,
		       struct exp_progress *prog, bool quiet)
{
	struct exp_engine *engine = NULL;
	struct exp_rows *rows = NULL;
	const struct exp_counts *c;
	char err[512] = "";
	int ret = EXIT_FAILURE, rerr = 0;

	if (!traces->nr) {
		fprintf(stderr, "ltt-export: no CTF trace (a directory with a \"metadata\" file) "
			"under %s%s: give a session's trace directory\n", roots[0],
			nr_roots > 1 ? " and the others" : "");
		return EXIT_FAILURE;
	}
	prog->bytes = traces->bytes;
	if (exp_traces_readable(traces))
		return EXIT_FAILURE;	/* before the database is touched */
	if (ops->open(where, &engine, err, sizeof(err))) {
		fprintf(stderr, "ltt-export: %s\n", err[0] ? err : strerror(ENOMEM));
		return EXIT_FAILURE;
	}
	rows = exp_rows_create(engine, (const char *const *)roots, nr_roots);
	if (!rows) {
		fprintf(stderr, "ltt-export: out of memory\n");
		goto end;
	}
	clock_gettime(CLOCK_MONOTONIC, &prog->start);
	rerr = exp_read_traces(traces, rows, prog);
	if (!rerr)
		rerr = exp_rows_finish(rows);
	if (!rerr)
		ret = EXIT_SUCCESS;
	else if (rerr != -ECANCELED)	/* babeltrace2's: said already */
		fprintf(stderr, "ltt-export: %s\n", engine->err[0] ? engine->err : strerror(-rerr));
	c = exp_rows_counts(rows);
	exp_progress_show(prog, c, true);
	if (!quiet)
		fprintf(ret ? stderr : stdout,
			"%s %" PRIu64 " events of %zu trace%s into %s%s (%" PRIu64 " packets; %" PRIu64
			" events of packets exported before, skipped; %" PRIu64 " events and %" PRIu64
			" packets the tracer counted lost)\n",
			ret ? "Stopped after" : "Exported", c->events, traces->nr,
			traces->nr == 1 ? "" : "s", to,
			ret ? ", the rest not: run it again to go on" : "", c->packets, c->skipped,
			c->discarded, c->lost_packets);
end:
	exp_rows_destroy(rows);
	engine->ops->close(engine);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' }, { "progress", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' }, { "follow", optional_argument, NULL, 'f' },
		{ "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 },
	};
	struct exp_progress prog = { .on = isatty(STDERR_FILENO) };
	const struct exp_engine_ops *ops = NULL;
	struct exp_traces traces = { 0 };
	const char *to = NULL, *where = NULL;
	unsigned int follow_ms = 0;
	bool quiet = false, follow = false;
	char **roots = NULL;
	int opt, ret = EXIT_FAILURE, i;

	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (opt) {
		case 't':
			to = optarg;
			break;
		case 'p':
			prog.on = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'f':
			follow = true;
			follow_ms = interval_ms(optarg);
			if (!follow_ms) {
				fprintf(stderr, "ltt-export: --follow=%s: give seconds between rounds, "
					"from 0.01 to 3600\n", optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		default:
			usage(stderr);
			return 2;
		}
	}
	prog.on = prog.on && !quiet && !follow;
	if (!to || !(ops = engine_of(to, &where))) {
		fprintf(stderr, "ltt-export: %s%s%s: give --to=sqlite:FILE or "
			"--to=clickhouse://HOST[:PORT]/DATABASE\n", to ? "--to '" : "no --to",
			to ? to : "", to ? "'" : "");
		return 2;
	}
	if (optind == argc) {
		fprintf(stderr, "ltt-export: no trace given: give one or more trace directories\n");
		return 2;
	}
	if (gather(argc - optind, argv + optind, &traces, &roots))
		goto end;
	if (follow) {
		struct exp_follow_args a = { ops, where, (const char *const *)roots,
					     (size_t)(argc - optind), follow_ms, quiet };

		ret = exp_follow(&a) ? EXIT_FAILURE : EXIT_SUCCESS;
	} else {
		ret = export_once(ops, where, to, roots, (size_t)(argc - optind), &traces, &prog,
				  quiet);
	}
end:
	exp_free_traces(&traces);
	for (i = 0; roots && roots[i]; i++)
		free(roots[i]);
	free(roots);
	return ret;
}
