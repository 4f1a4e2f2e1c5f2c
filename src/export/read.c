// SPDX-License-Identifier: GPL-2.0-only
/*
 * read.c - the traces under ltt-export's inputs, read with babeltrace2's
 * library: a source.ctf.fs component per trace, filter.utils.muxer to
 * put their messages in time order, and a simple sink that hands each to
 * rows.c; the progress line.  Memory stays bounded: the graph holds a
 * message at a time per stream.
 */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <babeltrace2/babeltrace.h>

#include "export/export.h"

#define MAX_TRACES 100000
#define MAX_DEPTH 16

struct run {
	struct exp_rows *rows;
	struct exp_progress *prog;
	int err;
};

static double now_s(const struct timespec *since)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)(t.tv_sec - since->tv_sec) + (double)(t.tv_nsec - since->tv_nsec) / 1e9;
}

/* ---- the traces under the inputs ---- */

/* Is the trace in @dir CTF 2 (its metadata begins with a record separator)? */
static bool is_ctf2(const char *dir)
{
	char path[PATH_MAX];
	unsigned char c = 0;
	FILE *f;

	if (snprintf(path, sizeof(path), "%s/metadata", dir) >= (int)sizeof(path))
		return false;
	f = fopen(path, "re");
	if (!f)
		return false;
	if (fread(&c, 1, 1, f) != 1)
		c = 0;
	fclose(f);
	return c == 0x1e;
}

int exp_add_trace(struct exp_traces *t, const char *dir)
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
	if (!t->dirs[t->nr])
		return -ENOMEM;
	if (is_ctf2(dir))
		t->ctf2++;
	t->nr++;
	return 0;
}

/* Every directory under @dir (no link followed) holding a regular "metadata". */
static int find_traces(struct exp_traces *t, const char *dir, int depth)
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
		ret = exp_add_trace(t, dir);
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

void exp_progress_show(struct exp_progress *p, const struct exp_counts *c, bool last)
{
	double secs, rate, frac = 0;

	if (!p || !p->on)
		return;
	secs = now_s(&p->start);
	rate = secs > 0 ? (double)c->events / secs : 0;
	if ( (!last && now_s(&p->last) < 0.25))
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
	exp_progress_show(run->prog, exp_rows_counts(run->rows), false);
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
		       struct exp_progress *p)
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

int exp_traces_readable(const struct exp_traces *t)
{
	if (!t->ctf2 || bt_version_get_major() > 2 || bt_version_get_minor() >= 1)
		return 0;
	fprintf(stderr, "ltt-export: %zu of the traces are CTF 2, which babeltrace2's library "
		"reads from 2.1 on, and this one is %" PRIu64 ".%" PRIu64 ": export them where "
		"libbabeltrace2 2.1 is (Debian 13 and later), or record with "
		"--trace-format=ctf-1.8\n", t->ctf2, (uint64_t)bt_version_get_major(),
		(uint64_t)bt_version_get_minor());
	return -ECANCELED;
}

int exp_read_traces(const struct exp_traces *t, struct exp_rows *rows, struct exp_progress *prog)
{
	struct run runv = { rows, prog, 0 }, *run = &runv;
	const bt_plugin *ctf = NULL, *utils = NULL;
	const bt_component_class_source *fs = fs_class(&ctf);
	const bt_component_class_filter *muxer = NULL;
	const bt_component_source **srcs = calloc(t->nr ? t->nr : 1, sizeof(*srcs));
	const bt_component_filter *mux = NULL;
	const bt_component_sink *sink = NULL;
	bt_graph *graph = bt_graph_create(0);
	bt_graph_run_status st;
	size_t i;
	int ret = -ECANCELED;	/* said, where babeltrace2 is the cause */

	if (bt_plugin_find("utils", BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, BT_TRUE, &utils) ==
	    BT_PLUGIN_FIND_STATUS_OK)
		muxer = bt_plugin_borrow_filter_component_class_by_name_const(utils, "muxer");
	if (exp_traces_readable(t))
		goto end;
	if (!fs || !muxer || !graph || !srcs) {
		say_bt_error("babeltrace2's ctf and utils plugins are not found (install babeltrace2)");
		goto end;
	}
	for (i = 0; i < t->nr; i++) {
		bt_value *params = bt_value_map_create(), *inputs = NULL;
		char name[32];

		snprintf(name, sizeof(name), "trace-%zu", i);
		if (prog && prog->on)
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
	bt_current_thread_clear_error();	/* an engine's failure leaves babeltrace2's too */
	bt_graph_put_ref(graph);
	bt_plugin_put_ref(ctf);
	bt_plugin_put_ref(utils);
	free(srcs);
	return ret;
}

/* ---- the command line ---- */

void exp_free_traces(struct exp_traces *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->dirs[i]);
	free(t->dirs);
	memset(t, 0, sizeof(*t));
}

int exp_find_traces(struct exp_traces *t, const char *const *roots, size_t nr)
{
	size_t i;
	int ret = 0;

	for (i = 0; !ret && i < nr; i++)
		ret = find_traces(t, roots[i], 0);
	return ret;
}
