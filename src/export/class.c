// SPDX-License-Identifier: GPL-2.0-only
/*
 * class.c - an event class's table (doc/sql.md): named as the event
 * (the layout's own names taken: "event:NAME"), its first columns the
 * caller's, then one per context field (the stream's common context,
 * then the event's own) and one per payload field, typed (value.c).  A
 * name taken already gets its scope's prefix (context_, payload_), then
 * _2, _3...  An enumeration is two columns: NAME its label(s), NAME_value
 * its integer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <babeltrace2/babeltrace.h>

#include "export/export.h"

/* The layout's own tables, and the engines' (SQLite: names compare whatever their case). */
static const char *const reserved[] = { "events", "discarded", "ltt_packets", "ltt_exports",
					"ltt_export_state" };

static bool col_taken(const struct exp_table *t, size_t nr, const char *name)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		if (!strcasecmp(t->cols[i].name, name))	/* SQLite's columns have no case */
			return true;
	}
	return false;
}

/* Column @n of @t named @name, or @prefix + @name, or that + _2, _3... */
static int name_col(struct exp_table *t, size_t n, const char *prefix, const char *name,
		    const char *suffix)
{
	struct exp_buf b = { 0 };
	unsigned int k;

	exp_buf_printf(&b, "%s%s", name, suffix);
	if (col_taken(t, n, b.s)) {
		exp_buf_reset(&b);
		exp_buf_printf(&b, "%s%s%s", prefix, name, suffix);
	}
	for (k = 2; !b.nomem && col_taken(t, n, b.s); k++) {
		exp_buf_reset(&b);
		exp_buf_printf(&b, "%s%s%s_%u", prefix, name, suffix, k);
	}
	if (b.nomem) {
		exp_buf_fini(&b);
		return -ENOMEM;
	}
	t->cols[n].name = b.s;
	return 0;
}

/* The type of a member: its one column (an enumeration's label is another). */
static enum exp_type member_type(const bt_field_class *fc)
{
	bt_field_class_type type = bt_field_class_get_type(fc);
	const bt_field_class *elem;

	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BOOL) ||
	    bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER))
		return EXP_INT;
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BIT_ARRAY) ||
	    bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER))
		return EXP_UINT;
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_REAL))
		return EXP_REAL;
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_STRING))
		return EXP_TEXT;
	if (!bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY))
		return EXP_JSON;
	elem = bt_field_class_array_borrow_element_field_class_const(fc);
	type = bt_field_class_get_type(elem);
	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ENUMERATION) ||
	    bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BOOL))
		return EXP_JSON;	/* labels, true and false: JSON's, not numbers */
	switch (member_type(elem)) {
	case EXP_INT:
		return EXP_ARR_INT;
	case EXP_UINT:
		return EXP_ARR_UINT;
	case EXP_REAL:
		return EXP_ARR_REAL;
	default:
		return EXP_JSON;
	}
}

static const bt_field_class *scope_class(const bt_event_class *ec, enum exp_scope scope)
{
	switch (scope) {
	case EXP_SCOPE_COMMON:
		return bt_stream_class_borrow_event_common_context_field_class_const(
			bt_event_class_borrow_stream_class_const(ec));
	case EXP_SCOPE_SPECIFIC:
		return bt_event_class_borrow_specific_context_field_class_const(ec);
	default:
		return bt_event_class_borrow_payload_field_class_const(ec);
	}
}

/* Members a column each (an enumeration two) in @scope of @ec. */
static size_t scope_cols(const bt_event_class *ec, enum exp_scope scope)
{
	const bt_field_class *fc = scope_class(ec, scope);
	uint64_t i, n = fc ? bt_field_class_structure_get_member_count(fc) : 0;
	size_t cols = 0;

	for (i = 0; i < n; i++) {
		const bt_field_class *m = bt_field_class_structure_member_borrow_field_class_const(
			bt_field_class_structure_borrow_member_by_index_const(fc, i));

		cols += bt_field_class_type_is(bt_field_class_get_type(m),
					       BT_FIELD_CLASS_TYPE_ENUMERATION) ? 2 : 1;
	}
	return cols;
}

static int add_scope(struct exp_class *c, const bt_event_class *ec, enum exp_scope scope, size_t *n)
{
	const bt_field_class *fc = scope_class(ec, scope);
	const char *prefix = scope == EXP_SCOPE_PAYLOAD ? "payload_" : "context_";
	uint64_t i, nr = fc ? bt_field_class_structure_get_member_count(fc) : 0;
	struct exp_table *t = &c->table;

	for (i = 0; i < nr; i++) {
		const bt_field_class_structure_member *m =
			bt_field_class_structure_borrow_member_by_index_const(fc, i);
		const bt_field_class *mfc = bt_field_class_structure_member_borrow_field_class_const(m);
		const char *name = bt_field_class_structure_member_get_name(m);
		bool is_enum = bt_field_class_type_is(bt_field_class_get_type(mfc),
						      BT_FIELD_CLASS_TYPE_ENUMERATION);
		size_t k = *n - c->nr_fixed;

		if (name_col(t, *n, prefix, name, ""))
			return -ENOMEM;
		c->plan[k] = (struct exp_plan){ scope, i, is_enum };
		t->cols[*n].type = is_enum ? EXP_TEXT : member_type(mfc);
		if (scope != EXP_SCOPE_PAYLOAD) {
			if (!strcmp(name, "pid") || (!strcmp(name, "vpid") && c->pid_col < 0))
				c->pid_col = (long)*n;
			else if (!strcmp(name, "tid") || (!strcmp(name, "vtid") && c->tid_col < 0))
				c->tid_col = (long)*n;
			else if (!strcmp(name, "procname"))
				c->procname_col = (long)*n;
		}
		(*n)++;
		if (!is_enum)
			continue;
		if (name_col(t, *n, prefix, name, "_value"))
			return -ENOMEM;
		c->plan[k + 1] = (struct exp_plan){ scope, i, false };
		t->cols[*n].type = member_type(mfc);
		(*n)++;
	}
	return 0;
}

struct exp_class *exp_class_create(const bt_event_class *ec, const struct exp_col_spec *fixed,
				   size_t nr_fixed)
{
	struct exp_class *c = calloc(1, sizeof(*c));
	const char *name = bt_event_class_get_name(ec);
	size_t i, n = nr_fixed, nr = nr_fixed;
	struct exp_buf tname = { 0 };
	enum exp_scope s;

	if (!c)
		return NULL;
	c->key = ec;
	c->pid_col = c->tid_col = c->procname_col = -1;
	for (s = 0; s < EXP_NR_SCOPES; s++)
		nr += scope_cols(ec, s);
	if (!name)
		exp_buf_printf(&tname, "event_class_%" PRIu64, bt_event_class_get_id(ec));
	else
		exp_buf_str(&tname, name);
	for (i = 0; i < sizeof(reserved) / sizeof(reserved[0]); i++) {
		if (!strcasecmp(tname.s ? tname.s : "", reserved[i]) ||
		    (i == 0 && !strncasecmp(tname.s ? tname.s : "", "sqlite_", 7))) {
			exp_buf_reset(&tname);
			exp_buf_printf(&tname, "event:%s", name ? name : reserved[i]);
		}
	}
	c->table.name = tname.s;
	c->table.cols = calloc(nr, sizeof(*c->table.cols));
	c->plan = calloc(nr, sizeof(*c->plan));
	c->bufs = calloc(nr, sizeof(*c->bufs));
	c->vals = calloc(nr, sizeof(*c->vals));
	if (tname.nomem || !c->table.cols || !c->plan || !c->bufs || !c->vals)
		goto fail;
	c->table.nr_cols = nr;
	c->nr_fixed = nr_fixed;
	for (i = 0; i < nr_fixed; i++) {
		c->table.cols[i].name = strdup(fixed[i].name);
		c->table.cols[i].type = fixed[i].type;
		if (!c->table.cols[i].name)
			goto fail;
	}
	for (s = 0; s < EXP_NR_SCOPES; s++) {
		if (add_scope(c, ec, s, &n))
			goto fail;
	}
	return c;
fail:
	c->table.nr_cols = nr;
	free(c->table.name);
	for (i = 0; c->table.cols && i < nr; i++)
		free(c->table.cols[i].name);
	free(c->table.cols);
	free(c->plan);
	free(c->bufs);
	free(c->vals);
	free(c);
	return NULL;
}

void exp_class_destroy(struct exp_class *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; c->bufs && i < c->table.nr_cols; i++)
		exp_buf_fini(&c->bufs[i]);
	free(c->bufs);
	free(c->vals);
	free(c->plan);
	for (i = 0; c->table.cols && i < c->table.nr_cols; i++)
		free(c->table.cols[i].name);
	free(c->table.cols);
	free(c->table.name);
	free(c);
}
