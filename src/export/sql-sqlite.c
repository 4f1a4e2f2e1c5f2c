// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-sqlite.c - ltt-export's SQLite engine: the layout in one database
 * file (libsqlite3), written in transactions that end at packet ends.
 *
 * Rows go in blocks (a table's, BLOCK_BYTES) to the engine's writer
 * thread (pipe.c), which binds and inserts them while the main thread
 * reads the trace on; the main thread touches the database only when
 * the writer is idle (a table made, the export's start and end).  The
 * file is in WAL mode, so that readers query it while an export writes.  ltt_export_state says whether the last export ended whole; if
 * not, open deletes the rows of packets that have no ltt_packets row
 * (their export was cut short: they go again, once).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>
#include <sys/file.h>
#include <unistd.h>

#include "common/base/fault.h"
#include "export/export.h"

#define BLOCK_BYTES (256u << 10)

/* A table's statement and the block of rows not sent yet. */
struct sqlite_table {
	struct exp_table *t;
	sqlite3_stmt *insert;
	struct exp_buf rows;	/* per value: its kind, then 8 bytes or a length and text */
	struct sqlite_table *next;
};

struct sqlite_engine {
	struct exp_engine e;
	sqlite3 *db;
	int lock_fd;		/* the file, flock()ed: one export writes it at a time */
	struct exp_pipe *pipe;
	struct sqlite_table *tables;
	bool in_txn;
};

static char commit_mark;	/* a block for it: COMMIT, then BEGIN */

#define SE(e) ((struct sqlite_engine *)(e))

static int db_fail(struct sqlite_engine *s, const char *what)
{
	return exp_engine_fail(&s->e, -EIO, "SQLite: %s: %s", what, sqlite3_errmsg(s->db));
}

static int exec(struct sqlite_engine *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	exp_engine_fail(&s->e, -EIO, "SQLite: %s (%.200s)", msg ? msg : "error", sql);
	sqlite3_free(msg);
	return -EIO;
}

/* @name as an SQL identifier: in double quotes, quotes doubled. */
static void ident(struct exp_buf *b, const char *name)
{
	exp_buf_str(b, "\"");
	for (; *name; name++) {
		if (*name == '"')
			exp_buf_add(b, "\"", 1);
		exp_buf_add(b, name, 1);
	}
	exp_buf_str(b, "\"");
}

static const char *sql_type(enum exp_type t)
{
	switch (t) {
	case EXP_INT:
	case EXP_UINT:
		return "INTEGER";
	case EXP_REAL:
		return "REAL";
	default:
		return "TEXT";	/* text, JSON, arrays as JSON */
	}
}

/* The tables with a packet column: rows of packets with no ltt_packets row deleted. */
static int recover(struct sqlite_engine *s)
{
	static const char list[] =
		"SELECT m.name FROM sqlite_master m, pragma_table_info(m.name) c "
		"WHERE m.type = 'table' AND c.name = 'packet' AND m.name != 'ltt_packets'";
	struct exp_buf sql = { 0 };
	sqlite3_stmt *st;
	int ret = 0, rc;

	if (sqlite3_prepare_v2(s->db, list, -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, "listing the tables");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		exp_buf_str(&sql, "DELETE FROM ");
		ident(&sql, (const char *)sqlite3_column_text(st, 0));
		exp_buf_str(&sql, " WHERE packet NOT IN (SELECT packet FROM ltt_packets);");
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		ret = db_fail(s, "listing the tables");
	else if (sql.nomem)
		ret = -ENOMEM;
	else if (sql.len)
		ret = exec(s, sql.s);
	exp_buf_fini(&sql);
	return ret;
}

static int begin_export(struct sqlite_engine *s)
{
	sqlite3_stmt *st;
	bool clean = true, had_packets;
	int ret, rc;

	ret = exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
		   "PRAGMA cache_size=-65536; "
		   "CREATE TABLE IF NOT EXISTS ltt_export_state (clean INTEGER NOT NULL);");
	if (ret)
		return ret;
	ret = exec(s, "BEGIN IMMEDIATE");	/* what is read next, no one changes meanwhile */
	if (ret)
		return ret;
	s->in_txn = true;
	if (sqlite3_prepare_v2(s->db, "SELECT clean FROM ltt_export_state", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_fail(s, "reading ltt_export_state");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		clean = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(s, "reading ltt_export_state");
	had_packets = sqlite3_table_column_metadata(s->db, NULL, "ltt_packets", "packet", NULL,
						    NULL, NULL, NULL, NULL) == SQLITE_OK;
	if (!clean && had_packets)
		ret = recover(s);
	if (!ret)
		ret = exec(s, "DELETE FROM ltt_export_state; INSERT INTO ltt_export_state VALUES (0); "
			   "COMMIT; BEGIN");
	return ret;
}

static int sqlite_write(struct exp_engine *e, void *dest, const char *p, size_t len);

static int sqlite_open(const char *where, struct exp_engine **ret_engine, char *err, size_t len)
{
	struct sqlite_engine *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->e.ops = &exp_sqlite_ops;
	s->lock_fd = -1;
	if (sqlite3_open_v2(where, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE |
			    SQLITE_OPEN_NOMUTEX, NULL) !=
	    SQLITE_OK) {
		snprintf(err, len, "SQLite database '%s': %s", where,
			 s->db ? sqlite3_errmsg(s->db) : "out of memory");
		sqlite3_close(s->db);
		free(s);
		return -EIO;
	}
	sqlite3_busy_timeout(s->db, 10000);
	/*
	 * One export at a time: another's recovery would take this one's
	 * packets being written for a dead export's (a BSD lock: SQLite's
	 * own are POSIX locks, which it does not disturb; closed after it).
	 */
	s->lock_fd = open(where, O_RDONLY | O_CLOEXEC);
	if (s->lock_fd < 0 || flock(s->lock_fd, LOCK_EX | LOCK_NB))
		ret = exp_engine_fail(&s->e, -EBUSY, "SQLite database '%s': %s", where,
				      s->lock_fd < 0 ? strerror(errno) :
				      "another ltt-export writes it now: run this one when it "
				      "ends (SQLite takes one writer)");
	else
		ret = begin_export(s);
	if (!ret) {
		s->pipe = exp_pipe_create(&s->e, sqlite_write);
		if (!s->pipe)
			ret = exp_engine_fail(&s->e, -ENOMEM, "out of memory");
	}
	if (ret) {
		snprintf(err, len, "%s", s->e.err);
		s->e.ops->close(&s->e);
		return ret;
	}
	*ret_engine = &s->e;
	return 0;
}

/* Has @t's table column @name? */
static bool has_col(struct sqlite_engine *s, const char *table, const char *name)
{
	return sqlite3_table_column_metadata(s->db, NULL, table, name, NULL, NULL, NULL, NULL,
					     NULL) == SQLITE_OK;
}

static int sqlite_table(struct exp_engine *e, struct exp_table *t)
{
	struct sqlite_engine *s = SE(e);
	struct sqlite_table *st = NULL;
	struct exp_buf sql = { 0 };
	sqlite3_stmt *insert = NULL;
	size_t i;
	int ret;

	ret = exp_pipe_sync(s->pipe);	/* the connection is the writer's meanwhile */
	if (ret)
		return ret;
	exp_buf_str(&sql, "CREATE TABLE IF NOT EXISTS ");
	ident(&sql, t->name);
	for (i = 0; i < t->nr_cols; i++) {
		exp_buf_str(&sql, i ? ", " : " (");
		ident(&sql, t->cols[i].name);
		exp_buf_printf(&sql, " %s", sql_type(t->cols[i].type));
	}
	exp_buf_str(&sql, ")");
	ret = sql.nomem ? -ENOMEM : exec(s, sql.s);
	for (i = 0; !ret && i < t->nr_cols; i++) {
		if (has_col(s, t->name, t->cols[i].name))
			continue;
		exp_buf_reset(&sql);
		exp_buf_str(&sql, "ALTER TABLE ");
		ident(&sql, t->name);
		exp_buf_str(&sql, " ADD COLUMN ");
		ident(&sql, t->cols[i].name);
		exp_buf_printf(&sql, " %s", sql_type(t->cols[i].type));
		ret = sql.nomem ? -ENOMEM : exec(s, sql.s);
	}
	if (!ret && t->key) {
		struct exp_buf index = { 0 };

		exp_buf_printf(&index, "%s_by_%s", t->name, t->key);
		exp_buf_reset(&sql);
		exp_buf_str(&sql, "CREATE UNIQUE INDEX IF NOT EXISTS ");
		ident(&sql, index.s ? index.s : "");
		exp_buf_str(&sql, " ON ");
		exp_buf_fini(&index);
		ident(&sql, t->name);
		exp_buf_str(&sql, " (");
		ident(&sql, t->key);
		exp_buf_str(&sql, ")");
		ret = sql.nomem ? -ENOMEM : exec(s, sql.s);
	}
	if (!ret) {
		exp_buf_reset(&sql);
		exp_buf_str(&sql, "INSERT INTO ");
		ident(&sql, t->name);
		for (i = 0; i < t->nr_cols; i++) {
			exp_buf_str(&sql, i ? ", " : " (");
			ident(&sql, t->cols[i].name);
		}
		exp_buf_str(&sql, ") VALUES (");
		for (i = 0; i < t->nr_cols; i++)
			exp_buf_str(&sql, i ? ", ?" : "?");
		exp_buf_str(&sql, ")");
		if (sql.nomem)
			ret = -ENOMEM;
		else if (sqlite3_prepare_v2(s->db, sql.s, -1, &insert, NULL) != SQLITE_OK)
			ret = db_fail(s, t->name);
	}
	exp_buf_fini(&sql);
	if (!ret && !(st = calloc(1, sizeof(*st))))
		ret = -ENOMEM;
	if (ret) {
		sqlite3_finalize(insert);
		return ret;
	}
	st->t = t;
	st->insert = insert;
	st->next = s->tables;
	s->tables = st;
	t->priv = st;
	return 0;
}

/* One value of a block: its kind, then its 8 bytes, or its text's length and bytes. */
static void put_val(struct exp_buf *b, const struct exp_val *v)
{
	char kind = (char)v->kind;
	uint32_t len;

	exp_buf_add(b, &kind, 1);
	switch (v->kind) {
	case EXP_V_NULL:
		break;
	case EXP_V_INT:
	case EXP_V_UINT:
	case EXP_V_REAL:
		exp_buf_add(b, (const char *)&v->u, 8);
		break;
	case EXP_V_TEXT:
		len = v->t.len > INT32_MAX ? INT32_MAX : (uint32_t)v->t.len;	/* SQLite's int */
		exp_buf_add(b, (const char *)&len, sizeof(len));
		exp_buf_add(b, v->t.s, len);
		break;
	}
}

static int sqlite_row(struct exp_engine *e, struct exp_table *t, const struct exp_val *vals)
{
	struct sqlite_table *st = t->priv;
	size_t i;

	for (i = 0; i < t->nr_cols; i++)
		put_val(&st->rows, &vals[i]);
	if (st->rows.nomem)
		return -ENOMEM;
	return st->rows.len >= BLOCK_BYTES ? exp_pipe_send(SE(e)->pipe, st, &st->rows) : 0;
}

/* The writer thread: a block's rows inserted (or the commit mark's COMMIT). */
static int sqlite_write(struct exp_engine *e, void *dest, const char *p, size_t len)
{
	struct sqlite_engine *s = SE(e);
	struct sqlite_table *st = dest;
	const char *end = p ? p + len : p;	/* the commit mark's block is empty */
	int col, rc = SQLITE_OK;
	uint64_t word;
	uint32_t tlen;

	if (dest == &commit_mark) {
		int ret = exec(s, "COMMIT; BEGIN");

		/* A test's export cut short here: other streams' packets half kept. */
		ltt_fault_point("export-committed");
		return ret;
	}
	while (p < end && rc == SQLITE_OK) {
		for (col = 1; col <= (int)st->t->nr_cols && rc == SQLITE_OK; col++) {
			char kind = *p++;

			if (kind == EXP_V_NULL) {
				rc = sqlite3_bind_null(st->insert, col);
				continue;
			}
			if (kind == EXP_V_TEXT) {
				memcpy(&tlen, p, sizeof(tlen));
				rc = sqlite3_bind_text(st->insert, col, p + sizeof(tlen), (int)tlen,
						       SQLITE_STATIC);
				p += sizeof(tlen) + tlen;
				continue;
			}
			memcpy(&word, p, 8);
			p += 8;
			if (kind == EXP_V_REAL) {
				double d;

				memcpy(&d, &word, sizeof(d));
				rc = sqlite3_bind_double(st->insert, col, d);
			} else {
				rc = sqlite3_bind_int64(st->insert, col, (sqlite3_int64)word);
			}
		}
		if (rc == SQLITE_OK)
			rc = sqlite3_step(st->insert);
		sqlite3_reset(st->insert);	/* every column is bound again for the next row */
		rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
	}
	return rc == SQLITE_OK ? 0 : db_fail(s, st->t->name);
}

static int sqlite_packets(struct exp_engine *e, int64_t **ret_packets, size_t *ret_nr)
{
	struct sqlite_engine *s = SE(e);
	int64_t *v = NULL, *nv;
	size_t nr = 0, cap = 0;
	sqlite3_stmt *st;
	int rc, ret;

	ret = exp_pipe_sync(s->pipe);
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(s->db, "SELECT packet FROM ltt_packets", -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, "ltt_packets");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (nr == cap) {
			cap = cap ? cap * 2 : 1024;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				break;
			v = nv;
		}
		v[nr++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return rc == SQLITE_ROW ? -ENOMEM : db_fail(s, "ltt_packets");
	}
	*ret_packets = v;
	*ret_nr = nr;
	return 0;
}

/* Every table's block to the writer, then @mark's (NULL: none). */
static int send_all(struct sqlite_engine *s, void *mark)
{
	struct exp_buf none = { 0 };
	struct sqlite_table *st;
	int ret = 0;

	for (st = s->tables; st && !ret; st = st->next) {
		if (st->rows.len)
			ret = exp_pipe_send(s->pipe, st, &st->rows);
	}
	if (!ret && mark)
		ret = exp_pipe_send(s->pipe, mark, &none);
	exp_buf_fini(&none);
	return ret;
}

static int sqlite_commit(struct exp_engine *e)
{
	return send_all(SE(e), &commit_mark);
}

static int sqlite_sync(struct exp_engine *e)
{
	return exp_pipe_sync(SE(e)->pipe);
}

static int sqlite_finish(struct exp_engine *e)
{
	struct sqlite_engine *s = SE(e);
	int ret = send_all(s, NULL);

	if (!ret)
		ret = exp_pipe_sync(s->pipe);
	if (!ret)
		ret = exec(s, "UPDATE ltt_export_state SET clean = 1; COMMIT");
	s->in_txn = ret != 0;
	return ret;
}

static void sqlite_table_fini(struct exp_engine *e, struct exp_table *t)
{
	struct sqlite_engine *s = SE(e);
	struct sqlite_table *st = t->priv, **pp;

	exp_pipe_sync(s->pipe);	/* not in the writer's hands (an error stops it first) */
	for (pp = &s->tables; *pp; pp = &(*pp)->next) {
		if (*pp == st) {
			*pp = st->next;
			break;
		}
	}
	sqlite3_finalize(st->insert);
	exp_buf_fini(&st->rows);
	free(st);
	t->priv = NULL;
}

static void sqlite_close(struct exp_engine *e)
{
	struct sqlite_engine *s = SE(e);

	if (!s)
		return;
	exp_pipe_destroy(s->pipe);
	if (s->in_txn)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_close(s->db);
	if (s->lock_fd >= 0)
		close(s->lock_fd);	/* after SQLite's close: its POSIX locks are gone then */
	free(s);
}

const struct exp_engine_ops exp_sqlite_ops = {
	.scheme = "sqlite",
	.open = sqlite_open,
	.table = sqlite_table,
	.row = sqlite_row,
	.packets = sqlite_packets,
	.commit = sqlite_commit,
	.sync = sqlite_sync,
	.finish = sqlite_finish,
	.table_fini = sqlite_table_fini,
	.close = sqlite_close,
};
