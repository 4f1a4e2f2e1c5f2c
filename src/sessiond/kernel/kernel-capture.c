// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel-capture.c - the captures of a trigger's kernel records, as
 * kernel-notify.c's reader reads them (ltt_knotify_capture(),
 * kernel-capture.h): a field of the ftrace record (an integer, a string,
 * an array whole or one element) or a context it carries.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "common/ftrace/ftrace-conv.h"
#include "common/ftrace/ftrace-map.h"
#include "common/proto/trigger-proto.h"
#include "filter-vm/filter-vm.h"
#include "sessiond/kernel/kernel-capture.h"

/* @d: the integer of @size bytes at @p (false: not a size integers have). */
static bool int_value(struct ltt_capture_desc *d, const uint8_t *p, size_t size, bool is_signed)
{
	uint64_t u = 0;

	if (size != 1 && size != 2 && size != 4 && size != 8)
		return false;
	memcpy(&u, p, size);	/* little-endian: the low bytes */
	d->type = is_signed ? LTT_CAPTURE_SIGNED : LTT_CAPTURE_UNSIGNED;
	d->bits = is_signed && size < 8 && (u >> (size * 8 - 1)) ? u | ~0ULL << (size * 8) : u;
	return true;
}

/*
 * @d: the ARRAY of the @a->n integers of array or sequence field @fl (a
 * capture of it whole), their wire form (ltt_capture_put()'s) in @f's
 * room after its @used bytes; unavailable if they have no room whole, as
 * the user-space one: never cut.
 */
static void capture_array(struct ltt_firing *f, struct ltt_capture_desc *d,
			  const struct ltt_ftrace_field *fl, const struct ltt_filter_arg *a,
			  size_t *used)
{
	struct ltt_capture_desc el = { 0 };
	struct ltt_wbuf w;
	uint32_t i;

	ltt_wbuf_init_fixed(&w, f->strings + *used, sizeof(f->strings) - *used);
	for (i = 0; i < a->n && !w.err; i++) {
		if (!int_value(&el, (const uint8_t *)a->p + (size_t)i * fl->elem_size,
			       fl->elem_size, fl->is_signed))
			return;
		ltt_capture_put(&w, &el);
	}
	if (w.err)
		return;
	d->type = LTT_CAPTURE_ARRAY;
	d->nr_elems = a->n;
	d->elems = (const uint8_t *)f->strings + *used;
	d->elems_len = (uint32_t)w.len;
	*used += w.len;
}

void ltt_knotify_capture(struct ltt_firing *f, uint32_t i, const struct ltt_capture_expr *e,
			 const struct ltt_ftrace_event *ev, const struct ltt_filter_arg *args,
			 const uint8_t *rec, uint32_t cpu, size_t *used)
{
	struct ltt_capture_desc *d = &f->n.captures[i];
	const struct ltt_ftrace_field *fl = NULL;
	size_t room = sizeof(f->strings) - *used, n;
	int32_t tid;
	uint32_t j;

	d->type = LTT_CAPTURE_UNAVAILABLE;
	if (e->kind == LTT_CAPTURE_KIND_UNAVAILABLE)
		return;
	if (e->kind == LTT_CAPTURE_KIND_CONTEXT) {
		memcpy(&tid, rec + ev->pid_offset, 4);
		if (e->ctx == LTT_FILTER_CTX_TID) {
			d->type = LTT_CAPTURE_SIGNED;
			d->bits = (uint64_t)(int64_t)tid;
		} else if (e->ctx == LTT_FILTER_CTX_CPU_ID) {
			d->type = LTT_CAPTURE_SIGNED;
			d->bits = cpu;
		}
		return;
	}
	for (j = 0; j < ev->nr_fields && !fl; j = ltt_ftrace_next_field(ev, j))
		if (!strcmp(ev->fields[j].name, e->field))
			fl = &ev->fields[j];	/* a structure's members aside */
	if (!fl)
		return;
	j = (uint32_t)(fl - ev->fields);
	switch (fl->kind) {
	case LTT_FTRACE_INT:
		if (e->index < 0)
			(void)int_value(d, args[j].p, fl->bias || fl->derived ? 4 : fl->size,
					fl->is_signed || fl->bias || fl->derived);
		return;
	case LTT_FTRACE_STRING:
	case LTT_FTRACE_CHARS:
		if (e->index >= 0)
			return;
		n = fl->kind == LTT_FTRACE_STRING ? args[j].n :
						    strnlen((const char *)args[j].p, fl->length);
		n = n < LTT_CAPTURE_STR_MAX - 1 ? n : LTT_CAPTURE_STR_MAX - 1;
		if (n + 1 > room)
			return;
		memcpy(f->strings + *used, args[j].p, n);
		f->strings[*used + n] = '\0';
		d->type = LTT_CAPTURE_STRING;
		d->str = f->strings + *used;
		*used += n + 1;
		return;
	case LTT_FTRACE_STRUCT:
	case LTT_FTRACE_STRUCTS:
		return;		/* not captured: unavailable */
	default:	/* ARRAY, DYN_ARRAY: its elements, or one */
		if (e->index < 0)
			capture_array(f, d, fl, &args[j], used);
		else if ((uint64_t)e->index < args[j].n)
			(void)int_value(d, (const uint8_t *)args[j].p + (size_t)e->index * fl->elem_size,
					fl->elem_size, fl->is_signed);
		return;
	}
}
