/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * export.h - ltt-export (run by `lttctl export-trace`): CTF traces, as
 * babeltrace2's library reads them, into SQL tables (doc/sql.md).
 *
 *   main.c            the command line: an export once, or --follow
 *   read.c            the traces found under the inputs, babeltrace2's
 *                     graph (src.ctf.fs per trace, utils.muxer, our
 *                     sink), the progress line
 *   follow.c          --follow: traces being written, exported round
 *                     after round as their index files grow
 *   rows.c            the layout: an event's rows, the events, discarded
 *                     and ltt_packets tables; which packets go (each once)
 *   class.c           an event class's table: its columns, typed
 *   value.c           a field's value in its column
 *   buf.c             a growing text buffer (JSON values, SQL, HTTP)
 *   pipe.c            an engine's writer thread: blocks of rows written
 *                     while the main thread reads the trace on; an
 *                     engine's failure said (exp_engine_fail())
 *   sql-sqlite.c      the SQLite engine (libsqlite3): one file
 *   sql-clickhouse.c  the ClickHouse engine: its HTTP interface
 *   http.c            the HTTP client it posts with
 *
 * The seam is struct exp_engine_ops: rows.c says what tables and rows
 * there are and which packets go, an engine only how to keep them.
 * Every engine keeps the same layout, so a query runs on either.  Two
 * threads: the main one runs babeltrace2's graph and rows.c and makes
 * blocks of rows; the engine's writer (pipe.c) inserts or posts them.
 */
#ifndef LTT_EXPORT_EXPORT_H
#define LTT_EXPORT_EXPORT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

/* buf.c: a NUL-terminated text that grows; on no memory it says so once. */
struct exp_buf {
	char *s;
	size_t len;
	size_t cap;
	bool nomem;
};

void exp_buf_add(struct exp_buf *b, const char *s, size_t len);
void exp_buf_str(struct exp_buf *b, const char *s);
void exp_buf_printf(struct exp_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* A decimal integer, without printf's cost (@negative: a '-' before @v). */
void exp_buf_u64(struct exp_buf *b, uint64_t v, bool negative);
void exp_buf_i64(struct exp_buf *b, int64_t v);
/* @s as a JSON string (quotes, escapes; bytes >= 0x80 kept as they are). */
void exp_buf_json_str(struct exp_buf *b, const char *s);
void exp_buf_reset(struct exp_buf *b);
void exp_buf_fini(struct exp_buf *b);

/* A column's type: what both engines keep it as (doc/sql.md's table). */
enum exp_type {
	EXP_INT,	/* signed 64-bit (SQLite INTEGER, ClickHouse Int64) */
	EXP_UINT,	/* unsigned 64-bit (SQLite INTEGER: above 2^63-1, negative) */
	EXP_REAL,	/* double */
	EXP_TEXT,	/* UTF-8 text */
	EXP_JSON,	/* a structure, variant or array of them, as JSON text */
	EXP_ARR_INT,	/* an array of integers (SQLite: JSON text) */
	EXP_ARR_UINT,
	EXP_ARR_REAL,
};

struct exp_col {
	char *name;
	enum exp_type type;
};

/*
 * A table: its name and the columns this writer fills (a table the
 * database already has may have more: other traces' fields).  @priv is
 * the engine's (its statement, its block of rows), freed by its
 * table_fini.
 */
struct exp_table {
	char *name;
	struct exp_col *cols;
	size_t nr_cols;
	const char *key;	/* the column rows are looked up by (indexed), or NULL */
	void *priv;
};

/* A value of one row's column; text borrowed until the row is taken. */
struct exp_val {
	enum { EXP_V_NULL, EXP_V_INT, EXP_V_UINT, EXP_V_REAL, EXP_V_TEXT } kind;
	union {
		int64_t i;
		uint64_t u;
		double d;
		struct {
			const char *s;
			size_t len;
		} t;
	};
};

struct exp_engine;

/*
 * An engine.  Each returns 0 or a negative errno with its sentence in
 * e->err (exp_engine_fail()); none is called again after one failed.
 * - table: make @t exist with (at least) its columns, adding those it
 *   lacks; set t->priv.
 * - row: one row of @t, values in t->cols' order.
 * - packets: ltt_packets' packets (rows.c's ids) when opened, in a
 *   heap array the caller frees, in any order.
 * - row: may only add the row to a block that the engine's writer
 *   thread (struct exp_pipe) writes later: its failure may come with a
 *   later call.
 * - commit: what was given so far is kept, in order (SQLite: the
 *   transaction; ClickHouse: every table's block, ltt_packets' last);
 *   it may return before it is written.
 * - sync: what was committed is written (0), or the error.
 * - finish: the last commit; the export ended whole.
 * - close: free; an export not finished leaves the rows of packets
 *   with no ltt_packets row, which the next open deletes ("recovers").
 */
struct exp_engine_ops {
	const char *scheme;
	int (*open)(const char *where, struct exp_engine **ret_engine, char *err, size_t len);
	int (*table)(struct exp_engine *e, struct exp_table *t);
	int (*row)(struct exp_engine *e, struct exp_table *t, const struct exp_val *vals);
	int (*packets)(struct exp_engine *e, int64_t **ret_packets, size_t *ret_nr);
	int (*commit)(struct exp_engine *e);
	int (*sync)(struct exp_engine *e);
	int (*finish)(struct exp_engine *e);
	void (*table_fini)(struct exp_engine *e, struct exp_table *t);
	void (*close)(struct exp_engine *e);
};

/* pipe.c: an engine's writer thread (the engine's err is its to write when it fails). */
struct exp_pipe;

/* Write @len bytes of a block for @dest (the engine's); 0 or a negative errno. */
typedef int (*exp_pipe_write_fn)(struct exp_engine *e, void *dest, const char *data, size_t len);

/* A writer thread calling @write for each block sent; NULL on no memory. */
struct exp_pipe *exp_pipe_create(struct exp_engine *engine, exp_pipe_write_fn write);
/**
 * exp_pipe_send() - queue @block for @dest, waiting for room (at most 8
 * queued); takes @block's text and leaves it empty (or a spare one).
 * Returns 0, or the writer's first error (then nothing is queued).
 */
int exp_pipe_send(struct exp_pipe *p, void *dest, struct exp_buf *block);
/* Wait until every block sent is written; 0 or the writer's first error. */
int exp_pipe_sync(struct exp_pipe *p);
/* Stop the writer (what is still queued is dropped) and free. */
void exp_pipe_destroy(struct exp_pipe *p);

/* Every engine starts with this. */
struct exp_engine {
	const struct exp_engine_ops *ops;
	char err[512];		/* why it failed, for the main thread */
	char werr[512];		/* the writer thread's, made err's by pipe.c */
};

/* pipe.c: say why @e failed, in werr from its writer thread, else in err; returns @err. */
int exp_engine_fail(struct exp_engine *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* http.c */

/**
 * exp_http_post() - POST @query (URL-encoded here) with @len bytes of @body
 * (may be NULL) to HOST:PORT; the answer's body in @resp (reset first)
 * Returns 0 for a 200, else a negative errno with its sentence in @e
 * (ClickHouse's own for another status).  Any thread (its resp its own).
 */
int exp_http_post(struct exp_engine *e, const char *host, const char *port, const char *query,
		  const char *body, size_t len, struct exp_buf *resp);

/* sql-sqlite.c, sql-clickhouse.c: the engines */
extern const struct exp_engine_ops exp_sqlite_ops;
extern const struct exp_engine_ops exp_clickhouse_ops;

/* value.c */
struct bt_field;

/**
 * exp_value() - field @f (borrowed) as a column of type @col_type in @v
 * @b: the text @v points to when the value is made (JSON, labels); reset
 * @label: the label(s) of an enumeration, not its integer
 * A value that can't be had (no memory for its text) is NULL.
 */
void exp_value(struct exp_val *v, struct exp_buf *b, enum exp_type col_type, bool label,
	       const struct bt_field *f);

/* class.c */
struct bt_event_class;

/* A column of a table of the layout's own. */
struct exp_col_spec {
	const char *name;
	enum exp_type type;
};

enum exp_scope { EXP_SCOPE_COMMON, EXP_SCOPE_SPECIFIC, EXP_SCOPE_PAYLOAD, EXP_NR_SCOPES };

/* Where a column after the first ones takes its value from. */
struct exp_plan {
	enum exp_scope scope;
	uint64_t member;	/* the scope structure's member */
	bool label;		/* an enumeration's label(s), not its integer */
};

/* An event class's table, and where events' pid, tid, procname are. */
struct exp_class {
	const struct bt_event_class *key;
	struct exp_table table;
	size_t nr_fixed;		/* the caller's first columns */
	struct exp_plan *plan;		/* table.nr_cols - nr_fixed */
	long pid_col, tid_col, procname_col;	/* -1: none */
	struct exp_buf *bufs;		/* a column's text, per row */
	struct exp_val *vals;
};

/**
 * exp_class_create() - the table of event class @ec (borrowed: the
 * class stays the caller's while the result lives)
 * @fixed: its first columns (copied), @nr_fixed of them
 * Returns NULL on no memory.
 */
struct exp_class *exp_class_create(const struct bt_event_class *ec,
				   const struct exp_col_spec *fixed, size_t nr_fixed);
/* Free @c (its table's engine part finished first by the caller); NULL is fine. */
void exp_class_destroy(struct exp_class *c);

/* rows.c */
struct exp_rows;
struct bt_message;

/* What an export did, for the summary and the progress line. */
struct exp_counts {
	uint64_t events;	/* rows of events written */
	uint64_t skipped;	/* events of packets exported before */
	uint64_t packets;
	uint64_t discarded;	/* events the tracer counted lost */
	uint64_t lost_packets;
	int64_t last_ts;	/* the last event's, ns since the epoch */
};

/**
 * exp_rows_create() - the layout's writer onto @engine (borrowed)
 * @roots: the inputs, stream names are made relative to (borrowed)
 * Returns NULL on no memory.
 */
struct exp_rows *exp_rows_create(struct exp_engine *engine, const char *const *roots,
				 size_t nr_roots);
/**
 * exp_rows_message() - take one of the graph's messages (borrowed)
 * Returns 0, or the engine's or -ENOMEM's negative errno.
 */
int exp_rows_message(struct exp_rows *r, const struct bt_message *msg);
/* The counts so far (borrowed). */
const struct exp_counts *exp_rows_counts(const struct exp_rows *r);
/* Everything taken so far kept (the engine's commit); @wait: written when it returns. */
int exp_rows_commit(struct exp_rows *r, bool wait);
/*
 * The end of a graph's messages (follow.c's round): what points into its
 * objects let go (event classes' tables, streams); the counts and the
 * packets exported stay.
 */
void exp_rows_round_end(struct exp_rows *r);
/* Stream paths begin with @prefix (borrowed; follow.c's round directory): not in their names. */
void exp_rows_set_prefix(struct exp_rows *r, const char *prefix);
/* The end: the engine's finish (nothing left open). */
int exp_rows_finish(struct exp_rows *r);
void exp_rows_destroy(struct exp_rows *r);

/* read.c: the traces under the inputs, and reading them. */
struct exp_traces {
	char **dirs;		/* each a directory holding "metadata" */
	size_t nr, cap;
	size_t ctf2;		/* of them, CTF 2 (babeltrace2 2.1 reads them) */
	uint64_t bytes;		/* their data files' */
};

struct exp_progress {
	bool on;
	struct timespec start, last;
	int64_t begin_ns, end_ns;	/* the inputs' time range, or 0, 0 */
	uint64_t bytes;
};

/* Add @dir (copied) unless there; -ENOMEM, -E2BIG past 100,000 traces. */
int exp_add_trace(struct exp_traces *t, const char *dir);
/* Every directory under @roots (no link followed, 16 deep) holding a regular "metadata". */
int exp_find_traces(struct exp_traces *t, const char *const *roots, size_t nr);
void exp_free_traces(struct exp_traces *t);
/* Can this babeltrace2 read @t's traces (CTF 2 from 2.1 on)?  0, or -ECANCELED (said). */
int exp_traces_readable(const struct exp_traces *t);
/**
 * exp_read_traces() - every message of @t's traces, in time order, into @rows
 * @prog: the progress line's (may be NULL: none)
 * Returns 0, the engine's error, or -ECANCELED for babeltrace2's (said).
 */
int exp_read_traces(const struct exp_traces *t, struct exp_rows *rows, struct exp_progress *prog);
/* The progress line on stderr, at most 4 times a second; @last: the final one. */
void exp_progress_show(struct exp_progress *p, const struct exp_counts *c, bool last);

/* follow.c */
struct exp_follow_args {
	const struct exp_engine_ops *ops;
	const char *where;
	const char *const *roots;
	size_t nr_roots;
	unsigned int interval_ms;
	bool quiet;
};

/* Export the traces under the roots as they grow, until SIGINT or SIGTERM; 0 or an errno. */
int exp_follow(const struct exp_follow_args *a);

#endif
