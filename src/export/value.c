// SPDX-License-Identifier: GPL-2.0-only
/*
 * value.c - a field's value in a column of ltt-export's layout: integers,
 * reals and strings as they are; an enumeration's label(s), joined by
 * commas; an array of numbers, a structure, a variant or an option as
 * JSON (an enumeration in it as {"labels": [...], "value": N}; NaN and
 * infinities as null, which JSON has instead).
 */
#include <inttypes.h>
#include <string.h>

#include <babeltrace2/babeltrace.h>

#include "export/export.h"

static void json_field(struct exp_buf *b, const bt_field *f);

static void json_labels(struct exp_buf *b, const bt_field *f, bool is_signed, bool json)
{
	bt_field_class_enumeration_mapping_label_array labels = NULL;
	uint64_t i, n = 0;

	if (is_signed)
		bt_field_enumeration_signed_get_mapping_labels(f, &labels, &n);
	else
		bt_field_enumeration_unsigned_get_mapping_labels(f, &labels, &n);
	for (i = 0; i < n; i++) {
		exp_buf_str(b, i ? "," : "");
		if (json)
			exp_buf_json_str(b, labels[i]);
		else
			exp_buf_str(b, labels[i]);
	}
}

static void json_real(struct exp_buf *b, double d)
{
	if (d != d || d - d != 0)
		exp_buf_str(b, "null");	/* NaN and infinities: JSON has none */
	else
		exp_buf_printf(b, "%.17g", d);
}

static void json_members(struct exp_buf *b, const bt_field *f)
{
	const bt_field_class *fc = bt_field_borrow_class_const(f);
	uint64_t i, n = bt_field_class_structure_get_member_count(fc);

	exp_buf_str(b, "{");
	for (i = 0; i < n; i++) {
		exp_buf_str(b, i ? "," : "");
		exp_buf_json_str(b, bt_field_class_structure_member_get_name(
			bt_field_class_structure_borrow_member_by_index_const(fc, i)));
		exp_buf_str(b, ":");
		json_field(b, bt_field_structure_borrow_member_field_by_index_const(f, i));
	}
	exp_buf_str(b, "}");
}

/* @f as JSON: numbers, strings, arrays, objects; an enumeration as {"label", "value"}. */
static void json_field(struct exp_buf *b, const bt_field *f)
{
	bt_field_class_type type = bt_field_get_class_type(f);
	uint64_t i, n;

	if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ENUMERATION)) {
		bool sig = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER);

		exp_buf_str(b, "{\"labels\":[");
		json_labels(b, f, sig, true);
		if (sig)
			exp_buf_printf(b, "],\"value\":%" PRId64 "}", bt_field_integer_signed_get_value(f));
		else
			exp_buf_printf(b, "],\"value\":%" PRIu64 "}",
				       bt_field_integer_unsigned_get_value(f));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BOOL)) {
		exp_buf_str(b, bt_field_bool_get_value(f) ? "true" : "false");
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BIT_ARRAY)) {
		exp_buf_u64(b, bt_field_bit_array_get_value_as_integer(f), false);
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_UNSIGNED_INTEGER)) {
		exp_buf_u64(b, bt_field_integer_unsigned_get_value(f), false);
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER)) {
		exp_buf_i64(b, bt_field_integer_signed_get_value(f));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL)) {
		json_real(b, bt_field_real_single_precision_get_value(f));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_REAL)) {
		json_real(b, bt_field_real_double_precision_get_value(f));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_STRING)) {
		exp_buf_json_str(b, bt_field_string_get_value(f));
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_STRUCTURE)) {
		json_members(b, f);
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_ARRAY)) {
		n = bt_field_array_get_length(f);
		exp_buf_str(b, "[");
		for (i = 0; i < n; i++) {
			exp_buf_str(b, i ? "," : "");
			json_field(b, bt_field_array_borrow_element_field_by_index_const(f, i));
		}
		exp_buf_str(b, "]");
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_OPTION)) {
		const bt_field *in = bt_field_option_borrow_field_const(f);

		if (in)
			json_field(b, in);
		else
			exp_buf_str(b, "null");
	} else if (bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_VARIANT)) {
		json_field(b, bt_field_variant_borrow_selected_option_field_const(f));
	} else {
		exp_buf_str(b, "null");	/* a type this babeltrace2 build does not know */
	}
}

static void text_val(struct exp_val *v, const char *s, size_t len)
{
	v->kind = EXP_V_TEXT;
	v->t.s = s;
	v->t.len = len;
}

static void buf_val(struct exp_val *v, const struct exp_buf *b)
{
	if (b->nomem)
		v->kind = EXP_V_NULL;
	else
		text_val(v, b->s ? b->s : "", b->len);
}

void exp_value(struct exp_val *v, struct exp_buf *b, enum exp_type col_type, bool label,
	       const struct bt_field *f)
{
	bt_field_class_type type = bt_field_get_class_type(f);

	exp_buf_reset(b);
	if (label) {
		json_labels(b, f, bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SIGNED_INTEGER),
			    false);
		if (b->len)
			buf_val(v, b);
		else
			v->kind = EXP_V_NULL;
		return;
	}
	switch (col_type) {
	case EXP_INT:
		v->kind = EXP_V_INT;
		v->i = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BOOL) ?
			(int64_t)bt_field_bool_get_value(f) : bt_field_integer_signed_get_value(f);
		break;
	case EXP_UINT:
		v->kind = EXP_V_UINT;
		v->u = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_BIT_ARRAY) ?
			bt_field_bit_array_get_value_as_integer(f) :
			bt_field_integer_unsigned_get_value(f);
		break;
	case EXP_REAL:
		v->kind = EXP_V_REAL;
		v->d = bt_field_class_type_is(type, BT_FIELD_CLASS_TYPE_SINGLE_PRECISION_REAL) ?
			bt_field_real_single_precision_get_value(f) :
			bt_field_real_double_precision_get_value(f);
		break;
	case EXP_TEXT:
		text_val(v, bt_field_string_get_value(f), bt_field_string_get_length(f));
		break;
	default:
		json_field(b, f);
		buf_val(v, b);
		break;
	}
}

