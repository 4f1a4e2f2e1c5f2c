// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - ltt-export: the command line (export.h), the traces found
 * under the inputs, babeltrace2's graph and the progress line.
 *
 *   ltt-export --to=URL [--progress | --quiet] TRACE_DIR...
 *
 * Every directory under a TRACE_DIR that holds a "metadata" file is a
 * trace, read by a source.ctf.fs component of its own; filter.utils.muxer
 * puts their messages in time order, and a simple sink hands each to
 * rows.c.  Memory stays bounded: the graph holds a message at a time per
 * stream, the engine a block.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <babeltrace2/babeltrace.h>

#include "export/export.h"

#define MAX_TRACES 100000
#define MAX_DEPTH 16

struct traces {
	char **dirs;
	size_t nr, cap;
	uint64_t bytes;		/* the data files' */
};

struct progress {
	bool on;
	struct timespec start, last;
	int64_t begin_ns, end_ns;	/* the inputs' time range, or 0, 0 */
	uint64_t bytes;
};

struct run {
	struct exp_rows *rows;
	struct progress *prog;
	int err;
};

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: ltt-export --to=URL [--progress | --quiet] TRACE_DIR...\n"
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
		"  -h, --help   show this help\n");
}

static double now_s(const struct timespec *since)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - since->tv_sec) + (double)(t.tv_nsec - since->tv_nsec) / 1e9;
}

/* ---- the traces under the inputs ---- */

static int add_trace(struct traces *t, const char *dir)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		if (!strcmp(t->dirs[i], dir))
			return 0;	/* given twice: read once */
	}
	if (t->nr == MAX_TRACES)
		return -E2BIG;
	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		char **d = realloc(t->dirs, cap * sizeof(*d));

		if (!d)
			return -ENOMEM;
		t->dirs = d;
		t->cap = cap;
	}
	t->dirs[t->nr] = strdup(dir);
	return t->dirs[t->nr] ? (int)(++t->nr, 0) : -ENOMEM;
}

/* Every directory under @dir (no link followed) holding a regular "metadata". */
static int find_traces(struct traces *t, const char *dir, int depth)
{
	char path[PATH_MAX];
	bool is_trace = false;
	uint64_t bytes = 0;
	struct dirent *de;
	struct stat st;
	DIR *d;
	int ret = 0;

	if (depth > MAX_DEPTH)
		return 0;
	d = opendir(dir);
	if (!d)
		return -errno;
	while (!ret && (de = readdir(d))) {
		if (de->d_name[0] == '.' ||
		    snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >= (int)sizeof(path) ||
		    lstat(path, &st))
			continue;
		if (S_ISDIR(st.st_mode) && strcmp(de->d_name, "index"))
			ret = find_traces(t, path, depth + 1);
		else if (S_ISREG(st.st_mode) && !strcmp(de->d_name, "metadata"))
			is_trace = true;
		else if (S_ISREG(st.st_mode))
			bytes += (uint64_t)st.st_size;
	}
	closedir(d);
	if (!ret && is_trace) {
		t->bytes += bytes;
		ret = add_trace(t, dir);
	}
	return ret;
}

/* ---- babeltrace2's graph ---- */

static void say_bt_error(const char *what)
{
	const bt_error *err = bt_current_thread_take_error();
	uint64_t i, n = err ? bt_error_get_cause_count(err) : 0;

	fprintf(stderr, "ltt-export: %s", what);
	for (i = 0; i < n && i < 4; i++)
		fprintf(stderr, "%s %s", i ? ";" : ":",
			bt_error_cause_get_message(bt_error_borrow_cause_by_index(err, i)));
	fputc('\n', stderr);
	if (err)
		bt_error_release(err);
}

static void show_progress(struct progress *p, const struct exp_counts *c, bool last)
{
	double secs = now_s(&p->start), rate = secs > 0 ? (double)c->events / secs : 0, frac = 0;

	if (!p->on || (!last && now_s(&p->last) < 0.25))
		return;
	clock_gettime(CLOCK_MONOTONIC, &p->last);
	if (p->end_ns > p->begin_ns && c->last_ts > p->begin_ns)
		frac = (double)(c->last_ts - p->begin_ns) / (double)(p->end_ns - p->begin_ns);
	if (frac > 1 || last)
		frac = 1;
	fprintf(stderr, "\rltt-export: %" PRIu64 " events, %.0f events/s, %.1f of %.1f MiB",
		c->events, rate, frac * (double)p->bytes / 1048576, (double)p->bytes / 1048576);
	if (frac > 0.01 && !last)
		fprintf(stderr, ", ETA %.0f s   ", secs / frac - secs);
	else
		fputs("           ", stderr);
	if (last)
		fputc('\n', stderr);
}

static bt_graph_simple_sink_component_consume_func_status consume(bt_message_iterator *it,
								  void *data)
{
	struct run *run = data;
	bt_message_array_const msgs;
	uint64_t i, n = 0;

	switch (bt_message_iterator_next(it, &msgs, &n)) {
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_OK:
		break;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_END:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_END;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_AGAIN:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_AGAIN;
	case BT_MESSAGE_ITERATOR_NEXT_STATUS_MEMORY_ERROR:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_MEMORY_ERROR;
	default:
		return BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR;
	}
	for (i = 0; i < n; i++) {
		if (!run->err)
			run->err = exp_rows_message(run->rows, msgs[i]);
		bt_message_put_ref(msgs[i]);
	}
	show_progress(run->prog, exp_rows_counts(run->rows), false);
	return run->err ? BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_ERROR :
		BT_GRAPH_SIMPLE_SINK_COMPONENT_CONSUME_FUNC_STATUS_OK;
}

static const bt_component_class_source *fs_class(const bt_plugin **ret_plugin)
{
	if (bt_plugin_find("ctf", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, ret_plugin) !=
	    BT_PLUGIN_FIND_STATUS_OK)
		return NULL;
	return bt_plugin_borrow_source_component_class_by_name_const(*ret_plugin, "fs");
}

/* The inputs' time range from source.ctf.fs's babeltrace.trace-infos, for the ETA. */
static void time_range(const bt_component_class_source *cls, const char *dir,
		       struct progress *p)
{
	bt_value *params = bt_value_map_create(), *inputs = NULL;
	bt_query_executor *q = NULL;
	const bt_value *res = NULL;
	uint64_t i, j;

	if (!params || bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
	    bt_value_array_append_string_element(inputs, dir))
		goto end;
	q = bt_query_executor_create(bt_component_class_source_as_component_class_const(cls),
				     "babeltrace.trace-infos", params);
	if (!q || bt_query_executor_query(q, &res) || !bt_value_is_array(res))
		goto end;
	for (i = 0; i < bt_value_array_get_length(res); i++) {
		const bt_value *streams = bt_value_map_borrow_entry_value_const(
			bt_value_array_borrow_element_by_index_const(res, i), "stream-infos");

		for (j = 0; streams && bt_value_is_array(streams) &&
			    j < bt_value_array_get_length(streams); j++) {
			const bt_value *range = bt_value_map_borrow_entry_value_const(
				bt_value_array_borrow_element_by_index_const(streams, j), "range-ns");
			const bt_value *b = range ? bt_value_map_borrow_entry_value_const(range, "begin") : NULL;
			const bt_value *e = range ? bt_value_map_borrow_entry_value_const(range, "end") : NULL;

			if (!b || !e || !bt_value_is_signed_integer(b) || !bt_value_is_signed_integer(e))
				continue;
			if (!p->begin_ns || bt_value_integer_signed_get(b) < p->begin_ns)
				p->begin_ns = bt_value_integer_signed_get(b);
			if (bt_value_integer_signed_get(e) > p->end_ns)
				p->end_ns = bt_value_integer_signed_get(e);
		}
	}
end:
	bt_value_put_ref(res);
	bt_query_executor_put_ref(q);
	bt_value_put_ref(params);
	bt_current_thread_clear_error();
}

static int connect_all(bt_graph *graph, const bt_component_source *const *srcs, size_t nr,
		       const bt_component_filter *mux, const bt_component_sink *sink)
{
	uint64_t in = 0, i;
	size_t s;

	for (s = 0; s < nr; s++) {
		for (i = 0; i < bt_component_source_get_output_port_count(srcs[s]); i++) {
			if (bt_graph_connect_ports(graph,
				    bt_component_source_borrow_output_port_by_index_const(srcs[s], i),
				    bt_component_filter_borrow_input_port_by_index_const(mux, in++),
				    NULL))
				return -EIO;
		}
	}
	return bt_graph_connect_ports(graph,
				      bt_component_filter_borrow_output_port_by_index_const(mux, 0),
				      bt_component_sink_borrow_input_port_by_index_const(sink, 0),
				      NULL) ? -EIO : 0;
}

static int run_graph(const struct traces *t, struct run *run)
{
	const bt_plugin *ctf = NULL, *utils = NULL;
	const bt_component_class_source *fs = fs_class(&ctf);
	const bt_component_class_filter *muxer = NULL;
	const bt_component_source **srcs = calloc(t->nr ? t->nr : 1, sizeof(*srcs));
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_graph *graph = bt_graph_create(0);
	bt_graph_run_status st;
	size_t i;
	int ret = -EIO;

	if (bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &utils) ==
	    BT_PLUGIN_FIND_STATUS_OK)
		muxer = bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer");
	if (!fs || !muxer || !graph || !srcs) {
		say_bt_error("babeltrace2's ctf and utils plugins are not found (install babeltrace2)");
		goto end;
	}
	for (i = 0; i < t->nr; i++) {
		bt_value *params = bt_value_map_create(), *inputs = NULL;
		char name[32];

		snprintf(name, sizeof(name), "trace-%zu", i);
		if (run->prog->on)
			time_range(fs, t->dirs[i], run->prog);
		if (!params || bt_value_map_insert_empty_array_entry(params, "inputs", &inputs) ||
		    bt_value_array_append_string_element(inputs, t->dirs[i]) ||
		    bt_graph_add_source_component(graph, fs, name, params, BT_LOGGING_LEVEL_ERROR,
						  &srcs[i])) {
			bt_value_put_ref(params);
			fprintf(stderr, "ltt-export: can't read the trace in %s\n", t->dirs[i]);
			say_bt_error("babeltrace2");
			goto end;
		}
		bt_value_put_ref(params);
	}
	if (bt_graph_add_filter_component(graph, muxer, "muxer", NULL, BT_LOGGING_LEVEL_ERROR,
					  &mux) ||
	    bt_graph_add_simple_sink_component(graph, "ltt-export", NULL, consume, NULL, run,
					       &sink) ||
	    connect_all(graph, srcs, t->nr, mux, sink)) {
		say_bt_error("can't make babeltrace2's graph");
		goto end;
	}
	do
		st = bt_graph_run(graph);
	while (st == BT_GRAPH_RUN_STATUS_AGAIN);
	if (run->err)
		ret = run->err;
	else if (st != BT_GRAPH_RUN_STATUS_OK)
		say_bt_error("reading the traces");
	else
		ret = 0;
end:
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	free(srcs);
	return ret;
}

/* ---- the command line ---- */

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

static void free_traces(struct traces *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->dirs[i]);
	free(t->dirs);
}

static int gather(int argc, char **argv, struct traces *t, char ***ret_roots)
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
		ret = find_traces(t, roots[i], 0);
		if (ret) {
			fprintf(stderr, "ltt-export: '%s': %s\n", argv[i], strerror(-ret));
			return ret;
		}
	}
	if (!t->nr) {
		fprintf(stderr, "ltt-export: no CTF trace (a directory with a \"metadata\" file) "
			"under %s%s: give a session's trace directory\n", argv[0],
			argc > 1 ? " and the others" : "");
		return -ENOENT;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "to", required_argument, NULL, 't' }, { "progress", no_argument, NULL, 'p' },
		{ "quiet", no_argument, NULL, 'q' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const struct exp_engine_ops *ops = NULL;
	struct progress prog = { .on = isatty(STDERR_FILENO) };
	struct exp_engine *engine = NULL;
	struct traces traces = { 0 };
	const char *to = NULL, *where = NULL;
	const struct exp_counts *c;
	bool quiet = false;
	char err[512] = "";
	char **roots = NULL;
	struct run run = { 0 };
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
		case 'h':
			usage(stdout);
			return EXIT_SUCCESS;
		default:
			usage(stderr);
			return 2;
		}
	}
	prog.on = prog.on && !quiet;
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
	prog.bytes = traces.bytes;
	if (ops->open(where, &engine, err, sizeof(err))) {
		fprintf(stderr, "ltt-export: %s\n", err[0] ? err : strerror(ENOMEM));
		goto end;
	}
	run.rows = exp_rows_create(engine, (const char *const *)roots, (size_t)(argc - optind));
	run.prog = &prog;
	if (!run.rows) {
		fprintf(stderr, "ltt-export: out of memory\n");
		goto end;
	}
	clock_gettime(CLOCK_MONOTONIC, &prog.start);
	if (!run_graph(&traces, &run) && !(run.err = exp_rows_finish(run.rows)))
		ret = EXIT_SUCCESS;
	else if (run.err)
		fprintf(stderr, "ltt-export: %s\n",
			engine->err[0] ? engine->err : strerror(-run.err));
	c = exp_rows_counts(run.rows);
	show_progress(&prog, c, true);
	if (!quiet)
		fprintf(ret ? stderr : stdout,
			"%s %" PRIu64 " events of %zu trace%s into %s%s (%" PRIu64 " packets; %" PRIu64
			" events of packets exported before, skipped; %" PRIu64 " events and %" PRIu64
			" packets the tracer counted lost)\n",
			ret ? "Stopped after" : "Exported", c->events, traces.nr,
			traces.nr == 1 ? "" : "s", to,
			ret ? ", the rest not: run it again to go on" : "", c->packets, c->skipped,
			c->discarded, c->lost_packets);
end:
	exp_rows_destroy(run.rows);
	if (engine)
		engine->ops->close(engine);
	free_traces(&traces);
	for (i = 0; roots && roots[i]; i++)
		free(roots[i]);
	free(roots);
	return ret;
}
