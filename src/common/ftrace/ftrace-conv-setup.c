// SPDX-License-Identifier: GPL-2.0-only
/*
 * ftrace-conv-setup.c - a converter (ftrace-conv.h) made and told what it
 * converts: its packets' size, the events it maps to CTF ids (their
 * layouts checked first), the raw records of the state dump, each
 * event's filters, the channel's contexts and task table, its side
 * channel, and where its next packet begins (the session's start, a
 * live beacon).  The conversion itself is ftrace-conv.c's.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "common/ftrace/ftrace-conv.h"

#define MAX_PACKET_SIZE		((size_t)64 << 20)
#define MAX_FTRACE_ID		65535u	/* common_type is a u16 */
#define RAW_MIN_SIZE		12	/* a raw record: header, then its u32 id */

int ltt_ftrace_conv_init(struct ltt_ftrace_conv *c, const uint8_t *uuid, uint32_t stream_id,
			 uint32_t cpu, size_t packet_size,
			 const struct ltt_ftrace_page_layout *page)
{
	if (c)
		memset(c, 0, sizeof(*c));
	if (!c || !uuid || packet_size < 4096 || packet_size > MAX_PACKET_SIZE ||
	    (packet_size & (packet_size - 1)))
		return -EINVAL;
	if (page && (page->commit_size != 4 && page->commit_size != 8))
		return -EINVAL;
	if (page)
		c->page = *page;
	else
		ltt_ftrace_page_layout_default(&c->page);
	c->pkt = malloc(packet_size);
	if (!c->pkt)
		return -ENOMEM;
	memcpy(c->uuid, uuid, LTT_CTF_UUID_LEN);
	c->stream_id = stream_id;
	c->cpu = cpu;
	c->packet_size = packet_size;
	return 0;
}

void ltt_ftrace_conv_fini(struct ltt_ftrace_conv *c)
{
	if (!c)
		return;
	free(c->pkt);
	free(c->map);
	memset(c, 0, sizeof(*c));
}

/* A derived field as the session daemon lays them out. */
static bool derived_ok(const struct ltt_ftrace_field *f)
{
	if (f->kind != LTT_FTRACE_INT || f->elem_size != 4)
		return false;
	switch (f->derived) {
	case LTT_FTRACE_DERIVED_TGID:
	case LTT_FTRACE_DERIVED_TID:
		return f->size == 4 && f->is_signed;
	case LTT_FTRACE_DERIVED_RWBS:
		return f->size >= 1 && !f->is_signed;
	default:
		return false;
	}
}

/* What put_payload() relies on: the fields within min_size, sane kinds. */
static bool layout_ok(const struct ltt_ftrace_event *ev)
{
	struct ltt_kabi_event_desc *desc;
	const struct ltt_ftrace_field *f;
	bool structs = false, ok = true;
	uint32_t i;

	if (ev->nr_fields > LTT_FTRACE_MAX_FIELDS || ev->min_size < 2 ||
	    ev->pid_offset > ev->min_size || ev->min_size - ev->pid_offset < 4)
		return false;
	for (i = 0; i < ev->nr_fields; i++) {
		f = &ev->fields[i];
		if (f->offset > ev->min_size || f->size > ev->min_size - f->offset ||
		    f->kind < LTT_FTRACE_INT || f->kind > LTT_FTRACE_STRUCTS)
			return false;
		if ((f->kind == LTT_FTRACE_STRING || f->kind == LTT_FTRACE_DYN_ARRAY ||
		     f->kind == LTT_FTRACE_STRUCTS) && (f->size != 4 || !f->elem_size))
			return false;
		if (f->kind == LTT_FTRACE_STRUCT || f->kind == LTT_FTRACE_STRUCTS)
			structs = true;
		if (f->bias && (f->kind != LTT_FTRACE_INT || f->size != 4 || !f->is_signed ||
				f->derived))
			return false;
		if (f->derived && !derived_ok(f))
			return false;
	}
	/* structures: their members and counts, as the trace's TSDL was checked */
	if (structs) {
		desc = malloc(sizeof(*desc));
		ok = desc && !ltt_ftrace_event_to_kabi(ev, "event", desc);
		free(desc);
	}
	return ok;
}

int ltt_ftrace_conv_map(struct ltt_ftrace_conv *c, uint32_t ftrace_id, uint32_t ctf_id,
			const struct ltt_ftrace_event *layout)
{
	struct ltt_ftrace_map *map;

	if (!c || !c->pkt || !layout || layout->id != ftrace_id || ftrace_id > MAX_FTRACE_ID ||
	    !layout_ok(layout))
		return -EINVAL;
	if (ftrace_id >= c->map_len) {
		map = realloc(c->map, (ftrace_id + 1) * sizeof(*map));
		if (!map)
			return -ENOMEM;
		memset(map + c->map_len, 0, (ftrace_id + 1 - c->map_len) * sizeof(*map));
		c->map = map;
		c->map_len = ftrace_id + 1;
	}
	c->map[ftrace_id].layout = layout;
	c->map[ftrace_id].ctf_id = ctf_id;
	ltt_ftrace_task_rec_init(layout, &c->map[ftrace_id].task);
	return 0;
}

int ltt_ftrace_conv_map_raw(struct ltt_ftrace_conv *c, uint32_t raw_id, uint32_t ctf_id,
			    const struct ltt_ftrace_event *layout)
{
	uint32_t i;

	if (!c || !c->pkt || !layout || !raw_id || layout->id > MAX_FTRACE_ID ||
	    ctf_id == UINT32_MAX || layout->min_size < RAW_MIN_SIZE || !layout_ok(layout) ||
	    (c->nr_raw && layout->id != c->raw_ftrace_id))
		return -EINVAL;
	for (i = 0; i < c->nr_raw && c->raw[i].raw_id != raw_id; i++)
		;
	if (i == LTT_FTRACE_CONV_RAW_MAX)
		return -ENOSPC;
	c->raw[i] = (struct ltt_ftrace_raw_map){
		.raw_id = raw_id,
		.m = { .layout = layout, .ctf_id = ctf_id,
		       .filter = i < c->nr_raw ? c->raw[i].m.filter : NULL },
	};
	if (i == c->nr_raw)
		c->nr_raw++;
	c->raw_ftrace_id = layout->id;
	return 0;
}

int ltt_ftrace_conv_set_filter(struct ltt_ftrace_conv *c, uint32_t ftrace_id, uint32_t raw_id,
			       const struct ltt_ftrace_map_filter *f)
{
	uint32_t i;

	if (!c)
		return -EINVAL;
	if (!raw_id) {
		if (ftrace_id >= c->map_len || !c->map[ftrace_id].layout)
			return -ENOENT;
		c->map[ftrace_id].filter = f;
		return 0;
	}
	for (i = 0; i < c->nr_raw; i++)
		if (c->raw_ftrace_id == ftrace_id && c->raw[i].raw_id == raw_id) {
			c->raw[i].m.filter = f;
			return 0;
		}
	return -ENOENT;
}

int ltt_ftrace_conv_set_contexts(struct ltt_ftrace_conv *c, const struct ltt_ctx *ctx,
				 uint32_t nr)
{
	uint32_t i;

	if (!c || (nr && !ctx) || nr > LTT_CTX_MAX || c->used)
		return -EINVAL;
	for (i = 0; i < nr; i++) {
		if (!ltt_ctx_check(&ctx[i]))
			return -EINVAL;
		if (ctx[i].type != LTT_CONTEXT_TID && ctx[i].type != LTT_CONTEXT_CPU_ID &&
		    !(c->tasks && ltt_ftrace_conv_task_context(ctx[i].type)))
			return -ENOTSUP;
	}
	c->task_ctx = false;
	for (i = 0; i < nr; i++) {
		c->ctx_types[i] = ctx[i].type;
		c->task_ctx |= ltt_ftrace_conv_task_context(ctx[i].type);
	}
	c->nr_ctx = nr;
	return 0;
}

bool ltt_ftrace_conv_task_context(uint32_t type)
{
	return type == LTT_CONTEXT_PROCNAME || type == LTT_CONTEXT_PID ||
	       type == LTT_CONTEXT_PPID || type == LTT_CONTEXT_VPID || type == LTT_CONTEXT_VTID;
}

int ltt_ftrace_conv_set_tasks(struct ltt_ftrace_conv *c, struct ltt_ftrace_tasks *tasks)
{
	if (!c || c->used)
		return -EINVAL;
	c->tasks = tasks;
	ltt_ftrace_task_cur_init(&c->cur);
	return 0;
}

void ltt_ftrace_conv_set_side(struct ltt_ftrace_conv *c, ltt_ftrace_side_fn side, void *arg)
{
	if (!c)
		return;
	c->side = side;
	c->side_arg = arg;
}

void ltt_ftrace_conv_set_seq(struct ltt_ftrace_conv *c, uint64_t seq)
{
	if (c && seq > c->seq)
		c->seq = seq;
}

void ltt_ftrace_conv_set_begin(struct ltt_ftrace_conv *c, uint64_t ts)
{
	if (c)
		c->floor = ts;
}

void ltt_ftrace_conv_idle(struct ltt_ftrace_conv *c, uint64_t ts)
{
	if (!c)
		return;
	if (ts < c->last_ts)
		ts = c->last_ts;
	if (!c->used && c->floor < ts)
		c->floor = ts;
}
