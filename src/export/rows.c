// SPDX-License-Identifier: GPL-2.0-only
/*
 * rows.c - the layout of an export (doc/sql.md): babeltrace2's messages
 * made into the rows an engine keeps.
 *
 * - A table per event class (class.c), its first columns ts (ns since
 *   the epoch), host, trace, stream, cpu and packet.
 * - events: one row per event of every class (name, pid, tid, procname
 *   from the contexts that carry them, NULL elsewhere).
 * - discarded: what the tracer counted lost, per stream and packet.
 * - ltt_packets: every packet exported, by its id (its key's hash,
 *   packet_id()), so that the same packet is never exported twice: a
 *   packet exported before, or read already in this export (a copy of
 *   a trace), is read past, its events counted as skipped.
 *
 * A packet's ltt_packets row is given after its rows; an export cut short
 * leaves rows of packets with no ltt_packets row, which the engine's next
 * open deletes, so an export run again writes each once.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <babeltrace2/babeltrace.h>

#include "export/export.h"

#define COMMIT_EVERY 200000


enum { FIX_TS, FIX_HOST, FIX_TRACE, FIX_STREAM, FIX_CPU, FIX_PACKET, NR_FIXED };

struct pending {
	bool packets;
	uint64_t count;
	int64_t begin_ts, end_ts;
};

struct exp_stream {
	const bt_stream *key;
	char *host, *trace, *name, *trace_key;
	uint64_t stream_class, id;
	int64_t cpu;			/* -1: none */
	bool in_packet, skip;
	uint64_t rank, begin, events;
	int64_t packet;			/* the packet's id: its key's hash */
	struct pending *pending;
	size_t nr_pending;
};

struct exp_rows {
	struct exp_engine *engine;
	const char *const *roots;
	size_t nr_roots;
	const char *prefix;		/* of stream paths, not in their names */
	struct exp_class **classes;
	size_t nr_classes, cap_classes;
	struct exp_stream **streams;
	size_t nr_streams, cap_streams;
	struct exp_table events, discarded, packets;
	bool tables_made;
	uint64_t *ids;			/* packets exported (before, or now): id + 1, 0 free */
	size_t ids_cap, nr_ids;
	uint64_t since_commit;
	struct exp_counts counts;
};

static const struct exp_col_spec events_cols[] = {
	{ "ts", EXP_INT }, { "host", EXP_TEXT }, { "trace", EXP_TEXT }, { "stream", EXP_TEXT },
	{ "cpu", EXP_INT }, { "packet", EXP_INT }, { "name", EXP_TEXT }, { "pid", EXP_INT },
	{ "tid", EXP_INT }, { "procname", EXP_TEXT },
};
enum { EV_NAME = NR_FIXED, EV_PID, EV_TID, EV_PROCNAME };
static const struct exp_col_spec discarded_cols[] = {
	{ "host", EXP_TEXT }, { "trace", EXP_TEXT }, { "stream", EXP_TEXT }, { "cpu", EXP_INT },
	{ "packet", EXP_INT }, { "begin_ts", EXP_INT }, { "end_ts", EXP_INT },
	{ "events", EXP_UINT }, { "packets", EXP_UINT },
};
static const struct exp_col_spec packets_cols[] = {
	{ "packet", EXP_INT }, { "trace_key", EXP_TEXT }, { "stream_class", EXP_UINT }, { "stream_id", EXP_UINT },
	{ "begin", EXP_UINT }, { "host", EXP_TEXT }, { "trace", EXP_TEXT },
	{ "stream", EXP_TEXT }, { "cpu", EXP_INT }, { "events", EXP_UINT },
};

#define NR(a) (sizeof(a) / sizeof((a)[0]))

static int make_tables(struct exp_rows *r);

static int fixed_table(struct exp_table *t, const char *name, const struct exp_col_spec *cols,
		       size_t nr)
{
	size_t i;

	t->name = strdup(name);
	t->cols = calloc(nr, sizeof(*t->cols));
	if (!t->name || !t->cols)
		return -ENOMEM;
	t->nr_cols = nr;
	for (i = 0; i < nr; i++) {
		t->cols[i].type = cols[i].type;
		t->cols[i].name = strdup(cols[i].name);
		if (!t->cols[i].name)
			return -ENOMEM;
	}
	return 0;
}

static void table_fini(struct exp_rows *r, struct exp_table *t)
{
	size_t i;

	if (t->priv)
		r->engine->ops->table_fini(r->engine, t);
	for (i = 0; t->cols && i < t->nr_cols; i++)
		free(t->cols[i].name);
	free(t->cols);
	free(t->name);
	memset(t, 0, sizeof(*t));
}

struct exp_rows *exp_rows_create(struct exp_engine *engine, const char *const *roots,
				 size_t nr_roots)
{
	struct exp_rows *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->engine = engine;
	r->roots = roots;
	r->nr_roots = nr_roots;
	if (fixed_table(&r->events, "events", events_cols, NR(events_cols)) ||
	    fixed_table(&r->discarded, "discarded", discarded_cols, NR(discarded_cols)) ||
	    fixed_table(&r->packets, "ltt_packets", packets_cols, NR(packets_cols))) {
		exp_rows_destroy(r);
		return NULL;
	}
	r->packets.key = "packet";
	return r;
}

static void class_destroy(struct exp_rows *r, struct exp_class *c)
{
	if (c && c->table.priv)
		r->engine->ops->table_fini(r->engine, &c->table);
	exp_class_destroy(c);
}

static void stream_destroy(struct exp_stream *s)
{
	if (!s)
		return;
	free(s->host);
	free(s->trace);
	free(s->name);
	free(s->trace_key);
	free(s->pending);
	free(s);
}

void exp_rows_round_end(struct exp_rows *r)
{
	size_t i;

	for (i = 0; i < r->nr_classes; i++)
		class_destroy(r, r->classes[i]);
	r->nr_classes = 0;
	for (i = 0; i < r->nr_streams; i++)
		stream_destroy(r->streams[i]);
	r->nr_streams = 0;
}

void exp_rows_destroy(struct exp_rows *r)
{
	if (!r)
		return;
	exp_rows_round_end(r);
	free(r->classes);
	free(r->streams);
	table_fini(r, &r->events);
	table_fini(r, &r->discarded);
	table_fini(r, &r->packets);
	free(r->ids);
	free(r);
}

const struct exp_counts *exp_rows_counts(const struct exp_rows *r)
{
	return &r->counts;
}

int exp_rows_commit(struct exp_rows *r, bool wait)
{
	int ret;

	r->since_commit = 0;
	ret = r->tables_made ? r->engine->ops->commit(r->engine) : 0;
	return ret || !wait || !r->tables_made ? ret : r->engine->ops->sync(r->engine);
}

void exp_rows_set_prefix(struct exp_rows *r, const char *prefix)
{
	r->prefix = prefix;
}

int exp_rows_finish(struct exp_rows *r)
{
	int ret = make_tables(r);

	return ret ? ret : r->engine->ops->finish(r->engine);
}

/* Grow a pointer array by one; -ENOMEM. */
static int push(void ***v, size_t *nr, size_t *cap, void *p)
{
	if (*nr == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		void **nv = realloc(*v, ncap * sizeof(**v));

		if (!nv)
			return -ENOMEM;
		*v = nv;
		*cap = ncap;
	}
	(*v)[(*nr)++] = p;
	return 0;
}

static const bt_field *scope_field(const bt_event *ev, enum exp_scope scope)
{
	switch (scope) {
	case EXP_SCOPE_COMMON:
		return bt_event_borrow_common_context_field_const(ev);
	case EXP_SCOPE_SPECIFIC:
		return bt_event_borrow_specific_context_field_const(ev);
	default:
		return bt_event_borrow_payload_field_const(ev);
	}
}

static void str_val(struct exp_val *v, const char *s)
{
	if (s) {
		v->kind = EXP_V_TEXT;
		v->t.s = s;
		v->t.len = strlen(s);
	} else
		v->kind = EXP_V_NULL;
}

static void int_val(struct exp_val *v, bool has, int64_t i)
{
	v->kind = has ? EXP_V_INT : EXP_V_NULL;
	v->i = i;
}

static void fixed_vals(struct exp_val *v, const struct exp_stream *s, bool has_ts, int64_t ts)
{
	int_val(&v[FIX_TS], has_ts, ts);
	str_val(&v[FIX_HOST], s->host);
	str_val(&v[FIX_TRACE], s->trace);
	str_val(&v[FIX_STREAM], s->name);
	int_val(&v[FIX_CPU], s->cpu >= 0, s->cpu);
	int_val(&v[FIX_PACKET], true, s->packet);
}

/* ---- streams and packets ---- */

static struct exp_stream *find_stream(struct exp_rows *r, const bt_stream *key)
{
	size_t i;

	for (i = r->nr_streams; i-- > 0;) {
		if (r->streams[i]->key == key)
			return r->streams[i];
	}
	return NULL;
}

static char *env_str(const bt_trace *trace, const char *name)
{
	const bt_value *v = bt_trace_borrow_environment_entry_value_by_name_const(trace, name);

	if (!v || !bt_value_is_string(v))
		return NULL;
	return strdup(bt_value_string_get(v));
}

/*
 * A stream's name: its file's path from the trace's domain directory on
 * ("ust/uid/1000/64-bit/channel0_0", "kernel/channel0_1"), whatever the
 * directory given; else from the input it was found under.
 */
static char *stream_name(struct exp_rows *r, const char *path)
{
	const char *p, *best = NULL;
	size_t i, len;

	if (!path)
		return NULL;
	if (r->prefix && !strncmp(path, r->prefix, strlen(r->prefix)))
		path += strlen(r->prefix);
	for (p = path; (p = strchr(p, '/')); p++) {
		if (!strncmp(p, "/ust/", 5) || !strncmp(p, "/kernel/", 8))
			best = p + 1;
	}
	if (best)
		return strdup(best);
	for (i = 0; i < r->nr_roots; i++) {
		len = strlen(r->roots[i]);
		if (!strncmp(path, r->roots[i], len) && path[len] == '/')
			return strdup(path + len + 1);
	}
	return strdup(path);
}

static int stream_begin(struct exp_rows *r, const bt_stream *bs)
{
	const bt_trace *trace = bt_stream_borrow_trace_const(bs);
	struct exp_stream *s = calloc(1, sizeof(*s));
	bt_uuid uuid = bt_trace_get_uuid(trace);
	const char *tname = bt_trace_get_name(trace);
	char key[40];

	if (!s)
		return -ENOMEM;
	s->key = bs;
	s->cpu = -1;
	s->stream_class = bt_stream_class_get_id(bt_stream_borrow_class_const(bs));
	s->id = bt_stream_get_id(bs);
	s->host = env_str(trace, "hostname");
	s->trace = env_str(trace, "trace_name");
	if (!s->trace && tname)
		s->trace = strdup(tname);
	s->name = stream_name(r, bt_stream_get_name(bs));
	if (uuid) {
		snprintf(key, sizeof(key),
			 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x",
			 uuid[0], uuid[1], uuid[2], uuid[3], uuid[4], uuid[5], uuid[6], uuid[7],
			 uuid[8], uuid[9], uuid[10], uuid[11], uuid[12], uuid[13], uuid[14], uuid[15]);
		s->trace_key = strdup(key);
	} else {
		s->trace_key = strdup(tname ? tname : "");
	}
	if (!s->trace_key || push((void ***)&r->streams, &r->nr_streams, &r->cap_streams, s)) {
		stream_destroy(s);
		return -ENOMEM;
	}
	return 0;
}

/* ---- the packets exported: a set of ids (open addressing) ---- */

static size_t id_slot(const struct exp_rows *r, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ULL) & (r->ids_cap - 1);

	while (r->ids[i] && r->ids[i] != key)
		i = (i + 1) & (r->ids_cap - 1);
	return i;
}

/* Add @id; *ret_had: it was there. */
static int id_add(struct exp_rows *r, int64_t id, bool *ret_had)
{
	uint64_t key = (uint64_t)id + 1, *old = r->ids;
	size_t i, old_cap = r->ids_cap;

	if ((r->nr_ids + 1) * 2 > r->ids_cap) {
		r->ids_cap = old_cap ? old_cap * 2 : 1024;
		r->ids = calloc(r->ids_cap, sizeof(*r->ids));
		if (!r->ids) {
			r->ids = old;
			r->ids_cap = old_cap;
			return -ENOMEM;
		}
		for (i = 0; i < old_cap; i++) {
			if (old[i])
				r->ids[id_slot(r, old[i])] = old[i];
		}
		free(old);
	}
	i = id_slot(r, key);
	*ret_had = r->ids[i] != 0;
	if (!*ret_had) {
		r->ids[i] = key;
		r->nr_ids++;
	}
	return 0;
}

static int make_tables(struct exp_rows *r)
{
	struct exp_engine *e = r->engine;
	int64_t *known = NULL;
	size_t i, nr = 0;
	bool had;
	int ret;

	if (r->tables_made)
		return 0;
	ret = e->ops->table(e, &r->events);
	if (!ret)
		ret = e->ops->table(e, &r->discarded);
	if (!ret)
		ret = e->ops->table(e, &r->packets);
	if (!ret)
		ret = e->ops->packets(e, &known, &nr);
	for (i = 0; !ret && i < nr; i++)
		ret = id_add(r, known[i], &had);
	free(known);
	r->tables_made = !ret;
	return ret;
}

static int put_discarded(struct exp_rows *r, struct exp_stream *s, const struct pending *p)
{
	struct exp_val v[NR(discarded_cols)];

	str_val(&v[0], s->host);
	str_val(&v[1], s->trace);
	str_val(&v[2], s->name);
	int_val(&v[3], s->cpu >= 0, s->cpu);
	int_val(&v[4], true, s->packet);
	int_val(&v[5], p->begin_ts != INT64_MIN, p->begin_ts);
	int_val(&v[6], p->end_ts != INT64_MIN, p->end_ts);
	v[7].kind = v[8].kind = EXP_V_UINT;
	v[7].u = p->packets ? 0 : p->count;
	v[8].u = p->packets ? p->count : 0;
	if (p->packets)
		r->counts.lost_packets += p->count;
	else
		r->counts.discarded += p->count;
	return r->engine->ops->row(r->engine, &r->discarded, v);
}

/* The discarded counts held for @s's next packet: kept, or not if it was exported before. */
static int settle_pending(struct exp_rows *r, struct exp_stream *s)
{
	size_t i;
	int ret = 0;

	for (i = 0; !s->skip && !ret && i < s->nr_pending; i++)
		ret = put_discarded(r, s, &s->pending[i]);
	s->nr_pending = 0;
	return ret;
}

static int64_t snapshot_ns(const bt_clock_snapshot *cs)
{
	int64_t ns;

	if (!cs || bt_clock_snapshot_get_ns_from_origin(cs, &ns))
		return INT64_MIN;
	return ns;
}

static int discarded(struct exp_rows *r, const bt_message *msg, bool packets)
{
	const bt_stream *bs = packets ? bt_message_discarded_packets_borrow_stream_const(msg) :
		bt_message_discarded_events_borrow_stream_const(msg);
	struct exp_stream *s = find_stream(r, bs);
	const bt_stream_class *sc = bt_stream_borrow_class_const(bs);
	struct pending p = { packets, 0, INT64_MIN, INT64_MIN }, *np;
	bt_property_availability has;

	if (!s)
		return -EINVAL;
	if (packets) {
		has = bt_message_discarded_packets_get_count(msg, &p.count);
		if (bt_stream_class_discarded_packets_have_default_clock_snapshots(sc)) {
			p.begin_ts = snapshot_ns(
				bt_message_discarded_packets_borrow_beginning_default_clock_snapshot_const(msg));
			p.end_ts = snapshot_ns(
				bt_message_discarded_packets_borrow_end_default_clock_snapshot_const(msg));
		}
	} else {
		has = bt_message_discarded_events_get_count(msg, &p.count);
		if (bt_stream_class_discarded_events_have_default_clock_snapshots(sc)) {
			p.begin_ts = snapshot_ns(
				bt_message_discarded_events_borrow_beginning_default_clock_snapshot_const(msg));
			p.end_ts = snapshot_ns(
				bt_message_discarded_events_borrow_end_default_clock_snapshot_const(msg));
		}
	}
	if (has != BT_PROPERTY_AVAILABILITY_AVAILABLE)
		p.count = 0;	/* lost, how many not known: a row of 0 says so */
	if (s->in_packet)
		return s->skip ? 0 : put_discarded(r, s, &p);
	np = realloc(s->pending, (s->nr_pending + 1) * sizeof(*np));
	if (!np)
		return -ENOMEM;
	s->pending = np;
	s->pending[s->nr_pending++] = p;
	return 0;
}

/*
 * What identifies a packet whatever the directory it was read from: its
 * trace's UUID (or name, where it has none), stream class and stream,
 * and its beginning clock value (or its rank in the stream, where the
 * stream has no clock).
 */
struct exp_packet_key {
	const char *trace_key;
	uint64_t stream_class;
	uint64_t stream;
	uint64_t begin;
};

/* A packet's id: its key's FNV-1a hash, 63 bits (a signed column of either engine). */
static int64_t packet_id(const struct exp_packet_key *k)
{
	uint64_t h = 0xcbf29ce484222325ULL, words[3] = { k->stream_class, k->stream, k->begin };
	const unsigned char *p;
	size_t i;

	for (p = (const unsigned char *)k->trace_key; *p; p++)
		h = (h ^ *p) * 0x100000001b3ULL;
	for (i = 0; i < 3 * sizeof(uint64_t); i++)
		h = (h ^ ((words[i / 8] >> (8 * (i % 8))) & 0xff)) * 0x100000001b3ULL;
	return (int64_t)(h & INT64_MAX);
}

static int packet_begin(struct exp_rows *r, const bt_message *msg)
{
	const bt_packet *pk = bt_message_packet_beginning_borrow_packet_const(msg);
	const bt_stream *bs = bt_packet_borrow_stream_const(pk);
	const bt_stream_class *sc = bt_stream_borrow_class_const(bs);
	struct exp_stream *s = find_stream(r, bs);
	const bt_field *ctx = bt_packet_borrow_context_field_const(pk), *cpu = NULL;
	struct exp_packet_key key;
	int ret;

	if (!s)
		return -EINVAL;
	s->rank++;
	s->begin = s->rank;
	if (bt_stream_class_packets_have_beginning_default_clock_snapshot(sc))
		s->begin = bt_clock_snapshot_get_value(
			bt_message_packet_beginning_borrow_default_clock_snapshot_const(msg));
	else if (r->prefix)	/* a rank restarts in each round's copy: it names no packet */
		return exp_engine_fail(r->engine, -ENOTSUP, "%s: its packets have no clock, which "
				       "--follow tells them by: export the trace once it is whole",
				       s->name ? s->name : "a stream");
	if (ctx)
		cpu = bt_field_structure_borrow_member_field_by_name_const(ctx, "cpu_id");
	if (cpu && bt_field_class_type_is(bt_field_get_class_type(cpu),
					  BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		s->cpu = (int64_t)bt_field_integer_unsigned_get_value(cpu);
	key = (struct exp_packet_key){ s->trace_key, s->stream_class, s->id, s->begin };
	s->packet = packet_id(&key);
	ret = make_tables(r);
	if (!ret)
		ret = id_add(r, s->packet, &s->skip);	/* a copy of it read now is skipped too */
	s->in_packet = true;
	s->events = 0;
	r->counts.packets += !s->skip;
	return ret ? ret : settle_pending(r, s);
}

static int packet_end(struct exp_rows *r, const bt_message *msg)
{
	const bt_packet *pk = bt_message_packet_end_borrow_packet_const(msg);
	struct exp_stream *s = find_stream(r, bt_packet_borrow_stream_const(pk));
	struct exp_val v[NR(packets_cols)];

	if (!s)
		return -EINVAL;
	s->in_packet = false;
	if (s->skip)
		return 0;
	int_val(&v[0], true, s->packet);
	str_val(&v[1], s->trace_key);
	v[2].kind = v[3].kind = v[4].kind = v[9].kind = EXP_V_UINT;
	v[2].u = s->stream_class;
	v[3].u = s->id;
	v[4].u = s->begin;
	str_val(&v[5], s->host);
	str_val(&v[6], s->trace);
	str_val(&v[7], s->name);
	int_val(&v[8], s->cpu >= 0, s->cpu);
	v[9].u = s->events;
	return r->engine->ops->row(r->engine, &r->packets, v);
}

static struct exp_class *find_class(struct exp_rows *r, const bt_event_class *ec)
{
	struct exp_class *c;
	size_t i;

	for (i = r->nr_classes; i-- > 0;) {
		if (r->classes[i]->key == ec)
			return r->classes[i];
	}
	c = exp_class_create(ec, events_cols, NR_FIXED);
	if (!c)
		return NULL;
	if (r->engine->ops->table(r->engine, &c->table) ||
	    push((void ***)&r->classes, &r->nr_classes, &r->cap_classes, c)) {
		class_destroy(r, c);
		return NULL;
	}
	return c;
}

/*
 * The events table's value of a context column @col of @c (-1: none),
 * of @kind (an integer, signed, or a text); NULL where the trace's field
 * is of another type (a pid that is a string: the column stays typed).
 */
static void context_val(struct exp_val *v, const struct exp_class *c, long col, int kind)
{
	const struct exp_val *from = col < 0 ? NULL : &c->vals[col];

	v->kind = EXP_V_NULL;
	if (!from)
		return;
	if (kind == EXP_V_TEXT && from->kind == EXP_V_TEXT && c->table.cols[col].type == EXP_TEXT) {
		*v = *from;
	} else if (kind == EXP_V_INT && (from->kind == EXP_V_INT || from->kind == EXP_V_UINT)) {
		v->kind = EXP_V_INT;
		v->i = from->kind == EXP_V_INT ? from->i : (int64_t)from->u;
	}
}

static int event(struct exp_rows *r, const bt_message *msg)
{
	const bt_event *ev = bt_message_event_borrow_event_const(msg);
	struct exp_stream *s = find_stream(r, bt_event_borrow_stream_const(ev));
	const bt_event_class *ec = bt_event_borrow_class_const(ev);
	struct exp_val ev_vals[NR(events_cols)];
	const bt_field *scopes[EXP_NR_SCOPES];
	bool has_ts = bt_stream_class_borrow_default_clock_class_const(
		bt_event_class_borrow_stream_class_const(ec)) != NULL;
	struct exp_class *c;
	int64_t ts = 0;
	size_t i;
	int ret;

	if (!s)
		return -EINVAL;
	if (s->skip) {
		r->counts.skipped++;
		return 0;
	}
	c = find_class(r, ec);
	if (!c)
		return r->engine->err[0] ? -EIO : -ENOMEM;
	if (has_ts) {
		ts = snapshot_ns(bt_message_event_borrow_default_clock_snapshot_const(msg));
		has_ts = ts != INT64_MIN;
	}
	fixed_vals(c->vals, s, has_ts, ts);
	for (i = 0; i < EXP_NR_SCOPES; i++)
		scopes[i] = scope_field(ev, (enum exp_scope)i);
	for (i = NR_FIXED; i < c->table.nr_cols; i++) {
		const struct exp_plan *p = &c->plan[i - NR_FIXED];

		exp_value(&c->vals[i], &c->bufs[i], c->table.cols[i].type, p->label,
			  bt_field_structure_borrow_member_field_by_index_const(scopes[p->scope],
										 p->member));
	}
	ret = r->engine->ops->row(r->engine, &c->table, c->vals);
	if (ret)
		return ret;
	fixed_vals(ev_vals, s, has_ts, ts);
	str_val(&ev_vals[EV_NAME], c->table.name);
	if (bt_event_class_get_name(ec))
		str_val(&ev_vals[EV_NAME], bt_event_class_get_name(ec));
	context_val(&ev_vals[EV_PID], c, c->pid_col, EXP_V_INT);
	context_val(&ev_vals[EV_TID], c, c->tid_col, EXP_V_INT);
	context_val(&ev_vals[EV_PROCNAME], c, c->procname_col, EXP_V_TEXT);
	ret = r->engine->ops->row(r->engine, &r->events, ev_vals);
	if (ret)
		return ret;
	s->events++;
	r->counts.events++;
	if (has_ts)
		r->counts.last_ts = ts;
	r->since_commit++;
	return 0;
}

int exp_rows_message(struct exp_rows *r, const bt_message *msg)
{
	const bt_stream *bs;
	struct exp_stream *s;
	int ret;

	switch (bt_message_get_type(msg)) {
	case BT_MESSAGE_TYPE_STREAM_BEGINNING:
		return stream_begin(r, bt_message_stream_beginning_borrow_stream_const(msg));
	case BT_MESSAGE_TYPE_STREAM_END:
		bs = bt_message_stream_end_borrow_stream_const(msg);
		s = find_stream(r, bs);
		if (!s)
			return -EINVAL;
		ret = make_tables(r);
		return ret ? ret : settle_pending(r, s);
	case BT_MESSAGE_TYPE_PACKET_BEGINNING:
		return packet_begin(r, msg);
	case BT_MESSAGE_TYPE_PACKET_END:
		ret = packet_end(r, msg);
		if (!ret && r->since_commit >= COMMIT_EVERY)
			ret = exp_rows_commit(r, false);
		return ret;
	case BT_MESSAGE_TYPE_EVENT:
		return event(r, msg);
	case BT_MESSAGE_TYPE_DISCARDED_EVENTS:
	case BT_MESSAGE_TYPE_DISCARDED_PACKETS:
		ret = make_tables(r);
		return ret ? ret : discarded(r, msg,
					     bt_message_get_type(msg) ==
						     BT_MESSAGE_TYPE_DISCARDED_PACKETS);
	default:
		return 0;
	}
}
