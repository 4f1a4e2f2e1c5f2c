// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-conv.c - ftrace ring-buffer pages into CTF packets.
 *
 * Reading: every access to the page goes through rd(), which checks it
 * against the page's length first.  Writing: every byte of an event goes
 * through put(), which checks it against the packet's end; an event that
 * does not fit is written again into the next packet.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base/proc-status.h"
#include "common/ftrace/ftrace-conv.h"
#include "filter-vm/filter-vm.h"
#include "abi/ltt-fields.h"
#include "abi/ltt-packet.h"

#define RB_MISSED_EVENTS	(1u << 31)
#define RB_MISSED_STORED	(1u << 30)
#define RB_LEN_MASK		(RB_MISSED_STORED - 1)
#define RB_TYPE_DATA_MAX	28
#define RB_TYPE_PADDING		29
#define RB_TYPE_TIME_EXTEND	30
#define RB_TYPE_TIME_STAMP	31
#define RB_TS_SHIFT		27
#define RB_TS_MSB		(0xf8ULL << 56)	/* what an absolute stamp lacks */

#define HDR_COMPACT		4
#define HDR_EXTENDED		13
#define HDR_EXTENDED_TAG	31u
#define COMPACT_ID_LIMIT	31u
#define COMPACT_TS_BITS		27
#define RAW_ID_OFFSET		8	/* ftrace:raw_data's id: a u32 after the header */

/* ---- reading the page ---- */

/* A bounded view of the page's data. */
struct view {
	const uint8_t *p;
	size_t len;
};

/* @n bytes at @off of @v into @dst; false (nothing read) past the end. */
/* *@v += @n, saturating: a page's missed count is the page's word, any value. */
static void add_sat(uint64_t *v, uint64_t n)
{
	*v = n > UINT64_MAX - *v ? UINT64_MAX : *v + n;
}

static bool rd(const struct view *v, size_t off, void *dst, size_t n)
{
	if (off > v->len || n > v->len - off)
		return false;
	memcpy(dst, v->p + off, n);
	return true;
}

static bool rd_u32(const struct view *v, size_t off, uint32_t *ret)
{
	return rd(v, off, ret, 4);
}

/* An unsigned integer of 4 or 8 bytes (a local_t, an unsigned long). */
static bool rd_word(const struct view *v, size_t off, size_t size, uint64_t *ret)
{
	uint32_t w32;

	if (size == 8)
		return rd(v, off, ret, 8);
	if (!rd_u32(v, off, &w32))
		return false;
	*ret = w32;
	return true;
}

/* ---- writing the packet ---- */

/* A cursor into the packet; @full once a put did not fit. */
struct out {
	uint8_t *p, *end;
	bool full;
};

static void put(struct out *o, const void *src, size_t n)
{
	if (o->full || n > (size_t)(o->end - o->p)) {
		o->full = true;
		return;
	}
	memcpy(o->p, src, n);
	o->p += n;
}

static void set_u32(uint8_t *pkt, size_t off, uint32_t v)
{
	memcpy(pkt + off, &v, 4);
}

static void set_u64(uint8_t *pkt, size_t off, uint64_t v)
{
	memcpy(pkt + off, &v, 8);
}

/* Open a packet for an event at @ts: it begins at the floor, if set and not later. */
static void open_packet(struct ltt_ftrace_conv *c, uint64_t ts)
{
	uint64_t begin = c->floor && c->floor < ts ? c->floor : ts;
	uint8_t *pkt = c->pkt;

	set_u32(pkt, LTT_RB_PH_MAGIC, LTT_RB_PACKET_MAGIC);
	memcpy(pkt + LTT_RB_PH_UUID, c->uuid, LTT_CTF_UUID_LEN);
	set_u32(pkt, LTT_RB_PH_STREAM_ID, c->stream_id);
	set_u64(pkt, LTT_RB_PH_STREAM_INSTANCE_ID, c->cpu);
	set_u64(pkt, LTT_RB_PH_TIMESTAMP_BEGIN, begin);
	set_u64(pkt, LTT_RB_PH_PACKET_SIZE, (uint64_t)c->packet_size * 8);
	set_u64(pkt, LTT_RB_PH_PACKET_SEQ_NUM, c->seq);
	set_u32(pkt, LTT_RB_PH_CPU_ID, c->cpu);
	c->used = LTT_RB_PACKET_HEADER_SIZE;
	c->pkt_events = 0;
	c->pkt_begin = begin;
	c->pkt_end = ts;
	c->floor = 0;
}

/* Close the open packet and hand it to @emit; its events are lost if refused. */
static int close_packet(struct ltt_ftrace_conv *c, ltt_ftrace_emit_fn emit, void *arg)
{
	struct ltt_ctf_index_entry idx = {
		.offset = 0, .packet_size = (uint64_t)c->packet_size * 8,
		.content_size = (uint64_t)c->used * 8, .timestamp_begin = c->pkt_begin,
		.timestamp_end = c->pkt_end, .events_discarded = c->st.discarded,
		.stream_id = c->stream_id, .stream_instance_id = c->cpu,
		.packet_seq_num = c->seq,
	};
	int ret;

	set_u64(c->pkt, LTT_RB_PH_TIMESTAMP_END, c->pkt_end);
	set_u64(c->pkt, LTT_RB_PH_CONTENT_SIZE, idx.content_size);
	set_u64(c->pkt, LTT_RB_PH_EVENTS_DISCARDED, c->st.discarded);
	memset(c->pkt + c->used, 0, c->packet_size - c->used);
	ret = emit(arg, c->pkt, c->packet_size, &idx);
	if (ret) {
		add_sat(&c->st.emit_failed, c->pkt_events);
		add_sat(&c->st.discarded, c->pkt_events);
		if (!c->emit_err)
			c->emit_err = ret;
	} else {
		c->st.packets++;
	}
	c->seq++;
	c->used = 0;
	return ret;
}

/* ---- payload ---- */

/* A __data_loc field's data within the record; false when it lies. */
static bool loc_data(const struct ltt_ftrace_field *f, const struct view *rec,
		     struct view *ret)
{
	uint32_t loc, off, len;

	if (!rd_u32(rec, f->offset, &loc))
		return false;
	off = (loc & 0xffff) + (f->rel ? f->offset + 4 : 0);
	len = loc >> 16;
	if (off > rec->len || len > rec->len - off)
		return false;
	ret->p = rec->p + off;
	ret->len = len;
	return true;
}

/*
 * The thread group of thread @tid, as /proc says when the record is
 * converted; @tid itself when /proc no longer has it (a task gone since
 * is taken for a process: its own group) or for the idle task (0).
 */
static int32_t thread_group(int32_t tid)
{
	char path[32];
	long v;

	if (tid <= 0)
		return tid;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	if (ltt_proc_status_number(path, "Tgid", &v))
		return tid;
	return v > 0 && v <= INT32_MAX ? (int32_t)v : tid;
}

/*
 * blktrace's rwbs text (@len bytes, NUL-padded) as LTT_RWBS_* bits: an
 * optional F (preflush) before the operation (W, D or DE, F, R, N), then
 * F (FUA), A, S, M.
 */
static uint32_t rwbs_bits(const char *t, size_t len)
{
	static const char ops[] = "WDFRN";
	static const uint32_t op_bits[] = { LTT_RWBS_WRITE, LTT_RWBS_DISCARD, LTT_RWBS_FLUSH,
					    LTT_RWBS_READ, 0 };
	uint32_t bits = 0;
	size_t i = 0;
	const char *op;

	len = strnlen(t, len);
	if (len >= 2 && t[0] == 'F' && strchr(ops, t[1])) {
		bits |= LTT_RWBS_PREFLUSH;
		i = 1;
	}
	if (i < len && (op = strchr(ops, t[i]))) {
		bits |= op_bits[op - ops];
		if (t[i++] == 'D' && i < len && t[i] == 'E') {
			bits |= LTT_RWBS_SECURE;
			i++;
		}
	}
	for (; i < len; i++)
		bits |= t[i] == 'F' ? LTT_RWBS_FUA : t[i] == 'A' ? LTT_RWBS_RAHEAD :
			t[i] == 'S' ? LTT_RWBS_SYNC : t[i] == 'M' ? LTT_RWBS_META : 0;
	return bits;
}

/*
 * The value of @f (an INT written as 4 bytes: a bias or a derivation,
 * layout_ok()) in @rec: the bias added, or what it derives.
 */
static int32_t derived_s32(const struct ltt_ftrace_field *f, const struct view *rec)
{
	int32_t v;

	if (f->derived == LTT_FTRACE_DERIVED_RWBS)
		return (int32_t)rwbs_bits((const char *)rec->p + f->offset, f->size);
	memcpy(&v, rec->p + f->offset, 4);
	if (f->derived == LTT_FTRACE_DERIVED_TGID)
		return thread_group(v);
	return (int32_t)((uint32_t)v + (uint32_t)(int32_t)f->bias);	/* wraps, never UB */
}

/*
 * The count of structure sequence @ev->fields[@i] in @rec: its NAME_length
 * field's (ltt_ftrace_event_to_kabi() checked there is one); UINT32_MAX
 * if not found.
 */
static uint32_t struct_count(const struct ltt_ftrace_event *ev, uint32_t i, const struct view *rec)
{
	const struct ltt_ftrace_field *f = &ev->fields[i], *c;
	size_t len = strlen(f->name);
	uint64_t v = 0;
	uint32_t j;

	for (j = 0; j < i; j = ltt_ftrace_next_field(ev, j)) {
		c = &ev->fields[j];
		if (c->kind == LTT_FTRACE_INT && c->elem_size <= 8 && !strncmp(c->name, f->name, len) &&
		    !strcmp(c->name + len, "_length")) {
			memcpy(&v, rec->p + c->offset, c->elem_size);	/* little endian */
			return v > UINT32_MAX ? UINT32_MAX : (uint32_t)v;
		}
	}
	return UINT32_MAX;
}

/* The payload of @rec (at least layout->min_size bytes); false if torn. */
static bool put_payload(struct out *o, const struct ltt_ftrace_event *ev, const struct view *rec)
{
	static const uint8_t nul;
	const struct ltt_ftrace_field *f;
	struct view d;
	uint32_t i, count;
	int32_t biased;

	for (i = 0; i < ev->nr_fields && !o->full; i++) {
		f = &ev->fields[i];
		switch (f->kind) {
		case LTT_FTRACE_STRING:
			if (!loc_data(f, rec, &d))
				return false;
			d.len = strnlen((const char *)d.p, d.len);
			put(o, d.p, d.len);
			put(o, &nul, 1);
			break;
		case LTT_FTRACE_DYN_ARRAY:
			if (!loc_data(f, rec, &d))
				return false;
			count = (uint32_t)(d.len / f->elem_size);
			put(o, &count, 4);
			put(o, d.p, (size_t)count * f->elem_size);
			break;
		case LTT_FTRACE_STRUCTS:
			/* the trace counts them with NAME_length: the record must agree */
			if (!loc_data(f, rec, &d) || d.len % f->elem_size ||
			    d.len / f->elem_size != struct_count(ev, i, rec))
				return false;
			put(o, d.p, d.len);
			i += f->length;		/* its members: in the elements */
			break;
		case LTT_FTRACE_STRUCT:
			put(o, rec->p + f->offset, f->size);
			i += f->length;
			break;
		case LTT_FTRACE_INT:
			if (f->bias || f->derived) {
				biased = derived_s32(f, rec);
				put(o, &biased, 4);
			} else {
				put(o, rec->p + f->offset, f->size);
			}
			break;
		default:	/* CHARS, ARRAY: as they are */
			put(o, rec->p + f->offset, f->size);
			break;
		}
	}
	return true;
}

static void put_header(struct ltt_ftrace_conv *c, struct out *o, uint32_t id, uint64_t ts)
{
	uint64_t prev = c->pkt_events ? c->pkt_end : c->pkt_begin;
	uint32_t word;
	uint8_t tag = HDR_EXTENDED_TAG;

	if (id < COMPACT_ID_LIMIT && ts - prev < ((uint64_t)1 << COMPACT_TS_BITS)) {
		/* id in bits 0-4, the timestamp's low 27 bits in bits 5-31 */
		word = id | (uint32_t)ts << 5;
		put(o, &word, HDR_COMPACT);
		return;
	}
	put(o, &tag, 1);
	put(o, &id, 4);
	put(o, &ts, 8);
}

/* A record's common_pid (below its min_size). */
static int32_t rec_tid(const struct ltt_ftrace_event *ev, const struct view *rec)
{
	int32_t tid;

	memcpy(&tid, rec->p + ev->pid_offset, 4);
	return tid;
}

/* The stream's context fields of @rec's event (of time @ts). */
static void put_contexts(struct ltt_ftrace_conv *c, struct out *o,
			 const struct ltt_ftrace_event *ev, const struct view *rec, uint64_t ts)
{
	const struct ltt_ftrace_task *task = NULL;
	char procname[LTT_CTX_PROCNAME_LEN];
	int32_t tid = rec_tid(ev, rec), v;
	uint32_t i;

	if (c->task_ctx)
		task = ltt_ftrace_task_current(c->tasks, &c->cur, c->cpu, tid, ts);
	for (i = 0; i < c->nr_ctx; i++) {
		switch (c->ctx_types[i]) {
		case LTT_CONTEXT_TID:
			v = tid;
			break;
		case LTT_CONTEXT_PROCNAME:
			/* the comm, NUL-padded, and the NUL a 16-byte one lacks */
			memcpy(procname, task->comm, sizeof(task->comm));
			procname[sizeof(task->comm)] = '\0';
			put(o, procname, sizeof(procname));
			continue;
		case LTT_CONTEXT_PID:
			v = task->pid;
			break;
		case LTT_CONTEXT_PPID:
			v = task->ppid;
			break;
		case LTT_CONTEXT_VPID:
			v = task->vpid;
			break;
		case LTT_CONTEXT_VTID:
			v = task->vtid;
			break;
		default:	/* CPU_ID */
			v = (int32_t)c->cpu;
			break;
		}
		put(o, &v, 4);
	}
}

/* One event into the open packet, or the next one; counted if it can't be. */
static void write_event(struct ltt_ftrace_conv *c, const struct ltt_ftrace_map *m, uint64_t ts,
			const struct view *rec, ltt_ftrace_emit_fn emit, void *arg)
{
	struct out o;
	int attempt;

	for (attempt = 0; attempt < 2; attempt++) {
		if (!c->used)
			open_packet(c, ts);
		o = (struct out){ c->pkt + c->used, c->pkt + c->packet_size, false };
		put_header(c, &o, m->ctf_id, ts);
		put_contexts(c, &o, m->layout, rec, ts);
		if (!put_payload(&o, m->layout, rec)) {
			c->st.torn++;
			break;
		}
		if (!o.full) {
			c->used = (size_t)(o.p - c->pkt);
			c->pkt_events++;
			c->pkt_end = ts;
			c->st.events++;
			return;
		}
		if (!c->pkt_events) {
			c->st.too_big++;
			break;
		}
		close_packet(c, emit, arg);
	}
	if (c->used && !c->pkt_events) {
		c->used = 0;	/* opened for nothing: not a packet */
		c->floor = c->pkt_begin;	/* the next one begins there */
	}
	add_sat(&c->st.discarded, 1);
}

/* ---- filters ---- */

/* What a program's $ctx reads: the record's tid, the stream's CPU. */
struct filter_priv {
	const struct ltt_ftrace_conv *c;
	const struct ltt_ftrace_event *ev;
	const struct view *rec;
};

static int filter_ctx(void *priv, unsigned int id, struct ltt_filter_value *out)
{
	const struct filter_priv *fp = priv;
	int32_t tid;

	out->type = LTT_FTYPE_S64;
	if (id == LTT_FILTER_CTX_TID) {
		memcpy(&tid, fp->rec->p + fp->ev->pid_offset, 4);	/* below min_size */
		out->v.s = tid;
	} else if (id == LTT_FILTER_CTX_CPU_ID) {
		out->v.s = fp->c->cpu;
	} else {
		return -1;
	}
	return 0;
}

/*
 * The program's view of @rec's fields into @args (a biased field's value
 * in @biased); false if a __data_loc lies.
 */
static bool filter_args(const struct ltt_ftrace_event *ev, const struct view *rec,
			struct ltt_filter_arg *args, int32_t *biased)
{
	const struct ltt_ftrace_field *f;
	struct view d;
	uint32_t i;

	for (i = 0; i < ev->nr_fields; i++) {
		f = &ev->fields[i];
		switch (f->kind) {
		case LTT_FTRACE_STRING:
		case LTT_FTRACE_DYN_ARRAY:
			if (!loc_data(f, rec, &d))
				return false;
			args[i].p = d.p;
			args[i].n = (uint32_t)(f->kind == LTT_FTRACE_STRING ? d.len :
					       d.len / f->elem_size);
			break;
		case LTT_FTRACE_INT:
			args[i] = (struct ltt_filter_arg){ rec->p + f->offset, 0 };
			if (f->bias || f->derived) {
				biased[i] = derived_s32(f, rec);
				args[i].p = &biased[i];
			}
			break;
		case LTT_FTRACE_STRUCT:
		case LTT_FTRACE_STRUCTS:
			/* no filter reads them (ltt_filter_kabi_fields()) */
			memset(&args[i], 0, (f->length + 1) * sizeof(args[i]));
			i += f->length;
			break;
		default:	/* CHARS, ARRAY */
			args[i] = (struct ltt_filter_arg){ rec->p + f->offset, f->length };
			break;
		}
	}
	return true;
}

/*
 * 1: one of the programs @m had at @ts accepts @rec (or it had none); 0:
 * none does; -1: torn.
 */
static int filter_pass(const struct ltt_ftrace_conv *c, const struct ltt_ftrace_map *m,
		       uint64_t ts, const struct view *rec)
{
	const struct ltt_ftrace_map_filter *f = m->filter;
	struct ltt_filter_arg args[LTT_FTRACE_MAX_FIELDS];
	int32_t biased[LTT_FTRACE_MAX_FIELDS];
	struct filter_priv fp = { c, m->layout, rec };
	struct ltt_filter_env env;
	uint32_t i;

	while (f && ts < f->since_ns)
		f = f->prev;
	if (!f || !f->nr)
		return 1;
	/* set up only for a program that runs: most records have none */
	env = (struct ltt_filter_env){
		.args = args, .nr_args = m->layout->nr_fields, .ctx = filter_ctx, .priv = &fp,
	};
	if (!filter_args(m->layout, rec, args, biased))
		return -1;
	for (i = 0; i < f->nr; i++)
		if (ltt_filter_run(f->code[i], &env))
			return 1;
	return 0;
}

/* The raw entry of @rec (raw_data's) by its raw id; NULL: none, or torn. */
static const struct ltt_ftrace_map *raw_entry(const struct ltt_ftrace_conv *c,
					      const struct view *rec, bool *torn)
{
	uint32_t raw_id, i;

	if (!rd_u32(rec, RAW_ID_OFFSET, &raw_id)) {
		*torn = true;
		return NULL;
	}
	for (i = 0; i < c->nr_raw; i++)
		if (c->raw[i].raw_id == raw_id)
			return &c->raw[i].m;
	return NULL;
}

/* A record of a written event, @m's, at time @ts: filtered, then written. */
static void keep_record(struct ltt_ftrace_conv *c, const struct ltt_ftrace_map *m, uint64_t ts,
			const struct view *rec, ltt_ftrace_emit_fn emit, void *arg)
{
	int pass = m->filter ? filter_pass(c, m, ts, rec) : 1;

	if (pass < 0) {
		c->st.torn++;
		add_sat(&c->st.discarded, 1);
		return;
	}
	if (!pass) {
		c->st.filtered++;
		return;
	}
	if (ts < c->last_ts) {
		ts = c->last_ts;
		c->st.clamped++;
	}
	c->last_ts = ts;
	if (c->visit) {
		c->st.events++;
		c->visit(c->visit_arg, m, ts, rec->p, rec->len);
		return;
	}
	write_event(c, m, ts, rec, emit, arg);
}

/* A data entry's record at time @ts. */
static void take_record(struct ltt_ftrace_conv *c, uint64_t ts, const struct view *rec,
			ltt_ftrace_emit_fn emit, void *arg)
{
	const struct ltt_ftrace_map *m;
	bool torn = false;
	uint16_t id;

	if (!rd(rec, 0, &id, 2)) {
		c->st.torn++;
		add_sat(&c->st.discarded, 1);
		return;
	}
	if (c->nr_raw && id == c->raw_ftrace_id)
		m = raw_entry(c, rec, &torn);
	else
		m = id < c->map_len ? &c->map[id] : NULL;
	if (torn) {
		c->st.torn++;
		add_sat(&c->st.discarded, 1);
		return;
	}
	if (!m || !m->layout) {
		c->st.unmapped++;
		return;
	}
	if (rec->len < m->layout->min_size) {
		c->st.torn++;
		add_sat(&c->st.discarded, 1);
		return;
	}
	/* a scan applies the task table's changes only */
	if (!c->scan && m->ctf_id == LTT_FTRACE_CTF_TASKS_ONLY)
		c->st.tasks_only++;
	else if (!c->scan)
		keep_record(c, m, ts, rec, emit, arg);
	/* after the event: its contexts are those of before its change */
	if (m->task.op && c->tasks)
		ltt_ftrace_task_apply(c->tasks, &c->cur, c->cpu, &m->task, rec->p, rec->len,
				      rec_tid(m->layout, rec), ts);
}

/* ---- the page ---- */

/* An absolute stamp lacks the top 5 bits: the page's, carried if it wrapped. */
static uint64_t fix_abs_ts(uint64_t abs, uint64_t page_ts)
{
	if (page_ts & RB_TS_MSB) {
		abs |= page_ts & RB_TS_MSB;
		if (abs < page_ts)
			abs += (uint64_t)1 << 59;
	}
	return abs;
}

/*
 * The entry at @pos: a record (@ret_rec set, @ts updated with its delta)
 * or time or padding.  Returns the entry's length, 0 at the data's end,
 * -1 when it runs past @data.
 */
static long next_entry(const struct view *data, size_t pos, uint64_t page_ts, uint64_t *ts,
		       struct view *ret_rec)
{
	uint32_t h, a0, type, delta;
	size_t len, at = pos + 4;

	ret_rec->p = NULL;
	if (!rd_u32(data, pos, &h))
		return -1;
	type = h & 0x1f;
	delta = h >> 5;
	if (type == RB_TYPE_PADDING && !delta)
		return 0;
	if (type >= 1 && type <= RB_TYPE_DATA_MAX) {
		len = 4 + (size_t)type * 4;
	} else {
		if (!rd_u32(data, at, &a0))
			return -1;
		if (type == RB_TYPE_TIME_EXTEND)
			*ts += ((uint64_t)a0 << RB_TS_SHIFT) | delta;
		else if (type == RB_TYPE_TIME_STAMP)
			*ts = fix_abs_ts(((uint64_t)a0 << RB_TS_SHIFT) | delta, page_ts);
		if (type >= RB_TYPE_TIME_EXTEND)
			return 8;
		if (type == 0 && a0 < 4)
			return -1;
		len = 4 + (size_t)a0;	/* type 0: a0 counts itself; padding: what follows */
		at += 4;
	}
	if (len > data->len - pos)
		return -1;
	if (type != RB_TYPE_PADDING) {
		*ts += delta;
		ret_rec->p = data->p + at;
		ret_rec->len = pos + len - at;
	}
	return (long)len;
}

/* The page's lost events, counted before its own. */
static void take_missed(struct ltt_ftrace_conv *c, const struct view *data, uint64_t commit,
			size_t data_len)
{
	uint64_t n = 1;

	if (!(commit & RB_MISSED_EVENTS))
		return;
	if ((commit & RB_MISSED_STORED) &&
	    !rd_word(data, data_len, c->page.commit_size, &n)) {
		c->st.torn_pages++;
		n = 1;
	} else if (!(commit & RB_MISSED_STORED)) {
		c->st.missed_unknown++;
	}
	add_sat(&c->st.missed, n);
	if (!c->missed_elsewhere)
		add_sat(&c->st.discarded, n);
}

/* The page's entries from @pos (the time before it @ts) on. */
static void walk_page(struct ltt_ftrace_conv *c, const struct view *data, uint64_t page_ts,
		      size_t pos, uint64_t ts, ltt_ftrace_emit_fn emit, void *arg)
{
	struct view rec;
	uint64_t before;
	long n;

	while (pos < data->len) {
		before = ts;
		n = next_entry(data, pos, page_ts, &ts, &rec);
		if (n <= 0) {
			if (n < 0)
				c->st.torn_pages++;
			return;
		}
		/* the side's records of before first; it may stop the page here */
		if (rec.p && c->side && !c->scan && c->side(c->side_arg, ts, emit, arg)) {
			c->paused = true;
			c->pause_pos = pos;
			c->pause_ts = before;
			return;
		}
		if (rec.p && !c->scan)
			c->st.page_records++;
		if (rec.p)
			take_record(c, ts, &rec, emit, arg);
		pos += (size_t)n;
	}
}

/*
 * A page's records: into packets through @emit, or to c->visit when set;
 * with @resume, the rest of the page the side stopped.
 */
static int conv_page(struct ltt_ftrace_conv *c, const void *page, size_t len,
		     ltt_ftrace_emit_fn emit, void *arg, bool resume)
{
	const struct view whole = { page, len };
	struct view data;
	uint64_t page_ts, commit;
	size_t data_len;

	if (!page || len < c->page.data_offset ||
	    !rd_word(&whole, c->page.ts_offset, 8, &page_ts) ||
	    !rd_word(&whole, c->page.commit_offset, c->page.commit_size, &commit))
		return -EINVAL;
	c->emit_err = 0;
	data.p = (const uint8_t *)page + c->page.data_offset;
	data.len = len - c->page.data_offset;
	data_len = (size_t)(commit & RB_LEN_MASK);
	if ((commit >> 32) || data_len > data.len) {
		if (!resume)	/* the page stopped was counted */
			c->st.torn_pages++;	/* the commit lies: what the page holds, no more */
		data_len = data_len > data.len ? data.len : data_len;
	}
	if (!resume)
		take_missed(c, &data, commit, data_len);
	data.len = data_len;
	if (resume) {
		c->paused = false;
		walk_page(c, &data, page_ts, c->pause_pos, c->pause_ts, emit, arg);
	} else {
		walk_page(c, &data, page_ts, 0, page_ts, emit, arg);
	}
	/* a scan (no side) leaves a page stopped as it was */
	return c->paused && !c->scan ? -EAGAIN : c->emit_err;
}

int ltt_ftrace_conv_page(struct ltt_ftrace_conv *c, const void *page, size_t len,
			 ltt_ftrace_emit_fn emit, void *arg)
{
	if (!c || !emit || c->paused)
		return -EINVAL;
	return conv_page(c, page, len, emit, arg, false);
}

int ltt_ftrace_conv_resume(struct ltt_ftrace_conv *c, const void *page, size_t len,
			   ltt_ftrace_emit_fn emit, void *arg)
{
	if (!c || !emit || !c->paused)
		return -EINVAL;
	return conv_page(c, page, len, emit, arg, true);
}

/* An emit for a scan, which writes nothing. */
static int no_emit(void *arg, const void *packet, size_t size,
		   const struct ltt_ctf_index_entry *idx)
{
	(void)arg;
	(void)packet;
	(void)size;
	(void)idx;
	return -EINVAL;
}

int ltt_ftrace_conv_scan_tasks(struct ltt_ftrace_conv *c, const void *page, size_t len)
{
	struct ltt_ftrace_conv_stats st;
	struct ltt_ftrace_task_cur cur;
	int ret;

	if (!c)
		return -EINVAL;
	if (!c->tasks)
		return 0;
	st = c->st;
	cur = c->cur;
	c->scan = true;
	ret = conv_page(c, page, len, no_emit, NULL, false);
	c->scan = false;
	c->cur = cur;
	c->st = st;
	return ret;
}

int ltt_ftrace_conv_visit(struct ltt_ftrace_conv *c, const void *page, size_t len,
			  ltt_ftrace_visit_fn visit, void *arg)
{
	int ret;

	if (!c || !visit)
		return -EINVAL;
	c->visit = visit;
	c->visit_arg = arg;
	ret = conv_page(c, page, len, NULL, NULL, false);
	c->visit = NULL;
	c->visit_arg = NULL;
	return ret;
}

bool ltt_ftrace_record_args(const struct ltt_ftrace_event *ev, const void *rec, size_t len,
			    struct ltt_filter_arg *args, int32_t *biased)
{
	const struct view v = { rec, len };

	return len >= ev->min_size && filter_args(ev, &v, args, biased);
}

/* ---- the rest of the API (its set-up and setters: ftrace-conv-setup.c) ---- */

int ltt_ftrace_conv_record(struct ltt_ftrace_conv *c, uint64_t ts, const void *rec, size_t len,
			   ltt_ftrace_emit_fn emit, void *arg)
{
	const struct view v = { rec, len };
	int before, ret;

	if (!c || !rec || (!emit && !c->visit))
		return -EINVAL;
	before = c->emit_err;	/* a page's, when called from its side */
	c->emit_err = 0;
	take_record(c, ts, &v, emit, arg);
	ret = c->emit_err;
	c->emit_err = before ? before : ret;
	return ret;
}

int ltt_ftrace_conv_flush(struct ltt_ftrace_conv *c, ltt_ftrace_emit_fn emit, void *arg)
{
	if (!c || !emit)
		return -EINVAL;
	if (!c->used)
		return -ENODATA;
	c->emit_err = 0;
	close_packet(c, emit, arg);
	return c->emit_err;
}

int ltt_ftrace_conv_close_at(struct ltt_ftrace_conv *c, uint64_t ts, ltt_ftrace_emit_fn emit,
			     void *arg)
{
	if (!c || !emit)
		return -EINVAL;
	if (ts < c->last_ts)
		ts = c->last_ts;
	if (!c->used) {
		if (!c->floor)
			c->floor = c->last_ts;
		/* a close with no time of its own (0: not read empty) ends at the floor */
		if (ts < c->floor)
			ts = c->floor;
		open_packet(c, ts);	/* empty: from the floor to @ts */
	}
	if (c->pkt_end < ts)
		c->pkt_end = ts;
	c->emit_err = 0;
	close_packet(c, emit, arg);
	c->last_ts = ts;	/* what comes later is no earlier */
	c->floor = ts;
	return c->emit_err;
}

void ltt_ftrace_conv_add_discarded(struct ltt_ftrace_conv *c, uint64_t n)
{
	if (c)
		add_sat(&c->st.discarded, n);
}

void ltt_ftrace_conv_missed_elsewhere(struct ltt_ftrace_conv *c)
{
	c->missed_elsewhere = true;
}

void ltt_ftrace_conv_stats(const struct ltt_ftrace_conv *c, struct ltt_ftrace_conv_stats *ret)
{
	if (c && ret)
		*ret = c->st;
}
