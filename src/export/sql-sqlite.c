// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-sqlite.c - ltt-export's SQLite engine: the layout in one database
 * file (libsqlite3), written in transactions that end at packet ends.
 *
 * The file is in WAL mode, so that readers query it while an export
 * writes.  ltt_export_state says whether the last export ended whole; if
 * not, open deletes the rows of packets that have no ltt_packets row
 * (their export was cut short: they go again, once).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "export/export.h"

struct sqlite_engine {
	struct exp_engine e;
	sqlite3 *db;
	sqlite3_stmt *seen;
	bool in_txn;
};

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
	int ret = 0;

	if (sqlite3_prepare_v2(s->db, list, -1, &st, NULL) != SQLITE_OK)
		return db_fail(s, "listing the tables");
	while (sqlite3_step(st) == SQLITE_ROW) {
		exp_buf_str(&sql, "DELETE FROM ");
		ident(&sql, (const char *)sqlite3_column_text(st, 0));
		exp_buf_str(&sql, " WHERE packet NOT IN (SELECT packet FROM ltt_packets);");
	}
	sqlite3_finalize(st);
	if (sql.nomem)
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
	int ret;

	ret = exec(s, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
		   "PRAGMA cache_size=-65536; "
		   "CREATE TABLE IF NOT EXISTS ltt_export_state (clean INTEGER NOT NULL);");
	if (ret)
		return ret;
	if (sqlite3_prepare_v2(s->db, "SELECT clean FROM ltt_export_state", -1, &st, NULL) !=
	    SQLITE_OK)
		return db_fail(s, "reading ltt_export_state");
	if (sqlite3_step(st) == SQLITE_ROW)
		clean = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	had_packets = sqlite3_table_column_metadata(s->db, NULL, "ltt_packets", "packet", NULL,
						    NULL, NULL, NULL, NULL) == SQLITE_OK;
	ret = exec(s, "BEGIN IMMEDIATE");
	if (ret)
		return ret;
	s->in_txn = true;
	if (!clean && had_packets)
		ret = recover(s);
	if (!ret)
		ret = exec(s, "DELETE FROM ltt_export_state; INSERT INTO ltt_export_state VALUES (0); "
			   "COMMIT; BEGIN");
	return ret;
}

static int sqlite_open(const char *where, struct exp_engine **ret_engine, char *err, size_t len)
{
	struct sqlite_engine *s = calloc(1, sizeof(*s));
	int ret;

	if (!s)
		return -ENOMEM;
	s->e.ops = &exp_sqlite_ops;
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
	ret = begin_export(s);
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
	struct exp_buf sql = { 0 };
	sqlite3_stmt *st = NULL;
	size_t i;
	int ret;

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
		else if (sqlite3_prepare_v2(s->db, sql.s, -1, &st, NULL) != SQLITE_OK)
			ret = db_fail(s, t->name);
	}
	exp_buf_fini(&sql);
	if (!ret)
		t->priv = st;
	return ret;
}

static int sqlite_row(struct exp_engine *e, struct exp_table *t, const struct exp_val *vals)
{
	struct sqlite_engine *s = SE(e);
	sqlite3_stmt *st = t->priv;
	size_t i;
	int rc = SQLITE_OK;

	for (i = 0; rc == SQLITE_OK && i < t->nr_cols; i++) {
		const struct exp_val *v = &vals[i];
		int col = (int)i + 1;

		switch (v->kind) {
		case EXP_V_NULL:
			rc = sqlite3_bind_null(st, col);
			break;
		case EXP_V_INT:
			rc = sqlite3_bind_int64(st, col, v->i);
			break;
		case EXP_V_UINT:
			rc = sqlite3_bind_int64(st, col, (sqlite3_int64)v->u);
			break;
		case EXP_V_REAL:
			rc = sqlite3_bind_double(st, col, v->d);
			break;
		case EXP_V_TEXT:
			rc = sqlite3_bind_text(st, col, v->t.s, (int)v->t.len, SQLITE_STATIC);
			break;
		}
	}
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_reset(st);	/* every column is bound again for the next row */
	return rc == SQLITE_DONE ? 0 : db_fail(s, t->name);
}

static int sqlite_packet_seen(struct exp_engine *e, int64_t packet, bool *ret_seen)
{
	struct sqlite_engine *s = SE(e);
	int rc;

	if (!s->seen && sqlite3_prepare_v2(s->db, "SELECT 1 FROM ltt_packets WHERE packet = ?",
					   -1, &s->seen, NULL) != SQLITE_OK)
		return db_fail(s, "ltt_packets");
	sqlite3_bind_int64(s->seen, 1, packet);
	rc = sqlite3_step(s->seen);
	sqlite3_reset(s->seen);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_fail(s, "ltt_packets");
	*ret_seen = rc == SQLITE_ROW;
	return 0;
}

static int sqlite_commit(struct exp_engine *e)
{
	return exec(SE(e), "COMMIT; BEGIN");
}

static int sqlite_finish(struct exp_engine *e)
{
	struct sqlite_engine *s = SE(e);
	int ret = exec(s, "UPDATE ltt_export_state SET clean = 1; COMMIT");

	s->in_txn = ret != 0;
	return ret;
}

static void sqlite_table_fini(struct exp_engine *e, struct exp_table *t)
{
	(void)e;
	sqlite3_finalize(t->priv);
	t->priv = NULL;
}

static void sqlite_close(struct exp_engine *e)
{
	struct sqlite_engine *s = SE(e);

	if (!s)
		return;
	if (s->in_txn)
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
	sqlite3_finalize(s->seen);
	sqlite3_close(s->db);
	free(s);
}

const struct exp_engine_ops exp_sqlite_ops = {
	.scheme = "sqlite",
	.open = sqlite_open,
	.table = sqlite_table,
	.row = sqlite_row,
	.packet_seen = sqlite_packet_seen,
	.commit = sqlite_commit,
	.finish = sqlite_finish,
	.table_fini = sqlite_table_fini,
	.close = sqlite_close,
};
