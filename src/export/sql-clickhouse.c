// SPDX-License-Identifier: GPL-2.0-only
/*
 * sql-clickhouse.c - ltt-export's ClickHouse engine: the layout in a
 * database of a ClickHouse server, through its HTTP interface (POST of a
 * query, rows in blocks of TabSeparated text).
 *
 * Tables are MergeTree, ordered by ts (an event class's, events) or by
 * packet (ltt_packets); discarded by nothing.  A column is Nullable but
 * the one a table is ordered by (a missing value is 0 there) and arrays
 * (a missing one is []).  Rows go as RowBinary (no text to make, none
 * for the server to parse) where every column has on the server the
 * type this export gives it; a table another export made otherwise gets
 * TabSeparated text, which the server converts.
 *
 * Blocks go to the engine's writer thread (pipe.c), which posts them in
 * the order sent while the main thread reads the trace on.  ClickHouse
 * has no transaction: a block of a table goes whole or not at all, and a
 * commit sends every table's block before ltt_packets' one, so a
 * packet's ltt_packets row never precedes its events.  ltt_exports says
 * which exports began and which ended; one that began and did not end
 * leaves rows of packets with no ltt_packets row, deleted at the next
 * open (a mutation: ALTER TABLE ... DELETE), before they go again.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/base/fault.h"
#include "common/model/uri.h"
#include "export/export.h"

#define BLOCK_BYTES (1u << 20)

struct ch_table {
	struct exp_table *t;
	struct exp_buf rows;
	struct exp_buf insert;	/* INSERT INTO db.`t` (`c`, ...) FORMAT RowBinary|TabSeparated */
	const char *order_col;	/* not Nullable: a missing value is 0 */
	long order_idx;		/* its index in t->cols, or -1 */
	bool binary;		/* RowBinary: the server's types are ours */
	struct ch_table *next;
};

struct ch_engine {
	struct exp_engine e;
	char host[256], port[8], db[128];
	char export_id[320];	/* HOST:PID:SECONDS.NANOSECONDS of its start */
	time_t beat;		/* when ltt_exports last heard of this export */
	struct exp_pipe *pipe;
	struct ch_table *tables, *packets;
	struct exp_buf resp;	/* the main thread's answers */
	struct exp_buf wresp;	/* the writer's */
};

#define CE(e) ((struct ch_engine *)(e))

/* ClickHouse's answer to @query with @len bytes of @body (may be NULL), in @resp. */
static int http_query(struct ch_engine *c, const char *query, const char *body, size_t len,
		      struct exp_buf *resp)
{
	return exp_http_post(&c->e, c->host, c->port, query, body, len, resp);
}

static int run(struct ch_engine *c, const char *query)
{
	return http_query(c, query, NULL, 0, &c->resp);
}

/* ---- names and values ---- */

/* @s in backquotes (an identifier) or single quotes (a string), escaped. */
static void quote(struct exp_buf *b, const char *s, char q)
{
	exp_buf_add(b, &q, 1);
	for (; *s; s++) {
		if (*s == q || *s == '\\')
			exp_buf_add(b, "\\", 1);
		exp_buf_add(b, s, 1);
	}
	exp_buf_add(b, &q, 1);
}

static void table_ref(struct ch_engine *c, struct exp_buf *b, const char *table)
{
	quote(b, c->db, '`');
	exp_buf_str(b, ".");
	quote(b, table, '`');
}

static const char *ch_type(enum exp_type t)
{
	switch (t) {
	case EXP_INT:
		return "Int64";
	case EXP_UINT:
		return "UInt64";
	case EXP_REAL:
		return "Float64";
	case EXP_ARR_INT:
		return "Array(Int64)";
	case EXP_ARR_UINT:
		return "Array(UInt64)";
	case EXP_ARR_REAL:
		return "Array(Float64)";
	default:
		return "String";
	}
}

static bool is_array(enum exp_type t)
{
	return t == EXP_ARR_INT || t == EXP_ARR_UINT || t == EXP_ARR_REAL;
}

/* @col's type, as ClickHouse names it */
static void col_type(struct exp_buf *b, const struct exp_col *col, bool order)
{
	if (order || is_array(col->type))
		exp_buf_str(b, ch_type(col->type));
	else
		exp_buf_printf(b, "Nullable(%s)", ch_type(col->type));
}

static void col_decl(struct exp_buf *b, const struct exp_col *col, bool order)
{
	quote(b, col->name, '`');
	exp_buf_str(b, " ");
	col_type(b, col, order);
}

/* A TabSeparated field: backslash, tab and line ends escaped. */
static void tsv_text(struct exp_buf *b, const char *s, size_t len)
{
	const char *run = s, *end = s + len;

	for (; s < end; s++) {
		const char *esc = *s == '\\' ? "\\\\" : *s == '\t' ? "\\t" : *s == '\n' ? "\\n" :
			*s == '\r' ? "\\r" : *s == '\0' ? "\\0" : NULL;

		if (!esc)
			continue;
		exp_buf_add(b, run, (size_t)(s - run));
		exp_buf_str(b, esc);
		run = s + 1;
	}
	exp_buf_add(b, run, (size_t)(end - run));
}

static void tsv_val(struct exp_buf *b, const struct exp_val *v, const struct exp_col *col,
		    bool order)
{
	switch (v->kind) {
	case EXP_V_NULL:
		exp_buf_str(b, is_array(col->type) ? "[]" : order ? "0" : "\\N");
		break;
	case EXP_V_INT:
		exp_buf_i64(b, v->i);
		break;
	case EXP_V_UINT:
		exp_buf_u64(b, v->u, false);
		break;
	case EXP_V_REAL:
		exp_buf_printf(b, "%.17g", v->d);
		break;
	case EXP_V_TEXT:
		tsv_text(b, v->t.s, v->t.len);
		break;
	}
}

/* RowBinary: little-endian words, LEB128 lengths. */
static void rb_word(struct exp_buf *b, uint64_t w)
{
	char le[8];
	int i;

	for (i = 0; i < 8; i++)
		le[i] = (char)(w >> (8 * i));
	exp_buf_add(b, le, 8);
}

static void rb_len(struct exp_buf *b, uint64_t n)
{
	char c;

	do {
		c = (char)(n & 0x7f);
		n >>= 7;
		if (n)
			c = (char)(c | 0x80);
		exp_buf_add(b, &c, 1);
	} while (n);
}

/*
 * An array of numbers from its JSON text ("[1,-2]", "[0.5,null]": null a
 * NaN): the elements that parse, their count first (what does not parse
 * ends it: the block stays aligned whatever the text).
 */
static void rb_array(struct exp_buf *b, const struct exp_val *v, enum exp_type type)
{
	struct exp_buf elems = { 0 };
	const char *p, *end;
	uint64_t n = 0, w;
	char *next;

	end = v->kind == EXP_V_TEXT ? v->t.s + v->t.len : NULL;
	for (p = end && v->t.len > 2 && v->t.s[0] == '[' ? v->t.s + 1 : NULL; p && p < end;
	     p = next + 1) {
		double d;

		if (type == EXP_ARR_REAL && !strncmp(p, "null", 4)) {
			d = NAN;	/* what value.c wrote null for */
			next = (char *)p + 4;
		} else if (type == EXP_ARR_REAL) {
			d = strtod(p, &next);
		} else if (type == EXP_ARR_UINT) {
			w = strtoull(p, &next, 10);
		} else {
			w = (uint64_t)strtoll(p, &next, 10);
		}
		if (next == p)
			break;
		if (type == EXP_ARR_REAL)
			memcpy(&w, &d, sizeof(w));
		rb_word(&elems, w);
		n++;
		if (*next != ',')
			break;
	}
	rb_len(b, n);
	exp_buf_add(b, elems.s ? elems.s : "", elems.len);
	exp_buf_fini(&elems);
}

static void rb_val(struct exp_buf *b, const struct exp_val *v, const struct exp_col *col,
		   bool order)
{
	char null = v->kind == EXP_V_NULL;
	uint64_t w = 0;

	if (is_array(col->type)) {
		rb_array(b, v, col->type);
		return;
	}
	if (!order) {
		exp_buf_add(b, &null, 1);
		if (null)
			return;
	}
	switch (v->kind) {
	case EXP_V_NULL:
		break;
	case EXP_V_INT:
		w = (uint64_t)v->i;
		break;
	case EXP_V_UINT:
		w = v->u;
		break;
	case EXP_V_REAL:
		memcpy(&w, &v->d, sizeof(w));
		break;
	case EXP_V_TEXT:
		rb_len(b, v->t.len);
		exp_buf_add(b, v->t.s, v->t.len);
		return;
	}
	if (col->type == EXP_TEXT || col->type == EXP_JSON)
		rb_len(b, 0);	/* no text for it: the empty string */
	else
		rb_word(b, w);
}

/* ---- the engine ---- */

static int flush(struct ch_engine *c, struct ch_table *ct)
{
	if (!ct->rows.len)
		return 0;
	if (ct->rows.nomem || ct->insert.nomem)
		return -ENOMEM;
	return exp_pipe_send(c->pipe, ct, &ct->rows);
}

/* Say in ltt_exports that export @id has @state ("begun", "done"). */
static int mark_export(struct ch_engine *c, const char *id, const char *state)
{
	struct exp_buf q = { 0 };
	int ret;

	exp_buf_str(&q, "INSERT INTO ");
	table_ref(c, &q, "ltt_exports");
	exp_buf_str(&q, " (id, state) VALUES (");
	quote(&q, id, '\'');
	exp_buf_printf(&q, ", '%s')", state);
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	exp_buf_fini(&q);
	return ret;
}

#define ELSEWHERE_DEAD_S 3600	/* an export of another host silent this long is dead */
#define BEAT_S 60		/* how often a long export says in ltt_exports that it lives */

/*
 * Of @text's "ID\tSECONDS_SINCE_HEARD" lines, the ids of exports that are
 * dead, a line each into @ids: of this host, their process gone (or not
 * ltt-export); of another, silent for ELSEWHERE_DEAD_S.
 */
static void dead_ids(struct ch_engine *c, char *text, struct exp_buf *ids)
{
	char host[HOST_NAME_MAX + 1] = "", comm[64], path[64], *line, *save = NULL, *tab;
	size_t hlen;

	if (gethostname(host, sizeof(host) - 1))
		strcpy(host, "?");
	hlen = strlen(host);
	(void)c;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		bool dead;
		FILE *f;

		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		if (!strncmp(line, host, hlen) && line[hlen] == ':') {
			snprintf(path, sizeof(path), "/proc/%d/comm", atoi(line + hlen + 1));
			f = fopen(path, "re");
			dead = !f || !fgets(comm, sizeof(comm), f) || strncmp(comm, "ltt-export", 10);
			if (f)
				fclose(f);
		} else {
			dead = strtoull(tab + 1, NULL, 10) >= ELSEWHERE_DEAD_S;
		}
		if (dead)
			exp_buf_printf(ids, "%s\n", line);
	}
}

/* Until the server has applied every mutation of the database (bounded: 120 s). */
static int mutations_done(struct ch_engine *c)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	struct exp_buf q = { 0 };
	int ret = 0, i;

	exp_buf_str(&q, "SELECT count() FROM system.mutations WHERE is_done = 0 AND database = ");
	quote(&q, c->db, '\'');
	for (i = 0; !ret && i < 1200; i++) {
		ret = q.nomem ? -ENOMEM : run(c, q.s);
		if (!ret && c->resp.s && c->resp.s[0] == '0')
			break;
		nanosleep(&pause, NULL);
	}
	if (!ret && i == 1200)
		ret = exp_engine_fail(&c->e, -ETIMEDOUT, "ClickHouse: the rows of an export cut "
				      "short are not deleted after 120 s (system.mutations): try again "
				      "once they are");
	exp_buf_fini(&q);
	return ret;
}

/* Rows of packets with no ltt_packets row deleted, if an export began, died and did not end. */
static int recover(struct ch_engine *c)
{
	struct exp_buf q = { 0 }, ids = { 0 }, tables = { 0 };
	char *line, *save = NULL;
	int ret;

	exp_buf_str(&q, "SELECT id, toUInt64(now() - max(at)) FROM ");
	table_ref(c, &q, "ltt_exports");
	exp_buf_str(&q, " GROUP BY id HAVING countIf(state = 'done') = 0 FORMAT TabSeparatedRaw");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	if (ret || !c->resp.len)
		goto end;
	dead_ids(c, c->resp.s, &ids);
	if (!ids.len)
		goto end;	/* the exports not ended are running */
	exp_buf_reset(&q);
	exp_buf_str(&q, "SELECT table FROM system.columns WHERE database = ");
	quote(&q, c->db, '\'');
	exp_buf_str(&q, " AND name = 'packet' AND table != 'ltt_packets' FORMAT TabSeparatedRaw");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	if (!ret)
		exp_buf_str(&tables, c->resp.s);
	ret = ret ? ret : ids.nomem || tables.nomem ? -ENOMEM : 0;
	for (line = ret || !tables.len ? NULL : strtok_r(tables.s, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		struct exp_buf del = { 0 };

		exp_buf_str(&del, "ALTER TABLE ");
		table_ref(c, &del, line);	/* a name as system.columns gives it: no escape in it */
		exp_buf_str(&del, " DELETE WHERE packet NOT IN (SELECT packet FROM ");
		table_ref(c, &del, "ltt_packets");
		exp_buf_str(&del, ")");
		ret = del.nomem ? -ENOMEM : run(c, del.s);
		exp_buf_fini(&del);
	}
	if (!ret)
		ret = mutations_done(c);	/* deleted before they are marked, and sent again */
	for (line = ret ? NULL : strtok_r(ids.s, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save))
		ret = mark_export(c, line, "done");
end:
	exp_buf_fini(&q);
	exp_buf_fini(&ids);
	exp_buf_fini(&tables);
	return ret;
}

static int ch_packets(struct exp_engine *e, int64_t **ret_packets, size_t *ret_nr)
{
	struct ch_engine *c = CE(e);
	struct exp_buf q = { 0 };
	int64_t *seen = NULL;
	size_t cap = 0, nr_seen = 0;
	char *p, *end;
	int ret;

	exp_buf_str(&q, "EXISTS TABLE ");
	table_ref(c, &q, "ltt_packets");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	if (ret || c->resp.s[0] != '1')
		goto end;
	exp_buf_reset(&q);
	exp_buf_str(&q, "SELECT packet FROM ");
	table_ref(c, &q, "ltt_packets");
	exp_buf_str(&q, " FORMAT TabSeparated");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	for (p = c->resp.s; !ret && p && *p; p = end + 1) {
		int64_t v = strtoll(p, &end, 10);

		if (end == p || *end != '\n') {	/* an exception's text after a 200: not all of it */
			ret = exp_engine_fail(&c->e, -EPROTO, "ClickHouse: ltt_packets read short: %.200s",
					      p);
			break;
		}
		if (nr_seen == cap) {
			int64_t *s = realloc(seen, (cap = cap ? cap * 2 : 1024) * sizeof(*s));

			if (!s) {
				ret = -ENOMEM;
				break;
			}
			seen = s;
		}
		seen[nr_seen++] = v;
	}
end:
	exp_buf_fini(&q);
	if (ret) {
		free(seen);
		return ret;
	}
	*ret_packets = seen;
	*ret_nr = nr_seen;
	return 0;
}

/* HOST[:PORT]/DATABASE, as tcp:// URLs are (common/model/uri.h; tcp6:// for [IPV6]). */
static int parse_where(struct ch_engine *c, const char *where, char *err, size_t len)
{
	char text[LTT_URI_TEXT_SIZE];
	struct ltt_uri uri;
	size_t i;

	if (snprintf(text, sizeof(text), "%s://%s", where[0] == '[' ? "tcp6" : "tcp", where) >=
	    (int)sizeof(text) ||
	    ltt_uri_parse(text, &uri) || !uri.path[0] || strlen(uri.path) >= sizeof(c->db))
		goto bad;
	for (i = 0; uri.path[i]; i++) {
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_",
			    uri.path[i]))
			goto bad;
	}
	strcpy(c->db, uri.path);
	snprintf(c->host, sizeof(c->host), "%s", uri.host);
	snprintf(c->port, sizeof(c->port), "%u", uri.ctrl_port ? (unsigned int)uri.ctrl_port : 8123u);
	return 0;
bad:
	snprintf(err, len, "--to 'clickhouse://%s': give clickhouse://HOST[:PORT]/DATABASE (a "
		 "database name of letters, digits and _; port 8123 by default)", where);
	return -EINVAL;
}

static int ch_start(struct ch_engine *c)
{
	char host[HOST_NAME_MAX + 1] = "";
	struct exp_buf q = { 0 };
	struct timespec ts;
	int ret;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (gethostname(host, sizeof(host) - 1))
		strcpy(host, "?");
	snprintf(c->export_id, sizeof(c->export_id), "%s:%d:%lld.%09ld", host, (int)getpid(),
		 (long long)ts.tv_sec, ts.tv_nsec);
	c->beat = ts.tv_sec;
	exp_buf_str(&q, "CREATE DATABASE IF NOT EXISTS ");
	quote(&q, c->db, '`');
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	exp_buf_reset(&q);
	exp_buf_str(&q, "CREATE TABLE IF NOT EXISTS ");
	table_ref(c, &q, "ltt_exports");
	exp_buf_str(&q, " (id String, state String, at DateTime DEFAULT now()) "
		    "ENGINE = MergeTree() ORDER BY id");
	if (!ret)
		ret = q.nomem ? -ENOMEM : run(c, q.s);
	if (!ret)
		ret = recover(c);
	exp_buf_fini(&q);
	return ret ? ret : mark_export(c, c->export_id, "begun");
}

/* The writer thread: a table's block posted. */
static int ch_write(struct exp_engine *e, void *dest, const char *data, size_t len)
{
	struct ch_engine *c = CE(e);
	struct ch_table *ct = dest;
	int ret = http_query(c, ct->insert.s, data, len, &c->wresp);

	/* A test's export cut short after a commit's last block: other streams' packets half kept. */
	if (ct == c->packets)
		ltt_fault_point("export-committed");
	return ret;
}

static int ch_open(const char *where, struct exp_engine **ret_engine, char *err, size_t len)
{
	struct ch_engine *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	c->e.ops = &exp_clickhouse_ops;
	ret = parse_where(c, where, err, len);
	if (!ret && !(c->pipe = exp_pipe_create(&c->e, ch_write)))
		ret = -ENOMEM;
	if (!ret) {
		ret = ch_start(c);
		if (ret)
			snprintf(err, len, "%s", c->e.err[0] ? c->e.err : strerror(-ret));
	}
	if (ret) {
		c->e.ops->close(&c->e);
		return ret;
	}
	*ret_engine = &c->e;
	return 0;
}

/* The columns @t's table has on the server, "NAME\tTYPE" a line, in c->resp. */
static int server_cols(struct ch_engine *c, const char *table)
{
	struct exp_buf q = { 0 };
	int ret;

	exp_buf_str(&q, "SELECT name, type FROM system.columns WHERE database = ");
	quote(&q, c->db, '\'');
	exp_buf_str(&q, " AND table = ");
	quote(&q, table, '\'');
	exp_buf_str(&q, " FORMAT TabSeparatedRaw");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	exp_buf_fini(&q);
	return ret;
}

/* The type @text ("NAME\tTYPE" lines) gives column @name, up to its line's end; NULL: none. */
static const char *server_type(const char *text, const char *name)
{
	size_t len = strlen(name);
	const char *p;

	for (p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL) {
		if (!strncmp(p, name, len) && p[len] == '\t')
			return p + len + 1;
	}
	return NULL;
}

/* Does the server's type of @col (NULL: none yet) differ from ours? */
static bool other_type(const char *theirs, const struct exp_col *col, bool order)
{
	struct exp_buf ours = { 0 };
	bool other;

	col_type(&ours, col, order);
	other = ours.nomem || strncmp(theirs, ours.s, ours.len) ||
		(theirs[ours.len] && theirs[ours.len] != '\n');
	exp_buf_fini(&ours);
	return other;
}

static int ch_table(struct exp_engine *e, struct exp_table *t)
{
	struct ch_engine *c = CE(e);
	struct ch_table *ct = calloc(1, sizeof(*ct));
	struct exp_buf q = { 0 }, have = { 0 };
	size_t i;
	int ret;

	if (!ct)
		return -ENOMEM;
	ct->t = t;
	ct->order_col = t->key ? t->key : !strcmp(t->cols[0].name, "ts") ? "ts" : NULL;
	ct->order_idx = -1;
	for (i = 0; ct->order_col && i < t->nr_cols; i++) {
		if (!strcmp(ct->order_col, t->cols[i].name))
			ct->order_idx = (long)i;
	}
	ct->binary = true;
	exp_buf_str(&q, "CREATE TABLE IF NOT EXISTS ");
	table_ref(c, &q, t->name);
	for (i = 0; i < t->nr_cols; i++) {
		exp_buf_str(&q, i ? ", " : " (");
		col_decl(&q, &t->cols[i], ct->order_col && !strcmp(ct->order_col, t->cols[i].name));
	}
	exp_buf_str(&q, ") ENGINE = MergeTree() ORDER BY ");
	if (ct->order_col)
		quote(&q, ct->order_col, '`');
	else
		exp_buf_str(&q, "tuple()");
	ret = q.nomem ? -ENOMEM : run(c, q.s);
	if (!ret)
		ret = server_cols(c, t->name);
	if (!ret)
		exp_buf_str(&have, c->resp.s);
	for (i = 0; !ret && i < t->nr_cols; i++) {
		const char *theirs = server_type(have.s, t->cols[i].name);

		if (theirs) {
			ct->binary = ct->binary && !other_type(theirs, &t->cols[i],
							       (long)i == ct->order_idx);
			continue;
		}
		exp_buf_reset(&q);
		exp_buf_str(&q, "ALTER TABLE ");
		table_ref(c, &q, t->name);
		exp_buf_str(&q, " ADD COLUMN ");
		col_decl(&q, &t->cols[i], false);
		ret = q.nomem ? -ENOMEM : run(c, q.s);
	}
	exp_buf_str(&ct->insert, "INSERT INTO ");
	table_ref(c, &ct->insert, t->name);
	for (i = 0; i < t->nr_cols; i++) {
		exp_buf_str(&ct->insert, i ? ", " : " (");
		quote(&ct->insert, t->cols[i].name, '`');
	}
	exp_buf_str(&ct->insert, ct->binary ? ") FORMAT RowBinary" : ") FORMAT TabSeparated");
	exp_buf_fini(&q);
	exp_buf_fini(&have);
	if (ret || ct->insert.nomem) {
		exp_buf_fini(&ct->insert);
		free(ct);
		return ret ? ret : -ENOMEM;
	}
	t->priv = ct;
	if (!strcmp(t->name, "ltt_packets")) {
		c->packets = ct;	/* sent last */
	} else {
		ct->next = c->tables;
		c->tables = ct;
	}
	return 0;
}

static int ch_row(struct exp_engine *e, struct exp_table *t, const struct exp_val *vals)
{
	struct ch_table *ct = t->priv;
	size_t i;

	for (i = 0; ct->binary && i < t->nr_cols; i++)
		rb_val(&ct->rows, &vals[i], &t->cols[i], (long)i == ct->order_idx);
	for (i = 0; !ct->binary && i < t->nr_cols; i++) {
		if (i)
			exp_buf_add(&ct->rows, "\t", 1);
		tsv_val(&ct->rows, &vals[i], &t->cols[i], (long)i == ct->order_idx);
	}
	if (!ct->binary)
		exp_buf_add(&ct->rows, "\n", 1);
	if (ct->rows.nomem)
		return -ENOMEM;
	return ct != CE(e)->packets && ct->rows.len >= BLOCK_BYTES ? flush(CE(e), ct) : 0;
}

static int ch_commit(struct exp_engine *e)
{
	struct ch_engine *c = CE(e);
	struct ch_table *ct;
	int ret = 0;

	for (ct = c->tables; ct && !ret; ct = ct->next)
		ret = flush(c, ct);
	if (!ret && c->packets)
		ret = flush(c, c->packets);
	if (!ret && time(NULL) - c->beat >= BEAT_S) {
		c->beat = time(NULL);
		ret = mark_export(c, c->export_id, "alive");
	}
	return ret;
}

static int ch_sync(struct exp_engine *e)
{
	struct ch_engine *c = CE(e);
	int ret = exp_pipe_sync(c->pipe);
	time_t now = time(NULL);

	if (ret || now - c->beat < BEAT_S)
		return ret;
	c->beat = now;
	return mark_export(c, c->export_id, "alive");
}

static int ch_finish(struct exp_engine *e)
{
	struct ch_engine *c = CE(e);
	int ret = ch_commit(e);

	if (!ret)
		ret = exp_pipe_sync(c->pipe);
	return ret ? ret : mark_export(c, c->export_id, "done");
}

static void ch_table_fini(struct exp_engine *e, struct exp_table *t)
{
	struct ch_engine *c = CE(e);
	struct ch_table *ct = t->priv, **pp;

	exp_pipe_sync(c->pipe);	/* not in the writer's hands (an error stops it first) */
	for (pp = &c->tables; *pp; pp = &(*pp)->next) {
		if (*pp == ct) {
			*pp = ct->next;
			break;
		}
	}
	if (c->packets == ct)
		c->packets = NULL;
	exp_buf_fini(&ct->rows);
	exp_buf_fini(&ct->insert);
	free(ct);
	t->priv = NULL;
}

static void ch_close(struct exp_engine *e)
{
	struct ch_engine *c = CE(e);

	if (!c)
		return;
	exp_pipe_destroy(c->pipe);
	exp_buf_fini(&c->resp);
	exp_buf_fini(&c->wresp);
	free(c);
}

const struct exp_engine_ops exp_clickhouse_ops = {
	.scheme = "clickhouse",
	.open = ch_open,
	.table = ch_table,
	.row = ch_row,
	.packets = ch_packets,
	.commit = ch_commit,
	.sync = ch_sync,
	.finish = ch_finish,
	.table_fini = ch_table_fini,
	.close = ch_close,
};
